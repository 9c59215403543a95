//! `bvtool collide`: each pose's answer, the trees built once per file.

use super::timed;
use crate::check::collide::{Checker, PoseCheck};
use crate::error::{Error, Result};
use crate::mesh::stacks::Stacks;
use crate::mesh::{Scene, TriMesh, TriangleSource, xyz};
use crate::pose::{Pose, PoseJson};
use crate::query::contact::{self, ContactPatch};
use crate::query::{ClosePair, ContactMode, collide_each, within_each};
use crate::tree::{NodeFit, ObbTree};
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// One mesh of the pair, flattened and with its tree. The geometry is
/// shared: [`Side::same_file_as`] gives the second side of `collide A A`
/// without loading or building anything again.
#[derive(Clone)]
pub struct Side {
    /// The file as given.
    pub file: String,
    /// The flattened scene.
    pub mesh: Arc<TriMesh>,
    /// Its triangles grouped by their corners ([`Stacks`]).
    pub stacks: Arc<Stacks>,
    /// The OBB tree of one triangle per stack ([`Side::tree_mesh`]): a
    /// stack of copies is one question to every query.
    pub tree: Arc<ObbTree>,
    /// Tree build time in milliseconds (0 for a side that shares another's
    /// tree).
    pub build_ms: f64,
    /// Whether the tree is the other side's (the same file given twice).
    pub shares_tree: bool,
}

impl Side {
    /// The file and its triangle count, as reported.
    pub fn summary(&self) -> SideJson {
        SideJson {
            file: self.file.clone(),
            triangles: self.mesh.triangles.len(),
        }
    }

    /// The mesh the tree's triangle indices name: one triangle per stack
    /// of copies (the flattened mesh itself when it has no copies).
    pub fn tree_mesh(&self) -> &TriMesh {
        self.stacks.unique(&self.mesh)
    }

    /// Flattens `scene`, groups its stacked copies and builds the tree of
    /// one triangle per stack, with node boxes fitted by `fit` (timed).
    pub fn new(file: &str, scene: &Scene, fit: NodeFit) -> Result<Side> {
        let mesh = scene.flatten();
        if mesh.triangles.is_empty() {
            return Err(Error::geometry(&scene.path, "no triangles to collide"));
        }
        let t = Instant::now();
        let stacks = Stacks::of(&mesh);
        let tree = ObbTree::build_default(stacks.unique(&mesh), fit);
        Ok(Side {
            file: file.to_string(),
            mesh: Arc::new(mesh),
            stacks: Arc::new(stacks),
            tree: Arc::new(tree),
            build_ms: t.elapsed().as_secs_f64() * 1e3,
            shares_tree: false,
        })
    }

    /// The same geometry and tree under another name (`file` is the same
    /// file as this side's, spelled as given): nothing is loaded or built.
    pub fn same_file_as(&self, file: &str) -> Side {
        Side {
            file: file.to_string(),
            build_ms: 0.0,
            shares_tree: true,
            ..self.clone()
        }
    }
}

/// A file of the pair.
#[derive(Debug, Serialize)]
pub struct SideJson {
    /// The file as given.
    pub file: String,
    /// Triangles after flattening.
    pub triangles: usize,
}

/// Tree build times.
#[derive(Debug, Serialize)]
pub struct BuildMs {
    /// Mesh A's tree, milliseconds.
    pub a: f64,
    /// Mesh B's tree, milliseconds (0 when B shares A's tree).
    pub b: f64,
    /// B is the same file as A and shares its tree (present only then).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub b_shares_a: bool,
}

impl BuildMs {
    /// The build times of the pair.
    pub fn of(a: &Side, b: &Side) -> BuildMs {
        BuildMs {
            a: a.build_ms,
            b: b.build_ms,
            b_shares_a: b.shares_tree,
        }
    }
}

/// A pair of triangles (intersecting, or within the clearance), each named
/// as its file names it.
#[derive(Debug, Serialize)]
pub struct PairJson {
    /// The triangle of A.
    pub a: TriangleSource,
    /// The triangle of B.
    pub b: TriangleSource,
    /// With `--clearance`: their distance (model units; 0 when they meet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
    /// With `--contacts`: the pair's contact (`null` when both triangles
    /// are degenerate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact: Option<Option<ContactJson>>,
}

