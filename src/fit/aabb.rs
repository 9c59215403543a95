//! The axis-aligned bounding box.

use nalgebra::{Point3, Vector3};

/// An axis-aligned box `[min, max]` (full corners, not half extents).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// The lowest corner.
    pub min: Point3<f64>,
    /// The highest corner.
    pub max: Point3<f64>,
}

impl Aabb {
    /// Component-wise min/max over `points`: the rule of Direct3D's
    /// `D3DXComputeBoundingBox` and of the glTF accessor `min`/`max`. Exact
    /// (no rounding happens), so no margin is added. `None` for no points.
    pub fn from_points<P: std::borrow::Borrow<Point3<f64>>>(
        points: impl IntoIterator<Item = P>,
    ) -> Option<Aabb> {
        let mut it = points.into_iter();
        let first = *it.next()?.borrow();
        let (min, max) = it.fold((first, first), |(lo, hi), p| {
            (lo.inf(p.borrow()), hi.sup(p.borrow()))
        });
        Some(Aabb { min, max })
    }

    /// The smallest box holding both.
    pub fn union(&self, o: &Aabb) -> Aabb {
        Aabb {
            min: self.min.inf(&o.min),
            max: self.max.sup(&o.max),
        }
    }

    /// Centre point.
    pub fn center(&self) -> Point3<f64> {
        nalgebra::center(&self.min, &self.max)
    }

    /// Half extents, `(max − min) / 2`.
    pub fn half_extents(&self) -> Vector3<f64> {
        (self.max - self.min) * 0.5
    }

    /// Volume.
    pub fn volume(&self) -> f64 {
        let d = self.max - self.min;
        d.x * d.y * d.z
    }

    /// Surface area.
    pub fn surface_area(&self) -> f64 {
        let d = self.max - self.min;
        2.0 * (d.x * d.y + d.y * d.z + d.z * d.x)
    }

    /// Whether `p` lies inside, with slack `tol`.
    pub fn contains(&self, p: &Point3<f64>, tol: f64) -> bool {
        (0..3).all(|i| p[i] >= self.min[i] - tol && p[i] <= self.max[i] + tol)
    }
}
