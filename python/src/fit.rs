//! `fit`: the bounding volumes of a mesh or scene, as `bvtool fit` computes
//! them.

use crate::arrays;
use crate::decompose::Decomposition;
use crate::errors::{to_py, value_error};
use crate::export::shape_list;
use crate::source::{file_name, scene_arg};
use crate::state::{Reduced, one_of, reduce};
use crate::work;
use bvtool::fit::{ObbMethod, ShapeSpec, SphereMethod};
use bvtool::query::convex::Convex;
use bvtool::volumes::{FileVolumes, FitOptions, KdopFit, ObbFit, SphereFit};
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;

/// An OBB method by name (`tight`, `fast`, `hull`, `pca`).
pub fn obb_method(name: &str) -> PyResult<ObbMethod> {
    name.parse().map_err(|_| {
        value_error(format!(
            "obb {name:?}: expected \"tight\", \"fast\", \"hull\" or \"pca\""
        ))
    })
}

/// A sphere method by name (`exact`, `ritter`, `centroid`).
pub fn sphere_method(name: &str) -> PyResult<SphereMethod> {
    name.parse().map_err(|_| {
        value_error(format!(
            "sphere {name:?}: expected \"exact\", \"ritter\" or \"centroid\""
        ))
    })
}

/// The bounding volumes of `mesh` — a `Scene` (world frame, node
/// transforms applied; the numbers `bvtool fit --json` prints), a `Mesh`,
/// or anything with `vertices` and `faces` — over the vertices its
/// triangles use (all its points for a point cloud).
///
/// `obb` is `"tight"` (the minimum volume), `"fast"` (near-minimal, quicker:
/// hull-face-flush boxes and a local search), `"hull"` (RAPID's hull
/// covariance frame) or `"pca"` (vertex covariance); `sphere` is
/// `"exact"` (the minimum enclosing sphere), `"ritter"` or `"centroid"`.
/// With `capsule` and `cylinder`, also a near-minimal capsule and cylinder
/// (axis searched; `bvtool fit --capsule --cylinder`). With `hull_max=N`
/// (8 to 1024; 255 is PhysX's and Unity's limit), also a convex hull of at
/// most N vertices and N faces (`bvtool fit --hull-max N`). With `best`,
/// also the name of the smallest primitive by volume among the AABB, the
/// OBB, the sphere, the capsule and the cylinder (fitting the last two;
/// `bvtool fit --best`). Every volume
/// contains every vertex (rounded outward). Boxes carry half extents;
/// quaternions are (x, y, z, w).
#[pyfunction]
#[pyo3(signature = (mesh, obb = "tight", sphere = "exact", *, capsule = false, cylinder = false, hull_max = None, best = false, shapes = None))]
// One argument per Python keyword: the signature is the API.
#[allow(clippy::too_many_arguments)]
pub fn fit(
    py: Python<'_>,
    mesh: &Bound<'_, PyAny>,
    obb: &str,
    sphere: &str,
    capsule: bool,
    cylinder: bool,
    hull_max: Option<usize>,
    best: bool,
    shapes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Fit> {
    use bvtool::fit::polytope::budget_hull::{MAX_BUDGET, MIN_BUDGET};
    if let Some(n) = hull_max.filter(|n| !(MIN_BUDGET..=MAX_BUDGET).contains(n)) {
        return Err(value_error(format!(
            "hull_max {n}: expected {MIN_BUDGET} to {MAX_BUDGET}"
        )));
    }
    let flags = [
        capsule.then_some(ShapeSpec::Capsule),
        cylinder.then_some(ShapeSpec::Cylinder),
        hull_max.map(|n| ShapeSpec::Hull(Some(n))),
        best.then_some(ShapeSpec::Best),
    ];
    let mut opts = FitOptions {
        shapes: flags.into_iter().flatten().collect(),
        ..FitOptions::of(obb_method(obb)?, sphere_method(sphere)?)
    };
    opts.add_shapes(&shape_list(shapes)?);
    let scene = scene_arg(py, mesh, false)?;
    let FileVolumes {
        volumes: v,
        decomposition,
        ..
    } = work::run_until(py, move |stop| {
        FileVolumes::new_until(&file_name(&scene), &scene, &opts, stop)
    })?
    .map_err(to_py)?;
    let aabb = &v.aabb;
    Ok(Fit {
        aabb: Aabb {
            min: aabb.corners.min,
            max: aabb.corners.max,
            volume: aabb.volume,
            surface_area: aabb.surface_area,
        },
        obb: Obb::from(&v.obb),
        sphere: Sphere::from(&v.sphere),
        capsule: v.capsule.as_ref().map(|c| Round {
            center: c.center,
            axis: c.axis,
            radius: c.radius,
            half_length: c.half_length,
            quaternion: c.rotation_xyzw,
            volume: c.volume,
        }),
        cylinder: v.cylinder.as_ref().map(|c| Round {
            center: c.center,
            axis: c.axis,
            radius: c.radius,
            half_length: c.half_height,
            quaternion: c.rotation_xyzw,
            volume: c.volume,
        }),
        hull_budget: v.hull_budget.as_ref().map(|h| BudgetHull {
            vertices: h.vertices.clone(),
            faces: h.faces.clone(),
            max: h.max,
            exact: h.exact,
            volume: h.volume,
            extra_volume_ratio: h.extra_volume_ratio,
        }),
        kdops: v
            .kdops
            .map(|k| k.into_iter().map(|k| Py::new(py, Kdop(k))).collect())
            .transpose()?,
        decomposition: decomposition
            .map(|d| Py::new(py, Decomposition::of_fit(&d, v.hull_volume)))
            .transpose()?,
        best: v.best.as_ref().map(|b| b.shape),
        hull_volume: v.hull_volume,
        hull_vertices: v.hull_vertices,
        triangles: v.triangles,
        vertices: v.vertices,
    })
}

/// A capsule or a cylinder: the points within `radius` of the segment
/// `center ± half_length·axis` (capsule), or the disc of `radius` across
/// `axis` swept `half_length` each way (cylinder: half its height).
#[pyclass(frozen, module = "bvtool", from_py_object)]
#[derive(Clone)]
pub struct Round {
    center: [f64; 3],
    axis: [f64; 3],
    /// Radius.
    #[pyo3(get)]
    radius: f64,
    /// Half the segment's length (capsule) or half the height (cylinder).
    #[pyo3(get)]
    half_length: f64,
    quaternion: [f64; 4],
    /// Volume.
    #[pyo3(get)]
    volume: f64,
}

#[pymethods]
impl Round {
    /// Rebuilds a pickled capsule or cylinder (`__reduce__`).
    #[staticmethod]
    fn _unpickle(
        center: [f64; 3],
        axis: [f64; 3],
        radius: f64,
        half_length: f64,
        quaternion: [f64; 4],
        volume: f64,
    ) -> Round {
        Round {
            center,
            axis,
            radius,
            half_length,
            quaternion,
            volume,
        }
    }
    /// Pickles as its fields, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let s = self;
        let args = (
            s.center,
            s.axis,
            s.radius,
            s.half_length,
            s.quaternion,
            s.volume,
        );
        reduce::<Round>(py, "_unpickle", args)
    }
    /// The centre, `(3,)`.
    #[getter]
    fn center<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.center.to_vec())
    }
    /// The unit axis, `(3,)`.
    #[getter]
    fn axis<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.axis.to_vec())
    }
    /// The rotation taking +Y to the axis, (x, y, z, w), `(4,)`.
    #[getter]
    fn quaternion<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.quaternion.to_vec())
    }
    fn __repr__(&self) -> String {
        format!(
            "Round(center={:?}, axis={:?}, radius={}, half_length={})",
            self.center, self.axis, self.radius, self.half_length
        )
    }
}

