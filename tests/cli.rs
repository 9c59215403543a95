//! The binary end to end on the models the repo carries (`models/`): JSON
//! shapes, numbers against independent oracles, and exit codes.

mod common;

use common::bvtool;

use bvtool::Pose;
use bvtool::load::{LoadOptions, load};
use bvtool::query::brute_force;
use nalgebra::Point3;
use serde_json::Value;
use std::path::Path;

const TORUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/torus.obj");
const CHAIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/chain.gltf");

fn json(args: &[&str]) -> Value {
    let (code, out, err) = bvtool(args);
    assert_eq!(code, 0, "bvtool {args:?} failed: {err}");
    serde_json::from_str(&out).unwrap()
}

/// The torus's vertices read straight from the OBJ text (the oracle).
fn torus_vertices() -> Vec<Point3<f64>> {
    std::fs::read_to_string(TORUS)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let c: Vec<f64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            Point3::new(c[0], c[1], c[2])
        })
        .collect()
}

fn arr3(v: &Value) -> [f64; 3] {
    std::array::from_fn(|i| v[i].as_f64().unwrap())
}

#[test]
fn info_json_reports_files_in_order_with_oracle_bounds() {
    let doc = json(&["info", "--json", TORUS, CHAIN]);
    let files = doc["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert!(files[0]["file"].as_str().unwrap().ends_with("torus.obj"));
    assert_eq!(files[0]["triangles"], 48 * 24 * 2);
    assert_eq!(
        files[1]["triangles"],
        2 * 48 * 24 * 2,
        "two instances of one mesh"
    );
    assert_eq!(files[1]["instances"], 2);
    assert_eq!(files[0]["skipped_primitives"], 0);
    let v = torus_vertices();
    for k in 0..3 {
        let lo = v.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min);
        let hi = v.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(arr3(&files[0]["aabb"]["min"])[k], lo);
        assert_eq!(arr3(&files[0]["aabb"]["max"])[k], hi);
    }
    // The second ring is turned 90° about X and moved 1 along X.
    let max = arr3(&files[1]["aabb"]["max"]);
    assert!(
        (max[0] - 2.35).abs() < 1e-6 && (max[2] - 1.35).abs() < 1e-6,
        "{max:?}"
    );
}

#[test]
fn fit_json_volumes_contain_every_vertex_and_are_ordered() {
    let doc = json(&["fit", "--json", "--obb", "all", "--sphere", "all", TORUS]);
    let f = &doc["files"][0];
    let v = torus_vertices();
    let hull = f["hull_volume"].as_f64().unwrap();
    // The hull of a torus (R = 1, r = 0.35) is a cylinder of radius R and
    // height 2r plus the half-disc x ≥ R revolved (Pappus: 2π·(R + 4r/3π)·πr²/2).
    // The tessellated torus is inscribed in the smooth one, so its hull is a
    // little smaller.
    let (big, r, pi) = (1.0f64, 0.35f64, std::f64::consts::PI);
    let smooth =
        pi * big * big * 2.0 * r + 2.0 * pi * (big + 4.0 * r / (3.0 * pi)) * pi * r * r / 2.0;
    assert!(
        hull < smooth && hull > 0.98 * smooth,
        "hull {hull} vs smooth {smooth}"
    );
    let aabb_volume = f["aabb"]["volume"].as_f64().unwrap();
    for (name, b) in f["obbs"].as_object().unwrap() {
        let c = arr3(&b["center"]);
        let h = arr3(&b["half_extents"]);
        let axes: Vec<[f64; 3]> = b["axes"].as_array().unwrap().iter().map(arr3).collect();
        for p in &v {
            for i in 0..3 {
                let d: f64 = (0..3).map(|k| (p[k] - c[k]) * axes[i][k]).sum();
                assert!(d.abs() <= h[i] + 1e-12, "{name}: vertex {p:?} outside");
            }
        }
        let vol = b["volume"].as_f64().unwrap();
        assert!(
            vol >= hull && vol <= aabb_volume * (1.0 + 1e-12),
            "{name}: {vol}"
        );
    }
    assert!(
        f["obbs"]["tight"]["volume"].as_f64().unwrap()
            <= f["obbs"]["pca"]["volume"].as_f64().unwrap() * (1.0 + 1e-12)
    );
    let exact = f["spheres"]["exact"]["radius"].as_f64().unwrap();
    for (name, s) in f["spheres"].as_object().unwrap() {
        let c = arr3(&s["center"]);
        let r = s["radius"].as_f64().unwrap();
        assert!(exact <= r + 1e-12, "{name}");
        for p in &v {
            let d = ((p[0] - c[0]).powi(2) + (p[1] - c[1]).powi(2) + (p[2] - c[2]).powi(2)).sqrt();
            assert!(d <= r + 1e-12, "{name}: vertex outside");
        }
    }
    // The minimum sphere of a torus is centred with radius R + r.
    assert!((exact - 1.35).abs() < 1e-6, "{exact}");
}

