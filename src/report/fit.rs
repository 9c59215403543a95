//! `bvtool fit`: the bounding volumes of a file and of each mesh instance.

use super::info::AabbJson;
use super::table::{Scaled, Table, num};
use super::xyz;
use crate::check::fit::Agreement;
use crate::error::{Error, Result};
use crate::fit::{self, Aabb, ConvexHull, Obb, ObbMethod, Sphere, SphereMethod};
use crate::mesh::{Scene, instance_points};
use serde::Serialize;
use std::collections::BTreeMap;

/// The frame volumes are expressed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
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
}

/// An AABB with its measures.
#[derive(Debug, Serialize)]
pub struct AabbFit {
    #[serde(flatten)]
    corners: AabbJson,
    /// Volume (model units³).
    pub volume: f64,
    /// Surface area (model units²).
    pub surface_area: f64,
}

/// An OBB as JSON.
#[derive(Debug, Serialize)]
pub struct ObbFit {
    /// The method that fitted it.
    pub method: ObbMethod,
    /// Centre.
    pub center: [f64; 3],
    /// The three unit axes (each `[x, y, z]`), right-handed.
    pub axes: [[f64; 3]; 3],
    /// Half extents along the axes.
    pub half_extents: [f64; 3],
    /// The rotation whose columns are the axes, as a quaternion (x, y, z, w).
    pub rotation_xyzw: [f64; 4],
    /// Volume.
    pub volume: f64,
    /// Surface area.
    pub surface_area: f64,
}

impl ObbFit {
    fn new(method: ObbMethod, b: &Obb) -> ObbFit {
        ObbFit {
            method,
            center: xyz(&b.center),
            axes: std::array::from_fn(|i| b.axis(i).into()),
            half_extents: b.half_extents.into(),
            rotation_xyzw: b.rotation_xyzw(),
            volume: b.volume(),
            surface_area: b.surface_area(),
        }
    }
}

/// A sphere as JSON.
#[derive(Debug, Serialize)]
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
}

impl SphereFit {
    fn new(method: SphereMethod, s: &Sphere) -> SphereFit {
        SphereFit {
            method,
            center: xyz(&s.center),
            radius: s.radius,
            volume: s.volume(),
            surface_area: s.surface_area(),
        }
    }
}

/// The volumes fitted to one point set.
#[derive(Debug, Serialize)]
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
}

/// Fits every requested volume to `points` (which come from `triangles`
/// triangles). Errors name `scene`'s file.
pub fn fit_points(
    scene: &Scene,
    points: &[nalgebra::Point3<f64>],
    triangles: usize,
    frame: Frame,
    opts: &FitOptions,
) -> Result<Volumes> {
    let path = &scene.path;
    let hull = ConvexHull::new(points).map_err(|e| Error::geometry(path, e.to_string()))?;
    let aabb =
        Aabb::from_points(points).ok_or_else(|| Error::geometry(path, "no vertices to bound"))?;
    let obbs: Vec<(ObbMethod, Obb)> = opts
        .obb_methods
        .iter()
        .map(|&m| (m, fit::obb(points, &hull, m).expect("points are not empty")))
        .collect();
    let spheres: Vec<(SphereMethod, Sphere)> = opts
        .sphere_methods
        .iter()
        .map(|&m| {
            let s = fit::sphere_with_hull(points, &hull, m);
            (m, s.expect("points are not empty"))
        })
        .collect();
    let check = opts.check.then(|| {
        let centroid = spheres
            .iter()
            .find(|(m, _)| *m == SphereMethod::Centroid)
            .map(|(_, s)| *s)
            .or_else(|| Sphere::centroid(points))
            .expect("points are not empty");
        crate::check::fit::fit(points, &aabb, &centroid)
    });
    Ok(Volumes {
        triangles,
        vertices: points.len(),
        frame,
        aabb: AabbFit {
            corners: AabbJson::from(&aabb),
            volume: aabb.volume(),
            surface_area: aabb.surface_area(),
        },
        obb: ObbFit::new(obbs[0].0, &obbs[0].1),
        sphere: SphereFit::new(spheres[0].0, &spheres[0].1),
        obbs: opts.all_methods.then(|| {
            obbs.iter()
                .map(|(m, b)| (m.as_str(), ObbFit::new(*m, b)))
                .collect()
        }),
        spheres: opts.all_methods.then(|| {
            spheres
                .iter()
                .map(|(m, s)| (m.as_str(), SphereFit::new(*m, s)))
                .collect()
        }),
        hull_volume: hull.volume(),
        hull_vertices: hull.vertices.len(),
        check,
    })
}

