//! The volumes of a whole scene or of one mesh instance: what `bvtool fit`
//! reports, `export` writes and the Python package returns — every shape a
//! [`FitOptions`] asks for, fitted once per geometry and placed per instance.

use crate::check::fit::Agreement;
use crate::error::{Error, Result};
use crate::fit::covariance;
use crate::fit::polytope::decompose::{DecomposeOptions, Decomposition};
use crate::fit::surface::Surface;
use crate::fit::{
    self, Aabb, BudgetHull, Capsule, Certificate, ConvexHull, Cylinder, FittedShape, Kdop,
    KdopKind, Obb, ObbMethod, ShapeFitter, ShapeSpec, Sphere, SphereMethod,
};
use crate::mesh::{
    Geometry, MeshInstance, Scene, TriMesh, TriangleSource, instance_points, placed_points, xyz,
};
use crate::query::{Air, AirOptions, air};
use crate::threads::{Stop, Stopped, unstopped};
use crate::tree::AabbTree;
use nalgebra::{Matrix3, Point3};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// An axis-aligned box as JSON: its two corners.
#[derive(Clone, Debug, Serialize)]
pub struct AabbJson {
    /// Lowest corner.
    pub min: [f64; 3],
    /// Highest corner.
    pub max: [f64; 3],
}

impl From<&Aabb> for AabbJson {
    fn from(b: &Aabb) -> Self {
        AabbJson {
            min: xyz(&b.min),
            max: xyz(&b.max),
        }
    }
}

/// The frame volumes are expressed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Frame {
    /// The scene's world frame (node transforms applied).
    World,
    /// Each mesh instance's own frame (its node transform not applied).
    Local,
}

impl Frame {
    /// `world` or `local`, as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Frame::World => "world",
            Frame::Local => "local",
        }
    }
}

/// What to fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// OBB methods; the first is reported as `obb`.
    pub obb_methods: Vec<ObbMethod>,
    /// Sphere methods; the first is reported as `sphere`.
    pub sphere_methods: Vec<SphereMethod>,
    /// Report every method under `obbs` / `spheres` too.
    pub all_methods: bool,
    /// Fit every vertex of the position data, not only the referenced ones.
    pub all_vertices: bool,
    /// Also fit each mesh instance.
    pub per_mesh: bool,
    /// Frame of the per-mesh volumes (the file's volumes are always world).
    pub frame: Frame,
    /// Cross-check the AABB and centroid sphere against parry3d.
    pub check: bool,
    /// The shapes fitted besides the AABB, the boxes and the spheres (which
    /// are always reported), in the shape grammar every command shares
    /// ([`ShapeSpec`]): `capsule` and `cylinder` (near-minimal), `kdopK`
    /// (in either frame: the k-DOP is reported in the volumes' frame and in
    /// the reported OBB's), `hull[:N]` (a convex hull of at most N vertices
    /// and faces, 255 by default), `best` (names the smallest primitive by
    /// volume, [`Best`], fitting the capsule and the cylinder it compares)
    /// and `decompose` (the whole scene in convex parts, world frame, with
    /// [`FitOptions::decompose_options`]); a later `kdop` or `hull` replaces
    /// an earlier one. `box:M` and `sphere:M` choose the reported method
    /// through [`FitOptions::add_shapes`].
    pub shapes: Vec<ShapeSpec>,
    /// The options of `decompose`.
    pub decompose_options: DecomposeOptions,
    /// Also measure each volume's air: the largest distance from its
    /// surface to the mesh ([`fn@crate::query::air`]).
    pub air: bool,
}

impl FitOptions {
    /// One OBB method and one sphere method, world frame, nothing else:
    /// what `export` and the Python package fit; set the other fields with
    /// struct update syntax.
    pub fn of(obb: ObbMethod, sphere: SphereMethod) -> FitOptions {
        FitOptions {
            obb_methods: vec![obb],
            sphere_methods: vec![sphere],
            all_methods: false,
            all_vertices: false,
            per_mesh: false,
            frame: Frame::World,
            check: false,
            shapes: Vec::new(),
            decompose_options: DecomposeOptions::default(),
            air: false,
        }
    }
    /// Adds what `specs` ask for (the shape grammar every command shares,
    /// [`ShapeSpec`]): `box:M` and `sphere:M` make M the reported method;
    /// `aabb`, `box` and `sphere` are always reported; every other spec
    /// joins [`FitOptions::shapes`].
    ///
    /// ```
    /// use bvtool::fit::{ObbMethod, ShapeSpec, SphereMethod};
    /// use bvtool::volumes::FitOptions;
    ///
    /// let mut opts = FitOptions::of(ObbMethod::Tight, SphereMethod::Exact);
    /// opts.add_shapes(&ShapeSpec::parse_list("box:pca, kdop14, hull:64, best").unwrap());
    /// assert_eq!(opts.obb_methods[0], ObbMethod::Pca);
    /// assert_eq!(opts.shapes, ShapeSpec::parse_list("kdop14, hull:64, best").unwrap());
    /// ```
    pub fn add_shapes(&mut self, specs: &[ShapeSpec]) {
        for &spec in specs {
            match spec {
                ShapeSpec::Aabb | ShapeSpec::Box(None) | ShapeSpec::Sphere(None) => {}
                ShapeSpec::Box(Some(m)) => {
                    self.obb_methods.retain(|&o| o != m);
                    self.obb_methods.insert(0, m);
                }
                ShapeSpec::Sphere(Some(m)) => {
                    self.sphere_methods.retain(|&s| s != m);
                    self.sphere_methods.insert(0, m);
                }
                other => self.shapes.push(other),
            }
        }
    }

    /// Whether `shapes` asks for `spec`.
    pub fn asks(&self, spec: ShapeSpec) -> bool {
        self.shapes.contains(&spec)
    }

