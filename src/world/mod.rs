//! A world of bodies, each with its own pose: the multi-body manager (what
//! FCL's `DynamicAABBTreeCollisionManager` and trimesh's `CollisionManager`
//! are), with exact answers.
//!
//! A body is a name, a pose (its frame in the world's: `v → R·v + t`, the
//! quaternion in (x, y, z, w) order in files and Python) and one or more
//! shapes, each an OBB tree (shared through an `Arc` when bodies share
//! their geometry) placed in the body's frame. Primitives are shapes too:
//! a box exactly (12 triangles), a sphere, capsule or cylinder tessellated
//! outward ([`crate::mesh::primitives`]), its tree shared by every
//! primitive of the same kind and size.
//!
//! Moving a body is cheap: its world box is recomputed and the broad
//! phase's order restored by insertion sort (`broad.rs`), nothing rebuilt.
//! The queries (`queries.rs`) are bvtool's exact tree queries on the body
//! pairs the broad phase and the allowed-collision set leave: colliding
//! pairs, one body against all, the least distance between two groups, and
//! the pairs within a clearance. `docs/world.md` has the conventions.

mod broad;
mod nearest;
mod queries;
mod remove;
mod scene;

pub use nearest::{Candidate, Nearest, Solid, nearest};
pub use queries::{MAX_DISTANCE_PAIRS, Stoppable, WorldDistance, solids_meet};

use crate::error::{Error, Result};
use crate::fit::Aabb;
use crate::mesh::MAX_COORDINATE;
use crate::mesh::primitives;
use crate::pose::Pose;
use crate::query::point::solid::TreeSolid;
use crate::tree::ObbTree;
use nalgebra::{Isometry3, Vector3};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The most bodies a world may hold: 2^18 (adding a body keeps the broad
/// phase sorted, `O(n)` at worst, so a world of `n` bodies costs `O(n²)`
/// small moves at worst to build).
pub const MAX_BODIES: usize = 1 << 18;
/// The most shapes one body may hold.
pub const MAX_SHAPES_PER_BODY: usize = 1 << 16;

/// A primitive solid, centred on its body's origin (round ones about its z
/// axis), in length units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Primitive {
    /// A box of these edge lengths along x, y, z: exact.
    Box([f64; 3]),
    /// A sphere of this radius: tessellated outward.
    Sphere(f64),
    /// A capsule (a segment `length` long along z, swept by a ball of
    /// `radius`): tessellated outward.
    Capsule {
        /// The ball's radius.
        radius: f64,
        /// The segment's length.
        length: f64,
    },
    /// A cylinder `length` long along z: tessellated outward.
    Cylinder {
        /// Its radius.
        radius: f64,
        /// Its length.
        length: f64,
    },
}

impl Primitive {
    /// Its dimensions, checked: finite, positive (a capsule's length may
    /// be 0) and at most 2^50.
    fn check(&self) -> Result<()> {
        let dims: &[(f64, &str)] = match self {
            Primitive::Box([x, y, z]) => &[(*x, "size"), (*y, "size"), (*z, "size")],
            Primitive::Sphere(r) => &[(*r, "radius")],
            Primitive::Capsule { radius, length } => &[(*radius, "radius"), (length + 1.0, "")],
            Primitive::Cylinder { radius, length } => &[(*radius, "radius"), (*length, "length")],
        };
        let bad = |v: f64| !(v > 0.0 && v <= MAX_COORDINATE);
        if let Some((v, what)) = dims.iter().find(|(v, _)| bad(*v)) {
            let what = if what.is_empty() { "length" } else { what };
            return Err(Error::Input(format!(
                "{self:?}: {what} {v} is not a positive number within 2^50 (a capsule's length may be 0)"
            )));
        }
        Ok(())
    }

    /// Its triangles and how far at most they reach outside it.
    fn mesh(&self) -> (crate::TriMesh, f64) {
        match *self {
            Primitive::Box(size) => (primitives::box_mesh(size), 0.0),
            Primitive::Sphere(r) => primitives::sphere_mesh(r),
            Primitive::Capsule { radius, length } => primitives::capsule_mesh(radius, length),
            Primitive::Cylinder { radius, length } => primitives::cylinder_mesh(radius, length),
        }
    }

