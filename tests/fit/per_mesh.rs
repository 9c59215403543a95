//! `--per-mesh` (`FitOptions::per_mesh`): each mesh instance's volumes are
//! those of a fit of that instance alone (`fit_instance`), in the world and
//! the local frame, in scene order, whether its fit is shared (instances
//! of one geometry placed alike: a stack; in the local frame any) or not,
//! and whichever thread made it.

use bvtool::fit::{ObbMethod, ShapeSpec, SphereMethod};
use bvtool::volumes::{FileVolumes, FitOptions, Frame, Volumes, fit_instance};
use bvtool_dev as common;

fn json(v: &Volumes) -> String {
    serde_json::to_string(v).expect("volumes serialize")
}

#[test]
fn each_instance_gets_the_fit_of_it_alone() {
    // The chain: one mesh placed by two nodes. Then three more instances
    // of the first: two placed as it is (a stack of three), one moved.
    let mut scene = common::repo_scene("chain.gltf");
    let first = scene.instances[0].clone();
    let mut moved = first.clone();
    moved.transform[(0, 3)] += 0.25;
    moved.instance = 7;
    scene.instances.extend([first.clone(), moved, first]);
    for frame in [Frame::World, Frame::Local] {
        let opts = FitOptions {
            per_mesh: true,
            frame,
            air: true,
            shapes: ShapeSpec::parse_list("capsule, kdop14").unwrap(),
            ..FitOptions::of(ObbMethod::Tight, SphereMethod::Exact)
        };
        let meshes = FileVolumes::new("f", &scene, &opts)
            .unwrap()
            .meshes
            .unwrap();
        assert_eq!(meshes.len(), scene.instances.len());
        let mut seen = Vec::new();
        for (m, inst) in meshes.iter().zip(&scene.instances) {
            let alone = json(&fit_instance(&scene, inst, frame, &opts).unwrap());
            assert_eq!(json(&m.volumes), alone, "{frame:?} instance {}", m.instance);
            assert_eq!(
                (m.node, m.instance, m.mesh, m.primitive),
                (inst.node, inst.instance, inst.mesh, inst.primitive)
            );
            seen.push(alone);
        }
        // In the world frame the stack shares one fit and the others differ;
        // in the local frame every instance of the geometry is the same.
        let distinct = |k: &[usize]| {
            k.iter()
                .map(|&i| &seen[i])
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        };
        match frame {
            Frame::World => {
                assert_eq!(distinct(&[0, 2, 4]), 1);
                assert_eq!(distinct(&[0, 1, 3]), 3);
            }
            Frame::Local => assert_eq!(distinct(&[0, 1, 2, 3, 4]), 1),
        }
    }
}
