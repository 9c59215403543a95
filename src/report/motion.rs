//! `bvtool collide --to/--path`'s text: the pair, the answer, the
//! certificate.

use super::collide::{pair_header, triangle_name};
use super::table::num;
use crate::batch::motion::MotionDoc;

impl MotionDoc {
    /// The text form: the pair's header, then what was found and what is
    /// certified.
    pub fn to_text(&self) -> String {
        let mut out = pair_header(&self.a, &self.b, &self.build_ms);
        let what = if self.clearance > 0.0 {
            format!("within {}", num(self.clearance, 6))
        } else {
            "contact".into()
        };
        let at = if self.segments > 1 {
            format!("segment {} of {}, ", self.segment, self.segments)
        } else {
            String::new()
        };
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
            let at = if self.segments > 1 {
                format!("segment {} of {}, ", l.segment, self.segments)
            } else {
                String::new()
            };
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
