//! Oriented boxes: known boxes recovered, fallbacks, rotation invariance.

use bvtool::fit::{Aabb, ConvexHull, HullError, Obb, ObbMethod, obb, obb_of_points};
use nalgebra::{Point3, Quaternion, UnitQuaternion, Vector3};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn fit(pts: &[Point3<f64>], m: ObbMethod) -> Obb {
    let hull = ConvexHull::new(pts).unwrap();
    let b = obb(pts, &hull, m).unwrap();
    for p in pts {
        assert!(b.contains(p, 0.0), "{m}: {p} outside");
    }
    let det = b.axes.determinant();
    assert!(
        (det - 1.0).abs() < 1e-9,
        "{m}: axes not a rotation (det {det})"
    );
    b
}

fn rotation(rng: &mut ChaCha8Rng) -> UnitQuaternion<f64> {
    let mut c = || rng.random_range(-1.0..1.0);
    UnitQuaternion::from_quaternion(Quaternion::new(c(), c(), c(), c()))
}

/// Corners of a box with half extents `h`, plus `interior` random points
/// inside it, all rotated by `r` and shifted.
fn rotated_box(rng: &mut ChaCha8Rng, h: Vector3<f64>, interior: usize) -> Vec<Point3<f64>> {
    let r = rotation(rng);
    let shift = Vector3::new(3.0, -1.0, 0.5);
    let mut local: Vec<Vector3<f64>> = (0..8)
        .map(|k| {
            let s = |b: usize, x: f64| if k & b == 0 { -x } else { x };
            Vector3::new(s(1, h.x), s(2, h.y), s(4, h.z))
        })
        .collect();
    local.extend((0..interior).map(|_| h.map(|x| rng.random_range(-x..=x))));
    local.iter().map(|v| Point3::from(r * v + shift)).collect()
}

fn sorted(v: Vector3<f64>) -> [f64; 3] {
    let mut a = [v.x, v.y, v.z];
    a.sort_by(f64::total_cmp);
    a
}

#[test]
fn tight_recovers_rotated_boxes() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for case in 0..40 {
        let h = if case % 4 == 0 {
            Vector3::repeat(1.0)
        } else {
            Vector3::from_fn(|_, _| rng.random_range(0.2..3.0))
        };
        let pts = rotated_box(&mut rng, h, if case % 2 == 0 { 0 } else { 300 });
        let b = fit(&pts, ObbMethod::Tight);
        let want = 8.0 * h.x * h.y * h.z;
        assert!(
            (b.volume() - want).abs() <= 1e-6 * want,
            "case {case}: volume {} vs {want}",
            b.volume()
        );
        for (got, want) in sorted(b.half_extents).iter().zip(sorted(h)) {
            assert!(
                (got - want).abs() <= 1e-6 * want,
                "case {case}: extent {got} vs {want}"
            );
        }
    }
}

#[test]
fn pca_is_worse_than_tight_on_a_rotated_cube_with_interior_points() {
    // The cube's corners have isotropic covariance; lopsided interior
    // points tilt the principal axes away from the faces.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut worst: f64 = 1.0;
    for _ in 0..20 {
        let mut pts = rotated_box(&mut rng, Vector3::repeat(1.0), 0);
        let (a, b, side) = (pts[0], pts[7], pts[1]);
        pts.extend((1..200).map(|i| {
            let t = i as f64 / 200.0;
            let c = a + (b - a) * t;
            c + (side - c) * (0.3 * t * t)
        }));
        let tight = fit(&pts, ObbMethod::Tight);
        let pca = fit(&pts, ObbMethod::Pca);
        assert!(
            (tight.volume() - 8.0).abs() < 8e-6,
            "tight {}",
            tight.volume()
        );
        assert!(pca.volume() >= tight.volume() * (1.0 - 1e-9));
        worst = worst.max(pca.volume() / tight.volume());
    }
    eprintln!("worst pca/tight volume ratio on rotated cubes: {worst:.3}");
    assert!(worst > 1.05, "pca never measurably worse ({worst})");
}

#[test]
fn every_method_is_no_worse_than_the_aabb() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for _ in 0..20 {
        let n = rng.random_range(4..400);
        let pts: Vec<_> = (0..n)
            .map(|_| {
                Point3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-2.0..2.0),
                    rng.random_range(0.0..0.3),
                )
            })
            .collect();
        let aabb = Aabb::from_points(&pts).unwrap().volume();
        let tight = fit(&pts, ObbMethod::Tight).volume();
        for m in [ObbMethod::Pca, ObbMethod::Hull] {
            let v = fit(&pts, m).volume();
            assert!(v <= aabb * (1.0 + 1e-9) + 1e-12, "{m}: {v} > aabb {aabb}");
            assert!(tight <= v * (1.0 + 1e-9) + 1e-12, "tight {tight} > {m} {v}");
        }
        assert!(ConvexHull::new(&pts).unwrap().volume() <= tight);
    }
    // A cube's vertex covariance is isotropic: the AABB fallback wins.
    let cube = rotated_box(&mut rng, Vector3::repeat(1.0), 0);
    let unrotated: Vec<_> = (0..8)
        .map(|k| Point3::new((k & 1) as f64, ((k >> 1) & 1) as f64, ((k >> 2) & 1) as f64))
        .collect();
    let b = fit(&unrotated, ObbMethod::Pca);
    assert!(
        (b.volume() - 1.0).abs() < 1e-12,
        "pca on a cube: {}",
        b.volume()
    );
    assert!((fit(&cube, ObbMethod::Tight).volume() - 8.0).abs() < 8e-6);
}

