//! The export document: what every export format holds.

use super::collider::{self, ColliderDoc};
pub use super::volume_records::{AabbDoc, ObbDoc, SphereDoc};
use crate::error::{Error, Result};
use crate::fit::ShapeSpec;
use crate::mesh::Scene;
use crate::threads::{Stop, Stopped, unstopped};
use crate::tree::{NodeFit, ObbTree, default_leaf_size};
use crate::volumes::{FileVolumes, FitOptions};
use serde::{Deserialize, Serialize};

/// Version of the export document (JSON; the binary form has its own,
/// [`super::bin::VERSION`]).
pub const VERSION: u32 = 1;

/// The default vertex and face budget of hull colliders: PhysX's and
/// Unity's limit for a convex mesh collider.
pub const DEFAULT_HULL_MAX: usize = 255;

/// What to export.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// The fit (only the first OBB and sphere method is exported; `per_mesh`
    /// adds one volume set per mesh instance, `frame` says in which frame).
    pub fit: FitOptions,
    /// Also export the OBB tree and the triangles it covers.
    pub tree: bool,
    /// Collider shapes: one collider per mesh instance per shape
    /// ([`super::collider`]); none when empty.
    pub shapes: Vec<ShapeSpec>,
    /// Also a collider of each shape for the whole scene (world frame).
    pub whole: bool,
    /// The vertex and face budget of `hull` colliders.
    pub hull_max: usize,
}

impl ExportOptions {
    /// The volumes of `fit` (and the tree with `tree`), no colliders.
    pub fn volumes(fit: FitOptions, tree: bool) -> ExportOptions {
        ExportOptions {
            fit,
            tree,
            shapes: Vec::new(),
            whole: false,
            hull_max: DEFAULT_HULL_MAX,
        }
    }
}

/// The volumes of one point set (the file, or one mesh instance), with the
/// same field names and numbers as `bvtool fit --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VolumeSet {
    /// `world` or `local` (the mesh instance's own frame).
    pub frame: String,
    /// Triangles bounded.
    pub triangles: u64,
    /// Vertices bounded.
    pub vertices: u64,
    /// The AABB.
    pub aabb: AabbDoc,
    /// The OBB.
    pub obb: ObbDoc,
    /// The sphere.
    pub sphere: SphereDoc,
}

/// One mesh instance's volumes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeshDoc {
    /// glTF node index (`null` for OBJ/STL).
    pub node: Option<u32>,
    /// The node's name, if the file gives one.
    #[serde(default)]
    pub node_name: Option<String>,
    /// GPU instance (EXT_mesh_gpu_instancing), 0 otherwise.
    pub instance: u32,
    /// Mesh index (glTF mesh, OBJ object, STL solid).
    pub mesh: u32,
    /// The mesh's (object's, solid's) name, if the file gives one.
    #[serde(default)]
    pub mesh_name: Option<String>,
    /// Primitive within the mesh.
    pub primitive: u32,
    /// The volumes.
    #[serde(flatten)]
    pub volumes: VolumeSet,
}

/// One node of the exported OBB tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeNodeDoc {
    /// The node's box (world frame).
    #[serde(flatten)]
    pub obb: ObbDoc,
    /// `[first, second]` child node indices; `null` for a leaf. The first
    /// child is always the next node (depth-first order).
    pub children: Option<[u32; 2]>,
    /// First triangle (index into `triangles`) the node covers.
    pub first_triangle: u32,
    /// Number of triangles the node covers (contiguous).
    pub triangle_count: u32,
}

/// Where a tree triangle comes from in the input file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceDoc {
    /// glTF node (`null` for OBJ/STL).
    pub node: Option<u32>,
    /// GPU instance.
    pub instance: u32,
    /// Mesh.
    pub mesh: u32,
    /// Primitive.
    pub primitive: u32,
    /// Triangle index within the primitive.
    pub triangle: u32,
}

/// The OBB tree and the triangles it refers to, world frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeDoc {
    /// Most triangles per leaf.
    pub leaf_size: u32,
    /// Nodes, root first, depth-first.
    pub nodes: Vec<TreeNodeDoc>,
    /// Vertex positions (the flattened scene's, world frame).
    pub vertices: Vec<[f64; 3]>,
    /// Triangles as vertex index triples, in tree order.
    pub triangles: Vec<[u32; 3]>,
    /// Each triangle's source, parallel to `triangles`.
    pub sources: Vec<SourceDoc>,
}

/// Everything exported for one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportDoc {
    /// Always `"bvtool-export"`.
    pub format: String,
    /// `VERSION`.
    pub version: u32,
    /// The input file as given.
    pub file: String,
    /// Always `"model units, as in the file"`: nothing is rescaled.
    pub units: String,
    /// Always `"world"`: node transforms applied (per-mesh volume sets state
    /// their own frame).
    pub frame: String,
    /// The whole scene's volumes (world frame).
    pub volumes: VolumeSet,
    /// Per mesh instance (empty unless asked for).
    pub meshes: Vec<MeshDoc>,
    /// The OBB tree (only when asked for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<TreeDoc>,
    /// Colliders for engines (only when shapes are asked for).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub colliders: Vec<ColliderDoc>,
}

/// The part of `bvtool fit --json`'s file object the export reads.
#[derive(Deserialize)]
struct FitFile {
    #[serde(flatten)]
    volumes: VolumeSet,
    #[serde(default)]
    meshes: Option<Vec<MeshDoc>>,
}

