//! `bvtool distance`: each pose's minimum distance and closest points.

use super::collide::{BuildMs, PairJson, Side, SideJson};
use super::timed;
use crate::check::distance::{DistanceCheck, DistanceChecker};
use crate::error::{Error, Result};
use crate::mesh::xyz;
use crate::pose::{Pose, PoseJson};
use crate::query::depth::{SignedDistance, SignedOptions, Solid, signed_distance};
use crate::query::point::PointTree;
use crate::query::{DistanceOptions, DistanceScratch, distance_with};
use serde::Serialize;

/// The answer at one pose.
#[derive(Debug, Serialize)]
pub struct DistancePose {
    /// Position in the pose list, from 0.
    pub index: usize,
    /// The pose (B's vertices map v → R·v + t into A's frame; rotation x, y, z, w).
    pub pose: PoseJson,
    /// The minimum distance (model units; 0 when the meshes touch or
    /// intersect).
    pub distance: f64,
    /// Whether the meshes touch or intersect (decided exactly).
    pub intersecting: bool,
    /// The closest point on A, in A's frame.
    pub point_a: [f64; 3],
    /// The closest point on B, in A's frame.
    pub point_b: [f64; 3],
    /// The closest triangles, named as their files name them.
    pub triangles: PairJson,
    /// The closest triangles as indices into the flattened meshes.
    #[serde(skip)]
    pub triangle_indices: (u32, u32),
    /// The bound on the rounding error of `distance` (model units).
    pub rounding_bound: f64,
    /// Box–box lower bounds computed.
    pub box_tests: u64,
    /// Triangle–triangle distances computed.
    pub triangle_tests: u64,
    /// Query time, microseconds (trees already built); with `--repeat N`,
    /// the median of N runs.
    pub query_us: f64,
    /// Brute force and parry3d (with `--check`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<DistanceCheck>,
    /// The signed distance and protrusion depth (with `--signed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed: Option<SignedJson>,
}

/// The signed answer at one pose (`distance --signed`), in A's frame and
/// model units ([`crate::query::depth`]).
#[derive(Debug, Serialize)]
pub struct SignedJson {
    /// The distance when apart, minus the protrusion depth when the meshes
    /// overlap or one contains the other.
    pub signed_distance: f64,
    /// The protrusion depth (0 when apart or only touching).
    pub depth: f64,
    /// Which surface protrudes into the other's solid: `"a"`, `"b"`, or
    /// `null` when the depth is 0.
    pub side: Option<&'static str>,
    /// The unit direction from A to B that separates them (`point_b −
    /// point_a = signed_distance·normal`); `null` when `signed_distance` is 0.
    pub normal: Option<[f64; 3]>,
    /// The witness on A's surface (the deep point when A protrudes).
    pub point_a: [f64; 3],
    /// The witness on B's surface (the deep point when B protrudes).
    pub point_b: [f64; 3],
    /// The depth's absolute tolerance asked for (model units).
    pub tolerance: f64,
    /// The true depth is within `[depth, depth + bound]`; `bound ≤
    /// tolerance` unless `capped`.
    pub bound: f64,
    /// Whether the split cap stopped a search (the bound is then what it
    /// achieved).
    pub capped: bool,
    /// Sub-triangle splits made (both directions).
    pub splits: u64,
    /// Query time, microseconds (trees built; the unsigned distance
    /// included); with `--repeat N`, the median of N runs.
    pub query_us: f64,
}

impl SignedJson {
    fn new(s: &SignedDistance, query_us: f64) -> SignedJson {
        SignedJson {
            signed_distance: s.signed_distance,
            depth: s.depth,
            side: s.side.map(|x| x.name()),
            normal: s.normal.map(|n| [n.x, n.y, n.z]),
            point_a: xyz(&s.point_a),
            point_b: xyz(&s.point_b),
            tolerance: s.tolerance,
            bound: s.bound,
            capped: s.capped,
            splits: s.protrusions.iter().map(|p| p.splits).sum(),
            query_us,
        }
    }
}

