//! Relative poses: where mesh B sits in mesh A's frame.
//!
//! A pose maps B's vertices as `v → R·v + t` into A's frame, with the rotation
//! about B's own origin. In JSON it is
//! `{"translation":[x,y,z], "rotation":[qx,qy,qz,qw]}`: the quaternion in
//! (x, y, z, w) order; a row-major 4×4 rigid matrix is read too.

use crate::error::{Error, Result};
use crate::mesh::MAX_COORDINATE;
use nalgebra::{
    Isometry3, Matrix3, Matrix4, Point3, Quaternion, Rotation3, Translation3, UnitQuaternion,
    Vector3,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

    /// A pose from a 4×4 homogeneous matrix (`[R t; 0 0 0 1]`), which must be
    /// a rigid transform within [`RIGID_TOLERANCE`]: every entry of `RᵀR − I`
    /// and of the bottom row's difference from `0 0 0 1` at most that in
    /// absolute value, and `det R` within it of +1 (no mirror, no scale).
    pub fn from_matrix(m: &Matrix4<f64>) -> Result<Pose> {
        if m.iter().any(|x| !x.is_finite()) {
            return Err(Error::Input("pose matrix is not finite".into()));
        }
        let tol = RIGID_TOLERANCE;
        let bottom = [m[(3, 0)], m[(3, 1)], m[(3, 2)], m[(3, 3)] - 1.0];
        if bottom.iter().any(|x| x.abs() > tol) {
            return Err(Error::Input(format!(
                "pose matrix: the last row must be 0 0 0 1 (the matrix is row-major), got {} {} {} {}",
                m[(3, 0)],
                m[(3, 1)],
                m[(3, 2)],
                m[(3, 3)]
            )));
        }
        let r: Matrix3<f64> = m.fixed_view::<3, 3>(0, 0).into_owned();
        let off = (r.transpose() * r - Matrix3::identity()).amax();
        let det = r.determinant();
        if off > tol || (det - 1.0).abs() > tol {
            return Err(Error::Input(format!(
                "pose matrix is not a rigid transform: |RᵀR − I| = {off:.3e}, det R = {det} (tolerance {tol:e})"
            )));
        }
        let rotation = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(r));
        let t = m.fixed_view::<3, 1>(0, 3).into_owned();
        check_translation(&[t.x, t.y, t.z])?;
        Ok(Pose::new(t, rotation))
    }

    /// Parses an inline pose with angles in degrees (see [`Pose::parse_inline_in`]).
    pub fn parse_inline(spec: &str) -> Result<Pose> {
        Pose::parse_inline_in(spec, AngleUnit::Deg)
    }

    /// Parses an inline pose: `x,y,z` (translation), `x,y,z,rx,ry,rz`
    /// (plus rotation about X, then Y, then Z of A's frame, in `unit` unless
    /// an angle carries its own: `1.5708rad`, `90deg`) or `x,y,z,qx,qy,qz,qw`
    /// (plus a unit quaternion).
    pub fn parse_inline_in(spec: &str, unit: AngleUnit) -> Result<Pose> {
        let bad = |what: &str| Error::Input(format!("pose '{spec}': {what}"));
        let fields: Vec<&str> = spec.split(',').map(str::trim).collect();
        let mut nums = Vec::with_capacity(fields.len());
        for (k, f) in fields.iter().enumerate() {
            let (text, radians) = match (f.strip_suffix("rad"), f.strip_suffix("deg")) {
                (Some(t), _) => (t, Some(true)),
                (_, Some(t)) => (t, Some(false)),
                _ => (*f, None),
            };
            let x: f64 = text
                .trim()
                .parse()
                .map_err(|_| bad("expected comma-separated numbers"))?;
            if !x.is_finite() {
                return Err(bad("numbers must be finite"));
            }
            let is_angle = fields.len() == 6 && k >= 3;
            nums.push(match radians {
                Some(_) if !is_angle => {
                    return Err(bad(
                        "only the three Euler angles of x,y,z,rx,ry,rz take a unit (rad or deg)",
                    ));
                }
                Some(true) => x,
                Some(false) => x.to_radians(),
                None if is_angle && unit == AngleUnit::Deg => x.to_radians(),
                None => x,
            });
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
                // X first, then Y, then Z, all about A's fixed axes: R = Rz·Ry·Rx.
                let r = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), nums[5])
                    * UnitQuaternion::from_axis_angle(&Vector3::y_axis(), nums[4])
                    * UnitQuaternion::from_axis_angle(&Vector3::x_axis(), nums[3]);
                Ok(Pose::new(Vector3::from(t), r))
            }
            7 => Pose::from_parts(t, Some([nums[3], nums[4], nums[5], nums[6]])),
            n => Err(bad(&format!(
                "expected 3, 6 or 7 numbers (x,y,z[,rx,ry,rz | ,qx,qy,qz,qw]), got {n}"
            ))),
        }
    }

    /// Parses poses from JSON text: one pose, a JSON list of poses, or JSON
    /// Lines (one pose per line). A pose is
    /// `{"translation":[x,y,z], "rotation":[qx,qy,qz,qw]}` (rotation
    /// optional), `{"matrix": M}` or a bare `M`, where `M` is a row-major 4×4
    /// rigid transform given as 16 numbers or 4 rows of 4. Errors say where,
    /// as a JSON pointer (`/2/rotation`) or a line number.
    pub fn parse_json_text(text: &str) -> Result<Vec<Pose>> {
        let poses = match serde_json::from_str::<Value>(text) {
            Ok(Value::Array(items)) if !is_matrix(&items) => items
                .iter()
                .enumerate()
                .map(|(k, v)| pose_value(v, &format!("/{k}")))
                .collect::<Result<Vec<_>>>()?,
            Ok(one) => vec![pose_value(&one, "")?],
            Err(whole) => {
                let mut v = Vec::new();
                for (k, line) in text.lines().enumerate() {
                    if line.trim().is_empty() {
                        continue;
                    }
                    let value: Value = serde_json::from_str(line).map_err(|e| {
                        let why = if v.is_empty() {
                            whole.to_string()
                        } else {
                            e.to_string()
                        };
                        Error::Input(format!("line {}: not JSON: {why}", k + 1))
                    })?;
                    v.push(
                        pose_value(&value, "")
                            .map_err(|e| Error::Input(format!("line {}: {e}", k + 1)))?,
                    );
                }
                v
            }
        };
        if poses.is_empty() {
            return Err(Error::Input("no poses in the input".into()));
        }
        Ok(poses)
    }
}

