//! Time of impact on corpus pairs (a robot's adjacent links, the bunny
//! against itself, a gripper's thin linkage parts): 150 random motions each
//! (half turning at most 0.3 rad, half any amount), every answer checked
//! against bvtool's exact `collide` at 1,001 samples refined by bisection
//! (`bvtool_dev::motion::check_against_sampling`).

use bvtool_dev as common;

use bvtool::query::motion::ImpactOptions;
use bvtool::tree::ObbTree;
use common::motion::{check_against_sampling, random_motions};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const PAIRS: [(&str, &str); 3] = [
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

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn time_of_impact_agrees_with_dense_sampling_on_corpus_pairs() {
    let Some(dir) = common::models_dir() else {
        eprintln!("no model corpus: skipped");
        return;
    };
    for (seed, (fa, fb)) in PAIRS.iter().enumerate() {
        let load = |f: &str| {
            bvtool::load::load(&dir.join(f), &Default::default())
                .unwrap()
                .flatten()
        };
        let (a, b) = (load(fa), load(fb));
        let (ta, tb) = (
            ObbTree::build_default(&a, Default::default()),
            ObbTree::build_default(&b, Default::default()),
        );
        let (ba, bb) = (
            bvtool::fit::Aabb::from_points(&a.vertices).unwrap(),
            bvtool::fit::Aabb::from_points(&b.vertices).unwrap(),
        );
        // B's centre swept about A's, within about both sizes.
        let centre = nalgebra::Point3::from(ba.center() - bb.center().coords);
        let reach = 0.6 * ((ba.max - ba.min).norm() + (bb.max - bb.min).norm());
        let mut rng = ChaCha8Rng::seed_from_u64(3800 + seed as u64);
        let motions = random_motions(&mut rng, 150, &centre, reach);
        let start = std::time::Instant::now();
        let tally = check_against_sampling(&ta, &tb, &motions, 1000, &ImpactOptions::default());
        let mut calls = tally.calls.clone();
        calls.sort_unstable();
        eprintln!(
            "{fa} / {fb}: {} hits, {} free, median {} distance calls (max {}), {:.1} s with the oracle",
            tally.hits,
            tally.frees,
            calls[calls.len() / 2],
            calls[calls.len() - 1],
            start.elapsed().as_secs_f64()
        );
        assert!(tally.hits >= 5 && tally.frees >= 5, "{fa}: {tally:?}");
    }
}
