//! `bvtool render`.

use bvtool::Error;
use bvtool::load::{LoadOptions, load};
use bvtool::render::compose::{VolumeKind, model_picture};
use bvtool::render::{Layout, RenderOptions, parse_size, save_png};
use std::path::PathBuf;

/// Draw a model with its fitted volumes to a PNG.
///
/// The model is shaded (z-buffered, a headlight plus ambient, both sides
/// lit) in an orthographic view fitted to everything drawn; the volumes are
/// drawn as anti-aliased wireframes on top — hidden edges included, so the
/// whole volume is always visible — in distinct colours, with a legend.
/// Views: `front` looks along −Z with +Y up, `side` along −X, `top` along −Y
/// with −Z up, `iso` from (1, 1, 1); `grid` puts all four in one image.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The model file.
    file: PathBuf,
    /// Where to write the PNG.
    #[arg(short, long)]
    output: PathBuf,
    /// Volumes to draw, comma-separated: `aabb`, `obb` (tight) or
    /// `obb:pca|hull|tight`, `sphere` (exact) or `sphere:centroid|ritter|exact`.
    #[arg(long, default_value = "aabb,obb,sphere")]
    volumes: String,
    /// `iso`, `front`, `side`, `top` or `grid` (all four).
    #[arg(long, default_value = "iso")]
    view: String,
    /// Image size in pixels, WxH.
    #[arg(long, default_value = "1024x768")]
    size: String,
}

/// Rendering options from the `--view` and `--size` strings.
pub fn options(view: &str, size: &str) -> Result<RenderOptions, Error> {
    let (width, height) = parse_size(size)?;
    Ok(RenderOptions {
        layout: Layout::parse(view)?,
        width,
        height,
        ..RenderOptions::default()
    })
}

pub fn run(args: &Args, opts: &LoadOptions) -> Result<(), Error> {
    let kinds = VolumeKind::parse_list(&args.volumes)?;
    let ropts = options(&args.view, &args.size)?;
    let scene = load(&args.file, opts)?;
    let image = model_picture(&scene, &kinds, &ropts)?;
    save_png(&image, &args.output)?;
    println!(
        "wrote {} ({}x{})",
        args.output.display(),
        image.width(),
        image.height()
    );
    Ok(())
}
