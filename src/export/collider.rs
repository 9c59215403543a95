//! Colliders for engines: one shape per mesh instance (and, when asked, one
//! for the whole scene), each in the frame an engine reads it in.
//!
//! **Frame.** A mesh instance's collider is fitted to the mesh's own
//! vertices in its own (local) frame, so it can hang under the node it
//! bounds and move with it (animated or re-posed); instances of one
//! geometry share the fit. That is exact for every shape as long as the
//! node's world transform is a similarity — a rotation (possibly mirrored)
//! times a uniform scale — because a similarity maps a box, sphere,
//! capsule, cylinder or convex polytope to the same kind of shape, scaled,
//! and `KHR_physics_rigid_bodies` scales shape parameters by the node's
//! scale. A non-uniform scale or shear turns a rotated box into a
//! parallelepiped and a sphere into an ellipsoid, which no engine
//! represents (Unity and PhysX approximate, Godot refuses non-uniform
//! scale on shapes), and an `EXT_mesh_gpu_instancing` node's instances
//! have no node of their own to carry a child: for those instances the
//! collider is fitted to the placed vertices in the **world** frame
//! instead (`frame: "world"`, with the reason), so it is exact but static.
//!
//! **Skinned meshes** get one collider per bone instead
//! ([`crate::mesh::skin::Skinning::bones`]): each joint's dominant vertices
//! at the displayed pose, in the joint node's frame, go through the same
//! per-instance fit as a mesh instance's and hang under the joint node
//! (`joint` names it); a joint whose world matrix is not a similarity gets
//! its bone's collider in the world frame.
//!
//! The whole-scene collider (`whole`) is fitted in the world frame from the
//! same fit `bvtool fit` reports for the file.

use super::volume_records::ObbDoc;
use crate::error::Result;
use crate::fit::polytope::budget_hull as hull_budget;
use crate::fit::polytope::decompose::{
    DecomposeError, DecomposeOptions, MAX_PART_VERTICES, decompose,
};
use crate::fit::{ShapeSpec, UnknownShape};
use crate::mesh::{MeshInstance, Scene, instance_points, is_similarity};
use crate::threads::Stop;
use crate::volumes::{FitOptions, Frame, Halt, Volumes, fit_instance_until};
use nalgebra::{Matrix4, Point3};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;

/// A collider's geometry, in its frame (`ColliderDoc::frame`). Every round
/// shape's `rotation_xyzw` takes +Y to its `axis`, as glTF and the engines
/// align capsules and cylinders.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Geometry {
    /// An oriented box (HALF extents).
    Box(ObbDoc),
    /// A sphere.
    Sphere {
        /// Centre.
        center: [f64; 3],
        /// Radius.
        radius: f64,
    },
    /// Every point within `radius` of the segment `center ± half_length·axis`.
    Capsule {
        /// The segment's centre.
        center: [f64; 3],
        /// Unit axis.
        axis: [f64; 3],
        /// Radius.
        radius: f64,
        /// Half the distance between the capping hemispheres' centres.
        half_length: f64,
        /// The rotation taking +Y to `axis`, (x, y, z, w).
        rotation_xyzw: [f64; 4],
    },
    /// The disc of `radius` across `axis`, swept `half_height` each way.
    Cylinder {
        /// Centre.
        center: [f64; 3],
        /// Unit axis.
        axis: [f64; 3],
        /// Radius.
        radius: f64,
        /// Half the height.
        half_height: f64,
        /// The rotation taking +Y to `axis`, (x, y, z, w).
        rotation_xyzw: [f64; 4],
    },
    /// A convex polytope: vertices and faces (convex polygons of vertex
    /// indices, counter-clockwise seen from outside).
    Convex {
        /// Vertices.
        vertices: Vec<[f64; 3]>,
        /// Faces.
        faces: Vec<Vec<u32>>,
    },
}

