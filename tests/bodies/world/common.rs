//! A random world of meshes and primitives, with each body's triangle
//! meshes kept for the oracles.

use bvtool::mesh::primitives;
use bvtool::tree::ObbTree;
use bvtool::world::{BodyShape, Primitive, World};
use bvtool::{Pose, TriMesh};
use bvtool_dev::shapes::{icosphere, torus};
use nalgebra::{Isometry3, UnitQuaternion, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// One body's shapes as meshes with their frames in the body's.
pub type Parts = Vec<(Arc<TriMesh>, Arc<ObbTree>, Pose)>;

/// A random rigid pose: a translation in `[0, size]³` and a uniform
/// rotation.
pub fn random_pose(rng: &mut ChaCha8Rng, size: f64) -> Pose {
    let t = Vector3::new(rng.random(), rng.random(), rng.random()) * size;
    let q = nalgebra::Quaternion::new(
        rng.random::<f64>() - 0.5,
        rng.random::<f64>() - 0.5,
        rng.random::<f64>() - 0.5,
        rng.random::<f64>() - 0.5,
    );
    Pose::new(t, UnitQuaternion::from_quaternion(q))
}

/// `pose` moved by a small random step.
pub fn nudge(rng: &mut ChaCha8Rng, pose: &Pose, step: f64) -> Pose {
    let dt = Vector3::new(rng.random(), rng.random(), rng.random()).add_scalar(-0.5) * step;
    let axis = Vector3::new(rng.random(), rng.random(), rng.random()).add_scalar(-0.5);
    let dq = UnitQuaternion::from_scaled_axis(axis * step);
    Pose::new(pose.translation + dt, dq * pose.rotation)
}

/// A world of `n` bodies in a cube of edge `size`: tori and icospheres
/// sharing one tree each, boxes, spheres, capsules, cylinders and
/// two-shape bodies; with each body's parts.
pub fn random_world(rng: &mut ChaCha8Rng, n: usize, size: f64) -> (World, Vec<Parts>) {
    let shared = |m: TriMesh| {
        let t = Arc::new(ObbTree::build(&m));
        (Arc::new(m), t)
    };
    let (torus_mesh, torus_tree) = shared(torus(0.5, 0.15, 12, 6));
    let (ball_mesh, ball_tree) = shared(icosphere(1));
    let mut world = World::new();
    let mut parts = Vec::new();
    for i in 0..n {
        let pose = random_pose(rng, size);
        let name = format!("body {i}");
        let id = Pose::identity();
        let body: Parts = match i % 7 {
            0 => vec![(torus_mesh.clone(), torus_tree.clone(), id)],
            1 => vec![(ball_mesh.clone(), ball_tree.clone(), id)],
            2 => vec![
                (torus_mesh.clone(), torus_tree.clone(), id),
                (ball_mesh.clone(), ball_tree.clone(), random_pose(rng, 0.8)),
            ],
            k => {
                let (r, l) = (0.2 + 0.3 * rng.random::<f64>(), 0.8 * rng.random::<f64>());
                let (p, mesh) = match k {
                    3 => {
                        let s = [0.3 + l, 0.4, 0.2 + r];
                        (Primitive::Box(s), primitives::box_mesh(s))
                    }
                    4 => (Primitive::Sphere(r), primitives::sphere_mesh(r).0),
                    5 => (
                        Primitive::Capsule {
                            radius: r,
                            length: l,
                        },
                        primitives::capsule_mesh(r, l).0,
                    ),
                    _ => (
                        Primitive::Cylinder {
                            radius: r,
                            length: l + 0.1,
                        },
                        primitives::cylinder_mesh(r, l + 0.1).0,
                    ),
                };
                world.add_primitive(&name, p, pose).unwrap();
                let tree = world.bodies()[i].shapes[0].tree.clone();
                parts.push(vec![(Arc::new(mesh), tree, id)]);
                continue;
            }
        };
        let shapes = body
            .iter()
            .map(|(_, t, o)| BodyShape {
                tree: t.clone(),
                origin: *o,
            })
            .collect();
        world.add_body(&name, shapes, pose).unwrap();
        parts.push(body);
    }
    (world, parts)
}

/// Every shape pair of bodies `a` and `b` at their relative pose, as the
/// world places them: `(mesh a, tree a, mesh b, tree b, pose of b's
/// shape in a's, a's shape frame in the world)`.
#[allow(clippy::type_complexity)]
pub fn shape_pairs<'p>(
    world: &World,
    parts: &'p [Parts],
    a: usize,
    b: usize,
) -> Vec<(
    &'p TriMesh,
    &'p ObbTree,
    &'p TriMesh,
    &'p ObbTree,
    Pose,
    Isometry3<f64>,
)> {
    let frame = |i: usize, o: &Pose| world.bodies()[i].pose.to_isometry() * o.to_isometry();
    let mut out = Vec::new();
    for (ma, ta, oa) in &parts[a] {
        for (mb, tb, ob) in &parts[b] {
            let (wa, wb) = (frame(a, oa), frame(b, ob));
            let r = wa.inverse() * wb;
            let pose = Pose::new(r.translation.vector, r.rotation);
            out.push((&**ma, &**ta, &**mb, &**tb, pose, wa));
        }
    }
    out
}

/// A seeded generator.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}
