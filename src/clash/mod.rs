//! Scenes: which parts of a model collide with which (clash detection,
//! `detect`), and where one mesh cuts through itself
//! (`self_intersect`).
//!
//! Data flow: loaded [`crate::Scene`]s → `parts` (what users call a part)
//! → `shapes` (one OBB tree per geometry, shared by its instances) →
//! [`broad`] (sweep and prune over world boxes) → the tree-vs-tree query of
//! [`fn@crate::query::collide`] per candidate pair → kinds (crossing,
//! touching, [`contain`]ed). Every decision is an exact predicate on `f64`
//! coordinates.

pub mod adjacency;
pub mod broad;
pub mod contain;
pub(crate) mod detect;
mod embedded_star;
mod fan_cone;
pub(crate) mod parts;
pub(crate) mod self_intersect;
mod severity;
pub(crate) mod shapes;

pub use detect::{
    Clash, ClashKind, ClashOptions, ClashScene, Clashes, PairLimit, TrianglePair, crosses,
    crossing_depth, deepest,
};
pub use parts::{Grouping, Part, PartList};
pub use self_intersect::{
    SelfIntersections, local_meshes, self_intersections, self_intersections_at_most,
    self_intersections_brute_force, self_intersections_until,
};
pub use severity::{ClashDepth, MAX_SPLITS, Searched, Severity};
