//! Distances on request: every tested link pair's distance
//! (`Robot::self_distance_pairs`) against the unpruned pairwise distance
//! of `bvtool_dev::robot_oracle` (every shape pair, no ball test, no
//! clearance pruning), and the robot-to-world distance
//! (`Robot::world_distance`) against the minimum of the exact `distance`
//! over every (link shape, body shape) pair without any broad phase, 0
//! where the oracle's nested-solids test finds one inside the other; and
//! the command's JSON equal to the library's answers.

use super::arm::{ARM, random_configurations, temp_dir, write_arm};
use super::world::{Arm, arm_among_boxes, corners};
use bvtool::Pose;
use bvtool::fit::Aabb;
use bvtool::query::point::solid::TreeSolid;
use bvtool::query::{DistanceOptions, distance};
use bvtool::robots::{Robot, RobotOptions};
use bvtool::tree::ObbTree;
use bvtool::world::placed_box;
use bvtool_dev::bvtool;
use bvtool_dev::oracle::nested;
use bvtool_dev::robot_oracle::link_pair;
use nalgebra::Isometry3;
use rand::SeedableRng;
use serde_json::Value;

#[test]
fn every_pair_distance_equals_the_unpruned_pairwise_distance() {
    let dir = temp_dir("pair-distance");
    let urdf = write_arm(&dir, ARM);
    let robot = Robot::from_urdf(&urdf, &RobotOptions::default()).unwrap();
    let qs = random_configurations(&robot, 300, 7);
    let per_pair = robot.self_distance_pairs_batch(&qs).unwrap();
    let least = robot.self_distance_batch(&qs).unwrap();
    let (mut touching, mut apart) = (0, 0);
    for (k, q) in qs.chunks(robot.dof).enumerate() {
        let poses = robot.forward_kinematics(q).unwrap();
        let got = &per_pair[k];
        assert_eq!(got.len(), robot.pairs.len());
        assert_eq!(*got, robot.self_distance_pairs(q).unwrap(), "{k}");
        for (d, &pair) in got.iter().zip(&robot.pairs) {
            assert_eq!(d.pair, pair);
            let (hit, want) = link_pair(&robot, &poses, pair, true);
            assert_eq!(d.distance == 0.0, hit, "configuration {k}, pair {pair:?}");
            assert!(
                (d.distance - want).abs() <= d.rounding_bound + 1e-15,
                "configuration {k}, pair {pair:?}: {} vs {want}",
                d.distance
            );
            assert!(((d.point_a - d.point_b).norm() - d.distance).abs() <= 1e-12);
            touching += usize::from(hit);
            apart += usize::from(!hit);
        }
        // The least over the pairs is the self-distance.
        let min = got.iter().min_by(|a, b| a.distance.total_cmp(&b.distance));
        let (min, sd) = (min.unwrap(), least[k].unwrap());
        assert!(
            (min.distance - sd.distance).abs() <= min.rounding_bound + sd.rounding_bound,
            "configuration {k}: {} vs {}",
            min.distance,
            sd.distance
        );
    }
    assert!(
        touching > 20 && apart > 1000,
        "{touching} touching, {apart} apart"
    );
    // The command's `pair_distances` are the library's.
    let rows: Vec<Vec<f64>> = qs.chunks(robot.dof).take(20).map(<[f64]>::to_vec).collect();
    let configs = dir.join("q.json");
    std::fs::write(&configs, serde_json::to_string(&rows).unwrap()).unwrap();
    let (u, c) = (urdf.to_str().unwrap(), configs.to_str().unwrap());
    let args = [
        "robot",
        u,
        "--check",
        c,
        "--distance",
        "--per-pair",
        "--json",
    ];
    let (code, out, err) = bvtool!(&args);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    for (k, g) in doc["configurations"].as_array().unwrap().iter().enumerate() {
        let list = g["pair_distances"].as_array().unwrap();
        assert_eq!(list.len(), robot.pairs.len());
        for (e, d) in list.iter().zip(&per_pair[k]) {
            assert_eq!(e["link1"], robot.links[d.pair.0].name.as_str());
            assert_eq!(e["link2"], robot.links[d.pair.1].name.as_str());
            assert_eq!(e["distance"], d.distance);
            assert_eq!(e["rounding_bound"], d.rounding_bound);
        }
    }
    // --per-pair needs --distance: a usage error.
    let (code, _, _) = bvtool!(&["robot", u, "--check", c, "--per-pair"]);
    assert_eq!(code, 2);
}

