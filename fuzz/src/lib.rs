//! What the fuzz targets share: loading from bytes as the command line
//! would, and the invariants every answer must keep. A target panics (AFL
//! records a crash) only when bvtool itself panics or an invariant breaks;
//! a refused input is a normal outcome.

use bvtool::Pose;
use bvtool::Scene;
use bvtool::clash::{self_intersections, self_intersections_brute_force};
use bvtool::fit::{Aabb, ObbMethod, SphereMethod};
use bvtool::load::{LoadOptions, load_bytes};
use bvtool::query::{ContactMode, brute_force, collide};
use bvtool::volumes::{FileVolumes, FitOptions, Frame};
use bvtool::tree::{AabbTree, ObbTree};
use nalgebra::{UnitQuaternion, Vector3};
use std::path::Path;

/// Above this many flattened triangles the pipeline target only loads (so
/// that one slow input does not stall the campaign; the limits themselves
/// are the loaders' business).
pub const PIPELINE_MAX_TRIANGLES: usize = 4096;

/// Brute force cross-checks the collision below this many triangles.
pub const BRUTE_FORCE_MAX_TRIANGLES: usize = 300;

/// One worker thread: AFL runs one target per core, and `-m` limits the
/// address space, which rayon's per-thread arenas would otherwise eat.
pub fn single_thread() {
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global();
}

/// Loads `bytes` as a file with extension `ext`, with the command line's
/// default limits. The file sits in a folder that does not exist, so an
/// external buffer URI can never read a real file.
pub fn load(ext: &str, bytes: &[u8]) -> Option<Scene> {
    let path = format!("/nonexistent-bvtool-fuzz/input.{ext}");
    load_bytes(Path::new(&path), bytes, &LoadOptions::default()).ok()
}

/// The extension the command line would need for these bytes: GLB by magic,
/// glTF JSON by a leading `{`, binary STL by its size rule, else OBJ (ASCII
/// STL is fuzzed by its own target).
pub fn sniff(bytes: &[u8]) -> &'static str {
    if bytes.starts_with(b"glTF") {
        "glb"
    } else if bytes.trim_ascii_start().starts_with(b"{") {
        "gltf"
    } else if bytes.len() >= 84
        && bytes.len() as u64
            == 84 + 50 * u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64
    {
        "stl"
    } else {
        "obj"
    }
}

/// Keys of an answer whose value may be null: what a file need not give
/// (a node for OBJ and STL, a name) and ratios to a hull volume of 0 (flat
/// points; docs/json.md). Any other null is a number serde_json could not
/// write: NaN or an infinity.
const MAY_BE_NULL: &[&str] = &[
    "node",
    "node_name",
    "mesh_name",
    "extra_volume_ratio",
    "hull_ratio",
];

/// Every number of a JSON answer is finite (serde_json writes NaN and
/// infinities as null).
fn assert_finite(v: &serde_json::Value, what: &str) {
    match v {
        serde_json::Value::Number(n) => {
            assert!(n.as_f64().is_some_and(f64::is_finite), "{what}: {n}")
        }
        serde_json::Value::Null => panic!("{what}: null (NaN or infinity) in an answer"),
        serde_json::Value::Array(a) => a.iter().for_each(|x| assert_finite(x, what)),
        serde_json::Value::Object(o) => o
            .iter()
            .filter(|(k, x)| !(x.is_null() && MAY_BE_NULL.contains(&k.as_str())))
            .for_each(|(_, x)| assert_finite(x, what)),
        _ => {}
    }
}

/// The whole pipeline on a loaded scene: every fit (world and per mesh),
/// the OBB tree, and the tree against itself at a small offset and turn.
/// Invariants: fitted numbers are finite; the fitted boxes and spheres hold
/// every vertex; the collision equals brute force on small meshes; a coarse
/// convex decomposition is refused only as flat (or voxel-less) and holds
/// every vertex.
pub fn pipeline(scene: &Scene) {
    let n = scene.triangle_count();
    if n == 0 || n > PIPELINE_MAX_TRIANGLES {
        return;
    }
    // Each skinned instance's bones (what `export --shape` fits): every
    // vertex in the accepted range, in its joint's frame or the world's.
    for inst in &scene.instances {
        let Some(skin) = &inst.skin else { continue };
        for bone in skin.bones(inst, true) {
            let g = &bone.instance.geometry;
            assert!(
                g.positions
                    .iter()
                    .flat_map(|p| p.iter())
                    .all(|x| x.abs() <= bvtool::mesh::MAX_COORDINATE),
                "a bone's vertex out of range"
            );
        }
    }
    let opts = FitOptions {
        obb_methods: ObbMethod::ALL.to_vec(),
        sphere_methods: SphereMethod::ALL.to_vec(),
        all_methods: true,
        all_vertices: false,
        per_mesh: true,
        frame: Frame::World,
        check: false,
        shapes: bvtool::fit::ShapeSpec::parse_list("kdop26, capsule, cylinder, hull:64, best")
            .expect("a valid list"),
        decompose_options: Default::default(),
        air: true,
    };
    if let Ok(v) = FileVolumes::new("fuzz", scene, &opts) {
        let json = serde_json::to_value(&v).expect("volumes serialize");
        assert_finite(&json, "fit");
    }
    let mesh = scene.flatten();
    let tree = ObbTree::build(&mesh);
    let Some(b) = Aabb::from_points(&mesh.vertices) else {
        return;
    };
    let d = (b.max - b.min).norm();
    let pose = Pose::new(
        Vector3::new(0.01 * d, 0.005 * d, 0.0),
        UnitQuaternion::from_euler_angles(0.1, 0.2, 0.3),
    );
    let c = collide(&tree, &tree, &pose, ContactMode::All);
    let first = collide(&tree, &tree, &pose, ContactMode::First);
    assert_eq!(
        c.intersecting, first.intersecting,
        "first contact vs all pairs"
    );
    if n <= BRUTE_FORCE_MAX_TRIANGLES {
        assert_eq!(
            c.pairs,
            brute_force(&mesh, &mesh, &pose),
            "tree vs brute force"
        );
    }
    // Self-intersection on the AABB tree against every pair.
    let found = self_intersections(&AabbTree::build(&mesh));
    if n <= BRUTE_FORCE_MAX_TRIANGLES {
        assert_eq!(
            found,
            self_intersections_brute_force(&mesh),
            "self: tree vs brute force"
        );
    }
    // Convex decomposition (coarse): refused only as flat, and then every
    // vertex the triangles use lies in some part.
    let coarse = bvtool::fit::DecomposeOptions {
        max_hulls: 4,
        max_vertices: 16,
        resolution: 16,
    };
    match bvtool::fit::decompose(&mesh.vertices, &mesh.triangles, &coarse) {
        Ok(parts) => {
            let hulls: Vec<_> = parts
                .parts
                .iter()
                .map(|p| bvtool::fit::ConvexHull::new(&p.vertices).expect("part hull"))
                .collect();
            for &i in mesh.triangles.iter().flatten() {
                let p = mesh.vertices[i as usize];
                assert!(hulls.iter().any(|h| h.contains(&p)), "vertex in no part");
            }
        }
        Err(e) => assert!(
            matches!(
                e,
                bvtool::fit::DecomposeError::Flat | bvtool::fit::DecomposeError::NoParts(_)
            ),
            "decompose: {e}"
        ),
    }
}
