//! The signed distance on closed corpus meshes, each against itself at 30
//! overlapping poses, against a sampling oracle built on the exact point
//! queries used differently: every corner, edge midpoint and centroid of
//! one surface (in the other's frame) tested inside the other exactly, its
//! exact distance to the other's surface; the deepest inside sample `L`
//! must not beat the reported depth's upper end (`depth + bound`), and the
//! depth must not exceed `L + h` (`h` half the longest edge, the sampling's
//! reach, the distance being 1-Lipschitz). Witnesses on the surfaces, the
//! deep point inside, `point_b − point_a = signed_distance·normal`.

use bvtool::query::Placement;
use bvtool::query::depth::{Protruding, SignedOptions, Solid, signed_distance};
use bvtool::query::point::{PointTree, SignMethod};
use bvtool::tree::ObbTree;
use bvtool::{Pose, TriMesh};
use nalgebra::{Point3, UnitQuaternion, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

const MESHES: &[&str] = &[
    "obj/pybullet/duck_vhacd.obj",
    "obj/pybullet/teddy2_VHACD_CHs.obj",
    "obj/common-3d-test-models/spot.obj",
];

/// The deepest sample of `surface` (placed by `place` into the solid's
/// frame) inside `solid`, and the sampling reach.
fn oracle(surface: &TriMesh, place: &Placement, solid: &PointTree) -> (f64, f64) {
    let mut h: f64 = 0.0;
    let mut pts = Vec::new();
    for i in 0..surface.triangles.len() {
        let t = place.triangle(&surface.triangle(i));
        for k in 0..3 {
            h = h.max((t[k] - t[(k + 1) % 3]).norm() / 2.0);
            pts.push(t[k]);
            pts.push(nalgebra::center(&t[k], &t[(k + 1) % 3]));
        }
        pts.push(Point3::from(
            (t[0].coords + t[1].coords + t[2].coords) / 3.0,
        ));
    }
    let l = pts
        .iter()
        .filter(|p| solid.contains(p))
        .map(|p| solid.distance(p))
        .fold(0.0, f64::max);
    (l, h)
}

#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn signed_distance_against_sampling_on_the_corpus() {
    let Some(dir) = bvtool_dev::models_dir() else {
        return;
    };
    let mut checked = 0;
    for (m_i, rel) in MESHES.iter().enumerate() {
        let mesh = bvtool::load::load(&dir.join(rel), &Default::default())
            .unwrap()
            .flatten();
        let points = PointTree::build(&mesh);
        if points.sign_method() != SignMethod::Winding {
            eprintln!(
                "{rel}: not closed and oriented ({:?}), skipped",
                points.sign_method()
            );
            continue;
        }
        let tree = ObbTree::build_default(&mesh, Default::default());
        let solid = Solid {
            tree: &tree,
            points: &points,
        };
        let (lo, hi) = mesh
            .vertices
            .iter()
            .fold((mesh.vertices[0], mesh.vertices[0]), |(lo, hi), p| {
                (lo.inf(p), hi.sup(p))
            });
        let (centre, diag) = (nalgebra::center(&lo, &hi), (hi - lo).norm());
        let scale = lo.coords.amax().max(hi.coords.amax()) + diag;
        let eps = 1e-9 * scale;
        let mut rng = ChaCha8Rng::seed_from_u64(m_i as u64);
        let poses: Vec<Pose> = (0..30)
            .map(|_| {
                let q = UnitQuaternion::from_quaternion(nalgebra::Quaternion::from(
                    nalgebra::Vector4::from_fn(|_, _| rng.random_range(-1.0..1.0)),
                ));
                let shift = Vector3::from_fn(|_, _| rng.random_range(-0.25..0.25) * diag);
                Pose::new(centre.coords - q * centre.coords + shift, q)
            })
            .collect();
        let deep = poses
            .par_iter()
            .filter(|pose| {
                let got = signed_distance(&solid, &solid, pose, &SignedOptions::default()).unwrap();
                assert!(!got.capped && got.bound <= got.tolerance, "{rel} {pose:?}");
                let place = Placement::new(pose);
                let inverse = Placement {
                    rotation: place.rotation.transpose(),
                    translation: -(place.rotation.transpose() * place.translation),
                };
                let (la, ha) = oracle(&mesh, &inverse, &points);
                let (lb, hb) = oracle(&mesh, &place, &points);
                let l = la.max(lb);
                assert!(
                    l <= got.depth + got.bound + eps,
                    "{rel} {pose:?}: sample {l} deeper than {} + {}",
                    got.depth,
                    got.bound
                );
                assert!(got.depth <= (la + ha).max(lb + hb) + eps, "{rel} {pose:?}");
                // Witnesses: A's on A, B's on B (in B's frame).
                let b_frame = inverse.apply(&got.point_b);
                assert!(points.distance(&got.point_a) <= eps, "{rel} {pose:?}");
                assert!(points.distance(&b_frame) <= eps, "{rel} {pose:?}");
                if got.depth == 0.0 {
                    assert_eq!(got.signed_distance, got.unsigned.distance);
                    return false;
                }
                let n = got.normal.unwrap();
                assert!(((got.point_b - got.point_a) - n * got.signed_distance).norm() <= eps);
                let inside = match got.side.unwrap() {
                    Protruding::A => points.contains(&inverse.apply(&got.point_a)),
                    Protruding::B => points.contains(&got.point_b),
                };
                assert!(inside, "{rel} {pose:?}: deep point outside");
                true
            })
            .count();
        assert!(deep >= 20, "{rel}: only {deep} of 30 poses overlap");
        checked += 1;
    }
    assert_eq!(checked, MESHES.len(), "a mesh was not closed");
}
