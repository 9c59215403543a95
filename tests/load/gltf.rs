//! Synthetic glTF files, built here byte by byte, read back by the glTF
//! loader: each test asserts the exact geometry the spec prescribes, or the
//! refusal it must give.

use base64::Engine;
use bvtool::load::{LoadOptions, load};
use bvtool::{Scene, mesh::Format};
use bvtool_dev::guard::mkfifo;
use nalgebra::{Matrix4, Point3, Rotation3, Translation3, Vector3};
use serde_json::{Value, json};
use std::path::PathBuf;

/// A glTF document under construction: one binary buffer, its views and
/// accessors, written out with the buffer embedded or as a side file.
#[derive(Default)]
pub(crate) struct Doc {
    pub(crate) bin: Vec<u8>,
    pub(crate) views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Doc {
    pub(crate) fn view(&mut self, bytes: &[u8], stride: Option<usize>) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut v = json!({"buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()});
        if let Some(s) = stride {
            v["byteStride"] = json!(s);
        }
        self.bin.extend_from_slice(bytes);
        self.views.push(v);
        self.views.len() - 1
    }

    pub(crate) fn accessor(&mut self, a: Value) -> usize {
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    pub(crate) fn f32_positions(&mut self, p: &[[f32; 3]]) -> usize {
        let bytes: Vec<u8> = p.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
        let v = self.view(&bytes, None);
        self.accessor(
            json!({"bufferView": v, "componentType": 5126, "count": p.len(), "type": "VEC3"}),
        )
    }

    pub(crate) fn indices(&mut self, idx: &[u32], component_type: u32) -> usize {
        let bytes: Vec<u8> = match component_type {
            5121 => idx.iter().map(|&i| i as u8).collect(),
            5123 => idx.iter().flat_map(|&i| (i as u16).to_le_bytes()).collect(),
            _ => idx.iter().flat_map(|&i| i.to_le_bytes()).collect(),
        };
        let v = self.view(&bytes, None);
        self.accessor(json!({"bufferView": v, "componentType": component_type, "count": idx.len(), "type": "SCALAR"}))
    }

    /// The full JSON, with `rest` (nodes, meshes, scenes, …) merged in.
    pub(crate) fn json(&self, uri: Option<&str>, rest: Value) -> Value {
        let mut buffer = json!({"byteLength": self.bin.len()});
        if let Some(u) = uri {
            buffer["uri"] = json!(u);
        }
        let mut root = json!({
            "asset": {"version": "2.0"},
            "buffers": [buffer],
            "bufferViews": self.views,
            "accessors": self.accessors,
        });
        for (k, v) in rest.as_object().unwrap() {
            root[k] = v.clone();
        }
        root
    }

    /// Writes `name.gltf` with the buffer as a base64 data URI.
    pub(crate) fn write(&self, dir: &std::path::Path, name: &str, rest: Value) -> PathBuf {
        let uri = format!(
            "data:application/octet-stream;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&self.bin)
        );
        let path = dir.join(format!("{name}.gltf"));
        std::fs::write(&path, self.json(Some(&uri), rest).to_string()).unwrap();
        path
    }

    /// The `.glb` bytes of this document.
    pub(crate) fn glb(&self, rest: Value) -> Vec<u8> {
        let mut js = self.json(None, rest).to_string().into_bytes();
        while !js.len().is_multiple_of(4) {
            js.push(b' ');
        }
        let mut bin = self.bin.clone();
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let total = 12 + 8 + js.len() + 8 + bin.len();
        let mut out = Vec::new();
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(js.len() as u32).to_le_bytes());
        out.extend_from_slice(&0x4E4F534Au32.to_le_bytes());
        out.extend_from_slice(&js);
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(&0x004E4942u32.to_le_bytes());
        out.extend_from_slice(&bin);
        out
    }
}

/// A fresh scratch folder for one test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let d = bvtool_dev::scratch!(format!("gltf-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn one_mesh(primitive: Value) -> Value {
    json!({"scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}], "meshes": [{"primitives": [primitive]}]})
}

fn load_ok(path: &std::path::Path) -> Scene {
    load(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn load_err(path: &std::path::Path) -> String {
    let e = load(path, &LoadOptions::default())
        .expect_err("must be refused")
        .to_string();
    assert!(
        e.contains(path.file_name().unwrap().to_str().unwrap()) && !e.contains('\n'),
        "{e}"
    );
    e
}

const FIVE: [[f32; 3]; 5] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [1.0, 1.0, 0.0],
    [0.0, 2.0, 0.0],
];

#[test]
fn strip_and_fan_follow_the_spec_winding() {
    let dir = scratch("modes");
    let expected_strip = vec![[0, 1, 2], [1, 3, 2], [2, 3, 4]];
    let expected_fan = vec![[1, 2, 0], [2, 3, 0], [3, 4, 0]];
    for (mode, expected) in [(5, &expected_strip), (6, &expected_fan)] {
        // Non-indexed and indexed (identity indices) must agree.
        for indexed in [false, true] {
            let mut d = Doc::default();
            let p = d.f32_positions(&FIVE);
            let mut prim = json!({"attributes": {"POSITION": p}, "mode": mode});
            if indexed {
                prim["indices"] = json!(d.indices(&[0, 1, 2, 3, 4], 5123));
            }
            let s = load_ok(&d.write(&dir, &format!("m{mode}{indexed}"), one_mesh(prim)));
            assert_eq!(&s.instances[0].geometry.triangles, expected, "mode {mode}");
            assert_eq!(s.triangle_count(), 3);
        }
    }
}

#[test]
fn index_component_types_give_the_same_triangles() {
    let dir = scratch("itypes");
    let idx = [4, 3, 2, 2, 1, 0, 0, 4, 1];
    for ct in [5121, 5123, 5125] {
        let mut d = Doc::default();
        let p = d.f32_positions(&FIVE);
        let i = d.indices(&idx, ct);
        let s = load_ok(&d.write(
            &dir,
            &format!("i{ct}"),
            one_mesh(json!({"attributes": {"POSITION": p}, "indices": i})),
        ));
        assert_eq!(
            s.instances[0].geometry.triangles,
            vec![[4, 3, 2], [2, 1, 0], [0, 4, 1]],
            "type {ct}"
        );
        assert_eq!(s.instances[0].geometry.positions.len(), 5);
    }
}

#[test]
fn interleaved_positions_are_read_through_the_stride() {
    let dir = scratch("stride");
    let mut bytes = Vec::new();
    for (k, p) in FIVE.iter().enumerate() {
        bytes.extend(p.iter().flat_map(|x| x.to_le_bytes()));
        bytes.extend(
            [9.0f32, -9.0, k as f32]
                .iter()
                .flat_map(|x| x.to_le_bytes()),
        );
    }
    let mut d = Doc::default();
    let v = d.view(&bytes, Some(24));
    let p = d.accessor(json!({"bufferView": v, "componentType": 5126, "count": 5, "type": "VEC3"}));
    let n = d.accessor(json!({"bufferView": v, "byteOffset": 12, "componentType": 5126, "count": 5, "type": "VEC3"}));
    let i = d.indices(&[0, 1, 2], 5121);
    let s = load_ok(&d.write(
        &dir,
        "stride",
        one_mesh(json!({"attributes": {"POSITION": p, "NORMAL": n}, "indices": i})),
    ));
    let got: Vec<[f64; 3]> = s.instances[0]
        .geometry
        .positions
        .iter()
        .map(|q| [q.x, q.y, q.z])
        .collect();
    let want: Vec<[f64; 3]> = FIVE.iter().map(|q| q.map(f64::from)).collect();
    assert_eq!(got, want);
}

#[test]
fn matrix_and_trs_compose_down_the_hierarchy() {
    let dir = scratch("xform");
    let (t, axis_angle, sc) = (
        Vector3::new(1.0, 2.0, 3.0),
        std::f64::consts::FRAC_PI_2,
        2.0,
    );
    // Independent oracle: T · R · S built with nalgebra's own types.
    let trs = Translation3::from(t).to_homogeneous()
        * Rotation3::from_axis_angle(&Vector3::z_axis(), axis_angle).to_homogeneous()
        * Matrix4::new_scaling(sc);
    let s2 = std::f64::consts::FRAC_1_SQRT_2;
    let mut d = Doc::default();
    let p = d.f32_positions(&[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
    let rest = json!({
        "scene": 0,
        "scenes": [{"nodes": [0, 1, 2]}],
        "nodes": [
            {"mesh": 0, "translation": [1.0, 2.0, 3.0], "rotation": [0.0, 0.0, s2, s2], "scale": [2.0, 2.0, 2.0]},
            {"mesh": 0, "matrix": trs.as_slice()},
            {"translation": [10.0, 0.0, 0.0], "children": [3]},
            {"mesh": 0, "scale": [2.0, 2.0, 2.0]}
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": p}}]}]
    });
    let s = load_ok(&d.write(&dir, "xform", rest));
    assert_eq!(s.instances.len(), 3);
    assert_eq!(
        s.instances.iter().map(|i| i.node).collect::<Vec<_>>(),
        [Some(0), Some(1), Some(3)]
    );
    let x = Point3::new(1.0, 0.0, 0.0);
    for inst in &s.instances[..2] {
        let w = inst.to_world(&x);
        assert!((w - Point3::new(1.0, 4.0, 3.0)).norm() < 1e-6, "{w}");
    }
    assert!((s.instances[2].to_world(&x) - Point3::new(12.0, 0.0, 0.0)).norm() < 1e-12);
    assert!(s.instances.iter().all(|i| !i.is_mirrored()));
}

#[test]
fn quantized_positions_dequantize_exactly() {
    let dir = scratch("quant");
    // (componentType, normalized, raw values, expected positions)
    let shorts: Vec<u8> = [-32768i16, 32767, 16384, 0, 0, -1, 7, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let cases: Vec<(u32, bool, Vec<u8>, [f64; 6])> = vec![
        (
            5122,
            true,
            shorts.clone(),
            [
                -1.0,
                1.0,
                16384.0 / 32767.0,
                0.0,
                -1.0 / 32767.0,
                7.0 / 32767.0,
            ],
        ),
        (
            5122,
            false,
            shorts,
            [-32768.0, 32767.0, 16384.0, 0.0, -1.0, 7.0],
        ),
        (
            5121,
            true,
            vec![255, 0, 51, 0, 1, 2, 3, 0],
            [1.0, 0.0, 0.2, 1.0 / 255.0, 2.0 / 255.0, 3.0 / 255.0],
        ),
        (
            5120,
            true,
            vec![0x80, 0x81, 127, 0, 1, 2, 3, 0],
            [-1.0, -1.0, 1.0, 1.0 / 127.0, 2.0 / 127.0, 3.0 / 127.0],
        ),
        (
            5123,
            false,
            [1000u16, 65535, 0, 0, 1, 2, 3, 0]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
            [1000.0, 65535.0, 0.0, 1.0, 2.0, 3.0],
        ),
    ];
    for (k, (ct, norm, raw, want)) in cases.into_iter().enumerate() {
        let size = if ct == 5120 || ct == 5121 { 4 } else { 8 }; // VEC3 padded to 4 bytes
        let mut d = Doc::default();
        let v = d.view(&raw, Some(size));
        let p = d.accessor(json!({"bufferView": v, "componentType": ct, "normalized": norm, "count": 2, "type": "VEC3"}));
        let mut rest = one_mesh(json!({"attributes": {"POSITION": p}, "mode": 0}));
        let plain = d.write(&dir, &format!("plain{k}"), rest.clone());
        assert!(load_err(&plain).contains("KHR_mesh_quantization"));
        rest["extensionsUsed"] = json!(["KHR_mesh_quantization"]);
        rest["extensionsRequired"] = json!(["KHR_mesh_quantization"]);
        let s = load_ok(&d.write(&dir, &format!("q{k}"), rest));
        // POINTS are a point set: the drawn points, no triangles.
        assert_eq!(s.skipped_primitives, 0);
        assert_eq!(s.extensions, ["KHR_mesh_quantization"]);
        assert_eq!(s.triangle_count(), 0);
        let got: Vec<f64> = s.instances[0]
            .geometry
            .positions
            .iter()
            .flat_map(|q| [q.x, q.y, q.z])
            .collect();
        assert_eq!(got, want, "case {k}");
    }
}

#[test]
fn empty_accessor_sparse_and_instancing() {
    let dir = scratch("misc");
    // count 0: loads, no triangles, no panic.
    let mut d = Doc::default();
    let p = d.accessor(json!({"componentType": 5126, "count": 0, "type": "VEC3"}));
    let s = load_ok(&d.write(
        &dir,
        "empty",
        one_mesh(json!({"attributes": {"POSITION": p}})),
    ));
    assert_eq!((s.triangle_count(), s.vertex_count()), (0, 0));

    // Sparse without a base view: zeros, then the substituted values.
    let mut d = Doc::default();
    let iv = d.view(&[1u8, 2], None);
    let vals: Vec<u8> = [5.0f32, 6.0, 7.0, -1.0, -2.0, -3.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let vv = d.view(&vals, None);
    let p = d.accessor(json!({"componentType": 5126, "count": 3, "type": "VEC3",
        "sparse": {"count": 2, "indices": {"bufferView": iv, "componentType": 5121}, "values": {"bufferView": vv}}}));
    let s = load_ok(&d.write(
        &dir,
        "sparse",
        one_mesh(json!({"attributes": {"POSITION": p}})),
    ));
    let g = &s.instances[0].geometry;
    assert_eq!(
        g.positions,
        vec![
            Point3::origin(),
            Point3::new(5.0, 6.0, 7.0),
            Point3::new(-1.0, -2.0, -3.0)
        ]
    );

    // EXT_mesh_gpu_instancing: 3 instances, translated; a LINES primitive skipped per instance.
    let mut d = Doc::default();
    let p = d.f32_positions(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
    let tv: Vec<u8> = [0.0f32, 0.0, 0.0, 10.0, 0.0, 0.0, 0.0, 20.0, 0.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let v = d.view(&tv, None);
    let t = d.accessor(json!({"bufferView": v, "componentType": 5126, "count": 3, "type": "VEC3"}));
    let l = d.indices(&[0, 1], 5121);
    let rest = json!({
        "extensionsUsed": ["EXT_mesh_gpu_instancing"],
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "translation": [0.0, 0.0, 5.0],
                   "extensions": {"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": t}}}}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": p}}, {"attributes": {"POSITION": p}, "indices": l, "mode": 1}]}]
    });
    let s = load_ok(&d.write(&dir, "inst", rest));
    assert_eq!(s.instances.len(), 3);
    assert_eq!(s.skipped_primitives, 3);
    for (k, inst) in s.instances.iter().enumerate() {
        assert_eq!(inst.instance, k as u32);
        let o = inst.to_world(&Point3::origin());
        assert_eq!(
            o,
            Point3::new([0.0, 10.0, 0.0][k], [0.0, 0.0, 20.0][k], 5.0)
        );
    }
}

#[test]
fn glb_loads_and_truncated_glb_is_refused() {
    let dir = scratch("glb");
    let mut d = Doc::default();
    let p = d.f32_positions(&FIVE);
    let i = d.indices(&[0, 1, 2, 2, 3, 4], 5123);
    let bytes = d.glb(one_mesh(
        json!({"attributes": {"POSITION": p}, "indices": i}),
    ));
    let ok = dir.join("ok.glb");
    std::fs::write(&ok, &bytes).unwrap();
    let s = load_ok(&ok);
    assert_eq!((s.format, s.triangle_count()), (Format::Glb, 2));
    for cut in [bytes.len() - 1, bytes.len() - 20, 30, 11] {
        let bad = dir.join(format!("cut{cut}.glb"));
        std::fs::write(&bad, &bytes[..cut]).unwrap();
        load_err(&bad);
    }
}

/// A refusal case: file name, how to build it, and a word the error must hold.
type Case = (&'static str, Box<dyn Fn(&mut Doc) -> Value>, &'static str);

#[test]
fn invalid_files_are_refused_with_the_reason() {
    let dir = scratch("bad");
    let cases: Vec<Case> = vec![
        (
            "range",
            Box::new(|d: &mut Doc| {
                let p = d.f32_positions(&FIVE);
                let i = d.indices(&[0, 1, 5], 5121);
                one_mesh(json!({"attributes": {"POSITION": p}, "indices": i}))
            }),
            "out of range",
        ),
        (
            "restart",
            Box::new(|d: &mut Doc| {
                let p = d.f32_positions(&FIVE);
                let i = d.indices(&[0, 1, 65535], 5123);
                one_mesh(json!({"attributes": {"POSITION": p}, "indices": i, "mode": 0}))
            }),
            "primitive-restart",
        ),
        (
            "count",
            Box::new(|d: &mut Doc| {
                let p = d.f32_positions(&FIVE[..4]);
                one_mesh(json!({"attributes": {"POSITION": p}}))
            }),
            "multiple of 3",
        ),
        (
            "cycle",
            Box::new(|d: &mut Doc| {
                let p = d.f32_positions(&FIVE[..3]);
                json!({"scenes": [{"nodes": [0]}], "nodes": [{"children": [1]}, {"mesh": 0, "children": [0]}],
                   "meshes": [{"primitives": [{"attributes": {"POSITION": p}}]}]})
            }),
            "cycle",
        ),
        (
            "outside",
            Box::new(|d: &mut Doc| {
                let p = d.f32_positions(&FIVE[..3]);
                d.accessors[p]["count"] = json!(4);
                one_mesh(json!({"attributes": {"POSITION": p}}))
            }),
            "outside bufferView",
        ),
        (
            "noposition",
            Box::new(|d: &mut Doc| {
                let p = d.f32_positions(&FIVE[..3]);
                one_mesh(json!({"attributes": {"NORMAL": p}}))
            }),
            "POSITION",
        ),
        (
            "infinite",
            Box::new(|d: &mut Doc| {
                let p =
                    d.f32_positions(&[[0.0, 0.0, 0.0], [f32::INFINITY, 0.0, 0.0], [0.0, 1.0, 0.0]]);
                one_mesh(json!({"attributes": {"POSITION": p}}))
            }),
            "not finite",
        ),
        (
            "required",
            Box::new(|d: &mut Doc| {
                let p = d.f32_positions(&FIVE[..3]);
                let mut r = one_mesh(json!({"attributes": {"POSITION": p}}));
                r["extensionsRequired"] = json!(["FAKE_geometry"]);
                r
            }),
            "FAKE_geometry",
        ),
        (
            "wrongtype",
            Box::new(|d: &mut Doc| {
                let p = d.f32_positions(&FIVE[..3]);
                let mut r = one_mesh(json!({"attributes": {"POSITION": p}}));
                r["nodes"][0]["mesh"] = json!("zero");
                r
            }),
            "wrong JSON type",
        ),
    ];
    for (name, build, needle) in cases {
        let mut d = Doc::default();
        let rest = build(&mut d);
        let e = load_err(&d.write(&dir, name, rest));
        assert!(e.contains(needle), "{name}: {e}");
    }
}

#[test]
fn uris_outside_the_folder_need_permission() {
    let dir = scratch("uri");
    let inner = dir.join("model");
    std::fs::create_dir_all(&inner).unwrap();
    let mut d = Doc::default();
    let p = d.f32_positions(&FIVE[..3]);
    std::fs::write(dir.join("x.bin"), &d.bin).unwrap();
    std::fs::write(inner.join("my file.bin"), &d.bin).unwrap();
    let rest = one_mesh(json!({"attributes": {"POSITION": p}}));
    let outside = inner.join("outside.gltf");
    std::fs::write(&outside, d.json(Some("../x.bin"), rest.clone()).to_string()).unwrap();
    assert!(load_err(&outside).contains("outside the model's folder"));
    let allowed = load(
        &outside,
        &LoadOptions {
            allow_external_uris: true,
            ..LoadOptions::default()
        },
    )
    .unwrap();
    assert_eq!(allowed.triangle_count(), 1);
    let spaced = inner.join("spaced.gltf");
    std::fs::write(&spaced, d.json(Some("my%20file.bin"), rest).to_string()).unwrap();
    assert_eq!(load_ok(&spaced).triangle_count(), 1);
}

/// `load` of `path` on a thread, failing the test if it is still reading
/// after 5 s (a FIFO blocks a plain read forever).
fn load_within(path: &std::path::Path, opts: LoadOptions) -> Result<Scene, String> {
    let path = path.to_path_buf();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(load(&path, &opts).map_err(|e| e.to_string()));
    });
    rx.recv_timeout(std::time::Duration::from_secs(5))
        .expect("load still reading after 5 s")
}

/// A one-line refusal that names the model and says `needle`.
fn refused_within(path: &std::path::Path, opts: LoadOptions, needle: &str) {
    let e = load_within(path, opts).expect_err("must be refused");
    assert!(!e.contains('\n'), "one line: {e}");
    assert!(
        e.contains(&path.display().to_string()),
        "names the file: {e}"
    );
    assert!(e.contains(needle), "says {needle:?}: {e}");
}

#[test]
fn uris_are_confined_by_their_real_path_and_read_only_regular_files() {
    use std::os::unix::fs::symlink;
    let dir = scratch("realpath");
    let inner = dir.join("model");
    std::fs::create_dir_all(inner.join("sub")).unwrap();
    let mut d = Doc::default();
    let p = d.f32_positions(&FIVE[..3]);
    let rest = one_mesh(json!({"attributes": {"POSITION": p}}));
    // A valid buffer outside the folder: read, it would load without error.
    std::fs::write(dir.join("secret.bin"), &d.bin).unwrap();
    std::fs::write(inner.join("sub/inside.bin"), &d.bin).unwrap();
    symlink("../secret.bin", inner.join("secret_link.bin")).unwrap();
    symlink("..", inner.join("up")).unwrap();
    symlink("/dev/zero", inner.join("zero.bin")).unwrap();
    symlink("sub/inside.bin", inner.join("good_link.bin")).unwrap();
    symlink("sub", inner.join("sub_link")).unwrap();
    let fifo = inner.join("fifo.bin");
    mkfifo(&fifo);
    let model = |name: &str, uri: &str| {
        let path = inner.join(format!("{name}.gltf"));
        std::fs::write(&path, d.json(Some(uri), rest.clone()).to_string()).unwrap();
        path
    };
    let strict = LoadOptions::default();
    let allowed = LoadOptions {
        allow_external_uris: true,
        ..LoadOptions::default()
    };
    for (name, uri) in [
        ("link", "secret_link.bin"),
        ("up", "up/secret.bin"),
        ("zero", "zero.bin"),
    ] {
        let path = model(name, uri);
        refused_within(&path, strict, "outside the model's folder");
        refused_within(&path, strict, uri);
    }
    // The flag lifts the folder rule, and only it.
    assert_eq!(
        load_within(&model("up2", "up/secret.bin"), allowed)
            .unwrap()
            .triangle_count(),
        1
    );
    refused_within(
        &model("zero2", "zero.bin"),
        allowed,
        "is a character device, not a regular file",
    );
    refused_within(
        &model("fifo", "fifo.bin"),
        strict,
        "'fifo.bin': is a FIFO, not a regular file",
    );
    // Links whose targets stay inside the folder are read.
    for (name, uri) in [("good", "good_link.bin"), ("sub", "sub_link/inside.bin")] {
        assert_eq!(
            load_within(&model(name, uri), strict)
                .unwrap()
                .triangle_count(),
            1
        );
    }
    // The model itself: a FIFO, or a link to a device, is refused unread.
    let fifo_model = inner.join("piped.gltf");
    mkfifo(&fifo_model);
    refused_within(&fifo_model, strict, "is a FIFO, not a regular file");
    let zero_model = inner.join("zero.glb");
    symlink("/dev/zero", &zero_model).unwrap();
    refused_within(&zero_model, strict, "is a character device");
    // A file longer than its buffer's byteLength is read up to byteLength.
    let mut long = d.bin.clone();
    long.extend(std::iter::repeat_n(0xAB, 1 << 20));
    std::fs::write(inner.join("long.bin"), &long).unwrap();
    assert_eq!(
        load_within(&model("long", "long.bin"), strict)
            .unwrap()
            .triangle_count(),
        1
    );
}

#[test]
fn control_characters_of_a_uri_are_escaped_in_the_error() {
    let dir = scratch("escape");
    let mut d = Doc::default();
    let p = d.f32_positions(&FIVE[..3]);
    let rest = one_mesh(json!({"attributes": {"POSITION": p}}));
    let path = dir.join("evil.gltf");
    let uri = "x\u{1b}]0;owned\u{7}\r\u{0}.bin";
    std::fs::write(&path, d.json(Some(uri), rest).to_string()).unwrap();
    let e = load_err(&path);
    assert!(
        !e.chars().any(|c| c.is_control()),
        "raw control characters: {e:?}"
    );
    assert!(e.contains(r"x\u{1b}]0;owned\u{7}\r\0.bin"), "{e}");
}
