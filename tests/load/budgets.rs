//! Decoder amplification (issue 34, class 2): every decoded element and
//! byte is charged to budgets fixed by the input's size before it is
//! decoded, a compressed stream named by many views or primitives is
//! decoded once, the triangle limit is checked from the accessors' declared
//! counts before anything is decoded, and what the meshoptimizer decoders
//! assert is checked before they are called. The meshopt files are built
//! here with the meshoptimizer encoder; the Draco ones rewrite the JSON of
//! the corpus's Draco duck.

use super::gltf::{Doc, scratch};
use bvtool::load::{LoadOptions, TriangleLimit, load};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The refusal of `path` under `opts`, within `secs` seconds, as one line
/// naming the file.
fn refused_within(path: &Path, opts: &LoadOptions, secs: u64) -> String {
    let start = Instant::now();
    let e = load(path, opts).expect_err("must be refused").to_string();
    assert!(
        start.elapsed() < Duration::from_secs(secs),
        "{:?}",
        start.elapsed()
    );
    assert!(
        !e.contains('\n') && e.contains(&path.display().to_string()),
        "{e}"
    );
    e
}

fn unlimited() -> LoadOptions {
    LoadOptions {
        max_triangles: TriangleLimit::Unlimited,
        ..LoadOptions::default()
    }
}

const COUNT: usize = 65_535;

/// The vertices of [`shared_meshopt`]: small integers from a hash, so the
/// stream does not compress far below the decoder's plausible ratio.
fn vertices() -> Vec<[f32; 3]> {
    (0..COUNT as u64)
        .map(|k| {
            let h = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            [0, 1, 2].map(|c| ((h >> (8 * c + 20)) & 0xff) as f32)
        })
        .collect()
}

/// [`vertices`] (stride 12) in one meshopt ATTRIBUTES stream, named by
/// `views` buffer views, each read by an accessor that is the POSITION of
/// one primitive of one mesh.
fn shared_meshopt(dir: &Path, views: usize) -> PathBuf {
    let stream = meshopt::encode_vertex_buffer(&vertices()).unwrap();
    let mut doc = Doc::default();
    doc.bin = stream.clone();
    let ext = json!({"EXT_meshopt_compression": {"buffer": 0, "byteLength": stream.len(),
        "byteStride": 12, "count": COUNT, "mode": "ATTRIBUTES"}});
    doc.views = (0..views)
        .map(
            |_| json!({"buffer": 1, "byteLength": 12 * COUNT, "byteStride": 12, "extensions": ext}),
        )
        .collect();
    let primitives: Vec<Value> = (0..views)
        .map(|v| {
            let a = doc.accessor(
                json!({"bufferView": v, "componentType": 5126, "count": COUNT, "type": "VEC3"}),
            );
            json!({"attributes": {"POSITION": a}})
        })
        .collect();
    let glb = doc.glb(json!({
        "buffers": [{"byteLength": stream.len()}, {"byteLength": 12 * COUNT}],
        "extensionsUsed": ["EXT_meshopt_compression"],
        "extensionsRequired": ["EXT_meshopt_compression"],
        "nodes": [{"mesh": 0}], "meshes": [{"primitives": primitives}],
    }));
    let path = dir.join(format!("shared_{views}.glb"));
    std::fs::write(&path, glb).unwrap();
    path
}

/// 200 views over one stream used to decode it 200 times (157 MB) and
/// let each decode raise the budget that should have bounded it. Now it is
/// decoded once and the accessors reading it are refused by the element
/// budget of the file; 20 views load, every vertex the one encoded.
#[test]
fn many_views_over_one_meshopt_stream_decode_once_within_the_budget() {
    let dir = scratch("budget-meshopt");
    let e = refused_within(&shared_meshopt(&dir, 200), &unlimited(), 3);
    assert!(
        e.contains("accessors would decode") && e.contains("elements"),
        "{e}"
    );
    let scene = load(&shared_meshopt(&dir, 20), &unlimited()).unwrap();
    assert_eq!(scene.instances.len(), 20);
    let want: Vec<_> = vertices().iter().map(|v| v.map(f64::from)).collect();
    for inst in &scene.instances {
        let got: Vec<_> = inst
            .geometry
            .positions
            .iter()
            .map(|p| [p.x, p.y, p.z])
            .collect();
        assert_eq!(got, want);
    }
}

/// A COLOR filter at byteStride 12 (the filter handles 4 and 8): the
/// meshoptimizer filter asserts on it, which killed the process. Refused
/// before the decoder is called, with one line and exit 1.
#[test]
fn a_color_filter_at_stride_12_is_refused_without_an_abort() {
    let dir = scratch("budget-color");
    let stream = meshopt::encode_vertex_buffer(&[[0f32; 3]; 3]).unwrap();
    let mut doc = Doc::default();
    doc.bin = stream.clone();
    doc.views = vec![json!({"buffer": 1, "byteLength": 36, "byteStride": 12,
        "extensions": {"EXT_meshopt_compression": {"buffer": 0, "byteLength": stream.len(),
        "byteStride": 12, "count": 3, "mode": "ATTRIBUTES", "filter": "COLOR"}}})];
    let a =
        doc.accessor(json!({"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}));
    let glb = doc.glb(json!({
        "buffers": [{"byteLength": stream.len()}, {"byteLength": 36}],
        "extensionsUsed": ["EXT_meshopt_compression"],
        "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": a}}]}],
    }));
    let path = dir.join("color12.glb");
    std::fs::write(&path, glb).unwrap();
    let file = path.to_str().unwrap();
    let (code, _, err) = bvtool_dev::run(env!("CARGO_BIN_EXE_bvtool"), &["info", file]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(file) && err.contains("filter 'COLOR'") && err.contains("byteStride 12"),
        "{err}"
    );
}

