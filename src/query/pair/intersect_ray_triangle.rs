//! Where a ray crosses a triangle: a watertight test, exact up to one
//! rounding of each corner, that a ray through a shared edge or corner of a
//! closed mesh crosses exactly one of the triangles there (or, grazing the
//! surface, none or two, entering and leaving).
//!
//! As Woop, Benthin and Wald (2013) do, the corners are moved into the
//! ray's frame — translated by the origin, then sheared so that the ray is
//! the `z` axis ([`ShearedRay::corner`]) — and the ray crosses the
//! triangle where the origin lies inside the corners' projection on the
//! `xy` plane. Each corner is transformed the same way for every triangle
//! it belongs to, so neighbours see one shared edge. Where Woop et al.
//! evaluate the three edge functions in floating point and count an
//! origin on an edge for both triangles, here each edge's side is the
//! sign of an exact 2-D orientation (`robust::orient2d`, Shewchuk's
//! adaptive arithmetic) of the transformed corners, and an origin exactly
//! on an edge is moved off it by a symbolic perturbation
//! ([`edge_side`]): the side flips with the edge's direction, so of two
//! triangles sharing an edge, the perturbed origin is inside exactly one
//! (Edelsbrunner and Mücke's simulation of simplicity). The same two
//! functions decide a point's exact winding number along an axis
//! ([`crate::query::point`]), with the corners' own coordinates and no
//! rounding at all.
//!
//! The distance `t` along the ray and the barycentric coordinates come
//! from the edge functions in `f64` (Woop et al.'s formula); they only
//! order hits and clip them to `[t_min, t_max]`.

use nalgebra::{Point3, Vector3};
use robust::{Coord, orient2d};

/// The side of the directed edge `a → b` that the point `o` lies on: +1
/// left (counterclockwise), −1 right, exactly; for `o` on the edge's line,
/// the side of `o + (ε, ε²)` for an infinitesimal ε: the sign of
/// `a.y − b.y`, else of `b.x − a.x`; 0 only when `a = b`. Swapping `a`
/// and `b` flips the answer.
pub fn edge_side(a: [f64; 2], b: [f64; 2], o: [f64; 2]) -> i8 {
    let c = |p: [f64; 2]| Coord { x: p[0], y: p[1] };
    let e = orient2d(c(a), c(b), c(o));
    let sign = |v: f64| (v > 0.0) as i8 - (v < 0.0) as i8;
    match sign(e) {
        0 => match sign(a[1] - b[1]) {
            0 => sign(b[0] - a[0]),
            s => s,
        },
        s => s,
    }
}

/// Whether the (perturbed, [`edge_side`]) point `o` lies inside the 2-D
/// triangle `abc`: +1 inside a counterclockwise triangle, −1 inside a
/// clockwise one, 0 outside (always 0 for a triangle of zero area: its
/// three sides cannot agree).
pub fn crossing_triangle(a: [f64; 2], b: [f64; 2], c: [f64; 2], o: [f64; 2]) -> i8 {
    let s = edge_side(a, b, o);
    if s != 0 && edge_side(b, c, o) == s && edge_side(c, a, o) == s {
        s
    } else {
        0
    }
}

/// A ray's frame: its origin, and the axes and shear that turn its
/// direction into the `z` axis.
#[derive(Clone, Copy, Debug)]
pub struct ShearedRay {
    /// The ray's origin.
    pub origin: Point3<f64>,
    /// The ray's direction (any length, not zero).
    pub direction: Vector3<f64>,
    /// The axes that become `x`, `y`, `z`: `z` the direction's largest
    /// component, `x` and `y` the others in an order that keeps the
    /// frame right-handed.
    axes: [usize; 3],
    /// `d[x]/d[z]`, `d[y]/d[z]`, `1/d[z]`.
    shear: [f64; 3],
}

impl ShearedRay {
    /// The frame of the ray from `origin` along `direction`; `None` for a
    /// zero or non-finite direction or a non-finite origin.
    pub fn new(origin: Point3<f64>, direction: Vector3<f64>) -> Option<ShearedRay> {
        if !(origin.coords.iter().chain(direction.iter())).all(|v| v.is_finite())
            || direction == Vector3::zeros()
        {
            return None;
        }
        let kz = direction.iamax();
        let (mut kx, mut ky) = ((kz + 1) % 3, (kz + 2) % 3);
        if direction[kz] < 0.0 {
            std::mem::swap(&mut kx, &mut ky);
        }
        let dz = direction[kz];
        Some(ShearedRay {
            origin,
            direction,
            axes: [kx, ky, kz],
            shear: [direction[kx] / dz, direction[ky] / dz, 1.0 / dz],
        })
    }

    /// A corner in the ray's frame: `(x, y)` in the sheared plane (the ray
    /// at the origin) and the unscaled `z`.
    #[inline]
    pub fn corner(&self, p: &Point3<f64>) -> ([f64; 2], f64) {
        let [kx, ky, kz] = self.axes;
        let q = p - self.origin;
        (
            [q[kx] - self.shear[0] * q[kz], q[ky] - self.shear[1] * q[kz]],
            q[kz],
        )
    }
}

/// A ray's crossing of a triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCrossing {
    /// The distance along the ray in units of its direction's length (the
    /// point is `origin + t·direction`).
    pub t: f64,
    /// The point's barycentric coordinates (weights of the corners).
    pub barycentric: [f64; 3],
    /// +1 where the ray leaves through the triangle's front (its normal,
    /// by the right-hand rule on the corner order, along the direction),
    /// −1 where it enters.
    pub sign: i8,
}

/// Where the ray crosses the triangle `t` (at any `t`, before the origin
/// too), or `None` when it passes by ([`crossing_triangle`] on the
/// corners in the ray's frame).
pub fn intersect_ray_triangle(ray: &ShearedRay, t: &[Point3<f64>; 3]) -> Option<RayCrossing> {
    let [(a, az), (b, bz), (c, cz)] = t.map(|p| ray.corner(&p));
    let sign = crossing_triangle(a, b, c, [0.0, 0.0]);
    if sign == 0 {
        return None;
    }
    // The edge functions (the origin's weights) in f64, as Woop et al.
    let u = b[0] * c[1] - b[1] * c[0];
    let v = c[0] * a[1] - c[1] * a[0];
    let w = a[0] * b[1] - a[1] * b[0];
    let det = u + v + w;
    let (t, barycentric) = if det != 0.0 && det.is_finite() {
        let bary = [u / det, v / det, w / det].map(|x| x.clamp(0.0, 1.0));
        (ray.shear[2] * (u * az + v * bz + w * cz) / det, bary)
    } else {
        // Every weight rounded to nothing: the origin is on the triangle
        // to within rounding; its plane gives t.
        let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
        let dn = n.dot(&ray.direction);
        let tt = if dn != 0.0 {
            (t[0] - ray.origin).dot(&n) / dn
        } else {
            0.0
        };
        (tt, [1.0 / 3.0; 3])
    };
    // The projection of a counterclockwise triangle onto the ray's
    // right-handed xy frame is counterclockwise when its normal points
    // along +z, the direction.
    Some(RayCrossing {
        t,
        barycentric,
        sign,
    })
}
