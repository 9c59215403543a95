//! The protrusion depth of one surface into one solid: the largest distance
//! from a point of the surface lying inside the solid to the solid's
//! surface, by a certified branch and bound over the surface's triangles.

use super::bound::{interpolated_max, lipschitz_max, reach};
use crate::query::distance_point_mesh::{point_mesh, point_triangle};
use crate::query::pair::closest_point_triangle::closest_point_triangle;
use crate::query::point::{PointTree, SignMethod};
use crate::query::tree_pair::Placement;
use crate::tree::AabbTree;
use nalgebra::Point3;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

/// The default of [`DepthOptions::max_splits`].
pub const MAX_SPLITS: u64 = 20_000;

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

impl Protrusion {
    /// No protrusion, nothing searched (an empty surface or solid, or a
    /// direction not asked for).
    pub const NONE: Protrusion = Protrusion {
        depth: 0.0,
        deep: None,
        nearest: Point3::new(0.0, 0.0, 0.0),
        bound: 0.0,
        splits: 0,
        capped: false,
        triangles: 0,
    };
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

/// A sub-triangle of the surface.
#[derive(Clone, Copy, Debug)]
struct Open {
    level: u8,
    corners: [Sample; 3],
}

/// What waits in the queue: a node of the surface's tree or a sub-triangle.
#[derive(Clone, Copy, Debug)]
enum Part {
    Node(u32),
    Triangle(Open),
}

/// A part waiting with its upper bound on the depth inside it; the queue
/// pops the largest bound first.
#[derive(Clone, Copy, Debug)]
struct Item {
    upper: f64,
    part: Part,
}

impl PartialEq for Item {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Item {}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Item {
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
    /// Measures a point of the surface: its exact distance to the solid's
    /// surface, its nearest triangle and whether it is inside.
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
    fn open(&self, corners: [Sample; 3], level: u8) -> Option<Item> {
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
        Some(Item {
            upper,
            part: Part::Triangle(Open { level, corners }),
        })
    }
}

/// How far the surface of `surface`, placed in the solid's frame by
/// `place`, protrudes into `solid` (see the module of
/// [`crate::query::depth`] for the definition, the search and its
/// guarantee).
pub fn protrusion(
    surface: &AabbTree,
    place: &Placement,
    solid: &PointTree,
    opts: &DepthOptions,
) -> Protrusion {
    let mut out = Protrusion::NONE;
    let (Some(root), false) = (solid.tree.nodes.first(), surface.nodes.is_empty()) else {
        return out;
    };
    let (lo, hi) = (root.bx.min.to_array(), root.bx.max.to_array());
    // Whether the ball about `c` of radius `r` meets the solid's box (no
    // point outside the box is inside, closed or open: the winding number
    // there is below ½).
    let meets_box = |c: &Point3<f64>, r: f64| {
        let gap2: f64 = (0..3)
            .map(|k| {
                let g = (lo[k] as f64 - c[k]).max(c[k] - hi[k] as f64).max(0.0);
                g * g
            })
            .sum();
        gap2 <= r * r
    };
    let mut search = Search {
        solid,
        closed: solid.sign_method() != SignMethod::Generalized,
        best: 0.0,
        deep: None,
    };
    let tolerance = opts.tolerance.max(0.0);
    // Each corner measured once, however many triangles share it.
    let mut samples: HashMap<u32, Sample> = HashMap::new();
    let mut queue = BinaryHeap::new();
    queue.push(Item {
        upper: f64::INFINITY,
        part: Part::Node(0),
    });
    // The largest upper bound of a part left unsplit (pruned by the
    // tolerance, at the level cap, or left in the queue).
    let mut left = 0.0f64;
    let mut hint = None;
    while let Some(item) = queue.pop() {
        if item.upper <= search.best + tolerance || out.splits >= opts.max_splits {
            out.capped = item.upper > search.best + tolerance;
            left = left.max(item.upper);
            break;
        }
        let mut push = |item: Option<Item>, best: f64| match item {
            Some(k) if k.upper > best + tolerance => queue.push(k),
            Some(k) => left = left.max(k.upper),
            None => {}
        };
        let o = match item.part {
            Part::Node(i) => {
                let node = &surface.nodes[i as usize];
                if node.is_leaf() {
                    for k in node.start..node.start + node.count {
                        out.triangles += 1;
                        let corners = surface.triangles[k as usize].map(|v| {
                            *samples.entry(v).or_insert_with(|| {
                                let p = place.apply(&surface.vertices[v as usize]);
                                let s = search.sample(p, hint);
                                hint = Some(s.slot);
                                s
                            })
                        });
                        let o = search.open(corners, 0);
                        push(o, search.best);
                    }
                } else {
                    for child in [i + 1, node.right] {
                        let bx = &surface.nodes[child as usize].bx;
                        let (a, b) = (bx.min.to_array(), bx.max.to_array());
                        let c = Point3::from(std::array::from_fn(|k| {
                            (a[k] as f64 + b[k] as f64) / 2.0
                        }));
                        let r = (0..3)
                            .map(|k| (b[k] as f64 - a[k] as f64).powi(2))
                            .sum::<f64>()
                            .sqrt()
                            / 2.0
                            * (1.0 + 1e-12);
                        let c = place.apply(&c);
                        if !meets_box(&c, r) {
                            continue;
                        }
                        // Within the best depth (and the tolerance) less r,
                        // the node cannot beat it: the first triangle that
                        // near is enough to know.
                        let enough = search.best + tolerance - r;
                        let (d, slot) = point_mesh(&solid.tree, &c, enough.max(0.0), hint);
                        hint = Some(slot);
                        let item = Item {
                            upper: d + r,
                            part: Part::Node(child),
                        };
                        let shallow = item.upper <= search.best + tolerance;
                        if shallow || !(search.closed && d > r && !solid.contains(&c)) {
                            push(Some(item), search.best);
                        }
                    }
                }
                continue;
            }
            Part::Triangle(o) => o,
        };
        if o.level >= MAX_LEVEL {
            left = left.max(item.upper);
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
            let k = search.open(corners, o.level + 1);
            push(k, search.best);
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
