//! The OBB tree: a flat, top-down hierarchy of oriented boxes over a mesh.

pub mod obb_tree;
pub mod stats;

pub use obb_tree::{DEFAULT_LEAF_SIZE, Node, ObbTree};
pub use stats::TreeStats;
