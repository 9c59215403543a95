//! `bvtool robot` as a user runs it: the summary, `--check` with
//! `--distance` in JSON equal to the library's answers, and a bad input's
//! one-line error with exit 1.

use super::arm::{ARM, random_configurations, temp_dir, write_arm};
use bvtool::robots::{Robot, RobotOptions};
use bvtool_dev::bvtool;
use serde_json::Value;

#[test]
fn summary_and_check_in_json_equal_the_library() {
    let dir = temp_dir("cli");
    let urdf = write_arm(&dir, ARM);
    let robot = Robot::from_urdf(&urdf, &RobotOptions::default()).unwrap();
    let qs = random_configurations(&robot, 50, 3);
    let rows: Vec<Vec<f64>> = qs.chunks(robot.dof).map(<[f64]>::to_vec).collect();
    let configs = dir.join("q.json");
    std::fs::write(&configs, serde_json::to_string(&rows).unwrap()).unwrap();
    let u = urdf.to_str().unwrap();
    let c = configs.to_str().unwrap();
    let (code, out, err) = bvtool!(&["robot", u, "--check", c, "--distance", "--json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["dof"], 4);
    assert_eq!(doc["joint_order"][3], "finger_a_joint");
    assert_eq!(doc["pairs"].as_array().unwrap().len(), robot.pairs.len());
    let hits = robot.self_collision_batch(&qs, false).unwrap();
    let dists = robot.self_distance_batch(&qs).unwrap();
    let got = doc["configurations"].as_array().unwrap();
    assert_eq!(got.len(), 50);
    for (k, g) in got.iter().enumerate() {
        assert_eq!(g["colliding"], !hits[k].pairs.is_empty());
        let names: Vec<[String; 2]> = hits[k]
            .pairs
            .iter()
            .map(|&(a, b)| [robot.links[a].name.clone(), robot.links[b].name.clone()])
            .collect();
        assert_eq!(g["pairs"], serde_json::to_value(names).unwrap());
        assert_eq!(g["distance"]["distance"], dists[k].unwrap().distance);
    }
    // The text summary names the counts.
    let (code, out, _) = bvtool!(&["robot", u]);
    assert_eq!(code, 0);
    assert!(out.contains("dof 4: shoulder, elbow [-2.6, 2.6]"), "{out}");
    assert!(
        out.contains("link pairs tested: 12 (9 adjacent and 0 SRDF pairs left out)"),
        "{out}"
    );
}

#[test]
fn bad_configurations_and_urdfs_exit_1_with_one_line() {
    let dir = temp_dir("cli-bad");
    let urdf = write_arm(&dir, ARM);
    let configs = dir.join("q.json");
    std::fs::write(&configs, "[[0, 0, 0]]").unwrap();
    let (code, _, err) = bvtool!(&[
        "robot",
        urdf.to_str().unwrap(),
        "--check",
        configs.to_str().unwrap()
    ]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("configuration 0 has 3 values, expected 4"),
        "{err}"
    );
    let broken = write_arm(
        &temp_dir("cli-broken"),
        &ARM.replace("continuous", "spherical"),
    );
    let (code, _, err) = bvtool!(&["robot", broken.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("unknown joint type 'spherical'"), "{err}");
}
