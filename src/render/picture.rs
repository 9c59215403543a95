//! Rendering a [`RenderScene`]: shaded meshes, wireframe volumes, a legend.

use super::camera::Camera;
use super::canvas::{Canvas, Dash, TextSize};
use super::raster::{PixelRect, draw_meshes};
use super::scene::{
    Layout, MARKER_RADIUS, RIM_SEGMENTS, RenderOptions, RenderScene, Rgb, Volume, cylinder_rims,
};
use crate::fit::{FittedShape, Obb};
use image::RgbImage;
use nalgebra::{Point3, Vector3};
use std::path::Path;

/// Wireframe width in pixels.
pub const LINE_WIDTH: f32 = 2.5;
/// Free pixels between the drawing and the edge of its panel.
pub const MARGIN: f64 = 14.0;
/// Height of a grid panel's title band.
const TITLE_BAND: i64 = 24;
/// Height of one legend row.
const LEGEND_ROW: i64 = 24;
/// Height of one title line.
const TITLE_LINE: i64 = 22;
/// Length of a triad arm in pixels, and the triad's distance from the panel corner.
const TRIAD: f64 = 24.0;
/// Triad colours for X, Y, Z: pure red, green and blue, apart from every
/// volume colour of the palette.
pub const AXIS_COLORS: [Rgb; 3] = [[235, 0, 0], [0, 175, 0], [0, 0, 235]];
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

/// One legend entry: a filled swatch (meshes: blended over the background
/// with the mesh's opacity) or a line swatch (volumes).
struct LegendEntry {
    label: String,
    color: Rgb,
    filled: bool,
    alpha: u8,
}

/// The legend: each labelled mesh, each highlighted set and each volume
/// label, once per label and colour however many meshes or volumes share
/// it; a volume drawn dashed over an earlier one with the same outline says
/// so ("OBB (pca), dashed where it is on AABB").
fn legend(scene: &RenderScene) -> Vec<LegendEntry> {
    let mut out: Vec<LegendEntry> = Vec::new();
    let mut push = |e: LegendEntry| {
        if !out.iter().any(|o| o.label == e.label && o.color == e.color) {
            out.push(e);
        }
    };
    for m in &scene.meshes {
        let alpha = (m.opacity.clamp(0.0, 1.0) * 255.0).round() as u8;
        if let Some(label) = &m.label {
            push(LegendEntry {
                label: label.clone(),
                color: m.color,
                filled: true,
                alpha,
            });
        }
        if !m.highlighted.is_empty() {
            push(LegendEntry {
                label: m.highlight_label.clone(),
                color: m.highlight_color,
                filled: true,
                alpha,
            });
        }
    }
    // One entry per volume label and colour, naming the volumes it is
    // dashed over.
    let mut volumes: Vec<(&str, Rgb, Vec<&str>)> = Vec::new();
    for (v, same) in scene.volumes.iter().zip(coincident(scene)) {
        let at = match volumes
            .iter()
            .position(|(l, c, _)| *l == v.label && *c == v.color)
        {
            Some(at) => at,
            None => {
                volumes.push((&v.label, v.color, Vec::new()));
                volumes.len() - 1
            }
        };
        let under = same.map(|k| scene.volumes[k].label.as_str());
        if let Some(u) = under.filter(|u| !volumes[at].2.contains(u)) {
            volumes[at].2.push(u);
        }
    }
    for (label, color, under) in volumes {
        push(LegendEntry {
            label: match under.is_empty() {
                true => label.to_string(),
                false => format!("{label}, dashed where it is on {}", under.join(", ")),
            },
            color,
            filled: false,
            alpha: 255,
        });
    }
    out
}

