//! Bounding spheres against a brute-force minimal sphere.

use bvtool::fit::{ConvexHull, Sphere, SphereMethod, sphere, sphere_with_hull};
use nalgebra::{Matrix2, Matrix3, Point3, Vector2, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Centre and radius of the smallest sphere with `s` on its boundary, solved
/// with nalgebra's LU (independent of the library's closed forms).
fn support_ball(s: &[Point3<f64>]) -> Option<(Point3<f64>, f64)> {
    let a = s[0];
    let c = match s.len() {
        1 => a,
        2 => nalgebra::center(&a, &s[1]),
        3 => {
            let (u, v) = (s[1] - a, s[2] - a);
            let m = Matrix2::new(u.dot(&u), u.dot(&v), u.dot(&v), v.dot(&v));
            let x = m
                .lu()
                .solve(&Vector2::new(u.dot(&u) / 2.0, v.dot(&v) / 2.0))?;
            a + u * x.x + v * x.y
        }
        _ => {
            let (u, v, w) = (s[1] - a, s[2] - a, s[3] - a);
            let m = Matrix3::from_rows(&[u.transpose(), v.transpose(), w.transpose()]);
            let x = m
                .lu()
                .solve(&Vector3::new(u.dot(&u), v.dot(&v), w.dot(&w)).scale(0.5))?;
            a + x
        }
    };
    let r = nalgebra::distance(&c, &a);
    r.is_finite().then_some((c, r))
}

/// The minimal enclosing sphere's radius by enumerating every support of
/// 1–4 points.
fn brute_radius(pts: &[Point3<f64>]) -> f64 {
    let n = pts.len();
    let mut best = f64::INFINITY;
    let mut consider = |s: &[Point3<f64>]| {
        if let Some((c, r)) = support_ball(s)
            && r < best
            && pts
                .iter()
                .all(|p| nalgebra::distance(&c, p) <= r * (1.0 + 1e-9) + 1e-12)
        {
            best = r;
        }
    };
    for i in 0..n {
        consider(&[pts[i]]);
        for j in i + 1..n {
            consider(&[pts[i], pts[j]]);
            for k in j + 1..n {
                consider(&[pts[i], pts[j], pts[k]]);
                for l in k + 1..n {
                    consider(&[pts[i], pts[j], pts[k], pts[l]]);
                }
            }
        }
    }
    best
}

fn assert_contains(s: &Sphere, pts: &[Point3<f64>]) {
    for p in pts {
        assert!(s.contains(p, 0.0), "{p} outside {s:?}");
    }
}

fn check(pts: &[Point3<f64>], what: &str) {
    let exact = Sphere::exact(pts).unwrap();
    let brute = brute_radius(pts);
    assert!(
        (exact.radius - brute).abs() <= 1e-9 * brute.max(1e-300) + 1e-12,
        "{what}: exact {} vs brute force {}",
        exact.radius,
        brute
    );
    assert_contains(&exact, pts);
    for m in [SphereMethod::Centroid, SphereMethod::Ritter] {
        let s = sphere(pts, m).unwrap();
        assert_contains(&s, pts);
        assert!(
            exact.radius <= s.radius * (1.0 + 1e-12),
            "{what}: exact > {m}"
        );
    }
}

fn rand_point(rng: &mut ChaCha8Rng) -> Point3<f64> {
    Point3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    )
}

#[test]
fn exact_equals_brute_force_on_random_sets() {
    for seed in 0..400 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = rng.random_range(1..=12);
        let pts: Vec<_> = (0..n).map(|_| rand_point(&mut rng)).collect();
        check(&pts, &format!("seed {seed}"));
    }
}

#[test]
fn exact_on_degenerate_sets() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let p = Point3::new(1.5, -2.0, 3.25);
    check(&[p; 9], "all equal");
    let dir = Vector3::new(0.3, -0.7, 0.2);
    let line: Vec<_> = (0..10)
        .map(|_| p + dir * rng.random_range(-3.0..3.0))
        .collect();
    check(&line, "collinear");
    let (u, v) = (Vector3::new(1.0, 2.0, 0.5), Vector3::new(-0.4, 0.1, 1.0));
    let plane: Vec<_> = (0..12)
        .map(|_| p + u * rng.random_range(-1.0..1.0) + v * rng.random_range(-1.0..1.0))
        .collect();
    check(&plane, "coplanar");
    let square: Vec<_> = [(0., 0.), (1., 0.), (1., 1.), (0., 1.), (0.5, 0.5)]
        .map(|(x, y)| Point3::new(x, y, 0.0))
        .to_vec();
    check(&square, "square (4 cocircular points)");
    for seed in 0..50 {
        let mut rng = ChaCha8Rng::seed_from_u64(1000 + seed);
        let c = rand_point(&mut rng);
        let r = rng.random_range(0.1..10.0);
        let n = rng.random_range(4..=12);
        let sph: Vec<_> = (0..n)
            .map(|_| c + rand_point(&mut rng).coords.normalize() * r)
            .collect();
        check(&sph, &format!("cospherical {seed}"));
        assert!(Sphere::exact(&sph).unwrap().radius <= r * (1.0 + 1e-9));
    }
}

#[test]
fn exact_on_many_points_contains_all_and_beats_others() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    // Anisotropic cloud plus its cube corners so the optimum is known: the
    // sphere through the 8 corners of [-2,2]×[-1,1]×[-0.5,0.5].
    let mut pts: Vec<_> = (0..20_000)
        .map(|_| {
            let q = rand_point(&mut rng);
            Point3::new(2.0 * q.x, q.y, 0.5 * q.z)
        })
        .collect();
    for k in 0..8 {
        let s = |b: usize, h: f64| if k & b == 0 { -h } else { h };
        pts.push(Point3::new(s(1, 2.0), s(2, 1.0), s(4, 0.5)));
    }
    let exact = Sphere::exact(&pts).unwrap();
    let expect = (4.0f64 + 1.0 + 0.25).sqrt();
    assert!(
        (exact.radius - expect).abs() < 1e-9,
        "{} vs {expect}",
        exact.radius
    );
    assert_contains(&exact, &pts);
    // Through the hull: the same sphere, still containing every point.
    let hull = ConvexHull::new(&pts).unwrap();
    assert!(hull.vertices.len() < pts.len() / 10);
    for m in SphereMethod::ALL {
        let (via, direct) = (
            sphere_with_hull(&pts, &hull, *m).unwrap(),
            sphere(&pts, *m).unwrap(),
        );
        assert_contains(&via, &pts);
        assert!(
            (via.radius - direct.radius).abs() < 1e-9 && (via.center - direct.center).norm() < 1e-9,
            "{m}: {via:?} vs {direct:?}"
        );
    }
    for m in [SphereMethod::Centroid, SphereMethod::Ritter] {
        let s = sphere(&pts, m).unwrap();
        assert_contains(&s, &pts);
        assert!(exact.radius <= s.radius);
    }
    assert!(Sphere::exact(&[]).is_none());
}

#[test]
fn method_names_round_trip() {
    for &m in SphereMethod::ALL {
        assert_eq!(m.as_str().parse::<SphereMethod>(), Ok(m));
        assert_eq!(serde_json::to_string(&m).unwrap(), format!("\"{m}\""));
    }
    assert!("minimal".parse::<SphereMethod>().is_err());
}
