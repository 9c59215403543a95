//! The closest point of a closed triangle to a point, with its barycentric
//! coordinates and the feature (face, edge or corner) it lies on.
//!
//! The foot of the perpendicular when it falls inside the triangle
//! (decided by the signs of the three edge normals against the triangle's
//! normal), else the nearest of the three edges' clamped projections — the
//! route of [`crate::query::distance_point_mesh`], whose rounding bound
//! ([`super::distance_triangle_triangle::rounding_bound`]) holds for the
//! distance. A degenerate triangle (collinear or coincident corners) has
//! no face: its edges are exactly the segment or point it is.

use super::distance_triangle_triangle::Face;
use nalgebra::Point3;

/// Which part of a triangle its closest point lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// The interior or boundary of the face, reached by the plane's foot.
    Face,
    /// Edge `i`, from corner `i` to corner `(i + 1) % 3`, inside its span.
    Edge(u8),
    /// Corner `i`.
    Vertex(u8),
}

impl Feature {
    /// `"face"`, `"edge"` or `"vertex"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Feature::Face => "face",
            Feature::Edge(_) => "edge",
            Feature::Vertex(_) => "vertex",
        }
    }

    /// A code for arrays: 0 face, 1–3 edge 0–2, 4–6 corner 0–2.
    pub fn code(&self) -> u8 {
        match *self {
            Feature::Face => 0,
            Feature::Edge(i) => 1 + i,
            Feature::Vertex(i) => 4 + i,
        }
    }
}

/// The closest point of a triangle to a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoint {
    /// The closest point, in the triangle's frame.
    pub point: Point3<f64>,
    /// Its barycentric coordinates: weights of the corners, non-negative,
    /// summing to 1 up to rounding.
    pub barycentric: [f64; 3],
    /// The feature it lies on.
    pub feature: Feature,
    /// The squared distance from the query point.
    pub distance_squared: f64,
}

/// The closest point of the closed triangle `t` to `p`.
pub fn closest_point_triangle(p: &Point3<f64>, t: &[Point3<f64>; 3]) -> ClosestPoint {
    if let Some((x, barycentric)) = Face::new(t).and_then(|f| f.project_barycentric(p)) {
        return ClosestPoint {
            point: x,
            barycentric,
            feature: Feature::Face,
            distance_squared: nalgebra::distance_squared(&x, p),
        };
    }
    let mut best = ClosestPoint {
        point: t[0],
        barycentric: [1.0, 0.0, 0.0],
        feature: Feature::Vertex(0),
        distance_squared: f64::INFINITY,
    };
    for i in 0..3 {
        let j = (i + 1) % 3;
        let (a, d) = (t[i], t[j] - t[i]);
        let dd = d.norm_squared();
        let s = if dd > 0.0 {
            ((p - a).dot(&d) / dd).clamp(0.0, 1.0)
        } else {
            0.0
        };
        // The corners themselves at the ends (a + d·1 may round off b).
        let q = if s == 1.0 { t[j] } else { a + d * s };
        let d2 = nalgebra::distance_squared(&q, p);
        if d2 < best.distance_squared {
            let mut barycentric = [0.0; 3];
            barycentric[i] = 1.0 - s;
            barycentric[j] += s;
            let feature = if s == 0.0 {
                Feature::Vertex(i as u8)
            } else if s == 1.0 {
                Feature::Vertex(j as u8)
            } else {
                Feature::Edge(i as u8)
            };
            best = ClosestPoint {
                point: q,
                barycentric,
                feature,
                distance_squared: d2,
            };
        }
    }
    best
}