/// For each volume, the first earlier volume whose outline it coincides
/// with: every corner within 0.2% of the drawing's size of a corner of the
/// other (boxes), or centre and radius that close (spheres) — closer than a
/// pixel in any picture up to 500 pixels across.
fn coincident(scene: &RenderScene) -> Vec<Option<usize>> {
    let pts: Vec<Vec<(Point3<f64>, f64)>> = scene
        .volumes
        .iter()
        .map(|v| extent_points(&v.volume))
        .collect();
    let (mut lo, mut hi) = (
        Vector3::repeat(f64::INFINITY),
        Vector3::repeat(f64::NEG_INFINITY),
    );
    for (p, r) in pts.iter().flatten() {
        lo = lo.inf(&p.coords.add_scalar(-r));
        hi = hi.sup(&p.coords.add_scalar(*r));
    }
    let tol = 2e-3 * (hi - lo).norm();
    let near = |a: &[(Point3<f64>, f64)], b: &[(Point3<f64>, f64)]| {
        a.len() == b.len()
            && a.iter().all(|(p, r)| {
                b.iter()
                    .any(|(q, s)| (p - q).norm() <= tol && (r - s).abs() <= tol)
            })
    };
    (0..pts.len())
        .map(|i| (0..i).find(|&k| near(&pts[i], &pts[k])))
        .collect()
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
    let top = title_height(scene).min(h - 1);
    let area_h = (h - legend_h).max(top + 1);
    match opts.layout {
        Layout::Single(_) => vec![(
            PixelRect {
                x0: 0,
                y0: top,
                x1: w,
                y1: area_h,
            },
            None,
        )],
        Layout::Grid => {
            let (hw, hh) = (w / 2, top + (area_h - top) / 2);
            opts.layout
                .views()
                .into_iter()
                .enumerate()
                .map(|(k, v)| {
                    let (x0, y0) = ((k as i64 % 2) * hw, if k / 2 == 1 { hh } else { top });
                    let x1 = if k % 2 == 1 { w } else { hw };
                    let y1 = if k / 2 == 1 { area_h } else { hh };
                    (PixelRect { x0, y0, x1, y1 }, Some(v.name()))
                })
                .collect()
        }
    }
}

/// How each volume is stroked: solid, or — when its outline coincides with
/// earlier ones — dashed in its own slot, so that each of n coincident
/// outlines keeps 1/n of the length.
fn dashes(scene: &RenderScene) -> Vec<Dash> {
    let same = coincident(scene);
    (0..same.len())
        .map(|i| match same[i] {
            None => Dash::Solid,
            Some(first) => {
                let group = |j: &usize| same[*j] == Some(first);
                Dash::Slot {
                    k: (0..i).filter(group).count() as u32 + 1,
                    n: (0..same.len()).filter(group).count() as u32 + 1,
                }
            }
        })
        .collect()
}

/// Height of the title band (0 without a title).
fn title_height(scene: &RenderScene) -> i64 {
    match scene.title.len() as i64 {
        0 => 0,
        n => n * TITLE_LINE + 8,
    }
}

/// The camera of each panel (one, or four for [`Layout::Grid`] in the order
/// of [`Layout::views`]): orthographic, fitted to every triangle corner and
/// every volume (spheres by their silhouette disc) with a `MARGIN`, so
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
        .chain(scene.volumes.iter().flat_map(|v| extent_points(&v.volume)))
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
            Camera::fit(view, opts.up, discs.iter().copied(), rect, MARGIN)
        })
        .collect()
}

