//! Collision query and tree build on the 69k-triangle Stanford bunny against
//! itself, at the 100 near-boundary poses of `benches/data/bunny69k_poses.json`
//! (made by `shared/peers/make_poses.py … -n 100 --seed 0`). Each iteration
//! runs all 100 poses, so time/100 is the mean per query. parry3d's
//! `intersection_test` on the same poses runs beside it; leaf sizes 1, 2, 4
//! and 8 are compared to choose `DEFAULT_LEAF_SIZE`.
//!
//! Needs the model corpus (`BVTOOL_MODELS` or `../shared/models`); without it
//! the bench does nothing.

use bvtool::TriMesh;
use bvtool::pose::{Pose, PoseJson};
use bvtool::query::parry_check::ParryPair;
use bvtool::query::{ContactMode, collide};
use bvtool::tree::{DEFAULT_LEAF_SIZE, ObbTree};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::Point3;
use std::hint::black_box;
use std::path::PathBuf;

/// The 69k bunny as a soup, through `bvtool::load` when the OBJ loader is
/// there, else straight through `tobj`.
fn bunny() -> Option<TriMesh> {
    let dir = std::env::var_os("BVTOOL_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models"));
    let path = dir.join("obj/common-3d-test-models/stanford-bunny.obj");
    if let Ok(scene) = bvtool::load::load(&path, &Default::default()) {
        return Some(scene.flatten());
    }
    let (models, _) = tobj::load_obj(&path, &tobj::GPU_LOAD_OPTIONS).ok()?;
    let mut m = TriMesh::default();
    for model in models {
        let base = m.vertices.len() as u32;
        let p = &model.mesh.positions;
        m.vertices.extend(
            p.chunks_exact(3)
                .map(|c| Point3::new(c[0] as f64, c[1] as f64, c[2] as f64)),
        );
        for (k, t) in model.mesh.indices.chunks_exact(3).enumerate() {
            m.triangles.push([base + t[0], base + t[1], base + t[2]]);
            m.sources.push(bvtool::TriangleSource {
                node: None,
                instance: 0,
                mesh: 0,
                primitive: 0,
                triangle: k as u32,
            });
        }
    }
    Some(m)
}

fn poses() -> Vec<Pose> {
    let text = include_str!("data/bunny69k_poses.json");
    let json: Vec<PoseJson> = serde_json::from_str(text).expect("pose file");
    json.iter()
        .map(|p| Pose::from_json(p).expect("pose"))
        .collect()
}

fn bench(c: &mut Criterion) {
    let Some(mesh) = bunny() else {
        eprintln!("no model corpus: skipping");
        return;
    };
    let poses = poses();
    let mut g = c.benchmark_group("bunny69k");
    g.sample_size(10);
    g.bench_function("build", |b| b.iter(|| ObbTree::build(black_box(&mesh))));
    let tree = ObbTree::build(&mesh);
    let run = |t: &ObbTree, mode| {
        poses
            .iter()
            .filter(|p| collide(t, t, p, mode).intersecting)
            .count()
    };
    eprintln!(
        "{} triangles, {} nodes, {:.1} bytes/triangle, {} of {} poses collide",
        mesh.triangles.len(),
        tree.nodes.len(),
        tree.bytes_per_triangle(),
        run(&tree, ContactMode::First),
        poses.len()
    );
    g.bench_function("first_contact_x100", |b| {
        b.iter(|| run(&tree, ContactMode::First))
    });
    g.bench_function("all_contacts_x100", |b| {
        b.iter(|| run(&tree, ContactMode::All))
    });
    let parry = ParryPair::new(&mesh, &mesh).expect("parry mesh");
    g.bench_function("parry_intersection_test_x100", |b| {
        b.iter(|| poses.iter().filter(|p| parry.intersects(p)).count())
    });
    for leaf in [1, 2, 4, 8] {
        if leaf == DEFAULT_LEAF_SIZE {
            continue;
        }
        let t = ObbTree::build_with_leaf_size(&mesh, leaf);
        g.bench_function(format!("first_contact_x100_leaf{leaf}"), |b| {
            b.iter(|| run(&t, ContactMode::First))
        });
        g.bench_function(format!("all_contacts_x100_leaf{leaf}"), |b| {
            b.iter(|| run(&t, ContactMode::All))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
