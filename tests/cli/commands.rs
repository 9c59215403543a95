//! The binary end to end on the models the repo carries (`models/`): JSON
//! shapes, numbers against independent oracles, and exit codes.

use bvtool_dev::bvtool;

use bvtool::Pose;
use bvtool::load::{LoadOptions, load};
use bvtool::query::brute_force;
use nalgebra::Point3;
use serde_json::Value;
use std::path::Path;

const TORUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/torus.obj");
const CHAIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/chain.gltf");

fn json(args: &[&str]) -> Value {
    let (code, out, err) = bvtool!(args);
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
    let (code, _, err) = bvtool!(&["info", "no/such/file.glb"]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no/such/file.glb"), "{err}");
    let (code, _, _) = bvtool!(&["info", "--no-such-flag", TORUS]);
    assert_eq!(code, 2);
    let (code, _, err) = bvtool!(&["collide", TORUS, TORUS, "--pose", "1,2"]);
    assert_eq!(code, 2, "a malformed inline pose is a usage error");
    assert!(err.contains("3, 6 or 7 numbers"), "{err}");
    let (code, out, _) = bvtool!(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("(x, y, z, w)") && out.contains("HALF extents"));
}

/// Two tori side by side along x, 2.8 apart: their outer equators are 0.1
/// apart (R + r = 1.35, and the torus has vertices on the x axis), which
/// brute force and parry3d confirm; the closest points lie on the x axis.
#[test]
fn distance_between_tori_is_the_gap_and_checks_agree() {
    let doc = json(&[
        "distance", TORUS, TORUS, "--pose", "2.8,0,0", "--check", "--json",
    ]);
    assert_eq!(doc["mode"], "distance");
    let p = &doc["poses"][0];
    let d = p["distance"].as_f64().unwrap();
    assert!((d - 0.1).abs() <= 1e-12, "distance {d}");
    assert_eq!(p["intersecting"], false);
    let (pa, pb) = (arr3(&p["point_a"]), arr3(&p["point_b"]));
    assert!((pa[0] - 1.35).abs() < 1e-12 && (pb[0] - 1.45).abs() < 1e-12);
    assert!(pa[1].abs() < 1e-12 && pb[1].abs() < 1e-12);
    assert!(p["rounding_bound"].as_f64().unwrap() < 1e-12);
    assert_eq!(p["check"]["brute_force_agrees"], true);
    assert_eq!(p["check"]["parry_agrees"], true);
    // The two rings of chain.gltf are one mesh flattened: against itself
    // at identity it touches everywhere.
    let doc = json(&["distance", CHAIN, CHAIN, "--json"]);
    assert_eq!(doc["poses"][0]["distance"], 0.0);
    assert_eq!(doc["poses"][0]["intersecting"], true);
}

/// `collide --clearance D --all-pairs` lists exactly the triangle pairs
/// within D (brute force over every pair with the same triangle distance),
/// each with its distance; first-within-D agrees; D = 0 is plain contact.
#[test]
fn clearance_pairs_match_brute_force() {
    use bvtool::query::pair::distance_triangle_triangle::{bounds_gap, triangle_distance};
    let mesh = load(Path::new(TORUS), &LoadOptions::default())
        .unwrap()
        .flatten();
    let pose = Pose::parse_inline("2.75,0,0,0,0,10").unwrap();
    let place = bvtool::query::Placement::new(&pose);
    let mut want = Vec::new();
    for i in 0..mesh.triangles.len() {
        let ta = mesh.triangle(i);
        for j in 0..mesh.triangles.len() {
            let tb = place.triangle(&mesh.triangle(j));
            if bounds_gap(&ta, &tb) <= 0.1 && triangle_distance(&ta, &tb).distance <= 0.1 {
                want.push((i as u64, j as u64));
            }
        }
    }
    assert!(want.len() > 10);
    let doc = json(&[
        "collide",
        TORUS,
        TORUS,
        "--pose",
        "2.75,0,0,0,0,10",
        "--clearance",
        "0.1",
        "--all-pairs",
        "--json",
    ]);
    assert_eq!(doc["clearance"], 0.1);
    let p = &doc["poses"][0];
    assert_eq!(p["within"], true);
    assert_eq!(p["intersecting"], false);
    let got: Vec<(u64, u64)> = p["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            assert!(x["distance"].as_f64().unwrap() <= 0.1);
            (
                x["a"]["triangle"].as_u64().unwrap(),
                x["b"]["triangle"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, want);
    let first = json(&[
        "collide",
        TORUS,
        TORUS,
        "--pose",
        "2.75,0,0,0,0,10",
        "--clearance",
        "0.1",
        "--first-contact",
        "--repeat",
        "3",
        "--json",
    ]);
    assert_eq!(first["poses"][0]["within"], true);
    let none = json(&[
        "collide",
        TORUS,
        TORUS,
        "--pose",
        "2.75,0,0,0,0,10",
        "--clearance",
        "0.01",
        "--json",
    ]);
    assert_eq!(none["poses"][0]["within"], false);
    assert_eq!(none["poses"][0]["pair_count"], 0);
    let (code, _, _) = bvtool!(&["collide", TORUS, TORUS, "--clearance", "-1"]);
    assert_eq!(code, 2);
}

/// The distance picture shows the closest triangles highlighted and the
/// segment between the closest points in the first palette colour.
#[test]
fn distance_render_draws_the_closest_points() {
    let dir = bvtool_dev::scratch!("distance");
    let png = dir.join("closest.png");
    let (code, _, err) = bvtool!(&[
        "distance",
        TORUS,
        TORUS,
        "--pose",
        "2.8,0,0",
        "--render",
        png.to_str().unwrap(),
        "--size",
        "400x300",
    ]);
    assert_eq!(code, 0, "{err}");
    let image = image::open(&png).unwrap().to_rgb8();
    assert_eq!(image.dimensions(), (400, 300));
    let count = |c: [u8; 3]| image.pixels().filter(|p| p.0 == c).count();
    assert!(
        count(bvtool::render::scene::PALETTE[0]) > 20,
        "no closest-point segment"
    );
    assert!(count([230, 0, 200]) > 0, "no highlighted triangle");
    std::fs::remove_dir_all(&dir).unwrap();
}
