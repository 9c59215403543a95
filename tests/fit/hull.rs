//! The convex hull against parry3d, exact containment and known shapes.

use bvtool::check::parry;
use bvtool::fit::{ConvexHull, HullError};
use nalgebra::{Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

fn volume_of(v: &[Point3<f64>], f: &[[u32; 3]]) -> f64 {
    f.iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| v[i as usize].coords);
            a.dot(&b.cross(&c))
        })
        .sum::<f64>()
        / 6.0
}

/// Every directed edge appears once and its reverse once: a closed,
/// consistently oriented surface; and V − E + F = 2.
fn assert_closed(h: &ConvexHull) {
    let mut edges = HashMap::new();
    for f in &h.faces {
        for i in 0..3 {
            *edges.entry((f[i], f[(i + 1) % 3])).or_insert(0) += 1;
        }
    }
    for (&(a, b), &n) in &edges {
        assert_eq!(n, 1, "edge {a}->{b} used {n} times");
        assert_eq!(edges.get(&(b, a)), Some(&1), "edge {a}->{b} has no twin");
    }
    let (v, e, f) = (h.vertices.len(), edges.len() / 2, h.faces.len());
    assert_eq!(v + f, e + 2, "Euler characteristic");
}

fn rand_cloud(seed: u64, n: usize) -> Vec<Point3<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| Point3::from(Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0))))
        .collect()
}

#[test]
fn random_cloud_matches_parry_and_contains_every_point() {
    for seed in 0..20 {
        let pts = rand_cloud(seed, 50 + 200 * seed as usize);
        let h = ConvexHull::new(&pts).unwrap();
        assert_eq!(h.dimension, 3);
        assert_closed(&h);
        for p in &pts {
            assert!(h.contains(p), "seed {seed}: {p} outside the hull");
        }
        let (pv, pf) = parry::convex_hull(&pts);
        let parry = volume_of(&pv, &pf);
        let ours = h.volume();
        assert!(
            (ours - parry).abs() <= 1e-5 * parry,
            "seed {seed}: volume {ours} vs parry3d {parry}"
        );
        assert!(h.surface_area() > 0.0);
    }
}

#[test]
fn cube_with_interior_face_and_duplicate_points() {
    let mut pts = rand_cloud(99, 500);
    // Duplicated corners of [-1,1]³.
    for k in 0..16 {
        let s = |b: usize| if k & b == 0 { -1.0 } else { 1.0 };
        pts.push(Point3::new(s(1), s(2), s(4)));
    }
    let h = ConvexHull::new(&pts).unwrap();
    assert_eq!(h.vertices.len(), 8);
    assert_eq!(h.volume(), 8.0);
    assert_eq!(h.surface_area(), 24.0);
    assert_closed(&h);
    // Points on the faces may survive as (non-extreme) vertices of a
    // triangulated facet, but never change the solid.
    pts.extend((0..100).map(|i| {
        let t = i as f64 / 100.0 - 0.5;
        Point3::new(1.0, t, -t * 0.5)
    }));
    pts.rotate_left(400);
    let h = ConvexHull::new(&pts).unwrap();
    assert_eq!(h.volume(), 8.0);
    assert!((h.surface_area() - 24.0).abs() < 1e-12);
    assert_closed(&h);
    assert!(pts.iter().all(|p| h.contains(p)));
}

#[test]
fn degenerate_inputs_are_reported() {
    let tri = [
        Point3::new(0.0, 0.0, 1.0),
        Point3::new(2.0, 0.0, 1.0),
        Point3::new(0.0, 3.0, 1.0),
    ];
    let h = ConvexHull::new(&tri).unwrap();
    assert_eq!((h.dimension, h.vertices.len(), h.volume()), (2, 3, 0.0));
    assert!((h.surface_area() - 6.0).abs() < 1e-12);

    // A flat quad with interior points, tilted.
    let (u, v) = (Vector3::new(0.6, 0.8, 0.0), Vector3::new(0.0, 0.0, 1.0));
    let mut quad: Vec<_> = [
        (0.0, 0.0),
        (4.0, 0.0),
        (4.0, 1.0),
        (0.0, 1.0),
        (1.0, 0.5),
        (2.0, 0.2),
    ]
    .map(|(a, b)| Point3::from(u * a + v * b))
    .to_vec();
    quad.push(quad[1]);
    let h = ConvexHull::new(&quad).unwrap();
    assert_eq!((h.dimension, h.vertices.len(), h.volume()), (2, 4, 0.0));
    assert!((h.surface_area() - 8.0).abs() < 1e-12);

    let line: Vec<_> = (0..10)
        .map(|i| Point3::new(i as f64, 2.0 * i as f64, -1.0))
        .collect();
    let h = ConvexHull::new(&line).unwrap();
    assert_eq!((h.dimension, h.volume(), h.surface_area()), (1, 0.0, 0.0));
    let mut ends = h.vertices.clone();
    ends.sort_by(|a, b| a.x.total_cmp(&b.x));
    assert_eq!(ends, vec![line[0], line[9]]);

    let h = ConvexHull::new(&[Point3::new(1.0, 2.0, 3.0); 5]).unwrap();
    assert_eq!((h.dimension, h.vertices.len()), (0, 1));

    assert_eq!(ConvexHull::new(&[]).unwrap_err(), HullError::Empty);
    let mut bad = rand_cloud(1, 10);
    bad[4].y = f64::NAN;
    assert_eq!(
        ConvexHull::new(&bad).unwrap_err(),
        HullError::NonFinite { index: 4 }
    );
    bad[4].y = 0.0;
    bad[7].z = f64::INFINITY;
    assert_eq!(
        ConvexHull::new(&bad).unwrap_err(),
        HullError::NonFinite { index: 7 }
    );
    // The first of several, in a set read in parallel chunks.
    let mut many = rand_cloud(2, 50_000);
    for i in [49_000, 30_001, 9_000, 12_345] {
        many[i].x = f64::NEG_INFINITY;
    }
    assert_eq!(
        ConvexHull::new(&many).unwrap_err(),
        HullError::NonFinite { index: 9_000 }
    );
}

