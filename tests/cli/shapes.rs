//! The shape grammar on the command line: `fit --shapes`, `export --shape`
//! and `render --volumes` read one grammar, and mean by it what the older
//! flags mean.

use bvtool_dev::bvtool;
use serde_json::Value;

const TORUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/torus.obj");

/// `fit --json`'s file object without its timings.
fn fit_json(args: &[&str]) -> Value {
    let mut all = vec!["fit", TORUS, "--json"];
    all.extend_from_slice(args);
    let (code, out, err) = bvtool!(&all);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    v["files"][0].clone()
}

#[test]
fn fit_shapes_equal_the_flags() {
    let by_flags = fit_json(&["--capsule", "--kdop", "14", "--hull-max", "64", "--best"]);
    let by_shapes = fit_json(&["--shapes", "capsule,kdop:14,hull:64,best"]);
    assert_eq!(by_flags, by_shapes);
    assert!(by_shapes["capsule"].is_object() && by_shapes["best"].is_object());
    // `box:pca` makes pca the reported box; the default is tight.
    assert_eq!(fit_json(&["--shapes", "obb:pca"])["obb"]["method"], "pca");
    assert_eq!(fit_json(&[])["obb"]["method"], "tight");
}

#[test]
fn export_shapes_take_their_parameters_and_refuse_what_no_export_carries() {
    let (code, out, err) = bvtool!(&[
        "export",
        TORUS,
        "--format",
        "json",
        "--shape",
        "box:pca,hull:32"
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["volumes"]["obb"]["method"], "pca");
    let asked: Vec<&str> = doc["colliders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["asked"].as_str().unwrap())
        .collect();
    assert_eq!(asked, ["box", "hull"]);
    let hull = &doc["colliders"][1];
    assert!(hull["vertices"].as_array().unwrap().len() <= 32);
    // Shapes the exports do not carry: one line naming the shape.
    for bad in ["kdop14", "aabb"] {
        let (code, _, err) = bvtool!(&["export", TORUS, "--format", "json", "--shape", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(bad), "{err}");
    }
    // Words the grammar does not know: clap's usage error, naming the word
    // and the grammar on its first line.
    let (code, _, err) = bvtool!(&["export", TORUS, "--format", "json", "--shape", "cone"]);
    assert_eq!(code, 2, "{err}");
    let first = err.lines().next().unwrap();
    assert!(
        first.contains("'cone'") && first.contains("capsule"),
        "{err}"
    );
}

#[test]
fn render_volumes_take_the_canonical_names_and_the_aliases() {
    let dir = bvtool_dev::scratch!("cli-shapes");
    let draw = |volumes: &str, name: &str| {
        let png = dir.join(name);
        let (code, _, err) = bvtool!(&[
            "render",
            TORUS,
            "-o",
            png.to_str().unwrap(),
            "--volumes",
            volumes,
            "--size",
            "200x150"
        ]);
        assert_eq!(code, 0, "{volumes}: {err}");
        std::fs::read(png).unwrap()
    };
    // Aliases draw the very same picture as the canonical names.
    assert_eq!(
        draw("obb,kdop-obb:14", "a.png"),
        draw("box:tight,kdop14-obb", "b.png")
    );
    assert!(!draw("best", "c.png").is_empty());
    std::fs::remove_dir_all(dir).ok();
}
