//! The convex signed distance and penetration depth against independent
//! oracles:
//! - overlapping polytopes: the brute-force search over the Minkowski
//!   difference's facet normals (every face normal of A, every negated face
//!   normal of B, every cross product of an edge of A with an edge of B),
//!   the least support value among them being the exact depth;
//! - apart polytopes: the exact distance between their hulls' meshes;
//! - B moved along the reported normal by the depth (plus a hair) must be
//!   apart from A and within the hair of it, by the exact mesh distance:
//!   the normal is a true separating direction and the depth no longer
//!   than needed;
//! - spheres, capsules and boxes: closed forms (point and segment
//!   distances);
//! - cylinders: sandwiched between the inscribed and circumscribed prisms
//!   (the depth is monotone in the shapes).

use bvtool::fit::{Capsule, ConvexHull, Cylinder, Obb, Sphere};
use bvtool::query::convex::{Convex, ConvexDistance, ConvexOptions, signed_distance};
use bvtool::query::{DistanceOptions, distance};
use bvtool::tree::ObbTree;
use bvtool::{Pose, TriMesh};
use nalgebra::{Matrix3, Point3, Quaternion, UnitQuaternion, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rotation(rng: &mut ChaCha8Rng) -> UnitQuaternion<f64> {
    UnitQuaternion::from_quaternion(Quaternion::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    ))
}

fn pose(rng: &mut ChaCha8Rng, reach: f64) -> Pose {
    let dir = Vector3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    );
    Pose {
        rotation: rotation(rng),
        translation: dir * reach,
    }
}

/// A polytope's points with its hull's faces' planes (outward unit normal,
/// offset) and edges; a segment's one edge; a point's none.
struct Poly {
    points: Vec<Point3<f64>>,
    planes: Vec<(Vector3<f64>, f64)>,
    edges: Vec<Vector3<f64>>,
    mesh: Option<TriMesh>,
}

impl Poly {
    fn new(points: Vec<Point3<f64>>) -> Poly {
        let hull = ConvexHull::new(&points).unwrap();
        let v = &hull.vertices;
        let mut planes = vec![];
        let mut edges = vec![];
        let mut seen = std::collections::HashSet::new();
        for f in &hull.faces {
            let [a, b, c] = f.map(|i| v[i as usize]);
            let n = (b - a).cross(&(c - a)).normalize();
            planes.push((n, n.dot(&a.coords)));
            for (i, j) in [(f[0], f[1]), (f[1], f[2]), (f[2], f[0])] {
                if seen.insert((i.min(j), i.max(j))) {
                    edges.push(v[j as usize] - v[i as usize]);
                }
            }
        }
        if hull.dimension == 1 {
            edges.push(v[1] - v[0]);
        }
        let mesh = (hull.dimension == 3).then(|| TriMesh::unplaced(v.clone(), hull.faces.clone()));
        Poly {
            points: hull.vertices.clone(),
            planes,
            edges,
            mesh,
        }
    }

    fn placed(&self, pose: &Pose) -> Poly {
        Poly::new(
            self.points
                .iter()
                .map(|p| pose.transform_point(p))
                .collect(),
        )
    }

