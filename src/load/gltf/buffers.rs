//! Buffer and buffer-view bytes: external files (percent-decoded URIs,
//! confined to the model's folder unless allowed), base64 `data:` URIs, the
//! GLB BIN chunk, `EXT_meshopt_compression` views and
//! `KHR_draco_mesh_compression` streams decoded on first use. Buffers are
//! read lazily, so a meshopt fallback buffer that has no data and images
//! (never read at all) do not stop a load.
//!
//! The document's decoding budgets live here too, both fixed by the *input*:
//! the file's bytes plus those of the external buffer files read (each at
//! most its `byteLength`). Nothing a decoder produces raises them.
//!
//! - Elements: accessors may decode at most [`ELEMENTS_PER_BYTE`] elements
//!   per input byte, with a floor of [`ELEMENTS_FLOOR`]; a Draco primitive
//!   is charged its declared POSITION and index counts before its stream is
//!   decoded. So many accessors reading one buffer view, or many primitives
//!   reading one accessor or one Draco stream, cannot multiply a small file
//!   into gigabytes.
//! - Decoded bytes: the decompressors may produce at most
//!   [`DECODED_BYTES_PER_BYTE`] bytes per input byte, with a floor of
//!   [`DECODED_BYTES_FLOOR`]; a meshopt view is charged its `count ×
//!   byteStride` before it is decoded, a Draco stream is decoded with the
//!   budget's remainder as the decoder's own ceiling and charged what it
//!   holds.
//! - A compressed stream is decoded once, however many views or primitives
//!   name it (the same bytes with the same parameters), and charged once.

use super::json::Root;
use super::{Msg, draco, meshopt};
use crate::load::confine::ModelFolder;
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;

/// Accessor elements decoded per input byte at most (a `u8` index is one
/// byte per element; 4 leaves room for primitives that share accessors).
pub const ELEMENTS_PER_BYTE: u64 = 4;
/// Accessor elements any document may decode, whatever its size: 2^22.
pub const ELEMENTS_FLOOR: u64 = 1 << 22;
/// Bytes the decompressors may produce per input byte at most (meshopt's
/// best ratio is 64:1; Draco's real files stay far below).
pub const DECODED_BYTES_PER_BYTE: u64 = 64;
/// Bytes the decompressors of any document may produce, whatever its size:
/// 2^26 (64 MiB).
pub const DECODED_BYTES_FLOOR: u64 = 1 << 26;

/// What identifies a meshopt stream's decoding: its bytes (address and
/// length in the loaded buffer) and the view's count, stride, mode and
/// filter.
type MeshoptKey = (usize, usize, u64, u64, String, Option<String>);

/// Lazily loaded buffers and decoded views of one document.
pub struct Buffers<'a> {
    root: &'a Root,
    dir: &'a Path,
    bin: Option<&'a [u8]>,
    allow_external: bool,
    buffers: Vec<OnceCell<Vec<u8>>>,
    decoded_views: Vec<OnceCell<Rc<[u8]>>>,
    /// Decoded meshopt streams, shared by the views that name them.
    meshopt_streams: RefCell<HashMap<MeshoptKey, Rc<[u8]>>>,
    /// Decoded Draco streams by their bytes' address and length.
    draco_streams: RefCell<HashMap<(usize, usize), Rc<draco_core::Mesh>>>,
    /// Bytes of input read so far (the file, external buffer files).
    input_bytes: Cell<u64>,
    /// Accessor elements decoded so far.
    decoded: Cell<u64>,
    /// Bytes the decompressors produced so far.
    decoded_bytes: Cell<u64>,
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
            meshopt_streams: RefCell::default(),
            draco_streams: RefCell::default(),
            input_bytes: Cell::new(file_bytes),
            decoded: Cell::new(0),
            decoded_bytes: Cell::new(0),
        }
    }

    /// The decoded-bytes budget left (see the module documentation).
    fn bytes_left(&self) -> u64 {
        let budget = DECODED_BYTES_FLOOR.max(
            self.input_bytes
                .get()
                .saturating_mul(DECODED_BYTES_PER_BYTE),
        );
        budget.saturating_sub(self.decoded_bytes.get())
    }

    /// Accounts for `bytes` more decompressed bytes of `what`, or refuses
    /// when that would pass the budget.
    fn charge_bytes(&self, bytes: u64, what: &str) -> Result<(), Msg> {
        if bytes > self.bytes_left() {
            return Err(format!(
                "{what} would decompress {bytes} bytes, past the {} left of the budget for {} bytes of input ({DECODED_BYTES_PER_BYTE} per byte, at least {DECODED_BYTES_FLOOR})",
                self.bytes_left(),
                self.input_bytes.get()
            ));
        }
        self.decoded_bytes
            .set(self.decoded_bytes.get().saturating_add(bytes));
        Ok(())
    }

    /// The decoded Draco stream of buffer view `view`, decoded once for
    /// every primitive naming the same bytes: at most `max_faces` faces
    /// (`max_points` points for a point cloud) and the decoded-bytes
    /// budget's remainder, charged what it holds.
    pub fn draco(
        &self,
        view: u32,
        max_faces: u64,
        max_points: u64,
    ) -> Result<Rc<draco_core::Mesh>, Msg> {
        let bytes = self.view(view)?;
        let key = (bytes.as_ptr() as usize, bytes.len());
        if let Some(m) = self.draco_streams.borrow().get(&key) {
            return Ok(Rc::clone(m));
        }
        let mesh = draco::stream(bytes, max_faces, max_points, self.bytes_left())?;
        self.charge_bytes(draco::held_bytes(&mesh), "KHR_draco_mesh_compression")?;
        let mesh = Rc::new(mesh);
        self.draco_streams
            .borrow_mut()
            .insert(key, Rc::clone(&mesh));
        Ok(mesh)
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
        // Only an external file adds to the input: the BIN chunk and data
        // URIs are bytes of the file itself.
        if def.uri.as_deref().is_some_and(|u| !u.starts_with("data:")) {
            self.input_bytes
                .set(self.input_bytes.get().saturating_add(want));
        }
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
            let size =
                meshopt::validate(m, src.len()).map_err(|e| format!("bufferView {i}: {e}"))?;
            if size < def.byte_length {
                return Err(format!(
                    "bufferView {i}: meshopt decodes {size} bytes, byteLength says {}",
                    def.byte_length
                ));
            }
            let key = (
                src.as_ptr() as usize,
                src.len(),
                m.count,
                m.byte_stride,
                m.mode.clone(),
                m.filter.clone(),
            );
            let cached = self.meshopt_streams.borrow().get(&key).cloned();
            let data = match cached {
                Some(d) => d,
                None => {
                    self.charge_bytes(size, &format!("bufferView {i}: EXT_meshopt_compression"))?;
                    let d: Rc<[u8]> = meshopt::decode(m, src, size)
                        .map_err(|e| format!("bufferView {i}: {e}"))?
                        .into();
                    self.meshopt_streams.borrow_mut().insert(key, Rc::clone(&d));
                    d
                }
            };
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
