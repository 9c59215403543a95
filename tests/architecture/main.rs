//! The crate as a whole: the layer order of `src/` (`layers.rs`), the
//! process-wide thread setup (`pinning.rs`) and the one dependency build
//! the tests and the Python extension share (`shared_build.rs`). One
//! binary, a process of its own: nothing here builds rayon's global pool
//! before the pinning test, which must be the first to build it (the other
//! checks only read files or run `cargo tree`).

mod layers;
mod pinning;
mod shared_build;
