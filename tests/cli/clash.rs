//! `bvtool clash` on the models the repo carries: JSON against brute force,
//! exit codes, `--self`, `--render`.

use bvtool_dev as common;

use bvtool_dev::bvtool;

use bvtool::clash::crosses;
use bvtool::load::load;
use bvtool::query::pair::intersect_triangle_triangle::triangles_intersect;
use nalgebra::Point3;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

const TORUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/torus.obj");
const CHAIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/chain.gltf");

/// World triangles of every instance of a file.
fn instances(path: &str) -> Vec<Vec<[Point3<f64>; 3]>> {
    load(Path::new(path), &Default::default())
        .unwrap()
        .instances
        .iter()
        .map(common::world_triangles)
        .collect()
}

/// The chain's two rings and the torus: the JSON's parts, clashes and
/// counts equal brute force over every triangle pair in world coordinates.
#[test]
fn clash_json_equals_brute_force() {
    let (code, out, err) = bvtool!(&["clash", CHAIN, TORUS, "--json", "--all-pairs"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let parts = doc["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 3);
    assert_eq!(doc["summary"]["trees"], 2, "the chain's rings share a tree");
    let mut all = instances(CHAIN);
    all.extend(instances(TORUS));
    let mut want = BTreeSet::new();
    for a in 0..all.len() {
        for b in a + 1..all.len() {
            let (mut n, mut crossing) = (0, 0);
            for ta in &all[a] {
                for tb in &all[b] {
                    if triangles_intersect(ta, tb) {
                        n += 1;
                        crossing += crosses(ta, tb) as usize;
                    }
                }
            }
            if n > 0 {
                want.insert((a as u64, b as u64, n as u64, crossing as u64));
            }
        }
    }
    let got: BTreeSet<(u64, u64, u64, u64)> = doc["clashes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_eq!(
                c["pairs"].as_array().unwrap().len() as u64,
                c["triangle_pairs"].as_u64().unwrap()
            );
            (
                c["a"].as_u64().unwrap(),
                c["b"].as_u64().unwrap(),
                c["triangle_pairs"].as_u64().unwrap(),
                c["crossing_pairs"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(!want.is_empty());
    assert_eq!(got, want);
    assert_eq!(
        doc["summary"]["clashing_pairs"].as_u64(),
        Some(want.len() as u64)
    );
    for key in ["load", "build", "query"] {
        assert!(doc["time_ms"][key].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn exit_codes() {
    assert_eq!(bvtool!(&["clash", CHAIN, TORUS, "--fail-on-clash"]).0, 3);
    assert_eq!(bvtool!(&["clash", CHAIN, TORUS]).0, 0);
    // The chain's rings are linked without touching.
    assert_eq!(bvtool!(&["clash", CHAIN, "--fail-on-clash"]).0, 0);
    let (code, _, err) = bvtool!(&["clash", TORUS, "--by", "bogus"]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1);
    assert!(err.contains("--by 'bogus'"), "{err}");
    let (code, _, err) = bvtool!(&["clash", "no/such.obj"]);
    assert_eq!((code, err.contains("no/such.obj")), (1, true), "{err}");
    assert_eq!(bvtool!(&["clash", TORUS, "--whole"]).0, 2);
    assert_eq!(
        bvtool!(&["clash", "--self", TORUS, "--ignore-touching"]).0,
        2
    );
}

/// The torus does not cut itself; its welded vertex count is the number of
/// distinct `v` lines of the file.
#[test]
fn self_json() {
    let (code, out, err) = bvtool!(&["clash", "--self", TORUS, "--json", "--fail-on-clash"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let m = &doc["files"][0]["meshes"][0];
    assert_eq!(doc["files"][0]["scope"], "mesh");
    assert_eq!(m["pair_count"], 0);
    assert_eq!(m["triangles"], 2304);
    let distinct: BTreeSet<String> = std::fs::read_to_string(TORUS)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            l.split_whitespace()
                .map(|x| (x.parse::<f64>().unwrap() + 0.0).to_bits().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(m["welded_vertices"].as_u64(), Some(distinct.len() as u64));
}

#[test]
fn render_writes_the_picture() {
    let dir = bvtool_dev::scratch!("clash");
    let png = dir.join("clash.png");
    let (code, _, err) = bvtool!(&[
        "clash",
        CHAIN,
        TORUS,
        "--render",
        png.to_str().unwrap(),
        "--size",
        "320x200",
    ]);
    assert_eq!(code, 0, "{err}");
    let img = image::open(&png).unwrap();
    assert_eq!((img.width(), img.height()), (320, 200));
    // --self draws the first file's whole scene (both rings of the chain).
    let selfpng = dir.join("self.png");
    let (code, _, err) = bvtool!(&[
        "clash",
        "--self",
        CHAIN,
        "--render",
        selfpng.to_str().unwrap(),
        "--size",
        "240x160",
    ]);
    assert_eq!(code, 0, "{err}");
    let img = image::open(&selfpng).unwrap();
    assert_eq!((img.width(), img.height()), (240, 160));
    std::fs::remove_dir_all(&dir).ok();
}

/// `clash` takes folders and quoted patterns as the per-file commands do:
/// the folder's files in path order give the same clashes as naming them.
#[test]
fn folders_and_patterns_are_expanded() {
    let models = concat!(env!("CARGO_MANIFEST_DIR"), "/models");
    let named = bvtool!(&["clash", CHAIN, TORUS, "--json"]);
    assert_eq!(named.0, 0, "{}", named.2);
    let named: Value = serde_json::from_str(&named.1).unwrap();
    let folder = bvtool!(&["clash", models, "--json"]);
    assert_eq!(folder.0, 0, "{}", folder.2);
    let folder: Value = serde_json::from_str(&folder.1).unwrap();
    assert_eq!(folder["files"], named["files"]);
    assert_eq!(folder["clashes"], named["clashes"]);
    assert!(!named["clashes"].as_array().unwrap().is_empty());
    let pattern = format!("{models}/*.GLTF");
    let (code, out, err) = bvtool!(&["clash", &pattern, "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["files"], serde_json::json!([CHAIN]));
    let (code, out, err) = bvtool!(&["clash", models, "--glob", "*.obj", "--self", "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["files"].as_array().unwrap().len(), 1, "{out}");
}

/// An OBJ of three unit-half-side cubes: `a` at the origin, `b` 0.5 deep
/// into it along +x, `c` 0.1 deep along −x (off-centre, so that no faces
/// are coplanar).
fn three_cubes(dir: &Path) -> String {
    let mut obj = String::new();
    for (k, (name, at)) in [
        ("a", [0.0, 0.0, 0.0]),
        ("b", [1.5, 0.2, 0.3]),
        ("c", [-1.9, 0.3, 0.2]),
    ]
    .iter()
    .enumerate()
    {
        obj += &format!("o {name}\n");
        for i in 0..8 {
            let c = |bit: usize, k: usize| at[k] + if i & bit == 0 { -1.0 } else { 1.0 };
            obj += &format!("v {} {} {}\n", c(1, 0), c(2, 1), c(4, 2));
        }
        for t in common::shapes::cube_triangles() {
            let v = t.map(|i| i as usize + 1 + 8 * k);
            obj += &format!("f {} {} {}\n", v[0], v[1], v[2]);
        }
    }
    let path = dir.join("three_cubes.obj");
    std::fs::write(&path, obj).unwrap();
    path.to_str().unwrap().to_string()
}

/// The clashes' depths from the command line: deepest first with their
/// witnesses and normal, `--min-depth` reporting the shallow pair as
/// touching (and `--ignore-touching` leaving it out), `--no-depth` sorting
/// by part without depths, and the text's deepest line.
#[test]
fn clash_depths() {
    let dir = bvtool_dev::scratch!("clash-depth");
    let file = three_cubes(&dir);
    let run = |extra: &[&str]| {
        let mut args = vec![
            "clash",
            &file,
            "--json",
            "--depth-tolerance",
            "1e-9",
            "--max-splits",
            "200000",
        ];
        args.extend(extra);
        let (code, out, err) = bvtool!(&args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<Value>(&out).unwrap()
    };
    let doc = run(&[]);
    let clashes = doc["clashes"].as_array().unwrap();
    let pairs: Vec<(u64, u64)> = clashes
        .iter()
        .map(|c| (c["a"].as_u64().unwrap(), c["b"].as_u64().unwrap()))
        .collect();
    assert_eq!(pairs, vec![(0, 1), (0, 2)]);
    for (c, depth, x) in [(&clashes[0], 0.5, 1.0), (&clashes[1], 0.1, -1.0)] {
        let s = &c["severity"];
        assert_eq!(c["kind"], "intersecting");
        assert_eq!(s["searched"], "both");
        assert!((s["depth"].as_f64().unwrap() - depth).abs() <= 1e-9, "{s}");
        assert!(s["bound"].as_f64().unwrap() <= 1e-9 && s["capped"] == false);
        let v = |key: &str| -> Vec<f64> {
            s[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        };
        let (n, pa, pb) = (v("normal"), v("point_a"), v("point_b"));
        assert!(
            (n[0] - x).abs() <= 1e-9 && n[1].abs() <= 1e-9 && n[2].abs() <= 1e-9,
            "{s}"
        );
        assert!(((pa[0] - pb[0]) - x * depth).abs() <= 1e-9, "{s}");
    }
    assert_eq!(doc["summary"]["shallow"], 0);
    let doc = run(&["--min-depth", "0.2"]);
    assert_eq!(doc["clashes"][1]["kind"], "touching");
    assert_eq!(doc["summary"]["shallow"], 1);
    let doc = run(&["--min-depth", "0.2", "--ignore-touching"]);
    assert_eq!(doc["clashes"].as_array().unwrap().len(), 1);
    assert_eq!(doc["summary"]["touching_dropped"], 1);
    let (code, out, err) = bvtool!(&["clash", &file, "--no-depth", "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert!(
        doc["clashes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["severity"].is_null())
    );
    assert_eq!(
        bvtool!(&["clash", &file, "--no-depth", "--min-depth", "1"]).0,
        2
    );
    assert_eq!(bvtool!(&["clash", &file, "--min-depth", "-1"]).0, 2);
    let (code, out, _) = bvtool!(&["clash", &file]);
    assert_eq!(code, 0);
    assert!(out.contains("deepest: 0.5"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
