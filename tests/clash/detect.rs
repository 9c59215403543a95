//! Clash detection and self-intersection on scenes and meshes built here,
//! against brute force over every triangle pair (exact predicates) and
//! answers known by construction.

use bvtool_dev as common;

use bvtool::clash::adjacency::{adjacent_triangles_intersect, is_degenerate};
use bvtool::clash::contain::Solid;
use bvtool::clash::{
    ClashDepth, ClashKind, ClashOptions, ClashScene, Grouping, Searched, SelfIntersections,
    self_intersections, self_intersections_brute_force,
};
use bvtool::mesh::{Format, Geometry, MeshInstance, Scene};
use bvtool::query::depth::DepthSettings;
use bvtool::query::pair::intersect_triangle_triangle::{
    segment_triangle_intersect, triangles_intersect,
};
use bvtool::tree::AabbTree;
use bvtool::{TriMesh, TriangleSource};
use nalgebra::{Matrix4, Point3, Rotation3, Translation3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::sync::Arc;

/// An axis-aligned closed cube of half side `h` about the origin (12
/// triangles, outward winding).
fn cube(h: f64) -> Arc<Geometry> {
    let positions = (0..8)
        .map(|i| {
            Point3::new(
                if i & 1 == 0 { -h } else { h },
                if i & 2 == 0 { -h } else { h },
                if i & 4 == 0 { -h } else { h },
            )
        })
        .collect();
    let triangles = common::shapes::cube_triangles();
    Arc::new(Geometry {
        positions,
        triangles,
    })
}

/// A coarse closed UV sphere of radius `r` (`n` segments around).
fn sphere(r: f64, n: u32) -> Arc<Geometry> {
    let rings = n / 2;
    let mut positions = vec![Point3::new(0.0, 0.0, r), Point3::new(0.0, 0.0, -r)];
    for i in 1..rings {
        let th = std::f64::consts::PI * i as f64 / rings as f64;
        for j in 0..n {
            let ph = 2.0 * std::f64::consts::PI * j as f64 / n as f64;
            positions.push(Point3::new(
                r * th.sin() * ph.cos(),
                r * th.sin() * ph.sin(),
                r * th.cos(),
            ));
        }
    }
    let at = |i: u32, j: u32| 2 + (i - 1) * n + j % n;
    let mut triangles = Vec::new();
    for j in 0..n {
        triangles.push([0, at(1, j), at(1, j + 1)]);
        triangles.push([1, at(rings - 1, j + 1), at(rings - 1, j)]);
        for i in 1..rings - 1 {
            triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    Arc::new(Geometry {
        positions,
        triangles,
    })
}

fn place(node: u32, mesh: u32, g: &Arc<Geometry>, transform: Matrix4<f64>) -> MeshInstance {
    MeshInstance {
        node: Some(node),
        node_name: Some(format!("n{node}").into()),
        instance: 0,
        mesh,
        mesh_name: None,
        primitive: 0,
        transform,
        geometry: Arc::clone(g),
        skin: None,
    }
}

fn scene(instances: Vec<MeshInstance>) -> Scene {
    Scene {
        path: "built.gltf".into(),
        format: Format::Gltf,
        instances,
        skipped_primitives: 0,
        extensions: Vec::new(),
    }
}

fn at(x: f64, y: f64, z: f64) -> Matrix4<f64> {
    Translation3::new(x, y, z).to_homogeneous()
}

fn kinds(scenes: &[Scene], opts: &ClashOptions) -> Vec<(usize, usize, ClashKind, Option<usize>)> {
    let cs = ClashScene::new(scenes, &["built.gltf".into()], Grouping::Instance);
    cs.clashes(opts)
        .unwrap()
        .clashes
        .iter()
        .map(|c| (c.a, c.b, c.kind, c.inside))
        .collect()
}

/// Every kind, by construction: a cube with a small cube inside it
/// (contained), a cube resting face to face on it (touching), a rotated
/// cube cutting into that one (intersecting), a scaled instance of the
/// first cube's geometry (non-rigid, its own tree) crossed by a rotated
/// instance, and two cubes far apart.
#[test]
fn kinds_by_construction() {
    let c1 = cube(1.0);
    let small = cube(0.25);
    let rot = Rotation3::from_axis_angle(&Vector3::z_axis(), 0.3).to_homogeneous();
    let s = scene(vec![
        place(0, 0, &c1, at(0.0, 0.0, 0.0)),        // 0
        place(1, 1, &small, at(0.125, -0.25, 0.5)), // 1: inside 0
        place(2, 0, &c1, at(2.0, 0.5, 0.0)),        // 2: rests on 0 (x = 1)
        place(3, 0, &c1, at(3.5, 0.5, 0.0) * rot),  // 3: cuts 2
        place(4, 0, &c1, at(10.0, 0.0, 0.0) * Matrix4::new_scaling(0.5)), // 4: scaled
        place(5, 0, &c1, at(10.0, 0.5, 0.25) * rot), // 5: cuts 4
        place(6, 0, &c1, at(20.0, 0.0, 0.0)),       // 6: alone
        place(7, 1, &small, at(30.0, 0.0, 0.0)),    // 7: alone
    ]);
    let scenes = [s];
    let got = kinds(&scenes, &ClashOptions::default());
    assert_eq!(
        got,
        vec![
            (0, 1, ClashKind::Contained, Some(1)),
            (0, 2, ClashKind::Touching, None),
            (2, 3, ClashKind::Intersecting, None),
            (4, 5, ClashKind::Intersecting, None),
        ]
    );
    let got = kinds(
        &scenes,
        &ClashOptions {
            ignore_touching: true,
            ..Default::default()
        },
    );
    assert!(got.iter().all(|c| c.2 != ClashKind::Touching) && got.len() == 3);
    // Trees: the unit cube under identity (instances 0, 2, 6 and the rotated
    // 3 and 5 share it), the scaled one, the small cube.
    let cs = ClashScene::new(&scenes, &["built.gltf".into()], Grouping::Instance);
    assert_eq!(cs.shapes.shapes.len(), 3);
}

/// An open box (a cube without its top) around a small cube: no inside,
/// so no containment, and the pair is counted as undecided.
#[test]
fn open_container_is_not_decided() {
    let c = cube(1.0);
    let mut open = (*c).clone();
    open.triangles.retain(|t| !t.iter().all(|&i| i & 4 != 0)); // drop z = +1
    let open = Arc::new(open);
    let s = scene(vec![
        place(0, 0, &open, at(0.0, 0.0, 0.0)),
        place(1, 1, &cube(0.25), at(0.0, 0.0, 0.0)),
    ]);
    let cs = ClashScene::new(std::slice::from_ref(&s), &["x".into()], Grouping::Instance);
    let found = cs.clashes(&ClashOptions::default()).unwrap();
    assert!(found.clashes.is_empty());
    assert_eq!(found.open_containers, 1);
}

/// World triangles of every part (instance), placed by each instance's own
/// transform.
fn world(s: &Scene) -> Vec<Vec<[Point3<f64>; 3]>> {
    s.instances.iter().map(common::world_triangles).collect()
}

/// Random scenes of spheres and cubes, rotated, scaled and moved: every
/// intersecting triangle pair `--all-pairs` lists equals brute force over
/// all triangle pairs of different parts in world coordinates, and each
/// part pair's kind follows from the brute-force crossing test.
#[test]
fn all_pairs_equal_brute_force_on_random_scenes() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let geoms = [sphere(1.0, 12), cube(0.7), sphere(0.6, 8)];
    for round in 0..12 {
        let n = 6 + round % 5;
        let instances: Vec<MeshInstance> = (0..n)
            .map(|k| {
                let g = &geoms[rng.random_range(0..geoms.len())];
                let axis = nalgebra::Unit::new_normalize(Vector3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                ));
                let r = Rotation3::from_axis_angle(&axis, rng.random_range(0.0..6.0));
                let scale = if k % 3 == 0 {
                    rng.random_range(0.5..1.5)
                } else {
                    1.0
                };
                let t = at(
                    rng.random_range(-2.5..2.5),
                    rng.random_range(-2.5..2.5),
                    rng.random_range(-1.0..1.0),
                ) * r.to_homogeneous()
                    * Matrix4::new_scaling(scale);
                place(k as u32, (k % 3) as u32, g, t)
            })
            .collect();
        let s = scene(instances);
        let scenes = [s];
        let cs = ClashScene::new(&scenes, &["r".into()], Grouping::Instance);
        let found = cs
            .clashes(&ClashOptions {
                all_pairs: true,
                ..Default::default()
            })
            .unwrap();
        let mut ours = BTreeSet::new();
        for c in &found.clashes {
            for p in c.pairs.iter().flatten() {
                ours.insert((c.a, c.b, p.a.triangle, p.b.triangle, p.crossing));
            }
        }
        let w = world(&scenes[0]);
        let mut brute = BTreeSet::new();
        for a in 0..w.len() {
            for b in a + 1..w.len() {
                for (i, ta) in w[a].iter().enumerate() {
                    for (j, tb) in w[b].iter().enumerate() {
                        if triangles_intersect(ta, tb) {
                            let crossing = bvtool::clash::crosses(ta, tb);
                            brute.insert((a, b, i as u32, j as u32, crossing));
                        }
                    }
                }
            }
        }
        assert_eq!(ours, brute, "round {round}");
        for c in &found.clashes {
            if c.kind != ClashKind::Contained {
                let crossing = brute.iter().any(|p| (p.0, p.1) == (c.a, c.b) && p.4);
                assert_eq!(c.kind == ClashKind::Intersecting, crossing);
            }
        }
    }
}

/// With a clearance: every triangle pair of different parts within it equals
/// brute force (each pair's `triangle_distance` in world coordinates), each
/// part pair's least distance agrees within rounding, and parts that do not
/// meet but come within it are `clearance`.
#[test]
fn clearance_equals_brute_force() {
    use bvtool::query::pair::distance_triangle_triangle::triangle_distance;
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let geoms = [sphere(1.0, 10), cube(0.6)];
    for round in 0..6 {
        let d = [0.05, 0.3, 0.0][round % 3];
        let instances: Vec<MeshInstance> = (0..7)
            .map(|k| {
                let r = Rotation3::from_euler_angles(
                    rng.random_range(0.0..3.0),
                    rng.random_range(0.0..3.0),
                    rng.random_range(0.0..3.0),
                );
                let t = at(
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-1.0..1.0),
                ) * r.to_homogeneous();
                place(k, k % 2, &geoms[(k % 2) as usize], t)
            })
            .collect();
        let scenes = [scene(instances)];
        let cs = ClashScene::new(&scenes, &["r".into()], Grouping::Instance);
        let found = cs
            .clashes(&ClashOptions {
                all_pairs: true,
                clearance: Some(d),
                ..Default::default()
            })
            .unwrap();
        let w = world(&scenes[0]);
        let mut brute = BTreeSet::new();
        let mut least = std::collections::BTreeMap::new();
        for a in 0..w.len() {
            for b in a + 1..w.len() {
                for (i, ta) in w[a].iter().enumerate() {
                    for (j, tb) in w[b].iter().enumerate() {
                        let dist = triangle_distance(ta, tb).distance;
                        if dist <= d {
                            brute.insert((a, b, i as u32, j as u32));
                            let e = least.entry((a, b)).or_insert(f64::INFINITY);
                            *e = dist.min(*e);
                        }
                    }
                }
            }
        }
        let mut ours = BTreeSet::new();
        for c in &found.clashes {
            for p in c.pairs.iter().flatten() {
                ours.insert((c.a, c.b, p.a.triangle, p.b.triangle));
            }
            if c.kind == ClashKind::Contained {
                continue;
            }
            let want = least[&(c.a, c.b)];
            assert!(
                (c.min_distance.unwrap() - want).abs() <= 1e-12,
                "{c:?} vs {want}"
            );
            assert_eq!(c.kind == ClashKind::Clearance, want > 0.0);
        }
        assert_eq!(ours, brute, "round {round}, clearance {d}");
        assert!(!brute.is_empty());
    }
}

