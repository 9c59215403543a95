//! The binary export: round trip, containment of every vertex in the `f32`
//! boxes, and one test per reader error.

mod export_support;

use bvtool::export::bin::{self, BinError, BinFile, FLAG_TREE, NONE};
use bvtool::export::f32box;
use bvtool::mesh::Format;
use export_support::{arr, doc, instance_world_points, scene};

fn exported(seed: u64, offset: f64) -> (bvtool::Scene, bvtool::export::ExportDoc, Vec<u8>) {
    let s = scene(seed, offset, Format::Obj, "synthetic.obj");
    let d = doc(&s, true, true);
    let bytes = bin::write(&d).expect("small export");
    (s, d, bytes)
}

#[test]
fn round_trip_gives_the_same_numbers() {
    let (_, d, bytes) = exported(1, 50.0);
    assert_eq!(&bytes[0..4], b"BVT1");
    assert_eq!(bytes.len() % 16, 0);
    let f: BinFile = bin::read(&bytes).expect("valid");
    assert_eq!(f.flags, FLAG_TREE);
    assert_eq!(f.volumes.len(), 1 + d.meshes.len());
    for (v, r) in d.volume_sets().zip(&f.volumes) {
        assert_eq!(r.obb, f32box::obb(&v.obb));
        assert_eq!(r.aabb, f32box::aabb(&v.aabb));
        assert_eq!(r.sphere, f32box::sphere(&v.sphere));
    }
    assert_eq!([f.volumes[0].node, f.volumes[0].mesh], [NONE, NONE]);
    for (m, r) in d.meshes.iter().zip(&f.volumes[1..]) {
        assert_eq!(r.node, m.node.unwrap_or(NONE));
        assert_eq!(
            [r.instance, r.mesh, r.primitive],
            [m.instance, m.mesh, m.primitive]
        );
    }
    let t = d.tree.as_ref().expect("tree asked for");
    assert_eq!(f.nodes.len(), t.nodes.len());
    for (n, r) in t.nodes.iter().zip(&f.nodes) {
        assert_eq!(r.obb, f32box::obb(&n.obb));
        assert_eq!([r.left, r.right], n.children.unwrap_or([0, 0]));
        assert_eq!([r.first, r.count], [n.first_triangle, n.triangle_count]);
    }
    assert_eq!(f.triangles, t.triangles);
    let verts: Vec<[f32; 3]> = t.vertices.iter().map(|v| v.map(|x| x as f32)).collect();
    assert_eq!(f.vertices, verts);
    for (s, r) in t.sources.iter().zip(&f.sources) {
        assert_eq!(
            *r,
            [
                s.node.unwrap_or(NONE),
                s.instance,
                s.mesh,
                s.primitive,
                s.triangle
            ]
        );
    }
}

#[test]
fn without_tree_the_tree_sections_are_empty() {
    let s = scene(2, 1.0, Format::Obj, "synthetic.obj");
    let d = doc(&s, false, false);
    let f = bin::read(&bin::write(&d).unwrap()).unwrap();
    assert_eq!(f.flags, 0);
    assert_eq!(f.volumes.len(), 1);
    assert!(f.nodes.is_empty() && f.vertices.is_empty() && f.triangles.is_empty());
}

/// Every vertex, in `f64` and rounded to `f32`, is inside every `f32` volume
/// that bounds it (file, its instance, every tree node covering it), tested
/// in `f64` and in `f32` arithmetic; over many random scenes far from the
/// origin.
#[test]
fn every_vertex_is_inside_the_f32_volumes() {
    for seed in 0..12 {
        let offset = [1.0, 1e3, 1e5][seed as usize % 3];
        let (s, _, bytes) = exported(seed, offset);
        let f = bin::read(&bytes).unwrap();
        let check = |v: &bin::BinVolume, pts: &[nalgebra::Point3<f64>]| {
            for p in pts {
                let q = arr(p);
                let q32 = q.map(|x| x as f32);
                let q32d = q32.map(|x| x as f64);
                assert!(
                    v.obb.contains_f64(q) && v.obb.contains_f64(q32d),
                    "seed {seed}: OBB misses {q:?}"
                );
                assert!(
                    v.obb.contains_f32(q32),
                    "seed {seed}: OBB (f32 test) misses {q:?}"
                );
                assert!(
                    v.aabb.contains_f64(q) && v.aabb.contains_f64(q32d),
                    "seed {seed}: AABB"
                );
                assert!(
                    v.sphere.contains_f64(q) && v.sphere.contains_f64(q32d),
                    "seed {seed}: sphere"
                );
                assert!(v.sphere.contains_f32(q32), "seed {seed}: sphere (f32 test)");
            }
        };
        check(&f.volumes[0], &s.world_points(false));
        for i in 0..s.instances.len() {
            check(&f.volumes[1 + i], &instance_world_points(&s, i));
        }
        for n in &f.nodes {
            for t in &f.triangles[n.first as usize..(n.first + n.count) as usize] {
                for &k in t {
                    let v = f.vertices[k as usize];
                    assert!(n.obb.contains_f32(v), "seed {seed}: node box misses {v:?}");
                    assert!(n.obb.contains_f64(v.map(|x| x as f64)));
                }
            }
        }
    }
}

