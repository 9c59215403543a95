//! `bvtool colliders`: a file's engine-named colliders against its render
//! meshes, against closed forms (a unit cube with a smaller and a larger
//! box as colliders), against what `bvtool export` promises (its colliders
//! hold every vertex: no shortfall), and on bad input.

use bvtool_dev::run;
use serde_json::Value;
use std::path::{Path, PathBuf};

const EXE: &str = env!("CARGO_BIN_EXE_bvtool");
const CHAIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/chain.gltf");

fn folder(name: &str) -> PathBuf {
    bvtool_dev::scratch!(format!("colliders-{name}"))
}

/// An OBJ object: the box of half extents `h` about `c`, outward.
fn cuboid(name: &str, c: [f64; 3], h: [f64; 3], base: usize) -> String {
    let mut s = format!("o {name}\n");
    for k in 0..8 {
        let at = |a: usize| c[a] + if (k >> a) & 1 == 1 { h[a] } else { -h[a] };
        s += &format!("v {} {} {}\n", at(0), at(1), at(2));
    }
    for t in bvtool_dev::shapes::cube_triangles() {
        s += &format!(
            "f {} {} {}\n",
            base + t[0] as usize + 1,
            base + t[1] as usize + 1,
            base + t[2] as usize + 1
        );
    }
    s
}

