//! The picture of a motion (`bvtool collide --to/--path --render`): A at
//! identity; B at a few times along the motion, the earlier copies as
//! translucent ghosts, the copy where the answer ends solid with the
//! triangles in contact highlighted and the contact point marked; and the
//! path of B's centre through the copies.

use super::compose::placed;
use super::picture::render;
use super::scene::{MESH_COLORS, PALETTE, RenderOptions, RenderScene, Rgb, Volume};
use crate::error::Result;
use crate::mesh::{TriMesh, TriangleSource};
use crate::pose::Pose;
use crate::query::motion::Motion;
use image::RgbImage;
use nalgebra::{Point3, Vector3};
use std::collections::{HashMap, HashSet};

/// How many times B is drawn: `COPIES − 1` ghosts and the solid copy at
/// the end.
pub const COPIES: usize = 7;

/// The opacity of a ghost copy of B.
pub const GHOST_OPACITY: f64 = 0.35;

/// The most triangles one ghost copy of B has: a larger B is simplified
/// once, by vertex clustering, for its ghosts ([`simplified`]).
pub const GHOST_TRIANGLES: usize = 20_000;

/// The colour of the contact marker (and of the witness segment of a
/// clearance).
pub const MARKER_COLOR: Rgb = PALETTE[0];

/// The colour of the path of B's centre.
pub const PATH_COLOR: Rgb = PALETTE[1];

/// Points sampled on each segment for the path of B's centre (a segment
/// that turns B moves its centre along an arc).
const PATH_SAMPLES: usize = 32;

/// Where the drawn motion ends: on `segment` (from 0: poses `segment` and
/// `segment + 1` of the path) at its time `t` — the contact's time on a
/// hit, the time up to which no contact is certified when undecided, 1 on
/// the last segment when free — and what is found there.
#[derive(Clone, Debug)]
pub struct SweepEnd {
    /// The segment, from 0.
    pub segment: usize,
    /// The time on it, in [0, 1].
    pub t: f64,
    /// On a hit, the contact.
    pub contact: Option<SweepContact>,
}

/// A contact at the end of the drawn motion.
#[derive(Clone, Debug)]
pub struct SweepContact {
    /// The triangle pairs (indices into A and B) in contact (or within the
    /// clearance) there, highlighted.
    pub pairs: Vec<(u32, u32)>,
    /// The witness point on A, in A's frame (marked).
    pub point_a: Point3<f64>,
    /// The witness point on B, in A's frame (with a clearance, the segment
    /// from `point_a` to it is drawn).
    pub point_b: Point3<f64>,
    /// The clearance asked (0: contact).
    pub clearance: f64,
}

/// The picture of B moving along `path` (poses of B in A's frame, each
/// consecutive pair a [`Motion`]) up to `end`, under `title`
/// ([`sweep_scene`]).
///
/// # Errors
/// A picture size out of range.
pub fn sweep_picture(
    a: &TriMesh,
    b: &TriMesh,
    path: &[Pose],
    end: &SweepEnd,
    title: &[String],
    opts: &RenderOptions,
) -> Result<RgbImage> {
    render(&sweep_scene(a, b, path, end, title), opts)
}

