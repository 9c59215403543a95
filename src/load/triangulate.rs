//! Triangulation of polygons (OBJ faces with more than three corners) by ear
//! clipping in the polygon's own plane, with exact orientation predicates.
//!
//! A fan from the first corner, which most loaders use, is wrong for concave
//! polygons: its triangles overlap and stick out of the polygon. Ear clipping
//! cuts off one convex corner at a time whose triangle holds no other corner,
//! so for a simple polygon the triangles tile it exactly.

use nalgebra::{Point3, Vector3};
use robust::{Coord, orient2d};

/// The Newell normal of a closed polygon: twice its vector area.
///
/// Its components are twice the signed areas of the polygon projected on the
/// (y, z), (z, x) and (x, y) planes, so it is well defined for non-planar and
/// concave polygons, and zero only for polygons that enclose no area.
pub fn newell_normal(points: &[Point3<f64>]) -> Vector3<f64> {
    let mut n = Vector3::zeros();
    for (i, a) in points.iter().enumerate() {
        let b = &points[(i + 1) % points.len()];
        n.x += (a.y - b.y) * (a.z + b.z);
        n.y += (a.z - b.z) * (a.x + b.x);
        n.z += (a.x - b.x) * (a.y + b.y);
    }
    n
}

/// Triangulates the polygon `points` (corners in order, the last joined to
/// the first) and returns its triangles as indices into `points`.
///
/// Guarantees, whatever the input:
/// - exactly `n - 2` triangles for `n >= 3` corners (none for fewer), each
///   corner index used as given, so counts match a fan triangulation;
/// - at most [`WORK_FLOOR`] + [`WORK_PER_CORNER`]·n corner examinations
///   (each one or four `orient2d`): when ear clipping has not finished
///   within that budget, the rest of the polygon is fanned, so the cost is
///   linear in the corners (ear clipping is O(n²) in practice, O(n³) on
///   hostile input). [`triangulate_within`] shares one budget between the
///   faces of a file, so a whole file costs at most that much;
/// - no panic (non-finite or degenerate input falls back to a fan).
///
/// Method: the polygon is projected along the dominant axis of its Newell
/// normal (dropping one coordinate keeps the coordinates exact) and mirrored
/// if needed so that it runs counter-clockwise. Ears are then clipped in three
/// passes of decreasing strictness, returning to the strictest after every
/// clip: (1) a strictly convex corner whose triangle contains no reflex or
/// collinear corner, boundary included (corners at the same position as the
/// ear's own are ignored, which handles the doubled bridge edges of polygons
/// with holes); (2) a collinear or repeated corner, clipped as a zero-area
/// triangle, which does not change the area left; (3) a convex corner with no
/// such corner strictly inside. If none exists (self-intersecting input), the
/// remainder is fanned (as it is when the work budget runs out: then from
/// the corner the last ears were clipped round, so a convex polygon past
/// the budget is one exact fan). For a
/// simple polygon, planar or not too warped, within the budget, the
/// triangles tile the projected polygon: their unsigned areas sum to its area
/// and none is inverted. All orientation tests use Shewchuk's exact
/// `orient2d`.
pub fn triangulate(points: &[Point3<f64>]) -> Vec<[usize; 3]> {
    triangulate_within(points, &mut WorkBudget::default())
}

/// Corner examinations ear clipping may still spend: [`WORK_FLOOR`] to
/// start with, plus [`WORK_PER_CORNER`] for every corner of every polygon
/// triangulated with it; what a polygon does not spend is left to the next.
#[derive(Clone, Copy, Debug)]
pub struct WorkBudget(usize);

impl Default for WorkBudget {
    fn default() -> Self {
        WorkBudget(WORK_FLOOR)
    }
}

impl WorkBudget {
    /// A budget with `remaining` examinations left: a chunk of a file read
    /// in parallel starts from a lower bound of what the faces before it
    /// left (`load::obj`).
    pub(crate) fn with_remaining(remaining: usize) -> WorkBudget {
        WorkBudget(remaining)
    }

