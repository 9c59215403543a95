//! Triangle–triangle distance in `f64`, with a stated rounding bound.
//!
//! Two closed triangles either meet — decided exactly by
//! [`crate::query::pair::intersect_triangle_triangle::triangles_intersect`], and then the distance is 0 — or
//! their distance is attained by an edge of one and an edge of the other, or
//! by a corner of one and the interior of the other's face (the closest pair
//! of two disjoint convex polygons has a point on the relative boundary of
//! one of them, and if neither point is on an edge of the other triangle,
//! that point projects into its face). So the distance is the least of:
//!
//! - the nine edge–edge segment distances (`segment_segment`);
//! - the six corner–face distances, each counted only when the corner's
//!   projection onto the other triangle's plane falls inside that triangle.
//!
//! A degenerate triangle (collinear or coincident corners) has no face: it is
//! the segment or point its edges span, and only its edges count. An
//! edge–edge pair whose connecting segment v is as long as the gap between
//! the two triangles' corner projections onto v (a lower bound on their
//! distance) is the answer at once — the separating-plane exit of PQP's
//! `TriDist`, here checked on all six corners with a margin for rounding —
//! which ends most searches after a few edge pairs.
//!
//! # Rounding
//!
//! The closest points are formed in `f64` from clamped segment parameters
//! and plane projections. Each reported point is within a few ulps of the
//! largest absolute coordinate `S` of the six corners of a point of its
//! triangle, and the chosen pair's distance is within a few such ulps of the
//! least distance (the early exit accepts a pair only within 8 ulps of `S`
//! of its lower bound, whose dot products add at most 18 more). [`rounding_bound`] states `|d̂ − d| ≤ 64·ε·S`
//! (ε = 2⁻⁵³); the tests check it against an exact rational oracle on
//! random, degenerate, parallel and nearly parallel pairs, where the largest
//! error seen is far below it. A pair of meeting triangles is reported at
//! distance exactly 0 whatever the rounding.

use crate::query::pair::intersect_triangle_triangle::{
    plane_side, segment_triangle_intersect, triangles_intersect,
};
use nalgebra::{Point3, Vector3};

/// The distance between two triangles and a closest pair of points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriangleDistance {
    /// The distance (exactly 0 when the triangles meet).
    pub distance: f64,
    /// The point of the first triangle.
    pub point_a: Point3<f64>,
    /// The point of the second triangle (equal to `point_a` up to rounding
    /// when the triangles meet).
    pub point_b: Point3<f64>,
    /// Whether the triangles meet (touching counts), decided exactly.
    pub intersecting: bool,
}

/// The bound on `|d̂ − d|` for two triangles whose corners have absolute
/// coordinates at most `scale`: `64·ε·scale`.
pub fn rounding_bound(scale: f64) -> f64 {
    64.0 * f64::EPSILON * scale
}

/// The distance between the axis-aligned bounding boxes of triangles `a`
/// and `b`: a lower bound on the triangles' distance (up to one rounding of
/// each difference), for skipping pairs that cannot come closer than a
/// distance already found.
#[inline]
pub fn bounds_gap(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> f64 {
    box_gap(&triangle_bounds(a), &triangle_bounds(b))
}

/// An axis-aligned box `(min, max)`.
pub type Bounds = (Point3<f64>, Point3<f64>);

/// A triangle's axis-aligned bounding box, exact.
#[inline]
pub fn triangle_bounds(t: &[Point3<f64>; 3]) -> Bounds {
    (t[0].inf(&t[1]).inf(&t[2]), t[0].sup(&t[1]).sup(&t[2]))
}

/// The distance between two axis-aligned boxes (up to one rounding of
/// each difference; 0 when they overlap).
#[inline]
pub fn box_gap((lo_a, hi_a): &Bounds, (lo_b, hi_b): &Bounds) -> f64 {
    let gap = (lo_b - hi_a).sup(&(lo_a - hi_b)).sup(&Vector3::zeros());
    gap.norm()
}

/// A lower bound on the distance between triangles `a` and `b` for skipping
/// pairs that cannot come closer than `enough`: the gap of their bounding
/// boxes ([`bounds_gap`]) and, unless that already reaches `enough`, the
/// larger with the gap across either triangle's plane ([`plane_gap`]). The
/// plane gap is what prunes two nearly parallel surfaces a small distance
/// apart, whose boxes overlap: it halved the triangle distances a query
/// computes on the corpus pairs of `benches/distance.rs`.
#[inline]
pub fn lower_bound(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3], enough: f64) -> f64 {
    let gap = bounds_gap(a, b);
    if gap >= enough {
        gap
    } else {
        gap.max(plane_gap(a, b))
    }
}

