//! The C forms: a program compiled against an exported header, and a C
//! reader of the binary form written from the documented layout, print
//! numbers that must equal bvtool's own; the colliders they print, read
//! back, equal the binary form's bit for bit and the JSON's to `f32`
//! rounding.
//!
//! Skipped (with a message) when no C compiler is found, except under
//! `CI=true`, where that is a failure.

use crate::scratch;
use bvtool_dev::export_check as export_support;

use bvtool::export::bin_collider::{self, Colliders};
use bvtool::export::{ExportDoc, ExportOptions, bin, c_header};
use bvtool::fit::ShapeSpec;
use bvtool::fit::{ObbMethod, SphereMethod};
use bvtool::mesh::Format;
use export_support::bin_check::assert_matches_json;
use export_support::{ALL_SHAPES, fit_options, scene};
use std::path::Path;
use std::process::Command;

fn compiler() -> Option<String> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let found = Command::new(&cc)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "CI=true but no C compiler ({cc}) was found"
        );
        eprintln!("skipping: no C compiler ({cc}) found");
    }
    found.then_some(cc)
}

/// Compiles `main.c` in `dir` and runs it with `args`; its stdout.
fn build_and_run(cc: &str, dir: &Path, args: &[&Path]) -> String {
    let exe = dir.join("prog");
    let out = Command::new(cc)
        .args(["-std=c11", "-Wall", "-Werror", "-O1", "-o"])
        .arg(&exe)
        .arg(dir.join("main.c"))
        .arg("-I")
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).args(args).output().unwrap();
    assert!(
        run.status.success(),
        "program failed:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8(run.stdout).unwrap()
}

/// What both programs print, computed by bvtool from the binary form it
/// reads: counts, then every number of the root node and the file volume
/// (`%a`, exact), and sums over all nodes (in `double`, in node order).
fn expected(f: &bin::BinFile) -> String {
    let hex = |x: f32| hexf(x as f64);
    let mut s = format!(
        "volumes {} nodes {} vertices {} triangles {}\n",
        f.volumes.len(),
        f.nodes.len(),
        f.vertices.len(),
        f.triangles.len()
    );
    let v = &f.volumes[0];
    let obb_line = |o: &bvtool::fit::ObbF32| {
        o.center
            .iter()
            .chain(o.axes.iter().flatten())
            .chain(&o.half_extents)
            .map(|&x| hex(x))
            .collect::<Vec<_>>()
            .join(" ")
    };
    s += &format!("file obb {}\n", obb_line(&v.obb));
    s += &format!(
        "file aabb {} sphere {}\n",
        v.aabb
            .min
            .iter()
            .chain(&v.aabb.max)
            .map(|&x| hex(x))
            .collect::<Vec<_>>()
            .join(" "),
        v.sphere
            .center
            .iter()
            .chain([&v.sphere.radius])
            .map(|&x| hex(x))
            .collect::<Vec<_>>()
            .join(" ")
    );
    s += &format!("root obb {}\n", obb_line(&f.nodes[0].obb));
    let mut half = 0.0f64;
    let mut links = 0u64;
    for n in &f.nodes {
        half += n.obb.half_extents.iter().map(|&h| h as f64).sum::<f64>();
        links += n.left as u64 + n.right as u64 + n.first as u64 + n.count as u64;
    }
    let idx: u64 = f.triangles.iter().flatten().map(|&i| i as u64).sum();
    let src: u64 = f.sources.iter().flatten().map(|&i| i as u64).sum();
    s += &format!(
        "sum half {} links {links} indices {idx} sources {src}\n",
        hexf(half)
    );
    s
}