/// A triangle pair's contact (see [`crate::query::contact`]), in A's frame.
#[derive(Debug, Serialize)]
pub struct ContactJson {
    /// Unit normal from A to B: moving B by `depth·normal` clears the
    /// pair's crossing.
    pub normal: [f64; 3],
    /// How far the smaller side reaches across the contact plane (0
    /// touching).
    pub depth: f64,
    /// Where the triangles meet: a segment's ends, an overlap's corners or
    /// a point.
    pub points: Vec<[f64; 3]>,
}

/// Pairs merged by contact plane (see [`crate::query::contact`]).
#[derive(Debug, Serialize)]
pub struct PatchJson {
    /// The plane's unit normal, from A to B.
    pub normal: [f64; 3],
    /// Its deepest pair's depth.
    pub depth: f64,
    /// The convex hull of its pairs' contact patches, counter-clockwise seen
    /// along the normal (A's frame).
    pub polygon: Vec<[f64; 3]>,
    /// Its pairs, as positions in `pairs`.
    pub pairs: Vec<usize>,
}

impl From<ContactPatch> for PatchJson {
    fn from(p: ContactPatch) -> PatchJson {
        PatchJson {
            normal: p.normal.into(),
            depth: p.depth,
            polygon: p.polygon.iter().map(xyz).collect(),
            pairs: p.pairs,
        }
    }
}

/// The answer at one pose.
#[derive(Debug, Serialize)]
pub struct PoseResult {
    /// Position in the pose list, from 0.
    pub index: usize,
    /// The pose (B's vertices map v → R·v + t into A's frame; rotation x, y, z, w).
    pub pose: PoseJson,
    /// Whether any triangle of A meets any of B (touching counts); `null`
    /// with `--clearance` in first-contact mode, which stops at the first
    /// pair within the clearance.
    pub intersecting: Option<bool>,
    /// With `--clearance`: whether any triangle of B comes within the
    /// clearance of A.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<bool>,
    /// Intersecting triangle pairs — with `--clearance`, pairs within it —
    /// (`null` in first-contact mode).
    pub pair_count: Option<u64>,
    /// The pairs (with `--all-pairs`), sorted by A's then B's triangle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Vec<PairJson>>,
    /// With `--contacts`: the pairs merged into one patch per contact
    /// plane.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patches: Option<Vec<PatchJson>>,
    /// Box–box tests the descent made.
    pub box_tests: u64,
    /// Exact triangle–triangle tests made.
    pub triangle_tests: u64,
    /// Query time, microseconds (trees already built); with `--repeat N`,
    /// the median of N runs.
    pub query_us: f64,
    /// parry3d's answer (with `--check`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<Box<PoseCheck>>,
}

/// The whole `bvtool collide --json` document.
#[derive(Debug, Serialize)]
pub struct CollideDoc {
    /// Mesh A (at identity).
    pub a: SideJson,
    /// Mesh B (at each pose).
    pub b: SideJson,
    /// Tree build times.
    pub build_ms: BuildMs,
    /// `first` (stop at the first contact) or `all` (every pair).
    pub mode: &'static str,
    /// With `--clearance`: the clearance D (model units); pairs are those
    /// within D.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clearance: Option<f64>,
    /// One answer per pose, in order.
    pub poses: Vec<PoseResult>,
}

/// How to collide.
#[derive(Clone, Copy, Debug)]
pub struct CollideOptions {
    /// Stop at the first contact (no pair count).
    pub first_contact: bool,
    /// List every pair.
    pub list_pairs: bool,
    /// Ask parry3d too (not with a clearance).
    pub check: bool,
    /// Report pairs within this distance instead of intersecting pairs.
    pub clearance: Option<f64>,
    /// Time each pose this many times (the median is reported).
    pub repeat: usize,
    /// The most pairs `list_pairs` lists at one pose: more is an error
    /// (the count alone is never limited).
    pub max_pairs: usize,
    /// With `list_pairs` (and no clearance): each pair's contact, and the
    /// patches.
    pub contacts: bool,
}

/// Poses answered at a time by [`run`] and by a stream (`--jsonl`): each
/// chunk's answers are computed on the pool, then handed on, before the
/// next chunk is read — memory holds one chunk's answers, whatever the
/// count of poses.
pub const CHUNK: usize = 4096;

