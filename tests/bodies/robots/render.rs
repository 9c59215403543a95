//! `bvtool robot --render`: the picture of the arm at a colliding
//! configuration has its colliding links drawn in the highlight colour
//! (well beyond the legend's swatch), and at a free one none at all; the
//! configuration is given inline or by its index in a `--check` file.

use super::arm::{ARM, random_configurations, temp_dir, write_arm};
use bvtool::robots::{Robot, RobotOptions};
use bvtool_dev::bvtool;

/// Pixels of the highlight colour (magenta, shaded) above the legend band
/// at the bottom.
fn highlighted_pixels(png: &std::path::Path) -> usize {
    let img = image::open(png).unwrap().to_rgb8();
    let legend = 60;
    img.enumerate_pixels()
        .filter(|(_, y, p)| {
            let [r, g, b] = p.0;
            *y + legend < img.height() && g < 40 && r > 60 && b > 50 && r - g > 50
        })
        .count()
}

#[test]
fn colliding_links_are_drawn_in_the_highlight_colour() {
    let dir = temp_dir("render");
    let urdf = write_arm(&dir, ARM);
    let robot = Robot::from_urdf(&urdf, &RobotOptions::default()).unwrap();
    let qs = random_configurations(&robot, 300, 21);
    let hits = robot.self_collision_batch(&qs, false).unwrap();
    let colliding = hits.iter().position(|h| !h.pairs.is_empty()).unwrap();
    let free = hits.iter().position(|h| h.pairs.is_empty()).unwrap();
    let config = |k: usize| {
        qs[k * robot.dof..(k + 1) * robot.dof]
            .iter()
            .map(|v| format!("{v:?}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let u = urdf.to_str().unwrap();
    for (k, hot) in [(colliding, true), (free, false)] {
        let png = dir.join(format!("q{k}.png"));
        let p = png.to_str().unwrap();
        let (code, _, err) = bvtool!(&["robot", u, "--render", p, "--config", &config(k)]);
        assert_eq!(code, 0, "{err}");
        let n = highlighted_pixels(&png);
        if hot {
            assert!(
                n > 2000,
                "configuration {k} collides: {n} highlighted pixels"
            );
        } else {
            assert_eq!(n, 0, "configuration {k} is free");
        }
    }
    // The same picture from a --check file and the configuration's index.
    let rows: Vec<Vec<f64>> = qs.chunks(robot.dof).map(<[f64]>::to_vec).collect();
    let file = dir.join("q.json");
    std::fs::write(&file, serde_json::to_string(&rows).unwrap()).unwrap();
    let by_index = dir.join("by-index.png");
    let (code, _, err) = bvtool!(&[
        "robot",
        u,
        "--check",
        file.to_str().unwrap(),
        "--render",
        by_index.to_str().unwrap(),
        "--config-index",
        &colliding.to_string()
    ]);
    assert_eq!(code, 0, "{err}");
    let inline = std::fs::read(dir.join(format!("q{colliding}.png"))).unwrap();
    assert_eq!(std::fs::read(&by_index).unwrap(), inline);
    // A bad configuration: one line, exit 1.
    let png = dir.join("bad.png");
    let (code, _, err) = bvtool!(&[
        "robot",
        u,
        "--render",
        png.to_str().unwrap(),
        "--config",
        "0,x"
    ]);
    assert_eq!((code, err.lines().count()), (1, 1), "{err}");
    let (code, _, err) = bvtool!(&[
        "robot",
        u,
        "--render",
        png.to_str().unwrap(),
        "--config",
        "0,1"
    ]);
    assert_eq!((code, err.lines().count()), (1, 1), "{err}");
    assert!(err.contains("expected 4"), "{err}");
}
