//! The 3-D convex hull of a point set (quickhull with exact orientation tests).

pub mod planar;

use crate::fit::covariance;
use crate::fit::hull::planar::monotone_chain;
use crate::mesh::weld::distinct;
use crate::threads::{Stop, Stopped, unstopped};
use nalgebra::{Point3, Vector3};
use rayon::prelude::*;
use robust::{Coord3D, orient3d};
use wide::f64x4;

/// Why a hull cannot be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HullError {
    /// There are no points.
    #[error("no points to bound")]
    Empty,
    /// A coordinate is NaN or infinite.
    #[error("point {index} has a non-finite coordinate")]
    NonFinite {
        /// Index of the first offending point.
        index: usize,
    },
}

/// The convex hull of a point set.
///
/// For full-dimensional input (`dimension == 3`) `faces` triangulate the hull
/// boundary, each triangle counter-clockwise seen from outside, and every input
/// point lies inside or on the hull **exactly** (all side tests are Shewchuk's
/// adaptive-exact `orient3d`). Coplanar hull facets stay triangulated, so
/// `faces` may hold several triangles per planar facet, and a point lying
/// exactly on a facet may be kept as a (non-extreme) vertex of it.
///
/// Degenerate input is reported, not refused: `dimension` 2 (all points
/// coplanar) keeps the 2-D hull polygon in counter-clockwise order as
/// `vertices` and no faces; 1 (collinear) keeps the two end points; 0 (one
/// repeated point) keeps that point. Their volume is 0.
#[derive(Clone, Debug)]
pub struct ConvexHull {
    /// Hull vertices (a subset of the input points).
    pub vertices: Vec<Point3<f64>>,
    /// Outward counter-clockwise triangles indexing `vertices` (empty unless
    /// `dimension == 3`).
    pub faces: Vec<[u32; 3]>,
    /// Affine dimension of the input: 0, 1, 2 or 3.
    pub dimension: u8,
}

fn coord(p: &Point3<f64>) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// Exact: `true` iff `p` lies strictly on the outer side of triangle `t`
/// (counter-clockwise seen from outside).
///
/// Four points sharing one coordinate lie in an axis plane, so their
/// determinant is exactly zero: CAD models' flat sides are mostly such
/// planes, and their points reach this test only because the float filter
/// cannot sign a zero, which costs `orient3d` its slowest, fully exact stage
/// (99 % of fandisk's exact calls, 60 % of its hull time).
fn above(pts: &[Point3<f64>], t: &[u32; 3], p: &Point3<f64>) -> bool {
    let [a, b, c] = t.map(|i| &pts[i as usize]);
    let in_axis_plane = |k: usize| a[k] == p[k] && b[k] == p[k] && c[k] == p[k];
    !(in_axis_plane(0) || in_axis_plane(1) || in_axis_plane(2))
        && orient3d(coord(a), coord(b), coord(c), coord(p)) < 0.0
}

/// A static floating-point filter in front of the exact `orient3d`.
///
/// With every coordinate difference at most `extent` in magnitude, the
/// float value of `n·(p − a)` with `n = (b − a) × (c − a)` (the orient3d
/// determinant up to sign, same evaluation structure) is off by at most
/// about 7ε times its permanent, which is at most 6·extent³ (Shewchuk's
/// `o3derrboundA`), i.e. below 5e-15·extent³. A float value beyond
/// `tol = 1e-12·extent³` therefore has the exact sign; anything closer goes
/// to the adaptive-exact predicate. The filter is off (tol = ∞) when
/// extent³ could overflow or products could underflow out of that bound.
#[derive(Clone, Copy)]
struct SideFilter {
    tol: f64,
}

impl SideFilter {
    /// For points within the box `lo`–`hi`.
    fn new(lo: &Point3<f64>, hi: &Point3<f64>) -> SideFilter {
        let extent = (hi - lo).amax();
        let tol = if (1e-60..=1e60).contains(&extent) {
            1e-12 * extent * extent * extent
        } else {
            f64::INFINITY
        };
        SideFilter { tol }
    }

    /// Exact: whether `p` is strictly above face `f`, and if so the float
    /// value of `n·(p − a)` that ranks it among the face's points.
    fn height(&self, pts: &[Point3<f64>], f: &Plane, p: &Point3<f64>) -> Option<f64> {
        let v = f.normal.dot(&(p - f.base));
        if v > self.tol {
            Some(v)
        } else if v < -self.tol {
            None
        } else {
            above(pts, &f.v, p).then_some(v)
        }
    }
}

