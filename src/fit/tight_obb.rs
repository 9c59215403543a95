//! A near-minimal-volume oriented box around a convex hull.

use super::min_rect::{convex_hull_2d, min_area_rect};
use super::{ConvexHull, covariance};
use nalgebra::{Matrix3, Point3, Rotation3, Vector2, Vector3};
use rayon::prelude::*;
use std::collections::HashMap;

/// Volume of the smallest box with orientation `axes` around `pts`.
pub(crate) fn box_volume(axes: &Matrix3<f64>, pts: &[Point3<f64>]) -> f64 {
    let t = axes.transpose();
    let mut lo = Vector3::repeat(f64::INFINITY);
    let mut hi = Vector3::repeat(f64::NEG_INFINITY);
    for p in pts {
        let q = t * p.coords;
        lo = lo.inf(&q);
        hi = hi.sup(&q);
    }
    let d = hi - lo;
    d.x * d.y * d.z
}

/// Right-handed frame whose third axis is `n` (unit).
fn frame_about(n: &Vector3<f64>) -> Matrix3<f64> {
    let helper = if n.x.abs() < 0.6 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let u = n.cross(&helper).normalize();
    let v = n.cross(&u);
    Matrix3::from_columns(&[u, v, *n])
}

/// For the plane normal `n`: the frame whose third axis is `n` and whose
/// first two axes bound the minimum-area rectangle of the points' projection
/// (rotating calipers), with the resulting box volume.
fn flush_frame(n: &Vector3<f64>, pts: &[Point3<f64>]) -> (f64, Matrix3<f64>) {
    let f = frame_about(n);
    let (u, v) = (f.column(0).into_owned(), f.column(1).into_owned());
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut flat: Vec<Vector2<f64>> = pts
        .iter()
        .map(|p| {
            let h = n.dot(&p.coords);
            lo = lo.min(h);
            hi = hi.max(h);
            Vector2::new(u.dot(&p.coords), v.dot(&p.coords))
        })
        .collect();
    let poly = convex_hull_2d(&mut flat);
    let (area, e) = min_area_rect(&poly);
    let a0 = u * e.x + v * e.y;
    let a1 = n.cross(&a0);
    (area * (hi - lo), Matrix3::from_columns(&[a0, a1, *n]))
}

/// Distinct face directions of a hull (up to sign, clustered to about 1e-4
/// rad), each represented by the normal of its largest face, largest total
/// area first.
fn face_directions(hull: &ConvexHull) -> Vec<Vector3<f64>> {
    let mut groups: HashMap<[i64; 3], (f64, f64, Vector3<f64>)> = HashMap::new();
    for f in &hull.faces {
        let [a, b, c] = f.map(|i| hull.vertices[i as usize]);
        let w = (b - a).cross(&(c - a));
        let area = w.norm();
        if area.is_nan() || area <= 0.0 {
            continue;
        }
        let mut n = w / area;
        // Canonical sign: n and −n bound the same slab.
        let k = n.iamax();
        if n[k] < 0.0 {
            n = -n;
        }
        let key = [0, 1, 2].map(|i| (n[i] * 1e4).round() as i64);
        let g = groups.entry(key).or_insert((0.0, 0.0, n));
        g.0 += area;
        if area > g.1 {
            g.1 = area;
            g.2 = n;
        }
    }
    let mut dirs: Vec<(f64, Vector3<f64>)> = groups.into_values().map(|g| (g.0, g.2)).collect();
    dirs.sort_by(|a, b| b.0.total_cmp(&a.0));
    dirs.into_iter().map(|d| d.1).collect()
}

/// Coordinate descent on the rotation group: rotate the frame by ±`step`
/// about each of its own axes while the box volume drops, halving the step
/// down to 1e-9 rad.
fn refine(mut axes: Matrix3<f64>, pts: &[Point3<f64>]) -> (f64, Matrix3<f64>) {
    let mut best = box_volume(&axes, pts);
    let mut step = 0.05;
    while step > 1e-9 {
        let mut improved = false;
        for i in 0..3 {
            for s in [step, -step] {
                let axis = nalgebra::Unit::new_unchecked(axes.column(i).into_owned());
                let trial = Rotation3::from_axis_angle(&axis, s).matrix() * axes;
                let v = box_volume(&trial, pts);
                if v < best {
                    best = v;
                    axes = trial;
                    improved = true;
                }
            }
        }
        if !improved {
            step *= 0.5;
        }
    }
    // Re-orthonormalize after many rotations.
    let a0 = axes.column(0).normalize();
    let a1 = (axes.column(1) - a0 * a0.dot(&axes.column(1))).normalize();
    let axes = Matrix3::from_columns(&[a0, a1, a0.cross(&a1)]);
    (box_volume(&axes, pts), axes)
}

/// How many face directions get the exact min-rectangle treatment; beyond
/// that the directions with the most hull area are used (the rest of the
/// search is left to [`refine`]).
const MAX_DIRECTIONS: usize = 4096;
/// How many of the best candidates are refined.
const REFINED: usize = 4;

/// The frame of a near-minimal-volume box around `hull`'s vertices:
///
/// 1. for each distinct hull face direction (the optimal box very often has
///    a face flush with a hull face), the box whose base is the minimum-area
///    rectangle of the vertices projected on that plane (rotating calipers)
///    — the method of e.g. trimesh's `oriented_bounds`;
/// 2. plus the given `extra` frames (PCA, hull covariance, identity);
/// 3. local search on the rotation group from the best few.
///
/// The result is never worse than the best candidate, in particular than
/// any `extra` frame such as the AABB's. Flat hulls (dimension < 3) use the
/// plane normal of their principal frame as the one direction.
pub fn tight_frame(hull: &ConvexHull, extra: &[Matrix3<f64>]) -> Matrix3<f64> {
    let pts = &hull.vertices;
    let mut dirs = if hull.dimension == 3 {
        face_directions(hull)
    } else {
        let frame = covariance::of_points(pts)
            .map(|(_, c)| covariance::principal_frame(&c))
            .unwrap_or_default();
        vec![frame.column(2).into_owned()]
    };
    dirs.truncate(MAX_DIRECTIONS);
    let mut cands: Vec<(f64, Matrix3<f64>)> =
        dirs.par_iter().map(|n| flush_frame(n, pts)).collect();
    cands.extend(extra.iter().map(|m| (box_volume(m, pts), *m)));
    cands.retain(|c| c.0.is_finite() && c.1.iter().all(|x| x.is_finite()));
    cands.sort_by(|a, b| a.0.total_cmp(&b.0));
    cands.truncate(REFINED);
    if hull.dimension < 3 {
        // A flat box is already optimal in its plane; do not tilt it.
        return cands.first().map_or_else(Matrix3::identity, |c| c.1);
    }
    cands
        .par_iter()
        .map(|c| refine(c.1, pts))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map_or_else(Matrix3::identity, |c| c.1)
}
