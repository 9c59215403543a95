//! The crate as a whole: the layer order of `src/` (`layers.rs`) and the
//! process-wide thread setup (`pinning.rs`). One binary, a process of its
//! own: nothing here builds rayon's global pool before the pinning test,
//! which must be the first to build it (the layer checks only read files).

mod layers;
mod pinning;
