//! `bvtool sdf`.

use super::batch::{Done, Files, report};
use super::output::{Failure, Outcome, out, out_json, wrote};
use super::progress::Progress;
use bvtool::Error;
use bvtool::batch::sdf::{Normalise, SdfOptions, sample};
use bvtool::export::npy::{Array, Data, write_npz};
use bvtool::load::{LoadOptions, load};
use serde::Serialize;
use std::path::{Path, PathBuf};

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
///
/// Datasets: given a folder, a pattern or several files, -o is a folder and
/// each model's samples go to its path below the folder named (or the
/// folders' common one) with `.npz` for its extension
/// (`shapenet/03001627/x/model.obj` → `OUT/03001627/x/model.npz`), one model at a time (each sampled on every
/// core), the same --seed for each; a model that fails is reported in its
/// place and the others still run (exit 1 at the end).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    files: Files,
    /// The .npz to write (one model file), or the folder to write one .npz
    /// per model into (a folder, a pattern or several files).
    #[arg(short, long, value_name = "OUT.npz|DIR")]
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
    let files = args.files.expand()?;
    if let [one] = &files[..]
        && args.files.is_one_file()
    {
        let summary = sample_one(one, &args.output, args, opts)?;
        return match args.json {
            true => out_json(&summary),
            false => out(&summary.line()),
        };
    }
    let outputs = output_paths(&files, &args.files, &args.output)?;
    let bar = Progress::new(files.len(), "files");
    let results: Vec<_> = files
        .iter()
        .zip(&outputs)
        .map(|(f, o)| {
            let r = std::fs::create_dir_all(o.parent().unwrap_or(Path::new(".")))
                .map_err(|source| Error::Write {
                    path: o.to_path_buf(),
                    source,
                })
                .and_then(|()| sample_one(f, o, args, opts));
            bar.tick();
            r
        })
        .collect();
    bar.finish();
    let results = results.into_iter().map(Done::from).collect();
    report(&files, results, args.json, Summary::line)
}

/// Where each model's samples go: its path below the folder the arguments
/// share (a folder argument itself, else the folder a file or pattern is
/// in), under `dir`, with `.npz` for its extension; refused before any work
/// when two models would write one file.
fn output_paths(files: &[PathBuf], named: &Files, dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let bases: Vec<PathBuf> = named.bases();
    let mut common = bases[0].clone();
    while !bases.iter().all(|f| f.starts_with(&common)) {
        if !common.pop() {
            break;
        }
    }
    let mut seen = std::collections::HashMap::new();
    let mut outputs = Vec::with_capacity(files.len());
    for f in files {
        let below = f
            .strip_prefix(&common)
            .ok()
            .filter(|b| !b.as_os_str().is_empty())
            .unwrap_or_else(|| Path::new(f.file_name().unwrap_or(f.as_os_str())));
        let o = dir.join(below.with_extension("npz"));
        if let Some(first) = seen.insert(o.clone(), f) {
            return Err(Failure::Usage(format!(
                "{} and {} would both write {}",
                first.display(),
                f.display(),
                o.display()
            )));
        }
        outputs.push(o);
    }
    Ok(outputs)
}

/// One model's samples, as printed.
#[derive(Debug, Serialize)]
struct Summary {
    file: String,
    output: String,
    samples: usize,
    inside: usize,
    sign_method: &'static str,
    normalise: String,
    centre: [f64; 3],
    scale: f64,
    seed: u64,
    seconds: f64,
}

impl Summary {
    fn line(&self) -> String {
        let [x, y, z] = self.centre;
        format!(
            "{}: {} samples ({} inside; sign: {}), x' = (x - [{x}, {y}, {z}])·{}, {:.2} s\n",
            self.file, self.samples, self.inside, self.sign_method, self.scale, self.seconds
        )
    }
}

/// Samples one model into `output`.
fn sample_one(
    file: &Path,
    output: &Path,
    args: &Args,
    opts: &LoadOptions,
) -> Result<Summary, Error> {
    let n = args.uniform + args.near + args.surface;
    let scene = load(file, opts)?;
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
        .ok_or_else(|| Error::geometry(file, "no triangle with area to sample"))?;
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
    write_npz(output, &arrays)?;
    wrote(output, &format!("{n} signed-distance samples"));
    let inside = s.sdf.iter().filter(|&&d| d < 0.0).count();
    Ok(Summary {
        file: file.display().to_string(),
        output: output.display().to_string(),
        samples: n,
        inside,
        sign_method: s.sign_method,
        normalise: args.normalise.clone(),
        centre: [s.centre.x, s.centre.y, s.centre.z],
        scale: s.scale,
        seed: args.seed,
        seconds,
    })
}
