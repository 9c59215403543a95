//! Synthetic scenes for the export tests (no loader needed): random
//! triangle soups and a cube placed by rotated, scaled, translated, mirrored
//! and shared (instanced) transforms, far from the origin so that rounding
//! to f32 matters.
#![allow(dead_code)]

pub mod bin_check;
pub mod gltf_check;
pub mod schema;
pub mod skin_oracle;

use bvtool::export::{ExportDoc, ExportOptions};
use bvtool::fit::ShapeSpec;
use bvtool::fit::{ObbMethod, SphereMethod};
use bvtool::mesh::{Format, Geometry, MeshInstance, Scene};
use bvtool::volumes::FitOptions;
use nalgebra::{Matrix4, Point3, Rotation3, Translation3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

fn cube() -> Geometry {
    let positions = (0..8)
        .map(|k| {
            Point3::new(
                (k & 1) as f64 - 0.5,
                ((k >> 1) & 1) as f64 - 0.5,
                ((k >> 2) & 1) as f64 - 0.5,
            )
        })
        .collect();
    let q = |a, b, c, d| [[a, b, c], [a, c, d]];
    let triangles = [
        q(0, 2, 3, 1),
        q(4, 5, 7, 6),
        q(0, 1, 5, 4),
        q(2, 6, 7, 3),
        q(0, 4, 6, 2),
        q(1, 3, 7, 5),
    ]
    .concat();
    Geometry {
        positions,
        triangles,
    }
}

fn soup(rng: &mut ChaCha8Rng, n: usize) -> Geometry {
    let positions: Vec<Point3<f64>> = (0..n)
        .map(|_| {
            Point3::new(
                rng.random_range(-3.0..3.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-0.2..0.2),
            )
        })
        .collect();
    let triangles = (0..n / 2)
        .map(|_| std::array::from_fn(|_| rng.random_range(0..n as u32)))
        .collect();
    Geometry {
        positions,
        triangles,
    }
}

fn placed(rng: &mut ChaCha8Rng, scale: Vector3<f64>, offset: f64) -> Matrix4<f64> {
    let r = Rotation3::from_euler_angles(
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
    );
    let t = Vector3::new(
        rng.random_range(-offset..offset),
        rng.random_range(-offset..offset),
        rng.random_range(-offset..offset),
    );
    Translation3::from(t).to_homogeneous()
        * r.to_homogeneous()
        * Matrix4::new_nonuniform_scaling(&scale)
}

/// A scene of four instances (a random soup, a cube, the same cube again
/// mirrored, another soup), `format` and `path` as given, placed about
/// `offset` from the origin.
pub fn scene(seed: u64, offset: f64, format: Format, path: &str) -> Scene {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cube = Arc::new(cube());
    let parts = [
        (Arc::new(soup(&mut rng, 120)), Vector3::new(1.0, 2.0, 0.5)),
        (cube.clone(), Vector3::new(2.0, 1.0, 3.0)),
        (cube, Vector3::new(-1.5, 1.0, 1.0)),
        (Arc::new(soup(&mut rng, 60)), Vector3::new(0.3, 0.3, 0.3)),
    ];
    let gltf = matches!(format, Format::Gltf | Format::Glb);
    let instances = parts
        .into_iter()
        .enumerate()
        .map(|(i, (geometry, scale))| MeshInstance {
            node: gltf.then_some(i as u32),
            node_name: None,
            instance: 0,
            mesh: i as u32,
            mesh_name: Some(format!("part{i}").into()),
            primitive: 0,
            transform: placed(&mut rng, scale, offset),
            geometry,
            skin: None,
        })
        .collect();
    Scene {
        path: path.into(),
        format,
        instances,
        skipped_primitives: 0,
        extensions: Vec::new(),
    }
}

/// The fit options `bvtool export` uses.
pub fn fit_options(obb: ObbMethod, sphere: SphereMethod, per_mesh: bool) -> FitOptions {
    FitOptions {
        per_mesh,
        ..FitOptions::of(obb, sphere)
    }
}

/// The export document of `scene`.
pub fn doc(scene: &Scene, tree: bool, per_mesh: bool) -> ExportDoc {
    ExportDoc::new(
        &scene.path.display().to_string(),
        scene,
        &ExportOptions::volumes(
            fit_options(ObbMethod::Tight, SphereMethod::Exact, per_mesh),
            tree,
        ),
    )
    .expect("synthetic scenes export")
}

/// The export document of `scene` with colliders of `shapes` (and of the
/// whole scene with `whole`), no tree, no per-mesh volume sets.
pub fn doc_with(scene: &Scene, shapes: &[ShapeSpec], whole: bool) -> ExportDoc {
    ExportDoc::new(
        &scene.path.display().to_string(),
        scene,
        &ExportOptions {
            shapes: shapes.to_vec(),
            whole,
            ..ExportOptions::volumes(
                fit_options(ObbMethod::Tight, SphereMethod::Exact, false),
                false,
            )
        },
    )
    .expect("synthetic scenes export")
}

/// Every collider shape `export --shape` offers.
pub const ALL_SHAPES: [ShapeSpec; 7] = [
    ShapeSpec::Box(None),
    ShapeSpec::Sphere(None),
    ShapeSpec::Capsule,
    ShapeSpec::Cylinder,
    ShapeSpec::KDOP26,
    ShapeSpec::Hull(None),
    ShapeSpec::Best,
];

/// The referenced vertices of instance `i` in world space.
pub fn instance_world_points(scene: &Scene, i: usize) -> Vec<Point3<f64>> {
    let mut out = Vec::new();
    bvtool::mesh::instance_points(&scene.instances[i], false, true, &mut out);
    out
}

/// `[x, y, z]`.
pub fn arr(p: &Point3<f64>) -> [f64; 3] {
    [p.x, p.y, p.z]
}
