//! Tree-vs-tree collision: which triangles of A and B (at a pose) meet.

use super::sat::{PlacedBox, Placement32, overlap, slack_for};
use super::triangle::triangles_intersect;
use crate::fit::obb_f32::round_up;
use crate::pose::Pose;
use crate::tree::{NO_COPY, ObbTree};
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
use nalgebra::{Matrix3, Point3, Vector3};
use wide::f32x4;

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

/// A pose as the matrix and vector that place B's points in A's frame. The
/// query and every brute-force check use this same rounding, so that they
/// test bit-identical `f64` coordinates.
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    /// The rotation matrix R.
    pub rotation: Matrix3<f64>,
    /// The translation t.
    pub translation: Vector3<f64>,
}

impl Placement {
    /// The placement of a pose.
    pub fn new(pose: &Pose) -> Placement {
        Placement {
            rotation: pose.rotation.to_rotation_matrix().into_inner(),
            translation: pose.translation,
        }
    }

    /// `R·p + t`, in `f64`.
    #[inline]
    pub fn apply(&self, p: &Point3<f64>) -> Point3<f64> {
        Point3::from(self.rotation * p.coords + self.translation)
    }

    /// A triangle placed.
    #[inline]
    pub fn triangle(&self, t: &[Point3<f64>; 3]) -> [Point3<f64>; 3] {
        [self.apply(&t[0]), self.apply(&t[1]), self.apply(&t[2])]
    }
}

/// Collides tree `a` (at identity) with tree `b` placed by `pose`
/// (B's points map `v → R·v + t` into A's frame).
///
/// Simultaneous depth-first descent (RAPID/PQP): a pair of nodes is tested
/// with the 15-axis SAT on their `f32` boxes ([`super::sat::overlap`],
/// conservative: its slack bounds the `f32` rounding), and when the boxes may
/// overlap the larger node (by box diagonal) is split; B's child boxes are
/// placed in A's frame once when B is split, not once per pair. Leaf pairs
/// run the exact triangle test ([`super::triangle::triangles_intersect`]) on
/// B's `f64` corners placed in A's frame by [`Placement::apply`]. The answer
/// is exact for those placed `f64` corners: the box tests can only prune
/// pairs that are truly apart. Triangles with twins (the same three corners,
/// [`ObbTree::copy_of`]) are tested once per pair of twin groups, so a stack
/// of coincident copies costs box tests and answer entries but not exact
/// tests.
pub fn collide(a: &ObbTree, b: &ObbTree, pose: &Pose, mode: ContactMode) -> Collision {
    let mut out = Collision::default();
    if a.nodes.is_empty() || b.nodes.is_empty() {
        return out;
    }
    let place = Placement::new(pose);
    // Node boxes are relative to their tree's origin: a point w of B's boxes
    // is v − o_B, and R·v + t − o_A = R·w + (R·o_B + t − o_A). That shift is
    // formed in f64; its rounding (a few ulps of the origins and t) is added
    // to the f32 slack, which otherwise scales with the models' own size.
    let shift = place.rotation * b.origin.coords + place.translation - a.origin.coords;
    let place32 = Placement32::new(&place.rotation, &shift);
    let offsets = a.origin.coords.amax() + 2.0 * b.origin.coords.amax() + place.translation.amax();
    let slack =
        slack_for(a.reach + 2.0 * b.reach + shift.amax()) + round_up(8.0 * f64::EPSILON * offsets);
    let place_node = |i: u32| (i, place32.place(&b.nodes[i as usize].bx));
    let mut placed_tris: Vec<[Point3<f64>; 3]> = Vec::with_capacity(b.leaf_size);
    // Answers for pairs of twins (ObbTree::copy_of), keyed by the first
    // slot of each side's twin group: every pair of their copies meets
    // exactly when that pair does.
    let mut twin_answers: HashMap<u64, bool, BuildHasherDefault<PairHasher>> = HashMap::default();
    let mut stack: Vec<(u32, (u32, PlacedBox))> = vec![(0, place_node(0))];
    while let Some((ia, (ib, pb))) = stack.pop() {
        let na = &a.nodes[ia as usize];
        let nb = &b.nodes[ib as usize];
        out.box_tests += 1;
        if !overlap(&na.bx, &pb, slack) {
            continue;
        }
        match (na.is_leaf(), nb.is_leaf()) {
            (true, true) => {
                placed_tris.clear();
                placed_tris.extend(b.node_triangles(nb).iter().map(|t| place.triangle(t)));
                for (i, ta) in a.node_triangles(na).iter().enumerate() {
                    let sa = na.start + i as u32;
                    let ca = a.copy_of[sa as usize];
                    for (j, tb) in placed_tris.iter().enumerate() {
                        let sb = nb.start + j as u32;
                        let cb = b.copy_of[sb as usize];
                        let mut test = || {
                            out.triangle_tests += 1;
                            triangles_intersect(ta, tb)
                        };
                        let hit = if ca == NO_COPY && cb == NO_COPY {
                            test()
                        } else {
                            // A triangle without twins keys by its own slot.
                            let key = |c: u32, s: u32| if c == NO_COPY { s } else { c };
                            let pair = (key(ca, sa) as u64) << 32 | key(cb, sb) as u64;
                            *twin_answers.entry(pair).or_insert_with(test)
                        };
                        if hit {
                            out.intersecting = true;
                            out.pairs
                                .push((a.original[sa as usize], b.original[sb as usize]));
                            if mode == ContactMode::First {
                                return out;
                            }
                        }
                    }
                }
            }
            (false, true) => {
                stack.push((na.right, (ib, pb)));
                stack.push((ia + 1, (ib, pb)));
            }
            (true, false) => {
                stack.push((ia, place_node(nb.right)));
                stack.push((ia, place_node(ib + 1)));
            }
            (false, false) => {
                let ha = f32x4::new(na.bx.half_extents);
                if (ha * ha).reduce_add() >= pb.half_diagonal2() {
                    stack.push((na.right, (ib, pb)));
                    stack.push((ia + 1, (ib, pb)));
                } else {
                    stack.push((ia, place_node(nb.right)));
                    stack.push((ia, place_node(ib + 1)));
                }
            }
        }
    }
    out.pairs.sort_unstable();
    out
}

/// Every intersecting pair by brute force: each triangle of `a` against each
/// triangle of `b` placed by `pose` (same [`Placement`] rounding and the same
/// exact test as [`collide`]), with an axis-aligned box prefilter that is
/// exact (comparisons only). Sorted. Quadratic: for checking only.
pub fn brute_force(a: &crate::TriMesh, b: &crate::TriMesh, pose: &Pose) -> Vec<(u32, u32)> {
    let place = Placement::new(pose);
    let bounds = |t: &[Point3<f64>; 3]| (t[0].inf(&t[1]).inf(&t[2]), t[0].sup(&t[1]).sup(&t[2]));
    let tb: Vec<_> = (0..b.triangles.len())
        .map(|j| {
            let t = place.triangle(&b.triangle(j));
            (t, bounds(&t))
        })
        .collect();
    let mut pairs = Vec::new();
    for i in 0..a.triangles.len() {
        let ta = a.triangle(i);
        let (lo, hi) = bounds(&ta);
        for (j, (t, (blo, bhi))) in tb.iter().enumerate() {
            let apart = (0..3).any(|k| blo[k] > hi[k] || lo[k] > bhi[k]);
            if !apart && triangles_intersect(&ta, t) {
                pairs.push((i as u32, j as u32));
            }
        }
    }
    pairs
}
