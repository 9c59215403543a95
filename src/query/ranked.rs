//! A heap entry ranked by an `f64` key: the branch-and-bound searches'
//! cells, largest bound first in a `BinaryHeap`.

/// `item` ranked by `key` (total order: `f64::total_cmp`).
pub(crate) struct Ranked<T> {
    pub(crate) key: f64,
    pub(crate) item: T,
}

impl<T> PartialEq for Ranked<T> {
    fn eq(&self, o: &Self) -> bool {
        self.key.total_cmp(&o.key).is_eq()
    }
}
impl<T> Eq for Ranked<T> {}
impl<T> PartialOrd for Ranked<T> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<T> Ord for Ranked<T> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.key.total_cmp(&o.key)
    }
}
