//! A near-minimal-volume oriented box around a convex hull.

use crate::fit::hull::planar::{convex_hull_2d, min_area_rect};
use crate::fit::obb::cube_map::{CELL_SLACK, cone_cells};
use crate::fit::{ConvexHull, covariance};
use crate::threads::{Stop, Stopped};
use nalgebra::{Matrix3, Point3, Rotation3, Vector2, Vector3};
use rayon::prelude::*;

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
/// first two axes bound the minimum-area rectangle (rotating calipers) of
/// the projection of `rim`, with the volume of the box it makes with the
/// extent of `pts` along `n`. `rim` must hold every point of `pts` whose
/// projection can be a vertex of the projected hull (all of `pts` will do;
/// [`Rims::rim`] gives far fewer).
fn flush_frame<'a>(
    n: &Vector3<f64>,
    pts: &[Point3<f64>],
    rim: impl Iterator<Item = &'a Point3<f64>>,
    flat: &mut Vec<Vector2<f64>>,
) -> (f64, Matrix3<f64>) {
    let f = frame_about(n);
    let (u, v) = (f.column(0).into_owned(), f.column(1).into_owned());
    let (lo, hi) = pts
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let h = n.dot(&p.coords);
            (lo.min(h), hi.max(h))
        });
    flat.clear();
    flat.extend(rim.map(|p| Vector2::new(u.dot(&p.coords), v.dot(&p.coords))));
    let poly = convex_hull_2d(flat);
    let (area, e) = min_area_rect(&poly);
    let a0 = u * e.x + v * e.y;
    let a1 = n.cross(&a0);
    (area * (hi - lo), Matrix3::from_columns(&[a0, a1, *n]))
}

/// Every distinct face direction of a hull (up to sign; only exactly equal
/// unit normals are merged, so no direction is lost), largest face first.
fn face_directions(hull: &ConvexHull) -> Vec<Vector3<f64>> {
    let mut dirs: Vec<(f64, Vector3<f64>)> = hull
        .faces
        .iter()
        .filter_map(|f| {
            let [a, b, c] = f.map(|i| hull.vertices[i as usize]);
            let w = (b - a).cross(&(c - a));
            let area = w.norm();
            if !area.is_finite() || area <= 0.0 {
                return None;
            }
            let n = w / area;
            // Canonical sign: n and −n bound the same slab.
            Some((area, if n[n.iamax()] < 0.0 { -n } else { n }))
        })
        .collect();
    let bits = |n: &Vector3<f64>| n.map(f64::to_bits);
    dirs.sort_unstable_by(|a, b| {
        bits(&a.1)
            .iter()
            .cmp(bits(&b.1).iter())
            .then(b.0.total_cmp(&a.0))
    });
    dirs.dedup_by(|a, b| a.1 == b.1);
    dirs.sort_by(|a, b| b.0.total_cmp(&a.0));
    dirs.into_iter().map(|d| d.1).collect()
}

/// Faces whose unit normal is within this cosine of perpendicular to a
/// direction count as both front- and back-facing (a generous margin for the
/// rounding of the normals).
const GRAZING: f64 = 1e-6;

/// Hull adjacency for silhouettes: the projection of a convex polytope along
/// `n` is the projection of its rim, the edges between a front-facing
/// (normal·n > 0) and a back-facing face, so only rim vertices need the 2-D
/// hull. Rounding cannot lose a rim vertex: faces within [`GRAZING`] of
/// perpendicular, and slivers whose normal is unreliable, count as both
/// sides, which only adds vertices.
///
/// A rim is found without looking at every edge: the edges are bucketed
/// by the cube-map cell of their Gauss arc's middle, each cell with a cone
/// holding its edges' face normals, and a cell whose cone lies farther
/// than [`GRAZING`] from the great circle perpendicular to `n` is skipped
/// whole (its faces all face one way). On a round hull the rim is a thin
/// band: `sphere_smooth.obj`'s 1,792 face directions test about a tenth of
/// its 2,439 edges each.
pub(crate) struct Rims {
    /// Unit face normals; zero for slivers.
    pub(crate) normals: Vec<Vector3<f64>>,
    /// `(a, b, f, g)`: edge `a–b` between faces `f` and `g`.
    pub(crate) edges: Vec<[u32; 4]>,
    /// Vertices of edges with a single face (none on a closed hull): always
    /// on the rim.
    loose: Vec<u32>,
    /// The edges by the direction of their faces' normals.
    cells: Vec<RimCell>,
    /// Edges with a sliver face (or two opposite normals): always tested.
    always: Vec<u32>,
}

