//! The minimum-volume oriented box around a convex hull.
//!
//! O'Rourke's theorem (1985): a box of minimum volume around a convex
//! polytope has two adjacent faces each flush with an edge of the polytope
//! (a face flush with a hull face counts). Jylänki (2015, "An Exact
//! Algorithm for Finding Minimum Oriented Bounding Boxes") shows that along
//! the one-parameter family such a pair leaves, the volume is least where
//! one more contact appears, so the optimum is one of finitely many
//! configurations:
//!
//! 1. a box face flush with a hull face — the minimum-area rectangle of the
//!    projection along that face's normal (the face rule,
//!    `face_frames`, which tries every face direction exactly);
//! 2. three mutually adjacent box faces, each flush with a hull edge: with
//!    `n1` on the Gauss arc of edge `i` (the unnormalised interpolation
//!    `a + t(b − a)` of its two face normals), `n2 ∝ n1 × e_j` and
//!    `n3 ∝ n1 × n2`, the condition `n3 · e_k = 0` is a quadratic in `t`;
//! 3. two opposite box faces flush with two hull edges `i`, `j` (so
//!    `n1 ∝ e_i × e_j`, on `i`'s arc and its opposite on `j`'s) and a third
//!    edge `k` flush with an adjacent face (`n2 ∝ n1 × e_k`) — `k` may be
//!    `i` or `j` itself, an edge then running along a box edge, flush with
//!    two adjacent faces (its arc holds both `±n1` and `±n2`).
//!
//! Edges whose arcs can hold perpendicular normals ("sidepodal": the
//! bilinear `(a_i + s·Δ_i)·(a_j + t·Δ_j)` changes sign over the unit square,
//! which its corners decide) are listed once, so the triples of case 2 are
//! drawn from them; a configuration counts when every normal lies on its
//! edge's arc (or the opposite arc, for the box's far face), within a slack
//! of 1e-9. The width of the hull along a direction is found by steepest
//! ascent on the hull's vertex graph (a local maximum of a linear function
//! on a convex polytope's graph is global), started at a vertex of an edge
//! flush with that face when there is one, else at the extreme vertex of
//! the direction's cell in a cube map over directions (a step or two away).
//!
//! Pruning (never changes the result): the face rule's volume bounds the
//! search from the start, and each configuration is dropped as soon as a
//! product of lower bounds of its three widths exceeds the best volume so
//! far (shared by the threads). The bounds come, in order, from a lower
//! bound of the width along every normal on each edge's arc
//! (`Graph::arc_width`) and of the least width over all directions
//! (the least width is met on some arc), which rule out pairs of edges
//! before their triples are enumerated; then from the partial ascents
//! themselves, which only grow. Most configurations left are not valid
//! (no normal on an arc): before its normals are built, each is put to
//! sign tests on unnormalised normals, from dot products formed once per
//! edge or edge pair (`off_arc`; a margin of 1e-6 keeps them from
//! rejecting what the exact construction would accept). A configuration
//! with a normal at an end of its edge's arc — a hull face's normal — is
//! left to the face rule, which tried that axis with the least rectangle it
//! allows (when it tried every face direction): on prisms and CAD parts
//! most of case 3's are such, every two edges around a flat cap making the
//! cap's normal.
//!
//! Guarantee: the volume is minimal over all orientations up to `f64`
//! rounding of the normals and widths, for hulls whose faces have reliable
//! normals; sliver faces (normal unreliable) and edges between coplanar
//! faces (dihedral below ~1.4e-6 rad) are left to the face rule, and two
//! parallel antipodal edges (a one-parameter tie) are skipped. The result is
//! never larger than the face rule's best box nor any `extra` frame's (they
//! are candidates); no local search is needed on top (tested against a
//! brute force on random clouds, and against `fast`'s local search on every
//! corpus model).
//! Containment does not rest on the search: callers take the box's extents
//! from the points ([`Obb::from_frame_and_points`](crate::fit::Obb::from_frame_and_points)).

use crate::fit::ConvexHull;
use crate::fit::obb::cube_map::{CELL_SLACK, CubeMap, cone_cells};
use crate::fit::obb::fast::{MAX_DIRECTIONS, Rims, box_volume, face_frames};
use crate::threads::{Stop, Stopped};
use nalgebra::{Matrix3, Point3, Vector3};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Slack of the arc and sidepodal tests (on unit vectors): a configuration
/// this close to valid is evaluated too, so rounding never drops one.
const SLACK: f64 = 1e-9;

/// Rounding margin of a zero dot product of two unit face normals (a few
/// ulps of their computation), in [`Edge::sidepodal`].
const TIE: f64 = 1e-14;

