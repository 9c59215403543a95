//! `bvtool verify`'s agreement table.

use super::table::{Table, count};
use crate::batch::verify::VerifyDoc;

impl VerifyDoc {
    /// Unexplained disagreements.
    pub fn unexplained(&self) -> usize {
        self.only_bvtool[1] + self.only_parry3d[1]
    }

    /// The agreement table.
    pub fn to_text(&self) -> String {
        let mut t = Table::new(&["", "parry3d: touching", "parry3d: apart"]);
        let split = |x: [usize; 2]| {
            if x[1] > 0 {
                format!("{} ({} UNEXPLAINED)", x[0] + x[1], x[1])
            } else if x[0] > 0 {
                format!("{} (explained)", x[0])
            } else {
                "0".into()
            }
        };
        t.row(vec![
            "bvtool: touching".into(),
            self.both_touching.to_string(),
            split(self.only_bvtool),
        ]);
        t.row(vec![
            "bvtool: apart".into(),
            split(self.only_parry3d),
            self.both_apart.to_string(),
        ]);
        format!(
            "A {} ({}) vs B {} ({}), {} near the contact boundary (seed {})\n{}agreement: {} of {} poses{}\n",
            self.a.file,
            count(self.a.triangles, "triangle"),
            self.b.file,
            count(self.b.triangles, "triangle"),
            count(self.poses.len(), "pose"),
            self.seed,
            t.render(2),
            self.both_touching + self.both_apart,
            self.poses.len(),
            if self.unexplained() == 0 && self.both_touching + self.both_apart < self.poses.len() {
                "; every disagreement is explained"
            } else {
                ""
            }
        ) + &if self.parry_false_positives > 0 {
            format!(
                "  of those, {} poses where parry3d names a triangle pair touching that the exact test proves apart beyond f32 rounding (parry3d false positives); the rest are touching cases within f32 rounding\n",
                self.parry_false_positives
            )
        } else {
            String::new()
        }
    }
}
