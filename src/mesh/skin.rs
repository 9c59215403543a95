//! Skinned meshes: the joints a glTF skin names, each vertex's joint
//! influences, and the mesh as a viewer displays it at the file's pose.
//!
//! **The displayed pose** (glTF 2.0, section 3.7.3): a skinned vertex `v`
//! is drawn at `v' = Σ wᵢ · (G(jᵢ) · IBMᵢ) · v`, where `jᵢ` are its joints,
//! `wᵢ` their weights, `G(j)` the joint node's world matrix at the file's
//! pose (its rest TRS or `matrix`, no animation applied) and `IBMᵢ` the
//! skin's inverse bind matrix (the identity when the skin has none); the
//! skinned node's own transform is ignored. Weights that do not sum to 1
//! are divided by their sum (the loader refuses a vertex whose weights sum
//! to 0), so a file with unnormalised weights is displayed as if they were
//! normalised.
//!
//! **Dominant joint.** Each vertex belongs to the joint with the largest
//! total weight over its influences (an influence listing a joint twice
//! adds up); ties go to the lower joint index (position in the skin's
//! `joints`). A bone is a joint with its dominant vertices
//! ([`Skinning::bones`]).

use super::{Geometry, MAX_COORDINATE, MeshInstance, is_similarity};
use nalgebra::{Matrix4, Point3};
use std::sync::Arc;

/// Why a bone is in the world frame: its joint's world matrix is not a
/// similarity ([`super::is_similarity`]) or not invertible.
pub const NOT_SIMILAR: &str = "non-uniform scale or shear in the joint node's world transform";

/// Why a bone is in the world frame: in the joint's frame (a tiny scale)
/// its vertices would leave the accepted range ([`MAX_COORDINATE`]).
pub const OUT_OF_RANGE: &str = "the joint node's scale is so small that its vertices would leave the accepted range in its frame";

/// One joint of a skin.
#[derive(Clone, Debug)]
pub struct Joint {
    /// The joint's glTF node.
    pub node: u32,
    /// The node's name, if the file gives one.
    pub name: Option<Arc<str>>,
    /// Its inverse bind matrix (the identity when the skin has none).
    pub inverse_bind: Matrix4<f64>,
    /// The joint node's world matrix at the file's pose.
    pub world: Matrix4<f64>,
}

/// A glTF skin, placed by the scene: its joints in the skin's order.
#[derive(Clone, Debug)]
pub struct Skin {
    /// The glTF skin index.
    pub index: u32,
    /// Its joints, in the order `JOINTS_n` indexes them.
    pub joints: Vec<Joint>,
}

/// The joint influences of one primitive's vertices (its `JOINTS_n` and
/// `WEIGHTS_n` sets together): vertex `v` has `per_vertex` influences,
/// `joints[v·per_vertex + k]` with weight `weights[v·per_vertex + k]`.
/// Weights are finite and non-negative, with a positive sum per vertex.
#[derive(Clone, Debug, Default)]
pub struct Weights {
    /// Influences per vertex: 4 per `JOINTS_n`/`WEIGHTS_n` pair.
    pub per_vertex: usize,
    /// Joint indices into [`Skin::joints`].
    pub joints: Vec<u16>,
    /// The weights, parallel to `joints`.
    pub weights: Vec<f64>,
}

/// How a skinned instance is bound: its skin and its vertices' influences.
#[derive(Clone, Debug)]
pub struct Skinning {
    /// The skin of the instance's node.
    pub skin: Arc<Skin>,
    /// The influences of the instance's primitive.
    pub weights: Arc<Weights>,
}

/// A skinned instance as displayed at the file's pose.
#[derive(Clone, Debug)]
pub struct Pose {
    /// Every vertex of the position data, skinned (world frame).
    pub positions: Vec<Point3<f64>>,
    /// Each vertex's dominant joint (index into [`Skin::joints`]).
    pub dominant: Vec<u16>,
}

/// One bone of a skinned instance: a joint with the vertices it drives
/// most, as an instance of its own that the per-instance fits can take.
#[derive(Clone, Debug)]
pub struct Bone {
    /// The joint (index into [`Skin::joints`]).
    pub joint: usize,
    /// Why `instance` is in the world frame, with the identity as its
    /// transform (`None`: it is in the joint node's frame):
    /// [`NOT_SIMILAR`] or [`OUT_OF_RANGE`].
    pub world_reason: Option<&'static str>,
    /// The joint's vertices, displayed: node and names of the skinned
    /// instance, transform the joint's world matrix (or the identity),
    /// positions in that frame; triangles are the instance's triangles all
    /// of whose vertices the joint drives, and each other vertex it drives
    /// as a point (a degenerate triangle), so that exactly the joint's
    /// vertices are referenced.
    pub instance: MeshInstance,
}

