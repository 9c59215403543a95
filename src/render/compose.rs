//! Pictures of whole models and collisions, composed from the pieces: what
//! `bvtool render` and `bvtool collide --render` draw.

use super::picture::render;
use super::scene::{RenderOptions, RenderScene, Volume};
use crate::error::{Error, Result};
use crate::fit::{self, Aabb, ConvexHull, ObbMethod, SphereMethod};
use crate::mesh::{Scene, TriMesh};
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
/// a legend.
pub fn model_picture(
    scene: &Scene,
    kinds: &[VolumeKind],
    opts: &RenderOptions,
) -> Result<RgbImage> {
    let mesh = scene.flatten();
    if mesh.triangles.is_empty() {
        return Err(Error::geometry(&scene.path, "no triangles to draw"));
    }
    let points = scene.world_points(false);
    // The same volumes `bvtool fit` reports: OBBs and spheres from the hull.
    let hull = if kinds.iter().any(|k| *k != VolumeKind::Aabb) {
        Some(ConvexHull::new(&points).map_err(|e| Error::geometry(&scene.path, e.to_string()))?)
    } else {
        None
    };
    let mut picture = RenderScene::new();
    picture.add_mesh(mesh);
    for &k in kinds {
        let (volume, label) = match (k, &hull) {
            (VolumeKind::Aabb, _) => (
                Volume::Aabb(Aabb::from_points(&points).expect("points")),
                "AABB".to_string(),
            ),
            (VolumeKind::Obb(m), Some(h)) => (
                Volume::Obb(fit::obb(&points, h, m).expect("points")),
                format!("OBB ({m})"),
            ),
            (VolumeKind::Sphere(m), Some(h)) => (
                Volume::Sphere(fit::sphere_with_hull(&points, h, m).expect("points")),
                format!("sphere ({m})"),
            ),
            (_, None) => unreachable!("the hull is built for every kind but the AABB"),
        };
        picture.add_volume(volume, label);
    }
    render(&picture, opts)
}

/// Mesh A at identity and mesh B at `pose`, with the triangles of the
/// intersecting `pairs` (indices into A and B) highlighted.
pub fn collision_picture(
    a: &TriMesh,
    b: &TriMesh,
    pose: &Pose,
    pairs: &[(u32, u32)],
    opts: &RenderOptions,
) -> Result<RgbImage> {
    render(
        &pair_scene(a, b, pose, pairs, "intersecting triangles"),
        opts,
    )
}

/// Mesh A at identity and mesh B at `pose`, the closest triangles
/// (`triangles`, A's and B's) highlighted and the segment between the
/// closest points (`points`, in A's frame) drawn over them.
pub fn distance_picture(
    a: &TriMesh,
    b: &TriMesh,
    pose: &Pose,
    triangles: (u32, u32),
    points: (Point3<f64>, Point3<f64>),
    opts: &RenderOptions,
) -> Result<RgbImage> {
    let mut picture = pair_scene(a, b, pose, &[triangles], "closest triangles");
    picture.add_volume(Volume::Segment(points.0, points.1), "closest points");
    render(&picture, opts)
}

/// The two meshes of a pair query, B placed, with the triangles of `pairs`
/// highlighted under the legend `what`.
fn pair_scene(
    a: &TriMesh,
    b: &TriMesh,
    pose: &Pose,
    pairs: &[(u32, u32)],
    what: &str,
) -> RenderScene {
    let mut placed = b.clone();
    for v in &mut placed.vertices {
        *v = pose.transform_point(v);
    }
    let mut picture = RenderScene::new();
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
