//! The JSON export: valid against docs/bvtool-export.schema.json, the same
//! numbers as `bvtool fit --json`, and a tree a runtime can use as is.
//!
//! The schema is checked by the small validator of `export_support::schema`
//! rather than the `jsonschema` crate, to keep the build light.

use bvtool_dev::export_check as export_support;

use bvtool::export::{ExportDoc, json};
use bvtool::mesh::Format;
use bvtool::volumes::FileVolumes;
use export_support::schema::schema_errors;
use export_support::{arr, doc, fit_options, scene};
use serde_json::Value;

#[test]
fn exports_validate_against_the_schema() {
    for (tree, per_mesh) in [(false, false), (true, true), (true, false)] {
        let s = scene(7, 10.0, Format::Glb, "synthetic.glb");
        let text = json::to_string(&doc(&s, tree, per_mesh));
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(schema_errors(&v), Vec::<String>::new());
        assert_eq!(v["tree"].is_object(), tree);
        assert_eq!(
            v["meshes"].as_array().unwrap().len(),
            if per_mesh { 4 } else { 0 }
        );
    }
}

#[test]
fn the_validator_rejects_broken_exports() {
    let s = scene(7, 10.0, Format::Glb, "synthetic.glb");
    let good: Value = serde_json::from_str(&json::to_string(&doc(&s, true, true))).unwrap();
    let breakages: [(&str, Value); 6] = [
        ("/volumes/obb/half_extents", serde_json::json!([1.0, 2.0])),
        ("/volumes/sphere/method", serde_json::json!("magic")),
        ("/units", serde_json::json!("metres")),
        ("/tree/nodes/0/children", serde_json::json!("none")),
        ("/meshes/0/node", serde_json::json!(-1)),
        ("/tree/triangles/0", serde_json::json!([0, 1])),
    ];
    for (at, bad) in breakages {
        let mut v = good.clone();
        *v.pointer_mut(at).unwrap() = bad;
        assert!(!schema_errors(&v).is_empty(), "{at} accepted");
    }
    let mut v = good.clone();
    v.as_object_mut().unwrap().remove("frame");
    assert!(!schema_errors(&v).is_empty());
}

/// The export re-parses to the same document, and its volume numbers are
/// bit-identical to those of `bvtool fit --json` for the same scene.
#[test]
fn same_numbers_as_fit_json() {
    let s = scene(8, 100.0, Format::Glb, "synthetic.glb");
    let d = doc(&s, true, true);
    let text = json::to_string(&d);
    let back: ExportDoc = serde_json::from_str(&text).unwrap();
    assert!(
        back == d,
        "the JSON does not read back to the same document"
    );
    let exported: Value = serde_json::from_str(&text).unwrap();
    let fit = FileVolumes::new(
        "synthetic.glb",
        &s,
        &fit_options(
            bvtool::fit::ObbMethod::Tight,
            bvtool::fit::SphereMethod::Exact,
            true,
        ),
    )
    .unwrap();
    let fit: Value = serde_json::to_value(&fit).unwrap();
    let pairs = std::iter::once((&exported["volumes"], &fit)).chain(
        exported["meshes"]
            .as_array()
            .unwrap()
            .iter()
            .zip(fit["meshes"].as_array().unwrap()),
    );
    let mut n = 0;
    for (e, f) in pairs {
        for key in ["aabb", "obb", "sphere"] {
            for (k, x) in e[key].as_object().unwrap() {
                assert_eq!(x, &f[key][k], "{key}.{k}");
                n += 1;
            }
        }
        for key in ["triangles", "vertices", "frame"] {
            assert_eq!(e[key], f[key]);
        }
    }
    assert_eq!(n, 5 * 10, "5 volume sets of 2 + 5 + 3 fields");
}

/// The tree refers to the right triangles: each tree triangle's corners are
/// the world-space corners of the source triangle it names, the node ranges
/// nest, and each node's box contains its triangles' corners.
#[test]
fn tree_triangles_name_their_sources_and_sit_in_their_boxes() {
    let s = scene(9, 5.0, Format::Glb, "synthetic.glb");
    let d = doc(&s, true, false);
    let t = d.tree.as_ref().unwrap();
    assert_eq!(t.triangles.len(), s.triangle_count());
    let mut seen = vec![false; s.triangle_count()];
    for (tri, src) in t.triangles.iter().zip(&t.sources) {
        let inst = s
            .instances
            .iter()
            .find(|i| Some(i.node.unwrap()) == src.node && i.mesh == src.mesh)
            .unwrap();
        let orig = inst.geometry.triangles[src.triangle as usize];
        let mut want: Vec<[f64; 3]> = orig
            .iter()
            .map(|&k| arr(&inst.to_world(&inst.geometry.positions[k as usize])))
            .collect();
        let mut got: Vec<[f64; 3]> = tri.iter().map(|&k| t.vertices[k as usize]).collect();
        want.sort_by(|a, b| a.partial_cmp(b).unwrap());
        got.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(got, want);
        let flat: usize = s
            .instances
            .iter()
            .take_while(|i| i.mesh != src.mesh)
            .map(|i| i.geometry.triangles.len())
            .sum::<usize>()
            + src.triangle as usize;
        assert!(!std::mem::replace(&mut seen[flat], true), "triangle twice");
    }
    assert!(seen.iter().all(|&x| x));
    for (i, n) in t.nodes.iter().enumerate() {
        let b = n.obb.to_obb();
        let range = n.first_triangle as usize..(n.first_triangle + n.triangle_count) as usize;
        for tri in &t.triangles[range.clone()] {
            for &k in tri {
                assert!(b.contains(&t.vertices[k as usize].into(), 0.0), "node {i}");
            }
        }
        if let Some([l, r]) = n.children {
            assert_eq!(l as usize, i + 1);
            let (a, c) = (&t.nodes[l as usize], &t.nodes[r as usize]);
            assert_eq!(a.first_triangle as usize, range.start);
            assert_eq!(c.first_triangle, a.first_triangle + a.triangle_count);
            assert_eq!(a.triangle_count + c.triangle_count, n.triangle_count);
        }
    }
}

