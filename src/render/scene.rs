//! What a picture shows: meshes, bounding volumes, and how to look at them.

use crate::fit::round::across;
use crate::fit::{Cylinder, FittedShape};
use crate::mesh::TriMesh;
use nalgebra::Point3;
use std::collections::BTreeSet;

use super::camera::{UpAxis, View};

/// An sRGB colour, `[r, g, b]`.
pub type Rgb = [u8; 3];

/// Distinct, colour-blind-friendly wireframe colours (the Tableau 10 set),
/// handed out in order by [`RenderScene::add_volume`] and used for the bars
/// of [`bar_chart`](super::bar_chart).
pub const PALETTE: [Rgb; 8] = [
    [214, 39, 40],   // red
    [31, 119, 180],  // blue
    [44, 160, 44],   // green
    [255, 127, 14],  // orange
    [148, 103, 189], // purple
    [140, 86, 75],   // brown
    [227, 119, 194], // pink
    [23, 190, 207],  // cyan
];

/// Base colours for successive meshes: light grey, then a warm sand, so two
/// colliding models stay apart.
pub const MESH_COLORS: [Rgb; 2] = [[205, 205, 205], [222, 196, 150]];

/// The colour of highlighted triangles (for collisions): magenta, which no
/// volume colour and no shade of the base colours comes near.
pub const HIGHLIGHT: Rgb = [230, 0, 200];

/// A triangle mesh to shade, in the world frame.
#[derive(Clone, Debug)]
pub struct MeshLayer {
    /// The triangles (world frame).
    pub mesh: TriMesh,
    /// Colour of a triangle facing the light; shading darkens it.
    pub color: Rgb,
    /// Triangles (indices into `mesh.triangles`) drawn in `highlight_color`
    /// instead, e.g. the intersecting triangles of a collision.
    pub highlighted: BTreeSet<usize>,
    /// Colour of highlighted triangles.
    pub highlight_color: Rgb,
    /// Legend text for the highlighted triangles (shown only when some are).
    pub highlight_label: String,
    /// Legend text; no legend entry when `None`.
    pub label: Option<String>,
    /// In (0, 1]: 1 is opaque (z-buffered with the other opaque layers);
    /// below 1 the layer is a ghost: after every opaque layer, its nearest
    /// surface in front of them is blended over the picture with this
    /// weight (ghosts in layer order; see `raster`).
    pub opacity: f64,
}

/// Segments of a cylinder's rim drawn as a polygon (and sampled to fit the
/// camera around it).
pub const RIM_SEGMENTS: usize = 64;

/// A wireframe: a fitted shape, or an outline that is not one.
#[derive(Clone, Debug)]
pub enum Volume {
    /// A fitted shape, drawn by its one drawing: a box (AABB or OBB) as its
    /// 12 edges; a sphere as its silhouette (in an orthographic view, the
    /// circle of its radius around its projected centre); a capsule as the
    /// circles of its two end spheres and the two lines tangent to both; a
    /// cylinder as its two rims and the two lines along its silhouette; a
    /// k-DOP, a budget hull and each convex part as a polytope's edges.
    Shape(FittedShape),
    /// A segment between two points (e.g. the closest points of two
    /// meshes), drawn as a line with a dot at each end.
    Segment(Point3<f64>, Point3<f64>),
    /// Convex polygons that are no fitted shape (the closest triangles of
    /// a distance picture), or one convex part drawn on its own, drawn as
    /// their edges: vertices and faces (polygons of vertex indices).
    Polytope(Vec<Point3<f64>>, Vec<Vec<u32>>),
    /// An open polyline through the points in order (e.g. the path of a
    /// moving body), drawn as lines, no dots.
    Polyline(Vec<Point3<f64>>),
    /// A marker at a point (e.g. a contact point): a circle of
    /// [`MARKER_RADIUS`] pixels with a cross through it, the same size in
    /// every picture.
    Marker(Point3<f64>),
}

/// The radius of a [`Volume::Marker`]'s circle in pixels; its cross's arms
/// reach 1.5 times as far.
pub const MARKER_RADIUS: f64 = 9.0;

impl Volume {
    /// The wireframes of a fitted shape: convex parts one
    /// [`Volume::Polytope`] each (so that each part is compared with the
    /// other outlines, and dashed where it coincides with one, by itself),
    /// every other shape one [`Volume::Shape`].
    pub fn of_shape(shape: FittedShape) -> Vec<Volume> {
        match shape {
            FittedShape::Parts(d) => d
                .parts
                .into_iter()
                .map(|p| Volume::Polytope(p.vertices, p.faces))
                .collect(),
            shape => vec![Volume::Shape(shape)],
        }
    }
}

