//! Scene queries: `clash` (which parts of some scenes collide) and
//! `self_intersections` (where a mesh cuts itself), as `bvtool clash` and
//! `bvtool clash --self` answer them.

use crate::arrays;
use crate::errors::{GeometryError, InputError, to_py};
use crate::mesh::{Scene, TriangleSource, mesh_arg};
use crate::state::{Reduced, reduce};
use crate::work;
use bvtool::clash::{ClashOptions, ClashScene, Grouping};
use bvtool::load::{DEFAULT_MAX_INSTANCES, LoadOptions, TriangleLimit};
use bvtool::threads::Stop;
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyList;
use rayon::prelude::*;
use std::path::PathBuf;

/// One input of `clash`: a path to load, or a scene already loaded.
enum Input {
    Path(PathBuf),
    Loaded(bvtool::Scene),
}

fn inputs(files: &Bound<'_, PyAny>) -> PyResult<Vec<Input>> {
    let one = |f: &Bound<'_, PyAny>| -> PyResult<Input> {
        match f.cast::<Scene>() {
            Ok(s) => Ok(Input::Loaded((*s.get().inner).clone())),
            Err(_) => Ok(Input::Path(f.extract()?)),
        }
    };
    // A lone path or scene, or a sequence of them (a str is a path).
    if files.cast::<Scene>().is_ok() || files.extract::<PathBuf>().is_ok() {
        return Ok(vec![one(files)?]);
    }
    files.try_iter()?.map(|f| one(&f?)).collect()
}

/// Which parts of the given files' scenes clash.
///
/// `files` is a path, a `Scene`, or a list of them; each file's flattened
/// scene is split into parts `by` mesh `"instance"` (a glTF node's mesh, an
/// OBJ object, an STL solid; the default), `"primitive"`, `"node"` or
/// `"file"`, and every pair of parts whose surfaces meet, or one of which
/// lies inside the other, is a clash — with `clearance` (model units) also
/// every pair that comes within it. Pairs inside one part are never
/// reported (see `self_intersections`). `all_pairs` lists each clash's
/// triangle pairs; `ignore_touching` drops parts that only touch. Parts
/// share one tree per glTF mesh; trees are built and pairs tested in
/// parallel with the GIL released. `max_pairs` (default 1,000,000, as the
/// command line's `--max-pairs`) bounds the pairs kept — pairs of placed
/// primitives whose boxes overlap, and triangle pairs listed — so that n
/// parts at one spot (n²/2 pairs) raise `InputError` instead of exhausting
/// memory. Load options as `load`.
#[pyfunction]
#[pyo3(signature = (files, *, clearance = None, all_pairs = false, by = "instance", ignore_touching = false, allow_external_uris = false, max_pairs = bvtool::query::MAX_PAIRS))]
#[allow(clippy::too_many_arguments)]
pub fn clash(
    py: Python<'_>,
    files: &Bound<'_, PyAny>,
    clearance: Option<f64>,
    all_pairs: bool,
    by: &str,
    ignore_touching: bool,
    allow_external_uris: bool,
    max_pairs: usize,
) -> PyResult<Clashes> {
    let by: Grouping = by.parse().map_err(|_| {
        InputError::new_err(format!(
            "by {by:?}: expected \"primitive\", \"instance\", \"node\" or \"file\""
        ))
    })?;
    let clearance = clearance.map(crate::tree::clearance).transpose()?;
    let inputs = inputs(files)?;
    let opts = LoadOptions {
        allow_external_uris,
        max_instances: DEFAULT_MAX_INSTANCES,
        max_triangles: TriangleLimit::Auto,
    };
    let (parts, found) = work::run(py, move |cancel| -> PyResult<_> {
        let stop = Stop::on(cancel);
        let scenes = inputs
            .into_par_iter()
            .map(|i| match i {
                Input::Loaded(s) => Ok(s),
                Input::Path(p) => {
                    let bytes = crate::errors::read_model(&p)?;
                    bvtool::load::load_bytes(&p, &bytes, &opts).map_err(to_py)
                }
            })
            .collect::<PyResult<Vec<bvtool::Scene>>>()?;
        let names: Vec<String> = scenes
            .iter()
            .map(|s| s.path.display().to_string())
            .collect();
        let scene = ClashScene::new_until(&scenes, &names, by, stop).map_err(work::stopped)?;
        if scene.parts.parts.is_empty() {
            return Err(GeometryError::new_err(format!(
                "{}: no triangles to clash",
                names.join(", ")
            )));
        }
        let found = scene
            .clashes_until(
                &ClashOptions {
                    all_pairs,
                    ignore_touching,
                    clearance,
                    max_pairs: Some(max_pairs),
                },
                stop,
            )
            .map_err(work::stopped)?
            .map_err(|e| InputError::new_err(format!("{}: {e}", names.join(", "))))?;
        Ok((scene.parts.parts, found))
    })??;
    Ok(Clashes {
        parts: parts.into_iter().map(Part).collect(),
        clashes: found.clashes.into_iter().map(Clash).collect(),
        candidate_pairs: found.candidate_pairs,
        touching_dropped: found.touching_dropped,
        open_containers: found.open_containers,
    })
}

