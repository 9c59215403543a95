//! The command line as a user runs it: exit codes, messages, JSON, progress, `compare`.
//!
//! One test binary of modules (the files beside this one), as ripgrep does:
//! the suite links once, not once per file.

mod clash;
mod clash_instances;
mod colliders;
mod commands;
mod compare;
mod depth;
mod habits;
mod hostile;
mod motion;
mod points;
mod report_progress;
mod shapes;
mod stacks;
mod stream;
