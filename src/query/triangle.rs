//! Exact triangle–triangle intersection on `f64` coordinates.
//!
//! Every decision is the sign of an exact predicate (`robust::orient3d`,
//! `robust::orient2d`, Shewchuk's adaptive arithmetic), so the answer is the
//! exact answer for the given `f64` points: no tolerance, no false negatives,
//! no false positives. Triangles are closed sets: touching (at a vertex, an
//! edge, coplanar overlap) counts as intersecting, as in parry3d. A
//! degenerate triangle (collinear or coincident corners) is the segment or
//! point it spans and intersects whatever that segment or point touches.
//!
//! The method: after an exact plane-side rejection, two closed triangles meet
//! iff an edge of one meets the other. (Their intersection is a non-empty
//! compact convex set; an extreme point of it lies on the relative boundary of
//! one triangle, i.e. on an edge; a degenerate triangle is covered by its
//! edges.) Segment–triangle and segment–segment tests are exact; coplanar
//! configurations are decided in the three coordinate projections, which all
//! agree with 3-D because at least one of them is injective on the plane.

use nalgebra::Point3;
use robust::{Coord, Coord3D, orient2d, orient3d};

#[inline]
fn c3(p: &Point3<f64>) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// The sign of `orient3d(a, b, c, d)`: +1, -1 or 0, exactly.
#[inline]
fn o3(a: &Point3<f64>, b: &Point3<f64>, c: &Point3<f64>, d: &Point3<f64>) -> i8 {
    sign(orient3d(c3(a), c3(b), c3(c), c3(d)))
}

#[inline]
fn sign(x: f64) -> i8 {
    (x > 0.0) as i8 - (x < 0.0) as i8
}

/// A point projected onto one of the coordinate planes (drop axis `k`).
#[inline]
fn proj(p: &Point3<f64>, k: usize) -> Coord<f64> {
    match k {
        0 => Coord { x: p.y, y: p.z },
        1 => Coord { x: p.z, y: p.x },
        _ => Coord { x: p.x, y: p.y },
    }
}

#[inline]
fn o2(a: Coord<f64>, b: Coord<f64>, c: Coord<f64>) -> i8 {
    sign(orient2d(a, b, c))
}

/// Whether two closed 2-D segments meet (either may be a point).
fn seg_seg_2d(p: Coord<f64>, q: Coord<f64>, r: Coord<f64>, s: Coord<f64>) -> bool {
    let (s1, s2) = (o2(p, q, r), o2(p, q, s));
    if s1 * s2 > 0 {
        return false;
    }
    let (s3, s4) = (o2(r, s, p), o2(r, s, q));
    if s3 * s4 > 0 {
        return false;
    }
    if s1 == 0 && s2 == 0 && s3 == 0 && s4 == 0 {
        // All four collinear (or points): the segments meet iff their
        // bounding intervals overlap on both coordinates.
        let overlap = |a0: f64, a1: f64, b0: f64, b1: f64| {
            a0.min(a1) <= b0.max(b1) && b0.min(b1) <= a0.max(a1)
        };
        return overlap(p.x, q.x, r.x, s.x) && overlap(p.y, q.y, r.y, s.y);
    }
    true
}

/// Whether a 2-D point lies in a closed 2-D triangle (possibly degenerate).
fn point_in_tri_2d(x: Coord<f64>, t: &[Coord<f64>; 3]) -> bool {
    let o = o2(t[0], t[1], t[2]);
    if o == 0 {
        return (0..3).any(|i| seg_seg_2d(x, x, t[i], t[(i + 1) % 3]));
    }
    (0..3).all(|i| o2(t[i], t[(i + 1) % 3], x) * o >= 0)
}

/// Whether a closed 2-D segment meets a closed 2-D triangle (either degenerate).
fn seg_tri_2d(p: Coord<f64>, q: Coord<f64>, t: &[Coord<f64>; 3]) -> bool {
    point_in_tri_2d(p, t) || (0..3).any(|i| seg_seg_2d(p, q, t[i], t[(i + 1) % 3]))
}

