//! `bvtool fit`.

use super::batch::{self, Files};
use super::output::{Failure, Outcome};
use bvtool::Error;
use bvtool::fit::polytope::budget_hull::{MAX_BUDGET, MIN_BUDGET};
use bvtool::fit::polytope::decompose::{
    DecomposeOptions, MAX_PART_VERTICES, MAX_PARTS, MAX_RESOLUTION, MIN_RESOLUTION,
};
use bvtool::fit::{ObbMethod, ShapeSpec, SphereMethod};
use bvtool::load::LoadOptions;
use bvtool::volumes::{FileVolumes, FitOptions, Frame};

/// Fit bounding volumes to each file: the AABB, an oriented box and a sphere,
/// with the convex hull's volume as the yardstick.
///
/// AABB: min/max over the vertices (Direct3D's D3DXComputeBoundingBox rule).
/// OBB methods: `pca` (vertex covariance, as DirectXMath), `hull` (area-weighted
/// covariance of the convex hull's triangles, as RAPID), `fast` (near-minimal
/// volume, quickly: hull-face-flush minimum rectangles, then a local search
/// over rotations), `tight` (the minimum volume over every orientation, up to
/// rounding: O'Rourke's theorem, Jylänki's exact algorithm; where that
/// search would pass its work limits, as on finely tessellated cylinders,
/// searched on a 200-point kernel and grown to every point, its certified
/// bound over the minimum reported). Sphere methods: `centroid` (D3DXComputeBoundingSphere: mean of
/// the vertices, radius to the farthest), `ritter` (DirectXMath
/// BoundingSphere::CreateFromPoints), `exact` (the minimum enclosing sphere).
/// Every volume contains every vertex it was fitted to. Boxes are reported
/// with half extents; rotations as quaternions (x, y, z, w). A point cloud
/// (an OBJ file without faces) is bounded by its points.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    files: Files,
    /// OBB method, or `all` for every method (reported under `obbs`).
    #[arg(long, default_value = "tight", value_parser = ["pca", "hull", "fast", "tight", "all"])]
    obb: String,
    /// Sphere method, or `all` for every method (reported under `spheres`).
    #[arg(long, default_value = "exact", value_parser = ["centroid", "ritter", "exact", "all"])]
    sphere: String,
    /// Also fit each mesh instance (node, mesh, primitive) separately.
    #[arg(long)]
    per_mesh: bool,
    /// Frame of the per-mesh volumes: `world` (node transforms applied) or
    /// `local` (each instance in its own frame; implies --per-mesh). The
    /// file's own volumes are always in world space.
    #[arg(long, value_enum, default_value = "world")]
    frame: Frame,
    /// Fit every vertex of the position data, referenced by a triangle or not
    /// (as D3DX and the glTF accessor min/max do). Default: only the vertices
    /// the triangles use.
    #[arg(long)]
    all_vertices: bool,
    /// Recompute the AABB and the centroid sphere with parry3d and report
    /// whether they agree; a disagreement is an error (exit 1).
    #[arg(long)]
    check: bool,
    /// Also fit a k-DOP (the slabs along k/2 fixed directions, as Unreal
    /// names them: 6, 10x, 10y, 10z, 14, 18, 26), once in the mesh frame and
    /// once in the frame of the reported OBB; with its polytope's vertices
    /// and faces in --json.
    #[arg(long, value_name = "K", value_parser = ["6", "10x", "10y", "10z", "14", "18", "26"])]
    kdop: Option<String>,
    /// Also fit a near-minimal capsule (radius and segment; the axis
    /// searched from the PCA and box axes and 13 fixed directions). Contains
    /// every vertex; minimal among the axes searched.
    #[arg(long)]
    capsule: bool,
    /// Also fit a near-minimal cylinder (as --capsule).
    #[arg(long)]
    cylinder: bool,
    /// Also fit a convex hull of at most N vertices and N faces (default 255,
    /// PhysX's and Unity's limit; 64 for a GPU profile; 8 to 1024): the box
    /// along the OBB's axes cut by the exact hull's supporting planes,
    /// deepest first, while the budget holds. Contains every vertex; reports
    /// the volume it gives up over the exact hull.
    #[arg(long, value_name = "N", num_args = 0..=1,
          value_parser = clap::value_parser!(u16).range(MIN_BUDGET as i64..=MAX_BUDGET as i64))]
    hull_max: Option<Option<u16>>,
    /// Also name the smallest primitive by volume (Unreal's MinVolume) among
    /// the AABB, the OBB, the sphere, the capsule and the cylinder (fitting
    /// the last two), per file and with --per-mesh per mesh instance.
    #[arg(long)]
    best: bool,
    /// Also decompose the whole scene (world frame) into convex parts, a
    /// collider for a concave dynamic body: parry3d's V-HACD, then every
    /// vertex it left out added to the nearest part (so the parts contain
    /// every vertex) and each part cut to the vertex budget. Reports each
    /// part and the parts' volume against the convex hull's and, for a
    /// closed mesh, the mesh's. Deterministic.
    #[arg(long)]
    decompose: bool,
    /// With --decompose: at most N parts (1 to 256).
    #[arg(long, value_name = "N", default_value_t = 16, requires = "decompose",
          value_parser = clap::value_parser!(u32).range(1..=MAX_PARTS as i64))]
    max_hulls: u32,
    /// With --decompose: at most N vertices and N faces a part (8 to 255,
    /// PhysX's and Unity's limit).
    #[arg(long, value_name = "N", default_value_t = 64, requires = "decompose",
          value_parser = clap::value_parser!(u16).range(MIN_BUDGET as i64..=MAX_PART_VERTICES as i64))]
    max_hull_vertices: u16,
    /// With --decompose: V-HACD's voxels along the longest side (16 to
    /// 256; finer is slower and follows concavities more closely).
    #[arg(long, value_name = "N", default_value_t = 64, requires = "decompose",
          value_parser = clap::value_parser!(u32).range(MIN_RESOLUTION as i64..=MAX_RESOLUTION as i64))]
    resolution: u32,
    /// Also fit these shapes, comma-separated, in the shape grammar every
    /// command shares (the same fits as the flags): `box:METHOD` and
    /// `sphere:METHOD` (the reported method), `capsule`, `cylinder`,
    /// `kdopK` or `kdop:K` (as --kdop K), `hull` or `hull:N` (as --hull-max
    /// N), `decompose` (as --decompose), `best` (as --best); `aabb`, `box`
    /// and `sphere` are always reported.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = super::parse_shape)]
    shapes: Vec<ShapeSpec>,
    /// Also measure each volume's air: the largest distance from its
    /// surface to the mesh, which a runtime colliding with the volume
    /// takes for the model. Shown as `air +bound`: the true largest
    /// distance is at least air and at most air + bound (searched until the
    /// bound is 1/1000 of the model's diagonal), in the model's units.
    #[arg(long)]
    air: bool,
    /// Print one JSON document `{"files": [...]}` (schema: docs/json.md).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    lines: batch::JsonLines,
}

