//! The loaded model: mesh instances placed in the world, and the flattened
//! triangle soup that fitting and collision work on.
//!
//! Units are the file's own (glTF: metres by convention; OBJ and STL: whatever
//! the author used). Positions are kept in `f64` from the moment they are read.

pub(crate) mod closed;
pub mod primitives;
pub mod skin;
pub mod source_runs;
pub mod stacks;
pub mod weld;

use crate::error::{Error, Result};
use nalgebra::{Matrix4, Point3};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

/// The largest coordinate magnitude a scene may hold, in its meshes' local
/// frames and in world space: 2^50 ≈ 1.126e15 model units. Loading refuses
/// anything beyond ([`Scene::check_range`]), and pose translations are held
/// to it too, so everything downstream may assume it. The headroom it leaves
/// (docs/algorithms.md, "Numeric range"): a coordinate difference is below
/// 2^52, a squared length of a difference below 3·2^104 (finite even in
/// `f32`), an `orient3d` product term below 2^160, a sum of 2^32 coordinates
/// below 2^82, a box or hull volume below 2^160 — all far from the `f64`
/// (2^1024) and `f32` (2^128) overflow thresholds.
pub const MAX_COORDINATE: f64 = (1u64 << 50) as f64;

/// The smallest nonzero coordinate magnitude a mesh may hold in its local
/// frame, and the smallest nonzero scale (largest linear entry) and
/// translation entry of an instance's placement: 2^-126 ≈ 1.18e-38, the
/// smallest normal `f32`. Loading refuses anything nonzero below it
/// ([`Scene::check_range`]). What it buys (docs/algorithms.md, "Numeric
/// range"): a nonzero coordinate converts to a normal `f32`; a product of
/// two such numbers is at least 2^-252, so a nonzero coordinate built from
/// them is a multiple of 2^-304, its square at least 2^-608 and an
/// `orient3d` term (three differences) at least 2^-912, all above the
/// `f64` subnormal threshold (2^-1022): squared lengths do not underflow
/// and a gap is never computed as 0. A model scaled into that range (a
/// tetrahedron at 1e-170) is refused instead of collapsing to a point.
pub const MIN_COORDINATE: f64 = f32::MIN_POSITIVE as f64;

/// Where a triangle came from, in the file's own terms, so that an answer can
/// name a triangle the way the file names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct TriangleSource {
    /// glTF node index; `None` for OBJ and STL.
    pub node: Option<u32>,
    /// `EXT_mesh_gpu_instancing` instance of that node (0 otherwise).
    pub instance: u32,
    /// glTF mesh index; OBJ object/group in file order; STL solid in file order.
    pub mesh: u32,
    /// Primitive index within the glTF mesh (0 for OBJ and STL).
    pub primitive: u32,
    /// Triangle index within the primitive, after strip/fan/polygon triangulation.
    pub triangle: u32,
}

impl TriangleSource {
    /// The source of triangle `triangle` of mesh `mesh` in a file without a
    /// node hierarchy (OBJ, STL, or a mesh built in code): no node, instance
    /// 0, primitive 0.
    pub fn unplaced(mesh: u32, triangle: u32) -> TriangleSource {
        TriangleSource {
            node: None,
            instance: 0,
            mesh,
            primitive: 0,
            triangle,
        }
    }
}

/// Triangle geometry as stored in the file, in the mesh's own (local) frame.
///
/// Shared by every instance that places it, so a mesh reused by many nodes is
/// stored once.
#[derive(Clone, Debug, Default)]
pub struct Geometry {
    /// Every vertex of the position data (for glTF, every element of the
    /// POSITION accessor, referenced or not).
    pub positions: Vec<Point3<f64>>,
    /// Triangles as indices into `positions`, in the file's winding.
    pub triangles: Vec<[u32; 3]>,
}

impl Geometry {
    /// Indices of the vertices that at least one triangle references, ascending.
    pub fn referenced_vertices(&self) -> Vec<u32> {
        let mut used = vec![false; self.positions.len()];
        for t in &self.triangles {
            for &i in t {
                used[i as usize] = true;
            }
        }
        (0..self.positions.len() as u32)
            .filter(|&i| used[i as usize])
            .collect()
    }
}

