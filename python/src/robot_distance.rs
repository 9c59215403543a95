//! `Robot.distance(q, per_pair=True)` and `Robot.world_distance(q, world)`
//! as dicts of numpy arrays a planner can index directly
//! (`docs/python.md`, "Robots").

use bvtool::robots::{Robot, RobotWorldDistance, SelfDistance};
use numpy::IntoPyArray;
use numpy::ndarray::{ArrayD, IxDyn};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `flat` as an array of shape `(n, …rest)`, or `rest` for one
/// configuration (a Python scalar when `rest` is empty).
fn shaped<'py, T: numpy::Element>(
    py: Python<'py>,
    flat: Vec<T>,
    n: Option<usize>,
    rest: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let shape: Vec<usize> = n.into_iter().chain(rest.iter().copied()).collect();
    let a = ArrayD::from_shape_vec(IxDyn(&shape), flat)
        .expect("the values fill the shape")
        .into_pyarray(py)
        .into_any();
    if shape.is_empty() {
        a.call_method0("item")
    } else {
        Ok(a)
    }
}

/// The per-pair distances of `n` configurations (`one`: the first only,
/// without the leading axis): `distance`, `rounding_bound` `(n, P)`,
/// `point_a`, `point_b` `(n, P, 3)` in the root link's frame, `pairs`
/// `(P, 2)` link indices and `names` `[(link1, link2), …]`, `P` the tested
/// pairs in [`Robot::pairs`] order.
pub fn pair_dict<'py>(
    py: Python<'py>,
    robot: &Robot,
    ds: Vec<Vec<SelfDistance>>,
    one: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let n = (!one).then_some(ds.len());
    let p = robot.pairs.len();
    let all = || ds.iter().flatten();
    let d = PyDict::new(py);
    d.set_item(
        "distance",
        shaped(py, all().map(|d| d.distance).collect(), n, &[p])?,
    )?;
    let xyz = |f: fn(&SelfDistance) -> [f64; 3]| all().flat_map(f).collect::<Vec<f64>>();
    d.set_item(
        "point_a",
        shaped(py, xyz(|d| d.point_a.into()), n, &[p, 3])?,
    )?;
    d.set_item(
        "point_b",
        shaped(py, xyz(|d| d.point_b.into()), n, &[p, 3])?,
    )?;
    let bound = all().map(|d| d.rounding_bound).collect();
    d.set_item("rounding_bound", shaped(py, bound, n, &[p])?)?;
    let pairs = robot.pairs.iter().map(|&(a, b)| (a as u32, b as u32));
    d.set_item(
        "pairs",
        crate::arrays::pairs(py, &pairs.collect::<Vec<_>>()),
    )?;
    let name = |l: usize| robot.links[l].name.clone();
    let names: Vec<(String, String)> = robot
        .pairs
        .iter()
        .map(|&(a, b)| (name(a), name(b)))
        .collect();
    d.set_item("names", names)?;
    Ok(d)
}

/// The robot-to-world distances of `n` configurations: `distance`,
/// `rounding_bound` `(n,)` (`inf` and 0 without a body), `link`, `body`
/// `(n,)` `int64` indices (-1 without a body), `point_link`, `point_body`
/// `(n, 3)` (NaN without a body); for one configuration, scalars and
/// `(3,)` arrays.
pub fn world_dict<'py>(
    py: Python<'py>,
    ds: Vec<Option<RobotWorldDistance>>,
    one: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let n = (!one).then_some(ds.len());
    let d = PyDict::new(py);
    let num = |f: fn(&RobotWorldDistance) -> f64, none: f64| {
        ds.iter()
            .map(|d| d.as_ref().map_or(none, f))
            .collect::<Vec<_>>()
    };
    let index = |f: fn(&RobotWorldDistance) -> usize| {
        ds.iter()
            .map(|d| d.as_ref().map_or(-1, |d| f(d) as i64))
            .collect::<Vec<_>>()
    };
    let xyz = |f: fn(&RobotWorldDistance) -> [f64; 3]| {
        ds.iter()
            .flat_map(|d| d.as_ref().map_or([f64::NAN; 3], f))
            .collect::<Vec<_>>()
    };
    d.set_item(
        "distance",
        shaped(py, num(|d| d.distance, f64::INFINITY), n, &[])?,
    )?;
    d.set_item("link", shaped(py, index(|d| d.link), n, &[])?)?;
    d.set_item("body", shaped(py, index(|d| d.body), n, &[])?)?;
    d.set_item(
        "point_link",
        shaped(py, xyz(|d| d.point_link.into()), n, &[3])?,
    )?;
    d.set_item(
        "point_body",
        shaped(py, xyz(|d| d.point_body.into()), n, &[3])?,
    )?;
    let bound = num(|d| d.rounding_bound, 0.0);
    d.set_item("rounding_bound", shaped(py, bound, n, &[])?)?;
    Ok(d)
}
