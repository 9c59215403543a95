//! Accessor decoding: strided (interleaved) buffer views, every component
//! type, `normalized` integers dequantized exactly as the glTF spec says
//! (signed: `max(c / (2^(b-1) - 1), -1)`, unsigned: `c / (2^b - 1)`; not
//! normalized: the plain integer value, as `KHR_mesh_quantization` wants),
//! and sparse substitution (with or without a base buffer view).
//!
//! Every range is checked against the bytes present, and every `count`
//! against the document's decoding budget ([`Buffers::charge`]), before
//! anything is allocated from it.

use super::Msg;
use super::buffers::{Buffers, slice};
use super::json::{Accessor, Root};
use nalgebra::Point3;

/// Accessors without any buffer view are all zeros except their sparse
/// elements: their `count` has no bytes to be checked against, and the
/// zeros all mean the same thing, so at most this many (2^16) are accepted
/// beyond the sparse count.
pub const MAX_UNBACKED_ZEROS: u64 = 1 << 16;

const BYTE: u32 = 5120;
pub const UNSIGNED_BYTE: u32 = 5121;
const SHORT: u32 = 5122;
pub const UNSIGNED_SHORT: u32 = 5123;
const UNSIGNED_INT: u32 = 5125;
pub const FLOAT: u32 = 5126;

/// Size in bytes of one component of `component_type`.
fn component_size(component_type: u32) -> Option<usize> {
    match component_type {
        BYTE | UNSIGNED_BYTE => Some(1),
        SHORT | UNSIGNED_SHORT => Some(2),
        UNSIGNED_INT | FLOAT => Some(4),
        _ => None,
    }
}

/// Number of components of an accessor `type` this loader reads.
fn component_count(kind: &str) -> Option<usize> {
    match kind {
        "SCALAR" => Some(1),
        "VEC2" => Some(2),
        "VEC3" => Some(3),
        "VEC4" => Some(4),
        "MAT4" => Some(16),
        _ => None,
    }
}

/// One component at the start of `b`, as f64 (exact for every type).
fn component(b: &[u8], component_type: u32, normalized: bool) -> f64 {
    let v = match component_type {
        BYTE => b[0] as i8 as f64,
        UNSIGNED_BYTE => b[0] as f64,
        SHORT => i16::from_le_bytes([b[0], b[1]]) as f64,
        UNSIGNED_SHORT => u16::from_le_bytes([b[0], b[1]]) as f64,
        UNSIGNED_INT => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
        _ => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
    };
    if !normalized {
        return v;
    }
    match component_type {
        BYTE => (v / 127.0).max(-1.0),
        UNSIGNED_BYTE => v / 255.0,
        SHORT => (v / 32767.0).max(-1.0),
        UNSIGNED_SHORT => v / 65535.0,
        _ => v,
    }
}

/// Reads `count` elements of `n` components from `bytes` with `stride`.
fn read_strided(
    bytes: &[u8],
    count: usize,
    n: usize,
    stride: usize,
    component_type: u32,
    normalized: bool,
    out: &mut [f64],
) {
    let size = component_size(component_type).unwrap_or(4);
    for e in 0..count {
        for c in 0..n {
            out[e * n + c] = component(&bytes[e * stride + c * size..], component_type, normalized);
        }
    }
}

/// Bytes needed for `count` elements of `elem` bytes spaced `stride` apart.
fn span(count: u64, stride: u64, elem: u64) -> Option<u64> {
    if count == 0 {
        return Some(0);
    }
    (count - 1).checked_mul(stride)?.checked_add(elem)
}

/// The accessor's definition, or an error naming it.
pub fn get(root: &Root, i: u32) -> Result<&Accessor, Msg> {
    root.accessors
        .get(i as usize)
        .ok_or_else(|| format!("accessor {i} does not exist"))
}

