//! A collider's geometry in `f32`, rounded outwards: what the binary, C
//! and glTF forms store, computed once here for all three — the mapping of
//! each [`Geometry`] to its `f32` form, the rounding itself being
//! [`crate::fit::f32_outward`]'s (its guarantee: each holds every point its
//! `f64` geometry holds, so every vertex it bounds).
//!
//! A box keeps its `f32` centre, the `f32` quaternion (x, y, z, w) of its
//! axes, and half extents measured along the axes of that rounded
//! quaternion and rounded outwards ([`ObbF32::from_obb_with_axes`]).

use super::collider::Geometry;
use crate::fit::f32_outward::{self, ObbF32, RoundF32, SphereF32};

/// A collider's geometry in `f32`, in the collider's frame.
#[derive(Clone, Debug, PartialEq)]
pub enum ColliderF32 {
    /// An oriented box: its rotation (x, y, z, w; each an `f32` value) and
    /// the box, whose axes are that rotation's and whose centre is the
    /// translation.
    Box {
        /// The rounded rotation.
        rotation_xyzw: [f64; 4],
        /// The box.
        obb: ObbF32,
    },
    /// A sphere.
    Sphere(SphereF32),
    /// A capsule: `half` is half the distance between the capping spheres'
    /// centres, along the rotation's +Y.
    Capsule(RoundF32),
    /// A cylinder: `half` is half its height, along the rotation's +Y.
    Cylinder(RoundF32),
    /// A convex polytope: the hull of `vertices`; `faces` are convex
    /// polygons, counter-clockwise seen from outside.
    Convex {
        /// Vertices, grown until their hull holds the `f64` polytope.
        vertices: Vec<[f32; 3]>,
        /// Faces (vertex indices).
        faces: Vec<Vec<u32>>,
    },
}

/// `g` rounded outwards to `f32`.
pub fn rounded(g: &Geometry) -> ColliderF32 {
    match g {
        Geometry::Box(b) => {
            let (rotation_xyzw, axes) = f32_outward::rounded_rotation(b.rotation_xyzw);
            let obb = ObbF32::from_obb_with_axes(&b.to_obb(), axes);
            ColliderF32::Box { rotation_xyzw, obb }
        }
        Geometry::Sphere { center, radius } => {
            ColliderF32::Sphere(f32_outward::ball(*center, *radius))
        }
        Geometry::Capsule {
            center,
            axis,
            radius,
            half_length,
            rotation_xyzw,
        } => ColliderF32::Capsule(f32_outward::round(
            *center,
            *axis,
            *rotation_xyzw,
            *radius,
            *half_length,
            false,
        )),
        Geometry::Cylinder {
            center,
            axis,
            radius,
            half_height,
            rotation_xyzw,
        } => ColliderF32::Cylinder(f32_outward::round(
            *center,
            *axis,
            *rotation_xyzw,
            *radius,
            *half_height,
            true,
        )),
        Geometry::Convex { vertices, faces } => ColliderF32::Convex {
            vertices: f32_outward::polytope(vertices),
            faces: faces.clone(),
        },
    }
}
