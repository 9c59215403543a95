//! Pictures of whole models and collisions, composed from the pieces: what
//! `bvtool render` and `bvtool collide --render` draw.

use super::picture::render;
use super::scene::{PALETTE, RenderOptions, RenderScene, Volume, VolumeLayer};
use crate::error::{Error, Result};
use crate::fit::polytope::decompose::DecomposeError;
use crate::fit::{
    Aabb, ConvexHull, FittedShape, MeshSource, ShapeDefaults, ShapeFitter, ShapeSpec,
};
use crate::mesh::{MeshInstance, Scene, TriMesh, instance_points};
use crate::pose::Pose;
use crate::threads::{Stop, Stopped, unstopped};
use crate::volumes::{Halt, halted, hull_until};
use image::RgbImage;
use nalgebra::Point3;

/// The wireframes of a fitted shape of one group ([`Volume::of_shape`]),
/// none for a flat hull's k-DOP or budget hull (no inside, no faces to
/// draw).
fn drawn(shape: FittedShape, hull: &ConvexHull) -> Vec<Volume> {
    let faces = match &shape {
        FittedShape::Kdop(k) => Some(&k.faces),
        FittedShape::Hull(h) => Some(&h.faces),
        _ => None,
    };
    if faces.is_some_and(|f| hull.dimension < 3 || f.is_empty()) {
        return Vec::new();
    }
    Volume::of_shape(shape)
}

/// The legend name of a spec's shapes (parameters left out mean `tight`,
/// `exact` and 255, as `render` fits them).
fn legend(spec: ShapeSpec) -> String {
    let d = ShapeDefaults::default();
    match spec {
        ShapeSpec::Aabb => "AABB".into(),
        ShapeSpec::Box(m) => format!("OBB ({})", m.unwrap_or(d.obb)),
        ShapeSpec::Sphere(m) => format!("sphere ({})", m.unwrap_or(d.sphere)),
        ShapeSpec::Capsule => "capsule".into(),
        ShapeSpec::Cylinder => "cylinder".into(),
        ShapeSpec::Kdop { kind, oriented } => {
            format!(
                "{}-DOP{}",
                kind.as_str(),
                if oriented { " (OBB frame)" } else { "" }
            )
        }
        ShapeSpec::Hull(max) => format!("hull (at most {} vertices)", max.unwrap_or(d.hull_max)),
        ShapeSpec::Decompose => "convex parts".into(),
        ShapeSpec::Best => "smallest primitive".into(),
    }
}

/// The volumes of `spec` for the points of one group (the whole model's,
/// or one mesh instance's; world frame), with their legend name: the same
/// volumes `bvtool fit` reports ([`ShapeFitter`] with its defaults: the
/// tight box, the exact sphere, 255 vertices), and for `decompose` the
/// convex parts of `mesh` (the tight box for a flat mesh, as `export
/// --shape decompose` does).
fn group_volumes(
    scene: &Scene,
    spec: ShapeSpec,
    points: &[Point3<f64>],
    hull: &ConvexHull,
    mesh: MeshSource<'_>,
    stop: Stop<'_>,
) -> std::result::Result<(Vec<Volume>, String), Halt> {
    let fitter = ShapeFitter::new(points, hull).with_mesh(mesh);
    let volumes = match fitter.fit_until(spec, stop)? {
        Ok(shape) => drawn(shape, hull),
        Err(DecomposeError::Flat) => vec![Volume::Shape(FittedShape::Obb(*fitter.reference()))],
        Err(e) => return Err(Error::geometry(&scene.path, format!("decomposition: {e}")).into()),
    };
    Ok((volumes, legend(spec)))
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
/// kind of volume, under a title naming the file and its triangles.
pub fn model_picture(
    scene: &Scene,
    kinds: &[ShapeSpec],
    per_mesh: bool,
    opts: &RenderOptions,
) -> Result<RgbImage> {
    unstopped(|stop| model_picture_until(scene, kinds, per_mesh, opts, stop))
}

/// [`model_picture`], giving up with [`Stopped`] when `stop` is set: inside
/// each group's hull and fits as `fit` stops, and between them (drawing
/// the picture runs to its end).
pub fn model_picture_until(
    scene: &Scene,
    kinds: &[ShapeSpec],
    per_mesh: bool,
    opts: &RenderOptions,
    stop: Stop<'_>,
) -> std::result::Result<Result<RgbImage>, Stopped> {
    halted(picture_of_model(scene, kinds, per_mesh, opts, stop))
}

/// [`model_picture_until`], its two ways to end as one.
fn picture_of_model(
    scene: &Scene,
    kinds: &[ShapeSpec],
    per_mesh: bool,
    opts: &RenderOptions,
    stop: Stop<'_>,
) -> std::result::Result<RgbImage, Halt> {
    let mesh = scene.flatten();
    if mesh.triangles.is_empty() {
        return Err(Error::geometry(&scene.path, "no triangles to draw").into());
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
        stop.check()?;
        let hull = if kinds.iter().any(|k| *k != ShapeSpec::Aabb) {
            Some(hull_until(&scene.path, points, stop)?)
        } else {
            None
        };
        let whole = || (mesh.vertices.clone(), mesh.triangles.clone());
        let of_group = || inst.map_or_else(whole, placed_mesh);
        for (k, &kind) in kinds.iter().enumerate() {
            let (volumes, name) = match &hull {
                Some(h) => group_volumes(scene, kind, points, h, &of_group, stop)?,
                None => (
                    vec![Volume::Shape(FittedShape::Aabb(
                        Aabb::from_points(points).expect("points"),
                    ))],
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
    let name = scene.path.file_name().unwrap_or(scene.path.as_os_str());
    picture.title = vec![format!(
        "{}: {} triangles{}",
        name.to_string_lossy(),
        mesh.triangles.len(),
        if per_mesh {
            ", volumes of each mesh"
        } else {
            ""
        }
    )];
    picture.add_mesh(mesh);
    picture.volumes = layers.into_iter().flatten().collect();
    stop.check()?;
    Ok(render(&picture, opts)?)
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
/// (`triangles`, A's and B's) highlighted, and drawn again as outlines on
/// top of everything with the segment between the closest points
/// (`points`, in A's frame), so that no view hides them, under `title`.
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
    // The closest triangles also as outlines on top: in a view where the
    // meshes hide them (the iso view of two nested shapes) they still show.
    let corners: Vec<Point3<f64>> = a
        .triangle(triangles.0 as usize)
        .into_iter()
        .chain(
            b.triangle(triangles.1 as usize)
                .map(|p| pose.transform_point(&p)),
        )
        .collect();
    picture.add_volume(
        Volume::Polytope(corners, vec![vec![0, 1, 2], vec![3, 4, 5]]),
        "closest triangles, seen through",
    );
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
    let mut picture = RenderScene::new();
    picture.title = title.to_vec();
    let la = picture.add_mesh(a.clone());
    la.label = Some("A".into());
    la.highlight_label = what.into();
    la.highlighted = pairs.iter().map(|p| p.0 as usize).collect();
    let lb = picture.add_mesh(placed(b, pose));
    lb.label = Some("B".into());
    lb.highlight_label = what.into();
    lb.highlighted = pairs.iter().map(|p| p.1 as usize).collect();
    picture
}

/// `mesh` with its vertices placed by `pose`.
pub(super) fn placed(mesh: &TriMesh, pose: &Pose) -> TriMesh {
    let mut out = mesh.clone();
    for v in &mut out.vertices {
        *v = pose.transform_point(v);
    }
    out
}
