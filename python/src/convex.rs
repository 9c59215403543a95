//! `bvtool.Convex` and `bvtool.convex_distance`: the signed distance and
//! translational penetration depth of two convex shapes
//! (`bvtool::query::convex`).

use crate::arrays;
use crate::decompose::ConvexPart;
use crate::errors::value_error;
use crate::fit::{Aabb, BudgetHull, Kdop, Obb, Sphere};
use crate::pose::{from_parts, pose_from, poses_from};
use crate::state::{Reduced, one_of, reduce};
use crate::work;
use bvtool::fit::{Capsule, Cylinder};
use bvtool::mesh::MAX_COORDINATE;
use bvtool::query::convex::{self, ConvexOptions};
use nalgebra::{Point3, Vector3};
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use rayon::prelude::*;

/// A convex shape: the convex hull of points grown by a radius (a box, a
/// sphere, a capsule, a polytope), or a cylinder.
#[pyclass(frozen, module = "bvtool")]
pub struct Convex {
    /// `"box"`, `"sphere"`, `"capsule"`, `"cylinder"` or `"hull"`.
    #[pyo3(get)]
    kind: &'static str,
    shape: convex::Convex,
}

/// The kinds a `Convex` is made as.
const KINDS: [&str; 5] = ["box", "sphere", "capsule", "cylinder", "hull"];

/// Every value finite and within the library's coordinate range, `2^50`.
fn finite(what: &str, values: &[f64]) -> PyResult<()> {
    match values
        .iter()
        .find(|v| v.is_nan() || v.abs() > MAX_COORDINATE)
    {
        Some(v) => Err(value_error(format!(
            "{what}: {v:e} is outside [-2^50, 2^50]"
        ))),
        None => Ok(()),
    }
}

/// A size: within `[0, 2^50]`, the library's coordinate range.
fn non_negative(what: &str, v: f64) -> PyResult<f64> {
    if (0.0..=MAX_COORDINATE).contains(&v) {
        Ok(v)
    } else {
        Err(value_error(format!(
            "{what} {v:e}: expected a number in [0, 2^50]"
        )))
    }
}

fn unit_axis(axis: [f64; 3]) -> PyResult<Vector3<f64>> {
    finite("axis", &axis)?;
    Vector3::from(axis)
        .try_normalize(0.0)
        .ok_or_else(|| value_error("axis: the zero vector has no direction"))
}

/// `center ± half_length·axis` and `radius`, checked.
fn round_parts(
    center: [f64; 3],
    axis: [f64; 3],
    radius: f64,
    half_length: f64,
) -> PyResult<(Point3<f64>, Vector3<f64>, f64, f64)> {
    finite("center", &center)?;
    Ok((
        center.into(),
        unit_axis(axis)?,
        non_negative("radius", radius)?,
        non_negative("half_length", half_length)?,
    ))
}

