//! Tables of numbers for the point and ray commands: `.npy` (`float64` or
//! `float32`, little-endian, C order, shape `(n, width)`), `.csv` (one row a
//! line, `width` numbers split by commas; blank lines and lines starting
//! with `#` skipped) and JSON Lines (`.jsonl`: one array of `width` numbers
//! a line). Every value must be finite and within [`MAX_COORDINATE`]; a
//! malformed file is one error naming the file and the row.

use crate::error::{Error, Result};
use crate::mesh::MAX_COORDINATE;
use std::path::Path;

/// The rows of the table in `path`, each `width` numbers, flattened.
pub fn read_rows(path: &Path, width: usize) -> Result<Vec<f64>> {
    let bytes = super::read_input(path)?;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let values = match ext.as_deref() {
        Some("npy") => npy(&bytes, width),
        Some("csv") => text_rows(&bytes, width, |line| {
            line.split(',')
                .map(|v| {
                    v.trim()
                        .parse::<f64>()
                        .map_err(|_| format!("{v:?} is not a number"))
                })
                .collect()
        }),
        Some("jsonl") | Some("ndjson") => text_rows(&bytes, width, |line| {
            serde_json::from_str::<Vec<f64>>(line)
                .map_err(|e| format!("expected an array of numbers ({e})"))
        }),
        _ => Err("expected a .npy, .csv or .jsonl file".to_string()),
    }
    .map_err(|m| Error::load(path, m))?;
    if let Some(i) = values
        .iter()
        .position(|v| !v.is_finite() || v.abs() > MAX_COORDINATE)
    {
        return Err(Error::load(
            path,
            format!(
                "row {}: {:e} is not a finite number within ±2^50",
                i / width,
                values[i]
            ),
        ));
    }
    Ok(values)
}

/// The rows of a text table, each line parsed by `parse`.
fn text_rows(
    bytes: &[u8],
    width: usize,
    parse: impl Fn(&str) -> std::result::Result<Vec<f64>, String>,
) -> std::result::Result<Vec<f64>, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let row = parse(line).map_err(|m| format!("line {}: {m}", i + 1))?;
        if row.len() != width {
            return Err(format!(
                "line {}: {} values, expected {width}",
                i + 1,
                row.len()
            ));
        }
        out.extend(row);
    }
    Ok(out)
}

/// The values of a `.npy` array of shape `(n, width)`.
fn npy(bytes: &[u8], width: usize) -> std::result::Result<Vec<f64>, String> {
    let bad = |m: &str| format!("not a valid .npy array: {m}");
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad("no NUMPY magic"));
    }
    let (header_len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        _ => return Err(bad("unknown version")),
    };
    let header = bytes
        .get(start..start + header_len)
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or_else(|| bad("truncated header"))?;
    let field = |key: &str| -> Option<&str> {
        let at = header.find(&format!("'{key}'"))? + key.len() + 2;
        let rest = header[at..].trim_start().strip_prefix(':')?.trim_start();
        Some(rest)
    };
    let descr = field("descr").ok_or_else(|| bad("no descr"))?;
    let size = if descr.starts_with("'<f8'") {
        8
    } else if descr.starts_with("'<f4'") {
        4
    } else {
        return Err(bad("expected dtype float64 or float32 ('<f8' or '<f4')"));
    };
    if field("fortran_order").is_some_and(|v| v.starts_with("True")) {
        return Err(bad("Fortran order; save a C-ordered array"));
    }
    let shape = field("shape").ok_or_else(|| bad("no shape"))?;
    let inner = shape
        .strip_prefix('(')
        .and_then(|s| s.split(')').next())
        .ok_or_else(|| bad("malformed shape"))?;
    let dims: Vec<usize> = inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<usize>().map_err(|_| bad("malformed shape")))
        .collect::<std::result::Result<_, _>>()?;
    if dims.len() != 2 || dims[1] != width {
        return Err(format!(
            "expected an array of shape (n, {width}), got {dims:?}"
        ));
    }
    let count = dims[0]
        .checked_mul(width)
        .ok_or_else(|| bad("shape too large"))?;
    let data = &bytes[start + header_len..];
    if data.len() != count * size {
        return Err(bad(&format!(
            "{} data bytes for shape {dims:?}, expected {}",
            data.len(),
            count * size
        )));
    }
    Ok(if size == 8 {
        data.chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect()
    } else {
        data.chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64)
            .collect()
    })
}
