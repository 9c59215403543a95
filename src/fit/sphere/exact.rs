//! The minimum enclosing sphere (Welzl's algorithm, iterative).

use crate::fit::Sphere;
use nalgebra::{Point3, Vector3};
use rand::SeedableRng;
use rand::seq::SliceRandom;

/// A candidate ball as centre and squared radius.
#[derive(Clone, Copy)]
struct Ball {
    c: Point3<f64>,
    r2: f64,
}

impl Ball {
    /// Whether `p` is outside, with a relative slack so that points on the
    /// boundary (rounded) do not trigger a rebuild.
    fn excludes(&self, p: &Point3<f64>) -> bool {
        nalgebra::distance_squared(&self.c, p) > self.r2 * (1.0 + 1e-12)
    }

    fn encloses(&self, pts: &[Point3<f64>]) -> bool {
        pts.iter().all(|p| !self.excludes(p))
    }
}

fn ball2(a: &Point3<f64>, b: &Point3<f64>) -> Ball {
    Ball {
        c: nalgebra::center(a, b),
        r2: nalgebra::distance_squared(a, b) * 0.25,
    }
}

/// The smallest ball enclosing a few points, by trying every support of
/// 2 or 3 of them: the fallback for near-singular circumscribed systems.
fn smallest_of_supports(pts: &[Point3<f64>]) -> Ball {
    let mut best = Ball {
        c: pts[0],
        r2: f64::INFINITY,
    };
    let n = pts.len();
    for i in 0..n {
        for j in i + 1..n {
            let b = ball2(&pts[i], &pts[j]);
            if b.r2 < best.r2 && b.encloses(pts) {
                best = b;
            }
            for k in j + 1..n {
                if let Some(b) = circum3(&pts[i], &pts[j], &pts[k])
                    && b.r2 < best.r2
                    && b.encloses(pts)
                {
                    best = b;
                }
            }
        }
    }
    if best.r2.is_finite() {
        best
    } else {
        // Only reachable through rounding: enclose about the centroid.
        let c = Point3::from(pts.iter().map(|p| p.coords).sum::<Vector3<f64>>() / n as f64);
        let r2 = pts
            .iter()
            .map(|p| nalgebra::distance_squared(&c, p))
            .fold(0.0, f64::max);
        Ball { c, r2 }
    }
}

/// The circumcircle of a triangle as a ball, or `None` when the triangle is
/// too close to collinear for the system to be trusted.
fn circum3(a: &Point3<f64>, b: &Point3<f64>, c: &Point3<f64>) -> Option<Ball> {
    let (u, v) = (b - a, c - a);
    let w = u.cross(&v);
    let w2 = w.norm_squared();
    if w2 <= 1e-24 * u.norm_squared() * v.norm_squared() || w2 == 0.0 {
        return None;
    }
    let d = (v.cross(&w) * u.norm_squared() + w.cross(&u) * v.norm_squared()) / (2.0 * w2);
    Some(Ball {
        c: a + d,
        r2: d.norm_squared(),
    })
}

/// Smallest ball with `a, b, c` on its boundary; collinear → the smallest
/// ball of the three.
fn ball3(a: &Point3<f64>, b: &Point3<f64>, c: &Point3<f64>) -> Ball {
    circum3(a, b, c).unwrap_or_else(|| smallest_of_supports(&[*a, *b, *c]))
}

/// The circumsphere of a tetrahedron; near-coplanar → the smallest ball of
/// the four (the smaller support).
fn ball4(a: &Point3<f64>, b: &Point3<f64>, c: &Point3<f64>, d: &Point3<f64>) -> Ball {
    let (u, v, w) = (b - a, c - a, d - a);
    let det = u.dot(&v.cross(&w));
    let scale = u.norm() * v.norm() * w.norm();
    if det.abs() <= 1e-12 * scale || det == 0.0 {
        return smallest_of_supports(&[*a, *b, *c, *d]);
    }
    let x = (v.cross(&w) * u.norm_squared()
        + w.cross(&u) * v.norm_squared()
        + u.cross(&v) * w.norm_squared())
        / (2.0 * det);
    Ball {
        c: a + x,
        r2: x.norm_squared(),
    }
}

impl Sphere {
    /// The minimum enclosing sphere: Welzl's randomized incremental algorithm
    /// in its iterative form (four nested loops, one per support size, so no
    /// recursion however many points), on a copy shuffled with a fixed seed
    /// so results are deterministic; expected O(n).
    ///
    /// Near-singular supports (3 nearly collinear or 4 nearly coplanar
    /// points) fall back to the smallest ball of a sub-support that encloses
    /// them, so degenerate input (equal, collinear, coplanar or cospherical
    /// points) is handled. The radius is within rounding (≈1e-12 relative)
    /// of the optimum and then grown by [`Sphere::about`]'s margin, so every
    /// point is contained. `None` for no points.
    pub fn exact(points: &[Point3<f64>]) -> Option<Sphere> {
        let mut pts = points.to_vec();
        let first = *pts.first()?;
        pts.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(0x5EED));
        let mut ball = Ball { c: first, r2: 0.0 };
        for i in 0..pts.len() {
            if !ball.excludes(&pts[i]) {
                continue;
            }
            let q1 = pts[i];
            ball = Ball { c: q1, r2: 0.0 };
            for j in 0..i {
                if !ball.excludes(&pts[j]) {
                    continue;
                }
                let q2 = pts[j];
                ball = ball2(&q1, &q2);
                for k in 0..j {
                    if !ball.excludes(&pts[k]) {
                        continue;
                    }
                    let q3 = pts[k];
                    ball = ball3(&q1, &q2, &q3);
                    for q4 in &pts[..k] {
                        if ball.excludes(q4) {
                            ball = ball4(&q1, &q2, &q3, q4);
                        }
                    }
                }
            }
        }
        Sphere::about(ball.c, points)
    }
}
