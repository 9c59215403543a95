//! Conservative advancement along one motion segment, with the exact tree
//! distance as the base case.

use super::interpolate::Motion;
use super::swept::{BOX_TEST_BUDGET, SweptScratch, SweptTest};
use crate::error::{Error, Result};
use crate::pose::Pose;
use crate::query::distance::{DistanceOptions, DistanceScratch, distance_with};
use crate::tree::ObbTree;
use nalgebra::Point3;
use std::collections::VecDeque;

/// What [`Sweep::time_of_impact`] asks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImpactOptions {
    /// δ, the tolerance on the reported time, in the motion's parameter
    /// `t` (absolute, in [1e-12, 1]): a reported contact at `t` has no
    /// contact before `t − δ`. Default 1e-6.
    pub tol: f64,
    /// `D` (model units, ≥ 0): the question is the first time B comes
    /// within `D` of A (0, the default: the first time they touch).
    pub clearance: f64,
    /// The most exact distance queries one answer may make (≥ 1); when
    /// they are spent the answer is [`Status::Undecided`]. Default 10⁵.
    pub max_distance_calls: u64,
    /// The relative tolerance each sample's distance query may use
    /// ([`DistanceOptions::rel_err`], in [0, 100]): a sample then proves
    /// only `d̂/(1 + rel_err)`, so steps are shorter, but each query prunes
    /// more. A sample that proves nothing this way is asked again exactly.
    /// Default 0.5 ([`DEFAULT_REL_ERR`]).
    pub rel_err: f64,
}

/// [`ImpactOptions::tol`]'s default.
pub const DEFAULT_TOL: f64 = 1e-6;
/// [`ImpactOptions::max_distance_calls`]'s default.
pub const DEFAULT_MAX_DISTANCE_CALLS: u64 = 100_000;
/// [`ImpactOptions::rel_err`]'s default: on five corpus pairs × 1,000
/// random motions (`benches/motion.py --pairs all`), 0.5 gives medians of
/// 23–60 µs a motion where exact distances (0) take 318–2,342 µs. Among
/// 0.25, 0.5 and 1 (three pairs × 100 motions), 0.5 and 1 gave about the
/// least medians and 0.25 the least mean.
pub const DEFAULT_REL_ERR: f64 = 0.5;

impl Default for ImpactOptions {
    fn default() -> Self {
        ImpactOptions {
            tol: DEFAULT_TOL,
            clearance: 0.0,
            max_distance_calls: DEFAULT_MAX_DISTANCE_CALLS,
            rel_err: DEFAULT_REL_ERR,
        }
    }
}

