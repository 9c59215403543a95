//! Coincident geometry (issue 34, class 3): many instances of one mesh at
//! one spot, and many copies of one triangle. Each answer is checked
//! against its combinatorial count, each limit against its message, and
//! each run's memory against a stated bound (`RLIMIT_DATA`, [`run_ok`]).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A folder of its own for one test.
fn temp_dir(test: &str) -> PathBuf {
    bvtool_dev::scratch!(format!("stacks-{test}"))
}

/// A glTF of one tetrahedron (4 triangles) placed `count` times by an
/// `EXT_mesh_gpu_instancing` TRANSLATION accessor without a bufferView
/// (all zeros: every instance at the origin). About 800 bytes.
fn instanced_tetrahedra(dir: &Path, count: usize) -> PathBuf {
    use base64::Engine;
    let mut bytes = Vec::new();
    for c in [0f32, 0., 0., 1., 0., 0., 0., 1., 0., 0., 0., 1.] {
        bytes.extend_from_slice(&c.to_le_bytes());
    }
    for i in [0u16, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3] {
        bytes.extend_from_slice(&i.to_le_bytes());
    }
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    );
    let doc = serde_json::json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["EXT_mesh_gpu_instancing"],
        "buffers": [{"byteLength": bytes.len(), "uri": uri}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 48},
            {"buffer": 0, "byteOffset": 48, "byteLength": 24}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
             "min": [0, 0, 0], "max": [1, 1, 1]},
            {"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"},
            {"componentType": 5126, "count": count, "type": "VEC3"}
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "nodes": [{"mesh": 0, "extensions": {"EXT_mesh_gpu_instancing":
            {"attributes": {"TRANSLATION": 2}}}}],
        "scenes": [{"nodes": [0]}],
        "scene": 0
    });
    let path = dir.join(format!("tetra_x{count}.gltf"));
    std::fs::write(&path, doc.to_string()).unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() < 1000);
    path
}

/// An OBJ of `count` copies of the triangle (0,0,0), (1,0,0), (0,1,0).
fn stacked_triangles(dir: &Path, count: usize) -> PathBuf {
    let path = dir.join(format!("stack{count}.obj"));
    let text = format!("v 0 0 0\nv 1 0 0\nv 0 1 0\n{}", "f 1 2 3\n".repeat(count));
    std::fs::write(&path, text).unwrap();
    path
}

/// What one run of the binary did.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary with `args` under a data limit of `max_mib` MiB
/// (`RLIMIT_DATA`: the heap, thread stacks and other private writable
/// memory the run maps after `exec`, so the test process's own memory does
/// not count, as it does in a child's `ru_maxrss`). A run that needs more
/// fails to allocate and aborts, or says so and exits 1: its exit code
/// is checked against `code`. The time is bounded too (10 s, far above
/// the second or less a run takes, far below the quadratic runs' 15–25 s).
fn run_ok(args: &[&str], code: i32, max_mib: u64) -> Run {
    use std::os::unix::process::CommandExt;
    let t = Instant::now();
    let limit = max_mib << 20;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bvtool"));
    cmd.args(args);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between
    // fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let rl = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_DATA, &rl) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.stdin(Stdio::null()).output().unwrap();
    let r = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    };
    assert_eq!(r.code, code, "{args:?} under {max_mib} MiB: {}", r.stderr);
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "{args:?}: {:?}",
        t.elapsed()
    );
    r
}

fn json(r: &Run) -> Value {
    serde_json::from_str(&r.stdout).unwrap()
}

/// The one line of a refusal, naming `file` and the limit.
fn limit_line(r: &Run, file: &Path, what: &str) {
    let line = r.stderr.trim_end();
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(line.contains(&*file.display().to_string()), "{line}");
    assert!(
        line.contains(what) && line.contains("--max-pairs"),
        "{line}"
    );
}

