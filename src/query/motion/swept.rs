//! Per-node motion bounds: whether B, swept over a whole time interval,
//! stays apart from A — decided on the tree pair at the interval's middle,
//! each node pair against the displacement bound of B's own node.

use super::interpolate::Motion;
use crate::query::pair::distance_triangle_triangle::{
    box_gap, rounding_bound, triangle_bounds, triangle_distance,
};
use crate::query::pair::overlap_obb_obb::separation;
use crate::query::tree_pair::{PlacedLeaf, Split, TreePair, split};
use crate::tree::{NodeBox, ObbTree};
use nalgebra::Vector3;

/// The box tests one [`SweptTest::free`] may make before it gives up
/// (answering "not certified"): a test that must descend further than this
/// is near a contact, where the distance samples of conservative
/// advancement do better. On three corpus pairs × 400 random motions
/// (`benches/motion.py`'s pairs) 8–32 gave about the same medians, 96 and
/// 256 up to twice as long.
pub(super) const BOX_TEST_BUDGET: u32 = 16;

/// The node pairs waiting, kept between tests.
#[derive(Debug, Default)]
pub(super) struct SweptScratch {
    stack: Vec<(u32, u32)>,
    placed: PlacedLeaf,
}

/// One motion's swept tests: the motion and the margin every bound leaves.
pub(super) struct SweptTest<'m> {
    pub motion: &'m Motion,
    /// The margin taken off every distance: rounding of the sampled pose
    /// and the clearance asked.
    pub margin: f64,
    /// The box tests one answer may make ([`BOX_TEST_BUDGET`]).
    pub budget: u32,
}

