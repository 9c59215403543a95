//! Poses: where mesh B sits in mesh A's frame (B's vertices map
//! `v → R·v + t`), from every form Python code holds them in.

use crate::arrays::{self, read_rows, shape_of};
use crate::errors::{to_py, value_error};
use bvtool::pose::PoseJson;
use nalgebra::{Matrix4, Point3};
use numpy::{PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

/// A rigid motion: rotation, then translation. Maps a point `v` of mesh B to
/// `R·v + t` in mesh A's frame.
///
/// `Pose(translation=(0, 0, 0), rotation=(0, 0, 0, 1))`: the quaternion in
/// (x, y, z, w) order, of unit length within 1e-3 (then normalized).
/// `Pose.from_matrix(m)` reads a 4×4 rigid transform. Wherever a pose is
/// asked for, a `Pose`, a 4×4 matrix, a `(translation, quaternion)` pair or
/// 7 numbers `(tx, ty, tz, qx, qy, qz, qw)` will do; `None` is the identity.
#[pyclass(frozen, module = "bvtool", from_py_object)]
#[derive(Clone, Copy)]
pub struct Pose {
    pub inner: bvtool::Pose,
}

#[pymethods]
impl Pose {
    #[new]
    #[pyo3(signature = (translation = None, rotation = None))]
    fn new(
        translation: Option<&Bound<'_, PyAny>>,
        rotation: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Pose> {
        let t = match translation {
            Some(t) => fixed::<3>(t, "translation")?,
            None => [0.0; 3],
        };
        let q = match rotation {
            Some(q) => fixed::<4>(q, "rotation")?,
            None => [0.0, 0.0, 0.0, 1.0],
        };
        Ok(Pose {
            inner: from_parts(t, q)?,
        })
    }

    /// The pose of a 4×4 homogeneous matrix `[R t; 0 0 0 1]`, which must be
    /// rigid within 1e-6 (orthonormal, determinant +1).
    #[staticmethod]
    fn from_matrix(matrix: &Bound<'_, PyAny>) -> PyResult<Pose> {
        let (flat, _) = read_rows(matrix, &[4], "matrix")?;
        from_matrix(&flat).map(|inner| Pose { inner })
    }

    /// The identity pose.
    #[staticmethod]
    fn identity() -> Pose {
        Pose {
            inner: bvtool::Pose::identity(),
        }
    }

    /// The translation `t`, shape `(3,)`.
    #[getter]
    fn translation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.inner.translation.as_slice().to_vec())
    }

    /// The rotation as a unit quaternion `(x, y, z, w)`, shape `(4,)`.
    #[getter]
    fn rotation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.inner.rotation_xyzw().to_vec())
    }

    /// The 4×4 homogeneous matrix.
    #[getter]
    fn matrix<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let m = self.inner.to_isometry().to_homogeneous();
        let flat: Vec<f64> = (0..4)
            .flat_map(|r| (0..4).map(move |c| (r, c)))
            .map(|(r, c)| m[(r, c)])
            .collect();
        arrays::rows_array(py, flat, 4)
    }

    /// Rebuilds a pickled pose (`__reduce__`) from its stored numbers as
    /// they are (no renormalisation, so bit for bit): finite, the
    /// quaternion `(x, y, z, w)` of unit length within 1e-9.
    #[staticmethod]
    pub fn _unpickle(translation: [f64; 3], rotation: [f64; 4]) -> PyResult<Pose> {
        let norm = rotation.iter().map(|x| x * x).sum::<f64>().sqrt();
        let finite = translation.iter().chain(&rotation).all(|x| x.is_finite());
        if !finite || (norm - 1.0).abs() > 1e-9 {
            return Err(value_error(format!(
                "pickled pose: translation {translation:?} and rotation {rotation:?} \
                 must be finite and the rotation a unit quaternion"
            )));
        }
        let [x, y, z, w] = rotation;
        let q = nalgebra::UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(w, x, y, z));
        Ok(Pose {
            inner: bvtool::Pose::new(nalgebra::Vector3::from(translation), q),
        })
    }

    /// Pickles as its translation and quaternion, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        crate::state::reduce::<Pose>(py, "_unpickle", pose_state(&self.inner))
    }

    /// The inverse motion.
    fn inverse(&self) -> Pose {
        Pose {
            inner: self.inner.inverse(),
        }
    }

    /// `self * other`: `other` first, then `self`.
    fn __mul__(&self, other: &Pose) -> Pose {
        let iso = self.inner.to_isometry() * other.inner.to_isometry();
        Pose {
            inner: bvtool::Pose::new(iso.translation.vector, iso.rotation),
        }
    }

    /// `points` (an `(n, 3)` array) moved by the pose.
    fn transform_points<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let p = arrays::read_points(points, "points")?;
        let moved: Vec<Point3<f64>> = p.iter().map(|p| self.inner.transform_point(p)).collect();
        Ok(arrays::points(py, &moved))
    }

    fn __repr__(&self) -> String {
        let t = self.inner.translation;
        let q = self.inner.rotation_xyzw();
        format!(
            "Pose(translation=({}, {}, {}), rotation=({}, {}, {}, {}))",
            t.x, t.y, t.z, q[0], q[1], q[2], q[3]
        )
    }
}