/// The float value `n·(p − a)` of four planes at once, evaluated as
/// [`SideFilter::height`] does, so its error bound holds.
fn side(a: &[f64x4; 3], n: &[f64x4; 3], p: [f64x4; 3]) -> f64x4 {
    (p[0] - a[0]) * n[0] + (p[1] - a[1]) * n[1] + (p[2] - a[2]) * n[2]
}

/// Planes four at a time (each lane a face's first corner `a` and its float
/// normal `n`, as [`Face`] keeps them; the last chunk padded by repeating
/// the last plane): the faces of the Akl–Toussaint pre-filter's small hull.
struct PlaneSet {
    a: Vec<[f64x4; 3]>,
    n: Vec<[f64x4; 3]>,
}

impl PlaneSet {
    /// From `(a, n)` pairs.
    fn new(planes: &[(Point3<f64>, Vector3<f64>)]) -> PlaneSet {
        let lanes = |k: usize, of_a: bool| {
            std::array::from_fn(|axis| {
                f64x4::new(std::array::from_fn(|lane| {
                    let (a, n) = &planes[(4 * k + lane).min(planes.len() - 1)];
                    if of_a { a[axis] } else { n[axis] }
                }))
            })
        };
        let chunks = planes.len().div_ceil(4);
        PlaneSet {
            a: (0..chunks).map(|k| lanes(k, true)).collect(),
            n: (0..chunks).map(|k| lanes(k, false)).collect(),
        }
    }

    /// Pushes the points of `block` that are not certainly strictly inside
    /// every plane onto `kept`. The planes that hold all eight corners of
    /// the block's bounding box certainly strictly below them hold every
    /// point of the block so (each face's exact side is an affine function
    /// of the point, negative at the corners, so on the whole box); only
    /// the other planes are tested point by point. Points stored in mesh
    /// order lie near each other, so a block inside the hull usually needs
    /// no point test at all. `open` is scratch space.
    fn keep_outside(
        &self,
        filter: SideFilter,
        block: &[Point3<f64>],
        open: &mut Vec<(usize, f64x4)>,
        kept: &mut Vec<Point3<f64>>,
    ) {
        let (lo, hi) = block
            .iter()
            .fold((block[0], block[0]), |(lo, hi), p| (lo.inf(p), hi.sup(p)));
        let below = f64x4::splat(-filter.tol);
        // Chunks of four planes with a plane the box does not clear, and
        // the lanes it clears.
        open.clear();
        for (k, (a, n)) in self.a.iter().zip(&self.n).enumerate() {
            let mut held = f64x4::splat(-1.0).simd_lt(f64x4::ZERO);
            for c in 0..8usize {
                let corner = |i: usize| f64x4::splat(if c >> i & 1 == 0 { lo[i] } else { hi[i] });
                held &= side(a, n, [corner(0), corner(1), corner(2)]).simd_lt(below);
            }
            if !held.all() {
                open.push((k, held));
            }
        }
        if open.is_empty() {
            return;
        }
        kept.extend(block.iter().filter(|p| {
            let p = [p.x, p.y, p.z].map(f64x4::splat);
            !open
                .iter()
                .all(|&(k, held)| (side(&self.a[k], &self.n[k], p).simd_lt(below) | held).all())
        }));
    }
}

/// A face's corners, and what the side tests read of it: the first corner
/// and the unnormalized outward normal `(b − a) × (c − a)` in floating
/// point, which rank the points above it and feed the [`SideFilter`].
#[derive(Clone, Copy)]
struct Plane {
    v: [u32; 3],
    base: Point3<f64>,
    normal: Vector3<f64>,
}

/// The points strictly above a face, linked through an array `next`
/// indexed by candidate position (nothing allocated per face, nothing
/// copied when a face dies), how many, and the highest of them (the last
/// of the highest when several tie).
#[derive(Clone, Copy)]
struct Outside {
    head: u32,
    tail: u32,
    count: u32,
    eye: u32,
    eye_height: f64,
}

impl Outside {
    const EMPTY: Outside = Outside {
        head: NONE,
        tail: NONE,
        count: 0,
        eye: NONE,
        eye_height: f64::NEG_INFINITY,
    };

    /// Adds `q`, strictly above the face at float `height`, in front;
    /// `link` is `next[q]`. The first point is taken whatever its height,
    /// so a NaN from coordinates too large for the float filter still
    /// leaves an eye.
    fn push(&mut self, link: &mut u32, q: u32, height: f64) {
        if self.count == 0 || height >= self.eye_height {
            (self.eye, self.eye_height) = (q, height);
        }
        *link = self.head;
        if self.count == 0 {
            self.tail = q;
        }
        self.head = q;
        self.count += 1;
    }