/// The rounded boxes grow by a few f32 ulps of their distance from the
/// origin, no more.
#[test]
fn rounding_costs_a_few_ulps() {
    for offset in [1.0, 1e3, 1e5] {
        let (_, d, bytes) = exported(3, offset);
        let f = bin::read(&bytes).unwrap();
        for (v, r) in d.volume_sets().zip(&f.volumes) {
            let reach = v.obb.center.iter().fold(0.0f64, |m, x| m.max(x.abs()))
                + nalgebra::Vector3::from(v.obb.half_extents).norm();
            let ulp = f32::EPSILON as f64 * reach;
            for i in 0..3 {
                let grow = r.obb.half_extents[i] as f64 - v.obb.half_extents[i];
                assert!(
                    grow >= 0.0 && grow < 16.0 * ulp,
                    "grew by {grow} ({} ulps)",
                    grow / ulp
                );
            }
            let grow = r.sphere.radius as f64 - v.sphere.radius;
            assert!(
                grow >= 0.0 && grow < 16.0 * ulp,
                "sphere grew by {} ulps",
                grow / ulp
            );
        }
    }
}

fn put(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn get(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn good() -> Vec<u8> {
    exported(4, 10.0).2
}

#[test]
fn short_file_is_truncated() {
    let b = good();
    assert!(matches!(
        bin::read(&b[..40]),
        Err(BinError::Truncated {
            needed: 64,
            len: 40
        })
    ));
    let cut = &b[..b.len() - 16];
    assert!(matches!(bin::read(cut), Err(BinError::Truncated { .. })));
}

#[test]
fn bad_magic() {
    let mut b = good();
    b[0] = b'X';
    assert_eq!(bin::read(&b), Err(BinError::BadMagic(*b"XVT1")));
}

#[test]
fn wrong_version() {
    let mut b = good();
    put(&mut b, 4, 7);
    assert_eq!(bin::read(&b), Err(BinError::Version(7)));
}

#[test]
fn wrong_header_size_and_flags() {
    let mut b = good();
    put(&mut b, 8, 48);
    assert_eq!(bin::read(&b), Err(BinError::HeaderSize(48)));
    let mut b = good();
    put(&mut b, 12, 0x10);
    assert_eq!(bin::read(&b), Err(BinError::Flags(0x10)));
}

#[test]
fn trailing_bytes_are_a_size_mismatch() {
    let mut b = good();
    let n = b.len();
    b.extend_from_slice(&[0; 16]);
    assert!(matches!(bin::read(&b), Err(BinError::SizeMismatch { len, .. }) if len == n + 16));
}

#[test]
fn misaligned_offset() {
    let mut b = good();
    let off = get(&b, 32);
    put(&mut b, 32, off + 4);
    assert!(matches!(
        bin::read(&b),
        Err(BinError::Misaligned {
            section: "nodes",
            ..
        })
    ));
}

#[test]
fn huge_count_is_out_of_range_before_any_allocation() {
    for (field, section) in [
        (28, "volumes"),
        (36, "nodes"),
        (44, "vertices"),
        (52, "triangles"),
        (60, "sources"),
    ] {
        let mut b = good();
        put(&mut b, field, u32::MAX);
        assert!(
            matches!(bin::read(&b), Err(BinError::OutOfRange { section: s, count: u32::MAX, .. }) if s == section),
            "{section}"
        );
    }
    let mut b = good();
    put(&mut b, 24, 16); // volumes over the header
    assert!(matches!(
        bin::read(&b),
        Err(BinError::OutOfRange {
            section: "volumes",
            ..
        })
    ));
}

#[test]
fn inconsistent_counts() {
    let mut b = good();
    let n = get(&b, 60);
    put(&mut b, 60, n - 1);
    assert!(matches!(bin::read(&b), Err(BinError::Counts(_))));
    let mut b = good();
    put(&mut b, 28, 0);
    assert!(matches!(bin::read(&b), Err(BinError::Counts(_))));
}

#[test]
fn child_index_out_of_range() {
    let mut b = good();
    let nodes = get(&b, 32) as usize;
    let count = get(&b, 36);
    put(&mut b, nodes + 68, count); // root's second child
    assert!(matches!(
        bin::read(&b),
        Err(BinError::BadIndex {
            what: "node",
            index: 0,
            field: "right",
            ..
        })
    ));
    let mut b = good();
    put(&mut b, nodes + 64, 5); // root's first child must be node 1
    assert!(matches!(
        bin::read(&b),
        Err(BinError::BadIndex { field: "left", .. })
    ));
}

#[test]
fn triangle_range_and_vertex_index_out_of_range() {
    let mut b = good();
    let nodes = get(&b, 32) as usize;
    let tris = get(&b, 52);
    put(&mut b, nodes + 72, tris);
    assert!(matches!(
        bin::read(&b),
        Err(BinError::BadIndex {
            field: "first + count",
            ..
        })
    ));
    let mut b = good();
    let at = get(&b, 48) as usize;
    let verts = get(&b, 44);
    put(&mut b, at + 4, verts);
    assert!(matches!(
        bin::read(&b),
        Err(BinError::BadIndex {
            what: "triangle",
            index: 0,
            field: "vertex",
            ..
        })
    ));
}

#[test]
fn non_finite_numbers() {
    let mut b = good();
    let at = get(&b, 24) as usize;
    b[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    assert_eq!(
        bin::read(&b),
        Err(BinError::NotFinite {
            what: "volume",
            index: 0
        })
    );
    let mut b = good();
    let at = get(&b, 40) as usize;
    b[at + 12..at + 16].copy_from_slice(&f32::INFINITY.to_le_bytes());
    assert_eq!(
        bin::read(&b),
        Err(BinError::NotFinite {
            what: "vertex",
            index: 1
        })
    );
}
