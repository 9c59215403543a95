//! Relative poses: where mesh B sits in mesh A's frame.
//!
//! A pose maps B's vertices as `v → R·v + t` into A's frame, with the rotation
//! about B's own origin. In JSON it is
//! `{"translation":[x,y,z], "rotation":[qx,qy,qz,qw]}`: the quaternion in
//! (x, y, z, w) order, the same format as `../shared/peers`.

use crate::error::{Error, Result};
use crate::mesh::MAX_COORDINATE;
use nalgebra::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A rigid motion: rotation then translation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// The rotation R.
    pub rotation: UnitQuaternion<f64>,
    /// The translation t.
    pub translation: Vector3<f64>,
}

/// The JSON form of a pose (extra keys such as `intended` are ignored).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PoseJson {
    /// `[x, y, z]`.
    pub translation: [f64; 3],
    /// `[qx, qy, qz, qw]`.
    #[serde(default = "identity_xyzw")]
    pub rotation: [f64; 4],
}

fn identity_xyzw() -> [f64; 4] {
    [0.0, 0.0, 0.0, 1.0]
}

impl Default for Pose {
    fn default() -> Self {
        Pose::identity()
    }
}

impl Pose {
    /// The identity pose.
    pub fn identity() -> Self {
        Pose {
            rotation: UnitQuaternion::identity(),
            translation: Vector3::zeros(),
        }
    }

    /// A pose from a translation and a unit quaternion.
    pub fn new(translation: Vector3<f64>, rotation: UnitQuaternion<f64>) -> Self {
        Pose {
            rotation,
            translation,
        }
    }

    /// `R·p + t`.
    pub fn transform_point(&self, p: &Point3<f64>) -> Point3<f64> {
        self.rotation * p + self.translation
    }

    /// The inverse pose (A's frame expressed in B's).
    pub fn inverse(&self) -> Pose {
        let r = self.rotation.inverse();
        Pose {
            rotation: r,
            translation: -(r * self.translation),
        }
    }

    /// As an nalgebra isometry.
    pub fn to_isometry(&self) -> Isometry3<f64> {
        Isometry3::from_parts(Translation3::from(self.translation), self.rotation)
    }

    /// The quaternion as `[x, y, z, w]`.
    pub fn rotation_xyzw(&self) -> [f64; 4] {
        let q = self.rotation.quaternion();
        [q.i, q.j, q.k, q.w]
    }

    /// The JSON form.
    pub fn to_json(&self) -> PoseJson {
        PoseJson {
            translation: self.translation.into(),
            rotation: self.rotation_xyzw(),
        }
    }

    /// From the JSON form; the quaternion must be finite and of unit length
    /// within 1e-3 (it is then normalized).
    pub fn from_json(p: &PoseJson) -> Result<Pose> {
        Pose::from_parts(p.translation, Some(p.rotation))
    }

    fn from_parts(t: [f64; 3], q: Option<[f64; 4]>) -> Result<Pose> {
        check_translation(&t)?;
        let rotation = match q {
            None => UnitQuaternion::identity(),
            Some([x, y, z, w]) => {
                let q = Quaternion::new(w, x, y, z);
                let n = q.norm();
                if !n.is_finite() || (n - 1.0).abs() > 1e-3 {
                    return Err(Error::Input(format!(
                        "pose rotation [{x}, {y}, {z}, {w}] is not a unit quaternion (x, y, z, w order; norm {n})"
                    )));
                }
                UnitQuaternion::from_quaternion(q)
            }
        };
        Ok(Pose::new(Vector3::from(t), rotation))
    }

    /// Parses an inline pose: `x,y,z` (translation), `x,y,z,rx,ry,rz`
    /// (plus rotation in degrees about X, then Y, then Z of A's frame) or
    /// `x,y,z,qx,qy,qz,qw` (plus a unit quaternion).
    pub fn parse_inline(spec: &str) -> Result<Pose> {
        let nums: Vec<f64> = spec
            .split(',')
            .map(|s| s.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| {
                Error::Input(format!("pose '{spec}': expected comma-separated numbers"))
            })?;
        if nums.iter().any(|x| !x.is_finite()) {
            return Err(Error::Input(format!(
                "pose '{spec}': numbers must be finite"
            )));
        }
        let t = [
            nums.first().copied().unwrap_or(0.0),
            nums.get(1).copied().unwrap_or(0.0),
            nums.get(2).copied().unwrap_or(0.0),
        ];
        match nums.len() {
            3 => Pose::from_parts(t, None),
            6 => {
                check_translation(&t)?;
                let (rx, ry, rz) = (
                    nums[3].to_radians(),
                    nums[4].to_radians(),
                    nums[5].to_radians(),
                );
                // X first, then Y, then Z, all about A's fixed axes: R = Rz·Ry·Rx.
                let r = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), rz)
                    * UnitQuaternion::from_axis_angle(&Vector3::y_axis(), ry)
                    * UnitQuaternion::from_axis_angle(&Vector3::x_axis(), rx);
                Ok(Pose::new(Vector3::from(t), r))
            }
            7 => Pose::from_parts(t, Some([nums[3], nums[4], nums[5], nums[6]])),
            n => Err(Error::Input(format!(
                "pose '{spec}': expected 3, 6 or 7 numbers (x,y,z[,rx,ry,rz | ,qx,qy,qz,qw]), got {n}"
            ))),
        }
    }

    /// Parses a `--pose` argument: an existing file (JSON pose, JSON list of
    /// poses, or JSON Lines) or else an inline pose.
    pub fn parse_spec(spec: &str) -> Result<Vec<Pose>> {
        let path = Path::new(spec);
        if path.is_file() {
            let text =
                std::fs::read_to_string(path).map_err(|e| Error::Input(format!("{spec}: {e}")))?;
            Pose::parse_json_text(&text).map_err(|e| Error::Input(format!("{spec}: {e}")))
        } else {
            Pose::parse_inline(spec).map(|p| vec![p])
        }
    }

    /// Parses one JSON pose, a JSON list of poses, or JSON Lines.
    pub fn parse_json_text(text: &str) -> Result<Vec<Pose>> {
        let trimmed = text.trim_start();
        let items: Vec<PoseJson> = if trimmed.starts_with('[') {
            serde_json::from_str(text).map_err(|e| Error::Input(format!("bad pose list: {e}")))?
        } else if let Ok(one) = serde_json::from_str::<PoseJson>(text) {
            vec![one]
        } else {
            let mut v = Vec::new();
            for (k, line) in text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
            {
                v.push(
                    serde_json::from_str(line)
                        .map_err(|e| Error::Input(format!("line {}: bad pose: {e}", k + 1)))?,
                );
            }
            v
        };
        if items.is_empty() {
            return Err(Error::Input("no poses in the file".into()));
        }
        items.iter().map(Pose::from_json).collect()
    }
}

/// A pose translation must be finite and within the numeric range of every
/// coordinate, [`MAX_COORDINATE`] (2^50), per component.
fn check_translation(t: &[f64; 3]) -> Result<()> {
    if t.iter().all(|x| x.abs() <= MAX_COORDINATE) {
        return Ok(());
    }
    Err(Error::Input(format!(
        "pose translation {t:?} is not finite or outside the accepted range [-{MAX_COORDINATE:e}, {MAX_COORDINATE:e}] (|x| <= 2^50)"
    )))
}