impl ImpactOptions {
    /// An error naming the first option out of its range.
    pub fn check(&self) -> Result<()> {
        if !(self.tol.is_finite() && (1e-12..=1.0).contains(&self.tol)) {
            return Err(Error::Input(format!(
                "tolerance {} is not in [1e-12, 1] (a fraction of the motion)",
                self.tol
            )));
        }
        if !(self.clearance.is_finite() && self.clearance >= 0.0) {
            return Err(Error::Input(format!(
                "clearance {} is not a finite number ≥ 0",
                self.clearance
            )));
        }
        if !(self.rel_err.is_finite() && (0.0..=100.0).contains(&self.rel_err)) {
            return Err(Error::Input(format!(
                "relative tolerance {} is not in [0, 100]",
                self.rel_err
            )));
        }
        if self.max_distance_calls == 0 {
            return Err(Error::Input(
                "the distance-call limit must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// How an answer ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// B meets A (or comes within the clearance) at [`Contact::t`], and
    /// not before [`Impact::free_until`] (≥ `t − tol`).
    Hit,
    /// No contact anywhere on the motion, `t` in [0, 1].
    Free,
    /// The work limit was reached, or a sample came within the rounding
    /// margin of touching without touching: no contact before
    /// [`Impact::free_until`], nothing claimed after it.
    Undecided,
}

/// A contact found at one time of the motion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The time, in [0, 1] (the segment's parameter).
    pub t: f64,
    /// B's pose at `t` ([`Motion::pose_at`]).
    pub pose: Pose,
    /// The meeting (or closest) triangles `(A's, B's)`, indices into the
    /// meshes the trees were built from.
    pub triangles: (u32, u32),
    /// The witness point on A's triangle, in A's frame.
    pub point_a: Point3<f64>,
    /// The witness point on B's triangle placed at `t`, in A's frame
    /// (equal to `point_a` up to rounding when they meet).
    pub point_b: Point3<f64>,
    /// The distance at `t` (0 when they meet; at most the clearance).
    pub distance: f64,
}

/// The answer of [`Sweep::time_of_impact`].
///
/// # Certificate
/// With `δ = tol`: no contact at any `t` in `[0, free_until)` (for the
/// exact motion; see `docs/algorithms.md` for the margin that covers the
/// `f64` poses and distances); on [`Status::Hit`], the exact `collide`
/// (or, with a clearance, the distance query) says contact at
/// [`Contact::t`], and `t − δ ≤ free_until ≤ t`, so the first contact
/// lies in `[t − δ, t]`; on [`Status::Free`], `free_until` is 1 and there
/// is no contact on all of [0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// Hit, free or undecided.
    pub status: Status,
    /// No contact on `[0, free_until)`.
    pub free_until: f64,
    /// On [`Status::Hit`], the contact.
    pub contact: Option<Contact>,
    /// Exact distance queries made.
    pub distance_calls: u64,
    /// The tolerance δ asked.
    pub tol: f64,
}

/// Trees A and B ready for motion queries: B's radius about its origin
/// (the largest `|v|` of its vertices, in B's frame: [`ObbTree::radius`],
/// computed once a tree), and the queues reused by every query.
#[derive(Debug)]
pub struct Sweep<'t> {
    pub(super) a: &'t ObbTree,
    pub(super) b: &'t ObbTree,
    radius: f64,
    pub(super) scratch: DistanceScratch,
    swept: SweptScratch,
}

/// The first time B, moving by `motion` relative to A, meets A (or comes
/// within `opts.clearance`): [`Sweep::time_of_impact`] with a sweep made
/// for this one query.
///
/// ```
/// use bvtool::query::motion::{Motion, ImpactOptions, Status, time_of_impact};
/// use bvtool::tree::ObbTree;
/// use bvtool::{Pose, load};
/// use nalgebra::{UnitQuaternion, Vector3};
///
/// let mesh = load::load("models/torus.obj".as_ref(), &Default::default())?.flatten();
/// let tree = ObbTree::build_default(&mesh, Default::default());
/// // The torus (R = 1, r = 0.35) moved from x = 4 to x = 0 first touches
/// // itself at x = 2.7: t = (4 − 2.7) / 4 = 0.325.
/// let at = |x| Pose::new(Vector3::new(x, 0.0, 0.0), UnitQuaternion::identity());
/// let motion = Motion::new(at(4.0), at(0.0));
/// let hit = time_of_impact(&tree, &tree, &motion, &ImpactOptions::default())?;
/// assert_eq!(hit.status, Status::Hit);
/// let t = hit.contact.unwrap().t;
/// assert!(hit.free_until >= t - 1e-6 && (t - 0.325).abs() < 1e-3);
/// # Ok::<(), bvtool::Error>(())
/// ```
pub fn time_of_impact(
    a: &ObbTree,
    b: &ObbTree,
    motion: &Motion,
    opts: &ImpactOptions,
) -> Result<Impact> {
    Sweep::new(a, b).time_of_impact(motion, opts)
}

impl<'t> Sweep<'t> {
    /// A at identity, B moving.
    pub fn new(a: &'t ObbTree, b: &'t ObbTree) -> Sweep<'t> {
        Sweep {
            a,
            b,
            radius: b.radius(),
            scratch: DistanceScratch::default(),
            swept: SweptScratch::default(),
        }
    }

