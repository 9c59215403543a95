//! Capsules and cylinders: every point contained, and the searched axis
//! against a brute-force search over 4,000 directions spread over the
//! sphere (for the cylinder, the minimum enclosing circle of the projected
//! points times the extent; for the capsule, a dense scan of the radius per
//! direction): bvtool's volume at most 1.01× the brute-force best. On the
//! corpus: containment of every vertex of every valid model, and the
//! cylinder below trimesh's `minimum_cylinder` volumes measured in the
//! issue.

use bvtool_dev as common;

use bvtool::fit::reference::{least_squares_capsule, unreal_capsule};
use bvtool::fit::{ConvexHull, Sphere, capsule, cylinder};
use nalgebra::{Point3, Vector3};

/// `n` directions on the upper half sphere (an axis and its opposite are
/// the same shape), Fibonacci-spread.
fn directions(n: usize) -> Vec<Vector3<f64>> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|i| {
            let z = 1.0 - (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let a = golden * i as f64;
            Vector3::new(r * a.cos(), r * a.sin(), z)
        })
        .collect()
}

/// The radial distances (about the projected points' minimum enclosing
/// circle) and axial coordinates of `points` along `a`.
fn view(points: &[Point3<f64>], a: &Vector3<f64>) -> (Vec<f64>, Vec<f64>) {
    let across: Vec<Point3<f64>> = points.iter().map(|p| p - a * p.coords.dot(a)).collect();
    let c = Sphere::exact(&across).unwrap().center;
    let radial = across.iter().map(|q| (q - c).norm()).collect();
    let axial = points.iter().map(|p| p.coords.dot(a)).collect();
    (radial, axial)
}

/// The least and greatest of `axial`.
fn extent(axial: &[f64]) -> (f64, f64) {
    axial
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &t| {
            (l.min(t), h.max(t))
        })
}

fn brute_cylinder(points: &[Point3<f64>]) -> f64 {
    directions(4000)
        .iter()
        .map(|a| {
            let (radial, axial) = view(points, a);
            let r = radial.iter().copied().fold(0.0, f64::max);
            let (lo, hi) = extent(&axial);
            std::f64::consts::PI * r * r * (hi - lo)
        })
        .fold(f64::INFINITY, f64::min)
}

fn brute_capsule(points: &[Point3<f64>]) -> f64 {
    directions(4000)
        .iter()
        .map(|a| {
            let (radial, axial) = view(points, a);
            let r0 = radial.iter().copied().fold(0.0, f64::max);
            let (lo, hi) = extent(&axial);
            (0..=200)
                .map(|k| {
                    let r = r0 + (hi - lo) * k as f64 / 200.0;
                    let (mut top, mut bottom) = (f64::NEG_INFINITY, f64::INFINITY);
                    for (rho, t) in radial.iter().zip(&axial) {
                        let s = (r * r - rho * rho).max(0.0).sqrt();
                        top = top.max(t - s);
                        bottom = bottom.min(t + s);
                    }
                    let len = (top - bottom).max(0.0);
                    std::f64::consts::PI * r * r * (len + 4.0 / 3.0 * r)
                })
                .fold(f64::INFINITY, f64::min)
        })
        .fold(f64::INFINITY, f64::min)
}

fn check(points: &[Point3<f64>], what: &str, brute: bool) -> (f64, f64) {
    let hull = ConvexHull::new(points)
        .map(|h| h.vertices)
        .unwrap_or_else(|_| points.to_vec());
    let (cyl, cap) = (cylinder(&hull, &[]).unwrap(), capsule(&hull, &[]).unwrap());
    for p in points {
        assert!(cyl.contains(p, 0.0), "{what}: cylinder misses {p:?}");
        assert!(cap.contains(p, 0.0), "{what}: capsule misses {p:?}");
    }
    assert!(
        cyl.volume().is_finite() && cap.volume().is_finite(),
        "{what}"
    );
    if brute {
        let (bc, bk) = (brute_cylinder(&hull), brute_capsule(&hull));
        assert!(
            cyl.volume() <= 1.01 * bc,
            "{what}: cylinder {} vs brute force {bc}",
            cyl.volume()
        );
        assert!(
            cap.volume() <= 1.01 * bk,
            "{what}: capsule {} vs brute force {bk}",
            cap.volume()
        );
    }
    (cyl.volume(), cap.volume())
}

