//! What the query benches share: corpus models, pose files, and per-query
//! medians computed as `shared/peers/*_peers.py` compute them (each pose
//! timed `REPEAT` times, the median per pose, then the median over poses),
//! so that the figures compare directly with the peers'.
#![allow(dead_code)]

use bvtool::TriMesh;
use bvtool::pose::{Pose, PoseJson};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

/// The four bench pairs, of different shapes and sizes: name, mesh A,
/// mesh B, pose file in `benches/data`.
pub const PAIRS: [(&str, &str, &str, &str); 4] = [
    (
        "bunny69k",
        "obj/common-3d-test-models/stanford-bunny.obj",
        "obj/common-3d-test-models/stanford-bunny.obj",
        "bunny69k_poses.json",
    ),
    (
        "engine",
        "gltf/2CylinderEngine/glTF/2CylinderEngine.gltf",
        "gltf/2CylinderEngine/glTF/2CylinderEngine.gltf",
        "engine_poses.json",
    ),
    (
        "kuka14",
        "obj/mujoco_menagerie/kuka_iiwa_14/assets/link_1.obj",
        "obj/mujoco_menagerie/kuka_iiwa_14/assets/link_2_grey.obj",
        "kuka14_link1_link2_poses.json",
    ),
    (
        "duck_teddy",
        "obj/pybullet/duck.obj",
        "obj/pybullet/teddy2_VHACD_CHs.obj",
        "duck_teddy_poses.json",
    ),
];

/// Repeats per pose for the printed medians, as the peers' `--repeat 5`.
pub const REPEAT: usize = 5;

/// A corpus model (`BVTOOL_MODELS` or `../shared/models`), flattened;
/// `None` without the corpus.
pub fn model(rel: &str) -> Option<TriMesh> {
    let dir = std::env::var_os("BVTOOL_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models"));
    let scene = bvtool::load::load(&dir.join(rel), &Default::default()).ok()?;
    Some(scene.flatten())
}

/// The poses of a file in `benches/data`.
pub fn poses(file: &str) -> Vec<Pose> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("benches/data")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("pose file");
    let json: Vec<PoseJson> = serde_json::from_str(&text).expect("pose file");
    json.iter()
        .map(|p| Pose::from_json(p).expect("pose"))
        .collect()
}

pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The median of `REPEAT` timed calls of `f`, in milliseconds.
pub fn median_ms<T>(mut f: impl FnMut() -> T) -> f64 {
    median(
        (0..REPEAT)
            .map(|_| {
                let t = Instant::now();
                black_box(f());
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    )
}

/// The median over poses of the per-pose median time of `f`, in µs.
pub fn median_per_query<T>(poses: &[Pose], mut f: impl FnMut(&Pose) -> T) -> f64 {
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
