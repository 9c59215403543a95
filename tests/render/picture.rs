//! Checks of rendered pictures against the projection they claim to use:
//! wireframes land where the camera puts the volumes, the shaded model lies
//! inside its OBB outline, highlights recolour exactly their triangles.

use bvtool::TriMesh;
use bvtool::fit::{Aabb, FittedShape, Obb, Sphere, covariance};
use bvtool::render::{
    self, Camera, Layout, RenderOptions, RenderScene, View, Volume, cameras, render,
};
use nalgebra::{Point3, Rotation3, Vector3};
use render_support::*;

use bvtool_dev::render_check as render_support;

const VIEWS: [View; 4] = [View::Iso, View::Front, View::Side, View::Top];

fn blob() -> TriMesh {
    let rot = Rotation3::from_euler_angles(0.4, -0.7, 1.1);
    ellipsoid(
        Vector3::new(3.0, 1.2, 0.6),
        rot,
        Vector3::new(1.0, -2.0, 0.5),
    )
}

/// Options without the axis triad, which is drawn over the model's corner
/// and would spoil the silhouette checks (tests/cli_habits.rs checks it).
fn opts(layout: Layout) -> RenderOptions {
    RenderOptions {
        layout,
        width: 480,
        height: 400,
        triad: false,
        ..Default::default()
    }
}

#[test]
fn aabb_wireframe_lands_on_projected_corners_and_edges_only() {
    let mesh = blob();
    let aabb = Aabb::from_points(&mesh.vertices).unwrap();
    let mut scene = RenderScene::new();
    scene.add_mesh(mesh);
    let color = scene
        .add_volume(Volume::Shape(FittedShape::Aabb(aabb)), "AABB")
        .color;
    for view in VIEWS {
        let o = opts(Layout::Single(view));
        let img = render(&scene, &o).unwrap();
        let cam = cameras(&scene, &o)[0];
        let corners = Obb::from_min_max(&aabb.min, &aabb.max)
            .corners()
            .map(|c| cam.project(c));
        let edges = box_edges(&corners);
        for c in corners {
            assert!(
                colour_near(&img, c, 1, color),
                "{view:?}: no AABB colour at corner {c:?}"
            );
        }
        for (a, b) in &edges {
            let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            assert!(
                colour_near(&img, mid, 1, color),
                "{view:?}: no AABB colour at {mid:?}"
            );
        }
        // And nowhere else within the drawing (the legend swatch lies
        // below it, outside the corners' bounding box).
        let drawing = near_bounds(&corners, 4.0);
        let mut seen = 0;
        for (x, y, p) in img.enumerate_pixels() {
            let q = (x as f64 + 0.5, y as f64 + 0.5);
            if !drawing(q) {
                continue;
            }
            if close(p.0, color, 2) {
                seen += 1;
                let d = edges
                    .iter()
                    .map(|(a, b)| dist_to_segment(q, *a, *b))
                    .fold(f64::MAX, f64::min);
                assert!(
                    d <= 2.0,
                    "{view:?}: AABB-coloured pixel {q:?} is {d:.2} px from every edge"
                );
            }
        }
        assert!(seen > 100, "{view:?}: only {seen} AABB pixels");
    }
}

#[test]
fn sphere_is_drawn_as_its_silhouette_circle() {
    let mesh = blob();
    let aabb = Aabb::from_points(&mesh.vertices).unwrap();
    let c = aabb.center();
    let r = mesh
        .vertices
        .iter()
        .map(|p| nalgebra::distance(&c, p))
        .fold(0.0, f64::max);
    let mut scene = RenderScene::new();
    scene.add_mesh(mesh);
    let color = scene
        .add_volume(
            Volume::Shape(FittedShape::Sphere(Sphere {
                center: c,
                radius: r,
            })),
            "sphere",
        )
        .color;
    for view in VIEWS {
        let o = opts(Layout::Single(view));
        let img = render(&scene, &o).unwrap();
        let cam = cameras(&scene, &o)[0];
        let (cx, cy) = cam.project(c);
        let rp = r * cam.scale;
        for k in 0..16 {
            let a = k as f64 * std::f64::consts::PI / 8.0;
            let p = (cx + rp * a.cos(), cy + rp * a.sin());
            assert!(
                colour_near(&img, p, 1, color),
                "{view:?}: no circle at {p:?}"
            );
        }
        assert!(
            !colour_near(&img, (cx, cy), 3, color),
            "{view:?}: circle colour at centre"
        );
    }
}

#[test]
fn shaded_model_lies_inside_its_obb_outline() {
    let mesh = blob();
    let (_, cov) = covariance::of_points(&mesh.vertices).unwrap();
    let obb =
        Obb::from_frame_and_points(&covariance::principal_frame(&cov), &mesh.vertices).unwrap();
    let mut scene = RenderScene::new();
    scene.add_mesh(mesh);
    for view in VIEWS {
        let o = opts(Layout::Single(view));
        let img = render(&scene, &o).unwrap();
        let cam = cameras(&scene, &o)[0];
        let (d, drawn) = silhouette_outside(&img, &cam, &obb.corners());
        assert!(
            d <= 1.0,
            "{view:?}: a model pixel is {d:.2} px outside the OBB"
        );
        // The model fills a good part of the picture (it was fitted to it).
        assert!(
            drawn > 480 * 400 / 20,
            "{view:?}: only {drawn} model pixels"
        );
    }
}

