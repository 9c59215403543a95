//! `bvtool collide`.

use super::output::{Failure, Outcome, out, out_json, out_lines, wrote};
use super::poses::PoseArgs;
use super::progress::Progress;
use super::render::Look;
use super::stream::{SummaryLine, pose_lines};
use super::{NodeFitArg, load_pair};
use bvtool::Error;
use bvtool::Pose;
use bvtool::batch::collide::{CHUNK, CollideOptions, Collider, Side, run_with_progress};
use bvtool::load::LoadOptions;
use bvtool::query::{ContactMode, collide as collide_trees, within};
use bvtool::render::compose::collision_picture;
use bvtool::render::save_png;
use std::path::PathBuf;

/// Do two meshes touch, or come within a clearance? Mesh A stays at
/// identity; mesh B is placed by each pose. Touching counts as contact. The
/// exit code is 0 whatever the answer; the answer is in the output.
///
/// With --clearance D the question is which triangles of B come within
/// distance D of A (touching and intersecting pairs at distance 0): with
/// --first-contact it stops at the first such pair (about the cost of a
/// first contact), with --all-pairs it lists every pair with its distance.
/// Distances are computed in f64 within a rounding bound of a few ulps of
/// the models' coordinates (see `bvtool help distance`); a pair within that
/// bound of D may fall either side.
///
/// Each file's scene is flattened into one mesh with one OBB tree. The trees
/// are descended together with the 15-axis separating-axis test; leaf
/// triangles are decided exactly (robust orient3d/orient2d predicates on f64
/// coordinates). B's vertices map v → R·v + t into A's frame. With more
/// than one pose, a totals line follows the table.
///
/// With --to (or --path) B moves instead: the first time of contact along
/// the motion, certified by conservative advancement (docs/algorithms.md,
/// "Motion").
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
    #[command(flatten)]
    motion: super::motion::MotionArgs,
    /// Report every intersecting triangle pair, named by node, mesh,
    /// primitive and triangle index (at most --max-pairs of them).
    #[arg(long, conflicts_with = "first_contact")]
    all_pairs: bool,
    /// With --all-pairs: the most pairs held listed — over all the poses
    /// for --json and text (the document is written at the end), at one
    /// pose for --jsonl (which then answers a pose at a time); more is an
    /// error (exit 1) naming the pose. About 400 bytes a pair (800 with
    /// --contacts). The count alone is never limited.
    #[arg(long, value_name = "N", default_value_t = bvtool::query::MAX_PAIRS)]
    max_pairs: usize,
    /// With --all-pairs: each pair's contact — of the two triangles'
    /// planes, the one the other crosses less, its normal oriented to push
    /// B out (unit, from A to B), how far the smaller side reaches across
    /// (the depth) and where the triangles meet — and the pairs merged
    /// into one patch per contact plane (normal, deepest depth, the convex
    /// polygon of the points). Not with --clearance.
    #[arg(long, requires = "all_pairs", conflicts_with = "clearance")]
    contacts: bool,
    /// Stop at the first intersecting pair (fastest; no pair count).
    #[arg(long)]
    first_contact: bool,
    /// Also ask parry3d and report agreement per pose; a disagreement that is
    /// not a touching case within f32 rounding is an error (exit 1). Not
    /// with --clearance (use `bvtool distance --check`).
    #[arg(long, conflicts_with = "clearance")]
    check: bool,
    /// Report triangle pairs within this distance (model units, ≥ 0)
    /// instead of intersecting pairs.
    #[arg(long, value_name = "D", value_parser = non_negative)]
    clearance: Option<f64>,
    /// Time each pose N times and report the median (`query_us`); a single
    /// cold run can read several times the warm time.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    repeat: u32,
    /// Draw A and B at the first pose, intersecting triangles (or, with
    /// --clearance, the pairs within it) highlighted, to this PNG (titled
    /// with the files, the pose and the answer). With --to or --path: the
    /// motion — B at 7 times evenly spread from the start to the contact
    /// (to the end when free), the earlier copies translucent ghosts, the
    /// last solid with the triangles in contact highlighted and the contact
    /// point marked by a red circled cross (with --clearance also the
    /// segment to B's closest point), and the path of B's centre in blue;
    /// titled with the status, t, what is certified and the tolerance.
    /// Ghosts of a B of more than 20,000 triangles are drawn from B
    /// simplified to at most 20,000 (vertex clustering).
    #[arg(long, value_name = "PNG", value_parser = super::render::png_path)]
    render: Option<PathBuf>,
    #[command(flatten)]
    look: Look,
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

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    if args.motion.asked() {
        let files = (args.a.as_path(), args.b.as_path());
        let (poses, json) = (&args.poses, args.json);
        let shown = super::motion::Shown {
            json,
            picture: match &args.render {
                Some(path) => Some((path.as_path(), args.look.options()?)),
                None => None,
            },
        };
        return super::motion::run(
            &args.motion,
            files,
            &args.node_fit,
            poses,
            args.clearance,
            &shown,
            opts,
        );
    }
    let copts = CollideOptions {
        first_contact: args.first_contact,
        list_pairs: args.all_pairs,
        check: args.check,
        clearance: args.clearance,
        repeat: args.repeat as usize,
        max_pairs: args.max_pairs,
        contacts: args.contacts,
    };
    if args.jsonl {
        let (a, b) = load_pair(&args.a, &args.b, opts, args.node_fit.fit)?;
        return stream(
            &Collider::new(&a, &b, &copts)?,
            &args.poses,
            copts.list_pairs,
        );
    }
    let poses = args.poses.read()?;
    let (a, b) = load_pair(&args.a, &args.b, opts, args.node_fit.fit)?;
    let bar = Progress::new(poses.len(), "poses");
    let doc = run_with_progress(&a, &b, &poses, &copts, &|| bar.tick())?;
    bar.finish();
    if let Some(path) = &args.render {
        let pairs = drawn_pairs(&a, &b, &poses[0], args.clearance);
        let count = doc.poses[0].pair_count.unwrap_or(pairs.len() as u64);
        let title = doc.picture_title(count);
        let image = collision_picture(
            &a.mesh,
            &b.mesh,
            &poses[0],
            &pairs,
            &title,
            &args.look.options()?,
        )?;
        save_png(&image, path)?;
        wrote_picture(path, &image);
    }
    if args.json {
        out_json(&doc)?;
    } else {
        out(&doc.to_text())?;
    }
    checked(doc.checks_ok())
}

