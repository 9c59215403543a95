//! Meshes and scenes: `load`, `load_mesh`, `Mesh`, `Scene`, `Instance`.

use crate::arrays::{self, read_only};
use crate::errors::{to_py, value_error};
use crate::work;
use bvtool::fit::Aabb;
use bvtool::load::{DEFAULT_MAX_INSTANCES, LoadOptions, TriangleLimit};
use bvtool::mesh::source_runs::{SourceRun, source_runs, sources_from_runs};
use bvtool::mesh::{Geometry, TriMesh, placed_points};
use nalgebra::Matrix4;
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// A triangle mesh in one frame: `vertices`, an `(n, 3)` `float64` array,
/// and `triangles`, an `(m, 3)` `uint32` array of indices into it.
///
/// `Mesh(vertices, triangles)` copies and checks the arrays: coordinates
/// finite and within ±2^50 (the range every reader accepts), indices in
/// `0..n`. The mesh is immutable; its arrays are read-only views.
#[pyclass(frozen, module = "bvtool")]
pub struct Mesh {
    pub inner: Arc<TriMesh>,
    vertices: PyOnceLock<Py<PyArray2<f64>>>,
    triangles: PyOnceLock<Py<PyArray2<u32>>>,
}

impl Mesh {
    pub fn wrap(inner: TriMesh) -> Mesh {
        Mesh {
            inner: Arc::new(inner),
            vertices: PyOnceLock::new(),
            triangles: PyOnceLock::new(),
        }
    }

    /// A mesh from arrays, every triangle named by its index (mesh 0).
    fn from_arrays(vertices: &Bound<'_, PyAny>, triangles: &Bound<'_, PyAny>) -> PyResult<Mesh> {
        let vertices = arrays::read_points(vertices, "vertices")?;
        let triangles = arrays::read_triangles(triangles, vertices.len())?;
        let sources = (0..triangles.len() as u32)
            .map(|k| bvtool::TriangleSource::unplaced(0, k))
            .collect();
        Ok(Mesh::wrap(TriMesh {
            vertices,
            triangles,
            sources,
        }))
    }
}

#[pymethods]
impl Mesh {
    #[new]
    fn new(vertices: &Bound<'_, PyAny>, triangles: &Bound<'_, PyAny>) -> PyResult<Mesh> {
        Mesh::from_arrays(vertices, triangles)
    }

    /// Vertex positions, `(n, 3)` `float64` (read-only).
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let a = self.vertices.get_or_try_init(py, || {
            read_only(arrays::points(py, &self.inner.vertices)).map(Bound::unbind)
        })?;
        Ok(a.bind(py).clone())
    }

    /// Triangles as vertex indices, `(m, 3)` `uint32` (read-only).
    #[getter]
    fn triangles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        let a = self.triangles.get_or_try_init(py, || {
            let flat: Vec<u32> = self.inner.triangles.iter().flatten().copied().collect();
            read_only(arrays::rows_array(py, flat, 3)).map(Bound::unbind)
        })?;
        Ok(a.bind(py).clone())
    }

    /// The triangles (the same array as `triangles`), for code written for
    /// `trimesh`.
    #[getter]
    fn faces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        self.triangles(py)
    }

    /// Number of triangles.
    #[getter]
    fn triangle_count(&self) -> usize {
        self.inner.triangles.len()
    }

    /// Number of vertices.
    #[getter]
    fn vertex_count(&self) -> usize {
        self.inner.vertices.len()
    }

    /// The axis-aligned box of the vertices the triangles use, as
    /// `(min, max)` corner arrays; `None` without triangles.
    #[getter]
    fn aabb<'py>(&self, py: Python<'py>) -> Option<AabbPair<'py>> {
        let used = self.inner.triangles.iter().flatten();
        let b = Aabb::from_points(used.map(|&i| self.inner.vertices[i as usize]))?;
        Some(corners(py, &b))
    }

    /// Where triangle `i` came from in its file: node, GPU instance, mesh,
    /// primitive and triangle index, as `collide --all-pairs` names it.
    fn source(&self, i: usize) -> PyResult<TriangleSource> {
        self.inner
            .sources
            .get(i)
            .map(|s| TriangleSource(*s))
            .ok_or_else(|| {
                value_error(format!(
                    "triangle {i} out of range (the mesh has {})",
                    self.inner.triangles.len()
                ))
            })
    }

    /// Rebuilds a pickled mesh (`__reduce__`), checking it as `Mesh(…)`
    /// does; `source_runs` the triangles' sources as runs, an `(r, 6)`
    /// `uint32` array ([`source_runs_arg`]).
    #[staticmethod]
    fn _unpickle(
        vertices: &Bound<'_, PyAny>,
        triangles: &Bound<'_, PyAny>,
        source_runs: numpy::PyReadonlyArray2<'_, u32>,
    ) -> PyResult<Mesh> {
        let vertices = arrays::read_points(vertices, "vertices")?;
        let triangles = arrays::read_triangles(triangles, vertices.len())?;
        let sources = source_runs_arg(&source_runs, triangles.len())?;
        Ok(Mesh::wrap(TriMesh {
            vertices,
            triangles,
            sources,
        }))
    }

    /// Pickles as the arrays and the triangles' sources as runs (one run
    /// for a mesh made from arrays, one a glTF primitive or OBJ group for a
    /// loaded one).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        crate::state::reduce::<Mesh>(
            py,
            "_unpickle",
            (
                self.vertices(py)?,
                self.triangles(py)?,
                source_runs_array(py, &self.inner.sources),
            ),
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "Mesh({} vertices, {} triangles)",
            self.inner.vertices.len(),
            self.inner.triangles.len()
        )
    }
}

