//! Containment: bodies are solids, so one wholly inside another collides
//! although no triangles meet. Small bodies (boxes, spheres, capsules,
//! an open cup) at random placements inside, outside and through big ones
//! (an exact box, a tessellated sphere, a torus, an open box), against the
//! oracle: bvtool's exact `collide` for the surfaces, and for pairs whose
//! surfaces do not meet, one corner of each one-piece mesh inside the
//! other closed mesh by the parity of a random segment's crossings over
//! every triangle (`bvtool_dev::oracle::nested`).

use super::common::{random_pose, rng};
use bvtool::mesh::primitives;
use bvtool::query::{ContactMode, collide};
use bvtool::tree::ObbTree;
use bvtool::world::{BodyShape, Primitive, World};
use bvtool::{Pose, TriMesh};
use bvtool_dev::oracle::{nested, triangles};
use bvtool_dev::shapes::{mesh, torus};
use nalgebra::{Point3, Vector3};
use rand::Rng;
use std::sync::Arc;

/// A box mesh without its last two triangles: an open cup.
fn open_box(size: [f64; 3]) -> TriMesh {
    let mut m = primitives::box_mesh(size);
    m.triangles.truncate(10);
    m
}

#[test]
fn bodies_inside_others_collide_as_the_oracle_says() {
    let mut rng = rng(3939);
    let (mut inside, mut surfaces, mut open_cases) = (0, 0, 0);
    for round in 0..12 {
        let mut world = World::new();
        let mut meshes: Vec<TriMesh> = Vec::new();
        let mut add =
            |world: &mut World, name: &str, shape: Result<Primitive, TriMesh>, pose| match shape {
                Ok(p) => {
                    world.add_primitive(name, p, pose).unwrap();
                    let t = &world.bodies().last().unwrap().shapes[0].tree;
                    let v = t.vertices.clone();
                    meshes.push(mesh(v, t.triangles.clone()));
                }
                Err(m) => {
                    let tree = Arc::new(ObbTree::build(&m));
                    let s = BodyShape {
                        tree,
                        origin: Pose::identity(),
                    };
                    world.add_body(name, vec![s], pose).unwrap();
                    meshes.push(m);
                }
            };
        // One big body near the origin, then small ones around and in it.
        let mut big_pose = random_pose(&mut rng, 0.2);
        big_pose.translation -= Vector3::repeat(0.1);
        let big = match round % 4 {
            0 => Ok(Primitive::Box([2.0, 1.6, 1.2])),
            1 => Ok(Primitive::Sphere(0.9)),
            2 => Err(torus(0.8, 0.4, 24, 12)),
            _ => Err(open_box([2.0, 1.6, 1.2])),
        };
        add(&mut world, "big", big, big_pose);
        for i in 0..30 {
            let mut pose = random_pose(&mut rng, 2.6);
            pose.translation -= Vector3::repeat(1.3);
            let s = 0.05 + 0.25 * rng.random::<f64>();
            let shape = match i % 4 {
                0 => Ok(Primitive::Box([s, 0.7 * s, 0.5 * s])),
                1 => Ok(Primitive::Sphere(0.5 * s)),
                2 => Ok(Primitive::Capsule {
                    radius: 0.3 * s,
                    length: s,
                }),
                _ => Err(open_box([s, s, s])),
            };
            add(&mut world, &format!("small {i}"), shape, pose);
        }
        // The oracle over every pair.
        let n = world.len();
        let mut want = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let (wa, wb) = (
                    world.bodies()[a].pose.to_isometry(),
                    world.bodies()[b].pose.to_isometry(),
                );
                let pose = Pose::relative(&wa, &wb);
                let (ta, tb) = (
                    &world.bodies()[a].shapes[0].tree,
                    &world.bodies()[b].shapes[0].tree,
                );
                let hit = if collide(ta, tb, &pose, ContactMode::First).intersecting {
                    surfaces += 1;
                    true
                } else {
                    let (ma, mb) = (&meshes[a], &meshes[b]);
                    let placed: Vec<[Point3<f64>; 3]> = triangles(mb)
                        .iter()
                        .map(|t| t.map(|c| pose.transform_point(&c)))
                        .collect();
                    // Only the cups are open.
                    let (ca, cb) = (ma.triangles.len() != 10, mb.triangles.len() != 10);
                    open_cases += usize::from(!ca || !cb);
                    let nest = nested(&triangles(ma), ca, &placed, cb, &mut rng);
                    inside += usize::from(nest);
                    nest
                };
                if hit {
                    want.push((a, b));
                }
            }
        }
        assert_eq!(world.colliding_pairs().unwrap(), want, "round {round}");
        let of_big: Vec<usize> = want.iter().filter(|p| p.0 == 0).map(|p| p.1).collect();
        assert_eq!(world.colliding_with_body(0).unwrap(), of_big);
        // Clearance holds every colliding pair; the least distance from
        // the big body is 0 exactly when it meets or holds one.
        let near = world.pairs_within(0.01).unwrap();
        assert!(want.iter().all(|p| near.contains(p)), "round {round}");
        let smalls: Vec<usize> = (1..n).collect();
        let w = world.distance(&[0], &smalls).unwrap().unwrap();
        assert_eq!(w.distance == 0.0, !of_big.is_empty(), "round {round}");
    }
    // Every case was met: solids nested, surfaces meeting, open meshes.
    assert!(
        inside > 20 && surfaces > 20 && open_cases > 100,
        "{inside} {surfaces} {open_cases}"
    );
}

#[test]
fn primitive_tessellations_are_closed_solids_of_one_piece() {
    use bvtool::query::point::solid::TreeSolid;
    for (m, _) in [
        primitives::sphere_mesh(0.9),
        primitives::capsule_mesh(0.3, 1.0),
        primitives::cylinder_mesh(0.3, 1.0),
        (primitives::box_mesh([1.0, 2.0, 3.0]), 0.0),
        (open_box([1.0; 3]), 0.0),
    ] {
        let s = TreeSolid::new(&ObbTree::build(&m));
        assert_eq!(
            s.closed,
            m.triangles.len() != 10,
            "{} triangles",
            m.triangles.len()
        );
        assert_eq!(s.probes.len(), 1);
    }
}
