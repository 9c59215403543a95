//! The command line as people use it (issue 13), run through the built
//! binary: closed pipes, exit codes, batches with a bad file, folders and
//! patterns, poses from standard input, matrices and radians, numbers
//! without noise, help text, and the pictures' title, triad and dashes.

use bvtool::Pose;
use bvtool::load::{LoadOptions, load};
use bvtool::query::brute_force;
use serde_json::Value;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const TORUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/torus.obj");
const CHAIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/chain.gltf");

/// Runs bvtool with `stdin` fed in; (exit code, stdout, stderr).
fn bvtool_in(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bvtool"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn bvtool(args: &[&str]) -> (i32, String, String) {
    bvtool_in(args, "")
}

fn json(args: &[&str]) -> Value {
    let (code, out, err) = bvtool(args);
    assert_eq!(code, 0, "bvtool {args:?} failed: {err}");
    serde_json::from_str(&out).unwrap()
}

/// A fresh, empty scratch folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = bvtool_dev::scratch!(format!("habits-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs bvtool, reads 200 bytes of its stdout and closes the pipe, like
/// `bvtool … | head -c 200`; (exit code, stderr).
fn closed_pipe(args: &[String]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bvtool"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut head = [0u8; 200];
    stdout.read_exact(&mut head).unwrap();
    drop(stdout);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code(), err)
}

#[test]
fn every_command_ends_quietly_on_a_closed_pipe() {
    // Outputs far larger than a pipe's buffer, so the writes must meet the
    // closed pipe.
    let dirs: Vec<String> =
        std::iter::repeat_n(format!("{}/models", env!("CARGO_MANIFEST_DIR")), 300).collect();
    let mut collide: Vec<String> = ["collide", TORUS, TORUS, "--all-pairs"]
        .map(String::from)
        .to_vec();
    for k in 0..40 {
        collide.extend(["--pose".into(), format!("0.5,0.{k},0")]);
    }
    let mut collide_json = collide.clone();
    collide_json.push("--json".into());
    let with = |cmd: &str, extra: &[&str]| {
        let mut v = vec![cmd.to_string()];
        v.extend(extra.iter().map(|s| s.to_string()));
        v.extend(dirs.iter().cloned());
        v
    };
    let runs = [
        collide,
        collide_json,
        with("info", &[]),
        with("info", &["--json"]),
        with("fit", &["--json", "--obb", "pca"]),
        with("tree", &[]),
        ["export", TORUS, "--format", "json", "--tree"]
            .map(String::from)
            .to_vec(),
        ["export", TORUS, "--format", "c", "--tree"]
            .map(String::from)
            .to_vec(),
    ];
    for args in runs {
        let (code, err) = closed_pipe(&args);
        assert_eq!(code, Some(0), "bvtool {} …: {err}", args[0]);
        assert!(err.is_empty(), "bvtool {} … printed: {err}", args[0]);
    }
}

