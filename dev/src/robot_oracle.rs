//! The exact pairwise check of one robot link pair, without the library's
//! broad phase: every shape pair of the two links, bvtool's exact `collide`
//! (every triangle pair, no early exit) and unpruned `distance` at the
//! relative pose of the link poses. Used by `tests/robots/acm.rs` and
//! `tests/models/robots.rs` to check allowed-collision matrices.

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
