//! The C form: a header holding the export as `static const` arrays of the
//! binary format's structs, so a C/C++ program can compile the volumes (and
//! tree) in.

use super::ExportDoc;
use super::bin::NONE;
use super::bin_collider::Colliders;
use crate::fit::ObbF32;
use std::fmt::Write;

/// The struct definitions shared by the header and by readers of the binary
/// form: each matches its binary record byte for byte (sizes are checked at
/// compile time).
pub const TYPES: &str = r#"#ifndef BVT_TYPES_H
#define BVT_TYPES_H
#include <stdint.h>

/* An oriented box: centre + sum of s_i * axes[i], |s_i| <= half_extents[i].
   axes[i] is unit axis i (right-handed); extents are HALF extents. 64 bytes. */
typedef struct bvt_obb {
    float center[3];
    float axes[3][3];
    float half_extents[3];
    float pad;
} bvt_obb;

/* An axis-aligned box, full corners. 32 bytes. */
typedef struct bvt_aabb {
    float min[3];
    float pad0;
    float max[3];
    float pad1;
} bvt_aabb;

/* A sphere. 16 bytes. */
typedef struct bvt_sphere {
    float center[3];
    float radius;
} bvt_sphere;

/* The volumes of the file (ids all BVT_NONE) or of one mesh instance. 128 bytes. */
typedef struct bvt_volume {
    bvt_obb obb;
    bvt_aabb aabb;
    bvt_sphere sphere;
    uint32_t node, instance, mesh, primitive;
} bvt_volume;

/* An OBB tree node: a leaf has left == right == 0, otherwise left == its
   own index + 1; it covers triangles [first, first + count). 80 bytes. */
typedef struct bvt_node {
    bvt_obb obb;
    uint32_t left, right, first, count;
} bvt_node;

/* Where a triangle comes from in the input file. 20 bytes. */
typedef struct bvt_source {
    uint32_t node, instance, mesh, primitive, triangle;
} bvt_source;

/* A collider's size, one struct per kind (the `shape` union below). */
typedef struct bvt_box_size { float half_extents[3]; } bvt_box_size;
typedef struct bvt_sphere_size { float radius, zero[2]; } bvt_sphere_size;
/* half_length: half the distance between the capping spheres' centres. */
typedef struct bvt_capsule_size { float radius, half_length, zero; } bvt_capsule_size;
typedef struct bvt_cylinder_size { float radius, half_height, zero; } bvt_cylinder_size;

/* kind */
#define BVT_BOX 0u
#define BVT_SPHERE 1u
#define BVT_CAPSULE 2u
#define BVT_CYLINDER 3u
#define BVT_CONVEX 4u
/* asked: the --shape value */
#define BVT_ASKED_BOX 0u
#define BVT_ASKED_SPHERE 1u
#define BVT_ASKED_CAPSULE 2u
#define BVT_ASKED_CYLINDER 3u
#define BVT_ASKED_KDOP26 4u
#define BVT_ASKED_HULL 5u
#define BVT_ASKED_BEST 6u
#define BVT_ASKED_DECOMPOSE 7u
/* flags */
#define BVT_COLLIDER_WORLD 1u /* world frame (else the local frame of node: place it by that node; for a skinned mesh's bone, node is the joint's) */
#define BVT_COLLIDER_SCENE 2u /* the whole scene's (ids all BVT_NONE) */

/* A collider. A point p (in the collider's frame: the node's local frame
   unless BVT_COLLIDER_WORLD) is inside when q = R^-1 (p - center), R the
   rotation (x, y, z, w), satisfies: box |q_i| <= half_extents[i]; sphere
   |q| <= radius; capsule: q within radius of the segment (0, +-half_length, 0);
   cylinder |q_y| <= half_height and hypot(q_x, q_z) <= radius; convex: p in
   the hull of vertices [first_vertex, first_vertex + vertex_count)
   (triangles index them from first_vertex). Names are byte offsets into
   the string table (BVT_NONE: no name). volume: the shape's, rounded up
   (model units^3); world_reason: why an instance's collider is in the world
   frame (a string offset; BVT_NONE when it is not). 104 bytes. */
typedef struct bvt_collider {
    uint32_t kind, asked, flags;
    uint32_t node, instance, mesh, primitive;
    uint32_t name, node_name, mesh_name;
    float center[3];
    float rotation[4];
    union {
        float size[3];
        bvt_box_size box;
        bvt_sphere_size sphere;
        bvt_capsule_size capsule;
        bvt_cylinder_size cylinder;
    } shape;
    uint32_t first_vertex, vertex_count, first_triangle, triangle_count;
    float volume;
    uint32_t world_reason;
} bvt_collider;