    /// A key equal for primitives of the same kind and size.
    fn key(&self) -> [u64; 4] {
        let b = f64::to_bits;
        match *self {
            Primitive::Box([x, y, z]) => [0, b(x), b(y), b(z)],
            Primitive::Sphere(r) => [1, b(r), 0, 0],
            Primitive::Capsule { radius, length } => [2, b(radius), b(length), 0],
            Primitive::Cylinder { radius, length } => [3, b(radius), b(length), 0],
        }
    }

    /// The primitive of a [`Primitive::key`].
    fn from_key(k: &[u64; 4]) -> Primitive {
        let f = f64::from_bits;
        match k[0] {
            0 => Primitive::Box([f(k[1]), f(k[2]), f(k[3])]),
            1 => Primitive::Sphere(f(k[1])),
            2 => Primitive::Capsule {
                radius: f(k[1]),
                length: f(k[2]),
            },
            _ => Primitive::Cylinder {
                radius: f(k[1]),
                length: f(k[2]),
            },
        }
    }
}

/// One tree of a body, placed in the body's frame.
#[derive(Clone, Debug)]
pub struct BodyShape {
    /// The tree (shared with every shape of the same geometry).
    pub tree: Arc<ObbTree>,
    /// Its frame in the body's.
    pub origin: Pose,
}

/// A body of the world.
#[derive(Clone, Debug)]
pub struct Body {
    /// Its name (unique in the world).
    pub name: String,
    /// Its frame in the world's.
    pub pose: Pose,
    /// Its shapes.
    pub shapes: Vec<BodyShape>,
    /// Each shape's frame in the world's and its world box (conservative).
    placed: Vec<(Isometry3<f64>, Aabb)>,
    /// Each shape's solid (shared by the shapes of one tree).
    solids: Vec<Arc<TreeSolid>>,
}

/// A world of bodies with their own poses, a broad phase kept up to date
/// and an allowed-collision set.
#[derive(Clone, Debug, Default)]
pub struct World {
    bodies: Vec<Body>,
    index: HashMap<String, usize>,
    /// Pairs `(a, b)`, `a < b`, never tested.
    allowed: HashSet<(u32, u32)>,
    sweep: broad::Sweep,
    /// One tree per primitive kind and size, with its tolerance.
    primitive_trees: HashMap<[u64; 4], (Arc<ObbTree>, f64)>,
    /// The largest tessellation tolerance of any primitive added.
    tessellation_tolerance: f64,
    /// Each distinct tree's solid, by the tree's address (the `Arc` kept,
    /// so the address is not reused).
    solids: HashMap<usize, (Arc<ObbTree>, Arc<TreeSolid>)>,
}

/// Checks that `pose` can place a body: a finite translation within
/// ±2^50 ([`MAX_COORDINATE`]) and a finite rotation.
pub fn check_pose(pose: &Pose) -> Result<()> {
    let t = pose.translation;
    let q = pose.rotation.coords;
    if !t.iter().all(|x| x.abs() <= MAX_COORDINATE) || !q.iter().all(|x| x.is_finite()) {
        return Err(Error::Input(format!(
            "pose translation [{}, {}, {}] rotation [{}, {}, {}, {}] (x, y, z, w) is not finite or outside ±2^50",
            t.x, t.y, t.z, q.x, q.y, q.z, q.w
        )));
    }
    Ok(())
}

/// The world box of tree `tree` placed by `place`: its root's oriented box
/// turned into the world's axes, grown by a margin that covers the
/// rounding of the placement and of the box's `f32` axes (so it holds
/// every placed corner the exact tests see). `None` for an empty tree.
pub fn placed_box(tree: &ObbTree, place: &Isometry3<f64>) -> Option<Aabb> {
    let root = tree.nodes.first()?;
    let obb = tree.node_box(root);
    let centre = place * obb.center;
    let axes = place.rotation.to_rotation_matrix().into_inner() * obb.axes;
    let half = Vector3::from_fn(|k, _| {
        (0..3)
            .map(|j| axes[(k, j)].abs() * obb.half_extents[j])
            .sum::<f64>()
    });
    let size = obb.half_extents.sum();
    let margin = 1e-6 * size + 1e-9 * (1.0 + centre.coords.amax() + size);
    let grow = half.add_scalar(margin);
    Some(Aabb {
        min: centre - grow,
        max: centre + grow,
    })
}

