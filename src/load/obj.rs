//! Wavefront OBJ.
//!
//! Parsed here rather than with `tobj`, which falls short on several files
//! the corpus must load or refuse: it reads `l` elements as faces (a 4-index
//! line becomes a quad), splits objects at every `usemtl`, rejects the whole
//! file on `3.1+e2`, and reports errors without a line number.
//!
//! What is read: `v` (x y z; any further values, a `w` or an RGB colour, are
//! ignored), `f` (only the position index of each `v/vt/vn` corner, 1-based
//! or negative = relative to the vertices read so far), `o` and `g` (each
//! starts a new object once the current one has faces), and `\` line
//! continuations. `l` and `p` are skipped, each element (line of the file)
//! counted once in [`Scene::skipped_primitives`], as is a face with fewer than
//! three corners. Everything else (`vt`, `vn`, `mtllib`, `usemtl`, `s`,
//! free-form geometry) is ignored, so a missing `.mtl` is never an error.
//!
//! The text may be UTF-8 (with or without BOM; invalid bytes, e.g. Latin-1
//! comments, are replaced) or UTF-16 LE/BE with a BOM.

use super::chunks;
use super::triangulate::{WorkBudget, triangulate_within};
use crate::error::{Error, Result};
use crate::mesh::{Format, Geometry, MeshInstance, Scene};
use nalgebra::Point3;
use rayon::prelude::*;
use std::borrow::Cow;
use std::path::Path;

/// Reads the bytes of the OBJ file `path`: one [`MeshInstance`] per object (`o`/`g`) that has
/// faces, `mesh` = its index among those, in file order; `mesh_name` its
/// name. Faces are triangulated by
/// [`triangulate`](super::triangulate::triangulate) (n − 2 triangles for an
/// n-gon, correct for concave ones), with one work budget for the file. Each object's `positions` are the
/// vertices its faces use, in file order; vertices no face uses are dropped.
///
/// Errors (one line, naming the file, with the line number where there is
/// one): bad UTF-16, a `v` line without three numbers or
/// with a non-finite coordinate, a face index that is 0, not an integer or
/// refers to a vertex not defined before it.
///
/// The text is read in chunks of about `chunk_bytes` in parallel
/// ([`parse`]); the scene and the errors do not depend on the chunk size.
pub fn from_bytes(path: &Path, bytes: &[u8], chunk_bytes: usize) -> Result<Scene> {
    let text = decode_text(bytes).map_err(|m| Error::load(path, m))?;
    let parsed = parse(&text, chunk_bytes).map_err(|m| Error::load(path, m))?;
    Ok(parsed.into_scene(path))
}

/// The file's bytes as text: UTF-16 (LE or BE) when it starts with a BOM,
/// else UTF-8 with a BOM removed and invalid sequences replaced.
pub(crate) fn decode_text(bytes: &[u8]) -> Result<Cow<'_, str>, String> {
    let utf16 = |body: &[u8], unit: fn([u8; 2]) -> u16| -> Result<Cow<'_, str>, String> {
        if !body.len().is_multiple_of(2) {
            return Err("UTF-16 text with an odd number of bytes".into());
        }
        let units = body.chunks_exact(2).map(|c| unit([c[0], c[1]]));
        Ok(Cow::Owned(
            char::decode_utf16(units)
                .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect(),
        ))
    };
    match bytes {
        [0xFF, 0xFE, body @ ..] => utf16(body, u16::from_le_bytes),
        [0xFE, 0xFF, body @ ..] => utf16(body, u16::from_be_bytes),
        [0xEF, 0xBB, 0xBF, body @ ..] => Ok(String::from_utf8_lossy(body)),
        _ => Ok(String::from_utf8_lossy(bytes)),
    }
}

/// One object being read: its name and its triangles as indices into the
/// file's vertex list.
#[derive(Default)]
struct Object {
    name: Option<String>,
    triangles: Vec<[u32; 3]>,
}