    /// Adds the points of `later` (pushed after these) in front, as if
    /// pushed one by one.
    fn prepend(&mut self, later: &Outside, next: &mut [u32]) {
        if later.count == 0 {
            return;
        }
        if self.count == 0 || later.eye_height >= self.eye_height {
            (self.eye, self.eye_height) = (later.eye, later.eye_height);
        }
        next[later.tail as usize] = self.head;
        if self.count == 0 {
            self.tail = later.tail;
        }
        self.head = later.head;
        self.count += later.count;
    }
}

struct Face {
    plane: Plane,
    /// `adj[i]` is the face across edge `v[i] → v[i+1]`.
    adj: [u32; 3],
    outside: Outside,
    alive: bool,
}

impl Face {
    fn new(pts: &[Point3<f64>], v: [u32; 3]) -> Face {
        let [a, b, c] = v.map(|i| pts[i as usize]);
        Face {
            plane: Plane {
                v,
                base: a,
                normal: (b - a).cross(&(c - a)),
            },
            adj: [u32::MAX; 3],
            outside: Outside::EMPTY,
            alive: true,
        }
    }
}

/// The end of an outside list.
const NONE: u32 = u32::MAX;

impl ConvexHull {
    /// Quickhull (Barber, Dobkin, Huhdanpaa 1996) without facet merging:
    /// start from a tetrahedron of far-apart points, hand every point to
    /// one face it is strictly above, then repeatedly lift the farthest
    /// outside point of a face, replacing the faces it sees by a cone to the
    /// horizon. Visibility uses exact `orient3d`, so the hull stays
    /// (weakly) convex and the horizon a simple cycle even on coplanar or
    /// duplicate points; points inside or on the current hull are dropped
    /// early, which makes the typical cost O(n log h).
    ///
    /// Speed-ups that keep this exact: an Akl–Toussaint pre-filter drops
    /// the points that are certainly strictly inside the hull of the extreme
    /// points along 26 directions (so inside the final hull), four faces at
    /// a time and a block of 32 points at a time where the block's box
    /// clears a face; repeated points are dropped (after the pre-filter)
    /// since a copy of a point on a hull plane costs the exact predicate its
    /// slowest path; each face remembers its farthest point as points are
    /// handed to it; side tests first try a static floating-point filter
    /// whose error bound is proven (see `SideFilter`) and fall back to
    /// `orient3d` only when in doubt; the first assignment and large
    /// reassignments run in parallel. Memory is the other cost of a small
    /// hull: the points are used in place (the repeat-free set is a list of
    /// indices), each face's outside points are a list linked through one
    /// array (no allocation per face, nothing copied when a face dies), and
    /// new faces take dead faces' slots — fresh memory costs a page fault
    /// per 4 KiB on every call (about 30 a call on NegativeScaleTest's
    /// 4,000 points before these, 2 after).
    ///
    /// Errors on empty input or a non-finite coordinate.
    ///
    /// # Guarantees
    /// Every orientation decision is exact (`orient3d` on the `f64`
    /// coordinates): every point lies inside or on the hull, and its vertices are
    /// points of the input. Flat and degenerate inputs give a hull of lower
    /// `dimension`, never a panic.
    ///
    /// ```
    /// use bvtool::fit::ConvexHull;
    /// use nalgebra::Point3;
    ///
    /// let mut points: Vec<Point3<f64>> = (0..8)
    ///     .map(|i| Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, (i >> 2) as f64))
    ///     .collect();
    /// points.push(Point3::new(0.5, 0.5, 0.5)); // inside: not a vertex
    /// let hull = ConvexHull::new(&points).unwrap();
    /// assert_eq!((hull.vertices.len(), hull.dimension), (8, 3));
    /// assert!((hull.volume() - 1.0).abs() < 1e-12);
    /// assert!(points.iter().all(|p| hull.contains(p)));
    /// ```
    pub fn new(points: &[Point3<f64>]) -> Result<ConvexHull, HullError> {
        unstopped(|stop| ConvexHull::new_until(points, stop))
    }

    /// [`new`](Self::new), giving up with [`Stopped`] when `stop` is set
    /// (checked every [`STOP_EVERY`] faces quickhull grows).
    pub(crate) fn new_until(
        points: &[Point3<f64>],
        stop: Stop<'_>,
    ) -> Result<Result<ConvexHull, HullError>, Stopped> {
        crate::threads::on_pool(|| ConvexHull::checked(points, stop))
    }

