//! Distance and clearance: the `f64` triangle distance against an exact
//! rational oracle, and the tree queries against brute force over every
//! triangle pair on synthetic meshes.

use bvtool_dev as common;

use bvtool::TriMesh;
use bvtool::check::poses::{near_boundary, random_rotation};
use bvtool::pose::Pose;
use bvtool::query::pair::distance_triangle_triangle::{
    lower_bound, plane_gap, rounding_bound, triangle_distance,
};
use bvtool::query::pair::intersect_triangle_triangle::triangles_intersect;
use bvtool::query::{
    ContactMode, DistanceOptions, DistanceScratch, brute_force, brute_force_distance, collide,
    distance_with, within,
};
use bvtool::tree::ObbTree;
use common::shapes::{icosphere, soup, torus};
use nalgebra::{Point3, UnitQuaternion, Vector3};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type Q = BigRational;
type V = [Q; 3];

fn q(x: f64) -> Q {
    Q::from_float(x).expect("finite")
}
fn v(p: &Point3<f64>) -> V {
    [q(p.x), q(p.y), q(p.z)]
}
fn sub(a: &V, b: &V) -> V {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}
fn add_scaled(a: &V, d: &V, t: &Q) -> V {
    [&a[0] + &d[0] * t, &a[1] + &d[1] * t, &a[2] + &d[2] * t]
}
fn dot(a: &V, b: &V) -> Q {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}
fn cross(a: &V, b: &V) -> V {
    [
        &a[1] * &b[2] - &a[2] * &b[1],
        &a[2] * &b[0] - &a[0] * &b[2],
        &a[0] * &b[1] - &a[1] * &b[0],
    ]
}
fn d2(a: &V, b: &V) -> Q {
    let d = sub(a, b);
    dot(&d, &d)
}
fn clamp01(t: Q) -> Q {
    let one = Q::from_integer(BigInt::from(1));
    if t.is_negative() {
        Q::zero()
    } else if t > one {
        one
    } else {
        t
    }
}

/// Exact squared distance from point `p` to the closed segment `ab`.
fn point_segment(p: &V, a: &V, b: &V) -> Q {
    let d = sub(b, a);
    let dd = dot(&d, &d);
    if dd.is_zero() {
        return d2(p, a);
    }
    let t = clamp01(dot(&sub(p, a), &d) / dd);
    d2(p, &add_scaled(a, &d, &t))
}

/// Exact squared distance between two closed segments: the minimum of a
/// convex quadratic over the unit square is at its interior critical point
/// or on the square's boundary, where it is an endpoint–segment distance.
fn segment_segment(p1: &V, q1: &V, p2: &V, q2: &V) -> Q {
    let mut best = [
        point_segment(p1, p2, q2),
        point_segment(q1, p2, q2),
        point_segment(p2, p1, q1),
        point_segment(q2, p1, q1),
    ]
    .into_iter()
    .min()
    .unwrap();
    let (d1, d2v, r) = (sub(q1, p1), sub(q2, p2), sub(p1, p2));
    let (a, b, c, e, f) = (
        dot(&d1, &d1),
        dot(&d1, &d2v),
        dot(&d1, &r),
        dot(&d2v, &d2v),
        dot(&d2v, &r),
    );
    let denom = &a * &e - &b * &b;
    if denom.is_positive() {
        let s = (&b * &f - &c * &e) / &denom;
        let t = (&a * &f - &b * &c) / &denom;
        let unit = |x: &Q| !x.is_negative() && *x <= Q::from_integer(BigInt::from(1));
        if unit(&s) && unit(&t) {
            best = best.min(d2(&add_scaled(p1, &d1, &s), &add_scaled(p2, &d2v, &t)));
        }
    }
    best
}

/// Exact squared distance from point `p` to the closed triangle `t`.
fn point_triangle(p: &V, t: &[V; 3]) -> Q {
    let edges = (0..3)
        .map(|i| point_segment(p, &t[i], &t[(i + 1) % 3]))
        .min()
        .unwrap();
    let n = cross(&sub(&t[1], &t[0]), &sub(&t[2], &t[0]));
    let nn = dot(&n, &n);
    if nn.is_zero() {
        return edges;
    }
    let h = dot(&n, &sub(p, &t[0]));
    let x = add_scaled(p, &n, &(-&h / &nn));
    let inside = (0..3).all(|i| {
        let (u, w) = (&t[i], &t[(i + 1) % 3]);
        !dot(&cross(&sub(w, u), &sub(&x, u)), &n).is_negative()
    });
    if inside { &h * &h / nn } else { edges }
}

