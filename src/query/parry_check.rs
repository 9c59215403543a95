//! Cross-checks against parry3d (`f32`): the same questions asked of an
//! independent implementation. Used by `bvtool collide --check`, `verify`
//! and the tests. parry rounds coordinates to `f32` and decides with its own
//! tolerances, so it may differ from the exact answer where the meshes are
//! within `f32` rounding of touching.

use super::tree_pair::Placement;
use crate::mesh::TriMesh;
use crate::parry_bridge as bridge;
use crate::pose::Pose;
use parry3d::query::{distance, intersection_test};
use parry3d::shape::TriMesh as PTriMesh;

/// Two meshes converted to parry's `TriMesh` once, to be asked many poses.
pub struct ParryPair {
    a: PTriMesh,
    b: PTriMesh,
    b_mesh: TriMesh,
}

impl ParryPair {
    /// Converts both meshes (parry rejects empty meshes: the error says so).
    pub fn new(a: &TriMesh, b: &TriMesh) -> Result<ParryPair, String> {
        Ok(ParryPair {
            a: bridge::trimesh(a)?,
            b: bridge::trimesh(b)?,
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
    let (ca, pa) = bridge::cuboid(a);
    let (cb, pb) = bridge::cuboid(b);
    intersection_test(&pa, &ca, &pb, &cb)
        .map(|r| r.intersecting)
        .unwrap_or(false)
}