#[test]
fn degenerate_inputs_give_flat_boxes() {
    let tri = [
        Point3::new(0.0, 0.0, 1.0),
        Point3::new(2.0, 0.0, 1.0),
        Point3::new(0.0, 3.0, 1.0),
    ];
    for m in ObbMethod::ALL {
        let b = fit(&tri, *m);
        assert!(
            sorted(b.half_extents)[0] < 1e-12,
            "{m}: {:?}",
            b.half_extents
        );
    }
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let quad = rotated_box(&mut rng, Vector3::new(2.0, 0.5, 0.0), 20);
    let b = fit(&quad, ObbMethod::Tight);
    let e = sorted(b.half_extents);
    assert!(
        e[0] < 1e-12 && (e[1] - 0.5).abs() < 1e-9 && (e[2] - 2.0).abs() < 1e-9,
        "{e:?}"
    );
    assert!((b.surface_area() - 8.0).abs() < 1e-8);

    let line: Vec<_> = (0..10)
        .map(|i| Point3::new(i as f64, 2.0 * i as f64, -1.0))
        .collect();
    let b = fit(&line, ObbMethod::Tight);
    let e = sorted(b.half_extents);
    assert!(
        e[1] < 1e-12 && (e[2] - 0.5 * 9.0 * 5f64.sqrt()).abs() < 1e-9,
        "{e:?}"
    );
    let b = fit(&[Point3::new(1.0, 2.0, 3.0); 3], ObbMethod::Tight);
    assert!(b.half_extents.amax() < 1e-12);
}

/// The one-call fit (hull built on the way, covariance beside it) is the
/// two-call fit, to the bit, for every method, on clouds from a few points
/// to thousands, flat ones and repeated points; and it reports what the
/// hull refuses.
#[test]
fn one_call_fit_is_the_two_call_fit() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut clouds: Vec<Vec<Point3<f64>>> = (0..12)
        .map(|k| {
            let n = [4, 9, 60, 500, 5000][k % 5];
            let h = Vector3::new(1.0, 0.4, if k % 4 == 3 { 0.0 } else { 0.2 });
            rotated_box(&mut rng, h, n)
        })
        .collect();
    clouds.push(vec![Point3::new(1.0, 2.0, 3.0); 5]);
    clouds.push(lumpy_cloud());
    for pts in &clouds {
        let hull = ConvexHull::new(pts).unwrap();
        for &m in ObbMethod::ALL {
            let two = obb(pts, &hull, m).unwrap();
            let one = obb_of_points(pts, m).unwrap();
            assert_eq!(
                one.volume().to_bits(),
                two.volume().to_bits(),
                "{m}, {} points",
                pts.len()
            );
            assert_eq!(one.axes, two.axes, "{m}, {} points", pts.len());
            assert_eq!(one.center, two.center, "{m}, {} points", pts.len());
        }
    }
    assert_eq!(
        obb_of_points(&[], ObbMethod::Tight).unwrap_err(),
        HullError::Empty
    );
    let mut bad = lumpy_cloud();
    bad[7].y = f64::NAN;
    bad[9].x = f64::INFINITY;
    assert_eq!(
        obb_of_points(&bad, ObbMethod::Pca).unwrap_err(),
        HullError::NonFinite { index: 7 }
    );
}

/// An ellipsoid-like lumpy cloud: points on a deformed ellipsoid surface.
fn lumpy_cloud() -> Vec<Point3<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    (0..600)
        .map(|_| {
            let d: Vector3<f64> = Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0)).normalize();
            let bump = 1.0 + 0.15 * (3.0 * d.x).sin() * (2.0 * d.y).cos();
            Point3::new(3.0 * d.x, 1.5 * d.y, 0.8 * d.z) * bump
        })
        .collect()
}

fn tight_volume(pts: &[Point3<f64>]) -> f64 {
    fit(pts, ObbMethod::Tight).volume()
}

#[test]
fn tight_is_rotation_invariant_while_the_aabb_is_not() {
    let pts = lumpy_cloud();
    let base = tight_volume(&pts);
    let base_aabb = Aabb::from_points(&pts).unwrap().volume();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for _ in 0..24 {
        let r = rotation(&mut rng);
        let moved: Vec<_> = pts.iter().map(|p| r * p).collect();
        let v = tight_volume(&moved);
        assert!((v - base).abs() <= 0.005 * base, "tight {v} vs {base}");
        let ratio = Aabb::from_points(&moved).unwrap().volume() / base_aabb;
        lo = lo.min(ratio);
        hi = hi.max(ratio);
    }
    eprintln!("AABB volume ratio over 24 rotations: min {lo:.3}, max {hi:.3}");
    assert!(hi > 1.2, "the AABB should change under rotation");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    #[test]
    fn tight_volume_invariant_under_random_rotation(
        w in -1.0f64..1.0, x in -1.0f64..1.0, y in -1.0f64..1.0, z in -1.0f64..1.0
    ) {
        prop_assume!(w * w + x * x + y * y + z * z > 1e-3);
        let r = UnitQuaternion::from_quaternion(Quaternion::new(w, x, y, z));
        let pts = lumpy_cloud();
        let base = tight_volume(&pts);
        let moved: Vec<_> = pts.iter().map(|p| r * p).collect();
        let v = tight_volume(&moved);
        prop_assert!((v - base).abs() <= 0.005 * base, "tight {} vs {}", v, base);
    }
}

#[test]
fn method_names_round_trip() {
    for &m in ObbMethod::ALL {
        assert_eq!(m.as_str().parse::<ObbMethod>(), Ok(m));
        assert_eq!(serde_json::to_string(&m).unwrap(), format!("\"{m}\""));
    }
    assert!("minimal".parse::<ObbMethod>().is_err());
}
