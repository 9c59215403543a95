//! The library's error type.
//!
//! Every error that comes from user input names the file it concerns and says
//! what is wrong in one line, so the command line can print it as is.

use std::path::{Path, PathBuf};

/// Everything that can go wrong in bvtool.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A model file could not be read or is not valid.
    #[error("{}: {message}", path.display())]
    Load {
        /// The file given by the user (not the buffer or image it refers to).
        path: PathBuf,
        /// What is wrong, in one line.
        message: String,
    },
    /// The geometry is loaded but unusable for the request (empty, non-finite, …).
    #[error("{}: {message}", path.display())]
    Geometry {
        /// The model the geometry came from.
        path: PathBuf,
        /// What is wrong, in one line.
        message: String,
    },
    /// A value given on the command line or in a side file (a pose, an option) is wrong.
    #[error("{0}")]
    Input(String),
    /// Writing an output file failed.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file that could not be written.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
}

impl Error {
    /// A load error for `path` with `message`.
    pub fn load(path: &Path, message: impl Into<String>) -> Self {
        Error::Load {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }

    /// A geometry error for `path` with `message`.
    pub fn geometry(path: &Path, message: impl Into<String>) -> Self {
        Error::Geometry {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
