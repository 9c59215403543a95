//! The colliders of the binary and C forms: one 104-byte record per
//! collider, the convex polytopes' `f32` vertices and triangles in two
//! shared arrays, and the names in a string table — built once from the
//! export document for both forms, and decoded (validated) by
//! [`super::bin::read`].
//!
//! A record holds what `colliders[]` holds in JSON, rounded outwards to
//! `f32` ([`super::collider_f32`]): kind, the shape asked for, frame and
//! scope, node/instance/mesh/primitive, the collider's, node's and mesh's
//! names (byte offsets into the string table), a placement (centre and
//! rotation (x, y, z, w) taking +Y to a round shape's axis), the size of
//! the kind, for a convex polytope its range of vertices and of
//! triangles (vertex indices relative to its first vertex), the volume,
//! and why an instance's collider is in the world frame (an offset into
//! the string table).

use super::ExportDoc;
/// "No index" in an id field (a file-level record, an OBJ/STL triangle's node).
pub const NONE: u32 = u32::MAX;

use super::collider::Geometry;
use super::collider_f32::{ColliderF32, rounded};
use crate::fit::ShapeSpec;
use crate::fit::f32_outward::round_up;
use crate::fit::polytope::fan;
use std::collections::HashMap;

/// Bytes per collider record (96 in version 2, which had no volume and no
/// world reason).
pub const RECORD: usize = 104;

/// Collider flag: the collider is in the world frame (else in its mesh
/// instance's local frame: place it by the instance's node).
pub const FLAG_WORLD: u32 = 1;
/// Collider flag: it bounds the whole scene (`--whole`; ids all [`NONE`]).
pub const FLAG_SCENE: u32 = 2;

/// The `asked` field's values: the index of the `--shape` value here.
pub const ASKED: [ShapeSpec; 8] = super::collider::EXPORTED;

/// What a collider record holds, by its `kind` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// 0: an oriented box; `size` = half extents along the rotation's axes.
    Box = 0,
    /// 1: a sphere; `size` = (radius, 0, 0), rotation the identity.
    Sphere = 1,
    /// 2: a capsule; `size` = (radius, half the distance between the
    /// capping spheres' centres, 0), along the rotation's +Y.
    Capsule = 2,
    /// 3: a cylinder; `size` = (radius, half the height, 0), along the
    /// rotation's +Y.
    Cylinder = 3,
    /// 4: a convex polytope: the hull of its vertices, already in the
    /// collider's frame (centre 0, rotation the identity, size 0).
    Convex = 4,
}

const KINDS: [Kind; 5] = [
    Kind::Box,
    Kind::Sphere,
    Kind::Capsule,
    Kind::Cylinder,
    Kind::Convex,
];

/// One collider record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BinCollider {
    /// The kind of geometry.
    pub kind: Kind,
    /// The `--shape` value it was made for (`best` or the shape itself).
    pub asked: ShapeSpec,
    /// [`FLAG_WORLD`], [`FLAG_SCENE`].
    pub flags: u32,
    /// glTF node it hangs under: the instance's, or for a bone of a
    /// skinned mesh the joint's ([`NONE`] for OBJ/STL and the scene).
    pub node: u32,
    /// GPU instance ([`NONE`] for the scene).
    pub instance: u32,
    /// Mesh ([`NONE`] for the scene).
    pub mesh: u32,
    /// Primitive ([`NONE`] for the scene).
    pub primitive: u32,
    /// The collider's name: byte offset into the string table.
    pub name: u32,
    /// The name of `node` (offset), or [`NONE`].
    pub node_name: u32,
    /// The mesh's name (offset), or [`NONE`].
    pub mesh_name: u32,
    /// Centre (the placement's translation).
    pub center: [f32; 3],
    /// The placement's rotation (x, y, z, w).
    pub rotation_xyzw: [f32; 4],
    /// The kind's size ([`Kind`]).
    pub size: [f32; 3],
    /// First vertex of a convex polytope.
    pub first_vertex: u32,
    /// Its vertex count (0 for other kinds).
    pub vertex_count: u32,
    /// First triangle of a convex polytope.
    pub first_triangle: u32,
    /// Its triangle count (0 for other kinds).
    pub triangle_count: u32,
    /// The volume (JSON `volume`, model units³), rounded up to `f32`: `+∞`
    /// beyond `f32`'s range (above 3.4 × 10³⁸).
    pub volume: f32,
    /// Why an instance's collider is in the world frame (JSON
    /// `world_reason`): byte offset into the string table, or [`NONE`].
    pub world_reason: u32,
}

