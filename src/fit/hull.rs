//! The 3-D convex hull of a point set (quickhull with exact orientation tests).

use super::covariance;
use nalgebra::{Point3, Vector3};
use rayon::prelude::*;
use robust::{Coord3D, orient3d};

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
fn above(pts: &[Point3<f64>], t: &[u32; 3], p: &Point3<f64>) -> bool {
    let [a, b, c] = t.map(|i| coord(&pts[i as usize]));
    orient3d(a, b, c, coord(p)) < 0.0
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
    fn new(pts: &[Point3<f64>]) -> SideFilter {
        let (lo, hi) = pts
            .par_iter()
            .fold(
                || {
                    (
                        Vector3::repeat(f64::INFINITY),
                        Vector3::repeat(f64::NEG_INFINITY),
                    )
                },
                |(lo, hi), p| (lo.inf(&p.coords), hi.sup(&p.coords)),
            )
            .reduce(
                || {
                    (
                        Vector3::repeat(f64::INFINITY),
                        Vector3::repeat(f64::NEG_INFINITY),
                    )
                },
                |a, b| (a.0.inf(&b.0), a.1.sup(&b.1)),
            );
        let extent = (hi - lo).amax();
        let tol = if (1e-60..=1e60).contains(&extent) {
            1e-12 * extent * extent * extent
        } else {
            f64::INFINITY
        };
        SideFilter { tol }
    }

    /// Exact: whether `p` is strictly above the plane through `a` with
    /// float normal `n = (b − a) × (c − a)` of triangle `t`.
    fn above(&self, pts: &[Point3<f64>], t: &[u32; 3], n: &Vector3<f64>, p: &Point3<f64>) -> bool {
        let v = n.dot(&(p - pts[t[0] as usize]));
        if v > self.tol {
            true
        } else if v < -self.tol {
            false
        } else {
            above(pts, t, p)
        }
    }

    /// Whether `p` is certainly strictly below that plane (`false` when in
    /// doubt): the conservative test of the Akl–Toussaint pre-filter.
    fn surely_below(&self, a: &Point3<f64>, n: &Vector3<f64>, p: &Point3<f64>) -> bool {
        n.dot(&(p - a)) < -self.tol
    }
}

struct Face {
    v: [u32; 3],
    /// `adj[i]` is the face across edge `v[i] → v[i+1]`.
    adj: [u32; 3],
    /// Unnormalized outward normal `(b − a) × (c − a)` in floating point:
    /// ranks the points of this face and feeds the [`SideFilter`].
    normal: Vector3<f64>,
    outside: Vec<u32>,
    alive: bool,
}

