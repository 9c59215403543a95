//! Air — the largest distance from a fitted shape's surface to the mesh —
//! against answers known in closed form (a cube in its box, an icosahedron
//! in its sphere, a torus in its box, a small tetrahedron in a big box) and
//! against brute force: every surface sample's distance computed over all
//! triangles with the triangle–triangle distance (an independent route)
//! stays within the reported bound, and the point–mesh query through the
//! AABB tree equals the least distance over all triangles.

use bvtool_dev as common;

use bvtool::TriMesh;
use bvtool::fit::surface::Surface;
use bvtool::fit::{self, Aabb, ConvexHull, Kdop, KdopKind, ObbMethod, Sphere};
use bvtool::query::distance_point_mesh::{point_mesh, rounding_bound};
use bvtool::query::pair::distance_triangle_triangle::triangle_distance;
use bvtool::query::{Air, AirOptions, air};
use bvtool::tree::AabbTree;
use common::shapes;
use nalgebra::{Matrix3, Point3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The least distance from `p` to the mesh, over every triangle, by the
/// triangle–triangle distance with `p` as a degenerate triangle.
fn brute(mesh: &TriMesh, p: &Point3<f64>) -> f64 {
    (0..mesh.triangles.len())
        .map(|i| triangle_distance(&[*p, *p, *p], &mesh.triangle(i)).distance)
        .fold(f64::INFINITY, f64::min)
}

fn opts(tolerance: f64) -> AirOptions {
    AirOptions {
        tolerance,
        max_samples: 200_000,
    }
}

/// `truth` lies in `[air, air + bound]` (up to `slack` for the oracle's own
/// rounding), and the search reached its tolerance.
fn brackets(a: &Air, truth: f64, tolerance: f64, slack: f64, what: &str) {
    assert!(
        a.air <= truth + slack && truth <= a.air + a.bound + slack,
        "{what}: {truth} not in [{}, {}]",
        a.air,
        a.air + a.bound
    );
    assert!(a.bound <= tolerance * 1.01, "{what}: bound {}", a.bound);
}

#[test]
fn a_cube_in_its_box_has_no_air() {
    let mesh = shapes::mesh(
        (0..8)
            .map(|k| Point3::new((k & 1) as f64, ((k >> 1) & 1) as f64, ((k >> 2) & 1) as f64))
            .collect(),
        common::shapes::cube_triangles(),
    );
    let tree = AabbTree::build(&mesh);
    let b = Aabb::from_points(&mesh.vertices).unwrap();
    let a = air(&tree, &[Surface::aabb(&b)], &opts(1e-3));
    // The box's faces lie on the mesh: the corner bound proves 0 at once.
    assert_eq!(a.air, 0.0);
    assert!(a.bound <= 1e-12, "{a:?}");
    assert!(a.samples < 1000, "{a:?}");
}

/// The icosahedron inscribed in the unit sphere: the farthest sphere point
/// is over a face centre, at 1 − the inradius.
#[test]
fn an_icosahedron_in_its_sphere() {
    let mesh = shapes::icosphere(0);
    let tree = AabbTree::build(&mesh);
    let s = Sphere::exact(&mesh.vertices).unwrap();
    assert!((s.radius - 1.0).abs() < 1e-9);
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    // Inradius / circumradius of the icosahedron: φ² / (√3 · √(φ² + 1)).
    let inradius = phi * phi / (3f64.sqrt() * (phi * phi + 1.0).sqrt());
    let truth = s.radius - inradius;
    // Twenty isolated maxima on a round surface, where only the Lipschitz
    // bound holds: the slowest case for the search (80k samples at 1e-2).
    let a = air(&tree, &[Surface::sphere(&s)], &opts(1e-2));
    brackets(&a, truth, 1e-2, 1e-9, "icosahedron");
}

/// A torus (R = 1, r = 0.35, 256 × 64 quads) in its box: the farthest box
/// point is a face centre over the hole, at √(R² + r²) − r from the tube
/// (the mesh's chords lie inside the tube, by at most its sag).
#[test]
fn a_torus_in_its_box() {
    let mesh = shapes::torus(1.0, 0.35, 256, 64);
    let tree = AabbTree::build(&mesh);
    let b = Aabb::from_points(&mesh.vertices).unwrap();
    let a = air(&tree, &[Surface::aabb(&b)], &opts(1e-4));
    let smooth = (1.0f64 + 0.35 * 0.35).sqrt() - 0.35;
    let sag = 1.35 * (1.0 - (std::f64::consts::PI / 256.0).cos())
        + 0.35 * (1.0 - (std::f64::consts::PI / 64.0).cos());
    brackets(
        &a,
        brute(&mesh, &Point3::new(0.0, 0.0, b.max.z)),
        1e-4,
        1e-12,
        "torus centre",
    );
    assert!(
        a.air >= smooth - 1e-12 && a.air <= smooth + sag,
        "torus: {a:?} vs {smooth} (+ sag {sag})"
    );
}

/// A small tetrahedron inside a big box: the distance to a convex set is
/// convex, so its largest value on the box is at a corner — the farthest
/// corner's brute-force distance.
#[test]
fn a_small_tetrahedron_in_a_big_box() {
    let mesh = shapes::mesh(
        vec![
            Point3::new(0.1, 0.2, 0.3),
            Point3::new(0.4, 0.2, 0.3),
            Point3::new(0.2, 0.5, 0.3),
            Point3::new(0.2, 0.3, 0.7),
        ],
        vec![[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]],
    );
    let tree = AabbTree::build(&mesh);
    let b = Aabb {
        min: Point3::new(-1.0, -2.0, -0.5),
        max: Point3::new(2.0, 1.0, 3.0),
    };
    let truth = (0..8)
        .map(|k| {
            let c = Point3::new(
                if k & 1 == 0 { b.min.x } else { b.max.x },
                if k & 2 == 0 { b.min.y } else { b.max.y },
                if k & 4 == 0 { b.min.z } else { b.max.z },
            );
            brute(&mesh, &c)
        })
        .fold(0.0, f64::max);
    let a = air(&tree, &[Surface::aabb(&b)], &opts(1e-6));
    brackets(&a, truth, 1e-6, 1e-12, "tetrahedron");
    // Split over two surfaces (as a decomposition's parts), the same.
    let halves = [
        Aabb {
            max: Point3::new(0.5, b.max.y, b.max.z),
            ..b
        },
        Aabb {
            min: Point3::new(0.5, b.min.y, b.min.z),
            ..b
        },
    ];
    let two = air(&tree, &halves.map(|h| Surface::aabb(&h)), &opts(1e-6));
    brackets(&two, truth, 1e-6, 1e-12, "two halves");
}

/// Every fitted shape of the torus and of a random bumpy blob: 3,000
/// random points of each surface (projected as the search projects),
/// their brute-force distance never above `air + bound`, and the search's
/// `air` never above the true supremum — which is at least the largest
/// sample, and at most that plus the samples' covering radius, unknown
/// here — so only the first is asserted, and that the gap is small.
#[test]
fn every_shape_against_brute_force_samples() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let torus = shapes::torus(1.0, 0.35, 24, 12);
    let mut blob = shapes::icosphere(2);
    for v in &mut blob.vertices {
        let s = 1.0 + 0.2 * (3.0 * v.x).sin() * (2.0 * v.y).cos() + 0.3 * v.z.max(0.0);
        *v = Point3::from(v.coords * s);
    }
    for (name, mesh) in [("torus", torus), ("blob", blob)] {
        let tree = AabbTree::build(&mesh);
        let hull = ConvexHull::new(&mesh.vertices).unwrap();
        let pts = &hull.vertices;
        let tight = fit::obb(pts, &hull, ObbMethod::Tight).unwrap();
        let seeds: Vec<_> = (0..3).map(|i| tight.axis(i)).collect();
        let k = Kdop::new(pts, KdopKind::K26, Matrix3::identity()).unwrap();
        let budget = fit::BudgetHull::new(&hull, &tight, 32).unwrap();
        let surfaces = [
            ("aabb", Surface::aabb(&Aabb::from_points(pts).unwrap())),
            ("obb", Surface::obb(&tight)),
            ("sphere", Surface::sphere(&Sphere::exact(pts).unwrap())),
            (
                "capsule",
                Surface::capsule(&fit::capsule(pts, &seeds).unwrap()),
            ),
            (
                "cylinder",
                Surface::cylinder(&fit::cylinder(pts, &seeds).unwrap()),
            ),
            ("kdop", Surface::polytope(&k.vertices, &k.faces)),
            (
                "hull 32",
                Surface::polytope(&budget.vertices, &budget.faces),
            ),
        ];
        for (shape, s) in surfaces {
            let tol = 2e-3;
            let a = air(&tree, std::slice::from_ref(&s), &opts(tol));
            assert!(a.bound <= tol * 1.01, "{name} {shape}: {a:?}");
            let mut best = 0.0f64;
            for _ in 0..3000 {
                let t = s.triangles[rng.random_range(0..s.triangles.len())];
                let (u, v): (f64, f64) = (rng.random(), rng.random());
                let (u, v) = if u + v > 1.0 {
                    (1.0 - u, 1.0 - v)
                } else {
                    (u, v)
                };
                let x = t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v;
                let d = brute(&mesh, &s.project(&x));
                assert!(
                    d <= a.air + a.bound + 1e-12,
                    "{name} {shape}: a surface point at {d} above {a:?}"
                );
                best = best.max(d);
            }
            assert!(
                a.air + a.bound >= best && a.air - best < 0.1,
                "{name} {shape}: {a:?} vs samples' {best}"
            );
        }
    }
}

