//! Shortfall: the largest distance from a point of a mesh to the shape
//! meant to bound it — how far the mesh pokes out of a collider. It is the
//! other side of [`super::air`], which measures how far the collider's
//! surface stands off the mesh; together they say how far a collider and
//! its mesh disagree.
//!
//! The distance to a union of convex shapes `K_1 … K_n` (one shape, or a
//! decomposition's parts), `d(x) = min_i d_i(x)`, 0 inside any of them, is
//! searched over the mesh's triangles by branch and bound, as the air is
//! over a shape's surface. On a triangle `T` with corners `c_k` and
//! centroid `g` two upper bounds hold:
//!
//! - each `d_i` is convex (the distance to a convex set), so its largest
//!   value over `T` is at a corner, and `d ≤ min_i max_k d_i(c_k)` on `T`;
//! - `d` is 1-Lipschitz, so `d ≤ d(g) + ρ`, `ρ` the largest distance from
//!   `g` to a corner.
//!
//! Every value measured (at corners and centroids) is the distance of a
//! point of the mesh: the largest is a **lower bound** of the supremum, and
//! the largest upper bound over the triangles not yet split is an **upper
//! bound**. The triangle of the highest upper bound is split at its longest
//! edge's midpoint until the two are within the tolerance asked or the
//! sample budget is spent.
//!
//! For one convex shape the first bound is exact on every triangle, so no
//! triangle is split and the answer is exact: the largest distance over the
//! mesh's vertices. The mesh lies in its convex hull and `d_1` is convex,
//! so the hull's triangles give the same answer from fewer points (the
//! hull's vertices are mesh vertices).
//!
//! Distances: to a polytope (box, k-DOP, hull, decomposition part, given
//! by triangles covering its surface, [`Surface`]), 0 when the point lies
//! on the inner side of every face's plane and otherwise the least exact
//! point–triangle distance; to a sphere, capsule or cylinder, the distance
//! to its nearest point ([`Surface::project`]). Reported: the lower bound
//! and the gap to the upper bound plus twice the point–triangle rounding
//! bound (`64·ε·S` each, `S` the largest coordinate): the true shortfall
//! lies in `[shortfall, shortfall + bound]`, in the model's units.

use crate::fit::surface::Surface;
use crate::query::AirOptions;
use crate::query::cells::{Ranked, halves};
use crate::query::distance_point_mesh::{point_triangle, rounding_bound};
use nalgebra::{Point3, Vector3};
use robust::{Coord3D, orient3d};
use serde::Serialize;
use std::collections::BinaryHeap;

/// How far a mesh falls outside a shape: the supremum lies in
/// `[shortfall, shortfall + bound]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Shortfall {
    /// The largest distance found from a point of the mesh to the shape (0
    /// when the shape holds every point measured; a lower bound of the
    /// supremum).
    pub shortfall: f64,
    /// How much more the supremum can be (the search's gap plus rounding).
    pub bound: f64,
    /// The mesh point at that distance (`None` when nothing was measured:
    /// no triangle or no shape).
    pub point: Option<[f64; 3]>,
    /// Mesh triangles and pieces of them measured (the triangles, then at
    /// most the budget's pieces).
    pub samples: usize,
}

/// A convex shape as the search measures it.
struct Solid<'a> {
    surface: &'a Surface,
    /// For a polytope, the sign of `orient3d` on each triangle that the
    /// inside takes (the sign at the corners' mean); `None` for a triangle
    /// left out of the inside test: a sliver (an angle under about 0.06°,
    /// whose plane may tilt any way about its long side), or one whose plane
    /// holds the mean (any of a flat polytope's).
    inner: Vec<Option<bool>>,
    /// Whether the polytope has an inside (some triangle in the test).
    solid: bool,
    /// Each triangle's box, to skip triangles no nearer than the best.
    boxes: Vec<(Point3<f64>, Point3<f64>)>,
    /// The box of the covering triangles, which holds the shape.
    lo: Point3<f64>,
    hi: Point3<f64>,
}

fn coord(p: &Point3<f64>) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

