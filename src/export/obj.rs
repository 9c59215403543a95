//! The OBJ form: the model's meshes and its colliders as convex meshes
//! named by an engine's convention ([`super::collider_mesh`]), all in the
//! world frame (OBJ has no node transforms): one `o` object per mesh
//! instance with triangles, named after its node (else its mesh, else
//! `mesh N`; see [`render_names`]), a skinned mesh at its displayed pose
//! ([`crate::mesh::skin`]), then one per collider.

use super::ExportDoc;
use super::collider::{instance_index, placement};
use super::collider_mesh::{Naming, collider_mesh, name, render_names};
use crate::mesh::Scene;
use nalgebra::Matrix4;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The OBJ text of `scene` and `doc.colliders`, named by `naming`.
pub fn to_string(scene: &Scene, doc: &ExportDoc, naming: Naming) -> String {
    let mut out = format!(
        "# bvtool export: {} and its colliders ({naming:?} naming), world frame, model units\n",
        doc.file
    );
    let mut base = 1usize;
    let mut object = |out: &mut String, name: &str, pts: &[[f64; 3]], tris: &[[u32; 3]]| {
        let _ = writeln!(out, "o {name}");
        for p in pts {
            let _ = writeln!(out, "v {} {} {}", p[0], p[1], p[2]);
        }
        for t in tris {
            let _ = writeln!(
                out,
                "f {} {} {}",
                base + t[0] as usize,
                base + t[1] as usize,
                base + t[2] as usize
            );
        }
        base += pts.len();
    };
    let names = render_names(scene);
    for (inst, name) in scene
        .instances
        .iter()
        .zip(&names)
        .filter(|(i, _)| !i.geometry.triangles.is_empty())
    {
        // A skinned mesh as displayed, where its bones' colliders are.
        let pts: Vec<[f64; 3]> = match &inst.skin {
            Some(s) => s.pose(&inst.geometry).positions,
            None => inst
                .geometry
                .positions
                .iter()
                .map(|p| inst.to_world(p))
                .collect(),
        }
        .iter()
        .map(|q| [q.x, q.y, q.z])
        .collect();
        let tris: Vec<[u32; 3]> = if inst.is_mirrored() && inst.skin.is_none() {
            inst.geometry
                .triangles
                .iter()
                .map(|&[a, b, c]| [a, c, b])
                .collect()
        } else {
            inst.geometry.triangles.clone()
        };
        object(&mut out, name, &pts, &tris);
    }
    let index = instance_index(scene);
    let mut counts: HashMap<String, usize> = HashMap::new();
    for c in &doc.colliders {
        let k = c.instance_key().map(|key| index[&key]);
        let render = k.map_or_else(|| "scene".to_string(), |k| names[k].clone());
        let n = counts.entry(render.clone()).or_default();
        let transform = placement(scene, &index, c).unwrap_or_else(Matrix4::identity);
        let m = collider_mesh(c, name(c, naming, &render, *n), &transform);
        *n += 1;
        let pts: Vec<[f64; 3]> = m.vertices.iter().map(|v| v.map(|x| x as f64)).collect();
        object(&mut out, &m.name, &pts, &m.triangles);
    }
    out
}