fn write(dir: &Path, name: &str, objects: &[(&str, [f64; 3], [f64; 3])]) -> String {
    let text: String = objects
        .iter()
        .enumerate()
        .map(|(k, (n, c, h))| cuboid(n, *c, *h, 8 * k))
        .collect();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

fn check(file: &str) -> Value {
    let (code, out, err) = run(EXE, &["colliders", file, "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    doc["files"][0].clone()
}

/// `[x, x + bound]` holds `truth`.
fn brackets(m: &Value, key: &str, truth: f64) {
    let (x, b) = (m[key].as_f64().unwrap(), m["bound"].as_f64().unwrap());
    assert!(
        x <= truth + 1e-12 && truth <= x + b + 1e-12,
        "{key}: {truth} not in {m}"
    );
}

#[test]
fn a_cube_with_a_box_inside_and_a_box_around() {
    let d = folder("cube");
    // The render cube of side 1 about the origin; Unreal's UCX_ box of half
    // side 0.4 inside it, and Godot's box of half side 0.6 around it.
    let file = write(
        &d,
        "cube.obj",
        &[
            ("Cube", [0.0; 3], [0.5; 3]),
            ("UCX_Cube_00", [0.0; 3], [0.4; 3]),
            ("Cube_box_00-convcolonly", [0.0; 3], [0.6; 3]),
        ],
    );
    let f = check(&file);
    assert_eq!(f["render_meshes"], 1);
    assert_eq!(f["conventions"], serde_json::json!(["unreal", "godot"]));
    let groups = f["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{f}");
    // The inner box: its surface stands 0.1 inside the cube's everywhere,
    // and the cube's corners stick out √3·0.1, at a corner.
    let inner = &groups[0];
    assert_eq!(inner["mesh"], "Cube");
    assert_eq!(inner["colliders"], serde_json::json!(["UCX_Cube_00"]));
    assert_eq!(inner["triangles"], 12);
    brackets(&inner["air"], "air", 0.1);
    brackets(&inner["shortfall"], "shortfall", 3f64.sqrt() * 0.1);
    let p: Vec<f64> = serde_json::from_value(inner["shortfall"]["point"].clone()).unwrap();
    assert!(p.iter().all(|x| (x.abs() - 0.5).abs() < 1e-12), "{p:?}");
    // The outer box, the whole file's (Godot ties it to no mesh): its
    // corners stand √3·0.1 off the cube's, and it holds the cube.
    let outer = &groups[1];
    assert!(outer["mesh"].is_null());
    brackets(&outer["air"], "air", 3f64.sqrt() * 0.1);
    brackets(&outer["shortfall"], "shortfall", 0.0);
    assert_eq!(f["unbound"], serde_json::json!([]));
    // The text says the same.
    let (code, out, _) = run(EXE, &["colliders", &file]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Cube") && out.contains("(whole file)"),
        "{out}"
    );
    assert!(
        out.contains("farthest out: Cube at (-0.500, -0.500, -0.500)"),
        "{out}"
    );
}

#[test]
fn colliders_of_two_boxes_count_as_their_union() {
    let d = folder("union");
    // A bar of length 2 and two boxes along it with a gap of 0.2 between
    // them (the bar's cross-section lies inside both boxes' y and z).
    let file = write(
        &d,
        "bar.obj",
        &[
            ("Bar", [0.0; 3], [1.0, 0.1, 0.1]),
            ("UBX_Bar_00", [-0.6, 0.0, 0.0], [0.5, 0.2, 0.2]),
            ("UBX_Bar_01", [0.6, 0.0, 0.0], [0.5, 0.2, 0.2]),
        ],
    );
    let g = &check(&file)["groups"][0];
    assert_eq!(g["colliders"].as_array().unwrap().len(), 2);
    // Both boxes stop 0.1 short of the bar's ends, and the gap [-0.1, 0.1]
    // between them leaves the bar's middle 0.1 from either: the bar sticks
    // out 0.1.
    brackets(&g["shortfall"], "shortfall", 0.1);
}

#[test]
fn an_export_holds_what_it_bounds() {
    let d = folder("export");
    // OBJ and glTF with Unreal names: each ring's three colliders; glTF with
    // Godot names: the six together, bounding the whole file.
    for (name, extra, groups, each) in [
        ("chain.obj", &["--format", "obj"][..], 2, 3),
        (
            "unreal.glb",
            &["--format", "gltf", "--naming", "unreal"][..],
            2,
            3,
        ),
        (
            "godot.glb",
            &["--format", "gltf", "--naming", "godot"][..],
            1,
            6,
        ),
    ] {
        let out = d.join(name).display().to_string();
        let mut args = vec![
            "export",
            CHAIN,
            "--shape",
            "capsule,kdop26,hull",
            "-o",
            &out,
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = run(EXE, &args);
        assert_eq!(code, 0, "{err}");
        let f = check(&out);
        let found = f["groups"].as_array().unwrap();
        assert_eq!(found.len(), groups, "{name}: {f}");
        for g in found {
            assert_eq!(
                g["colliders"].as_array().unwrap().len(),
                each,
                "{name}: {g}"
            );
            // Every exported collider mesh circumscribes its shape, which
            // holds every vertex: nothing sticks out (up to rounding).
            let s = &g["shortfall"];
            assert!(
                s["shortfall"].as_f64().unwrap() <= s["bound"].as_f64().unwrap(),
                "{name}: {g}"
            );
            // The air is positive and under the ring's size.
            let a = g["air"]["air"].as_f64().unwrap();
            assert!(a > 0.0 && a < 2.0, "{name}: {g}");
        }
    }
}

#[test]
fn what_is_not_measured_and_bad_input() {
    let d = folder("bad");
    // An Unreal collider naming no render mesh bounds the whole file; a
    // concave Godot collider and a flat one are listed, not measured.
    let mut text = cuboid("Crate", [0.0; 3], [0.5; 3], 0);
    text += &cuboid("UCX_Elsewhere", [0.0; 3], [0.5; 3], 8);
    text += &cuboid("Crate-colonly", [0.0; 3], [0.5; 3], 16);
    text += "o UCX_Crate_01\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 25 26 27\n";
    let p = d.join("crate.obj");
    std::fs::write(&p, text).unwrap();
    let f = check(&p.display().to_string());
    let groups = f["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{f}");
    assert!(groups[0]["mesh"].is_null());
    assert_eq!(groups[0]["colliders"], serde_json::json!(["UCX_Elsewhere"]));
    let not: Vec<String> = serde_json::from_value(f["not_measured"].clone()).unwrap();
    assert_eq!(not.len(), 2, "{not:?}");
    assert!(not[0].starts_with("Crate-colonly: concave"), "{not:?}");
    assert!(not[1].starts_with("UCX_Crate_01: flat"), "{not:?}");
    // No collider at all: one line naming the file, exit 1.
    let plain = write(&d, "plain.obj", &[("Crate", [0.0; 3], [0.5; 3])]);
    let (code, _, err) = run(EXE, &["colliders", &plain]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("plain.obj") && err.contains("no collider meshes"),
        "{err}"
    );
    // Colliders and no render mesh.
    let only = write(&d, "only.obj", &[("UCX_Crate", [0.0; 3], [0.5; 3])]);
    let (code, _, err) = run(EXE, &["colliders", &only]);
    assert_eq!(code, 1);
    assert!(err.contains("no render mesh"), "{err}");
}
