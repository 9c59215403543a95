//! Files in and out, one habit each.
//!
//! In: [`read_regular`] reads only a regular file. The file is opened
//! without blocking (`O_NONBLOCK` on Linux, so a FIFO cannot stall the open)
//! and the *opened handle's* metadata is checked, so a FIFO, a device such as
//! `/dev/zero` (directly or through a symbolic link), a socket or a folder is
//! refused with a line saying what it is, never read or waited on; at most a
//! stated number of bytes is read, into memory reserved (fallibly) before
//! the read.
//!
//! Out: [`write_atomic`] writes a file through a temporary file in the same
//! folder, flushed to disk and then renamed over the target, so a write that
//! fails (a full disk, a size limit) leaves the previous file whole and no
//! partial file behind. A target that exists and is not a regular file
//! (`/dev/null`, a FIFO) is written in place, as it cannot be replaced.

use crate::error::{Error, Result};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What a file is when it is not a regular file, in words.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

/// Opens `path` for reading without waiting on it (`O_NONBLOCK` on Linux).
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    o.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    o.open(path)
}

/// The bytes of the regular file `path`, at most `cap` of them (all of
/// them with `None`). Anything else than a regular file is refused before a
/// byte is read; the error is one line, without the path (the caller names
/// the file).
pub fn read_regular(path: &Path, cap: Option<u64>) -> Result<Vec<u8>, String> {
    let file = open_nonblocking(path).map_err(|e| format!("cannot read: {e}"))?;
    let meta = file.metadata().map_err(|e| format!("cannot read: {e}"))?;
    if !meta.is_file() {
        return Err(format!("is {}, not a regular file (not read)", kind(&meta)));
    }
    let n = cap.map_or(meta.len(), |c| c.min(meta.len()));
    let mut bytes = Vec::new();
    usize::try_from(n)
        .ok()
        .and_then(|n| bytes.try_reserve_exact(n).ok())
        .ok_or_else(|| format!("cannot hold its {n} bytes in memory"))?;
    file.take(n)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    Ok(bytes)
}

/// Writes `bytes` to `path` through a temporary file in the same folder,
/// renamed over `path` once written and flushed (see the module docs). A
/// symbolic link is followed: the file it names is replaced, the link
/// stays.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let fail = |source: std::io::Error| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let existing = std::fs::metadata(&target).ok();
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        let mut f = OpenOptions::new().write(true).open(&target).map_err(fail)?;
        return f.write_all(bytes).and_then(|()| f.flush()).map_err(fail);
    }
    let (tmp, mut f) = temporary(&target).map_err(fail)?;
    let written = (|| {
        if let Some(m) = &existing {
            f.set_permissions(m.permissions())?;
        }
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, &target)
    })();
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}

/// A new file beside `target`, named `.NAME.PID.K.tmp`.
fn temporary(target: &Path) -> std::io::Result<(PathBuf, File)> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy());
    loop {
        let k = NEXT.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{}.{k}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}
