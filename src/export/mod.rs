//! `bvtool export`: the fitted volumes (and optionally the OBB tree with its
//! triangles) written for a runtime to use without bvtool.
//!
//! Every format is produced from one [`ExportDoc`], built once from the
//! volumes `bvtool fit` reports ([`crate::volumes::FileVolumes`]) and the
//! OBB tree `bvtool tree` builds ([`crate::tree::ObbTree`]), so all formats
//! carry the same numbers:
//!
//! - [`json`]: the document itself (`f64`), schema in `docs/bvtool-export.schema.json`;
//! - [`bin`]: a little-endian, 16-byte-aligned binary image a C runtime can
//!   map and use in place, with a validating reader ([`bin::read`]);
//! - [`c_header`]: the same data as `static const` C arrays;
//! - [`gltf`]: the input model with the volumes added as
//!   `KHR_implicit_shapes` / `KHR_physics_rigid_bodies` colliders, or as
//!   convex meshes named by an engine's convention ([`collider_mesh`]);
//! - [`obj`]: the meshes and those named convex meshes as OBJ objects.
//!
//! The binary, C and glTF forms store `f32`; every box and sphere is rounded
//! outwards ([`crate::fit::f32_outward`]), and every collider ([`collider_f32`]), so that it
//! still contains every vertex, whether the vertex is tested in `f64` or
//! rounded to `f32` and tested in `f32`.

pub mod bin;
pub mod bin_collider;
pub mod c_header;
pub mod collider;
pub mod collider_f32;
pub mod collider_mesh;
pub(crate) mod document;
pub mod gltf;
pub(crate) mod gltf_input;
pub mod json;
pub mod npy;
pub mod obj;
pub mod request;
pub(crate) mod volume_records;

pub use collider::ColliderDoc;
pub use document::{DEFAULT_HULL_MAX, ExportDoc, ExportOptions};
pub use request::{ExportPlan, ExportRequest};

use crate::error::{Error, Result};
use crate::mesh::Scene;

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// The [`ExportDoc`] as JSON.
    #[cfg_attr(
        feature = "cli",
        value(help = "JSON (schema: docs/bvtool-export.schema.json)")
    )]
    Json,
    /// The binary form ([`bin`]).
    #[cfg_attr(
        feature = "cli",
        value(help = "little-endian binary, 16-byte aligned, mappable (docs/export.md)")
    )]
    Bin,
    /// A C header ([`c_header`]).
    #[cfg_attr(feature = "cli", value(help = "a C header of static const arrays"))]
    C,
    /// The input as glTF with colliders ([`gltf`]).
    #[cfg_attr(
        feature = "cli",
        value(help = "the model as glTF with KHR_implicit_shapes colliders (.glb or .gltf)")
    )]
    Gltf,
    /// The meshes and the colliders as named OBJ objects ([`obj`]).
    #[cfg_attr(
        feature = "cli",
        value(
            help = "OBJ: the meshes and the colliders as convex meshes named for Unreal or Godot"
        )
    )]
    Obj,
}

/// The bytes of `doc` in `format`. For [`Format::Gltf`] and [`Format::Obj`],
/// `scene` is the model `doc` was made from and `gltf` says how to write it
/// (OBJ: its `naming`, Unreal's by default).
pub fn render(
    scene: &Scene,
    doc: &ExportDoc,
    format: Format,
    gltf: &gltf::GltfOptions,
) -> Result<Vec<u8>> {
    Ok(match format {
        Format::Json => (json::to_string(doc) + "\n").into_bytes(),
        Format::C => c_header::to_string(doc).into_bytes(),
        Format::Bin => bin::write(doc).map_err(|e| Error::geometry(&scene.path, e.to_string()))?,
        Format::Gltf => gltf::write(scene, doc, gltf)?,
        Format::Obj => {
            let naming = gltf.naming.unwrap_or(collider_mesh::Naming::Unreal);
            obj::to_string(scene, doc, naming).into_bytes()
        }
    })
}
