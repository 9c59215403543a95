//! Closed surfaces: whether a triangle mesh bounds a solid, and the volume
//! it encloses.

use super::weld::welded_triangles;
use nalgebra::Point3;

/// Whether every welded edge of the triangles (vertices welded by position,
/// zero-length edges aside) is used an even number of times: the surface is
/// then the boundary of a solid mod 2.
pub fn is_closed(points: &[Point3<f64>], triangles: &[[u32; 3]]) -> bool {
    let (tris, _) = welded_triangles(points, triangles);
    let mut edges: Vec<(u32, u32)> = tris
        .iter()
        .flat_map(|t| (0..3).map(move |i| (t[i], t[(i + 1) % 3])))
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    edges.sort_unstable();
    edges.chunk_by(|a, b| a == b).all(|run| run.len() % 2 == 0)
}

/// The volume a closed, consistently oriented surface encloses: the sum of
/// the signed volumes of the tetrahedra its triangles make with the first
/// vertex (the divergence theorem), in absolute value. Meaningless for an
/// open surface or one whose triangles disagree on orientation; `None` when
/// [`is_closed`] says the surface is open.
pub fn enclosed_volume(points: &[Point3<f64>], triangles: &[[u32; 3]]) -> Option<f64> {
    if triangles.is_empty() || !is_closed(points, triangles) {
        return None;
    }
    let o = points[triangles[0][0] as usize];
    let six: f64 = triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| points[i as usize] - o);
            a.dot(&b.cross(&c))
        })
        .sum();
    Some(six.abs() / 6.0)
}
