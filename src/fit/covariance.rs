//! Covariance matrices and the principal frames built from them.

use super::symmetric_eigen3::symmetric_eigen3;
use nalgebra::{Matrix3, Point3, Vector3};

/// Mean and covariance of a point set (each point weighted equally), the
/// rule of DirectXMath's `BoundingOrientedBox::CreateFromPoints` and parry's
/// `utils::obb`. Computed about the first point to limit cancellation.
/// Returns `None` for an empty set.
pub fn of_points(points: &[Point3<f64>]) -> Option<(Point3<f64>, Matrix3<f64>)> {
    let origin = *points.first()?;
    let n = points.len() as f64;
    let mut sum = Vector3::zeros();
    let mut sum2 = Matrix3::zeros();
    for p in points {
        let d = p - origin;
        sum += d;
        sum2 += d * d.transpose();
    }
    let mean = sum / n;
    let cov = sum2 / n - mean * mean.transpose();
    Some((origin + mean, cov))
}

/// Area-weighted mean and covariance of a triangle surface, the continuous
/// formula of RAPID (Gottschalk, Lin, Manocha 1996) as in its reference code:
/// a triangle `p, q, r` with area `A` and centroid `m` contributes
/// `A/12·(9·m·mᵀ + p·pᵀ + q·qᵀ + r·rᵀ)` to the second moment, which is then
/// divided by the total area and has `mean·meanᵀ` subtracted.
///
/// Zero-area triangles weigh nothing. When the total area is zero (every
/// triangle degenerate) this falls back to the covariance of the corners.
/// Returns `None` for no triangles.
pub fn of_triangles<I>(triangles: I) -> Option<(Point3<f64>, Matrix3<f64>)>
where
    I: IntoIterator<Item = [Point3<f64>; 3]>,
    I::IntoIter: Clone,
{
    let iter = triangles.into_iter();
    let origin = iter.clone().next()?[0];
    let mut area_sum = 0.0;
    let mut sum = Vector3::zeros();
    let mut sum2 = Matrix3::zeros();
    for [p, q, r] in iter.clone() {
        let (p, q, r) = (p - origin, q - origin, r - origin);
        let area = 0.5 * (q - p).cross(&(r - p)).norm();
        let m = (p + q + r) / 3.0;
        area_sum += area;
        sum += m * area;
        sum2 +=
            (m * m.transpose() * 9.0 + p * p.transpose() + q * q.transpose() + r * r.transpose())
                * (area / 12.0);
    }
    if area_sum > 0.0 && area_sum.is_finite() {
        let mean = sum / area_sum;
        let cov = sum2 / area_sum - mean * mean.transpose();
        return Some((origin + mean, cov));
    }
    let corners: Vec<Point3<f64>> = iter.flat_map(|t| t.into_iter()).collect();
    of_points(&corners)
}

/// The eigenvectors of a symmetric 3×3 matrix as the columns of a
/// right-handed rotation, sorted by decreasing eigenvalue (cyclic Jacobi,
/// [`symmetric_eigen3`]); the identity for a non-finite matrix.
pub fn principal_frame(cov: &Matrix3<f64>) -> Matrix3<f64> {
    let (values, vectors) = symmetric_eigen3(cov);
    let mut order = [0usize, 1, 2];
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    let a0 = vectors.column(order[0]).normalize();
    let a1 = vectors.column(order[1]).normalize();
    // Re-orthogonalize and complete to a right-handed frame.
    let a1 = (a1 - a0 * a0.dot(&a1)).normalize();
    let a2 = a0.cross(&a1);
    if !(a0
        .iter()
        .chain(a1.iter())
        .chain(a2.iter())
        .all(|x| x.is_finite()))
    {
        return Matrix3::identity();
    }
    Matrix3::from_columns(&[a0, a1, a2])
}
