//! Time of impact as a library call against discrete checking, per motion:
//! three corpus pairs (`benches/motion.py`'s), 400 random motions each
//! ([`random_motions`]: half turning at most 0.3 rad, half any amount), one
//! thread; `Sweep::time_of_impact` (certified, tol 1e-6) against exact
//! `collide` at 100 equally spaced poses until the first contact (not
//! certified), each the least of 3 runs; medians per motion, over all
//! motions, over the motions certified free and over the others.
//!
//! Run: `cargo run --release -p bvtool-dev --bin motion_bench` (models from
//! `BVTOOL_MODELS`, default `../shared/models`).

use bvtool::query::motion::{ImpactOptions, Status, Sweep};
use bvtool::query::{ContactMode, collide};
use bvtool::tree::ObbTree;
use bvtool_dev::motion::random_motions;
use rand::SeedableRng;
use std::time::Instant;

fn main() {
    let models = std::env::var("BVTOOL_MODELS").unwrap_or("../shared/models".into());
    let pairs = [
        (
            "obj/pybullet/kuka_iiwa/meshes/link_1.obj",
            "obj/pybullet/kuka_iiwa/meshes/link_2.obj",
        ),
        ("obj/stanford-bunny.obj", "obj/stanford-bunny.obj"),
        (
            "stl/mujoco_menagerie/robotiq_2f85/assets/driver.stl",
            "stl/mujoco_menagerie/robotiq_2f85/assets/follower.stl",
        ),
    ];
    for (fa, fb) in pairs {
        let load = |f: &str| {
            bvtool::load::load(format!("{models}/{f}").as_ref(), &Default::default())
                .unwrap()
                .flatten()
        };
        let (ma, mb) = (load(fa), load(fb));
        let ta = ObbTree::build_default(&ma, Default::default());
        let tb = ObbTree::build_default(&mb, Default::default());
        let (lo_a, hi_a) = bounds(&ma.vertices);
        let (lo_b, hi_b) = bounds(&mb.vertices);
        let centre = nalgebra::Point3::from(
            (lo_a.coords + hi_a.coords) / 2.0 - (lo_b.coords + hi_b.coords) / 2.0,
        );
        let reach = 0.6 * ((hi_a - lo_a).norm() + (hi_b - lo_b).norm());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(38);
        let motions = random_motions(&mut rng, 400, &centre, reach);
        let mut sweep = Sweep::new(&ta, &tb);
        let opts = ImpactOptions::default();
        let (mut us, mut calls, mut disc, mut far, mut far_d) =
            (vec![], vec![], vec![], vec![], vec![]);
        let mut hits = 0;
        let (mut hit_t, mut hit_d, mut hit_c) = (vec![], vec![], vec![]);
        for m in &motions {
            let mut best = f64::INFINITY;
            let mut got = None;
            for _ in 0..3 {
                let s = Instant::now();
                let g = sweep.time_of_impact(m, &opts).unwrap();
                best = best.min(s.elapsed().as_secs_f64() * 1e6);
                got = Some(g);
            }
            let got = got.unwrap();
            hits += (got.status == Status::Hit) as usize;
            let mut bd = f64::INFINITY;
            for _ in 0..3 {
                let s = Instant::now();
                for k in 0..100 {
                    if collide(&ta, &tb, &m.pose_at(k as f64 / 99.0), ContactMode::First)
                        .intersecting
                    {
                        break;
                    }
                }
                bd = bd.min(s.elapsed().as_secs_f64() * 1e6);
            }
            us.push(best);
            calls.push(got.distance_calls as f64);
            disc.push(bd);
            if got.status == Status::Free {
                far.push(best);
                far_d.push(bd);
            } else {
                hit_t.push(best);
                hit_d.push(bd);
                hit_c.push(got.distance_calls as f64);
            }
        }
        println!(
            "{fa}: hits {hits}/{}; toi med {:.1} us (calls med {} max {}), disc {:.1} us; free motions {}: {:.1} vs {:.1}",
            motions.len(),
            med(&us),
            med(&calls),
            calls.iter().cloned().fold(0.0, f64::max),
            med(&disc),
            far.len(),
            med(&far),
            med(&far_d)
        );
        println!(
            "    other motions (hits, undecided) {}: {:.1} vs {:.1} (calls med {})",
            hit_t.len(),
            med(&hit_t),
            med(&hit_d),
            med(&hit_c)
        );
    }
}
fn bounds(v: &[nalgebra::Point3<f64>]) -> (nalgebra::Point3<f64>, nalgebra::Point3<f64>) {
    v.iter()
        .fold((v[0], v[0]), |(l, h), p| (l.inf(p), h.sup(p)))
}
fn med(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}
