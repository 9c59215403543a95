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
//! The method: after an exact plane-side rejection, when no corner lies on
//! the other triangle's plane, Guigue and Devillers' two orientation tests
//! decide (`crossing_planes_overlap`). Otherwise two closed triangles meet
//! iff an edge of one meets the other. (Their intersection is a non-empty
//! compact convex set; an extreme point of it lies on the relative boundary of
//! one triangle, i.e. on an edge; a degenerate triangle is covered by its
//! edges.) Segment–triangle and segment–segment tests are exact; coplanar
//! configurations are decided in the three coordinate projections, which all
//! agree with 3-D because at least one of them is injective on the plane.

use nalgebra::{Point3, Vector3};
use robust::{Coord, Coord3D, orient2d, orient3d};
use wide::f64x4;

/// Shewchuk's forward error bound for a 3×3 determinant of coordinate
/// differences (`o3derrboundA = (7 + 56ε)ε`, ε = 2⁻⁵³), rounded up to 9ε.
const O3_ERR: f64 = 1e-15;

/// Relative error bound of a 2×2 determinant `b.y·c.z − b.z·c.y` formed
/// from rounded differences `b`, `c`, against the sum of its two products'
/// magnitudes: Shewchuk's `ccwerrboundA = (3 + 16ε)ε`, rounded up to 4ε (ε = 2⁻⁵³).
const O2_ERR: f64 = 2.0 * f64::EPSILON;

/// Absolute error that gradual underflow may add to the filtered
/// determinant (a few dozen operations of at most 2⁻¹⁰⁷⁴ each), far below
/// this.
const UNDERFLOW_ERR: f64 = 1e-300;

/// A triangle's plane with the pieces of `orient3d` that do not depend on
/// the query point, so that the sides of several points cost one dot
/// product each. It holds its corners by value: a search that keeps one per
/// triangle then reads a triangle's corners and plane from one place.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plane {
    t: [Point3<f64>; 3],
    /// `(t1 - t0) × (t2 - t0)`, rounded.
    normal: Vector3<f64>,
    /// Per coordinate, the permanent's factor of `|d - t0|` (the absolute
    /// products that make up each normal coordinate).
    magnitude: Vector3<f64>,
}

impl Plane {
    #[inline]
    pub(crate) fn new(t: &[Point3<f64>; 3]) -> Plane {
        let (b, c) = (t[1] - t[0], t[2] - t[0]);
        Plane {
            t: *t,
            normal: b.cross(&c),
            magnitude: Vector3::new(
                (b.y * c.z).abs() + (b.z * c.y).abs(),
                (b.z * c.x).abs() + (b.x * c.z).abs(),
                (b.x * c.y).abs() + (b.y * c.x).abs(),
            ),
        }
    }

    /// Exactly the sign of `orient3d(t0, t1, t2, d)` (which is
    /// `-(d - t0)·normal`): the `f64` determinant decides when it exceeds
    /// Shewchuk's static error bound, robust `orient3d` otherwise.
    #[inline]
    pub(crate) fn side(&self, d: &Point3<f64>) -> i8 {
        self.sides_of([d])[0]
    }

    /// [`Plane::side`] of up to four points at once: the filter's
    /// determinants and bounds in one pass of vector lanes (a search tests
    /// two or three corners of a triangle against a plane far more often
    /// than one point), the exact fallback per point the filter leaves
    /// undecided.
    #[inline]
    pub(crate) fn sides_of<const N: usize>(&self, p: [&Point3<f64>; N]) -> [i8; N] {
        const { assert!(N >= 1 && N <= 4) };
        let lanes = |k: usize| {
            let o = self.t[0][k];
            f64x4::new(std::array::from_fn(|i| p[i.min(N - 1)][k] - o))
        };
        let (x, y, z) = (lanes(0), lanes(1), lanes(2));
        let (n, m) = (&self.normal, &self.magnitude);
        let det = x * n.x + y * n.y + z * n.z;
        let bound = (x.abs() * m.x + y.abs() * m.y + z.abs() * m.z) * O3_ERR + UNDERFLOW_ERR;
        let (below, above) = (
            det.simd_gt(bound).to_bitmask(),
            det.simd_lt(-bound).to_bitmask(),
        );
        std::array::from_fn(|i| match (below >> i & 1, above >> i & 1) {
            (1, _) => -1,
            (_, 1) => 1,
            _ => self.near_side(p[i]),
        })
    }

    /// The side of a point the filter could not decide: within rounding of
    /// the plane, so often exactly on it.
    #[inline(never)]
    fn near_side(&self, d: &Point3<f64>) -> i8 {
        if self.axis_plane_holds(d) {
            // Exact zeros are the adaptive `orient3d`'s slowest case, and
            // the commonest: floors and walls of modelled scenes.
            0
        } else {
            o3(&self.t[0], &self.t[1], &self.t[2], d)
        }
    }

