//! Stopping a tree build (`ObbTree::build_with_until`,
//! `AabbTree::build_with_leaf_size_until`): a flag set before the call
//! stops it with `Stopped`; a flag never set gives the plain build's tree
//! byte for byte; a flag set while the build runs gives `Stopped` or the
//! whole tree, never a part of one. The vertex weld (`weld_until`), the
//! builds' one long sequential pass, stops the same way.

use bvtool::mesh::weld::{weld, weld_until};
use bvtool::threads::{Stop, Stopped};
use bvtool::tree::{AabbTree, NodeFit, ObbTree, default_leaf_size};
use bvtool_dev::shapes::{soup, torus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// An AABB tree as comparable text (its nodes, boxes, welded geometry and
/// permutation: the derived `Debug` prints every field).
fn aabb_text(t: &AabbTree) -> String {
    format!("{t:?}")
}

#[test]
fn a_flag_set_before_the_build_stops_it() {
    let set = AtomicBool::new(true);
    for mesh in [torus(1.0, 0.3, 40, 30), soup(20_000, 3)] {
        for fit in [NodeFit::Quick, NodeFit::Flush] {
            assert_eq!(
                ObbTree::build_with_until(&mesh, 6, fit, Stop::on(&set)).err(),
                Some(Stopped)
            );
        }
        assert_eq!(
            AabbTree::build_until(&mesh, Stop::on(&set)).err(),
            Some(Stopped)
        );
    }
}

#[test]
fn the_weld_stops_or_welds_as_before() {
    // 90,000 vertices: two of the weld's chunks between checks.
    let mesh = soup(30_000, 4);
    let set = AtomicBool::new(true);
    assert_eq!(weld_until(&mesh.vertices, Stop::on(&set)), Err(Stopped));
    let unset = AtomicBool::new(false);
    let (ids, count) = weld(&mesh.vertices);
    assert!(count < mesh.vertices.len(), "the soup repeats some corners");
    assert_eq!(
        weld_until(&mesh.vertices, Stop::on(&unset)),
        Ok((ids, count))
    );
}

#[test]
fn a_flag_never_set_gives_the_plain_tree() {
    let unset = AtomicBool::new(false);
    for mesh in [torus(1.0, 0.3, 40, 30), soup(20_000, 3)] {
        let leaf = default_leaf_size(mesh.triangles.len());
        for fit in [NodeFit::Quick, NodeFit::Flush] {
            let plain = ObbTree::build_with(&mesh, leaf, fit).to_bytes();
            let until = ObbTree::build_with_until(&mesh, leaf, fit, Stop::on(&unset))
                .expect("never stopped")
                .to_bytes();
            assert!(plain == until, "{fit:?}");
        }
        let plain = aabb_text(&AabbTree::build(&mesh));
        let until = aabb_text(&AabbTree::build_until(&mesh, Stop::on(&unset)).unwrap());
        assert_eq!(plain, until);
    }
}

#[test]
fn a_flag_set_during_the_build_gives_all_or_nothing() {
    // 60k triangles: a build of a few tens of milliseconds, its top nodes
    // above the 4,096 triangles where the recursion checks the flag.
    let mesh = soup(60_000, 5);
    let leaf = default_leaf_size(mesh.triangles.len());
    let whole = ObbTree::build_with(&mesh, leaf, NodeFit::Quick).to_bytes();
    let whole_aabb = aabb_text(&AabbTree::build(&mesh));
    let mut stopped = 0;
    for delay_us in [0, 200, 1_000, 3_000, 10_000, 30_000] {
        let flag = AtomicBool::new(false);
        let (obb, aabb) = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_micros(delay_us));
                flag.store(true, Ordering::Relaxed);
            });
            (
                ObbTree::build_with_until(&mesh, leaf, NodeFit::Quick, Stop::on(&flag)),
                AabbTree::build_until(&mesh, Stop::on(&flag)),
            )
        });
        match obb {
            Ok(t) => assert!(t.to_bytes() == whole, "{delay_us} µs: a different tree"),
            Err(Stopped) => stopped += 1,
        }
        if let Ok(t) = aabb {
            assert_eq!(aabb_text(&t), whole_aabb, "{delay_us} µs");
        }
    }
    // The flag set at once (0 µs) is seen by the build at the latest when
    // its recursion starts.
    assert!(stopped > 0, "no build stopped");
}
