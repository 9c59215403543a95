//! `bvtool fit --check`: the point-cloud AABB and the centroid sphere
//! recomputed by parry3d.

use crate::check::parry;
use crate::fit::{Aabb, Sphere};
use nalgebra::Point3;
use serde::Serialize;

/// The outcome of one cross-check.
#[derive(Clone, Debug, Serialize)]
pub struct Agreement {
    /// What was compared.
    pub what: &'static str,
    /// Whether the two answers agree within `tolerance`.
    pub agrees: bool,
    /// The largest difference seen (model units).
    pub max_difference: f64,
    /// The tolerance allowed: f32 rounding of the coordinates parry3d sees.
    pub tolerance: f64,
}

/// The tolerance for comparing an `f64` answer with parry3d's `f32` one on
/// points whose coordinates reach magnitude `scale`: a few f32 ulps.
fn f32_tolerance(scale: f64) -> f64 {
    4.0 * f32::EPSILON as f64 * scale.max(f64::MIN_POSITIVE)
}

/// Compares `aabb` (fitted to `points`) with parry3d's point-cloud AABB and
/// `centroid` (the D3DX centroid sphere of `points`) with parry3d's
/// `point_cloud_bounding_sphere`, which follows the same rule.
pub fn fit(points: &[Point3<f64>], aabb: &Aabb, centroid: &Sphere) -> Vec<Agreement> {
    let scale = points.iter().map(|p| p.coords.amax()).fold(0.0, f64::max);
    let tol = f32_tolerance(scale);
    let (pmin, pmax) = parry::point_cloud_aabb(points);
    let d_aabb = (aabb.min - pmin).amax().max((aabb.max - pmax).amax());
    let (pc, pr) = parry::point_cloud_bounding_sphere(points);
    let d_sphere = nalgebra::distance(&centroid.center, &pc).max((centroid.radius - pr).abs());
    // parry3d sums the points in f32 to find their mean; the rounding of such
    // a sum grows like √n ulps in practice.
    let sphere_tol = tol * (8.0 + (points.len() as f64).sqrt());
    vec![
        Agreement {
            what: "AABB vs parry3d local_point_cloud_aabb",
            agrees: d_aabb <= tol,
            max_difference: d_aabb,
            tolerance: tol,
        },
        Agreement {
            what: "centroid sphere vs parry3d point_cloud_bounding_sphere",
            agrees: d_sphere <= sphere_tol,
            max_difference: d_sphere,
            tolerance: sphere_tol,
        },
    ]
}
