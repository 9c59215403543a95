//! The signed distance between two meshes at a pose: the exact distance
//! when apart, minus the protrusion depth when they overlap.

use super::protrusion::{DepthOptions, MAX_SPLITS, Protrusion, protrusion};
use crate::pose::Pose;
use crate::query::distance::{Distance, DistanceOptions, distance};
use crate::query::point::PointTree;
use crate::query::tree_pair::Placement;
use crate::tree::ObbTree;
use nalgebra::{Point3, Vector3};

/// The default tolerance of the depth, relative to the scene's scale (the
/// larger of the two meshes' bounding-box diagonals).
pub const DEFAULT_RELATIVE_TOLERANCE: f64 = 1e-5;

/// One mesh as the signed query needs it: its OBB tree (for the distance)
/// and its point tree (for the inside test and point distances), built
/// from the same triangles.
#[derive(Clone, Copy, Debug)]
pub struct Solid<'t> {
    /// The OBB tree.
    pub tree: &'t ObbTree,
    /// The point queries' tree.
    pub points: &'t PointTree,
}

/// The diagonal of a point tree's bounding box (0 when empty).
pub fn diagonal(points: &PointTree) -> f64 {
    points.tree.nodes.first().map_or(0.0, |n| {
        let (lo, hi) = (n.bx.min.to_array(), n.bx.max.to_array());
        (0..3)
            .map(|k| (hi[k] as f64 - lo[k] as f64).powi(2))
            .sum::<f64>()
            .sqrt()
    })
}

/// How deep the depth search goes, before the meshes' scale is known.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DepthSettings {
    /// The depth's absolute tolerance (model units); `None`:
    /// [`DEFAULT_RELATIVE_TOLERANCE`] × the scale.
    pub tolerance: Option<f64>,
    /// The split cap of each direction's search; `None`:
    /// [`MAX_SPLITS`].
    pub max_splits: Option<u64>,
}

impl DepthSettings {
    /// The search's options for meshes whose larger bounding-box diagonal
    /// is `scale`.
    pub fn at_scale(&self, scale: f64) -> DepthOptions {
        DepthOptions {
            tolerance: self.tolerance.unwrap_or(DEFAULT_RELATIVE_TOLERANCE * scale),
            max_splits: self.max_splits.unwrap_or(MAX_SPLITS),
        }
    }
}

/// What the signed query is asked.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SignedOptions {
    /// The tolerances of the unsigned distance (0, 0: exact).
    pub distance: DistanceOptions,
    /// The depth search's tolerance and split cap.
    pub depth: DepthSettings,
}

/// Which surface reaches deepest into the other's solid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protruding {
    /// A's surface into B's solid.
    A,
    /// B's surface into A's solid.
    B,
}

impl Protruding {
    /// `"a"` or `"b"`.
    pub fn name(&self) -> &'static str {
        match self {
            Protruding::A => "a",
            Protruding::B => "b",
        }
    }
}

/// The answer of [`overlap`]: how deep two meshes overlap, everything in
/// A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Overlap {
    /// The protrusion depth (≥ 0; 0 when neither surface reaches inside
    /// the other's solid).
    pub depth: f64,
    /// Which surface protrudes (`None` when `depth` is 0).
    pub side: Option<Protruding>,
    /// The unit direction from A to B that separates the witnesses: B moved
    /// by `depth·normal` lifts the deep point's nearest point onto it;
    /// `point_a − point_b = depth·normal`. `None` when `depth` is 0 (or
    /// too small for a direction in `f64`).
    pub normal: Option<Vector3<f64>>,
    /// The witness on A's surface: the deep point when A protrudes, its
    /// nearest point on A when B does (meaningless when `depth` is 0).
    pub point_a: Point3<f64>,
    /// The witness on B's surface.
    pub point_b: Point3<f64>,
    /// The depth's absolute tolerance used (model units).
    pub tolerance: f64,
    /// The true depth is within `[depth, depth + bound]` (rounding of the
    /// point distances aside, [`crate::query::point::rounding_bound`]);
    /// `bound ≤ tolerance` unless `capped`.
    pub bound: f64,
    /// Whether a search reached its split cap.
    pub capped: bool,
    /// A's protrusion into B (in B's frame) and B's into A.
    pub protrusions: [Protrusion; 2],
}

/// How deep `a` (at identity) and `b` placed by `pose` overlap: each
/// surface's protrusion into the other's solid, the larger reported with
/// its side, witnesses and normal (see [`crate::query::depth`]). The
/// tolerance's scale is the larger bounding-box diagonal.
pub fn overlap(a: &PointTree, b: &PointTree, pose: &Pose, settings: &DepthSettings) -> Overlap {
    overlap_into(a, b, pose, settings, [true, true])
}

