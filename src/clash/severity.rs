//! How severe a clash is: the protrusion depth of an intersecting or
//! contained part pair ([`crate::query::depth`]), measured on the parts'
//! world surfaces, with the deep point, its nearest point on the other
//! part and the direction that separates them.
//!
//! The depth of a pair is `max(D(A→B), D(B→A))`, `D(X→Y)` the largest
//! distance from a point of X's surface inside Y's solid to Y's surface,
//! searched over the faces (not only the vertices) by a certified branch
//! and bound: the true depth lies in `[depth, depth + bound]`, `bound` at
//! most the tolerance unless the split cap stopped the search (`capped`).
//! A direction is searched only into a closed part (closed mod 2: its
//! inside is exact, [`SignMethod`]); an open part has no inside, as for
//! containment ([`super::contain`]), so a pair of open parts gets no depth
//! and a mixed pair only the open part's protrusion into the closed one
//! ([`Severity::searched`]). With a least depth
//! ([`ClashDepth::min_depth`]), a pair whose depth is certainly below it
//! (`depth + bound < min_depth`) is reported as touching: the "hard clash
//! with tolerance" of clash tools.

use crate::pose::Pose;
use crate::query::depth::{DepthSettings, Overlap, Protruding, overlap_into};
use crate::query::point::{PointTree, SignMethod};
use nalgebra::{Point3, Vector3};
use serde::Serialize;

/// The default split cap of each direction of each pair's depth search in
/// a clash: a tenth of a single query's ([`crate::query::depth::MAX_SPLITS`]),
/// for a scene's many pairs. A search that reaches it reports the bound it
/// achieved.
pub const MAX_SPLITS: u64 = 2_000;

/// How clash depths are measured.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClashDepth {
    /// The search's tolerance and split cap, for each part pair; the
    /// default tolerance is relative to the pair's larger box diagonal, the
    /// default cap [`MAX_SPLITS`].
    pub search: DepthSettings,
    /// Intersecting or contained pairs of closed parts certainly shallower
    /// than this (model units, ≥ 0; 0: none) are reported as touching.
    pub min_depth: f64,
}

/// The depth of an intersecting or contained part pair, in world
/// coordinates (model units).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Severity {
    /// The protrusion depth (≥ 0): how far the deepest point of one part's
    /// surface inside the other lies from the other's surface.
    pub depth: f64,
    /// The part whose surface protrudes (`None` when `depth` is 0: no
    /// point of either surface was found inside the other — open parts
    /// whose winding number stays at or below ½).
    pub protruding: Option<usize>,
    /// The unit direction from part `a` to part `b` that separates the
    /// witnesses: `point_a − point_b = depth·normal`, so moving `b` by
    /// `depth·normal` lifts the deep point's nearest point onto it.
    pub normal: Option<Vector3<f64>>,
    /// The witness on `a`'s surface (the deep point when `a` protrudes).
    pub point_a: Option<Point3<f64>>,
    /// The witness on `b`'s surface.
    pub point_b: Option<Point3<f64>>,
    /// Which directions were searched: only into closed parts.
    pub searched: Searched,
    /// The depth's absolute tolerance used.
    pub tolerance: f64,
    /// The true depth lies in `[depth, depth + bound]` (the point
    /// distances' rounding aside, [`crate::query::point::rounding_bound`]).
    pub bound: f64,
    /// Whether the split cap stopped a search (then `bound` may exceed the
    /// tolerance).
    pub capped: bool,
}

/// Which protrusions of a pair were searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Searched {
    /// Both parts are closed: `depth` is the pair's depth.
    Both,
    /// Only `b`'s surface into `a` (`b` is open).
    IntoA,
    /// Only `a`'s surface into `b` (`a` is open).
    IntoB,
    /// Both parts are open: no depth (`depth` 0, no witnesses).
    Neither,
}

impl Searched {
    /// The directions searched, given whether `a` and `b` are closed.
    fn new(closed_a: bool, closed_b: bool) -> Searched {
        match (closed_a, closed_b) {
            (true, true) => Searched::Both,
            (true, false) => Searched::IntoA,
            (false, true) => Searched::IntoB,
            (false, false) => Searched::Neither,
        }
    }

    /// `[a into b, b into a]`, as [`overlap_into`] takes them.
    fn into(self) -> [bool; 2] {
        [
            matches!(self, Searched::Both | Searched::IntoB),
            matches!(self, Searched::Both | Searched::IntoA),
        ]
    }
}

impl ClashDepth {
    /// The search's settings, the split cap defaulting to [`MAX_SPLITS`].
    pub(crate) fn search(&self) -> DepthSettings {
        DepthSettings {
            max_splits: self.search.max_splits.or(Some(MAX_SPLITS)),
            ..self.search
        }
    }
}

impl Severity {
    /// Measures the severity of parts `a` and `b` from the point trees of
    /// their world surfaces: each direction into a closed part searched.
    pub(crate) fn measure(
        (a, tree_a): (usize, &PointTree),
        (b, tree_b): (usize, &PointTree),
        search: &DepthSettings,
    ) -> Severity {
        let closed = |t: &PointTree| t.sign_method() != SignMethod::Generalized;
        let searched = Searched::new(closed(tree_a), closed(tree_b));
        let o = overlap_into(tree_a, tree_b, &Pose::identity(), search, searched.into());
        Severity::new(a, b, &o, searched)
    }

    /// The deep point and its nearest point on the other part, for a pair
    /// whose first part is `a`; `None` when `depth` is 0.
    pub fn deep_and_nearest(&self, a: usize) -> Option<(Point3<f64>, Point3<f64>)> {
        let (p, pa, pb) = (self.protruding?, self.point_a?, self.point_b?);
        Some(if p == a { (pa, pb) } else { (pb, pa) })
    }

    /// Whether both directions were searched and the depth is certainly
    /// below `min_depth` (`depth + bound < min_depth`).
    pub(crate) fn shallower_than(&self, min_depth: f64) -> bool {
        self.searched == Searched::Both && self.depth + self.bound < min_depth
    }

    /// The severity of parts `a` and `b` from their overlap.
    fn new(a: usize, b: usize, o: &Overlap, searched: Searched) -> Severity {
        Severity {
            searched,
            depth: o.depth,
            protruding: o.side.map(|s| match s {
                Protruding::A => a,
                Protruding::B => b,
            }),
            normal: o.normal,
            point_a: o.side.map(|_| o.point_a),
            point_b: o.side.map(|_| o.point_b),
            tolerance: o.tolerance,
            bound: o.bound,
            capped: o.capped,
        }
    }
}
