//! numpy in and out: the checks every input array passes (shape, type,
//! finite values, the library's coordinate range, index range) and the
//! arrays the answers are returned in.

use crate::errors::value_error;
use bvtool::mesh::MAX_COORDINATE;
use nalgebra::Point3;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArrayDyn};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{IntoPyDict, PyAny};

/// `numpy.asarray(obj)`, and the one-letter kind of its dtype
/// (`b`ool, `i`nt, `u`int, `f`loat, `c`omplex, `O`bject, `U`nicode, …).
fn asarray<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<(Bound<'py, PyAny>, char)> {
    static ASARRAY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let py = obj.py();
    let asarray = ASARRAY.import(py, "numpy", "asarray")?;
    let arr = asarray
        .call1((obj,))
        .map_err(|e| value_error(format!("{what}: not an array ({e})")))?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    Ok((arr, kind.chars().next().unwrap_or('?')))
}

/// `arr` as `dtype`, read-only and of any layout: `arr` itself when it is
/// of that dtype already (no copy).
fn cast<'py, T: numpy::Element>(
    arr: &Bound<'py, PyAny>,
    dtype: &str,
) -> PyResult<PyReadonlyArrayDyn<'py, T>> {
    let py = arr.py();
    let copy = [("copy", false)].into_py_dict(py)?;
    arr.call_method("astype", (dtype,), Some(&copy))?.extract()
}

/// `obj` as a `float64` array of any shape, from any real dtype.
fn real_array<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<PyReadonlyArrayDyn<'py, f64>> {
    let (arr, kind) = asarray(obj, what)?;
    if !matches!(kind, 'i' | 'u' | 'f') {
        return Err(value_error(format!(
            "{what}: expected real numbers, got dtype {}",
            arr.getattr("dtype")?
        )));
    }
    cast::<f64>(&arr, "float64")
}

/// The shape of `arr`, checked to be `(n, 3)` (or `(n, …rest)`, `rest`
/// given); a size-0 array of any shape counts as `(0, …rest)`.
fn rows<'py, T: numpy::Element>(
    a: &PyReadonlyArrayDyn<'py, T>,
    rest: &[usize],
    what: &str,
) -> PyResult<usize> {
    let view = a.as_array();
    let shape = view.shape();
    if view.is_empty() {
        return Ok(0);
    }
    if shape.len() != rest.len() + 1 || shape[1..] != *rest {
        let want: Vec<String> = rest.iter().map(|d| d.to_string()).collect();
        return Err(value_error(format!(
            "{what}: expected an array of shape (n, {}), got {shape:?}",
            want.join(", ")
        )));
    }
    Ok(shape[0])
}

