//! Tree-vs-tree collision: which triangles of A and B (at a pose) meet.

use super::tree_pair::{PlacedLeaf, Placement, Split, TreePair, split};
use crate::fit::f32_outward::round_up;
use crate::pose::Pose;
use crate::query::pair::distance_triangle_triangle::{Bounds, triangle_bounds};
use crate::query::pair::intersect_triangle_triangle::{
    Plane, planes_intersect, triangles_intersect,
};
use crate::query::pair::overlap_obb_obb::{PlacedBox, Slabs, corners32, overlap};
use crate::tree::ObbTree;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for the twin-answer table's keys (two slots in one `u64`):
/// one multiplication by the golden-ratio constant (Fibonacci hashing),
/// far cheaper than SipHash for a table the query alone fills.
#[derive(Default)]
struct PairHasher(u64);

impl Hasher for PairHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, v: u64) {
        let h = v.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// How much of the answer a query wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactMode {
    /// Stop at the first intersecting triangle pair.
    First,
    /// Every intersecting triangle pair.
    All,
}

/// The answer of [`collide`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collision {
    /// Whether any triangle of A meets any triangle of B.
    pub intersecting: bool,
    /// Intersecting pairs `(triangle of A, triangle of B)` as indices into the
    /// meshes the trees were built from, sorted. In [`ContactMode::First`]
    /// mode at most one pair (the first found).
    pub pairs: Vec<(u32, u32)>,
    /// Box–box separating-axis tests performed.
    pub box_tests: u64,
    /// Exact triangle–triangle tests performed.
    pub triangle_tests: u64,
}

/// Collides tree `a` (at identity) with tree `b` placed by `pose`
/// (B's points map `v → R·v + t` into A's frame).
///
/// Simultaneous depth-first descent (RAPID/PQP): a pair of nodes is tested
/// with the 15-axis SAT on their `f32` boxes ([`crate::query::pair::overlap_obb_obb::overlap`],
/// conservative: its slack bounds the `f32` rounding), and when the boxes may
/// overlap the larger node (by box diagonal) is split, or both when they are
/// of about one size (`split`); B's child boxes are
/// placed in A's frame once when B is split, not once per pair. Leaf pairs
/// run the exact triangle test ([`crate::query::pair::intersect_triangle_triangle::triangles_intersect`]) on
/// B's `f64` corners placed in A's frame by [`Placement::apply`]. The answer
/// is exact for those placed `f64` corners: the box tests can only prune
/// pairs that are truly apart. Triangles with twins (the same three corners,
/// [`ObbTree::twins`]) are tested once per pair of twin groups, so a stack
/// of coincident copies costs box tests and answer entries but not exact
/// tests.
///
/// # Guarantees
/// Exact: a pair is reported if and only if the two closed triangles share a
/// point (touching counts), decided by exact predicates on the `f64`
/// coordinates of B's triangles placed by `pose`; the box tests only prune,
/// with `f32` rounding slack that never loses a pair. [`ContactMode::All`]
/// lists every pair; [`ContactMode::First`] stops at the first.
///
/// ```
/// use bvtool::query::{ContactMode, collide};
/// use bvtool::tree::ObbTree;
/// use bvtool::{Pose, load};
/// use nalgebra::{UnitQuaternion, Vector3};
///
/// let mesh = load::load("models/torus.obj".as_ref(), &Default::default())?.flatten();
/// let tree = ObbTree::build_default(&mesh, Default::default());
/// // The torus (R = 1, r = 0.35) moved 2.7 along x touches itself at x = 1.35.
/// let touching = Pose::new(Vector3::new(2.7, 0.0, 0.0), UnitQuaternion::identity());
/// assert!(collide(&tree, &tree, &touching, ContactMode::First).intersecting);
/// let apart = Pose::new(Vector3::new(2.71, 0.0, 0.0), UnitQuaternion::identity());
/// assert!(!collide(&tree, &tree, &apart, ContactMode::All).intersecting);
/// # Ok::<(), bvtool::Error>(())
/// ```
pub fn collide(a: &ObbTree, b: &ObbTree, pose: &Pose, mode: ContactMode) -> Collision {
    let mut pairs = Vec::new();
    let (box_tests, triangle_tests) = collide_each(a, b, pose, mode, |i, j| {
        pairs.push((i, j));
        mode == ContactMode::First
    });
    pairs.sort_unstable();
    Collision {
        intersecting: !pairs.is_empty(),
        pairs,
        box_tests,
        triangle_tests,
    }
}

