//! Where the module's parallel work runs, and how a call waits for it.
//!
//! Every call that can run long or in parallel runs on bvtool's own pool
//! for this process ([`bvtool::threads::pool`]): built on first use, never
//! at import, and a new one in a child created by `fork` — so the module
//! starts no thread until asked for work, never builds rayon's global pool,
//! and works in a forked `multiprocessing` child. The calling thread
//! releases the GIL and waits for the work, checking every [`POLL`] for a
//! pending signal (Ctrl-C): then it sets the work's cancel flag and raises
//! at once (`KeyboardInterrupt`), and the abandoned work's answer is
//! dropped when it ends. Work that checks the flag stops within
//! milliseconds and frees the pool: a batch at its next pose, a tree build
//! at its next subtree of 4,096 triangles, `self_intersections` at its
//! next node pair, `clash` at its next tree or candidate pair,
//! `World.from_scene` at its next tree, a `World` query at its next body
//! pair, `compare`, `export` and `render` between their stages and items
//! (their fits as `fit`), `Robot(...)` at its next link or tree, `fit` at
//! its next stage or axis
//! tried ([`run_until`], [`bvtool::threads::Stop`],
//! `FileVolumes::new_until`). Batches of independent items (points, rays,
//! robot configurations) run in chunks on the calling thread instead, a
//! signal checked between chunks ([`chunked`]). Other work (loading,
//! decompositions — V-HACD inside `fit` too) runs to its end on the pool,
//! invisible to Python.

use bvtool::threads::{Stop, Stopped};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

/// How often a waiting call checks for a signal.
pub const POLL: Duration = Duration::from_millis(20);

/// A chunk of [`chunked`] taking less than this makes the next one twice
/// as large (one taking over four times this, half as large).
const CHUNK_TIME: Duration = Duration::from_millis(10);

/// `f` over the items `0..len` in chunks of consecutive items, each chunk
/// on this process's pool with the GIL released ([`bvtool::threads::pool`]:
/// never rayon's global one, so a forked child works), the answers
/// concatenated; a pending signal (Ctrl-C) is checked between chunks: it
/// raises `KeyboardInterrupt` and stops the batch at the end of the chunk
/// being answered, and nothing is returned. A chunk starts at `first`
/// items and doubles while one takes under [`CHUNK_TIME`] (halves when one
/// takes over four times that), so a batch whose items cost about the same
/// checks every 10–40 ms of work; each chunk costs one hand-over to the
/// pool (tens of microseconds). The first error of `f` ends the batch.
pub fn chunked<R: Send>(
    py: Python<'_>,
    len: usize,
    first: usize,
    f: impl Fn(Range<usize>) -> PyResult<Vec<R>> + Sync + Send,
) -> PyResult<Vec<R>> {
    let mut out = Vec::with_capacity(len);
    let (mut start, mut chunk) = (0, first.max(1));
    while start < len {
        let part = start..len.min(start.saturating_add(chunk));
        let began = Instant::now();
        let n = part.len();
        out.extend(py.detach(|| bvtool::threads::pool().install(|| f(part)))?);
        py.check_signals()?;
        let took = began.elapsed();
        start += n;
        if took < CHUNK_TIME {
            chunk = chunk.saturating_mul(2);
        } else if took > 4 * CHUNK_TIME {
            chunk = (chunk / 2).max(1);
        }
    }
    Ok(out)
}

/// Set when the caller gave up on the work (a signal): work that can stop
/// early checks it.
pub type Cancel = Arc<AtomicBool>;

/// Whether the caller gave up on the work.
pub fn cancelled(c: &AtomicBool) -> bool {
    c.load(Ordering::Relaxed)
}

/// [`run`] for work that can stop early ([`Stop`]): `f` is given the
/// call's cancel flag as its stop, so Ctrl-C stops the work itself, not
/// only the wait. A stopped answer is only possible once the flag is set,
/// when the caller has raised already; it reads as `KeyboardInterrupt`.
pub fn run_until<R: Send + 'static>(
    py: Python<'_>,
    f: impl FnOnce(Stop<'_>) -> Result<R, Stopped> + Send + 'static,
) -> PyResult<R> {
    run(py, move |cancel| f(Stop::on(cancel)))?.map_err(stopped)
}

/// The error of work stopped through its [`Stop`] ([`run_until`]): only
/// once the caller raised already, so no one sees it.
pub fn stopped(_: Stopped) -> PyErr {
    PyKeyboardInterrupt::new_err("stopped")
}

/// `f` on this process's pool, with the GIL released, the calling thread
/// waiting and checking for signals every [`POLL`] ([`self`]). A panic in
/// `f` reaches the caller (pyo3 turns it into `PanicException`).
pub fn run<R: Send + 'static>(
    py: Python<'_>,
    f: impl FnOnce(&AtomicBool) -> R + Send + 'static,
) -> PyResult<R> {
    let cancel: Cancel = Arc::default();
    let (tx, rx) = sync_channel(1);
    let flag = cancel.clone();
    py.detach(|| {
        bvtool::threads::pool().spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&flag)));
            // The caller may have gone (a signal): then the answer is dropped.
            let _ = tx.send(r);
        })
    });
    let mut rx = rx;
    loop {
        // The receiver travels into the GIL-free wait and back (it is Send,
        // not Sync).
        let (answer, back) = py.detach(move || (rx.recv_timeout(POLL), rx));
        rx = back;
        match answer {
            Ok(Ok(r)) => return Ok(r),
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "bvtool's worker pool dropped a task unanswered",
                ));
            }
        }
    }
}
