//! `bvtool collide`'s text: the pair's header, a line per pose, totals.

use super::median;
use super::table::{Scaled, Table, count, num};
use crate::batch::collide::{BuildMs, CollideDoc, SideJson};
use crate::mesh::TriangleSource;
use crate::pose::PoseJson;

/// The two lines that open a pair query's text: each file, its triangles
/// and its tree's build time.
pub(crate) fn pair_header(a: &SideJson, b: &SideJson, build_ms: &BuildMs) -> String {
    format!(
        "A {} ({}, tree {} ms)\nB {} ({}, {})\n",
        a.file,
        count(a.triangles, "triangle"),
        num(build_ms.a, 3),
        b.file,
        count(b.triangles, "triangle"),
        if build_ms.b_shares_a {
            "the same file: A's tree".to_string()
        } else {
            format!("tree {} ms", num(build_ms.b, 3))
        }
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
pub(crate) fn short(scale: &Scaled, xs: &[f64]) -> String {
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
pub(crate) fn file_name(file: &str) -> &str {
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
            .all(|c| c.ok())
    }

    fn pose_numbers(&self) -> (Scaled, Scaled) {
        pose_numbers(self.poses.iter().map(|p| &p.pose))
    }

    /// The totals line after many poses: how many touch, how many are
    /// apart, how many were not decided (a clearance query that stopped at
    /// its first pair within the clearance), how many come within the
    /// clearance, the pairs found, and the query time (total and median per
    /// pose).
    pub fn totals_line(&self) -> String {
        let t = self.totals();
        let undecided = match t.undecided {
            0 => String::new(),
            u => format!(", {u} undecided (the clearance query stopped at its first pair)"),
        };
        let within = match (self.clearance, t.within) {
            (Some(d), Some(k)) => format!(", {k} within {}", short(&Scaled::new(d, 4), &[d])),
            _ => String::new(),
        };
        let us: Vec<f64> = self.poses.iter().map(|p| p.query_us).collect();
        format!(
            "total: {}, {} touching, {} apart{undecided}{within}{}; queries {} ms in all, median {} µs per pose\n",
            count(t.poses, "pose"),
            t.touching,
            t.apart,
            t.pair_count.map_or(String::new(), |k| format!(
                ", {}",
                count(k as usize, "triangle pair")
            )),
            num(t.query_ms, 3),
            num(median(us), 3),
        )
    }

    /// The title of the picture of the first pose, where `pairs` triangle
    /// pairs intersect (or, with a clearance, come within it): the files,
    /// the pose and the answer.
    pub fn picture_title(&self, pairs: u64) -> Vec<String> {
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
            Some(d) => format!("within {}", short(&Scaled::new(d, 4), &[d])),
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
            if self.poses.iter().any(|p| p.check.is_some()) {
                "parry3d"
            } else {
                ""
            },
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
        let vector = |v: &[f64; 3]| v.map(|x| num(x, 6)).join(", ");
        for p in &self.poses {
            for pair in p.pairs.iter().flatten() {
                out += &format!(
                    "  pose {}: A {}  x  B {}{}{}\n",
                    p.index,
                    triangle_name(&pair.a),
                    triangle_name(&pair.b),
                    pair.distance
                        .map_or(String::new(), |d| format!("  distance {}", num(d, 6))),
                    match &pair.contact {
                        Some(Some(c)) => format!(
                            "  normal ({})  depth {}",
                            vector(&c.normal),
                            num(c.depth, 6)
                        ),
                        Some(None) => "  no contact plane (degenerate)".into(),
                        None => String::new(),
                    }
                );
            }
            for (k, patch) in p.patches.iter().flatten().enumerate() {
                out += &format!(
                    "  pose {}: patch {}: normal ({})  depth {}  {} corners  {} pairs\n",
                    p.index,
                    k + 1,
                    vector(&patch.normal),
                    num(patch.depth, 6),
                    patch.polygon.len(),
                    patch.pairs.len()
                );
            }
        }
        if self.poses.len() > 1 {
            out += &self.totals_line();
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
