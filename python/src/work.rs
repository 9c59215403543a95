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
//! `World.from_scene` at its next tree, `fit` at its next stage or axis
//! tried ([`run_until`], [`bvtool::threads::Stop`],
//! `FileVolumes::new_until`); other work (loading, decompositions — V-HACD
//! inside `fit` too —, robots) runs to its end on the pool, invisible to
//! Python.

use bvtool::threads::{Stop, Stopped};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, sync_channel};
use std::time::Duration;

/// How often a waiting call checks for a signal.
pub const POLL: Duration = Duration::from_millis(20);

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
