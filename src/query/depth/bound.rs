//! An upper bound on a point's distance to a mesh over a whole triangle,
//! from a few of the mesh's triangles measured at the triangle's corners.
//!
//! The distance to a mesh is the least of its distances to the mesh's
//! triangles, so for any triangles `t_j` of the mesh it is at most
//! `min_j dist(x, t_j)`. Each `dist(·, t_j)` is convex (the distance to a
//! convex set), so over a triangle `T = {Σ λ_i p_i}` it is at most the
//! linear interpolation `L_j(λ) = Σ λ_i dist(p_i, t_j)` of its corner
//! values. The bound is the maximum over `T` of `min_j L_j` — a concave
//! piecewise-linear function of `λ` on the simplex, whose maximum lies at a
//! vertex of its pieces' arrangement: a corner of `T`, a point of an edge
//! where two `L_j` cross, or an interior point where three are equal. All
//! are enumerated. Where the mesh's distance over `T` is the distance to one
//! plane (a protrusion's flat bottom), the bound is exact, so a plateau of
//! equal depths costs no subdivision.

use nalgebra::Point3;

/// `values[j][i]` = the distance from corner `i` of `T` to triangle `j`
/// (up to 3 triangles): the maximum over `T` of `min_j L_j` (see the
/// module).
pub(crate) fn interpolated_max(values: &[[f64; 3]]) -> f64 {
    let at = |l: [f64; 3]| {
        values
            .iter()
            .map(|v| v[0] * l[0] + v[1] * l[1] + v[2] * l[2])
            .fold(f64::INFINITY, f64::min)
    };
    let unit = |i: usize| {
        let mut l = [0.0; 3];
        l[i] = 1.0;
        l
    };
    let mut best = (0..3).map(|i| at(unit(i))).fold(0.0, f64::max);
    let n = values.len();
    for (i, k) in [(0, 1), (1, 2), (2, 0)] {
        for j in 0..n {
            for m in j + 1..n {
                let (g0, g1) = (values[j][i] - values[m][i], values[j][k] - values[m][k]);
                if (g0 > 0.0) != (g1 > 0.0) && g0 != g1 {
                    let s = (g0 / (g0 - g1)).clamp(0.0, 1.0);
                    let mut l = [0.0; 3];
                    l[i] = 1.0 - s;
                    l[k] = s;
                    best = best.max(at(l));
                }
            }
        }
    }
    if n == 3 {
        // L_0 = L_1 = L_2 with λ_0 = 1 − λ_1 − λ_2: two equations in λ_1, λ_2.
        let d = |j: usize, m: usize| {
            let (a, b) = (values[j], values[m]);
            // (L_j − L_m)(λ) = c + e1·λ_1 + e2·λ_2
            let c = a[0] - b[0];
            (c, a[1] - b[1] - c, a[2] - b[2] - c)
        };
        let ((c1, a1, b1), (c2, a2, b2)) = (d(0, 1), d(0, 2));
        let det = a1 * b2 - a2 * b1;
        if det != 0.0 {
            let l1 = (-c1 * b2 + c2 * b1) / det;
            let l2 = (-a1 * c2 + a2 * c1) / det;
            let l0 = 1.0 - l1 - l2;
            if l0 >= 0.0 && l1 >= 0.0 && l2 >= 0.0 {
                best = best.max(at([l0, l1, l2]));
            }
        }
    }
    best
}

/// The Lipschitz bound: a 1-Lipschitz function with values `d[i]` at the
/// corners `p` is at most `min_i (d[i] + max_k |p_k − p_i|)` over the
/// triangle.
pub(crate) fn lipschitz_max(p: &[Point3<f64>; 3], d: &[f64; 3]) -> f64 {
    (0..3)
        .map(|i| d[i] + reach(p, i))
        .fold(f64::INFINITY, f64::min)
}

/// The farthest any point of the triangle `p` is from its corner `i`.
pub(crate) fn reach(p: &[Point3<f64>; 3], i: usize) -> f64 {
    (0..3).map(|k| (p[k] - p[i]).norm()).fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Against a dense barycentric grid: the bound is never below the
    /// grid's maximum of `min_j L_j`, and within the grid's reach of it.
    #[test]
    fn interpolated_max_is_the_maximum() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..2000 {
            let n = rng.random_range(1..=3);
            let values: Vec<[f64; 3]> = (0..n)
                .map(|_| [0; 3].map(|_| rng.random_range(0.0..1.0)))
                .collect();
            let got = interpolated_max(&values);
            let steps = 60;
            let mut grid: f64 = 0.0;
            for a in 0..=steps {
                for b in 0..=steps - a {
                    let l = [a, b, steps - a - b].map(|x| x as f64 / steps as f64);
                    let v = values
                        .iter()
                        .map(|v| v[0] * l[0] + v[1] * l[1] + v[2] * l[2])
                        .fold(f64::INFINITY, f64::min);
                    grid = grid.max(v);
                }
            }
            assert!(got >= grid - 1e-12, "{values:?}: {got} < {grid}");
            assert!(
                got <= grid + 2.0 / steps as f64,
                "{values:?}: {got} ≫ {grid}"
            );
        }
    }
}
