//! The one place where bvtool's nalgebra `f64` types meet parry3d's glam `f32`
//! types: conversions only, below every layer that asks parry3d anything
//! (V-HACD in [`crate::fit::decompose`], the second opinions of
//! [`crate::check::parry`]). Nothing else in the crate touches glam.

use crate::mesh::TriMesh;
use crate::pose::Pose;
use nalgebra::{Matrix3, Point3, UnitQuaternion, Vector3};
use parry3d::math::{Pose as PPose, Rot3, Vector as PVec};
use parry3d::shape::TriMesh as PTriMesh;

/// A point or vector, rounded to `f32`.
pub fn vec3(p: &Point3<f64>) -> PVec {
    PVec::new(p.x as f32, p.y as f32, p.z as f32)
}

/// A parry vector as an `f64` point.
pub fn point(v: PVec) -> Point3<f64> {
    Point3::new(v.x as f64, v.y as f64, v.z as f64)
}

/// A unit quaternion, rounded to `f32`.
pub fn rotation(q: &UnitQuaternion<f64>) -> Rot3 {
    Rot3::from_xyzw(q.i as f32, q.j as f32, q.k as f32, q.w as f32).normalize()
}

/// A pose as parry's isometry.
pub fn pose(p: &Pose) -> PPose {
    let t = &p.translation;
    PPose::from_parts(
        PVec::new(t.x as f32, t.y as f32, t.z as f32),
        rotation(&p.rotation),
    )
}

/// A triangle soup as parry's `TriMesh` (in `f32`).
pub fn trimesh(mesh: &TriMesh) -> Result<PTriMesh, String> {
    let vertices = mesh.vertices.iter().map(vec3).collect();
    PTriMesh::new(vertices, mesh.triangles.clone())
        .map_err(|e| format!("parry3d refused the mesh: {e:?}"))
}

/// A parry 3×3 matrix in `f64`.
pub fn matrix(m: &parry3d::math::Matrix) -> Matrix3<f64> {
    let c = |v: PVec| Vector3::new(v.x as f64, v.y as f64, v.z as f64);
    Matrix3::from_columns(&[c(m.x_axis), c(m.y_axis), c(m.z_axis)])
}

/// The identity pose.
pub fn identity() -> PPose {
    PPose::IDENTITY
}

/// A triangle given by `f64` corners, rounded to `f32`.
pub fn triangle(t: &[Point3<f64>; 3]) -> parry3d::shape::Triangle {
    parry3d::shape::Triangle::new(vec3(&t[0]), vec3(&t[1]), vec3(&t[2]))
}
