//! `--jsonl`: answers written as JSON Lines while they are computed —
//! every line parses, agrees with `--json` and with the library's exact
//! queries, the summary line counts them, lines come out before the input
//! ends, the child's peak memory does not grow with the pose count, and
//! Ctrl-C still ends a stream with 130.

use bvtool::Pose;
use bvtool::load::load;
use bvtool::query::{ContactMode, brute_force_distance, collide};
use bvtool::tree::ObbTree;
use nalgebra::{Quaternion, UnitQuaternion, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

const TORUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/torus.obj");
const CHAIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/chain.gltf");

/// `n` random poses of B about the torus (R = 1, r = 0.35), about half of
/// them touching, one JSON object a line, written in full precision.
fn pose_lines(n: usize, seed: u64) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let t: [f64; 3] = std::array::from_fn(|_| rng.random_range(-2.5..2.5));
            let q = UnitQuaternion::from_euler_angles(
                rng.random_range(-3.1..3.1),
                rng.random_range(-1.5..1.5),
                rng.random_range(-3.1..3.1),
            );
            let q = q.quaternion();
            format!(
                "{{\"translation\":[{:?},{:?},{:?}],\"rotation\":[{:?},{:?},{:?},{:?}]}}",
                t[0], t[1], t[2], q.i, q.j, q.k, q.w
            )
        })
        .collect()
}

/// The pose a line echoes.
fn pose_of(line: &Value) -> Pose {
    let v = |k: &str| -> Vec<f64> {
        line["pose"][k]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let (t, q) = (v("translation"), v("rotation"));
    let rotation = UnitQuaternion::from_quaternion(Quaternion::new(q[3], q[0], q[1], q[2]));
    Pose::new(Vector3::new(t[0], t[1], t[2]), rotation)
}

/// A finished run: exit code, the lines kept (parsed), the bytes of
/// stdout, and the child's peak resident memory in KiB when it was held.
struct Streamed {
    code: i32,
    lines: Vec<Value>,
    bytes: usize,
    peak_kib: Option<u64>,
}

/// How a run with standard input held open ends, once its first `lines`
/// lines have come: the input closed (the summary follows) or Ctrl-C.
#[derive(Clone, Copy, PartialEq)]
enum Then {
    Close,
    Interrupt,
}

/// The child's peak resident memory (`VmHWM`), KiB.
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Runs bvtool with `args`, `input` on its standard input, and reads its
/// stdout line by line as it comes (each line must parse as JSON; lines
/// where `keep` says so are kept, and the summary). With `hold = Some((n,
/// then))` standard input stays open after `input` until `n` lines have
/// come — they are written before the input ends — when the child's peak
/// memory is read (its own, since it exec'd) and the input closed or
/// Ctrl-C sent.
fn stream(
    args: &[&str],
    input: Vec<u8>,
    hold: Option<(usize, Then)>,
    keep: impl Fn(usize) -> bool,
) -> Streamed {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bvtool"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let (close, closed) = std::sync::mpsc::channel::<()>();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
        let _ = stdin.flush();
        if hold.is_some() {
            let _ = closed.recv();
        }
    });
    let mut stderr = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let (mut lines, mut bytes, mut peak) = (Vec::new(), 0, None);
    for (i, line) in BufReader::new(child.stdout.take().unwrap())
        .lines()
        .enumerate()
    {
        let line = line.unwrap();
        bytes += line.len() + 1;
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("line {i}: {e}"));
        if keep(i) || v.get("summary").is_some() {
            lines.push(v);
        }
        if let Some((n, then)) = hold
            && i + 1 == n
        {
            peak = Some(peak_kib(pid));
            match then {
                Then::Close => drop(close.send(())),
                Then::Interrupt => assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGINT) }, 0),
            }
        }
    }
    drop(close);
    feeder.join().unwrap();
    let code = child.wait().unwrap().code().unwrap_or(-1);
    let err = err.join().unwrap();
    assert!(
        code == 0 || code == 130,
        "bvtool {args:?}: exit {code}: {err}"
    );
    Streamed {
        code,
        lines,
        bytes,
        peak_kib: peak,
    }
}

