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
use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::io::{BufRead, Read};

/// A rigid motion: rotation then translation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// The rotation R.
    pub rotation: UnitQuaternion<f64>,
    /// The translation t.
    pub translation: Vector3<f64>,
}

/// The JSON form of a pose, for serde (which ignores extra keys here; the
/// pose reader, [`Pose::read_json_stream`], refuses them).
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

    /// The pose of frame `b` in frame `a` (both given in one common frame):
    /// `a⁻¹·b`, the relative pose a query between the shapes framed `a` and
    /// `b` takes.
    pub fn relative(a: &Isometry3<f64>, b: &Isometry3<f64>) -> Pose {
        let r = a.inverse() * b;
        Pose::new(r.translation.vector, r.rotation)
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

    /// Parses poses from JSON text (see [`Pose::read_json_stream`]).
    pub fn parse_json_text(text: &str) -> Result<Vec<Pose>> {
        let mut poses = Vec::new();
        Pose::read_json_stream(text.as_bytes(), &mut poses)?;
        Ok(poses)
    }

    /// Reads poses from a stream as they come, appending them to `poses`:
    /// JSON Lines (or any JSON values one after another), a JSON list of
    /// poses (read element by element), or one pose. A pose is
    /// `{"translation":[x,y,z], "rotation":[qx,qy,qz,qw]}` (rotation
    /// optional), `{"matrix": M}` or a bare `M`, where `M` is a row-major
    /// 4×4 rigid transform given as 16 numbers or 4 rows of 4.
    ///
    /// # Limits
    /// Memory is bounded whatever the producer does: one pose's text may
    /// take at most [`MAX_POSE_BYTES`] (a longer one is refused as soon as
    /// its bytes pass the cap, not read to its end), and `poses` may hold at
    /// most [`MAX_POSES`] (an endless producer is refused at that count).
    /// A key other than `translation`, `rotation` and `matrix` (and the
    /// notes of [`NOTE_KEYS`]) is refused, as is `matrix` with
    /// `translation` or `rotation`. Errors say which pose (counted from 1
    /// in this stream), on which line its text ends, and where inside it,
    /// as a JSON pointer (`pose 2 (line 1): /1/rotation: …`).
    pub fn read_json_stream(reader: impl BufRead, poses: &mut Vec<Pose>) -> Result<()> {
        Pose::read_json_each(reader, &mut |p| push(poses, p))
    }

    /// [`Pose::read_json_stream`] handing each pose to `sink` as soon as it
    /// is read, so that a caller can answer poses while the rest are still
    /// coming and hold only those it has not answered (`--jsonl`). The same
    /// formats, per-pose byte cap and messages; an error of `sink` ends the
    /// reading and is returned as it is. No count limit of its own (`sink`
    /// keeps one if it holds the poses).
    pub fn read_json_each(
        reader: impl BufRead,
        sink: &mut dyn FnMut(Pose) -> Result<()>,
    ) -> Result<()> {
        let meter = Meter::default();
        let mut input = Capped {
            inner: reader,
            meter: &meter,
        };
        let read = Cell::new(0usize);
        let mut take = |p: Pose| {
            read.set(read.get() + 1);
            sink(p)
        };
        let failed = RefCell::new(None);
        while let Some(first) = input.skip_whitespace()? {
            let line = meter.line.get();
            meter.allow_next_pose();
            let mut de = serde_json::Deserializer::from_reader(&mut input);
            let parsed = if first == b'[' {
                de.deserialize_seq(ListVisitor {
                    meter: &meter,
                    sink: &mut take,
                    read: &read,
                    failed: &failed,
                })
            } else {
                Value::deserialize(&mut de).map(|v| {
                    let n = read.get() + 1;
                    let place = |e: Error| stream_error(n, meter.line.get(), e.to_string());
                    if let Err(e) = pose_value(&v, "").map_err(place).and_then(&mut take) {
                        *failed.borrow_mut() = Some(e);
                    }
                })
            };
            if let Some(e) = failed.borrow_mut().take() {
                return Err(e);
            }
            if let Err(e) = parsed {
                let n = read.get() + 1;
                if meter.overflow.get() {
                    return Err(stream_error(
                        n,
                        meter.line.get(),
                        format!("longer than {MAX_POSE_BYTES} bytes (not read further)"),
                    ));
                }
                let text = e.to_string();
                let why = text
                    .rsplit_once(" at line ")
                    .map_or(text.as_str(), |(m, _)| m);
                return Err(Error::Input(format!(
                    "line {}: not JSON: {why}",
                    line + e.line().max(1) as u64 - 1
                )));
            }
        }
        if read.get() == 0 {
            return Err(Error::Input("no poses in the input".into()));
        }
        Ok(())
    }
}

