//! `bvtool verify`: near-contact poses, bvtool's answer and parry3d's.

use super::collide::{Side, SideJson};
use crate::check::collide::Checker;
use crate::check::poses::near_boundary_with_trees;
use crate::error::{Error, Result};
use crate::pose::{Pose, PoseJson};
use crate::query::{ContactMode, collide};
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
/// [`crate::check::poses::near_boundary`]), or the given ones.
pub fn poses(a: &Side, b: &Side, n: usize, seed: u64) -> Vec<Pose> {
    near_boundary_with_trees((a.tree_mesh(), &a.tree), (b.tree_mesh(), &b.tree), n, seed)
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
    let checker =
        Checker::new(a.tree_mesh(), b.tree_mesh(), &a.tree, &b.tree).map_err(Error::Input)?;
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
