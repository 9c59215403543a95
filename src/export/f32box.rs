//! Rounding `f64` volumes to `f32` without losing containment.
//!
//! Rounding a box's centre and axes to `f32` moves its faces; a runtime
//! that also rounds the vertices to `f32` and tests in `f32` arithmetic adds
//! its own error. Each rounded volume is therefore enlarged by a bound on
//! all three, and its extents are rounded **up** (towards +∞), so every
//! point the `f64` volume contains is inside the `f32` one whether tested in
//! `f64` or in `f32`.

use super::document::{AabbDoc, ObbDoc, SphereDoc};
use nalgebra::Vector3;

/// Relative error budget of the runtime's `f32` test: rounding the point
/// (½ ulp), the difference to the centre (½ ulp), a 3-term dot product and
/// its comparison (≈ 3 ulps), plus one ulp of slack — all relative to the
/// box's reach from the origin, `|c|∞ + |h|`.
const F32_TEST_ULPS: f64 = 6.0 * f32::EPSILON as f64;

/// The smallest `f32` that is ≥ `x`.
pub fn round_up(x: f64) -> f32 {
    let f = x as f32;
    if (f as f64) < x { f.next_up() } else { f }
}

/// The largest `f32` that is ≤ `x`.
pub fn round_down(x: f64) -> f32 {
    let f = x as f32;
    if (f as f64) > x { f.next_down() } else { f }
}

/// An oriented box in `f32`: `center`, `axes[i]` (unit axis `i`),
/// `half_extents` — the layout of `bvt_obb` minus its padding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObbF32 {
    /// Centre.
    pub center: [f32; 3],
    /// Axis `i` is `axes[i]`.
    pub axes: [[f32; 3]; 3],
    /// Half extents, rounded outwards.
    pub half_extents: [f32; 3],
}

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

fn v64(a: [f32; 3]) -> Vector3<f64> {
    Vector3::new(a[0] as f64, a[1] as f64, a[2] as f64)
}

fn f32s(a: [f64; 3]) -> [f32; 3] {
    a.map(|x| x as f32)
}

/// The conservative `f32` form of `b`, keeping its axes rounded to nearest.
pub fn obb(b: &ObbDoc) -> ObbF32 {
    obb_with_axes(b, b.axes.map(f32s))
}

/// The conservative `f32` form of `b` with the given `f32` axes (close to
/// `b`'s, e.g. those of a rounded quaternion).
///
/// With `c'`, `a'ᵢ` the rounded centre and axes and `p = c + Σ sⱼaⱼ`
/// (`|sⱼ| ≤ hⱼ`): `|a'ᵢ·(p − c')| ≤ hᵢ + |a'ᵢ − aᵢ|·|h| + |a'ᵢ|·|c − c'|`;
/// to that the `f32` test's error, [`F32_TEST_ULPS`] × (`|c|∞ + |h|`), is added
/// before rounding up. Half extents are at least the smallest normal `f32`
/// (never zero, as glTF's `KHR_implicit_shapes` requires).
pub fn obb_with_axes(b: &ObbDoc, axes: [[f32; 3]; 3]) -> ObbF32 {
    let center = f32s(b.center);
    let c = Vector3::from(b.center);
    let h = Vector3::from(b.half_extents);
    let dc = (c - v64(center)).norm();
    let reach = h.norm();
    let test = F32_TEST_ULPS * (c.amax() + reach);
    let half_extents = std::array::from_fn(|i| {
        let a = Vector3::from(b.axes[i]);
        let a32 = v64(axes[i]);
        let slack = (a32 - a).norm() * reach + a32.norm() * dc + test;
        round_up(h[i] + slack).max(f32::MIN_POSITIVE)
    });
    ObbF32 {
        center,
        axes,
        half_extents,
    }
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

impl ObbF32 {
    /// Whether `p` is inside, tested entirely in `f32` as a runtime would.
    pub fn contains_f32(&self, p: [f32; 3]) -> bool {
        let d = [
            p[0] - self.center[0],
            p[1] - self.center[1],
            p[2] - self.center[2],
        ];
        (0..3).all(|i| {
            let a = self.axes[i];
            (a[0] * d[0] + a[1] * d[1] + a[2] * d[2]).abs() <= self.half_extents[i]
        })
    }

    /// Whether `p` is inside, the stored `f32` numbers tested in `f64`.
    pub fn contains_f64(&self, p: [f64; 3]) -> bool {
        let d = Vector3::from(p) - v64(self.center);
        (0..3).all(|i| v64(self.axes[i]).dot(&d).abs() <= self.half_extents[i] as f64)
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
