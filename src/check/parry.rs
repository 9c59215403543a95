//! Cross-checks against parry3d (`f32`): the same questions asked of an
//! independent implementation. Used by `bvtool collide --check`, `verify`
//! and the tests. parry rounds coordinates to `f32` and decides with its own
//! tolerances, so it may differ from the exact answer where the meshes are
//! within `f32` rounding of touching.

use crate::fit::Obb;
use crate::mesh::TriMesh;
use crate::parry_convert as bridge;
use crate::parry_convert::{point, pose, vec3};
use crate::pose::Pose;
use crate::query::Placement;
use nalgebra::{Point3, Rotation3, UnitQuaternion};
use parry3d::math::{Pose as PPose, Vector as PVec};
use parry3d::query::{distance, intersection_test};
use parry3d::shape::Cuboid;
use parry3d::shape::TriMesh as PTriMesh;

/// Two meshes converted to parry's `TriMesh` once, to be asked many poses.
pub struct ParryPair {
    a: PTriMesh,
    b: PTriMesh,
    b_mesh: TriMesh,
}

impl ParryPair {
    /// Converts both meshes (parry rejects empty meshes: the error says
    /// so); the same mesh twice (`collide A A --check`) is converted once.
    pub fn new(a: &TriMesh, b: &TriMesh) -> Result<ParryPair, String> {
        let pa = bridge::trimesh(a)?;
        let pb = match std::ptr::eq(a, b) {
            true => pa.clone(),
            false => bridge::trimesh(b)?,
        };
        Ok(ParryPair {
            a: pa,
            b: pb,
            b_mesh: b.clone(),
        })
    }

    /// parry3d's boolean: `query::intersection_test` of the two `TriMesh`
    /// shapes, A at identity and B at `pose` (rounded to `f32`).
    pub fn intersects(&self, pose: &Pose) -> bool {
        self.intersection(pose).is_some()
    }

    /// parry3d's minimum distance (`query::distance` of the two `TriMesh`
    /// shapes: its BVH over A's triangles against B's, each triangle pair
    /// by GJK in `f32`), A at identity and B at `pose`; 0 when they touch.
    pub fn distance(&self, pose: &Pose) -> Option<f64> {
        distance(&bridge::identity(), &self.a, &bridge::pose(pose), &self.b)
            .ok()
            .map(|d| d.distance as f64)
    }

    /// Like [`ParryPair::intersects`], returning the triangle pair (A's, B's)
    /// that parry found intersecting, so that a disagreement can be examined.
    pub fn intersection(&self, pose: &Pose) -> Option<(u32, u32)> {
        intersection_test(&bridge::identity(), &self.a, &bridge::pose(pose), &self.b)
            .ok()
            .filter(|r| r.intersecting)
            .map(|r| (r.subshape1, r.subshape2))
    }

    /// parry3d's set of intersecting triangle pairs, sorted: B's corners are
    /// placed in A's frame in `f64` (as [`Placement`] does) and rounded to
    /// `f32`, the two meshes' BVHs are traversed together (`Bvh::leaf_pairs`
    /// with AABB overlap), and each leaf pair is decided by parry's
    /// triangle–triangle `intersection_test`.
    pub fn pairs(&self, pose: &Pose) -> Result<Vec<(u32, u32)>, String> {
        let place = Placement::new(pose);
        let mut placed = self.b_mesh.clone();
        for v in &mut placed.vertices {
            *v = place.apply(v);
        }
        let pb = bridge::trimesh(&placed)?;
        let id = bridge::identity();
        let mut pairs: Vec<(u32, u32)> = self
            .a
            .bvh()
            .leaf_pairs(pb.bvh(), |n1, n2| n1.intersects(n2))
            .filter(|&(i, j)| {
                let ta = self.a.triangle(i);
                let tb = pb.triangle(j);
                intersection_test(&id, &ta, &id, &tb)
                    .map(|r| r.intersecting)
                    .unwrap_or(false)
            })
            .collect();
        pairs.sort_unstable();
        Ok(pairs)
    }
}

/// parry3d's answer for two single triangles given in one frame (`f32`).
pub fn triangles_intersect(a: &[nalgebra::Point3<f64>; 3], b: &[nalgebra::Point3<f64>; 3]) -> bool {
    let id = bridge::identity();
    intersection_test(&id, &bridge::triangle(a), &id, &bridge::triangle(b))
        .map(|r| r.intersecting)
        .unwrap_or(false)
}

/// parry3d's answer for two boxes given in one frame (`Cuboid`s, `f32`).
pub fn boxes_intersect(a: &crate::fit::Obb, b: &crate::fit::Obb) -> bool {
    let (ca, pa) = cuboid(a);
    let (cb, pb) = cuboid(b);
    intersection_test(&pa, &ca, &pb, &cb)
        .map(|r| r.intersecting)
        .unwrap_or(false)
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
