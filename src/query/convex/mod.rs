//! The signed distance and translational penetration depth of two convex
//! shapes: boxes, spheres, capsules, cylinders, convex hulls, budget hulls,
//! k-DOPs and decomposition parts ([`Convex`]), with the contact normal,
//! witness points and the contact patch.
//!
//! # The definition
//!
//! For convex solids A and B (B placed by a pose), the **signed distance**
//! is their distance when apart and minus the **penetration depth** when
//! they overlap: the length of the shortest translation of B that leaves
//! the interiors disjoint (it touches then). Both are one number, by the
//! support function `h_M(u) = max{m·u : m ∈ M}` of the Minkowski difference
//! `M = A − B`:
//!
//! `signed distance = −min over unit u of h_M(u)`,
//!
//! because B moved by `v` meets A exactly when `v ∈ M`: apart, the least
//! of `h_M` is minus the distance from the origin to `M`; overlapping, it
//! is the distance from the origin (inside `M`) to `M`'s boundary, which a
//! convex set's supporting planes attain. The minimising `u` is the
//! **normal**: B moved by `depth·u` touches A, and apart `u` points from A
//! to B. Ball radii add: a sphere is a point grown by its radius, a capsule
//! a segment, so `h_M` gains `r_A + r_B` and the pair is decided on the
//! cores (a point, a segment, a box's corners, a polytope, a cylinder).
//! This is the depth coal and FCL compute with EPA.
//!
//! # The search and its guarantee
//!
//! The least of `h_M` over the sphere is found by best-first branch and
//! bound on the cube map: six faces split into quarters, each cell's edges
//! great-circle arcs. Each corner and centre `c` gives a point `x(c) ∈ M`
//! (A's support point along `c` less B's along `−c`), so `h_M(c) = x(c)·c`
//! bounds the minimum from above, and `h_M(u) ≥ max_j x_j·u` over the
//! cell's five points gives a lower bound over the cell: the least of that
//! piecewise-linear maximum on the cell's gnomonic projection (a small LP,
//! solved by enumerating its vertices), scaled by the projection's `cos ρ`,
//! and a second one in the chart at that least's direction, exact once the
//! tied points surround it (see `docs/algorithms.md`, "Convex depth"). A
//! cell is split while its lower bound is more
//! than the tolerance below the least value seen. The answer is attained:
//! the plane across `normal` at the reported distance separates A from B
//! moved by `depth·normal` (or, apart, lies between them), and the true
//! signed distance lies in `[signed_distance, signed_distance + bound]`,
//! `bound ≤ tolerance` (default `10⁻¹²·S`, `S` the largest coordinate's
//! magnitude of the two shapes as placed, plus their radii) unless the cell
//! cap stops the search (`capped`); rounding lowers the interval by at
//! most `16·ε·S` (ε = 2⁻⁵²). No iteration can cycle or fail to converge, as
//! EPA's can on flat or touching shapes: degenerate pairs (concentric
//! spheres, a face lying on a face) cost more cells, never a wrong answer.
//!
//! Cells in use: a median of 38 for two hulls of 24 points, 190 for two
//! cylinders; a polytope of `n` vertices costs `n` dot products a point.
//! A minimum along a whole circle of directions (a sphere on a cylinder's
//! axis) needs cells along the circle
//! and may reach the cap; the answer is then still attained, with the
//! bound achieved.
//!
//! # Witnesses and the contact patch
//!
//! At the normal, each core's **support face** is taken: its points within
//! `τ = 10⁻⁶·S` (and 64 tolerances) of the supporting plane (a cylinder's
//! cap as an inscribed 64-gon). Seen along the normal, the two faces
//! overlap in the **patch**, clipped with a slack of `10⁻⁹·S`: a polygon
//! for face on face, a segment or a point otherwise — one polygon per
//! contact plane, as coal's contact patches. The patch lies on A's surface.
//! The witnesses are the patch's centroid on A's surface and on B's:
//! `point_b − point_a = signed_distance·normal`, both points of their
//! shapes within `τ` of the surfaces (the tests see under `2·10⁻⁹·S`). When
//! the faces miss each other seen along the normal (an inexact normal),
//! `point_a` is the point of A's face nearest B's and `point_b` lies off
//! B's face by the miss.
//!
//! ```
//! use bvtool::fit::Obb;
//! use bvtool::pose::Pose;
//! use bvtool::query::convex::{Convex, ConvexOptions, signed_distance};
//! use nalgebra::{Matrix3, Point3, UnitQuaternion, Vector3};
//!
//! let cube = Convex::from(&Obb {
//!     center: Point3::origin(),
//!     axes: Matrix3::identity(),
//!     half_extents: Vector3::repeat(1.0),
//! });
//! // The second cube 1.5 along x: they overlap by 0.5.
//! let pose = Pose { rotation: UnitQuaternion::identity(), translation: Vector3::new(1.5, 0.3, 0.0) };
//! let d = signed_distance(&cube, &cube, &pose, &ConvexOptions::default()).unwrap();
//! assert!((d.signed_distance + 0.5).abs() <= 1e-11);
//! assert!((d.normal - Vector3::x()).norm() <= 1e-6);
//! assert_eq!(d.patch.len(), 4); // the square where the faces x = 1 and x = 0.5 meet
//! ```

