//! Command-line parsing, dispatch, and the exit-code contract:
//! 0 success, 1 bad input (the error is printed on stderr as one line naming
//! the file), 2 usage error.

use bvtool::load::{DEFAULT_MAX_INSTANCES, LoadOptions, TriangleLimit, load};
use bvtool::report::collide::Side;
use bvtool::{Error, Scene};
use clap::{Parser, Subcommand};
use rayon::prelude::*;
use std::path::PathBuf;

mod collide;
mod compare;
mod export;
mod fit;
mod info;
mod render;
mod tree;
mod verify;

const ABOUT: &str =
    "Bounding volumes and exact mesh-vs-mesh collision for glTF, OBJ and STL models.";

const LONG_ABOUT: &str = "\
bvtool loads triangle meshes (glTF 2.0 .gltf/.glb, Wavefront OBJ, STL), fits
bounding volumes to them (AABB, spheres, oriented boxes), builds OBB trees and
answers exactly whether two meshes touch at a relative pose.

Conventions: units are the model file's own; output is in world space (the
scene graph flattened with node transforms) unless --frame local is given;
boxes are reported with HALF extents; quaternions are written (x, y, z, w);
touching counts as contact. Exit codes: 0 success, 1 bad input, 2 usage.";

/// The top-level command line.
#[derive(Parser, Debug)]
#[command(name = "bvtool", version, about = ABOUT, long_about = LONG_ABOUT)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Let glTF files read buffers outside their own folder (`../` or absolute URIs).
    #[arg(long, global = true)]
    allow_external_uris: bool,
    /// Refuse a model that flattens to more than N triangles (every
    /// instance counted). Default for the commands that flatten the scene
    /// (tree, collide, verify, compare, render, export): max(1048576, the
    /// file's size in bytes). `info` and `fit` (without --check) never
    /// flatten and have no limit unless this is given.
    #[arg(long, global = true, value_name = "N")]
    max_triangles: Option<u64>,
    /// Refuse a glTF scene with more than N mesh instances (primitives
    /// placed by nodes and EXT_mesh_gpu_instancing instances).
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_MAX_INSTANCES)]
    max_instances: usize,
}

#[derive(Subcommand, Debug)]
enum Command {
    Info(info::Args),
    Fit(fit::Args),
    Tree(tree::Args),
    Collide(collide::Args),
    Verify(verify::Args),
    Compare(compare::Args),
    Render(render::Args),
    Export(export::Args),
}

/// Runs the command line and returns the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    // `fit --check` hands every placed point to parry3d.
    let flattens = match &cli.command {
        Command::Info(_) => false,
        Command::Fit(args) => args.check(),
        _ => true,
    };
    let opts = LoadOptions {
        allow_external_uris: cli.allow_external_uris,
        max_instances: cli.max_instances,
        max_triangles: match cli.max_triangles {
            Some(n) => TriangleLimit::AtMost(n),
            None if flattens => TriangleLimit::Auto,
            None => TriangleLimit::Unlimited,
        },
    };
    let result = match &cli.command {
        Command::Info(args) => info::run(args, &opts),
        Command::Fit(args) => fit::run(args, &opts),
        Command::Tree(args) => tree::run(args, &opts),
        Command::Collide(args) => collide::run(args, &opts),
        Command::Verify(args) => verify::run(args, &opts),
        Command::Compare(args) => compare::run(args, &opts),
        Command::Render(args) => render::run(args, &opts),
        Command::Export(args) => export::run(args, &opts),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("bvtool: {e}");
            1
        }
    }
}

/// Loads every file in parallel; results come back in the order given. When
/// some fail, every failure but the last is printed on stderr (one line
/// each; a file given twice is reported once) and the last is returned.
pub fn load_all(files: &[PathBuf], opts: &LoadOptions) -> Result<Vec<Scene>, Error> {
    let results: Vec<Result<Scene, Error>> = files.par_iter().map(|f| load(f, opts)).collect();
    let mut errors: Vec<Error> = Vec::new();
    let mut scenes = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Ok(s) => scenes.push(s),
            Err(e) => errors.push(e),
        }
    }
    match errors.pop() {
        None => Ok(scenes),
        Some(last) => {
            let last_text = last.to_string();
            let mut printed = Vec::new();
            for e in errors.iter().map(Error::to_string) {
                if e != last_text && !printed.contains(&e) {
                    eprintln!("bvtool: {e}");
                    printed.push(e);
                }
            }
            Err(last)
        }
    }
}

/// Loads two files (in parallel), flattens each and builds its OBB tree.
pub fn load_pair(
    a: &std::path::Path,
    b: &std::path::Path,
    opts: &LoadOptions,
) -> Result<(Side, Side), Error> {
    let files = [a.to_path_buf(), b.to_path_buf()];
    let scenes = load_all(&files, opts)?;
    let (sa, sb) = rayon::join(
        || Side::new(&a.display().to_string(), &scenes[0]),
        || Side::new(&b.display().to_string(), &scenes[1]),
    );
    Ok((sa?, sb?))
}

/// Prints a value as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), Error> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| Error::Input(format!("JSON output: {e}")))?;
    println!("{text}");
    Ok(())
}
