//! Stopping `Robot::from_urdf_until`: a flag set before the call gives
//! `Stopped`; a flag never set gives `Robot::from_urdf`'s robot — the same
//! links, joints, pairs, and trees byte for byte; the URDF's own error
//! stays the inner one.

use super::arm::{ARM, temp_dir, write_arm};
use bvtool::robots::{Robot, RobotOptions};
use bvtool::threads::{Stop, Stopped};
use std::sync::atomic::AtomicBool;

#[test]
fn a_robot_build_stops_or_is_the_plain_one() {
    let urdf = write_arm(&temp_dir("stop"), ARM);
    let opts = RobotOptions::default();
    let (set, unset) = (AtomicBool::new(true), AtomicBool::new(false));
    assert!(matches!(
        Robot::from_urdf_until(&urdf, &opts, Stop::on(&set)),
        Err(Stopped)
    ));
    let plain = Robot::from_urdf(&urdf, &opts).unwrap();
    let until = Robot::from_urdf_until(&urdf, &opts, Stop::on(&unset))
        .expect("never stopped")
        .unwrap();
    assert!(!plain.trees.is_empty());
    let names = |r: &Robot| r.links.iter().map(|l| l.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&plain), names(&until));
    assert_eq!((plain.dof, &plain.pairs), (until.dof, &until.pairs));
    let bytes = |r: &Robot| r.trees.iter().map(|t| t.to_bytes()).collect::<Vec<_>>();
    assert_eq!(bytes(&plain), bytes(&until));
    let missing = urdf.with_file_name("missing.urdf");
    let err = Robot::from_urdf_until(&missing, &opts, Stop::on(&unset)).expect("not stopped");
    assert_eq!(
        err.unwrap_err().to_string(),
        Robot::from_urdf(&missing, &opts).unwrap_err().to_string()
    );
}