impl Body {
    /// Places its shapes at its pose.
    fn place(&mut self) {
        let iso = self.pose.to_isometry();
        self.placed = self
            .shapes
            .iter()
            .map(|s| {
                let w = iso * s.origin.to_isometry();
                let b = placed_box(&s.tree, &w).expect("a body's trees are not empty");
                (w, b)
            })
            .collect();
    }

    /// Shape `k`'s tree and solid.
    fn solid(&self, k: usize) -> (&ObbTree, &TreeSolid) {
        (&self.shapes[k].tree, &self.solids[k])
    }

    /// The union of its shapes' world boxes.
    fn world_box(&self) -> Aabb {
        let mut it = self.placed.iter().map(|p| p.1);
        let first = it.next().expect("a body has a shape");
        it.fold(first, |a, b| a.union(&b))
    }
}

impl World {
    /// An empty world.
    pub fn new() -> World {
        World::default()
    }

    /// Its bodies, in the order added (a body's index is its position).
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// The number of bodies.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Whether it has no body.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// The index of the body named `name`.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The index of the body named `name`, or an error naming it.
    pub fn find(&self, name: &str) -> Result<usize> {
        self.index(name)
            .ok_or_else(|| Error::Input(format!("no body named '{name}' in the world")))
    }

    /// How far at most a tessellated primitive reaches outside its true
    /// shape (0 when there is none), in length units.
    pub fn tessellation_tolerance(&self) -> f64 {
        self.tessellation_tolerance
    }

    /// Adds a body of `shapes` (trees placed in its frame) at `pose`;
    /// returns its index.
    ///
    /// # Errors
    /// A name already used, no shape or an empty tree, more than
    /// [`MAX_SHAPES_PER_BODY`] shapes or [`MAX_BODIES`] bodies, a pose
    /// that is not finite or outside ±2^50 ([`check_pose`]).
    pub fn add_body(&mut self, name: &str, shapes: Vec<BodyShape>, pose: Pose) -> Result<usize> {
        if self.bodies.len() >= MAX_BODIES {
            return Err(Error::Input(format!(
                "body '{name}': the world holds {MAX_BODIES} bodies, the most it may"
            )));
        }
        if self.index.contains_key(name) {
            return Err(Error::Input(format!(
                "body '{name}': the world has a body of that name"
            )));
        }
        if shapes.is_empty() || shapes.len() > MAX_SHAPES_PER_BODY {
            return Err(Error::Input(format!(
                "body '{name}': {} shapes (1 to {MAX_SHAPES_PER_BODY})",
                shapes.len()
            )));
        }
        if shapes.iter().any(|s| s.tree.nodes.is_empty()) {
            return Err(Error::Input(format!(
                "body '{name}': a mesh without triangles"
            )));
        }
        check_pose(&pose)?;
        for s in &shapes {
            check_pose(&s.origin)?;
        }
        let solids = shapes
            .iter()
            .map(|s| {
                let key = Arc::as_ptr(&s.tree) as usize;
                let entry = self
                    .solids
                    .entry(key)
                    .or_insert_with(|| (s.tree.clone(), Arc::new(TreeSolid::new(&s.tree))));
                entry.1.clone()
            })
            .collect();
        let mut body = Body {
            name: name.to_string(),
            pose,
            shapes,
            placed: Vec::new(),
            solids,
        };
        body.place();
        self.sweep.push(body.world_box());
        let i = self.bodies.len();
        self.index.insert(body.name.clone(), i);
        self.bodies.push(body);
        Ok(i)
    }

    /// Adds a body of one mesh's tree at `pose` (see [`World::add_body`]).
    pub fn add_mesh(&mut self, name: &str, tree: Arc<ObbTree>, pose: Pose) -> Result<usize> {
        let shape = BodyShape {
            tree,
            origin: Pose::identity(),
        };
        self.add_body(name, vec![shape], pose)
    }

    /// Adds a primitive body at `pose` (see [`World::add_body`]); its
    /// dimensions must be positive and at most 2^50.
    pub fn add_primitive(&mut self, name: &str, p: Primitive, pose: Pose) -> Result<usize> {
        p.check()?;
        let (tree, tol) = self
            .primitive_trees
            .entry(p.key())
            .or_insert_with(|| {
                let (mesh, tol) = p.mesh();
                (Arc::new(ObbTree::build(&mesh)), tol)
            })
            .clone();
        let i = self.add_mesh(name, tree, pose)?;
        self.tessellation_tolerance = self.tessellation_tolerance.max(tol);
        Ok(i)
    }