    /// [`new_until`](Self::new_until), on the calling thread.
    fn checked(
        points: &[Point3<f64>],
        stop: Stop<'_>,
    ) -> Result<Result<ConvexHull, HullError>, Stopped> {
        if points.is_empty() {
            return Ok(Err(HullError::Empty));
        }
        // One pass: the first point with a non-finite coordinate, or the
        // bounding box (the float filter's scale, and whether to rescale).
        let bounds = points
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, chunk)| {
                let mut b = (chunk[0], chunk[0]);
                for (i, p) in chunk.iter().enumerate() {
                    if !p.iter().all(|x| x.is_finite()) {
                        return Err(c * CHUNK + i);
                    }
                    b = (b.0.inf(p), b.1.sup(p));
                }
                Ok(b)
            })
            .reduce_with(|a, b| match (a, b) {
                (Err(i), Err(j)) => Err(i.min(j)),
                (Err(i), _) | (_, Err(i)) => Err(i),
                (Ok(a), Ok(b)) => Ok((a.0.inf(&b.0), a.1.sup(&b.1))),
            })
            .expect("points is not empty");
        let (lo, hi) = match bounds {
            Ok(b) => b,
            Err(index) => return Ok(Err(HullError::NonFinite { index })),
        };
        let largest = lo.coords.abs().sup(&hi.coords.abs()).max();
        let Some(k) = exact_scale(largest) else {
            return Ok(Ok(ConvexHull::of_finite(
                points,
                SideFilter::new(&lo, &hi),
                stop,
            )?));
        };
        // A power-of-two scale is monotone, so it maps the box to the box.
        let scaled: Vec<Point3<f64>> = points.par_iter().map(|p| scale2(p, k)).collect();
        let filter = SideFilter::new(&scale2(&lo, k), &scale2(&hi, k));
        let mut hull = ConvexHull::of_finite(&scaled, filter, stop)?;
        for v in &mut hull.vertices {
            *v = scale2(v, -k);
        }
        Ok(Ok(hull))
    }

    /// [`new`](Self::new) on finite points of a safe magnitude.
    fn of_finite(
        points: &[Point3<f64>],
        filter: SideFilter,
        stop: Stop<'_>,
    ) -> Result<ConvexHull, Stopped> {
        // Without repeats (the first copy of each, in order): files without
        // shared vertices (STL, split normals) list a point up to six times,
        // and each copy of a point on a hull plane costs the exact predicate
        // its full work (the float filter cannot sign a zero).
        // Indices, not copies: a copy of the points is the largest buffer
        // of a small hull, and fresh memory costs page faults on every call.
        let kept = akl_toussaint(points, filter);
        let points = kept.as_deref().unwrap_or(points);
        let cand = distinct(points);
        match initial_simplex(points, &cand) {
            Some(simplex) => quickhull(points, &cand, simplex, filter, stop),
            None => Ok(flat_hull(
                &cand.iter().map(|&i| points[i as usize]).collect::<Vec<_>>(),
            )),
        }
    }

    /// Volume enclosed (0 for degenerate hulls), by the divergence theorem
    /// over the faces, relative to the first vertex to limit cancellation.
    pub fn volume(&self) -> f64 {
        let Some(o) = self.vertices.first() else {
            return 0.0;
        };
        self.faces
            .iter()
            .map(|f| {
                let [a, b, c] = f.map(|i| self.vertices[i as usize] - o);
                a.dot(&b.cross(&c))
            })
            .sum::<f64>()
            / 6.0
    }

    /// Boundary area. A flat (dimension 2) hull counts both sides of its
    /// polygon, like a box with a zero extent; lower dimensions give 0.
    pub fn surface_area(&self) -> f64 {
        if self.dimension == 2 {
            return 2.0 * polygon_area(&self.vertices);
        }
        self.faces
            .iter()
            .map(|f| {
                let [a, b, c] = f.map(|i| self.vertices[i as usize]);
                0.5 * (b - a).cross(&(c - a)).norm()
            })
            .sum()
    }

    /// Exact test: whether `p` lies inside or on the hull (dimension 3 only;
    /// degenerate hulls answer `false`).
    pub fn contains(&self, p: &Point3<f64>) -> bool {
        self.dimension == 3 && self.faces.iter().all(|f| !above(&self.vertices, f, p))
    }
}

/// The power of two `k` to scale by when the largest coordinate magnitude
/// is beyond `2^±200`, bringing it to about 1. The exact predicates'
/// products of three coordinate differences overflow (or underflow) at the
/// ends of the `f64` range, and a power-of-two scale changes no side test,
/// exactly (short of coordinates `2^1000` below the largest, which
/// underflow).
fn exact_scale(largest: f64) -> Option<i32> {
    let safe = 2f64.powi(-200)..=2f64.powi(200);
    (largest > 0.0 && !safe.contains(&largest))
        .then(|| (-(largest.log2().floor() as i32)).clamp(-1023, 1023))
}