#[test]
fn usage_errors_exit_2_and_bad_input_1() {
    let (code, _, err) = bvtool(&["collide", TORUS, TORUS, "--pose", "1,2"]);
    assert_eq!(code, 2, "a malformed inline pose is a usage error: {err}");
    assert!(err.contains("3, 6 or 7 numbers"), "{err}");
    let (code, _, err) = bvtool(&["collide", TORUS, TORUS, "--pose", "0,0,0,90,0,zz"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = bvtool(&["export", TORUS, "--format", "bin"]);
    assert_eq!(code, 2, "bin without -o: {err}");
    let (code, _, err) = bvtool(&["export", TORUS, "--format", "gltf", "-o", "x.txt"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = bvtool(&["render", TORUS, "-o", "x.jpg"]);
    assert_eq!(code, 2, "a .jpg name would hold PNG bytes: {err}");
    assert!(err.contains("PNG"), "{err}");
    let (code, _, err) = bvtool(&["render", TORUS, "-o", "x.png", "--size", "0x5"]);
    assert_eq!(code, 2, "{err}");
    // Bad input files and side files are 1.
    let (code, _, err) = bvtool(&["collide", TORUS, TORUS, "--pose", "posess.json"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.trim(), "bvtool: posess.json: no such pose file");
    let (code, _, err) = bvtool(&["info", "no/such/file.glb"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "one file, one line: {err}");
}

#[test]
fn a_batch_goes_on_past_a_bad_file_and_exits_1() {
    let dir = scratch("batch");
    let bad = dir.join("empty.obj");
    std::fs::write(&bad, "# nothing\n").unwrap();
    let bad = bad.to_str().unwrap();
    for cmd in ["info", "fit", "tree"] {
        let (code, out, err) = bvtool(&[cmd, "--json", TORUS, "nope.obj", CHAIN]);
        assert_eq!(code, 1, "{cmd}: {err}");
        let doc: Value = serde_json::from_str(&out).unwrap();
        let files = doc["files"].as_array().unwrap();
        assert_eq!(files.len(), 3, "{cmd}: one entry per file, in order");
        assert!(files[0]["file"].as_str().unwrap().ends_with("torus.obj"));
        assert_eq!(files[1]["file"], "nope.obj");
        assert!(files[1]["error"].as_str().unwrap().contains("nope.obj"));
        assert!(files[2]["file"].as_str().unwrap().ends_with("chain.gltf"));
        assert!(files[2].get("error").is_none(), "{cmd}: {}", files[2]);
        assert!(
            err.lines().any(|l| l.starts_with("bvtool: nope.obj:")),
            "{err}"
        );
    }
    // fit refuses a file without triangles or points; the good files are still fitted,
    // and their numbers are those of a run on them alone.
    let (code, out, err) = bvtool(&["fit", TORUS, bad, CHAIN]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("{bad}: no triangles or points")),
        "{err}"
    );
    assert!(err.contains("1 of 3 files failed"), "{err}");
    let (_, torus_alone, _) = bvtool(&["fit", TORUS]);
    let (_, chain_alone, _) = bvtool(&["fit", CHAIN]);
    assert_eq!(out, torus_alone + &chain_alone);
}

#[test]
fn folders_are_read_recursively_in_order_and_patterns_expanded() {
    let dir = scratch("folders");
    for (path, from) in [
        ("b.obj", TORUS),
        ("a/z.gltf", CHAIN),
        ("a/deep/y.OBJ", TORUS),
        ("notes.txt", TORUS),
    ] {
        let to = dir.join(path);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, &to).unwrap();
    }
    // chain.gltf embeds its buffer, so the copy loads on its own.
    let names = |doc: &Value| -> Vec<String> {
        doc["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let f = f["file"].as_str().unwrap();
                Path::new(f)
                    .strip_prefix(&dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    };
    let d = dir.to_str().unwrap();
    let all = json(&["info", "--json", d]);
    assert_eq!(names(&all), ["a/deep/y.OBJ", "a/z.gltf", "b.obj"]);
    assert_eq!(all["files"][0]["triangles"], 2304);
    // Patterns ignore case, as the folder walk's extensions do.
    let objs = json(&["info", "--json", d, "--glob", "*.obj"]);
    assert_eq!(names(&objs), ["a/deep/y.OBJ", "b.obj"]);
    let under = json(&["info", "--json", d, "--glob", "a/**"]);
    assert_eq!(names(&under), ["a/deep/y.OBJ", "a/z.gltf"]);
    // A quoted pattern, expanded by bvtool: `*` stays within a folder.
    let pattern = format!("{d}/a/*");
    assert_eq!(names(&json(&["info", "--json", &pattern])), ["a/z.gltf"]);
    let pattern = format!("{d}/**/*.obj");
    assert_eq!(
        names(&json(&["info", "--json", &pattern])),
        ["a/deep/y.OBJ", "b.obj"]
    );
    let (code, _, err) = bvtool(&["info", &format!("{d}/*.stl")]);
    assert_eq!(code, 1);
    assert!(err.contains("no model file matches"), "{err}");
    // A --glob that keeps nothing says so, not that the folder is empty.
    let (code, _, err) = bvtool(&["info", d, "--glob", "*.xyz"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("no model file in this folder matches --glob '*.xyz'"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn linked_folders_are_named_not_followed() {
    use std::os::unix::fs::symlink;
    let dir = scratch("links");
    let outside = scratch("links-outside");
    std::fs::create_dir_all(dir.join("real")).unwrap();
    std::fs::copy(TORUS, dir.join("real/t.obj")).unwrap();
    std::fs::copy(TORUS, outside.join("o.obj")).unwrap();
    symlink(dir.join("real"), dir.join("alias")).unwrap(); // inside
    symlink(&dir, dir.join("real/loop")).unwrap(); // back up: a loop if followed
    symlink(&outside, dir.join("away")).unwrap(); // outside
    let (code, out, err) = bvtool(&["info", "--json", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let files: Vec<&str> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    // Every file once, under its real path; each link named with why.
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].ends_with("real/t.obj"), "{files:?}");
    for (link, why) in [
        ("alias", "read under its own path"),
        ("loop", "read under its own path"),
        ("away", "outside the one walked"),
    ] {
        assert!(
            err.lines()
                .any(|l| l.contains(&format!("{link}: link not followed")) && l.contains(why)),
            "{link}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&outside);
}

/// The pair count of each pose of a `collide --json` run.
fn pair_counts(doc: &Value) -> Vec<u64> {
    doc["poses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["pair_count"].as_u64().unwrap())
        .collect()
}

#[test]
fn poses_from_stdin_as_json_lines_lists_and_matrices() {
    let torus = load(Path::new(TORUS), &LoadOptions::default())
        .unwrap()
        .flatten();
    // 30° about Z, then moved 0.5 along X: as a quaternion, a row-major
    // matrix (flat and as rows); then a pose far apart.
    let (c, s) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
    let (qz, qw) = (15f64.to_radians().sin(), 15f64.to_radians().cos());
    let quat = format!(r#"{{"translation":[0.5,0,0],"rotation":[0,0,{qz},{qw}]}}"#);
    let flat = format!(
        r#"{{"matrix":[{c},{},0,0.5, {s},{c},0,0, 0,0,1,0, 0,0,0,1]}}"#,
        -s
    );
    let rows = format!("[[{c},{},0,0.5],[{s},{c},0,0],[0,0,1,0],[0,0,0,1]]", -s);
    let far = r#"{"translation":[3,0,0]}"#;
    // The oracle: brute force over all triangle pairs at the pose read back.
    let check = |doc: &Value, n: usize| {
        let poses = doc["poses"].as_array().unwrap();
        assert_eq!(poses.len(), n);
        for (k, p) in poses.iter().enumerate() {
            let t = &p["pose"]["translation"];
            let q = &p["pose"]["rotation"];
            let spec = format!(
                "{},{},{},{},{},{},{}",
                t[0], t[1], t[2], q[0], q[1], q[2], q[3]
            );
            let oracle = brute_force(&torus, &torus, &Pose::parse_inline(&spec).unwrap());
            assert_eq!(
                p["pair_count"].as_u64().unwrap() as usize,
                oracle.len(),
                "pose {k}"
            );
            let want = if k + 1 < n || n == 1 {
                [0.5, qz, qw]
            } else {
                [3.0, 0.0, 1.0]
            };
            let got = [
                t[0].as_f64().unwrap(),
                q[2].as_f64().unwrap(),
                q[3].as_f64().unwrap(),
            ];
            for (a, b) in got.iter().zip(want) {
                assert!((a - b).abs() < 1e-12, "pose {k}: {got:?} vs {want:?}");
            }
        }
        let counts = pair_counts(doc);
        assert!(counts[0] > 0, "the first pose touches");
        if n == 4 {
            assert_eq!(counts[3], 0, "the last pose is apart");
        }
    };
    let lines = format!("{quat}\n{flat}\n\n{rows}\n{far}\n");
    let list = format!("[{quat}, {flat}, {rows}, {far}]");
    for input in [lines, list] {
        let (code, out, err) =
            bvtool_in(&["collide", TORUS, TORUS, "--pose", "-", "--json"], &input);
        assert_eq!(code, 0, "{err}");
        check(&serde_json::from_str(&out).unwrap(), 4);
    }
    // A lone matrix given as rows is one pose, not four.
    let (_, out, err) = bvtool_in(&["collide", TORUS, TORUS, "--pose", "-", "--json"], &rows);
    assert!(err.is_empty(), "{err}");
    check(&serde_json::from_str(&out).unwrap(), 1);
}

#[test]
fn pose_matrices_must_be_rigid_and_errors_say_where() {
    let cases = [
        (
            "[[1,0,0,0],[0,1,0,0],[0,0,1.01,0],[0,0,0,1]]",
            "not a rigid transform",
        ),
        ("[[-1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]", "det R = -1"),
        (
            "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[1,0,0,1]]",
            "last row must be 0 0 0 1",
        ),
        (
            r#"[{"translation":[0,0,0]}, {"translation":[1,0,0],"rotation":[0,0,1]}]"#,
            "/1/rotation: expected 4 numbers",
        ),
        (r#"{"matrix":[1,0,0]}"#, "/matrix: expected a 4×4 matrix"),
        (
            "{\"translation\":[0,0,0]}\n{\"translation\":[0,0]}\n",
            "pose 2 (line 2): /translation",
        ),
    ];
    for (input, want) in cases {
        let (code, _, err) = bvtool_in(&["collide", TORUS, TORUS, "--pose", "-"], input);
        assert_eq!(code, 1, "{input}: {err}");
        assert!(err.contains(want), "{input}: {err}");
        assert!(err.starts_with("bvtool: standard input: "), "{err}");
    }
    // Within the stated tolerance (1e-6), a rotation printed to 9 digits passes.
    let c = 0.866025404_f64;
    let ok = format!("[[{c},-0.5,0,0],[0.5,{c},0,0],[0,0,1,0],[0,0,0,1]]");
    let (code, _, err) = bvtool_in(&["collide", TORUS, TORUS, "--pose", "-"], &ok);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn euler_angles_in_radians_by_flag_or_suffix() {
    let rotation = |args: &[&str]| -> Vec<f64> {
        let mut a = vec!["collide", TORUS, TORUS, "--json"];
        a.extend(args);
        let doc = json(&a);
        doc["poses"][0]["pose"]["rotation"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let deg = rotation(&["--pose", "0.5,0,0,30,-20,90"]);
    let rad = format!(
        "0.5,0,0,{},{},{}",
        30f64.to_radians(),
        (-20f64).to_radians(),
        90f64.to_radians()
    );
    let by_flag = rotation(&["--pose", &rad, "--angles", "rad"]);
    let suffixed = format!(
        "0.5,0,0,{}rad,-20deg,{}rad",
        30f64.to_radians(),
        90f64.to_radians()
    );
    let by_suffix = rotation(&["--pose", &suffixed]);
    for (a, b) in deg.iter().zip(&by_flag).chain(deg.iter().zip(&by_suffix)) {
        assert!((a - b).abs() < 1e-12, "{deg:?} {by_flag:?} {by_suffix:?}");
    }
    let (code, _, err) = bvtool(&["collide", TORUS, TORUS, "--pose", "1rad,0,0"]);
    assert_eq!(code, 2, "a unit on a translation is refused: {err}");
}

#[test]
fn many_poses_end_with_a_totals_line() {
    let mut args = vec!["collide", TORUS, TORUS];
    let specs = ["0.5,0,0", "3,0,0", "0,0,0", "2.8,0,0"];
    for s in &specs {
        args.extend(["--pose", s]);
    }
    let (code, out, _) = bvtool(&args);
    assert_eq!(code, 0);
    let torus = load(Path::new(TORUS), &LoadOptions::default())
        .unwrap()
        .flatten();
    let counts: Vec<usize> = specs
        .iter()
        .map(|s| brute_force(&torus, &torus, &Pose::parse_inline(s).unwrap()).len())
        .collect();
    let touching = counts.iter().filter(|&&n| n > 0).count();
    let total: usize = counts.iter().sum();
    let line = out.lines().find(|l| l.starts_with("total:")).expect(&out);
    assert!(
        line.starts_with(&format!(
            "total: 4 poses, {touching} touching, {} apart, {total} triangle pairs;",
            4 - touching
        )),
        "{line}"
    );
}

/// An OBJ box of half extents `half` centred at the origin, turned by
/// `degrees` about Z: 8 vertices, 6 quads.
fn box_obj(half: [f64; 3], degrees: f64) -> String {
    let (c, s) = (degrees.to_radians().cos(), degrees.to_radians().sin());
    let mut obj = String::new();
    for k in 0..8 {
        let [x, y, z] = std::array::from_fn(|i| if k & (1 << i) == 0 { -half[i] } else { half[i] });
        obj += &format!("v {} {} {z}\n", c * x - s * y, s * x + c * y);
    }
    obj + "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n"
}

/// Every number in `text`.
fn numbers(text: &str) -> Vec<(String, f64)> {
    text.split(|c: char| !(c.is_ascii_digit() || ".eE+-".contains(c)))
        .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
        .filter_map(|t| Some((t.to_string(), t.parse().ok()?)))
        .collect()
}

#[test]
fn numbers_hide_rounding_noise_and_never_print_minus_zero() {
    // A box 2 x 1 x 0.5 turned 30° about Z: its OBB's centre, extents and
    // quaternion carry rounding noise of ~1e-17 in their zero components.
    let dir = scratch("noise");
    let (c, s) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
    let obj = box_obj([1.0, 0.5, 0.25], 30.0);
    let path = dir.join("turned_box.obj");
    std::fs::write(&path, obj).unwrap();
    let p = path.to_str().unwrap();
    for args in [
        vec!["fit", p, "--obb", "all", "--sphere", "all"],
        vec!["info", p],
        vec!["collide", p, p, "--pose", "0.3,0,0,0,0,30"],
    ] {
        let (code, out, err) = bvtool(&args);
        assert_eq!(code, 0, "{err}");
        for (n, x) in numbers(&out) {
            assert!(x == 0.0 || x.abs() >= 1e-6, "{args:?}: noise {n} in\n{out}");
            assert!(!(n.starts_with('-') && x == 0.0), "{args:?}: {n} in\n{out}");
        }
    }
    // The fit table gives HALF extents for every box, and the OBB's rotation.
    let (_, out, _) = bvtool(&["fit", p]);
    let aabb = out
        .lines()
        .find(|l| l.trim_start().starts_with("AABB"))
        .unwrap();
    let half = [0.5 * (2.0 * c + s), 0.5 * (2.0 * s + c), 0.25]; // the turned box's spans / 2
    assert!(
        aabb.contains(&format!("({:.5}, {:.5}, {:.5})", half[0], half[1], half[2])),
        "{aabb}"
    );
    let obb = out
        .lines()
        .find(|l| l.trim_start().starts_with("OBB"))
        .unwrap();
    for h in ["1.00000", "0.50000", "0.25000"] {
        assert!(obb.contains(h), "OBB half extents: {obb}");
    }
    // The rotation is the JSON one at 4 decimals.
    let doc = json(&["fit", p, "--json"]);
    let q: Vec<String> = doc["files"][0]["obb"]["rotation_xyzw"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| match format!("{:.4}", x.as_f64().unwrap()) {
            z if z.trim_start_matches('-') == "0.0000" => "0".to_string(),
            v => v,
        })
        .collect();
    assert!(
        obb.ends_with(&format!("({})", q.join(", "))),
        "{obb} vs {q:?}"
    );
}

#[test]
fn small_wording_slips_are_gone() {
    // info: the value column does not move with the file name's length.
    let (_, out, _) = bvtool(&["info", TORUS, CHAIN]);
    let cols: Vec<usize> = out
        .lines()
        .filter(|l| l.trim_start().starts_with("triangles"))
        .map(|l| l.find(|c: char| c.is_ascii_digit()).unwrap())
        .collect();
    assert_eq!(cols.len(), 2);
    assert_eq!(cols[0], cols[1], "{out}");
    // chain.gltf: one mesh placed twice.
    assert!(
        out.contains(&format!("{:<20}1, placed 2 times", "meshes")),
        "{out}"
    );
    // fit --frame local names the frame in lower case.
    let (_, out, _) = bvtool(&["fit", CHAIN, "--frame", "local"]);
    assert!(
        out.contains("local frame") && !out.contains("Local"),
        "{out}"
    );
    // tree: "at most 1 triangle", and no ratio for levels of flat boxes.
    let (_, out, _) = bvtool(&["tree", TORUS, "--leaf-size", "1"]);
    assert!(out.contains("at most 1 triangle each"), "{out}");
    // At one triangle a leaf, the deepest level's boxes are flat.
    let stats = json(&["tree", TORUS, "--leaf-size", "1", "--json"]);
    let obb: Vec<f64> = stats["files"][0]["obb_volume_per_level"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let (_, out, _) = bvtool(&["tree", TORUS, "--leaf-size", "1"]);
    let mut flat_levels = 0;
    for (d, v) in obb.iter().enumerate() {
        let row = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&d.to_string()))
            .unwrap();
        let flat = d > 0 && *v * 100.0 < obb[d - 1];
        flat_levels += usize::from(flat);
        assert_eq!(row.ends_with('-'), flat, "{row}");
    }
    assert_eq!(flat_levels, 1, "the torus's deepest level is flat:\n{out}");
    // compare names volumes as fit does.
    let (_, out, _) = bvtool(&["compare", TORUS, "--poses", "2", "--rotations", "2"]);
    assert!(
        out.contains("  sphere  ") && !out.contains("SPHERE"),
        "{out}"
    );
    // verify claims no explanation when nothing disagrees.
    let (_, out, _) = bvtool(&["verify", TORUS, TORUS, "--poses", "6"]);
    assert!(out.contains("agreement: 6 of 6 poses\n"), "{out}");
}

#[test]
fn help_is_written_for_users() {
    for cmd in [
        "info",
        "fit",
        "tree",
        "collide",
        "verify",
        "compare",
        "colliders",
        "render",
        "export",
    ] {
        let (code, out, _) = bvtool(&["help", cmd]);
        assert_eq!(code, 0);
        for fragment in ["[`", "`]", "../shared", "little- ", "make_poses"] {
            assert!(
                !out.contains(fragment),
                "help {cmd} shows {fragment:?}:\n{out}"
            );
        }
    }
}

#[test]
fn gltf_type_errors_name_a_json_pointer_and_no_scene_is_refused() {
    let dir = scratch("gltf");
    let cases = [
        (
            r#"{"asset":{"version":"2.0"},"nodes":[{},{"children":["x"]}]}"#,
            "wrong JSON type at /nodes/1/children/0",
        ),
        (
            r#"{"asset":{"version":"2.0"},"scene":0}"#,
            "default scene 0 does not exist",
        ),
    ];
    for (k, (text, want)) in cases.iter().enumerate() {
        let path = dir.join(format!("{k}.gltf"));
        std::fs::write(&path, text).unwrap();
        let (code, _, err) = bvtool(&["info", path.to_str().unwrap()]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(want), "{err}");
    }
}

#[test]
fn every_written_file_is_announced_on_stderr() {
    let dir = scratch("wrote");
    let png = dir.join("c.png");
    let bin = dir.join("t.bin");
    let poses = dir.join("p.json");
    let runs: [(Vec<&str>, &Path); 4] = [
        (
            vec![
                "collide",
                TORUS,
                TORUS,
                "--pose",
                "0.5,0,0",
                "--json",
                "--render",
                png.to_str().unwrap(),
            ],
            &png,
        ),
        (vec!["render", TORUS, "-o", png.to_str().unwrap()], &png),
        (
            vec![
                "export",
                TORUS,
                "--format",
                "bin",
                "-o",
                bin.to_str().unwrap(),
            ],
            &bin,
        ),
        (
            vec![
                "verify",
                TORUS,
                TORUS,
                "--poses",
                "4",
                "--write-poses",
                poses.to_str().unwrap(),
            ],
            &poses,
        ),
    ];
    for (args, file) in runs {
        let (code, out, err) = bvtool(&args);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.starts_with(&format!("wrote {} (", file.display())),
            "{args:?}: {err}"
        );
        assert!(
            !out.contains("wrote"),
            "stdout keeps only the answer: {out}"
        );
        assert!(file.is_file());
    }
    // The picture's stdout was valid JSON beside it.
    let (_, out, _) = bvtool(&[
        "collide",
        TORUS,
        TORUS,
        "--json",
        "--render",
        png.to_str().unwrap(),
    ]);
    serde_json::from_str::<Value>(&out).unwrap();
}

/// Pixels of `img` within `tol` (per channel) of `c` in rows `ys`.
fn count(img: &image::RgbImage, c: [u8; 3], tol: i32, ys: std::ops::Range<u32>) -> usize {
    img.enumerate_pixels()
        .filter(|(_, y, p)| {
            ys.contains(y) && (0..3).all(|k| (p.0[k] as i32 - c[k] as i32).abs() <= tol)
        })
        .count()
}

#[test]
fn collision_picture_has_a_title_and_a_triad_that_follows_up() {
    let dir = scratch("picture");
    let (w, h) = (800u32, 600u32);
    let mut green_up = Vec::new();
    for up in ["y", "z"] {
        let png = dir.join(format!("{up}.png"));
        let (code, _, err) = bvtool(&[
            "collide",
            TORUS,
            TORUS,
            "--pose",
            "0.5,0,0",
            "--size",
            "800x600",
            "--up",
            up,
            "--render",
            png.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let img = image::open(&png).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), (w, h));
        // Title: dark text in the top band, where the model (fitted with a
        // 14-pixel margin) never reaches without one.
        let dark = img
            .enumerate_pixels()
            .filter(|(x, y, p)| *y < 14 && *x < 400 && p.0.iter().all(|&c| c < 90))
            .count();
        assert!(dark > 100, "no title text ({dark} dark pixels)");
        // The triad: pure red, green and blue arms in the lower-left corner
        // (the legend is one 32-pixel row below the drawing).
        let (ox, oy) = (36i64, h as i64 - 32 - 36);
        for c in [[235, 0, 0], [0, 175, 0], [0, 0, 235]] {
            assert!(
                count(&img, c, 30, (oy - 40) as u32..(oy + 40) as u32) > 10,
                "{up}: {c:?}"
            );
        }
        // Straight above the triad's origin: the up axis's arm.
        let above = img.get_pixel(ox as u32, (oy - 14) as u32).0;
        green_up.push(above[1] > 120 && above[0] < 100 && above[2] < 100);
        let blue = above[2] > 150 && above[0] < 100 && above[1] < 100;
        assert_eq!(blue, up == "z", "{up}: {above:?} above the origin");
    }
    assert_eq!(green_up, [true, false], "+Y up by default, +Z with --up z");
}

#[test]
fn coincident_outlines_stay_visible() {
    // An axis-aligned cube: its AABB and its PCA and hull OBBs coincide; the
    // later ones are dashed, each in its own slot, so all three show.
    let dir = scratch("coincident");
    let obj = box_obj([1.0; 3], 0.0);
    let cube = dir.join("cube.obj");
    std::fs::write(&cube, obj).unwrap();
    let png = dir.join("cube.png");
    let (code, _, err) = bvtool(&[
        "render",
        cube.to_str().unwrap(),
        "--volumes",
        "aabb,obb:pca,obb:hull",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let img = image::open(&png).unwrap().to_rgb8();
    let drawing = 0..img.height() - 60; // above the legend
    let counts: Vec<usize> = bvtool::render::PALETTE[..3]
        .iter()
        .map(|&c| count(&img, c, 12, drawing.clone()))
        .collect();
    assert!(
        counts.iter().all(|&n| n > 300),
        "pixels per outline: {counts:?}"
    );
}

/// Pixels of palette colour `k` in a picture, above its legend.
fn palette_pixels(png: &Path, k: usize) -> usize {
    let img = image::open(png).unwrap().to_rgb8();
    count(&img, bvtool::render::PALETTE[k], 12, 0..img.height() - 40)
}

#[test]
fn render_per_mesh_draws_each_instances_volumes() {
    // chain.gltf, seen from the front: ring 1 in the XY plane, ring 2 in
    // the XZ plane moved 1 along X. The whole model's AABB is one 3.7 x 2.7
    // rectangle (perimeter 12.8); per mesh, a 2.7 x 2.7 square and a
    // 2.7 x 0.7 strip (17.6), at the same scale since their union is the
    // same box.
    let dir = scratch("per-mesh");
    let (whole, each) = (dir.join("whole.png"), dir.join("each.png"));
    for (png, extra) in [(&whole, None), (&each, Some("--per-mesh"))] {
        let mut args = vec![
            "render",
            CHAIN,
            "--volumes",
            "aabb",
            "--view",
            "front",
            "-o",
        ];
        args.push(png.to_str().unwrap());
        args.extend(extra);
        let (code, _, err) = bvtool(&args);
        assert_eq!(code, 0, "{err}");
    }
    let (w, e) = (palette_pixels(&whole, 0), palette_pixels(&each, 0));
    let ratio = e as f64 / w as f64;
    assert!((1.2..1.5).contains(&ratio), "{e} / {w} red pixels");
}

#[test]
fn point_clouds_are_bounded_by_info_fit_and_export_only() {
    // An OBJ without faces: its points, as an independent list.
    let dir = scratch("cloud");
    let pts = [
        [0.5, -1.0, 2.0],
        [-0.25, 3.0, 1.0],
        [1.5, 0.0, -2.0],
        [0.0, 0.5, 0.25],
        [-1.0, -0.5, 0.0],
    ];
    let text: String = pts
        .iter()
        .map(|p| format!("v {} {} {}\n", p[0], p[1], p[2]))
        .collect::<String>()
        + "p 1 2 3 4 5\n";
    let cloud = dir.join("cloud.obj");
    std::fs::write(&cloud, text).unwrap();
    let c = cloud.to_str().unwrap();
    let lo: Vec<f64> = (0..3)
        .map(|k| pts.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min))
        .collect();
    let hi: Vec<f64> = (0..3)
        .map(|k| pts.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max))
        .collect();
    let info = json(&["info", "--json", c]);
    assert_eq!(info["files"][0]["triangles"], 0);
    assert_eq!(info["files"][0]["vertices"], 5);
    for k in 0..3 {
        assert_eq!(info["files"][0]["aabb"]["min"][k].as_f64().unwrap(), lo[k]);
        assert_eq!(info["files"][0]["aabb"]["max"][k].as_f64().unwrap(), hi[k]);
    }
    let fit = json(&["fit", "--json", c, "--obb", "all", "--sphere", "all"]);
    let f = &fit["files"][0];
    assert_eq!(f["vertices"], 5);
    for (name, s) in f["spheres"].as_object().unwrap() {
        let r = s["radius"].as_f64().unwrap();
        for p in &pts {
            let d: f64 = (0..3)
                .map(|k| (p[k] - s["center"][k].as_f64().unwrap()).powi(2))
                .sum::<f64>()
                .sqrt();
            assert!(d <= r * (1.0 + 1e-12), "{name}: a point outside");
        }
    }
    for (name, b) in f["obbs"].as_object().unwrap() {
        for p in &pts {
            for i in 0..3 {
                let d: f64 = (0..3)
                    .map(|k| {
                        (p[k] - b["center"][k].as_f64().unwrap())
                            * b["axes"][i][k].as_f64().unwrap()
                    })
                    .sum();
                assert!(
                    d.abs() <= b["half_extents"][i].as_f64().unwrap() + 1e-12,
                    "{name}"
                );
            }
        }
    }
    let (code, out, _) = bvtool(&["fit", c]);
    assert_eq!(code, 0);
    assert!(
        out.contains("(point cloud: 5 points, world frame)"),
        "{out}"
    );
    let (code, out, err) = bvtool(&["export", c, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str::<Value>(&out).unwrap();
    // The commands that need triangles refuse it in one line.
    for args in [
        vec!["tree", c],
        vec!["compare", c],
        vec!["collide", c, c],
        vec!["render", c, "-o", "x.png"],
    ] {
        let (code, _, err) = bvtool(&args);
        assert_eq!(code, 1, "{args:?}");
        assert!(
            err.contains(&format!("{c}: no triangles")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn compare_says_where_the_time_goes_and_can_skip_the_trees() {
    let args = [
        "compare",
        "--json",
        TORUS,
        "--poses",
        "4",
        "--rotations",
        "5",
    ];
    let full = json(&args);
    let f = &full["files"][0];
    let t = &f["timings"];
    let ms = |k: &str| t[k].as_f64().unwrap();
    assert_eq!(ms("hull_ms"), f["hull_ms"].as_f64().unwrap());
    let fits: f64 = f["volumes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["fit_ms"].as_f64().unwrap())
        .sum();
    assert!((ms("fits_ms") - fits).abs() <= 1e-9 * fits.max(1.0));
    for k in [
        "rotations_ms",
        "tree_build_ms",
        "pose_search_ms",
        "tree_queries_ms",
    ] {
        assert!(ms(k) > 0.0, "{k}");
    }
    assert_eq!(f["trees"]["poses"], 4);
    let skipped = json(&[&args[..], &["--no-tree"]].concat());
    let s = &skipped["files"][0];
    assert!(s["trees"].is_null());
    for k in ["tree_build_ms", "pose_search_ms", "tree_queries_ms"] {
        assert_eq!(s["timings"][k], 0.0, "{k}");
    }
    // The volumes are the same with or without the trees.
    for (a, b) in f["volumes"]
        .as_array()
        .unwrap()
        .iter()
        .zip(s["volumes"].as_array().unwrap())
    {
        assert_eq!(a["volume"], b["volume"]);
    }
    let (_, out, _) = bvtool(&["compare", TORUS, "--no-tree", "--rotations", "5"]);
    assert!(
        out.contains("trees skipped (--no-tree)") && !out.contains("tree level"),
        "{out}"
    );
}

/// A one-triangle STL in the scratch folder `dir`.
fn one_triangle(dir: &Path) -> String {
    let path = dir.join("one.stl");
    std::fs::write(
        &path,
        "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid\n",
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn counts_of_one_are_singular() {
    let dir = scratch("singular");
    let one = one_triangle(&dir);
    let (code, out, err) = bvtool(&["tree", &one]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("1 triangle, 1 node (1 leaf, at most 2 triangles each)"),
        "{out}"
    );
    let (_, out, _) = bvtool(&["collide", &one, &one, "--pose", "0,0,1"]);
    assert!(out.contains(" (1 triangle, tree "), "{out}");
    let (_, out, _) = bvtool(&["fit", &one]);
    assert!(
        out.contains("(1 triangle, 3 vertices, world frame)"),
        "{out}"
    );
    let (_, out, _) = bvtool(&[
        "distance", TORUS, TORUS, "--pose", "2.8,0,0", "--pose", "3,0,0",
    ]);
    assert!(out.contains("total: 2 poses, "), "{out}");
}

#[test]
fn collide_and_distance_print_a_pose_alike_and_parry3d_only_when_asked() {
    let pose = "0.5,0.25,0,10,20,30";
    let row = |cmd: &str, extra: &[&str]| -> (String, String) {
        let mut args = vec![cmd, TORUS, TORUS, "--pose", pose];
        args.extend(extra);
        let (code, out, err) = bvtool(&args);
        assert!(code == 0 || code == 1, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("pose "))
            .expect(&out);
        (lines[at].to_string(), lines[at + 1].to_string())
    };
    let (collide_head, collide_row) = row("collide", &[]);
    let (_, distance_row) = row("distance", &[]);
    // The first three cells (index, translation, rotation) are the same text.
    let cells = |r: &str| -> Vec<String> {
        r.split("  ")
            .filter(|c| !c.is_empty())
            .take(3)
            .map(|c| c.trim().to_string())
            .collect()
    };
    assert_eq!(cells(&collide_row), cells(&distance_row));
    assert_eq!(cells(&collide_row)[1], "0.5, 0.25, 0");
    assert!(!collide_head.contains("parry3d"), "{collide_head}");
    let (checked_head, _) = row("collide", &["--check"]);
    assert!(checked_head.contains("parry3d"), "{checked_head}");
}

#[test]
fn pose_errors_at_the_root_name_no_pointer() {
    let input = "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,2]]";
    let (code, _, err) = bvtool_in(&["collide", TORUS, TORUS, "--pose", "-"], input);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("bvtool: standard input: pose 1 (line 1): pose matrix"),
        "{err}"
    );
}

/// With a clearance and `--first-contact`, a pose whose query stopped at
/// its first pair within the clearance is undecided, not apart; the totals
/// say so and count the poses within the clearance, against brute force.
#[test]
fn clearance_totals_count_within_and_undecided() {
    let torus = load(Path::new(TORUS), &LoadOptions::default())
        .unwrap()
        .flatten();
    let d = 0.05;
    let specs = [
        "0.5,0,0", "2.72,0,0", "2.8,0,0", "3,0,0", "0,0,0", "2.65,0,0",
    ];
    let mut args = vec![
        "collide",
        TORUS,
        TORUS,
        "--clearance",
        "0.05",
        "--first-contact",
    ];
    for s in &specs {
        args.extend(["--pose", s]);
    }
    let (code, out, err) = bvtool(&args);
    assert!(code == 0 || code == 1, "{err}");
    let within = specs
        .iter()
        .filter(|s| {
            bvtool::query::brute_force_distance(&torus, &torus, &Pose::parse_inline(s).unwrap())
                .unwrap()
                .distance
                <= d
        })
        .count();
    let touching = specs
        .iter()
        .filter(|s| !brute_force(&torus, &torus, &Pose::parse_inline(s).unwrap()).is_empty())
        .count();
    let doc = json(&[&args[..], &["--json"]].concat());
    let poses = doc["poses"].as_array().unwrap();
    let answered = |want: Option<bool>| {
        poses
            .iter()
            .filter(|p| p["intersecting"].as_bool() == want)
            .count()
    };
    let (yes, no, undecided) = (answered(Some(true)), answered(Some(false)), answered(None));
    assert_eq!(yes + no + undecided, specs.len());
    assert!(
        yes <= touching && touching <= yes + undecided,
        "{yes} {undecided} {touching}"
    );
    assert!(
        undecided > 0,
        "the deep pose stops at its first pair within the clearance"
    );
    let line = out.lines().last().unwrap();
    assert!(
        line.starts_with(&format!(
            "total: 6 poses, {yes} touching, {no} apart, {undecided} undecided"
        )),
        "{line}"
    );
    assert!(line.contains(&format!(", {within} within 0.05")), "{line}");
}

#[test]
fn pair_lists_come_before_the_totals_line() {
    let (_, out, _) = bvtool(&[
        "collide",
        TORUS,
        TORUS,
        "--pose",
        "0.5,0,0",
        "--pose",
        "3,0,0",
        "--all-pairs",
    ]);
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("total: 2 poses"), "{out}");
    assert!(out.contains("  pose 0: A "), "{out}");
}

/// `collide A A` (the same file by real path, even spelled otherwise)
/// builds one tree and shares it; the answers equal those of A against a
/// copy of A, which builds two.
#[test]
fn the_same_file_twice_builds_one_tree() {
    let dir = scratch("same-file");
    let copy = dir.join("copy.obj");
    std::fs::copy(TORUS, &copy).unwrap();
    let link = dir.join("link.obj");
    std::os::unix::fs::symlink(TORUS, &link).unwrap();
    let poses = [
        "--pose",
        "0.5,0,0,10,20,30",
        "--pose",
        "2.7,0,0",
        "--pose",
        "3,0,0",
    ];
    for cmd in ["collide", "distance"] {
        let run = |b: &str| json(&[&[cmd, TORUS, b, "--json"][..], &poses[..]].concat());
        let shared = run(link.to_str().unwrap());
        let built = run(copy.to_str().unwrap());
        assert_eq!(shared["build_ms"]["b_shares_a"], true, "{cmd}");
        assert_eq!(shared["build_ms"]["b"], 0.0);
        assert!(built["build_ms"].get("b_shares_a").is_none(), "{cmd}");
        for (s, b) in shared["poses"]
            .as_array()
            .unwrap()
            .iter()
            .zip(built["poses"].as_array().unwrap())
        {
            for key in [
                "intersecting",
                "pair_count",
                "distance",
                "point_a",
                "point_b",
                "triangles",
            ] {
                assert_eq!(s.get(key), b.get(key), "{cmd} {key}");
            }
        }
    }
    let (_, out, _) = bvtool(&["collide", TORUS, TORUS, "--pose", "3,0,0"]);
    assert!(
        out.contains("(2304 triangles, the same file: A's tree)"),
        "{out}"
    );
}

/// `verify --distance`: a peer that is wrong on every pose, where brute
/// force (exact) agrees with bvtool on every pose, is named as the
/// dissenter and does not fail the run; the verdict says who settles it.
#[test]
fn a_dissenting_peer_is_named_and_brute_force_settles_it() {
    let dir = scratch("dissent");
    let obj = dir.join("box.obj");
    std::fs::write(&obj, box_obj([1.0, 0.5, 0.25], 0.0)).unwrap();
    let peers = dir.join("peers.jsonl");
    let rows: String = (0..12)
        .map(|i| format!("{{\"pose\": {i}, \"engine\": \"fcl\", \"distance\": 123.0}}\n"))
        .collect();
    std::fs::write(&peers, rows).unwrap();
    let o = obj.to_str().unwrap();
    let args = ["verify", o, o, "--distance", "--poses", "12", "--seed", "3"];
    let (code, out, err) = bvtool(&[&args[..], &["--peers", peers.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{out}{err}");
    let verdict = out
        .lines()
        .find(|l| l.starts_with("verdict: "))
        .expect(&out);
    assert!(
        verdict
            .starts_with("verdict: passed: fcl dissents on 12 poses; brute force (exact) agrees"),
        "{verdict}"
    );
    let (code, out, _) = bvtool(&args);
    assert_eq!(code, 0);
    assert!(
        out.contains("verdict: every reference agrees with bvtool on every pose"),
        "{out}"
    );
}

/// `distance --check`: brute force is the referee. Where it ran, its
/// answer decides; parry3d decides only where brute force did not run.
#[test]
fn distance_checks_are_settled_by_brute_force() {
    use bvtool::check::distance::DistanceCheck;
    let check = |brute: Option<bool>, parry: bool| DistanceCheck {
        brute_force: brute.map(|_| 1.0),
        brute_force_agrees: brute,
        parry: Some(1.0),
        parry_tolerance: 1e-6,
        parry_agrees: parry,
    };
    assert!(
        check(Some(true), false).ok(),
        "parry3d's dissent is its own error"
    );
    assert!(!check(Some(false), true).ok());
    assert!(check(None, true).ok());
    assert!(!check(None, false).ok(), "unsettled");
    let (code, out, _) = bvtool(&["distance", TORUS, TORUS, "--pose", "2.8,0,0", "--check"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("check: brute force (exact) disagrees on 0 of 1 pose, parry3d disagrees on 0 of 1 pose; all agree"),
        "{out}"
    );
}

/// `fit --obb pca` keeps the axis-aligned box when the covariance frame's
/// box is larger, and says so (`axis_aligned`, "(axis-aligned)") instead
/// of labelling the AABB `pca` silently.
#[test]
fn a_pca_box_that_is_the_aabb_says_so() {
    let dir = scratch("pca-aabb");
    // A unit cube plus thin triangles along its diagonal: the vertex
    // covariance points along (1, 1, 1), whose box is larger than the cube.
    let mut obj = box_obj([0.5, 0.5, 0.5], 0.0);
    let mut f = String::new();
    for k in 0..40 {
        let t = -0.45 + 0.9 * k as f64 / 39.0;
        obj += &format!(
            "v {t} {t} {t}\nv {} {t} {t}\nv {t} {} {t}\n",
            t + 1e-3,
            t + 1e-3
        );
        f += &format!("f {} {} {}\n", 9 + 3 * k, 10 + 3 * k, 11 + 3 * k);
    }
    let cube = dir.join("cube.obj");
    std::fs::write(&cube, obj + &f).unwrap();
    let turned = dir.join("turned.obj");
    std::fs::write(&turned, box_obj([1.0, 0.5, 0.25], 30.0)).unwrap();
    for (path, aligned) in [(&cube, true), (&turned, false)] {
        let p = path.to_str().unwrap();
        let doc = json(&["fit", p, "--obb", "pca", "--json"]);
        let v = &doc["files"][0];
        let obb = &v["obb"];
        assert_eq!(obb["method"], "pca");
        assert_eq!(obb["axis_aligned"], aligned, "{p}");
        let identity = serde_json::json!([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
        assert_eq!(obb["axes"] == identity, aligned, "{p}");
        let aabb = v["aabb"]["volume"].as_f64().unwrap();
        let vol = obb["volume"].as_f64().unwrap();
        assert_eq!(
            aligned,
            (vol - aabb).abs() <= 1e-9 * aabb,
            "{p}: {vol} vs {aabb}"
        );
        let (_, out, _) = bvtool(&["fit", p, "--obb", "pca"]);
        assert_eq!(out.contains("pca (axis-aligned)"), aligned, "{out}");
    }
}

/// Ctrl-C ends a command within half a second with exit code 130, even
/// while it waits: here `collide` reads poses from a standard input that
/// never ends.
#[test]
fn ctrl_c_ends_a_command_at_once_with_130() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bvtool"))
        .args(["collide", TORUS, TORUS, "--pose", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"{\"translation\": [0.5, 0, 0]}\n")
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let sent = std::time::Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    let took = sent.elapsed();
    drop(stdin);
    assert_eq!(status.code(), Some(130), "{status:?}");
    assert!(took.as_secs_f64() < 0.5, "{took:?}");
}

/// `clash --render` and `clash --self --render` pictures carry a title
/// (the files and what was found): dark text in the top band, where the
/// scene (fitted with a margin) never reaches.
#[test]
fn clash_pictures_have_a_title() {
    let dir = scratch("clash-title");
    for (name, args) in [
        ("parts", vec!["clash", CHAIN, TORUS]),
        ("self", vec!["clash", "--self", TORUS]),
    ] {
        let png = dir.join(format!("{name}.png"));
        let mut a = args.clone();
        a.extend(["--size", "800x600", "--render", png.to_str().unwrap()]);
        let (code, _, err) = bvtool(&a);
        assert_eq!(code, 0, "{err}");
        let img = image::open(&png).unwrap().to_rgb8();
        let dark = img
            .enumerate_pixels()
            .filter(|(x, y, p)| *y < 14 && *x < 400 && p.0.iter().all(|&c| c < 90))
            .count();
        assert!(dark > 100, "{name}: no title text ({dark} dark pixels)");
    }
}

/// `distance --render`: the closest triangles are drawn again as outlines
/// on top (the first volume colour, red) besides the closest-points
/// segment (the second, blue), so the iso view, where the meshes hide the
/// shaded highlight, still shows them.
#[test]
fn distance_picture_shows_the_closest_triangles_through_the_meshes() {
    let dir = scratch("distance-through");
    let png = dir.join("d.png");
    let (code, _, err) = bvtool(&[
        "distance",
        TORUS,
        TORUS,
        "--pose",
        "-2.8,0,0",
        "--size",
        "800x600",
        "--render",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let img = image::open(&png).unwrap().to_rgb8();
    // Above the legend row and right of the triad.
    let drawn = |c: [u8; 3]| {
        img.enumerate_pixels()
            .filter(|(x, y, p)| {
                *x > 80
                    && *y < 600 - 40
                    && (0..3).all(|k| (p.0[k] as i32 - c[k] as i32).abs() <= 30)
            })
            .count()
    };
    assert!(
        drawn([214, 39, 40]) > 10,
        "no outlines of the closest triangles"
    );
    assert!(drawn([31, 119, 180]) > 10, "no closest-points segment");
}

/// `--json` is one compact line when stdout is a pipe (or with
/// `--compact`), indented in a terminal (`script` gives the command one).
#[test]
fn json_is_compact_in_a_pipe_and_pretty_in_a_terminal() {
    let (code, piped, _) = bvtool(&["info", TORUS, "--json"]);
    assert_eq!(code, 0);
    assert_eq!(piped.lines().count(), 1, "{piped}");
    let doc: Value = serde_json::from_str(&piped).unwrap();
    assert_eq!(doc["files"][0]["triangles"], 2304);
    if Command::new("script").arg("--version").output().is_err() {
        return;
    }
    let exe = env!("CARGO_BIN_EXE_bvtool");
    let in_terminal = |extra: &str| {
        let cmd = format!("{exe} info {TORUS} --json {extra}");
        let out = Command::new("script")
            .args(["-qc", &cmd, "/dev/null"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n")
    };
    let pretty = in_terminal("");
    assert!(pretty.lines().count() > 5, "{pretty}");
    let compact = in_terminal("--compact");
    assert_eq!(compact.trim_end().lines().count(), 1, "{compact}");
    let a: Value = serde_json::from_str(pretty.trim()).unwrap();
    let b: Value = serde_json::from_str(compact.trim()).unwrap();
    assert_eq!(a, b);
}
