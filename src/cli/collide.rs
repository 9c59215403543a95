//! `bvtool collide`.

use super::render::options;
use super::{load_pair, print_json};
use bvtool::load::LoadOptions;
use bvtool::query::{ContactMode, collide as collide_trees};
use bvtool::render::compose::collision_picture;
use bvtool::render::save_png;
use bvtool::report::collide::{CollideOptions, run as collide};
use bvtool::{Error, Pose};
use std::path::PathBuf;

/// Do two meshes touch? Mesh A stays at identity; mesh B is placed by each
/// pose. Touching counts as contact. The exit code is 0 whatever the answer;
/// the answer is in the output.
///
/// Each file's scene is flattened into one mesh with one OBB tree. The trees
/// are descended together with the 15-axis separating-axis test; leaf
/// triangles are decided exactly (robust orient3d/orient2d predicates on f64
/// coordinates).
///
/// POSE is either inline numbers — `x,y,z` (translation), `x,y,z,rx,ry,rz`
/// (plus rotation in degrees, applied about X, then Y, then Z of A's frame)
/// or `x,y,z,qx,qy,qz,qw` (plus a unit quaternion) — or the path of a JSON
/// file holding one pose or a list of poses
/// `{"translation":[x,y,z],"rotation":[qx,qy,qz,qw]}` (JSON Lines too).
/// B's vertices map v → R·v + t into A's frame.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Mesh A (stays at identity).
    a: PathBuf,
    /// Mesh B (placed by each pose).
    b: PathBuf,
    /// Where B sits in A's frame (inline or a file of poses; repeatable).
    /// Without it, B is at identity.
    #[arg(long, allow_hyphen_values = true)]
    pose: Vec<String>,
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
    /// Draw A and B at the first pose, intersecting triangles highlighted, to this PNG.
    #[arg(long)]
    render: Option<PathBuf>,
    /// View of the picture: `iso`, `front`, `side`, `top` or `grid`.
    #[arg(long, default_value = "iso", requires = "render")]
    view: String,
    /// Size of the picture, WxH.
    #[arg(long, default_value = "1024x768", requires = "render")]
    size: String,
    /// Print one JSON document `{"a", "b", "build_ms", "mode", "poses": [...]}`.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, opts: &LoadOptions) -> Result<(), Error> {
    let mut poses = Vec::new();
    for spec in &args.pose {
        poses.extend(Pose::parse_spec(spec)?);
    }
    if poses.is_empty() {
        poses.push(Pose::identity());
    }
    let (a, b) = load_pair(&args.a, &args.b, opts)?;
    let doc = collide(
        &a,
        &b,
        &poses,
        &CollideOptions {
            first_contact: args.first_contact,
            list_pairs: args.all_pairs,
            check: args.check,
        },
    )?;
    if let Some(path) = &args.render {
        let c = collide_trees(&a.tree, &b.tree, &poses[0], ContactMode::All);
        let image = collision_picture(
            &a.mesh,
            &b.mesh,
            &poses[0],
            &c.pairs,
            &options(&args.view, &args.size)?,
        )?;
        save_png(&image, path)?;
    }
    if args.json {
        print_json(&doc)?;
    } else {
        print!("{}", doc.to_text());
    }
    if !doc.checks_ok() {
        return Err(Error::Input(
            "parry3d disagrees at a pose where the meshes are not within f32 rounding of touching"
                .into(),
        ));
    }
    Ok(())
}
