//! The parallel OBJ and STL readers against the same readers in one chunk
//! (one thread, in file order): generated files with every statement the
//! readers know, continuations, comments, `\r\n`, negative indices, groups,
//! polygons whose triangulation runs out of work budget, and bad lines,
//! cut into chunks from 1 byte up, must give the same scene — or the same
//! error, line number included.

use bvtool::load::chunks::DEFAULT_CHUNK_BYTES;
use bvtool::load::{LoadOptions, load_bytes_in_chunks};
use std::fmt::Write;
use std::path::Path;

/// Chunk sizes every file is read with (besides one chunk).
const SIZES: [usize; 9] = [1, 2, 3, 7, 16, 61, 250, 1024, DEFAULT_CHUNK_BYTES];

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn coordinate(&mut self) -> String {
        let x = (self.below(20_001) as f64 - 10_000.0) / 1000.0;
        match self.below(5) {
            0 => format!("{}", x.round()),
            1 => format!("{x:e}"),
            2 => format!("{}.", x.trunc()),
            _ => format!("{x}"),
        }
    }
}

/// What a read gives: the scene in full (`Debug` prints every coordinate
/// exactly, every index and name) or the error's message.
fn outcome(name: &str, bytes: &[u8], chunk_bytes: usize) -> Result<String, String> {
    let opts = LoadOptions {
        max_triangles: bvtool::load::TriangleLimit::Unlimited,
        ..LoadOptions::default()
    };
    load_bytes_in_chunks(Path::new(name), bytes, &opts, chunk_bytes)
        .map(|s| format!("{s:?}"))
        .map_err(|e| e.to_string())
}

/// Reads `bytes` in one chunk and in chunks of each of `sizes` bytes,
/// checks they agree, and returns the one-chunk outcome.
fn agree(name: &str, bytes: &[u8], sizes: &[usize]) -> Result<String, String> {
    let whole = outcome(name, bytes, usize::MAX);
    for &size in sizes {
        let chunked = outcome(name, bytes, size);
        assert!(
            chunked == whole,
            "{name}, chunks of {size} bytes: {:.300?}\nin one chunk: {:.300?}\nfile:\n{}",
            chunked,
            whole,
            String::from_utf8_lossy(&bytes[..bytes.len().min(2000)])
        );
    }
    whole
}

/// A random OBJ file of `lines` statements: vertices in every number form,
/// faces of 1 to 6 corners in every index form (negative ones too), groups,
/// comments (some continued), skipped elements, `\r\n` and `\` line
/// continuations; `bad` lines that must fail are spliced in at random.
fn random_obj(rng: &mut Rng, lines: usize, bad: usize) -> String {
    let mut text = String::new();
    let mut vertices = 0i64;
    let mut bad_left = bad;
    for k in 0..lines {
        let end = if rng.chance(30) { "\r\n" } else { "\n" };
        if bad_left > 0 && rng.below(lines - k) < bad_left {
            bad_left -= 1;
            let line = match rng.below(8) {
                0 => "v 1 2".to_string(),
                1 => "v 1 x 3".to_string(),
                2 => "v inf 0 0".to_string(),
                3 => "f 1 0 2".to_string(),
                4 => format!("f 1 {} 2", vertices + 5),
                5 => "f 1 a 2".to_string(),
                6 => format!("f {} 1 a", vertices + 3),
                _ => format!("f -{} 1 2", vertices + 1),
            };
            write!(text, "{line}{end}").unwrap();
            continue;
        }
        let statement = rng.below(100);
        if vertices < 3 || statement < 40 {
            let extra = if rng.chance(10) { " 1.0" } else { "" };
            let (x, y, z) = (rng.coordinate(), rng.coordinate(), rng.coordinate());
            if rng.chance(10) {
                write!(text, "v {x} \\{end}  {y} \\{end}{z}{extra}{end}").unwrap();
            } else {
                write!(text, "v {x} {y} {z}{extra}{end}").unwrap();
            }
            vertices += 1;
        } else if statement < 80 {
            let n = [1, 2, 3, 3, 3, 3, 4, 4, 5, 6][rng.below(10)];
            let mut face = String::from("f");
            for _ in 0..n {
                let v = 1 + rng.below(vertices as usize) as i64;
                let index = if rng.chance(30) {
                    format!("{}", v - vertices - 1)
                } else {
                    v.to_string()
                };
                let corner = match rng.below(4) {
                    0 => format!("{index}/1"),
                    1 => format!("{index}//2"),
                    2 => format!("{index}/3/4"),
                    _ => index,
                };
                write!(face, " {corner}").unwrap();
            }
            if rng.chance(5) {
                face.push_str(" \\");
                face.push_str(end);
            }
            write!(text, "{face}{end}").unwrap();
        } else {
            let line = match rng.below(12) {
                0 => format!("o part{}", rng.below(100)),
                1 => "g".to_string(),
                2 => "g  spaced  name ".to_string(),
                3 => "# a comment, f 1 2 3".to_string(),
                // The next line is part of the comment.
                4 => format!("# a continued comment \\{end}f 1 2 0 x"),
                5 => "l 1 2".to_string(),
                6 => "p 1".to_string(),
                7 => "vt 0.5 0.5".to_string(),
                8 => "vn 0 0 1".to_string(),
                9 => "usemtl steel".to_string(),
                10 => "s off".to_string(),
                _ => String::new(),
            };
            write!(text, "{line}{end}").unwrap();
        }
    }
    text
}

