//! `bvtool distance`: each pose's minimum distance and closest points.

use super::collide::{BuildMs, CHUNK, PairJson, Side, SideJson};
use super::timed;
use crate::check::distance::{DistanceCheck, DistanceChecker};
use crate::error::{Error, Result};
use crate::fit::{ConvexHull, ShapeFitter, ShapeSpec};
use crate::mesh::xyz;
use crate::pose::{Pose, PoseJson};
use crate::query::convex::{self, Convex, ConvexDistance, ConvexOptions};
use crate::query::depth::{SignedDistance, SignedOptions, Solid, signed_distance};
use crate::query::point::PointTree;
use crate::query::{DistanceOptions, distance};
use serde::Serialize;
use std::sync::Arc;

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
    /// The fitted convex shapes' signed distance (with `--convex`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub convex: Option<ConvexJson>,
}

/// The signed distance of the convex shapes fitted to A and B (`distance
/// --convex SHAPE`), in A's frame and model units ([`crate::query::convex`]).
#[derive(Debug, Serialize)]
pub struct ConvexJson {
    /// The shape fitted to each side, as `fit` names it.
    pub shape: String,
    /// The distance when apart, minus the translational penetration depth
    /// when the shapes overlap.
    pub signed_distance: f64,
    /// The penetration depth: the shortest move of B that separates the
    /// shapes (0 when apart).
    pub depth: f64,
    /// The unit contact normal from A to B: B moved by `depth·normal`
    /// touches A; apart, the direction across the gap.
    pub normal: [f64; 3],
    /// The witness on A's shape: `point_b − point_a = signed_distance·normal`.
    pub point_a: [f64; 3],
    /// The witness on B's shape.
    pub point_b: [f64; 3],
    /// The contact patch on A's shape: a convex polygon's corners in order,
    /// a segment's ends or one point.
    pub patch: Vec<[f64; 3]>,
    /// The absolute tolerance used (model units).
    pub tolerance: f64,
    /// The true signed distance is in `[signed_distance, signed_distance +
    /// bound]`; `bound ≤ tolerance` unless `capped`.
    pub bound: f64,
    /// Whether the cell cap stopped the search.
    pub capped: bool,
    /// Cells of the sphere of directions evaluated.
    pub cells: usize,
    /// Query time, microseconds (shapes fitted); with `--repeat N`, the
    /// median of N runs.
    pub query_us: f64,
}

impl ConvexJson {
    fn new(shape: String, d: &ConvexDistance, query_us: f64) -> ConvexJson {
        ConvexJson {
            shape,
            signed_distance: d.signed_distance,
            depth: d.depth(),
            normal: d.normal.into(),
            point_a: xyz(&d.point_a),
            point_b: xyz(&d.point_b),
            patch: d.patch.iter().map(xyz).collect(),
            tolerance: d.tolerance,
            bound: d.bound,
            capped: d.capped,
            cells: d.cells,
            query_us,
        }
    }
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
    /// Also the signed distance of a convex shape fitted to each side
    /// (`distance --convex`).
    pub convex: Option<ConvexRun>,
}

/// `distance --convex`: the shape fitted to each side's vertices (as `fit`
/// fits it) and the search's options.
#[derive(Clone, Copy, Debug)]
pub struct ConvexRun {
    /// The shape; not `decompose` (a union of parts is not convex).
    pub shape: ShapeSpec,
    /// The tolerance and the cell cap.
    pub options: ConvexOptions,
}

