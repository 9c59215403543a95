//! Time of impact: B moving from one pose to another relative to A
//! (`ObbTree.time_of_impact`, `ObbTree.time_of_impact_batch`), certified
//! by conservative advancement (`bvtool::query::motion`).

use crate::arrays;
use crate::errors::value_error;
use crate::pose::Pose;
use crate::work;
use bvtool::query::motion::{self, ImpactOptions, LeastOptions, Motion, Status, Sweep};
use bvtool::tree::ObbTree;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;
use std::sync::Arc;

/// The options of a motion query, checked.
pub fn options(
    tol: f64,
    clearance: f64,
    max_distance_calls: u64,
    rel_err: f64,
) -> PyResult<ImpactOptions> {
    let opts = ImpactOptions {
        tol,
        clearance: crate::tree::clearance(clearance)?,
        max_distance_calls,
        rel_err,
    };
    opts.check().map_err(|e| value_error(e.to_string()))?;
    Ok(opts)
}

/// `ObbTree.time_of_impact`, with the GIL released.
pub fn one(
    py: Python<'_>,
    (a, b): (&ObbTree, &ObbTree),
    poses: (bvtool::Pose, bvtool::Pose),
    opts: &ImpactOptions,
) -> PyResult<Impact> {
    let motion = Motion::new(poses.0, poses.1);
    py.detach(|| Sweep::new(a, b).time_of_impact(&motion, opts))
        .map(Impact)
        .map_err(|e| value_error(e.to_string()))
}

/// `ObbTree.path_collides`, with the GIL released.
pub fn path(
    py: Python<'_>,
    (a, b): (&ObbTree, &ObbTree),
    poses: &[bvtool::Pose],
    opts: &ImpactOptions,
) -> PyResult<(usize, Impact)> {
    py.detach(|| Sweep::new(a, b).path(poses, opts))
        .map(|p| (p.segment, Impact(p.impact)))
        .map_err(|e| value_error(e.to_string()))
}

/// `ObbTree.least_distance`, with the GIL released: a dict.
pub fn least<'py>(
    py: Python<'py>,
    (a, b): (&ObbTree, &ObbTree),
    poses: &[bvtool::Pose],
    opts: &LeastOptions,
) -> PyResult<Bound<'py, PyDict>> {
    let l = py
        .detach(|| Sweep::new(a, b).least_distance(poses, opts))
        .map_err(|e| value_error(e.to_string()))?;
    let out = PyDict::new(py);
    out.set_item("distance", l.distance)?;
    out.set_item("lower", l.lower)?;
    out.set_item("certified", l.certified)?;
    out.set_item("segment", l.segment)?;
    out.set_item("t", l.t)?;
    out.set_item("pose", Pose { inner: l.pose })?;
    out.set_item("triangles", l.triangles)?;
    out.set_item(
        "point_a",
        arrays::vector(py, l.point_a.coords.as_slice().to_vec()),
    )?;
    out.set_item(
        "point_b",
        arrays::vector(py, l.point_b.coords.as_slice().to_vec()),
    )?;
    out.set_item("rounding_bound", l.rounding_bound)?;
    out.set_item("distance_calls", l.distance_calls)?;
    Ok(out)
}

/// `ObbTree.time_of_impact_batch`: every motion in parallel on the pool,
/// the GIL released; a dict of arrays.
pub fn batch<'py>(
    py: Python<'py>,
    (a, b): (&Arc<ObbTree>, &Arc<ObbTree>),
    poses: (Vec<bvtool::Pose>, Vec<bvtool::Pose>),
    opts: ImpactOptions,
) -> PyResult<Bound<'py, PyDict>> {
    let (p0, p1) = poses;
    if p0.len() != p1.len() {
        return Err(value_error(format!(
            "poses0 has {} poses and poses1 {}: expected as many",
            p0.len(),
            p1.len()
        )));
    }
    let (a, b) = (a.clone(), b.clone());
    let answers = work::run(py, move |cancel| {
        (0..p0.len())
            .into_par_iter()
            .map_init(
                || Sweep::new(&a, &b),
                |sweep, i| {
                    (!work::cancelled(cancel)).then(|| {
                        let motion = Motion::new(p0[i], p1[i]);
                        sweep
                            .time_of_impact(&motion, &opts)
                            .expect("options checked")
                    })
                },
            )
            .collect::<Vec<_>>()
    })?;
    let answers: Vec<motion::Impact> = answers.into_iter().flatten().collect();
    let nan3 = [f64::NAN; 3];
    let point = |f: fn(&motion::Contact) -> [f64; 3]| -> Vec<[f64; 3]> {
        answers
            .iter()
            .map(|i| i.contact.as_ref().map_or(nan3, f))
            .collect()
    };
    let rows = |v: Vec<[f64; 3]>| arrays::rows_array(py, v.concat(), 3);
    let d = PyDict::new(py);
    d.set_item("hit", vec_of(py, &answers, |i| i.status == Status::Hit))?;
    d.set_item(
        "undecided",
        vec_of(py, &answers, |i| i.status == Status::Undecided),
    )?;
    d.set_item(
        "t",
        vec_of(py, &answers, |i| i.contact.map_or(f64::NAN, |c| c.t)),
    )?;
    d.set_item("free_until", vec_of(py, &answers, |i| i.free_until))?;
    d.set_item("distance_calls", vec_of(py, &answers, |i| i.distance_calls))?;
    d.set_item("point_a", rows(point(|c| c.point_a.coords.into())))?;
    d.set_item("point_b", rows(point(|c| c.point_b.coords.into())))?;
    Ok(d)
}

