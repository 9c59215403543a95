//! Pictures of whole models and collisions, composed from the pieces: what
//! `bvtool render` and `bvtool collide --render` draw.

use super::picture::render;
use super::scene::{PALETTE, RenderOptions, RenderScene, Volume, VolumeLayer};
use crate::error::{Error, Result};
use crate::fit::{self, Aabb, ConvexHull, ObbMethod, SphereMethod};
use crate::mesh::{Scene, TriMesh, instance_points};
use crate::pose::Pose;
use image::RgbImage;
use nalgebra::Point3;

/// Which fitted volumes to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VolumeKind {
    /// The world AABB.
    Aabb,
    /// The OBB of the given method.
    Obb(ObbMethod),
    /// The sphere of the given method.
    Sphere(SphereMethod),
}

impl VolumeKind {
    /// Parses a comma-separated list: `aabb`, `obb` (tight), `obb:pca`,
    /// `sphere` (exact), `sphere:ritter`, …
    pub fn parse_list(s: &str) -> Result<Vec<VolumeKind>> {
        s.split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| {
                let (kind, method) = t.split_once(':').unwrap_or((t, ""));
                let bad = |m: &str| Error::Input(format!("unknown method '{m}' in --volumes '{s}'"));
                match kind {
                    "aabb" if method.is_empty() => Ok(VolumeKind::Aabb),
                    "obb" => Ok(VolumeKind::Obb(if method.is_empty() { ObbMethod::Tight } else { method.parse().map_err(|_| bad(method))? })),
                    "sphere" => Ok(VolumeKind::Sphere(if method.is_empty() { SphereMethod::Exact } else { method.parse().map_err(|_| bad(method))? })),
                    _ => Err(Error::Input(format!("unknown volume '{t}' in --volumes (expected aabb, obb[:METHOD], sphere[:METHOD])"))),
                }
            })
            .collect()
    }
}

/// The model (world frame, shaded) with the chosen volumes as wireframes and
/// a legend: the volumes of the whole model, or with `per_mesh` those of
/// each mesh instance (world frame), one colour and one legend entry per
/// kind of volume.
pub fn model_picture(
    scene: &Scene,
    kinds: &[VolumeKind],
    per_mesh: bool,
    opts: &RenderOptions,
) -> Result<RgbImage> {
    let mesh = scene.flatten();
    if mesh.triangles.is_empty() {
        return Err(Error::geometry(&scene.path, "no triangles to draw"));
    }
    let groups: Vec<Vec<Point3<f64>>> = if per_mesh {
        scene
            .instances
            .iter()
            .filter(|i| !i.geometry.triangles.is_empty())
            .map(|i| {
                let mut pts = Vec::new();
                instance_points(i, false, true, &mut pts);
                pts
            })
            .collect()
    } else {
        vec![scene.world_points(false)]
    };
    let mut picture = RenderScene::new();
    picture.add_mesh(mesh);
    let mut layers: Vec<Vec<VolumeLayer>> = vec![Vec::new(); kinds.len()];
    for points in &groups {
        // The same volumes `bvtool fit` reports: OBBs and spheres from the hull.
        let hull = if kinds.iter().any(|k| *k != VolumeKind::Aabb) {
            Some(ConvexHull::new(points).map_err(|e| Error::geometry(&scene.path, e.to_string()))?)
        } else {
            None
        };
        for (k, &kind) in kinds.iter().enumerate() {
            let (volume, name) = match (kind, &hull) {
                (VolumeKind::Aabb, _) => (
                    Volume::Aabb(Aabb::from_points(points).expect("points")),
                    "AABB".to_string(),
                ),
                (VolumeKind::Obb(m), Some(h)) => (
                    Volume::Obb(fit::obb(points, h, m).expect("points")),
                    format!("OBB ({m})"),
                ),
                (VolumeKind::Sphere(m), Some(h)) => (
                    Volume::Sphere(fit::sphere_with_hull(points, h, m).expect("points")),
                    format!("sphere ({m})"),
                ),
                (_, None) => unreachable!("the hull is built for every kind but the AABB"),
            };
            let label = if per_mesh {
                format!("{name} of each mesh ({})", groups.len())
            } else {
                name
            };
            layers[k].push(VolumeLayer {
                volume,
                label,
                color: PALETTE[k % PALETTE.len()],
            });
        }
    }
    picture.volumes = layers.into_iter().flatten().collect();
    render(&picture, opts)
}

/// Mesh A at identity and mesh B at `pose`, with the triangles of the
/// intersecting `pairs` (indices into A and B) highlighted (one legend
/// entry for both), under `title` (lines of text across the top).
pub fn collision_picture(
    a: &TriMesh,
    b: &TriMesh,
    pose: &Pose,
    pairs: &[(u32, u32)],
    title: &[String],
    opts: &RenderOptions,
) -> Result<RgbImage> {
    render(
        &pair_scene(a, b, pose, pairs, "intersecting triangles", title),
        opts,
    )
}

/// Mesh A at identity and mesh B at `pose`, the closest triangles
/// (`triangles`, A's and B's) highlighted and the segment between the
/// closest points (`points`, in A's frame) drawn over them, under `title`.
pub fn distance_picture(
    a: &TriMesh,
    b: &TriMesh,
    pose: &Pose,
    triangles: (u32, u32),
    points: (Point3<f64>, Point3<f64>),
    title: &[String],
    opts: &RenderOptions,
) -> Result<RgbImage> {
    let mut picture = pair_scene(a, b, pose, &[triangles], "closest triangles", title);
    picture.add_volume(Volume::Segment(points.0, points.1), "closest points");
    render(&picture, opts)
}

/// The two meshes of a pair query, B placed, with the triangles of `pairs`
/// highlighted under the legend `what`, and the picture's `title`.
fn pair_scene(
    a: &TriMesh,
    b: &TriMesh,
    pose: &Pose,
    pairs: &[(u32, u32)],
    what: &str,
    title: &[String],
) -> RenderScene {
    let mut placed = b.clone();
    for v in &mut placed.vertices {
        *v = pose.transform_point(v);
    }
    let mut picture = RenderScene::new();
    picture.title = title.to_vec();
    let la = picture.add_mesh(a.clone());
    la.label = Some("A".into());
    la.highlight_label = what.into();
    la.highlighted = pairs.iter().map(|p| p.0 as usize).collect();
    let lb = picture.add_mesh(placed);
    lb.label = Some("B".into());
    lb.highlight_label = what.into();
    lb.highlighted = pairs.iter().map(|p| p.1 as usize).collect();
    picture
}
