//! The file container: a `.gltf` JSON text or a `.glb` binary (12-byte
//! header, a JSON chunk and an optional BIN chunk), told apart by the magic
//! bytes rather than the extension. Every chunk length is checked against
//! the bytes actually present before it is used.

use super::Msg;

const GLB_MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// The JSON text and, for `.glb`, the BIN chunk.
pub struct Container<'a> {
    /// The glTF JSON.
    pub json: &'a [u8],
    /// The GLB BIN chunk (buffer 0 without a URI), if any.
    pub bin: Option<&'a [u8]>,
    /// True for the binary container.
    pub is_glb: bool,
}

/// Splits file bytes into JSON and BIN chunk.
pub fn split(bytes: &[u8]) -> Result<Container<'_>, Msg> {
    if bytes.len() < 4 || &bytes[..4] != GLB_MAGIC {
        return Ok(Container {
            json: bytes,
            bin: None,
            is_glb: false,
        });
    }
    let word = |at: usize| -> Option<u32> {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let (Some(version), Some(length)) = (word(4), word(8)) else {
        return Err("GLB header truncated (shorter than 12 bytes)".into());
    };
    if version != 2 {
        return Err(format!(
            "GLB container version {version} (only 2 is supported)"
        ));
    }
    let length = length as usize;
    if length > bytes.len() {
        return Err(format!(
            "GLB header says {length} bytes but the file has {}",
            bytes.len()
        ));
    }
    let mut at = 12;
    let mut json = None;
    let mut bin = None;
    while at < length {
        let (Some(chunk_len), Some(kind)) = (word(at), word(at + 4)) else {
            return Err(format!("GLB chunk header at byte {at} truncated"));
        };
        let start = at + 8;
        let end = start
            .checked_add(chunk_len as usize)
            .filter(|&e| e <= length)
            .ok_or_else(|| {
                format!("GLB chunk at byte {at} claims {chunk_len} bytes, past the end ({length})")
            })?;
        let data = &bytes[start..end];
        match kind {
            CHUNK_JSON if json.is_none() && at == 12 => json = Some(data),
            CHUNK_JSON => return Err("GLB has a misplaced or second JSON chunk".into()),
            CHUNK_BIN if bin.is_none() && json.is_some() => bin = Some(data),
            CHUNK_BIN => return Err("GLB has a misplaced or second BIN chunk".into()),
            _ => {} // unknown chunk types are skipped, as the spec asks
        }
        at = end;
    }
    let json = json.ok_or("GLB has no JSON chunk")?;
    Ok(Container {
        json,
        bin,
        is_glb: true,
    })
}