/// The broad phase is sweep and prune: the same pairs as testing every pair
/// of boxes.
#[test]
fn sweep_and_prune_equals_all_pairs() {
    use bvtool::clash::broad::{boxes_overlap, overlapping_pairs};
    use bvtool::fit::Aabb;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for n in [0, 1, 2, 50, 300] {
        let boxes: Vec<Aabb> = (0..n)
            .map(|_| {
                let c = Point3::new(
                    rng.random_range(-10.0..10.0f64).round(),
                    rng.random_range(-10.0..10.0f64).round(),
                    rng.random_range(-3.0..3.0f64).round(),
                );
                let h = Vector3::new(
                    rng.random_range(0.0..3.0f64).round(),
                    rng.random_range(0.0..3.0f64).round(),
                    rng.random_range(0.0..1.0f64).round(),
                );
                Aabb {
                    min: c - h,
                    max: c + h,
                }
            })
            .collect();
        let mut all = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if boxes_overlap(&boxes[i], &boxes[j]) && (i + j) % 7 != 0 {
                    all.push((i, j));
                }
            }
        }
        assert_eq!(overlapping_pairs(&boxes, |i, j| (i + j) % 7 != 0), all);
    }
}

/// Point in closed mesh: on a convex mesh, a point off the surface is
/// inside exactly when it is behind (or in the plane of) every face (exact
/// `orient3d`), and a point on the surface is undecided; on random points
/// and on points aligned with vertices and edges (where the +x ray is
/// degenerate).
#[test]
fn solid_contains_matches_convex_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for g in [cube(1.0), sphere(1.0, 10)] {
        let solid = Solid::new(&g.positions, &g.triangles).expect("closed");
        let tris: Vec<[Point3<f64>; 3]> = g
            .triangles
            .iter()
            .map(|t| t.map(|i| g.positions[i as usize]))
            .collect();
        let mut points: Vec<Point3<f64>> = (0..3000)
            .map(|_| {
                Point3::new(
                    rng.random_range(-1.3..1.3),
                    rng.random_range(-1.3..1.3),
                    rng.random_range(-1.3..1.3),
                )
            })
            .collect();
        // Aligned with vertices: the +x ray runs along edges and through
        // vertices.
        for v in &g.positions {
            points.push(Point3::new(v.x - 1.5, v.y, v.z));
            points.push(Point3::new(v.x * 0.5, v.y, v.z));
            points.push(Point3::new(v.x * 0.5, v.y * 0.5, v.z));
        }
        for p in &points {
            // Outward winding: inside iff orient3d > 0 for every face
            // (robust sign convention: positive below the plane seen CCW).
            let sides: Vec<i8> = tris
                .iter()
                .map(|t| o3_sign(&t[0], &t[1], &t[2], p))
                .collect();
            let on_surface = tris.iter().any(|t| segment_triangle_intersect(p, p, t));
            let want = if on_surface {
                None
            } else {
                Some(sides.iter().all(|&s| s >= 0))
            };
            let got = solid.contains(p);
            match want {
                Some(w) => assert_eq!(got, Some(w), "{p:?}"),
                None => assert_eq!(got, None, "{p:?} on the surface"),
            }
        }
    }
}

