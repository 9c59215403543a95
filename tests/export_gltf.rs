//! The glTF export: the output parses (gltf crate), keeps every triangle,
//! adds LINES debug primitives and `KHR_implicit_shapes` /
//! `KHR_physics_rigid_bodies` colliders that contain every vertex once the
//! node transforms are applied, survives a second export (buffers carried
//! over), and passes the Khronos glTF validator when node and the npm
//! `gltf-validator` package are present (`$GLTF_VALIDATOR_DIR`, default
//! `../node-tools` beside the crate).

mod export_support;

use base64::Engine as _;
use bvtool::Scene;
use bvtool::export::gltf::{GltfOptions, write};
use bvtool::mesh::Format;
use export_support::{doc, instance_world_points, scene};
use nalgebra::{Matrix3, Matrix4, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A parsed export: the JSON and the one buffer's bytes.
struct Out {
    json: Value,
    bin: Vec<u8>,
    doc: gltf::Document,
}

fn parse(bytes: &[u8]) -> Out {
    let g = gltf::Gltf::from_slice(bytes).expect("the gltf crate accepts the export");
    let json: Value = serde_json::to_value(g.document.as_json()).unwrap();
    let bin = match g.blob.clone() {
        Some(b) => b,
        None => match json["buffers"][0]["uri"].as_str() {
            Some(uri) => base64::engine::general_purpose::STANDARD
                .decode(uri.split_once(";base64,").unwrap().1)
                .unwrap(),
            None => Vec::new(),
        },
    };
    Out {
        json,
        bin,
        doc: g.document,
    }
}

fn local(n: &Value) -> Matrix4<f64> {
    if let Some(m) = n["matrix"].as_array() {
        return Matrix4::from_iterator(m.iter().map(|x| x.as_f64().unwrap()));
    }
    let v = |k: &str, d: &[f64]| -> Vec<f64> {
        n[k].as_array()
            .map(|a| a.iter().map(|x| x.as_f64().unwrap()).collect())
            .unwrap_or_else(|| d.to_vec())
    };
    let t = v("translation", &[0.0; 3]);
    let r = v("rotation", &[0.0, 0.0, 0.0, 1.0]);
    let s = v("scale", &[1.0; 3]);
    let q = UnitQuaternion::from_quaternion(Quaternion::new(r[3], r[0], r[1], r[2]));
    Translation3::new(t[0], t[1], t[2]).to_homogeneous()
        * q.to_homogeneous()
        * Matrix4::new_nonuniform_scaling(&Vector3::new(s[0], s[1], s[2]))
}

/// Every node of the default scene with its world matrix, depth-first in
/// scene order.
fn world_nodes(json: &Value) -> Vec<(usize, Matrix4<f64>)> {
    let scene = json["scene"].as_u64().unwrap_or(0) as usize;
    let mut stack: Vec<(usize, Matrix4<f64>)> = json["scenes"][scene]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .map(|n| (n.as_u64().unwrap() as usize, Matrix4::identity()))
        .collect();
    let mut out = Vec::new();
    while let Some((i, parent)) = stack.pop() {
        let n = &json["nodes"][i];
        let m = parent * local(n);
        out.push((i, m));
        for c in n["children"].as_array().into_iter().flatten().rev() {
            stack.push((c.as_u64().unwrap() as usize, m));
        }
    }
    out
}

/// Triangles (TRIANGLES primitives) and LINES primitives drawn by the
/// default scene, and the world positions of its triangle vertices.
fn drawn(o: &Out) -> (usize, usize, Vec<Point3<f64>>) {
    let (mut tris, mut lines, mut pts) = (0, 0, Vec::new());
    for (i, m) in world_nodes(&o.json) {
        let Some(mesh) = o.doc.nodes().nth(i).unwrap().mesh() else {
            continue;
        };
        for p in mesh.primitives() {
            let r = p.reader(|_| Some(&o.bin[..]));
            match p.mode() {
                gltf::mesh::Mode::Triangles => {
                    tris += r.read_indices().unwrap().into_u32().count() / 3;
                    pts.extend(r.read_positions().unwrap().map(|q| {
                        m.transform_point(&Point3::new(q[0] as f64, q[1] as f64, q[2] as f64))
                    }));
                }
                gltf::mesh::Mode::Lines => lines += 1,
                other => panic!("unexpected mode {other:?}"),
            }
        }
    }
    (tris, lines, pts)
}

/// Collider boxes `(center, axes, half)` and spheres `(center, radius)` in
/// world space, with their node names.
#[allow(clippy::type_complexity)]
fn colliders(
    json: &Value,
) -> (
    Vec<(String, Point3<f64>, Matrix3<f64>, Vector3<f64>)>,
    Vec<(String, Point3<f64>, f64)>,
) {
    let shapes = json["extensions"]["KHR_implicit_shapes"]["shapes"]
        .as_array()
        .unwrap();
    let (mut boxes, mut spheres) = (Vec::new(), Vec::new());
    for (i, m) in world_nodes(json) {
        let n = &json["nodes"][i];
        let Some(k) =
            n["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"]["shape"].as_u64()
        else {
            continue;
        };
        let name = n["name"].as_str().unwrap().to_string();
        let shape = &shapes[k as usize];
        let center = m.transform_point(&Point3::origin());
        match shape["type"].as_str().unwrap() {
            "box" => {
                let size: Vec<f64> = shape["box"]["size"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect();
                assert!(size.iter().all(|&s| s > 0.0), "degenerate box");
                let axes = m.fixed_view::<3, 3>(0, 0).into_owned();
                boxes.push((
                    name,
                    center,
                    axes,
                    Vector3::new(size[0], size[1], size[2]) * 0.5,
                ));
            }
            "sphere" => {
                let r = shape["sphere"]["radius"].as_f64().unwrap();
                assert!(r > 0.0);
                spheres.push((name, center, r));
            }
            t => panic!("shape type {t}"),
        }
    }
    (boxes, spheres)
}

fn assert_contains(o: &Out, s: &Scene, per_mesh: bool) {
    let (boxes, spheres) = colliders(&o.json);
    let sets = if per_mesh { 1 + s.instances.len() } else { 1 };
    assert_eq!(boxes.len(), sets);
    assert_eq!(spheres.len(), sets);
    let points = |name: &str| -> Vec<Point3<f64>> {
        match (0..s.instances.len()).find(|&i| name.ends_with(&format!("mesh {i} primitive 0"))) {
            Some(i) => instance_world_points(s, i),
            None => {
                assert!(name.ends_with("of file"), "{name}");
                s.world_points(false)
            }
        }
    };
    for (name, c, axes, h) in &boxes {
        for p in points(name) {
            let d = axes.transpose() * (p - c);
            assert!((0..3).all(|i| d[i].abs() <= h[i]), "{name} misses {p}");
        }
    }
    for (name, c, r) in &spheres {
        for p in points(name) {
            assert!(nalgebra::distance(c, &p) <= *r, "{name} misses {p}");
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("bvtool-export-gltf-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the Khronos validator on `file` if it is installed; the number of
/// errors it reports (`None` when not installed).
fn validator_errors(file: &Path) -> Option<(u64, String)> {
    let dir = std::env::var_os("GLTF_VALIDATOR_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../node-tools"));
    let pkg = dir.join("node_modules/gltf-validator");
    let node_ok = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !pkg.is_dir() || !node_ok {
        eprintln!(
            "skipping the Khronos validator: node or {} missing",
            pkg.display()
        );
        return None;
    }
    let script = file.with_extension("validate.js");
    std::fs::write(
        &script,
        r#"const v = require(process.argv[2]);
const data = new Uint8Array(require('fs').readFileSync(process.argv[3]));
v.validateBytes(data).then(r => console.log(JSON.stringify(r.issues)))
 .catch(e => { console.error(String(e)); process.exit(1); });"#,
    )
    .unwrap();
    let out = std::process::Command::new("node")
        .arg(&script)
        .arg(&pkg)
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "validator crashed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let issues: Value = serde_json::from_slice(&out.stdout).unwrap();
    eprintln!(
        "Khronos validator on {}: {} errors, {} warnings, {} infos",
        file.display(),
        issues["numErrors"],
        issues["numWarnings"],
        issues["numInfos"]
    );
    Some((issues["numErrors"].as_u64().unwrap(), issues.to_string()))
}

/// Loads the export with bvtool itself when its glTF loader is there.
fn bvtool_reload(file: &Path, triangles: usize, lines: usize) {
    match bvtool::load::load(file, &Default::default()) {
        Ok(s) => {
            assert_eq!(s.triangle_count(), triangles);
            assert_eq!(s.skipped_primitives, lines);
        }
        Err(e) if e.to_string().contains("not implemented") => {
            eprintln!("skipping the bvtool reload: {e}")
        }
        Err(e) => panic!("bvtool cannot load its own export: {e}"),
    }
}

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