impl Skinning {
    /// The skinned vertices of `geometry` (the instance's) at the file's
    /// pose, and each one's dominant joint (see the module docs).
    pub fn pose(&self, geometry: &Geometry) -> Pose {
        let m: Vec<Matrix4<f64>> = self
            .skin
            .joints
            .iter()
            .map(|j| j.world * j.inverse_bind)
            .collect();
        let k = self.weights.per_vertex;
        let mut positions = Vec::with_capacity(geometry.positions.len());
        let mut dominant = Vec::with_capacity(geometry.positions.len());
        for (v, p) in geometry.positions.iter().enumerate() {
            let js = &self.weights.joints[v * k..v * k + k];
            let ws = &self.weights.weights[v * k..v * k + k];
            let total: f64 = ws.iter().sum();
            let mut sum = nalgebra::Vector3::zeros();
            for (&j, &w) in js.iter().zip(ws).filter(|(_, w)| **w > 0.0) {
                sum += m[j as usize].transform_point(p).coords * w;
            }
            positions.push(Point3::from(sum / total));
            let weight_of = |j: u16| -> f64 {
                js.iter()
                    .zip(ws)
                    .filter(|(i, _)| **i == j)
                    .map(|(_, w)| w)
                    .sum()
            };
            let best = js.iter().map(|&j| (j, weight_of(j))).fold(
                (u16::MAX, f64::NEG_INFINITY),
                |b, c| {
                    if c.1 > b.1 || (c.1 == b.1 && c.0 < b.0) {
                        c
                    } else {
                        b
                    }
                },
            );
            dominant.push(best.0);
        }
        Pose {
            positions,
            dominant,
        }
    }

    /// The bones of the skinned instance `inst` (whose skinning `self` is):
    /// one per joint that is the dominant joint of at least one vertex
    /// among the instance's referenced vertices (every vertex with
    /// `all_vertices`), in joint order.
    pub fn bones(&self, inst: &MeshInstance, all_vertices: bool) -> Vec<Bone> {
        let g = &inst.geometry;
        let pose = self.pose(g);
        let counted: Vec<u32> = if all_vertices {
            (0..g.positions.len() as u32).collect()
        } else {
            g.referenced_vertices()
        };
        let mut of_joint: Vec<Vec<u32>> = vec![Vec::new(); self.skin.joints.len()];
        for v in counted {
            of_joint[pose.dominant[v as usize] as usize].push(v);
        }
        let mut out = Vec::new();
        for (j, (joint, mine)) in self.skin.joints.iter().zip(of_joint).enumerate() {
            if mine.is_empty() {
                continue;
            }
            let displayed = mine.iter().map(|&v| pose.positions[v as usize]);
            let (world_reason, transform, positions) = match joint
                .world
                .try_inverse()
                .filter(|_| is_similarity(&joint.world))
            {
                None => (Some(NOT_SIMILAR), Matrix4::identity(), displayed.collect()),
                Some(inverse) => {
                    let local: Vec<Point3<f64>> =
                        displayed.map(|p| inverse.transform_point(&p)).collect();
                    if local
                        .iter()
                        .flat_map(|p| p.iter())
                        .all(|x| x.abs() <= MAX_COORDINATE)
                    {
                        (None, joint.world, local)
                    } else {
                        let displayed = mine.iter().map(|&v| pose.positions[v as usize]);
                        (Some(OUT_OF_RANGE), Matrix4::identity(), displayed.collect())
                    }
                }
            };
            let mut new_index = vec![u32::MAX; g.positions.len()];
            for (k, &v) in mine.iter().enumerate() {
                new_index[v as usize] = k as u32;
            }
            let mut triangles: Vec<[u32; 3]> = g
                .triangles
                .iter()
                .filter(|t| t.iter().all(|&v| new_index[v as usize] != u32::MAX))
                .map(|t| t.map(|v| new_index[v as usize]))
                .collect();
            let mut covered = vec![false; mine.len()];
            for &v in triangles.iter().flatten() {
                covered[v as usize] = true;
            }
            triangles.extend(
                (0..mine.len() as u32)
                    .filter(|&k| !covered[k as usize])
                    .map(|k| [k, k, k]),
            );
            out.push(Bone {
                joint: j,
                world_reason,
                instance: MeshInstance {
                    transform,
                    geometry: Arc::new(Geometry {
                        positions,
                        triangles,
                    }),
                    skin: None,
                    ..inst.clone()
                },
            });
        }
        out
    }
}
