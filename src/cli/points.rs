//! `bvtool points` and `bvtool rays`.

use super::output::{Outcome, out_json, out_lines, wrote};
use super::stream::SummaryLine;
use bvtool::Error;
use bvtool::batch::collide::CHUNK;
use bvtool::export::npy::{Array, Data, write_npy};
use bvtool::load::points::read_rows;
use bvtool::load::{LoadOptions, load};
use bvtool::query::point::{PointTree, each};
use bvtool::query::ray::{self, Ray};
use nalgebra::{Point3, Vector3};
use std::path::PathBuf;

/// Answer point queries on a model: closest points, distances, signed
/// distances, inside tests or winding numbers.
///
/// POINTS is a table of (n, 3) coordinates in the model's world frame
/// (.npy float64/float32, .csv or .jsonl; see `docs/json.md`). Results go
/// to -o (.npy) or, with --json, to stdout. closest: (n, 9) rows x, y, z,
/// distance, triangle, three barycentric coordinates, feature (0 face,
/// 1-3 edge, 4-6 corner); distance, signed, winding: (n,); contains:
/// (n,) bool. Inside is a winding number above 1/2: exact on a closed
/// mesh, the generalized winding number on an open one.
#[derive(clap::Args, Debug)]
pub struct PointArgs {
    /// The model file.
    file: PathBuf,
    /// The points.
    points: PathBuf,
    /// closest, distance, signed, contains or winding.
    #[arg(long, default_value = "signed",
        value_parser = clap::builder::PossibleValuesParser::new(["closest", "distance", "signed", "contains", "winding"]))]
    query: String,
    #[command(flatten)]
    to: Destination,
}

/// Cast rays at a model: first hit, any hit, every hit or the count.
///
/// RAYS is a table of (n, 6) rows: origin x, y, z, direction x, y, z (any
/// non-zero length; t is in its units), in the model's world frame. The
/// ray-triangle test is watertight. first: (n, 8) rows t (inf on a miss),
/// triangle (-1), three barycentric coordinates, unit normal (NaN on a
/// miss); any: (n,) bool; count: (n,) int64; all: (k, 3) rows ray, t,
/// triangle, by ray then t.
#[derive(clap::Args, Debug)]
pub struct RayArgs {
    /// The model file.
    file: PathBuf,
    /// The rays.
    rays: PathBuf,
    /// first, any, all or count.
    #[arg(long, default_value = "first",
        value_parser = clap::builder::PossibleValuesParser::new(["first", "any", "all", "count"]))]
    mode: String,
    /// Hits before this t are ignored.
    #[arg(long, default_value_t = 0.0)]
    t_min: f64,
    /// Hits past this t are ignored.
    #[arg(long, default_value_t = f64::INFINITY)]
    t_max: f64,
    /// Cast on the scene's instances without flattening it: one tree per
    /// distinct mesh, shared by its instances (for scenes of many copies).
    /// The answers are the flattened scene's, but a ray exactly through a
    /// seam between two instances is decided in each one's own frame (see
    /// docs/algorithms.md).
    #[arg(long)]
    instanced: bool,
    #[command(flatten)]
    to: Destination,
}

/// Where the answers go.
#[derive(clap::Args, Debug)]
struct Destination {
    /// Write the answers to this .npy.
    #[arg(
        short,
        long,
        value_name = "OUT.npy",
        required_unless_present_any = ["json", "jsonl"]
    )]
    output: Option<PathBuf>,
    /// Print the answers as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// Print the answers as JSON Lines on stdout: `{"index", "row"}` per
    /// input row, in order, then `{"summary": {"file", "query", "rows",
    /// ...}}` (no document of every row is held).
    #[arg(long, conflicts_with = "json")]
    jsonl: bool,
}

/// Row `i` of a table of `width` columns (0: a vector) as JSON; a number
/// that is not finite is `null`.
fn row(data: &Data, width: usize, i: usize) -> serde_json::Value {
    let cell = |k: usize| match data {
        Data::F64(v) => serde_json::json!(v[k].is_finite().then_some(v[k])),
        Data::I64(v) => serde_json::json!(v[k]),
        Data::U8(v) => serde_json::json!(v[k]),
        Data::Bool(v) => serde_json::json!(v[k]),
    };
    match width {
        0 => cell(i),
        w => serde_json::Value::Array((i * w..(i + 1) * w).map(cell).collect()),
    }
}

/// One row's line of `--jsonl`.
#[derive(serde::Serialize)]
struct RowLine {
    index: usize,
    row: serde_json::Value,
}

impl Destination {
    /// Writes the table (`width` 0 for a vector) or prints it as JSON.
    fn send(
        &self,
        file: &std::path::Path,
        what: &str,
        extra: serde_json::Value,
        width: usize,
        data: Data,
    ) -> Outcome {
        let rows = match &data {
            Data::F64(v) => v.len(),
            Data::I64(v) => v.len(),
            Data::U8(v) => v.len(),
            Data::Bool(v) => v.len(),
        } / width.max(1);
        if let Some(path) = &self.output {
            let shape = if width == 0 {
                vec![rows]
            } else {
                vec![rows, width]
            };
            write_npy(
                path,
                &Array {
                    name: what.into(),
                    shape,
                    data: data.clone(),
                },
            )?;
            wrote(path, &format!("{rows} {what} rows"));
        }
        let head = serde_json::json!({ "file": file.display().to_string(), "query": what });
        let with = |mut doc: serde_json::Value, key: &str, value: serde_json::Value| {
            if let Some(d) = doc.as_object_mut() {
                d.insert(key.into(), value);
                if let serde_json::Value::Object(e) = &extra {
                    d.extend(e.clone());
                }
            }
            doc
        };
        if self.json {
            let values = (0..rows).map(|i| row(&data, width, i)).collect();
            out_json(&with(head.clone(), "rows", values))?;
        }
        if self.jsonl {
            for first in (0..rows).step_by(CHUNK) {
                let lines: Vec<RowLine> = (first..rows.min(first + CHUNK))
                    .map(|index| RowLine {
                        index,
                        row: row(&data, width, index),
                    })
                    .collect();
                out_lines(&lines)?;
            }
            let summary = with(head, "rows", rows.into());
            out_lines(&[SummaryLine { summary }])?;
        }
        Ok(())
    }
}

