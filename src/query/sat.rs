//! The separating-axis test for two oriented boxes (Gottschalk's 15 axes).

use crate::fit::Obb;
use nalgebra::{Matrix3, Vector3};

/// Padding added to every `|R_ij|` so that a cross-product axis of two
/// nearly parallel edges, whose computed length is rounding noise, can never
/// declare separation (Ericson, *Real-Time Collision Detection* §4.4.1; PQP
/// and coal do the same).
const ABS_R_EPS: f64 = 1e-12;

/// Whether two boxes, given relative to box A, overlap: B's axes are the
/// columns of `r` (B's axes in A's frame, `Aᵀ·B`), B's centre is at `t` in A's
/// frame, and `ea`, `eb` are the half extents.
///
/// The 15 candidate axes are A's 3 face normals, B's 3 and the 9 cross
/// products of an A edge with a B edge. On each axis `L` the boxes are
/// separated when `|t·L| > r_A(L) + r_B(L) + slack`. The absolute rotation
/// terms are padded by 1e-12 and `slack` (≥ 0, in model units) widens every
/// interval, so the answer is conservative: boxes that touch or overlap are
/// never reported separated (disjoint boxes closer than the padding may be
/// reported overlapping). Flat boxes (a zero half extent) are handled: the
/// test is the same SAT on a degenerate box.
#[inline]
pub fn overlap_relative(
    r: &Matrix3<f64>,
    t: &Vector3<f64>,
    ea: &Vector3<f64>,
    eb: &Vector3<f64>,
    slack: f64,
) -> bool {
    let mut ar = [[0.0f64; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            ar[i][j] = r[(i, j)].abs() + ABS_R_EPS;
        }
    }
    // A's face normals.
    for i in 0..3 {
        let rb = eb[0] * ar[i][0] + eb[1] * ar[i][1] + eb[2] * ar[i][2];
        if t[i].abs() > ea[i] + rb + slack {
            return false;
        }
    }
    // B's face normals.
    for j in 0..3 {
        let ra = ea[0] * ar[0][j] + ea[1] * ar[1][j] + ea[2] * ar[2][j];
        let tl = t[0] * r[(0, j)] + t[1] * r[(1, j)] + t[2] * r[(2, j)];
        if tl.abs() > ra + eb[j] + slack {
            return false;
        }
    }
    // Cross products A_i × B_j. Each box contributes its two *half* extents
    // perpendicular to the edge it supplies.
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = ea[i1] * ar[i2][j] + ea[i2] * ar[i1][j];
            let rb = eb[j1] * ar[i][j2] + eb[j2] * ar[i][j1];
            let tl = t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)];
            if tl.abs() > ra + rb + slack {
                return false;
            }
        }
    }
    true
}

/// Whether two boxes in the same frame overlap (touching counts), with the
/// conservative guarantees of [`overlap_relative`]. The slack is a few ulps
/// of the coordinates' magnitude, which covers the rounding of bringing B
/// into A's frame.
pub fn obb_overlap(a: &Obb, b: &Obb) -> bool {
    let r = a.axes.transpose() * b.axes;
    let t = a.axes.transpose() * (b.center - a.center);
    let scale = a.center.coords.amax()
        + b.center.coords.amax()
        + a.half_extents.amax()
        + b.half_extents.amax();
    overlap_relative(&r, &t, &a.half_extents, &b.half_extents, slack_for(scale))
}

/// The interval padding for coordinates of magnitude up to `scale`: 64 ulps,
/// well above the few roundings of a frame change.
pub fn slack_for(scale: f64) -> f64 {
    64.0 * f64::EPSILON * scale
}