/// 65,536 tetrahedra at one spot (262,144 triangles, 4 distinct): collide
/// counts 262,144² meeting pairs without listing them, refuses to list
/// them past --max-pairs, and distance answers at once, touching or 2
/// apart.
#[test]
fn instances_at_one_spot_collide_and_distance() {
    let dir = temp_dir("instances");
    let f = instanced_tetrahedra(&dir, 65_536);
    let fs = f.to_str().unwrap();
    let n = 4 * 65_536u64;
    let r = run_ok(&["collide", fs, fs, "--pose", "0,0,0", "--json"], 0, 384);
    let pose = &json(&r)["poses"][0];
    assert_eq!(pose["intersecting"], true);
    assert_eq!(pose["pair_count"], n * n);
    let r = run_ok(
        &["collide", fs, fs, "--pose", "0,0,0", "--all-pairs"],
        1,
        384,
    );
    limit_line(&r, &f, "more than 1000000 triangle pairs to list");
    let r = run_ok(&["distance", fs, fs, "--pose", "0,0,0", "--json"], 0, 384);
    let pose = &json(&r)["poses"][0];
    assert_eq!(
        (pose["intersecting"].clone(), pose["distance"].clone()),
        (true.into(), 0.0.into())
    );
    // B's tetrahedron spans x in [3, 4]: the nearest points are A's corner
    // (1, 0, 0) and B's (3, 0, 0).
    let r = run_ok(&["distance", fs, fs, "--pose", "3,0,0", "--json"], 0, 384);
    let d = json(&r)["poses"][0]["distance"].as_f64().unwrap();
    assert!((d - 2.0).abs() < 1e-12, "{d}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same scene to `clash`: every pair of the 65,536 instances clashes
/// (2.1e9 pairs), so the command stops at --max-pairs with one line, in
/// bounded memory; by node (one part) it finds nothing at once (it swept
/// the 2.1e9 pairs for 25 s and more); `--self --whole` (every triangle meets its 65,535
/// copies) stops the same way; 100 instances give all C(100, 2) pairs.
#[test]
fn instances_at_one_spot_clash() {
    let dir = temp_dir("clash");
    let f = instanced_tetrahedra(&dir, 65_536);
    let fs = f.to_str().unwrap();
    let r = run_ok(&["clash", fs], 1, 384);
    limit_line(&r, &f, "pairs of placed primitives have overlapping boxes");
    // One part (the node with all its instances): no pair to test, and
    // the sweep passes the part's boxes over a run at a time.
    let r = run_ok(&["clash", fs, "--by", "node", "--json"], 0, 384);
    assert_eq!(json(&r)["clashes"], serde_json::json!([]));
    let r = run_ok(&["clash", "--self", "--whole", fs], 1, 384);
    limit_line(&r, &f, "self-intersecting triangle pairs");
    let small = instanced_tetrahedra(&dir, 100);
    let ss = small.to_str().unwrap();
    let r = run_ok(&["clash", ss, "--json"], 0, 128);
    let clashes = json(&r)["clashes"].as_array().unwrap().len();
    assert_eq!(clashes, 100 * 99 / 2);
    let r = run_ok(&["clash", ss, "--max-pairs", "4949"], 1, 128);
    limit_line(&r, &small, "more than 4949 pairs");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// 10⁴ and 3·10⁴ copies of one triangle: collide at the identity and
/// `clash` of two such files count n² pairs in memory that does not grow
/// with them, distance answers 0 touching and 1 one unit apart, `clash
/// --self` and the pair lists stop at --max-pairs; a
/// stack of 300 lists all 300² pairs, distinct (two poses of them only as
/// a stream: a document holds every pose's), and counts C(300, 2)
/// self-intersections.
#[test]
fn stacked_copies_of_one_triangle() {
    let dir = temp_dir("copies");
    for n in [10_000u64, 30_000] {
        let f = stacked_triangles(&dir, n as usize);
        let fs = f.to_str().unwrap();
        let r = run_ok(&["collide", fs, fs, "--pose", "0,0,0", "--json"], 0, 128);
        assert_eq!(json(&r)["poses"][0]["pair_count"], n * n);
        let r = run_ok(
            &["collide", fs, fs, "--pose", "0,0,0", "--all-pairs"],
            1,
            128,
        );
        limit_line(&r, &f, "triangle pairs to list");
        let r = run_ok(&["distance", fs, fs, "--pose", "0,0,0", "--json"], 0, 128);
        assert_eq!(json(&r)["poses"][0]["distance"], 0.0);
        let r = run_ok(&["distance", fs, fs, "--pose", "0,0,1", "--json"], 0, 128);
        let d = json(&r)["poses"][0]["distance"].as_f64().unwrap();
        assert!((d - 1.0).abs() < 1e-12, "{d}");
        let r = run_ok(&["clash", "--self", fs], 1, 128);
        limit_line(&r, &f, "self-intersecting triangle pairs");
        // Two files of copies: one part pair, n² touching triangle pairs.
        let r = run_ok(&["clash", fs, fs, "--json"], 0, 128);
        let clash = &json(&r)["clashes"][0];
        assert_eq!(
            (clash["kind"].as_str(), clash["triangle_pairs"].as_u64()),
            (Some("touching"), Some(n * n))
        );
        let r = run_ok(&["clash", fs, fs, "--all-pairs"], 1, 128);
        limit_line(&r, &f, "triangle pairs to list");
    }
    let f = stacked_triangles(&dir, 300);
    let fs = f.to_str().unwrap();
    let args = [
        "collide",
        fs,
        fs,
        "--pose",
        "0,0,0",
        "--all-pairs",
        "--json",
    ];
    let r = run_ok(&[&args[..], &["--max-pairs", "90000"]].concat(), 0, 128);
    let pose = &json(&r)["poses"][0];
    assert_eq!(pose["pair_count"], 90_000);
    let mut pairs: Vec<(u64, u64)> = pose["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let t = |s: &Value| s["triangle"].as_u64().unwrap();
            (t(&p["a"]), t(&p["b"]))
        })
        .collect();
    pairs.dedup();
    assert_eq!(pairs.len(), 90_000);
    assert!(pairs.iter().all(|&(a, b)| a < 300 && b < 300));
    let r = run_ok(&[&args[..], &["--max-pairs", "89999"]].concat(), 1, 128);
    limit_line(&r, &f, "more than 89999 triangle pairs");
    // Two poses of 90,000 pairs each: a document holds both, past
    // --max-pairs 90000; a stream holds one pose at a time.
    let twice = [&args[..], &["--pose", "0,0,0", "--max-pairs", "90000"]].concat();
    let r = run_ok(&twice, 1, 128);
    limit_line(&r, &f, "listed over the poses");
    let mut stream = twice.clone();
    stream.retain(|a| *a != "--json");
    stream.push("--jsonl");
    let r = run_ok(&stream, 0, 128);
    let lines: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for pose in &lines[..2] {
        assert_eq!(pose["pairs"].as_array().unwrap().len(), 90_000);
    }
    let r = run_ok(&["clash", "--self", fs, "--json"], 0, 128);
    assert_eq!(
        json(&r)["files"][0]["meshes"][0]["pair_count"],
        300 * 299 / 2
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