/// Edges whose face normals all lie within a cone about `centre`: the cone
/// comes within [`GRAZING`] (and [`CELL_SLACK`]) of the great circle
/// perpendicular to a unit `n` only if `|n · centre| ≤ reach`.
struct RimCell {
    edges: Vec<u32>,
    centre: Vector3<f64>,
    reach: f64,
}

impl Rims {
    pub(crate) fn new(hull: &ConvexHull) -> Rims {
        let normals: Vec<Vector3<f64>> = hull
            .faces
            .iter()
            .map(|f| {
                let [a, b, c] = f.map(|i| hull.vertices[i as usize]);
                let (u, v) = (b - a, c - a);
                let w = u.cross(&v);
                let area = w.norm();
                if area > 1e-8 * u.norm() * v.norm() && area.is_finite() {
                    w / area
                } else {
                    Vector3::zeros()
                }
            })
            .collect();
        // Each face's sides keyed by their end points, sorted: a side's
        // twin (the same two vertices) follows it. A sort, not a hash map:
        // cheaper at every size the corpus has, and a small hull's fixed
        // cost. Side `3f + i` runs from corner `i` of face `f`.
        let mut sides: Vec<(u64, u32)> = (0..3 * hull.faces.len() as u32)
            .map(|s| {
                let f = hull.faces[s as usize / 3];
                let (a, b) = (f[s as usize % 3], f[(s as usize + 1) % 3]);
                (u64::from(a.min(b)) << 32 | u64::from(a.max(b)), s)
            })
            .collect();
        sides.sort_unstable();
        // Each edge where the later of its faces lists it (the order the
        // edge search's indices follow).
        let mut at_later: Vec<Option<[u32; 4]>> = vec![None; sides.len()];
        let mut loose = Vec::new();
        let mut rest = &sides[..];
        while let [(key, s), tail @ ..] = rest {
            let (a, b) = ((key >> 32) as u32, *key as u32);
            match tail.first() {
                Some((twin, t)) if twin == key => {
                    at_later[*t as usize] = Some([a, b, s / 3, t / 3]);
                    rest = &tail[1..];
                }
                _ => {
                    loose.extend([a, b]);
                    rest = tail;
                }
            }
        }
        let edges: Vec<[u32; 4]> = at_later.into_iter().flatten().collect();
        let (cells, always) = Rims::cells(&normals, &edges);
        Rims {
            normals,
            edges,
            loose,
            cells,
            always,
        }
    }

    /// The edges bucketed by the middle of their Gauss arcs (about eight a
    /// cell), and those with no usable arc.
    fn cells(normals: &[Vector3<f64>], edges: &[[u32; 4]]) -> (Vec<RimCell>, Vec<u32>) {
        // Per edge: its arc's middle and half angle (both normals within it).
        let mut cones = Vec::with_capacity(edges.len());
        let mut always = Vec::new();
        for (k, &[_, _, f, g]) in edges.iter().enumerate() {
            let (wf, wg) = (normals[f as usize], normals[g as usize]);
            let mid = (wf != Vector3::zeros() && wg != Vector3::zeros())
                .then(|| (wf + wg).try_normalize(1e-6))
                .flatten();
            match mid {
                Some(m) => cones.push((k as u32, m, 0.5 * wf.cross(&wg).norm().atan2(wf.dot(&wg)))),
                None => always.push(k as u32),
            }
        }
        let cells = cone_cells(&cones)
            .into_iter()
            .map(|cell| {
                // Past this angle from the circle every normal of the cell
                // is more than GRAZING from it, on the centre's side.
                let limit = cell.spread + GRAZING.asin() + CELL_SLACK;
                let reach = if limit < std::f64::consts::FRAC_PI_2 {
                    limit.sin()
                } else {
                    f64::INFINITY
                };
                RimCell {
                    edges: cell.members,
                    centre: cell.centre,
                    reach,
                }
            })
            .collect();
        (cells, always)
    }