/// Points exactly on, one ulp outside and one ulp inside the faces of the
/// extreme-point polytope the pre-filter builds (here the cube itself), far
/// from the origin so the floating-point filter sees large coordinates with a
/// small extent: the exact hull must keep every outside point as a vertex
/// and contain every point exactly.
#[test]
fn prefilter_and_float_filter_are_exact_at_the_boundary() {
    // (Not at 0: one ulp below 0 is subnormal, where orient3d itself underflows.)
    // Lattices of 17³ points: enough to run the pre-filter.
    for (offset, side) in [(0.5, 16), (1e6, 16)] {
        let o = Vector3::repeat(offset);
        let mut pts = Vec::new();
        for i in 0..=side {
            for j in 0..=side {
                for k in 0..=side {
                    pts.push(Point3::new(i as f64, j as f64, k as f64) / side as f64 + o);
                }
            }
        }
        let mut outside = Vec::new();
        for axis in 0..3 {
            for (t, s) in [(1.0 + offset, 1.0), (offset, -1.0)] {
                let mut p = Point3::new(0.5, 0.25, 0.75) + o;
                p[axis] = t;
                let mut q = p;
                // One ulp out of and one ulp into the cube face.
                p[axis] = if s > 0.0 { t.next_up() } else { t.next_down() };
                q[axis] = if s > 0.0 { t.next_down() } else { t.next_up() };
                outside.push(p);
                pts.extend([p, q]);
            }
        }
        assert!(pts.len() > 4096, "enough points to run the pre-filter");
        let h = ConvexHull::new(&pts).unwrap();
        assert_closed(&h);
        for p in &pts {
            assert!(h.contains(p), "offset {offset}: {p} outside the hull");
        }
        for p in &outside {
            assert!(h.vertices.contains(p), "offset {offset}: lost extreme {p}");
        }
        let (pv, pf) = parry::convex_hull(&pts);
        let parry = volume_of(&pv, &pf);
        assert!((h.volume() - 1.0).abs() < 1e-6, "volume {}", h.volume());
        assert!(offset > 1.0 || (parry - 1.0).abs() < 1e-5, "parry {parry}");
    }
}

/// Files without shared vertices (STL) repeat each point about six times,
/// and `-0` repeats `0`: the hull of such input, below and above the
/// pre-filter's size, must be the hull of the distinct points, with no
/// vertex twice.
#[test]
fn repeated_points_below_and_above_the_prefilter_size() {
    // Distinct points and copies of each, below and above the pre-filter's
    // 4,096 points.
    for (n, copies) in [(100, 6), (500, 6), (1000, 6)] {
        repeated_points(n, copies);
    }
}

fn repeated_points(n: usize, copies: usize) {
    let distinct = rand_cloud(5, n);
    let reference = ConvexHull::new(&distinct).unwrap();
    let mut pts = Vec::new();
    for copy in 0..copies {
        // Copies interleaved, as a mesh loader gives them.
        pts.extend(distinct.iter().cycle().skip(7 * copy).take(distinct.len()));
    }
    // A point with a negative zero and its positive twin.
    pts.push(Point3::new(1.5, -0.0, 0.0));
    pts.push(Point3::new(1.5, 0.0, -0.0));
    let h = ConvexHull::new(&pts).unwrap();
    assert_closed(&h);
    assert!(pts.iter().all(|p| h.contains(p)));
    let key = |p: &Point3<f64>| [p.x, p.y, p.z].map(|x| (x + 0.0).to_bits());
    let mut keys: Vec<_> = h.vertices.iter().map(key).collect();
    keys.sort_unstable();
    let n = keys.len();
    keys.dedup();
    assert_eq!(keys.len(), n, "a vertex repeated");
    let with_tip = {
        let mut d = distinct.clone();
        d.push(Point3::new(1.5, 0.0, 0.0));
        ConvexHull::new(&d).unwrap()
    };
    assert!((h.volume() - with_tip.volume()).abs() <= 1e-12 * with_tip.volume());
    assert!(h.volume() > reference.volume());
}

