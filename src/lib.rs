//! # bvtool
//!
//! Bounding volumes and exact mesh-vs-mesh collision for real model files.
//!
//! Data flows one way, and so do the modules:
//!
//! `load` → [`mesh::Scene`] / [`mesh::TriMesh`] → `fit` (AABB, spheres, OBBs,
//! convex hull) → `tree` (OBB tree) → `query` (tree-vs-tree collision) →
//! `clash` (scenes: parts, broad phase, self-intersection) → `report` (what
//! the command line prints).
//!
//! Conventions, everywhere: units are the model file's; frames are world
//! (the scene flattened with node transforms) unless a function says local;
//! boxes carry **half** extents; quaternions are written (x, y, z, w);
//! touching counts as contact, as in parry3d.

pub mod check;
pub mod clash;
pub mod error;
pub mod export;
pub mod fit;
pub mod load;
pub mod mesh;
pub mod parry_bridge;
pub mod pose;
pub mod query;
pub mod render;
pub mod report;
pub mod threads;
pub mod tree;

pub use error::{Error, Result};
pub use mesh::{Scene, TriMesh, TriangleSource};
pub use pose::Pose;