/// Every component of accessor `i`, element-major, as f64 (normalized
/// integers mapped to [-1, 1] or [0, 1]), with sparse values substituted.
/// Returns the values and the number of components per element.
pub fn read(root: &Root, bufs: &Buffers, i: u32) -> Result<(Vec<f64>, usize), Msg> {
    let a = get(root, i)?;
    let size = component_size(a.component_type).ok_or_else(|| {
        format!(
            "accessor {i}: componentType {} is invalid",
            a.component_type
        )
    })?;
    let n = component_count(&a.kind)
        .ok_or_else(|| format!("accessor {i}: type '{}' is not read by this loader", a.kind))?;
    if n == 16 && a.component_type != FLOAT {
        // Byte and short matrices pad their columns, which is not read.
        return Err(format!("accessor {i}: a MAT4 must be of FLOAT"));
    }
    let elem = (size * n) as u64;
    bufs.charge(a.count)
        .map_err(|e| format!("accessor {i}: {e}"))?;
    let mut values;
    if let Some(v) = a.buffer_view {
        let view = bufs.view(v).map_err(|e| format!("accessor {i}: {e}"))?;
        let stride = match root.buffer_views[v as usize].byte_stride {
            Some(s) if s < elem => {
                return Err(format!(
                    "accessor {i}: byteStride {s} is smaller than its {elem}-byte elements"
                ));
            }
            Some(s) => s,
            None => elem,
        };
        let bytes = span(a.count, stride, elem)
            .and_then(|len| slice(view, a.byte_offset, len))
            .ok_or_else(|| {
                format!(
                    "accessor {i} ({} x {elem} bytes at offset {}, stride {stride}) lies outside bufferView {v} ({} bytes)",
                    a.count,
                    a.byte_offset,
                    view.len()
                )
            })?;
        values = vec![0.0; a.count as usize * n];
        read_strided(
            bytes,
            a.count as usize,
            n,
            stride as usize,
            a.component_type,
            a.normalized,
            &mut values,
        );
    } else {
        let sparse = a.sparse.as_ref().map_or(0, |s| s.count);
        if a.count > sparse.saturating_add(MAX_UNBACKED_ZEROS) {
            return Err(format!(
                "accessor {i}: count {} without a bufferView is more than its {sparse} sparse elements plus {MAX_UNBACKED_ZEROS} zeros",
                a.count
            ));
        }
        values = vec![0.0; a.count as usize * n];
    }
    if let Some(sp) = &a.sparse {
        if sp.count > a.count {
            return Err(format!(
                "accessor {i}: sparse count {} exceeds count {}",
                sp.count, a.count
            ));
        }
        let k = sp.count as usize;
        let isize = match sp.indices.component_type {
            UNSIGNED_BYTE | UNSIGNED_SHORT | UNSIGNED_INT => {
                component_size(sp.indices.component_type).unwrap_or(4)
            }
            t => {
                return Err(format!(
                    "accessor {i}: sparse indices componentType {t} is invalid"
                ));
            }
        };
        let ibytes = bufs
            .view(sp.indices.buffer_view)
            .ok()
            .and_then(|v| slice(v, sp.indices.byte_offset, sp.count * isize as u64))
            .ok_or_else(|| {
                format!("accessor {i}: sparse indices missing or out of their bufferView")
            })?;
        let vbytes = bufs
            .view(sp.values.buffer_view)
            .ok()
            .and_then(|v| slice(v, sp.values.byte_offset, sp.count * elem))
            .ok_or_else(|| {
                format!("accessor {i}: sparse values missing or out of their bufferView")
            })?;
        let mut idx = vec![0.0; k];
        read_strided(
            ibytes,
            k,
            1,
            isize,
            sp.indices.component_type,
            false,
            &mut idx,
        );
        let mut vals = vec![0.0; k * n];
        read_strided(
            vbytes,
            k,
            n,
            elem as usize,
            a.component_type,
            a.normalized,
            &mut vals,
        );
        let mut previous = -1.0;
        for (j, &target) in idx.iter().enumerate() {
            if target <= previous || target >= a.count as f64 {
                return Err(format!(
                    "accessor {i}: sparse index {target} is out of range or not increasing"
                ));
            }
            previous = target;
            let t = target as usize;
            values[t * n..t * n + n].copy_from_slice(&vals[j * n..j * n + n]);
        }
    }
    Ok((values, n))
}

/// The POSITION accessor: VEC3 of float, or (with `KHR_mesh_quantization`)
/// of byte/short, normalized or not. Every value must be finite.
pub fn positions(
    root: &Root,
    bufs: &Buffers,
    i: u32,
    quantized_ok: bool,
) -> Result<Vec<Point3<f64>>, Msg> {
    let a = get(root, i)?;
    let ct_ok = match a.component_type {
        FLOAT => !a.normalized,
        BYTE | UNSIGNED_BYTE | SHORT | UNSIGNED_SHORT => quantized_ok,
        _ => false,
    };
    if a.kind != "VEC3" || !ct_ok {
        return Err(format!(
            "POSITION accessor {i}: type {} / componentType {}{} is not allowed{}",
            a.kind,
            a.component_type,
            if a.normalized { " normalized" } else { "" },
            if quantized_ok {
                ""
            } else {
                " (integer positions need KHR_mesh_quantization)"
            }
        ));
    }
    let (v, _) = read(root, bufs, i)?;
    if let Some(k) = v.iter().position(|x| !x.is_finite()) {
        return Err(format!(
            "POSITION accessor {i}: vertex {} is not finite",
            k / 3
        ));
    }
    Ok(v.chunks_exact(3)
        .map(|c| Point3::new(c[0], c[1], c[2]))
        .collect())
}

/// An index accessor: SCALAR of unsigned byte/short/int, not normalized,
/// never holding the primitive-restart value (the type's maximum), and
/// every index below `vertex_count`.
pub fn indices(root: &Root, bufs: &Buffers, i: u32, vertex_count: usize) -> Result<Vec<u32>, Msg> {
    let a = get(root, i)?;
    let restart = match a.component_type {
        UNSIGNED_BYTE => u8::MAX as u32,
        UNSIGNED_SHORT => u16::MAX as u32,
        UNSIGNED_INT => u32::MAX,
        t => {
            return Err(format!(
                "index accessor {i}: componentType {t} is not an unsigned integer type"
            ));
        }
    };
    if a.kind != "SCALAR" || a.normalized {
        return Err(format!(
            "index accessor {i}: must be a SCALAR, not normalized"
        ));
    }
    let (v, _) = read(root, bufs, i)?;
    let out: Vec<u32> = v.into_iter().map(|x| x as u32).collect();
    if let Some(k) = out.iter().position(|&x| x == restart) {
        return Err(format!(
            "index accessor {i}: index {k} holds the primitive-restart value {restart}"
        ));
    }
    if let Some(&bad) = out.iter().find(|&&x| x as usize >= vertex_count) {
        return Err(format!(
            "index accessor {i}: index {bad} is out of range ({vertex_count} vertices)"
        ));
    }
    Ok(out)
}
