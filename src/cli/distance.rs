//! `bvtool distance`.

use super::collide::non_negative;
use super::output::{Failure, Outcome, out, out_json, out_lines, wrote};
use super::poses::PoseArgs;
use super::progress::Progress;
use super::render::Look;
use super::stream::{SummaryLine, pose_lines};
use super::{NodeFitArg, load_pair};
use bvtool::Error;
use bvtool::batch::collide::CHUNK;
use bvtool::batch::distance::{
    CheckTally, ConvexRun, DistanceRun, DistanceTotals, Measure, run_with_progress,
};
use bvtool::fit::ShapeSpec;
use bvtool::load::LoadOptions;
use bvtool::query::DistanceOptions;
use bvtool::query::convex::{CELL_LIMIT, ConvexOptions, MAX_CELLS};
use bvtool::query::depth::{DepthSettings, MAX_SPLITS, SignedOptions};
use bvtool::render::compose::distance_picture;
use bvtool::render::save_png;
use nalgebra::Point3;
use std::path::PathBuf;

/// How far apart are two meshes? Mesh A stays at identity; mesh B is placed
/// by each pose. Reports the minimum distance between their surfaces, the
/// closest point on each (both in A's frame) and the two closest triangles,
/// named as `collide --all-pairs` names them. When the meshes touch or
/// intersect the distance is 0 and they are reported as touching (decided
/// exactly).
///
/// The OBB trees are searched nearest-first: a pair of boxes is skipped only
/// when a proven lower bound on its distance (the widest gap over the 15
/// separating axes) cannot beat the best distance found. Triangle distances
/// are computed in f64 after an exact intersection test; each answer carries
/// its rounding bound (64 ulps of the largest coordinate involved), within
/// which it equals the exact minimum over the f64 triangles.
///
/// With --signed, each pose also gets its signed distance: negative, minus
/// the protrusion depth, when the meshes overlap or one contains the other.
/// With --convex SHAPE, the signed distance of the shape fitted to each
/// mesh: negative, minus the translational penetration depth, when they
/// overlap.
///
/// Poses are given as for `bvtool collide`; B's vertices map v → R·v + t
/// into A's frame. With more than one pose, a totals line follows the
/// table.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Mesh A (stays at identity).
    a: PathBuf,
    /// Mesh B (placed by each pose).
    b: PathBuf,
    #[command(flatten)]
    node_fit: NodeFitArg,
    #[command(flatten)]
    poses: PoseArgs,
    /// Stop when the answer is within this fraction of the minimum (as
    /// FCL's rel_err): distance ≤ (1 + REL)·minimum + ABS. Default 0: exact.
    #[arg(long, value_name = "REL", default_value_t = 0.0, value_parser = non_negative)]
    rel_err: f64,
    /// Stop when the answer is within this distance of the minimum (model
    /// units, as FCL's abs_err). Default 0: exact.
    #[arg(long, value_name = "ABS", default_value_t = 0.0, value_parser = non_negative)]
    abs_err: f64,
    /// Also compute the distance by brute force over every triangle pair
    /// (meshes up to about 25 million pairs) and with parry3d (f32), and say
    /// who dissents. Brute force is exact and settles it: the command fails
    /// (exit 1) when brute force disagrees, or when it did not run and
    /// parry3d disagrees; a parry3d dissent where brute force agrees is
    /// named as parry3d's error (exit 0).
    #[arg(long)]
    check: bool,
    /// Time each pose N times and report the median (`query_us`).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    repeat: u32,
    /// Draw A and B at the first pose, the closest triangles highlighted and
    /// the segment between the closest points, to this PNG (titled with the
    /// files, the pose and the distance).
    #[arg(long, value_name = "PNG", value_parser = super::render::png_path)]
    render: Option<PathBuf>,
    #[command(flatten)]
    look: Look,
    /// Also report the signed distance: the distance when apart, minus the
    /// protrusion depth when the meshes overlap or one contains the other —
    /// the largest distance from a point of one surface inside the other
    /// solid to the other's surface (faces searched, not only vertices),
    /// which side protrudes, the witness points and the unit normal from A
    /// to B that separates them (docs/algorithms.md, "Depth").
    #[arg(long)]
    signed: bool,
    /// With --signed: the depth's absolute tolerance (model units, > 0);
    /// default 1e-5 × the larger bounding-box diagonal.
    #[arg(long, value_name = "T", requires = "signed", value_parser = positive)]
    depth_tolerance: Option<f64>,
    /// With --signed: the most sub-triangle splits of each direction's
    /// search; where it is reached the bound achieved is reported
    /// (`capped`).
    #[arg(long, value_name = "N", requires = "signed", default_value_t = MAX_SPLITS, value_parser = clap::value_parser!(u64).range(0..=100_000_000))]
    max_splits: u64,
    /// Also the signed distance of a convex shape fitted to each model's
    /// vertices, as `bvtool fit` fits it (box[:METHOD], aabb,
    /// sphere[:METHOD], capsule, cylinder, kdop[:K], kdop-obb[:K], hull[:N],
    /// best): the distance when apart, minus the translational penetration
    /// depth when they overlap — the shortest move of B that separates the
    /// shapes, what coal and FCL compute with EPA — with the contact normal,
    /// the witnesses and the contact patch, certified within
    /// --convex-tolerance (docs/algorithms.md, "Convex depth").
    #[arg(long, value_name = "SHAPE", value_parser = convex_shape)]
    convex: Option<ShapeSpec>,
    /// With --convex: the absolute tolerance (model units, > 0); default
    /// 1e-12 × the shapes' scale.
    #[arg(long, value_name = "T", requires = "convex", value_parser = positive)]
    convex_tolerance: Option<f64>,
    /// With --convex: the most cells of the sphere of directions the
    /// search evaluates; where it is reached the bound achieved is
    /// reported (`capped`).
    #[arg(long, value_name = "N", requires = "convex", default_value_t = MAX_CELLS as u64, value_parser = clap::value_parser!(u64).range(1..=CELL_LIMIT as u64))]
    max_cells: u64,
    /// Print one JSON document `{"a", "b", "build_ms", "mode", "poses": [...]}`.
    #[arg(long)]
    json: bool,
    /// Print JSON Lines as the answers come: one compact line per pose (as
    /// an entry of --json's `poses`), then `{"summary": {...}}`. Poses are
    /// read as they come and answered a few thousand at a time, so memory
    /// stays flat however many there are.
    #[arg(long, conflicts_with_all = ["json", "render"])]
    jsonl: bool,
}

