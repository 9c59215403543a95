//! `bvtool sdf`.

use super::output::{Outcome, out, out_json, wrote};
use bvtool::Error;
use bvtool::batch::sdf::{Normalise, SdfOptions, sample};
use bvtool::export::npy::{Array, Data, write_npz};
use bvtool::load::{LoadOptions, load};
use std::path::PathBuf;

/// Write signed-distance samples of a model for implicit-shape datasets
/// (DeepSDF-style) to an uncompressed .npz.
///
/// The model (its scene flattened to world space) is first normalised:
/// x' = (x − centre)·scale, into the unit sphere (default: the bounding
/// box's centre at the origin, the farthest vertex at distance 1) or the
/// cube [−1, 1]³, or left as it is; samples, distances and --sigma are in
/// that frame. Samples: --uniform points uniform in the bounding box grown
/// by --pad, --near points at a surface point (uniform by area) plus a
/// Gaussian of standard deviation --sigma on each axis, --surface points on
/// the surface (distance 0) with their triangle's normal. The same --seed
/// gives the same file. Signs are exact for a closed mesh and the
/// generalized winding number's for an open one (`sign_method`).
///
/// Arrays: points (n, 3), sdf (n,), kind (n,) uint8 (0 uniform, 1 near,
/// 2 surface), normals (n, 3) (NaN but for surface samples), centre (3,),
/// scale (1,), all float64 unless said.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The model file.
    file: PathBuf,
    /// The .npz to write.
    #[arg(short, long, value_name = "OUT.npz")]
    output: PathBuf,
    /// Uniform samples in the padded box (--uniform, --near and --surface
    /// together at most 100000000, checked before the model is read).
    #[arg(long, value_name = "N", default_value_t = 12_500)]
    uniform: usize,
    /// Near-surface samples.
    #[arg(long, value_name = "N", default_value_t = 237_500)]
    near: usize,
    /// On-surface samples with normals.
    #[arg(long, value_name = "N", default_value_t = 0)]
    surface: usize,
    /// The near samples' standard deviation, normalised units.
    #[arg(long, value_name = "S", default_value_t = 0.01, value_parser = non_negative)]
    sigma: f64,
    /// The uniform box's padding on every side, normalised units.
    #[arg(long, value_name = "P", default_value_t = 0.1, value_parser = non_negative)]
    pad: f64,
    /// The random stream's seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// sphere, cube or none.
    #[arg(long, value_name = "HOW", default_value = "sphere",
        value_parser = clap::builder::PossibleValuesParser::new(["sphere", "cube", "none"]))]
    normalise: String,
    /// Print a JSON summary instead of a line.
    #[arg(long)]
    json: bool,
}

/// A finite number ≥ 0.
fn non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v >= 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("{s}: expected a finite number >= 0")),
    }
}

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    const MAX_SAMPLES: usize = 100_000_000;
    let n = args
        .uniform
        .saturating_add(args.near)
        .saturating_add(args.surface);
    if n > MAX_SAMPLES {
        return Err(Error::Input(format!("{n} samples: at most {MAX_SAMPLES} a file")).into());
    }
    let scene = load(&args.file, opts)?;
    let mesh = scene.flatten();
    let options = SdfOptions {
        uniform: args.uniform,
        near: args.near,
        surface: args.surface,
        sigma: args.sigma,
        pad: args.pad,
        seed: args.seed,
        normalise: match args.normalise.as_str() {
            "cube" => Normalise::Cube,
            "none" => Normalise::None,
            _ => Normalise::Sphere,
        },
    };
    let start = std::time::Instant::now();
    let s = sample(&mesh, &options)
        .ok_or_else(|| Error::geometry(&args.file, "no triangle with area to sample"))?;
    let seconds = start.elapsed().as_secs_f64();
    let rows =
        |v: &[nalgebra::Point3<f64>]| Data::F64(v.iter().flat_map(|p| [p.x, p.y, p.z]).collect());
    let arrays = [
        Array {
            name: "points".into(),
            shape: vec![n, 3],
            data: rows(&s.points),
        },
        Array {
            name: "sdf".into(),
            shape: vec![n],
            data: Data::F64(s.sdf.clone()),
        },
        Array {
            name: "kind".into(),
            shape: vec![n],
            data: Data::U8(s.kind.clone()),
        },
        Array {
            name: "normals".into(),
            shape: vec![n, 3],
            data: Data::F64(s.normals.iter().flat_map(|v| [v.x, v.y, v.z]).collect()),
        },
        Array {
            name: "centre".into(),
            shape: vec![3],
            data: Data::F64(vec![s.centre.x, s.centre.y, s.centre.z]),
        },
        Array {
            name: "scale".into(),
            shape: vec![1],
            data: Data::F64(vec![s.scale]),
        },
    ];
    write_npz(&args.output, &arrays)?;
    wrote(&args.output, &format!("{n} signed-distance samples"));
    let inside = s.sdf.iter().filter(|&&d| d < 0.0).count();
    if args.json {
        out_json(&serde_json::json!({
            "file": args.file.display().to_string(),
            "output": args.output.display().to_string(),
            "samples": n,
            "inside": inside,
            "sign_method": s.sign_method,
            "normalise": args.normalise,
            "centre": [s.centre.x, s.centre.y, s.centre.z],
            "scale": s.scale,
            "seed": args.seed,
            "seconds": seconds,
        }))
    } else {
        out(&format!(
            "{}: {n} samples ({inside} inside; sign: {}), x' = (x - [{}, {}, {}])·{}, {:.2} s\n",
            args.file.display(),
            s.sign_method,
            s.centre.x,
            s.centre.y,
            s.centre.z,
            s.scale,
            seconds
        ))
    }
}
