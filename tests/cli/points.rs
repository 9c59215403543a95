//! `bvtool points`, `rays` and `sdf` as a user runs them: answers checked
//! against the library's own brute-force-tested queries and the solid's
//! definition (a unit cube written as OBJ), the .npz read back by a
//! reader written here, bad tables refused with one line naming the file.

use bvtool_dev::run;
use std::path::Path;

const EXE: &str = env!("CARGO_BIN_EXE_bvtool");

/// A cube [0, 1]³ as OBJ, outward.
fn cube(dir: &Path) -> String {
    let p = dir.join("cube.obj");
    let mut s = String::new();
    for k in 0..8 {
        s += &format!("v {} {} {}\n", k & 1, (k >> 1) & 1, (k >> 2) & 1);
    }
    for t in bvtool_dev::shapes::cube_triangles() {
        s += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    std::fs::write(&p, s).unwrap();
    p.display().to_string()
}

fn tmp(name: &str) -> std::path::PathBuf {
    bvtool_dev::scratch!(format!("cli-points-{name}"))
}

#[test]
fn signed_distances_and_contains_of_a_cube_from_csv_and_jsonl() {
    let d = tmp("signed");
    let model = cube(&d);
    let pts = [
        [0.5, 0.5, 0.5],
        [2.0, 0.5, 0.5],
        [-1.0, 1.0, 1.0],
        [0.25, 0.5, 0.75],
    ];
    let csv = d.join("p.csv");
    let body: String = pts
        .iter()
        .map(|p| format!("{},{},{}\n", p[0], p[1], p[2]))
        .collect();
    std::fs::write(&csv, format!("# x,y,z\n{body}")).unwrap();
    let jsonl = d.join("p.jsonl");
    std::fs::write(
        &jsonl,
        pts.iter()
            .map(|p| format!("[{},{},{}]\n", p[0], p[1], p[2]))
            .collect::<String>(),
    )
    .unwrap();
    for f in [&csv, &jsonl] {
        let (code, out, err) = run(
            EXE,
            &[
                "points",
                &model,
                f.to_str().unwrap(),
                "--query",
                "signed",
                "--json",
            ],
        );
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["sign_method"], "exact winding number");
        let rows: Vec<f64> = v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        // Inside: minus the distance to the nearest face; outside: the
        // distance to the box.
        let want = [-0.5, 1.0, 1.0, -0.25];
        for (g, w) in rows.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{rows:?}");
        }
        let (code, out, _) = run(
            EXE,
            &[
                "points",
                &model,
                f.to_str().unwrap(),
                "--query",
                "contains",
                "--json",
            ],
        );
        assert_eq!(code, 0);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["rows"], serde_json::json!([true, false, false, true]));
    }
}

