//! Times reading a model and building its tree in one process, best of
//! several runs, on rayon's pool as the command line runs them (its size
//! from `RAYON_NUM_THREADS`):
//!
//! ```text
//! RAYON_NUM_THREADS=2 cargo run --release -p bvtool-dev --bin load_build -- FILE [RUNS]
//! ```
//!
//! Prints one line of JSON: the file's bytes, its triangles once flattened,
//! and the best of `RUNS` (default 5) times, in milliseconds, of parsing its
//! bytes already in memory (`load_bytes`: the reader and the load checks,
//! not the disk), of flattening the scene to one mesh, and of building the
//! OBB tree (`ObbTree::build`); `load_mb_s` is the file's megabytes (10^6
//! bytes) over the best parse time. `benches/load_scaling.sh` runs it on
//! 1 and 2 threads.

use bvtool::load::{LoadOptions, TriangleLimit, load_bytes, read_input};
use bvtool::threads::on_pool;
use bvtool::tree::ObbTree;
use std::path::PathBuf;
use std::time::Instant;

/// The best time in milliseconds of `runs` calls of `f`, and its last result.
fn best<R>(runs: usize, mut f: impl FnMut() -> R) -> (f64, R) {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        last = Some(r);
    }
    (best, last.expect("at least one run"))
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(args.next().ok_or("usage: load_build FILE [RUNS]")?);
    let runs: usize = match args.next() {
        Some(n) => n.parse().map_err(|_| format!("not a run count: {n}"))?,
        None => 5,
    }
    .max(1);
    let bytes = read_input(&path).map_err(|e| e.to_string())?;
    let opts = LoadOptions {
        max_triangles: TriangleLimit::Unlimited,
        ..LoadOptions::default()
    };
    let (load_ms, scene) = on_pool(|| best(runs, || load_bytes(&path, &bytes, &opts)));
    let scene = scene.map_err(|e| e.to_string())?;
    let (flatten_ms, mesh) = on_pool(|| best(runs, || scene.flatten()));
    let (build_ms, tree) = on_pool(|| best(runs, || ObbTree::build(&mesh)));
    println!(
        "{{\"file\":{:?},\"threads\":{},\"bytes\":{},\"triangles\":{},\"load_ms\":{load_ms:.2},\"load_mb_s\":{:.1},\"flatten_ms\":{flatten_ms:.2},\"build_ms\":{build_ms:.2},\"nodes\":{}}}",
        path.display().to_string(),
        rayon::current_num_threads(),
        bytes.len(),
        mesh.triangles.len(),
        bytes.len() as f64 / 1e3 / load_ms,
        tree.nodes.len()
    );
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("load_build: {e}");
        std::process::exit(1);
    }
}