/// `printf("%a")` of a double, as glibc writes it (normalised `0x1.…p±e`).
fn hexf(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0x0p+0".into()
        } else {
            "0x0p+0".into()
        };
    }
    let bits = x.to_bits();
    let sign = if bits >> 63 == 1 { "-" } else { "" };
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let mut mant = bits & ((1u64 << 52) - 1);
    let (lead, e) = if exp == 0 {
        (0, -1022)
    } else {
        (1, exp - 1023)
    };
    let mut digits = 13;
    while digits > 0 && mant & 0xf == 0 {
        mant >>= 4;
        digits -= 1;
    }
    let frac = if digits == 0 {
        String::new()
    } else {
        format!(".{:0width$x}", mant, width = digits)
    };
    format!("{sign}0x{lead}{frac}p{}{e}", if e >= 0 { "+" } else { "" })
}

const PRINT: &str = r#"
#include <stdio.h>
static void obb(const char *what, const bvt_obb *o) {
    printf("%s", what);
    for (int i = 0; i < 3; i++) printf(" %a", (double)o->center[i]);
    for (int i = 0; i < 3; i++) for (int k = 0; k < 3; k++) printf(" %a", (double)o->axes[i][k]);
    for (int i = 0; i < 3; i++) printf(" %a", (double)o->half_extents[i]);
    printf("\n");
}
static void report(uint32_t nv, const bvt_volume *vol, uint32_t nn, const bvt_node *nodes,
                   uint32_t nvert, uint32_t ntri, const uint32_t (*tri)[3], const bvt_source *src) {
    printf("volumes %u nodes %u vertices %u triangles %u\n", nv, nn, nvert, ntri);
    obb("file obb", &vol[0].obb);
    printf("file aabb");
    for (int i = 0; i < 3; i++) printf(" %a", (double)vol[0].aabb.min[i]);
    for (int i = 0; i < 3; i++) printf(" %a", (double)vol[0].aabb.max[i]);
    printf(" sphere");
    for (int i = 0; i < 3; i++) printf(" %a", (double)vol[0].sphere.center[i]);
    printf(" %a\n", (double)vol[0].sphere.radius);
    obb("root obb", &nodes[0].obb);
    double half = 0.0;
    unsigned long long links = 0, idx = 0, s = 0;
    for (uint32_t i = 0; i < nn; i++) {
        for (int k = 0; k < 3; k++) half += nodes[i].obb.half_extents[k];
        links += (unsigned long long)nodes[i].left + nodes[i].right + nodes[i].first + nodes[i].count;
    }
    for (uint32_t i = 0; i < ntri; i++) {
        idx += (unsigned long long)tri[i][0] + tri[i][1] + tri[i][2];
        s += (unsigned long long)src[i].node + src[i].instance + src[i].mesh + src[i].primitive + src[i].triangle;
    }
    printf("sum half %a links %llu indices %llu sources %llu\n", half, links, idx, s);
}
static void colliders(uint32_t n, const bvt_collider *c, uint32_t nv, const float (*v)[3],
                      uint32_t nt, const uint32_t (*t)[3], uint32_t ns, const char *s) {
    printf("strings");
    for (uint32_t i = 0; i < ns; i++) printf(" %u", (unsigned)(unsigned char)s[i]);
    printf("\n");
    for (uint32_t i = 0; i < n; i++) {
        const bvt_collider *r = &c[i];
        printf("collider %u %u %u %u %u %u %u %u %u %u", r->kind, r->asked, r->flags, r->node,
               r->instance, r->mesh, r->primitive, r->name, r->node_name, r->mesh_name);
        for (int k = 0; k < 3; k++) printf(" %.9g", (double)r->center[k]);
        for (int k = 0; k < 4; k++) printf(" %.9g", (double)r->rotation[k]);
        float size[3] = {0.0f, 0.0f, 0.0f};
        switch (r->kind) {
        case BVT_BOX: for (int k = 0; k < 3; k++) size[k] = r->shape.box.half_extents[k]; break;
        case BVT_SPHERE: size[0] = r->shape.sphere.radius; break;
        case BVT_CAPSULE: size[0] = r->shape.capsule.radius; size[1] = r->shape.capsule.half_length; break;
        case BVT_CYLINDER: size[0] = r->shape.cylinder.radius; size[1] = r->shape.cylinder.half_height; break;
        default: break;
        }
        for (int k = 0; k < 3; k++) printf(" %.9g", (double)size[k]);
        printf(" %u %u %u %u %.9g %u | %s\n", r->first_vertex, r->vertex_count, r->first_triangle,
               r->triangle_count, (double)r->volume, r->world_reason, s + r->name);
    }
    for (uint32_t i = 0; i < nv; i++) printf("v %.9g %.9g %.9g\n", (double)v[i][0], (double)v[i][1], (double)v[i][2]);
    for (uint32_t i = 0; i < nt; i++) printf("t %u %u %u\n", t[i][0], t[i][1], t[i][2]);
}
"#;