/// Renders `scene` as `opts` asks.
///
/// Per panel: the meshes are shaded with a depth buffer (see
/// `raster`: Lambert headlight + ambient, two-sided; ghost layers blended
/// over the opaque ones), then
/// every volume is drawn over them as an anti-aliased wireframe in its colour
/// — boxes as their 12 edges, spheres as their silhouette circle, capsules
/// and cylinders as their outlines, convex polytopes as their edges,
/// segments, polylines and markers as [`Volume`] says — all
/// edges
/// solid and on top, hidden ones included, so a volume stays visible through
/// the model; a volume whose outline coincides with an earlier one is dashed
/// so that both stay visible. A legend (swatch + label per labelled mesh,
/// highlighted set and volume) runs along the bottom, the title lines (if
/// any) along the top; grid panels carry their view's name; each panel of a
/// non-empty scene has an X/Y/Z axis triad (red, green, blue) in its
/// lower-left corner unless `opts.triad` is off.
///
/// Deterministic: the same scene and options give the same pixels. Errors
/// only for a zero or oversized picture size.
pub fn render(scene: &RenderScene, opts: &RenderOptions) -> crate::Result<RgbImage> {
    let mut canvas = Canvas::new(opts.width, opts.height, opts.background)?;
    let panels = panels(scene, opts);
    let dashes = dashes(scene);
    for (cam, (rect, title)) in cameras(scene, opts).iter().zip(&panels) {
        draw_meshes(&mut canvas, cam, *rect, &scene.meshes);
        for (v, dash) in scene.volumes.iter().zip(&dashes) {
            draw_volume(&mut canvas, cam, &v.volume, v.color, *dash);
        }
        if opts.triad && !(scene.meshes.is_empty() && scene.volumes.is_empty()) {
            draw_triad(&mut canvas, cam, rect);
        }
        if let Some(title) = title {
            canvas.text(rect.x0 + 8, rect.y0 + 4, title, TEXT, TextSize::Title);
        }
    }
    for (k, line) in scene.title.iter().enumerate() {
        let size = if k == 0 {
            TextSize::Title
        } else {
            TextSize::Normal
        };
        canvas.text(8, 4 + k as i64 * TITLE_LINE, line, TEXT, size);
    }
    if !scene.title.is_empty() {
        let y = title_height(scene) as f64 - 0.5;
        canvas.line(
            (0.0, y),
            (opts.width as f64, y),
            SEPARATOR,
            1.0,
            Dash::Solid,
        );
    }
    let area_h = panels.iter().map(|p| p.0.y1).max().unwrap_or(0);
    if opts.layout == Layout::Grid {
        // Grid panels tile the area: the second starts the right column,
        // the third the bottom row.
        let (mx, my) = (panels[1].0.x0 as f64 + 0.5, panels[2].0.y0 as f64 + 0.5);
        let top = panels[0].0.y0 as f64;
        canvas.line((mx, top), (mx, area_h as f64), SEPARATOR, 1.0, Dash::Solid);
        canvas.line(
            (0.0, my),
            (opts.width as f64, my),
            SEPARATOR,
            1.0,
            Dash::Solid,
        );
    }
    draw_legend(&mut canvas, scene, area_h);
    Ok(canvas.into_image())
}

/// The points whose projections bound a volume's drawing, with the radius
/// of the disc drawn around each (zero for corners).
fn extent_points(volume: &Volume) -> Vec<(Point3<f64>, f64)> {
    let corners = |v: &[Point3<f64>]| v.iter().map(|p| (*p, 0.0)).collect();
    match volume {
        Volume::Shape(FittedShape::Aabb(b)) => {
            corners(&Obb::from_min_max(&b.min, &b.max).corners())
        }
        Volume::Shape(FittedShape::Obb(b)) => corners(&b.corners()),
        Volume::Shape(FittedShape::Sphere(s)) => vec![(s.center, s.radius)],
        Volume::Shape(FittedShape::Capsule(c)) => [-1.0, 1.0]
            .map(|s| (c.center + c.axis * (s * c.half_length), c.radius))
            .to_vec(),
        Volume::Shape(FittedShape::Cylinder(c)) => corners(&cylinder_rims(c)),
        Volume::Shape(FittedShape::Kdop(k)) => corners(&k.vertices),
        Volume::Shape(FittedShape::Hull(h)) => corners(&h.vertices),
        Volume::Shape(FittedShape::Parts(d)) => {
            d.parts.iter().flat_map(|p| corners(&p.vertices)).collect()
        }
        Volume::Segment(p, q) => vec![(*p, 0.0), (*q, 0.0)],
        Volume::Polytope(v, _) | Volume::Polyline(v) => corners(v),
        Volume::Marker(p) => vec![(*p, 0.0)],
    }
}