#[test]
fn obj_chunks_read_as_one() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut loaded, mut refused) = (0, 0);
    for case in 0..60 {
        let bad = if case % 3 == 2 { 1 + case % 2 } else { 0 };
        let lines = 40 + rng.below(200);
        let text = random_obj(&mut rng, lines, bad);
        match agree("random.obj", text.as_bytes(), &SIZES) {
            Ok(_) => loaded += 1,
            Err(e) => {
                assert!(e.contains("random.obj: line "), "{e}");
                refused += 1;
            }
        }
        // Without a final newline, with a BOM, as UTF-16: the same again.
        let trimmed = text.trim_end_matches(['\n', '\r']);
        agree("random.obj", trimmed.as_bytes(), &SIZES).ok();
        if case % 10 == 0 {
            let bom = [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
            agree("random.obj", &bom, &SIZES).ok();
            let utf16: Vec<u8> = [0xFF, 0xFE]
                .into_iter()
                .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
                .collect();
            agree("random.obj", &utf16, &SIZES).ok();
        }
    }
    // Both kinds of file were made: the comparison is not of errors alone.
    assert!(
        loaded >= 30 && refused >= 10,
        "{loaded} loaded, {refused} refused"
    );
}

/// A concave star of `n` corners in the plane z = `z` (ear clipping
/// examines about n²/2 corners or more to cut it).
fn star(text: &mut String, n: usize, z: f64) {
    for i in 0..n {
        let r = if i % 2 == 0 {
            1.0
        } else {
            0.4 + 0.1 * (i % 7) as f64
        };
        let a = i as f64 * std::f64::consts::TAU / n as f64;
        writeln!(text, "v {} {} {z}", r * a.cos(), r * a.sin()).unwrap();
    }
    text.push('f');
    for i in 0..n {
        write!(text, " {}", i as i64 - n as i64).unwrap();
    }
    text.push('\n');
}

#[test]
fn obj_work_budget_is_shared_as_in_one_pass() {
    // A star needs more than its own share of the budget (256 a corner):
    // a chunk that starts from 0 runs out and must be cut again from the
    // budget the faces before it left. Four stars of 2,400 corners then
    // use up the file's budget itself, so the last ones are fanned.
    let mut text = String::new();
    for s in 0..4 {
        for k in 0..20 {
            writeln!(
                text,
                "v {k} 0 {s}\nv {k} 1 {s}\nv {k} 0.5 {s}.5\nf -1 -2 -3"
            )
            .unwrap();
        }
        star(&mut text, 2400, s as f64);
    }
    agree("stars.obj", text.as_bytes(), &[1, 61, 4096]).unwrap();
    let scene = bvtool::load::load_bytes(
        Path::new("stars.obj"),
        text.as_bytes(),
        &LoadOptions::default(),
    )
    .unwrap();
    assert_eq!(scene.triangle_count(), 4 * (20 + 2398));
}

