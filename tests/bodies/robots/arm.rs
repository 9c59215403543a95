//! A small robot written into a folder of its own: a box base, a cylinder,
//! a capsule, a scaled STL block and a sphere on one link, a fixed palm
//! and two fingers (one a mimic of the other), found through
//! `package://arm/...` and the folder's `package.xml`.

pub use bvtool_dev::robot_oracle::random_configurations;
use std::path::{Path, PathBuf};

/// A folder of its own for one test.
pub fn temp_dir(test: &str) -> PathBuf {
    let dir = bvtool_dev::scratch!(format!("robots-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An ASCII STL of the cube [-0.5, 0.5]^3 (12 triangles).
pub fn cube_stl() -> String {
    let v = |i: usize| {
        [
            if i & 1 == 0 { -0.5 } else { 0.5 },
            if i & 2 == 0 { -0.5 } else { 0.5 },
            if i & 4 == 0 { -0.5 } else { 0.5 },
        ]
    };
    let quads = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    let mut s = String::from("solid cube\n");
    for q in quads {
        for t in [[q[0], q[1], q[2]], [q[0], q[2], q[3]]] {
            s += "facet normal 0 0 0\nouter loop\n";
            for i in t {
                let p = v(i);
                s += &format!("vertex {} {} {}\n", p[0], p[1], p[2]);
            }
            s += "endloop\nendfacet\n";
        }
    }
    s + "endsolid cube\n"
}

/// The arm's URDF text.
pub const ARM: &str = r#"<?xml version="1.0"?>
<robot name="arm">
  <link name="base">
    <collision><geometry><box size="0.4 0.4 0.1"/></geometry></collision>
  </link>
  <link name="upper">
    <collision><origin xyz="0 0 0.2"/><geometry><cylinder radius="0.05" length="0.4"/></geometry></collision>
  </link>
  <link name="fore">
    <collision><origin xyz="0 0 0.15" rpy="0 0 0"/><geometry><capsule radius="0.05" length="0.3"/></geometry></collision>
  </link>
  <link name="hand">
    <collision><origin xyz="0 0 0.1" rpy="0.1 0.2 0.3"/><geometry><mesh filename="package://arm/meshes/block.stl" scale="0.1 0.05 0.2"/></geometry></collision>
    <collision><origin xyz="0 0 0.25"/><geometry><sphere radius="0.06"/></geometry></collision>
    <visual><geometry><mesh filename="package://arm/meshes/hand.dae"/></geometry></visual>
  </link>
  <link name="palm">
    <collision><geometry><box size="0.12 0.12 0.02"/></geometry></collision>
  </link>
  <link name="finger_a">
    <collision><origin xyz="0 0 0.04"/><geometry><box size="0.02 0.02 0.08"/></geometry></collision>
  </link>
  <link name="finger_b">
    <collision><origin xyz="0 0 0.04"/><geometry><box size="0.02 0.02 0.08"/></geometry></collision>
  </link>
  <link name="tool_frame"/>
  <joint name="shoulder" type="continuous">
    <origin xyz="0 0 0.05"/><parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
  </joint>
  <joint name="elbow" type="revolute">
    <origin xyz="0 0 0.4" rpy="0.3 0 0"/><parent link="upper"/><child link="fore"/><axis xyz="0 1 0"/>
    <limit lower="-2.6" upper="2.6" effort="1" velocity="1"/>
  </joint>
  <joint name="wrist" type="revolute">
    <origin xyz="0 0 0.3"/><parent link="fore"/><child link="hand"/><axis xyz="1 1 0"/>
    <limit lower="-2.6" upper="2.6" effort="1" velocity="1"/>
  </joint>
  <joint name="palm_mount" type="fixed">
    <origin xyz="0 0 0.32" rpy="0 1.5707963267948966 0"/><parent link="hand"/><child link="palm"/>
  </joint>
  <joint name="finger_a_joint" type="prismatic">
    <origin xyz="0 0.01 0.01"/><parent link="palm"/><child link="finger_a"/><axis xyz="0 1 0"/>
    <limit lower="0" upper="0.05" effort="1" velocity="1"/>
  </joint>
  <joint name="finger_b_joint" type="prismatic">
    <origin xyz="0 -0.01 0.01"/><parent link="palm"/><child link="finger_b"/><axis xyz="0 1 0"/>
    <limit lower="-0.05" upper="0" effort="1" velocity="1"/>
    <mimic joint="finger_a_joint" multiplier="-1" offset="0"/>
  </joint>
  <joint name="tool" type="fixed">
    <origin xyz="0 0 0.1"/><parent link="palm"/><child link="tool_frame"/>
  </joint>
</robot>
"#;

/// Writes the arm's package (`package.xml`, `urdf/arm.urdf` with `urdf`
/// as its text, `meshes/block.stl`) into `dir`; returns the URDF's path.
pub fn write_arm(dir: &Path, urdf: &str) -> PathBuf {
    std::fs::create_dir_all(dir.join("urdf")).unwrap();
    std::fs::create_dir_all(dir.join("meshes")).unwrap();
    std::fs::write(
        dir.join("package.xml"),
        "<?xml version=\"1.0\"?><package format=\"3\"><name>arm</name></package>",
    )
    .unwrap();
    std::fs::write(dir.join("meshes/block.stl"), cube_stl()).unwrap();
    let path = dir.join("urdf/arm.urdf");
    std::fs::write(&path, urdf).unwrap();
    path
}
