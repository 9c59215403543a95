//! Ray queries against brute force over every triangle with exact
//! predicates (the segment from the origin to far along the ray crossing
//! each triangle, `robust::orient3d`), and watertightness where rays run
//! exactly through shared edges and corners: a cube of integer
//! coordinates cut into unit squares, and rays from a sphere's centre
//! through its corners and edge midpoints.

use super::points::grid_cube;
use bvtool::query::point::PointTree;
use bvtool::query::ray::{Ray, all_hits, any_hit, count_hits, first_hit};
use bvtool::tree::AabbTree;
use bvtool_dev::oracle::{crossed, parity_inside};
use bvtool_dev::shapes::{icosphere, soup, torus};
use nalgebra::{Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn ray(o: Point3<f64>, d: Vector3<f64>) -> Ray {
    Ray {
        origin: o,
        direction: d,
        t_min: 0.0,
        t_max: f64::INFINITY,
    }
}

/// Random rays on a sphere, a torus and a soup: the triangles hit are
/// exactly those whose crossing brute force finds, in order of `t`; the
/// first hit is the first of them; any hit and counts agree; a range
/// keeps the hits within it.
#[test]
fn hits_equal_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for (name, m) in [
        ("sphere", icosphere(3)),
        ("torus", torus(1.0, 0.3, 32, 16)),
        ("soup", soup(300, 8)),
    ] {
        let tree = AabbTree::build(&m);
        let tris: Vec<_> = (0..m.triangles.len()).map(|i| m.triangle(i)).collect();
        let mut hits = 0;
        for i in 0..2_000 {
            let o = Point3::new(
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
            );
            let target = Point3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            let d = target - o;
            let far = o + d * 1e3;
            let Some(mut want) = crossed(&tris, &o, &far) else {
                continue;
            };
            let r = ray(o, d);
            let got = all_hits(&tree, &r);
            let mut ids: Vec<u32> = got.iter().map(|h| h.triangle).collect();
            ids.sort_unstable();
            want.sort_unstable();
            assert_eq!(ids, want, "{name} ray {i}");
            assert!(got.windows(2).all(|w| w[0].t <= w[1].t));
            for h in &got {
                let t = tris[h.triangle as usize];
                let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
                let plane_t = (t[0] - o).dot(&n) / d.dot(&n);
                assert!(
                    (h.t - plane_t).abs() <= 1e-9 * (1.0 + plane_t.abs()),
                    "{name} ray {i}"
                );
                assert!((n.normalize() - h.normal).norm() < 1e-12);
                assert_eq!(h.sign, if d.dot(&n) > 0.0 { 1 } else { -1 });
                let at = o + d * h.t;
                let b = h.barycentric;
                let from_b = t[0].coords * b[0] + t[1].coords * b[1] + t[2].coords * b[2];
                assert!(
                    (at.coords - from_b).norm() < 1e-8,
                    "{name} ray {i}: barycentric"
                );
            }
            assert_eq!(first_hit(&tree, &r), got.first().copied(), "{name} ray {i}");
            assert_eq!(any_hit(&tree, &r), !got.is_empty());
            assert_eq!(count_hits(&tree, &r), got.len());
            if let (Some(a), Some(b)) = (got.first(), got.last()) {
                let mid = Ray {
                    t_min: a.t + 0.25 * (b.t - a.t),
                    t_max: a.t + 0.75 * (b.t - a.t),
                    ..r
                };
                let inside: Vec<_> = got
                    .iter()
                    .filter(|h| mid.t_min <= h.t && h.t <= mid.t_max)
                    .copied()
                    .collect();
                assert_eq!(all_hits(&tree, &mid), inside);
                assert_eq!(first_hit(&tree, &mid), inside.first().copied());
            }
            hits += got.len();
        }
        assert!(hits > 200, "{name}: {hits}");
    }
}

