//! One node of the OBB tree, its box laid out for the query.

use crate::fit::obb_f32::v64;
use crate::fit::{Obb, ObbF32};
use nalgebra::{Matrix3, Point3};

/// A node's oriented box in `f32`, laid out for 4-lane SIMD: the centre, the
/// half extents and the rows of the axis matrix each fill one 16-byte lane
/// group, the fourth lane zero.
///
/// It holds the node's `f64` box **relative to the tree's origin** (so its
/// `f32` coordinates are as small as the model, wherever the model is),
/// rounded outwards ([`ObbF32::from_obb`]): every corner of the node's
/// triangles, minus the origin, lies inside. Its axes are the `f64` axes
/// rounded to nearest (orthonormal to about 1e-7).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(16))]
pub struct NodeBox {
    /// Centre `(x, y, z, 0)`.
    pub center: [f32; 4],
    /// **Half** extents along the axes `(h0, h1, h2, 0)`.
    pub half_extents: [f32; 4],
    /// The axis matrix by rows: `rows[k][i]` is coordinate `k` of axis `i`
    /// (so the axes are the columns), `rows[k][3] = 0`.
    pub rows: [[f32; 4]; 3],
}

impl NodeBox {
    /// The conservative `f32` box, relative to `origin`, of `b`: it contains
    /// `p − origin` (exactly) for every `p` that `b` contains. Rounding the
    /// centre's offset moves it by at most `√3/2` ulps, covered by growing
    /// the half extents by two.
    pub fn about(b: &Obb, origin: &Point3<f64>) -> NodeBox {
        let c = b.center - origin;
        let relative = Obb {
            center: Point3::from(c),
            axes: b.axes,
            half_extents: b.half_extents.add_scalar(2.0 * f64::EPSILON * c.amax()),
        };
        let f = ObbF32::from_obb(&relative);
        let pad = |v: [f32; 3]| [v[0], v[1], v[2], 0.0];
        NodeBox {
            center: pad(f.center),
            half_extents: pad(f.half_extents),
            rows: std::array::from_fn(|k| pad(f.axes.map(|axis| axis[k]))),
        }
    }

    /// The box in the frame `origin` was taken from, in `f64`: it contains
    /// what this box contains, plus `origin`. Its axes are this box's `f32`
    /// axes (orthonormal to about 1e-7; containment is meant along them), its
    /// half extents grown by two ulps of the centre to cover the addition.
    pub fn to_obb_about(&self, origin: &Point3<f64>) -> Obb {
        let f = self.to_obb_f32();
        let center = v64(f.center) + origin.coords;
        Obb {
            center: Point3::from(center),
            axes: Matrix3::from_columns(&f.axes.map(v64)),
            half_extents: v64(f.half_extents).add_scalar(2.0 * f64::EPSILON * center.amax()),
        }
    }

    /// The same box in the export layout (axis `i` is `axes[i]`).
    pub fn to_obb_f32(&self) -> ObbF32 {
        let xyz = |v: [f32; 4]| [v[0], v[1], v[2]];
        ObbF32 {
            center: xyz(self.center),
            axes: std::array::from_fn(|i| self.rows.map(|row| row[i])),
            half_extents: xyz(self.half_extents),
        }
    }

    /// The squared length of the half-extent vector (the half diagonal).
    #[inline]
    pub fn half_diagonal2(&self) -> f32 {
        let h = self.half_extents;
        h[0] * h[0] + h[1] * h[1] + h[2] * h[2]
    }

    /// Volume, `8·h0·h1·h2`, in `f64`.
    pub fn volume(&self) -> f64 {
        self.half_extents[..3]
            .iter()
            .map(|&h| 2.0 * h as f64)
            .product()
    }
}

/// One node: its box (relative to the tree's origin) and the contiguous
/// range of (permuted) triangles it covers. Its first child is the next node (depth-
/// first order); the second is at `right`; a leaf has `right == 0`.
#[derive(Clone, Debug)]
pub struct Node {
    /// The box, relative to the tree's origin
    /// ([`super::ObbTree::node_box`] gives it in the mesh's frame).
    pub bx: NodeBox,
    /// First triangle (index into [`super::ObbTree::triangles`]).
    pub start: u32,
    /// Number of triangles.
    pub count: u32,
    /// Index of the second child; 0 for a leaf.
    pub right: u32,
}

impl super::flat::Linked for Node {
    fn right_mut(&mut self) -> &mut u32 {
        &mut self.right
    }
}

impl Node {
    /// Whether the node is a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.right == 0
    }
}
