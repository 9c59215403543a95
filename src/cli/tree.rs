//! `bvtool tree`.

use super::{load_all, print_json};
use bvtool::Error;
use bvtool::load::LoadOptions;
use bvtool::report::FilesDoc;
use bvtool::report::tree::TreeReport;
use std::path::PathBuf;

/// Build the OBB tree of each file and report its size and tightness.
///
/// The tree is built top-down over the flattened scene (world frame): each
/// node's box from the area-weighted covariance of its triangles, split along
/// the longest box axis at the mean of the triangle centroids. Reported: node
/// count, depth, leaf size, bytes per triangle, build time, and the total box
/// volume per level beside an AABB tree of the same split.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Model files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Most triangles in a leaf (default: the measured best).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
    leaf_size: Option<u32>,
    /// Print one JSON document `{"files": [...]}`.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, opts: &LoadOptions) -> Result<(), Error> {
    let scenes = load_all(&args.files, opts)?;
    let reports = args
        .files
        .iter()
        .zip(&scenes)
        .map(|(f, s)| {
            TreeReport::new(
                &f.display().to_string(),
                s,
                args.leaf_size.map(|n| n as usize),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    if args.json {
        print_json(&FilesDoc { files: &reports })
    } else {
        reports.iter().for_each(|r| print!("{}", r.to_text()));
        Ok(())
    }
}
