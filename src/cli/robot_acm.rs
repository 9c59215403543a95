//! `bvtool robot URDF --acm`: the allowed-collision matrix, written as SRDF.

use super::output::{Outcome, out, out_json, wrote};
use bvtool::robots::{Acm, AcmOptions, AcmReason, Robot};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The `--acm` flags of `bvtool robot`.
#[derive(clap::Args, Debug)]
pub struct AcmArgs {
    /// Generate the allowed-collision matrix (MoveIt's Setup Assistant's
    /// job): every pair of links with geometry disabled as Adjacent,
    /// Default (colliding at the default configuration: 0, or the middle
    /// of limits that exclude 0), Always (colliding in at least
    /// --always-fraction of the samples) or Never (in none of them), each
    /// test exact. The --srdf given is not consulted.
    #[arg(long, conflicts_with = "check")]
    acm: bool,
    /// Random configurations sampled, uniform within the joint limits
    /// (continuous joints over [-π, π]); at most 10^8.
    #[arg(long, value_name = "N", default_value_t = 10_000, requires = "acm")]
    samples: u64,
    /// The samples' seed (sample i depends on the seed and i only: the
    /// same matrix whatever the thread count).
    #[arg(long, value_name = "S", default_value_t = 0, requires = "acm")]
    seed: u64,
    /// A pair colliding in at least this fraction of the samples is Always.
    #[arg(long, value_name = "F", default_value_t = 0.95, requires = "acm")]
    always_fraction: f64,
    /// Do not keep each pair's least distance over the samples (faster).
    #[arg(long, requires = "acm")]
    no_min_distance: bool,
    /// Write the matrix as SRDF <disable_collisions> elements to FILE.
    #[arg(short = 'o', long = "output", value_name = "FILE", requires = "acm")]
    output: Option<PathBuf>,
}

impl AcmArgs {
    /// Whether `--acm` was given.
    pub fn asked(&self) -> bool {
        self.acm
    }
}

#[derive(Serialize)]
struct PairDoc<'a> {
    link1: &'a str,
    link2: &'a str,
    reason: Option<&'static str>,
    default_collides: bool,
    samples: u64,
    collisions: u64,
    min_distance: Option<f64>,
    min_sample: Option<u64>,
    rounding_bound: f64,
}

#[derive(Serialize)]
struct AcmDoc<'a> {
    urdf: String,
    name: &'a str,
    samples: u64,
    seed: u64,
    always_fraction: f64,
    joint_order: Vec<&'a str>,
    default_configuration: &'a [f64],
    counts: Counts,
    pairs: Vec<PairDoc<'a>>,
    acm_ms: f64,
    srdf: Option<String>,
}

#[derive(Serialize)]
#[allow(non_snake_case)]
struct Counts {
    Adjacent: usize,
    Default: usize,
    Always: usize,
    Never: usize,
    tested: usize,
}

/// Generates, writes and reports the matrix of `robot`.
pub fn run(robot: &Robot, args: &AcmArgs, json: bool) -> Outcome {
    let opts = AcmOptions {
        samples: args.samples,
        seed: args.seed,
        always_fraction: args.always_fraction,
        min_distance: !args.no_min_distance,
    };
    let start = std::time::Instant::now();
    let acm = robot.generate_acm(&opts, None)?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    if let Some(path) = &args.output {
        bvtool::files::write_atomic(path, acm.srdf().as_bytes())?;
        wrote(path, "SRDF");
    }
    let doc = AcmDoc {
        urdf: robot.path.display().to_string(),
        name: &robot.name,
        samples: opts.samples,
        seed: opts.seed,
        always_fraction: opts.always_fraction,
        joint_order: robot.joint_names(),
        default_configuration: &acm.default_configuration,
        counts: Counts {
            Adjacent: acm.count(Some(AcmReason::Adjacent)),
            Default: acm.count(Some(AcmReason::Default)),
            Always: acm.count(Some(AcmReason::Always)),
            Never: acm.count(Some(AcmReason::Never)),
            tested: acm.count(None),
        },
        pairs: acm
            .pairs
            .iter()
            .map(|p| PairDoc {
                link1: &p.link1,
                link2: &p.link2,
                reason: p.reason.map(AcmReason::name),
                default_collides: p.default_collides,
                samples: p.samples,
                collisions: p.collisions,
                min_distance: p.min_distance.is_finite().then_some(p.min_distance),
                min_sample: p.min_sample,
                rounding_bound: p.rounding_bound,
            })
            .collect(),
        acm_ms: ms,
        srdf: args.output.as_ref().map(|p| p.display().to_string()),
    };
    if json {
        out_json(&doc)
    } else {
        out(&text(&acm, &doc))
    }
}

/// How many of the closest `Never` pairs the text lists.
const CLOSEST_SHOWN: usize = 10;

fn text(acm: &Acm, doc: &AcmDoc) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "allowed-collision matrix of {}: {} samples (seed {}), always fraction {}; {:.1} ms ({:.2} µs a sample, all cores)",
        doc.name,
        doc.samples,
        doc.seed,
        doc.always_fraction,
        doc.acm_ms,
        doc.acm_ms * 1e3 / doc.samples.max(1) as f64
    );
    let c = &doc.counts;
    let _ = writeln!(
        s,
        "disabled: {} Adjacent, {} Default, {} Always, {} Never; {} pairs stay tested (collide sometimes)",
        c.Adjacent, c.Default, c.Always, c.Never, c.tested
    );
    let mut never: Vec<_> = acm
        .pairs
        .iter()
        .filter(|p| p.reason == Some(AcmReason::Never) && p.min_distance.is_finite())
        .collect();
    never.sort_by(|a, b| a.min_distance.total_cmp(&b.min_distance));
    if !never.is_empty() {
        let _ = writeln!(
            s,
            "closest Never pairs (least distance over the samples, length units):"
        );
        for p in never.iter().take(CLOSEST_SHOWN) {
            let _ = writeln!(
                s,
                "  {}–{}: {:.6e} (±{:.1e}) at sample {}",
                p.link1,
                p.link2,
                p.min_distance,
                p.rounding_bound,
                p.min_sample.unwrap_or(0)
            );
        }
    }
    let tested: Vec<String> = acm
        .pairs
        .iter()
        .filter(|p| p.reason.is_none())
        .map(|p| format!("{}–{} ({}/{})", p.link1, p.link2, p.collisions, p.samples))
        .collect();
    if !tested.is_empty() {
        let _ = writeln!(s, "tested (collisions/samples): {}", tested.join(", "));
    }
    s
}
