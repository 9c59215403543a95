//! The glTF reader's scene must not depend on the rayon pool it runs on
//! (issue 40; the guard for decoding accessors in parallel chunks of 2^14
//! elements): generated files whose accessors span many such chunks — interleaved float
//! positions, quantized normalized shorts, u32 and u16 indices, TRIANGLES,
//! TRIANGLE_STRIP and TRIANGLE_FAN — read on pools of 1 to 4 threads must
//! give the geometry computed here from the generator's own values, the
//! same scene on every pool, and for bad accessors (two bad elements in
//! different chunks) the error naming the first one in file order.

use crate::gltf::Doc;
use bvtool::load::{LoadOptions, TriangleLimit, load_bytes};
use serde_json::json;
use std::path::Path;

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The scene's `Debug` text (every coordinate exact) or the error, read on
/// a pool of `threads` threads.
fn read_on(threads: usize, bytes: &[u8]) -> Result<String, String> {
    let opts = LoadOptions {
        max_triangles: TriangleLimit::Unlimited,
        ..LoadOptions::default()
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| load_bytes(Path::new("made.glb"), bytes, &opts))
        .map(|s| format!("{s:?}"))
        .map_err(|e| e.to_string())
}

/// Reads `bytes` on 1 to 4 threads, checks they agree, returns the outcome.
fn agree(bytes: &[u8]) -> Result<String, String> {
    let one = read_on(1, bytes);
    for t in 2..=4 {
        assert_eq!(read_on(t, bytes), one, "{t} threads differ from one");
    }
    one
}

/// What [`document`] makes: the GLB bytes, the float and the dequantized
/// short positions written, the TRIANGLES and the strip indices.
type Made = (Vec<u8>, Vec<[f64; 3]>, Vec<[f64; 3]>, Vec<u32>, Vec<u32>);

/// A GLB of three primitives over `n` vertices (the strip over at most
/// 60,000), with the first primitive's indices `bad_index` (position,
/// value) replaced and its vertices `nan_at` given a NaN; also the values
/// written (positions as f64, shorts dequantized) and the index lists.
fn document(rng: &mut Rng, n: usize, bad_index: &[(usize, u32)], nan_at: &[usize]) -> Made {
    let mut d = Doc::default();
    // 1: float positions interleaved with a 4-byte pad (stride 16).
    let floats: Vec<[f32; 3]> = (0..n)
        .map(|_| std::array::from_fn(|_| (rng.below(2_000_001) as f32 - 1e6) / 1024.0))
        .collect();
    let mut bytes = Vec::new();
    for (k, p) in floats.iter().enumerate() {
        for (c, x) in p.iter().enumerate() {
            let x = if nan_at.contains(&k) && c == 1 {
                f32::NAN
            } else {
                *x
            };
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        bytes.extend_from_slice(&[0xAB; 4]);
    }
    let v = d.view(&bytes, Some(16));
    let p1 =
        d.accessor(json!({"bufferView": v, "componentType": 5126, "count": n, "type": "VEC3"}));
    let mut tri: Vec<u32> = (0..3 * n).map(|_| rng.below(n) as u32).collect();
    for &(k, value) in bad_index {
        tri[k] = value;
    }
    let i1 = d.indices(&tri, 5125);
    // 2: normalized shorts (KHR_mesh_quantization), a u16 strip.
    let m = n.min(60_000);
    let shorts: Vec<[i16; 3]> = (0..m)
        .map(|_| std::array::from_fn(|_| (rng.below(65_536) as i32 - 32_768) as i16))
        .collect();
    let bytes: Vec<u8> = shorts
        .iter()
        .flat_map(|p| p.iter().flat_map(|x| x.to_le_bytes()).chain([0, 0]))
        .collect();
    let v = d.view(&bytes, Some(8));
    let p2 = d.accessor(json!({"bufferView": v, "componentType": 5122, "normalized": true, "count": m, "type": "VEC3"}));
    let strip: Vec<u32> = (0..2 * m).map(|_| rng.below(m) as u32).collect();
    let i2 = d.indices(&strip, 5123);
    // 3: a fan over the float positions, not indexed.
    let p3 = d.f32_positions(&floats);
    let rest = json!({
        "extensionsUsed": ["KHR_mesh_quantization"],
        "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [
            {"attributes": {"POSITION": p1}, "indices": i1},
            {"attributes": {"POSITION": p2}, "indices": i2, "mode": 5},
            {"attributes": {"POSITION": p3}, "mode": 6},
        ]}],
    });
    let f64s = floats.iter().map(|p| p.map(f64::from)).collect();
    // The spec's dequantization of a normalized short: max(c / 32767, -1).
    let dequantized = shorts
        .iter()
        .map(|p| p.map(|c| (f64::from(c) / 32767.0).max(-1.0)))
        .collect();
    (d.glb(rest), f64s, dequantized, tri, strip)
}

