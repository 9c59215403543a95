//! A link's geometry as triangles: mesh files found through `package://`
//! and confined to their package's folder, and the URDF primitives (a box
//! exactly; spheres, cylinders and capsules tessellated outward).

use super::urdf::GeometryDoc;
use crate::error::{Error, Result};
use crate::load::confine::ModelFolder;
use crate::load::{LoadOptions, load_bytes};
use crate::mesh::{TriMesh, primitives};
use nalgebra::Vector3;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The largest mesh file a URDF may name: 1 GiB.
pub const MAX_MESH_BYTES: u64 = 1 << 30;
/// How many folders up from the URDF a `package.xml` is looked for.
const PACKAGE_SEARCH_DEPTH: usize = 32;

/// Where `package://NAME/...` paths lead.
#[derive(Clone, Debug, Default)]
pub struct Packages {
    /// Given on the command line (`--package NAME=DIR`) or by the caller.
    given: Vec<(String, PathBuf)>,
    /// Found by looking for a `package.xml` up the tree from the URDF.
    found: HashMap<String, PathBuf>,
}

impl Packages {
    /// The packages `given` as `(name, folder)`.
    pub fn new(given: Vec<(String, PathBuf)>) -> Self {
        Packages {
            given,
            found: HashMap::new(),
        }
    }

    /// The folder of package `name`: the one given, else the nearest folder
    /// up from `urdf_dir` (itself included) whose `package.xml` has that
    /// `<name>`, else the nearest folder up named `name` (as Pinocchio's
    /// `package_dirs` and yourdfpy find it: `example-robot-data`'s
    /// `package.xml` names it `example_robot_descriptions`).
    fn root(&mut self, name: &str, urdf_dir: &Path) -> Option<PathBuf> {
        if let Some((_, dir)) = self.given.iter().find(|(n, _)| n == name) {
            return Some(dir.clone());
        }
        if let Some(dir) = self.found.get(name) {
            return Some(dir.clone());
        }
        let start = std::fs::canonicalize(urdf_dir).ok()?;
        let up = || start.ancestors().take(PACKAGE_SEARCH_DEPTH);
        let dir = up()
            .find(|d| {
                crate::files::read_regular(&d.join("package.xml"), Some(1 << 20))
                    .ok()
                    .and_then(|b| String::from_utf8(b).ok())
                    .and_then(|t| super::urdf::package_name(&t))
                    .is_some_and(|n| n == name)
            })
            .or_else(|| up().find(|d| d.file_name().is_some_and(|f| f == name)))?
            .to_path_buf();
        self.found.insert(name.to_string(), dir.clone());
        Some(dir)
    }
}

/// Where a mesh `filename` of the URDF at `urdf` lies: the folder it is
/// confined to and its path relative to that folder.
pub(super) fn resolve(
    filename: &str,
    urdf: &Path,
    packages: &mut Packages,
) -> Result<(PathBuf, String)> {
    let urdf_dir = match urdf.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Some(rest) = filename.strip_prefix("package://") {
        let (name, rel) = rest.split_once('/').ok_or_else(|| {
            Error::load(
                urdf,
                format!("mesh '{filename}': no path after the package name"),
            )
        })?;
        let root = packages.root(name, urdf_dir).ok_or_else(|| {
            Error::load(
                urdf,
                format!(
                    "mesh '{filename}': package '{name}' not found (no package.xml naming it, and no folder of that name, up the tree from the URDF; give --package {name}=DIR)"
                ),
            )
        })?;
        Ok((root, rel.to_string()))
    } else {
        Ok((urdf_dir.to_path_buf(), filename.to_string()))
    }
}

/// The triangles of the mesh file `rel` confined to `root`, scaled by
/// `scale` per axis (the loader's limits apply; a file over
/// [`MAX_MESH_BYTES`] is refused).
pub(super) fn load_mesh(
    root: &Path,
    rel: &str,
    scale: [f64; 3],
    urdf: &Path,
    opts: &LoadOptions,
) -> Result<TriMesh> {
    let folder = ModelFolder::new(root, opts.allow_external_uris);
    let bytes = folder
        .read(rel, MAX_MESH_BYTES + 1)
        .map_err(|e| Error::load(urdf, format!("mesh {e}")))?;
    let path = root.join(rel);
    if bytes.len() as u64 > MAX_MESH_BYTES {
        return Err(Error::load(
            urdf,
            format!("mesh '{rel}' is larger than {MAX_MESH_BYTES} bytes"),
        ));
    }
    let mut mesh = load_bytes(&path, &bytes, opts)
        .map_err(|e| Error::load(urdf, format!("mesh: {e}")))?
        .flatten();
    let s = Vector3::from(scale);
    for v in &mut mesh.vertices {
        v.coords.component_mul_assign(&s);
    }
    Ok(mesh)
}

/// A primitive's triangles in its own frame, and how far outside the true
/// shape they reach at most (0 for a box): [`crate::mesh::primitives`].
pub(super) fn primitive(g: &GeometryDoc) -> (TriMesh, f64) {
    match *g {
        GeometryDoc::Box(size) => (primitives::box_mesh(size), 0.0),
        GeometryDoc::Sphere { radius } => primitives::sphere_mesh(radius),
        GeometryDoc::Capsule { radius, length } => primitives::capsule_mesh(radius, length),
        GeometryDoc::Cylinder { radius, length } => primitives::cylinder_mesh(radius, length),
        GeometryDoc::Mesh { .. } => (TriMesh::default(), 0.0),
    }
}

/// The absolute path of `p` when it can be resolved, else `p` itself: the
/// key of a mesh file shared by several links.
pub(super) fn real(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}
