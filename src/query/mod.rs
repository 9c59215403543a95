//! Queries on pairs of trees: do two meshes touch at a pose, where, how far
//! apart are they, and which parts come within a clearance; of a point
//! or a bounding shape's surface against one mesh (the air of a shape,
//! closest points, signed distance, inside); and of rays.

pub(crate) mod air;
pub(crate) mod batch;
mod cells;
pub(crate) mod clearance;
pub(crate) mod collide;
pub mod contact;
pub mod convex;
pub mod depth;
pub(crate) mod distance;
pub mod distance_point_mesh;
pub mod motion;
pub mod pair;
pub mod point;
pub mod ray;
pub(crate) mod shortfall;
mod tree_pair;

/// The default of `--max-pairs`: the most pairs (triangle pairs, or part
/// pairs for `clash`) a command keeps or lists before it stops with an
/// error. Counting pairs needs no memory; keeping them needs a few dozen
/// bytes each, and an answer can be quadratic in the input (every pair of
/// 10⁵ stacked copies).
pub const MAX_PAIRS: usize = 1_000_000;

pub use air::{Air, AirOptions, air};
pub use batch::{each_indexed, each_pose};
pub use clearance::{Clearance, ClosePair, within, within_each};
pub use collide::{Collision, ContactMode, brute_force, collide, collide_each};
pub use distance::{
    Distance, DistanceOptions, DistanceScratch, brute_force_distance, distance, distance_with,
};
pub use point::{Closest, PointTree, SignMethod};
pub use shortfall::{Shortfall, shortfall};
pub use tree_pair::Placement;
