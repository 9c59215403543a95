//! Shortfall — the largest distance from a point of a mesh to the shape
//! meant to bound it — against independent oracles:
//! - one convex shape (box, sphere, capsule, cylinder, hull): the largest
//!   over the mesh's vertices of the distance from the vertex to the shape
//!   by the convex signed distance (a branch and bound over directions,
//!   another algorithm), which is the exact answer for a convex shape;
//! - a union of boxes (a decomposition's case): the largest distance over
//!   a dense barycentric grid on every triangle, each point's distance to
//!   the union by closed form (the clamp in each box's frame), must lie
//!   below the reported upper bound, and the reported point's distance
//!   must equal the reported shortfall.

use bvtool::Pose;
use bvtool::fit::surface::Surface;
use bvtool::fit::{Capsule, ConvexHull, Cylinder, Obb, Sphere};
use bvtool::query::convex::{Convex, ConvexOptions, signed_distance};
use bvtool::query::{AirOptions, shortfall};
use nalgebra::{Point3, Quaternion, UnitQuaternion, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rotation(rng: &mut ChaCha8Rng) -> nalgebra::Matrix3<f64> {
    *UnitQuaternion::from_quaternion(Quaternion::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    ))
    .to_rotation_matrix()
    .matrix()
}

fn point(rng: &mut ChaCha8Rng, reach: f64) -> Point3<f64> {
    Point3::new(
        rng.random_range(-reach..reach),
        rng.random_range(-reach..reach),
        rng.random_range(-reach..reach),
    )
}

/// A triangle soup of `n` triangles with corners in the cube of half side
/// `reach`.
fn soup(rng: &mut ChaCha8Rng, n: usize, reach: f64) -> Vec<[Point3<f64>; 3]> {
    (0..n)
        .map(|_| [0, 1, 2].map(|_| point(rng, reach)))
        .collect()
}

fn opts(tolerance: f64) -> AirOptions {
    AirOptions {
        tolerance,
        max_samples: 200_000,
    }
}

/// The distance from `p` to `shape` by the convex signed distance of the
/// shape and the point (0 inside).
fn convex_distance(shape: &Convex, p: &Point3<f64>) -> f64 {
    let point = Convex::hull(vec![*p]).expect("a point");
    let d = signed_distance(shape, &point, &Pose::identity(), &ConvexOptions::default())
        .expect("not empty");
    d.signed_distance.max(0.0)
}

#[test]
fn one_convex_shape_equals_the_largest_vertex_distance() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    for round in 0..60 {
        let mesh = soup(&mut rng, 6, 1.5);
        let r = rng.random_range(0.2..1.2);
        let center = point(&mut rng, 0.3);
        let axis = rotation(&mut rng).column(0).into_owned();
        let (surface, shape) = match round % 5 {
            0 => {
                let b = Obb {
                    center,
                    axes: rotation(&mut rng),
                    half_extents: Vector3::new(r, 0.7 * r, 1.3 * r),
                };
                (Surface::obb(&b), Convex::from(&b))
            }
            1 => {
                let s = Sphere { center, radius: r };
                (Surface::sphere(&s), Convex::from(&s))
            }
            2 => {
                let c = Capsule {
                    center,
                    axis,
                    radius: 0.5 * r,
                    half_length: r,
                };
                (Surface::capsule(&c), Convex::from(&c))
            }
            3 => {
                let c = Cylinder {
                    center,
                    axis,
                    radius: 0.6 * r,
                    half_height: r,
                };
                (Surface::cylinder(&c), Convex::from(&c))
            }
            _ => {
                let pts: Vec<Point3<f64>> = (0..12).map(|_| point(&mut rng, r)).collect();
                let h = ConvexHull::new(&pts).expect("a hull");
                let faces: Vec<Vec<u32>> = h.faces.iter().map(|f| f.to_vec()).collect();
                (
                    Surface::polytope(&h.vertices, &faces),
                    Convex::hull(h.vertices.clone()).expect("points"),
                )
            }
        };
        let s = shortfall(&mesh, &[surface], &opts(1e-9));
        let truth = mesh
            .iter()
            .flatten()
            .map(|p| convex_distance(&shape, p))
            .fold(0.0, f64::max);
        assert!(
            (s.shortfall - truth).abs() <= 1e-9 && s.bound <= 1e-12,
            "round {round}: {} +{} against {truth}",
            s.shortfall,
            s.bound
        );
        // One convex shape: every triangle measured once, none split.
        assert_eq!(s.samples, mesh.len(), "round {round}");
        let at = Point3::from(s.point.expect("measured"));
        assert!((convex_distance(&shape, &at) - s.shortfall).abs() <= 1e-9);
    }
}

