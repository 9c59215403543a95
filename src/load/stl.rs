//! STL, ASCII and binary.
//!
//! Parsed here rather than with `stl_io`, which reads only the first solid of
//! an ASCII file and indexes (welds) the vertices.
//!
//! Binary or ASCII is decided by size first: a file of exactly
//! 84 + 50·n bytes, n being the count in its header, is binary even when its
//! 80-byte header begins with `solid` (many exporters write that). Otherwise
//! a file beginning with `solid` and free of NUL bytes is ASCII, and anything
//! else is refused, so a triangle count that does not fit the file is an
//! error, never an allocation.
//!
//! Vertices are kept unindexed: three per triangle, in file order, triangle
//! k = (3k, 3k+1, 3k+2) with the file's winding. Facet normals are ignored.

use super::obj::decode_text;
use crate::error::{Error, Result};
use crate::mesh::{Format, Geometry, MeshInstance, Scene};
use nalgebra::Point3;
use std::path::Path;

/// Bytes before the first binary triangle: 80-byte header, u32 count.
const HEADER: usize = 84;
/// Bytes per binary triangle: normal, three vertices (12 f32), u16 attribute.
const RECORD: usize = 50;

/// Reads the bytes of the STL file `path`: one [`crate::mesh::MeshInstance`] per solid that has
/// triangles (`mesh` = the solid's index in the file, counting empty ones;
/// binary files hold one solid), named by the `solid` line when it has a name.
///
/// Errors (one line, naming the file): a size that fits
/// neither format, a malformed ASCII statement (with its line number), a
/// facet without exactly three vertices, a non-finite coordinate.
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Scene> {
    let solids = read_solids(bytes).map_err(|m| Error::load(path, m))?;
    let instances = solids
        .into_iter()
        .enumerate()
        .filter(|(_, s)| !s.positions.is_empty())
        .map(|(k, s)| {
            let triangles = (0..s.positions.len() as u32 / 3)
                .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
                .collect();
            let geometry = Geometry {
                positions: s.positions,
                triangles,
            };
            MeshInstance::unplaced(k as u32, s.name, geometry)
        })
        .collect();
    Ok(Scene {
        path: path.to_path_buf(),
        format: Format::Stl,
        instances,
        skipped_primitives: 0,
        extensions: Vec::new(),
    })
}

/// One solid: its name and three positions per triangle.
#[derive(Default)]
struct Solid {
    name: Option<String>,
    positions: Vec<Point3<f64>>,
}

/// The solids of an STL file of either kind.
fn read_solids(bytes: &[u8]) -> Result<Vec<Solid>, String> {
    let count = bytes
        .get(80..HEADER)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as u64);
    if let Some(n) = count
        && HEADER as u64 + RECORD as u64 * n == bytes.len() as u64
    {
        return read_binary(&bytes[HEADER..]).map(|s| vec![s]);
    }
    // NUL bytes mark a binary file whose header merely begins with `solid`.
    let start = bytes.trim_ascii_start();
    if start.len() >= 5 && start[..5].eq_ignore_ascii_case(b"solid") && !bytes.contains(&0) {
        let text = decode_text(bytes)?;
        return read_ascii(&text).map_err(|m| {
            format!("{m} (read as ASCII STL: the size does not fit a binary STL's count)")
        });
    }
    Err(match count {
        None => format!(
            "not an STL file: {} bytes, too short for binary and no 'solid' keyword",
            bytes.len()
        ),
        Some(n) => format!(
            "binary STL header says {n} triangles ({} bytes) but the file has {} bytes",
            HEADER as u64 + RECORD as u64 * n,
            bytes.len()
        ),
    })
}

/// Binary triangle records (the caller checked the length is 50·n).
fn read_binary(records: &[u8]) -> Result<Solid, String> {
    let mut positions = Vec::with_capacity(records.len() / RECORD * 3);
    for (t, rec) in records.chunks_exact(RECORD).enumerate() {
        for v in 0..3 {
            let xyz: [f64; 3] = std::array::from_fn(|c| {
                let at = 12 + 12 * v + 4 * c;
                f32::from_le_bytes([rec[at], rec[at + 1], rec[at + 2], rec[at + 3]]) as f64
            });
            if xyz.iter().any(|x| !x.is_finite()) {
                return Err(format!("triangle {t}: non-finite vertex coordinate"));
            }
            positions.push(Point3::from(xyz));
        }
    }
    Ok(Solid {
        name: None,
        positions,
    })
}

/// ASCII statements: `solid [name]`, `facet normal …`, `outer loop`,
/// `vertex x y z` (three per loop), `endloop`, `endfacet`, `endsolid`.
/// Keywords in any case. Several solids may follow each other; a facet outside any `solid` or a
/// missing `endsolid` at the end of the file is tolerated.
fn read_ascii(text: &str) -> Result<Vec<Solid>, String> {
    let mut solids: Vec<Solid> = Vec::new();
    let mut open = false;
    let mut corners: Vec<Point3<f64>> = Vec::with_capacity(3);
    let mut in_loop = false;
    for (number, line) in text.lines().enumerate() {
        let at = |msg: String| format!("line {}: {msg}", number + 1);
        let mut words = line.split_whitespace();
        let Some(keyword) = words.next() else {
            continue;
        };
        // Keywords are matched case-insensitively: some exporters shout.
        match keyword.to_ascii_lowercase().as_str() {
            "solid" => {
                let name = line.trim_start()["solid".len()..].trim();
                solids.push(Solid {
                    name: (!name.is_empty()).then(|| name.to_string()),
                    positions: Vec::new(),
                });
                open = true;
            }
            "endsolid" => open = false,
            "facet" | "endfacet" => {}
            "outer" => {
                corners.clear();
                in_loop = true;
            }
            "vertex" => {
                if !in_loop {
                    return Err(at("'vertex' outside 'outer loop'".into()));
                }
                let mut xyz = [0.0f64; 3];
                for c in &mut xyz {
                    let word = words
                        .next()
                        .ok_or_else(|| at("vertex needs three coordinates".into()))?;
                    *c = word
                        .parse()
                        .map_err(|_| at(format!("'{word}' is not a number")))?;
                    if !c.is_finite() {
                        return Err(at(format!("non-finite vertex coordinate '{word}'")));
                    }
                }
                corners.push(Point3::from(xyz));
            }
            "endloop" => {
                if corners.len() != 3 {
                    return Err(at(format!(
                        "facet has {} vertices, expected 3",
                        corners.len()
                    )));
                }
                if !open {
                    solids.push(Solid::default());
                    open = true;
                }
                if let Some(solid) = solids.last_mut() {
                    solid.positions.append(&mut corners);
                }
                in_loop = false;
            }
            other => return Err(at(format!("unexpected '{}'", truncate(other)))),
        }
    }
    if in_loop {
        return Err("unexpected end of file inside a facet".into());
    }
    Ok(solids)
}

/// At most 20 characters of `word`, for error messages about binary junk.
fn truncate(word: &str) -> String {
    word.chars().take(20).filter(|c| !c.is_control()).collect()
}
