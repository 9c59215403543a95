//! The input glTF read again for the glTF export: its JSON and GLB BIN
//! chunk, split by the loader's own container parser
//! ([`crate::load::gltf::split_container`]), and which of its nodes carry
//! GPU instances.

use crate::error::{Error, Result};
use crate::load::gltf::split_container;
use crate::mesh::{Format, Scene};
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;

/// The JSON of a `.glb` or `.gltf` (an object) and the GLB's BIN chunk.
pub(super) fn read_json(path: &Path) -> Result<(Value, Option<Vec<u8>>)> {
    let err = |m: String| Error::load(path, m);
    let bytes = crate::load::read_input(path)?;
    let c = split_container(&bytes).map_err(err)?;
    let what = if c.is_glb { "GLB JSON" } else { "glTF JSON" };
    let json: Value = serde_json::from_slice(c.json).map_err(|e| err(format!("{what}: {e}")))?;
    let glb_bin = c.bin.map(<[u8]>::to_vec);
    if !json.is_object() {
        return Err(err("glTF JSON is not an object".into()));
    }
    Ok((json, glb_bin))
}

/// The glTF node indices of an `EXT_mesh_gpu_instancing` node in `scene`'s
/// file (read again only when the file declares the extension).
pub fn gpu_instanced_nodes(scene: &Scene) -> Result<HashSet<u32>> {
    const EXT: &str = "EXT_mesh_gpu_instancing";
    if !matches!(scene.format, Format::Gltf | Format::Glb)
        || !scene.extensions.iter().any(|e| e == EXT)
    {
        return Ok(HashSet::new());
    }
    let (json, _) = read_json(&scene.path)?;
    Ok(json["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .filter(|(_, n)| !n["extensions"][EXT].is_null())
        .map(|(i, _)| i as u32)
        .collect())
}