    /// B's radius about its own origin: the largest distance of its
    /// vertices from it (B's frame, model units, rounded up).
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The first time B, moving by `motion` relative to A, meets A (or
    /// comes within `opts.clearance`), by conservative advancement: at a
    /// time `s` where the exact distance is `d`, no point of B moves
    /// faster than `M = |T1 − T0| + θ·radius` ([`Motion::speed_bound`]),
    /// so nothing meets on `(s − r, s + r)` with `r = (d − D − margin)/M`.
    /// The search advances from 0 by such steps, and between them tries to
    /// certify a whole interval ahead at once with per-node motion bounds
    /// (each node of B moves at most `|ΔT| + θ·ρ_node` per unit of `t`, `ρ_node`
    /// its own distance from the rotation axis: a swept test on the tree
    /// pair at the interval's middle, at most 16 box tests, the interval
    /// doubled after a success and quartered after a failure, starting with
    /// the whole motion, so that a motion far from A is certified without
    /// a distance query). Where a step falls below
    /// δ/2 it probes `s + δ` and splits what stays uncovered of
    /// `(s, s + δ]` at midpoints, widest first, until the window is
    /// covered or a sample meets (which is then within δ of the last
    /// certified time). See [`Impact`] for what the answer certifies, and
    /// `docs/algorithms.md` for the proof.
    ///
    /// # Errors
    /// An option out of range ([`ImpactOptions::check`]), or a motion
    /// whose speed bound is not finite.
    pub fn time_of_impact(&mut self, motion: &Motion, opts: &ImpactOptions) -> Result<Impact> {
        opts.check()?;
        self.advance(motion, opts, opts.max_distance_calls)
    }

    /// The speed bound of B on `motion` ([`Motion::speed_bound`] of B's
    /// radius); an error when it is not finite.
    pub(super) fn speed(&self, motion: &Motion) -> Result<f64> {
        let speed = motion.speed_bound(self.radius);
        if !speed.is_finite() {
            return Err(Error::Input(format!(
                "the motion's speed bound is not finite ({speed})"
            )));
        }
        Ok(speed)
    }

    /// The rounding margin taken off every distance sampled on `motion`
    /// (model units): each sampled pose is within a few ulps of the exact
    /// one, on coordinates of size radius + |T|; twice that, generously.
    pub(super) fn margin(&self, motion: &Motion) -> f64 {
        let t_max = motion
            .from
            .translation
            .norm()
            .max(motion.to.translation.norm());
        256.0 * f64::EPSILON * (self.radius + t_max)
    }

    /// [`Sweep::time_of_impact`] with at most `budget` distance calls
    /// (options checked by the caller).
    pub(super) fn advance(
        &mut self,
        motion: &Motion,
        opts: &ImpactOptions,
        budget: u64,
    ) -> Result<Impact> {
        let speed = self.speed(motion)?;
        let margin = self.margin(motion);
        let swept = SweptTest {
            motion,
            margin: margin + opts.clearance,
            budget: BOX_TEST_BUDGET,
        };
        let mut search = Search {
            sweep: self,
            motion,
            opts,
            speed,
            margin,
            swept,
            calls: 0,
            budget,
        };
        Ok(search.run())
    }
}

/// What one sample says.
enum Probe {
    /// Contact at the sample.
    Contact(Contact),
    /// No contact within this radius of the sample (in `t`); 0 when the
    /// sample is within the margin of touching without touching.
    Free(f64),
}

/// How a window ends.
enum Window {
    /// Covered up to this time, exclusive.
    Covered(f64),
    /// The answer.
    Done(Impact),
}

/// One query's state.
struct Search<'s, 't> {
    sweep: &'s mut Sweep<'t>,
    motion: &'s Motion,
    opts: &'s ImpactOptions,
    /// [`Motion::speed_bound`] of B's radius.
    speed: f64,
    /// The rounding margin taken off every distance (model units).
    margin: f64,
    /// The swept test with per-node bounds.
    swept: SweptTest<'s>,
    calls: u64,
    budget: u64,
}

impl Search<'_, '_> {
    fn run(&mut self) -> Impact {
        let sweep = &self.sweep;
        if sweep.a.nodes.is_empty() || sweep.b.nodes.is_empty() {
            return self.end(Status::Free, 1.0, None);
        }
        // Certified: no contact on [0, a).
        let mut a = 0.0_f64;
        // The interval the next swept test tries: the whole motion first,
        // doubled after a success, quartered after a failure, and never
        // less than what the last sample covered.
        let mut reach = 1.0_f64;
        while a <= 1.0 {
            if a < 1.0 && reach >= self.opts.tol {
                let w = (a + reach).min(1.0);
                let sweep = &mut *self.sweep;
                if self.swept.free(&mut sweep.swept, sweep.a, sweep.b, a, w) {
                    if w >= 1.0 {
                        return self.end(Status::Free, 1.0, None);
                    }
                    a = w;
                    reach *= 2.0;
                    continue;
                }
                reach *= 0.25;
            }
            if self.calls >= self.budget {
                return self.end(Status::Undecided, a, None);
            }
            let r = match self.probe(a) {
                Probe::Contact(c) => return self.end(Status::Hit, a, Some(c)),
                Probe::Free(0.0) => return self.end(Status::Undecided, a, None),
                Probe::Free(r) => r,
            };
            reach = reach.max(r);
            if 2.0 * r >= self.opts.tol || a + r > 1.0 {
                a += r;
                continue;
            }
            match self.window(a + r, (a + self.opts.tol).min(1.0)) {
                Window::Covered(next) => a = next,
                Window::Done(impact) => return impact,
            }
        }
        self.end(Status::Free, 1.0, None)
    }