/// The exact sign of robust `orient3d(a, b, c, d)`.
fn o3_sign(a: &Point3<f64>, b: &Point3<f64>, c: &Point3<f64>, d: &Point3<f64>) -> i8 {
    let c3 = |p: &Point3<f64>| robust::Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    };
    let v = robust::orient3d(c3(a), c3(b), c3(c), c3(d));
    (v > 0.0) as i8 - (v < 0.0) as i8
}

pub(super) fn mesh(points: &[[f64; 3]], tris: &[[u32; 3]]) -> TriMesh {
    TriMesh {
        vertices: points.iter().map(|p| Point3::from(*p)).collect(),
        triangles: tris.to_vec(),
        sources: (0..tris.len() as u32)
            .map(|k| TriangleSource::unplaced(0, k))
            .collect(),
    }
}

pub(super) fn selfx(m: &TriMesh) -> SelfIntersections {
    let want = self_intersections_brute_force(m);
    for leaf in [1, 3, bvtool::tree::AABB_LEAF_SIZE] {
        let got = self_intersections(&AabbTree::build_with_leaf_size(m, leaf));
        assert_eq!(got, want, "tree (leaf size {leaf}) vs brute force");
    }
    want
}

/// Closed fans around one vertex that a certificate of an embedded star
/// must refuse, each against the brute force (which tests every pair):
/// flat fans winding twice round the centre (their triangles overlap) and
/// with one pleat (a sector turning back), found intersecting; the same
/// fans lifted into a helix or a cone, whose answer the brute force
/// decides. And one plain fan, embedded: no pair.
#[test]
fn stars_that_wind_twice_or_fold_back() {
    // A fan round (0,0,0) through corners at `angles` (degrees) and
    // heights `z(i)`, closed: triangle i is (centre, corner i, corner i+1).
    let fan = |angles: &[f64], z: &dyn Fn(usize) -> f64| {
        let mut pts = vec![[0.0, 0.0, 0.0]];
        for (i, a) in angles.iter().enumerate() {
            let (s, c) = a.to_radians().sin_cos();
            let r = 1.0 + 0.05 * i as f64;
            pts.push([r * c, r * s, z(i)]);
        }
        let n = angles.len() as u32;
        let tris: Vec<[u32; 3]> = (0..n).map(|i| [0, 1 + i, 1 + (i + 1) % n]).collect();
        mesh(&pts, &tris)
    };
    let twice: Vec<f64> = (0..10).map(|i| 72.0 * i as f64).collect();
    let pleat = [0.0, 60.0, 120.0, 90.0, 180.0, 240.0, 300.0];
    let plain: Vec<f64> = (0..6).map(|i| 60.0 * i as f64).collect();
    for (name, angles) in [("twice", &twice[..]), ("pleat", &pleat[..])] {
        let flat = selfx(&fan(angles, &|_| 0.0));
        assert!(
            !flat.pairs.is_empty(),
            "{name}: a flat fan that overlaps itself"
        );
        selfx(&fan(angles, &|i| 0.3 * i as f64));
        selfx(&fan(angles, &|_| 0.5));
    }
    assert!(
        selfx(&fan(&plain, &|i| 0.1 * (i % 2) as f64))
            .pairs
            .is_empty()
    );
    // Whole closed meshes of such fans: each fan's cone closed by a cap
    // fan round a second centre below (the brute force decides).
    for angles in [&twice[..], &pleat[..], &plain[..]] {
        let mut m = fan(angles, &|_| 0.0);
        let n = angles.len() as u32;
        m.vertices.push(Point3::new(0.1, 0.05, -1.0));
        let bottom = n + 1;
        for i in 0..n {
            m.triangles.push([bottom, 1 + (i + 1) % n, 1 + i]);
            m.sources.push(TriangleSource::unplaced(0, n + i));
        }
        selfx(&m);
    }
}

