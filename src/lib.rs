//! # bvtool
//!
//! Bounding volumes and exact mesh-vs-mesh collision for real model files.
//!
//! Data flows one way, and so do the modules (each imports only those above
//! it in this table; `tests/architecture` checks it, `docs/architecture.md`
//! is the map):
//!
//! | module | what it holds | entry points |
//! |---|---|---|
//! | [`error`], [`threads`] | the error type; the worker pool | [`Error`], [`threads::on_pool`] |
//! | [`files`] | reading only regular files; writing through a renamed temporary file | [`files::read_regular`], [`files::write_atomic`] |
//! | [`mesh`] | a file's meshes placed by its nodes, and flattened soups | [`Scene`], [`TriMesh`], [`Scene::flatten`] |
//! | [`pose`] | rigid poses of B in A's frame | [`Pose`] |
//! | [`load`] | glTF, OBJ and STL readers, bounded and validated | [`load::load`], [`load::load_bytes`] |
//! | [`parry_convert`] | nalgebra ↔ parry3d conversions | — |
//! | [`fit`] | the shapes and their fitters: AABB, boxes, spheres, capsules, cylinders, hulls, k-DOPs, convex parts | [`fit::obb_of_points`], [`fit::sphere()`], [`fit::capsule`], [`fit::ConvexHull::new`], [`fit::decompose`] |
//! | [`tree`] | the OBB tree and the AABB tree | [`tree::ObbTree::build_default`], [`tree::AabbTree::build`] |
//! | [`query`] | exact pair predicates, and collide, distance and clearance between trees | [`query::collide()`], [`query::distance()`], [`query::within`], [`query::air()`] |
//! | [`clash`] | which parts of scenes meet; self-intersection | [`clash::ClashScene`], [`clash::self_intersections`] |
//! | [`check`] | second opinions: parry3d, brute force, poses near contact | [`check::poses::near_boundary`] |
//! | [`volumes`] | every volume of a scene or instance; the tightness comparison | [`volumes::FileVolumes::new`], [`volumes::fit_instance`], [`volumes::Comparison::new`] |
//! | [`batch`] | one query between two files at many poses | [`batch::collide::run`], [`batch::distance::run`] |
//! | [`world`] | bodies with their own poses: colliding pairs, clearance, distance between groups, a broad phase updated when they move | [`world::World::add_mesh`], [`world::World::set_poses`], [`world::World::colliding_pairs`] |
//! | [`robots`] | URDF robots: forward kinematics, self-collision and distance per configuration | [`robots::Robot::from_urdf`], [`robots::Robot::self_collision_batch`] |
//! | [`export`], [`render`] | colliders and trees for runtimes; pictures | [`export::ExportDoc::new`], [`export::render`], [`render::render`] |
//! | [`report`] | the commands' text tables | — |
//!
//! Conventions, everywhere: units are the model file's; frames are world
//! (the scene flattened with node transforms) unless a function says local;
//! boxes carry **half** extents; quaternions are written (x, y, z, w);
//! touching counts as contact, as in parry3d.
//!
//! ```
//! use bvtool::query::{ContactMode, collide};
//! use bvtool::tree::ObbTree;
//! use bvtool::{Pose, load};
//! use nalgebra::{UnitQuaternion, Vector3};
//!
//! let scene = load::load("models/torus.obj".as_ref(), &Default::default())?;
//! let mesh = scene.flatten();
//! let tree = ObbTree::build_default(&mesh, Default::default());
//! // The same torus moved 0.5 along x crosses the first; 3 along x it is clear.
//! let near = Pose::new(Vector3::new(0.5, 0.0, 0.0), UnitQuaternion::identity());
//! let far = Pose::new(Vector3::new(3.0, 0.0, 0.0), UnitQuaternion::identity());
//! assert!(collide(&tree, &tree, &near, ContactMode::First).intersecting);
//! assert!(!collide(&tree, &tree, &far, ContactMode::First).intersecting);
//! # Ok::<(), bvtool::Error>(())
//! ```

pub mod batch;
pub mod check;
pub mod clash;
pub mod error;
pub mod export;
pub mod files;
pub mod fit;
pub mod load;
pub mod memory;
pub mod mesh;
pub mod parry_convert;
pub mod pose;
pub mod query;
pub mod render;
pub mod report;
pub mod robots;
pub mod threads;
pub mod tree;
pub mod volumes;
pub mod world;

pub use error::{Error, Result};
pub use mesh::{Scene, TriMesh, TriangleSource};
pub use pose::Pose;
