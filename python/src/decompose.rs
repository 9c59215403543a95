//! `decompose`: convex parts of a concave mesh, as `bvtool fit --decompose`
//! computes them.

use crate::arrays;
use crate::errors::{GeometryError, value_error};
use crate::mesh::mesh_arg;
use crate::work;
use bvtool::fit::polytope::decompose::{DecomposeError, DecomposeOptions};
use bvtool::volumes::DecompositionFit;
use numpy::PyArray2;
use pyo3::prelude::*;

/// Convex parts of `mesh` — a `Scene` (flattened, world frame, as
/// `bvtool fit --decompose` decomposes a file), a `Mesh`, or anything with
/// `vertices` and `faces` — for a concave dynamic body's collider:
/// parry3d's V-HACD at `resolution` voxels along the longest side (16 to
/// 256), merged to at most `max_hulls` parts (1 to 256), every vertex it
/// left out added to the nearest part (so every vertex the triangles use
/// lies in some part, decided exactly), each part cut to at most
/// `max_vertices` vertices and faces (8 to 255). Deterministic. A flat
/// mesh raises `GeometryError`; an option out of range, `ValueError`.
#[pyfunction]
#[pyo3(signature = (mesh, *, max_hulls = 16, max_vertices = 64, resolution = 64))]
pub fn decompose(
    py: Python<'_>,
    mesh: &Bound<'_, PyAny>,
    max_hulls: u32,
    max_vertices: usize,
    resolution: u32,
) -> PyResult<Decomposition> {
    let flat = mesh_arg(mesh)?.get().inner.clone();
    let opts = DecomposeOptions {
        max_hulls,
        max_vertices,
        resolution,
    };
    let d = work::run(py, move |_| {
        bvtool::fit::decompose(&flat.vertices, &flat.triangles, &opts)
    })?
    .map_err(|e| match e {
        DecomposeError::Option(m) => value_error(m),
        e => GeometryError::new_err(format!("decomposition: {e}")),
    })?;
    Ok(Decomposition {
        parts: d
            .parts
            .iter()
            .map(|p| ConvexPart {
                vertices: p.vertices.iter().map(|v| [v.x, v.y, v.z]).collect(),
                faces: p.faces.clone(),
                volume: p.volume,
                grown: p.grown,
                budgeted: p.budgeted,
            })
            .collect(),
        vertices_added: d.vertices_added,
        parts_volume: d.parts_volume,
        hull_volume: d.hull_volume,
        mesh_volume: d.mesh_volume,
    })
}

/// A convex decomposition.
#[pyclass(frozen, module = "bvtool")]
pub struct Decomposition {
    /// The parts.
    #[pyo3(get)]
    parts: Vec<ConvexPart>,
    /// Vertices outside every V-HACD hull, added to a part.
    #[pyo3(get)]
    vertices_added: usize,
    /// The sum of the parts' volumes (overlaps count twice).
    #[pyo3(get)]
    parts_volume: f64,
    /// The volume of the mesh's convex hull.
    #[pyo3(get)]
    hull_volume: f64,
    /// The volume a closed mesh encloses (`None` when it is open).
    #[pyo3(get)]
    mesh_volume: Option<f64>,
}

impl Decomposition {
    /// The decomposition `fit` made (`decompose` in its shapes), with the
    /// convex hull's volume.
    pub fn of_fit(d: &DecompositionFit, hull_volume: f64) -> Decomposition {
        Decomposition {
            parts: d
                .parts
                .iter()
                .map(|p| ConvexPart {
                    vertices: p.vertices.clone(),
                    faces: p.faces.clone(),
                    volume: p.volume,
                    grown: p.grown,
                    budgeted: p.budgeted,
                })
                .collect(),
            vertices_added: d.vertices_added,
            parts_volume: d.parts_volume,
            hull_volume,
            mesh_volume: d.mesh_volume,
        }
    }
}

#[pymethods]
impl Decomposition {
    /// Rebuilds a pickled decomposition (`__reduce__`).
    #[staticmethod]
    fn _unpickle(
        parts: Vec<ConvexPart>,
        vertices_added: usize,
        parts_volume: f64,
        hull_volume: f64,
        mesh_volume: Option<f64>,
    ) -> Decomposition {
        Decomposition {
            parts,
            vertices_added,
            parts_volume,
            hull_volume,
            mesh_volume,
        }
    }
    /// Pickles as its parts (each pickled as itself) and numbers.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let s = self;
        let args = (
            s.parts.clone(),
            s.vertices_added,
            s.parts_volume,
            s.hull_volume,
            s.mesh_volume,
        );
        crate::state::reduce::<Decomposition>(py, "_unpickle", args)
    }
    fn __repr__(&self) -> String {
        format!(
            "Decomposition({} parts, volume {} of the hull's {})",
            self.parts.len(),
            self.parts_volume,
            self.hull_volume
        )
    }
}

/// One convex part of a `Decomposition`.
#[pyclass(frozen, module = "bvtool", from_py_object)]
#[derive(Clone)]
pub struct ConvexPart {
    vertices: Vec<[f64; 3]>,
    /// Faces: convex polygons as lists of vertex indices, counter-clockwise
    /// seen from outside.
    #[pyo3(get)]
    faces: Vec<Vec<u32>>,
    /// Volume.
    #[pyo3(get)]
    volume: f64,
    /// Whether mesh vertices V-HACD left out were added to it.
    #[pyo3(get)]
    grown: bool,
    /// Whether it was cut to the vertex budget.
    #[pyo3(get)]
    budgeted: bool,
}

impl ConvexPart {
    /// The part as a convex shape (`bvtool.Convex.of`); `None` without
    /// vertices.
    pub fn convex(&self) -> Option<bvtool::query::convex::Convex> {
        bvtool::query::convex::Convex::hull(self.vertices.iter().map(|&v| v.into()).collect())
    }
}

#[pymethods]
impl ConvexPart {
    /// Rebuilds a pickled part (`__reduce__`).
    #[staticmethod]
    fn _unpickle(
        vertices: Vec<[f64; 3]>,
        faces: Vec<Vec<u32>>,
        volume: f64,
        grown: bool,
        budgeted: bool,
    ) -> ConvexPart {
        ConvexPart {
            vertices,
            faces,
            volume,
            grown,
            budgeted,
        }
    }
    /// Pickles as its fields, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let s = self.clone();
        let args = (s.vertices, s.faces, s.volume, s.grown, s.budgeted);
        crate::state::reduce::<ConvexPart>(py, "_unpickle", args)
    }
    /// The vertices, `(n, 3)`.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::rows_array(py, self.vertices.concat(), 3)
    }
    fn __repr__(&self) -> String {
        format!(
            "ConvexPart({} vertices, {} faces, volume {})",
            self.vertices.len(),
            self.faces.len(),
            self.volume
        )
    }
}
