//! The protrusion depth of one surface into one solid: the largest distance
//! from a point of the surface lying inside the solid to the solid's
//! surface, by a certified branch and bound over the surface's triangles.

use super::bound::{interpolated_max, lipschitz_max, reach};
use crate::query::distance_point_mesh::{point_mesh, point_triangle};
use crate::query::pair::closest_point_triangle::closest_point_triangle;
use crate::query::point::{PointTree, SignMethod};
use nalgebra::Point3;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// The default of [`DepthOptions::max_splits`].
pub const MAX_SPLITS: u64 = 200_000;

/// A sub-triangle is not split below this many halvings of its triangle:
/// past it the midpoints stop being distinct in `f64` for any triangle
/// worth splitting; one still open at this level is left in the bound.
const MAX_LEVEL: u8 = 40;

/// How deep the search for the protrusion goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthOptions {
    /// The absolute tolerance (model units, > 0): the search stops when no
    /// open sub-triangle can beat the depth found by more than this.
    pub tolerance: f64,
    /// The most sub-triangle splits one direction of one query may make;
    /// where it is reached the search stops and reports the bound it
    /// achieved ([`Protrusion::bound`]) instead of the tolerance.
    pub max_splits: u64,
}

/// How far one surface protrudes into one solid, in the solid's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Protrusion {
    /// The depth: the largest distance found from a point of the surface
    /// inside the solid to the solid's surface (model units, ≥ 0; 0 when no
    /// point of the surface tested is inside). It is attained:
    /// `deep` is such a point.
    pub depth: f64,
    /// The deepest point found on the surface (inside the solid), when
    /// `depth > 0`.
    pub deep: Option<Point3<f64>>,
    /// Its nearest point on the solid's surface.
    pub nearest: Point3<f64>,
    /// The true protrusion is within `[depth, depth + bound]` (rounding of
    /// the point distances aside): the largest upper bound left open, less
    /// `depth`; at most the tolerance unless the split cap was reached.
    pub bound: f64,
    /// Sub-triangle splits made.
    pub splits: u64,
    /// Whether [`DepthOptions::max_splits`] stopped the search.
    pub capped: bool,
    /// Surface triangles the solid's box let through to the search.
    pub triangles: u64,
}

/// A corner of a sub-triangle: where, its distance to the solid's surface,
/// the slot (node order) of a nearest triangle, and whether it is inside.
#[derive(Clone, Copy, Debug)]
struct Sample {
    p: Point3<f64>,
    d: f64,
    slot: u32,
    inside: bool,
}

/// A sub-triangle waiting with its upper bound on the depth inside it.
#[derive(Clone, Copy, Debug)]
struct Open {
    upper: f64,
    level: u8,
    corners: [Sample; 3],
}

impl PartialEq for Open {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Open {
    fn cmp(&self, o: &Self) -> Ordering {
        self.upper.total_cmp(&o.upper)
    }
}

/// The search's state: the solid and the best depth found.
struct Search<'s> {
    solid: &'s PointTree,
    /// Whether the solid is closed (the winding number is constant off its
    /// surface), so that a ball that misses the surface is all inside or
    /// all outside.
    closed: bool,
    best: f64,
    deep: Option<Sample>,
}

impl Search<'_> {
    fn sample(&mut self, p: Point3<f64>, hint: Option<u32>) -> Sample {
        let (d, slot) = point_mesh(&self.solid.tree, &p, 0.0, hint);
        let inside = d > 0.0 && self.solid.contains(&p);
        let s = Sample { p, d, slot, inside };
        if inside && d > self.best {
            self.best = d;
            self.deep = Some(s);
        }
        s
    }

    /// The sub-triangle with these corners and its upper bound, or `None`
    /// where it holds no point inside the solid (closed solids only: a
    /// corner outside whose distance to the surface exceeds the farthest
    /// point of the sub-triangle from it).
    fn open(&self, corners: [Sample; 3], level: u8) -> Option<Open> {
        let p = corners.map(|c| c.p);
        if self.closed && (0..3).any(|i| !corners[i].inside && corners[i].d > reach(&p, i)) {
            return None;
        }
        if corners.iter().all(|c| c.d == 0.0) && reach(&p, 0) == 0.0 {
            return None;
        }
        let mut slots = [corners[0].slot; 3];
        let mut n = 1;
        for c in &corners[1..] {
            if !slots[..n].contains(&c.slot) {
                slots[n] = c.slot;
                n += 1;
            }
        }
        let mut values = [[0.0; 3]; 3];
        for (j, &slot) in slots[..n].iter().enumerate() {
            let t = self.solid.tree.corners(slot as usize);
            for (i, c) in corners.iter().enumerate() {
                values[j][i] = if c.slot == slot {
                    c.d
                } else {
                    point_triangle(&c.p, &t)
                };
            }
        }
        let d = corners.map(|c| c.d);
        let upper = interpolated_max(&values[..n]).min(lipschitz_max(&p, &d));
        Some(Open {
            upper,
            level,
            corners,
        })
    }
}