impl ConvexRun {
    /// The shape fitted to `side`'s vertices, as a convex shape.
    fn fit(&self, side: &Side) -> Result<Convex> {
        let failed =
            |why: String| Error::Input(format!("{}: --convex {}: {why}", side.file, self.shape));
        let points = &side.mesh.vertices;
        let hull = ConvexHull::new(points).map_err(|e| failed(e.to_string()))?;
        let fitted = ShapeFitter::new(points, &hull)
            .fit(self.shape)
            .map_err(|e| failed(e.to_string()))?;
        Convex::of_fitted(&fitted).ok_or_else(|| failed("not a convex shape".into()))
    }
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
    tick: &(dyn Fn() + Sync),
) -> Result<DistanceDoc> {
    let measure = Measure::new(a, b, opts)?;
    let mut results = Vec::with_capacity(poses.len());
    for (k, chunk) in poses.chunks(CHUNK).enumerate() {
        results.extend(measure.answer(k * CHUNK, chunk, tick));
    }
    Ok(measure.doc(results))
}

/// One distance run's fixed parts (the sides, the options, the checkers,
/// with `signed` the point trees and with `convex` the fitted shapes), answering poses a chunk at a
/// time: [`run`] collects the answers into a [`DistanceDoc`]; a stream
/// writes each chunk's and ends with a [`DistanceSummary`].
pub struct Measure<'s> {
    a: &'s Side,
    b: &'s Side,
    opts: DistanceRun,
    checker: Option<DistanceChecker<'s>>,
    points: Option<(Arc<PointTree>, Arc<PointTree>)>,
    convex: Option<(Convex, Convex)>,
}

impl<'s> Measure<'s> {
    /// Prepares the run (with `check`, brute force's and parry3d's copies;
    /// with `signed`, each mesh's point tree; with `convex`, each side's
    /// shape, fitted once).
    pub fn new(a: &'s Side, b: &'s Side, opts: &DistanceRun) -> Result<Measure<'s>> {
        let checker = match opts.check {
            true => Some(DistanceChecker::new(&a.mesh, &b.mesh).map_err(Error::Input)?),
            false => None,
        };
        // The same file twice (`distance A A --signed`) has one point tree.
        let points = opts.signed.map(|_| {
            let pa = Arc::new(PointTree::build(&a.mesh));
            let pb = match b.shares_tree {
                true => Arc::clone(&pa),
                false => Arc::new(PointTree::build(&b.mesh)),
            };
            (pa, pb)
        });
        let convex = match &opts.convex {
            Some(c) => {
                let ca = c.fit(a)?;
                let cb = match b.shares_tree {
                    true => ca.clone(),
                    false => c.fit(b)?,
                };
                Some((ca, cb))
            }
            None => None,
        };
        Ok(Measure {
            a,
            b,
            opts: *opts,
            checker,
            points,
            convex,
        })
    }

    /// The answers at `poses`, the first numbered `first`, computed in
    /// parallel on the pool and returned in order; `tick` is called after
    /// each.
    pub fn answer(
        &self,
        first: usize,
        poses: &[Pose],
        tick: &(dyn Fn() + Sync),
    ) -> Vec<DistancePose> {
        crate::query::each_indexed(poses, |i, p| {
            let r = self.one(first + i, p);
            tick();
            r
        })
    }

    /// The answer at one pose.
    fn one(&self, index: usize, pose: &Pose) -> DistancePose {
        let (a, b, opts) = (self.a, self.b, &self.opts);
        let (d, query_us) = timed(opts.repeat, || {
            distance(&a.tree, &b.tree, pose, &opts.tolerance)
        });
        let mut d = d.expect("both sides have triangles");
        // The trees hold one triangle per stack of copies: name the first.
        let (i, j) = (
            a.stacks.copies(d.triangles.0)[0],
            b.stacks.copies(d.triangles.1)[0],
        );
        d.triangles = (i, j);
        DistancePose {
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
                contact: None,
            },
            triangle_indices: d.triangles,
            rounding_bound: d.rounding_bound,
            box_tests: d.box_tests,
            triangle_tests: d.triangle_tests,
            query_us,
            check: self.checker.as_ref().map(|c| c.check(pose, &d)),
            signed: match (&self.points, &opts.signed) {
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
            convex: match (&self.convex, &opts.convex) {
                (Some((ca, cb)), Some(c)) => {
                    let (d, us) = timed(opts.repeat, || {
                        convex::signed_distance(ca, cb, pose, &c.options)
                    });
                    let d = d.expect("fitted shapes have a point");
                    Some(ConvexJson::new(c.shape.to_string(), &d, us))
                }
                _ => None,
            },
        }
    }

    /// The whole document of `poses`' answers.
    pub fn doc(&self, poses: Vec<DistancePose>) -> DistanceDoc {
        DistanceDoc {
            a: self.a.summary(),
            b: self.b.summary(),
            build_ms: BuildMs::of(self.a, self.b),
            mode: "distance",
            rel_err: self.opts.tolerance.rel_err,
            abs_err: self.opts.tolerance.abs_err,
            poses,
        }
    }

    /// The last line of a stream: the run and its `totals`.
    pub fn summary(&self, totals: DistanceTotals) -> DistanceSummary {
        let doc = self.doc(Vec::new());
        DistanceSummary {
            a: doc.a,
            b: doc.b,
            build_ms: doc.build_ms,
            mode: doc.mode,
            rel_err: doc.rel_err,
            abs_err: doc.abs_err,
            totals,
        }
    }
}

