//! Eigen-decomposition of a symmetric 3×3 matrix by cyclic Jacobi rotations.
//!
//! Written for the OBB-tree build, which needs one principal frame per node
//! (tens of thousands per mesh), where nalgebra's general `SymmetricEigen`
//! (Householder tridiagonalization, then implicit QR) does more work than a
//! 3×3 matrix needs.

use nalgebra::{Matrix3, Vector3};

/// Sweeps allowed before giving up; Jacobi converges quadratically, so a 3×3
/// matrix needs 4–6 in practice; the bound is a guard, not a tolerance.
const MAX_SWEEPS: usize = 24;

/// The eigenvalues of the symmetric matrix `m` (entries below the diagonal
/// are ignored) and the matching unit eigenvectors as the columns of an
/// orthogonal matrix, unsorted.
///
/// Cyclic Jacobi (Numerical Recipes' `jacobi`, RAPID's `Meigen`): each sweep
/// zeroes the off-diagonal entries (0,1), (0,2), (1,2) in turn with the
/// stable rotation `t = sgn(θ)/(|θ| + √(θ²+1))` (evaluated with a single
/// division, see the loop), accumulating the rotations;
/// it stops when the off-diagonal mass is at rounding level of the matrix
/// norm. The eigenvector matrix is a product of exact-formula rotations, so
/// it is orthogonal to rounding, and repeated eigenvalues give an orthonormal
/// basis of their eigenspace. A matrix with a non-finite entry gives NaN
/// eigenvalues and the identity.
pub fn symmetric_eigen3(m: &Matrix3<f64>) -> (Vector3<f64>, Matrix3<f64>) {
    // The diagonal and the upper off-diagonal entries (0,1), (0,2), (1,2),
    // updated in place by the rotations' closed forms.
    let mut d = [m[(0, 0)], m[(1, 1)], m[(2, 2)]];
    let mut off = [m[(0, 1)], m[(0, 2)], m[(1, 2)]];
    let mut v = Matrix3::identity();
    if !d.iter().chain(&off).all(|x| x.is_finite()) {
        return (Vector3::repeat(f64::NAN), v);
    }
    let norm2 = d.iter().map(|x| x * x).sum::<f64>() + 2.0 * off.iter().map(|x| x * x).sum::<f64>();
    let tol = (4.0 * f64::EPSILON).powi(2) * norm2;
    // Rotation k zeroes entry (p, q) = `off[k]`; with r the third index,
    // `rp`/`rq` are the slots of (r, p) and (r, q) in `off`.
    const ROTATIONS: [(usize, usize, usize, usize); 3] = [(0, 1, 1, 2), (0, 2, 0, 2), (1, 2, 0, 1)];
    for _ in 0..MAX_SWEEPS {
        if off.iter().map(|x| x * x).sum::<f64>() <= tol {
            break;
        }
        for (k, &(p, q, rp, rq)) in ROTATIONS.iter().enumerate() {
            let apq = off[k];
            if apq == 0.0 {
                continue;
            }
            // t = sgn(θ)/(|θ| + √(θ²+1)) with θ = h/apq, h = (a_qq − a_pp)/2,
            // multiplied through by |apq|: one division instead of two on
            // the rotation's critical path. Rotations preserve the Frobenius
            // norm and the loop runs only when its square is finite, so
            // h² + apq² cannot overflow; the denominator is zero only when
            // h = 0 and apq² underflows, where θ = 0 gives t = sgn(apq).
            let h = 0.5 * (d[q] - d[p]);
            let den = h.abs() + (h * h + apq * apq).sqrt();
            let t = if den > 0.0 {
                h.signum() * apq / den
            } else {
                apq.signum()
            };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            // Aʹ = Jᵀ·A·J with J = I except J_pp = J_qq = c, J_pq = s,
            // J_qp = −s (Numerical Recipes' update formulas).
            d[p] -= t * apq;
            d[q] += t * apq;
            off[k] = 0.0;
            let (arp, arq) = (off[rp], off[rq]);
            off[rp] = c * arp - s * arq;
            off[rq] = s * arp + c * arq;
            let (vp, vq) = (v.column(p).into_owned(), v.column(q).into_owned());
            v.set_column(p, &(vp * c - vq * s));
            v.set_column(q, &(vp * s + vq * c));
        }
    }
    (Vector3::from(d), v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Rotation3, SymmetricEigen, Unit};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn sorted(v: Vector3<f64>) -> [f64; 3] {
        let mut s = [v.x, v.y, v.z];
        s.sort_by(f64::total_cmp);
        s
    }

    /// Checks the decomposition of `m` against nalgebra's eigenvalues and
    /// the defining identities `M·V = V·Λ`, `Vᵀ·V = I`.
    fn check(m: &Matrix3<f64>) {
        let (values, vectors) = symmetric_eigen3(m);
        let scale = m.norm().max(1e-300);
        let reference = sorted(SymmetricEigen::new(*m).eigenvalues);
        for (x, y) in sorted(values).iter().zip(reference) {
            assert!(
                (x - y).abs() <= 1e-12 * scale,
                "{values} vs {reference:?} for {m}"
            );
        }
        let residual = m * vectors - vectors * Matrix3::from_diagonal(&values);
        assert!(
            residual.amax() <= 1e-12 * scale,
            "residual {residual} for {m}"
        );
        let ortho = vectors.tr_mul(&vectors) - Matrix3::identity();
        assert!(ortho.amax() <= 1e-13, "not orthonormal: {vectors}");
    }

    fn random_rotation(rng: &mut ChaCha8Rng) -> Matrix3<f64> {
        let axis = Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let axis = Unit::try_new(axis, 1e-9).unwrap_or_else(Vector3::x_axis);
        Rotation3::from_axis_angle(&axis, rng.random_range(0.0..6.3)).into_inner()
    }

    #[test]
    fn matches_nalgebra_on_random_symmetric_matrices() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..2000 {
            let mut m = Matrix3::zeros();
            for i in 0..3 {
                for j in i..3 {
                    let x = rng.random_range(-10.0..10.0);
                    m[(i, j)] = x;
                    m[(j, i)] = x;
                }
            }
            check(&m);
        }
    }

    #[test]
    fn repeated_and_zero_eigenvalues() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let spectra = [
            [1.0, 1.0, 2.0],
            [3.0, 3.0, 3.0],
            [0.0, 0.0, 5.0],
            [0.0, 0.0, 0.0],
            [1e-9, 1.0, 1.0],
            [-2.0, 4.0, 4.0],
            [1e6, 1.0, 1e6],
        ];
        for spectrum in spectra {
            for _ in 0..200 {
                let q = random_rotation(&mut rng);
                let m = q * Matrix3::from_diagonal(&Vector3::from(spectrum)) * q.transpose();
                check(&m);
            }
            check(&Matrix3::from_diagonal(&Vector3::from(spectrum)));
        }
    }

    #[test]
    fn non_finite_input_gives_nan() {
        for bad in [f64::NAN, f64::INFINITY] {
            let mut m = Matrix3::identity();
            m[(0, 1)] = bad;
            m[(1, 0)] = bad;
            let (values, vectors) = symmetric_eigen3(&m);
            assert!(values.iter().all(|x| x.is_nan()));
            assert_eq!(vectors, Matrix3::identity());
        }
    }
}