    /// What [`fit_points`] fits through the [`ShapeFitter`], each once and
    /// in the order its records are made: `best` asks for the capsule and
    /// the cylinder, a k-DOP for itself in the volumes' frame then in the
    /// reported OBB's; a later k-DOP or hull replaces an earlier one (one
    /// record each). The boxes and spheres (with their methods) are fitted
    /// by [`fit_points`] itself, the convex parts by [`FileVolumes::new`].
    fn point_shapes(&self) -> Vec<ShapeSpec> {
        let slot = |s: &ShapeSpec| {
            let oriented = matches!(s, ShapeSpec::Kdop { oriented: true, .. });
            (std::mem::discriminant(s), oriented)
        };
        let mut out: Vec<ShapeSpec> = Vec::new();
        for &spec in &self.shapes {
            let fitted = match spec {
                ShapeSpec::Best => vec![ShapeSpec::Capsule, ShapeSpec::Cylinder],
                ShapeSpec::Kdop { kind, .. } => [false, true]
                    .map(|oriented| ShapeSpec::Kdop { kind, oriented })
                    .to_vec(),
                ShapeSpec::Capsule | ShapeSpec::Cylinder | ShapeSpec::Hull(_) => vec![spec],
                ShapeSpec::Aabb
                | ShapeSpec::Box(_)
                | ShapeSpec::Sphere(_)
                | ShapeSpec::Decompose => Vec::new(),
            };
            for s in fitted {
                out.retain(|o| slot(o) != slot(&s));
                out.push(s);
            }
        }
        out
    }
}

/// An AABB with its measures.
#[derive(Clone, Debug, Serialize)]
pub struct AabbFit {
    /// The lowest and highest corners.
    #[serde(flatten)]
    pub corners: AabbJson,
    /// Volume (model units³).
    pub volume: f64,
    /// Surface area (model units²).
    pub surface_area: f64,
    /// With `--air`: the largest distance from the surface to the mesh;
    /// the supremum lies in `[air, air + bound]` (docs/algorithms.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub air: Option<Air>,
}

/// An OBB as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct ObbFit {
    /// The method that fitted it.
    pub method: ObbMethod,
    /// Centre.
    pub center: [f64; 3],
    /// The three unit axes (each `[x, y, z]`), right-handed.
    pub axes: [[f64; 3]; 3],
    /// Whether the axes are the world's: every method keeps the
    /// axis-aligned box when it is no larger than its own frame's (so a
    /// `pca` box can be the AABB), and says so here.
    pub axis_aligned: bool,
    /// Half extents along the axes.
    pub half_extents: [f64; 3],
    /// The rotation whose columns are the axes, as a quaternion (x, y, z, w).
    pub rotation_xyzw: [f64; 4],
    /// Volume.
    pub volume: f64,
    /// Surface area.
    pub surface_area: f64,
    /// Whether the box is the minimum-volume box (`tight` where the exact
    /// search stays within its work limits).
    pub exact: bool,
    /// For `tight`: an upper bound of `volume` over the minimum volume (1
    /// when `exact`; else certified by the kernel's exact box, see
    /// docs/algorithms.md, "Big hulls"); absent for the other methods.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<f64>,
    /// With `--air`: the largest distance from the surface to the mesh;
    /// the supremum lies in `[air, air + bound]` (docs/algorithms.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub air: Option<Air>,
}

impl ObbFit {
    fn new(method: ObbMethod, b: &Obb, c: &Certificate, air: Option<Air>) -> ObbFit {
        ObbFit {
            method,
            center: xyz(&b.center),
            axes: std::array::from_fn(|i| b.axis(i).into()),
            axis_aligned: b.axes == nalgebra::Matrix3::identity(),
            half_extents: b.half_extents.into(),
            rotation_xyzw: b.rotation_xyzw(),
            volume: b.volume(),
            surface_area: b.surface_area(),
            exact: c.exact,
            bound: c.bound,
            air,
        }
    }
}

/// A k-DOP as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct KdopFit {
    /// Which family (`6`, `10x`, `10y`, `10z`, `14`, `18`, `26`).
    pub kind: KdopKind,
    /// `mesh` (the directions in the volumes' frame) or `obb` (in the
    /// reported OBB's frame).
    pub frame: &'static str,
    /// The frame's rotation as a quaternion (x, y, z, w): identity for `mesh`.
    pub rotation_xyzw: [f64; 4],
    /// The unit directions, in the volumes' frame.
    pub directions: Vec<[f64; 3]>,
    /// Per direction, the least `d·p` over the points (rounded down).
    pub min: Vec<f64>,
    /// Per direction, the greatest `d·p` (rounded up).
    pub max: Vec<f64>,
    /// The polytope's vertices.
    pub vertices: Vec<[f64; 3]>,
    /// Its faces: convex polygons of vertex indices, counter-clockwise seen
    /// from outside.
    pub faces: Vec<Vec<u32>>,
    /// Volume.
    pub volume: f64,
    /// Surface area.
    pub surface_area: f64,
    /// With `--air`: the largest distance from the surface to the mesh;
    /// the supremum lies in `[air, air + bound]` (docs/algorithms.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub air: Option<Air>,
}

impl KdopFit {
    /// `k`, whose frame `frame` has the rotation `rotation_xyzw`.
    fn new(frame: &'static str, rotation_xyzw: [f64; 4], k: &Kdop, air: Option<Air>) -> KdopFit {
        KdopFit {
            kind: k.kind,
            frame,
            rotation_xyzw,
            directions: k.directions.iter().map(|d| (*d).into()).collect(),
            min: k.lo.clone(),
            max: k.hi.clone(),
            vertices: k.vertices.iter().map(xyz).collect(),
            faces: k.faces.clone(),
            volume: k.volume(),
            surface_area: k.surface_area(),
            air,
        }
    }
}

/// A convex hull under a vertex and face budget as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct BudgetHullFit {
    /// The budget: at most this many vertices and this many faces.
    pub max: usize,
    /// Vertices.
    pub vertices: Vec<[f64; 3]>,
    /// Faces: convex polygons of vertex indices, counter-clockwise seen
    /// from outside.
    pub faces: Vec<Vec<u32>>,
    /// Hull planes cut into the starting box.
    pub planes: usize,
    /// Whether it is the exact hull (up to a push of rounding size).
    pub exact: bool,
    /// Volume.
    pub volume: f64,
    /// Surface area.
    pub surface_area: f64,
    /// The volume it gives up: `volume / hull_volume − 1` (`null` for
    /// flat points, whose hull has no volume).
    pub extra_volume_ratio: Option<f64>,
    /// With `--air`: the largest distance from the surface to the mesh;
    /// the supremum lies in `[air, air + bound]` (docs/algorithms.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub air: Option<Air>,
}

