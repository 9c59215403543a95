//! One build of the dependencies for the release tests and the Python
//! extension: `.ci/run` builds both, and every crate the two builds share
//! must be resolved with the same features, or it is compiled twice (about
//! 45 crates, minutes on a small machine). The extension's side is
//! python/Cargo.toml's `same-build-as-tests` feature, the tests' side the
//! feature-only dependencies of dev/Cargo.toml.

use std::collections::BTreeMap;
use std::process::Command;

/// Each package of a build (`cargo tree` of `args`) with its features.
fn features(args: &[&str]) -> BTreeMap<String, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--locked", "--offline", "--prefix", "none"])
        .args(["--format", "{p}|{f}"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .filter_map(|l| {
            let (package, features) = l.trim_end_matches(" (*)").split_once('|')?;
            Some((package.to_string(), features.to_string()))
        })
        .collect()
}

#[test]
fn the_tests_and_the_python_extension_share_their_dependency_builds() {
    let tests = features(&["-p", "bvtool", "-e", "normal,build,dev"]);
    let python = features(&[
        "-p",
        "bvtool-python",
        "-e",
        "normal,build",
        "--features",
        "pyo3/extension-module,same-build-as-tests",
    ]);
    let differ: Vec<String> = python
        .iter()
        .filter_map(|(package, f)| {
            let t = tests.get(package)?;
            (t != f).then(|| format!("{package}: tests [{t}], extension [{f}]"))
        })
        .collect();
    assert!(
        python.keys().filter(|p| tests.contains_key(*p)).count() > 50,
        "the two builds share their dependencies"
    );
    assert!(
        differ.is_empty(),
        "add these features to python/Cargo.toml's same-build-as-tests or \
         dev/Cargo.toml:\n{}",
        differ.join("\n")
    );
}
