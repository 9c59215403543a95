//! Writes a large bench scene whose clashes are known by construction (issue
//! 14): copies of corpus models on a grid, every fourth cell holding a second
//! copy that overlaps the first.
//!
//! ```text
//! cargo run --release -p bvtool-dev --bin grid_scene -- OUT.glb [TRIANGLES]
//! ```
//!
//! TRIANGLES (default 10,000,000) is the least number of triangles the scene
//! flattens to. The models — the 69k Stanford bunny, `2CylinderEngine`
//! (flattened) and the samurai monastery, read from `$BVTOOL_MODELS` (default
//! `../shared/models`) — are stored once each, centred and scaled to a
//! bounding-box diagonal of 1, and placed by nodes: cell `(i, j)` is centred
//! at `(4i, 0, 4j)`, holds one model turned by a random rotation and scaled
//! by its own factor in [0.95, 1] (so `clash` builds one tree per instance:
//! 10 M triangles of trees, not three). In every fourth cell a partner copy
//! of the same model, same rotation and scale, sits 0.3 further along +X.
//!
//! The answer is known:
//! - no two cells can meet: each cell's content lies within 0.5 + 0.3 of its
//!   centre and centres are 4 apart;
//! - each partner pair overlaps: the copies are one translation of 0.3 apart,
//!   less than the models' extent along X (≥ 0.35 for all three), so their
//!   surfaces cross. `tests/models_grid_scene.rs` checks that `clash` finds
//!   exactly these pairs on a smaller grid.
//!
//! Beside OUT.glb it writes `OUT.expected.json` (the partner pairs' node
//! names) and `OUT.poses.json`, 100 poses for `models/torus.obj` as B
//! against the scene as A: 50 with the torus's tube through a part's centre
//! (contact expected but not guaranteed) and 50 at cell corners, at least
//! 0.68 from every part (separated by construction).
//!
//! `benches/grid_scene.sh` makes the 10 M-triangle scene and measures load,
//! build, clash, the pose batches and peak memory.

use bvtool::load::{LoadOptions, TriangleLimit};
use bvtool::{Scene, TriMesh};
use nalgebra::{UnitQuaternion, Vector3};
use serde_json::json;
use std::path::{Path, PathBuf};

/// The corpus models of the grid, by path below the model folder.
const MODELS: [&str; 3] = [
    "obj/common-3d-test-models/stanford-bunny.obj",
    "gltf/2CylinderEngine/glTF/2CylinderEngine.gltf",
    "obj/common-3d-test-models/nefertiti.obj",
];

/// Distance between cell centres.
const SPACING: f64 = 4.0;
/// Offset of a partner copy along +X.
const PARTNER_OFFSET: f64 = 0.3;

/// A model centred at the origin and scaled to a bounding-box diagonal of 1,
/// as the `f32` arrays the file stores.
struct Unit {
    name: String,
    positions: Vec<[f32; 3]>,
    indices: Vec<[u32; 3]>,
}

impl Unit {
    fn of(name: &str, mesh: &TriMesh) -> Unit {
        let (mut lo, mut hi) = (Vector3::repeat(f64::MAX), Vector3::repeat(f64::MIN));
        for p in &mesh.vertices {
            lo = lo.inf(&p.coords);
            hi = hi.sup(&p.coords);
        }
        let (center, scale) = ((lo + hi) / 2.0, 1.0 / (hi - lo).norm());
        Unit {
            name: name.to_string(),
            positions: mesh
                .vertices
                .iter()
                .map(|p| ((p.coords - center) * scale).map(|x| x as f32).into())
                .collect(),
            indices: mesh.triangles.clone(),
        }
    }
}

/// A deterministic source of numbers in [0, 1) (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniformly random rotation (Shoemake).
    fn rotation(&mut self) -> UnitQuaternion<f64> {
        let (u1, u2, u3) = (self.next(), self.next(), self.next());
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        let tau = std::f64::consts::TAU;
        UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
            b * (tau * u3).cos(),
            a * (tau * u2).sin(),
            a * (tau * u2).cos(),
            b * (tau * u3).sin(),
        ))
    }
}

