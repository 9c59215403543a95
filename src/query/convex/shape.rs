//! Convex shapes as support maps: a core (a point set's convex hull, or a
//! cylinder) swept by a ball.

use crate::fit::polytope::decompose::Part;
use crate::fit::{Aabb, BudgetHull, Capsule, ConvexHull, Cylinder, FittedShape, Kdop, Obb, Sphere};
use crate::pose::Pose;
use nalgebra::{Point3, Vector3};

/// The sides of the polygon that stands for a cylinder's cap in a contact
/// patch (inscribed, so every patch point is a point of the cylinder).
const CAP_SIDES: usize = 64;

/// The convex set a shape is made of before its ball is added.
#[derive(Clone, Debug, PartialEq)]
enum Core {
    /// The convex hull of these points (one point, a segment's ends, a
    /// box's corners, a polytope's vertices).
    Hull(Vec<Point3<f64>>),
    /// A solid cylinder.
    Cylinder(Cylinder),
}

/// A convex shape for [`signed_distance`](super::signed_distance): the
/// convex hull of a point set or a solid cylinder, grown by `radius`
/// (a sphere is a grown point, a capsule a grown segment). Everything that
/// the query asks of it is its support point, the point farthest along a
/// direction.
///
/// ```
/// use bvtool::fit::{Capsule, Sphere};
/// use bvtool::query::convex::Convex;
/// use nalgebra::{Point3, Vector3};
///
/// let ball = Convex::from(&Sphere { center: Point3::origin(), radius: 1.0 });
/// assert_eq!(ball.radius(), 1.0);
/// let capsule = Convex::from(&Capsule {
///     center: Point3::origin(),
///     axis: Vector3::z(),
///     radius: 0.5,
///     half_length: 2.0,
/// });
/// assert_eq!(capsule.support(&Vector3::z()), Point3::new(0.0, 0.0, 2.5));
/// assert!(Convex::hull(vec![Point3::new(f64::NAN, 0.0, 0.0)]).is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Convex {
    core: Core,
    radius: f64,
}

impl Convex {
    /// The convex hull of `points`; `None` when there are none or one is not
    /// finite.
    pub fn hull(points: Vec<Point3<f64>>) -> Option<Convex> {
        Convex::rounded(points, 0.0)
    }

    /// The points' convex hull grown by `radius` (≥ 0); `None` when there
    /// are no points or a number is not finite.
    pub fn rounded(points: Vec<Point3<f64>>, radius: f64) -> Option<Convex> {
        let finite = points.iter().all(|p| p.iter().all(|c| c.is_finite()));
        (finite && !points.is_empty() && radius.is_finite() && radius >= 0.0).then_some(Convex {
            core: Core::Hull(points),
            radius,
        })
    }

    /// The core's points when it is their convex hull (`None` for a
    /// cylinder).
    pub fn points(&self) -> Option<&[Point3<f64>]> {
        match &self.core {
            Core::Hull(points) => Some(points),
            Core::Cylinder(_) => None,
        }
    }

    /// The core when it is a cylinder.
    pub fn cylinder(&self) -> Option<&Cylinder> {
        match &self.core {
            Core::Hull(_) => None,
            Core::Cylinder(c) => Some(c),
        }
    }

    /// The ball's radius grown onto the core (0 for polytopes and cylinders).
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The core's point farthest along `u` (any one of them on a tie).
    pub fn core_support(&self, u: &Vector3<f64>) -> Point3<f64> {
        match &self.core {
            Core::Hull(points) => {
                let mut best = Point3::origin();
                let mut best_dot = f64::NEG_INFINITY;
                for p in points {
                    let d = p.coords.dot(u);
                    if d > best_dot {
                        best_dot = d;
                        best = *p;
                    }
                }
                best
            }
            Core::Cylinder(c) => {
                let along = u.dot(&c.axis);
                let end = if along >= 0.0 {
                    c.half_height
                } else {
                    -c.half_height
                };
                c.center + c.axis * end + radial(c, u) * c.radius
            }
        }
    }

    /// Whether the core has no point (a fitted shape of no points).
    pub(super) fn is_empty(&self) -> bool {
        matches!(&self.core, Core::Hull(points) if points.is_empty())
    }

    /// The shape's point farthest along the unit direction `u`.
    pub fn support(&self, u: &Vector3<f64>) -> Point3<f64> {
        self.core_support(u) + u * self.radius
    }

    /// The largest coordinate's magnitude over the shape, and the radius.
    pub(super) fn scale(&self) -> f64 {
        let core = match &self.core {
            Core::Hull(points) => points.iter().map(|p| p.coords.amax()).fold(0.0, f64::max),
            Core::Cylinder(c) => c.center.coords.amax() + c.half_height + c.radius,
        };
        core + self.radius
    }

    /// The shape placed by `pose`.
    pub(super) fn placed(&self, pose: &Pose) -> Convex {
        let core = match &self.core {
            Core::Hull(points) => {
                Core::Hull(points.iter().map(|p| pose.transform_point(p)).collect())
            }
            Core::Cylinder(c) => Core::Cylinder(Cylinder {
                center: pose.transform_point(&c.center),
                axis: pose.rotation * c.axis,
                ..*c
            }),
        };
        Convex {
            core,
            radius: self.radius,
        }
    }