/// Collides `a` with `b` at every pose.
pub fn run(a: &Side, b: &Side, poses: &[Pose], opts: &CollideOptions) -> Result<CollideDoc> {
    run_with_progress(a, b, poses, opts, &|| {})
}

/// [`run`], calling `tick` after each pose (for a progress bar).
pub fn run_with_progress(
    a: &Side,
    b: &Side,
    poses: &[Pose],
    opts: &CollideOptions,
    tick: &(dyn Fn() + Sync),
) -> Result<CollideDoc> {
    let collider = Collider::new(a, b, opts)?;
    let mut results = Vec::with_capacity(poses.len());
    for (k, chunk) in poses.chunks(CHUNK).enumerate() {
        results.extend(collider.answer(k * CHUNK, chunk, tick)?);
    }
    Ok(collider.doc(results))
}

/// One collide run's fixed parts (the sides, the options, parry3d's copies
/// with `check`), answering poses a chunk at a time: [`run`] collects the
/// answers into a [`CollideDoc`]; a stream writes each chunk's and ends with
/// a [`CollideSummary`].
pub struct Collider<'s> {
    a: &'s Side,
    b: &'s Side,
    opts: CollideOptions,
    checker: Option<Checker<'s>>,
    /// A's and B's trees' radii: the scale of the contacts' planes.
    reach: (f64, f64),
    /// Pairs listed by the answers held (since [`Collider::release`]):
    /// at most `max_pairs`.
    held: AtomicUsize,
}

impl<'s> Collider<'s> {
    /// Prepares the run (with `check`, parry3d's copies of both meshes).
    pub fn new(a: &'s Side, b: &'s Side, opts: &CollideOptions) -> Result<Collider<'s>> {
        let checker = match opts.check {
            true => Some(Checker::new(&a.mesh, &b.mesh, &a.tree, &b.tree).map_err(Error::Input)?),
            false => None,
        };
        Ok(Collider {
            a,
            b,
            opts: *opts,
            checker,
            reach: (a.tree.radius(), b.tree.radius()),
            held: AtomicUsize::new(0),
        })
    }

    /// The answers given so far are written and dropped: their listed
    /// pairs no longer count against `max_pairs` (a stream calls it between
    /// chunks; a document holds every answer, so never).
    pub fn release(&self) {
        self.held.store(0, Ordering::Relaxed);
    }

    /// The answers at `poses`, the first numbered `first`, computed in
    /// parallel on the pool and returned in order; `tick` is called after
    /// each. The first pose (in order) whose pairs pass `max_pairs` is the
    /// error.
    pub fn answer(
        &self,
        first: usize,
        poses: &[Pose],
        tick: &(dyn Fn() + Sync),
    ) -> Result<Vec<PoseResult>> {
        crate::query::each_indexed(poses, |i, p| {
            let r = self.one(first + i, p);
            tick();
            r
        })
        .into_iter()
        .collect()
    }

    /// The answer at one pose.
    fn one(&self, index: usize, pose: &Pose) -> Result<PoseResult> {
        let (a, b, opts) = (self.a, self.b, &self.opts);
        let mode = if opts.first_contact {
            ContactMode::First
        } else {
            ContactMode::All
        };
        let (found, query_us) = timed(opts.repeat, || answer(a, b, pose, mode, opts));
        let at = format!("{} against {} at pose {index}", a.file, b.file);
        let found = found.map_err(|unlisted| {
            Error::Input(match unlisted {
                Unlisted::TooMany => format!(
                    "{at}: more than {} triangle pairs to list (--max-pairs); raise \
                     --max-pairs, or leave out --all-pairs for the count",
                    opts.max_pairs
                ),
                Unlisted::NoMemory(n) => format!(
                    "{at}: no memory to list {n} triangle pairs; lower --max-pairs, or leave \
                     out --all-pairs for the count"
                ),
            })
        })?;
        let listed = found.pairs.len();
        if listed > 0 && self.held.fetch_add(listed, Ordering::Relaxed) + listed > opts.max_pairs {
            return Err(Error::Input(format!(
                "{at}: more than {} triangle pairs listed over the poses (--max-pairs bounds \
                 the pairs a document holds); stream them with --jsonl, or raise --max-pairs",
                opts.max_pairs
            )));
        }
        let check = match &self.checker {
            Some(ch) if opts.clearance.is_none() => {
                let ours = crate::query::Collision {
                    intersecting: found.any,
                    pairs: found.pairs.iter().map(|p| (p.a, p.b)).collect(),
                    box_tests: found.box_tests,
                    triangle_tests: found.triangle_tests,
                };
                Some(Box::new(
                    ch.check(pose, &ours, !opts.first_contact && opts.list_pairs)
                        .map_err(Error::Input)?,
                ))
            }
            _ => None,
        };
        let intersecting = match opts.clearance {
            None => Some(found.any),
            Some(_) if mode == ContactMode::All || !found.any => Some(found.touching),
            Some(_) => None,
        };
        let contacts = (opts.contacts && opts.list_pairs && opts.clearance.is_none()).then(|| {
            let pairs: Vec<(u32, u32)> = found.pairs.iter().map(|p| (p.a, p.b)).collect();
            contact::mesh_contacts(&a.mesh, &b.mesh, pose, &pairs, self.reach)
        });
        Ok(PoseResult {
            index,
            pose: pose.to_json(),
            intersecting,
            within: opts.clearance.map(|_| found.any),
            pair_count: (!opts.first_contact).then_some(found.count),
            pairs: opts.list_pairs.then(|| {
                found
                    .pairs
                    .iter()
                    .enumerate()
                    .map(|(k, p)| PairJson {
                        a: a.mesh.sources[p.a as usize],
                        b: b.mesh.sources[p.b as usize],
                        distance: opts.clearance.map(|_| p.distance),
                        contact: contacts.as_ref().map(|c| {
                            c.pairs[k].as_ref().map(|c| ContactJson {
                                normal: c.normal.into(),
                                depth: c.depth,
                                points: c.points.iter().map(xyz).collect(),
                            })
                        }),
                    })
                    .collect()
            }),
            patches: contacts.map(|c| c.patches.into_iter().map(PatchJson::from).collect()),
            box_tests: found.box_tests,
            triangle_tests: found.triangle_tests,
            query_us,
            check,
        })
    }

    /// The whole document of `poses`' answers.
    pub fn doc(&self, poses: Vec<PoseResult>) -> CollideDoc {
        CollideDoc {
            a: self.a.summary(),
            b: self.b.summary(),
            build_ms: BuildMs::of(self.a, self.b),
            mode: self.mode(),
            clearance: self.opts.clearance,
            poses,
        }
    }

    /// Totals of no pose yet, to [`CollideTotals::add`] answers to.
    pub fn totals(&self) -> CollideTotals {
        let o = &self.opts;
        CollideTotals::none(o.clearance, o.first_contact, o.check)
    }

    /// The last line of a stream: the run and its `totals`.
    pub fn summary(&self, totals: CollideTotals) -> CollideSummary {
        CollideSummary {
            a: self.a.summary(),
            b: self.b.summary(),
            build_ms: BuildMs::of(self.a, self.b),
            mode: self.mode(),
            clearance: self.opts.clearance,
            totals,
        }
    }

    fn mode(&self) -> &'static str {
        if self.opts.first_contact {
            "first"
        } else {
            "all"
        }
    }
}

