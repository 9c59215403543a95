//! World collision: the arm's links against the bodies of a scene file
//! (an OBJ of boxes around it), against the pairwise check without any
//! broad phase (every link shape against each body's triangles placed in
//! the world by the loader, one tree per body; bodies are solids, so a
//! link inside a box, or a box inside a closed link, collides:
//! `bvtool_dev::oracle::nested`); and `robot --world` in
//! JSON equal to the library's answers.

use super::arm::{ARM, random_configurations, temp_dir, write_arm};
use bvtool::Pose;
use bvtool::query::point::solid::TreeSolid;
use bvtool::query::{ContactMode, collide};
use bvtool::robots::{Robot, RobotOptions};
use bvtool::tree::ObbTree;
use bvtool::world::World;
use bvtool_dev::bvtool;
use bvtool_dev::oracle::nested;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};

/// An OBJ of `n` cubes (objects `box_0`, …) of edge 0.15 around the arm.
fn write_boxes(dir: &Path, n: usize) -> PathBuf {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut s = String::new();
    for k in 0..n {
        let a = rng.random_range(0.0..std::f64::consts::TAU);
        let r = rng.random_range(0.38..0.75);
        let c = [r * a.cos(), r * a.sin(), rng.random_range(0.1..1.0)];
        s += &format!("o box_{k}\n");
        let cube = bvtool::mesh::primitives::box_mesh([0.15; 3]);
        for v in &cube.vertices {
            s += &format!("v {} {} {}\n", c[0] + v.x, c[1] + v.y, c[2] + v.z);
        }
        for t in &cube.triangles {
            let o = 8 * k as u32 + 1;
            s += &format!("f {} {} {}\n", o + t[0], o + t[1], o + t[2]);
        }
    }
    let path = dir.join("boxes.obj");
    std::fs::write(&path, s).unwrap();
    path
}

/// Every triangle of `tree` as its corners.
pub(super) fn corners(tree: &ObbTree) -> Vec<[nalgebra::Point3<f64>; 3]> {
    (0..tree.triangle_count())
        .map(|k| tree.corners(k))
        .collect()
}

/// The test arm and 12 boxes around it, in a folder of its own.
pub(super) struct Arm {
    pub dir: PathBuf,
    pub urdf: PathBuf,
    pub robot: Robot,
    /// The OBJ of the boxes (`write_boxes`), as loaded, and its world.
    pub scene_path: PathBuf,
    pub scene: bvtool::mesh::Scene,
    pub world: World,
}

/// [`Arm`] for test `test`.
pub(super) fn arm_among_boxes(test: &str) -> Arm {
    let dir = temp_dir(test);
    let urdf = write_arm(&dir, ARM);
    let robot = Robot::from_urdf(&urdf, &RobotOptions::default()).unwrap();
    let scene_path = write_boxes(&dir, 12);
    let scene = bvtool::load::load(&scene_path, &Default::default()).unwrap();
    let world = World::from_scene(&scene).unwrap();
    Arm {
        dir,
        urdf,
        robot,
        scene_path,
        scene,
        world,
    }
}

#[test]
fn world_collision_equals_the_pairwise_check_and_the_command() {
    let Arm {
        dir,
        urdf,
        robot,
        scene_path,
        scene,
        world,
    } = arm_among_boxes("world");
    assert_eq!(world.len(), 12);
    assert_eq!(world.bodies()[3].name, "box_3");
    // One tree per body over its triangles as the loader places them.
    let bodies: Vec<ObbTree> = scene.instances.iter().map(bvtool_dev::world_tree).collect();
    let qs = random_configurations(&robot, 300, 5);
    let all = robot.world_collision_batch(&qs, &world, false).unwrap();
    let first = robot.world_collision_batch(&qs, &world, true).unwrap();
    let mut colliding = 0;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    for (k, q) in qs.chunks(robot.dof).enumerate() {
        let poses = robot.forward_kinematics(q).unwrap();
        let mut want = Vec::new();
        for (l, link) in robot.links.iter().enumerate() {
            for (b, body) in bodies.iter().enumerate() {
                let hit = link.shapes.iter().any(|s| {
                    let r = poses[l] * s.origin;
                    let pose = Pose::new(r.translation.vector, r.rotation);
                    let link = &robot.trees[s.tree];
                    collide(body, link, &pose, ContactMode::All).intersecting || {
                        // Solids: the link inside the box or the box in it.
                        let placed: Vec<_> = corners(link)
                            .iter()
                            .map(|t| t.map(|c| pose.transform_point(&c)))
                            .collect();
                        let closed = TreeSolid::new(link).closed;
                        nested(&corners(body), true, &placed, closed, &mut rng)
                    }
                });
                if hit {
                    want.push((l, b));
                }
            }
        }
        assert_eq!(all[k], want, "configuration {k}");
        assert_eq!(all[k], robot.world_collision(q, &world, false).unwrap());
        assert_eq!(first[k].len(), usize::from(!want.is_empty()));
        assert!(first[k].iter().all(|p| want.contains(p)));
        colliding += usize::from(!want.is_empty());
    }
    assert!(colliding > 30 && colliding < 270, "{colliding}");
    // The command's JSON lists the same (link, body) pairs.
    let rows: Vec<Vec<f64>> = qs.chunks(robot.dof).take(40).map(<[f64]>::to_vec).collect();
    let configs = dir.join("q.json");
    std::fs::write(&configs, serde_json::to_string(&rows).unwrap()).unwrap();
    let args = [
        "robot",
        urdf.to_str().unwrap(),
        "--check",
        configs.to_str().unwrap(),
        "--world",
        scene_path.to_str().unwrap(),
        "--json",
    ];
    let (code, out, err) = bvtool!(&args);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    for (k, c) in doc["configurations"].as_array().unwrap().iter().enumerate() {
        let names: Vec<[&str; 2]> = all[k]
            .iter()
            .map(|&(l, b)| {
                [
                    robot.links[l].name.as_str(),
                    world.bodies()[b].name.as_str(),
                ]
            })
            .collect();
        assert_eq!(c["world"], serde_json::to_value(names).unwrap(), "{k}");
    }
    // A scene that cannot be read: one line naming it, exit 1.
    let missing = dir.join("missing.glb");
    let mut bad = args;
    bad[5] = missing.to_str().unwrap();
    let (code, _, err) = bvtool!(&bad);
    assert_eq!(code, 1);
    assert!(
        err.contains("missing.glb") && err.trim().lines().count() == 1,
        "{err}"
    );
}
