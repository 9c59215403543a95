//! `bvtool info`: what was loaded.

use super::table::Scaled;
use crate::fit::Aabb;
use crate::mesh::{Format, Scene, placed_points};
use crate::volumes::AabbJson;
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
    /// Placements of those meshes (a glTF mesh placed by two nodes counts
    /// twice; each placement has one instance per primitive).
    pub placements: usize,
    /// Primitives skipped because they are points or lines.
    pub skipped_primitives: usize,
    /// glTF extensions the file uses.
    pub extensions: Vec<String>,
    /// Whether any instance is mirrored (negative determinant).
    pub mirrored_instances: usize,
    /// World-space AABB over the vertices the triangles reference (for a
    /// point cloud, over its points); `null` when there are none.
    pub aabb: Option<AabbJson>,
}

impl FileInfo {
    /// Summarizes a loaded scene; `file` is the path as the user gave it.
    pub fn new(file: &str, scene: &Scene) -> FileInfo {
        let mut meshes: Vec<u32> = scene.instances.iter().map(|i| i.mesh).collect();
        meshes.sort_unstable();
        meshes.dedup();
        let mut placements: Vec<_> = scene
            .instances
            .iter()
            .map(|i| (i.node, i.instance, i.mesh))
            .collect();
        placements.sort_unstable();
        placements.dedup();
        FileInfo {
            file: file.to_string(),
            format: scene.format,
            triangles: scene.triangle_count(),
            vertices: scene.vertex_count(),
            instances: scene.instances.len(),
            meshes: meshes.len(),
            placements: placements.len(),
            skipped_primitives: scene.skipped_primitives,
            extensions: scene.extensions.clone(),
            mirrored_instances: scene.instances.iter().filter(|i| i.is_mirrored()).count(),
            // A point cloud's box bounds all its points.
            aabb: Aabb::from_points(placed_points(
                scene.distinct_instances(),
                scene.triangle_count() == 0,
            ))
            .as_ref()
            .map(AabbJson::from),
        }
    }

    /// The human-readable form: one `name  value` line per fact, values
    /// left-aligned in one column whatever the file name's length.
    pub fn to_text(&self) -> String {
        let fmt = serde_json::to_value(self.format)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        let mut rows = vec![
            ("format", fmt),
            ("triangles", self.triangles.to_string()),
            ("vertices", self.vertices.to_string()),
            (
                "meshes",
                format!(
                    "{}, placed {} {} ({} primitive {})",
                    self.meshes,
                    self.placements,
                    if self.placements == 1 {
                        "time"
                    } else {
                        "times"
                    },
                    self.instances,
                    if self.instances == 1 {
                        "instance"
                    } else {
                        "instances"
                    }
                ),
            ),
        ];
        if self.mirrored_instances > 0 {
            rows.push(("mirrored instances", self.mirrored_instances.to_string()));
        }
        rows.push((
            "skipped primitives",
            format!("{} (lines)", self.skipped_primitives),
        ));
        if !self.extensions.is_empty() {
            rows.push(("extensions", self.extensions.join(", ")));
        }
        match &self.aabb {
            Some(b) => {
                let d = (0..3).map(|i| (b.max[i] - b.min[i]).powi(2)).sum::<f64>();
                let len = Scaled::new(d.sqrt(), 6);
                rows.push(("world AABB min", len.tuple(&b.min)));
                rows.push(("world AABB max", len.tuple(&b.max)));
            }
            None => rows.push(("world AABB", "none (no triangles or points)".into())),
        }
        let mut out = format!("{}\n", self.file);
        for (name, value) in rows {
            out += &format!("  {name:<20}{value}\n");
        }
        out
    }
}
