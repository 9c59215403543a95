//! `bvtool export`.

use super::output::{Failure, Outcome, out_bytes, wrote};
use bvtool::export::collider_mesh::Naming;
use bvtool::export::gltf::GltfOptions;
use bvtool::export::request::gltf_binary;
use bvtool::export::{DEFAULT_HULL_MAX, ExportRequest, Format};
use bvtool::fit::ShapeSpec;
use bvtool::fit::polytope::budget_hull::{MAX_BUDGET, MIN_BUDGET};
use bvtool::fit::{ObbMethod, SphereMethod};
use bvtool::load::{LoadOptions, load};
use std::path::PathBuf;

/// Export the fitted volumes (and optionally the OBB tree) for a runtime,
/// and colliders for engines.
///
/// Formats: `json` (schema: docs/bvtool-export.schema.json in the bvtool
/// sources), `bin` (little-endian, 16-byte aligned, mappable; layout in
/// docs/export.md), `c` (a C header of static const arrays), `gltf` (the
/// model with KHR_implicit_shapes / KHR_physics_rigid_bodies colliders; .glb
/// or .gltf as -o says), `obj` (the meshes and named collider meshes). json,
/// c and obj go to stdout unless -o is given; bin and gltf need -o. Volumes are those of `bvtool fit`, in world space and model
/// units; boxes carry half extents (glTF `size` is full extents);
/// quaternions are (x, y, z, w). The f32 numbers of bin, c and gltf are
/// rounded outwards so they still contain every vertex.
///
/// Colliders (json, gltf and obj by default, bin and c when --shape or
/// --whole is given): one per mesh instance and --shape, fitted to
/// the mesh's own vertices in its node's frame and attached to that node in
/// glTF, so it moves with the node; a node whose world transform has a
/// non-uniform scale or shear, and GPU instances, get a collider fitted in
/// the world frame instead (static). A skinned glTF mesh gets one collider
/// per bone instead: each vertex goes to the joint that weighs most on it,
/// and each joint's vertices, as displayed at the file's pose, are fitted
/// in that joint's frame and attached to the joint node, so the collider
/// moves with the bone. --whole adds one for the whole scene.
/// In bin and c a collider carries its node (a bone's: the joint node), mesh
/// and primitive (indices and names) and whether it is in the node's frame:
/// place it by that node's world transform. `obj` (stdout unless -o) writes
/// the meshes (skinned ones as displayed) and the colliders as convex
/// meshes named for Unreal or Godot (--naming), in the world frame.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The model file (.gltf, .glb, .obj, .stl).
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum)]
    format: Format,
    /// Output file (required for bin and gltf; gltf writes .glb or .gltf by its extension).
    #[arg(short = 'o', long, required_if_eq_any([("format", "bin"), ("format", "gltf")]))]
    output: Option<PathBuf>,
    /// Also export the OBB tree and its triangles (json, bin, c), its node
    /// boxes fitted as `bvtool tree --node-fit flush` fits them.
    #[arg(long)]
    tree: bool,
    /// Also export each mesh instance's volumes (world frame; json, bin, c).
    #[arg(long)]
    per_mesh: bool,
    /// OBB method: `tight` (minimum volume), `fast` (near-minimal, quicker),
    /// `hull` or `pca` (see `bvtool help fit`).
    #[arg(long, default_value = "tight", value_parser = ["pca", "hull", "fast", "tight"])]
    obb: String,
    /// Sphere method.
    #[arg(long, default_value = "exact", value_parser = ["centroid", "ritter", "exact"])]
    sphere: String,
    /// Collider shapes (default box for json, gltf and obj; bin and c carry
    /// colliders only when asked), one collider per mesh instance each; a
    /// comma-separated list or repeated, in the shape grammar every command
    /// shares: `box` (the --obb method's; `box:METHOD` picks one), `sphere`
    /// (`sphere:METHOD`), `capsule`, `cylinder`, `kdop26` (Unreal's 26-DOP,
    /// mesh axes, as a convex mesh), `hull` (within --hull-max vertices and
    /// faces; `hull:N`), `best` (the smallest of AABB, box, sphere, capsule
    /// and cylinder by volume), `decompose` (convex parts holding every
    /// vertex: 16 parts, each within --hull-max vertices).
    #[arg(long, value_delimiter = ',', value_parser = super::parse_shape, value_name = "SHAPE")]
    shape: Vec<ShapeSpec>,
    /// Also a collider of each shape for the whole scene (world frame).
    #[arg(long)]
    whole: bool,
    /// Most vertices and faces of a hull collider (PhysX and Unity: 255;
    /// 8 to 1024).
    #[arg(long, default_value_t = DEFAULT_HULL_MAX as u16, value_name = "N",
          value_parser = clap::value_parser!(u16).range(MIN_BUDGET as i64..=MAX_BUDGET as i64))]
    hull_max: u16,
    /// gltf and obj: write the colliders as convex meshes named by this
    /// engine's convention (Unreal UBX_/USP_/UCP_/UCX_ prefixes, Godot
    /// -convcolonly suffix) instead of KHR_physics_rigid_bodies colliders
    /// (obj: unreal unless given).
    #[arg(long, value_enum)]
    naming: Option<Naming>,
    /// gltf: also draw every collider with LINES primitives.
    #[arg(long)]
    debug_lines: bool,
}

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    let binary = match (args.format, &args.output) {
        (Format::Gltf, Some(out)) => gltf_binary(out).ok_or_else(|| {
            Failure::Usage(format!(
                "{}: glTF output must end in .glb or .gltf",
                out.display()
            ))
        })?,
        _ => false,
    };
    let plan = ExportRequest {
        shapes: args.shape.clone(),
        whole: args.whole,
        tree: args.tree,
        per_mesh: args.per_mesh,
        obb: args.obb.parse::<ObbMethod>().expect("clap checked"),
        sphere: args.sphere.parse::<SphereMethod>().expect("clap checked"),
        hull_max: usize::from(args.hull_max),
        gltf: GltfOptions {
            binary,
            debug_lines: args.debug_lines,
            allow_external_uris: opts.allow_external_uris,
            naming: args.naming,
        },
        ..ExportRequest::new(args.format)
    }
    .plan()
    .map_err(|e| Failure::Usage(format!("--shape: {e}")))?;
    let scene = load(&args.file, opts)?;
    let bytes = plan.bytes(&args.file.display().to_string(), &scene)?;
    match &args.output {
        Some(path) => {
            bvtool::files::write_atomic(path, &bytes)?;
            wrote(path, &format!("{} bytes", bytes.len()));
            Ok(())
        }
        None => out_bytes(&bytes),
    }
}
