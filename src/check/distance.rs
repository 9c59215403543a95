//! `bvtool distance --check` and `verify --distance`: the tree's minimum
//! distance against brute force over every triangle pair (the same exact
//! triangle distance, so equal up to its rounding bound) and against
//! parry3d's `f32` mesh–mesh distance.
//!
//! parry3d rounds coordinates to `f32` and runs GJK per triangle pair, so it
//! can only agree to within `f32` rounding of the models' size
//! ([`super::collide::tolerance`]) plus GJK's own relative tolerance; it
//! covers every pose (its BVH prunes like ours), but cannot say whether the
//! meshes touch exactly, and its nearest points are not compared.

use super::collide::tolerance;
use crate::TriMesh;
use crate::check::parry::ParryPair;
use crate::pose::Pose;
use crate::query::{Distance, brute_force_distance};
use serde::Serialize;

/// Brute force is run when the meshes have at most this many triangle pairs
/// (a few thousand triangles each; a second or so on two threads).
pub const BRUTE_FORCE_MAX_PAIRS: usize = 25_000_000;

/// parry3d's GJK stops within this relative tolerance of the distance.
const GJK_RELATIVE: f64 = 1e-5;

/// The checks of one pose.
#[derive(Clone, Debug, Serialize)]
pub struct DistanceCheck {
    /// Brute force's distance (`null` for meshes with more than
    /// [`BRUTE_FORCE_MAX_PAIRS`] triangle pairs).
    pub brute_force: Option<f64>,
    /// Whether brute force's distance is within both answers' rounding
    /// bounds of the tree's, and their "intersecting" equal.
    pub brute_force_agrees: Option<bool>,
    /// parry3d's distance.
    pub parry: Option<f64>,
    /// How far parry3d may be from the exact answer (model units).
    pub parry_tolerance: f64,
    /// Whether parry3d is within that tolerance.
    pub parry_agrees: bool,
}

impl DistanceCheck {
    /// Whether the tree's answer stands: brute force (exact) agrees, or,
    /// where brute force did not run, parry3d agrees. A parry3d dissent
    /// where brute force agrees is parry3d's error.
    pub fn ok(&self) -> bool {
        self.brute_force_agrees.unwrap_or(self.parry_agrees)
    }
}

/// A checker for one pair of meshes.
pub struct DistanceChecker<'a> {
    a: &'a TriMesh,
    b: &'a TriMesh,
    parry: ParryPair,
}

impl<'a> DistanceChecker<'a> {
    /// Prepares parry3d's copies of both meshes.
    pub fn new(a: &'a TriMesh, b: &'a TriMesh) -> Result<Self, String> {
        Ok(DistanceChecker {
            a,
            b,
            parry: ParryPair::new(a, b)?,
        })
    }

    /// Checks the tree's answer `ours` at `pose`.
    pub fn check(&self, pose: &Pose, ours: &Distance) -> DistanceCheck {
        let small = self.a.triangles.len() * self.b.triangles.len() <= BRUTE_FORCE_MAX_PAIRS;
        let brute = small
            .then(|| brute_force_distance(self.a, self.b, pose))
            .flatten();
        let parry = self.parry.distance(pose);
        let parry_tolerance = tolerance(self.a, self.b, pose) + GJK_RELATIVE * ours.distance;
        DistanceCheck {
            brute_force: brute.map(|d| d.distance),
            brute_force_agrees: brute.map(|d| {
                d.intersecting == ours.intersecting
                    && (d.distance - ours.distance).abs() <= d.rounding_bound + ours.rounding_bound
            }),
            parry,
            parry_tolerance,
            parry_agrees: parry.is_some_and(|p| (p - ours.distance).abs() <= parry_tolerance),
        }
    }
}

/// Distances a peer (FCL, coal) reported, as `shared/peers/distance_peers.py`
/// writes them: JSON Lines `{"pose": i, "engine": name, "distance": d, …}`,
/// with `d ≤ 0` where the engine found the meshes colliding.
#[derive(Clone, Debug, Default)]
pub struct PeerDistances {
    /// `(pose index, engine, distance)`, in file order.
    pub rows: Vec<(usize, String, f64)>,
}

impl PeerDistances {
    /// Reads a `distance_peers.py` output file (lines without a `pose`, such
    /// as its summary, are skipped).
    pub fn read(path: &std::path::Path) -> crate::Result<PeerDistances> {
        let bad = |what: String| crate::Error::Input(format!("{}: {what}", path.display()));
        let bytes = crate::files::read_regular(path, None).map_err(bad)?;
        let text = String::from_utf8(bytes).map_err(|_| bad("not UTF-8".into()))?;
        let mut rows = Vec::new();
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let v: serde_json::Value =
                serde_json::from_str(line).map_err(|e| bad(format!("line {}: {e}", n + 1)))?;
            let Some(pose) = v.get("pose") else { continue };
            let row = (
                pose.as_u64().map(|p| p as usize),
                v.get("engine").and_then(|e| e.as_str()),
                v.get("distance").and_then(|d| d.as_f64()),
            );
            match row {
                (Some(p), Some(e), Some(d)) => rows.push((p, e.to_string(), d)),
                _ => {
                    return Err(bad(format!(
                        "line {}: expected {{\"pose\": index, \"engine\": name, \"distance\": number}}",
                        n + 1
                    )));
                }
            }
        }
        Ok(PeerDistances { rows })
    }
}

/// Whether a peer's distance `theirs` agrees with `ours`: both touching
/// (the peer's distance ≤ 0 or within our rounding bound of 0), or equal
/// within 1e-9 relative plus our rounding bound.
pub fn peer_agrees(ours: &Distance, theirs: f64) -> bool {
    if ours.intersecting {
        theirs <= ours.rounding_bound.max(0.0)
    } else {
        theirs > 0.0
            && (theirs - ours.distance).abs()
                <= 1e-9 * theirs.max(ours.distance) + ours.rounding_bound
    }
}
