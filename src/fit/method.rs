//! Named fitting methods: the entry points the command line uses.

use crate::fit::obb::fast::{box_volume, tight_frame};
use crate::fit::obb::kernel::{self, Certificate, EXACT_MAX_VERTICES};
use crate::fit::obb::tight::min_volume_frame;
use crate::fit::{ConvexHull, HullError, Obb, Sphere, covariance};
use crate::threads::{Stop, Stopped, unstopped};
use nalgebra::{Matrix3, Point3};
use std::fmt;
use std::str::FromStr;

/// How to fit a bounding sphere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SphereMethod {
    /// Mean of the points, radius to the farthest ([`Sphere::centroid`]).
    Centroid,
    /// Ritter's grow pass as DirectXMath ([`Sphere::ritter`]).
    Ritter,
    /// The minimum enclosing sphere ([`Sphere::exact`]).
    Exact,
}

/// How to fit an oriented bounding box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ObbMethod {
    /// Principal axes of the vertex covariance.
    Pca,
    /// Principal axes of the hull surface's area-weighted covariance (RAPID).
    Hull,
    /// Near-minimal volume, quickly: face-flush min-rectangle boxes plus
    /// local search (`tight_frame`).
    Fast,
    /// The minimum volume (`min_volume_frame`, O'Rourke / Jylänki).
    Tight,
}

/// An unknown method name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown method {0:?}")]
pub struct UnknownMethod(pub String);

