//! The oriented bounding box type.

pub(crate) mod cube_map;
pub(crate) mod fast;
pub(crate) mod kernel;
pub(crate) mod tight;

use nalgebra::{Matrix3, Point3, Rotation3, UnitQuaternion, Vector3};

/// An oriented box: `center + Σ sᵢ·axisᵢ` for `|sᵢ| ≤ half_extents[i]`.
///
/// `axes` holds three orthonormal column vectors forming a right-handed frame
/// (det = +1), so it is also the box's rotation. Extents are **half** extents.
/// A zero half extent is valid (a flat box around planar input).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb {
    /// The box centre.
    pub center: Point3<f64>,
    /// Unit axes as the columns of a rotation matrix.
    pub axes: Matrix3<f64>,
    /// Half extents along each axis (≥ 0).
    pub half_extents: Vector3<f64>,
}

impl Obb {
    /// The smallest box with the given orientation that contains `points`,
    /// grown by a rounding margin so that every point tests as contained
    /// despite floating-point error. `axes` must be orthonormal and
    /// right-handed. Returns `None` for an empty point set.
    pub fn from_frame_and_points<'a>(
        axes: &Matrix3<f64>,
        points: impl IntoIterator<Item = &'a Point3<f64>>,
    ) -> Option<Obb> {
        let mut lo = Vector3::repeat(f64::INFINITY);
        let mut hi = Vector3::repeat(f64::NEG_INFINITY);
        let mut scale: f64 = 0.0;
        let t = axes.transpose();
        for p in points {
            let q = t * p.coords;
            lo = lo.inf(&q);
            hi = hi.sup(&q);
            scale = scale.max(p.coords.amax());
        }
        if lo.x > hi.x {
            return None;
        }
        Some(Obb::from_frame_and_bounds(axes, &lo, &hi, scale))
    }

    /// The box with orientation `axes` spanning `[lo, hi]` along them (the
    /// points' projections `axesᵀ·p`, as gathered by
    /// [`Obb::from_frame_and_points`], which this completes), grown by the
    /// same rounding margin, `8·ε·scale` where `scale` bounds the points'
    /// absolute coordinates. For callers that gather the projections
    /// themselves, e.g. for several frames in one pass over the points.
    pub fn from_frame_and_bounds(
        axes: &Matrix3<f64>,
        lo: &Vector3<f64>,
        hi: &Vector3<f64>,
        scale: f64,
    ) -> Obb {
        let mid = (lo + hi) * 0.5;
        // Projection and reconstruction each round; a few ulps of the
        // coordinates' magnitude cover both.
        let margin = 8.0 * f64::EPSILON * scale;
        let half = (hi - lo) * 0.5 + Vector3::repeat(margin);
        Obb {
            center: Point3::from(axes * mid),
            axes: *axes,
            half_extents: half,
        }
    }

    /// The axis-aligned box `[min, max]` as an OBB.
    pub fn from_min_max(min: &Point3<f64>, max: &Point3<f64>) -> Obb {
        Obb {
            center: nalgebra::center(min, max),
            axes: Matrix3::identity(),
            half_extents: (max - min) * 0.5,
        }
    }

    /// Volume, `8·hx·hy·hz`.
    pub fn volume(&self) -> f64 {
        8.0 * self.half_extents.x * self.half_extents.y * self.half_extents.z
    }

    /// Surface area, `8·(hx·hy + hy·hz + hz·hx)`.
    pub fn surface_area(&self) -> f64 {
        let h = &self.half_extents;
        8.0 * (h.x * h.y + h.y * h.z + h.z * h.x)
    }

    /// The rotation of the box (local → world) as a unit quaternion.
    pub fn rotation(&self) -> UnitQuaternion<f64> {
        UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(self.axes))
    }

    /// The rotation as `[x, y, z, w]`.
    pub fn rotation_xyzw(&self) -> [f64; 4] {
        let q = self.rotation();
        [q.i, q.j, q.k, q.w]
    }

    /// Unit axis `i` (0, 1 or 2).
    pub fn axis(&self, i: usize) -> Vector3<f64> {
        self.axes.column(i).into_owned()
    }

    /// Whether `p` lies in the box, with slack `tol` on every face.
    pub fn contains(&self, p: &Point3<f64>, tol: f64) -> bool {
        let d = self.axes.transpose() * (p - self.center);
        (0..3).all(|i| d[i].abs() <= self.half_extents[i] + tol)
    }

    /// The eight corners, corner `k` taking sign `-` or `+` on axis `i` as bit
    /// `i` of `k` is 0 or 1.
    pub fn corners(&self) -> [Point3<f64>; 8] {
        std::array::from_fn(|k| {
            let s = Vector3::new(
                if k & 1 == 0 { -1.0 } else { 1.0 },
                if k & 2 == 0 { -1.0 } else { 1.0 },
                if k & 4 == 0 { -1.0 } else { 1.0 },
            );
            self.center + self.axes * s.component_mul(&self.half_extents)
        })
    }
}