/// The counts over the poses answered: what the text's totals line says
/// and a stream's summary line carries.
#[derive(Clone, Debug, Default, Serialize)]
pub struct DistanceTotals {
    /// Poses answered.
    pub poses: usize,
    /// Poses where the meshes touch or intersect (distance 0).
    pub touching: usize,
    /// Poses where they are apart.
    pub apart: usize,
    /// The least distance over the poses (model units; `null` before the
    /// first pose).
    pub least_distance: Option<f64>,
    /// The first pose at that distance.
    pub least_at: Option<usize>,
    /// The poses' query times summed, milliseconds (to the microsecond).
    #[serde(serialize_with = "super::to_micros")]
    pub query_ms: f64,
    /// With `--check`: who dissents, over the poses checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<CheckTally>,
}

/// With `--check`: the second opinions over the poses checked.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CheckTally {
    /// Poses checked.
    pub poses: usize,
    /// Poses where brute force ran (it is skipped on meshes with too many
    /// triangle pairs).
    pub brute_force_ran: usize,
    /// Poses where brute force (exact) disagrees.
    pub brute_force_disagrees: usize,
    /// Poses where parry3d (f32) disagrees.
    pub parry_disagrees: usize,
    /// Whether bvtool's answers stand at every pose ([`DistanceCheck::ok`]).
    pub ok: bool,
}

impl DistanceTotals {
    /// Counts one more answer.
    pub fn add(&mut self, p: &DistancePose) {
        self.poses += 1;
        match p.intersecting {
            true => self.touching += 1,
            false => self.apart += 1,
        }
        if self.least_distance.is_none_or(|d| p.distance < d) {
            self.least_distance = Some(p.distance);
            self.least_at = Some(p.index);
        }
        self.query_ms += p.query_us / 1e3;
        if let Some(c) = &p.check {
            let t = self.check.get_or_insert(CheckTally {
                ok: true,
                ..CheckTally::default()
            });
            t.poses += 1;
            t.brute_force_ran += usize::from(c.brute_force_agrees.is_some());
            t.brute_force_disagrees += usize::from(c.brute_force_agrees == Some(false));
            t.parry_disagrees += usize::from(!c.parry_agrees);
            t.ok &= c.ok();
        }
    }
}

impl DistanceDoc {
    /// The totals over the document's poses.
    pub fn totals(&self) -> DistanceTotals {
        let mut t = DistanceTotals::default();
        self.poses.iter().for_each(|p| t.add(p));
        t
    }
}

/// The last line of `distance --jsonl`: the pair, the tolerances and the
/// totals (`{"summary": {...}}` on the line).
#[derive(Debug, Serialize)]
pub struct DistanceSummary {
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
    /// The counts over every pose.
    pub totals: DistanceTotals,
}