#[pymethods]
impl Convex {
    /// A box: `center + R @ (s * half_extents)` for `s` in `[-1, 1]^3`, `R`
    /// the rotation of the quaternion `(x, y, z, w)`.
    #[staticmethod]
    #[pyo3(signature = (center, half_extents, quaternion = [0.0, 0.0, 0.0, 1.0]))]
    fn r#box(center: [f64; 3], half_extents: [f64; 3], quaternion: [f64; 4]) -> PyResult<Convex> {
        let frame = from_parts(center, quaternion)?;
        for h in half_extents {
            non_negative("half extent", h)?;
        }
        let b = bvtool::fit::Obb {
            center: center.into(),
            axes: *frame.rotation.to_rotation_matrix().matrix(),
            half_extents: half_extents.into(),
        };
        Ok(Convex {
            kind: "box",
            shape: convex::Convex::from(&b),
        })
    }

    /// A sphere.
    #[staticmethod]
    fn sphere(center: [f64; 3], radius: f64) -> PyResult<Convex> {
        finite("center", &center)?;
        let s = bvtool::fit::Sphere {
            center: center.into(),
            radius: non_negative("radius", radius)?,
        };
        Ok(Convex {
            kind: "sphere",
            shape: convex::Convex::from(&s),
        })
    }

    /// A capsule: the points within `radius` of the segment
    /// `center ± half_length·axis`.
    #[staticmethod]
    fn capsule(
        center: [f64; 3],
        axis: [f64; 3],
        radius: f64,
        half_length: f64,
    ) -> PyResult<Convex> {
        let (center, axis, radius, half_length) = round_parts(center, axis, radius, half_length)?;
        let c = Capsule {
            center,
            axis,
            radius,
            half_length,
        };
        Ok(Convex {
            kind: "capsule",
            shape: convex::Convex::from(&c),
        })
    }

    /// A solid cylinder: the disc of `radius` about `center` across `axis`,
    /// swept `half_length` (half the height) each way.
    #[staticmethod]
    fn cylinder(
        center: [f64; 3],
        axis: [f64; 3],
        radius: f64,
        half_length: f64,
    ) -> PyResult<Convex> {
        let (center, axis, radius, half_height) = round_parts(center, axis, radius, half_length)?;
        let c = Cylinder {
            center,
            axis,
            radius,
            half_height,
        };
        Ok(Convex {
            kind: "cylinder",
            shape: convex::Convex::from(&c),
        })
    }

    /// The convex hull of `points` (`(n, 3)`, n ≥ 1), grown by `radius`.
    #[staticmethod]
    #[pyo3(signature = (points, radius = 0.0))]
    fn hull(points: &Bound<'_, PyAny>, radius: f64) -> PyResult<Convex> {
        let points = arrays::read_points(points, "points")?;
        let radius = non_negative("radius", radius)?;
        let shape = convex::Convex::rounded(points, radius)
            .ok_or_else(|| value_error("points: a hull needs at least one point"))?;
        Ok(Convex {
            kind: "hull",
            shape,
        })
    }

    /// A fitted shape as a convex shape: an `Obb`, `Aabb`, `Sphere`,
    /// `BudgetHull`, `Kdop` (its polytope) or `ConvexPart`. (A `Round` is a
    /// capsule or a cylinder: make it with `Convex.capsule` or
    /// `Convex.cylinder` from its fields.)
    #[staticmethod]
    fn of(shape: &Bound<'_, PyAny>) -> PyResult<Convex> {
        let (kind, made) = if let Ok(b) = shape.cast::<Obb>() {
            ("box", Some(b.get().convex()))
        } else if let Ok(b) = shape.cast::<Aabb>() {
            ("box", Some(b.get().convex()))
        } else if let Ok(s) = shape.cast::<Sphere>() {
            ("sphere", Some(s.get().convex()))
        } else if let Ok(h) = shape.cast::<BudgetHull>() {
            ("hull", h.get().convex())
        } else if let Ok(k) = shape.cast::<Kdop>() {
            ("hull", k.get().convex())
        } else if let Ok(p) = shape.cast::<ConvexPart>() {
            ("hull", p.get().convex())
        } else {
            return Err(value_error(format!(
                "Convex.of: expected Obb, Aabb, Sphere, BudgetHull, Kdop or ConvexPart, got {}",
                shape.get_type().name()?
            )));
        };
        let shape = made.ok_or_else(|| value_error("Convex.of: the shape has no vertex"))?;
        Ok(Convex { kind, shape })
    }

    /// Rebuilds a pickled shape (`__reduce__`): its kind, the core's points
    /// (empty for a cylinder), the radius, and the cylinder's centre,
    /// axis, radius and half height (`None` otherwise).
    #[staticmethod]
    fn _unpickle(
        kind: &str,
        points: Vec<[f64; 3]>,
        radius: f64,
        cylinder: Option<([f64; 3], [f64; 3], f64, f64)>,
    ) -> PyResult<Convex> {
        let kind = one_of("convex kind", kind, &KINDS)?;
        let shape = match cylinder {
            Some((center, axis, radius, half_height)) => {
                // As stored, bit for bit: the axis is checked, not renormalised.
                finite(
                    "pickled cylinder",
                    &[center[0], center[1], center[2], radius, half_height],
                )?;
                let axis = Vector3::from(axis);
                if !((axis.norm() - 1.0).abs() <= 1e-9 && radius >= 0.0 && half_height >= 0.0) {
                    return Err(value_error(
                        "pickled cylinder: not a unit axis or a negative size",
                    ));
                }
                convex::Convex::from(&Cylinder {
                    center: center.into(),
                    axis,
                    radius,
                    half_height,
                })
            }
            None => {
                for p in &points {
                    finite("pickled point", p)?;
                }
                convex::Convex::rounded(points.into_iter().map(Into::into).collect(), radius)
                    .ok_or_else(|| value_error("pickled convex shape: no points or a bad radius"))?
            }
        };
        Ok(Convex { kind, shape })
    }

    /// Pickles as its kind, points, radius and cylinder, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let points: Vec<[f64; 3]> = self
            .shape
            .points()
            .unwrap_or_default()
            .iter()
            .map(|p| p.coords.into())
            .collect();
        let cylinder: Option<([f64; 3], [f64; 3], f64, f64)> = self.shape.cylinder().map(|c| {
            (
                c.center.coords.into(),
                c.axis.into(),
                c.radius,
                c.half_height,
            )
        });
        let args = (self.kind, points, self.shape.radius(), cylinder);
        reduce::<Convex>(py, "_unpickle", args)
    }

    /// The ball's radius grown onto the core (a sphere's or capsule's
    /// radius; 0 for boxes, hulls and cylinders).
    #[getter]
    fn radius(&self) -> f64 {
        self.shape.radius()
    }

    /// The core's points, `(n, 3)`: a box's corners, a sphere's centre, a
    /// capsule's segment ends, a hull's points; `(0, 3)` for a cylinder.
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::points(py, self.shape.points().unwrap_or_default())
    }

    /// The point farthest along the unit direction `u`, `(3,)`.
    fn support<'py>(&self, py: Python<'py>, u: [f64; 3]) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let u = unit_axis(u)?;
        Ok(arrays::vector(
            py,
            self.shape.support(&u).coords.as_slice().to_vec(),
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "Convex({}, {} points, radius {})",
            self.kind,
            self.points_len(),
            self.shape.radius()
        )
    }
}