/// One collider.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColliderDoc {
    /// `instance` (one mesh instance) or `scene` (the whole scene).
    pub scope: String,
    /// glTF node the instance belongs to (`null` for OBJ/STL and the scene).
    pub node: Option<u32>,
    /// The node's name.
    pub node_name: Option<String>,
    /// GPU instance (`null` for the scene).
    pub instance: Option<u32>,
    /// Mesh (glTF mesh, OBJ object, STL solid; `null` for the scene).
    pub mesh: Option<u32>,
    /// The mesh's name.
    pub mesh_name: Option<String>,
    /// Primitive within the mesh (`null` for the scene).
    pub primitive: Option<u32>,
    /// For one bone of a skinned mesh, the joint whose vertices it bounds
    /// and whose node it hangs under (`null` otherwise).
    #[serde(default)]
    pub joint: Option<JointDoc>,
    /// `local` (the frame of the node it hangs under — the joint's node
    /// when `joint` is set, else `node` — attach it there) or `world`.
    pub frame: String,
    /// Why an instance's collider is in the world frame (`null` otherwise).
    pub world_reason: Option<String>,
    /// What was asked for (`--shape`): `best` or the shape itself.
    pub asked: ShapeSpec,
    /// The collider's name (as its glTF node is named).
    pub name: String,
    /// The geometry.
    #[serde(flatten)]
    pub geometry: Geometry,
    /// Its volume (model units³, in its frame).
    pub volume: f64,
}

/// The joint of a skinned mesh whose bone a collider bounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JointDoc {
    /// The glTF skin.
    pub skin: u32,
    /// The joint's index in the skin's `joints` (as `JOINTS_n` name it).
    pub index: u32,
    /// The joint's glTF node.
    pub node: u32,
    /// The node's name.
    pub name: Option<String>,
}

impl JointDoc {
    /// `joint N 'name'`, N the joint's node.
    fn label(&self) -> String {
        match &self.name {
            Some(n) => format!("joint {} '{n}'", self.node),
            None => format!("joint {}", self.node),
        }
    }
}

/// What names a mesh instance in a scene: node, GPU instance, mesh,
/// primitive (unique per instance: glTF places a primitive once per node
/// and GPU instance; OBJ and STL have one instance per object or solid).
pub type InstanceKey = (Option<u32>, u32, u32, u32);

impl ColliderDoc {
    /// The key of the instance it bounds (`None` for the whole scene).
    pub fn instance_key(&self) -> Option<InstanceKey> {
        Some((self.node, self.instance?, self.mesh?, self.primitive?))
    }

    /// The node a local-frame collider hangs under: the joint's for a
    /// bone, else the instance's (`None` for OBJ/STL and the scene).
    pub fn placement_node(&self) -> Option<u32> {
        self.joint.as_ref().map(|j| j.node).or(self.node)
    }
}

/// Every instance of `scene` by its key, as an index into `scene.instances`.
pub fn instance_index(scene: &Scene) -> HashMap<InstanceKey, usize> {
    scene
        .instances
        .iter()
        .enumerate()
        .map(|(k, i)| ((i.node, i.instance, i.mesh, i.primitive), k))
        .collect()
}

/// The world matrix of the node a local-frame collider `c` of `scene`
/// hangs under — its joint's for a bone, else its instance's transform —
/// given `index` ([`instance_index`]); `None` for world-frame and scene
/// colliders.
pub fn placement(
    scene: &Scene,
    index: &HashMap<InstanceKey, usize>,
    c: &ColliderDoc,
) -> Option<Matrix4<f64>> {
    if c.frame != "local" {
        return None;
    }
    let inst = &scene.instances[*index.get(&c.instance_key()?)?];
    match (&c.joint, &inst.skin) {
        (Some(j), Some(s)) => s.skin.joints.get(j.index as usize).map(|j| j.world),
        (Some(_), None) => None,
        (None, _) => Some(inst.transform),
    }
}

/// The families the exports carry, in their binary codes' order
/// ([`super::bin_collider::ASKED`]).
pub const EXPORTED: [ShapeSpec; 8] = [
    ShapeSpec::Box(None),
    ShapeSpec::Sphere(None),
    ShapeSpec::Capsule,
    ShapeSpec::Cylinder,
    ShapeSpec::KDOP26,
    ShapeSpec::Hull(None),
    ShapeSpec::Best,
    ShapeSpec::Decompose,
];

