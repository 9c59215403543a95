//! Bounding volumes of every valid corpus model, cross-checked against
//! parry3d and against each other.

use bvtool_dev as common;

use bvtool::check::parry;
use bvtool::fit::{Aabb, ConvexHull, ObbMethod, SphereMethod, obb, sphere};

/// How many vertices per model get the exact hull-containment check.
const CONTAINMENT_CHECKED: usize = 20_000;

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn every_volume_bounds_every_vertex_and_they_are_ordered() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let scenes = common::valid_scenes(&dir);
    eprintln!("{} models loaded", scenes.len());
    for (entry, scene) in scenes {
        let pts = scene.flatten().vertices;
        let what = &entry.path;
        let Ok(hull) = ConvexHull::new(&pts) else {
            assert!(pts.is_empty(), "{what}: hull refused non-empty input");
            continue;
        };
        assert!(pts.iter().all(|p| p.iter().all(|x| x.is_finite())));

        // AABB vs parry3d's point-cloud AABB (computed in f32).
        let aabb = Aabb::from_points(&pts).unwrap();
        let (pmin, pmax) = parry::point_cloud_aabb(&pts);
        let scale = aabb
            .min
            .coords
            .amax()
            .max(aabb.max.coords.amax())
            .max(1e-30);
        let f32_tol = 2.0 * f32::EPSILON as f64 * scale;
        assert!((aabb.min - pmin).amax() <= f32_tol, "{what}: aabb min");
        assert!((aabb.max - pmax).amax() <= f32_tol, "{what}: aabb max");
        let tol = 1e-12 * scale;

        let spheres: Vec<_> = SphereMethod::ALL
            .iter()
            .map(|&m| (m, sphere(&pts, m).unwrap()))
            .collect();
        for (m, s) in &spheres {
            assert!(pts.iter().all(|p| s.contains(p, 0.0)), "{what}: {m} sphere");
        }
        let exact = spheres[2].1.radius;
        for (m, s) in &spheres {
            assert!(exact <= s.radius + tol, "{what}: exact > {m}");
        }
        let (_, parry_r) = parry::point_cloud_bounding_sphere(&pts);
        assert!(
            exact <= parry_r + f32_tol,
            "{what}: exact {exact} > parry3d {parry_r}"
        );

        let boxes: Vec<_> = ObbMethod::ALL
            .iter()
            .map(|&m| {
                let t = std::time::Instant::now();
                let b = obb(&pts, &hull, m).unwrap();
                if m == ObbMethod::Tight {
                    eprintln!("{what}: tight OBB in {:.3} s", t.elapsed().as_secs_f64());
                }
                (m, b)
            })
            .collect();
        for (m, b) in &boxes {
            assert!(pts.iter().all(|p| b.contains(p, 0.0)), "{what}: {m} box");
        }
        let vol_tol = 1e-9 * scale.powi(3);
        // The minimum-volume box: at most every other box, the fast face rule's included.
        let tight = boxes[ObbMethod::ALL
            .iter()
            .position(|&m| m == ObbMethod::Tight)
            .unwrap()]
        .1
        .volume();
        let hv = hull.volume();
        for (m, b) in &boxes {
            assert!(tight <= b.volume() + vol_tol, "{what}: tight > {m}");
            assert!(hv <= b.volume() + vol_tol, "{what}: hull > {m}");
        }
        assert!(tight <= aabb.volume() + vol_tol, "{what}: tight > aabb");
        assert!(hv <= aabb.volume() + vol_tol, "{what}: hull > aabb");
        for (_, s) in &spheres {
            assert!(hv <= s.volume() + vol_tol, "{what}: hull > sphere");
        }
        if hull.dimension == 3 {
            // Exact containment is O(points × faces): every vertex of the
            // models up to CONTAINMENT_CHECKED vertices, an even stride of
            // the larger ones (1.6M × 5.5k faces would take minutes).
            let stride = pts.len().div_ceil(CONTAINMENT_CHECKED);
            assert!(
                pts.iter().step_by(stride).all(|p| hull.contains(p)),
                "{what}: hull misses a vertex"
            );
        }
    }
}
