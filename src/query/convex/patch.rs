//! The contact patch: where two support faces facing each other across a
//! plane overlap, seen along the plane's normal.

use crate::fit::hull::planar::monotone_chain_within;
use nalgebra::Vector2;

/// The corners of the convex hull of `points`, as indices in
/// counter-clockwise order (Andrew's monotone chain), points closer than
/// `tau` to a hull edge's line dropped: one point, a segment's two ends,
/// or a polygon.
pub(super) fn hull_order(points: &[Vector2<f64>], tau: f64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    monotone_chain_within(&mut order, |&i| (points[i].x, points[i].y), tau)
}

/// The hull's corners themselves (see [`hull_order`]).
fn hull(points: Vec<Vector2<f64>>, tau: f64) -> Vec<Vector2<f64>> {
    hull_order(&points, tau)
        .into_iter()
        .map(|i| points[i])
        .collect()
}

/// The part of `subject` (a convex polygon, segment or point, in order)
/// within `tau` of the inside of the counter-clockwise convex polygon
/// `clip` (Sutherland–Hodgman).
fn clip_by(subject: &[Vector2<f64>], clip: &[Vector2<f64>], tau: f64) -> Vec<Vector2<f64>> {
    let mut out = subject.to_vec();
    for i in 0..clip.len() {
        let (a, b) = (clip[i], clip[(i + 1) % clip.len()]);
        let edge = b - a;
        let len = edge.norm();
        // Signed distance inside the edge's line, positive inside.
        let side = |p: &Vector2<f64>| edge.perp(&(p - a)) / len + tau;
        let input = std::mem::take(&mut out);
        let n = input.len();
        for j in 0..n {
            let (p, q) = (input[j], input[(j + 1) % n]);
            let (sp, sq) = (side(&p), side(&q));
            if sp >= 0.0 {
                out.push(p);
            }
            // An open chain (a segment) has no closing edge back to its start.
            let closing = n == 2 && j == 1;
            if n > 1 && !closing && (sp >= 0.0) != (sq >= 0.0) {
                out.push(p + (q - p) * (sp / (sp - sq)));
            }
        }
    }
    out
}

/// Where the convex hulls of `p` and `q` overlap (within `tau`), as the
/// corners of a convex polygon, a segment's ends or one point. When they
/// miss each other by more than `tau` (the direction was not exact), the
/// point of `p`'s hull nearest `q`'s.
pub(super) fn overlap(p: Vec<Vector2<f64>>, q: Vec<Vector2<f64>>, tau: f64) -> Vec<Vector2<f64>> {
    let (p, q) = (hull(p, tau), hull(q, tau));
    let (small, big) = if p.len() <= q.len() {
        (&p, &q)
    } else {
        (&q, &p)
    };
    let mut out = if big.len() >= 3 {
        clip_by(small, big, tau)
    } else if small.len() == 2 && big.len() == 2 {
        segments(small, big, tau)
    } else {
        small
            .iter()
            .copied()
            .filter(|s| near(s, big) <= tau)
            .collect()
    };
    if out.is_empty() {
        out.push(closest_on_first(&p, &q));
    }
    out
}