    /// The examinations left. A polygon that leaves more than 0 never ran
    /// out, so it was clipped as it would have been with any larger budget.
    pub(crate) fn remaining(&self) -> usize {
        self.0
    }
}

/// [`triangulate`], spending from (and adding this polygon's share to) a
/// `budget` shared with other polygons, e.g. every face of one file.
pub fn triangulate_within(points: &[Point3<f64>], budget: &mut WorkBudget) -> Vec<[usize; 3]> {
    let n = points.len();
    budget.0 = budget.0.saturating_add(n.saturating_mul(WORK_PER_CORNER));
    match n {
        0..=2 => return Vec::new(),
        3 => return vec![[0, 1, 2]],
        _ => {}
    }
    let normal = newell_normal(points);
    match plane_coordinates(points, &normal) {
        Some(flat) => EarClipper::new(flat, &mut budget.0).run(),
        None => fan(&(0..n).collect::<Vec<_>>()),
    }
}

/// The polygon in 2-D, counter-clockwise: two of its coordinates, chosen by
/// the dominant axis of `normal` and swapped when that component is negative.
/// `None` when the normal is zero or not finite.
fn plane_coordinates(points: &[Point3<f64>], normal: &Vector3<f64>) -> Option<Vec<Coord<f64>>> {
    let axis = normal.iamax();
    let along = normal[axis];
    if along == 0.0 || !along.is_finite() {
        return None;
    }
    // Newell's x component is the signed area in the (y, z) plane, y in the
    // (z, x) plane and z in the (x, y) plane.
    let (u, v) = [(1, 2), (2, 0), (0, 1)][axis];
    let (u, v) = if along > 0.0 { (u, v) } else { (v, u) };
    Some(points.iter().map(|p| Coord { x: p[u], y: p[v] }).collect())
}

/// Corner examinations a budget grants per corner of each polygon.
pub const WORK_PER_CORNER: usize = 256;
/// Corner examinations a budget starts with: 2^22, enough to clip any one
/// face of up to about 1,500 corners to the end (ear clipping examines
/// roughly n²/2 to 2n² corners).
pub const WORK_FLOOR: usize = 1 << 22;

/// A fan from the first of `ring`.
fn fan(ring: &[usize]) -> Vec<[usize; 3]> {
    ring.windows(2)
        .skip(1)
        .map(|w| [ring[0], w[0], w[1]])
        .collect()
}

/// How strict an ear test is; see [`triangulate`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Pass {
    Strict,
    Degenerate,
    Relaxed,
}

/// Ear clipping over a doubly linked ring of corner indices.
struct EarClipper<'b> {
    pts: Vec<Coord<f64>>,
    prev: Vec<usize>,
    next: Vec<usize>,
    /// Corner examinations left (see [`WorkBudget`]).
    budget: &'b mut usize,
}

impl<'b> EarClipper<'b> {
    fn new(pts: Vec<Coord<f64>>, budget: &'b mut usize) -> Self {
        let n = pts.len();
        EarClipper {
            prev: (0..n).map(|i| (i + n - 1) % n).collect(),
            next: (0..n).map(|i| (i + 1) % n).collect(),
            pts,
            budget,
        }
    }

    /// Orientation of corner `i` with its current neighbours: > 0 convex,
    /// 0 collinear, < 0 reflex.
    fn turn(&self, i: usize) -> f64 {
        orient2d(self.pts[self.prev[i]], self.pts[i], self.pts[self.next[i]])
    }

    /// Whether corner `b` can be clipped in `pass`; each corner examined is
    /// charged to the budget.
    fn is_ear(&mut self, b: usize, pass: Pass) -> bool {
        *self.budget = self.budget.saturating_sub(1);
        let turn = self.turn(b);
        if pass == Pass::Degenerate {
            return turn == 0.0;
        }
        if turn <= 0.0 {
            return false;
        }
        let (a, c) = (self.prev[b], self.next[b]);
        let (pa, pb, pc) = (self.pts[a], self.pts[b], self.pts[c]);
        let mut j = self.next[c];
        while j != a {
            *self.budget = self.budget.saturating_sub(1);
            let p = self.pts[j];
            // A convex corner cannot be the first one inside an ear of a
            // simple polygon; a corner at an ear corner's position is a
            // bridge or a repeat, not an obstacle.
            if self.turn(j) <= 0.0 && p != pa && p != pb && p != pc {
                let s = [
                    orient2d(pa, pb, p),
                    orient2d(pb, pc, p),
                    orient2d(pc, pa, p),
                ];
                let blocked = match pass {
                    Pass::Strict => s.iter().all(|&o| o >= 0.0),
                    _ => s.iter().all(|&o| o > 0.0),
                };
                if blocked {
                    return false;
                }
            }
            j = self.next[j];
        }
        true
    }

