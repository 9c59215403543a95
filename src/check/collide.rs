//! `bvtool collide --check` and `bvtool verify`: parry3d asked the same
//! question, and every disagreement examined with the exact test.
//!
//! parry3d works on coordinates rounded to `f32` and decides with its own
//! tolerances; bvtool decides exactly on the `f64` coordinates. The two may
//! only disagree where the meshes are within `f32` rounding of touching. A
//! disagreement is **explained** when moving B by at most that rounding
//! (`tolerance`, along one of 26 directions: the axes, face and space
//! diagonals) flips bvtool's exact answer to parry3d's — the configuration
//! is a touching case at `f32` precision. A disagreement is also explained
//! when parry3d says "touching" and names a triangle pair that the exact test
//! finds apart, and still apart after moving B by the tolerance in every
//! probe direction: parry3d's own triangle test is wrong there (its
//! triangle–triangle `intersection_test` is known to report some clearly
//! separated pairs; see `tests/query/parry_disagreement.rs`). Anything else
//! is unexplained, and the command fails.

use crate::TriMesh;
use crate::check::parry::ParryPair;
use crate::pose::Pose;
use crate::query::Placement;
use crate::query::pair::intersect_triangle_triangle::triangles_intersect;
use crate::query::{Collision, ContactMode, collide};
use crate::tree::ObbTree;
use nalgebra::Vector3;
use serde::Serialize;

/// What parry3d said at one pose, and whether it agrees with bvtool.
#[derive(Clone, Debug, Serialize)]
pub struct PoseCheck {
    /// parry3d's `intersection_test`.
    pub parry_intersecting: bool,
    /// Whether the booleans agree.
    pub agrees: bool,
    /// For a boolean disagreement: whether it is a touching case within
    /// `f32` rounding (see the module docs). `null` when they agree.
    pub explained: Option<bool>,
    /// For a disagreement where parry3d says touching: its triangle pair
    /// `[A's, B's]` when the exact test proves that pair apart beyond `f32`
    /// rounding (a parry3d false positive).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parry_false_positive: Option<[u32; 2]>,
    /// With all pairs: parry3d's pair count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parry_pair_count: Option<usize>,
    /// With all pairs: pairs only one engine reports.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub differing_pairs: Option<usize>,
    /// With all pairs: pairs only parry3d reports that the exact test proves
    /// apart beyond `f32` rounding (parry3d false positives; explained).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parry_false_positive_pairs: Option<usize>,
    /// With all pairs: differing pairs left unexplained (pairs bvtool finds
    /// that no tolerance-sized move separates: contacts parry3d missed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unexplained_pairs: Option<usize>,
    /// The distance B was moved to probe a disagreement (model units).
    pub tolerance: f64,
}

impl PoseCheck {
    /// Whether nothing is left unexplained.
    pub fn ok(&self) -> bool {
        self.explained != Some(false) && self.unexplained_pairs.unwrap_or(0) == 0
    }
}

/// The 26 unit directions of the probe.
fn directions() -> impl Iterator<Item = Vector3<f64>> {
    (-1i32..=1)
        .flat_map(|x| (-1i32..=1).flat_map(move |y| (-1i32..=1).map(move |z| (x, y, z))))
        .filter(|&d| d != (0, 0, 0))
        .map(|(x, y, z)| Vector3::new(x as f64, y as f64, z as f64).normalize())
}

/// `pose` with B moved by `v`.
fn moved(pose: &Pose, v: Vector3<f64>) -> Pose {
    Pose::new(pose.translation + v, pose.rotation)
}

/// The `f32` rounding scale of a query: a few f32 ulps of the largest
/// coordinate either engine handles.
pub fn tolerance(a: &TriMesh, b: &TriMesh, pose: &Pose) -> f64 {
    let amax = |m: &TriMesh| {
        m.vertices
            .iter()
            .map(|v| v.coords.amax())
            .fold(0.0, f64::max)
    };
    16.0 * f32::EPSILON as f64 * (amax(a) + amax(b) + pose.translation.amax())
}