/// [`collide`] without collecting: `visit(A's triangle, B's triangle)` is
/// called for each intersecting pair (indices into the meshes the trees
/// were built from, in the descent's order) until it returns `true`; the
/// caller counts or keeps what it needs, so memory does not grow with the
/// number of pairs. `mode` only orders the descent ([`ContactMode::First`]
/// visits near children first). Returns the box tests and the exact
/// triangle tests made.
pub fn collide_each(
    a: &ObbTree,
    b: &ObbTree,
    pose: &Pose,
    mode: ContactMode,
    mut visit: impl FnMut(u32, u32) -> bool,
) -> (u64, u64) {
    let Some(pair) = TreePair::new(a, b, pose) else {
        return (0, 0);
    };
    let mut triangle_tests = 0;
    // Answers for pairs of twins (ObbTree::twins), keyed by the first
    // slot of each side's twin group: every pair of their copies meets
    // exactly when that pair does.
    let mut twin_answers: HashMap<u64, bool, BuildHasherDefault<PairHasher>> = HashMap::default();
    let twins = !(a.twins.is_empty() && b.twins.is_empty());
    let box_tests = descend(&pair, 0.0, mode, |sa, sb, ta, tb| {
        let mut test = || {
            triangle_tests += 1;
            planes_intersect(ta, tb)
        };
        let (ca, cb) = if twins {
            (a.twins.first_copy(sa), b.twins.first_copy(sb))
        } else {
            (None, None)
        };
        let hit = if ca.is_none() && cb.is_none() {
            test()
        } else {
            // A triangle without twins keys by its own slot.
            let pair = (ca.unwrap_or(sa) as u64) << 32 | cb.unwrap_or(sb) as u64;
            *twin_answers.entry(pair).or_insert_with(test)
        };
        hit && visit(a.original[sa as usize], b.original[sb as usize])
    });
    (box_tests, triangle_tests)
}

/// The simultaneous depth-first descent of [`collide`] and of the clearance
/// query ([`super::clearance::within`]): every pair of leaf triangles whose
/// boxes come within `margin` of each other is handed to `leaf` as
/// `(A's slot, B's slot, A's triangle, B's triangle placed)`, each as its
/// [`Plane`] (built once per triangle and leaf pair) — slots are
/// positions in the trees' triangle order (`ObbTree::original` names the
/// mesh's triangle) — until `leaf` returns `true` (stop). Returns the number
/// of box tests.
///
/// A node pair is pruned when the SAT finds a gap wider than `margin` plus
/// the rounding slack on one of the 15 axes; a gap bounds the distance
/// between the boxes from below ([`crate::query::pair::overlap_obb_obb::separation`]), so no pair of
/// triangles within `margin` of each other is ever pruned. At a leaf pair,
/// a triangle pair is skipped when the axis-aligned boxes of A's triangle
/// and of B's placed triangle are more than `margin` apart on a coordinate:
/// exact, since a rounded difference of two `f64` exceeds `margin` only if
/// the true one does (rounding is monotonic). Measured on the bunny, the
/// engine and the KUKA links (callgrind, 100 poses each): 0–10 % fewer
/// instructions a first-contact query, 1–13 % fewer for all contacts.
///
/// In [`ContactMode::First`] a split visits first the child on each side
/// whose box centre is nearer the other side's node (`near_last`), so that
/// a contact, when there is one, is met sooner; every pair is visited
/// anyway in [`ContactMode::All`], which keeps the plain order. Measured on
/// `benches/data`'s poses (mean box tests a first-contact query, quick →
/// ordered): the engine 3,429 → 2,973, the 69k bunny 289 → 245, the KUKA
/// links 291 → 249, duck/teddy 551 → 467.
pub(crate) fn descend(
    pair: &TreePair,
    margin: f64,
    mode: ContactMode,
    leaf: impl FnMut(u32, u32, &Plane, &Plane) -> bool,
) -> u64 {
    // A nested descent (from a `leaf` callback) finds none and makes its own.
    let mut buffers = BUFFERS.take().unwrap_or_default();
    let box_tests = descend_in(&mut buffers, pair, margin, mode, leaf);
    BUFFERS.set(Some(buffers));
    box_tests
}

/// A descent's stack and B's placed leaf, kept per thread between
/// descents: two small trees (a robot's links, a box against a box) are
/// queried in well under a microsecond, of which allocating these took a
/// fifth.
#[derive(Default)]
struct Buffers {
    stack: Vec<(u32, (u32, PlacedBox))>,
    placed: PlacedLeaf,
}

thread_local! {
    static BUFFERS: std::cell::Cell<Option<Box<Buffers>>> = const { std::cell::Cell::new(None) };
}

