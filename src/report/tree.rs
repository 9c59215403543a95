//! `bvtool tree`: the OBB tree of a file, and how much tighter it is than an
//! AABB tree of the same split.

use super::table::{Table, count, num};
use crate::error::{Error, Result};
use crate::mesh::Scene;
use crate::tree::{NodeFit, ObbTree, TreeStats, default_leaf_size};
use serde::Serialize;
use std::time::Instant;

/// The `bvtool tree` report of one file.
#[derive(Debug, Serialize)]
pub struct TreeReport {
    /// The file as given.
    pub file: String,
    /// Build time in milliseconds (flattened mesh to finished tree).
    pub build_ms: f64,
    /// Size and per-level volumes.
    #[serde(flatten)]
    pub stats: TreeStats,
}

impl TreeReport {
    /// Builds the tree of `scene` with leaves of at most `leaf_size`
    /// triangles (default [`default_leaf_size`]) and node boxes fitted by
    /// `fit`.
    pub fn new(
        file: &str,
        scene: &Scene,
        leaf_size: Option<usize>,
        fit: NodeFit,
    ) -> Result<TreeReport> {
        let mesh = scene.flatten();
        if mesh.triangles.is_empty() {
            return Err(Error::geometry(
                &scene.path,
                "no triangles to build a tree over",
            ));
        }
        let t = Instant::now();
        let leaf_size = leaf_size.unwrap_or(default_leaf_size(mesh.triangles.len()));
        let tree = ObbTree::build_with(&mesh, leaf_size, fit);
        let build_ms = t.elapsed().as_secs_f64() * 1e3;
        Ok(TreeReport {
            file: file.to_string(),
            build_ms,
            stats: TreeStats::of(&tree),
        })
    }

    /// The human-readable form.
    pub fn to_text(&self) -> String {
        let s = &self.stats;
        let out = format!(
            "{}\n  {}, {} ({}, at most {} each), depth {}\n  {} bytes per triangle of structure + {} of geometry (welded f64 vertices, u32 indices) = {} ({} MB), built in {} ms\n",
            self.file,
            count(s.triangles, "triangle"),
            count(s.nodes, "node"),
            count(s.leaves, "leaf"),
            count(s.leaf_size, "triangle"),
            s.depth,
            num(s.bytes_per_triangle, 3),
            num(s.geometry_bytes_per_triangle, 3),
            num(s.total_bytes_per_triangle, 3),
            num((s.structure_bytes + s.geometry_bytes) as f64 / 1e6, 3),
            num(self.build_ms, 3)
        );
        out + &level_table(&s.obb_volume_per_level, &s.aabb_volume_per_level)
    }
}

/// A level whose total OBB volume is less than the level above's divided by
/// this is a level of nearly flat boxes (leaves of one or two triangles,
/// whose boxes are as thick as the f32 rounding they carry): the ratio of
/// two such volumes says nothing about tightness and is left out. Splitting
/// a node shrinks its boxes' total a few times at most, never a hundredfold.
pub const FLAT_DROP: f64 = 100.0;

/// The per-level table of an OBB tree beside the AABB tree of the same split:
/// total box volume at each depth and how much larger the axis-aligned boxes
/// are (left out, with a note, for levels of nearly flat boxes).
pub fn level_table(obb: &[f64], aabb: &[f64]) -> String {
    let mut t = Table::new(&["tree level", "OBB volume", "AABB volume", "AABB / OBB"]);
    let mut flat = false;
    for (d, (o, a)) in obb.iter().zip(aabb).enumerate() {
        let flat_level = d > 0 && *o * FLAT_DROP < obb[d - 1];
        let ratio = if *o > 0.0 && !flat_level {
            format!("{:.2}x", a / o)
        } else {
            flat |= flat_level;
            "-".into()
        };
        t.row(vec![d.to_string(), num(*o, 4), num(*a, 4), ratio]);
    }
    let mut out = t.render(2);
    if flat {
        out += "  (-: nearly flat boxes, 100x less OBB volume than the level above; no meaningful ratio)\n";
    }
    out
}
