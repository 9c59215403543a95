//! When two triangles of one mesh count as intersecting, given the welded
//! vertices they share (CGAL's `self_intersections` rules):
//!
//! - no shared vertex: they intersect when they meet at all (touching counts);
//! - one shared vertex `v`: when they meet anywhere but `v`. Their
//!   intersection is a compact convex set containing `v`; if it holds a
//!   point other than `v`, its point farthest from `v` lies on an edge of one
//!   triangle that does not contain `v` or is a far corner reached along a
//!   common edge line — in both cases on an edge opposite `v`. So they meet
//!   elsewhere exactly when the edge of one opposite `v` meets the other;
//! - a shared edge `pq` (two shared vertices): two triangles on the two
//!   sides of a common edge meet only along it unless they are coplanar with
//!   their third corners `r`, `s` on the same side of the line `pq` (a
//!   fold-over): `orient3d(p, q, r, s) = 0`, and `orient2d(p, q, r)` and
//!   `orient2d(p, q, s)` of one sign in a coordinate projection where the
//!   first is not zero (such a projection is injective on the plane);
//! - three shared vertices: the same triangle twice; they intersect.
//!
//! Degenerate (zero-area) triangles are not tested by these rules: CGAL
//! reports each as a pair with itself and no other pair, and so does
//! `super::self_intersect`.

use crate::query::pair::intersect_triangle_triangle::{
    Plane, o2, planes_intersect, proj, segment_proper_triangle,
};
use nalgebra::Point3;

/// Whether two non-degenerate triangles of one mesh intersect, by the rules
/// above; `ia` and `ib` are their welded vertex ids.
pub fn adjacent_triangles_intersect(
    a: &[Point3<f64>; 3],
    ia: &[u32; 3],
    b: &[Point3<f64>; 3],
    ib: &[u32; 3],
) -> bool {
    adjacent_planes_intersect(&Plane::new(a), ia, &Plane::new(b), ib)
}

/// [`adjacent_triangles_intersect`] on the triangles' planes, built once
/// per triangle by a search that tests each against many.
pub(crate) fn adjacent_planes_intersect(
    pa: &Plane,
    ia: &[u32; 3],
    pb: &Plane,
    ib: &[u32; 3],
) -> bool {
    let (a, b) = (pa.corners(), pb.corners());
    // Bit 3i + j: corner i of a is corner j of b (ids of a proper triangle
    // are distinct, so each row and column has at most one bit). Formed
    // without branches: most pairs a descent meets are neighbours.
    let mut shared = 0u32;
    for (i, v) in ia.iter().enumerate() {
        for (j, w) in ib.iter().enumerate() {
            shared |= ((v == w) as u32) << (3 * i + j);
        }
    }
    match shared.count_ones() {
        0 => planes_intersect(pa, pb),
        1 => {
            let bit = shared.trailing_zeros() as usize;
            let (i, j) = (bit / 3, bit % 3);
            let (a1, a2, b1, b2) = (
                &a[(i + 1) % 3],
                &a[(i + 2) % 3],
                &b[(j + 1) % 3],
                &b[(j + 2) % 3],
            );
            // When the far corners of one lie strictly on one side of the
            // other's plane, that plane meets it only at `v`. Otherwise the
            // sides found are those the segment tests need (exact, filtered).
            let [sb1, sb2] = pa.sides_of([b1, b2]);
            if sb1 != 0 && sb1 == sb2 {
                return false;
            }
            let [sa1, sa2] = pb.sides_of([a1, a2]);
            if sa1 != 0 && sa1 == sa2 {
                return false;
            }
            segment_proper_triangle(a1, a2, b, sa1, sa2)
                || segment_proper_triangle(b1, b2, a, sb1, sb2)
        }
        2 => {
            // The unshared corners: the row of a and the column of b with
            // no bit.
            const ROW: u32 = 0b111;
            const COLUMN: u32 = 0b001_001_001;
            let r = (0..3)
                .find(|i| shared & (ROW << (3 * i)) == 0)
                .expect("one");
            let s = (0..3).find(|j| shared & (COLUMN << j) == 0).expect("one");
            if pa.side(&b[s]) != 0 {
                return false;
            }
            let (p, q) = (&a[(r + 1) % 3], &a[(r + 2) % 3]);
            fold_over(p, q, &a[r], &b[s])
        }
        _ => true,
    }
}

/// Whether `s`, in the plane of the proper triangle `p, q, r`, lies on the
/// same side of line `pq` as `r` (strictly).
fn fold_over(p: &Point3<f64>, q: &Point3<f64>, r: &Point3<f64>, s: &Point3<f64>) -> bool {
    (0..3)
        .map(|k| (o2(proj(p, k), proj(q, k), proj(r, k)), k))
        .find(|(side, _)| *side != 0)
        .is_some_and(|(side, k)| o2(proj(p, k), proj(q, k), proj(s, k)) == side)
}

/// Whether a triangle has zero area (collinear or coincident corners),
/// exactly (`Plane::degenerate`: the rounded normal decides when it is
/// clearly not zero, the exact test otherwise).
pub fn is_degenerate(t: &[Point3<f64>; 3]) -> bool {
    Plane::new(t).degenerate()
}
