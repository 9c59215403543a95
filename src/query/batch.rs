//! One query at many poses, in parallel: the calling thread works through
//! the poses with the thread pool's help.
//!
//! A batch of first-contact queries is short (100 poses of the 69k bunny
//! take about 380 µs on one core) and its poses differ in cost by 10× and
//! more, so how the work is handed out shows. Rayon's default split of the
//! poses into a few runs left one thread with the heavy ones (duck/teddy's
//! 100 bench poses: 666–1,026 µs on two threads, 1,375 on one); its
//! `par_iter` with one
//! pose a task (which balances the uneven poses) cost about 0.25 µs a pose
//! in splitting and joining, and a caller outside the pool sat idle while
//! the pool's threads woke up and then waited to be woken in turn. Here
//! the poses are claimed one at a time from a shared counter, by the
//! caller at once and by `threads − 1` helper jobs as the pool takes them
//! up, so nobody waits for work and the caller spins only for the poses
//! still running when the counter runs out.

use crate::pose::Pose;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The longest the caller spins for the helpers' last poses before it
/// blocks: a few slow first-contact queries.
const SPIN: Duration = Duration::from_micros(100);

/// `f` at every pose of `poses`, in parallel on rayon's current pool with
/// the calling thread working too; the answers in the order of `poses`.
///
/// A panic in `f` reaches the caller (rayon's scope carries a helper's).
pub fn each_pose<R: Send + Sync>(poses: &[Pose], f: impl Fn(&Pose) -> R + Sync) -> Vec<R> {
    each_indexed(poses, |_, p| f(p))
}

/// [`each_pose`] over any items, `f` also given each item's place in
/// `items`.
pub fn each_indexed<T: Sync, R: Send + Sync>(
    poses: &[T],
    f: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let out: Vec<OnceLock<R>> = poses.iter().map(|_| OnceLock::new()).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(p) = poses.get(i) else { return };
            // Each index is claimed once, so the cell is always empty.
            let _ = out[i].set(f(i, p));
            done.fetch_add(1, Ordering::Release);
        }
    };
    let helpers = rayon::current_num_threads()
        .min(poses.len())
        .saturating_sub(1);
    rayon::in_place_scope(|s| {
        for _ in 0..helpers {
            s.spawn(|_| work());
        }
        work();
        // The last poses finish on the helpers: mostly a short wait, spent
        // spinning rather than in the scope's blocking wait (whose wake-up
        // costs more than a first-contact query), for at most `SPIN`.
        let start = Instant::now();
        while done.load(Ordering::Acquire) < poses.len() && start.elapsed() < SPIN {
            std::hint::spin_loop();
        }
    });
    out.into_iter()
        .map(|o| o.into_inner().expect("every pose is answered"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::each_pose;
    use crate::pose::Pose;
    use nalgebra::{UnitQuaternion, Vector3};

    /// Every pose answered once, in order, whatever the pool's size,
    /// including the empty batch and a batch of one.
    #[test]
    fn answers_in_order_on_any_pool() {
        let poses: Vec<Pose> = (0..257)
            .map(|i| Pose::new(Vector3::new(i as f64, 0.0, 0.0), UnitQuaternion::identity()))
            .collect();
        for threads in [1, 2, 5] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            for n in [0, 1, 2, 257] {
                let got = pool.install(|| each_pose(&poses[..n], |p| p.translation.x as usize));
                assert_eq!(
                    got,
                    (0..n).collect::<Vec<_>>(),
                    "{threads} threads, {n} poses"
                );
            }
        }
    }

    /// A panic at one pose reaches the caller, from the caller's own share
    /// or a helper's.
    #[test]
    fn a_panic_reaches_the_caller() {
        let poses: Vec<Pose> = (0..64)
            .map(|i| Pose::new(Vector3::new(i as f64, 0.0, 0.0), UnitQuaternion::identity()))
            .collect();
        for bad in [0.0, 63.0] {
            let r = std::panic::catch_unwind(|| {
                each_pose(&poses, |p| assert!(p.translation.x != bad, "pose {bad}"))
            });
            assert!(r.is_err(), "pose {bad}");
        }
    }
}
