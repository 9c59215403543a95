//! Command-line parsing, dispatch, and the exit-code contract:
//! 0 success, 1 bad input (the error is printed on stderr as one line naming
//! the file), 2 usage error.

use bvtool::Error;
use bvtool::batch::collide::Side;
use bvtool::load::{DEFAULT_MAX_INSTANCES, LoadOptions, TriangleLimit, load};
use bvtool::tree::NodeFit;
use clap::builder::TypedValueParser as _;
use clap::{Parser, Subcommand};
use std::path::Path;

mod batch;
mod clash;
mod collide;
mod colliders;
mod compare;
mod distance;
mod export;
mod fit;
mod info;
mod motion;
mod output;
mod points;
mod poses;
mod progress;
mod render;
mod robot;
mod robot_acm;
mod robot_distance;
mod robot_render;
mod sdf;
mod stream;
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
touching counts as contact.

Files and folders: commands that take several files also take folders
(read recursively for .gltf, .glb, .obj and .stl, in path order) and quoted
patterns ('scans/**/*.obj'); a file that fails is reported in its place and
the others still run. Files written are announced on stderr (\"wrote …\").
A closed stdout (`bvtool … | head`) ends the command quietly.

Exit codes: 0 success (for collide, whatever the answer), 1 bad
input (one line on stderr per failed file, naming it; after a batch, once
every file is done), 2 usage error (an unknown option, a malformed inline
--pose, a missing -o), 3 a clash found with `clash --fail-on-clash`.";

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
    /// (tree, collide, verify, compare, colliders, render, export): max(1048576, the
    /// file's size in bytes). `info` and `fit` (without --check) never
    /// flatten and have no limit unless this is given. `clash` counts its
    /// trees' triangles instead, each once however many instances share it
    /// (`clash --self --whole` flattens, and counts every instance).
    #[arg(long, global = true, value_name = "N")]
    max_triangles: Option<u64>,
    /// Refuse a glTF scene with more than N mesh instances (primitives
    /// placed by nodes and EXT_mesh_gpu_instancing instances).
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_MAX_INSTANCES)]
    max_instances: usize,
    /// Print --json output compact, on one line. It is compact anyway when
    /// stdout is not a terminal (a pipe or a file); pretty (indented) only
    /// in a terminal.
    #[arg(long, global = true)]
    compact: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    Info(info::Args),
    Fit(fit::Args),
    Tree(tree::Args),
    Clash(clash::Args),
    Collide(collide::Args),
    Distance(distance::Args),
    Verify(verify::Args),
    Compare(compare::Args),
    Colliders(colliders::Args),
    Render(render::Args),
    Export(export::Args),
    Points(points::PointArgs),
    Rays(points::RayArgs),
    Sdf(sdf::Args),
    Robot(robot::Args),
}

/// Runs the command line and returns the process exit code.
pub fn run() -> i32 {
    bvtool::threads::pin_workers();
    end_on_interrupt();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            return match e.print() {
                Ok(()) => code,
                // `bvtool --help | head`: a closed pipe is not an error.
                Err(_) => 0,
            };
        }
    };
    output::json_compact(cli.compact);
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
    let outcome = match &cli.command {
        Command::Info(args) => info::run(args, &opts),
        Command::Fit(args) => fit::run(args, &opts),
        Command::Tree(args) => tree::run(args, &opts),
        Command::Clash(args) => clash::run(args, &opts),
        Command::Collide(args) => collide::run(args, &opts),
        Command::Distance(args) => distance::run(args, &opts),
        Command::Verify(args) => verify::run(args, &opts),
        Command::Compare(args) => compare::run(args, &opts),
        Command::Colliders(args) => colliders::run(args, &opts),
        Command::Render(args) => render::run(args, &opts),
        Command::Export(args) => export::run(args, &opts),
        Command::Points(args) => points::run_points(args, &opts),
        Command::Rays(args) => points::run_rays(args, &opts),
        Command::Sdf(args) => sdf::run(args, &opts),
        Command::Robot(args) => robot::run(args, &opts),
    };
    match outcome {
        Ok(()) => 0,
        Err(failure) => failure.exit_code(),
    }
}

/// How the OBB trees fit their node boxes (`--node-fit`).
#[derive(clap::Args, Debug)]
pub struct NodeFitArg {
    /// How the trees fit their node boxes: `quick` (the covariance frame or
    /// the axis-aligned box, whichever is smaller: the quickest build) or
    /// `flush` (also turned about each box axis to the least rectangle of
    /// the corners across it: 3–4× the build time for 15–40 % fewer
    /// box tests a query, most on CAD parts — worth it from a few thousand
    /// poses). The answers are the same.
    #[arg(
        long = "node-fit",
        value_name = "FIT",
        default_value = "quick",
        value_parser = clap::builder::PossibleValuesParser::new(["quick", "flush"])
            .map(|s| s.parse::<NodeFit>().expect("a listed name"))
    )]
    pub fit: NodeFit,
}

/// Ctrl-C (SIGINT) ends the command at once with exit code
/// 130, whatever its threads are doing: a watcher thread restores the
/// terminal's cursor (a progress bar hides it) and exits. Nothing is left
/// half-written: every output file is written whole to a temporary name
/// and renamed ([`bvtool::files::write_atomic`]).
fn end_on_interrupt() {
    // Without a handler (none could be set) the default action still ends
    // the process; only the exit code and the cursor differ.
    let _ = ctrlc::set_handler(|| {
        use std::io::{IsTerminal, Write};
        let mut err = std::io::stderr();
        if err.is_terminal() {
            let _ = err.write_all(b"\x1b[?25h\n");
        }
        std::process::exit(130);
    });
}

/// Loads two files (in parallel), flattens each and builds its OBB tree
/// with node boxes fitted by `fit`; the same file twice (by real path) is
/// loaded once and its tree shared. If both fail, the first failure is
/// printed and the second returned.
pub fn load_pair(
    a: &Path,
    b: &Path,
    opts: &LoadOptions,
    fit: NodeFit,
) -> Result<(Side, Side), Error> {
    let side = |p: &Path| load(p, opts).and_then(|s| Side::new(&p.display().to_string(), &s, fit));
    if let (Ok(ra), Ok(rb)) = (std::fs::canonicalize(a), std::fs::canonicalize(b))
        && ra == rb
    {
        let spinner = progress::Progress::spinner("loading the mesh and building its tree");
        let sa = side(a);
        spinner.finish();
        let sa = sa?;
        let sb = sa.same_file_as(&b.display().to_string());
        return Ok((sa, sb));
    }
    let spinner = progress::Progress::spinner("loading both meshes and building their trees");
    let sides = rayon::join(|| side(a), || side(b));
    spinner.finish();
    match sides {
        (Ok(sa), Ok(sb)) => Ok((sa, sb)),
        (Err(e), Ok(_)) | (Ok(_), Err(e)) => Err(e),
        (Err(ea), Err(eb)) => {
            // A file given twice is reported once.
            if ea.to_string() != eb.to_string() {
                eprintln!("bvtool: {ea}");
            }
            Err(eb)
        }
    }
}

/// One shape of `fit --shapes` or `export --shape`, in the shape grammar
/// ([`bvtool::fit::ShapeSpec`]).
pub(crate) fn parse_shape(s: &str) -> Result<bvtool::fit::ShapeSpec, String> {
    s.parse()
        .map_err(|e: bvtool::fit::UnknownShape| e.to_string())
}
