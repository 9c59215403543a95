//! Handing a whole fit to rayon's pool at once.

/// Runs `f` on a worker thread of rayon's global pool (at once when the
/// calling thread is a pool's worker already). A fit makes a dozen or more
/// parallel calls; each one made from a thread outside the pool hands its
/// work over and sleeps until it is done — about 20 µs a call measured on
/// this project's 2-core machine, more than the whole fit of an 8-vertex
/// hull — while a call made on a worker only pushes onto that worker's own
/// queue. So the fit's entry points hand themselves over once.
pub(crate) fn on_pool<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    if rayon::current_thread_index().is_some() {
        f()
    } else {
        rayon::scope(|_| f())
    }
}
