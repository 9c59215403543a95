//! `compare` and `render` on real models of the corpus: every ratio is at
//! least the hull's, the figures agree with `fit`, and the pictures of whole
//! models and of a collision come out at the requested size.
//!
//! Real-model suite: run by `.ci/run` in release mode with `--ignored`.

use bvtool_dev as common;

use bvtool::check::poses::near_boundary;
use bvtool::fit::ShapeSpec;
use bvtool::fit::{ObbMethod, SphereMethod};
use bvtool::load::{LoadOptions, load};
use bvtool::query::{ContactMode, collide};
use bvtool::render::compose::{collision_picture, model_picture};
use bvtool::render::{Layout, RenderOptions};
use bvtool::tree::ObbTree;
use bvtool::volumes::{CompareOptions, Comparison};
use bvtool::volumes::{FileVolumes, FitOptions};

const MODELS: [&str; 3] = [
    "gltf/Duck/glTF-Binary/Duck.glb",
    "obj/stanford-bunny.obj",
    "stl/mujoco_menagerie/robotiq_2f85/assets/driver.stl",
];

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn compare_agrees_with_fit_and_bounds_every_ratio_by_the_hull() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    for m in MODELS {
        let scene = load(&dir.join(m), &LoadOptions::default()).unwrap();
        let c = Comparison::new(
            m,
            &scene,
            &CompareOptions {
                rotations: 50,
                poses: 10,
                seed: 1,
                trees: true,
            },
        )
        .unwrap();
        let fit = FileVolumes::new(
            m,
            &scene,
            &FitOptions {
                obb_methods: ObbMethod::ALL.to_vec(),
                sphere_methods: SphereMethod::ALL.to_vec(),
                all_methods: true,
                ..FitOptions::of(ObbMethod::Tight, SphereMethod::Exact)
            },
        )
        .unwrap();
        let fit = serde_json::to_value(&fit).unwrap();
        // `fit` works from each geometry's hull vertices and vertex moments
        // (docs/algorithms.md, "Fitting a scene"), `compare` from every
        // world point: the same volumes up to the order of the sums.
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
        let hull_volume = fit["hull_volume"].as_f64().unwrap();
        assert!(
            close(c.hull_volume, hull_volume),
            "{m}: hull {} vs {hull_volume}",
            c.hull_volume
        );
        // bvtool's convex volumes (not the decomposition's parts, nor the
        // engines' rules, which need not contain the mesh).
        for v in c
            .volumes
            .iter()
            .filter(|v| v.source == "bvtool" && v.kind != "decomposition")
        {
            assert_eq!(v.outside, Some(0), "{m}: {} {}", v.kind, v.method);
            assert!(
                v.hull_ratio.unwrap() >= 1.0 - 1e-12,
                "{m}: {} {} below the hull",
                v.kind,
                v.method
            );
            let expected = match v.kind {
                "aabb" => fit["aabb"]["volume"].as_f64(),
                "obb" => fit["obbs"][v.method]["volume"].as_f64(),
                "sphere" => fit["spheres"][v.method]["volume"].as_f64(),
                _ => continue,
            };
            let expected = expected.unwrap();
            assert!(
                close(v.volume, expected),
                "{m}: {} {}: {} vs {expected}",
                v.kind,
                v.method,
                v.volume
            );
        }
        let r = &c.aabb_under_rotation;
        assert!(
            r.best_ratio >= 1.0 - 1e-3
                && r.best_ratio <= r.mean_ratio
                && r.mean_ratio <= r.worst_ratio,
            "{m}: {r:?}"
        );
        let t = c.trees.as_ref().unwrap();
        assert_eq!(t.obb_volume_per_level.len(), t.aabb_volume_per_level.len());
        assert!(
            t.obb.triangle_tests <= t.aabb.triangle_tests,
            "{m}: OBB leaves {} > AABB leaves {}",
            t.obb.triangle_tests,
            t.aabb.triangle_tests
        );
    }
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn render_pictures_of_real_models_and_a_collision() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let opts = RenderOptions {
        layout: Layout::Grid,
        width: 640,
        height: 480,
        ..RenderOptions::default()
    };
    for m in MODELS {
        let scene = load(&dir.join(m), &LoadOptions::default()).unwrap();
        let kinds = ShapeSpec::parse_list("aabb,obb,sphere:ritter").unwrap();
        let img = model_picture(&scene, &kinds, false, &opts).unwrap();
        assert_eq!((img.width(), img.height()), (640, 480));
        // Something was drawn in every quadrant of the grid.
        for (qx, qy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let drawn = (0..320)
                .flat_map(|x| (0..240).map(move |y| (x, y)))
                .filter(|&(x, y)| img.get_pixel(qx * 320 + x, qy * 240 + y).0 != [255, 255, 255])
                .count();
            assert!(drawn > 1000, "{m}: quadrant {qx},{qy} is empty");
        }
    }
    // A touching pose of the bunny against itself highlights its pairs.
    let mesh = load(&dir.join(MODELS[1]), &LoadOptions::default())
        .unwrap()
        .flatten();
    let tree = ObbTree::build(&mesh);
    let pose = near_boundary(&mesh, &mesh, 2, 7)[0];
    let c = collide(&tree, &tree, &pose, ContactMode::All);
    assert!(c.intersecting, "even poses of near_boundary touch");
    // Large enough that the few touching triangles cover some pixels (at
    // 400x300 they were 14; the old count of 20+ included the legend's
    // swatch, which a second legend row pushed into the counted area).
    let single = RenderOptions {
        width: 800,
        height: 600,
        ..RenderOptions::default()
    };
    let img = collision_picture(&mesh, &mesh, &pose, &c.pairs, &[], &single).unwrap();
    // Shaded highlight pixels keep the highlight's hue (red and blue well
    // above green); the legend strip at the bottom is left out.
    let magenta = img
        .enumerate_pixels()
        .filter(|(_, y, p)| {
            *y < 600 - 40
                && p.0[0] as i32 > p.0[1] as i32 + 40
                && p.0[2] as i32 > p.0[1] as i32 + 40
        })
        .count();
    assert!(
        magenta > 20,
        "the intersecting triangles are highlighted ({magenta} pixels)"
    );
}
