//! Parts: what a clash report names. A scene's placed primitives grouped the
//! way users know them (one mesh instance of a node, a primitive, a node, a
//! file).

use crate::error::{Error, Result};
use crate::mesh::{MeshInstance, Scene};
use serde::Serialize;
use std::collections::HashMap;
use std::str::FromStr;

/// How placed primitives are grouped into parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Grouping {
    /// Each primitive of each mesh instance (what trimesh and most viewers
    /// treat as separate objects).
    Primitive,
    /// Each mesh instance: a glTF node's mesh (per `EXT_mesh_gpu_instancing`
    /// instance), an OBJ object/group, an STL solid.
    #[default]
    Instance,
    /// Each glTF node, all its GPU instances together (OBJ/STL: as `Instance`).
    Node,
    /// Each file.
    File,
}

impl FromStr for Grouping {
    type Err = Error;

    fn from_str(s: &str) -> Result<Grouping> {
        match s {
            "primitive" => Ok(Grouping::Primitive),
            "instance" => Ok(Grouping::Instance),
            "node" => Ok(Grouping::Node),
            "file" => Ok(Grouping::File),
            _ => Err(Error::Input(format!(
                "--by '{s}': expected primitive, instance, node or file"
            ))),
        }
    }
}

/// One placed primitive: instance `instance` of scene `file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    /// Index of the scene (file) in the input order.
    pub file: usize,
    /// Index into that scene's [`Scene::instances`].
    pub instance: usize,
    /// The part it belongs to.
    pub part: usize,
}

/// A part, named as its file names it. Fields that differ between its
/// primitives (a node's several meshes, a file's many nodes) are `None`.
#[derive(Clone, Debug, Serialize)]
pub struct Part {
    /// Position in the part list, from 0.
    pub index: usize,
    /// A readable name: file, node (name or index), mesh (name or index),
    /// primitive and GPU instance as far as they identify the part.
    pub name: String,
    /// The file, as given.
    pub file: String,
    /// glTF node index.
    pub node: Option<u32>,
    /// glTF node name.
    pub node_name: Option<String>,
    /// `EXT_mesh_gpu_instancing` instance.
    pub instance: Option<u32>,
    /// glTF mesh, OBJ object/group or STL solid index.
    pub mesh: Option<u32>,
    /// Its name.
    pub mesh_name: Option<String>,
    /// Primitive index (with `--by primitive`).
    pub primitive: Option<u32>,
    /// Triangles, each instance counted.
    pub triangles: usize,
    /// Indices of its members in [`PartList::members`].
    #[serde(skip)]
    pub members: Vec<usize>,
}

/// Every part of the input scenes and the placed primitives they are made of.
#[derive(Clone, Debug, Default)]
pub struct PartList {
    /// The parts, in scene traversal order of their first primitive.
    pub parts: Vec<Part>,
    /// Every placed primitive with a triangle, in input order.
    pub members: Vec<Member>,
}

/// What identifies a part under a grouping: file, then node (or mesh for
/// files without nodes), GPU instance, mesh, primitive — unused fields 0.
type Key = (usize, Option<u32>, u32, u32, u32);

fn key(file: usize, k: usize, inst: &MeshInstance, by: Grouping) -> Key {
    // OBJ and STL have no nodes: their objects/solids are the instances.
    let node = inst.node.or(Some(u32::MAX - inst.mesh));
    match by {
        Grouping::Primitive => (file, None, k as u32, 0, 0),
        Grouping::Instance => (file, node, inst.instance, inst.mesh, 0),
        Grouping::Node => (file, node, 0, 0, 0),
        Grouping::File => (file, None, 0, 0, 0),
    }
}

impl PartList {
    /// Groups the placed primitives of `scenes` (named `files`) by `by`.
    /// Primitives without triangles are left out.
    pub fn new(scenes: &[Scene], files: &[String], by: Grouping) -> PartList {
        let mut list = PartList::default();
        let mut index: HashMap<Key, usize> = HashMap::new();
        for (f, scene) in scenes.iter().enumerate() {
            for (k, inst) in scene.instances.iter().enumerate() {
                if inst.geometry.triangles.is_empty() {
                    continue;
                }
                let next = list.parts.len();
                let p = *index.entry(key(f, k, inst, by)).or_insert(next);
                if p == next {
                    list.parts.push(Part {
                        index: p,
                        name: String::new(),
                        file: files[f].clone(),
                        node: inst.node,
                        node_name: inst.node_name.as_deref().map(str::to_owned),
                        instance: Some(inst.instance),
                        mesh: Some(inst.mesh),
                        mesh_name: inst.mesh_name.as_deref().map(str::to_owned),
                        primitive: Some(inst.primitive),
                        triangles: 0,
                        members: Vec::new(),
                    });
                }
                let part = &mut list.parts[p];
                if part.node != inst.node {
                    part.node = None;
                    part.node_name = None;
                }
                if part.instance != Some(inst.instance) {
                    part.instance = None;
                }
                if part.mesh != Some(inst.mesh) {
                    part.mesh = None;
                    part.mesh_name = None;
                }
                if part.primitive != Some(inst.primitive) {
                    part.primitive = None;
                }
                part.triangles += inst.geometry.triangles.len();
                part.members.push(list.members.len());
                list.members.push(Member {
                    file: f,
                    instance: k,
                    part: p,
                });
            }
        }
        for part in &mut list.parts {
            if by != Grouping::Primitive && part.members.len() > 1 {
                part.primitive = None;
            }
            part.name = part_name(part, by);
        }
        list
    }

    /// The placed primitive behind member `m`.
    pub fn instance<'a>(&self, scenes: &'a [Scene], m: usize) -> &'a MeshInstance {
        let mem = &self.members[m];
        &scenes[mem.file].instances[mem.instance]
    }
}

/// `file: node 'name' / mesh 'name' primitive k instance i`, with only the
/// fields that identify the part under `by`.
fn part_name(p: &Part, by: Grouping) -> String {
    let file = std::path::Path::new(&p.file)
        .file_name()
        .map_or(p.file.clone(), |n| n.to_string_lossy().into_owned());
    let label = |kind: &str, i: Option<u32>, name: &Option<String>| match (i, name) {
        (_, Some(n)) => format!("{kind} '{n}'"),
        (Some(i), None) => format!("{kind} {i}"),
        (None, None) => String::new(),
    };
    if by == Grouping::File {
        return file;
    }
    let mut parts = vec![file];
    if p.node.is_some() {
        parts.push(label("node", p.node, &p.node_name));
        if let Some(i) = p.instance.filter(|&i| i > 0) {
            parts.push(format!("instance {i}"));
        }
    }
    if by != Grouping::Node || p.node.is_none() {
        parts.push(label("mesh", p.mesh, &p.mesh_name));
    }
    if by == Grouping::Primitive {
        parts.push(label("primitive", p.primitive, &None));
    }
    parts.retain(|s| !s.is_empty());
    parts.join(" / ")
}