/// Draws a volume's wireframe (the drawings [`Volume`] describes).
fn draw_volume(canvas: &mut Canvas, cam: &Camera, volume: &Volume, color: Rgb, dash: Dash) {
    let polytope = |canvas: &mut Canvas, vertices: &[Point3<f64>], faces: &[Vec<u32>]| {
        draw_polytope(canvas, cam, vertices, faces, color, dash)
    };
    let corners = match volume {
        Volume::Shape(FittedShape::Aabb(b)) => Obb::from_min_max(&b.min, &b.max).corners(),
        Volume::Shape(FittedShape::Obb(b)) => b.corners(),
        Volume::Shape(FittedShape::Sphere(s)) => {
            canvas.circle(
                cam.project(s.center),
                s.radius * cam.scale,
                color,
                LINE_WIDTH,
                dash,
            );
            return;
        }
        Volume::Shape(FittedShape::Capsule(c)) => {
            // In an orthographic view a capsule's outline is the projected
            // segment's two end discs and their two common tangents.
            let r = c.radius * cam.scale;
            let [p, q] = [-1.0, 1.0].map(|s| cam.project(c.center + c.axis * (s * c.half_length)));
            for end in [p, q] {
                canvas.circle(end, r, color, LINE_WIDTH, dash);
            }
            let (dx, dy) = (q.0 - p.0, q.1 - p.1);
            let len = dx.hypot(dy);
            if len > 1e-9 {
                let (nx, ny) = (-dy / len * r, dx / len * r);
                for s in [-1.0, 1.0] {
                    let off = (s * nx, s * ny);
                    let a = (p.0 + off.0, p.1 + off.1);
                    let b = (q.0 + off.0, q.1 + off.1);
                    canvas.line(a, b, color, LINE_WIDTH, dash);
                }
            }
            return;
        }
        Volume::Shape(FittedShape::Cylinder(c)) => {
            // Both rims, and the two generators at ±(axis × view direction),
            // where the side turns away from the viewer.
            let rims: Vec<(f64, f64)> = cylinder_rims(c)
                .into_iter()
                .map(|p| cam.project(p))
                .collect();
            for rim in rims.chunks(RIM_SEGMENTS) {
                for k in 0..rim.len() {
                    canvas.line(rim[k], rim[(k + 1) % rim.len()], color, LINE_WIDTH, dash);
                }
            }
            let side = c.axis.cross(&cam.forward());
            if side.norm() > 1e-9 {
                let side = side.normalize() * c.radius;
                for s in [-1.0, 1.0] {
                    let [p, q] = [-1.0, 1.0]
                        .map(|t| cam.project(c.center + c.axis * (t * c.half_height) + side * s));
                    canvas.line(p, q, color, LINE_WIDTH, dash);
                }
            }
            return;
        }
        Volume::Shape(FittedShape::Kdop(k)) => return polytope(canvas, &k.vertices, &k.faces),
        Volume::Shape(FittedShape::Hull(h)) => return polytope(canvas, &h.vertices, &h.faces),
        Volume::Shape(FittedShape::Parts(d)) => {
            for p in &d.parts {
                polytope(canvas, &p.vertices, &p.faces);
            }
            return;
        }
        Volume::Segment(p, q) => {
            let (p, q) = (cam.project(*p), cam.project(*q));
            canvas.line(p, q, color, LINE_WIDTH, Dash::Solid);
            for end in [p, q] {
                canvas.circle(end, 3.0 * LINE_WIDTH as f64, color, LINE_WIDTH, Dash::Solid);
            }
            return;
        }
        Volume::Polytope(vertices, faces) => return polytope(canvas, vertices, faces),
        Volume::Polyline(points) => {
            for w in points.windows(2) {
                let (p, q) = (cam.project(w[0]), cam.project(w[1]));
                canvas.line(p, q, color, LINE_WIDTH, Dash::Solid);
            }
            return;
        }
        Volume::Marker(p) => {
            let (x, y) = cam.project(*p);
            let arm = 1.5 * MARKER_RADIUS;
            canvas.circle((x, y), MARKER_RADIUS, color, LINE_WIDTH, Dash::Solid);
            canvas.line((x - arm, y), (x + arm, y), color, LINE_WIDTH, Dash::Solid);
            canvas.line((x, y - arm), (x, y + arm), color, LINE_WIDTH, Dash::Solid);
            return;
        }
    };
    let px = corners.map(|c| cam.project(c));
    for (a, b) in BOX_EDGES {
        canvas.line(px[a], px[b], color, LINE_WIDTH, dash);
    }
}

