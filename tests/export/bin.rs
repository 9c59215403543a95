//! The binary export: round trip, containment of every vertex in the `f32`
//! boxes and colliders (placed by their nodes), colliders equal to the
//! JSON's to `f32` rounding, and one test per reader error.

use bvtool_dev as common;
use bvtool_dev::export_check as export_support;

use bvtool::export::bin::{self, BinError, BinFile, FLAG_TREE, NONE};
use bvtool::fit::ShapeSpec;
use bvtool::mesh::Format;
use export_support::bin_check::{assert_holds_every_vertex, assert_matches_json};
use export_support::{ALL_SHAPES, arr, doc, doc_with, instance_world_points, scene};

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
        assert_eq!(r.obb, v.obb.to_f32());
        assert_eq!(r.aabb, v.aabb.to_f32());
        assert_eq!(r.sphere, v.sphere.to_f32());
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
        assert_eq!(r.obb, n.obb.to_f32());
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
            needed: 96,
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

/// Every shape, decomposition included, with and without the whole
/// scene's: the records read back equal the JSON's colliders to `f32`
/// rounding and, placed by their nodes, hold every vertex they bound, over
/// random scenes far from the origin.
#[test]
fn colliders_match_the_json_and_hold_every_vertex_over_random_scenes() {
    let mut shapes = ALL_SHAPES.to_vec();
    shapes.push(ShapeSpec::Decompose);
    for seed in 0..6 {
        let offset = [1.0, 1e2, 1e4][seed as usize % 3];
        let format = [Format::Stl, Format::Glb][seed as usize % 2];
        let s = scene(200 + seed, offset, format, "synthetic.glb");
        let d = doc_with(&s, &shapes, seed % 2 == 0);
        let f = bin::read(&bin::write(&d).unwrap()).unwrap();
        let what = format!("seed {seed}");
        assert_matches_json(&what, &d, &f.colliders);
        // Three of the four parts are scaled non-uniformly: world frame, with the reason.
        let reasons = f
            .colliders
            .records
            .iter()
            .filter(|r| r.world_reason != NONE);
        assert!(reasons.count() >= 3 * shapes.len(), "{what}: world reasons");
        let n = assert_holds_every_vertex(&what, &s, &d, &f.colliders);
        assert!(n >= 4 * shapes.len(), "{n} colliders");
    }
}

/// The repository's chain (one torus placed by two nodes): every shape's
/// collider per ring, in the ring's local frame with the ring's names,
/// equal to the JSON's and holding every vertex once placed by its node.
#[test]
fn chain_colliders_of_every_shape() {
    let s = common::repo_scene("chain.gltf");
    let mut shapes = ALL_SHAPES.to_vec();
    shapes.push(ShapeSpec::Decompose);
    let d = doc_with(&s, &shapes, true);
    let f = bin::read(&bin::write(&d).unwrap()).unwrap();
    assert_matches_json("chain", &d, &f.colliders);
    assert_holds_every_vertex("chain", &s, &d, &f.colliders);
    let c = &f.colliders;
    let local: Vec<_> = c
        .records
        .iter()
        .filter(|r| r.flags & bvtool::export::bin_collider::FLAG_WORLD == 0)
        .collect();
    assert!(local.len() >= 2 * ALL_SHAPES.len());
    for r in local {
        assert!(matches!(c.string(r.node_name), Some("ring_a" | "ring_b")));
        assert_eq!(c.string(r.mesh_name), Some("torus"));
    }
}

/// A valid file with colliders (capsule, hull, sphere of the chain) and the
/// header fields of the collider sections.
fn with_colliders() -> Vec<u8> {
    let s = common::repo_scene("chain.gltf");
    let d = doc_with(
        &s,
        &[
            ShapeSpec::Capsule,
            ShapeSpec::Hull(None),
            ShapeSpec::Sphere(None),
        ],
        false,
    );
    bin::write(&d).unwrap()
}

const COLLIDER_SECTIONS: [(usize, &str); 4] = [
    (64, "colliders"),
    (72, "collider vertices"),
    (80, "collider triangles"),
    (88, "strings"),
];

fn one_line(e: &BinError) {
    assert_eq!(e.to_string().lines().count(), 1, "{e}");
}

