//! The library's error type.
//!
//! Every error that comes from user input names the file it concerns and says
//! what is wrong in one line, so the command line can print it as is: the
//! control characters a file may carry in its names and URIs (ESC, CR, NUL,
//! …) are escaped by [`printable`] when an error is displayed, so that none
//! reaches a terminal raw and no error spans two lines.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// Everything that can go wrong in bvtool.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A model file could not be read or is not valid.
    #[error("{}: {}", printable(&path.display().to_string()), printable(message))]
    Load {
        /// The file given by the user (not the buffer or image it refers to).
        path: PathBuf,
        /// What is wrong, in one line.
        message: String,
    },
    /// The geometry is loaded but unusable for the request (empty, non-finite, …).
    #[error("{}: {}", printable(&path.display().to_string()), printable(message))]
    Geometry {
        /// The model the geometry came from.
        path: PathBuf,
        /// What is wrong, in one line.
        message: String,
    },
    /// A value given on the command line or in a side file (a pose, an option) is wrong.
    #[error("{}", printable(.0))]
    Input(String),
    /// Writing an output file failed.
    #[error("{}: {source}", printable(&path.display().to_string()))]
    Write {
        /// The file that could not be written.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
}

impl Error {
    /// A load error for `path` with `message`.
    pub fn load(path: &Path, message: impl Into<String>) -> Self {
        Error::Load {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }

    /// A geometry error for `path` with `message`.
    pub fn geometry(path: &Path, message: impl Into<String>) -> Self {
        Error::Geometry {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Whether `c` must not reach a terminal raw: the C0 and C1 controls, DEL,
/// and the bidirectional overrides and isolates (which reorder what
/// follows them on screen).
fn is_control(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every control character written as a Rust escape (`\u{1b}`,
/// `\n`, `\r`, `\0`, `\t`): what names and URIs read from a file become
/// before they are printed as text. A text without any is returned as is.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if is_control(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// JSON text `json` with every character [`printable`] escapes, but the
/// line break, written as JSON's own `\uXXXX` escape: serde_json escapes
/// only U+0000–U+001F, `"` and `\` in strings, and leaves DEL, the C1
/// controls and the bidirectional overrides and isolates raw; outside its
/// strings JSON text holds no control character but the line breaks of
/// pretty printing, which stay. The result is valid JSON, the same
/// document, and safe on a terminal. All such characters are in the Basic
/// Multilingual Plane: one escape each.
pub fn json_printable(json: &str) -> Cow<'_, str> {
    let raw = |c: char| c != '\n' && is_control(c);
    if !json.chars().any(raw) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        match c {
            c if raw(c) => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `n` and the noun, singular for one: `count(1, "triangle")` is
/// `1 triangle`, `count(2, "triangle")` is `2 triangles`.
pub fn count(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {}", plural(noun)),
    }
}

/// The plural of the nouns the reports count.
fn plural(noun: &str) -> String {
    match noun.strip_suffix("leaf") {
        Some(stem) => format!("{stem}leaves"),
        None if noun.ends_with("vertex") => format!("{}ices", &noun[..noun.len() - 2]),
        None => format!("{noun}s"),
    }
}
