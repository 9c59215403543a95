//! `compare`: how tight each bounding volume is and what it costs, as
//! `bvtool compare --json` reports it; `colliders`: a file's engine-named
//! colliders against its meshes, as `bvtool colliders --json` does.

use crate::errors::to_py;
use crate::source::{file_name, scene_arg};
use crate::work;
use bvtool::threads::{Stop, Stopped};
use bvtool::volumes::{ColliderCheck, CompareOptions, Comparison};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::path::PathBuf;

/// The comparison of `sources` — a path, a `Scene` or a mesh, or a list of
/// them — as records: one dict per source with the fields of one entry of
/// `bvtool compare --json`'s `files` (the table itself is its `"volumes"`:
/// one dict per volume kind and method, volume, surface area, hull ratio,
/// air and its bound in model units, vertices left outside, the
/// shortfall (how far the mesh sticks out) with its bound, fit time in
/// ms). `rotations` (1 to 100,000), `poses` (1 to 10,000), `seed` and
/// `trees` (`--no-tree` is `trees=False`) are the command's options; the
/// figures are the command's, bit for bit, except the timings. Sources
/// are compared one after the other, each on every core with the GIL
/// released. A model without triangles raises `GeometryError`.
#[pyfunction]
#[pyo3(signature = (sources, *, rotations = 100, poses = 50, seed = 0, trees = true, allow_external_uris = false))]
pub fn compare<'py>(
    py: Python<'py>,
    sources: &Bound<'py, PyAny>,
    rotations: usize,
    poses: usize,
    seed: u64,
    trees: bool,
    allow_external_uris: bool,
) -> PyResult<Bound<'py, PyList>> {
    let opts = CompareOptions {
        rotations,
        poses,
        seed,
        trees,
    };
    opts.check().map_err(to_py)?;
    records(
        py,
        sources,
        allow_external_uris,
        move |file, scene, stop| {
            Ok(Comparison::new_until(file, scene, &opts, stop)?.map(|c| to_json(&c)))
        },
    )
}

/// The colliders each of `sources` carries beside its meshes, measured
/// against them, as records: one dict per source with the fields of one
/// entry of `bvtool colliders --json`'s `files` — `"groups"` holds, per
/// render mesh (and once for the whole file's colliders), its colliders'
/// names, the air and the shortfall with their bounds in model units. A
/// source with no engine-named collider, or no render mesh, raises
/// `GeometryError`.
#[pyfunction]
#[pyo3(signature = (sources, *, allow_external_uris = false))]
pub fn colliders<'py>(
    py: Python<'py>,
    sources: &Bound<'py, PyAny>,
    allow_external_uris: bool,
) -> PyResult<Bound<'py, PyList>> {
    records(py, sources, allow_external_uris, |file, scene, _| {
        Ok(ColliderCheck::new(file, scene).map(|c| to_json(&c)))
    })
}

/// The command's JSON of `record`.
fn to_json(record: &impl serde::Serialize) -> String {
    serde_json::to_string(record).expect("a record serializes")
}

/// One record per source: `work`'s answer on its scene (the command's
/// JSON), read back as a dict. Sources are worked on one after the other,
/// each on every core with the GIL released; Ctrl-C raises at once and
/// stops the work where it checks its [`Stop`] ([`work::run_until`]).
fn records<'py>(
    py: Python<'py>,
    sources: &Bound<'py, PyAny>,
    allow_external_uris: bool,
    work: impl Fn(&str, &bvtool::Scene, Stop<'_>) -> Result<bvtool::Result<String>, Stopped>
    + Copy
    + Send
    + 'static,
) -> PyResult<Bound<'py, PyList>> {
    let loads = py.import("json")?.getattr("loads")?;
    let records = PyList::empty(py);
    for source in one_or_many(sources)? {
        let scene = scene_arg(py, &source, allow_external_uris)?;
        let text = work::run_until(py, move |stop| work(&file_name(&scene), &scene, stop))?
            .map_err(to_py)?;
        records.append(loads.call1((text,))?)?;
    }
    Ok(records)
}

/// A lone source (a path, a `Scene`, a mesh) or a list of them.
pub fn one_or_many<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if obj.extract::<PathBuf>().is_ok() || !obj.is_instance_of::<PyList>() {
        return Ok(vec![obj.clone()]);
    }
    obj.try_iter()?.collect()
}
