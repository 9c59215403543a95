//! Two trees at a relative pose: what every tree-vs-tree query sets up
//! before it descends — B's boxes placed in A's frame in `f32`, B's
//! triangles placed in `f64`, and the rounding slack of the box tests.

use crate::fit::f32_outward::round_up;
use crate::pose::Pose;
use crate::query::pair::distance_triangle_triangle::{Bounds, triangle_bounds};
use crate::query::pair::intersect_triangle_triangle::Plane;
use crate::query::pair::overlap_obb_obb::{PlacedBox, Placement32, corners32, slack_for};
use crate::tree::{Node, ObbTree};
use nalgebra::{Matrix3, Point3, Vector3};
use wide::f32x4;

/// A pose as the matrix and vector that place B's points in A's frame. The
/// queries and every brute-force check use this same rounding, so that they
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

/// Tree `a` at identity and tree `b` placed by a pose, ready to descend.
pub(crate) struct TreePair<'t> {
    pub a: &'t ObbTree,
    pub b: &'t ObbTree,
    /// The `f64` placement of B's triangles.
    pub place: Placement,
    /// The `f32` placement of B's boxes (relative to the trees' origins).
    place32: Placement32,
    /// The `f32` rounding slack of a box test ([`slack_for`]).
    pub slack: f32,
    /// Largest absolute coordinate of A's corners and of B's placed corners
    /// (for the triangle distance's rounding bound).
    pub scale: f64,
}

impl<'t> TreePair<'t> {
    /// `None` when either tree is empty.
    pub fn new(a: &'t ObbTree, b: &'t ObbTree, pose: &Pose) -> Option<TreePair<'t>> {
        if a.nodes.is_empty() || b.nodes.is_empty() {
            return None;
        }
        let place = Placement::new(pose);
        // Node boxes are relative to their tree's origin: a point w of B's
        // boxes is v − o_B, and R·v + t − o_A = R·w + (R·o_B + t − o_A). That
        // shift is formed in f64; its rounding (a few ulps of the origins and
        // t) is added to the f32 slack, which otherwise scales with the
        // models' own size.
        let shift = place.rotation * b.origin.coords + place.translation - a.origin.coords;
        let offsets =
            a.origin.coords.amax() + 2.0 * b.origin.coords.amax() + place.translation.amax();
        let slack = slack_for(a.reach + 2.0 * b.reach + shift.amax())
            + round_up(8.0 * f64::EPSILON * offsets);
        let b_center = place.apply(&b.origin).coords.amax();
        Some(TreePair {
            a,
            b,
            place32: Placement32::new(&place.rotation, &shift),
            place,
            slack,
            scale: (a.origin.coords.amax() + a.reach).max(b_center + 3f64.sqrt() * b.reach),
        })
    }

    /// Node `i` of B with its box placed in A's frame.
    #[inline]
    pub fn place_node(&self, i: u32) -> (u32, PlacedBox) {
        (i, self.place32.place(self.b.nodes[i as usize].bx()))
    }
}

/// The triangles of one leaf of B placed in A's frame, with their planes
/// and axis-aligned boxes: kept for the leaf placed last, since a descent
/// meets one leaf of B against several of A's in a row (split A while B is
/// a leaf) and placing costs 9 multiplications a corner.
#[derive(Debug, Default)]
pub(crate) struct PlacedLeaf {
    /// The leaf placed (index into B's nodes), `None` before the first.
    leaf: Option<u32>,
    /// Its triangles, placed, as their planes ([`Plane::corners`] gives the
    /// corners).
    pub triangles: Vec<Plane>,
    /// Their boxes ([`triangle_bounds`]).
    pub bounds: Vec<Bounds>,
    /// The box of them all.
    pub union: Bounds,
    /// Their corners less A's origin in `f32` ([`corners32`]).
    pub corners32: Vec<[f32x4; 3]>,
}

impl PlacedLeaf {
    /// Forgets the leaf placed: a new query places from scratch.
    pub fn clear(&mut self) {
        self.leaf = None;
    }

    /// Places B's leaf `ib` (with `pair`'s pose), unless it is the leaf
    /// placed last.
    #[inline]
    pub fn place(&mut self, pair: &TreePair, ib: u32) {
        if self.leaf == Some(ib) {
            return;
        }
        self.leaf = Some(ib);
        let leaf = &pair.b.nodes[ib as usize];
        self.triangles.clear();
        self.triangles.extend(
            pair.b
                .leaf_triangles(leaf)
                .map(|t| Plane::new(&pair.place.triangle(&t))),
        );
        self.bounds.clear();
        self.bounds
            .extend(self.triangles.iter().map(|t| triangle_bounds(t.corners())));
        self.union = self
            .bounds
            .iter()
            .fold(self.bounds[0], |(lo, hi), (l, h)| (lo.inf(l), hi.sup(h)));
        self.corners32.clear();
        self.corners32.extend(
            self.triangles
                .iter()
                .map(|t| corners32(t.corners(), &pair.a.origin)),
        );
    }
}

/// When both nodes of a pair are internal and their squared half diagonals
/// are within this factor of each other, a descent splits both (four child
/// pairs, one level down on each side) rather than the larger alone: fewer
/// box tests on pairs of about one size. Measured on the four bench pairs
/// (bunny, engine, robot links, duck/teddy) for distance at 1.2, 1.5, 2 and
/// 3, and for contacts at 1.5 and 4: 1.5 was at or near the fewest
/// instructions a query on all four; splitting both whatever the sizes made
/// the engine's (parts of very different sizes) 20% longer.
const SPLIT_BOTH: f32 = 1.5;

/// Which node of a pair that is not two leaves a descent splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Split {
    /// A's node (B's is a leaf, or the smaller).
    A,
    /// B's node.
    B,
    /// Both: two internal nodes of about one size ([`SPLIT_BOTH`]).
    Both,
}

/// How to split A's node `na` and B's node `nb` (its box placed: `pb`),
/// not both leaves: both when both are internal and of about one size,
/// else the larger box by diagonal that is not a leaf.
#[inline(always)]
pub(crate) fn split(na: &Node, nb: &Node, pb: &PlacedBox) -> Split {
    if nb.is_leaf() {
        return Split::A;
    }
    if na.is_leaf() {
        return Split::B;
    }
    let (da, db) = (na.bx().half_diagonal2(), pb.half_diagonal2());
    if da.max(db) <= SPLIT_BOTH * da.min(db) {
        Split::Both
    } else if da >= db {
        Split::A
    } else {
        Split::B
    }
}
