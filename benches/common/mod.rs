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
