//! Clash detection and self-intersection on scenes (`bvtool::clash`).
//!
//! One test binary of modules (the files beside this one), as ripgrep does:
//! the suite links once, not once per file.

mod detect;
mod fans;
mod stop;