/// The counts over the poses answered: what the text's totals line says
/// and a stream's summary line carries.
#[derive(Clone, Debug, Serialize)]
pub struct CollideTotals {
    /// Poses answered.
    pub poses: usize,
    /// Poses where the meshes touch or intersect (`intersecting` true).
    pub touching: usize,
    /// Poses where they do not (`intersecting` false).
    pub apart: usize,
    /// Poses not decided (`intersecting` null: a clearance query that
    /// stopped at its first pair within the clearance).
    pub undecided: usize,
    /// With `--clearance`: poses where B comes within it of A.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<usize>,
    /// Triangle pairs found over all poses (`null` in first-contact mode).
    pub pair_count: Option<u64>,
    /// The poses' query times summed, milliseconds (to the microsecond).
    #[serde(serialize_with = "super::to_micros")]
    pub query_ms: f64,
    /// With `--check`: whether every parry3d disagreement is explained.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checks_ok: Option<bool>,
}

impl CollideDoc {
    /// The totals over the document's poses.
    pub fn totals(&self) -> CollideTotals {
        let check = self.poses.iter().any(|p| p.check.is_some());
        let mut t = CollideTotals::none(self.clearance, self.mode == "first", check);
        self.poses.iter().for_each(|p| t.add(p));
        t
    }
}

