//! `bvtool clash`.

use super::collide::non_negative;
use super::distance::positive;
use super::output::{Failure, Outcome, out, out_json, wrote};
use super::render::Look;
use bvtool::clash::{
    ClashDepth, ClashOptions, ClashScene, Grouping, SelfIntersections, local_meshes,
    self_intersections_at_most,
};
use bvtool::load::{LoadOptions, TriangleLimit, load};
use bvtool::query::depth::DepthSettings;
use bvtool::render::clash::{clash_picture, self_intersection_picture};
use bvtool::render::save_png;
use bvtool::report::FilesDoc;
use bvtool::report::clash::{ADJACENCY, ClashDoc, SelfFileJson, SelfMeshJson, TimeMs};
use bvtool::tree::AabbTree;
use bvtool::{Error, Scene, TriMesh, TriangleSource};
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// Which parts of a model collide with which — or, with --self, where a mesh
/// cuts through itself.
///
/// Every mesh instance of every file's scene is a part (glTF: a node's mesh;
/// OBJ: an object or group; STL: a solid), named by file, node and mesh;
/// --by changes the grouping. Pairs of triangles inside one part are never
/// reported (that is --self). Each clashing part pair has a kind:
///
/// intersecting: some triangle pair crosses (each triangle has corners
/// strictly on both sides of the other's plane).
///
/// touching: triangles meet, but none cross (coplanar contact, a corner or
/// edge resting on a face); --ignore-touching leaves these out.
///
/// contained: the surfaces do not meet and one part lies inside the other
/// (decided for closed outer parts only: an open surface has no inside).
///
/// clearance: with --clearance D, the parts do not meet but some triangles
/// come within D of each other (distances in f64 with a stated rounding
/// bound; meeting is decided exactly).
///
/// Each intersecting and contained pair gets its severity: the protrusion
/// depth, how far the deepest point of one part's surface inside the other
/// lies from the other's surface (faces searched, not only vertices, to a
/// certified tolerance), with that point, its nearest point on the other
/// part and the direction that separates them; the clashes are listed
/// deepest first. --min-depth D reports pairs certainly shallower than D as
/// touching (a hard clash with tolerance).
///
/// Every decision is exact (robust orient3d/orient2d on f64 coordinates).
/// One OBB tree is built per mesh geometry and shared by all its instances;
/// a node transform with scale or shear gets the tree of its own scaled
/// geometry. Times are reported as load, build and query.
///
/// With --self, the triangle pairs of each mesh (in its own frame; --whole:
/// the flattened scene in world space) that intersect, with CGAL's adjacency
/// rules: neighbours sharing an edge count only when coplanar and folded
/// over each other, neighbours sharing only a vertex only when they meet
/// anywhere else, and each degenerate (zero-area) triangle is reported once,
/// as a pair with itself. Neighbours are found by position: vertices with
/// equal coordinates are the same vertex, whatever their index.
///
/// Exit codes: 0 success (whatever was found), 1 bad input, 2 usage, 3 a clash
/// or self-intersection was found and --fail-on-clash was given.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Model files (glTF, GLB, OBJ, STL) or folders (read recursively for
    /// those formats, in path order) or quoted patterns ('parts/*.stl');
    /// all their scenes are placed together (with --self: each file alone).
    #[arg(required = true, value_name = "FILE|FOLDER")]
    files: Vec<PathBuf>,
    /// Keep only the files found in folders that match this pattern (as
    /// for the per-file commands: '*.obj', 'robots/**/*.stl'; case ignored).
    #[arg(long, value_name = "PATTERN")]
    glob: Option<String>,
    /// Report the self-intersections of each mesh instead (each file alone).
    #[arg(long = "self")]
    self_intersections: bool,
    /// With --self: test the whole flattened scene of each file as one mesh
    /// (world space), not each mesh in its own frame.
    #[arg(long, requires = "self_intersections")]
    whole: bool,
    /// What a part is: `instance` (a node's mesh), `primitive` (each
    /// primitive of each instance), `node` (a node with all its GPU
    /// instances) or `file`.
    #[arg(
        long,
        default_value = "instance",
        conflicts_with = "self_intersections"
    )]
    by: String,
    /// Leave out part pairs that only touch.
    #[arg(long, conflicts_with = "self_intersections")]
    ignore_touching: bool,
    /// Also report part pairs that do not meet but come within this distance
    /// (model units), with their least triangle distance.
    #[arg(long, value_name = "D", conflicts_with = "self_intersections", value_parser = non_negative)]
    clearance: Option<f64>,
    /// List every intersecting triangle pair (and with --self the faces).
    #[arg(long)]
    all_pairs: bool,
    /// The most pairs kept: pairs of placed primitives whose boxes
    /// overlap, triangle pairs listed (--all-pairs, --render) and, with
    /// --self, intersecting pairs of one mesh. More is an error (exit 1):
    /// n parts at one spot make n²/2 pairs.
    #[arg(long, value_name = "N", default_value_t = bvtool::query::MAX_PAIRS)]
    max_pairs: usize,
    /// Report intersecting and contained pairs whose depth is certainly
    /// below D (model units) as touching (with --ignore-touching: leave
    /// them out).
    #[arg(long, value_name = "D", conflicts_with_all = ["self_intersections", "no_depth"], value_parser = non_negative)]
    min_depth: Option<f64>,
    /// The depth's absolute tolerance (model units, > 0); default 1e-5 ×
    /// the larger bounding-box diagonal of the pair.
    #[arg(long, value_name = "T", conflicts_with_all = ["self_intersections", "no_depth"], value_parser = positive)]
    depth_tolerance: Option<f64>,
    /// The most sub-triangle splits of each direction of each pair's depth
    /// search; where it is reached the bound achieved is reported
    /// (`capped`).
    #[arg(long, value_name = "N", conflicts_with_all = ["self_intersections", "no_depth"], default_value_t = bvtool::clash::MAX_SPLITS, value_parser = clap::value_parser!(u64).range(0..=100_000_000))]
    max_splits: u64,
    /// Do not measure depths (the clashes are then sorted by part).
    #[arg(long, conflicts_with = "self_intersections")]
    no_depth: bool,
    /// Exit with code 3 when a clash (or with --self a self-intersection) is found.
    #[arg(long)]
    fail_on_clash: bool,
    /// Draw the scene with the clashing parts coloured by kind and the
    /// triangles of crossing pairs highlighted (with --self: the first
    /// file's whole scene, every self-intersecting triangle highlighted in
    /// every instance of its mesh) to this PNG.
    #[arg(long, value_name = "PNG", value_parser = super::render::png_path)]
    render: Option<PathBuf>,
    #[command(flatten)]
    look: Look,
    /// Print one JSON document (see docs/json.md).
    #[arg(long)]
    json: bool,
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Runs the command; a clash found with --fail-on-clash is [`Failure::Clash`].
pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    let render = args
        .render
        .as_ref()
        .map(|p| args.look.options().map(|o| (p, o)))
        .transpose()?;
    let by: Grouping = args.by.parse().map_err(Failure::Input)?;
    let files = super::batch::expand(&args.files, args.glob.as_deref())?;
    // The loader's limit counts every instance's triangles; clash builds
    // one tree per geometry (and linear map), shared by its instances, so
    // its limit counts the trees' triangles, each once (below). Only
    // `--self --whole` flattens the scene and keeps the loader's.
    let flattens = args.self_intersections && args.whole;
    let limits: Vec<Option<u64>> = files
        .iter()
        .map(|f| {
            let bytes = std::fs::metadata(f).map_or(0, |m| m.len());
            opts.max_triangles.for_file(bytes)
        })
        .collect();
    let load_opts = LoadOptions {
        max_triangles: match flattens {
            true => opts.max_triangles,
            false => TriangleLimit::Unlimited,
        },
        ..*opts
    };
    let t = Instant::now();
    let scenes = files
        .par_iter()
        .map(|f| load(f, &load_opts))
        .collect::<Result<Vec<Scene>, Error>>()?;
    let load = ms(t);
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let found = if args.self_intersections {
        let mut docs = Vec::new();
        for (k, (scene, name)) in scenes.iter().zip(&names).enumerate() {
            let limit = limits[k].filter(|_| !flattens);
            let (doc, found) = self_report(scene, name, args, limit, load / scenes.len() as f64)?;
            // The picture is the first file's: every face of every pair.
            if let (0, Some((path, o))) = (k, &render) {
                let faces: Vec<TriangleSource> = found
                    .iter()
                    .flat_map(|(sources, f)| f.faces().into_iter().map(|t| sources[t as usize]))
                    .collect();
                save(
                    &self_intersection_picture(scene, args.whole, &faces, o)?,
                    path,
                )?;
            }
            docs.push(doc);
        }
        if args.json {
            out_json(&FilesDoc { files: &docs })?;
        } else {
            for d in &docs {
                out(&d.to_text())?;
            }
        }
        docs.iter().any(SelfFileJson::found_any)
    } else {
        let t = Instant::now();
        let limit = limits
            .iter()
            .try_fold(0u64, |sum, l| l.map(|l| sum.saturating_add(l)));
        let scene =
            ClashScene::at_most(&scenes, &names, by, limit.unwrap_or(u64::MAX)).map_err(|n| {
                Error::Input(format!(
                    "{}: {n} triangles in the trees of its distinct geometries (each tree \
                     counted once, however many instances share it), over the limit of {} \
                     (--max-triangles)",
                    names.join(", "),
                    limit.unwrap_or(u64::MAX)
                ))
            })?;
        let build = ms(t);
        if scene.parts.parts.is_empty() {
            return Err(Failure::Input(Error::Input(format!(
                "{}: no triangles to clash",
                names.join(", ")
            ))));
        }
        let t = Instant::now();
        // The picture highlights crossing triangles: it needs the pairs.
        let mut clashes = scene
            .clashes(&ClashOptions {
                all_pairs: args.all_pairs || render.is_some(),
                ignore_touching: args.ignore_touching,
                clearance: args.clearance,
                max_pairs: Some(args.max_pairs),
                depth: (!args.no_depth).then_some(ClashDepth {
                    search: DepthSettings {
                        tolerance: args.depth_tolerance,
                        max_splits: Some(args.max_splits),
                    },
                    min_depth: args.min_depth.unwrap_or(0.0),
                }),
            })
            .map_err(|e| Error::Input(format!("{}: {e}", names.join(", "))))?;
        let query = ms(t);
        if let Some((path, o)) = &render {
            save(&clash_picture(&scene, &clashes.clashes, o)?, path)?;
        }
        if !args.all_pairs {
            clashes.clashes.iter_mut().for_each(|c| c.pairs = None);
        }
        let doc = ClashDoc::new(
            &names,
            by,
            args.clearance,
            &scene,
            clashes,
            TimeMs { load, build, query },
        );
        if args.json {
            out_json(&doc)?;
        } else {
            out(&doc.to_text())?;
        }
        !doc.clashes.is_empty()
    };
    if found && args.fail_on_clash {
        return Err(Failure::Clash);
    }
    Ok(())
}