/// The exact distance between two triangles, rounded once to `f64`.
fn exact_distance(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> f64 {
    if triangles_intersect(a, b) {
        return 0.0;
    }
    let (ta, tb) = (a.map(|p| v(&p)), b.map(|p| v(&p)));
    let mut best = (0..3)
        .flat_map(|i| (0..3).map(move |j| (i, j)))
        .map(|(i, j)| segment_segment(&ta[i], &ta[(i + 1) % 3], &tb[j], &tb[(j + 1) % 3]))
        .min()
        .unwrap();
    for p in &ta {
        best = best.min(point_triangle(p, &tb));
    }
    for p in &tb {
        best = best.min(point_triangle(p, &ta));
    }
    best.to_f64().unwrap().sqrt()
}

fn scale_of(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> f64 {
    a.iter()
        .chain(b)
        .map(|p| p.coords.amax())
        .fold(0.0, f64::max)
}

/// Checks one pair: the distance within the stated bound of the exact one,
/// the points as far apart as the distance says and each on its triangle
/// (its exact distance to the triangle within the bound), and the pruning
/// bounds below the exact distance (the plane gap never above it; with the
/// box gap, within the rounding bound). Returns the error in units of the
/// bound.
fn check_pair(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> f64 {
    let got = triangle_distance(a, b);
    let want = exact_distance(a, b);
    let bound = rounding_bound(scale_of(a, b));
    let plane = plane_gap(a, b);
    assert!(
        plane <= want,
        "plane gap {plane} above the exact distance {want}: {a:?} {b:?}"
    );
    let lower = lower_bound(a, b, f64::INFINITY);
    assert!(
        lower >= plane && lower <= want + bound,
        "lower bound {lower} vs exact {want}"
    );
    let err = (got.distance - want).abs();
    assert!(
        err <= bound,
        "distance {} vs exact {want} (bound {bound}) for {a:?} {b:?}",
        got.distance
    );
    assert_eq!(got.intersecting, want == 0.0 && triangles_intersect(a, b));
    let gap = (got.point_a - got.point_b).norm();
    assert!(
        (gap - got.distance).abs() <= bound,
        "points {gap} apart, distance {}",
        got.distance
    );
    for (p, t) in [(&got.point_a, a), (&got.point_b, b)] {
        let off = point_triangle(&v(p), &t.map(|c| v(&c)))
            .to_f64()
            .unwrap()
            .sqrt();
        assert!(
            off <= bound,
            "closest point {p:?} is {off} off its triangle {t:?}; pair {a:?} {b:?} -> {got:?}"
        );
    }
    err / bound
}

fn rand_point(rng: &mut ChaCha8Rng, s: f64) -> Point3<f64> {
    Point3::new(
        rng.random::<f64>() - 0.5,
        rng.random::<f64>() - 0.5,
        rng.random::<f64>() - 0.5,
    ) * s
}

fn rand_triangle(rng: &mut ChaCha8Rng, c: Point3<f64>, s: f64) -> [Point3<f64>; 3] {
    [
        c + rand_point(rng, s).coords,
        c + rand_point(rng, s).coords,
        c + rand_point(rng, s).coords,
    ]
}

#[test]
fn random_pairs_match_the_exact_distance() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut worst: f64 = 0.0;
    let mut apart = 0;
    for k in 0..1000 {
        let s = [1e-3, 1.0, 1e4][k % 3];
        let offset = rand_point(&mut rng, 3.0 * s);
        let a = rand_triangle(&mut rng, Point3::origin(), s);
        let b = rand_triangle(&mut rng, offset, s);
        apart += !triangles_intersect(&a, &b) as usize;
        worst = worst.max(check_pair(&a, &b));
    }
    assert!(apart > 600 && apart < 1000, "{apart} of 1000 apart");
    eprintln!("worst error: {worst:.3} of the bound");
}

#[test]
fn degenerate_triangles_are_segments_and_points() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for k in 0..1000 {
        let mut a = rand_triangle(&mut rng, Point3::origin(), 1.0);
        let c = rand_point(&mut rng, 2.0);
        let mut b = rand_triangle(&mut rng, c, 1.0);
        match k % 5 {
            0 => a[2] = a[1],                                            // segment
            1 => a = [a[0]; 3],                                          // point
            2 => a[2] = Point3::from((a[0].coords + a[1].coords) * 0.5), // collinear
            3 => {
                a = [a[0]; 3];
                b[1] = b[0]; // point vs segment
            }
            _ => {
                a[1] = a[0];
                b[2] = Point3::from(b[0].coords * 0.25 + b[1].coords * 0.75);
            }
        }
        check_pair(&a, &b);
    }
}

/// Parallel and nearly parallel triangles and edges: coplanar copies,
/// copies in parallel planes, and copies turned by tiny angles, where the
/// segment–segment system is ill-conditioned.
#[test]
fn parallel_and_nearly_parallel_pairs_match_the_exact_distance() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut worst: f64 = 0.0;
    for k in 0..1200 {
        let a = rand_triangle(&mut rng, Point3::origin(), 1.0);
        let n = (a[1] - a[0]).cross(&(a[2] - a[0])).normalize();
        let angle = [0.0, 1e-3, 1e-6, 1e-9, 1e-12, 1e-15][k % 6];
        let axis = nalgebra::Unit::new_normalize(Vector3::new(
            rng.random(),
            rng.random(),
            rng.random::<f64>(),
        ));
        let turn = UnitQuaternion::from_axis_angle(&axis, angle);
        let lift = [0.0, 1e-9, 1e-3, 0.3][(k / 6) % 4];
        let slide = rand_point(&mut rng, 1.5).coords;
        let slide = slide - n * slide.dot(&n); // in the plane
        let b = a.map(|p| Point3::from(turn * p.coords + n * lift + slide));
        worst = worst.max(check_pair(&a, &b));
        if lift == 0.3 && angle <= 1e-6 {
            // A parallel copy 0.3 above (slid aside, turned by at most 1e-6):
            // the plane gap sees the lift whatever the overlap.
            let gap = plane_gap(&a, &b);
            assert!(
                gap > 0.2999 && gap <= 0.3 + 1e-6,
                "plane gap {gap} for a copy 0.3 above"
            );
        }
        // Edge against a nearly parallel copy of itself, off to the side.
        let e = [a[0], a[1], a[1]];
        let off = (a[1] - a[0]).cross(&n).normalize() * lift;
        let f = e.map(|p| Point3::from(turn * p.coords + off + (a[1] - a[0]) * 0.5));
        worst = worst.max(check_pair(&e, &f));
    }
    eprintln!("worst error: {worst:.3} of the bound");
}

