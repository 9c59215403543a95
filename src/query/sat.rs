//! The separating-axis test for two oriented boxes (Gottschalk's 15 axes),
//! in `f32` on 4-lane SIMD vectors.
//!
//! The tree's node boxes are `f32` ([`NodeBox`]), so a test reads half the
//! memory of `f64` boxes, and each group of three axes (A's faces, B's faces,
//! A's edge `i` crossed with B's three edges) is one vector comparison. The
//! answer stays conservative — boxes that touch or overlap are never reported
//! separated — because every interval is widened by a slack that bounds the
//! `f32` rounding ([`slack_for`]).

use crate::fit::Obb;
use crate::tree::NodeBox;
use nalgebra::{Matrix3, Point3, UnitQuaternion, Vector3};
use wide::f32x4;

/// Padding added to every `|R_ij|` so that a cross-product axis of two
/// nearly parallel edges, whose computed length is rounding noise, can never
/// declare separation (Ericson, *Real-Time Collision Detection* §4.4.1; PQP
/// and coal do the same). About 8 `f32` ulps of 1.
const ABS_R_EPS: f32 = 1e-6;

/// Lanes 0–2 of a comparison mask (lane 3 is padding).
const XYZ: u32 = 0b0111;

/// The rotation and translation that place B's boxes in A's frame, in the
/// lanes the SAT reads: `columns[k]` is column `k` of R.
#[derive(Clone, Copy, Debug)]
pub struct Placement32 {
    columns: [f32x4; 3],
    translation: f32x4,
}

impl Placement32 {
    /// The placement `v → R·v + t` rounded to `f32`.
    pub fn new(rotation: &Matrix3<f64>, translation: &Vector3<f64>) -> Placement32 {
        let lanes = |v: Vector3<f64>| f32x4::new([v.x as f32, v.y as f32, v.z as f32, 0.0]);
        Placement32 {
            columns: std::array::from_fn(|k| lanes(rotation.column(k).into_owned())),
            translation: lanes(*translation),
        }
    }

    /// `R·v` for `v` given by its three coordinates.
    #[inline(always)]
    fn rotate(&self, x: f32, y: f32, z: f32) -> f32x4 {
        self.columns[0] * x + self.columns[1] * y + self.columns[2] * z
    }

    /// Node box `b` placed: its centre and axes in A's frame.
    #[inline]
    pub fn place(&self, b: &NodeBox) -> PlacedBox {
        let [cx, cy, cz, _] = b.center;
        let [x, y, z] = &b.rows;
        PlacedBox {
            center: self.rotate(cx, cy, cz) + self.translation,
            axes: std::array::from_fn(|j| self.rotate(x[j], y[j], z[j])),
            half_extents: f32x4::new(b.half_extents),
        }
    }
}

/// A box of B placed in A's frame: centre, axes (each `(x, y, z, 0)`) and
/// half extents.
#[derive(Clone, Copy, Debug)]
pub struct PlacedBox {
    center: f32x4,
    axes: [f32x4; 3],
    half_extents: f32x4,
}

impl PlacedBox {
    /// The squared length of the half-extent vector (the half diagonal).
    #[inline]
    pub fn half_diagonal2(&self) -> f32 {
        (self.half_extents * self.half_extents).reduce_add()
    }
}

/// The three lanes of `v`, each broadcast.
#[inline(always)]
fn broadcast(v: f32x4) -> [f32x4; 3] {
    let a = v.to_array();
    [f32x4::splat(a[0]), f32x4::splat(a[1]), f32x4::splat(a[2])]
}

/// `(v1, v2, v0, ·)`: lane `j` holds `v[j + 1 mod 3]`.
#[inline(always)]
fn rot1(v: f32x4) -> f32x4 {
    let a = v.to_array();
    f32x4::new([a[1], a[2], a[0], 0.0])
}

/// `(v2, v0, v1, ·)`: lane `j` holds `v[j + 2 mod 3]`.
#[inline(always)]
fn rot2(v: f32x4) -> f32x4 {
    let a = v.to_array();
    f32x4::new([a[2], a[0], a[1], 0.0])
}

