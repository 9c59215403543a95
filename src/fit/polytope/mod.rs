//! A convex polytope as a list of face polygons, built by clipping a box
//! with half-spaces — the shared machinery of the k-DOPs
//! (`crate::fit::polytope::kdop`) and of the hull under a budget
//! ([`crate::fit::polytope::budget_hull`]).
//!
//! Vertices are computed in `f64`: they lie on their planes up to a few
//! ulps of the model's size, which the clipping's tolerance (64 ε of the
//! scale given) absorbs; a box of zero width gives a flat polytope (zero
//! volume) rather than an error.

pub mod budget_hull;
pub mod decompose;
pub(crate) mod kdop;

use nalgebra::{Point3, Vector3};

/// A convex polytope: its faces, each a convex polygon counter-clockwise
/// seen from outside.
#[derive(Clone, Debug)]
pub struct Polytope {
    /// The faces' corners.
    pub faces: Vec<Vec<Point3<f64>>>,
    /// Points within this distance (per coordinate) are one point; a plane
    /// keeps points within it.
    pub tol: f64,
}

impl Polytope {
    /// The box `lo[i] ≤ axes[i]·x ≤ hi[i]` (the axes orthonormal and
    /// right-handed), with the tolerance for coordinates of size `scale`.
    pub fn slab_box(axes: &[Vector3<f64>; 3], lo: [f64; 3], hi: [f64; 3], scale: f64) -> Polytope {
        let [u, v, w] = axes;
        let corner = |i: usize| {
            let c = [
                if i & 1 == 0 { lo[0] } else { hi[0] },
                if i & 2 == 0 { lo[1] } else { hi[1] },
                if i & 4 == 0 { lo[2] } else { hi[2] },
            ];
            Point3::from(u * c[0] + v * c[1] + w * c[2])
        };
        // The box's faces, each counter-clockwise seen from outside (the
        // frame is right-handed: u × v = w).
        let quads: [[usize; 4]; 6] = [
            [0, 4, 6, 2],
            [1, 3, 7, 5],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 2, 3, 1],
            [4, 5, 7, 6],
        ];
        Polytope {
            faces: quads
                .iter()
                .map(|q| q.iter().map(|&i| corner(i)).collect())
                .collect(),
            tol: 64.0 * f64::EPSILON * scale.max(f64::MIN_POSITIVE),
        }
    }

    /// Cuts the polytope by the half-space `n·x ≤ h`.
    pub fn clip(&mut self, n: Vector3<f64>, h: f64) {
        clip(&mut self.faces, n, h, self.tol);
    }

    /// The distinct corners (welded within the tolerance) and the faces as
    /// indices into them.
    pub fn welded(&self) -> (Vec<Point3<f64>>, Vec<Vec<u32>>) {
        let tol = self.tol;
        let mut vertices: Vec<Point3<f64>> = Vec::new();
        let mut index = |p: &Point3<f64>| -> u32 {
            match vertices.iter().position(|q| (q - p).amax() <= tol) {
                Some(k) => k as u32,
                None => {
                    vertices.push(*p);
                    vertices.len() as u32 - 1
                }
            }
        };
        let mut out = Vec::new();
        for f in &self.faces {
            let mut ids: Vec<u32> = f.iter().map(&mut index).collect();
            ids.dedup();
            while ids.len() > 1 && ids.first() == ids.last() {
                ids.pop();
            }
            if ids.len() >= 3 {
                out.push(ids);
            }
        }
        (vertices, out)
    }
}

/// The volume of the polytope `vertices`/`faces` (0 when it is flat).
pub fn volume(vertices: &[Point3<f64>], faces: &[Vec<u32>]) -> f64 {
    let Some(c) = centroid(vertices) else {
        return 0.0;
    };
    let mut v = 0.0;
    for f in faces {
        let p = |k: usize| vertices[f[k] as usize] - c;
        for k in 1..f.len() - 1 {
            v += p(0).dot(&p(k).cross(&p(k + 1)));
        }
    }
    (v / 6.0).abs()
}

/// The surface area of the polytope `vertices`/`faces`.
pub fn surface_area(vertices: &[Point3<f64>], faces: &[Vec<u32>]) -> f64 {
    faces
        .iter()
        .map(|f| {
            let p = |k: usize| vertices[f[k] as usize];
            (1..f.len() - 1)
                .map(|k| (p(k) - p(0)).cross(&(p(k + 1) - p(0))).norm() / 2.0)
                .sum::<f64>()
        })
        .sum()
}