impl BudgetHullFit {
    fn new(b: &BudgetHull, hull_volume: f64, air: Option<Air>) -> BudgetHullFit {
        let volume = b.volume();
        BudgetHullFit {
            max: b.max,
            vertices: b.vertices.iter().map(xyz).collect(),
            faces: b.faces.clone(),
            planes: b.planes,
            exact: b.exact,
            volume,
            surface_area: b.surface_area(),
            extra_volume_ratio: (hull_volume > 0.0).then(|| volume / hull_volume - 1.0),
            air,
        }
    }
}

/// A capsule as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct CapsuleFit {
    /// The centre of its segment.
    pub center: [f64; 3],
    /// The unit axis.
    pub axis: [f64; 3],
    /// The radius.
    pub radius: f64,
    /// Half the segment's length (half the distance between the capping
    /// hemispheres' centres).
    pub half_length: f64,
    /// The segment's ends.
    pub segment: [[f64; 3]; 2],
    /// The rotation taking +Y to the axis (engines' and glTF's convention),
    /// as a quaternion (x, y, z, w).
    pub rotation_xyzw: [f64; 4],
    /// Volume.
    pub volume: f64,
    /// Surface area.
    pub surface_area: f64,
    /// With `--air`: the largest distance from the surface to the mesh;
    /// the supremum lies in `[air, air + bound]` (docs/algorithms.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub air: Option<Air>,
}

impl CapsuleFit {
    fn new(c: &Capsule, air: Option<Air>) -> CapsuleFit {
        let end = |s: f64| xyz(&(c.center + c.axis * (s * c.half_length)));
        CapsuleFit {
            center: xyz(&c.center),
            axis: c.axis.into(),
            radius: c.radius,
            half_length: c.half_length,
            segment: [end(-1.0), end(1.0)],
            rotation_xyzw: c.rotation_xyzw(),
            volume: c.volume(),
            surface_area: c.surface_area(),
            air,
        }
    }
}

/// A cylinder as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct CylinderFit {
    /// The centre.
    pub center: [f64; 3],
    /// The unit axis.
    pub axis: [f64; 3],
    /// The radius.
    pub radius: f64,
    /// Half the height.
    pub half_height: f64,
    /// The rotation taking +Y to the axis, as a quaternion (x, y, z, w).
    pub rotation_xyzw: [f64; 4],
    /// Volume.
    pub volume: f64,
    /// Surface area.
    pub surface_area: f64,
    /// With `--air`: the largest distance from the surface to the mesh;
    /// the supremum lies in `[air, air + bound]` (docs/algorithms.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub air: Option<Air>,
}

impl CylinderFit {
    fn new(c: &Cylinder, air: Option<Air>) -> CylinderFit {
        CylinderFit {
            center: xyz(&c.center),
            axis: c.axis.into(),
            radius: c.radius,
            half_height: c.half_height,
            rotation_xyzw: c.rotation_xyzw(),
            volume: c.volume(),
            surface_area: c.surface_area(),
            air,
        }
    }
}

/// A sphere as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct SphereFit {
    /// The method that fitted it.
    pub method: SphereMethod,
    /// Centre.
    pub center: [f64; 3],
    /// Radius.
    pub radius: f64,
    /// Volume.
    pub volume: f64,
    /// Surface area.
    pub surface_area: f64,
    /// With `--air`: the largest distance from the surface to the mesh;
    /// the supremum lies in `[air, air + bound]` (docs/algorithms.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub air: Option<Air>,
}

impl SphereFit {
    fn new(method: SphereMethod, s: &Sphere, air: Option<Air>) -> SphereFit {
        SphereFit {
            method,
            center: xyz(&s.center),
            radius: s.radius,
            volume: s.volume(),
            surface_area: s.surface_area(),
            air,
        }
    }
}

/// The smallest primitive by volume (Unreal's "MinVolume" collision
/// choice), among the axis-aligned box, the reported OBB, the reported
/// sphere, the capsule and the cylinder; on a tie the earlier in that order
/// (the simpler shape). Its parameters are in its own field.
#[derive(Clone, Debug, Serialize)]
pub struct Best {
    /// `aabb`, `obb`, `sphere`, `capsule` or `cylinder`.
    pub shape: &'static str,
    /// Its volume.
    pub volume: f64,
    /// Its volume over the convex hull's (`null` for flat points).
    pub hull_ratio: Option<f64>,
}

impl Best {
    /// The smallest of the volumes `v` fitted (capsule and cylinder only
    /// when fitted).
    fn of(v: &Volumes) -> Best {
        let candidates = [
            Some(("aabb", v.aabb.volume)),
            Some(("obb", v.obb.volume)),
            Some(("sphere", v.sphere.volume)),
            v.capsule.as_ref().map(|c| ("capsule", c.volume)),
            v.cylinder.as_ref().map(|c| ("cylinder", c.volume)),
        ];
        let (shape, volume) = candidates
            .into_iter()
            .flatten()
            .reduce(|best, c| if c.1 < best.1 { c } else { best })
            .expect("the box is always a candidate");
        Best {
            shape,
            volume,
            hull_ratio: (v.hull_volume > 0.0).then(|| volume / v.hull_volume),
        }
    }
}

