//! The broad phase: which pairs of world boxes overlap.
//!
//! Sweep and prune on one axis: the boxes sorted by their lower bound along
//! the axis where their centres spread most, then swept, each box tested
//! (on all three axes, exact comparisons) against the boxes that start
//! before it ends. Touching boxes count as overlapping.

use crate::fit::Aabb;

/// Whether two closed boxes overlap (touching counts).
#[inline]
pub fn boxes_overlap(a: &Aabb, b: &Aabb) -> bool {
    (0..3).all(|k| a.min[k] <= b.max[k] && b.min[k] <= a.max[k])
}

/// Every pair `(i, j)`, `i < j`, of overlapping boxes, sorted, for which
/// `keep(i, j)` holds.
pub fn overlapping_pairs(
    boxes: &[Aabb],
    keep: impl Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    sweep(boxes, usize::MAX, |i| i, keep).expect("no limit")
}

/// Every pair `(i, j)`, `i < j`, of overlapping boxes in different groups
/// (`group(i) ≠ group(j)`), sorted; `None` as soon as more than `max` are
/// found (or memory for them cannot be had): n boxes at one spot make
/// n²/2 pairs, so the sweep stops rather than hold them. Boxes of one group
/// are passed over a run at a time (boxes with equal lower bounds are
/// sorted by group, and each position knows the next of another group),
/// so n boxes of one group at one spot cost O(n log n), not n²/2 skipped
/// pairs. Memory: 16 bytes a box, and 16 a pair kept (at most `max`).
pub fn overlapping_pairs_at_most(
    boxes: &[Aabb],
    max: usize,
    group: impl Fn(usize) -> usize,
) -> Option<Vec<(usize, usize)>> {
    sweep(boxes, max, group, |_, _| true)
}

/// The sweep of [`overlapping_pairs`] and [`overlapping_pairs_at_most`].
fn sweep(
    boxes: &[Aabb],
    max: usize,
    group: impl Fn(usize) -> usize,
    keep: impl Fn(usize, usize) -> bool,
) -> Option<Vec<(usize, usize)>> {
    if boxes.is_empty() {
        return Some(Vec::new());
    }
    let axis = sweep_axis(boxes);
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_unstable_by(|&i, &j| {
        (boxes[i].min[axis].total_cmp(&boxes[j].min[axis])).then(group(i).cmp(&group(j)))
    });
    // The first position after each whose box is of another group.
    let mut next_other = vec![order.len(); order.len()];
    for k in (0..order.len() - 1).rev() {
        next_other[k] = if group(order[k + 1]) != group(order[k]) {
            k + 1
        } else {
            next_other[k + 1]
        };
    }
    let mut pairs = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let (end, g) = (boxes[i].max[axis], group(i));
        let mut p = k + 1;
        while let Some(&j) = order.get(p) {
            if boxes[j].min[axis] > end {
                break;
            }
            if group(j) == g {
                p = next_other[p];
                continue;
            }
            p += 1;
            if boxes_overlap(&boxes[i], &boxes[j]) && keep(i.min(j), i.max(j)) {
                if pairs.len() == max || pairs.try_reserve(1).is_err() {
                    return None;
                }
                pairs.push((i.min(j), i.max(j)));
            }
        }
    }
    pairs.sort_unstable();
    Some(pairs)
}

/// The axis along which the box centres have the largest variance.
fn sweep_axis(boxes: &[Aabb]) -> usize {
    let n = boxes.len() as f64;
    let var = |k: usize| {
        let c = |b: &Aabb| 0.5 * (b.min[k] + b.max[k]);
        let mean = boxes.iter().map(c).sum::<f64>() / n;
        boxes.iter().map(|b| (c(b) - mean).powi(2)).sum::<f64>()
    };
    (0..3)
        .max_by(|&a, &b| var(a).total_cmp(&var(b)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Point3;

    /// Against every pair: boxes on a small lattice (many equal bounds and
    /// stacks at one spot), in few groups; and a limit one below the
    /// answer's size refuses.
    #[test]
    fn grouped_pairs_match_every_pair() {
        let mut state = 11u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % n) as f64
        };
        let boxes: Vec<Aabb> = (0..300)
            .map(|_| {
                let min = Point3::new(next(4), next(4), next(2));
                let max = min + nalgebra::Vector3::new(next(3), next(2), next(2));
                Aabb { min, max }
            })
            .collect();
        let group = |i: usize| i % 3 + usize::from(i > 200) * (i % 5);
        let mut all = Vec::new();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                if group(i) != group(j) && boxes_overlap(&boxes[i], &boxes[j]) {
                    all.push((i, j));
                }
            }
        }
        assert!(all.len() > 1000);
        let got = overlapping_pairs_at_most(&boxes, all.len(), group).unwrap();
        assert_eq!(got, all);
        assert!(overlapping_pairs_at_most(&boxes, all.len() - 1, group).is_none());
    }
}
