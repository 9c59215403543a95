//! The glTF form: the input model with its fitted volumes added as physics
//! colliders (`KHR_implicit_shapes` shapes referenced by
//! `KHR_physics_rigid_bodies` node colliders), optionally drawn as LINES.
//!
//! The output is self-contained: every buffer of the input that a buffer
//! view uses (the GLB chunk, data URIs, external `.bin` files, read through
//! the loader's confined resolver) and every external image is merged into
//! one buffer, which is the GLB `BIN` chunk or, in a `.gltf`, a base64 data
//! URI; buffer views are re-pointed into it. OBJ and STL input becomes a
//! fresh glTF holding the mesh (one node per mesh instance) and the colliders.

use super::ExportDoc;
use super::collider::{ColliderDoc, Geometry, instance_index, placement};
use super::collider_f32::{ColliderF32, rounded};
use super::collider_mesh::render_names;
use super::collider_mesh::{self, Naming};
use super::gltf_input::read_json;
use crate::error::{Error, Result};
use crate::fit::f32_outward;
use crate::fit::polytope::fan;
use crate::load::confine::{MAX_IMAGE_BYTES, ModelFolder};
use crate::mesh::{Format, Scene};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use nalgebra::Matrix4;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The extension holding the shapes.
pub const SHAPES_EXT: &str = "KHR_implicit_shapes";
/// The extension holding the node colliders.
pub const BODIES_EXT: &str = "KHR_physics_rigid_bodies";
/// Segments per great circle in the sphere's debug lines.
const CIRCLE_SEGMENTS: usize = 32;

/// How to write the glTF.
#[derive(Clone, Copy, Debug, Default)]
pub struct GltfOptions {
    /// Write a binary `.glb` (else a `.gltf` with a data URI buffer).
    pub binary: bool,
    /// Add LINES primitives drawing each collider (box edges, three great
    /// circles of each sphere).
    pub debug_lines: bool,
    /// Let a `.gltf` input read buffers and images outside its folder.
    pub allow_external_uris: bool,
    /// Write the colliders as convex meshes named by this engine's
    /// convention ([`super::collider_mesh`]) instead of
    /// `KHR_physics_rigid_bodies` colliders.
    pub naming: Option<Naming>,
}

/// A glTF document being edited: its JSON and its one merged buffer.
struct Doc {
    json: Value,
    bin: Vec<u8>,
}

/// The model with `doc.colliders` added (`add_colliders`), each a node
/// with a `KHR_physics_rigid_bodies` collider: a `KHR_implicit_shapes` box,
/// sphere, capsule or cylinder, or a convex mesh (`convexHull`).
///
/// Every shape is rounded to `f32` outwards ([`super::collider_f32`]): a
/// box's translation is its `f32` centre, its rotation the `f32` quaternion
/// (x, y, z, w) of its axes, and its `size` the FULL extents, rounded
/// outwards — so each collider contains every vertex it bounds.
pub fn write(scene: &Scene, doc: &ExportDoc, opts: &GltfOptions) -> Result<Vec<u8>> {
    let (mut d, fresh_nodes) = match scene.format {
        Format::Gltf | Format::Glb => (read_input(&scene.path, opts.allow_external_uris)?, None),
        Format::Obj | Format::Stl => {
            let (d, nodes) = fresh(scene);
            (d, Some(nodes))
        }
    };
    let node_count = d.json["nodes"].as_array().map_or(0, Vec::len);
    let index = instance_index(scene);
    let instance_of = |c: &ColliderDoc| index.get(&c.instance_key()?).copied();
    let parent_of = |c: &ColliderDoc| -> Option<usize> {
        if c.frame != "local" {
            return None;
        }
        match &fresh_nodes {
            Some(nodes) => nodes[instance_of(c)?],
            None => c
                .placement_node()
                .map(|n| n as usize)
                .filter(|&n| n < node_count),
        }
    };
    add_colliders(
        &mut d,
        scene,
        doc,
        opts.debug_lines,
        opts.naming,
        &parent_of,
        &instance_of,
    );
    Ok(if opts.binary { to_glb(d) } else { to_gltf(d) })
}

fn f64s(a: &[f32]) -> Vec<f64> {
    a.iter().map(|&x| x as f64).collect()
}

