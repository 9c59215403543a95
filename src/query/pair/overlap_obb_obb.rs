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
        let [cx, cy, cz] = b.center();
        PlacedBox {
            center: self.rotate(cx, cy, cz) + self.translation,
            axes: std::array::from_fn(|j| {
                let [x, y, z] = b.axis(j);
                self.rotate(x, y, z)
            }),
            half_extents: b.half_extents4(),
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

    /// The squared distance between this box's centre and node box `a`'s.
    #[inline]
    pub fn center_distance2(&self, a: &NodeBox) -> f32 {
        let d = self.center - a.center4();
        (d * d).reduce_add()
    }
}

/// A box as three slabs — its axes by rows, a point of it and the
/// interval it spans along each axis from that point, widened by a slack
/// — for asking how far a triangle is from it.
#[derive(Clone, Copy, Debug)]
pub struct Slabs {
    rows: [f32x4; 3],
    center: f32x4,
    lo: f32x4,
    hi: f32x4,
}

impl Slabs {
    /// Node box `a`'s slabs (in A's frame), widened by `slack`.
    #[inline]
    pub fn of_node(a: &NodeBox, slack: f32) -> Slabs {
        let reach = a.half_extents4() + f32x4::splat(slack);
        Slabs {
            rows: a.rows4(),
            center: a.center4(),
            lo: -reach,
            hi: reach,
        }
    }

    /// Placed box `b`'s slabs, widened by `slack`.
    #[inline]
    pub fn of_placed(b: &PlacedBox, slack: f32) -> Slabs {
        let [r0, r1, r2, _] = f32x4::transpose([b.axes[0], b.axes[1], b.axes[2], f32x4::ZERO]);
        let reach = b.half_extents + f32x4::splat(slack);
        Slabs {
            rows: [r0, r1, r2],
            center: b.center,
            lo: -reach,
            hi: reach,
        }
    }

