//! `clash` on instanced scenes: its triangle limit counts the trees it
//! builds, each once however many instances share it, so a scene of many
//! instances of one mesh is answered (it was refused when the limit
//! counted every instance), and the answer equals that of the same scene
//! flattened into an OBJ of one object per instance (no tree shared).

use serde_json::Value;
use std::path::{Path, PathBuf};

/// A folder of its own for one test.
fn temp_dir(test: &str) -> PathBuf {
    bvtool_dev::scratch!(format!("clashinst-{test}"))
}

/// The unit cube's corners, centred on the origin (half side 0.5).
fn cube_corners() -> Vec<[f64; 3]> {
    (0..8)
        .map(|i| {
            let s = |bit: usize| if i >> bit & 1 == 1 { 0.5 } else { -0.5 };
            [s(0), s(1), s(2)]
        })
        .collect()
}

/// Its 12 triangles, wound outward.
const CUBE: [[u16; 3]; 12] = [
    [0, 2, 1],
    [1, 2, 3],
    [4, 5, 6],
    [5, 7, 6],
    [0, 1, 4],
    [1, 5, 4],
    [2, 6, 3],
    [3, 6, 7],
    [0, 4, 2],
    [2, 4, 6],
    [1, 3, 5],
    [3, 7, 5],
];

/// One placement of the cube: uniform scale, then translation (every
/// number a short binary fraction, so every coordinate is exact in f32
/// and f64, placed or not).
type Placement = (f64, [f64; 3]);

/// A glTF of one cube mesh placed by one node per placement.
fn instanced(dir: &Path, name: &str, placements: &[Placement]) -> PathBuf {
    use base64::Engine;
    let mut bytes = Vec::new();
    for c in cube_corners().iter().flatten() {
        bytes.extend_from_slice(&(*c as f32).to_le_bytes());
    }
    for i in CUBE.iter().flatten() {
        bytes.extend_from_slice(&i.to_le_bytes());
    }
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    );
    let nodes: Vec<Value> = placements
        .iter()
        .map(|(s, t)| serde_json::json!({"mesh": 0, "scale": [s, s, s], "translation": t}))
        .collect();
    let doc = serde_json::json!({
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": bytes.len(), "uri": uri}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 96},
            {"buffer": 0, "byteOffset": 96, "byteLength": 72}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
             "min": [-0.5, -0.5, -0.5], "max": [0.5, 0.5, 0.5]},
            {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "nodes": nodes,
        "scenes": [{"nodes": (0..placements.len()).collect::<Vec<_>>()}],
        "scene": 0
    });
    let path = dir.join(format!("{name}.gltf"));
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

/// The same scene flattened: an OBJ with one object per placement, its
/// corners placed (exactly: short binary fractions).
fn flattened(dir: &Path, name: &str, placements: &[Placement]) -> PathBuf {
    let mut text = String::new();
    for (k, (s, t)) in placements.iter().enumerate() {
        text += &format!("o cube{k}\n");
        for c in cube_corners() {
            text += &format!(
                "v {:?} {:?} {:?}\n",
                s * c[0] + t[0],
                s * c[1] + t[1],
                s * c[2] + t[2]
            );
        }
        for f in CUBE {
            let v = |i: u16| 8 * k + i as usize + 1;
            text += &format!("f {} {} {}\n", v(f[0]), v(f[1]), v(f[2]));
        }
    }
    let path = dir.join(format!("{name}.obj"));
    std::fs::write(&path, text).unwrap();
    path
}

