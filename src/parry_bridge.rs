//! The one place where bvtool's nalgebra `f64` types meet parry3d's glam `f32`
//! types. Everything that asks parry3d a question converts through here;
//! nothing else in the crate touches glam.

use crate::fit::Obb;
use crate::mesh::TriMesh;
use crate::pose::Pose;
use nalgebra::{Matrix3, Point3, Rotation3, UnitQuaternion, Vector3};
use parry3d::math::{Pose as PPose, Rot3, Vector as PVec};
use parry3d::shape::{Cuboid, TriMesh as PTriMesh};

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

/// An OBB as a parry cuboid and the pose that places it.
pub fn cuboid(obb: &Obb) -> (Cuboid, PPose) {
    let h = &obb.half_extents;
    let r = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(obb.axes));
    let p = Pose::new(obb.center.coords, r);
    (
        Cuboid::new(PVec::new(h.x as f32, h.y as f32, h.z as f32)),
        pose(&p),
    )
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

/// parry3d's convex hull of `points` (computed in `f32`), as `f64` vertices
/// and outward triangles. For cross-checking the `fit` hull.
pub fn convex_hull(points: &[Point3<f64>]) -> (Vec<Point3<f64>>, Vec<[u32; 3]>) {
    let pts: Vec<PVec> = points.iter().map(vec3).collect();
    let (v, f) = parry3d::transformation::convex_hull(&pts);
    (v.into_iter().map(point).collect(), f)
}

/// parry3d's AABB of a point cloud (in `f32`), as `(min, max)`.
pub fn point_cloud_aabb(points: &[Point3<f64>]) -> (Point3<f64>, Point3<f64>) {
    let aabb = parry3d::bounding_volume::details::local_point_cloud_aabb(points.iter().map(vec3));
    (point(aabb.mins), point(aabb.maxs))
}

/// parry3d's bounding sphere of a point cloud (in `f32`), as `(center, radius)`.
pub fn point_cloud_bounding_sphere(points: &[Point3<f64>]) -> (Point3<f64>, f64) {
    let pts: Vec<PVec> = points.iter().map(vec3).collect();
    let s = parry3d::bounding_volume::details::point_cloud_bounding_sphere(&pts);
    (point(s.center), s.radius as f64)
}