    fn support(&self, u: &Vector3<f64>) -> f64 {
        self.points
            .iter()
            .map(|p| p.coords.dot(u))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// How far `p` is outside (positive) or inside (negative) the solid.
    fn outside(&self, p: &Point3<f64>) -> f64 {
        self.planes
            .iter()
            .map(|(n, d)| n.dot(&p.coords) - d)
            .fold(f64::NEG_INFINITY, f64::max)
    }
}

/// The least support value of `A − B` over the candidate facet normals:
/// the exact penetration depth when positive.
fn brute_depth(a: &Poly, b: &Poly) -> f64 {
    let h = |u: &Vector3<f64>| a.support(u) + b.support(&-u);
    let mut best = f64::INFINITY;
    for (n, _) in &a.planes {
        best = best.min(h(n));
    }
    for (n, _) in &b.planes {
        best = best.min(h(&-n));
    }
    for ea in &a.edges {
        for eb in &b.edges {
            if let Some(u) = ea.cross(eb).try_normalize(1e-12 * ea.norm() * eb.norm()) {
                best = best.min(h(&u)).min(h(&-u));
            }
        }
    }
    best
}

fn exact_distance(a: &Poly, b: &Poly) -> f64 {
    let ta = ObbTree::build(a.mesh.as_ref().unwrap());
    let tb = ObbTree::build(b.mesh.as_ref().unwrap());
    distance(&ta, &tb, &Pose::identity(), &DistanceOptions::default())
        .unwrap()
        .distance
}

fn scale(a: &Poly, b: &Poly) -> f64 {
    let m = |p: &Poly| p.points.iter().map(|q| q.coords.amax()).fold(0.0, f64::max);
    m(a) + m(b)
}

/// Checks one polytope pair's answer against the oracles; returns whether
/// the pair overlapped.
fn check_polytopes(a: &Poly, b_local: &Poly, pose: &Pose, d: &ConvexDistance) -> bool {
    let b = b_local.placed(pose);
    let s = scale(a, &b);
    let slack = 1e-12 * s;
    assert!(!d.capped, "capped after {} cells", d.cells);
    assert!(d.bound <= d.tolerance);
    assert!((d.point_b - d.point_a - d.normal * d.signed_distance).norm() <= slack);
    let tau = 2e-9 * s;
    for (p, poly) in [(&d.point_a, a), (&d.point_b, &b)] {
        let out = poly.outside(p);
        assert!(
            out <= tau && out >= -tau,
            "witness {out} from the surface: {d:?}\nA {:?}\nB {:?}",
            a.points,
            b.points
        );
    }
    for p in &d.patch {
        assert!(a.outside(p).abs() <= tau, "patch corner off A's surface");
    }
    let depth = brute_depth(a, &b);
    if depth > slack {
        // Overlapping: the true signed distance is −depth.
        assert!(
            -depth >= d.signed_distance - slack && -depth <= d.signed_distance + d.bound + slack,
            "depth {depth} against {d:?}"
        );
        // B moved by the depth and a hair along the normal is apart, by at most the hair.
        let hair = 1e-7 * s;
        let moved = Pose {
            rotation: UnitQuaternion::identity(),
            translation: d.normal * (d.depth() + hair),
        };
        let gap = exact_distance(a, &b.placed(&moved));
        assert!(
            gap > 0.0 && gap <= hair * (1.0 + 1e-6) + d.bound,
            "gap {gap} after moving by the depth"
        );
        true
    } else {
        let exact = exact_distance(a, &b);
        assert!(
            exact >= d.signed_distance - slack && exact <= d.signed_distance + d.bound + slack,
            "distance {exact} against {d:?}"
        );
        false
    }
}

fn random_points(rng: &mut ChaCha8Rng, n: usize) -> Vec<Point3<f64>> {
    let half = Vector3::new(
        rng.random_range(0.2..2.0),
        rng.random_range(0.2..2.0),
        rng.random_range(0.2..2.0),
    );
    (0..n)
        .map(|_| {
            Point3::new(
                rng.random_range(-half.x..half.x),
                rng.random_range(-half.y..half.y),
                rng.random_range(-half.z..half.z),
            )
        })
        .collect()
}

#[test]
fn polytopes_equal_the_minkowski_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(37);
    let (mut overlapping, mut apart) = (0, 0);
    for k in 0..300 {
        let a = Poly::new(random_points(&mut rng, 4 + k % 20));
        let b = Poly::new(random_points(&mut rng, 4 + (k * 7) % 20));
        let reach = rng.random_range(0.0..1.5);
        let pose = pose(&mut rng, reach);
        let d = signed_distance(
            &Convex::hull(a.points.clone()).unwrap(),
            &Convex::hull(b.points.clone()).unwrap(),
            &pose,
            &ConvexOptions::default(),
        )
        .unwrap();
        if check_polytopes(&a, &b, &pose, &d) {
            overlapping += 1;
        } else {
            apart += 1;
        }
    }
    assert!(
        overlapping >= 100 && apart >= 30,
        "{overlapping} overlapping, {apart} apart"
    );
}