    /// Whether the corners and `d` share one coordinate exactly (all four
    /// on a plane `x = c`, `y = c` or `z = c`): then `orient3d` is exactly 0.
    #[inline]
    fn axis_plane_holds(&self, d: &Point3<f64>) -> bool {
        let t = &self.t;
        (0..3).any(|k| t[0][k] == d[k] && t[1][k] == d[k] && t[2][k] == d[k])
    }

    /// The triangle's corners.
    #[inline]
    pub(crate) fn corners(&self) -> &[Point3<f64>; 3] {
        &self.t
    }

    /// Whether the triangle is degenerate (its corners collinear or
    /// coincident), exactly. The rounded normal decides when one of its
    /// coordinates — the triangle's doubled signed area in one coordinate
    /// plane — exceeds its error bound; the exact [`collinear`] test
    /// otherwise. A degenerate triangle's plane sides are all exactly 0, and
    /// learning that here spares `orient3d` its slowest case: an exact zero
    /// is only proven at the end of its adaptive stages.
    #[inline]
    pub(crate) fn degenerate(&self) -> bool {
        let n = self.normal.abs();
        if (0..3).any(|k| n[k] > O2_ERR * self.magnitude[k] + UNDERFLOW_ERR) {
            return false;
        }
        collinear(&self.t[0], &self.t[1], &self.t[2])
    }

    /// The sides of `p`'s corners (as [`Plane::side`]); all 0, without a
    /// predicate, when the triangle is `degenerate`.
    #[inline]
    fn sides(&self, degenerate: bool, p: &[Point3<f64>; 3]) -> [i8; 3] {
        if degenerate {
            [0; 3]
        } else {
            self.sides_of([&p[0], &p[1], &p[2]])
        }
    }
}

#[inline]
fn c3(p: &Point3<f64>) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// The sign of `orient3d(a, b, c, d)`: +1, -1 or 0, exactly. Shewchuk's
/// static filter here, inline (the rounded determinant against `O3_ERR`
/// times its permanent, as [`Plane::side`]), and robust `orient3d` only for
/// what the filter leaves undecided: the exact triangle tests make hundreds
/// of thousands of these calls, nearly all decided by the filter.
#[inline]
pub(crate) fn o3(a: &Point3<f64>, b: &Point3<f64>, c: &Point3<f64>, d: &Point3<f64>) -> i8 {
    let (ad, bd, cd) = (a - d, b - d, c - d);
    let (bc, cb) = (bd.x * cd.y, cd.x * bd.y);
    let (ca, ac) = (cd.x * ad.y, ad.x * cd.y);
    let (ab, ba) = (ad.x * bd.y, bd.x * ad.y);
    let det = ad.z * (bc - cb) + bd.z * (ca - ac) + cd.z * (ab - ba);
    let permanent = (bc.abs() + cb.abs()) * ad.z.abs()
        + (ca.abs() + ac.abs()) * bd.z.abs()
        + (ab.abs() + ba.abs()) * cd.z.abs();
    let bound = O3_ERR * permanent + UNDERFLOW_ERR;
    if det > bound {
        1
    } else if det < -bound {
        -1
    } else {
        sign(orient3d(c3(a), c3(b), c3(c), c3(d)))
    }
}

#[inline]
fn sign(x: f64) -> i8 {
    (x > 0.0) as i8 - (x < 0.0) as i8
}

/// A point projected onto one of the coordinate planes (drop axis `k`).
#[inline]
pub(crate) fn proj(p: &Point3<f64>, k: usize) -> Coord<f64> {
    match k {
        0 => Coord { x: p.y, y: p.z },
        1 => Coord { x: p.z, y: p.x },
        _ => Coord { x: p.x, y: p.y },
    }
}