/// The colliders a C program printed ([`PRINT`]'s `colliders`), read back:
/// each record rebuilt byte for byte and decoded by bvtool's reader, and
/// each line's name (printed by C from the string table) checked.
fn printed_colliders(out: &str) -> Colliders {
    let mut c = Colliders::default();
    for line in out.lines() {
        let (head, name) = line.split_once(" | ").unwrap_or((line, ""));
        let mut words = head.split(' ');
        let tag = words.next().unwrap();
        let words: Vec<&str> = words.collect();
        match tag {
            "strings" => c.strings = words.iter().map(|w| w.parse().unwrap()).collect(),
            "collider" => {
                let mut rec = Vec::new();
                for (k, w) in words.iter().enumerate() {
                    let bits = if (10..20).contains(&k) || k == 24 {
                        w.parse::<f32>().unwrap().to_bits()
                    } else {
                        w.parse::<u32>().unwrap()
                    };
                    rec.extend_from_slice(&bits.to_le_bytes());
                }
                let r = bin_collider::decode(&rec).unwrap();
                assert_eq!(c.string(r.name), Some(name), "{line}");
                c.records.push(r);
            }
            "v" => c
                .vertices
                .push(std::array::from_fn(|k| words[k].parse().unwrap())),
            "t" => c
                .triangles
                .push(std::array::from_fn(|k| words[k].parse().unwrap())),
            _ => {}
        }
    }
    c
}

/// A synthetic scene's export with tree, per-mesh volumes and colliders of
/// every shape (and the whole scene's); one mesh named with characters C
/// must escape.
fn full_export(seed: u64, offset: f64, format: Format, path: &str) -> ExportDoc {
    let mut s = scene(seed, offset, format, path);
    s.instances[0].mesh_name = Some("q\"uo\\te ??= ü\t1".into());
    let mut shapes = ALL_SHAPES.to_vec();
    shapes.push(ShapeSpec::Decompose);
    let opts = ExportOptions {
        shapes,
        whole: true,
        ..ExportOptions::volumes(
            fit_options(ObbMethod::Tight, SphereMethod::Exact, true),
            true,
        )
    };
    ExportDoc::new(path, &s, &opts).unwrap()
}