/// Draws a polytope's edges (each once).
fn draw_polytope(
    canvas: &mut Canvas,
    cam: &Camera,
    vertices: &[Point3<f64>],
    faces: &[Vec<u32>],
    color: Rgb,
    dash: Dash,
) {
    let mut edges: Vec<(u32, u32)> = faces
        .iter()
        .flat_map(|f| (0..f.len()).map(move |k| (f[k], f[(k + 1) % f.len()])))
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    edges.sort_unstable();
    edges.dedup();
    for (a, b) in edges {
        let (a, b) = (vertices[a as usize], vertices[b as usize]);
        canvas.line(cam.project(a), cam.project(b), color, LINE_WIDTH, dash);
    }
}

/// The model's X, Y and Z axes as short arrows from a point near the
/// panel's lower-left corner, each labelled at its tip (an axis pointing at
/// the viewer is a dot with its label).
fn draw_triad(canvas: &mut Canvas, cam: &Camera, rect: &PixelRect) {
    let origin = (rect.x0 as f64 + TRIAD + 12.0, rect.y1 as f64 - TRIAD - 12.0);
    for (k, (color, name)) in AXIS_COLORS.iter().zip(["X", "Y", "Z"]).enumerate() {
        let (dx, dy) = cam.screen_direction(Vector3::ith(k, 1.0));
        let (dx, dy) = (TRIAD * dx / cam.scale, TRIAD * dy / cam.scale);
        canvas.line(
            origin,
            (origin.0 + dx, origin.1 + dy),
            *color,
            2.0,
            Dash::Solid,
        );
        let (lx, ly) = (origin.0 + 1.3 * dx, origin.1 + 1.3 * dy);
        canvas.text(lx as i64 - 4, ly as i64 - 8, name, *color, TextSize::Normal);
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
        Dash::Solid,
    );
    for (e, (x, row)) in entries.iter().zip(pos) {
        let y = top + 6 + row * LEGEND_ROW;
        let mid = (y + 8) as f64;
        if e.filled {
            canvas.blend_rect(x + 2, y + 1, SWATCH - 4, 14, e.color, e.alpha);
        } else {
            canvas.line(
                (x as f64 + 2.0, mid),
                ((x + SWATCH - 2) as f64, mid),
                e.color,
                3.0,
                Dash::Solid,
            );
        }
        canvas.text(x + SWATCH + 6, y, &e.label, TEXT, TextSize::Normal);
    }
}

/// Writes `image` as a PNG file, through a temporary file renamed into
/// place ([`crate::files::write_atomic`]): a failed write leaves the
/// previous file whole.
pub fn save_png(image: &RgbImage, path: &Path) -> crate::Result<()> {
    let mut png = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .map_err(|e| crate::Error::Write {
            path: path.to_path_buf(),
            source: match e {
                image::ImageError::IoError(io) => io,
                other => std::io::Error::other(other),
            },
        })?;
    crate::files::write_atomic(path, &png)
}
