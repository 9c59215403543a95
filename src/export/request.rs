//! One export as `bvtool export` makes it, for every front end (the command
//! line and the Python module call the same two steps, so their bytes are
//! the same).

use super::collider::export_shapes;
use super::gltf::GltfOptions;
use super::{DEFAULT_HULL_MAX, ExportDoc, ExportOptions, Format, render};
use crate::error::{Error, Result};
use crate::fit::polytope::budget_hull::{MAX_BUDGET, MIN_BUDGET};
use crate::fit::{ObbMethod, ShapeSpec, SphereMethod, UnknownShape};
use crate::mesh::Scene;
use crate::threads::{Stop, Stopped, unstopped};
use crate::volumes::FitOptions;
use std::path::Path;

/// What to export: `bvtool export`'s options, none of them a flag.
#[derive(Clone, Debug)]
pub struct ExportRequest {
    /// The format.
    pub format: Format,
    /// The collider shapes as asked; empty: the format's default (a box
    /// for json, gltf and obj; none for bin and c unless `whole`).
    pub shapes: Vec<ShapeSpec>,
    /// Also a collider of each shape for the whole scene.
    pub whole: bool,
    /// Also the OBB tree and its triangles.
    pub tree: bool,
    /// Also each mesh instance's volumes.
    pub per_mesh: bool,
    /// The box method (`box:M` in `shapes` overrides it).
    pub obb: ObbMethod,
    /// The sphere method (`sphere:M` in `shapes` overrides it).
    pub sphere: SphereMethod,
    /// The vertex and face budget of hull colliders (`hull:N` overrides it).
    pub hull_max: usize,
    /// How glTF (and OBJ: its naming) is written.
    pub gltf: GltfOptions,
}

impl ExportRequest {
    /// The command's defaults for `format`.
    pub fn new(format: Format) -> ExportRequest {
        ExportRequest {
            format,
            shapes: Vec::new(),
            whole: false,
            tree: false,
            per_mesh: false,
            obb: ObbMethod::Tight,
            sphere: SphereMethod::Exact,
            hull_max: DEFAULT_HULL_MAX,
            gltf: GltfOptions::default(),
        }
    }

    /// Checks the request before any model is loaded: a shape the format
    /// cannot carry, or a hull budget out of range, is refused, naming it.
    pub fn plan(&self) -> std::result::Result<ExportPlan, UnknownShape> {
        if !(MIN_BUDGET..=MAX_BUDGET).contains(&self.hull_max) {
            return Err(UnknownShape(format!(
                "hull budget {} (expected {MIN_BUDGET} to {MAX_BUDGET} vertices)",
                self.hull_max
            )));
        }
        let shapes = match self.format {
            _ if !self.shapes.is_empty() => self.shapes.clone(),
            Format::Bin | Format::C if !self.whole => Vec::new(),
            _ => vec![ShapeSpec::Box(None)],
        };
        let mut fit = FitOptions {
            per_mesh: self.per_mesh,
            ..FitOptions::of(self.obb, self.sphere)
        };
        let mut hull_max = self.hull_max;
        let shapes = export_shapes(&shapes, &mut fit, &mut hull_max)?;
        Ok(ExportPlan {
            format: self.format,
            explicit_per_instance: !self.shapes.is_empty() && !self.whole,
            options: ExportOptions {
                shapes,
                whole: self.whole,
                hull_max,
                ..ExportOptions::volumes(fit, self.tree)
            },
            gltf: self.gltf,
        })
    }
}

/// A checked [`ExportRequest`], ready to run on a scene.
#[derive(Clone, Debug)]
pub struct ExportPlan {
    format: Format,
    /// Colliders were asked for each mesh instance (and none for the whole).
    explicit_per_instance: bool,
    options: ExportOptions,
    gltf: GltfOptions,
}

impl ExportPlan {
    /// The exported bytes of `scene`, named `file` in the document. A point
    /// cloud asked for per-instance colliders is refused (it has no mesh
    /// instance).
    pub fn bytes(&self, file: &str, scene: &Scene) -> Result<Vec<u8>> {
        unstopped(|stop| self.bytes_until(file, scene, stop))
    }

    /// [`ExportPlan::bytes`], giving up with [`Stopped`] when `stop` is set
    /// while the document is made ([`ExportDoc::new_until`]); writing the
    /// bytes runs to its end.
    pub fn bytes_until(
        &self,
        file: &str,
        scene: &Scene,
        stop: Stop<'_>,
    ) -> std::result::Result<Result<Vec<u8>>, Stopped> {
        if self.explicit_per_instance && scene.triangle_count() == 0 {
            return Ok(Err(Error::geometry(
                &scene.path,
                "a point cloud has no mesh instance to fit a collider to (add --whole)",
            )));
        }
        Ok(ExportDoc::new_until(file, scene, &self.options, stop)?
            .and_then(|doc| render(scene, &doc, self.format, &self.gltf)))
    }
}

/// Whether a glTF output path is a binary `.glb` (`Some(true)`) or a
/// `.gltf` (`Some(false)`), by its extension, case-insensitive; `None` for
/// any other name.
pub fn gltf_binary(path: &Path) -> Option<bool> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("glb") => Some(true),
        Some("gltf") => Some(false),
        _ => None,
    }
}
