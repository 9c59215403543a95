//! Clearance: which triangles of B come within a distance `D` of A.

use super::ContactMode;
use super::collide::descend;
use super::tree_pair::TreePair;
use crate::pose::Pose;
use crate::query::pair::distance_triangle_triangle::{lower_bound, triangle_distance};
use crate::tree::ObbTree;
use serde::Serialize;

/// A pair of triangles within the clearance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ClosePair {
    /// The triangle of A (index into the mesh A's tree was built from).
    pub a: u32,
    /// The triangle of B.
    pub b: u32,
    /// Their distance ([`crate::query::pair::distance_triangle_triangle`]; 0 when they meet).
    pub distance: f64,
}

/// The answer of [`within`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clearance {
    /// Whether any triangle of B comes within the clearance of A.
    pub within: bool,
    /// The pairs within the clearance, sorted by A's then B's triangle; in
    /// [`ContactMode::First`] mode at most one (the first found).
    pub pairs: Vec<ClosePair>,
    /// Box–box separating-axis tests performed.
    pub box_tests: u64,
    /// Triangle–triangle distances computed.
    pub triangle_tests: u64,
}

/// Which triangles of tree `b`, placed by `pose`, come within `clearance`
/// (≥ 0, model units) of tree `a`: the pairs whose distance is at most
/// `clearance` (touching and intersecting pairs included, at distance 0).
///
/// The descent is [`collide`](super::collide())'s, with every box test's
/// interval widened by the clearance (a node pair is pruned only when its
/// boxes are proven farther apart than that), and a leaf's triangle pair
/// is skipped when its [`lower_bound`] exceeds the clearance, else decided on
/// its triangle distance ([`triangle_distance`]: exact 0 for meeting
/// triangles, within its stated rounding bound otherwise — a pair whose
/// distance is within that bound of `clearance` may fall either side). With
/// `clearance` 0 the answer is [`collide`](super::collide())'s.
///
/// # Guarantees
/// Every pair of triangles within `clearance` of each other is found (with
/// [`ContactMode::All`]); a pair's distance carries the rounding bound of the
/// triangle distance.
///
/// ```
/// use bvtool::query::{ContactMode, within};
/// use bvtool::tree::ObbTree;
/// use bvtool::{Pose, load};
/// use nalgebra::{UnitQuaternion, Vector3};
///
/// let mesh = load::load("models/torus.obj".as_ref(), &Default::default())?.flatten();
/// let tree = ObbTree::build_default(&mesh, Default::default());
/// let pose = Pose::new(Vector3::new(2.8, 0.0, 0.0), UnitQuaternion::identity());
/// assert!(within(&tree, &tree, &pose, 0.11, ContactMode::First).within);
/// assert!(!within(&tree, &tree, &pose, 0.09, ContactMode::All).within);
/// # Ok::<(), bvtool::Error>(())
/// ```
pub fn within(
    a: &ObbTree,
    b: &ObbTree,
    pose: &Pose,
    clearance: f64,
    mode: ContactMode,
) -> Clearance {
    let mut pairs = Vec::new();
    let (box_tests, triangle_tests) = within_each(a, b, pose, clearance, mode, |p| {
        pairs.push(p);
        mode == ContactMode::First
    });
    pairs.sort_unstable_by_key(|p| (p.a, p.b));
    Clearance {
        within: !pairs.is_empty(),
        pairs,
        box_tests,
        triangle_tests,
    }
}

/// [`within`] without collecting: `visit` is called with each pair within
/// the clearance (in the descent's order) until it returns `true`, so
/// memory does not grow with the number of pairs. `mode` only orders the
/// descent. Returns the box tests and the triangle distances computed.
pub fn within_each(
    a: &ObbTree,
    b: &ObbTree,
    pose: &Pose,
    clearance: f64,
    mode: ContactMode,
    mut visit: impl FnMut(ClosePair) -> bool,
) -> (u64, u64) {
    let Some(pair) = TreePair::new(a, b, pose) else {
        return (0, 0);
    };
    let mut triangle_tests = 0;
    let box_tests = descend(&pair, clearance, mode, |sa, sb, ta, tb| {
        let (ta, tb) = (ta.corners(), tb.corners());
        if lower_bound(ta, tb, clearance) > clearance {
            return false;
        }
        triangle_tests += 1;
        let d = triangle_distance(ta, tb).distance;
        d <= clearance
            && visit(ClosePair {
                a: a.original[sa as usize],
                b: b.original[sb as usize],
                distance: d,
            })
    });
    (box_tests, triangle_tests)
}
