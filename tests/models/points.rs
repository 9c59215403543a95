//! glTF POINTS primitives as point clouds: `fit` bounds exactly the points
//! (its AABB equals the POSITION accessor's `min`/`max`, read from the file's
//! JSON — the writer's own bounds; the OBB and sphere hold every point), and
//! the commands that need triangles refuse them with one line.

use bvtool_dev as common;

use bvtool::fit::{Obb, Sphere};
use nalgebra::{Matrix3, Point3, Vector3};
use serde_json::Value;

fn arr3(v: &Value) -> [f64; 3] {
    std::array::from_fn(|i| v[i].as_f64().unwrap())
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn points_primitives_are_bounded() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let folder = dir.join("gltf-asset-generator/Positive/Mesh_PrimitiveMode");
    // 00: POINTS without indices; 07: POINTS with indices.
    for k in ["00", "07"] {
        let path = folder.join(format!("Mesh_PrimitiveMode_{k}.gltf"));
        let root: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let prim = &root["meshes"][0]["primitives"][0];
        assert_eq!(prim["mode"], 0);
        let acc = &root["accessors"][prim["attributes"]["POSITION"].as_u64().unwrap() as usize];
        let (amin, amax) = (arr3(&acc["min"]), arr3(&acc["max"]));
        let file = path.to_str().unwrap();
        let (code, out, err) =
            common::bvtool!(&["fit", file, "--obb", "all", "--sphere", "all", "--json"]);
        assert_eq!(code, 0, "{err}");
        let doc: Value = serde_json::from_str(&out).unwrap();
        let f = &doc["files"][0];
        assert_eq!(f["triangles"], 0);
        // The accessor bounds are f32; the points widen to f64 exactly.
        for i in 0..3 {
            assert_eq!(
                f["aabb"]["min"][i].as_f64().unwrap(),
                amin[i] as f32 as f64,
                "{k}"
            );
            assert_eq!(
                f["aabb"]["max"][i].as_f64().unwrap(),
                amax[i] as f32 as f64,
                "{k}"
            );
        }
        // Every point inside every OBB and sphere.
        let scene = bvtool::load::load(&path, &Default::default()).unwrap();
        let points = scene.world_points(true);
        assert!(!points.is_empty());
        assert_eq!(f["vertices"].as_u64().unwrap() as usize, points.len());
        for b in f["obbs"].as_object().unwrap().values() {
            let axes =
                Matrix3::from_columns(&[0, 1, 2].map(|i| Vector3::from(arr3(&b["axes"][i]))));
            let obb = Obb {
                center: Point3::from(arr3(&b["center"])),
                axes,
                half_extents: Vector3::from(arr3(&b["half_extents"])),
            };
            assert!(points.iter().all(|p| obb.contains(p, 0.0)), "{k}: {b}");
        }
        for s in f["spheres"].as_object().unwrap().values() {
            let sphere = Sphere {
                center: Point3::from(arr3(&s["center"])),
                radius: s["radius"].as_f64().unwrap(),
            };
            assert!(points.iter().all(|p| sphere.contains(p, 0.0)), "{k}: {s}");
        }
        for cmd in [
            &["tree", file][..],
            &["collide", file, file, "--pose", "0,0,0"],
        ] {
            let (code, _, err) = common::bvtool!(cmd);
            assert_eq!(code, 1, "{cmd:?}");
            assert!(
                err.trim().lines().count() == 1 && err.contains("no triangles"),
                "{cmd:?}: {err}"
            );
        }
    }
}
