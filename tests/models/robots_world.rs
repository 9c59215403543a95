//! Real-model world collision (ignored; run by .ci/run in release): the
//! Panda and the UR5 among 24 bodies (copies of the corpus' low-res bunny
//! sharing one tree, boxes, spheres and capsules) at 1000 seeded random
//! configurations each, against the pairwise check without any broad
//! phase: every link shape against every body shape with the exact
//! `collide` at their relative pose, and, where the surfaces do not meet
//! and the boxes overlap, the oracle's nested-solids test (a corner of one
//! inside the other closed mesh, `bvtool_dev::oracle::nested`).

use super::robots::{package, random_configurations, robot};
use bvtool::Pose;
use bvtool::query::point::solid::TreeSolid;
use bvtool::query::{ContactMode, collide};
use bvtool::tree::ObbTree;
use bvtool::world::placed_box;
use bvtool::world::{Primitive, World};
use bvtool_dev as common;
use bvtool_dev::oracle::nested;
use nalgebra::{Isometry3, UnitQuaternion, Vector3};
use rand::{Rng, SeedableRng};
use std::sync::Arc;

/// 24 bodies within the robots' reach (0.25 to 0.8 from the base's axis,
/// heights 0 to 1), at random orientations.
fn cell() -> World {
    let path = common::models_dir().unwrap().join("obj/stanford-bunny.obj");
    let mut bunny = bvtool::load::load(&path, &Default::default())
        .unwrap()
        .flatten();
    for v in &mut bunny.vertices {
        v.coords *= 0.03;
    }
    let tree = Arc::new(ObbTree::build(&bunny));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(24);
    let mut world = World::new();
    for k in 0..24 {
        let (a, r) = (
            rng.random_range(0.0..std::f64::consts::TAU),
            rng.random_range(0.25..0.8),
        );
        let t = Vector3::new(r * a.cos(), r * a.sin(), rng.random_range(0.0..1.0));
        let axis = Vector3::new(rng.random(), rng.random(), rng.random()).add_scalar(-0.5);
        let pose = Pose::new(t, UnitQuaternion::from_scaled_axis(axis * 6.0));
        let name = format!("body {k}");
        match k % 4 {
            0 => world.add_mesh(&name, tree.clone(), pose),
            1 => world.add_primitive(&name, Primitive::Box([0.1, 0.2, 0.05]), pose),
            2 => world.add_primitive(&name, Primitive::Sphere(0.06), pose),
            _ => world.add_primitive(
                &name,
                Primitive::Capsule {
                    radius: 0.04,
                    length: 0.2,
                },
                pose,
            ),
        }
        .unwrap();
    }
    world
}

/// Every triangle of `tree` as its corners.
fn corners(tree: &ObbTree) -> Vec<[nalgebra::Point3<f64>; 3]> {
    (0..tree.triangle_count())
        .map(|k| tree.corners(k))
        .collect()
}

/// A mesh's triangles and whether it is closed.
type Solid = (Vec<[nalgebra::Point3<f64>; 3]>, bool);

/// Each robot tree's, and each body shape's, triangles and closedness (for
/// the nested-solids oracle).
fn solids(robot: &bvtool::robots::Robot, world: &World) -> (Vec<Solid>, Vec<Vec<Solid>>) {
    let tris = |t: &ObbTree| (corners(t), TreeSolid::new(t).closed);
    let link_tris = robot.trees.iter().map(tris).collect();
    let body_tris = world
        .bodies()
        .iter()
        .map(|b| b.shapes.iter().map(|s| tris(&s.tree)).collect())
        .collect();
    (link_tris, body_tris)
}