/// CGAL's adjacency rules, one configuration each, with vertices split
/// (distinct indices, equal positions) as files have them.
#[test]
fn self_intersection_adjacency_rules() {
    let p = |m: &TriMesh| selfx(m).pairs;
    // Shared edge (0,0,0)-(1,0,0); third corners on the same side in the
    // plane z = 0: a fold-over.
    let fold = mesh(
        &[
            [0., 0., 0.],
            [1., 0., 0.],
            [0., 1., 0.],
            [1., 0., 0.],
            [0., 0., 0.],
            [1., 2., 0.],
        ],
        &[[0, 1, 2], [3, 4, 5]],
    );
    assert_eq!(p(&fold), vec![(0, 1)]);
    // Opposite sides, coplanar: a flat pair of neighbours.
    let flat = mesh(
        &[
            [0., 0., 0.],
            [1., 0., 0.],
            [0., 1., 0.],
            [1., 0., 0.],
            [0., 0., 0.],
            [1., -2., 0.],
        ],
        &[[0, 1, 2], [3, 4, 5]],
    );
    assert_eq!(p(&flat), vec![]);
    // Not coplanar: a crease.
    let crease = mesh(
        &[
            [0., 0., 0.],
            [1., 0., 0.],
            [0., 1., 0.],
            [1., 0., 0.],
            [0., 0., 0.],
            [0., 1., 1.],
        ],
        &[[0, 1, 2], [3, 4, 5]],
    );
    assert_eq!(p(&crease), vec![]);
    // Shared vertex only, meeting nowhere else.
    let fan = mesh(
        &[
            [0., 0., 0.],
            [1., 0., 0.],
            [1., 1., 0.],
            [0., 0., 0.],
            [-1., 0., 1.],
            [-1., 1., 1.],
        ],
        &[[0, 1, 2], [3, 4, 5]],
    );
    assert_eq!(p(&fan), vec![]);
    // Shared vertex, the second crossing the first's interior.
    let cross = mesh(
        &[
            [0., 0., 0.],
            [2., 0., 0.],
            [0., 2., 0.],
            [0., 0., 0.],
            [1., 1., 1.],
            [1., 1., -1.],
        ],
        &[[0, 1, 2], [3, 4, 5]],
    );
    assert_eq!(p(&cross), vec![(0, 1)]);
    // Shared vertex, edges along the same ray (coplanar, sectors touching
    // along it): they share a segment beyond the vertex.
    let along = mesh(
        &[
            [0., 0., 0.],
            [2., 0., 0.],
            [0., 2., 0.],
            [0., 0., 0.],
            [1., 0., 0.],
            [1., -1., 0.],
        ],
        &[[0, 1, 2], [3, 4, 5]],
    );
    assert_eq!(p(&along), vec![(0, 1)]);
    // Shared vertex, coplanar sectors overlapping without the far edges of
    // either meeting the other... they must: the overlap reaches a far edge.
    let wedge = mesh(
        &[
            [0., 0., 0.],
            [4., 1., 0.],
            [4., 3., 0.],
            [0., 0., 0.],
            [1., 0., 0.],
            [1., 1., 0.],
        ],
        &[[0, 1, 2], [3, 4, 5]],
    );
    assert_eq!(p(&wedge), vec![(0, 1)]);
    // Touching non-neighbours: a corner resting on another's interior.
    let touch = mesh(
        &[
            [0., 0., 0.],
            [2., 0., 0.],
            [0., 2., 0.],
            [0.5, 0.5, 0.],
            [0.5, 0.5, 1.],
            [1.5, 0.5, 1.],
        ],
        &[[0, 1, 2], [3, 4, 5]],
    );
    assert_eq!(p(&touch), vec![(0, 1)]);
    // A duplicate triangle (split vertices, reversed winding).
    let dup = mesh(
        &[
            [0., 0., 0.],
            [1., 0., 0.],
            [0., 1., 0.],
            [0., 1., 0.],
            [1., 0., 0.],
            [0., 0., 0.],
        ],
        &[[0, 1, 2], [3, 4, 5]],
    );
    assert_eq!(p(&dup), vec![(0, 1)]);
    // A degenerate triangle lying across another: reported with itself only.
    let degen = mesh(
        &[
            [0., 0., 0.],
            [2., 0., 0.],
            [0., 2., 0.],
            [0.5, 0.5, -1.],
            [0.5, 0.5, 0.],
            [0.5, 0.5, 1.],
        ],
        &[[0, 1, 2], [3, 4, 5]],
    );
    let d = selfx(&degen);
    assert_eq!(d.pairs, vec![(1, 1)]);
    assert_eq!(d.degenerate, vec![1]);
}

