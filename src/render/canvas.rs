//! The drawing surface: an opaque RGBA pixmap with anti-aliased lines and
//! circles (tiny-skia), axis-aligned rectangles, and text from the
//! pre-rasterized, anti-aliased Noto Sans Mono glyphs of
//! `noto-sans-mono-bitmap` (embedded in the binary: no font files, no system
//! font lookup, the same pixels on every machine).

use super::scene::{Rgb, check_size};
use image::RgbImage;
use noto_sans_mono_bitmap::{FontWeight, RasterHeight, get_raster, get_raster_width};
use tiny_skia::{LineCap, Paint, PathBuilder, Pixmap, Stroke, StrokeDash, Transform};

/// Text sizes (pixel height of a line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextSize {
    /// 16 px, regular: labels and ticks.
    Normal,
    /// 20 px, bold: titles.
    Title,
}

impl TextSize {
    fn font(self) -> (FontWeight, RasterHeight) {
        match self {
            TextSize::Normal => (FontWeight::Regular, RasterHeight::Size16),
            TextSize::Title => (FontWeight::Bold, RasterHeight::Size20),
        }
    }

    /// Line height in pixels.
    pub fn height(self) -> u32 {
        self.font().1.val() as u32
    }

    /// Width of `text` in pixels (the font is monospaced).
    pub fn width(self, text: &str) -> u32 {
        let (w, h) = self.font();
        (drawn(text).count() * get_raster_width(w, h)) as u32
    }
}

/// The characters drawn for `text`: the font's (printable ASCII and
/// Latin-1: `±`, `×`, `°`, `µ`, `·`, `²`, …) as they are; the signs it
/// lacks that reports use spelled in ASCII (`−` as `-`, `≤` as `<=`, `→`
/// as `->`, `…` as `...`, dashes as `-`); anything else `?`.
fn drawn(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().flat_map(|ch| {
        let spelled: &'static str = match ch {
            '−' | '–' | '—' => "-",
            '≤' => "<=",
            '≥' => ">=",
            '≠' => "!=",
            '≈' => "~",
            '→' => "->",
            '←' => "<-",
            '…' => "...",
            '‘' | '’' => "'",
            '“' | '”' => "\"",
            _ => "",
        };
        let one = spelled.is_empty().then_some(ch);
        one.into_iter().chain(spelled.chars())
    })
}

/// How a line is stroked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dash {
    /// A solid line.
    Solid,
    /// Dashes of three line widths, drawn in slot `k` of every `n` (n ≥ 2):
    /// lines with the same path dashed in slots 1, 2, … of `n` over a solid
    /// one each keep a share of the path's length.
    Slot {
        /// Which slot, from 0.
        k: u32,
        /// Slots per period.
        n: u32,
    },
}

impl Dash {
    /// Plain dashes: as long as the gaps.
    pub const EVEN: Dash = Dash::Slot { k: 0, n: 2 };
}

/// An opaque picture being drawn. Every colour written is opaque, so the
/// pixmap's premultiplied bytes are plain RGB(A).
pub struct Canvas {
    pixmap: Pixmap,
}

impl Canvas {
    /// A `width`×`height` canvas filled with `background`; refuses a zero or
    /// oversized picture (see [`MAX_SIDE`](super::MAX_SIDE)).
    pub fn new(width: u32, height: u32, background: Rgb) -> crate::Result<Canvas> {
        check_size(width, height)?;
        let mut pixmap = Pixmap::new(width, height).ok_or_else(|| {
            crate::Error::Input(format!("cannot allocate a {width}x{height} picture"))
        })?;
        pixmap.fill(tiny_skia::Color::from_rgba8(
            background[0],
            background[1],
            background[2],
            255,
        ));
        Ok(Canvas { pixmap })
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.pixmap.width()
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.pixmap.height()
    }

    /// Overwrites pixel `(x, y)` (ignored outside the canvas).
    pub fn set(&mut self, x: i64, y: i64, c: Rgb) {
        self.blend(x, y, c, 255);
    }

    /// Mixes `c` into pixel `(x, y)` with coverage `alpha` (0..=255):
    /// `(old·(255 − alpha) + c·alpha) / 255`, rounded (ignored outside the
    /// canvas).
    pub fn blend(&mut self, x: i64, y: i64, c: Rgb, alpha: u8) {
        let (w, h) = (self.width() as i64, self.height() as i64);
        if x < 0 || y < 0 || x >= w || y >= h || alpha == 0 {
            return;
        }
        let i = 4 * (y * w + x) as usize;
        let px = &mut self.pixmap.data_mut()[i..i + 3];
        let a = alpha as u32;
        for k in 0..3 {
            px[k] = ((px[k] as u32 * (255 - a) + c[k] as u32 * a + 127) / 255) as u8;
        }
    }