/// The collider sections: records, the polytopes' vertices and triangles,
/// and the string table (UTF-8 names, each ended by a NUL byte).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Colliders {
    /// One record per collider, in the JSON's order.
    pub records: Vec<BinCollider>,
    /// Convex polytope vertices.
    pub vertices: Vec<[f32; 3]>,
    /// Convex polytope triangles, counter-clockwise from outside; indices
    /// relative to their polytope's first vertex.
    pub triangles: Vec<[u32; 3]>,
    /// The string table.
    pub strings: Vec<u8>,
}

/// A string table under construction: each distinct name once.
#[derive(Default)]
struct Strings {
    bytes: Vec<u8>,
    at: HashMap<String, u32>,
}

impl Strings {
    fn add(&mut self, s: &str) -> u32 {
        if let Some(&k) = self.at.get(s) {
            return k;
        }
        let k = self.bytes.len() as u32;
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        self.at.insert(s.to_owned(), k);
        k
    }
}

impl Colliders {
    /// The collider sections of `doc.colliders`, rounded outwards to `f32`.
    pub fn new(doc: &ExportDoc) -> Colliders {
        let mut out = Colliders::default();
        let mut strings = Strings::default();
        for c in &doc.colliders {
            let id = |x: Option<u32>| x.unwrap_or(NONE);
            let mut r = BinCollider {
                kind: Kind::Box,
                asked: c.asked,
                flags: if c.frame == "world" { FLAG_WORLD } else { 0 }
                    | if c.scope == "scene" { FLAG_SCENE } else { 0 },
                node: id(c.placement_node()),
                instance: id(c.instance),
                mesh: id(c.mesh),
                primitive: id(c.primitive),
                name: strings.add(&c.name),
                node_name: c
                    .joint
                    .as_ref()
                    .map_or(c.node_name.as_deref(), |j| j.name.as_deref())
                    .map_or(NONE, |s| strings.add(s)),
                mesh_name: c.mesh_name.as_deref().map_or(NONE, |s| strings.add(s)),
                center: [0.0; 3],
                rotation_xyzw: [0.0, 0.0, 0.0, 1.0],
                size: [0.0; 3],
                first_vertex: 0,
                vertex_count: 0,
                first_triangle: 0,
                triangle_count: 0,
                volume: round_up(c.volume),
                world_reason: c.world_reason.as_deref().map_or(NONE, |s| strings.add(s)),
            };
            let rotation = |q: [f64; 4]| q.map(|x| x as f32);
            match rounded(&c.geometry) {
                ColliderF32::Box { rotation_xyzw, obb } => {
                    r.center = obb.center;
                    r.rotation_xyzw = rotation(rotation_xyzw);
                    r.size = obb.half_extents;
                }
                ColliderF32::Sphere(s) => {
                    r.kind = Kind::Sphere;
                    r.center = s.center;
                    r.size = [s.radius, 0.0, 0.0];
                }
                ColliderF32::Capsule(s) | ColliderF32::Cylinder(s) => {
                    let cylinder = matches!(c.geometry, Geometry::Cylinder { .. });
                    r.kind = if cylinder {
                        Kind::Cylinder
                    } else {
                        Kind::Capsule
                    };
                    r.center = s.center;
                    r.rotation_xyzw = rotation(s.rotation_xyzw);
                    r.size = [s.radius, s.half, 0.0];
                }
                ColliderF32::Convex { vertices, faces } => {
                    let triangles = fan(&faces);
                    r.kind = Kind::Convex;
                    r.first_vertex = out.vertices.len() as u32;
                    r.vertex_count = vertices.len() as u32;
                    r.first_triangle = out.triangles.len() as u32;
                    r.triangle_count = triangles.len() as u32;
                    out.vertices.extend(vertices);
                    out.triangles.extend(triangles);
                }
            }
            out.records.push(r);
        }
        out.strings = strings.bytes;
        out
    }

