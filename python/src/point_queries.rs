//! The point and ray queries of `ObbTree`: numpy in and out, every point or
//! ray on the pool with the GIL released, on the mesh's AABB tree (built on
//! first use, shared by later calls).

use crate::arrays;
use crate::errors::value_error;
use crate::work;
use bvtool::query::point::{PointTree, each};
use bvtool::query::ray::{self, Ray};
use nalgebra::{Point3, Vector3};
use pyo3::prelude::*;

/// What `closest_points` returns: positions, distances, triangles,
/// barycentric coordinates and feature codes.
pub type ClosestArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

/// `each` over `items` in chunks on the pool, a signal checked between
/// chunks ([`work::chunked`], from [`FIRST_CHUNK`] items).
fn each_on_pool<T: Sync, R: Send>(
    py: Python<'_>,
    items: &[T],
    f: impl Fn(&T) -> R + Sync + Send,
) -> PyResult<Vec<R>> {
    work::chunked(py, items.len(), FIRST_CHUNK, |part| {
        Ok(each(&items[part], &f))
    })
}

/// A batch's first chunk of points or rays ([`each_on_pool`]).
const FIRST_CHUNK: usize = 1024;

/// `closest_points`: see the method.
pub fn closest_points<'py>(
    py: Python<'py>,
    tree: &PointTree,
    points: &Bound<'py, PyAny>,
) -> PyResult<ClosestArrays<'py>> {
    let pts = arrays::read_points(points, "points")?;
    let found = each_on_pool(py, &pts, |p| {
        tree.closest(p).expect("trees are never empty")
    })?;
    let at: Vec<Point3<f64>> = found.iter().map(|c| c.point).collect();
    let bary: Vec<f64> = found.iter().flat_map(|c| c.barycentric).collect();
    Ok((
        arrays::points(py, &at).into_any(),
        arrays::vector(py, found.iter().map(|c| c.distance).collect()).into_any(),
        arrays::vector(py, found.iter().map(|c| c.triangle).collect()).into_any(),
        arrays::rows_array(py, bary, 3).into_any(),
        arrays::vector(py, found.iter().map(|c| c.feature.code()).collect()).into_any(),
    ))
}

/// A per-point query as an array.
pub fn per_point<'py, R: numpy::Element + Send>(
    py: Python<'py>,
    points: &Bound<'py, PyAny>,
    f: impl Fn(&Point3<f64>) -> R + Sync + Send,
) -> PyResult<Bound<'py, PyAny>> {
    let pts = arrays::read_points(points, "points")?;
    let out = each_on_pool(py, &pts, f)?;
    Ok(arrays::vector(py, out).into_any())
}

/// `cast_rays`: see the method.
pub fn cast_rays<'py>(
    py: Python<'py>,
    tree: &PointTree,
    origins: &Bound<'py, PyAny>,
    directions: &Bound<'py, PyAny>,
    mode: &str,
    t_min: f64,
    t_max: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let o = arrays::read_points(origins, "origins")?;
    let d = arrays::read_points(directions, "directions")?;
    if o.len() != d.len() {
        return Err(value_error(format!(
            "origins and directions: {} and {} rows, expected as many",
            o.len(),
            d.len()
        )));
    }
    if t_min.is_nan() || t_max.is_nan() || t_min > t_max {
        return Err(value_error(format!(
            "t_min {t_min}, t_max {t_max}: expected t_min <= t_max"
        )));
    }
    if let Some(i) = d.iter().position(|v| v.coords == Vector3::zeros()) {
        return Err(value_error(format!("directions: row {i} is zero")));
    }
    let rays: Vec<Ray> = o
        .iter()
        .zip(&d)
        .map(|(o, d)| Ray {
            origin: *o,
            direction: d.coords,
            t_min,
            t_max,
        })
        .collect();
    let t = &tree.tree;
    Ok(match mode {
        "first" => {
            let hits = each_on_pool(py, &rays, |r| ray::first_hit(t, r))?;
            let ts: Vec<f64> = hits
                .iter()
                .map(|h| h.map_or(f64::INFINITY, |h| h.t))
                .collect();
            let tri: Vec<i64> = hits
                .iter()
                .map(|h| h.map_or(-1, |h| h.triangle as i64))
                .collect();
            let bary: Vec<f64> = hits
                .iter()
                .flat_map(|h| h.map_or([f64::NAN; 3], |h| h.barycentric))
                .collect();
            let normal: Vec<f64> = hits
                .iter()
                .flat_map(|h| h.map_or([f64::NAN; 3], |h| h.normal.into()))
                .collect();
            (
                arrays::vector(py, ts),
                arrays::vector(py, tri),
                arrays::rows_array(py, bary, 3),
                arrays::rows_array(py, normal, 3),
            )
                .into_pyobject(py)?
                .into_any()
        }
        "any" => arrays::vector(py, each_on_pool(py, &rays, |r| ray::any_hit(t, r))?).into_any(),
        "count" => arrays::vector(
            py,
            each_on_pool(py, &rays, |r| ray::count_hits(t, r) as u64)?,
        )
        .into_any(),
        "all" => {
            let hits = each_on_pool(py, &rays, |r| ray::all_hits(t, r))?;
            let (mut idx, mut ts, mut tri) = (Vec::new(), Vec::new(), Vec::new());
            for (i, hs) in hits.iter().enumerate() {
                for h in hs {
                    idx.push(i as u64);
                    ts.push(h.t);
                    tri.push(h.triangle);
                }
            }
            (
                arrays::vector(py, idx),
                arrays::vector(py, ts),
                arrays::vector(py, tri),
            )
                .into_pyobject(py)?
                .into_any()
        }
        _ => {
            return Err(value_error(format!(
                "mode {mode:?}: expected \"first\", \"any\", \"all\" or \"count\""
            )));
        }
    })
}
