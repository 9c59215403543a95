//! `ObbTree` and its queries: collide, distance and clearance, one pose at
//! a time or a batch of poses on every core with the GIL released.

use crate::arrays;
use crate::depth;
use crate::errors::{GeometryError, to_py, unreadable, value_error};
use crate::mesh::{Mesh, mesh_arg};
use crate::point_queries::{self, ClosestArrays};
use crate::pose::{pose_from, poses_from};
use crate::work;
use bvtool::mesh::xyz;
use bvtool::query::contact::{self, ContactPatch, Contacts, PairContact};
use bvtool::query::point::PointTree;
use bvtool::query::{self, ContactMode, DistanceOptions, DistanceScratch};
use bvtool::tree::{MAX_LEAF_SIZE, NodeFit, default_leaf_size};
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rayon::prelude::*;
use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// The OBB tree of a mesh: what every pair query runs on.
///
/// `ObbTree(mesh, leaf_size=None, node_fit="flush")` builds it (leaves of
/// 1 to 8 triangles, by default 6, or 2 under 8,192 triangles; in parallel,
/// with the GIL released); `mesh` is a `Mesh` or anything with `vertices`
/// and `faces` (a `trimesh.Trimesh`). `node_fit="flush"` turns node boxes
/// to the least rectangle about each axis (3–4× the build time, 15–40 %
/// fewer box tests a query — a tree kept for many queries); `"quick"` builds
/// fastest, as the command line does. Queries place the other tree's mesh B by a pose
/// in this tree's frame (B's vertices map `v → R·v + t`) and answer in
/// this frame, in model units; touching counts as contact. Triangle indices
/// in answers are indices into the meshes' `triangles`.
///
/// The point and ray queries (`closest_points`, `signed_distance`,
/// `contains`, `winding_number`, `cast_rays`) run on an AABB tree of the
/// same mesh, built on their first call and shared by later ones.
#[pyclass(frozen, module = "bvtool")]
pub struct ObbTree {
    pub inner: Arc<bvtool::tree::ObbTree>,
    mesh: Py<Mesh>,
    points: OnceLock<PointTree>,
}

impl ObbTree {
    /// A tree of `data` (`from_bytes`), its mesh `mesh` (checked against
    /// the tree) or rebuilt from the tree; errors start with `context`.
    /// Validation and the mesh comparison run on this process's pool.
    fn read(
        py: Python<'_>,
        data: &[u8],
        mesh: Option<&Bound<'_, PyAny>>,
        context: &str,
    ) -> PyResult<ObbTree> {
        let tree = tree_of(py, data, context)?;
        let mesh = match mesh {
            Some(m) => {
                let m = mesh_arg(m)?;
                let inner = m.get().inner.clone();
                py.detach(|| bvtool::threads::pool().install(|| same_triangles(&tree, &inner)))
                    .map_err(|e| value_error(format!("{context}tree bytes and mesh: {e}")))?;
                m.unbind()
            }
            None => {
                // Each triangle its own source, written on the pool.
                let plain = || {
                    let mut plain = bvtool::memory::with_capacity(tree.triangle_count());
                    plain.par_extend(
                        (0..tree.triangle_count() as u32)
                            .into_par_iter()
                            .map(|k| bvtool::TriangleSource::unplaced(0, k)),
                    );
                    tree.mesh_with(None, plain)
                };
                let m = py
                    .detach(|| bvtool::threads::pool().install(plain))
                    .map_err(value_error)?;
                Py::new(py, Mesh::wrap(m))?
            }
        };
        Ok(ObbTree {
            inner: Arc::new(tree),
            mesh,
            points: OnceLock::new(),
        })
    }

    /// The point queries' tree, built on first use (with the GIL released).
    fn point_tree(&self, py: Python<'_>) -> &PointTree {
        if let Some(t) = self.points.get() {
            return t;
        }
        let m = self.mesh.get().inner.clone();
        let built = py.detach(|| bvtool::threads::pool().install(|| PointTree::build(&m)));
        self.points.get_or_init(|| built)
    }
}

/// The tree of `data` (`from_bytes`, validated on this process's pool with
/// the GIL released); errors start with `context`.
fn tree_of(py: Python<'_>, data: &[u8], context: &str) -> PyResult<bvtool::tree::ObbTree> {
    py.detach(|| bvtool::threads::pool().install(|| bvtool::tree::ObbTree::from_bytes(data)))
        .map_err(|e| value_error(format!("{context}tree bytes: {e}")))
}

/// `f` of the bytes of `data`, read where they lie: a `bytes` object as it
/// is, any other contiguous buffer (a `memoryview`, `bytearray`, or the
/// `pickle.PickleBuffer` an out-of-band `pickle.loads` hands over) through
/// a read-only numpy view of it. Not copied; the caller must not change
/// the buffer during the call.
fn with_buffer<R>(data: &Bound<'_, PyAny>, f: impl FnOnce(&[u8]) -> PyResult<R>) -> PyResult<R> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return f(b.as_bytes());
    }
    let view = data
        .py()
        .import("numpy")?
        .call_method1("frombuffer", (data, "uint8"))?;
    let view: numpy::PyReadonlyArray1<'_, u8> = view.extract()?;
    f(view.as_slice()?)
}

/// `"first"` or `"all"`.
fn contact_mode(mode: &str) -> PyResult<ContactMode> {
    match mode {
        "first" => Ok(ContactMode::First),
        "all" => Ok(ContactMode::All),
        _ => Err(value_error(format!(
            "mode {mode:?}: expected \"first\" or \"all\""
        ))),
    }
}

