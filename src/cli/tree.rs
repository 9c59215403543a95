//! `bvtool tree`.

use super::batch::{self, Files};
use super::output::Outcome;
use bvtool::load::LoadOptions;
use bvtool::report::tree::TreeReport;
use bvtool::tree::MAX_LEAF_SIZE;

/// Build the OBB tree of each file and report its size and tightness.
///
/// The tree is built top-down over the flattened scene (world frame): each
/// node's box from the area-weighted covariance of its triangles, split at
/// the plane of least surface-area cost among 15 across the box along each
/// of its axes (triangles binned by centroid). Reported: node count, depth,
/// leaf size, bytes per triangle, build time, and the total box volume per
/// level beside an AABB tree of the same split.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    files: Files,
    /// Most triangles in a leaf, 1 to 8 (default: 6, or 2 for a mesh of
    /// fewer than 8,192 triangles; the measured best for each).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_LEAF_SIZE as i64))]
    leaf_size: Option<u32>,
    #[command(flatten)]
    node_fit: super::NodeFitArg,
    /// Print one JSON document `{"files": [...]}`.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    lines: batch::JsonLines,
}

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    let files = args.files.expand()?;
    let leaf_size = args.leaf_size.map(|n| n as usize);
    let fit = args.node_fit.fit;
    let work = |f: &str, s: &_| TreeReport::new(f, s, leaf_size, fit);
    if args.lines.jsonl {
        return batch::stream(&files, opts, work, |_| {});
    }
    let results = batch::process(&files, opts, work);
    batch::report(&files, results, args.json, TreeReport::to_text)
}
