//! Many files in one command: folders and patterns expanded to model files
//! in a stable order, every file processed even when some fail, each failure
//! reported in its place, and exit 1 at the end if any failed.

use super::output::{Failure, Outcome, out, out_json, out_lines};
use super::progress::Progress;
use super::stream::SummaryLine;
use bvtool::Error;
use bvtool::load::{LoadOptions, load};
use bvtool::mesh::Scene;
use bvtool::report::FilesDoc;
use globset::{GlobBuilder, GlobMatcher};
use rayon::prelude::*;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The extensions bvtool reads (compared case-insensitively).
const MODEL_EXTENSIONS: [&str; 4] = ["gltf", "glb", "obj", "stl"];

/// Characters that make an argument a pattern when no such file exists.
const PATTERN_CHARS: [char; 4] = ['*', '?', '[', '{'];

/// The files a per-file command works on.
#[derive(clap::Args, Debug)]
pub struct Files {
    /// Model files (.gltf, .glb, .obj, .stl) or folders, read recursively for
    /// those formats in path order (links to folders are named on stderr,
    /// not followed). A quoted pattern such as 'scans/*.obj' is
    /// expanded by bvtool. Files are processed in parallel and reported in
    /// order; a file that fails is reported in its place (a line on stderr,
    /// an "error" entry in JSON) and the others still run; the exit code is
    /// then 1.
    #[arg(required = true, value_name = "FILE|FOLDER")]
    files: Vec<PathBuf>,
    /// Keep only the files found in folders that match this pattern: by
    /// file name ('*.obj'), or by path below the folder when it has a `/`
    /// ('robots/**/*.stl'), ignoring case as the extensions are. `*` and `?`
    /// stay within a folder; `**` crosses folders.
    #[arg(long, value_name = "PATTERN")]
    glob: Option<String>,
}

impl Files {
    /// The files named, folders and patterns expanded (see [`expand`]).
    pub fn expand(&self) -> Result<Vec<PathBuf>, Failure> {
        expand(&self.files, self.glob.as_deref())
    }

    /// The folder of each argument: a folder itself, else the folder its
    /// file or pattern is in (`.` when none is written).
    pub fn bases(&self) -> Vec<PathBuf> {
        self.files
            .iter()
            .map(|a| match a.is_dir() {
                true => a.clone(),
                false => literal_prefix(a),
            })
            .collect()
    }

    /// Whether one file was named: not a folder, not a pattern, not several.
    pub fn is_one_file(&self) -> bool {
        match &self.files[..] {
            [one] => {
                !one.is_dir() && (one.exists() || !one.to_string_lossy().contains(PATTERN_CHARS))
            }
            _ => false,
        }
    }
}

/// The files named by the command line: a file is taken as given; a folder
/// is read recursively for model files (.gltf, .glb, .obj, .stl), sorted by
/// path (see [`walk`] for links); an argument that does not exist but holds
/// `*`, `?`, `[` or `{` is expanded by bvtool as a glob pattern (for shells
/// that do not expand them). `glob`, when given, keeps only the files found
/// in folders that match it (see [`Files`]). Patterns ignore case, as the
/// extensions do.
pub fn expand(args: &[PathBuf], glob: Option<&str>) -> Result<Vec<PathBuf>, Failure> {
    // A --glob without `/` matches file names at any depth; with one, the
    // path below the folder.
    let filter = glob
        .map(|g| Ok::<_, Failure>((matcher(g)?, g.contains('/'))))
        .transpose()?;
    let mut files = Vec::new();
    for arg in args {
        let text = arg.to_string_lossy();
        if arg.is_dir() {
            let mut found = Vec::new();
            walk(arg, &mut found);
            let any = !found.is_empty();
            found.retain(|f| {
                filter.as_ref().is_none_or(|(g, whole_path)| {
                    let below = f.strip_prefix(arg).unwrap_or(f);
                    match whole_path {
                        true => g.is_match(below),
                        false => below.file_name().is_some_and(|n| g.is_match(n)),
                    }
                })
            });
            if found.is_empty() {
                let why = match (any, glob) {
                    (true, Some(g)) => format!("no model file in this folder matches --glob '{g}'"),
                    _ => "no model files (.gltf, .glb, .obj, .stl) in this folder".to_string(),
                };
                return Err(Error::load(arg, why).into());
            }
            files.extend(found);
        } else if !arg.exists() && text.contains(PATTERN_CHARS) {
            let pattern = matcher(&text)?;
            let mut found = Vec::new();
            walk(&literal_prefix(arg), &mut found);
            found.retain(|f| pattern.is_match(f));
            if found.is_empty() {
                return Err(Error::load(arg, "no model file matches this pattern").into());
            }
            files.extend(found);
        } else {
            files.push(arg.clone());
        }
    }
    Ok(files)
}