#[test]
fn fit_per_mesh_local_frame_names_each_instance() {
    let doc = json(&["fit", "--json", "--frame", "local", CHAIN]);
    let meshes = doc["files"][0]["meshes"].as_array().unwrap();
    assert_eq!(meshes.len(), 2);
    for (k, m) in meshes.iter().enumerate() {
        assert_eq!(m["node"], k);
        assert_eq!(m["frame"], "local");
        // In its own frame each ring is the torus: the AABB is the same.
        assert!((arr3(&m["aabb"]["max"])[2] - 0.35).abs() < 1e-6);
    }
}

#[test]
fn collide_pair_counts_match_brute_force() {
    let a = load(Path::new(TORUS), &LoadOptions::default())
        .unwrap()
        .flatten();
    let specs = [
        "0,0,0",
        "0.5,0.2,0,0,0,30",
        "1,0,0,90,0,0",
        "2.3,0.1,0,0,0,0",
        "2.8,0,0",
        "0.3,0.2,0.1,40,10,70",
    ];
    let mut args = vec!["collide", TORUS, TORUS, "--json"];
    for s in &specs {
        args.extend(["--pose", s]);
    }
    let doc = json(&args);
    let poses = doc["poses"].as_array().unwrap();
    assert_eq!(poses.len(), specs.len());
    let mut touching = 0;
    for (p, spec) in poses.iter().zip(specs) {
        let pose = Pose::parse_inline(spec).unwrap();
        let brute = brute_force(&a, &a, &pose);
        assert_eq!(
            p["pair_count"].as_u64().unwrap() as usize,
            brute.len(),
            "pose {spec}"
        );
        assert_eq!(p["intersecting"].as_bool().unwrap(), !brute.is_empty());
        assert!(p["query_us"].as_f64().unwrap() >= 0.0);
        touching += usize::from(!brute.is_empty());
    }
    assert!(
        touching >= 3 && touching < specs.len(),
        "the poses should mix contact and separation"
    );
}

#[test]
fn linked_rings_do_not_touch_and_check_agrees() {
    // chain.gltf holds two linked rings 0.3 apart: flattened, it collides with
    // a copy of itself at identity (every triangle with itself) but the file's
    // own two rings never touch each other.
    let scene = load(Path::new(CHAIN), &LoadOptions::default()).unwrap();
    let mesh = scene.flatten();
    let n = mesh.triangles.len() / 2;
    let pairs = brute_force(&mesh, &mesh, &Pose::identity());
    assert!(
        pairs
            .iter()
            .all(|&(i, j)| (i as usize >= n) == (j as usize >= n)),
        "a triangle of one ring touches the other ring"
    );
    let doc = json(&["collide", CHAIN, CHAIN, "--check", "--json"]);
    assert_eq!(doc["poses"][0]["check"]["agrees"], true);
}

#[test]
fn exit_codes_and_one_line_errors() {
    let (code, _, err) = bvtool(&["info", "no/such/file.glb"]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no/such/file.glb"), "{err}");
    let (code, _, _) = bvtool(&["info", "--no-such-flag", TORUS]);
    assert_eq!(code, 2);
    let (code, _, err) = bvtool(&["collide", TORUS, TORUS, "--pose", "1,2"]);
    assert_eq!(code, 1);
    assert!(err.contains("3, 6 or 7 numbers"), "{err}");
    let (code, out, _) = bvtool(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("(x, y, z, w)") && out.contains("HALF extents"));
}
