//! `bvtool compare`.

use super::batch::{self, Files};
use super::output::{Failure, Outcome, wrote};
use bvtool::load::LoadOptions;
use bvtool::render::chart::Bar;
use bvtool::render::{bar_chart, save_png};
use bvtool::volumes::{CompareOptions, Comparison, MAX_POSES, MAX_ROTATIONS};
use std::path::PathBuf;

/// Compare how tight each bounding volume is and what it costs.
///
/// Per model, every shape side by side: the AABB, every OBB method, every
/// sphere method, the capsule, the cylinder, the 26-DOP (mesh frame and the
/// tight OBB's frame), the convex hull under 255 and 64 vertices, and the
/// convex decomposition (its volume the sum of its parts', overlaps counted
/// twice) — and the engines' own rules beside them: Godot's sphere, capsule
/// and cylinder from the AABB (which may leave vertices outside), Unreal's
/// capsule axis and the least-squares capsule (made to contain). For each:
/// volume and surface area, the ratio to the convex hull's volume (the
/// least any convex volume can have), the air — the largest distance from
/// its surface to the mesh, shown as `air +bound` (the true figure is at
/// least air and at most air + bound, in model units) — the model vertices
/// it leaves outside, and its fit time. Then the AABB under N random
/// rotations against the rotation-invariant tight OBB (mean, worst, best) —
/// what an AABB costs once the object turns; and the OBB tree against an
/// AABB tree of the same split: total box volume per level, and box and
/// triangle tests over near-contact poses of the model against itself.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    files: Files,
    /// Random rotations for the AABB-under-rotation figure (1 to 100000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=MAX_ROTATIONS as i64))]
    rotations: u32,
    /// Near-contact poses for the tree figure (1 to 10000).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=MAX_POSES as i64))]
    poses: u32,
    /// Seed for the rotations and poses.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Skip the tree part (tree build, near-contact pose search, tree
    /// queries): on big models it costs most of the time and memory (the
    /// time line of the report says how much).
    #[arg(long)]
    no_tree: bool,
    /// Also draw a bar chart of the volume ratios to this PNG: one bar per
    /// volume, coloured by shape, labelled with its method, air and the
    /// vertices it leaves outside.
    #[arg(long, value_name = "PNG", value_parser = super::render::png_path)]
    plot: Option<PathBuf>,
    /// Print one JSON document `{"files": [...]}`.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    lines: batch::JsonLines,
}

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    let files = args.files.expand()?;
    let copts = CompareOptions {
        rotations: args.rotations as usize,
        poses: args.poses as usize,
        seed: args.seed,
        trees: !args.no_tree,
    };
    let work = |f: &str, s: &_| Comparison::new(f, s, &copts);
    if args.lines.jsonl {
        if args.plot.is_some() {
            return Err(Failure::Usage(
                "--plot draws every file's bars at the end: not with --jsonl".into(),
            ));
        }
        return batch::stream(&files, opts, work, |_| {});
    }
    let results = batch::process(&files, opts, work);
    if let Some(path) = &args.plot {
        let groups: Vec<(String, Vec<Bar>)> = results
            .iter()
            .filter_map(batch::Done::report)
            .map(|c| {
                let (name, bars) = c.bars();
                let bars = bars
                    .into_iter()
                    .map(|(kind, value, note)| Bar { kind, value, note })
                    .collect();
                (name, bars)
            })
            .collect();
        let height =
            (120 + groups.iter().map(|g| g.1.len() * 22 + 16).sum::<usize>()).min(8000) as u32;
        let image = bar_chart(
            "Bounding volume / convex hull volume",
            &groups,
            (1000, height),
        )?;
        save_png(&image, path)?;
        wrote(
            path,
            &format!("{}x{} bar chart", image.width(), image.height()),
        );
    }
    batch::report(&files, results, args.json, Comparison::to_text)
}
