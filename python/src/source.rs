//! The model argument of the functions that mirror a command taking a file
//! (`fit`, `export`, `compare`, `render`): a path, a `Scene` or a mesh.

use crate::mesh::{Mesh, Scene, load_options, load_scene, mesh_arg};
use bvtool::mesh::{Format, Geometry};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// A one-instance scene of a mesh made in code (named `<mesh>` in errors
/// and documents).
fn scene_of(mesh: &Mesh) -> bvtool::Scene {
    let m = &mesh.inner;
    let geometry = Geometry {
        positions: m.vertices.clone(),
        triangles: m.triangles.clone(),
    };
    bvtool::Scene::of_geometry(PathBuf::from("<mesh>"), Format::Obj, geometry)
}

/// `obj` as a scene: a `Scene` as loaded, a path (`str` or
/// `os.PathLike`) loaded as `load` loads it (the command line's defaults,
/// and `allow_external_uris`), or a mesh (a `Mesh`, or anything with
/// `vertices` and `faces`) as a one-instance scene named `<mesh>`.
pub fn scene_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    allow_external_uris: bool,
) -> PyResult<Arc<bvtool::Scene>> {
    if let Ok(s) = obj.cast::<Scene>() {
        return Ok(s.get().inner.clone());
    }
    if let Ok(path) = obj.extract::<PathBuf>() {
        let opts = load_options(allow_external_uris, None, None);
        return Ok(Arc::new(load_scene(py, path, opts)?));
    }
    Ok(Arc::new(scene_of(mesh_arg(obj)?.get())))
}

/// The file name a document gives `scene` (the path as given; `<mesh>` for
/// a mesh made in code), as the command line writes it.
pub fn file_name(scene: &bvtool::Scene) -> String {
    scene.path.display().to_string()
}
