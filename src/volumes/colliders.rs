//! The colliders a file carries beside its meshes, named by an engine's
//! convention, measured against the meshes they stand for: how far each
//! collider stands off its mesh (the air) and how far the mesh sticks out
//! of it (the shortfall).
//!
//! The conventions read are the ones `bvtool export` writes and artists
//! author by hand (docs/export.md, "Colliders for engines"):
//!
//! - **Unreal**: a mesh named `UBX_<mesh>`, `USP_<mesh>`, `UCP_<mesh>` or
//!   `UCX_<mesh>`, optionally followed by `_NN`, is a collider of the render
//!   mesh `<mesh>`. One whose `<mesh>` names no render mesh bounds the whole
//!   file's render meshes.
//! - **Godot**: a mesh named `<name>-convcolonly` (also `_convcolonly`,
//!   `$convcolonly`) is a convex collider. Godot ties it to no render mesh,
//!   so these bound the whole file's render meshes together. `-colonly`
//!   (a concave triangle-mesh collider) is listed, not measured.
//!
//! Every collider is taken as the convex hull of its mesh's vertices, in
//! the world frame: what Unreal's `UCX_` and Godot's convex shapes cook.
//! Unreal rebuilds `UBX_`, `USP_` and `UCP_` as primitives holding the
//! mesh's vertices, which hold that hull: for them the shortfall is an
//! upper bound and the air a lower bound of the engine's. A render mesh
//! with several colliders is bound by their union. A name is a mesh
//! instance's node name, else its mesh's (an OBJ object's `o` name).

use crate::error::{Error, Result};
use crate::fit::surface::Surface;
use crate::fit::{Aabb, ConvexHull};
use crate::mesh::{MeshInstance, Scene};
use crate::query::{Air, AirOptions, Shortfall, air, shortfall};
use crate::tree::AabbTree;
use nalgebra::Point3;
use serde::Serialize;

/// The engine convention a collider's name follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Convention {
    /// `UBX_`, `USP_`, `UCP_`, `UCX_` prefixes.
    Unreal,
    /// `-convcolonly` suffixes.
    Godot,
}

/// What a mesh's name says it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role<'a> {
    /// A render mesh.
    Render,
    /// A convex collider, of the render mesh named (Unreal) or of the whole
    /// file (`None`).
    Convex(Convention, Option<&'a str>),
    /// A Godot concave (triangle-mesh) collider: not measured.
    Concave,
}

/// The role of a mesh named `name` (see the module docs).
pub fn role(name: &str) -> Role<'_> {
    for prefix in ["UBX_", "USP_", "UCP_", "UCX_"] {
        if let Some(rest) = name.strip_prefix(prefix) {
            return Role::Convex(Convention::Unreal, Some(rest));
        }
    }
    for suffix in ["-convcolonly", "_convcolonly", "$convcolonly"] {
        if name.ends_with(suffix) {
            return Role::Convex(Convention::Godot, None);
        }
    }
    for suffix in ["-colonly", "_colonly", "$colonly"] {
        if name.ends_with(suffix) {
            return Role::Concave;
        }
    }
    Role::Render
}

/// The render mesh an Unreal collider's `<mesh>[_NN]` names, among
/// `render` (the names of the render meshes).
fn target<'a>(rest: &str, render: &'a [String]) -> Option<&'a str> {
    let named = |n: &str| render.iter().find(|r| r.as_str() == n).map(String::as_str);
    named(rest).or_else(|| {
        let (stem, number) = rest.rsplit_once('_')?;
        (!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
            .then(|| named(stem))
            .flatten()
    })
}

/// One render mesh (or the whole file's) and its colliders, measured.
#[derive(Debug, Serialize)]
pub struct ColliderGroup {
    /// The render mesh's name; `null` for the whole file's render meshes.
    pub mesh: Option<String>,
    /// Triangles of the render meshes bound.
    pub triangles: usize,
    /// The colliders' names.
    pub colliders: Vec<String>,
    /// How far the colliders' surface stands off the mesh: the largest
    /// distance from a point of it to the mesh lies in `[air, air +
    /// bound]` (model units).
    pub air: Air,
    /// How far the mesh sticks out of the colliders: the largest distance
    /// from a point of the mesh to their union lies in `[shortfall,
    /// shortfall + bound]` (model units).
    pub shortfall: Shortfall,
}

/// A file's colliders against its render meshes.
#[derive(Debug, Serialize)]
pub struct ColliderCheck {
    /// The file, as named.
    pub file: String,
    /// The conventions its collider names follow.
    pub conventions: Vec<Convention>,
    /// Render meshes (mesh instances that are not colliders).
    pub render_meshes: usize,
    /// Per render mesh with colliders, then the whole file's: the measures.
    pub groups: Vec<ColliderGroup>,
    /// Render meshes no collider names (bound by the whole file's colliders
    /// if there are any, else by none).
    pub unbound: Vec<String>,
    /// Colliders not measured: concave ones, and flat or empty ones (no
    /// inside to hold anything), with why.
    pub not_measured: Vec<String>,
    /// The searches' tolerance: 1/1000 of the render meshes' diagonal.
    pub tolerance: f64,
}