/// A convex polytope of at most `max` vertices and `max` faces containing
/// every vertex (`fit(..., hull_max=N)`).
#[pyclass(frozen, module = "bvtool", from_py_object)]
#[derive(Clone)]
pub struct BudgetHull {
    vertices: Vec<[f64; 3]>,
    /// Faces: convex polygons as lists of vertex indices, counter-clockwise
    /// seen from outside.
    #[pyo3(get)]
    faces: Vec<Vec<u32>>,
    /// The budget.
    #[pyo3(get)]
    max: usize,
    /// Whether it is the exact convex hull.
    #[pyo3(get)]
    exact: bool,
    /// Volume.
    #[pyo3(get)]
    volume: f64,
    /// `volume / hull_volume - 1`: the volume given up (`None` for flat
    /// points).
    #[pyo3(get)]
    extra_volume_ratio: Option<f64>,
}

#[pymethods]
impl BudgetHull {
    /// Rebuilds a pickled hull (`__reduce__`).
    #[staticmethod]
    fn _unpickle(
        vertices: Vec<[f64; 3]>,
        faces: Vec<Vec<u32>>,
        max: usize,
        exact: bool,
        volume: f64,
        extra_volume_ratio: Option<f64>,
    ) -> BudgetHull {
        BudgetHull {
            vertices,
            faces,
            max,
            exact,
            volume,
            extra_volume_ratio,
        }
    }
    /// Pickles as its fields, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let s = self.clone();
        let args = (
            s.vertices,
            s.faces,
            s.max,
            s.exact,
            s.volume,
            s.extra_volume_ratio,
        );
        reduce::<BudgetHull>(py, "_unpickle", args)
    }
    /// The vertices, `(n, 3)`.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::rows_array(py, self.vertices.concat(), 3)
    }
    fn __repr__(&self) -> String {
        format!(
            "BudgetHull({} vertices, {} faces, max {}, volume {})",
            self.vertices.len(),
            self.faces.len(),
            self.max,
            self.volume
        )
    }
}

