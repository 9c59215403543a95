//! `--jsonl`: answers written as JSON Lines while they are computed — one
//! compact JSON object a line, the last line `{"summary": {...}}` — so that
//! memory holds one chunk of answers however many there are.

use super::output::{Failure, Outcome, out_lines};
use super::poses::PoseArgs;
use bvtool::Pose;
use bvtool::batch::collide::CHUNK;
use serde::Serialize;

/// The last line of a stream: `{"summary": ...}`. A stream without it did
/// not finish (the error is on stderr and the exit code says why).
#[derive(Serialize)]
pub struct SummaryLine<T> {
    /// What the command's summary holds.
    pub summary: T,
}

/// What answers a chunk of poses, given the index of its first.
pub type Answer<'a, R> = dyn FnMut(usize, &[Pose]) -> Result<Vec<R>, Failure> + 'a;

/// Reads the poses as they come, `size` (at most [`CHUNK`]) at a time;
/// `answer` gets each chunk with the index of its first pose and its
/// answers are written (one line each, in order) before the next chunk is
/// read.
pub fn pose_lines<R: Serialize>(
    poses: &PoseArgs,
    size: usize,
    answer: &mut Answer<'_, R>,
) -> Outcome {
    let size = size.clamp(1, CHUNK);
    let mut chunk = Vec::with_capacity(size);
    let mut done = 0;
    let mut flush = |chunk: &mut Vec<Pose>| -> Outcome {
        let answers = answer(done, chunk)?;
        done += chunk.len();
        chunk.clear();
        out_lines(&answers)
    };
    poses.each(&mut |p| {
        chunk.push(p);
        match chunk.len() == size {
            true => flush(&mut chunk),
            false => Ok(()),
        }
    })?;
    match chunk.is_empty() {
        true => Ok(()),
        false => flush(&mut chunk),
    }
}
