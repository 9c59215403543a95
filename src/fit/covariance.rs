//! Covariance matrices and the principal frames built from them.

use crate::fit::symmetric_eigen3::symmetric_eigen3;
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
/// `symmetric_eigen3`); the identity for a non-finite matrix.
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

/// The principal frame of a symmetric 3×3 matrix in closed form, for the
/// OBB-tree build (one frame per node): the eigenvalues by the trigonometric
/// solution of the characteristic cubic (Smith 1961), the largest and
/// smallest eigenvectors as the longest cross product of two rows of
/// `cov − λI` (Kopp 2008), the middle axis completing a right-handed
/// orthonormal frame; columns by decreasing eigenvalue, as
/// [`principal_frame`].
///
/// A few times cheaper than the Jacobi iteration. Where the closed form
/// cannot be trusted — a diagonal matrix, an eigenvalue within about 1e-6
/// (relative) of another, so that its eigenvector is ill-determined, or
/// non-finite input — it returns [`principal_frame`]'s answer instead. An
/// eigenvector accurate to about 1e-10 is plenty for a box's orientation:
/// the box's extents come from the points, so it contains them whatever
/// the frame.
pub fn principal_frame_fast(cov: &Matrix3<f64>) -> Matrix3<f64> {
    closed_form_frame(cov).unwrap_or_else(|| principal_frame(cov))
}

fn closed_form_frame(a: &Matrix3<f64>) -> Option<Matrix3<f64>> {
    let off = a[(0, 1)].powi(2) + a[(0, 2)].powi(2) + a[(1, 2)].powi(2);
    // Zero (diagonal) or NaN: Jacobi's case.
    if off.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let q = a.trace() / 3.0;
    let d = a - Matrix3::identity() * q;
    let p = ((d[(0, 0)].powi(2) + d[(1, 1)].powi(2) + d[(2, 2)].powi(2) + 2.0 * off) / 6.0).sqrt();
    let r = ((d / p).determinant() / 2.0).clamp(-1.0, 1.0);
    let phi = r.acos() / 3.0;
    let largest = q + 2.0 * p * phi.cos();
    let smallest = q + 2.0 * p * (phi + 2.0 * std::f64::consts::FRAC_PI_3).cos();
    // An eigenvector of λ is orthogonal to every row of A − λI; with λ
    // simple those rows span a plane, and the longest cross product of two
    // of them is its normal. Shorter than 1e-6·p² (relative to the rows'
    // scale p) means λ is (nearly) repeated: give up.
    let eigenvector = |lambda: f64| {
        let m = a - Matrix3::identity() * lambda;
        let (r0, r1, r2) = (
            m.row(0).transpose(),
            m.row(1).transpose(),
            m.row(2).transpose(),
        );
        let best = [r0.cross(&r1), r0.cross(&r2), r1.cross(&r2)]
            .into_iter()
            .max_by(|x, y| x.norm_squared().total_cmp(&y.norm_squared()))?;
        let n = best.norm();
        (n > 1e-6 * p * p && n.is_finite()).then(|| best / n)
    };
    let a0 = eigenvector(largest)?;
    let a2 = eigenvector(smallest)?;
    // Re-orthogonalize (the two are orthogonal to rounding) and complete.
    let a2 = (a2 - a0 * a0.dot(&a2)).try_normalize(1e-3)?;
    let a1 = a2.cross(&a0);
    let frame = Matrix3::from_columns(&[a0, a1, a2]);
    frame.iter().all(|x| x.is_finite()).then_some(frame)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Rotation3, Vector3};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn is_rotation(f: &Matrix3<f64>) -> bool {
        (f.tr_mul(f) - Matrix3::identity()).amax() < 1e-12 && (f.determinant() - 1.0).abs() < 1e-12
    }

    /// On matrices with well-separated eigenvalues the closed form gives the
    /// Jacobi frame (each axis up to sign); on every matrix — repeated,
    /// nearly repeated, diagonal, zero, non-finite eigenvalues — a rotation
    /// whose axes are eigenvectors to the accuracy the gap allows.
    #[test]
    fn fast_frame_matches_jacobi() {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        for k in 0..20_000 {
            let r = Rotation3::from_euler_angles(
                rng.random_range(-3.2..3.2),
                rng.random_range(-1.6..1.6),
                rng.random_range(-3.2..3.2),
            )
            .into_inner();
            let mut l = Vector3::new(
                rng.random_range(0.0..10.0),
                rng.random_range(0.0..10.0),
                rng.random_range(0.0..10.0),
            );
            match k % 5 {
                1 => l.y = l.x,                // repeated
                2 => l.y = l.x * (1.0 + 1e-9), // nearly repeated
                3 => l = Vector3::repeat(l.x), // a multiple of I
                4 => l *= 10f64.powi(rng.random_range(-30..30)),
                _ => {}
            }
            let cov = r * Matrix3::from_diagonal(&l) * r.transpose();
            let fast = principal_frame_fast(&cov);
            assert!(is_rotation(&fast), "{fast} for {cov}");
            // Columns by decreasing Rayleigh quotient, each an eigenvector
            // to within the rounding the eigenvalue gaps allow.
            let scale = cov.norm().max(f64::MIN_POSITIVE);
            let q: Vec<f64> = (0..3)
                .map(|i| fast.column(i).dot(&(cov * fast.column(i))))
                .collect();
            assert!(q[0] >= q[1] - 1e-9 * scale && q[1] >= q[2] - 1e-9 * scale);
            let residual = cov * fast - fast * Matrix3::from_diagonal(&Vector3::from_vec(q));
            if k % 5 == 0 {
                let mut s = [l.x, l.y, l.z];
                s.sort_by(f64::total_cmp);
                let gap = (s[1] - s[0]).min(s[2] - s[1]);
                if gap > 1e-3 * scale {
                    assert!(residual.amax() < 1e-9 * scale, "{residual} for {cov}");
                    let jacobi = principal_frame(&cov);
                    for i in 0..3 {
                        let d = fast.column(i).dot(&jacobi.column(i)).abs();
                        assert!((d - 1.0).abs() < 1e-9, "axis {i}: {fast} vs {jacobi}");
                    }
                }
            } else {
                assert!(residual.amax() < 1e-6 * scale, "{residual} for {cov}");
            }
        }
        assert_eq!(principal_frame_fast(&Matrix3::zeros()), Matrix3::identity());
        let nan = Matrix3::repeat(f64::NAN);
        assert!(is_rotation(&principal_frame_fast(&nan)));
    }
}