/// A lower bound on the distance between triangles `a` and `b` from their
/// planes: when every corner of one lies strictly on one side of the other's
/// plane, the least corner distance to that plane (the plane separates the
/// two, so the triangles are at least that far apart); the larger of the two
/// such bounds, else 0. Each signed distance `(x − t₀)·n` is formed from
/// products of coordinate differences whose rounding stays below
/// `16·ε·|x − t₀|₁·|e₁|₁·|e₂|₁`; that margin is taken off before dividing by
/// `|n|`, so the bound never exceeds the distance (a sliver triangle, whose
/// `|n|` is mostly rounding, gives 0).
#[inline]
pub fn plane_gap(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> f64 {
    SidePlane::of(a).gap_to(b).max(SidePlane::of(b).gap_to(a))
}

/// What [`plane_gap`] needs of one triangle's plane, computed once for a
/// triangle measured against several.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SidePlane {
    /// The first corner.
    t0: Point3<f64>,
    /// `(t₁ − t₀) × (t₂ − t₀)`, rounded.
    n: Vector3<f64>,
    /// `|t₁ − t₀|₁·|t₂ − t₀|₁`, for the rounding margin.
    edges: f64,
    /// `|n|`.
    norm: f64,
}

impl SidePlane {
    /// Triangle `t`'s.
    #[inline]
    pub(crate) fn of(t: &[Point3<f64>; 3]) -> SidePlane {
        let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
        let n = e1.cross(&e2);
        SidePlane {
            t0: t[0],
            n,
            edges: e1.abs().sum() * e2.abs().sum(),
            norm: n.norm(),
        }
    }

    /// The bound of [`plane_gap`] from this plane alone: triangle `p`'s
    /// least corner distance to it when all of `p` is strictly on one side,
    /// less the rounding margin; else 0.
    #[inline]
    pub(crate) fn gap_to(&self, p: &[Point3<f64>; 3]) -> f64 {
        let d = p.map(|x| x - self.t0);
        let s = d.map(|v| v.dot(&self.n));
        let (lo, hi) = (s[0].min(s[1]).min(s[2]), s[0].max(s[1]).max(s[2]));
        let gap = if lo > 0.0 {
            lo
        } else if hi < 0.0 {
            -hi
        } else {
            return 0.0;
        };
        let reach = d.iter().map(|v| v.abs().sum()).fold(0.0, f64::max);
        let margin = 16.0 * f64::EPSILON * reach * self.edges;
        ((gap - margin) / self.norm).max(0.0)
    }
}