impl FileVolumes {
    /// Fits the scene (world frame) and, if asked, each instance.
    pub fn new(file: &str, scene: &Scene, opts: &FitOptions) -> Result<FileVolumes> {
        // A point cloud (no triangles) is bounded by all its points.
        let cloud = scene.triangle_count() == 0;
        let points = scene.world_points(opts.all_vertices || cloud);
        if points.is_empty() {
            return Err(Error::geometry(
                &scene.path,
                "no triangles or points to bound",
            ));
        }
        let volumes = fit_points(scene, &points, scene.triangle_count(), Frame::World, opts)?;
        let meshes = if opts.per_mesh {
            let mut out = Vec::new();
            for inst in scene
                .instances
                .iter()
                .filter(|i| !i.geometry.triangles.is_empty())
            {
                let mut pts = Vec::new();
                instance_points(
                    inst,
                    opts.all_vertices,
                    opts.frame == Frame::World,
                    &mut pts,
                );
                out.push(MeshVolumes {
                    node: inst.node,
                    node_name: inst.node_name.clone(),
                    instance: inst.instance,
                    mesh: inst.mesh,
                    mesh_name: inst.mesh_name.clone(),
                    primitive: inst.primitive,
                    volumes: fit_points(
                        scene,
                        &pts,
                        inst.geometry.triangles.len(),
                        opts.frame,
                        opts,
                    )?,
                });
            }
            Some(out)
        } else {
            None
        };
        Ok(FileVolumes {
            file: file.to_string(),
            volumes,
            meshes,
        })
    }

    /// Whether every parry3d cross-check agreed (true without `--check`).
    pub fn checks_agree(&self) -> bool {
        std::iter::once(&self.volumes)
            .chain(self.meshes.iter().flatten().map(|m| &m.volumes))
            .flat_map(|v| v.check.iter().flatten())
            .all(|a| a.agrees)
    }

    /// The human-readable form: a table per file (and per mesh).
    pub fn to_text(&self) -> String {
        let mut out = match self.volumes.triangles {
            0 => format!(
                "{}  (point cloud: {} points, world frame)\n",
                self.file, self.volumes.vertices
            ),
            n => format!(
                "{}  ({n} triangles, {} vertices, world frame)\n",
                self.file, self.volumes.vertices
            ),
        };
        out += &self.volumes.to_table();
        for m in self.meshes.iter().flatten() {
            let name = |id: Option<u32>, n: &Option<String>| match (id, n) {
                (Some(i), Some(n)) => format!("{i} '{n}'"),
                (Some(i), None) => i.to_string(),
                (None, Some(n)) => format!("'{n}'"),
                (None, None) => "-".into(),
            };
            out += &format!(
                "\n  node {}  mesh {}  primitive {}{}  ({} triangles, {} frame)\n",
                name(m.node, &m.node_name),
                name(Some(m.mesh), &m.mesh_name),
                m.primitive,
                if m.instance > 0 {
                    format!("  instance {}", m.instance)
                } else {
                    String::new()
                },
                m.volumes.triangles,
                m.volumes.frame.name()
            );
            out += &m.volumes.to_table();
        }
        out
    }
}

impl Volumes {
    fn to_table(&self) -> String {
        let ratio = |v: f64| {
            if self.hull_volume > 0.0 {
                format!("{:.3}x", v / self.hull_volume)
            } else {
                "-".into()
            }
        };
        let (min, max) = (&self.aabb.corners.min, &self.aabb.corners.max);
        let diagonal = (0..3)
            .map(|i| (max[i] - min[i]).powi(2))
            .sum::<f64>()
            .sqrt();
        // Lengths to 6 significant digits of the model's size; unit
        // quaternions to 4 decimals.
        let len = Scaled::new(diagonal, 6);
        let unit = Scaled::new(1.0, 5);
        let mut t = Table::new(&[
            "volume",
            "method",
            "volume",
            "/ hull",
            "centre",
            "half extents / radius",
            "rotation (x, y, z, w)",
        ]);
        t.row(vec![
            "AABB".into(),
            "min/max".into(),
            num(self.aabb.volume, 5),
            ratio(self.aabb.volume),
            len.tuple(&std::array::from_fn::<f64, 3, _>(|i| {
                0.5 * (min[i] + max[i])
            })),
            len.tuple(&std::array::from_fn::<f64, 3, _>(|i| {
                0.5 * (max[i] - min[i])
            })),
            "axis-aligned".into(),
        ]);
        let obbs: Vec<&ObbFit> = match &self.obbs {
            Some(all) => all.values().collect(),
            None => vec![&self.obb],
        };
        for b in obbs {
            t.row(vec![
                "OBB".into(),
                b.method.to_string(),
                num(b.volume, 5),
                ratio(b.volume),
                len.tuple(&b.center),
                len.tuple(&b.half_extents),
                unit.tuple(&b.rotation_xyzw),
            ]);
        }
        let spheres: Vec<&SphereFit> = match &self.spheres {
            Some(all) => all.values().collect(),
            None => vec![&self.sphere],
        };
        for s in spheres {
            t.row(vec![
                "sphere".into(),
                s.method.to_string(),
                num(s.volume, 5),
                ratio(s.volume),
                len.tuple(&s.center),
                format!("radius {}", len.num(s.radius)),
                String::new(),
            ]);
        }
        t.row(vec![
            "hull".into(),
            format!("{} vertices", self.hull_vertices),
            num(self.hull_volume, 5),
            ratio(self.hull_volume),
            String::new(),
            String::new(),
            String::new(),
        ]);
        let mut s = t.render(2);
        for a in self.check.iter().flatten() {
            s += &format!(
                "  check: {} — {} (difference {:.3e}, tolerance {:.3e})\n",
                a.what,
                if a.agrees { "agrees" } else { "DISAGREES" },
                a.max_difference,
                a.tolerance
            );
        }
        s
    }
}
