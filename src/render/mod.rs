//! Pictures: a shaded model with its bounding volumes as wireframes
//! (`bvtool render`, `collide --render`), the motion of `collide --to
//! --render` ([`sweep`]) and the bar chart of `compare --plot`.
//!
//! Build a [`RenderScene`] (meshes in the world frame, each with a colour and
//! optional highlighted triangles; volumes with labels and colours), pick
//! [`RenderOptions`] (a [`View`] or the 2×2 grid, a size), and call
//! [`render`]; [`cameras`] gives the projections it used. Everything is
//! drawn in software, deterministically: triangles by an own z-buffer
//! rasterizer, lines and circles anti-aliased by `tiny-skia`, text from the
//! embedded glyphs of `noto-sans-mono-bitmap`.

pub(crate) mod camera;
pub(crate) mod canvas;
pub mod chart;
pub mod clash;
pub mod compose;
pub(crate) mod picture;
pub(crate) mod raster;
pub mod robot;
pub mod scene;
pub mod sweep;

pub use camera::{Camera, UpAxis, View};
pub use chart::bar_chart;
pub use picture::{cameras, render, save_png};
pub use scene::{
    HIGHLIGHT, Layout, MAX_SIDE, MESH_COLORS, MeshLayer, PALETTE, RenderOptions, RenderScene, Rgb,
    Volume, VolumeLayer, parse_size,
};
