//! A point's exact winding number about a closed mesh: the signed count of
//! the triangles that the ray from the point along `+x` crosses.
//!
//! Each triangle is tested with exact predicates on its own `f64` corners,
//! nothing rounded: the ray crosses it where the point's `(y, z)` lies
//! inside the corners' projection on the `yz` plane
//! ([`crossing_triangle`], with its symbolic perturbation of the point for
//! a ray through an edge or corner), beyond the point (`robust::orient3d`
//! of the corners and the point). Perturbed, the point is
//! `p + (−δ, ε, ε²)` with `ε ≪ δ` infinitesimal; a crossing counts +1
//! where the ray leaves through a triangle's front (normal along `+x`),
//! −1 where it enters. On a mesh whose welded directed edges cancel (each
//! `a → b` matched by a `b → a`) the count is the perturbed point's
//! winding number, the same along any ray, and for a point off the surface
//! it is the point's own — exactly; a point on the surface gets the
//! winding number of a point beside it.

use crate::query::pair::intersect_ray_triangle::crossing_triangle;
use crate::tree::AabbTree;
use nalgebra::Point3;
use robust::{Coord3D, orient3d};

/// The signed and the unsigned number of crossings of the ray from `p`
/// along `+x` with the tree's triangles (see the module).
pub fn crossings_x(tree: &AabbTree, p: &Point3<f64>) -> (i64, u64) {
    let (mut signed, mut all) = (0i64, 0u64);
    if tree.nodes.is_empty() {
        return (0, 0);
    }
    let reaches = |b: &crate::tree::Box32| {
        let (lo, hi) = (b.min.to_array(), b.max.to_array());
        hi[0] as f64 >= p.x
            && lo[1] as f64 <= p.y
            && p.y <= hi[1] as f64
            && lo[2] as f64 <= p.z
            && p.z <= hi[2] as f64
    };
    let mut stack: Vec<u32> = Vec::with_capacity(64);
    stack.push(0);
    while let Some(i) = stack.pop() {
        let node = &tree.nodes[i as usize];
        if !reaches(&node.bx) {
            continue;
        }
        if !node.is_leaf() {
            stack.extend([node.right, i + 1]);
            continue;
        }
        for k in node.start..node.start + node.count {
            if !reaches(&tree.boxes[k as usize]) {
                continue;
            }
            let s = crossing_x(&tree.corners(k as usize), p);
            signed += s as i64;
            all += (s != 0) as u64;
        }
    }
    (signed, all)
}

/// How the ray from `p` along `+x` (symbolically perturbed, see the
/// module) crosses triangle `t`: +1 leaving through its front, −1 entering,
/// 0 not at all. Exact.
pub fn crossing_x(t: &[Point3<f64>; 3], p: &Point3<f64>) -> i32 {
    let yz = |q: &Point3<f64>| [q.y, q.z];
    let c3 = |q: &Point3<f64>| Coord3D {
        x: q.x,
        y: q.y,
        z: q.z,
    };
    let s = crossing_triangle(yz(&t[0]), yz(&t[1]), yz(&t[2]), yz(p));
    if s == 0 {
        return 0;
    }
    // (t0 − p)·n: its sign times the normal's x sign is the side of the
    // plane the ray meets it on; on the plane (0) the perturbation −δ puts
    // the point behind it.
    let side = orient3d(c3(&t[0]), c3(&t[1]), c3(&t[2]), c3(p));
    let ahead = side == 0.0 || (side > 0.0) == (s > 0);
    if ahead { s as i32 } else { 0 }
}

/// Whether every welded directed edge `a → b` of the tree's triangles
/// (zero-length edges aside) is matched by as many `b → a`: the surface is
/// closed and consistently oriented, and [`crossings_x`] counts winding
/// numbers.
pub fn edges_cancel(tree: &AabbTree) -> bool {
    let mut edges: Vec<(u32, u32, i32)> = tree
        .triangles
        .iter()
        .flat_map(|t| (0..3).map(move |i| (t[i], t[(i + 1) % 3])))
        .filter(|(a, b)| a != b)
        .map(|(a, b)| if a < b { (a, b, 1) } else { (b, a, -1) })
        .collect();
    edges.sort_unstable_by_key(|e| (e.0, e.1));
    edges
        .chunk_by(|a, b| (a.0, a.1) == (b.0, b.1))
        .all(|run| run.iter().map(|e| e.2).sum::<i32>() == 0)
}

/// Whether every welded edge is used an even number of times (the
/// surface bounds a solid mod 2): the parity of [`crossings_x`]'s
/// unsigned count is then the same along any ray.
pub fn edges_even(tree: &AabbTree) -> bool {
    crate::mesh::closed::is_closed(&tree.vertices, &tree.triangles)
}