/// The answer of `clash`.
#[pyclass(frozen, module = "bvtool")]
pub struct Clashes {
    parts: Vec<Part>,
    clashes: Vec<Clash>,
    /// Part pairs whose world boxes overlap (what the broad phase passed on).
    #[pyo3(get)]
    candidate_pairs: usize,
    /// Touching part pairs left out by `ignore_touching`.
    #[pyo3(get)]
    touching_dropped: usize,
    /// Part pairs whose surfaces do not meet, one inside the other's box,
    /// where the outer part is open and so has no inside to decide.
    #[pyo3(get)]
    open_containers: usize,
}

#[pymethods]
impl Clashes {
    /// Rebuilds a pickled answer (`__reduce__`).
    #[staticmethod]
    fn _unpickle(
        parts: Vec<PyRef<'_, Part>>,
        clashes: Vec<PyRef<'_, Clash>>,
        candidate_pairs: usize,
        touching_dropped: usize,
        open_containers: usize,
    ) -> Clashes {
        Clashes {
            parts: parts.iter().map(|p| Part(p.0.clone())).collect(),
            clashes: clashes.iter().map(|c| Clash(c.0.clone())).collect(),
            candidate_pairs,
            touching_dropped,
            open_containers,
        }
    }
    /// Pickles as its parts and clashes (each pickled as itself) and counts.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let s = self;
        let args = (
            s.parts(py)?,
            s.clashes(py)?,
            s.candidate_pairs,
            s.touching_dropped,
            s.open_containers,
        );
        reduce::<Clashes>(py, "_unpickle", args)
    }
    /// Every part, in scene order (`Clash.a` and `Clash.b` index it).
    #[getter]
    fn parts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.parts.iter().map(|p| Part(p.0.clone())))
    }

    /// The clashing part pairs, sorted by `(a, b)`.
    #[getter]
    fn clashes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.clashes.iter().map(|c| Clash(c.0.clone())))
    }

    fn __len__(&self) -> usize {
        self.clashes.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Clashes({} parts, {} candidate pairs, {} clashes)",
            self.parts.len(),
            self.candidate_pairs,
            self.clashes.len()
        )
    }
}

/// A part of a clash: a group of placed primitives, named as its file
/// names it.
#[pyclass(frozen, module = "bvtool")]
pub struct Part(bvtool::clash::Part);

#[pymethods]
impl Part {
    /// Rebuilds a pickled part (`__reduce__`).
    #[staticmethod]
    // One argument per pickled field.
    #[allow(clippy::too_many_arguments)]
    fn _unpickle(
        index: usize,
        name: String,
        file: String,
        node: Option<u32>,
        node_name: Option<String>,
        instance: Option<u32>,
        mesh: Option<u32>,
        mesh_name: Option<String>,
        primitive: Option<u32>,
        triangles: usize,
    ) -> Part {
        Part(bvtool::clash::Part {
            index,
            name,
            file,
            node,
            node_name,
            instance,
            mesh,
            mesh_name,
            primitive,
            triangles,
            // Which scene instances make it: the clash's own bookkeeping,
            // never shown in Python.
            members: Vec::new(),
        })
    }
    /// Pickles as the fields Python sees, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let p = self.0.clone();
        let args = (
            p.index,
            p.name,
            p.file,
            p.node,
            p.node_name,
            p.instance,
            p.mesh,
            p.mesh_name,
            p.primitive,
            p.triangles,
        );
        reduce::<Part>(py, "_unpickle", args)
    }
    /// Position in the part list.
    #[getter]
    fn index(&self) -> usize {
        self.0.index
    }
    /// A readable name (file, node, mesh, primitive as far as they identify
    /// the part).
    #[getter]
    fn name(&self) -> &str {
        &self.0.name
    }
    /// The file.
    #[getter]
    fn file(&self) -> &str {
        &self.0.file
    }
    /// glTF node index, when the part has one node.
    #[getter]
    fn node(&self) -> Option<u32> {
        self.0.node
    }
    /// glTF node name.
    #[getter]
    fn node_name(&self) -> Option<&str> {
        self.0.node_name.as_deref()
    }
    /// `EXT_mesh_gpu_instancing` instance.
    #[getter]
    fn instance(&self) -> Option<u32> {
        self.0.instance
    }
    /// glTF mesh, OBJ object or STL solid index.
    #[getter]
    fn mesh(&self) -> Option<u32> {
        self.0.mesh
    }
    /// The mesh's name.
    #[getter]
    fn mesh_name(&self) -> Option<&str> {
        self.0.mesh_name.as_deref()
    }
    /// Primitive index (with `by="primitive"`).
    #[getter]
    fn primitive(&self) -> Option<u32> {
        self.0.primitive
    }
    /// Triangles, each instance counted.
    #[getter]
    fn triangles(&self) -> usize {
        self.0.triangles
    }
    fn __repr__(&self) -> String {
        format!("Part({}, {:?})", self.0.index, self.0.name)
    }
}