macro_rules! named {
    ($ty:ident { $($var:ident => $name:literal),* }) => {
        impl $ty {
            /// Every method, in documentation order.
            pub const ALL: &'static [$ty] = &[$($ty::$var),*];

            /// The method's name on the command line and in JSON.
            pub fn as_str(self) -> &'static str {
                match self { $($ty::$var => $name),* }
            }
        }

        impl FromStr for $ty {
            type Err = UnknownMethod;
            fn from_str(s: &str) -> Result<Self, UnknownMethod> {
                match s { $($name => Ok($ty::$var),)* _ => Err(UnknownMethod(s.to_owned())) }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

named!(SphereMethod { Centroid => "centroid", Ritter => "ritter", Exact => "exact" });
named!(ObbMethod { Pca => "pca", Hull => "hull", Fast => "fast", Tight => "tight" });

/// A bounding sphere of `points` by method `m`; it contains every point.
/// `None` for no points.
///
/// # Guarantees
/// Every point lies within the radius (the radius is the largest distance
/// from the centre, in `f64`); [`SphereMethod::Exact`] is the minimum
/// enclosing sphere.
///
/// ```
/// use bvtool::fit::{SphereMethod, sphere};
/// use nalgebra::Point3;
///
/// let points = [Point3::new(-1.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 0.5, 0.0)];
/// let s = sphere(&points, SphereMethod::Exact).unwrap();
/// assert!((s.radius - 1.0).abs() < 1e-12 && s.center.coords.norm() < 1e-12);
/// assert!(sphere(&[], SphereMethod::Ritter).is_none());
/// ```
pub fn sphere(points: &[Point3<f64>], m: SphereMethod) -> Option<Sphere> {
    match m {
        SphereMethod::Centroid => Sphere::centroid(points),
        SphereMethod::Ritter => Sphere::ritter(points),
        SphereMethod::Exact => Sphere::exact(points),
    }
}

/// [`sphere`] for points whose convex `hull` (from [`ConvexHull::new`] on
/// the same points) is already known. The exact method then runs Welzl on
/// the hull vertices only — the minimum enclosing sphere of a set is that of
/// its hull's vertices (every point is a convex combination of them, and a
/// ball is convex) — and takes the radius over all `points` with
/// [`Sphere::about`]'s margin, so every point is still contained; the other
/// methods depend on every point and ignore the hull. `None` for no points.
pub fn sphere_with_hull(
    points: &[Point3<f64>],
    hull: &ConvexHull,
    m: SphereMethod,
) -> Option<Sphere> {
    match m {
        SphereMethod::Exact => Sphere::about(Sphere::exact(&hull.vertices)?.center, points),
        _ => sphere(points, m),
    }
}

/// An oriented box around `points` by method `m`, given their convex `hull`
/// (from [`ConvexHull::new`] on the same points).
///
/// Each method proposes frames (`pca`: vertex covariance; `hull`: RAPID
/// triangle covariance of the hull surface, or the hull vertices' covariance
/// for a flat hull; `fast`: `tight_frame` seeded with both covariance
/// frames; `tight`: `min_volume_frame`, seeded the same way) and the
/// result is the smallest box over those frames **and the axis-aligned
/// one**, so no method is ever worse than the AABB and `fast` and `tight`
/// never worse than `pca` or `hull` (nor `tight` than `fast`). Axes are
/// right-handed; the box contains every point (rounding margin of
/// [`Obb::from_frame_and_points`]). Extents are taken over the hull's
/// vertices only ([`obb_with_covariance`]): every point is a convex
/// combination of them, exactly, so it projects within their range along
/// any axis. `None` for no points.
pub fn obb(points: &[Point3<f64>], hull: &ConvexHull, m: ObbMethod) -> Option<Obb> {
    obb_with_covariance(
        &hull.vertices,
        hull,
        || covariance::of_points(points).map(|(_, c)| c),
        m,
    )
}

/// [`obb`] when the hull is not known yet: builds it on the way, in the
/// same hand-over to the thread pool, with the covariance (for the methods
/// that ask for it) computed beside it. Each entry point called from
/// outside the pool hands its work to a worker and sleeps until it is done
/// ([`crate::threads::on_pool`], about 20 µs here, a twentieth of a small
/// model's minimum box), so one call costs less than [`ConvexHull::new`]
/// then [`obb`]. Errors as [`ConvexHull::new`] (no points, a non-finite
/// coordinate).
///
/// # Guarantees
/// The box contains every point (its extents are the points' own extremes
/// along its axes, in `f64`); [`ObbMethod::Tight`] is the minimum-volume box
/// (exact up to the rounding of those extremes), the others are at least as
/// large. Errors for no points or non-finite coordinates.
///
/// ```
/// use bvtool::fit::{ObbMethod, obb_of_points};
/// use nalgebra::Point3;
///
/// // A 4 x 2 x 1 box's corners, turned 30 degrees about z.
/// let (s, c) = (0.5f64, 3f64.sqrt() / 2.0);
/// let points: Vec<Point3<f64>> = (0..8)
///     .map(|i| {
///         let (x, y, z) = ((i & 1) as f64 * 4.0, ((i >> 1) & 1) as f64 * 2.0, (i >> 2) as f64);
///         Point3::new(c * x - s * y, s * x + c * y, z)
///     })
///     .collect();
/// let tight = obb_of_points(&points, ObbMethod::Tight)?;
/// assert!((tight.volume() - 8.0).abs() < 1e-9);
/// assert!(points.iter().all(|p| tight.contains(p, 1e-12)));
/// # Ok::<(), bvtool::fit::HullError>(())
/// ```
pub fn obb_of_points(points: &[Point3<f64>], m: ObbMethod) -> Result<Obb, HullError> {
    crate::threads::on_pool(|| {
        let (hull, cov) = rayon::join(
            || ConvexHull::new(points),
            || {
                (m != ObbMethod::Hull)
                    .then(|| covariance::of_points(points).map(|(_, c)| c))
                    .flatten()
            },
        );
        let hull = hull?;
        // The box's extents over the hull's vertices are those over every
        // point (see `obb`).
        Ok(obb_with_covariance(&hull.vertices, &hull, || cov, m).expect("the hull has a point"))
    })
}

/// [`obb`] for a point set known by a subset `points` that holds every
/// vertex of its convex `hull` (for instance the hull vertices themselves)
/// and by `covariance`, the vertex covariance of the whole set (asked only
/// by the `pca` and `tight` methods). Every box depends on the whole set
/// only through its hull and that covariance, so the result is the one
/// [`obb`] gives on the whole set, up to the rounding of the covariance;
/// it contains every point of the set (a box is convex).
pub fn obb_with_covariance(
    points: &[Point3<f64>],
    hull: &ConvexHull,
    covariance: impl FnOnce() -> Option<Matrix3<f64>> + Send,
    m: ObbMethod,
) -> Option<Obb> {
    obb_certified(points, hull, covariance, m).map(|(b, _)| b)
}

/// [`obb_with_covariance`] with what the box is known to be: whether it is
/// the minimum-volume box and, when [`ObbMethod::Tight`] worked on a kernel
/// (when the search on the hull would pass its work limits, see
/// docs/algorithms.md, "Big hulls"), a certified bound of its volume over
/// the minimum's.
pub fn obb_certified(
    points: &[Point3<f64>],
    hull: &ConvexHull,
    covariance: impl FnOnce() -> Option<Matrix3<f64>> + Send,
    m: ObbMethod,
) -> Option<(Obb, Certificate)> {
    unstopped(|stop| obb_certified_until(points, hull, covariance, m, stop))
}

/// [`obb_certified`], giving up with [`Stopped`] once `stop` is set: the
/// `fast` and `tight` searches check it between their batches of face
/// directions and before each hull edge's pairs and configurations, so a
/// big hull's search stops within milliseconds.
pub fn obb_certified_until(
    points: &[Point3<f64>],
    hull: &ConvexHull,
    covariance: impl FnOnce() -> Option<Matrix3<f64>> + Send,
    m: ObbMethod,
    stop: Stop<'_>,
) -> Result<Option<(Obb, Certificate)>, Stopped> {
    crate::threads::on_pool(|| obb_on_pool(points, hull, covariance, m, stop))
}

/// [`obb_certified_until`], on the calling thread.
fn obb_on_pool(
    points: &[Point3<f64>],
    hull: &ConvexHull,
    covariance: impl FnOnce() -> Option<Matrix3<f64>>,
    m: ObbMethod,
    stop: Stop<'_>,
) -> Result<Option<(Obb, Certificate)>, Stopped> {
    let pca = || {
        covariance()
            .map(|c| covariance::principal_frame(&c))
            .unwrap_or_default()
    };
    let surface = || {
        let tris = hull
            .faces
            .iter()
            .map(|f| f.map(|i| hull.vertices[i as usize]));
        covariance::of_triangles(tris)
            .or_else(|| covariance::of_points(&hull.vertices))
            .map(|(_, c)| covariance::principal_frame(&c))
            .unwrap_or_default()
    };
    let mut frames = vec![Matrix3::identity()];
    // A certified lower bound of the minimum volume, when the search ran
    // on a kernel; whether the search was exact.
    let mut lower = None;
    let mut exact = false;
    match m {
        ObbMethod::Pca => frames.push(pca()),
        ObbMethod::Hull => frames.push(surface()),
        ObbMethod::Fast | ObbMethod::Tight => {
            frames.extend([pca(), surface()]);
            // The search on the hull itself while its work stays within its
            // limits (it says so before spending it), else on a kernel.
            let small = hull.dimension < 3 || hull.vertices.len() <= EXACT_MAX_VERTICES;
            let direct = if !small {
                None
            } else if m == ObbMethod::Fast {
                tight_frame(hull, &frames, stop)?
            } else {
                min_volume_frame(hull, &frames, stop)?
            };
            if let Some(f) = direct {
                frames.push(f);
                exact = m == ObbMethod::Tight;
            } else if let Ok(k) = ConvexHull::new(&kernel::kernel(&hull.vertices)) {
                // Where the exact search gave up but the fast one on the
                // hull stays within its limits, its frame too: `tight` is
                // never worse than `fast`.
                if small
                    && m == ObbMethod::Tight
                    && let Some(fast) = tight_frame(hull, &frames, stop)?
                {
                    frames.push(fast);
                }
                // Bounded: both searches on the kernel's hull (at most
                // KERNEL_DIRECTIONS vertices, within the limits); the box
                // is grown below to every point.
                if let Some(fast) = tight_frame(&k, &frames, stop)? {
                    frames.push(fast);
                }
                if m == ObbMethod::Tight
                    && let Some(least) = min_volume_frame(&k, &frames, stop)?
                {
                    // The kernel's minimum box, less its rounding, and the
                    // ball the hull holds: the better of both.
                    let of_kernel = box_volume(&least, &k.vertices) * (1.0 - 1e-9);
                    lower = Some(of_kernel.max(kernel::ball_lower_bound(hull)));
                    frames.push(least);
                }
            }
        }
    }
    let Some(best) = frames
        .iter()
        .filter_map(|f| Obb::from_frame_and_points(f, points))
        .min_by(|a, b| a.volume().total_cmp(&b.volume()))
    else {
        return Ok(None);
    };
    let bound = if exact {
        Some(1.0)
    } else {
        lower.map(|l| best.volume() / l)
    };
    Ok(Some((best, Certificate { exact, bound })))
}
