//! `bvtool collide --to/--path`'s text: the pair, the answer, the
//! certificate.

use super::collide::{file_name, pair_header, pose_numbers, short, triangle_name};
use super::table::num;
use crate::batch::motion::MotionDoc;
use crate::pose::Pose;

impl MotionDoc {
    /// What is looked for: `contact`, or `within D` with a clearance.
    fn what(&self) -> String {
        if self.clearance > 0.0 {
            format!("within {}", num(self.clearance, 6))
        } else {
            "contact".into()
        }
    }

    /// `segment S of N, ` on a path of more than one segment, else nothing.
    fn at(&self, segment: usize) -> String {
        if self.segments > 1 {
            format!("segment {segment} of {}, ", self.segments)
        } else {
            String::new()
        }
    }

    /// The title of the picture of the motion along `path` (the poses the
    /// query was asked): the files, the motion, and the answer as the text
    /// says it (status, t, what is certified, the tolerance δ, the
    /// segment), and the least distance when asked.
    pub fn picture_title(&self, path: &[Pose]) -> Vec<String> {
        let what = self.what();
        let at = self.at(self.segment);
        let json: Vec<_> = path.iter().map(Pose::to_json).collect();
        let (len, unit) = pose_numbers(json.iter());
        let pose = |p: &crate::pose::PoseJson| {
            format!(
                "({}), rotation ({})",
                short(&len, &p.translation),
                short(&unit, &p.rotation)
            )
        };
        let motion = match &json[..] {
            [from, to] => format!("B moves from {} to {}", pose(from), pose(to)),
            _ => format!(
                "B moves along {} poses ({} segments) from {}",
                json.len(),
                json.len().saturating_sub(1),
                pose(&json[0])
            ),
        };
        let answer = match (self.status, self.t) {
            ("hit", Some(t)) => format!(
                "{what}: yes, at {at}t = {}; certified none before t = {} (tolerance {})",
                num(t, 9),
                num(self.free_until, 9),
                num(self.tol, 3)
            ),
            ("free", _) => match self.clearance > 0.0 {
                true => format!("free: never {what} on the motion (certified)"),
                false => "free: no contact on the motion (certified)".into(),
            },
            _ => format!(
                "{what}: undecided after {} distance calls; none before {at}t = {} (certified), B drawn up to there",
                self.distance_calls,
                num(self.free_until, 9)
            ),
        };
        let mut lines = vec![
            format!(
                "A {}  x  B {}",
                file_name(&self.a.file),
                file_name(&self.b.file)
            ),
            motion,
            answer,
        ];
        if let Some(l) = &self.least {
            lines.push(format!(
                "least distance: {} at {}t = {} ({})",
                num(l.distance, 9),
                self.at(l.segment),
                num(l.t, 9),
                if l.certified {
                    "certified"
                } else {
                    "not certified, call limit"
                }
            ));
        }
        lines
    }

    /// The text form: the pair's header, then what was found and what is
    /// certified.
    pub fn to_text(&self) -> String {
        let mut out = pair_header(&self.a, &self.b, &self.build_ms);
        let what = self.what();
        let at = self.at(self.segment);
        let v = |x: &[f64]| x.iter().map(|c| num(*c, 6)).collect::<Vec<_>>().join(",");
        match (self.t, &self.pose, &self.pair) {
            (Some(t), Some(pose), Some(pair)) => {
                out += &format!("{what}: yes, at {at}t = {}\n", num(t, 9));
                out += &format!(
                    "pose at t: translation {}, rotation (x,y,z,w) {}\n",
                    v(&pose.translation),
                    v(&pose.rotation)
                );
                out += &format!(
                    "triangles: A {}  B {}, distance {}\n",
                    triangle_name(&pair.a),
                    triangle_name(&pair.b),
                    num(pair.distance.unwrap_or(0.0), 6)
                );
                if let (Some(pa), Some(pb)) = (self.point_a, self.point_b) {
                    out += &format!("witness points: A {}  B {}\n", v(&pa), v(&pb));
                }
                out += &format!(
                    "certified: none before t = {} ({at}tolerance {})\n",
                    num(self.free_until, 9),
                    num(self.tol, 3)
                );
            }
            _ if self.status == "free" => {
                out += &format!("{what}: no (certified on the whole path)\n");
            }
            _ => {
                out += &format!(
                    "{what}: undecided after {} distance calls; none before {at}t = {}\n",
                    self.distance_calls,
                    num(self.free_until, 9)
                );
            }
        }
        out += &format!(
            "{} distance calls, {} ms\n",
            self.distance_calls,
            num(self.query_ms, 3)
        );
        if let Some(l) = &self.least {
            let at = self.at(l.segment);
            out += &format!(
                "least distance: {} at {at}t = {} ({}: at least {}, rounding {})\n",
                num(l.distance, 9),
                num(l.t, 9),
                if l.certified {
                    "certified"
                } else {
                    "not certified, call limit"
                },
                num(l.lower, 9),
                num(l.rounding_bound, 3)
            );
            out += &format!(
                "  triangles: A {}  B {}; witness points: A {}  B {}\n",
                triangle_name(&l.pair.a),
                triangle_name(&l.pair.b),
                v(&l.point_a),
                v(&l.point_b)
            );
            out += &format!(
                "  {} distance calls, {} ms\n",
                l.distance_calls,
                num(l.query_ms, 3)
            );
        }
        out
    }
}
