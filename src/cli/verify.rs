//! `bvtool verify`.

use super::output::{Failure, Outcome, out, out_json, wrote};
use super::progress::Progress;
use super::{NodeFitArg, load_pair};
use bvtool::Error;
use bvtool::batch::verify::{poses, run as verify};
use bvtool::batch::verify_distance::run as verify_distance;
use bvtool::check::distance::PeerDistances;
use bvtool::load::LoadOptions;
use std::path::PathBuf;

/// Check bvtool against parry3d on many poses near the contact boundary
/// (with --distance: the minimum distance against brute force, parry3d and
/// FCL/coal figures).
///
/// Each pose is a uniform random rotation and direction, bisection along that direction to the
/// contact boundary, then a push in (even poses) or out (odd poses) by up to
/// 1% of the larger mesh size — so about half touch. Both engines answer
/// each pose; the table shows where they agree. A disagreement is accepted
/// only as a touching case within f32 rounding (moving B by a few f32 ulps
/// flips the exact answer); anything else is an error (exit 1).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Mesh A (stays at identity).
    a: PathBuf,
    /// Mesh B (placed by each pose).
    b: PathBuf,
    #[command(flatten)]
    node_fit: NodeFitArg,
    /// Number of poses.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    poses: u32,
    /// Random seed (the poses are deterministic for a seed).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Also write the generated poses to this JSON file (a list of
    /// `{"translation", "rotation"}`, readable by `collide --pose FILE`).
    #[arg(long)]
    write_poses: Option<PathBuf>,
    /// Check the minimum distance instead of contact: at every pose the
    /// tree's distance against brute force over every triangle pair (meshes
    /// up to about 25 million pairs), parry3d's f32 distance and, with
    /// --peers, FCL's and coal's. The verdict names who dissents; brute
    /// force is exact and settles it: exit 1 when brute force disagrees, or
    /// when it did not run and another reference disagrees.
    #[arg(long)]
    distance: bool,
    /// With --distance: the JSON Lines output of the peers' distance script
    /// (`{"pose": i, "engine": name, "distance": d}` per line, d ≤ 0 where
    /// the engine found contact), run on the poses that --write-poses wrote
    /// for the same --poses and --seed. A peer agrees within 1e-9 relative.
    #[arg(long, requires = "distance")]
    peers: Option<PathBuf>,
    /// Print the JSON document instead of the table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    let (a, b) = load_pair(&args.a, &args.b, opts, args.node_fit.fit)?;
    let poses = poses(&a, &b, args.poses as usize, args.seed);
    if let Some(path) = &args.write_poses {
        let json: Vec<_> = poses.iter().map(|p| p.to_json()).collect();
        let text = serde_json::to_string_pretty(&json).map_err(|e| Error::Input(e.to_string()))?;
        bvtool::files::write_atomic(path, (text + "\n").as_bytes())?;
        wrote(path, &format!("{} poses", poses.len()));
    }
    if args.distance {
        let peers = args.peers.as_deref().map(PeerDistances::read).transpose()?;
        let doc = Progress::over(poses.len(), "poses", |tick| {
            verify_distance(&a, &b, &poses, args.seed, peers.as_ref(), tick)
        })?;
        if args.json {
            out_json(&doc)?;
        } else {
            out(&doc.to_text())?;
        }
        if let Some(why) = doc.failure() {
            return Err(Failure::Input(Error::Input(why)));
        }
        return Ok(());
    }
    let doc = Progress::over(poses.len(), "poses", |tick| {
        verify(&a, &b, &poses, args.seed, tick)
    })?;
    if args.json {
        out_json(&doc)?;
    } else {
        out(&doc.to_text())?;
    }
    if doc.unexplained() > 0 {
        return Err(Failure::Input(Error::Input(format!(
            "{} poses where parry3d disagrees and the meshes are not within f32 rounding of touching",
            doc.unexplained()
        ))));
    }
    Ok(())
}