/* A section of the binary form: byte offset (16-byte aligned) and record count. */
typedef struct bvt_section {
    uint32_t offset, count;
} bvt_section;

/* The binary form's header. 96 bytes. */
typedef struct bvt_header {
    char magic[4];            /* "BVT1" */
    uint32_t version;         /* 3 */
    uint32_t header_size;     /* 96 */
    uint32_t flags;           /* 1: tree present; 2: per-mesh volumes in local frames */
    uint32_t file_size;
    uint32_t reserved;
    bvt_section volumes, nodes, vertices, triangles, sources;
    bvt_section colliders, collider_vertices, collider_triangles, strings;
} bvt_header;

#define BVT_NONE 0xFFFFFFFFu

typedef char bvt_check_obb[sizeof(bvt_obb) == 64 ? 1 : -1];
typedef char bvt_check_volume[sizeof(bvt_volume) == 128 ? 1 : -1];
typedef char bvt_check_node[sizeof(bvt_node) == 80 ? 1 : -1];
typedef char bvt_check_source[sizeof(bvt_source) == 20 ? 1 : -1];
typedef char bvt_check_collider[sizeof(bvt_collider) == 104 ? 1 : -1];
typedef char bvt_check_header[sizeof(bvt_header) == 96 ? 1 : -1];
#endif /* BVT_TYPES_H */
"#;

/// The C identifier prefix for a file: `bvt_` and its stem, lower-cased,
/// every character outside `[a-z0-9_]` replaced by `_`.
pub fn prefix(file: &str) -> String {
    let stem = std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let clean: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("bvt_{clean}")
}

/// An `f32` as a C float literal that reads back to the same value
/// (Rust prints the shortest round-tripping digits).
fn lit(x: f32) -> String {
    format!("{x:e}f")
}

fn floats(v: &[f32]) -> String {
    let parts: Vec<String> = v.iter().map(|&x| lit(x)).collect();
    format!("{{{}}}", parts.join(", "))
}

fn obb(b: &ObbF32) -> String {
    let axes: Vec<String> = b.axes.iter().map(|a| floats(a)).collect();
    format!(
        "{{{}, {{{}}}, {}, 0.0f}}",
        floats(&b.center),
        axes.join(", "),
        floats(&b.half_extents)
    )
}

fn uint(x: u32) -> String {
    if x == NONE {
        "BVT_NONE".into()
    } else {
        format!("{x}u")
    }
}

/// A string table as a C string literal: printable ASCII as itself (`"`,
/// `\\` and `?` escaped), every other byte, NUL included, as a
/// three-digit octal escape (so no following digit can extend it).
fn c_bytes(b: &[u8]) -> String {
    let mut s = String::from("\"");
    for &c in b {
        match c {
            b'"' | b'\\' | b'?' => {
                s.push('\\');
                s.push(c as char);
            }
            0x20..=0x7e => s.push(c as char),
            _ => {
                let _ = write!(s, "\\{c:03o}");
            }
        }
        if c == 0 {
            s += "\"\n    \"";
        }
    }
    s.push('"');
    s
}

/// The collider arrays: `<prefix>_colliders`, `_collider_vertices`,
/// `_collider_triangles` and `_strings` (each only when not empty), with
/// `<PREFIX>_COLLIDER_COUNT`, `_COLLIDER_VERTEX_COUNT`,
/// `_COLLIDER_TRIANGLE_COUNT` and `_STRINGS_SIZE`.
fn colliders(s: &mut String, p: &str, up: &str, c: &Colliders) {
    let _ = writeln!(s, "#define {up}_COLLIDER_COUNT {}u", c.records.len());
    if !c.records.is_empty() {
        let _ = writeln!(s, "static const bvt_collider {p}_colliders[] = {{");
        for r in &c.records {
            let _ = writeln!(
                s,
                "    {{{}, {}, {}, {{{}}}, {}, {}, {}}},",
                r.ids().map(uint).join(", "),
                floats(&r.center),
                floats(&r.rotation_xyzw),
                floats(&r.size),
                r.ranges().map(uint).join(", "),
                lit(r.volume),
                uint(r.world_reason)
            );
        }
        s.push_str("};\n");
    }
    let _ = writeln!(
        s,
        "#define {up}_COLLIDER_VERTEX_COUNT {}u",
        c.vertices.len()
    );
    if !c.vertices.is_empty() {
        let _ = writeln!(s, "static const float {p}_collider_vertices[][3] = {{");
        for v in &c.vertices {
            let _ = writeln!(s, "    {},", floats(v));
        }
        s.push_str("};\n");
    }
    let _ = writeln!(
        s,
        "#define {up}_COLLIDER_TRIANGLE_COUNT {}u",
        c.triangles.len()
    );
    if !c.triangles.is_empty() {
        let _ = writeln!(s, "static const uint32_t {p}_collider_triangles[][3] = {{");
        for t in &c.triangles {
            let _ = writeln!(s, "    {{{}u, {}u, {}u}},", t[0], t[1], t[2]);
        }
        s.push_str("};\n");
    }
    let _ = writeln!(s, "#define {up}_STRINGS_SIZE {}u", c.strings.len());
    if !c.strings.is_empty() {
        // Sized explicitly: the literal's own closing NUL is not part of it.
        let _ = writeln!(
            s,
            "static const char {p}_strings[{}] =\n    {};",
            c.strings.len(),
            c_bytes(&c.strings)
        );
    }
}