/// The whole file, read.
#[derive(Default)]
struct Parsed {
    positions: Vec<Point3<f64>>,
    objects: Vec<Object>,
    skipped: usize,
}

impl Parsed {
    /// Each object's triangles re-indexed into its own vertex list.
    fn into_scene(self, path: &Path) -> Scene {
        // Global → local index, reset after each object, so memory stays
        // proportional to the file whatever the number of objects.
        let mut local = vec![u32::MAX; self.positions.len()];
        let mut instances = Vec::with_capacity(self.objects.len());
        for (mesh, obj) in self.objects.into_iter().enumerate() {
            // Sorting numbers, so the same order on any number of threads.
            let mut used: Vec<u32> = obj.triangles.iter().flatten().copied().collect();
            used.par_sort_unstable();
            used.dedup();
            for (k, &g) in used.iter().enumerate() {
                local[g as usize] = k as u32;
            }
            let geometry = Geometry {
                positions: used
                    .par_iter()
                    .map(|&g| self.positions[g as usize])
                    .collect(),
                triangles: obj
                    .triangles
                    .par_iter()
                    .map(|t| t.map(|g| local[g as usize]))
                    .collect(),
            };
            for &g in &used {
                local[g as usize] = u32::MAX;
            }
            instances.push(MeshInstance::unplaced(mesh as u32, obj.name, geometry));
        }
        // A file without faces is a point cloud (bare `v`, `p` or `l`
        // elements): its vertices are kept as one mesh without triangles,
        // for the commands that bound points.
        if instances.iter().all(|i| i.geometry.triangles.is_empty()) && !self.positions.is_empty() {
            let geometry = Geometry {
                positions: self.positions,
                triangles: Vec::new(),
            };
            instances = vec![MeshInstance::unplaced(0, None, geometry)];
        }
        Scene {
            path: path.to_path_buf(),
            format: Format::Obj,
            instances,
            skipped_primitives: self.skipped,
            extensions: Vec::new(),
        }
    }
}

/// Reads the statements of the file, in chunks of about `chunk_bytes`
/// read in parallel (rayon; [`chunks::cut`]); errors are `line N: what`.
/// The result, error included, is the same for any chunk size:
/// 1. each chunk's lines are read on their own ([`Chunk::read`]):
///    vertices, faces with their corners' indices as written, `o`/`g`
///    lines, the first error;
/// 2. with the vertices before each chunk counted, every chunk up to the
///    first with an error resolves its corners and triangulates its faces
///    ([`Chunk::triangulate`]) — the first chunk with the file's work
///    budget, the others from 0, a lower bound of what the faces before
///    them leave; a chunk in which a face used its budget up is
///    triangulated again, in order, from the exact budget;
/// 3. the chunks' objects are joined in order, and the first error in file
///    order (a corner out of range before the line where reading stopped)
///    is returned.
fn parse(text: &str, chunk_bytes: usize) -> Result<Parsed, String> {
    let pieces = chunks::cut(text, chunk_bytes, |previous, _| {
        !previous
            .strip_suffix('\r')
            .unwrap_or(previous)
            .ends_with('\\')
    });
    let mut read: Vec<Chunk> = pieces.par_iter().map(|t| Chunk::read(t)).collect();
    // Chunks after the first that stopped at an error do not count.
    if let Some(stop) = read.iter().position(|c| c.stop.is_some()) {
        read.truncate(stop + 1);
    }
    let lines_before = chunks::offsets(read.iter().map(|c| c.lines));
    let vertices_before = chunks::offsets(read.iter().map(|c| c.positions.len()));
    let mut positions = Vec::with_capacity(read.iter().map(|c| c.positions.len()).sum());
    for c in &mut read {
        positions.append(&mut c.positions);
    }
    let first_pass: Vec<Result<Triangulated, String>> = read
        .par_iter()
        .enumerate()
        .map(|(k, c)| {
            let budget = match k {
                0 => WorkBudget::default(),
                _ => WorkBudget::with_remaining(0),
            };
            c.triangulate(&positions, vertices_before[k], lines_before[k], budget)
        })
        .collect();
    let mut out = Parsed {
        positions,
        ..Parsed::default()
    };
    let mut current = Object::default();
    let mut budget = WorkBudget::default().remaining();
    for (k, (chunk, done)) in read.into_iter().zip(first_pass).enumerate() {
        let mut done = done?;
        if k == 0 {
            budget = done.budget_left;
        } else if done.ran_out {
            let exact = WorkBudget::with_remaining(budget);
            done = chunk.triangulate(&out.positions, vertices_before[k], lines_before[k], exact)?;
            budget = done.budget_left;
        } else {
            budget = budget.saturating_add(done.budget_left);
        }
        if let Some(stop) = chunk.stop {
            return Err(line_error(lines_before[k] + stop.line, stop.message));
        }
        out.skipped += chunk.skipped;
        for (group, triangles) in chunk.groups.into_iter().zip(done.triangles) {
            if let Some(name) = group.name {
                if current.triangles.is_empty() {
                    current.name = name;
                } else {
                    out.objects.push(std::mem::replace(
                        &mut current,
                        Object {
                            name,
                            triangles: Vec::new(),
                        },
                    ));
                }
            }
            if current.triangles.is_empty() {
                current.triangles = triangles;
            } else {
                current.triangles.extend(triangles);
            }
        }
    }
    if !current.triangles.is_empty() {
        out.objects.push(current);
    }
    Ok(out)
}

