//! Fast tests of the OBJ and STL loaders and of polygon triangulation, on
//! synthetic files written to a temporary folder.

use bvtool::load::{LoadOptions, load, triangulate::triangulate};
use nalgebra::{Point2, Point3, Rotation3, Vector3};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

/// Writes `bytes` to a fresh file `name` in a folder unique to this test.
fn write(test: &str, name: &str, bytes: &[u8]) -> PathBuf {
    let dir = bvtool_dev::scratch!(format!("objstl-{test}"));
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn load_ok(path: &Path) -> bvtool::Scene {
    load(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The error message, checked to be one line naming the file.
fn load_err(path: &Path) -> String {
    let msg = match load(path, &LoadOptions::default()) {
        Ok(s) => panic!("loaded {} triangles", s.triangle_count()),
        Err(e) => e.to_string(),
    };
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(msg.contains(name) && !msg.contains('\n'), "{msg}");
    msg
}

/// World triangles of a scene as corner coordinates.
fn world_triangles(scene: &bvtool::Scene) -> Vec<[Point3<f64>; 3]> {
    let mesh = scene.flatten();
    (0..mesh.triangles.len())
        .map(|i| mesh.triangle(i))
        .collect()
}

const CUBE: &str = "\
# unit cube, quads
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2 3 7 6
f 3 4 8 7
f 4 1 5 8
";

#[test]
fn obj_quads_negative_indices_and_no_final_newline() {
    let scene = load_ok(&write("neg", "cube.obj", CUBE.as_bytes()));
    assert_eq!(scene.triangle_count(), 12);
    assert_eq!(scene.instances.len(), 1);
    assert_eq!(scene.skipped_primitives, 0);
    // The same quads with relative indices, `v/vt/vn` corners, a `\`
    // continuation and no final newline give the same triangles.
    let mut relative = String::new();
    for (k, line) in CUBE.lines().enumerate() {
        if let Some(face) = line.strip_prefix("f ") {
            let corners: Vec<String> = face
                .split(' ')
                .map(|i| format!("{}/1/1", i.parse::<i64>().unwrap() - 9))
                .collect();
            relative.push_str(&format!(
                "f {} \\\n{}\n",
                corners[..2].join(" "),
                corners[2..].join(" ")
            ));
        } else {
            relative.push_str(line);
            relative.push('\n');
        }
        if k == 8 {
            relative.push_str("vt 0 0\nvn 0 0 1\n");
        }
    }
    let scene2 = load_ok(&write(
        "neg",
        "cube-rel.obj",
        relative.trim_end().as_bytes(),
    ));
    assert_eq!(world_triangles(&scene), world_triangles(&scene2));
    let geom = &scene.instances[0].geometry;
    assert_eq!(geom.positions.len(), 8);
    assert_eq!(geom.positions[6], Point3::new(1.0, 1.0, 1.0));
}

#[test]
fn obj_objects_become_instances_and_mtl_is_never_read() {
    let text = "mtllib missing.mtl\no first\nusemtl red\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n\
                usemtl blue\nf 1 3 4\ng empty\ng second part\nl 1 2\np 3\nf 2 3 4\nf 4 3 2 1\no trailing\nl 1 4\n";
    let scene = load_ok(&write("objects", "two.obj", text.as_bytes()));
    let names: Vec<_> = scene
        .instances
        .iter()
        .map(|i| i.mesh_name.as_deref())
        .collect();
    assert_eq!(names, [Some("first"), Some("second part")]);
    let meshes: Vec<_> = scene.instances.iter().map(|i| i.mesh).collect();
    assert_eq!(meshes, [0, 1]);
    let counts: Vec<_> = scene
        .instances
        .iter()
        .map(|i| i.geometry.triangles.len())
        .collect();
    assert_eq!(counts, [2, 3]);
    // Each object keeps only the vertices it uses.
    assert_eq!(scene.instances[0].geometry.positions.len(), 4);
    assert_eq!(scene.instances[1].geometry.positions.len(), 4);
    assert_eq!(scene.skipped_primitives, 3);
    for inst in &scene.instances {
        assert!(inst.node.is_none() && inst.transform == nalgebra::Matrix4::identity());
    }
}

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut out = if big_endian {
        vec![0xFE, 0xFF]
    } else {
        vec![0xFF, 0xFE]
    };
    for u in text.encode_utf16() {
        out.extend(if big_endian {
            u.to_be_bytes()
        } else {
            u.to_le_bytes()
        });
    }
    out
}

#[test]
fn obj_utf16_with_bom_reads_like_utf8() {
    let reference = world_triangles(&load_ok(&write("utf16", "cube.obj", CUBE.as_bytes())));
    for be in [false, true] {
        let scene = load_ok(&write("utf16", &format!("cube-{be}.obj"), &utf16(CUBE, be)));
        assert_eq!(world_triangles(&scene), reference);
    }
    let mut odd = utf16(CUBE, true);
    odd.push(0);
    assert!(load_err(&write("utf16", "odd.obj", &odd)).contains("UTF-16"));
}

#[test]
fn obj_errors_name_the_file_and_line() {
    let cases = [
        (
            "range.obj",
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n",
            "line 4",
        ),
        ("zero.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", "line 4"),
        ("relative.obj", "v 0 0 0\nv 1 0 0\nf -1 -2 -3\n", "line 3"),
        (
            "forward.obj",
            "f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n",
            "line 1",
        ),
        ("inf.obj", "v 0 0 0\nv 1 inf 0\n", "line 2"),
        ("nan.obj", "v 0 0 0\nv 1 0 0\nv NaN 0 0\n", "line 3"),
        ("overflow.obj", "v 1e400 0 0\n", "line 1"),
        ("short.obj", "# c\nv 1 2\n", "line 2"),
        ("text.obj", "v 1 2 x\n", "line 1"),
        ("badindex.obj", "v 0 0 0\nf 1 a 1\n", "line 2"),
    ];
    for (name, text, line) in cases {
        let msg = load_err(&write("errors", name, text.as_bytes()));
        assert!(msg.contains(line), "{name}: {msg}");
    }
    let missing = std::env::temp_dir().join("bvtool-no-such-dir/none.obj");
    assert!(load_err(&missing).contains("cannot read"));
}

/// Every prefix of a valid file loads or fails cleanly, never panics.
#[test]
fn truncated_files_never_panic() {
    let stl = binary_stl(b"solid binary header", &[tri(0.0), tri(1.0)], None);
    let ascii = two_solids();
    for (name, bytes) in [
        ("t.obj", CUBE.as_bytes().to_vec()),
        ("t16.obj", utf16(CUBE, false)),
        ("t.stl", stl),
        ("ta.stl", ascii.into_bytes()),
    ] {
        for end in 0..bytes.len() {
            let _ = load(
                &write("trunc", name, &bytes[..end]),
                &LoadOptions::default(),
            );
        }
    }
}

fn tri(z: f32) -> [[f32; 3]; 3] {
    [[0.0, 0.0, z], [1.0, 0.0, z], [0.0, 1.0, z]]
}

/// A binary STL with `header`, the triangles and a count (the true one unless given).
fn binary_stl(header: &[u8], tris: &[[[f32; 3]; 3]], count: Option<u32>) -> Vec<u8> {
    let mut out = header.to_vec();
    out.resize(80, b' ');
    out.extend(count.unwrap_or(tris.len() as u32).to_le_bytes());
    for t in tris {
        out.extend([0u8; 12]);
        for v in t {
            for c in v {
                out.extend(c.to_le_bytes());
            }
        }
        out.extend([0u8; 2]);
    }
    out
}

fn facet(z: f64) -> String {
    format!(
        "  facet normal 0 0 1\n    outer loop\n      vertex 0 0 {z}\n      vertex 1 0 {z}\n      \
         vertex 0 1 {z}\n    endloop\n  endfacet\n"
    )
}

fn two_solids() -> String {
    format!(
        "solid first\n{}{}endsolid first\nsolid\nendsolid\n  solid third one\n{}endsolid third one\n",
        facet(0.0),
        facet(1.0),
        facet(2.5)
    )
}

#[test]
fn stl_ascii_solids_become_instances() {
    let scene = load_ok(&write("ascii", "multi.stl", two_solids().as_bytes()));
    let summary: Vec<_> = scene
        .instances
        .iter()
        .map(|i| (i.mesh, i.mesh_name.as_deref(), i.geometry.triangles.len()))
        .collect();
    assert_eq!(summary, [(0, Some("first"), 2), (2, Some("third one"), 1)]);
    let g = &scene.instances[1].geometry;
    assert_eq!(
        g.positions,
        [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)].map(|(x, y)| Point3::new(x, y, 2.5))
    );
    assert_eq!(g.triangles, [[0, 1, 2]]);
    // Upper-case keywords and extension (through the dispatcher) too.
    let shouting = two_solids().to_uppercase();
    let scene = load_ok(&write("ascii", "MULTI.STL", shouting.as_bytes()));
    assert_eq!(scene.instances[1].mesh_name.as_deref(), Some("THIRD ONE"));
    assert_eq!(scene.triangle_count(), 3);
}

#[test]
fn stl_binary_with_solid_header_is_binary() {
    let tris = [tri(0.5), tri(-2.25)];
    let bytes = binary_stl(b"solid exported by a CAD tool", &tris, None);
    let scene = load_ok(&write("binary", "solidhdr.stl", &bytes));
    assert_eq!(scene.instances.len(), 1);
    let got = world_triangles(&scene);
    let want: Vec<[Point3<f64>; 3]> = tris
        .iter()
        .map(|t| t.map(|v| Point3::new(v[0] as f64, v[1] as f64, v[2] as f64)))
        .collect();
    assert_eq!(got, want);
    // An empty binary STL is valid and has no instance.
    let empty = load_ok(&write("binary", "empty.stl", &binary_stl(b"", &[], None)));
    assert_eq!(empty.triangle_count(), 0);
}

#[test]
fn stl_errors() {
    // A count that would need ~200 GiB: refused from the size, not allocated.
    let lying = binary_stl(b"binary", &[tri(0.0)], Some(u32::MAX));
    assert!(load_err(&write("stlerr", "lying.stl", &lying)).contains("4294967295 triangles"));
    let short = binary_stl(b"binary", &[tri(0.0)], Some(2));
    load_err(&write("stlerr", "short.stl", &short));
    load_err(&write("stlerr", "tiny.stl", b"abc"));
    // A "solid" header whose size does not fit: read as ASCII, which fails.
    let mislabelled = binary_stl(b"solid x", &[tri(0.0)], Some(3));
    load_err(&write("stlerr", "mislabelled.stl", &mislabelled));
    let mut inf = tri(0.0);
    inf[1][2] = f32::INFINITY;
    load_err(&write("stlerr", "inf.stl", &binary_stl(b"", &[inf], None)));
    let text = facet(0.0).replace("vertex 1 0 0", "vertex 1 nan 0");
    let msg = load_err(&write(
        "stlerr",
        "nan.stl",
        format!("solid a\n{text}endsolid\n").as_bytes(),
    ));
    assert!(msg.contains("line 5"), "{msg}");
    let quad = facet(0.0).replace("endloop", "vertex 1 1 0\nendloop");
    load_err(&write(
        "stlerr",
        "quad.stl",
        format!("solid a\n{quad}endsolid\n").as_bytes(),
    ));
    let cut = &facet(0.0)[..60];
    load_err(&write(
        "stlerr",
        "cut.stl",
        format!("solid a\n{cut}").as_bytes(),
    ));
}

// ---- triangulation -------------------------------------------------------

/// Twice the signed area of a 2-D polygon (shoelace).
fn shoelace2(poly: &[Point2<f64>]) -> f64 {
    (0..poly.len())
        .map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
            a.x * b.y - b.x * a.y
        })
        .sum()
}