impl Face {
    fn new(pts: &[Point3<f64>], v: [u32; 3]) -> Face {
        let [a, b, c] = v.map(|i| pts[i as usize]);
        Face {
            v,
            adj: [u32::MAX; 3],
            normal: (b - a).cross(&(c - a)),
            outside: Vec::new(),
            alive: true,
        }
    }
}

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
    /// points along 26 directions (so inside the final hull); side tests
    /// first try a static floating-point filter whose error bound is proven
    /// (see `SideFilter`) and fall back to `orient3d` only when in doubt;
    /// the first assignment and large reassignments run in parallel.
    ///
    /// Errors on empty input or a non-finite coordinate.
    pub fn new(points: &[Point3<f64>]) -> Result<ConvexHull, HullError> {
        if points.is_empty() {
            return Err(HullError::Empty);
        }
        if let Some(index) = points
            .par_iter()
            .position_first(|p| !p.iter().all(|x| x.is_finite()))
        {
            return Err(HullError::NonFinite { index });
        }
        let filter = SideFilter::new(points);
        let kept = akl_toussaint(points, filter);
        let points = kept.as_deref().unwrap_or(points);
        match initial_simplex(points) {
            Some(simplex) => Ok(quickhull(points, simplex, filter)),
            None => Ok(flat_hull(points)),
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

/// Area of a planar polygon given in order.
fn polygon_area(poly: &[Point3<f64>]) -> f64 {
    let Some(o) = poly.first() else { return 0.0 };
    let mut s = Vector3::zeros();
    for w in poly.windows(2) {
        s += (w[0] - o).cross(&(w[1] - o));
    }
    0.5 * s.norm()
}

/// Four affinely independent input points `[i0, i1, i2, i3]` (exactly), or
/// `None` if the input is coplanar.
fn initial_simplex(pts: &[Point3<f64>]) -> Option<[usize; 4]> {
    // The six axis-extreme points; their most separated pair is the first edge.
    let mut ext = [0usize; 6];
    for (i, p) in pts.iter().enumerate() {
        for k in 0..3 {
            if p[k] < pts[ext[2 * k]][k] {
                ext[2 * k] = i;
            }
            if p[k] > pts[ext[2 * k + 1]][k] {
                ext[2 * k + 1] = i;
            }
        }
    }
    let (i0, i1) = (0..3)
        .map(|k| (ext[2 * k], ext[2 * k + 1]))
        .max_by(|a, b| {
            let d = |(i, j): (usize, usize)| (pts[i] - pts[j]).norm_squared();
            d(*a).total_cmp(&d(*b))
        })?;
    let (p0, p1) = (pts[i0], pts[i1]);
    let dir = p1 - p0;
    let far = |f: &(dyn Fn(&Point3<f64>) -> f64 + Sync)| {
        pts.par_iter().enumerate().map(|(i, p)| (i, f(p))).reduce(
            || (0, f64::NEG_INFINITY),
            |a, b| if b.1 > a.1 { b } else { a },
        )
    };
    let (i2, d2) = far(&|p| (p - p0).cross(&dir).norm_squared());
    if d2 <= 0.0 {
        return None;
    }
    let n = dir.cross(&(pts[i2] - p0));
    let (mut i3, _) = far(&|p| n.dot(&(p - p0)).abs());
    let o = |i: usize| orient3d(coord(&p0), coord(&p1), coord(&pts[i2]), coord(&pts[i]));
    if o(i3) == 0.0 {
        // Rounding hid the off-plane point (or there is none): ask exactly.
        i3 = (0..pts.len())
            .into_par_iter()
            .find_first(|&i| o(i) != 0.0)?;
    }
    Some([i0, i1, i2, i3])
}

fn quickhull(pts: &[Point3<f64>], s: [usize; 4], filter: SideFilter) -> ConvexHull {
    let s = s.map(|i| i as u32);
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
            let (a, b) = (faces[f].v[i], faces[f].v[(i + 1) % 3]);
            faces[f].adj[i] = (0..4)
                .find(|&g| (0..3).any(|j| faces[g].v[j] == b && faces[g].v[(j + 1) % 3] == a))
                .expect("tetrahedron faces share every edge") as u32;
        }
    }
    // Initial assignment, in parallel: most points fall inside the simplex.
    let face_above = |f: &Face, p: &Point3<f64>| filter.above(pts, &f.v, &f.normal, p);
    let owner: Vec<u8> = pts
        .par_iter()
        .map(|p| {
            (0..4)
                .find(|&f| face_above(&faces[f], p))
                .map_or(u8::MAX, |f| f as u8)
        })
        .collect();
    for (i, &f) in owner.iter().enumerate() {
        if f != u8::MAX {
            faces[f as usize].outside.push(i as u32);
        }
    }

    let mut mark = vec![0u32; 4];
    let mut visible_flag = vec![false; 4];
    let mut stamp = 0u32;
    let mut start_of = vec![u32::MAX; pts.len()];
    let mut pending: Vec<u32> = (0..4).collect();
    let (mut visible, mut horizon, mut todo, mut orphans, mut created) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    while let Some(fi) = pending.pop() {
        let fi = fi as usize;
        if !faces[fi].alive || faces[fi].outside.is_empty() {
            continue;
        }
        let base = pts[faces[fi].v[0] as usize];
        let n = faces[fi].normal;
        let eye = *faces[fi]
            .outside
            .iter()
            .max_by(|&&a, &&b| {
                let d = |i: u32| n.dot(&(pts[i as usize] - base));
                d(a).total_cmp(&d(b))
            })
            .expect("non-empty");
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
                    visible_flag[nb] = face_above(&faces[nb], &p);
                    if visible_flag[nb] {
                        visible.push(nb);
                        todo.push(nb);
                    }
                }
                if !visible_flag[nb] {
                    horizon.push((faces[f].v[i], faces[f].v[(i + 1) % 3], nb));
                }
            }
        }

        // Cone from the eye to the horizon.
        created.clear();
        for &(a, b, nb) in &horizon {
            let nf = faces.len() as u32;
            let mut face = Face::new(pts, [a, b, eye]);
            face.adj[0] = nb as u32;
            let back = (0..3)
                .find(|&j| faces[nb].v[j] == b && faces[nb].v[(j + 1) % 3] == a)
                .expect("horizon edge is shared");
            faces[nb].adj[back] = nf;
            faces.push(face);
            mark.push(0);
            visible_flag.push(false);
            start_of[a as usize] = nf;
            created.push(nf);
        }
        for &nf in &created {
            let b = faces[nf as usize].v[1];
            let next = start_of[b as usize];
            faces[nf as usize].adj[1] = next;
            faces[next as usize].adj[2] = nf;
        }

        // Hand the orphaned points to the new faces; the rest are inside.
        for &f in &visible {
            faces[f].alive = false;
            orphans.append(&mut faces[f].outside);
        }
        let home = |&q: &u32| {
            let qp = &pts[q as usize];
            let nf = (q != eye)
                .then(|| {
                    created
                        .iter()
                        .copied()
                        .find(|&nf| face_above(&faces[nf as usize], qp))
                })
                .flatten();
            (q, nf)
        };
        let homes: Vec<(u32, Option<u32>)> = if orphans.len() >= PARALLEL_ORPHANS {
            orphans.par_iter().map(home).collect()
        } else {
            orphans.iter().map(home).collect()
        };
        for (q, nf) in homes {
            if let Some(nf) = nf {
                faces[nf as usize].outside.push(q);
            }
        }
        orphans.clear();
        pending.extend(
            created
                .iter()
                .copied()
                .filter(|&nf| !faces[nf as usize].outside.is_empty()),
        );
    }

    // Compact: keep live faces and the vertices they use.
    let mut remap = start_of;
    remap.fill(u32::MAX);
    let mut vertices = Vec::new();
    let mut out = Vec::new();
    for f in faces.iter().filter(|f| f.alive) {
        out.push(f.v.map(|i| {
            if remap[i as usize] == u32::MAX {
                remap[i as usize] = vertices.len() as u32;
                vertices.push(pts[i as usize]);
            }
            remap[i as usize]
        }));
    }
    ConvexHull {
        vertices,
        faces: out,
        dimension: 3,
    }
}

