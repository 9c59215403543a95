//! The parallel OBJ and STL readers on the real-model corpus: every OBJ
//! and STL file of the manifest (those that must be refused too) and the
//! 278k bunny, read in chunks of 4,093 bytes, 64 KiB and the default size,
//! give the same scene — or the same error — as one chunk read in order.
//!
//! Real-model suite: ignored by the plain `cargo test`, run by `.ci/run` in
//! release mode with `--ignored`.

use bvtool_dev as common;

use bvtool::load::chunks::DEFAULT_CHUNK_BYTES;
use bvtool::load::{LoadOptions, TriangleLimit, load_bytes_in_chunks, read_input};

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn corpus_reads_the_same_in_chunks() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let opts = LoadOptions {
        max_triangles: TriangleLimit::Unlimited,
        ..LoadOptions::default()
    };
    let mut files: Vec<String> = common::manifest(&dir)
        .into_iter()
        .map(|e| e.path)
        .filter(|p| {
            let lower = p.to_ascii_lowercase();
            lower.ends_with(".obj") || lower.ends_with(".stl")
        })
        .collect();
    files.push("large/bunny-278k.obj".into());
    let mut problems = Vec::new();
    let mut read = 0;
    for file in &files {
        let path = dir.join(file);
        let Ok(bytes) = read_input(&path) else {
            continue;
        };
        read += 1;
        let outcome = |chunk_bytes| {
            load_bytes_in_chunks(&path, &bytes, &opts, chunk_bytes)
                .map(|s| format!("{s:?}"))
                .map_err(|e| e.to_string())
        };
        let whole = outcome(usize::MAX);
        for size in [4093, 1 << 16, DEFAULT_CHUNK_BYTES] {
            if outcome(size) != whole {
                problems.push(format!("{file}: differs in chunks of {size} bytes"));
            }
        }
    }
    assert!(read > 50, "only {read} OBJ/STL files read");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
