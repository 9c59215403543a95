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

use super::triangulate::{WorkBudget, triangulate_within};
use crate::error::{Error, Result};
use crate::mesh::{Format, Geometry, MeshInstance, Scene};
use nalgebra::Point3;
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
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Scene> {
    let text = decode_text(bytes).map_err(|m| Error::load(path, m))?;
    let parsed = parse(&text).map_err(|m| Error::load(path, m))?;
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
            let mut used: Vec<u32> = obj.triangles.iter().flatten().copied().collect();
            used.sort_unstable();
            used.dedup();
            for (k, &g) in used.iter().enumerate() {
                local[g as usize] = k as u32;
            }
            let geometry = Geometry {
                positions: used.iter().map(|&g| self.positions[g as usize]).collect(),
                triangles: obj
                    .triangles
                    .iter()
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

/// Reads the statements of the file; errors are `line N: what`.
fn parse(text: &str) -> Result<Parsed, String> {
    let mut out = Parsed::default();
    let mut current = Object::default();
    let mut corners: Vec<u32> = Vec::new();
    let mut polygon: Vec<Point3<f64>> = Vec::new();
    let mut budget = WorkBudget::default();
    let mut pending = String::new();
    for (number, raw) in text.lines().enumerate() {
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
        let at = |msg: String| format!("line {}: {msg}", number + 1);
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                let mut xyz = [0.0f64; 3];
                for c in &mut xyz {
                    let word = words
                        .next()
                        .ok_or_else(|| at("vertex needs three coordinates".into()))?;
                    *c = parse_number(word)
                        .ok_or_else(|| at(format!("'{word}' is not a number")))?;
                    if !c.is_finite() {
                        return Err(at(format!("non-finite vertex coordinate '{word}'")));
                    }
                }
                out.positions.push(Point3::from(xyz));
            }
            Some("f") => {
                corners.clear();
                for word in words {
                    corners.push(position_index(word, out.positions.len()).map_err(at)?);
                }
                if corners.len() < 3 {
                    out.skipped += 1;
                    continue;
                }
                polygon.clear();
                polygon.extend(corners.iter().map(|&i| out.positions[i as usize]));
                current.triangles.extend(
                    triangulate_within(&polygon, &mut budget)
                        .into_iter()
                        .map(|t| t.map(|k| corners[k])),
                );
            }
            Some("l") | Some("p") => out.skipped += 1,
            Some("o") | Some("g") => {
                let name = line.trim_start()[1..].trim();
                let name = (!name.is_empty()).then(|| name.to_string());
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
            _ => {}
        }
    }
    if !current.triangles.is_empty() {
        out.objects.push(current);
    }
    Ok(out)
}

/// The 0-based position index of a face corner `v`, `v/vt`, `v//vn` or
/// `v/vt/vn`, given `count` vertices read so far.
fn position_index(word: &str, count: usize) -> Result<u32, String> {
    let v = word.split('/').next().unwrap_or_default();
    let i: i64 = v
        .parse()
        .map_err(|_| format!("face corner '{word}' has no integer vertex index"))?;
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
        assert_eq!(position_index("1", 3), Ok(0));
        assert_eq!(position_index("3/7/1", 3), Ok(2));
        assert_eq!(position_index("-1//2", 3), Ok(2));
        assert_eq!(position_index("-3", 3), Ok(0));
        for bad in ["0", "4", "-4", "", "/1", "a"] {
            assert!(position_index(bad, 3).is_err(), "{bad}");
        }
    }
}
