//! Motion: B moving relative to A along a stated interpolation, and the
//! first time the two meet (or come within a clearance), certified by
//! conservative advancement on the exact tree distance.
//!
//! [`Motion`] is one segment `P0 → P1` (translation linear in `t`, rotation
//! at constant angular velocity along the shortest arc); [`Sweep`] answers
//! [`Sweep::time_of_impact`] on one segment, [`Sweep::path`] on a
//! sequence of poses, and [`Sweep::least_distance`], the least distance
//! over a path. What an answer certifies is on [`Impact`]; the method
//! and its proof are in `docs/algorithms.md` ("Motion").

mod advance;
mod interpolate;
mod least;
mod path;
mod swept;

pub use advance::{
    Contact, DEFAULT_MAX_DISTANCE_CALLS, DEFAULT_REL_ERR, DEFAULT_TOL, Impact, ImpactOptions,
    Status, Sweep, time_of_impact,
};
pub use interpolate::Motion;
pub use least::{LeastDistance, LeastOptions};
pub use path::PathImpact;
