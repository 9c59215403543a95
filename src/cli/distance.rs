//! `bvtool distance`.

use super::collide::clearance as non_negative;
use super::render::options;
use super::{load_pair, poses_from, print_json};
use bvtool::Error;
use bvtool::load::LoadOptions;
use bvtool::query::DistanceOptions;
use bvtool::render::compose::distance_picture;
use bvtool::render::save_png;
use bvtool::report::distance::{DistanceRun, run as measure};
use nalgebra::Point3;
use std::path::PathBuf;

/// How far apart are two meshes? Mesh A stays at identity; mesh B is placed
/// by each pose. Reports the minimum distance between their surfaces, the
/// closest point on each (both in A's frame) and the two closest triangles,
/// named as `collide --all-pairs` names them. When the meshes touch or
/// intersect the distance is 0 and they are reported as touching (decided
/// exactly).
///
/// The OBB trees are searched nearest-first: a pair of boxes is skipped only
/// when a proven lower bound on its distance (the widest gap over the 15
/// separating axes) cannot beat the best distance found. Triangle distances
/// are computed in f64 after an exact intersection test; each answer carries
/// its rounding bound (64 ulps of the largest coordinate involved), within
/// which it equals the exact minimum over the f64 triangles.
///
/// POSE is as for `bvtool collide`: inline `x,y,z`, `x,y,z,rx,ry,rz`
/// (degrees, about X then Y then Z of A's frame) or `x,y,z,qx,qy,qz,qw`, or
/// a JSON file of poses `{"translation":[x,y,z],"rotation":[qx,qy,qz,qw]}`.
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
    /// Stop when the answer is within this fraction of the minimum (as
    /// FCL's rel_err): distance ≤ (1 + REL)·minimum + ABS. Default 0: exact.
    #[arg(long, value_name = "REL", default_value_t = 0.0, value_parser = non_negative)]
    rel_err: f64,
    /// Stop when the answer is within this distance of the minimum (model
    /// units, as FCL's abs_err). Default 0: exact.
    #[arg(long, value_name = "ABS", default_value_t = 0.0, value_parser = non_negative)]
    abs_err: f64,
    /// Also compute the distance by brute force over every triangle pair
    /// (meshes up to about 25 million pairs) and with parry3d (f32), and say
    /// whether they agree; a disagreement is an error (exit 1).
    #[arg(long)]
    check: bool,
    /// Time each pose N times and report the median (`query_us`).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    repeat: u32,
    /// Draw A and B at the first pose, the closest triangles highlighted and
    /// the segment between the closest points, to this PNG.
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
    let poses = poses_from(&args.pose)?;
    let (a, b) = load_pair(&args.a, &args.b, opts)?;
    let doc = measure(
        &a,
        &b,
        &poses,
        &DistanceRun {
            tolerance: DistanceOptions {
                rel_err: args.rel_err,
                abs_err: args.abs_err,
            },
            check: args.check,
            repeat: args.repeat as usize,
        },
    )?;
    if let Some(path) = &args.render {
        let first = &doc.poses[0];
        let image = distance_picture(
            &a.mesh,
            &b.mesh,
            &poses[0],
            first.triangle_indices,
            (Point3::from(first.point_a), Point3::from(first.point_b)),
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
            "brute force or parry3d disagrees with the tree's distance beyond their tolerances"
                .into(),
        ));
    }
    Ok(())
}
