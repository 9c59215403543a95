//! `bvtool collide` and `bvtool verify`: the answers at each pose.

use super::table::{Scaled, Table, num};
use crate::check::collide::{Checker, PoseCheck};
use crate::error::{Error, Result};
use crate::mesh::{Scene, TriMesh, TriangleSource};
use crate::pose::{Pose, PoseJson};
use crate::query::{ContactMode, collide};
use crate::tree::ObbTree;
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

    /// Flattens `scene` and builds its tree (timed).
    pub fn new(file: &str, scene: &Scene) -> Result<Side> {
        let mesh = scene.flatten();
        if mesh.triangles.is_empty() {
            return Err(Error::geometry(&scene.path, "no triangles to collide"));
        }
        let t = Instant::now();
        let tree = ObbTree::build(&mesh);
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

/// An intersecting pair of triangles, each named as its file names it.
#[derive(Debug, Serialize)]
pub struct PairJson {
    /// The triangle of A.
    pub a: TriangleSource,
    /// The triangle of B.
    pub b: TriangleSource,
}

/// The answer at one pose.
#[derive(Debug, Serialize)]
pub struct PoseResult {
    /// Position in the pose list, from 0.
    pub index: usize,
    /// The pose (B's vertices map v → R·v + t into A's frame; rotation x, y, z, w).
    pub pose: PoseJson,
    /// Whether any triangle of A meets any of B (touching counts).
    pub intersecting: bool,
    /// Intersecting triangle pairs (`null` in first-contact mode).
    pub pair_count: Option<usize>,
    /// The pairs (with `--all-pairs`), sorted by A's then B's triangle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Vec<PairJson>>,
    /// Box–box tests the descent made.
    pub box_tests: u64,
    /// Exact triangle–triangle tests made.
    pub triangle_tests: u64,
    /// Query time, microseconds (trees already built).
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
    /// Ask parry3d too.
    pub check: bool,
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
        let t = Instant::now();
        let c = collide(&a.tree, &b.tree, pose, mode);
        let query_us = t.elapsed().as_secs_f64() * 1e6;
        let check = match &checker {
            Some(ch) => Some(
                ch.check(pose, &c, !opts.first_contact && opts.list_pairs)
                    .map_err(Error::Input)?,
            ),
            None => None,
        };
        results.push(PoseResult {
            index,
            pose: pose.to_json(),
            intersecting: c.intersecting,
            pair_count: (!opts.first_contact).then_some(c.pairs.len()),
            pairs: opts.list_pairs.then(|| {
                c.pairs
                    .iter()
                    .map(|&(i, j)| PairJson {
                        a: a.mesh.sources[i as usize],
                        b: b.mesh.sources[j as usize],
                    })
                    .collect()
            }),
            box_tests: c.box_tests,
            triangle_tests: c.triangle_tests,
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
        poses: results,
    })
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

    /// How pose numbers print: translations to 6 significant digits of the
    /// largest, quaternions to 5 decimals (noise below either prints as 0).
    fn pose_numbers(&self) -> (Scaled, Scaled) {
        let largest = self
            .poses
            .iter()
            .flat_map(|p| p.pose.translation)
            .fold(0.0, |m: f64, x| m.max(x.abs()));
        (Scaled::new(largest, 6), Scaled::new(1.0, 6))
    }

    /// The totals line after many poses: how many touch, the pairs found,
    /// and the query time (total and median per pose).
    pub fn totals(&self) -> String {
        let n = self.poses.len();
        let touching = self.poses.iter().filter(|p| p.intersecting).count();
        let pairs: Option<usize> = self.poses.iter().map(|p| p.pair_count).sum();
        let mut us: Vec<f64> = self.poses.iter().map(|p| p.query_us).collect();
        us.sort_by(f64::total_cmp);
        let median = if n % 2 == 1 {
            us[n / 2]
        } else {
            0.5 * (us[n / 2 - 1] + us[n / 2])
        };
        format!(
            "total: {n} poses, {touching} touching, {} apart{}; queries {} ms in all, median {} µs per pose\n",
            n - touching,
            pairs.map_or(String::new(), |k| format!(", {k} triangle pairs")),
            num(us.iter().sum::<f64>() / 1e3, 3),
            num(median, 3),
        )
    }

    /// The title of the picture of the first pose, where `pairs` triangle
    /// pairs intersect: the files, the pose and the answer.
    pub fn picture_title(&self, pairs: usize) -> Vec<String> {
        let p = &self.poses[0];
        let (len, unit) = self.pose_numbers();
        vec![
            format!(
                "A {}  x  B {}",
                file_name(&self.a.file),
                file_name(&self.b.file)
            ),
            format!(
                "B at translation ({}), rotation ({}) (x, y, z, w)",
                short(&len, &p.pose.translation),
                short(&unit, &p.pose.rotation)
            ),
            if p.intersecting {
                format!("touching: {pairs} intersecting triangle pairs")
            } else {
                "apart: no triangle pair intersects".into()
            },
        ]
    }

    /// The human-readable form.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "A {} ({} triangles, tree {} ms)\nB {} ({} triangles, tree {} ms)\n",
            self.a.file,
            self.a.triangles,
            num(self.build_ms.a, 3),
            self.b.file,
            self.b.triangles,
            num(self.build_ms.b, 3)
        );
        let mut t = Table::new(&[
            "pose",
            "translation",
            "rotation (x,y,z,w)",
            "touching",
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
                if p.intersecting { "yes" } else { "no" }.into(),
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
                    "  pose {}: A {}  x  B {}\n",
                    p.index,
                    triangle_name(&pair.a),
                    triangle_name(&pair.b)
                );
            }
        }
        out
    }
}