    /// The string at byte offset `at` of the table (`None` for [`NONE`]);
    /// the reader has checked that every record's offsets start a string.
    pub fn string(&self, at: u32) -> Option<&str> {
        let tail = self.strings.get(at as usize..)?;
        let end = tail.iter().position(|&c| c == 0)?;
        std::str::from_utf8(&tail[..end]).ok()
    }

    /// Collider `i`'s convex vertices and triangles (empty for the other
    /// kinds).
    pub fn polytope(&self, i: usize) -> (&[[f32; 3]], &[[u32; 3]]) {
        let r = &self.records[i];
        let v = r.first_vertex as usize..(r.first_vertex + r.vertex_count) as usize;
        let t = r.first_triangle as usize..(r.first_triangle + r.triangle_count) as usize;
        (&self.vertices[v], &self.triangles[t])
    }
}

impl BinCollider {
    /// The record's first ten words, in file order: kind, asked (its index
    /// in [`ASKED`]), flags, node, instance, mesh, primitive, name, node
    /// name, mesh name.
    pub fn ids(&self) -> [u32; 10] {
        let asked = ASKED.iter().position(|&s| s == self.asked);
        [
            self.kind as u32,
            asked.expect("every shape") as u32,
            self.flags,
            self.node,
            self.instance,
            self.mesh,
            self.primitive,
            self.name,
            self.node_name,
            self.mesh_name,
        ]
    }

    /// The record's words 20 to 23: first vertex, vertex count, first
    /// triangle, triangle count.
    pub fn ranges(&self) -> [u32; 4] {
        [
            self.first_vertex,
            self.vertex_count,
            self.first_triangle,
            self.triangle_count,
        ]
    }
}