fn random_obb(rng: &mut ChaCha8Rng) -> Obb {
    Obb {
        center: Point3::new(
            rng.random_range(-0.3..0.3),
            rng.random_range(-0.3..0.3),
            0.0,
        ),
        axes: *rotation(rng).to_rotation_matrix().matrix(),
        half_extents: Vector3::new(
            rng.random_range(0.1..1.5),
            rng.random_range(0.1..1.5),
            rng.random_range(0.1..1.5),
        ),
    }
}

fn obb_corners(b: &Obb) -> Vec<Point3<f64>> {
    (0..8)
        .map(|i| {
            let s = Vector3::from_fn(|k, _| if (i >> k) & 1 == 1 { 1.0 } else { -1.0 });
            b.center + b.axes * s.component_mul(&b.half_extents)
        })
        .collect()
}

#[test]
fn boxes_equal_the_brute_force_and_face_contacts_give_square_patches() {
    let mut rng = ChaCha8Rng::seed_from_u64(38);
    for _ in 0..300 {
        let (a, b) = (random_obb(&mut rng), random_obb(&mut rng));
        let reach = rng.random_range(0.0..1.5);
        let pose = pose(&mut rng, reach);
        let d = signed_distance(
            &Convex::from(&a),
            &Convex::from(&b),
            &pose,
            &ConvexOptions::default(),
        )
        .unwrap();
        check_polytopes(
            &Poly::new(obb_corners(&a)),
            &Poly::new(obb_corners(&b)),
            &pose,
            &d,
        );
    }
    // Axis-aligned cubes of side 2, one shifted (0.5, 0.5, 1.8): face on face,
    // depth 0.2 along z, the patch the 1.5 × 1.5 square of the overlap.
    let cube = Obb {
        center: Point3::origin(),
        axes: Matrix3::identity(),
        half_extents: Vector3::repeat(1.0),
    };
    let shift = Pose {
        rotation: UnitQuaternion::identity(),
        translation: Vector3::new(0.5, 0.5, 1.8),
    };
    let c = Convex::from(&cube);
    let d = signed_distance(&c, &c, &shift, &ConvexOptions::default()).unwrap();
    assert!((d.signed_distance + 0.2).abs() <= 1e-12, "{d:?}");
    assert!((d.normal - Vector3::z()).norm() <= 1e-9);
    assert_eq!(d.patch.len(), 4);
    for p in &d.patch {
        let within = |x: f64| (-0.5 - 1e-8..=1.0 + 1e-8).contains(&x);
        assert!(
            (p.z - 1.0).abs() <= 1e-9 && within(p.x) && within(p.y),
            "{p}"
        );
    }
    assert!(
        (d.point_a - Point3::new(0.25, 0.25, 1.0)).norm() <= 1e-8,
        "{:?}",
        d.point_a
    );
}

