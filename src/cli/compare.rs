//! `bvtool compare`.

use super::{load_all, print_json};
use bvtool::Error;
use bvtool::load::LoadOptions;
use bvtool::render::{bar_chart, save_png};
use bvtool::report::FilesDoc;
use bvtool::report::compare::{CompareOptions, Comparison};
use std::path::PathBuf;

/// Compare how tight each bounding volume is and what it costs.
///
/// Per model: volume and surface area of the AABB, every OBB method and every
/// sphere method, each as a ratio to the convex hull's volume (the least any
/// convex volume can have), with its fit time; the AABB under N random
/// rotations against the rotation-invariant tight OBB (mean, worst, best) —
/// what an AABB costs once the object turns; and the OBB tree against an
/// AABB tree of the same split: total box volume per level, and box and
/// triangle tests over near-contact poses of the model against itself.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Model files, reported in order.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Random rotations for the AABB-under-rotation figure.
    #[arg(long, default_value_t = 100)]
    rotations: usize,
    /// Near-contact poses for the tree figure.
    #[arg(long, default_value_t = 50)]
    poses: usize,
    /// Seed for the rotations and poses.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Also draw a bar chart of the volume ratios to this PNG.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Print one JSON document `{"files": [...]}`.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, opts: &LoadOptions) -> Result<(), Error> {
    let scenes = load_all(&args.files, opts)?;
    let copts = CompareOptions {
        rotations: args.rotations,
        poses: args.poses,
        seed: args.seed,
    };
    let reports = args
        .files
        .iter()
        .zip(&scenes)
        .map(|(f, s)| Comparison::new(&f.display().to_string(), s, &copts))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(path) = &args.plot {
        let groups: Vec<_> = reports.iter().map(Comparison::bars).collect();
        let height =
            (120 + groups.iter().map(|g| g.1.len() * 22 + 16).sum::<usize>()).min(8000) as u32;
        let image = bar_chart(
            "Bounding volume / convex hull volume",
            &groups,
            (1000, height),
        )?;
        save_png(&image, path)?;
    }
    if args.json {
        print_json(&FilesDoc { files: &reports })
    } else {
        reports.iter().for_each(|r| print!("{}", r.to_text()));
        Ok(())
    }
}
