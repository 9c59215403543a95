//! `bvtool distance --signed` as a user runs it: the slab-through-cube
//! counterexample written as OBJ (no vertex inside, depth 0.9 at a face's
//! interior), the witnesses and normal consistent, the separated case equal
//! to the plain distance, the torus against the library's own answer, and
//! the depth options refused without `--signed` or out of range; and
//! `--convex SHAPE` against closed forms.

use bvtool::query::depth::{SignedOptions, Solid, signed_distance};
use bvtool::query::point::PointTree;
use bvtool::tree::ObbTree;
use bvtool::{Pose, load};
use bvtool_dev::run;
use nalgebra::{UnitQuaternion, Vector3};
use serde_json::Value;
use std::path::Path;

const EXE: &str = env!("CARGO_BIN_EXE_bvtool");
const TORUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/torus.obj");

/// A box of half extents `h` about the origin as OBJ, outward.
fn cuboid(dir: &Path, name: &str, h: [f64; 3]) -> String {
    let p = dir.join(name);
    let mut s = String::new();
    for k in 0..8 {
        let c = |a: usize| if (k >> a) & 1 == 1 { h[a] } else { -h[a] };
        s += &format!("v {} {} {}\n", c(0), c(1), c(2));
    }
    for t in bvtool_dev::shapes::cube_triangles() {
        s += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    std::fs::write(&p, s).unwrap();
    p.display().to_string()
}

fn signed(args: &[&str]) -> Value {
    let (code, out, err) = run(EXE, args);
    assert_eq!(code, 0, "bvtool {args:?} failed: {err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    doc["poses"][0].clone()
}

fn xyz(v: &Value) -> Vector3<f64> {
    Vector3::from_fn(|i, _| v[i].as_f64().unwrap())
}

#[test]
fn slab_through_cube_and_apart() {
    let d = bvtool_dev::scratch!("cli-depth");
    let slab = cuboid(&d, "slab.obj", [2.0, 2.0, 0.1]);
    let cube = cuboid(&d, "cube.obj", [1.0; 3]);
    let base = ["distance", &slab, &cube, "--signed", "--json"];
    let p = signed(&[&base[..], &["--depth-tolerance", "1e-9"]].concat());
    let s = &p["signed"];
    let depth = s["depth"].as_f64().unwrap();
    assert!((depth - 0.9).abs() <= 1e-9 + 1e-12, "{s}");
    assert_eq!(s["side"], "a");
    assert_eq!(s["signed_distance"].as_f64().unwrap(), -depth);
    assert!(s["bound"].as_f64().unwrap() <= 1e-9 && s["capped"] == false);
    let (a, b, n) = (xyz(&s["point_a"]), xyz(&s["point_b"]), xyz(&s["normal"]));
    assert!(
        (a.z.abs() - 0.1).abs() < 1e-12 && a.x.abs() <= 0.1 + 1e-9,
        "{a}"
    );
    assert!(((b - a) + n * depth).norm() < 1e-12);
    // Apart: the plain distance, the normal along the closest points.
    let p = signed(&[&base[..], &["--pose", "0,0,5"]].concat());
    let s = &p["signed"];
    assert_eq!(s["signed_distance"], p["distance"]);
    assert_eq!(s["depth"], 0.0);
    assert!(s["side"].is_null());
    assert!((xyz(&s["normal"]) - Vector3::z()).norm() < 1e-12);
    // Text.
    let (code, out, _) = run(EXE, &["distance", &slab, &cube, "--signed"]);
    assert_eq!(code, 0);
    assert!(out.contains("A protrudes 0.9"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The torus against itself shifted by half its tube: the command's answer
/// is the library's.
#[test]
fn torus_matches_the_library() {
    let p = signed(&[
        "distance", TORUS, TORUS, "--signed", "--pose", "0.5,0,0", "--json",
    ]);
    let mesh = load::load(TORUS.as_ref(), &Default::default())
        .unwrap()
        .flatten();
    let (tree, points) = (
        ObbTree::build_default(&mesh, Default::default()),
        PointTree::build(&mesh),
    );
    let solid = Solid {
        tree: &tree,
        points: &points,
    };
    let pose = Pose::new(Vector3::new(0.5, 0.0, 0.0), UnitQuaternion::identity());
    let want = signed_distance(&solid, &solid, &pose, &SignedOptions::default()).unwrap();
    let s = &p["signed"];
    assert_eq!(s["signed_distance"].as_f64().unwrap(), want.signed_distance);
    assert!(want.depth > 0.3 && want.bound <= want.tolerance);
}

#[test]
fn depth_options_need_signed_and_a_positive_tolerance() {
    for extra in [
        &["--depth-tolerance", "1e-3"][..],
        &["--max-splits", "10"],
        &["--signed", "--depth-tolerance", "0"],
        &["--signed", "--depth-tolerance", "nan"],
    ] {
        let args = [&["distance", TORUS, TORUS][..], extra].concat();
        let (code, _, err) = run(EXE, &args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}

/// `collide --all-pairs --contacts`: a box of half side 0.25 sunk 0.05 into
/// a cube of half side 1 — every pair's contact on the top plane, pushing
/// B up by 0.05, merged into one patch, B's square footprint; and the
/// option refused without `--all-pairs` or with `--clearance`.
#[test]
fn contacts_of_a_sunk_box_are_one_patch() {
    let d = bvtool_dev::scratch!("cli-contacts");
    let cube = cuboid(&d, "cube.obj", [1.0; 3]);
    let small = cuboid(&d, "small.obj", [0.25; 3]);
    let args = [
        "collide",
        &cube,
        &small,
        "--pose",
        "0.1,0.2,1.2",
        "--all-pairs",
        "--contacts",
        "--json",
    ];
    let (code, out, err) = run(EXE, &args);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let p = &doc["poses"][0];
    let pairs = p["pairs"].as_array().unwrap();
    assert!(!pairs.is_empty());
    for pair in pairs {
        let c = &pair["contact"];
        assert!((xyz(&c["normal"]) - Vector3::z()).norm() < 1e-12, "{c}");
        assert!((c["depth"].as_f64().unwrap() - 0.05).abs() < 1e-12, "{c}");
        for q in c["points"].as_array().unwrap() {
            assert!((q[2].as_f64().unwrap() - 1.0).abs() < 1e-12, "{c}");
        }
    }
    let patches = p["patches"].as_array().unwrap();
    assert_eq!(patches.len(), 1, "{patches:?}");
    assert_eq!(patches[0]["pairs"].as_array().unwrap().len(), pairs.len());
    assert_eq!(patches[0]["polygon"].as_array().unwrap().len(), 4);
    for refused in [
        &["collide", &cube, &small, "--pose", "0,0,1.2", "--contacts"][..],
        &[
            "collide",
            &cube,
            &small,
            "--pose",
            "0,0,1.2",
            "--all-pairs",
            "--contacts",
            "--clearance",
            "0.1",
        ],
    ] {
        let (code, _, _) = run(EXE, refused);
        assert_eq!(code, 2, "{refused:?}");
    }
}

/// `distance --convex SHAPE`: the shapes fitted to a unit cube and a
/// half-side-0.25 cube, against closed forms — the boxes sunk 0.05 (depth
/// 0.05 along +z), the spheres through the corners (`|t| − 1.25·√3`), the
/// hulls apart with B turned 45° about z (`3 − 1 − 0.25·√2`, along −x…+x)
/// — the witnesses `signed·normal` apart, the stream's lines the same, and
/// `decompose` and the options without `--convex` refused.
#[test]
fn convex_shapes_by_closed_forms() {
    let d = bvtool_dev::scratch!("cli-convex");
    let cube = cuboid(&d, "cube.obj", [1.0; 3]);
    let small = cuboid(&d, "small.obj", [0.25; 3]);
    let sqrt3 = 3f64.sqrt();
    let cases: [(&str, &str, f64, Option<Vector3<f64>>); 4] = [
        ("box", "0.1,0.2,1.2", -0.05, Some(Vector3::z())),
        ("sphere", "0.1,0.2,1.2", 1.49f64.sqrt() - 1.25 * sqrt3, None),
        ("sphere", "3,0,0", 3.0 - 1.25 * sqrt3, Some(Vector3::x())),
        (
            "hull",
            "3,0,0,0,0,45",
            2.0 - 0.25 * 2f64.sqrt(),
            Some(Vector3::x()),
        ),
    ];
    for (shape, pose, want, normal) in cases {
        let args = [
            "distance", &cube, &small, "--pose", pose, "--convex", shape, "--json",
        ];
        let p = signed(&args);
        let c = &p["convex"];
        assert_eq!(c["shape"], shape, "{c}");
        let s = c["signed_distance"].as_f64().unwrap();
        assert!(
            (s - want).abs() <= 1e-12,
            "{shape} at {pose}: {s} against {want}"
        );
        assert_eq!(c["depth"].as_f64().unwrap(), (-s).max(0.0));
        assert!(c["bound"].as_f64().unwrap() <= c["tolerance"].as_f64().unwrap());
        let n = xyz(&c["normal"]);
        assert!((n.norm() - 1.0).abs() < 1e-12);
        if let Some(m) = normal {
            assert!((n - m).norm() < 1e-9, "{shape} at {pose}: normal {n}");
        }
        let (a, b) = (xyz(&c["point_a"]), xyz(&c["point_b"]));
        assert!(((b - a) - n * s).norm() < 1e-9, "{c}");
        // The stream gives the same answer.
        let mut lines = args.to_vec();
        *lines.last_mut().unwrap() = "--jsonl";
        let (code, out, err) = run(EXE, &lines);
        assert_eq!(code, 0, "{err}");
        let mut first: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        let (mut got, mut want) = (first["convex"].take(), c.clone());
        got["query_us"].take();
        want["query_us"].take();
        assert_eq!(got, want);
    }
    let (code, out, _) = run(EXE, &["distance", &cube, &small, "--convex", "box"]);
    assert_eq!(code, 0);
    assert!(out.contains("box signed distance -1.25"), "{out}");
    for refused in [
        &["--convex", "decompose"][..],
        &["--convex", "blob"],
        &["--convex-tolerance", "1e-9"],
        &["--max-cells", "10"],
        &["--convex", "box", "--max-cells", "0"],
    ] {
        let args = [&["distance", &cube, &small][..], refused].concat();
        let (code, _, err) = run(EXE, &args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}
