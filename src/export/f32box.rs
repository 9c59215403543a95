//! Rounding `f64` volumes to `f32` without losing containment, for the
//! exports: the OBB rounding is [`crate::fit::obb::f32_outward`]'s; AABBs, spheres,
//! capsules, cylinders and convex polytopes are rounded here by the same
//! rules.

use super::volume_records::{AabbDoc, ObbDoc, SphereDoc};
use crate::fit::ConvexHull;
use crate::fit::obb::f32_outward::{F32_TEST_ULPS, v64};
pub use crate::fit::obb::f32_outward::{ObbF32, round_down, round_up};
use nalgebra::{Point3, Quaternion, UnitQuaternion, Vector3};

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
    ball(s.center, s.radius)
}

/// The conservative `f32` form of the sphere of `center` and `radius`.
pub fn ball(center: [f64; 3], radius: f64) -> SphereF32 {
    let c32 = f32s(center);
    let c = Vector3::from(center);
    let dc = (c - v64(c32)).norm();
    let test = F32_TEST_ULPS * (c.amax() + radius);
    SphereF32 {
        center: c32,
        radius: round_up(radius + dc + test).max(f32::MIN_POSITIVE),
    }
}

/// A quaternion (x, y, z, w) rounded to `f32`, unit-normalised in `f64`
/// (then rounded again), and the axes of the rotation it gives — what a
/// runtime reading the `f32` quaternion gets.
pub fn rounded_rotation(q: [f64; 4]) -> ([f64; 4], [[f32; 3]; 3]) {
    let q32 = q.map(|x| x as f32 as f64);
    let u = UnitQuaternion::from_quaternion(Quaternion::new(q32[3], q32[0], q32[1], q32[2]));
    let m = u.to_rotation_matrix();
    let axes = std::array::from_fn(|i| {
        let c = m.matrix().column(i);
        [c[0] as f32, c[1] as f32, c[2] as f32]
    });
    ([u.i, u.j, u.k, u.w].map(|x| x as f32 as f64), axes)
}

/// A capsule or cylinder in `f32`, placed by a translation and a rotation
/// taking +Y to its axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundF32 {
    /// Centre.
    pub center: [f32; 3],
    /// The rounded rotation (x, y, z, w), each an `f32` value.
    pub rotation_xyzw: [f64; 4],
    /// Radius, rounded outwards.
    pub radius: f32,
    /// Half the segment's length (capsule) or half the height (cylinder),
    /// rounded outwards.
    pub half: f32,
}

/// The conservative `f32` form of a capsule (`cylinder` false: every point
/// within `radius` of the segment `center ± half·axis`) or a cylinder.
///
/// With `c'` the rounded centre and `a'` the +Y axis of the rounded
/// quaternion, a point of the segment `c + s·a` (`|s| ≤ half`) is within
/// `|c − c'| + half·|a − a'|` of `c' + s·a'`, so growing the capsule's
/// radius by that keeps it around every point. A cylinder's point `p` has
/// axial coordinate `a'·(p − c')` and distance from the new axis line each
/// off by at most `|c − c'| + |a − a'|·√(half² + radius²)`: radius and half
/// height both grow by it. Both also grow by the error of an `f32`
/// containment test, as boxes do, then round up.
pub fn round(
    center: [f64; 3],
    axis: [f64; 3],
    rotation_xyzw: [f64; 4],
    radius: f64,
    half: f64,
    cylinder: bool,
) -> RoundF32 {
    let (rotation, axes) = rounded_rotation(rotation_xyzw);
    let c = Vector3::from(center);
    let c32 = f32s(center);
    let dc = (c - v64(c32)).norm();
    let da = (Vector3::from(axis) - v64(axes[1])).norm();
    let reach = if cylinder { half.hypot(radius) } else { half };
    let grow = dc + da * reach + F32_TEST_ULPS * (c.amax() + half + radius);
    RoundF32 {
        center: c32,
        rotation_xyzw: rotation,
        radius: round_up(radius + grow).max(f32::MIN_POSITIVE),
        half: round_up(if cylinder { half + grow } else { half }),
    }
}

/// The vertices of a convex polytope rounded to `f32` so that the convex
/// hull of the rounded vertices contains the polytope (and so every point
/// it contains): the vertices are scaled about their centroid by `1 + s`
/// before rounding, `s` starting at the `f32` test's relative error and
/// growing tenfold until the hull of the rounded vertices contains every
/// original vertex, checked exactly (quickhull on `orient3d`). A flat
/// polytope (flat points) has no inside to test: its vertices are rounded
/// after the first push.
pub fn polytope(vertices: &[[f64; 3]]) -> Vec<[f32; 3]> {
    let pts: Vec<Point3<f64>> = vertices.iter().map(|v| Point3::from(*v)).collect();
    let Some(c) = crate::fit::polytope::centroid(&pts) else {
        return Vec::new();
    };
    let reach = pts.iter().map(|p| (p - c).norm()).fold(0.0, f64::max);
    let mut s = 2.0 * F32_TEST_ULPS * (c.coords.amax() + reach) / reach.max(f64::MIN_POSITIVE);
    loop {
        let grown: Vec<[f32; 3]> = pts
            .iter()
            .map(|p| {
                let g = c + (p - c) * (1.0 + s);
                [g.x as f32, g.y as f32, g.z as f32]
            })
            .collect();
        let back: Vec<Point3<f64>> = grown.iter().map(|g| Point3::from(v64(*g))).collect();
        let inside = match ConvexHull::new(&back) {
            Ok(h) if h.dimension == 3 => pts.iter().all(|p| h.contains(p)),
            _ => true,
        };
        if inside || s >= 1.0 {
            return grown;
        }
        s *= 10.0;
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
