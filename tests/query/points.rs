//! Point queries against independent oracles: closest points against the
//! triangle–triangle distance with the point as a degenerate triangle,
//! over every triangle; inside against the parity of a random segment's
//! crossings under exact predicates (`robust::orient3d`), over every
//! triangle, or against the solid's own definition (a cube); the
//! generalized winding number against a plain sum of every triangle's
//! solid angle. Reproducers of the sign failures of other libraries: a
//! sphere with points on its axes, a cube with points whose axis ray runs
//! through edges and corners or along faces, a mesh with a hole, faces
//! duplicated with the opposite orientation.

use bvtool::TriMesh;
use bvtool::query::pair::closest_point_triangle::Feature;
use bvtool::query::pair::distance_triangle_triangle::{rounding_bound, triangle_distance};
use bvtool::query::point::winding::{SIDE_MARGIN, moments, winding_side};
use bvtool::query::point::{PointTree, SignMethod};
use bvtool::tree::AabbTree;
use bvtool_dev::oracle::{brute_distance, brute_winding, parity_inside, triangles};
use bvtool_dev::shapes::{icosphere, mesh, soup, torus};
use nalgebra::Point3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A cube `[0, n]³` with each face cut into `n × n` unit squares, two
/// triangles each, outward; every coordinate an integer.
pub fn grid_cube(n: u32) -> TriMesh {
    let (mut v, mut t) = (Vec::new(), Vec::new());
    for a in 0..3 {
        let (u, w) = ((a + 1) % 3, (a + 2) % 3);
        for side in [0, n] {
            for i in 0..n {
                for j in 0..n {
                    let p = |di: u32, dj: u32| {
                        let mut c = [0.0; 3];
                        c[a] = side as f64;
                        c[u] = (i + di) as f64;
                        c[w] = (j + dj) as f64;
                        Point3::from(c)
                    };
                    let q = [p(0, 0), p(1, 0), p(1, 1), p(0, 1)];
                    let q = if side == n {
                        q
                    } else {
                        [q[0], q[3], q[2], q[1]]
                    };
                    let b = v.len() as u32;
                    v.extend(q);
                    t.push([b, b + 1, b + 2]);
                    t.push([b, b + 2, b + 3]);
                }
            }
        }
    }
    mesh(v, t)
}

fn random_points(n: usize, lo: f64, hi: f64, seed: u64) -> Vec<Point3<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            Point3::new(
                rng.random_range(lo..hi),
                rng.random_range(lo..hi),
                rng.random_range(lo..hi),
            )
        })
        .collect()
}

