//! One query between two files at many poses, with each answer's
//! counters, timings and second opinions: the engines of `bvtool collide`,
//! `distance` and `verify`. Each run returns its typed document; the text
//! forms are in `report`.

pub mod collide;
pub mod distance;
pub mod motion;
pub mod sdf;
pub mod verify;
pub mod verify_distance;

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

/// Serialises a time in milliseconds to the microsecond, the clock's
/// meaningful precision (a sum of many times carries rounding noise in its
/// last digits otherwise).
pub fn to_micros<S: serde::Serializer>(ms: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((ms * 1e3).round() / 1e3)
}