fn vec_of<'py, T: numpy::Element>(
    py: Python<'py>,
    answers: &[motion::Impact],
    f: impl Fn(&motion::Impact) -> T,
) -> Bound<'py, PyArray1<T>> {
    arrays::vector(py, answers.iter().map(f).collect())
}

/// A contact as pickled: t, B's pose, triangles, the witness points and
/// the distance.
type ContactState<'py> = (f64, PyRef<'py, Pose>, (u32, u32), [f64; 3], [f64; 3], f64);

/// The answer of `ObbTree.time_of_impact`. Certified: no contact for `t`
/// in `[0, free_until)`; on a hit, contact at `t` and
/// `t − tol ≤ free_until ≤ t`; `status` "free" means no contact on all
/// of [0, 1]; "undecided" (the work limit reached) claims nothing after
/// `free_until`.
#[pyclass(frozen, module = "bvtool")]
pub struct Impact(motion::Impact);

#[pymethods]
impl Impact {
    /// Rebuilds a pickled answer (`__reduce__`): `contact` `None` or
    /// `(t, pose, triangles, point_a, point_b, distance)`.
    #[staticmethod]
    fn _unpickle(
        status: &str,
        free_until: f64,
        contact: Option<ContactState<'_>>,
        distance_calls: u64,
        tol: f64,
    ) -> PyResult<Impact> {
        let status = match status {
            "hit" => Status::Hit,
            "free" => Status::Free,
            "undecided" => Status::Undecided,
            _ => return Err(value_error(format!("pickled impact status {status:?}"))),
        };
        let contact = contact.map(|(t, pose, triangles, a, b, distance)| motion::Contact {
            t,
            pose: pose.inner,
            triangles,
            point_a: a.into(),
            point_b: b.into(),
            distance,
        });
        Ok(Impact(motion::Impact {
            status,
            free_until,
            contact,
            distance_calls,
            tol,
        }))
    }

    /// Pickles as its fields (floats bit for bit, the pose as a `Pose`).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let i = &self.0;
        let p = |p: &nalgebra::Point3<f64>| -> [f64; 3] { p.coords.into() };
        let contact = i.contact.map(|c| {
            let pose = Pose { inner: c.pose };
            (
                c.t,
                pose,
                c.triangles,
                p(&c.point_a),
                p(&c.point_b),
                c.distance,
            )
        });
        let args = (
            self.status(),
            i.free_until,
            contact,
            i.distance_calls,
            i.tol,
        );
        crate::state::reduce::<Impact>(py, "_unpickle", args)
    }

    /// Whether a contact (or, with a clearance, a pair within it) was found.
    #[getter]
    fn hit(&self) -> bool {
        self.0.status == Status::Hit
    }

    /// `"hit"`, `"free"` or `"undecided"`.
    #[getter]
    fn status(&self) -> &'static str {
        match self.0.status {
            Status::Hit => "hit",
            Status::Free => "free",
            Status::Undecided => "undecided",
        }
    }

    /// The time of the contact in [0, 1], or `None`.
    #[getter]
    fn t(&self) -> Option<f64> {
        self.0.contact.map(|c| c.t)
    }

    /// No contact for `t` in `[0, free_until)`.
    #[getter]
    fn free_until(&self) -> f64 {
        self.0.free_until
    }

    /// The tolerance δ asked.
    #[getter]
    fn tol(&self) -> f64 {
        self.0.tol
    }

    /// Exact distance queries made.
    #[getter]
    fn distance_calls(&self) -> u64 {
        self.0.distance_calls
    }

    /// B's pose at `t`, or `None`.
    #[getter]
    fn pose(&self) -> Option<Pose> {
        self.0.contact.map(|c| Pose { inner: c.pose })
    }

    /// The meeting (or closest) triangles `(A's, B's)` at `t`, or `None`.
    #[getter]
    fn triangles(&self) -> Option<(u32, u32)> {
        self.0.contact.map(|c| c.triangles)
    }

    /// The witness point on A (A's frame), `(3,)`, or `None`.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        let c = self.0.contact?;
        Some(arrays::vector(py, c.point_a.coords.as_slice().to_vec()))
    }

    /// The witness point on B at `t` (A's frame), `(3,)`, or `None`.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        let c = self.0.contact?;
        Some(arrays::vector(py, c.point_b.coords.as_slice().to_vec()))
    }

    /// The distance at `t` (0 when they meet), or `None`.
    #[getter]
    fn distance(&self) -> Option<f64> {
        self.0.contact.map(|c| c.distance)
    }

    fn __bool__(&self) -> bool {
        self.hit()
    }

    fn __repr__(&self) -> String {
        match self.0.contact {
            Some(c) => format!(
                "Impact(hit, t={}, free_until={}, distance_calls={})",
                c.t, self.0.free_until, self.0.distance_calls
            ),
            None => format!(
                "Impact({}, free_until={}, distance_calls={})",
                self.status(),
                self.0.free_until,
                self.0.distance_calls
            ),
        }
    }
}
