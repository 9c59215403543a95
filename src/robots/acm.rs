//! Allowed-collision-matrix generation, the MoveIt Setup Assistant's job:
//! every pair of links with geometry gets MoveIt's reason to disable it —
//! `Adjacent`, `Default` (colliding at the default configuration),
//! `Always` (colliding in at least a fraction of random configurations),
//! `Never` (not once in the samples) — or none (it collides sometimes and
//! stays tested), with the counts each rests on and the least distance the
//! pair came to over the samples.
//!
//! Sample `i` is drawn from the seed and `i` alone (SplitMix64 outputs
//! `i·dof + 1 …`), so the matrix is the same for the same seed whatever the
//! number of threads; samples are tallied on the worker pool, each worker
//! keeping one running count and minimum per pair, and all of them sharing
//! per pair the least distance measured so far, the threshold of their
//! clearance queries (memory does not grow with the samples).

use super::Robot;
use super::adjacency::Adjacency;
use super::check::Balls;
use crate::error::{Error, Result};
use crate::pose::Pose;
use crate::query::{ContactMode, DistanceOptions, DistanceScratch, distance_with, within_each};
use nalgebra::Isometry3;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The most samples one matrix may rest on (MoveIt's cap, 10^8).
pub const MAX_ACM_SAMPLES: u64 = 100_000_000;

/// How to generate an allowed-collision matrix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AcmOptions {
    /// Random configurations sampled (MoveIt's default 10,000).
    pub samples: u64,
    /// The seed of the samples.
    pub seed: u64,
    /// A pair colliding in at least this fraction of the samples is
    /// `Always` (in (0, 1]; MoveIt's default 0.95).
    pub always_fraction: f64,
    /// Whether to keep each pair's least distance over the samples (the
    /// clearance query at the running minimum per non-colliding sample).
    pub min_distance: bool,
}

impl Default for AcmOptions {
    fn default() -> Self {
        AcmOptions {
            samples: 10_000,
            seed: 0,
            always_fraction: 0.95,
            min_distance: true,
        }
    }
}

/// Why a link pair is disabled, as MoveIt writes it (first that applies,
/// in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AcmReason {
    /// The links are adjacent (`docs/robots.md`: one rigid body, or the two
    /// bodies one moving joint joins); not sampled.
    Adjacent,
    /// They collide at the default configuration
    /// ([`Robot::default_configuration`]).
    Default,
    /// They collide in at least the always-fraction of the samples.
    Always,
    /// They collide in none of the samples.
    Never,
}

impl AcmReason {
    /// The name MoveIt writes (`reason="Never"`).
    pub fn name(self) -> &'static str {
        match self {
            AcmReason::Adjacent => "Adjacent",
            AcmReason::Default => "Default",
            AcmReason::Always => "Always",
            AcmReason::Never => "Never",
        }
    }

    /// All four, in their order.
    pub const ALL: [AcmReason; 4] = [
        AcmReason::Adjacent,
        AcmReason::Default,
        AcmReason::Always,
        AcmReason::Never,
    ];
}

/// One link pair of the matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct AcmPair {
    /// The first link's name (the smaller of the two, byte order).
    pub link1: String,
    /// The second link's name.
    pub link2: String,
    /// Their indices in [`Robot::links`], in the names' order.
    pub links: (usize, usize),
    /// Why it is disabled; `None`: it collides sometimes and stays tested.
    pub reason: Option<AcmReason>,
    /// Whether it collides at the default configuration.
    pub default_collides: bool,
    /// Samples it was tested at (0 for an adjacent pair, else all).
    pub samples: u64,
    /// Samples at which it collided.
    pub collisions: u64,
    /// The least distance between the two links over the samples (0 when
    /// they collided; `inf` without samples, or when distances were not
    /// asked), length units.
    pub min_distance: f64,
    /// The first sample where `min_distance` is reached.
    pub min_sample: Option<u64>,
    /// The exact minimum over that sample's `f64` triangles is within this
    /// of `min_distance`.
    pub rounding_bound: f64,
}

