//! The trees: the OBB tree, a flat, top-down hierarchy of oriented boxes over
//! a mesh for queries between meshes at a pose, and the AABB tree, exact
//! axis-aligned boxes for queries inside one mesh's frame.

pub(crate) mod aabb_tree;
pub(crate) mod bytes;
mod flat;
mod mesh_map;
pub(crate) mod node;
pub(crate) mod obb_tree;
pub(crate) mod radix;
pub(crate) mod stats;
pub(crate) mod twins;

pub use aabb_tree::{AABB_LEAF_SIZE, AabbNode, AabbTree, Box32};
pub use bytes::TreeBytesError;
pub use node::{MAX_LEAF_SIZE, Node, NodeBox};
pub use obb_tree::{
    DEFAULT_LEAF_SIZE, NodeFit, ObbTree, SMALL_TREE, TreeMemory, default_leaf_size,
};
pub use stats::TreeStats;
pub use twins::Twins;
