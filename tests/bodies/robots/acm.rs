//! Allowed-collision matrices (`Robot::generate_acm`) of the small arm,
//! against the exact pairwise check of each link pair without the broad
//! phase (`bvtool_dev::robot_oracle`): the collision counts and least
//! distances at the very samples, `Default` at the default configuration,
//! `Never` pairs in a further independent set of samples (ChaCha8, not the
//! matrix's SplitMix64); the same seed, or another thread count, gives the
//! same SRDF; the SRDF read back leaves exactly the pairs that collide
//! sometimes; the command's JSON and SRDF equal the library's.

use super::arm::{ARM, random_configurations, temp_dir, write_arm};
use bvtool::robots::{Acm, AcmOptions, AcmReason, Robot, RobotOptions};
use bvtool_dev::bvtool;
use bvtool_dev::robot_oracle::link_pair;

fn arm(test: &str) -> (std::path::PathBuf, Robot) {
    arm_of(test, ARM)
}

fn arm_of(test: &str, text: &str) -> (std::path::PathBuf, Robot) {
    let urdf = write_arm(&temp_dir(test), text);
    let robot = Robot::from_urdf(&urdf, &RobotOptions::default()).unwrap();
    (urdf, robot)
}

fn generate(robot: &Robot, samples: u64, seed: u64) -> Acm {
    let opts = AcmOptions {
        samples,
        seed,
        ..Default::default()
    };
    robot.generate_acm(&opts, None).unwrap()
}

#[test]
fn counts_and_least_distances_equal_the_pairwise_check_at_the_samples() {
    // The fingers overlap at 0 (finger_b moved 5 mm in): a Default pair.
    let text = ARM.replace("0 -0.01 0.01", "0 -0.005 0.01");
    let (_, robot) = arm_of("acm-counts", &text);
    let n = 300;
    let acm = generate(&robot, n, 5);
    // 7 links with shapes: 21 pairs, 9 of them adjacent.
    assert_eq!(acm.pairs.len(), 21);
    assert_eq!(acm.count(Some(AcmReason::Adjacent)), 9);
    let limits = robot.sampling_limits();
    let mut q = vec![0.0; robot.dof];
    let mut expect = vec![(0u64, f64::INFINITY, 0u64); acm.pairs.len()];
    for i in 0..n {
        robot.sample_configuration(&limits, 5, i, &mut q);
        for (l, &(lo, hi)) in q.iter().zip(&limits) {
            assert!(lo <= *l && *l <= hi, "sample {i}: {q:?}");
        }
        let poses = robot.forward_kinematics(&q).unwrap();
        for (e, p) in expect.iter_mut().zip(&acm.pairs) {
            if p.reason == Some(AcmReason::Adjacent) {
                continue;
            }
            let (hit, d) = link_pair(&robot, &poses, p.links, true);
            e.0 += u64::from(hit);
            if d < e.1 {
                (e.1, e.2) = (d, i);
            }
        }
    }
    let default = robot
        .forward_kinematics(&robot.default_configuration())
        .unwrap();
    let mut reasons = [0; 5];
    for (p, &(collisions, least, at)) in acm.pairs.iter().zip(&expect) {
        let name = format!("{}–{}", p.link1, p.link2);
        assert!(p.link1 < p.link2, "{name}");
        reasons[p.reason.map_or(4, |r| r as usize)] += 1;
        if p.reason == Some(AcmReason::Adjacent) {
            assert_eq!((p.samples, p.collisions), (0, 0), "{name}");
            continue;
        }
        assert_eq!(p.samples, n, "{name}");
        assert_eq!(p.collisions, collisions, "{name}");
        assert!(
            (p.min_distance - least).abs() <= p.rounding_bound + 1e-15,
            "{name}: {} vs {least}",
            p.min_distance
        );
        if least > 0.0 {
            assert_eq!(p.min_sample, Some(at), "{name}");
        }
        let (at_default, _) = link_pair(&robot, &default, p.links, false);
        assert_eq!(p.default_collides, at_default, "{name}");
        let expected = if at_default {
            Some(AcmReason::Default)
        } else if collisions as f64 >= 0.95 * n as f64 {
            Some(AcmReason::Always)
        } else if collisions == 0 {
            Some(AcmReason::Never)
        } else {
            None
        };
        assert_eq!(p.reason, expected, "{name}: {collisions} of {n}");
    }
    // Pairs of every kind but Always, so each branch above is exercised.
    assert!(
        reasons[1] > 0 && reasons[3] > 0 && reasons[4] > 0,
        "{reasons:?}"
    );
}

