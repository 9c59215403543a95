//! Contacts per triangle pair and patches per contact plane, against
//! closed forms (a box sunk into a box and a box sunk over a smaller one:
//! one patch, the face normal, the sinking depth, the footprint's square)
//! and, for random crossing triangle pairs, the points checked to lie on
//! both triangles with the segment no longer than their meeting, and the
//! depth equal to the least reach across the two planes by brute force.

use bvtool::query::contact::{patches, triangle_contact};
use bvtool::query::distance_point_mesh::point_triangle;
use bvtool::query::pair::intersect_triangle_triangle::triangles_intersect;
use bvtool::tree::ObbTree;
use bvtool::{Pose, TriMesh, query};
use bvtool_dev::shapes;
use nalgebra::{Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An axis-aligned box of half extents `h` about `c`.
fn cuboid(c: [f64; 3], h: [f64; 3]) -> TriMesh {
    let v = (0..8)
        .map(|k| {
            Point3::from(std::array::from_fn::<f64, 3, _>(|a| {
                c[a] + if (k >> a) & 1 == 1 { h[a] } else { -h[a] }
            }))
        })
        .collect();
    shapes::mesh(v, shapes::cube_triangles())
}

/// The patches of `a` against `b` placed by `t`.
fn contact_patches(a: &TriMesh, b: &TriMesh, t: Vector3<f64>) -> Vec<query::contact::ContactPatch> {
    let (ta, tb) = (ObbTree::build(a), ObbTree::build(b));
    let pose = Pose {
        rotation: Default::default(),
        translation: t,
    };
    let found = query::collide(&ta, &tb, &pose, query::ContactMode::All);
    let contacts: Vec<_> = found
        .pairs
        .iter()
        .map(|&(i, j)| {
            let tb = b.triangle(j as usize).map(|v| pose.transform_point(&v));
            triangle_contact(&a.triangle(i as usize), &tb).expect("not degenerate")
        })
        .collect();
    patches(&contacts, 4.0)
}

/// `polygon` has the four corners `(x ± hx, y ± hy, z)`.
fn is_rectangle(polygon: &[Point3<f64>], (x, y, z): (f64, f64, f64), (hx, hy): (f64, f64)) {
    assert_eq!(polygon.len(), 4, "{polygon:?}");
    for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
        let corner = Point3::new(x + sx * hx, y + sy * hy, z);
        assert!(
            polygon.iter().any(|p| (p - corner).norm() < 1e-12),
            "{corner} not in {polygon:?}"
        );
    }
}

#[test]
fn a_box_sunk_into_a_box_is_one_patch() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let a = cuboid([0.0; 3], [1.0; 3]);
    for _ in 0..40 {
        let (hx, hy) = (rng.random_range(0.1..0.4), rng.random_range(0.1..0.4));
        let b = cuboid([0.0; 3], [hx, hy, 0.5]);
        let (x, y) = (rng.random_range(-0.5..0.5), rng.random_range(-0.5..0.5));
        // Shallower than B's sides stand from A's edges (at least 0.1):
        // deeper, the pairs at a side take the side's plane (module docs).
        let sink = rng.random_range(0.01..0.099);
        let found = contact_patches(&a, &b, Vector3::new(x, y, 1.5 - sink));
        assert_eq!(found.len(), 1, "{found:?}");
        let p = &found[0];
        assert!((p.normal - Vector3::z()).norm() < 1e-12, "{p:?}");
        assert!((p.depth - sink).abs() < 1e-12, "{p:?} against {sink}");
        is_rectangle(&p.polygon, (x, y, 1.0), (hx, hy));
    }
}

/// Sunk deeper than a side of B stands from A's edge, the pairs at that
/// side take the side's plane: moving B sideways parts those triangles.
#[test]
fn a_deep_box_near_an_edge_gets_a_side_patch() {
    let a = cuboid([0.0; 3], [1.0; 3]);
    let b = cuboid([0.0; 3], [0.25, 0.25, 0.5]);
    // B's side x = 0.45 + 0.25 stands 0.3 from A's edge x = 1; sunk 0.4.
    let found = contact_patches(&a, &b, Vector3::new(0.45, 0.0, 1.1));
    assert_eq!(found.len(), 2, "{found:?}");
    assert!((found[0].normal - Vector3::z()).norm() < 1e-12);
    assert!((found[0].depth - 0.4).abs() < 1e-12);
    let side = &found[1];
    assert!((side.normal - Vector3::x()).norm() < 1e-12, "{side:?}");
    assert!((side.depth - 0.3).abs() < 1e-12, "{side:?}");
}

