//! The convex hull under a budget: at most N vertices and N faces, every
//! point inside — checked exactly, with the hull (our quickhull on exact
//! `orient3d`) of the result's own vertices — at least the exact hull's
//! volume and at most the starting box's; the command line reports it. In
//! the real-model suite, on every valid corpus model at 255 and 64. Flat
//! point sets (no hull planes) get the flat box.

use bvtool_dev as common;

use bvtool::fit::{BudgetHull, ConvexHull, Obb, ObbMethod};
use nalgebra::Point3;

/// Checks the budget hull of `points` at `max`; returns it.
fn check(points: &[Point3<f64>], max: usize, what: &str) -> BudgetHull {
    let hull = ConvexHull::new(points).unwrap();
    let obb: Obb = bvtool::fit::obb(&hull.vertices, &hull, ObbMethod::Tight).unwrap();
    let b = BudgetHull::new(&hull, &obb, max).unwrap();
    assert!(
        b.vertices.len() <= max && b.faces.len() <= max,
        "{what}: {} vertices, {} faces over {max}",
        b.vertices.len(),
        b.faces.len()
    );
    if hull.dimension < 3 {
        // Flat points: no hull planes, the result is the flat box.
        assert!(b.vertices.len() <= 8 && b.planes == 0, "{what}");
        assert!(points.iter().all(|p| obb.contains(p, 0.0)), "{what}");
        return b;
    }
    let outer = ConvexHull::new(&b.vertices).unwrap();
    let outside = points.iter().filter(|p| !outer.contains(p)).count();
    assert_eq!(outside, 0, "{what} at {max}: points outside");
    {
        let (v, h) = (b.volume(), hull.volume());
        assert!(v >= h * (1.0 - 1e-12), "{what} at {max}: {v} < hull {h}");
        assert!(
            v <= obb.volume() * (1.0 + 1e-6),
            "{what} at {max}: {v} > box"
        );
        // The polygons' volume is their own hull's (a separate algorithm).
        assert!((outer.volume() / v - 1.0).abs() < 1e-9, "{what} at {max}");
    }
    b
}

#[test]
fn shapes() {
    let torus = common::repo_scene("torus.obj").world_points(false);
    let soup = common::shapes::soup(500, 3).vertices;
    for (pts, what) in [(&torus, "torus"), (&soup, "soup")] {
        let v: Vec<f64> = [8, 64, 255, 512]
            .map(|m| check(pts, m, what).volume())
            .to_vec();
        assert!(v.windows(2).all(|w| w[1] <= w[0]), "{what}: {v:?}");
    }
    // The icosphere's hull (162 vertices, 320 triangles in 320 planes)
    // fits in 512: the result is the hull, its volume the hull's.
    let ico = common::shapes::icosphere(2).vertices;
    let b = check(&ico, 512, "icosphere");
    assert!(b.exact);
    assert_eq!((b.vertices.len(), b.faces.len()), (162, 320));
    let hull = ConvexHull::new(&ico).unwrap().volume();
    assert!((b.volume() / hull - 1.0).abs() < 1e-9);
}

#[test]
fn cli_reports_the_budget_hull() {
    let (code, out, err) = common::bvtool!(&["fit", "models/torus.obj", "--hull-max", "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let f = &doc["files"][0];
    let h = &f["hull_budget"];
    assert_eq!(h["max"], 255);
    assert!(h["vertices"].as_array().unwrap().len() <= 255);
    let ratio = h["extra_volume_ratio"].as_f64().unwrap();
    let hull = f["hull_volume"].as_f64().unwrap();
    assert!((h["volume"].as_f64().unwrap() / hull - 1.0 - ratio).abs() < 1e-12);
    assert!((0.0..0.05).contains(&ratio), "{ratio}");
    let (code, out, _) = common::bvtool!(&["fit", "models/torus.obj", "--hull-max", "64"]);
    assert_eq!(code, 0);
    assert!(out.contains("hull ≤ 64"), "{out}");
    let (code, _, err) = common::bvtool!(&["fit", "models/torus.obj", "--hull-max", "7"]);
    assert_eq!(code, 2, "{err}");
}

/// Every valid corpus model with triangles, its world vertices.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn corpus_models() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let sets = common::corpus_point_sets(&dir);
    for (path, points) in &sets {
        for max in [255, 64] {
            check(points, max, path);
        }
    }
    assert!(sets.len() > 150, "{} models checked", sets.len());
}
