//! Clash detection and self-intersection, end to end, on corpus models: the
//! figures compared with trimesh + FCL (`../shared/peers/clash_peers.py`)
//! and CGAL's `self_intersections` (`../shared/peers/cgal`) measured in the
//! same sitting.
//!
//! - `clash/NAME`: load the file, group parts by primitive (trimesh's
//!   objects), build the trees, find every clashing pair with its kind and
//!   triangle-pair count — against trimesh's build + `in_collision_internal`.
//! - `clash_depth/NAME`: the same with each intersecting and contained
//!   pair's depth measured (`ClashOptions::depth`, the command's default),
//!   against `clash/NAME`: what the severity costs.
//! - `self/NAME`: weld, build the tree and find every self-intersecting pair
//!   of the loaded, flattened mesh — against CGAL's sequential
//!   `self_intersections` call (its mesh already built, as here the file is
//!   already loaded).
//! - `broad/NAME`: the broad phase alone, sweep and prune against testing
//!   every pair of boxes, on the scenes' primitive boxes.
//!
//! Needs the model corpus (`BVTOOL_MODELS` or `../shared/models`); without it
//! the benches are skipped.

use bvtool::clash::broad::{boxes_overlap, overlapping_pairs};
use bvtool::clash::{ClashDepth, ClashOptions, ClashScene, Grouping, self_intersections};
use bvtool::load::load;
use bvtool::tree::AabbTree;
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use std::time::Duration;

fn models() -> Option<PathBuf> {
    let dir = std::env::var_os("BVTOOL_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models"));
    dir.join("manifest.json").is_file().then_some(dir)
}

const SCENES: [(&str, &str); 2] = [
    (
        "2CylinderEngine",
        "gltf/2CylinderEngine/glTF-Binary/2CylinderEngine.glb",
    ),
    (
        "ReciprocatingSaw",
        "gltf/ReciprocatingSaw/glTF-Binary/ReciprocatingSaw.glb",
    ),
];

const MESHES: [(&str, &str); 3] = [
    ("bunny69k", "obj/common-3d-test-models/stanford-bunny.obj"),
    ("nefertiti100k", "obj/common-3d-test-models/nefertiti.obj"),
    ("samurai125k", "obj/pybullet/samurai_monastry.obj"),
];

fn bench(c: &mut Criterion) {
    let Some(dir) = models() else {
        eprintln!("skipping: no model corpus");
        return;
    };
    let mut g = c.benchmark_group("clash");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for (name, rel) in SCENES {
        let path = dir.join(rel);
        g.bench_function(name, |b| {
            b.iter(|| {
                let scenes = [load(&path, &Default::default()).unwrap()];
                let cs = ClashScene::new(&scenes, &[rel.to_string()], Grouping::Primitive);
                cs.clashes(&ClashOptions::default()).unwrap().clashes.len()
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("clash_depth");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for (name, rel) in SCENES {
        let path = dir.join(rel);
        let opts = ClashOptions {
            depth: Some(ClashDepth::default()),
            ..Default::default()
        };
        g.bench_function(name, |b| {
            b.iter(|| {
                let scenes = [load(&path, &Default::default()).unwrap()];
                let cs = ClashScene::new(&scenes, &[rel.to_string()], Grouping::Primitive);
                cs.clashes(&opts).unwrap().clashes.len()
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("broad");
    for (name, rel) in SCENES {
        let scenes = [load(&dir.join(rel), &Default::default()).unwrap()];
        let cs = ClashScene::new(&scenes, &[rel.to_string()], Grouping::Primitive);
        let boxes = &cs.boxes;
        g.bench_function(format!("{name}/sweep_and_prune"), |b| {
            b.iter(|| overlapping_pairs(boxes, |_, _| true).len())
        });
        g.bench_function(format!("{name}/all_pairs"), |b| {
            b.iter(|| {
                let mut n = 0;
                for i in 0..boxes.len() {
                    for j in i + 1..boxes.len() {
                        n += boxes_overlap(&boxes[i], &boxes[j]) as usize;
                    }
                }
                n
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("self");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for (name, rel) in MESHES {
        let mesh = load(&dir.join(rel), &Default::default()).unwrap().flatten();
        g.bench_function(name, |b| {
            b.iter(|| {
                let tree = AabbTree::build(&mesh);
                self_intersections(&tree).pairs.len()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