mod patch;
mod search;
mod shape;

pub use shape::Convex;

use crate::pose::Pose;
use crate::query::pair::distance_triangle_triangle::triangle_distance;
use nalgebra::{Point3, Vector2, Vector3};
use shape::perpendicular_pair;

/// The default tolerance relative to the shapes' scale `S`.
pub const DEFAULT_RELATIVE_TOLERANCE: f64 = 1e-12;

/// The default cap on cells evaluated (about 200 bytes a cell kept).
pub const MAX_CELLS: usize = 100_000;

/// The largest cap accepted: a larger `max_cells` is taken as this (about
/// 800 MB of cells at most).
pub const CELL_LIMIT: usize = 4_000_000;

/// How closely to search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ConvexOptions {
    /// The absolute tolerance (model units); `None`: `10⁻¹²·S`.
    pub tolerance: Option<f64>,
    /// The most cells evaluated; `None`: [`MAX_CELLS`]; at most
    /// [`CELL_LIMIT`].
    pub max_cells: Option<usize>,
}

/// The answer of [`signed_distance`], everything in A's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexDistance {
    /// The distance when apart, minus the penetration depth when
    /// overlapping (model units).
    pub signed_distance: f64,
    /// The unit contact normal from A to B: B moved by `depth·normal`
    /// touches A; apart, the direction across the gap.
    pub normal: Vector3<f64>,
    /// The witness on A: `point_b − point_a = signed_distance·normal`.
    pub point_a: Point3<f64>,
    /// The witness on B.
    pub point_b: Point3<f64>,
    /// The contact patch on A's surface: a convex polygon's corners in
    /// order, a segment's ends or one point.
    pub patch: Vec<Point3<f64>>,
    /// The absolute tolerance used.
    pub tolerance: f64,
    /// The true signed distance is in `[signed_distance, signed_distance +
    /// bound]` (rounding aside); `bound ≤ tolerance` unless `capped`.
    pub bound: f64,
    /// Whether the cell cap stopped the search.
    pub capped: bool,
    /// The cells evaluated.
    pub cells: usize,
}

impl ConvexDistance {
    /// The penetration depth: `−signed_distance` when overlapping, else 0.
    pub fn depth(&self) -> f64 {
        (-self.signed_distance).max(0.0)
    }
}