/// [`overlap`] searching only the directions asked: `into[0]`, A's surface
/// into B's solid; `into[1]`, B's into A's. A direction not searched counts
/// as [`Protrusion::NONE`] (depth 0, bound 0): the answer then bounds only
/// the directions searched.
pub fn overlap_into(
    a: &PointTree,
    b: &PointTree,
    pose: &Pose,
    settings: &DepthSettings,
    into: [bool; 2],
) -> Overlap {
    let place = Placement::new(pose);
    let opts = settings.at_scale(diagonal(a).max(diagonal(b)));
    // A's surface in B's frame: R^T·(p − t).
    let inverse = Placement {
        rotation: place.rotation.transpose(),
        translation: -(place.rotation.transpose() * place.translation),
    };
    let into_b = match into[0] {
        true => protrusion(&a.tree, &inverse, b, &opts),
        false => Protrusion::NONE,
    };
    let into_a = match into[1] {
        true => protrusion(&b.tree, &place, a, &opts),
        false => Protrusion::NONE,
    };
    let mut out = Overlap {
        depth: 0.0,
        side: None,
        normal: None,
        point_a: Point3::origin(),
        point_b: Point3::origin(),
        tolerance: opts.tolerance,
        bound: 0.0,
        capped: into_b.capped || into_a.capped,
        protrusions: [into_b, into_a],
    };
    let (side, p) = if into_b.depth >= into_a.depth {
        (Protruding::A, into_b)
    } else {
        (Protruding::B, into_a)
    };
    if let (Some(deep), true) = (p.deep, p.depth > 0.0) {
        let (point_a, point_b) = match side {
            Protruding::A => (place.apply(&deep), place.apply(&p.nearest)),
            Protruding::B => (p.nearest, deep),
        };
        out.depth = p.depth;
        out.side = Some(side);
        out.point_a = point_a;
        out.point_b = point_b;
        out.normal = (point_a - point_b).try_normalize(0.0);
    }
    // The true depth is the larger of the two directions' true depths.
    out.bound =
        ((into_b.depth + into_b.bound).max(into_a.depth + into_a.bound) - out.depth).max(0.0);
    out
}

/// The answer of [`signed_distance`], everything in A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignedDistance {
    /// The distance when apart, `−depth` when overlapping (model units).
    pub signed_distance: f64,
    /// The protrusion depth (≥ 0; 0 when apart or only touching).
    pub depth: f64,
    /// Which surface protrudes (`None` when `depth` is 0).
    pub side: Option<Protruding>,
    /// The unit direction from A to B that separates them: B moved by
    /// `depth·normal` lifts the deep point's nearest point onto it (or, apart,
    /// the direction from A's closest point to B's). `point_b − point_a =
    /// signed_distance·normal`. `None` when `signed_distance` is 0.
    pub normal: Option<Vector3<f64>>,
    /// The witness on A's surface: the deep point when A protrudes, its
    /// nearest point on A when B does, the closest point when apart.
    pub point_a: Point3<f64>,
    /// The witness on B's surface.
    pub point_b: Point3<f64>,
    /// [`Overlap::tolerance`].
    pub tolerance: f64,
    /// [`Overlap::bound`]: the true depth is within `[depth, depth + bound]`.
    pub bound: f64,
    /// [`Overlap::capped`].
    pub capped: bool,
    /// The unsigned distance query's answer.
    pub unsigned: Distance,
    /// [`Overlap::protrusions`].
    pub protrusions: [Protrusion; 2],
}

/// The signed distance between `a` (at identity) and `b` placed by `pose`
/// (see [`crate::query::depth`]); `None` when either mesh is empty.
pub fn signed_distance(
    a: &Solid,
    b: &Solid,
    pose: &Pose,
    opts: &SignedOptions,
) -> Option<SignedDistance> {
    let unsigned = distance(a.tree, b.tree, pose, &opts.distance)?;
    let o = overlap(a.points, b.points, pose, &opts.depth);
    let mut out = SignedDistance {
        signed_distance: unsigned.distance,
        depth: o.depth,
        side: o.side,
        normal: None,
        point_a: unsigned.point_a,
        point_b: unsigned.point_b,
        tolerance: o.tolerance,
        bound: o.bound,
        capped: o.capped,
        unsigned,
        protrusions: o.protrusions,
    };
    if o.side.is_some() {
        out.signed_distance = -o.depth;
        out.point_a = o.point_a;
        out.point_b = o.point_b;
        out.normal = o.normal;
    } else if unsigned.distance > 0.0 {
        out.normal = (unsigned.point_b - unsigned.point_a).try_normalize(0.0);
    }
    Some(out)
}
