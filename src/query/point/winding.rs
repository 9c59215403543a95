//! The generalized winding number (Jacobson, Kavan and Sorkine-Hornung
//! 2013): the solid angle the mesh's triangles subtend at a point, signed
//! by their orientation, over 4π — 1 inside a closed outward surface, 0
//! outside, and a smooth value between about a hole.
//!
//! Evaluated as Barill et al. (2018) do: a node of the tree far enough
//! from the point stands for its triangles by a dipole at its area-weighted
//! centroid `c` with the sum `N` of its triangles' area vectors:
//! `Ω ≈ N·(c − p)/|c − p|³`. Unlike their accuracy parameter β, each
//! approximation here carries a rigorous bound: for triangles within a ball
//! of radius `r` about `c`, total area `A`, and `R = |c − p| > r`, the
//! integrand `(x − p)/|x − p|³` has a Jacobian of spectral norm at most
//! `2/|x − p|³`, so the error is at most `2·r·A/(R − r)³` (over 4π in
//! winding units). A node is approximated when that is at most
//! the first of [`NODE_TOLERANCES`]; the bounds of the nodes used add up to the value's
//! bound. The triangles of the leaves reached are summed exactly: the
//! solid angle of Van Oosterom and Strackee (1983), `2·atan2(det, …)`,
//! with `det` = `robust::orient3d`, whose sign is exact, so that a point
//! just off a triangle counts it on the right side.

use crate::tree::AabbTree;
use nalgebra::{Point3, Vector3};
use robust::{Coord3D, orient3d};
use std::f64::consts::PI;

/// The error bounds (winding units) allowed one node's dipole, in turn:
/// the first is large enough that far nodes are not opened and small
/// enough that a point's total bound mostly stays below its distance from
/// ½; where it does not, the next, tighter, and at last 0 (every triangle
/// summed).
pub const NODE_TOLERANCES: [f64; 6] = [1e-2, 1e-3, 1e-4, 1e-6, 1e-9, 0.0];

/// A node's dipole: area-weighted centroid, radius about it, the sum of
/// its triangles' area vectors and of their areas.
#[derive(Clone, Copy, Debug)]
pub struct Moments {
    /// Area-weighted centroid (the box centre for a node of no area).
    pub centre: Point3<f64>,
    /// Radius about `centre` of a ball holding the node's triangles.
    pub radius: f64,
    /// `Σ ½ (b − a) × (c − a)`.
    pub area_vector: Vector3<f64>,
    /// `Σ |½ (b − a) × (c − a)|`.
    pub area: f64,
}

/// Every node's [`Moments`], bottom-up (a node's children follow it).
pub fn moments(tree: &AabbTree) -> Vec<Moments> {
    let mut out: Vec<Moments> = vec![
        Moments {
            centre: Point3::origin(),
            radius: 0.0,
            area_vector: Vector3::zeros(),
            area: 0.0,
        };
        tree.nodes.len()
    ];
    // (Σ area·centroid, Σ area vector, Σ area) per node.
    let mut sums: Vec<(Vector3<f64>, Vector3<f64>, f64)> =
        vec![(Vector3::zeros(), Vector3::zeros(), 0.0); tree.nodes.len()];
    for i in (0..tree.nodes.len()).rev() {
        let node = &tree.nodes[i];
        sums[i] = if node.is_leaf() {
            (node.start..node.start + node.count).fold(
                (Vector3::zeros(), Vector3::zeros(), 0.0),
                |(m, n, a), k| {
                    let [p, q, r] = tree.corners(k as usize);
                    let v = (q - p).cross(&(r - p)) * 0.5;
                    let area = v.norm();
                    let g = (p.coords + q.coords + r.coords) / 3.0;
                    (m + g * area, n + v, a + area)
                },
            )
        } else {
            let (l, r) = (sums[i + 1], sums[node.right as usize]);
            (l.0 + r.0, l.1 + r.1, l.2 + r.2)
        };
        let (lo, hi) = (node.bx.min.to_array(), node.bx.max.to_array());
        let lo = Point3::new(lo[0] as f64, lo[1] as f64, lo[2] as f64);
        let hi = Point3::new(hi[0] as f64, hi[1] as f64, hi[2] as f64);
        let (m, n, a) = sums[i];
        let centre = if a > 0.0 {
            let c = Point3::from(m / a);
            // Clamped into the box, so the radius below holds.
            Point3::new(
                c.x.clamp(lo.x, hi.x),
                c.y.clamp(lo.y, hi.y),
                c.z.clamp(lo.z, hi.z),
            )
        } else {
            nalgebra::center(&lo, &hi)
        };
        // The farthest box corner: every triangle corner lies in the box.
        let far = Vector3::new(
            (centre.x - lo.x).max(hi.x - centre.x),
            (centre.y - lo.y).max(hi.y - centre.y),
            (centre.z - lo.z).max(hi.z - centre.z),
        );
        out[i] = Moments {
            centre,
            // A relative margin for the rounding of the norm.
            radius: far.norm() * (1.0 + 1e-12),
            area_vector: n,
            area: a,
        };
    }
    out
}

/// The solid angle the triangle `t` subtends at `p`, positive where `p` is
/// behind it (its normal pointing away from `p`), with an exact sign.
pub fn solid_angle(p: &Point3<f64>, t: &[Point3<f64>; 3]) -> f64 {
    let c3 = |q: &Point3<f64>| Coord3D {
        x: q.x,
        y: q.y,
        z: q.z,
    };
    let det = orient3d(c3(&t[0]), c3(&t[1]), c3(&t[2]), c3(p));
    let [a, b, c] = t.map(|q| q - p);
    let (la, lb, lc) = (a.norm(), b.norm(), c.norm());
    let denom = la * lb * lc + a.dot(&b) * lc + b.dot(&c) * la + c.dot(&a) * lb;
    2.0 * det.atan2(denom)
}

/// A winding number and a bound on its error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Winding {
    /// The value.
    pub value: f64,
    /// The approximation's error bound: the true winding number is within
    /// `value ± bound` (0 for an exact one; rounding aside).
    pub bound: f64,
}

/// The generalized winding number at `p`, nodes approximated when their
/// bound is at most `tolerance` (0: every triangle summed, no
/// approximation).
pub fn winding_number(
    tree: &AabbTree,
    moments: &[Moments],
    p: &Point3<f64>,
    tolerance: f64,
) -> Winding {
    let (mut sum, mut bound) = (0.0, 0.0);
    if tree.nodes.is_empty() {
        return Winding {
            value: 0.0,
            bound: 0.0,
        };
    }
    let mut stack: Vec<u32> = Vec::with_capacity(64);
    stack.push(0);
    while let Some(i) = stack.pop() {
        let node = &tree.nodes[i as usize];
        let m = &moments[i as usize];
        if tolerance > 0.0 {
            let d = m.centre - p;
            let r2 = d.norm_squared();
            let big_r = r2.sqrt();
            if big_r > m.radius {
                let gap = big_r - m.radius;
                let err = 2.0 * m.radius * m.area / (gap * gap * gap);
                if err <= tolerance * 4.0 * PI {
                    sum += m.area_vector.dot(&d) / (r2 * big_r);
                    bound += err;
                    continue;
                }
            }
        }
        if node.is_leaf() {
            for k in node.start..node.start + node.count {
                sum += solid_angle(p, &tree.corners(k as usize));
            }
        } else {
            stack.extend([node.right, i + 1]);
        }
    }
    Winding {
        value: sum / (4.0 * PI),
        bound: bound / (4.0 * PI),
    }
}
