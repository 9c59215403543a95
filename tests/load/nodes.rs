//! Node placement at the edges (issue 34, class 5 and the node cycle
//! without scenes): quaternions normalised without overflow or underflow, a
//! zero quaternion refused naming its node, the numeric range's upper
//! (2^50) and lower (2^-126) bounds held under node scales and
//! translations, answers inside the range that keep their guarantees, and
//! a hierarchy cycle in a file without scenes refused instead of loading
//! as an empty model.

use super::gltf::{Doc, scratch};
use bvtool::fit::Sphere;
use bvtool::load::{LoadOptions, load};
use nalgebra::Point3;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The unit tetrahedron's corners.
const TETRA: [[f32; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
];

/// A glTF of the unit tetrahedron (mesh 0) with `nodes` and no scenes
/// unless `rest` gives them.
fn tetra_gltf(dir: &Path, name: &str, nodes: Value) -> PathBuf {
    let mut doc = Doc::default();
    let p = doc.f32_positions(&TETRA);
    let i = doc.indices(&[0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3], 5123);
    doc.write(
        dir,
        name,
        json!({"nodes": nodes, "meshes": [{"primitives": [{"attributes": {"POSITION": p}, "indices": i}]}]}),
    )
}

fn refusal(path: &Path) -> String {
    let e = load(path, &LoadOptions::default())
        .expect_err("must be refused")
        .to_string();
    assert!(
        !e.contains('\n') && e.contains(&path.display().to_string()),
        "{e}"
    );
    e
}

/// `[1e200, 0, 0, 1e200]` is a 90° turn about x, merely unnormalised: its
/// norm overflowed and the mesh collapsed to a point. Now it turns (x, y,
/// z) to (x, −z, y), as does the same quaternion at 1e-200.
#[test]
fn unnormalised_quaternions_turn_without_overflow() {
    let dir = scratch("nodes-quaternion");
    for q in [1e200, 1e-200] {
        let path = tetra_gltf(&dir, "turn", json!([{"mesh": 0, "rotation": [q, 0, 0, q]}]));
        let scene = load(&path, &LoadOptions::default()).unwrap();
        let inst = &scene.instances[0];
        for (p, c) in inst.geometry.positions.iter().zip(TETRA) {
            let want = Point3::new(c[0] as f64, -c[2] as f64, c[1] as f64);
            let got = inst.to_world(p);
            assert!((got - want).norm() < 1e-15, "{q}: {got} vs {want}");
        }
    }
}

#[test]
fn a_zero_quaternion_is_refused_naming_its_node() {
    let dir = scratch("nodes-zero-quaternion");
    let nodes = json!([{"children": [1]}, {"mesh": 0, "rotation": [0, 0, 0, 0]}]);
    let e = refusal(&tetra_gltf(&dir, "zero", nodes));
    assert!(
        e.contains("node 1: rotation [0, 0, 0, 0] is not a usable quaternion"),
        "{e}"
    );
}

/// The tetrahedron scaled by 1e-170 got spheres of radius 1.8e-185 (its
/// squared lengths underflowed) and `distance --check` answered 0 and "not
/// touching" for a 1e-170 gap. Below 2^-126 a scale, a translation or a
/// coordinate is now refused, as 1e300 is above 2^50.
#[test]
fn scales_and_coordinates_outside_the_range_are_refused() {
    let dir = scratch("nodes-range");
    let cases = [
        (
            json!({"mesh": 0, "scale": [1e-170, 1e-170, 1e-170]}),
            "node 0 places mesh 0 at scale 1e-170",
        ),
        (
            json!({"mesh": 0, "translation": [1e-170, 0, 0]}),
            "node 0 places mesh 0 with translation 1e-170",
        ),
        (
            json!({"mesh": 0, "scale": [1e300, 1e300, 1e300]}),
            "world coordinate 1e300",
        ),
    ];
    for (k, (node, says)) in cases.into_iter().enumerate() {
        let e = refusal(&tetra_gltf(&dir, &format!("case{k}"), json!([node])));
        assert!(
            e.contains(says) && e.contains("2^-126") && e.contains("2^50"),
            "{e}"
        );
    }
    let obj = dir.join("tiny.obj");
    let vs: String = TETRA
        .iter()
        .map(|c| {
            format!(
                "v {:e} {:e} {:e}\n",
                c[0] as f64 * 1e-170,
                c[1] as f64 * 1e-170,
                c[2] as f64 * 1e-170
            )
        })
        .collect();
    std::fs::write(&obj, vs + "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n").unwrap();
    let e = refusal(&obj);
    assert!(
        e.contains("vertex 1 of mesh 0 has coordinate 1e-170"),
        "{e}"
    );
    // The binary says the same in one line, exit 1.
    let (code, _, err) = bvtool_dev::run(
        env!("CARGO_BIN_EXE_bvtool"),
        &[
            "distance",
            obj.to_str().unwrap(),
            obj.to_str().unwrap(),
            "--check",
        ],
    );
    assert_eq!((code, err.lines().count()), (1, 1), "{err}");
}

/// Inside the range the answers keep their guarantees at a scale of 1e-30
/// (squares of 1e-60, far below `f32` but normal in `f64`): the exact
/// sphere of the scaled tetrahedron is the circle of its far face,
/// radius √(2/3)·s, holding every vertex, and two copies s apart are s
/// apart, not 0.
#[test]
fn a_tiny_scale_inside_the_range_keeps_its_guarantees() {
    let dir = scratch("nodes-tiny-inside");
    let s = 1e-30;
    let path = tetra_gltf(&dir, "small", json!([{"mesh": 0, "scale": [s, s, s]}]));
    let mesh = load(&path, &LoadOptions::default()).unwrap().flatten();
    let sphere = Sphere::exact(&mesh.vertices).unwrap();
    let want = s * (2.0f64 / 3.0).sqrt();
    assert!(
        (sphere.radius - want).abs() <= 1e-12 * want,
        "{} vs {want}",
        sphere.radius
    );
    for v in &mesh.vertices {
        assert!((v - sphere.center).norm() <= sphere.radius, "{v} outside");
    }
    let b = tetra_gltf(
        &dir,
        "small_b",
        json!([{"mesh": 0, "scale": [s, s, s], "translation": [2.0 * s, 0, 0]}]),
    );
    let (code, out, err) = bvtool_dev::run(
        env!("CARGO_BIN_EXE_bvtool"),
        &[
            "distance",
            path.to_str().unwrap(),
            b.to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let d = v["poses"][0]["distance"].as_f64().unwrap();
    assert!((d - s).abs() <= 1e-12 * s, "distance {d}, want {s}");
}

/// A file without scenes draws every root node; when every node is a
/// child (a cycle), there is no root and the model loaded empty with exit
/// 0. Now the cycle is named, also when another node is a proper root.
#[test]
fn a_node_cycle_without_scenes_is_refused() {
    let dir = scratch("nodes-cycle");
    let e = refusal(&tetra_gltf(
        &dir,
        "ring",
        json!([{"mesh": 0, "children": [1]}, {"children": [0]}]),
    ));
    assert!(
        e.contains("node 0 is reached from no root node") && e.contains("cycle"),
        "{e}"
    );
    let beside =
        json!([{"mesh": 0}, {"mesh": 0, "children": [2]}, {"children": [3]}, {"children": [1]}]);
    let e = refusal(&tetra_gltf(&dir, "ring_beside_a_root", beside));
    assert!(e.contains("node 1 is reached from no root node"), "{e}");
}