/// `line N: what` for the 0-based line `line` of the file.
fn line_error(line: usize, message: String) -> String {
    format!("line {}: {message}", line + 1)
}

/// One chunk of the file's lines, read on their own (the first pass of
/// [`parse`]): line numbers and vertex counts are the chunk's own.
#[derive(Default)]
struct Chunk {
    /// Lines read (every line of the chunk, unless it stopped at an error).
    lines: usize,
    /// The vertices of its `v` lines.
    positions: Vec<Point3<f64>>,
    /// Every face's corner indices as written (1-based, or negative =
    /// relative to the vertices so far), face after face; after the last
    /// face, those of the face whose line failed, read before the error.
    corners: Vec<i64>,
    /// The faces, in order.
    faces: Vec<Face>,
    /// The objects started in the chunk, in order: the first, without a
    /// name line, holds the faces before its first `o`/`g` line (they
    /// continue the object the chunks before left open).
    groups: Vec<Group>,
    /// `l` and `p` elements and faces of fewer than three corners.
    skipped: usize,
    /// The error reading stopped at.
    stop: Option<Stop>,
}

/// A face of a [`Chunk`].
struct Face {
    /// The end of its corners in [`Chunk::corners`] (they start at the
    /// previous face's end).
    corners_end: usize,
    /// Its line in the chunk (the last, for a continued statement).
    line: usize,
    /// The chunk's vertices read before it.
    vertices: usize,
}

/// An `o`/`g` line of a [`Chunk`] and the faces after it.
struct Group {
    /// The name it gives the object (`Some(None)`: no name); `None` for the
    /// chunk's first group, which starts no object.
    name: Option<Option<String>>,
    /// Its first face in [`Chunk::faces`].
    first_face: usize,
}

/// Where and why reading a [`Chunk`] stopped.
struct Stop {
    line: usize,
    message: String,
    /// The chunk's vertices read before the line.
    vertices: usize,
}

/// A chunk's faces triangulated (the second pass of [`parse`]).
struct Triangulated {
    /// Each group's triangles, as indices into the file's vertices.
    triangles: Vec<Vec<[u32; 3]>>,
    /// The work budget left after its last face.
    budget_left: usize,
    /// Whether a face left no budget (it may have been fanned for want of
    /// it, which a larger budget would not have done).
    ran_out: bool,
}

