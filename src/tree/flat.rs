//! The flat depth-first layout both trees share: a node's first child
//! follows it, its second child is at the index the node holds (`right`, 0
//! for a leaf), and subtrees are built top-down, the two halves of a large
//! one on two threads.

/// Below this many triangles a subtree is built on one thread: splitting the
/// work further costs more than it saves.
pub(super) const PARALLEL_MIN: usize = 4096;

/// A node of a flat depth-first tree: the link to its second child.
pub(super) trait Linked: Send {
    /// Links an internal node to its second child.
    fn set_right(&mut self, right: u32);
    /// Adds `base` to the link of an internal node (its subtree moved
    /// `base` places on); a leaf is left as it is.
    fn shift_right(&mut self, base: u32);
}

/// Appends the two subtrees below node `me` (already in `out`), over
/// `sizes` triangles each, and links `me` to the second. Above
/// [`PARALLEL_MIN`] triangles in all, the second is built on another thread
/// (rayon) into a `Vec` of its own, then appended with its links shifted;
/// otherwise both go straight into `out`.
pub(super) fn append_children<N, L, R>(
    out: &mut Vec<N>,
    me: usize,
    sizes: [usize; 2],
    left: L,
    right: R,
) where
    N: Linked,
    L: FnOnce(&mut Vec<N>) + Send,
    R: FnOnce(&mut Vec<N>) + Send,
{
    if sizes[0] + sizes[1] >= PARALLEL_MIN {
        let mut second = Vec::with_capacity(node_bound(sizes[1]));
        rayon::join(|| left(out), || right(&mut second));
        let base = out.len() as u32;
        out[me].set_right(base);
        out.extend(second.into_iter().map(|mut node| {
            node.shift_right(base);
            node
        }));
    } else {
        left(out);
        let second = out.len() as u32;
        out[me].set_right(second);
        right(out);
    }
}

/// The most nodes a subtree over `n` triangles can have, `2n − 1` (every
/// split is binary and every leaf holds at least one triangle, whatever the
/// leaf size): reserved up front so that appending never reallocates.
pub(super) fn node_bound(n: usize) -> usize {
    (2 * n).saturating_sub(1)
}