/// Whether a link shape and a body shape whose surfaces do not meet nest
/// as solids: never where their world boxes are apart, else by the
/// oracle's nested-solids test (the body's triangles placed in the link's
/// frame by `pose`).
fn nest(
    (link, at_link, link_solid): (&ObbTree, &Isometry3<f64>, &Solid),
    (body, at_body, body_solid): (&ObbTree, &Isometry3<f64>, &Solid),
    pose: &Pose,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> bool {
    let (x, y) = (
        placed_box(link, at_link).unwrap(),
        placed_box(body, at_body).unwrap(),
    );
    if (0..3).any(|k| x.max[k] < y.min[k] || y.max[k] < x.min[k]) {
        return false;
    }
    let placed: Vec<_> = (body_solid.0.iter())
        .map(|t| t.map(|c| pose.transform_point(&c)))
        .collect();
    nested(&link_solid.0, link_solid.1, &placed, body_solid.1, rng)
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn world_collision_equals_the_pairwise_check_on_the_corpus_robots() {
    let Some(pkg) = package() else { return };
    let world = cell();
    for (urdf, srdf) in [
        (
            "robots/panda_description/urdf/panda.urdf",
            "robots/panda_description/srdf/panda.srdf",
        ),
        (
            "robots/ur_description/urdf/ur5_robot.urdf",
            "robots/ur_description/srdf/ur5.srdf",
        ),
    ] {
        let robot = robot(&pkg, urdf, Some(srdf));
        let qs = random_configurations(&robot, 1000, 39);
        let start = std::time::Instant::now();
        let got = robot.world_collision_batch(&qs, &world, false).unwrap();
        let took = start.elapsed().as_secs_f64() * 1e6 / 1000.0;
        let mut touching = 0;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
        let (link_tris, body_tris) = solids(&robot, &world);
        for (k, q) in qs.chunks(robot.dof).enumerate() {
            let poses = robot.forward_kinematics(q).unwrap();
            let mut want = Vec::new();
            for (l, link) in robot.links.iter().enumerate() {
                for (b, body) in world.bodies().iter().enumerate() {
                    let hit = link.shapes.iter().any(|s| {
                        body.shapes.iter().enumerate().any(|(j, bs)| {
                            let w = body.pose.to_isometry() * bs.origin.to_isometry();
                            let r = (poses[l] * s.origin).inverse() * w;
                            let pose = Pose::new(r.translation.vector, r.rotation);
                            let link = &robot.trees[s.tree];
                            collide(link, &bs.tree, &pose, ContactMode::All).intersecting
                                || nest(
                                    (link, &(poses[l] * s.origin), &link_tris[s.tree]),
                                    (&bs.tree, &w, &body_tris[b][j]),
                                    &pose,
                                    &mut rng,
                                )
                        })
                    });
                    if hit {
                        want.push((l, b));
                    }
                }
            }
            assert_eq!(got[k], want, "{urdf}: configuration {k}");
            touching += usize::from(!want.is_empty());
        }
        eprintln!(
            "{urdf}: {touching} of 1000 configurations touch the world; {took:.1} µs a configuration (batch, all cores)"
        );
        assert!(touching > 50 && touching < 990, "{urdf}: {touching}");
    }
}

/// The Panda's distance to the 18 primitives of [`cell`] (its bunnies
/// removed: the oracle's distances to them would take minutes) at 100
/// seeded random configurations: the minimum of the exact
/// `distance` over every (link shape, body shape) pair without any broad
/// phase, 0 where the surfaces meet or the nested-solids oracle finds one
/// inside the other.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn world_distance_equals_the_pairwise_distance_on_the_panda() {
    use bvtool::query::{DistanceOptions, distance};
    let Some(pkg) = package() else { return };
    let mut world = cell();
    for k in (0..24).step_by(4).rev() {
        world.remove(k).unwrap();
    }
    assert_eq!(world.len(), 18);
    let robot = robot(
        &pkg,
        "robots/panda_description/urdf/panda.urdf",
        Some("robots/panda_description/srdf/panda.srdf"),
    );
    let qs = random_configurations(&robot, 100, 46);
    let start = std::time::Instant::now();
    let got = robot.world_distance_batch(&qs, &world).unwrap();
    let took = start.elapsed().as_secs_f64() * 1e6 / 100.0;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
    let (link_tris, body_tris) = solids(&robot, &world);
    let mut zero = 0;
    for (k, q) in qs.chunks(robot.dof).enumerate() {
        let poses = robot.forward_kinematics(q).unwrap();
        let (mut want, mut inside) = (f64::INFINITY, false);
        for (l, link) in robot.links.iter().enumerate() {
            for s in &link.shapes {
                let place = poses[l] * s.origin;
                for (b, body) in world.bodies().iter().enumerate() {
                    for (j, bs) in body.shapes.iter().enumerate() {
                        let w = body.pose.to_isometry() * bs.origin.to_isometry();
                        let r = place.inverse() * w;
                        let pose = Pose::new(r.translation.vector, r.rotation);
                        let tree = &robot.trees[s.tree];
                        let d =
                            distance(tree, &bs.tree, &pose, &DistanceOptions::default()).unwrap();
                        want = want.min(d.distance);
                        // Solids: one inside the other.
                        if d.distance > 0.0 && !inside {
                            inside = nest(
                                (tree, &place, &link_tris[s.tree]),
                                (&bs.tree, &w, &body_tris[b][j]),
                                &pose,
                                &mut rng,
                            );
                        }
                    }
                }
            }
        }
        let d = got[k].unwrap();
        if d.distance > 0.0 {
            assert!(!inside, "configuration {k}: a shape lies inside another");
            assert!(
                (d.distance - want).abs() <= d.rounding_bound + 1e-15,
                "configuration {k}: {} vs {want}",
                d.distance
            );
        } else {
            assert!(want == 0.0 || inside, "configuration {k}: 0 vs {want}");
        }
        zero += usize::from(d.distance == 0.0);
    }
    eprintln!(
        "Panda: {zero} of 100 configurations at 0; {took:.1} µs a configuration (batch, all cores)"
    );
    assert!(zero > 5 && zero < 95, "{zero}");
}
