//! The collider shapes in pictures: a capsule, a cylinder and a k-DOP are
//! drawn where the camera projects their outlines (colour at sampled
//! outline points, and nowhere else in the drawing), around a mesh of that
//! very shape whose silhouette lies inside the outline; and `bvtool render
//! --volumes` draws each fitted shape of the chain.

use bvtool_dev as common;
use bvtool_dev::render_check as render_support;

use bvtool::TriMesh;
use bvtool::fit::ShapeSpec;
use bvtool::fit::{self, Capsule, Cylinder, FittedShape, Kdop, KdopKind, covariance};
use bvtool::render::compose::model_picture;
use bvtool::render::{
    Camera, Layout, PALETTE, RenderOptions, RenderScene, Rgb, View, Volume, cameras, render,
};
use image::RgbImage;
use nalgebra::{Point3, Rotation3, Vector3};
use render_support::*;

const VIEWS: [View; 4] = [View::Iso, View::Front, View::Side, View::Top];

fn opts(view: View) -> RenderOptions {
    RenderOptions {
        layout: Layout::Single(view),
        width: 480,
        height: 400,
        triad: false,
        ..Default::default()
    }
}

fn placement() -> (Rotation3<f64>, Vector3<f64>) {
    (
        Rotation3::from_euler_angles(0.5, -0.3, 0.9),
        Vector3::new(2.0, -1.0, 0.5),
    )
}

/// A capsule of `radius` and half segment length `half` along +Y, turned
/// and moved by [`placement`]: a UV sphere whose halves are moved apart.
fn capsule_mesh(radius: f64, half: f64) -> TriMesh {
    let (rot, at) = placement();
    let mut m = ellipsoid(
        Vector3::repeat(radius),
        Rotation3::identity(),
        Vector3::zeros(),
    );
    for v in &mut m.vertices {
        v.y += half * v.y.signum();
        *v = Point3::from(rot * v.coords + at);
    }
    m
}

/// A closed prism on a regular 48-gon of circumradius `radius`, half height
/// `half` along +Y, placed by [`placement`].
fn cylinder_mesh(radius: f64, half: f64) -> TriMesh {
    let (rot, at) = placement();
    let n = 48u32;
    let mut vertices = vec![Point3::new(0.0, -half, 0.0), Point3::new(0.0, half, 0.0)];
    for y in [-half, half] {
        for k in 0..n {
            let t = std::f64::consts::TAU * k as f64 / n as f64;
            vertices.push(Point3::new(radius * t.cos(), y, radius * t.sin()));
        }
    }
    let mut triangles = Vec::new();
    for k in 0..n {
        let (a, b) = (2 + k, 2 + (k + 1) % n);
        triangles.extend([
            [0, b, a],
            [1, a + n, b + n],
            [a, b, b + n],
            [a, b + n, a + n],
        ]);
    }
    let vertices = vertices
        .into_iter()
        .map(|v| Point3::from(rot * v.coords + at))
        .collect();
    TriMesh::unplaced(vertices, triangles)
}

/// The axes to seed the round fits with: the PCA frame's.
fn seeds(points: &[Point3<f64>]) -> Vec<Vector3<f64>> {
    let (_, cov) = covariance::of_points(points).unwrap();
    let f = covariance::principal_frame(&cov);
    (0..3).map(|i| f.column(i).into_owned()).collect()
}

/// One piece of a projected outline: a circle (centre, radius) or a segment.
enum Piece {
    Circle((f64, f64), f64),
    Segment((f64, f64), (f64, f64)),
}

impl Piece {
    fn distance(&self, q: (f64, f64)) -> f64 {
        match self {
            Piece::Circle(c, r) => ((q.0 - c.0).hypot(q.1 - c.1) - r).abs(),
            Piece::Segment(a, b) => dist_to_segment(q, *a, *b),
        }
    }