fn arr_mut<'a>(v: &'a mut Value, key: &str) -> &'a mut Vec<Value> {
    let obj = v
        .as_object_mut()
        .expect("glTF root and its extensions are objects");
    let slot = obj.entry(key).or_insert_with(|| json!([]));
    if !slot.is_array() {
        *slot = json!([]);
    }
    slot.as_array_mut().expect("just made an array")
}

fn obj_mut<'a>(v: &'a mut Value, key: &str) -> &'a mut Value {
    let obj = v.as_object_mut().expect("an object");
    let slot = obj.entry(key).or_insert_with(|| json!({}));
    if !slot.is_object() {
        *slot = json!({});
    }
    slot
}

fn push(v: &mut Value, key: &str, item: Value) -> usize {
    let a = arr_mut(v, key);
    a.push(item);
    a.len() - 1
}

impl Doc {
    /// Appends `bytes` (4-byte aligned) as a buffer view of buffer 0.
    fn view(&mut self, bytes: &[u8], target: u32) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        push(
            &mut self.json,
            "bufferViews",
            json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len(), "target": target}),
        )
    }

    /// A VEC3 float accessor (with the min/max glTF requires for POSITION).
    fn positions(&mut self, pts: &[[f32; 3]]) -> usize {
        let bytes: Vec<u8> = pts.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes, 34962);
        let lo: Vec<f32> = (0..3)
            .map(|k| pts.iter().map(|p| p[k]).fold(f32::INFINITY, f32::min))
            .collect();
        let hi: Vec<f32> = (0..3)
            .map(|k| pts.iter().map(|p| p[k]).fold(f32::NEG_INFINITY, f32::max))
            .collect();
        push(
            &mut self.json,
            "accessors",
            json!({"bufferView": view, "componentType": 5126, "count": pts.len(),
                   "type": "VEC3", "min": f64s(&lo), "max": f64s(&hi)}),
        )
    }

    /// A SCALAR u32 index accessor.
    fn indices(&mut self, idx: &[u32]) -> usize {
        let bytes: Vec<u8> = idx.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes, 34963);
        push(
            &mut self.json,
            "accessors",
            json!({"bufferView": view, "componentType": 5125, "count": idx.len(), "type": "SCALAR"}),
        )
    }

    /// A mesh of one primitive (`mode` 4 = TRIANGLES, 1 = LINES).
    fn mesh(&mut self, name: &str, pts: &[[f32; 3]], idx: &[u32], mode: u32) -> usize {
        let pos = self.positions(pts);
        let ind = self.indices(idx);
        push(
            &mut self.json,
            "meshes",
            json!({"name": name, "primitives": [{"attributes": {"POSITION": pos}, "indices": ind, "mode": mode}]}),
        )
    }
}

/// A fresh glTF of `scene` (OBJ or STL): one mesh and node per instance,
/// positions rounded to `f32`, the node carrying the instance's transform;
/// and the node made for each instance (`None` without triangles).
fn fresh(scene: &Scene) -> (Doc, Vec<Option<usize>>) {
    let mut d = Doc {
        json: json!({"asset": {"version": "2.0", "generator": "bvtool export"},
                     "scene": 0, "scenes": [{"nodes": []}]}),
        bin: Vec::new(),
    };
    let mut nodes = vec![None; scene.instances.len()];
    for (k, inst) in scene.instances.iter().enumerate() {
        if inst.geometry.triangles.is_empty() {
            continue;
        }
        let g = &inst.geometry;
        let pts: Vec<[f32; 3]> = g
            .positions
            .iter()
            .map(|p| [p.x as f32, p.y as f32, p.z as f32])
            .collect();
        let idx: Vec<u32> = g.triangles.iter().flatten().copied().collect();
        let name = inst
            .mesh_name
            .as_deref()
            .map_or_else(|| format!("mesh {}", inst.mesh), str::to_owned);
        let mesh = d.mesh(&name, &pts, &idx, 4);
        let mut node = json!({"name": name, "mesh": mesh});
        if inst.transform != Matrix4::identity() {
            node["matrix"] = json!(inst.transform.as_slice());
        }
        let n = push(&mut d.json, "nodes", node);
        d.json["scenes"][0]["nodes"]
            .as_array_mut()
            .expect("made above")
            .push(json!(n));
        nodes[k] = Some(n);
    }
    (d, nodes)
}