#[test]
fn collider_sections_with_huge_counts_or_past_the_end_are_out_of_range() {
    let good = with_colliders();
    assert_eq!(get(&good, 4), 3, "version");
    assert_eq!(get(&good, 8), 96, "header size");
    for (field, section) in COLLIDER_SECTIONS {
        assert!(get(&good, field + 4) > 0, "{section} is filled");
        let mut b = good.clone();
        put(&mut b, field + 4, u32::MAX);
        let e = bin::read(&b).unwrap_err();
        assert!(
            matches!(e, BinError::OutOfRange { section: s, count: u32::MAX, .. } if s == section),
            "{section}: {e}"
        );
        one_line(&e);
        let mut b = good.clone();
        put(&mut b, field, good.len() as u32 + 16);
        let e = bin::read(&b).unwrap_err();
        assert!(
            matches!(e, BinError::OutOfRange { section: s, .. } if s == section),
            "{section}: {e}"
        );
        let mut b = good.clone();
        put(&mut b, field, u32::MAX - 15);
        assert!(matches!(bin::read(&b), Err(BinError::OutOfRange { .. })));
    }
}

#[test]
fn truncated_collider_sections() {
    let good = with_colliders();
    for (field, section) in COLLIDER_SECTIONS {
        // The file cut at the section's start, the header's size made to agree.
        let at = get(&good, field) as usize;
        let mut b = good[..at].to_vec();
        put(&mut b, 16, at as u32);
        for k in 0..9 {
            if get(&b, 28 + 8 * k) == 0 {
                put(&mut b, 24 + 8 * k, at as u32); // empty: at the (new) end
            }
        }
        let e = bin::read(&b).unwrap_err();
        assert!(
            matches!(e, BinError::OutOfRange { section: s, .. } if s == section),
            "{section}: {e}"
        );
        one_line(&e);
        // Cut without fixing the header: truncated.
        let e = bin::read(&good[..at + 4]).unwrap_err();
        assert!(matches!(e, BinError::Truncated { .. }), "{e}");
    }
}

/// Offset of collider `k`'s record (104 bytes each).
fn record(b: &[u8], k: usize) -> usize {
    get(b, 64) as usize + 104 * k
}

#[test]
fn bad_collider_records() {
    let good = with_colliders();
    let expect = |b: &[u8], index: Option<usize>, needle: &str| {
        let e = bin::read(b).unwrap_err();
        assert!(
            matches!(&e, BinError::Collider { index: i, why } if *i == index && why.contains(needle)),
            "wanted {needle:?} at {index:?}: {e}"
        );
        one_line(&e);
    };
    let at = record(&good, 0);
    let mut b = good.clone();
    put(&mut b, at, 9);
    expect(&b, Some(0), "kind 9");
    let mut b = good.clone();
    put(&mut b, at + 4, 4294967295);
    expect(&b, Some(0), "shape 4294967295");
    let mut b = good.clone();
    put(&mut b, at + 8, 8);
    expect(&b, Some(0), "flags");
    let mut b = good.clone();
    b[at + 40..at + 44].copy_from_slice(&f32::NAN.to_le_bytes());
    expect(&b, Some(0), "non-finite");
    let mut b = good.clone();
    b[at + 68..at + 72].copy_from_slice(&(-1.0f32).to_le_bytes());
    expect(&b, Some(0), "negative size");
    let mut b = good.clone();
    b[at + 52..at + 56].copy_from_slice(&3.0f32.to_le_bytes());
    expect(&b, Some(0), "unit quaternion");
    // A name offset inside a string, and one far past the table.
    let mut b = good.clone();
    put(&mut b, at + 28, 1);
    expect(&b, Some(0), "does not start a string");
    let mut b = good.clone();
    put(&mut b, at + 32, 4294967294);
    expect(&b, Some(0), "node name offset");
    // The volume: NaN or negative; +∞ (a volume beyond f32) is read.
    let mut b = good.clone();
    b[at + 96..at + 100].copy_from_slice(&f32::NAN.to_le_bytes());
    expect(&b, Some(0), "non-finite");
    let mut b = good.clone();
    b[at + 96..at + 100].copy_from_slice(&(-1.0f32).to_le_bytes());
    expect(&b, Some(0), "negative volume");
    let mut b = good.clone();
    b[at + 96..at + 100].copy_from_slice(&f32::INFINITY.to_le_bytes());
    assert_eq!(
        bin::read(&b).unwrap().colliders.records[0].volume,
        f32::INFINITY
    );
    // A world reason on a local-frame collider, and one inside a string.
    assert_eq!(
        get(&good, at + 100),
        u32::MAX,
        "chain.gltf's colliders are local"
    );
    let mut b = good.clone();
    put(&mut b, at + 100, get(&good, at + 28));
    expect(&b, Some(0), "world reason");
    let mut b = good.clone();
    put(&mut b, at + 8, 1);
    put(&mut b, at + 100, get(&good, at + 28) + 1);
    expect(&b, Some(0), "world reason offset");
    // Collider 1 is the hull: its ranges and indices.
    let hull = record(&good, 1);
    assert_eq!(get(&good, hull), 4, "a convex record");
    for (field, value) in [
        (80, u32::MAX),
        (84, u32::MAX),
        (88, u32::MAX),
        (92, u32::MAX),
    ] {
        let mut b = good.clone();
        put(&mut b, hull + field, value);
        expect(&b, Some(1), "do not make a polytope");
    }
    let mut b = good.clone();
    let tris = get(&b, 80) as usize + 12 * get(&b, hull + 88) as usize;
    put(&mut b, tris + 4, get(&good, hull + 84));
    expect(&b, Some(1), "vertex index");
    // A sphere with vertices.
    let mut b = good.clone();
    put(&mut b, record(&good, 2) + 84, 4);
    expect(&b, Some(2), "only a convex polytope");
    // The tables: a NaN vertex, a string table without its final NUL.
    let mut b = good.clone();
    let v = get(&b, 72) as usize;
    b[v..v + 4].copy_from_slice(&f32::INFINITY.to_le_bytes());
    expect(&b, None, "non-finite");
    let mut b = good.clone();
    let end = get(&b, 88) as usize + get(&b, 92) as usize;
    b[end - 1] = b'x';
    expect(&b, None, "NUL");
    let mut b = good.clone();
    b[get(&good, 88) as usize] = 0xff;
    expect(&b, None, "UTF-8");
}

