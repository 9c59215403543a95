//! STL, ASCII and binary.

use crate::error::{Error, Result};
use crate::mesh::Scene;
use std::path::Path;

/// Loads an STL file (stub until the STL reader lands).
pub fn load(path: &Path) -> Result<Scene> {
    Err(Error::load(path, "STL reading is not implemented yet"))
}