/// `f(a, b, pose)` at every pose, in parallel on the pool with the GIL
/// released ([`work::run`]: one pose a claim, [`query::each_pose`]); a
/// signal stops the batch at the poses being answered.
fn per_pose<R: Send + Sync + 'static>(
    py: Python<'_>,
    trees: (&Arc<bvtool::tree::ObbTree>, &Arc<bvtool::tree::ObbTree>),
    poses: Vec<bvtool::Pose>,
    f: impl Fn(&bvtool::tree::ObbTree, &bvtool::tree::ObbTree, &bvtool::Pose) -> R
    + Sync
    + Send
    + 'static,
) -> PyResult<Vec<R>> {
    let (a, b) = (trees.0.clone(), trees.1.clone());
    let answers = work::run(py, move |cancel| {
        query::each_pose(&poses, |p| (!work::cancelled(cancel)).then(|| f(&a, &b, p)))
    })?;
    // Not cancelled (the caller would have raised), so every pose answered.
    Ok(answers.into_iter().flatten().collect())
}

/// Distance tolerances, checked (FCL's `rel_err` and `abs_err`).
fn tolerances(rel_err: f64, abs_err: f64) -> PyResult<DistanceOptions> {
    for (name, v) in [("rel_err", rel_err), ("abs_err", abs_err)] {
        if !(v >= 0.0 && v.is_finite()) {
            return Err(value_error(format!(
                "{name} {v}: expected a finite number ≥ 0"
            )));
        }
    }
    Ok(DistanceOptions { rel_err, abs_err })
}

/// A clearance (model units), checked: in `[0, 2^50]`.
pub fn clearance(d: f64) -> PyResult<f64> {
    if (0.0..=bvtool::mesh::MAX_COORDINATE).contains(&d) {
        Ok(d)
    } else {
        Err(value_error(format!(
            "clearance {d}: expected a number in [0, 2^50]"
        )))
    }
}

thread_local! {
    /// Each thread's distance queue, so that repeated queries allocate
    /// nothing once it has grown.
    static SCRATCH: RefCell<DistanceScratch> = RefCell::default();
}

fn distance_query(
    a: &bvtool::tree::ObbTree,
    b: &bvtool::tree::ObbTree,
    pose: &bvtool::Pose,
    opts: &DistanceOptions,
) -> query::Distance {
    SCRATCH
        .with_borrow_mut(|s| query::distance_with(s, a, b, pose, opts))
        .expect("trees are never empty")
}

#[pymethods]
impl ObbTree {
    #[new]
    #[pyo3(signature = (mesh, leaf_size = None, node_fit = "flush"))]
    fn new(
        py: Python<'_>,
        mesh: &Bound<'_, PyAny>,
        leaf_size: Option<usize>,
        node_fit: &str,
    ) -> PyResult<ObbTree> {
        let fit: NodeFit = node_fit.parse().map_err(|_| {
            value_error(format!(
                "node_fit {node_fit:?}: expected \"quick\" or \"flush\""
            ))
        })?;
        let mesh = mesh_arg(mesh)?;
        let m = mesh.get().inner.clone();
        if m.triangles.is_empty() {
            return Err(GeometryError::new_err(
                "the mesh has no triangles to build a tree on",
            ));
        }
        let leaf_size = leaf_size.unwrap_or(default_leaf_size(m.triangles.len()));
        if !(1..=MAX_LEAF_SIZE).contains(&leaf_size) {
            return Err(value_error(format!(
                "leaf_size {leaf_size}: expected 1 to {MAX_LEAF_SIZE}"
            )));
        }
        let tree = work::run_until(py, move |stop| {
            bvtool::tree::ObbTree::build_with_until(&m, leaf_size, fit, stop)
        })?;
        Ok(ObbTree {
            inner: Arc::new(tree),
            mesh: mesh.unbind(),
            points: OnceLock::new(),
        })
    }

    /// The mesh the tree was built from.
    #[getter]
    fn mesh(&self, py: Python<'_>) -> Py<Mesh> {
        self.mesh.clone_ref(py)
    }

    /// Triangles in the tree.
    #[getter]
    fn triangle_count(&self) -> usize {
        self.inner.triangle_count()
    }

    /// Nodes in the tree.
    #[getter]
    fn node_count(&self) -> usize {
        self.inner.nodes.len()
    }

    /// The most triangles a leaf holds.
    #[getter]
    fn leaf_size(&self) -> usize {
        self.inner.leaf_size
    }

    /// Bytes per triangle of everything the tree holds (nodes, permutation
    /// and the triangle corners it copies), as `bvtool tree` reports
    /// `total_bytes_per_triangle`.
    #[getter]
    fn bytes_per_triangle(&self) -> f64 {
        self.inner.total_bytes_per_triangle()
    }

    /// How `signed_distance` and `contains` decide inside for this mesh:
    /// `"exact winding number"` (closed, consistently oriented),
    /// `"exact parity"` (closed mod 2) or `"generalized winding number"`
    /// (open).
    #[getter]
    fn sign_method(&self, py: Python<'_>) -> &'static str {
        self.point_tree(py).sign_method().name()
    }

    /// The nearest point of the mesh to each row of `points` (`(n, 3)`):
    /// `(closest, distance, triangle, barycentric, feature)` — `(n, 3)`
    /// `float64` points, `(n,)` `float64` distances (exact up to
    /// `64·ε·S`, `S` the largest coordinate), `(n,)` `uint32` triangle
    /// indices, `(n, 3)` barycentric coordinates in that triangle and
    /// `(n,)` `uint8` features (0 face, 1–3 edge from corner 0–2 to the
    /// next, 4–6 corner 0–2).
    fn closest_points<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<ClosestArrays<'py>> {
        point_queries::closest_points(py, self.point_tree(py), points)
    }

