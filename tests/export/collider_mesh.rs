//! Colliders as convex meshes named by engine conventions: the OBJ form
//! reloads with bvtool's own OBJ reader, each collider object is named with
//! Unreal's prefix for its shape after a render object of the file, is a
//! closed, outward-facing triangle mesh, and the convex hull of its
//! vertices (what an engine builds) contains every vertex of the object it
//! bounds; the glTF form with Godot's suffix hangs each collider mesh
//! under its node, contains the node's vertices as the file places both,
//! and passes the Khronos validator.

use crate::scratch;
use bvtool_dev as common;
use bvtool_dev::export_check as export_support;

use bvtool::Scene;
use bvtool::export::collider::Geometry;
use bvtool::export::collider_mesh::{self, Naming};
use bvtool::export::gltf::{GltfOptions, write};
use bvtool::export::obj;
use bvtool::fit::ConvexHull;
use bvtool::mesh::Format;
use export_support::gltf_check::{parse, validator_errors, world_nodes};
use export_support::{ALL_SHAPES, doc_with, scene};
use nalgebra::Point3;
use std::collections::HashMap;

/// A positive signed volume (facing outwards) and, with `closed`, every
/// directed edge once and its reverse once (closed and consistently
/// wound). The fitters' polytopes (k-DOPs, hulls) may have a vertex on a
/// neighbour face's edge, which an engine's hull of the vertices ignores:
/// they are checked for volume only.
fn assert_closed_outward(name: &str, pts: &[Point3<f64>], tris: &[[u32; 3]], closed: bool) {
    let mut edges: HashMap<(u32, u32), usize> = HashMap::new();
    for t in tris {
        for k in 0..3 {
            *edges.entry((t[k], t[(k + 1) % 3])).or_default() += 1;
        }
    }
    for (&(a, b), &n) in edges.iter().filter(|_| closed) {
        assert_eq!(n, 1, "{name}: edge {a}-{b} used {n} times");
        assert_eq!(edges.get(&(b, a)), Some(&1), "{name}: edge {a}-{b} open");
    }
    let volume: f64 = tris
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| pts[i as usize].coords);
            a.dot(&b.cross(&c)) / 6.0
        })
        .sum();
    assert!(volume > 0.0, "{name}: volume {volume}");
}