/// The name of `inst`: its node's, else its mesh's, else `mesh N`.
fn name_of(inst: &MeshInstance) -> String {
    inst.node_name
        .as_deref()
        .or(inst.mesh_name.as_deref())
        .map_or_else(|| format!("mesh {}", inst.mesh), str::to_owned)
}

impl ColliderCheck {
    /// Reads the colliders of `scene` and measures each group (see the
    /// module docs). A file with no collider, or no render mesh with
    /// triangles, is an error naming it.
    pub fn new(file: &str, scene: &Scene) -> Result<ColliderCheck> {
        let path = &scene.path;
        let names: Vec<String> = scene.instances.iter().map(name_of).collect();
        let with_triangles = |i: usize| !scene.instances[i].geometry.triangles.is_empty();
        let render: Vec<usize> = (0..names.len())
            .filter(|&i| role(&names[i]) == Role::Render && with_triangles(i))
            .collect();
        let render_names: Vec<String> = render.iter().map(|&i| names[i].clone()).collect();
        let mut conventions = Vec::new();
        let mut not_measured = Vec::new();
        // (target render mesh, collider name, hull surface) per collider.
        let mut colliders: Vec<(Option<&str>, String, Surface)> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let (convention, rest) = match role(name) {
                Role::Render => continue,
                Role::Concave => {
                    not_measured.push(format!("{name}: concave (a triangle-mesh collider)"));
                    continue;
                }
                Role::Convex(c, rest) => (c, rest),
            };
            if !conventions.contains(&convention) {
                conventions.push(convention);
            }
            let inst = &scene.instances[i];
            let points: Vec<Point3<f64>> = inst
                .geometry
                .positions
                .iter()
                .map(|p| inst.to_world(p))
                .collect();
            match ConvexHull::new(&points) {
                Ok(h) if h.dimension == 3 => {
                    let faces: Vec<Vec<u32>> = h.faces.iter().map(|f| f.to_vec()).collect();
                    let to = rest.and_then(|r| target(r, &render_names));
                    colliders.push((to, name.clone(), Surface::polytope(&h.vertices, &faces)));
                }
                _ => not_measured.push(format!("{name}: flat or empty (no inside)")),
            }
        }
        if conventions.is_empty() {
            return Err(Error::geometry(
                path,
                "no collider meshes: none named UBX_/USP_/UCP_/UCX_<mesh> (Unreal) or <name>-convcolonly (Godot)",
            ));
        }
        if render.is_empty() {
            return Err(Error::geometry(
                path,
                "no render mesh with triangles beside the colliders",
            ));
        }
        let diagonal = Aabb::from_points(render.iter().flat_map(|&i| {
            let inst = &scene.instances[i];
            inst.geometry.positions.iter().map(|p| inst.to_world(p))
        }))
        .map_or(0.0, |b| (b.max - b.min).norm());
        let opts = AirOptions::relative_to(diagonal);
        // Each named render mesh with its colliders, in file order; then
        // the whole file's.
        let mut targets: Vec<Option<&str>> = render_names
            .iter()
            .map(|n| Some(n.as_str()))
            .filter(|n| colliders.iter().any(|c| c.0 == *n))
            .collect();
        let shared = colliders.iter().any(|c| c.0.is_none());
        if shared {
            targets.push(None);
        }
        let groups = targets
            .into_iter()
            .map(|to| {
                let meshes: Vec<usize> = match to {
                    Some(n) => render.iter().copied().filter(|&i| names[i] == n).collect(),
                    None => render.clone(),
                };
                let mine: Vec<&(Option<&str>, String, Surface)> =
                    colliders.iter().filter(|c| c.0 == to).collect();
                let surfaces: Vec<Surface> = mine.iter().map(|c| c.2.clone()).collect();
                let mesh = scene_of(scene, &meshes).flatten();
                let triangles = mesh.triangle_corners();
                ColliderGroup {
                    mesh: to.map(str::to_owned),
                    triangles: triangles.len(),
                    colliders: mine.iter().map(|c| c.1.clone()).collect(),
                    air: air(&AabbTree::build(&mesh), &surfaces, &opts),
                    shortfall: shortfall(&triangles, &surfaces, &opts),
                }
            })
            .collect();
        let unbound = if shared {
            Vec::new()
        } else {
            render_names
                .iter()
                .filter(|n| !colliders.iter().any(|c| c.0 == Some(n.as_str())))
                .cloned()
                .collect()
        };
        Ok(ColliderCheck {
            file: file.to_string(),
            conventions,
            render_meshes: render.len(),
            groups,
            unbound,
            not_measured,
            tolerance: opts.tolerance,
        })
    }
}

/// The scene of `scene`'s instances `keep`.
fn scene_of(scene: &Scene, keep: &[usize]) -> Scene {
    Scene {
        path: scene.path.clone(),
        format: scene.format,
        instances: keep.iter().map(|&i| scene.instances[i].clone()).collect(),
        skipped_primitives: 0,
        extensions: Vec::new(),
    }
}