/// The header for `doc`: [`TYPES`], then `<prefix>_volumes` (file first),
/// with a tree `<prefix>_nodes`, `_vertices`, `_triangles`, `_sources`, and
/// with colliders `<prefix>_colliders`, `_collider_vertices`,
/// `_collider_triangles`, `_strings`, each with a `<PREFIX>_…_COUNT` (or
/// `_SIZE`) macro. Numbers are those of the binary form (the same outward
/// `f32` rounding).
pub fn to_string(doc: &ExportDoc) -> String {
    let p = prefix(&doc.file);
    let up = p.to_uppercase();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/* Generated by bvtool export from {:?}: bounding volumes in {}, {} frame.\n   Boxes carry HALF extents; f32 values are rounded outwards so they still\n   contain every vertex. Layout: docs/export.md. */",
        doc.file, doc.units, doc.frame
    );
    let _ = writeln!(s, "#ifndef {up}_H\n#define {up}_H\n");
    s += TYPES;
    let _ = writeln!(s, "\n#define {up}_VOLUME_COUNT {}u", 1 + doc.meshes.len());
    let _ = writeln!(s, "static const bvt_volume {p}_volumes[] = {{");
    let ids = std::iter::once([NONE; 4]).chain(
        doc.meshes
            .iter()
            .map(|m| [m.node.unwrap_or(NONE), m.instance, m.mesh, m.primitive]),
    );
    for (v, ids) in doc.volume_sets().zip(ids) {
        let a = v.aabb.to_f32();
        let sp = v.sphere.to_f32();
        let _ = writeln!(
            s,
            "    {{{}, {{{}, 0.0f, {}, 0.0f}}, {{{}, {}}}, {}}},",
            obb(&v.obb.to_f32()),
            floats(&a.min),
            floats(&a.max),
            floats(&sp.center),
            lit(sp.radius),
            ids.map(uint).join(", ")
        );
    }
    s += "};\n";
    let counts = |s: &mut String, name: &str, n: usize| {
        let _ = writeln!(s, "#define {up}_{name}_COUNT {n}u");
    };
    match &doc.tree {
        None => {
            for name in ["NODE", "VERTEX", "TRIANGLE"] {
                counts(&mut s, name, 0);
            }
        }
        Some(t) => {
            counts(&mut s, "NODE", t.nodes.len());
            let _ = writeln!(s, "static const bvt_node {p}_nodes[] = {{");
            for n in &t.nodes {
                let [l, r] = n.children.unwrap_or([0, 0]);
                let _ = writeln!(
                    s,
                    "    {{{}, {l}u, {r}u, {}u, {}u}},",
                    obb(&n.obb.to_f32()),
                    n.first_triangle,
                    n.triangle_count
                );
            }
            s += "};\n";
            counts(&mut s, "VERTEX", t.vertices.len());
            let _ = writeln!(s, "static const float {p}_vertices[][3] = {{");
            for v in &t.vertices {
                let _ = writeln!(s, "    {},", floats(&v.map(|x| x as f32)));
            }
            s += "};\n";
            counts(&mut s, "TRIANGLE", t.triangles.len());
            let _ = writeln!(s, "static const uint32_t {p}_triangles[][3] = {{");
            for t in &t.triangles {
                let _ = writeln!(s, "    {{{}u, {}u, {}u}},", t[0], t[1], t[2]);
            }
            s += "};\n";
            let _ = writeln!(s, "static const bvt_source {p}_sources[] = {{");
            for x in &t.sources {
                let _ = writeln!(
                    s,
                    "    {{{}, {}u, {}u, {}u, {}u}},",
                    uint(x.node.unwrap_or(NONE)),
                    x.instance,
                    x.mesh,
                    x.primitive,
                    x.triangle
                );
            }
            s += "};\n";
        }
    }
    colliders(&mut s, &p, &up, &Colliders::new(doc));
    let _ = writeln!(s, "\n#endif /* {up}_H */");
    s
}
