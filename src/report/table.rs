//! A plain-text table with aligned columns, for human output.

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

/// A number in a compact form with `digits` significant digits.
pub fn num(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let mag = x.abs().log10().floor() as i32;
    if !(-4..=7).contains(&mag) {
        return format!("{:.*e}", digits.saturating_sub(1), x);
    }
    let decimals = (digits as i32 - 1 - mag).max(0) as usize;
    format!("{x:.decimals$}")
}

/// A point as `(x, y, z)` with `digits` significant digits each.
pub fn point(p: &[f64; 3], digits: usize) -> String {
    format!(
        "({}, {}, {})",
        num(p[0], digits),
        num(p[1], digits),
        num(p[2], digits)
    )
}