/// Most bytes the text of one pose may take in a pose stream (with the
/// whitespace before it): 64 KiB, some hundred times a pose written in full
/// precision.
pub const MAX_POSE_BYTES: u64 = 1 << 16;

/// Most poses one command reads, from all its `--pose` sources: 2^20.
pub const MAX_POSES: usize = 1 << 20;

/// Keys a pose object may carry as notes, ignored: those the peers' pose
/// generator (`shared/peers/make_poses.py`) writes beside each pose. Any
/// other key than `translation`, `rotation` and `matrix` is refused: a typo
/// (`rotaton`) or another convention's name (`quaternion`) would otherwise
/// be read as no rotation.
pub const NOTE_KEYS: [&str; 4] = ["intended", "fcl_collide", "d_boundary", "offset"];

/// Where a pose stream is: bytes and lines read, and how far the current
/// pose may go.
struct Meter {
    read: Cell<u64>,
    limit: Cell<u64>,
    /// The line being read, from 1.
    line: Cell<u64>,
    /// Whether a read stopped at the limit.
    overflow: Cell<bool>,
}

impl Default for Meter {
    fn default() -> Self {
        Meter {
            read: Cell::new(0),
            limit: Cell::new(0),
            line: Cell::new(1),
            overflow: Cell::new(false),
        }
    }
}

impl Meter {
    /// Lets the next pose take [`MAX_POSE_BYTES`] more bytes.
    fn allow_next_pose(&self) {
        self.limit.set(self.read.get() + MAX_POSE_BYTES);
    }

    fn count(&self, bytes: &[u8]) {
        self.read.set(self.read.get() + bytes.len() as u64);
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
        self.line.set(self.line.get() + lines);
    }
}

/// A reader that counts what passes and stops at the meter's limit.
struct Capped<'m, R> {
    inner: R,
    meter: &'m Meter,
}

impl<R: BufRead> Capped<'_, R> {
    /// Skips whitespace; the next byte (not consumed), or `None` at the end.
    fn skip_whitespace(&mut self) -> Result<Option<u8>> {
        loop {
            let buf = self
                .inner
                .fill_buf()
                .map_err(|e| Error::Input(format!("cannot read: {e}")))?;
            let Some(&first) = buf.first() else {
                return Ok(None);
            };
            let blank = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
            if blank == 0 {
                return Ok(Some(first));
            }
            self.meter.count(&buf[..blank]);
            self.inner.consume(blank);
        }
    }
}

impl<R: BufRead> Read for Capped<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let room = self.meter.limit.get().saturating_sub(self.meter.read.get());
        if room == 0 && !out.is_empty() {
            self.meter.overflow.set(true);
            return Err(std::io::Error::other("pose too long"));
        }
        let want = out.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut out[..want])?;
        self.meter.count(&out[..n]);
        Ok(n)
    }
}

/// `poses` with `p` pushed, or the count limit's error.
fn push(poses: &mut Vec<Pose>, p: Pose) -> Result<()> {
    if poses.len() >= MAX_POSES {
        return Err(Error::Input(format!(
            "more than {MAX_POSES} poses, the most one command reads (split the input)"
        )));
    }
    poses.push(p);
    Ok(())
}

fn stream_error(n: usize, line: u64, what: String) -> Error {
    Error::Input(format!("pose {n} (line {line}): {what}"))
}

