//! The real-model suite (`cargo test --release -- --ignored`): every command against the shared corpus in `../shared/models` (or `$BVTOOL_MODELS`).
//!
//! One test binary of modules (the files beside this one), as ripgrep does:
//! the suite links once, not once per file.

mod clash;
mod cli;
mod collide;
mod compare;
mod depth;
mod distance;
mod export;
mod fit;
mod gltf;
mod grid_scene;
mod load;
mod motion;
mod obj_stl;
mod parallel_load;
mod point_queries;
mod points;
mod render;
mod robots;
mod robots_world;
mod self_intersection;
mod tree_memory;
