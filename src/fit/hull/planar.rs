//! The minimum-area enclosing rectangle of a planar point set.

use nalgebra::Vector2;

/// Andrew's monotone chain: the convex hull of `pts` counter-clockwise,
/// without collinear points. Fewer than 3 points come back as they are
/// (deduplicated when equal).
pub fn convex_hull_2d(pts: &mut [Vector2<f64>]) -> Vec<Vector2<f64>> {
    let mut hull = monotone_chain(pts, |p| (p.x, p.y));
    hull.dedup();
    hull
}

/// Andrew's monotone chain over items placed at `at(item)`: the hull's
/// items counter-clockwise from the lowest-leftmost, without collinear
/// ones; fewer than 3 items come back sorted. `items` is sorted in place,
/// numerically by `(x, y)` — `−0` and `+0` are one coordinate, or a
/// collinear run split by the sign of a zero (a frustum's base ring seen
/// from the side) would lose its far end.
pub(crate) fn monotone_chain<T: Copy>(items: &mut [T], at: impl Fn(&T) -> (f64, f64)) -> Vec<T> {
    monotone_chain_within(items, at, 0.0)
}

/// [`monotone_chain`] with a tolerance `tau ≥ 0` (0: exact): an item within
/// `tau` of the one kept before it in `(x, y)` order is dropped; then, on
/// the exact hull, a corner within `tau` of the one before it or of the
/// line through its neighbours is dropped, until none is (the tolerance
/// applied after the exact chain, so an item a hair beyond an edge cannot
/// pop the true corners next to it); a hull of two items within `tau` of
/// each other is one item.
pub(crate) fn monotone_chain_within<T: Copy>(
    items: &mut [T],
    at: impl Fn(&T) -> (f64, f64),
    tau: f64,
) -> Vec<T> {
    let key = |t: &T| {
        let (x, y) = at(t);
        (x + 0.0, y + 0.0)
    };
    items.sort_unstable_by(|a, b| {
        let ((ax, ay), (bx, by)) = (key(a), key(b));
        ax.total_cmp(&bx).then(ay.total_cmp(&by))
    });
    let apart = |a: &T, b: &T| {
        let ((ax, ay), (bx, by)) = (at(a), at(b));
        (ax - bx).hypot(ay - by)
    };
    let distinct: Vec<T>;
    let items: &[T] = if tau > 0.0 {
        let mut kept: Vec<T> = Vec::with_capacity(items.len());
        for q in items.iter() {
            if kept.last().is_none_or(|k| apart(k, q) > tau) {
                kept.push(*q);
            }
        }
        distinct = kept;
        &distinct
    } else {
        items
    };
    if items.len() < 3 {
        return items.to_vec();
    }
    let cross = |o: &T, a: &T, b: &T| {
        let ((ox, oy), (ax, ay), (bx, by)) = (at(o), at(a), at(b));
        (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)
    };
    // Whether the chain o → a → b fails to turn left.
    let no_left_turn = |o: &T, a: &T, b: &T| cross(o, a, b) <= 0.0;
    let mut hull: Vec<T> = Vec::with_capacity(items.len() / 4 + 4);
    for q in items.iter() {
        while hull.len() >= 2 && no_left_turn(&hull[hull.len() - 2], &hull[hull.len() - 1], q) {
            hull.pop();
        }
        hull.push(*q);
    }
    let floor = hull.len() + 1;
    for q in items.iter().rev().skip(1) {
        while hull.len() >= floor && no_left_turn(&hull[hull.len() - 2], &hull[hull.len() - 1], q) {
            hull.pop();
        }
        hull.push(*q);
    }
    hull.pop();
    if tau > 0.0 {
        // A corner within `tau` of the one before it, or of the line through
        // its neighbours.
        let needless = |h: &[T], i: usize| {
            let n = h.len();
            let (prev, next) = (&h[(i + n - 1) % n], &h[(i + 1) % n]);
            let base = apart(prev, next);
            apart(prev, &h[i]) <= tau || cross(prev, &h[i], next).abs() <= tau * base
        };
        while hull.len() >= 3 {
            match (0..hull.len()).find(|&i| needless(&hull, i)) {
                Some(i) => {
                    hull.remove(i);
                }
                None => break,
            }
        }
        if hull.len() == 2 && apart(&hull[0], &hull[1]) <= tau {
            hull.pop();
        }
    }
    hull
}

/// Edges shorter than this fraction of the polygon's extent are rounding
/// noise (two hull vertices that project to nearly one point, as a box's
/// top and bottom corners do along its face normal): their direction means
/// nothing, and following it would break the calipers' monotone sweep.
/// Skipping them changes the least area by at most about this fraction.
const NOISE_EDGE: f64 = 1e-10;