/// What [`sweep_picture`] draws: A at identity (legend "A"); B at
/// [`COPIES`] times spread evenly over the motion from the first pose to
/// `end` ([`copy_times`]): the last copy solid (legend "B"), the others
/// ghosts of opacity [`GHOST_OPACITY`] (legend "B on the way"); the
/// contact's triangle pairs highlighted on A and on the solid B; the
/// contact point `point_a` marked by a [`Volume::Marker`] in
/// [`MARKER_COLOR`] (with a clearance also the segment to `point_b`); the
/// path of B's centre (the middle of its bounding box in its own frame)
/// from the first pose to `end` as a polyline in [`PATH_COLOR`].
///
/// The cost stays bounded for large meshes: A and the solid B are drawn
/// whole, each ghost from B simplified once to at most
/// [`GHOST_TRIANGLES`] triangles ([`simplified`]), so at most
/// `|A| + |B| + 6·GHOST_TRIANGLES` triangles are rasterized per view.
///
/// # Panics
/// If `path` has fewer than `end.segment + 2` poses.
pub fn sweep_scene(
    a: &TriMesh,
    b: &TriMesh,
    path: &[Pose],
    end: &SweepEnd,
    title: &[String],
) -> RenderScene {
    let corners = || {
        b.triangles
            .iter()
            .flatten()
            .map(|&i| b.vertices[i as usize])
    };
    let radius = corners().map(|v| v.coords.norm()).fold(0.0, f64::max);
    let (lo, hi) = corners().fold(
        (
            Vector3::repeat(f64::INFINITY),
            Vector3::repeat(f64::NEG_INFINITY),
        ),
        |(lo, hi), v| (lo.inf(&v.coords), hi.sup(&v.coords)),
    );
    let center = Point3::from((lo + hi) * 0.5);
    let times = copy_times(path, end, radius);
    let pose_at = |(segment, t): (usize, f64)| motion(path, segment).pose_at(t);

    let mut picture = RenderScene::new();
    picture.title = title.to_vec();
    let pairs = end.contact.as_ref().map_or(&[][..], |c| &c.pairs[..]);
    let what = match &end.contact {
        Some(c) if c.clearance > 0.0 => "triangles within the clearance",
        _ => "triangles in contact",
    };
    let la = picture.add_mesh(a.clone());
    la.label = Some("A".into());
    la.highlight_label = what.into();
    la.highlighted = pairs.iter().map(|p| p.0 as usize).collect();
    let last = *times.last().expect("at least one copy");
    let lb = picture.add_mesh(placed(b, &pose_at(last)));
    lb.color = MESH_COLORS[1];
    lb.label = Some("B".into());
    lb.highlight_label = what.into();
    lb.highlighted = pairs.iter().map(|p| p.1 as usize).collect();
    if times.len() > 1 {
        let ghost = simplified(b, GHOST_TRIANGLES);
        for &at in &times[..times.len() - 1] {
            let layer = picture.add_mesh(placed(&ghost, &pose_at(at)));
            layer.color = MESH_COLORS[1];
            layer.opacity = GHOST_OPACITY;
            layer.label = Some("B on the way".into());
        }
    }

    let mut trace = Vec::new();
    for segment in 0..=end.segment {
        let m = motion(path, segment);
        let until = if segment == end.segment { end.t } else { 1.0 };
        let from = usize::from(segment > 0); // the segment's start ends the last
        trace.extend((from..=PATH_SAMPLES).map(|k| {
            let t = until * k as f64 / PATH_SAMPLES as f64;
            m.pose_at(t).transform_point(&center)
        }));
    }
    picture
        .add_volume(Volume::Polyline(trace), "path of B's centre")
        .color = PATH_COLOR;
    if let Some(c) = &end.contact {
        let label = if c.clearance > 0.0 {
            "closest points"
        } else {
            "contact point"
        };
        if c.clearance > 0.0 {
            picture
                .add_volume(Volume::Segment(c.point_a, c.point_b), label)
                .color = MARKER_COLOR;
        }
        picture.add_volume(Volume::Marker(c.point_a), label).color = MARKER_COLOR;
    }
    picture
}

/// Segment `segment` of `path` as a [`Motion`].
fn motion(path: &[Pose], segment: usize) -> Motion {
    Motion::new(path[segment], path[segment + 1])
}

