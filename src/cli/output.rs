//! How every command ends and prints: the exit-code contract, stdout that
//! ends quietly when the reader goes away, and one habit for files written.
//!
//! Exit codes: 0 success, 1 bad input (each failure printed on stderr as one
//! line naming the file), 2 usage error, 3 a clash found with
//! `clash --fail-on-clash`. A closed stdout (`bvtool … | head`)
//! is not an error: the command stops at once and exits 0, as ripgrep does.

use bvtool::Error;
use bvtool::error::printable;
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
        .map_err(|e| match e.kind() {
            ErrorKind::BrokenPipe => Failure::ClosedPipe,
            _ => Failure::Input(Error::Input(format!("cannot write to stdout: {e}"))),
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

/// Prints a value as JSON on stdout: compact or pretty ([`json_compact`]).
pub fn out_json<T: serde::Serialize>(value: &T) -> Outcome {
    let text = if COMPACT.load(std::sync::atomic::Ordering::Relaxed) {
        serde_json::to_string(value)
    } else {
        serde_json::to_string_pretty(value)
    }
    .map_err(|e| Error::Input(format!("JSON output: {e}")))?;
    out(&(text + "\n"))
}

/// The one habit of every command that writes a file: `wrote PATH (what)`
/// on stderr, so stdout keeps only the answer (and stays valid JSON).
pub fn wrote(path: &Path, what: &str) {
    eprintln!("wrote {} ({what})", path.display());
}
