//! The grouped horizontal bar chart of `compare --plot`.

use super::canvas::{Canvas, Dash, TextSize};
use super::scene::{PALETTE, Rgb};
use image::RgbImage;

const TEXT: Rgb = [30, 30, 30];
const GRID: Rgb = [225, 225, 225];
const AXIS: Rgb = [60, 60, 60];
const HULL_LINE: Rgb = [110, 110, 110];

/// The tick step for an axis from 0 to `max`: 1, 2, 2.5 or 5 times a power
/// of ten, giving about five ticks.
fn tick_step(max: f64) -> f64 {
    let raw = max / 5.0;
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p)
}

/// Shortens `s` to at most `max` characters, marking the cut with `..`.
fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let keep = max.saturating_sub(2);
    s.chars().take(keep).chain("..".chars()).collect()
}

/// One bar of [`bar_chart`].
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Its colour's name in the legend: bars of one kind share a colour
    /// across groups.
    pub kind: String,
    /// The value: the bar's length.
    pub value: f64,
    /// Printed after the value at the bar's end (may be empty): say, which
    /// of the kind this bar is and a second figure.
    pub note: String,
}

impl Bar {
    /// A bar of `kind` with no note.
    pub fn new(kind: impl Into<String>, value: f64) -> Bar {
        Bar {
            kind: kind.into(),
            value,
            note: String::new(),
        }
    }
}

