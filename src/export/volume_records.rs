//! The records of the simple volumes in an export document — box, oriented
//! box, sphere — in `f64`, as `bvtool fit --json` writes them.

use crate::fit::f32_outward::{self, AabbF32, ObbF32, SphereF32};
use serde::{Deserialize, Serialize};

/// An axis-aligned box, full corners.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AabbDoc {
    /// Lowest corner.
    pub min: [f64; 3],
    /// Highest corner.
    pub max: [f64; 3],
}

/// An oriented box.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObbDoc {
    /// Fitting method (`pca`, `hull`, `fast`, `tight`); absent for tree nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// Centre.
    pub center: [f64; 3],
    /// The three unit axes, each `[x, y, z]` (right-handed; the rows here
    /// are the columns of the rotation matrix).
    pub axes: [[f64; 3]; 3],
    /// HALF extents along the axes.
    pub half_extents: [f64; 3],
    /// The rotation whose columns are the axes, quaternion `[x, y, z, w]`.
    pub rotation_xyzw: [f64; 4],
}

/// A sphere.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SphereDoc {
    /// Fitting method (`centroid`, `ritter`, `exact`).
    pub method: String,
    /// Centre.
    pub center: [f64; 3],
    /// Radius.
    pub radius: f64,
}

impl AabbDoc {
    /// The box rounded outwards to `f32` ([`f32_outward::aabb`]).
    pub fn to_f32(&self) -> AabbF32 {
        f32_outward::aabb(self.min, self.max)
    }
}

impl SphereDoc {
    /// The sphere rounded outwards to `f32` ([`f32_outward::ball`]).
    pub fn to_f32(&self) -> SphereF32 {
        f32_outward::ball(self.center, self.radius)
    }
}

impl ObbDoc {
    /// The box rounded outwards to `f32`, its axes rounded to nearest
    /// ([`ObbF32::from_obb`]).
    pub fn to_f32(&self) -> ObbF32 {
        ObbF32::from_obb(&self.to_obb())
    }

    /// A tree node's box ([`ObbTree::node_box`]: its `f32` box in the
    /// mesh's frame); its rotation is that of the nearest rotation matrix to
    /// its axes (they are orthonormal to `f32` rounding only).
    pub(super) fn from_node_box(b: &crate::fit::Obb) -> ObbDoc {
        let q = nalgebra::UnitQuaternion::from_matrix(&b.axes);
        ObbDoc {
            method: None,
            center: b.center.into(),
            axes: std::array::from_fn(|i| b.axis(i).into()),
            half_extents: b.half_extents.into(),
            rotation_xyzw: [q.i, q.j, q.k, q.w],
        }
    }

    /// The box as the crate's [`Obb`](crate::fit::Obb).
    pub fn to_obb(&self) -> crate::fit::Obb {
        crate::fit::Obb {
            center: self.center.into(),
            axes: nalgebra::Matrix3::from_columns(&self.axes.map(nalgebra::Vector3::from)),
            half_extents: self.half_extents.into(),
        }
    }
}
