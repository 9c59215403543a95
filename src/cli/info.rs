//! `bvtool info`.

use super::{load_all, print_json};
use bvtool::Error;
use bvtool::load::LoadOptions;
use bvtool::report::FilesDoc;
use bvtool::report::info::FileInfo;
use std::path::PathBuf;

/// Show what a model file holds once loaded: meshes and instances, triangles,
/// vertices, skipped (point/line) primitives, extensions and the world AABB.
///
/// glTF scenes are flattened with their node transforms: a mesh placed by
/// several nodes counts once per placement. Skinned and morphed meshes are
/// read in their bind pose.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Model files (.gltf, .glb, .obj, .stl); several are loaded in parallel
    /// and reported in the order given.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print one JSON document `{"files": [...]}` instead of tables.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, opts: &LoadOptions) -> Result<(), Error> {
    let scenes = load_all(&args.files, opts)?;
    let infos: Vec<FileInfo> = args
        .files
        .iter()
        .zip(&scenes)
        .map(|(f, s)| FileInfo::new(&f.display().to_string(), s))
        .collect();
    if args.json {
        print_json(&FilesDoc { files: &infos })
    } else {
        for i in &infos {
            print!("{}", i.to_text());
        }
        Ok(())
    }
}
