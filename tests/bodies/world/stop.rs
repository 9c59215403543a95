//! Stopping `World::from_scene_until`: a flag set before the call stops it
//! with `Stopped`; a flag never set gives `World::from_scene`'s world —
//! the same bodies, names, poses and shapes, each tree byte for byte. The
//! queries' `…_until` likewise: stopped by a set flag where a body pair is
//! left to decide, the plain query's answer otherwise.

use bvtool::threads::{Stop, Stopped};
use bvtool::world::World;
use std::sync::atomic::AtomicBool;

/// A world as comparable text: per body its name, pose and shapes (each
/// shape's origin and tree bytes).
fn described(w: &World) -> Vec<String> {
    w.bodies()
        .iter()
        .map(|b| {
            let shapes: Vec<_> = b
                .shapes
                .iter()
                .map(|s| format!("{:?} {:?}", s.origin, s.tree.to_bytes()))
                .collect();
            format!("{} {:?} {shapes:?}", b.name, b.pose)
        })
        .collect()
}

#[test]
fn a_world_from_a_scene_stops_or_is_the_plain_one() {
    for name in ["chain.gltf", "torus.obj"] {
        let scene = bvtool_dev::repo_scene(name);
        let set = AtomicBool::new(true);
        assert!(matches!(
            World::from_scene_until(&scene, Stop::on(&set)),
            Err(Stopped)
        ));
        let unset = AtomicBool::new(false);
        let until = World::from_scene_until(&scene, Stop::on(&unset))
            .expect("never stopped")
            .unwrap();
        let plain = World::from_scene(&scene).unwrap();
        assert!(!plain.bodies().is_empty());
        assert_eq!(described(&until), described(&plain), "{name}");
    }
}

#[test]
fn world_queries_stop_or_give_the_plain_answer() {
    let scene = bvtool_dev::repo_scene("chain.gltf");
    let w = World::from_scene(&scene).unwrap();
    let all: Vec<usize> = (0..w.bodies().len()).collect();
    let (evens, odds): (Vec<usize>, Vec<usize>) = all.iter().partition(|&&i| i % 2 == 0);
    let (set, unset) = (AtomicBool::new(true), AtomicBool::new(false));
    let (stop, run) = (Stop::on(&set), Stop::on(&unset));
    assert!(matches!(w.colliding_pairs_until(stop), Err(Stopped)));
    assert!(matches!(w.pairs_within_until(1.0, stop), Err(Stopped)));
    assert!(matches!(w.colliding_with_body_until(0, stop), Err(Stopped)));
    assert!(matches!(
        w.distance_until(&evens, &odds, stop),
        Err(Stopped)
    ));
    assert_eq!(
        w.colliding_pairs_until(run).unwrap().unwrap(),
        w.colliding_pairs().unwrap()
    );
    let near = w.pairs_within(1.0).unwrap();
    assert!(!near.is_empty());
    assert_eq!(w.pairs_within_until(1.0, run).unwrap().unwrap(), near);
    assert_eq!(
        w.colliding_with_body_until(0, run).unwrap().unwrap(),
        w.colliding_with_body(0).unwrap()
    );
    assert_eq!(
        w.distance_until(&evens, &odds, run).unwrap().unwrap(),
        w.distance(&evens, &odds).unwrap()
    );
    // Errors stay errors, not stops.
    assert!(w.pairs_within_until(-1.0, stop).unwrap().is_err());
    assert!(
        w.colliding_with_body_until(all.len(), stop)
            .unwrap()
            .is_err()
    );
}
