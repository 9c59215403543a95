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
//!    projection along that face's normal (the face rule of
//!    [`tight_frame`], which tries every face direction exactly);
//! 2. three mutually adjacent box faces, each flush with a hull edge: with
//!    `n1` on the Gauss arc of edge `i` (the unnormalised interpolation
//!    `a + t(b − a)` of its two face normals), `n2 ∝ n1 × e_j` and
//!    `n3 ∝ n1 × n2`, the condition `n3 · e_k = 0` is a quadratic in `t`;
//! 3. two opposite box faces flush with two hull edges `i`, `j` (so
//!    `n1 ∝ e_i × e_j`, on `i`'s arc and its opposite on `j`'s) and a third
//!    edge `k` flush with an adjacent face (`n2 ∝ n1 × e_k`).
//!
//! Edges whose arcs can hold perpendicular normals ("sidepodal": the
//! bilinear `(a_i + s·Δ_i)·(a_j + t·Δ_j)` changes sign over the unit square,
//! which its corners decide) are listed once, so the triples of case 2 are
//! drawn from them; a configuration counts when every normal lies on its
//! edge's arc (or the opposite arc, for the box's far face), within a slack
//! of 1e-9. The width of the hull along a direction is found by steepest
//! ascent on the hull's vertex graph (a local maximum of a linear function
//! on a convex polytope's graph is global).
//!
//! Guarantee: the volume is minimal over all orientations up to `f64`
//! rounding of the normals and widths, for hulls whose faces have reliable
//! normals; sliver faces (normal unreliable) and edges between coplanar
//! faces (dihedral below ~1.4e-6 rad) are left to the face rule, and two
//! parallel antipodal edges (a one-parameter tie) are skipped. The result is
//! never larger than [`tight_frame`]'s box (its candidates are included).
//! Containment does not rest on the search: callers take the box's extents
//! from the points ([`Obb::from_frame_and_points`](super::Obb::from_frame_and_points)).

use super::ConvexHull;
use super::tight_obb::{Rims, box_volume, tight_frame};
use nalgebra::{Matrix3, Point3, Vector3};
use rayon::prelude::*;

/// Slack of the arc and sidepodal tests (on unit vectors): a configuration
/// this close to valid is evaluated too, so rounding never drops one.
const SLACK: f64 = 1e-9;

/// A hull edge with its Gauss arc: the unit normals of its two faces.
struct Edge {
    /// Unit direction, oriented so that `(a × b) · d > 0`.
    d: Vector3<f64>,
    a: Vector3<f64>,
    b: Vector3<f64>,
    /// Unit mid-arc direction, and the sine and cosine of half the arc's
    /// angle (for cheap filters).
    mid: Vector3<f64>,
    sin_half: f64,
    cos_half: f64,
}

impl Edge {
    /// For unit `n` perpendicular to the edge: `1` when `n` is on the arc
    /// (the edge is extreme along `n`), `-1` when `−n` is, `0` otherwise.
    fn side(&self, n: &Vector3<f64>) -> i8 {
        let s1 = self.a.cross(n).dot(&self.d);
        let s2 = n.cross(&self.b).dot(&self.d);
        if s1 >= -SLACK && s2 >= -SLACK {
            1
        } else if s1 <= SLACK && s2 <= SLACK {
            -1
        } else {
            0
        }
    }

    /// Whether some normal on this arc is perpendicular to some normal on
    /// `o`'s arc.
    fn sidepodal(&self, o: &Edge) -> bool {
        // Normals on the arcs lie within their half angles of the mids.
        let (sin_reach, cos_reach) = self.reach(o);
        if cos_reach > 0.0 && self.mid.dot(&o.mid).abs() > sin_reach + SLACK {
            return false;
        }
        let c = [
            self.a.dot(&o.a),
            self.a.dot(&o.b),
            self.b.dot(&o.a),
            self.b.dot(&o.b),
        ];
        let lo = c.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = c.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        lo <= SLACK && hi >= -SLACK
    }

    /// Whether this arc and the opposite of `o`'s can meet (cheap filter).
    fn may_oppose(&self, o: &Edge) -> bool {
        -self.mid.dot(&o.mid) >= self.reach(o).1 - SLACK
    }

    /// Sine and cosine of the sum of this arc's and `o`'s half angles.
    fn reach(&self, o: &Edge) -> (f64, f64) {
        (
            self.sin_half * o.cos_half + self.cos_half * o.sin_half,
            self.cos_half * o.cos_half - self.sin_half * o.sin_half,
        )
    }
}

/// The hull's edges with a usable arc (both faces with reliable normals,
/// not coplanar).
fn edges(hull: &ConvexHull, rims: &Rims) -> Vec<Edge> {
    rims.edges
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
            Some(Edge {
                d,
                a,
                b,
                mid: (a + b).try_normalize(0.0)?,
                sin_half: (0.5 * (1.0 - cos)).max(0.0).sqrt(),
                cos_half: (0.5 * (1.0 + cos)).max(0.0).sqrt(),
            })
        })
        .collect()
}