impl Chunk {
    /// Reads the lines of `text` (whole lines, never starting inside a `\`
    /// continuation), up to the first error.
    fn read(text: &str) -> Chunk {
        let mut c = Chunk {
            groups: vec![Group {
                name: None,
                first_face: 0,
            }],
            ..Chunk::default()
        };
        let mut pending = String::new();
        for (number, raw) in text.lines().enumerate() {
            c.lines = number + 1;
            // `\` at the end of a line continues the statement on the next one.
            if let Some(head) = raw.strip_suffix('\\') {
                pending.push_str(head);
                pending.push(' ');
                continue;
            }
            let line: Cow<str> = if pending.is_empty() {
                Cow::Borrowed(raw)
            } else {
                pending.push_str(raw);
                Cow::Owned(std::mem::take(&mut pending))
            };
            if let Err(message) = c.statement(&line, number) {
                c.stop = Some(Stop {
                    line: number,
                    message,
                    vertices: c.positions.len(),
                });
                break;
            }
        }
        c
    }

    /// Reads one statement, on line `number` of the chunk.
    fn statement(&mut self, line: &str, number: usize) -> Result<(), String> {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                let mut xyz = [0.0f64; 3];
                for c in &mut xyz {
                    let word = words
                        .next()
                        .ok_or_else(|| "vertex needs three coordinates".to_string())?;
                    *c = parse_number(word).ok_or_else(|| format!("'{word}' is not a number"))?;
                    if !c.is_finite() {
                        return Err(format!("non-finite vertex coordinate '{word}'"));
                    }
                }
                self.positions.push(Point3::from(xyz));
            }
            Some("f") => {
                let start = self.corners.len();
                for word in words {
                    self.corners.push(corner_index(word)?);
                }
                if self.corners.len() - start < 3 {
                    self.skipped += 1;
                }
                self.faces.push(Face {
                    corners_end: self.corners.len(),
                    line: number,
                    vertices: self.positions.len(),
                });
            }
            Some("l") | Some("p") => self.skipped += 1,
            Some("o") | Some("g") => {
                let name = line.trim_start()[1..].trim();
                self.groups.push(Group {
                    name: Some((!name.is_empty()).then(|| name.to_string())),
                    first_face: self.faces.len(),
                });
            }
            _ => {}
        }
        Ok(())
    }

    /// Resolves the corners of the chunk's faces against `positions` (the
    /// file's vertices; `vertices_before` of them before the chunk, whose
    /// first line is line `lines_before` of the file) and triangulates the
    /// faces of three corners or more, spending from `budget`. An error is
    /// the first corner out of range, among the faces and then the failed
    /// face's corners read before its error.
    fn triangulate(
        &self,
        positions: &[Point3<f64>],
        vertices_before: usize,
        lines_before: usize,
        mut budget: WorkBudget,
    ) -> Result<Triangulated, String> {
        // The corners of `face` (at line `line`, after `vertices` of the
        // chunk's vertices) as indices into `positions`, into `out`.
        let resolve_all = |out: &mut Vec<u32>, face: &[i64], vertices: usize, line: usize| {
            out.clear();
            for &i in face {
                let v = resolve(i, vertices_before + vertices)
                    .map_err(|m| line_error(lines_before + line, m))?;
                out.push(v);
            }
            Ok::<_, String>(())
        };
        let mut corners: Vec<u32> = Vec::new();
        let mut polygon: Vec<Point3<f64>> = Vec::new();
        let mut ran_out = false;
        let mut corner = 0;
        let mut triangles = Vec::with_capacity(self.groups.len());
        for (g, group) in self.groups.iter().enumerate() {
            let end = self
                .groups
                .get(g + 1)
                .map_or(self.faces.len(), |n| n.first_face);
            let mut out = Vec::new();
            for face in &self.faces[group.first_face..end] {
                let written = &self.corners[corner..face.corners_end];
                resolve_all(&mut corners, written, face.vertices, face.line)?;
                corner = face.corners_end;
                if corners.len() < 3 {
                    continue;
                }
                polygon.clear();
                polygon.extend(corners.iter().map(|&i| positions[i as usize]));
                out.extend(
                    triangulate_within(&polygon, &mut budget)
                        .into_iter()
                        .map(|t| t.map(|k| corners[k])),
                );
                ran_out |= budget.remaining() == 0;
            }
            triangles.push(out);
        }
        if let Some(stop) = &self.stop {
            resolve_all(
                &mut corners,
                &self.corners[corner..],
                stop.vertices,
                stop.line,
            )?;
        }
        Ok(Triangulated {
            triangles,
            budget_left: budget.remaining(),
            ran_out,
        })
    }
}