/// A hull edge with its Gauss arc: the unit normals of its two faces.
struct Edge {
    /// One endpoint (a hull vertex index): extreme along every normal on
    /// the arc.
    v: u32,
    /// Unit direction, oriented so that `(a × b) · d > 0`.
    d: Vector3<f64>,
    a: Vector3<f64>,
    b: Vector3<f64>,
    /// `d × a` and `b × d`: for `n ⊥ d`, [`Edge::side`]'s two products are
    /// `n · e` and `n · f`, which the cheap tests take from dot products
    /// of the unnormalised normals (see [`off_arc`]).
    e: Vector3<f64>,
    f: Vector3<f64>,
}

impl Edge {
    /// For unit `n` perpendicular to the edge: `1` when `n` is on the arc
    /// (the edge is extreme along `n`), `-1` when `−n` is, `0` otherwise —
    /// and `0` as well, unless `with_ends`, when `n` is within [`TIE`] of
    /// an end of the arc or of its opposite: a hull face's normal (up to
    /// sign), so that a box with `n` for an axis is one the face rule has
    /// tried with the least rectangle that axis allows (when it tried every
    /// face direction).
    fn side(&self, n: &Vector3<f64>, with_ends: bool) -> i8 {
        let s1 = self.a.cross(n).dot(&self.d);
        let s2 = n.cross(&self.b).dot(&self.d);
        if !with_ends && s1.abs().min(s2.abs()) <= TIE {
            0
        } else if s1 >= -SLACK && s2 >= -SLACK {
            1
        } else if s1 <= SLACK && s2 <= SLACK {
            -1
        } else {
            0
        }
    }

    /// Whether some normal inside this arc is perpendicular to some normal
    /// inside `o`'s arc: the bilinear form's corners take both signs
    /// strictly. When they do not (all `≥ 0`, say), its zeros on the unit
    /// square are corners or whole sides (a bilinear function `≥ 0` that
    /// vanishes inside the square vanishes everywhere, which two arcs of
    /// positive length cannot make it do), so every perpendicular pair puts
    /// one normal on an end of its arc, a hull face normal: the box then
    /// has a face flush with a hull face, a configuration the face rule
    /// covers exactly (when it tries every face direction: `margin` is
    /// [`TIE`] then, absorbing the rounding of such a corner's zero, far
    /// below the ~1.4e-6 rad every kept arc spans; else `-SLACK`, which
    /// keeps the pairs that touch within the slack).
    fn sidepodal(&self, o: &Edge, margin: f64) -> bool {
        let c = [
            self.a.dot(&o.a),
            self.a.dot(&o.b),
            self.b.dot(&o.a),
            self.b.dot(&o.b),
        ];
        let lo = c.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = c.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        lo < -margin && hi > margin
    }
}

/// The edges' arcs as cones, one array per number for the pair scans:
/// unit mid-arc directions and the sine and cosine of each arc's half angle
/// (every normal on an arc lies within its half angle of the mid), with
/// the arcs bucketed by the cube-map cell of their mid (see [`CubeMap`]).
#[derive(Default)]
struct Arcs {
    mid: [Vec<f64>; 3],
    sin: Vec<f64>,
    cos: Vec<f64>,
    /// Per cell: its arcs (ascending), the unit direction of its centre and
    /// the sine and cosine of a cone about it that holds all their arcs.
    cells: Vec<ArcCell>,
}

struct ArcCell {
    arcs: Vec<u32>,
    centre: Vector3<f64>,
    sin: f64,
    cos: f64,
}

/// Flag of [`Arcs::scan`]: the arcs may hold perpendicular normals.
const MAY_BE_SIDEPODAL: u8 = 1;
/// Flag of [`Arcs::scan`]: the first arc and the opposite of the second
/// may meet.
const MAY_OPPOSE: u8 = 2;

impl Arcs {
    fn mid(&self, i: usize) -> Vector3<f64> {
        Vector3::new(self.mid[0][i], self.mid[1][i], self.mid[2][i])
    }

    /// Buckets the arcs into cube-map cells, about eight per cell.
    fn index(&mut self) {
        let cones: Vec<_> = (0..self.sin.len())
            .map(|j| (j as u32, self.mid(j), self.sin[j].atan2(self.cos[j])))
            .collect();
        self.cells = cone_cells(&cones)
            .into_iter()
            .map(|cell| {
                let reach = cell.spread + CELL_SLACK;
                let (sin, cos) = reach.min(std::f64::consts::PI).sin_cos();
                ArcCell {
                    arcs: cell.members,
                    centre: cell.centre,
                    sin,
                    cos,
                }
            })
            .collect();
    }