/// Two parts that clash.
#[pyclass(frozen, module = "bvtool")]
pub struct Clash(bvtool::clash::Clash);

#[pymethods]
impl Clash {
    /// Rebuilds a pickled clash (`__reduce__`).
    #[staticmethod]
    // One argument per pickled field.
    #[allow(clippy::too_many_arguments)]
    fn _unpickle(
        a: usize,
        b: usize,
        kind: &str,
        triangle_pairs: usize,
        clearance_pairs: Option<usize>,
        min_distance: Option<f64>,
        crossing_pairs: usize,
        depth: f64,
        inside: Option<usize>,
        pairs: Option<Vec<PyRef<'_, TrianglePair>>>,
    ) -> PyResult<Clash> {
        use bvtool::clash::ClashKind::*;
        let kind = [Intersecting, Touching, Contained, Clearance]
            .into_iter()
            .find(|k| k.name() == kind)
            .ok_or_else(|| crate::errors::value_error(format!("pickled clash kind {kind:?}")))?;
        Ok(Clash(bvtool::clash::Clash {
            a,
            b,
            kind,
            triangle_pairs,
            clearance_pairs,
            min_distance,
            crossing_pairs,
            depth,
            inside,
            pairs: pairs.map(|p| p.iter().map(|t| t.0).collect()),
        }))
    }
    /// Pickles as its fields (its triangle pairs each pickled as itself).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let c = &self.0;
        let args = (
            c.a,
            c.b,
            c.kind.name(),
            c.triangle_pairs,
            c.clearance_pairs,
            c.min_distance,
            c.crossing_pairs,
            c.depth,
            c.inside,
            self.pairs(),
        );
        reduce::<Clash>(py, "_unpickle", args)
    }
    /// The first part (index into `Clashes.parts`; `a < b`).
    #[getter]
    fn a(&self) -> usize {
        self.0.a
    }
    /// The second part.
    #[getter]
    fn b(&self) -> usize {
        self.0.b
    }
    /// `"intersecting"` (triangles cross), `"touching"` (they meet without
    /// crossing), `"contained"` (one part inside the other, surfaces apart)
    /// or `"clearance"` (apart, but within the clearance).
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind.name()
    }
    /// Meeting triangle pairs (touching ones included).
    #[getter]
    fn triangle_pairs(&self) -> usize {
        self.0.triangle_pairs
    }
    /// Those of them that cross.
    #[getter]
    fn crossing_pairs(&self) -> usize {
        self.0.crossing_pairs
    }
    /// The deepest crossing (model units; 0 when none crosses).
    #[getter]
    fn depth(&self) -> f64 {
        self.0.depth
    }
    /// With a clearance: triangle pairs within it.
    #[getter]
    fn clearance_pairs(&self) -> Option<usize> {
        self.0.clearance_pairs
    }
    /// With a clearance: the least distance between the parts within it.
    #[getter]
    fn min_distance(&self) -> Option<f64> {
        self.0.min_distance
    }
    /// For `"contained"`: the part inside the other.
    #[getter]
    fn inside(&self) -> Option<usize> {
        self.0.inside
    }
    /// With `all_pairs`: every meeting triangle pair (and every pair within
    /// the clearance), else `None`.
    #[getter]
    fn pairs(&self) -> Option<Vec<TrianglePair>> {
        self.0
            .pairs
            .as_ref()
            .map(|p| p.iter().map(|t| TrianglePair(*t)).collect())
    }
    fn __repr__(&self) -> String {
        format!(
            "Clash({}, {}, {}, triangle_pairs={})",
            self.0.a,
            self.0.b,
            self.0.kind.name(),
            self.0.triangle_pairs
        )
    }
}

/// A triangle pair of a clash.
#[pyclass(frozen, module = "bvtool")]
pub struct TrianglePair(bvtool::clash::TrianglePair);

