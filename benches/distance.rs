//! Minimum distance and first-within-D clearance on four corpus pairs of
//! different shapes and sizes, at the near-contact poses of `benches/data`
//! (made by `shared/peers/make_poses.py A B -n 100 --seed 0`: half touching,
//! half pushed apart by up to 1% of the models' size):
//!
//! | pair | triangles | poses |
//! |---|---|---|
//! | 69k Stanford bunny vs itself | 69,451 × 2 | `bunny69k_poses.json` |
//! | `gltf/2CylinderEngine` vs itself (34 parts) | 121,496 × 2 | `engine_poses.json` |
//! | KUKA iiwa 14 `link_1` vs `link_2_grey` (robot links) | 9,924 × 7,375 | `kuka14_link1_link2_poses.json` |
//! | pybullet `duck` vs `teddy2_VHACD_CHs` | 4,212 × 2,432 | `duck_teddy_poses.json` |
//!
//! It prints, per pair, the per-query medians over the *separated* poses
//! (where the peers' distance is defined and positive) the way
//! `shared/peers/distance_peers.py` reports FCL and coal: distance, the
//! first-within-D clearance with D = 1% of the larger AABB diagonal, and
//! first contact on the same poses — then criterion times each over all
//! separated poses. Needs the model corpus; without it the bench does nothing.

mod common;

use bvtool::TriMesh;
use bvtool::fit::Aabb;
use bvtool::query::{
    ContactMode, DistanceOptions, DistanceScratch, collide, distance_with, within,
};
use bvtool::tree::ObbTree;
use common::{PAIRS, median_per_query, model, poses};
use criterion::{Criterion, criterion_group, criterion_main};

fn diagonal(m: &TriMesh) -> f64 {
    Aabb::from_points(&m.vertices).map_or(0.0, |b| (b.max - b.min).norm())
}

fn bench(c: &mut Criterion) {
    for (name, a_path, b_path, pose_file) in PAIRS {
        let (Some(a), Some(b)) = (model(a_path), model(b_path)) else {
            eprintln!("no model corpus: skipping {name}");
            continue;
        };
        let (ta, tb) = (ObbTree::build(&a), ObbTree::build(&b));
        let exact = DistanceOptions::default();
        let mut scratch = DistanceScratch::default();
        let separated: Vec<_> = poses(pose_file)
            .into_iter()
            .filter(|p| !collide(&ta, &tb, p, ContactMode::First).intersecting)
            .collect();
        let d = 0.01 * diagonal(&a).max(diagonal(&b));
        let within_d = separated
            .iter()
            .filter(|p| within(&ta, &tb, p, d, ContactMode::First).within)
            .count();
        eprintln!(
            "{name}: {} × {} triangles, {} separated poses ({within_d} within D = {d:.4e}); median per query (µs): distance {:.1}, first within D {:.1}, first contact {:.1}",
            a.triangles.len(),
            b.triangles.len(),
            separated.len(),
            median_per_query(&separated, |p| distance_with(
                &mut scratch,
                &ta,
                &tb,
                p,
                &exact
            )),
            median_per_query(&separated, |p| within(&ta, &tb, p, d, ContactMode::First)
                .within),
            median_per_query(&separated, |p| collide(&ta, &tb, p, ContactMode::First)
                .intersecting),
        );
        let mut g = c.benchmark_group(name);
        g.sample_size(10);
        g.bench_function("distance_separated", |bch| {
            bch.iter(|| {
                separated
                    .iter()
                    .map(|p| {
                        distance_with(&mut scratch, &ta, &tb, p, &exact)
                            .unwrap()
                            .distance
                    })
                    .sum::<f64>()
            })
        });
        g.bench_function("first_within_d_separated", |bch| {
            bch.iter(|| {
                separated
                    .iter()
                    .filter(|p| within(&ta, &tb, p, d, ContactMode::First).within)
                    .count()
            })
        });
        g.bench_function("first_contact_separated", |bch| {
            bch.iter(|| {
                separated
                    .iter()
                    .filter(|p| collide(&ta, &tb, p, ContactMode::First).intersecting)
                    .count()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