/// The volumes `fit` returns.
#[pyclass(frozen, module = "bvtool", get_all)]
pub struct Fit {
    /// The axis-aligned box.
    aabb: Aabb,
    /// The oriented box of the method asked for.
    obb: Obb,
    /// The sphere of the method asked for.
    sphere: Sphere,
    /// With `capsule=True`: the capsule, else `None`.
    capsule: Option<Round>,
    /// With `cylinder=True`: the cylinder (`half_length` is half its
    /// height), else `None`.
    cylinder: Option<Round>,
    /// With `hull_max=N`: the convex hull under that budget, else `None`.
    hull_budget: Option<BudgetHull>,
    /// With a k-DOP in `shapes` (`kdop26`, `kdop14-obb`, ...): the k-DOP of
    /// that family in the mesh's frame, then in the oriented box's frame
    /// (both are fitted, as `bvtool fit --kdop K`), else `None`.
    kdops: Option<Vec<Py<Kdop>>>,
    /// With `decompose` in `shapes`: the convex parts (as `decompose` with
    /// its defaults), else `None`.
    decomposition: Option<Py<Decomposition>>,
    /// With `best=True`: the smallest primitive by volume, `"aabb"`,
    /// `"obb"`, `"sphere"`, `"capsule"` or `"cylinder"` (on equal volumes
    /// the earlier), else `None`.
    best: Option<&'static str>,
    /// Volume of the convex hull: the least any convex volume can have.
    hull_volume: f64,
    /// Vertices of the convex hull.
    hull_vertices: usize,
    /// Triangles the points come from (each instance counted).
    triangles: usize,
    /// Points fitted.
    vertices: usize,
}

