//! The surface of a fitted convex shape, in the form a search over it
//! needs: triangles covering the surface of a polytope `P` that contains
//! the shape `K`, and the metric projection onto `K` (the nearest point of
//! `K`).
//!
//! For a polytope shape (box, k-DOP, hull, decomposition part) `P = K` and
//! the projection is the identity on its surface. For a round shape `P` is
//! a box around it (sphere: the cube of half side `r`; cylinder and
//! capsule: the box of their axis frame). Two facts make a search over `P`'s
//! triangles a search over `K`'s surface, with no loss in its bounds:
//!
//! - **onto**: every point `q` of `∂K` is the projection of a point of
//!   `∂P` — the ray from `q` along an outward normal of `K` at `q` leaves
//!   `P` at a point whose nearest point of `K` is `q`; and a point of `∂P`
//!   that lies in `K` lies on `∂K` (`K ⊆ P`), so the projection of `∂P` is
//!   exactly `∂K`;
//! - **1-Lipschitz**: the projection onto a closed convex set never
//!   lengthens a distance, so points of `∂P` within `ρ` of a sample project
//!   within `ρ` of the sample's projection.

use crate::fit::polytope::Polytope;
use crate::fit::round::across;
use crate::fit::{Aabb, Capsule, Cylinder, Obb, Sphere};
use nalgebra::{Matrix3, Point3, Vector3};

/// A convex shape's surface (see the module docs).
#[derive(Clone, Debug)]
pub struct Surface {
    /// Triangles covering the boundary of the containing polytope `P`.
    pub triangles: Vec<[Point3<f64>; 3]>,
    /// The shape, for the projection onto it.
    round: Round,
}

/// What the projection needs of a round shape.
#[derive(Clone, Copy, Debug)]
enum Round {
    /// A polytope: `P` is the shape, the projection the identity.
    None,
    Sphere(Sphere),
    Capsule(Capsule),
    Cylinder(Cylinder),
}

impl Surface {
    /// A convex polytope given by its vertices and faces (convex polygons
    /// of vertex indices, as k-DOPs, budget hulls and decomposition parts
    /// hold them), fan-triangulated.
    pub fn polytope(vertices: &[Point3<f64>], faces: &[Vec<u32>]) -> Surface {
        let polygons: Vec<Vec<Point3<f64>>> = faces
            .iter()
            .map(|f| f.iter().map(|&i| vertices[i as usize]).collect())
            .collect();
        Surface {
            triangles: fan(polygons.iter().map(Vec::as_slice)),
            round: Round::None,
        }
    }

    /// An oriented box.
    pub fn obb(b: &Obb) -> Surface {
        Surface {
            triangles: box_triangles(&b.center, &b.axes, &b.half_extents),
            round: Round::None,
        }
    }

    /// An axis-aligned box.
    pub fn aabb(b: &Aabb) -> Surface {
        Surface::obb(&Obb::from_min_max(&b.min, &b.max))
    }

    /// A sphere, searched from the cube around it.
    pub fn sphere(s: &Sphere) -> Surface {
        let r = s.radius;
        Surface {
            triangles: box_triangles(&s.center, &Matrix3::identity(), &Vector3::new(r, r, r)),
            round: Round::Sphere(*s),
        }
    }

    /// A capsule, searched from the box of its axis frame around it.
    pub fn capsule(c: &Capsule) -> Surface {
        let reach = c.half_length + c.radius;
        Surface::about_axis(&c.center, &c.axis, c.radius, reach, Round::Capsule(*c))
    }

    /// A cylinder, searched from the box of its axis frame around it.
    pub fn cylinder(c: &Cylinder) -> Surface {
        let reach = c.half_height;
        Surface::about_axis(&c.center, &c.axis, c.radius, reach, Round::Cylinder(*c))
    }

    /// A round shape about an axis, within `radius` of it and `reach` along
    /// it from `center`, searched from that box.
    fn about_axis(
        center: &Point3<f64>,
        axis: &Vector3<f64>,
        radius: f64,
        reach: f64,
        round: Round,
    ) -> Surface {
        let (u, v) = across(axis);
        Surface {
            triangles: box_triangles(
                center,
                &Matrix3::from_columns(&[u, v, *axis]),
                &Vector3::new(radius, radius, reach),
            ),
            round,
        }
    }