/// The collider shapes of `specs` as the export makes them: each one's
/// family, its parameter applied to the options (`box:M` sets the box
/// method, `sphere:M` the sphere method, `hull:N` the budget; a later one
/// wins). Errors name a shape the exports do not carry (only the 26-DOP
/// along the mesh's axes among the k-DOPs, no AABB: `box` is the box).
pub fn export_shapes(
    specs: &[ShapeSpec],
    fit: &mut FitOptions,
    hull_max: &mut usize,
) -> std::result::Result<Vec<ShapeSpec>, UnknownShape> {
    let mut out = Vec::with_capacity(specs.len());
    for &spec in specs {
        match spec {
            ShapeSpec::Box(Some(m)) => fit.obb_methods.insert(0, m),
            ShapeSpec::Sphere(Some(m)) => fit.sphere_methods.insert(0, m),
            ShapeSpec::Hull(Some(n)) => *hull_max = n,
            _ => {}
        }
        let family = spec.without_parameter();
        if !EXPORTED.contains(&family) {
            return Err(UnknownShape(format!(
                "the exports carry box, sphere, capsule, cylinder, kdop26, hull, best and decompose colliders, not {spec}"
            )));
        }
        if !out.contains(&family) {
            out.push(family);
        }
    }
    Ok(out)
}

/// The fit options that make the volumes `shapes` need, on top of `fit`.
pub fn fit_options(fit: &FitOptions, shapes: &[ShapeSpec], hull_max: usize) -> FitOptions {
    let mut f = FitOptions {
        per_mesh: false,
        // Read by `colliders`, which decomposes each geometry itself.
        decompose_options: DecomposeOptions {
            max_vertices: hull_max.min(MAX_PART_VERTICES),
            ..DecomposeOptions::default()
        },
        ..fit.clone()
    };
    let asked: Vec<ShapeSpec> = shapes
        .iter()
        .map(|&s| match s {
            ShapeSpec::Hull(None) => ShapeSpec::Hull(Some(hull_max)),
            other => other,
        })
        .collect();
    f.add_shapes(&asked);
    f
}

/// Why `inst`'s collider cannot hang under its node in the node's frame
/// (`None` when it can): a GPU instance, or a world transform that is not a
/// similarity (columns orthogonal and of equal length within 10⁻⁶).
pub fn world_reason(inst: &MeshInstance, gpu_instanced: bool) -> Option<&'static str> {
    if gpu_instanced {
        return Some("EXT_mesh_gpu_instancing instance (no node of its own)");
    }
    (!is_similarity(&inst.transform))
        .then_some("non-uniform scale or shear in the node's world transform")
}

/// How a collider names what it bounds: `node N 'name' [instance I] mesh M
/// 'name' primitive P` (`node -` for OBJ/STL), or `scene`.
pub fn label(inst: Option<&MeshInstance>) -> String {
    let Some(i) = inst else {
        return "scene".into();
    };
    let named = |id: String, n: &Option<Arc<str>>| match n {
        Some(n) => format!("{id} '{n}'"),
        None => id,
    };
    let node = named(i.node.map_or("-".into(), |n| n.to_string()), &i.node_name);
    let inst = if i.instance > 0 {
        format!(" instance {}", i.instance)
    } else {
        String::new()
    };
    format!(
        "node {node}{inst} mesh {} primitive {}",
        named(i.mesh.to_string(), &i.mesh_name),
        i.primitive
    )
}

/// A collider's name before ` of <what it bounds>`: `bvtool capsule`,
/// `bvtool best (sphere)`, `bvtool hull (box)` (a flat mesh's).
fn name(asked: ShapeSpec, shape: ShapeSpec) -> String {
    if asked == shape {
        format!("bvtool {}", shape.family())
    } else {
        format!("bvtool {} ({})", asked.family(), shape.family())
    }
}

