//! Whether a point lies inside a closed triangle surface: ray parity with
//! exact predicates.
//!
//! A surface is *closed* when every edge, its vertices welded by position
//! ([`crate::mesh::weld`]), is used by an even number of triangles (edges of zero
//! length aside): it is then the boundary of a solid mod 2, and every ray
//! from a point off the surface that crosses it only through triangle
//! interiors crosses it an odd number of times exactly when the point is
//! inside. Each crossing is decided by `orient3d` signs: the segment's ends
//! strictly on both sides of the triangle's plane and the three volumes
//! `[p, q, tᵢ, tᵢ₊₁]` of one strict sign. A ray that passes through an edge,
//! a vertex, lies in a triangle's plane across it, or starts on the surface
//! is not counted: it is thrown away and another direction tried (the +x
//! axis first, then fixed pseudo-random directions). An open surface has no
//! inside: it is never asked.

use crate::fit::Aabb;
use crate::mesh::closed::is_closed;
use crate::query::pair::intersect_triangle_triangle::{o3, segment_triangle_intersect};
use nalgebra::{Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Directions tried before a point is declared undecided.
const MAX_RAYS: usize = 24;

/// A closed surface's triangles, ready for point queries.
#[derive(Clone, Debug)]
pub struct Solid {
    triangles: Vec<([Point3<f64>; 3], Aabb)>,
    bounds: Aabb,
}

/// What a ray says about one triangle.
enum Crossing {
    No,
    Yes,
    /// Through an edge, a vertex, along the plane, or from the surface.
    Degenerate,
}

impl Solid {
    /// The solid bounded by `triangles`, or `None` when they are not
    /// closed (or empty).
    pub fn new(points: &[Point3<f64>], triangles: &[[u32; 3]]) -> Option<Solid> {
        if triangles.is_empty() || !is_closed(points, triangles) {
            return None;
        }
        let tris: Vec<_> = triangles
            .iter()
            .map(|t| {
                let c = t.map(|i| points[i as usize]);
                (c, Aabb::from_points(c).expect("three corners"))
            })
            .collect();
        let bounds = Aabb::from_points(tris.iter().flat_map(|(_, b)| [&b.min, &b.max]))?;
        Some(Solid {
            triangles: tris,
            bounds,
        })
    }

    /// Whether `p` is strictly inside; `None` when `p` is on the surface or
    /// every ray tried met an edge or vertex.
    pub fn contains(&self, p: &Point3<f64>) -> Option<bool> {
        let b = &self.bounds;
        if (0..3).any(|k| p[k] < b.min[k] || p[k] > b.max[k]) {
            return Some(false);
        }
        let reach = (b.max - b.min).norm() + (p - b.center()).norm() + 1.0;
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
        for ray in 0..MAX_RAYS {
            let d: Vector3<f64> = if ray == 0 {
                Vector3::x()
            } else {
                Vector3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                )
            };
            let q = p + d * (reach / d.norm().max(f64::MIN_POSITIVE));
            if let Some(odd) = self.parity(p, &q) {
                return Some(odd);
            }
        }
        None
    }

    /// The parity of the crossings of segment `pq`, or `None` when it meets
    /// the surface anywhere but triangle interiors.
    fn parity(&self, p: &Point3<f64>, q: &Point3<f64>) -> Option<bool> {
        let (lo, hi) = (p.inf(q), p.sup(q));
        let mut odd = false;
        for (t, tb) in &self.triangles {
            if (0..3).any(|k| tb.min[k] > hi[k] || tb.max[k] < lo[k]) {
                continue;
            }
            match crossing(p, q, t) {
                Crossing::No => {}
                Crossing::Yes => odd = !odd,
                Crossing::Degenerate => return None,
            }
        }
        Some(odd)
    }
}

/// How segment `pq` meets triangle `t` (exact signs).
fn crossing(p: &Point3<f64>, q: &Point3<f64>, t: &[Point3<f64>; 3]) -> Crossing {
    let (sp, sq) = (o3(&t[0], &t[1], &t[2], p), o3(&t[0], &t[1], &t[2], q));
    if sp * sq > 0 {
        return Crossing::No;
    }
    if sp == 0 || sq == 0 {
        // An end on the plane, the segment in it, or `t` degenerate: only a
        // touch, never a clean crossing.
        return if segment_triangle_intersect(p, q, t) {
            Crossing::Degenerate
        } else {
            Crossing::No
        };
    }
    let v = [
        o3(p, q, &t[0], &t[1]),
        o3(p, q, &t[1], &t[2]),
        o3(p, q, &t[2], &t[0]),
    ];
    if v.iter().any(|&s| s > 0) && v.iter().any(|&s| s < 0) {
        Crossing::No
    } else if v.iter().all(|&s| s != 0) {
        Crossing::Yes
    } else {
        Crossing::Degenerate
    }
}
