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
    overlapping_pairs_at_most(boxes, usize::MAX, keep).expect("no limit")
}

/// [`overlapping_pairs`], but `None` as soon as more than `max` pairs are
/// found (or memory for them cannot be had): n boxes at one spot make
/// n²/2 pairs, so the sweep stops rather than hold them. Memory: 16 bytes
/// a pair kept, at most `max` of them.
pub fn overlapping_pairs_at_most(
    boxes: &[Aabb],
    max: usize,
    keep: impl Fn(usize, usize) -> bool,
) -> Option<Vec<(usize, usize)>> {
    if boxes.is_empty() {
        return Some(Vec::new());
    }
    let axis = sweep_axis(boxes);
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_unstable_by(|&i, &j| boxes[i].min[axis].total_cmp(&boxes[j].min[axis]));
    let mut pairs = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let end = boxes[i].max[axis];
        for &j in &order[k + 1..] {
            if boxes[j].min[axis] > end {
                break;
            }
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
