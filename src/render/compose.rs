//! Pictures of whole models and collisions, composed from the pieces: what
//! `bvtool render` and `bvtool collide --render` draw.

use super::picture::render;
use super::scene::{PALETTE, RenderOptions, RenderScene, Volume, VolumeLayer};
use crate::error::{Error, Result};
use crate::fit::polytope::budget_hull::{DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET};
use crate::fit::polytope::decompose::{DecomposeError, DecomposeOptions, decompose};
use crate::fit::{
    self, Aabb, BudgetHull, ConvexHull, Kdop, KdopKind, ObbMethod, SphereMethod, covariance,
};
use crate::mesh::{MeshInstance, Scene, TriMesh, instance_points};
use crate::pose::Pose;
use image::RgbImage;
use nalgebra::{Matrix3, Point3, Vector3};

/// Which fitted volumes to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VolumeKind {
    /// The world AABB.
    Aabb,
    /// The OBB of the given method.
    Obb(ObbMethod),
    /// The sphere of the given method.
    Sphere(SphereMethod),
    /// The near-minimal capsule (`fit --capsule`).
    Capsule,
    /// The near-minimal cylinder (`fit --cylinder`).
    Cylinder,
    /// The k-DOP of the given family along the world axes (`fit --kdop`,
    /// frame `mesh`).
    Kdop(KdopKind),
    /// The k-DOP of the given family along the tight OBB's axes (`fit
    /// --kdop`, frame `obb`: an oriented k-DOP).
    ObbKdop(KdopKind),
    /// The convex hull within this many vertices and faces (`fit --hull-max`).
    Hull(usize),
    /// The convex parts of `fit --decompose` (its default options).
    Decompose,
}

impl VolumeKind {
    /// Parses a comma-separated list: `aabb`, `obb` (tight), `obb:pca`,
    /// `sphere` (exact), `sphere:ritter`, `capsule`, `cylinder`, `kdop`
    /// (26) or `kdop:14`, `kdop-obb` or `kdop-obb:14`, `hull` (255) or
    /// `hull:64`, `decompose`.
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
                    "capsule" if method.is_empty() => Ok(VolumeKind::Capsule),
                    "cylinder" if method.is_empty() => Ok(VolumeKind::Cylinder),
                    "decompose" if method.is_empty() => Ok(VolumeKind::Decompose),
                    "kdop" | "kdop-obb" => {
                        let k = if method.is_empty() { KdopKind::K26 } else {
                            method.parse().map_err(|_| Error::Input(format!("unknown k-DOP '{method}' in --volumes '{s}' (6, 10x, 10y, 10z, 14, 18 or 26)")))?
                        };
                        Ok(if kind == "kdop" { VolumeKind::Kdop(k) } else { VolumeKind::ObbKdop(k) })
                    }
                    "hull" => Ok(VolumeKind::Hull(if method.is_empty() { DEFAULT_BUDGET } else {
                        method.parse().ok().filter(|n| (MIN_BUDGET..=MAX_BUDGET).contains(n)).ok_or_else(|| {
                            Error::Input(format!("hull budget '{method}' in --volumes '{s}': expected {MIN_BUDGET} to {MAX_BUDGET} vertices"))
                        })?
                    })),
                    _ => Err(Error::Input(format!("unknown volume '{t}' in --volumes (expected aabb, obb[:METHOD], sphere[:METHOD], capsule, cylinder, kdop[:K], kdop-obb[:K], hull[:N], decompose)"))),
                }
            })
            .collect()
    }
}

