//! Bounding volumes fitted to point sets and triangle meshes.
//!
//! Everything here works in `f64` on points in one frame (world or a mesh's
//! local frame, as the caller chooses); units are the model's.

pub mod aabb;
pub mod covariance;
mod cube_map;
pub mod decompose;
pub mod hull;
pub mod hull_budget;
pub mod kdop;
pub mod method;
pub mod min_rect;
pub mod min_sphere;
pub mod min_volume_obb;
pub mod obb;
pub mod obb_f32;
pub mod polytope;
pub mod reference;
pub mod round;
pub mod sphere;
pub mod surface;
pub mod symmetric_eigen3;
pub mod tight_obb;

pub use aabb::Aabb;
pub use decompose::{DecomposeError, DecomposeOptions, Decomposition, decompose};
pub use hull::{ConvexHull, HullError};
pub use hull_budget::BudgetHull;
pub use kdop::{Kdop, KdopKind};
pub use method::{
    ObbMethod, SphereMethod, UnknownMethod, obb, obb_of_points, obb_with_covariance, sphere,
    sphere_with_hull,
};
pub use obb::Obb;
pub use obb_f32::ObbF32;
pub use round::{Capsule, Cylinder, capsule, capsule_on_line, cylinder};
pub use sphere::Sphere;