/// Tree descent equals brute force on random soups (many intersections),
/// on a bumpy grid surface with welded neighbours and planted folds,
/// duplicates and crossings, and on closed spheres (none).
#[test]
fn self_intersections_equal_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for n in [1, 2, 30, 400] {
        let pts: Vec<[f64; 3]> = (0..3 * n)
            .map(|_| {
                [
                    rng.random_range(0.0..4.0),
                    rng.random_range(0.0..4.0),
                    rng.random_range(0.0..1.0),
                ]
            })
            .collect();
        let tris: Vec<[u32; 3]> = (0..n as u32)
            .map(|k| [3 * k, 3 * k + 1, 3 * k + 2])
            .collect();
        selfx(&mesh(&pts, &tris));
    }
    // A 20x20 grid, heights on a coarse integer lattice so that neighbours
    // are often exactly coplanar; some cells folded back, some duplicated.
    let n = 20u32;
    let mut pts = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            pts.push([i as f64, j as f64, rng.random_range(0..2) as f64]);
        }
    }
    let v = |i: u32, j: u32| i * (n + 1) + j;
    let mut tris = Vec::new();
    for i in 0..n {
        for j in 0..n {
            tris.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]);
            match rng.random_range(0..10) {
                0 => tris.push([v(i, j), v(i + 1, j), v(i, j + 1)]), // overlaps its neighbour
                1 => tris.push([v(i, j), v(i + 1, j), v(i + 1, j + 1)]), // duplicate
                _ => tris.push([v(i, j), v(i + 1, j + 1), v(i, j + 1)]),
            }
        }
    }
    let grid = mesh(&pts, &tris);
    let found = selfx(&grid);
    assert!(!found.pairs.is_empty());
    // The same grid beyond the `f32` range of the tree's boxes and below
    // it (scaled by powers of two, so exactly the same configuration): the
    // boxes round outwards to ±f32::MAX, ±∞ or 0 and prune nothing, the
    // exact tests still decide, and the answer is the same. (Scales where
    // the predicates' products neither overflow nor underflow: Shewchuk's
    // arithmetic is exact only there.)
    for scale in [2f64.powi(200), 2f64.powi(-300), -2f64.powi(127)] {
        let far: Vec<[f64; 3]> = pts.iter().map(|p| p.map(|x| x * scale)).collect();
        assert_eq!(
            selfx(&mesh(&far, &tris)).pairs,
            found.pairs,
            "scale {scale:e}"
        );
    }
    let g = sphere(1.0, 24);
    let s = TriMesh {
        vertices: g.positions.clone(),
        triangles: g.triangles.clone(),
        sources: (0..g.triangles.len() as u32)
            .map(|k| TriangleSource::unplaced(0, k))
            .collect(),
    };
    assert!(selfx(&s).pairs.is_empty());
}

