//! Colliders as named convex triangle meshes, for the engines that import
//! collision geometry by a naming convention rather than by
//! `KHR_physics_rigid_bodies`:
//!
//! - **Unreal** (static-mesh import, FBX/OBJ/glTF through Interchange with
//!   "import collision according to mesh name"): a mesh named
//!   `UBX_<mesh>_NN` becomes a box, `USP_<mesh>_NN` a sphere, `UCP_<mesh>_NN`
//!   a capsule — each rebuilt as a true primitive from the mesh's vertices
//!   — and `UCX_<mesh>_NN` a convex hull, all of the render mesh `<mesh>`.
//!   Cylinders, k-DOPs and hulls are `UCX_` (Unreal has no cylinder).
//! - **Godot** (scene import): a node named `<name>-convcolonly` becomes a
//!   static body with a convex shape of its mesh (and the mesh is not
//!   drawn); `-colonly` would make a concave (triangle-soup) shape, which
//!   a convex collider does not need.
//!
//! Every mesh **circumscribes** its collider: a box is its eight corners;
//! a sphere is a geodesic polyhedron scaled out until its faces clear the
//! sphere; a capsule is that polyhedron's two halves moved apart along the
//! axis (their hull is the polyhedron swept along the segment, which holds
//! the ball swept along it); a cylinder a prism on a circumscribed polygon;
//! k-DOPs and hulls are their own polytopes. The `f32` vertices are grown
//! by [`f32_outward::polytope`] until their hull holds the `f64` polytope, so an
//! engine's convex hull of the mesh — and any primitive it rebuilds that
//! holds the vertices — contains every vertex the collider bounds.

use super::collider::{ColliderDoc, Geometry};
use crate::fit::ShapeSpec;
use crate::fit::f32_outward;
use crate::fit::polytope::fan;
use crate::mesh::Scene;
use nalgebra::{Matrix4, Point3, UnitQuaternion, Vector3};
use std::collections::HashSet;

/// The naming convention of the collider meshes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Naming {
    /// Unreal's `UBX_`/`USP_`/`UCP_`/`UCX_` prefixes.
    #[cfg_attr(feature = "cli", value(help = "Unreal: UBX_/USP_/UCP_/UCX_<mesh>_NN"))]
    Unreal,
    /// Godot's `-convcolonly` suffix.
    #[cfg_attr(feature = "cli", value(help = "Godot: <name>-convcolonly"))]
    Godot,
}

/// Segments around a round shape's axis (and half of them from pole to
/// pole for a sphere).
const SEGMENTS: usize = 16;

/// A collider as a closed convex triangle mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct ColliderMesh {
    /// The name the engine recognises.
    pub name: String,
    /// Vertices (`f32`, in the collider's frame, or in the world with a
    /// transform given to [`collider_mesh`]).
    pub vertices: Vec<[f32; 3]>,
    /// Triangles, counter-clockwise seen from outside.
    pub triangles: Vec<[u32; 3]>,
}

/// The name of collider number `n` (from 0) of the render mesh `render`.
pub fn name(c: &ColliderDoc, naming: Naming, render: &str, n: usize) -> String {
    let shape = match &c.geometry {
        Geometry::Box(_) => ShapeSpec::Box(None),
        Geometry::Sphere { .. } => ShapeSpec::Sphere(None),
        Geometry::Capsule { .. } => ShapeSpec::Capsule,
        _ => ShapeSpec::Hull(None),
    };
    let clean: String = render
        .chars()
        .map(|ch| if ch.is_alphanumeric() { ch } else { '_' })
        .collect();
    match naming {
        Naming::Unreal => {
            let prefix = match shape {
                ShapeSpec::Box(None) => "UBX",
                ShapeSpec::Sphere(None) => "USP",
                ShapeSpec::Capsule => "UCP",
                _ => "UCX",
            };
            format!("{prefix}_{clean}_{n:02}")
        }
        Naming::Godot => format!("{clean}_{}_{n:02}-convcolonly", c.asked.family()),
    }
}

