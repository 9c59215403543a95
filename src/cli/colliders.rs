//! `bvtool colliders`.

use super::batch::{self, Files};
use super::output::Outcome;
use bvtool::load::LoadOptions;
use bvtool::volumes::ColliderCheck;

/// Measure the colliders a file carries beside its meshes against the
/// meshes they bound.
///
/// Colliders are meshes named by an engine's convention, as `bvtool export
/// --format obj` (or `--format gltf --naming unreal|godot`) writes them and
/// artists author them: Unreal's UBX_<mesh>, USP_<mesh>, UCP_<mesh> and
/// UCX_<mesh> (optionally _NN), each a collider of the render mesh <mesh>
/// (or of the whole file when no render mesh has that name), and Godot's
/// <name>-convcolonly, a collider of the whole file (-colonly, a concave
/// collider, is listed and not measured). Each collider is the convex hull
/// of its vertices in the world frame, as the engines cook a convex mesh;
/// several colliders of one mesh count as their union.
///
/// Per render mesh: the air — the largest distance from the colliders'
/// surface to the mesh, how far from the model a runtime may report
/// contact — and the shortfall — the largest distance from a point of the
/// mesh to the colliders, how far the model sticks out where a runtime
/// sees nothing (0 when they hold it). Each is shown with its bound (the
/// true figure is at most the figure plus the bound), in model units,
/// searched to 1/1000 of the render meshes' diagonal (docs/algorithms.md,
/// "Air" and "Shortfall"). A file with no collider is an error (exit 1).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    files: Files,
    /// Print one JSON document `{"files": [...]}`.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    lines: batch::JsonLines,
}

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    let files = args.files.expand()?;
    let work = |f: &str, s: &_| ColliderCheck::new(f, s);
    if args.lines.jsonl {
        return batch::stream(&files, opts, work, |_| {});
    }
    let results = batch::process(&files, opts, work);
    batch::report(&files, results, args.json, ColliderCheck::to_text)
}