impl ExportDoc {
    /// Fits `scene` exactly as `bvtool fit` does ([`FileVolumes::new`]) and,
    /// with `opts.tree`, builds the OBB tree of the flattened scene
    /// ([`ObbTree::build`]). `file` is the path as the user gave it.
    /// With `opts.shapes`, also the colliders ([`collider::colliders`]).
    ///
    /// # Guarantees
    /// Every collider contains every vertex of what it bounds, in `f64` and once
    /// rounded to `f32` by the binary, C and glTF writers.
    ///
    /// ```
    /// use bvtool::export::{ExportDoc, ExportOptions};
    /// use bvtool::fit::{ObbMethod, ShapeSpec, SphereMethod};
    /// use bvtool::load::load;
    /// use bvtool::volumes::FitOptions;
    ///
    /// let scene = load("models/chain.gltf".as_ref(), &Default::default())?;
    /// let opts = ExportOptions {
    ///     shapes: ShapeSpec::parse_list("capsule, hull:32").unwrap(),
    ///     ..ExportOptions::volumes(FitOptions::of(ObbMethod::Tight, SphereMethod::Exact), false)
    /// };
    /// let doc = ExportDoc::new("chain.gltf", &scene, &opts)?;
    /// assert_eq!(doc.colliders.len(), 4); // two shapes for each of the two rings
    /// # Ok::<(), bvtool::Error>(())
    /// ```
    pub fn new(file: &str, scene: &Scene, opts: &ExportOptions) -> Result<ExportDoc> {
        unstopped(|stop| ExportDoc::new_until(file, scene, opts, stop))
    }

    /// [`ExportDoc::new`], giving up with [`Stopped`] when `stop` is set:
    /// inside the fit as [`FileVolumes::new_until`] stops, before each mesh
    /// instance's (or bone's) colliders and inside their fits, and inside
    /// the tree's build.
    pub fn new_until(
        file: &str,
        scene: &Scene,
        opts: &ExportOptions,
        stop: Stop<'_>,
    ) -> std::result::Result<Result<ExportDoc>, Stopped> {
        let (mut base, mut hull_max) = (opts.fit.clone(), opts.hull_max);
        let shapes = match collider::export_shapes(&opts.shapes, &mut base, &mut hull_max) {
            Ok(s) => s,
            Err(e) => return Ok(Err(Error::Input(e.to_string()))),
        };
        let opts = &ExportOptions {
            fit: base,
            shapes,
            hull_max,
            ..opts.clone()
        };
        let shape_fit = collider::fit_options(&opts.fit, &opts.shapes, opts.hull_max);
        let whole = opts.whole && !opts.shapes.is_empty();
        let fit_opts = if whole {
            FitOptions {
                per_mesh: opts.fit.per_mesh,
                // The colliders decompose the scene themselves.
                shapes: (shape_fit.shapes.iter().copied())
                    .filter(|s| *s != ShapeSpec::Decompose)
                    .collect(),
                ..shape_fit.clone()
            }
        } else {
            opts.fit.clone()
        };
        let fitted = match FileVolumes::new_until(file, scene, &fit_opts, stop)? {
            Ok(f) => f,
            Err(e) => return Ok(Err(e)),
        };
        let colliders = collider::colliders(
            scene,
            &opts.shapes,
            &shape_fit,
            whole.then_some(&fitted.volumes),
            stop,
        );
        stop.check()?;
        let colliders = match colliders {
            Ok(c) => c,
            Err(e) => return Ok(Err(e)),
        };
        // The fit report is the single source of the numbers; reading it back
        // through its JSON form keeps the export's field names and values
        // identical to `bvtool fit --json` (serde_json round-trips f64 exactly).
        let fit: FitFile = match serde_json::to_value(&fitted).and_then(serde_json::from_value) {
            Ok(f) => f,
            Err(e) => {
                return Ok(Err(Error::geometry(
                    &scene.path,
                    format!("fit report: {e}"),
                )));
            }
        };
        let tree = match opts.tree {
            true => Some(tree_doc(scene, stop)?),
            false => None,
        };
        Ok(Ok(ExportDoc {
            format: "bvtool-export".into(),
            version: VERSION,
            file: file.into(),
            units: "model units, as in the file".into(),
            frame: "world".into(),
            volumes: fit.volumes,
            meshes: fit.meshes.unwrap_or_default(),
            tree,
            colliders,
        }))
    }

    /// Every volume set: the file's first, then each mesh instance's.
    pub fn volume_sets(&self) -> impl Iterator<Item = &VolumeSet> {
        std::iter::once(&self.volumes).chain(self.meshes.iter().map(|m| &m.volumes))
    }
}

fn tree_doc(scene: &Scene, stop: Stop<'_>) -> std::result::Result<TreeDoc, Stopped> {
    let mesh = scene.flatten();
    // Runtime data, built once and queried often: the flush boxes.
    let leaf_size = default_leaf_size(mesh.triangles.len());
    let tree = ObbTree::build_with_until(&mesh, leaf_size, NodeFit::Flush, stop)?;
    let nodes = tree
        .nodes
        .iter()
        .zip(tree.ranges())
        .enumerate()
        .map(|(i, (n, range))| TreeNodeDoc {
            obb: ObbDoc::from_node_box(&tree.node_box(n)),
            children: (!n.is_leaf()).then_some([i as u32 + 1, n.right()]),
            first_triangle: range.start,
            triangle_count: range.end - range.start,
        })
        .collect();
    let triangles = tree
        .original
        .iter()
        .map(|&k| mesh.triangles[k as usize])
        .collect();
    let sources = tree
        .original
        .iter()
        .map(|&k| {
            let s = &mesh.sources[k as usize];
            SourceDoc {
                node: s.node,
                instance: s.instance,
                mesh: s.mesh,
                primitive: s.primitive,
                triangle: s.triangle,
            }
        })
        .collect();
    Ok(TreeDoc {
        leaf_size: tree.leaf_size as u32,
        nodes,
        vertices: mesh.vertices.iter().map(|p| (*p).into()).collect(),
        triangles,
        sources,
    })
}
