//! Rendering cost: a 24k-triangle ellipsoid with AABB, OBB and sphere at
//! 1024×768 (one view and the grid), and the bar chart.

use bvtool::fit::{Aabb, FittedShape, Obb, Sphere, covariance};
use bvtool::render::chart::Bar;
use bvtool::render::{Layout, RenderOptions, RenderScene, View, Volume, bar_chart, render};
use bvtool::{TriMesh, TriangleSource};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::{Point3, Vector3};
use std::hint::black_box;

/// A UV ellipsoid with `n_lat · n_lon · 2` triangles.
fn ellipsoid(n_lat: u32, n_lon: u32) -> TriMesh {
    let mut m = TriMesh::default();
    for i in 0..=n_lat {
        let th = std::f64::consts::PI * i as f64 / n_lat as f64;
        for j in 0..n_lon {
            let ph = 2.0 * std::f64::consts::PI * j as f64 / n_lon as f64;
            let p = Vector3::new(
                3.0 * th.sin() * ph.cos(),
                th.cos(),
                0.5 * th.sin() * ph.sin(),
            );
            m.vertices.push(Point3::from(p));
        }
    }
    for i in 0..n_lat {
        for j in 0..n_lon {
            let (a, b) = (i * n_lon + j, i * n_lon + (j + 1) % n_lon);
            for t in [[a, b, b + n_lon], [a, b + n_lon, a + n_lon]] {
                let triangle = m.triangles.len() as u32;
                m.triangles.push(t);
                m.sources.push(TriangleSource::unplaced(0, triangle));
            }
        }
    }
    m
}

fn bench(c: &mut Criterion) {
    let mesh = ellipsoid(100, 120);
    let aabb = Aabb::from_points(&mesh.vertices).unwrap();
    let (_, cov) = covariance::of_points(&mesh.vertices).unwrap();
    let obb =
        Obb::from_frame_and_points(&covariance::principal_frame(&cov), &mesh.vertices).unwrap();
    let mut scene = RenderScene::new();
    scene.add_mesh(mesh).label = Some("ellipsoid".into());
    scene.add_volume(Volume::Shape(FittedShape::Aabb(aabb)), "AABB");
    scene.add_volume(Volume::Shape(FittedShape::Obb(obb)), "OBB");
    scene.add_volume(
        Volume::Shape(FittedShape::Sphere(Sphere {
            center: aabb.center(),
            radius: 3.0,
        })),
        "sphere",
    );
    let iso = RenderOptions {
        layout: Layout::Single(View::Iso),
        ..Default::default()
    };
    let grid = RenderOptions {
        layout: Layout::Grid,
        ..Default::default()
    };
    c.bench_function("render iso 1024x768 24k tris", |b| {
        b.iter(|| render(black_box(&scene), &iso).unwrap())
    });
    c.bench_function("render grid 1024x768 24k tris", |b| {
        b.iter(|| render(black_box(&scene), &grid).unwrap())
    });
    let groups: Vec<(String, Vec<Bar>)> = (0..10)
        .map(|g| {
            (
                format!("model-{g}"),
                vec![
                    Bar::new("AABB", 1.5 + g as f64 * 0.1),
                    Bar::new("OBB", 1.2),
                    Bar::new("sphere", 3.0),
                ],
            )
        })
        .collect();
    c.bench_function("bar_chart 10 groups 900x600", |b| {
        b.iter(|| bar_chart("ratios", black_box(&groups), (900, 600)).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
