//! Welding by position: vertices are the same vertex exactly when their
//! coordinates are equal (`-0.0` equals `0.0`), whatever their index in the
//! file — files split vertices for normals and UVs.

use nalgebra::Point3;
use rayon::prelude::*;

/// The key of a point's position: two finite points are the same position
/// exactly when their keys are equal (`+ 0.0` maps `-0.0` to `0.0`; finite
/// coordinates then compare as their bits).
pub fn position_key(p: &Point3<f64>) -> [u64; 3] {
    [p.x + 0.0, p.y + 0.0, p.z + 0.0].map(f64::to_bits)
}

/// A welded id per point (ids are dense, from 0) and the number of ids.
pub fn weld(points: &[Point3<f64>]) -> (Vec<u32>, usize) {
    // The keys are sorted with their indices (not the indices by key:
    // every comparison would read two points).
    let mut keyed: Vec<([u64; 3], u32)> = points
        .par_iter()
        .enumerate()
        .map(|(i, p)| (position_key(p), i as u32))
        .collect();
    keyed.par_sort_unstable();
    let mut ids = vec![0u32; points.len()];
    let mut count = 0usize;
    for (k, &(key, i)) in keyed.iter().enumerate() {
        if k > 0 && keyed[k - 1].0 != key {
            count += 1;
        }
        ids[i as usize] = count as u32;
    }
    (ids, if points.is_empty() { 0 } else { count + 1 })
}

/// The welded corners of every triangle.
pub fn welded_triangles(points: &[Point3<f64>], triangles: &[[u32; 3]]) -> (Vec<[u32; 3]>, usize) {
    let (ids, count) = weld(points);
    let tris = triangles
        .iter()
        .map(|t| t.map(|i| ids[i as usize]))
        .collect();
    (tris, count)
}
