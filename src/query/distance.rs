//! Minimum distance between two meshes at a pose, on their OBB trees.

use super::tree_pair::{PlacedLeaf, Split, TreePair, split};
use crate::pose::Pose;
use crate::query::pair::distance_triangle_triangle::{
    SidePlane, box_gap, lower_bound, rounding_bound, triangle_bounds, triangle_distance,
};
use crate::query::pair::overlap_obb_obb::{PlacedBox, Slabs, corners32, separation};
use crate::tree::{MAX_LEAF_SIZE, ObbTree};
use nalgebra::Point3;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use wide::f32x4;

/// How close to the minimum the answer must be, as FCL's `rel_err` and
/// `abs_err`: the reported distance `d̂` satisfies `d̂ ≤ (1 + rel_err)·d +
/// abs_err` for the true minimum `d` (up to the triangle distance's rounding
/// bound). Both 0 (the default) ask for the minimum itself.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DistanceOptions {
    /// Relative tolerance (≥ 0).
    pub rel_err: f64,
    /// Absolute tolerance (≥ 0, model units).
    pub abs_err: f64,
}

/// The answer of [`distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distance {
    /// The minimum distance between the meshes (0 when they touch or
    /// intersect), in model units.
    pub distance: f64,
    /// Whether the meshes touch or intersect (decided exactly).
    pub intersecting: bool,
    /// The closest point on A, in A's frame.
    pub point_a: Point3<f64>,
    /// The closest point on B, in A's frame (B placed by the pose).
    pub point_b: Point3<f64>,
    /// The closest triangles `(A's, B's)`, as indices into the meshes the
    /// trees were built from.
    pub triangles: (u32, u32),
    /// The bound on the rounding error of `distance` (model units): the
    /// exact minimum over the `f64` triangles (B's placed as
    /// [`super::Placement`] places them) is within this of `distance`, or
    /// of what the tolerances allow. 0 when the meshes meet.
    pub rounding_bound: f64,
    /// Box–box lower bounds computed.
    pub box_tests: u64,
    /// Triangle–triangle distances computed.
    pub triangle_tests: u64,
}

/// The search queue of [`distance_with`], kept between queries so that a
/// query allocates nothing once the queue has grown to its working size.
#[derive(Debug, Default)]
pub struct DistanceScratch {
    queue: BinaryHeap<Candidate>,
    placed: PlacedLeaf,
}

/// A node pair waiting in the queue with the lower bound of its boxes'
/// distance; the queue pops the smallest bound first. B's box is placed
/// again when the pair is popped: 12 bytes move through the heap, not 80.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    bound: f32,
    a: u32,
    b: u32,
}