/// `p · 2^k`, in two exact steps so no factor leaves the normal range.
fn scale2(p: &Point3<f64>, k: i32) -> Point3<f64> {
    let pow2 = |e: i32| f64::from_bits(((e + 1023) as u64) << 52);
    p * pow2(k / 2) * pow2(k - k / 2)
}

/// Area of a planar polygon given in order.
fn polygon_area(poly: &[Point3<f64>]) -> f64 {
    let Some(o) = poly.first() else { return 0.0 };
    let mut s = Vector3::zeros();
    for w in poly.windows(2) {
        s += (w[0] - o).cross(&(w[1] - o));
    }
    0.5 * s.norm()
}

/// Four affinely independent points `[i0, i1, i2, i3]` (exactly) among
/// the candidates `cand` (indices into `pts`), or `None` if they are
/// coplanar.
fn initial_simplex(pts: &[Point3<f64>], cand: &[u32]) -> Option<[u32; 4]> {
    // The six axis-extreme points; their most separated pair is the first edge.
    // (value, index) per axis and end, the first of equals.
    let mut lo = [(f64::INFINITY, 0u32); 3];
    let mut hi = [(f64::NEG_INFINITY, 0u32); 3];
    for &i in cand {
        let p = &pts[i as usize];
        for k in 0..3 {
            if p[k] < lo[k].0 {
                lo[k] = (p[k], i);
            }
            if p[k] > hi[k].0 {
                hi[k] = (p[k], i);
            }
        }
    }
    let ext: [u32; 6] = std::array::from_fn(|e| if e % 2 == 0 { lo[e / 2].1 } else { hi[e / 2].1 });
    let at = |i: u32| &pts[i as usize];
    let (i0, i1) = (0..3)
        .map(|k| (ext[2 * k], ext[2 * k + 1]))
        .max_by(|a, b| {
            let d = |(i, j): (u32, u32)| (at(i) - at(j)).norm_squared();
            d(*a).total_cmp(&d(*b))
        })?;
    let (p0, p1) = (*at(i0), *at(i1));
    let dir = p1 - p0;
    // The first candidate of greatest `f`, in parallel chunks.
    let far = |f: &(dyn Fn(&Point3<f64>) -> f64 + Sync)| {
        cand.par_chunks(CHUNK)
            .map(|chunk| {
                chunk.iter().fold((0, f64::NEG_INFINITY), |best, &i| {
                    let d = f(at(i));
                    if d > best.1 { (i, d) } else { best }
                })
            })
            .reduce(
                || (0, f64::NEG_INFINITY),
                |a, b| if b.1 > a.1 { b } else { a },
            )
    };
    // The other two corners among the six extremes (a fair simplex at no
    // cost), from every candidate only when those are collinear or coplanar.
    let among_extremes = |f: &dyn Fn(&Point3<f64>) -> f64| {
        ext.iter().fold((0, f64::NEG_INFINITY), |best, &i| {
            let d = f(at(i));
            if d > best.1 { (i, d) } else { best }
        })
    };
    let off_line = |p: &Point3<f64>| (p - p0).cross(&dir).norm_squared();
    let (mut i2, mut d2) = among_extremes(&off_line);
    if d2 <= 0.0 {
        (i2, d2) = far(&off_line);
        if d2 <= 0.0 {
            return None;
        }
    }
    let n = dir.cross(&(at(i2) - p0));
    let off_plane = |p: &Point3<f64>| n.dot(&(p - p0)).abs();
    let o = |i: u32| orient3d(coord(&p0), coord(&p1), coord(at(i2)), coord(at(i)));
    let mut i3 = among_extremes(&off_plane).0;
    if o(i3) == 0.0 {
        i3 = far(&off_plane).0;
    }
    if o(i3) == 0.0 {
        // Rounding hid the off-plane point (or there is none): ask exactly.
        i3 = *cand.par_iter().find_first(|&&i| o(i) != 0.0)?;
    }
    Some([i0, i1, i2, i3])
}