#[pymethods]
impl TrianglePair {
    /// Rebuilds a pickled pair (`__reduce__`).
    #[staticmethod]
    fn _unpickle(
        a: PyRef<'_, TriangleSource>,
        b: PyRef<'_, TriangleSource>,
        intersecting: bool,
        crossing: bool,
        distance: Option<f64>,
    ) -> TrianglePair {
        TrianglePair(bvtool::clash::TrianglePair {
            a: a.0,
            b: b.0,
            intersecting,
            crossing,
            distance,
        })
    }
    /// Pickles as its fields, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let t = &self.0;
        let args = (self.a(), self.b(), t.intersecting, t.crossing, t.distance);
        reduce::<TrianglePair>(py, "_unpickle", args)
    }
    /// The triangle of part `a`.
    #[getter]
    fn a(&self) -> TriangleSource {
        TriangleSource(self.0.a)
    }
    /// The triangle of part `b`.
    #[getter]
    fn b(&self) -> TriangleSource {
        TriangleSource(self.0.b)
    }
    /// Whether they meet (exact).
    #[getter]
    fn intersecting(&self) -> bool {
        self.0.intersecting
    }
    /// Whether they cross.
    #[getter]
    fn crossing(&self) -> bool {
        self.0.crossing
    }
    /// Their distance, with a clearance (0 when they meet).
    #[getter]
    fn distance(&self) -> Option<f64> {
        self.0.distance
    }
    fn __repr__(&self) -> String {
        format!(
            "TrianglePair({}, {})",
            bvtool::report::collide::triangle_name(&self.0.a),
            bvtool::report::collide::triangle_name(&self.0.b)
        )
    }
}

/// Where `mesh` (a `Mesh`, a `Scene` — flattened to world coordinates, as
/// `load_mesh` gives it — or anything with `vertices` and `faces`) cuts
/// itself: every pair of its triangles that meet other than along a shared
/// edge or corner (welded positions decide what is shared), and every
/// degenerate triangle. Exact predicates; runs in parallel with the GIL
/// released. `bvtool clash --self` answers per mesh of a file; this answers
/// for the one mesh given.
#[pyfunction]
pub fn self_intersections(py: Python<'_>, mesh: &Bound<'_, PyAny>) -> PyResult<SelfIntersections> {
    let m = mesh_arg(mesh)?.get().inner.clone();
    if m.triangles.is_empty() {
        return Err(GeometryError::new_err("the mesh has no triangles to test"));
    }
    Ok(SelfIntersections(work::run_until(py, move |stop| {
        let tree = bvtool::tree::AabbTree::build_until(&m, stop)?;
        bvtool::clash::self_intersections_until(&tree, stop)
    })?))
}

/// The answer of `self_intersections`.
#[pyclass(frozen, module = "bvtool")]
pub struct SelfIntersections(bvtool::clash::SelfIntersections);

#[pymethods]
impl SelfIntersections {
    /// Rebuilds a pickled answer (`__reduce__`): `pairs` a `(k, 2)`
    /// `uint32` array, `degenerate` a `uint32` vector.
    #[staticmethod]
    fn _unpickle(
        pairs: numpy::PyReadonlyArray2<'_, u32>,
        degenerate: Vec<u32>,
        welded_vertices: usize,
    ) -> PyResult<SelfIntersections> {
        let a = pairs.as_array();
        if a.ncols() != 2 {
            return Err(crate::errors::value_error(format!(
                "pickled self-intersections: pairs of shape {:?}, expected (k, 2)",
                a.shape()
            )));
        }
        Ok(SelfIntersections(bvtool::clash::SelfIntersections {
            pairs: a.rows().into_iter().map(|r| (r[0], r[1])).collect(),
            degenerate,
            welded_vertices,
        }))
    }
    /// Pickles as its arrays and count.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let args = (self.pairs(py), self.degenerate(py), self.0.welded_vertices);
        reduce::<SelfIntersections>(py, "_unpickle", args)
    }
    /// Intersecting pairs `(i, j)`, `i < j`, then `(d, d)` for each
    /// degenerate triangle `d`: a `(k, 2)` `uint32` array, sorted.
    #[getter]
    fn pairs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u32>> {
        arrays::pairs(py, &self.0.pairs)
    }
    /// Degenerate triangles (zero area, exactly), ascending.
    #[getter]
    fn degenerate<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        arrays::vector(py, self.0.degenerate.clone())
    }
    /// The triangles that take part in some pair, ascending.
    #[getter]
    fn faces<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        arrays::vector(py, self.0.faces())
    }
    /// Distinct vertex positions after welding.
    #[getter]
    fn welded_vertices(&self) -> usize {
        self.0.welded_vertices
    }
    fn __bool__(&self) -> bool {
        !self.0.pairs.is_empty()
    }
    fn __len__(&self) -> usize {
        self.0.pairs.len()
    }
    fn __repr__(&self) -> String {
        format!(
            "SelfIntersections({} pairs, {} degenerate)",
            self.0.pairs.len(),
            self.0.degenerate.len()
        )
    }
}
