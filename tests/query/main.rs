//! Trees and the queries on them: the build, exact pair predicates, collide, distance, air, poses.
//!
//! One test binary of modules (the files beside this one), as ripgrep does:
//! the suite links once, not once per file.

mod air;
mod collide;
mod contact;
mod convex;
mod depth;
mod distance;
mod least_distance;
mod motion;
mod parry_disagreement;
mod points;
mod pose;
mod rays;
mod sat;
mod shortfall;
mod tree_build;
mod tree_bytes;
mod tree_stop;
mod tree_threads;
mod triangle;