/// The neighbour rules as the search runs them — planes built once per
/// triangle, their filtered sides reused by the segment tests — against
/// the definition evaluated independently: two triangles sharing one
/// vertex `v` intersect iff the edge opposite `v` in one meets the other
/// ([`segment_triangle_intersect`], plain robust predicates); two sharing
/// the edge `pq` iff `orient3d(p, q, r, s) = 0` and `r`, `s` lie strictly on
/// one side of `pq`, decided on integer coordinates where the `f64` cross
/// products are exact. Near-coplanar pairs (a corner moved by an ulp or a
/// little more off the other's plane), exactly coplanar lattice pairs, and
/// tiny and huge coordinates, where a wrong filter bound would misjudge a
/// side.
#[test]
fn neighbour_rules_equal_their_definition() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mut seen = [0usize; 2];
    for k in 0..60_000 {
        let scale = [1.0, 1e-9, 1e12, 2f64.powi(-300), 2f64.powi(200)][k % 5];
        let lattice = (k / 5) % 2 == 0;
        let p = |rng: &mut ChaCha8Rng| {
            Point3::from(std::array::from_fn(|_| {
                if lattice {
                    rng.random_range(-3i32..4) as f64
                } else {
                    rng.random_range(-1.0..1.0)
                }
            }))
        };
        let v = p(&mut rng);
        let (a1, a2) = (p(&mut rng), p(&mut rng));
        // b's far corners: often in a's plane (a lattice combination of its
        // edges), then maybe nudged off it by an ulp or 1e-12.
        let in_plane = |rng: &mut ChaCha8Rng| {
            if rng.random_range(0..3) == 0 {
                return p(rng);
            }
            let (s, t) = (
                rng.random_range(-2i32..3) as f64,
                rng.random_range(-2i32..3) as f64,
            );
            let mut q = v + (a1 - v) * s + (a2 - v) * t;
            match rng.random_range(0..3) {
                0 => {}
                1 => q.z = q.z.next_up(),
                _ => q.y += 1e-12,
            }
            q
        };
        let (b1, b2) = (in_plane(&mut rng), in_plane(&mut rng));
        let scaled = |t: [Point3<f64>; 3]| t.map(|c| c * scale);
        let (a, b) = (scaled([v, a1, a2]), scaled([v, b1, b2]));
        if is_degenerate(&a) || is_degenerate(&b) {
            continue; // not subject to these rules
        }
        // One shared vertex (ids 0; then distinct).
        let want = segment_triangle_intersect(&a[1], &a[2], &b)
            || segment_triangle_intersect(&b[1], &b[2], &a);
        let got = adjacent_triangles_intersect(&a, &[0, 1, 2], &b, &[0, 3, 4]);
        assert_eq!(got, want, "shared vertex {a:?} {b:?}");
        seen[want as usize] += 1;
        // A shared edge `v a1` with `b1` as the other's third corner, on
        // integer coordinates (exact cross products).
        let (p0, q0, r0, s0) = (a[0], a[1], a[2], b[1]);
        if lattice && scale == 1.0 && s0.iter().all(|x| x.fract() == 0.0) {
            let (e, u, w) = (q0 - p0, r0 - p0, s0 - p0);
            let coplanar = o3_sign(&p0, &q0, &r0, &s0) == 0;
            let want = coplanar && e.cross(&u).dot(&e.cross(&w)) > 0.0;
            let got =
                adjacent_triangles_intersect(&[p0, q0, r0], &[0, 1, 2], &[q0, p0, s0], &[1, 0, 5]);
            assert_eq!(got, want, "shared edge {p0:?} {q0:?} {r0:?} {s0:?}");
        }
    }
    assert!(seen[0] > 5_000 && seen[1] > 5_000, "{seen:?}");
}