    /// Fills the pixels `[x, x+w) × [y, y+h)` exactly (no anti-aliasing, so
    /// lengths measured in pixels are the lengths asked for).
    pub fn fill_rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: Rgb) {
        self.blend_rect(x, y, w, h, c, 255);
    }

    /// Mixes `c` with weight `alpha` into the pixels `[x, x+w) × [y, y+h)`
    /// (as [`Canvas::blend`]).
    pub fn blend_rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: Rgb, alpha: u8) {
        for yy in y.max(0)..(y + h).min(self.height() as i64) {
            for xx in x.max(0)..(x + w).min(self.width() as i64) {
                self.blend(xx, yy, c, alpha);
            }
        }
    }

    fn stroke(&mut self, path: Option<tiny_skia::Path>, c: Rgb, width: f32, dash: Dash) {
        let Some(path) = path else { return };
        let mut paint = Paint::default();
        paint.set_color_rgba8(c[0], c[1], c[2], 255);
        paint.anti_alias = true;
        let stroke = Stroke {
            width,
            line_cap: LineCap::Round,
            dash: match dash {
                Dash::Solid => None,
                Dash::Slot { k, n } => {
                    // Dashes of 3 widths: on in slot k of every n.
                    let s = 3.0 * width;
                    let n = n.max(2) as f32;
                    StrokeDash::new(vec![s, (n - 1.0) * s], (n - (k as f32 % n)) * s)
                }
            },
            ..Stroke::default()
        };
        self.pixmap
            .stroke_path(&path, &paint, &stroke, Transform::identity(), None);
    }

    /// An anti-aliased segment of `width` pixels with round caps, solid or
    /// dashed. Non-finite ends draw nothing.
    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), c: Rgb, width: f32, dash: Dash) {
        if ![a.0, a.1, b.0, b.1].iter().all(|v| v.is_finite()) {
            return;
        }
        let mut pb = PathBuilder::new();
        pb.move_to(a.0 as f32, a.1 as f32);
        pb.line_to(b.0 as f32, b.1 as f32);
        self.stroke(pb.finish(), c, width, dash);
    }

    /// An anti-aliased circle outline, solid or dashed. Non-finite or zero
    /// radius draws nothing.
    pub fn circle(&mut self, center: (f64, f64), r: f64, c: Rgb, width: f32, dash: Dash) {
        if [center.0, center.1, r].iter().all(|v| v.is_finite()) && r > 0.0 {
            let path = PathBuilder::from_circle(center.0 as f32, center.1 as f32, r as f32);
            self.stroke(path, c, width, dash);
        }
    }

    /// Draws `text` with its top-left corner at `(x, y)`, as [`drawn`]
    /// spells it.
    pub fn text(&mut self, x: i64, y: i64, text: &str, c: Rgb, size: TextSize) {
        let (weight, height) = size.font();
        let advance = get_raster_width(weight, height) as i64;
        for (k, ch) in drawn(text).enumerate() {
            let Some(glyph) =
                get_raster(ch, weight, height).or_else(|| get_raster('?', weight, height))
            else {
                continue;
            };
            let gx = x + k as i64 * advance;
            for (row, line) in glyph.rows().enumerate() {
                for (col, &a) in line.iter().enumerate() {
                    self.blend(gx + col as i64, y + row as i64, c, a);
                }
            }
        }
    }

    /// The picture as 8-bit RGB.
    pub fn into_image(self) -> RgbImage {
        let (w, h) = (self.width(), self.height());
        let rgb: Vec<u8> = self
            .pixmap
            .data()
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        RgbImage::from_raw(w, h, rgb).expect("buffer size matches the pixmap")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pixels of `text` drawn alone, black on white.
    fn pixels(text: &str) -> Vec<u8> {
        let mut c = Canvas::new(200, 24, [255, 255, 255]).unwrap();
        c.text(0, 0, text, [0, 0, 0], TextSize::Normal);
        c.into_image().into_raw()
    }

    #[test]
    fn latin1_signs_are_drawn_and_others_spelled_in_ascii() {
        // `±` and `µ` have glyphs of their own, unlike an unknown sign.
        for sign in ["±", "µ", "×", "°", "·", "²"] {
            assert_ne!(pixels(sign), pixels("?"), "{sign}");
            assert_ne!(pixels(sign), pixels(" "), "{sign}");
        }
        assert_eq!(pixels("∮"), pixels("?"));
        assert_eq!(pixels("a − b ≤ c → d…"), pixels("a - b <= c -> d..."));
        assert_eq!(TextSize::Normal.width("≤"), TextSize::Normal.width("<="));
    }
}
