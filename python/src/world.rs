//! `World`: bodies with their own poses (meshes and primitives), a broad
//! phase updated when they move, and exact queries with the GIL released
//! (`docs/world.md` has the conventions).
//!
//! Every call that builds a tree or queries runs on this process's own pool
//! ([`work`]: never rayon's global one, so a forked child works): a query
//! on a snapshot of the world (an `Arc` clone, so the pool's `'static` task
//! owns it and a signal can abandon it), a tree build on its owned mesh.
//! Moving a body stays on the calling thread (no parallel work); adding a
//! primitive builds its small tree on the pool in place.

use crate::errors::{GeometryError, to_py, value_error};
use crate::mesh::{Scene, mesh_arg};
use crate::pose::{Pose, pose_from, pose_state, poses_from};
use crate::tree::ObbTree;
use crate::work;
use bvtool::threads::Stop;
use bvtool::world::{Primitive, Stoppable};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::collections::HashMap;
use std::sync::Arc;

/// A pose as pickled: translation and quaternion `(x, y, z, w)`.
type PoseState = ([f64; 3], [f64; 4]);
/// A body as pickled: name, pose, and its shapes (tree index, origin).
type BodyState = (String, PoseState, Vec<(usize, PoseState)>);
/// A primitive as pickled: kind, dimensions, tree index.
type PrimitiveState = (String, Vec<f64>, usize);

/// A world of bodies, each with a name, a pose and shapes.
///
/// `World()` is empty; `World.from_scene(scene)` (a `Scene` or a path)
/// makes a body of each node, at the identity pose, its meshes placed as
/// the file places them. A pose maps the body's frame into the world's
/// (`v → R·v + t`; any form a `Pose` takes: a `Pose`, a 4×4 matrix, a
/// `(translation, quaternion)` pair or 7 numbers `(tx, ty, tz, qx, qy,
/// qz, qw)`). Bodies are named by a `str` (or their index). Touching
/// counts as colliding, as in `ObbTree.collide`; answers are exact on the
/// `f64` triangles. Primitives: a box exactly; a sphere, capsule or
/// cylinder (about z, centred on the body's origin) tessellated outward,
/// at most `tessellation_tolerance` outside the true shape.
#[pyclass(module = "bvtool")]
pub struct World {
    pub inner: Arc<bvtool::world::World>,
}

/// The least distance between two groups of bodies (`World.distance`).
#[pyclass(frozen, get_all, module = "bvtool")]
pub struct WorldDistance {
    /// The least distance (0 when two bodies touch), in length units.
    distance: f64,
    /// The bodies `(of group a, of group b)` where it is reached.
    bodies: (String, String),
    /// The closest point on the first body, world frame.
    point_a: (f64, f64, f64),
    /// The closest point on the second body, world frame.
    point_b: (f64, f64, f64),
    /// The exact minimum is within this of `distance`.
    rounding_bound: f64,
}

#[pymethods]
impl WorldDistance {
    /// Rebuilds a pickled answer (`__reduce__`).
    #[staticmethod]
    fn _unpickle(
        distance: f64,
        bodies: (String, String),
        point_a: (f64, f64, f64),
        point_b: (f64, f64, f64),
        rounding_bound: f64,
    ) -> WorldDistance {
        WorldDistance {
            distance,
            bodies,
            point_a,
            point_b,
            rounding_bound,
        }
    }

    /// Pickles as its fields, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let args = (
            self.distance,
            self.bodies.clone(),
            self.point_a,
            self.point_b,
            self.rounding_bound,
        );
        crate::state::reduce::<WorldDistance>(py, "_unpickle", args)
    }

    fn __repr__(&self) -> String {
        format!(
            "WorldDistance({:e}, bodies=({:?}, {:?}))",
            self.distance, self.bodies.0, self.bodies.1
        )
    }
}

impl World {
    fn world(&mut self) -> &mut bvtool::world::World {
        Arc::make_mut(&mut self.inner)
    }