impl PartialEq for Candidate {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Candidate {
    /// Reversed, so that the max-heap pops the smallest bound.
    fn cmp(&self, o: &Self) -> Ordering {
        o.bound.total_cmp(&self.bound)
    }
}

/// The minimum distance between tree `a` (at identity) and tree `b` placed
/// by `pose`; `None` when either tree is empty. Allocates its queue: see
/// [`distance_with`] to reuse one.
///
/// # Guarantees
/// The true minimum distance between the two triangle sets lies within
/// `rounding_bound` of `distance` (0 exactly when they meet, decided by exact
/// predicates); `point_a` and `point_b` are on the reported triangles, in A's
/// frame.
///
/// ```
/// use bvtool::query::{DistanceOptions, distance};
/// use bvtool::tree::ObbTree;
/// use bvtool::{Pose, load};
/// use nalgebra::{UnitQuaternion, Vector3};
///
/// let mesh = load::load("models/torus.obj".as_ref(), &Default::default())?.flatten();
/// let tree = ObbTree::build_default(&mesh, Default::default());
/// let pose = Pose::new(Vector3::new(2.8, 0.0, 0.0), UnitQuaternion::identity());
/// let d = distance(&tree, &tree, &pose, &DistanceOptions::default()).unwrap();
/// assert!((d.distance - 0.1).abs() <= d.rounding_bound + 1e-12);
/// # Ok::<(), bvtool::Error>(())
/// ```
pub fn distance(a: &ObbTree, b: &ObbTree, pose: &Pose, opts: &DistanceOptions) -> Option<Distance> {
    distance_with(&mut DistanceScratch::default(), a, b, pose, opts)
}

/// [`distance`] with a reused queue.
///
/// A best-first branch and bound over node pairs. Each pair's key is a lower
/// bound on the distance between its boxes — the largest gap over the 15
/// separating axes, less the `f32` rounding slack ([`separation`]) — so it
/// never exceeds the distance of any two triangles below the pair. The
/// search is seeded with an upper bound from one greedy dive (always into
/// the child pair of smaller bound) to a leaf pair, then pops pairs nearest
/// first: a pair is split (both boxes when they are of about one size, else
/// the larger, by diagonal) or, at two leaves, its triangle pairs are
/// measured ([`triangle_distance`]) unless their [`lower_bound`] (bounding
/// boxes, then the gap across either triangle's plane) rules them out; a pair whose
/// bound cannot beat the best distance found (within the tolerances) is
/// never queued, and the search ends when the nearest queued bound cannot.
/// The first meeting triangle pair ends it at distance 0.
///
/// The answer is the least computed triangle distance over every pair the
/// bounds could not rule out: the true minimum over B's `f64` triangles
/// placed as [`super::Placement`] places them, up to
/// [`Distance::rounding_bound`] and the tolerances.
pub fn distance_with(
    scratch: &mut DistanceScratch,
    a: &ObbTree,
    b: &ObbTree,
    pose: &Pose,
    opts: &DistanceOptions,
) -> Option<Distance> {
    let pair = TreePair::new(a, b, pose)?;
    scratch.placed.clear();
    let mut search = Search {
        pair: &pair,
        placed: &mut scratch.placed,
        rel: 1.0 + opts.rel_err.max(0.0),
        abs: opts.abs_err.max(0.0),
        best: Distance {
            distance: f64::INFINITY,
            intersecting: false,
            point_a: Point3::origin(),
            point_b: Point3::origin(),
            triangles: (0, 0),
            rounding_bound: rounding_bound(pair.scale),
            box_tests: 0,
            triangle_tests: 0,
        },
    };
    let queue = &mut scratch.queue;
    queue.clear();
    let root = Candidate {
        bound: 0.0,
        a: 0,
        b: 0,
    };
    queue.push(root);
    while let Some(c) = queue.pop() {
        if search.best.intersecting || !search.worth(c.bound) {
            break;
        }
        // Descend from the nearest pair into the nearer child pair until
        // two leaves, queueing each farther child pair on the way.
        let (mut c, mut placed) = (c, pair.place_node(c.b).1);
        loop {
            let (na, nb) = (&a.nodes[c.a as usize], &b.nodes[c.b as usize]);
            if na.is_leaf() && nb.is_leaf() {
                search.leaves(c.a, c.b, &placed);
                break;
            }
            let (kids, n) = search.children(&c, placed);
            let kids = &kids[..n];
            let k = (1..n).fold(0, |k, i| {
                if kids[i].0.bound < kids[k].0.bound {
                    i
                } else {
                    k
                }
            });
            for (i, kid) in kids.iter().enumerate() {
                if i != k && search.worth(kid.0.bound) {
                    queue.push(kid.0);
                }
            }
            let near = kids[k];
            if !search.worth(near.0.bound) {
                break;
            }
            (c, placed) = near;
        }
    }
    let mut best = search.best;
    if best.intersecting {
        best.distance = 0.0;
        best.rounding_bound = 0.0;
    }
    Some(best)
}

/// The state of one distance query.
struct Search<'q, 't> {
    pair: &'q TreePair<'t>,
    placed: &'q mut PlacedLeaf,
    /// `1 + rel_err`.
    rel: f64,
    abs: f64,
    best: Distance,
}

impl Search<'_, '_> {
    /// Whether a node pair whose boxes are at least `bound` apart may hold
    /// a pair of triangles that improves the answer beyond the tolerances.
    #[inline]
    fn worth(&self, bound: f32) -> bool {
        self.worth_f64(bound as f64)
    }

    #[inline]
    fn worth_f64(&self, bound: f64) -> bool {
        bound * self.rel + self.abs < self.best.distance
    }

