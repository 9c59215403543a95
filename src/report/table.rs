//! A plain-text table with aligned columns, for human output.

pub use crate::error::count;

/// Rows of cells printed with columns padded to their widest cell; numbers
/// (cells that parse as f64 or end in `%`/`x`) are right-aligned.
#[derive(Debug, Default)]
pub struct Table {
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with a header row.
    pub fn new<S: ToString>(header: &[S]) -> Table {
        Table {
            rows: vec![header.iter().map(|s| s.to_string()).collect()],
        }
    }

    /// Appends a row.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Renders the table, each line indented by `indent` spaces; a column
    /// whose every cell, header included, is empty is left out.
    pub fn render(&self, indent: usize) -> String {
        let ncol = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let width: Vec<usize> = (0..ncol)
            .map(|c| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(|s| s.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for row in &self.rows {
            let mut line = " ".repeat(indent);
            for (c, cell) in row.iter().enumerate().filter(|&(c, _)| width[c] > 0) {
                let pad = width[c] - cell.chars().count();
                let numeric = cell.trim_end_matches(['%', 'x']).parse::<f64>().is_ok();
                if numeric && c > 0 {
                    line.push_str(&" ".repeat(pad));
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.push_str(&" ".repeat(pad));
                }
                line.push_str("  ");
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// A number in a compact form with `digits` significant digits; never `-0`.
pub fn num(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{}", if x == 0.0 { 0.0 } else { x });
    }
    let mag = x.abs().log10().floor() as i32;
    if !(-4..=7).contains(&mag) {
        return format!("{:.*e}", digits.saturating_sub(1), x);
    }
    let decimals = (digits as i32 - 1 - mag).max(0) as usize;
    no_negative_zero(format!("{x:.decimals$}"))
}

/// `s` without a minus sign when it shows a zero (`-0.000` → `0.000`).
fn no_negative_zero(s: String) -> String {
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => s,
    }
}

/// Numbers printed to one absolute resolution: `digits` significant digits
/// of a `scale` (a model's size, 1 for unit vectors and quaternions), so
/// that rounding noise far below the scale (`4.3e-17` beside 0.5) prints as
/// `0`, and no value prints as `-0`.
#[derive(Clone, Copy, Debug)]
pub struct Scaled {
    /// Decimals after the point; `None` for a scale with no usable size
    /// (0, non-finite, or beyond 1e-9..1e12), printed as [`num`] does.
    decimals: Option<usize>,
    digits: usize,
}

impl Scaled {
    /// Resolution `scale·10^(1−digits)` (rounded to a power of ten).
    pub fn new(scale: f64, digits: usize) -> Scaled {
        let usable = scale.is_finite() && (1e-9..=1e12).contains(&scale);
        Scaled {
            decimals: usable
                .then(|| (digits as i32 - 1 - scale.log10().floor() as i32).max(0) as usize),
            digits,
        }
    }

    /// `x` at this resolution: `0` for anything that rounds to zero.
    pub fn num(&self, x: f64) -> String {
        match self.decimals {
            Some(d) if x.is_finite() => {
                let s = format!("{x:.d$}");
                if s.trim_start_matches('-')
                    .chars()
                    .all(|c| c == '0' || c == '.')
                {
                    "0".into()
                } else {
                    s
                }
            }
            _ => num(x, self.digits),
        }
    }

    /// Numbers as `(a, b, …)`.
    pub fn tuple(&self, xs: &[f64]) -> String {
        let parts: Vec<String> = xs.iter().map(|&x| self.num(x)).collect();
        format!("({})", parts.join(", "))
    }
}