/// The distance between triangles `a` and `b` and a closest pair of points
/// (see the module docs for the method and the rounding bound).
pub fn triangle_distance(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> TriangleDistance {
    if triangles_intersect(a, b) {
        let (pa, pb) = meeting_point(a, b);
        return TriangleDistance {
            distance: 0.0,
            point_a: pa,
            point_b: pb,
            intersecting: true,
        };
    }
    let (pa, pb, d2) = closest_features(a, b);
    TriangleDistance {
        distance: d2.sqrt(),
        point_a: pa,
        point_b: pb,
        intersecting: false,
    }
}

/// The closest pair among the edge–edge and corner–face candidates, and its
/// squared distance: the distance of two triangles that do not meet.
fn closest_features(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> (Point3<f64>, Point3<f64>, f64) {
    let scale = a
        .iter()
        .chain(b)
        .map(|x| x.coords.amax())
        .fold(0.0, f64::max);
    let mut best = (a[0], b[0], f64::INFINITY);
    let mut consider = |p: Point3<f64>, q: Point3<f64>| {
        let d2 = (p - q).norm_squared();
        if d2 < best.2 {
            best = (p, q, d2);
        }
    };
    for i in 0..3 {
        let (p1, q1) = (&a[i], &a[(i + 1) % 3]);
        for j in 0..3 {
            let (p, q) = segment_segment(p1, q1, &b[j], &b[(j + 1) % 3]);
            // Along v = q − p the triangles' corners project to intervals
            // whose gap, over |v|, bounds their distance from below (they
            // are the hulls of their corners). When that gap is |v| to
            // within a few ulps of the scale, (p, q) is a closest pair (the
            // separating-plane exit of PQP, checked on all six corners so
            // that rounding in p and q cannot fake it).
            let v = q - p;
            let vv = v.norm_squared();
            let hi_a = a.iter().map(|x| x.coords.dot(&v)).fold(f64::MIN, f64::max);
            let lo_b = b.iter().map(|x| x.coords.dot(&v)).fold(f64::MAX, f64::min);
            if lo_b - hi_a >= vv - 8.0 * f64::EPSILON * scale * vv.sqrt() {
                return (p, q, vv);
            }
            consider(p, q);
        }
    }
    if let Some(face) = Face::new(b) {
        for p in a {
            if let Some(q) = face.project(p) {
                consider(*p, q);
            }
        }
    }
    if let Some(face) = Face::new(a) {
        for q in b {
            if let Some(p) = face.project(q) {
                consider(p, *q);
            }
        }
    }
    best
}

/// A closest pair of two meeting triangles (at distance 0 up to rounding):
/// of the closest features, and of each point where an edge with its ends
/// strictly on both sides of the other's plane (exact signs) crosses that
/// plane paired with its closest point of the other triangle, the pair
/// nearest to each other. (The crossing alone is ill-conditioned for nearly
/// coplanar triangles, whose closest features then meet instead.)
fn meeting_point(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> (Point3<f64>, Point3<f64>) {
    let (mut pa, mut pb, mut best) = closest_features(a, b);
    for (e, t, e_is_a) in [(a, b, true), (b, a, false)] {
        let Some(face) = Face::new(t) else { continue };
        for i in 0..3 {
            let (p, q) = (&e[i], &e[(i + 1) % 3]);
            if plane_side(t, p) * plane_side(t, q) < 0 && segment_triangle_intersect(p, q, t) {
                let (dp, dq) = (face.signed(p), face.signed(q));
                let x = p + (q - p) * (dp / (dp - dq));
                let y = face.project(&x).unwrap_or_else(|| {
                    (0..3)
                        .map(|k| segment_segment(&x, &x, &t[k], &t[(k + 1) % 3]).1)
                        .min_by(|u, v| (u - x).norm_squared().total_cmp(&(v - x).norm_squared()))
                        .unwrap_or(x)
                });
                let d2 = (x - y).norm_squared();
                if d2 < best {
                    best = d2;
                    (pa, pb) = if e_is_a { (x, y) } else { (y, x) };
                }
            }
        }
    }
    (pa, pb)
}

/// A non-degenerate triangle's plane, for projecting points into its face.
pub(crate) struct Face<'a> {
    t: &'a [Point3<f64>; 3],
    /// `(t1 − t0) × (t2 − t0)`.
    normal: Vector3<f64>,
    /// `|normal|²`.
    normal2: f64,
}

impl<'a> Face<'a> {
    /// `None` for a degenerate triangle (zero normal in `f64`).
    pub(crate) fn new(t: &'a [Point3<f64>; 3]) -> Option<Face<'a>> {
        let normal = (t[1] - t[0]).cross(&(t[2] - t[0]));
        let normal2 = normal.norm_squared();
        (normal2 > 0.0 && normal2.is_finite()).then_some(Face { t, normal, normal2 })
    }

    /// `(p − t0)·n`: the signed distance times `|n|`.
    fn signed(&self, p: &Point3<f64>) -> f64 {
        (p - self.t[0]).dot(&self.normal)
    }

    /// The projection of `p` onto the plane when it falls inside the closed
    /// triangle (each edge's barycentric sign non-negative).
    pub(crate) fn project(&self, p: &Point3<f64>) -> Option<Point3<f64>> {
        self.project_barycentric(p).map(|(x, _)| x)
    }

    /// [`Face::project`] with the foot's barycentric coordinates (the
    /// weight of each corner: the edge opposite it against the normal,
    /// over `|n|²`).
    pub(crate) fn project_barycentric(&self, p: &Point3<f64>) -> Option<(Point3<f64>, [f64; 3])> {
        let x = p - self.normal * (self.signed(p) / self.normal2);
        let t = self.t;
        let edge = |i: usize| {
            let (u, v) = (&t[i], &t[(i + 1) % 3]);
            (v - u).cross(&(x - u)).dot(&self.normal)
        };
        let e = [edge(0), edge(1), edge(2)];
        // Edge i (corners i, i + 1) weighs the corner opposite it.
        e.iter().all(|&w| w >= 0.0).then(|| {
            let w = [e[1], e[2], e[0]].map(|w| w / self.normal2);
            (x, w)
        })
    }
}

/// The closest points of the closed segments `p1q1` and `p2q2` (either may be
/// a point): the minimum of `|p1 + s·d1 − (p2 + t·d2)|²` over the unit
/// square, as Ericson solves it (*Real-Time Collision Detection* §5.1.9:
/// the lines' closest parameter `s`, clamped; `t` best for it, clamped; `s`
/// again best for that `t` when `t` was clamped) — with the lines' `s` taken
/// from cross products, `s = n·(d2 × r) / |n|²` with `n = d1 × d2` (by
/// Lagrange's identity the same as Ericson's `(b·f − c·e)/(a·e − b²)`).
/// The cross products lose only `ε/θ` relative accuracy for segments at a
/// small angle `θ`, where the dot-product form loses `ε/θ²`; and the
/// distance's error grows with the square of the error in `s` times `θ²`,
/// so nearly parallel segments keep a distance accurate to a few ulps of
/// their coordinates. (Exactly parallel segments take `s = 0`, as Ericson
/// does: the minimum is then also attained at an end.)
pub(crate) fn segment_segment(
    p1: &Point3<f64>,
    q1: &Point3<f64>,
    p2: &Point3<f64>,
    q2: &Point3<f64>,
) -> (Point3<f64>, Point3<f64>) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e) = (d1.norm_squared(), d2.norm_squared());
    let unit = |x: f64| x.clamp(0.0, 1.0);
    // t best for a point x of the first segment, and s best for one of the
    // second, unclamped.
    let t_for = |x: Point3<f64>| (x - p2).dot(&d2) / e;
    let s_for = |x: Point3<f64>| (x - p1).dot(&d1) / a;
    let (s, t) = if a == 0.0 && e == 0.0 {
        (0.0, 0.0)
    } else if a == 0.0 {
        (0.0, unit(t_for(*p1)))
    } else if e == 0.0 {
        (unit(s_for(*p2)), 0.0)
    } else {
        let n = d1.cross(&d2);
        let nn = n.norm_squared();
        let s = if nn > 0.0 {
            unit(n.dot(&d2.cross(&r)) / nn)
        } else {
            0.0
        };
        let t = t_for(p1 + d1 * s);
        if t < 0.0 {
            (unit(s_for(*p2)), 0.0)
        } else if t > 1.0 {
            (unit(s_for(*q2)), 1.0)
        } else {
            (s, t)
        }
    };
    (p1 + d1 * s, p2 + d2 * t)
}