/// The geometry of `shape` among the fitted `v` (which `fit_options`
/// made), with its volume and the shape it is (for `best`, the winner).
/// `points` gives the points `v` bounds: the k-DOP's vertices, computed in
/// `f64`, can lie a few ulps inside its exact slabs, so they are scaled out
/// until their hull contains every point ([`hull_budget::spanning`], as the
/// budget hull's are).
fn geometry(
    v: &Volumes,
    shape: ShapeSpec,
    points: &dyn Fn() -> Vec<Point3<f64>>,
) -> (ShapeSpec, Geometry, f64) {
    let obb = |b: &crate::volumes::ObbFit| {
        Geometry::Box(ObbDoc {
            method: Some(b.method.as_str().into()),
            center: b.center,
            axes: b.axes,
            half_extents: b.half_extents,
            rotation_xyzw: b.rotation_xyzw,
        })
    };
    let fitted = "fit_options asks for every shape it is given";
    match shape {
        ShapeSpec::Box(None) => (shape, obb(&v.obb), v.obb.volume),
        ShapeSpec::Sphere(None) => (
            shape,
            Geometry::Sphere {
                center: v.sphere.center,
                radius: v.sphere.radius,
            },
            v.sphere.volume,
        ),
        ShapeSpec::Capsule => {
            let c = v.capsule.as_ref().expect(fitted);
            let g = Geometry::Capsule {
                center: c.center,
                axis: c.axis,
                radius: c.radius,
                half_length: c.half_length,
                rotation_xyzw: c.rotation_xyzw,
            };
            (shape, g, c.volume)
        }
        ShapeSpec::Cylinder => {
            let c = v.cylinder.as_ref().expect(fitted);
            let g = Geometry::Cylinder {
                center: c.center,
                axis: c.axis,
                radius: c.radius,
                half_height: c.half_height,
                rotation_xyzw: c.rotation_xyzw,
            };
            (shape, g, c.volume)
        }
        // A flat polytope cannot be cooked into a convex collider: the box.
        ShapeSpec::KDOP26 | ShapeSpec::Hull(None) if v.hull_volume <= 0.0 => {
            geometry(v, ShapeSpec::Box(None), points)
        }
        ShapeSpec::KDOP26 => {
            let k = &v.kdops.as_ref().expect(fitted)[0];
            let vertices: Vec<Point3<f64>> = k.vertices.iter().map(|p| Point3::from(*p)).collect();
            let size = vertices.iter().map(|p| p.coords.amax()).fold(0.0, f64::max);
            let vertices = hull_budget::spanning(vertices, &points(), hull_budget::MARGIN * size);
            let g = Geometry::Convex {
                vertices: vertices.iter().map(|p| [p.x, p.y, p.z]).collect(),
                faces: k.faces.clone(),
            };
            (shape, g, k.volume)
        }
        ShapeSpec::Hull(None) => {
            let h = v.hull_budget.as_ref().expect(fitted);
            let g = Geometry::Convex {
                vertices: h.vertices.clone(),
                faces: h.faces.clone(),
            };
            (shape, g, h.volume)
        }
        // `colliders` makes the parts; a flat mesh's falls back to its box.
        ShapeSpec::Decompose => geometry(v, ShapeSpec::Box(None), points),
        ShapeSpec::Best => match v.best.as_ref().expect(fitted).shape {
            "aabb" => {
                let (lo, hi) = (v.aabb.corners.min, v.aabb.corners.max);
                let g = Geometry::Box(ObbDoc {
                    method: Some("aabb".into()),
                    center: std::array::from_fn(|i| 0.5 * (lo[i] + hi[i])),
                    axes: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                    half_extents: std::array::from_fn(|i| 0.5 * (hi[i] - lo[i])),
                    rotation_xyzw: [0.0, 0.0, 0.0, 1.0],
                });
                (ShapeSpec::Box(None), g, v.aabb.volume)
            }
            "obb" => geometry(v, ShapeSpec::Box(None), points),
            "sphere" => geometry(v, ShapeSpec::Sphere(None), points),
            "capsule" => geometry(v, ShapeSpec::Capsule, points),
            _ => geometry(v, ShapeSpec::Cylinder, points),
        },
        other => unreachable!("export_shapes refuses {other}"),
    }
}

/// Convex parts as colliders: geometry and volume of each.
type Parts = Vec<(Geometry, f64)>;