/// Every 997th pose of a stream is kept for the checks.
fn sampled(i: usize) -> bool {
    i.is_multiple_of(997)
}

/// 98,304 poses (24 chunks) on standard input, first contact (0.6 s on two
/// threads): every line written before the input ends, 98,305 compact
/// lines, each pose's record in order and equal to `--json`'s on a sample
/// (every field but the time), its answer equal to the library's exact
/// `collide`, the summary's totals counting the poses; the child's peak
/// memory after 98,304 poses within a quarter of the output's size of its
/// peak after 12,288 (holding the document would add more than the
/// output); and Ctrl-C, mid-stream, still ends it with 130 and no summary.
#[test]
fn collide_jsonl_streams_100k_poses_in_flat_memory() {
    const BIG: usize = 24 * 4096;
    const SMALL: usize = 3 * 4096;
    let input = pose_lines(BIG, 40);
    let args = [
        "collide",
        TORUS,
        TORUS,
        "--pose",
        "-",
        "--jsonl",
        "--first-contact",
    ];
    let small = stream(
        &args,
        (input[..SMALL].join("\n") + "\n").into_bytes(),
        Some((SMALL, Then::Interrupt)),
        |_| false,
    );
    assert_eq!(small.code, 130);
    assert!(small.lines.is_empty(), "no summary after Ctrl-C");
    let big = stream(
        &args,
        (input.join("\n") + "\n").into_bytes(),
        Some((BIG, Then::Close)),
        sampled,
    );
    assert_eq!(big.code, 0);
    let summary = &big.lines.last().unwrap()["summary"];
    let totals = &summary["totals"];
    assert_eq!(totals["poses"], BIG, "{summary}");
    let (touching, apart) = (
        totals["touching"].as_u64().unwrap(),
        totals["apart"].as_u64().unwrap(),
    );
    assert_eq!(touching + apart, BIG as u64, "{summary}");
    assert!(touching > 10_000 && apart > 10_000, "{summary}");
    assert_eq!(summary["mode"], "first");
    assert_eq!(summary["build_ms"]["b_shares_a"], true);

    // The sample against the library's exact query ...
    let mesh = load(TORUS.as_ref(), &Default::default()).unwrap().flatten();
    let tree = ObbTree::build_default(&mesh, Default::default());
    let records = &big.lines[..big.lines.len() - 1];
    assert_eq!(records.len(), BIG.div_ceil(997));
    for (k, r) in records.iter().enumerate() {
        assert_eq!(r["index"], k * 997, "{r}");
        let exact = collide(&tree, &tree, &pose_of(r), ContactMode::First);
        assert_eq!(r["intersecting"], exact.intersecting, "{r}");
    }
    // ... and against --json on the same pose text.
    let dir = bvtool_dev::scratch!("jsonl");
    let file = dir.join("sample.jsonl");
    let sample: Vec<&str> = (0..BIG)
        .filter(|&i| sampled(i))
        .map(|i| input[i].as_str())
        .collect();
    std::fs::write(&file, sample.join("\n")).unwrap();
    let (code, out, err) = bvtool_dev::bvtool!(&[
        "collide",
        TORUS,
        TORUS,
        "--pose",
        file.to_str().unwrap(),
        "--json",
        "--first-contact"
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    for (k, (line, whole)) in records
        .iter()
        .zip(doc["poses"].as_array().unwrap())
        .enumerate()
    {
        for key in [
            "pose",
            "intersecting",
            "pair_count",
            "box_tests",
            "triangle_tests",
        ] {
            assert_eq!(line[key], whole[key], "pose {k}: {key}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();

    // Memory: the output is some 28 MB; the peaks differ by far less.
    let (big_kib, small_kib) = (big.peak_kib.unwrap(), small.peak_kib.unwrap());
    assert!(
        big_kib.saturating_sub(small_kib) * 1024 < big.bytes as u64 / 4,
        "peak {big_kib} KiB after {BIG} poses, {small_kib} KiB after {SMALL}; output {} bytes",
        big.bytes
    );
}

/// `distance --jsonl` on 1,000 poses from a file: each record equals
/// `--json`'s (but the time), the summary's least distance and touching
/// count are those of the records, and a few poses' distances equal brute
/// force over every triangle pair within their rounding bound.
#[test]
fn distance_jsonl_agrees_with_json_and_brute_force() {
    let dir = bvtool_dev::scratch!("djsonl");
    let file = dir.join("poses.jsonl");
    std::fs::write(&file, pose_lines(1_000, 42).join("\n")).unwrap();
    let poses = file.to_str().unwrap();
    let lines = stream(
        &["distance", TORUS, TORUS, "--pose", poses, "--jsonl"],
        Vec::new(),
        None,
        |_| true,
    )
    .lines;
    let (code, out, err) =
        bvtool_dev::bvtool!(&["distance", TORUS, TORUS, "--pose", poses, "--json"]);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    let doc: Value = serde_json::from_str(&out).unwrap();
    let whole = doc["poses"].as_array().unwrap();
    assert_eq!(lines.len(), whole.len() + 1);
    let (mut least, mut touching) = (f64::INFINITY, 0);
    for (line, w) in lines.iter().zip(whole) {
        let (mut line, mut w) = (line.clone(), w.clone());
        line.as_object_mut().unwrap().remove("query_us");
        w.as_object_mut().unwrap().remove("query_us");
        assert_eq!(line, w);
        least = least.min(line["distance"].as_f64().unwrap());
        touching += usize::from(line["intersecting"] == true);
    }
    let totals = &lines.last().unwrap()["summary"]["totals"];
    assert_eq!(totals["poses"], 1_000);
    assert_eq!(totals["touching"], touching);
    assert_eq!(totals["least_distance"].as_f64(), Some(least));
    let mesh = load(TORUS.as_ref(), &Default::default()).unwrap().flatten();
    for line in lines.iter().step_by(250).take(4) {
        let exact = brute_force_distance(&mesh, &mesh, &pose_of(line)).unwrap();
        let (d, bound) = (
            line["distance"].as_f64().unwrap(),
            line["rounding_bound"].as_f64().unwrap(),
        );
        assert!((d - exact.distance).abs() <= bound, "{d} vs {exact:?}");
    }
}

/// A per-file command's `--jsonl`: one line per file in order — the same
/// entry as `--json`'s `files`, a failed file as `{"file", "error"}` —
/// then the summary; exit 1 when a file failed.
#[test]
fn per_file_jsonl_lines_match_json_entries() {
    for command in ["info", "tree", "fit"] {
        let args = |flag: &'static str| vec![command, TORUS, "missing.obj", CHAIN, flag];
        let (code, out, _) = bvtool_dev::bvtool!(&args("--jsonl"));
        assert_eq!(code, 1, "{command}");
        let lines: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let (_, whole, _) = bvtool_dev::bvtool!(&args("--json"));
        let whole: Value = serde_json::from_str(&whole).unwrap();
        let files = whole["files"].as_array().unwrap();
        assert_eq!(lines.len(), 4, "{command}: {out}");
        for (line, entry) in lines.iter().zip(files) {
            assert_eq!(untimed(line.clone()), untimed(entry.clone()), "{command}");
        }
        assert_eq!(lines[1]["file"], "missing.obj");
        assert!(lines[1]["error"].is_string(), "{command}");
        assert_eq!(lines[3]["summary"]["files"], 3, "{command}");
        assert_eq!(lines[3]["summary"]["failed"], 1, "{command}");
    }
}

/// `v` without its times (keys ending in `_ms` or `_us`), which differ
/// from run to run.
fn untimed(mut v: Value) -> Value {
    match &mut v {
        Value::Object(m) => {
            m.retain(|k, _| !k.ends_with("_ms") && !k.ends_with("_us"));
            for x in m.values_mut() {
                *x = untimed(x.take());
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| *x = untimed(x.take())),
        _ => {}
    }
    v
}

/// A file named twice in a batch (the same real path, spelled two ways) is
/// loaded and its tree built once: its second place says which file it is
/// the same as, in `--json`, `--jsonl` and the text.
#[test]
fn a_file_named_twice_is_worked_on_once() {
    let again = format!(
        "{}/../models/torus.obj",
        concat!(env!("CARGO_MANIFEST_DIR"), "/models")
    );
    for flag in ["--json", "--jsonl"] {
        let (code, out, err) = bvtool_dev::bvtool!(&["tree", TORUS, CHAIN, &again, flag]);
        assert_eq!(code, 0, "{err}");
        let entries: Vec<Value> = match flag {
            "--json" => serde_json::from_str::<Value>(&out).unwrap()["files"]
                .as_array()
                .unwrap()
                .clone(),
            _ => out
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect(),
        };
        assert!(entries[0]["build_ms"].as_f64().unwrap() > 0.0, "{out}");
        assert_eq!(entries[2]["file"], again.as_str());
        assert_eq!(entries[2]["same_as"], TORUS, "{out}");
        assert!(entries[2].get("build_ms").is_none(), "{out}");
    }
    let (_, text, _) = bvtool_dev::bvtool!(&["tree", TORUS, &again]);
    assert!(
        text.contains(&format!("{again}: the same file as {TORUS}")),
        "{text}"
    );
}

/// `points --jsonl` on 5,000 points (two chunks): a line per point in
/// order, its row equal to `--json`'s, a sample equal to brute force over
/// every triangle, then the summary with the count.
#[test]
fn points_jsonl_rows_match_json_and_brute_force() {
    let dir = bvtool_dev::scratch!("pjsonl");
    let mut rng = ChaCha8Rng::seed_from_u64(43);
    let pts: Vec<[f64; 3]> = (0..5_000)
        .map(|_| std::array::from_fn(|_| rng.random_range(-2.0..2.0)))
        .collect();
    let csv: Vec<String> = pts
        .iter()
        .map(|p| format!("{:?},{:?},{:?}", p[0], p[1], p[2]))
        .collect();
    let file = dir.join("pts.csv");
    std::fs::write(&file, csv.join("\n")).unwrap();
    let f = file.to_str().unwrap();
    let args = |flag| ["points", TORUS, f, "--query", "distance", flag];
    let (code, out, err) = bvtool_dev::bvtool!(&args("--jsonl"));
    assert_eq!(code, 0, "{err}");
    let (code, whole, err) = bvtool_dev::bvtool!(&args("--json"));
    assert_eq!(code, 0, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let rows = serde_json::from_str::<Value>(&whole).unwrap()["rows"].clone();
    assert_eq!(lines.len(), 5_001);
    let mesh = load(TORUS.as_ref(), &Default::default()).unwrap().flatten();
    let tris = bvtool_dev::oracle::triangles(&mesh);
    for (k, line) in lines[..5_000].iter().enumerate() {
        assert_eq!(line["index"], k);
        assert_eq!(line["row"], rows[k], "point {k}");
        if k % 250 == 0 {
            let p = nalgebra::Point3::from(pts[k]);
            let exact = bvtool_dev::oracle::brute_distance(&tris, &p);
            let d = line["row"].as_f64().unwrap();
            assert!(
                (d - exact).abs() <= 1e-12 * (1.0 + exact),
                "point {k}: {d} vs {exact}"
            );
        }
    }
    let summary = &lines[5_000]["summary"];
    assert_eq!(summary["rows"], 5_000);
    assert_eq!(summary["query"], "distance");
    assert!(summary["sign_method"].is_string(), "{summary}");
}