/// A checker for one pair of meshes.
pub struct Checker<'a> {
    a: &'a TriMesh,
    b: &'a TriMesh,
    ta: &'a ObbTree,
    tb: &'a ObbTree,
    parry: ParryPair,
}

impl<'a> Checker<'a> {
    /// Prepares parry3d's copies of both meshes.
    pub fn new(
        a: &'a TriMesh,
        b: &'a TriMesh,
        ta: &'a ObbTree,
        tb: &'a ObbTree,
    ) -> Result<Self, String> {
        Ok(Checker {
            a,
            b,
            ta,
            tb,
            parry: ParryPair::new(a, b)?,
        })
    }

    /// Compares bvtool's `ours` (computed at `pose`, with every pair when
    /// `all_pairs`) with parry3d.
    pub fn check(
        &self,
        pose: &Pose,
        ours: &Collision,
        all_pairs: bool,
    ) -> Result<PoseCheck, String> {
        let tol = tolerance(self.a, self.b, pose);
        let parry_intersecting = self.parry.intersects(pose);
        let agrees = parry_intersecting == ours.intersecting;
        let touching_case = !agrees
            && directions().any(|d| {
                collide(self.ta, self.tb, &moved(pose, d * tol), ContactMode::First).intersecting
                    == parry_intersecting
            });
        let parry_false_positive = if !agrees && !touching_case && parry_intersecting {
            self.parry
                .intersection(pose)
                .filter(|&(i, j)| {
                    let placed = Placement::new(pose).triangle(&self.b.triangle(j as usize));
                    !triangles_intersect(&self.a.triangle(i as usize), &placed)
                        && !self.pair_flips(pose, i, j, false, tol)
                })
                .map(|(i, j)| [i, j])
        } else {
            None
        };
        let explained = (!agrees).then_some(touching_case || parry_false_positive.is_some());
        let mut out = PoseCheck {
            parry_intersecting,
            agrees,
            explained,
            parry_false_positive,
            parry_pair_count: None,
            parry_false_positive_pairs: None,
            differing_pairs: None,
            unexplained_pairs: None,
            tolerance: tol,
        };
        if all_pairs {
            let theirs = self.parry.pairs(pose)?;
            let differing = symmetric_difference(&ours.pairs, &theirs);
            // A pair only bvtool reports is exact; unless a tolerance-sized
            // move separates it, parry3d missed a contact: unexplained. A pair
            // only parry3d reports is exactly apart: a touching case when a
            // move closes it, else a proven parry3d false positive.
            let (mut unexplained, mut false_positives) = (0, 0);
            for &(i, j, in_ours) in &differing {
                if !self.pair_flips(pose, i, j, in_ours, tol) {
                    if in_ours {
                        unexplained += 1;
                    } else {
                        false_positives += 1;
                    }
                }
            }
            out.parry_pair_count = Some(theirs.len());
            out.differing_pairs = Some(differing.len());
            out.unexplained_pairs = Some(unexplained);
            out.parry_false_positive_pairs = Some(false_positives);
        }
        Ok(out)
    }

    /// Whether moving B by `tol` along some probe direction flips the exact
    /// answer for triangle pair `(i, j)` away from `intersecting`.
    fn pair_flips(&self, pose: &Pose, i: u32, j: u32, intersecting: bool, tol: f64) -> bool {
        let ta = self.a.triangle(i as usize);
        let tb = self.b.triangle(j as usize);
        directions().any(|d| {
            let placed = Placement::new(&moved(pose, d * tol)).triangle(&tb);
            triangles_intersect(&ta, &placed) != intersecting
        })
    }
}

/// Pairs in exactly one of two sorted lists, with `true` when the pair is
/// in the first.
fn symmetric_difference(ours: &[(u32, u32)], theirs: &[(u32, u32)]) -> Vec<(u32, u32, bool)> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < ours.len() || j < theirs.len() {
        match (ours.get(i), theirs.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                out.push((a.0, a.1, true));
                i += 1;
            }
            (Some(a), None) => {
                out.push((a.0, a.1, true));
                i += 1;
            }
            (_, Some(b)) => {
                out.push((b.0, b.1, false));
                j += 1;
            }
            (None, None) => unreachable!(),
        }
    }
    out
}
