//! The signed distance and protrusion depth against a sampling oracle:
//! A's surface sampled densely (corners, edge points, a barycentric grid
//! on each face), each sample's exact distance to B's placed triangles by
//! brute force and its inside by the parity of a random segment's
//! crossings (`bvtool_dev::oracle`); the deepest inside sample is a lower
//! bound `L` on the protrusion and, the distance to a surface being
//! 1-Lipschitz, `L + h` an upper bound (`h` the sampling spacing). The
//! reported depth must lie in `[L − bound, L + h]`, its witnesses on the
//! surfaces, the deep point inside, the normal along them.

use bvtool::query::depth::{DepthSettings, Protruding, SignedOptions, Solid, signed_distance};
use bvtool::query::point::PointTree;
use bvtool::query::{DistanceOptions, Placement, distance};
use bvtool::tree::ObbTree;
use bvtool::{Pose, TriMesh};
use bvtool_dev::oracle::{brute_distance, parity_inside, triangles};
use bvtool_dev::shapes::{cube_triangles, icosphere, mesh};
use nalgebra::{Point3, UnitQuaternion, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// A box of half extents `h` about `c`, outward.
fn cuboid(h: [f64; 3], c: [f64; 3]) -> TriMesh {
    let v = (0..8)
        .map(|k| {
            Point3::from(std::array::from_fn(|a| {
                c[a] + if (k >> a) & 1 == 1 { h[a] } else { -h[a] }
            }))
        })
        .collect();
    mesh(v, cube_triangles())
}

fn tetrahedron(s: f64) -> TriMesh {
    let v = [
        [1.0, 1.0, 1.0],
        [1.0, -1.0, -1.0],
        [-1.0, 1.0, -1.0],
        [-1.0, -1.0, 1.0],
    ]
    .map(|p: [f64; 3]| Point3::from(p.map(|x| x * s)))
    .to_vec();
    mesh(v, vec![[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]])
}

fn scaled(mut m: TriMesh, s: f64) -> TriMesh {
    m.vertices.iter_mut().for_each(|p| *p *= s);
    m
}

/// One mesh with its trees.
struct Shape {
    mesh: TriMesh,
    tree: ObbTree,
    points: PointTree,
}

impl Shape {
    fn new(mesh: TriMesh) -> Shape {
        Shape {
            tree: ObbTree::build_default(&mesh, Default::default()),
            points: PointTree::build(&mesh),
            mesh,
        }
    }
    fn solid(&self) -> Solid<'_> {
        Solid {
            tree: &self.tree,
            points: &self.points,
        }
    }
}

/// Points of each triangle on a barycentric grid of `n` steps, and the
/// spacing `h`: every point of the triangle is within `h` of one.
fn samples(tris: &[[Point3<f64>; 3]], n: usize) -> (Vec<Point3<f64>>, f64) {
    let mut out = Vec::new();
    let mut h: f64 = 0.0;
    for t in tris {
        let longest = (0..3)
            .map(|i| (t[i] - t[(i + 1) % 3]).norm())
            .fold(0.0, f64::max);
        h = h.max(longest / n as f64);
        for a in 0..=n {
            for b in 0..=n - a {
                let (u, v) = (a as f64 / n as f64, b as f64 / n as f64);
                out.push(Point3::from(
                    t[0].coords * (1.0 - u - v) + t[1].coords * u + t[2].coords * v,
                ));
            }
        }
    }
    (out, h)
}

/// The deepest sample of `surface` inside `solid` (`(0, None)` if none):
/// samples in order of their distance, the first inside wins.
fn oracle_depth(
    surface: &[[Point3<f64>; 3]],
    solid: &[[Point3<f64>; 3]],
    n: usize,
    rng: &mut ChaCha8Rng,
) -> (f64, f64) {
    let (pts, h) = samples(surface, n);
    let mut by: Vec<(f64, Point3<f64>)> =
        pts.iter().map(|p| (brute_distance(solid, p), *p)).collect();
    by.sort_by(|x, y| y.0.total_cmp(&x.0));
    let l = by
        .iter()
        .take_while(|(d, _)| *d > 0.0)
        .find(|(_, p)| parity_inside(solid, p, rng))
        .map_or(0.0, |(d, _)| *d);
    (l, h)
}

fn random_pose(rng: &mut ChaCha8Rng, reach: f64) -> Pose {
    let q = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    ));
    let t = Vector3::from_fn(|_, _| rng.random_range(-reach..reach));
    Pose::new(t, q)
}