    /// The signed distance of each row of `points` to the mesh: `(n,)`
    /// `float64`, negative inside (as `contains`), 0 on the surface.
    fn signed_distance<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let t = self.point_tree(py);
        point_queries::per_point(py, points, |p| t.signed_distance(p))
    }

    /// Whether each row of `points` is inside the mesh (winding number
    /// above ½, see `sign_method`): `(n,)` `bool`.
    fn contains<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let t = self.point_tree(py);
        point_queries::per_point(py, points, |p| t.contains(p))
    }

    /// The winding number at each row of `points`: `(n,)` `float64`,
    /// exact integers on a closed mesh (0 or 1 on one closed mod 2 only),
    /// the generalized winding number on an open one.
    fn winding_number<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let t = self.point_tree(py);
        point_queries::per_point(py, points, |p| t.winding_number(p).value)
    }

    /// Casts the rays `origins[i] + t·directions[i]`, `t` in
    /// `[t_min, t_max]` (in units of each direction's length), watertight.
    /// `mode="first"`: `(t, triangle, barycentric, normal)` — `(n,)` `t`
    /// (`inf` on a miss), `(n,)` `int64` triangles (−1 on a miss), `(n, 3)`
    /// barycentric coordinates and unit geometric normals (NaN on a miss);
    /// `"any"`: `(n,)` `bool`; `"count"`: `(n,)` `uint64` hits;
    /// `"all"`: `(ray, t, triangle)`, every hit, by ray then `t`.
    #[pyo3(signature = (origins, directions, mode = "first", t_min = 0.0, t_max = f64::INFINITY))]
    fn cast_rays<'py>(
        &self,
        py: Python<'py>,
        origins: &Bound<'py, PyAny>,
        directions: &Bound<'py, PyAny>,
        mode: &str,
        t_min: f64,
        t_max: f64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let t = self.point_tree(py);
        point_queries::cast_rays(py, t, origins, directions, mode, t_min, t_max)
    }

    /// Whether `other`'s mesh, placed by `pose`, touches or intersects this
    /// one. `mode="first"` stops at the first meeting triangle pair;
    /// `mode="all"` finds every one. Exact (adaptive predicates on the
    /// `float64` corners).
    ///
    /// With `contacts=True` (needs `mode="all"`), each pair's contact
    /// normal, depth and points and the pairs merged into one patch per
    /// contact plane (`Collision.contacts`, `Collision.patches`), as
    /// `bvtool collide --all-pairs --contacts` reports them.
    #[pyo3(signature = (other, pose = None, mode = "first", contacts = false))]
    fn collide(
        &self,
        py: Python<'_>,
        other: &ObbTree,
        pose: Option<&Bound<'_, PyAny>>,
        mode: &str,
        contacts: bool,
    ) -> PyResult<Collision> {
        let pose = pose_from(pose)?;
        let mode = contact_mode(mode)?;
        if contacts && mode != ContactMode::All {
            return Err(value_error(
                "contacts=True needs mode=\"all\": the contacts are every meeting pair's",
            ));
        }
        let (a, b) = (&self.inner, &other.inner);
        let meshes = contacts.then(|| {
            (
                self.mesh.get().inner.clone(),
                other.mesh.get().inner.clone(),
            )
        });
        let (inner, contacts) = py.detach(|| {
            let c = query::collide(a, b, &pose, mode);
            let found = meshes.map(|(ma, mb)| {
                let reach = (a.radius(), b.radius());
                contact::mesh_contacts(&ma, &mb, &pose, &c.pairs, reach)
            });
            (c, found)
        });
        Ok(Collision { inner, contacts })
    }

    /// `collide` at every pose of `poses` (an `(N, 4, 4)` or `(N, 7)` array
    /// of `(tx, ty, tz, qx, qy, qz, qw)` rows, or a sequence of poses), in
    /// parallel on every core with the GIL released.
    ///
    /// `mode="first"` returns an `(N,)` `bool` array; `mode="all"` returns
    /// `(hits, counts)`: the `bool` array and an `(N,)` `uint64` array of
    /// meeting triangle pairs per pose.
    #[pyo3(signature = (other, poses, mode = "first"))]
    fn collide_batch<'py>(
        &self,
        py: Python<'py>,
        other: &ObbTree,
        poses: &Bound<'py, PyAny>,
        mode: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let poses = poses_from(poses)?;
        let mode = contact_mode(mode)?;
        let counts = per_pose(py, (&self.inner, &other.inner), poses, move |a, b, p| {
            query::collide(a, b, p, mode).pairs.len() as u64
        })?;
        let hits: Vec<bool> = counts.iter().map(|&c| c > 0).collect();
        let hits = arrays::vector(py, hits).into_any();
        Ok(match mode {
            ContactMode::First => hits,
            ContactMode::All => (hits, arrays::vector(py, counts))
                .into_pyobject(py)?
                .into_any(),
        })
    }

    /// The minimum distance between this mesh and `other`'s placed by
    /// `pose`, with the closest points and triangles. 0 when they touch or
    /// intersect (`intersecting` is then `True`). Exact up to
    /// `rounding_bound`, or within the tolerances `rel_err` (relative) and
    /// `abs_err` (model units) when given, as FCL's.
    ///
    /// With `signed=True`, a `SignedDistance`: the distance when apart,
    /// minus the protrusion depth when the meshes overlap or one contains
    /// the other, with `depth`, `side`, `normal`, `point_a`, `point_b` and
    /// the depth's `bound` (`depth_tolerance`, model units, default 1e-5 ×
    /// the larger bounding-box diagonal; `max_splits` a direction, default
    /// 20,000).
    #[pyo3(signature = (other, pose = None, rel_err = 0.0, abs_err = 0.0, signed = false, depth_tolerance = None, max_splits = None))]
    #[allow(clippy::too_many_arguments)]
    fn distance<'py>(
        &self,
        py: Python<'py>,
        other: &ObbTree,
        pose: Option<&Bound<'py, PyAny>>,
        rel_err: f64,
        abs_err: f64,
        signed: bool,
        depth_tolerance: Option<f64>,
        max_splits: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let pose = pose_from(pose)?;
        let opts = tolerances(rel_err, abs_err)?;
        let (a, b) = (&self.inner, &other.inner);
        if signed {
            let (pa, pb) = (self.point_tree(py), other.point_tree(py));
            let s = depth::signed(
                py,
                (a, pa),
                (b, pb),
                &pose,
                opts,
                depth_tolerance,
                max_splits,
            )?;
            return Ok(Bound::new(py, s)?.into_any());
        }
        if depth_tolerance.is_some() || max_splits.is_some() {
            return Err(value_error(
                "depth_tolerance and max_splits need signed=True",
            ));
        }
        Ok(Bound::new(
            py,
            Distance(py.detach(|| distance_query(a, b, &pose, &opts))),
        )?
        .into_any())
    }

    /// `distance` at every pose of `poses` (as `collide_batch` takes them),
    /// in parallel with the GIL released: an `(N,)` `float64` array. With
    /// `signed=True`, each pose's `distance(..., signed=True).distance`
    /// (negative when overlapping, `depth_tolerance` and `max_splits` as
    /// there), in chunks with a Ctrl-C check between them.
    #[pyo3(signature = (other, poses, rel_err = 0.0, abs_err = 0.0, *, signed = false, depth_tolerance = None, max_splits = None))]
    #[allow(clippy::too_many_arguments)]
    fn distance_batch<'py>(
        &self,
        py: Python<'py>,
        other: &ObbTree,
        poses: &Bound<'py, PyAny>,
        rel_err: f64,
        abs_err: f64,
        signed: bool,
        depth_tolerance: Option<f64>,
        max_splits: Option<u64>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let poses = poses_from(poses)?;
        let opts = tolerances(rel_err, abs_err)?;
        if signed {
            let (pa, pb) = (self.point_tree(py), other.point_tree(py));
            return depth::signed_batch(
                py,
                (&self.inner, pa),
                (&other.inner, pb),
                &poses,
                opts,
                depth_tolerance,
                max_splits,
            );
        }
        if depth_tolerance.is_some() || max_splits.is_some() {
            return Err(value_error(
                "depth_tolerance and max_splits need signed=True",
            ));
        }
        let d = per_pose(py, (&self.inner, &other.inner), poses, move |a, b, p| {
            distance_query(a, b, p, &opts).distance
        })?;
        Ok(arrays::vector(py, d))
    }

    /// Which triangles of `other`'s mesh, placed by `pose`, come within
    /// `d` (model units, ≥ 0) of this mesh (touching and intersecting pairs
    /// included, at distance 0). `mode="first"` stops at the first pair,
    /// which costs about what `collide` costs; `mode="all"` lists every
    /// pair with its distance.
    #[pyo3(signature = (other, pose, d, mode = "first"))]
    fn within(
        &self,
        py: Python<'_>,
        other: &ObbTree,
        pose: Option<&Bound<'_, PyAny>>,
        d: f64,
        mode: &str,
    ) -> PyResult<Clearance> {
        let pose = pose_from(pose)?;
        let d = clearance(d)?;
        let mode = contact_mode(mode)?;
        let (a, b) = (&self.inner, &other.inner);
        Ok(Clearance(py.detach(|| query::within(a, b, &pose, d, mode))))
    }

    /// `within` (first pair) at every pose of `poses`, in parallel with the
    /// GIL released: an `(N,)` `bool` array.
    fn within_batch<'py>(
        &self,
        py: Python<'py>,
        other: &ObbTree,
        poses: &Bound<'py, PyAny>,
        d: f64,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let poses = poses_from(poses)?;
        let d = clearance(d)?;
        let hits = per_pose(py, (&self.inner, &other.inner), poses, move |a, b, p| {
            query::within(a, b, p, d, ContactMode::First).within
        })?;
        Ok(arrays::vector(py, hits))
    }

    /// The first time B (`other`'s mesh), moving from `pose0` to `pose1`
    /// relative to this mesh, touches it (or, with `clearance`, comes
    /// within that distance): translation linear, rotation at constant
    /// angular velocity about B's origin along the shortest arc. Certified
    /// by conservative advancement on the exact distance: an `Impact` with
    /// `hit`, `t`, `free_until` (no contact before it; `t − tol ≤
    /// free_until` on a hit), the pose, triangles and witness points at
    /// `t`. At most `max_distance_calls` distance queries, else "undecided";
    /// `rel_err` lets each sample's distance query stop within that
    /// relative tolerance (shorter steps, cheaper queries).
    #[pyo3(signature = (other, pose0, pose1, tol = 1e-6, clearance = 0.0, max_distance_calls = 100_000, rel_err = 0.5))]
    #[allow(clippy::too_many_arguments)]
    fn time_of_impact(
        &self,
        py: Python<'_>,
        other: &ObbTree,
        pose0: &Bound<'_, PyAny>,
        pose1: &Bound<'_, PyAny>,
        tol: f64,
        clearance: f64,
        max_distance_calls: u64,
        rel_err: f64,
    ) -> PyResult<crate::motion::Impact> {
        let opts = crate::motion::options(tol, clearance, max_distance_calls, rel_err)?;
        let poses = (pose_from(Some(pose0))?, pose_from(Some(pose1))?);
        crate::motion::one(py, (&self.inner, &other.inner), poses, &opts)
    }

    /// `time_of_impact` for each pair of rows of `poses0` and `poses1`
    /// (`(N, 7)` or `(N, 4, 4)` arrays, or sequences of poses), in parallel
    /// with the GIL released: a dict of `(N,)` arrays `hit`, `undecided`,
    /// `t` (NaN without a hit), `free_until`, `distance_calls`, and `(N, 3)`
    /// `point_a`, `point_b` (NaN without a hit).
    #[pyo3(signature = (other, poses0, poses1, tol = 1e-6, clearance = 0.0, max_distance_calls = 100_000, rel_err = 0.5))]
    #[allow(clippy::too_many_arguments)]
    fn time_of_impact_batch<'py>(
        &self,
        py: Python<'py>,
        other: &ObbTree,
        poses0: &Bound<'py, PyAny>,
        poses1: &Bound<'py, PyAny>,
        tol: f64,
        clearance: f64,
        max_distance_calls: u64,
        rel_err: f64,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let opts = crate::motion::options(tol, clearance, max_distance_calls, rel_err)?;
        let poses = (poses_from(poses0)?, poses_from(poses1)?);
        crate::motion::batch(py, (&self.inner, &other.inner), poses, opts)
    }

    /// The first contact of B (`other`'s mesh) moving along the path
    /// through `poses` (an `(N, 7)` or `(N, 4, 4)` array or a sequence of
    /// poses, N ≥ 2), segment by segment as `time_of_impact` moves it, with
    /// `max_distance_calls` for the whole path: `(segment, impact)`, the
    /// segment (from 0) the answer ends on and its `Impact` (every earlier
    /// segment certified free; the last segment when the path is free).
    #[pyo3(signature = (other, poses, tol = 1e-6, clearance = 0.0, max_distance_calls = 100_000, rel_err = 0.5))]
    #[allow(clippy::too_many_arguments)]
    fn path_collides(
        &self,
        py: Python<'_>,
        other: &ObbTree,
        poses: &Bound<'_, PyAny>,
        tol: f64,
        clearance: f64,
        max_distance_calls: u64,
        rel_err: f64,
    ) -> PyResult<(usize, crate::motion::Impact)> {
        let opts = crate::motion::options(tol, clearance, max_distance_calls, rel_err)?;
        let poses = poses_from(poses)?;
        crate::motion::path(py, (&self.inner, &other.inner), &poses, &opts)
    }

    /// The least distance between this mesh and B (`other`'s mesh) while B
    /// moves along the path through `poses` (as `path_collides`), every
    /// `t` of every segment, certified by branch and bound on the
    /// distance's Lipschitz bound in `t`: a dict with `distance` (attained
    /// at `segment`, `t`, `pose`, between `point_a` and `point_b`, A's
    /// frame), `lower` (the least distance over the exact path is in
    /// `[lower, distance + rounding_bound]`), `certified` (`distance −
    /// lower ≤ max(tol, rel_tol·distance)`; false when `max_distance_calls`
    /// ended the search first), `triangles`, `rounding_bound`,
    /// `distance_calls`. GIL released.
    #[pyo3(signature = (other, poses, rel_tol = 1e-3, tol = 0.0, max_distance_calls = 100_000))]
    fn least_distance<'py>(
        &self,
        py: Python<'py>,
        other: &ObbTree,
        poses: &Bound<'py, PyAny>,
        rel_tol: f64,
        tol: f64,
        max_distance_calls: u64,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let opts = bvtool::query::motion::LeastOptions {
            tol,
            rel_tol,
            max_distance_calls,
        };
        let poses = poses_from(poses)?;
        crate::motion::least(py, (&self.inner, &other.inner), &poses, &opts)
    }

    /// The tree's built structure as bytes (`bvtool::tree::bytes`: a
    /// versioned layout with a checksum; about 58 bytes a triangle plus 24
    /// a welded vertex at the default leaf size), for a cache on disk or
    /// another process; `ObbTree.from_bytes` reads it back without
    /// building. The mesh is not in it.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let tree = self.inner.clone();
        let bytes = py.detach(move || tree.to_bytes());
        PyBytes::new(py, &bytes)
    }

    /// The tree `to_bytes` wrote, validated (every node one parent, the
    /// leaves a partition of the triangles, indices in range, finite boxes,
    /// orthonormal axes, the checksum): a `ValueError` for bytes that are
    /// not such a tree. `mesh`, when given, must be the mesh the tree was
    /// built from (each triangle's corners are compared: a `ValueError`
    /// otherwise); without it, `tree.mesh` is rebuilt from the tree (its
    /// welded vertices, the triangles in their original order — so triangle
    /// indices in answers are the same).
    #[staticmethod]
    #[pyo3(signature = (data, mesh = None))]
    fn from_bytes(
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        mesh: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<ObbTree> {
        with_buffer(data, |data| ObbTree::read(py, data, mesh, ""))
    }

    /// Writes `to_bytes()` to the file `path`, atomically (a temporary file
    /// in the same folder renamed over it: a reader never sees half a
    /// tree); an `OSError` (`bvtool.WriteError`) when it cannot.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let tree = self.inner.clone();
        py.detach(move || bvtool::files::write_atomic(&path, &tree.to_bytes()))
            .map_err(to_py)
    }

    /// The tree `save` wrote to `path` (read as `from_bytes` reads bytes,
    /// `mesh` likewise optional): the file must be a regular file (its size
    /// is checked against the memory it needs before a byte is read); a
    /// missing one raises `FileNotFoundError`, bytes that are not a tree
    /// `ValueError` naming the file.
    #[staticmethod]
    #[pyo3(signature = (path, mesh = None))]
    fn load(py: Python<'_>, path: PathBuf, mesh: Option<&Bound<'_, PyAny>>) -> PyResult<ObbTree> {
        std::fs::metadata(&path).map_err(|e| unreadable(&path, &e))?;
        let data = py
            .detach(|| bvtool::files::read_regular(&path, None))
            .map_err(|m| value_error(format!("{}: {m}", path.display())))?;
        ObbTree::read(py, &data, mesh, &format!("{}: ", path.display()))
    }

    /// Rebuilds a pickled tree (`__reduce__`): the tree of `data`
    /// (validated as `from_bytes` validates it) and its mesh made from the
    /// tree — its welded vertices numbered by `vertex_map` (a permutation
    /// of `0..V`, `uint32`), its triangles in their original order, the
    /// sources from `source_runs` (as a pickled `Mesh` has them).
    #[staticmethod]
    fn _unpickle(
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        vertex_map: numpy::PyReadonlyArray1<'_, u32>,
        source_runs: numpy::PyReadonlyArray2<'_, u32>,
    ) -> PyResult<ObbTree> {
        let tree = with_buffer(data, |data| tree_of(py, data, ""))?;
        let sources = crate::mesh::source_runs_arg(&source_runs, tree.triangle_count())?;
        // An array unpickled from an out-of-band buffer (Dask's transport)
        // need not be contiguous: then it is copied.
        let map = match vertex_map.as_slice() {
            Ok(map) => std::borrow::Cow::Borrowed(map),
            Err(_) => std::borrow::Cow::Owned(vertex_map.as_array().iter().copied().collect()),
        };
        let mesh = py
            .detach(|| bvtool::threads::pool().install(|| tree.mesh_with(Some(&map), sources)))
            .map_err(|e| value_error(format!("tree mesh: {e}")))?;
        Ok(ObbTree {
            inner: Arc::new(tree),
            mesh: Py::new(py, Mesh::wrap(mesh))?,
            points: OnceLock::new(),
        })
    }

    /// Pickles as its built structure, not as a recipe to rebuild (the
    /// unpickled tree answers bit for bit as this one): `to_bytes()` and,
    /// when the mesh is the tree's own geometry renumbered (no vertex
    /// unused or welded with another: `bvtool::tree::ObbTree::vertex_map`),
    /// only the vertex map and the sources as runs, the mesh rebuilt from
    /// the tree on unpickling; otherwise `to_bytes()` and the whole mesh,
    /// checked against the tree on unpickling (`from_bytes(data, mesh)`).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        self.__reduce_ex__(py, 4)
    }

    /// `__reduce__`, the tree's bytes wrapped in a `pickle.PickleBuffer`
    /// from protocol 5 on: pickled in-band they are the same bytes, and
    /// with a `buffer_callback` (Dask, Ray) they travel out of band and
    /// `from_bytes`/`_unpickle` read them where they arrive, uncopied.
    fn __reduce_ex__<'py>(
        &self,
        py: Python<'py>,
        protocol: i32,
    ) -> PyResult<crate::state::Reduced<'py>> {
        let (tree, mesh) = (self.inner.clone(), self.mesh.get().inner.clone());
        let data = self.to_bytes(py).into_any();
        let data = match protocol >= 5 {
            true => py
                .import("pickle")?
                .getattr("PickleBuffer")?
                .call1((data,))?,
            false => data,
        };
        match py.detach(|| tree.vertex_map(&mesh)) {
            Some(map) => crate::state::reduce::<ObbTree>(
                py,
                "_unpickle",
                (
                    data,
                    arrays::vector(py, map),
                    crate::mesh::source_runs_array(py, &mesh.sources),
                ),
            ),
            None => {
                crate::state::reduce::<ObbTree>(py, "from_bytes", (data, self.mesh.clone_ref(py)))
            }
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "ObbTree({} triangles, {} nodes, leaf size {})",
            self.inner.triangle_count(),
            self.inner.nodes.len(),
            self.inner.leaf_size
        )
    }
}