/// A shell-like pattern: `*` and `?` stay within a folder, `**` crosses folders.
fn matcher(pattern: &str) -> Result<GlobMatcher, Failure> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .case_insensitive(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| Failure::Usage(format!("bad glob pattern '{pattern}': {e}")))
}

/// The folder part of a pattern before its first wildcard (`.` if none).
fn literal_prefix(pattern: &Path) -> PathBuf {
    let mut dir = PathBuf::new();
    for c in pattern.components() {
        if c.as_os_str().to_string_lossy().contains(PATTERN_CHARS) {
            break;
        }
        dir.push(c);
    }
    if dir.as_os_str().is_empty() || !dir.is_dir() {
        dir = dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    }
    dir
}

/// Model files below `dir`, depth first, each folder's entries sorted by
/// name. Symbolic links to folders are not followed (no loops, no reading
/// twice): each is named in a note on stderr, with why — the folder it names
/// is inside `dir`, so read under its own path, or outside it, so to be
/// named on the command line if wanted.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let root = std::fs::canonicalize(dir).ok();
    walk_below(dir, root.as_deref(), out);
}

fn walk_below(dir: &Path, root: Option<&Path>, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = if dir == Path::new(".") {
            PathBuf::from(e.file_name())
        } else {
            e.path()
        };
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_dir() {
            walk_below(&path, root, out);
        } else if kind.is_symlink() && path.is_dir() {
            let inside = std::fs::canonicalize(&path)
                .ok()
                .zip(root)
                .is_some_and(|(real, root)| real.starts_with(root));
            let why = match inside {
                true => "the folder it names is read under its own path",
                false => "it names a folder outside the one walked (name that folder to read it)",
            };
            let name = path.display().to_string();
            eprintln!(
                "note: {}: link not followed: {why}",
                bvtool::error::printable(&name)
            );
        } else if path.is_file() && is_model(&path) {
            out.push(path);
        }
    }
}

fn is_model(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| MODEL_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// One file's place in a batch's JSON document: its report,
/// `{"file", "error"}`, or `{"file", "same_as"}` for a file named again.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Entry<T> {
    /// The file's report.
    Done(T),
    /// Why the file failed, in one line.
    Failed {
        /// The file as given.
        file: String,
        /// What is wrong.
        error: String,
    },
    /// The file is one named before (the same real path): its report is
    /// there.
    Same {
        /// The file as given.
        file: String,
        /// The file as first given.
        same_as: String,
    },
}

/// What became of one file of a batch.
pub enum Done<T> {
    /// Its report.
    Report(T),
    /// Why it failed.
    Failed(Error),
    /// It is the file at this place in the batch (the same real path),
    /// loaded and worked on once.
    Same(usize),
}

impl<T> From<Result<T, Error>> for Done<T> {
    fn from(r: Result<T, Error>) -> Self {
        match r {
            Ok(t) => Done::Report(t),
            Err(e) => Done::Failed(e),
        }
    }
}

impl<T> Done<T> {
    /// The report, if this is one.
    pub fn report(&self) -> Option<&T> {
        match self {
            Done::Report(t) => Some(t),
            _ => None,
        }
    }
}

/// For each file, the place of the first file with the same real path
/// (itself when it is the first, or when its path cannot be resolved).
fn first_places(files: &[PathBuf]) -> Vec<usize> {
    let mut seen = std::collections::HashMap::new();
    files
        .iter()
        .enumerate()
        .map(|(i, f)| match std::fs::canonicalize(f) {
            Ok(real) => *seen.entry(real).or_insert(i),
            Err(_) => i,
        })
        .collect()
}

/// Loads each file and runs `work` on it, in parallel (on a terminal's
/// stderr, a progress bar when there are several, a spinner for one); the
/// results come back in the order of `files`, one per file, failures
/// included. A file named again (the same real path, as `a.obj ./a.obj`
/// or a folder and a file in it) is loaded and worked on once — its tree,
/// hull or fit shared — and its later places are [`Done::Same`].
pub fn process<T: Send>(
    files: &[PathBuf],
    opts: &LoadOptions,
    work: impl Fn(&str, &Scene) -> Result<T, Error> + Sync,
) -> Vec<Done<T>> {
    let bar = bar_for(files);
    let results = process_on(files, 0, &first_places(files), opts, &work, &bar);
    bar.finish();
    results
}

/// Many files: a bar counting them; one (a big tree, a compare): a
/// spinner naming it.
fn bar_for(files: &[PathBuf]) -> Progress {
    match files {
        [one] => Progress::spinner(&one.display().to_string()),
        _ => Progress::new(files.len(), "files"),
    }
}

