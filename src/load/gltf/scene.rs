//! Scene flattening: the default scene (else the first, else every root
//! node), walked iteratively so that deep hierarchies cannot overflow the
//! stack; world = parent · local with local = `matrix` or T·R·S; a node
//! reached twice (a cycle, or a node with two parents, which glTF forbids)
//! is an error. `EXT_mesh_gpu_instancing` nodes give one instance per
//! TRANSLATION/ROTATION/SCALE element, placed as node world · instance TRS.
//!
//! The number of placed primitives is checked against the caller's limit
//! before any of them is made (and the instancing accessors' `count`s
//! before they are read), so a few bytes of JSON cannot ask for millions of
//! instances. Names are shared, not copied, between instances.

use super::buffers::Buffers;
use super::json::{Node, Root};
use super::{Msg, accessor, primitive, skin};
use crate::mesh::skin::{Skin, Skinning, Weights};
use crate::mesh::{Geometry, MeshInstance};
use nalgebra::{Matrix4, Quaternion, Translation3, UnitQuaternion, Vector3};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;

/// The placed primitives of the scene (at most `max_instances`), and how
/// many non-triangle primitive instances were skipped. With a triangle
/// limit, the triangles the accessors declare (× instances) are checked
/// against it before anything is decoded ([`declared_triangles`]).
pub fn flatten(
    root: &Root,
    bufs: &Buffers,
    max_instances: usize,
    max_triangles: Option<u64>,
) -> Result<(Vec<MeshInstance>, usize), Msg> {
    let roots = root_nodes(root)?;
    let declared = declared_triangles(root, &roots)?;
    if let Some(limit) = max_triangles.filter(|&l| declared > l) {
        return Err(format!(
            "its accessors declare {declared} triangles once every node and GPU instance is placed, over the limit of {limit} (--max-triangles); refused before decoding"
        ));
    }
    let mut cache: HashMap<(u32, u32), Option<Arc<Geometry>>> = HashMap::new();
    let mut out = Vec::new();
    let mut skipped = 0;
    // Node world matrices (for joints), and the skinned instances to bind
    // once every joint's is known: (instance, node, skin, influences).
    let mut globals: Vec<Option<Matrix4<f64>>> = vec![None; root.nodes.len()];
    let mut weights_cache: HashMap<(u32, u32), Option<Arc<Weights>>> = HashMap::new();
    let mut skinned: Vec<(usize, u32, u32, Arc<Weights>)> = Vec::new();
    let mut stack: Vec<(u32, Matrix4<f64>)> = roots
        .iter()
        .rev()
        .map(|&n| (n, Matrix4::identity()))
        .collect();
    while let Some((n, parent)) = stack.pop() {
        let node = root
            .nodes
            .get(n as usize)
            .ok_or_else(|| format!("node {n} does not exist"))?;
        let world = parent * local_matrix(node).map_err(|e| format!("node {n}: {e}"))?;
        globals[n as usize] = Some(world);
        // A GPU-instanced node's instances are not skinned (the extension
        // does not say how the two combine).
        let skin_of = node.skin.filter(|_| {
            node.extensions
                .as_ref()
                .is_none_or(|e| e.gpu_instancing.is_none())
        });
        if let Some(m) = node.mesh {
            let mesh = root
                .meshes
                .get(m as usize)
                .ok_or_else(|| format!("node {n}: mesh {m} does not exist"))?;
            let room = max_instances.saturating_sub(out.len());
            let too_many = || {
                format!(
                    "node {n}: the scene would hold more than {max_instances} mesh instances (primitives placed by nodes and GPU instances), the limit (--max-instances)"
                )
            };
            let placements =
                instance_matrices(root, bufs, node, room / mesh.primitives.len().max(1))
                    .map_err(|e| format!("node {n}: {e}"))?
                    .ok_or_else(too_many)?;
            if placements.len().saturating_mul(mesh.primitives.len()) > room {
                return Err(too_many());
            }
            let node_name: Option<Arc<str>> = node.name.as_deref().map(Arc::from);
            let mesh_name: Option<Arc<str>> = mesh.name.as_deref().map(Arc::from);
            for (k, p) in mesh.primitives.iter().enumerate() {
                let key = (m, k as u32);
                let geometry = match cache.entry(key) {
                    Entry::Occupied(e) => e.into_mut(),
                    Entry::Vacant(e) => e.insert(
                        primitive::geometry(root, bufs, p)
                            .map_err(|e| format!("mesh {m} primitive {k}: {e}"))?
                            .map(Arc::new),
                    ),
                };
                let Some(geometry) = geometry else {
                    skipped += placements.len();
                    continue;
                };
                if let Some(s) = skin_of {
                    let w = match weights_cache.entry(key) {
                        Entry::Occupied(e) => e.into_mut(),
                        Entry::Vacant(e) => e.insert(
                            skin::weights(root, bufs, p, geometry.positions.len())
                                .map_err(|e| format!("mesh {m} primitive {k}: {e}"))?
                                .map(Arc::new),
                        ),
                    };
                    if let Some(w) = w {
                        skinned.push((out.len(), n, s, Arc::clone(w)));
                    }
                }
                for (instance, local) in placements.iter().enumerate() {
                    out.push(MeshInstance {
                        node: Some(n),
                        node_name: node_name.clone(),
                        instance: instance as u32,
                        mesh: m,
                        mesh_name: mesh_name.clone(),
                        primitive: k as u32,
                        transform: world * local,
                        geometry: Arc::clone(geometry),
                        skin: None,
                    });
                }
            }
        }
        stack.extend(node.children.iter().rev().map(|&c| (c, world)));
    }
    bind_skins(root, bufs, &globals, skinned, &mut out)?;
    Ok((out, skipped))
}