/// A grouped horizontal bar chart: one group per model (named at the left),
/// one bar per volume in that group, each bar's length proportional to
/// its value (`round(value · pixels_per_unit)` pixels from the axis, exact,
/// not anti-aliased), its value and note printed at its end. Bars of one
/// kind share a colour ([`PALETTE`] in order of first appearance) named
/// in a legend under the title. The x axis starts at 0 and runs to a round
/// number at or above the largest value and at least 1, with ticks, light
/// grid lines, the axis title "volume / convex hull volume", and a dashed
/// line at 1 (the hull itself); room is left at the right for the longest
/// value-and-note text (up to half the width).
///
/// Values that are negative or not finite get no bar, only the text "n/a"
/// and the note. Errors only for a zero or oversized picture size.
pub fn bar_chart(
    title: &str,
    groups: &[(String, Vec<Bar>)],
    size: (u32, u32),
) -> crate::Result<RgbImage> {
    let (w, h) = size;
    let mut c = Canvas::new(w, h, [255, 255, 255])?;
    let (w, h) = (w as i64, h as i64);
    let (fw, lh) = (
        TextSize::Normal.width("0") as i64,
        TextSize::Normal.height() as i64,
    );

    let mut kinds: Vec<&str> = Vec::new();
    for (_, bars) in groups {
        for b in bars {
            if !kinds.contains(&b.kind.as_str()) {
                kinds.push(&b.kind);
            }
        }
    }
    let color_of =
        |k: &str| PALETTE[kinds.iter().position(|x| *x == k).unwrap_or(0) % PALETTE.len()];

    // Title, then the legend rows.
    c.text(10, 8, title, TEXT, TextSize::Title);
    let mut y = 8 + TextSize::Title.height() as i64 + 8;
    let mut x = 10;
    for k in &kinds {
        let ew = 22 + fw * k.chars().count() as i64;
        if x > 10 && x + ew > w - 10 {
            x = 10;
            y += lh + 6;
        }
        c.fill_rect(x, y + 2, 16, lh - 4, color_of(k));
        c.text(x + 22, y, k, TEXT, TextSize::Normal);
        x += ew + 20;
    }
    let plot_y0 = y + lh + 14;
    let plot_y1 = h - 2 * lh - 18;

    // Model names at the left (at most 30 % of the width), values at the right.
    let max_name = ((w as f64 * 0.3) as i64 / fw).max(4) as usize;
    let names: Vec<String> = groups.iter().map(|(n, _)| clip(n, max_name)).collect();
    let name_w = names.iter().map(|n| n.chars().count()).max().unwrap_or(0) as i64 * fw;
    let plot_x0 = 10 + name_w + 12;
    let label = |b: &Bar| {
        let v = if b.value.is_finite() && b.value >= 0.0 {
            format!("{:.2}", b.value)
        } else {
            "n/a".into()
        };
        if b.note.is_empty() {
            v
        } else {
            format!("{v}  {}", b.note)
        }
    };
    let text_w = groups
        .iter()
        .flat_map(|(_, b)| b.iter().map(|b| label(b).chars().count()))
        .max()
        .unwrap_or(4) as i64
        * fw;
    let plot_x1 = (w - text_w - 2 * fw).max(w / 2);

    let finite = |v: f64| v.is_finite() && v >= 0.0;
    let vmax = groups
        .iter()
        .flat_map(|(_, b)| b.iter().map(|b| b.value))
        .filter(|v| finite(*v))
        .fold(1.0f64, f64::max);
    let step = tick_step(vmax);
    let axis_max = (vmax / step).ceil() * step;
    let per_unit = (plot_x1 - plot_x0).max(1) as f64 / axis_max;
    let at = |v: f64| plot_x0 + (v * per_unit).round() as i64;

    // Grid, ticks and the hull line first, so that bars lie on top.
    let ticks = (axis_max / step).round() as i64;
    for t in 0..=ticks {
        let v = t as f64 * step;
        let tx = at(v);
        c.fill_rect(tx, plot_y0, 1, plot_y1 - plot_y0, GRID);
        c.fill_rect(tx, plot_y1, 1, 5, AXIS);
        let label = format!("{}", (v * 1000.0).round() / 1000.0);
        let lw = fw * label.len() as i64;
        c.text(tx - lw / 2, plot_y1 + 6, &label, TEXT, TextSize::Normal);
    }
    let hx = at(1.0) as f64 + 0.5;
    c.line(
        (hx, plot_y0 as f64),
        (hx, plot_y1 as f64),
        HULL_LINE,
        1.5,
        Dash::EVEN,
    );
    let axis_title = "volume / convex hull volume (dashed: hull = 1)";
    let tw = fw * axis_title.len() as i64;
    c.text(
        (plot_x0 + plot_x1) / 2 - tw / 2,
        plot_y1 + lh + 10,
        axis_title,
        TEXT,
        TextSize::Normal,
    );

    // Bars: each group gets its bars plus one bar's height of gap.
    let n_bars: usize = groups.iter().map(|(_, b)| b.len()).sum();
    let slots = n_bars as f64 + 0.8 * groups.len() as f64;
    let slot = ((plot_y1 - plot_y0) as f64 / slots.max(1.0)).clamp(1.0, 30.0);
    let bar_h = ((slot - 3.0).round() as i64).max(1);
    let mut y = plot_y0 as f64 + 0.4 * slot;
    for ((_, bars), name) in groups.iter().zip(&names) {
        let group_top = y;
        for b in bars {
            let top = y.round() as i64;
            let text_y = top + bar_h / 2 - lh / 2;
            let len = if finite(b.value) {
                let len = (b.value * per_unit).round() as i64;
                c.fill_rect(plot_x0, top, len, bar_h, color_of(&b.kind));
                len
            } else {
                0
            };
            if bar_h + 2 >= lh / 2 {
                c.text(plot_x0 + len + 4, text_y, &label(b), TEXT, TextSize::Normal);
            }
            y += slot;
        }
        let mid = ((group_top + y) / 2.0) as i64;
        let nw = fw * name.chars().count() as i64;
        c.text(
            plot_x0 - 12 - nw,
            mid - lh / 2 - 1,
            name,
            TEXT,
            TextSize::Normal,
        );
        y += 0.8 * slot;
    }
    // Axes last, so grid lines never cross them.
    c.fill_rect(plot_x0 - 1, plot_y0, 1, plot_y1 - plot_y0 + 1, AXIS);
    c.fill_rect(plot_x0 - 1, plot_y1, plot_x1 - plot_x0 + 1, 1, AXIS);
    Ok(c.into_image())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_steps_are_round() {
        assert_eq!(tick_step(1.0), 0.2);
        assert_eq!(tick_step(3.7), 1.0);
        assert_eq!(tick_step(12.0), 2.5);
        assert_eq!(clip("abcdefgh", 5), "abc..");
        assert_eq!(clip("abc", 5), "abc");
    }
}