/// A random ASCII STL file: solids named or not, facets inside and outside
/// them, keywords in any case, blank lines, `\r\n`; `bad` broken
/// statements spliced in.
fn random_ascii_stl(rng: &mut Rng, facets: usize, bad: usize) -> String {
    let mut text = String::new();
    let mut bad_left = bad;
    let shout = |rng: &mut Rng, w: &str| {
        if rng.chance(20) {
            w.to_uppercase()
        } else {
            w.to_string()
        }
    };
    text.push_str("solid first\n");
    for k in 0..facets {
        let end = if rng.chance(30) { "\r\n" } else { "\n" };
        match rng.below(20) {
            0 => write!(text, "endsolid first{end}solid{end}").unwrap(),
            1 => write!(text, "endsolid{end}").unwrap(),
            2 => write!(text, "{end}").unwrap(),
            _ => {}
        }
        if bad_left > 0 && rng.below(facets - k) < bad_left {
            bad_left -= 1;
            let line = match rng.below(6) {
                0 => "outer loop\nvertex 0 0 0\nvertex 1 0 0\nendloop",
                1 => "vertex 0 0 0",
                2 => "outer loop\nvertex 0 0 x\nvertex 1 0 0\nvertex 0 1 0\nendloop",
                3 => "facet normal 0 0 1\nbogus",
                4 => "outer loop\nvertex 0 0 1e999\nvertex 1 0 0\nvertex 0 1 0\nendloop",
                _ => "outer loop\nvertex 0 0 0",
            };
            write!(text, "{line}{end}").unwrap();
            continue;
        }
        write!(text, "  {} normal 0 0 1{end}", shout(rng, "facet")).unwrap();
        if rng.chance(5) {
            // An interrupted loop: the next `outer` starts the facet afresh.
            write!(text, "    outer loop{end}      vertex 9 9 9{end}").unwrap();
        }
        write!(text, "    {} loop{end}", shout(rng, "outer")).unwrap();
        for _ in 0..3 {
            let (x, y, z) = (rng.coordinate(), rng.coordinate(), rng.coordinate());
            write!(text, "      {} {x} {y} {z}{end}", shout(rng, "vertex")).unwrap();
        }
        write!(text, "    endloop{end}  endfacet{end}").unwrap();
    }
    if rng.chance(50) {
        text.push_str("endsolid first\n");
    }
    text
}

#[test]
fn ascii_stl_chunks_read_as_one() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let (mut loaded, mut refused) = (0, 0);
    for case in 0..60 {
        let bad = if case % 3 == 2 { 1 + case % 2 } else { 0 };
        let facets = 5 + rng.below(60);
        let text = random_ascii_stl(&mut rng, facets, bad);
        match agree("random.stl", text.as_bytes(), &SIZES) {
            Ok(_) => loaded += 1,
            Err(e) => {
                assert!(e.contains("random.stl: "), "{e}");
                refused += 1;
            }
        }
    }
    assert!(
        loaded >= 30 && refused >= 10,
        "{loaded} loaded, {refused} refused"
    );
}

/// A binary STL of `n` triangles with a non-finite coordinate in each of
/// `bad` triangles.
fn binary_stl(rng: &mut Rng, n: usize, bad: &[usize]) -> Vec<u8> {
    let mut bytes = vec![b'x'; 80];
    bytes.extend((n as u32).to_le_bytes());
    for t in 0..n {
        bytes.extend([0u8; 12]);
        for c in 0..9 {
            let x = if bad.contains(&t) && c == 4 {
                f32::NAN
            } else {
                rng.below(1000) as f32 / 7.0
            };
            bytes.extend(x.to_le_bytes());
        }
        bytes.extend([0u8; 2]);
    }
    bytes
}