    /// Resolves `(lo, hi]`, `hi − lo ≤ δ`, no contact before `lo`: a
    /// sample at `hi`, then midpoints of what stays uncovered, widest
    /// first, until a sample meets (within δ of the certified time) or
    /// nothing is left uncovered.
    fn window(&mut self, lo: f64, hi: f64) -> Window {
        if lo >= hi {
            // Only at the end of the motion: a step reached 1 exactly,
            // which the main loop samples next.
            return Window::Covered(lo);
        }
        if self.calls >= self.budget {
            return Window::Done(self.end(Status::Undecided, lo, None));
        }
        let rh = match self.probe(hi) {
            Probe::Contact(c) => return Window::Done(self.end(Status::Hit, lo, Some(c))),
            Probe::Free(0.0) => {
                return Window::Done(self.end(Status::Undecided, lo, None));
            }
            Probe::Free(r) => r,
        };
        let mut gaps = VecDeque::new();
        if hi - rh > lo {
            gaps.push_back((lo, hi - rh));
        }
        while let Some((u, w)) = gaps.pop_front() {
            let m = u + 0.5 * (w - u);
            let probe = if u < m && m < w && self.calls < self.budget {
                self.probe(m)
            } else {
                Probe::Free(0.0)
            };
            let r = match probe {
                Probe::Free(r) if r > 0.0 => r,
                other => {
                    // The answer ends here: certified up to the leftmost
                    // point still uncovered.
                    let left = gaps.iter().fold(u, |x, g| x.min(g.0));
                    return Window::Done(match other {
                        Probe::Contact(c) => self.end(Status::Hit, left, Some(c)),
                        Probe::Free(_) => self.end(Status::Undecided, left, None),
                    });
                }
            };
            if m - r > u {
                gaps.push_back((u, m - r));
            }
            if w > m + r {
                gaps.push_back((m + r, w));
            }
        }
        Window::Covered(hi + rh)
    }

    /// The distance at `t` (with `rel_err`, then exactly if that proves
    /// nothing): a contact, or the radius (in `t`) of the interval about
    /// `t` where none can be.
    fn probe(&mut self, t: f64) -> Probe {
        let pose = self.motion.pose_at(t);
        let rel_err = self.opts.rel_err;
        match self.sample(&pose, t, rel_err) {
            Probe::Free(r) if r == 0.0 && rel_err > 0.0 && self.calls < self.budget => {
                self.sample(&pose, t, 0.0)
            }
            answer => answer,
        }
    }

    /// One distance query at `pose` (time `t`) with relative tolerance
    /// `rel_err`.
    fn sample(&mut self, pose: &Pose, t: f64, rel_err: f64) -> Probe {
        self.calls += 1;
        let sweep = &mut *self.sweep;
        let opts = DistanceOptions {
            rel_err,
            abs_err: 0.0,
        };
        let d = distance_with(&mut sweep.scratch, sweep.a, sweep.b, pose, &opts)
            .expect("both trees have triangles");
        let clearance = self.opts.clearance;
        let met = d.intersecting || (clearance > 0.0 && d.distance <= clearance);
        if met {
            return Probe::Contact(Contact {
                t,
                pose: *pose,
                triangles: d.triangles,
                point_a: d.point_a,
                point_b: d.point_b,
                distance: d.distance,
            });
        }
        // The true distance is at least (d̂ − rb)/(1 + rel_err) − rb.
        let low = (d.distance - d.rounding_bound) / (1.0 + rel_err) * (1.0 - 4.0 * f64::EPSILON)
            - d.rounding_bound;
        let room = low - self.margin - clearance;
        if room <= 0.0 {
            return Probe::Free(0.0);
        }
        // A radius in t, less an absolute 4ε for the rounding of `t ± r`
        // (every t is in [0, 2]).
        let r = if self.speed > 0.0 {
            room / self.speed * (1.0 - 4.0 * f64::EPSILON) - 4.0 * f64::EPSILON
        } else {
            f64::INFINITY
        };
        Probe::Free(r.max(0.0))
    }

    fn end(&self, status: Status, free_until: f64, contact: Option<Contact>) -> Impact {
        Impact {
            status,
            free_until: free_until.min(1.0),
            contact,
            distance_calls: self.calls,
            tol: self.opts.tol,
        }
    }
}