/// A triangle soup whose index accessor declares `indices` entries and
/// whose node has `instances` GPU instances (zero translations), with its
/// buffer in a file that does not exist: anything decoded would fail on it.
fn declared_only(dir: &Path, indices: u64, instances: u64) -> PathBuf {
    let mut doc = Doc::default();
    doc.views = vec![
        json!({"buffer": 0, "byteLength": 36}),
        json!({"buffer": 0, "byteOffset": 36, "byteLength": 4 * indices}),
    ];
    let p =
        doc.accessor(json!({"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}));
    let i = doc.accessor(
        json!({"bufferView": 1, "componentType": 5125, "count": indices, "type": "SCALAR"}),
    );
    let t = doc.accessor(json!({"componentType": 5126, "count": instances, "type": "VEC3"}));
    let mut root = doc.json(Some("missing.bin"), json!({
        "extensionsUsed": ["EXT_mesh_gpu_instancing"],
        "nodes": [{"mesh": 0, "extensions": {"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": t}}}}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": p}, "indices": i}]}],
    }));
    root["buffers"][0]["byteLength"] = json!(36 + 4 * indices);
    let path = dir.join(format!("declared_{indices}_{instances}.gltf"));
    std::fs::write(&path, root.to_string()).unwrap();
    path
}

/// `--max-triangles` is checked against what the accessors declare (index
/// count / 3 × GPU instances) before any buffer is read: the refusal names
/// the limit, not the missing buffer, which only a load without a limit
/// reaches.
#[test]
fn the_triangle_limit_is_checked_from_the_headers_before_decoding() {
    let dir = scratch("budget-headers");
    let many = declared_only(&dir, 3 << 21, 1);
    let e = refused_within(&many, &LoadOptions::default(), 1);
    assert!(
        e.contains("declare 2097152 triangles") && e.contains("refused before decoding"),
        "{e}"
    );
    let e = refused_within(&many, &unlimited(), 1);
    assert!(e.contains("missing.bin"), "{e}");
    // 1,000 instances of 3,000 triangles: 3 M, over the 2^20 of a small file.
    let instanced = declared_only(&dir, 9_000, 1_000);
    let e = refused_within(&instanced, &LoadOptions::default(), 1);
    assert!(e.contains("declare 3000000 triangles"), "{e}");
    let capped = LoadOptions {
        max_triangles: TriangleLimit::AtMost(3_000_000),
        ..LoadOptions::default()
    };
    let e = refused_within(&instanced, &capped, 1);
    assert!(e.contains("missing.bin"), "{e}");
}

/// The corpus's Draco duck (one primitive: 2,399 points, 4,212 triangles)
/// copied to `dir` with its mesh's primitive repeated `copies` times, every
/// copy naming the same Draco stream; `edit` may change the JSON first.
/// `None` without the corpus.
fn ducks(dir: &Path, copies: usize, edit: impl FnOnce(&mut Value)) -> Option<PathBuf> {
    let src = bvtool_dev::models_dir()?.join("gltf/Duck/glTF-Draco");
    std::fs::copy(src.join("Duck.bin"), dir.join("Duck.bin")).unwrap();
    let mut root: Value =
        serde_json::from_slice(&std::fs::read(src.join("Duck.gltf")).unwrap()).unwrap();
    let p = root["meshes"][0]["primitives"][0].clone();
    root["meshes"][0]["primitives"] = Value::Array(vec![p; copies]);
    edit(&mut root);
    let path = dir.join(format!("ducks_{copies}.gltf"));
    std::fs::write(&path, root.to_string()).unwrap();
    Some(path)
}

/// 60 primitives sharing the duck's stream load (decoded once), each the
/// duck; accessors declaring a 2 M-triangle grid's counts for the same 60
/// (what a 275 KB file of a real grid declares) are refused before the
/// stream is decoded, by the element budget and, with a limit, by the
/// triangle limit; 600 honest copies (9 M elements) exceed the element
/// budget of a 14 KB model; a stream holding more than its accessors
/// declare is refused by the decoder's own ceiling.
#[test]
fn primitives_sharing_a_draco_stream_are_charged_before_decoding() {
    let dir = scratch("budget-draco");
    let Some(honest) = ducks(&dir, 60, |_| {}) else {
        return;
    };
    let one = load(&honest, &unlimited()).unwrap();
    assert_eq!(one.instances.len(), 60);
    let duck = &one.instances[0].geometry;
    assert_eq!((duck.positions.len(), duck.triangles.len()), (2_399, 4_212));
    assert!(
        one.instances
            .iter()
            .all(|i| i.geometry.positions == duck.positions)
    );

    let grid = |root: &mut Value| {
        root["accessors"][0]["count"] = json!(6_000_000);
        root["accessors"][2]["count"] = json!(1_002_001);
    };
    let claimed = ducks(&dir, 60, grid).unwrap();
    let e = refused_within(&claimed, &unlimited(), 1);
    assert!(
        e.contains("KHR_draco_mesh_compression: accessors would decode"),
        "{e}"
    );
    let e = refused_within(&claimed, &LoadOptions::default(), 1);
    assert!(e.contains("declare 120000000 triangles"), "{e}");

    let e = refused_within(&ducks(&dir, 600, |_| {}).unwrap(), &unlimited(), 3);
    assert!(e.contains("accessors would decode"), "{e}");

    let short = ducks(&dir, 1, |root| root["accessors"][0]["count"] = json!(300)).unwrap();
    let e = refused_within(&short, &unlimited(), 1);
    assert!(
        e.contains("4212 faces") && e.contains("ceiling of 100"),
        "{e}"
    );
}