/// Appends the little-endian record of `r` to `out`: [`BinCollider::ids`],
/// centre, rotation and size (`f32` bits), [`BinCollider::ranges`], volume
/// (`f32` bits), world reason.
pub fn encode(r: &BinCollider, out: &mut Vec<u8>) {
    let floats = r.center.iter().chain(&r.rotation_xyzw).chain(&r.size);
    let words = r.ids().into_iter().chain(floats.map(|x| x.to_bits()));
    let tail = [r.volume.to_bits(), r.world_reason];
    for w in words.chain(r.ranges()).chain(tail) {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

/// Decodes one record ([`RECORD`] bytes at the start of `b`); `Err` says what is
/// wrong with its kind, shape or flags.
pub fn decode(b: &[u8]) -> Result<BinCollider, String> {
    let u = |k: usize| u32::from_le_bytes(b[4 * k..4 * k + 4].try_into().expect("4 bytes"));
    let f = |k: usize| f32::from_bits(u(k));
    let kind = *KINDS
        .get(u(0) as usize)
        .ok_or_else(|| format!("kind {} is unknown (0 to 4)", u(0)))?;
    let asked = *ASKED
        .get(u(1) as usize)
        .ok_or_else(|| format!("shape {} is unknown (0 to 7)", u(1)))?;
    let flags = u(2);
    if flags & !(FLAG_WORLD | FLAG_SCENE) != 0 {
        return Err(format!("unknown flags {flags:#x}"));
    }
    Ok(BinCollider {
        kind,
        asked,
        flags,
        node: u(3),
        instance: u(4),
        mesh: u(5),
        primitive: u(6),
        name: u(7),
        node_name: u(8),
        mesh_name: u(9),
        center: std::array::from_fn(|i| f(10 + i)),
        rotation_xyzw: std::array::from_fn(|i| f(13 + i)),
        size: std::array::from_fn(|i| f(17 + i)),
        first_vertex: u(20),
        vertex_count: u(21),
        first_triangle: u(22),
        triangle_count: u(23),
        volume: f(24),
        world_reason: u(25),
    })
}

/// Checks decoded collider sections: every record's numbers finite (the
/// volume may be `+∞`), sizes and volume non-negative, rotation of unit length (within 10⁻³), a scene
/// collider in the world frame with no ids, a world reason only on an
/// instance's world-frame collider, a convex polytope's ranges within the
/// shared arrays (other kinds' empty) and its indices within its own
/// vertices, every name offset at the start of a NUL-terminated UTF-8
/// string of the table. `Err` is (collider index or `None` for the
/// tables, what is wrong).
pub fn validate(c: &Colliders) -> Result<(), (Option<usize>, String)> {
    if let Some(i) = c
        .vertices
        .iter()
        .position(|v| !v.iter().all(|x| x.is_finite()))
    {
        return Err((None, format!("collider vertex {i}: non-finite number")));
    }
    // Every string's start, the table checked once: ends with NUL, UTF-8.
    let mut starts = Vec::new();
    if !c.strings.is_empty() {
        if c.strings.last() != Some(&0) {
            return Err((None, "string table does not end with a NUL byte".into()));
        }
        let mut at = 0;
        for s in c.strings[..c.strings.len() - 1].split(|&b| b == 0) {
            if std::str::from_utf8(s).is_err() {
                return Err((None, format!("string at byte {at} is not UTF-8")));
            }
            starts.push(at as u32);
            at += s.len() + 1;
        }
    }
    let nverts = c.vertices.len() as u64;
    let ntris = c.triangles.len() as u64;
    for (i, r) in c.records.iter().enumerate() {
        let bad = |why: String| Err((Some(i), why));
        let numbers = r.center.iter().chain(&r.rotation_xyzw).chain(&r.size);
        if !numbers.clone().all(|x| x.is_finite()) || r.volume.is_nan() {
            return bad("non-finite number".into());
        }
        if r.size.iter().any(|&x| x < 0.0) {
            return bad(format!("negative size {:?}", r.size));
        }
        if r.volume < 0.0 {
            return bad(format!("negative volume {}", r.volume));
        }
        let norm: f64 = r.rotation_xyzw.iter().map(|&x| (x as f64).powi(2)).sum();
        if (norm.sqrt() - 1.0).abs() > 1e-3 {
            return bad(format!(
                "rotation {:?} is not a unit quaternion",
                r.rotation_xyzw
            ));
        }
        let scene = r.flags & FLAG_SCENE != 0;
        let ids = [r.node, r.instance, r.mesh, r.primitive];
        if scene && (r.flags & FLAG_WORLD == 0 || ids.iter().any(|&x| x != NONE)) {
            return bad("a scene collider must be in the world frame, with no ids".into());
        }
        if r.world_reason != NONE && (scene || r.flags & FLAG_WORLD == 0) {
            return bad("only an instance's world-frame collider has a world reason".into());
        }
        for (field, at) in [
            ("name", r.name),
            ("node name", r.node_name),
            ("mesh name", r.mesh_name),
            ("world reason", r.world_reason),
        ] {
            let optional = field != "name" && at == NONE;
            if !optional && starts.binary_search(&at).is_err() {
                return bad(format!("{field} offset {at} does not start a string"));
            }
        }
        let v_end = r.first_vertex as u64 + r.vertex_count as u64;
        let t_end = r.first_triangle as u64 + r.triangle_count as u64;
        if r.kind != Kind::Convex {
            if r.vertex_count != 0 || r.triangle_count != 0 {
                return bad("only a convex polytope has vertices and triangles".into());
            }
            continue;
        }
        if r.vertex_count < 4 || r.triangle_count < 4 || v_end > nverts || t_end > ntris {
            return bad(format!(
                "vertices [{}, {v_end}) of {nverts} and triangles [{}, {t_end}) of {ntris} \
                 do not make a polytope",
                r.first_vertex, r.first_triangle
            ));
        }
        let tris = &c.triangles[r.first_triangle as usize..t_end as usize];
        if let Some(&k) = tris.iter().flatten().find(|&&k| k >= r.vertex_count) {
            return bad(format!(
                "vertex index {k} out of range (its polytope has {} vertices)",
                r.vertex_count
            ));
        }
    }
    Ok(())
}
