//! glTF 2.0 (`.gltf` and `.glb`).

use super::LoadOptions;
use crate::error::{Error, Result};
use crate::mesh::Scene;
use std::path::Path;

/// Loads a glTF file (stub until the glTF reader lands).
pub fn load(path: &Path, _opts: &LoadOptions) -> Result<Scene> {
    Err(Error::load(path, "glTF reading is not implemented yet"))
}
