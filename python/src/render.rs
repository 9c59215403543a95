//! `render`: a model with its fitted volumes drawn, as `bvtool render`
//! draws it.

use crate::errors::{InputError, to_py, value_error};
use crate::source::scene_arg;
use crate::work;
use bvtool::fit::ShapeSpec;
use bvtool::render::compose::model_picture_until;
use bvtool::render::{Layout, RenderOptions, UpAxis, parse_size, save_png};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use std::path::PathBuf;

/// The picture `bvtool render FILE --volumes VOLUMES ...` draws, for
/// `source` (a path, a `Scene` or a mesh): the same pixels, from the same
/// library calls. `volumes`: a comma-separated string or a list, in the
/// shape grammar (`aabb`, `box[:METHOD]`, `sphere[:METHOD]`, `capsule`,
/// `cylinder`, `kdopK`, `kdopK-obb`, `hull[:N]`, `decompose`, `best`).
/// `view` (`"iso"`, `"front"`, `"side"`, `"top"`, `"grid"`), `size`
/// (`"WxH"` or `(W, H)`, each 1 to 8192 pixels), `up` (`"y"` or `"z"`) and
/// `per_mesh` are the command's options. With `path` (which must end in
/// `.png`), writes the PNG atomically and returns `None`; without, returns
/// the image as an `(H, W, 3)` `uint8` RGB array (row 0 at the top).
#[pyfunction]
#[pyo3(signature = (source, volumes = None, *, path = None, view = "iso", size = None, up = "y", per_mesh = false, allow_external_uris = false))]
#[allow(clippy::too_many_arguments)]
pub fn render<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    volumes: Option<&Bound<'py, PyAny>>,
    path: Option<PathBuf>,
    view: &str,
    size: Option<&Bound<'py, PyAny>>,
    up: &str,
    per_mesh: bool,
    allow_external_uris: bool,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let kinds = match volumes {
        None => ShapeSpec::parse_list("aabb,obb,sphere").expect("the command's default"),
        Some(v) => crate::export::shape_list(Some(v))?,
    };
    let size = match size {
        None => "1024x768".to_string(),
        Some(s) => match s.extract::<(u32, u32)>() {
            Ok((w, h)) => format!("{w}x{h}"),
            Err(_) => s.extract::<String>()?,
        },
    };
    let (width, height) = parse_size(&size).map_err(to_py)?;
    let up = match up.to_ascii_lowercase().as_str() {
        "y" => UpAxis::Y,
        "z" => UpAxis::Z,
        other => {
            return Err(value_error(format!(
                "up {other:?}: expected \"y\" or \"z\""
            )));
        }
    };
    let opts = RenderOptions {
        layout: Layout::parse(view).map_err(to_py)?,
        width,
        height,
        up,
        ..RenderOptions::default()
    };
    if let Some(p) = &path {
        let png = p.extension().and_then(|e| e.to_str());
        if !png.is_some_and(|e| e.eq_ignore_ascii_case("png")) {
            return Err(InputError::new_err(format!(
                "{}: bvtool writes pictures as PNG only: name the file *.png",
                p.display()
            )));
        }
    }
    let scene = scene_arg(py, source, allow_external_uris)?;
    let image = work::run_until(py, move |stop| {
        model_picture_until(&scene, &kinds, per_mesh, &opts, stop)
    })?
    .map_err(to_py)?;
    if let Some(p) = path {
        save_png(&image, &p).map_err(to_py)?;
        return Ok(None);
    }
    let (w, h) = (image.width() as usize, image.height() as usize);
    let flat = PyArray1::from_vec(py, image.into_raw());
    let shaped = flat.reshape([h, w, 3])?;
    Ok(Some(shaped.into_any()))
}
