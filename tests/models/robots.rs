//! Real-model robot suite (ignored; run by .ci/run in release), on
//! `urdf/example-robot-data` of the corpus: forward kinematics equals the
//! table of yourdfpy's and Pinocchio's poses (`tests/data/robots/
//! fk_oracle.json`, written by `benches/robots_peers.py fk-oracle`, where
//! the two peers agree within 1e-12; Python's repr keeps their doubles
//! exactly) within 1e-12, and the double pendulum's poses equal hand
//! computed ones; self-collision and self-distance at 10,000 seeded random
//! configurations of the Panda (its SRDF), the UR5 (its SRDF) and the
//! Allegro hand equal the exact pairwise check without the broad phase.

use bvtool::Pose;
use bvtool::query::{ContactMode, DistanceOptions, collide, distance};
use bvtool::robots::{Robot, RobotOptions};
use bvtool_dev as common;
pub(super) use bvtool_dev::robot_oracle::random_configurations;
use nalgebra::{Isometry3, Matrix4};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub(super) fn package() -> Option<PathBuf> {
    Some(common::models_dir()?.join("urdf/example-robot-data"))
}

pub(super) fn robot(pkg: &Path, urdf: &str, srdf: Option<&str>) -> Robot {
    let opts = RobotOptions {
        srdf: srdf.map(|s| pkg.join(s)),
        ..Default::default()
    };
    Robot::from_urdf(&pkg.join(urdf), &opts).unwrap_or_else(|e| panic!("{e}"))
}

#[derive(Deserialize)]
struct OracleRow {
    q: Vec<f64>,
    links: BTreeMap<String, Vec<f64>>,
}

#[derive(Deserialize)]
struct OracleRobot {
    urdf: String,
    joints: Vec<String>,
    configurations: Vec<OracleRow>,
}