/// The hull's vertex graph (compressed adjacency lists).
struct Graph<'h> {
    pts: &'h [Point3<f64>],
    start: Vec<u32>,
    next: Vec<u32>,
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
        Graph { pts, start, next }
    }

    /// The greatest `n · p` over the hull, by steepest ascent from `*from`
    /// (which is left at the maximising vertex).
    fn support(&self, n: &Vector3<f64>, from: &mut u32) -> f64 {
        let mut v = *from as usize;
        let mut best = n.dot(&self.pts[v].coords);
        loop {
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
                *from = v as u32;
                return best;
            }
        }
    }

    /// Volume of the box with orthonormal axes `f` around the hull; `from`
    /// holds a start vertex per support query, updated.
    fn volume(&self, f: &[Vector3<f64>; 3], from: &mut [u32; 6]) -> f64 {
        let mut v = 1.0;
        for (k, n) in f.iter().enumerate() {
            let (s, t) = from.split_at_mut(2 * k + 1);
            v *= self.support(n, &mut s[2 * k]) + self.support(&-n, &mut t[0]);
        }
        v
    }
}

/// The frames of case 2 for edges `i`, `j`, `k` (at most two).
fn three_edge_frames(ei: &Edge, ej: &Edge, ek: &Edge) -> impl Iterator<Item = [Vector3<f64>; 3]> {
    let (a, u) = (ei.a, ei.b - ei.a);
    let c = ej.d.dot(&ek.d);
    let (aj, bj, ak, bk) = (a.dot(&ej.d), u.dot(&ej.d), a.dot(&ek.d), u.dot(&ek.d));
    let q2 = bk * bj - c * u.norm_squared();
    let q1 = ak * bj + aj * bk - 2.0 * c * a.dot(&u);
    let q0 = ak * aj - c * a.norm_squared();
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
    roots.into_iter().filter_map(move |t| {
        if !(-SLACK..=1.0 + SLACK).contains(&t) {
            return None;
        }
        let n1 = (a + u * t.clamp(0.0, 1.0)).try_normalize(0.0)?;
        let n2 = n1.cross(&ej.d).try_normalize(1e-12)?;
        if ej.side(&n2) == 0 {
            return None;
        }
        let n3 = n1.cross(&n2);
        (ek.side(&n3) != 0).then_some([n1, n2, n3])
    })
}

/// The frame of the minimum-volume box around `hull`'s vertices (see the
/// module documentation), never worse than [`tight_frame`]`(hull, extra)`.
/// Flat hulls (dimension < 3) get [`tight_frame`]'s flat box, already
/// minimal in its plane.
pub fn min_volume_frame(hull: &ConvexHull, extra: &[Matrix3<f64>]) -> Matrix3<f64> {
    let face = tight_frame(hull, extra);
    if hull.dimension < 3 {
        return face;
    }
    let rims = Rims::new(hull);
    let edges = edges(hull, &rims);
    let graph = Graph::new(&hull.vertices, &rims);
    // Sidepodal edges of each edge, greater indices only, ascending.
    let near: Vec<Vec<u32>> = (0..edges.len())
        .into_par_iter()
        .map(|i| {
            (i + 1..edges.len())
                .filter(|&j| edges[i].sidepodal(&edges[j]))
                .map(|j| j as u32)
                .collect()
        })
        .collect();
    let best = (0..edges.len())
        .into_par_iter()
        .map_init(
            || [0u32; 6],
            |from, i| {
                let ei = &edges[i];
                let mut best = (f64::INFINITY, [Vector3::zeros(); 3]);
                let mut take = |f: [Vector3<f64>; 3], from: &mut [u32; 6]| {
                    let v = graph.volume(&f, from);
                    if v < best.0 {
                        best = (v, f);
                    }
                };
                // Case 2: edges i < j < k, pairwise sidepodal.
                for (x, &j) in near[i].iter().enumerate() {
                    let ej = &edges[j as usize];
                    let (mut p, mut q) = (
                        near[i][x + 1..].iter().peekable(),
                        near[j as usize].iter().peekable(),
                    );
                    while let (Some(&&k1), Some(&&k2)) = (p.peek(), q.peek()) {
                        if k1 < k2 {
                            p.next();
                        } else if k2 < k1 {
                            q.next();
                        } else {
                            for f in three_edge_frames(ei, ej, &edges[k1 as usize]) {
                                take(f, from);
                            }
                            p.next();
                            q.next();
                        }
                    }
                }
                // Case 3: i and j on opposite faces, k beside them.
                for ej in &edges[i + 1..] {
                    if !ei.may_oppose(ej) {
                        continue;
                    }
                    let Some(n1) = ei.d.cross(&ej.d).try_normalize(1e-12) else {
                        continue;
                    };
                    let n1 = match ei.side(&n1) {
                        1 => n1,
                        -1 => -n1,
                        _ => continue,
                    };
                    if ej.side(&n1) != -1 {
                        continue;
                    }
                    for (k, ek) in edges.iter().enumerate() {
                        if k == i || !ei.sidepodal(ek) {
                            continue;
                        }
                        if let Some(n2) = n1.cross(&ek.d).try_normalize(1e-12)
                            && ek.side(&n2) != 0
                        {
                            take([n1, n2, n1.cross(&n2)], from);
                        }
                    }
                }
                best
            },
        )
        .min_by(|a, b| a.0.total_cmp(&b.0));
    // The winner's volume is taken again over every vertex: steepest ascent
    // can stop short where the hull keeps non-extreme (coplanar) vertices,
    // and then the face rule's box must win.
    let face_volume = box_volume(&face, &hull.vertices);
    best.map(|(_, f)| Matrix3::from_columns(&f))
        .filter(|f| box_volume(f, &hull.vertices) < face_volume)
        .unwrap_or(face)
}
