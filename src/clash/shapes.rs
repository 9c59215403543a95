//! One OBB tree per geometry, shared by its instances: each placed primitive
//! is a tree plus a rigid placement, and two of them meet at the relative
//! pose of their placements.
//!
//! A glTF instance's world transform is `x → L·x + t` with any linear `L`
//! (rotation, scale, shear, mirror). A tree is built over `L₀·v` for the
//! first instance of the geometry (its *shape*); another instance with
//! linear part `L` reuses that tree when `Q = L·L₀⁻¹` is a rotation: exactly
//! when `L = L₀` bit for bit (then `Q = I`, the common case: every instance
//! under the same scaled or rotated root), or within `RIGID_TOLERANCE`
//! otherwise (an instance rotated relative to the first; `Q` is then
//! replaced by its nearest rotation). An instance whose `L` differs from
//! every shape of its geometry by scale, shear or mirroring gets a tree of
//! its own over `L·v`. So non-rigid node transforms are exact: their scale
//! and shear are applied to the vertices before the tree is built.

use super::parts::PartList;
use crate::mesh::stacks::Stacks;
use crate::mesh::{Scene, TriMesh, TriangleSource};
use crate::pose::Pose;
use crate::threads::{Stop, Stopped};
use crate::tree::ObbTree;
use nalgebra::{Matrix3, Point3, Rotation3, UnitQuaternion, Vector3};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// How far `QᵀQ` may be from the identity (largest entry) for `Q = L·L₀⁻¹`
/// to count as a rotation. Files store rotations in `f32` (about 1e-7); an
/// instance placed by the nearest rotation moves by at most about this
/// fraction of its distance from the shape's origin.
pub const RIGID_TOLERANCE: f64 = 1e-6;

/// A geometry under one linear map, with its tree.
#[derive(Clone, Debug)]
pub struct Shape {
    /// The triangles, `L₀·v` (the tree's frame).
    pub mesh: TriMesh,
    /// Its triangles grouped by their corners ([`Stacks`]).
    pub stacks: Stacks,
    /// The OBB tree of one triangle per stack of copies (of
    /// `stacks.unique(&mesh)`).
    pub tree: ObbTree,
}

/// Where a member's shape sits in the world: `x → Q·x + t`, `Q` a rotation.
#[derive(Clone, Copy, Debug)]
pub struct Placed {
    /// Index into [`Shapes::shapes`].
    pub shape: usize,
    /// `Q`, exactly the identity when the member's linear part is its
    /// shape's.
    pub rotation: Matrix3<f64>,
    /// `t`, the member's translation.
    pub translation: Vector3<f64>,
}

impl Placed {
    /// A point of the shape's frame in the world.
    pub fn to_world(self, p: &Point3<f64>) -> Point3<f64> {
        Point3::from(self.rotation * p.coords + self.translation)
    }
}

/// The pose of `b`'s shape in `a`'s shape frame: `Qₐᵀ·Q_b` and
/// `Qₐᵀ·(t_b − tₐ)`, exactly the identity rotation when both rotations are
/// equal (and then an exact translation difference when `Qₐ = I`).
pub fn relative_pose(a: &Placed, b: &Placed) -> Pose {
    let d = b.translation - a.translation;
    if a.rotation == b.rotation {
        let t = if a.rotation == Matrix3::identity() {
            d
        } else {
            a.rotation.tr_mul(&d)
        };
        return Pose::new(t, UnitQuaternion::identity());
    }
    let r = a.rotation.tr_mul(&b.rotation);
    Pose::new(
        a.rotation.tr_mul(&d),
        UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix(&r)),
    )
}

/// The trees of a scene's parts and each member's placement.
#[derive(Clone, Debug, Default)]
pub struct Shapes {
    /// One per (geometry, linear map up to rotation).
    pub shapes: Vec<Shape>,
    /// Parallel to [`PartList::members`].
    pub placed: Vec<Placed>,
}