/// The volumes of `kind` for the points of one group (the whole model's,
/// or one mesh instance's; world frame), with their legend name: the same
/// volumes `bvtool fit` reports — OBBs, spheres and the budget hull from
/// the hull, capsule and cylinder searched from the PCA and tight-box
/// axes, k-DOPs along the world axes or the tight box's — and for `decompose` the convex
/// parts of `mesh` (its vertices and triangles; the tight box for a flat
/// mesh, as `export --shape decompose` does). `None` for a flat hull's
/// k-DOP or budget hull, which have no polytope to draw.
fn group_volumes(
    scene: &Scene,
    kind: VolumeKind,
    points: &[Point3<f64>],
    hull: &ConvexHull,
    mesh: &dyn Fn() -> (Vec<Point3<f64>>, Vec<[u32; 3]>),
) -> Result<(Vec<Volume>, String)> {
    let tight = || fit::obb(points, hull, ObbMethod::Tight).expect("points");
    Ok(match kind {
        VolumeKind::Aabb => (
            vec![Volume::Aabb(Aabb::from_points(points).expect("points"))],
            "AABB".into(),
        ),
        VolumeKind::Obb(m) => (
            vec![Volume::Obb(fit::obb(points, hull, m).expect("points"))],
            format!("OBB ({m})"),
        ),
        VolumeKind::Sphere(m) => (
            vec![Volume::Sphere(
                fit::sphere_with_hull(points, hull, m).expect("points"),
            )],
            format!("sphere ({m})"),
        ),
        VolumeKind::Capsule | VolumeKind::Cylinder => {
            let (_, cov) = covariance::of_points(points).expect("points");
            let (pca, obb) = (covariance::principal_frame(&cov), tight());
            let seeds: Vec<Vector3<f64>> = (0..3)
                .flat_map(|i| [pca.column(i).into_owned(), obb.axis(i)])
                .collect();
            if kind == VolumeKind::Capsule {
                let c = fit::capsule(points, &seeds).expect("points");
                (vec![Volume::Capsule(c)], "capsule".into())
            } else {
                let c = fit::cylinder(points, &seeds).expect("points");
                (vec![Volume::Cylinder(c)], "cylinder".into())
            }
        }
        VolumeKind::Kdop(k) | VolumeKind::ObbKdop(k) => {
            let (axes, frame) = match kind {
                VolumeKind::Kdop(_) => (Matrix3::identity(), ""),
                _ => (tight().axes, " (OBB frame)"),
            };
            let d = Kdop::new(points, k, axes).expect("points");
            let name = format!("{}-DOP{frame}", k.as_str());
            (polytope(hull, d.vertices, d.faces), name)
        }
        VolumeKind::Hull(max) => {
            let b = BudgetHull::new(hull, &tight(), max).expect("points");
            let name = format!("hull (at most {max} vertices)");
            (polytope(hull, b.vertices, b.faces), name)
        }
        VolumeKind::Decompose => {
            let (vertices, triangles) = mesh();
            match decompose(&vertices, &triangles, &DecomposeOptions::default()) {
                Ok(d) => (
                    d.parts
                        .into_iter()
                        .map(|p| Volume::Polytope(p.vertices, p.faces))
                        .collect(),
                    "convex parts".into(),
                ),
                Err(DecomposeError::Flat) => (vec![Volume::Obb(tight())], "convex parts".into()),
                Err(e) => {
                    return Err(Error::geometry(&scene.path, format!("decomposition: {e}")));
                }
            }
        }
    })
}

/// A polytope to draw, none for a flat hull's (no inside, no faces).
fn polytope(hull: &ConvexHull, vertices: Vec<Point3<f64>>, faces: Vec<Vec<u32>>) -> Vec<Volume> {
    if hull.dimension < 3 || faces.is_empty() {
        return Vec::new();
    }
    vec![Volume::Polytope(vertices, faces)]
}

/// One mesh instance's vertices placed in the world, and its triangles.
fn placed_mesh(inst: &MeshInstance) -> (Vec<Point3<f64>>, Vec<[u32; 3]>) {
    let g = &inst.geometry;
    let vertices = g.positions.iter().map(|p| inst.to_world(p)).collect();
    (vertices, g.triangles.clone())
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
    let groups: Vec<(Vec<Point3<f64>>, Option<&MeshInstance>)> = if per_mesh {
        scene
            .instances
            .iter()
            .filter(|i| !i.geometry.triangles.is_empty())
            .map(|i| {
                let mut pts = Vec::new();
                instance_points(i, false, true, &mut pts);
                (pts, Some(i))
            })
            .collect()
    } else {
        vec![(scene.world_points(false), None)]
    };
    let mut layers: Vec<Vec<VolumeLayer>> = vec![Vec::new(); kinds.len()];
    for (points, inst) in &groups {
        // The same volumes `bvtool fit` reports: most of them from the hull.
        let hull = if kinds.iter().any(|k| *k != VolumeKind::Aabb) {
            Some(ConvexHull::new(points).map_err(|e| Error::geometry(&scene.path, e.to_string()))?)
        } else {
            None
        };
        let whole = || (mesh.vertices.clone(), mesh.triangles.clone());
        let of_group = || inst.map_or_else(whole, placed_mesh);
        for (k, &kind) in kinds.iter().enumerate() {
            let (volumes, name) = match &hull {
                Some(h) => group_volumes(scene, kind, points, h, &of_group)?,
                None => (
                    vec![Volume::Aabb(Aabb::from_points(points).expect("points"))],
                    "AABB".to_string(),
                ),
            };
            let label = if per_mesh {
                format!("{name} of each mesh ({})", groups.len())
            } else {
                name
            };
            layers[k].extend(volumes.into_iter().map(|volume| VolumeLayer {
                volume,
                label: label.clone(),
                color: PALETTE[k % PALETTE.len()],
            }));
        }
    }
    let mut picture = RenderScene::new();
    picture.add_mesh(mesh);
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
