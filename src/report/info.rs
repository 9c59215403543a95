//! `bvtool info`: what was loaded.

use super::table::{Table, point};
use super::xyz;
use crate::fit::Aabb;
use crate::mesh::{Format, Scene, placed_points};
use serde::Serialize;

/// What a file holds once loaded and flattened.
#[derive(Debug, Serialize)]
pub struct FileInfo {
    /// The file as given.
    pub file: String,
    /// Its format.
    pub format: Format,
    /// Triangles after flattening (each instance counted).
    pub triangles: usize,
    /// Vertices placed in the world (each instance's position data counted).
    pub vertices: usize,
    /// Mesh instances (one per placed primitive, OBJ object or STL solid).
    pub instances: usize,
    /// Distinct meshes (glTF meshes, OBJ objects, STL solids) placed.
    pub meshes: usize,
    /// Primitives skipped because they are points or lines.
    pub skipped_primitives: usize,
    /// glTF extensions the file uses.
    pub extensions: Vec<String>,
    /// Whether any instance is mirrored (negative determinant).
    pub mirrored_instances: usize,
    /// World-space AABB over the vertices the triangles reference; `null`
    /// when there are none.
    pub aabb: Option<AabbJson>,
}

/// An AABB as JSON: `{min, max}` (full corners).
#[derive(Debug, Serialize)]
pub struct AabbJson {
    /// Lowest corner.
    pub min: [f64; 3],
    /// Highest corner.
    pub max: [f64; 3],
}

impl From<&Aabb> for AabbJson {
    fn from(b: &Aabb) -> Self {
        AabbJson {
            min: xyz(&b.min),
            max: xyz(&b.max),
        }
    }
}

impl FileInfo {
    /// Summarizes a loaded scene; `file` is the path as the user gave it.
    pub fn new(file: &str, scene: &Scene) -> FileInfo {
        let mut meshes: Vec<u32> = scene.instances.iter().map(|i| i.mesh).collect();
        meshes.sort_unstable();
        meshes.dedup();
        FileInfo {
            file: file.to_string(),
            format: scene.format,
            triangles: scene.triangle_count(),
            vertices: scene.vertex_count(),
            instances: scene.instances.len(),
            meshes: meshes.len(),
            skipped_primitives: scene.skipped_primitives,
            extensions: scene.extensions.clone(),
            mirrored_instances: scene.instances.iter().filter(|i| i.is_mirrored()).count(),
            aabb: Aabb::from_points(placed_points(scene.distinct_instances(), false))
                .as_ref()
                .map(AabbJson::from),
        }
    }

    /// The human-readable form.
    pub fn to_text(&self) -> String {
        let mut t = Table::new(&["", ""]);
        let fmt = serde_json::to_value(self.format)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        t.row(vec!["format".into(), fmt]);
        t.row(vec!["triangles".into(), self.triangles.to_string()]);
        t.row(vec!["vertices".into(), self.vertices.to_string()]);
        t.row(vec![
            "meshes / instances".into(),
            format!("{} / {}", self.meshes, self.instances),
        ]);
        if self.mirrored_instances > 0 {
            t.row(vec![
                "mirrored instances".into(),
                self.mirrored_instances.to_string(),
            ]);
        }
        t.row(vec![
            "skipped primitives".into(),
            format!("{} (points/lines)", self.skipped_primitives),
        ]);
        if !self.extensions.is_empty() {
            t.row(vec!["extensions".into(), self.extensions.join(", ")]);
        }
        match &self.aabb {
            Some(b) => {
                t.row(vec!["world AABB min".into(), point(&b.min, 6)]);
                t.row(vec!["world AABB max".into(), point(&b.max, 6)]);
            }
            None => t.row(vec!["world AABB".into(), "none (no triangles)".into()]),
        }
        format!(
            "{}\n{}",
            self.file,
            t.render(2).lines().skip(1).collect::<Vec<_>>().join("\n") + "\n"
        )
    }
}
