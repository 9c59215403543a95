//! Robots (`src/robots/`): URDF reading, forward kinematics against hand
//! computed poses, self-collision and self-distance against the exact
//! pairwise check without the broad phase, hostile URDFs, and the `robot`
//! command. The corpus robots (Panda, UR5, Allegro hand) are checked in
//! `tests/models/robots.rs`.
//!
//! A module of the `bodies` test binary (the files beside this one).

mod acm;
mod arm;
mod cli;
mod distance;
mod hostile;
mod jsonl;
mod kinematics;
mod render;
mod self_collision;
mod stop;
mod world;