/// A unit geodesic sphere (an octahedron split `levels` times) as vertices
/// and triangles, counter-clockwise from outside, with the smallest
/// distance from the centre to a face plane.
fn geodesic(levels: usize) -> (Vec<Vector3<f64>>, Vec<[u32; 3]>, f64) {
    let mut v: Vec<Vector3<f64>> = vec![
        Vector3::x(),
        -Vector3::x(),
        Vector3::y(),
        -Vector3::y(),
        Vector3::z(),
        -Vector3::z(),
    ];
    let mut t: Vec<[u32; 3]> = vec![
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    for _ in 0..levels {
        let mut mid = std::collections::HashMap::new();
        let mut next = Vec::with_capacity(t.len() * 4);
        for [a, b, c] in t {
            let mut m = |i: u32, j: u32| -> u32 {
                *mid.entry((i.min(j), i.max(j))).or_insert_with(|| {
                    v.push((v[i as usize] + v[j as usize]).normalize());
                    v.len() as u32 - 1
                })
            };
            let (ab, bc, ca) = (m(a, b), m(b, c), m(c, a));
            next.extend([[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]);
        }
        t = next;
    }
    let inradius = t
        .iter()
        .map(|&[a, b, c]| {
            let (a, b, c) = (v[a as usize], v[b as usize], v[c as usize]);
            let n = (b - a).cross(&(c - a)).normalize();
            n.dot(&a)
        })
        .fold(f64::INFINITY, f64::min);
    (v, t, inradius)
}

/// The collider's circumscribing polytope in its frame, `f64`: vertices
/// and convex faces (counter-clockwise from outside).
fn polytope(g: &Geometry) -> (Vec<Point3<f64>>, Vec<Vec<u32>>) {
    let placed = |q: [f64; 4], c: [f64; 3], pts: Vec<Vector3<f64>>| -> Vec<Point3<f64>> {
        let r = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q[3], q[0], q[1], q[2]));
        pts.iter().map(|p| Point3::from(c) + r * p).collect()
    };
    let tris = |t: Vec<[u32; 3]>| t.into_iter().map(|f| f.to_vec()).collect();
    match g {
        Geometry::Box(b) => {
            let o = b.to_obb();
            let pts = (0..8)
                .map(|k| {
                    let s = |i: usize| if k >> i & 1 == 1 { 1.0 } else { -1.0 };
                    o.center
                        + (0..3)
                            .map(|i| o.axis(i) * s(i) * o.half_extents[i])
                            .sum::<Vector3<f64>>()
                })
                .collect();
            // Corner k has bit i set for +axis i; faces counter-clockwise
            // from outside (for a right-handed frame).
            let faces = vec![
                vec![0, 4, 6, 2],
                vec![1, 3, 7, 5],
                vec![0, 1, 5, 4],
                vec![2, 6, 7, 3],
                vec![0, 2, 3, 1],
                vec![4, 5, 7, 6],
            ];
            (pts, faces)
        }
        Geometry::Sphere { center, radius } => {
            let (v, t, inr) = geodesic(2);
            let pts = v
                .iter()
                .map(|p| Point3::from(*center) + p * (radius / inr))
                .collect();
            (pts, tris(t))
        }
        Geometry::Capsule {
            center,
            radius,
            half_length,
            rotation_xyzw,
            ..
        } => {
            // The octahedron's split keeps the equator (y = 0) as edges:
            // its vertices go to both halves, the equator becomes the
            // side band.
            let (v, t, inr) = geodesic(2);
            let mut pts = Vec::new();
            let mut top = vec![0u32; v.len()];
            let mut bottom = vec![0u32; v.len()];
            for (i, p) in v.iter().enumerate() {
                let s = p * (radius / inr);
                if p.y >= 0.0 {
                    top[i] = pts.len() as u32;
                    pts.push(s + Vector3::y() * *half_length);
                }
                if p.y <= 0.0 {
                    bottom[i] = pts.len() as u32;
                    pts.push(s - Vector3::y() * *half_length);
                }
            }
            let mut faces: Vec<Vec<u32>> = Vec::new();
            for f in &t {
                let up = f.iter().any(|&i| v[i as usize].y > 0.0);
                let map = if up { &top } else { &bottom };
                faces.push(f.iter().map(|&i| map[i as usize]).collect());
            }
            // The band: every equator edge of an upper triangle, joined to
            // its copy below.
            for f in &t {
                if !f.iter().any(|&i| v[i as usize].y > 0.0) {
                    continue;
                }
                for k in 0..3 {
                    let (a, b) = (f[k], f[(k + 1) % 3]);
                    if v[a as usize].y == 0.0 && v[b as usize].y == 0.0 {
                        faces.push(vec![
                            top[b as usize],
                            top[a as usize],
                            bottom[a as usize],
                            bottom[b as usize],
                        ]);
                    }
                }
            }
            (placed(*rotation_xyzw, *center, pts), faces)
        }
        Geometry::Cylinder {
            center,
            radius,
            half_height,
            rotation_xyzw,
            ..
        } => {
            let n = SEGMENTS;
            let r = radius / (std::f64::consts::PI / n as f64).cos();
            let mut pts = Vec::new();
            for y in [-half_height, *half_height] {
                for k in 0..n {
                    let a = std::f64::consts::TAU * k as f64 / n as f64;
                    pts.push(Vector3::new(r * a.cos(), y, -r * a.sin()));
                }
            }
            let n32 = n as u32;
            let mut faces = vec![
                (0..n32).rev().collect::<Vec<u32>>(),
                (n32..2 * n32).collect(),
            ];
            for k in 0..n32 {
                let k1 = (k + 1) % n32;
                faces.push(vec![k, k1, n32 + k1, n32 + k]);
            }
            (placed(*rotation_xyzw, *center, pts), faces)
        }
        Geometry::Convex { vertices, faces } => (
            vertices.iter().map(|p| Point3::from(*p)).collect(),
            faces.clone(),
        ),
    }
}

