//! The pieces of the picture of a motion: ghost layers blended over the
//! opaque picture, the copies' times, the simplified ghost mesh.

use bvtool::query::motion::Motion;
use bvtool::render::sweep::{COPIES, SweepEnd, copy_times, simplified};
use bvtool::render::{Layout, RenderOptions, RenderScene, View, cameras, render};
use bvtool::{Pose, TriMesh};
use bvtool_dev::render_check::{WHITE, px};
use bvtool_dev::shapes::uv_sphere;
use nalgebra::{Point3, UnitQuaternion, Vector3};

/// `old` mixed with `c` at weight `alpha` of 255, rounded (the canvas's
/// blend).
fn mix(old: [u8; 3], c: [u8; 3], alpha: u32) -> [u8; 3] {
    [0, 1, 2].map(|k| ((old[k] as u32 * (255 - alpha) + c[k] as u32 * alpha + 127) / 255) as u8)
}

/// Vertices and triangles of a piece of a mesh.
type Part = (Vec<Point3<f64>>, Vec<[u32; 3]>);

/// An axis-aligned rectangle `[x0, x1] × [y0, y1]` at height `z`, facing
/// the front view.
fn rect(x0: f64, x1: f64, y0: f64, y1: f64, z: f64) -> Part {
    let v = vec![
        Point3::new(x0, y0, z),
        Point3::new(x1, y0, z),
        Point3::new(x1, y1, z),
        Point3::new(x0, y1, z),
    ];
    (v, vec![[0, 1, 2], [0, 2, 3]])
}

fn join(parts: &[Part]) -> TriMesh {
    let (mut v, mut t) = (Vec::new(), Vec::new());
    for (pv, pt) in parts {
        let first = v.len() as u32;
        v.extend(pv);
        t.extend(pt.iter().map(|tri| tri.map(|i| i + first)));
    }
    TriMesh::unplaced(v, t)
}

/// A ghost in front of an opaque surface is blended over it once (its own
/// surfaces behind its nearest add nothing); behind it, it does not show;
/// over the background it is blended over the background.
#[test]
fn ghosts_blend_once_and_only_in_front() {
    let opaque = join(&[rect(0.0, 4.0, 0.0, 4.0, 0.0)]);
    let ghost = join(&[
        rect(2.0, 6.0, 0.5, 1.5, 1.0),
        rect(2.0, 6.0, 0.5, 1.5, 1.5), // a second surface of the ghost, nearer
        rect(2.0, 6.0, 2.5, 3.5, -1.0),
    ]);
    let mut scene = RenderScene::new();
    let grey = scene.add_mesh(opaque).color;
    let layer = scene.add_mesh(ghost);
    layer.opacity = 0.35;
    let sand = layer.color;
    let o = RenderOptions {
        layout: Layout::Single(View::Front),
        width: 300,
        height: 200,
        triad: false,
        ..Default::default()
    };
    let img = render(&scene, &o).unwrap();
    let cam = cameras(&scene, &o)[0];
    let at = |x: f64, y: f64| {
        let (u, v) = cam.project(Point3::new(x, y, 0.0));
        px(&img, u.floor() as i64, v.floor() as i64).unwrap()
    };
    let alpha = 89; // 0.35 of 255, rounded
    assert_eq!(at(3.0, 1.0), mix(grey, sand, alpha), "in front of A");
    assert_eq!(at(5.0, 1.0), mix(WHITE, sand, alpha), "over the background");
    assert_eq!(at(3.0, 3.0), grey, "behind the opaque square");
    assert_eq!(at(5.0, 3.0), mix(WHITE, sand, alpha), "behind nothing");
    assert_eq!(at(1.0, 2.0), grey, "no ghost");
    assert_eq!(at(5.0, 2.0), WHITE, "nothing");
}

fn at_x(x: f64) -> Pose {
    Pose::new(Vector3::new(x, 0.0, 0.0), UnitQuaternion::identity())
}

/// The copies are spaced evenly by how far B moves, across segments, and
/// the last is the end.
#[test]
fn copies_are_spread_by_how_far_b_moves() {
    // Two segments, the second three times as long; the motion ends half
    // way along the second: 1 + 1.5 = 2.5 units in COPIES − 1 steps.
    let path = [at_x(0.0), at_x(1.0), at_x(4.0)];
    let end = SweepEnd {
        segment: 1,
        t: 0.5,
        contact: None,
    };
    let times = copy_times(&path, &end, 1.0);
    assert_eq!(times.len(), COPIES);
    assert_eq!(*times.last().unwrap(), (1, 0.5));
    let steps = (COPIES - 1) as f64;
    for (k, &(s, t)) in times.iter().enumerate() {
        let x = Motion::new(path[s], path[s + 1]).pose_at(t).translation.x;
        assert!((x - 2.5 * k as f64 / steps).abs() < 1e-12, "{k}: {x}");
    }
    // A turn counts by the radius: a half turn about z of a body of
    // radius 2 moves its far points by π·2, as far as a translation of 2π.
    let turn = Pose::new(
        Vector3::zeros(),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::PI),
    );
    let path = [
        at_x(0.0),
        turn,
        Pose::new(Vector3::new(std::f64::consts::TAU, 0.0, 0.0), turn.rotation),
    ];
    let end = SweepEnd {
        segment: 1,
        t: 1.0,
        contact: None,
    };
    let times = copy_times(&path, &end, 2.0);
    let (s, t) = times[(COPIES - 1) / 2];
    let middle = Motion::new(path[s], path[s + 1]).pose_at(t);
    assert!(
        middle.translation.norm() < 1e-9 && middle.rotation.angle_to(&turn.rotation) < 1e-9,
        "{times:?}"
    );
    // No motion before the end: one copy.
    let still = SweepEnd {
        segment: 0,
        t: 0.0,
        contact: None,
    };
    assert_eq!(copy_times(&path, &still, 1.0), vec![(0, 0.0)]);
}

/// A large B is simplified for its ghosts to at most the cap, not far
/// below it, its corners on or just inside the surface; a small one is
/// left as it is.
#[test]
fn simplified_meets_the_cap_and_stays_near_the_surface() {
    let sphere = uv_sphere(400, 200, 1.0);
    assert!(sphere.triangles.len() > 150_000);
    for cap in [20_000, 2_000, 100] {
        let s = simplified(&sphere, cap);
        let n = s.triangles.len();
        assert!(n <= cap && n >= cap / 8, "cap {cap}: {n} triangles");
        // Each corner is the mean of sphere points in one small cube.
        let deepest = if cap >= 2_000 { 0.9 } else { 0.0 };
        for v in &s.vertices {
            let r = v.coords.norm();
            assert!(r <= 1.0 + 1e-12 && r >= deepest, "cap {cap}: |v| = {r}");
        }
        assert!(
            s.triangles
                .iter()
                .flatten()
                .all(|&i| (i as usize) < s.vertices.len())
        );
    }
    let small = uv_sphere(16, 8, 1.0);
    assert_eq!(simplified(&small, 20_000).triangles, small.triangles);
}