impl Convex {
    fn points_len(&self) -> usize {
        self.shape.points().map_or(0, <[_]>::len)
    }
}

/// The answer of `convex_distance`, in A's frame and model units.
#[pyclass(frozen, module = "bvtool")]
pub struct ConvexDistance(convex::ConvexDistance);

/// Checked options.
fn options(tolerance: Option<f64>, max_cells: Option<usize>) -> PyResult<ConvexOptions> {
    if let Some(t) = tolerance.filter(|t| !(t.is_finite() && *t > 0.0)) {
        return Err(value_error(format!(
            "tolerance {t}: expected a finite number > 0"
        )));
    }
    if let Some(n) = max_cells.filter(|n| !(1..=convex::CELL_LIMIT).contains(n)) {
        return Err(value_error(format!(
            "max_cells {n}: expected 1 to {} (about 200 bytes a cell)",
            convex::CELL_LIMIT
        )));
    }
    Ok(ConvexOptions {
        tolerance,
        max_cells,
    })
}

/// The signed distance of `a` (at identity) and `b` placed by `pose`:
/// their distance when apart, minus the penetration depth (the shortest
/// translation of B that separates them) when they overlap, with the
/// contact normal from A to B, witnesses and the contact patch. The GIL is
/// released.
#[pyfunction]
#[pyo3(signature = (a, b, pose = None, *, tolerance = None, max_cells = None))]
pub fn convex_distance(
    py: Python<'_>,
    a: PyRef<'_, Convex>,
    b: PyRef<'_, Convex>,
    pose: Option<&Bound<'_, PyAny>>,
    tolerance: Option<f64>,
    max_cells: Option<usize>,
) -> PyResult<ConvexDistance> {
    let pose = pose_from(pose)?;
    let opts = options(tolerance, max_cells)?;
    let (a, b) = (&a.shape, &b.shape);
    let d = py.detach(|| convex::signed_distance(a, b, &pose, &opts));
    Ok(ConvexDistance(d.expect("a Convex always has a point")))
}

