//! Hostile input: poses that are not finite or out of range, bad names,
//! sizes and indices are one-line errors that change nothing; the body
//! count is capped; a world from a scene names its nodes.

use bvtool::Pose;
use bvtool::world::{MAX_BODIES, Primitive, World};
use nalgebra::{Quaternion, UnitQuaternion, Vector3};

fn at(x: f64) -> Pose {
    Pose::new(Vector3::new(x, 0.0, 0.0), UnitQuaternion::identity())
}

#[test]
fn bad_poses_sizes_names_and_indices_are_errors() {
    let mut world = World::new();
    let cube = Primitive::Box([1.0, 1.0, 1.0]);
    world.add_primitive("a", cube, at(0.0)).unwrap();
    world.add_primitive("b", cube, at(0.5)).unwrap();
    let nan = at(f64::NAN);
    let far = at(1e300);
    let bad_q = Pose::new(
        Vector3::zeros(),
        UnitQuaternion::new_unchecked(Quaternion::new(f64::NAN, 0.0, 0.0, 0.0)),
    );
    for p in [nan, far, bad_q] {
        let e = world.add_primitive("c", cube, p).unwrap_err().to_string();
        assert!(e.contains("not finite") && !e.contains('\n'), "{e}");
        assert!(world.set_pose(0, p).is_err());
        // A batch with one bad pose moves nothing.
        assert!(world.set_poses(&[(1, at(9.0)), (0, p)]).is_err());
        assert_eq!(world.bodies()[1].pose, at(0.5));
    }
    assert!(world.set_pose(2, at(0.0)).is_err());
    assert!(
        world
            .add_primitive("a", cube, at(3.0))
            .unwrap_err()
            .to_string()
            .contains("'a'")
    );
    for p in [
        Primitive::Sphere(0.0),
        Primitive::Sphere(f64::NAN),
        Primitive::Box([1.0, -1.0, 1.0]),
        Primitive::Capsule {
            radius: 1.0,
            length: -1.0,
        },
        Primitive::Cylinder {
            radius: 1.0,
            length: f64::INFINITY,
        },
    ] {
        assert!(world.add_primitive("p", p, at(0.0)).is_err(), "{p:?}");
    }
    assert!(
        world
            .add_primitive(
                "p",
                Primitive::Capsule {
                    radius: 1.0,
                    length: 0.0
                },
                at(9.0)
            )
            .is_ok()
    );
    for d in [f64::NAN, -1.0, f64::INFINITY] {
        assert!(world.pairs_within(d).is_err());
    }
    assert!(world.distance(&[0], &[7]).is_err());
    assert!(world.colliding_with_body(7).is_err());
    assert!(world.allow(0, 7).is_err());
    assert_eq!(world.len(), 3);
    assert_eq!(world.colliding_pairs().unwrap(), vec![(0, 1)]);
    world.allow(1, 0).unwrap();
    assert!(world.colliding_pairs().unwrap().is_empty());
    assert!(world.distance(&[0], &[1]).unwrap().is_none());
}

#[test]
fn the_body_count_is_capped() {
    let mut world = World::new();
    let cube = Primitive::Box([0.5, 0.5, 0.5]);
    for i in 0..MAX_BODIES {
        world
            .add_primitive(&i.to_string(), cube, at(i as f64))
            .unwrap();
    }
    let e = world.add_primitive("one more", cube, at(-1.0)).unwrap_err();
    assert!(e.to_string().contains("262144"), "{e}");
    assert!(world.colliding_pairs().unwrap().is_empty());
}

#[test]
fn a_world_from_a_scene_has_a_body_per_node() {
    use bvtool::query::{ContactMode, DistanceOptions, collide, distance};
    use bvtool::tree::ObbTree;
    let scene = bvtool_dev::repo_scene("chain.gltf");
    let mut world = World::from_scene(&scene).unwrap();
    let names: Vec<_> = world.bodies().iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["ring_a", "ring_b"]);
    assert_eq!(world.index("ring_b"), Some(1));
    // The oracle: each node's triangles placed in the scene's frame by the
    // loader, one tree each (no shared tree, no relative placement).
    let trees: Vec<ObbTree> = scene.instances.iter().map(bvtool_dev::world_tree).collect();
    for x in [0.0, -0.3, -1.0, 0.5, 1.0] {
        let pose = at(x);
        world.set_pose(1, pose).unwrap();
        let want = distance(&trees[0], &trees[1], &pose, &DistanceOptions::default()).unwrap();
        let got = world.distance(&[0], &[1]).unwrap().unwrap();
        assert!(
            (got.distance - want.distance).abs() <= 1e-9,
            "{x}: {got:?} {want:?}"
        );
        let hit = collide(&trees[0], &trees[1], &pose, ContactMode::First).intersecting;
        assert_eq!(
            world.colliding_pairs().unwrap().len(),
            usize::from(hit),
            "{x}"
        );
        assert_eq!(
            world.pairs_within(0.05).unwrap().len(),
            usize::from(want.distance <= 0.05)
        );
    }
}