impl CollideTotals {
    /// Totals of no pose yet, for a run with this clearance, mode and check.
    fn none(clearance: Option<f64>, first_contact: bool, check: bool) -> CollideTotals {
        CollideTotals {
            poses: 0,
            touching: 0,
            apart: 0,
            undecided: 0,
            within: clearance.map(|_| 0),
            pair_count: (!first_contact).then_some(0),
            query_ms: 0.0,
            checks_ok: check.then_some(true),
        }
    }

    /// Counts one more answer.
    pub fn add(&mut self, p: &PoseResult) {
        self.poses += 1;
        match p.intersecting {
            Some(true) => self.touching += 1,
            Some(false) => self.apart += 1,
            None => self.undecided += 1,
        }
        if let (Some(k), Some(true)) = (&mut self.within, p.within) {
            *k += 1;
        }
        self.pair_count = self.pair_count.zip(p.pair_count).map(|(s, n)| s + n);
        self.query_ms += p.query_us / 1e3;
        if let (Some(ok), Some(c)) = (&mut self.checks_ok, &p.check) {
            *ok &= c.ok();
        }
    }
}

/// The last line of `collide --jsonl`: the pair, the mode and the totals
/// (`{"summary": {...}}` on the line).
#[derive(Debug, Serialize)]
pub struct CollideSummary {
    /// Mesh A (at identity).
    pub a: SideJson,
    /// Mesh B (at each pose).
    pub b: SideJson,
    /// Tree build times.
    pub build_ms: BuildMs,
    /// `first` or `all`, as in the document.
    pub mode: &'static str,
    /// With `--clearance`: the clearance D (model units).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clearance: Option<f64>,
    /// The counts over every pose.
    pub totals: CollideTotals,
}

/// The answer of one query, contact or clearance, counted over the
/// stacks' copies (a pair of unique triangles stands for every pair of
/// their copies).
struct Found {
    /// Some pair meets (within the clearance, with one).
    any: bool,
    /// Some pair meets (distance 0).
    touching: bool,
    /// The pairs, copies counted.
    count: u64,
    /// The pairs listed (when asked), as indices into the flattened
    /// meshes, sorted.
    pairs: Vec<ClosePair>,
    box_tests: u64,
    triangle_tests: u64,
}

/// Why a pose's pairs were not listed.
#[derive(Clone, Copy, Debug)]
enum Unlisted {
    /// More than `max_pairs`.
    TooMany,
    /// The allocator refused room for this many.
    NoMemory(u64),
}

/// Collides, or asks for the pairs within the clearance, on the trees of
/// unique triangles. Every pair is counted (copies multiplied); pairs are
/// kept only with `list_pairs`, at most `max_pairs` of them: more stops
/// the query, as does an allocator that refuses room for them. Memory
/// beyond the trees: the pairs listed.
fn answer(
    a: &Side,
    b: &Side,
    pose: &Pose,
    mode: ContactMode,
    opts: &CollideOptions,
) -> std::result::Result<Found, Unlisted> {
    let (mut count, mut touching, mut over) = (0u64, false, None);
    let mut pairs = Vec::new();
    let mut visit = |p: ClosePair| {
        let (ca, cb) = (a.stacks.copies(p.a), b.stacks.copies(p.b));
        count += ca.len() as u64 * cb.len() as u64;
        touching |= p.distance == 0.0;
        if opts.list_pairs {
            if count > opts.max_pairs as u64 {
                over = Some(Unlisted::TooMany);
                return true;
            }
            if pairs.try_reserve(ca.len() * cb.len()).is_err() {
                over = Some(Unlisted::NoMemory(count));
                return true;
            }
            for &i in ca {
                pairs.extend(cb.iter().map(|&j| ClosePair { a: i, b: j, ..p }));
            }
        }
        mode == ContactMode::First
    };
    let (box_tests, triangle_tests) = match opts.clearance {
        None => collide_each(&a.tree, &b.tree, pose, mode, |i, j| {
            visit(ClosePair {
                a: i,
                b: j,
                distance: 0.0,
            })
        }),
        Some(d) => within_each(&a.tree, &b.tree, pose, d, mode, visit),
    };
    if let Some(why) = over {
        return Err(why);
    }
    pairs.sort_unstable_by_key(|p| (p.a, p.b));
    Ok(Found {
        any: count > 0,
        touching,
        count,
        pairs,
        box_tests,
        triangle_tests,
    })
}