/// Walks the hierarchy from `roots` reading no buffer: checks that it is a
/// forest (a node reached twice is on a cycle or a shared child, which
/// glTF forbids; in a file without scenes, where every node is drawn, a
/// node that no root reaches hangs from a cycle) and returns the triangles
/// its placed primitives declare. For each node with a mesh: its GPU
/// instances (the largest `EXT_mesh_gpu_instancing` accessor count; one
/// without the extension) times the triangles each primitive declares,
/// [`primitive::declared_triangles`] of its index count (else its POSITION
/// count). Saturating: the sum is only compared with a limit.
fn declared_triangles(root: &Root, roots: &[u32]) -> Result<u64, Msg> {
    let count = |a: u32| accessor::get(root, a).map(|a| a.count);
    let mut visited = vec![false; root.nodes.len()];
    let mut stack: Vec<u32> = roots.iter().rev().copied().collect();
    let mut total = 0u64;
    while let Some(n) = stack.pop() {
        let node = root
            .nodes
            .get(n as usize)
            .ok_or_else(|| format!("node {n} does not exist"))?;
        if std::mem::replace(&mut visited[n as usize], true) {
            return Err(format!(
                "node {n} is reached twice: the node hierarchy has a cycle or a shared child"
            ));
        }
        stack.extend(node.children.iter().rev());
        let Some(mesh) = node.mesh.and_then(|m| root.meshes.get(m as usize)) else {
            continue;
        };
        let mut per_instance = 0u64;
        for p in &mesh.primitives {
            let vertices = match (p.indices, p.attributes.get("POSITION")) {
                (Some(i), _) | (None, Some(&i)) => count(i)?,
                (None, None) => 0,
            };
            per_instance =
                per_instance.saturating_add(primitive::declared_triangles(p.mode, vertices));
        }
        let instancing = node
            .extensions
            .as_ref()
            .and_then(|e| e.gpu_instancing.as_ref());
        let instances = match instancing {
            Some(g) => g
                .attributes
                .values()
                .map(|&a| count(a))
                .try_fold(0, |m, c| c.map(|c| m.max(c)))?,
            None => 1,
        };
        total = total.saturating_add(per_instance.saturating_mul(instances));
    }
    if root.scene.is_none()
        && root.scenes.is_empty()
        && let Some(k) = visited.iter().position(|v| !v)
    {
        return Err(format!(
            "node {k} is reached from no root node: the node hierarchy has a cycle (the file has no scenes, so every node would be drawn)"
        ));
    }
    Ok(total)
}

/// Binds each skinned instance `(instance, node, skin, influences)` to its
/// skin (each skin read once, its joints placed by `globals`), after
/// checking that every joint index of the influences names a joint of it.
fn bind_skins(
    root: &Root,
    bufs: &Buffers,
    globals: &[Option<Matrix4<f64>>],
    skinned: Vec<(usize, u32, u32, Arc<Weights>)>,
    out: &mut [MeshInstance],
) -> Result<(), Msg> {
    let mut skins: HashMap<u32, Arc<Skin>> = HashMap::new();
    for (i, n, s, weights) in skinned {
        let skin = match skins.entry(s) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(Arc::new(
                skin::skin(root, bufs, s, globals).map_err(|e| format!("skin {s}: {e}"))?,
            )),
        };
        let joints = skin.joints.len();
        if let Some(&j) = weights.joints.iter().find(|&&j| j as usize >= joints) {
            let inst = &out[i];
            return Err(format!(
                "node {n}: mesh {} primitive {}: JOINTS names joint {j}, but skin {s} has {joints} joints",
                inst.mesh, inst.primitive
            ));
        }
        out[i].skin = Some(Skinning {
            skin: Arc::clone(skin),
            weights,
        });
    }
    Ok(())
}

/// The nodes to start from: the default scene's, else the first scene's,
/// else every node that is nobody's child. A `scene` index that names no
/// scene is refused (an unresolved index is invalid glTF), also in a file
/// with no scenes at all.
fn root_nodes(root: &Root) -> Result<Vec<u32>, Msg> {
    if let Some(s) = root.scene {
        return root
            .scenes
            .get(s as usize)
            .map(|s| s.nodes.clone())
            .ok_or_else(|| {
                format!(
                    "default scene {s} does not exist (the file has {} scenes)",
                    root.scenes.len()
                )
            });
    }
    if let Some(s) = root.scenes.first() {
        return Ok(s.nodes.clone());
    }
    let mut is_child = vec![false; root.nodes.len()];
    for c in root.nodes.iter().flat_map(|n| &n.children) {
        if let Some(f) = is_child.get_mut(*c as usize) {
            *f = true;
        }
    }
    Ok((0..root.nodes.len() as u32)
        .filter(|&i| !is_child[i as usize])
        .collect())
}

