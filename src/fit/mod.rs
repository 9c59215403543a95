//! Bounding volumes fitted to point sets and triangle meshes.
//!
//! Everything here works in `f64` on points in one frame (world or a mesh's
//! local frame, as the caller chooses); units are the model's.

pub(crate) mod aabb;
pub mod covariance;
pub mod f32_outward;
pub mod hull;
pub(crate) mod method;
pub mod obb;
pub mod polytope;
pub mod reference;
pub(crate) mod round;
mod shape;
mod spec;
pub(crate) mod sphere;
pub mod surface;
pub(crate) mod symmetric_eigen3;

pub use aabb::Aabb;
pub use f32_outward::ObbF32;
pub use hull::{ConvexHull, HullError};
pub use method::{
    ObbMethod, SphereMethod, UnknownMethod, obb, obb_certified, obb_certified_until, obb_of_points,
    obb_with_covariance, sphere, sphere_with_hull,
};
pub use obb::Obb;
pub use obb::kernel::Certificate;
pub use polytope::budget_hull::BudgetHull;
pub use polytope::decompose::{DecomposeError, DecomposeOptions, Decomposition, decompose};
pub use polytope::kdop::{Kdop, KdopKind};
pub use round::{Capsule, Cylinder, capsule, capsule_on_line, cylinder};
pub use shape::{FittedShape, MeshSource, ShapeDefaults, ShapeFitter, round_seeds};
pub use spec::{SHAPE_GRAMMAR, ShapeSpec, UnknownShape};
pub use sphere::Sphere;
