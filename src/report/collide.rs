//! `bvtool collide` and `bvtool verify`: the answers at each pose.

use super::table::{Scaled, Table, num};
use super::{median, timed};
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

/// The two lines that open a pair query's text: each file, its triangles
/// and its tree's build time.
pub(crate) fn pair_header(a: &SideJson, b: &SideJson, build_ms: &BuildMs) -> String {
    format!(
        "A {} ({} triangles, tree {} ms)\nB {} ({} triangles, tree {} ms)\n",
        a.file,
        a.triangles,
        num(build_ms.a, 3),
        b.file,
        b.triangles,
        num(build_ms.b, 3)
    )
}

/// How pose numbers print: translations to 6 significant digits of the
/// largest, quaternions to 5 decimals (noise below either prints as 0).
pub(crate) fn pose_numbers<'p>(poses: impl Iterator<Item = &'p PoseJson>) -> (Scaled, Scaled) {
    let largest = poses
        .flat_map(|p| p.translation)
        .fold(0.0, |m: f64, x| m.max(x.abs()));
    (Scaled::new(largest, 6), Scaled::new(1.0, 6))
}

/// The title of a picture of two meshes at the first of `poses`: the
/// files, the pose, and the `answer` line.
pub(crate) fn pair_title(a: &str, b: &str, poses: &[&PoseJson], answer: String) -> Vec<String> {
    let (len, unit) = pose_numbers(poses.iter().copied());
    let p = poses[0];
    vec![
        format!("A {}  x  B {}", file_name(a), file_name(b)),
        format!(
            "B at translation ({}), rotation ({}) (x, y, z, w)",
            short(&len, &p.translation),
            short(&unit, &p.rotation)
        ),
        answer,
    ]
}

/// Numbers joined by commas, trailing zeros after the point dropped.
fn short(scale: &Scaled, xs: &[f64]) -> String {
    xs.iter()
        .map(|&x| {
            let s = scale.num(x);
            if s.contains('.') {
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The last component of a path as given (the whole string if it has none).
fn file_name(file: &str) -> &str {
    std::path::Path::new(file)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(file)
}

/// A triangle named as its file names it.
pub fn triangle_name(s: &TriangleSource) -> String {
    let mut out = String::new();
    if let Some(n) = s.node {
        out += &format!("node {n} ");
        if s.instance > 0 {
            out += &format!("instance {} ", s.instance);
        }
    }
    out + &format!(
        "mesh {} primitive {} triangle {}",
        s.mesh, s.primitive, s.triangle
    )
}

impl CollideDoc {
    /// Whether every parry3d disagreement is explained (true without `--check`).
    pub fn checks_ok(&self) -> bool {
        self.poses
            .iter()
            .filter_map(|p| p.check.as_ref())
            .all(PoseCheck::ok)
    }

    fn pose_numbers(&self) -> (Scaled, Scaled) {
        pose_numbers(self.poses.iter().map(|p| &p.pose))
    }

    /// The totals line after many poses: how many touch, the pairs found,
    /// and the query time (total and median per pose).
    pub fn totals(&self) -> String {
        let n = self.poses.len();
        let touching = self
            .poses
            .iter()
            .filter(|p| p.intersecting == Some(true))
            .count();
        let pairs: Option<usize> = self.poses.iter().map(|p| p.pair_count).sum();
        let us: Vec<f64> = self.poses.iter().map(|p| p.query_us).collect();
        format!(
            "total: {n} poses, {touching} touching, {} apart{}; queries {} ms in all, median {} µs per pose\n",
            n - touching,
            pairs.map_or(String::new(), |k| format!(", {k} triangle pairs")),
            num(us.iter().sum::<f64>() / 1e3, 3),
            num(median(us), 3),
        )
    }

    /// The title of the picture of the first pose, where `pairs` triangle
    /// pairs intersect (or, with a clearance, come within it): the files,
    /// the pose and the answer.
    pub fn picture_title(&self, pairs: usize) -> Vec<String> {
        let p = &self.poses[0];
        let answer = match (self.clearance, p.within) {
            (Some(d), Some(true)) => format!(
                "within {}: {pairs} triangle pairs",
                self.pose_numbers().0.num(d)
            ),
            (Some(d), _) => format!(
                "not within {}: no triangle pair comes that close",
                self.pose_numbers().0.num(d)
            ),
            _ if p.intersecting == Some(true) => {
                format!("touching: {pairs} intersecting triangle pairs")
            }
            _ => "apart: no triangle pair intersects".into(),
        };
        pair_title(
            &self.a.file,
            &self.b.file,
            &self.poses.iter().map(|p| &p.pose).collect::<Vec<_>>(),
            answer,
        )
    }

    /// The human-readable form.
    pub fn to_text(&self) -> String {
        let mut out = pair_header(&self.a, &self.b, &self.build_ms);
        let within = match self.clearance {
            Some(d) => format!("within {}", num(d, 4)),
            None => String::new(),
        };
        let mut t = Table::new(&[
            "pose",
            "translation",
            "rotation (x,y,z,w)",
            "touching",
            &within,
            "pairs",
            "box tests",
            "tri tests",
            "µs",
            "parry3d",
        ]);
        let (len, unit) = self.pose_numbers();
        for p in &self.poses {
            t.row(vec![
                p.index.to_string(),
                short(&len, &p.pose.translation),
                short(&unit, &p.pose.rotation),
                yes_no(p.intersecting),
                p.within.map_or(String::new(), |w| yes_no(Some(w))),
                p.pair_count.map_or("-".into(), |n| n.to_string()),
                p.box_tests.to_string(),
                p.triangle_tests.to_string(),
                num(p.query_us, 3),
                match &p.check {
                    None => String::new(),
                    Some(c) if c.agrees && c.differing_pairs.unwrap_or(0) == 0 => "agrees".into(),
                    Some(c) if c.parry_false_positive.is_some() => {
                        "differs: parry3d false positive".into()
                    }
                    Some(c) if c.ok() => "differs: f32 touching case".into(),
                    Some(_) => "DISAGREES".into(),
                },
            ]);
        }
        out += &t.render(0);
        if self.poses.len() > 1 {
            out += &self.totals();
        }
        for p in &self.poses {
            for pair in p.pairs.iter().flatten() {
                out += &format!(
                    "  pose {}: A {}  x  B {}{}\n",
                    p.index,
                    triangle_name(&pair.a),
                    triangle_name(&pair.b),
                    pair.distance
                        .map_or(String::new(), |d| format!("  distance {}", num(d, 6)))
                );
            }
        }
        out
    }
}

/// `yes`, `no`, or `?` when the query did not decide.
fn yes_no(b: Option<bool>) -> String {
    match b {
        Some(true) => "yes".into(),
        Some(false) => "no".into(),
        None => "?".into(),
    }
}
