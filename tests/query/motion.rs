//! Motion: the interpolation against nalgebra's slerp, the speed bound
//! against finite differences, and time of impact against bvtool's exact
//! discrete `collide` (and `within`) at dense samples refined by bisection,
//! and against the exact contact interval of two boxes in linear motion
//! (a thin blade swept past a thin pin, contact shorter than 1/10⁴ of the
//! path).

use bvtool_dev as common;

use bvtool::TriMesh;
use bvtool::check::poses::random_rotation;
use bvtool::pose::Pose;
use bvtool::query::motion::{ImpactOptions, Motion, Status, Sweep};
use bvtool::tree::ObbTree;
use common::motion::{check_against_sampling, meets, point_near, random_motions, sampled};
use common::shapes::{closed_cylinder, cube_triangles, icosphere, mesh, torus};
use nalgebra::{Point3, UnitQuaternion, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A closed box of half extents `h` about the origin.
fn cuboid(h: [f64; 3]) -> TriMesh {
    let v = (0..8)
        .map(|k| {
            let s = |bit: usize, i: usize| if k >> bit & 1 == 1 { h[i] } else { -h[i] };
            Point3::new(s(0, 0), s(1, 1), s(2, 2))
        })
        .collect();
    mesh(v, cube_triangles())
}

fn tree(m: &TriMesh) -> ObbTree {
    ObbTree::build_default(m, Default::default())
}

fn random_pose(rng: &mut ChaCha8Rng, reach: f64) -> Pose {
    Pose::new(
        point_near(rng, &Point3::origin(), reach),
        random_rotation(rng),
    )
}

#[test]
fn pose_at_is_lerp_and_shortest_slerp() {
    let mut rng = ChaCha8Rng::seed_from_u64(380);
    for _ in 0..500 {
        let (p0, p1) = (random_pose(&mut rng, 5.0), random_pose(&mut rng, 5.0));
        let motion = Motion::new(p0, p1);
        // −q is the same rotation: the same motion.
        let flipped = Pose::new(
            p1.translation,
            UnitQuaternion::new_unchecked(-p1.rotation.into_inner()),
        );
        let other = Motion::new(p0, flipped);
        assert!((motion.angle() - p0.rotation.angle_to(&p1.rotation)).abs() < 1e-9);
        assert_eq!(motion.pose_at(0.0), p0);
        assert_eq!(motion.pose_at(1.0), p1);
        for _ in 0..5 {
            let t: f64 = rng.random();
            let p = motion.pose_at(t);
            let lerp = p0.translation.lerp(&p1.translation, t);
            assert!((p.translation - lerp).norm() < 1e-12);
            let Some(slerp) = p0.rotation.try_slerp(&p1.rotation, t, 1e-9) else {
                continue;
            };
            assert!(p.rotation.angle_to(&slerp) < 1e-9, "t {t}");
            assert!(p.rotation.angle_to(&other.pose_at(t).rotation) < 1e-9);
            // Constant angular speed: the angle turned is t·θ.
            assert!((p0.rotation.angle_to(&p.rotation) - t * motion.angle()).abs() < 1e-9);
        }
    }
}

#[test]
fn speed_bound_bounds_every_point() {
    let mut rng = ChaCha8Rng::seed_from_u64(381);
    let m = torus(1.0, 0.35, 12, 8);
    let t = tree(&m);
    let radius = Sweep::new(&t, &t).radius();
    let brute = m
        .vertices
        .iter()
        .map(|v| v.coords.norm())
        .fold(0.0, f64::max);
    assert!(radius >= brute && radius <= brute * (1.0 + 1e-12));
    let mut tightest: f64 = 0.0;
    for _ in 0..200 {
        let motion = Motion::new(random_pose(&mut rng, 3.0), random_pose(&mut rng, 3.0));
        let speed = motion.speed_bound(radius);
        for _ in 0..5 {
            let (s, u): (f64, f64) = (rng.random(), rng.random());
            let (ps, pu) = (motion.pose_at(s), motion.pose_at(u));
            for v in &m.vertices {
                let moved = (ps.transform_point(v) - pu.transform_point(v)).norm();
                assert!(moved <= speed * (s - u).abs() + 1e-12);
                tightest = tightest.max(moved / (speed * (s - u).abs()));
            }
        }
    }
    // The bound is attained or nearly (not a vacuous bound).
    assert!(tightest > 0.5, "{tightest}");
}

/// `motions` random motions of B against A ([`random_motions`]) checked
/// against dense sampling ([`check_against_sampling`], 1,001 samples).
fn against_sampling(
    a: &TriMesh,
    b: &TriMesh,
    seed: u64,
    motions: usize,
    reach: f64,
    clearance: f64,
) -> (usize, usize) {
    let (ta, tb) = (tree(a), tree(b));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let motions = random_motions(&mut rng, motions, &Point3::origin(), reach);
    let opts = ImpactOptions {
        clearance,
        ..Default::default()
    };
    let tally = check_against_sampling(&ta, &tb, &motions, 1000, &opts);
    (tally.hits, tally.frees)
}

#[test]
fn time_of_impact_torus_sphere_against_sampling() {
    let (hits, frees) =
        against_sampling(&torus(1.0, 0.3, 16, 8), &icosphere(1), 382, 120, 2.5, 0.0);
    assert!(hits >= 30 && frees >= 20, "{hits} hits, {frees} free");
}

#[test]
fn time_of_impact_cylinder_torus_against_sampling() {
    let (hits, frees) = against_sampling(
        &closed_cylinder(8, 0.2, 2.0),
        &torus(0.8, 0.2, 12, 6),
        383,
        120,
        2.0,
        0.0,
    );
    assert!(hits >= 30 && frees >= 20, "{hits} hits, {frees} free");
}

#[test]
fn clearance_against_sampling() {
    let (hits, frees) = against_sampling(
        &icosphere(1),
        &closed_cylinder(6, 0.3, 1.5),
        384,
        60,
        2.5,
        0.2,
    );
    assert!(hits >= 15 && frees >= 10, "{hits} hits, {frees} free");
}

/// The interval of `t` in [0, 1] where two axis-aligned boxes of half
/// extents `h` (sum of both) overlap while B's centre moves linearly from
/// `c0` to `c1` (A's at the origin): per axis `|c(t)| ≤ h`.
fn slab(c0: &Vector3<f64>, c1: &Vector3<f64>, h: &Vector3<f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for k in 0..3 {
        let (x0, dx) = (c0[k], c1[k] - c0[k]);
        if dx == 0.0 {
            if x0.abs() > h[k] {
                return (1.0, 0.0);
            }
            continue;
        }
        let (ta, tb) = ((-h[k] - x0) / dx, (h[k] - x0) / dx);
        lo = lo.max(ta.min(tb));
        hi = hi.min(ta.max(tb));
    }
    (lo, hi)
}

#[test]
fn thin_blade_past_thin_pin_is_found() {
    let w = 5e-4;
    let (pin, blade) = ([w, w, 1.0], [w, 1.0, 0.5]);
    let (ta, tb) = (tree(&cuboid(pin)), tree(&cuboid(blade)));
    let h = Vector3::new(2.0 * w, w + 1.0, 1.5);
    let mut sweep = Sweep::new(&ta, &tb);
    let opts = ImpactOptions::default();
    let mut rng = ChaCha8Rng::seed_from_u64(385);
    let (mut hits, mut frees, mut shortest) = (0, 0, 1.0_f64);
    for i in 0..300 {
        let lateral = |rng: &mut ChaCha8Rng| rng.random_range(-1.8..1.8);
        let c0 = Vector3::new(-50.0, lateral(&mut rng), lateral(&mut rng));
        let c1 = Vector3::new(50.0, lateral(&mut rng), lateral(&mut rng));
        let (lo, hi) = slab(&c0, &c1, &h);
        let motion = Motion::new(
            Pose::new(c0, UnitQuaternion::identity()),
            Pose::new(c1, UnitQuaternion::identity()),
        );
        let got = sweep.time_of_impact(&motion, &opts).unwrap();
        let what = format!("motion {i}: contact [{lo}, {hi}], {got:?}");
        if hi - lo > 1e-7 {
            // Contact, shorter than 1/10⁴ of the path.
            assert!(hi - lo < 1e-4, "{what}");
            shortest = shortest.min(hi - lo);
            assert_eq!(got.status, Status::Hit, "{what}");
            let t = got.contact.unwrap().t;
            assert!(got.free_until <= lo + 1e-9 && t >= lo - 1e-9, "{what}");
            assert!(t - lo <= opts.tol + 1e-9, "{what}");
            hits += 1;
        } else if lo - hi > 1e-7 {
            assert_eq!(got.status, Status::Free, "{what}");
            frees += 1;
        }
    }
    assert!(hits >= 60 && frees >= 60, "{hits} hits, {frees} free");
    // The contacts are shorter than 1,000 samples' spacing could see.
    assert!(shortest < 1e-4, "{shortest}");
}

#[test]
fn a_graze_within_the_margin_is_undecided_not_guessed() {
    // The blade slides past the pin 1e-9 away: no contact, and no
    // certificate within 10,000 distance calls either (each step ≤ 1e-11).
    let w = 5e-4;
    let (ta, tb) = (tree(&cuboid([w, w, 1.0])), tree(&cuboid([w, 1.0, 0.5])));
    let mut sweep = Sweep::new(&ta, &tb);
    let y = 1.0 + w + 1e-9;
    let motion = Motion::new(
        Pose::new(Vector3::new(-50.0, y, 0.0), UnitQuaternion::identity()),
        Pose::new(Vector3::new(50.0, y, 0.0), UnitQuaternion::identity()),
    );
    let opts = ImpactOptions {
        max_distance_calls: 10_000,
        ..Default::default()
    };
    let got = sweep.time_of_impact(&motion, &opts).unwrap();
    assert_eq!(got.status, Status::Undecided, "{got:?}");
    assert!(got.contact.is_none() && got.distance_calls <= 10_000);
    // Free up to about where the blade reaches the pin's x, not beyond.
    let reach = (50.0 - 2.0 * w) / 100.0;
    assert!(got.free_until >= reach - 1e-6 && got.free_until < 0.5 + 2.0 * w / 100.0);
    // 1e-3 away it is certified free.
    let apart = Motion::new(
        Pose::new(
            Vector3::new(-50.0, y + 1e-3, 0.0),
            UnitQuaternion::identity(),
        ),
        Pose::new(
            Vector3::new(50.0, y + 1e-3, 0.0),
            UnitQuaternion::identity(),
        ),
    );
    assert_eq!(
        sweep.time_of_impact(&apart, &opts).unwrap().status,
        Status::Free
    );
}

#[test]
fn far_motions_need_no_distance_call() {
    // B's boxes swept over the whole motion (per-node bounds) stay apart
    // from A's: certified free without one exact distance.
    let m = torus(1.0, 0.3, 16, 8);
    let t = tree(&m);
    let mut sweep = Sweep::new(&t, &t);
    let at = |x: f64| Pose::new(Vector3::new(x, 8.0, 0.0), UnitQuaternion::identity());
    let got = sweep
        .time_of_impact(&Motion::new(at(-1.0), at(1.0)), &Default::default())
        .unwrap();
    assert_eq!((got.status, got.distance_calls), (Status::Free, 0));
}

#[test]
fn per_node_bounds_hold_when_b_turns_about_a_far_origin() {
    // B's origin 3 units from its geometry: a turn moves its far side
    // fastest, and each node's bound must count its own distance from the
    // rotation axis through that origin, not from B's centre.
    let mut b = icosphere(1);
    for v in &mut b.vertices {
        v.x += 3.0;
    }
    let (hits, frees) = against_sampling(&torus(1.0, 0.3, 16, 8), &b, 389, 160, 3.0, 0.0);
    assert!(hits >= 20 && frees >= 20, "{hits} hits, {frees} free");
}

#[test]
fn path_against_sampling() {
    let (a, b) = (torus(1.0, 0.3, 16, 8), icosphere(1));
    let (ta, tb) = (tree(&a), tree(&b));
    let mut sweep = Sweep::new(&ta, &tb);
    let mut rng = ChaCha8Rng::seed_from_u64(386);
    let opts = ImpactOptions::default();
    let (mut hits, mut frees) = (0, 0);
    for _ in 0..30 {
        let poses: Vec<Pose> = (0..3).map(|_| random_pose(&mut rng, 4.5)).collect();
        let got = sweep.path(&poses, &opts).unwrap();
        // The first segment where sampling sees contact.
        let first = poses.windows(2).enumerate().find_map(|(s, p)| {
            let motion = Motion::new(p[0], p[1]);
            sampled(&ta, &tb, &motion, 400, 0.0).map(|c| (s, c.1))
        });
        match got.impact.status {
            Status::Free => {
                assert!(first.is_none(), "{got:?} {first:?}");
                assert_eq!(got.segment, 1);
                frees += 1;
            }
            Status::Hit => {
                let c = got.impact.contact.unwrap();
                let motion = Motion::new(poses[got.segment], poses[got.segment + 1]);
                assert!(meets(&ta, &tb, &motion, c.t, 0.0));
                if let Some((s, t)) = first {
                    assert!(
                        (s, t) >= (got.segment, got.impact.free_until),
                        "{got:?} {first:?}"
                    );
                    if s == got.segment {
                        assert!(c.t <= t + opts.tol);
                    }
                }
                hits += 1;
            }
            Status::Undecided => panic!("{got:?}"),
        }
    }
    assert!(hits >= 5 && frees >= 3, "{hits} hits, {frees} free");
}

#[test]
fn options_and_limits_are_checked() {
    let m = icosphere(1);
    let t = tree(&m);
    let mut sweep = Sweep::new(&t, &t);
    let at = |x: f64| Pose::new(Vector3::new(x, 0.0, 0.0), UnitQuaternion::identity());
    let motion = Motion::new(at(5.0), at(0.0));
    for bad in [
        ImpactOptions {
            tol: 0.0,
            ..Default::default()
        },
        ImpactOptions {
            tol: f64::NAN,
            ..Default::default()
        },
        ImpactOptions {
            clearance: -1.0,
            ..Default::default()
        },
        ImpactOptions {
            max_distance_calls: 0,
            ..Default::default()
        },
    ] {
        assert!(sweep.time_of_impact(&motion, &bad).is_err());
    }
    assert!(sweep.path(&[at(0.0)], &Default::default()).is_err());
    // One call cannot reach the contact at t = 0.6: undecided, certified
    // only as far as the first step.
    let one = ImpactOptions {
        max_distance_calls: 1,
        ..Default::default()
    };
    let got = sweep.time_of_impact(&motion, &one).unwrap();
    assert_eq!((got.status, got.distance_calls), (Status::Undecided, 1));
    assert!(got.free_until > 0.0 && got.free_until < 0.6);
    let full = sweep.time_of_impact(&motion, &Default::default()).unwrap();
    assert_eq!(full.status, Status::Hit);
    assert!((full.contact.unwrap().t - 0.6).abs() < 1e-3);
}