/// The volumes fitted to one point set.
#[derive(Clone, Debug, Serialize)]
pub struct Volumes {
    /// Triangles the points come from.
    pub triangles: usize,
    /// Points fitted.
    pub vertices: usize,
    /// The frame of every number below.
    pub frame: Frame,
    /// The axis-aligned box.
    pub aabb: AabbFit,
    /// The OBB of the first requested method.
    pub obb: ObbFit,
    /// The sphere of the first requested method.
    pub sphere: SphereFit,
    /// Every requested OBB method (with `--obb all`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub obbs: Option<BTreeMap<&'static str, ObbFit>>,
    /// Every requested sphere method (with `--sphere all`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spheres: Option<BTreeMap<&'static str, SphereFit>>,
    /// With `--capsule`: a near-minimal capsule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capsule: Option<CapsuleFit>,
    /// With `--cylinder`: a near-minimal cylinder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cylinder: Option<CylinderFit>,
    /// With `--kdop`: the k-DOP in the volumes' frame, then in the reported
    /// OBB's frame (two records).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kdops: Option<Vec<KdopFit>>,
    /// With `--hull-max N`: a convex hull of at most N vertices and faces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hull_budget: Option<BudgetHullFit>,
    /// With `--best`: the smallest primitive by volume.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<Best>,
    /// Volume of the convex hull: the least any convex volume can have.
    pub hull_volume: f64,
    /// Hull vertices.
    pub hull_vertices: usize,
    /// parry3d cross-checks (with `--check`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<Vec<Agreement>>,
}

/// The volumes of one mesh instance.
#[derive(Debug, Serialize)]
pub struct MeshVolumes {
    /// glTF node index (`null` for OBJ/STL).
    pub node: Option<u32>,
    /// Node name.
    pub node_name: Option<String>,
    /// GPU instance (EXT_mesh_gpu_instancing), 0 otherwise.
    pub instance: u32,
    /// Mesh index (glTF mesh, OBJ object, STL solid).
    pub mesh: u32,
    /// Mesh name.
    pub mesh_name: Option<String>,
    /// Primitive index within the mesh.
    pub primitive: u32,
    /// The volumes.
    #[serde(flatten)]
    pub volumes: Volumes,
}

/// The volumes of one file.
#[derive(Debug, Serialize)]
pub struct FileVolumes {
    /// The file as given.
    pub file: String,
    /// The volumes of the whole (world-space) scene.
    #[serde(flatten)]
    pub volumes: Volumes,
    /// Per mesh instance (with `--per-mesh`); instances without triangles are left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meshes: Option<Vec<MeshVolumes>>,
    /// With `--decompose`: the whole scene in convex parts (world frame).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decomposition: Option<DecompositionFit>,
}

/// A convex decomposition as JSON.
#[derive(Debug, Serialize)]
pub struct DecompositionFit {
    /// The most parts asked for.
    pub max_hulls: u32,
    /// The most vertices (and faces) a part may have.
    pub max_vertices: usize,
    /// V-HACD's voxels along the longest side.
    pub resolution: u32,
    /// The parts: vertices, faces (convex polygons, counter-clockwise seen
    /// from outside) and volume; `grown` when mesh vertices V-HACD left out
    /// were added to it, `budgeted` when it was cut to the vertex budget.
    pub parts: Vec<PartFit>,
    /// Mesh vertices outside every V-HACD hull, added to a part.
    pub vertices_added: usize,
    /// The sum of the parts' volumes (overlaps counted twice).
    pub parts_volume: f64,
    /// `parts_volume` over the convex hull's volume.
    pub hull_ratio: f64,
    /// The volume the mesh encloses (`null` when it is not closed).
    pub mesh_volume: Option<f64>,
    /// `parts_volume` over `mesh_volume` (`null` when it is not closed).
    pub mesh_ratio: Option<f64>,
    /// With `--air`: the largest distance from a part's surface to the mesh (the
    /// largest over the parts);
    /// the supremum lies in `[air, air + bound]` (docs/algorithms.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub air: Option<Air>,
}

/// One part of a [`DecompositionFit`].
#[derive(Debug, Serialize)]
pub struct PartFit {
    /// Vertices.
    pub vertices: Vec<[f64; 3]>,
    /// Faces (convex polygons of vertex indices).
    pub faces: Vec<Vec<u32>>,
    /// Volume.
    pub volume: f64,
    /// Whether mesh vertices were added to it.
    pub grown: bool,
    /// Whether it was cut to the vertex budget.
    pub budgeted: bool,
}

impl DecompositionFit {
    fn new(d: &Decomposition, air: Option<Air>) -> DecompositionFit {
        DecompositionFit {
            max_hulls: d.options.max_hulls,
            max_vertices: d.options.max_vertices,
            resolution: d.options.resolution,
            parts: d
                .parts
                .iter()
                .map(|p| PartFit {
                    vertices: p.vertices.iter().map(xyz).collect(),
                    faces: p.faces.clone(),
                    volume: p.volume,
                    grown: p.grown,
                    budgeted: p.budgeted,
                })
                .collect(),
            vertices_added: d.vertices_added,
            parts_volume: d.parts_volume,
            hull_ratio: d.parts_volume / d.hull_volume,
            mesh_volume: d.mesh_volume,
            mesh_ratio: d
                .mesh_volume
                .filter(|v| *v > 0.0)
                .map(|v| d.parts_volume / v),
            air,
        }
    }
}

/// The diagonal of `mesh`'s bounding box (0 for no vertices).
fn diagonal(mesh: &TriMesh) -> f64 {
    Aabb::from_points(&mesh.vertices).map_or(0.0, |b| (b.max - b.min).norm())
}

/// A point set as the fits see it, without holding every point: `support`,
/// a subset that holds every vertex of the set's convex hull (the AABB, the
/// boxes, the exact sphere and the centroid sphere's radius depend on the
/// set only through its hull), the set's size and vertex moments (the mean
/// and covariance: the centroid sphere's centre, the PCA frame), and `walk`,
/// which goes through the points in order (Ritter's sphere and the parry3d
/// check depend on each one).
pub struct PointSet<'a> {
    /// Points of the set that include every hull vertex.
    pub support: &'a [Point3<f64>],
    /// How many points the set has.
    pub count: usize,
    /// Mean and covariance of the whole set.
    pub moments: (Point3<f64>, Matrix3<f64>),
    /// Walks the points of the set in order, afresh on each call: every
    /// one with `true`; with `false` repeats of points already walked may be
    /// left out (enough for Ritter's sphere).
    pub walk: Walk<'a>,
}

/// See [`PointSet::walk`].
pub type Walk<'a> = &'a dyn Fn(bool) -> Box<dyn Iterator<Item = Point3<f64>> + 'a>;