#[test]
fn binary_stl_decoded_in_parallel_as_in_order() {
    let mut rng = Rng(42);
    let n = 20_000;
    let bytes = binary_stl(&mut rng, n, &[]);
    let scene =
        bvtool::load::load_bytes(Path::new("b.stl"), &bytes, &LoadOptions::default()).unwrap();
    // The oracle: the records decoded one by one here.
    let positions = &scene.instances[0].geometry.positions;
    assert_eq!(positions.len(), 3 * n);
    let decoded = bytes[84..].chunks_exact(50).flat_map(|rec| {
        rec[12..48]
            .chunks_exact(4)
            .map(|x| f32::from_le_bytes(x.try_into().unwrap()) as f64)
    });
    assert!(positions.iter().flat_map(|p| p.iter().copied()).eq(decoded));
    // The first bad triangle is named, wherever the threads met them.
    for bad in [
        vec![0],
        vec![n - 1],
        vec![777, 15_000],
        vec![15_000, 777, 16_000],
    ] {
        let bytes = binary_stl(&mut rng, n, &bad);
        let e = agree("b.stl", &bytes, &SIZES).unwrap_err();
        let first = bad.iter().min().unwrap();
        assert!(
            e.ends_with(&format!(
                "b.stl: triangle {first}: non-finite vertex coordinate"
            )),
            "{e}"
        );
    }
}

#[test]
fn scene_flattened_in_parallel_as_in_order() {
    use bvtool::mesh::{Format, Geometry, MeshInstance, Scene, TriangleSource};
    use nalgebra::{Matrix4, Point3, Vector3};
    let mut rng = Rng(7);
    // Instances of every size (empty ones too, one large), some mirrored.
    let mut instances = Vec::new();
    for k in 0..300 {
        let n = match k {
            0 | 5 | 299 => 0,
            100 => 30_000,
            _ => rng.below(40),
        };
        let positions: Vec<Point3<f64>> = (0..n + 2)
            .map(|_| Point3::new(rng.below(100) as f64, rng.below(100) as f64, k as f64))
            .collect();
        let triangles = (0..n as u32).map(|t| [t, t + 1, t + 2]).collect();
        let geometry = Geometry {
            positions: if n == 0 { Vec::new() } else { positions },
            triangles,
        };
        let mut inst = MeshInstance::unplaced(k as u32, None, geometry);
        let flip = if rng.chance(30) { -1.0 } else { 1.0 };
        inst.transform = Matrix4::new_translation(&Vector3::new(k as f64, 0.5, -2.0))
            * Matrix4::new_nonuniform_scaling(&Vector3::new(flip, 2.0, 0.5));
        inst.node = Some(k as u32);
        instances.push(inst);
    }
    let scene = Scene {
        path: "made.glb".into(),
        format: Format::Glb,
        instances,
        skipped_primitives: 0,
        extensions: Vec::new(),
    };
    let mesh = scene.flatten();
    // The oracle: the instances placed one after the other, here.
    let (mut vertices, mut triangles, mut sources) = (Vec::new(), Vec::new(), Vec::new());
    for inst in &scene.instances {
        let base = vertices.len() as u32;
        vertices.extend(inst.geometry.positions.iter().map(|p| inst.to_world(p)));
        for (k, t) in inst.geometry.triangles.iter().enumerate() {
            let t = if inst.is_mirrored() {
                [t[0], t[2], t[1]]
            } else {
                *t
            };
            triangles.push(t.map(|v| v + base));
            sources.push(TriangleSource {
                node: inst.node,
                instance: inst.instance,
                mesh: inst.mesh,
                primitive: inst.primitive,
                triangle: k as u32,
            });
        }
    }
    assert!(triangles.len() > 30_000 && sources.iter().any(|s| s.node == Some(298)));
    assert_eq!(mesh.vertices, vertices);
    assert_eq!(mesh.triangles, triangles);
    assert_eq!(mesh.sources, sources);
}