/// The sources of `count` triangles from a pickled `(r, 6)` array of runs
/// (`bvtool::mesh::source_runs`), checked: a `ValueError` naming what is
/// wrong.
pub fn source_runs_arg(
    runs: &numpy::PyReadonlyArray2<'_, u32>,
    count: usize,
) -> PyResult<Vec<bvtool::TriangleSource>> {
    let a = runs.as_array();
    if a.ncols() != 6 {
        return Err(value_error(format!(
            "mesh source runs: expected (r, 6), got {:?}",
            a.shape()
        )));
    }
    let rows: Vec<SourceRun> = a
        .rows()
        .into_iter()
        .map(|r| std::array::from_fn(|k| r[k]))
        .collect();
    sources_from_runs(&rows, count).map_err(|e| value_error(format!("mesh sources: {e}")))
}

/// The runs of `sources` as an `(r, 6)` `uint32` array, what
/// [`source_runs_arg`] reads.
pub fn source_runs_array<'py>(
    py: Python<'py>,
    sources: &[bvtool::TriangleSource],
) -> Bound<'py, PyArray2<u32>> {
    arrays::rows_array(py, source_runs(sources).concat(), 6)
}

/// An AABB as two corner arrays.
pub type AabbPair<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>);

fn corners<'py>(py: Python<'py>, b: &Aabb) -> AabbPair<'py> {
    (
        arrays::vector(py, b.min.coords.as_slice().to_vec()),
        arrays::vector(py, b.max.coords.as_slice().to_vec()),
    )
}

/// Where a triangle came from, in its file's own terms.
#[pyclass(frozen, module = "bvtool", eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TriangleSource(pub bvtool::TriangleSource);

#[pymethods]
impl TriangleSource {
    /// Rebuilds a pickled source (`__reduce__`).
    #[staticmethod]
    fn _unpickle(
        node: Option<u32>,
        instance: u32,
        mesh: u32,
        primitive: u32,
        triangle: u32,
    ) -> TriangleSource {
        TriangleSource(bvtool::TriangleSource {
            node,
            instance,
            mesh,
            primitive,
            triangle,
        })
    }