impl<'a> Solid<'a> {
    fn new(surface: &'a Surface) -> Solid<'a> {
        let corners = || surface.triangles.iter().flatten();
        let (mut lo, mut hi) = (
            Point3::from([f64::INFINITY; 3]),
            Point3::from([-f64::INFINITY; 3]),
        );
        for p in corners() {
            lo = lo.inf(p);
            hi = hi.sup(p);
        }
        let mut inner = Vec::new();
        if surface.is_polytope() {
            // The corners' mean lies inside a solid polytope; the inner
            // side of each triangle is the mean's, by the exact predicate.
            let n = (3 * surface.triangles.len()).max(1) as f64;
            let mean = coord(&Point3::from(
                corners().fold(Vector3::zeros(), |s, p| s + p.coords) / n,
            ));
            inner = surface
                .triangles
                .iter()
                .map(|[a, b, c]| {
                    let longest = [(a, b), (b, c), (c, a)]
                        .map(|(p, q)| nalgebra::distance_squared(p, q))
                        .into_iter()
                        .fold(0.0, f64::max);
                    let sliver = (b - a).cross(&(c - a)).norm() <= 1e-3 * longest;
                    let side = orient3d(coord(a), coord(b), coord(c), mean);
                    (!sliver && side != 0.0).then_some(side > 0.0)
                })
                .collect();
        }
        let boxes = surface
            .triangles
            .iter()
            .map(|[a, b, c]| (a.inf(b).inf(c), a.sup(b).sup(c)))
            .collect();
        Solid {
            surface,
            boxes,
            solid: inner.iter().any(Option::is_some),
            inner,
            lo,
            hi,
        }
    }

    /// The distance from `x` to the box of the shape: at most the distance
    /// to the shape.
    fn gap(&self, x: &Point3<f64>) -> f64 {
        box_gap(x, &self.lo, &self.hi)
    }

    /// The distance from `x` to the shape: 0 when `x` is on the inner
    /// side of every triangle in the inside test, else the least distance
    /// to its triangles. (Measuring only the triangles `x` is beyond would
    /// be enough for a polytope of exact planes, but a face split into
    /// triangles is planar only up to rounding: a point on the face may lie
    /// a hair beyond one of its triangles and far from it.)
    fn distance(&self, x: &Point3<f64>) -> f64 {
        if !self.surface.is_polytope() {
            return nalgebra::distance(x, &self.surface.project(x));
        }
        let at = coord(x);
        let triangles = || self.surface.triangles.iter();
        let inside = self.solid
            && triangles().zip(&self.inner).all(|([a, b, c], inner)| {
                inner.is_none_or(|positive| {
                    let side = orient3d(coord(a), coord(b), coord(c), at);
                    side == 0.0 || (side > 0.0) == positive
                })
            });
        if inside {
            return 0.0;
        }
        let mut best = f64::INFINITY;
        for (t, (lo, hi)) in triangles().zip(&self.boxes) {
            if box_gap(x, lo, hi) < best {
                best = best.min(point_triangle(x, t));
            }
        }
        best
    }
}

/// The distance from `x` to the box `[lo, hi]` (0 inside).
fn box_gap(x: &Point3<f64>, lo: &Point3<f64>, hi: &Point3<f64>) -> f64 {
    (lo - x).sup(&(x - hi)).sup(&Vector3::zeros()).norm()
}

/// The distance from `x` to the union of `solids`.
fn union_distance(solids: &[Solid], x: &Point3<f64>) -> f64 {
    let mut best = f64::INFINITY;
    for s in solids {
        if s.gap(x) < best {
            best = best.min(s.distance(x));
            if best == 0.0 {
                break;
            }
        }
    }
    best
}

/// The corners' distances to the union, `min_i d_i(c_k)`, and the first
/// bound of the module docs, `min_i max_k d_i(c_k)`, in one pass over the
/// shapes, from shape `first` on (a shape whose box is too far to lower
/// either is skipped); with the shape that gave the bound.
fn corner_distances(
    solids: &[Solid],
    corners: &[Point3<f64>; 3],
    first: usize,
) -> ([f64; 3], f64, usize) {
    let (mut least, mut bound, mut by) = ([f64::INFINITY; 3], f64::INFINITY, first);
    let order = (first..solids.len()).chain(0..first);
    for (i, s) in order.map(|i| (i, &solids[i])) {
        let gaps = corners.map(|c| s.gap(&c));
        let lowers_bound = gaps.iter().fold(0.0, |m: f64, &g| m.max(g)) < bound;
        if !lowers_bound && (0..3).all(|k| gaps[k] >= least[k]) {
            continue;
        }
        let d = corners.map(|c| s.distance(&c));
        for k in 0..3 {
            least[k] = least[k].min(d[k]);
        }
        let far = d.iter().fold(0.0, |m: f64, &x| m.max(x));
        if far < bound {
            (bound, by) = (far, i);
        }
        if bound == 0.0 {
            break;
        }
    }
    (least, bound, by)
}

/// The search's state: the largest distance measured and where, the
/// samples, the triangles whose upper bound is above it.
struct Search {
    lower: f64,
    point: Point3<f64>,
    samples: usize,
    heap: BinaryHeap<Ranked<[Point3<f64>; 3]>>,
    /// The shape tried first.
    hint: usize,
}

impl Search {
    /// Measures the triangle `corners`: its corners' and centroid's
    /// distances raise the lower bound, and it is kept while its upper
    /// bound stays above.
    fn measure(&mut self, solids: &[Solid], corners: [Point3<f64>; 3]) {
        self.samples += 1;
        let g = Point3::from((corners[0].coords + corners[1].coords + corners[2].coords) / 3.0);
        let rho = corners
            .iter()
            .map(|c| nalgebra::distance(c, &g))
            .fold(0.0, f64::max);
        // Neighbouring triangles mostly lie in the same shape: it is tried
        // first. A triangle inside one shape is done (0 everywhere on it).
        let (least, bound, by) = corner_distances(solids, &corners, self.hint);
        self.hint = by;
        if bound == 0.0 {
            if self.lower < 0.0 {
                (self.lower, self.point) = (0.0, corners[0]);
            }
            return;
        }
        let at_g = union_distance(solids, &g);
        for (p, d) in corners.into_iter().zip(least).chain([(g, at_g)]) {
            if d > self.lower {
                (self.lower, self.point) = (d, p);
            }
        }
        let upper = bound.min(at_g + rho);
        if upper > self.lower {
            self.heap.push(Ranked {
                key: upper,
                item: corners,
            });
        }
    }
}

/// The shortfall of the mesh made of `triangles` against the union of the
/// convex shapes whose surfaces are `surfaces` (one for a shape, one per
/// part for a decomposition), searched as the module docs say, with the
/// tolerance of `opts`: every triangle is measured once, then at most
/// `opts.max_samples` pieces of them. No triangle or no surface gives 0 and bound 0
/// with no point.
///
/// # Guarantees
/// The largest distance from a point of the triangles to the union lies in
/// `[shortfall, shortfall + bound]`; for one shape `bound` is the rounding
/// bound alone.
///
/// ```
/// use bvtool::fit::{Sphere, surface::Surface};
/// use bvtool::query::{AirOptions, shortfall};
/// use nalgebra::Point3;
///
/// // A unit square against a sphere of radius 1 about its centre: the
/// // corners, √2/2 from the centre, lie inside; against radius 0.5 they
/// // fall 0.207 short.
/// let [a, b, c, d] = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]].map(|[x, y]| Point3::new(x, y, 0.0));
/// let square = [[a, b, c], [a, c, d]];
/// let about = |radius| Surface::sphere(&Sphere { center: Point3::new(0.5, 0.5, 0.0), radius });
/// let opts = AirOptions::relative_to(1.0);
/// assert_eq!(shortfall(&square, &[about(1.0)], &opts).shortfall, 0.0);
/// let s = shortfall(&square, &[about(0.5)], &opts);
/// assert!((s.shortfall - (0.5f64.sqrt() - 0.5)).abs() < 1e-12 && s.bound < 1e-12);
/// ```
pub fn shortfall(
    triangles: &[[Point3<f64>; 3]],
    surfaces: &[Surface],
    opts: &AirOptions,
) -> Shortfall {
    let solids: Vec<Solid> = surfaces
        .iter()
        .filter(|s| !s.triangles.is_empty())
        .map(Solid::new)
        .collect();
    if triangles.is_empty() || solids.is_empty() {
        return Shortfall {
            shortfall: 0.0,
            bound: 0.0,
            point: None,
            samples: 0,
        };
    }
    let scale = triangles
        .iter()
        .flatten()
        .chain(surfaces.iter().flat_map(|s| s.triangles.iter().flatten()))
        .map(|p| p.coords.amax().max(-p.coords.amin()))
        .fold(0.0, f64::max);
    let mut search = Search {
        lower: -1.0,
        point: triangles[0][0],
        samples: 0,
        heap: BinaryHeap::new(),
        hint: 0,
    };
    for t in triangles {
        search.measure(&solids, *t);
    }
    while let Some(top) = search.heap.peek() {
        if top.key <= search.lower + opts.tolerance
            || search.samples >= triangles.len() + opts.max_samples
        {
            break;
        }
        let corners = search.heap.pop().expect("peeked").item;
        for half in halves(&corners) {
            search.measure(&solids, half);
        }
    }
    let Search {
        lower,
        point,
        samples,
        heap,
        ..
    } = search;
    let upper = heap.peek().map_or(lower, |c| c.key.max(lower));
    Shortfall {
        shortfall: lower,
        bound: upper - lower + 2.0 * rounding_bound(scale),
        point: Some(point.coords.into()),
        samples,
    }
}
