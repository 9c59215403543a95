//! `Robot.generate_acm`: the allowed-collision matrix as a plain dict
//! (`docs/python.md`, "Robots").

use bvtool::robots::{Acm, AcmReason};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// `acm` as `{"robot", "samples", "seed", "always_fraction",
/// "default_configuration", "counts", "pairs", "srdf"}`; each pair a dict
/// `{"link1", "link2", "reason" (None: tested), "default_collides",
/// "samples", "collisions", "min_distance" (None when not measured),
/// "min_sample", "rounding_bound"}`.
pub fn to_dict<'py>(py: Python<'py>, acm: &Acm) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let o = &acm.options;
    d.set_item("robot", &acm.robot)?;
    d.set_item("samples", o.samples)?;
    d.set_item("seed", o.seed)?;
    d.set_item("always_fraction", o.always_fraction)?;
    d.set_item("default_configuration", acm.default_configuration.clone())?;
    let counts = PyDict::new(py);
    for r in AcmReason::ALL {
        counts.set_item(r.name(), acm.count(Some(r)))?;
    }
    counts.set_item("tested", acm.count(None))?;
    d.set_item("counts", counts)?;
    let pairs = PyList::empty(py);
    for p in &acm.pairs {
        let e = PyDict::new(py);
        e.set_item("link1", &p.link1)?;
        e.set_item("link2", &p.link2)?;
        e.set_item("reason", p.reason.map(AcmReason::name))?;
        e.set_item("default_collides", p.default_collides)?;
        e.set_item("samples", p.samples)?;
        e.set_item("collisions", p.collisions)?;
        e.set_item(
            "min_distance",
            p.min_distance.is_finite().then_some(p.min_distance),
        )?;
        e.set_item("min_sample", p.min_sample)?;
        e.set_item("rounding_bound", p.rounding_bound)?;
        pairs.append(e)?;
    }
    d.set_item("pairs", pairs)?;
    d.set_item("srdf", acm.srdf())?;
    Ok(d)
}