/// Whether `mesh` is the mesh `tree` was built from: as many triangles,
/// and each of the tree's triangles with the corners of the mesh's triangle
/// it came from.
fn same_triangles(tree: &bvtool::tree::ObbTree, mesh: &bvtool::TriMesh) -> Result<(), String> {
    if tree.triangle_count() != mesh.triangles.len() {
        return Err(format!(
            "{} triangles in the tree, {} in the mesh",
            tree.triangle_count(),
            mesh.triangles.len()
        ));
    }
    // In parallel on the current pool: a million triangles are a million
    // scattered reads of the mesh.
    use rayon::prelude::*;
    let differs = (0..tree.original.len())
        .into_par_iter()
        .find_first(|&k| tree.corners(k) != mesh.triangle(tree.original[k] as usize));
    match differs {
        Some(k) => Err(format!("triangle {} differs", tree.original[k])),
        None => Ok(()),
    }
}

/// `True` or `False`, for the answers' `repr`.
fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

/// The answer of `ObbTree.collide`.
#[pyclass(frozen, module = "bvtool")]
pub struct Collision {
    inner: query::Collision,
    contacts: Option<Contacts>,
}

/// A pickled pair contact: normal, depth, plane offset, points.
type PickledContact = ([f64; 3], f64, f64, Vec<[f64; 3]>);
/// A pickled patch: normal, depth, polygon, pairs.
type PickledPatch = ([f64; 3], f64, Vec<[f64; 3]>, Vec<usize>);

