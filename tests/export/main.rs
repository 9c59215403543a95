//! The exports: JSON, BVT1 binary, C header, glTF colliders, OBJ collider meshes, skinned models.
//!
//! One test binary of modules (the files beside this one), as ripgrep does:
//! the suite links once, not once per file.

mod bin;
mod c;
mod collider_mesh;
mod gltf;
mod json;
mod skinned;

/// A folder for one test's files (`bvtool_dev::scratch!`).
fn scratch(name: &str) -> std::path::PathBuf {
    bvtool_dev::scratch!(format!("export-{name}"))
}
