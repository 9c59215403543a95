//! Rounding `f64` volumes to `f32` without losing containment, for the
//! exports: the OBB rounding is [`crate::fit::obb_f32`]'s; AABBs and spheres
//! are rounded here by the same rules.

use super::document::{AabbDoc, ObbDoc, SphereDoc};
use crate::fit::obb_f32::{F32_TEST_ULPS, v64};
pub use crate::fit::obb_f32::{ObbF32, round_down, round_up};
use nalgebra::Vector3;

/// An AABB in `f32`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AabbF32 {
    /// Lowest corner, rounded down.
    pub min: [f32; 3],
    /// Highest corner, rounded up.
    pub max: [f32; 3],
}

/// A sphere in `f32`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SphereF32 {
    /// Centre.
    pub center: [f32; 3],
    /// Radius, rounded outwards.
    pub radius: f32,
}

fn f32s(a: [f64; 3]) -> [f32; 3] {
    a.map(|x| x as f32)
}

/// The conservative `f32` form of `b`, its axes rounded to nearest
/// ([`ObbF32::from_obb`]).
pub fn obb(b: &ObbDoc) -> ObbF32 {
    ObbF32::from_obb(&b.to_obb())
}

/// The conservative `f32` form of `b` with the given `f32` axes
/// ([`ObbF32::from_obb_with_axes`]).
pub fn obb_with_axes(b: &ObbDoc, axes: [[f32; 3]; 3]) -> ObbF32 {
    ObbF32::from_obb_with_axes(&b.to_obb(), axes)
}

/// The conservative `f32` form of an AABB: corners rounded outwards. No
/// further margin is needed: rounding is monotone, so a vertex rounded to
/// `f32` stays between the rounded-out corners, and comparisons are exact.
pub fn aabb(b: &AabbDoc) -> AabbF32 {
    AabbF32 {
        min: b.min.map(round_down),
        max: b.max.map(round_up),
    }
}

/// The conservative `f32` form of a sphere: radius grown by the centre's
/// rounding and the `f32` test's error, then rounded up.
pub fn sphere(s: &SphereDoc) -> SphereF32 {
    let center = f32s(s.center);
    let c = Vector3::from(s.center);
    let dc = (c - v64(center)).norm();
    let test = F32_TEST_ULPS * (c.amax() + s.radius);
    SphereF32 {
        center,
        radius: round_up(s.radius + dc + test).max(f32::MIN_POSITIVE),
    }
}

impl AabbF32 {
    /// Whether `p` is inside (the comparison is exact in either precision).
    pub fn contains_f64(&self, p: [f64; 3]) -> bool {
        (0..3).all(|i| self.min[i] as f64 <= p[i] && p[i] <= self.max[i] as f64)
    }
}

impl SphereF32 {
    /// Whether `p` is inside, tested in `f32` (squared distances).
    pub fn contains_f32(&self, p: [f32; 3]) -> bool {
        let d: f32 = (0..3).map(|i| (p[i] - self.center[i]).powi(2)).sum();
        d <= self.radius * self.radius
    }

    /// Whether `p` is inside, tested in `f64`.
    pub fn contains_f64(&self, p: [f64; 3]) -> bool {
        (Vector3::from(p) - v64(self.center)).norm() <= self.radius as f64
    }
}