/// An allowed-collision matrix ([`Robot::generate_acm`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Acm {
    /// The robot's name.
    pub robot: String,
    /// The options it was made with.
    pub options: AcmOptions,
    /// The default configuration: per actuated joint, 0 when within its
    /// limits (or without limits), else the middle of the limits.
    pub default_configuration: Vec<f64>,
    /// Every pair of links with geometry, sorted by (`link1`, `link2`).
    pub pairs: Vec<AcmPair>,
}

impl Acm {
    /// The pairs with `reason`.
    pub fn count(&self, reason: Option<AcmReason>) -> usize {
        self.pairs.iter().filter(|p| p.reason == reason).count()
    }

    /// The SRDF: one `<disable_collisions link1 link2 reason/>` per
    /// disabled pair, in the pairs' order, inside `<robot name>` (MoveIt's
    /// format; the same matrix gives the same bytes).
    pub fn srdf(&self) -> String {
        let o = &self.options;
        let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            s,
            "<!-- Allowed-collision matrix generated by bvtool {}: {} samples, seed {}, always fraction {}. -->",
            env!("CARGO_PKG_VERSION"),
            o.samples,
            o.seed,
            o.always_fraction
        );
        let _ = writeln!(s, "<robot name=\"{}\">", xml_escape(&self.robot));
        for p in &self.pairs {
            if let Some(r) = p.reason {
                let _ = writeln!(
                    s,
                    "    <disable_collisions link1=\"{}\" link2=\"{}\" reason=\"{}\"/>",
                    xml_escape(&p.link1),
                    xml_escape(&p.link2),
                    r.name()
                );
            }
        }
        s + "</robot>\n"
    }
}

/// `text` as an XML attribute value.
fn xml_escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "&#{};", c as u32);
            }
            c => s.push(c),
        }
    }
    s
}

