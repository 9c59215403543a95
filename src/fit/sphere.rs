//! The bounding sphere type.

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
