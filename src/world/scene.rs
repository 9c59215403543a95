//! A world from a loaded scene: each node becomes a body.

use super::{BodyShape, World};
use crate::clash::shapes::Shapes;
use crate::clash::{Grouping, PartList};
use crate::error::{Error, Result};
use crate::mesh::Scene;
use crate::pose::Pose;
use crate::threads::{Stop, Stopped, unstopped};
use nalgebra::{Matrix3, Rotation3, UnitQuaternion};
use std::collections::HashMap;
use std::sync::Arc;

impl World {
    /// A world of the scene's nodes (glTF; an OBJ object or STL solid for
    /// files without nodes), each a body at the identity pose whose
    /// shapes are the node's meshes placed as the file places them: a
    /// body's frame is the scene's, and moving it moves the node from
    /// where the file put it. One tree per distinct geometry (up to a
    /// rotation of the node's transform; scale and shear are applied to
    /// the vertices, as `clash` does), shared by its instances. A body is
    /// named by its node's name (an OBJ object's or STL solid's for files
    /// without nodes) when that name is unique in the file, else by the
    /// part name `clash` reports (`file: node 3 'name'`).
    ///
    /// # Errors
    /// A scene without triangles, or of more than [`super::MAX_BODIES`]
    /// nodes.
    pub fn from_scene(scene: &Scene) -> Result<World> {
        unstopped(|stop| World::from_scene_until(scene, stop))
    }

    /// [`World::from_scene`], giving up with [`Stopped`] (and no world)
    /// when `stop` is set: checked before each tree and inside its build
    /// ([`crate::tree::ObbTree::build_until`]), the long part.
    pub fn from_scene_until(scene: &Scene, stop: Stop<'_>) -> Result<Result<World>, Stopped> {
        let file = scene.path.display().to_string();
        let scenes = std::slice::from_ref(scene);
        let parts = PartList::new(scenes, std::slice::from_ref(&file), Grouping::Node);
        if parts.parts.is_empty() {
            return Ok(Err(Error::geometry(
                &scene.path,
                "no triangles: no body for a world",
            )));
        }
        if parts.parts.len() > super::MAX_BODIES {
            return Ok(Err(Error::geometry(
                &scene.path,
                format!(
                    "{} nodes, more than a world's {} bodies",
                    parts.parts.len(),
                    super::MAX_BODIES
                ),
            )));
        }
        let shapes = Shapes::plan(scenes, &parts).build_until(scenes, &parts, stop)?;
        Ok(World::of_shapes(scene, &parts, shapes))
    }

    /// The world of [`World::from_scene`] from the scene's parts (one a
    /// node) and their built shapes.
    fn of_shapes(scene: &Scene, parts: &PartList, shapes: Shapes) -> Result<World> {
        let trees: Vec<_> = shapes
            .shapes
            .into_iter()
            .map(|s| Arc::new(s.tree))
            .collect();
        // A node's name, or for a file without nodes its object's.
        let short = |p: &crate::clash::Part| match p.node {
            Some(_) => p.node_name.clone(),
            None => p.mesh_name.clone(),
        };
        let mut uses: HashMap<String, usize> = HashMap::new();
        for p in &parts.parts {
            if let Some(n) = short(p) {
                *uses.entry(n).or_default() += 1;
            }
        }
        let mut world = World::new();
        for p in &parts.parts {
            let body_shapes = p
                .members
                .iter()
                .map(|&m| {
                    let placed = shapes.placed[m];
                    let rotation = if placed.rotation == Matrix3::identity() {
                        UnitQuaternion::identity()
                    } else {
                        UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix(
                            &placed.rotation,
                        ))
                    };
                    BodyShape {
                        tree: trees[placed.shape].clone(),
                        origin: Pose::new(placed.translation, rotation),
                    }
                })
                .collect();
            let name = match short(p) {
                Some(n) if uses[&n] == 1 => n,
                _ => p.name.clone(),
            };
            world
                .add_body(&name, body_shapes, Pose::identity())
                .map_err(|e| Error::geometry(&scene.path, e.to_string()))?;
        }
        world.rebuild_broad_phase();
        Ok(world)
    }
}
