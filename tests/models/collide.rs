//! Real-model collision suite (ignored; run by .ci/run in release): on the
//! corpus' collision pairs, the tree query's all-pairs set equals brute force
//! on small meshes, and its boolean agrees with parry3d on random and
//! near-boundary poses, every disagreement being a pair that touches within
//! parry's `f32` tolerance (checked with the exact query at nudged poses).

use bvtool_dev as common;

use bvtool::TriMesh;
use bvtool::check::parry::ParryPair;
use bvtool::check::poses::{near_boundary, random_direction, random_rotation};
use bvtool::fit::Aabb;
use bvtool::pose::Pose;
use bvtool::query::pair::intersect_triangle_triangle::triangles_intersect;
use bvtool::query::{ContactMode, brute_force, collide};
use bvtool::tree::ObbTree;
use nalgebra::{Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// A mesh from the corpus: through `bvtool::load` when that format's loader
/// has landed, else a minimal reader (OBJ `v`/`f` lines, fan-triangulated,
/// negative indices; STL through `stl_io`) so this suite runs on its own
/// branch. `None` when neither can read it.
fn load(dir: &Path, rel: &str) -> Option<TriMesh> {
    let path = dir.join(rel);
    if let Ok(scene) = bvtool::load::load(&path, &Default::default()) {
        return Some(scene.flatten());
    }
    let mut m = TriMesh::default();
    let src = |k: usize| bvtool::TriangleSource::unplaced(0, k as u32);
    match path.extension()?.to_str()? {
        "obj" => {
            let text = std::fs::read_to_string(&path).ok()?;
            for line in text.lines() {
                let mut w = line.split_whitespace();
                match w.next() {
                    Some("v") => {
                        let c: Vec<f64> = w.take(3).filter_map(|x| x.parse().ok()).collect();
                        m.vertices.push(Point3::new(c[0], c[1], c[2]));
                    }
                    Some("f") => {
                        let n = m.vertices.len() as i64;
                        let idx: Vec<u32> = w
                            .filter_map(|x| x.split('/').next()?.parse::<i64>().ok())
                            .map(|i| if i < 0 { n + i } else { i - 1 } as u32)
                            .collect();
                        for k in 1..idx.len().saturating_sub(1) {
                            m.triangles.push([idx[0], idx[k], idx[k + 1]]);
                            m.sources.push(src(m.sources.len()));
                        }
                    }
                    _ => {}
                }
            }
        }
        "stl" => {
            let mut f = std::fs::File::open(&path).ok()?;
            let s = stl_io::read_stl(&mut f).ok()?;
            m.vertices = s
                .vertices
                .iter()
                .map(|v| Point3::new(v[0] as f64, v[1] as f64, v[2] as f64))
                .collect();
            for (k, t) in s.faces.iter().enumerate() {
                m.triangles.push(t.vertices.map(|i| i as u32));
                m.sources.push(src(k));
            }
        }
        _ => return None,
    }
    Some(m)
}

fn scaled(mut m: TriMesh, s: f64) -> TriMesh {
    for v in &mut m.vertices {
        *v = Point3::from(v.coords * s);
    }
    m
}

fn size(m: &TriMesh) -> f64 {
    let b = Aabb::from_points(&m.vertices).unwrap();
    (b.max - b.min).norm()
}

/// Random poses that put B's box centre within reach of A's.
fn random_poses(a: &TriMesh, b: &TriMesh, n: usize, seed: u64) -> Vec<Pose> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (ba, bb) = (
        Aabb::from_points(&a.vertices).unwrap(),
        Aabb::from_points(&b.vertices).unwrap(),
    );
    let reach = 0.5 * (size(a) + size(b));
    (0..n)
        .map(|_| {
            let q = random_rotation(&mut rng);
            let d = random_direction(&mut rng) * reach * rng.random_range(0.0..1.0);
            Pose::new(ba.center().coords + d - q * bb.center().coords, q)
        })
        .collect()
}

/// The smallest of the given distances (fractions of the size) by which
/// moving B flips the exact answer, over the axis and diagonal directions.
fn touching_within(
    ta: &ObbTree,
    tb: &ObbTree,
    pose: &Pose,
    size: f64,
    tiers: &[f64],
) -> Option<usize> {
    let here = collide(ta, tb, pose, ContactMode::First).intersecting;
    let mut dirs = Vec::new();
    for x in [-1.0, 0.0, 1.0] {
        for y in [-1.0, 0.0, 1.0] {
            for z in [-1.0, 0.0, 1.0] {
                if (x, y, z) != (0.0, 0.0, 0.0) {
                    dirs.push(Vector3::new(x, y, z).normalize());
                }
            }
        }
    }
    tiers.iter().position(|&f| {
        dirs.iter().any(|d| {
            let moved = Pose::new(pose.translation + d * (f * size), pose.rotation);
            collide(ta, tb, &moved, ContactMode::First).intersecting != here
        })
    })
}

