//! Wavefront OBJ.

use crate::error::{Error, Result};
use crate::mesh::Scene;
use std::path::Path;

/// Loads an OBJ file (stub until the OBJ reader lands).
pub fn load(path: &Path) -> Result<Scene> {
    Err(Error::load(path, "OBJ reading is not implemented yet"))
}
