//! Forward kinematics against poses computed by hand: 4×4 matrices built
//! from written-out elementary rotations (URDF's rpy as Rz·Ry·Rx, each
//! axis-angle joint by Rodrigues' formula), not nalgebra's rotation
//! constructors the library uses.

use super::arm::{ARM, random_configurations, temp_dir, write_arm};
use bvtool::robots::{JointKind, Robot, RobotOptions};
use nalgebra::{Isometry3, Matrix3, Matrix4, Vector3};

fn rx(a: f64) -> Matrix3<f64> {
    let (s, c) = a.sin_cos();
    Matrix3::new(1.0, 0.0, 0.0, 0.0, c, -s, 0.0, s, c)
}

fn ry(a: f64) -> Matrix3<f64> {
    let (s, c) = a.sin_cos();
    Matrix3::new(c, 0.0, s, 0.0, 1.0, 0.0, -s, 0.0, c)
}

fn rz(a: f64) -> Matrix3<f64> {
    let (s, c) = a.sin_cos();
    Matrix3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0)
}

/// Rodrigues: rotation by `a` about the unit axis `k`.
fn axis_angle(k: Vector3<f64>, a: f64) -> Matrix3<f64> {
    let k = k.normalize();
    let kx = Matrix3::new(0.0, -k.z, k.y, k.z, 0.0, -k.x, -k.y, k.x, 0.0);
    Matrix3::identity() + kx * a.sin() + kx * kx * (1.0 - a.cos())
}

fn h(r: Matrix3<f64>, t: [f64; 3]) -> Matrix4<f64> {
    let mut m = Matrix4::identity();
    m.fixed_view_mut::<3, 3>(0, 0).copy_from(&r);
    m[(0, 3)] = t[0];
    m[(1, 3)] = t[1];
    m[(2, 3)] = t[2];
    m
}

fn rpy(r: f64, p: f64, y: f64) -> Matrix3<f64> {
    rz(y) * ry(p) * rx(r)
}

/// The arm's link poses at `q`, by hand.
fn arm_by_hand(q: &[f64]) -> Vec<(&'static str, Matrix4<f64>)> {
    let i = Matrix3::identity();
    let base = Matrix4::identity();
    let upper = base * h(i, [0.0, 0.0, 0.05]) * h(rz(q[0]), [0.0; 3]);
    let fore = upper
        * h(rpy(0.3, 0.0, 0.0), [0.0, 0.0, 0.4])
        * h(axis_angle(Vector3::y(), q[1]), [0.0; 3]);
    let hand =
        fore * h(i, [0.0, 0.0, 0.3]) * h(axis_angle(Vector3::new(1.0, 1.0, 0.0), q[2]), [0.0; 3]);
    let palm = hand * h(rpy(0.0, std::f64::consts::FRAC_PI_2, 0.0), [0.0, 0.0, 0.32]);
    let finger_a = palm * h(i, [0.0, 0.01, 0.01]) * h(i, [0.0, q[3], 0.0]);
    let finger_b = palm * h(i, [0.0, -0.01, 0.01]) * h(i, [0.0, -q[3], 0.0]);
    let tool = palm * h(i, [0.0, 0.0, 0.1]);
    vec![
        ("base", base),
        ("upper", upper),
        ("fore", fore),
        ("hand", hand),
        ("palm", palm),
        ("finger_a", finger_a),
        ("finger_b", finger_b),
        ("tool_frame", tool),
    ]
}

fn max_diff(a: &Isometry3<f64>, b: &Matrix4<f64>) -> f64 {
    (a.to_homogeneous() - b).amax()
}

#[test]
fn arm_joints_in_document_order_with_the_mimic_resolved() {
    let dir = temp_dir("kinematics-order");
    let robot = Robot::from_urdf(&write_arm(&dir, ARM), &RobotOptions::default()).unwrap();
    assert_eq!(robot.dof, 4);
    assert_eq!(
        robot.joint_names(),
        ["shoulder", "elbow", "wrist", "finger_a_joint"]
    );
    assert_eq!(robot.joint_limits()[0], None, "continuous: no limits");
    assert_eq!(robot.joint_limits()[1], Some((-2.6, 2.6)));
    let b = robot
        .joints
        .iter()
        .find(|j| j.name == "finger_b_joint")
        .unwrap();
    assert_eq!(b.kind, JointKind::Prismatic);
    assert_eq!(b.dof, None);
    let m = b.mimic.unwrap();
    assert_eq!((m.dof, m.multiplier, m.offset), (3, -1.0, 0.0));
    assert_eq!(robot.links[robot.root].name, "base");
}

#[test]
fn arm_link_poses_equal_hand_computed_ones() {
    let dir = temp_dir("kinematics-hand");
    let robot = Robot::from_urdf(&write_arm(&dir, ARM), &RobotOptions::default()).unwrap();
    let qs = random_configurations(&robot, 500, 1);
    let batch = robot.forward_kinematics_batch(&qs).unwrap();
    let mut worst: f64 = 0.0;
    for (k, q) in qs.chunks(robot.dof).enumerate() {
        let poses = robot.forward_kinematics(q).unwrap();
        assert_eq!(poses.len(), robot.links.len());
        for (name, m) in arm_by_hand(q) {
            let l = robot.link_index(name).unwrap();
            worst = worst.max(max_diff(&poses[l], &m));
            assert_eq!(
                poses[l],
                batch[k * robot.links.len() + l],
                "batch = one by one"
            );
        }
    }
    assert!(worst <= 1e-12, "largest difference {worst:e}");
}

#[test]
fn configurations_of_the_wrong_size_or_not_finite_are_refused() {
    let dir = temp_dir("kinematics-bad-q");
    let robot = Robot::from_urdf(&write_arm(&dir, ARM), &RobotOptions::default()).unwrap();
    let e = robot.forward_kinematics(&[0.0; 3]).unwrap_err().to_string();
    assert!(e.contains("3 values, expected 4"), "{e}");
    let e = robot
        .forward_kinematics(&[0.0, f64::NAN, 0.0, 0.0])
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a finite number"), "{e}");
    // Finite but past the coordinate range: a prismatic joint at 1e308
    // would place its link where no exact test holds.
    for v in [1e308, -1e300] {
        let e = robot
            .self_collision_batch(&[0.0, 0.0, v, 0.0], false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("within ±2^50"), "{e}");
    }
    let e = robot
        .self_collision_batch(&[0.0; 7], false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not whole configurations"), "{e}");
}
