//! `bvtool robot --check --jsonl`: one line per configuration as the
//! answers come, equal to `--json`'s entries, then the summary.

use super::arm::{ARM, random_configurations, temp_dir, write_arm};
use bvtool::robots::{Robot, RobotOptions};
use bvtool_dev::bvtool;
use serde_json::Value;

/// 5,000 configurations (two chunks of 4,096): 5,001 lines, each its
/// configuration's `index` and exactly `--json`'s entry (collision pairs,
/// least distance and closest points), then the summary with the counts.
#[test]
fn check_jsonl_lines_equal_the_json_entries() {
    let dir = temp_dir("jsonl");
    let urdf = write_arm(&dir, ARM);
    let robot = Robot::from_urdf(&urdf, &RobotOptions::default()).unwrap();
    let qs = random_configurations(&robot, 5_000, 7);
    let rows: Vec<Vec<f64>> = qs.chunks(robot.dof).map(<[f64]>::to_vec).collect();
    let configs = dir.join("q.json");
    std::fs::write(&configs, serde_json::to_string(&rows).unwrap()).unwrap();
    let (u, c) = (urdf.to_str().unwrap(), configs.to_str().unwrap());
    let (code, out, err) = bvtool!(&["robot", u, "--check", c, "--distance", "--jsonl"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (code, whole, err) = bvtool!(&["robot", u, "--check", c, "--distance", "--json"]);
    assert_eq!(code, 0, "{err}");
    let whole: Value = serde_json::from_str(&whole).unwrap();
    let entries = whole["configurations"].as_array().unwrap();
    assert_eq!(lines.len(), 5_001);
    let mut colliding = 0;
    for (k, (line, entry)) in lines.iter().zip(entries).enumerate() {
        let mut line = line.clone();
        assert_eq!(
            line.as_object_mut().unwrap().remove("index"),
            Some(k.into())
        );
        assert_eq!(&line, entry, "configuration {k}");
        colliding += usize::from(entry["colliding"] == true);
    }
    let summary = &lines[5_000]["summary"];
    assert_eq!(summary["checked"], 5_000);
    assert_eq!(summary["colliding"], colliding);
    assert!(colliding > 0 && colliding < 5_000, "{summary}");
    assert_eq!(summary["dof"], whole["dof"]);
    assert_eq!(summary["pairs"], whole["pairs"]);
    assert!(summary.get("configurations").is_none());
}