#[test]
fn highlight_recolours_exactly_the_highlighted_triangle() {
    // Two triangles in the z = 0 plane, facing the front view head-on, so
    // each is drawn in exactly its base colour.
    let v = |x: f64, y: f64| Point3::new(x, y, 0.0);
    let mesh = TriMesh::unplaced(
        vec![
            v(0.0, 0.0),
            v(4.0, 0.0),
            v(0.0, 4.0),
            v(5.0, 1.0),
            v(9.0, 1.0),
            v(9.0, 5.0),
        ],
        vec![[0, 1, 2], [3, 4, 5]],
    );
    let o = opts(Layout::Single(View::Front));
    let mut plain = RenderScene::new();
    plain.add_mesh(mesh.clone()).label = Some("mesh".into());
    let mut lit = plain.clone();
    lit.meshes[0].highlighted.insert(1);
    let cam: Camera = cameras(&plain, &o)[0];
    assert_eq!(cam, cameras(&lit, &o)[0], "same layout either way");
    let (a, b) = (render(&plain, &o).unwrap(), render(&lit, &o).unwrap());
    let base = plain.meshes[0].color;
    let hi = lit.meshes[0].highlight_color;
    let proj = |t: usize| mesh.triangle(t).map(|p| cam.project(p));
    let inside = |t: usize, q: (f64, f64), inset: f64| {
        let tri = proj(t);
        -outside_by(&hull(tri.to_vec()), q) >= inset
    };
    let lowest = proj(0)
        .iter()
        .chain(proj(1).iter())
        .map(|p| p.1)
        .fold(0.0, f64::max);
    let (mut n0, mut n1) = (0, 0);
    for (x, y, pa) in a.enumerate_pixels() {
        let q = (x as f64 + 0.5, y as f64 + 0.5);
        if q.1 > lowest + 3.0 {
            continue; // the legend, which gains an entry
        }
        let pb = b.get_pixel(x, y).0;
        if inside(1, q, 0.01) {
            n1 += 1;
            assert_eq!((pa.0, pb), (base, hi), "pixel {q:?} of triangle 1");
        } else if inside(0, q, 0.01) {
            n0 += 1;
            assert_eq!((pa.0, pb), (base, base), "pixel {q:?} of triangle 0");
        } else if !inside(1, q, -1.0) {
            assert_eq!(pa.0, pb, "pixel {q:?} away from triangle 1 changed");
        }
    }
    assert!(n0 > 1000 && n1 > 1000, "{n0} {n1}");
}

#[test]
fn rendering_is_deterministic_and_grid_has_four_labelled_panels() {
    let mesh = blob();
    let aabb = Aabb::from_points(&mesh.vertices).unwrap();
    let mut scene = RenderScene::new();
    scene.add_mesh(mesh.clone()).label = Some("blob".into());
    scene.add_volume(Volume::Shape(FittedShape::Aabb(aabb)), "AABB");
    let o = opts(Layout::Grid);
    let one = render(&scene, &o).unwrap();
    let two = render(&scene, &o).unwrap();
    assert_eq!(one.as_raw(), two.as_raw());
    let dir = bvtool_dev::scratch!("render-picture");
    let (p1, p2) = (
        dir.join("bvtool_render_det1.png"),
        dir.join("bvtool_render_det2.png"),
    );
    render::save_png(&one, &p1).unwrap();
    render::save_png(&two, &p2).unwrap();
    assert_eq!(std::fs::read(&p1).unwrap(), std::fs::read(&p2).unwrap());

    let cams = cameras(&scene, &o);
    assert_eq!(cams.iter().map(|c| c.view).collect::<Vec<_>>(), VIEWS);
    let (w, h) = (o.width as f64, o.height as f64);
    for (k, cam) in cams.iter().enumerate() {
        // Each view's drawing lies in its own quadrant, model shaded there.
        let (qx, qy) = ((k % 2) as f64 * w / 2.0, (k / 2) as f64 * h / 2.0);
        for c in Obb::from_min_max(&aabb.min, &aabb.max).corners() {
            let (x, y) = cam.project(c);
            assert!(
                x > qx && x < qx + w / 2.0 && y > qy && y < qy + h / 2.0,
                "panel {k}: {x},{y}"
            );
        }
        let (x, y) = cam.project(aabb.center());
        let p = px(&one, x as i64, y as i64).unwrap();
        assert_ne!(p, WHITE, "panel {k}: no model at its centre");
        // The panel's title is written in its top-left corner.
        let dark = (0..120)
            .flat_map(|dx| (0..26).map(move |dy| (dx, dy)))
            .filter(|(dx, dy)| px(&one, qx as i64 + dx, qy as i64 + dy).is_some_and(|p| p[0] < 100))
            .count();
        assert!(dark > 20, "panel {k}: no title");
    }
}

#[test]
fn bad_sizes_are_refused_with_a_message() {
    let scene = RenderScene::new();
    for (w, h) in [(0, 10), (10, 0), (render::MAX_SIDE + 1, 10)] {
        let e = render(
            &scene,
            &RenderOptions {
                width: w,
                height: h,
                ..Default::default()
            },
        );
        assert!(e.unwrap_err().to_string().contains("out of range"));
    }
    assert_eq!(render::parse_size("640x480").unwrap(), (640, 480));
    for s in ["640", "x480", "0x5", "a x b", "99999x2"] {
        assert!(render::parse_size(s).is_err(), "{s}");
    }
    assert!(Layout::parse("grid").is_ok() && Layout::parse("diagonal").is_err());
    // An empty scene still renders (background only).
    let img = render(&scene, &RenderOptions::default()).unwrap();
    assert!(img.pixels().all(|p| p.0 == WHITE));
}
