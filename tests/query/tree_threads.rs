//! The OBB tree is the same whatever the number of threads that build it:
//! built on pools of 1 to 4 threads, the trees are compared byte for byte
//! (`ObbTree::to_bytes`: every node's box and link, the triangle order,
//! the welded vertices, the twin table).

use bvtool::mesh::TriMesh;
use bvtool::tree::{NodeFit, ObbTree};
use bvtool_dev::shapes::{soup, torus};

/// The tree of `mesh` built on a pool of `threads` threads, as bytes.
fn built_on(threads: usize, mesh: &TriMesh, fit: NodeFit) -> Vec<u8> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| ObbTree::build_default(mesh, fit))
        .to_bytes()
}

#[test]
fn tree_is_the_same_on_any_number_of_threads() {
    // Large enough for the top levels to run in parallel (the sums, the
    // binning and the box fits of nodes of 4,096 triangles or more).
    for (name, mesh, fit) in [
        ("torus 120k", torus(1.0, 0.3, 300, 200), NodeFit::Quick),
        ("soup 30k", soup(30_000, 7), NodeFit::Quick),
        ("soup 12k flush", soup(12_000, 11), NodeFit::Flush),
    ] {
        let one = built_on(1, &mesh, fit);
        // Rayon's split of the work adapts to the threads' progress: two
        // threads twice.
        for threads in [2, 2, 3] {
            assert!(
                built_on(threads, &mesh, fit) == one,
                "{name}: {threads} threads"
            );
        }
    }
}
