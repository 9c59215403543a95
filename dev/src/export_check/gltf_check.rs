//! Reading back a glTF export: the gltf crate's parse, what the default
//! scene draws, the colliders in world space, containment, the Khronos
//! validator and bvtool's own reload.

use super::instance_world_points;
use base64::Engine as _;
use bvtool::Scene;
use bvtool::export::ExportDoc;
use bvtool::mesh::Format;
use nalgebra::{Matrix4, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A parsed export: the JSON and the one buffer's bytes.
pub struct Out {
    /// The glTF JSON as written.
    pub json: Value,
    /// The bytes of its one buffer.
    pub bin: Vec<u8>,
    /// The document as the gltf crate reads it.
    pub doc: gltf::Document,
}

/// Parses an export (`.glb` or `.gltf` with an embedded buffer).
pub fn parse(bytes: &[u8]) -> Out {
    let g = gltf::Gltf::from_slice(bytes).expect("the gltf crate accepts the export");
    // The JSON as written (serde_json keeps every f64; the gltf crate's
    // own types hold node transforms in f32).
    let text = if bytes.starts_with(b"glTF") {
        gltf::Glb::from_slice(bytes).unwrap().json.into_owned()
    } else {
        bytes.to_vec()
    };
    let json: Value = serde_json::from_slice(&text).unwrap();
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

/// A collider's shape in its node's frame, as the glTF gives it.
#[derive(Debug)]
pub enum Kind {
    /// HALF extents (half the `size`).
    Box(Vector3<f64>),
    /// Radius.
    Sphere(f64),
    /// `half`: half the `height` (the distance between the capping
    /// spheres' centres).
    Capsule {
        /// Half the height.
        half: f64,
        /// Radius.
        radius: f64,
    },
    /// `half`: half the full height.
    Cylinder {
        /// Half the height.
        half: f64,
        /// Radius.
        radius: f64,
    },
    /// The convex mesh's vertices' hull (the collider), built once.
    Convex(bvtool::fit::ConvexHull),
}

/// A collider node of the default scene.
#[derive(Debug)]
pub struct Collider {
    /// The node's name.
    pub name: String,
    /// The node it hangs under.
    pub parent: Option<usize>,
    /// Its node's world matrix.
    pub world: Matrix4<f64>,
    /// Its shape.
    pub kind: Kind,
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// Every collider node of the default scene, read from the JSON (and, for
/// convex meshes, the buffer), checking the rules of KHR_implicit_shapes
/// and KHR_physics_rigid_bodies that the Khronos validator does not know:
/// `type` names the one shape property present; no degenerate shape (box
/// sizes, sphere radius and capsule/cylinder heights positive, radii
/// non-negative and not both zero); a geometry has exactly one of `shape`
/// and `node`, a `node` geometry is a convex hull of a node with a mesh.
pub fn colliders(o: &Out) -> Vec<Collider> {
    let json = &o.json;
    let shapes = json["extensions"]["KHR_implicit_shapes"]["shapes"].as_array();
    let mut parent = std::collections::HashMap::new();
    for (i, n) in json["nodes"].as_array().unwrap().iter().enumerate() {
        for c in n["children"].as_array().into_iter().flatten() {
            parent.insert(c.as_u64().unwrap() as usize, i);
        }
    }
    let mut out = Vec::new();
    for (i, m) in world_nodes(json) {
        let n = &json["nodes"][i];
        let g = &n["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"];
        if g.is_null() {
            continue;
        }
        let name = n["name"].as_str().unwrap().to_string();
        assert!(
            g["shape"].is_null() != g["node"].is_null(),
            "{name}: exactly one of shape and node"
        );
        let kind = if let Some(k) = g["shape"].as_u64() {
            let shape = &shapes.expect("shapes declared")[k as usize];
            let t = shape["type"].as_str().unwrap();
            let keys: Vec<&String> = shape.as_object().unwrap().keys().collect();
            assert_eq!(keys.len(), 2, "{name}: type and one shape: {keys:?}");
            let p = &shape[t];
            match t {
                "box" => {
                    let size: Vec<f64> = p["size"].as_array().unwrap().iter().map(f).collect();
                    assert!(size.len() == 3 && size.iter().all(|&s| s > 0.0), "{name}");
                    Kind::Box(Vector3::new(size[0], size[1], size[2]) * 0.5)
                }
                "sphere" => {
                    let r = f(&p["radius"]);
                    assert!(r > 0.0, "{name}");
                    Kind::Sphere(r)
                }
                "capsule" | "cylinder" => {
                    let (h, top, bottom) =
                        (f(&p["height"]), f(&p["radiusTop"]), f(&p["radiusBottom"]));
                    assert!(h > 0.0 && top >= 0.0 && bottom >= 0.0 && top.max(bottom) > 0.0);
                    assert_eq!(top, bottom, "{name}: bvtool writes straight shapes");
                    if t == "capsule" {
                        Kind::Capsule {
                            half: h / 2.0,
                            radius: top,
                        }
                    } else {
                        Kind::Cylinder {
                            half: h / 2.0,
                            radius: top,
                        }
                    }
                }
                t => panic!("{name}: shape type {t}"),
            }
        } else {
            assert_eq!(g["convexHull"], Value::Bool(true), "{name}");
            let holder = g["node"].as_u64().unwrap() as usize;
            let mesh = o.doc.nodes().nth(holder).unwrap().mesh().expect("a mesh");
            let mut pts = Vec::new();
            for p in mesh.primitives() {
                let r = p.reader(|_| Some(&o.bin[..]));
                pts.extend(
                    r.read_positions()
                        .unwrap()
                        .map(|q| Point3::new(q[0] as f64, q[1] as f64, q[2] as f64)),
                );
            }
            Kind::Convex(bvtool::fit::ConvexHull::new(&pts).unwrap())
        };
        out.push(Collider {
            name,
            parent: parent.get(&i).copied(),
            world: m,
            kind,
        });
    }
    out
}

/// Distance from `q` to the segment from (0, −half, 0) to (0, half, 0).
fn to_y_segment(q: &Point3<f64>, half: f64) -> f64 {
    let y = q.y.clamp(-half, half);
    (q - Point3::new(0.0, y, 0.0)).norm()
}

/// Whether the collider holds `p` (world): `p` taken into the collider
/// node's frame by the inverse of its world matrix (exact up to `f64`
/// rounding, far below the `f32` margins).
pub fn holds(c: &Collider, p: &Point3<f64>) -> bool {
    let inv = c.world.try_inverse().expect("an invertible collider frame");
    let q = inv.transform_point(p);
    match &c.kind {
        Kind::Box(h) => (0..3).all(|i| q[i].abs() <= h[i]),
        Kind::Sphere(r) => q.coords.norm() <= *r,
        Kind::Capsule { half, radius } => to_y_segment(&q, *half) <= *radius,
        Kind::Cylinder { half, radius } => q.y.abs() <= *half && q.x.hypot(q.z) <= *radius,
        Kind::Convex(h) => h.contains(&q),
    }
}

/// What [`assert_contains`] saw.
#[derive(Debug, Default)]
pub struct Seen {
    /// Colliders in the node's frame (hung under its node).
    pub local: usize,
    /// Colliders in the world frame.
    pub world: usize,
    /// Capsules some vertex of which would fall outside if `height` were
    /// read as the total height (ends at ±(height/2 − radius)).
    pub capsules_not_total_height: usize,
    /// Capsules whose total-height reading is a capsule at all.
    pub capsules_checked: usize,
}

/// Asserts the export holds exactly `doc`'s colliders, by name; that a
/// local-frame collider hangs under its instance's node (glTF input) or
/// under a node drawing its instance's mesh; and that each contains every
/// vertex it bounds (world space: the mesh instance's, or the scene's).
pub fn assert_contains(o: &Out, s: &Scene, doc: &ExportDoc) -> Seen {
    let gl = colliders(o);
    assert_eq!(gl.len(), doc.colliders.len(), "collider count");
    let mut seen = Seen::default();
    for c in &doc.colliders {
        let g = gl
            .iter()
            .find(|g| g.name == c.name)
            .unwrap_or_else(|| panic!("no collider node {}", c.name));
        let points = match c
            .instance_key()
            .map(|key| bvtool::export::collider::instance_index(s)[&key])
        {
            Some(k) => instance_world_points(s, k),
            None => s.world_points(false),
        };
        if c.frame == "local" {
            seen.local += 1;
            let parent = g.parent.expect("a local collider hangs under a node");
            if matches!(s.format, Format::Gltf | Format::Glb) {
                assert_eq!(Some(parent as u32), c.placement_node(), "{}", c.name);
            } else {
                assert!(o.json["nodes"][parent]["mesh"].is_u64(), "{}", c.name);
            }
        } else {
            seen.world += 1;
        }
        for p in &points {
            assert!(
                holds(g, p),
                "{} misses {p} (local {}, {:?})",
                c.name,
                g.world.try_inverse().unwrap().transform_point(p),
                g.kind
            );
        }
        if let Kind::Capsule { half, radius } = g.kind
            && half > radius
        {
            seen.capsules_checked += 1;
            let total = Collider {
                kind: Kind::Capsule {
                    half: half - radius,
                    radius,
                },
                name: String::new(),
                parent: None,
                world: g.world,
            };
            if points.iter().any(|p| !holds(&total, p)) {
                seen.capsules_not_total_height += 1;
            }
        }
    }
    seen
}

/// Runs the Khronos validator on `file` if it is installed; the number of
/// errors it reports (`None` when not installed).
pub fn validator_errors(file: &Path) -> Option<(u64, String)> {
    let dir = std::env::var_os("GLTF_VALIDATOR_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::repo_dir().join("target/node-tools"));
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
