//! Reading back a glTF export: the gltf crate's parse, what the default
//! scene draws, the colliders in world space, containment, the Khronos
//! validator and bvtool's own reload.

use super::instance_world_points;
use base64::Engine as _;
use bvtool::Scene;
use bvtool::export::gltf::instance_label;
use nalgebra::{Matrix3, Matrix4, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A parsed export: the JSON and the one buffer's bytes.
pub struct Out {
    pub json: Value,
    pub bin: Vec<u8>,
    pub doc: gltf::Document,
}

pub fn parse(bytes: &[u8]) -> Out {
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
pub fn world_nodes(json: &Value) -> Vec<(usize, Matrix4<f64>)> {
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
pub fn drawn(o: &Out) -> (usize, usize, Vec<Point3<f64>>) {
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
pub fn colliders(
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

/// Asserts the export has a box and a sphere for the file and, with
/// `per_mesh`, for every mesh instance with triangles, and that each
/// contains every vertex it bounds (world space, exact `f64` test).
pub fn assert_contains(o: &Out, s: &Scene, per_mesh: bool) {
    let (boxes, spheres) = colliders(&o.json);
    let with_triangles: Vec<usize> = (0..s.instances.len())
        .filter(|&i| !s.instances[i].geometry.triangles.is_empty())
        .collect();
    let sets = if per_mesh {
        1 + with_triangles.len()
    } else {
        1
    };
    assert_eq!(boxes.len(), sets);
    assert_eq!(spheres.len(), sets);
    let points = |name: &str| -> Vec<Point3<f64>> {
        if name.ends_with(" of file") {
            return s.world_points(false);
        }
        let i = with_triangles
            .iter()
            .copied()
            .find(|&i| {
                let m = &s.instances[i];
                name.ends_with(&format!(
                    " of {}",
                    instance_label(m.node, m.instance, m.mesh, m.primitive)
                ))
            })
            .unwrap_or_else(|| panic!("no instance for collider {name}"));
        instance_world_points(s, i)
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

pub fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("bvtool-export-gltf-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the Khronos validator on `file` if it is installed; the number of
/// errors it reports (`None` when not installed).
pub fn validator_errors(file: &Path) -> Option<(u64, String)> {
    let dir = std::env::var_os("GLTF_VALIDATOR_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/node-tools"));
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
pub fn bvtool_reload(file: &Path, triangles: usize, lines: usize) {
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
