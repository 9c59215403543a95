//! `bvtool verify --distance`'s agreement table.

use super::table::{Table, count, num};
use crate::batch::verify_distance::{DistanceVerifyDoc, Tally};

impl DistanceVerifyDoc {
    /// Disagreements with any reference.
    pub fn disagreements(&self) -> usize {
        self.brute_force.map_or(0, |t| t.disagree)
            + self.parry3d.disagree
            + self.peers.values().map(|t| t.disagree).sum::<usize>()
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
        out
    }
}