/// Points in mesh order — a latitude–longitude sphere (every point strictly
/// convex, so every one a vertex) around a dense grid in raster order that
/// the pre-filter's blocks clear at once: the hull keeps exactly the sphere.
#[test]
fn blocks_of_interior_points_and_a_sphere_in_mesh_order() {
    let mut sphere = Vec::new();
    for i in 0..40 {
        let lat = std::f64::consts::PI * (i as f64 + 0.5) / 40.0;
        for j in 0..40 {
            let lon = std::f64::consts::TAU * j as f64 / 40.0;
            sphere.push(
                Point3::new(lat.sin() * lon.cos(), lat.sin() * lon.sin(), lat.cos()) * 3.0
                    + Vector3::new(7.0, -2.0, 1e3),
            );
        }
    }
    let mut pts = sphere.clone();
    for i in 0..20 {
        for j in 0..20 {
            for k in 0..20 {
                let q =
                    Vector3::new(i as f64, j as f64, k as f64) / 19.0 * 3.4 - Vector3::repeat(1.7);
                pts.push(Point3::from(q + Vector3::new(7.0, -2.0, 1e3)));
            }
        }
    }
    let h = ConvexHull::new(&pts).unwrap();
    assert_closed(&h);
    assert!(pts.iter().all(|p| h.contains(p)));
    let key = |p: &Point3<f64>| [p.x, p.y, p.z].map(f64::to_bits);
    let mut got: Vec<_> = h.vertices.iter().map(key).collect();
    let mut want: Vec<_> = sphere.iter().map(key).collect();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want);
}

/// Coordinates near the top of the `f64` range turn the float filter off
/// (its products would overflow): the exact predicates still decide every
/// side, with the pre-filter's blocks and the farthest-point bookkeeping
/// fed infinite or NaN heights.
#[test]
fn huge_coordinates_above_the_prefilter_size() {
    for scale in [1e100, 1e300] {
        let pts: Vec<_> = rand_cloud(11, 5000).iter().map(|p| p * scale).collect();
        let h = ConvexHull::new(&pts).unwrap();
        assert_eq!(h.dimension, 3, "scale {scale}");
        assert_closed(&h);
        assert!(pts.iter().all(|p| h.contains(p)), "scale {scale}");
    }
}

/// The first simplex comes from the six axis-extreme points when they span
/// a volume, and from all points when they do not: here every extreme lies
/// exactly on one tilted plane (a regular hexagon on x + y + z = 0, side
/// 3√2) and the only points off it are bumps inside its outline, on both
/// sides. The hull is the double pyramid, exactly (volume 27√3 · 0.5√3 / 3
/// = 13.5), and holds every point; repeated and interior points change
/// nothing.
#[test]
fn simplex_beyond_coplanar_axis_extremes() {
    let hexagon = [
        [3.0, -3.0, 0.0],
        [3.0, 0.0, -3.0],
        [0.0, 3.0, -3.0],
        [-3.0, 3.0, 0.0],
        [-3.0, 0.0, 3.0],
        [0.0, -3.0, 3.0],
    ]
    .map(Point3::from);
    let (up, down) = (Point3::new(0.2, 0.2, 0.2), Point3::new(-0.3, -0.3, -0.3));
    let (u, v, n) = (
        Vector3::new(1.0, -1.0, 0.0),
        Vector3::new(1.0, 1.0, -2.0),
        Vector3::new(1.0, 1.0, 1.0),
    );
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut pts = hexagon.to_vec();
    // Inside the hexagon, well within the double pyramid.
    pts.extend((0..200).map(|_| {
        let mut c = || rng.random_range(-0.3..0.3);
        Point3::from(c() * u + c() * v + 0.1 * c() * n)
    }));
    pts.extend([up, down, up, hexagon[2]]);
    let h = ConvexHull::new(&pts).unwrap();
    assert_eq!(h.dimension, 3);
    assert_closed(&h);
    assert_eq!(h.vertices.len(), 8, "{:?}", h.vertices);
    for p in &pts {
        assert!(h.contains(p), "{p} outside the hull");
    }
    assert!((h.volume() - 13.5).abs() <= 1e-12, "{}", h.volume());
}
