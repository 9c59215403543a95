//! Exact predicates and distances on one pair of primitives — the base
//! cases every tree-vs-tree query ends in.
//!
//! Files and functions follow one naming rule, `[operation]_[shape1]_[shape2]`
//! (as parry3d's `query/` does): [`intersect_triangle_triangle`] decides
//! whether two triangles meet, exactly; [`distance_triangle_triangle`] gives
//! their distance with a rounding bound; [`overlap_obb_obb`] is the
//! conservative `f32` separating-axis test of two oriented boxes;
//! [`closest_point_triangle`] is a point's nearest point of a triangle with
//! its feature; [`intersect_ray_triangle`] the watertight ray crossing.

pub mod closest_point_triangle;
pub mod distance_triangle_triangle;
pub mod intersect_ray_triangle;
pub mod intersect_triangle_triangle;
pub mod overlap_obb_obb;
