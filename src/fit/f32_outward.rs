//! Shapes rounded to `f32` without losing containment: the one place every
//! `f32` form bvtool stores or writes is made (the OBB tree's node boxes,
//! the AABB tree's boxes, the BVT1 and C header volumes, every exported
//! collider).
//!
//! **Guarantee** (every shape here): every point the `f64` shape contains
//! is inside its `f32` form, whether the containment is tested in `f64` on
//! the stored `f32` numbers or entirely in `f32` arithmetic on the point
//! rounded to `f32`. Rounding a shape's centre and axes to `f32` moves its
//! surface, and a consumer that rounds the point and tests in `f32` adds
//! its own error; so each shape is enlarged by a bound on all of these
//! (the test's share is [`F32_TEST_ULPS`] relative to the shape's reach
//! from the origin) and its sizes are then rounded **up** (towards +∞):
//!
//! - oriented boxes: [`ObbF32::from_obb`] (axes rounded to nearest) and
//!   [`ObbF32::from_obb_with_axes`] (the axes of a rounded rotation);
//! - axis-aligned boxes: [`aabb`], corners rounded outwards (no margin
//!   needed: rounding is monotone and the comparisons exact);
//! - spheres: [`ball`];
//! - capsules and cylinders: [`round`] ([`RoundF32`]);
//! - convex polytopes: [`polytope`], vertices pushed out until the hull of
//!   the rounded vertices holds the `f64` polytope (checked exactly);
//! - rotations: [`rounded_rotation`], the quaternion (x, y, z, w) a
//!   runtime reads and the axes it gives.
//!
//! Directed rounding of single numbers is [`round_up`] / [`round_down`].

use crate::fit::{ConvexHull, Obb};
use nalgebra::{Point3, Quaternion, UnitQuaternion, Vector3};

/// Relative error budget of an `f32` containment test: rounding the point
/// (½ ulp), the difference to the centre (½ ulp), a 3-term dot product and
/// its comparison (≈ 3 ulps), plus one ulp of slack — all relative to the
/// box's reach from the origin, `|c|∞ + |h|`.
pub const F32_TEST_ULPS: f64 = 6.0 * f32::EPSILON as f64;

/// The smallest `f32` that is ≥ `x`.
#[inline]
pub fn round_up(x: f64) -> f32 {
    let f = x as f32;
    select((f as f64) < x, f.next_up(), f)
}

/// The largest `f32` that is ≤ `x`.
#[inline]
pub fn round_down(x: f64) -> f32 {
    let f = x as f32;
    select((f as f64) > x, f.next_down(), f)
}

/// `if c { a } else { b }` without a branch: whether rounding to nearest
/// went the wrong way is a coin toss per coordinate, and a mispredicted
/// branch costs more than computing both candidates (measured with `perf`
/// on the AABB tree's triangle boxes: half the time).
#[inline]
fn select(c: bool, a: f32, b: f32) -> f32 {
    let m = (c as u32).wrapping_neg();
    f32::from_bits((a.to_bits() & m) | (b.to_bits() & !m))
}

/// An oriented box in `f32`: `center`, `axes[i]` (unit axis `i`, to `f32`
/// rounding), **half** extents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObbF32 {
    /// Centre.
    pub center: [f32; 3],
    /// Axis `i` is `axes[i]`.
    pub axes: [[f32; 3]; 3],
    /// Half extents, rounded outwards.
    pub half_extents: [f32; 3],
}

/// `a` widened to `f64`.
pub fn v64(a: [f32; 3]) -> Vector3<f64> {
    Vector3::new(a[0] as f64, a[1] as f64, a[2] as f64)
}

/// How far the axes `axes` (one per row) are from orthonormal: the largest
/// `|aₚ·a_q − δₚ_q|`, computed in `f64` (exact for `f32` inputs up to the
/// last bit of the sum), with the pair `(p, q)` and its dot product; `NaN`
/// when an axis is not finite. The readers of stored boxes (tree bytes,
/// BVT1) refuse axes beyond their tolerance with it.
pub fn orthonormality_error(axes: &[[f32; 3]; 3]) -> (f64, (usize, usize, f64)) {
    let mut worst = (0.0, (0, 0, 1.0));
    for p in 0..3 {
        for q in p..3 {
            let dot: f64 = (0..3).map(|c| axes[p][c] as f64 * axes[q][c] as f64).sum();
            let off = (dot - if p == q { 1.0 } else { 0.0 }).abs();
            if off.is_nan() || off > worst.0 {
                worst = (off, (p, q, dot));
            }
        }
    }
    worst
}

