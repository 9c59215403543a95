//! Welding by position: vertices are the same vertex exactly when their
//! coordinates are equal (`-0.0` equals `0.0`), whatever their index in the
//! file — files split vertices for normals and UVs.

use crate::threads::{Stop, Stopped, unstopped};
use nalgebra::Point3;

/// The key of a point's position: two finite points are the same position
/// exactly when their keys are equal (`+ 0.0` maps `-0.0` to `0.0`; finite
/// coordinates then compare as their bits).
pub fn position_key(p: &Point3<f64>) -> [u64; 3] {
    [p.x + 0.0, p.y + 0.0, p.z + 0.0].map(f64::to_bits)
}

/// A welded id per point and the number of ids: ids are dense, from 0, in
/// order of first appearance. One pass with an open-addressing table on
/// the keys' bits (measured against sorting the keys with their indices in
/// parallel: a fraction of the instructions, on one thread).
pub fn weld(points: &[Point3<f64>]) -> (Vec<u32>, usize) {
    unstopped(|stop| weld_until(points, stop))
}

/// Points [`weld`] takes between two checks of its stop flag: each is a
/// hash and about one cache miss, so a chunk is a millisecond or so.
const WELD_CHUNK: usize = 1 << 16;

/// [`weld`], giving up with [`Stopped`] when `stop` is set (checked every
/// 65,536 points).
pub fn weld_until(points: &[Point3<f64>], stop: Stop<'_>) -> Result<(Vec<u32>, usize), Stopped> {
    let bits = (2 * points.len())
        .next_power_of_two()
        .trailing_zeros()
        .max(4);
    // Each slot holds the index of the first point of its position.
    let mut table = vec![u32::MAX; 1 << bits];
    let mask = table.len() - 1;
    let mut ids = vec![0u32; points.len()];
    let mut count = 0u32;
    for (i, p) in points.iter().enumerate() {
        if i % WELD_CHUNK == 0 {
            stop.check()?;
        }
        let k = position_key(p);
        let h = k[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ k[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ k[2].wrapping_mul(0x1656_67B1_9E37_79F9);
        let mut slot = (h >> (64 - bits)) as usize;
        loop {
            match table[slot] {
                u32::MAX => {
                    table[slot] = i as u32;
                    ids[i] = count;
                    count += 1;
                    break;
                }
                j if position_key(&points[j as usize]) == k => {
                    ids[i] = ids[j as usize];
                    break;
                }
                _ => slot = (slot + 1) & mask,
            }
        }
    }
    Ok((ids, count as usize))
}

/// The index of the first point at each distinct position, in order.
pub fn distinct(points: &[Point3<f64>]) -> Vec<u32> {
    let (ids, count) = weld(points);
    let mut out = Vec::with_capacity(count);
    for (i, &id) in ids.iter().enumerate() {
        if id as usize == out.len() {
            out.push(i as u32);
        }
    }
    out
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
