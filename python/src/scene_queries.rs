//! Scene queries: `clash` (which parts of some scenes collide) and
//! `self_intersections` (where a mesh cuts itself), as `bvtool clash` and
//! `bvtool clash --self` answer them.

use crate::arrays;
use crate::errors::{GeometryError, InputError, to_py, value_error};
use crate::mesh::{Scene, TriangleSource, mesh_arg};
use crate::state::{Reduced, reduce};
use crate::work;
use bvtool::clash::{ClashDepth, ClashOptions, ClashScene, Grouping, Searched};
use bvtool::load::{DEFAULT_MAX_INSTANCES, LoadOptions, TriangleLimit};
use bvtool::query::depth::DepthSettings;
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
///
/// With `depth` (the default) each intersecting and contained pair gets its
/// `severity`: the protrusion depth (the largest distance from a point of
/// one part's surface inside the other to the other's surface, searched
/// only into closed parts), the deep point, its nearest point and the
/// normal; the clashes come deepest first. `min_depth` reports pairs of
/// closed parts certainly shallower (`depth + bound < min_depth`) as
/// `"touching"`; `depth_tolerance` (model units, default 1e-5 × the pair's
/// larger box diagonal) and `max_splits` (a direction, default 2,000) as
/// the command line's `--depth-tolerance` and `--max-splits`.
#[pyfunction]
#[pyo3(signature = (files, *, clearance = None, all_pairs = false, by = "instance", ignore_touching = false, allow_external_uris = false, max_pairs = bvtool::query::MAX_PAIRS, depth = true, min_depth = None, depth_tolerance = None, max_splits = None))]
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
    depth: bool,
    min_depth: Option<f64>,
    depth_tolerance: Option<f64>,
    max_splits: Option<u64>,
) -> PyResult<Clashes> {
    let depth = clash_depth(depth, min_depth, depth_tolerance, max_splits)?;
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
                    depth,
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
        shallow: found.shallow,
    })
}

