//! `import bvtool`: the bvtool library for Python.
//!
//! A thin layer, as the command line is: it converts numpy arrays and Python
//! objects to the library's types, checks them, calls the library and
//! converts the answers back. No geometry is computed here.
//!
//! - `mesh`: `Mesh`, `Scene`, `Instance`, `load`, `load_mesh`;
//! - `pose`: `Pose` and every form a pose may take (one or a batch);
//! - `tree`: `ObbTree` and its queries (collide, distance, within, each
//!   one pose at a time or a batch on every core with the GIL released);
//! - `fit`: `fit` and its volumes;
//! - `decompose`: `decompose` and its convex parts;
//! - `scene_queries`: `clash` and `self_intersections`;
//! - `robot`: `Robot` (URDF, forward kinematics, self-collision and distance);
//!   `robot_acm`: its allowed-collision matrix as a dict;
//! - `world`: `World` (bodies with their own poses, their collisions,
//!   clearance and distance);
//! - `errors`: the exception types and the mapping of library errors;
//! - `arrays`: numpy input checks and outputs;
//! - `state`: what pickling shares (each class's `__reduce__`);
//! - `export`, `compare` (and `colliders`), `render`: `bvtool export`,
//!   `compare`, `colliders` and `render`
//!   (bytes, records, pictures); `source`: their model argument;
//! - `work`: the pool the parallel work runs on (this process's own, built
//!   on first use, fork-safe) and the interruptible wait for it.

mod arrays;
mod compare;
mod convex;
mod decompose;
mod depth;
mod errors;
mod export;
mod fit;
mod mesh;
mod motion;
mod point_queries;
mod pose;
mod render;
mod robot;
mod robot_acm;
mod robot_distance;
mod scene_queries;
mod source;
mod state;
mod tree;
mod work;
mod world;

use pyo3::prelude::*;

/// Bounding volumes, exact mesh–mesh collision, distance and clearance,
/// scene clashes and self-intersections, on numpy arrays.
#[pymodule]
#[pyo3(name = "bvtool")]
fn bvtool_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Nothing here starts a thread or builds a pool: the work's pool is
    // built on first use (`work`), so a process forked after the import
    // (multiprocessing) works.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    m.add_class::<mesh::Mesh>()?;
    m.add_class::<mesh::Scene>()?;
    m.add_class::<mesh::Instance>()?;
    m.add_class::<mesh::TriangleSource>()?;
    m.add_function(wrap_pyfunction!(mesh::load, m)?)?;
    m.add_function(wrap_pyfunction!(mesh::load_mesh, m)?)?;
    m.add_class::<pose::Pose>()?;
    m.add_class::<tree::ObbTree>()?;
    m.add_class::<tree::Collision>()?;
    m.add_class::<tree::Distance>()?;
    m.add_class::<depth::SignedDistance>()?;
    m.add_class::<convex::Convex>()?;
    m.add_class::<convex::ConvexDistance>()?;
    m.add_function(wrap_pyfunction!(convex::convex_distance, m)?)?;
    m.add_function(wrap_pyfunction!(convex::convex_distance_batch, m)?)?;
    m.add_class::<tree::Clearance>()?;
    m.add_class::<motion::Impact>()?;
    m.add_class::<fit::Fit>()?;
    m.add_class::<fit::Aabb>()?;
    m.add_class::<fit::Obb>()?;
    m.add_class::<fit::Sphere>()?;
    m.add_class::<fit::Round>()?;
    m.add_class::<fit::BudgetHull>()?;
    m.add_function(wrap_pyfunction!(fit::fit, m)?)?;
    m.add_class::<fit::Kdop>()?;
    m.add_function(wrap_pyfunction!(export::export, m)?)?;
    m.add_function(wrap_pyfunction!(compare::compare, m)?)?;
    m.add_function(wrap_pyfunction!(compare::colliders, m)?)?;
    m.add_function(wrap_pyfunction!(render::render, m)?)?;
    m.add_class::<decompose::Decomposition>()?;
    m.add_class::<decompose::ConvexPart>()?;
    m.add_function(wrap_pyfunction!(decompose::decompose, m)?)?;
    m.add_class::<scene_queries::Part>()?;
    m.add_class::<scene_queries::Clash>()?;
    m.add_class::<scene_queries::Severity>()?;
    m.add_class::<scene_queries::TrianglePair>()?;
    m.add_class::<scene_queries::Clashes>()?;
    m.add_class::<scene_queries::SelfIntersections>()?;
    m.add_function(wrap_pyfunction!(scene_queries::clash, m)?)?;
    m.add_function(wrap_pyfunction!(scene_queries::self_intersections, m)?)?;
    m.add_class::<robot::Robot>()?;
    m.add_class::<world::World>()?;
    m.add_class::<world::WorldDistance>()?;
    m.add_function(wrap_pyfunction!(pin_threads, m)?)?;
    Ok(())
}

/// Keeps the worker threads of this process's pool one to a CPU (Linux,
/// two or more CPUs allowed, as many workers as CPUs — `RAYON_NUM_THREADS`
/// unset and no CPU quota), as the command line does: a fit of a
/// millisecond otherwise runs at one core's speed in many fresh processes
/// (two workers woken on one CPU). Returns whether it pinned: `False` also
/// once this process's pool exists (call it before any parallel work). Not
/// for processes run side by side (a `multiprocessing` pool's workers):
/// each would pin its workers to the same CPUs. Nothing pins on its own: a
/// library does not make process-wide scheduling choices on import, and a
/// forked child's pool is unpinned until the child calls this.
#[pyfunction]
fn pin_threads() -> bool {
    bvtool::threads::pin_pool()
}
