//! The fitters of `bvtool::fit`: boxes, spheres, round shapes, hulls, k-DOPs, decomposition.
//!
//! One test binary of modules (the files beside this one), as ripgrep does:
//! the suite links once, not once per file.

mod best;
mod decompose;
mod hull;
mod hull_budget;
mod kdop;
mod min_obb;
mod obb;
mod per_mesh;
mod round;
mod round_hulls;
mod sphere;
mod stop;
