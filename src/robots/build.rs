//! From a URDF document to a [`Robot`]: the kinematic tree checked (one
//! root, every link reached once, no cycle), mimic joints resolved, the
//! geometry read into one tree per distinct (file, scale) or primitive,
//! and the link pairs to test listed.

use super::adjacency::Adjacency;
use super::geometry::{self, Packages};
use super::urdf::{self, GeometryDoc, JointKind, MAX_DOCUMENT_BYTES};
use super::{Joint, Link, Mimic, Robot, Shape};
use crate::error::{Error, Result};
use crate::fit::sphere::Sphere;
use crate::load::LoadOptions;
use crate::mesh::TriMesh;
use crate::query::point::solid::TreeSolid;
use crate::threads::Stop;
use crate::tree::ObbTree;
use nalgebra::{Point3, Unit};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Which elements of a link are its geometry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GeometryKind {
    /// `<collision>` (the default).
    #[default]
    Collision,
    /// `<visual>`.
    Visual,
}

/// How to read a robot.
#[derive(Clone, Debug, Default)]
pub struct RobotOptions {
    /// Which elements are the links' geometry.
    pub geometry: GeometryKind,
    /// `package://NAME` folders given (`--package NAME=DIR`); others are
    /// looked for up the tree from the URDF (a `package.xml` naming them).
    pub packages: Vec<(String, PathBuf)>,
    /// An SRDF whose `disable_collisions` pairs are left out.
    pub srdf: Option<PathBuf>,
    /// The loader's limits for the mesh files.
    pub load: LoadOptions,
}

/// The most triangles a robot's distinct geometries may hold in all.
const MAX_ROBOT_TRIANGLES: usize = 1 << 27;

/// A text file of at most [`MAX_DOCUMENT_BYTES`].
fn read_document(path: &Path) -> Result<String> {
    let bytes = crate::files::read_regular(path, Some(MAX_DOCUMENT_BYTES + 1))
        .map_err(|e| Error::load(path, e))?;
    if bytes.len() as u64 > MAX_DOCUMENT_BYTES {
        return Err(Error::load(
            path,
            format!("larger than {MAX_DOCUMENT_BYTES} bytes (not read)"),
        ));
    }
    String::from_utf8(bytes).map_err(|_| Error::load(path, "not UTF-8 text"))
}

