//! Colliders for a game engine: a capsule and a convex hull per mesh,
//! written into a copy of the model as a `.glb` (`KHR_physics_rigid_bodies`).
//!
//! ```text
//! cargo run --release --example export_colliders [MODEL] [OUT.glb]
//! ```
//!
//! The same as `bvtool export MODEL --format gltf --shape capsule,hull -o OUT.glb`.

use bvtool::export::gltf::GltfOptions;
use bvtool::export::{self, ExportDoc, ExportOptions, Format};
use bvtool::fit::{ObbMethod, ShapeSpec, SphereMethod};
use bvtool::load;
use bvtool::volumes::FitOptions;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let model = args.next().unwrap_or("models/chain.gltf".into());
    let out = args.next().map_or_else(
        || std::env::temp_dir().join("bvtool_colliders.glb"),
        std::path::PathBuf::from,
    );
    let scene = load::load(model.as_ref(), &Default::default())?;

    let opts = ExportOptions {
        // The shape grammar every command reads: a capsule, a hull of at most 64 vertices.
        shapes: ShapeSpec::parse_list("capsule, hull:64")?,
        ..ExportOptions::volumes(FitOptions::of(ObbMethod::Tight, SphereMethod::Exact), false)
    };
    let doc = ExportDoc::new(&model, &scene, &opts)?;
    for c in &doc.colliders {
        println!(
            "{:>8} for mesh {:?} in the {} frame",
            c.asked.to_string(),
            c.mesh,
            c.frame
        );
    }
    let gltf = GltfOptions {
        binary: true,
        debug_lines: false,
        allow_external_uris: false,
        naming: None,
    };
    let bytes = export::render(&scene, &doc, Format::Gltf, &gltf)?;
    std::fs::write(&out, &bytes)?;
    println!(
        "wrote {} ({} bytes, {} colliders)",
        out.display(),
        bytes.len(),
        doc.colliders.len()
    );
    Ok(())
}