    fn run(mut self) -> Vec<[usize; 3]> {
        let mut remaining = self.pts.len();
        let mut out = Vec::with_capacity(remaining - 2);
        let (mut cur, mut pass, mut tried) = (0, Pass::Strict, 0);
        while remaining > 3 {
            if *self.budget == 0 {
                // From the corner the last ears were clipped round (each
                // clip moves on to the next corner, so the ears of a convex
                // stretch are a fan from the corner before it): a convex
                // polygon is then one fan, whose triangles all share that
                // corner, not two fans from neighbouring corners.
                out.extend(fan(&self.ring_from(self.prev[cur])));
                return out;
            }
            if tried >= remaining {
                // A full turn of the ring found no ear at this strictness.
                pass = match pass {
                    Pass::Strict => Pass::Degenerate,
                    Pass::Degenerate => Pass::Relaxed,
                    Pass::Relaxed => {
                        out.extend(fan(&self.ring_from(cur)));
                        return out;
                    }
                };
                tried = 0;
            }
            if self.is_ear(cur, pass) {
                let (a, c) = (self.prev[cur], self.next[cur]);
                out.push([a, cur, c]);
                self.next[a] = c;
                self.prev[c] = a;
                remaining -= 1;
                (cur, pass, tried) = (c, Pass::Strict, 0);
            } else {
                cur = self.next[cur];
                tried += 1;
            }
        }
        out.push([self.prev[cur], cur, self.next[cur]]);
        out
    }

    /// The corners still in the ring, starting at `start`.
    fn ring_from(&self, start: usize) -> Vec<usize> {
        let mut ring = vec![start];
        let mut j = self.next[start];
        while j != start {
            ring.push(j);
            j = self.next[j];
        }
        ring
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square_with_notch() -> Vec<Point3<f64>> {
        // A "U": the fan from corner 0 would cover the notch.
        [
            (0.0, 0.0),
            (3.0, 0.0),
            (3.0, 3.0),
            (2.0, 3.0),
            (2.0, 1.0),
            (1.0, 1.0),
            (1.0, 3.0),
            (0.0, 3.0),
        ]
        .iter()
        .map(|&(x, y)| Point3::new(x, y, 0.0))
        .collect()
    }

    #[test]
    fn counts_and_index_ranges() {
        for n in 0..8usize {
            let pts: Vec<_> = (0..n).map(|i| Point3::new(i as f64, 0.0, 0.0)).collect();
            let tris = triangulate(&pts);
            assert_eq!(tris.len(), n.saturating_sub(2), "n = {n}");
            assert!(tris.iter().flatten().all(|&i| i < n));
        }
    }

    #[test]
    fn u_shape_area_is_exact() {
        let pts = square_with_notch();
        let area: f64 = triangulate(&pts)
            .iter()
            .map(|t| (pts[t[1]] - pts[t[0]]).cross(&(pts[t[2]] - pts[t[0]])).z / 2.0)
            .inspect(|&a| assert!(a >= 0.0, "inverted triangle"))
            .sum();
        assert_eq!(area, 7.0);
        assert_eq!(newell_normal(&pts).z, 14.0);
    }

    #[test]
    fn non_finite_input_falls_back_to_a_fan() {
        let pts = vec![
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(f64::NAN, 0.0, 0.0),
            Point3::new(1.0, 1.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
        ];
        assert_eq!(triangulate(&pts), vec![[0, 1, 2], [0, 2, 3]]);
    }
}
