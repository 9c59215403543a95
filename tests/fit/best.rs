//! `bvtool fit --best`: the smallest primitive by volume, on shapes built so
//! that the answer is known (a cube, a turned cube, a sphere, a capsule and
//! a cylinder), and always the least of the volumes the JSON reports.

use bvtool_dev as common;

use bvtool_dev::bvtool;
use serde_json::Value;
use std::f64::consts::PI;
use std::fmt::Write;

/// Vertices and triangles.
type Shape = (Vec<[f64; 3]>, Vec<[usize; 3]>);

/// Writes `points` and `triangles` as an OBJ into a fresh temporary folder.
fn obj(name: &str, points: &[[f64; 3]], triangles: &[[usize; 3]]) -> std::path::PathBuf {
    let dir = bvtool_dev::scratch!(format!("best-{name}"));
    let mut s = String::new();
    for p in points {
        writeln!(s, "v {} {} {}", p[0], p[1], p[2]).unwrap();
    }
    for t in triangles {
        writeln!(s, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1).unwrap();
    }
    let path = dir.join(format!("{name}.obj"));
    std::fs::write(&path, s).unwrap();
    path
}

/// A surface of revolution about Z through the profile `(radius, z)`
/// (first and last radius 0: the poles), `segments` around.
fn revolve(profile: &[(f64, f64)], segments: usize) -> Shape {
    let mut points = Vec::new();
    for &(r, z) in profile {
        for k in 0..segments {
            let a = 2.0 * PI * k as f64 / segments as f64;
            points.push([r * a.cos(), r * a.sin(), z]);
        }
    }
    let at = |ring: usize, k: usize| ring * segments + k % segments;
    let mut triangles = Vec::new();
    for ring in 0..profile.len() - 1 {
        for k in 0..segments {
            triangles.push([at(ring, k), at(ring, k + 1), at(ring + 1, k + 1)]);
            triangles.push([at(ring, k), at(ring + 1, k + 1), at(ring + 1, k)]);
        }
    }
    (points, triangles)
}

/// A cube of side 1 turned by `turn` (a rotation matrix).
fn cube(turn: [[f64; 3]; 3]) -> Shape {
    let points = (0..8)
        .map(|i| {
            let c = [i & 1, (i >> 1) & 1, (i >> 2) & 1].map(|b| b as f64 - 0.5);
            std::array::from_fn(|r| (0..3).map(|k| turn[r][k] * c[k]).sum())
        })
        .collect();
    let triangles = common::shapes::cube_triangles()
        .iter()
        .map(|t| t.map(|i| i as usize))
        .collect();
    (points, triangles)
}

/// `fit --best --json` of the file: the document's volumes.
fn best(path: &std::path::Path) -> Value {
    let (code, out, err) = bvtool!(&["fit", path.to_str().unwrap(), "--best", "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let v = doc["files"][0].clone();
    // Always the least of the reported volumes, and that shape's volume.
    let shapes = ["aabb", "obb", "sphere", "capsule", "cylinder"];
    let least = shapes
        .iter()
        .map(|s| v[s]["volume"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min);
    let b = &v["best"];
    assert_eq!(b["volume"].as_f64(), Some(least));
    assert_eq!(
        v[b["shape"].as_str().unwrap()]["volume"].as_f64(),
        Some(least)
    );
    let ratio = least / v["hull_volume"].as_f64().unwrap();
    assert!((b["hull_ratio"].as_f64().unwrap() - ratio).abs() <= 1e-12 * ratio);
    v
}

#[test]
fn best_names_the_smallest_primitive() {
    let identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let (c, s) = (0.6f64, 0.8f64);
    let turned = [[c, -s, 0.0], [s * c, c * c, -s], [s * s, s * c, c]];
    let caps = |n: usize, z0: f64, z1: f64| -> Vec<(f64, f64)> {
        // A hemisphere of radius 1 below z0, a cylinder to z1, one above.
        let mut p: Vec<(f64, f64)> = (0..=n)
            .map(|i| {
                let a = PI / 2.0 * i as f64 / n as f64;
                (a.sin(), z0 - a.cos())
            })
            .collect();
        p.extend((0..=n).map(|i| {
            let a = PI / 2.0 * i as f64 / n as f64;
            (a.cos(), z1 + a.sin())
        }));
        p
    };
    let cases: Vec<(&str, Shape, &str)> = vec![
        // Box and OBB tie on an axis-aligned cube: the simpler wins.
        ("cube", cube(identity), "aabb"),
        ("turned_cube", cube(turned), "obb"),
        ("sphere", revolve(&caps(12, 0.0, 0.0), 48), "sphere"),
        // A capsule of radius 1 and segment 4: 16.8 against a cylinder of
        // 18.8 and a box of 24.
        ("capsule", revolve(&caps(12, 0.0, 4.0), 48), "capsule"),
        // A cylinder of radius 1 and height 10: 31.4 against a capsule of
        // at least 35.6 and a box of 40.
        (
            "cylinder",
            revolve(&[(0.0, 0.0), (1.0, 0.0), (1.0, 10.0), (0.0, 10.0)], 64),
            "cylinder",
        ),
    ];
    for (name, (points, triangles), want) in cases {
        let path = obj(name, &points, &triangles);
        let v = best(&path);
        assert_eq!(v["best"]["shape"], want, "{name}: {}", v["best"]);
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }
}

#[test]
fn best_per_mesh_and_in_text() {
    let chain = concat!(env!("CARGO_MANIFEST_DIR"), "/models/chain.gltf");
    let (code, out, err) = bvtool!(&["fit", chain, "--best", "--per-mesh", "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let meshes = doc["files"][0]["meshes"].as_array().unwrap();
    assert_eq!(meshes.len(), 2);
    for m in meshes {
        // A ring (torus) is flat: a cylinder holds it best.
        assert_eq!(m["best"]["shape"], "cylinder");
    }
    let (code, out, err) = bvtool!(&["fit", chain, "--best"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("best primitive: "), "{out}");
    // Without --best, no best.
    let (_, out, _) = bvtool!(&["fit", chain, "--json"]);
    assert!(!out.contains("\"best\""));
}
