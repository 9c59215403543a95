//! One node of the OBB tree: its box laid out for the query and its link,
//! in one 64-byte cache line.

use crate::fit::f32_outward::v64;
use crate::fit::{Obb, ObbF32};
use nalgebra::{Matrix3, Point3};
use wide::f32x4;

/// Where each part of a node lives among its sixteen 32-bit words: four
/// 16-byte lane groups, each read with one aligned load, its fourth lane
/// masked off where it holds something else.
mod word {
    /// Words `4k..4k + 3`: row `k` of the axis matrix (coordinate `k` of
    /// axes 0, 1, 2).
    pub const ROWS: usize = 0;
    /// Words 3, 7, 11 (after each row): the half extents (their sign bits
    /// free: see `Node`).
    pub const HALF: usize = 3;
    /// Words 12–14: the centre.
    pub const CENTER: usize = 12;
    /// Word 15: the node's link (`Node`); a bare box holds 0.
    pub const LINK: usize = 15;
}

/// Word of row `k`, coordinate `i`.
const fn row(k: usize, i: usize) -> usize {
    word::ROWS + 4 * k + i
}

/// Word of half extent `k`.
const fn half(k: usize) -> usize {
    word::HALF + 4 * k
}

/// Lanes 0–2 kept, lane 3 zeroed.
const XYZ: f32x4 = f32x4::new([
    f32::from_bits(!0),
    f32::from_bits(!0),
    f32::from_bits(!0),
    0.0,
]);
/// Lanes 0–2 without their sign bits, lane 3 zeroed.
const ABS_XYZ: f32x4 = f32x4::new([
    f32::from_bits(i32::MAX as u32),
    f32::from_bits(i32::MAX as u32),
    f32::from_bits(i32::MAX as u32),
    0.0,
]);

/// A node's oriented box in `f32`: centre, half extents and axis matrix,
/// 15 words, with a 16th the tree uses for its links ([`Node`]) — 64 bytes
/// aligned to 64, so a node is one cache line. The SAT reads the rows and
/// the centre as aligned 4-lane vectors and gathers the half extents from
/// the rows' fourth lanes ([`NodeBox::center4`] and friends).
///
/// It holds the node's `f64` box **relative to the tree's origin** (so its
/// `f32` coordinates are as small as the model, wherever the model is),
/// rounded outwards ([`ObbF32::from_obb`]): every corner of the node's
/// triangles, minus the origin, lies inside. Its axes are the `f64` axes
/// rounded to nearest (orthonormal to about 1e-7).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub struct NodeBox {
    /// The parts at the offsets of `word`, `f32` by their bits.
    words: [u32; 16],
}

impl NodeBox {
    /// The conservative `f32` box, relative to `origin`, of `b`: it contains
    /// `p − origin` (exactly) for every `p` that `b` contains. Rounding the
    /// centre's offset moves it by at most `√3/2` ulps, covered by growing
    /// the half extents by two.
    pub fn about(b: &Obb, origin: &Point3<f64>) -> NodeBox {
        let c = b.center - origin;
        let relative = Obb {
            center: Point3::from(c),
            axes: b.axes,
            half_extents: b.half_extents.add_scalar(2.0 * f64::EPSILON * c.amax()),
        };
        let f = ObbF32::from_obb(&relative);
        let mut words = [0; 16];
        for k in 0..3 {
            for i in 0..3 {
                words[row(k, i)] = f.axes[i][k].to_bits();
            }
            words[half(k)] = f.half_extents[k].abs().to_bits();
            words[word::CENTER + k] = f.center[k].to_bits();
        }
        NodeBox { words }
    }

    /// The lane group from word `at` (a multiple of 4), its fourth lane
    /// zeroed.
    #[inline(always)]
    fn lanes(&self, at: usize) -> f32x4 {
        let w = &self.words;
        f32x4::new([w[at], w[at + 1], w[at + 2], w[at + 3]].map(f32::from_bits)) & XYZ
    }

    /// Centre `(x, y, z, 0)`.
    #[inline(always)]
    pub fn center4(&self) -> f32x4 {
        self.lanes(word::CENTER)
    }

