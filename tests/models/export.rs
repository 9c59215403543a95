//! Real models through every export format: the JSON validates against the
//! schema and reads back identically, the binary form reads back and its
//! f32 volumes and tree boxes contain every vertex, its colliders equal the
//! JSON's to f32 rounding and, placed by their nodes, contain every vertex,
//! the C header is produced with them, and the glTF export keeps every triangle, carries colliders of
//! every shape (per mesh instance, attached to its node, and for the whole
//! scene) containing every vertex and passes the Khronos validator when
//! installed.

use bvtool_dev as common;
use bvtool_dev::export_check as export_support;

use bvtool::export::gltf::GltfOptions;
use bvtool::export::{ExportDoc, ExportOptions, Format, bin, c_header, json, render};
use bvtool::fit::{ObbMethod, SphereMethod};
use export_support::bin_check::{assert_holds_every_vertex, assert_matches_json};
use export_support::gltf_check::{assert_contains, bvtool_reload, drawn, parse, validator_errors};
use export_support::schema::schema_errors;
use export_support::{ALL_SHAPES, fit_options};

const MODELS: [&str; 6] = [
    "gltf/Duck/glTF-Binary/Duck.glb",
    "gltf/Duck/glTF/Duck.gltf",
    "gltf/2CylinderEngine/glTF-Binary/2CylinderEngine.glb",
    "obj/stanford-bunny.obj",
    "stl/assimp/Spider_binary.stl",
    "stl/assimp/sphereWithHole.stl",
];

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn real_models_export_in_every_format() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let out = bvtool_dev::scratch!("models-export");
    for rel in MODELS {
        let path = dir.join(rel);
        let scene = match bvtool::load::load(&path, &Default::default()) {
            Ok(s) => s,
            Err(e) if e.to_string().contains("not implemented") => {
                eprintln!("skipping {rel}: {e}");
                continue;
            }
            Err(e) => panic!("{rel}: {e}"),
        };
        let opts = ExportOptions {
            shapes: ALL_SHAPES.to_vec(),
            whole: true,
            ..ExportOptions::volumes(
                fit_options(ObbMethod::Tight, SphereMethod::Exact, true),
                true,
            )
        };
        let doc = ExportDoc::new(rel, &scene, &opts).unwrap();

        let text = json::to_string(&doc);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(schema_errors(&v), Vec::<String>::new(), "{rel}");
        assert!(
            serde_json::from_str::<ExportDoc>(&text).unwrap() == doc,
            "{rel}: JSON round trip"
        );

        let f = bin::read(&bin::write(&doc).unwrap()).unwrap();
        assert_eq!(f.triangles.len(), scene.triangle_count(), "{rel}");
        let v0 = &f.volumes[0];
        for p in scene.world_points(false) {
            let q = [p.x, p.y, p.z];
            let q32 = q.map(|x| x as f32);
            assert!(
                v0.obb.contains_f64(q) && v0.obb.contains_f32(q32),
                "{rel}: OBB misses {p}"
            );
            assert!(
                v0.aabb.contains_f64(q) && v0.sphere.contains_f32(q32),
                "{rel}: {p}"
            );
        }
        for n in &f.nodes {
            for t in &f.triangles[n.first as usize..(n.first + n.count) as usize] {
                for &k in t {
                    assert!(
                        n.obb.contains_f32(f.vertices[k as usize]),
                        "{rel}: node box"
                    );
                }
            }
        }

        assert_matches_json(rel, &doc, &f.colliders);
        assert_holds_every_vertex(rel, &scene, &doc, &f.colliders);

        let header = c_header::to_string(&doc);
        assert!(header.contains(&format!("{}_nodes[]", c_header::prefix(rel))));
        assert!(header.contains(&format!("{}_colliders[]", c_header::prefix(rel))));

        let glb = out.join("export.glb");
        let gopts = GltfOptions {
            binary: true,
            debug_lines: true,
            allow_external_uris: false,
            naming: None,
        };
        let bytes = render(&scene, &doc, Format::Gltf, &gopts).unwrap();
        std::fs::write(&glb, &bytes).unwrap();
        let o = parse(&bytes);
        let (tris, lines, _) = drawn(&o);
        assert_eq!(tris, scene.triangle_count(), "{rel}: triangles");
        assert_eq!(
            lines,
            doc.colliders.len() + scene.skipped_primitives,
            "{rel}: debug lines"
        );
        let seen = assert_contains(&o, &scene, &doc);
        eprintln!("{rel}: {} colliders, {seen:?}", doc.colliders.len());
        if let Some((errors, report)) = validator_errors(&glb) {
            assert_eq!(errors, 0, "{rel}: {report}");
        }
        bvtool_reload(&glb, tris, lines + scene.skipped_primitives);
    }
    std::fs::remove_dir_all(out).ok();
}

/// glTF models with node hierarchies, rotations, a mirrored node and GPU
/// instancing: every collider of every shape hangs under its own node (or,
/// for non-similar transforms and GPU instances, sits in the world frame),
/// contains every vertex it bounds as the file places both, and the output
/// passes the Khronos validator.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn real_gltf_hierarchies_get_colliders_on_their_nodes() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let out = bvtool_dev::scratch!("models-hierarchies");
    for rel in [
        "gltf/OrientationTest/glTF-Binary/OrientationTest.glb",
        "gltf/NegativeScaleTest/glTF-Binary/NegativeScaleTest.glb",
        "gltf/SimpleInstancing/glTF-Binary/SimpleInstancing.glb",
        "gltf/2CylinderEngine/glTF-Binary/2CylinderEngine.glb",
    ] {
        let scene = bvtool::load::load(&dir.join(rel), &Default::default()).unwrap();
        let doc = export_support::doc_with(&scene, &ALL_SHAPES, true);
        let bytes = render(&scene, &doc, Format::Gltf, &GltfOptions::default()).unwrap();
        let o = parse(&bytes);
        if !scene
            .extensions
            .iter()
            .any(|e| e == "EXT_mesh_gpu_instancing")
        {
            assert_eq!(drawn(&o).0, scene.triangle_count(), "{rel}");
        }
        let seen = assert_contains(&o, &scene, &doc);
        eprintln!("{rel}: {} colliders, {seen:?}", doc.colliders.len());
        if rel.contains("SimpleInstancing") {
            assert_eq!(seen.local, 0, "{rel}: GPU instances are in the world frame");
        } else {
            assert!(seen.local > 0, "{rel}");
        }
        let file = out.join("hierarchy.glb");
        std::fs::write(&file, &bytes).unwrap();
        if let Some((errors, report)) = validator_errors(&file) {
            assert_eq!(errors, 0, "{rel}: {report}");
        }
    }
    std::fs::remove_dir_all(out).ok();
}