    /// The child pairs of `c`, each with its bound and B's placed box
    /// (`placed` is B's box of `c`), and how many there are: when both nodes
    /// are internal and of about one size both are split, four pairs;
    /// otherwise the larger box (by diagonal) is split, two pairs
    /// ([`split`]).
    #[inline]
    fn children(
        &mut self,
        c: &Candidate,
        placed: PlacedBox,
    ) -> ([(Candidate, PlacedBox); 4], usize) {
        let (a, b) = (self.pair.a, self.pair.b);
        let (na, nb) = (&a.nodes[c.a as usize], &b.nodes[c.b as usize]);
        // A bound this large prunes the pair: no need to make it exact.
        let enough = self.enough() as f32;
        let pair = |ia: u32, (ib, placed): (u32, PlacedBox)| {
            let bound = separation(a.nodes[ia as usize].bx(), &placed, self.pair.slack, enough);
            let c = Candidate {
                bound,
                a: ia,
                b: ib,
            };
            (c, placed)
        };
        let how = split(na, nb, &placed);
        if how == Split::Both {
            let [b1, b2] = [c.b + 1, nb.right()].map(|ib| self.pair.place_node(ib));
            self.best.box_tests += 4;
            let (a1, a2) = (c.a + 1, na.right());
            return ([pair(a1, b1), pair(a2, b1), pair(a1, b2), pair(a2, b2)], 4);
        }
        self.best.box_tests += 2;
        let [x, y] = if how == Split::A {
            [c.a + 1, na.right()].map(|ia| pair(ia, (c.b, placed)))
        } else {
            [c.b + 1, nb.right()].map(|ib| pair(c.a, self.pair.place_node(ib)))
        };
        ([x, y, x, y], 2)
    }

    /// The distance a lower bound must reach to rule a pair out: the best
    /// distance found, less the tolerances.
    #[inline]
    fn enough(&self) -> f64 {
        (self.best.distance - self.abs) / self.rel
    }