/// `{"normal", "depth", …}` with the normal as a `(3,)` array.
fn normal_depth<'py>(
    py: Python<'py>,
    normal: &nalgebra::Vector3<f64>,
    depth: f64,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let d = pyo3::types::PyDict::new(py);
    d.set_item("normal", arrays::vector(py, normal.as_slice().to_vec()))?;
    d.set_item("depth", depth)?;
    Ok(d)
}

#[pymethods]
impl Collision {
    /// Whether the meshes touch or intersect.
    #[getter]
    fn intersecting(&self) -> bool {
        self.inner.intersecting
    }

    /// Meeting triangle pairs `(triangle of A, triangle of B)`, a `(k, 2)`
    /// `uint32` array, sorted; at most one row with `mode="first"`.
    #[getter]
    fn pairs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u32>> {
        arrays::pairs(py, &self.inner.pairs)
    }

    /// With `contacts=True`: per row of `pairs`, its contact in A's frame —
    /// `{"normal": (3,) unit, from A to B: moving B by depth·normal clears
    /// the pair's crossing, "depth": how far the smaller side reaches across
    /// the contact plane, "points": (m, 3) where the triangles meet}` — or
    /// `None` for a pair of degenerate triangles; `None` without `contacts`.
    #[getter]
    fn contacts<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<Vec<Option<Bound<'py, pyo3::types::PyDict>>>>> {
        let Some(c) = &self.contacts else {
            return Ok(None);
        };
        let each = c.pairs.iter().map(|c| {
            c.as_ref()
                .map(|c| {
                    let d = normal_depth(py, &c.normal, c.depth)?;
                    d.set_item("points", arrays::points(py, &c.points))?;
                    Ok(d)
                })
                .transpose()
        });
        each.collect::<PyResult<_>>().map(Some)
    }

    /// With `contacts=True`: the pairs merged into one patch per contact
    /// plane — `{"normal": (3,), "depth": the deepest pair's, "polygon":
    /// (m, 3) the convex hull of the pairs' points, counter-clockwise seen
    /// along the normal, "pairs": (p,) rows of `pairs`}`; `None` without.
    #[getter]
    fn patches<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<Vec<Bound<'py, pyo3::types::PyDict>>>> {
        let Some(c) = &self.contacts else {
            return Ok(None);
        };
        let each = c.patches.iter().map(|p| {
            let d = normal_depth(py, &p.normal, p.depth)?;
            d.set_item("polygon", arrays::points(py, &p.polygon))?;
            let pairs = p.pairs.iter().map(|&k| k as i64).collect();
            d.set_item("pairs", arrays::vector(py, pairs))?;
            Ok(d)
        });
        each.collect::<PyResult<_>>().map(Some)
    }

    /// Box–box tests the query ran.
    #[getter]
    fn box_tests(&self) -> u64 {
        self.inner.box_tests
    }

    /// Exact triangle–triangle tests the query ran.
    #[getter]
    fn triangle_tests(&self) -> u64 {
        self.inner.triangle_tests
    }

    fn __bool__(&self) -> bool {
        self.inner.intersecting
    }

    /// Rebuilds a pickled answer (`__reduce__`).
    #[staticmethod]
    #[pyo3(signature = (intersecting, pairs, box_tests, triangle_tests, contacts = None))]
    fn _unpickle(
        intersecting: bool,
        pairs: Vec<(u32, u32)>,
        box_tests: u64,
        triangle_tests: u64,
        contacts: Option<(Vec<Option<PickledContact>>, Vec<PickledPatch>)>,
    ) -> Collision {
        let point = |p: [f64; 3]| nalgebra::Point3::from(p);
        let contacts = contacts.map(|(each, patches)| Contacts {
            pairs: each
                .into_iter()
                .map(|c| {
                    c.map(|(normal, depth, offset, points)| PairContact {
                        normal: normal.into(),
                        depth,
                        offset,
                        points: points.into_iter().map(point).collect(),
                    })
                })
                .collect(),
            patches: patches
                .into_iter()
                .map(|(normal, depth, polygon, pairs)| ContactPatch {
                    normal: normal.into(),
                    depth,
                    polygon: polygon.into_iter().map(point).collect(),
                    pairs,
                })
                .collect(),
        });
        Collision {
            inner: query::Collision {
                intersecting,
                pairs,
                box_tests,
                triangle_tests,
            },
            contacts,
        }
    }

    /// Pickles as its fields.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let c = &self.inner;
        let contacts = self.contacts.as_ref().map(|k| {
            let each: Vec<Option<PickledContact>> = k
                .pairs
                .iter()
                .map(|c| {
                    c.as_ref().map(|c| {
                        let points = c.points.iter().map(xyz).collect();
                        (c.normal.into(), c.depth, c.offset, points)
                    })
                })
                .collect();
            let patches: Vec<PickledPatch> = k
                .patches
                .iter()
                .map(|p| {
                    let polygon = p.polygon.iter().map(xyz).collect();
                    (p.normal.into(), p.depth, polygon, p.pairs.clone())
                })
                .collect();
            (each, patches)
        });
        let args = (
            c.intersecting,
            c.pairs.clone(),
            c.box_tests,
            c.triangle_tests,
            contacts,
        );
        crate::state::reduce::<Collision>(py, "_unpickle", args)
    }

    fn __repr__(&self) -> String {
        format!(
            "Collision(intersecting={}, pairs={})",
            py_bool(self.inner.intersecting),
            self.inner.pairs.len()
        )
    }
}