#[test]
fn never_pairs_never_collide_in_further_independent_samples() {
    let (_, robot) = arm("acm-never");
    let acm = generate(&robot, 2000, 11);
    let never: Vec<_> = acm
        .pairs
        .iter()
        .filter(|p| p.reason == Some(AcmReason::Never))
        .collect();
    assert!(!never.is_empty());
    let qs = random_configurations(&robot, 2000, 12);
    for q in qs.chunks(robot.dof) {
        let poses = robot.forward_kinematics(q).unwrap();
        for p in &never {
            let (hit, d) = link_pair(&robot, &poses, p.links, false);
            assert!(!hit, "{}–{} collides at {q:?} ({d})", p.link1, p.link2);
        }
    }
}

#[test]
fn the_same_seed_or_another_thread_count_gives_the_same_matrix() {
    let (_, robot) = arm("acm-seed");
    let on = |threads: usize, seed: u64| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| generate(&robot, 500, seed))
    };
    let one = on(1, 3);
    assert_eq!(on(3, 3), one);
    assert_eq!(generate(&robot, 500, 3).srdf(), one.srdf());
    // Another seed draws other samples: other counts.
    let other = on(2, 4);
    assert_ne!(
        other.pairs.iter().map(|p| p.collisions).collect::<Vec<_>>(),
        one.pairs.iter().map(|p| p.collisions).collect::<Vec<_>>()
    );
}

#[test]
fn the_srdf_read_back_leaves_the_pairs_that_collide_sometimes() {
    let (urdf, robot) = arm("acm-srdf");
    let acm = generate(&robot, 500, 1);
    let srdf = urdf.with_file_name("arm.srdf");
    std::fs::write(&srdf, acm.srdf()).unwrap();
    let again = Robot::from_urdf(
        &urdf,
        &RobotOptions {
            srdf: Some(srdf),
            ..Default::default()
        },
    )
    .unwrap();
    let mut tested: Vec<(usize, usize)> = acm
        .pairs
        .iter()
        .filter(|p| p.reason.is_none())
        .map(|p| (p.links.0.min(p.links.1), p.links.0.max(p.links.1)))
        .collect();
    tested.sort();
    assert_eq!(again.pairs, tested);
    assert!(
        !again.notes.iter().any(|n| n.contains("SRDF")),
        "{:?}",
        again.notes
    );
}

#[test]
fn bad_options_are_refused() {
    let (_, robot) = arm("acm-bad");
    for f in [0.0, -0.5, 1.5, f64::NAN] {
        let opts = AcmOptions {
            always_fraction: f,
            ..Default::default()
        };
        let e = robot.generate_acm(&opts, None).unwrap_err().to_string();
        assert!(e.contains("always fraction"), "{e}");
    }
    let opts = AcmOptions {
        samples: bvtool::robots::MAX_ACM_SAMPLES + 1,
        ..Default::default()
    };
    assert!(robot.generate_acm(&opts, None).is_err());
    // Stopped at once: an error, not a matrix resting on fewer samples.
    let stop = std::sync::atomic::AtomicBool::new(true);
    assert!(
        robot
            .generate_acm(&Default::default(), Some(&stop))
            .is_err()
    );
}

#[test]
fn the_command_writes_the_librarys_srdf_and_json() {
    let (urdf, robot) = arm("acm-cli");
    let out = urdf.with_file_name("out.srdf");
    let (u, o) = (urdf.to_str().unwrap(), out.to_str().unwrap());
    let args = ["robot", u, "--acm", "--samples", "400", "--seed", "9"];
    let (code, json, err) = bvtool!(&[&args[..], &["-o", o, "--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let acm = generate(&robot, 400, 9);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), acm.srdf());
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let pairs = doc["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), acm.pairs.len());
    for (g, p) in pairs.iter().zip(&acm.pairs) {
        assert_eq!(g["link1"], p.link1.as_str());
        assert_eq!(
            g["reason"],
            serde_json::json!(p.reason.map(AcmReason::name))
        );
        assert_eq!(g["collisions"], p.collisions);
    }
    assert_eq!(doc["counts"]["Never"], acm.count(Some(AcmReason::Never)));
    let (code, text, _) = bvtool!(&args);
    assert_eq!(code, 0);
    assert!(text.contains("9 Adjacent"), "{text}");
    let (code, _, err) = bvtool!(&[&args[..], &["--always-fraction", "2"]].concat());
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
}