    /// Pickles as its five numbers.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let s = &self.0;
        crate::state::reduce::<TriangleSource>(
            py,
            "_unpickle",
            (s.node, s.instance, s.mesh, s.primitive, s.triangle),
        )
    }

    /// glTF node index (`None` for OBJ, STL and meshes made from arrays).
    #[getter]
    fn node(&self) -> Option<u32> {
        self.0.node
    }
    /// `EXT_mesh_gpu_instancing` instance of the node (0 otherwise).
    #[getter]
    fn instance(&self) -> u32 {
        self.0.instance
    }
    /// glTF mesh index; OBJ object/group; STL solid (file order).
    #[getter]
    fn mesh(&self) -> u32 {
        self.0.mesh
    }
    /// Primitive index within the glTF mesh (0 for OBJ and STL).
    #[getter]
    fn primitive(&self) -> u32 {
        self.0.primitive
    }
    /// Triangle index within the primitive (after strip, fan and polygon
    /// triangulation).
    #[getter]
    fn triangle(&self) -> u32 {
        self.0.triangle
    }
    /// The name the command line prints (`node 3 mesh 1 primitive 0 triangle 12`).
    fn __str__(&self) -> String {
        bvtool::report::collide::triangle_name(&self.0)
    }
    fn __repr__(&self) -> String {
        format!("TriangleSource({})", self.__str__())
    }
}

/// How to load: the command line's `--allow-external-uris`,
/// `--max-triangles` and `--max-instances`.
pub fn load_options(
    allow_external_uris: bool,
    max_triangles: Option<u64>,
    max_instances: Option<usize>,
) -> LoadOptions {
    LoadOptions {
        allow_external_uris,
        max_instances: max_instances.unwrap_or(DEFAULT_MAX_INSTANCES),
        max_triangles: max_triangles.map_or(TriangleLimit::Auto, TriangleLimit::AtMost),
    }
}

/// Reads and loads `path` with the GIL released.
pub fn load_scene(py: Python<'_>, path: PathBuf, opts: LoadOptions) -> PyResult<bvtool::Scene> {
    work::run(py, move |_| {
        let bytes = crate::errors::read_model(&path)?;
        bvtool::load::load_bytes(&path, &bytes, &opts).map_err(to_py)
    })?
}

/// Loads a glTF (`.gltf`, `.glb`), OBJ or STL file as a `Scene`: every mesh
/// instance with its node transform, as the file places it.
///
/// A file that cannot be read raises the built-in `OSError` subclass
/// (`FileNotFoundError`, …); an invalid one `bvtool.LoadError` (a
/// `ValueError`), with the command line's one-line message. glTF buffers
/// outside the file's folder are read only with `allow_external_uris`; a
/// scene that would flatten to more than `max_triangles` triangles (default:
/// max(2^20, the file's size in bytes)) or hold more than `max_instances`
/// placed primitives (default 2^20) is refused.
#[pyfunction]
#[pyo3(signature = (path, *, allow_external_uris = false, max_triangles = None, max_instances = None))]
pub fn load(
    py: Python<'_>,
    path: PathBuf,
    allow_external_uris: bool,
    max_triangles: Option<u64>,
    max_instances: Option<usize>,
) -> PyResult<Scene> {
    let opts = load_options(allow_external_uris, max_triangles, max_instances);
    Ok(Scene::new(load_scene(py, path, opts)?))
}

/// Loads a file as one `Mesh`: the scene flattened into world coordinates
/// (node transforms applied, mirrored instances re-wound), the mesh
/// `collide` and `distance` use. Options and errors as `load`.
#[pyfunction]
#[pyo3(signature = (path, *, allow_external_uris = false, max_triangles = None, max_instances = None))]
pub fn load_mesh(
    py: Python<'_>,
    path: PathBuf,
    allow_external_uris: bool,
    max_triangles: Option<u64>,
    max_instances: Option<usize>,
) -> PyResult<Mesh> {
    let opts = load_options(allow_external_uris, max_triangles, max_instances);
    let scene = load_scene(py, path, opts)?;
    Ok(Mesh::wrap(work::run(py, move |_| scene.flatten())?))
}

/// A 4×4 matrix's numbers, row by row.
fn row_major(m: &Matrix4<f64>) -> [f64; 16] {
    std::array::from_fn(|k| m[(k / 4, k % 4)])
}

