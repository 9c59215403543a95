//! The subset of the glTF 2.0 JSON schema that geometry needs, as serde
//! types. Wrong JSON types in these fields fail deserialization (and so the
//! load) instead of being silently defaulted.

use serde::Deserialize;
use std::collections::BTreeMap;

/// The top-level glTF object.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Root {
    pub asset: Asset,
    pub scene: Option<u32>,
    #[serde(default)]
    pub scenes: Vec<SceneDef>,
    #[serde(default)]
    pub nodes: Vec<Node>,
    #[serde(default)]
    pub meshes: Vec<Mesh>,
    #[serde(default)]
    pub skins: Vec<SkinDef>,
    #[serde(default)]
    pub accessors: Vec<Accessor>,
    #[serde(default)]
    pub buffer_views: Vec<BufferView>,
    #[serde(default)]
    pub buffers: Vec<Buffer>,
    #[serde(default)]
    pub extensions_used: Vec<String>,
    #[serde(default)]
    pub extensions_required: Vec<String>,
}

/// `asset`: the version checks.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Asset {
    pub version: String,
    pub min_version: Option<String>,
}

/// One entry of `scenes`.
#[derive(Deserialize, Debug)]
pub struct SceneDef {
    #[serde(default)]
    pub nodes: Vec<u32>,
}

/// One entry of `nodes`.
#[derive(Deserialize, Debug)]
pub struct Node {
    pub name: Option<String>,
    #[serde(default)]
    pub children: Vec<u32>,
    pub mesh: Option<u32>,
    pub skin: Option<u32>,
    pub matrix: Option<[f64; 16]>,
    pub translation: Option<[f64; 3]>,
    pub rotation: Option<[f64; 4]>,
    pub scale: Option<[f64; 3]>,
    pub extensions: Option<NodeExtensions>,
}

/// Node extensions that place geometry.
#[derive(Deserialize, Debug)]
pub struct NodeExtensions {
    #[serde(rename = "EXT_mesh_gpu_instancing")]
    pub gpu_instancing: Option<GpuInstancing>,
}

/// `EXT_mesh_gpu_instancing`: per-instance TRS accessors.
#[derive(Deserialize, Debug)]
pub struct GpuInstancing {
    pub attributes: BTreeMap<String, u32>,
}

/// One entry of `skins`.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct SkinDef {
    pub joints: Vec<u32>,
    pub inverse_bind_matrices: Option<u32>,
}

/// One entry of `meshes`.
#[derive(Deserialize, Debug)]
pub struct Mesh {
    pub name: Option<String>,
    pub primitives: Vec<Primitive>,
}

/// One primitive of a mesh.
#[derive(Deserialize, Debug)]
pub struct Primitive {
    pub attributes: BTreeMap<String, u32>,
    pub indices: Option<u32>,
    #[serde(default = "triangles_mode")]
    pub mode: u32,
    pub extensions: Option<PrimitiveExtensions>,
}

fn triangles_mode() -> u32 {
    4
}

/// Primitive extensions that replace the geometry source.
#[derive(Deserialize, Debug)]
pub struct PrimitiveExtensions {
    #[serde(rename = "KHR_draco_mesh_compression")]
    pub draco: Option<Draco>,
}

/// `KHR_draco_mesh_compression` on a primitive.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Draco {
    pub buffer_view: u32,
    pub attributes: BTreeMap<String, u32>,
}

/// One entry of `accessors`.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Accessor {
    pub buffer_view: Option<u32>,
    #[serde(default)]
    pub byte_offset: u64,
    pub component_type: u32,
    #[serde(default)]
    pub normalized: bool,
    pub count: u64,
    #[serde(rename = "type")]
    pub kind: String,
    pub sparse: Option<Sparse>,
}

/// `accessor.sparse`.
#[derive(Deserialize, Debug)]
pub struct Sparse {
    pub count: u64,
    pub indices: SparseIndices,
    pub values: SparseValues,
}

/// `accessor.sparse.indices`.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct SparseIndices {
    pub buffer_view: u32,
    #[serde(default)]
    pub byte_offset: u64,
    pub component_type: u32,
}

/// `accessor.sparse.values`.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct SparseValues {
    pub buffer_view: u32,
    #[serde(default)]
    pub byte_offset: u64,
}

/// One entry of `bufferViews`.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct BufferView {
    pub buffer: u32,
    #[serde(default)]
    pub byte_offset: u64,
    pub byte_length: u64,
    pub byte_stride: Option<u64>,
    pub extensions: Option<BufferViewExtensions>,
}

/// Buffer-view extensions that change where its bytes come from.
#[derive(Deserialize, Debug)]
pub struct BufferViewExtensions {
    #[serde(rename = "EXT_meshopt_compression")]
    pub meshopt: Option<Meshopt>,
}

/// `EXT_meshopt_compression` on a buffer view.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Meshopt {
    pub buffer: u32,
    #[serde(default)]
    pub byte_offset: u64,
    pub byte_length: u64,
    pub byte_stride: u64,
    pub count: u64,
    pub mode: String,
    pub filter: Option<String>,
}

/// One entry of `buffers`.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Buffer {
    pub uri: Option<String>,
    pub byte_length: u64,
}