/// Triangulates the 2-D polygon `poly` placed in 3-D by `rotation` and an
/// offset, and checks that the triangles tile it: n − 2 of them, the sum of
/// their 3-D areas equals the polygon's (shoelace) area within 1e-9
/// relative, and none has the opposite orientation to the polygon.
fn assert_tiles(poly: &[Point2<f64>], rotation: &Rotation3<f64>) {
    let offset = Vector3::new(3.0, -1.0, 0.5);
    let pts: Vec<Point3<f64>> = poly
        .iter()
        .map(|p| rotation * Point3::new(p.x, p.y, 0.0) + offset)
        .collect();
    let tris = triangulate(&pts);
    assert_eq!(tris.len(), poly.len() - 2);
    let area = shoelace2(poly).abs() / 2.0;
    let sign = shoelace2(poly).signum();
    let mut sum = 0.0;
    for t in &tris {
        let [a, b, c] = t.map(|i| poly[i]);
        let signed2 = (b - a).perp(&(c - a)) * sign;
        assert!(
            signed2 >= -1e-12 * area,
            "inverted triangle {t:?} in {poly:?}"
        );
        let [a, b, c] = t.map(|i| pts[i]);
        sum += (b - a).cross(&(c - a)).norm() / 2.0;
    }
    assert!(
        (sum - area).abs() <= 1e-9 * area,
        "area {sum} != {area} for {poly:?}"
    );
}

