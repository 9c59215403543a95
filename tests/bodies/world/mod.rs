//! The world of bodies (`src/world/`): its queries against the all-pairs
//! exact check without the broad phase over many random pose updates, the
//! incrementally sorted broad phase against a rebuilt one, primitives
//! against the true shapes they tessellate, scenes, and hostile input.
//!
//! A module of the `bodies` test binary (the files beside this one).

mod common;
mod contain;
mod hostile;
mod primitives;
mod queries;
mod remove;
mod stop;
