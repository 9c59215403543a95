//! Self-collision and self-distance against the exact pairwise check
//! without the broad phase: every tested link pair, every pair of their
//! shapes, queried with bvtool's exact `collide` and `distance` at the
//! relative pose of the link poses (no ball test, no early exit).

use super::arm::{ARM, random_configurations, temp_dir, write_arm};
use bvtool::Pose;
use bvtool::query::{ContactMode, DistanceOptions, collide, distance};
use bvtool::robots::{Robot, RobotOptions};
use nalgebra::Isometry3;

fn relative(a: &Isometry3<f64>, b: &Isometry3<f64>) -> Pose {
    let r = a.inverse() * b;
    Pose::new(r.translation.vector, r.rotation)
}

/// The colliding link pairs, and the least distance, by every shape pair.
fn pairwise(robot: &Robot, q: &[f64]) -> (Vec<(usize, usize)>, f64) {
    let poses = robot.forward_kinematics(q).unwrap();
    let mut hits = Vec::new();
    let mut least = f64::INFINITY;
    for &(a, b) in &robot.pairs {
        let mut hit = false;
        for sa in &robot.links[a].shapes {
            for sb in &robot.links[b].shapes {
                let pose = relative(&(poses[a] * sa.origin), &(poses[b] * sb.origin));
                let (ta, tb) = (&robot.trees[sa.tree], &robot.trees[sb.tree]);
                hit |= collide(ta, tb, &pose, ContactMode::All).intersecting;
                let d = distance(ta, tb, &pose, &DistanceOptions::default()).unwrap();
                least = least.min(d.distance);
            }
        }
        if hit {
            hits.push((a, b));
        }
    }
    (hits, least)
}

#[test]
fn arm_self_collision_equals_the_pairwise_check_without_broad_phase() {
    let dir = temp_dir("self-collision");
    let robot = Robot::from_urdf(&write_arm(&dir, ARM), &RobotOptions::default()).unwrap();
    // 7 links with shapes (tool_frame has none). Adjacent: hand and palm
    // (one body through a fixed joint); base–upper, upper–fore, fore–hand,
    // fore–palm, and each finger with hand and palm (moving joints).
    assert_eq!(
        robot.links.iter().filter(|l| !l.shapes.is_empty()).count(),
        7
    );
    assert_eq!(robot.adjacent_pairs, 9);
    assert_eq!(robot.pairs.len(), 21 - 9);
    let qs = random_configurations(&robot, 400, 2);
    let all = robot.self_collision_batch(&qs, false).unwrap();
    let first = robot.self_collision_batch(&qs, true).unwrap();
    let dist = robot.self_distance_batch(&qs).unwrap();
    let (mut colliding, mut pruned) = (0, 0);
    for (k, q) in qs.chunks(robot.dof).enumerate() {
        let (hits, least) = pairwise(&robot, q);
        assert_eq!(all[k].pairs, hits, "configuration {k}: {q:?}");
        assert_eq!(first[k].pairs.first(), hits.first(), "configuration {k}");
        let d = dist[k].unwrap();
        assert_eq!(d.distance == 0.0, !hits.is_empty(), "configuration {k}");
        assert!(
            (d.distance - least).abs() <= d.rounding_bound + 1e-15,
            "configuration {k}: {} vs {least}",
            d.distance
        );
        // The witness points are on the pair's links and `distance` apart.
        assert!(((d.point_a - d.point_b).norm() - d.distance).abs() <= 1e-12);
        colliding += !hits.is_empty() as usize;
        pruned += usize::from((all[k].narrow_tests as usize) < robot.pairs.len());
    }
    // Both answers occur, and the broad phase did prune.
    assert!((10..390).contains(&colliding), "{colliding} of 400 collide");
    assert!(pruned > 200, "the balls pruned in {pruned} configurations");
}

#[test]
fn srdf_pairs_are_left_out() {
    let dir = temp_dir("srdf");
    let urdf = write_arm(&dir, ARM);
    std::fs::write(
        dir.join("arm.srdf"),
        r#"<robot name="arm">
  <disable_collisions link1="finger_b" link2="finger_a" reason="Never"/>
  <disable_collisions link1="base" link2="hand" reason="Never"/>
  <disable_collisions link1="base" link2="nowhere" reason="Never"/>
</robot>"#,
    )
    .unwrap();
    let opts = RobotOptions {
        srdf: Some(dir.join("arm.srdf")),
        ..Default::default()
    };
    let robot = Robot::from_urdf(&urdf, &opts).unwrap();
    assert_eq!(robot.disabled_pairs, 2);
    assert_eq!(robot.pairs.len(), 21 - 9 - 2);
    let id = |n: &str| robot.link_index(n).unwrap();
    for (a, b) in [("finger_a", "finger_b"), ("base", "hand")] {
        let p = (id(a).min(id(b)), id(a).max(id(b)));
        assert!(!robot.pairs.contains(&p), "{a}-{b}");
    }
    assert!(
        robot.notes.iter().any(|n| n.contains("'nowhere'")),
        "{:?}",
        robot.notes
    );
}

#[test]
fn one_tree_per_distinct_geometry_and_notes_for_what_is_skipped() {
    let dir = temp_dir("distinct");
    // The two finger boxes are one geometry; the visual .dae is noted.
    let robot = Robot::from_urdf(&write_arm(&dir, ARM), &RobotOptions::default()).unwrap();
    assert_eq!(
        robot.trees.len(),
        7,
        "base, cylinder, capsule, block, sphere, palm, finger"
    );
    assert_eq!(robot.mesh_files, 1);
    assert!(
        robot.notes.iter().any(|n| n.contains("1 Collada")),
        "{:?}",
        robot.notes
    );
    // The scaled block: 12 triangles within ±(0.05, 0.025, 0.1).
    let hand = &robot.links[robot.link_index("hand").unwrap()];
    let block = &robot.trees[hand.shapes[0].tree];
    assert_eq!(block.triangle_count(), 12);
    for k in 0..12 {
        for p in block.corners(k) {
            assert_eq!([p.x.abs(), p.y.abs(), p.z.abs()], [0.05, 0.025, 0.1]);
        }
    }
    // Tessellated primitives reach at most ~1 % of their radius outside.
    assert!(robot.tessellation_tolerance > 0.0 && robot.tessellation_tolerance < 0.06 * 0.02);
}
