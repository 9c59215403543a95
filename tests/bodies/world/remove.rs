//! `World::remove`: after random removals, additions, moves and allowed
//! pairs, the world answers `colliding_pairs` and `pairs_within` as a world
//! built afresh from the surviving bodies (same shapes, poses and allowed
//! pairs, by name) — many rounds; the allowed pairs and names follow the
//! shifted indices, and a tree no body uses is released.

use super::common::{nudge, random_pose, random_world, rng};
use bvtool::world::{Primitive, World};
use rand::Rng;
use std::collections::BTreeSet;
use std::sync::Arc;

/// The world's pairs as sorted name pairs.
fn named(world: &World, pairs: Vec<(usize, usize)>) -> BTreeSet<(String, String)> {
    let name = |i: usize| world.bodies()[i].name.clone();
    pairs
        .into_iter()
        .map(|(a, b)| (name(a).min(name(b)), name(a).max(name(b))))
        .collect()
}

#[test]
fn a_world_after_removals_answers_as_one_built_from_the_survivors() {
    let mut rng = rng(46);
    let (mut world, _) = random_world(&mut rng, 30, 3.0);
    let mut allowed: BTreeSet<(String, String)> = BTreeSet::new();
    let (mut added, mut hits) = (0, 0);
    for round in 0..40 {
        // Remove one to three bodies, by index, anywhere.
        for _ in 0..rng.random_range(1..=3) {
            let i = rng.random_range(0..world.len());
            let name = world.bodies()[i].name.clone();
            let body = world.remove(i).unwrap();
            assert_eq!(body.name, name);
            assert_eq!(world.index(&name), None);
            allowed.retain(|(a, b)| *a != name && *b != name);
        }
        // Add some back: copies of survivors' shapes and new primitives.
        for _ in 0..rng.random_range(0..=3) {
            let name = format!("added {added}");
            added += 1;
            let pose = random_pose(&mut rng, 3.0);
            if rng.random_bool(0.5) && !world.is_empty() {
                let j = rng.random_range(0..world.len());
                let shapes = world.bodies()[j].shapes.clone();
                world.add_body(&name, shapes, pose).unwrap();
            } else {
                let r = 0.2 + 0.3 * rng.random::<f64>();
                world
                    .add_primitive(&name, Primitive::Sphere(r), pose)
                    .unwrap();
            }
        }
        // Move some, allow a pair.
        let n = world.len();
        let mut moves = Vec::new();
        for i in 0..n {
            if rng.random_bool(0.3) {
                moves.push((i, nudge(&mut rng, &world.bodies()[i].pose, 0.4)));
            }
        }
        world.set_poses(&moves).unwrap();
        if n > 1 {
            let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
            if a != b {
                world.allow(a, b).unwrap();
                allowed.extend(named(&world, vec![(a, b)]));
            }
        }
        // The index follows the shifts; the allowed pairs are the names'.
        for (i, b) in world.bodies().iter().enumerate() {
            assert_eq!(world.index(&b.name), Some(i));
        }
        assert_eq!(
            named(&world, world.allowed_pairs()),
            allowed,
            "round {round}"
        );
        // A world built afresh from the survivors.
        let mut fresh = World::new();
        for b in world.bodies() {
            fresh.add_body(&b.name, b.shapes.clone(), b.pose).unwrap();
        }
        for (a, b) in &allowed {
            fresh
                .allow(fresh.find(a).unwrap(), fresh.find(b).unwrap())
                .unwrap();
        }
        let got = named(&world, world.colliding_pairs().unwrap());
        assert_eq!(
            got,
            named(&fresh, fresh.colliding_pairs().unwrap()),
            "round {round}"
        );
        let near = named(&world, world.pairs_within(0.2).unwrap());
        assert_eq!(
            near,
            named(&fresh, fresh.pairs_within(0.2).unwrap()),
            "round {round}"
        );
        hits += got.len();
    }
    assert!(hits > 40, "{hits} colliding pairs over the rounds");
    // Removing every body releases every tree: the primitives' shared
    // trees are dropped (the tolerance with them), and the world's own
    // references to the meshes' trees are gone.
    let tree = world.bodies()[0].shapes[0].tree.clone();
    while !world.is_empty() {
        world.remove(world.len() - 1).unwrap();
    }
    assert!(world.primitive_trees().is_empty());
    assert_eq!(world.tessellation_tolerance(), 0.0);
    assert_eq!(Arc::strong_count(&tree), 1);
    assert!(world.remove(0).is_err());
}