/// Checks one pose against the oracle; returns whether it overlapped.
fn check(a: &Shape, b: &Shape, pose: &Pose, seed: u64) -> bool {
    let tol = 1e-7;
    let opts = SignedOptions {
        depth: DepthSettings {
            tolerance: Some(tol),
            ..Default::default()
        },
        ..Default::default()
    };
    let got = signed_distance(&a.solid(), &b.solid(), pose, &opts).unwrap();
    assert!(!got.capped, "{pose:?}: capped");
    assert!(got.bound <= tol, "{pose:?}: bound {} > {tol}", got.bound);
    let place = Placement::new(pose);
    let ta = triangles(&a.mesh);
    let tb: Vec<_> = triangles(&b.mesh)
        .iter()
        .map(|t| place.triangle(t))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (la, ha) = oracle_depth(&ta, &tb, 10, &mut rng);
    let (lb, hb) = oracle_depth(&tb, &ta, 10, &mut rng);
    let eps = 1e-9;
    let (l, h) = if la >= lb { (la, ha) } else { (lb, hb) };
    // L ≤ true depth ≤ reported + bound; reported ≤ true ≤ max(L_a + h_a, L_b + h_b).
    assert!(
        l <= got.depth + got.bound + eps,
        "{pose:?}: oracle {l} > reported {} + {}",
        got.depth,
        got.bound
    );
    assert!(
        got.depth <= (la + ha).max(lb + hb) + eps,
        "{pose:?}: reported {} > oracle {l} + {h}",
        got.depth
    );
    let on_a = brute_distance(&ta, &got.point_a);
    let on_b = brute_distance(&tb, &got.point_b);
    assert!(
        on_a <= eps && on_b <= eps,
        "{pose:?}: witnesses off: {on_a} {on_b}"
    );
    if got.depth == 0.0 {
        assert!(got.side.is_none());
        assert_eq!(got.signed_distance, got.unsigned.distance);
        return false;
    }
    assert_eq!(got.signed_distance, -got.depth);
    let n = got.normal.expect("a normal when deep");
    assert!((n.norm() - 1.0).abs() < 1e-12);
    let gap = got.point_b - got.point_a;
    assert!((gap.norm() - got.depth).abs() <= eps, "{pose:?}");
    assert!((gap - n * got.signed_distance).norm() <= eps, "{pose:?}");
    // The deep point is inside the other solid, and no nearer its surface.
    let (deep, other) = match got.side.unwrap() {
        Protruding::A => (got.point_a, &tb),
        Protruding::B => (got.point_b, &ta),
    };
    assert!(
        parity_inside(other, &deep, &mut rng),
        "{pose:?}: deep point outside"
    );
    assert!((brute_distance(other, &deep) - got.depth).abs() <= eps);
    true
}

/// ≥ 200 overlapping poses over three pairs of closed shapes, both
/// sides protruding; apart poses agree with the distance.
#[test]
fn protrusion_against_sampling() {
    let shapes = [
        Shape::new(cuboid([0.5, 0.4, 0.3], [0.0; 3])),
        Shape::new(tetrahedron(0.6)),
        Shape::new(scaled(icosphere(0), 0.7)),
    ];
    let pairs = [(0, 1), (1, 2), (2, 0), (0, 0)];
    let counts: Vec<(usize, usize, usize)> = pairs
        .par_iter()
        .enumerate()
        .map(|(k, &(i, j))| {
            let mut rng = ChaCha8Rng::seed_from_u64(k as u64);
            let (mut deep, mut a_side, mut b_side) = (0, 0, 0);
            for s in 0..56 {
                let pose = random_pose(&mut rng, 0.6);
                if check(&shapes[i], &shapes[j], &pose, s) {
                    deep += 1;
                }
                let o = SignedOptions::default();
                let got =
                    signed_distance(&shapes[i].solid(), &shapes[j].solid(), &pose, &o).unwrap();
                match got.side {
                    Some(Protruding::A) => a_side += 1,
                    Some(Protruding::B) => b_side += 1,
                    None => {
                        let d = distance(
                            &shapes[i].tree,
                            &shapes[j].tree,
                            &pose,
                            &DistanceOptions::default(),
                        )
                        .unwrap();
                        assert_eq!(got.signed_distance, d.distance);
                    }
                }
            }
            (deep, a_side, b_side)
        })
        .collect();
    let deep: usize = counts.iter().map(|c| c.0).sum();
    assert!(deep >= 200, "only {deep} overlapping poses");
    let (a, b) = (
        counts.iter().map(|c| c.1).sum::<usize>(),
        counts.iter().map(|c| c.2).sum::<usize>(),
    );
    assert!(a >= 50 && b >= 50, "A deepest {a} times, B {b}");
}

/// The counterexample to vertices: a 4 × 4 × 0.2 slab through the middle of
/// a cube of side 2. No vertex of either is inside the other, yet the
/// slab's top face reaches 0.9 deep into the cube.
#[test]
fn a_face_interior_is_deepest() {
    let slab = Shape::new(cuboid([2.0, 2.0, 0.1], [0.0; 3]));
    let cube = Shape::new(cuboid([1.0; 3], [0.0; 3]));
    let inside = |m: &TriMesh, s: &Shape| m.vertices.iter().any(|p| s.points.contains(p));
    assert!(!inside(&slab.mesh, &cube) && !inside(&cube.mesh, &slab));
    let tol = 1e-9;
    let opts = SignedOptions {
        depth: DepthSettings {
            tolerance: Some(tol),
            ..Default::default()
        },
        ..Default::default()
    };
    for (a, b, side) in [(&slab, &cube, Protruding::A), (&cube, &slab, Protruding::B)] {
        let got = signed_distance(&a.solid(), &b.solid(), &Pose::identity(), &opts).unwrap();
        assert_eq!(got.side, Some(side));
        assert!((got.depth - 0.9).abs() <= tol + 1e-12, "{}", got.depth);
        let deep = if side == Protruding::A {
            got.point_a
        } else {
            got.point_b
        };
        assert!((deep.z.abs() - 0.1).abs() < 1e-12 && deep.x.abs() <= 0.1 + 1e-9);
    }
}

/// A small cube wholly inside a big one: the surfaces are apart, the
/// signed distance is still negative: minus the depth of the small cube's face nearest the big one's centre
/// depth.
#[test]
fn contained_is_negative() {
    let big = Shape::new(cuboid([1.0; 3], [0.0; 3]));
    let small = Shape::new(cuboid([0.25; 3], [0.1, 0.0, 0.0]));
    let got = signed_distance(
        &big.solid(),
        &small.solid(),
        &Pose::identity(),
        &SignedOptions::default(),
    )
    .unwrap();
    assert!(!got.unsigned.intersecting);
    assert!((got.unsigned.distance - 0.65).abs() < 1e-12);
    assert_eq!(got.side, Some(Protruding::B));
    assert!((got.depth - 0.85).abs() <= got.tolerance, "{}", got.depth);
    assert_eq!(got.signed_distance, -got.depth);
}
