//! The least distance over a path, certified by branch and bound on the
//! distance's Lipschitz bound in `t`.

use super::advance::Sweep;
use super::interpolate::Motion;
use crate::error::{Error, Result};
use crate::pose::Pose;
use crate::query::distance::{DistanceOptions, distance_with};
use nalgebra::Point3;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What [`Sweep::least_distance`] asks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeastOptions {
    /// Absolute tolerance (model units, ≥ 0).
    pub tol: f64,
    /// Relative tolerance (in [0, 1)): the answer is certified once the
    /// least distance over the path is proven within
    /// `max(tol, rel_tol·distance)` of the distance found. Default 10⁻³.
    pub rel_tol: f64,
    /// The most distance queries the answer may make (≥ 1); when they are
    /// spent the answer is not certified, but its bounds hold. Default 10⁵.
    pub max_distance_calls: u64,
}

impl Default for LeastOptions {
    fn default() -> Self {
        LeastOptions {
            tol: 0.0,
            rel_tol: 1e-3,
            max_distance_calls: super::DEFAULT_MAX_DISTANCE_CALLS,
        }
    }
}

impl LeastOptions {
    /// An error naming the first option out of its range.
    pub fn check(&self) -> Result<()> {
        if !(self.tol.is_finite() && self.tol >= 0.0) {
            return Err(Error::Input(format!(
                "distance tolerance {} is not a finite number ≥ 0",
                self.tol
            )));
        }
        if !(self.rel_tol.is_finite() && (0.0..1.0).contains(&self.rel_tol)) {
            return Err(Error::Input(format!(
                "relative distance tolerance {} is not in [0, 1)",
                self.rel_tol
            )));
        }
        if self.tol == 0.0 && self.rel_tol == 0.0 {
            return Err(Error::Input(
                "the least distance needs a tolerance: an absolute or a relative one above 0"
                    .into(),
            ));
        }
        if self.max_distance_calls == 0 {
            return Err(Error::Input(
                "the distance-call limit must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// The answer of [`Sweep::least_distance`].
///
/// # Certificate
/// The least distance between A and B over the whole path (the exact
/// motion, every `t` of every segment) lies in
/// `[lower, distance + rounding_bound]`; when `certified`, `distance −
/// lower ≤ max(tol, rel_tol·distance)`. `distance` is attained: it is the
/// distance between `point_a` and `point_b`, the closest points of
/// `triangles` with B at `pose`, a pose of the path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeastDistance {
    /// The least distance found (model units; 0 when B meets A).
    pub distance: f64,
    /// A certified lower bound on the least distance over the path.
    pub lower: f64,
    /// Whether `distance − lower` is within the tolerance (false when the
    /// call limit ended the search first).
    pub certified: bool,
    /// The segment of the closest configuration (from 0: poses `segment`
    /// and `segment + 1`).
    pub segment: usize,
    /// Its time in the segment, in [0, 1].
    pub t: f64,
    /// B's pose there.
    pub pose: Pose,
    /// The closest triangles `(A's, B's)`.
    pub triangles: (u32, u32),
    /// The closest point on A, in A's frame.
    pub point_a: Point3<f64>,
    /// The closest point on B placed at `pose`, in A's frame.
    pub point_b: Point3<f64>,
    /// Rounding of `distance` (model units): the distance query's bound
    /// plus the margin between the `f64` pose and the exact motion.
    pub rounding_bound: f64,
    /// Distance queries made.
    pub distance_calls: u64,
}

/// An interval `(u, w)` of one segment, with certified lower bounds on the
/// distance at its ends and its own lower bound.
#[derive(Clone, Copy, Debug)]
struct Interval {
    lower: f64,
    segment: usize,
    u: f64,
    w: f64,
    low_u: f64,
    low_w: f64,
}

impl PartialEq for Interval {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Interval {}
impl PartialOrd for Interval {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Interval {
    /// The smallest lower bound first (a max-heap of reversed order).
    fn cmp(&self, other: &Self) -> Ordering {
        other.lower.total_cmp(&self.lower)
    }
}

/// One segment: its motion, speed bound and rounding margin.
struct Segment {
    motion: Motion,
    speed: f64,
    margin: f64,
}

impl Sweep<'_> {
    /// The least distance between A and B while B moves along the
    /// piecewise motion through `poses` (each consecutive pair a
    /// [`Motion`]), by branch and bound in `t`: on a segment no point of B
    /// moves faster than `M` ([`Motion::speed_bound`]), so the distance is
    /// `M`-Lipschitz in `t`, and an interval `(u, w)` whose ends are at
    /// least `ℓu` and `ℓw` from A holds nothing closer than
    /// `(ℓu + ℓw − M·(w − u))/2`. The interval of the least such bound is
    /// split at its midpoint (one distance query, tolerances a quarter of
    /// the answer's) until that bound is within the tolerance of the least
    /// distance found, or the call limit is reached. See
    /// [`LeastDistance`] for the certificate. The work grows where the
    /// distance stays near its least value over a long stretch (a slide at
    /// constant gap): about `M·ℓ/(2·tol)` queries for a stretch of length
    /// `ℓ`, bounded by `max_distance_calls`.
    ///
    /// # Errors
    /// Fewer than two poses, an option out of range, a tree without
    /// triangles, or a segment whose speed bound is not finite.
    pub fn least_distance(&mut self, poses: &[Pose], opts: &LeastOptions) -> Result<LeastDistance> {
        opts.check()?;
        super::path::at_least_two(poses)?;
        if self.a.nodes.is_empty() || self.b.nodes.is_empty() {
            return Err(Error::Input(
                "a mesh without triangles has no least distance".into(),
            ));
        }
        let mut segments = Vec::with_capacity(poses.len() - 1);
        for pair in poses.windows(2) {
            let motion = Motion::new(pair[0], pair[1]);
            let speed = self.speed(&motion)?;
            let margin = self.margin(&motion);
            segments.push(Segment {
                motion,
                speed,
                margin,
            });
        }
        let query = DistanceOptions {
            rel_err: opts.rel_tol / 4.0,
            abs_err: opts.tol / 4.0,
        };
        let mut search = Least {
            sweep: self,
            query,
            best: None,
            calls: 0,
        };
        let mut heap = BinaryHeap::new();
        let mut low_start = search.sample(&segments[0], 0, 0.0);
        for (k, seg) in segments.iter().enumerate() {
            let low_end = search.sample(seg, k, 1.0);
            heap.push(interval(seg, k, 0.0, 1.0, low_start, low_end));
            low_start = low_end;
        }
        // Intervals that cannot be split further (adjacent floats).
        let mut unsplit = f64::INFINITY;
        let (lower, certified) = loop {
            let best = search.best.as_ref().expect("sampled").distance;
            let top = heap.peek().map_or(f64::INFINITY, |i| i.lower);
            let lower = top.min(unsplit).min(best).max(0.0);
            if best == 0.0 || lower >= best - opts.tol.max(opts.rel_tol * best) {
                break (lower, true);
            }
            if search.calls >= opts.max_distance_calls || unsplit <= top {
                break (lower, false);
            }
            let i = heap.pop().expect("the top bound is finite");
            let m = i.u + 0.5 * (i.w - i.u);
            if !(i.u < m && m < i.w) {
                unsplit = unsplit.min(i.lower);
                continue;
            }
            let seg = &segments[i.segment];
            let low_m = search.sample(seg, i.segment, m);
            heap.push(interval(seg, i.segment, i.u, m, i.low_u, low_m));
            heap.push(interval(seg, i.segment, m, i.w, low_m, i.low_w));
        };
        let mut answer = search.best.expect("sampled");
        answer.lower = lower.min(answer.distance);
        answer.certified = certified;
        answer.distance_calls = search.calls;
        Ok(answer)
    }
}

/// The interval `(u, w)` of segment `k` with its Lipschitz lower bound.
fn interval(seg: &Segment, k: usize, u: f64, w: f64, low_u: f64, low_w: f64) -> Interval {
    // The average of the two cones' lines is constant on (u, w), and their
    // maximum is at least their average; `w − u` is rounded up by 4ε.
    let span = (w - u) * (1.0 + 4.0 * f64::EPSILON) + 4.0 * f64::EPSILON;
    Interval {
        lower: (0.5 * (low_u + low_w - seg.speed * span)) * (1.0 - 4.0 * f64::EPSILON),
        segment: k,
        u,
        w,
        low_u,
        low_w,
    }
}

/// One query's state: the closest configuration sampled so far.
struct Least<'s, 't> {
    sweep: &'s mut Sweep<'t>,
    query: DistanceOptions,
    best: Option<LeastDistance>,
    calls: u64,
}

impl Least<'_, '_> {
    /// The distance at time `t` of segment `k`: keeps the closest
    /// configuration and returns a certified lower bound on the distance
    /// at `t` of the exact motion.
    fn sample(&mut self, seg: &Segment, k: usize, t: f64) -> f64 {
        self.calls += 1;
        let pose = seg.motion.pose_at(t);
        let sweep = &mut *self.sweep;
        let d = distance_with(&mut sweep.scratch, sweep.a, sweep.b, &pose, &self.query)
            .expect("both trees have triangles");
        let distance = if d.intersecting { 0.0 } else { d.distance };
        if self.best.as_ref().is_none_or(|b| distance < b.distance) {
            self.best = Some(LeastDistance {
                distance,
                lower: 0.0,
                certified: false,
                segment: k,
                t,
                pose,
                triangles: d.triangles,
                point_a: d.point_a,
                point_b: d.point_b,
                rounding_bound: d.rounding_bound + seg.margin,
                distance_calls: 0,
            });
        }
        if d.intersecting {
            return 0.0;
        }
        // d̂ ≤ (1 + ρ)·d + α up to the rounding bound: the true distance is
        // at least (d̂ − rb − α)/(1 + ρ) − rb, less the pose margin.
        let q = &self.query;
        (d.distance - d.rounding_bound - q.abs_err) / (1.0 + q.rel_err) * (1.0 - 4.0 * f64::EPSILON)
            - d.rounding_bound
            - seg.margin
    }
}