/// The point of the hull `p` (corners in order) nearest the hull `q`: a
/// corner of `p`, or the foot on an edge of `p` of a corner of `q`.
fn closest_on_first(p: &[Vector2<f64>], q: &[Vector2<f64>]) -> Vector2<f64> {
    let edges = |h: &[Vector2<f64>]| -> Vec<(Vector2<f64>, Vector2<f64>)> {
        match h.len() {
            1 => vec![(h[0], h[0])],
            2 => vec![(h[0], h[1])],
            n => (0..n).map(|i| (h[i], h[(i + 1) % n])).collect(),
        }
    };
    let foot = |x: &Vector2<f64>, (a, b): &(Vector2<f64>, Vector2<f64>)| {
        let d = b - a;
        let len2 = d.norm_squared();
        let t = if len2 > 0.0 {
            ((x - a).dot(&d) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        a + d * t
    };
    let mut best = (f64::INFINITY, p[0]);
    for e in edges(q) {
        for x in p {
            let d = (foot(x, &e) - x).norm();
            if d < best.0 {
                best = (d, *x);
            }
        }
    }
    for e in edges(p) {
        for y in q {
            let f = foot(y, &e);
            let d = (f - y).norm();
            if d < best.0 {
                best = (d, f);
            }
        }
    }
    best.1
}

/// The distance from `s` to a point (`big` of one corner) or a segment.
fn near(s: &Vector2<f64>, big: &[Vector2<f64>]) -> f64 {
    match big {
        [b] => (s - b).norm(),
        [a, b] => {
            let d = b - a;
            let t = ((s - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0);
            (s - (a + d * t)).norm()
        }
        _ => f64::INFINITY,
    }
}

/// The overlap of two segments: the common part of collinear ones, their
/// crossing point, or nothing.
fn segments(s: &[Vector2<f64>], t: &[Vector2<f64>], tau: f64) -> Vec<Vector2<f64>> {
    let d = s[1] - s[0];
    let e = t[1] - t[0];
    let cross = d.perp(&e);
    if cross.abs() <= tau * d.norm().max(e.norm()) {
        // Parallel: the common interval along s, if t's line is on s's.
        let len2 = d.norm_squared();
        if (d.perp(&(t[0] - s[0]))).abs() / len2.sqrt() > tau {
            return vec![];
        }
        let along = |p: &Vector2<f64>| (p - s[0]).dot(&d) / len2;
        let (u0, u1) = (along(&t[0]), along(&t[1]));
        let (lo, hi) = (u0.min(u1).max(0.0), u0.max(u1).min(1.0));
        if lo > hi + tau / len2.sqrt() {
            return vec![];
        }
        let hi = hi.max(lo);
        return vec![s[0] + d * lo, s[0] + d * hi];
    }
    let w = t[0] - s[0];
    let (a, b) = (w.perp(&e) / cross, w.perp(&d) / cross);
    let slack = tau / d.norm().min(e.norm()).max(f64::MIN_POSITIVE);
    if (-slack..=1.0 + slack).contains(&a) && (-slack..=1.0 + slack).contains(&b) {
        vec![s[0] + d * a.clamp(0.0, 1.0)]
    } else {
        vec![]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(c: f64, h: f64) -> Vec<Vector2<f64>> {
        vec![
            Vector2::new(c - h, c - h),
            Vector2::new(c + h, c - h),
            Vector2::new(c + h, c + h),
            Vector2::new(c - h, c + h),
        ]
    }

    fn area(poly: &[Vector2<f64>]) -> f64 {
        (0..poly.len())
            .map(|i| poly[i].perp(&poly[(i + 1) % poly.len()]))
            .sum::<f64>()
            * 0.5
    }

    #[test]
    fn squares_overlap_in_their_common_square() {
        let got = overlap(square(0.0, 1.0), square(1.0, 1.0), 1e-12);
        assert_eq!(got.len(), 4, "{got:?}");
        assert!((area(&hull(got, 1e-12)) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_segment_across_a_square_is_cut_at_its_sides() {
        let seg = vec![Vector2::new(-3.0, 0.5), Vector2::new(3.0, 0.5)];
        let mut got = overlap(seg, square(0.0, 1.0), 1e-12);
        got.sort_by(|p, q| p.x.total_cmp(&q.x));
        assert_eq!(got.len(), 2);
        assert!((got[0] - Vector2::new(-1.0, 0.5)).norm() < 1e-9);
        assert!((got[1] - Vector2::new(1.0, 0.5)).norm() < 1e-9);
    }

    #[test]
    fn crossing_and_collinear_segments() {
        let s = vec![Vector2::new(0.0, 0.0), Vector2::new(2.0, 2.0)];
        let t = vec![Vector2::new(0.0, 2.0), Vector2::new(2.0, 0.0)];
        let got = overlap(s.clone(), t, 1e-12);
        assert_eq!(got.len(), 1);
        assert!((got[0] - Vector2::new(1.0, 1.0)).norm() < 1e-12);
        let u = vec![Vector2::new(1.0, 1.0), Vector2::new(5.0, 5.0)];
        let got = overlap(s, u, 1e-12);
        assert_eq!(got.len(), 2, "{got:?}");
    }

    #[test]
    fn a_miss_gives_the_first_hulls_point_nearest_the_second() {
        let got = overlap(
            vec![Vector2::new(0.0, 0.0)],
            vec![Vector2::new(0.0, 1e-3)],
            1e-9,
        );
        assert_eq!(got, vec![Vector2::new(0.0, 0.0)]);
        // A segment off a square's side: a point of the segment.
        let seg = vec![Vector2::new(-1.0, 2.0), Vector2::new(1.0, 2.0)];
        let got = overlap(seg, square(0.0, 1.0), 1e-9);
        assert_eq!(got.len(), 1);
        assert!((got[0].y - 2.0).abs() < 1e-12 && got[0].x.abs() <= 1.0);
    }
}