fn clash_json(args: &[&str]) -> Value {
    let (code, out, err) = bvtool_dev::bvtool!(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// Rows of 8 cubes: overlapping (spacing 0.75 sides, every other cube
/// shifted a quarter side: crossing), touching (1, aligned) and apart
/// (1.5), at scale
/// 1 and 2 (a second tree), and a quarter-size cube
/// inside a big one (a third): 56 instances, 672 triangles flattened, 36
/// in the trees. With `--max-triangles 100` the instanced scene is
/// answered and the OBJ (a tree per object) refused; the clashes (pairs, kinds, counts, which
/// is inside) equal the OBJ's with its default limit.
#[test]
fn instanced_scene_equals_its_flattened_answer() {
    let dir = temp_dir("equal");
    let mut placements: Vec<Placement> = Vec::new();
    for (row, (scale, spacing)) in [
        (1.0, 0.75),
        (1.0, 1.0),
        (1.0, 1.5),
        (2.0, 1.75),
        (2.0, 2.0),
        (2.0, 3.0),
    ]
    .into_iter()
    .enumerate()
    {
        for i in 0..8 {
            // In the overlapping rows every other cube a quarter of its side
            // up and out: no face of a neighbour is coplanar, so they cross
            // (aligned, they would only touch).
            let shift = match spacing < scale {
                true => 0.25 * scale * (i % 2) as f64,
                false => 0.0,
            };
            placements.push((scale, [spacing * i as f64, 8.0 * row as f64 + shift, shift]));
        }
    }
    for i in 0..4 {
        placements.push((2.0, [6.0 * i as f64, -8.0, 0.0]));
        placements.push((0.25, [6.0 * i as f64 + 0.5, -8.0, 0.25]));
    }
    let gltf = instanced(&dir, "cubes", &placements);
    let obj = flattened(&dir, "cubes", &placements);
    let (g, o) = (gltf.to_str().unwrap(), obj.to_str().unwrap());
    let ours = clash_json(&["clash", g, "--json", "--max-triangles", "100"]);
    let (code, _, err) = bvtool_dev::bvtool!(&["clash", o, "--max-triangles", "100"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("672 triangles") && err.contains("--max-triangles"),
        "{err}"
    );
    let flat = clash_json(&["clash", o, "--json"]);
    assert_eq!(ours["summary"]["trees"], 3, "{}", ours["summary"]);
    assert_eq!(flat["summary"]["trees"], 56, "{}", flat["summary"]);
    let keys = [
        "a",
        "b",
        "kind",
        "triangle_pairs",
        "crossing_pairs",
        "inside",
    ];
    let pick = |doc: &Value| -> Vec<Vec<Value>> {
        doc["clashes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| keys.iter().map(|k| c[*k].clone()).collect())
            .collect()
    };
    assert_eq!(pick(&ours), pick(&flat));
    // Per row of 8 overlapping or touching cubes, 7 neighbour pairs; the
    // four small cubes inside.
    let s = &ours["summary"];
    assert_eq!(s["intersecting"], 14, "{s}");
    assert_eq!(s["touching"], 14, "{s}");
    assert_eq!(s["contained"], 4, "{s}");
    // --self counts each mesh once too: one cube, no self-intersection.
    let own = clash_json(&["clash", "--self", g, "--json", "--max-triangles", "100"]);
    assert_eq!(own["files"][0]["meshes"].as_array().unwrap().len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// 20,000 nodes of one cube (240,000 triangles flattened, 12 in its one
/// tree) in 100 rows of 200, every tenth row of touching cubes and the
/// others half a side apart, with the limit at 100,000 (which the
/// flattened count passes: refused before): every neighbour pair of the
/// touching rows is found touching (10 × 199), and nothing else.
#[test]
fn twenty_thousand_instances_of_one_tree() {
    let dir = temp_dir("many");
    let placements: Vec<Placement> = (0..20_000)
        .map(|k| {
            let (row, i) = (k / 200, (k % 200) as f64);
            let spacing = if row % 10 == 0 { 1.0 } else { 1.5 };
            (1.0, [spacing * i, 4.0 * row as f64, 0.0])
        })
        .collect();
    let gltf = instanced(&dir, "many", &placements);
    let doc = clash_json(&[
        "clash",
        gltf.to_str().unwrap(),
        "--json",
        "--max-triangles",
        "100000",
    ]);
    let s = &doc["summary"];
    assert_eq!(s["trees"], 1, "{s}");
    assert_eq!(s["parts"], 20_000, "{s}");
    assert_eq!(s["touching"], 10 * 199, "{s}");
    assert_eq!(s["clashing_pairs"], 10 * 199, "{s}");
    std::fs::remove_dir_all(&dir).unwrap();
}