/// One primitive placed in the world by one node (and one GPU instance).
#[derive(Clone, Debug)]
pub struct MeshInstance {
    /// glTF node index; `None` for OBJ and STL.
    pub node: Option<u32>,
    /// The node's name, if the file gives one (shared by the node's instances).
    pub node_name: Option<Arc<str>>,
    /// `EXT_mesh_gpu_instancing` instance index (0 otherwise).
    pub instance: u32,
    /// glTF mesh index, OBJ object/group index or STL solid index.
    pub mesh: u32,
    /// The mesh's (object's, solid's) name, if the file gives one (shared
    /// by its instances).
    pub mesh_name: Option<Arc<str>>,
    /// Primitive index within the mesh.
    pub primitive: u32,
    /// Local → world transform (the node's world matrix; identity for OBJ/STL).
    pub transform: Matrix4<f64>,
    /// The geometry, in local coordinates.
    pub geometry: Arc<Geometry>,
    /// For a glTF skinned mesh, its skin and vertex influences (`None`
    /// otherwise). `transform` and `geometry` stay the bind pose every
    /// command but `export` works on; [`skin::Skinning::pose`] gives the
    /// displayed pose.
    pub skin: Option<skin::Skinning>,
}

impl MeshInstance {
    /// Mesh `mesh` (named `name`) of a file without a node hierarchy (OBJ,
    /// STL, or a mesh made in code): no node, identity transform.
    pub fn unplaced(mesh: u32, name: Option<String>, geometry: Geometry) -> MeshInstance {
        MeshInstance {
            node: None,
            node_name: None,
            instance: 0,
            mesh,
            mesh_name: name.map(Arc::from),
            primitive: 0,
            transform: Matrix4::identity(),
            geometry: Arc::new(geometry),
            skin: None,
        }
    }

    /// True when the transform mirrors (negative determinant), so the
    /// world-space winding is the reverse of the file's.
    pub fn is_mirrored(&self) -> bool {
        self.transform.fixed_view::<3, 3>(0, 0).determinant() < 0.0
    }

    /// A local point mapped to world space.
    pub fn to_world(&self, p: &Point3<f64>) -> Point3<f64> {
        self.transform.transform_point(p)
    }

    /// What places this instance's world points, bit for bit: its
    /// geometry (by identity) and its transform's bits. Instances with one
    /// key place the same world points.
    pub fn placement_key(&self) -> (*const Geometry, Matrix4<u64>) {
        (
            Arc::as_ptr(&self.geometry),
            self.transform.map(f64::to_bits),
        )
    }
}

/// The file format a scene was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// glTF 2.0 JSON (`.gltf`).
    Gltf,
    /// glTF 2.0 binary container (`.glb`).
    Glb,
    /// Wavefront OBJ.
    Obj,
    /// STL, ASCII or binary.
    Stl,
}

/// A model file, loaded: every mesh instance of the scene it renders.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The file it was read from.
    pub path: PathBuf,
    /// Its format.
    pub format: Format,
    /// Every primitive instance, in scene traversal order.
    pub instances: Vec<MeshInstance>,
    /// Primitives that were skipped because they are neither triangles nor
    /// points (glTF LINES, LINE_LOOP, LINE_STRIP; OBJ `l`/`p` elements count
    /// here as well). glTF POINTS primitives are instances whose geometry has
    /// points and no triangles.
    pub skipped_primitives: usize,
    /// glTF extensions the file uses (`extensionsUsed`), sorted.
    pub extensions: Vec<String>,
}

impl Scene {
    /// A scene of one unplaced mesh, `geometry`, read from (or named) `path`.
    pub fn of_geometry(path: PathBuf, format: Format, geometry: Geometry) -> Scene {
        Scene {
            path,
            format,
            instances: vec![MeshInstance::unplaced(0, None, geometry)],
            skipped_primitives: 0,
            extensions: Vec::new(),
        }
    }

    /// Triangles after flattening (each instance counted).
    pub fn triangle_count(&self) -> usize {
        self.instances
            .iter()
            .map(|i| i.geometry.triangles.len())
            .sum()
    }