#[derive(Deserialize)]
struct Oracle {
    robots: BTreeMap<String, OracleRobot>,
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn forward_kinematics_equals_yourdfpy_and_pinocchio() {
    let Some(pkg) = package() else { return };
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/robots/fk_oracle.json"),
    )
    .unwrap();
    let oracle: Oracle = serde_json::from_str(&text).unwrap();
    assert_eq!(oracle.robots.len(), 4);
    for (name, r) in &oracle.robots {
        let robot = robot(&pkg, &r.urdf, None);
        assert_eq!(robot.joint_names(), r.joints, "{name}: joint order");
        let mut worst: f64 = 0.0;
        for row in &r.configurations {
            let poses = robot.forward_kinematics(&row.q).unwrap();
            assert_eq!(row.links.len(), robot.links.len(), "{name}");
            for (link, m) in &row.links {
                let h = poses[robot.link_index(link).unwrap()].to_homogeneous();
                for (k, v) in m.iter().enumerate() {
                    worst = worst.max((h[(k / 4, k % 4)] - v).abs());
                }
            }
        }
        assert!(worst <= 1e-12, "{name}: {worst:e}");
    }
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn double_pendulum_poses_equal_hand_computed_ones() {
    let Some(pkg) = package() else { return };
    let robot = robot(
        &pkg,
        "robots/double_pendulum_description/urdf/double_pendulum.urdf",
        None,
    );
    // Both joints turn about x: link1 at (0.0060872, 0, 0.035), link2 at
    // (0.023, 0, 0.1) in link1.
    let h = |a: f64, t: [f64; 3]| {
        let (s, c) = a.sin_cos();
        Matrix4::new(
            1.0, 0.0, 0.0, t[0], 0.0, c, -s, t[1], 0.0, s, c, t[2], 0.0, 0.0, 0.0, 1.0,
        )
    };
    for k in 0..200 {
        let q = [0.031 * k as f64 - 3.0, 3.0 - 0.029 * k as f64];
        let poses = robot.forward_kinematics(&q).unwrap();
        let l1 = h(q[0], [0.0060872, 0.0, 0.035]);
        let l2 = l1 * h(q[1], [0.023, 0.0, 0.1]);
        for (name, m) in [("link1", l1), ("link2", l2)] {
            let got: Isometry3<f64> = poses[robot.link_index(name).unwrap()];
            assert!(
                (got.to_homogeneous() - m).amax() <= 1e-15,
                "{name} at {q:?}"
            );
        }
    }
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn self_collision_equals_the_pairwise_check_on_the_corpus_robots() {
    let Some(pkg) = package() else { return };
    // The count: 10,000 a robot (about 19 s for the three).
    let n = 10_000;
    for (urdf, srdf) in [
        (
            "robots/panda_description/urdf/panda.urdf",
            Some("robots/panda_description/srdf/panda.srdf"),
        ),
        (
            "robots/ur_description/urdf/ur5_robot.urdf",
            Some("robots/ur_description/srdf/ur5.srdf"),
        ),
        (
            "robots/allegro_hand_description/urdf/allegro_right_hand.urdf",
            None,
        ),
    ] {
        let robot = robot(&pkg, urdf, srdf);
        let qs = random_configurations(&robot, n, 39);
        let hits = robot.self_collision_batch(&qs, false).unwrap();
        // The distance on every tenth configuration (the pairwise distance
        // without pruning is the slow part).
        let some: Vec<f64> = qs
            .chunks(robot.dof)
            .step_by(10)
            .flatten()
            .copied()
            .collect();
        let dists = robot.self_distance_batch(&some).unwrap();
        let mut colliding = 0;
        for (k, q) in qs.chunks(robot.dof).enumerate() {
            let poses = robot.forward_kinematics(q).unwrap();
            let mut expect = Vec::new();
            let mut least = f64::INFINITY;
            for &(a, b) in &robot.pairs {
                let mut hit = false;
                for sa in &robot.links[a].shapes {
                    for sb in &robot.links[b].shapes {
                        let r = (poses[a] * sa.origin).inverse() * (poses[b] * sb.origin);
                        let pose = Pose::new(r.translation.vector, r.rotation);
                        let (ta, tb) = (&robot.trees[sa.tree], &robot.trees[sb.tree]);
                        hit |= collide(ta, tb, &pose, ContactMode::First).intersecting;
                        if k % 10 == 0 {
                            let d = distance(ta, tb, &pose, &DistanceOptions::default()).unwrap();
                            least = least.min(d.distance);
                        }
                    }
                }
                if hit {
                    expect.push((a, b));
                }
            }
            assert_eq!(hits[k].pairs, expect, "{urdf}: configuration {k} {q:?}");
            colliding += usize::from(!expect.is_empty());
            if k % 10 == 0 {
                let d = dists[k / 10].unwrap();
                assert!(
                    (d.distance - least).abs() <= d.rounding_bound + 1e-15,
                    "{urdf}: configuration {k}: {} vs {least}",
                    d.distance
                );
            }
        }
        eprintln!(
            "{urdf}: {colliding} of {n} configurations collide, {} pairs",
            robot.pairs.len()
        );
        assert!(colliding > 0, "{urdf}: no configuration collides");
    }
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn acm_never_pairs_of_the_panda_and_ur5_never_collide_in_independent_samples() {
    use bvtool::robots::{AcmOptions, AcmReason};
    use bvtool_dev::robot_oracle::link_pair;
    let Some(pkg) = package() else { return };
    for (urdf, n) in [
        ("robots/panda_description/urdf/panda.urdf", 20_000),
        ("robots/ur_description/urdf/ur5_robot.urdf", 20_000),
    ] {
        let robot = robot(&pkg, urdf, None);
        let opts = AcmOptions {
            samples: n,
            seed: 39,
            min_distance: false,
            ..Default::default()
        };
        let acm = robot.generate_acm(&opts, None).unwrap();
        let never: Vec<_> = acm
            .pairs
            .iter()
            .filter(|p| p.reason == Some(AcmReason::Never))
            .collect();
        assert!(!never.is_empty(), "{urdf}");
        // Default pairs collide at the default configuration, exactly.
        let default = robot
            .forward_kinematics(&robot.default_configuration())
            .unwrap();
        for p in &acm.pairs {
            if p.reason == Some(AcmReason::Default) {
                assert!(link_pair(&robot, &default, p.links, false).0, "{urdf}");
            }
        }
        let qs = random_configurations(&robot, n as usize, 40);
        for q in qs.chunks(robot.dof) {
            let poses = robot.forward_kinematics(q).unwrap();
            for p in &never {
                let (hit, _) = link_pair(&robot, &poses, p.links, false);
                assert!(!hit, "{urdf}: {}–{} collides at {q:?}", p.link1, p.link2);
            }
        }
        eprintln!(
            "{urdf}: {} Never pairs, none colliding in {n} further samples",
            never.len()
        );
    }
}