/// Why a stoppable fit ended without its volumes: an error of the input,
/// or its [`Stop`] (`?` converts either).
pub(crate) enum Halt {
    Failed(Error),
    Stopped,
}

impl From<Error> for Halt {
    fn from(e: Error) -> Halt {
        Halt::Failed(e)
    }
}

impl From<Stopped> for Halt {
    fn from(_: Stopped) -> Halt {
        Halt::Stopped
    }
}

/// The answer of a fit that can stop, as the `_until` entry points give
/// it: stopped outside, the input's error inside.
pub(crate) fn halted<T>(
    r: std::result::Result<T, Halt>,
) -> std::result::Result<Result<T>, Stopped> {
    match r {
        Ok(t) => Ok(Ok(t)),
        Err(Halt::Failed(e)) => Ok(Err(e)),
        Err(Halt::Stopped) => Err(Stopped),
    }
}

/// [`ConvexHull::new_until`], its error naming `path`.
pub(crate) fn hull_until(
    path: &std::path::Path,
    points: &[Point3<f64>],
    stop: Stop<'_>,
) -> std::result::Result<ConvexHull, Halt> {
    Ok(ConvexHull::new_until(points, stop)?.map_err(|e| Error::geometry(path, e.to_string()))?)
}

/// Fits every requested volume to the point set `set` (which comes from
/// `triangles` triangles) and, given the AABB tree of those triangles (in
/// the same frame), measures each volume's air. Errors name `scene`'s
/// file.
pub fn fit_points(
    scene: &Scene,
    set: &PointSet<'_>,
    triangles: usize,
    frame: Frame,
    tree: Option<&AabbTree>,
    opts: &FitOptions,
) -> Result<Volumes> {
    unstopped(|stop| {
        halted(fit_points_until(
            scene, set, triangles, frame, tree, opts, stop,
        ))
    })
}

/// [`fit_points`], giving up when `stop` is set: checked between the
/// volumes (and airs) and inside the long ones (the hull, the round
/// shapes' searches, the budget hull).
// The arguments of `fit_points` and the stop.
#[allow(clippy::too_many_arguments)]
fn fit_points_until(
    scene: &Scene,
    set: &PointSet<'_>,
    triangles: usize,
    frame: Frame,
    tree: Option<&AabbTree>,
    opts: &FitOptions,
    stop: Stop<'_>,
) -> std::result::Result<Volumes, Halt> {
    let path = &scene.path;
    let points = set.support;
    let hull = hull_until(path, points, stop)?;
    let aabb =
        Aabb::from_points(points).ok_or_else(|| Error::geometry(path, "no vertices to bound"))?;
    let (mean, cov) = set.moments;
    let obbs: Vec<(ObbMethod, Obb, Certificate)> = opts
        .obb_methods
        .iter()
        .map(|&m| {
            let (b, c) = fit::obb_certified_until(points, &hull, || Some(cov), m, stop)?
                .expect("points are not empty");
            Ok((m, b, c))
        })
        .collect::<std::result::Result<_, Stopped>>()?;
    let centroid = || Sphere::about(mean, points).expect("points are not empty");
    let spheres: Vec<(SphereMethod, Sphere)> = opts
        .sphere_methods
        .iter()
        .map(|&m| {
            stop.check()?;
            let s = match m {
                SphereMethod::Centroid => Some(centroid()),
                SphereMethod::Ritter => Sphere::ritter_over(|| (set.walk)(false)),
                SphereMethod::Exact => fit::sphere_with_hull(points, &hull, m),
            };
            Ok((m, s.expect("points are not empty")))
        })
        .collect::<std::result::Result<_, Stopped>>()?;
    stop.check()?;
    let check = opts.check.then(|| {
        let every: Vec<Point3<f64>> = (set.walk)(true).collect();
        crate::check::fit::fit(&every, &aabb, &centroid())
    });
    let air_opts = AirOptions::relative_to((aabb.max - aabb.min).norm());
    // Each air is one query; the stop is checked before each.
    let airs = |s: &[Surface]| -> std::result::Result<Option<Air>, Stopped> {
        stop.check()?;
        Ok(tree.map(|t| air(t, s, &air_opts)))
    };
    let air_of = |s: Surface| airs(&[s]);
    let mut volumes = Volumes {
        triangles,
        vertices: set.count,
        frame,
        aabb: AabbFit {
            corners: AabbJson::from(&aabb),
            volume: aabb.volume(),
            surface_area: aabb.surface_area(),
            air: air_of(Surface::aabb(&aabb))?,
        },
        obb: ObbFit::new(
            obbs[0].0,
            &obbs[0].1,
            &obbs[0].2,
            air_of(Surface::obb(&obbs[0].1))?,
        ),
        sphere: SphereFit::new(
            spheres[0].0,
            &spheres[0].1,
            air_of(Surface::sphere(&spheres[0].1))?,
        ),
        obbs: opts
            .all_methods
            .then(|| {
                obbs.iter()
                    .map(|(m, b, c)| {
                        let a = air_of(Surface::obb(b))?;
                        Ok((m.as_str(), ObbFit::new(*m, b, c, a)))
                    })
                    .collect::<std::result::Result<_, Stopped>>()
            })
            .transpose()?,
        spheres: opts
            .all_methods
            .then(|| {
                spheres
                    .iter()
                    .map(|(m, s)| {
                        let a = air_of(Surface::sphere(s))?;
                        Ok((m.as_str(), SphereFit::new(*m, s, a)))
                    })
                    .collect::<std::result::Result<_, Stopped>>()
            })
            .transpose()?,
        capsule: None,
        cylinder: None,
        kdops: None,
        hull_budget: None,
        best: None,
        hull_volume: hull.volume(),
        hull_vertices: hull.vertices.len(),
        check,
    };
    // Every shape is convex: containing the hull's vertices (all in
    // `support`) it contains the set; a linear function's extremes over
    // the set (a k-DOP's slabs) are reached at its hull's vertices. The
    // fitter takes the set's covariance and the reported OBB as its
    // reference: the round shapes' axes are searched from the PCA frame's
    // and that box's axes ([`fit::round_seeds`]), `kdopK-obb` is in its
    // frame and `hull` starts from it.
    let fitter = ShapeFitter::new(points, &hull)
        .with_covariance(cov)
        .with_reference(obbs[0].1);
    for spec in opts.point_shapes() {
        let shape = fitter
            .fit_until(spec, stop)?
            .map_err(|e| Error::geometry(path, format!("{spec}: {e}")))?;
        let a = airs(&shape.surfaces())?;
        record(&mut volumes, spec, &shape, a);
    }
    if opts.asks(ShapeSpec::Best) {
        volumes.best = Some(Best::of(&volumes));
    }
    Ok(volumes)
}

