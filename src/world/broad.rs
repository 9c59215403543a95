//! The world's broad phase: sweep and prune on one axis, kept sorted
//! between pose updates.
//!
//! Each body has a world axis-aligned box. The bodies are kept in order of
//! their boxes' lower bound along one axis (the one along which the boxes'
//! centres spread most when the order was last chosen). A pose update
//! changes boxes, not the order; [`Sweep::resort`] then restores it by
//! insertion sort, which costs `O(n + swaps)`: after a small motion almost
//! nothing moves. The sweep visits, for each body in that order, the bodies
//! that start before it ends, and tests their boxes on all three axes.

use crate::fit::Aabb;

/// The sorted boxes.
#[derive(Clone, Debug, Default)]
pub(super) struct Sweep {
    /// The sweep axis (0, 1 or 2).
    axis: usize,
    /// Body indices, by their box's lower bound on `axis`.
    order: Vec<u32>,
    /// Each body's world box.
    pub(super) boxes: Vec<Aabb>,
}

/// Whether two closed boxes come within `gap` of each other on every axis
/// (`gap` 0: they overlap or touch).
#[inline]
pub(super) fn near(a: &Aabb, b: &Aabb, gap: f64) -> bool {
    (0..3).all(|k| a.min[k] <= b.max[k] + gap && b.min[k] <= a.max[k] + gap)
}

/// The axis along which the boxes' centres spread most (their variance).
fn widest_axis(boxes: &[Aabb]) -> usize {
    let n = boxes.len().max(1) as f64;
    let mean = boxes
        .iter()
        .fold(nalgebra::Vector3::zeros(), |s, b| s + b.center().coords / n);
    let var = boxes.iter().fold(nalgebra::Vector3::zeros(), |s, b| {
        let d = b.center().coords - mean;
        s + d.component_mul(&d)
    });
    var.imax()
}

impl Sweep {
    /// The lower bound of body `i`'s box on the sweep axis.
    fn key(&self, i: u32) -> f64 {
        self.boxes[i as usize].min[self.axis]
    }

    /// Adds a body's box (its index is the next one), in order.
    pub(super) fn push(&mut self, b: Aabb) {
        let i = self.boxes.len() as u32;
        self.boxes.push(b);
        let at = self
            .order
            .partition_point(|&j| self.key(j).total_cmp(&self.key(i)).is_le());
        self.order.insert(at, i);
    }

    /// Removes body `i`'s box: later bodies' indices shift down by one,
    /// the order of the others kept (`O(n)`, nothing re-sorted).
    pub(super) fn remove(&mut self, i: usize) {
        self.boxes.remove(i);
        let i = i as u32;
        self.order.retain(|&j| j != i);
        for j in &mut self.order {
            *j -= u32::from(*j > i);
        }
    }

    /// Restores the order after boxes changed: insertion sort, `O(n +
    /// swaps)`. Returns the swaps made. When the boxes' centres now spread
    /// at least twice as much along another axis, that axis becomes the
    /// sweep axis (and the order is sorted afresh).
    pub(super) fn resort(&mut self) -> usize {
        let widest = widest_axis(&self.boxes);
        if widest != self.axis {
            let spread = |k: usize| {
                let (lo, hi) = self.boxes.iter().fold((f64::MAX, f64::MIN), |(lo, hi), b| {
                    (lo.min(b.min[k]), hi.max(b.max[k]))
                });
                hi - lo
            };
            if spread(widest) > 2.0 * spread(self.axis) {
                self.axis = widest;
                let boxes = &self.boxes;
                let axis = self.axis;
                self.order.sort_unstable_by(|&a, &b| {
                    boxes[a as usize].min[axis].total_cmp(&boxes[b as usize].min[axis])
                });
                return self.order.len();
            }
        }
        let mut swaps = 0;
        for k in 1..self.order.len() {
            let mut j = k;
            let v = self.order[k];
            let key = self.key(v);
            while j > 0 && self.key(self.order[j - 1]).total_cmp(&key).is_gt() {
                self.order[j] = self.order[j - 1];
                j -= 1;
            }
            swaps += k - j;
            self.order[j] = v;
        }
        swaps
    }