/// The answer of `ObbTree.distance`.
#[pyclass(frozen, module = "bvtool")]
pub struct Distance(pub query::Distance);

#[pymethods]
impl Distance {
    /// The minimum distance (model units); 0 when the meshes meet.
    #[getter]
    fn distance(&self) -> f64 {
        self.0.distance
    }

    /// Whether the meshes touch or intersect (decided exactly).
    #[getter]
    fn intersecting(&self) -> bool {
        self.0.intersecting
    }

    /// The closest point on A, in A's frame, `(3,)`.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.0.point_a.coords.as_slice().to_vec())
    }

    /// The closest point on B, in A's frame (B placed by the pose), `(3,)`.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.0.point_b.coords.as_slice().to_vec())
    }

    /// The closest triangles `(A's, B's)`, indices into the meshes.
    #[getter]
    fn triangles(&self) -> (u32, u32) {
        self.0.triangles
    }

    /// Bound on the rounding error of `distance` (model units; 0 when the
    /// meshes meet): the exact minimum is within it (or within the
    /// tolerances, when asked).
    #[getter]
    fn rounding_bound(&self) -> f64 {
        self.0.rounding_bound
    }

    /// Box–box lower bounds the query computed.
    #[getter]
    fn box_tests(&self) -> u64 {
        self.0.box_tests
    }

    /// Triangle–triangle distances the query computed.
    #[getter]
    fn triangle_tests(&self) -> u64 {
        self.0.triangle_tests
    }

    fn __float__(&self) -> f64 {
        self.0.distance
    }

    /// Rebuilds a pickled answer (`__reduce__`).
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn _unpickle(
        distance: f64,
        intersecting: bool,
        point_a: [f64; 3],
        point_b: [f64; 3],
        triangles: (u32, u32),
        rounding_bound: f64,
        box_tests: u64,
        triangle_tests: u64,
    ) -> Distance {
        Distance(query::Distance {
            distance,
            intersecting,
            point_a: point_a.into(),
            point_b: point_b.into(),
            triangles,
            rounding_bound,
            box_tests,
            triangle_tests,
        })
    }

    /// Pickles as its fields (floats bit for bit).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let d = &self.0;
        let p = |p: &nalgebra::Point3<f64>| -> [f64; 3] { p.coords.into() };
        let args = (
            d.distance,
            d.intersecting,
            p(&d.point_a),
            p(&d.point_b),
            d.triangles,
            d.rounding_bound,
            d.box_tests,
            d.triangle_tests,
        );
        crate::state::reduce::<Distance>(py, "_unpickle", args)
    }

    fn __repr__(&self) -> String {
        format!(
            "Distance({}, triangles={:?}, intersecting={})",
            self.0.distance,
            self.0.triangles,
            py_bool(self.0.intersecting)
        )
    }
}