/// The collider as a convex mesh named `name`, its vertices mapped by
/// `transform` (the instance's, to write it in the world frame; identity to
/// keep the collider's frame), rounded outwards to `f32`.
pub fn collider_mesh(c: &ColliderDoc, name: String, transform: &Matrix4<f64>) -> ColliderMesh {
    let (pts, faces) = polytope(&c.geometry);
    let placed: Vec<[f64; 3]> = pts
        .iter()
        .map(|p| {
            let q = transform.transform_point(p);
            [q.x, q.y, q.z]
        })
        .collect();
    let vertices = f32_outward::polytope(&placed);
    let mirrored = transform.fixed_view::<3, 3>(0, 0).determinant() < 0.0;
    let triangles = fan(&faces)
        .into_iter()
        .map(|[a, b, c]| if mirrored { [a, c, b] } else { [a, b, c] })
        .collect();
    ColliderMesh {
        name,
        vertices,
        triangles,
    }
}

/// The names the mesh instances' render meshes go by (the names their
/// colliders refer to), one per instance of `scene`, distinct: the node's
/// name, else the mesh's, else `mesh N`; a name taken already gets `_K`
/// (`K` the instance's index).
pub fn render_names(scene: &Scene) -> Vec<String> {
    let mut seen = HashSet::new();
    scene
        .instances
        .iter()
        .enumerate()
        .map(|(k, inst)| {
            let name = inst
                .node_name
                .as_deref()
                .or(inst.mesh_name.as_deref())
                .map_or_else(|| format!("mesh{}", inst.mesh), str::to_owned);
            if seen.insert(name.clone()) {
                name
            } else {
                let unique = format!("{name}_{k}");
                seen.insert(unique.clone());
                unique
            }
        })
        .collect()
}