    /// `f` on a snapshot of the world, on this process's pool with the GIL
    /// released, stopped by Ctrl-C ([`work::run_until`]: a signal raises at
    /// once and the query stops at its next body or shape pair).
    fn query<R: Send + 'static>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&bvtool::world::World, Stop<'_>) -> Stoppable<R> + Send + 'static,
    ) -> PyResult<R> {
        let w = self.inner.clone();
        work::run_until(py, move |stop| f(&w, stop))?.map_err(to_py)
    }

    /// A body named by its name or index.
    fn body(&self, key: &Bound<'_, PyAny>) -> PyResult<usize> {
        if let Ok(i) = key.extract::<usize>() {
            if i < self.inner.len() {
                return Ok(i);
            }
            return Err(value_error(format!(
                "body {i}: the world has {} bodies",
                self.inner.len()
            )));
        }
        let name: String = key
            .extract()
            .map_err(|_| value_error("a body is named by a str or an int index"))?;
        self.inner.find(&name).map_err(to_py)
    }

    /// A primitive's kind and dimensions, as pickled.
    fn primitive_state(p: Primitive) -> (String, Vec<f64>) {
        let (kind, dims) = match p {
            Primitive::Box(s) => ("box", s.to_vec()),
            Primitive::Sphere(r) => ("sphere", vec![r]),
            Primitive::Capsule { radius, length } => ("capsule", vec![radius, length]),
            Primitive::Cylinder { radius, length } => ("cylinder", vec![radius, length]),
        };
        (kind.to_string(), dims)
    }

    /// The primitive of a pickled kind and dimensions.
    fn primitive_of(kind: &str, dims: &[f64]) -> PyResult<Primitive> {
        Ok(match (kind, dims) {
            ("box", &[x, y, z]) => Primitive::Box([x, y, z]),
            ("sphere", &[radius]) => Primitive::Sphere(radius),
            ("capsule", &[radius, length]) => Primitive::Capsule { radius, length },
            ("cylinder", &[radius, length]) => Primitive::Cylinder { radius, length },
            _ => {
                return Err(value_error(format!(
                    "pickled world: primitive {kind:?} with {} dimensions",
                    dims.len()
                )));
            }
        })
    }

    fn bodies(&self, keys: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        keys.try_iter()?.map(|k| self.body(&k?)).collect()
    }

    fn name(&self, i: usize) -> String {
        self.inner.bodies()[i].name.clone()
    }

    fn names_of(&self, pairs: Vec<(usize, usize)>) -> Vec<(String, String)> {
        pairs
            .into_iter()
            .map(|(a, b)| (self.name(a), self.name(b)))
            .collect()
    }

    fn add(
        &mut self,
        py: Python<'_>,
        name: &str,
        p: Primitive,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let pose = pose_from(pose)?;
        let w = self.world();
        // Its tree (small) is built on this process's pool, in place.
        py.detach(|| bvtool::threads::pool().install(|| w.add_primitive(name, p, pose)))
            .map_err(to_py)
    }
}

#[pymethods]
impl World {
    #[new]
    fn new() -> World {
        World {
            inner: Arc::new(bvtool::world::World::new()),
        }
    }

    /// A body per node of `scene` (a `Scene`, or a path to load).
    #[staticmethod]
    fn from_scene(py: Python<'_>, scene: &Bound<'_, PyAny>) -> PyResult<World> {
        let scene = match scene.cast::<Scene>() {
            Ok(s) => Ok(s.get().inner.clone()),
            Err(_) => Err(scene.extract::<std::path::PathBuf>()?),
        };
        let world = work::run(py, move |cancel| -> PyResult<_> {
            let loaded;
            let scene: &bvtool::Scene = match &scene {
                Ok(s) => s,
                Err(path) => {
                    loaded = bvtool::load::load(path, &Default::default()).map_err(to_py)?;
                    &loaded
                }
            };
            bvtool::world::World::from_scene_until(scene, Stop::on(cancel))
                .map_err(work::stopped)?
                .map_err(to_py)
        })??;
        Ok(World {
            inner: Arc::new(world),
        })
    }

    /// Adds a body of a mesh (an `ObbTree`, shared, or a `Mesh` / anything
    /// with `vertices` and `faces`, whose tree is built); returns its index.
    #[pyo3(signature = (name, mesh, pose = None))]
    fn add_mesh(
        &mut self,
        py: Python<'_>,
        name: &str,
        mesh: &Bound<'_, PyAny>,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let pose = pose_from(pose)?;
        let tree = match mesh.cast::<ObbTree>() {
            Ok(t) => t.get().inner.clone(),
            Err(_) => {
                let m = mesh_arg(mesh)?.get().inner.clone();
                if m.triangles.is_empty() {
                    return Err(GeometryError::new_err(format!(
                        "body '{name}': the mesh has no triangles"
                    )));
                }
                Arc::new(work::run_until(py, move |stop| {
                    bvtool::tree::ObbTree::build_until(&m, stop)
                })?)
            }
        };
        self.world().add_mesh(name, tree, pose).map_err(to_py)
    }

    /// Adds a box of edge lengths `size` (x, y, z), centred on its origin.
    #[pyo3(signature = (name, size, pose = None))]
    fn add_box(
        &mut self,
        py: Python<'_>,
        name: &str,
        size: (f64, f64, f64),
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        self.add(py, name, Primitive::Box([size.0, size.1, size.2]), pose)
    }

