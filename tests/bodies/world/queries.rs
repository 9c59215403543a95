//! Colliding pairs, one body against all, clearance and the least distance
//! between groups, against the all-pairs check without the broad phase:
//! every body pair, every pair of their shapes, queried with bvtool's
//! exact `collide`, `distance` (and on some rounds the brute-force
//! triangle-pair check) at the shapes' relative pose, and for pairs
//! whose surfaces do not meet the oracle's nested-solids test
//! (`bvtool_dev::oracle::nested`), over many random
//! pose updates; and the incrementally sorted broad phase against one
//! sorted afresh.

use super::common::{nudge, random_pose, random_world, rng, shape_pairs};
use bvtool::query::{ContactMode, DistanceOptions, brute_force, collide, distance};
use bvtool_dev::oracle::{nested, triangles};
use rand::Rng;

#[test]
fn world_queries_equal_the_all_pairs_check_over_random_pose_updates() {
    let mut rng = rng(39);
    let n = 24;
    let (mut world, parts) = random_world(&mut rng, n, 4.0);
    // Some pairs allowed.
    let mut allowed = Vec::new();
    for _ in 0..20 {
        let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
        if a != b {
            world.allow(a, b).unwrap();
            allowed.push((a.min(b), a.max(b)));
        }
    }
    let tested = |a: usize, b: usize| !allowed.contains(&(a, b));
    let (mut total_hits, mut total_near) = (0, 0);
    for round in 0..16 {
        // Move every body a little, or some far, or one at a time.
        let moves: Vec<_> = (0..n)
            .map(|i| {
                let p = world.bodies()[i].pose;
                let p = if round % 5 == 4 && i % 3 == 0 {
                    random_pose(&mut rng, 4.0)
                } else {
                    nudge(&mut rng, &p, 0.3)
                };
                (i, p)
            })
            .collect();
        if round % 2 == 0 {
            world.set_poses(&moves).unwrap();
        } else {
            for &(i, p) in &moves {
                world.set_pose(i, p).unwrap();
            }
        }
        // The oracle: every tested pair's exact collision and distance.
        let mut hits = Vec::new();
        let at = |a: usize, b: usize| a.min(b) * n + a.max(b);
        let mut dist = vec![f64::INFINITY; n * n];
        for a in 0..n {
            for b in a + 1..n {
                let mut hit = false;
                for (ma, ta, mb, tb, pose, _) in shape_pairs(&world, &parts, a, b) {
                    let h = collide(ta, tb, &pose, ContactMode::All).intersecting;
                    if round % 8 == 0 {
                        assert_eq!(h, !brute_force(ma, mb, &pose).is_empty());
                    }
                    hit |= h;
                    // Solids: one inside the other (surfaces apart) is at 0.
                    let nest = !h && {
                        let placed: Vec<_> = triangles(mb)
                            .iter()
                            .map(|t| t.map(|c| pose.transform_point(&c)))
                            .collect();
                        // Every mesh of the random world is closed.
                        nested(&triangles(ma), true, &placed, true, &mut rng)
                    };
                    hit |= nest;
                    let d = distance(ta, tb, &pose, &DistanceOptions::default()).unwrap();
                    let d = if nest { 0.0 } else { d.distance };
                    dist[at(a, b)] = dist[at(a, b)].min(d);
                }
                if hit && tested(a, b) {
                    hits.push((a, b));
                }
            }
        }
        let got = world.colliding_pairs().unwrap();
        assert_eq!(got, hits, "round {round}");
        total_hits += hits.len();
        // The same answers from a broad phase sorted afresh.
        let mut fresh = world.clone();
        fresh.rebuild_broad_phase();
        assert_eq!(fresh.colliding_pairs().unwrap(), hits);
        // One body against all.
        let i = round % n;
        let want: Vec<_> = (0..n)
            .filter(|&j| j != i && tested(i.min(j), i.max(j)))
            .filter(|&j| hits.contains(&(i.min(j), i.max(j))))
            .collect();
        assert_eq!(world.colliding_with_body(i).unwrap(), want);
        // Clearance: pairs well inside or outside 0.2 are decided.
        let d = 0.2;
        let near = world.pairs_within(d).unwrap();
        assert_eq!(fresh.pairs_within(d).unwrap(), near);
        for a in 0..n {
            for b in a + 1..n {
                let e = dist[at(a, b)];
                if !tested(a, b) || (e - d).abs() < 1e-9 {
                    continue;
                }
                assert_eq!(
                    near.contains(&(a, b)),
                    e <= d,
                    "round {round} {a}-{b} at {e}"
                );
            }
        }
        total_near += near.len();
        // The least distance between two groups, with its witnesses.
        let (ga, gb): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| (i + round) % 4 == 0);
        let w = world.distance(&ga, &gb).unwrap().unwrap();
        let least = ga
            .iter()
            .flat_map(|&a| gb.iter().map(move |&b| (a, b)))
            .filter(|&(a, b)| tested(a.min(b), a.max(b)))
            .map(|(a, b)| dist[at(a, b)])
            .fold(f64::INFINITY, f64::min);
        assert!(
            (w.distance - least).abs() <= 2.0 * w.rounding_bound + 1e-12,
            "round {round}: {} vs {least}",
            w.distance
        );
        assert!(ga.contains(&w.bodies.0) && gb.contains(&w.bodies.1));
        assert!(
            (dist[at(w.bodies.0, w.bodies.1)] - w.distance).abs() <= 2.0 * w.rounding_bound + 1e-12
        );
        assert!(((w.point_a - w.point_b).norm() - w.distance).abs() <= 1e-9);
    }
    // The rounds are not all trivially apart or all together.
    assert!(total_hits > 16 && total_hits < 16 * 200, "{total_hits}");
    assert!(total_near > total_hits, "{total_near} vs {total_hits}");
}