/// Reads a `.glb` or `.gltf` and merges the buffers its views use into
/// one. Every external file goes through the loader's resolver
/// ([`crate::load::confine`]): confined to the model's real folder unless
/// allowed, regular files only, at most a buffer's `byteLength` and
/// [`MAX_IMAGE_BYTES`] for an image; a buffer no view uses is not read.
fn read_input(path: &Path, allow_external: bool) -> Result<Doc> {
    let err = |m: String| Error::load(path, m);
    let (mut json, glb_bin) = read_json(path)?;
    let folder = ModelFolder::of(path, allow_external);
    let views = json["bufferViews"].as_array().cloned().unwrap_or_default();
    let used: HashSet<u64> = views
        .iter()
        .flat_map(|v| {
            let meshopt = v.pointer("/extensions/EXT_meshopt_compression/buffer");
            [v["buffer"].as_u64(), meshopt.and_then(Value::as_u64)]
        })
        .flatten()
        .collect();

    // Merge the buffers: each placed at an 8-aligned base in one blob.
    let mut bin = Vec::new();
    let mut bases = Vec::new();
    let buffers = json["buffers"].as_array().cloned().unwrap_or_default();
    for (i, b) in buffers.iter().enumerate() {
        if !used.contains(&(i as u64)) {
            bases.push(None);
            continue;
        }
        let len = b["byteLength"]
            .as_u64()
            .ok_or_else(|| err(format!("buffer {i}: no byteLength")))?;
        let data = match (b["uri"].as_str(), i, &glb_bin) {
            (Some(uri), _, _) => folder
                .read(uri, len)
                .map_err(|e| err(format!("buffer {i}: {e}")))?,
            (None, 0, Some(chunk)) => chunk.clone(),
            (None, _, _) => {
                return Err(err(format!(
                    "buffer {i} has no data (no URI and not the GLB chunk)"
                )));
            }
        };
        if (data.len() as u64) < len {
            return Err(err(format!(
                "buffer {i}: byteLength {len} but {} bytes of data",
                data.len()
            )));
        }
        while !bin.len().is_multiple_of(8) {
            bin.push(0);
        }
        bases.push(Some(bin.len() as u64));
        bin.extend_from_slice(&data[..len as usize]);
    }
    let rebase = |v: &mut Value, what: &str| -> Result<()> {
        let b = v["buffer"].as_u64().unwrap_or(u64::MAX);
        let base = bases
            .get(b as usize)
            .copied()
            .flatten()
            .ok_or_else(|| err(format!("{what}: buffer {b} does not exist")))?;
        v["buffer"] = json!(0);
        v["byteOffset"] = json!(v["byteOffset"].as_u64().unwrap_or(0) + base);
        Ok(())
    };
    if let Some(views) = json["bufferViews"].as_array_mut() {
        for (i, v) in views.iter_mut().enumerate() {
            rebase(v, &format!("bufferView {i}"))?;
            if let Some(m) = v.pointer_mut("/extensions/EXT_meshopt_compression") {
                rebase(m, &format!("bufferView {i} (EXT_meshopt_compression)"))?;
            }
        }
    }
    json["buffers"] = json!([{"byteLength": bin.len()}]);
    let mut d = Doc { json, bin };

    // External images move into the buffer (data URIs stay as they are).
    let images = d.json["images"].as_array().cloned().unwrap_or_default();
    for (i, img) in images.iter().enumerate() {
        let Some(uri) = img["uri"].as_str().filter(|u| !u.starts_with("data:")) else {
            continue;
        };
        let data = folder
            .read(uri, MAX_IMAGE_BYTES + 1)
            .map_err(|e| err(format!("image {i}: {e}")))?;
        if data.len() as u64 > MAX_IMAGE_BYTES {
            return Err(err(format!(
                "image {i} {uri:?} is larger than {MAX_IMAGE_BYTES} bytes (not embedded)"
            )));
        }
        let lower = uri.to_ascii_lowercase();
        let mime = if lower.ends_with(".png") {
            "image/png"
        } else if lower.ends_with(".ktx2") {
            "image/ktx2"
        } else if lower.ends_with(".webp") {
            "image/webp"
        } else {
            "image/jpeg"
        };
        let view = d.view(&data, 0);
        d.json["bufferViews"][view]
            .as_object_mut()
            .expect("a view")
            .remove("target");
        let im = &mut d.json["images"][i];
        im.as_object_mut().expect("an image").remove("uri");
        im["bufferView"] = json!(view);
        im["mimeType"] = json!(img["mimeType"].as_str().unwrap_or(mime));
    }
    Ok(d)
}

