//! Queries on pairs of trees: do two meshes touch at a pose, and where.

pub mod collide;
pub mod parry_check;
pub mod poses;
pub mod sat;
pub mod triangle;

pub use collide::{Collision, ContactMode, Placement, brute_force, collide};