    /// Adds a sphere of `radius` about its origin.
    #[pyo3(signature = (name, radius, pose = None))]
    fn add_sphere(
        &mut self,
        py: Python<'_>,
        name: &str,
        radius: f64,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        self.add(py, name, Primitive::Sphere(radius), pose)
    }

    /// Adds a capsule: a segment `length` long on z, swept by a ball of
    /// `radius`.
    #[pyo3(signature = (name, radius, length, pose = None))]
    fn add_capsule(
        &mut self,
        py: Python<'_>,
        name: &str,
        radius: f64,
        length: f64,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        self.add(py, name, Primitive::Capsule { radius, length }, pose)
    }

    /// Adds a cylinder of `radius`, `length` long on z.
    #[pyo3(signature = (name, radius, length, pose = None))]
    fn add_cylinder(
        &mut self,
        py: Python<'_>,
        name: &str,
        radius: f64,
        length: f64,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        self.add(py, name, Primitive::Cylinder { radius, length }, pose)
    }

    /// Moves one body (named or by index).
    fn set_pose(&mut self, body: &Bound<'_, PyAny>, pose: &Bound<'_, PyAny>) -> PyResult<()> {
        let i = self.body(body)?;
        let p = pose_from(Some(pose))?;
        self.world().set_pose(i, p).map_err(to_py)
    }

    /// Moves many bodies at once: `bodies` a sequence of names or indices,
    /// `poses` an `(N, 7)` or `(N, 4, 4)` array or a sequence of poses.
    /// Every pose is checked before any body moves.
    fn set_poses(&mut self, bodies: &Bound<'_, PyAny>, poses: &Bound<'_, PyAny>) -> PyResult<()> {
        let idx = self.bodies(bodies)?;
        let poses = poses_from(poses)?;
        if idx.len() != poses.len() {
            return Err(value_error(format!(
                "{} bodies but {} poses",
                idx.len(),
                poses.len()
            )));
        }
        let moves: Vec<_> = idx.into_iter().zip(poses).collect();
        self.world().set_poses(&moves).map(|_| ()).map_err(to_py)
    }

    /// A body's pose.
    fn pose(&self, body: &Bound<'_, PyAny>) -> PyResult<Pose> {
        let i = self.body(body)?;
        Ok(Pose {
            inner: self.inner.bodies()[i].pose,
        })
    }