#[pymethods]
impl Fit {
    /// Rebuilds a pickled fit (`__reduce__`).
    #[staticmethod]
    // One argument per pickled field.
    #[allow(clippy::too_many_arguments)]
    fn _unpickle(
        aabb: Aabb,
        obb: Obb,
        sphere: Sphere,
        capsule: Option<Round>,
        cylinder: Option<Round>,
        hull_budget: Option<BudgetHull>,
        kdops: Option<Vec<Py<Kdop>>>,
        decomposition: Option<Py<Decomposition>>,
        best: Option<&str>,
        numbers: (f64, usize, usize, usize),
    ) -> PyResult<Fit> {
        let (hull_volume, hull_vertices, triangles, vertices) = numbers;
        let best = best
            .map(|b| {
                one_of(
                    "best shape",
                    b,
                    &["aabb", "obb", "sphere", "capsule", "cylinder"],
                )
            })
            .transpose()?;
        Ok(Fit {
            aabb,
            obb,
            sphere,
            capsule,
            cylinder,
            hull_budget,
            kdops,
            decomposition,
            best,
            hull_volume,
            hull_vertices,
            triangles,
            vertices,
        })
    }
    /// Pickles as its volumes (each pickled as itself) and numbers.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let s = self;
        let args = (
            s.aabb.clone(),
            s.obb.clone(),
            s.sphere.clone(),
            s.capsule.clone(),
            s.cylinder.clone(),
            s.hull_budget.clone(),
            s.kdops
                .as_ref()
                .map(|k| k.iter().map(|x| x.clone_ref(py)).collect::<Vec<_>>()),
            s.decomposition.as_ref().map(|d| d.clone_ref(py)),
            s.best,
            (s.hull_volume, s.hull_vertices, s.triangles, s.vertices),
        );
        reduce::<Fit>(py, "_unpickle", args)
    }
    fn __repr__(&self) -> String {
        format!(
            "Fit(aabb volume {}, obb volume {}, sphere radius {}, hull volume {})",
            self.aabb.volume, self.obb.volume, self.sphere.radius, self.hull_volume
        )
    }
}

/// An axis-aligned box.
#[pyclass(frozen, module = "bvtool", from_py_object)]
#[derive(Clone)]
pub struct Aabb {
    min: [f64; 3],
    max: [f64; 3],
    /// Volume (model units³).
    #[pyo3(get)]
    volume: f64,
    /// Surface area (model units²).
    #[pyo3(get)]
    surface_area: f64,
}

#[pymethods]
impl Aabb {
    /// Rebuilds a pickled box (`__reduce__`).
    #[staticmethod]
    fn _unpickle(min: [f64; 3], max: [f64; 3], volume: f64, surface_area: f64) -> Aabb {
        Aabb {
            min,
            max,
            volume,
            surface_area,
        }
    }
    /// Pickles as its fields, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let args = (self.min, self.max, self.volume, self.surface_area);
        reduce::<Aabb>(py, "_unpickle", args)
    }
    /// The lowest corner, `(3,)`.
    #[getter]
    fn min<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.min.to_vec())
    }
    /// The highest corner, `(3,)`.
    #[getter]
    fn max<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.max.to_vec())
    }
    /// The centre, `(3,)`.
    #[getter]
    fn center<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(
            py,
            (0..3).map(|i| 0.5 * (self.min[i] + self.max[i])).collect(),
        )
    }
    /// Half the extent along each axis, `(3,)`.
    #[getter]
    fn half_extents<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(
            py,
            (0..3).map(|i| 0.5 * (self.max[i] - self.min[i])).collect(),
        )
    }
    fn __repr__(&self) -> String {
        format!("Aabb(min={:?}, max={:?})", self.min, self.max)
    }
}

/// An oriented box: `center + rotation @ (s * half_extents)` for `s` in
/// `[-1, 1]^3`.
#[pyclass(frozen, module = "bvtool", from_py_object)]
#[derive(Clone)]
pub struct Obb {
    /// The method that fitted it.
    #[pyo3(get)]
    method: &'static str,
    center: [f64; 3],
    axes: [[f64; 3]; 3],
    half_extents: [f64; 3],
    quaternion: [f64; 4],
    /// Volume.
    #[pyo3(get)]
    volume: f64,
    /// Surface area.
    #[pyo3(get)]
    surface_area: f64,
}

impl Obb {
    /// The box as a convex shape (`bvtool.Convex.of`).
    pub fn convex(&self) -> Convex {
        let axes = nalgebra::Matrix3::from_columns(&self.axes.map(nalgebra::Vector3::from));
        Convex::from(&bvtool::fit::Obb {
            center: self.center.into(),
            axes,
            half_extents: self.half_extents.into(),
        })
    }
}

impl From<&ObbFit> for Obb {
    fn from(b: &ObbFit) -> Obb {
        Obb {
            method: b.method.as_str(),
            center: b.center,
            axes: b.axes,
            half_extents: b.half_extents,
            quaternion: b.rotation_xyzw,
            volume: b.volume,
            surface_area: b.surface_area,
        }
    }
}

