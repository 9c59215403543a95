//! The OBJ and STL loaders on the real-model corpus, against independent
//! oracles: the manifest's triangle counts, a minimal `v`/`f` parser written
//! here, the same model in ASCII and binary STL, and exact polygon areas.
//!
//! Real-model suite: ignored by the plain `cargo test`, run by `.ci/run` in
//! release mode with `--ignored`.

use bvtool_dev as common;

use bvtool::load::{LoadOptions, load};
use nalgebra::Point3;
use std::path::Path;

fn is_ours(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".obj") || lower.ends_with(".stl")
}

fn load_ok(path: &Path) -> bvtool::Scene {
    load(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// Every OBJ and STL entry of the manifest: invalid ones refused with one
/// line naming the file, the others loaded with the manifest's triangle count
/// (n − 2 per n-gon) and only finite coordinates.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn obj_stl_entries_match_the_manifest() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let mut problems = Vec::new();
    let mut checked = 0;
    for e in common::manifest(&dir)
        .into_iter()
        .filter(|e| is_ours(&e.path))
    {
        checked += 1;
        let path = dir.join(&e.path);
        match (e.must_fail(), load(&path, &LoadOptions::default())) {
            (true, Ok(_)) => problems.push(format!("{}: should be refused", e.path)),
            (true, Err(err)) => {
                let msg = err.to_string();
                if msg.contains('\n') || !msg.contains(path.file_name().unwrap().to_str().unwrap())
                {
                    problems.push(format!("{}: bad error: {msg}", e.path));
                }
            }
            (false, Err(err)) => problems.push(format!("{}: {err}", e.path)),
            (false, Ok(scene)) => {
                if let Some(n) = e.triangles
                    && scene.triangle_count() as u64 != n
                {
                    problems.push(format!(
                        "{}: {} triangles, manifest {n}",
                        e.path,
                        scene.triangle_count()
                    ));
                }
                if !scene
                    .world_points(true)
                    .iter()
                    .all(|p| p.coords.iter().all(|c| c.is_finite()))
                {
                    problems.push(format!("{}: non-finite position", e.path));
                }
            }
        }
    }
    assert!(
        checked >= 60,
        "only {checked} OBJ/STL entries in the manifest"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Minimal independent OBJ reader: the `v` lines and which of them `f` lines
/// use (1-based or negative indices), or all of them in a file without faces
/// (a point cloud); UTF-16 BE/LE with BOM decoded.
fn referenced_obj_vertices(path: &Path) -> Vec<Point3<f64>> {
    let bytes = std::fs::read(path).unwrap();
    let text = match bytes.as_slice() {
        [0xFE, 0xFF, rest @ ..] => String::from_utf16_lossy(
            &rest
                .chunks(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect::<Vec<_>>(),
        ),
        [0xFF, 0xFE, rest @ ..] => String::from_utf16_lossy(
            &rest
                .chunks(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect::<Vec<_>>(),
        ),
        _ => String::from_utf8_lossy(&bytes).into_owned(),
    };
    let mut v: Vec<Option<Point3<f64>>> = Vec::new();
    let mut used = Vec::new();
    for line in text.lines() {
        let mut w = line.split_whitespace();
        match w.next() {
            // A vertex with an unusual number is kept as None: it must not be referenced.
            Some("v") => {
                let c: Vec<f64> = w.take(3).filter_map(|s| s.parse().ok()).collect();
                v.push((c.len() == 3).then(|| Point3::new(c[0], c[1], c[2])));
            }
            Some("f") => {
                let corners: Vec<i64> = w
                    .map(|s| s.split('/').next().unwrap().parse().unwrap())
                    .collect();
                if corners.len() >= 3 {
                    for i in corners {
                        used.push(if i > 0 {
                            i as usize - 1
                        } else {
                            (v.len() as i64 + i) as usize
                        });
                    }
                }
            }
            _ => {}
        }
    }
    // A file without faces is a point cloud: every vertex counts.
    if used.is_empty() {
        return v.into_iter().flatten().collect();
    }
    used.sort_unstable();
    used.dedup();
    used.into_iter()
        .map(|i| v[i].expect("referenced vertex parses"))
        .collect()
}

fn bounds(points: &[Point3<f64>]) -> Option<(Point3<f64>, Point3<f64>)> {
    let first = *points.first()?;
    Some(
        points
            .iter()
            .fold((first, first), |(lo, hi), p| (lo.inf(p), hi.sup(p))),
    )
}

/// The world AABB of every valid OBJ equals the min/max over the vertices its
/// faces reference, read by the minimal parser above (exactly: both read the
/// same decimal text into f64), and so do the vertex counts.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn obj_bounds_match_an_independent_parse() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let mut checked = 0;
    for e in common::manifest(&dir) {
        if e.must_fail() || !e.path.to_ascii_lowercase().ends_with(".obj") {
            continue;
        }
        let path = dir.join(&e.path);
        let scene = load_ok(&path);
        let expected = referenced_obj_vertices(&path);
        let got = scene.world_points(true);
        assert_eq!(bounds(&got), bounds(&expected), "{}", e.path);
        // Bit patterns, with −0 taken as +0 (the identity transform does that).
        let set = |pts: &[Point3<f64>]| -> std::collections::BTreeSet<[u64; 3]> {
            pts.iter()
                .map(|p| [p.x, p.y, p.z].map(|c| (c + 0.0).to_bits()))
                .collect()
        };
        assert_eq!(set(&got), set(&expected), "{}: vertex sets differ", e.path);
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} OBJ files checked");
}

/// The same spider as ASCII and binary STL: the same triangles, in the same
/// order, equal within the ASCII file's 6 decimals.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn spider_ascii_and_binary_agree() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let ascii = load_ok(&dir.join("stl/assimp/Spider_ascii.stl")).flatten();
    let binary = load_ok(&dir.join("stl/assimp/Spider_binary.stl")).flatten();
    assert_eq!(ascii.triangles.len(), 1368);
    assert_eq!(ascii.triangles.len(), binary.triangles.len());
    assert_eq!(ascii.vertices.len(), 3 * 1368);
    let worst = ascii
        .vertices
        .iter()
        .zip(&binary.vertices)
        .map(|(a, b)| (a - b).amax())
        .fold(0.0, f64::max);
    assert!(worst <= 1e-5, "largest coordinate difference {worst}");
}

/// `concave_polygon.obj`: one 66-corner polygon with a hole joined by a
/// bridge, in the plane x = −1.146. Its 64 triangles tile it: their areas sum
/// to the polygon's shoelace area (in y, z) within 1e-9, and none is inverted.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn concave_polygon_is_tiled() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let path = dir.join("obj/assimp/concave_polygon.obj");
    let text = std::fs::read_to_string(&path).unwrap();
    let v: Vec<(f64, f64, f64)> = text
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let c: Vec<f64> = l.split_whitespace().map(|s| s.parse().unwrap()).collect();
            (c[0], c[1], c[2])
        })
        .collect();
    let face: Vec<usize> = text
        .lines()
        .find_map(|l| l.strip_prefix("f "))
        .unwrap()
        .split_whitespace()
        .map(|s| s.split('/').next().unwrap().parse::<usize>().unwrap() - 1)
        .collect();
    assert_eq!(face.len(), 66);
    let yz = |i: usize| (v[i].1, v[i].2);
    let cross = |a: (f64, f64), b: (f64, f64), c: (f64, f64)| {
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    };
    let twice_area: f64 = (0..face.len())
        .map(|k| {
            let (a, b) = (yz(face[k]), yz(face[(k + 1) % face.len()]));
            a.0 * b.1 - b.0 * a.1
        })
        .sum();

    let mesh = load_ok(&path).flatten();
    assert_eq!(mesh.triangles.len(), 64);
    let mut sum = 0.0;
    for i in 0..mesh.triangles.len() {
        let t = mesh.triangle(i);
        assert!(t.iter().all(|p| p.x == -1.146));
        let signed = cross((t[0].y, t[0].z), (t[1].y, t[1].z), (t[2].y, t[2].z));
        assert!(
            signed * twice_area.signum() > 0.0,
            "triangle {i} inverted or flat: {t:?}"
        );
        sum += signed.abs();
    }
    let rel = (sum - twice_area.abs()).abs() / twice_area.abs();
    assert!(
        rel <= 1e-9,
        "triangle areas {sum} vs polygon {twice_area}: {rel}"
    );
    // The fan that the manifest's count assumes would overlap itself.
    let fan: f64 = (1..face.len() - 1)
        .map(|k| cross(yz(face[0]), yz(face[k]), yz(face[k + 1])).abs())
        .sum();
    assert!(fan > 1.01 * twice_area.abs());
}