    /// Vertices placed in the world (each instance's position data counted).
    pub fn vertex_count(&self) -> usize {
        self.instances
            .iter()
            .map(|i| i.geometry.positions.len())
            .sum()
    }

    /// World-space vertices of every instance: by default only the vertices
    /// the triangles reference; with `all_vertices`, every vertex of the
    /// position data (as D3DX and the glTF accessor `min`/`max` do).
    pub fn world_points(&self, all_vertices: bool) -> Vec<Point3<f64>> {
        self.world_points_iter(all_vertices).collect()
    }

    /// [`Scene::world_points`] one at a time, in the same order, without
    /// holding them all.
    pub fn world_points_iter(&self, all_vertices: bool) -> impl Iterator<Item = Point3<f64>> + '_ {
        placed_points(self.instances.iter(), all_vertices)
    }

    /// The instances that place something new, in scene order: the first
    /// instance of each (geometry, transform) pair. The others add the same
    /// world points again, which changes no bound (and no Ritter sphere: a
    /// point inside it stays inside as it grows).
    pub fn distinct_instances(&self) -> impl Iterator<Item = &MeshInstance> + '_ {
        let mut seen = HashSet::new();
        self.instances
            .iter()
            .filter(move |i| seen.insert(i.placement_key()))
    }

    /// Checks the numeric policy: every vertex within [`MAX_COORDINATE`] in
    /// its mesh's local frame and, once placed, in world space. The world
    /// test maps the corners of each geometry's local bounding box (a
    /// vertex lies in their convex hull, and so does its image), falling back
    /// to the instance's own vertices only when a corner lands outside, so it
    /// costs O(vertices of unique geometry + instances) in the usual case.
    /// The error names the file, the offending value and the accepted range.
    ///
    /// The lower bound, [`MIN_COORDINATE`]: every local coordinate is 0 or
    /// at least 2^-126 in magnitude, and so are each instance's scale (the
    /// largest entry of its linear part; a zero scale hides a mesh) and
    /// translation entries, checked per instance at O(1).
    pub fn check_range(&self) -> Result<()> {
        let out_of_range = |v: f64| v.is_nan() || v.abs() > MAX_COORDINATE;
        let too_small = |v: f64| v != 0.0 && v.abs() < MIN_COORDINATE;
        let refuse = |what: String, v: f64| {
            Error::geometry(
                &self.path,
                format!(
                    "{what} {v:e}, outside the accepted range: |x| <= 2^50 ({MAX_COORDINATE:e}), and 0 or |x| >= 2^-126 ({MIN_COORDINATE:e})"
                ),
            )
        };
        let mut local: HashMap<*const Geometry, [Point3<f64>; 8]> = HashMap::new();
        for inst in &self.instances {
            let g = &inst.geometry;
            let key = Arc::as_ptr(g);
            let corners = match local.get(&key) {
                Some(c) => *c,
                None => {
                    let (mut lo, mut hi) = (Point3::origin(), Point3::origin());
                    for (k, p) in g.positions.iter().enumerate() {
                        if let Some(&v) = p.iter().find(|v| out_of_range(**v) || too_small(**v)) {
                            return Err(refuse(
                                format!("vertex {k} of mesh {} has coordinate", inst.mesh),
                                v,
                            ));
                        }
                        if k == 0 {
                            (lo, hi) = (*p, *p);
                        }
                        lo = lo.inf(p);
                        hi = hi.sup(p);
                    }
                    let c = std::array::from_fn(|i| {
                        Point3::new(
                            if i & 1 == 0 { lo.x } else { hi.x },
                            if i & 2 == 0 { lo.y } else { hi.y },
                            if i & 4 == 0 { lo.z } else { hi.z },
                        )
                    });
                    local.insert(key, c);
                    c
                }
            };
            let node = inst.node.map_or(String::new(), |n| format!("node {n} "));
            let m = &inst.transform;
            let scale = m.fixed_view::<3, 3>(0, 0).amax();
            if too_small(scale) {
                return Err(refuse(
                    format!("{node}places mesh {} at scale", inst.mesh),
                    scale,
                ));
            }
            if let Some(&t) = m.fixed_view::<3, 1>(0, 3).iter().find(|t| too_small(**t)) {
                return Err(refuse(
                    format!("{node}places mesh {} with translation", inst.mesh),
                    t,
                ));
            }
            if g.positions.is_empty()
                || corners
                    .iter()
                    .all(|c| inst.to_world(c).iter().all(|v| !out_of_range(*v)))
            {
                continue;
            }
            for p in &g.positions {
                if let Some(&v) = inst.to_world(p).iter().find(|v| out_of_range(**v)) {
                    return Err(refuse(
                        format!(
                            "{node}places a vertex of mesh {} at world coordinate",
                            inst.mesh
                        ),
                        v,
                    ));
                }
            }
        }
        self.check_skinned_range(&out_of_range, &refuse)
    }

    /// [`Scene::check_range`] for the displayed pose of every skinned
    /// instance (each distinct skin, influences and geometry once).
    fn check_skinned_range(
        &self,
        out_of_range: &dyn Fn(f64) -> bool,
        refuse: &dyn Fn(String, f64) -> Error,
    ) -> Result<()> {
        let mut seen = HashSet::new();
        for inst in &self.instances {
            let Some(s) = &inst.skin else { continue };
            let key = (
                Arc::as_ptr(&s.skin),
                Arc::as_ptr(&s.weights),
                Arc::as_ptr(&inst.geometry),
            );
            if !seen.insert(key) {
                continue;
            }
            for (k, p) in s.pose(&inst.geometry).positions.iter().enumerate() {
                if let Some(&v) = p.iter().find(|v| out_of_range(**v)) {
                    return Err(refuse(
                        format!(
                            "skin {} displays vertex {k} of mesh {} at world coordinate",
                            s.skin.index, inst.mesh
                        ),
                        v,
                    ));
                }
            }
        }
        Ok(())
    }

    /// The whole scene as one world-space triangle soup. Mirrored instances
    /// get their winding reversed so that it stays consistent in world space.
    ///
    /// # Guarantees
    /// One triangle per triangle of every instance, each with its source
    /// (node, instance, mesh, primitive, triangle) in `sources`.
    ///
    /// ```
    /// let scene = bvtool::load::load("models/chain.gltf".as_ref(), &Default::default())?;
    /// let mesh = scene.flatten();
    /// assert_eq!(mesh.triangles.len(), 2 * 2304);
    /// assert_eq!(mesh.sources.len(), mesh.triangles.len());
    /// # Ok::<(), bvtool::Error>(())
    /// ```
    pub fn flatten(&self) -> TriMesh {
        // Every vertex and triangle is placed on its own, in parallel
        // (rayon): the instance of the `i`-th one is found among the
        // running counts, so one large instance is shared between the
        // threads as well as many small ones, and the order is the
        // instances' whatever the threads.
        let running = |count: fn(&Geometry) -> usize| -> Vec<usize> {
            let mut before = 0;
            let mut out: Vec<usize> = self
                .instances
                .iter()
                .map(|inst| {
                    let at = before;
                    before += count(&inst.geometry);
                    at
                })
                .collect();
            out.push(before);
            out
        };
        let vertex_base = running(|g| g.positions.len());
        let triangle_base = running(|g| g.triangles.len());
        let mirrored: Vec<bool> = self.instances.iter().map(|i| i.is_mirrored()).collect();
        // The instance holding item `i` of those counted in `base`: the last
        // whose range starts at or before it (an empty instance's range
        // starts where the next one's does).
        let owner = |base: &[usize], i: usize| base.partition_point(|&b| b <= i) - 1;
        let vertices = (0..vertex_base[self.instances.len()])
            .into_par_iter()
            .map(|i| {
                let k = owner(&vertex_base, i);
                let inst = &self.instances[k];
                inst.to_world(&inst.geometry.positions[i - vertex_base[k]])
            })
            .collect();
        let (mut triangles, mut sources) = (Vec::new(), Vec::new());
        (0..triangle_base[self.instances.len()])
            .into_par_iter()
            .map(|i| {
                let k = owner(&triangle_base, i);
                let inst = &self.instances[k];
                let local = i - triangle_base[k];
                let t = inst.geometry.triangles[local];
                let t = if mirrored[k] { [t[0], t[2], t[1]] } else { t };
                let base = vertex_base[k] as u32;
                let source = TriangleSource {
                    node: inst.node,
                    instance: inst.instance,
                    mesh: inst.mesh,
                    primitive: inst.primitive,
                    triangle: local as u32,
                };
                ([t[0] + base, t[1] + base, t[2] + base], source)
            })
            .unzip_into_vecs(&mut triangles, &mut sources);
        TriMesh {
            vertices,
            triangles,
            sources,
        }
    }
}

