//! The bounding sphere type.

pub(crate) mod exact;

use nalgebra::Point3;

/// A ball: every point within `radius` of `center`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    /// The centre.
    pub center: Point3<f64>,
    /// The radius (≥ 0).
    pub radius: f64,
}

impl Sphere {
    /// Volume, `4/3·π·r³`.
    pub fn volume(&self) -> f64 {
        4.0 / 3.0 * std::f64::consts::PI * self.radius.powi(3)
    }

    /// Surface area, `4·π·r²`.
    pub fn surface_area(&self) -> f64 {
        4.0 * std::f64::consts::PI * self.radius * self.radius
    }

    /// Whether `p` lies inside, with slack `tol`.
    pub fn contains(&self, p: &Point3<f64>, tol: f64) -> bool {
        nalgebra::distance(&self.center, p) <= self.radius + tol
    }
}

impl Sphere {
    /// The sphere about `center` reaching the farthest of `points`, grown by a
    /// rounding margin (a few ulps of the coordinates' magnitude) so that every
    /// point tests as contained despite the rounding of distances. `None` for
    /// no points.
    pub fn about<P: std::borrow::Borrow<Point3<f64>>>(
        center: Point3<f64>,
        points: impl IntoIterator<Item = P>,
    ) -> Option<Sphere> {
        let mut it = points.into_iter().peekable();
        it.peek()?;
        let (mut r2, mut scale) = (0.0f64, center.coords.amax());
        for p in it {
            let p = p.borrow();
            r2 = r2.max(nalgebra::distance_squared(&center, p));
            scale = scale.max(p.coords.amax());
        }
        let r = r2.sqrt();
        Some(Sphere {
            center,
            radius: r * (1.0 + 4.0 * f64::EPSILON) + 8.0 * f64::EPSILON * scale.max(r),
        })
    }

    /// Direct3D's `D3DXComputeBoundingSphere`: the centre is the mean of the
    /// points, the radius the distance to the farthest (plus the rounding
    /// margin of [`Sphere::about`]). `None` for no points.
    pub fn centroid(points: &[Point3<f64>]) -> Option<Sphere> {
        let first = points.first()?;
        let sum = points
            .iter()
            .fold(nalgebra::Vector3::zeros(), |s, p| s + (p - first));
        Sphere::about(first + sum / points.len() as f64, points)
    }

    /// Ritter's sphere as DirectXMath's `BoundingSphere::CreateFromPoints`:
    /// of the six axis-extreme points (first occurrence of each strict
    /// min/max), the pair of the axis whose two points are farthest apart
    /// (x unless y or z is strictly farthest) gives the initial diameter;
    /// then each point
    /// outside in input order grows the sphere to just reach it
    /// (`r' = (r + d)/2`, centre moved towards the point by `d − r'`).
    /// Always encloses every point (final pass of [`Sphere::about`]); not
    /// minimal (typically 5–20 % larger than [`Sphere::exact`]).
    pub fn ritter(points: &[Point3<f64>]) -> Option<Sphere> {
        Sphere::ritter_over(|| points.iter().copied())
    }

    /// [`Sphere::ritter`] over a point sequence that `pass` walks afresh for
    /// each of the algorithm's three passes, so the points need not be held
    /// in memory at once (the instances of a scene, placed on the fly).
    pub fn ritter_over<I: Iterator<Item = Point3<f64>>>(pass: impl Fn() -> I) -> Option<Sphere> {
        let first = pass().next()?;
        let mut ext = [first; 6];
        for p in pass().skip(1) {
            for k in 0..3 {
                if p[k] < ext[2 * k][k] {
                    ext[2 * k] = p;
                }
                if p[k] > ext[2 * k + 1][k] {
                    ext[2 * k + 1] = p;
                }
            }
        }
        let d2 = |k: usize| nalgebra::distance_squared(&ext[2 * k], &ext[2 * k + 1]);
        let k = if d2(1) > d2(0) && d2(1) > d2(2) {
            1
        } else if d2(2) > d2(0) && d2(2) > d2(1) {
            2
        } else {
            0
        };
        let mut center = nalgebra::center(&ext[2 * k], &ext[2 * k + 1]);
        let mut radius = d2(k).sqrt() * 0.5;
        for p in pass() {
            let delta = p - center;
            let dist = delta.norm();
            if dist > radius {
                radius = (radius + dist) * 0.5;
                center += delta * (1.0 - radius / dist);
            }
        }
        Sphere::about(center, pass())
    }
}