impl ObbF32 {
    /// The conservative `f32` form of `b`, its axes rounded to nearest.
    pub fn from_obb(b: &Obb) -> ObbF32 {
        let axes = std::array::from_fn(|i| b.axis(i).map(|x| x as f32).into());
        ObbF32::from_obb_with_axes(b, axes)
    }

    /// The conservative `f32` form of `b` with the given `f32` axes (close to
    /// `b`'s, e.g. those of a rounded quaternion).
    ///
    /// With `c'`, `a'ᵢ` the rounded centre and axes and `p = c + Σ sⱼaⱼ`
    /// (`|sⱼ| ≤ hⱼ`): `|a'ᵢ·(p − c')| ≤ hᵢ + |a'ᵢ − aᵢ|·|h| + |a'ᵢ|·|c − c'|`;
    /// to that the `f32` test's error, [`F32_TEST_ULPS`] × (`|c|∞ + |h|`), is
    /// added before rounding up. Half extents are at least the smallest normal
    /// `f32` (never zero, as glTF's `KHR_implicit_shapes` requires).
    pub fn from_obb_with_axes(b: &Obb, axes: [[f32; 3]; 3]) -> ObbF32 {
        let center: [f32; 3] = b.center.coords.map(|x| x as f32).into();
        let dc = (b.center.coords - v64(center)).norm();
        let reach = b.half_extents.norm();
        let test = F32_TEST_ULPS * (b.center.coords.amax() + reach);
        let half_extents = std::array::from_fn(|i| {
            let a32 = v64(axes[i]);
            let slack = (a32 - b.axis(i)).norm() * reach + a32.norm() * dc + test;
            round_up(b.half_extents[i] + slack).max(f32::MIN_POSITIVE)
        });
        ObbF32 {
            center,
            axes,
            half_extents,
        }
    }

    /// Volume, `8·hx·hy·hz`, in `f64`.
    pub fn volume(&self) -> f64 {
        self.half_extents.iter().map(|&h| 2.0 * h as f64).product()
    }

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

/// The conservative `f32` form of the AABB of corners `min` and `max`:
/// corners rounded outwards. No further margin is needed: rounding is
/// monotone, so a vertex rounded to `f32` stays between the rounded-out
/// corners, and comparisons are exact.
pub fn aabb(min: [f64; 3], max: [f64; 3]) -> AabbF32 {
    AabbF32 {
        min: min.map(round_down),
        max: max.map(round_up),
    }
}

/// The conservative `f32` form of the sphere of `center` and `radius`:
/// radius grown by the centre's rounding and the `f32` test's error, then
/// rounded up.
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// `round_down(x)` is the largest `f32` at or below `x` and
    /// `round_up(x)` the smallest at or above, on values exactly
    /// representable, between two `f32`s, beyond the `f32` range, subnormal,
    /// signed zeros, infinities and NaN.
    #[test]
    fn rounding_is_directed_and_tight() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut xs = vec![
            0.0,
            -0.0,
            1.0,
            0.1,
            -0.1,
            1e-40,
            -1e-40,
            1e-46,
            -1e-46,
            f32::MAX as f64,
            -(f32::MAX as f64),
            3.5e38,
            -3.5e38,
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for _ in 0..100_000 {
            let m: f64 = rng.random_range(-1.0..1.0);
            xs.push(m * 10f64.powi(rng.random_range(-50..50)));
        }
        for x in xs {
            let (lo, hi) = (round_down(x), round_up(x));
            assert!(lo as f64 <= x && x <= hi as f64, "{x}");
            if x.is_finite() {
                assert!(
                    lo.next_up() as f64 > x && (hi.next_down() as f64) < x,
                    "{x}"
                );
            }
            assert_eq!(lo == hi, lo as f64 == x, "{x}");
        }
        assert!(round_down(f64::NAN).is_nan() && round_up(f64::NAN).is_nan());
    }
}