/// Whether the affine `m`'s linear part is a similarity: a rotation
/// (possibly mirrored) times a positive uniform scale, its columns
/// orthogonal and of equal length within a relative 10⁻⁶. A similarity
/// maps a box, sphere, capsule, cylinder or convex polytope to the same
/// kind of shape.
pub fn is_similarity(m: &Matrix4<f64>) -> bool {
    let a: nalgebra::Matrix3<f64> = m.fixed_view::<3, 3>(0, 0).into_owned();
    let g = a.transpose() * a;
    let s2 = g.trace() / 3.0;
    s2 > 0.0 && (g - nalgebra::Matrix3::identity() * s2).amax() <= 1e-6 * s2
}

/// The world-space points of `instances`, in order: each one's referenced
/// vertices or, with `all_vertices`, all its position data.
pub fn placed_points<'a>(
    instances: impl Iterator<Item = &'a MeshInstance> + 'a,
    all_vertices: bool,
) -> impl Iterator<Item = Point3<f64>> + 'a {
    instances.flat_map(move |inst| {
        let g = &inst.geometry;
        let used: Box<dyn Iterator<Item = usize>> = if all_vertices {
            Box::new(0..g.positions.len())
        } else {
            Box::new(g.referenced_vertices().into_iter().map(|i| i as usize))
        };
        used.map(move |k| inst.to_world(&g.positions[k]))
    })
}

