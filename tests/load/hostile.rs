//! Hostile inputs found by mutating corpus files (issue 15): each made the
//! release binary panic, hang or exhaust memory. Each now gives an answer
//! (exit 0, checked against an oracle) or a one-line error naming the file
//! (exit 1). The originals took 17 s to forever on an idle machine, so a run
//! still going after 10 s fails the test (a hang guard, not a benchmark: the
//! work itself is asserted where it is counted, e.g. exact triangle tests;
//! measured times are in docs/algorithms.md).
//!
//! Small OBJ inputs are copied under `tests/data/hostile/`; the glTF ones
//! and the 60,000-corner face are written here, with the project's own
//! geometry.

use base64::Engine;
use bvtool::load::{LoadOptions, load};
use bvtool::query::brute_force;
use bvtool::{Pose, TriMesh};
use nalgebra::Point3;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn data(name: &str) -> String {
    format!("{}/tests/data/hostile/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary; kills it after 10 s. Returns exit code, stdout, stderr.
fn bvtool(args: &[&str]) -> (i32, String, String) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_bvtool"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(10) {
            child.kill().unwrap();
            panic!("bvtool {args:?} still running after 10 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Asserts a refusal: exit 1 and one stderr line naming `file` that holds
/// every one of `words`.
fn refused(args: &[&str], file: &str, words: &[&str]) {
    let (code, _, err) = bvtool(args);
    assert_eq!(code, 1, "bvtool {args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(file), "names {file}: {err}");
    for w in words {
        assert!(err.contains(w), "says {w:?}: {err}");
    }
}

fn temp_dir(name: &str) -> PathBuf {
    bvtool_dev::scratch!(format!("hostile-{name}"))
}

/// Every number in a JSON document is finite (serde_json writes NaN and
/// infinities as null, so a null where a number belongs counts too).
fn all_finite(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.as_f64().is_some_and(f64::is_finite),
        Value::Array(a) => a.iter().all(all_finite),
        Value::Object(o) => o.iter().all(|(_, v)| all_finite(v)),
        Value::Null => false,
        _ => true,
    }
}

/// A unit-ish octahedron with a dent: 7 vertices, 8 triangles, as glTF
/// accessors in one base64 buffer (positions then u16 indices).
fn octa() -> (Vec<[f32; 3]>, Vec<u16>) {
    let p = vec![
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, 1.5, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 2.0],
        [0.0, 0.0, -1.0],
        [0.1, 0.1, 0.1],
    ];
    let t = vec![
        0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 6,
    ];
    (p, t)
}

/// A glTF document around the octahedron: `nodes`, `extra_accessors`
/// appended after the two geometry accessors (indices 0 and 1), and
/// `extensions_used`.
fn gltf(nodes: Value, extra_accessors: &[Value], extensions_used: &[&str]) -> String {
    let (p, t) = octa();
    let mut bytes: Vec<u8> = p.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
    let pos_len = bytes.len();
    bytes.extend(t.iter().flat_map(|i| i.to_le_bytes()));
    let n = nodes.as_array().unwrap().len();
    let mut accessors = vec![
        json!({"bufferView": 0, "componentType": 5126, "count": p.len(), "type": "VEC3"}),
        json!({"bufferView": 1, "componentType": 5123, "count": t.len(), "type": "SCALAR"}),
    ];
    accessors.extend(extra_accessors.iter().cloned());
    json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": (0..n).collect::<Vec<_>>()}],
        "nodes": nodes,
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "accessors": accessors,
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": pos_len},
            {"buffer": 0, "byteOffset": pos_len, "byteLength": t.len() * 2}
        ],
        "buffers": [{
            "byteLength": bytes.len(),
            "uri": format!("data:application/octet-stream;base64,{}",
                base64::engine::general_purpose::STANDARD.encode(&bytes))
        }],
        "extensionsUsed": extensions_used,
    })
    .to_string()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

// ---- huge finite magnitudes: refused at load, for every command ----------

#[test]
fn huge_obj_coordinates_are_refused_naming_the_value_and_range() {
    for (file, value) in [
        ("big_tri.obj", "1e308"),
        ("cube_scaled_1.7e308.obj", "-8.5e307"),
        ("cube_at_1e100.obj", "1e100"),
    ] {
        let path = data(file);
        for cmd in [
            vec!["info", &path],
            vec!["fit", &path, "--obb", "all", "--sphere", "all"],
            vec!["tree", &path],
            vec!["collide", &path, &path, "--pose", "0.1,0,0"],
            vec!["verify", &path, &path, "--poses", "20"],
        ] {
            refused(&cmd, file, &[value, "outside the accepted range", "2^50"]);
        }
    }
}

