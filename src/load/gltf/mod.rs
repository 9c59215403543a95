//! glTF 2.0 (`.gltf` and `.glb`), read from the raw JSON with our own
//! accessor decoding, so that every malformed input is an error rather than
//! a panic in a third-party reader.
//!
//! What is read: the default scene (else the first scene, else every root
//! node), flattened down the node hierarchy (iteratively; see `scene.rs`); the triangle
//! modes TRIANGLES, TRIANGLE_STRIP and TRIANGLE_FAN, indexed or not; POINTS
//! as point sets without triangles (bounded by `info`, `fit` and `export`
//! when the scene has no triangles); the line modes are validated, then
//! counted in `Scene::skipped_primitives`;
//! interleaved and sparse accessors, `KHR_mesh_quantization`,
//! `EXT_meshopt_compression`, `KHR_draco_mesh_compression` and
//! `EXT_mesh_gpu_instancing`. Skinned and morphed meshes load in their bind
//! pose: POSITION exactly as stored, with no skinning or morph weights
//! applied; a skinned instance also carries its skin and its vertices'
//! joint influences (`skin.rs`), from which [`crate::mesh::skin`] gives the
//! displayed pose. Images are never read.
//!
//! What is refused, each with a one-line [`Error::Load`] naming the file:
//! `asset.minVersion` above 2.0, unknown `extensionsRequired`, wrong JSON
//! types, missing or short buffers, accessors outside their buffer view,
//! indices out of range or holding the primitive-restart value, TRIANGLES
//! counts that are not a multiple of 3, primitives without POSITION,
//! non-finite positions, node cycles (also in a file without scenes),
//! malformed skins (see `skin.rs`), URIs leaving the model's folder (unless
//! [`LoadOptions::allow_external_uris`]), a scene whose accessors declare
//! more triangles than [`LoadOptions::max_triangles`] (checked before
//! anything is decoded), and decoding past the budgets of `buffers.rs`.

use super::LoadOptions;
use crate::error::{Error, Result};
use crate::mesh::{Format, Scene};
use std::path::Path;
use validate::DeserializeValue;

mod accessor;
mod buffers;
mod container;

pub use container::split as split_container;
mod draco;
mod json;
mod meshopt;
mod primitive;
mod scene;
mod skin;
mod validate;

/// Internal error message, turned into [`Error::Load`] at the entry point.
type Msg = String;

/// Reads the bytes of the `.gltf` or `.glb` file `path` (told apart by
/// their magic bytes); external buffers are resolved against its folder.
pub fn from_bytes(path: &Path, bytes: &[u8], opts: &LoadOptions) -> Result<Scene> {
    read(path, bytes, opts).map_err(|m| Error::load(path, m.replace('\n', " ")))
}

fn read(path: &Path, bytes: &[u8], opts: &LoadOptions) -> Result<Scene, Msg> {
    let c = container::split(bytes)?;
    let value: serde_json::Value =
        serde_json::from_slice(c.json).map_err(|e| format!("invalid JSON: {e}"))?;
    validate::json_types(&value)?;
    let root = json::Root::deserialize_value(&value)?;
    validate::asset(&root)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let bufs = buffers::Buffers::new(
        &root,
        dir,
        c.bin,
        opts.allow_external_uris,
        bytes.len() as u64,
    );
    let (instances, skipped_primitives) = scene::flatten(
        &root,
        &bufs,
        opts.max_instances,
        opts.max_triangles.for_file(bytes.len() as u64),
    )?;
    let mut extensions = root.extensions_used.clone();
    extensions.sort();
    extensions.dedup();
    Ok(Scene {
        path: path.to_path_buf(),
        format: if c.is_glb { Format::Glb } else { Format::Gltf },
        instances,
        skipped_primitives,
        extensions,
    })
}
