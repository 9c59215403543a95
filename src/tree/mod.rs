//! The OBB tree: a flat, top-down hierarchy of oriented boxes over a mesh.

pub mod node;
pub mod obb_tree;
pub mod stats;

pub use node::{Node, NodeBox};
pub use obb_tree::{DEFAULT_LEAF_SIZE, NO_COPY, ObbTree, TreeMemory};
pub use stats::TreeStats;