#[test]
fn shapes_against_brute_force() {
    check(
        &common::shapes::torus(1.0, 0.35, 32, 16).vertices,
        "torus",
        true,
    );
    check(&common::shapes::icosphere(2).vertices, "icosphere", true);
    for seed in 0..4 {
        let soup = common::shapes::soup(60, seed);
        check(&soup.vertices, &format!("soup {seed}"), true);
    }
    // A long thin rod along a skew axis: the capsule is nearly its segment.
    let axis = Vector3::new(0.3, -0.5, 0.8).normalize();
    let rod: Vec<Point3<f64>> = (0..200)
        .map(|i| {
            Point3::from(
                axis * (i as f64 * 0.05) + Vector3::new((i % 7) as f64, (i % 5) as f64, 0.0) * 1e-3,
            )
        })
        .collect();
    check(&rod, "rod", true);
}

#[test]
fn cli_reports_capsule_and_cylinder() {
    let (code, out, err) = common::bvtool!(&[
        "fit",
        "models/torus.obj",
        "--capsule",
        "--cylinder",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let f = &doc["files"][0];
    // The torus (R = 1, r = 0.35, axis z): the best cylinder is its own,
    // radius 1.35 and half height 0.35 (a polygonal torus is a little
    // smaller).
    let c = &f["cylinder"];
    assert!((c["radius"].as_f64().unwrap() - 1.35).abs() < 0.01, "{c}");
    assert!(
        (c["half_height"].as_f64().unwrap() - 0.35).abs() < 0.01,
        "{c}"
    );
    assert!(c["axis"][2].as_f64().unwrap().abs() > 0.999, "{c}");
    let k = &f["capsule"];
    assert!(k["volume"].as_f64().unwrap() >= f["hull_volume"].as_f64().unwrap());
    let seg = k["segment"].as_array().unwrap();
    assert_eq!(seg.len(), 2);
}

/// Every valid corpus model: every world vertex inside both shapes; the
/// cylinder at most trimesh's `minimum_cylinder` volume on the three models
/// the issue measured it on; the capsule (searched as `bvtool fit` does,
/// from the PCA axes) at most the least-squares capsule and Unreal's rule
/// made to contain, wherever they differ.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn corpus_models() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let trimesh = [
        ("obj/common-3d-test-models/stanford-bunny.obj", 2.7369e-3),
        ("obj/pybullet/duck.obj", 3.1727),
        (
            "obj/mujoco_menagerie/universal_robots_ur5e/assets/forearm_2.obj",
            3.8253e-3,
        ),
    ];
    let sets = common::corpus_point_sets(&dir);
    let (mut below_ls, mut below_unreal) = (0, 0);
    for (path, points) in &sets {
        let (cyl, _) = check(points, path, false);
        if let Some((_, v)) = trimesh.iter().find(|(p, _)| p == path) {
            assert!(cyl <= *v, "{path}: cylinder {cyl} vs trimesh {v}");
        }
        let Some((_, cov)) = bvtool::fit::covariance::of_points(points) else {
            continue;
        };
        let pca = bvtool::fit::covariance::principal_frame(&cov);
        let seeds: Vec<Vector3<f64>> = (0..3).map(|i| pca.column(i).into_owned()).collect();
        // A capsule contains the points iff it contains their hull's
        // vertices; the least-squares axis comes from all the points.
        let hull = ConvexHull::new(points).map_or_else(|_| points.clone(), |h| h.vertices);
        let ours = capsule(&hull, &seeds).unwrap().volume();
        // The reference rules (`fit::reference`), made to contain.
        let ls = least_squares_capsule(
            &hull,
            &bvtool::fit::covariance::of_points(points).unwrap().0,
            &pca.column(0).into_owned(),
        )
        .unwrap()
        .volume();
        let unreal = unreal_capsule(&hull).unwrap().volume();
        // Ours is grown by its rounding margin: a hair of slack, relative
        // and (for flat or collinear points, volume 0) absolute.
        let b = bvtool::fit::Aabb::from_points(points).unwrap();
        let tiny = 1e-12 * (b.max - b.min).norm().powi(3);
        let near = |v: f64| v * (1.0 + 1e-9) + tiny;
        assert!(
            ours <= near(ls),
            "{path}: capsule {ours} vs least squares {ls}"
        );
        assert!(
            ours <= near(unreal),
            "{path}: capsule {ours} vs Unreal's {unreal}"
        );
        below_ls += (ours < ls) as usize;
        below_unreal += (ours < unreal) as usize;
    }
    eprintln!(
        "capsule strictly below the least-squares capsule on {below_ls} and Unreal's on {below_unreal} of {} models",
        sets.len()
    );
    assert!(sets.len() > 150, "{} models checked", sets.len());
}