fn trees(a: &TriMesh, b: &TriMesh, leaf: usize) -> (ObbTree, ObbTree) {
    (
        ObbTree::build_with_leaf_size(a, leaf),
        ObbTree::build_with_leaf_size(b, leaf),
    )
}

/// Poses around the contact boundary and farther out.
fn poses(a: &TriMesh, b: &TriMesh, n: usize, seed: u64) -> Vec<Pose> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = near_boundary(a, b, n, seed);
    for _ in 0..n / 4 {
        let t = Vector3::new(rng.random::<f64>(), rng.random(), rng.random()) * 6.0
            - Vector3::repeat(3.0);
        out.push(Pose::new(t, random_rotation(&mut rng)));
    }
    out
}

/// The tree's distance equals brute force's (same triangle distance, so
/// equal to the last bit unless two pairs tie), the closest triangles are
/// at that distance, and the tree says "intersecting" exactly when
/// `collide` does.
fn distance_matches_brute_force(a: &TriMesh, b: &TriMesh, poses: &[Pose], leaf: usize) -> usize {
    let (ta, tb) = trees(a, b, leaf);
    let mut scratch = DistanceScratch::default();
    let mut touching = 0;
    for pose in poses {
        let got = distance_with(&mut scratch, &ta, &tb, pose, &DistanceOptions::default()).unwrap();
        let want = brute_force_distance(a, b, pose).unwrap();
        assert_eq!(got.distance, want.distance, "pose {pose:?}");
        assert_eq!(
            got.intersecting,
            collide(&ta, &tb, pose, ContactMode::First).intersecting
        );
        let place = bvtool::query::Placement::new(pose);
        let (i, j) = got.triangles;
        let d = triangle_distance(
            &a.triangle(i as usize),
            &place.triangle(&b.triangle(j as usize)),
        );
        assert_eq!(d.distance, got.distance);
        touching += got.intersecting as usize;
    }
    touching
}

#[test]
fn tori_distance_matches_brute_force() {
    let a = torus(1.0, 0.35, 24, 12);
    let b = torus(0.8, 0.25, 20, 10);
    let poses = poses(&a, &b, 40, 4);
    for leaf in [1, 2, 4, 6, 8] {
        let touching = distance_matches_brute_force(&a, &b, &poses, leaf);
        assert!(touching > 5 && touching < 45, "{touching} touching");
    }
}

