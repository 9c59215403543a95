//! `bvtool collide --to` / `--path`: time of impact on the torus the repo
//! carries, against the contact times known in closed form, and the exit
//! codes of bad motion flags.

use bvtool_dev::bvtool;

use bvtool::Pose;
use bvtool::load::load;
use bvtool::query::{ContactMode, collide};
use bvtool::tree::ObbTree;
use nalgebra::{UnitQuaternion, Vector3};
use serde_json::Value;

const TORUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/torus.obj");

fn json(args: &[&str]) -> Value {
    let (code, out, err) = bvtool!(args);
    assert_eq!(code, 0, "bvtool {args:?} failed: {err}");
    serde_json::from_str(&out).unwrap()
}

fn touching(pose: &Value) -> bool {
    let mesh = load(TORUS.as_ref(), &Default::default()).unwrap().flatten();
    let tree = ObbTree::build_default(&mesh, Default::default());
    let v = |k: &str| -> Vec<f64> {
        pose[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let (t, q) = (v("translation"), v("rotation"));
    let rotation =
        UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q[3], q[0], q[1], q[2]));
    let pose = Pose::new(Vector3::new(t[0], t[1], t[2]), rotation);
    collide(&tree, &tree, &pose, ContactMode::First).intersecting
}

/// The torus (R = 1, r = 0.35, vertices on the x axis) moved from x = 4 to
/// x = 0 first touches itself at x = 2.7 (t = 0.325), and comes within 0.1
/// at x = 2.8 (t = 0.3).
#[test]
fn first_contact_and_clearance_along_x() {
    let doc = json(&[
        "collide", TORUS, TORUS, "--pose", "4,0,0", "--to", "0,0,0", "--json",
    ]);
    assert_eq!(doc["status"], "hit");
    assert_eq!(doc["hit"], true);
    let (t, free, tol) = (
        doc["t"].as_f64().unwrap(),
        doc["free_until"].as_f64().unwrap(),
        doc["tol"].as_f64().unwrap(),
    );
    assert_eq!(tol, 1e-6);
    assert!(free <= t && t - free <= tol, "{doc}");
    assert!(free <= 0.325 + 1e-12 && t >= 0.325 - 1e-12, "{doc}");
    assert!(touching(&doc["pose"]), "{doc}");
    // The witness points agree up to rounding.
    let gap =
        (0..3).map(|k| doc["point_a"][k].as_f64().unwrap() - doc["point_b"][k].as_f64().unwrap());
    assert!(gap.map(f64::abs).fold(0.0, f64::max) < 1e-12, "{doc}");
    assert!(doc["distance_calls"].as_u64().unwrap() >= 1);

    let doc = json(&[
        "collide",
        TORUS,
        TORUS,
        "--pose",
        "4,0,0",
        "--to",
        "0,0,0",
        "--clearance",
        "0.1",
        "--tol",
        "1e-9",
        "--json",
    ]);
    let (t, free) = (
        doc["t"].as_f64().unwrap(),
        doc["free_until"].as_f64().unwrap(),
    );
    assert!(
        free <= 0.3 + 1e-9 && t >= 0.3 - 1e-9 && t - free <= 1e-9,
        "{doc}"
    );
    assert!(doc["pair"]["distance"].as_f64().unwrap() <= 0.1);

    // Passing 5 above: certified free.
    let doc = json(&[
        "collide",
        TORUS,
        TORUS,
        "--pose",
        "0,5,0",
        "--to",
        "4,5,0,0,0,90",
        "--json",
    ]);
    assert_eq!(
        (&doc["status"], &doc["hit"], &doc["free_until"]),
        (&"free".into(), &false.into(), &1.0.into())
    );
    assert!(doc["t"].is_null());
    let (code, out, _) = bvtool!(&["collide", TORUS, TORUS, "--pose", "4,0,0", "--to", "0,0,0"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("contact: yes, at t = 0.325") && out.contains("certified: none before"),
        "{out}"
    );
}

#[test]
fn a_path_names_the_segment() {
    let dir = std::env::temp_dir().join(format!("bvtool-motion-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("path.jsonl");
    std::fs::write(
        &path,
        "{\"translation\":[0,5,0]}\n{\"translation\":[4,5,0]}\n{\"translation\":[4,0,0]}\n{\"translation\":[0,0,0]}\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let doc = json(&["collide", TORUS, TORUS, "--path", file, "--json"]);
    assert_eq!(
        (doc["segments"].as_u64(), doc["segment"].as_u64()),
        (Some(3), Some(2)),
        "{doc}"
    );
    let t = doc["t"].as_f64().unwrap();
    assert!((t - 0.325).abs() <= 1e-6, "{doc}");
    // One pose is not a path: bad input naming the file.
    std::fs::write(&path, "{\"translation\":[0,5,0]}\n").unwrap();
    let (code, _, err) = bvtool!(&["collide", TORUS, TORUS, "--path", file]);
    assert_eq!(code, 1);
    assert!(
        err.contains(file) && err.contains("at least 2 poses") && err.lines().count() == 1,
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_motion_flags_are_usage_errors() {
    for args in [
        &["collide", TORUS, TORUS, "--tol", "1e-3"][..],
        &["collide", TORUS, TORUS, "--to", "0,0,0", "--tol", "0"],
        &[
            "collide",
            TORUS,
            TORUS,
            "--to",
            "0,0,0",
            "--max-distance-calls",
            "0",
        ],
        &[
            "collide", TORUS, TORUS, "--pose", "1,0,0", "--pose", "2,0,0", "--to", "0,0,0",
        ],
        &["collide", TORUS, TORUS, "--to", "0,0,0", "--all-pairs"],
        &["collide", TORUS, TORUS, "--to", "0,0,0", "--path", "p.json"],
        &["collide", TORUS, TORUS, "--least-distance"],
        &[
            "collide",
            TORUS,
            TORUS,
            "--to",
            "0,0,0",
            "--least-distance",
            "--least-rel-tol",
            "0",
        ],
    ] {
        let (code, _, err) = bvtool!(args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
    // A work limit too small to decide: undecided, exit 0.
    let doc = json(&[
        "collide",
        TORUS,
        TORUS,
        "--pose",
        "4,0,0",
        "--to",
        "0,0,0",
        "--max-distance-calls",
        "1",
        "--json",
    ]);
    assert_eq!(doc["status"], "undecided");
    assert!(doc["free_until"].as_f64().unwrap() < 0.325);
}

/// The torus passing 1.2 above its twin: the top ring of vertices (z =
/// 0.35) faces the moving bottom ring (z = 0.85) while they overlap, so
/// the least distance is 0.5; a path through the twin has 0.
#[test]
fn least_distance_over_a_pass_above_and_through() {
    let doc = json(&[
        "collide",
        TORUS,
        TORUS,
        "--pose",
        "-3,0,1.2",
        "--to",
        "3,0,1.2",
        "--least-distance",
        "--json",
    ]);
    assert_eq!(doc["status"], "free");
    let least = &doc["least"];
    let (d, lower) = (
        least["distance"].as_f64().unwrap(),
        least["lower"].as_f64().unwrap(),
    );
    assert_eq!(least["certified"], true, "{doc}");
    assert!((d - 0.5).abs() < 1e-9, "{doc}");
    assert!(lower <= 0.5 && d - lower <= 1e-3 * d, "{doc}");
    let gap = |k: &str| least[k].as_array().unwrap()[2].as_f64().unwrap();
    assert!(
        (gap("point_b") - gap("point_a") - 0.5).abs() < 1e-9,
        "{doc}"
    );
    let through = json(&[
        "collide",
        TORUS,
        TORUS,
        "--pose",
        "4,0,0",
        "--to",
        "0,0,0",
        "--least-distance",
        "--json",
    ]);
    assert_eq!(through["least"]["distance"], 0.0);
    assert_eq!(through["least"]["lower"], 0.0);
    assert!(touching(&through["least"]["pose"]), "{through}");
    let (code, text, _) = bvtool!(&[
        "collide",
        TORUS,
        TORUS,
        "--pose",
        "-3,0,1.2",
        "--to",
        "3,0,1.2",
        "--least-distance",
    ]);
    assert_eq!(code, 0);
    assert!(text.contains("least distance: 0.5"), "{text}");
}
