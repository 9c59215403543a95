//! The glTF export: the output parses (gltf crate), keeps every triangle,
//! adds LINES debug primitives and `KHR_implicit_shapes` /
//! `KHR_physics_rigid_bodies` colliders (box, sphere, capsule, cylinder,
//! convex meshes) that contain every vertex once the node transforms are
//! applied — also after the nodes are moved — follows the extensions' rules
//! the validator does not check (capsule `height` between the capping
//! spheres' centres, checked numerically), survives a second export
//! (buffers carried over), and passes the Khronos glTF validator when node
//! and the npm `gltf-validator` package are present (`$GLTF_VALIDATOR_DIR`,
//! default `target/node-tools` in the crate).

use crate::scratch;
use bvtool_dev as common;
use bvtool_dev::export_check as export_support;

use bvtool::Scene;
use bvtool::export::gltf::{GltfOptions, write};
use bvtool::fit::ShapeSpec;
use bvtool::mesh::Format;
use export_support::gltf_check::{
    assert_contains, bvtool_reload, colliders, drawn, holds, parse, validator_errors,
};
use export_support::{ALL_SHAPES, doc, doc_with, scene};
use serde_json::Value;

#[test]
fn obj_scene_to_glb_with_debug_lines_then_reexported_as_gltf() {
    let s = scene(31, 20.0, Format::Obj, "synthetic.obj");
    let d = doc_with(&s, &ALL_SHAPES, true);
    assert_eq!(d.colliders.len(), 7 * (s.instances.len() + 1));
    let opts = GltfOptions {
        binary: true,
        debug_lines: true,
        allow_external_uris: false,
        naming: None,
    };
    let bytes = write(&s, &d, &opts).unwrap();
    assert_eq!(&bytes[0..4], b"glTF");
    let o = parse(&bytes);
    let (tris, lines, pts) = drawn(&o);
    assert_eq!(
        tris,
        s.triangle_count(),
        "convex collider meshes are not drawn"
    );
    assert_eq!(lines, d.colliders.len());
    // The mesh itself went through: every world vertex (f32-rounded) is there.
    let want = s.world_points(true);
    assert_eq!(pts.len(), want.len());
    for (a, b) in pts.iter().zip(&want) {
        assert!(
            (a - b).norm() <= 1e-5 * (1.0 + b.coords.norm()),
            "{a} vs {b}"
        );
    }
    let used: Vec<&str> = o.json["extensionsUsed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert!(used.contains(&"KHR_implicit_shapes") && used.contains(&"KHR_physics_rigid_bodies"));
    // Three of the four instances are placed with a non-uniform scale: their
    // colliders are fitted in the world frame; the uniformly scaled one's
    // hang under its node.
    let seen = assert_contains(&o, &s, &d);
    assert_eq!(seen.local, 7);
    assert_eq!(seen.world, 7 * 4);
    assert!(seen.capsules_not_total_height > 0, "{seen:?}");
    assert_eq!(seen.capsules_not_total_height, seen.capsules_checked);

    let dir = scratch("chain");
    let glb = dir.join("first.glb");
    std::fs::write(&glb, &bytes).unwrap();
    if let Some((errors, report)) = validator_errors(&glb) {
        assert_eq!(errors, 0, "{report}");
    }
    bvtool_reload(&glb, tris, lines);

    // Export the export, as bvtool loads it, written as .gltf with a data
    // URI: the first export's colliders stay, boxes are added.
    let again = bvtool::load::load(&glb, &Default::default()).unwrap();
    let d2 = doc_with(&again, &[ShapeSpec::Box(None)], false);
    let opts2 = GltfOptions {
        binary: false,
        debug_lines: false,
        allow_external_uris: false,
        naming: None,
    };
    let text = write(&again, &d2, &opts2).unwrap();
    let o2 = parse(&text);
    let (tris2, lines2, pts2) = drawn(&o2);
    assert_eq!(tris2, tris);
    assert_eq!(
        lines2, lines,
        "the first export's debug lines are carried over"
    );
    assert_eq!(pts2, pts, "the input's buffer is carried over bit for bit");
    assert_eq!(colliders(&o2).len(), d.colliders.len() + d2.colliders.len());
    let gltf_file = dir.join("second.gltf");
    std::fs::write(&gltf_file, &text).unwrap();
    if let Some((errors, report)) = validator_errors(&gltf_file) {
        assert_eq!(errors, 0, "{report}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Over many random placements far from the origin, every collider (f32
/// translation, rounded quaternion, rounded-out sizes, grown convex
/// meshes) contains every vertex it bounds.
#[test]
fn colliders_contain_every_vertex_over_random_scenes() {
    for seed in 0..10 {
        let offset = [1.0, 1e2, 1e4][seed as usize % 3];
        let s = scene(100 + seed, offset, Format::Stl, "synthetic.stl");
        let d = doc_with(&s, &ALL_SHAPES, seed % 2 == 0);
        let o = parse(
            &write(
                &s,
                &d,
                &GltfOptions {
                    binary: true,
                    ..Default::default()
                },
            )
            .unwrap(),
        );
        assert_eq!(drawn(&o).0, s.triangle_count());
        assert_contains(&o, &s, &d);
    }
}

/// The repository's chain (one torus mesh placed by two nodes): one
/// collider per node and shape, each a child of its node in the node's
/// frame, the two nodes' colliders identical (one fit per mesh); every
/// vertex inside; and once the nodes are moved and turned in the exported
/// file, bvtool's reload of the moved file still has every vertex inside
/// the colliders as the moved file places them.
#[test]
fn chain_colliders_hang_under_their_nodes_and_follow_them() {
    let s = common::repo_scene("chain.gltf");
    let d = doc_with(&s, &ALL_SHAPES, false);
    assert_eq!(d.colliders.len(), 2 * 7);
    assert!(d.colliders.iter().all(|c| c.frame == "local"
        && c.node_name.is_some()
        && c.mesh_name.as_deref() == Some("torus")));
    for (a, b) in d.colliders[..7].iter().zip(&d.colliders[7..]) {
        assert_eq!(
            a.geometry, b.geometry,
            "instances of one mesh share the fit"
        );
    }
    let bytes = write(&s, &d, &GltfOptions::default()).unwrap();
    let o = parse(&bytes);
    let seen = assert_contains(&o, &s, &d);
    assert_eq!((seen.local, seen.world), (14, 0));
    let dir = scratch("chain-moved");
    let file = dir.join("chain_col.gltf");
    std::fs::write(&file, &bytes).unwrap();
    if let Some((errors, report)) = validator_errors(&file) {
        assert_eq!(errors, 0, "{report}");
    }

    // Re-pose both rings in the exported file.
    let mut json: Value = serde_json::from_slice(&bytes).unwrap();
    json["nodes"][0]["translation"] = serde_json::json!([5.0, -2.0, 1.0]);
    json["nodes"][0]["rotation"] = serde_json::json!([0.0, 0.6, 0.0, 0.8]);
    json["nodes"][1]["rotation"] = serde_json::json!([0.48, 0.0, 0.64, 0.6]);
    json["nodes"][1]["scale"] = serde_json::json!([2.5, 2.5, 2.5]);
    let moved_file = dir.join("moved.gltf");
    std::fs::write(&moved_file, serde_json::to_vec(&json).unwrap()).unwrap();
    let moved = bvtool::load::load(&moved_file, &Default::default()).unwrap();
    assert_eq!(moved.triangle_count(), s.triangle_count());
    let o2 = parse(&std::fs::read(&moved_file).unwrap());
    let gl = colliders(&o2);
    assert_eq!(gl.len(), 14);
    for (k, inst) in moved.instances.iter().enumerate() {
        let mine: Vec<_> = gl
            .iter()
            .filter(|c| c.parent.map(|p| p as u32) == inst.node)
            .collect();
        assert_eq!(mine.len(), 7);
        for c in mine {
            for p in export_support::instance_world_points(&moved, k) {
                assert!(holds(c, &p), "{} misses {p} after the move", c.name);
            }
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn gltf_input_with_external_buffer_is_embedded() {
    let dir = scratch("external");
    let s = scene(40, 3.0, Format::Obj, "synthetic.obj");
    let text = write(&s, &doc(&s, false, false), &GltfOptions::default()).unwrap();
    // Move the data URI out into model.bin, as many .gltf files have it.
    let mut json: Value = serde_json::from_slice(&text).unwrap();
    let bin = parse(&text).bin;
    std::fs::write(dir.join("model data.bin"), &bin).unwrap();
    json["buffers"][0]["uri"] = Value::from("model%20data.bin");
    let input = dir.join("model.gltf");
    std::fs::write(&input, serde_json::to_vec(&json).unwrap()).unwrap();
    let again = Scene {
        path: input.clone(),
        format: Format::Gltf,
        ..s.clone()
    };
    let out = write(
        &again,
        &doc(&again, false, false),
        &GltfOptions {
            binary: true,
            ..Default::default()
        },
    )
    .unwrap();
    let o = parse(&out);
    assert!(o.json["buffers"][0]["uri"].is_null());
    assert_eq!(drawn(&o).0, s.triangle_count());
    assert_eq!(&o.bin[..bin.len()], &bin[..]);
    // A URI leaving the folder is refused unless allowed (by the loader's
    // resolver, in the loader's words).
    json["buffers"][0]["uri"] = Value::from("../elsewhere.bin");
    std::fs::write(&input, serde_json::to_vec(&json).unwrap()).unwrap();
    let err = write(&again, &doc(&again, false, false), &GltfOptions::default()).unwrap_err();
    assert!(
        err.to_string().contains("outside the model's folder"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// `--shape decompose` on the chain: each ring gets the same convex parts
/// (one decomposition per mesh), each part a convex-hull mesh collider under
/// its ring's node; every vertex of each ring lies in one of its parts
/// (decided exactly on the parts as written, in f32, placed by the nodes);
/// the scene's own parts (`whole`) hold every vertex of the scene; the file
/// passes the validator; Unreal's naming makes them UCX_ meshes.
#[test]
fn decomposition_parts_hang_under_their_nodes_and_hold_every_vertex() {
    let s = common::repo_scene("chain.gltf");
    let d = doc_with(&s, &[ShapeSpec::Decompose], true);
    let per_node = |node: Option<u32>| {
        d.colliders
            .iter()
            .filter(|c| c.node == node && c.scope == "instance")
            .count()
    };
    let n = per_node(Some(0));
    assert!((2..=16).contains(&n) && per_node(Some(1)) == n, "{n} parts");
    let bytes = write(&s, &d, &GltfOptions::default()).unwrap();
    let o = parse(&bytes);
    let gl = colliders(&o);
    assert_eq!(gl.len(), d.colliders.len());
    for (k, inst) in s.instances.iter().enumerate() {
        let mine: Vec<_> = gl
            .iter()
            .filter(|c| c.parent.map(|p| p as u32) == inst.node)
            .collect();
        assert_eq!(mine.len(), n);
        for p in export_support::instance_world_points(&s, k) {
            assert!(mine.iter().any(|c| holds(c, &p)), "{p} in no part");
        }
    }
    let whole: Vec<_> = gl.iter().filter(|c| c.name.ends_with("of scene")).collect();
    assert!(!whole.is_empty());
    for p in s.world_points(false) {
        assert!(whole.iter().any(|c| holds(c, &p)), "{p} in no scene part");
    }
    let dir = scratch("chain-decompose");
    let file = dir.join("parts.glb");
    std::fs::write(&file, &bytes).unwrap();
    if let Some((errors, report)) = validator_errors(&file) {
        assert_eq!(errors, 0, "{report}");
    }
    std::fs::remove_dir_all(dir).ok();
    let (code, obj, err) = common::bvtool!(&[
        "export",
        "models/chain.gltf",
        "--format",
        "obj",
        "--shape",
        "decompose",
    ]);
    assert_eq!(code, 0, "{err}");
    let ucx = obj.lines().filter(|l| l.starts_with("o UCX_ring")).count();
    assert_eq!(ucx, 2 * n, "{obj:.300}");
}