    /// Points along it: 32 around a circle, 5 along a segment.
    fn samples(&self) -> Vec<(f64, f64)> {
        match self {
            Piece::Circle(c, r) => (0..32)
                .map(|k| {
                    let a = std::f64::consts::TAU * k as f64 / 32.0;
                    (c.0 + r * a.cos(), c.1 + r * a.sin())
                })
                .collect(),
            Piece::Segment(a, b) => (1..6)
                .map(|k| {
                    let t = k as f64 / 6.0;
                    (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
                })
                .collect(),
        }
    }
}

/// A capsule's outline as `cam` projects it: its end spheres' circles and
/// the two lines tangent to both.
fn capsule_outline(c: &Capsule, cam: &Camera) -> Vec<Piece> {
    let r = c.radius * cam.scale;
    let [p, q] = [-1.0, 1.0].map(|s| cam.project(c.center + c.axis * (s * c.half_length)));
    let len = (q.0 - p.0).hypot(q.1 - p.1);
    let mut out = vec![Piece::Circle(p, r), Piece::Circle(q, r)];
    // Seen along its axis, a capsule is one disc.
    if len > 1e-6 {
        let n = (-(q.1 - p.1) / len * r, (q.0 - p.0) / len * r);
        for s in [-1.0, 1.0] {
            let (a, b) = (
                (p.0 + s * n.0, p.1 + s * n.1),
                (q.0 + s * n.0, q.1 + s * n.1),
            );
            out.push(Piece::Segment(a, b));
        }
    }
    out
}

/// A cylinder's outline: its rims (as 256-gons) and its two silhouette
/// generators, found independently of the renderer as the rim points
/// farthest either side of the projected axis.
fn cylinder_outline(c: &Cylinder, cam: &Camera) -> Vec<Piece> {
    let a = c.axis;
    let u = a.cross(&Vector3::new(0.3, 0.5, 0.8)).normalize();
    let v = a.cross(&u);
    let rim = |h: f64| -> Vec<(f64, f64)> {
        (0..256)
            .map(|k| {
                let t = std::f64::consts::TAU * k as f64 / 256.0;
                cam.project(c.center + a * h + (u * t.cos() + v * t.sin()) * c.radius)
            })
            .collect()
    };
    let (lo, hi) = (rim(-c.half_height), rim(c.half_height));
    let mut out = Vec::new();
    for r in [&lo, &hi] {
        for k in 0..r.len() {
            out.push(Piece::Segment(r[k], r[(k + 1) % r.len()]));
        }
    }
    let (p, q) = (
        cam.project(c.center - a * c.half_height),
        cam.project(c.center + a * c.half_height),
    );
    let len = (q.0 - p.0).hypot(q.1 - p.1);
    if len > 1.0 {
        let side = |w: &(f64, f64)| ((w.0 - p.0) * (q.1 - p.1) - (w.1 - p.1) * (q.0 - p.0)) / len;
        for pick in [f64::max, f64::min] {
            let k = (0..lo.len())
                .reduce(|i, j| {
                    if pick(side(&lo[i]), side(&lo[j])) == side(&lo[i]) {
                        i
                    } else {
                        j
                    }
                })
                .unwrap();
            out.push(Piece::Segment(lo[k], hi[k]));
        }
    }
    out
}

/// Colour `color` is at every sample of the outline and, inside the
/// outline's bounding box (the legend lies below it), at no pixel farther
/// than 2 px from it; the shaded model's pixels lie inside `inside` (a
/// test of a pixel centre). Returns the outline-coloured pixel count.
fn assert_drawn(
    what: &str,
    img: &RgbImage,
    outline: &[Piece],
    color: Rgb,
    inside: &dyn Fn((f64, f64)) -> bool,
) -> usize {
    let samples: Vec<(f64, f64)> = outline.iter().flat_map(Piece::samples).collect();
    for p in &samples {
        assert!(
            colour_near(img, *p, 1, color),
            "{what}: no outline at {p:?}"
        );
    }
    let drawing = near_bounds(&samples, 4.0);
    let mut seen = 0;
    for (x, y, p) in img.enumerate_pixels() {
        let q = (x as f64 + 0.5, y as f64 + 0.5);
        if !drawing(q) {
            continue;
        }
        let d = outline
            .iter()
            .map(|o| o.distance(q))
            .fold(f64::MAX, f64::min);
        if close(p.0, color, 2) {
            seen += 1;
            assert!(d <= 2.0, "{what}: outline colour at {q:?}, {d:.2} px off");
        } else if p.0 != WHITE && d > 3.0 {
            // A model pixel (not the anti-aliased outline's fringe).
            assert!(inside(q), "{what}: model pixel {q:?} outside the outline");
        }
    }
    assert!(seen > 200, "{what}: only {seen} outline pixels");
    seen
}

/// An outline and a test of the model's pixels, for one camera.
type Look = (Vec<Piece>, Box<dyn Fn((f64, f64)) -> bool>);

/// [`assert_drawn`] in every view of `scene`, with the outline and inside
/// test `look` gives for its camera.
fn assert_views(scene: &RenderScene, color: Rgb, look: &dyn Fn(&Camera) -> Look) {
    for view in VIEWS {
        let o = opts(view);
        let img = render(scene, &o).unwrap();
        let (outline, inside) = look(&cameras(scene, &o)[0]);
        assert_drawn(&format!("{view:?}"), &img, &outline, color, &*inside);
    }
}

/// A capsule's outline, and its inside: within the radius of the
/// projected segment.
fn capsule_look(c: &Capsule, cam: &Camera) -> Look {
    let [p, q] = [-1.0, 1.0].map(|s| cam.project(c.center + c.axis * (s * c.half_length)));
    let r = c.radius * cam.scale;
    let inside = move |x| dist_to_segment(x, p, q) <= r + 1.0;
    (capsule_outline(c, cam), Box::new(inside))
}

#[test]
fn capsule_is_drawn_as_its_outline_around_a_capsule_mesh() {
    let mesh = capsule_mesh(1.0, 2.0);
    let c = fit::capsule(&mesh.vertices, &seeds(&mesh.vertices)).unwrap();
    // The fit finds the mesh's own capsule (its vertices lie on it; the
    // polygonal caps let it shrink a little).
    assert!((0.97..=1.001).contains(&c.radius), "radius {}", c.radius);
    assert!((1.9..=2.05).contains(&c.half_length), "{}", c.half_length);
    let (rot, _) = placement();
    assert!(c.axis.dot(&(rot * Vector3::y())).abs() > 0.999);
    let mut scene = RenderScene::new();
    scene.add_mesh(mesh);
    let color = scene
        .add_volume(Volume::Shape(FittedShape::Capsule(c)), "capsule")
        .color;
    assert_views(&scene, color, &|cam| capsule_look(&c, cam));
}

#[test]
fn cylinder_is_drawn_as_its_rims_and_sides_around_a_cylinder_mesh() {
    let mesh = cylinder_mesh(1.5, 1.0);
    let c = fit::cylinder(&mesh.vertices, &seeds(&mesh.vertices)).unwrap();
    assert!((1.499..=1.501).contains(&c.radius), "radius {}", c.radius);
    assert!(
        (0.999..=1.001).contains(&c.half_height),
        "{}",
        c.half_height
    );
    let mut scene = RenderScene::new();
    scene.add_mesh(mesh.clone());
    let color = scene
        .add_volume(Volume::Shape(FittedShape::Cylinder(c)), "cylinder")
        .color;
    assert_views(&scene, color, &|cam| {
        // The model's silhouette: inside the hull of its projected vertices.
        let h = hull(mesh.vertices.iter().map(|v| cam.project(*v)).collect());
        (
            cylinder_outline(&c, cam),
            Box::new(move |x| outside_by(&h, x) <= 1.0),
        )
    });
}

#[test]
fn kdop_is_drawn_as_its_edges() {
    let mesh = capsule_mesh(0.8, 1.5);
    let k = Kdop::new(&mesh.vertices, KdopKind::K18, nalgebra::Matrix3::identity()).unwrap();
    let mut scene = RenderScene::new();
    scene.add_mesh(mesh);
    let volume = Volume::Shape(FittedShape::Kdop(k.clone()));
    let color = scene.add_volume(volume, "18-DOP").color;
    assert_views(&scene, color, &|cam| {
        let px: Vec<(f64, f64)> = k.vertices.iter().map(|v| cam.project(*v)).collect();
        let mut outline = Vec::new();
        for f in &k.faces {
            for i in 0..f.len() {
                let (a, b) = (f[i] as usize, f[(i + 1) % f.len()] as usize);
                outline.push(Piece::Segment(px[a], px[b]));
            }
        }
        let h = hull(px);
        (outline, Box::new(move |x| outside_by(&h, x) <= 1.0))
    });
}

/// Pixels of colour `c` in the picture.
fn count(img: &RgbImage, c: Rgb) -> usize {
    img.pixels().filter(|p| close(p.0, c, 2)).count()
}

/// `model_picture` (what `bvtool render` draws) with each new shape on the
/// chain: the shape's colour covers a good many pixels, and a shape drawn
/// alone gives the same pixels as the picture built by hand from the
/// library's fit of the same points.
#[test]
fn render_draws_each_fitted_shape() {
    let scene = common::repo_scene("chain.gltf");
    let o = RenderOptions {
        width: 400,
        height: 300,
        triad: false,
        ..Default::default()
    };
    let kinds = ShapeSpec::parse_list("capsule,cylinder,kdop:14,hull:64,decompose").unwrap();
    assert_eq!(
        kinds,
        [
            ShapeSpec::Capsule,
            ShapeSpec::Cylinder,
            ShapeSpec::Kdop {
                kind: KdopKind::K14,
                oriented: false
            },
            ShapeSpec::Hull(Some(64)),
            ShapeSpec::Decompose
        ]
    );
    let img = model_picture(&scene, &kinds, false, &o).unwrap();
    for (k, kind) in kinds.iter().enumerate() {
        let n = count(&img, PALETTE[k]);
        assert!(n > 300, "{kind:?}: {n} pixels");
    }
    let per_mesh = model_picture(&scene, &kinds[..1], true, &o).unwrap();
    assert!(count(&per_mesh, PALETTE[0]) > 300);

    // The k-DOP alone, against the picture of the library's own k-DOP.
    let points = scene.world_points(false);
    let kdop = Kdop::new(&points, KdopKind::K14, nalgebra::Matrix3::identity()).unwrap();
    let mut by_hand = RenderScene::new();
    // The picture names the file and its triangles.
    by_hand.title = vec![format!("chain.gltf: {} triangles", 2 * 2304)];
    by_hand.add_mesh(scene.flatten());
    by_hand.add_volume(Volume::Polytope(kdop.vertices, kdop.faces), "14-DOP");
    let kinds = [ShapeSpec::Kdop {
        kind: KdopKind::K14,
        oriented: false,
    }];
    assert!(model_picture(&scene, &kinds, false, &o).unwrap() == render(&by_hand, &o).unwrap());

    // The oriented k-DOP: the same family along the tight box's axes, the
    // frame `fit --kdop` reports as `obb`.
    let kinds = ShapeSpec::parse_list("kdop-obb:18").unwrap();
    assert_eq!(
        kinds,
        [ShapeSpec::Kdop {
            kind: KdopKind::K18,
            oriented: true
        }]
    );
    let hull = fit::ConvexHull::new(&points).unwrap();
    let tight = fit::obb(&points, &hull, fit::ObbMethod::Tight).unwrap();
    let kdop = Kdop::new(&points, KdopKind::K18, tight.axes).unwrap();
    let mut by_hand = RenderScene::new();
    by_hand.title = vec![format!("chain.gltf: {} triangles", 2 * 2304)];
    by_hand.add_mesh(scene.flatten());
    by_hand.add_volume(
        Volume::Polytope(kdop.vertices, kdop.faces),
        "18-DOP (OBB frame)",
    );
    let oriented = model_picture(&scene, &kinds, false, &o).unwrap();
    assert!(oriented == render(&by_hand, &o).unwrap());
    assert!(count(&oriented, PALETTE[0]) > 300);

    for bad in [
        "hull:3",
        "hull:x",
        "kdop:7",
        "kdop-obb:9",
        "capsule:2",
        "cone",
    ] {
        let e = ShapeSpec::parse_list(bad).unwrap_err().to_string();
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

/// The command line: every new shape draws; a bad budget is a usage error
/// (exit 2) in one line naming the accepted range.
#[test]
fn command_line_shapes() {
    let dir = bvtool_dev::scratch!("render-shapes");
    let png = dir.join("chain.png");
    let chain = concat!(env!("CARGO_MANIFEST_DIR"), "/models/chain.gltf");
    let png_path = png.to_str().unwrap();
    let draw = |volumes: &str| {
        common::bvtool!(&[
            "render",
            chain,
            "-o",
            png_path,
            "--volumes",
            volumes,
            "--size",
            "320x240",
        ])
    };
    let (code, _, err) = draw("obb,capsule,cylinder,kdop,hull,decompose");
    assert_eq!(code, 0, "{err}");
    let img = image::open(&png).unwrap().to_rgb8();
    for (k, c) in PALETTE[..6].iter().enumerate() {
        assert!(count(&img, *c) > 50, "volume {k} not drawn");
    }
    let (code, _, err) = draw("hull:5000");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("8 to 1024") && err.lines().count() == 1,
        "{err}"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// Real models of different shapes with their capsule and cylinder (fitted
/// to their world vertices): in every view the outline is drawn where the
/// camera puts it and every model pixel lies inside it.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn real_models_lie_inside_their_drawn_capsules_and_cylinders() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    let models = [
        "gltf/Duck/glTF-Binary/Duck.glb",
        "obj/stanford-bunny.obj",
        "stl/assimp/Spider_binary.stl",
        "stl/mujoco_menagerie/robotiq_2f85/assets/base.stl",
    ];
    for rel in models {
        let scene = bvtool::load::load(&dir.join(rel), &Default::default()).unwrap();
        let points = scene.world_points(false);
        let c = fit::capsule(&points, &seeds(&points)).unwrap();
        let mut with_capsule = RenderScene::new();
        with_capsule.add_mesh(scene.flatten());
        let mut with_cylinder = with_capsule.clone();
        let color = with_capsule
            .add_volume(Volume::Shape(FittedShape::Capsule(c)), "capsule")
            .color;
        assert_views(&with_capsule, color, &|cam| capsule_look(&c, cam));
        let y = fit::cylinder(&points, &seeds(&points)).unwrap();
        let color = with_cylinder
            .add_volume(Volume::Shape(FittedShape::Cylinder(y)), "cylinder")
            .color;
        assert_views(&with_cylinder, color, &|cam| {
            let outline = cylinder_outline(&y, cam);
            let ends: Vec<(f64, f64)> = outline
                .iter()
                .flat_map(|p| match p {
                    Piece::Segment(a, b) => vec![*a, *b],
                    Piece::Circle(..) => Vec::new(),
                })
                .collect();
            let h = hull(ends);
            (outline, Box::new(move |x| outside_by(&h, x) <= 1.0))
        });
        eprintln!(
            "{rel}: capsule r {:.4} cylinder r {:.4}",
            c.radius, y.radius
        );
    }
}

/// `model_picture_until`: a flag set before gives `Stopped`; a flag never
/// set gives `model_picture`'s pixels.
#[test]
fn a_picture_stops_or_is_the_plain_one() {
    use bvtool::render::compose::model_picture_until;
    use bvtool::threads::{Stop, Stopped};
    use std::sync::atomic::AtomicBool;
    let scene = common::repo_scene("chain.gltf");
    let o = RenderOptions {
        width: 200,
        height: 150,
        ..Default::default()
    };
    let kinds = ShapeSpec::parse_list("box,capsule,hull:32").unwrap();
    let (set, unset) = (AtomicBool::new(true), AtomicBool::new(false));
    for per_mesh in [false, true] {
        assert!(matches!(
            model_picture_until(&scene, &kinds, per_mesh, &o, Stop::on(&set)),
            Err(Stopped)
        ));
        let until = model_picture_until(&scene, &kinds, per_mesh, &o, Stop::on(&unset))
            .expect("never stopped")
            .unwrap();
        let plain = model_picture(&scene, &kinds, per_mesh, &o).unwrap();
        assert!(until == plain, "per_mesh {per_mesh}");
    }
}
