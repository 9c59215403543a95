//! Reference fits: the rules game engines' editors use to fit simple
//! colliders, reimplemented from their documented behaviour (no code
//! copied), so that `compare` and the tests can show how much tighter
//! bvtool's own fits are — and whether the engines' contain the mesh.
//!
//! - **Godot** (the 3D editor's "Create Collision Shape" for a mesh that is
//!   not a primitive, since 4.4): every shape is centred on the mesh's
//!   AABB. Sphere: radius half the AABB's longest side. Capsule and
//!   cylinder: along the AABB's longest axis (ties to the earlier axis, as
//!   Godot's `get_longest_axis_index`), total height that axis's side, and
//!   radius half the side of one other axis — Y when the long axis is X,
//!   else X — whatever the third side is: neither is made to contain the
//!   mesh (godot#114542, "does not encompass mesh"). Godot keeps every
//!   radius at least 0.001 and a capsule at least as tall as its diameter;
//!   so does this. Its box is the AABB itself.
//! - **Unreal's capsule rule** (the static-mesh editor's "Add Capsule
//!   Simplified Collision"): the axis along the AABB's longest side,
//!   through its centre. Unreal then grows the radius by its own update,
//!   which does not guarantee containment; here the radius and caps are
//!   instead made to contain every point ([`capsule_on_line`]), so the
//!   volume compared is the least this axis line allows. Unreal's box is
//!   the AABB, and its k-DOPs are the exact extremes along fixed directions
//!   of the mesh frame — bvtool's mesh-frame k-DOP ([`crate::fit::Kdop`]).
//! - **The least-squares capsule** (Geometric Tools' `ContCapsule3`): the
//!   line through the points' mean along their principal axis, made to
//!   contain every point.

use crate::fit::{Aabb, Capsule, Cylinder, Sphere, capsule_on_line};
use nalgebra::{Point3, Vector3};

/// Godot's least radius and height.
const GODOT_MIN: f64 = 0.001;

/// Godot's long axis of `b` (the first of equal longest sides) and the
/// axis its radius is measured on.
fn godot_axes(b: &Aabb) -> (usize, usize) {
    let size = b.max - b.min;
    let mut long = 0;
    for k in 1..3 {
        if size[k] > size[long] {
            long = k;
        }
    }
    (long, if long == 0 { 1 } else { 0 })
}

/// Godot's sphere for a mesh of bounding box `b`.
pub fn godot_sphere(b: &Aabb) -> Sphere {
    let size = b.max - b.min;
    Sphere {
        center: b.center(),
        radius: (0.5 * size.max()).max(GODOT_MIN),
    }
}

/// Godot's capsule for a mesh of bounding box `b`.
pub fn godot_capsule(b: &Aabb) -> Capsule {
    let size = b.max - b.min;
    let (long, across) = godot_axes(b);
    let radius = (0.5 * size[across]).max(GODOT_MIN);
    Capsule {
        center: b.center(),
        axis: Vector3::ith(long, 1.0),
        radius,
        half_length: (0.5 * size[long] - radius).max(0.0),
    }
}

/// Godot's cylinder for a mesh of bounding box `b`.
pub fn godot_cylinder(b: &Aabb) -> Cylinder {
    let size = b.max - b.min;
    let (long, across) = godot_axes(b);
    Cylinder {
        center: b.center(),
        axis: Vector3::ith(long, 1.0),
        radius: 0.5 * size[across],
        half_height: 0.5 * size[long].max(GODOT_MIN),
    }
}

/// Unreal's capsule axis (the AABB's longest side, through its centre),
/// made to contain `points`. `None` for no points.
pub fn unreal_capsule(points: &[Point3<f64>]) -> Option<Capsule> {
    let b = Aabb::from_points(points)?;
    let long = (b.max - b.min).imax();
    capsule_on_line(points, &b.center(), &Vector3::ith(long, 1.0))
}

/// The least-squares capsule of `points` (their mean and principal axis
/// given), made to contain them. `None` for no points or a zero axis.
pub fn least_squares_capsule(
    points: &[Point3<f64>],
    mean: &Point3<f64>,
    principal: &Vector3<f64>,
) -> Option<Capsule> {
    capsule_on_line(points, mean, principal)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A box of sides 4 × 2 × 1 about (1, 2, 3): Godot's shapes by hand.
    #[test]
    fn godot_rules_by_hand() {
        let b = Aabb {
            min: Point3::new(-1.0, 1.0, 2.5),
            max: Point3::new(3.0, 3.0, 3.5),
        };
        let s = godot_sphere(&b);
        assert_eq!((s.center, s.radius), (Point3::new(1.0, 2.0, 3.0), 2.0));
        // Long axis X: the radius is half the Y side.
        let c = godot_capsule(&b);
        assert_eq!((c.axis, c.radius, c.half_length), (Vector3::x(), 1.0, 1.0));
        let y = godot_cylinder(&b);
        assert_eq!((y.axis, y.radius, y.half_height), (Vector3::x(), 1.0, 2.0));
        // Long axis Z: the radius is half the X side, however long Y is.
        let b = Aabb {
            min: Point3::new(0.0, 0.0, 0.0),
            max: Point3::new(1.0, 3.0, 4.0),
        };
        let c = godot_capsule(&b);
        assert_eq!((c.axis, c.radius, c.half_length), (Vector3::z(), 0.5, 1.5));
        // A cube: ties go to X, the radius to Y.
        let cube = Aabb {
            min: Point3::origin(),
            max: Point3::new(2.0, 2.0, 2.0),
        };
        assert_eq!(godot_axes(&cube), (0, 1));
        assert_eq!(godot_capsule(&cube).half_length, 0.0);
    }
}