    /// Cheap filters of arc `i` against every arc `j > i`, by the reach of
    /// their cones, into `out` as `(j, flags)` with non-zero flags, cell by
    /// cell: [`MAY_BE_SIDEPODAL`] (before [`Edge::sidepodal`]) and
    /// [`MAY_OPPOSE`]. Cells whose cone cannot reach the band about the
    /// great circle perpendicular to `i`'s mid, nor the cone opposite
    /// `i`'s, are skipped whole (the same angle sums, with the cell's cone
    /// for the arc's: an arc of the cell passes only if its cell does).
    fn scan(&self, i: usize, out: &mut Vec<(u32, u8)>) {
        let (m, (si, ci)) = (self.mid(i), (self.sin[i], self.cos[i]));
        out.clear();
        for cell in &self.cells {
            let d = m.dot(&cell.centre);
            let (s, c) = (si * cell.cos + ci * cell.sin, ci * cell.cos - si * cell.sin);
            if c > 0.0 && d.abs() > s + CELL_SLACK && -d < c - CELL_SLACK {
                continue;
            }
            let from = cell.arcs.partition_point(|&j| j as usize <= i);
            out.extend(cell.arcs[from..].iter().filter_map(|&j| {
                let j = j as usize;
                let d = m.x * self.mid[0][j] + m.y * self.mid[1][j] + m.z * self.mid[2][j];
                // Sine and cosine of the sum of both half angles.
                let (sj, cj) = (self.sin[j], self.cos[j]);
                let (s, c) = (si * cj + ci * sj, ci * cj - si * sj);
                let f = u8::from((c <= 0.0) | (d.abs() <= s + SLACK))
                    | (u8::from(-d >= c - SLACK) << 1);
                (f != 0).then_some((j as u32, f))
            }));
        }
    }
}

/// The hull's edges with a usable arc (both faces with reliable normals,
/// not coplanar), and their arcs as cones.
fn edges(hull: &ConvexHull, rims: &Rims) -> (Vec<Edge>, Arcs) {
    let mut arcs = Arcs::default();
    let edges = rims
        .edges
        .iter()
        .filter_map(|&[p, q, f, g]| {
            let (a, b) = (rims.normals[f as usize], rims.normals[g as usize]);
            let cos = a.dot(&b);
            if a == Vector3::zeros() || b == Vector3::zeros() || cos > 1.0 - 1e-12 {
                return None;
            }
            let mut d =
                (hull.vertices[q as usize] - hull.vertices[p as usize]).try_normalize(0.0)?;
            if a.cross(&b).dot(&d) < 0.0 {
                d = -d;
            }
            let mid = (a + b).try_normalize(0.0)?;
            for (c, x) in arcs.mid.iter_mut().zip(mid.iter()) {
                c.push(*x);
            }
            arcs.sin.push((0.5 * (1.0 - cos)).max(0.0).sqrt());
            arcs.cos.push((0.5 * (1.0 + cos)).max(0.0).sqrt());
            Some(Edge {
                v: p,
                d,
                a,
                b,
                e: d.cross(&a),
                f: b.cross(&d),
            })
        })
        .collect();
    arcs.index();
    (edges, arcs)
}

/// The hull's vertex graph (compressed adjacency lists), with the extreme
/// vertex along the centre of every cell of a cube map over directions, so
/// that an ascent starts a step or two from its end.
struct Graph<'h> {
    pts: &'h [Point3<f64>],
    start: Vec<u32>,
    next: Vec<u32>,
    /// The extreme vertex along the centre of each cell of `map`.
    map: CubeMap,
    extreme: Vec<u32>,
}

