//! Point and ray queries on corpus meshes — closed, open, non-manifold,
//! multi-part, soups, scenes with negative scales and instancing — against
//! brute force over every triangle (`bvtool_dev::oracle`):
//!
//! - closest points: the distance within twice the rounding bound of the
//!   least triangle distance, and the reported triangle as near;
//! - inside, on a closed mesh: the exact winding number (or, closed only
//!   mod 2, the parity) of a random segment's crossings under exact
//!   predicates, for every point off the surface (overlapping closed parts
//!   wind twice); on an open one: the plain sum of solid angles, the
//!   hierarchical winding number within its stated bound of it and the side
//!   of ½ the same wherever the sum is clear of ½ by 1e-6;
//! - rays: the triangles a ray crosses exactly those the exact segment test
//!   finds, the first hit the nearest of them, and on closed meshes the
//!   parity of the hits of a ray from a point deciding inside exactly as
//!   `contains` does.
//!
//! Points: half uniform in the bounding box grown by 10 % of its diagonal,
//! half at vertices plus a Gaussian-like offset of 1 % of the diagonal. Their
//! number per mesh is `WORK / triangles` (at least 500, at most 100,000), so
//! each brute-force oracle costs about the same on every mesh.

use bvtool::query::pair::distance_triangle_triangle::rounding_bound;
use bvtool::query::point::{PointTree, SignMethod, each};
use bvtool::query::ray::{Ray, all_hits, first_hit};
use bvtool_dev::oracle::{
    brute_distance, brute_winding, crossed, crossings, segment_crosses, triangles,
};
use nalgebra::{Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Points × triangles per mesh and oracle.
const WORK: usize = 10_000_000;

/// Rays per mesh.
const RAYS: usize = 300;

const MESHES: &[&str] = &[
    "stl/assimp/sphereWithHole.stl",
    "obj/pybullet/duck_vhacd.obj",
    "obj/pybullet/objects/mug.obj",
    "obj/common-3d-test-models/suzanne.obj",
    "obj/assimp/spider.obj",
    "stl/pybullet/l_finger.stl",
    "obj/pybullet/teddy2_VHACD_CHs.obj",
    "stl/pybullet/kuka_iiwa/meshes/link_1.stl",
    "obj/stanford-bunny.obj",
    "gltf/Duck/glTF-Binary/Duck.glb",
    "obj/common-3d-test-models/spot.obj",
    "obj/common-3d-test-models/teapot.obj",
    "gltf/NegativeScaleTest/glTF-Binary/NegativeScaleTest.glb",
    "gltf/SimpleInstancing/glTF-Binary/SimpleInstancing.glb",
];

fn points(m: &[[Point3<f64>; 3]], n: usize, seed: u64) -> (Vec<Point3<f64>>, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let corners: Vec<Point3<f64>> = m.iter().flatten().copied().collect();
    let (mut lo, mut hi) = (corners[0], corners[0]);
    for c in &corners {
        lo = lo.inf(c);
        hi = hi.sup(c);
    }
    let diag = (hi - lo).norm();
    let pad = Vector3::repeat(0.1 * diag);
    let (lo, hi) = (lo - pad, hi + pad);
    // A bell of standard deviation about `s`: the sum of four uniforms.
    let noise =
        |rng: &mut ChaCha8Rng, s: f64| (0..4).map(|_| rng.random_range(-s..s)).sum::<f64>() * 0.866;
    let pts = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                let v = corners[rng.random_range(0..corners.len())];
                v + Vector3::from_fn(|_, _| noise(&mut rng, 0.01 * diag))
            } else {
                Point3::from(Vector3::from_fn(|k, _| rng.random_range(lo[k]..hi[k])))
            }
        })
        .collect();
    (pts, diag)
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn point_and_ray_queries_equal_brute_force_on_the_corpus() {
    let Some(dir) = bvtool_dev::models_dir() else {
        return;
    };
    let mut methods = Vec::new();
    for (m_i, rel) in MESHES.iter().enumerate() {
        let scene = bvtool::load::load(&dir.join(rel), &Default::default()).unwrap();
        let mesh = scene.flatten();
        let tris = triangles(&mesh);
        let tree = PointTree::build(&mesh);
        let method = tree.sign_method();
        methods.push(method);
        let n = (WORK / tris.len()).clamp(500, 100_000);
        let (pts, diag) = points(&tris, n, m_i as u64);
        let scale = tris
            .iter()
            .flatten()
            .chain(&pts)
            .map(|p| p.coords.amax())
            .fold(0.0, f64::max);
        let bound = 2.0 * rounding_bound(scale);

        // Closest points.
        let wrong = each(&pts, |p| {
            let want = brute_distance(&tris, p);
            let c = tree.closest(p).unwrap();
            let own = brute_distance(&[tris[c.triangle as usize]], p);
            ((c.distance - want).abs() > bound || (own - want).abs() > bound)
                .then(|| format!("{p}: {} (triangle {}) vs {want}", c.distance, c.triangle))
        });
        let wrong: Vec<_> = wrong.into_iter().flatten().collect();
        assert!(
            wrong.is_empty(),
            "{rel}: {} closest points off: {:?}",
            wrong.len(),
            &wrong[..wrong.len().min(3)]
        );

        // Inside.
        let idx: Vec<usize> = (0..pts.len()).collect();
        let wrong = each(&idx, |&i| {
            let p = &pts[i];
            match method {
                SignMethod::Winding | SignMethod::Parity => {
                    if brute_distance(&tris, p) <= 1e-9 * diag {
                        return None;
                    }
                    let mut rng = ChaCha8Rng::seed_from_u64(i as u64);
                    let (signed, count) = crossings(&tris, p, &mut rng);
                    let want = match method {
                        SignMethod::Winding => signed as f64,
                        _ => (count % 2) as f64,
                    };
                    let w = tree.winding_number(p).value;
                    (w != want || tree.contains(p) != (want > 0.5))
                        .then(|| format!("{p}: winding {w} vs {want}"))
                }
                SignMethod::Generalized => {
                    let want = brute_winding(&tris, p);
                    let w = tree.winding_number(p);
                    let side_ok = (want - 0.5).abs() <= 1e-6 || tree.contains(p) == (want > 0.5);
                    let value_ok = (w.value - want).abs() <= w.bound + 1e-9;
                    (!side_ok || !value_ok)
                        .then(|| format!("{p}: {} ± {} vs {want}", w.value, w.bound))
                }
            }
        });
        let wrong: Vec<_> = wrong.into_iter().flatten().collect();
        assert!(
            wrong.is_empty(),
            "{rel} ({}): {} signs off: {:?}",
            method.name(),
            wrong.len(),
            &wrong[..wrong.len().min(3)]
        );

        // Rays: from a sphere around the box towards the sample points.
        let centre = pts.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / pts.len() as f64;
        let mut rng = ChaCha8Rng::seed_from_u64(100 + m_i as u64);
        let (mut checked, mut hits) = (0, 0);
        for i in 0..RAYS {
            let dir = Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0));
            let o = Point3::from(centre + dir.normalize() * diag);
            let target = pts[rng.random_range(0..pts.len())];
            let d = target - o;
            let far = o + d * 1e3;
            let Some(mut want) = crossed(&tris, &o, &far) else {
                continue;
            };
            let r = Ray {
                origin: o,
                direction: d,
                t_min: 0.0,
                t_max: f64::INFINITY,
            };
            let got = all_hits(&tree.tree, &r);
            let mut ids: Vec<u32> = got.iter().map(|h| h.triangle).collect();
            ids.sort_unstable();
            want.sort_unstable();
            assert_eq!(ids, want, "{rel} ray {i}");
            assert_eq!(
                first_hit(&tree.tree, &r),
                got.first().copied(),
                "{rel} ray {i}"
            );
            // Closed: the parity of the hits from the target point decides
            // its inside as `contains` does.
            if method != SignMethod::Generalized && brute_distance(&tris, &target) > 1e-9 * diag {
                let from = Ray {
                    origin: target,
                    ..r
                };
                let far = target + d * 1e3;
                if tris
                    .iter()
                    .all(|t| segment_crosses(&target, &far, t).is_some())
                {
                    let odd = all_hits(&tree.tree, &from).len() % 2 == 1;
                    assert_eq!(odd, tree.contains(&target), "{rel} ray {i}: parity");
                }
            }
            checked += 1;
            hits += got.len();
        }
        assert!(
            checked > RAYS / 2 && hits > 0,
            "{rel}: {checked} rays checked, {hits} hits"
        );
    }
    // The corpus list covers both ways of deciding inside.
    assert!(methods.contains(&SignMethod::Generalized), "{methods:?}");
    assert!(
        methods.iter().any(|m| *m != SignMethod::Generalized),
        "{methods:?}"
    );
}