/// The convex parts of a mesh for `--shape decompose` (with
/// `fit.decompose_options`), each a convex polytope; `None` for a flat mesh, whose collider
/// is then its box, as a flat hull's is.
fn convex_parts(
    scene: &Scene,
    points: &[Point3<f64>],
    triangles: &[[u32; 3]],
    fit: &FitOptions,
) -> Result<Option<Parts>> {
    match decompose(points, triangles, &fit.decompose_options) {
        Ok(d) => Ok(Some(
            d.parts
                .into_iter()
                .map(|p| {
                    let g = Geometry::Convex {
                        vertices: p.vertices.iter().map(|v| [v.x, v.y, v.z]).collect(),
                        faces: p.faces,
                    };
                    (g, p.volume)
                })
                .collect(),
        )),
        Err(DecomposeError::Flat) => Ok(None),
        Err(e) => Err(crate::error::Error::geometry(
            &scene.path,
            format!("decomposition: {e}"),
        )),
    }
}

/// The fits of geometries placed by several instances, made once.
#[derive(Default)]
struct Cache {
    volumes: HashMap<*const crate::mesh::Geometry, Volumes>,
    parts: HashMap<*const crate::mesh::Geometry, Option<Parts>>,
}

/// The colliders of `scene`: for each shape in `shapes`, one per mesh
/// instance with triangles (none for a point cloud) — for a skinned
/// instance, one per bone ([`crate::mesh::skin::Skinning::bones`]) — then
/// (with `whole`, from `scene_volumes`, the world fit made with
/// [`fit_options`]) one for the whole scene. When `stop` is set it
/// returns early, before the next instance or bone or inside one's fit,
/// with what it made so far: the caller, who set it, drops that.
pub fn colliders(
    scene: &Scene,
    shapes: &[ShapeSpec],
    fit: &FitOptions,
    scene_volumes: Option<&Volumes>,
    stop: Stop<'_>,
) -> Result<Vec<ColliderDoc>> {
    if shapes.is_empty() {
        return Ok(Vec::new());
    }
    let gpu = super::gltf_input::gpu_instanced_nodes(scene)?;
    let mut cache = Cache::default();
    let mut out = Vec::new();
    for inst in &scene.instances {
        if stop.is_set() {
            return Ok(out);
        }
        if inst.geometry.triangles.is_empty() {
            continue;
        }
        let Some(skinning) = &inst.skin else {
            let reason = world_reason(inst, inst.node.is_some_and(|n| gpu.contains(&n)));
            let target = Target {
                inst,
                fitted: inst,
                joint: None,
                reason,
            };
            match target.colliders(scene, shapes, fit, Some(&mut cache), &mut out, stop) {
                Err(Halt::Failed(e)) => return Err(e),
                Err(Halt::Stopped) => return Ok(out),
                Ok(()) => continue,
            }
        };
        for bone in skinning.bones(inst, fit.all_vertices) {
            if stop.is_set() {
                return Ok(out);
            }
            let j = &skinning.skin.joints[bone.joint];
            let target = Target {
                inst,
                fitted: &bone.instance,
                joint: Some(JointDoc {
                    skin: skinning.skin.index,
                    index: bone.joint as u32,
                    node: j.node,
                    name: j.name.as_deref().map(str::to_owned),
                }),
                reason: bone.world_reason,
            };
            // A bone's geometry is its own: nothing to share.
            match target.colliders(scene, shapes, fit, None, &mut out, stop) {
                Err(Halt::Failed(e)) => return Err(e),
                Err(Halt::Stopped) => return Ok(out),
                Ok(()) => {}
            }
        }
    }
    if let Some(v) = scene_volumes {
        let points = || scene.world_points(fit.all_vertices);
        let mut parts = || {
            let flat = scene.flatten();
            convex_parts(scene, &flat.vertices, &flat.triangles, fit)
        };
        for &asked in shapes {
            let made = made(v, asked, &points, &mut parts)?;
            out.extend(
                made.into_iter()
                    .map(|(name, geometry, volume)| ColliderDoc {
                        scope: "scene".into(),
                        node: None,
                        node_name: None,
                        instance: None,
                        mesh: None,
                        mesh_name: None,
                        primitive: None,
                        joint: None,
                        frame: "world".into(),
                        world_reason: None,
                        asked,
                        name: format!("{name} of {}", label(None)),
                        geometry,
                        volume,
                    }),
            );
        }
    }
    Ok(out)
}

/// What one instance collider is fitted to: the mesh instance `inst`
/// itself, or one bone of it (`joint`), whose displayed vertices in the
/// joint's frame `fitted` holds; in the world frame when `reason` says why.
struct Target<'a> {
    inst: &'a MeshInstance,
    fitted: &'a MeshInstance,
    joint: Option<JointDoc>,
    reason: Option<&'static str>,
}

