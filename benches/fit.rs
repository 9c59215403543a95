//! Fitting speed on real models: hull, exact sphere and tight OBB.

use bvtool::fit::{ConvexHull, ObbMethod, Sphere, obb};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::Point3;
use std::path::PathBuf;

fn models_dir() -> PathBuf {
    std::env::var_os("BVTOOL_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models"))
}

/// World vertices of a model through the crate's loader, or `None` (with a
/// note) when the file or its loader is missing.
fn load_points(rel: &str) -> Option<Vec<Point3<f64>>> {
    let path = models_dir().join(rel);
    match bvtool::load::load(&path, &Default::default()) {
        Ok(scene) => Some(scene.flatten().vertices),
        Err(e) => {
            eprintln!("skipping {rel}: {e}");
            None
        }
    }
}

/// Fallback for the bunny while the OBJ loader is not merged: its `v` lines.
fn obj_vertices(rel: &str) -> Option<Vec<Point3<f64>>> {
    let text = std::fs::read_to_string(models_dir().join(rel)).ok()?;
    let pts: Vec<_> = text
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .filter_map(|l| {
            let c: Vec<f64> = l
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            (c.len() >= 3).then(|| Point3::new(c[0], c[1], c[2]))
        })
        .collect();
    (!pts.is_empty()).then_some(pts)
}

/// Fallback for `.glb` files while the glTF loader is not merged: the
/// positions of every primitive, read with the `gltf` crate (no node
/// transforms; the large corpus files are one untransformed mesh).
fn glb_positions(rel: &str) -> Option<Vec<Point3<f64>>> {
    let bytes = std::fs::read(models_dir().join(rel)).ok()?;
    let g = gltf::Gltf::from_slice(&bytes).ok()?;
    let blob = g.blob.as_deref()?;
    let mut pts = Vec::new();
    for mesh in g.meshes() {
        for prim in mesh.primitives() {
            let reader = prim.reader(|_| Some(blob));
            pts.extend(
                reader
                    .read_positions()?
                    .map(|[x, y, z]| Point3::new(f64::from(x), f64::from(y), f64::from(z))),
            );
        }
    }
    (!pts.is_empty()).then_some(pts)
}

fn bench_model(c: &mut Criterion, name: &str, pts: &[Point3<f64>]) {
    let hull = ConvexHull::new(pts).unwrap();
    let tight = obb(pts, &hull, ObbMethod::Tight).unwrap();
    eprintln!(
        "{name}: {} points, hull {} vertices volume {:.6e}, tight OBB volume {:.6e}, exact sphere radius {:.6e}",
        pts.len(),
        hull.vertices.len(),
        hull.volume(),
        tight.volume(),
        Sphere::exact(pts).unwrap().radius
    );
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.bench_function("hull", |b| b.iter(|| ConvexHull::new(pts).unwrap()));
    g.bench_function("exact_sphere", |b| b.iter(|| Sphere::exact(pts).unwrap()));
    g.bench_function("hull+tight_obb", |b| {
        b.iter(|| {
            let hull = ConvexHull::new(pts).unwrap();
            obb(pts, &hull, ObbMethod::Tight).unwrap()
        })
    });
    g.finish();
}

fn fit(c: &mut Criterion) {
    let bunny = "obj/common-3d-test-models/stanford-bunny.obj";
    if let Some(pts) = load_points(bunny).or_else(|| obj_vertices(bunny)) {
        bench_model(c, "bunny-69k", &pts);
    }
    let nefertiti = "large/nefertiti-1.6M.glb";
    if let Some(pts) = load_points(nefertiti).or_else(|| glb_positions(nefertiti)) {
        bench_model(c, "nefertiti-1.6M", &pts);
    }
}

criterion_group!(benches, fit);
criterion_main!(benches);