/// T·R·S from optional parts (quaternion in x, y, z, w order).
fn trs(t: Option<[f64; 3]>, r: Option<[f64; 4]>, s: Option<[f64; 3]>) -> Result<Matrix4<f64>, Msg> {
    let t = t.unwrap_or([0.0; 3]);
    let [x, y, z, w] = r.unwrap_or([0.0, 0.0, 0.0, 1.0]);
    let s = s.unwrap_or([1.0; 3]);
    // Normalised after dividing by the largest component, so that neither
    // a huge quaternion's norm overflows ([1e200, 0, 0, 1e200] is a
    // 90° turn) nor a tiny one's underflows.
    let big = [x, y, z, w].iter().fold(0.0f64, |m, c| m.max(c.abs()));
    if !(big > 0.0 && big.is_finite()) || [x, y, z, w].iter().any(|c| c.is_nan()) {
        return Err(format!(
            "rotation [{x}, {y}, {z}, {w}] is not a usable quaternion (zero or not finite)"
        ));
    }
    let q = Quaternion::new(w / big, x / big, y / big, z / big);
    let m = Translation3::new(t[0], t[1], t[2]).to_homogeneous()
        * UnitQuaternion::from_quaternion(q).to_homogeneous()
        * Matrix4::new_nonuniform_scaling(&Vector3::new(s[0], s[1], s[2]));
    if m.iter().all(|v| v.is_finite()) {
        Ok(m)
    } else {
        Err("transform is not finite".into())
    }
}

/// The node's local matrix: `matrix` (column-major) if given, else T·R·S.
/// A `matrix` must be finite and affine (last row 0, 0, 0, 1), as glTF
/// requires of a TRS-decomposable matrix.
fn local_matrix(node: &Node) -> Result<Matrix4<f64>, Msg> {
    match node.matrix {
        Some(m) if !m.iter().all(|v| v.is_finite()) => Err("matrix is not finite".into()),
        Some(m) if [m[3], m[7], m[11], m[15]] != [0.0, 0.0, 0.0, 1.0] => Err(format!(
            "matrix is not affine: its last row is [{}, {}, {}, {}], not [0, 0, 0, 1]",
            m[3], m[7], m[11], m[15]
        )),
        Some(m) => Ok(Matrix4::from_column_slice(&m)),
        None => trs(node.translation, node.rotation, node.scale),
    }
}

/// The per-instance local matrices of an `EXT_mesh_gpu_instancing` node, or
/// a single identity for an ordinary node; `None` when there would be more
/// than `max` (known from the accessors' `count` before they are read).
fn instance_matrices(
    root: &Root,
    bufs: &Buffers,
    node: &Node,
    max: usize,
) -> Result<Option<Vec<Matrix4<f64>>>, Msg> {
    let Some(inst) = node
        .extensions
        .as_ref()
        .and_then(|e| e.gpu_instancing.as_ref())
    else {
        return Ok((max >= 1).then(|| vec![Matrix4::identity()]));
    };
    for &a in inst.attributes.values() {
        if accessor::get(root, a)?.count > max as u64 {
            return Ok(None);
        }
    }
    let mut count = None;
    let mut read = |name: &str, n: usize| -> Result<Option<Vec<f64>>, Msg> {
        let Some(&a) = inst.attributes.get(name) else {
            return Ok(None);
        };
        let (v, comps) = accessor::read(root, bufs, a)
            .map_err(|e| format!("EXT_mesh_gpu_instancing {name}: {e}"))?;
        if comps != n {
            return Err(format!(
                "EXT_mesh_gpu_instancing {name} must have {n} components"
            ));
        }
        let c = v.len() / n;
        if *count.get_or_insert(c) != c {
            return Err("EXT_mesh_gpu_instancing attributes have different counts".into());
        }
        Ok(Some(v))
    };
    let t = read("TRANSLATION", 3)?;
    let r = read("ROTATION", 4)?;
    let s = read("SCALE", 3)?;
    let count = count.ok_or("EXT_mesh_gpu_instancing has no TRANSLATION, ROTATION or SCALE")?;
    (0..count)
        .map(|i| {
            let v3 =
                |v: &Option<Vec<f64>>| v.as_ref().map(|v| [v[3 * i], v[3 * i + 1], v[3 * i + 2]]);
            let q = r
                .as_ref()
                .map(|v| [v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]]);
            trs(v3(&t), q, v3(&s)).map_err(|e| format!("EXT_mesh_gpu_instancing instance {i}: {e}"))
        })
        .collect::<Result<_, _>>()
        .map(Some)
}
