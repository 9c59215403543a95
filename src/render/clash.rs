//! Pictures of clash results: the scene with its clashing parts coloured by
//! kind (`bvtool clash --render`), and a scene with its self-intersecting
//! triangles highlighted in every instance (`bvtool clash --self --render`).

use super::picture::render;
use super::scene::{MESH_COLORS, PALETTE, RenderOptions, RenderScene, Volume};
use crate::clash::{Clash, ClashKind, ClashScene, deepest};
use crate::error::{Result, count};
use crate::mesh::{Scene, TriMesh, TriangleSource};
use image::RgbImage;
use std::collections::{BTreeSet, HashSet};

/// The colour and legend text of a part by the strongest way it clashes.
fn style(kind: Option<ClashKind>) -> ([u8; 3], &'static str) {
    match kind {
        Some(ClashKind::Intersecting) => ([240, 150, 150], "intersecting"),
        Some(ClashKind::Contained) => (PALETTE[4], "contained / containing"),
        Some(ClashKind::Touching) => (PALETTE[3], "touching"),
        Some(ClashKind::Clearance) => (PALETTE[7], "within the clearance"),
        None => (MESH_COLORS[0], "no clash"),
    }
}

/// The last component of each path, joined by commas.
fn file_names<'p>(paths: impl Iterator<Item = &'p std::path::Path>) -> String {
    paths
        .map(|p| {
            p.file_name()
                .map_or(p.display().to_string(), |n| n.to_string_lossy().into())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every part of `scene` in the world, coloured by the strongest kind of
/// clash it takes part in (intersecting, then contained, touching, within
/// the clearance; grey when none): one layer and legend entry per colour used, the
/// triangles of crossing pairs (from clashes listed with their pairs)
/// highlighted, and the deepest clash's deep point marked with the
/// segment to its nearest point on the other part.
pub fn clash_picture(
    scene: &ClashScene,
    clashes: &[Clash],
    opts: &RenderOptions,
) -> Result<RgbImage> {
    let rank = |k: Option<ClashKind>| match k {
        Some(ClashKind::Intersecting) => 4,
        Some(ClashKind::Contained) => 3,
        Some(ClashKind::Touching) => 2,
        Some(ClashKind::Clearance) => 1,
        None => 0,
    };
    let mut strongest: Vec<Option<ClashKind>> = vec![None; scene.parts.parts.len()];
    let mut crossing: BTreeSet<(usize, TriangleSource)> = BTreeSet::new();
    for c in clashes {
        for p in [c.a, c.b] {
            if rank(strongest[p]) < rank(Some(c.kind)) {
                strongest[p] = Some(c.kind);
            }
        }
        for t in c.pairs.iter().flatten().filter(|t| t.crossing) {
            crossing.insert((c.a, t.a));
            crossing.insert((c.b, t.b));
        }
    }
    let mut picture = RenderScene::new();
    let kinds: Vec<String> = [
        ClashKind::Intersecting,
        ClashKind::Contained,
        ClashKind::Touching,
        ClashKind::Clearance,
    ]
    .into_iter()
    .filter_map(|kind| {
        let n = clashes.iter().filter(|c| c.kind == kind).count();
        (n > 0).then(|| format!("{n} {}", style(Some(kind)).1))
    })
    .collect();
    picture.title = vec![
        format!("clash: {}", file_names(scene.files())),
        format!(
            "{}; {}",
            count(scene.parts.parts.len(), "part"),
            match kinds.is_empty() {
                true => "no part pair clashes".to_string(),
                false => format!("part pairs: {}", kinds.join(", ")),
            }
        ),
    ];
    for kind in [
        None,
        Some(ClashKind::Touching),
        Some(ClashKind::Contained),
        Some(ClashKind::Intersecting),
    ] {
        let parts: Vec<usize> = (0..strongest.len())
            .filter(|&p| strongest[p] == kind)
            .collect();
        if parts.is_empty() {
            continue;
        }
        let mut mesh = TriMesh::default();
        let mut highlighted = BTreeSet::new();
        for &p in &parts {
            let m = scene.part_mesh(p);
            let (base, first) = (mesh.vertices.len() as u32, mesh.triangles.len());
            highlighted.extend(
                m.sources
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| crossing.contains(&(p, **s)))
                    .map(|(k, _)| first + k),
            );
            mesh.vertices.extend(m.vertices);
            mesh.triangles
                .extend(m.triangles.iter().map(|t| t.map(|i| i + base)));
            mesh.sources.extend(m.sources);
        }
        let (color, label) = style(kind);
        let layer = picture.add_mesh(mesh);
        layer.color = color;
        layer.label = Some(format!("{label} ({})", count(parts.len(), "part")));
        layer.highlighted = highlighted;
        layer.highlight_label = "crossing triangles".into();
    }
    // The deepest clash: its deep point marked, the segment to its nearest
    // point on the other part.
    if let Some((c, s)) = deepest(clashes)
        && let Some((deep, near)) = s.deep_and_nearest(c.a)
    {
        let label = match s.depth {
            d if (1e-3..1e6).contains(&d) => format!("deepest point, {d:.4} deep"),
            d => format!("deepest point, {d:.3e} deep"),
        };
        picture
            .add_volume(Volume::Segment(deep, near), label.clone())
            .color = PALETTE[0];
        picture.add_volume(Volume::Marker(deep), label).color = PALETTE[0];
    }
    render(&picture, opts)
}

/// The scene in world space (flattened) and the indices in it of the
/// self-intersecting faces `found`. With `whole` they were found in this
/// very flattening; otherwise per mesh, in its own frame
/// ([`crate::clash::local_meshes`]: no node, instance 0), and each marks its
/// face in every instance of that mesh.
pub fn self_intersections_in_world(
    scene: &Scene,
    whole: bool,
    found: &[TriangleSource],
) -> (TriMesh, Vec<u32>) {
    let world = scene.flatten();
    let key = |s: &TriangleSource| {
        if whole {
            *s
        } else {
            TriangleSource {
                node: None,
                instance: 0,
                ..*s
            }
        }
    };
    let marked: HashSet<TriangleSource> = found.iter().map(key).collect();
    let faces = (0..world.sources.len() as u32)
        .filter(|&i| marked.contains(&key(&world.sources[i as usize])))
        .collect();
    (world, faces)
}

/// The scene with every self-intersecting face highlighted (see
/// [`self_intersections_in_world`]).
pub fn self_intersection_picture(
    scene: &Scene,
    whole: bool,
    found: &[TriangleSource],
    opts: &RenderOptions,
) -> Result<RgbImage> {
    let (world, faces) = self_intersections_in_world(scene, whole, found);
    let mut picture = RenderScene::new();
    picture.title = vec![
        format!(
            "self-intersections: {}{}",
            file_names(std::iter::once(scene.path.as_path())),
            if whole { " (the whole scene)" } else { "" }
        ),
        format!(
            "{} of {} highlighted",
            count(faces.len(), "self-intersecting triangle"),
            world.triangles.len()
        ),
    ];
    let layer = picture.add_mesh(world);
    layer.label = Some("scene".into());
    layer.highlighted = faces.iter().map(|&f| f as usize).collect();
    layer.highlight_label = format!("self-intersecting triangles ({})", layer.highlighted.len());
    render(&picture, opts)
}
