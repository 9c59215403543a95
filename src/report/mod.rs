//! What the commands report: serializable summaries built from loaded scenes,
//! fitted volumes and query results, and their human-readable tables.
//!
//! Every per-file command's JSON output is one document `{"files": [...]}`
//! with one object per input file, in input order ([`FilesDoc`]).

use serde::Serialize;

pub mod clash;
pub mod collide;
pub mod compare;
pub mod distance;
pub mod fit;
pub mod info;
pub mod table;
pub mod tree;
pub mod verify;
pub mod verify_distance;

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

/// Runs `query` `repeat` times (at least once): its last answer and the
/// median of its times, in microseconds. A single cold run can read several
/// times the warm time (caches, page faults), so benchmarks repeat.
pub fn timed<T>(repeat: usize, mut query: impl FnMut() -> T) -> (T, f64) {
    let mut times = Vec::with_capacity(repeat.max(1));
    let mut answer = None;
    for _ in 0..repeat.max(1) {
        let t = std::time::Instant::now();
        answer = Some(query());
        times.push(t.elapsed().as_secs_f64() * 1e6);
    }
    (answer.expect("ran at least once"), median(times))
}

/// The median of some numbers (the mean of the middle two for an even
/// count; NaN for none).
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => 0.5 * (values[n / 2 - 1] + values[n / 2]),
    }
}
