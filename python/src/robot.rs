//! `Robot`: a URDF robot, its forward kinematics, self-collision and
//! self-distance, one configuration or a batch on every core with the GIL
//! released (`docs/robots.md` has the conventions).

use crate::arrays;
use crate::errors::{to_py, value_error};
use crate::work;
use bvtool::robots::{GeometryKind, RobotOptions};
use numpy::ndarray::{Array3, Array4};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// A robot read from a URDF.
///
/// `Robot(urdf, package_dirs=None, srdf=None, visual=False)`:
/// `package_dirs` maps a `package://NAME` to its folder (`{"NAME": DIR}`;
/// others are looked for up the tree from the URDF); `srdf` names a file
/// whose `disable_collisions` pairs are not tested; `visual` uses the
/// links' `<visual>` geometry instead of `<collision>`. A configuration is
/// one value per actuated joint in `joint_names` order (the URDF's
/// document order), radians and the file's length unit; link poses are
/// 4×4 matrices in the root link's frame.
#[pyclass(frozen, module = "bvtool")]
pub struct Robot {
    inner: Arc<bvtool::robots::Robot>,
    /// How it was read (pickling reads it again).
    opts: RobotOptions,
}

impl Robot {
    /// The configurations `q`: `(n, dof)` (a batch) or `(dof,)` (one, `n =
    /// 1`), flattened, and whether it was one.
    fn configurations(&self, q: &Bound<'_, PyAny>) -> PyResult<(Vec<f64>, bool)> {
        let dof = self.inner.dof;
        let one = arrays::shape_of(q).is_some_and(|s| s.len() == 1);
        let (values, _) = if one {
            let (v, n) = arrays::read_rows(q, &[], "q")?;
            if n != dof {
                return Err(value_error(format!(
                    "q has {n} values, expected {dof} (one per actuated joint)"
                )));
            }
            (v, 1)
        } else {
            arrays::read_rows(q, &[dof], "q")?
        };
        if let Some(v) = values.iter().find(|v| !v.is_finite()) {
            return Err(value_error(format!("q holds {v}, not a finite number")));
        }
        Ok((values, one))
    }

    /// `f(robot, configurations)` on the pool with the GIL released, in
    /// chunks of consecutive configurations with a check for a pending
    /// signal between them ([`work::chunked`], from [`FIRST_CHUNK`]
    /// configurations): Ctrl-C stops the batch within a chunk's time. The
    /// answers of each configuration come in order, so the chunks' answers
    /// concatenate to the batch's.
    fn on_pool<R: Send>(
        &self,
        py: Python<'_>,
        qs: Vec<f64>,
        f: impl Fn(&bvtool::robots::Robot, &[f64]) -> bvtool::Result<Vec<R>> + Sync + Send,
    ) -> PyResult<Vec<R>> {
        let robot = &*self.inner;
        let dof = robot.dof;
        if dof == 0 {
            // No configuration: the library's own error.
            return f(robot, &qs).map_err(to_py);
        }
        work::chunked(py, qs.len() / dof, FIRST_CHUNK, |rows| {
            f(robot, &qs[rows.start * dof..rows.end * dof]).map_err(to_py)
        })
    }
}

/// A robot batch's first chunk of configurations ([`Robot::on_pool`]).
const FIRST_CHUNK: usize = 16;

#[pymethods]
impl Robot {
    #[new]
    #[pyo3(signature = (urdf, package_dirs = None, srdf = None, visual = false))]
    fn new(
        py: Python<'_>,
        urdf: PathBuf,
        package_dirs: Option<HashMap<String, PathBuf>>,
        srdf: Option<PathBuf>,
        visual: bool,
    ) -> PyResult<Self> {
        let mut packages: Vec<(String, PathBuf)> =
            package_dirs.unwrap_or_default().into_iter().collect();
        packages.sort();
        let opts = RobotOptions {
            geometry: if visual {
                GeometryKind::Visual
            } else {
                GeometryKind::Collision
            },
            packages,
            srdf,
            load: Default::default(),
        };
        let read = opts.clone();
        let robot = work::run_until(py, move |stop| {
            bvtool::robots::Robot::from_urdf_until(&urdf, &read, stop)
        })?
        .map_err(to_py)?;
        Ok(Robot {
            inner: Arc::new(robot),
            opts,
        })
    }

