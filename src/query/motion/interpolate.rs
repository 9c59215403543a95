//! One motion segment: B's pose from `P0` at `t = 0` to `P1` at `t = 1`.

use crate::pose::Pose;
use nalgebra::{Quaternion, UnitQuaternion, Vector3};

/// B's pose relative to A moving from `from` (`t = 0`) to `to` (`t = 1`):
///
/// - the translation is linear in `t`: `T(t) = T0 + t·(T1 − T0)`;
/// - the rotation turns at constant angular velocity about one axis fixed
///   in B's frame, through B's own origin (the point a pose rotates about),
///   along the shortest arc: `q(t) = q0 · r^t` with `r = q0⁻¹·q1` taken
///   with `w ≥ 0` (of `r` and `−r`, which are one rotation, the one whose
///   turn is at most a half turn), so that B turns by the angle
///   `θ = 2·atan2(|r_xyz|, r_w) ∈ [0, π]` in all. For a half turn
///   (`r_w = 0`) the axis is that of `q0⁻¹·q1` as given.
///
/// At `t = 0` and `t = 1` the poses are `from` and `to` exactly; between,
/// each is computed in `f64` (within a few ulps of the exact pose, a
/// rounding the certificate's margin covers: [`super::ImpactOptions`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    /// The pose at `t = 0`.
    pub from: Pose,
    /// The pose at `t = 1`.
    pub to: Pose,
    /// The rotation axis in B's frame (unit; zero when B does not turn).
    axis: Vector3<f64>,
    /// The angle B turns through over the whole motion, radians in [0, π].
    angle: f64,
}

impl Motion {
    /// The motion from `from` to `to`.
    pub fn new(from: Pose, to: Pose) -> Motion {
        let r = (from.rotation.inverse() * to.rotation).into_inner();
        let r = if r.w < 0.0 { -r } else { r };
        let s = r.imag().norm();
        let (axis, angle) = if s > 0.0 {
            (r.imag() / s, 2.0 * s.atan2(r.w))
        } else {
            (Vector3::zeros(), 0.0)
        };
        Motion {
            from,
            to,
            axis,
            angle,
        }
    }

    /// The angle B turns through from `t = 0` to `t = 1`, radians in [0, π].
    pub fn angle(&self) -> f64 {
        self.angle
    }

    /// The rotation axis in B's frame (unit; zero when B does not turn).
    pub fn axis(&self) -> Vector3<f64> {
        self.axis
    }

    /// The length of the translation `|T1 − T0|`, model units.
    pub fn travel(&self) -> f64 {
        (self.to.translation - self.from.translation).norm()
    }

    /// B's pose at `t` (clamped to [0, 1]).
    pub fn pose_at(&self, t: f64) -> Pose {
        if t <= 0.0 {
            return self.from;
        }
        if t >= 1.0 {
            return self.to;
        }
        let translation = self.from.translation + t * (self.to.translation - self.from.translation);
        if self.angle == 0.0 {
            return Pose::new(translation, self.from.rotation);
        }
        let half = 0.5 * t * self.angle;
        let turn = Quaternion::from_parts(half.cos(), self.axis * half.sin());
        let rotation = UnitQuaternion::new_normalize(self.from.rotation.into_inner() * turn);
        Pose::new(translation, rotation)
    }

    /// The bound on how fast any point of B within `radius` of B's origin
    /// moves, per unit of `t`: `|T1 − T0| + θ·radius` (a point at `p` in
    /// B's frame is at `R(t)·p + T(t)`; the rotation part moves along an
    /// arc of radius at most `|p|` at angular speed `θ`, and a chord is no
    /// longer than its arc), rounded up.
    pub fn speed_bound(&self, radius: f64) -> f64 {
        (self.travel() + self.angle * radius) * (1.0 + 8.0 * f64::EPSILON)
    }
}