/// Below this many orphaned points a reassignment runs serially.
const PARALLEL_ORPHANS: usize = 8192;

/// Below this many points the pre-filter is not worth its passes.
const PREFILTER_MIN_POINTS: usize = 1024;

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
    let dirs: [Vector3<f64>; 13] = [
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::new(0.0, 1.0, 0.0),
        Vector3::new(0.0, 0.0, 1.0),
        Vector3::new(1.0, 1.0, 0.0),
        Vector3::new(1.0, -1.0, 0.0),
        Vector3::new(1.0, 0.0, 1.0),
        Vector3::new(1.0, 0.0, -1.0),
        Vector3::new(0.0, 1.0, 1.0),
        Vector3::new(0.0, 1.0, -1.0),
        Vector3::new(1.0, 1.0, 1.0),
        Vector3::new(1.0, 1.0, -1.0),
        Vector3::new(1.0, -1.0, 1.0),
        Vector3::new(-1.0, 1.0, 1.0),
    ];
    // Per direction: (min value, its index, max value, its index).
    let none = || [(f64::INFINITY, 0usize, f64::NEG_INFINITY, 0usize); 13];
    let ext = pts
        .par_iter()
        .enumerate()
        .fold(none, |mut e, (i, p)| {
            for (k, d) in dirs.iter().enumerate() {
                let v = d.dot(&p.coords);
                if v < e[k].0 {
                    (e[k].0, e[k].1) = (v, i);
                }
                if v > e[k].2 {
                    (e[k].2, e[k].3) = (v, i);
                }
            }
            e
        })
        .reduce(none, |mut a, b| {
            for k in 0..13 {
                if b[k].0 < a[k].0 {
                    (a[k].0, a[k].1) = (b[k].0, b[k].1);
                }
                if b[k].2 > a[k].2 {
                    (a[k].2, a[k].3) = (b[k].2, b[k].3);
                }
            }
            a
        });
    let mut idx: Vec<usize> = ext.iter().flat_map(|e| [e.1, e.3]).collect();
    idx.sort_unstable();
    idx.dedup();
    let corners: Vec<Point3<f64>> = idx.iter().map(|&i| pts[i]).collect();
    let small = quickhull(&corners, initial_simplex(&corners)?, filter);
    let planes: Vec<(Point3<f64>, Vector3<f64>)> = small
        .faces
        .iter()
        .map(|f| {
            let [a, b, c] = f.map(|i| small.vertices[i as usize]);
            (a, (b - a).cross(&(c - a)))
        })
        .collect();
    Some(
        pts.par_iter()
            .filter(|p| !planes.iter().all(|(a, n)| filter.surely_below(a, n, p)))
            .copied()
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
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let (first, last) = (order[0], order[order.len() - 1]);
    if pts[first.2] == pts[last.2] && pts.iter().all(|p| *p == pts[first.2]) {
        return ConvexHull {
            vertices: vec![pts[first.2]],
            faces: Vec::new(),
            dimension: 0,
        };
    }
    let cross = |o: &(f64, f64, usize), a: &(f64, f64, usize), b: &(f64, f64, usize)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    // Lower chain left to right, then upper chain right to left.
    let mut hull: Vec<(f64, f64, usize)> = Vec::new();
    for q in &order {
        while hull.len() >= 2 && cross(&hull[hull.len() - 2], &hull[hull.len() - 1], q) <= 0.0 {
            hull.pop();
        }
        hull.push(*q);
    }
    let floor = hull.len() + 1;
    for q in order.iter().rev().skip(1) {
        while hull.len() >= floor && cross(&hull[hull.len() - 2], &hull[hull.len() - 1], q) <= 0.0 {
            hull.pop();
        }
        hull.push(*q);
    }
    hull.pop();
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