fn tree_of(file: &std::path::Path, opts: &LoadOptions) -> Result<PointTree, Error> {
    let mesh = load(file, opts)?.flatten();
    if mesh.triangles.is_empty() {
        return Err(Error::geometry(file, "no triangles to query"));
    }
    Ok(PointTree::build(&mesh))
}

pub fn run_points(args: &PointArgs, opts: &LoadOptions) -> Outcome {
    let values = read_rows(&args.points, 3)?;
    let pts: Vec<Point3<f64>> = values
        .chunks_exact(3)
        .map(|c| Point3::new(c[0], c[1], c[2]))
        .collect();
    let tree = tree_of(&args.file, opts)?;
    let extra = serde_json::json!({ "sign_method": tree.sign_method().name() });
    let (width, data) = match args.query.as_str() {
        "closest" => {
            let found = each(&pts, |p| tree.closest(p).expect("a non-empty tree"));
            let rows = found.iter().flat_map(|c| {
                let b = c.barycentric;
                [
                    c.point.x,
                    c.point.y,
                    c.point.z,
                    c.distance,
                    c.triangle as f64,
                    b[0],
                    b[1],
                    b[2],
                    c.feature.code() as f64,
                ]
            });
            (9, Data::F64(rows.collect()))
        }
        "distance" => (0, Data::F64(each(&pts, |p| tree.distance(p)))),
        "contains" => (0, Data::Bool(each(&pts, |p| tree.contains(p)))),
        "winding" => (0, Data::F64(each(&pts, |p| tree.winding_number(p).value))),
        _ => (0, Data::F64(each(&pts, |p| tree.signed_distance(p)))),
    };
    args.to.send(&args.file, &args.query, extra, width, data)
}

pub fn run_rays(args: &RayArgs, opts: &LoadOptions) -> Outcome {
    if args.t_min.is_nan() || args.t_max.is_nan() || args.t_min > args.t_max {
        return Err(Error::Input(format!(
            "--t-min {} --t-max {}: expected t-min <= t-max",
            args.t_min, args.t_max
        ))
        .into());
    }
    let values = read_rows(&args.rays, 6)?;
    let rays: Vec<Ray> = values
        .chunks_exact(6)
        .map(|c| Ray {
            origin: Point3::new(c[0], c[1], c[2]),
            direction: Vector3::new(c[3], c[4], c[5]),
            t_min: args.t_min,
            t_max: args.t_max,
        })
        .collect();
    if let Some(i) = rays.iter().position(|r| r.direction == Vector3::zeros()) {
        return Err(Error::load(&args.rays, format!("row {i}: zero direction")).into());
    }
    // The flattened scene's tree, or the instances' shared trees.
    let (flat, instanced) = match args.instanced {
        false => (Some(tree_of(&args.file, opts)?), None),
        true => {
            let scene = load(&args.file, opts)?;
            let rays = ray::InstancedRays::build(&scene);
            if rays.tree_count() == 0 {
                return Err(Error::geometry(&args.file, "no triangles to query").into());
            }
            (None, Some(rays))
        }
    };
    let first = |r: &Ray| match (&flat, &instanced) {
        (Some(f), _) => ray::first_hit(&f.tree, r),
        (_, Some(i)) => i.first_hit(r),
        _ => None,
    };
    let every = |r: &Ray| match (&flat, &instanced) {
        (Some(f), _) => ray::all_hits(&f.tree, r),
        (_, Some(i)) => i.all_hits(r),
        _ => Vec::new(),
    };
    let any = |r: &Ray| match (&flat, &instanced) {
        (Some(f), _) => ray::any_hit(&f.tree, r),
        (_, Some(i)) => i.any_hit(r),
        _ => false,
    };
    let count = |r: &Ray| match (&flat, &instanced) {
        (Some(f), _) => ray::count_hits(&f.tree, r),
        (_, Some(i)) => i.count_hits(r),
        _ => 0,
    };
    let (width, data) = match args.mode.as_str() {
        "any" => (0, Data::Bool(each(&rays, any))),
        "count" => (0, Data::I64(each(&rays, |r| count(r) as i64))),
        "all" => {
            let hits = each(&rays, every);
            let rows = hits.iter().enumerate().flat_map(|(i, hs)| {
                hs.iter()
                    .flat_map(move |h| [i as f64, h.t, h.triangle as f64])
            });
            (3, Data::F64(rows.collect()))
        }
        _ => {
            let hits = each(&rays, first);
            let rows = hits.iter().flat_map(|h| match h {
                Some(h) => {
                    let b = h.barycentric;
                    [
                        h.t,
                        h.triangle as f64,
                        b[0],
                        b[1],
                        b[2],
                        h.normal.x,
                        h.normal.y,
                        h.normal.z,
                    ]
                }
                None => [
                    f64::INFINITY,
                    -1.0,
                    f64::NAN,
                    f64::NAN,
                    f64::NAN,
                    f64::NAN,
                    f64::NAN,
                    f64::NAN,
                ],
            });
            (8, Data::F64(rows.collect()))
        }
    };
    let extra = serde_json::json!({ "instanced": args.instanced });
    args.to.send(&args.file, &args.mode, extra, width, data)
}