/// Whether three points are collinear (or coincide), exactly: iff all three
/// coordinate projections are.
fn collinear(a: &Point3<f64>, b: &Point3<f64>, c: &Point3<f64>) -> bool {
    (0..3).all(|k| o2(proj(a, k), proj(b, k), proj(c, k)) == 0)
}

/// Whether two closed 3-D segments meet (either may be a point).
pub fn segments_intersect(
    p: &Point3<f64>,
    q: &Point3<f64>,
    r: &Point3<f64>,
    s: &Point3<f64>,
) -> bool {
    if o3(p, q, r, s) != 0 {
        return false;
    }
    (0..3).all(|k| seg_seg_2d(proj(p, k), proj(q, k), proj(r, k), proj(s, k)))
}

/// Whether the closed segment `pq` (possibly a point) meets the closed
/// triangle `t` (possibly degenerate).
pub fn segment_triangle_intersect(p: &Point3<f64>, q: &Point3<f64>, t: &[Point3<f64>; 3]) -> bool {
    if collinear(&t[0], &t[1], &t[2]) {
        return (0..3).any(|i| segments_intersect(p, q, &t[i], &t[(i + 1) % 3]));
    }
    segment_proper_triangle(
        p,
        q,
        t,
        o3(&t[0], &t[1], &t[2], p),
        o3(&t[0], &t[1], &t[2], q),
    )
}

/// Segment against a non-degenerate triangle, given the exact plane sides
/// `sp`, `sq` of the segment's ends.
fn segment_proper_triangle(
    p: &Point3<f64>,
    q: &Point3<f64>,
    t: &[Point3<f64>; 3],
    sp: i8,
    sq: i8,
) -> bool {
    if sp * sq > 0 {
        return false;
    }
    if sp == 0 && sq == 0 {
        return (0..3).all(|k| {
            let tk = [proj(&t[0], k), proj(&t[1], k), proj(&t[2], k)];
            seg_tri_2d(proj(p, k), proj(q, k), &tk)
        });
    }
    // The segment reaches the plane at one point X (it is not parallel to
    // it). X is in the closed triangle iff the line pq passes on the same
    // side (or on) each edge: the three volumes have no opposite signs.
    let v0 = o3(p, q, &t[0], &t[1]);
    let v1 = o3(p, q, &t[1], &t[2]);
    let v2 = o3(p, q, &t[2], &t[0]);
    !((v0 > 0 || v1 > 0 || v2 > 0) && (v0 < 0 || v1 < 0 || v2 < 0))
}

/// Whether two closed triangles meet, exactly (see the module docs).
pub fn triangles_intersect(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> bool {
    // Plane-side rejection: all of one triangle strictly on one side of the
    // other's plane. (A degenerate triangle gives all zeros: no rejection.)
    let sb = [
        o3(&a[0], &a[1], &a[2], &b[0]),
        o3(&a[0], &a[1], &a[2], &b[1]),
        o3(&a[0], &a[1], &a[2], &b[2]),
    ];
    if sb[0] == sb[1] && sb[1] == sb[2] && sb[0] != 0 {
        return false;
    }
    let sa = [
        o3(&b[0], &b[1], &b[2], &a[0]),
        o3(&b[0], &b[1], &b[2], &a[1]),
        o3(&b[0], &b[1], &b[2], &a[2]),
    ];
    if sa[0] == sa[1] && sa[1] == sa[2] && sa[0] != 0 {
        return false;
    }
    edges_meet(a, b, &sa) || edges_meet(b, a, &sb)
}

/// Whether an edge of `e` meets `t`; `side[i]` is the exact side of `e[i]`
/// with respect to `t`'s plane (all zero when `t` is degenerate).
fn edges_meet(e: &[Point3<f64>; 3], t: &[Point3<f64>; 3], side: &[i8; 3]) -> bool {
    if side.iter().any(|&s| s != 0) || !collinear(&t[0], &t[1], &t[2]) {
        (0..3).any(|i| {
            let j = (i + 1) % 3;
            segment_proper_triangle(&e[i], &e[j], t, side[i], side[j])
        })
    } else {
        (0..3).any(|i| segment_triangle_intersect(&e[i], &e[(i + 1) % 3], t))
    }
}