/// The points of a cylinder's two rims, [`RIM_SEGMENTS`] each (bottom rim
/// first).
pub(crate) fn cylinder_rims(c: &Cylinder) -> Vec<Point3<f64>> {
    let a = c.axis.normalize();
    let (u, v) = across(&a);
    [-c.half_height, c.half_height]
        .into_iter()
        .flat_map(|h| {
            (0..RIM_SEGMENTS).map(move |k| {
                let t = std::f64::consts::TAU * k as f64 / RIM_SEGMENTS as f64;
                c.center + a * h + (u * t.cos() + v * t.sin()) * c.radius
            })
        })
        .collect()
}

/// A volume with its legend label and wireframe colour.
#[derive(Clone, Debug)]
pub struct VolumeLayer {
    /// The volume (world frame).
    pub volume: Volume,
    /// Legend text, e.g. "OBB (tight)".
    pub label: String,
    /// Wireframe and legend swatch colour.
    pub color: Rgb,
}

/// Everything one picture shows.
#[derive(Clone, Debug, Default)]
pub struct RenderScene {
    /// Shaded meshes, drawn with a shared depth buffer.
    pub meshes: Vec<MeshLayer>,
    /// Wireframes, drawn over the meshes in order.
    pub volumes: Vec<VolumeLayer>,
    /// Title lines drawn across the top (none: no title band).
    pub title: Vec<String>,
}

impl RenderScene {
    /// An empty scene.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a mesh in the next of [`MESH_COLORS`], with no highlighted
    /// triangles; returns it so that the caller can set the highlight set,
    /// colour or label.
    pub fn add_mesh(&mut self, mesh: TriMesh) -> &mut MeshLayer {
        let color = MESH_COLORS[self.meshes.len() % MESH_COLORS.len()];
        self.meshes.push(MeshLayer {
            mesh,
            color,
            highlighted: BTreeSet::new(),
            highlight_color: HIGHLIGHT,
            highlight_label: "highlighted triangles".into(),
            label: None,
            opacity: 1.0,
        });
        self.meshes.last_mut().expect("just pushed")
    }

    /// Adds a volume in the next colour of [`PALETTE`].
    pub fn add_volume(&mut self, volume: Volume, label: impl Into<String>) -> &mut VolumeLayer {
        let color = PALETTE[self.volumes.len() % PALETTE.len()];
        self.volumes.push(VolumeLayer {
            volume,
            label: label.into(),
            color,
        });
        self.volumes.last_mut().expect("just pushed")
    }
}

/// One view, or the four views in a 2×2 grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The whole picture is one view.
    Single(View),
    /// Four labelled panels: iso, front (top row), side, top (bottom row).
    Grid,
}

impl Layout {
    /// Parses `iso`, `front`, `side`, `top` or `grid`.
    pub fn parse(s: &str) -> crate::Result<Layout> {
        match s {
            "grid" => Ok(Layout::Grid),
            _ => View::parse(s).map(Layout::Single),
        }
    }

    /// The views drawn, in panel order (row by row).
    pub fn views(&self) -> Vec<View> {
        match self {
            Layout::Single(v) => vec![*v],
            Layout::Grid => vec![View::Iso, View::Front, View::Side, View::Top],
        }
    }
}

/// The largest width or height accepted, so that a size typed by a user
/// cannot ask for an unbounded allocation (8192² RGBA is 256 MiB).
pub const MAX_SIDE: u32 = 8192;

/// How to draw a [`RenderScene`].
#[derive(Clone, Copy, Debug)]
pub struct RenderOptions {
    /// Which view(s).
    pub layout: Layout,
    /// Picture width in pixels (1..=[`MAX_SIDE`]).
    pub width: u32,
    /// Picture height in pixels (1..=[`MAX_SIDE`]).
    pub height: u32,
    /// Background colour.
    pub background: Rgb,
    /// The model's up axis.
    pub up: UpAxis,
    /// Draw an X/Y/Z axis triad in each view's lower-left corner (over
    /// whatever is there).
    pub triad: bool,
}

impl Default for RenderOptions {
    /// Iso view, 1024×768, white background, +Y up, with a triad.
    fn default() -> Self {
        RenderOptions {
            layout: Layout::Single(View::Iso),
            width: 1024,
            height: 768,
            background: [255, 255, 255],
            up: UpAxis::Y,
            triad: true,
        }
    }
}

/// Parses a size written `WxH` (e.g. `1024x768`), each side 1..=[`MAX_SIDE`].
pub fn parse_size(s: &str) -> crate::Result<(u32, u32)> {
    let bad = || crate::Error::Input(format!("bad size {s:?}: expected WxH, e.g. 1024x768"));
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    check_size(w, h)?;
    Ok((w, h))
}

/// Refuses a zero or oversized picture with a one-line error.
pub(crate) fn check_size(w: u32, h: u32) -> crate::Result<()> {
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(crate::Error::Input(format!(
            "picture size {w}x{h} out of range: each side must be 1..={MAX_SIDE}"
        )));
    }
    Ok(())
}