/// A top-level JSON list of a pose stream, read element by element: each
/// element a pose, or (when the first element is a row of numbers) the
/// rows of one 4×4 matrix.
struct ListVisitor<'a, 'm> {
    meter: &'m Meter,
    /// Where each pose goes.
    sink: &'a mut dyn FnMut(Pose) -> Result<()>,
    /// Poses read so far in this stream (they are counted from it).
    read: &'a Cell<usize>,
    /// The first error, kept whole (a serde error would carry the position
    /// inside the list only).
    failed: &'a RefCell<Option<Error>>,
}

impl<'de> Visitor<'de> for ListVisitor<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of poses")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut rows = Vec::new();
        let mut k = 0;
        loop {
            self.meter.allow_next_pose();
            let Some(v) = seq.next_element::<Value>()? else {
                break;
            };
            let is_row = v.as_array().is_some_and(|r| r.iter().all(Value::is_number));
            let n = self.read.get() + 1;
            let line = self.meter.line.get();
            let done = if k == rows.len() && is_row && rows.len() < 4 {
                rows.push(v);
                Ok(())
            } else if !rows.is_empty() {
                Err(stream_error(
                    n,
                    line,
                    "expected a 4×4 matrix (4 rows of 4 numbers) or a list of poses".into(),
                ))
            } else {
                pose_value(&v, &format!("/{k}"))
                    .map_err(|e| stream_error(n, line, e.to_string()))
                    .and_then(&mut *self.sink)
            };
            if let Err(e) = done {
                *self.failed.borrow_mut() = Some(e);
                return Err(serde::de::Error::custom("refused"));
            }
            k += 1;
        }
        if !rows.is_empty() {
            let n = self.read.get() + 1;
            let line = self.meter.line.get();
            if let Err(e) = pose_value(&Value::Array(rows), "")
                .map_err(|e| stream_error(n, line, e.to_string()))
                .and_then(&mut *self.sink)
            {
                *self.failed.borrow_mut() = Some(e);
                return Err(serde::de::Error::custom("refused"));
            }
        }
        Ok(())
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
        .ok_or_else(|| Error::Input(format!("{}expected {N} numbers", pointer(at))))
}

/// `at` as the start of an error (`/1/rotation: `); nothing for the whole
/// document, which the caller's context (`pose 2 (line 1): `) already names.
fn pointer(at: &str) -> String {
    if at.is_empty() {
        String::new()
    } else {
        format!("{at}: ")
    }
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
                "{}expected a 4×4 matrix (16 numbers, row-major, or 4 rows of 4)",
                pointer(at)
            ))
        })?,
    };
    Ok(Matrix4::from_row_slice(&rows))
}

/// One pose in any JSON form, errors naming the JSON pointer `at`.
fn pose_value(v: &Value, at: &str) -> Result<Pose> {
    let with_place = |e: Error| Error::Input(format!("{}{e}", pointer(at)));
    match v {
        Value::Object(o) => {
            let known = ["translation", "rotation", "matrix"];
            if let Some(k) = o
                .keys()
                .find(|k| !known.contains(&k.as_str()) && !NOTE_KEYS.contains(&k.as_str()))
            {
                return Err(Error::Input(format!(
                    "{at}/{k}: unknown key (a pose takes \"translation\" and \"rotation\" [qx, qy, qz, qw], or \"matrix\")"
                )));
            }
            if o.contains_key("matrix") {
                if let Some(k) = ["translation", "rotation"]
                    .iter()
                    .find(|k| o.contains_key(**k))
                {
                    return Err(Error::Input(format!(
                        "{at}/{k}: conflicts with \"matrix\" (a pose is a matrix, or a translation and rotation)"
                    )));
                }
                return Pose::from_matrix(&matrix_value(&o["matrix"], &format!("{at}/matrix"))?)
                    .map_err(with_place);
            }
            let t = o.get("translation").ok_or_else(|| {
                Error::Input(format!(
                    "{}a pose needs \"translation\" (and \"rotation\") or \"matrix\"",
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
            "{}expected a pose ({{\"translation\", \"rotation\"}}, {{\"matrix\"}} or 4 rows of 4 numbers)",
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
