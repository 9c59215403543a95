//! Real models rendered with their AABB, OBB and enclosing sphere: in every
//! view the shaded model lies inside each volume's drawn outline, and the
//! volumes' wireframes are where the camera puts them.

use bvtool_dev as common;
use bvtool_dev::render_check as render_support;

use bvtool::fit::{Aabb, FittedShape, Obb, Sphere, covariance};
use bvtool::render::{Layout, RenderOptions, RenderScene, View, Volume, cameras, render};
use nalgebra::Point3;
use render_support::*;

const MODELS: [&str; 4] = [
    "gltf/Duck/glTF-Binary/Duck.glb",
    "obj/stanford-bunny.obj",
    "stl/assimp/Spider_binary.stl",
    "stl/mujoco_menagerie/robotiq_2f85/assets/base.stl",
];

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn real_models_lie_inside_their_drawn_volumes() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let mut rendered = 0;
    for rel in MODELS {
        let scene = match bvtool::load::load(&dir.join(rel), &Default::default()) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("skipping {rel}: {e}");
                continue;
            }
        };
        let mesh = scene.flatten();
        let pts: Vec<Point3<f64>> = mesh
            .triangles
            .iter()
            .flatten()
            .map(|&i| mesh.vertices[i as usize])
            .collect();
        let aabb = Aabb::from_points(&pts).expect("a valid model has triangles");
        let (_, cov) = covariance::of_points(&pts).unwrap();
        let obb = Obb::from_frame_and_points(&covariance::principal_frame(&cov), &pts).unwrap();
        let c = aabb.center();
        let r = pts
            .iter()
            .map(|p| nalgebra::distance(&c, p))
            .fold(0.0, f64::max);
        let sphere = Sphere {
            center: c,
            radius: r,
        };

        let mut plain = RenderScene::new();
        plain.add_mesh(mesh);
        let mut full = plain.clone();
        full.add_volume(Volume::Shape(FittedShape::Obb(obb)), "OBB (covariance)");
        full.add_volume(Volume::Shape(FittedShape::Sphere(sphere)), "sphere");
        let aabb_color = full
            .add_volume(Volume::Shape(FittedShape::Aabb(aabb)), "AABB")
            .color;
        for view in [View::Iso, View::Front, View::Side, View::Top] {
            // No axis triad: it would spoil the silhouette checks.
            let o = RenderOptions {
                layout: Layout::Single(view),
                width: 640,
                height: 480,
                triad: false,
                ..Default::default()
            };
            // The model alone: its silhouette inside each volume's outline.
            let img = render(&plain, &o).unwrap();
            let cam = cameras(&plain, &o)[0];
            let box_corners = Obb::from_min_max(&aabb.min, &aabb.max).corners();
            for (name, corners) in [("AABB", box_corners), ("OBB", obb.corners())] {
                let (d, drawn) = silhouette_outside(&img, &cam, &corners);
                assert!(drawn > 1000, "{rel} {view:?}: only {drawn} model pixels");
                assert!(
                    d <= 1.0,
                    "{rel} {view:?}: model pixel {d:.2} px outside the {name}"
                );
            }
            let (cx, cy) = cam.project(c);
            let rp = r * cam.scale;
            for (x, y, p) in img.enumerate_pixels() {
                if p.0 != WHITE {
                    let d = ((x as f64 + 0.5 - cx).hypot(y as f64 + 0.5 - cy)) - rp;
                    assert!(
                        d <= 1.0,
                        "{rel} {view:?}: model pixel {d:.2} px outside the sphere"
                    );
                }
            }
            // With the volumes: the AABB, drawn last, shows at every corner.
            let img = render(&full, &o).unwrap();
            let cam = cameras(&full, &o)[0];
            let hits = box_corners
                .iter()
                .filter(|k| colour_near(&img, cam.project(**k), 1, aabb_color))
                .count();
            assert!(
                hits >= 6,
                "{rel} {view:?}: AABB colour at only {hits} of 8 corners"
            );
        }
        rendered += 1;
    }
    eprintln!("rendered {rendered} of {} models", MODELS.len());
}