/// Stores the record of `shape`, fitted for `spec`, with its `air`, in `v`:
/// the one place a fitted shape becomes its JSON record. The AABB, the
/// boxes and the spheres are recorded by [`fit_points`] with their methods
/// and certificates, and the convex parts by [`FileVolumes::new`] (the
/// scene's): [`FitOptions::point_shapes`] never asks for them here.
fn record(v: &mut Volumes, spec: ShapeSpec, shape: &FittedShape, air: Option<Air>) {
    match shape {
        FittedShape::Capsule(c) => v.capsule = Some(CapsuleFit::new(c, air)),
        FittedShape::Cylinder(c) => v.cylinder = Some(CylinderFit::new(c, air)),
        FittedShape::Kdop(k) => {
            let (frame, q) = match spec {
                ShapeSpec::Kdop { oriented: true, .. } => ("obb", v.obb.rotation_xyzw),
                _ => ("mesh", [0.0, 0.0, 0.0, 1.0]),
            };
            let fit = KdopFit::new(frame, q, k, air);
            v.kdops.get_or_insert_with(Vec::new).push(fit);
        }
        FittedShape::Hull(h) => v.hull_budget = Some(BudgetHullFit::new(h, v.hull_volume, air)),
        FittedShape::Aabb(_)
        | FittedShape::Obb(_)
        | FittedShape::Sphere(_)
        | FittedShape::Parts(_) => {}
    }
}

/// Fits every requested volume to the vertices of one mesh instance, in
/// `frame`: its own (local) frame — the same numbers for every instance of
/// one geometry — or the world frame.
pub fn fit_instance(
    scene: &Scene,
    inst: &MeshInstance,
    frame: Frame,
    opts: &FitOptions,
) -> Result<Volumes> {
    unstopped(|stop| halted(fit_instance_until(scene, inst, frame, opts, stop)))
}

/// [`fit_instance`], giving up when `stop` is set.
pub(crate) fn fit_instance_until(
    scene: &Scene,
    inst: &MeshInstance,
    frame: Frame,
    opts: &FitOptions,
    stop: Stop<'_>,
) -> std::result::Result<Volumes, Halt> {
    let mut pts = Vec::new();
    instance_points(inst, opts.all_vertices, frame == Frame::World, &mut pts);
    let moments = covariance::of_points(&pts)
        .ok_or_else(|| Error::geometry(&scene.path, "no vertices to bound"))?;
    let set = PointSet {
        support: &pts,
        count: pts.len(),
        moments,
        walk: &|_| Box::new(pts.iter().copied()),
    };
    // The instance's own triangles in `frame`, for the air.
    let tree = opts
        .air
        .then(|| {
            let g = &inst.geometry;
            let map = |p: &Point3<f64>| {
                if frame == Frame::World {
                    inst.to_world(p)
                } else {
                    *p
                }
            };
            let source = TriangleSource {
                node: inst.node,
                instance: inst.instance,
                mesh: inst.mesh,
                primitive: inst.primitive,
                triangle: 0,
            };
            let mesh = TriMesh {
                vertices: g.positions.iter().map(map).collect(),
                triangles: g.triangles.clone(),
                sources: vec![source; g.triangles.len()],
            };
            AabbTree::build_until(&mesh, stop)
        })
        .transpose()?;
    let n = inst.geometry.triangles.len();
    fit_points_until(scene, &set, n, frame, tree.as_ref(), opts, stop)
}

/// The volumes of each mesh instance with triangles, in `opts.frame`, in
/// scene order, fitted in parallel (the stop checked inside each fit).
/// Instances whose fits have the same input share one: in the local frame
/// those of one geometry, in the world frame those of one geometry placed
/// by bitwise the same world transform (GPU instances stacked at one
/// spot); a fit used once is made straight into its instance's record, so
/// no fit is held twice; the error is the first instance's in scene
/// order.
fn per_mesh_until(
    scene: &Scene,
    opts: &FitOptions,
    stop: Stop<'_>,
) -> std::result::Result<Vec<MeshVolumes>, Halt> {
    use rayon::prelude::*;
    type Key = (*const Geometry, Option<nalgebra::Matrix4<u64>>);
    let key = |inst: &MeshInstance| -> Key {
        let (geometry, placed) = inst.placement_key();
        (geometry, (opts.frame == Frame::World).then_some(placed))
    };
    let instances: Vec<&MeshInstance> = (scene.instances.iter())
        .filter(|i| !i.geometry.triangles.is_empty())
        .collect();
    // Each instance's input, as an index into the distinct ones, and how
    // many instances share each.
    let mut first: HashMap<Key, usize> = HashMap::new();
    let mut distinct: Vec<&MeshInstance> = Vec::new();
    let fit_of: Vec<usize> = (instances.iter())
        .map(|inst| {
            *first.entry(key(inst)).or_insert_with(|| {
                distinct.push(inst);
                distinct.len() - 1
            })
        })
        .collect();
    let mut uses = vec![0usize; distinct.len()];
    fit_of.iter().for_each(|&k| uses[k] += 1);
    let fit = |inst: &MeshInstance| fit_instance_until(scene, inst, opts.frame, opts, stop);
    crate::threads::on_pool(|| {
        let shared: Vec<Option<Volumes>> = (distinct.par_iter().zip(&uses))
            .map(|(inst, &n)| (n > 1).then(|| fit(inst)).transpose())
            .collect::<std::result::Result<_, Halt>>()?;
        let mut made = Vec::new();
        (instances.par_iter().zip(&fit_of))
            .map(|(inst, &k)| {
                let volumes = match &shared[k] {
                    Some(v) => v.clone(),
                    None => fit(inst)?,
                };
                Ok(MeshVolumes {
                    node: inst.node,
                    node_name: inst.node_name.as_deref().map(str::to_owned),
                    instance: inst.instance,
                    mesh: inst.mesh,
                    mesh_name: inst.mesh_name.as_deref().map(str::to_owned),
                    primitive: inst.primitive,
                    volumes,
                })
            })
            .collect_into_vec(&mut made);
        // The first failure in scene order; then the records, collected in
        // place (the same allocation: no second copy of them).
        if let Some(k) = made.iter().position(Result::is_err)
            && let Err(e) = made.swap_remove(k)
        {
            return Err(e);
        }
        Ok((made.into_iter())
            .map(|m| m.unwrap_or_else(|_| unreachable!("no error left")))
            .collect())
    })
}

