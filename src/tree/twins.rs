//! Triangles that are copies of one another (the same three welded
//! corners), kept sparse: most meshes have none, and a query asks about
//! every triangle pair it tests.

use rayon::prelude::*;

/// For each triangle slot of a tree whose three corners (as a set of welded
/// vertices, so exactly) are those of other triangles too, the first such
/// slot: a bit per slot says whether it has twins, and a table sorted by
/// slot names the first of each twin slot's group. `T/8` bytes plus 8 a
/// twin, where a `u32` per slot took `4·T`.
#[derive(Clone, Debug, Default)]
pub struct Twins {
    /// Bit `k % 64` of word `k / 64`: slot `k` has twins.
    marked: Vec<u64>,
    /// `(slot, first slot of its group)` for every marked slot, by slot.
    first: Vec<(u32, u32)>,
}

impl Twins {
    /// The twins of `triangles` (indices into welded vertices): slots
    /// sorted by their sets of vertex indices, then each run of equal sets
    /// pointed at its first slot. O(n log n), in parallel.
    pub fn of(triangles: &[[u32; 3]]) -> Twins {
        let key = |t: &[u32; 3]| {
            let mut k = *t;
            k.sort_unstable();
            k
        };
        let keys: Vec<[u32; 3]> = triangles.par_iter().map(key).collect();
        let mut order: Vec<u32> = (0..triangles.len() as u32).collect();
        order.par_sort_unstable_by_key(|&k| (keys[k as usize], k));
        let mut marked = vec![0u64; triangles.len().div_ceil(64)];
        let mut first = Vec::new();
        for run in order.chunk_by(|&a, &b| keys[a as usize] == keys[b as usize]) {
            if run.len() > 1 {
                for &k in run {
                    marked[k as usize / 64] |= 1 << (k % 64);
                    first.push((k, run[0]));
                }
            }
        }
        first.sort_unstable();
        first.shrink_to_fit();
        Twins { marked, first }
    }

    /// The first slot (in node order) of the twin group of slot `k`; `None`
    /// when the triangle in slot `k` has no twin.
    #[inline]
    pub fn first_copy(&self, k: u32) -> Option<u32> {
        if self.marked[k as usize / 64] & (1 << (k % 64)) == 0 {
            return None;
        }
        let i = self.first.partition_point(|&(s, _)| s < k);
        Some(self.first[i].1)
    }

    /// Whether no triangle has a twin.
    pub fn is_empty(&self) -> bool {
        self.first.is_empty()
    }

    /// The table's two parts: the bit per slot and the `(slot, first
    /// slot)` pairs ([`super::bytes`] stores them).
    pub(super) fn parts(&self) -> (&[u64], &[(u32, u32)]) {
        (&self.marked, &self.first)
    }

    /// The table from its parts, unchecked ([`super::bytes`] checks them).
    pub(super) fn from_parts(marked: Vec<u64>, first: Vec<(u32, u32)>) -> Twins {
        Twins { marked, first }
    }

    /// Bytes held (allocated capacity).
    pub fn bytes(&self) -> usize {
        self.marked.capacity() * 8 + self.first.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a quadratic search: every slot's first twin is the least
    /// slot with the same set of corners (in any order), `None` alone.
    #[test]
    fn first_copies_match_a_quadratic_search() {
        let mut state = 7u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % n) as u32
        };
        for n in [0usize, 1, 2, 63, 64, 65, 300] {
            // Few distinct vertices, so that twins (in rotated corner
            // orders) are common.
            let triangles: Vec<[u32; 3]> = (0..n)
                .map(|_| {
                    let t = [next(6), next(6), next(6)];
                    let r = next(3) as usize;
                    [t[r], t[(r + 1) % 3], t[(r + 2) % 3]]
                })
                .collect();
            let twins = Twins::of(&triangles);
            let set = |t: &[u32; 3]| {
                let mut s = *t;
                s.sort_unstable();
                s
            };
            let mut any = false;
            for (k, t) in triangles.iter().enumerate() {
                let same: Vec<usize> = (0..n).filter(|&j| set(&triangles[j]) == set(t)).collect();
                let expected = (same.len() > 1).then(|| same[0] as u32);
                any |= expected.is_some();
                assert_eq!(twins.first_copy(k as u32), expected, "slot {k} of {n}");
            }
            assert_eq!(twins.is_empty(), !any);
        }
    }
}