    /// Chooses the sweep axis afresh and sorts: what a newly built world
    /// does.
    pub(super) fn rebuild(&mut self) {
        self.axis = widest_axis(&self.boxes);
        let boxes = &self.boxes;
        let axis = self.axis;
        self.order = (0..boxes.len() as u32).collect();
        self.order.sort_unstable_by(|&a, &b| {
            boxes[a as usize].min[axis].total_cmp(&boxes[b as usize].min[axis])
        });
    }

    /// Calls `visit(i, j)`, `i < j`, for every pair of bodies whose boxes
    /// come within `gap` (≥ 0) of each other, until it returns `true`
    /// (then returns `true`).
    pub(super) fn pairs(&self, gap: f64, mut visit: impl FnMut(usize, usize) -> bool) -> bool {
        for (k, &i) in self.order.iter().enumerate() {
            let bi = &self.boxes[i as usize];
            let end = bi.max[self.axis] + gap;
            for &j in &self.order[k + 1..] {
                let bj = &self.boxes[j as usize];
                if bj.min[self.axis] > end {
                    break;
                }
                if near(bi, bj, gap) {
                    let (a, b) = (i.min(j) as usize, i.max(j) as usize);
                    if visit(a, b) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Calls `visit(i)` for every body whose box comes within `gap` of `b`,
    /// until it returns `true` (then returns `true`).
    pub(super) fn near_box(
        &self,
        b: &Aabb,
        gap: f64,
        mut visit: impl FnMut(usize) -> bool,
    ) -> bool {
        let end = b.max[self.axis] + gap;
        let stop = self.order.partition_point(|&j| self.key(j) <= end);
        self.order[..stop]
            .iter()
            .any(|&j| near(b, &self.boxes[j as usize], gap) && visit(j as usize))
    }

    /// Whether the order is sorted (for the tests: after any updates it
    /// must be).
    #[cfg(test)]
    pub(super) fn is_sorted(&self) -> bool {
        self.order
            .windows(2)
            .all(|w| self.key(w[0]) <= self.key(w[1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Point3;

    fn cube(x: f64, y: f64, z: f64, h: f64) -> Aabb {
        Aabb {
            min: Point3::new(x - h, y - h, z - h),
            max: Point3::new(x + h, y + h, z + h),
        }
    }

    /// After random moves and an insertion re-sort, the sweep's pairs are
    /// the all-pairs check's, at gap 0 and at a positive gap.
    #[test]
    fn incremental_sweep_equals_all_pairs() {
        let mut s = 12345u64;
        let mut rnd = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut sweep = Sweep::default();
        for _ in 0..60 {
            sweep.push(cube(rnd() * 10.0, rnd() * 3.0, rnd() * 3.0, 0.2 + rnd()));
        }
        sweep.rebuild();
        for round in 0..40 {
            for b in &mut sweep.boxes {
                let (dx, h) = (rnd() - 0.5, 0.2 + rnd());
                let c = b.center();
                *b = cube(c.x + dx, c.y + 0.3 * dx, c.z, h);
            }
            sweep.resort();
            assert!(sweep.is_sorted(), "round {round}");
            for gap in [0.0, 0.5] {
                let mut got = Vec::new();
                sweep.pairs(gap, |i, j| {
                    got.push((i, j));
                    false
                });
                got.sort_unstable();
                let n = sweep.boxes.len();
                let want: Vec<_> = (0..n)
                    .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                    .filter(|&(i, j)| near(&sweep.boxes[i], &sweep.boxes[j], gap))
                    .collect();
                assert_eq!(got, want, "round {round} gap {gap}");
                let probe = sweep.boxes[round % n];
                let mut one = Vec::new();
                sweep.near_box(&probe, gap, |j| {
                    one.push(j);
                    false
                });
                one.sort_unstable();
                let want: Vec<_> = (0..n)
                    .filter(|&j| near(&probe, &sweep.boxes[j], gap))
                    .collect();
                assert_eq!(one, want);
            }
        }
    }
}