/// The position index of a face corner `v`, `v/vt`, `v//vn` or `v/vt/vn`,
/// as written: 1-based, or negative = relative to the vertices so far.
fn corner_index(word: &str) -> Result<i64, String> {
    let v = word.split('/').next().unwrap_or_default();
    v.parse()
        .map_err(|_| format!("face corner '{word}' has no integer vertex index"))
}

/// The 0-based vertex of corner index `i` ([`corner_index`]), given
/// `count` vertices read so far.
fn resolve(i: i64, count: usize) -> Result<u32, String> {
    let resolved = if i > 0 { i - 1 } else { count as i64 + i };
    if i == 0 || resolved < 0 || resolved >= count as i64 || resolved > u32::MAX as i64 {
        return Err(format!(
            "vertex index {i} out of range ({count} vertices defined so far)"
        ));
    }
    Ok(resolved as u32)
}

/// A number as Rust reads it (which accepts `2.`, `2.e1`, `+1`, `1E2`), or
/// with the exponent's sign misplaced before the `e` (`3.1+e2`, `3.1-e2`),
/// read as the author evidently meant: `3.1e+2`, `3.1e-2`.
///
/// `obj/assimp/number_formats.obj` has such numbers: `tobj` rejects the whole
/// file and assimp's `fast_atof` reads `3.1` and drops the rest; taking the
/// sign as the exponent's keeps the rows of that file consistent (`e+`, `e-`).
/// Anything else that is not a number is refused.
fn parse_number(word: &str) -> Option<f64> {
    if let Ok(x) = word.parse() {
        return Some(x);
    }
    let split = word.rfind(['+', '-'])?;
    let (mantissa, rest) = word.split_at(split);
    let (sign, exponent) = rest.split_at(1);
    let digits = exponent.strip_prefix(['e', 'E'])?;
    if mantissa.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.is_empty() {
        return None;
    }
    format!("{mantissa}e{sign}{digits}").parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_number("2."), Some(2.0));
        assert_eq!(parse_number("+2.e1"), Some(20.0));
        assert_eq!(parse_number("-2.e-1"), Some(-0.2));
        assert_eq!(parse_number("3.1+e2"), Some(310.0));
        assert_eq!(parse_number("-3.1-e2"), Some(-0.031));
        assert_eq!(parse_number("1E2"), Some(100.0));
        for bad in ["", "+", "e2", "+e2", "1,5", "3.1+e", "3.1+e2x", "x"] {
            assert_eq!(parse_number(bad), None, "{bad}");
        }
    }

    #[test]
    fn indices() {
        let index = |word: &str, count| corner_index(word).and_then(|i| resolve(i, count));
        assert_eq!(index("1", 3), Ok(0));
        assert_eq!(index("3/7/1", 3), Ok(2));
        assert_eq!(index("-1//2", 3), Ok(2));
        assert_eq!(index("-3", 3), Ok(0));
        for bad in ["0", "4", "-4", "", "/1", "a"] {
            assert!(index(bad, 3).is_err(), "{bad}");
        }
    }
}
