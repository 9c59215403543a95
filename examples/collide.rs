//! Two meshes at a pose: do they touch, which triangles meet, how far apart.
//!
//! ```text
//! cargo run --release --example collide
//! ```
//!
//! Builds the OBB tree of `models/torus.obj` once and asks it against
//! itself at three poses of B (B's vertices map v → R·v + t into A's frame):
//! crossing, just clear and far apart.

use bvtool::query::{ContactMode, DistanceOptions, collide, distance};
use bvtool::tree::ObbTree;
use bvtool::{Pose, load};
use nalgebra::{UnitQuaternion, Vector3};

fn main() -> Result<(), bvtool::Error> {
    let scene = load::load("models/torus.obj".as_ref(), &Default::default())?;
    let mesh = scene.flatten();
    let tree = ObbTree::build_default(&mesh, Default::default());

    // The torus has R = 1, r = 0.35: moved 0.5 it crosses itself; turned a
    // quarter about x and moved 1, it links through the first without
    // touching it; moved 2.8 it is 0.1 clear.
    let quarter = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_2);
    let poses = [
        (
            "moved 0.5",
            Pose::new(Vector3::new(0.5, 0.0, 0.0), UnitQuaternion::identity()),
        ),
        ("linked", Pose::new(Vector3::new(1.0, 0.0, 0.0), quarter)),
        (
            "moved 2.8",
            Pose::new(Vector3::new(2.8, 0.0, 0.0), UnitQuaternion::identity()),
        ),
    ];
    for (name, pose) in &poses {
        let hit = collide(&tree, &tree, pose, ContactMode::All);
        let gap =
            distance(&tree, &tree, pose, &DistanceOptions::default()).expect("non-empty meshes");
        println!(
            "{name:>10}: {} ({} triangle pairs meet), distance {:.6} ± {:.1e} between A's {:?} and B's {:?}",
            if hit.intersecting {
                "touching"
            } else {
                "apart"
            },
            hit.pairs.len(),
            gap.distance,
            gap.rounding_bound,
            gap.point_a.coords.as_slice(),
            gap.point_b.coords.as_slice(),
        );
        assert_eq!(hit.intersecting, gap.distance == 0.0);
    }
    Ok(())
}