/// [`process`] of `files`, the batch's files from place `from` on, each
/// file's first place in `first`, ticking `bar`.
fn process_on<T: Send>(
    files: &[PathBuf],
    from: usize,
    first: &[usize],
    opts: &LoadOptions,
    work: &(impl Fn(&str, &Scene) -> Result<T, Error> + Sync),
    bar: &Progress,
) -> Vec<Done<T>> {
    // On the pool from the start (see `threads::on_pool`): for one file the
    // iterator below would otherwise run the work on this thread, and each
    // of the fit's parallel calls would hand itself over.
    bvtool::threads::on_pool(|| {
        files
            .par_iter()
            .enumerate()
            .map(|(k, f)| {
                let r = match first[from + k] {
                    i if i < from + k => Done::Same(i),
                    _ => load(f, opts)
                        .and_then(|scene| work(&f.display().to_string(), &scene))
                        .into(),
                };
                bar.tick();
                r
            })
            .collect()
    })
}

/// `--jsonl` on a per-file command.
#[derive(clap::Args, Debug)]
pub struct JsonLines {
    /// Print JSON Lines as the files are done: one compact line per file,
    /// in order (its entry of --json's `files`: the report, `{"file",
    /// "error"}` or `{"file", "same_as"}`), then `{"summary": {"files": N,
    /// "failed": K}}`. Files are worked on a few at a time, so memory holds
    /// only theirs.
    #[arg(long, conflicts_with = "json")]
    pub jsonl: bool,
}

/// Files worked on at a time by [`stream`], per thread of the pool: enough
/// to keep every thread busy while one slow file finishes.
const FILES_PER_THREAD: usize = 2;

/// The counts of a [`stream`]'s last line.
#[derive(Serialize)]
struct FilesSummary {
    files: usize,
    failed: usize,
}

/// `--jsonl`: loads each file and runs `work` on it, a few files at a time
/// in parallel, writing each file's line (in order) as soon as its group is
/// done, then the summary line; `keep` sees each report first. Failures are
/// reported as by [`report`].
pub fn stream<T: Serialize + Send>(
    files: &[PathBuf],
    opts: &LoadOptions,
    work: impl Fn(&str, &Scene) -> Result<T, Error> + Sync,
    mut keep: impl FnMut(&T),
) -> Outcome {
    let bar = bar_for(files);
    let first = first_places(files);
    let group = bvtool::threads::on_pool(rayon::current_num_threads).max(1) * FILES_PER_THREAD;
    let mut failed = 0;
    for (k, names) in files.chunks(group).enumerate() {
        let results = process_on(names, k * group, &first, opts, &work, &bar);
        let lines: Vec<Entry<T>> = names
            .iter()
            .zip(results)
            .map(|(f, r)| {
                if let Some(t) = r.report() {
                    keep(t);
                }
                failed += usize::from(matches!(r, Done::Failed(_)));
                entry(files, f, r)
            })
            .collect();
        if let Err(e) = out_lines(&lines) {
            bar.finish();
            return Err(e);
        }
    }
    bar.finish();
    out_lines(&[SummaryLine {
        summary: FilesSummary {
            files: files.len(),
            failed,
        },
    }])?;
    batch_outcome(failed, files.len())
}

/// A file's entry in a batch's JSON, its failure printed on stderr.
fn entry<T>(files: &[PathBuf], file: &Path, r: Done<T>) -> Entry<T> {
    let file = file.display().to_string();
    match r {
        Done::Report(t) => Entry::Done(t),
        Done::Failed(e) => {
            eprintln!("bvtool: {e}");
            Entry::Failed {
                file,
                error: e.to_string(),
            }
        }
        Done::Same(i) => Entry::Same {
            file,
            same_as: files[i].display().to_string(),
        },
    }
}

/// Success, or [`Failure::Batch`] when `failed` of the `of` files failed.
fn batch_outcome(failed: usize, of: usize) -> Outcome {
    match failed {
        0 => Ok(()),
        failed => Err(Failure::Batch { failed, of }),
    }
}

/// Prints a batch's results in order — as one JSON document
/// `{"files": [...]}` with an `{"file", "error"}` entry for each failed
/// file, or as `text` per file — with each failure on stderr as one line
/// in its place, and a file named again as the same as its first place.
/// Fails with [`Failure::Batch`] if any file failed.
pub fn report<T: Serialize>(
    files: &[PathBuf],
    results: Vec<Done<T>>,
    json: bool,
    text: impl Fn(&T) -> String,
) -> Outcome {
    let failed = results
        .iter()
        .filter(|r| matches!(r, Done::Failed(_)))
        .count();
    if json {
        let entries: Vec<Entry<T>> = files
            .iter()
            .zip(results)
            .map(|(f, r)| entry(files, f, r))
            .collect();
        out_json(&FilesDoc { files: &entries })?;
    } else {
        for (f, r) in files.iter().zip(&results) {
            match r {
                Done::Report(t) => out(&text(t))?,
                Done::Failed(e) => eprintln!("bvtool: {e}"),
                Done::Same(i) => out(&format!(
                    "{}: the same file as {} (reported above)\n",
                    f.display(),
                    files[*i].display()
                ))?,
            }
        }
    }
    batch_outcome(failed, files.len())
}