/// A BVT1 file built by hand: the file record and one node per
/// `[left, right, first, count]`, every box the unit cube at the origin,
/// over `t` triangles of one vertex; no colliders. `axes` replaces the
/// boxes' axes.
fn hand_tree(nodes: &[[u32; 4]], t: u32, axes: [[f32; 3]; 3]) -> Vec<u8> {
    let mut b = vec![0u8; 96];
    let pad = |b: &mut Vec<u8>| b.resize(b.len().next_multiple_of(16), 0);
    let f32s = |b: &mut Vec<u8>, v: &[f32]| v.iter().for_each(|x| b.extend(x.to_le_bytes()));
    let u32s = |b: &mut Vec<u8>, v: &[u32]| v.iter().for_each(|x| b.extend(x.to_le_bytes()));
    let obb = |b: &mut Vec<u8>| {
        f32s(b, &[0.0; 3]);
        axes.iter().for_each(|a| f32s(b, a));
        f32s(b, &[1.0, 1.0, 1.0, 0.0]);
    };
    let mut sections = vec![];
    sections.push((b.len(), 1));
    obb(&mut b);
    f32s(
        &mut b,
        &[
            -1.0, -1.0, -1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 2.0,
        ],
    );
    u32s(&mut b, &[NONE; 4]);
    sections.push((b.len(), nodes.len()));
    for n in nodes {
        obb(&mut b);
        u32s(&mut b, n);
    }
    sections.push((b.len(), 1));
    f32s(&mut b, &[0.0; 3]);
    pad(&mut b);
    sections.push((b.len(), t as usize));
    (0..t).for_each(|_| u32s(&mut b, &[0; 3]));
    pad(&mut b);
    sections.push((b.len(), t as usize));
    (0..t).for_each(|k| u32s(&mut b, &[NONE, 0, 0, 0, k]));
    pad(&mut b);
    let len = b.len() as u32;
    sections.extend([(len as usize, 0); 4]);
    put(&mut b[..], 0, u32::from_le_bytes(*b"BVT1"));
    for (at, v) in [(4, bin::VERSION), (8, 96), (12, FLAG_TREE), (16, len)] {
        put(&mut b, at, v);
    }
    for (k, (off, count)) in sections.iter().enumerate() {
        put(&mut b, 24 + 8 * k, *off as u32);
        put(&mut b, 28 + 8 * k, *count as u32);
    }
    b
}

