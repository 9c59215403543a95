//! Pickling: each picklable class's `__reduce__` names a constructor of the
//! class (a static method, `_unpickle` or `from_bytes`) and its arguments —
//! plain Python numbers, tuples, numpy arrays or bytes, which `pickle`
//! keeps bit for bit — and that constructor checks them as it checks any
//! input, so a corrupted pickle raises `ValueError`.

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// What `__reduce__` returns: the constructor and its arguments (a tuple).
pub type Reduced<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>);

/// `(T.<constructor>, args)` for `__reduce__`; `args` a Rust tuple.
pub fn reduce<'py, T: pyo3::PyTypeInfo>(
    py: Python<'py>,
    constructor: &str,
    args: impl IntoPyObject<'py, Target = PyTuple>,
) -> PyResult<Reduced<'py>> {
    let f = py.get_type::<T>().getattr(constructor)?;
    let args = args.into_bound_py_any(py)?;
    Ok((f, args))
}

/// The one of `names` equal to `s` (a pickled name of a fixed set), or a
/// `ValueError` naming `what`.
pub fn one_of(what: &str, s: &str, names: &[&'static str]) -> PyResult<&'static str> {
    names.iter().find(|n| **n == s).copied().ok_or_else(|| {
        crate::errors::value_error(format!("pickled {what} {s:?}: expected one of {names:?}"))
    })
}
