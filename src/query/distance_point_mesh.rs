//! Point–mesh distance: the least distance from a point to a triangle, and
//! to a whole mesh through its [`AabbTree`].
//!
//! A closed triangle's nearest point to `p` is either the foot of the
//! perpendicular from `p` to its plane, when that foot falls inside the
//! triangle, or the nearest point of one of its three edges (a convex
//! polygon's nearest point to an outside point of its plane lies on its
//! boundary). So the distance is the least of the three point–segment
//! distances and, when the foot is inside (decided by the signs of the
//! three edge normals against the triangle's normal), the plane distance.
//! A degenerate triangle (collinear or coincident corners) has no normal:
//! only its edges count, which is exactly the segment or point it is.
//!
//! # Rounding
//!
//! Every candidate point is formed from clamped segment parameters or a
//! plane projection in `f64`, as in [`crate::query::pair::distance_triangle_triangle`]: the
//! distance is within [`rounding_bound`]`(S)` = `64·ε·S` of the exact one,
//! `S` the largest absolute coordinate of `p` and the corners (the tests
//! check it against [`crate::query::pair::distance_triangle_triangle::triangle_distance`] with
//! `p` as a degenerate triangle, an independent route).
//!
//! The mesh query descends the AABB tree nearest box first and skips every
//! box (and every triangle's own box) at least as far as the best distance
//! found; boxes are `f32`, rounded outwards, so the skip is conservative.

use crate::query::pair::closest_point_triangle::closest_point_triangle;
pub use crate::query::pair::distance_triangle_triangle::rounding_bound;
use crate::tree::{AabbTree, Box32};
use nalgebra::Point3;

/// The distance from `p` to the closed triangle `t`.
pub fn point_triangle(p: &Point3<f64>, t: &[Point3<f64>; 3]) -> f64 {
    point_triangle_squared(p, t).sqrt()
}

/// The squared distance from `p` to the closed triangle `t`.
fn point_triangle_squared(p: &Point3<f64>, t: &[Point3<f64>; 3]) -> f64 {
    closest_point_triangle(p, t).distance_squared
}

/// The squared distance from `p` to a conservative box (0 inside).
#[inline]
pub(crate) fn box_gap_squared(p: &Point3<f64>, b: &Box32) -> f64 {
    let (lo, hi) = (b.min.to_array(), b.max.to_array());
    (0..3)
        .map(|i| {
            let d = (lo[i] as f64 - p[i]).max(p[i] - hi[i] as f64).max(0.0);
            d * d
        })
        .sum()
}

/// The nearest triangle of the tree's mesh to `p` and its distance — or,
/// once a triangle at most `enough` away is found, that triangle and its
/// distance (a value ≤ `enough`; pass 0 for the exact least distance).
/// `hint`, a triangle slot (node order) likely near `p` — say, the answer
/// for a point close by — is measured first, so that the descent starts
/// with a tight bound. `(f64::INFINITY, 0)` for an empty tree.
pub fn point_mesh(tree: &AabbTree, p: &Point3<f64>, enough: f64, hint: Option<u32>) -> (f64, u32) {
    if tree.nodes.is_empty() {
        return (f64::INFINITY, 0);
    }
    let enough2 = if enough > 0.0 { enough * enough } else { 0.0 };
    let (mut best, mut slot) = (f64::INFINITY, 0);
    if let Some(k) = hint.filter(|&k| (k as usize) < tree.triangles.len()) {
        (best, slot) = (point_triangle_squared(p, &tree.corners(k as usize)), k);
        if best <= enough2 {
            return (best.sqrt(), slot);
        }
    }
    let mut stack: Vec<(u32, f64)> = Vec::with_capacity(64);
    stack.push((0, box_gap_squared(p, &tree.nodes[0].bx)));
    while let Some((i, gap)) = stack.pop() {
        if gap >= best {
            continue;
        }
        let node = &tree.nodes[i as usize];
        if node.is_leaf() {
            for k in node.start..node.start + node.count {
                if box_gap_squared(p, &tree.boxes[k as usize]) >= best {
                    continue;
                }
                let d = point_triangle_squared(p, &tree.corners(k as usize));
                if d < best {
                    (best, slot) = (d, k);
                    if best <= enough2 {
                        return (best.sqrt(), slot);
                    }
                }
            }
            continue;
        }
        let (a, b) = (i + 1, node.right);
        let (ga, gb) = (
            box_gap_squared(p, &tree.nodes[a as usize].bx),
            box_gap_squared(p, &tree.nodes[b as usize].bx),
        );
        // The nearer child is searched first (pushed last).
        if ga <= gb {
            stack.extend([(b, gb), (a, ga)]);
        } else {
            stack.extend([(a, ga), (b, gb)]);
        }
    }
    (best.sqrt(), slot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::pair::distance_triangle_triangle::triangle_distance;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Against the triangle–triangle distance with the point as a
    /// degenerate triangle, on random and degenerate triangles.
    #[test]
    fn agrees_with_the_triangle_distance() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut pt = || {
            Point3::new(
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
                0.0,
            )
        };
        for k in 0..20_000 {
            let mut t = [pt(), pt(), pt()];
            for c in &mut t {
                c.z = (k % 7) as f64 * 0.1 * c.x;
            }
            if k % 5 == 0 {
                t[2] = t[0] + (t[1] - t[0]) * 0.3; // collinear
            }
            if k % 11 == 0 {
                t[1] = t[0]; // a segment
            }
            let mut p = pt();
            p.z = (k % 3) as f64 - 1.0;
            let want = triangle_distance(&[p, p, p], &t).distance;
            let got = point_triangle(&p, &t);
            assert!(
                (got - want).abs() <= 2.0 * rounding_bound(3.0),
                "{k}: {got} vs {want}"
            );
        }
    }
}
