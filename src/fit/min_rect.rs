//! The minimum-area enclosing rectangle of a planar point set.

use nalgebra::Vector2;

/// Andrew's monotone chain: the convex hull of `pts` counter-clockwise,
/// without collinear points. Fewer than 3 points come back as they are
/// (deduplicated when equal).
pub fn convex_hull_2d(pts: &mut [Vector2<f64>]) -> Vec<Vector2<f64>> {
    pts.sort_unstable_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let cross = |o: &Vector2<f64>, a: &Vector2<f64>, b: &Vector2<f64>| (a - o).perp(&(b - o));
    let mut hull: Vec<Vector2<f64>> = Vec::with_capacity(pts.len() / 4 + 4);
    for q in pts.iter() {
        while hull.len() >= 2 && cross(&hull[hull.len() - 2], &hull[hull.len() - 1], q) <= 0.0 {
            hull.pop();
        }
        hull.push(*q);
    }
    let floor = hull.len() + 1;
    for q in pts.iter().rev().skip(1) {
        while hull.len() >= floor && cross(&hull[hull.len() - 2], &hull[hull.len() - 1], q) <= 0.0 {
            hull.pop();
        }
        hull.push(*q);
    }
    hull.pop();
    hull.dedup();
    hull
}

/// Rotating calipers (Toussaint 1983) over a convex polygon given
/// counter-clockwise: the minimum-area enclosing rectangle has a side flush
/// with a polygon edge, so for each edge the three support points (farthest
/// forward, backward and across) advance monotonically — O(m) in total.
/// Returns `(area, unit direction of the flush side)`. Polygons of fewer than
/// three vertices give area 0 along their extent (or the x axis).
pub fn min_area_rect(poly: &[Vector2<f64>]) -> (f64, Vector2<f64>) {
    let m = poly.len();
    if m < 3 {
        let d = if m == 2 {
            poly[1] - poly[0]
        } else {
            Vector2::x()
        };
        let n = d.norm();
        return (0.0, if n > 0.0 { d / n } else { Vector2::x() });
    }
    let edge = |i: usize| {
        let e = poly[(i + 1) % m] - poly[i];
        e / e.norm()
    };
    let e0 = edge(0);
    let argmax = |f: &dyn Fn(&Vector2<f64>) -> f64| {
        (0..m)
            .max_by(|&a, &b| f(&poly[a]).total_cmp(&f(&poly[b])))
            .unwrap_or(0)
    };
    let (mut fwd, mut up, mut back) = (
        argmax(&|p| e0.dot(p)),
        argmax(&|p| -e0.perp(p)),
        argmax(&|p| -e0.dot(p)),
    );
    let mut best = (f64::INFINITY, e0);
    for i in 0..m {
        let e = edge(i);
        if !e.iter().all(|x| x.is_finite()) {
            continue;
        }
        // Inward normal of a counter-clockwise polygon: (-e.y, e.x).
        let n = Vector2::new(-e.y, e.x);
        let advance = |k: &mut usize, f: &dyn Fn(&Vector2<f64>) -> f64| {
            for _ in 0..m {
                let next = (*k + 1) % m;
                if f(&poly[next]) >= f(&poly[*k]) {
                    *k = next;
                } else {
                    break;
                }
            }
        };
        advance(&mut fwd, &|p| e.dot(p));
        advance(&mut up, &|p| n.dot(p));
        advance(&mut back, &|p| -e.dot(p));
        let width = e.dot(&(poly[fwd] - poly[back]));
        let height = n.dot(&(poly[up] - poly[i]));
        let area = width * height;
        if area < best.0 {
            best = (area, e);
        }
    }
    best
}
