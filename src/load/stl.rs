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

use super::chunks;
use super::obj::decode_text;
use crate::error::{Error, Result};
use crate::mesh::{Format, Geometry, MeshInstance, Scene};
use nalgebra::Point3;
use rayon::prelude::*;
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
///
/// Binary records are decoded in parallel, ASCII text in chunks of about
/// `chunk_bytes` ([`read_ascii`]); the scene and the errors do not depend
/// on the chunk size.
pub fn from_bytes(path: &Path, bytes: &[u8], chunk_bytes: usize) -> Result<Scene> {
    let solids = read_solids(bytes, chunk_bytes).map_err(|m| Error::load(path, m))?;
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
fn read_solids(bytes: &[u8], chunk_bytes: usize) -> Result<Vec<Solid>, String> {
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
        return read_ascii(&text, chunk_bytes).map_err(|m| {
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

/// Binary triangle records (the caller checked the length is 50·n),
/// decoded in parallel; the error names the first triangle with a
/// non-finite coordinate.
fn read_binary(records: &[u8]) -> Result<Solid, String> {
    let triangles: Vec<[Point3<f64>; 3]> = records
        .par_chunks_exact(RECORD)
        .map(|rec| {
            std::array::from_fn(|v| {
                Point3::from(std::array::from_fn(|c| {
                    let at = 12 + 12 * v + 4 * c;
                    f32::from_le_bytes([rec[at], rec[at + 1], rec[at + 2], rec[at + 3]]) as f64
                }))
            })
        })
        .collect();
    let finite = |t: &[Point3<f64>; 3]| t.iter().all(|p| p.iter().all(|x| x.is_finite()));
    if let Some(t) = triangles.par_iter().position_first(|t| !finite(t)) {
        return Err(format!("triangle {t}: non-finite vertex coordinate"));
    }
    Ok(Solid {
        name: None,
        positions: triangles.into_flattened(),
    })
}

/// ASCII statements: `solid [name]`, `facet normal …`, `outer loop`,
/// `vertex x y z` (three per loop), `endloop`, `endfacet`, `endsolid`.
/// Keywords in any case. Several solids may follow each other; a facet outside any `solid` or a
/// missing `endsolid` at the end of the file is tolerated.
///
/// Read in chunks of about `chunk_bytes` in parallel, each starting at an
/// `outer` line (which resets the state of a facet, so a chunk reads as it
/// would in the whole file), then joined in order: a chunk's solid lines
/// and facets are replayed, so facets before a chunk's first `solid` go to
/// the solid left open (or a new unnamed one), and the error is the first
/// in file order.
fn read_ascii(text: &str, chunk_bytes: usize) -> Result<Vec<Solid>, String> {
    let pieces = chunks::cut(text, chunk_bytes, |_, line| {
        line.split_whitespace()
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("outer"))
    });
    let read: Vec<Result<AsciiChunk, (usize, String)>> =
        pieces.par_iter().map(|t| read_ascii_chunk(t)).collect();
    let mut solids: Vec<Solid> = Vec::new();
    let mut open = false;
    let mut lines_before = 0;
    let mut in_loop = false;
    for chunk in read {
        let chunk = chunk.map_err(|(line, m)| format!("line {}: {m}", lines_before + line + 1))?;
        lines_before += chunk.lines;
        for event in chunk.events {
            match event {
                Event::Solid(name) => {
                    solids.push(Solid {
                        name,
                        positions: Vec::new(),
                    });
                    open = true;
                }
                Event::EndSolid => open = false,
                Event::Facets(mut positions) => {
                    if !open {
                        solids.push(Solid::default());
                        open = true;
                    }
                    if let Some(solid) = solids.last_mut() {
                        solid.positions.append(&mut positions);
                    }
                }
            }
        }
        // Only the last chunk's counts: the next chunk's `outer` line
        // starts a facet afresh, as it does in a single pass.
        in_loop = chunk.in_loop;
    }
    if in_loop {
        return Err("unexpected end of file inside a facet".into());
    }
    Ok(solids)
}

/// What a chunk of an ASCII STL file says, in order.
enum Event {
    /// A `solid` line and its name.
    Solid(Option<String>),
    /// An `endsolid` line.
    EndSolid,
    /// Facets in a row, three positions each.
    Facets(Vec<Point3<f64>>),
}

/// A chunk of an ASCII STL file, read.
struct AsciiChunk {
    lines: usize,
    events: Vec<Event>,
    /// Whether it ends inside a facet (an error at the end of the file;
    /// the next chunk's first line starts a facet afresh).
    in_loop: bool,
}

/// Reads the lines of one chunk (starting at the file's start or at an
/// `outer` line); an error is its line in the chunk and what is wrong.
fn read_ascii_chunk(text: &str) -> Result<AsciiChunk, (usize, String)> {
    let mut events: Vec<Event> = Vec::new();
    let mut corners: Vec<Point3<f64>> = Vec::with_capacity(3);
    let mut in_loop = false;
    let mut lines = 0;
    for (number, line) in text.lines().enumerate() {
        lines = number + 1;
        let at = |msg: String| (number, msg);
        let mut words = line.split_whitespace();
        let Some(keyword) = words.next() else {
            continue;
        };
        // Keywords are matched case-insensitively: some exporters shout.
        match keyword.to_ascii_lowercase().as_str() {
            "solid" => {
                let name = line.trim_start()["solid".len()..].trim();
                events.push(Event::Solid((!name.is_empty()).then(|| name.to_string())));
            }
            "endsolid" => events.push(Event::EndSolid),
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
                match events.last_mut() {
                    Some(Event::Facets(positions)) => positions.append(&mut corners),
                    _ => events.push(Event::Facets(std::mem::take(&mut corners))),
                }
                in_loop = false;
            }
            other => return Err(at(format!("unexpected '{}'", truncate(other)))),
        }
    }
    Ok(AsciiChunk {
        lines,
        events,
        in_loop,
    })
}

/// At most 20 characters of `word`, for error messages about binary junk.
fn truncate(word: &str) -> String {
    word.chars().take(20).filter(|c| !c.is_control()).collect()
}
