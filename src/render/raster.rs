//! Flat-shaded triangles with a depth buffer.
//!
//! Each triangle covers the pixels whose centres lie inside its projection
//! (edge functions, both windings); the nearest triangle wins per pixel.
//! Lighting is Lambert with a headlight (light along the view direction)
//! plus ambient, two-sided (`|n·l|`), one shade per triangle, no
//! anti-aliasing: the colours written are exactly `base · (AMBIENT + DIFFUSE·|n·l|)`,
//! so a face seen head-on shows its base colour exactly. Ghost layers
//! (opacity below 1) are blended over the opaque picture (`draw_meshes`).

use super::camera::Camera;
use super::canvas::Canvas;
use super::scene::{MeshLayer, Rgb};

/// Light every face gets, whatever its orientation.
pub const AMBIENT: f64 = 0.3;
/// Light a face gets from the headlight when it faces the viewer.
pub const DIFFUSE: f64 = 0.7;

/// A pixel rectangle `[x0, x1) × [y0, y1)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PixelRect {
    pub x0: i64,
    pub y0: i64,
    pub x1: i64,
    pub y1: i64,
}

/// `base` lit by a headlight at `|cos| = facing`.
pub fn shade(base: Rgb, facing: f64) -> Rgb {
    let k = AMBIENT + DIFFUSE * facing.abs().min(1.0);
    base.map(|c| (c as f64 * k).round().min(255.0) as u8)
}

/// Draws every triangle of `layers` seen by `cam` into `rect` of `canvas`:
/// the opaque layers (opacity 1) with one depth buffer shared by all of
/// them; then each ghost layer (opacity below 1), in order, by its own
/// depth buffer — its nearest surface where that is in front of every
/// opaque layer — blended over the picture with its opacity, once per pixel
/// (so a ghost's back faces never darken it, and a ghost behind an opaque
/// surface does not show).
pub(crate) fn draw_meshes(
    canvas: &mut Canvas,
    cam: &Camera,
    rect: PixelRect,
    layers: &[MeshLayer],
) {
    let w = (rect.x1 - rect.x0).max(0) as usize;
    let h = (rect.y1 - rect.y0).max(0) as usize;
    let mut depth = vec![f64::INFINITY; w * h];
    for layer in layers.iter().filter(|l| l.opacity >= 1.0) {
        shade_layer(cam, rect, layer, &mut |k, x, y, z, color| {
            if z < depth[k] {
                depth[k] = z;
                canvas.set(x, y, color);
            }
        });
    }
    let ghosts: Vec<&MeshLayer> = layers.iter().filter(|l| l.opacity < 1.0).collect();
    if ghosts.is_empty() {
        return;
    }
    let mut near = vec![f64::INFINITY; w * h];
    let mut colors = vec![[0u8; 3]; w * h];
    for layer in ghosts {
        near.fill(f64::INFINITY);
        shade_layer(cam, rect, layer, &mut |k, _, _, z, color| {
            if z < near[k] && z < depth[k] {
                near[k] = z;
                colors[k] = color;
            }
        });
        let alpha = (layer.opacity.clamp(0.0, 1.0) * 255.0).round() as u8;
        for (k, z) in near.iter().enumerate() {
            if z.is_finite() {
                let (x, y) = ((k % w) as i64 + rect.x0, (k / w) as i64 + rect.y0);
                canvas.blend(x, y, colors[k], alpha);
            }
        }
    }
}

/// Visits every pixel centre covered by a triangle of `layer` with the
/// pixel's index in `rect`, its coordinates, the depth there and the
/// triangle's shade.
fn shade_layer(
    cam: &Camera,
    rect: PixelRect,
    layer: &MeshLayer,
    plot: &mut impl FnMut(usize, i64, i64, f64, Rgb),
) {
    let fwd = cam.forward();
    for i in 0..layer.mesh.triangles.len() {
        let tri = layer.mesh.triangle(i);
        let normal = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
        let len = normal.norm();
        if !(len > 0.0 && len.is_finite()) {
            continue; // degenerate: nothing to see
        }
        let base = if layer.highlighted.contains(&i) {
            layer.highlight_color
        } else {
            layer.color
        };
        let color = shade(base, normal.dot(&fwd) / len);
        let p = tri.map(|v| {
            let (x, y) = cam.project(v);
            (x, y, cam.depth(v))
        });
        fill_triangle(rect, p, &mut |k, x, y, z| plot(k, x, y, z, color));
    }
}

/// Edge function: twice the signed area of `(a, b, (x, y))`.
fn edge(a: (f64, f64, f64), b: (f64, f64, f64), x: f64, y: f64) -> f64 {
    (b.0 - a.0) * (y - a.1) - (b.1 - a.1) * (x - a.0)
}

/// Visits the pixels of `rect` whose centres lie inside the projected
/// triangle `p` (either winding) with their index in `rect`, coordinates
/// and interpolated depth.
fn fill_triangle(
    rect: PixelRect,
    p: [(f64, f64, f64); 3],
    visit: &mut impl FnMut(usize, i64, i64, f64),
) {
    let area = edge(p[0], p[1], p[2].0, p[2].1);
    if !(area.abs() > 0.0 && area.is_finite()) {
        return; // seen edge-on, or not finite
    }
    let min_x = p.iter().map(|q| q.0).fold(f64::INFINITY, f64::min);
    let max_x = p.iter().map(|q| q.0).fold(f64::NEG_INFINITY, f64::max);
    let min_y = p.iter().map(|q| q.1).fold(f64::INFINITY, f64::min);
    let max_y = p.iter().map(|q| q.1).fold(f64::NEG_INFINITY, f64::max);
    // Pixels whose centre (i + ½) can fall inside, clipped to the panel.
    let x0 = ((min_x - 0.5).ceil() as i64).max(rect.x0);
    let x1 = ((max_x - 0.5).floor() as i64).min(rect.x1 - 1);
    let y0 = ((min_y - 0.5).ceil() as i64).max(rect.y0);
    let y1 = ((max_y - 0.5).floor() as i64).min(rect.y1 - 1);
    let stride = (rect.x1 - rect.x0) as usize;
    for y in y0..=y1 {
        let cy = y as f64 + 0.5;
        for x in x0..=x1 {
            let cx = x as f64 + 0.5;
            let w0 = edge(p[1], p[2], cx, cy) / area;
            let w1 = edge(p[2], p[0], cx, cy) / area;
            let w2 = edge(p[0], p[1], cx, cy) / area;
            if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                continue;
            }
            let z = w0 * p[0].2 + w1 * p[1].2 + w2 * p[2].2;
            let k = (y - rect.y0) as usize * stride + (x - rect.x0) as usize;
            visit(k, x, y, z);
        }
    }
}
