//! The exact pairwise check of one robot link pair, without the library's
//! broad phase: every shape pair of the two links, bvtool's exact `collide`
//! (every triangle pair, no early exit) and unpruned `distance` at the
//! relative pose of the link poses. Used by `tests/bodies/robots/acm.rs` and
//! `tests/models/robots.rs` to check allowed-collision matrices; and the
//! seeded random configurations the robot tests draw.

use bvtool::Pose;
use bvtool::query::{ContactMode, DistanceOptions, collide, distance};
use bvtool::robots::Robot;
use nalgebra::Isometry3;

/// Whether links `a` and `b` of `robot`, placed at `poses`, collide, and
/// (with `with_distance`, else `inf`) their least distance.
pub fn link_pair(
    robot: &Robot,
    poses: &[Isometry3<f64>],
    (a, b): (usize, usize),
    with_distance: bool,
) -> (bool, f64) {
    let (mut hit, mut least) = (false, f64::INFINITY);
    for sa in &robot.links[a].shapes {
        for sb in &robot.links[b].shapes {
            let r = (poses[a] * sa.origin).inverse() * (poses[b] * sb.origin);
            let pose = Pose::new(r.translation.vector, r.rotation);
            let (ta, tb) = (&robot.trees[sa.tree], &robot.trees[sb.tree]);
            hit |= collide(ta, tb, &pose, ContactMode::All).intersecting;
            if with_distance {
                let d = distance(ta, tb, &pose, &DistanceOptions::default()).unwrap();
                least = least.min(d.distance);
            }
        }
    }
    (hit, least)
}

/// Seeded random configurations of `robot` within its limits (continuous
/// joints over ±π), `n × dof` values.
pub fn random_configurations(robot: &bvtool::robots::Robot, n: usize, seed: u64) -> Vec<f64> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let limits = robot.joint_limits();
    (0..n)
        .flat_map(|_| {
            limits
                .iter()
                .map(|l| {
                    let (lo, hi) = match *l {
                        Some((lo, hi)) if hi > lo => (lo, hi),
                        _ => (-std::f64::consts::PI, std::f64::consts::PI),
                    };
                    rng.random_range(lo..=hi)
                })
                .collect::<Vec<_>>()
        })
        .collect()
}
