//! Tree-vs-tree collision against brute force on synthetic meshes (tori,
//! icospheres, random soups with degenerate triangles), order independence
//! and first-contact consistency.

use bvtool_dev as common;

use bvtool::TriMesh;
use bvtool::check::poses::{near_boundary, random_rotation};
use bvtool::pose::Pose;
use bvtool::query::{ContactMode, brute_force, collide};
use bvtool::tree::{DEFAULT_LEAF_SIZE, ObbTree};
use common::shapes::{icosphere, mesh, soup, torus};
use nalgebra::{Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn check_against_brute_force(a: &TriMesh, b: &TriMesh, poses: &[Pose], leaf: usize) -> usize {
    let ta = ObbTree::build_with_leaf_size(a, leaf);
    let tb = ObbTree::build_with_leaf_size(b, leaf);
    let mut hits = 0;
    for pose in poses {
        let all = collide(&ta, &tb, pose, ContactMode::All);
        let truth = brute_force(a, b, pose);
        assert_eq!(all.pairs, truth, "pose {pose:?}");
        assert_eq!(all.intersecting, !truth.is_empty());
        let first = collide(&ta, &tb, pose, ContactMode::First);
        assert_eq!(first.intersecting, all.intersecting);
        if let Some(p) = first.pairs.first() {
            assert!(truth.binary_search(p).is_ok());
            assert!(first.triangle_tests <= all.triangle_tests);
        }
        // Swapping A and B with the inverse pose gives the same pairs, swapped
        // (checked against brute force in that frame too).
        let swapped = collide(&tb, &ta, &pose.inverse(), ContactMode::All);
        let truth_swapped = brute_force(b, a, &pose.inverse());
        assert_eq!(swapped.pairs, truth_swapped);
        let mut back: Vec<(u32, u32)> = swapped.pairs.iter().map(|&(x, y)| (y, x)).collect();
        back.sort_unstable();
        // Random poses never put a pair within rounding of touching, so the
        // two frames must agree exactly.
        assert_eq!(back, all.pairs, "swapped query differs");
        hits += all.intersecting as usize;
    }
    hits
}

#[test]
fn tori_match_brute_force_on_near_boundary_poses() {
    let a = torus(1.0, 0.3, 24, 12);
    let b = torus(0.8, 0.25, 20, 10);
    let poses = near_boundary(&a, &b, 60, 1);
    assert_eq!(poses.len(), 60);
    let hits = check_against_brute_force(&a, &b, &poses, 2);
    assert!((20..=45).contains(&hits), "{hits} of 60 collide");
}

/// The same tori far from the origin (1e5 units, millimetre-sized detail
/// relative to it) and tiny (1e-4 units): the tree's `f32` boxes and the
/// box test's slack scale with the coordinates, so the answers still equal
/// brute force.
#[test]
fn far_and_tiny_tori_match_brute_force() {
    for (offset, scale) in [(1e5, 1.0), (0.0, 1e-4), (3e3, 1e-2)] {
        let place = |m: TriMesh| TriMesh {
            vertices: m
                .vertices
                .iter()
                .map(|p| {
                    Point3::from(p.coords * scale + Vector3::new(offset, -offset, 0.5 * offset))
                })
                .collect(),
            ..m
        };
        let a = place(torus(1.0, 0.3, 24, 12));
        let b = place(torus(0.8, 0.25, 20, 10));
        let poses = near_boundary(&a, &b, 30, 2);
        let hits = check_against_brute_force(&a, &b, &poses, 2);
        assert!(
            (5..=25).contains(&hits),
            "{hits} of 30 collide at offset {offset}, scale {scale}"
        );
    }
}

#[test]
fn icospheres_and_soups_match_brute_force_for_several_leaf_sizes() {
    let a = icosphere(2);
    let b = soup(300, 9);
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let poses: Vec<Pose> = (0..40)
        .map(|_| {
            let t =
                Vector3::new(rng.random(), rng.random(), rng.random()).map(|x: f64| x * 1.6 - 1.3);
            Pose::new(t, random_rotation(&mut rng))
        })
        .collect();
    for leaf in [1, 3, DEFAULT_LEAF_SIZE, 8] {
        check_against_brute_force(&a, &b, &poses, leaf);
        check_against_brute_force(&b, &b, &poses, leaf);
    }
}

#[test]
fn exactly_touching_copies_are_reported() {
    // A flat square against a copy shifted along x by dyadic amounts: at
    // 1.0 the copies share an edge exactly (touching counts), just beyond it
    // they are apart, at 0.5 they overlap coplanarly.
    let square = mesh(
        vec![
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(1.0, 1.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    );
    let t = ObbTree::build(&square);
    for (shift, expect) in [(1.0, true), (1.0 + 1e-12, false), (0.5, true)] {
        let pose = Pose::new(Vector3::new(shift, 0.0, 0.0), Default::default());
        let c = collide(&t, &t, &pose, ContactMode::All);
        assert_eq!(c.intersecting, expect, "shift {shift}");
        assert_eq!(c.pairs, brute_force(&square, &square, &pose));
    }
}
