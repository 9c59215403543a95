//! Fit the bounding volumes of a model and check that they hold it.
//!
//! ```text
//! cargo run --release --example fit_box [MODEL]     # default models/torus.obj
//! ```
//!
//! Loads the model, takes its world vertices, and fits the AABB, the exact
//! minimum-volume box (`--obb tight`) and the exact minimum sphere; prints
//! each with its volume, then checks every vertex lies inside each.

use bvtool::fit::{self, Aabb, ObbMethod, SphereMethod};
use bvtool::load;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or("models/torus.obj".into());
    let scene = load::load(path.as_ref(), &Default::default())?;
    let points = scene.world_points(false);

    let aabb = Aabb::from_points(&points).ok_or("no vertices")?;
    let obb = fit::obb_of_points(&points, ObbMethod::Tight)?;
    let sphere = fit::sphere(&points, SphereMethod::Exact).ok_or("no vertices")?;

    println!("{path}: {} vertices", points.len());
    println!(
        "AABB   min {:?} max {:?}",
        aabb.min.coords.as_slice(),
        aabb.max.coords.as_slice()
    );
    let [x, y, z, w] = obb.rotation_xyzw();
    println!(
        "OBB    centre {:?}, half extents {:?}, rotation (x, y, z, w) = ({x:.4}, {y:.4}, {z:.4}, {w:.4}), volume {:.4} ({:.3}x the AABB)",
        obb.center.coords.as_slice(),
        obb.half_extents.as_slice(),
        obb.volume(),
        obb.volume() / aabb.volume()
    );
    println!(
        "sphere centre {:?}, radius {:.4}",
        sphere.center.coords.as_slice(),
        sphere.radius
    );

    // Each volume contains every vertex (up to its own rounding slack).
    let tol = 1e-9 * (aabb.max - aabb.min).norm();
    for p in &points {
        let local = obb.axes.transpose() * (p - obb.center);
        assert!((0..3).all(|i| local[i].abs() <= obb.half_extents[i] + tol));
        assert!((p - sphere.center).norm() <= sphere.radius + tol);
    }
    println!("every vertex is inside the box and the sphere");
    Ok(())
}
