//! `bvtool verify --distance`: the tree's distance against brute force and peers.

use super::collide::{Side, SideJson};
use crate::check::distance::{DistanceCheck, DistanceChecker, PeerDistances, peer_agrees};
use crate::error::{Error, Result};
use crate::pose::{Pose, PoseJson};
use crate::query::{DistanceOptions, DistanceScratch, distance_with};
use serde::Serialize;
use std::collections::BTreeMap;

/// One pose's answers.
#[derive(Debug, Serialize)]
pub struct DistanceVerifyPose {
    /// Position in the pose list.
    pub index: usize,
    /// The pose.
    pub pose: PoseJson,
    /// bvtool's distance.
    pub distance: f64,
    /// bvtool's exact "touching".
    pub intersecting: bool,
    /// Brute force and parry3d.
    pub check: DistanceCheck,
    /// Each peer engine's distance, when a peer file was given.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub peers: BTreeMap<String, f64>,
}

/// Agreement counts of one reference.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Tally {
    /// Poses where it agrees.
    pub agree: usize,
    /// Poses where it disagrees.
    pub disagree: usize,
}

impl Tally {
    fn count(&mut self, agrees: bool) {
        if agrees {
            self.agree += 1;
        } else {
            self.disagree += 1;
        }
    }
}

/// The `bvtool verify --distance --json` document.
#[derive(Debug, Serialize)]
pub struct DistanceVerifyDoc {
    /// Mesh A.
    pub a: SideJson,
    /// Mesh B.
    pub b: SideJson,
    /// The pose generator's seed.
    pub seed: u64,
    /// Poses where bvtool finds the meshes touching.
    pub touching: usize,
    /// Brute force (`null` for meshes too large for it).
    pub brute_force: Option<Tally>,
    /// parry3d (`f32`, within its tolerance).
    pub parry3d: Tally,
    /// Each peer engine of the peer file.
    pub peers: BTreeMap<String, Tally>,
    /// The largest relative difference to any peer on a pose both find
    /// apart.
    pub peers_worst_relative: f64,
    /// Every pose.
    pub poses: Vec<DistanceVerifyPose>,
}

/// Measures every pose and compares, calling `tick` after each (for a
/// progress bar).
pub fn run(
    a: &Side,
    b: &Side,
    poses: &[Pose],
    seed: u64,
    peers: Option<&PeerDistances>,
    tick: &(dyn Fn() + Sync),
) -> Result<DistanceVerifyDoc> {
    let checker = DistanceChecker::new(a.tree_mesh(), b.tree_mesh()).map_err(Error::Input)?;
    let mut scratch = DistanceScratch::default();
    let mut doc = DistanceVerifyDoc {
        a: a.summary(),
        b: b.summary(),
        seed,
        touching: 0,
        brute_force: None,
        parry3d: Tally::default(),
        peers: BTreeMap::new(),
        peers_worst_relative: 0.0,
        poses: Vec::with_capacity(poses.len()),
    };
    for (index, pose) in poses.iter().enumerate() {
        let d = distance_with(
            &mut scratch,
            &a.tree,
            &b.tree,
            pose,
            &DistanceOptions::default(),
        )
        .expect("both sides have triangles");
        let check = checker.check(pose, &d);
        doc.touching += usize::from(d.intersecting);
        if let Some(agrees) = check.brute_force_agrees {
            doc.brute_force.get_or_insert_default().count(agrees);
        }
        doc.parry3d.count(check.parry_agrees);
        let mut theirs = BTreeMap::new();
        for (_, engine, value) in peers.iter().flat_map(|p| &p.rows).filter(|r| r.0 == index) {
            doc.peers
                .entry(engine.clone())
                .or_default()
                .count(peer_agrees(&d, *value));
            if !d.intersecting && *value > 0.0 {
                doc.peers_worst_relative = doc
                    .peers_worst_relative
                    .max((value - d.distance).abs() / value);
            }
            theirs.insert(engine.clone(), *value);
        }
        doc.poses.push(DistanceVerifyPose {
            index,
            pose: pose.to_json(),
            distance: d.distance,
            intersecting: d.intersecting,
            check,
            peers: theirs,
        });
        tick();
    }
    Ok(doc)
}
