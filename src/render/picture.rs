//! Rendering a [`RenderScene`]: shaded meshes, wireframe volumes, a legend.

use super::camera::Camera;
use super::canvas::{Canvas, TextSize};
use super::raster::{PixelRect, draw_meshes};
use super::scene::{Layout, RenderOptions, RenderScene, Rgb, Volume};
use crate::fit::Obb;
use image::RgbImage;
use std::path::Path;

/// Wireframe width in pixels.
pub const LINE_WIDTH: f32 = 2.5;
/// Free pixels between the drawing and the edge of its panel.
pub const MARGIN: f64 = 14.0;
/// Height of a grid panel's title band.
const TITLE_BAND: i64 = 24;
/// Height of one legend row.
const LEGEND_ROW: i64 = 24;
const TEXT: Rgb = [30, 30, 30];
const SEPARATOR: Rgb = [160, 160, 160];

/// The 12 edges of a box as pairs of [`Obb::corners`] indices (corners
/// differing in one bit).
const BOX_EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7), // along axis 0
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7), // along axis 1
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7), // along axis 2
];

/// One legend entry: a filled swatch (meshes) or a line swatch (volumes).
struct LegendEntry {
    label: String,
    color: Rgb,
    filled: bool,
}

fn legend(scene: &RenderScene) -> Vec<LegendEntry> {
    let mut out = Vec::new();
    for m in &scene.meshes {
        if let Some(label) = &m.label {
            out.push(LegendEntry {
                label: label.clone(),
                color: m.color,
                filled: true,
            });
        }
        if !m.highlighted.is_empty() {
            out.push(LegendEntry {
                label: m.highlight_label.clone(),
                color: m.highlight_color,
                filled: true,
            });
        }
    }
    for v in &scene.volumes {
        out.push(LegendEntry {
            label: v.label.clone(),
            color: v.color,
            filled: false,
        });
    }
    out
}

const SWATCH: i64 = 22;
const GAP: i64 = 20;

/// Top-left positions of the legend entries, wrapped to `width`, and the
/// number of rows used.
fn legend_layout(entries: &[LegendEntry], width: i64) -> (Vec<(i64, i64)>, i64) {
    let mut pos = Vec::with_capacity(entries.len());
    let (mut x, mut row) = (8, 0);
    for e in entries {
        let w = SWATCH + 6 + TextSize::Normal.width(&e.label) as i64;
        if x > 8 && x + w > width - 8 {
            x = 8;
            row += 1;
        }
        pos.push((x, row));
        x += w + GAP;
    }
    (pos, if entries.is_empty() { 0 } else { row + 1 })
}

/// The panels of a picture: each view's drawing rectangle and title band.
fn panels(scene: &RenderScene, opts: &RenderOptions) -> Vec<(PixelRect, Option<&'static str>)> {
    let (w, h) = (opts.width as i64, opts.height as i64);
    let (_, rows) = legend_layout(&legend(scene), w);
    let legend_h = if rows > 0 { rows * LEGEND_ROW + 8 } else { 0 };
    let area_h = (h - legend_h).max(1);
    match opts.layout {
        Layout::Single(_) => vec![(
            PixelRect {
                x0: 0,
                y0: 0,
                x1: w,
                y1: area_h,
            },
            None,
        )],
        Layout::Grid => {
            let (hw, hh) = (w / 2, area_h / 2);
            opts.layout
                .views()
                .into_iter()
                .enumerate()
                .map(|(k, v)| {
                    let (x0, y0) = ((k as i64 % 2) * hw, (k as i64 / 2) * hh);
                    let x1 = if k % 2 == 1 { w } else { hw };
                    let y1 = if k / 2 == 1 { area_h } else { hh };
                    (PixelRect { x0, y0, x1, y1 }, Some(v.name()))
                })
                .collect()
        }
    }
}

/// The camera of each panel (one, or four for [`Layout::Grid`] in the order
/// of [`Layout::views`]): orthographic, fitted to every triangle corner and
/// every volume (spheres by their silhouette disc) with a [`MARGIN`], so
/// nothing drawn is clipped. These are the projections [`render`] uses.
pub fn cameras(scene: &RenderScene, opts: &RenderOptions) -> Vec<Camera> {
    let discs: Vec<_> = scene
        .meshes
        .iter()
        .flat_map(|m| {
            m.mesh
                .triangles
                .iter()
                .flatten()
                .map(|&i| (m.mesh.vertices[i as usize], 0.0))
        })
        .chain(scene.volumes.iter().flat_map(|v| v.volume.extent_points()))
        .collect();
    opts.layout
        .views()
        .into_iter()
        .zip(panels(scene, opts))
        .map(|(view, (r, title))| {
            let top = if title.is_some() { TITLE_BAND } else { 0 };
            let rect = (
                r.x0 as f64,
                (r.y0 + top) as f64,
                (r.x1 - r.x0) as f64,
                (r.y1 - r.y0 - top).max(1) as f64,
            );
            Camera::fit(view, discs.iter().copied(), rect, MARGIN)
        })
        .collect()
}

