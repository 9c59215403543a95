//! The glTF export: the output parses (gltf crate), keeps every triangle,
//! adds LINES debug primitives and `KHR_implicit_shapes` /
//! `KHR_physics_rigid_bodies` colliders that contain every vertex once the
//! node transforms are applied, survives a second export (buffers carried
//! over), and passes the Khronos glTF validator when node and the npm
//! `gltf-validator` package are present (`$GLTF_VALIDATOR_DIR`, default
//! `target/node-tools` in the crate).

mod export_support;

use bvtool::Scene;
use bvtool::export::gltf::{GltfOptions, write};
use bvtool::mesh::Format;
use export_support::gltf_check::{
    assert_contains, bvtool_reload, drawn, parse, scratch, validator_errors,
};
use export_support::{doc, scene};
use serde_json::Value;

#[test]
fn obj_scene_to_glb_with_debug_lines_then_reexported_as_gltf() {
    let s = scene(31, 20.0, Format::Obj, "synthetic.obj");
    let d = doc(&s, false, true);
    let opts = GltfOptions {
        binary: true,
        debug_lines: true,
        allow_external_uris: false,
    };
    let bytes = write(&s, &d, &opts).unwrap();
    assert_eq!(&bytes[0..4], b"glTF");
    let o = parse(&bytes);
    let (tris, lines, pts) = drawn(&o);
    assert_eq!(tris, s.triangle_count());
    assert_eq!(lines, 2 * (1 + s.instances.len()));
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
    assert_contains(&o, &s, true);

    let dir = scratch("chain");
    let glb = dir.join("first.glb");
    std::fs::write(&glb, &bytes).unwrap();
    if let Some((errors, report)) = validator_errors(&glb) {
        assert_eq!(errors, 0, "{report}");
    }
    bvtool_reload(&glb, tris, lines);

    // Export the export: the same scene read from the .glb (the instances
    // are those bvtool would load), written as .gltf with a data URI.
    let again = Scene {
        path: glb.clone(),
        format: Format::Glb,
        ..s.clone()
    };
    let d2 = doc(&again, false, false);
    let opts2 = GltfOptions {
        binary: false,
        debug_lines: false,
        allow_external_uris: false,
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
    let shapes = o2.json["extensions"]["KHR_implicit_shapes"]["shapes"]
        .as_array()
        .unwrap();
    assert_eq!(shapes.len(), 2 * (1 + s.instances.len()) + 2);
    let gltf_file = dir.join("second.gltf");
    std::fs::write(&gltf_file, &text).unwrap();
    if let Some((errors, report)) = validator_errors(&gltf_file) {
        assert_eq!(errors, 0, "{report}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Over many random placements far from the origin, the colliders (f32
/// translation, rounded quaternion, rounded-out size) contain every vertex.
#[test]
fn colliders_contain_every_vertex_over_random_scenes() {
    for seed in 0..10 {
        let offset = [1.0, 1e2, 1e4][seed as usize % 3];
        let s = scene(100 + seed, offset, Format::Stl, "synthetic.stl");
        let d = doc(&s, false, true);
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
        assert_contains(&o, &s, true);
    }
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
    // A URI leaving the folder is refused unless allowed.
    json["buffers"][0]["uri"] = Value::from("../elsewhere.bin");
    std::fs::write(&input, serde_json::to_vec(&json).unwrap()).unwrap();
    let err = write(&again, &doc(&again, false, false), &GltfOptions::default()).unwrap_err();
    assert!(
        err.to_string().contains("outside the file's folder"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).ok();
}
