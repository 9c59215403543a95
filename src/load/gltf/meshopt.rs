//! `EXT_meshopt_compression` buffer views, decoded with the meshoptimizer
//! library: modes ATTRIBUTES (vertex codec), TRIANGLES (index-buffer codec)
//! and INDICES (index-sequence codec), then the filters NONE, OCTAHEDRAL,
//! QUATERNION, EXPONENTIAL and COLOR applied in place, as the extension
//! specifies.

use super::Msg;
use super::json::Meshopt;
use std::os::raw::c_void;

/// The best any meshopt codec compresses (the vertex codec's all-zero byte
/// groups: 16 bytes per 2 header bits is 64:1); a decoded size above twice
/// that, plus slack for headers, cannot come from these bytes, so the
/// output is never allocated from the JSON `count` alone.
const MAX_RATIO: u64 = 128;
const SLACK: u64 = 1 << 16;

/// Decodes one compressed view to `count * byteStride` bytes.
pub fn decode(m: &Meshopt, src: &[u8]) -> Result<Vec<u8>, Msg> {
    let stride = m.byte_stride;
    let size = m
        .count
        .checked_mul(stride)
        .filter(|&s| s <= (src.len() as u64).saturating_mul(MAX_RATIO) + SLACK)
        .ok_or_else(|| {
            format!(
                "EXT_meshopt_compression count {} x stride {stride} is implausible for {} compressed bytes",
                m.count,
                src.len()
            )
        })?;
    let count = m.count as usize;
    // u32 words keep the destination aligned for the 4-byte filters.
    let mut out = vec![0u32; (size as usize).div_ceil(4)];
    let dst = out.as_mut_ptr().cast::<c_void>();
    let code = match m.mode.as_str() {
        "ATTRIBUTES" => {
            if stride == 0 || !stride.is_multiple_of(4) || stride > 256 {
                return Err(format!(
                    "EXT_meshopt_compression ATTRIBUTES byteStride {stride} (must be a multiple of 4, at most 256)"
                ));
            }
            // SAFETY: `out` holds count * stride bytes; src is a valid slice.
            unsafe {
                meshopt::ffi::meshopt_decodeVertexBuffer(
                    dst,
                    count,
                    stride as usize,
                    src.as_ptr(),
                    src.len(),
                )
            }
        }
        "TRIANGLES" | "INDICES" => {
            if stride != 2 && stride != 4 {
                return Err(format!(
                    "EXT_meshopt_compression {} byteStride {stride} (must be 2 or 4)",
                    m.mode
                ));
            }
            if m.mode == "TRIANGLES" && !count.is_multiple_of(3) {
                return Err(format!(
                    "EXT_meshopt_compression TRIANGLES count {count} is not a multiple of 3"
                ));
            }
            // SAFETY: `out` holds count * stride bytes; src is a valid slice.
            unsafe {
                if m.mode == "TRIANGLES" {
                    meshopt::ffi::meshopt_decodeIndexBuffer(
                        dst,
                        count,
                        stride as usize,
                        src.as_ptr(),
                        src.len(),
                    )
                } else {
                    meshopt::ffi::meshopt_decodeIndexSequence(
                        dst,
                        count,
                        stride as usize,
                        src.as_ptr(),
                        src.len(),
                    )
                }
            }
        }
        other => return Err(format!("EXT_meshopt_compression mode '{other}' is unknown")),
    };
    if code != 0 {
        return Err(format!(
            "EXT_meshopt_compression data is corrupt (decoder code {code})"
        ));
    }
    let filter = m.filter.as_deref().unwrap_or("NONE");
    let filter_ok = match filter {
        "NONE" => true,
        "OCTAHEDRAL" => stride == 4 || stride == 8,
        "QUATERNION" => stride == 8,
        "EXPONENTIAL" | "COLOR" => true,
        _ => false,
    };
    if !filter_ok || (filter != "NONE" && m.mode != "ATTRIBUTES") {
        return Err(format!(
            "EXT_meshopt_compression filter '{filter}' with mode {} and byteStride {stride} is not allowed",
            m.mode
        ));
    }
    let s = stride as usize;
    // SAFETY: each filter walks `count` elements of `stride` bytes inside `out`,
    // and the stride was checked against what the filter expects above.
    unsafe {
        match filter {
            "OCTAHEDRAL" => meshopt::ffi::meshopt_decodeFilterOct(dst, count, s),
            "QUATERNION" => meshopt::ffi::meshopt_decodeFilterQuat(dst, count, s),
            "EXPONENTIAL" => meshopt::ffi::meshopt_decodeFilterExp(dst, count, s),
            "COLOR" => meshopt::ffi::meshopt_decodeFilterColor(dst, count, s),
            _ => {}
        }
    }
    let mut bytes: Vec<u8> = out.iter().flat_map(|w| w.to_ne_bytes()).collect();
    bytes.truncate(size as usize);
    Ok(bytes)
}
