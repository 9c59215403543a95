//! The bench scene of `examples/grid_scene.rs` on a smaller grid (about a
//! million triangles): `clash` finds exactly the pairs that overlap by
//! construction, and the torus placed at cell corners, at least 0.68 from
//! every part by construction, touches nothing and keeps that distance.

use bvtool_dev as common;

use bvtool_dev::grid_scene;

use serde_json::Value;
use std::collections::BTreeSet;

/// The least distance from a cell corner's torus to any part: the corner is
/// 2√2 from the cell centres, the torus reaches 1.35 from its centre, a
/// part 0.5 (+0.3 for a partner) from its cell's centre.
const CORNER_CLEARANCE: f64 = 2.0 * std::f64::consts::SQRT_2 - 1.35 - 0.5 - 0.3;

fn json(args: &[&str]) -> Value {
    let (code, out, err) = common::bvtool!(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn grid_scene_answers_are_known() {
    let Some(models) = common::models_dir() else {
        return;
    };
    let dir = bvtool_dev::scratch!("grid");
    let glb = dir.join("grid.glb");
    let made = grid_scene::write(&glb, 1_000_000, &models).unwrap();
    assert_eq!(made.pairs, 3, "one partner pair per model");
    let file = glb.to_str().unwrap();
    let limit = ["--max-triangles", "2000000"];

    let info = json(&["info", file, "--json"]);
    assert_eq!(info["files"][0]["triangles"], made.triangles);

    let clash = json(&[&["clash", file, "--json"][..], &limit].concat());
    let parts = clash["parts"].as_array().unwrap();
    let name = |i: &Value| parts[i.as_u64().unwrap() as usize]["node_name"].clone();
    let found: BTreeSet<[String; 2]> = clash["clashes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_eq!(c["kind"], "intersecting");
            let mut pair = [name(&c["a"]), name(&c["b"])].map(|v| v.as_str().unwrap().to_string());
            pair.sort();
            pair
        })
        .collect();
    let expected: Value =
        serde_json::from_slice(&std::fs::read(glb.with_extension("expected.json")).unwrap())
            .unwrap();
    let expected: BTreeSet<[String; 2]> =
        serde_json::from_value(expected["clashing_node_pairs"].clone()).unwrap();
    assert_eq!(found, expected);

    // The 50 corner poses (the second half of the file).
    let poses: Vec<Value> =
        serde_json::from_slice(&std::fs::read(glb.with_extension("poses.json")).unwrap()).unwrap();
    let corners = dir.join("corners.json");
    std::fs::write(&corners, serde_json::to_vec(&poses[50..]).unwrap()).unwrap();
    let torus = concat!(env!("CARGO_MANIFEST_DIR"), "/models/torus.obj");
    let corner_args = [file, torus, "--pose", corners.to_str().unwrap(), "--json"];
    let collide = json(&[&["collide"][..], &corner_args, &limit].concat());
    let distance = json(&[&["distance"][..], &corner_args, &limit].concat());
    for (c, d) in collide["poses"]
        .as_array()
        .unwrap()
        .iter()
        .zip(distance["poses"].as_array().unwrap())
    {
        assert_eq!(c["intersecting"], false);
        let dist = d["distance"].as_f64().unwrap();
        assert!(dist >= CORNER_CLEARANCE, "{dist} < {CORNER_CLEARANCE}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