    /// The robot's name.
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }

    /// The configuration's size: actuated joints.
    #[getter]
    fn dof(&self) -> usize {
        self.inner.dof
    }

    /// The actuated joints' names, in configuration order.
    #[getter]
    fn joint_names(&self) -> Vec<String> {
        self.inner
            .joint_names()
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    /// The actuated joints' limits `(lower, upper)`, `None` for a
    /// continuous joint.
    #[getter]
    fn joint_limits(&self) -> Vec<Option<(f64, f64)>> {
        self.inner.joint_limits()
    }

    /// The links' names, in document order (the index of a link's poses).
    #[getter]
    fn link_names(&self) -> Vec<String> {
        self.inner.links.iter().map(|l| l.name.clone()).collect()
    }

    /// The tested link pairs, `(k, 2)` link indices.
    #[getter]
    fn pairs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u32>> {
        let p: Vec<(u32, u32)> = self
            .inner
            .pairs
            .iter()
            .map(|&(a, b)| (a as u32, b as u32))
            .collect();
        arrays::pairs(py, &p)
    }

    /// What was skipped or noticed while reading, one line each.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.inner.notes.clone()
    }

    /// Link poses: `(n, links, 4, 4)` for `q` of shape `(n, dof)`,
    /// `(links, 4, 4)` for one configuration.
    fn forward_kinematics<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (qs, one) = self.configurations(q)?;
        let links = self.inner.links.len();
        let n = qs.len() / self.inner.dof.max(1);
        let poses = self.on_pool(py, qs, |r, qs| r.forward_kinematics_batch(qs))?;
        let flat: Vec<f64> = poses
            .iter()
            .flat_map(|p| {
                let m = p.to_homogeneous();
                (0..16).map(move |k| m[(k / 4, k % 4)])
            })
            .collect();
        Ok(if one {
            Array3::from_shape_vec((links, 4, 4), flat)
                .expect("links × 16 values")
                .into_pyarray(py)
                .into_any()
        } else {
            Array4::from_shape_vec((n, links, 4, 4), flat)
                .expect("n × links × 16 values")
                .into_pyarray(py)
                .into_any()
        })
    }

    /// Whether any tested link pair collides: a `bool` array `(n,)`, or
    /// one `bool` for one configuration. Exact (touching counts).
    fn self_collision<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (qs, one) = self.configurations(q)?;
        let hits = self.on_pool(py, qs, |r, qs| r.self_collision_batch(qs, true))?;
        let hit: Vec<bool> = hits.iter().map(|h| !h.pairs.is_empty()).collect();
        Ok(if one {
            hit[0].into_pyobject(py)?.to_owned().into_any()
        } else {
            PyArray1::from_vec(py, hit).into_any()
        })
    }

    /// The colliding link pairs of each configuration: a list of `(k, 2)`
    /// link-index arrays (one array for one configuration).
    fn colliding_pairs<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (qs, one) = self.configurations(q)?;
        let hits = self.on_pool(py, qs, |r, qs| r.self_collision_batch(qs, false))?;
        pair_arrays(py, hits.into_iter().map(|h| h.pairs), one)
    }

    /// The `(link, body)` pairs that touch or cross at each configuration,
    /// `world` a `World` (the root link's frame is the world's): a list of
    /// `(k, 2)` index arrays (one array for one configuration), sorted.
    /// Exact (touching counts).
    fn world_collision<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        world: PyRef<'py, crate::world::World>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (qs, one) = self.configurations(q)?;
        let w = world.inner.clone();
        let hits = self.on_pool(py, qs, move |r, qs| r.world_collision_batch(qs, &w, false))?;
        pair_arrays(py, hits.into_iter(), one)
    }

    /// The least distance between tested link pairs: a `float64` array
    /// `(n,)` (0 where a pair touches; `inf` without a tested pair), or one
    /// float for one configuration. Each within its rounding bound (about
    /// 1e-15 of the coordinates) of the exact minimum. With `per_pair`,
    /// every tested pair's: a dict of arrays (`robot_distance::pair_dict`).
    #[pyo3(signature = (q, per_pair = false))]
    fn distance<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        per_pair: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (qs, one) = self.configurations(q)?;
        if per_pair {
            let ds = self.on_pool(py, qs, |r, qs| r.self_distance_pairs_batch(qs))?;
            return Ok(crate::robot_distance::pair_dict(py, &self.inner, ds, one)?.into_any());
        }
        let ds = self.on_pool(py, qs, |r, qs| r.self_distance_batch(qs))?;
        let d: Vec<f64> = ds
            .iter()
            .map(|d| d.map_or(f64::INFINITY, |d| d.distance))
            .collect();
        Ok(if one {
            d[0].into_pyobject(py)?.into_any()
        } else {
            PyArray1::from_vec(py, d).into_any()
        })
    }

    /// The least distance between any link and any body of `world` at each
    /// configuration (the root link's frame is the world's): a dict of
    /// arrays (`robot_distance::world_dict`), 0 where `world_collision`
    /// finds a pair.
    fn world_distance<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        world: PyRef<'py, crate::world::World>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let (qs, one) = self.configurations(q)?;
        let w = world.inner.clone();
        let ds = self.on_pool(py, qs, move |r, qs| r.world_distance_batch(qs, &w))?;
        crate::robot_distance::world_dict(py, ds, one)
    }

    /// The allowed-collision matrix of every pair of links with geometry
    /// (`docs/robots.md`), as a dict (`robot_acm::to_dict`; its `"srdf"`
    /// the SRDF text); on the pool with the GIL released, Ctrl-C stops it.
    #[pyo3(signature = (samples = 10_000, seed = 0, always_fraction = 0.95, min_distance = true))]
    fn generate_acm<'py>(
        &self,
        py: Python<'py>,
        samples: u64,
        seed: u64,
        always_fraction: f64,
        min_distance: bool,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let opts = bvtool::robots::AcmOptions {
            samples,
            seed,
            always_fraction,
            min_distance,
        };
        let robot = self.inner.clone();
        let acm =
            work::run(py, move |cancel| robot.generate_acm(&opts, Some(cancel)))?.map_err(to_py)?;
        crate::robot_acm::to_dict(py, &acm)
    }

    /// Pickles as the constructor's arguments: unpickling reads the URDF,
    /// SRDF and meshes again from the same paths.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let packages: HashMap<String, PathBuf> = self.opts.packages.iter().cloned().collect();
        let visual = self.opts.geometry == GeometryKind::Visual;
        let args = (
            self.inner.path.clone(),
            packages,
            self.opts.srdf.clone(),
            visual,
        );
        Ok((
            py.get_type::<Robot>().into_any(),
            args.into_pyobject(py)?.into_any(),
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "Robot({:?}, dof={}, links={}, pairs={})",
            self.inner.name,
            self.inner.dof,
            self.inner.links.len(),
            self.inner.pairs.len()
        )
    }
}

/// Index pairs per configuration as `(k, 2)` arrays: a list, or one array
/// for one configuration.
fn pair_arrays<'py>(
    py: Python<'py>,
    hits: impl Iterator<Item = Vec<(usize, usize)>>,
    one: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let mut out: Vec<Bound<'py, PyArray2<u32>>> = hits
        .map(|h| {
            let p: Vec<(u32, u32)> = h.iter().map(|&(a, b)| (a as u32, b as u32)).collect();
            arrays::pairs(py, &p)
        })
        .collect();
    Ok(if one {
        out.swap_remove(0).into_any()
    } else {
        out.into_pyobject(py)?.into_any()
    })
}
