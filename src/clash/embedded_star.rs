//! Vertices whose star is embedded: a certificate, per welded vertex, that
//! no two of the triangles around it intersect by the rules of
//! [`super::adjacency`] — so the self-intersection search can skip every
//! pair that shares such a vertex without testing it.
//!
//! Most triangle pairs whose boxes overlap in a mesh are neighbours (on a
//! scanned statue, 96 % of them), and each neighbour pair costs plane sides
//! and often segment tests. The certificate costs a few `orient2d` per
//! triangle corner instead.
//!
//! The certificate for a vertex `v` with star triangles `(v, aᵢ, bᵢ)` (each
//! rotated so that `v` comes first, keeping its orientation): drop the
//! coordinate along which the star's summed normal is longest (an exact
//! projection), then require, with exact `orient2d` signs,
//!
//! 1. every projected triangle `(v', aᵢ', bᵢ')` of one non-zero orientation;
//! 2. the links `aᵢ → bᵢ` form one cycle through all the triangles (a
//!    closed manifold fan; boundary, non-manifold and duplicated stars get
//!    no certificate — certifying boundary fans too was measured: it cost
//!    more than it saved);
//! 3. the cycle turns once around `v'`: exactly one half-open sector
//!    `[aᵢ', bᵢ')` holds the ray from `v'` through `a₀'`.
//!
//! Each step turns the same way by less than π and the cycle makes one
//! full turn: its link polygon is star-shaped about `v'`. So the
//! projected triangles have disjoint interiors, and only
//! consecutive ones share more than `v'`: two sharing only `v` meet
//! only at `v'`, two sharing an edge only along it. The projection is
//! injective on each triangle (non-zero projected area), so in 3-D two star
//! triangles meet only at `v` or only along their shared edge, unfolded —
//! which the rules do not count. Any pair of triangles sharing a vertex or
//! an edge lies in the star of each shared vertex, so one certified shared
//! vertex settles the pair.

use crate::query::pair::intersect_triangle_triangle::{o2, proj};
use crate::tree::AabbTree;
use nalgebra::Vector3;
use rayon::prelude::*;
use robust::Coord;

/// Stars with more triangles than this are left uncertified (a fan that
/// large is rare, and the cycle walk is quadratic in it).
const MAX_STAR: usize = 24;

/// Per triangle of `tree` (tree order), bit `i` set when the star of its
/// corner `i` is certified embedded.
pub(crate) fn embedded_corners(tree: &AabbTree) -> Vec<u8> {
    let (start, star) = stars(&tree.triangles, tree.vertices.len());
    let embedded: Vec<bool> = (0..tree.vertices.len())
        .into_par_iter()
        .map(|v| {
            let s = &star[start[v] as usize..start[v + 1] as usize];
            star_is_embedded(tree, v as u32, s)
        })
        .collect();
    tree.triangles
        .par_iter()
        .map(|t| (0..3).fold(0u8, |m, i| m | (embedded[t[i] as usize] as u8) << i))
        .collect()
}

/// The triangles around each vertex: `star[start[v]..start[v + 1]]`.
fn stars(triangles: &[[u32; 3]], vertices: usize) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; vertices + 1];
    for &i in triangles.iter().flatten() {
        start[i as usize + 1] += 1;
    }
    for v in 0..vertices {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut star = vec![0u32; start[vertices] as usize];
    for (k, t) in triangles.iter().enumerate() {
        for &i in t {
            star[fill[i as usize] as usize] = k as u32;
            fill[i as usize] += 1;
        }
    }
    (start, star)
}

/// The certificate of the module's documentation for vertex `v` and its
/// star (triangle indices into `tree`).
fn star_is_embedded(tree: &AabbTree, v: u32, star: &[u32]) -> bool {
    let n = star.len();
    if !(3..=MAX_STAR).contains(&n) {
        return false;
    }
    // Each triangle as (a, b): its corners after v, in its orientation.
    let mut links = [(0u32, 0u32); MAX_STAR];
    for (link, &k) in links.iter_mut().zip(star) {
        let t = tree.triangles[k as usize];
        let Some(i) = t.iter().position(|&x| x == v) else {
            return false;
        };
        *link = (t[(i + 1) % 3], t[(i + 2) % 3]);
    }
    let Some(cycle) = one_cycle(&links[..n]) else {
        return false;
    };
    let cycle = &cycle[..n];
    let p = |i: u32| tree.vertices[i as usize];
    let centre = p(v);
    let normal: Vector3<f64> = cycle
        .iter()
        .map(|&(a, b)| (p(a) - centre).cross(&(p(b) - centre)))
        .sum();
    let k = normal.iamax();
    let at = |i: u32| proj(&p(i), k);
    let c = at(v);
    let first = at(cycle[0].0);
    let turn = o2(c, first, at(cycle[0].1));
    if turn == 0 {
        return false;
    }
    // Sector i is [aᵢ', bᵢ'); the ray through a₀' lies in it when aᵢ' is
    // behind or on it (`o2(c, a₀', aᵢ')` opposite to the turn, or 0 with
    // aᵢ' on the ray's side) and bᵢ' strictly ahead. In cycle order bᵢ is
    // aᵢ₊₁, so each corner's `o2(c, a₀', ·)` is found once.
    let (mut holding, mut behind) = (0, true);
    for &(a, b) in cycle {
        let (a, b) = (at(a), at(b));
        if o2(c, a, b) != turn {
            return false;
        }
        let ahead = o2(c, first, b);
        holding += (behind && ahead == turn) as usize;
        behind = ahead == -turn || (ahead == 0 && same_direction(c, b, first));
    }
    holding == 1
}

/// The links `a → b` in the order of the single cycle through all of them
/// that starts with the first, or `None` when they do not form one.
fn one_cycle(links: &[(u32, u32)]) -> Option<[(u32, u32); MAX_STAR]> {
    let mut cycle = [links[0]; MAX_STAR];
    for step in 1..links.len() {
        let at = cycle[step - 1].1;
        let mut next = links.iter().filter(|l| l.0 == at);
        match (next.next(), next.next()) {
            (Some(&l), None) if at != links[0].0 => cycle[step] = l,
            _ => return None,
        }
    }
    (cycle[links.len() - 1].1 == links[0].0).then_some(cycle)
}

/// For `a` and `p` on one line through `c`: whether they lie on the same
/// side of `c` (exact comparisons).
fn same_direction(c: Coord<f64>, a: Coord<f64>, p: Coord<f64>) -> bool {
    let side = |x: f64, o: f64| (x > o) as i8 - (x < o) as i8;
    side(a.x, c.x) == side(p.x, c.x) && side(a.y, c.y) == side(p.y, c.y)
}
