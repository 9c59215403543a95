//! Reading glTF 2.0, OBJ and STL files into a [`Scene`].
//!
//! The format is chosen by the file extension (case-insensitive): `.gltf`,
//! `.glb`, `.obj`, `.stl`. Every loader validates what it reads: bad input
//! gives an [`Error::Load`] naming the file, never a panic, and no count read
//! from a header is trusted for an allocation before it is checked against
//! the bytes actually present.
//!
//! Every loader's scene then passes the same checks, once, so that every
//! command is protected: the numeric range ([`Scene::check_range`], |x| ≤
//! [`MAX_COORDINATE`](crate::mesh::MAX_COORDINATE) in local and world
//! space), a bound on mesh instances ([`LoadOptions::max_instances`], checked
//! by the glTF reader before any instance is made) and a bound on the
//! triangles the scene flattens to ([`LoadOptions::max_triangles`]).

use crate::error::{Error, Result};
use crate::mesh::Scene;
use std::path::Path;

pub mod chunks;
pub mod confine;
pub(crate) mod gltf;
pub(crate) mod obj;
pub mod points;
pub(crate) mod stl;
pub mod triangulate;

/// Default of [`LoadOptions::max_instances`]: 2^20 placed primitives.
pub const DEFAULT_MAX_INSTANCES: usize = 1 << 20;

/// The floor of [`TriangleLimit::Auto`]: 2^20 triangles.
pub const AUTO_TRIANGLES_FLOOR: u64 = 1 << 20;

/// How many triangles a scene may flatten to (every instance counted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TriangleLimit {
    /// max(2^20, the file's size in bytes): at most one triangle per input
    /// byte beyond a floor that holds every real model we know (the largest
    /// amplification in the corpus is MetalRoughSpheresNoTextures.glb, 1.04 M
    /// triangles from 291 KB). A file under 1 MB thus flattens to at most
    /// 2^20 triangles.
    #[default]
    Auto,
    /// At most this many.
    AtMost(u64),
    /// No limit: for commands that never flatten (`info`, `fit`).
    Unlimited,
}

impl TriangleLimit {
    /// The most triangles a scene read from a file of `file_bytes` bytes
    /// may flatten to; `None` for no limit.
    pub fn for_file(self, file_bytes: u64) -> Option<u64> {
        match self {
            TriangleLimit::Unlimited => None,
            TriangleLimit::AtMost(n) => Some(n),
            TriangleLimit::Auto => Some(AUTO_TRIANGLES_FLOOR.max(file_bytes)),
        }
    }
}

/// What a loader may do beyond the defaults, and how much it may hold.
#[derive(Clone, Copy, Debug)]
pub struct LoadOptions {
    /// Allow a glTF file to read buffers outside its own folder (`../` or
    /// absolute URIs, or links whose target lies outside; see
    /// [`confine`]). Off by default.
    pub allow_external_uris: bool,
    /// Most mesh instances (primitives placed by a node and GPU instance)
    /// a scene may hold; the glTF reader refuses a file that would exceed
    /// it before making the instances.
    pub max_instances: usize,
    /// Most triangles the scene may flatten to. The glTF reader checks the
    /// triangles its accessors declare against it before decoding anything;
    /// every reader's scene is checked again once loaded.
    pub max_triangles: TriangleLimit,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            allow_external_uris: false,
            max_instances: DEFAULT_MAX_INSTANCES,
            max_triangles: TriangleLimit::Auto,
        }
    }
}

/// Loads a model file, choosing the reader by extension; see [`load_bytes`].
///
/// # Guarantees
/// Bad input is an [`Error::Load`] naming the file and what is wrong, never
/// a panic; every count read from a header is checked against the bytes
/// present before it sizes an allocation; the scene passes the numeric range
/// and instance checks of the module docs.
///
/// ```
/// use bvtool::load::load;
///
/// let scene = load("models/chain.gltf".as_ref(), &Default::default())?;
/// assert_eq!(scene.instances.len(), 2); // one mesh placed by two nodes
/// let err = load("models/missing.obj".as_ref(), &Default::default()).unwrap_err();
/// assert!(err.to_string().contains("models/missing.obj"));
/// # Ok::<(), bvtool::Error>(())
/// ```
pub fn load(path: &Path, opts: &LoadOptions) -> Result<Scene> {
    let bytes = read_input(path)?;
    load_bytes(path, &bytes, opts)
}

/// The bytes of the input file `path` (a model or a table of points),
/// which must be a regular file: a
/// FIFO, a device (`/dev/zero`, directly or through a link) or a folder is
/// refused with one line, never read or waited on
/// ([`crate::files::read_regular`]).
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    crate::files::read_regular(path, None).map_err(|e| Error::load(path, e))
}

/// Reads a model from `bytes` (the content of the file `path`), choosing
/// the reader by the extension of `path`, which also names the model in
/// errors and is the folder external glTF buffers are resolved against;
/// then checks the numeric range and the triangle limit (`Auto` measured
/// against `bytes.len()`).
pub fn load_bytes(path: &Path, bytes: &[u8], opts: &LoadOptions) -> Result<Scene> {
    load_bytes_in_chunks(path, bytes, opts, chunks::DEFAULT_CHUNK_BYTES)
}

/// [`load_bytes`], with OBJ and ASCII STL text read in chunks of about
/// `chunk_bytes` (at least 1) in parallel on the current rayon pool, and
/// binary STL's records decoded in parallel. The scene, and the error for
/// bad input (line numbers included), are the same for every chunk size —
/// `usize::MAX` reads the file as one chunk, on one thread — so only the
/// time differs; [`load_bytes`] uses [`chunks::DEFAULT_CHUNK_BYTES`].
pub fn load_bytes_in_chunks(
    path: &Path,
    bytes: &[u8],
    opts: &LoadOptions,
    chunk_bytes: usize,
) -> Result<Scene> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    let scene = match ext.as_deref() {
        Some("gltf") | Some("glb") => gltf::from_bytes(path, bytes, opts),
        Some("obj") => obj::from_bytes(path, bytes, chunk_bytes),
        Some("stl") => stl::from_bytes(path, bytes, chunk_bytes),
        _ => Err(Error::load(
            path,
            "unknown file type (expected .gltf, .glb, .obj or .stl)",
        )),
    }?;
    check(scene, opts, bytes.len() as u64)
}

/// The checks every loaded scene passes: the numeric range, then the
/// flattened triangle count against `opts.max_triangles` (`Auto` measured
/// against `file_bytes`).
fn check(scene: Scene, opts: &LoadOptions, file_bytes: u64) -> Result<Scene> {
    scene.check_range()?;
    let Some(limit) = opts.max_triangles.for_file(file_bytes) else {
        return Ok(scene);
    };
    let n = scene.triangle_count() as u64;
    if n > limit {
        return Err(Error::geometry(
            &scene.path,
            format!(
                "{n} triangles once its {} mesh instances are flattened, over the limit of {limit} (--max-triangles)",
                scene.instances.len()
            ),
        ));
    }
    Ok(scene)
}