/// `clash --self --render` marks a face found per mesh (in the mesh's own
/// frame) in every instance of the mesh, and a face found in the flattened
/// scene (`--whole`) only there: the chain's one ring mesh is placed by two
/// nodes.
#[test]
fn self_intersections_are_marked_in_every_instance() {
    use bvtool::render::clash::self_intersections_in_world;
    let chain = concat!(env!("CARGO_MANIFEST_DIR"), "/models/chain.gltf");
    let scene = bvtool::load::load(std::path::Path::new(chain), &Default::default()).unwrap();
    let (_, _, ring) = bvtool::clash::local_meshes(&scene).remove(0);
    let found = [ring.sources[0], ring.sources[17]];
    let (world, faces) = self_intersections_in_world(&scene, false, &found);
    assert_eq!(world.triangles.len(), 2 * ring.triangles.len());
    assert_eq!(faces.len(), 4);
    let mut nodes = BTreeSet::new();
    for &f in &faces {
        let s = world.sources[f as usize];
        assert!(
            found
                .iter()
                .any(|t| (t.mesh, t.primitive, t.triangle) == (s.mesh, s.primitive, s.triangle))
        );
        nodes.insert(s.node);
    }
    assert_eq!(nodes.len(), 2, "both instances marked");
    let whole = [world.sources[5]];
    assert_eq!(self_intersections_in_world(&scene, true, &whole).1, vec![5]);
}

