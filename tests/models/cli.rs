//! The built binary over every model file of the corpus: no run may panic,
//! and every run ends with exit code 0 (loaded) or 1 (refused with a
//! one-line error naming the file).
//!
//! Real-model suite: run by `.ci/run` in release mode with `--ignored`.

use bvtool_dev as common;

use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn model_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            model_files(&p, out);
        } else if p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            ["gltf", "glb", "obj", "stl"].contains(&e.to_ascii_lowercase().as_str())
        }) {
            out.push(p);
        }
    }
}

fn run(args: &[&str], file: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bvtool"))
        .args(args)
        .arg(file)
        .output()
        .expect("run bvtool");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn binary_never_panics_on_the_corpus() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let mut files = Vec::new();
    model_files(&dir, &mut files);
    assert!(
        files.len() > 200,
        "expected the whole corpus, found {} files",
        files.len()
    );
    let problems: Vec<String> = files
        .par_iter()
        .flat_map(|f| {
            let mut bad = Vec::new();
            for args in [&["info", "--json"][..], &["fit", "--json"][..]] {
                let (code, stderr) = run(args, f);
                let name = f.file_name().unwrap().to_string_lossy().into_owned();
                // `fit` refuses a file without triangles (exit 1), like bad input.
                let ok = match code {
                    Some(0) => true,
                    Some(1) => stderr.lines().count() == 1 && stderr.contains(&name),
                    _ => false,
                };
                if !ok || stderr.contains("panicked") {
                    bad.push(format!(
                        "{} {:?}: exit {:?}: {}",
                        f.display(),
                        args,
                        code,
                        stderr.trim()
                    ));
                }
            }
            bad
        })
        .collect();
    eprintln!("ran the binary on {} files", files.len());
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