/// How far a pose matrix may be from a rigid transform (per entry of
/// `RᵀR − I`, of the bottom row, and for `det R − 1`): well above the
/// rounding of matrices printed with 9+ significant digits, far below any
/// real scale or shear.
pub const RIGID_TOLERANCE: f64 = 1e-6;

/// The unit of inline Euler angles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum AngleUnit {
    /// Degrees (the default).
    #[default]
    Deg,
    /// Radians (as URDF and most robotics data).
    Rad,
}

/// Whether `items` (a JSON array) is one 4×4 matrix given as rows.
fn is_matrix(items: &[Value]) -> bool {
    items.len() == 4
        && items.iter().all(Value::is_array)
        && items
            .iter()
            .all(|r| r.as_array().is_some_and(|r| r.iter().all(Value::is_number)))
}

/// `n` numbers at `at`, or an error naming the JSON pointer.
fn numbers<const N: usize>(v: &Value, at: &str) -> Result<[f64; N]> {
    let items = v.as_array().filter(|a| a.len() == N);
    let nums: Option<Vec<f64>> = items.and_then(|a| a.iter().map(Value::as_f64).collect());
    nums.and_then(|n| n.try_into().ok())
        .ok_or_else(|| Error::Input(format!("{}: expected {N} numbers", pointer(at))))
}

fn pointer(at: &str) -> &str {
    if at.is_empty() { "/" } else { at }
}

/// A row-major 4×4 matrix at `at`: 16 numbers or 4 rows of 4.
fn matrix_value(v: &Value, at: &str) -> Result<Matrix4<f64>> {
    let rows: [f64; 16] = match v.as_array() {
        Some(a) if a.len() == 4 => {
            let mut m = [0.0; 16];
            for (i, row) in a.iter().enumerate() {
                let r: [f64; 4] = numbers(row, &format!("{at}/{i}"))?;
                m[4 * i..4 * i + 4].copy_from_slice(&r);
            }
            m
        }
        _ => numbers(v, at).map_err(|_| {
            Error::Input(format!(
                "{}: expected a 4×4 matrix (16 numbers, row-major, or 4 rows of 4)",
                pointer(at)
            ))
        })?,
    };
    Ok(Matrix4::from_row_slice(&rows))
}

/// One pose in any JSON form, errors naming the JSON pointer `at`.
fn pose_value(v: &Value, at: &str) -> Result<Pose> {
    let with_place = |e: Error| Error::Input(format!("{}: {e}", pointer(at)));
    match v {
        Value::Object(o) if o.contains_key("matrix") => {
            Pose::from_matrix(&matrix_value(&o["matrix"], &format!("{at}/matrix"))?)
                .map_err(with_place)
        }
        Value::Object(o) => {
            let t = o.get("translation").ok_or_else(|| {
                Error::Input(format!(
                    "{}: a pose needs \"translation\" (and \"rotation\") or \"matrix\"",
                    pointer(at)
                ))
            })?;
            let t: [f64; 3] = numbers(t, &format!("{at}/translation"))?;
            let q = match o.get("rotation") {
                Some(q) => Some(numbers::<4>(q, &format!("{at}/rotation"))?),
                None => None,
            };
            Pose::from_parts(t, q).map_err(with_place)
        }
        Value::Array(a) if is_matrix(a) => {
            Pose::from_matrix(&matrix_value(v, at)?).map_err(with_place)
        }
        _ => Err(Error::Input(format!(
            "{}: expected a pose ({{\"translation\", \"rotation\"}}, {{\"matrix\"}} or 4 rows of 4 numbers)",
            pointer(at)
        ))),
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