/// The triangle pairs of `a` and `b` (indices into their meshes) that
/// intersect at `pose`, or with a clearance come within it: what a picture
/// highlights. The trees hold one triangle per stack of copies: the first
/// copy is drawn.
pub(super) fn drawn_pairs(
    a: &Side,
    b: &Side,
    pose: &Pose,
    clearance: Option<f64>,
) -> Vec<(u32, u32)> {
    match clearance {
        None => collide_trees(&a.tree, &b.tree, pose, ContactMode::All).pairs,
        Some(d) => within(&a.tree, &b.tree, pose, d, ContactMode::All)
            .pairs
            .iter()
            .map(|p| (p.a, p.b))
            .collect(),
    }
    .into_iter()
    .map(|(i, j)| (a.stacks.copies(i)[0], b.stacks.copies(j)[0]))
    .collect()
}

/// Says on stderr that the picture was written, as every command does.
pub(super) fn wrote_picture(path: &std::path::Path, image: &image::RgbImage) {
    wrote(
        path,
        &format!("{}x{} picture", image.width(), image.height()),
    );
}

/// `--jsonl`: each pose's line as the answers come, then the summary.
/// Listing pairs, one pose at a time, so that memory holds one pose's
/// pairs (at most --max-pairs).
fn stream(collider: &Collider, poses: &PoseArgs, listing: bool) -> Outcome {
    let mut totals = collider.totals();
    let size = if listing { 1 } else { CHUNK };
    pose_lines(poses, size, &mut |first, chunk| {
        collider.release();
        let answers = collider.answer(first, chunk, &|| {})?;
        answers.iter().for_each(|p| totals.add(p));
        Ok(answers)
    })?;
    let ok = totals.checks_ok != Some(false);
    out_lines(&[SummaryLine {
        summary: collider.summary(totals),
    }])?;
    checked(ok)
}

/// Exit 1 when parry3d disagrees unexplained (`--check`).
fn checked(ok: bool) -> Outcome {
    match ok {
        true => Ok(()),
        false => Err(Failure::Input(Error::Input(
            "parry3d disagrees at a pose where the meshes are not within f32 rounding of touching"
                .into(),
        ))),
    }
}

/// A clearance or tolerance: a finite number ≥ 0.
pub fn non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(d) if d.is_finite() && d >= 0.0 => Ok(d),
        _ => Err(format!("expected a finite number ≥ 0, got `{s}`")),
    }
}
