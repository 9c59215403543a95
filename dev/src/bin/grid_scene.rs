//! Writes the large clash bench scene (see [`bvtool_dev::grid_scene`]):
//!
//! ```text
//! cargo run --release -p bvtool-dev --bin grid_scene -- OUT.glb [TRIANGLES]
//! ```

use bvtool_dev::grid_scene::write;
use std::path::PathBuf;

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(args.next().ok_or("usage: grid_scene OUT.glb [TRIANGLES]")?);
    let target: usize = match args.next() {
        Some(n) => n
            .parse()
            .map_err(|_| format!("not a triangle count: {n}"))?,
        None => 10_000_000,
    };
    let models = std::env::var_os("BVTOOL_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/models"));
    let made = write(&out, target, &models)?;
    println!(
        "{}: {} nodes, {} triangles, {} overlapping pairs",
        out.display(),
        made.nodes,
        made.triangles,
        made.pairs
    );
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("grid_scene: {e}");
        std::process::exit(1);
    }
}
