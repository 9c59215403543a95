//! `bvtool collide --to` / `--path`: time of impact along a motion.

use super::collide::{drawn_pairs, wrote_picture};
use super::output::{Failure, Outcome, out, out_json};
use super::poses::PoseArgs;
use super::{NodeFitArg, load_pair};
use bvtool::Pose;
use bvtool::batch::collide::Side;
use bvtool::batch::motion::{MotionDoc, run as sweep};
use bvtool::load::LoadOptions;
use bvtool::query::motion::{
    DEFAULT_MAX_DISTANCE_CALLS, DEFAULT_TOL, ImpactOptions, LeastOptions, Motion,
};
use bvtool::render::sweep::{SweepContact, SweepEnd, sweep_picture};
use bvtool::render::{RenderOptions, save_png};
use nalgebra::Point3;
use std::path::Path;

/// The motion flags of `bvtool collide`.
#[derive(clap::Args, Debug)]
pub struct MotionArgs {
    /// Move B from --pose (one pose; identity without it) to this pose
    /// (the same forms as --pose) and report the first contact on the way:
    /// translation linear, rotation at constant angular velocity about B's
    /// origin along the shortest arc. Certified: "no" means no contact
    /// anywhere on the motion; a time t means none before t − --tol and
    /// contact at t. With --clearance D: the first time B comes within D.
    #[arg(
        long,
        value_name = "POSE",
        allow_hyphen_values = true,
        group = "sweep",
        conflicts_with_all = ["all_pairs", "first_contact", "check", "jsonl"]
    )]
    to: Option<String>,
    /// Move B along the poses of this file (or `-`, standard input),
    /// segment by segment as --to does: JSON Lines or a list of poses, as a
    /// --pose file; at least 2 poses. Reports the segment and its t.
    #[arg(
        long,
        value_name = "FILE",
        group = "sweep",
        conflicts_with_all = ["to", "pose", "all_pairs", "first_contact", "check", "jsonl"]
    )]
    path: Option<String>,
    /// With --to or --path: the tolerance δ on the reported time, in the
    /// segment's parameter t ∈ [0, 1] (between 1e-12 and 1).
    #[arg(long, value_name = "T", requires = "sweep", default_value_t = DEFAULT_TOL)]
    tol: f64,
    /// With --to or --path: the most exact distance queries for the whole
    /// path; when they are spent the answer is "undecided", with the time
    /// up to which no contact is certified.
    #[arg(
        long,
        value_name = "N",
        requires = "sweep",
        default_value_t = DEFAULT_MAX_DISTANCE_CALLS,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    max_distance_calls: u64,
    /// With --to or --path: also the least distance between A and B over
    /// the whole path (every t of every segment), certified within
    /// --least-rel-tol of the least distance, with the pose and the
    /// witness points where it is reached (its own --max-distance-calls).
    #[arg(long, requires = "sweep")]
    least_distance: bool,
    /// With --least-distance: its relative tolerance, in (0, 1).
    #[arg(
        long,
        value_name = "R",
        requires = "least_distance",
        default_value_t = 1e-3
    )]
    least_rel_tol: f64,
}

impl MotionArgs {
    /// Whether a motion was asked (--to or --path).
    pub fn asked(&self) -> bool {
        self.to.is_some() || self.path.is_some()
    }
}

/// How the answer is shown: text or JSON, and the picture asked
/// (`--render`: the PNG and how it looks).
pub struct Shown<'p> {
    /// `--json`.
    pub json: bool,
    /// `--render PNG` with its look.
    pub picture: Option<(&'p Path, RenderOptions)>,
}

/// Runs `collide --to/--path`; exit 0 whatever the answer.
pub fn run(
    args: &MotionArgs,
    files: (&Path, &Path),
    node_fit: &NodeFitArg,
    from: &PoseArgs,
    clearance: Option<f64>,
    shown: &Shown<'_>,
    opts: &LoadOptions,
) -> Outcome {
    let read = |spec: &String| {
        PoseArgs {
            pose: vec![spec.clone()],
            angles: from.angles,
        }
        .read()
    };
    let poses = match (&args.to, &args.path) {
        (Some(to), _) => {
            let mut poses = from.read()?;
            if poses.len() != 1 {
                return Err(Failure::Usage(format!(
                    "--to moves B from one --pose, got {} poses (use --path for more)",
                    poses.len()
                )));
            }
            let end = read(to)?;
            if end.len() != 1 {
                return Err(bvtool::Error::Input(format!(
                    "{to}: --to takes one pose, got {}",
                    end.len()
                ))
                .into());
            }
            poses.extend(end);
            poses
        }
        (None, Some(path)) => {
            let poses = read(path)?;
            if poses.len() < 2 {
                return Err(bvtool::Error::Input(format!(
                    "{path}: a path needs at least 2 poses, got {}",
                    poses.len()
                ))
                .into());
            }
            poses
        }
        (None, None) => unreachable!("asked() was checked"),
    };
    let impact = ImpactOptions {
        tol: args.tol,
        clearance: clearance.unwrap_or(0.0),
        max_distance_calls: args.max_distance_calls,
        ..Default::default()
    };
    let least = args.least_distance.then_some(LeastOptions {
        rel_tol: args.least_rel_tol,
        max_distance_calls: args.max_distance_calls,
        ..Default::default()
    });
    // Options out of range are a usage error, before any file is read.
    impact.check().map_err(|e| Failure::Usage(e.to_string()))?;
    if let Some(least) = &least {
        least.check().map_err(|e| Failure::Usage(e.to_string()))?;
    }
    let (a, b) = load_pair(files.0, files.1, opts, node_fit.fit)?;
    let doc = sweep(&a, &b, &poses, &impact, least.as_ref())?;
    if let Some((path, look)) = &shown.picture {
        let end = drawn_end(&a, &b, &poses, &doc, clearance);
        let title = doc.picture_title(&poses);
        let image = sweep_picture(&a.mesh, &b.mesh, &poses, &end, &title, look)?;
        save_png(&image, path)?;
        wrote_picture(path, &image);
    }
    if shown.json {
        out_json(&doc)
    } else {
        out(&doc.to_text())
    }
}

/// Where the picture of the motion ends: at the contact on a hit (its
/// triangle pairs, as `collide --render` highlights them at that pose, and
/// its witness points), at `free_until` when undecided, at the path's end
/// when free.
fn drawn_end(
    a: &Side,
    b: &Side,
    poses: &[Pose],
    doc: &MotionDoc,
    clearance: Option<f64>,
) -> SweepEnd {
    let point = |p: Option<[f64; 3]>| p.map(Point3::from);
    let t = doc.t.unwrap_or(doc.free_until);
    let contact = match (point(doc.point_a), point(doc.point_b)) {
        (Some(point_a), Some(point_b)) if doc.hit => {
            let pose = Motion::new(poses[doc.segment], poses[doc.segment + 1]).pose_at(t);
            Some(SweepContact {
                pairs: drawn_pairs(a, b, &pose, clearance.filter(|d| *d > 0.0)),
                point_a,
                point_b,
                clearance: doc.clearance,
            })
        }
        _ => None,
    };
    SweepEnd {
        segment: doc.segment,
        t,
        contact,
    }
}
