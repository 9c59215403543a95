//! Bodies that move: the world of bodies (`world/`, `src/world/`) and the
//! robots placed in it (`robots/`, `src/robots/`).
//!
//! One test binary of modules (the folders beside this one).

mod robots;
mod world;