#[pymethods]
impl Obb {
    /// Rebuilds a pickled box (`__reduce__`).
    #[staticmethod]
    fn _unpickle(
        method: &str,
        center: [f64; 3],
        axes: [[f64; 3]; 3],
        half_extents: [f64; 3],
        quaternion: [f64; 4],
        volume: f64,
        surface_area: f64,
    ) -> PyResult<Obb> {
        let method = method
            .parse::<ObbMethod>()
            .map_err(|_| value_error(format!("pickled box method {method:?}")))?
            .as_str();
        Ok(Obb {
            method,
            center,
            axes,
            half_extents,
            quaternion,
            volume,
            surface_area,
        })
    }
    /// Pickles as its fields, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let s = self;
        let args = (
            s.method,
            s.center,
            s.axes,
            s.half_extents,
            s.quaternion,
            s.volume,
            s.surface_area,
        );
        reduce::<Obb>(py, "_unpickle", args)
    }
    /// The centre, `(3,)`.
    #[getter]
    fn center<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.center.to_vec())
    }
    /// Half extents along the box's axes, `(3,)`.
    #[getter]
    fn half_extents<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.half_extents.to_vec())
    }
    /// The rotation, `(3, 3)`: its columns are the box's unit axes
    /// (right-handed).
    #[getter]
    fn rotation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let flat = (0..9).map(|k| self.axes[k % 3][k / 3]).collect();
        arrays::rows_array(py, flat, 3)
    }
    /// The rotation as a unit quaternion (x, y, z, w), `(4,)`.
    #[getter]
    fn quaternion<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.quaternion.to_vec())
    }
    fn __repr__(&self) -> String {
        format!(
            "Obb({}, center={:?}, half_extents={:?}, quaternion={:?})",
            self.method, self.center, self.half_extents, self.quaternion
        )
    }
}

/// A sphere.
#[pyclass(frozen, module = "bvtool", from_py_object)]
#[derive(Clone)]
pub struct Sphere {
    /// The method that fitted it.
    #[pyo3(get)]
    method: &'static str,
    center: [f64; 3],
    /// Radius.
    #[pyo3(get)]
    radius: f64,
    /// Volume.
    #[pyo3(get)]
    volume: f64,
    /// Surface area.
    #[pyo3(get)]
    surface_area: f64,
}

impl Sphere {
    /// The sphere as a convex shape (`bvtool.Convex.of`).
    pub fn convex(&self) -> Convex {
        Convex::from(&bvtool::fit::Sphere {
            center: self.center.into(),
            radius: self.radius,
        })
    }
}

impl Aabb {
    /// The box as a convex shape (`bvtool.Convex.of`).
    pub fn convex(&self) -> Convex {
        Convex::from(&bvtool::fit::Aabb {
            min: self.min.into(),
            max: self.max.into(),
        })
    }
}

impl BudgetHull {
    /// The hull as a convex shape (`bvtool.Convex.of`); `None` without
    /// vertices.
    pub fn convex(&self) -> Option<Convex> {
        Convex::hull(self.vertices.iter().map(|&v| v.into()).collect())
    }
}

impl Kdop {
    /// The k-DOP's polytope as a convex shape (`bvtool.Convex.of`); `None`
    /// without vertices.
    pub fn convex(&self) -> Option<Convex> {
        Convex::hull(self.0.vertices.iter().map(|&v| v.into()).collect())
    }
}

impl From<&SphereFit> for Sphere {
    fn from(s: &SphereFit) -> Sphere {
        Sphere {
            method: s.method.as_str(),
            center: s.center,
            radius: s.radius,
            volume: s.volume,
            surface_area: s.surface_area,
        }
    }
}

#[pymethods]
impl Sphere {
    /// Rebuilds a pickled sphere (`__reduce__`).
    #[staticmethod]
    fn _unpickle(
        method: &str,
        center: [f64; 3],
        radius: f64,
        volume: f64,
        surface_area: f64,
    ) -> PyResult<Sphere> {
        let method = method
            .parse::<SphereMethod>()
            .map_err(|_| value_error(format!("pickled sphere method {method:?}")))?
            .as_str();
        Ok(Sphere {
            method,
            center,
            radius,
            volume,
            surface_area,
        })
    }
    /// Pickles as its fields, bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let s = self;
        let args = (s.method, s.center, s.radius, s.volume, s.surface_area);
        reduce::<Sphere>(py, "_unpickle", args)
    }
    /// The centre, `(3,)`.
    #[getter]
    fn center<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.center.to_vec())
    }
    fn __repr__(&self) -> String {
        format!(
            "Sphere({}, center={:?}, radius={})",
            self.method, self.center, self.radius
        )
    }
}