    /// Never tests bodies `a` and `b` against each other.
    fn allow(&mut self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<()> {
        let (a, b) = (self.body(a)?, self.body(b)?);
        self.world().allow(a, b).map_err(to_py)
    }

    /// Removes a body (by name or index): later bodies' indices go down by
    /// one, names stay; its allowed pairs go; a tree no body uses is
    /// released. The broad phase drops its box without re-sorting.
    fn remove(&mut self, body: &Bound<'_, PyAny>) -> PyResult<()> {
        let i = self.body(body)?;
        self.world().remove(i).map(|_| ()).map_err(to_py)
    }

    /// Every pair of bodies that touch, cross or nest (one wholly inside a
    /// closed other: bodies are solids, docs/world.md), `[(name, name), …]`,
    /// by index (each pair in index order).
    fn colliding_pairs(&self, py: Python<'_>) -> PyResult<Vec<(String, String)>> {
        let pairs = self.query(py, |w, stop| w.colliding_pairs_until(stop))?;
        Ok(self.names_of(pairs))
    }

    /// The bodies that `body` touches, crosses or nests with, by index.
    fn collide_one(&self, py: Python<'_>, body: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let i = self.body(body)?;
        let hits = self.query(py, move |w, stop| w.colliding_with_body_until(i, stop))?;
        Ok(hits.into_iter().map(|j| self.name(j)).collect())
    }

    /// Every pair of bodies within `clearance` (touching included).
    fn within(&self, py: Python<'_>, clearance: f64) -> PyResult<Vec<(String, String)>> {
        let pairs = self.query(py, move |w, stop| w.pairs_within_until(clearance, stop))?;
        Ok(self.names_of(pairs))
    }

    /// The least distance between a body of `group_a` and one of
    /// `group_b` (sequences of names or indices), or `None` when no pair
    /// is tested.
    fn distance(
        &self,
        py: Python<'_>,
        group_a: &Bound<'_, PyAny>,
        group_b: &Bound<'_, PyAny>,
    ) -> PyResult<Option<WorldDistance>> {
        let (a, b) = (self.bodies(group_a)?, self.bodies(group_b)?);
        let d = self.query(py, move |w, stop| w.distance_until(&a, &b, stop))?;
        Ok(d.map(|d| WorldDistance {
            distance: d.distance,
            bodies: (self.name(d.bodies.0), self.name(d.bodies.1)),
            point_a: (d.point_a.x, d.point_a.y, d.point_a.z),
            point_b: (d.point_b.x, d.point_b.y, d.point_b.z),
            rounding_bound: d.rounding_bound,
        }))
    }

    /// Rebuilds a pickled world (`__reduce__`): the trees from their bytes
    /// (validated as `ObbTree.from_bytes` validates them), then each body,
    /// allowed pair and primitive checked as the methods that made them
    /// check them; a `ValueError` for anything else.
    #[staticmethod]
    fn _unpickle(
        py: Python<'_>,
        trees: Vec<Bound<'_, PyBytes>>,
        bodies: Vec<BodyState>,
        allowed: Vec<(usize, usize)>,
        primitives: Vec<PrimitiveState>,
    ) -> PyResult<World> {
        let bytes: Vec<&[u8]> = trees.iter().map(|b| b.as_bytes()).collect();
        let trees = py
            .detach(|| {
                bytes
                    .iter()
                    .map(|b| bvtool::tree::ObbTree::from_bytes(b).map(Arc::new))
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(|e| value_error(format!("pickled world: tree bytes: {e}")))?;
        let tree = |k: usize| {
            trees
                .get(k)
                .cloned()
                .ok_or_else(|| value_error(format!("pickled world: tree {k} of {}", trees.len())))
        };
        let pose = |(t, q): PoseState| Pose::_unpickle(t, q).map(|p| p.inner);
        let invalid = |e: bvtool::Error| value_error(format!("pickled world: {e}"));
        let mut w = bvtool::world::World::new();
        for (name, at, shapes) in bodies {
            let shapes = shapes
                .into_iter()
                .map(|(k, origin)| {
                    Ok(bvtool::world::BodyShape {
                        tree: tree(k)?,
                        origin: pose(origin)?,
                    })
                })
                .collect::<PyResult<_>>()?;
            w.add_body(&name, shapes, pose(at)?).map_err(invalid)?;
        }
        for (a, b) in allowed {
            w.allow(a, b).map_err(invalid)?;
        }
        for (kind, dims, k) in primitives {
            w.share_primitive_tree(World::primitive_of(&kind, &dims)?, tree(k)?)
                .map_err(invalid)?;
        }
        Ok(World { inner: Arc::new(w) })
    }

    /// Pickles as its built state: each distinct tree once, as its bytes
    /// (`ObbTree.to_bytes`: not a recipe, nothing is built again), the
    /// bodies (names, poses bit for bit, shapes as tree indices and
    /// origins), the allowed pairs and the primitives' shared trees.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let w = &self.inner;
        let mut index: HashMap<*const bvtool::tree::ObbTree, usize> = HashMap::new();
        let mut distinct = Vec::new();
        let mut tree_index = |t: &Arc<bvtool::tree::ObbTree>| {
            *index.entry(Arc::as_ptr(t)).or_insert_with(|| {
                distinct.push(t.clone());
                distinct.len() - 1
            })
        };
        let bodies: Vec<BodyState> = w
            .bodies()
            .iter()
            .map(|b| {
                let shapes = b
                    .shapes
                    .iter()
                    .map(|s| (tree_index(&s.tree), pose_state(&s.origin)))
                    .collect();
                (b.name.clone(), pose_state(&b.pose), shapes)
            })
            .collect();
        // Only the primitives some body uses: a primitive whose body was
        // refused (a name in use) counts in no tolerance.
        let used = index.clone();
        let primitives: Vec<PrimitiveState> = w
            .primitive_trees()
            .into_iter()
            .filter_map(|(p, t)| {
                let k = *used.get(&Arc::as_ptr(&t))?;
                let (kind, dims) = World::primitive_state(p);
                Some((kind, dims, k))
            })
            .collect();
        let trees: Vec<Bound<'py, PyBytes>> = distinct
            .iter()
            .map(|t| {
                let t = t.clone();
                PyBytes::new(py, &py.detach(move || t.to_bytes()))
            })
            .collect();
        crate::state::reduce::<World>(
            py,
            "_unpickle",
            (trees, bodies, w.allowed_pairs(), primitives),
        )
    }

    /// A copy sharing the trees (they never change); moving a body of
    /// either copies the bodies then (copy on write).
    fn __copy__(&self) -> World {
        World {
            inner: self.inner.clone(),
        }
    }

    /// As `__copy__`: a world shares nothing mutable with its copy.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> World {
        self.__copy__()
    }

    /// The bodies' names, by index.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.inner.bodies().iter().map(|b| b.name.clone()).collect()
    }

    /// How far at most a tessellated primitive reaches outside its true
    /// shape (0 without any).
    #[getter]
    fn tessellation_tolerance(&self) -> f64 {
        self.inner.tessellation_tolerance()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        format!("World({} bodies)", self.inner.len())
    }
}
