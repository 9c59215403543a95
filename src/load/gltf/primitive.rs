//! One mesh primitive turned into [`Geometry`]: POSITION and indices read
//! and validated, and TRIANGLES / TRIANGLE_STRIP / TRIANGLE_FAN assembled
//! into triangles exactly as the glTF spec numbers them (degenerate
//! triangles kept, so a strip or fan of n vertices gives n - 2 triangles).

use super::buffers::Buffers;
use super::json::{Primitive, Root};
use super::{Msg, accessor, draco};
use crate::mesh::Geometry;

const POINTS: u32 = 0;
const TRIANGLES: u32 = 4;
const TRIANGLE_STRIP: u32 = 5;
const TRIANGLE_FAN: u32 = 6;

/// The geometry of a primitive: triangles for TRIANGLES, TRIANGLE_STRIP and
/// TRIANGLE_FAN; for POINTS the points it draws (each indexed position
/// once, in index order) and no triangles, a point set the commands that bound
/// points can fit; `None` for LINES, LINE_LOOP and LINE_STRIP, which are
/// still read and validated.
pub fn geometry(root: &Root, bufs: &Buffers, p: &Primitive) -> Result<Option<Geometry>, Msg> {
    if p.mode > TRIANGLE_FAN {
        return Err(format!("primitive mode {} is invalid", p.mode));
    }
    let pos = *p
        .attributes
        .get("POSITION")
        .ok_or("primitive has no POSITION attribute")?;
    if let Some(d) = p.extensions.as_ref().and_then(|e| e.draco.as_ref()) {
        let id = *d
            .attributes
            .get("POSITION")
            .ok_or("KHR_draco_mesh_compression has no POSITION attribute")?;
        // The stream is charged and bounded by what the primitive's
        // accessors declare, before it is decoded.
        let points = accessor::get(root, pos)?.count;
        let count = match p.indices {
            Some(i) => accessor::get(root, i)?.count,
            None => points,
        };
        bufs.charge(points.saturating_add(p.indices.map_or(0, |_| count)))
            .map_err(|e| format!("KHR_draco_mesh_compression: {e}"))?;
        let faces = if p.mode >= TRIANGLES {
            declared_triangles(p.mode, count)
        } else {
            count
        };
        let mesh = bufs.draco(d.buffer_view, faces, points)?;
        let (positions, triangles) = draco::geometry(&mesh, id, points, faces)?;
        // Draco always stores triangle faces, whatever strip order the
        // uncompressed accessors had; a point cloud has none.
        if p.mode == POINTS {
            return Ok(Some(Geometry {
                positions,
                triangles: Vec::new(),
            }));
        }
        if p.mode < TRIANGLES {
            return Ok(None);
        }
        return Ok(Some(Geometry {
            positions,
            triangles,
        }));
    }
    let quantized_ok = root
        .extensions_used
        .iter()
        .any(|e| e == "KHR_mesh_quantization");
    let positions = accessor::positions(root, bufs, pos, quantized_ok)?;
    let indices = match p.indices {
        Some(i) => accessor::indices(root, bufs, i, positions.len())?,
        None => (0..positions.len() as u32).collect(),
    };
    if p.mode == POINTS {
        // Each drawn point once (a repeated index draws the same point), so
        // the geometry is never larger than the POSITION accessor.
        let mut drawn = indices;
        drawn.sort_unstable();
        drawn.dedup();
        return Ok(Some(Geometry {
            positions: drawn.iter().map(|&i| positions[i as usize]).collect(),
            triangles: Vec::new(),
        }));
    }
    if p.mode < TRIANGLES {
        return Ok(None);
    }
    let triangles = assemble(p.mode, &indices)?;
    Ok(Some(Geometry {
        positions,
        triangles,
    }))
}

/// The triangles a primitive of `mode` draws from `count` vertices (its
/// index count, else its POSITION count), known before anything is read:
/// TRIANGLES `count / 3`, TRIANGLE_STRIP and TRIANGLE_FAN `count − 2`, 0
/// for the point and line modes.
pub fn declared_triangles(mode: u32, count: u64) -> u64 {
    match mode {
        TRIANGLES => count / 3,
        TRIANGLE_STRIP | TRIANGLE_FAN => count.saturating_sub(2),
        _ => 0,
    }
}

/// Triangles of a TRIANGLES, TRIANGLE_STRIP or TRIANGLE_FAN index list.
/// Strip triangle i is (v_i, v_{i+1+i%2}, v_{i+2-i%2}); fan triangle i is
/// (v_{i+1}, v_{i+2}, v_0), as in the glTF 2.0 spec, section 3.7.2.1.
pub fn assemble(mode: u32, v: &[u32]) -> Result<Vec<[u32; 3]>, Msg> {
    match mode {
        TRIANGLES => {
            if !v.len().is_multiple_of(3) {
                return Err(format!(
                    "TRIANGLES primitive has {} vertices, not a multiple of 3",
                    v.len()
                ));
            }
            Ok(v.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect())
        }
        TRIANGLE_STRIP => Ok((0..v.len().saturating_sub(2))
            .map(|i| [v[i], v[i + 1 + i % 2], v[i + 2 - i % 2]])
            .collect()),
        TRIANGLE_FAN => Ok((0..v.len().saturating_sub(2))
            .map(|i| [v[i + 1], v[i + 2], v[0]])
            .collect()),
        m => Err(format!("primitive mode {m} is not a triangle mode")),
    }
}