/// Whether box `a` (in A's frame) and the placed box `b` overlap, with every
/// interval widened by `slack` (from [`slack_for`]); touching counts.
///
/// With `R = Aᵀ·B` (`R_ij = aᵢ·bⱼ`) and `T = Aᵀ·(c_B − c_A)`, the 15
/// candidate axes are A's 3 face normals, B's 3 and the 9 cross products
/// `aᵢ × bⱼ`; on each axis `L` the boxes are separated when
/// `|T·L| > r_A(L) + r_B(L) + slack`, where the radii use `|R_ij| + 1e-6`.
/// A's faces are tested first (they separate most often), then the other 12
/// axes at once.
///
/// Conservative: with the slack of [`slack_for`], the `f32` rounding of the
/// data and of this arithmetic cannot make touching or overlapping boxes
/// test separated. Disjoint boxes closer than the slack may test
/// overlapping, which only costs the caller a descent. Flat boxes (a zero
/// half extent) are handled: the test is the same SAT on a degenerate box.
#[inline]
pub fn overlap(a: &NodeBox, b: &PlacedBox, slack: f32) -> bool {
    let rows = a.rows.map(f32x4::new);
    let ea = f32x4::new(a.half_extents);
    let eb = b.half_extents;
    let s = f32x4::splat(slack);
    let eps = f32x4::splat(ABS_R_EPS);
    let [d0, d1, d2] = broadcast(b.center - f32x4::new(a.center));
    // Lane i: T_i = aᵢ·d.
    let t = rows[0] * d0 + rows[1] * d1 + rows[2] * d2;
    // Column j of R (lane i: aᵢ·bⱼ), and its padded absolute value.
    let rc = b.axes.map(|axis| {
        let [x, y, z] = broadcast(axis);
        rows[0] * x + rows[1] * y + rows[2] * z
    });
    let arc = rc.map(|c| c.abs() + eps);
    let [eb0, eb1, eb2] = broadcast(eb);
    // A's face normals (lane i).
    let rb = arc[0] * eb0 + arc[1] * eb1 + arc[2] * eb2;
    if t.abs().simd_gt(ea + rb + s).to_bitmask() & XYZ != 0 {
        return false;
    }
    // Rows of R (lane j: aᵢ·bⱼ); lane 3 of every row is 0.
    let [r0, r1, r2, _] = f32x4::transpose([rc[0], rc[1], rc[2], f32x4::ZERO]);
    let r = [r0, r1, r2];
    let ar = r.map(|row| row.abs() + eps);
    let [t0, t1, t2] = broadcast(t);
    let tb = [t0, t1, t2];
    let [ea0, ea1, ea2] = broadcast(ea);
    let eas = [ea0, ea1, ea2];
    // B's face normals (lane j): |T·bⱼ| vs Σᵢ eaᵢ|R_ij| + ebⱼ.
    let tl = r[0] * t0 + r[1] * t1 + r[2] * t2;
    let ra = ar[0] * ea0 + ar[1] * ea1 + ar[2] * ea2;
    let mut separated = tl.abs().simd_gt(ra + eb + s);
    // Cross products aᵢ × bⱼ (lane j). Each box contributes its two *half*
    // extents perpendicular to the edge it supplies.
    let (eb_1, eb_2) = (rot1(eb), rot2(eb));
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let ra = ar[i2] * eas[i1] + ar[i1] * eas[i2];
        let rb = eb_1 * rot2(ar[i]) + eb_2 * rot1(ar[i]);
        let tl = r[i1] * tb[i2] - r[i2] * tb[i1];
        separated |= tl.abs().simd_gt(ra + rb + s);
    }
    separated.to_bitmask() & XYZ == 0
}

/// The interval padding for a test whose boxes, centres and placement stay
/// within `scale` of the origin in every coordinate (for a query, A's largest
/// absolute coordinate, twice B's — a rotation can stretch a coordinate by
/// up to √3 — and the largest translation component): 256 `f32` ulps of it.
///
/// Every quantity compared is a sum of at most six products of a coordinate
/// difference or half extent (each below about `2√3·scale`) with an `R`
/// entry (below 1); rounding the boxes, the placement and each operation to
/// `f32` moves it by a few ulps per term, which this bounds with room to
/// spare. Boxes in models of about `1e30` units or more overflow `f32`: the
/// tests then answer "overlap" (never wrongly "separated"), so queries stay
/// correct but lose their pruning.
pub fn slack_for(scale: f64) -> f32 {
    (256.0 * f32::EPSILON as f64 * scale) as f32
}

/// Whether two `f64` boxes in the same frame overlap (touching counts): both
/// rounded outwards to `f32` node boxes ([`NodeBox::about`] the frame's
/// origin) and tested by
/// [`overlap`], with its conservative guarantees.
pub fn obb_overlap(a: &Obb, b: &Obb) -> bool {
    let scale = a.center.coords.amax()
        + b.center.coords.amax()
        + a.half_extents.amax()
        + b.half_extents.amax();
    let identity = Placement32::new(&UnitQuaternion::identity().into(), &Vector3::zeros());
    overlap(
        &NodeBox::about(a, &Point3::origin()),
        &identity.place(&NodeBox::about(b, &Point3::origin())),
        slack_for(scale),
    )
}