/// Closest points on open, degenerate and closed meshes against brute
/// force: the distance within the rounding bound, the reported triangle as
/// near, the point on it at that distance, its barycentric coordinates and
/// feature consistent.
#[test]
fn closest_points_equal_brute_force() {
    for (name, m, seed) in [
        ("soup", soup(300, 3), 1),
        ("sphere", icosphere(3), 2),
        ("torus", torus(1.0, 0.3, 24, 12), 3),
    ] {
        let tree = PointTree::build(&m);
        let tris = triangles(&m);
        for (i, p) in random_points(3_000, -1.6, 1.6, seed).iter().enumerate() {
            let want = brute_distance(&tris, p);
            let c = tree.closest(p).unwrap();
            let bound = 2.0 * rounding_bound(2.0);
            assert!(
                (c.distance - want).abs() <= bound,
                "{name} {i}: {} vs {want}",
                c.distance
            );
            assert!((tree.distance(p) - c.distance).abs() <= bound);
            let t = tris[c.triangle as usize];
            let own = triangle_distance(&[*p, *p, *p], &t).distance;
            assert!(
                (own - want).abs() <= bound,
                "{name} {i}: triangle {}",
                c.triangle
            );
            assert!((nalgebra::distance(&c.point, p) - c.distance).abs() <= bound);
            let b = c.barycentric;
            let from_b = t[0].coords * b[0] + t[1].coords * b[1] + t[2].coords * b[2];
            assert!(
                (from_b - c.point.coords).norm() <= 1e-9,
                "{name} {i}: barycentric"
            );
            assert!(b.iter().all(|&x| x >= 0.0) && (b.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            match c.feature {
                Feature::Vertex(k) => assert_eq!(c.point, t[k as usize]),
                Feature::Edge(k) => assert_eq!(b[(k as usize + 2) % 3], 0.0),
                Feature::Face => {}
            }
        }
    }
}

/// A cube cut into unit squares, with points on a half-unit grid: their
/// `+x` rays run through corners, along diagonals and along faces. Inside
/// is the cube's own definition; every sign must match.
#[test]
fn cube_signs_hold_where_rays_graze() {
    let n = 3;
    let tree = PointTree::build(&grid_cube(n));
    assert_eq!(tree.sign_method(), SignMethod::Winding);
    let grid: Vec<f64> = (-2..=2 * n as i32 + 2).map(|k| k as f64 * 0.5).collect();
    let (mut inside, mut total) = (0, 0);
    for &x in &grid {
        for &y in &grid {
            for &z in &grid {
                let p = Point3::new(x, y, z);
                let within = |v: f64| (0.0..=n as f64).contains(&v);
                let on_surface = [x, y, z].iter().all(|&v| within(v))
                    && [x, y, z].iter().any(|&v| v == 0.0 || v == n as f64);
                if on_surface {
                    assert_eq!(tree.signed_distance(&p), 0.0);
                    continue;
                }
                let want = [x, y, z].iter().all(|&v| v > 0.0 && v < n as f64);
                assert_eq!(tree.contains(&p), want, "{p}");
                assert_eq!(tree.winding_number(&p).value, want as u8 as f64, "{p}");
                assert_eq!(tree.signed_distance(&p) < 0.0, want, "{p}");
                inside += want as usize;
                total += 1;
            }
        }
    }
    assert!(inside > 50 && total > inside * 3);
}

/// A sphere: random points and points on its three axes and on the rays
/// through its vertices, against the exact parity of a random segment.
#[test]
fn sphere_signs_equal_exact_parity() {
    let m = icosphere(3);
    let tree = PointTree::build(&m);
    assert_eq!(tree.sign_method(), SignMethod::Winding);
    let tris = triangles(&m);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut points = random_points(3_000, -1.3, 1.3, 4);
    for k in -30..=30 {
        let s = k as f64 * 0.05;
        points.extend([
            Point3::new(s, 0.0, 0.0),
            Point3::new(0.0, s, 0.0),
            Point3::new(0.0, 0.0, s),
        ]);
    }
    for v in m.vertices.iter().step_by(7) {
        points.extend([0.5, 0.999, 1.001, 1.5].map(|s| Point3::from(v.coords * s)));
    }
    let mut inside = 0;
    for p in &points {
        if tree.distance(p) == 0.0 {
            assert_eq!(tree.signed_distance(p), 0.0);
            continue;
        }
        let want = parity_inside(&tris, p, &mut rng);
        assert_eq!(tree.contains(p), want, "{p}");
        assert_eq!(tree.winding_number(p).value, want as u8 as f64, "{p}");
        assert_eq!(tree.signed_distance(p) < 0.0, want, "{p}");
        inside += want as usize;
    }
    assert!(inside > 500);
}

/// A sphere with a hole and a torus cut open: the generalized winding
/// number within its bound of the plain sum, and inside where that sum is
/// above ½. The refined sum that decides the side holds the plain sum
/// within its bound and leaves ½ outside it (or is exact), on trees of
/// leaf size 1 to 8.
#[test]
fn open_meshes_use_the_generalized_winding_number() {
    let mut holed = icosphere(4);
    holed.triangles.truncate(holed.triangles.len() - 40);
    holed.sources.truncate(holed.triangles.len());
    let mut cut = torus(1.0, 0.4, 48, 24);
    cut.triangles.retain(|t| t.iter().all(|&i| i % 24 != 0));
    cut.sources.truncate(cut.triangles.len());
    for (name, m, seed) in [("holed sphere", holed, 5), ("cut torus", cut, 6)] {
        let tree = PointTree::build(&m);
        assert_eq!(tree.sign_method(), SignMethod::Generalized, "{name}");
        let tris = triangles(&m);
        let expansions: Vec<_> = [1, 3, 8]
            .map(|leaf| {
                let aabb = AabbTree::build_with_leaf_size(&m, leaf);
                let m = moments(&aabb);
                (aabb, m)
            })
            .into();
        let (mut inside, mut outside) = (0, 0);
        for p in random_points(2_000, -1.5, 1.5, seed) {
            let want = brute_winding(&tris, &p);
            let w = tree.winding_number(&p);
            assert!(
                (w.value - want).abs() <= w.bound + 1e-9,
                "{name} {p}: {} ± {} vs {want}",
                w.value,
                w.bound
            );
            for (aabb, m) in &expansions {
                let side = winding_side(aabb, m, &p);
                assert!(
                    (side.value - want).abs() <= side.bound + 1e-9,
                    "{name} {p}: side {} ± {} vs {want}",
                    side.value,
                    side.bound
                );
                assert!(side.bound == 0.0 || (side.value - 0.5).abs() > side.bound + SIDE_MARGIN);
            }
            if (want - 0.5).abs() > 1e-6 {
                assert_eq!(tree.contains(&p), want > 0.5, "{name} {p}: {want}");
                inside += (want > 0.5) as usize;
                outside += (want < 0.5) as usize;
            }
        }
        assert!(inside > 100 && outside > 100, "{name}: {inside} {outside}");
    }
}

/// Faces duplicated with the opposite orientation (a cube with four of its
/// triangles there twice more, once reversed, and a two-sided sheet
/// through it): the directed
/// edges still cancel, the winding number is the cube's, and so is every
/// sign — at grid points whose rays run along the sheet's edges too.
/// A cube with one face turned inside out is closed only mod 2: its
/// parity decides.
#[test]
fn duplicated_and_flipped_faces() {
    let n = 2;
    let mut m = grid_cube(n);
    // Four of the cube's faces again, once as they are and once reversed.
    let extra: Vec<[u32; 3]> = m.triangles[..4]
        .iter()
        .flat_map(|t| [*t, [t[0], t[2], t[1]]])
        .collect();
    m.triangles.extend(extra);
    let b = m.vertices.len() as u32;
    m.vertices.extend(
        [
            [1.0, -1.0, -1.0],
            [1.0, 3.0, -1.0],
            [1.0, 3.0, 3.0],
            [1.0, -1.0, 3.0],
        ]
        .map(Point3::from),
    );
    m.triangles.extend([
        [b, b + 1, b + 2],
        [b, b + 2, b + 3],
        [b, b + 2, b + 1],
        [b, b + 3, b + 2],
    ]);
    m.sources = (0..m.triangles.len() as u32)
        .map(|k| bvtool::TriangleSource::unplaced(0, k))
        .collect();
    let mut flipped = grid_cube(n);
    for t in flipped.triangles.iter_mut().take(2 * (n * n) as usize) {
        t.swap(1, 2);
    }
    for (m, method) in [(m, SignMethod::Winding), (flipped, SignMethod::Parity)] {
        let tree = PointTree::build(&m);
        assert_eq!(tree.sign_method(), method);
        let grid: Vec<f64> = (-2..=2 * n as i32 + 2)
            .map(|k| k as f64 * 0.5 + 0.25 * (k % 2) as f64)
            .collect();
        for &x in &grid {
            for &y in &grid {
                for &z in &grid {
                    let p = Point3::new(x, y, z);
                    if tree.distance(&p) == 0.0 {
                        continue;
                    }
                    let want = [x, y, z].iter().all(|&v| v > 0.0 && v < n as f64);
                    assert_eq!(tree.contains(&p), want, "{method:?} {p}");
                }
            }
        }
    }
}