/// The signed distance at every pose, `(N,)`: in chunks on the pool with
/// the GIL released and a signal check between them.
#[pyfunction]
#[pyo3(signature = (a, b, poses, *, tolerance = None, max_cells = None))]
pub fn convex_distance_batch<'py>(
    py: Python<'py>,
    a: PyRef<'_, Convex>,
    b: PyRef<'_, Convex>,
    poses: &Bound<'py, PyAny>,
    tolerance: Option<f64>,
    max_cells: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let poses = poses_from(poses)?;
    let opts = options(tolerance, max_cells)?;
    let (a, b) = (&a.shape, &b.shape);
    let d = work::chunked(py, poses.len(), 64, |range| {
        Ok(poses[range]
            .par_iter()
            .map(|p| {
                convex::signed_distance(a, b, p, &opts)
                    .expect("a Convex always has a point")
                    .signed_distance
            })
            .collect())
    })?;
    Ok(arrays::vector(py, d))
}

/// A pickled answer: signed distance, normal, witnesses, patch, tolerance,
/// bound, capped, cells.
type DistanceState = (
    f64,
    [f64; 3],
    [f64; 3],
    [f64; 3],
    Vec<[f64; 3]>,
    f64,
    f64,
    bool,
    usize,
);

#[pymethods]
impl ConvexDistance {
    /// Rebuilds a pickled answer (`__reduce__`).
    #[staticmethod]
    fn _unpickle(state: DistanceState) -> PyResult<ConvexDistance> {
        let (signed_distance, normal, point_a, point_b, patch, tolerance, bound, capped, cells) =
            state;
        finite(
            "pickled convex distance",
            &[signed_distance, tolerance, bound],
        )?;
        Ok(ConvexDistance(convex::ConvexDistance {
            signed_distance,
            normal: normal.into(),
            point_a: point_a.into(),
            point_b: point_b.into(),
            patch: patch.into_iter().map(Into::into).collect(),
            tolerance,
            bound,
            capped,
            cells,
        }))
    }

    /// Pickles as its fields, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let d = &self.0;
        let p = |p: &Point3<f64>| -> [f64; 3] { p.coords.into() };
        let state: DistanceState = (
            d.signed_distance,
            d.normal.into(),
            p(&d.point_a),
            p(&d.point_b),
            d.patch.iter().map(p).collect(),
            d.tolerance,
            d.bound,
            d.capped,
            d.cells,
        );
        reduce::<ConvexDistance>(py, "_unpickle", (state,))
    }

    /// The distance when apart; minus the penetration depth when the shapes
    /// overlap.
    #[getter]
    fn distance(&self) -> f64 {
        self.0.signed_distance
    }

    /// The penetration depth (≥ 0; 0 when apart).
    #[getter]
    fn depth(&self) -> f64 {
        self.0.depth()
    }

    /// The unit contact normal from A to B, `(3,)`: B moved by
    /// `depth * normal` touches A; `point_b - point_a == distance * normal`.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.0.normal.as_slice().to_vec())
    }

    /// The witness on A, `(3,)`.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.0.point_a.coords.as_slice().to_vec())
    }

    /// The witness on B (in A's frame), `(3,)`.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.0.point_b.coords.as_slice().to_vec())
    }

    /// The contact patch on A's surface, `(k, 3)`: a convex polygon's
    /// corners in order, a segment's ends or one point.
    #[getter]
    fn patch<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::points(py, &self.0.patch)
    }

    /// The absolute tolerance used (model units).
    #[getter]
    fn tolerance(&self) -> f64 {
        self.0.tolerance
    }

    /// The true signed distance lies in `[distance, distance + bound]`;
    /// `bound <= tolerance` unless `capped`.
    #[getter]
    fn bound(&self) -> f64 {
        self.0.bound
    }

    /// Whether the cell cap stopped the search.
    #[getter]
    fn capped(&self) -> bool {
        self.0.capped
    }

    /// Cells of the direction search evaluated.
    #[getter]
    fn cells(&self) -> usize {
        self.0.cells
    }

    fn __float__(&self) -> f64 {
        self.0.signed_distance
    }

    fn __repr__(&self) -> String {
        format!(
            "ConvexDistance(distance={}, normal={:?}, bound={})",
            self.0.signed_distance,
            <[f64; 3]>::from(self.0.normal),
            self.0.bound
        )
    }
}
