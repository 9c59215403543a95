//! The cells of the branch-and-bound searches over triangles (the air's
//! over a shape's surface, the shortfall's over a mesh): ranked by an
//! `f64` key, largest bound first in a `BinaryHeap`, and split in two at
//! the longest edge's midpoint.

use nalgebra::Point3;

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

/// The two halves of the triangle `corners`, split at the midpoint of its
/// longest edge.
pub(crate) fn halves(corners: &[Point3<f64>; 3]) -> [[Point3<f64>; 3]; 2] {
    let len = |k: usize| nalgebra::distance_squared(&corners[k], &corners[(k + 1) % 3]);
    let k = (0..3)
        .max_by(|&a, &b| len(a).total_cmp(&len(b)))
        .expect("three");
    let (a, b, c) = (corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]);
    let m = Point3::from((a.coords + b.coords) * 0.5);
    [[a, m, c], [m, b, c]]
}