#[test]
fn icospheres_and_soups_distance_matches_brute_force() {
    let ico = icosphere(2);
    let soup_a = soup(300, 5);
    let soup_b = soup(200, 6);
    for leaf in [2, 6] {
        distance_matches_brute_force(&ico, &soup_a, &poses(&ico, &soup_a, 40, 7), leaf);
        distance_matches_brute_force(&soup_a, &soup_b, &poses(&soup_a, &soup_b, 40, 8), leaf);
    }
}

#[test]
fn far_and_tiny_models_distance_matches_brute_force() {
    for (offset, scale) in [(1e5, 1.0), (0.0, 1e-4), (1e3, 1e-3)] {
        let place = |m: TriMesh| TriMesh {
            vertices: m
                .vertices
                .iter()
                .map(|p| Point3::from(p.coords * scale + Vector3::repeat(offset)))
                .collect(),
            ..m
        };
        let (a, b) = (
            place(torus(1.0, 0.35, 16, 8)),
            place(torus(0.8, 0.3, 12, 8)),
        );
        let base = poses(&torus(1.0, 0.35, 16, 8), &torus(0.8, 0.3, 12, 8), 20, 9);
        // The same relative placement about the shifted, scaled origin.
        let poses: Vec<Pose> = base
            .iter()
            .map(|p| {
                let o = Vector3::repeat(offset);
                Pose::new(p.translation * scale + o - p.rotation * o, p.rotation)
            })
            .collect();
        distance_matches_brute_force(&a, &b, &poses, 2);
    }
}

#[test]
fn tolerances_bound_the_answer() {
    let a = torus(1.0, 0.35, 24, 12);
    let b = icosphere(2);
    let (ta, tb) = trees(&a, &b, 2);
    let mut scratch = DistanceScratch::default();
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for _ in 0..60 {
        let t = Vector3::new(rng.random::<f64>(), rng.random(), rng.random()) * 8.0
            - Vector3::repeat(4.0);
        let pose = Pose::new(t, random_rotation(&mut rng));
        let exact = brute_force_distance(&a, &b, &pose).unwrap().distance;
        for (rel, abs) in [(0.1, 0.0), (0.0, 0.05), (0.5, 0.5)] {
            let opts = DistanceOptions {
                rel_err: rel,
                abs_err: abs,
            };
            let got = distance_with(&mut scratch, &ta, &tb, &pose, &opts).unwrap();
            assert!(got.distance >= exact && got.distance <= (1.0 + rel) * exact + abs + 1e-12);
        }
    }
}

/// Clearance: the pairs within `D` are brute force's pairs whose distance
/// is at most `D`; `D = 0` is `collide`; first-within-D agrees with "any".
#[test]
fn clearance_matches_brute_force() {
    let a = torus(1.0, 0.35, 24, 12);
    let b = torus(0.8, 0.25, 20, 10);
    let (ta, tb) = trees(&a, &b, 2);
    for pose in poses(&a, &b, 40, 11) {
        let place = bvtool::query::Placement::new(&pose);
        let all: Vec<(u32, u32, f64)> = (0..a.triangles.len())
            .flat_map(|i| (0..b.triangles.len()).map(move |j| (i, j)))
            .map(|(i, j)| {
                let d = triangle_distance(&a.triangle(i), &place.triangle(&b.triangle(j)));
                (i as u32, j as u32, d.distance)
            })
            .collect();
        for clearance in [0.0, 0.01, 0.1] {
            let want: Vec<(u32, u32)> = all
                .iter()
                .filter(|p| p.2 <= clearance)
                .map(|p| (p.0, p.1))
                .collect();
            let got = within(&ta, &tb, &pose, clearance, ContactMode::All);
            let pairs: Vec<(u32, u32)> = got.pairs.iter().map(|p| (p.a, p.b)).collect();
            assert_eq!(pairs, want, "clearance {clearance}");
            assert_eq!(got.within, !want.is_empty());
            let first = within(&ta, &tb, &pose, clearance, ContactMode::First);
            assert_eq!(first.within, got.within);
            assert!(first.pairs.len() <= 1 && first.pairs.iter().all(|p| p.distance <= clearance));
            if clearance == 0.0 {
                assert_eq!(pairs, brute_force(&a, &b, &pose));
            }
        }
    }
}