/// The hull of the candidates `cand` (indices into `pts`) from the
/// simplex `s` (indices into `pts`). Outside lists hold positions in
/// `cand`.
/// Gives up with [`Stopped`] when `stop` is set, checked every
/// [`STOP_EVERY`] faces taken from the pending list.
fn quickhull(
    pts: &[Point3<f64>],
    cand: &[u32],
    s: [u32; 4],
    filter: SideFilter,
    stop: Stop<'_>,
) -> Result<ConvexHull, Stopped> {
    let mut faces: Vec<Face> = Vec::new();
    // Each face of the tetrahedron, oriented so the fourth point is inside.
    for (a, b, c, d) in [(0, 1, 2, 3), (0, 3, 1, 2), (0, 2, 3, 1), (1, 3, 2, 0)] {
        let mut v = [s[a], s[b], s[c]];
        if above(pts, &v, &pts[s[d] as usize]) {
            v.swap(1, 2);
        }
        faces.push(Face::new(pts, v));
    }
    for f in 0..4 {
        for i in 0..3 {
            let (a, b) = (faces[f].plane.v[i], faces[f].plane.v[(i + 1) % 3]);
            faces[f].adj[i] = (0..4)
                .find(|&g| {
                    (0..3).any(|j| faces[g].plane.v[j] == b && faces[g].plane.v[(j + 1) % 3] == a)
                })
                .expect("tetrahedron faces share every edge") as u32;
        }
    }
    // Initial assignment, four faces at once, in parallel chunks: most
    // points fall inside the simplex. A point goes to the first face whose
    // float side proves it strictly above, else (all within the filter's
    // tolerance or below) to the first the exact test puts it above.
    let planes = PlaneSet::new(
        &faces
            .iter()
            .map(|f| (f.plane.base, f.plane.normal))
            .collect::<Vec<_>>(),
    );
    let (a, n) = (planes.a[0], planes.n[0]);
    // Each chunk links its own points (`next[q]` follows point `q`), and
    // the chunks' lists are joined in order.
    let mut next = vec![NONE; cand.len()];
    let lists: Vec<[Outside; 4]> = next
        .par_chunks_mut(CHUNK)
        .zip(cand.par_chunks(CHUNK))
        .enumerate()
        .map(|(c, (links, chunk))| {
            let mut lists = [Outside::EMPTY; 4];
            for (i, (link, &q)) in links.iter_mut().zip(chunk).enumerate() {
                let p = &pts[q as usize];
                let h = side(&a, &n, [p.x, p.y, p.z].map(f64x4::splat)).to_array();
                let owner = (0..4).find(|&f| h[f] > filter.tol).or_else(|| {
                    (0..4).find(|&f| h[f] >= -filter.tol && above(pts, &faces[f].plane.v, p))
                });
                if let Some(f) = owner {
                    lists[f].push(link, (c * CHUNK + i) as u32, h[f]);
                }
            }
            lists
        })
        .collect();
    for chunk in &lists {
        for (face, list) in faces.iter_mut().zip(chunk) {
            face.outside.prepend(list, &mut next);
        }
    }

    let mut mark = vec![0u32; 4];
    let mut visible_flag = vec![false; 4];
    let mut stamp = 0u32;
    let mut start_of = vec![u32::MAX; pts.len()];
    let mut pending: Vec<u32> = (0..4).collect();
    // Slots of dead faces, taken again by new ones: the face list stays
    // the size of the hull, not of every face ever made (fewer pages to
    // touch, no copying as it grows).
    let mut free: Vec<u32> = Vec::new();
    let (mut visible, mut horizon, mut todo, mut orphans, mut created, mut cone) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    // Each orphan's new face and height, if any (many orphans only).
    let mut homes: Vec<(u32, Option<(u32, f64)>)> = Vec::new();
    let mut taken = 0usize;
    while let Some(fi) = pending.pop() {
        taken += 1;
        if taken.is_multiple_of(STOP_EVERY) {
            stop.check()?;
        }
        let fi = fi as usize;
        if !faces[fi].alive || faces[fi].outside.count == 0 {
            continue;
        }
        let eye_at = faces[fi].outside.eye;
        let eye = cand[eye_at as usize];
        let p = pts[eye as usize];

        // Faces the eye sees (a connected cap) and the horizon edges around it.
        stamp += 1;
        visible.clear();
        horizon.clear();
        mark[fi] = stamp;
        visible_flag[fi] = true;
        visible.push(fi);
        todo.push(fi);
        while let Some(f) = todo.pop() {
            for i in 0..3 {
                let nb = faces[f].adj[i] as usize;
                if mark[nb] != stamp {
                    mark[nb] = stamp;
                    visible_flag[nb] = filter.height(pts, &faces[nb].plane, &p).is_some();
                    if visible_flag[nb] {
                        visible.push(nb);
                        todo.push(nb);
                    }
                }
                if !visible_flag[nb] {
                    horizon.push((faces[f].plane.v[i], faces[f].plane.v[(i + 1) % 3], nb));
                }
            }
        }

        // Cone from the eye to the horizon.
        created.clear();
        for &(a, b, nb) in &horizon {
            let mut face = Face::new(pts, [a, b, eye]);
            face.adj[0] = nb as u32;
            let nf = match free.pop() {
                Some(slot) => {
                    faces[slot as usize] = face;
                    slot
                }
                None => {
                    faces.push(face);
                    mark.push(0);
                    visible_flag.push(false);
                    faces.len() as u32 - 1
                }
            };
            let back = (0..3)
                .find(|&j| faces[nb].plane.v[j] == b && faces[nb].plane.v[(j + 1) % 3] == a)
                .expect("horizon edge is shared");
            faces[nb].adj[back] = nf;
            start_of[a as usize] = nf;
            created.push(nf);
        }
        for &nf in &created {
            let b = faces[nf as usize].plane.v[1];
            let next = start_of[b as usize];
            faces[nf as usize].adj[1] = next;
            faces[next as usize].adj[2] = nf;
        }

        // Hand the orphaned points to the new faces; the rest are inside.
        // The cone's planes side by side: the orphans' tests read nothing
        // else of the faces.
        cone.clear();
        cone.extend(created.iter().map(|&nf| faces[nf as usize].plane));
        let home = |k: u32| {
            let qp = &pts[cand[k as usize] as usize];
            (k != eye_at)
                .then(|| {
                    cone.iter()
                        .zip(&created)
                        .find_map(|(plane, &nf)| filter.height(pts, plane, qp).map(|h| (nf, h)))
                })
                .flatten()
        };
        let count: usize = visible
            .iter()
            .map(|&f| faces[f].outside.count as usize)
            .sum();
        if count >= PARALLEL_ORPHANS {
            orphans.clear();
            for &f in &visible {
                let mut q = faces[f].outside.head;
                while q != NONE {
                    orphans.push(q);
                    q = next[q as usize];
                }
            }
            homes.clear();
            homes.par_extend(orphans.par_iter().map(|&q| (q, home(q))));
            for &(q, nf) in &homes {
                if let Some((nf, h)) = nf {
                    faces[nf as usize].outside.push(&mut next[q as usize], q, h);
                }
            }
        } else {
            for &f in &visible {
                let mut q = faces[f].outside.head;
                while q != NONE {
                    let after = next[q as usize];
                    if let Some((nf, h)) = home(q) {
                        faces[nf as usize].outside.push(&mut next[q as usize], q, h);
                    }
                    q = after;
                }
            }
        }
        for &f in &visible {
            faces[f].alive = false;
            free.push(f as u32);
        }
        pending.extend(
            created
                .iter()
                .copied()
                .filter(|&nf| faces[nf as usize].outside.count > 0),
        );
    }

    // Compact: keep live faces and the vertices they use.
    let mut remap = start_of;
    remap.fill(u32::MAX);
    let mut vertices = Vec::new();
    let mut out = Vec::new();
    for f in faces.iter().filter(|f| f.alive) {
        out.push(f.plane.v.map(|i| {
            if remap[i as usize] == u32::MAX {
                remap[i as usize] = vertices.len() as u32;
                vertices.push(pts[i as usize]);
            }
            remap[i as usize]
        }));
    }
    Ok(ConvexHull {
        vertices,
        faces: out,
        dimension: 3,
    })
}

