//! `bvtool verify --distance`'s agreement table.

use super::table::{Table, count, num};
use crate::batch::verify_distance::{DistanceVerifyDoc, Tally};

impl DistanceVerifyDoc {
    /// The references that disagree with bvtool, each with its count of
    /// poses, brute force first.
    fn dissenters(&self) -> Vec<(String, usize)> {
        let brute = self
            .brute_force
            .map(|t| ("brute force".to_string(), t.disagree));
        brute
            .into_iter()
            .chain([("parry3d".to_string(), self.parry3d.disagree)])
            .chain(self.peers.iter().map(|(e, t)| (e.clone(), t.disagree)))
            .filter(|(_, n)| *n > 0)
            .collect()
    }

    /// Why the verification fails, or `None`. Brute force is exact (every
    /// triangle pair, exact predicates): where it ran and agrees on every
    /// pose, another reference's disagreement is that reference's error and
    /// not a failure; where it disagrees, or did not run and another
    /// reference disagrees, bvtool's answer is in doubt.
    pub fn failure(&self) -> Option<String> {
        let dissent = self.dissenters();
        let named = |d: &[(String, usize)]| {
            d.iter()
                .map(|(e, n)| format!("{e} on {}", count(*n, "pose")))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self.brute_force {
            Some(t) if t.disagree > 0 => Some(format!(
                "brute force (exact) disagrees with bvtool's distance: {}",
                named(&dissent)
            )),
            None if !dissent.is_empty() => Some(format!(
                "disagreements that brute force could not settle (too many triangle pairs): {}",
                named(&dissent)
            )),
            _ => None,
        }
    }

    /// The verdict line: who agrees, who dissents, and who settles it.
    fn verdict(&self) -> String {
        let dissent = self.dissenters();
        if let Some(f) = self.failure() {
            return format!("verdict: FAILED: {f}\n");
        }
        if dissent.is_empty() {
            return "verdict: every reference agrees with bvtool on every pose\n".into();
        }
        let named: Vec<String> = dissent
            .iter()
            .map(|(e, n)| format!("{e} dissents on {}", count(*n, "pose")))
            .collect();
        format!(
            "verdict: passed: {}; brute force (exact) agrees with bvtool on every pose, so the dissent is the reference's\n",
            named.join(", ")
        )
    }

    /// The agreement table.
    pub fn to_text(&self) -> String {
        let mut t = Table::new(&["reference", "agrees", "disagrees"]);
        let mut row = |name: &str, tally: &Tally| {
            t.row(vec![
                name.into(),
                tally.agree.to_string(),
                tally.disagree.to_string(),
            ])
        };
        match &self.brute_force {
            Some(tally) => row("brute force (every triangle pair)", tally),
            None => row(
                "brute force (skipped: too many triangle pairs)",
                &Tally::default(),
            ),
        }
        row("parry3d (f32, within its tolerance)", &self.parry3d);
        for (engine, tally) in &self.peers {
            row(&format!("{engine} (within 1e-9 relative)"), tally);
        }
        let mut out = format!(
            "A {} ({}) vs B {} ({}), {} (seed {}), {} touching\n{}",
            self.a.file,
            count(self.a.triangles, "triangle"),
            self.b.file,
            count(self.b.triangles, "triangle"),
            count(self.poses.len(), "pose"),
            self.seed,
            self.touching,
            t.render(2)
        );
        if !self.peers.is_empty() {
            out += &format!(
                "largest relative difference to a peer on poses both find apart: {}\n",
                num(self.peers_worst_relative, 3)
            );
        }
        out += &self.verdict();
        out
    }
}
