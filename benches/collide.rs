//! Collision query and tree build on the 69k-triangle Stanford bunny against
//! itself, at the 100 near-boundary poses of `benches/data/bunny69k_poses.json`
//! (made by `shared/peers/make_poses.py … -n 100 --seed 0`). Each iteration
//! runs all 100 poses, so time/100 is the mean per query. parry3d's
//! `intersection_test` on the same poses runs beside it; leaf sizes 1, 2, 4
//! and 8 are compared to choose `DEFAULT_LEAF_SIZE`.
//!
//! Beside criterion's means it prints per-query medians the way
//! `shared/peers/collide_peers.py` reports its peers (each pose timed
//! `REPEAT` times, the median per pose, then the median over poses), so that
//! the figures compare directly.
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
use std::time::Instant;

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
            m.sources
                .push(bvtool::TriangleSource::unplaced(0, k as u32));
        }
    }
    Some(m)
}

/// Repeats per pose for the printed medians, as `collide_peers.py --repeat 5`.
const REPEAT: usize = 5;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The median over poses of the per-pose median time of `f`, in µs.
fn median_per_query(poses: &[Pose], mut f: impl FnMut(&Pose) -> bool) -> f64 {
    let per_pose = poses.iter().map(|p| {
        median(
            (0..REPEAT)
                .map(|_| {
                    let t = Instant::now();
                    black_box(f(black_box(p)));
                    t.elapsed().as_secs_f64() * 1e6
                })
                .collect(),
        )
    });
    median(per_pose.collect())
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
        "{} triangles, {} nodes, {:.1} bytes/triangle (nodes + permutation), {:.1} with the corner copy, {} of {} poses collide",
        mesh.triangles.len(),
        tree.nodes.len(),
        tree.bytes_per_triangle(),
        tree.total_bytes_per_triangle(),
        run(&tree, ContactMode::First),
        poses.len()
    );
    let parry = ParryPair::new(&mesh, &mesh).expect("parry mesh");
    eprintln!(
        "median per query (µs): first contact {:.1}, all contacts {:.1}, parry intersection_test {:.1}; build median of {REPEAT}: {:.1} ms",
        median_per_query(&poses, |p| collide(&tree, &tree, p, ContactMode::First)
            .intersecting),
        median_per_query(&poses, |p| collide(&tree, &tree, p, ContactMode::All)
            .intersecting),
        median_per_query(&poses, |p| parry.intersects(p)),
        median(
            (0..REPEAT)
                .map(|_| {
                    let t = Instant::now();
                    black_box(ObbTree::build(black_box(&mesh)));
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect()
        ),
    );
    g.bench_function("first_contact_x100", |b| {
        b.iter(|| run(&tree, ContactMode::First))
    });
    g.bench_function("all_contacts_x100", |b| {
        b.iter(|| run(&tree, ContactMode::All))
    });
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
