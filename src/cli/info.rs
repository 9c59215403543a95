//! `bvtool info`.

use super::batch::{self, Files};
use super::output::Outcome;
use bvtool::load::LoadOptions;
use bvtool::report::info::FileInfo;

/// Show what a model file holds once loaded: meshes and instances, triangles,
/// vertices, skipped (point/line) primitives, extensions and the world AABB.
///
/// glTF scenes are flattened with their node transforms: a mesh placed by
/// several nodes counts once per placement. Skinned and morphed meshes are
/// read in their bind pose. A point cloud (an OBJ file without faces) shows
/// its points and their box.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    files: Files,
    /// Print one JSON document `{"files": [...]}` instead of tables.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    lines: batch::JsonLines,
}

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    let files = args.files.expand()?;
    let work = |f: &str, s: &_| Ok(FileInfo::new(f, s));
    if args.lines.jsonl {
        return batch::stream(&files, opts, work, |_| {});
    }
    let results = batch::process(&files, opts, work);
    batch::report(&files, results, args.json, FileInfo::to_text)
}
