//! Rayon's worker threads: handing work to them, and keeping them on
//! separate CPUs as the command line sets them up.

/// Runs `f` on a worker thread of rayon's global pool (at once when the
/// calling thread is a pool's worker already). A fit makes a dozen or more
/// parallel calls; each one made from a thread outside the pool hands its
/// work over and sleeps until it is done — about 20 µs a call measured on
/// this project's 2-core machine, more than the whole fit of an 8-vertex
/// hull — while a call made on a worker only pushes onto that worker's own
/// queue. So the fits' entry points, and the command line's per-file work,
/// hand themselves over once.
pub fn on_pool<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    if rayon::current_thread_index().is_some() {
        f()
    } else {
        rayon::scope(|_| f())
    }
}

/// Builds rayon's global pool with each worker kept on one CPU of those
/// this process may run on (worker `i` on the `i`-th allowed CPU), and
/// returns whether it did. It does nothing off Linux, with fewer than two
/// CPUs allowed, once the global pool exists (rayon builds it on first
/// use, so call this first), or when the pool would have a different
/// number of workers than CPUs (`RAYON_NUM_THREADS` set, a CPU quota):
/// fewer workers pinned to the first CPUs would pile every process of a
/// parallel batch onto those.
///
/// Why: the fit of a small model lasts about a millisecond, less than the
/// scheduler takes to spread threads that woke up on one CPU. Left free,
/// the two workers on this project's 2-core machine shared one CPU in
/// about 60 % of fresh processes — Fox's minimum-box search then took
/// 0.68 ms instead of 0.45 — and pinned, every process ran at the fast
/// level (docs/algorithms.md, the minimum box's seventh round). The cost:
/// a pinned worker cannot leave a CPU that another program keeps busy
/// (the others still steal its queued work).
pub fn pin_workers() -> bool {
    #[cfg(target_os = "linux")]
    {
        let cpus = linux::allowed_cpus();
        let workers = std::env::var_os("RAYON_NUM_THREADS")
            .is_none()
            .then(|| std::thread::available_parallelism().ok())
            .flatten()
            .map_or(0, |n| n.get());
        cpus.len() >= 2
            && workers == cpus.len()
            && rayon::ThreadPoolBuilder::new()
                .num_threads(workers)
                .start_handler(move |i| linux::pin_to(cpus[i]))
                .build_global()
                .is_ok()
    }
    #[cfg(not(target_os = "linux"))]
    false
}

#[cfg(target_os = "linux")]
mod linux {
    use std::mem::{size_of, zeroed};

    /// The CPUs this process may run on, ascending (none if the system
    /// will not say).
    pub(super) fn allowed_cpus() -> Vec<usize> {
        // SAFETY: `cpu_set_t` is plain bits (all zero is the empty set),
        // and `sched_getaffinity` writes at most `size_of::<cpu_set_t>()`
        // bytes into it.
        unsafe {
            let mut set: libc::cpu_set_t = zeroed();
            if libc::sched_getaffinity(0, size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                return Vec::new();
            }
            (0..libc::CPU_SETSIZE as usize)
                .filter(|&c| libc::CPU_ISSET(c, &set))
                .collect()
        }
    }

    /// Keeps the calling thread on `cpu` (a failure leaves it free).
    pub(super) fn pin_to(cpu: usize) {
        // SAFETY: as above; `CPU_SET` is given a CPU below `CPU_SETSIZE`
        // (one `allowed_cpus` returned), and `sched_setaffinity` reads the
        // set only.
        unsafe {
            let mut set: libc::cpu_set_t = zeroed();
            libc::CPU_SET(cpu, &mut set);
            libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set);
        }
    }
}