/// How many faces quickhull takes from its pending list between checks of
/// its [`Stop`]: a face's step (its cone, the orphans' reassignment) takes
/// microseconds, so a check every 1,024 is cheap and frequent.
const STOP_EVERY: usize = 1024;

/// Below this many orphaned points a reassignment runs serially.
const PARALLEL_ORPHANS: usize = 8192;

/// Points per parallel task of the pre-filter's passes.
const CHUNK: usize = 4096;

/// Points per bounding box of the pre-filter's block test.
const BLOCK: usize = 32;

/// Below this many points the pre-filter is not worth its passes: from
/// 1,700 to 4,000 points (Fox, NegativeScaleTest, Cesium Man, the teapot)
/// the hull's instructions drop 11–52 % without it, the cow's grow 12 %;
/// from 6,000 on (fandisk, the Shadow hand's palm) it pays.
const PREFILTER_MIN_POINTS: usize = 4096;

/// Akl–Toussaint pre-filter: the points not certainly strictly inside the
/// hull of the extreme points along the 13 directions ±x, ±y, ±z, the face
/// diagonals (±1, ±1, 0)… and the body diagonals (±1, ±1, ±1). That small
/// hull is exact (quickhull), and a point is dropped only when the filtered
/// side test proves it strictly inside every face, so every dropped point
/// lies inside the hull of the kept ones (which keep the extreme points).
/// `None` when there is nothing to gain (few points, flat extreme set).
fn akl_toussaint(pts: &[Point3<f64>], filter: SideFilter) -> Option<Vec<Point3<f64>>> {
    if pts.len() < PREFILTER_MIN_POINTS {
        return None;
    }
    // Values along ±x, ±y, ±z, the face diagonals (±1, ±1, 0)… and the
    // body diagonals (±1, ±1, ±1), as sums (no products).
    let along = |p: &Point3<f64>| {
        let (x, y, z) = (p.x, p.y, p.z);
        [
            x,
            y,
            z,
            x + y,
            x - y,
            x + z,
            x - z,
            y + z,
            y - z,
            x + y + z,
            x + y - z,
            x - y + z,
            y + z - x,
        ]
    };
    // Per direction: (min value, its index, max value, its index), per
    // chunk in place (a fold over points would copy the table per point).
    type Extremes = [(f64, usize, f64, usize); 13];
    let none: Extremes = [(f64::INFINITY, 0, f64::NEG_INFINITY, 0); 13];
    let merge = |mut a: Extremes, b: Extremes| {
        for (a, b) in a.iter_mut().zip(b) {
            if b.0 < a.0 {
                (a.0, a.1) = (b.0, b.1);
            }
            if b.2 > a.2 {
                (a.2, a.3) = (b.2, b.3);
            }
        }
        a
    };
    let ext = pts
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let mut e = none;
            for (i, p) in chunk.iter().enumerate() {
                for (e, v) in e.iter_mut().zip(along(p)) {
                    if v < e.0 {
                        (e.0, e.1) = (v, c * CHUNK + i);
                    }
                    if v > e.2 {
                        (e.2, e.3) = (v, c * CHUNK + i);
                    }
                }
            }
            e
        })
        .reduce(|| none, merge);
    let mut idx: Vec<usize> = ext.iter().flat_map(|e| [e.1, e.3]).collect();
    idx.sort_unstable();
    idx.dedup();
    let corners: Vec<Point3<f64>> = idx.iter().map(|&i| pts[i]).collect();
    let all: Vec<u32> = (0..corners.len() as u32).collect();
    // A hull of a few dozen corners: nothing to stop.
    let simplex = initial_simplex(&corners, &all)?;
    let small = unstopped(|stop| quickhull(&corners, &all, simplex, filter, stop));
    let planes = PlaneSet::new(
        &small
            .faces
            .iter()
            .map(|f| {
                let [a, b, c] = f.map(|i| small.vertices[i as usize]);
                (a, (b - a).cross(&(c - a)))
            })
            .collect::<Vec<_>>(),
    );
    Some(
        pts.par_chunks(CHUNK)
            .flat_map_iter(|chunk| {
                let (mut open, mut kept) = (Vec::new(), Vec::new());
                for block in chunk.chunks(BLOCK) {
                    planes.keep_outside(filter, block, &mut open, &mut kept);
                }
                kept
            })
            .collect(),
    )
}