const UNIT: [[f32; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// Reads `b`, which must be refused as not a tree, in milliseconds.
fn not_a_tree(b: &[u8], says: &str) {
    let start = std::time::Instant::now();
    let r = bin::read(b);
    assert!(start.elapsed().as_millis() < 100, "{:?}", start.elapsed());
    match r {
        Err(e @ BinError::NotATree(_)) => {
            let line = e.to_string();
            assert!(line.contains(says) && !line.contains('\n'), "{line}");
        }
        other => panic!("expected not a tree, got {other:?}"),
    }
}

#[test]
fn a_hand_built_tree_reads_back() {
    // Root over two leaves, triangles 0..1 and 1..3.
    let b = hand_tree(&[[1, 2, 0, 3], [0, 0, 0, 1], [0, 0, 1, 2]], 3, UNIT);
    let f = bin::read(&b).expect("a valid tree");
    assert_eq!(f.nodes.len(), 3);
    assert_eq!([f.nodes[2].first, f.nodes[2].count], [1, 2]);
}

/// 90 nodes, node i's children i + 1 and i + 2: every local link is in
/// range, but the nodes form a DAG whose walk from the root takes Fib(90)
/// steps. Refused by a linear walk.
#[test]
fn a_dag_of_shared_children_is_not_a_tree() {
    let nodes: Vec<[u32; 4]> = (0..90u32)
        .map(|i| match i {
            88 => [0, 0, 0, 1],
            89 => [0, 0, 1, 1],
            _ => [i + 1, i + 2, 0, 2],
        })
        .collect();
    not_a_tree(
        &hand_tree(&nodes, 2, UNIT),
        "node 88 met where node 90 belongs",
    );
}

/// Node 3 is the second child of both the root and node 1: the walk would
/// meet it twice and the triangles of the leaf it replaced would be lost.
#[test]
fn a_node_with_two_parents_is_not_a_tree() {
    let nodes = [[1, 3, 0, 2], [2, 3, 0, 2], [0, 0, 0, 1], [0, 0, 1, 1]];
    not_a_tree(&hand_tree(&nodes, 2, UNIT), "two parents");
    // Leaves out of order (1..2 before 0..1) do not partition in walk order.
    let nodes = [[1, 2, 0, 2], [0, 0, 1, 1], [0, 0, 0, 1]];
    not_a_tree(&hand_tree(&nodes, 2, UNIT), "leaf 1");
    // An internal range that is not its children's union.
    let nodes = [[1, 2, 0, 1], [0, 0, 0, 1], [0, 0, 1, 1]];
    not_a_tree(&hand_tree(&nodes, 2, UNIT), "node 0 covers");
}

#[test]
fn overlapping_sections_are_refused() {
    let mut b = good();
    let tris = get(&b, 48);
    put(&mut b, 56, tris); // the sources read from the triangles' bytes
    match bin::read(&b) {
        Err(e @ BinError::Overlap { .. }) => {
            assert!(
                e.to_string().contains("triangles and sources overlap"),
                "{e}"
            )
        }
        other => panic!("expected overlapping sections, got {other:?}"),
    }
}

#[test]
fn axes_far_from_orthonormal_are_refused() {
    let long = [[1e30, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let b = hand_tree(&[[0, 0, 0, 1]], 1, long);
    match bin::read(&b) {
        Err(e @ BinError::BadBox { .. }) => {
            let line = e.to_string();
            assert!(
                line.starts_with("volume 0: OBB axes not orthonormal"),
                "{line}"
            )
        }
        other => panic!("expected a bad box, got {other:?}"),
    }
    // Rounded f32 axes pass: a 45° turn is within the tolerance.
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let turned = [[h, h, 0.0], [-h, h, 0.0], [0.0, 0.0, 1.0]];
    assert!(bin::read(&hand_tree(&[[0, 0, 0, 1]], 1, turned)).is_ok());
    // A node's axes alone: the real export with the root's axis 0 doubled.
    let mut b = good();
    let at = get(&b, 32) as usize + 12;
    for k in 0..3 {
        let x = f32::from_le_bytes(b[at + 4 * k..at + 4 * k + 4].try_into().unwrap());
        b[at + 4 * k..at + 4 * k + 4].copy_from_slice(&(2.0 * x).to_le_bytes());
    }
    assert!(matches!(
        bin::read(&b),
        Err(BinError::BadBox {
            what: "node",
            index: 0,
            ..
        })
    ));
}