    /// Moves body `i` to `pose`: its world box is recomputed and the broad
    /// phase's order restored by insertion sort (`O(n)` when little
    /// moved; to move many bodies, [`World::set_poses`] sorts once).
    pub fn set_pose(&mut self, i: usize, pose: Pose) -> Result<()> {
        self.set_poses(&[(i, pose)]).map(|_| ())
    }

    /// Moves several bodies, then restores the broad phase's order once
    /// (insertion sort, `O(n + swaps)`). Every index and pose is checked
    /// before any body moves. Returns the swaps the sort made.
    pub fn set_poses(&mut self, moves: &[(usize, Pose)]) -> Result<usize> {
        let n = self.bodies.len();
        for (i, p) in moves {
            if *i >= n {
                return Err(Error::Input(format!("body {i}: the world has {n} bodies")));
            }
            check_pose(p)?;
        }
        for &(i, pose) in moves {
            let body = &mut self.bodies[i];
            body.pose = pose;
            body.place();
            self.sweep.boxes[i] = body.world_box();
        }
        Ok(self.sweep.resort())
    }

    /// Chooses the broad phase's axis afresh and sorts every body: what a
    /// new world does, and what [`World::set_poses`] does incrementally
    /// (the answers are the same either way).
    pub fn rebuild_broad_phase(&mut self) {
        self.sweep.rebuild();
    }

    /// Never tests bodies `a` and `b` against each other (the allowed
    /// collision set; a body is never tested against itself).
    pub fn allow(&mut self, a: usize, b: usize) -> Result<()> {
        let n = self.bodies.len();
        if a >= n || b >= n {
            return Err(Error::Input(format!(
                "allow({a}, {b}): the world has {n} bodies"
            )));
        }
        self.allowed.insert((a.min(b) as u32, a.max(b) as u32));
        Ok(())
    }

    /// Whether the pair `a`, `b` is tested.
    pub fn tested(&self, a: usize, b: usize) -> bool {
        a != b && !self.allowed.contains(&(a.min(b) as u32, a.max(b) as u32))
    }

    /// The pairs never tested ([`World::allow`]), `(a, b)` with `a < b`,
    /// sorted: with [`World::bodies`] and [`World::primitive_trees`], what
    /// a copy of the world needs (the Python module's pickling).
    pub fn allowed_pairs(&self) -> Vec<(usize, usize)> {
        let mut pairs: Vec<_> = self
            .allowed
            .iter()
            .map(|&(a, b)| (a as usize, b as usize))
            .collect();
        pairs.sort_unstable();
        pairs
    }

    /// Each primitive kind and size added ([`World::add_primitive`]) with
    /// its shared tree, in no particular order.
    pub fn primitive_trees(&self) -> Vec<(Primitive, Arc<ObbTree>)> {
        self.primitive_trees
            .iter()
            .map(|(k, (tree, _))| (Primitive::from_key(k), tree.clone()))
            .collect()
    }

    /// Makes `tree` primitive `p`'s shared tree, as [`World::add_primitive`]
    /// leaves it (later primitives of the same kind and size share it, and
    /// its tessellation tolerance counts in
    /// [`World::tessellation_tolerance`]): to rebuild a world whose bodies
    /// are added by [`World::add_body`] without building trees again.
    ///
    /// # Errors
    /// Bad dimensions ([`World::add_primitive`]'s), or a tree that is not
    /// the tessellation of `p` (every triangle's corners compared).
    pub fn share_primitive_tree(&mut self, p: Primitive, tree: Arc<ObbTree>) -> Result<()> {
        p.check()?;
        let (mesh, tol) = p.mesh();
        let same = tree.triangle_count() == mesh.triangles.len()
            && (tree.original.iter().enumerate())
                .all(|(k, &o)| tree.corners(k) == mesh.triangle(o as usize));
        if !same {
            return Err(Error::Input(format!(
                "{p:?}: the tree is not this primitive's tessellation"
            )));
        }
        self.primitive_trees.insert(p.key(), (tree, tol));
        self.tessellation_tolerance = self.tessellation_tolerance.max(tol);
        Ok(())
    }
}
