//! The convex hull under a budget: at most N vertices and N faces, every
//! point inside — checked exactly, with the hull (our quickhull on exact
//! `orient3d`) of the result's own vertices — at least the exact hull's
//! volume and at most the starting box's; the command line reports it. In
//! the real-model suite, on every valid corpus model at 255 and 64. Flat
//! point sets (no hull planes) get the flat box.

use bvtool_dev as common;

use bvtool::fit::{BudgetHull, ConvexHull, Obb, ObbMethod};
use nalgebra::Point3;

/// Checks the budget hull of `points` at each of `maxes` (the exact hull
/// and the minimum box, which every budget starts from, made once); returns
/// them.
fn check(points: &[Point3<f64>], maxes: &[usize], what: &str) -> Vec<BudgetHull> {
    let hull = ConvexHull::new(points).unwrap();
    let obb: Obb = bvtool::fit::obb(&hull.vertices, &hull, ObbMethod::Tight).unwrap();
    maxes
        .iter()
        .map(|&max| check_one(points, &hull, &obb, max, what))
        .collect()
}

fn check_one(
    points: &[Point3<f64>],
    hull: &ConvexHull,
    obb: &Obb,
    max: usize,
    what: &str,
) -> BudgetHull {
    let b = BudgetHull::new(hull, obb, max).unwrap();
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
    // Every point, exactly; past 20,000 points, the exact hull's vertices
    // (a convex set holds the points iff it holds their hull's vertices),
    // which keeps the corpus sweep's exact tests under a billion.
    let tested = if points.len() <= 20_000 {
        points
    } else {
        &hull.vertices[..]
    };
    let outside = tested.iter().filter(|p| !outer.contains(p)).count();
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
        let v: Vec<f64> = check(pts, &[8, 64, 255, 512], what)
            .iter()
            .map(BudgetHull::volume)
            .collect();
        assert!(v.windows(2).all(|w| w[1] <= w[0]), "{what}: {v:?}");
    }
    // The icosphere's hull (162 vertices, 320 triangles in 320 planes)
    // fits in 512: the result is the hull, its volume the hull's.
    let ico = common::shapes::icosphere(2).vertices;
    let [b] = &check(&ico, &[512], "icosphere")[..] else {
        unreachable!()
    };
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
        check(points, &[255, 64], path);
    }
    assert!(sets.len() > 150, "{} models checked", sets.len());
}
