//! Tree-vs-tree collision against brute force on synthetic meshes (tori,
//! icospheres, random soups with degenerate triangles), order independence
//! and first-contact consistency.

use bvtool::TriMesh;
use bvtool::pose::Pose;
use bvtool::query::poses::{near_boundary, random_rotation};
use bvtool::query::{ContactMode, brute_force, collide};
use bvtool::tree::ObbTree;
use nalgebra::{Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn mesh(vertices: Vec<Point3<f64>>, triangles: Vec<[u32; 3]>) -> TriMesh {
    let sources = (0..triangles.len() as u32)
        .map(|k| bvtool::TriangleSource::unplaced(0, k))
        .collect();
    TriMesh {
        vertices,
        triangles,
        sources,
    }
}

/// A torus with `n × m` quads split into triangles.
fn torus(big: f64, small: f64, n: u32, m: u32) -> TriMesh {
    let mut v = Vec::new();
    for i in 0..n {
        for j in 0..m {
            let (u, w) = (
                std::f64::consts::TAU * i as f64 / n as f64,
                std::f64::consts::TAU * j as f64 / m as f64,
            );
            let r = big + small * w.cos();
            v.push(Point3::new(r * u.cos(), r * u.sin(), small * w.sin()));
        }
    }
    let id = |i: u32, j: u32| (i % n) * m + (j % m);
    let mut t = Vec::new();
    for i in 0..n {
        for j in 0..m {
            t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    mesh(v, t)
}

/// An icosphere: the icosahedron subdivided `k` times, projected to radius 1.
fn icosphere(k: u32) -> TriMesh {
    let g = (1.0 + 5f64.sqrt()) / 2.0;
    let mut v: Vec<Point3<f64>> = [
        [-1.0, g, 0.0],
        [1.0, g, 0.0],
        [-1.0, -g, 0.0],
        [1.0, -g, 0.0],
        [0.0, -1.0, g],
        [0.0, 1.0, g],
        [0.0, -1.0, -g],
        [0.0, 1.0, -g],
        [g, 0.0, -1.0],
        [g, 0.0, 1.0],
        [-g, 0.0, -1.0],
        [-g, 0.0, 1.0],
    ]
    .iter()
    .map(|p| Point3::from(Vector3::from(*p).normalize()))
    .collect();
    let mut t: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..k {
        let mut next = Vec::new();
        let mut mids = std::collections::HashMap::new();
        let mut mid = |a: u32, b: u32, v: &mut Vec<Point3<f64>>| {
            *mids.entry((a.min(b), a.max(b))).or_insert_with(|| {
                let p = (v[a as usize].coords + v[b as usize].coords).normalize();
                v.push(Point3::from(p));
                v.len() as u32 - 1
            })
        };
        for [a, b, c] in t {
            let (ab, bc, ca) = (mid(a, b, &mut v), mid(b, c, &mut v), mid(c, a, &mut v));
            next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        t = next;
    }
    mesh(v, t)
}

/// A random soup in the unit cube with some degenerate triangles (segments,
/// points, repeated corners).
fn soup(n: usize, seed: u64) -> TriMesh {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut v = Vec::new();
    let mut t = Vec::new();
    for k in 0..n {
        let c = Point3::new(rng.random::<f64>(), rng.random(), rng.random());
        let mut p = || {
            c + Vector3::new(rng.random(), rng.random(), rng.random()).map(|x: f64| (x - 0.5) * 0.2)
        };
        let (a, b) = (p(), p());
        let third = match k % 10 {
            0 => a,                                         // segment
            1 => Point3::from((a.coords + b.coords) / 2.0), // collinear
            _ => p(),
        };
        let b = if k % 17 == 0 { a } else { b }; // point (with k%10==0) / segment
        let base = v.len() as u32;
        v.extend([a, b, third]);
        t.push([base, base + 1, base + 2]);
    }
    mesh(v, t)
}

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
    for leaf in [1, 3, 8] {
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