/// The closest points of segments `p0 p1` and `q0 q1` (Ericson's clamped
/// solution, with the degenerate cases), as their distance.
fn segment_distance(p0: Point3<f64>, p1: Point3<f64>, q0: Point3<f64>, q1: Point3<f64>) -> f64 {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let (c, b) = (d1.dot(&r), d1.dot(&d2));
    let denom = a * e - b * b;
    let mut s = if denom > 1e-14 * a * e {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    ((p0 + d1 * s) - (q0 + d2 * t)).norm()
}

#[test]
fn spheres_and_capsules_equal_their_closed_forms() {
    let mut rng = ChaCha8Rng::seed_from_u64(39);
    let opts = ConvexOptions::default();
    for _ in 0..300 {
        let (ra, rb) = (rng.random_range(0.1..1.0), rng.random_range(0.1..1.0));
        let sa = Sphere {
            center: Point3::new(0.1, -0.2, 0.3),
            radius: ra,
        };
        let sb = Sphere {
            center: Point3::new(-0.2, 0.0, 0.1),
            radius: rb,
        };
        let reach = rng.random_range(0.0..2.0);
        let pose = pose(&mut rng, reach);
        let d = signed_distance(&Convex::from(&sa), &Convex::from(&sb), &pose, &opts).unwrap();
        let want = (pose.transform_point(&sb.center) - sa.center).norm() - ra - rb;
        assert!(
            (d.signed_distance - want).abs() <= 1e-11,
            "{} against {want}",
            d.signed_distance
        );

        let cap = |rng: &mut ChaCha8Rng| Capsule {
            center: Point3::new(rng.random_range(-0.2..0.2), 0.0, 0.0),
            axis: rotation(rng) * Vector3::z(),
            radius: rng.random_range(0.05..0.6),
            half_length: rng.random_range(0.0..1.5),
        };
        let (ca, cb) = (cap(&mut rng), cap(&mut rng));
        let d = signed_distance(&Convex::from(&ca), &Convex::from(&cb), &pose, &opts).unwrap();
        let ends = |c: &Capsule, p: &Pose| {
            (
                p.transform_point(&(c.center - c.axis * c.half_length)),
                p.transform_point(&(c.center + c.axis * c.half_length)),
            )
        };
        let ((p0, p1), (q0, q1)) = (ends(&ca, &Pose::identity()), ends(&cb, &pose));
        let want = segment_distance(p0, p1, q0, q1) - ca.radius - cb.radius;
        assert!(
            want >= d.signed_distance - 1e-12 && want <= d.signed_distance + d.bound + 1e-12,
            "capsules {} against {want}",
            d.signed_distance
        );
        assert!((d.point_b - d.point_a - d.normal * d.signed_distance).norm() <= 1e-12);

        // A sphere against a box: the centre's distance to the box, or
        // minus its depth below the nearest face, less the radius.
        let b = random_obb(&mut rng);
        let d = signed_distance(&Convex::from(&b), &Convex::from(&sb), &pose, &opts).unwrap();
        let local = b.axes.transpose() * (pose.transform_point(&sb.center) - b.center);
        let over = local.abs() - b.half_extents;
        let want = if over.max() > 0.0 {
            over.map(|x| x.max(0.0)).norm()
        } else {
            over.max()
        } - rb;
        assert!(
            want >= d.signed_distance - 1e-12 && want <= d.signed_distance + d.bound + 1e-12,
            "sphere on box {} against {want}",
            d.signed_distance
        );
    }
}

/// A cylinder's inscribed (`outer` false) or circumscribed prism of `n` sides.
fn prism(c: &Cylinder, n: usize, outer: bool) -> Poly {
    let r = if outer {
        c.radius / (std::f64::consts::PI / n as f64).cos()
    } else {
        c.radius
    };
    let e1 = c
        .axis
        .cross(&if c.axis.x.abs() < 0.6 {
            Vector3::x()
        } else {
            Vector3::y()
        })
        .normalize();
    let e2 = c.axis.cross(&e1);
    let mut points = vec![];
    for k in 0..n {
        let a = std::f64::consts::TAU * k as f64 / n as f64;
        for h in [c.half_height, -c.half_height] {
            points.push(c.center + c.axis * h + (e1 * a.cos() + e2 * a.sin()) * r);
        }
    }
    Poly::new(points)
}

#[test]
fn cylinders_lie_between_their_prisms() {
    let mut rng = ChaCha8Rng::seed_from_u64(40);
    let cylinder = |rng: &mut ChaCha8Rng| Cylinder {
        center: Point3::new(rng.random_range(-0.2..0.2), 0.0, 0.0),
        axis: rotation(rng) * Vector3::y(),
        radius: rng.random_range(0.2..1.2),
        half_height: rng.random_range(0.1..1.2),
    };
    let mut overlapping = 0;
    for k in 0..80 {
        let a = cylinder(&mut rng);
        let reach = rng.random_range(0.0..1.5);
        let pose = pose(&mut rng, reach);
        let (convex_b, inner_b, outer_b) = if k % 2 == 0 {
            let b = random_obb(&mut rng);
            let corners = Poly::new(obb_corners(&b));
            (
                Convex::from(&b),
                corners.placed(&pose),
                corners.placed(&pose),
            )
        } else {
            let b = cylinder(&mut rng);
            (
                Convex::from(&b),
                prism(&b, 48, false).placed(&pose),
                prism(&b, 48, true).placed(&pose),
            )
        };
        let d = signed_distance(
            &Convex::from(&a),
            &convex_b,
            &pose,
            &ConvexOptions::default(),
        )
        .unwrap();
        assert!(!d.capped);
        let n = if k % 2 == 0 { 128 } else { 32 };
        let (inner, outer) = (prism(&a, n, false), prism(&a, n, true));
        let slack = 1e-11;
        let (lo, hi) = (brute_depth(&inner, &inner_b), brute_depth(&outer, &outer_b));
        if lo > 0.0 {
            overlapping += 1;
            assert!(
                d.depth() >= lo - slack && d.depth() - d.bound <= hi + slack,
                "{lo} ≤ {} ≤ {hi}",
                d.depth()
            );
        } else if hi < 0.0 {
            let (near, far) = (
                exact_distance(&outer, &outer_b),
                exact_distance(&inner, &inner_b),
            );
            assert!(
                d.signed_distance <= far + slack && d.signed_distance + d.bound >= near - slack
            );
        }
        assert!((d.point_b - d.point_a - d.normal * d.signed_distance).norm() <= 1e-12);
    }
    assert!(overlapping >= 20, "{overlapping}");
}

#[test]
fn concentric_and_far_apart_pairs_end() {
    // Concentric spheres: every direction is a minimum; the search ends at once.
    let s = Convex::from(&Sphere {
        center: Point3::origin(),
        radius: 1.0,
    });
    let d = signed_distance(&s, &s, &Pose::identity(), &ConvexOptions::default()).unwrap();
    assert_eq!(d.signed_distance, -2.0);
    assert!(!d.capped);
    // A sphere on a cylinder's axis: a circle of minima; capped or not, the
    // answer is attained and bounded.
    let c = Convex::from(&Cylinder {
        center: Point3::origin(),
        axis: Vector3::y(),
        radius: 1.0,
        half_height: 3.0,
    });
    let small = ConvexOptions {
        max_cells: Some(20_000),
        ..ConvexOptions::default()
    };
    let d = signed_distance(&c, &s, &Pose::identity(), &small).unwrap();
    assert!(
        d.signed_distance <= -2.0 + 1e-9 && d.signed_distance + d.bound >= -2.0 - 1e-12,
        "{d:?}"
    );
    // Face on face at 1e-170 and 2^48: the scaled depth and a square patch.
    for k in [1e-170, 2f64.powi(48)] {
        let cube = Convex::from(&Obb {
            center: Point3::origin(),
            axes: Matrix3::identity(),
            half_extents: Vector3::repeat(k),
        });
        let shift = Pose {
            rotation: UnitQuaternion::identity(),
            translation: Vector3::new(0.5, 0.5, 1.8) * k,
        };
        let d = signed_distance(&cube, &cube, &shift, &ConvexOptions::default()).unwrap();
        assert!((d.signed_distance / k + 0.2).abs() <= 1e-11, "{k}: {d:?}");
        assert_eq!(d.patch.len(), 4, "{k}: {d:?}");
    }
    // Scales: 1e-30 and 1e30 give the scaled answer.
    for k in [1e-30, 1e30] {
        let a = Convex::from(&Sphere {
            center: Point3::origin(),
            radius: k,
        });
        let far = Pose {
            rotation: UnitQuaternion::identity(),
            translation: Vector3::new(3.0 * k, 0.0, 0.0),
        };
        let d = signed_distance(&a, &a, &far, &ConvexOptions::default()).unwrap();
        assert!(
            (d.signed_distance / k - 1.0).abs() <= 1e-11,
            "{k}: {}",
            d.signed_distance
        );
    }
}
