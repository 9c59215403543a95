//! Bounded box fits on big hulls: an extreme-point kernel.
//!
//! The exact search ([`min_volume_frame`](super::tight::min_volume_frame))
//! and the face rule ([`tight_frame`](super::fast::tight_frame)) cost more
//! than linear time in the hull's size: on round hulls (cylinders, UV
//! spheres) every face direction sees a rim of O(n) vertices (a prism's two
//! caps lie edge-on to every side face's normal, so their whole boundary is
//! on the rim) and, the hull being symmetric, every direction's lower bound
//! ties and prunes nothing: O(n²) for the face rule, worse for the edge
//! configurations. Both searches count their work before spending it and
//! give up past fixed limits (above [`EXACT_MAX_VERTICES`] hull vertices
//! they are not tried); both then run on a kernel instead: the hull vertices extreme along [`KERNEL_DIRECTIONS`]
//! directions spread over the sphere (a Fibonacci lattice), at most that
//! many points. Its box's frame is then taken over every point (the caller
//! grows the box to contain them all, one pass), so the box still contains
//! everything; what is lost is only optimality, and that loss is measured:
//! the kernel is a subset of the points, so the exact minimum box of the
//! kernel is a lower bound of the exact minimum of the whole set, and the
//! ratio of the grown box's volume to it bounds the gap ([`Certificate`]).

use crate::fit::ConvexHull;
use nalgebra::{Point3, Vector3};
use rayon::prelude::*;

/// Hull vertex counts up to this try the search on the hull itself, which
/// gives up before its work passes its limits; above, or when it gives up,
/// the kernel is searched.
pub(crate) const EXACT_MAX_VERTICES: usize = 16384;

/// Directions of the kernel (so at most this many kernel points). On a
/// closed cylinder the kernel keeps about a hundred points of each cap's
/// circle, golden-angle spread; its exact box is then within 3e-4 of the
/// cylinder's and takes about 0.15 s of CPU (600 directions: within 1e-4,
/// but 3 s).
pub(crate) const KERNEL_DIRECTIONS: usize = 200;

/// What a fitted box is known to be.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Certificate {
    /// Whether the box is the minimum-volume box (up to rounding).
    pub exact: bool,
    /// An upper bound of the box's volume over the minimum's: 1 when
    /// `exact`, else the box's volume over a certified lower bound of the
    /// minimum (the kernel's exact minimum box); `None` when no bound is
    /// known (the method does not search for the minimum).
    pub bound: Option<f64>,
}

/// `count` unit directions spread over the sphere (a Fibonacci lattice).
fn directions(count: usize) -> Vec<Vector3<f64>> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..count)
        .map(|k| {
            let z = 1.0 - 2.0 * (k as f64 + 0.5) / count as f64;
            let r = (1.0 - z * z).max(0.0).sqrt();
            let (s, c) = (golden * k as f64).sin_cos();
            Vector3::new(r * c, r * s, z)
        })
        .collect()
}

/// The points of `pts` extreme along each of [`KERNEL_DIRECTIONS`]
/// directions (the first of ties), each once, in index order. One pass over
/// the points, split between the threads; memory O(directions).
pub(crate) fn kernel(pts: &[Point3<f64>]) -> Vec<Point3<f64>> {
    let dirs = directions(KERNEL_DIRECTIONS);
    let dx: Vec<f64> = dirs.iter().map(|d| d.x).collect();
    let dy: Vec<f64> = dirs.iter().map(|d| d.y).collect();
    let dz: Vec<f64> = dirs.iter().map(|d| d.z).collect();
    let empty = || {
        (
            vec![f64::NEG_INFINITY; dirs.len()],
            vec![usize::MAX; dirs.len()],
        )
    };
    // Per direction the greatest value and its (first) index, merged
    // across chunks in index order.
    let merge = |(mut v, mut i): (Vec<f64>, Vec<usize>), (w, j): (Vec<f64>, Vec<usize>)| {
        for k in 0..v.len() {
            if w[k] > v[k] || (w[k] == v[k] && j[k] < i[k]) {
                v[k] = w[k];
                i[k] = j[k];
            }
        }
        (v, i)
    };
    let (_, best) = pts
        .par_chunks(4096)
        .enumerate()
        .map(|(c, chunk)| {
            let (mut v, mut idx) = empty();
            for (o, p) in chunk.iter().enumerate() {
                let at = c * 4096 + o;
                for k in 0..dx.len() {
                    let x = dx[k] * p.x + dy[k] * p.y + dz[k] * p.z;
                    if x > v[k] {
                        v[k] = x;
                        idx[k] = at;
                    }
                }
            }
            (v, idx)
        })
        .reduce(empty, merge);
    let mut best: Vec<usize> = best.into_iter().filter(|&i| i != usize::MAX).collect();
    best.sort_unstable();
    best.dedup();
    best.into_iter().map(|i| pts[i]).collect()
}

/// A certified lower bound of the volume of every box around `hull`: the
/// hull holds the ball about its vertices' mean whose radius is the least
/// distance from the mean to a face plane, and a box around a ball of
/// radius `ρ` has every extent at least `2ρ`. Near the minimum on round
/// hulls (a UV sphere), where the kernel's bound is loose; 0 when the mean
/// is not strictly inside (a flat hull). The slack covers the rounding of
/// the distances.
pub(crate) fn ball_lower_bound(hull: &ConvexHull) -> f64 {
    if hull.vertices.is_empty() {
        return 0.0;
    }
    let c = hull
        .vertices
        .iter()
        .fold(Vector3::zeros(), |s, p| s + p.coords)
        / hull.vertices.len() as f64;
    let rho = hull
        .faces
        .iter()
        .map(|f| {
            let [a, b, d] = f.map(|i| hull.vertices[i as usize].coords);
            let n = (b - a).cross(&(d - a));
            let len = n.norm();
            if len > 0.0 && len.is_finite() {
                n.dot(&(a - c)) / len
            } else {
                f64::INFINITY
            }
        })
        .fold(f64::INFINITY, f64::min);
    if rho.is_finite() && rho > 0.0 {
        (2.0 * rho).powi(3) * (1.0 - 1e-9)
    } else {
        0.0
    }
}