/// An instance as pickled: node, node name, GPU instance, mesh index,
/// mesh name, primitive, transform (row by row), geometry index.
type InstanceState = (
    Option<u32>,
    Option<String>,
    u32,
    u32,
    Option<String>,
    u32,
    [f64; 16],
    usize,
);

/// A loaded model file: every primitive placed by a node (and GPU
/// instance), each with its local geometry and world transform.
#[pyclass(frozen, module = "bvtool")]
pub struct Scene {
    pub inner: Arc<bvtool::Scene>,
    /// Each distinct geometry, once, as a local-frame mesh.
    meshes: Vec<Py<Mesh>>,
    /// `geometry[k]`: the index in `meshes` of instance `k`'s geometry.
    geometry: Vec<usize>,
}

impl Scene {
    pub fn new(scene: bvtool::Scene) -> Scene {
        let mut index: HashMap<*const Geometry, usize> = HashMap::new();
        let mut firsts = Vec::new();
        let geometry = scene
            .instances
            .iter()
            .map(|inst| {
                *index.entry(Arc::as_ptr(&inst.geometry)).or_insert_with(|| {
                    firsts.push(inst);
                    firsts.len() - 1
                })
            })
            .collect();
        let meshes = Python::attach(|py| {
            firsts
                .iter()
                .map(|inst| {
                    let g = &inst.geometry;
                    let sources = (0..g.triangles.len() as u32)
                        .map(|k| bvtool::TriangleSource {
                            node: None,
                            instance: 0,
                            mesh: inst.mesh,
                            primitive: inst.primitive,
                            triangle: k,
                        })
                        .collect();
                    let mesh = Mesh::wrap(TriMesh {
                        vertices: g.positions.clone(),
                        triangles: g.triangles.clone(),
                        sources,
                    });
                    Py::new(py, mesh).expect("a Mesh is a plain object")
                })
                .collect()
        });
        Scene {
            inner: Arc::new(scene),
            meshes,
            geometry,
        }
    }
}

#[pymethods]
impl Scene {
    /// Rebuilds a pickled scene (`__reduce__`): each distinct geometry a
    /// `Mesh` (checked as `Mesh(…)` checks it), each instance `(node,
    /// node_name, gpu_instance, mesh_index, mesh_name, primitive, transform
    /// — 16 numbers, row by row —, geometry index)`.
    #[staticmethod]
    fn _unpickle(
        path: PathBuf,
        format: &str,
        skipped_primitives: usize,
        extensions: Vec<String>,
        meshes: Vec<PyRef<'_, Mesh>>,
        instances: Vec<InstanceState>,
    ) -> PyResult<Scene> {
        use bvtool::mesh::{Format, MeshInstance};
        let format = match format {
            "gltf" => Format::Gltf,
            "glb" => Format::Glb,
            "obj" => Format::Obj,
            "stl" => Format::Stl,
            _ => return Err(value_error(format!("pickled scene: format {format:?}"))),
        };
        let geometries: Vec<Arc<Geometry>> = meshes
            .iter()
            .map(|m| {
                Arc::new(Geometry {
                    positions: m.inner.vertices.clone(),
                    triangles: m.inner.triangles.clone(),
                })
            })
            .collect();
        let instances = instances
            .into_iter()
            .map(
                |(node, node_name, instance, mesh, mesh_name, primitive, t, g)| {
                    let geometry = geometries.get(g).cloned().ok_or_else(|| {
                        value_error(format!(
                            "pickled scene: geometry {g} of {}",
                            geometries.len()
                        ))
                    })?;
                    if !t.iter().all(|x| x.is_finite()) {
                        return Err(value_error("pickled scene: a transform is not finite"));
                    }
                    Ok(MeshInstance {
                        node,
                        node_name: node_name.map(Arc::from),
                        instance,
                        mesh,
                        mesh_name: mesh_name.map(Arc::from),
                        primitive,
                        transform: Matrix4::from_row_slice(&t),
                        geometry,
                        skin: None,
                    })
                },
            )
            .collect::<PyResult<_>>()?;
        Ok(Scene::new(bvtool::Scene {
            path,
            format,
            instances,
            skipped_primitives,
            extensions,
        }))
    }

