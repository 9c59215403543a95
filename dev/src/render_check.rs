//! Pixel geometry shared by the render tests: reading pixels, distances to
//! projected edges, convex outlines, and the silhouette-inside-outline check.
#![allow(dead_code)]

use bvtool::TriMesh;
use bvtool::render::{Camera, Rgb};
use image::RgbImage;
use nalgebra::{Point3, Rotation3, Vector3};

/// The background of the default options.
pub const WHITE: Rgb = [255, 255, 255];

/// The pixel at `(x, y)`, `None` outside the picture.
pub fn px(img: &RgbImage, x: i64, y: i64) -> Option<Rgb> {
    (x >= 0 && y >= 0 && x < img.width() as i64 && y < img.height() as i64)
        .then(|| img.get_pixel(x as u32, y as u32).0)
}

/// Whether two colours differ by at most `tol` in every channel.
pub fn close(a: Rgb, b: Rgb, tol: i32) -> bool {
    (0..3).all(|k| (a[k] as i32 - b[k] as i32).abs() <= tol)
}

/// Whether some pixel within `r` pixels of `(x, y)` has colour `c`.
pub fn colour_near(img: &RgbImage, (x, y): (f64, f64), r: i64, c: Rgb) -> bool {
    let (x, y) = (x.floor() as i64, y.floor() as i64);
    (-r..=r).any(|dy| (-r..=r).any(|dx| px(img, x + dx, y + dy).is_some_and(|p| close(p, c, 2))))
}

/// Whether a pixel point lies within `margin` pixels of the bounding box
/// of `pts`.
pub fn near_bounds(pts: &[(f64, f64)], margin: f64) -> impl Fn((f64, f64)) -> bool {
    let (lo, hi) = pts
        .iter()
        .fold(((f64::MAX, f64::MAX), (f64::MIN, f64::MIN)), |(l, h), c| {
            ((l.0.min(c.0), l.1.min(c.1)), (h.0.max(c.0), h.1.max(c.1)))
        });
    move |q| {
        q.0 >= lo.0 - margin && q.0 <= hi.0 + margin && q.1 >= lo.1 - margin && q.1 <= hi.1 + margin
    }
}

/// The distance from `p` to the segment `ab`.
pub fn dist_to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((p.0 - a.0 - t * dx).powi(2) + (p.1 - a.1 - t * dy).powi(2)).sqrt()
}

/// Convex hull of pixel points by Andrew's monotone chain; `outside_by`
/// only needs its vertices in a consistent turning order.
pub fn hull(mut pts: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut h: Vec<(f64, f64)> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let it: Box<dyn Iterator<Item = &(f64, f64)>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in it {
            while h.len() >= start + 2 && cross(h[h.len() - 2], h[h.len() - 1], p) <= 0.0 {
                h.pop();
            }
            h.push(p);
        }
        h.pop();
    }
    h
}

/// Signed distance outside the convex polygon (≤ 0 inside).
pub fn outside_by(poly: &[(f64, f64)], p: (f64, f64)) -> f64 {
    let inside = poly.iter().enumerate().all(|(i, &a)| {
        let b = poly[(i + 1) % poly.len()];
        (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0) >= 0.0
    });
    let d = (0..poly.len())
        .map(|i| dist_to_segment(p, poly[i], poly[(i + 1) % poly.len()]))
        .fold(f64::INFINITY, f64::min);
    if inside { -d } else { d }
}

/// The twelve edges of a box from its eight projected corners (corner `k`
/// has bit 0, 1, 2 for +x, +y, +z).
pub fn box_edges(corners: &[(f64, f64); 8]) -> Vec<((f64, f64), (f64, f64))> {
    let mut out = Vec::new();
    for a in 0..8 {
        for bit in [1, 2, 4] {
            if a & bit == 0 {
                out.push((corners[a], corners[a | bit]));
            }
        }
    }
    out
}

/// The largest distance (pixels) by which a non-background pixel centre lies
/// outside the convex outline of `corners` as `cam` projects them, and the
/// number of such pixels.
pub fn silhouette_outside(img: &RgbImage, cam: &Camera, corners: &[Point3<f64>]) -> (f64, usize) {
    let outline = hull(corners.iter().map(|c| cam.project(*c)).collect());
    let mut worst = f64::NEG_INFINITY;
    let mut drawn = 0;
    for (x, y, p) in img.enumerate_pixels() {
        if p.0 != WHITE {
            drawn += 1;
            worst = worst.max(outside_by(&outline, (x as f64 + 0.5, y as f64 + 0.5)));
        }
    }
    (worst, drawn)
}

/// A UV-sphere stretched to an ellipsoid with semi-axes `radii`, rotated and
/// moved, so that no box edge is axis-aligned with it.
pub fn ellipsoid(radii: Vector3<f64>, rot: Rotation3<f64>, at: Vector3<f64>) -> TriMesh {
    let (n_lat, n_lon) = (12u32, 20u32);
    let mut vertices = Vec::new();
    for i in 0..=n_lat {
        let th = std::f64::consts::PI * i as f64 / n_lat as f64;
        for j in 0..n_lon {
            let ph = 2.0 * std::f64::consts::PI * j as f64 / n_lon as f64;
            let p = Vector3::new(th.sin() * ph.cos(), th.cos(), th.sin() * ph.sin());
            vertices.push(Point3::from(rot * p.component_mul(&radii) + at));
        }
    }
    let mut triangles = Vec::new();
    for i in 0..n_lat {
        for j in 0..n_lon {
            let a = i * n_lon + j;
            let b = i * n_lon + (j + 1) % n_lon;
            let (c, d) = (a + n_lon, b + n_lon);
            triangles.push([a, b, d]);
            triangles.push([a, d, c]);
        }
    }
    TriMesh::unplaced(vertices, triangles)
}