impl Args {
    /// Whether `--check` was given.
    pub fn check(&self) -> bool {
        self.check
    }
}

fn methods<T: Copy + std::str::FromStr>(name: &str, all: &[T]) -> Vec<T> {
    if name == "all" {
        all.to_vec()
    } else {
        name.parse().ok().into_iter().collect()
    }
}

/// The shapes the flags `--capsule`, `--cylinder`, `--kdop K`, `--hull-max
/// [N]`, `--best` and `--decompose` ask for, as specs (`--shapes` adds its
/// own after them).
fn shape_flags(args: &Args) -> Vec<ShapeSpec> {
    let kdop = args.kdop.as_deref().map(|k| ShapeSpec::Kdop {
        kind: k.parse().expect("clap checked"),
        oriented: false,
    });
    let flags = [
        args.capsule.then_some(ShapeSpec::Capsule),
        args.cylinder.then_some(ShapeSpec::Cylinder),
        kdop,
        args.hull_max.map(|n| ShapeSpec::Hull(n.map(usize::from))),
        args.best.then_some(ShapeSpec::Best),
        args.decompose.then_some(ShapeSpec::Decompose),
    ];
    flags.into_iter().flatten().collect()
}

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    let files = args.files.expand()?;
    let mut fit = FitOptions {
        obb_methods: methods(
            &args.obb,
            &[
                ObbMethod::Tight,
                ObbMethod::Fast,
                ObbMethod::Hull,
                ObbMethod::Pca,
            ],
        ),
        sphere_methods: methods(
            &args.sphere,
            &[
                SphereMethod::Exact,
                SphereMethod::Ritter,
                SphereMethod::Centroid,
            ],
        ),
        all_methods: args.obb == "all" || args.sphere == "all",
        all_vertices: args.all_vertices,
        per_mesh: args.per_mesh || args.frame == Frame::Local,
        frame: args.frame,
        check: args.check,
        shapes: shape_flags(args),
        decompose_options: DecomposeOptions {
            max_hulls: args.max_hulls,
            max_vertices: args.max_hull_vertices.into(),
            resolution: args.resolution,
        },
        air: args.air,
    };
    fit.add_shapes(&args.shapes);
    let work = |f: &str, s: &_| FileVolumes::new(f, s, &fit);
    let mut disagreeing = None;
    let mut keep = |r: &FileVolumes| {
        if !r.checks_agree() && disagreeing.is_none() {
            disagreeing = Some(r.file.clone());
        }
    };
    if args.lines.jsonl {
        batch::stream(&files, opts, work, keep)?;
    } else {
        let results = batch::process(&files, opts, work);
        results
            .iter()
            .filter_map(batch::Done::report)
            .for_each(&mut keep);
        batch::report(&files, results, args.json, FileVolumes::to_text)?;
    }
    match disagreeing {
        None => Ok(()),
        Some(file) => Err(Failure::Input(Error::Input(format!(
            "{file}: parry3d disagrees with a fitted volume (see the check lines)"
        )))),
    }
}