impl<'h> Graph<'h> {
    fn new(pts: &'h [Point3<f64>], rims: &Rims) -> Graph<'h> {
        let mut start = vec![0u32; pts.len() + 1];
        for &[p, q, ..] in &rims.edges {
            start[p as usize + 1] += 1;
            start[q as usize + 1] += 1;
        }
        for i in 0..pts.len() {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut next = vec![0u32; start[pts.len()] as usize];
        for &[p, q, ..] in &rims.edges {
            for (x, y) in [(p, q), (q, p)] {
                next[fill[x as usize] as usize] = y;
                fill[x as usize] += 1;
            }
        }
        // About six cells per vertex: neighbouring cells then mostly share
        // or neighbour their extreme vertex.
        let map = CubeMap::new(6 * pts.len());
        let mut g = Graph {
            pts,
            start,
            next,
            extreme: Vec::with_capacity(map.cells()),
            map,
        };
        let mut from = 0;
        for c in 0..g.map.cells() {
            g.support(&g.map.direction(c), &mut from, f64::INFINITY);
            g.extreme.push(from);
        }
        g
    }

    /// A start for the ascent along `n` (finite, non-zero): the extreme
    /// vertex of `n`'s cube-map cell.
    fn near_start(&self, n: &Vector3<f64>) -> u32 {
        self.extreme[self.map.cell(n)]
    }

    /// The greatest `n · p` over the hull, by steepest ascent from `*from`
    /// (left at the last vertex reached). The ascent stops as soon as the
    /// value exceeds `stop` (infinity: the maximum).
    fn support(&self, n: &Vector3<f64>, from: &mut u32, stop: f64) -> f64 {
        let mut v = *from as usize;
        let mut best = n.dot(&self.pts[v].coords);
        while best <= stop {
            let mut moved = false;
            for &w in &self.next[self.start[v] as usize..self.start[v + 1] as usize] {
                let x = n.dot(&self.pts[w as usize].coords);
                if x > best {
                    best = x;
                    v = w as usize;
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        *from = v as u32;
        best
    }

    /// A lower bound of the hull's width along every normal on `e`'s arc
    /// (`mid`: its mid-arc direction). Along such `n` the width is at least
    /// `n · (e.v − q)` for every hull vertex `q`, and on an arc shorter than
    /// a half circle a linear function non-negative at both ends is least
    /// at one of them; `q` is taken extreme against the arc's ends and
    /// middle, the best of the three bounds kept.
    fn arc_width(&self, e: &Edge, mid: &Vector3<f64>) -> f64 {
        [e.a, e.b, *mid]
            .iter()
            .map(|n| {
                let mut q = self.near_start(&-n);
                self.support(&-n, &mut q, f64::INFINITY);
                let x = self.pts[e.v as usize] - self.pts[q as usize];
                e.a.dot(&x).min(e.b.dot(&x)).max(0.0)
            })
            .fold(0.0, f64::max)
    }

    /// Volume of the box with orthonormal axes `f` around the hull, or
    /// `None` when it surely exceeds `bound`. The support along `f[m]`
    /// (slot `2m`) and `−f[m]` (slot `2m + 1`) are found by ascents from
    /// the `touch` vertices in their slots (vertices of edges flush with
    /// that face: one neighbour scan) and elsewhere from the cube map.
    /// Every start already bounds the widths from below (partial supports
    /// only grow, and rounding is monotone), so a losing box is dropped as
    /// soon as the product of those bounds exceeds `bound`, mostly before
    /// any ascent. A returned volume is the product of the three full
    /// widths, as if no bound were given.
    fn volume_below(
        &self,
        f: &[Vector3<f64>; 3],
        touch: [(usize, u32); 3],
        bound: f64,
    ) -> Option<f64> {
        let dir = |s: usize| {
            if s.is_multiple_of(2) {
                f[s / 2]
            } else {
                -f[s / 2]
            }
        };
        let mut from = [u32::MAX; 6];
        for (s, v) in touch {
            from[s] = v;
        }
        for (s, v) in from.iter_mut().enumerate() {
            if *v == u32::MAX {
                *v = self.near_start(&dir(s));
            }
        }
        let mut sup: [f64; 6] =
            std::array::from_fn(|s| dir(s).dot(&self.pts[from[s] as usize].coords));
        let width = |sup: &[f64; 6], m: usize| (sup[2 * m] + sup[2 * m + 1]).max(0.0);
        let lower = |sup: &[f64; 6]| (0..3).fold(1.0, |v, m| v * width(sup, m));
        if lower(&sup) > bound {
            return None;
        }
        // The far sides first: their starts are only guesses.
        for s in [1, 3, 5, 0, 2, 4] {
            let others: f64 = (0..3)
                .filter(|&m| m != s / 2)
                .map(|m| width(&sup, m))
                .product();
            let stop = bound / others - sup[s ^ 1];
            sup[s] = self.support(&dir(s), &mut from[s], stop);
            if sup[s] > stop {
                if lower(&sup) > bound {
                    return None;
                }
                // The division rounded the wrong way: finish the ascent.
                sup[s] = self.support(&dir(s), &mut from[s], f64::INFINITY);
            }
        }
        Some((0..3).fold(1.0, |v, m| v * (sup[2 * m] + sup[2 * m + 1])))
    }
}

/// The least box volume found so far, shared by the threads: the bits of a
/// non-negative `f64`, which order as the values do.
struct Bound(AtomicU64);

impl Bound {
    fn get(&self) -> f64 {
        f64::from_bits(self.0.load(Ordering::Relaxed))
    }

    fn lower(&self, v: f64) {
        self.0.fetch_min(v.to_bits(), Ordering::Relaxed);
    }
}

/// The support slot of [`Graph::volume_below`] for box axis `m` on `side`
/// (`1`: along the axis, `-1`: against it).
fn slot(m: usize, side: i8) -> usize {
    2 * m + usize::from(side < 0)
}

/// Margin of the cheap tests that reject a configuration before its
/// normals are built (on products of vectors of length at most 1): far above
/// their rounding and the ~1e-8 by which a kept face normal may miss being
/// perpendicular to its edges (a larger margin would only reject less).
const REJECT: f64 = 1e-6;

/// Whether two scaled [`Edge::side`] products `(s1, s2)` of a normal `λ·n`
/// (`0 < λ ≤ 1`) surely put `n` on neither the arc nor its opposite: one
/// clearly negative and one clearly positive. `side` then returns `0`, since
/// `s < −REJECT` implies `s/λ < −SLACK` (and likewise above).
fn off_arc(s1: f64, s2: f64) -> bool {
    (s1 < -REJECT || s2 < -REJECT) && (s1 > REJECT || s2 > REJECT)
}

/// Edge `i`'s Gauss arc as the line `n1(t) = a + t·u`, `t` in `[0, 1]`
/// (its normals, unnormalised, of length at most 1), with the products of
/// case 2's quadratic that depend on it alone.
struct ArcLine {
    a: Vector3<f64>,
    u: Vector3<f64>,
    aa: f64,
    au: f64,
    uu: f64,
}

/// Edge `j`'s products with `i`'s [`ArcLine`] that case 2 takes, each as
/// `(a · w, u · w)` so that `n1(t) · w` is one multiply-add: its direction
/// (for the quadratic, projected for every sidepodal `j`), and its face
/// normals (for the cheap side test, projected once a pair `i`, `j`
/// survives its bound).
type Projected = (f64, f64);

impl ArcLine {
    fn new(e: &Edge) -> ArcLine {
        let (a, u) = (e.a, e.b - e.a);
        ArcLine {
            a,
            u,
            aa: a.norm_squared(),
            au: a.dot(&u),
            uu: u.norm_squared(),
        }
    }

    fn project(&self, w: &Vector3<f64>) -> Projected {
        (self.a.dot(w), self.u.dot(w))
    }

    /// Case 2's condition on `t` for edges `j` and `k` (projected by
    /// [`ArcLine::project`], their directions' dot product `c`): with
    /// `n2 ∝ n1 × d_j` and `n3 ∝ n1 × n2`, `n3 · d_k = 0` reads
    /// `(n1·d_j)(n1·d_k) − c·|n1|² = 0`, a quadratic `q2·t² + q1·t + q0`,
    /// returned as `[q2, q1, q0]`.
    fn quadratic(&self, (aj, bj): Projected, (ak, bk): Projected, c: f64) -> [f64; 3] {
        [
            bk * bj - c * self.uu,
            ak * bj + aj * bk - 2.0 * c * self.au,
            ak * aj - c * self.aa,
        ]
    }
}

/// The frames of case 2 for edges `i` (its arc as `line`), `j` (with its
/// direction and face normals projected on the line: `dj`, `[aj, bj]`) and
/// `k` (its direction projected: `dk`) — at most two — with the sides of the box
/// `j` and `k` touch (see [`Edge::side`]; `i` is on the first axis's
/// positive side). Unless `with_ends`, none with a normal at an end of its
/// edge's arc (`n1` at `t` within [`TIE`] of 0 or 1; see [`Edge::side`]).
///
/// Most triples give none (on fandisk 97 %), so each root is first put to
/// cheap tests that only reject what the exact construction would: with
/// the unnormalised `n1`, `n2' = n1 × d_j` has `side` products
/// `(−n1·a_j, n1·b_j)` (as `d_j × e_j = −a_j`), and
/// `n3' = n1 × n2' = (n1·d_j)·n1 − |n1|²·d_j` has
/// `((n1·d_j)(n1·e_k) − |n1|²(d_j·e_k), …)`, each a positive multiple of
/// no more than 1 of the unit normal's ([`off_arc`]).
fn three_edge_frames<'e>(
    line: &'e ArcLine,
    (ej, dj, [aj, bj]): (&'e Edge, Projected, [Projected; 2]),
    (ek, dk): (&'e Edge, Projected),
    with_ends: bool,
) -> impl Iterator<Item = ([Vector3<f64>; 3], [i8; 2])> + 'e {
    let (a, u) = (line.a, line.u);
    let c = ej.d.dot(&ek.d);
    let [q2, q1, q0] = line.quadratic(dj, dk, c);
    let scale = q2.abs() + q1.abs() + q0.abs();
    let mut roots = [f64::NAN; 2];
    if q2.abs() > 1e-12 * scale {
        let disc = q1 * q1 - 4.0 * q2 * q0;
        if disc >= 0.0 {
            let q = -0.5 * (q1 + disc.sqrt().copysign(q1));
            roots[0] = q / q2;
            if q != 0.0 {
                roots[1] = q0 / q;
            }
        }
    } else if q1.abs() > 1e-12 * scale {
        roots[0] = -q0 / q1;
    }
    let at = |t: f64, (x, y): (f64, f64)| x + t * y;
    roots.into_iter().filter_map(move |t| {
        if !(-SLACK..=1.0 + SLACK).contains(&t) || !with_ends && !(TIE..=1.0 - TIE).contains(&t) {
            return None;
        }
        let t = t.clamp(0.0, 1.0);
        if off_arc(-at(t, aj), at(t, bj)) {
            return None;
        }
        let n1 = a + u * t;
        let (nd, nn) = (at(t, dj), n1.norm_squared());
        let n3 = |w: &Vector3<f64>| nd * n1.dot(w) - nn * ej.d.dot(w);
        if off_arc(n3(&ek.e), n3(&ek.f)) {
            return None;
        }
        let n1 = n1.try_normalize(0.0)?;
        let n2 = n1.cross(&ej.d).try_normalize(1e-12)?;
        let sj = ej.side(&n2, with_ends);
        if sj == 0 {
            return None;
        }
        let n3 = n1.cross(&n2);
        let sk = ek.side(&n3, with_ends);
        (sk != 0).then_some(([n1, n2, n3], [sj, sk]))
    })
}

/// Every edge's sidepodal edges, both ways (compressed lists).
struct Sidepodal {
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Sidepodal {
    /// From the lists of greater sidepodal indices.
    fn new(greater: &[Vec<u32>]) -> Sidepodal {
        let mut start = vec![0u32; greater.len() + 1];
        for (i, l) in greater.iter().enumerate() {
            start[i + 1] += l.len() as u32;
            for &j in l {
                start[j as usize + 1] += 1;
            }
        }
        for i in 0..greater.len() {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut list = vec![0u32; start[greater.len()] as usize];
        for (i, l) in greater.iter().enumerate() {
            for &j in l {
                for (x, y) in [(i, j), (j as usize, i as u32)] {
                    list[fill[x] as usize] = y;
                    fill[x] += 1;
                }
            }
        }
        Sidepodal { start, list }
    }

    fn of(&self, i: usize) -> &[u32] {
        &self.list[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// The frame of the minimum-volume box around `hull`'s vertices (see the
/// module documentation), never worse than the face rule's box nor any of
/// the `extra` frames. Flat hulls (dimension < 3) get the face rule's flat
/// box, already minimal in its plane.
///
/// Bounded: `None`, before the work, when it would exceed a limit — the
/// face rule's [`FACE_WORK`](crate::fit::obb::fast::FACE_WORK), [`PAIR_WORK`] edge pairs kept, or
/// [`TRIPLE_WORK`] configurations enumerated (round hulls: a prism's cap
/// edges are pairwise sidepodal, n² pairs and n³ triples); the caller then
/// searches a kernel (docs/algorithms.md, "Big hulls"). [`Stopped`] once
/// `stop` is set: the face rule checks it between its batches, the edge
/// search before each edge's pairs and configurations.
pub fn min_volume_frame(
    hull: &ConvexHull,
    extra: &[Matrix3<f64>],
    stop: Stop<'_>,
) -> Result<Option<Matrix3<f64>>, Stopped> {
    let rims = Rims::new(hull);
    if hull.dimension < 3 {
        return Ok(face_frames(hull, &rims, extra, 1, stop)?
            .map(|f| f.first().map_or_else(Matrix3::identity, |c| c.1)));
    }
    // Case 1 (the bound the edge configurations must beat) side by side
    // with the part of the edge search's setup that does not need it:
    // 4–8 % off a small hull's whole fit (NegativeScaleTest, Fox, the
    // Blender cylinder, the 3.7k bunny; see docs/algorithms.md).
    let (faces, (edges, arcs, graph, wmin)) = rayon::join(
        || face_frames(hull, &rims, extra, 1, stop),
        || {
            let (edges, arcs) = edges(hull, &rims);
            let graph = Graph::new(&hull.vertices, &rims);
            // Lower bounds of the width along each arc, and along any
            // direction: the least width is met along a face normal or
            // across two edges, so on some arc (unless a sliver face hides
            // its normal; the slack covers coplanar faces' edges, left out
            // within ~1.4e-6 rad of a kept arc).
            let wmin: Vec<f64> = (0..edges.len())
                .into_par_iter()
                .map(|i| graph.arc_width(&edges[i], &arcs.mid(i)))
                .collect();
            (edges, arcs, graph, wmin)
        },
    );
    let Some(faces) = faces? else {
        return Ok(None);
    };
    let Some(&(face_volume, face)) = faces.first() else {
        return Ok(Some(Matrix3::identity()));
    };
    // No box holds less than the hull: a face box within rounding of the
    // hull's volume (a box-shaped hull) is already the minimum.
    if face_volume <= hull.volume() * (1.0 + 1e-9) {
        return Ok(Some(face));
    }
    // Boxes larger than the face rule's cannot win (the slack covers the
    // two ways of rounding a volume), so they bound the search from the start.
    let bound = Bound(AtomicU64::new(if face_volume.is_finite() {
        (face_volume * (1.0 + 1e-9)).to_bits()
    } else {
        f64::INFINITY.to_bits()
    }));
    let wany = if rims.normals.contains(&Vector3::zeros()) {
        0.0
    } else {
        let c = hull
            .vertices
            .iter()
            .fold(Vector3::zeros(), |s, p| s + p.coords)
            / hull.vertices.len() as f64;
        let r = hull
            .vertices
            .iter()
            .map(|p| (p.coords - c).norm())
            .fold(0.0, f64::max);
        (wmin.iter().copied().fold(f64::INFINITY, f64::min) - 4e-6 * r).max(0.0)
    };
    // A product of width bounds above this rules a configuration out (the
    // factor covers their rounding).
    let beaten = |lower: f64| lower * (1.0 - 1e-12) > bound.get();
    // Per edge, its sidepodal edges (of greater index, without
    // the pairs that cannot make a box below the bound) and the edges of
    // greater index whose arcs may meet its opposite.
    // A box with a hull face's normal for an axis is the face rule's when
    // it tried every face direction: pairs perpendicular only at an end of
    // an arc (see `Edge::sidepodal`), and configurations with a normal at
    // an end of its edge's arc (see `Edge::side`), are left out then. On
    // prisms and CAD parts many are: every pair of non-parallel edges
    // around a flat cap makes the cap's normal in case 3.
    let with_ends = hull.faces.len() > MAX_DIRECTIONS;
    let margin = if with_ends { -SLACK } else { TIE };
    // Pairs kept so far; past PAIR_WORK every list is left empty and the
    // search gives up.
    let pairs = AtomicUsize::new(0);
    let (near, opposed): (Vec<Vec<u32>>, Vec<Vec<u32>>) = (0..edges.len())
        .into_par_iter()
        .map_init(
            || (Vec::new(), Vec::new(), Vec::new()),
            |(flags, near, opposed): &mut (Vec<(u32, u8)>, Vec<u32>, Vec<u32>), i| {
                if pairs.load(Ordering::Relaxed) > PAIR_WORK || stop.is_set() {
                    return (Vec::new(), Vec::new());
                }
                arcs.scan(i, flags);
                // Gathered in per-thread buffers and copied out once: growing
                // a list a push at a time reallocates it several times, a
                // tenth of a small hull's whole search.
                near.clear();
                opposed.clear();
                for &(j, f) in flags.iter() {
                    let j = j as usize;
                    if f & MAY_BE_SIDEPODAL != 0
                        && !beaten(wmin[i] * wmin[j] * wany)
                        && edges[i].sidepodal(&edges[j], margin)
                    {
                        near.push(j as u32);
                    }
                    if f & MAY_OPPOSE != 0 {
                        opposed.push(j as u32);
                    }
                }
                let kept = near.len() + opposed.len();
                if pairs.fetch_add(kept, Ordering::Relaxed) + kept > PAIR_WORK {
                    return (Vec::new(), Vec::new());
                }
                (near.clone(), opposed.clone())
            },
        )
        .unzip();
    stop.check()?;
    if pairs.load(Ordering::Relaxed) > PAIR_WORK {
        return Ok(None);
    }
    let around = Sidepodal::new(&near);
    // The configurations the loops below enumerate, counted before them.
    let triples: usize = (0..edges.len())
        .map(|i| {
            near[i]
                .iter()
                .map(|&j| near[j as usize].len())
                .sum::<usize>()
                + opposed[i].len() * (2 + around.of(i).len())
        })
        .sum();
    if triples > TRIPLE_WORK {
        return Ok(None);
    }
    let best = (0..edges.len())
        .into_par_iter()
        .map_init(
            || {
                let n = edges.len();
                (vec![0u64; n.div_ceil(64)], vec![(0.0, 0.0); n])
            },
            |(mark, proj), i| {
                let ei = &edges[i];
                let mut best: Option<(f64, [Vector3<f64>; 3])> = None;
                if stop.is_set() {
                    return best;
                }
                let mut take = |f: [Vector3<f64>; 3], touch: [(usize, u32); 3]| {
                    if let Some(v) = graph.volume_below(&f, touch, bound.get())
                        && best.is_none_or(|b| v < b.0)
                    {
                        best = Some((v, f));
                        bound.lower(v);
                    }
                };
                // Case 2: edges i < j < k, pairwise sidepodal (k among
                // j's greater sidepodal edges, marked when i's too), each
                // projected on i's arc once.
                let line = ArcLine::new(ei);
                for &j in &near[i] {
                    mark[j as usize / 64] |= 1 << (j % 64);
                    proj[j as usize] = line.project(&edges[j as usize].d);
                }
                for &j in &near[i] {
                    let wij = wmin[i] * wmin[j as usize];
                    if beaten(wij * wany) {
                        continue;
                    }
                    let ej = &edges[j as usize];
                    let ej = (
                        ej,
                        proj[j as usize],
                        [line.project(&ej.a), line.project(&ej.b)],
                    );
                    for &k in &near[j as usize] {
                        if mark[k as usize / 64] & (1 << (k % 64)) == 0
                            || beaten(wij * wmin[k as usize])
                        {
                            continue;
                        }
                        let ek = (&edges[k as usize], proj[k as usize]);
                        for (f, [sj, sk]) in three_edge_frames(&line, ej, ek, with_ends) {
                            take(f, [(0, ei.v), (slot(1, sj), ej.0.v), (slot(2, sk), ek.0.v)]);
                        }
                    }
                }
                for &j in &near[i] {
                    mark[j as usize / 64] = 0;
                }
                // Case 3: i and j on opposite faces, k beside them (so
                // sidepodal to i).
                for &j in &opposed[i] {
                    let ej = &edges[j as usize];
                    let Some(n1) = ei.d.cross(&ej.d).try_normalize(1e-12) else {
                        continue;
                    };
                    let n1 = match ei.side(&n1, with_ends) {
                        1 => n1,
                        -1 => -n1,
                        _ => continue,
                    };
                    if ej.side(&n1, with_ends) != -1 {
                        continue;
                    }
                    // Across n1 the width is known: i and j touch.
                    let w1 = n1.dot(&(graph.pts[ei.v as usize] - graph.pts[ej.v as usize]));
                    if beaten(w1 * wany * wany) {
                        continue;
                    }
                    // k = i or j: that edge runs along a box edge, flush
                    // with the face beside n1's too (its arc holds ±n2).
                    for &k in [i as u32, j].iter().chain(around.of(i)) {
                        if beaten(w1 * wmin[k as usize] * wany) {
                            continue;
                        }
                        let ek = &edges[k as usize];
                        // n2 ∝ n1 × d_k, whose side products are
                        // (−n1·a_k, n1·b_k) times at most 1.
                        if off_arc(-n1.dot(&ek.a), n1.dot(&ek.b)) {
                            continue;
                        }
                        let Some(n2) = n1.cross(&ek.d).try_normalize(1e-12) else {
                            continue;
                        };
                        let sk = ek.side(&n2, with_ends);
                        if sk != 0 {
                            take(
                                [n1, n2, n1.cross(&n2)],
                                [(0, ei.v), (1, ej.v), (slot(1, sk), ek.v)],
                            );
                        }
                    }
                }
                best
            },
        )
        .flatten()
        .min_by(|a, b| a.0.total_cmp(&b.0));
    stop.check()?;
    // The winner's volume is taken again over every vertex: steepest ascent
    // can stop short where the hull keeps non-extreme (coplanar) vertices,
    // and then the face rule's box must win.
    Ok(Some(
        best.map(|(_, f)| Matrix3::from_columns(&f))
            .filter(|f| box_volume(f, &hull.vertices) < face_volume)
            .unwrap_or(face),
    ))
}

/// Edge pairs the exact search may keep (sidepodal and opposed lists)
/// before it gives up: a list entry is 4 bytes. The corpus keeps at most
/// 0.33 M (the 69k bunny); a 512-segment cylinder 0.54 M, a 64×32 UV
/// sphere 0.41 M, a 128×64 one 3.2 M.
pub(crate) const PAIR_WORK: usize = 1_000_000;

/// Edge configurations (cases 2 and 3) the exact search may enumerate:
/// 23 M on the 69k bunny and on a 256-segment cylinder (about 0.2 s of
/// CPU), 184 M on a 512-segment one.
pub(crate) const TRIPLE_WORK: usize = 40_000_000;
