//! Rayon's worker threads: handing work to them, keeping them on separate
//! CPUs as the command line sets them up, and the pool a library embedded
//! in another program owns ([`pool`]: the Python package's, fork-safe);
//! and how a caller asks long work to stop early ([`Stop`]).

use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

/// A caller's way to stop long work early: a flag the caller may set from
/// another thread (a Python call interrupted by Ctrl-C sets it), which the
/// work checks at its chunk boundaries — per subtree of a few thousand
/// triangles in a tree build, per task of node pairs in a clash — and
/// then gives up, returning [`Stopped`] and no partial answer. A check is
/// one relaxed load, so the work costs the same with or without a flag.
///
/// Passed down explicitly rather than kept in a global or thread-local
/// (rayon's tasks have no task-local storage, and two calls may run at
/// once, only one of them asked to stop). [`Stop::NEVER`] is the plain
/// entry points' (they keep their signatures and delegate).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stop<'a>(Option<&'a AtomicBool>);

impl<'a> Stop<'a> {
    /// No flag: the work runs to its end.
    pub const NEVER: Stop<'static> = Stop(None);

    /// Stops when `flag` is set (by anyone, at any time).
    pub fn on(flag: &'a AtomicBool) -> Stop<'a> {
        Stop(Some(flag))
    }

    /// Whether the work was asked to stop (a relaxed load: a flag set on
    /// another thread is seen within a check or two).
    #[inline]
    pub fn is_set(self) -> bool {
        self.0.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// `Err(Stopped)` when the work was asked to stop.
    #[inline]
    pub fn check(self) -> Result<(), Stopped> {
        if self.is_set() { Err(Stopped) } else { Ok(()) }
    }
}

/// The outcome of work stopped early through its [`Stop`]: nothing of it
/// is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped at the caller's request")
    }
}

impl std::error::Error for Stopped {}

/// The answer of stoppable work run with [`Stop::NEVER`], which cannot
/// stop: how the plain entry points delegate to their stoppable ones.
pub fn unstopped<T>(work: impl FnOnce(Stop<'static>) -> Result<T, Stopped>) -> T {
    match work(Stop::NEVER) {
        Ok(t) => t,
        Err(Stopped) => unreachable!("Stop::NEVER is never set"),
    }
}

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
    pinned(rayon::ThreadPoolBuilder::new()).is_some_and(|b| b.build_global().is_ok())
}

/// `builder` with its workers kept one to a CPU, when the conditions of
/// [`pin_workers`] hold (Linux, two or more CPUs allowed, rayon's default
/// worker count equal to theirs); `None` otherwise.
fn pinned(builder: rayon::ThreadPoolBuilder) -> Option<rayon::ThreadPoolBuilder> {
    #[cfg(target_os = "linux")]
    {
        let cpus = linux::allowed_cpus();
        let workers = std::env::var_os("RAYON_NUM_THREADS")
            .is_none()
            .then(|| std::thread::available_parallelism().ok())
            .flatten()
            .map_or(0, |n| n.get());
        (cpus.len() >= 2 && workers == cpus.len()).then(|| {
            builder
                .num_threads(workers)
                .start_handler(move |i| linux::pin_to(cpus[i]))
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = builder;
        None
    }
}

/// This process's bvtool pool, with the process id that built it.
struct Owned {
    pid: u32,
    pool: rayon::ThreadPool,
}

/// The current process's pool ([`pool`]); null until first use.
static POOL: AtomicPtr<Owned> = AtomicPtr::new(std::ptr::null_mut());

/// A thread pool of bvtool's own for the current process, built on first
/// use (workers named `bvtool-N`, as many as rayon's default: the
/// `RAYON_NUM_THREADS` variable or the CPUs available), so that a program
/// embedding the library starts no thread until it asks for parallel work
/// and never builds rayon's global pool. Run parallel work in it with
/// `pool().install(…)`.
///
/// Fork-safe: a child created by `fork` inherits the parent's memory but
/// none of its threads, so a pool built before the fork would wait forever
/// for workers that do not exist. The pool remembers the process id that
/// built it; a call from another process (a forked child) builds a pool of
/// its own and never touches the parent's (whose memory is left as it is:
/// its threads' locks and queues are not this process's). No lock is taken
/// (a compare-and-swap of one pointer), so a fork taken in the middle of a
/// call cannot leave one held. A pool is never dropped (one per process
/// that asked; a few kilobytes and its idle threads).
pub fn pool() -> &'static rayon::ThreadPool {
    pool_with(false).0
}

/// Builds the current process's [`pool`] with its workers kept one to a
/// CPU, as [`pin_workers`] keeps the global pool's and under the same
/// conditions (Linux, two or more CPUs allowed, as many workers as CPUs),
/// and returns whether it did: `false` also when this process's pool exists
/// already (a pool's threads cannot be moved after the fact). Pinning is a
/// process-wide scheduling choice for the embedding program to make, so
/// nothing calls this on its own; a forked child's pool is unpinned until
/// the child calls it.
pub fn pin_pool() -> bool {
    pool_with(true).1
}

/// The current process's pool, built (pinned when `pin` and the conditions
/// of [`pin_pool`] hold) if this process has none; and whether this call
/// built a pinned one.
fn pool_with(pin: bool) -> (&'static rayon::ThreadPool, bool) {
    let pid = std::process::id();
    let current = POOL.load(Ordering::Acquire);
    // SAFETY: a non-null `POOL` points at a leaked `Owned`, never freed.
    if let Some(owned) = unsafe { current.as_ref() }
        && owned.pid == pid
    {
        return (&owned.pool, false);
    }
    let (builder, pinned) = pool_builder(pin);
    let built = Box::into_raw(Box::new(Owned {
        pid,
        pool: builder
            .build()
            .expect("rayon builds a pool unless threads cannot be spawned"),
    }));
    match POOL.compare_exchange(current, built, Ordering::AcqRel, Ordering::Acquire) {
        // SAFETY: `built` was leaked just above and is never freed.
        Ok(_) => (unsafe { &(*built).pool }, pinned),
        Err(winner) => {
            // Another thread of this process built one first: use that.
            // SAFETY: `built` is ours alone (never published), so it may
            // be freed; `winner` is a leaked `Owned` of this process, as a
            // thread of this process stored it after our load.
            drop(unsafe { Box::from_raw(built) });
            (unsafe { &(*winner).pool }, false)
        }
    }
}

/// The builder of a new [`pool`]: named workers, pinned one to a CPU when
/// `pin` and the conditions of [`pin_workers`] hold (and whether they do).
fn pool_builder(pin: bool) -> (rayon::ThreadPoolBuilder, bool) {
    let named = || rayon::ThreadPoolBuilder::new().thread_name(|i| format!("bvtool-{i}"));
    match pin.then(|| pinned(named())).flatten() {
        Some(b) => (b, true),
        None => (named(), false),
    }
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
