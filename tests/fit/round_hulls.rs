//! Round hulls (tessellated cylinders and UV spheres): every box method
//! finishes on hulls of 10⁴–10⁵ vertices, contains every vertex, and comes
//! within 1.001× of the minimum, which is analytic here; `tight` says
//! whether it searched exactly and, when not, bounds its gap honestly.

use bvtool::fit::{ConvexHull, ObbMethod, covariance, obb_certified};
use bvtool_dev::shapes::{closed_cylinder, uv_sphere};
use nalgebra::Point3;

/// Fits `pts` by `m`; checks containment (no slack: the box's own
/// outward rounding must hold every vertex) and returns the volume and the
/// certificate's `(exact, bound)`.
fn fit(pts: &[Point3<f64>], m: ObbMethod) -> (f64, bool, Option<f64>) {
    let hull = ConvexHull::new(pts).unwrap();
    let cov = covariance::of_points(pts).map(|(_, c)| c);
    let (b, c) = obb_certified(pts, &hull, || cov, m).unwrap();
    for p in pts {
        assert!(b.contains(p, 0.0), "{m}: {p} outside");
    }
    (b.volume(), c.exact, c.bound)
}

/// The minimum box of a closed prism over the regular `n`-gon (`n` a
/// multiple of 4) of circumradius `r`, height `h ≥ 2r`: flush with the
/// caps, its base the polygon's minimum-area rectangle, the square of side
/// twice the apothem `r·cos(π/n)` (docs/algorithms.md, "Big hulls").
fn prism_minimum(n: u32, r: f64, h: f64) -> f64 {
    let side = 2.0 * r * (std::f64::consts::PI / f64::from(n)).cos();
    side * side * h
}

/// Every method against the analytic minimum; `tight`'s certificate is
/// checked to be honest (its bound times the minimum covers the volume).
fn check_prism(n: u32, want_exact: bool) {
    let (r, h) = (1.0, 3.0);
    let pts = closed_cylinder(n, r, h).vertices;
    let least = prism_minimum(n, r, h);
    for m in [ObbMethod::Fast, ObbMethod::Tight] {
        let (v, exact, bound) = fit(&pts, m);
        assert!(
            v >= least * (1.0 - 1e-9),
            "{n}-gon {m}: {v} below the minimum {least}"
        );
        assert!(v <= least * 1.001, "{n}-gon {m}: {v} over 1.001 x {least}");
        if m == ObbMethod::Tight {
            assert_eq!(exact, want_exact, "{n}-gon: exact");
            let bound = bound.expect("tight has a bound");
            assert!(bound <= 1.001, "{n}-gon: bound {bound}");
            assert!(
                v / bound <= least * (1.0 + 1e-9),
                "{n}-gon: bound {bound} not a bound"
            );
            if exact {
                assert!(v <= least * (1.0 + 1e-9), "{n}-gon exact: {v} vs {least}");
            }
        }
    }
}

#[test]
fn small_prism_is_exact_and_matches_the_analytic_minimum() {
    check_prism(160, true);
}

#[test]
fn cylinder_of_1000_segments() {
    check_prism(1000, false);
}

#[test]
fn cylinder_of_10000_segments() {
    check_prism(10_000, false);
}

#[test]
fn uv_sphere_of_100k_vertices() {
    let mesh = uv_sphere(450, 224, 1.0);
    let pts = mesh.vertices;
    assert!(pts.len() > 100_000);
    // The mesh is its own convex hull: every box holds the ball of the
    // least distance from the centre to a triangle's plane, so the minimum
    // lies in [(2ρ)³, 8] (the axis-aligned cube holds every vertex).
    let rho = mesh
        .triangles
        .iter()
        .filter_map(|t| {
            let [a, b, c] = t.map(|i| pts[i as usize].coords);
            let n = (b - a).cross(&(c - a));
            (n.norm() > 0.0).then(|| n.dot(&a).abs() / n.norm())
        })
        .fold(f64::INFINITY, f64::min);
    let least = (2.0 * rho).powi(3);
    assert!(least > 7.99 && least < 8.0, "{least}");
    for m in [ObbMethod::Fast, ObbMethod::Tight] {
        let (v, exact, bound) = fit(&pts, m);
        assert!(v <= least * 1.001, "{m}: {v} over 1.001 x {least}");
        if m == ObbMethod::Tight {
            assert!(!exact);
            let bound = bound.expect("tight has a bound");
            assert!(bound <= 1.001, "bound {bound}");
            assert!(v / bound <= 8.0 * (1.0 + 1e-9), "bound {bound} not a bound");
        }
    }
}