/// Placed hull vertices the world fit gathers before reducing them to
/// their own hull's vertices.
const SUPPORT_CHUNK: usize = 1 << 20;

/// What the world fit needs of one geometry, computed once however many
/// instances place it: the vertices of the convex hull of its points (the
/// referenced ones, or all with `all_vertices`), their number, mean and
/// scatter matrix Σ(p − mean)(p − mean)ᵀ.
struct Part {
    hull: Vec<Point3<f64>>,
    count: usize,
    mean: Point3<f64>,
    scatter: Matrix3<f64>,
}

impl Part {
    fn new(
        scene: &Scene,
        inst: &MeshInstance,
        all_vertices: bool,
        stop: Stop<'_>,
    ) -> std::result::Result<Option<Part>, Halt> {
        let mut pts = Vec::new();
        instance_points(inst, all_vertices, false, &mut pts);
        let Some((mean, cov)) = covariance::of_points(&pts) else {
            return Ok(None);
        };
        let hull = hull_until(&scene.path, &pts, stop)?;
        Ok(Some(Part {
            hull: hull.vertices,
            count: pts.len(),
            mean,
            scatter: cov * pts.len() as f64,
        }))
    }
}

/// The volumes of the whole scene in world space, with work proportional to
/// its unique geometry: an affine map takes the convex hull of a point set
/// to the hull of its image, so each geometry's hull is computed once in
/// its own frame and only its vertices are placed per instance; the mean
/// and covariance of all points are combined from each geometry's moments
/// (an instance with linear part A and translation t has mean A·m + t and
/// scatter A·S·Aᵀ; parts combine by the parallel-axis rule). Instances that
/// repeat a (geometry, transform) pair add no support points. Only Ritter's
/// sphere (over distinct instances) and `--check` (over all) walk placed
/// points, one at a time.
///
/// Gives up when `stop` is set: checked in each geometry's hull, every
/// [`STOP_EVERY`] instances placed and in each reduction.
fn fit_world(
    scene: &Scene,
    tree: Option<&AabbTree>,
    opts: &FitOptions,
    stop: Stop<'_>,
) -> std::result::Result<Volumes, Halt> {
    let mut parts: HashMap<*const Geometry, Option<Part>> = HashMap::new();
    for inst in &scene.instances {
        if let std::collections::hash_map::Entry::Vacant(e) =
            parts.entry(Arc::as_ptr(&inst.geometry))
        {
            e.insert(Part::new(scene, inst, opts.all_vertices, stop)?);
        }
    }
    let placed: Vec<(&MeshInstance, &Part)> = scene
        .instances
        .iter()
        .filter_map(|i| Some((i, parts[&Arc::as_ptr(&i.geometry)].as_ref()?)))
        .collect();
    // The placed hull vertices, reduced to the vertices of their own hull
    // whenever they pile up (the hull of a union is the hull of the parts'
    // hulls), so memory follows the answer rather than the instance count.
    let mut support: Vec<Point3<f64>> = Vec::new();
    let mut reduce_at = SUPPORT_CHUNK;
    for (k, i) in scene.distinct_instances().enumerate() {
        if k.is_multiple_of(STOP_EVERY) {
            stop.check()?;
        }
        let Some(p) = &parts[&Arc::as_ptr(&i.geometry)] else {
            continue;
        };
        support.extend(p.hull.iter().map(|v| i.to_world(v)));
        if support.len() > reduce_at {
            support = hull_until(&scene.path, &support, stop)?.vertices;
            reduce_at = reduce_at.max(2 * support.len());
        }
    }
    let count: usize = placed.iter().map(|(_, p)| p.count).sum();
    if count == 0 {
        return Err(Error::geometry(&scene.path, "no vertices to bound").into());
    }
    let means: Vec<Point3<f64>> = placed.iter().map(|(i, p)| i.to_world(&p.mean)).collect();
    // About the first instance's mean, to limit cancellation.
    let origin = means[0];
    let offset = placed
        .iter()
        .zip(&means)
        .map(|((_, p), m)| (m - origin) * p.count as f64)
        .sum::<nalgebra::Vector3<f64>>()
        / count as f64;
    let mean = origin + offset;
    let scatter: Matrix3<f64> = placed
        .iter()
        .zip(&means)
        .map(|((i, p), m)| {
            let a = i.transform.fixed_view::<3, 3>(0, 0);
            let d = m - mean;
            a * p.scatter * a.transpose() + d * d.transpose() * p.count as f64
        })
        .sum();
    let walk = |every: bool| -> Box<dyn Iterator<Item = Point3<f64>> + '_> {
        if every {
            Box::new(scene.world_points_iter(opts.all_vertices))
        } else {
            Box::new(placed_points(scene.distinct_instances(), opts.all_vertices))
        }
    };
    let set = PointSet {
        support: &support,
        count,
        moments: (mean, scatter / count as f64),
        walk: &walk,
    };
    fit_points_until(
        scene,
        &set,
        scene.triangle_count(),
        Frame::World,
        tree,
        opts,
        stop,
    )
}

/// Instances the world fit places between checks of its [`Stop`] (each
/// places its geometry's hull vertices: microseconds).
const STOP_EVERY: usize = 256;

