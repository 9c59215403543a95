//! `bvtool collide --to` / `--path`: time of impact on the torus the repo
//! carries, against the contact times known in closed form, and the exit
//! codes of bad motion flags.

use bvtool_dev::bvtool;
use bvtool_dev::render_check::{WHITE, close, colour_near, px};

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
    let dir = bvtool_dev::scratch!("motion");
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
    // Its picture: ghosts spread over the segments, the contact marked.
    let png = dir.join("path.png");
    let (code, _, err) = bvtool!(&[
        "collide",
        TORUS,
        TORUS,
        "--path",
        file,
        "--render",
        png.to_str().unwrap(),
        "--size",
        "320x240",
    ]);
    assert_eq!(code, 0, "{err}");
    let img = image::open(&png).unwrap().to_rgb8();
    use bvtool::render::sweep::{MARKER_COLOR, PATH_COLOR};
    assert!(count(&img, &|p| close(p, MARKER_COLOR, 2)) > 0);
    assert!(count(&img, &|p| p == PATH_COLOR) > 0);
    assert!(count(&img, &ghost_over_white) > 100);
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

/// `old` mixed with `c` at weight `alpha` of 255, rounded, as the canvas
/// blends.
fn mix(old: [u8; 3], c: [u8; 3], alpha: u32) -> [u8; 3] {
    [0, 1, 2].map(|k| ((old[k] as u32 * (255 - alpha) + c[k] as u32 * alpha + 127) / 255) as u8)
}

/// Whether a pixel is a ghost of B over the white background: B's colour
/// at some shade (ambient 0.3 to full light), blended at the ghosts'
/// opacity.
fn ghost_over_white(p: [u8; 3]) -> bool {
    use bvtool::render::sweep::GHOST_OPACITY;
    let alpha = (GHOST_OPACITY * 255.0).round() as u32;
    let sand = bvtool::render::MESH_COLORS[1];
    let least = mix(WHITE, [0, 0, 0], alpha); // a blend over white is no darker
    if p == WHITE || (0..3).any(|k| p[k] + 1 < least[k]) {
        return false;
    }
    (0..=200).any(|k| {
        let light = 0.3 + 0.7 * k as f64 / 200.0;
        let shade = sand.map(|c| (c as f64 * light).round() as u8);
        close(p, mix(WHITE, shade, alpha), 1)
    })
}

/// How many pixels of `img` satisfy `f`.
fn count(img: &image::RgbImage, f: &dyn Fn([u8; 3]) -> bool) -> usize {
    img.pixels().filter(|p| f(p.0)).count()
}

/// The picture of the torus moving into its twin (front view: the tori lie
/// in the xy plane): the contact marker where the picture's camera puts
/// the witness point of the JSON answer, the path of B's centre along the
/// x axis, the first ghost (B at x = 4) alone at x = 5.3; a free motion's
/// picture has ghosts and no marker.
#[test]
fn render_shows_the_ghosts_the_path_and_the_contact() {
    use bvtool::batch::collide::Side;
    use bvtool::query::motion::{ImpactOptions, Motion};
    use bvtool::render::sweep::{MARKER_COLOR, PATH_COLOR, SweepContact, SweepEnd, sweep_scene};
    use bvtool::render::{Layout, RenderOptions, View, cameras};
    use nalgebra::Point3;

    let dir = bvtool_dev::scratch!("motion-render");
    let png = dir.join("sweep.png");
    let file = png.to_str().unwrap();
    let look = ["--view", "front", "--size", "480x360"];
    let mut args = vec![
        "collide", TORUS, TORUS, "--pose", "4,0,0", "--to", "0,0,0", "--render", file, "--json",
    ];
    args.extend(look);
    let (code, out, err) = bvtool!(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("wrote {file} (480x360 picture)")),
        "{err}"
    );
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["status"], "hit");
    let img = image::open(&png).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (480, 360));

    // The camera of the picture: the same scene, made by the library.
    let scene = load(TORUS.as_ref(), &Default::default()).unwrap();
    let side = Side::new(TORUS, &scene, Default::default()).unwrap();
    let path = [Pose::parse_inline("4,0,0").unwrap(), Pose::identity()];
    let again =
        bvtool::batch::motion::run(&side, &side, &path, &ImpactOptions::default(), None).unwrap();
    let t = doc["t"].as_f64().unwrap();
    let point = |k: &str| {
        let v: Vec<f64> = (0..3).map(|i| doc[k][i].as_f64().unwrap()).collect();
        Point3::new(v[0], v[1], v[2])
    };
    let contact = Motion::new(path[0], path[1]).pose_at(t);
    let end = SweepEnd {
        segment: 0,
        t,
        contact: Some(SweepContact {
            pairs: collide(&side.tree, &side.tree, &contact, ContactMode::All).pairs,
            point_a: point("point_a"),
            point_b: point("point_b"),
            clearance: 0.0,
        }),
    };
    let drawn = sweep_scene(
        &side.mesh,
        &side.mesh,
        &path,
        &end,
        &again.picture_title(&path),
    );
    let opts = RenderOptions {
        layout: Layout::Single(View::Front),
        width: 480,
        height: 360,
        ..Default::default()
    };
    let cam = cameras(&drawn, &opts)[0];
    assert!(
        colour_near(&img, cam.project(point("point_a")), 2, MARKER_COLOR),
        "no contact marker at the witness point"
    );
    assert!(
        colour_near(
            &img,
            cam.project(Point3::new(3.35, 0.0, 0.0)),
            1,
            PATH_COLOR
        ),
        "no path between the first and the last copy"
    );
    let (x, y) = cam.project(Point3::new(5.3, 0.0, 0.0));
    let first = px(&img, x as i64, y as i64).unwrap();
    assert!(ghost_over_white(first), "{first:?} is no ghost");
    assert!(count(&img, &ghost_over_white) > 500);

    // Passing 1.2 above the twin: free, the copies over the whole motion,
    // and no marker.
    let mut args = vec![
        "collide", TORUS, TORUS, "--pose", "-3,0,1.2", "--to", "3,0,1.2", "--render", file,
    ];
    args.extend(look);
    let (code, out, err) = bvtool!(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("contact: no"), "{out}");
    let img = image::open(&png).unwrap().to_rgb8();
    assert_eq!(count(&img, &|p| close(p, MARKER_COLOR, 2)), 0);
    assert!(count(&img, &ghost_over_white) > 500);
    assert!(count(&img, &|p| p == PATH_COLOR) > 100);
    std::fs::remove_dir_all(&dir).unwrap();
}
