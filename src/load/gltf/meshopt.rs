//! `EXT_meshopt_compression` buffer views, decoded with the meshoptimizer
//! library: modes ATTRIBUTES (vertex codec), TRIANGLES (index-buffer codec)
//! and INDICES (index-sequence codec), then the filters NONE, OCTAHEDRAL,
//! QUATERNION, EXPONENTIAL and COLOR applied in place, as the extension
//! specifies. What the vendored C++ asserts is checked here first
//! ([`validate`]), so a hostile view is a one-line error in every build
//! (the C++ is also built with `NDEBUG`: `Cargo.toml`'s profiles).

use super::Msg;
use super::json::Meshopt;
use std::os::raw::c_void;

/// The best any meshopt codec compresses (the vertex codec's all-zero byte
/// groups: 16 bytes per 2 header bits is 64:1); a decoded size above twice
/// that, plus slack for headers, cannot come from these bytes, so the
/// output is never allocated from the JSON `count` alone.
const MAX_RATIO: u64 = 128;
const SLACK: u64 = 1 << 16;

/// Checks everything the meshoptimizer decoders assert (their assertions
/// are live in some builds and abort the process) and the size against the
/// compressed bytes, before anything is allocated: mode ATTRIBUTES with a
/// `byteStride` that is a multiple of 4 up to 256, TRIANGLES and INDICES
/// with 2 or 4 (TRIANGLES a `count` that is a multiple of 3), and each
/// filter only where the extension allows it (ATTRIBUTES; OCTAHEDRAL and
/// COLOR at stride 4 or 8, QUATERNION at 8, EXPONENTIAL at any). Returns
/// the decoded size, `count × byteStride` bytes.
pub fn validate(m: &Meshopt, src_len: usize) -> Result<u64, Msg> {
    let stride = m.byte_stride;
    let stride_ok = match m.mode.as_str() {
        "ATTRIBUTES" => stride > 0 && stride.is_multiple_of(4) && stride <= 256,
        "TRIANGLES" | "INDICES" => stride == 2 || stride == 4,
        other => return Err(format!("EXT_meshopt_compression mode '{other}' is unknown")),
    };
    if !stride_ok {
        return Err(format!(
            "EXT_meshopt_compression {} byteStride {stride} (ATTRIBUTES: a multiple of 4, at most 256; TRIANGLES, INDICES: 2 or 4)",
            m.mode
        ));
    }
    if m.mode == "TRIANGLES" && !m.count.is_multiple_of(3) {
        return Err(format!(
            "EXT_meshopt_compression TRIANGLES count {} is not a multiple of 3",
            m.count
        ));
    }
    let filter = m.filter.as_deref().unwrap_or("NONE");
    let filter_ok = match filter {
        "NONE" => true,
        "OCTAHEDRAL" | "COLOR" => stride == 4 || stride == 8,
        "QUATERNION" => stride == 8,
        "EXPONENTIAL" => true,
        _ => false,
    };
    if !filter_ok || (filter != "NONE" && m.mode != "ATTRIBUTES") {
        return Err(format!(
            "EXT_meshopt_compression filter '{filter}' with mode {} and byteStride {stride} is not allowed",
            m.mode
        ));
    }
    m.count
        .checked_mul(stride)
        .filter(|&s| s <= (src_len as u64).saturating_mul(MAX_RATIO) + SLACK)
        .ok_or_else(|| {
            format!(
                "EXT_meshopt_compression count {} x stride {stride} is implausible for {src_len} compressed bytes",
                m.count
            )
        })
}

/// Decodes one compressed view, which [`validate`] accepted as `size`
/// bytes, to `count * byteStride` bytes.
pub fn decode(m: &Meshopt, src: &[u8], size: u64) -> Result<Vec<u8>, Msg> {
    let stride = m.byte_stride as usize;
    let count = m.count as usize;
    // u32 words keep the destination aligned for the 4-byte filters.
    let mut out = vec![0u32; (size as usize).div_ceil(4)];
    let dst = out.as_mut_ptr().cast::<c_void>();
    // SAFETY: `out` holds count * stride bytes; src is a valid slice; the
    // mode, stride, count and filter are those `validate` accepted, which
    // are what each decoder and filter asserts.
    let code = unsafe {
        match m.mode.as_str() {
            "ATTRIBUTES" => meshopt::ffi::meshopt_decodeVertexBuffer(
                dst,
                count,
                stride,
                src.as_ptr(),
                src.len(),
            ),
            "TRIANGLES" => {
                meshopt::ffi::meshopt_decodeIndexBuffer(dst, count, stride, src.as_ptr(), src.len())
            }
            _ => meshopt::ffi::meshopt_decodeIndexSequence(
                dst,
                count,
                stride,
                src.as_ptr(),
                src.len(),
            ),
        }
    };
    if code != 0 {
        return Err(format!(
            "EXT_meshopt_compression data is corrupt (decoder code {code})"
        ));
    }
    // SAFETY: as above: each filter walks `count` elements of `stride`
    // bytes inside `out`, at a stride `validate` checked.
    unsafe {
        match m.filter.as_deref().unwrap_or("NONE") {
            "OCTAHEDRAL" => meshopt::ffi::meshopt_decodeFilterOct(dst, count, stride),
            "QUATERNION" => meshopt::ffi::meshopt_decodeFilterQuat(dst, count, stride),
            "EXPONENTIAL" => meshopt::ffi::meshopt_decodeFilterExp(dst, count, stride),
            "COLOR" => meshopt::ffi::meshopt_decodeFilterColor(dst, count, stride),
            _ => {}
        }
    }
    let mut bytes: Vec<u8> = out.iter().flat_map(|w| w.to_ne_bytes()).collect();
    bytes.truncate(size as usize);
    Ok(bytes)
}
