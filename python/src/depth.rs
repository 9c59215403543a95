//! `ObbTree.distance(..., signed=True)`: the signed distance between two
//! meshes and its protrusion depth (`bvtool::query::depth`).

use crate::arrays;
use crate::errors::value_error;
use crate::work;
use bvtool::query::DistanceOptions;
use bvtool::query::depth::{self, DepthSettings, SignedOptions, Solid};
use bvtool::query::point::PointTree;
use numpy::PyArray1;
use pyo3::prelude::*;
use rayon::prelude::*;

/// The signed answer of `ObbTree.distance(other, pose, signed=True)`, in
/// A's frame and model units.
#[pyclass(frozen, module = "bvtool")]
pub struct SignedDistance(depth::SignedDistance);

/// A protrusion as pickled: depth, deep point, nearest point, bound,
/// splits, capped, triangles.
type ProtrusionState = (f64, Option<[f64; 3]>, [f64; 3], f64, u64, bool, u64);

/// One side of the signed query: its OBB tree and its point tree.
pub type Side<'t> = (&'t bvtool::tree::ObbTree, &'t PointTree);

/// The signed query's options, checked: `depth_tolerance` (model units,
/// > 0) and `max_splits` as `distance --signed` takes them.
fn options(
    distance: DistanceOptions,
    depth_tolerance: Option<f64>,
    max_splits: Option<u64>,
) -> PyResult<SignedOptions> {
    if let Some(t) = depth_tolerance.filter(|t| !(t.is_finite() && *t > 0.0)) {
        return Err(value_error(format!(
            "depth_tolerance {t}: expected a finite number > 0"
        )));
    }
    Ok(SignedOptions {
        distance,
        depth: DepthSettings {
            tolerance: depth_tolerance,
            max_splits,
        },
    })
}

/// The two sides as the library takes them.
fn solids<'t>(a: Side<'t>, b: Side<'t>) -> (Solid<'t>, Solid<'t>) {
    (
        Solid {
            tree: a.0,
            points: a.1,
        },
        Solid {
            tree: b.0,
            points: b.1,
        },
    )
}

/// The signed query with the GIL released; `depth_tolerance` (model units,
/// > 0) and `max_splits` as `distance --signed` takes them.
pub fn signed(
    py: Python<'_>,
    a: Side,
    b: Side,
    pose: &bvtool::Pose,
    distance: DistanceOptions,
    depth_tolerance: Option<f64>,
    max_splits: Option<u64>,
) -> PyResult<SignedDistance> {
    let opts = options(distance, depth_tolerance, max_splits)?;
    let (sa, sb) = solids(a, b);
    let s = py.detach(|| depth::signed_distance(&sa, &sb, pose, &opts));
    Ok(SignedDistance(s.expect("trees are never empty")))
}

/// The signed distance at every pose, in chunks with the GIL released
/// and a signal check between them ([`work::chunked`]): an `(N,)` array.
pub fn signed_batch<'py>(
    py: Python<'py>,
    a: Side,
    b: Side,
    poses: &[bvtool::Pose],
    distance: DistanceOptions,
    depth_tolerance: Option<f64>,
    max_splits: Option<u64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let opts = options(distance, depth_tolerance, max_splits)?;
    let (sa, sb) = solids(a, b);
    let d = work::chunked(py, poses.len(), 16, |range| {
        Ok(poses[range]
            .par_iter()
            .map(|p| {
                depth::signed_distance(&sa, &sb, p, &opts)
                    .expect("trees are never empty")
                    .signed_distance
            })
            .collect())
    })?;
    Ok(arrays::vector(py, d))
}

