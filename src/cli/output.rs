//! How every command ends and prints: the exit-code contract, stdout that
//! ends quietly when the reader goes away, and one habit for files written.
//!
//! Exit codes: 0 success, 1 bad input (each failure printed on stderr as one
//! line naming the file), 2 usage error, 3 a clash found with
//! `clash --fail-on-clash`. A closed stdout (`bvtool … | head`)
//! is not an error: the command stops at once and exits 0, as ripgrep does.

use bvtool::Error;
use bvtool::error::{json_printable, printable};
use std::io::{ErrorKind, Write};
use std::path::Path;

/// Why a command stopped before success.
#[derive(Debug)]
pub enum Failure {
    /// The command line is wrong (exit 2); the message is printed.
    Usage(String),
    /// An input is wrong or unusable (exit 1); the message is printed.
    Input(Error),
    /// A batch of `of` files finished with `failed` of them failed, each
    /// already reported in its place (exit 1).
    Batch {
        /// Files that failed.
        failed: usize,
        /// Files in the batch.
        of: usize,
    },
    /// Stdout was closed by its reader: stop quietly (exit 0).
    ClosedPipe,
    /// `clash --fail-on-clash` found a clash (exit 3); the answer is printed.
    Clash,
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Input(e)
    }
}

/// What a command returns.
pub type Outcome = Result<(), Failure>;

impl Failure {
    /// Prints the failure (if it has anything left to say) and gives the exit code.
    pub fn exit_code(self) -> i32 {
        match self {
            Failure::Usage(m) => {
                eprintln!("bvtool: {m}");
                2
            }
            Failure::Input(e) => {
                eprintln!("bvtool: {e}");
                1
            }
            Failure::Batch { failed, of } => {
                if of > 1 {
                    eprintln!("bvtool: {failed} of {of} files failed");
                }
                1
            }
            Failure::ClosedPipe => 0,
            Failure::Clash => 3,
        }
    }
}

/// Writes `bytes` to stdout and flushes; a closed pipe becomes
/// [`Failure::ClosedPipe`].
pub fn out_bytes(bytes: &[u8]) -> Outcome {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(|e| stdout_failure(e.kind(), &e))
}

/// A failed write to stdout: a closed pipe stops quietly
/// ([`Failure::ClosedPipe`]), anything else is one line.
fn stdout_failure(kind: ErrorKind, e: &dyn std::fmt::Display) -> Failure {
    match kind {
        ErrorKind::BrokenPipe => Failure::ClosedPipe,
        _ => Failure::Input(Error::Input(format!("cannot write to stdout: {e}"))),
    }
}

/// Stdout for JSON, buffered, each piece serde_json writes (whole
/// characters) passed through [`json_printable`]: a document streamed
/// this way is never held whole, stays valid JSON and never puts a
/// control character on the terminal raw.
struct JsonOut<W: Write>(W);

impl<W: Write> Write for JsonOut<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // Every character to escape starts with a byte below 0x20 (but the
        // line break), DEL, or 0xC2 (C1) or 0xE2 (the bidirectional ones)
        // in UTF-8: a piece without any goes out as it is, undecoded.
        let plain = |b: &u8| (*b >= 0x20 || *b == b'\n') && !matches!(b, 0x7f | 0xc2 | 0xe2);
        match buf.iter().all(plain) {
            true => self.0.write_all(buf)?,
            false => self
                .0
                .write_all(json_printable(&String::from_utf8_lossy(buf)).as_bytes())?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Runs `write` on stdout as [`JsonOut`], then flushes.
fn json_out(write: impl FnOnce(&mut dyn Write) -> serde_json::Result<()>) -> Outcome {
    let mut w = JsonOut(std::io::BufWriter::with_capacity(
        1 << 16,
        std::io::stdout().lock(),
    ));
    write(&mut w).map_err(|e| match e.io_error_kind() {
        Some(kind) => stdout_failure(kind, &e),
        None => Failure::Input(Error::Input(format!("JSON output: {e}"))),
    })?;
    w.flush().map_err(|e| stdout_failure(e.kind(), &e))
}

/// Writes each value as one compact JSON line ([`JsonOut`]).
pub fn out_lines<T: serde::Serialize>(values: &[T]) -> Outcome {
    json_out(|w| {
        for v in values {
            serde_json::to_writer(&mut *w, v)?;
            w.write_all(b"\n").map_err(serde_json::Error::io)?;
        }
        Ok(())
    })
}

/// Writes `text` to stdout (see [`out_bytes`]), every control character
/// but the line breaks escaped ([`bvtool::error::printable`]): names and
/// URIs read from a file never reach the terminal raw.
pub fn out(text: &str) -> Outcome {
    let lines: Vec<_> = text.split('\n').map(printable).collect();
    out_bytes(lines.join("\n").as_bytes())
}

/// Whether JSON goes out on one line (see [`json_compact`]).
static COMPACT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// JSON is compact (one line) when asked (`--compact`) or when stdout is
/// not a terminal; pretty (indented) in a terminal.
pub fn json_compact(asked: bool) {
    use std::io::IsTerminal;
    let compact = asked || !std::io::stdout().is_terminal();
    COMPACT.store(compact, std::sync::atomic::Ordering::Relaxed);
}

/// Prints a value as JSON on stdout, compact or pretty ([`json_compact`]),
/// streamed as it is serialized ([`JsonOut`]).
pub fn out_json<T: serde::Serialize>(value: &T) -> Outcome {
    let compact = COMPACT.load(std::sync::atomic::Ordering::Relaxed);
    json_out(|w| {
        match compact {
            true => serde_json::to_writer(&mut *w, value)?,
            false => serde_json::to_writer_pretty(&mut *w, value)?,
        }
        w.write_all(b"\n").map_err(serde_json::Error::io)
    })
}

/// The one habit of every command that writes a file: `wrote PATH (what)`
/// on stderr, so stdout keeps only the answer (and stays valid JSON).
pub fn wrote(path: &Path, what: &str) {
    eprintln!("wrote {} ({what})", path.display());
}
