//! The motion tests' oracle: bvtool's exact discrete `collide` (or
//! `within`) at dense samples of a motion, refined by bisection, and the
//! check of `time_of_impact`'s certificate against it.

use bvtool::check::poses::random_rotation;
use bvtool::pose::Pose;
use bvtool::query::motion::{ImpactOptions, Motion, Status, Sweep};
use bvtool::query::{ContactMode, collide, within};
use bvtool::tree::ObbTree;
use nalgebra::{Point3, UnitQuaternion, Vector3};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Contact at `t` (within `clearance` when it is above 0) by the exact
/// discrete queries.
pub fn meets(a: &ObbTree, b: &ObbTree, motion: &Motion, t: f64, clearance: f64) -> bool {
    let pose = motion.pose_at(t);
    if clearance > 0.0 {
        within(a, b, &pose, clearance, ContactMode::First).within
    } else {
        collide(a, b, &pose, ContactMode::First).intersecting
    }
}

/// The first of `n + 1` equally spaced samples that meets, refined by 60
/// bisections from the sample before it: `(last free time, first meeting
/// time)`, or `None` when no sample meets.
pub fn sampled(a: &ObbTree, b: &ObbTree, motion: &Motion, n: usize, d: f64) -> Option<(f64, f64)> {
    let k = (0..=n).find(|&k| meets(a, b, motion, k as f64 / n as f64, d))?;
    if k == 0 {
        return Some((0.0, 0.0));
    }
    let (mut lo, mut hi) = ((k - 1) as f64 / n as f64, k as f64 / n as f64);
    for _ in 0..60 {
        let m = 0.5 * (lo + hi);
        if meets(a, b, motion, m, d) {
            hi = m
        } else {
            lo = m
        }
    }
    Some((lo, hi))
}

/// A random rotation of at most `max` radians (any, when `max` ≥ π).
pub fn rotation_within(rng: &mut ChaCha8Rng, max: f64) -> UnitQuaternion<f64> {
    if max >= std::f64::consts::PI {
        return random_rotation(rng);
    }
    let axis = Vector3::new(rng.random(), rng.random(), rng.random()).map(|x: f64| x - 0.5);
    UnitQuaternion::from_scaled_axis(axis.normalize() * rng.random_range(0.0..max))
}

/// A point uniformly in the cube of half side `reach` about `centre`.
pub fn point_near(rng: &mut ChaCha8Rng, centre: &Point3<f64>, reach: f64) -> Vector3<f64> {
    centre.coords
        + Vector3::new(rng.random(), rng.random(), rng.random())
            .map(|x: f64| (2.0 * x - 1.0) * reach)
}

/// `n` random motions with both ends' translations in the cube of half
/// side `reach` about `centre`, a random start rotation, and a turn of at
/// most 0.3 rad (even motions) or any (odd ones).
pub fn random_motions(
    rng: &mut ChaCha8Rng,
    n: usize,
    centre: &Point3<f64>,
    reach: f64,
) -> Vec<Motion> {
    (0..n)
        .map(|i| {
            let turn = if i % 2 == 0 { 0.3 } else { 4.0 };
            let p0 = Pose::new(point_near(rng, centre, reach), random_rotation(rng));
            let p1 = Pose::new(
                point_near(rng, centre, reach),
                p0.rotation * rotation_within(rng, turn),
            );
            Motion::new(p0, p1)
        })
        .collect()
}

/// What [`check_against_sampling`] saw.
#[derive(Debug, Default)]
pub struct Tally {
    /// Motions with a contact.
    pub hits: usize,
    /// Motions certified free.
    pub frees: usize,
    /// Distance calls of each motion.
    pub calls: Vec<u64>,
}

/// Checks `time_of_impact` on each motion against [`sampled`] at `n + 1`
/// samples: a free answer where the oracle meets, a hit that `collide`
/// does not confirm, an oracle contact inside the certified free interval,
/// a `t` more than δ after the oracle's contact, or an undecided answer
/// panic (naming the motion).
pub fn check_against_sampling(
    ta: &ObbTree,
    tb: &ObbTree,
    motions: &[Motion],
    n: usize,
    opts: &ImpactOptions,
) -> Tally {
    let mut sweep = Sweep::new(ta, tb);
    let mut tally = Tally::default();
    let d = opts.clearance;
    for (i, motion) in motions.iter().enumerate() {
        let got = sweep.time_of_impact(motion, opts).unwrap();
        tally.calls.push(got.distance_calls);
        let oracle = sampled(ta, tb, motion, n, d);
        let what = format!("motion {i}: {motion:?}: {got:?}, oracle {oracle:?}");
        match got.status {
            Status::Free => {
                assert!(oracle.is_none(), "missed contact, {what}");
                assert_eq!(got.free_until, 1.0);
                tally.frees += 1;
            }
            Status::Hit => {
                let c = got.contact.unwrap();
                assert!(meets(ta, tb, motion, c.t, d), "{what}");
                assert!(
                    c.t - got.free_until <= opts.tol && got.free_until <= c.t,
                    "{what}"
                );
                if let Some((_, first)) = oracle {
                    assert!(
                        first >= got.free_until,
                        "contact in the free interval, {what}"
                    );
                    assert!(c.t <= first + opts.tol, "{what}");
                }
                tally.hits += 1;
            }
            Status::Undecided => panic!("undecided, {what}"),
        }
    }
    tally
}
