//! Fitting a whole scene: the layer between the single-shape fitters of
//! [`crate::fit`] (and the queries that measure them) and the front ends.
//! `export`, `render`, `report`, the command line and the Python package
//! ask here for the volumes of a scene or of one instance, and get typed
//! results back.

mod colliders;
mod compare;
mod scene;

pub use colliders::*;
pub use compare::*;
pub use scene::*;
