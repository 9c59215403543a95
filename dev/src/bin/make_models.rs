//! Writes the small models that live in `models/`, so the README's commands
//! work on a fresh clone without the shared corpus:
//!
//! - `models/torus.obj`: a torus (major radius 1, minor radius 0.35, 48 × 24
//!   quads written as quads, 2,304 triangles once split), centred at the
//!   origin in the XY plane.
//! - `models/chain.gltf`: two such tori as one mesh placed by two nodes (the
//!   second rotated 90° about X and shifted by 1 along X, so the rings link
//!   without touching), buffers embedded as base64 — exercises the scene
//!   graph and mesh reuse.
//!
//! Run with `cargo run -p bvtool-dev --bin make_models`; the output is
//! committed (its generator strings still name the program's first home,
//! `examples/make_models.rs`, so that the files stay byte for byte the same).

use base64::Engine;
use std::fmt::Write as _;

const MAJOR: f64 = 1.0;
const MINOR: f64 = 0.35;
const NU: usize = 48;
const NV: usize = 24;

fn torus_vertices() -> Vec<[f64; 3]> {
    let mut v = Vec::with_capacity(NU * NV);
    for i in 0..NU {
        let u = i as f64 / NU as f64 * std::f64::consts::TAU;
        for j in 0..NV {
            let w = j as f64 / NV as f64 * std::f64::consts::TAU;
            let r = MAJOR + MINOR * w.cos();
            v.push([r * u.cos(), r * u.sin(), MINOR * w.sin()]);
        }
    }
    v
}

/// Quads as 0-based vertex indices, counter-clockwise seen from outside.
fn torus_quads() -> Vec<[usize; 4]> {
    let idx = |i: usize, j: usize| (i % NU) * NV + (j % NV);
    let mut q = Vec::with_capacity(NU * NV);
    for i in 0..NU {
        for j in 0..NV {
            q.push([idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1)]);
        }
    }
    q
}

fn write_obj(path: &str) -> std::io::Result<()> {
    let mut s = String::from(
        "# torus: major radius 1, minor radius 0.35 (bvtool examples/make_models.rs)\no torus\n",
    );
    for p in torus_vertices() {
        writeln!(s, "v {:.6} {:.6} {:.6}", p[0], p[1], p[2]).unwrap();
    }
    for q in torus_quads() {
        writeln!(s, "f {} {} {} {}", q[0] + 1, q[1] + 1, q[2] + 1, q[3] + 1).unwrap();
    }
    std::fs::write(path, s)
}

fn write_gltf(path: &str) -> std::io::Result<()> {
    let verts = torus_vertices();
    let mut bin = Vec::new();
    let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
    for p in &verts {
        for k in 0..3 {
            let x = p[k] as f32;
            lo[k] = lo[k].min(x);
            hi[k] = hi[k].max(x);
            bin.extend_from_slice(&x.to_le_bytes());
        }
    }
    let pos_len = bin.len();
    let mut count = 0;
    for q in torus_quads() {
        for t in [[q[0], q[1], q[2]], [q[0], q[2], q[3]]] {
            for i in t {
                bin.extend_from_slice(&(i as u16).to_le_bytes());
                count += 1;
            }
        }
    }
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bin)
    );
    // Rotation of 90° about X as a quaternion (x, y, z, w).
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let json = format!(
        r#"{{
  "asset": {{"version": "2.0", "generator": "bvtool examples/make_models.rs"}},
  "scene": 0,
  "scenes": [{{"name": "chain", "nodes": [0, 1]}}],
  "nodes": [
    {{"name": "ring_a", "mesh": 0}},
    {{"name": "ring_b", "mesh": 0, "translation": [1.0, 0.0, 0.0], "rotation": [{h}, 0.0, 0.0, {h}]}}
  ],
  "meshes": [{{"name": "torus", "primitives": [{{"attributes": {{"POSITION": 0}}, "indices": 1, "mode": 4}}]}}],
  "accessors": [
    {{"bufferView": 0, "componentType": 5126, "count": {nv}, "type": "VEC3", "min": [{:?}, {:?}, {:?}], "max": [{:?}, {:?}, {:?}]}},
    {{"bufferView": 1, "componentType": 5123, "count": {count}, "type": "SCALAR"}}
  ],
  "bufferViews": [
    {{"buffer": 0, "byteOffset": 0, "byteLength": {pos_len}, "target": 34962}},
    {{"buffer": 0, "byteOffset": {pos_len}, "byteLength": {idx_len}, "target": 34963}}
  ],
  "buffers": [{{"byteLength": {blen}, "uri": "{uri}"}}]
}}
"#,
        lo[0],
        lo[1],
        lo[2],
        hi[0],
        hi[1],
        hi[2],
        nv = verts.len(),
        idx_len = bin.len() - pos_len,
        blen = bin.len(),
    );
    std::fs::write(path, json)
}

fn main() -> std::io::Result<()> {
    // The repository's `models/`, beside this crate's folder.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../models");
    std::fs::create_dir_all(dir)?;
    write_obj(&format!("{dir}/torus.obj"))?;
    write_gltf(&format!("{dir}/chain.gltf"))?;
    println!("wrote {dir}/torus.obj and {dir}/chain.gltf");
    Ok(())
}
