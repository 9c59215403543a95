//! `bvtool collide --to` / `--path`: the first contact of B moving along a
//! path of poses relative to A ([`crate::query::motion`]), as a document.

use super::collide::{BuildMs, PairJson, Side, SideJson};
use crate::error::Result;
use crate::mesh::xyz;
use crate::pose::{Pose, PoseJson};
use crate::query::motion::{ImpactOptions, LeastOptions, Status, Sweep};
use serde::Serialize;

/// The answer of [`run`]: `bvtool collide --to/--path --json`.
#[derive(Debug, Serialize)]
pub struct MotionDoc {
    /// Mesh A (at identity).
    pub a: SideJson,
    /// Mesh B (moving).
    pub b: SideJson,
    /// Tree build times.
    pub build_ms: BuildMs,
    /// `"motion"`.
    pub mode: &'static str,
    /// `"hit"`, `"free"` or `"undecided"` ([`Status`]).
    pub status: &'static str,
    /// Whether a contact (or, with a clearance, a pair within it) was found.
    pub hit: bool,
    /// Segments in the path (poses − 1).
    pub segments: usize,
    /// The segment the answer ends on, from 0 (the last when free).
    pub segment: usize,
    /// On a hit: the time of the contact in the segment, in [0, 1].
    pub t: Option<f64>,
    /// On a hit: B's pose at `t`.
    pub pose: Option<PoseJson>,
    /// On a hit: the meeting (or closest, with a clearance) triangles, named
    /// as the files name them, and their distance at `t`.
    pub pair: Option<PairJson>,
    /// On a hit: the witness point on A, in A's frame.
    pub point_a: Option<[f64; 3]>,
    /// On a hit: the witness point on B at `t`, in A's frame.
    pub point_b: Option<[f64; 3]>,
    /// Certified: no contact on the segment for `t` in `[0, free_until)`
    /// (every earlier segment free); 1 when free.
    pub free_until: f64,
    /// The tolerance δ on `t`: on a hit, `t − tol ≤ free_until ≤ t`.
    pub tol: f64,
    /// The clearance asked (model units; 0: contact).
    pub clearance: f64,
    /// Exact distance queries made, over the whole path.
    pub distance_calls: u64,
    /// The limit on them.
    pub max_distance_calls: u64,
    /// The relative tolerance of each sample's distance query
    /// ([`ImpactOptions::rel_err`]; the certificate does not depend on it).
    pub rel_err: f64,
    /// B's radius about its origin (model units), for the speed bound.
    pub radius: f64,
    /// Wall time of the query, milliseconds.
    pub query_ms: f64,
    /// With `--least-distance`: the least distance over the whole path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub least: Option<LeastJson>,
}

/// The least distance over a path ([`Sweep::least_distance`]): the least
/// distance over the exact motion lies in `[lower, distance +
/// rounding_bound]`; when `certified`, `distance − lower ≤ rel_tol ·
/// distance`.
#[derive(Debug, Serialize)]
pub struct LeastJson {
    /// The least distance found, reached at `segment`, `t` (model units).
    pub distance: f64,
    /// A certified lower bound on the least distance over the path.
    pub lower: f64,
    /// Whether `distance − lower` is within the tolerance (false when the
    /// call limit ended the search first).
    pub certified: bool,
    /// The segment where it is reached, from 0.
    pub segment: usize,
    /// Its time in the segment, in [0, 1].
    pub t: f64,
    /// B's pose there.
    pub pose: PoseJson,
    /// The closest triangles, named as the files name them, and their
    /// distance.
    pub pair: PairJson,
    /// The closest point on A, in A's frame.
    pub point_a: [f64; 3],
    /// The closest point on B at `pose`, in A's frame.
    pub point_b: [f64; 3],
    /// Rounding of `distance` (model units).
    pub rounding_bound: f64,
    /// The relative tolerance asked.
    pub rel_tol: f64,
    /// Distance queries made for it.
    pub distance_calls: u64,
    /// Wall time of the search, milliseconds.
    pub query_ms: f64,
}

/// The first contact along the path through `poses` (at least 2) and,
/// with `least`, the least distance over it.
///
/// # Errors
/// Fewer than 2 poses, an option out of range.
pub fn run(
    a: &Side,
    b: &Side,
    poses: &[Pose],
    opts: &ImpactOptions,
    least: Option<&LeastOptions>,
) -> Result<MotionDoc> {
    let mut sweep = Sweep::new(&a.tree, &b.tree);
    let start = std::time::Instant::now();
    let got = sweep.path(poses, opts)?;
    let query_ms = start.elapsed().as_secs_f64() * 1e3;
    let impact = got.impact;
    let c = impact.contact;
    let source = |side: &Side, k: u32| side.mesh.sources[side.stacks.copies(k)[0] as usize];
    let least = match least {
        Some(o) => {
            let start = std::time::Instant::now();
            let l = sweep.least_distance(poses, o)?;
            Some(LeastJson {
                distance: l.distance,
                lower: l.lower,
                certified: l.certified,
                segment: l.segment,
                t: l.t,
                pose: l.pose.to_json(),
                pair: PairJson {
                    a: source(a, l.triangles.0),
                    b: source(b, l.triangles.1),
                    distance: Some(l.distance),
                    contact: None,
                },
                point_a: xyz(&l.point_a),
                point_b: xyz(&l.point_b),
                rounding_bound: l.rounding_bound,
                rel_tol: o.rel_tol,
                distance_calls: l.distance_calls,
                query_ms: start.elapsed().as_secs_f64() * 1e3,
            })
        }
        None => None,
    };
    Ok(MotionDoc {
        a: a.summary(),
        b: b.summary(),
        build_ms: BuildMs::of(a, b),
        mode: "motion",
        status: match impact.status {
            Status::Hit => "hit",
            Status::Free => "free",
            Status::Undecided => "undecided",
        },
        hit: impact.status == Status::Hit,
        segments: poses.len() - 1,
        segment: got.segment,
        t: c.map(|c| c.t),
        pose: c.map(|c| c.pose.to_json()),
        pair: c.map(|c| PairJson {
            a: source(a, c.triangles.0),
            b: source(b, c.triangles.1),
            distance: Some(c.distance),
            contact: None,
        }),
        point_a: c.map(|c| xyz(&c.point_a)),
        point_b: c.map(|c| xyz(&c.point_b)),
        free_until: impact.free_until,
        tol: impact.tol,
        clearance: opts.clearance,
        distance_calls: impact.distance_calls,
        max_distance_calls: opts.max_distance_calls,
        rel_err: opts.rel_err,
        radius: sweep.radius(),
        query_ms,
        least,
    })
}