impl SweptTest<'_> {
    /// How far any point of B's node box `bx` can move per unit of `t`:
    /// `|ΔT| + θ·ρ`, where `ρ` bounds the distance of the box's points from
    /// the rotation axis (through B's origin, fixed in B's frame): the
    /// distance of the box's centre from it plus the half diagonal. (A point
    /// `q` of B turns about that axis at angular speed `θ`, so its rotation
    /// part moves at `θ·dist(q, axis)`.) `ρ` is rounded up generously (the
    /// box is `f32`, the arithmetic `f64`), the bound as
    /// [`Motion::speed_bound`] rounds it.
    fn node_speed(&self, b: &ObbTree, bx: &NodeBox) -> f64 {
        if self.motion.angle() == 0.0 {
            return self.motion.speed_bound(0.0);
        }
        let [x, y, z] = bx.center();
        let c = b.origin.coords + Vector3::new(x as f64, y as f64, z as f64);
        let axis = self.motion.axis();
        let off_axis = (c - axis * c.dot(&axis)).norm();
        let rho = (off_axis + (bx.half_diagonal2() as f64).sqrt()) * (1.0 + 1e-5);
        self.motion.speed_bound(rho)
    }

    /// Whether no point of B comes within `margin` of A at any time of
    /// `[u, w]` — `true` only when proven, `false` when not proven (near or
    /// at a contact, or past [`BOX_TEST_BUDGET`]).
    ///
    /// With `m = (u + w)/2` and `h = (w − u)/2`, every point of a node box
    /// of B stays within `h·μ` of where it is at `m` ([`Self::node_speed`]
    /// gives `μ`, the node's own bound); so a node pair whose boxes are
    /// more than `h·μ + margin` apart at `m` ([`separation`], a lower bound
    /// on the boxes' distance) stays apart over the whole interval, and
    /// so do all the triangle pairs below it. The descent splits the pairs
    /// it cannot prove as the distance query does ([`split`]); at two
    /// leaves every triangle pair must be proven the same way, by the gap
    /// of their bounding boxes or, failing that, their exact distance less
    /// its rounding bound.
    pub fn free(
        &self,
        scratch: &mut SweptScratch,
        a: &ObbTree,
        b: &ObbTree,
        u: f64,
        w: f64,
    ) -> bool {
        let (m, h) = (u + 0.5 * (w - u), 0.5 * (w - u));
        let Some(pair) = TreePair::new(a, b, &self.motion.pose_at(m)) else {
            return true;
        };
        let rb = rounding_bound(pair.scale);
        scratch.placed.clear();
        scratch.stack.clear();
        scratch.stack.push((0, 0));
        let mut tests = 0;
        while let Some((ia, ib)) = scratch.stack.pop() {
            let (na, nb) = (&a.nodes[ia as usize], &b.nodes[ib as usize]);
            let need = h * self.node_speed(b, nb.bx()) + self.margin;
            let placed = pair.place_node(ib).1;
            tests += 1;
            let need32 = need as f32 * (1.0 + 4.0 * f32::EPSILON);
            if separation(na.bx(), &placed, pair.slack, need32) > need32 {
                continue;
            }
            if tests > self.budget {
                return false;
            }
            if na.is_leaf() && nb.is_leaf() {
                scratch.placed.place(&pair, ib);
                for ta in a.leaf_triangles(na) {
                    let box_a = triangle_bounds(&ta);
                    for (tb, box_b) in scratch.placed.triangles.iter().zip(&scratch.placed.bounds) {
                        if box_gap(&box_a, box_b) - rb > need {
                            continue;
                        }
                        let d = triangle_distance(&ta, tb.corners());
                        if d.intersecting || d.distance - rb <= need {
                            return false;
                        }
                    }
                }
                continue;
            }
            let (a1, a2) = (ia + 1, na.right());
            let (b1, b2) = (ib + 1, nb.right());
            match split(na, nb, &placed) {
                Split::A => scratch.stack.extend([(a1, ib), (a2, ib)]),
                Split::B => scratch.stack.extend([(ia, b1), (ia, b2)]),
                Split::Both => {
                    scratch
                        .stack
                        .extend([(a1, b1), (a2, b1), (a1, b2), (a2, b2)]);
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::TriMesh;
    use crate::pose::Pose;
    use crate::query::{ContactMode, collide};
    use nalgebra::{Point3, UnitQuaternion};

    /// A strip of `n` squares of side `s` along x from `x0`, in the plane
    /// z = 0: many small nodes, far from the origin when `x0` is.
    fn strip(x0: f64, n: u32, s: f64) -> TriMesh {
        let vertices: Vec<Point3<f64>> = (0..=n)
            .flat_map(|i| {
                let x = x0 + s * f64::from(i);
                [Point3::new(x, -0.5 * s, 0.0), Point3::new(x, 0.5 * s, 0.0)]
            })
            .collect();
        let triangles: Vec<[u32; 3]> = (0..n)
            .flat_map(|i| [[2 * i, 2 * i + 2, 2 * i + 3], [2 * i, 2 * i + 3, 2 * i + 1]])
            .collect();
        TriMesh::unplaced(vertices, triangles)
    }

    /// The widest interval about `m` (half width to 2⁻²⁰) the swept test
    /// certifies, by bisection.
    fn widest(test: &SweptTest, a: &ObbTree, b: &ObbTree, m: f64) -> f64 {
        let mut scratch = SweptScratch::default();
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..20 {
            let h = 0.5 * (lo + hi);
            if test.free(&mut scratch, a, b, m - h, m + h) {
                lo = h;
            } else {
                hi = h;
            }
        }
        lo
    }

    #[test]
    fn widest_certified_interval_holds_no_contact_and_is_tight() {
        // A: a flat strip along the y axis; B: an upright strip along x
        // from 2 to 6, turning about B's origin (far from its geometry) and sliding, so
        // its far end moves three times as fast as its near end.
        let mut rotated = strip(-3.0, 60, 0.1);
        for v in &mut rotated.vertices {
            *v = Point3::new(v.y, v.x, v.z);
        }
        let a = ObbTree::build(&rotated);
        let mut upright = strip(2.0, 40, 0.1);
        for v in &mut upright.vertices {
            *v = Point3::new(v.x, v.z, v.y);
        }
        let b = ObbTree::build(&upright);
        let mut slack = Vec::new();
        for k in 0..40 {
            let turn = 0.2 + 0.05 * f64::from(k);
            let motion = Motion::new(
                Pose::new(
                    Vector3::new(-4.0, 0.3 * f64::from(k % 5) - 0.6, 0.0),
                    UnitQuaternion::from_euler_angles(0.0, 0.0, -turn),
                ),
                Pose::new(
                    Vector3::new(-3.0, 0.1, 0.01),
                    UnitQuaternion::from_euler_angles(0.0, 0.0, turn),
                ),
            );
            let test = SweptTest {
                motion: &motion,
                margin: 0.0,
                budget: u32::MAX,
            };
            for m in [0.2, 0.5, 0.8] {
                let h = widest(&test, &a, &b, m);
                // No contact anywhere in the certified interval.
                let contact =
                    |t: f64| collide(&a, &b, &motion.pose_at(t), ContactMode::First).intersecting;
                if h > 0.0 {
                    assert!(
                        (0..=400).all(|i| !contact(m - h + 2.0 * h * f64::from(i) / 400.0)),
                        "motion {k}, m {m}, h {h}"
                    );
                }
                // And the bound is not vacuous: how much wider the first
                // contact (within 1 of m, by 2,000 samples a side) is.
                let first = (1..=2000)
                    .map(|i| f64::from(i) / 2000.0)
                    .find(|&d| contact(m - d) || contact(m + d));
                if let (Some(d), true) = (first, h > 0.0) {
                    slack.push(d / h);
                }
            }
        }
        // Where m is free, the certified interval reaches at least a third
        // of the way to the nearest contact on most motions (the bound is a
        // worst case over B's nodes, so never all the way).
        slack.sort_by(f64::total_cmp);
        assert!(slack.len() >= 10, "{}", slack.len());
        assert!(slack[slack.len() / 2] < 3.0, "{slack:?}");
    }
}
