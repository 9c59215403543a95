//! Primitives against the true shapes they stand for: a box is exact (a
//! face-to-face contact counts, a gap of 1e-9 does not); a sphere,
//! capsule or cylinder, tessellated outward, collides with a small sphere
//! whenever the true shapes overlap (and neither tessellation holds the
//! other), and never when they are farther apart than the two
//! tolerances.

use super::common::{random_pose, rng};
use bvtool::Pose;
use bvtool::world::{Primitive, World};
use nalgebra::{Point3, UnitQuaternion, Vector3};

#[test]
fn a_box_is_exact() {
    let mut world = World::new();
    let id = Pose::identity();
    world
        .add_primitive("a", Primitive::Box([1.0, 1.0, 1.0]), id)
        .unwrap();
    let at = |x: f64| Pose::new(Vector3::new(x, 0.3, -0.2), UnitQuaternion::identity());
    world
        .add_primitive("b", Primitive::Box([1.0, 2.0, 1.0]), at(1.0))
        .unwrap();
    assert_eq!(world.colliding_pairs().unwrap(), vec![(0, 1)]);
    world.set_pose(1, at(1.0 + 1e-9)).unwrap();
    assert!(world.colliding_pairs().unwrap().is_empty());
    let d = world.distance(&[0], &[1]).unwrap().unwrap();
    assert!(
        (d.distance - 1e-9).abs() <= d.rounding_bound + 1e-15,
        "{}",
        d.distance
    );
    assert_eq!(world.pairs_within(2e-9).unwrap(), vec![(0, 1)]);
    assert_eq!(world.tessellation_tolerance(), 0.0);
}

/// The distance from `p` to the true shape (negative: inside, for the
/// points these tests use, which stay outside or near the surface).
fn true_distance(p: &Primitive, x: &Point3<f64>) -> f64 {
    match *p {
        Primitive::Sphere(r) => x.coords.norm() - r,
        Primitive::Capsule { radius, length } => {
            let z = x.z.clamp(-length / 2.0, length / 2.0);
            (x - Point3::new(0.0, 0.0, z)).norm() - radius
        }
        Primitive::Cylinder { radius, length } => {
            let radial = x.x.hypot(x.y) - radius;
            let axial = x.z.abs() - length / 2.0;
            if radial > 0.0 || axial > 0.0 {
                radial.max(0.0).hypot(axial.max(0.0))
            } else {
                radial.max(axial)
            }
        }
        Primitive::Box(_) => unreachable!(),
    }
}

#[test]
fn round_primitives_collide_as_their_true_shapes_within_the_tolerance() {
    let mut rng = rng(7);
    let shapes = [
        Primitive::Sphere(0.8),
        Primitive::Capsule {
            radius: 0.5,
            length: 1.2,
        },
        Primitive::Cylinder {
            radius: 0.6,
            length: 1.0,
        },
    ];
    let r = 0.25;
    let (mut yes, mut no) = (0, 0);
    for (k, p) in shapes.iter().enumerate() {
        let mut world = World::new();
        world.add_primitive("big", *p, Pose::identity()).unwrap();
        world
            .add_primitive("small", Primitive::Sphere(r), Pose::identity())
            .unwrap();
        let tol = world.tessellation_tolerance();
        assert!(tol > 0.0 && tol < 0.01, "{tol}");
        for _ in 0..400 {
            let pose = random_pose(&mut rng, 1.0);
            let centre = Point3::from(pose.translation.add_scalar(-0.5) * 3.0);
            world
                .set_pose(0, Pose::new(Vector3::zeros(), pose.rotation))
                .unwrap();
            world
                .set_pose(1, Pose::new(centre.coords, UnitQuaternion::identity()))
                .unwrap();
            // The small sphere's centre in the big shape's frame.
            let local = pose.rotation.inverse() * centre;
            let d = true_distance(p, &local);
            let hit = !world.colliding_pairs().unwrap().is_empty();
            if d > tol && d < r - tol {
                assert!(hit, "shape {k}: centre {d} from the surface");
                yes += 1;
            } else if d > r + 2.0 * tol {
                assert!(!hit, "shape {k}: centre {d} from the surface");
                no += 1;
            }
        }
    }
    assert!(yes > 50 && no > 300, "{yes} {no}");
}