    /// Whether the shape is its covering polytope (its projection the
    /// identity on the triangles).
    pub fn is_polytope(&self) -> bool {
        matches!(self.round, Round::None)
    }

    /// The nearest point of the shape to `x` (`x` itself inside it).
    pub fn project(&self, x: &Point3<f64>) -> Point3<f64> {
        // The nearest point of the ball of radius r about `c` to `x`.
        let onto_ball = |c: Point3<f64>, r: f64, x: &Point3<f64>| {
            let d = x - c;
            let n = d.norm();
            if n > r { c + d * (r / n) } else { *x }
        };
        match &self.round {
            Round::None => *x,
            Round::Sphere(s) => onto_ball(s.center, s.radius, x),
            Round::Capsule(c) => {
                let t = (x - c.center)
                    .dot(&c.axis)
                    .clamp(-c.half_length, c.half_length);
                onto_ball(c.center + c.axis * t, c.radius, x)
            }
            // The cylinder is a disc times a segment: its projection is the
            // pair of projections.
            Round::Cylinder(c) => {
                let t = (x - c.center).dot(&c.axis);
                let on_axis = c.center + c.axis * t;
                let across = onto_ball(on_axis, c.radius, x) - on_axis;
                c.center + c.axis * t.clamp(-c.half_height, c.half_height) + across
            }
        }
    }
}

/// The triangles of the box about `center` with the given axes (columns,
/// right-handed) and half extents.
fn box_triangles(
    center: &Point3<f64>,
    axes: &Matrix3<f64>,
    half: &Vector3<f64>,
) -> Vec<[Point3<f64>; 3]> {
    let axes = [axes.column(0), axes.column(1), axes.column(2)].map(|c| c.into_owned());
    let at = |i: usize| axes[i].dot(&center.coords);
    let b = Polytope::slab_box(
        &axes,
        std::array::from_fn(|i| at(i) - half[i]),
        std::array::from_fn(|i| at(i) + half[i]),
        center.coords.amax() + half.amax(),
    );
    fan(b.faces.iter().map(|f| f.as_slice()))
}

/// Convex polygons split into triangles, fanned from their first corner.
fn fan<'a>(polygons: impl Iterator<Item = &'a [Point3<f64>]>) -> Vec<[Point3<f64>; 3]> {
    polygons
        .flat_map(|f| (1..f.len().saturating_sub(1)).map(move |k| [f[0], f[k], f[k + 1]]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The projection of the covering box's surface lies on the shape's
    /// surface, and is the identity there.
    #[test]
    fn projections_land_on_the_surface() {
        let axis = Vector3::new(1.0, 2.0, -2.0).normalize();
        let center = Point3::new(0.5, -1.0, 2.0);
        let cap = Capsule {
            center,
            axis,
            radius: 0.7,
            half_length: 1.5,
        };
        let cyl = Cylinder {
            center,
            axis,
            radius: 0.7,
            half_height: 1.5,
        };
        let sph = Sphere {
            center,
            radius: 0.7,
        };
        for s in [
            Surface::capsule(&cap),
            Surface::cylinder(&cyl),
            Surface::sphere(&sph),
        ] {
            for t in &s.triangles {
                for w in [[1.0, 0.0, 0.0], [0.2, 0.3, 0.5], [0.5, 0.5, 0.0]] {
                    let x =
                        Point3::from(t[0].coords * w[0] + t[1].coords * w[1] + t[2].coords * w[2]);
                    let q = s.project(&x);
                    // On the surface: inside with slack, outside when shrunk.
                    let d = q - center;
                    let (t_ax, radial) = (d.dot(&axis), (d - axis * d.dot(&axis)).norm());
                    let on = match s.round {
                        Round::Capsule(c) => {
                            let dd = (d - axis * t_ax.clamp(-c.half_length, c.half_length)).norm();
                            (dd - c.radius).abs() < 1e-12
                        }
                        Round::Cylinder(c) => {
                            (radial <= c.radius + 1e-12 && t_ax.abs() <= c.half_height + 1e-12)
                                && ((radial - c.radius).abs() < 1e-12
                                    || (t_ax.abs() - c.half_height).abs() < 1e-12)
                        }
                        Round::Sphere(sp) => (d.norm() - sp.radius).abs() < 1e-12,
                        Round::None => unreachable!(),
                    };
                    assert!(on, "{q} from {x}");
                    assert!((s.project(&q) - q).norm() < 1e-12);
                }
            }
        }
    }
}
