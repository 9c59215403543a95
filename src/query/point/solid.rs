//! An OBB tree's mesh as a solid: what a world body or a robot link
//! occupies, so that one wholly inside another is found although their
//! surfaces never meet.
//!
//! A mesh whose welded edges are each used an even number of times
//! (the test of `clash::contain`) is **closed** and bounds the solid
//! of the points with an odd number of crossings along a ray (the parity,
//! as `clash`'s containment counts it — an
//! inward-facing closed mesh is as solid as an outward one). An **open**
//! mesh is its surface only: nothing is ever inside it, but it can lie
//! inside a closed one.
//!
//! Two shapes whose surfaces do not meet intersect as solids exactly when
//! one connected piece of one surface lies inside the other solid (a
//! piece that does not meet the other surface is wholly inside or wholly
//! outside it): so one vertex of each connected piece ([`TreeSolid::probes`],
//! vertices connected by triangles, welded by position) is tested, by the
//! exact crossings of the ray along `+x` ([`super::crossing::crossing_x`],
//! with its symbolic perturbation: no ray is ever thrown away) over the
//! tree's nodes, pruned by each node box's axis-aligned hull grown by a
//! margin far above its rounding.

use super::crossing::crossing_x;
use crate::mesh::closed::is_closed;
use crate::pose::Pose;
use crate::query::Placement;
use crate::tree::ObbTree;
use nalgebra::{Point3, Vector3};

/// What an OBB tree's mesh occupies, beside its surface: whether it is
/// closed, and one vertex of each connected piece.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeSolid {
    /// Whether the mesh is closed (a solid), see the module.
    pub closed: bool,
    /// One vertex of each connected piece, in the tree's frame.
    pub probes: Vec<Point3<f64>>,
}

impl TreeSolid {
    /// The solid of `tree`'s mesh: `O(T log T)` for `T` triangles.
    pub fn new(tree: &ObbTree) -> TreeSolid {
        let mut parent: Vec<u32> = (0..tree.vertices.len() as u32).collect();
        fn root(parent: &mut [u32], mut i: u32) -> u32 {
            while parent[i as usize] != i {
                let up = parent[parent[i as usize] as usize];
                parent[i as usize] = up;
                i = up;
            }
            i
        }
        for t in &tree.triangles {
            let r0 = root(&mut parent, t[0]);
            for &v in &t[1..] {
                let r = root(&mut parent, v);
                parent[r as usize] = r0;
            }
        }
        let used = {
            let mut u = vec![false; tree.vertices.len()];
            for t in &tree.triangles {
                for &v in t {
                    u[v as usize] = true;
                }
            }
            u
        };
        let probes = (0..tree.vertices.len() as u32)
            .filter(|&i| used[i as usize] && root(&mut parent, i) == i)
            .map(|i| tree.vertices[i as usize])
            .collect();
        TreeSolid {
            closed: !tree.triangles.is_empty() && is_closed(&tree.vertices, &tree.triangles),
            probes,
        }
    }

    /// Whether `p` (in the tree's frame) lies inside the closed mesh of
    /// `tree` (this solid's tree): an odd number of crossings, exact;
    /// always `false` for an open mesh. A point on the surface counts as
    /// a point beside it.
    pub fn contains(&self, tree: &ObbTree, p: &Point3<f64>) -> bool {
        self.closed && crossings_x(tree, p) % 2 == 1
    }
}

/// The number of triangles of `tree` that the ray from `p` along `+x`
/// crosses ([`crossing_x`], perturbed).
fn crossings_x(tree: &ObbTree, p: &Point3<f64>) -> u64 {
    let mut count = 0;
    if tree.nodes.is_empty() {
        return 0;
    }
    let mut stack: Vec<u32> = Vec::with_capacity(64);
    stack.push(0);
    while let Some(i) = stack.pop() {
        let node = &tree.nodes[i as usize];
        let b = tree.node_box(node);
        let half = Vector3::from_fn(|k, _| {
            (0..3)
                .map(|j| b.axes[(k, j)].abs() * b.half_extents[j])
                .sum::<f64>()
        });
        // The f64 hull's rounding is below 1e-15 of these magnitudes.
        let margin = 1e-9 * (1.0 + b.center.coords.amax() + half.amax());
        let (lo, hi) = (
            b.center - half.add_scalar(margin),
            b.center + half.add_scalar(margin),
        );
        if hi.x < p.x || p.y < lo.y || p.y > hi.y || p.z < lo.z || p.z > hi.z {
            continue;
        }
        if !node.is_leaf() {
            stack.extend([node.right(), i + 1]);
            continue;
        }
        for k in node.leaf_range() {
            count += (crossing_x(&tree.corners(k as usize), p) != 0) as u64;
        }
    }
    count
}

/// Whether the solids of two shapes whose surfaces do not meet intersect:
/// shape `b` placed in `a`'s frame by `pose` (as
/// [`crate::query::collide()`] places it: [`Placement`]), a piece of `b`
/// inside closed `a`, or a piece of `a` inside closed `b` (`a`'s probes
/// placed in `b`'s frame by the inverse pose). Exact for the probes so
/// placed. Returns the probe found inside, in `a`'s frame: a point of one
/// surface inside the other solid.
pub fn contained(
    a: (&ObbTree, &TreeSolid),
    b: (&ObbTree, &TreeSolid),
    pose: &Pose,
) -> Option<Point3<f64>> {
    if a.1.closed {
        let into_a = Placement::new(pose);
        let inside = b.1.probes.iter().map(|p| into_a.apply(p));
        if let Some(p) = inside.into_iter().find(|p| a.1.contains(a.0, p)) {
            return Some(p);
        }
    }
    if b.1.closed {
        let into_b = Placement::new(&pose.inverse());
        return a
            .1
            .probes
            .iter()
            .copied()
            .find(|p| b.1.contains(b.0, &into_b.apply(p)));
    }
    None
}