/// Budget hulls and k-DOPs of a point cloud, whose faces are polygons
/// split into fans (planar only up to rounding), against the mesh of the
/// cloud's hull: the shortfall is that of the cloud's points, 0 up to
/// rounding, as the oracle says.
#[test]
fn fanned_polytopes_hold_what_they_were_fitted_to() {
    use bvtool::fit::{FittedShape, KdopKind, ShapeFitter, ShapeSpec};
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for round in 0..12 {
        let points: Vec<Point3<f64>> = (0..300)
            .map(|_| {
                let p = point(&mut rng, 1.0);
                Point3::new(3.0 * p.x, p.y, 0.5 * p.z)
            })
            .collect();
        let hull = ConvexHull::new(&points).expect("a hull");
        let fitter = ShapeFitter::new(&hull.vertices, &hull);
        let spec = match round % 3 {
            0 => ShapeSpec::Hull(Some(16)),
            1 => ShapeSpec::Hull(Some(64)),
            _ => ShapeSpec::Kdop {
                kind: KdopKind::K26,
                oriented: false,
            },
        };
        let shape = fitter.fit(spec).expect("a fit");
        let convex = match &shape {
            FittedShape::Hull(h) => Convex::from(h),
            FittedShape::Kdop(k) => Convex::from(k),
            _ => unreachable!(),
        };
        let mesh: Vec<[Point3<f64>; 3]> = hull
            .faces
            .iter()
            .map(|f| f.map(|i| hull.vertices[i as usize]))
            .collect();
        let s = shortfall(&mesh, &shape.surfaces(), &opts(1e-9));
        let truth = hull
            .vertices
            .iter()
            .map(|p| convex_distance(&convex, p))
            .fold(0.0, f64::max);
        assert!(
            (s.shortfall - truth).abs() <= 1e-12 && s.bound <= 1e-12,
            "round {round}: {s:?} against {truth}"
        );
    }
}

#[test]
fn a_union_of_boxes_is_bracketed_by_a_dense_grid() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let tolerance = 1e-3;
    for round in 0..20 {
        let mesh = soup(&mut rng, 4, 1.2);
        let boxes: Vec<Obb> = (0..3)
            .map(|_| Obb {
                center: point(&mut rng, 0.6),
                axes: rotation(&mut rng),
                half_extents: Vector3::new(
                    rng.random_range(0.2..0.8),
                    rng.random_range(0.2..0.8),
                    rng.random_range(0.2..0.8),
                ),
            })
            .collect();
        // The closed form: the clamp of the point in each box's frame.
        let union = |p: &Point3<f64>| {
            boxes
                .iter()
                .map(|b| {
                    let local = b.axes.transpose() * (p - b.center);
                    let out = local.abs() - b.half_extents;
                    out.sup(&Vector3::zeros()).norm()
                })
                .fold(f64::INFINITY, f64::min)
        };
        let surfaces: Vec<Surface> = boxes.iter().map(Surface::obb).collect();
        let s = shortfall(&mesh, &surfaces, &opts(tolerance));
        assert!(
            s.bound <= tolerance * 1.01,
            "round {round}: bound {}",
            s.bound
        );
        let at = Point3::from(s.point.expect("measured"));
        assert!(
            (union(&at) - s.shortfall).abs() <= 1e-12,
            "round {round}: the point's distance {} against {}",
            union(&at),
            s.shortfall
        );
        let n = 60;
        let mut dense = 0.0f64;
        for t in &mesh {
            for i in 0..=n {
                for j in 0..=n - i {
                    let (u, v) = (i as f64 / n as f64, j as f64 / n as f64);
                    let p = t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v;
                    dense = dense.max(union(&p));
                }
            }
        }
        assert!(
            dense <= s.shortfall + s.bound + 1e-12,
            "round {round}: a grid point {dense} beyond {} + {}",
            s.shortfall,
            s.bound
        );
    }
}

#[test]
fn a_mesh_inside_falls_short_by_nothing() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mesh = soup(&mut rng, 50, 0.5);
    let b = Obb {
        center: Point3::origin(),
        axes: nalgebra::Matrix3::identity(),
        half_extents: Vector3::new(0.5, 0.5, 0.5),
    };
    let s = shortfall(&mesh, &[Surface::obb(&b)], &opts(1e-6));
    assert_eq!(s.shortfall, 0.0);
    // Nothing to measure: 0 and no point.
    let none = shortfall(&[], &[Surface::obb(&b)], &opts(1e-6));
    assert_eq!((none.shortfall, none.bound, none.point), (0.0, 0.0, None));
}

#[test]
fn the_search_stops_at_its_budget_with_an_honest_bound() {
    // Two boxes side by side with a gap the mesh crosses: the union's
    // distance is not convex there, so the search must split.
    let boxes = [-0.6, 0.6].map(|x| Obb {
        center: Point3::new(x, 0.0, 0.0),
        axes: nalgebra::Matrix3::identity(),
        half_extents: Vector3::new(0.5, 0.5, 0.5),
    });
    let mesh = [[
        Point3::new(-0.9, -0.1, 0.0),
        Point3::new(0.9, -0.1, 0.0),
        Point3::new(0.0, 0.1, 0.0),
    ]];
    let surfaces: Vec<Surface> = boxes.iter().map(Surface::obb).collect();
    // The gap is 0.2 wide: its middle is 0.1 from both boxes.
    let exact = shortfall(&mesh, &surfaces, &opts(1e-9));
    assert!((exact.shortfall - 0.1).abs() <= 1e-9, "{exact:?}");
    assert!(exact.samples > 1);
    let cut = shortfall(
        &mesh,
        &surfaces,
        &AirOptions {
            tolerance: 1e-12,
            max_samples: 3,
        },
    );
    // The triangle, then pieces two at a time up to the budget.
    assert!(cut.samples <= 1 + 3 + 1);
    assert!(cut.shortfall <= 0.1 + 1e-12 && 0.1 <= cut.shortfall + cut.bound);
}
