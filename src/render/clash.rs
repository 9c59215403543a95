//! Pictures of clash results: the scene with its clashing parts coloured by
//! kind (`bvtool clash --render`), and a mesh with its self-intersecting
//! triangles highlighted (`bvtool clash --self --render`).

use super::picture::render;
use super::scene::{MESH_COLORS, PALETTE, RenderOptions, RenderScene};
use crate::clash::{Clash, ClashKind, ClashScene, SelfIntersections};
use crate::error::Result;
use crate::mesh::TriMesh;
use image::RgbImage;

/// The colour and legend text of a part by the strongest way it clashes.
fn style(kind: Option<ClashKind>) -> ([u8; 3], &'static str) {
    match kind {
        Some(ClashKind::Intersecting) => (PALETTE[0], "intersecting"),
        Some(ClashKind::Contained) => (PALETTE[4], "contained / containing"),
        Some(ClashKind::Touching) => (PALETTE[3], "touching"),
        None => (MESH_COLORS[0], "no clash"),
    }
}

/// Every part of `scene` in the world, coloured by the strongest kind of
/// clash it takes part in (intersecting, then contained, then touching;
/// grey when none), with one legend entry per colour used.
pub fn clash_picture(
    scene: &ClashScene,
    clashes: &[Clash],
    opts: &RenderOptions,
) -> Result<RgbImage> {
    let rank = |k: ClashKind| match k {
        ClashKind::Intersecting => 3,
        ClashKind::Contained => 2,
        ClashKind::Touching => 1,
    };
    let mut strongest: Vec<Option<ClashKind>> = vec![None; scene.parts.parts.len()];
    for c in clashes {
        for p in [c.a, c.b] {
            if strongest[p].is_none_or(|k| rank(k) < rank(c.kind)) {
                strongest[p] = Some(c.kind);
            }
        }
    }
    let mut picture = RenderScene::new();
    let mut labelled = Vec::new();
    for (p, kind) in strongest.iter().enumerate() {
        let (color, label) = style(*kind);
        let layer = picture.add_mesh(scene.part_mesh(p));
        layer.color = color;
        if !labelled.contains(kind) {
            labelled.push(*kind);
            let n = strongest.iter().filter(|k| *k == kind).count();
            layer.label = Some(format!("{label} ({n} parts)"));
        }
    }
    render(&picture, opts)
}

/// `mesh` with the triangles of `found` highlighted.
pub fn self_intersection_picture(
    mesh: TriMesh,
    found: &SelfIntersections,
    opts: &RenderOptions,
) -> Result<RgbImage> {
    let mut picture = RenderScene::new();
    let layer = picture.add_mesh(mesh);
    layer.label = Some("mesh".into());
    layer.highlighted = found.faces().iter().map(|&f| f as usize).collect();
    layer.highlight_label = format!(
        "self-intersecting triangles ({})",
        layer.highlighted.len()
    );
    render(&picture, opts)
}