/// The tree query equals the brute-force least distance (within the
/// rounding bound), and with `enough` it stops at a triangle at most that
/// far.
#[test]
fn point_mesh_agrees_with_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mesh = shapes::torus(1.0, 0.35, 40, 16);
    let tree = AabbTree::build(&mesh);
    for k in 0..2000 {
        let p = Point3::new(
            rng.random_range(-2.0..2.0),
            rng.random_range(-2.0..2.0),
            rng.random_range(-1.0..1.0),
        );
        let want = brute(&mesh, &p);
        let hint = (k % 2 == 0).then_some(k as u32 % 100);
        let (got, slot) = point_mesh(&tree, &p, 0.0, hint);
        assert!(
            (got - want).abs() <= 2.0 * rounding_bound(2.0),
            "{p}: {got} vs {want}"
        );
        let t = tree.corners(slot as usize);
        assert!(
            (triangle_distance(&[p, p, p], &t).distance - got).abs() <= 2.0 * rounding_bound(2.0)
        );
        let enough = want + 0.1;
        let (early, _) = point_mesh(&tree, &p, enough, None);
        assert!(early <= enough && early >= want - 2.0 * rounding_bound(2.0));
    }
}

/// `fit --air` reports every volume's air in JSON and in the table; the
/// torus's box is the closed form above, within the mesh's sag.
#[test]
fn fit_reports_the_air_of_every_volume() {
    let (code, out, err) = common::bvtool!(&[
        "fit",
        "models/torus.obj",
        "--air",
        "--capsule",
        "--cylinder",
        "--kdop",
        "26",
        "--hull-max",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let f = &doc["files"][0];
    let a = &f["aabb"]["air"];
    let (lo, bound) = (a["air"].as_f64().unwrap(), a["bound"].as_f64().unwrap());
    let smooth = (1.0f64 + 0.35 * 0.35).sqrt() - 0.35;
    assert!(lo <= smooth + 0.02 && smooth <= lo + bound + 0.02, "{a}");
    for k in ["obb", "sphere", "capsule", "cylinder", "hull_budget"] {
        assert!(f[k]["air"]["air"].as_f64().unwrap() >= 0.0, "{k}");
    }
    assert!(f["kdops"][1]["air"]["bound"].as_f64().is_some());
    let (_, text, _) = common::bvtool!(&["fit", "models/torus.obj", "--air"]);
    assert!(
        text.lines().next().is_some_and(|l| l.contains("torus")),
        "{text}"
    );
    assert!(text.contains(" air") && text.contains(" +0.00"), "{text}");
    // Without --air, nothing about it.
    let (_, plain, _) = common::bvtool!(&["fit", "models/torus.obj", "--json"]);
    assert!(!plain.contains("\"air\""));
}