    /// **Half** extents along the axes `(h0, h1, h2, 0)`.
    #[inline(always)]
    pub fn half_extents4(&self) -> f32x4 {
        let w = &self.words;
        f32x4::new([w[half(0)], w[half(1)], w[half(2)], 0].map(f32::from_bits)) & ABS_XYZ
    }

    /// The axis matrix by rows: lane `i` of row `k` is coordinate `k` of
    /// axis `i` (so the axes are the columns), lane 3 zero.
    #[inline(always)]
    pub fn rows4(&self) -> [f32x4; 3] {
        std::array::from_fn(|k| self.lanes(row(k, 0)))
    }

    /// Centre.
    #[inline(always)]
    pub fn center(&self) -> [f32; 3] {
        std::array::from_fn(|k| f32::from_bits(self.words[word::CENTER + k]))
    }

    /// **Half** extents along the axes.
    #[inline(always)]
    pub fn half_extents(&self) -> [f32; 3] {
        std::array::from_fn(|k| f32::from_bits(self.words[half(k)]).abs())
    }

    /// Axis `i`.
    #[inline(always)]
    pub fn axis(&self, i: usize) -> [f32; 3] {
        std::array::from_fn(|k| f32::from_bits(self.words[row(k, i)]))
    }

    /// The box in the frame `origin` was taken from, in `f64`: it contains
    /// what this box contains, plus `origin`. Its axes are this box's `f32`
    /// axes (orthonormal to about 1e-7; containment is meant along them), its
    /// half extents grown by two ulps of the centre to cover the addition.
    pub fn to_obb_about(&self, origin: &Point3<f64>) -> Obb {
        let f = self.to_obb_f32();
        let center = v64(f.center) + origin.coords;
        Obb {
            center: Point3::from(center),
            axes: Matrix3::from_columns(&f.axes.map(v64)),
            half_extents: v64(f.half_extents).add_scalar(2.0 * f64::EPSILON * center.amax()),
        }
    }

    /// The same box in the export layout (axis `i` is `axes[i]`).
    pub fn to_obb_f32(&self) -> ObbF32 {
        ObbF32 {
            center: self.center(),
            axes: std::array::from_fn(|i| self.axis(i)),
            half_extents: self.half_extents(),
        }
    }

    /// The squared length of the half-extent vector (the half diagonal).
    #[inline]
    pub fn half_diagonal2(&self) -> f32 {
        let h = self.half_extents4();
        (h * h).reduce_add()
    }

    /// Volume, `8·h0·h1·h2`, in `f64`.
    pub fn volume(&self) -> f64 {
        self.half_extents()
            .iter()
            .map(|&h| 2.0 * h as f64)
            .product()
    }
}

/// Bit 31 of a node's link word: set on a leaf.
const LEAF: u32 = 1 << 31;

/// The sign bit of an `f32`.
const SIGN: u32 = 1 << 31;

/// The most triangles a leaf can hold: its count less one is kept in the
/// three sign bits of its half extents.
pub const MAX_LEAF_SIZE: usize = 8;

/// One node: its box (relative to the tree's origin) and where its
/// children or triangles are, in 64 bytes. Its first child is the next node
/// (depth-first order); the word the box leaves free holds the second
/// child's index for an internal node, and for a leaf bit 31 set over its
/// first triangle (an index into [`super::ObbTree::triangles`], below
/// 2³¹). A leaf's triangle count less one (0 to 7, so leaves of at most
/// [`MAX_LEAF_SIZE`]) is in the sign bits of its half extents, which are
/// never negative and which every reader of the box masks off. An internal
/// node's triangles are the range from its first leaf's to its last leaf's
/// ([`super::ObbTree::ranges`]); no query needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(transparent)]
pub struct Node {
    bx: NodeBox,
}

impl super::flat::Linked for Node {
    fn set_right(&mut self, right: u32) {
        self.bx.words[word::LINK] = right;
    }

    fn shift_right(&mut self, base: u32) {
        if !self.is_leaf() {
            self.bx.words[word::LINK] += base;
        }
    }
}

