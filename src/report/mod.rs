//! What the commands report: serializable summaries built from loaded scenes,
//! fitted volumes and query results, and their human-readable tables.
//!
//! Every per-file command's JSON output is one document `{"files": [...]}`
//! with one object per input file, in input order ([`FilesDoc`]).

use serde::Serialize;

pub mod clash;
pub mod collide;
pub(crate) mod colliders;
pub(crate) mod compare;
pub(crate) mod distance;
pub(crate) mod fit;
pub mod info;
pub(crate) mod motion;
pub(crate) mod table;
pub mod tree;
pub(crate) mod verify;
pub(crate) mod verify_distance;

/// The JSON document of every per-file command: `{"files": [...]}`.
#[derive(Debug, Serialize)]
pub struct FilesDoc<'a, T> {
    /// One object per input file, in the order given.
    pub files: &'a [T],
}

pub use crate::mesh::xyz;

pub use crate::batch::{median, timed};