/// Renders `scene` as `opts` asks.
///
/// Per panel: the meshes are shaded with a depth buffer (see
/// [`raster`](super::raster): Lambert headlight + ambient, two-sided), then
/// every volume is drawn over them as an anti-aliased wireframe in its colour
/// — boxes as their 12 edges, spheres as their silhouette circle — all edges
/// solid and on top, hidden ones included, so a volume stays visible through
/// the model. A legend (swatch + label per labelled mesh, highlighted set and
/// volume) runs along the bottom; grid panels carry their view's name.
///
/// Deterministic: the same scene and options give the same pixels. Errors
/// only for a zero or oversized picture size.
pub fn render(scene: &RenderScene, opts: &RenderOptions) -> crate::Result<RgbImage> {
    let mut canvas = Canvas::new(opts.width, opts.height, opts.background)?;
    let panels = panels(scene, opts);
    for (cam, (rect, title)) in cameras(scene, opts).iter().zip(&panels) {
        draw_meshes(&mut canvas, cam, *rect, &scene.meshes);
        for v in &scene.volumes {
            draw_volume(&mut canvas, cam, &v.volume, v.color);
        }
        if let Some(title) = title {
            canvas.text(rect.x0 + 8, rect.y0 + 4, title, TEXT, TextSize::Title);
        }
    }
    let area_h = panels.iter().map(|p| p.0.y1).max().unwrap_or(0);
    if opts.layout == Layout::Grid {
        // Grid panels tile the area: the second starts the right column,
        // the third the bottom row.
        let (mx, my) = (panels[1].0.x0 as f64 + 0.5, panels[2].0.y0 as f64 + 0.5);
        canvas.line((mx, 0.0), (mx, area_h as f64), SEPARATOR, 1.0, false);
        canvas.line((0.0, my), (opts.width as f64, my), SEPARATOR, 1.0, false);
    }
    draw_legend(&mut canvas, scene, area_h);
    Ok(canvas.into_image())
}

fn draw_volume(canvas: &mut Canvas, cam: &Camera, volume: &Volume, color: Rgb) {
    let corners = match volume {
        Volume::Aabb(b) => Obb::from_min_max(&b.min, &b.max).corners(),
        Volume::Obb(b) => b.corners(),
        Volume::Sphere(s) => {
            canvas.circle(
                cam.project(s.center),
                s.radius * cam.scale,
                color,
                LINE_WIDTH,
            );
            return;
        }
        Volume::Segment(p, q) => {
            let (p, q) = (cam.project(*p), cam.project(*q));
            canvas.line(p, q, color, LINE_WIDTH, false);
            for end in [p, q] {
                canvas.circle(end, 3.0 * LINE_WIDTH as f64, color, LINE_WIDTH);
            }
            return;
        }
    };
    let px = corners.map(|c| cam.project(c));
    for (a, b) in BOX_EDGES {
        canvas.line(px[a], px[b], color, LINE_WIDTH, false);
    }
}

fn draw_legend(canvas: &mut Canvas, scene: &RenderScene, top: i64) {
    let entries = legend(scene);
    let (pos, rows) = legend_layout(&entries, canvas.width() as i64);
    if rows == 0 {
        return;
    }
    let w = canvas.width() as f64;
    canvas.line(
        (0.0, top as f64 + 0.5),
        (w, top as f64 + 0.5),
        SEPARATOR,
        1.0,
        false,
    );
    for (e, (x, row)) in entries.iter().zip(pos) {
        let y = top + 6 + row * LEGEND_ROW;
        let mid = (y + 8) as f64;
        if e.filled {
            canvas.fill_rect(x + 2, y + 1, SWATCH - 4, 14, e.color);
        } else {
            canvas.line(
                (x as f64 + 2.0, mid),
                ((x + SWATCH - 2) as f64, mid),
                e.color,
                3.0,
                false,
            );
        }
        canvas.text(x + SWATCH + 6, y, &e.label, TEXT, TextSize::Normal);
    }
}

/// Writes `image` as a PNG file.
pub fn save_png(image: &RgbImage, path: &Path) -> crate::Result<()> {
    image
        .save_with_format(path, image::ImageFormat::Png)
        .map_err(|e| crate::Error::Write {
            path: path.to_path_buf(),
            source: match e {
                image::ImageError::IoError(io) => io,
                other => std::io::Error::other(other),
            },
        })
}