/// Writes the picture and says so.
fn save(image: &image::RgbImage, path: &std::path::Path) -> Result<(), Error> {
    save_png(image, path)?;
    wrote(
        path,
        &format!("{}x{} picture", image.width(), image.height()),
    );
    Ok(())
}

/// One mesh's self-intersections beside where its triangles come from.
type MeshAnswer = (Vec<TriangleSource>, SelfIntersections);

/// The self-intersections of one file: the report and each mesh's answer.
///
/// Without `--whole`, `limit` bounds the triangles of its meshes, each
/// counted once however many nodes place it.
fn self_report(
    scene: &Scene,
    name: &str,
    args: &Args,
    limit: Option<u64>,
    load: f64,
) -> Result<(SelfFileJson, Vec<MeshAnswer>), Error> {
    let t = Instant::now();
    let meshes: Vec<(Option<u32>, String, TriMesh)> = if args.whole {
        vec![(None, name.to_string(), scene.flatten())]
    } else {
        local_meshes(scene)
            .into_iter()
            .map(|(m, mesh_name, mesh)| {
                let label = match mesh_name {
                    Some(n) => format!("{name} / mesh '{n}'"),
                    None => format!("{name} / mesh {m}"),
                };
                (Some(m), label, mesh)
            })
            .collect()
    };
    if meshes.iter().all(|(_, _, m)| m.triangles.is_empty()) {
        return Err(Error::geometry(&scene.path, "no triangles to test"));
    }
    let triangles: u64 = meshes
        .iter()
        .map(|(_, _, m)| m.triangles.len() as u64)
        .sum();
    if let Some(limit) = limit.filter(|&l| triangles > l) {
        return Err(Error::geometry(
            &scene.path,
            format!(
                "{triangles} triangles in its meshes (each counted once, however many nodes \
                 place it), over the limit of {limit} (--max-triangles)"
            ),
        ));
    }
    let trees: Vec<AabbTree> = meshes.iter().map(|(_, _, m)| AabbTree::build(m)).collect();
    let build = ms(t);
    let t = Instant::now();
    let found = meshes
        .iter()
        .zip(&trees)
        .map(|((_, label, _), tree)| {
            self_intersections_at_most(tree, args.max_pairs).ok_or_else(|| {
                Error::Input(format!(
                    "{label}: more than {n} self-intersecting triangle pairs \
                     (--max-pairs {n}); raise --max-pairs",
                    n = args.max_pairs
                ))
            })
        })
        .collect::<Result<Vec<SelfIntersections>, Error>>()?;
    let query = ms(t);
    let reports = meshes
        .iter()
        .zip(&found)
        .map(|((m, label, mesh), f)| {
            SelfMeshJson::new(label.clone(), *m, &mesh.sources, f, args.all_pairs)
        })
        .collect();
    let doc = SelfFileJson {
        file: name.to_string(),
        scope: if args.whole { "whole" } else { "mesh" },
        adjacency: ADJACENCY,
        meshes: reports,
        time_ms: TimeMs { load, build, query },
    };
    let answers = meshes
        .into_iter()
        .zip(found)
        .map(|((_, _, mesh), f)| (mesh.sources, f))
        .collect();
    Ok((doc, answers))
}