/// One placed copy: a node of the file.
struct Placed {
    name: String,
    unit: usize,
    translation: Vector3<f64>,
    rotation: UnitQuaternion<f64>,
    scale: f64,
}

impl Placed {
    fn node(&self) -> serde_json::Value {
        let q = self.rotation.coords;
        json!({
            "name": self.name,
            "mesh": self.unit,
            "translation": [self.translation.x, self.translation.y, self.translation.z],
            "rotation": [q.x, q.y, q.z, q.w],
            "scale": [self.scale, self.scale, self.scale],
        })
    }
}

/// Cells in row-major order on a square grid until the copies hold at least
/// `target` triangles (one cell at least).
fn layout(units: &[Unit], target: usize) -> (Vec<Placed>, Vec<[String; 2]>) {
    let mut rng = Rng(14);
    let (mut copies, mut pairs, mut total) = (Vec::new(), Vec::new(), 0);
    let mut cells = Vec::new();
    // At least one cell, so that the poses have a part to aim at.
    let mut k = 0;
    loop {
        let unit = k % units.len();
        total += units[unit].indices.len() * if k % 4 == 0 { 2 } else { 1 };
        cells.push(unit);
        k += 1;
        if total >= target {
            break;
        }
    }
    let side = (cells.len() as f64).sqrt().ceil() as usize;
    for (k, &unit) in cells.iter().enumerate() {
        let (i, j) = (k % side, k / side);
        let name = format!("cell_{i}_{j}_{}", units[unit].name);
        let copy = Placed {
            name: name.clone(),
            unit,
            translation: Vector3::new(SPACING * i as f64, 0.0, SPACING * j as f64),
            rotation: rng.rotation(),
            scale: 0.95 + 0.05 * rng.next(),
        };
        if k % 4 == 0 {
            let partner = Placed {
                name: format!("{name}_partner"),
                translation: copy.translation + Vector3::x() * PARTNER_OFFSET,
                ..copy
            };
            pairs.push([copy.name.clone(), partner.name.clone()]);
            copies.push(copy);
            copies.push(partner);
        } else {
            copies.push(copy);
        }
    }
    (copies, pairs)
}

/// 100 poses of the torus (major radius 1 about +Z): 50 with its ring point
/// `(1, 0, 0)` at a part's centre, 50 centred on cell corners.
fn poses(copies: &[Placed]) -> serde_json::Value {
    let mut rng = Rng(9);
    let cells: Vec<&Placed> = copies
        .iter()
        .filter(|c| !c.name.ends_with("_partner"))
        .collect();
    let pose = |t: Vector3<f64>, q: UnitQuaternion<f64>| {
        let c = q.coords;
        json!({"translation": [t.x, t.y, t.z], "rotation": [c.x, c.y, c.z, c.w]})
    };
    let mut out = Vec::new();
    for k in 0..50 {
        let cell = cells[k * cells.len() / 50];
        let q = rng.rotation();
        out.push(pose(cell.translation - q * Vector3::x(), q));
    }
    for k in 0..50 {
        let cell = cells[k * cells.len() / 50];
        let corner = cell.translation + Vector3::new(SPACING / 2.0, 0.0, SPACING / 2.0);
        out.push(pose(corner, rng.rotation()));
    }
    serde_json::Value::Array(out)
}

