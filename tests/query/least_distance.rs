//! The least distance over a path (`Sweep::least_distance`) against the
//! exact distance at dense samples of every segment: the certified lower
//! bound never exceeds a sampled distance, the distance found is attained
//! (the exact query at its pose agrees) and is within the tolerance of the
//! least sampled distance, so the search found the global minimum, not a
//! local one.

use bvtool::TriMesh;
use bvtool::check::poses::random_rotation;
use bvtool::pose::Pose;
use bvtool::query::motion::{LeastOptions, Motion, Sweep};
use bvtool::query::{DistanceOptions, distance};
use bvtool::tree::ObbTree;
use bvtool_dev::motion::point_near;
use bvtool_dev::shapes::{icosphere, torus};
use nalgebra::Point3;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// An icosphere of radius `r` and `k` subdivisions.
fn ball(r: f64, k: u32) -> TriMesh {
    let mut m = icosphere(k);
    for v in &mut m.vertices {
        *v *= r;
    }
    m
}

/// Exact distance at `pose` (0 when meeting) and its rounding bound.
fn exact(a: &ObbTree, b: &ObbTree, pose: &Pose) -> (f64, f64) {
    let d = distance(a, b, pose, &DistanceOptions::default()).unwrap();
    let value = if d.intersecting { 0.0 } else { d.distance };
    (value, d.rounding_bound)
}

#[test]
fn least_distance_over_paths_is_the_sampled_minimum_within_its_tolerance() {
    let mut rng = ChaCha8Rng::seed_from_u64(389);
    let a = ObbTree::build_default(&torus(1.0, 0.35, 24, 12), Default::default());
    let b = ObbTree::build_default(&ball(0.4, 2), Default::default());
    let mut sweep = Sweep::new(&a, &b);
    let mut met = 0;
    for case in 0..16 {
        let poses: Vec<Pose> = (0..3)
            .map(|_| {
                Pose::new(
                    point_near(&mut rng, &Point3::origin(), 3.5),
                    random_rotation(&mut rng),
                )
            })
            .collect();
        let opts = LeastOptions {
            rel_tol: if case % 2 == 0 { 1e-3 } else { 1e-5 },
            tol: if case % 3 == 0 { 1e-9 } else { 0.0 },
            ..LeastOptions::default()
        };
        let least = sweep.least_distance(&poses, &opts).unwrap();
        assert!(least.certified, "case {case}: {least:?}");
        let tolerance = opts.tol.max(opts.rel_tol * least.distance);
        assert!(least.distance - least.lower <= tolerance, "case {case}");
        // Attained: the exact distance at the reported pose.
        let (at, rb) = exact(&a, &b, &least.pose);
        assert!(
            at <= least.distance + rb,
            "case {case}: {at} > {}",
            least.distance
        );
        assert!(least.distance <= at * (1.0 + opts.rel_tol) + opts.tol + 2.0 * rb + 1e-15);
        assert!(
            (least.pose.translation
                - Motion::new(poses[least.segment], poses[least.segment + 1])
                    .pose_at(least.t)
                    .translation)
                .norm()
                < 1e-12
        );
        // Dense samples: none below the lower bound, and their least within
        // the tolerance of the distance found.
        let mut sampled = f64::INFINITY;
        for pair in poses.windows(2) {
            let motion = Motion::new(pair[0], pair[1]);
            for k in 0..=200 {
                let (d, rb) = exact(&a, &b, &motion.pose_at(k as f64 / 200.0));
                assert!(
                    least.lower <= d + rb + least.rounding_bound,
                    "case {case}: sample {d} below {}",
                    least.lower
                );
                sampled = sampled.min(d);
            }
        }
        assert!(
            least.distance <= sampled + tolerance + least.rounding_bound,
            "case {case}: found {} but a sample is at {sampled}",
            least.distance
        );
        if least.distance == 0.0 {
            met += 1;
        }
    }
    assert!(
        (2..14).contains(&met),
        "{met} of 16 paths meet: too few of one kind"
    );
}

#[test]
fn least_distance_refuses_bad_options_and_short_paths() {
    let a = ObbTree::build_default(&ball(0.4, 1), Default::default());
    let mut sweep = Sweep::new(&a, &a);
    let p = Pose::identity();
    assert!(
        sweep
            .least_distance(&[p], &LeastOptions::default())
            .is_err()
    );
    for opts in [
        LeastOptions {
            tol: 0.0,
            rel_tol: 0.0,
            ..LeastOptions::default()
        },
        LeastOptions {
            rel_tol: 1.0,
            ..LeastOptions::default()
        },
        LeastOptions {
            tol: f64::NAN,
            ..LeastOptions::default()
        },
        LeastOptions {
            max_distance_calls: 0,
            ..LeastOptions::default()
        },
    ] {
        assert!(sweep.least_distance(&[p, p], &opts).is_err(), "{opts:?}");
    }
}
