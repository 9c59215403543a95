//! The layer order of `src/`, checked: every `crate::` path in the library's
//! code (comments, strings and `#[cfg(test)]` modules aside) points to a
//! module of a lower layer, and the files of one folder import each other
//! without a cycle. `docs/architecture.md` is the map this test keeps true.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may import only modules of a lower
/// layer; modules of one layer never import each other.
const LAYERS: &[&[&str]] = &[
    &["error", "threads", "memory"],
    &["files"],
    &["mesh"],
    &["pose"],
    &["load"],
    &["parry_convert"],
    &["fit"],
    &["tree"],
    &["query"],
    &["clash"],
    &["check"],
    &["world"],
    &["volumes", "batch", "robots"],
    &["export", "render"],
    &["report"],
];

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file under `src/` (`fit/obb/fast.rs` →
/// `["fit", "obb", "fast"]`; `fit/obb/mod.rs` → `["fit", "obb"]`).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The code of a file without comments, string and char literals, and
/// without what follows its first `#[cfg(test)]`.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    let b = text.as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'"' {
            // A string (raw strings in this crate hold no quote).
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The paths a file's code names: each `crate::a::b…`, `super::…` and
/// `self::…` path, and each name inside `use crate::{…}` groups, as module
/// paths from the crate root (items included: the caller looks up the
/// longest prefix that is a file). `here` is the file's own module path.
fn paths(code: &str, here: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let words: Vec<char> = code.chars().collect();
    let text: String = words.iter().collect();
    let mut start = 0;
    while let Some(off) = text[start..].find("::") {
        let at = start + off;
        start = at + 2;
        // The identifier before "::" must start a path.
        let head_start = text[..at]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let head = &text[head_start..at];
        if head_start > 1 && &text[head_start - 2..head_start] == "::" {
            continue;
        }
        let base: Vec<String> = match head {
            "crate" => vec![],
            "super" => here[..here.len().saturating_sub(1)].to_vec(),
            "self" => here.to_vec(),
            _ => continue,
        };
        // The rest of the path: identifiers joined by "::", or a group.
        let rest = &text[at + 2..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let segs: Vec<String> = item
                    .split("::")
                    .map(|s| s.trim().trim_start_matches('{').trim().to_string())
                    .take_while(|s| {
                        !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')
                    })
                    .collect();
                if !segs.is_empty() {
                    out.push(base.iter().cloned().chain(segs).collect());
                }
            }
        } else {
            let segs: Vec<String> = rest
                .split("::")
                .map_while(|s| {
                    let id: String = s
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    (!id.is_empty()).then_some(id)
                })
                .collect();
            out.push(base.into_iter().chain(segs).collect());
        }
    }
    out
}

#[test]
fn imports_follow_the_layer_order_and_folders_have_no_cycle() {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    // Every module file, by module path.
    let modules: BTreeSet<Vec<String>> = files
        .iter()
        .map(|f| module_path(f.strip_prefix(&root).unwrap()))
        .collect();
    let mut against = Vec::new();
    let mut unknown = BTreeSet::new();
    // Edges between leaf files (not mod.rs) of the same top module.
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap();
        let top = rel.iter().next().unwrap().to_string_lossy();
        let top = top.trim_end_matches(".rs");
        if ["lib", "main", "cli"].contains(&top) {
            continue; // the crate root, and the binary over everything
        }
        let Some(r) = rank(top) else {
            unknown.insert(top.to_string());
            continue;
        };
        let here = module_path(rel);
        let is_mod = rel.file_name().unwrap() == "mod.rs";
        let text = std::fs::read_to_string(f).unwrap();
        for p in paths(&code(&text), &here) {
            let Some(target) = p.first() else { continue };
            if target == top {
                // Inside one folder: the longest prefix that is a file.
                let file = (1..=p.len())
                    .rev()
                    .map(|n| p[..n].to_vec())
                    .find(|m| modules.contains(m));
                if let Some(m) = file
                    && m != here
                    && !is_mod
                    && files.iter().any(|g| {
                        module_path(g.strip_prefix(&root).unwrap()) == m
                            && g.file_name().unwrap() != "mod.rs"
                    })
                {
                    edges.entry(here.clone()).or_default().insert(m);
                }
                continue;
            }
            match rank(target) {
                Some(t) if t < r => {}
                Some(_) => against.push(format!("{} imports {}", rel.display(), p.join("::"))),
                None => {}
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "modules missing from LAYERS (and docs/architecture.md): {unknown:?}"
    );
    against.sort();
    against.dedup();
    assert!(
        against.is_empty(),
        "imports against the layer order:\n{}",
        against.join("\n")
    );
    // Cycles between the leaf files of a folder.
    let mut cycles = Vec::new();
    for start in edges.keys() {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((node, path)) = stack.pop() {
            for next in edges.get(&node).into_iter().flatten() {
                if next == start {
                    cycles.push(
                        path.iter()
                            .map(|m| m.join("::"))
                            .collect::<Vec<_>>()
                            .join(" -> "),
                    );
                } else if seen.insert(next.clone()) {
                    let mut p = path.clone();
                    p.push(next.clone());
                    stack.push((next.clone(), p));
                }
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "import cycles inside a folder:\n{}",
        cycles.join("\n")
    );
}

#[test]
fn the_checker_sees_an_import_against_the_order() {
    // `fit` naming `report` is against the order; `fit` naming `mesh` is not.
    let here = vec!["fit".to_string(), "hull".to_string()];
    let p = paths(
        &code(
            "use crate::report::fit::X;\nuse crate::{mesh::TriMesh, report};\n// crate::cli in a comment\n",
        ),
        &here,
    );
    let tops: Vec<&str> = p.iter().map(|p| p[0].as_str()).collect();
    assert_eq!(tops, ["report", "mesh", "report"]);
    assert!(rank("report") > rank("fit"));
    assert!(rank("mesh") < rank("fit"));
    // `super::` from a leaf resolves to its folder's siblings.
    let p = paths(&code("use super::kdop::Kdop;"), &here);
    assert_eq!(p, [vec!["fit".to_string(), "kdop".into(), "Kdop".into()]]);
}

/// The one reason every `#[ignore]`d test gives: `cargo test --release`
/// prints it for each test it skips, so it must say how to run them, not
/// that something is missing (the corpus may well be there).
const IGNORE_REASON: &str = "#[ignore = \"real-model suite: run by .ci/run (release, --ignored)\"]";

#[test]
fn every_ignored_test_says_how_to_run_it() {
    let tests = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    rust_files(&tests, &mut files);
    assert!(files.len() > 50, "the test folders were not found");
    let mut wrong = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.starts_with("#[ignore") && line != IGNORE_REASON {
                wrong.push(format!("{}:{}: {line}", f.display(), n + 1));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "ignored tests must give the reason {IGNORE_REASON}:\n{}",
        wrong.join("\n")
    );
}