/// The answer of `ObbTree.within`.
#[pyclass(frozen, module = "bvtool")]
pub struct Clearance(query::Clearance);

#[pymethods]
impl Clearance {
    /// Whether some triangle of B comes within the clearance of A.
    #[getter]
    fn within(&self) -> bool {
        self.0.within
    }

    /// Triangle pairs `(A's, B's)` within the clearance, `(k, 2)` `uint32`,
    /// sorted; at most one row with `mode="first"`.
    #[getter]
    fn pairs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u32>> {
        let p: Vec<(u32, u32)> = self.0.pairs.iter().map(|p| (p.a, p.b)).collect();
        arrays::pairs(py, &p)
    }

    /// Each pair's distance (0 when they meet), `(k,)` `float64`.
    #[getter]
    fn distances<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.0.pairs.iter().map(|p| p.distance).collect())
    }

    fn __bool__(&self) -> bool {
        self.0.within
    }

    /// Rebuilds a pickled answer (`__reduce__`).
    #[staticmethod]
    fn _unpickle(
        within: bool,
        pairs: Vec<(u32, u32, f64)>,
        box_tests: u64,
        triangle_tests: u64,
    ) -> Clearance {
        Clearance(query::Clearance {
            within,
            pairs: pairs
                .into_iter()
                .map(|(a, b, distance)| query::ClosePair { a, b, distance })
                .collect(),
            box_tests,
            triangle_tests,
        })
    }

    /// Pickles as its fields.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let c = &self.0;
        let pairs: Vec<(u32, u32, f64)> = c.pairs.iter().map(|p| (p.a, p.b, p.distance)).collect();
        let args = (c.within, pairs, c.box_tests, c.triangle_tests);
        crate::state::reduce::<Clearance>(py, "_unpickle", args)
    }

    fn __repr__(&self) -> String {
        format!(
            "Clearance(within={}, pairs={})",
            py_bool(self.0.within),
            self.0.pairs.len()
        )
    }
}