impl Target<'_> {
    /// Appends to `out` the colliders of `shapes` fitted to `self.fitted`
    /// (local fits shared through `cache` by the instances of a geometry);
    /// the fit gives up when `stop` is set.
    fn colliders(
        &self,
        scene: &Scene,
        shapes: &[ShapeSpec],
        fit: &FitOptions,
        cache: Option<&mut Cache>,
        out: &mut Vec<ColliderDoc>,
        stop: Stop<'_>,
    ) -> std::result::Result<(), Halt> {
        let (inst, fitted, reason) = (self.inst, self.fitted, self.reason);
        let (volumes, mut parts_cache) = match cache {
            Some(c) => (Some(&mut c.volumes), Some(&mut c.parts)),
            None => (None, None),
        };
        let fresh;
        let v = match (reason, volumes) {
            (None, Some(c)) => match c.entry(Arc::as_ptr(&fitted.geometry)) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => {
                    e.insert(fit_instance_until(scene, fitted, Frame::Local, fit, stop)?)
                }
            },
            _ => {
                let frame = if reason.is_some() {
                    Frame::World
                } else {
                    Frame::Local
                };
                fresh = fit_instance_until(scene, fitted, frame, fit, stop)?;
                &fresh
            }
        };
        let points = || {
            let mut pts = Vec::new();
            instance_points(fitted, fit.all_vertices, reason.is_some(), &mut pts);
            pts
        };
        let g = &fitted.geometry;
        let mut parts = || -> Result<Option<Parts>> {
            if reason.is_some() {
                let placed: Vec<_> = g.positions.iter().map(|p| fitted.to_world(p)).collect();
                return convex_parts(scene, &placed, &g.triangles, fit);
            }
            match parts_cache.as_deref_mut() {
                Some(c) => Ok(match c.entry(Arc::as_ptr(g)) {
                    Entry::Occupied(e) => e.get().clone(),
                    Entry::Vacant(e) => e
                        .insert(convex_parts(scene, &g.positions, &g.triangles, fit)?)
                        .clone(),
                }),
                None => convex_parts(scene, &g.positions, &g.triangles, fit),
            }
        };
        let what = match &self.joint {
            Some(j) => format!("{} of {}", j.label(), label(Some(inst))),
            None => label(Some(inst)),
        };
        for &asked in shapes {
            let made = made(v, asked, &points, &mut parts)?;
            out.extend(
                made.into_iter()
                    .map(|(name, geometry, volume)| ColliderDoc {
                        scope: "instance".into(),
                        node: inst.node,
                        node_name: inst.node_name.as_deref().map(str::to_owned),
                        instance: Some(inst.instance),
                        mesh: Some(inst.mesh),
                        mesh_name: inst.mesh_name.as_deref().map(str::to_owned),
                        primitive: Some(inst.primitive),
                        joint: self.joint.clone(),
                        frame: if reason.is_some() { "world" } else { "local" }.into(),
                        world_reason: reason.map(str::to_owned),
                        asked,
                        name: format!("{name} of {what}"),
                        geometry,
                        volume,
                    }),
            );
        }
        Ok(())
    }
}

/// The colliders `asked` makes from the fitted `v` — one, or one per convex
/// part for `decompose` (`parts` decomposes on demand) — each with its name
/// (to be followed by ` of <what it bounds>`), geometry and volume.
fn made(
    v: &Volumes,
    asked: ShapeSpec,
    points: &dyn Fn() -> Vec<Point3<f64>>,
    parts: &mut dyn FnMut() -> Result<Option<Parts>>,
) -> Result<Vec<(String, Geometry, f64)>> {
    if asked == ShapeSpec::Decompose
        && let Some(parts) = parts()?
    {
        let n = parts.len();
        return Ok(parts
            .into_iter()
            .enumerate()
            .map(|(k, (g, volume))| (format!("bvtool decompose part {} of {n}", k + 1), g, volume))
            .collect());
    }
    let (shape, geometry, volume) = geometry(v, asked, points);
    Ok(vec![(name(asked, shape), geometry, volume)])
}