/// Reads an `(n, 3)` array of coordinates (any real dtype, converted to
/// `float64`): every value finite and within the library's range
/// (`|x| ≤ 2^50`, the numeric policy of the file readers).
pub fn read_points(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Point3<f64>>> {
    let a = real_array(obj, what)?;
    let n = rows(&a, &[3], what)?;
    let out: Vec<Point3<f64>> = flat(&a)
        .chunks_exact(3)
        .take(n)
        .map(|r| Point3::new(r[0], r[1], r[2]))
        .collect();
    let bad = |v: &f64| v.is_nan() || v.abs() > MAX_COORDINATE;
    if let Some(i) = out.iter().position(|p| p.iter().any(bad)) {
        let v = out[i].iter().find(|v| bad(v)).expect("found");
        return Err(value_error(format!(
            "{what}: row {i} has coordinate {v:e}, outside the accepted range [-{MAX_COORDINATE:e}, {MAX_COORDINATE:e}] (|x| <= 2^50)"
        )));
    }
    Ok(out)
}

/// Reads an `(m, 3)` array of vertex indices (any integer dtype), each in
/// `0..vertices`.
pub fn read_triangles(obj: &Bound<'_, PyAny>, vertices: usize) -> PyResult<Vec<[u32; 3]>> {
    let what = "triangles";
    let (arr, kind) = asarray(obj, what)?;
    let size: usize = arr.getattr("size")?.extract()?;
    if size > 0 && !matches!(kind, 'i' | 'u') {
        return Err(value_error(format!(
            "{what}: expected integer vertex indices, got dtype {}",
            arr.getattr("dtype")?
        )));
    }
    // Unsigned values above i64::MAX would wrap in int64; uint64 holds every
    // non-negative index and int64 every signed one.
    let read = |i: usize, t: [i128; 3]| -> PyResult<[u32; 3]> {
        match t.iter().find(|&&v| v < 0 || v >= vertices as i128) {
            Some(v) => Err(value_error(format!(
                "{what}: row {i} has vertex index {v}, outside 0..{vertices}"
            ))),
            None => Ok(t.map(|v| v as u32)),
        }
    };
    let mut out = Vec::new();
    let itemsize: usize = arr.getattr("dtype")?.getattr("itemsize")?.extract()?;
    if kind == 'u' && itemsize <= 4 {
        // Every value fits a u32 (a Mesh's own triangles are uint32: read
        // without a conversion).
        let a = cast::<u32>(&arr, "uint32")?;
        let m = rows(&a, &[3], what)?;
        out = flat(&a)
            .chunks_exact(3)
            .take(m)
            .map(|r| [r[0], r[1], r[2]])
            .collect();
        if let Some(i) = out
            .iter()
            .position(|t| t.iter().any(|&v| v as usize >= vertices))
        {
            read(i, out[i].map(i128::from))?;
        }
    } else if kind == 'u' {
        let a = cast::<u64>(&arr, "uint64")?;
        let m = rows(&a, &[3], what)?;
        out.reserve(m);
        for (i, r) in a.as_array().rows().into_iter().enumerate().take(m) {
            out.push(read(i, [r[0] as i128, r[1] as i128, r[2] as i128])?);
        }
    } else {
        let a = cast::<i64>(&arr, "int64")?;
        let m = rows(&a, &[3], what)?;
        out.reserve(m);
        for (i, r) in a.as_array().rows().into_iter().enumerate().take(m) {
            out.push(read(i, [r[0] as i128, r[1] as i128, r[2] as i128])?);
        }
    }
    Ok(out)
}

/// Reads a `float64` array of shape `(n, …rest)`: the rows, flattened, and
/// their number. Values are checked by the caller.
pub fn read_rows(
    obj: &Bound<'_, PyAny>,
    rest: &[usize],
    what: &str,
) -> PyResult<(Vec<f64>, usize)> {
    let a = real_array(obj, what)?;
    let n = rows(&a, rest, what)?;
    Ok((flat(&a), n))
}

/// The values of `a` in row-major order: a copy of its memory when it is
/// contiguous (as `astype` leaves it), which costs a tenth of walking a
/// dynamic-rank view (65 ns a pose row of 7 that way).
pub fn flat<T: numpy::Element + Copy>(a: &PyReadonlyArrayDyn<'_, T>) -> Vec<T> {
    match a.as_slice() {
        Ok(s) => s.to_vec(),
        Err(_) => a.as_array().iter().copied().collect(),
    }
}

/// The shape of `obj` as numpy sees it (`None` when it is not array-like).
pub fn shape_of(obj: &Bound<'_, PyAny>) -> Option<Vec<usize>> {
    let (arr, kind) = asarray(obj, "").ok()?;
    matches!(kind, 'i' | 'u' | 'f')
        .then(|| arr.getattr("shape").ok()?.extract().ok())
        .flatten()
}

/// Makes `arr` read-only: arrays that mirror a frozen object's data.
pub fn read_only<'py, A>(arr: Bound<'py, A>) -> PyResult<Bound<'py, A>> {
    arr.as_any().getattr("flags")?.setattr("writeable", false)?;
    Ok(arr)
}

/// Points as an `(n, 3)` `float64` array.
pub fn points<'py>(py: Python<'py>, p: &[Point3<f64>]) -> Bound<'py, PyArray2<f64>> {
    let flat: Vec<f64> = p.iter().flat_map(|p| [p.x, p.y, p.z]).collect();
    rows_array(py, flat, 3)
}

/// Index pairs as a `(k, 2)` `uint32` array.
pub fn pairs<'py>(py: Python<'py>, p: &[(u32, u32)]) -> Bound<'py, PyArray2<u32>> {
    let flat: Vec<u32> = p.iter().flat_map(|&(a, b)| [a, b]).collect();
    rows_array(py, flat, 2)
}

/// A flat vector as an `(len / width, width)` array, without copying.
pub fn rows_array<T: numpy::Element>(
    py: Python<'_>,
    flat: Vec<T>,
    width: usize,
) -> Bound<'_, PyArray2<T>> {
    let n = flat.len() / width;
    Array2::from_shape_vec((n, width), flat)
        .expect("the length is a multiple of the width")
        .into_pyarray(py)
}

/// A vector as a one-dimensional array, without copying.
pub fn vector<T: numpy::Element>(py: Python<'_>, v: Vec<T>) -> Bound<'_, PyArray1<T>> {
    PyArray1::from_vec(py, v)
}
