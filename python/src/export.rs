//! `export`: the fitted volumes and colliders as `bvtool export` writes
//! them, as bytes or to a file.

use crate::errors::{InputError, to_py, value_error};
use crate::source::{file_name, scene_arg};
use crate::work;
use bvtool::export::collider_mesh::Naming;
use bvtool::export::request::gltf_binary;
use bvtool::export::{DEFAULT_HULL_MAX, ExportRequest, Format};
use bvtool::fit::ShapeSpec;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;

/// A list of shapes: one comma-separated string or a sequence of them, in
/// the shape grammar every command shares (`bvtool help export`).
pub fn shape_list(shapes: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<ShapeSpec>> {
    let Some(obj) = shapes else {
        return Ok(Vec::new());
    };
    let texts: Vec<String> = match obj.extract::<String>() {
        Ok(s) => vec![s],
        Err(_) => obj.extract().map_err(|_| {
            value_error("shapes: expected a comma-separated string or a list of strings")
        })?,
    };
    let mut out = Vec::new();
    for t in &texts {
        out.extend(ShapeSpec::parse_list(t).map_err(|e| InputError::new_err(e.to_string()))?);
    }
    Ok(out)
}

fn format_of(name: &str) -> PyResult<Format> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "json" => Format::Json,
        "bin" => Format::Bin,
        "c" => Format::C,
        "gltf" => Format::Gltf,
        "obj" => Format::Obj,
        _ => {
            return Err(value_error(format!(
                "format {name:?}: expected \"json\", \"bin\", \"c\", \"gltf\" or \"obj\""
            )));
        }
    })
}

fn naming_of(name: Option<&str>) -> PyResult<Option<Naming>> {
    match name.map(str::to_ascii_lowercase).as_deref() {
        None => Ok(None),
        Some("unreal") => Ok(Some(Naming::Unreal)),
        Some("godot") => Ok(Some(Naming::Godot)),
        Some(other) => Err(value_error(format!(
            "naming {other:?}: expected \"unreal\" or \"godot\""
        ))),
    }
}

/// What `bvtool export FILE --format FORMAT ...` writes, for `source` — a
/// path (loaded as `load` loads it), a `Scene`, or a mesh (a one-instance
/// scene named `<mesh>`): the same bytes, from the same library calls.
///
/// `format`: `"json"`, `"bin"`, `"c"`, `"gltf"` or `"obj"`. `shapes`: the
/// collider shapes (`--shape`), a comma-separated string or a list, in the
/// shape grammar: `box[:METHOD]`, `sphere[:METHOD]`, `capsule`,
/// `cylinder`, `kdop26`, `hull[:N]`, `best`, `decompose` (default: a box
/// for json, gltf and obj; none for bin and c unless `whole`); a shape the
/// exports cannot carry (`aabb`, another k-DOP) raises `InputError` naming
/// it. `tree`, `per_mesh`, `obb`, `sphere`, `whole`, `hull_max` (8 to
/// 1024), `naming` (`"unreal"` or `"godot"`) and `debug_lines` are the
/// command's options of the same names. With `path`, writes the bytes there
/// atomically (a glTF path must end in `.glb` or `.gltf`, which decides
/// the container) and returns `None`; without, returns the bytes (glTF: a
/// `.glb` unless `binary=False`). Units, frames and the outward f32
/// rounding are the command's (docs/export.md).
#[pyfunction]
#[pyo3(signature = (source, format, *, shapes = None, path = None, tree = false, per_mesh = false, obb = "tight", sphere = "exact", whole = false, hull_max = DEFAULT_HULL_MAX, naming = None, debug_lines = false, binary = None, allow_external_uris = false))]
#[allow(clippy::too_many_arguments)]
pub fn export<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    format: &str,
    shapes: Option<&Bound<'py, PyAny>>,
    path: Option<PathBuf>,
    tree: bool,
    per_mesh: bool,
    obb: &str,
    sphere: &str,
    whole: bool,
    hull_max: usize,
    naming: Option<&str>,
    debug_lines: bool,
    binary: Option<bool>,
    allow_external_uris: bool,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let format = format_of(format)?;
    let binary = match (format, &path) {
        (Format::Gltf, Some(p)) => {
            let by_name = gltf_binary(p).ok_or_else(|| {
                value_error(format!(
                    "{}: glTF output must end in .glb or .gltf",
                    p.display()
                ))
            })?;
            if binary.is_some_and(|b| b != by_name) {
                return Err(value_error(format!(
                    "{}: binary={} contradicts the file's extension",
                    p.display(),
                    !by_name
                )));
            }
            by_name
        }
        _ => binary.unwrap_or(true),
    };
    let mut request = ExportRequest {
        shapes: shape_list(shapes)?,
        whole,
        tree,
        per_mesh,
        obb: crate::fit::obb_method(obb)?,
        sphere: crate::fit::sphere_method(sphere)?,
        hull_max,
        ..ExportRequest::new(format)
    };
    request.gltf.binary = binary;
    request.gltf.debug_lines = debug_lines;
    request.gltf.allow_external_uris = allow_external_uris;
    request.gltf.naming = naming_of(naming)?;
    let plan = request
        .plan()
        .map_err(|e| InputError::new_err(format!("shapes: {e}")))?;
    let scene = scene_arg(py, source, allow_external_uris)?;
    let bytes = work::run_until(py, move |stop| {
        plan.bytes_until(&file_name(&scene), &scene, stop)
    })?
    .map_err(to_py)?;
    match path {
        Some(p) => {
            bvtool::files::write_atomic(&p, &bytes).map_err(to_py)?;
            Ok(None)
        }
        None => Ok(Some(PyBytes::new(py, &bytes))),
    }
}