fn check_obj(s: &Scene, shapes: &[bvtool::fit::ShapeSpec], tag: &str) {
    let d = doc_with(s, shapes, true);
    let text = obj::to_string(s, &d, Naming::Unreal);
    let dir = scratch(tag);
    let file = dir.join("colliders.obj");
    std::fs::write(&file, &text).unwrap();
    let back = bvtool::load::load(&file, &Default::default()).unwrap();
    let objects: HashMap<String, &bvtool::mesh::MeshInstance> = back
        .instances
        .iter()
        .map(|i| (i.mesh_name.as_deref().unwrap().to_string(), i))
        .collect();
    let names = collider_mesh::render_names(s);
    let renders = s
        .instances
        .iter()
        .filter(|i| !i.geometry.triangles.is_empty())
        .count();
    assert_eq!(objects.len(), renders + d.colliders.len(), "{tag}");
    let index = bvtool::export::collider::instance_index(s);
    let mut counts: HashMap<String, usize> = HashMap::new();
    for c in &d.colliders {
        let render = c
            .instance_key()
            .map_or("scene".to_string(), |k| names[index[&k]].clone());
        let n = counts.entry(render.clone()).or_default();
        let prefix = match c.geometry {
            Geometry::Box(_) => "UBX",
            Geometry::Sphere { .. } => "USP",
            Geometry::Capsule { .. } => "UCP",
            _ => "UCX",
        };
        let name = format!("{prefix}_{render}_{n:02}");
        *n += 1;
        let m = objects
            .get(&name)
            .unwrap_or_else(|| panic!("{tag}: no object {name}"));
        let pts: Vec<Point3<f64>> = m.geometry.positions.clone();
        assert_closed_outward(
            &name,
            &pts,
            &m.geometry.triangles,
            !matches!(c.geometry, Geometry::Convex { .. }),
        );
        if let Geometry::Box(_) = c.geometry {
            assert_eq!(pts.len(), 8, "{name}");
        }
        let hull = ConvexHull::new(&pts).unwrap();
        let bounded: Vec<Point3<f64>> = if render == "scene" {
            names
                .iter()
                .filter_map(|r| objects.get(r))
                .flat_map(|i| i.geometry.positions.clone())
                .collect()
        } else {
            objects[&render].geometry.positions.clone()
        };
        assert!(!bounded.is_empty());
        for p in &bounded {
            assert!(hull.contains(p), "{tag}: {name} misses {p}");
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn obj_collider_meshes_named_for_unreal_contain_their_objects() {
    for seed in 0..3 {
        let s = scene(
            60 + seed,
            [1.0, 1e2, 1e4][seed as usize],
            Format::Obj,
            "synthetic.obj",
        );
        check_obj(&s, &ALL_SHAPES, &format!("synthetic{seed}"));
    }
    check_obj(&common::repo_scene("chain.gltf"), &ALL_SHAPES, "chain");
}

#[test]
fn gltf_collider_meshes_named_for_godot_hang_under_their_nodes() {
    let s = common::repo_scene("chain.gltf");
    let d = doc_with(&s, &ALL_SHAPES, false);
    let opts = GltfOptions {
        binary: true,
        naming: Some(Naming::Godot),
        ..Default::default()
    };
    let bytes = write(&s, &d, &opts).unwrap();
    let o = parse(&bytes);
    assert!(o.json["extensions"]["KHR_implicit_shapes"].is_null());
    let world: HashMap<usize, nalgebra::Matrix4<f64>> = world_nodes(&o.json).into_iter().collect();
    let mut seen = 0;
    for (node, inst) in [0usize, 1].iter().zip(&s.instances) {
        let children = o.json["nodes"][node]["children"].as_array().unwrap();
        assert_eq!(children.len(), ALL_SHAPES.len());
        for c in children {
            let c = c.as_u64().unwrap() as usize;
            let name = o.json["nodes"][c]["name"].as_str().unwrap();
            assert!(name.ends_with("-convcolonly"), "{name}");
            let mesh = o.doc.nodes().nth(c).unwrap().mesh().unwrap();
            let m = world[&c];
            let mut pts = Vec::new();
            let mut tris = Vec::new();
            for p in mesh.primitives() {
                let r = p.reader(|_| Some(&o.bin[..]));
                pts.extend(r.read_positions().unwrap().map(|q| {
                    m.transform_point(&Point3::new(q[0] as f64, q[1] as f64, q[2] as f64))
                }));
                let idx: Vec<u32> = r.read_indices().unwrap().into_u32().collect();
                tris.extend(idx.chunks(3).map(|t| [t[0], t[1], t[2]]));
            }
            assert_closed_outward(
                name,
                &pts,
                &tris,
                !name.contains("_kdop26_") && !name.contains("_hull_"),
            );
            let hull = ConvexHull::new(&pts).unwrap();
            let mut verts = Vec::new();
            bvtool::mesh::instance_points(inst, false, true, &mut verts);
            for p in &verts {
                assert!(hull.contains(p), "{name} misses {p}");
            }
            seen += 1;
        }
    }
    assert_eq!(seen, 2 * ALL_SHAPES.len());
    let dir = scratch("godot");
    let file = dir.join("chain_godot.glb");
    std::fs::write(&file, &bytes).unwrap();
    if let Some((errors, report)) = validator_errors(&file) {
        assert_eq!(errors, 0, "{report}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// The command line: `--shape` lists and JSON names; OBJ to stdout with
/// Unreal's names; `--shape` with bin writes the colliders the JSON has, by
/// name; a point cloud with `--shape` but no `--whole` is refused in one
/// line (exit 1).
#[test]
fn command_line_shapes_naming_and_refusals() {
    let chain = concat!(env!("CARGO_MANIFEST_DIR"), "/models/chain.gltf");
    let (code, out, err) = common::bvtool!(&[
        "export",
        chain,
        "--format",
        "json",
        "--shape",
        "capsule,hull",
        "--per-mesh",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let colliders = v["colliders"].as_array().unwrap();
    assert_eq!(colliders.len(), 4);
    assert_eq!(colliders[0]["type"], "capsule");
    assert_eq!(colliders[1]["type"], "convex");
    assert_eq!(colliders[0]["node_name"], "ring_a");
    assert_eq!(colliders[2]["node_name"], "ring_b");
    assert_eq!(v["meshes"][1]["node_name"], "ring_b");
    assert_eq!(v["meshes"][1]["mesh_name"], "torus");
    let (code, out, err) =
        common::bvtool!(&["export", chain, "--format", "obj", "--shape", "box,sphere"]);
    assert_eq!(code, 0, "{err}");
    let objects: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("o ")).collect();
    assert_eq!(
        objects,
        [
            "ring_a",
            "ring_b",
            "UBX_ring_a_00",
            "USP_ring_a_01",
            "UBX_ring_b_00",
            "USP_ring_b_01"
        ]
    );
    let dir = scratch("cloud");
    let bvt = dir.join("chain.bvt");
    let (code, _, err) = common::bvtool!(&[
        "export",
        chain,
        "--format",
        "bin",
        "-o",
        bvt.to_str().unwrap(),
        "--shape",
        "capsule,hull",
    ]);
    assert_eq!(code, 0, "{err}");
    let f = bvtool::export::bin::read(&std::fs::read(&bvt).unwrap()).unwrap();
    let names: Vec<&str> = f
        .colliders
        .records
        .iter()
        .map(|r| f.colliders.string(r.name).unwrap())
        .collect();
    let json_names: Vec<&str> = colliders
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, json_names);
    let cloud = dir.join("cloud.obj");
    std::fs::write(&cloud, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n").unwrap();
    let c = cloud.to_str().unwrap();
    let (code, _, err) = common::bvtool!(&["export", c, "--format", "json", "--shape", "sphere"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("cloud.obj") && err.contains("--whole") && err.lines().count() == 1,
        "{err}"
    );
    let (code, out, err) = common::bvtool!(&[
        "export", c, "--format", "json", "--shape", "sphere", "--whole",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["colliders"][0]["scope"], "scene");
    std::fs::remove_dir_all(dir).ok();
}
