//! The one resolver of the files a model refers to (glTF buffers and
//! images), used by the loader and by the glTF export alike.
//!
//! Confinement is by *real* path: the URI is percent-decoded, joined to the
//! model's folder and resolved ([`std::fs::canonicalize`]: every symbolic
//! link followed, `..` applied), and the result must lie inside the model's
//! folder, itself resolved the same way. So a link `secret.bin ->
//! ../secret.bin`, a linked folder `up -> ..` (URI `up/secret.bin`) or a
//! link to `/dev/zero` is refused like the URI `../secret.bin`, while a link
//! whose target stays inside the folder is read. `--allow-external-uris`
//! ([`super::LoadOptions::allow_external_uris`]) lifts the folder rule, and
//! only it. URIs with a scheme (`http://…`) are never read; `data:` URIs are
//! decoded in place.
//!
//! Whatever the URI names must be a regular file ([`read_regular`]: a FIFO
//! or a device is refused, never read or waited on), and at most the bytes
//! the caller needs are read: a buffer's `byteLength`, an image's
//! [`MAX_IMAGE_BYTES`].

use crate::files::read_regular;
use base64::Engine;
use std::path::{Component, Path, PathBuf};

/// The largest image file the glTF export embeds: 256 MiB. A larger one is
/// refused rather than truncated.
pub const MAX_IMAGE_BYTES: u64 = 1 << 28;

/// The folder of a model, against which its URIs are resolved.
#[derive(Clone, Debug)]
pub struct ModelFolder {
    /// The folder as given (the model path's parent).
    dir: PathBuf,
    /// Read outside the folder too (`--allow-external-uris`).
    allow_outside: bool,
}

impl ModelFolder {
    /// The folder of the model file `model`.
    pub fn of(model: &Path, allow_outside: bool) -> Self {
        ModelFolder::new(model.parent().unwrap_or(Path::new(".")), allow_outside)
    }

    /// The folder `dir` (the empty path is the current folder).
    pub fn new(dir: &Path, allow_outside: bool) -> Self {
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir.to_path_buf()
        };
        ModelFolder { dir, allow_outside }
    }

    /// The bytes `uri` names, at most `cap` of them: decoded from a `data:`
    /// URI, or read from a regular file confined to the folder (see the
    /// module docs). The error is one line naming the URI.
    pub fn read(&self, uri: &str, cap: u64) -> Result<Vec<u8>, String> {
        if let Some(rest) = uri.strip_prefix("data:") {
            let (_, payload) = rest
                .split_once(";base64,")
                .ok_or("data URI is not base64")?;
            let mut bytes = base64::engine::general_purpose::STANDARD
                .decode(payload.trim())
                .map_err(|e| format!("bad base64 data URI: {e}"))?;
            bytes.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
            return Ok(bytes);
        }
        let decoded = percent_encoding::percent_decode_str(uri)
            .decode_utf8()
            .map_err(|_| format!("URI '{uri}' is not UTF-8 after percent-decoding"))?;
        if decoded.contains("://") {
            return Err(format!(
                "URI '{uri}' has a scheme (only relative file paths and data: URIs are read)"
            ));
        }
        let rel = Path::new(decoded.as_ref());
        let lexically_out = rel.is_absolute()
            || rel
                .components()
                .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir));
        if lexically_out && !self.allow_outside {
            return Err(format!(
                "URI '{uri}' points outside the model's folder (not read; --allow-external-uris reads it)"
            ));
        }
        let real = std::fs::canonicalize(self.dir.join(rel))
            .map_err(|e| format!("'{decoded}' could not be read: {e}"))?;
        if !self.allow_outside {
            let root = std::fs::canonicalize(&self.dir).map_err(|e| {
                format!(
                    "the model's folder {} cannot be resolved: {e}",
                    self.dir.display()
                )
            })?;
            if !real.starts_with(&root) {
                return Err(format!(
                    "'{decoded}' resolves to {}, outside the model's folder {} (through a symbolic link; not read; --allow-external-uris reads it)",
                    real.display(),
                    root.display()
                ));
            }
        }
        read_regular(&real, Some(cap)).map_err(|e| format!("'{decoded}': {e}"))
    }
}
