//! The convex hull under a budget: a convex polytope of at most N vertices
//! and N faces that contains every point — the collider PhysX and Unity
//! accept (255 each) or a GPU profile asks for (64).
//!
//! The approach is PhysX's "OBB sliced by hull planes", chosen over pushing
//! the exact hull's planes out (which needs a plane-subset search and can
//! leave a polytope with more vertices than the hull): start from the box of
//! the points along the reported OBB's axes, then cut it greedily with the
//! supporting planes of the exact hull's faces, deepest cut first, keeping a
//! cut only if the polytope still has at most N vertices and N faces.
//!
//! **Containment**: every plane used is a supporting plane of the point set
//! — its offset is the greatest `n·p` over all hull vertices, rounded up
//! ([`dot_interval`]) — so the polytope of the planes contains every point;
//! its computed vertices lie on their planes up to rounding (64 ε of the
//! coordinates), so at the end the hull of the vertices is checked exactly
//! (quickhull on `orient3d`) to contain every point, and when rounding left
//! one a few ulps outside, the vertices are scaled about their centroid by
//! 1 + 10⁻¹² (tenfold more until every point is in). The planes are not
//! pushed out beforehand: planes meeting at one hull vertex then meet at
//! one computed vertex, not at a cluster a push apart, which would spend
//! the budget on slivers.
//!
//! **Greedy order**: a plane's depth is how far the current polytope
//! reaches beyond it (the largest `n·v − h` over its vertices). The polytope
//! only shrinks, so a depth computed earlier bounds it from above: planes
//! wait in a max-heap under their last depth and are re-measured when they
//! reach the top (lazy evaluation), so each step re-measures few planes.
//! A plane whose cut would break the budget is set aside; after
//! `REJECTIONS` in a row the search stops. With a budget the exact hull
//! fits in, every plane ends up used or cutting nothing: the result is the
//! hull (up to the rounding push), with coplanar triangles as one face.

use crate::fit::hull::ConvexHull;
use crate::fit::obb::Obb;
use crate::fit::polytope::{self, Polytope, dot_interval};
use crate::threads::{Stop, Stopped, unstopped};
use nalgebra::{Point3, Vector3};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// The default budget: PhysX's and Unity's limit on a convex mesh collider.
pub const DEFAULT_BUDGET: usize = 255;
/// The least budget: the starting box has 8 vertices and 6 faces.
pub const MIN_BUDGET: usize = 8;
/// The greatest budget: each step welds the polytope's corners (quadratic
/// in its size).
pub const MAX_BUDGET: usize = 1024;
/// Cuts in a row that would break the budget before the search stops.
const REJECTIONS: usize = 16;
/// The first push of the vertices when rounding left a point outside,
/// relative to the diameter.
pub const MARGIN: f64 = 1e-12;

/// A convex polytope of at most `max` vertices and `max` faces containing
/// every point.
#[derive(Clone, Debug)]
pub struct BudgetHull {
    /// The budget.
    pub max: usize,
    /// Vertices.
    pub vertices: Vec<Point3<f64>>,
    /// Faces: convex polygons of vertex indices, counter-clockwise seen from
    /// outside.
    pub faces: Vec<Vec<u32>>,
    /// Hull planes cut into the starting box.
    pub planes: usize,
    /// Whether every hull plane was used or cut nothing: the polytope is
    /// the exact hull (up to the rounding push). Never for flat points,
    /// which have no hull planes and get the flat box.
    pub exact: bool,
}

/// A hull face's plane, waiting in the heap under its last measured depth.
struct Candidate {
    depth: f64,
    index: usize,
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        self.depth
            .total_cmp(&other.depth)
            .then(other.index.cmp(&self.index))
    }
}

impl BudgetHull {
    /// The polytope for `hull` (of the points to bound) within `max`
    /// vertices and faces (clamped to [`MIN_BUDGET`]..=[`MAX_BUDGET`]),
    /// starting from the box along `obb`'s axes. `None` when the hull has
    /// no vertices.
    ///
    /// # Guarantees
    /// The polytope has at most `max` vertices and `max` faces (clamped to
    /// 8..=1024) and contains every vertex of `hull`; with a budget the hull
    /// fits in, it is the hull (`exact`).
    ///
    /// ```
    /// use bvtool::fit::{BudgetHull, ConvexHull, ObbMethod, obb_of_points};
    /// use bvtool::load::load;
    ///
    /// let points = load("models/torus.obj".as_ref(), &Default::default())?.world_points(false);
    /// let hull = ConvexHull::new(&points).unwrap();
    /// let obb = obb_of_points(&points, ObbMethod::Tight).unwrap();
    /// let b = BudgetHull::new(&hull, &obb, 32).unwrap();
    /// assert!(b.vertices.len() <= 32 && b.faces.len() <= 32);
    /// assert!(b.volume() >= hull.volume());
    /// # Ok::<(), bvtool::Error>(())
    /// ```
    pub fn new(hull: &ConvexHull, obb: &Obb, max: usize) -> Option<BudgetHull> {
        unstopped(|stop| BudgetHull::new_until(hull, obb, max, stop))
    }