#[test]
fn world_distance_equals_the_pairwise_distance_without_broad_phase() {
    let Arm {
        dir,
        urdf,
        robot,
        scene_path,
        scene,
        world,
    } = arm_among_boxes("world-distance");
    // One tree per body over its triangles as the loader places them (the
    // world frame), independent of the world's own trees and poses.
    let bodies: Vec<ObbTree> = scene.instances.iter().map(bvtool_dev::world_tree).collect();
    let body_tris: Vec<_> = bodies.iter().map(corners).collect();
    let body_boxes: Vec<_> = (bodies.iter())
        .map(|b| placed_box(b, &Isometry3::identity()).unwrap())
        .collect();
    let overlap = |x: &Aabb, y: &Aabb| (0..3).all(|k| x.min[k] <= y.max[k] && y.min[k] <= x.max[k]);
    let qs = random_configurations(&robot, 200, 17);
    let got = robot.world_distance_batch(&qs, &world).unwrap();
    let hits = robot.world_collision_batch(&qs, &world, true).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(18);
    let (mut zero, mut nested_only) = (0, 0);
    for (k, q) in qs.chunks(robot.dof).enumerate() {
        let poses = robot.forward_kinematics(q).unwrap();
        let mut want = f64::INFINITY;
        let mut by_pair = std::collections::HashMap::new();
        for (l, link) in robot.links.iter().enumerate() {
            for s in &link.shapes {
                let r = poses[l] * s.origin;
                let pose = Pose::new(r.translation.vector, r.rotation);
                let tree = &robot.trees[s.tree];
                for (b, body) in bodies.iter().enumerate() {
                    let d = distance(body, tree, &pose, &DistanceOptions::default()).unwrap();
                    want = want.min(d.distance);
                    let e = by_pair.entry((l, b)).or_insert(f64::INFINITY);
                    *e = d.distance.min(*e);
                }
            }
        }
        if want > 0.0 {
            // Solids: a link shape inside a box, or a box inside a link
            // (only where their boxes overlap can one hold the other).
            let inside = robot.links.iter().enumerate().any(|(l, link)| {
                link.shapes.iter().any(|s| {
                    let r = poses[l] * s.origin;
                    let pose = Pose::new(r.translation.vector, r.rotation);
                    let tree = &robot.trees[s.tree];
                    let boxed = placed_box(tree, &r).unwrap();
                    let near: Vec<_> = (0..bodies.len())
                        .filter(|&b| overlap(&boxed, &body_boxes[b]))
                        .collect();
                    if near.is_empty() {
                        return false;
                    }
                    let placed: Vec<_> = corners(tree)
                        .iter()
                        .map(|t| t.map(|c| pose.transform_point(&c)))
                        .collect();
                    let closed = TreeSolid::new(tree).closed;
                    near.iter()
                        .any(|&b| nested(&body_tris[b], true, &placed, closed, &mut rng))
                })
            });
            if inside {
                want = 0.0;
                nested_only += 1;
            }
        }
        let d = got[k].unwrap();
        assert_eq!(d, robot.world_distance(q, &world).unwrap().unwrap());
        assert_eq!(
            d.distance == 0.0,
            want == 0.0,
            "configuration {k}: {d:?}, want {want}"
        );
        assert_eq!(d.distance == 0.0, !hits[k].is_empty(), "configuration {k}");
        assert!(
            (d.distance - want).abs() <= d.rounding_bound + 1e-15,
            "configuration {k}: {} vs {want}",
            d.distance
        );
        if want > 0.0 {
            // The link and body named are at that distance.
            let named = by_pair[&(d.link, d.body)];
            assert!(
                (named - d.distance).abs() <= d.rounding_bound + 1e-15,
                "{k}"
            );
            assert!(((d.point_link - d.point_body).norm() - d.distance).abs() <= 1e-12);
        }
        zero += usize::from(want == 0.0);
    }
    assert!(
        zero > 20 && zero < 180,
        "{zero} of 200 at 0 ({nested_only} by containment)"
    );
    // The command's `world_distance` is the library's.
    let rows: Vec<Vec<f64>> = qs.chunks(robot.dof).take(20).map(<[f64]>::to_vec).collect();
    let configs = dir.join("q.json");
    std::fs::write(&configs, serde_json::to_string(&rows).unwrap()).unwrap();
    let (code, out, err) = bvtool!(&[
        "robot",
        urdf.to_str().unwrap(),
        "--check",
        configs.to_str().unwrap(),
        "--world",
        scene_path.to_str().unwrap(),
        "--distance",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    for (k, g) in doc["configurations"].as_array().unwrap().iter().enumerate() {
        let (w, d) = (&g["world_distance"], got[k].unwrap());
        assert_eq!(w["distance"], d.distance);
        assert_eq!(w["link"], robot.links[d.link].name.as_str());
        assert_eq!(w["body"], world.bodies()[d.body].name.as_str());
    }
}