#[inline]
pub(crate) fn o2(a: Coord<f64>, b: Coord<f64>, c: Coord<f64>) -> i8 {
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
pub(crate) fn collinear(a: &Point3<f64>, b: &Point3<f64>, c: &Point3<f64>) -> bool {
    (0..3).all(|k| o2(proj(a, k), proj(b, k), proj(c, k)) == 0)
}

/// Whether two closed 3-D segments meet (either may be a point).
pub fn segments_intersect(
    p: &Point3<f64>,
    q: &Point3<f64>,
    r: &Point3<f64>,
    s: &Point3<f64>,
) -> bool {
    // Two segments meet only if coplanar. With a segment that is a point,
    // `orient3d` is exactly 0 — its slowest case — and is not asked.
    if p != q && r != s && o3(p, q, r, s) != 0 {
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
/// `sp`, `sq` of the segment's ends (as [`Plane::side`]).
pub(crate) fn segment_proper_triangle(
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

/// The exact side of `p` with respect to the plane of triangle `t`: the sign
/// of `orient3d(t0, t1, t2, p)` (0 on the plane, or for a degenerate `t`).
pub fn plane_side(t: &[Point3<f64>; 3], p: &Point3<f64>) -> i8 {
    Plane::new(t).side(p)
}

/// Whether two closed triangles meet, exactly (see the module docs).
pub fn triangles_intersect(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> bool {
    planes_intersect(&Plane::new(a), &Plane::new(b))
}

/// [`triangles_intersect`] on the triangles' planes (built once for a
/// triangle tested against many).
pub(crate) fn planes_intersect(pa: &Plane, pb: &Plane) -> bool {
    let (a, b) = (&pa.t, &pb.t);
    // Plane-side rejection: all of one triangle strictly on one side of the
    // other's plane. (A degenerate triangle gives all zeros: no rejection.)
    let flat_a = pa.degenerate();
    let sb = pa.sides(flat_a, b);
    if sb[0] == sb[1] && sb[1] == sb[2] && sb[0] != 0 {
        return false;
    }
    let flat_b = pb.degenerate();
    let sa = pb.sides(flat_b, a);
    if sa[0] == sa[1] && sa[1] == sa[2] && sa[0] != 0 {
        return false;
    }
    if sa.iter().chain(&sb).all(|&s| s != 0) {
        return crossing_planes_overlap(a, b, &sa, &sb);
    }
    edges_meet(a, b, flat_b, &sa) || edges_meet(b, a, flat_a, &sb)
}

/// `t` with its corners rotated so that corner `k` comes first (same
/// orientation), or also with its last two swapped (opposite orientation).
#[inline]
fn canonical(t: &[Point3<f64>; 3], k: usize, swap: bool) -> [&Point3<f64>; 3] {
    let (p, q, r) = (&t[k], &t[(k + 1) % 3], &t[(k + 2) % 3]);
    if swap { [p, r, q] } else { [p, q, r] }
}

/// The corner whose side differs from the other two (the sides are all
/// non-zero and not all equal, so exactly one does).
#[inline]
fn lone(side: &[i8; 3]) -> usize {
    if side[1] == side[2] {
        0
    } else if side[0] == side[2] {
        1
    } else {
        2
    }
}

/// Guigue and Devillers' test (JGT 8(1), 2003) for the generic case: no
/// corner of either triangle on the other's plane, each plane crossed by the
/// other triangle (so both are non-degenerate). `sa` and `sb` are the exact
/// sides (as [`Plane::side`]) of `a`'s corners w.r.t. `b`'s plane and of
/// `b`'s w.r.t. `a`'s.
///
/// Each triangle is brought to the form where its first corner `p` is
/// alone on the positive side of the other's plane (rotating its corners,
/// and swapping the other triangle's last two corners to flip that plane
/// when the lone corner is on the negative side). Both triangles then cut
/// the line where the planes meet in an interval, and these intervals
/// overlap — the triangles meet, touching included — iff neither of two
/// orientations is positive: `[q₂, p₂, p₁, q₁]` and `[r₂, p₂, r₁, p₁]`. Both
/// are exact `orient3d` signs.
fn crossing_planes_overlap(
    a: &[Point3<f64>; 3],
    b: &[Point3<f64>; 3],
    sa: &[i8; 3],
    sb: &[i8; 3],
) -> bool {
    // The paper's distances have the opposite sign of `Plane::side`.
    let ka = lone(sa);
    let swap_b = sa[ka] > 0;
    let b = canonical(b, 0, swap_b);
    let sb = if swap_b { [sb[0], sb[2], sb[1]] } else { *sb };
    let kb = lone(&sb);
    let a = canonical(a, ka, false);
    let [p1, q1, r1] = if sb[kb] > 0 { [a[0], a[2], a[1]] } else { a };
    let (p2, q2, r2) = (b[kb], b[(kb + 1) % 3], b[(kb + 2) % 3]);
    o3(q2, p2, p1, q1) <= 0 && o3(r2, p2, r1, p1) <= 0
}

/// Whether an edge of `e` meets `t`; `flat` says whether `t` is degenerate,
/// and `side[i]` is the exact side of `e[i]` with respect to `t`'s plane
/// (all zero when `t` is degenerate).
fn edges_meet(e: &[Point3<f64>; 3], t: &[Point3<f64>; 3], flat: bool, side: &[i8; 3]) -> bool {
    if !flat {
        (0..3).any(|i| {
            let j = (i + 1) % 3;
            segment_proper_triangle(&e[i], &e[j], t, side[i], side[j])
        })
    } else {
        (0..3).any(|i| segment_triangle_intersect(&e[i], &e[(i + 1) % 3], t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Robust `orient3d`'s sign, unfiltered: the oracle of the filters.
    fn exact_o3(a: &Point3<f64>, b: &Point3<f64>, c: &Point3<f64>, d: &Point3<f64>) -> i8 {
        sign(orient3d(c3(a), c3(b), c3(c), c3(d)))
    }

    /// The filtered `o3` and plane side, one point at a time and in lanes of
    /// up to four, equal robust `orient3d`'s sign on points within rounding
    /// of the plane (where the filters are tested hardest), far from it,
    /// and at mixed magnitudes.
    #[test]
    fn plane_side_filter_matches_orient3d() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut p = |s: f64| Point3::new(rng.random::<f64>(), rng.random(), rng.random()) * s;
        let mut lanes = Vec::new();
        for k in 0..200_000 {
            let s = [1e-3, 1.0, 1e3][k % 3];
            let t = [p(s), p(s), p(s)];
            let (u, v) = (p(1.0).x, p(1.0).y);
            // A point on the plane up to rounding, nudged by a few ulps or not.
            let on = t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v;
            let nudge = [0.0, f64::EPSILON * s, 1e-9 * s, 1.0 * s][k % 4];
            let d = on + Vector3::new(nudge, -nudge, nudge * 0.5);
            let want = exact_o3(&t[0], &t[1], &t[2], &d);
            assert_eq!(o3(&t[0], &t[1], &t[2], &d), want, "{t:?} {d:?}");
            let plane = Plane::new(&t);
            assert_eq!(plane.side(&d), want, "{t:?} {d:?}");
            // The same point among the last few (other planes' points, so
            // mixed sides), in each lane.
            lanes.insert(0, d);
            lanes.truncate(4);
            if let [a, b, c, e] = lanes[..] {
                let want = [a, b, c, e].map(|q| exact_o3(&t[0], &t[1], &t[2], &q));
                assert_eq!(plane.sides_of([&a, &b, &c, &e]), want);
                assert_eq!(plane.sides_of([&e, &c, &a]), [want[3], want[2], want[0]]);
                assert_eq!(plane.sides_of([&b, &a]), [want[1], want[0]]);
                assert_eq!(plane.sides_of([&c]), [want[2]]);
            }
        }
        // Integer-valued points on the plane: exactly coplanar, sign 0.
        let t = [
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(3.0, 1.0, 2.0),
            Point3::new(-1.0, 4.0, 1.0),
        ];
        let d = t[1] + (t[2] - t[0]) * 2.0;
        assert_eq!(Plane::new(&t).side(&d), 0);
        assert_eq!(o3(&t[0], &t[1], &t[2], &d), 0);
        // Subnormal and huge coordinates: the filter's additive bound and
        // overflow to infinity fall back to the exact predicate.
        for s in [1e-310, 1e-160, 1e150, 1e300] {
            let t = t.map(|p| p * s);
            for d in [t[1] + (t[2] - t[0]) * 2.0, Point3::new(1.0, 1.0, 1.0) * s] {
                assert_eq!(
                    o3(&t[0], &t[1], &t[2], &d),
                    exact_o3(&t[0], &t[1], &t[2], &d)
                );
            }
        }
    }

    /// The filtered degeneracy test equals the exact [`collinear`] test on
    /// collinear triples (exactly, on lines through grid points), the same
    /// nudged by an ulp or a little more, coincident corners, and generic
    /// triangles, at several scales.
    #[test]
    fn degenerate_filter_matches_collinear() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut seen = [0usize; 2];
        for k in 0..200_000 {
            let s = [1e-3, 1.0, 1e3, 1e12][k % 4];
            let g = |rng: &mut ChaCha8Rng| (rng.random_range(-64..64) as f64) * s / 64.0;
            let a = Point3::new(g(&mut rng), g(&mut rng), g(&mut rng));
            let d = Vector3::new(g(&mut rng), g(&mut rng), g(&mut rng));
            let (u, v) = (
                [0.0, 1.0, -2.0, 0.5][k % 4],
                [3.0, -1.0, 0.25, 2.0][(k / 4) % 4],
            );
            let mut t = [a, a + d * u, a + d * v];
            match (k / 16) % 4 {
                0 => {}
                1 => t[2].x = t[2].x.next_up(),
                2 => t[1].y += 1e-9 * s,
                _ => t[2] = Point3::new(rng.random(), rng.random(), rng.random()) * s,
            }
            let want = collinear(&t[0], &t[1], &t[2]);
            seen[want as usize] += 1;
            assert_eq!(Plane::new(&t).degenerate(), want, "{t:?}");
        }
        assert!(seen[0] > 10_000 && seen[1] > 10_000, "{seen:?}");
    }
}
