//! bvtool's development crate, never published: the helpers the integration
//! tests share (where the real-model corpus is, what its manifest says, small
//! meshes made in code, running the `bvtool` binary), and the generators of
//! test data (`cargo run -p bvtool-dev --bin make_models` rewrites
//! `models/`; `--bin grid_scene` writes the large clash bench scene).

pub mod export_check;
pub mod grid_scene;
pub mod motion;
pub mod oracle;
pub mod render_check;
pub mod robot_oracle;
pub mod shapes;

// Time limits for hostile inputs (FIFOs, endless streams).
pub mod guard;

use serde::Deserialize;
use std::path::PathBuf;

/// The corpus folder: `$BVTOOL_MODELS`, else `../shared/models` beside the
/// crate. `None` when absent — which is a failure under `CI=true`.
pub fn models_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("BVTOOL_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/models"));
    if dir.join("manifest.json").is_file() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "CI=true but the model corpus is missing at {}",
            dir.display()
        );
    }
    eprintln!(
        "skipping: no model corpus at {} (set BVTOOL_MODELS)",
        dir.display()
    );
    None
}

/// One file of `manifest.json`.
#[derive(Debug, Deserialize, Clone)]
pub struct Entry {
    /// The file, relative to the corpus folder.
    pub path: String,
    /// Its format as the manifest names it (`obj`, `glb`, `stl-binary`, …).
    pub format: String,
    /// Its triangle count, where the manifest knows it.
    pub triangles: Option<u64>,
    /// Why the file is in the corpus (`INVALID …` for files to refuse).
    #[serde(default)]
    pub intent: Option<String>,
    /// The format features it exercises.
    #[serde(default)]
    pub features: Vec<String>,
}

impl Entry {
    /// Files that a correct loader must refuse: the corpus marks them
    /// INVALID, says they should be refused, or gives them non-finite positions.
    ///
    /// bvtool also refuses one file the corpus lists as a mere edge case:
    /// `NoScene.gltf` has `"scene": 0` and no `scenes`, an index that names
    /// nothing, which glTF 2.0 makes invalid (the Khronos validator reports
    /// an unresolved reference).
    pub fn must_fail(&self) -> bool {
        self.path.ends_with("TestNoRootNode/NoScene.gltf")
            || self.intent.as_deref().is_some_and(|i| {
                i.contains("INVALID")
                    || i.contains("should be refused")
                    || i.contains("should refuse")
                    || i.contains("infinite POSITION")
            })
    }
}

#[derive(Deserialize)]
struct Manifest {
    files: Vec<Entry>,
}

/// Every entry of the manifest.
pub fn manifest(dir: &std::path::Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(dir.join("manifest.json")).expect("read manifest.json");
    serde_json::from_str::<Manifest>(&text)
        .expect("parse manifest.json")
        .files
}

/// A model of the repository's own `models/` folder, loaded.
pub fn repo_scene(name: &str) -> bvtool::Scene {
    let path = repo_dir().join("models").join(name);
    bvtool::load::load(&path, &Default::default()).unwrap()
}

/// The manifest's valid entries that load, with their loaded scenes.
pub fn valid_scenes(dir: &std::path::Path) -> Vec<(Entry, bvtool::Scene)> {
    manifest(dir)
        .into_iter()
        .filter(|e| !e.must_fail())
        .filter_map(|e| {
            let scene = bvtool::load::load(&dir.join(&e.path), &Default::default()).ok()?;
            Some((e, scene))
        })
        .collect()
}

/// The world vertices (those the triangles use) of every valid corpus
/// model with 1 to 2 million triangles, by path: the point sets the
/// fitters' corpus tests bound.
pub fn corpus_point_sets(dir: &std::path::Path) -> Vec<(String, Vec<nalgebra::Point3<f64>>)> {
    valid_scenes(dir)
        .into_iter()
        .filter(|(_, s)| (1..=2_000_000).contains(&s.triangle_count()))
        .map(|(e, s)| (e.path, s.world_points(false)))
        .collect()
}

/// The triangles of one placed primitive in world coordinates, placed by
/// its own transform (an oracle independent of shared trees and poses).
pub fn world_triangles(inst: &bvtool::mesh::MeshInstance) -> Vec<[nalgebra::Point3<f64>; 3]> {
    let g = &inst.geometry;
    g.triangles
        .iter()
        .map(|t| t.map(|i| inst.to_world(&g.positions[i as usize])))
        .collect()
}

/// An OBB tree over [`world_triangles`] (each triangle its own three
/// corners): one placed primitive as the loader placed it.
pub fn world_tree(inst: &bvtool::mesh::MeshInstance) -> bvtool::tree::ObbTree {
    let tris = world_triangles(inst);
    let vertices = tris.iter().flatten().copied().collect();
    let triangles = (0..tris.len() as u32)
        .map(|k| [3 * k, 3 * k + 1, 3 * k + 2])
        .collect();
    bvtool::tree::ObbTree::build(&shapes::mesh(vertices, triangles))
}

/// A folder for one test's files, `name` under the test binary's
/// `CARGO_TARGET_TMPDIR` (target/tmp), created if missing (not emptied:
/// tests of one binary may share it, each with its own file names). Test
/// runs leave nothing in the system's temporary folder, and a rerun writes
/// over the last run's files rather than beside them.
#[macro_export]
macro_rules! scratch {
    ($name:expr) => {{
        let dir = ::std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join($name);
        ::std::fs::create_dir_all(&dir).expect("a scratch folder under target/tmp");
        dir
    }};
}

/// Runs the `bvtool` binary of the test that calls it (`bvtool!(&["info",
/// "models/torus.obj"])`); returns its exit code, stdout and stderr.
#[macro_export]
macro_rules! bvtool {
    ($args:expr) => {
        $crate::run(env!("CARGO_BIN_EXE_bvtool"), $args)
    };
}

/// Runs the program `exe` with `args`; returns its exit code, stdout and
/// stderr (see [`bvtool!`]).
pub fn run(exe: &str, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(exe).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The repository's root folder (where `models/` is).
pub fn repo_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}