/// `L·L₀⁻¹` when it is a proper rotation within [`RIGID_TOLERANCE`] (the
/// identity, exactly, when `L = L₀`), as the nearest rotation.
fn rotation_between(l: &Matrix3<f64>, l0: &Matrix3<f64>) -> Option<Matrix3<f64>> {
    if l == l0 {
        return Some(Matrix3::identity());
    }
    let q = l * l0.try_inverse()?;
    let off = (q.tr_mul(&q) - Matrix3::identity()).amax();
    (off <= RIGID_TOLERANCE && q.determinant() > 0.0)
        .then(|| Rotation3::from_matrix(&q).into_inner())
}

/// Which shape each member gets, before any tree is built: what
/// [`ShapePlan::triangles`] bounds.
#[derive(Clone, Debug)]
pub struct ShapePlan {
    /// Parallel to [`PartList::members`].
    placed: Vec<Placed>,
    /// Per shape: the member whose instance makes it and its `L₀`.
    pending: Vec<(usize, Matrix3<f64>)>,
}

impl Shapes {
    /// Assigns every member a shape, reusing one where the transforms
    /// differ by a rotation; nothing is built.
    pub fn plan(scenes: &[Scene], parts: &PartList) -> ShapePlan {
        // Per geometry: the shapes made of it so far and their linear maps.
        let mut by_geometry: HashMap<*const crate::mesh::Geometry, Vec<(usize, Matrix3<f64>)>> =
            HashMap::new();
        let mut pending: Vec<(usize, Matrix3<f64>)> = Vec::new(); // (member, L₀)
        let mut placed = Vec::with_capacity(parts.members.len());
        for m in 0..parts.members.len() {
            let inst = parts.instance(scenes, m);
            let l: Matrix3<f64> = inst.transform.fixed_view::<3, 3>(0, 0).into_owned();
            let translation: Vector3<f64> = inst.transform.fixed_view::<3, 1>(0, 3).into_owned();
            let known = by_geometry.entry(Arc::as_ptr(&inst.geometry)).or_default();
            let found = known
                .iter()
                .find_map(|(s, l0)| rotation_between(&l, l0).map(|q| (*s, q)));
            let (shape, rotation) = found.unwrap_or_else(|| {
                let s = pending.len();
                pending.push((m, l));
                known.push((s, l));
                (s, Matrix3::identity())
            });
            placed.push(Placed {
                shape,
                rotation,
                translation,
            });
        }
        ShapePlan { placed, pending }
    }
}

impl ShapePlan {
    /// The triangles of the trees the plan builds: each shape's once,
    /// however many members share it.
    pub fn triangles(&self, scenes: &[Scene], parts: &PartList) -> u64 {
        self.pending
            .iter()
            .map(|&(m, _)| parts.instance(scenes, m).geometry.triangles.len() as u64)
            .sum()
    }

    /// Builds the plan's trees, in parallel, giving up with [`Stopped`]
    /// (and no shapes) when `stop` is set: checked before each shape and
    /// inside each tree build ([`ObbTree::build_until`]).
    pub fn build_until(
        self,
        scenes: &[Scene],
        parts: &PartList,
        stop: Stop<'_>,
    ) -> Result<Shapes, Stopped> {
        let ShapePlan { placed, pending } = self;
        let shapes = pending
            .par_iter()
            .map(|&(m, l)| {
                stop.check()?;
                let inst = parts.instance(scenes, m);
                let g = &inst.geometry;
                let mesh = TriMesh {
                    vertices: g.positions.iter().map(|p| l * p).collect(),
                    triangles: g.triangles.clone(),
                    sources: (0..g.triangles.len() as u32)
                        .map(|k| TriangleSource::unplaced(inst.mesh, k))
                        .collect(),
                };
                let stacks = Stacks::of(&mesh);
                let tree = ObbTree::build_until(stacks.unique(&mesh), stop)?;
                Ok(Shape { mesh, stacks, tree })
            })
            .collect::<Result<_, Stopped>>()?;
        Ok(Shapes { shapes, placed })
    }
}