/// How far the surface of `vertices` and `triangles` (already in the
/// solid's frame) protrudes into `solid` (see the module of
/// [`crate::query::depth`] for the definition, the search and its
/// guarantee).
pub fn protrusion(
    vertices: &[Point3<f64>],
    triangles: &[[u32; 3]],
    solid: &PointTree,
    opts: &DepthOptions,
) -> Protrusion {
    let mut out = Protrusion {
        depth: 0.0,
        deep: None,
        nearest: Point3::origin(),
        bound: 0.0,
        splits: 0,
        capped: false,
        triangles: 0,
    };
    let Some(root) = solid.tree.nodes.first() else {
        return out;
    };
    let (lo, hi) = (root.bx.min.to_array(), root.bx.max.to_array());
    let in_box = |t: &[u32; 3]| {
        (0..3).all(|k| {
            let (a, b) = t
                .iter()
                .map(|&i| vertices[i as usize][k])
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                    (a.min(x), b.max(x))
                });
            b >= lo[k] as f64 && a <= hi[k] as f64
        })
    };
    let mut search = Search {
        solid,
        closed: solid.sign_method() != SignMethod::Generalized,
        best: 0.0,
        deep: None,
    };
    let tolerance = opts.tolerance.max(0.0);
    // Each corner measured once, however many triangles share it.
    let mut samples: Vec<Option<Sample>> = Vec::new();
    let mut queue = BinaryHeap::new();
    // The largest upper bound of a sub-triangle left unsplit (pruned by the
    // tolerance, at the level cap, or left in the queue).
    let mut left = 0.0f64;
    let mut hint = None;
    for t in triangles.iter().filter(|t| in_box(t)) {
        if samples.is_empty() {
            samples.resize(vertices.len(), None);
        }
        out.triangles += 1;
        let corners = t.map(|i| {
            *samples[i as usize].get_or_insert_with(|| {
                let s = search.sample(vertices[i as usize], hint);
                hint = Some(s.slot);
                s
            })
        });
        if let Some(o) = search.open(corners, 0) {
            queue.push(o);
        }
    }
    drop(samples);
    while let Some(o) = queue.pop() {
        if o.upper <= search.best + tolerance || out.splits >= opts.max_splits {
            out.capped = o.upper > search.best + tolerance;
            left = left.max(o.upper);
            break;
        }
        if o.level >= MAX_LEVEL {
            left = left.max(o.upper);
            continue;
        }
        out.splits += 1;
        let [a, b, c] = o.corners;
        let mid = |search: &mut Search, x: &Sample, y: &Sample| {
            search.sample(nalgebra::center(&x.p, &y.p), Some(x.slot))
        };
        let (ab, bc, ca) = (
            mid(&mut search, &a, &b),
            mid(&mut search, &b, &c),
            mid(&mut search, &c, &a),
        );
        for corners in [[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]] {
            if let Some(k) = search.open(corners, o.level + 1) {
                if k.upper > search.best + tolerance {
                    queue.push(k);
                } else {
                    left = left.max(k.upper);
                }
            }
        }
    }
    out.depth = search.best;
    out.bound = (left - search.best).max(0.0);
    if let Some(s) = search.deep {
        out.deep = Some(s.p);
        out.nearest = closest_point_triangle(&s.p, &solid.tree.corners(s.slot as usize)).point;
    }
    out
}
