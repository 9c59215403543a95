//! The exceptions: the library's errors as Python exceptions carrying the
//! same one-line message the command line prints.

use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyPermissionError, PyValueError};
use pyo3::prelude::*;

create_exception!(
    bvtool,
    LoadError,
    PyValueError,
    "A model file is not valid (or is of an unknown type); the message names the file and what is wrong."
);
create_exception!(
    bvtool,
    GeometryError,
    PyValueError,
    "The geometry is loaded but unusable for the request: no triangles, a coordinate outside the accepted range."
);
create_exception!(
    bvtool,
    InputError,
    PyValueError,
    "A value given by the caller is wrong: a pose that is not rigid, a quaternion that is not of unit length, an unknown method."
);
create_exception!(
    bvtool,
    WriteError,
    PyOSError,
    "An output file could not be written."
);

/// Adds the exception types to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("LoadError", py.get_type::<LoadError>())?;
    m.add("GeometryError", py.get_type::<GeometryError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("WriteError", py.get_type::<WriteError>())?;
    Ok(())
}

/// The Python exception for a library error, with the message the command
/// line prints.
pub fn to_py(e: bvtool::Error) -> PyErr {
    let message = e.to_string();
    match e {
        bvtool::Error::Load { .. } => LoadError::new_err(message),
        bvtool::Error::Geometry { .. } => GeometryError::new_err(message),
        bvtool::Error::Input(_) => InputError::new_err(message),
        bvtool::Error::Write { .. } => WriteError::new_err(message),
    }
}

/// The model file's bytes: a missing or unreadable file raises the
/// `OSError` subclass of [`unreadable`]; anything but a regular file (a
/// FIFO, a device, a folder) `bvtool.LoadError`, before a byte is read (a
/// FIFO would block, `/dev/zero` never end).
pub fn read_model(path: &std::path::Path) -> PyResult<Vec<u8>> {
    std::fs::metadata(path).map_err(|e| unreadable(path, &e))?;
    bvtool::files::read_regular(path, None).map_err(|m| to_py(bvtool::Error::load(path, m)))
}

/// The built-in `OSError` subclass for a file that cannot be read, with the
/// command line's message (`PATH: cannot read: …`).
pub fn unreadable(path: &std::path::Path, e: &std::io::Error) -> PyErr {
    let message = format!("{}: cannot read: {e}", path.display());
    match e.kind() {
        std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// A `ValueError` with `message`: for arrays and arguments of the wrong
/// shape, type or value.
pub fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}