#[pymethods]
impl SignedDistance {
    /// Rebuilds a pickled answer (`__reduce__`).
    #[staticmethod]
    // One argument per pickled field.
    #[allow(clippy::too_many_arguments)]
    fn _unpickle(
        distance: f64,
        depth: f64,
        side: Option<&str>,
        normal: Option<[f64; 3]>,
        point_a: [f64; 3],
        point_b: [f64; 3],
        tolerance: f64,
        bound: f64,
        capped: bool,
        unsigned: PyRef<'_, crate::tree::Distance>,
        protrusions: [ProtrusionState; 2],
    ) -> PyResult<SignedDistance> {
        use depth::Protruding;
        let side = match side {
            None => None,
            Some("a") => Some(Protruding::A),
            Some("b") => Some(Protruding::B),
            Some(s) => return Err(value_error(format!("pickled side {s:?}"))),
        };
        Ok(SignedDistance(depth::SignedDistance {
            signed_distance: distance,
            depth,
            side,
            normal: normal.map(Into::into),
            point_a: point_a.into(),
            point_b: point_b.into(),
            tolerance,
            bound,
            capped,
            unsigned: unsigned.0,
            protrusions: protrusions.map(
                |(depth, deep, nearest, bound, splits, capped, triangles)| depth::Protrusion {
                    depth,
                    deep: deep.map(Into::into),
                    nearest: nearest.into(),
                    bound,
                    splits,
                    capped,
                    triangles,
                },
            ),
        }))
    }

    /// Pickles as its fields (floats bit for bit; the unsigned answer as
    /// a `Distance`).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<crate::state::Reduced<'py>> {
        let s = &self.0;
        let p = |p: &nalgebra::Point3<f64>| -> [f64; 3] { p.coords.into() };
        let args = (
            s.signed_distance,
            s.depth,
            self.side(),
            s.normal.map(<[f64; 3]>::from),
            p(&s.point_a),
            p(&s.point_b),
            s.tolerance,
            s.bound,
            s.capped,
            crate::tree::Distance(s.unsigned),
            s.protrusions.map(|q| {
                let deep = q.deep.map(|d| p(&d));
                (
                    q.depth,
                    deep,
                    p(&q.nearest),
                    q.bound,
                    q.splits,
                    q.capped,
                    q.triangles,
                )
            }),
        );
        crate::state::reduce::<SignedDistance>(py, "_unpickle", args)
    }

    /// The distance when apart; minus the protrusion depth when the meshes
    /// overlap or one contains the other.
    #[getter]
    fn distance(&self) -> f64 {
        self.0.signed_distance
    }

    /// The protrusion depth (≥ 0; 0 when apart or only touching).
    #[getter]
    fn depth(&self) -> f64 {
        self.0.depth
    }

    /// Which surface protrudes into the other's solid: `"a"`, `"b"` or
    /// `None` (depth 0).
    #[getter]
    fn side(&self) -> Option<&'static str> {
        self.0.side.map(|s| s.name())
    }

    /// The unit direction from A to B that separates them, `(3,)`
    /// (`point_b - point_a == distance * normal`); `None` when the distance
    /// is 0.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.0
            .normal
            .map(|n| arrays::vector(py, n.as_slice().to_vec()))
    }

    /// The witness on A's surface, `(3,)`.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.0.point_a.coords.as_slice().to_vec())
    }

    /// The witness on B's surface (in A's frame), `(3,)`.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arrays::vector(py, self.0.point_b.coords.as_slice().to_vec())
    }

    /// Whether the surfaces touch or intersect (decided exactly).
    #[getter]
    fn intersecting(&self) -> bool {
        self.0.unsigned.intersecting
    }

    /// The depth's absolute tolerance used (model units).
    #[getter]
    fn tolerance(&self) -> f64 {
        self.0.tolerance
    }

    /// The true depth lies in `[depth, depth + bound]`; `bound <=
    /// tolerance` unless `capped`.
    #[getter]
    fn bound(&self) -> f64 {
        self.0.bound
    }

    /// Whether the split cap stopped a search.
    #[getter]
    fn capped(&self) -> bool {
        self.0.capped
    }

    fn __float__(&self) -> f64 {
        self.0.signed_distance
    }
}
