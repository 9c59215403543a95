//! Oriented boxes rounded to `f32` without losing containment.
//!
//! Rounding a box's centre and axes to `f32` moves its faces; a consumer
//! that also rounds the vertices to `f32` and tests in `f32` arithmetic adds
//! its own error. A rounded box is therefore enlarged by a bound on all
//! three, and its extents are rounded **up** (towards +∞), so every point the
//! `f64` box contains is inside the `f32` one whether tested in `f64` or in
//! `f32`. The OBB tree stores its node boxes this way, and the exports write
//! them.

use crate::fit::Obb;
use nalgebra::Vector3;

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