/// Axis and diagonal rays through the corners and edges of a cube cut
/// into unit squares: a ray through the cube's inside hits it exactly
/// twice (once in, once out, signs −1 then +1); one along a face grazes
/// it (an even count whose signs cancel); one from inside hits once.
#[test]
fn rays_through_shared_edges_hit_once() {
    let n = 3;
    let tree = AabbTree::build(&grid_cube(n));
    let grid: Vec<f64> = (-2..=2 * n as i32 + 2).map(|k| k as f64 * 0.5).collect();
    let inner = |v: f64| v > 0.0 && v < n as f64;
    let (mut through, mut grazing) = (0, 0);
    for &u in &grid {
        for &v in &grid {
            for axis in 0..3 {
                for s in [1.0, -1.0] {
                    let mut o = [0.0; 3];
                    o[axis] = if s > 0.0 { -1.0 } else { n as f64 + 1.0 };
                    o[(axis + 1) % 3] = u;
                    o[(axis + 2) % 3] = v;
                    let mut d = [0.0; 3];
                    d[axis] = s;
                    let hits = all_hits(&tree, &ray(Point3::from(o), Vector3::from(d)));
                    let signs: Vec<i8> = hits.iter().map(|h| h.sign).collect();
                    if inner(u) && inner(v) {
                        assert_eq!(signs, [-1, 1], "{o:?} {d:?}");
                        through += 1;
                    } else {
                        assert_eq!(hits.len() % 2, 0, "{o:?} {d:?}");
                        assert_eq!(signs.iter().map(|&s| s as i32).sum::<i32>(), 0);
                        grazing += !hits.is_empty() as usize;
                    }
                    // From the cube's centre line, when inside: one hit.
                    if inner(u) && inner(v) {
                        let mut c = o;
                        c[axis] = 0.5 * n as f64;
                        let h = all_hits(&tree, &ray(Point3::from(c), Vector3::from(d)));
                        assert_eq!(h.len(), 1, "{c:?}");
                    }
                }
            }
            // Diagonal rays in the xy plane through the grid's corners.
            let o = Point3::new(u - 5.0, v - 5.0, 1.0);
            let hits = all_hits(&tree, &ray(o, Vector3::new(1.0, 1.0, 0.0)));
            assert_eq!(hits.len() % 2, 0, "{o}");
        }
    }
    assert!(through > 100 && grazing > 10, "{through} {grazing}");
}

/// Rays from a sphere's centre through each corner and each edge's
/// midpoint: exactly one hit each.
#[test]
fn rays_through_sphere_corners_hit_once() {
    let m = icosphere(3);
    let tree = AabbTree::build(&m);
    let o = Point3::origin();
    let mut aims: Vec<Vector3<f64>> = m.vertices.iter().map(|v| v.coords).collect();
    for t in &m.triangles {
        for i in 0..3 {
            let (a, b) = (
                m.vertices[t[i] as usize],
                m.vertices[t[(i + 1) % 3] as usize],
            );
            aims.push((a.coords + b.coords) * 0.5);
        }
    }
    for d in aims {
        assert_eq!(count_hits(&tree, &ray(o, d)), 1, "{d}");
        assert_eq!(count_hits(&tree, &ray(o, -d)), 1, "{d}");
    }
}