    /// Pickles as its geometry (each distinct one once, as a `Mesh`) and
    /// its instances. A scene with a skinned mesh does not pickle (its
    /// skin is not kept): a `ValueError` says so.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let s = &self.inner;
        if s.instances.iter().any(|i| i.skin.is_some()) {
            return Err(value_error(format!(
                "{}: a scene with a skinned mesh does not pickle (pickle scene.flatten(), its bind pose, or the path)",
                s.path.display()
            )));
        }
        let instances: Vec<InstanceState> = s
            .instances
            .iter()
            .zip(&self.geometry)
            .map(|(i, &g)| {
                let t = row_major(&i.transform);
                let name = |n: &Option<Arc<str>>| n.as_deref().map(str::to_owned);
                let (node, inst, mesh, prim) = (i.node, i.instance, i.mesh, i.primitive);
                (
                    node,
                    name(&i.node_name),
                    inst,
                    mesh,
                    name(&i.mesh_name),
                    prim,
                    t,
                    g,
                )
            })
            .collect();
        let args = (
            s.path.clone(),
            self.format(),
            s.skipped_primitives,
            s.extensions.clone(),
            self.meshes(py),
            instances,
        );
        crate::state::reduce::<Scene>(py, "_unpickle", args)
    }

    /// The file the scene was read from.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.path.clone()
    }

    /// `"gltf"`, `"glb"`, `"obj"` or `"stl"`.
    #[getter]
    fn format(&self) -> &'static str {
        use bvtool::mesh::Format;
        match self.inner.format {
            Format::Gltf => "gltf",
            Format::Glb => "glb",
            Format::Obj => "obj",
            Format::Stl => "stl",
        }
    }

    /// Every placed primitive, in scene traversal order.
    #[getter]
    fn instances(&self, py: Python<'_>) -> Vec<Instance> {
        self.inner
            .instances
            .iter()
            .zip(&self.geometry)
            .map(|(inst, &g)| Instance {
                node: inst.node,
                node_name: inst.node_name.as_deref().map(str::to_owned),
                gpu_instance: inst.instance,
                mesh_index: inst.mesh,
                mesh_name: inst.mesh_name.as_deref().map(str::to_owned),
                primitive: inst.primitive,
                transform: inst.transform,
                mesh: self.meshes[g].clone_ref(py),
            })
            .collect()
    }

    /// Each distinct geometry once, in local coordinates (instances that
    /// share a glTF mesh primitive share one `Mesh`).
    #[getter]
    fn meshes(&self, py: Python<'_>) -> Vec<Py<Mesh>> {
        self.meshes.iter().map(|m| m.clone_ref(py)).collect()
    }

    /// Triangles after flattening (each instance counted).
    #[getter]
    fn triangle_count(&self) -> usize {
        self.inner.triangle_count()
    }

    /// The world-space axis-aligned box of the vertices the triangles use
    /// (of every vertex for a point cloud), as `bvtool info` reports it:
    /// `(min, max)`, or `None` for an empty scene.
    #[getter]
    fn aabb<'py>(&self, py: Python<'py>) -> Option<AabbPair<'py>> {
        let s = &self.inner;
        let b = Aabb::from_points(placed_points(
            s.distinct_instances(),
            s.triangle_count() == 0,
        ))?;
        Some(corners(py, &b))
    }

    /// Primitives skipped because they are not triangles (points, lines).
    #[getter]
    fn skipped_primitives(&self) -> usize {
        self.inner.skipped_primitives
    }

    /// glTF extensions the file uses.
    #[getter]
    fn extensions(&self) -> Vec<String> {
        self.inner.extensions.clone()
    }

    /// The scene as one world-space `Mesh` (what `load_mesh` returns).
    fn flatten(&self, py: Python<'_>) -> PyResult<Mesh> {
        let s = self.inner.clone();
        Ok(Mesh::wrap(work::run(py, move |_| s.flatten())?))
    }

    fn __repr__(&self) -> String {
        format!(
            "Scene({:?}, {} instances, {} triangles)",
            self.inner.path.display().to_string(),
            self.inner.instances.len(),
            self.inner.triangle_count()
        )
    }
}