/// The eight corners and twelve edges of a box of half extents `h`, local.
fn box_lines(h: [f32; 3]) -> (Vec<[f32; 3]>, Vec<u32>) {
    let pts = (0..8)
        .map(|k| std::array::from_fn(|i| if k >> i & 1 == 1 { h[i] } else { -h[i] }))
        .collect();
    let mut idx = Vec::new();
    for k in 0..8u32 {
        for bit in [1, 2, 4] {
            if k & bit == 0 {
                idx.extend([k, k | bit]);
            }
        }
    }
    (pts, idx)
}

/// Three great circles (in the xy, yz and zx planes) of radius `r`, local.
fn sphere_lines(r: f32) -> (Vec<[f32; 3]>, Vec<u32>) {
    let mut pts = Vec::new();
    let mut idx = Vec::new();
    for plane in 0..3 {
        let base = pts.len() as u32;
        for s in 0..CIRCLE_SEGMENTS {
            let t = s as f64 / CIRCLE_SEGMENTS as f64 * std::f64::consts::TAU;
            let mut p = [0.0f32; 3];
            p[plane] = (r as f64 * t.cos()) as f32;
            p[(plane + 1) % 3] = (r as f64 * t.sin()) as f32;
            pts.push(p);
            let n = CIRCLE_SEGMENTS as u32;
            idx.extend([base + s as u32, base + (s as u32 + 1) % n]);
        }
    }
    (pts, idx)
}

/// Capsule or cylinder outline, local (+Y axis): circles across the axis at
/// both ends (for a capsule, each end's three great circles) and four
/// segments along it.
fn round_lines(r: f32, half: f32, capsule: bool) -> (Vec<[f32; 3]>, Vec<u32>) {
    let (mut pts, mut idx) = (Vec::new(), Vec::new());
    for y in [-half, half] {
        let (circle, lines) = sphere_lines(r);
        let planes = if capsule { 0..3 } else { 1..2 };
        for plane in planes {
            let base = pts.len() as u32;
            let seg = CIRCLE_SEGMENTS;
            pts.extend(
                circle[plane * seg..(plane + 1) * seg]
                    .iter()
                    .map(|p| [p[0], p[1] + y, p[2]]),
            );
            idx.extend(
                lines[plane * 2 * seg..(plane + 1) * 2 * seg]
                    .iter()
                    .map(|i| i - (plane * seg) as u32 + base),
            );
        }
    }
    for [x, z] in [[r, 0.0], [-r, 0.0], [0.0, r], [0.0, -r]] {
        idx.extend([pts.len() as u32, pts.len() as u32 + 1]);
        pts.extend([[x, -half, z], [x, half, z]]);
    }
    (pts, idx)
}

/// A convex polytope's edges as line pairs.
fn convex_edges(faces: &[Vec<u32>]) -> Vec<u32> {
    let mut edges = Vec::new();
    for f in faces {
        for k in 0..f.len() {
            let (a, b) = (f[k], f[(k + 1) % f.len()]);
            if a < b {
                edges.extend([a, b]);
            }
        }
    }
    edges
}

/// A collider as glTF places it: the `KHR_implicit_shapes` shape (or, for
/// a convex polytope, its `f32` vertices and triangles), translation,
/// rotation, and its outline as LINES.
struct Placed {
    shape: Option<Value>,
    convex: Option<(Vec<[f32; 3]>, Vec<u32>)>,
    translation: Option<[f32; 3]>,
    rotation: Option<[f64; 4]>,
    lines: (Vec<[f32; 3]>, Vec<u32>),
}

