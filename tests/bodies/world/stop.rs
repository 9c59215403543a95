//! Stopping `World::from_scene_until`: a flag set before the call stops it
//! with `Stopped`; a flag never set gives `World::from_scene`'s world —
//! the same bodies, names, poses and shapes, each tree byte for byte.

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