    /// Triangle `t`'s own slabs (corners as for [`Slabs::gap`]), widened by
    /// `slack`: along its longest edge, across it in its plane and along
    /// its normal — the flat box a leaf of one triangle would have, built
    /// when a query needs it rather than stored. `None` for a sliver (the
    /// sine of its angle at the longest edge under 0.1): its `f32` normal
    /// may be turned by rounding, and [`Slabs::gap`] relies on the axes
    /// being orthonormal to about 1e-6.
    #[inline]
    pub fn of_triangle(t: &[f32x4; 3], slack: f32) -> Option<Slabs> {
        let edges = [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
        let len2 = edges.map(|e| (e * e).reduce_add());
        let k = (0..3).fold(0, |k, i| if len2[i] > len2[k] { i } else { k });
        let (e0, e1) = (edges[k], edges[(k + 1) % 3]);
        let n = cross(e0, e1);
        let n2 = (n * n).reduce_add();
        // (Written so that a NaN fails too.)
        let proper = n2 > 0.01 * len2[k] * len2[(k + 1) % 3];
        if !proper {
            return None;
        }
        let u0 = e0 * f32x4::splat(len2[k].sqrt().recip());
        let u2 = n * f32x4::splat(n2.sqrt().recip());
        let u1 = cross(u2, u0);
        let [r0, r1, r2, _] = f32x4::transpose([u0, u1, u2, f32x4::ZERO]);
        let mut slabs = Slabs {
            rows: [r0, r1, r2],
            center: t[0],
            lo: f32x4::ZERO,
            hi: f32x4::ZERO,
        };
        let (p1, p2) = (slabs.along(t[1]), slabs.along(t[2]));
        let s = f32x4::splat(slack);
        slabs.lo = p1.min(p2).min(f32x4::ZERO) - s;
        slabs.hi = p1.max(p2).max(f32x4::ZERO) + s;
        Some(slabs)
    }

    /// A lower bound on the distance between triangle `t` (corners
    /// `(x, y, z, 0)` relative to the origin the boxes are relative to) and
    /// the box, less the slack; 0 when the triangle may reach the widened
    /// box. On each of the box's axes, the gap between the corners'
    /// projections and the widened slab (0 when they meet); the bound is
    /// the norm of the three. Why: in the box's frame the distance from a
    /// point `x` to the box is `√Σᵢ max(0, |xᵢ − cᵢ| − eᵢ)²`, and for every
    /// point of the triangle the i-th term is at least the i-th gap (the
    /// triangle's projection lies beyond it), so the norm of the gaps is at
    /// most the distance from any point of the triangle to the box — to
    /// anything inside it. The slack covers the `f32` rounding as in
    /// [`overlap`] (a corner's own rounding to `f32` adds half an ulp of
    /// each coordinate).
    #[inline]
    pub fn gap(&self, t: &[f32x4; 3]) -> f32 {
        let (lo, hi) = self.project(t);
        let g =
            (lo - self.hi).max(self.lo - hi).max(f32x4::ZERO) * f32x4::new([1.0, 1.0, 1.0, 0.0]);
        (g * g).reduce_add().sqrt()
    }

    /// Whether [`Slabs::gap`] is 0 (the triangle may reach the widened
    /// box), without forming the gap.
    #[inline]
    pub fn reached_by(&self, t: &[f32x4; 3]) -> bool {
        let (lo, hi) = self.project(t);
        (lo.simd_gt(self.hi) | hi.simd_lt(self.lo)).to_bitmask() & XYZ == 0
    }

    /// The interval of triangle `t`'s corners on each axis, from the
    /// slabs' point.
    #[inline(always)]
    fn project(&self, t: &[f32x4; 3]) -> (f32x4, f32x4) {
        let [p0, p1, p2] = t.map(|p| self.along(p));
        (p0.min(p1).min(p2), p0.max(p1).max(p2))
    }

    /// Point `p` on each axis, from the slabs' point (lane `i`: axis `i`).
    #[inline(always)]
    fn along(&self, p: f32x4) -> f32x4 {
        let [x, y, z] = broadcast(p - self.center);
        self.rows[0] * x + self.rows[1] * y + self.rows[2] * z
    }
}

/// A triangle's corners less `origin`, rounded to `f32` lanes
/// `(x, y, z, 0)`, for [`Slabs::gap`].
#[inline]
pub fn corners32(t: &[Point3<f64>; 3], origin: &Point3<f64>) -> [f32x4; 3] {
    t.map(|p| {
        let d = p - origin;
        f32x4::new([d.x as f32, d.y as f32, d.z as f32, 0.0])
    })
}

/// The three lanes of `v`, each broadcast.
#[inline(always)]
fn broadcast(v: f32x4) -> [f32x4; 3] {
    let a = v.to_array();
    [f32x4::splat(a[0]), f32x4::splat(a[1]), f32x4::splat(a[2])]
}

/// `a × b` on lanes 0–2 (lane 3 zero).
#[inline(always)]
fn cross(a: f32x4, b: f32x4) -> f32x4 {
    rot1(a) * rot2(b) - rot2(a) * rot1(b)
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

/// The separating-axis projections of box `a` (in A's frame) and the placed
/// box `b`: with `R = Aᵀ·B` (`R_ij = aᵢ·bⱼ`) and `T = Aᵀ·(c_B − c_A)`, the
/// 15 candidate axes are A's 3 face normals, B's 3 and the 9 cross products
/// `aᵢ × bⱼ`; on each axis `L` the *gap* is `|T·L| − r_A(L) − r_B(L)`, where
/// the radii use `|R_ij| + 1e-6`. A positive gap separates the boxes.
///
/// The gaps come in two stages so that [`overlap`] can stop after A's faces
/// (they separate most often).
struct Sat {
    ea: f32x4,
    eb: f32x4,
    t: f32x4,
    rc: [f32x4; 3],
}

impl Sat {
    /// The projections, and the gaps on A's three face normals (lane i).
    #[inline(always)]
    fn new(a: &NodeBox, b: &PlacedBox) -> (Sat, f32x4) {
        let rows = a.rows4();
        let ea = a.half_extents4();
        let eb = b.half_extents;
        let eps = f32x4::splat(ABS_R_EPS);
        let [d0, d1, d2] = broadcast(b.center - a.center4());
        // Lane i: T_i = aᵢ·d.
        let t = rows[0] * d0 + rows[1] * d1 + rows[2] * d2;
        // Column j of R (lane i: aᵢ·bⱼ), and its padded absolute value.
        let rc = b.axes.map(|axis| {
            let [x, y, z] = broadcast(axis);
            rows[0] * x + rows[1] * y + rows[2] * z
        });
        let arc = rc.map(|c| c.abs() + eps);
        let [eb0, eb1, eb2] = broadcast(eb);
        let rb = arc[0] * eb0 + arc[1] * eb1 + arc[2] * eb2;
        let gaps = t.abs() - (ea + rb);
        (Sat { ea, eb, t, rc }, gaps)
    }

    /// The gaps on the other 12 axes: B's face normals (lane j), then the
    /// cross products `aᵢ × bⱼ` for i = 0, 1, 2 (lane j).
    #[inline(always)]
    fn other_gaps(&self) -> [f32x4; 4] {
        let eps = f32x4::splat(ABS_R_EPS);
        let (ea, eb) = (self.ea, self.eb);
        // Rows of R (lane j: aᵢ·bⱼ); lane 3 of every row is 0.
        let [r0, r1, r2, _] = f32x4::transpose([self.rc[0], self.rc[1], self.rc[2], f32x4::ZERO]);
        let r = [r0, r1, r2];
        let ar = r.map(|row| row.abs() + eps);
        let tb = broadcast(self.t);
        let eas = broadcast(ea);
        // B's face normals (lane j): |T·bⱼ| vs Σᵢ eaᵢ|R_ij| + ebⱼ.
        let tl = r[0] * tb[0] + r[1] * tb[1] + r[2] * tb[2];
        let ra = ar[0] * eas[0] + ar[1] * eas[1] + ar[2] * eas[2];
        let faces_b = tl.abs() - (ra + eb);
        // Cross products aᵢ × bⱼ (lane j). Each box contributes its two *half*
        // extents perpendicular to the edge it supplies.
        let (eb_1, eb_2) = (rot1(eb), rot2(eb));
        let cross = |i: usize| {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            let ra = ar[i2] * eas[i1] + ar[i1] * eas[i2];
            let rb = eb_1 * rot2(ar[i]) + eb_2 * rot1(ar[i]);
            let tl = r[i1] * tb[i2] - r[i2] * tb[i1];
            tl.abs() - (ra + rb)
        };
        [faces_b, cross(0), cross(1), cross(2)]
    }
}

/// Whether box `a` (in A's frame) and the placed box `b` overlap, with every
/// interval widened by `slack` (from [`slack_for`]); touching counts: no
/// gap of `Sat` exceeds the slack.
///
/// Conservative: with the slack of [`slack_for`], the `f32` rounding of the
/// data and of this arithmetic cannot make touching or overlapping boxes
/// test separated. Disjoint boxes closer than the slack may test
/// overlapping, which only costs the caller a descent. Flat boxes (a zero
/// half extent) are handled: the test is the same SAT on a degenerate box.
/// A margin `m` added to the slack asks whether the boxes come within `m`
/// of each other (see [`separation`] for why a gap bounds the distance).
#[inline(always)]
pub fn overlap(a: &NodeBox, b: &PlacedBox, slack: f32) -> bool {
    let (sat, gaps) = Sat::new(a, b);
    let s = f32x4::splat(slack);
    if gaps.simd_gt(s).to_bitmask() & XYZ != 0 {
        return false;
    }
    let [g0, g1, g2, g3] = sat.other_gaps();
    (g0.simd_gt(s) | g1.simd_gt(s) | g2.simd_gt(s) | g3.simd_gt(s)).to_bitmask() & XYZ == 0
}

/// A lower bound on the distance between box `a` (in A's frame) and the
/// placed box `b`, given the `f32` rounding `slack` of the query
/// ([`slack_for`]): the largest of the norm of A's three face gaps (each
/// less the slack, and 0 when not positive), the same for B's, and the
/// largest cross-axis gap less the slack.
///
/// Why each bounds the distance. Projecting onto a unit direction never
/// lengthens a segment, so the gap between the two boxes' projections onto
/// `L/|L|`, which is `gap/|L|`, is at most their distance; cross axes have
/// `|L| = |aᵢ × bⱼ| ≤ 1`, so a positive gap is itself at most the
/// distance. On A's own axes more holds: the distance from a point `x` to
/// box A is `√Σᵢ max(0, |xᵢ − cᵢ| − eᵢ)²` in A's frame, and the i-th term is
/// at least the i-th face gap squared for every `x` of B, so the norm of the
/// three positive gaps is at most the distance (up to √3 more than their
/// largest, for boxes apart along a diagonal). The same holds with the
/// boxes' roles swapped. The axes are orthonormal up to their `f32`
/// rounding, about 1e-7, which the `|R|` padding and the slack cover, and
/// the slack takes off the rounding of the arithmetic.
///
/// A caller that only needs to know whether the bound reaches `enough`
/// gets an answer ≥ `enough` as soon as A's face axes show it, without the
/// other 12 axes (pass `f32::INFINITY` for the bound itself).
#[inline(always)]
pub fn separation(a: &NodeBox, b: &PlacedBox, slack: f32, enough: f32) -> f32 {
    let (sat, faces_a) = Sat::new(a, b);
    let s = f32x4::splat(slack);
    let norm = |gaps: f32x4| {
        // Lane 3 is padding: zero it.
        let g = (gaps - s).max(f32x4::ZERO) * f32x4::new([1.0, 1.0, 1.0, 0.0]);
        (g * g).reduce_add().sqrt()
    };
    let bound_a = norm(faces_a);
    if bound_a >= enough {
        return bound_a;
    }
    let [faces_b, g1, g2, g3] = sat.other_gaps();
    let m = g1.max(g2).max(g3).to_array();
    bound_a
        .max(norm(faces_b))
        .max(m[0].max(m[1]).max(m[2]) - slack)
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

/// Two `f64` boxes in the same frame, rounded outwards to `f32` node boxes
/// ([`NodeBox::about`] the frame's origin) as a query sees them: A's box,
/// B's placed box and the rounding slack.
fn as_query(a: &Obb, b: &Obb) -> (NodeBox, PlacedBox, f32) {
    let scale = a.center.coords.amax()
        + b.center.coords.amax()
        + a.half_extents.amax()
        + b.half_extents.amax();
    let identity = Placement32::new(&UnitQuaternion::identity().into(), &Vector3::zeros());
    (
        NodeBox::about(a, &Point3::origin()),
        identity.place(&NodeBox::about(b, &Point3::origin())),
        slack_for(scale),
    )
}

/// Whether two `f64` boxes in the same frame overlap (touching counts), by
/// [`overlap`] with its conservative guarantees.
pub fn obb_overlap(a: &Obb, b: &Obb) -> bool {
    let (na, pb, slack) = as_query(a, b);
    overlap(&na, &pb, slack)
}

/// A lower bound on the distance between two `f64` boxes in the same frame,
/// by [`separation`] with its guarantees.
pub fn obb_separation(a: &Obb, b: &Obb) -> f32 {
    let (na, pb, slack) = as_query(a, b);
    separation(&na, &pb, slack, f32::INFINITY)
}