/// The depth options of `clash`, checked: `min_depth` (≥ 0),
/// `depth_tolerance` (> 0) and `max_splits` need `depth`.
fn clash_depth(
    depth: bool,
    min_depth: Option<f64>,
    tolerance: Option<f64>,
    max_splits: Option<u64>,
) -> PyResult<Option<ClashDepth>> {
    if !depth {
        if min_depth.is_some() || tolerance.is_some() || max_splits.is_some() {
            return Err(value_error(
                "min_depth, depth_tolerance and max_splits need depth=True",
            ));
        }
        return Ok(None);
    }
    if let Some(d) = min_depth.filter(|d| !(d.is_finite() && *d >= 0.0)) {
        return Err(value_error(format!(
            "min_depth {d}: expected a finite number >= 0"
        )));
    }
    if let Some(t) = tolerance.filter(|t| !(t.is_finite() && *t > 0.0)) {
        return Err(value_error(format!(
            "depth_tolerance {t}: expected a finite number > 0"
        )));
    }
    Ok(Some(ClashDepth {
        search: DepthSettings {
            tolerance,
            max_splits,
        },
        min_depth: min_depth.unwrap_or(0.0),
    }))
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
    /// Intersecting or contained pairs reported as touching (or left out
    /// with `ignore_touching`) for being certainly shallower than
    /// `min_depth`.
    #[pyo3(get)]
    shallow: usize,
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
        shallow: usize,
    ) -> Clashes {
        Clashes {
            parts: parts.iter().map(|p| Part(p.0.clone())).collect(),
            clashes: clashes.iter().map(|c| Clash(c.0.clone())).collect(),
            candidate_pairs,
            touching_dropped,
            open_containers,
            shallow,
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
            s.shallow,
        );
        reduce::<Clashes>(py, "_unpickle", args)
    }
    /// Every part, in scene order (`Clash.a` and `Clash.b` index it).
    #[getter]
    fn parts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.parts.iter().map(|p| Part(p.0.clone())))
    }

    /// The clashing part pairs, deepest first (pairs without a depth after,
    /// by `(a, b)`); with `depth=False`, by `(a, b)`.
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
        crossing_depth: f64,
        severity: Option<PyRef<'_, Severity>>,
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
            crossing_depth,
            severity: severity.map(|s| s.0),
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
            c.crossing_depth,
            self.severity(),
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
    /// The deepest crossing of a triangle pair (model units; 0 when none
    /// crosses): how far each reaches across the other's plane, the
    /// smaller, in `f64`.
    #[getter]
    fn crossing_depth(&self) -> f64 {
        self.0.crossing_depth
    }
    /// The pair's protrusion depth (`severity.depth`), `None` without one.
    #[getter]
    fn depth(&self) -> Option<f64> {
        self.0.severity.map(|s| s.depth)
    }
    /// The depth with its witnesses and normal, for intersecting and
    /// contained pairs (and pairs `min_depth` reported as touching); `None`
    /// otherwise and with `depth=False`.
    #[getter]
    fn severity(&self) -> Option<Severity> {
        self.0.severity.map(Severity)
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

/// How deep an intersecting or contained pair overlaps (see `clash`).
#[pyclass(frozen, module = "bvtool")]
pub struct Severity(bvtool::clash::Severity);

/// The names of `Searched`, as `Severity.searched` gives them.
const SEARCHED: [(&str, Searched); 4] = [
    ("both", Searched::Both),
    ("into_a", Searched::IntoA),
    ("into_b", Searched::IntoB),
    ("neither", Searched::Neither),
];

#[pymethods]
impl Severity {
    /// Rebuilds a pickled severity (`__reduce__`).
    #[staticmethod]
    // One argument per pickled field.
    #[allow(clippy::too_many_arguments)]
    fn _unpickle(
        depth: f64,
        protruding: Option<usize>,
        normal: Option<[f64; 3]>,
        point_a: Option<[f64; 3]>,
        point_b: Option<[f64; 3]>,
        searched: &str,
        tolerance: f64,
        bound: f64,
        capped: bool,
    ) -> PyResult<Severity> {
        let searched = SEARCHED
            .iter()
            .find(|(n, _)| *n == searched)
            .ok_or_else(|| value_error(format!("pickled severity searched {searched:?}")))?
            .1;
        Ok(Severity(bvtool::clash::Severity {
            depth,
            protruding,
            normal: normal.map(Into::into),
            point_a: point_a.map(Into::into),
            point_b: point_b.map(Into::into),
            searched,
            tolerance,
            bound,
            capped,
        }))
    }
    /// Pickles as its fields, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let s = &self.0;
        let p = |p: Option<nalgebra::Point3<f64>>| p.map(|p| <[f64; 3]>::from(p.coords));
        let args = (
            s.depth,
            s.protruding,
            s.normal.map(<[f64; 3]>::from),
            p(s.point_a),
            p(s.point_b),
            self.searched(),
            s.tolerance,
            s.bound,
            s.capped,
        );
        reduce::<Severity>(py, "_unpickle", args)
    }
    /// The protrusion depth (model units, ≥ 0): how far the deepest point
    /// of one part's surface inside the other lies from the other's
    /// surface; the true depth lies in `[depth, depth + bound]`.
    #[getter]
    fn depth(&self) -> f64 {
        self.0.depth
    }
    /// The part whose surface protrudes (index into `Clashes.parts`);
    /// `None` when `depth` is 0.
    #[getter]
    fn protruding(&self) -> Option<usize> {
        self.0.protruding
    }
    /// The unit direction with `point_a - point_b == depth * normal`, `(3,)`;
    /// `None` when `depth` is 0.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.0
            .normal
            .map(|n| arrays::vector(py, n.as_slice().to_vec()))
    }
    /// The witness on part `a`'s surface (world coordinates), `(3,)`.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.0
            .point_a
            .map(|p| arrays::vector(py, p.coords.as_slice().to_vec()))
    }
    /// The witness on part `b`'s surface, `(3,)`.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.0
            .point_b
            .map(|p| arrays::vector(py, p.coords.as_slice().to_vec()))
    }
    /// Which directions were searched (only into closed parts): `"both"`,
    /// `"into_a"` (`b` is open), `"into_b"` or `"neither"`.
    #[getter]
    fn searched(&self) -> &'static str {
        SEARCHED
            .iter()
            .find(|(_, s)| *s == self.0.searched)
            .expect("every Searched is named")
            .0
    }
    /// The depth's absolute tolerance used (model units).
    #[getter]
    fn tolerance(&self) -> f64 {
        self.0.tolerance
    }
    /// The true depth is at most `depth + bound`.
    #[getter]
    fn bound(&self) -> f64 {
        self.0.bound
    }
    /// Whether the split cap stopped a search (`bound` may then exceed the
    /// tolerance).
    #[getter]
    fn capped(&self) -> bool {
        self.0.capped
    }
    fn __repr__(&self) -> String {
        format!(
            "Severity(depth={}, protruding={:?}, searched={})",
            self.0.depth,
            self.0.protruding,
            self.searched()
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
