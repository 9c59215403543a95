//! `bvtool verify`: bvtool and parry3d on many poses near the contact
//! boundary, and a table of where they agree.

use super::collide::{Side, SideJson};
use super::table::Table;
use crate::check::collide::Checker;
use crate::error::{Error, Result};
use crate::pose::{Pose, PoseJson};
use crate::query::{ContactMode, collide, poses::near_boundary_with_trees};
use serde::Serialize;

/// One pose's answers.
#[derive(Debug, Serialize)]
pub struct VerifyPose {
    /// Position in the pose list.
    pub index: usize,
    /// The pose.
    pub pose: PoseJson,
    /// bvtool's exact answer.
    pub bvtool: bool,
    /// parry3d's answer.
    pub parry3d: bool,
    /// For a disagreement: explained as a touching case within f32 rounding.
    pub explained: Option<bool>,
}

/// The `bvtool verify --json` document.
#[derive(Debug, Serialize)]
pub struct VerifyDoc {
    /// Mesh A.
    pub a: SideJson,
    /// Mesh B.
    pub b: SideJson,
    /// The pose generator's seed.
    pub seed: u64,
    /// Both say touching.
    pub both_touching: usize,
    /// Both say apart.
    pub both_apart: usize,
    /// Only bvtool says touching: (explained, unexplained).
    pub only_bvtool: [usize; 2],
    /// Only parry3d says touching: (explained, unexplained).
    pub only_parry3d: [usize; 2],
    /// Of the explained `only_parry3d` poses, those where parry3d named a
    /// triangle pair that the exact test proves apart (parry3d false positives).
    pub parry_false_positives: usize,
    /// Every pose.
    pub poses: Vec<VerifyPose>,
}

/// `n` near-boundary poses of `b` against `a` (see
/// [`crate::query::poses::near_boundary`]), or the given ones.
pub fn poses(a: &Side, b: &Side, n: usize, seed: u64) -> Vec<Pose> {
    near_boundary_with_trees((&a.mesh, &a.tree), (&b.mesh, &b.tree), n, seed)
}

/// Runs both engines on every pose, calling `tick` after each (for a
/// progress bar).
pub fn run(
    a: &Side,
    b: &Side,
    poses: &[Pose],
    seed: u64,
    tick: &(dyn Fn() + Sync),
) -> Result<VerifyDoc> {
    let checker = Checker::new(&a.mesh, &b.mesh, &a.tree, &b.tree).map_err(Error::Input)?;
    let mut doc = VerifyDoc {
        a: a.summary(),
        b: b.summary(),
        seed,
        both_touching: 0,
        both_apart: 0,
        only_bvtool: [0; 2],
        only_parry3d: [0; 2],
        parry_false_positives: 0,
        poses: Vec::with_capacity(poses.len()),
    };
    for (index, pose) in poses.iter().enumerate() {
        let ours = collide(&a.tree, &b.tree, pose, ContactMode::First);
        let c = checker.check(pose, &ours, false).map_err(Error::Input)?;
        let slot = usize::from(c.explained == Some(false));
        match (ours.intersecting, c.parry_intersecting) {
            (true, true) => doc.both_touching += 1,
            (false, false) => doc.both_apart += 1,
            (true, false) => doc.only_bvtool[slot] += 1,
            (false, true) => doc.only_parry3d[slot] += 1,
        }
        doc.parry_false_positives += usize::from(c.parry_false_positive.is_some());
        doc.poses.push(VerifyPose {
            index,
            pose: pose.to_json(),
            bvtool: ours.intersecting,
            parry3d: c.parry_intersecting,
            explained: c.explained,
        });
        tick();
    }
    Ok(doc)
}

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
            "A {} ({} triangles) vs B {} ({} triangles), {} poses near the contact boundary (seed {})\n{}agreement: {} of {} poses{}\n",
            self.a.file,
            self.a.triangles,
            self.b.file,
            self.b.triangles,
            self.poses.len(),
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
