//! Conformance of the loaders with the model corpus manifest
//! (`../shared/models/manifest.json`, or `$BVTOOL_MODELS`).
//!
//! Real-model suite: ignored by the plain `cargo test`, run by `.ci/run` in
//! release mode with `--ignored`.

use bvtool_dev as common;

use bvtool::load::{LoadOptions, load};

/// Every file the manifest gives a triangle count for loads with exactly
/// that many flattened triangles; every file it marks invalid is refused
/// with an error that names the file.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn manifest_triangle_counts_and_refusals() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let mut failures = Vec::new();
    let (mut loaded, mut refused) = (0, 0);
    for e in common::manifest(&dir) {
        let path = dir.join(&e.path);
        let result = load(&path, &LoadOptions::default());
        match (e.must_fail(), result) {
            (true, Ok(s)) => failures.push(format!(
                "{}: should be refused ({}), loaded {} triangles",
                e.path,
                e.intent.as_deref().unwrap_or(""),
                s.triangle_count()
            )),
            (true, Err(err)) => {
                let msg = err.to_string();
                if !msg.contains(path.file_name().unwrap().to_str().unwrap()) || msg.contains('\n')
                {
                    failures.push(format!(
                        "{}: error is not one line naming the file: {msg}",
                        e.path
                    ));
                }
                refused += 1;
            }
            (false, Err(err)) => failures.push(format!("{}: failed to load: {err}", e.path)),
            (false, Ok(s)) => {
                loaded += 1;
                if let Some(n) = e.triangles
                    && s.triangle_count() as u64 != n
                {
                    failures.push(format!(
                        "{}: {} triangles, manifest says {n}",
                        e.path,
                        s.triangle_count()
                    ));
                }
            }
        }
    }
    eprintln!(
        "loaded {loaded}, refused {refused}, problems {}",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
