//! `bvtool collide`.

use super::load_pair;
use super::output::{Failure, Outcome, out, out_json, wrote};
use super::poses::PoseArgs;
use super::progress::Progress;
use super::render::Look;
use bvtool::Error;
use bvtool::load::LoadOptions;
use bvtool::query::{ContactMode, collide as collide_trees};
use bvtool::render::compose::collision_picture;
use bvtool::render::save_png;
use bvtool::report::collide::{CollideOptions, run_with_progress};
use std::path::PathBuf;

/// Do two meshes touch? Mesh A stays at identity; mesh B is placed by each
/// pose. Touching counts as contact. The exit code is 0 whatever the answer;
/// the answer is in the output.
///
/// Each file's scene is flattened into one mesh with one OBB tree. The trees
/// are descended together with the 15-axis separating-axis test; leaf
/// triangles are decided exactly (robust orient3d/orient2d predicates on f64
/// coordinates). B's vertices map v → R·v + t into A's frame. With more
/// than one pose, a totals line follows the table.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Mesh A (stays at identity).
    a: PathBuf,
    /// Mesh B (placed by each pose).
    b: PathBuf,
    #[command(flatten)]
    poses: PoseArgs,
    /// Report every intersecting triangle pair, named by node, mesh,
    /// primitive and triangle index.
    #[arg(long, conflicts_with = "first_contact")]
    all_pairs: bool,
    /// Stop at the first intersecting pair (fastest; no pair count).
    #[arg(long)]
    first_contact: bool,
    /// Also ask parry3d and report agreement per pose; a disagreement that is
    /// not a touching case within f32 rounding is an error (exit 1).
    #[arg(long)]
    check: bool,
    /// Draw A and B at the first pose, intersecting triangles highlighted,
    /// to this PNG (titled with the files, the pose and the answer).
    #[arg(long, value_name = "PNG", value_parser = super::render::png_path)]
    render: Option<PathBuf>,
    #[command(flatten)]
    look: Look,
    /// Print one JSON document `{"a", "b", "build_ms", "mode", "poses": [...]}`.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    let poses = args.poses.read()?;
    let (a, b) = load_pair(&args.a, &args.b, opts)?;
    let bar = Progress::new(poses.len(), "poses");
    let doc = run_with_progress(
        &a,
        &b,
        &poses,
        &CollideOptions {
            first_contact: args.first_contact,
            list_pairs: args.all_pairs,
            check: args.check,
        },
        &|| bar.tick(),
    )?;
    bar.finish();
    if let Some(path) = &args.render {
        let c = collide_trees(&a.tree, &b.tree, &poses[0], ContactMode::All);
        let title = doc.picture_title(c.pairs.len());
        let image = collision_picture(
            &a.mesh,
            &b.mesh,
            &poses[0],
            &c.pairs,
            &title,
            &args.look.options()?,
        )?;
        save_png(&image, path)?;
        wrote(
            path,
            &format!("{}x{} picture", image.width(), image.height()),
        );
    }
    if args.json {
        out_json(&doc)?;
    } else {
        out(&doc.to_text())?;
    }
    if !doc.checks_ok() {
        return Err(Failure::Input(Error::Input(
            "parry3d disagrees at a pose where the meshes are not within f32 rounding of touching"
                .into(),
        )));
    }
    Ok(())
}
