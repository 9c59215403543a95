//! Reading glTF 2.0, OBJ and STL files into a [`Scene`].
//!
//! The format is chosen by the file extension (case-insensitive): `.gltf`,
//! `.glb`, `.obj`, `.stl`. Every loader validates what it reads: bad input
//! gives an [`Error::Load`] naming the file, never a panic, and no count read
//! from a header is trusted for an allocation before it is checked against
//! the bytes actually present.

use crate::error::{Error, Result};
use crate::mesh::Scene;
use std::path::Path;

pub mod gltf;
pub mod obj;
pub mod stl;
pub mod triangulate;

/// What a loader may do beyond the defaults.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadOptions {
    /// Allow a glTF file to read buffers outside its own folder (`../` or
    /// absolute URIs). Off by default.
    pub allow_external_uris: bool,
}

/// Loads a model file, choosing the reader by extension.
pub fn load(path: &Path, opts: &LoadOptions) -> Result<Scene> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("gltf") | Some("glb") => gltf::load(path, opts),
        Some("obj") => obj::load(path),
        Some("stl") => stl::load(path),
        _ => Err(Error::load(
            path,
            "unknown file type (expected .gltf, .glb, .obj or .stl)",
        )),
    }
}