    /// Points of the core whose convex hull is (or, for a cylinder's cap,
    /// is inscribed in) the core's face along `u`: every point within `tau`
    /// of the largest `p·u`.
    pub(super) fn support_face(&self, u: &Vector3<f64>, tau: f64) -> Vec<Point3<f64>> {
        let top = self.core_support(u).coords.dot(u);
        let keep = |p: &Point3<f64>| p.coords.dot(u) >= top - tau;
        match &self.core {
            Core::Hull(points) => points.iter().copied().filter(keep).collect(),
            Core::Cylinder(c) => {
                let (e1, e2) = perpendicular_pair(&c.axis);
                let r = radial(c, u) * c.radius;
                let mut candidates = vec![];
                for end in [c.half_height, -c.half_height] {
                    let centre = c.center + c.axis * end;
                    candidates.push(centre + r);
                    candidates.extend((0..CAP_SIDES).map(|k| {
                        let a = std::f64::consts::TAU * k as f64 / CAP_SIDES as f64;
                        centre + (e1 * a.cos() + e2 * a.sin()) * c.radius
                    }));
                }
                candidates.retain(keep);
                candidates
            }
        }
    }
}

/// The unit direction in a cylinder's cap plane nearest `u` (0 along the
/// axis). The axial part is taken off twice: near the axis, what is left
/// after once is rounding noise as long along the axis as across it, and
/// normalised it would lift the support point off the cap.
fn radial(c: &Cylinder, u: &Vector3<f64>) -> Vector3<f64> {
    let flat = u - c.axis * u.dot(&c.axis);
    let flat = flat - c.axis * flat.dot(&c.axis);
    flat.try_normalize(0.0).unwrap_or_else(Vector3::zeros)
}

/// Two unit vectors perpendicular to the unit `n` and to each other.
pub(super) fn perpendicular_pair(n: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    let pick = if n.x.abs() < 0.6 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let e1 = n.cross(&pick).normalize();
    (e1, n.cross(&e1))
}

impl From<&Obb> for Convex {
    fn from(b: &Obb) -> Convex {
        let corners = (0..8)
            .map(|i| {
                let s = Vector3::new(
                    if i & 1 == 0 { -1.0 } else { 1.0 },
                    if i & 2 == 0 { -1.0 } else { 1.0 },
                    if i & 4 == 0 { -1.0 } else { 1.0 },
                );
                b.center + b.axes * s.component_mul(&b.half_extents)
            })
            .collect();
        Convex {
            core: Core::Hull(corners),
            radius: 0.0,
        }
    }
}

impl From<&Aabb> for Convex {
    fn from(b: &Aabb) -> Convex {
        let corners = (0..8)
            .map(|i| {
                Point3::new(
                    if i & 1 == 0 { b.min.x } else { b.max.x },
                    if i & 2 == 0 { b.min.y } else { b.max.y },
                    if i & 4 == 0 { b.min.z } else { b.max.z },
                )
            })
            .collect();
        Convex {
            core: Core::Hull(corners),
            radius: 0.0,
        }
    }
}

impl From<&Sphere> for Convex {
    fn from(s: &Sphere) -> Convex {
        Convex {
            core: Core::Hull(vec![s.center]),
            radius: s.radius,
        }
    }
}

impl From<&Capsule> for Convex {
    fn from(c: &Capsule) -> Convex {
        let ends = vec![
            c.center - c.axis * c.half_length,
            c.center + c.axis * c.half_length,
        ];
        Convex {
            core: Core::Hull(ends),
            radius: c.radius,
        }
    }
}

impl From<&Cylinder> for Convex {
    fn from(c: &Cylinder) -> Convex {
        Convex {
            core: Core::Cylinder(*c),
            radius: 0.0,
        }
    }
}

/// Polytopes given by their vertices: the hull of the vertices.
macro_rules! from_vertices {
    ($($shape:ty),*) => {$(
        impl From<&$shape> for Convex {
            fn from(p: &$shape) -> Convex {
                Convex { core: Core::Hull(p.vertices.clone()), radius: 0.0 }
            }
        }
    )*};
}

from_vertices!(ConvexHull, BudgetHull, Kdop, Part);

impl Convex {
    /// A fitted shape as a convex shape: the boxes, the sphere, the round
    /// shapes, a k-DOP's polytope or a budget hull; `None` for convex parts
    /// (their union is not convex) or a polytope without a vertex.
    pub fn of_fitted(shape: &FittedShape) -> Option<Convex> {
        let made = match shape {
            FittedShape::Aabb(b) => Convex::from(b),
            FittedShape::Obb(b) => Convex::from(b),
            FittedShape::Sphere(s) => Convex::from(s),
            FittedShape::Capsule(c) => Convex::from(c),
            FittedShape::Cylinder(c) => Convex::from(c),
            FittedShape::Kdop(k) => Convex::from(k),
            FittedShape::Hull(h) => Convex::from(h),
            FittedShape::Parts(_) => return None,
        };
        (!made.is_empty()).then_some(made)
    }
}