    /// The rim vertices of `hull` seen along unit `n`, into `scratch.out`.
    fn rim<'h>(&self, hull: &'h ConvexHull, n: &Vector3<f64>, scratch: &mut RimScratch<'h>) {
        let RimScratch { seen, stamp, out } = scratch;
        *stamp += 1;
        seen.resize(hull.vertices.len(), 0);
        out.clear();
        let mut take = |v: u32| {
            if seen[v as usize] != *stamp {
                seen[v as usize] = *stamp;
                out.push(&hull.vertices[v as usize]);
            }
        };
        // Bit 1: may face forward; bit 2: may face backward (both when
        // grazing or a sliver). An edge is on the rim iff its faces' bits
        // together hold both.
        let side = |f: u32| {
            let c = self.normals[f as usize].dot(n);
            u8::from(c > -GRAZING) | (u8::from(c < GRAZING) << 1)
        };
        let near = self
            .cells
            .iter()
            .filter(|cell| n.dot(&cell.centre).abs() <= cell.reach)
            .flat_map(|cell| &cell.edges);
        for &k in near.chain(&self.always) {
            let [a, b, f, g] = self.edges[k as usize];
            if side(f) | side(g) == 3 {
                take(a);
                take(b);
            }
        }
        self.loose.iter().for_each(|&v| take(v));
    }
}

/// Per-thread buffers of [`Rims::rim`].
#[derive(Default)]
struct RimScratch<'h> {
    seen: Vec<u32>,
    stamp: u32,
    out: Vec<&'h Point3<f64>>,
}

/// A rotation is only taken when it shrinks the box by more than this
/// fraction: far above the rounding of [`box_volume`] (a few ulps), which
/// on thin hulls otherwise offers an endless run of noise "improvements".
const MIN_GAIN: f64 = 1e-12;
/// Rotations taken at one step size at most. The previous (twice larger)
/// step found no gain, so a local optimum lies within a few steps; this
/// leaves ample room while bounding the search.
const MAX_MOVES_PER_STEP: usize = 64;