#[test]
fn a_box_sunk_over_a_smaller_box_is_one_patch() {
    // B overhangs A: A's sides cross B's bottom; the normal is B's face's,
    // turned to push B up, and the patch is A's footprint at B's bottom.
    let a = cuboid([0.0; 3], [0.3, 0.2, 1.0]);
    let b = cuboid([0.0; 3], [1.0; 3]);
    // (Shallower than 0.6, how far B's bottom reaches past A's nearest side.)
    for sink in [0.05, 0.2, 0.55] {
        let found = contact_patches(&a, &b, Vector3::new(0.1, -0.1, 2.0 - sink));
        assert_eq!(found.len(), 1, "{found:?}");
        let p = &found[0];
        assert!((p.normal - Vector3::z()).norm() < 1e-12, "{p:?}");
        assert!((p.depth - sink).abs() < 1e-12, "{p:?}");
        is_rectangle(&p.polygon, (0.0, 0.0, 1.0 - sink), (0.3, 0.2));
    }
}

#[test]
fn a_box_resting_on_a_box_touches_over_its_face() {
    let a = cuboid([0.0; 3], [1.0; 3]);
    let b = cuboid([0.0; 3], [0.25, 0.25, 0.5]);
    let found = contact_patches(&a, &b, Vector3::new(0.5, 0.25, 1.5));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].depth, 0.0);
    assert!((found[0].normal - Vector3::z()).norm() < 1e-12);
    is_rectangle(&found[0].polygon, (0.5, 0.25, 1.0), (0.25, 0.25));
}

/// How far `t`'s smaller side reaches across the plane of `p`, brute force.
fn least_reach(t: &[Point3<f64>; 3], p: &[Point3<f64>; 3]) -> f64 {
    let n = (p[1] - p[0]).cross(&(p[2] - p[0])).normalize();
    let d = t.map(|c| (c - p[0]).dot(&n));
    let above = d.iter().fold(0.0f64, |m, &x| m.max(x));
    let below = d.iter().fold(0.0f64, |m, &x| m.max(-x));
    above.min(below)
}

#[test]
fn random_crossing_pairs_meet_where_the_points_say() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut crossing = 0;
    for _ in 0..3000 {
        let mut tri = || {
            [0, 1, 2].map(|_| {
                Point3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                )
            })
        };
        let (a, b) = (tri(), tri());
        if !triangles_intersect(&a, &b) {
            continue;
        }
        crossing += 1;
        let c = triangle_contact(&a, &b).expect("not degenerate");
        let want = least_reach(&b, &a).min(least_reach(&a, &b));
        assert!((c.depth - want).abs() < 1e-12, "{c:?} against {want}");
        assert!((c.normal.norm() - 1.0).abs() < 1e-12);
        // Moving B by the depth along the normal leaves nothing across the
        // contact plane: every corner of B at or beyond it, within rounding.
        let moved = b.map(|p| p + c.normal * c.depth);
        assert!(
            moved
                .iter()
                .all(|p| c.normal.dot(&p.coords) >= c.offset - 1e-12)
                || a.iter()
                    .all(|p| c.normal.dot(&p.coords) <= c.offset + 1e-12),
            "{c:?}"
        );
        // The points lie on both triangles, and the segment reaches the
        // ends of the meeting: a step beyond either end leaves one of them.
        assert!(!c.points.is_empty() && c.points.len() <= 2, "{c:?}");
        for p in &c.points {
            assert!(point_triangle(p, &a) < 1e-12 && point_triangle(p, &b) < 1e-12);
        }
        if let [p, q] = c.points[..] {
            let step = (q - p).normalize() * 1e-7;
            for beyond in [q + step, p - step] {
                assert!(
                    point_triangle(&beyond, &a) > 1e-10 || point_triangle(&beyond, &b) > 1e-10,
                    "{c:?}"
                );
            }
        }
    }
    assert!(crossing > 200, "{crossing} crossing pairs");
}

#[test]
fn coplanar_triangles_touch_over_their_overlap() {
    let a = [
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(2.0, 0.0, 0.0),
        Point3::new(0.0, 2.0, 0.0),
    ];
    let b = [
        Point3::new(0.5, 0.5, 0.0),
        Point3::new(-1.0, 0.5, 0.0),
        Point3::new(0.5, -1.0, 0.0),
    ];
    let c = triangle_contact(&a, &b).unwrap();
    assert_eq!(c.depth, 0.0);
    assert_eq!(c.normal, Vector3::z());
    // The overlap is the square [0, 0.5]² less nothing: B's right angle at
    // (0.5, 0.5) and its legs cross A's legs at (0, 0.5) and (0.5, 0).
    let hull = patches(&[c], 2.0).remove(0).polygon;
    is_rectangle(&hull, (0.25, 0.25, 0.0), (0.25, 0.25));
}