fn poly(xy: &[(f64, f64)]) -> Vec<Point2<f64>> {
    xy.iter().map(|&(x, y)| Point2::new(x, y)).collect()
}

fn tilted() -> Rotation3<f64> {
    Rotation3::from_euler_angles(0.3, -1.1, 2.0)
}

#[test]
fn triangulates_concave_synthetic_polygons() {
    let l_shape = poly(&[(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)]);
    let star: Vec<_> = (0..10)
        .map(|i| {
            let r = if i % 2 == 0 { 1.0 } else { 0.35 };
            let a = i as f64 * std::f64::consts::PI / 5.0;
            Point2::new(r * a.cos(), r * a.sin())
        })
        .collect();
    let collinear = poly(&[
        (0., 0.),
        (1., 0.),
        (2., 0.),
        (3., 0.),
        (3., 1.),
        (1.5, 1.),
        (1.5, 3.),
        (0., 3.),
        (0., 1.5),
    ]);
    let duplicates = poly(&[
        (0., 0.),
        (2., 0.),
        (2., 0.),
        (2., 1.),
        (1., 1.),
        (1., 1.),
        (1., 2.),
        (0., 2.),
        (0., 0.),
    ]);
    // A square with a square hole, joined by a doubled bridge edge, as
    // exporters write polygons with holes (concave_polygon.obj does).
    let keyhole = poly(&[
        (0., 0.),
        (4., 0.),
        (4., 4.),
        (0., 4.),
        (0., 0.),
        (1., 1.),
        (1., 3.),
        (3., 3.),
        (3., 1.),
        (1., 1.),
    ]);
    for p in [&l_shape, &star, &collinear, &duplicates, &keyhole] {
        for rotation in [Rotation3::identity(), tilted()] {
            assert_tiles(p, &rotation);
            let mut reversed = p.clone();
            reversed.reverse();
            assert_tiles(&reversed, &rotation);
        }
    }
    // The fan from a tip of the star would overlap itself: the check above
    // can tell a wrong triangulation.
    let fan_area: f64 = (1..star.len() - 1)
        .map(|i| ((star[i] - star[0]).perp(&(star[i + 1] - star[0]))).abs() / 2.0)
        .sum();
    assert!(fan_area > 1.01 * shoelace2(&star).abs() / 2.0);
}