/// Coordinate descent on the rotation group: rotate the frame by ±`step`
/// about each of its own axes while the box volume drops by more than
/// [`MIN_GAIN`] (relative), at most [`MAX_MOVES_PER_STEP`] times per step,
/// halving the step from 0.05 down to 1e-9 rad. Bounded: 26 step sizes ×
/// (64 moves + 1 sweep without gain) × 6 trial rotations, each one
/// [`box_volume`] over `pts`.
fn refine(mut axes: Matrix3<f64>, pts: &[Point3<f64>]) -> (f64, Matrix3<f64>) {
    let mut best = box_volume(&axes, pts);
    let mut step = 0.05;
    while step > 1e-9 {
        let mut moves = 0;
        let mut improved = true;
        while improved && moves < MAX_MOVES_PER_STEP {
            improved = false;
            for i in 0..3 {
                for s in [step, -step] {
                    let axis = nalgebra::Unit::new_unchecked(axes.column(i).into_owned());
                    let trial = Rotation3::from_axis_angle(&axis, s).matrix() * axes;
                    let v = box_volume(&trial, pts);
                    if v < best * (1.0 - MIN_GAIN) {
                        best = v;
                        axes = trial;
                        improved = true;
                        moves += 1;
                    }
                }
            }
        }
        step *= 0.5;
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
pub(crate) const MAX_DIRECTIONS: usize = 16384;
/// How many of the best candidates are refined.
const REFINED: usize = 4;
/// Directions of the probe set that gives cheap lower bounds.
const PROBES: usize = 24;
/// Face directions evaluated exactly per parallel batch.
const BATCH: usize = 64;

/// A few hull vertices spread around it: those extreme (both ways) along
/// `PROBES` directions of a Fibonacci half-sphere.
fn probe_set(pts: &[Point3<f64>]) -> Vec<Point3<f64>> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let mut idx: Vec<usize> = (0..PROBES)
        .flat_map(|k| {
            let z = (k as f64 + 0.5) / PROBES as f64;
            let r = (1.0 - z * z).sqrt();
            let (s, c) = (golden * k as f64).sin_cos();
            let d = Vector3::new(r * c, r * s, z);
            let key = |i: &usize| d.dot(&pts[*i].coords);
            let all = 0..pts.len();
            [
                all.clone().min_by(|a, b| key(a).total_cmp(&key(b))),
                all.max_by(|a, b| key(a).total_cmp(&key(b))),
            ]
        })
        .flatten()
        .collect();
    idx.sort_unstable();
    idx.dedup();
    idx.into_iter().map(|i| pts[i]).collect()
}

/// The frame of a near-minimal-volume box around `hull`'s vertices:
///
/// 1. for every distinct hull face direction (the optimal box very often
///    has a face flush with a hull face), the box whose base is the exact
///    minimum-area rectangle of the vertices projected on that plane
///    (rotating calipers over the 2-D hull of the rim vertices only, see
///    `Rims`) — the method of trimesh's `oriented_bounds`, without its
///    0.1 rad direction grouping, so never a worse candidate set;
/// 2. plus the given `extra` frames (PCA, hull covariance, identity);
/// 3. local search on the rotation group from the best few.
///
/// Steps 1 and 2 are `face_frames`. The result is never worse than the
/// best candidate, in particular than any `extra` frame such as the
/// AABB's. Flat hulls (dimension < 3) use the plane normal of their
/// principal frame as the one direction.
///
/// `None` when the face step would spend more than [`FACE_WORK`] (see
/// [`face_frames`]); [`Stopped`] once `stop` is set, checked between the
/// face step's batches of directions and before each refinement.
pub fn tight_frame(
    hull: &ConvexHull,
    extra: &[Matrix3<f64>],
    stop: Stop<'_>,
) -> Result<Option<Matrix3<f64>>, Stopped> {
    let Some(cands) = face_frames(hull, &Rims::new(hull), extra, REFINED, stop)? else {
        return Ok(None);
    };
    if hull.dimension < 3 {
        // A flat box is already optimal in its plane; do not tilt it.
        return Ok(Some(cands.first().map_or_else(Matrix3::identity, |c| c.1)));
    }
    let best = cands
        .par_iter()
        .filter(|_| !stop.is_set())
        .map(|c| refine(c.1, &hull.vertices))
        .min_by(|a, b| a.0.total_cmp(&b.0));
    stop.check()?;
    Ok(Some(best.map_or_else(Matrix3::identity, |c| c.1)))
}

/// The face step's work limit: rim vertices projected, over all the
/// directions evaluated exactly. Past it the step gives up (after the batch
/// that crossed it) and the caller searches a kernel instead
/// (docs/algorithms.md, "Big hulls"): a prism's caps put their whole
/// boundary on every side direction's rim, n² in all.
pub(crate) const FACE_WORK: usize = 4_000_000;

/// A box's volume and the frame it was taken in.
type FramedBox = (f64, Matrix3<f64>);

/// The `keep` smallest boxes (volume and frame, ascending) among the
/// `extra` frames and, for every distinct hull face direction (up to
/// [`MAX_DIRECTIONS`]), the box flush with that face whose base is the
/// exact minimum-area rectangle of the projection (steps 1 and 2 of
/// [`tight_frame`]), given the hull's `rims` (which the caller may need
/// too). Flat hulls use their principal plane's normal.
///
/// Pruned without changing the outcome: the flush box of a probe subset of
/// the vertices (see `probe_set`) is a lower bound of the direction's box
/// volume (lower height, smaller min rectangle), so directions are
/// evaluated in increasing bound order, in batches, until the bound of the
/// next one exceeds the `keep`-th best volume found.
///
/// `None` once the rims of the directions evaluated exactly hold more than
/// [`FACE_WORK`] vertices in all; [`Stopped`] once `stop` is set, checked
/// before each batch.
pub(crate) fn face_frames(
    hull: &ConvexHull,
    rims: &Rims,
    extra: &[Matrix3<f64>],
    keep: usize,
    stop: Stop<'_>,
) -> Result<Option<Vec<FramedBox>>, Stopped> {
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
    let usable = |c: &(f64, Matrix3<f64>)| c.0.is_finite() && c.1.iter().all(|x| x.is_finite());
    let mut cands: Vec<(f64, Matrix3<f64>)> = extra
        .iter()
        .map(|m| (box_volume(m, pts), *m))
        .filter(usable)
        .collect();
    let keep_best = |cands: &mut Vec<(f64, Matrix3<f64>)>| {
        cands.sort_by(|a, b| a.0.total_cmp(&b.0));
        cands.truncate(keep);
    };
    if hull.dimension == 3 {
        let probe = probe_set(pts);
        let mut order: Vec<(f64, &Vector3<f64>)> = dirs
            .par_iter()
            .map_init(Vec::new, |flat, n| {
                (flush_frame(n, &probe, probe.iter(), flat).0, n)
            })
            .collect();
        // NaN bounds (degenerate probes) sort last.
        order.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut work = 0;
        for batch in order.chunks(BATCH) {
            stop.check()?;
            keep_best(&mut cands);
            // The slack absorbs rounding in the bound's evaluation.
            let cut = match cands.get(keep - 1) {
                Some(c) => c.0 * (1.0 + 1e-9),
                None => f64::INFINITY,
            };
            if batch[0].0 > cut {
                break;
            }
            let exact: Vec<((f64, Matrix3<f64>), usize)> = batch
                .par_iter()
                .filter(|(bound, _)| bound.is_nan() || *bound <= cut)
                .map_init(
                    || (RimScratch::default(), Vec::new()),
                    |(scratch, flat), (_, n)| {
                        rims.rim(hull, n, scratch);
                        let rim = scratch.out.len();
                        (flush_frame(n, pts, scratch.out.iter().copied(), flat), rim)
                    },
                )
                .collect();
            work += exact.iter().map(|e| e.1).sum::<usize>();
            if work > FACE_WORK {
                return Ok(None);
            }
            cands.extend(exact.into_iter().map(|e| e.0).filter(usable));
        }
    } else {
        cands.extend(
            dirs.iter()
                .map(|n| flush_frame(n, pts, pts.iter(), &mut Vec::new()))
                .filter(usable),
        );
    }
    keep_best(&mut cands);
    Ok(Some(cands))
}

#[cfg(test)]
mod tests {
    use super::{GRAZING, RimScratch, Rims};
    use crate::fit::ConvexHull;
    use nalgebra::{Point3, Vector3};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The rim found through the cells is the rim of every edge tested:
    /// on round, boxy and flat-sided hulls, along their face normals (the
    /// face step's directions, many of them grazing other faces) and along
    /// random directions.
    #[test]
    fn cells_find_every_rim_vertex() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..60 {
            let n = [8, 40, 300, 2000][case % 4];
            let pts: Vec<Point3<f64>> = (0..n)
                .map(|_| {
                    let v = Vector3::new(
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                    );
                    // Round (on a sphere), boxy (snapped to a lattice) or raw.
                    match case % 3 {
                        0 => Point3::from(v.normalize()),
                        1 => Point3::from(v.map(|x: f64| (x * 3.0).round() / 3.0)),
                        _ => Point3::from(v),
                    }
                })
                .collect();
            let hull = ConvexHull::new(&pts).unwrap();
            if hull.dimension < 3 {
                continue;
            }
            let rims = Rims::new(&hull);
            let mut dirs: Vec<Vector3<f64>> = rims
                .normals
                .iter()
                .filter(|w| **w != Vector3::zeros())
                .copied()
                .collect();
            dirs.extend((0..50).map(|_| {
                Vector3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                )
                .normalize()
            }));
            let mut scratch = RimScratch::default();
            for d in &dirs {
                rims.rim(&hull, d, &mut scratch);
                let mut got: Vec<[u64; 3]> = scratch.out.iter().map(|p| key(p)).collect();
                got.sort_unstable();
                let side = |f: u32| {
                    let c = rims.normals[f as usize].dot(d);
                    u8::from(c > -GRAZING) | (u8::from(c < GRAZING) << 1)
                };
                let mut want: Vec<[u64; 3]> = rims
                    .edges
                    .iter()
                    .filter(|&&[_, _, f, g]| side(f) | side(g) == 3)
                    .flat_map(|&[a, b, ..]| [a, b])
                    .chain(rims.loose.iter().copied())
                    .map(|v| key(&hull.vertices[v as usize]))
                    .collect();
                want.sort_unstable();
                want.dedup();
                assert_eq!(got, want, "case {case}, direction {d:?}");
            }
        }
    }

    fn key(p: &Point3<f64>) -> [u64; 3] {
        [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]
    }
}