/// Depths by construction (clashes sorted deepest first): a small cube
/// inside a big one (0.95: the inner face nearest the centre lies 0.05
/// from it), two unit cubes overlapping by 0.5 along x, two by 0.1, a
/// small cube through an open box's wall (only the box's protrusion into
/// the cube is searched: its wall, 0.15 deep), and `min_depth` turning the
/// shallow pair into touching.
#[test]
fn depths_by_construction() {
    let (c1, small) = (cube(1.0), cube(0.25));
    let mut open = (*c1).clone();
    open.triangles.retain(|t| !t.iter().all(|&i| i & 4 != 0)); // drop z = +1
    let open = Arc::new(open);
    let s = scene(vec![
        place(0, 0, &c1, at(0.0, 0.0, 0.0)),
        place(1, 0, &c1, at(1.5, 0.2, 0.3)), // 0.5 deep along x
        place(2, 0, &c1, at(10.0, 0.0, 0.0)),
        place(3, 1, &small, at(10.1, 0.0, 0.2)), // inside 2
        place(4, 0, &c1, at(20.0, 0.0, 0.0)),
        place(5, 0, &c1, at(21.9, 0.3, 0.2)), // 0.1 deep
        place(6, 2, &open, at(30.0, 0.0, 0.0)),
        place(7, 1, &small, at(30.9, 0.1, 0.5)), // through the open box's wall
    ]);
    let scenes = [s];
    let cs = ClashScene::new(&scenes, &["built.gltf".into()], Grouping::Instance);
    let tol = 1e-9;
    let opts = |min_depth: f64, ignore_touching: bool| ClashOptions {
        ignore_touching,
        depth: Some(ClashDepth {
            search: DepthSettings {
                tolerance: Some(tol),
                max_splits: Some(200_000),
            },
            min_depth,
        }),
        ..Default::default()
    };
    let found = cs.clashes(&opts(0.0, false)).unwrap();
    let got: Vec<(usize, usize, ClashKind)> =
        found.clashes.iter().map(|c| (c.a, c.b, c.kind)).collect();
    assert_eq!(
        got,
        vec![
            (2, 3, ClashKind::Contained),
            (0, 1, ClashKind::Intersecting),
            (6, 7, ClashKind::Intersecting),
            (4, 5, ClashKind::Intersecting),
        ]
    );
    assert_eq!(found.candidate_pairs, 4);
    let depth = |k: usize| found.clashes[k].severity.unwrap();
    for (k, want) in [(0, 0.95), (1, 0.5), (2, 0.15), (3, 0.1)] {
        let s = depth(k);
        assert!(!s.capped && s.bound <= tol, "{s:?}");
        assert!((s.depth - want).abs() <= tol + 1e-12, "{k}: {s:?}");
        // The witnesses are `depth` apart along the normal.
        let (pa, pb, n) = (s.point_a.unwrap(), s.point_b.unwrap(), s.normal.unwrap());
        assert!(((pa - pb) - n * s.depth).norm() <= 1e-12, "{s:?}");
    }
    // The inner cube (b) protrudes: its bottom face, 0.95 above the big
    // cube's; b moved by 0.95 along −z brings that deep point onto it.
    let inner = depth(0);
    assert_eq!(inner.protruding, Some(3));
    assert!((inner.normal.unwrap() + Vector3::z()).norm() <= 1e-9);
    // Along x either face is as deep (a tie): b moves +x to separate. The
    // open box's wall (a, x = 31) reaches 0.15 into the small cube (b),
    // whose face at 31.15 moves −x onto it.
    for (k, x) in [(1, 1.0f64), (2, -1.0), (3, 1.0)] {
        assert!((depth(k).normal.unwrap() - x * Vector3::x()).norm() <= 1e-9);
    }
    assert!(
        [0, 1, 3]
            .iter()
            .all(|&k| depth(k).searched == Searched::Both)
    );
    assert_eq!(depth(2).searched, Searched::IntoB);
    assert_eq!(depth(2).protruding, Some(6));
    assert_eq!((found.shallow, found.touching_dropped), (0, 0));
    // Shallower than 0.2: touching; left out with ignore_touching.
    let found = cs.clashes(&opts(0.2, false)).unwrap();
    assert_eq!(found.shallow, 1);
    let c = found.clashes.iter().find(|c| (c.a, c.b) == (4, 5)).unwrap();
    assert_eq!(c.kind, ClashKind::Touching);
    let found = cs.clashes(&opts(0.2, true)).unwrap();
    assert_eq!((found.shallow, found.touching_dropped), (1, 1));
    assert_eq!(found.clashes.len(), 3);
    // 0.5 is not certainly below 0.5: still intersecting.
    let found = cs.clashes(&opts(0.5, true)).unwrap();
    assert_eq!(found.clashes.len(), 3);
    // Without depths: sorted by part, no severity.
    let found = cs.clashes(&ClashOptions::default()).unwrap();
    assert!(
        found
            .clashes
            .windows(2)
            .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b))
    );
    assert!(found.clashes.iter().all(|c| c.severity.is_none()));
}