#[test]
fn huge_node_scales_and_matrices_are_refused_in_world_space() {
    let dir = temp_dir("scale");
    let cases = [
        (
            "scale.gltf",
            json!([{"mesh": 0, "scale": [1e308, 1.0, 1.0]}]),
        ),
        (
            "scale_x.gltf",
            json!([{"mesh": 0, "scale": [1.7e308, 1.0, 1.0]}]),
        ),
        (
            "matrix.gltf",
            json!([{"mesh": 0, "matrix": [1e308, 0, 0, 0, 0, 1e308, 0, 0, 0, 0, 1e308, 0, 0, 0, 0, 1]}]),
        ),
        // Just past 2^50 after the transform, though every local value is small.
        (
            "far.gltf",
            json!([{"mesh": 0, "translation": [1.2e15, 0.0, 0.0]}]),
        ),
    ];
    for (name, nodes) in cases {
        let path = write(&dir, name, &gltf(nodes, &[], &[]));
        for cmd in [vec!["fit", &path], vec!["tree", &path]] {
            refused(
                &cmd,
                name,
                &["world coordinate", "outside the accepted range"],
            );
        }
    }
    let path = write(
        &dir,
        "projective.gltf",
        &gltf(
            json!([{"mesh": 0, "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0.5, 0, 0, 0, 1]}]),
            &[],
            &[],
        ),
    );
    refused(&["fit", &path], "projective.gltf", &["not affine"]);
}

#[test]
fn huge_pose_translations_are_refused() {
    let path = data("thin_plane.obj");
    // An inline pose is part of the command line: refused as a usage error.
    let (code, _, err) = bvtool(&["collide", &path, &path, "--pose", "1e300,0,0"]);
    assert_eq!(code, 2);
    assert!(err.contains("outside the accepted range"), "{err}");
}

#[test]
fn a_model_just_inside_the_range_gets_finite_answers() {
    // A unit cube 2^49 from the origin: f64 still resolves it (ulp 1/8).
    let dir = temp_dir("inside");
    let c = 2f64.powi(49);
    let mut obj = String::new();
    for i in 0..8 {
        let b = |k: usize| if i >> k & 1 == 1 { 4.0 } else { 0.0 };
        obj += &format!("v {} {} {}\n", c + b(0), c + b(1), c + b(2));
    }
    obj += "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
    let path = write(&dir, "cube_far.obj", &obj);
    let (code, out, err) = bvtool(&["fit", &path, "--obb", "all", "--sphere", "all", "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert!(all_finite(&doc), "{out}");
    let f = &doc["files"][0];
    assert_eq!(f["aabb"]["min"], json!([c, c, c]));
    assert_eq!(f["hull_volume"], 64.0);
    let (code, out, err) = bvtool(&["collide", &path, &path, "--pose", "3,0,0", "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["poses"][0]["intersecting"], true);
}

// ---- hangs ----------------------------------------------------------------

#[test]
fn tight_obb_of_two_thin_triangles_ends_and_contains_them() {
    let path = data("thin_plane.obj");
    let (code, out, err) = bvtool(&["fit", &path, "--obb", "all", "--sphere", "all", "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert!(all_finite(&doc), "{out}");
    let f = &doc["files"][0];
    let verts = [
        [15.0, -15.0, 0.0],
        [15.0, 15.0, 2147483647.0],
        [-15.0, 15.0, 4294967295.0],
        [-15.0, -15.0, 0.0],
    ];
    let aabb_volume = f["aabb"]["volume"].as_f64().unwrap();
    for (name, b) in f["obbs"].as_object().unwrap() {
        assert!(b["volume"].as_f64().unwrap() <= aabb_volume, "{name}");
        let c: Vec<f64> = (0..3).map(|i| b["center"][i].as_f64().unwrap()).collect();
        for v in verts {
            for k in 0..3 {
                let axis: Vec<f64> = (0..3).map(|i| b["axes"][k][i].as_f64().unwrap()).collect();
                let d: f64 = (0..3).map(|i| (v[i] - c[i]) * axis[i]).sum();
                let h = b["half_extents"][k].as_f64().unwrap();
                assert!(
                    d.abs() <= h * (1.0 + 1e-9) + 1e-6,
                    "{name}: vertex {v:?} outside"
                );
            }
        }
    }
    let (code, _, err) = bvtool(&["export", "--format", "c", &path, "-o", "/dev/null"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_face_of_60000_corners_is_triangulated_in_bounded_time() {
    // Random corners among the 4 vertices of a unit square (the finding's
    // rnd4_60000.obj, regenerated with a fixed LCG).
    let dir = temp_dir("ngon");
    let mut state = 12345u64;
    let mut face = String::from("f");
    for _ in 0..60_000 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        face += &format!(" {}", 1 + (state >> 33) % 4);
    }
    let text = format!("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n{face}\n");
    let path = write(&dir, "rnd4_60000.obj", &text);
    let (code, out, err) = bvtool(&["info", "--json", &path]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let f = &doc["files"][0];
    assert_eq!(f["triangles"], 59_998, "n - 2 triangles");
    assert_eq!(f["aabb"]["min"], json!([0.0, 0.0, 0.0]));
    assert_eq!(f["aabb"]["max"], json!([1.0, 1.0, 0.0]));
}

/// Pairs of coincident-triangle groups, expanded: the oracle for a stack of
/// copies. Triangles are grouped by their exact corner sets; brute force
/// decides each pair of groups once; every pair of members of two
/// intersecting groups intersects.
fn grouped_brute_force_count(mesh: &TriMesh, pose: &Pose) -> usize {
    let mut groups: HashMap<[[u64; 3]; 3], Vec<u32>> = HashMap::new();
    for i in 0..mesh.triangles.len() {
        let mut k = mesh.triangle(i).map(|p| p.coords.map(f64::to_bits).into());
        k.sort_unstable();
        groups.entry(k).or_default().push(i as u32);
    }
    let reps: Vec<&Vec<u32>> = groups.values().collect();
    let unique = TriMesh {
        vertices: reps
            .iter()
            .flat_map(|g| mesh.triangle(g[0] as usize))
            .collect(),
        triangles: (0..reps.len() as u32)
            .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
            .collect(),
        sources: Vec::new(),
    };
    brute_force(&unique, &unique, pose)
        .iter()
        .map(|&(a, b)| reps[a as usize].len() * reps[b as usize].len())
        .sum()
}

#[test]
fn stacked_coincident_triangles_collide_in_time_with_the_right_count() {
    let path = data("stacked_ngon_cube.obj");
    let spec = "0,0,0,45,30,10";
    let (code, out, err) = bvtool(&["collide", &path, &path, "--pose", spec, "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let pose = &doc["poses"][0];
    let mesh = load(Path::new(&path), &LoadOptions::default())
        .unwrap()
        .flatten();
    let expected = grouped_brute_force_count(&mesh, &Pose::parse_inline(spec).unwrap());
    assert!(expected > 1_000_000, "the stack really is big: {expected}");
    assert_eq!(pose["pair_count"], expected);
    // Exact tests in proportion to the distinct shapes, not the copies.
    assert!(pose["triangle_tests"].as_u64().unwrap() < 10_000, "{pose}");
    let (code, out, _) = bvtool(&["collide", &path, &path, "--pose", spec, "--first-contact"]);
    assert_eq!(code, 0);
    assert!(out.contains("yes"));
}

#[test]
fn verify_far_from_the_origin_answers_promptly() {
    let path = data("cube_at_1e100.obj");
    refused(
        &["verify", &path, &path, "--poses", "20"],
        "cube_at_1e100.obj",
        &["outside the accepted range"],
    );
}

// ---- memory -----------------------------------------------------------------

#[test]
fn unbacked_instancing_accessors_are_bounded() {
    let dir = temp_dir("unbacked");
    let nodes = json!([{"mesh": 0, "extensions": {"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": 2}}}}]);
    for (name, count, words) in [
        (
            "inst16M.gltf",
            16_777_216u64,
            vec!["more than 1048576 mesh instances"],
        ),
        (
            "inst1M.gltf",
            1_048_576,
            vec!["without a bufferView", "65536 zeros"],
        ),
    ] {
        let acc = json!({"count": count, "type": "VEC3", "componentType": 5126});
        let path = write(
            &dir,
            name,
            &gltf(nodes.clone(), &[acc], &["EXT_mesh_gpu_instancing"]),
        );
        for cmd in ["info", "fit"] {
            refused(&[cmd, &path], name, &words);
        }
    }
    // Within the bounds, zeros place every instance at the node: one shape.
    let acc = json!({"count": 1000, "type": "VEC3", "componentType": 5126});
    let path = write(
        &dir,
        "inst1000.gltf",
        &gltf(nodes, &[acc], &["EXT_mesh_gpu_instancing"]),
    );
    let (code, out, err) = bvtool(&["info", "--json", &path]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["files"][0]["instances"], 1000);
    assert_eq!(doc["files"][0]["triangles"], 8000);
}

#[test]
fn twenty_thousand_instances_fit_from_unique_geometry() {
    // 20,000 nodes: most at identity, three moved. The world volumes must be
    // those of the three distinct placements alone (the oracle: the same
    // file with only them), with every vertex counted.
    let dir = temp_dir("many");
    let moved = [
        json!({"mesh": 0, "translation": [5.0, 0.0, 0.0]}),
        json!({"mesh": 0, "rotation": [0.0, 0.38268343, 0.0, 0.92387953]}),
        json!({"mesh": 0, "scale": [1.0, 3.0, 1.0], "translation": [0.0, 0.0, -4.0]}),
    ];
    let mut many: Vec<Value> = (0..20_000 - 3).map(|_| json!({"mesh": 0})).collect();
    many.extend(moved.iter().cloned());
    let mut few = vec![json!({"mesh": 0})];
    few.extend(moved.iter().cloned());
    let many = write(&dir, "many.gltf", &gltf(Value::Array(many), &[], &[]));
    let few = write(&dir, "few.gltf", &gltf(Value::Array(few), &[], &[]));
    let fit = |path: &str| -> Value {
        let (code, out, err) =
            bvtool(&["fit", path, "--obb", "hull", "--sphere", "exact", "--json"]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<Value>(&out).unwrap()["files"][0].clone()
    };
    let (m, f) = (fit(&many), fit(&few));
    assert_eq!(m["vertices"], 20_000 * 7);
    assert_eq!(m["triangles"], 20_000 * 8);
    assert_eq!(m["aabb"], f["aabb"]);
    assert_eq!(m["hull_vertices"], f["hull_vertices"]);
    let close = |a: &Value, b: &Value| {
        let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
    };
    assert!(close(&m["hull_volume"], &f["hull_volume"]));
    assert!(close(&m["obb"]["volume"], &f["obb"]["volume"]));
    assert!(close(&m["sphere"]["radius"], &f["sphere"]["radius"]));
    // Commands that flatten refuse the 160,000 triangles under a lower limit,
    // with the limit named, rather than allocating.
    refused(
        &["tree", &many, "--max-triangles", "100000"],
        "many.gltf",
        &["160000 triangles", "limit of 100000", "--max-triangles"],
    );
    refused(
        &["info", &many, "--max-instances", "1000"],
        "many.gltf",
        &["more than 1000 mesh instances"],
    );
}

#[test]
fn the_centroid_sphere_from_moments_matches_the_points() {
    // The world fit combines per-geometry moments; the D3DX rule on the
    // flattened points is the oracle.
    let dir = temp_dir("moments");
    let nodes = json!([
        {"mesh": 0},
        {"mesh": 0, "translation": [3.0, 1.0, 0.5], "rotation": [0.2, 0.1, 0.0, 0.97467943]},
        {"mesh": 0, "scale": [2.0, 0.5, 1.0]}
    ]);
    let path = write(&dir, "three.gltf", &gltf(nodes, &[], &[]));
    let (code, out, err) = bvtool(&["fit", &path, "--sphere", "centroid", "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let s = &doc["files"][0]["sphere"];
    let pts: Vec<Point3<f64>> = load(Path::new(&path), &LoadOptions::default())
        .unwrap()
        .world_points(false);
    let mean = pts.iter().fold(Point3::origin(), |m, p| m + p.coords) / pts.len() as f64;
    for i in 0..3 {
        assert!((s["center"][i].as_f64().unwrap() - mean[i]).abs() < 1e-12);
    }
    let r = pts.iter().map(|p| (p - mean).norm()).fold(0.0, f64::max);
    let radius = s["radius"].as_f64().unwrap();
    assert!(
        radius >= r && radius <= r * (1.0 + 1e-12),
        "{radius} vs {r}"
    );
}