/// The points of one instance, in world space or (with `world == false`) in
/// the instance's own frame, appended to `out`.
pub fn instance_points(
    inst: &MeshInstance,
    all_vertices: bool,
    world: bool,
    out: &mut Vec<Point3<f64>>,
) {
    let g = &inst.geometry;
    let map = |p: &Point3<f64>| if world { inst.to_world(p) } else { *p };
    if all_vertices {
        out.extend(g.positions.iter().map(map));
    } else {
        out.extend(
            g.referenced_vertices()
                .into_iter()
                .map(|i| map(&g.positions[i as usize])),
        );
    }
}

/// A flattened triangle soup in one frame, each triangle knowing its source.
#[derive(Clone, Debug, Default)]
pub struct TriMesh {
    /// Vertex positions.
    pub vertices: Vec<Point3<f64>>,
    /// Triangles as indices into `vertices`.
    pub triangles: Vec<[u32; 3]>,
    /// Where each triangle came from (parallel to `triangles`).
    pub sources: Vec<TriangleSource>,
}

impl TriMesh {
    /// A mesh made in code: `triangles` (indices into `vertices`) of mesh 0,
    /// triangle `k`'s source numbered `k` ([`TriangleSource::unplaced`]).
    pub fn unplaced(vertices: Vec<Point3<f64>>, triangles: Vec<[u32; 3]>) -> TriMesh {
        let sources = (0..triangles.len() as u32)
            .map(|k| TriangleSource::unplaced(0, k))
            .collect();
        TriMesh {
            vertices,
            triangles,
            sources,
        }
    }

    /// Every triangle's three corners, in order.
    pub fn triangle_corners(&self) -> Vec<[Point3<f64>; 3]> {
        (0..self.triangles.len())
            .map(|i| self.triangle(i))
            .collect()
    }

    /// The three corners of triangle `i`.
    pub fn triangle(&self, i: usize) -> [Point3<f64>; 3] {
        let t = self.triangles[i];
        [
            self.vertices[t[0] as usize],
            self.vertices[t[1] as usize],
            self.vertices[t[2] as usize],
        ]
    }
}

/// `[x, y, z]` of a point, as the JSON documents write it.
pub fn xyz(v: &Point3<f64>) -> [f64; 3] {
    [v.x, v.y, v.z]
}
