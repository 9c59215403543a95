//! `bvtool compare`: its figures against independent bounds.

mod common;

use bvtool::mesh::{Format, Geometry, Scene};
use bvtool::query::{ContactMode, collide, poses::near_boundary};
use bvtool::report::compare::{CompareOptions, Comparison};
use bvtool::tree::ObbTree;
use nalgebra::Point3;

/// A unit cube (12 triangles) as a one-instance scene.
fn cube() -> Scene {
    let positions: Vec<Point3<f64>> = (0..8)
        .map(|k| Point3::new((k & 1) as f64, ((k >> 1) & 1) as f64, ((k >> 2) & 1) as f64))
        .collect();
    let triangles = common::shapes::cube_triangles();
    Scene::of_geometry(
        "cube".into(),
        Format::Obj,
        Geometry {
            positions,
            triangles,
        },
    )
}

#[test]
fn cube_volumes_and_the_aabb_under_rotation_are_bounded_exactly() {
    let opts = CompareOptions {
        rotations: 200,
        poses: 10,
        seed: 3,
        trees: true,
    };
    let c = Comparison::new("cube", &cube(), &opts).unwrap();
    assert!((c.hull_volume - 1.0).abs() < 1e-12);
    for v in &c.volumes {
        let ratio = v.hull_ratio.unwrap();
        match (v.kind, v.method) {
            // Every box of an axis-aligned cube is the cube itself.
            ("aabb", _) | ("obb", _) => assert!(
                (ratio - 1.0).abs() < 1e-9,
                "{} {}: {ratio}",
                v.kind,
                v.method
            ),
            // The minimum sphere has radius √3/2.
            ("sphere", "exact") => {
                let expected = 4.0 / 3.0 * std::f64::consts::PI * (3f64.sqrt() / 2.0).powi(3);
                assert!((v.volume - expected).abs() < 1e-9 * expected);
            }
            _ => assert!(
                ratio >= 2.72,
                "{} {}: a sphere holds at least the minimum's volume",
                v.kind,
                v.method
            ),
        }
    }
    // A rotated unit cube's AABB has each extent between 1 and √3.
    let r = &c.aabb_under_rotation;
    assert_eq!(r.rotations, 200);
    assert!(r.best_ratio >= 1.0 - 1e-12 && r.worst_ratio <= 3f64.sqrt().powi(3) + 1e-12);
    assert!(r.best_ratio <= r.mean_ratio && r.mean_ratio <= r.worst_ratio);
    assert!(
        r.worst_ratio > 2.0,
        "200 random rotations reach far from axis-aligned: {}",
        r.worst_ratio
    );
}

#[test]
fn the_aabb_tree_finds_the_same_pairs_with_more_work() {
    let scene = common::repo_scene("torus.obj");
    let mesh = scene.flatten();
    let obb = ObbTree::build(&mesh);
    let aabb = obb.with_aabb_boxes();
    // Every AABB-tree box is axis-aligned and holds its node's triangles.
    for (n, m) in aabb.nodes.iter().zip(&obb.nodes) {
        let b = n.bx.to_obb_f32();
        assert_eq!(b.axes, [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
        for t in obb.node_triangles(m) {
            assert!(t.iter().all(|p| aabb.node_box(n).contains(p, 0.0)));
        }
    }
    let (mut obb_work, mut aabb_work) = (0, 0);
    for pose in near_boundary(&mesh, &mesh, 20, 5) {
        let a = collide(&obb, &obb, &pose, ContactMode::All);
        let b = collide(&aabb, &aabb, &pose, ContactMode::All);
        assert_eq!(a.pairs, b.pairs);
        obb_work += a.triangle_tests;
        aabb_work += b.triangle_tests;
    }
    assert!(
        obb_work < aabb_work,
        "OBB leaves {obb_work} vs AABB leaves {aabb_work}"
    );
    let c = Comparison::new(
        "torus",
        &scene,
        &CompareOptions {
            rotations: 10,
            poses: 20,
            seed: 5,
            trees: true,
        },
    )
    .unwrap();
    assert_eq!(c.trees.as_ref().unwrap().obb.triangle_tests, obb_work);
    assert_eq!(c.trees.as_ref().unwrap().aabb.triangle_tests, aabb_work);
}