/// The whole `bvtool distance --json` document.
#[derive(Debug, Serialize)]
pub struct DistanceDoc {
    /// Mesh A (at identity).
    pub a: SideJson,
    /// Mesh B (at each pose).
    pub b: SideJson,
    /// Tree build times.
    pub build_ms: BuildMs,
    /// Always `distance`.
    pub mode: &'static str,
    /// The relative tolerance asked for (0: exact).
    pub rel_err: f64,
    /// The absolute tolerance asked for (0: exact).
    pub abs_err: f64,
    /// One answer per pose, in order.
    pub poses: Vec<DistancePose>,
}

/// How to measure.
#[derive(Clone, Copy, Debug)]
pub struct DistanceRun {
    /// The tolerances.
    pub tolerance: DistanceOptions,
    /// Check each pose against brute force and parry3d.
    pub check: bool,
    /// Time each pose this many times (the median is reported).
    pub repeat: usize,
    /// Also the signed distance, with these options (`distance --signed`).
    pub signed: Option<SignedOptions>,
}

/// Measures the distance between `a` and `b` at every pose.
pub fn run(a: &Side, b: &Side, poses: &[Pose], opts: &DistanceRun) -> Result<DistanceDoc> {
    run_with_progress(a, b, poses, opts, &|| {})
}

/// [`run`], calling `tick` after each pose (for a progress bar).
pub fn run_with_progress(
    a: &Side,
    b: &Side,
    poses: &[Pose],
    opts: &DistanceRun,
    tick: &dyn Fn(),
) -> Result<DistanceDoc> {
    let checker = if opts.check {
        Some(DistanceChecker::new(&a.mesh, &b.mesh).map_err(Error::Input)?)
    } else {
        None
    };
    let mut scratch = DistanceScratch::default();
    let points = opts
        .signed
        .map(|_| (PointTree::build(&a.mesh), PointTree::build(&b.mesh)));
    let mut results = Vec::with_capacity(poses.len());
    for (index, pose) in poses.iter().enumerate() {
        let (d, query_us) = timed(opts.repeat, || {
            distance_with(&mut scratch, &a.tree, &b.tree, pose, &opts.tolerance)
        });
        let mut d = d.expect("both sides have triangles");
        // The trees hold one triangle per stack of copies: name the first.
        let (i, j) = (
            a.stacks.copies(d.triangles.0)[0],
            b.stacks.copies(d.triangles.1)[0],
        );
        d.triangles = (i, j);
        results.push(DistancePose {
            index,
            pose: pose.to_json(),
            distance: d.distance,
            intersecting: d.intersecting,
            point_a: xyz(&d.point_a),
            point_b: xyz(&d.point_b),
            triangles: PairJson {
                a: a.mesh.sources[i as usize],
                b: b.mesh.sources[j as usize],
                distance: None,
            },
            triangle_indices: d.triangles,
            rounding_bound: d.rounding_bound,
            box_tests: d.box_tests,
            triangle_tests: d.triangle_tests,
            query_us,
            check: checker.as_ref().map(|c| c.check(pose, &d)),
            signed: match (&points, &opts.signed) {
                (Some((pa, pb)), Some(o)) => {
                    let (sa, sb) = (
                        Solid {
                            tree: &a.tree,
                            points: pa,
                        },
                        Solid {
                            tree: &b.tree,
                            points: pb,
                        },
                    );
                    let (s, us) = timed(opts.repeat, || signed_distance(&sa, &sb, pose, o));
                    Some(SignedJson::new(&s.expect("both sides have triangles"), us))
                }
                _ => None,
            },
        });
        tick();
    }
    Ok(DistanceDoc {
        a: a.summary(),
        b: b.summary(),
        build_ms: BuildMs::of(a, b),
        mode: "distance",
        rel_err: opts.tolerance.rel_err,
        abs_err: opts.tolerance.abs_err,
        poses: results,
    })
}
