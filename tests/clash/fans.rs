//! Fans in the self-intersection search: many triangles sharing one
//! vertex, whose boxes all hold it, so only the caps of directions around
//! it (`clash::fan_cone`) keep the descent from meeting every pair. Against
//! the brute force where it can run, and against answers known by
//! construction on fans of 10⁵ triangles, where it cannot.

use super::detect::{mesh, selfx};
use bvtool::clash::self_intersections;
use bvtool::tree::AabbTree;
use bvtool_dev::shapes::closed_cylinder;
use nalgebra::{Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A fan round `apex` through `rim` in order: triangle `i` is
/// `(apex, rim[i], rim[i + 1])`.
fn fan(apex: [f64; 3], rim: &[[f64; 3]]) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let mut points = vec![apex];
    points.extend_from_slice(rim);
    let n = rim.len() as u32;
    let tris = (1..n).map(|i| [0, i, i + 1]).collect();
    (points, tris)
}

/// Random fans of a few hundred triangles, each against the brute force
/// (which tests every pair) at leaf sizes 1, 3 and 8: flat and convex (no
/// pair), crumpled in 3-D (a random walk of the rim: pairs where it crosses
/// itself), and a fan with a second fan inside it along the same rays
/// (triangles touching along a segment from the apex: the caps touch,
/// within rounding when the apex is not the origin, and must not be
/// dropped).
#[test]
fn fans_against_the_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let mut crossing = 0;
    for round in 0..12 {
        let apex = if round % 2 == 0 {
            [0.0; 3]
        } else {
            [
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
            ]
        };
        let a = Vector3::from(apex);
        // Flat and convex: rim points on a circle through the apex.
        let mut angles: Vec<f64> = (0..300).map(|_| rng.random_range(0.01..6.27)).collect();
        angles.sort_by(f64::total_cmp);
        let rim: Vec<[f64; 3]> = angles
            .iter()
            .map(|t| (a + Vector3::new(1.0 - t.cos(), t.sin(), 0.0)).into())
            .collect();
        let (p, t) = fan(apex, &rim);
        let flat = selfx(&mesh(&p, &t));
        assert!(flat.pairs.is_empty(), "round {round}: a convex fan");
        // Crumpled: the rim walks on the unit sphere about the apex.
        let mut d = Vector3::new(1.0, 0.0, 0.0);
        let rim: Vec<[f64; 3]> = (0..300)
            .map(|_| {
                let step = Vector3::new(
                    rng.random_range(-0.3..0.3),
                    rng.random_range(-0.3..0.3),
                    rng.random_range(-0.3..0.3),
                );
                d = (d + step).normalize();
                (a + d * rng.random_range(0.5..1.5)).into()
            })
            .collect();
        let (p, t) = fan(apex, &rim);
        crossing += selfx(&mesh(&p, &t)).pairs.len();
        // Along the same rays: an outer flat fan, and inner triangles from
        // the apex to halfway along each of its rays and off its plane.
        let rim: Vec<[f64; 3]> = (0..200)
            .map(|i| {
                let t = 3.0 * f64::from(i) / 200.0;
                (a + Vector3::new(t.cos(), t.sin(), 0.0)).into()
            })
            .collect();
        let (mut p, mut t) = fan(apex, &rim);
        for i in (1..200).step_by(7) {
            let half = Point3::from(apex) + (Point3::from(rim[i]) - Point3::from(apex)) * 0.5;
            let k = p.len() as u32;
            p.push(half.into());
            p.push((half + Vector3::new(0.0, 0.0, 0.3)).into());
            t.push([0, k, k + 1]);
        }
        let touching = selfx(&mesh(&p, &t));
        if round % 2 == 0 {
            // Exact halves: every inner triangle touches the two outer ones
            // on its ray (a segment from the apex).
            assert_eq!(touching.pairs.len(), 2 * 29, "round {round}");
        }
    }
    assert!(crossing > 0, "some crumpled fan crosses itself");
}