/// [`descend`] with `buffers` (emptied first).
fn descend_in(
    buffers: &mut Buffers,
    pair: &TreePair,
    margin: f64,
    mode: ContactMode,
    mut leaf: impl FnMut(u32, u32, &Plane, &Plane) -> bool,
) -> u64 {
    let (a, b) = (pair.a, pair.b);
    // The margin is compared along axes of length 1 up to f32 rounding
    // (about 1e-7): a relative 1e-6 more covers it.
    let slack = pair.slack + round_up(margin * (1.0 + 1e-6));
    let Buffers { stack, placed } = buffers;
    placed.clear();
    stack.clear();
    let apart = |(lo, hi): &Bounds, (blo, bhi): &Bounds| {
        (0..3).any(|k| blo[k] - hi[k] > margin || lo[k] - bhi[k] > margin)
    };
    let nearest = mode == ContactMode::First;
    stack.push((0, pair.place_node(0)));
    let mut box_tests = 0;
    while let Some((ia, (ib, pb))) = stack.pop() {
        let na = &a.nodes[ia as usize];
        let nb = &b.nodes[ib as usize];
        box_tests += 1;
        if !overlap(na.bx(), &pb, slack) {
            continue;
        }
        if na.is_leaf() && nb.is_leaf() {
            placed.place(pair, ib);
            // B's triangles that reach A's leaf box, by bit.
            let slabs_a = Slabs::of_node(na.bx(), slack);
            let reach_a = placed
                .corners32
                .iter()
                .enumerate()
                .fold(0u32, |m, (j, t)| m | (slabs_a.reached_by(t) as u32) << j);
            if reach_a == 0 {
                continue;
            }
            let slabs_b = Slabs::of_placed(&pb, slack);
            let (sa, sb) = (na.leaf_range().start, nb.leaf_range().start);
            for (i, ta) in a.leaf_triangles(na).enumerate() {
                let box_a = triangle_bounds(&ta);
                if apart(&box_a, &placed.union) || !slabs_b.reached_by(&corners32(&ta, &a.origin)) {
                    continue;
                }
                // Built when a pair first passes the boxes.
                let mut plane_a = None;
                for (j, tb) in placed.triangles.iter().enumerate() {
                    if reach_a >> j & 1 == 0 || apart(&box_a, &placed.bounds[j]) {
                        continue;
                    }
                    let pa = plane_a.get_or_insert_with(|| Plane::new(&ta));
                    if leaf(sa + i as u32, sb + j as u32, pa, tb) {
                        return box_tests;
                    }
                }
            }
            continue;
        }
        // Children pushed in reverse, so that the pair to visit first is
        // on top.
        let a_kids = || {
            near_last([ia + 1, na.right()], nearest, |&i| {
                pb.center_distance2(a.nodes[i as usize].bx())
            })
        };
        let b_kids = || {
            let kids = [pair.place_node(ib + 1), pair.place_node(nb.right())];
            near_last(kids, nearest, |b| b.1.center_distance2(na.bx()))
        };
        match split(na, nb, &pb) {
            Split::A => {
                let [x, y] = a_kids();
                stack.extend([(x, (ib, pb)), (y, (ib, pb))]);
            }
            Split::B => {
                let [x, y] = b_kids();
                stack.extend([(ia, x), (ia, y)]);
            }
            Split::Both => {
                let [a_far, a_near] = a_kids();
                let [b_far, b_near] = b_kids();
                stack.extend([
                    (a_far, b_far),
                    (a_near, b_far),
                    (a_far, b_near),
                    (a_near, b_near),
                ]);
            }
        }
    }
    box_tests
}

/// The two children `pair` (first, second) in the order to push them: the
/// first child last (visited first), or with `nearest` the one of smaller
/// `gap` last.
#[inline(always)]
fn near_last<T>(pair: [T; 2], nearest: bool, gap: impl Fn(&T) -> f32) -> [T; 2] {
    let [first, second] = pair;
    if !nearest || gap(&first) <= gap(&second) {
        [second, first]
    } else {
        [first, second]
    }
}

/// Every intersecting pair by brute force: each triangle of `a` against each
/// triangle of `b` placed by `pose` (same [`Placement`] rounding and the same
/// exact test as [`collide`]), with an axis-aligned box prefilter that is
/// exact (comparisons only). Sorted. Quadratic: for checking only.
pub fn brute_force(a: &crate::TriMesh, b: &crate::TriMesh, pose: &Pose) -> Vec<(u32, u32)> {
    let place = Placement::new(pose);
    let tb: Vec<_> = (0..b.triangles.len())
        .map(|j| {
            let t = place.triangle(&b.triangle(j));
            (t, triangle_bounds(&t))
        })
        .collect();
    let mut pairs = Vec::new();
    for i in 0..a.triangles.len() {
        let ta = a.triangle(i);
        let (lo, hi) = triangle_bounds(&ta);
        for (j, (t, (blo, bhi))) in tb.iter().enumerate() {
            let apart = (0..3).any(|k| blo[k] > hi[k] || lo[k] > bhi[k]);
            if !apart && triangles_intersect(&ta, t) {
                pairs.push((i as u32, j as u32));
            }
        }
    }
    pairs
}
