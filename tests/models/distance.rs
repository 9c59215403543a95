//! Real-model distance suite (ignored; run by .ci/run in release): on the
//! corpus' collision pairs and the 69k bunny, at the recorded near-contact
//! poses of `tests/data/distance_peers/`, the tree's minimum distance equals
//! FCL's and coal's (recorded with `shared/peers/distance_peers.py`, exact
//! settings) within 1e-9 relative on every pose they find apart, and is 0
//! and "intersecting" exactly where they find contact; on the small pairs it
//! equals brute force over every triangle pair, and the clearance query's
//! pairs equal brute force's pairs within D.

use bvtool_dev as common;

use bvtool::TriMesh;
use bvtool::pose::{Pose, PoseJson};
use bvtool::query::pair::distance_triangle_triangle::{bounds_gap, triangle_distance};
use bvtool::query::{
    ContactMode, DistanceOptions, DistanceScratch, Placement, brute_force_distance, distance_with,
    within,
};
use bvtool::tree::ObbTree;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct PeerPose {
    #[serde(flatten)]
    pose: PoseJson,
    fcl: f64,
    coal: f64,
}

#[derive(Deserialize)]
struct PeerFile {
    a: String,
    b: String,
    poses: Vec<PeerPose>,
}

fn peer_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/distance_peers");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("peer data")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
}

fn load(dir: &Path, rel: &str) -> TriMesh {
    bvtool::load::load(&dir.join(rel), &Default::default())
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
        .flatten()
}

struct Case {
    name: String,
    a: TriMesh,
    b: TriMesh,
    ta: ObbTree,
    tb: ObbTree,
    poses: Vec<(Pose, [f64; 2])>,
}

fn cases(dir: &Path) -> Vec<Case> {
    peer_files()
        .iter()
        .map(|f| {
            let doc: PeerFile =
                serde_json::from_str(&std::fs::read_to_string(f).expect("read")).expect("parse");
            let (a, b) = (load(dir, &doc.a), load(dir, &doc.b));
            Case {
                name: f.file_stem().unwrap().to_string_lossy().into(),
                ta: ObbTree::build(&a),
                tb: ObbTree::build(&b),
                a,
                b,
                poses: doc
                    .poses
                    .iter()
                    .map(|p| (Pose::from_json(&p.pose).expect("pose"), [p.fcl, p.coal]))
                    .collect(),
            }
        })
        .collect()
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn distance_equals_fcl_and_coal_on_corpus_pairs() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let mut scratch = DistanceScratch::default();
    for case in cases(&dir) {
        let (mut apart, mut worst) = (0, 0.0f64);
        for (k, (pose, peers)) in case.poses.iter().enumerate() {
            let d = distance_with(
                &mut scratch,
                &case.ta,
                &case.tb,
                pose,
                &DistanceOptions::default(),
            )
            .unwrap();
            for theirs in peers {
                if d.intersecting {
                    assert!(
                        *theirs <= 0.0,
                        "{} pose {k}: we touch, a peer says {theirs}",
                        case.name
                    );
                    assert_eq!(d.distance, 0.0);
                } else {
                    assert!(
                        *theirs > 0.0,
                        "{} pose {k}: a peer touches, we say {}",
                        case.name,
                        d.distance
                    );
                    let rel = (theirs - d.distance).abs() / theirs;
                    assert!(
                        rel <= 1e-9,
                        "{} pose {k}: {} vs peer {theirs}",
                        case.name,
                        d.distance
                    );
                    worst = worst.max(rel);
                }
            }
            apart += usize::from(!d.intersecting);
        }
        assert!(
            (30..=70).contains(&apart),
            "{}: {apart} of 100 apart",
            case.name
        );
        eprintln!(
            "{}: {apart} poses apart, worst relative difference to FCL/coal {worst:.1e}",
            case.name
        );
    }
}

/// Brute force over every triangle pair (meshes of at most 16 million
/// pairs), at every recorded pose: the same distance, the same "touching";
/// and at a few poses the clearance query's pairs within D (1% of the
/// distance scale) equal brute force's.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn distance_and_clearance_equal_brute_force_on_small_pairs() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let mut scratch = DistanceScratch::default();
    for case in cases(&dir) {
        if case.a.triangles.len() * case.b.triangles.len() > 16_000_000 {
            continue;
        }
        for (k, (pose, _)) in case.poses.iter().enumerate() {
            let d = distance_with(
                &mut scratch,
                &case.ta,
                &case.tb,
                pose,
                &DistanceOptions::default(),
            )
            .unwrap();
            let want = brute_force_distance(&case.a, &case.b, pose).unwrap();
            assert_eq!(d.intersecting, want.intersecting, "{} pose {k}", case.name);
            assert!(
                (d.distance - want.distance).abs() <= want.rounding_bound,
                "{} pose {k}: {} vs brute force {}",
                case.name,
                d.distance,
                want.distance
            );
            if k % 25 == 1 {
                // A clearance that catches a few pairs: a little above the
                // minimum.
                let clearance = want.distance * 1.5 + 1e-6;
                let place = Placement::new(pose);
                let tb: Vec<_> = (0..case.b.triangles.len())
                    .map(|j| place.triangle(&case.b.triangle(j)))
                    .collect();
                let mut expect = Vec::new();
                for i in 0..case.a.triangles.len() {
                    let ta = case.a.triangle(i);
                    for (j, t) in tb.iter().enumerate() {
                        if bounds_gap(&ta, t) <= clearance
                            && triangle_distance(&ta, t).distance <= clearance
                        {
                            expect.push((i as u32, j as u32));
                        }
                    }
                }
                let got = within(&case.ta, &case.tb, pose, clearance, ContactMode::All);
                let got: Vec<_> = got.pairs.iter().map(|p| (p.a, p.b)).collect();
                assert_eq!(
                    got, expect,
                    "{} pose {k}: pairs within {clearance}",
                    case.name
                );
                assert!(!got.is_empty());
            }
        }
        eprintln!(
            "{}: {} poses equal brute force",
            case.name,
            case.poses.len()
        );
    }
}