#[test]
fn rays_hit_the_cube_through_its_edges_once() {
    let d = tmp("rays");
    let model = cube(&d);
    // Through the diagonal edge of the face x = 0 and a corner, and a miss.
    let rays = d.join("r.csv");
    std::fs::write(
        &rays,
        "-1,0.5,0.5,1,0,0\n-1,0,0,1,0,0\n-1,2,2,1,0,0\n0.5,0.5,0.5,0,0,1\n",
    )
    .unwrap();
    let (code, out, err) = run(
        EXE,
        &[
            "rays",
            &model,
            rays.to_str().unwrap(),
            "--mode",
            "count",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rows"], serde_json::json!([2, 2, 0, 1]));
    let (code, out, _) = run(EXE, &["rays", &model, rays.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rows"][0][0], 1.0);
    assert_eq!(v["rows"][2][1], -1.0);
    assert_eq!(v["rows"][3][0], 0.5);
}

#[test]
fn malformed_tables_are_one_line_naming_the_file() {
    let d = tmp("bad");
    let model = cube(&d);
    let cases = [
        ("a.csv", "1,2\n"),
        ("b.csv", "1,2,x\n"),
        ("c.jsonl", "[1,2,3]\n{\n"),
        ("d.npy", "\u{93}NUMPY garbage"),
        ("e.txt", "1,2,3\n"),
        ("f.csv", "1,2,NaN\n"),
    ];
    for (name, body) in cases {
        let f = d.join(name);
        std::fs::write(&f, body).unwrap();
        let (code, out, err) = run(EXE, &["points", &model, f.to_str().unwrap(), "--json"]);
        assert_eq!(code, 1, "{name}: {out}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(name), "{name}: {err}");
    }
}

/// Reads one stored `.npy` member of an uncompressed `.npz` as `f64`s.
fn npz_f64(bytes: &[u8], name: &str) -> Vec<f64> {
    let mut i = 0;
    while i + 30 <= bytes.len() && bytes[i..i + 4] == [0x50, 0x4b, 3, 4] {
        let u16at = |k: usize| u16::from_le_bytes([bytes[k], bytes[k + 1]]) as usize;
        let size = u32::from_le_bytes(bytes[i + 18..i + 22].try_into().unwrap()) as usize;
        let (nlen, xlen) = (u16at(i + 26), u16at(i + 28));
        let member = std::str::from_utf8(&bytes[i + 30..i + 30 + nlen]).unwrap();
        let data = &bytes[i + 30 + nlen + xlen..i + 30 + nlen + xlen + size];
        if member == format!("{name}.npy") {
            let h = u16::from_le_bytes([data[8], data[9]]) as usize;
            assert!(
                std::str::from_utf8(&data[10..10 + h])
                    .unwrap()
                    .contains("'<f8'")
            );
            return data[10 + h..]
                .chunks_exact(8)
                .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
                .collect();
        }
        i += 30 + nlen + xlen + size;
    }
    panic!("{name} not in the archive");
}

#[test]
fn sdf_samples_are_seeded_and_signed() {
    let d = tmp("sdf");
    let model = cube(&d);
    let out = |seed: &str, name: &str| {
        let o = d.join(name);
        let (code, _, err) = run(
            EXE,
            &[
                "sdf",
                &model,
                "-o",
                o.to_str().unwrap(),
                "--uniform",
                "2000",
                "--near",
                "2000",
                "--surface",
                "100",
                "--seed",
                seed,
                "--normalise",
                "none",
            ],
        );
        assert_eq!(code, 0, "{err}");
        std::fs::read(o).unwrap()
    };
    let (a, b, c) = (out("1", "a.npz"), out("1", "b.npz"), out("2", "c.npz"));
    assert_eq!(a, b);
    assert_ne!(a, c);
    let pts = npz_f64(&a, "points");
    let sdf = npz_f64(&a, "sdf");
    assert_eq!((pts.len(), sdf.len()), (4100 * 3, 4100));
    for (p, s) in pts.chunks(3).zip(&sdf) {
        let inside = p.iter().all(|&v| v > 0.0 && v < 1.0);
        let outside_gap = p
            .iter()
            .map(|&v| (-v).max(v - 1.0).max(0.0).powi(2))
            .sum::<f64>()
            .sqrt();
        let inside_gap = p
            .iter()
            .map(|&v| v.min(1.0 - v))
            .fold(f64::INFINITY, f64::min);
        let want = if inside { -inside_gap } else { outside_gap };
        assert!((s - want).abs() < 1e-12, "{p:?}: {s} vs {want}");
    }
}

/// A dataset folder: every model's samples at its path below the folder,
/// byte for byte what `sdf` writes for that model alone (same seed); a
/// bad file reported in its place with exit 1; two models that would write
/// one file refused before any work.
#[test]
fn sdf_over_a_folder_writes_one_npz_per_model_at_its_path() {
    let d = tmp("sdf-folder");
    let data = d.join("data");
    for sub in ["chairs/x", "chairs/y"] {
        std::fs::create_dir_all(data.join(sub)).unwrap();
    }
    let cube_obj = cube(&d);
    for m in ["chairs/x/model.obj", "chairs/y/model.obj"] {
        std::fs::copy(&cube_obj, data.join(m)).unwrap();
    }
    std::fs::write(data.join("chairs/bad.stl"), "solid nothing\n").unwrap();
    let sizes = ["--uniform", "300", "--near", "300", "--seed", "7"];
    let out = d.join("out");
    let mut args = vec!["sdf", data.to_str().unwrap(), "-o", out.to_str().unwrap()];
    args.extend(sizes);
    let (code, _, err) = run(EXE, &args);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.lines().any(|l| l.contains("bad.stl")) && err.contains("1 of 3 files failed"),
        "{err}"
    );
    let alone = d.join("alone.npz");
    let mut args = vec!["sdf", &cube_obj, "-o", alone.to_str().unwrap()];
    args.extend(sizes);
    let (code, _, err) = run(EXE, &args);
    assert_eq!(code, 0, "{err}");
    let alone = std::fs::read(alone).unwrap();
    assert_eq!(npz_f64(&alone, "sdf").len(), 600);
    for m in ["chairs/x/model.npz", "chairs/y/model.npz"] {
        assert_eq!(std::fs::read(out.join(m)).unwrap(), alone, "{m}");
    }
    // model.obj and model.stl in one folder would both write model.npz.
    std::fs::write(data.join("chairs/x/model.stl"), "").unwrap();
    let out2 = d.join("out2");
    let (code, _, err) = run(
        EXE,
        &["sdf", data.to_str().unwrap(), "-o", out2.to_str().unwrap()],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("would both write"), "{err}");
    assert!(!out2.exists());
    let _ = std::fs::remove_dir_all(&d);
}

/// Equal JSON, numbers within 1e-9 (relative above 1).
fn near(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| near(x, y))
        }
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0)
        }
        _ => a == b,
    }
}

/// `rays --instanced` on a glTF scene of two placed tori answers as the
/// flattened scene does, in every mode (the library's test checks the
/// instanced walk against brute force).
#[test]
fn instanced_rays_answer_as_the_flattened_scene() {
    let d = tmp("rays-instanced");
    let chain = concat!(env!("CARGO_MANIFEST_DIR"), "/models/chain.gltf");
    let rays = d.join("r.csv");
    let mut rows = String::new();
    for i in 0..200 {
        let a = i as f64 * 0.7;
        let (o, t) = (
            [4.0 * a.cos(), 4.0 * a.sin(), 2.0 * (a * 0.3).sin()],
            [0.3 * (a * 1.7).sin(), 0.5 * (a * 2.3).cos(), 0.0],
        );
        rows += &format!(
            "{},{},{},{},{},{}\n",
            o[0],
            o[1],
            o[2],
            t[0] - o[0],
            t[1] - o[1],
            t[2] - o[2]
        );
    }
    std::fs::write(&rays, rows).unwrap();
    for mode in ["first", "all", "count", "any"] {
        let answer = |extra: &[&str]| {
            let mut args = vec![
                "rays",
                chain,
                rays.to_str().unwrap(),
                "--mode",
                mode,
                "--json",
            ];
            args.extend(extra);
            let (code, out, err) = run(EXE, &args);
            assert_eq!(code, 0, "{err}");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["instanced"], !extra.is_empty());
            v["rows"].clone()
        };
        let (flat, instanced) = (answer(&[]), answer(&["--instanced"]));
        // The same triangles and counts; t, barycentric coordinates and
        // normals computed in another frame agree to rounding.
        assert!(near(&flat, &instanced), "{mode}: {flat} vs {instanced}");
        if mode == "count" {
            let hits: u64 = flat
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap())
                .sum();
            assert!(hits > 100, "{hits} hits");
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}