/// Output `k` (from 1) of SplitMix64 seeded with `seed` (Steele, Lea and
/// Flood 2014; the generator of Java's `SplittableRandom`).
fn splitmix64(seed: u64, k: u64) -> u64 {
    let mut z = seed.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One pair's least distance measured so far by any worker (the `f64`'s
/// bits: non-negative doubles order as their bits do), the threshold of its
/// clearance queries. Every sample measured lowers it, so it never falls
/// below the pair's final minimum: a sample that could lower that is still
/// measured, and the answer does not depend on which worker saw what first.
struct Least(AtomicU64);

impl Default for Least {
    fn default() -> Self {
        Least(AtomicU64::new(f64::INFINITY.to_bits()))
    }
}

impl Least {
    fn get(&self) -> f64 {
        f64::from_bits(self.0.load(Ordering::Relaxed))
    }

    /// Lowers it to `d` (≥ 0) when less.
    fn lower(&self, d: f64) {
        // `+ 0.0` makes a −0 into +0, whose bits order first.
        self.0.fetch_min((d + 0.0).to_bits(), Ordering::Relaxed);
    }
}

/// One pair's tally over some samples.
#[derive(Clone, Copy, Debug)]
struct Tally {
    collisions: u64,
    min: f64,
    at: u64,
    bound: f64,
}

impl Tally {
    const EMPTY: Tally = Tally {
        collisions: 0,
        min: f64::INFINITY,
        at: u64::MAX,
        bound: 0.0,
    };

    /// Keeps the lesser minimum (the earlier sample on a tie).
    fn offer(&mut self, d: f64, at: u64, bound: f64) {
        if (d, at) < (self.min, self.at) {
            (self.min, self.at, self.bound) = (d, at, bound);
        }
    }

    fn merge(mut self, o: Tally) -> Tally {
        self.collisions += o.collisions;
        self.offer(o.min, o.at, o.bound);
        self
    }
}

impl Robot {
    /// The default configuration, MoveIt's: per actuated joint 0 when its
    /// limits hold 0 (or it has none), else the middle of its limits.
    pub fn default_configuration(&self) -> Vec<f64> {
        self.joint_limits()
            .into_iter()
            .map(|l| match l {
                Some((lo, hi)) if !(lo <= 0.0 && 0.0 <= hi) => 0.5 * (lo + hi),
                _ => 0.0,
            })
            .collect()
    }

    /// Random configuration `i` of `seed`: value `j` is `lo + u·(hi − lo)`
    /// over the joint's limits (`[−π, π]` for a continuous joint), with
    /// `u = (x >> 11) · 2^−53` and `x` the SplitMix64 output `i·dof + j + 1`
    /// of `seed`; written into `q`.
    pub fn sample_configuration(&self, limits: &[(f64, f64)], seed: u64, i: u64, q: &mut [f64]) {
        let first = i.wrapping_mul(self.dof as u64);
        for (j, (v, &(lo, hi))) in q.iter_mut().zip(limits).enumerate() {
            let u = (splitmix64(seed, first.wrapping_add(j as u64 + 1)) >> 11) as f64
                * (1.0 / (1u64 << 53) as f64);
            *v = lo + u * (hi - lo);
        }
    }

    /// The sampling range of each actuated joint: its limits, `[−π, π]`
    /// for a continuous joint.
    pub fn sampling_limits(&self) -> Vec<(f64, f64)> {
        self.joint_limits()
            .into_iter()
            .map(|l| l.unwrap_or((-std::f64::consts::PI, std::f64::consts::PI)))
            .collect()
    }

    /// The allowed-collision matrix of every pair of links with geometry
    /// (the SRDF given when reading is not consulted): `Adjacent` pairs by
    /// the adjacency rule, then per pair `Default` when it collides at
    /// [`Robot::default_configuration`], `Always` when it collides in at
    /// least `always_fraction` of `samples` configurations sampled
    /// uniformly within the joint limits ([`Robot::sample_configuration`]),
    /// `Never` when in none of them. `cancel`, when set, stops the work
    /// (an error).
    ///
    /// # Guarantees
    /// Every collision test is exact (as [`Robot::self_collision`]). The
    /// same robot, options and seed give the same matrix, counts and
    /// minima whatever the number of threads: sample `i` depends on the
    /// seed and `i` only; a pair's minimum is the least exact tree
    /// distance over the samples (a sample is measured when the clearance
    /// query at the running minimum finds triangles that close, which
    /// holds for every sample that could lower it), the earliest sample on
    /// a tie. `Never` is statistical: no collision in `samples` samples,
    /// not a proof that none exists.
    pub fn generate_acm(&self, opts: &AcmOptions, cancel: Option<&AtomicBool>) -> Result<Acm> {
        if opts.samples > MAX_ACM_SAMPLES {
            return Err(Error::Input(format!(
                "{} samples asked, at most {MAX_ACM_SAMPLES}",
                opts.samples
            )));
        }
        let f = opts.always_fraction;
        if !(f > 0.0 && f <= 1.0) {
            return Err(Error::Input(format!(
                "the always fraction is {f}, expected a number in (0, 1]"
            )));
        }
        let adjacency = Adjacency::new(self.links.len(), &self.joints, &self.order);
        let mut all: Vec<(usize, usize)> = Vec::new();
        let with_shapes: Vec<usize> = (0..self.links.len())
            .filter(|&l| !self.links[l].shapes.is_empty())
            .collect();
        for (k, &a) in with_shapes.iter().enumerate() {
            for &b in &with_shapes[k + 1..] {
                let (a, b) = if self.links[a].name <= self.links[b].name {
                    (a, b)
                } else {
                    (b, a)
                };
                all.push((a, b));
            }
        }
        all.sort_by(|x, y| {
            let n = |l: usize| self.links[l].name.as_str();
            (n(x.0), n(x.1)).cmp(&(n(y.0), n(y.1)))
        });
        let sampled: Vec<(usize, usize)> = all
            .iter()
            .copied()
            .filter(|&(a, b)| !adjacency.adjacent(a, b))
            .collect();
        let default_configuration = self.default_configuration();
        let default_poses = self.link_poses(&default_configuration);
        let default_balls = Balls::new(self, &default_poses);
        let limits = self.sampling_limits();
        let stopped = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        let least: Vec<Least> = sampled.iter().map(|_| Least::default()).collect();
        let tallies = crate::threads::on_pool(|| {
            (0..opts.samples)
                .into_par_iter()
                .fold(
                    || {
                        (
                            vec![Tally::EMPTY; sampled.len()],
                            vec![0.0; self.dof],
                            DistanceScratch::default(),
                        )
                    },
                    |(mut tally, mut q, mut scratch), i| {
                        if !stopped() {
                            self.sample_configuration(&limits, opts.seed, i, &mut q);
                            let poses = self.link_poses(&q);
                            let balls = Balls::new(self, &poses);
                            for ((t, least), &pair) in tally.iter_mut().zip(&least).zip(&sampled) {
                                let least = opts.min_distance.then_some(least);
                                self.tally(&mut scratch, (&poses, &balls), pair, i, least, t);
                            }
                        }
                        (tally, q, scratch)
                    },
                )
                .map(|(t, _, _)| t)
                .reduce(
                    || vec![Tally::EMPTY; sampled.len()],
                    |x, y| x.into_iter().zip(y).map(|(a, b)| a.merge(b)).collect(),
                )
        });
        if stopped() {
            return Err(Error::Input("the matrix's generation was stopped".into()));
        }
        let mut k = 0;
        let pairs = all
            .into_iter()
            .map(|(a, b)| {
                let pair = |reason, default_collides, samples, t: Tally| AcmPair {
                    link1: self.links[a].name.clone(),
                    link2: self.links[b].name.clone(),
                    links: (a, b),
                    reason,
                    default_collides,
                    samples,
                    collisions: t.collisions,
                    min_distance: t.min,
                    min_sample: (t.at != u64::MAX).then_some(t.at),
                    rounding_bound: t.bound,
                };
                if adjacency.adjacent(a, b) {
                    return pair(Some(AcmReason::Adjacent), false, 0, Tally::EMPTY);
                }
                let t = tallies[k];
                k += 1;
                let default = self.links_collide(&default_poses, &default_balls, a, b, &mut 0);
                let reason = if default {
                    Some(AcmReason::Default)
                } else if opts.samples > 0 && t.collisions as f64 >= f * opts.samples as f64 {
                    Some(AcmReason::Always)
                } else if opts.samples > 0 && t.collisions == 0 {
                    Some(AcmReason::Never)
                } else {
                    None
                };
                pair(reason, default, opts.samples, t)
            })
            .collect();
        Ok(Acm {
            robot: self.name.clone(),
            options: *opts,
            default_configuration,
            pairs,
        })
    }

    /// Adds sample `i` (link poses `poses`) to pair `(a, b)`'s tally: a
    /// collision, else (with `least`, the pair's least distance measured so
    /// far by any worker) its distance when the clearance query finds it
    /// within that least distance.
    fn tally(
        &self,
        scratch: &mut DistanceScratch,
        (poses, balls): (&[Isometry3<f64>], &Balls),
        (a, b): (usize, usize),
        i: u64,
        least: Option<&Least>,
        t: &mut Tally,
    ) {
        if self.links_collide(poses, balls, a, b, &mut 0) {
            t.collisions += 1;
            t.offer(0.0, i, 0.0);
            if let Some(least) = least {
                least.lower(0.0);
            }
            return;
        }
        let Some(least) = least else {
            return;
        };
        for (sa, ba) in self.links[a].shapes.iter().zip(balls.of(a)) {
            for (sb, bb) in self.links[b].shapes.iter().zip(balls.of(b)) {
                let m = least.get();
                if m == 0.0 {
                    return;
                }
                if ba.apart(bb, m) {
                    continue;
                }
                let (wa, wb) = (poses[a] * sa.origin, poses[b] * sb.origin);
                let pose = Pose::relative(&wa, &wb);
                let (ta, tb) = (&self.trees[sa.tree], &self.trees[sb.tree]);
                // A proof of "nothing that close" visits every box pair within
                // `m` whatever the order, so the plain order (no sorting of
                // children) serves; the first pair found ends it.
                if m.is_finite() {
                    let mut close = false;
                    within_each(ta, tb, &pose, m, ContactMode::All, |_| {
                        close = true;
                        true
                    });
                    if !close {
                        continue;
                    }
                }
                if let Some(d) = distance_with(scratch, ta, tb, &pose, &DistanceOptions::default())
                {
                    t.offer(d.distance, i, d.rounding_bound);
                    least.lower(d.distance);
                }
            }
        }
    }
}