fn place(g: &Geometry) -> Placed {
    match rounded(g) {
        ColliderF32::Box { rotation_xyzw, obb } => {
            let size = f64s(
                &obb.half_extents
                    .map(|h| f32_outward::round_up(2.0 * h as f64)),
            );
            Placed {
                shape: Some(json!({"type": "box", "box": {"size": size}})),
                convex: None,
                translation: Some(obb.center),
                rotation: Some(rotation_xyzw),
                lines: box_lines(obb.half_extents),
            }
        }
        ColliderF32::Sphere(s) => Placed {
            shape: Some(json!({"type": "sphere", "sphere": {"radius": s.radius as f64}})),
            convex: None,
            translation: Some(s.center),
            rotation: None,
            lines: sphere_lines(s.radius),
        },
        ColliderF32::Capsule(r) | ColliderF32::Cylinder(r) => {
            let cylinder = matches!(g, Geometry::Cylinder { .. });
            // KHR_implicit_shapes: `height` is the distance between the
            // capping spheres' centres (capsule) or the full height
            // (cylinder); both must be positive.
            let height = f32_outward::round_up(2.0 * r.half as f64).max(f32::MIN_POSITIVE) as f64;
            let kind = if cylinder { "cylinder" } else { "capsule" };
            let radius = r.radius as f64;
            Placed {
                shape: Some(json!({"type": kind, kind: {
                    "height": height, "radiusTop": radius, "radiusBottom": radius}})),
                convex: None,
                translation: Some(r.center),
                rotation: Some(r.rotation_xyzw),
                lines: round_lines(r.radius, r.half, !cylinder),
            }
        }
        ColliderF32::Convex { vertices, faces } => {
            let tris = fan(&faces).into_iter().flatten().collect();
            Placed {
                shape: None,
                convex: Some((vertices.clone(), tris)),
                translation: None,
                rotation: None,
                lines: (vertices, convex_edges(&faces)),
            }
        }
    }
}

/// Adds `doc.colliders`: each one a new node carrying a
/// `KHR_physics_rigid_bodies` collider, placed as a child of the node
/// `parent_of` names for it (local-frame colliders), else of one new root
/// node `bvtool colliders (world frame)` — a local-frame collider whose
/// instance has no node in the file (a scene made in code) through a node
/// carrying the instance's transform.
fn add_colliders(
    d: &mut Doc,
    scene: &Scene,
    doc: &ExportDoc,
    debug_lines: bool,
    naming: Option<Naming>,
    parent_of: &dyn Fn(&ColliderDoc) -> Option<usize>,
    instance_of: &dyn Fn(&ColliderDoc) -> Option<usize>,
) {
    let index = instance_index(scene);
    // Hangs collider node `n` where `c` belongs.
    let attach = |d: &mut Doc, n: usize, c: &ColliderDoc, world: &mut Vec<usize>| {
        let placement = placement(scene, &index, c);
        match (parent_of(c), placement) {
            (Some(parent), _) => arr_mut(&mut d.json["nodes"][parent], "children").push(json!(n)),
            (None, Some(m)) => world.push(push(
                &mut d.json,
                "nodes",
                json!({"name": format!("{} (placement)", c.name), "matrix": m.as_slice(), "children": [n]}),
            )),
            (None, None) => world.push(n),
        }
    };
    let mut world_children = Vec::new();
    let mut implicit = false;
    let mut counts: HashMap<String, usize> = HashMap::new();
    let names = render_names(scene);
    for c in &doc.colliders {
        if let Some(naming) = naming {
            // A convex mesh named by the engine's convention, in the
            // collider's frame, on a node where the collider belongs.
            let render = instance_of(c).map_or_else(|| "scene".to_string(), |k| names[k].clone());
            let k = counts.entry(render.clone()).or_default();
            let name = collider_mesh::name(c, naming, &render, *k);
            *k += 1;
            let m = collider_mesh::collider_mesh(c, name, &Matrix4::identity());
            let idx: Vec<u32> = m.triangles.iter().flatten().copied().collect();
            let mesh = d.mesh(&m.name, &m.vertices, &idx, 4);
            let n = push(&mut d.json, "nodes", json!({"name": m.name, "mesh": mesh}));
            attach(d, n, c, &mut world_children);
            continue;
        }
        let p = place(&c.geometry);
        let geometry = match (p.shape, p.convex) {
            (Some(shape), _) => {
                implicit = true;
                let exts = obj_mut(obj_mut(&mut d.json, "extensions"), SHAPES_EXT);
                json!({"shape": push(exts, "shapes", shape)})
            }
            (None, Some((pts, tris))) => {
                // The polytope's mesh on a node outside the scene (not
                // drawn), referenced by the collider as a convex hull.
                let mesh = d.mesh(&format!("{} (convex mesh)", c.name), &pts, &tris, 4);
                let holder = push(
                    &mut d.json,
                    "nodes",
                    json!({"name": format!("{} (convex mesh)", c.name), "mesh": mesh}),
                );
                json!({"node": holder, "convexHull": true})
            }
            (None, None) => unreachable!("place gives a shape or a convex mesh"),
        };
        let mut node = json!({
            "name": c.name,
            "extensions": {BODIES_EXT: {"collider": {"geometry": geometry}}},
        });
        if let Some(t) = p.translation {
            node["translation"] = json!(f64s(&t));
        }
        if let Some(r) = p.rotation {
            node["rotation"] = json!(r);
        }
        if debug_lines {
            let (pts, idx) = &p.lines;
            node["mesh"] = json!(d.mesh(&format!("{} (lines)", c.name), pts, idx, 1));
        }
        let n = push(&mut d.json, "nodes", node);
        attach(d, n, c, &mut world_children);
    }
    if doc.colliders.is_empty() || naming.is_some() {
        return add_root(d, world_children);
    }
    let used = arr_mut(&mut d.json, "extensionsUsed");
    let exts: &[&str] = if implicit {
        &[SHAPES_EXT, BODIES_EXT]
    } else {
        &[BODIES_EXT]
    };
    for e in exts {
        if !used.iter().any(|u| u == e) {
            used.push(json!(e));
        }
    }
    add_root(d, world_children);
}