/// A finite number > 0.
pub(super) fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(d) if d.is_finite() && d > 0.0 => Ok(d),
        _ => Err(format!("expected a finite number > 0, got `{s}`")),
    }
}

/// A shape `fit` knows that is one convex shape (not `decompose`).
fn convex_shape(s: &str) -> Result<ShapeSpec, String> {
    match s.parse::<ShapeSpec>() {
        Ok(ShapeSpec::Decompose) => Err(
            "decompose gives convex parts, whose union is not convex; give one convex shape".into(),
        ),
        Ok(spec) => Ok(spec),
        Err(e) => Err(e.to_string()),
    }
}

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    let tolerance = DistanceOptions {
        rel_err: args.rel_err,
        abs_err: args.abs_err,
    };
    let dopts = DistanceRun {
        tolerance,
        check: args.check,
        repeat: args.repeat as usize,
        signed: args.signed.then_some(SignedOptions {
            distance: tolerance,
            depth: DepthSettings {
                tolerance: args.depth_tolerance,
                max_splits: Some(args.max_splits),
            },
        }),
        convex: args.convex.map(|shape| ConvexRun {
            shape,
            options: ConvexOptions {
                tolerance: args.convex_tolerance,
                max_cells: Some(args.max_cells as usize),
            },
        }),
    };
    if args.jsonl {
        let (a, b) = load_pair(&args.a, &args.b, opts, args.node_fit.fit)?;
        return stream(&Measure::new(&a, &b, &dopts)?, &args.poses);
    }
    let poses = args.poses.read()?;
    let (a, b) = load_pair(&args.a, &args.b, opts, args.node_fit.fit)?;
    let bar = Progress::new(poses.len(), "poses");
    let doc = run_with_progress(&a, &b, &poses, &dopts, &|| bar.tick())?;
    bar.finish();
    if let Some(path) = &args.render {
        let first = &doc.poses[0];
        let image = distance_picture(
            &a.mesh,
            &b.mesh,
            &poses[0],
            first.triangle_indices,
            (Point3::from(first.point_a), Point3::from(first.point_b)),
            &doc.picture_title(),
            &args.look.options()?,
        )?;
        save_png(&image, path)?;
        wrote(
            path,
            &format!("{}x{} picture", image.width(), image.height()),
        );
    }
    if args.json {
        out_json(&doc)?;
    } else {
        out(&doc.to_text())?;
    }
    verdict(doc.check_verdict())
}

/// `--jsonl`: each pose's line as the answers come, then the summary.
fn stream(measure: &Measure, poses: &PoseArgs) -> Outcome {
    let mut totals = DistanceTotals::default();
    pose_lines(poses, CHUNK, &mut |first, chunk| {
        let answers = measure.answer(first, chunk, &|| {});
        answers.iter().for_each(|p| totals.add(p));
        Ok(answers)
    })?;
    let check = totals.check.as_ref().map(CheckTally::verdict);
    out_lines(&[SummaryLine {
        summary: measure.summary(totals),
    }])?;
    verdict(check)
}

/// With `--check`, exit 1 when bvtool's distance is in doubt.
fn verdict(check: Option<(String, bool)>) -> Outcome {
    match check {
        Some((line, false)) => Err(Failure::Input(Error::Input(
            line.trim_end().trim_start_matches("check: ").into(),
        ))),
        _ => Ok(()),
    }
}