impl FileVolumes {
    /// Fits the scene (world frame) and, if asked, each instance.
    ///
    /// # Guarantees
    /// Every volume contains every vertex the triangles use (every vertex with
    /// `all_vertices`), in the world frame; the numbers are those `bvtool fit
    /// --json` prints.
    ///
    /// ```
    /// use bvtool::fit::{ObbMethod, ShapeSpec, SphereMethod};
    /// use bvtool::load::load;
    /// use bvtool::volumes::{FileVolumes, FitOptions};
    ///
    /// let scene = load("models/torus.obj".as_ref(), &Default::default())?;
    /// let opts = FitOptions {
    ///     shapes: vec![ShapeSpec::Capsule],
    ///     ..FitOptions::of(ObbMethod::Tight, SphereMethod::Exact)
    /// };
    /// let v = FileVolumes::new("torus.obj", &scene, &opts)?;
    /// assert!((v.volumes.sphere.radius - 1.35).abs() < 1e-5); // the ring of outer vertices
    /// assert!(v.volumes.capsule.unwrap().volume >= v.volumes.hull_volume);
    /// # Ok::<(), bvtool::Error>(())
    /// ```
    pub fn new(file: &str, scene: &Scene, opts: &FitOptions) -> Result<FileVolumes> {
        unstopped(|stop| FileVolumes::new_until(file, scene, opts, stop))
    }

    /// [`FileVolumes::new`], giving up with [`Stopped`] (and no volumes)
    /// when `stop` is set: checked between the stages (each geometry's
    /// hull, the instances, each volume, each air, each mesh of
    /// `per_mesh`) and inside the long ones — quickhull every 1,024 faces,
    /// the capsule's and cylinder's axis searches per axis tried, the
    /// budget hull per plane, the box searches per batch of face
    /// directions and per hull edge ([`fit::obb_certified_until`]), the
    /// air's tree build per subtree. Not inside V-HACD (`decompose`:
    /// parry3d takes no flag), an air query, nor the exact sphere's
    /// search, which run to their ends.
    /// The inner result is the input's error, as [`FileVolumes::new`]'s.
    ///
    /// ```
    /// use bvtool::fit::{ObbMethod, SphereMethod};
    /// use bvtool::load::load;
    /// use bvtool::threads::{Stop, Stopped};
    /// use bvtool::volumes::{FileVolumes, FitOptions};
    /// use std::sync::atomic::AtomicBool;
    ///
    /// let scene = load("models/torus.obj".as_ref(), &Default::default())?;
    /// let opts = FitOptions::of(ObbMethod::Tight, SphereMethod::Exact);
    /// let set = AtomicBool::new(true);
    /// assert!(matches!(FileVolumes::new_until("torus.obj", &scene, &opts, Stop::on(&set)), Err(Stopped)));
    /// let v = FileVolumes::new_until("torus.obj", &scene, &opts, Stop::NEVER).unwrap()?;
    /// assert!((v.volumes.sphere.radius - 1.35).abs() < 1e-5);
    /// # Ok::<(), bvtool::Error>(())
    /// ```
    pub fn new_until(
        file: &str,
        scene: &Scene,
        opts: &FitOptions,
        stop: Stop<'_>,
    ) -> std::result::Result<Result<FileVolumes>, Stopped> {
        halted(FileVolumes::fit(file, scene, opts, stop))
    }

    /// [`FileVolumes::new_until`], its two ways to end as one.
    fn fit(
        file: &str,
        scene: &Scene,
        opts: &FitOptions,
        stop: Stop<'_>,
    ) -> std::result::Result<FileVolumes, Halt> {
        stop.check()?;
        // The world mesh, flattened once if the air or the decomposition
        // needs it.
        let decompose = opts.asks(ShapeSpec::Decompose);
        let mesh = (scene.triangle_count() > 0 && (opts.air || decompose)).then(|| scene.flatten());
        let tree = mesh
            .as_ref()
            .filter(|_| opts.air)
            .map(|m| AabbTree::build_until(m, stop))
            .transpose()?;
        // A point cloud (no triangles) is bounded by all its points; a mesh
        // by its distinct geometries' hull vertices, placed ([`fit_world`]).
        let volumes = if scene.triangle_count() == 0 {
            let points = scene.world_points(true);
            let moments = covariance::of_points(&points)
                .ok_or_else(|| Error::geometry(&scene.path, "no triangles or points to bound"))?;
            let set = PointSet {
                support: &points,
                count: points.len(),
                moments,
                walk: &|_| Box::new(points.iter().copied()),
            };
            fit_points_until(scene, &set, 0, Frame::World, None, opts, stop)?
        } else {
            fit_world(scene, tree.as_ref(), opts, stop)?
        };
        let meshes = if opts.per_mesh {
            Some(per_mesh_until(scene, opts, stop)?)
        } else {
            None
        };
        let decomposition = match (decompose, &mesh) {
            (true, Some(mesh)) => {
                let d = &opts.decompose_options;
                // V-HACD takes no flag: checked before and after it.
                stop.check()?;
                let parts = fit::decompose(&mesh.vertices, &mesh.triangles, d)
                    .map_err(|e| Error::geometry(&scene.path, format!("decomposition: {e}")))?;
                stop.check()?;
                let air = tree.as_ref().map(|t| {
                    let surfaces: Vec<Surface> = parts
                        .parts
                        .iter()
                        .map(|p| Surface::polytope(&p.vertices, &p.faces))
                        .collect();
                    air(t, &surfaces, &AirOptions::relative_to(diagonal(mesh)))
                });
                Some(DecompositionFit::new(&parts, air))
            }
            _ => None,
        };
        stop.check()?;
        Ok(FileVolumes {
            file: file.to_string(),
            volumes,
            meshes,
            decomposition,
        })
    }

    /// Whether every parry3d cross-check agreed (true without `--check`).
    pub fn checks_agree(&self) -> bool {
        std::iter::once(&self.volumes)
            .chain(self.meshes.iter().flatten().map(|m| &m.volumes))
            .flat_map(|v| v.check.iter().flatten())
            .all(|a| a.agrees)
    }
}