#[test]
fn large_accessors_decode_in_parallel_as_in_order() {
    let mut rng = Rng(40);
    for n in [1, 1000, 70_001] {
        let (glb, floats, shorts, tri, strip) = document(&mut rng, n, &[], &[]);
        let opts = LoadOptions {
            max_triangles: TriangleLimit::Unlimited,
            ..LoadOptions::default()
        };
        let scene = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap()
            .install(|| load_bytes(Path::new("made.glb"), &glb, &opts))
            .unwrap_or_else(|e| panic!("{e}"));
        let text = agree(&glb).unwrap();
        assert_eq!(text, format!("{scene:?}"));
        let g: Vec<_> = scene.instances.iter().map(|i| &i.geometry).collect();
        assert_eq!(g.len(), 3);
        // The oracle: the generator's values, assembled here as the spec says.
        let pts: Vec<[f64; 3]> = g[0].positions.iter().map(|p| [p.x, p.y, p.z]).collect();
        assert_eq!(pts, floats);
        let flat: Vec<u32> = g[0].triangles.iter().flatten().copied().collect();
        assert_eq!(flat, tri);
        let pts: Vec<[f64; 3]> = g[1].positions.iter().map(|p| [p.x, p.y, p.z]).collect();
        assert_eq!(pts, shorts);
        let want: Vec<[u32; 3]> = (0..strip.len().saturating_sub(2))
            .map(|i| {
                if i % 2 == 0 {
                    [strip[i], strip[i + 1], strip[i + 2]]
                } else {
                    [strip[i], strip[i + 2], strip[i + 1]]
                }
            })
            .collect();
        assert_eq!(g[1].triangles, want);
        let want: Vec<[u32; 3]> = (0..n.saturating_sub(2) as u32)
            .map(|i| [i + 1, i + 2, 0])
            .collect();
        assert_eq!(g[2].triangles, want);
    }
}

#[test]
fn the_first_bad_element_is_named_on_every_pool() {
    let mut rng = Rng(41);
    let n = 70_001;
    // Two out-of-range indices in different chunks of 2^14 elements.
    let (glb, ..) = document(&mut rng, n, &[(50_000, 80_001), (3, 80_002)], &[]);
    let e = agree(&glb).unwrap_err();
    assert!(
        e.contains("index 80002 is out of range (70001 vertices)"),
        "{e}"
    );
    // The restart value after a range error: the restart check comes first.
    let (glb, ..) = document(&mut rng, n, &[(9, 80_001), (150_000, u32::MAX)], &[]);
    let e = agree(&glb).unwrap_err();
    assert!(
        e.contains("index 150000 holds the primitive-restart value"),
        "{e}"
    );
    let (glb, ..) = document(&mut rng, n, &[], &[66_000, 20_000]);
    let e = agree(&glb).unwrap_err();
    assert!(e.contains("vertex 20000 is not finite"), "{e}");
}
