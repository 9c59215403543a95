//! Rayon's workers pinned one to a CPU (`threads::pin_workers`). This binary
//! builds no pool before these tests: they build the global one first.

/// The calling thread's allowed CPUs, as the kernel lists them in
/// `/proc/thread-self/status` ("0-1", "0,2,5-7").
#[cfg(target_os = "linux")]
fn allowed_cpus() -> Vec<usize> {
    let status = std::fs::read_to_string("/proc/thread-self/status").unwrap();
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap()
        .trim();
    list.split(',')
        .flat_map(|r| match r.split_once('-') {
            Some((a, b)) => (a.parse().unwrap()..=b.parse().unwrap()).collect::<Vec<usize>>(),
            None => vec![r.parse().unwrap()],
        })
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn each_worker_is_kept_on_one_allowed_cpu() {
    let allowed = allowed_cpus();
    let pinned = bvtool::threads::pin_workers();
    // Only as many workers as CPUs are pinned (rayon's default count).
    let default = std::env::var_os("RAYON_NUM_THREADS").is_none()
        && std::thread::available_parallelism().unwrap().get() == allowed.len();
    if allowed.len() < 2 || !default {
        assert!(!pinned, "pinned with {allowed:?} allowed");
        let per_worker: Vec<Vec<usize>> = rayon::broadcast(|_| allowed_cpus());
        assert!(per_worker.iter().all(|c| c == &allowed), "{per_worker:?}");
        return;
    }
    assert!(pinned);
    let per_worker: Vec<Vec<usize>> = rayon::broadcast(|_| allowed_cpus());
    assert_eq!(per_worker.len(), allowed.len());
    for (i, cpus) in per_worker.iter().enumerate() {
        assert_eq!(cpus, &[allowed[i]], "worker {i}");
    }
    // The calling thread is left as it was, and the pool is built once.
    assert_eq!(allowed_cpus(), allowed);
    assert!(!bvtool::threads::pin_workers());
}

/// bvtool's own pool (`threads::pool`): built once per process, its
/// workers named `bvtool-N`, distinct from rayon's global pool, pinned one
/// to a CPU when `pin_pool` built it under the default conditions (and
/// `pin_pool` refuses once the pool exists).
#[cfg(target_os = "linux")]
#[test]
fn the_own_pool_is_built_once_named_and_pinned_on_request() {
    let allowed = allowed_cpus();
    let default = std::env::var_os("RAYON_NUM_THREADS").is_none()
        && std::thread::available_parallelism().unwrap().get() == allowed.len();
    let pinned = bvtool::threads::pin_pool();
    assert_eq!(pinned, allowed.len() >= 2 && default);
    let pool = bvtool::threads::pool();
    assert!(std::ptr::eq(pool, bvtool::threads::pool()));
    assert!(!bvtool::threads::pin_pool());
    let names: Vec<String> =
        pool.broadcast(|_| std::thread::current().name().unwrap_or("").to_owned());
    let expected: Vec<String> = (0..pool.current_num_threads())
        .map(|i| format!("bvtool-{i}"))
        .collect();
    assert_eq!(names, expected);
    assert_eq!(pool.install(rayon::current_num_threads), names.len());
    let per_worker: Vec<Vec<usize>> = pool.broadcast(|_| allowed_cpus());
    for (i, cpus) in per_worker.iter().enumerate() {
        if pinned {
            assert_eq!(cpus, &[allowed[i]], "worker {i}");
        } else {
            assert_eq!(cpus, &allowed, "worker {i}");
        }
    }
}
