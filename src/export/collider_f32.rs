//! A collider's geometry in `f32`, rounded outwards: what the binary, C
//! and glTF forms store, computed once here for all three.
//!
//! A box keeps its `f32` centre, the `f32` quaternion (x, y, z, w) of its
//! axes, and half extents measured along the axes of that rounded
//! quaternion and rounded outwards ([`f32box::obb_with_axes`]); spheres,
//! capsules, cylinders and convex polytopes are rounded by
//! [`f32box::ball`], [`f32box::round`] and [`f32box::polytope`]. Each holds
//! every point its `f64` geometry holds, so every vertex it bounds.

use super::collider::Geometry;
use super::f32box::{self, ObbF32, RoundF32, SphereF32};
use super::volume_records::ObbDoc;

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

/// A collider box as the exports store it: rotation (x, y, z, w) and the
/// `f32` box along that rotation's axes.
pub fn collider_box(b: &ObbDoc) -> ([f64; 4], ObbF32) {
    let (rotation, axes) = f32box::rounded_rotation(b.rotation_xyzw);
    (rotation, f32box::obb_with_axes(b, axes))
}

/// `g` rounded outwards to `f32`.
pub fn rounded(g: &Geometry) -> ColliderF32 {
    match g {
        Geometry::Box(b) => {
            let (rotation_xyzw, obb) = collider_box(b);
            ColliderF32::Box { rotation_xyzw, obb }
        }
        Geometry::Sphere { center, radius } => ColliderF32::Sphere(f32box::ball(*center, *radius)),
        Geometry::Capsule {
            center,
            axis,
            radius,
            half_length,
            rotation_xyzw,
        } => ColliderF32::Capsule(f32box::round(
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
        } => ColliderF32::Cylinder(f32box::round(
            *center,
            *axis,
            *rotation_xyzw,
            *radius,
            *half_height,
            true,
        )),
        Geometry::Convex { vertices, faces } => ColliderF32::Convex {
            vertices: f32box::polytope(vertices),
            faces: faces.clone(),
        },
    }
}

/// Convex polygons fanned into triangles (each polygon from its first
/// vertex; orientation kept).
pub fn fan(faces: &[Vec<u32>]) -> Vec<[u32; 3]> {
    faces
        .iter()
        .flat_map(|f| (1..f.len().saturating_sub(1)).map(move |k| [f[0], f[k], f[k + 1]]))
        .collect()
}
