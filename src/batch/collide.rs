//! `bvtool collide`: each pose's answer, the trees built once per file.

use super::timed;
use crate::check::collide::{Checker, PoseCheck};
use crate::error::{Error, Result};
use crate::mesh::{Scene, TriMesh, TriangleSource};
use crate::pose::{Pose, PoseJson};
use crate::query::{ClosePair, ContactMode, collide, within};
use crate::tree::{NodeFit, ObbTree};
use serde::Serialize;
use std::time::Instant;

/// One mesh of the pair, flattened and with its tree.
pub struct Side {
    /// The file as given.
    pub file: String,
    /// The flattened scene.
    pub mesh: TriMesh,
    /// Its OBB tree.
    pub tree: ObbTree,
    /// Tree build time in milliseconds.
    pub build_ms: f64,
}

impl Side {
    /// The file and its triangle count, as reported.
    pub fn summary(&self) -> SideJson {
        SideJson {
            file: self.file.clone(),
            triangles: self.mesh.triangles.len(),
        }
    }

    /// Flattens `scene` and builds its tree with node boxes fitted by `fit`
    /// (timed).
    pub fn new(file: &str, scene: &Scene, fit: NodeFit) -> Result<Side> {
        let mesh = scene.flatten();
        if mesh.triangles.is_empty() {
            return Err(Error::geometry(&scene.path, "no triangles to collide"));
        }
        let t = Instant::now();
        let tree = ObbTree::build_default(&mesh, fit);
        Ok(Side {
            file: file.to_string(),
            mesh,
            tree,
            build_ms: t.elapsed().as_secs_f64() * 1e3,
        })
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
    /// Mesh B's tree, milliseconds.
    pub b: f64,
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
    pub pair_count: Option<usize>,
    /// The pairs (with `--all-pairs`), sorted by A's then B's triangle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Vec<PairJson>>,
    /// Box–box tests the descent made.
    pub box_tests: u64,
    /// Exact triangle–triangle tests made.
    pub triangle_tests: u64,
    /// Query time, microseconds (trees already built); with `--repeat N`,
    /// the median of N runs.
    pub query_us: f64,
    /// parry3d's answer (with `--check`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<PoseCheck>,
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
}

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
    tick: &dyn Fn(),
) -> Result<CollideDoc> {
    let mode = if opts.first_contact {
        ContactMode::First
    } else {
        ContactMode::All
    };
    let checker = if opts.check {
        Some(Checker::new(&a.mesh, &b.mesh, &a.tree, &b.tree).map_err(Error::Input)?)
    } else {
        None
    };
    let mut results = Vec::with_capacity(poses.len());
    for (index, pose) in poses.iter().enumerate() {
        let (found, query_us) = timed(opts.repeat, || answer(a, b, pose, mode, opts.clearance));
        let check = match (&checker, &found) {
            (Some(ch), Found::Contact(c)) => Some(
                ch.check(pose, c, !opts.first_contact && opts.list_pairs)
                    .map_err(Error::Input)?,
            ),
            _ => None,
        };
        let (pairs, box_tests, triangle_tests) = found.pairs();
        let intersecting = match &found {
            Found::Contact(c) => Some(c.intersecting),
            Found::Close(c) if mode == ContactMode::All || !c.within => {
                Some(c.pairs.iter().any(|p| p.distance == 0.0))
            }
            Found::Close(_) => None,
        };
        results.push(PoseResult {
            index,
            pose: pose.to_json(),
            intersecting,
            within: match &found {
                Found::Close(c) => Some(c.within),
                Found::Contact(_) => None,
            },
            pair_count: (!opts.first_contact).then_some(pairs.len()),
            pairs: opts.list_pairs.then(|| {
                pairs
                    .iter()
                    .map(|p| PairJson {
                        a: a.mesh.sources[p.a as usize],
                        b: b.mesh.sources[p.b as usize],
                        distance: opts.clearance.map(|_| p.distance),
                    })
                    .collect()
            }),
            box_tests,
            triangle_tests,
            query_us,
            check,
        });
        tick();
    }
    Ok(CollideDoc {
        a: a.summary(),
        b: b.summary(),
        build_ms: BuildMs {
            a: a.build_ms,
            b: b.build_ms,
        },
        mode: if opts.first_contact { "first" } else { "all" },
        clearance: opts.clearance,
        poses: results,
    })
}

/// The answer of one query: contact, or clearance.
enum Found {
    Contact(crate::query::Collision),
    Close(crate::query::Clearance),
}

impl Found {
    /// The pairs (at distance 0 for contacts), box tests and triangle tests.
    fn pairs(&self) -> (Vec<ClosePair>, u64, u64) {
        match self {
            Found::Contact(c) => (
                c.pairs
                    .iter()
                    .map(|&(a, b)| ClosePair {
                        a,
                        b,
                        distance: 0.0,
                    })
                    .collect(),
                c.box_tests,
                c.triangle_tests,
            ),
            Found::Close(c) => (c.pairs.clone(), c.box_tests, c.triangle_tests),
        }
    }
}

/// Collides, or asks for the pairs within `clearance`.
fn answer(a: &Side, b: &Side, pose: &Pose, mode: ContactMode, clearance: Option<f64>) -> Found {
    match clearance {
        None => Found::Contact(collide(&a.tree, &b.tree, pose, mode)),
        Some(d) => Found::Close(within(&a.tree, &b.tree, pose, d, mode)),
    }
}