/// `d·p` rounded down and up: the computed dot product widened by a bound
/// on its rounding, so that the exact value lies within. Products by 0 or
/// ±1 and additions of 0 are exact; every other product and addition may
/// be off by half an ulp (2⁻⁵³ relative) of its magnitude, bounded here by
/// `ε = 2⁻⁵²` times the sum of the terms' magnitudes, plus the smallest
/// normal number for underflow. Along the frame's own axes the slabs are
/// thus the points' exact extremes (the 6-DOP is the AABB).
pub fn dot_interval(d: &Vector3<f64>, p: &Point3<f64>) -> (f64, f64) {
    let v = d.dot(&p.coords);
    let terms = [d.x * p.x, d.y * p.y, d.z * p.z];
    let magnitude: f64 = terms.iter().map(|t| t.abs()).sum();
    let inexact_products = (0..3).any(|i| d[i] != 0.0 && d[i].abs() != 1.0);
    let sums = terms.iter().filter(|t| **t != 0.0).count() > 1;
    if !inexact_products && !sums {
        return (v, v);
    }
    let err = 2.0 * f64::EPSILON * magnitude + f64::MIN_POSITIVE;
    (v - err, v + err)
}

/// The mean of `points`; `None` for none.
pub fn centroid(points: &[Point3<f64>]) -> Option<Point3<f64>> {
    if points.is_empty() {
        return None;
    }
    let s: Vector3<f64> = points.iter().map(|p| p.coords).sum();
    Some(Point3::from(s / points.len() as f64))
}

/// Cuts the polytope `faces` by the half-space `n·x ≤ h`: each face polygon
/// is clipped, and the points where the plane crosses the surface close the
/// cut as a new face (ordered around `n`).
fn clip(faces: &mut Vec<Vec<Point3<f64>>>, n: Vector3<f64>, h: f64, tol: f64) {
    let side = |p: &Point3<f64>| n.dot(&p.coords) - h;
    let mut cap: Vec<Point3<f64>> = Vec::new();
    for f in faces.iter_mut() {
        let poly = std::mem::take(f);
        let mut kept = Vec::with_capacity(poly.len() + 1);
        for k in 0..poly.len() {
            let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
            let (sa, sb) = (side(&a), side(&b));
            if sa <= tol {
                kept.push(a);
                if sa >= -tol {
                    cap.push(a);
                }
            }
            if (sa < -tol && sb > tol) || (sa > tol && sb < -tol) {
                let x = a + (b - a) * (sa / (sa - sb));
                kept.push(x);
                cap.push(x);
            }
        }
        *f = kept;
    }
    faces.retain(|f| f.len() >= 3);
    if cap.len() >= 3 {
        let polygon = order_around(&cap, &n, tol);
        if polygon.len() >= 3 {
            faces.push(polygon);
        }
    }
}

/// The distinct points of `points` (coplanar, in a plane of normal `n`),
/// sorted counter-clockwise around `n` about their centroid.
fn order_around(points: &[Point3<f64>], n: &Vector3<f64>, tol: f64) -> Vec<Point3<f64>> {
    let mut distinct: Vec<Point3<f64>> = Vec::new();
    for p in points {
        if !distinct.iter().any(|q| (q - p).amax() <= tol) {
            distinct.push(*p);
        }
    }
    let c = centroid(&distinct).expect("at least three points");
    let e1 = (distinct[0] - c).normalize();
    if !e1.iter().all(|x| x.is_finite()) {
        return Vec::new();
    }
    let e2 = n.cross(&e1);
    let mut keyed: Vec<(f64, Point3<f64>)> = distinct
        .iter()
        .map(|p| {
            let r = p - c;
            (r.dot(&e2).atan2(r.dot(&e1)), *p)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    keyed.into_iter().map(|(_, p)| p).collect()
}
/// Convex polygons fanned into triangles (each polygon from its first
/// vertex; orientation kept).
pub fn fan(faces: &[Vec<u32>]) -> Vec<[u32; 3]> {
    faces
        .iter()
        .flat_map(|f| (1..f.len().saturating_sub(1)).map(move |k| [f[0], f[k], f[k + 1]]))
        .collect()
}