/// Rotating calipers (Toussaint 1983) over a convex polygon given
/// counter-clockwise: the minimum-area enclosing rectangle has a side flush
/// with a polygon edge, so for each edge the three support points (farthest
/// forward, backward and across) advance monotonically — O(m) in total.
/// Edges of noise length (`NOISE_EDGE`) are not tried as directions.
/// Returns `(area, unit direction of the flush side)`. Polygons of fewer than
/// three vertices (or whose edges are all of noise length) give area 0 along
/// their extent (or the x axis).
pub fn min_area_rect(poly: &[Vector2<f64>]) -> (f64, Vector2<f64>) {
    let m = poly.len();
    let extent = poly.first().map_or(0.0, |q| {
        poly.iter().map(|p| (p - q).amax()).fold(0.0, f64::max)
    });
    let edge = |i: usize| {
        let e = poly[if i + 1 == m { 0 } else { i + 1 }] - poly[i];
        let n = e.norm();
        (n > NOISE_EDGE * extent && n.is_finite()).then(|| e / n)
    };
    let Some((first, e0)) = (m >= 3)
        .then(|| (0..m).find_map(|i| edge(i).map(|e| (i, e))))
        .flatten()
    else {
        let d = match m {
            0 | 1 => Vector2::x(),
            _ => poly[m - 1] - poly[0],
        };
        let n = d.norm();
        return (0.0, if n > 0.0 { d / n } else { Vector2::x() });
    };
    // Generic, not `dyn`: the support tests inline (half the calipers'
    // cost on the small polygons of the face step).
    fn argmax(poly: &[Vector2<f64>], f: impl Fn(&Vector2<f64>) -> f64) -> usize {
        (0..poly.len())
            .max_by(|&a, &b| f(&poly[a]).total_cmp(&f(&poly[b])))
            .unwrap_or(0)
    }
    fn advance(poly: &[Vector2<f64>], k: &mut usize, f: impl Fn(&Vector2<f64>) -> f64) {
        let mut here = f(&poly[*k]);
        for _ in 0..poly.len() {
            let next = if *k + 1 == poly.len() { 0 } else { *k + 1 };
            let there = f(&poly[next]);
            if there >= here {
                (*k, here) = (next, there);
            } else {
                break;
            }
        }
    }
    let (mut fwd, mut up, mut back) = (
        argmax(poly, |p| e0.dot(p)),
        argmax(poly, |p| -e0.perp(p)),
        argmax(poly, |p| -e0.dot(p)),
    );
    let mut best = (f64::INFINITY, e0);
    for i in (first..m).chain(0..first) {
        let Some(e) = edge(i) else {
            continue;
        };
        // Inward normal of a counter-clockwise polygon: (-e.y, e.x).
        let n = Vector2::new(-e.y, e.x);
        advance(poly, &mut fwd, |p| e.dot(p));
        advance(poly, &mut up, |p| n.dot(p));
        advance(poly, &mut back, |p| -e.dot(p));
        let width = e.dot(&(poly[fwd] - poly[back]));
        let height = n.dot(&(poly[up] - poly[i]));
        let area = width * height;
        if area < best.0 {
            best = (area, e);
        }
    }
    best
}

/// The minimum-area enclosing rectangle of a planar point set (not
/// necessarily convex, in any order): `(area, unit direction of a side)`,
/// as [`min_area_rect`] gives for the set's convex hull. `pts` is used as
/// scratch space (reordered and shortened).
///
/// The extreme points along `±x`, `±y`, `±(x + y)` and `±(x − y)` span an
/// octagon inside the hull; points inside it by more than a relative
/// `1e-9` of the set's extent cannot be hull vertices and are dropped
/// before Andrew's sort, so a set of `n` points costs `O(n)` plus the sort
/// of the few left near the boundary. Rounding cannot drop a hull vertex:
/// the margin is far above the error of the side tests.
pub fn min_area_rect_of(pts: &mut Vec<Vector2<f64>>) -> (f64, Vector2<f64>) {
    let Some(&first) = pts.first() else {
        return min_area_rect(&[]);
    };
    // Extremes, counter-clockwise from +x: +x, +(x + y), +y, −(x − y), −x,
    // −(x + y), −y, +(x − y), each as (value, point).
    let mut ext = [(f64::NEG_INFINITY, first); 8];
    for &p in pts.iter() {
        let (s, d) = (p.x + p.y, p.x - p.y);
        for (e, v) in ext.iter_mut().zip([p.x, s, p.y, -d, -p.x, -s, -p.y, d]) {
            if v > e.0 {
                *e = (v, p);
            }
        }
    }
    let extent = ext[0].0 + ext[4].0 + ext[2].0 + ext[6].0;
    if extent > 0.0 && extent.is_finite() {
        // Inside the octagon's edge a → b: (b − a) ⊥ (p − a) beyond the
        // margin, i.e. n·p > n·a + margin with n = perp(b − a); repeated
        // corners make zero edges, which bound nothing.
        let margin = 1e-9 * extent * extent;
        let edges: [(Vector2<f64>, f64); 8] = std::array::from_fn(|i| {
            let (a, b) = (ext[i].1, ext[(i + 1) % 8].1);
            let n = Vector2::new(a.y - b.y, b.x - a.x);
            if a == b {
                (n, f64::NEG_INFINITY)
            } else {
                (n, n.dot(&a) + margin)
            }
        });
        if edges.iter().filter(|e| e.1 > f64::NEG_INFINITY).count() >= 3 {
            // All eight tests, no early exit: most points are inside.
            pts.retain(|p| {
                !edges
                    .iter()
                    .fold(true, |inside, (n, c)| inside & (n.dot(p) > *c))
            });
        }
    }
    let poly = convex_hull_2d(pts);
    min_area_rect(&poly)
}
