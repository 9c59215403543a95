//! The glTF loader on the real corpus (`$BVTOOL_MODELS`): manifest counts
//! and refusals for every glTF/GLB entry, accessor `min`/`max` against the
//! loaded positions, the Duck in five encodings, and the feature files the
//! manifest lists (instancing, mirroring, primitive modes, sparse,
//! compatibility, meshopt).

use bvtool_dev as common;

use bvtool::load::{LoadOptions, load};
use bvtool::{Scene, fit::Aabb};
use nalgebra::{Matrix3, Point3, Vector3};
use serde_json::Value;
use std::path::Path;

fn is_gltf(e: &common::Entry) -> bool {
    e.format.starts_with("gl")
}

/// The glTF JSON of a `.gltf` or `.glb`, parsed independently of the loader.
fn raw_json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap();
    if bytes.starts_with(b"glTF") {
        let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        serde_json::from_slice(&bytes[20..20 + len]).unwrap()
    } else {
        serde_json::from_slice(&bytes).unwrap()
    }
}

fn load_ok(path: &Path) -> Scene {
    load(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn world_aabb(s: &Scene) -> (Point3<f64>, Point3<f64>) {
    let b = Aabb::from_points(s.world_points(false).iter()).unwrap();
    (b.min, b.max)
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn every_gltf_entry_matches_the_manifest() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let mut problems = Vec::new();
    for e in common::manifest(&dir).into_iter().filter(is_gltf) {
        let path = dir.join(&e.path);
        match (e.must_fail(), load(&path, &LoadOptions::default())) {
            (true, Ok(_)) => problems.push(format!("{}: loaded, must be refused", e.path)),
            (false, Err(err)) => problems.push(format!("{err}")),
            (false, Ok(s)) => {
                if let Some(n) = e.triangles.filter(|&n| n != s.triangle_count() as u64) {
                    problems.push(format!(
                        "{}: {} triangles, manifest {n}",
                        e.path,
                        s.triangle_count()
                    ));
                }
                let mirrored = s.instances.iter().filter(|i| i.is_mirrored()).count();
                for f in &e.features {
                    if let Some(n) = f.strip_suffix(" mirrored (negative-determinant) instances")
                        && n.parse::<usize>().unwrap() != mirrored
                    {
                        problems.push(format!("{}: {mirrored} mirrored, manifest {n}", e.path));
                    }
                }
            }
            (true, Err(_)) => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// For every loaded primitive whose POSITION accessor gives `min`/`max`
/// (float, or integer not normalized; Draco ones excluded, their positions
/// are requantized), the local AABB of all positions equals them.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn local_bounds_equal_accessor_min_max() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let mut checked = 0;
    let mut problems = Vec::new();
    for (e, s) in common::valid_scenes(&dir)
        .into_iter()
        .filter(|(e, _)| is_gltf(e))
    {
        let root = raw_json(&dir.join(&e.path));
        for inst in &s.instances {
            let prim = &root["meshes"][inst.mesh as usize]["primitives"][inst.primitive as usize];
            if prim["extensions"]["KHR_draco_mesh_compression"].is_object() {
                continue;
            }
            let a = &root["accessors"][prim["attributes"]["POSITION"].as_u64().unwrap() as usize];
            let (Some(min), Some(max)) = (a["min"].as_array(), a["max"].as_array()) else {
                continue;
            };
            if a["normalized"].as_bool() == Some(true) || inst.geometry.positions.is_empty() {
                continue;
            }
            let bb = Aabb::from_points(inst.geometry.positions.iter()).unwrap();
            for k in 0..3 {
                let (lo, hi) = (min[k].as_f64().unwrap(), max[k].as_f64().unwrap());
                // f32 storage and printed JSON: a relative tolerance of f32 precision.
                let tol = 1e-6 * (hi - lo).abs().max(lo.abs()).max(hi.abs()).max(1.0);
                if (bb.min[k] - lo).abs() > tol || (bb.max[k] - hi).abs() > tol {
                    problems.push(format!(
                        "{} mesh {} axis {k}: [{}, {}] vs accessor [{lo}, {hi}]",
                        e.path, inst.mesh, bb.min[k], bb.max[k]
                    ));
                }
            }
            checked += 1;
        }
    }
    problems.dedup();
    assert!(checked > 500, "only {checked} primitives checked");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The smallest gap between distinct coordinates along each local axis:
/// the quantization grid step (or a multiple of it) of a quantized mesh.
fn grid_step(points: &[Point3<f64>]) -> Vector3<f64> {
    Vector3::from_fn(|k, _| {
        let mut v: Vec<f64> = points.iter().map(|p| p[k]).collect();
        v.sort_by(f64::total_cmp);
        v.windows(2)
            .map(|w| w[1] - w[0])
            .filter(|&d| d > 0.0)
            .fold(f64::INFINITY, f64::min)
    })
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn duck_agrees_across_encodings_within_quantization() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let duck = dir.join("gltf/Duck");
    let reference = world_aabb(&load_ok(&duck.join("glTF-Binary/Duck.glb")));
    for (variant, quantized) in [
        ("glTF/Duck.gltf", false),
        ("glTF-Embedded/Duck.gltf", false),
        ("glTF-Quantized/Duck.gltf", true),
        ("glTF-Draco/Duck.gltf", true),
    ] {
        let s = load_ok(&duck.join(variant));
        let (lo, hi) = world_aabb(&s);
        let mut tol = Vector3::repeat(1e-9 * reference.1.coords.norm());
        if quantized {
            // Rounding to the grid moves a point by at most one step per
            // local axis; the world matrix maps that box to |M|·step.
            for inst in &s.instances {
                let m: Matrix3<f64> = inst.transform.fixed_view::<3, 3>(0, 0).into();
                tol = tol.sup(&(m.abs() * grid_step(&inst.geometry.positions)));
            }
            assert!(
                tol.iter()
                    .all(|t| t.is_finite() && *t < 0.05 * (reference.1 - reference.0).norm()),
                "{variant}: {tol}"
            );
        }
        for k in 0..3 {
            assert!(
                (lo[k] - reference.0[k]).abs() <= tol[k],
                "{variant} min[{k}] {} vs {} (tol {})",
                lo[k],
                reference.0[k],
                tol[k]
            );
            assert!(
                (hi[k] - reference.1[k]).abs() <= tol[k],
                "{variant} max[{k}] {} vs {} (tol {})",
                hi[k],
                reference.1[k],
                tol[k]
            );
        }
    }
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn feature_files() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let count = |p: &str| {
        common::manifest(&dir)
            .into_iter()
            .find(|e| e.path == p)
            .unwrap()
            .triangles
            .unwrap() as usize
    };

    let inst = load_ok(&dir.join("gltf/SimpleInstancing/glTF-Binary/SimpleInstancing.glb"));
    let mut ids: Vec<u32> = inst.instances.iter().map(|i| i.instance).collect();
    ids.dedup();
    assert_eq!(ids, (0..125).collect::<Vec<_>>());
    assert!(
        inst.extensions
            .contains(&"EXT_mesh_gpu_instancing".to_string())
    );

    let pirate = "gltf/Pirate/glTF-Binary-meshopt/pirate.glb";
    let s = load_ok(&dir.join(pirate));
    assert_eq!(s.triangle_count(), count(pirate));
    assert_eq!(
        s.extensions,
        ["EXT_meshopt_compression", "KHR_mesh_quantization"]
    );

    // Primitive modes: one skipped per placed LINES/LINE_LOOP/LINE_STRIP
    // primitive; POINTS are point sets without triangles.
    let modes = dir.join("gltf/MeshPrimitiveModes/glTF/MeshPrimitiveModes.gltf");
    let root = raw_json(&modes);
    let non_triangle = root["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["mesh"].as_u64())
        .flat_map(|m| {
            root["meshes"][m as usize]["primitives"]
                .as_array()
                .unwrap()
                .clone()
        })
        .filter(|p| (1..4).contains(&p["mode"].as_u64().unwrap_or(4)))
        .count();
    assert_eq!(non_triangle, 3);
    let s = load_ok(&modes);
    assert_eq!(s.skipped_primitives, non_triangle);
    let points: Vec<_> = s
        .instances
        .iter()
        .filter(|i| i.geometry.triangles.is_empty())
        .collect();
    assert_eq!(points.len(), 1);
    assert!(!points[0].geometry.positions.is_empty());

    // Compatibility: 2.1 loads; minVersion 2.1 and an unknown required extension are refused.
    let compat = dir.join("gltf-asset-generator/Positive/Compatibility");
    for k in 1..=3 {
        assert_eq!(
            load_ok(&compat.join(format!("Compatibility_0{k}.gltf"))).triangle_count(),
            2
        );
    }
    let e4 = load(
        &compat.join("Compatibility_04.gltf"),
        &LoadOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e4.contains("minVersion"), "{e4}");
    let e5 = load(
        &compat.join("Compatibility_05.gltf"),
        &LoadOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e5.contains("FAKE_materials_quantumRendering"), "{e5}");

    let cycle = load(
        &dir.join("gltf-edge-cases/assimp/RecursiveNodes/RecursiveNodes.gltf"),
        &LoadOptions::default(),
    );
    assert!(cycle.unwrap_err().to_string().contains("cycle"));
}

/// SimpleSparseAccessor: the sparse values, decoded here from the raw JSON
/// and .bin, replace the base positions at the sparse indices.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn sparse_values_are_substituted() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let path = dir.join("gltf/SimpleSparseAccessor/glTF/SimpleSparseAccessor.gltf");
    let root = raw_json(&path);
    let bin =
        std::fs::read(path.with_file_name(root["buffers"][0]["uri"].as_str().unwrap())).unwrap();
    let s = load_ok(&path);
    let g = &s.instances[0].geometry;
    let a = &root["accessors"][root["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
        .as_u64()
        .unwrap() as usize];
    let sp = &a["sparse"];
    let view_start = |v: &Value| {
        let bv = &root["bufferViews"][v["bufferView"].as_u64().unwrap() as usize];
        (bv["byteOffset"].as_u64().unwrap_or(0) + v["byteOffset"].as_u64().unwrap_or(0)) as usize
    };
    let (i0, v0) = (view_start(&sp["indices"]), view_start(&sp["values"]));
    let n = sp["count"].as_u64().unwrap() as usize;
    assert_eq!(sp["indices"]["componentType"], 5123);
    assert!(n > 0);
    for j in 0..n {
        let idx = u16::from_le_bytes([bin[i0 + 2 * j], bin[i0 + 2 * j + 1]]) as usize;
        let f = |c: usize| {
            f32::from_le_bytes(
                bin[v0 + 12 * j + 4 * c..v0 + 12 * j + 4 * c + 4]
                    .try_into()
                    .unwrap(),
            ) as f64
        };
        assert_eq!(
            g.positions[idx],
            Point3::new(f(0), f(1), f(2)),
            "sparse element {j}"
        );
    }
}

/// A model outside the .gltf's folder is refused unless allowed.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn absolute_and_parent_uris_are_refused() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let src = dir.join("gltf/Triangle/glTF/Triangle.gltf");
    let mut root = raw_json(&src);
    let bin =
        std::fs::canonicalize(src.with_file_name(root["buffers"][0]["uri"].as_str().unwrap()))
            .unwrap();
    let tmp = bvtool_dev::scratch!("models-gltf");
    std::fs::create_dir_all(tmp.join("sub")).unwrap();
    std::fs::copy(&bin, tmp.join("x.bin")).unwrap();
    for (name, uri) in [
        ("abs.gltf", bin.to_str().unwrap().to_string()),
        ("sub/up.gltf", "../x.bin".into()),
    ] {
        root["buffers"][0]["uri"] = Value::from(uri);
        let p = tmp.join(name);
        std::fs::write(&p, root.to_string()).unwrap();
        let e = load(&p, &LoadOptions::default()).unwrap_err().to_string();
        assert!(e.contains("outside the model's folder"), "{e}");
        let ok = load(
            &p,
            &LoadOptions {
                allow_external_uris: true,
                ..LoadOptions::default()
            },
        )
        .unwrap();
        assert_eq!(ok.triangle_count(), 1);
    }
}

/// The meshopt-compressed, quantized pirate and its OBJ twin: same triangle
/// count, and the same bounds within the quantization step. The GLB stores
/// positions as unnormalized u16 scaled by the node's uniform `scale`, so a
/// position is off by at most half that step; the OBJ prints 6 decimals.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn pirate_obj_and_meshopt_glb_agree_within_quantization() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let glb_path = dir.join("gltf/Pirate/glTF-Binary-meshopt/pirate.glb");
    let obj = load_ok(&dir.join("obj/meshoptimizer/pirate.obj"));
    let glb = load_ok(&glb_path);
    assert_eq!(obj.triangle_count(), glb.triangle_count());
    // The quantization step, read from the file's own JSON chunk.
    let json = raw_json(&glb_path);
    let step = json["nodes"][0]["scale"][0].as_f64().unwrap();
    assert!(
        step > 0.0 && step < 1e-3,
        "unexpected quantization scale {step}"
    );
    let tol = 0.5 * step + 5e-7;
    let ((amin, amax), (bmin, bmax)) = (world_aabb(&obj), world_aabb(&glb));
    let err = (amin - bmin).amax().max((amax - bmax).amax());
    eprintln!("pirate OBJ vs meshopt GLB: bounds differ by {err:.3e} (tolerance {tol:.3e})");
    assert!(err <= tol, "bounds differ by {err} > {tol}");
}
