//! Pose parsing: every `--pose` form, the Euler convention, and the errors.

use bvtool::Pose;
use nalgebra::{Matrix3, Point3, Vector3};

fn close(a: &Point3<f64>, b: &Point3<f64>) -> bool {
    (a - b).norm() < 1e-12
}

#[test]
fn translation_only() {
    let p = Pose::parse_inline("1, -2.5,3e-1").unwrap();
    assert_eq!(p.translation, Vector3::new(1.0, -2.5, 0.3));
    assert!(close(
        &p.transform_point(&Point3::new(1.0, 1.0, 1.0)),
        &Point3::new(2.0, -1.5, 1.3)
    ));
}

#[test]
fn euler_degrees_are_x_then_y_then_z_about_fixed_axes() {
    // Build R = Rz(30)·Ry(-40)·Rx(75) by hand from elementary matrices.
    let (x, y, z) = (
        75f64.to_radians(),
        (-40f64).to_radians(),
        30f64.to_radians(),
    );
    let rx = Matrix3::new(1.0, 0.0, 0.0, 0.0, x.cos(), -x.sin(), 0.0, x.sin(), x.cos());
    let ry = Matrix3::new(y.cos(), 0.0, y.sin(), 0.0, 1.0, 0.0, -y.sin(), 0.0, y.cos());
    let rz = Matrix3::new(z.cos(), -z.sin(), 0.0, z.sin(), z.cos(), 0.0, 0.0, 0.0, 1.0);
    let r = rz * ry * rx;
    let p = Pose::parse_inline("0.5,0,-1,75,-40,30").unwrap();
    let v = Point3::new(0.3, -1.7, 2.2);
    let expected = Point3::from(r * v.coords + Vector3::new(0.5, 0.0, -1.0));
    assert!(close(&p.transform_point(&v), &expected));
}

#[test]
fn quaternion_is_x_y_z_w() {
    // 90° about Z: (0, 0, sin 45°, cos 45°) maps +X to +Y.
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let p = Pose::parse_inline(&format!("0,0,0,0,0,{h},{h}")).unwrap();
    assert!(close(
        &p.transform_point(&Point3::new(1.0, 0.0, 0.0)),
        &Point3::new(0.0, 1.0, 0.0)
    ));
    assert_eq!(
        p.rotation_xyzw().map(|c| (c * 1e9).round()),
        [0.0, 0.0, (h * 1e9).round(), (h * 1e9).round()]
    );
}

#[test]
fn json_single_list_and_lines() {
    let one = r#"{"translation":[1,2,3],"rotation":[0,0,0,1],"intended":"collide"}"#;
    assert_eq!(Pose::parse_json_text(one).unwrap().len(), 1);
    let pretty = "{\n  \"translation\": [1, 2, 3],\n  \"rotation\": [0, 0, 0, 1]\n}\n";
    assert_eq!(
        Pose::parse_json_text(pretty).unwrap()[0].translation,
        Vector3::new(1.0, 2.0, 3.0)
    );
    let list = format!("[{one}, {one}, {one}]");
    assert_eq!(Pose::parse_json_text(&list).unwrap().len(), 3);
    let lines = format!("{one}\n\n{one}\n");
    assert_eq!(Pose::parse_json_text(&lines).unwrap().len(), 2);
}

#[test]
fn inverse_undoes_the_pose() {
    let p = Pose::parse_inline("1,2,3,10,20,30").unwrap();
    let v = Point3::new(-4.0, 0.5, 9.0);
    assert!((p.inverse().transform_point(&p.transform_point(&v)) - v).norm() < 1e-12);
}

#[test]
fn bad_poses_are_refused_with_a_reason() {
    for (spec, needle) in [
        ("1,2", "3, 6 or 7 numbers"),
        ("1,2,x", "comma-separated numbers"),
        ("1,2,3,0,0,0,2", "unit quaternion"),
        ("1,inf,3", "finite"),
    ] {
        let e = Pose::parse_inline(spec).unwrap_err().to_string();
        assert!(e.contains(needle), "{spec}: {e}");
    }
    assert!(Pose::parse_json_text("[]").is_err());
    assert!(Pose::parse_json_text(r#"{"translation":[1,2]}"#).is_err());
}