#[test]
fn non_planar_quad_has_no_folded_triangle() {
    // Twisted quad: both diagonals give a valid pair; neither triangle may
    // face against the quad's vector area.
    let pts = [
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.2),
        Point3::new(1.0, 1.0, -0.1),
        Point3::new(0.0, 1.0, 0.4),
    ];
    let vector_area: Vector3<f64> = (0..4)
        .map(|i| pts[i].coords.cross(&pts[(i + 1) % 4].coords) / 2.0)
        .sum();
    let tris = triangulate(&pts);
    assert_eq!(tris.len(), 2);
    let n = vector_area.normalize();
    let projected: Vec<f64> = tris
        .iter()
        .map(|t| {
            (pts[t[1]] - pts[t[0]])
                .cross(&(pts[t[2]] - pts[t[0]]))
                .dot(&n)
                / 2.0
        })
        .collect();
    assert!(projected.iter().all(|&a| a > 0.0), "{projected:?}");
    assert!((projected.iter().sum::<f64>() - vector_area.norm()).abs() < 1e-12);
}

#[test]
fn degenerate_polygons_still_give_n_minus_2_triangles() {
    let line: Vec<_> = (0..7)
        .map(|i| Point3::new(i as f64, 2.0 * i as f64, 0.0))
        .collect();
    let point = [Point3::new(1.0, 1.0, 1.0); 5];
    // A bow tie (self-intersecting).
    let bow = [(0., 0.), (1., 1.), (1., 0.), (0., 1.)].map(|(x, y)| Point3::new(x, y, 0.0));
    for p in [&line[..], &point[..], &bow[..]] {
        let tris = triangulate(p);
        assert_eq!(tris.len(), p.len() - 2);
        assert!(tris.iter().flatten().all(|&i| i < p.len()));
    }
}

proptest! {
    /// Random star-shaped (hence simple) polygons, randomly tilted.
    #[test]
    fn random_star_polygons_are_tiled(
        radii in prop::collection::vec(0.05f64..1.0, 3..60),
        jitter in prop::collection::vec(0.0f64..0.9, 60),
        angles in (-3.0f64..3.0, -3.0f64..3.0, -3.0f64..3.0),
    ) {
        let n = radii.len();
        let p: Vec<_> = radii
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let a = (i as f64 + jitter[i]) * std::f64::consts::TAU / n as f64;
                Point2::new(r * a.cos(), r * a.sin())
            })
            .collect();
        assert_tiles(&p, &Rotation3::from_euler_angles(angles.0, angles.1, angles.2));
    }
}
