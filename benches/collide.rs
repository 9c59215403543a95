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
//! The `node_fit` group sets the two ways of fitting node boxes
//! ([`NodeFit`]) side by side on four pairs of different shapes and sizes —
//! the bunny, `2CylinderEngine` (CAD), a KUKA iiwa14 link pair and the duck
//! against the teddy's convex parts — at their `benches/data` poses: build,
//! first and all contacts, each tree's medians printed as above.
//!
//! Needs the model corpus (`BVTOOL_MODELS` or `../shared/models`); without it
//! the bench does nothing.

mod common;

use bvtool::check::parry::ParryPair;
use bvtool::pose::Pose;
use bvtool::query::{ContactMode, collide};
use bvtool::tree::{DEFAULT_LEAF_SIZE, NodeFit, ObbTree};
use common::{PAIRS, REPEAT, median_ms, median_per_query, model, poses};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let Some(mesh) = model("obj/common-3d-test-models/stanford-bunny.obj") else {
        eprintln!("no model corpus: skipping");
        return;
    };
    let poses = poses("bunny69k_poses.json");
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
        "{} triangles, {} nodes, {:.1} bytes/triangle structure, {:.1} all-in, {} of {} poses collide",
        mesh.triangles.len(),
        tree.nodes.len(),
        tree.bytes_per_triangle(),
        tree.total_bytes_per_triangle(),
        run(&tree, ContactMode::First),
        poses.len()
    );
    let parry = ParryPair::new(&mesh, &mesh).expect("parry mesh");
    let [first, all] = contact_medians(&tree, &tree, &poses);
    eprintln!(
        "median per query (µs): first contact {:.1}, all contacts {:.1}, parry intersection_test {:.1}; build median of {REPEAT}: {:.1} ms",
        first,
        all,
        median_per_query(&poses, |p| parry.intersects(p)),
        median_ms(|| ObbTree::build(black_box(&mesh))),
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

/// Median per query (µs) of first and of all contacts at `poses`.
fn contact_medians(a: &ObbTree, b: &ObbTree, poses: &[Pose]) -> [f64; 2] {
    [ContactMode::First, ContactMode::All]
        .map(|mode| median_per_query(poses, |p| collide(a, b, p, mode).intersecting))
}

fn node_fit(c: &mut Criterion) {
    let mut g = c.benchmark_group("node_fit");
    g.sample_size(10);
    for (name, a, b, file) in PAIRS {
        let (Some(ma), Some(mb)) = (model(a), model(b)) else {
            eprintln!("no model corpus: skipping");
            return;
        };
        let poses = poses(file);
        for fit in [NodeFit::Quick, NodeFit::Flush] {
            let build = |m| ObbTree::build_default(m, fit);
            let (ta, tb) = (build(&ma), build(&mb));
            let run = |mode| {
                poses
                    .iter()
                    .filter(|p| collide(&ta, &tb, p, mode).intersecting)
                    .count()
            };
            let [first, all] = contact_medians(&ta, &tb, &poses);
            eprintln!(
                "{name} {fit:?}: median per query (µs) first contact {first:.1}, all contacts {all:.1}; build of A median of {REPEAT}: {:.1} ms",
                median_ms(|| build(black_box(&ma))),
            );
            g.bench_function(format!("{name}_{fit:?}_build"), |b| {
                b.iter(|| build(black_box(&ma)))
            });
            g.bench_function(
                format!("{name}_{fit:?}_first_contact_x{}", poses.len()),
                |b| b.iter(|| run(ContactMode::First)),
            );
            g.bench_function(
                format!("{name}_{fit:?}_all_contacts_x{}", poses.len()),
                |b| b.iter(|| run(ContactMode::All)),
            );
        }
    }
    g.finish();
}

criterion_group!(benches, bench, node_fit);
criterion_main!(benches);
