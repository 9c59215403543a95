//! `bvtool render`, and the picture options shared with `collide --render`.

use super::output::{Failure, Outcome, wrote};
use bvtool::fit::ShapeSpec;
use bvtool::load::{LoadOptions, load};
use bvtool::render::compose::model_picture;
use bvtool::render::{Layout, RenderOptions, UpAxis, parse_size, save_png};
use std::path::PathBuf;

/// Draw a model with its fitted volumes to a PNG.
///
/// The model is shaded (z-buffered, a headlight plus ambient, both sides
/// lit) in an orthographic view fitted to everything drawn; the volumes are
/// drawn as anti-aliased wireframes on top — hidden edges included, so the
/// whole volume is always visible — in distinct colours, with a legend:
/// boxes by their edges, spheres by their outline circle, capsules by their
/// end circles and the two lines tangent to them, cylinders by their two
/// rims and their side outline, k-DOPs, hulls and convex parts by their
/// edges (all the parts of one model in one colour). They are the volumes
/// `bvtool fit` reports with the matching options. A
/// volume whose outline coincides with one drawn before it is dashed (and
/// marked "= …" in the legend), so both stay visible. A small X/Y/Z triad
/// in each view's corner shows the axes. Views: `front` looks at the model
/// from +Z, `side` from +X, `top` from above, `iso` from (1, 1, 1), with
/// +Y up (or +Z with --up z); `grid` puts all four in one image.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The model file.
    file: PathBuf,
    /// Where to write the picture (PNG; other extensions are refused).
    #[arg(short, long, value_parser = png_path)]
    output: PathBuf,
    /// Volumes to draw, comma-separated, in the shape grammar every command
    /// shares: `aabb`; `box` (tight) or `box:pca|hull|fast|tight` (alias
    /// `obb`); `sphere` (exact) or `sphere:centroid|ritter|exact`;
    /// `capsule` and `cylinder` (as fit --capsule, --cylinder); `kdop` (the
    /// 26-DOP) or `kdop:6|10x|10y|10z|14|18|26` (`kdop14`) along the world
    /// axes, `kdop-obb` or `kdop-obb:K` (`kdop14-obb`) along the tight box's
    /// axes (fit --kdop, frames mesh and obb); `hull` (at most 255 vertices
    /// and faces) or `hull:N` for 8 to 1024 (fit --hull-max N); `decompose`
    /// (the convex parts of fit --decompose, its default 16 parts of at most
    /// 64 vertices); `best` (the smallest of AABB, box, sphere, capsule and
    /// cylinder by volume).
    #[arg(long, default_value = "aabb,obb,sphere")]
    volumes: String,
    /// Draw the volumes of each mesh instance (world frame) instead of the
    /// whole model's: one colour per kind of volume.
    #[arg(long)]
    per_mesh: bool,
    #[command(flatten)]
    look: Look,
}

/// How a picture looks: view, size and which axis is up.
#[derive(clap::Args, Debug)]
pub struct Look {
    /// `iso`, `front`, `side`, `top` or `grid` (all four).
    #[arg(long, default_value = "iso", value_parser = ["iso", "front", "side", "top", "grid"])]
    view: String,
    /// Picture size in pixels, WxH.
    #[arg(long, default_value = "1024x768")]
    size: String,
    /// The model's up axis: `y` (glTF, most game assets) or `z` (most scans,
    /// CAD and robot meshes).
    #[arg(long, value_enum, default_value = "y")]
    up: UpAxis,
}

impl Look {
    /// The rendering options; a bad size is a usage error.
    pub fn options(&self) -> Result<RenderOptions, Failure> {
        let (width, height) = parse_size(&self.size).map_err(|e| Failure::Usage(e.to_string()))?;
        Ok(RenderOptions {
            layout: Layout::parse(&self.view).map_err(|e| Failure::Usage(e.to_string()))?,
            width,
            height,
            up: self.up,
            ..RenderOptions::default()
        })
    }
}

/// A picture path: it must end in `.png` (bvtool writes PNG only, so that a
/// `.jpg` name never holds PNG bytes).
pub fn png_path(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("png") => Ok(path),
        _ => Err("bvtool writes pictures as PNG only: name the file *.png".into()),
    }
}

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    let kinds = ShapeSpec::parse_list(&args.volumes)
        .map_err(|e| Failure::Usage(format!("--volumes: {e}")))?;
    let ropts = args.look.options()?;
    let scene = load(&args.file, opts)?;
    let image = model_picture(&scene, &kinds, args.per_mesh, &ropts)?;
    save_png(&image, &args.output)?;
    wrote(
        &args.output,
        &format!("{}x{} picture", image.width(), image.height()),
    );
    Ok(())
}
