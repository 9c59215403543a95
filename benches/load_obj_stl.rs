//! Speed of OBJ/STL loading and of polygon triangulation.
//!
//! `cargo bench --bench load_obj_stl`; the file benches need the model corpus
//! (`$BVTOOL_MODELS` or `../shared/models`) and are skipped without it.

use bvtool::load::{LoadOptions, load, triangulate::triangulate};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::Point3;
use std::hint::black_box;
use std::path::PathBuf;

/// A concave star with `n` corners, tilted out of the coordinate planes.
fn star(n: usize) -> Vec<Point3<f64>> {
    (0..n)
        .map(|i| {
            let r = if i % 2 == 0 {
                1.0
            } else {
                0.4 + 0.1 * (i % 7) as f64
            };
            let a = i as f64 * std::f64::consts::TAU / n as f64;
            Point3::new(r * a.cos(), r * a.sin(), 0.3 * r * a.cos())
        })
        .collect()
}

fn triangulation(c: &mut Criterion) {
    for n in [8, 66, 500] {
        let pts = star(n);
        c.bench_function(&format!("triangulate star {n}"), |b| {
            b.iter(|| triangulate(black_box(&pts)))
        });
    }
}

fn files(c: &mut Criterion) {
    let dir = std::env::var_os("BVTOOL_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models"));
    let mut group = c.benchmark_group("load");
    group.sample_size(10);
    for file in [
        "obj/pybullet/samurai_monastry.obj",
        "obj/common-3d-test-models/beast.obj",
        "stl/mujoco_menagerie/unitree_g1/assets/left_hand_palm_link.STL",
        "stl/assimp/Spider_ascii.stl",
    ] {
        let path = dir.join(file);
        if !path.is_file() {
            eprintln!("skipping {}: not found", path.display());
            continue;
        }
        group.bench_function(file, |b| {
            b.iter(|| load(black_box(&path), &LoadOptions::default()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, triangulation, files);
criterion_main!(benches);