    /// Measures the triangle pairs of two leaves (B's placed box:
    /// `placed`) that the bounds cannot rule out, in order of their lower
    /// bounds, so that the nearest pairs come first and the distance they
    /// set rules out more of the rest. A pair's first bound is the largest
    /// of its triangles' boxes' gap ([`box_gap`]) and each triangle's gap to
    /// the other leaf's box ([`Slabs::gap`]), by which the pairs are
    /// sorted; before a pair is measured, each triangle's gap to the
    /// other's own flat box ([`Slabs::of_triangle`], made once a leaf
    /// pair), then the planes' gaps ([`SidePlane`], as [`lower_bound`]).
    /// The own boxes keep bigger leaves from measuring pairs that smaller
    /// ones prune: on the 1.2M-triangle grid scene against
    /// `models/torus.obj` at its 50 poses 0.7 or more from everything
    /// (median per query, leaves of 6), 2,269 µs and 7,539 triangle
    /// distances a query without them, 1,318 µs and 1,740 with (the two
    /// one-triangle boxes' 15-axis [`separation`] instead: 2,514 µs and
    /// 2,036; 96-byte nodes at leaf 2: 312 µs and 509).
    fn leaves(&mut self, ia: u32, ib: u32, placed: &PlacedBox) {
        let (a, b) = (self.pair.a, self.pair.b);
        let (na, nb) = (&a.nodes[ia as usize], &b.nodes[ib as usize]);
        self.placed.place(self.pair, ib);
        let (sa, sb) = (na.leaf_range().start, nb.leaf_range().start);
        let slabs_a = Slabs::of_node(na.bx(), self.pair.slack);
        let slabs_b = Slabs::of_placed(placed, self.pair.slack);
        let mut gap_to_a = [0.0; MAX_LEAF_SIZE];
        for (j, t) in self.placed.corners32.iter().enumerate() {
            gap_to_a[j] = slabs_a.gap(t) as f64;
        }
        let mut ta = [([Point3::origin(); 3], (Point3::origin(), Point3::origin())); MAX_LEAF_SIZE];
        let mut ta32 = [[f32x4::ZERO; 3]; MAX_LEAF_SIZE];
        // Each triangle's own slabs and plane, made when first needed.
        let mut own_a: [Option<Option<Slabs>>; MAX_LEAF_SIZE] = [None; MAX_LEAF_SIZE];
        let mut own_b: [Option<Option<Slabs>>; MAX_LEAF_SIZE] = [None; MAX_LEAF_SIZE];
        let mut sides_a: [Option<SidePlane>; MAX_LEAF_SIZE] = [None; MAX_LEAF_SIZE];
        let mut sides_b: [Option<SidePlane>; MAX_LEAF_SIZE] = [None; MAX_LEAF_SIZE];
        let mut gaps = [(0.0, 0u8, 0u8); MAX_LEAF_SIZE * MAX_LEAF_SIZE];
        let mut n = 0;
        for (i, t) in a.leaf_triangles(na).enumerate() {
            let box_a = triangle_bounds(&t);
            ta32[i] = corners32(&t, &a.origin);
            let row = box_gap(&box_a, &self.placed.union).max(slabs_b.gap(&ta32[i]) as f64);
            ta[i] = (t, box_a);
            if !self.worth_f64(row) {
                continue;
            }
            for (j, box_b) in self.placed.bounds.iter().enumerate() {
                let gap = box_gap(&box_a, box_b).max(row).max(gap_to_a[j]);
                if self.worth_f64(gap) {
                    gaps[n] = (gap, i as u8, j as u8);
                    n += 1;
                }
            }
        }
        let gaps = &mut gaps[..n];
        gaps.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        for &(gap, i, j) in gaps.iter() {
            if !self.worth_f64(gap) {
                break;
            }
            let (i, j) = (i as usize, j as usize);
            let (ta, _) = &ta[i];
            let tb = self.placed.triangles[j].corners();
            let tb32 = &self.placed.corners32[j];
            let slack = self.pair.slack;
            let own_a = own_a[i].get_or_insert_with(|| Slabs::of_triangle(&ta32[i], slack));
            let own_b = own_b[j].get_or_insert_with(|| Slabs::of_triangle(tb32, slack));
            let own = own_a
                .map_or(0.0, |s| s.gap(tb32))
                .max(own_b.map_or(0.0, |s| s.gap(&ta32[i])));
            if !self.worth(own) {
                continue;
            }
            let side_a = sides_a[i].get_or_insert_with(|| SidePlane::of(ta));
            if !self.worth_f64(side_a.gap_to(tb)) {
                continue;
            }
            let side_b = sides_b[j].get_or_insert_with(|| SidePlane::of(tb));
            if !self.worth_f64(side_b.gap_to(ta)) {
                continue;
            }
            self.best.triangle_tests += 1;
            let d = triangle_distance(ta, tb);
            if d.distance < self.best.distance || (d.intersecting && !self.best.intersecting) {
                self.best.distance = d.distance;
                self.best.intersecting = d.intersecting;
                self.best.point_a = d.point_a;
                self.best.point_b = d.point_b;
                self.best.triangles = (a.original[sa as usize + i], b.original[sb as usize + j]);
                if d.intersecting {
                    return;
                }
            }
        }
    }
}

/// The minimum distance by brute force: every triangle of `a` against every
/// triangle of `b` placed by `pose` (the same [`super::Placement`] rounding
/// and the same [`triangle_distance`] as [`distance`]), on all threads, each
/// skipping a pair only when its [`lower_bound`] is not below the least
/// distance it has found. Quadratic: for
/// checking only. `None` when either mesh has no triangles.
pub fn brute_force_distance(
    a: &crate::TriMesh,
    b: &crate::TriMesh,
    pose: &Pose,
) -> Option<Distance> {
    use rayon::prelude::*;
    let place = super::Placement::new(pose);
    let tb: Vec<_> = (0..b.triangles.len())
        .map(|j| place.triangle(&b.triangle(j)))
        .collect();
    let scale = a
        .vertices
        .iter()
        .chain(tb.iter().flatten())
        .map(|p| p.coords.amax())
        .fold(0.0, f64::max);
    type Best = Option<(
        usize,
        usize,
        crate::query::pair::distance_triangle_triangle::TriangleDistance,
    )>;
    let nearer = |x: Best, y: Best| match (x, y) {
        (Some(p), Some(q)) => Some(if q.2.distance < p.2.distance { q } else { p }),
        (p, q) => p.or(q),
    };
    let best = (0..a.triangles.len())
        .into_par_iter()
        .fold(
            || None,
            |mut best: Best, i| {
                let ta = a.triangle(i);
                for (j, t) in tb.iter().enumerate() {
                    let floor = best.map_or(f64::INFINITY, |b| b.2.distance);
                    if lower_bound(&ta, t, floor) < floor {
                        best = nearer(best, Some((i, j, triangle_distance(&ta, t))));
                    }
                }
                best
            },
        )
        .reduce(|| None, nearer);
    best.map(|(i, j, d)| Distance {
        distance: d.distance,
        intersecting: d.intersecting,
        point_a: d.point_a,
        point_b: d.point_b,
        triangles: (i as u32, j as u32),
        rounding_bound: if d.intersecting {
            0.0
        } else {
            rounding_bound(scale)
        },
        box_tests: 0,
        triangle_tests: (a.triangles.len() * tb.len()) as u64,
    })
}
