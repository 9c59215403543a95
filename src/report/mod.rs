//! What the commands report: serializable summaries built from loaded scenes,
//! fitted volumes and query results, and their human-readable tables.
//!
//! Every per-file command's JSON output is one document `{"files": [...]}`
//! with one object per input file, in input order ([`FilesDoc`]).

use serde::Serialize;

pub mod clash;
pub mod collide;
pub mod compare;
pub mod fit;
pub mod info;
pub mod table;
pub mod tree;
pub mod verify;

/// The JSON document of every per-file command: `{"files": [...]}`.
#[derive(Debug, Serialize)]
pub struct FilesDoc<'a, T> {
    /// One object per input file, in the order given.
    pub files: &'a [T],
}

/// `[x, y, z]` from a point or vector.
pub fn xyz(v: &nalgebra::Point3<f64>) -> [f64; 3] {
    [v.x, v.y, v.z]
}
