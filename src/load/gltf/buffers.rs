//! Buffer and buffer-view bytes: external files (percent-decoded URIs,
//! confined to the model's folder unless allowed), base64 `data:` URIs, the
//! GLB BIN chunk, and `EXT_meshopt_compression` views decoded on first use.
//! Buffers are read lazily, so a meshopt fallback buffer that has no data
//! and images (never read at all) do not stop a load.
//!
//! The document's decoding budget lives here too: accessors may decode at
//! most [`ELEMENTS_PER_BYTE`] elements per input byte (the JSON or GLB file
//! plus every buffer and decompressed view read), with a floor of
//! [`ELEMENTS_FLOOR`], so that many accessors reading one buffer view, or
//! many primitives reading one accessor, cannot multiply a small file into
//! gigabytes.

use super::json::Root;
use super::{Msg, meshopt};
use crate::load::confine::ModelFolder;
use std::cell::{Cell, OnceCell};
use std::path::Path;

/// Accessor elements decoded per input byte at most (a `u8` index is one
/// byte per element; 4 leaves room for primitives that share accessors).
pub const ELEMENTS_PER_BYTE: u64 = 4;
/// Accessor elements any document may decode, whatever its size: 2^22.
pub const ELEMENTS_FLOOR: u64 = 1 << 22;

/// Lazily loaded buffers and decoded views of one document.
pub struct Buffers<'a> {
    root: &'a Root,
    dir: &'a Path,
    bin: Option<&'a [u8]>,
    allow_external: bool,
    buffers: Vec<OnceCell<Vec<u8>>>,
    decoded_views: Vec<OnceCell<Vec<u8>>>,
    /// Bytes of input read so far (the file, buffers, decompressed views).
    input_bytes: Cell<u64>,
    /// Accessor elements decoded so far.
    decoded: Cell<u64>,
}

impl<'a> Buffers<'a> {
    /// Buffers of `root` (read from a file of `file_bytes` bytes), resolving
    /// URIs against `dir`.
    pub fn new(
        root: &'a Root,
        dir: &'a Path,
        bin: Option<&'a [u8]>,
        allow_external: bool,
        file_bytes: u64,
    ) -> Self {
        Buffers {
            root,
            dir,
            bin,
            allow_external,
            buffers: (0..root.buffers.len()).map(|_| OnceCell::new()).collect(),
            decoded_views: (0..root.buffer_views.len())
                .map(|_| OnceCell::new())
                .collect(),
            input_bytes: Cell::new(file_bytes),
            decoded: Cell::new(0),
        }
    }

    /// Accounts for decoding `elements` more accessor elements, or refuses
    /// when that would pass the budget (see the module documentation).
    pub fn charge(&self, elements: u64) -> Result<(), Msg> {
        let budget = ELEMENTS_FLOOR.max(self.input_bytes.get().saturating_mul(ELEMENTS_PER_BYTE));
        let total = self.decoded.get().saturating_add(elements);
        if total > budget {
            return Err(format!(
                "accessors would decode {total} elements, more than the {budget} allowed for {} bytes of input ({ELEMENTS_PER_BYTE} per byte, at least {ELEMENTS_FLOOR})",
                self.input_bytes.get()
            ));
        }
        self.decoded.set(total);
        Ok(())
    }

    /// The bytes of buffer `i`, exactly `byteLength` long.
    pub fn buffer(&self, i: u32) -> Result<&[u8], Msg> {
        let def = self
            .root
            .buffers
            .get(i as usize)
            .ok_or_else(|| format!("buffer {i} does not exist"))?;
        let cell = &self.buffers[i as usize];
        if let Some(b) = cell.get() {
            return Ok(b);
        }
        let mut data = match &def.uri {
            None if i == 0 => self
                .bin
                .ok_or("buffer 0 has no URI and there is no GLB BIN chunk")?
                .to_vec(),
            None => return Err(format!("buffer {i} has no URI and no data")),
            Some(uri) => self.read_uri(i, uri, def.byte_length)?,
        };
        let want = def.byte_length;
        if (data.len() as u64) < want {
            return Err(format!(
                "buffer {i} has {} bytes, byteLength says {want}",
                data.len()
            ));
        }
        data.truncate(want as usize);
        self.input_bytes
            .set(self.input_bytes.get().saturating_add(want));
        Ok(cell.get_or_init(|| data))
    }

    /// Buffer `i`'s `uri`, at most `cap` bytes, through the one resolver of
    /// [`crate::load::confine`] (confined to the model's real folder unless
    /// allowed, regular files only).
    fn read_uri(&self, i: u32, uri: &str, cap: u64) -> Result<Vec<u8>, Msg> {
        ModelFolder::new(self.dir, self.allow_external)
            .read(uri, cap)
            .map_err(|e| format!("buffer {i}: {e}"))
    }

    /// The bytes of buffer view `i` (decompressed for meshopt views).
    pub fn view(&self, i: u32) -> Result<&[u8], Msg> {
        let def = self
            .root
            .buffer_views
            .get(i as usize)
            .ok_or_else(|| format!("bufferView {i} does not exist"))?;
        if let Some(m) = def.extensions.as_ref().and_then(|e| e.meshopt.as_ref()) {
            let cell = &self.decoded_views[i as usize];
            if let Some(b) = cell.get() {
                return Ok(b);
            }
            let src =
                slice(self.buffer(m.buffer)?, m.byte_offset, m.byte_length).ok_or_else(|| {
                    format!(
                        "bufferView {i}: meshopt data lies outside buffer {}",
                        m.buffer
                    )
                })?;
            let data = meshopt::decode(m, src).map_err(|e| format!("bufferView {i}: {e}"))?;
            if (data.len() as u64) < def.byte_length {
                return Err(format!(
                    "bufferView {i}: meshopt decodes {} bytes, byteLength says {}",
                    data.len(),
                    def.byte_length
                ));
            }
            self.input_bytes
                .set(self.input_bytes.get().saturating_add(data.len() as u64));
            return Ok(cell.get_or_init(|| data));
        }
        slice(self.buffer(def.buffer)?, def.byte_offset, def.byte_length).ok_or_else(|| {
            format!(
                "bufferView {i} (offset {}, length {}) lies outside buffer {}",
                def.byte_offset, def.byte_length, def.buffer
            )
        })
    }
}

/// `bytes[offset..offset + len]`, or `None` when out of bounds.
pub fn slice(bytes: &[u8], offset: u64, len: u64) -> Option<&[u8]> {
    let end = offset.checked_add(len)?;
    if end > bytes.len() as u64 {
        return None;
    }
    Some(&bytes[offset as usize..end as usize])
}
