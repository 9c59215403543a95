//! k-DOPs against independent checks: every point inside every slab, each
//! extreme within rounding of the brute-force maximum of the dot products,
//! the polytope's vertices on the slabs, its volume equal to the convex
//! hull of its vertices (a separate algorithm), and the volumes ordered as
//! the direction sets nest (convex hull ≤ 26 ≤ 18 ≤ 6, 26 ≤ 14 ≤ 6, 10x ≤ 6)
//! with the 6-DOP equal to the AABB. On shapes here and, in the real-model
//! suite, on every valid corpus model.

use bvtool_dev as common;

use bvtool::fit::{Aabb, ConvexHull, Kdop, KdopKind, ObbMethod};
use nalgebra::{Matrix3, Point3, Rotation3, Vector3};

/// Checks one k-DOP of `points` and returns its volume.
fn check(points: &[Point3<f64>], kind: KdopKind, rotation: Matrix3<f64>, what: &str) -> f64 {
    let k = Kdop::new(points, kind, rotation).unwrap();
    let scale = points
        .iter()
        .map(|p| p.coords.amax())
        .fold(1e-300, f64::max);
    for (i, d) in k.directions.iter().enumerate() {
        assert!(
            (d.norm() - 1.0).abs() < 1e-15,
            "{what} {kind}: direction {i}"
        );
        let dots = points.iter().map(|p| d.dot(&p.coords));
        let (lo, hi) = dots.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
        assert!(
            k.lo[i] <= lo && hi <= k.hi[i],
            "{what} {kind}: slab {i} misses a point"
        );
        assert!(
            lo - k.lo[i] <= 1e-14 * scale && k.hi[i] - hi <= 1e-14 * scale,
            "{what} {kind}: slab {i} is loose"
        );
    }
    let tol = 1e-12 * scale;
    for v in &k.vertices {
        assert!(
            k.contains(v, tol),
            "{what} {kind}: polytope vertex {v:?} off the slabs"
        );
    }
    let volume = k.volume();
    // The hull of the vertices, about their own box's centre (so that far
    // models lose no digits), must have the same volume.
    let b = Aabb::from_points(&k.vertices).unwrap();
    let local: Vec<Point3<f64>> = k
        .vertices
        .iter()
        .map(|v| Point3::from(v - b.center()))
        .collect();
    let size = (b.max - b.min).norm();
    if let Ok(hull) = ConvexHull::new(&local) {
        let h = hull.volume();
        // Vertices far from the origin carry a rounding of a few ulps of
        // their coordinates: the volume may move by that times the area.
        let moved = 16.0 * f64::EPSILON * scale * k.surface_area();
        assert!(
            (volume - h).abs() <= 1e-9 * h + 1e-12 * size.powi(3) + moved,
            "{what} {kind}: volume {volume} vs hull of vertices {h}"
        );
    } else {
        assert!(
            volume <= 1e-12 * size.powi(3),
            "{what} {kind}: flat vertices, volume {volume}"
        );
    }
    volume
}

/// Every family in the mesh frame and in `rotation`'s frame, with the
/// nesting of their volumes.
fn check_all(points: &[Point3<f64>], rotation: Matrix3<f64>, what: &str) {
    let hull = ConvexHull::new(points).map(|h| h.volume()).unwrap_or(0.0);
    let aabb = Aabb::from_points(points).unwrap().volume();
    for frame in [Matrix3::identity(), rotation] {
        let v = |k| check(points, k, frame, what);
        let (v6, v14, v18, v26) = (
            v(KdopKind::K6),
            v(KdopKind::K14),
            v(KdopKind::K18),
            v(KdopKind::K26),
        );
        let scale = v6.max(1e-300);
        let le = |a: f64, b: f64, n: &str| assert!(a <= b + 1e-9 * scale, "{what}: {n}: {a} > {b}");
        le(hull, v26, "hull ≤ 26");
        le(v26, v18, "26 ≤ 18");
        le(v26, v14, "26 ≤ 14");
        le(v18, v6, "18 ≤ 6");
        le(v14, v6, "14 ≤ 6");
        for k in [KdopKind::K10X, KdopKind::K10Y, KdopKind::K10Z] {
            let vk = v(k);
            le(v18, vk, "18 ≤ 10");
            le(vk, v6, "10 ≤ 6");
        }
        if frame == Matrix3::identity() {
            assert!(
                (v6 - aabb).abs() <= 1e-9 * aabb.max(1e-300),
                "{what}: 6-DOP {v6} vs AABB {aabb}"
            );
        }
    }
}

#[test]
fn shapes() {
    let turn = *Rotation3::from_euler_angles(0.3, -0.7, 1.1).matrix();
    let torus = common::shapes::torus(1.0, 0.35, 48, 24);
    check_all(&torus.vertices, turn, "torus");
    let ico = common::shapes::icosphere(3);
    check_all(&ico.vertices, turn, "icosphere");
    // Far from the origin and small: the rounding margins scale with it.
    let far: Vec<Point3<f64>> = ico
        .vertices
        .iter()
        .map(|p| p * 1e-3 + Vector3::new(1e5, -2e5, 3e4))
        .collect();
    check_all(&far, turn, "far icosphere");
    let soup = common::shapes::soup(500, 3);
    check_all(&soup.vertices, turn, "soup");
}

#[test]
fn cli_reports_both_frames() {
    let (code, out, err) = common::bvtool!(&["fit", "models/chain.gltf", "--kdop", "26", "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let f = &doc["files"][0];
    let kdops = f["kdops"].as_array().unwrap();
    assert_eq!(kdops.len(), 2);
    assert_eq!(
        (kdops[0]["kind"].as_str(), kdops[0]["frame"].as_str()),
        (Some("26"), Some("mesh"))
    );
    assert_eq!(kdops[1]["frame"].as_str(), Some("obb"));
    assert_eq!(kdops[1]["rotation_xyzw"], f["obb"]["rotation_xyzw"]);
    for k in kdops {
        assert_eq!(k["directions"].as_array().unwrap().len(), 13);
        let v = k["volume"].as_f64().unwrap();
        assert!(
            f["hull_volume"].as_f64().unwrap() <= v && v <= f["aabb"]["volume"].as_f64().unwrap()
        );
    }
    let (code, out, _) = common::bvtool!(&["fit", "models/chain.gltf", "--kdop", "10y"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("10Y-DOP  mesh frame") && out.contains("10Y-DOP  obb frame"),
        "{out}"
    );
    let (code, _, err) = common::bvtool!(&["fit", "models/chain.gltf", "--kdop", "12"]);
    assert_eq!(code, 2, "{err}");
}

/// Every valid corpus model with triangles: its world vertices, every
/// family, in the mesh frame and the tight OBB's.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn corpus_models() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let sets = common::corpus_point_sets(&dir);
    for (path, points) in &sets {
        let hull = ConvexHull::new(points).unwrap();
        let obb = bvtool::fit::obb(&hull.vertices, &hull, ObbMethod::Tight).unwrap();
        check_all(&hull.vertices, obb.axes, path);
        // The hull's vertices stand for every point: check them all once.
        let k = Kdop::new(&hull.vertices, KdopKind::K26, obb.axes).unwrap();
        assert!(
            points.iter().all(|p| k.contains(p, 0.0)),
            "{path}: a vertex outside"
        );
    }
    assert!(sets.len() > 150, "{} models checked", sets.len());
}