/// On a closed mesh, the parity of every hit of a random ray from a point
/// decides inside exactly as `contains` does (and as brute force does).
#[test]
fn hit_parity_agrees_with_contains() {
    let m = torus(1.0, 0.4, 32, 16);
    let tree = PointTree::build(&m);
    let tris: Vec<_> = (0..m.triangles.len()).map(|i| m.triangle(i)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    let mut inside = 0;
    for _ in 0..3_000 {
        let p = Point3::new(
            rng.random_range(-1.5..1.5),
            rng.random_range(-1.5..1.5),
            rng.random_range(-0.5..0.5),
        );
        let d = Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let odd = count_hits(&tree.tree, &ray(p, d)) % 2 == 1;
        assert_eq!(odd, tree.contains(&p), "{p} {d}");
        assert_eq!(odd, parity_inside(&tris, &p, &mut rng), "{p}");
        inside += odd as usize;
    }
    assert!(inside > 300);
}

/// A scene of one torus and one soup placed 40 times each (rotated,
/// scaled, some mirrored): every hit of the instanced walk is the hit of
/// the flattened scene — the same triangle (its flattened index), `t`,
/// barycentric coordinates and normal — and the triangles crossed are
/// exactly those brute force finds over the flattened triangles.
#[test]
fn instanced_scene_rays_equal_the_flattened_scene() {
    use bvtool::mesh::{Format, Geometry, MeshInstance, Scene};
    use bvtool::query::ray::InstancedRays;
    use nalgebra::{Matrix4, Rotation3};
    use std::sync::Arc;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let geometry = |m: bvtool::TriMesh| {
        Arc::new(Geometry {
            positions: m.vertices,
            triangles: m.triangles,
        })
    };
    let shapes = [geometry(torus(1.0, 0.3, 16, 8)), geometry(soup(40, 3))];
    let mut instances = Vec::new();
    for k in 0..80 {
        let mut inst = MeshInstance::unplaced(k % 2, None, Geometry::default());
        inst.geometry = shapes[k as usize % 2].clone();
        let axis = Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let turn = Rotation3::new(axis).to_homogeneous();
        let scale = Vector3::new(
            rng.random_range(0.4..1.0),
            rng.random_range(0.4..1.0),
            rng.random_range(0.4..1.0) * if k % 3 == 0 { -1.0 } else { 1.0 },
        );
        let at = Vector3::from_fn(|_, _| rng.random_range(-4.0..4.0));
        inst.transform =
            Matrix4::new_translation(&at) * turn * Matrix4::new_nonuniform_scaling(&scale);
        instances.push(inst);
    }
    let scene = Scene {
        path: "scene".into(),
        format: Format::Obj,
        instances,
        skipped_primitives: 0,
        extensions: Vec::new(),
    };
    let instanced = InstancedRays::build(&scene);
    assert_eq!(instanced.tree_count(), 2);
    let flat = scene.flatten();
    let tree = AabbTree::build(&flat);
    let tris: Vec<_> = (0..flat.triangles.len())
        .map(|i| flat.triangle(i))
        .collect();
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()));
    let (mut checked, mut hits) = (0, 0);
    for i in 0..400 {
        let o = Point3::from(Vector3::from_fn(|_, _| rng.random_range(-8.0..8.0)));
        let target = Point3::from(Vector3::from_fn(|_, _| rng.random_range(-4.0..4.0)));
        let d = target - o;
        let far = o + d * 1e3;
        let Some(mut want) = crossed(&tris, &o, &far) else {
            continue;
        };
        let r = ray(o, d);
        let got = instanced.all_hits(&r);
        let flat_hits = all_hits(&tree, &r);
        let mut ids: Vec<u32> = got.iter().map(|h| h.triangle).collect();
        ids.sort_unstable();
        want.sort_unstable();
        assert_eq!(ids, want, "ray {i}");
        assert_eq!(got.len(), flat_hits.len());
        for (a, b) in got.iter().zip(&flat_hits) {
            assert_eq!(a.triangle, b.triangle, "ray {i}");
            assert!(close(a.t, b.t), "ray {i}: t {} vs {}", a.t, b.t);
            assert!((a.normal - b.normal).norm() < 1e-9, "ray {i}: normal");
            assert_eq!(a.sign, b.sign, "ray {i}: sign");
            for k in 0..3 {
                assert!(
                    close(a.barycentric[k], b.barycentric[k]),
                    "ray {i}: barycentric"
                );
            }
        }
        let first = instanced.first_hit(&r);
        assert_eq!(
            first.map(|h| h.triangle),
            flat_hits.first().map(|h| h.triangle),
            "ray {i}"
        );
        assert_eq!(instanced.any_hit(&r), !got.is_empty());
        assert_eq!(instanced.count_hits(&r), got.len());
        let short = Ray { t_max: 0.5, ..r };
        assert_eq!(
            instanced.any_hit(&short),
            any_hit(&tree, &short),
            "ray {i}: range"
        );
        checked += 1;
        hits += got.len();
    }
    assert!(checked > 300 && hits > 500, "{checked} rays, {hits} hits");
}