impl Node {
    /// An internal node with box `bx`, its second child not yet linked.
    pub fn internal(bx: NodeBox) -> Node {
        Node { bx }
    }

    /// A leaf with box `bx` over the `count` triangles (1 to
    /// [`MAX_LEAF_SIZE`]) from `start` (below 2³¹).
    pub fn leaf(mut bx: NodeBox, start: u32, count: usize) -> Node {
        debug_assert!((1..=MAX_LEAF_SIZE).contains(&count) && start < LEAF);
        bx.words[word::LINK] = LEAF | start;
        let bits = count - 1;
        for k in 0..3 {
            bx.words[half(k)] |= if bits >> k & 1 == 1 { SIGN } else { 0 };
        }
        Node { bx }
    }

    /// The box.
    #[inline(always)]
    pub fn bx(&self) -> &NodeBox {
        &self.bx
    }

    /// The same node with its box replaced by `bx` (links kept).
    pub fn with_box(&self, bx: NodeBox) -> Node {
        let mut words = bx.words;
        words[word::LINK] = self.bx.words[word::LINK];
        for k in 0..3 {
            words[half(k)] |= self.bx.words[half(k)] & SIGN;
        }
        Node {
            bx: NodeBox { words },
        }
    }

    /// The node's sixteen words, as [`super::bytes`] stores them.
    pub(super) fn words(&self) -> &[u32; 16] {
        &self.bx.words
    }

    /// A node from its sixteen words ([`super::bytes`], which checks them).
    pub(super) fn from_words(words: [u32; 16]) -> Node {
        Node {
            bx: NodeBox { words },
        }
    }

    /// Whether the node is a leaf.
    #[inline(always)]
    pub fn is_leaf(&self) -> bool {
        self.bx.words[word::LINK] & LEAF != 0
    }

    /// Index of an internal node's second child (meaningless for a leaf).
    #[inline(always)]
    pub fn right(&self) -> u32 {
        self.bx.words[word::LINK]
    }

    /// A leaf's triangles: the range of slots in
    /// [`super::ObbTree::triangles`] (meaningless for an internal node).
    #[inline(always)]
    pub fn leaf_range(&self) -> std::ops::Range<u32> {
        let start = self.bx.words[word::LINK] & !LEAF;
        let h = |k| self.bx.words[half(k)] >> 31 << k;
        let count = 1 + h(0) + h(1) + h(2);
        start..start + count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Links and counts round-trip, and no reader of the box sees them.
    #[test]
    fn links_and_counts_stay_out_of_the_box() {
        let obb = Obb {
            center: Point3::new(1.0, -2.0, 3.0),
            axes: Matrix3::identity(),
            half_extents: nalgebra::Vector3::new(0.5, 0.0, 2.0),
        };
        let bx = NodeBox::about(&obb, &Point3::origin());
        for count in 1..=MAX_LEAF_SIZE {
            for start in [0, 1, 12345, LEAF - 1] {
                let n = Node::leaf(bx, start, count);
                assert!(n.is_leaf());
                assert_eq!(n.leaf_range(), start..start + count as u32);
                assert_eq!(n.bx().to_obb_f32(), bx.to_obb_f32());
                assert_eq!(
                    n.bx().half_extents4().to_array(),
                    bx.half_extents4().to_array()
                );
                assert_eq!(n.bx().center4().to_array(), [1.0, -2.0, 3.0, 0.0]);
                assert_eq!(n.bx().half_diagonal2(), bx.half_diagonal2());
                let moved = n.with_box(NodeBox::about(&obb, &Point3::new(1.0, 0.0, 0.0)));
                assert_eq!(moved.leaf_range(), n.leaf_range());
                assert_eq!(moved.bx().center(), [0.0, -2.0, 3.0]);
            }
        }
        let mut n = Node::internal(bx);
        super::super::flat::Linked::set_right(&mut n, 7);
        super::super::flat::Linked::shift_right(&mut n, 10);
        assert!(!n.is_leaf());
        assert_eq!(n.right(), 17);
        assert_eq!(n.bx().rows4()[0].to_array(), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(std::mem::size_of::<Node>(), 64);
    }
}