/// The robot of the URDF at `path`, given up when `stop` is set: checked
/// before each link's shapes and inside each tree's build. A stopped build
/// returns early with an error no one sees: [`Robot::from_urdf_until`]
/// answers [`crate::threads::Stopped`] whenever the flag is set.
pub(super) fn build(path: &Path, opts: &RobotOptions, stop: Stop<'_>) -> Result<Robot> {
    let doc = urdf::parse(&read_document(path)?).map_err(|e| Error::load(path, e))?;
    let fail = |m: String| Error::load(path, m);
    if doc.links.is_empty() {
        return Err(fail("no <link>".into()));
    }
    let mut link_of: HashMap<&str, usize> = HashMap::new();
    for (i, l) in doc.links.iter().enumerate() {
        if link_of.insert(&l.name, i).is_some() {
            return Err(fail(format!("two links are named '{}'", l.name)));
        }
    }
    let find = |name: &str, what: &str| {
        link_of.get(name).copied().ok_or_else(|| {
            fail(format!(
                "{what} names the link '{name}', which does not exist"
            ))
        })
    };
    // Actuated joints in document order.
    let mut dof = 0;
    let mut joint_of: HashMap<&str, usize> = HashMap::new();
    let mut joints = Vec::with_capacity(doc.joints.len());
    let mut parent_joint: Vec<Option<usize>> = vec![None; doc.links.len()];
    for (i, j) in doc.joints.iter().enumerate() {
        if joint_of.insert(&j.name, i).is_some() {
            return Err(fail(format!("two joints are named '{}'", j.name)));
        }
        let what = format!("joint '{}'", j.name);
        let (parent, child) = (find(&j.parent, &what)?, find(&j.child, &what)?);
        if let Some(other) = parent_joint[child] {
            return Err(fail(format!(
                "link '{}' is the child of two joints ('{}' and '{}')",
                j.child, doc.joints[other].name, j.name
            )));
        }
        parent_joint[child] = Some(i);
        let actuated = j.kind != JointKind::Fixed && j.mimic.is_none();
        joints.push(Joint {
            name: j.name.clone(),
            kind: j.kind,
            parent,
            child,
            origin: j.origin,
            axis: Unit::new_unchecked(j.axis),
            limits: j.limits,
            dof: actuated.then(|| {
                dof += 1;
                dof - 1
            }),
            mimic: None,
        });
    }
    for (i, j) in doc.joints.iter().enumerate() {
        let Some(m) = &j.mimic else { continue };
        if j.kind == JointKind::Fixed {
            continue;
        }
        let target = joint_of
            .get(m.joint.as_str())
            .map(|&t| &joints[t])
            .ok_or_else(|| {
                fail(format!(
                    "joint '{}' mimics '{}', which does not exist",
                    j.name, m.joint
                ))
            })?;
        let dof = target.dof.ok_or_else(|| {
            fail(format!(
                "joint '{}' mimics '{}', which is not an actuated joint (fixed, or itself a mimic)",
                j.name, m.joint
            ))
        })?;
        joints[i].mimic = Some(Mimic {
            dof,
            multiplier: m.multiplier,
            offset: m.offset,
        });
    }
    // One root; every other link reached once from it.
    let roots: Vec<usize> = (0..doc.links.len())
        .filter(|&l| parent_joint[l].is_none())
        .collect();
    let root = match roots[..] {
        [r] => r,
        [] => {
            return Err(fail(
                "every link is a child: the joints form a cycle".into(),
            ));
        }
        _ => {
            return Err(fail(format!(
                "{} links have no parent ('{}', '{}', …): a robot has one root",
                roots.len(),
                doc.links[roots[0]].name,
                doc.links[roots[1]].name
            )));
        }
    };
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); doc.links.len()];
    for (i, j) in joints.iter().enumerate() {
        children[j.parent].push(i);
    }
    let mut order = Vec::with_capacity(joints.len());
    let mut stack = vec![root];
    while let Some(l) = stack.pop() {
        for &j in children[l].iter().rev() {
            order.push(j);
            stack.push(joints[j].child);
        }
    }
    if order.len() != joints.len() {
        let lost = (0..joints.len())
            .find(|j| !order.contains(j))
            .map_or("", |j| joints[j].name.as_str());
        return Err(fail(format!(
            "joint '{lost}' is not reached from the root link '{}': the joints form a cycle",
            doc.links[root].name
        )));
    }

    let mut trees = Trees::new(path, opts, stop);
    let mut links = Vec::with_capacity(doc.links.len());
    let mut dae_skipped = 0;
    for l in &doc.links {
        if stop.is_set() {
            return Err(stopped());
        }
        let (used, other) = match opts.geometry {
            super::GeometryKind::Collision => (&l.collision, &l.visual),
            super::GeometryKind::Visual => (&l.visual, &l.collision),
        };
        dae_skipped += other
            .iter()
            .filter(|s| matches!(&s.geometry, GeometryDoc::Mesh { filename, .. } if filename.to_ascii_lowercase().ends_with(".dae")))
            .count();
        if used.is_empty() && !other.is_empty() {
            let (has, asked) = match opts.geometry {
                super::GeometryKind::Collision => ("visual", "collision"),
                super::GeometryKind::Visual => ("collision", "visual"),
            };
            trees.notes.push(format!(
                "link '{}' has only {has} geometry: no {asked} shape, it takes no part in the checks",
                l.name
            ));
        }
        let mut shapes = Vec::with_capacity(used.len());
        for s in used {
            if let Some((tree, sphere)) = trees.get(&s.geometry, &l.name)? {
                shapes.push(Shape {
                    tree,
                    origin: s.origin,
                    center: s.origin * sphere.center,
                    radius: sphere.radius,
                });
            }
        }
        links.push(Link {
            name: l.name.clone(),
            shapes,
        });
    }
    if dae_skipped > 0 {
        trees.notes.push(format!(
            "{dae_skipped} Collada (.dae) meshes of the geometry not asked were not read (bvtool does not read Collada)"
        ));
    }

    // The pairs: not adjacent, not disabled, both with shapes.
    let adjacency = Adjacency::new(links.len(), &joints, &order);
    let mut disabled = HashSet::new();
    if let Some(srdf) = &opts.srdf {
        let pairs = urdf::srdf_disabled(&read_document(srdf)?).map_err(|e| Error::load(srdf, e))?;
        for (a, b, _) in pairs {
            match (link_of.get(a.as_str()), link_of.get(b.as_str())) {
                (Some(&a), Some(&b)) => {
                    disabled.insert((a.min(b), a.max(b)));
                }
                _ => trees.notes.push(format!(
                    "the SRDF disables '{a}'–'{b}', a link of which is not in the URDF (ignored)"
                )),
            }
        }
    }
    let with_shapes: Vec<usize> = (0..links.len())
        .filter(|&l| !links[l].shapes.is_empty())
        .collect();
    let (mut pairs, mut adjacent_pairs, mut disabled_pairs) = (Vec::new(), 0, 0);
    for (k, &a) in with_shapes.iter().enumerate() {
        for &b in &with_shapes[k + 1..] {
            if adjacency.adjacent(a, b) {
                adjacent_pairs += 1;
            } else if disabled.contains(&(a, b)) {
                disabled_pairs += 1;
            } else {
                pairs.push((a, b));
            }
        }
    }
    Ok(Robot {
        path: path.to_path_buf(),
        name: doc.name,
        links,
        joints,
        order,
        root,
        dof,
        pairs,
        adjacent_pairs,
        disabled_pairs,
        mesh_files: trees.mesh_files,
        primitives: trees.primitives,
        tessellation_tolerance: trees.tolerance,
        notes: trees.notes,
        solids: trees.trees.iter().map(TreeSolid::new).collect(),
        trees: trees.trees,
    })
}