/// Two fans whose boxes hold each other's vertex, against the brute force
/// at leaf sizes 1, 3 and 8: closed cones (the side fanned from the apex,
/// the base from its centre) with the apex above the base, on it (a flat,
/// doubled disc: pairs everywhere), below it through the base's plane (the
/// side crossing the base), off-centre and at 18 random heights; every
/// other one with a ragged rim (random radius and height per corner).
#[test]
fn fans_round_two_vertices_against_the_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(3434);
    let n = 240u32;
    let mut found = [0usize; 2];
    let mut heights = vec![1.0, 0.0, -0.5, 2.0, 0.3, -1.0];
    heights.extend((0..18).map(|_| rng.random_range(-1.5..1.5)));
    for (round, height) in heights.into_iter().enumerate() {
        let apex = [
            rng.random_range(-0.3..0.3),
            rng.random_range(-0.3..0.3),
            height,
        ];
        let centre = [
            rng.random_range(-0.1..0.1),
            rng.random_range(-0.1..0.1),
            0.0,
        ];
        let mut p = vec![apex, centre];
        for k in 0..n {
            let (s, c) = (std::f64::consts::TAU * f64::from(k) / f64::from(n)).sin_cos();
            // Every other round, a ragged rim: radius and height vary.
            let (r, z) = if round % 2 == 0 {
                (1.0, 0.0)
            } else {
                (rng.random_range(0.5..1.5), rng.random_range(-0.05..0.05))
            };
            p.push([r * c, r * s, z]);
        }
        let t: Vec<[u32; 3]> = (0..n)
            .flat_map(|k| {
                let (a, b) = (2 + k, 2 + (k + 1) % n);
                [[0, a, b], [1, b, a]]
            })
            .collect();
        let pairs = selfx(&mesh(&p, &t)).pairs.len();
        found[usize::from(pairs > 0)] += 1;
        if height == 0.0 && round % 2 == 0 {
            assert!(pairs > 0, "a flat cone is a doubled disc");
        }
    }
    assert!(
        found[0] > 0 && found[1] > 0,
        "{found:?}: cones with and without pairs"
    );
}

/// Fans of 10⁵ triangles that the box descent alone would meet pair by
/// pair (5·10⁹ of them): a regular 10⁵-gon fanned from a corner (the
/// triangulation of a large OBJ face past its ear-clipping budget), a
/// closed cone (its side fanned from the apex, its base from the centre:
/// every side box holds the centre) and a cylinder with its caps fanned
/// from their centres, each of 10⁵ segments. None intersects itself.
#[test]
fn fans_of_100000_triangles_have_no_pairs() {
    let n = 100_000;
    let circle: Vec<[f64; 3]> = (0..n)
        .map(|k| {
            let (s, c) = (std::f64::consts::TAU * f64::from(k) / f64::from(n)).sin_cos();
            [c, s, 0.0]
        })
        .collect();
    let (p, t) = fan(circle[0], &circle[1..]);
    let polygon = mesh(&p, &t);
    // The cone: apex 0, base centre 1, the circle from 2 on.
    let mut p = vec![[0.0, 0.0, 1.0], [0.0; 3]];
    p.extend_from_slice(&circle);
    let t: Vec<[u32; 3]> = (0..n)
        .flat_map(|k| {
            let (a, b) = (2 + k, 2 + (k + 1) % n);
            [[0, a, b], [1, b, a]]
        })
        .collect();
    for (name, m) in [
        ("polygon", polygon),
        ("cone", mesh(&p, &t)),
        ("cylinder", closed_cylinder(n, 1.0, 2.0)),
    ] {
        let found = self_intersections(&AabbTree::build(&m));
        assert!(found.pairs.is_empty(), "{name}: {:?}", &found.pairs[..1]);
        assert!(found.degenerate.is_empty(), "{name}");
    }
}