/// Exactly `N` real numbers: a `float64` numpy array or a list or tuple of
/// numbers read directly, anything else through `numpy.asarray`.
fn fixed<const N: usize>(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[f64; N]> {
    if let Ok(a) = obj.extract::<PyReadonlyArray1<f64>>()
        && let Ok(v) = <[f64; N]>::try_from(a.as_array().to_vec().as_slice())
    {
        return Ok(v);
    }
    if let Ok(v) = obj.extract::<[f64; N]>() {
        return Ok(v);
    }
    let (flat, _) = read_rows(obj, &[], what)?;
    <[f64; N]>::try_from(flat.as_slice())
        .map_err(|_| value_error(format!("{what}: expected {N} numbers, got {}", flat.len())))
}

/// A pose from a translation and an (x, y, z, w) quaternion, checked as the
/// command line checks a JSON pose.
pub fn from_parts(translation: [f64; 3], rotation: [f64; 4]) -> PyResult<bvtool::Pose> {
    bvtool::Pose::from_json(&PoseJson {
        translation,
        rotation,
    })
    .map_err(to_py)
}

/// A pose from 16 numbers, row-major.
fn from_matrix(flat: &[f64]) -> PyResult<bvtool::Pose> {
    if flat.len() != 16 {
        return Err(value_error(format!(
            "pose matrix: expected 4×4 numbers, got {}",
            flat.len()
        )));
    }
    bvtool::Pose::from_matrix(&Matrix4::from_row_slice(flat)).map_err(to_py)
}

/// A pose from 7 numbers `(tx, ty, tz, qx, qy, qz, qw)`.
fn from_seven(v: &[f64]) -> PyResult<bvtool::Pose> {
    from_parts([v[0], v[1], v[2]], [v[3], v[4], v[5], v[6]])
}

const POSE_FORMS: &str = "a Pose, a 4×4 matrix, a (translation, quaternion) pair or 7 numbers (tx, ty, tz, qx, qy, qz, qw)";

/// A pose's stored numbers, bit for bit: translation and quaternion
/// `(x, y, z, w)` (what `Pose._unpickle` takes back).
pub fn pose_state(p: &bvtool::Pose) -> ([f64; 3], [f64; 4]) {
    let c = p.rotation.coords;
    (p.translation.into(), [c.x, c.y, c.z, c.w])
}

/// One pose from any of its forms; `None` is the identity.
pub fn pose_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<bvtool::Pose> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(bvtool::Pose::identity());
    };
    if let Ok(p) = obj.cast::<Pose>() {
        return Ok(p.get().inner);
    }
    let pair = obj.cast::<PyTuple>().map(|t| t.len() == 2).unwrap_or(false)
        || obj.cast::<PyList>().map(|l| l.len() == 2).unwrap_or(false);
    if pair {
        let t = fixed::<3>(&obj.get_item(0)?, "pose translation")?;
        let q = fixed::<4>(&obj.get_item(1)?, "pose rotation")?;
        return from_parts(t, q);
    }
    // The common forms without a detour through numpy.asarray: a float64
    // row of 7 or a 4×4 float64 matrix.
    if let Ok(a) = obj.extract::<PyReadonlyArray1<f64>>()
        && let Some(v) = a.as_slice().ok().filter(|v| v.len() == 7)
    {
        return from_seven(v);
    }
    if let Ok(a) = obj.extract::<PyReadonlyArray2<f64>>()
        && a.as_array().shape() == [4, 4]
    {
        return from_matrix(&a.as_array().iter().copied().collect::<Vec<f64>>());
    }
    match shape_of(obj).as_deref() {
        Some([4, 4]) => from_matrix(&read_rows(obj, &[4], "pose")?.0),
        Some([7]) => from_seven(&read_rows(obj, &[], "pose")?.0),
        _ => Err(value_error(format!("pose: expected {POSE_FORMS}"))),
    }
}

/// Many poses: an `(N, 4, 4)` array of matrices, an `(N, 7)` array of
/// `(tx, ty, tz, qx, qy, qz, qw)` rows, or a sequence of single poses in any
/// form. An error names the pose by its index.
pub fn poses_from(obj: &Bound<'_, PyAny>) -> PyResult<Vec<bvtool::Pose>> {
    let at = |i: usize, e: PyErr| {
        let py = obj.py();
        PyErr::from_type(e.get_type(py), format!("poses[{i}]: {}", e.value(py)))
    };
    match shape_of(obj).as_deref() {
        Some([_, 4, 4]) => {
            let (flat, n) = read_rows(obj, &[4, 4], "poses")?;
            (0..n)
                .map(|i| from_matrix(&flat[16 * i..16 * i + 16]).map_err(|e| at(i, e)))
                .collect()
        }
        Some([_, 7]) => {
            let (flat, n) = read_rows(obj, &[7], "poses")?;
            (0..n)
                .map(|i| from_seven(&flat[7 * i..7 * i + 7]).map_err(|e| at(i, e)))
                .collect()
        }
        Some([0]) => Ok(Vec::new()),
        _ => {
            let items = obj.try_iter().map_err(|_| {
                value_error("poses: expected an (N, 4, 4) or (N, 7) array, or a sequence of poses")
            })?;
            items
                .enumerate()
                .map(|(i, p)| pose_from(Some(&p?)).map_err(|e| at(i, e)))
                .collect()
        }
    }
}
