//! Pictures: the renderer, the shape overlays and the bar chart.
//!
//! One test binary of modules (the files beside this one), as ripgrep does:
//! the suite links once, not once per file.

mod chart;
mod picture;
mod shapes;
mod sweep;