/// The GLB bytes: the units' arrays in one buffer, one mesh per unit, one
/// node per copy.
fn glb(units: &[Unit], copies: &[Placed]) -> Vec<u8> {
    let (mut bin, mut views, mut accessors, mut meshes) = (vec![], vec![], vec![], vec![]);
    for (u, unit) in units.iter().enumerate() {
        let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
        let start = bin.len();
        for p in &unit.positions {
            for a in 0..3 {
                lo[a] = lo[a].min(p[a]);
                hi[a] = hi[a].max(p[a]);
                bin.extend_from_slice(&p[a].to_le_bytes());
            }
        }
        views.push(json!({"buffer": 0, "byteOffset": start, "byteLength": bin.len() - start, "target": 34962}));
        let start = bin.len();
        bin.extend(unit.indices.iter().flatten().flat_map(|i| i.to_le_bytes()));
        views.push(json!({"buffer": 0, "byteOffset": start, "byteLength": bin.len() - start, "target": 34963}));
        accessors.push(json!({"bufferView": 2 * u, "componentType": 5126, "count": unit.positions.len(), "type": "VEC3", "min": lo, "max": hi}));
        accessors.push(json!({"bufferView": 2 * u + 1, "componentType": 5125, "count": 3 * unit.indices.len(), "type": "SCALAR"}));
        meshes.push(json!({"name": unit.name, "primitives": [{"attributes": {"POSITION": 2 * u}, "indices": 2 * u + 1}]}));
    }
    let doc = json!({
        "asset": {"version": "2.0", "generator": "bvtool examples/grid_scene.rs"},
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": views,
        "accessors": accessors,
        "meshes": meshes,
        "nodes": copies.iter().map(Placed::node).collect::<Vec<_>>(),
        "scenes": [{"nodes": (0..copies.len()).collect::<Vec<_>>()}],
        "scene": 0,
    });
    let mut text = serde_json::to_vec(&doc).expect("JSON of plain values");
    text.resize(text.len().next_multiple_of(4), b' ');
    bin.resize(bin.len().next_multiple_of(4), 0);
    let mut out = Vec::with_capacity(28 + text.len() + bin.len());
    let total = 12 + 8 + text.len() + 8 + bin.len();
    for word in [0x4654_6c67, 2, total as u32, text.len() as u32, 0x4e4f_534a] {
        out.extend_from_slice(&u32::to_le_bytes(word));
    }
    out.extend_from_slice(&text);
    for word in [bin.len() as u32, 0x004e_4942] {
        out.extend_from_slice(&u32::to_le_bytes(word));
    }
    out.extend_from_slice(&bin);
    out
}

fn load(models: &Path, rel: &str) -> Result<TriMesh, String> {
    let opts = LoadOptions {
        max_triangles: TriangleLimit::Unlimited,
        ..LoadOptions::default()
    };
    let scene: Scene = bvtool::load::load(&models.join(rel), &opts).map_err(|e| e.to_string())?;
    Ok(scene.flatten())
}

/// What [`write`](fn@write) made.
pub struct Made {
    /// Nodes (placed copies).
    pub nodes: usize,
    /// Triangles the scene flattens to.
    pub triangles: usize,
    /// Pairs overlapping by construction.
    pub pairs: usize,
}

/// Writes the scene of at least `target` triangles to `out` (GLB), with
/// `out.expected.json` and `out.poses.json` beside it, from the corpus at
/// `models`.
pub fn write(out: &Path, target: usize, models: &Path) -> Result<Made, String> {
    let units = MODELS
        .iter()
        .map(|rel| {
            let stem = Path::new(rel).file_stem().unwrap().to_string_lossy();
            Ok(Unit::of(&stem, &load(models, rel)?))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let (copies, pairs) = layout(&units, target);
    let write = |path: PathBuf, bytes: Vec<u8>| {
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    };
    write(out.to_path_buf(), glb(&units, &copies))?;
    write(
        out.with_extension("expected.json"),
        serde_json::to_vec_pretty(&json!({ "clashing_node_pairs": pairs })).unwrap(),
    )?;
    write(
        out.with_extension("poses.json"),
        serde_json::to_vec(&poses(&copies)).unwrap(),
    )?;
    Ok(Made {
        nodes: copies.len(),
        triangles: copies.iter().map(|c| units[c.unit].indices.len()).sum(),
        pairs: pairs.len(),
    })
}