/// The widest gap between the two triangles' projections over the 11
/// candidate axes (both normals, the 9 edge cross products, normalized): a
/// positive value is a separating axis, independent of the exact test.
fn gap(x: &[Point3<f64>; 3], y: &[Point3<f64>; 3]) -> f64 {
    let e = |t: &[Point3<f64>; 3], i: usize| t[(i + 1) % 3] - t[i];
    let mut axes = vec![e(x, 0).cross(&e(x, 1)), e(y, 0).cross(&e(y, 1))];
    for i in 0..3 {
        for j in 0..3 {
            axes.push(e(x, i).cross(&e(y, j)));
        }
    }
    axes.iter()
        .filter(|l| l.norm() > 1e-12)
        .map(|l| {
            let l = l.normalize();
            let r = |t: &[Point3<f64>; 3]| {
                let d = t.map(|p| l.dot(&p.coords));
                (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]))
            };
            let ((a0, a1), (b0, b1)) = (r(x), r(y));
            (b0 - a1).max(a0 - b1)
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

struct PairCase {
    a: &'static str,
    b: &'static str,
    scale_a: f64,
    scale_b: f64,
    brute: bool,
}

const PAIRS: &[PairCase] = &[
    PairCase {
        a: "obj/stanford-bunny.obj",
        b: "obj/stanford-bunny.obj",
        scale_a: 1.0,
        scale_b: 1.0,
        brute: true,
    },
    PairCase {
        a: "obj/pybullet/duck.obj",
        b: "obj/pybullet/teddy2_VHACD_CHs.obj",
        scale_a: 0.05,
        scale_b: 3.0,
        brute: false,
    },
    PairCase {
        a: "obj/pybullet/duck.obj",
        b: "obj/pybullet/duck_vhacd.obj",
        scale_a: 1.0,
        scale_b: 1.0,
        brute: true,
    },
    PairCase {
        a: "obj/mujoco_menagerie/kuka_iiwa_14/assets/link_2_orange.obj",
        b: "obj/mujoco_menagerie/kuka_iiwa_14/assets/link_2_grey.obj",
        scale_a: 1.0,
        scale_b: 1.0,
        brute: true,
    },
    PairCase {
        a: "obj/pybullet/kuka_iiwa/meshes/link_1.obj",
        b: "obj/pybullet/kuka_iiwa/meshes/link_2.obj",
        scale_a: 1.0,
        scale_b: 1.0,
        brute: true,
    },
    PairCase {
        a: "obj/mujoco_menagerie/shadow_hand/assets/palm.obj",
        b: "obj/mujoco_menagerie/shadow_hand/assets/f_proximal.obj",
        scale_a: 1.0,
        scale_b: 1.0,
        brute: true,
    },
    PairCase {
        a: "obj/mujoco_menagerie/universal_robots_ur5e/assets/upperarm_1.obj",
        b: "obj/mujoco_menagerie/universal_robots_ur5e/assets/forearm_2.obj",
        scale_a: 1.0,
        scale_b: 1.0,
        brute: false,
    },
    PairCase {
        a: "stl/mujoco_menagerie/robotiq_2f85/assets/driver.stl",
        b: "stl/mujoco_menagerie/robotiq_2f85/assets/follower.stl",
        scale_a: 1.0,
        scale_b: 1.0,
        brute: true,
    },
    PairCase {
        a: "gltf/Duck/glTF-Binary/Duck.glb",
        b: "obj/pybullet/duck.obj",
        scale_a: 1.0,
        scale_b: 1.0,
        brute: false,
    },
    PairCase {
        a: "obj/stanford-bunny.obj",
        b: "obj/common-3d-test-models/stanford-bunny.obj",
        scale_a: 0.015,
        scale_b: 1.0,
        brute: false,
    },
];

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn corpus_pairs_match_brute_force_and_parry() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let tiers = [1e-6, 1e-5, 1e-4, 1e-3];
    for case in PAIRS {
        let (Some(a), Some(b)) = (load(&dir, case.a), load(&dir, case.b)) else {
            eprintln!(
                "skipping {} vs {}: not loadable on this branch",
                case.a, case.b
            );
            continue;
        };
        let (a, b) = (scaled(a, case.scale_a), scaled(b, case.scale_b));
        let (ta, tb) = (ObbTree::build(&a), ObbTree::build(&b));
        let sz = size(&a).max(size(&b));
        let mut poses = near_boundary(&a, &b, 200, 17);
        poses.extend(random_poses(&a, &b, 300, 23));
        let parry = ParryPair::new(&a, &b).expect("parry accepts the meshes");
        let small = a.triangles.len() <= 5000 && b.triangles.len() <= 5000;
        let (mut hits, mut disagree, mut by_tier, mut parry_false_bool) = (0, 0, [0usize; 4], 0);
        let (mut pair_diffs, mut pair_tiers, mut parry_false) = (0, [0usize; 4], 0);
        for (k, pose) in poses.iter().enumerate() {
            let first = collide(&ta, &tb, pose, ContactMode::First);
            hits += first.intersecting as usize;
            let place = bvtool::query::Placement::new(pose);
            let theirs = parry.intersection(pose);
            if first.intersecting != theirs.is_some() {
                disagree += 1;
                // parry claims a pair: if a separating axis shows that pair
                // clearly apart, it is parry's false positive.
                let clearly_apart = theirs.is_some_and(|(i, j)| {
                    gap(
                        &a.triangle(i as usize),
                        &place.triangle(&b.triangle(j as usize)),
                    ) > 1e-4 * sz
                });
                if clearly_apart {
                    parry_false_bool += 1;
                } else {
                    let t = touching_within(&ta, &tb, pose, sz, &tiers).unwrap_or_else(|| {
                        panic!(
                            "{} vs {}: clear disagreement with parry at {pose:?}",
                            case.a, case.b
                        )
                    });
                    by_tier[t] += 1;
                }
            }
            // All pairs: brute force on the small meshes (a subset of poses
            // to keep the suite short), and parry's pair set, whose extra or
            // missing pairs must be triangles touching within f32 tolerance.
            if case.brute && small && k % 4 == 0 {
                let all = collide(&ta, &tb, pose, ContactMode::All);
                assert_eq!(
                    all.pairs,
                    brute_force(&a, &b, pose),
                    "{} vs {} at {pose:?}",
                    case.a,
                    case.b
                );
                assert_eq!(all.intersecting, first.intersecting);
                let pp = parry.pairs(pose).unwrap();
                for &(i, j) in pp
                    .iter()
                    .filter(|p| all.pairs.binary_search(p).is_err())
                    .chain(all.pairs.iter().filter(|p| pp.binary_search(p).is_err()))
                {
                    pair_diffs += 1;
                    let (x, y) = (
                        a.triangle(i as usize),
                        place.triangle(&b.triangle(j as usize)),
                    );
                    let here = triangles_intersect(&x, &y);
                    let dirs: Vec<Vector3<f64>> = [Vector3::x(), Vector3::y(), Vector3::z()]
                        .into_iter()
                        .chain([
                            (x[1] - x[0]).cross(&(x[2] - x[0])),
                            (y[1] - y[0]).cross(&(y[2] - y[0])),
                        ])
                        .filter(|n| n.norm() > 0.0)
                        .flat_map(|n| [n.normalize(), -n.normalize()])
                        .collect();
                    let tier = tiers.iter().position(|&f| {
                        dirs.iter()
                            .any(|d| triangles_intersect(&x, &y.map(|p| p + d * (f * sz))) != here)
                    });
                    match tier {
                        Some(t) => pair_tiers[t] += 1,
                        None => {
                            // Not near touching: only allowed when parry
                            // claims a pair that a separating axis shows to
                            // be clearly apart (parry's f32 GJK false
                            // positive on a triangle pair).
                            let g = gap(&x, &y);
                            assert!(
                                !here && g > 1e-4 * sz,
                                "{} vs {}: pair ({i}, {j}) differs from parry and is not near touching: {x:?} {y:?} mine {here}, gap {g}",
                                case.a,
                                case.b
                            );
                            if parry_false == 0 {
                                eprintln!(
                                    "  e.g. parry pair ({i}, {j}) with separating gap {g}: {x:?} {y:?}"
                                );
                            }
                            parry_false += 1;
                        }
                    }
                }
            }
        }
        eprintln!(
            "{} vs {}: {} poses, {hits} colliding, {disagree} boolean disagreements with parry (within {tiers:?}·size of touching: {by_tier:?}; {parry_false_bool} where parry's claimed pair is clearly apart), {pair_diffs} pair-set differences (same tiers: {pair_tiers:?}; {parry_false} parry pairs clearly apart by a separating axis)",
            case.a,
            case.b,
            poses.len()
        );
        assert!(
            hits > poses.len() / 10,
            "too few collisions to mean anything"
        );
    }
}
