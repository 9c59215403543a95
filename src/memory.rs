//! Large fresh vectors backed by 2 MiB pages where the kernel allows it,
//! so that filling them costs one page fault per 2 MiB instead of one per
//! 4 KiB.
//!
//! Reading a million-triangle tree (`ObbTree::from_bytes`) writes about
//! 150 MB of new memory (the tree's sections and the mesh rebuilt from
//! it); with 4 KiB pages a third of that time went to page faults (the
//! kernel mapping and zeroing each page). Linux backs an anonymous range
//! with transparent huge pages when `/sys/kernel/mm/transparent_hugepage/enabled`
//! is `always`, or `madvise` (the common default) and the range was
//! advised `MADV_HUGEPAGE`: what [`with_capacity`] does before the first
//! write. Elsewhere, or with THP `never`, it is a plain
//! `Vec::with_capacity`.

use std::mem::MaybeUninit;

/// Vectors of at least this many bytes are advised to huge pages; smaller
/// ones hold at most one whole 2 MiB page, and advising costs a system call.
pub const HUGE_BYTES: usize = 4 << 20;

/// The huge page size on x86-64 and most aarch64 kernels.
const HUGE_PAGE: usize = 2 << 20;

/// An empty vector with room for `n` items. When the room is
/// [`HUGE_BYTES`] or more, on Linux, every whole 2 MiB-aligned page inside
/// it is advised `MADV_HUGEPAGE` before anything touches it (the vector's
/// contents are unaffected; an error — THP unsupported — is ignored).
/// Fill it with `extend` or rayon's `par_extend` of an exact-length
/// iterator, which write in place.
pub fn with_capacity<T>(n: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    advise_huge(v.spare_capacity_mut());
    v
}

/// `n` copies of `x` in a vector from [`with_capacity`].
pub fn filled<T: Clone>(n: usize, x: T) -> Vec<T> {
    let mut v = with_capacity(n);
    v.resize(n, x);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge<T>(room: &mut [MaybeUninit<T>]) {
    let bytes = size_of_val(room);
    if bytes < HUGE_BYTES {
        return;
    }
    let start = room.as_mut_ptr() as usize;
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: `first..end` lies inside `room`, memory this vector owns
        // and nothing else references; MADV_HUGEPAGE changes only how the
        // kernel backs the range, never what it holds (and nothing reads
        // this uninitialised room before writing it). A failure leaves the
        // range as it was.
        unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge<T>(_room: &mut [MaybeUninit<T>]) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vectors_hold_what_is_put_in_them() {
        for n in [0, 1, 1000, (HUGE_BYTES / 8) + 12_345] {
            let mut v = with_capacity::<u64>(n);
            assert!(v.is_empty() && v.capacity() >= n);
            v.extend(0..n as u64);
            assert!(v.iter().enumerate().all(|(k, &x)| x == k as u64));
            assert_eq!(filled(n, 7u32), vec![7u32; n]);
        }
    }

    /// The range of a large vector is advised: the kernel lists the
    /// mapping holding its first whole 2 MiB page with the `hg` flag
    /// (`MADV_HUGEPAGE`) in `/proc/self/smaps`. (Whether huge pages are
    /// then given is the kernel's choice: it may refuse when memory is
    /// fragmented, so the faults saved are measured by
    /// `python/bench/pickle_trees.py`, not asserted here.)
    #[cfg(target_os = "linux")]
    #[test]
    fn large_vectors_are_advised_to_huge_pages() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            return; // a kernel without THP refuses the advice
        }
        let v = with_capacity::<u64>((64 << 20) / 8);
        let page = (v.as_ptr() as usize).next_multiple_of(HUGE_PAGE);
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        let mut flags = None;
        for line in smaps.lines() {
            if let Some((range, _)) = line.split_once(' ')
                && let Some((lo, hi)) = range.split_once('-')
                && let (Ok(lo), Ok(hi)) =
                    (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            {
                inside = lo <= page && page < hi;
            } else if inside && let Some(f) = line.strip_prefix("VmFlags:") {
                flags = Some(f.split_whitespace().map(str::to_owned).collect::<Vec<_>>());
            }
        }
        let flags = flags.expect("the vector's mapping is listed");
        assert!(flags.iter().any(|f| f == "hg"), "{flags:?}");
        let small = with_capacity::<u64>(1000);
        assert!(small.capacity() >= 1000);
    }
}
