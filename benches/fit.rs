//! Fitting speed on real models: the bunny's hull, exact sphere and tight
//! OBB, and `bvtool fit`'s whole default run (load + AABB + hull + exact
//! sphere + tight OBB) on the 1.6M-vertex Nefertiti.

use bvtool::fit::{ConvexHull, ObbMethod, Sphere, SphereMethod, obb, sphere_with_hull};
use bvtool::volumes::{FileVolumes, FitOptions};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;

fn model(rel: &str) -> PathBuf {
    std::env::var_os("BVTOOL_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models"))
        .join(rel)
}

/// `bvtool fit`'s defaults: tight OBB, exact sphere, file volumes only.
fn default_options() -> FitOptions {
    FitOptions::of(ObbMethod::Tight, SphereMethod::Exact)
}

fn bunny(c: &mut Criterion) {
    let path = model("obj/common-3d-test-models/stanford-bunny.obj");
    let scene = match bvtool::load::load(&path, &Default::default()) {
        Ok(s) => s,
        Err(e) => return eprintln!("skipping the bunny: {e}"),
    };
    let pts = scene.world_points(false);
    let hull = ConvexHull::new(&pts).unwrap();
    eprintln!(
        "bunny: {} points, hull {} vertices volume {:.6e}, tight OBB volume {:.6e}, exact sphere radius {:.6e}",
        pts.len(),
        hull.vertices.len(),
        hull.volume(),
        obb(&pts, &hull, ObbMethod::Tight).unwrap().volume(),
        Sphere::exact(&pts).unwrap().radius
    );
    let mut g = c.benchmark_group("bunny-69k");
    g.sample_size(10);
    g.bench_function("hull", |b| b.iter(|| ConvexHull::new(&pts).unwrap()));
    g.bench_function("exact_sphere", |b| b.iter(|| Sphere::exact(&pts).unwrap()));
    g.bench_function("exact_sphere_given_hull", |b| {
        b.iter(|| sphere_with_hull(&pts, &hull, SphereMethod::Exact).unwrap())
    });
    g.bench_function("tight_obb_given_hull", |b| {
        b.iter(|| obb(&pts, &hull, ObbMethod::Tight).unwrap())
    });
    g.bench_function("fast_obb_given_hull", |b| {
        b.iter(|| obb(&pts, &hull, ObbMethod::Fast).unwrap())
    });
    g.bench_function("hull+tight_obb", |b| {
        b.iter(|| {
            let hull = ConvexHull::new(&pts).unwrap();
            obb(&pts, &hull, ObbMethod::Tight).unwrap()
        })
    });
    g.finish();
}

fn nefertiti(c: &mut Criterion) {
    let path = model("large/nefertiti-1.6M.glb");
    if !path.exists() {
        return eprintln!("skipping {}: missing", path.display());
    }
    let opts = default_options();
    let mut g = c.benchmark_group("nefertiti-1.6M");
    g.sample_size(10);
    g.bench_function("load+fit", |b| {
        b.iter(|| {
            let scene = bvtool::load::load(&path, &Default::default()).unwrap();
            FileVolumes::new("nefertiti", &scene, &opts).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, bunny, nefertiti);
criterion_main!(benches);