    /// [`new`](Self::new), giving up with [`Stopped`] when `stop` is set
    /// (checked once per plane tried).
    pub(crate) fn new_until(
        hull: &ConvexHull,
        obb: &Obb,
        max: usize,
        stop: Stop<'_>,
    ) -> Result<Option<BudgetHull>, Stopped> {
        let max = max.clamp(MIN_BUDGET, MAX_BUDGET);
        let points = &hull.vertices;
        let Some(first) = points.first() else {
            return Ok(None);
        };
        let (lo, hi) = points
            .iter()
            .fold((*first, *first), |(lo, hi), p| (lo.inf(p), hi.sup(p)));
        let scale = lo.coords.abs().sup(&hi.coords.abs()).max();
        // The supporting offset of direction `n`, rounded up.
        let support = |n: &Vector3<f64>| {
            points
                .iter()
                .map(|p| dot_interval(n, p).1)
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let axes = [obb.axis(0), obb.axis(1), obb.axis(2)];
        let slabs = axes.map(|a| (-support(&-a), support(&a)));
        let planes: Vec<(Vector3<f64>, f64)> = hull
            .faces
            .iter()
            .filter_map(|f| {
                let [a, b, c] = f.map(|i| points[i as usize]);
                let n = (b - a).cross(&(c - a));
                let n = n / n.norm();
                let h = [a, b, c]
                    .iter()
                    .map(|p| n.dot(&p.coords))
                    .fold(f64::MIN, f64::max);
                n.iter().all(|x| x.is_finite()).then_some((n, h))
            })
            .collect();
        let mut poly = Polytope::slab_box(
            &axes,
            slabs.map(|s| s.0),
            slabs.map(|s| s.1),
            scale + (hi - lo).norm(),
        );
        // A plane reaching less than this into the polytope cuts nothing
        // the clipping can tell from rounding.
        let done = 4.0 * poly.tol;
        let (mut vertices, mut faces) = poly.welded();
        let depth = |(n, h): &(Vector3<f64>, f64), vs: &[Point3<f64>]| {
            vs.iter()
                .map(|v| n.dot(&v.coords) - h)
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let mut heap: BinaryHeap<Candidate> = planes
            .iter()
            .enumerate()
            .map(|(index, p)| Candidate {
                depth: depth(p, &vertices),
                index,
            })
            .collect();
        let (mut used, mut rejected, mut rejections) = (0, 0, 0);
        while let Some(top) = heap.pop() {
            stop.check()?;
            let plane = &planes[top.index];
            let d = depth(plane, &vertices);
            if d <= done {
                continue;
            }
            if heap.peek().is_some_and(|next| d < next.depth) {
                heap.push(Candidate { depth: d, ..top });
                continue;
            }
            let mut trial = poly.clone();
            trial.clip(plane.0, support(&plane.0));
            let (v, f) = trial.welded();
            if v.len() > max || f.len() > max {
                rejected += 1;
                rejections += 1;
                if rejections >= REJECTIONS {
                    break;
                }
                continue;
            }
            rejections = 0;
            (poly, vertices, faces) = (trial, v, f);
            used += 1;
        }
        let vertices = spanning(vertices, points, MARGIN * (hi - lo).norm());
        Ok(Some(BudgetHull {
            max,
            vertices,
            faces,
            planes: used,
            exact: hull.dimension == 3 && rejected == 0 && heap.is_empty(),
        }))
    }

    /// Volume.
    pub fn volume(&self) -> f64 {
        polytope::volume(&self.vertices, &self.faces)
    }

    /// Surface area.
    pub fn surface_area(&self) -> f64 {
        polytope::surface_area(&self.vertices, &self.faces)
    }
}

/// `vertices`, scaled about their centroid just enough that their hull
/// contains every one of `points` — checked exactly (quickhull on
/// `orient3d`). The computed vertices lie on their planes up to rounding, so
/// a point on the hull's surface can fall a few ulps outside; each push
/// moves every face out by at least `push` times the ratio of its distance
/// from the centroid to the diameter, and grows tenfold until all points
/// are in (the first push almost always suffices).
pub fn spanning(vertices: Vec<Point3<f64>>, points: &[Point3<f64>], push: f64) -> Vec<Point3<f64>> {
    // A flat polytope (flat points) has no inside to test against.
    let Ok(hull) = ConvexHull::new(&vertices) else {
        return vertices;
    };
    if hull.dimension < 3 || points.iter().all(|p| hull.contains(p)) {
        return vertices;
    }
    let c = polytope::centroid(&vertices).expect("a 3-D hull has vertices");
    let diameter = vertices.iter().map(|v| (v - c).norm()).fold(0.0, f64::max) * 2.0;
    let mut s = push / diameter.max(f64::MIN_POSITIVE);
    // Doubling the size (s = 1) contains any point within the polytope's
    // own size of it: the loop ends by then.
    loop {
        let grown: Vec<Point3<f64>> = vertices.iter().map(|v| c + (v - c) * (1.0 + s)).collect();
        let inside = ConvexHull::new(&grown).is_ok_and(|h| points.iter().all(|p| h.contains(p)));
        if inside || s >= 1.0 {
            return grown;
        }
        s *= 10.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::ObbMethod;

    /// Points on a sphere (a golden-angle spiral): their hull has every one
    /// as a vertex.
    fn sphere_points(n: usize) -> Vec<Point3<f64>> {
        let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
        (0..n)
            .map(|i| {
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
                let r = (1.0 - z * z).sqrt();
                let t = golden * i as f64;
                Point3::new(r * t.cos(), r * t.sin(), z)
            })
            .collect()
    }

    fn fit(points: &[Point3<f64>], max: usize) -> (ConvexHull, BudgetHull) {
        let hull = ConvexHull::new(points).unwrap();
        let obb = crate::fit::obb(points, &hull, ObbMethod::Tight).unwrap();
        let b = BudgetHull::new(&hull, &obb, max).unwrap();
        (hull, b)
    }

    /// Within the budget, containing every point (checked exactly with the
    /// hull of the result's vertices), no smaller than the hull and no
    /// larger than the starting box.
    #[test]
    fn budget_holds_and_every_point_is_inside() {
        let pts = sphere_points(400);
        for max in [8, 16, 64, 255] {
            let (hull, b) = fit(&pts, max);
            assert!(b.vertices.len() <= max && b.faces.len() <= max, "{max}");
            let outer = ConvexHull::new(&b.vertices).unwrap();
            assert!(pts.iter().all(|p| outer.contains(p)), "{max}");
            assert!(b.volume() >= hull.volume());
            assert!(b.volume() <= 8.0 * (1.0 + 1e-6), "{}", b.volume());
            assert!(!b.exact);
        }
    }

    /// A bigger budget gives up less volume.
    #[test]
    fn more_budget_less_volume() {
        let pts = sphere_points(400);
        let v: Vec<f64> = [8, 32, 128, 512].map(|m| fit(&pts, m).1.volume()).to_vec();
        assert!(v.windows(2).all(|w| w[1] < w[0]), "{v:?}");
    }

    /// A budget the hull fits in gives the hull: an octahedron's 6 vertices
    /// and 8 faces, and a cube's coplanar triangle pairs as 6 faces.
    #[test]
    fn the_hull_when_it_fits() {
        let octa: Vec<Point3<f64>> = (0..6)
            .map(|i| {
                let mut c = [0.0; 3];
                c[i / 2] = if i % 2 == 0 { 1.0 } else { -1.0 };
                Point3::from(c)
            })
            .collect();
        let (hull, b) = fit(&octa, 255);
        assert!(b.exact);
        assert_eq!((b.vertices.len(), b.faces.len()), (6, 8));
        assert!((b.volume() / hull.volume() - 1.0).abs() < 1e-7);
        let cube: Vec<Point3<f64>> = (0..8)
            .map(|i| Point3::new((i & 1) as f64, (i >> 1 & 1) as f64, (i >> 2 & 1) as f64))
            .collect();
        let (_, b) = fit(&cube, 8);
        assert!(b.exact);
        assert_eq!((b.vertices.len(), b.faces.len()), (8, 6));
    }
}