/// Per-mesh entries carry the node's and the mesh's names, as `bvtool fit
/// --json` does; colliders of every shape validate against the schema,
/// read back identically, name what they bound and contain every vertex
/// (in their frame: the mesh's own for a uniformly placed instance, the
/// world's otherwise), checked here in `f64` against the JSON numbers.
#[test]
fn names_and_colliders_in_json() {
    let s = scene(9, 10.0, Format::Glb, "synthetic.glb");
    let text = json::to_string(&doc(&s, false, true));
    let v: Value = serde_json::from_str(&text).unwrap();
    for (m, inst) in v["meshes"].as_array().unwrap().iter().zip(&s.instances) {
        assert_eq!(
            m["mesh_name"],
            Value::from(inst.mesh_name.as_deref().unwrap())
        );
        assert!(m["node_name"].is_null() && inst.node_name.is_none());
    }
    let d = export_support::doc_with(&s, &export_support::ALL_SHAPES, true);
    let text = json::to_string(&d);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(schema_errors(&v), Vec::<String>::new());
    let back: ExportDoc = serde_json::from_str(&text).unwrap();
    assert_eq!(back.colliders.len(), d.colliders.len());
    for (c, j) in d.colliders.iter().zip(v["colliders"].as_array().unwrap()) {
        let pts: Vec<nalgebra::Point3<f64>> = match c
            .instance_key()
            .map(|key| bvtool::export::collider::instance_index(&s)[&key])
        {
            Some(k) => {
                let mut p = Vec::new();
                let world = c.frame == "world";
                bvtool::mesh::instance_points(&s.instances[k], false, world, &mut p);
                assert!(
                    c.name.contains(&format!("mesh {} 'part{k}'", k)),
                    "{}",
                    c.name
                );
                p
            }
            None => s.world_points(false),
        };
        let n = |k: &str| j[k].as_f64().unwrap();
        let v3 = |k: &str| {
            nalgebra::Vector3::from_iterator(
                j[k].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()),
            )
        };
        for p in &pts {
            let inside = match j["type"].as_str().unwrap() {
                "box" => {
                    let axes = j["axes"].as_array().unwrap();
                    (0..3).all(|i| {
                        let a = nalgebra::Vector3::from_iterator(
                            axes[i]
                                .as_array()
                                .unwrap()
                                .iter()
                                .map(|x| x.as_f64().unwrap()),
                        );
                        a.dot(&(p.coords - v3("center"))).abs()
                            <= j["half_extents"][i].as_f64().unwrap() * (1.0 + 1e-12)
                    })
                }
                "sphere" => (p.coords - v3("center")).norm() <= n("radius") * (1.0 + 1e-12),
                "capsule" => {
                    let d = p.coords - v3("center");
                    let t = d
                        .dot(&v3("axis"))
                        .clamp(-n("half_length"), n("half_length"));
                    (d - v3("axis") * t).norm() <= n("radius") * (1.0 + 1e-12)
                }
                "cylinder" => {
                    let d = p.coords - v3("center");
                    let t = d.dot(&v3("axis"));
                    t.abs() <= n("half_height") * (1.0 + 1e-12)
                        && (d - v3("axis") * t).norm() <= n("radius") * (1.0 + 1e-12)
                }
                "convex" => {
                    let vs: Vec<nalgebra::Point3<f64>> = j["vertices"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| {
                            nalgebra::Point3::from(nalgebra::Vector3::from_iterator(
                                x.as_array().unwrap().iter().map(|y| y.as_f64().unwrap()),
                            ))
                        })
                        .collect();
                    bvtool::fit::ConvexHull::new(&vs).unwrap().contains(p)
                }
                t => panic!("type {t}"),
            };
            assert!(inside, "{} misses {p}", c.name);
        }
    }
}