/// The signed distance between `a` (at identity) and `b` placed by `pose`
/// (see [`crate::query::convex`]); `None` when a shape has no point.
pub fn signed_distance(
    a: &Convex,
    b: &Convex,
    pose: &Pose,
    options: &ConvexOptions,
) -> Option<ConvexDistance> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let b = &b.placed(pose);
    let scale = a.scale() + b.scale();
    let tolerance = options
        .tolerance
        .unwrap_or(DEFAULT_RELATIVE_TOLERANCE * scale)
        .max(f64::MIN_POSITIVE);
    let margin = 16.0 * f64::EPSILON * scale;
    let least = search::least_support(
        |u| a.core_support(u) - b.core_support(&-u),
        tolerance,
        margin,
        options.max_cells.unwrap_or(MAX_CELLS).min(CELL_LIMIT),
    );
    let (mut n, mut value) = (least.direction, least.value);
    let tau = 1e-6 * scale + 64.0 * tolerance;
    if value < 0.0 {
        // Apart cores: the exact closest points of the support faces give
        // the direction to rounding, where the search found it to the
        // square root of its tolerance (the least is flat there).
        if let Some((m, v)) = closest_direction(a, b, &n, tau, margin)
            && v <= value + margin
        {
            (n, value) = (m, v.min(value));
        }
    }
    let radii = a.radius() + b.radius();
    // `+ 0.0`: touching shapes at 0, not −0.
    let signed_distance = -value - radii + 0.0;

    // The support faces, seen along the normal, and their overlap.
    let (e1, e2) = perpendicular_pair(&n);
    // In units of the scale, so that the patch's products neither
    // underflow on tiny shapes nor overflow on huge ones.
    let unit = scale.max(f64::MIN_POSITIVE);
    let flat = |p: &Point3<f64>| Vector2::new(p.coords.dot(&e1), p.coords.dot(&e2)) / unit;
    let face_a: Vec<_> = a.support_face(&n, tau).iter().map(flat).collect();
    let face_b: Vec<_> = b.support_face(&-n, tau).iter().map(flat).collect();
    let overlap = patch::overlap(face_a, face_b, 1e-9 + 64.0 * tolerance / unit);
    let centroid = overlap.iter().sum::<Vector2<f64>>() / overlap.len() as f64;
    let top_a = a.core_support(&n).coords.dot(&n) + a.radius();
    let lift =
        |w: &Vector2<f64>, height: f64| Point3::from((e1 * w.x + e2 * w.y) * unit + n * height);
    let point_a = lift(&centroid, top_a);
    Some(ConvexDistance {
        signed_distance,
        normal: n,
        point_a,
        point_b: point_a + n * signed_distance,
        patch: overlap.iter().map(|w| lift(w, top_a)).collect(),
        tolerance,
        bound: (value - least.lower).max(0.0),
        capped: least.capped,
        cells: least.cells,
    })
}

/// For cores apart by about `-value` along `n`: the exact closest points of
/// their support faces (fans of triangles, [`triangle_distance`]), and the
/// direction between them with the least support value there, when those
/// points are support points along it (so the faces were the right ones).
fn closest_direction(
    a: &Convex,
    b: &Convex,
    n: &Vector3<f64>,
    tau: f64,
    margin: f64,
) -> Option<(Vector3<f64>, f64)> {
    let fan = |points: Vec<Point3<f64>>| -> Vec<[Point3<f64>; 3]> {
        let (e1, e2) = perpendicular_pair(n);
        let flat: Vec<_> = points
            .iter()
            .map(|p| Vector2::new(p.coords.dot(&e1), p.coords.dot(&e2)))
            .collect();
        let order = patch::hull_order(&flat, tau);
        match order.len() {
            0 => vec![],
            1 => vec![[points[order[0]]; 3]],
            2 => vec![[points[order[0]], points[order[1]], points[order[1]]]],
            k => (1..k - 1)
                .map(|i| [points[order[0]], points[order[i]], points[order[i + 1]]])
                .collect(),
        }
    };
    let (fa, fb) = (fan(a.support_face(n, tau)), fan(b.support_face(&-n, tau)));
    let mut best: Option<(f64, Point3<f64>, Point3<f64>)> = None;
    for ta in &fa {
        for tb in &fb {
            let d = triangle_distance(ta, tb);
            if best.is_none_or(|(bd, _, _)| d.distance < bd) {
                best = Some((d.distance, d.point_a, d.point_b));
            }
        }
    }
    let (d, pa, pb) = best?;
    let m = (pa - pb).try_normalize(0.0)?;
    // Cores apart: A lies below the plane across m, B beyond it.
    let m = -m;
    let v = a.core_support(&m).coords.dot(&m) - b.core_support(&-m).coords.dot(&m);
    ((v + d).abs() <= 4.0 * margin).then_some((m, v))
}