/// One primitive placed in the world by a node (and GPU instance).
#[pyclass(frozen, module = "bvtool")]
pub struct Instance {
    /// glTF node index (`None` for OBJ and STL).
    #[pyo3(get)]
    node: Option<u32>,
    /// The node's name, if the file gives one.
    #[pyo3(get)]
    node_name: Option<String>,
    /// `EXT_mesh_gpu_instancing` instance index (0 otherwise).
    #[pyo3(get)]
    gpu_instance: u32,
    /// glTF mesh index, OBJ object/group index or STL solid index.
    #[pyo3(get)]
    mesh_index: u32,
    /// The mesh's (object's, solid's) name, if the file gives one.
    #[pyo3(get)]
    mesh_name: Option<String>,
    /// Primitive index within the mesh.
    #[pyo3(get)]
    primitive: u32,
    transform: Matrix4<f64>,
    /// The geometry, in the mesh's local frame (shared between instances).
    #[pyo3(get)]
    mesh: Py<Mesh>,
}

#[pymethods]
impl Instance {
    /// Rebuilds a pickled instance (`__reduce__`); `transform` 16
    /// numbers, row by row.
    #[staticmethod]
    // One argument per pickled field.
    #[allow(clippy::too_many_arguments)]
    fn _unpickle(
        node: Option<u32>,
        node_name: Option<String>,
        gpu_instance: u32,
        mesh_index: u32,
        mesh_name: Option<String>,
        primitive: u32,
        transform: [f64; 16],
        mesh: Py<Mesh>,
    ) -> PyResult<Instance> {
        if !transform.iter().all(|x| x.is_finite()) {
            return Err(value_error("pickled instance: the transform is not finite"));
        }
        Ok(Instance {
            node,
            node_name,
            gpu_instance,
            mesh_index,
            mesh_name,
            primitive,
            transform: Matrix4::from_row_slice(&transform),
            mesh,
        })
    }

    /// Pickles as its fields (the transform bit for bit; its mesh pickled
    /// as itself).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let args = (
            self.node,
            self.node_name.clone(),
            self.gpu_instance,
            self.mesh_index,
            self.mesh_name.clone(),
            self.primitive,
            row_major(&self.transform),
            self.mesh.clone_ref(py),
        );
        crate::state::reduce::<Instance>(py, "_unpickle", args)
    }

    /// Local → world transform, a 4×4 `float64` array.
    #[getter]
    fn transform<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::rows_array(py, row_major(&self.transform).to_vec(), 4)
    }

    fn __repr__(&self) -> String {
        let name = |n: &Option<String>, i: Option<u32>| match (n, i) {
            (Some(n), _) => format!("{n:?}"),
            (None, Some(i)) => i.to_string(),
            (None, None) => "-".into(),
        };
        format!(
            "Instance(node={}, mesh={}, primitive={})",
            name(&self.node_name, self.node),
            name(&self.mesh_name, Some(self.mesh_index)),
            self.primitive
        )
    }
}

/// A mesh argument: a `Mesh`, a `Scene` (flattened into world
/// coordinates with the GIL released, as `load_mesh` flattens a file; its
/// instance and triangle limits were checked when it was loaded), or
/// anything with `vertices` and `faces` arrays (a `trimesh.Trimesh`),
/// converted.
pub fn mesh_arg<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Mesh>> {
    if let Ok(m) = obj.cast::<Mesh>() {
        return Ok(m.clone());
    }
    if let Ok(s) = obj.cast::<Scene>() {
        let scene = s.get().inner.clone();
        let flat = work::run(obj.py(), move |_| scene.flatten())?;
        return Bound::new(obj.py(), Mesh::wrap(flat));
    }
    match (obj.getattr("vertices"), obj.getattr("faces")) {
        (Ok(v), Ok(f)) => Bound::new(obj.py(), Mesh::from_arrays(&v, &f)?),
        _ => Err(value_error(format!(
            "expected a bvtool.Mesh, a bvtool.Scene or an object with vertices and faces arrays (a trimesh.Trimesh), got {}",
            obj.get_type().name()?
        ))),
    }
}
