//! The bar chart measured in pixels: each bar's coloured run is its value
//! times one common scale.

use bvtool::render::chart::Bar;
use bvtool::render::{PALETTE, bar_chart};
use image::RgbImage;

/// Every maximal horizontal run of colour `c`, as `(row, start, length)`.
fn runs(img: &RgbImage, c: [u8; 3]) -> Vec<(u32, u32, u32)> {
    let mut out = Vec::new();
    for y in 0..img.height() {
        let mut x = 0;
        while x < img.width() {
            if img.get_pixel(x, y).0 == c {
                let start = x;
                while x < img.width() && img.get_pixel(x, y).0 == c {
                    x += 1;
                }
                out.push((y, start, x - start));
            } else {
                x += 1;
            }
        }
    }
    out
}

/// The bars of colour `c` top to bottom: runs starting at the bars' common
/// start column, merged over consecutive rows of equal length.
fn bars(img: &RgbImage, c: [u8; 3], start: u32) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32, u32)> = Vec::new(); // (last row, length, rows)
    for (y, x, len) in runs(img, c) {
        if x != start {
            continue;
        }
        match out.last_mut() {
            Some(b) if b.0 + 1 == y && b.1 == len => {
                b.0 = y;
                b.2 += 1;
            }
            _ => out.push((y, len, 1)),
        }
    }
    out.into_iter().map(|(_, len, rows)| (len, rows)).collect()
}

#[test]
fn bar_lengths_are_proportional_to_values() {
    let kinds = ["AABB", "OBB (tight)", "sphere (exact)"];
    let values = [[2.31, 1.62, 3.9], [1.8, 1.41, 4.52], [1.05, 0.37, 2.2]];
    let groups: Vec<(String, Vec<Bar>)> = values
        .iter()
        .enumerate()
        .map(|(g, vs)| {
            let bars = kinds
                .iter()
                .zip(vs)
                .map(|(k, v)| Bar::new(*k, *v))
                .collect();
            (format!("model-{g}.glb"), bars)
        })
        .collect();
    let img = bar_chart("ratios", &groups, (900, 520)).unwrap();
    // The bars' start column: the most common start of the palette runs.
    let mut starts = std::collections::BTreeMap::new();
    for c in &PALETTE[..3] {
        for (_, x, _) in runs(&img, *c) {
            *starts.entry(x).or_insert(0) += 1;
        }
    }
    let start = *starts.iter().max_by_key(|(_, n)| **n).unwrap().0;
    let mut measured = Vec::new(); // (value, pixels)
    for (k, c) in PALETTE[..3].iter().enumerate() {
        let found = bars(&img, *c, start);
        assert_eq!(found.len(), values.len(), "kind {k}: bars {found:?}");
        for (g, (len, rows)) in found.into_iter().enumerate() {
            assert!(rows >= 8, "bar {g}/{k} only {rows} rows thick");
            measured.push((values[g][k], len as f64));
        }
    }
    let scale = measured.iter().map(|(v, l)| l / v).sum::<f64>() / measured.len() as f64;
    for (v, l) in &measured {
        assert!(
            (l - v * scale).abs() <= 1.0,
            "bar of {v} is {l} px, expected {}",
            v * scale
        );
    }
    // Readable: the longest bar spans a good part of the width.
    assert!(4.52 * scale > 400.0, "scale {scale}");
}

#[test]
fn chart_is_deterministic_and_tolerates_odd_input() {
    let groups = vec![
        (
            "a".to_string(),
            vec![
                Bar::new("x", f64::NAN),
                Bar {
                    note: "a note".into(),
                    ..Bar::new("y", -1.0)
                },
            ],
        ),
        ("b".to_string(), vec![]),
    ];
    let one = bar_chart("odd", &groups, (300, 200)).unwrap();
    assert_eq!(
        one.as_raw(),
        bar_chart("odd", &groups, (300, 200)).unwrap().as_raw()
    );
    // No bar is drawn for a value that is not a finite non-negative number.
    for c in &PALETTE[..2] {
        let longest = runs(&one, *c).iter().map(|r| r.2).max().unwrap_or(0);
        assert!(longest <= 16, "a bar of {longest} px for an invalid value");
    }
    assert!(bar_chart("empty", &[], (300, 200)).is_ok());
    assert!(bar_chart("tiny", &groups, (1, 1)).is_ok());
    assert!(bar_chart("zero", &groups, (0, 200)).is_err());
}