#[test]
fn a_program_compiled_against_the_header_prints_bvtools_numbers() {
    let Some(cc) = compiler() else { return };
    let d = full_export(21, 30.0, Format::Obj, "my model-1.obj");
    let dir = scratch("header");
    std::fs::write(dir.join("model.h"), c_header::to_string(&d)).unwrap();
    let p = c_header::prefix(&d.file);
    assert_eq!(p, "bvt_my_model_1");
    let up = p.to_uppercase();
    let main = format!(
        "#include \"model.h\"\n{PRINT}\nint main(void) {{\n    report({up}_VOLUME_COUNT, {p}_volumes, {up}_NODE_COUNT, {p}_nodes, {up}_VERTEX_COUNT, {up}_TRIANGLE_COUNT, {p}_triangles, {p}_sources);\n    colliders({up}_COLLIDER_COUNT, {p}_colliders, {up}_COLLIDER_VERTEX_COUNT, {p}_collider_vertices, {up}_COLLIDER_TRIANGLE_COUNT, {p}_collider_triangles, {up}_STRINGS_SIZE, {p}_strings);\n    return 0;\n}}\n"
    );
    std::fs::write(dir.join("main.c"), main).unwrap();
    let got = build_and_run(&cc, &dir, &[]);
    let f = bin::read(&bin::write(&d).unwrap()).unwrap();
    let (volumes, cols) = got.split_at(got.find("strings").unwrap());
    assert_eq!(volumes, expected(&f));
    let printed = printed_colliders(cols);
    assert!(printed.records.len() >= 4 * ALL_SHAPES.len());
    assert_eq!(
        printed, f.colliders,
        "the header's colliders are the binary form's"
    );
    assert_matches_json("C header", &d, &printed);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_c_reader_of_the_binary_form_prints_bvtools_numbers() {
    let Some(cc) = compiler() else { return };
    let d = full_export(22, 1e4, Format::Glb, "far.glb");
    let bytes = bin::write(&d).unwrap();
    let dir = scratch("bin");
    std::fs::write(dir.join("bvt_types.h"), c_header::TYPES).unwrap();
    let file = dir.join("model.bvt");
    std::fs::write(&file, &bytes).unwrap();
    // A minimal reader from the documented layout: read the whole file,
    // check magic, version and sizes, then use the sections in place.
    let main = format!(
        r#"#include <stdlib.h>
#include <string.h>
#include "bvt_types.h"
{PRINT}
int main(int argc, char **argv) {{
    if (argc != 2) return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 3;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = aligned_alloc(16, (size_t)(len + 15) / 16 * 16);
    if (!b || fread(b, 1, (size_t)len, f) != (size_t)len) return 4;
    fclose(f);
    const bvt_header *h = (const bvt_header *)b;
    if (len < 96 || memcmp(h->magic, "BVT1", 4) != 0 || h->version != 3 || h->header_size != 96
        || h->file_size != (uint32_t)len) return 5;
    const bvt_section *s[9] = {{&h->volumes, &h->nodes, &h->vertices, &h->triangles, &h->sources,
                               &h->colliders, &h->collider_vertices, &h->collider_triangles, &h->strings}};
    const uint32_t stride[9] = {{128, 80, 12, 12, 20, 104, 12, 12, 1}};
    for (int i = 0; i < 9; i++)
        if (s[i]->offset % 16 || (unsigned long long)s[i]->offset + (unsigned long long)s[i]->count * stride[i] > (unsigned long long)len) return 6;
    report(h->volumes.count, (const bvt_volume *)(b + h->volumes.offset),
           h->nodes.count, (const bvt_node *)(b + h->nodes.offset),
           h->vertices.count, h->triangles.count,
           (const uint32_t (*)[3])(b + h->triangles.offset),
           (const bvt_source *)(b + h->sources.offset));
    colliders(h->colliders.count, (const bvt_collider *)(b + h->colliders.offset),
              h->collider_vertices.count, (const float (*)[3])(b + h->collider_vertices.offset),
              h->collider_triangles.count, (const uint32_t (*)[3])(b + h->collider_triangles.offset),
              h->strings.count, (const char *)(b + h->strings.offset));
    free(b);
    return 0;
}}
"#
    );
    std::fs::write(dir.join("main.c"), main).unwrap();
    let got = build_and_run(&cc, &dir, &[&file]);
    let f = bin::read(&bytes).unwrap();
    let (volumes, cols) = got.split_at(got.find("strings").unwrap());
    assert_eq!(volumes, expected(&f));
    let printed = printed_colliders(cols);
    assert_eq!(printed, f.colliders);
    assert_matches_json("C reader", &d, &printed);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn hexf_matches_printf() {
    assert_eq!(hexf(1.0), "0x1p+0");
    assert_eq!(hexf(-0.5), "-0x1p-1");
    assert_eq!(hexf(3.0), "0x1.8p+1");
    assert_eq!(hexf(0.1f32 as f64), "0x1.99999ap-4");
}