/// Adds the root node `bvtool colliders (world frame)` holding `children`
/// to the default scene (nothing without children).
fn add_root(d: &mut Doc, world_children: Vec<usize>) {
    if world_children.is_empty() {
        return;
    }
    let root = push(
        &mut d.json,
        "nodes",
        json!({"name": "bvtool colliders (world frame)", "children": world_children}),
    );
    let scene = d.json["scene"].as_u64().unwrap_or(0) as usize;
    if d.json["scenes"].get(scene).is_none() {
        push(&mut d.json, "scenes", json!({"nodes": []}));
        d.json["scene"] = json!(arr_mut(&mut d.json, "scenes").len() - 1);
    }
    let scene = d.json["scene"].as_u64().unwrap_or(0) as usize;
    arr_mut(&mut d.json["scenes"][scene], "nodes").push(json!(root));
}

fn padded(mut v: Vec<u8>, pad: u8) -> Vec<u8> {
    while !v.len().is_multiple_of(4) {
        v.push(pad);
    }
    v
}

/// Points the document at its one buffer, or drops `buffers` when there is
/// no binary data at all (glTF forbids an empty buffer).
fn set_buffer(d: &mut Doc, buffer: Value) {
    let obj = d.json.as_object_mut().expect("glTF root is an object");
    if d.bin.is_empty() {
        obj.remove("buffers");
    } else {
        obj.insert("buffers".into(), json!([buffer]));
    }
}

fn to_glb(mut d: Doc) -> Vec<u8> {
    d.bin = padded(std::mem::take(&mut d.bin), 0);
    let len = d.bin.len();
    set_buffer(&mut d, json!({"byteLength": len}));
    let bin = d.bin;
    let text = padded(
        serde_json::to_vec(&d.json).expect("JSON values serialize"),
        b' ',
    );
    let bin_chunk = if bin.is_empty() { 0 } else { 8 + bin.len() };
    let total = 12 + 8 + text.len() + bin_chunk;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(&0x4E4F_534Au32.to_le_bytes());
    out.extend_from_slice(&text);
    if !bin.is_empty() {
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(&0x004E_4942u32.to_le_bytes());
        out.extend_from_slice(&bin);
    }
    out
}

fn to_gltf(mut d: Doc) -> Vec<u8> {
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        BASE64.encode(&d.bin)
    );
    let len = d.bin.len();
    set_buffer(&mut d, json!({"byteLength": len, "uri": uri}));
    serde_json::to_vec_pretty(&d.json).expect("JSON values serialize")
}
