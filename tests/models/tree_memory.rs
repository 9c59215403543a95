//! Real-model tree memory (ignored; run by .ci/run in release): every
//! corpus model over 10,000 triangles gets a tree of at most 64 bytes a
//! triangle, everything it holds counted (issue 14), and its leaves the
//! default size for its triangle count.

use bvtool_dev as common;

use bvtool::tree::{DEFAULT_LEAF_SIZE, ObbTree, SMALL_TREE, TreeStats};

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn corpus_trees_hold_at_most_64_bytes_a_triangle() {
    let Some(dir) = common::models_dir() else {
        eprintln!("no model corpus");
        return;
    };
    let mut checked = Vec::new();
    for (entry, scene) in common::valid_scenes(&dir) {
        if entry.triangles.is_none_or(|n| n <= 10_000) {
            continue;
        }
        let mesh = scene.flatten();
        let tree = ObbTree::build(&mesh);
        let stats = TreeStats::of(&tree);
        assert!(mesh.triangles.len() >= SMALL_TREE && tree.leaf_size == DEFAULT_LEAF_SIZE);
        assert!(
            stats.total_bytes_per_triangle <= 64.0,
            "{}: {:.1} bytes a triangle",
            entry.path,
            stats.total_bytes_per_triangle
        );
        checked.push((stats.total_bytes_per_triangle, entry.path));
    }
    checked.sort_by(|a, b| a.0.total_cmp(&b.0));
    eprintln!("{} models; most: {:?}", checked.len(), checked.last());
    assert!(
        checked.len() >= 20,
        "{} models over 10k triangles",
        checked.len()
    );
}
