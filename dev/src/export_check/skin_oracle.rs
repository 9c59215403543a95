//! An independent skinning of a glTF file's skinned meshes, the oracle of
//! the skinned export tests: the gltf crate reads positions, every
//! `JOINTS_n`/`WEIGHTS_n` set and the inverse bind matrices; joint world
//! matrices come from the file's JSON node transforms
//! ([`world_nodes`]); each referenced vertex is placed by the glTF 2.0
//! formula `Σ (wᵢ / Σw) · G(jᵢ) · IBMᵢ · v`, the mesh node's own
//! transform ignored, and given to the joint with the largest total
//! weight (ties to the lower joint index).

use super::gltf_check::{Out, world_nodes};
use nalgebra::{Matrix4, Point3};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// One referenced vertex of a skinned primitive, displayed.
#[derive(Clone, Debug)]
pub struct Vertex {
    /// Its index in the POSITION accessor.
    pub index: u32,
    /// Its position at the file's pose (world).
    pub displayed: Point3<f64>,
    /// The node of its dominant joint.
    pub joint: usize,
    /// Whether all its weight is on that one joint.
    pub full: bool,
}

/// A skinned primitive placed by a node of the default scene.
#[derive(Clone, Debug)]
pub struct Primitive {
    /// The skinned mesh's node, mesh and primitive.
    pub node: usize,
    /// The glTF mesh.
    pub mesh: usize,
    /// The primitive within it.
    pub primitive: usize,
    /// Its referenced vertices.
    pub vertices: Vec<Vertex>,
}

impl Primitive {
    /// Whether it is the primitive a collider of the export bounds.
    pub fn bounded_by(&self, c: &bvtool::export::ColliderDoc) -> bool {
        (c.node, c.mesh, c.primitive)
            == (
                Some(self.node as u32),
                Some(self.mesh as u32),
                Some(self.primitive as u32),
            )
    }

    /// The joint nodes that are some vertex's dominant joint.
    pub fn bones(&self) -> BTreeSet<usize> {
        self.vertices.iter().map(|v| v.joint).collect()
    }
}

/// Every skinned primitive of the default scene of `o`, skinned.
pub fn skinned(o: &Out) -> Vec<Primitive> {
    let world: HashMap<usize, Matrix4<f64>> = world_nodes(&o.json).into_iter().collect();
    let mut out = Vec::new();
    for node in o.doc.nodes() {
        let (Some(mesh), Some(skin)) = (node.mesh(), node.skin()) else {
            continue;
        };
        if !world.contains_key(&node.index()) {
            continue;
        }
        let joints: Vec<usize> = skin.joints().map(|j| j.index()).collect();
        let ibm: Vec<Matrix4<f64>> = match skin
            .reader(|_| Some(&o.bin[..]))
            .read_inverse_bind_matrices()
        {
            Some(it) => it
                .map(|m| Matrix4::from_fn(|r, c| m[c][r] as f64))
                .collect(),
            None => vec![Matrix4::identity(); joints.len()],
        };
        let skinning: Vec<Matrix4<f64>> =
            joints.iter().zip(&ibm).map(|(j, b)| world[j] * b).collect();
        for p in mesh.primitives() {
            let r = p.reader(|_| Some(&o.bin[..]));
            let pos: Vec<Point3<f64>> = r
                .read_positions()
                .unwrap()
                .map(|q| Point3::new(q[0] as f64, q[1] as f64, q[2] as f64))
                .collect();
            let mut influences: Vec<Vec<(usize, f64)>> = vec![Vec::new(); pos.len()];
            let mut set = 0;
            while let Some(js) = r.read_joints(set) {
                let ws = r.read_weights(set).expect("WEIGHTS_n beside JOINTS_n");
                for (k, (j, w)) in js.into_u16().zip(ws.into_f32()).enumerate() {
                    for c in 0..4 {
                        influences[k].push((j[c] as usize, w[c] as f64));
                    }
                }
                set += 1;
            }
            let used: BTreeSet<u32> = match r.read_indices() {
                Some(i) => i.into_u32().collect(),
                None => (0..pos.len() as u32).collect(),
            };
            let vertices = used
                .into_iter()
                .map(|v| {
                    let inf = &influences[v as usize];
                    let total: f64 = inf.iter().map(|(_, w)| w).sum();
                    let mut displayed = Point3::origin();
                    let mut per_joint: BTreeMap<usize, f64> = BTreeMap::new();
                    for &(j, w) in inf {
                        displayed +=
                            skinning[j].transform_point(&pos[v as usize]).coords * (w / total);
                        *per_joint.entry(j).or_default() += w;
                    }
                    let (mut best, mut best_w) = (usize::MAX, f64::NEG_INFINITY);
                    for (&j, &w) in &per_joint {
                        if w > best_w {
                            (best, best_w) = (j, w);
                        }
                    }
                    Vertex {
                        index: v,
                        displayed,
                        joint: joints[best],
                        full: per_joint.values().filter(|&&w| w > 0.0).count() == 1,
                    }
                })
                .collect();
            out.push(Primitive {
                node: node.index(),
                mesh: mesh.index(),
                primitive: p.index(),
                vertices,
            });
        }
    }
    out
}