/// A k-DOP: the intersection of the slabs `min[i] <= d·p <= max[i]` along
/// its fixed unit directions `d` (as `bvtool fit --kdop K --json` reports
/// it; the bounds rounded outward), with its polytope.
#[pyclass(frozen, module = "bvtool")]
pub struct Kdop(KdopFit);

#[pymethods]
impl Kdop {
    /// Rebuilds a pickled k-DOP (`__reduce__`).
    #[staticmethod]
    // One argument per pickled field.
    #[allow(clippy::too_many_arguments)]
    fn _unpickle(
        kind: &str,
        frame: &str,
        rotation_xyzw: [f64; 4],
        directions: Vec<[f64; 3]>,
        min: Vec<f64>,
        max: Vec<f64>,
        vertices: Vec<[f64; 3]>,
        faces: Vec<Vec<u32>>,
        volume: f64,
        surface_area: f64,
    ) -> PyResult<Kdop> {
        let kind = kind
            .parse()
            .map_err(|_| value_error(format!("pickled k-DOP kind {kind:?}: unknown")))?;
        let frame = one_of("k-DOP frame", frame, &["mesh", "obb"])?;
        if directions.len() != min.len() || min.len() != max.len() {
            return Err(value_error(
                "pickled k-DOP: directions, min and max differ in length",
            ));
        }
        Ok(Kdop(KdopFit {
            kind,
            frame,
            rotation_xyzw,
            directions,
            min,
            max,
            vertices,
            faces,
            volume,
            surface_area,
            air: None,
        }))
    }
    /// Pickles as its fields.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let k = &self.0;
        let args = (
            k.kind.as_str(),
            k.frame,
            k.rotation_xyzw,
            k.directions.clone(),
            k.min.clone(),
            k.max.clone(),
            k.vertices.clone(),
            k.faces.clone(),
            k.volume,
            k.surface_area,
        );
        reduce::<Kdop>(py, "_unpickle", args)
    }
    /// The family: `"6"`, `"10x"`, `"10y"`, `"10z"`, `"14"`, `"18"` or `"26"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind.as_str()
    }
    /// `"mesh"` (directions along the mesh's axes) or `"obb"` (along the
    /// oriented box's).
    #[getter]
    fn frame(&self) -> &'static str {
        self.0.frame
    }
    /// The frame's rotation (x, y, z, w), `(4,)`: identity for `"mesh"`.
    #[getter]
    fn quaternion<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.0.rotation_xyzw.to_vec())
    }
    /// The unit directions (in the mesh's frame), `(k/2, 3)`.
    #[getter]
    fn directions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::rows_array(py, self.0.directions.concat(), 3)
    }
    /// Per direction, the least `d·p` over the points (rounded down), `(k/2,)`.
    #[getter]
    fn min<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.0.min.clone())
    }
    /// Per direction, the greatest `d·p` (rounded up), `(k/2,)`.
    #[getter]
    fn max<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.0.max.clone())
    }
    /// The polytope's vertices, `(n, 3)`.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        arrays::rows_array(py, self.0.vertices.concat(), 3)
    }
    /// Its faces: convex polygons of vertex indices, counter-clockwise seen
    /// from outside.
    #[getter]
    fn faces(&self) -> Vec<Vec<u32>> {
        self.0.faces.clone()
    }
    /// Volume.
    #[getter]
    fn volume(&self) -> f64 {
        self.0.volume
    }
    /// Surface area.
    #[getter]
    fn surface_area(&self) -> f64 {
        self.0.surface_area
    }
    fn __repr__(&self) -> String {
        format!(
            "Kdop({}, frame {}, volume {})",
            self.0.kind.as_str(),
            self.0.frame,
            self.0.volume
        )
    }
}