/// The early return of a build whose [`Stop`] was set (the caller drops
/// it, see [`build`]).
fn stopped() -> Error {
    Error::Input("stopped at the caller's request".into())
}

/// The distinct geometries read so far, each with its tree and ball.
struct Trees<'a> {
    urdf: &'a Path,
    opts: &'a RobotOptions,
    stop: Stop<'a>,
    packages: Packages,
    /// (file or primitive key) → tree index and ball (`None`: empty).
    seen: HashMap<String, Option<(usize, Sphere)>>,
    trees: Vec<ObbTree>,
    triangles: usize,
    mesh_files: usize,
    primitives: usize,
    tolerance: f64,
    notes: Vec<String>,
}

impl<'a> Trees<'a> {
    fn new(urdf: &'a Path, opts: &'a RobotOptions, stop: Stop<'a>) -> Self {
        Trees {
            urdf,
            opts,
            stop,
            packages: Packages::new(opts.packages.clone()),
            seen: HashMap::new(),
            trees: Vec::new(),
            triangles: 0,
            mesh_files: 0,
            primitives: 0,
            tolerance: 0.0,
            notes: Vec::new(),
        }
    }

    /// The tree and ball (in the shape's frame) of `g`, read or made once
    /// per distinct geometry; `None` for one without triangles (noted).
    fn get(&mut self, g: &GeometryDoc, link: &str) -> Result<Option<(usize, Sphere)>> {
        let (key, mesh) = match g {
            GeometryDoc::Mesh { filename, scale } => {
                let (root, rel) = geometry::resolve(filename, self.urdf, &mut self.packages)?;
                if rel.to_ascii_lowercase().ends_with(".dae") {
                    return Err(Error::load(
                        self.urdf,
                        format!(
                            "link '{link}': mesh '{filename}' is Collada (.dae), which bvtool does not read"
                        ),
                    ));
                }
                let key = format!("{}|{scale:?}", geometry::real(&root.join(&rel)).display());
                if let Some(&known) = self.seen.get(&key) {
                    return Ok(known);
                }
                self.mesh_files += 1;
                let mesh = geometry::load_mesh(&root, &rel, *scale, self.urdf, &self.opts.load)?;
                (key, mesh)
            }
            _ => {
                let key = format!("{g:?}");
                if let Some(&known) = self.seen.get(&key) {
                    return Ok(known);
                }
                self.primitives += 1;
                let (mesh, tol) = geometry::primitive(g);
                self.tolerance = self.tolerance.max(tol);
                (key, mesh)
            }
        };
        let made = self.add(mesh, link)?;
        self.seen.insert(key, made);
        Ok(made)
    }

    fn add(&mut self, mesh: TriMesh, link: &str) -> Result<Option<(usize, Sphere)>> {
        if mesh.triangles.is_empty() {
            self.notes.push(format!(
                "link '{link}': a geometry without triangles (skipped)"
            ));
            return Ok(None);
        }
        self.triangles += mesh.triangles.len();
        if self.triangles > MAX_ROBOT_TRIANGLES {
            return Err(Error::load(
                self.urdf,
                format!("the robot's meshes hold more than {MAX_ROBOT_TRIANGLES} triangles"),
            ));
        }
        let (lo, hi) = mesh.vertices.iter().fold(
            (
                Point3::from([f64::INFINITY; 3]),
                Point3::from([f64::NEG_INFINITY; 3]),
            ),
            |(lo, hi), v| (lo.inf(v), hi.sup(v)),
        );
        let Some(sphere) = Sphere::about(nalgebra::center(&lo, &hi), &mesh.vertices) else {
            return Ok(None);
        };
        let tree = ObbTree::build_until(&mesh, self.stop).map_err(|_| stopped())?;
        self.trees.push(tree);
        Ok(Some((self.trees.len() - 1, sphere)))
    }
}