/// The `(segment, t)` of each copy of B: [`COPIES`] times spread evenly
/// from the path's start to `end` by how far B may move — on each segment
/// `|T1 − T0| + θ·radius` per unit of `t` (the bound on the speed of B's
/// points within `radius` of its origin: [`Motion::speed_bound`]) — the
/// last exactly `end`. One copy, at `end`, when B does not move before it.
pub fn copy_times(path: &[Pose], end: &SweepEnd, radius: f64) -> Vec<(usize, f64)> {
    let lengths: Vec<f64> = (0..=end.segment)
        .map(|s| {
            let m = motion(path, s);
            let whole = m.travel() + m.angle() * radius;
            if s == end.segment {
                whole * end.t
            } else {
                whole
            }
        })
        .collect();
    let total: f64 = lengths.iter().sum();
    let last = (end.segment, end.t);
    if !(total > 0.0 && total.is_finite()) {
        return vec![last];
    }
    let mut times: Vec<(usize, f64)> = (0..COPIES - 1)
        .map(|k| {
            let mut along = total * k as f64 / (COPIES - 1) as f64;
            for (s, &len) in lengths.iter().enumerate() {
                if along < len {
                    let whole = if s == end.segment { len / end.t } else { len };
                    return (s, (along / whole).clamp(0.0, 1.0));
                }
                along -= len;
            }
            last
        })
        .collect();
    times.push(last);
    times
}

/// `mesh` with at most `cap` triangles: itself when it has no more;
/// otherwise simplified by vertex clustering — the corners snapped to a
/// grid of cubes over the mesh's bounding box, each cube's corners merged
/// into their mean, triangles that collapse or repeat dropped — on the
/// finest grid (cells across the longest side, shrunk until it fits) that
/// leaves at most `cap`. Every corner moves by at most a cube's diagonal,
/// so the simplified outline stays within that distance of the mesh's.
pub fn simplified(mesh: &TriMesh, cap: usize) -> TriMesh {
    if mesh.triangles.len() <= cap {
        return mesh.clone();
    }
    let corners = || {
        mesh.triangles
            .iter()
            .flatten()
            .map(|&i| mesh.vertices[i as usize])
    };
    let (lo, hi) = corners().fold(
        (
            Vector3::repeat(f64::INFINITY),
            Vector3::repeat(f64::NEG_INFINITY),
        ),
        |(lo, hi), v| (lo.inf(&v.coords), hi.sup(&v.coords)),
    );
    let size = (hi - lo).max();
    let mut cells = (cap as f64 / 2.0).sqrt().max(1.0);
    loop {
        let out = clustered(mesh, &lo, size / cells);
        if out.triangles.len() <= cap || cells <= 1.0 || !size.is_finite() {
            return out;
        }
        // A surface's cells, and so its triangles, grow as cells².
        cells = (cells * 0.9 * (cap as f64 / out.triangles.len() as f64).sqrt()).max(1.0);
    }
}

/// `mesh`'s corners merged per cube of side `cell` from `lo` (all into one
/// when `cell` is not a positive finite number).
fn clustered(mesh: &TriMesh, lo: &Vector3<f64>, cell: f64) -> TriMesh {
    let scale = if cell > 0.0 && cell.is_finite() {
        1.0 / cell
    } else {
        0.0
    };
    let mut ids: HashMap<[i64; 3], u32> = HashMap::new();
    let mut sums: Vec<(Vector3<f64>, f64)> = Vec::new();
    let mut of_vertex = vec![u32::MAX; mesh.vertices.len()];
    let mut triangles = Vec::new();
    let mut seen: HashSet<[u32; 3]> = HashSet::new();
    for t in &mesh.triangles {
        let merged = t.map(|v| {
            let v = v as usize;
            if of_vertex[v] == u32::MAX {
                let p = mesh.vertices[v].coords;
                let key = ((p - lo) * scale).map(|c| c.floor() as i64);
                let id = *ids.entry([key.x, key.y, key.z]).or_insert_with(|| {
                    sums.push((Vector3::zeros(), 0.0));
                    (sums.len() - 1) as u32
                });
                sums[id as usize].0 += p;
                sums[id as usize].1 += 1.0;
                of_vertex[v] = id;
            }
            of_vertex[v]
        });
        let mut key = merged;
        key.sort_unstable();
        if key[0] != key[1] && key[1] != key[2] && seen.insert(key) {
            triangles.push(merged);
        }
    }
    let sources = (0..triangles.len() as u32)
        .map(|k| TriangleSource::unplaced(0, k))
        .collect();
    TriMesh {
        vertices: sums.iter().map(|(s, n)| Point3::from(s / *n)).collect(),
        triangles,
        sources,
    }
}
