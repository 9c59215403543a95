//! `bvtool distance`'s text.

use super::collide::{pair_header, pair_title, pose_numbers, short, triangle_name};
use super::median;
use super::table::{Scaled, Table, count, num};
use crate::batch::distance::CheckTally;
use crate::batch::distance::{ConvexJson, DistanceDoc, SignedJson};

impl DistanceDoc {
    /// With `--check`, who dissents: the line that says so, and whether
    /// bvtool's answers stand (brute force, exact, agrees on every pose it
    /// ran on, and parry3d agrees where brute force did not run).
    pub fn check_verdict(&self) -> Option<(String, bool)> {
        self.totals().check.map(|c| c.verdict())
    }

    /// The totals line after many poses: how many touch, the nearest pose,
    /// and the query time (total and median per pose).
    pub fn totals_line(&self) -> String {
        let t = self.totals();
        let us: Vec<f64> = self.poses.iter().map(|p| p.query_us).collect();
        format!(
            "total: {}, {} touching, {} apart; least distance {} at pose {}; queries {} ms in all, median {} µs per pose\n",
            count(t.poses, "pose"),
            t.touching,
            t.apart,
            num(t.least_distance.unwrap_or(f64::NAN), 8),
            t.least_at.unwrap_or(0),
            num(t.query_ms, 3),
            num(median(us), 3),
        )
    }

    /// The title of the picture of the first pose: the files, the pose and
    /// the distance.
    pub fn picture_title(&self) -> Vec<String> {
        let p = &self.poses[0];
        let answer = if p.intersecting {
            "touching: distance 0".to_string()
        } else {
            format!(
                "distance {} between the closest points (± {})",
                num(p.distance, 8),
                num(p.rounding_bound, 2)
            )
        };
        let poses: Vec<_> = self.poses.iter().map(|p| &p.pose).collect();
        pair_title(&self.a.file, &self.b.file, &poses, answer)
    }

    /// The human-readable form.
    pub fn to_text(&self) -> String {
        let mut out = pair_header(&self.a, &self.b, &self.build_ms);
        if self.rel_err > 0.0 || self.abs_err > 0.0 {
            out += &format!(
                "tolerance: distance ≤ (1 + {})·minimum + {}\n",
                num(self.rel_err, 4),
                num(self.abs_err, 4)
            );
        }
        let checked = self.poses.iter().any(|p| p.check.is_some());
        let mut t = Table::new(&[
            "pose",
            "translation",
            "rotation (x,y,z,w)",
            "distance",
            "touching",
            "box tests",
            "tri tests",
            "µs",
            if checked { "brute force / parry3d" } else { "" },
        ]);
        let (len, unit) = pose_numbers(self.poses.iter().map(|p| &p.pose));
        for p in &self.poses {
            t.row(vec![
                p.index.to_string(),
                short(&len, &p.pose.translation),
                short(&unit, &p.pose.rotation),
                num(p.distance, 8),
                if p.intersecting { "yes" } else { "no" }.into(),
                p.box_tests.to_string(),
                p.triangle_tests.to_string(),
                num(p.query_us, 3),
                p.check.as_ref().map_or(String::new(), |c| {
                    let agree = |a: bool| if a { "agrees" } else { "DISAGREES" };
                    format!(
                        "{} / {}",
                        c.brute_force_agrees.map_or("-", agree),
                        agree(c.parry_agrees)
                    )
                }),
            ]);
        }
        out += &t.render(0);
        for p in &self.poses {
            out += &format!(
                "  pose {}: closest A {} at ({})  B {} at ({})  ± {}\n",
                p.index,
                triangle_name(&p.triangles.a),
                short(&len, &p.point_a),
                triangle_name(&p.triangles.b),
                short(&len, &p.point_b),
                num(p.rounding_bound, 2)
            );
            if let Some(s) = &p.signed {
                out += &signed_line(p.index, s, &len, &unit);
            }
            if let Some(c) = &p.convex {
                out += &convex_line(p.index, c, &len, &unit);
            }
        }
        if self.poses.len() > 1 {
            out += &self.totals_line();
        }
        if let Some((line, _)) = self.check_verdict() {
            out += &line;
        }
        out
    }
}

/// One pose's signed answer: the value, which side protrudes and where,
/// the normal, and the bound on the depth.
fn signed_line(index: usize, s: &SignedJson, len: &Scaled, unit: &Scaled) -> String {
    let v = |x: &[f64]| short(len, x);
    let normal = s
        .normal
        .map_or("none".to_string(), |n| format!("({})", short(unit, &n)));
    let what = match s.side {
        Some(side) => {
            let (deep, other) = if side == "a" { ("A", "B") } else { ("B", "A") };
            format!(
                "{deep} protrudes {} into {other}: deep point ({}), nearest on {other} ({})",
                num(s.depth, 8),
                v(if side == "a" { &s.point_a } else { &s.point_b }),
                v(if side == "a" { &s.point_b } else { &s.point_a }),
            )
        }
        None if s.signed_distance > 0.0 => "apart".to_string(),
        None => "touching, no depth".to_string(),
    };
    format!(
        "  pose {index}: signed distance {} ({what}); normal A→B {normal}; depth within +{}{}; {} splits, {} µs\n",
        num(s.signed_distance, 8),
        num(s.bound, 2),
        if s.capped { " (split cap reached)" } else { "" },
        s.splits,
        num(s.query_us, 3),
    )
}

/// One pose's convex answer: the value, the normal, the witnesses and the
/// bound.
fn convex_line(index: usize, c: &ConvexJson, len: &Scaled, unit: &Scaled) -> String {
    let what = if c.depth > 0.0 {
        format!("overlapping: depth {}", num(c.depth, 8))
    } else if c.signed_distance > 0.0 {
        "apart".to_string()
    } else {
        "touching".to_string()
    };
    format!(
        "  pose {index}: {} signed distance {} ({what}); normal A→B ({}); A ({})  B ({}); within +{}{}; {} cells, {} µs\n",
        c.shape,
        num(c.signed_distance, 8),
        short(unit, &c.normal),
        short(len, &c.point_a),
        short(len, &c.point_b),
        num(c.bound, 2),
        if c.capped { " (cell cap reached)" } else { "" },
        c.cells,
        num(c.query_us, 3),
    )
}

impl CheckTally {
    /// The line that says who dissents, and whether bvtool's answers stand
    /// (brute force, exact, agrees on every pose it ran on, and parry3d
    /// agrees where brute force did not run).
    pub fn verdict(&self) -> (String, bool) {
        let mut parts = vec![match self.brute_force_ran {
            0 => "brute force skipped (too many triangle pairs)".to_string(),
            n => format!(
                "brute force (exact) disagrees on {} of {}",
                self.brute_force_disagrees,
                count(n, "pose")
            ),
        }];
        parts.push(format!(
            "parry3d disagrees on {} of {}",
            self.parry_disagrees,
            count(self.poses, "pose")
        ));
        let tail = if !self.ok {
            "bvtool's distance is in doubt"
        } else if self.parry_disagrees > 0 {
            "brute force agrees with bvtool wherever parry3d dissents: parry3d's error"
        } else {
            "all agree"
        };
        (format!("check: {}; {tail}\n", parts.join(", ")), self.ok)
    }
}