/// The hull of coplanar (or collinear, or coincident) points: the 2-D hull
/// (Andrew's monotone chain) of their projection on the two principal axes.
fn flat_hull(pts: &[Point3<f64>]) -> ConvexHull {
    let frame = covariance::of_points(pts)
        .map(|(_, c)| covariance::principal_frame(&c))
        .unwrap_or_default();
    let (u, v) = (frame.column(0), frame.column(1));
    let mut order: Vec<(f64, f64, usize)> = pts
        .iter()
        .enumerate()
        .map(|(i, p)| (u.dot(&p.coords), v.dot(&p.coords), i))
        .collect();
    let hull = monotone_chain(&mut order, |q| (q.0, q.1));
    let (first, last) = (order[0], order[order.len() - 1]);
    if pts[first.2] == pts[last.2] && pts.iter().all(|p| *p == pts[first.2]) {
        return ConvexHull {
            vertices: vec![pts[first.2]],
            faces: Vec::new(),
            dimension: 0,
        };
    }
    if hull.len() < 3 {
        // Collinear: the two ends along the principal axis.
        return ConvexHull {
            vertices: vec![pts[first.2], pts[last.2]],
            faces: Vec::new(),
            dimension: 1,
        };
    }
    ConvexHull {
        vertices: hull.iter().map(|h| pts[h.2]).collect(),
        faces: Vec::new(),
        dimension: 2,
    }
}
