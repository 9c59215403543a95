//! Hostile URDFs: each is refused with one line naming the file and what
//! is wrong, before any work is built on it.

use super::arm::{ARM, temp_dir, write_arm};
use bvtool::robots::{Robot, RobotOptions};
use std::path::Path;

fn refused(urdf: &Path, opts: &RobotOptions, expect: &str) {
    let e = match Robot::from_urdf(urdf, opts) {
        Ok(_) => panic!("{} was read; expected {expect:?}", urdf.display()),
        Err(e) => e.to_string(),
    };
    assert!(e.contains(expect), "expected {expect:?} in {e:?}");
    assert!(
        e.starts_with(&urdf.display().to_string()),
        "names the file: {e}"
    );
    assert!(!e.contains('\n'), "one line: {e}");
}

/// The arm with `from` replaced by `to` (which must occur).
fn arm_with(test: &str, from: &str, to: &str) -> std::path::PathBuf {
    assert!(ARM.contains(from), "{from}");
    write_arm(&temp_dir(test), &ARM.replace(from, to))
}

#[test]
fn broken_kinematic_trees_are_refused() {
    let o = RobotOptions::default();
    for (test, from, to, expect) in [
        (
            "unknown-type",
            r#"type="continuous""#,
            r#"type="ball""#,
            "unknown joint type 'ball'",
        ),
        (
            "floating",
            r#"type="continuous""#,
            r#"type="floating""#,
            "'floating' is not supported",
        ),
        (
            "missing-link",
            r#"<child link="upper"/>"#,
            r#"<child link="uper"/>"#,
            "'uper', which does not exist",
        ),
        (
            "two-parents",
            r#"<child link="fore"/>"#,
            r#"<child link="hand"/>"#,
            "child of two joints",
        ),
        (
            "cycle",
            r#"<parent link="base"/><child link="upper"/>"#,
            r#"<parent link="tool_frame"/><child link="upper"/>"#,
            "form a cycle",
        ),
        (
            "two-roots",
            r#"<link name="tool_frame"/>"#,
            r#"<link name="tool_frame"/><link name="loose"/>"#,
            "a robot has one root",
        ),
        (
            "mimic-unknown",
            r#"<mimic joint="finger_a_joint""#,
            r#"<mimic joint="nope""#,
            "mimics 'nope', which does not exist",
        ),
        (
            "mimic-fixed",
            r#"<mimic joint="finger_a_joint""#,
            r#"<mimic joint="tool""#,
            "not an actuated joint",
        ),
        (
            "nan-origin",
            r#"xyz="0 0 0.4" rpy="0.3 0 0""#,
            r#"xyz="0 nan 0.4" rpy="0.3 0 0""#,
            "is not 3 finite numbers",
        ),
        (
            "no-limit",
            r#"<limit lower="-2.6" upper="2.6" effort="1" velocity="1"/>
  </joint>
  <joint name="wrist""#,
            r#"</joint>
  <joint name="wrist""#,
            "(revolute) has no <limit>",
        ),
        (
            "zero-axis",
            r#"<axis xyz="1 1 0"/>"#,
            r#"<axis xyz="0 0 0"/>"#,
            "the axis is zero",
        ),
        (
            "negative-box",
            r#"<box size="0.4 0.4 0.1"/>"#,
            r#"<box size="0.4 -0.4 0.1"/>"#,
            "not ≥ 0",
        ),
        (
            "bad-geometry",
            r#"<sphere radius="0.06"/>"#,
            r#"<cone radius="0.06"/>"#,
            "unknown geometry <cone>",
        ),
    ] {
        refused(&arm_with(test, from, to), &o, expect);
    }
}

#[test]
fn a_true_cycle_is_refused() {
    // Every link a child: base -> upper -> base.
    let dir = temp_dir("true-cycle");
    let urdf = dir.join("cycle.urdf");
    std::fs::write(
        &urdf,
        r#"<robot name="c"><link name="a"/><link name="b"/>
<joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>
<joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint></robot>"#,
    )
    .unwrap();
    refused(&urdf, &RobotOptions::default(), "form a cycle");
}

#[test]
fn meshes_missing_outside_or_unreadable_are_refused() {
    let o = RobotOptions::default();
    let block = "package://arm/meshes/block.stl";
    refused(
        &arm_with("missing-mesh", block, "package://arm/meshes/gone.stl"),
        &o,
        "could not be read",
    );
    refused(
        &arm_with("outside", block, "package://arm/../secret.stl"),
        &o,
        "outside the model's folder",
    );
    refused(
        &arm_with("no-package", block, "package://elsewhere/block.stl"),
        &o,
        "package 'elsewhere' not found",
    );
    refused(
        &arm_with("collada", block, "package://arm/meshes/block.dae"),
        &o,
        "Collada",
    );
    refused(
        &arm_with("scheme", block, "http://example.com/block.stl"),
        &o,
        "has a scheme",
    );
    // A link inside the package pointing outside it.
    let dir = temp_dir("symlink");
    let urdf = write_arm(&dir, &ARM.replace(block, "package://arm/meshes/link.stl"));
    let outside = temp_dir("symlink-target").join("block.stl");
    std::fs::write(&outside, super::arm::cube_stl()).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("meshes/link.stl")).unwrap();
    refused(&urdf, &o, "outside the model's folder");
    // --package points the name elsewhere: the block is then not found.
    let other = temp_dir("package-given");
    let given = RobotOptions {
        packages: vec![("arm".into(), other.clone())],
        ..Default::default()
    };
    refused(
        &write_arm(&temp_dir("package-given-urdf"), ARM),
        &given,
        "could not be read",
    );
    // ... and found there once it is.
    std::fs::create_dir_all(other.join("meshes")).unwrap();
    std::fs::write(other.join("meshes/block.stl"), super::arm::cube_stl()).unwrap();
    Robot::from_urdf(&write_arm(&temp_dir("package-given-ok"), ARM), &given).unwrap();
}

#[test]
fn huge_counts_and_bad_documents_are_refused_before_work() {
    let dir = temp_dir("huge");
    let o = RobotOptions::default();
    let many: String = (0..10_001)
        .map(|i| format!("<link name=\"l{i}\"/>"))
        .collect();
    let urdf = dir.join("many.urdf");
    std::fs::write(&urdf, format!("<robot name=\"m\">{many}</robot>")).unwrap();
    refused(&urdf, &o, "at most 10000 of each");
    let urdf = dir.join("not.urdf");
    std::fs::write(&urdf, "<robot name=\"m\"><link name=\"a\"></robot>").unwrap();
    refused(&urdf, &o, "not valid XML");
    std::fs::write(&urdf, "<sdf/>").unwrap();
    refused(&urdf, &o, "not <robot>");
    std::fs::write(&urdf, "<robot name=\"m\"/>").unwrap();
    refused(&urdf, &o, "no <link>");
    refused(&dir.join("absent.urdf"), &o, "cannot read");
    let big = dir.join("big.urdf");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len((1 << 24) + 1).unwrap();
    refused(&big, &o, "larger than 16777216 bytes");
}
