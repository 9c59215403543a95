//! Cylinders and capsules: the round colliders of game and physics
//! runtimes, fitted for near-minimal volume and always containing every
//! point.
//!
//! Both rest on one primitive: along a unit axis `a`, the points' minimum
//! enclosing circle in the plane across `a` (Welzl's algorithm, as for the
//! exact sphere, on the points projected into that plane — run on a working
//! set of the points that is grown until the circle holds them all, see
//! `Shell`) and their extent along `a`. A **cylinder** is that circle swept over the extent. A
//! **capsule** of radius `R ≥ r` (the circle's radius) around the same axis
//! line needs its segment to reach, for each point at radial distance `ρ`
//! and axial coordinate `t`, within `√(R² − ρ²)` of `t`: its ends are
//! `max(t − √(R² − ρ²))` and `min(t + √(R² − ρ²))` (a sphere when these
//! cross), and `R` is chosen by a bracketing search over `[r, r + extent]`
//! for the least volume `π·R²·L + 4/3·π·R³`.
//!
//! The axis is searched (`search_axis`): every seed direction — the
//! caller's (PCA and box axes) and the 13 k-DOP directions — is scored,
//! and the best two refined by a pattern search that tilts the axis by a
//! shrinking angle (0.2 rad down to 1e-6) about two directions across it.
//! **Guarantees:** every point is contained (the radius and extent are the
//! largest distances found, grown by a rounding margin of a few ulps of the
//! coordinates, as [`Sphere::about`] grows a sphere); the volume is the
//! least over the axes the search visited — a local optimum, not a proven
//! global minimum.

use crate::fit::Sphere;
use crate::fit::polytope::kdop::KdopKind;
use crate::threads::{Stop, Stopped, unstopped};
use nalgebra::{Point3, Unit, UnitQuaternion, Vector3};

/// A cylinder: the disc of `radius` about `center` across `axis`, swept
/// `half_height` along it each way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder {
    /// The centre of the axis segment.
    pub center: Point3<f64>,
    /// The unit axis.
    pub axis: Vector3<f64>,
    /// The radius.
    pub radius: f64,
    /// Half the height.
    pub half_height: f64,
}

/// A capsule: every point within `radius` of the segment from
/// `center − half_length·axis` to `center + half_length·axis`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    /// The centre of the segment.
    pub center: Point3<f64>,
    /// The unit axis.
    pub axis: Vector3<f64>,
    /// The radius.
    pub radius: f64,
    /// Half the segment's length (half the distance between the centres of
    /// the capping hemispheres; glTF's `KHR_implicit_shapes` calls the whole
    /// of it `height`).
    pub half_length: f64,
}

/// The rotation that takes +Y to `axis` (the engines' and glTF's
/// convention for round shapes), as a quaternion (x, y, z, w).
fn y_to(axis: &Vector3<f64>) -> [f64; 4] {
    let q = UnitQuaternion::rotation_between(&Vector3::y(), axis).unwrap_or_else(|| {
        UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::PI)
    });
    [q.i, q.j, q.k, q.w]
}

impl Cylinder {
    /// Volume, `π·r²·h`.
    pub fn volume(&self) -> f64 {
        std::f64::consts::PI * self.radius * self.radius * 2.0 * self.half_height
    }
    /// Surface area, `2π·r·h + 2π·r²`.
    pub fn surface_area(&self) -> f64 {
        let r = self.radius;
        2.0 * std::f64::consts::PI * r * (2.0 * self.half_height + r)
    }
    /// Whether `p` is inside, with slack `tol`.
    pub fn contains(&self, p: &Point3<f64>, tol: f64) -> bool {
        let d = p - self.center;
        let t = d.dot(&self.axis);
        let radial = (d - self.axis * t).norm();
        t.abs() <= self.half_height + tol && radial <= self.radius + tol
    }
    /// The rotation taking +Y to the axis, (x, y, z, w).
    pub fn rotation_xyzw(&self) -> [f64; 4] {
        y_to(&self.axis)
    }
}

impl Capsule {
    /// Volume, `π·r²·L + 4/3·π·r³`.
    pub fn volume(&self) -> f64 {
        let r = self.radius;
        std::f64::consts::PI * r * r * (2.0 * self.half_length + 4.0 / 3.0 * r)
    }
    /// Surface area, `2π·r·L + 4π·r²`.
    pub fn surface_area(&self) -> f64 {
        let r = self.radius;
        2.0 * std::f64::consts::PI * r * (2.0 * self.half_length + 2.0 * r)
    }
    /// Whether `p` is inside, with slack `tol`.
    pub fn contains(&self, p: &Point3<f64>, tol: f64) -> bool {
        let d = p - self.center;
        let t = d.dot(&self.axis).clamp(-self.half_length, self.half_length);
        (d - self.axis * t).norm() <= self.radius + tol
    }
    /// The rotation taking +Y to the axis, (x, y, z, w).
    pub fn rotation_xyzw(&self) -> [f64; 4] {
        y_to(&self.axis)
    }
}

/// The points seen along one axis: the minimum enclosing circle of their
/// projection across it (centre `c` in the plane through the origin, radius
/// `r`), each point's radial distance from the axis line through `c`, and
/// its axial coordinate.
struct AxisView {
    axis: Vector3<f64>,
    /// The axis line's point in the plane through the origin.
    line: Point3<f64>,
    radius: f64,
    radial: Vec<f64>,
    axial: Vec<f64>,
    /// A few ulps of the coordinates: the rounding margin.
    margin: f64,
}

/// The points' minimum enclosing circle across an axis, found on a small
/// working set: Welzl's algorithm runs on the working set's projections,
/// then every point is checked against the circle and those outside join
/// the set, until none is — so the circle is the whole set's, while Welzl
/// sees only the few points that ever bounded a circle. The axis search asks
/// for hundreds of nearby axes, whose circles rest on nearly the same
/// points: the set stays a few dozen points where a hull has thousands.
struct Shell<'p> {
    points: &'p [Point3<f64>],
    working: Vec<usize>,
    flat: Vec<Point3<f64>>,
}

/// The circle of [`Shell::across`], with the points' axial extent.
struct Across {
    /// The centre, in the plane across the axis through the origin.
    center: Point3<f64>,
    /// The largest distance of a projected point from the centre.
    radius: f64,
    /// The least and greatest axial coordinates.
    extent: (f64, f64),
}

impl<'p> Shell<'p> {
    /// A working set seeded with the points extreme along the 13 k-DOP
    /// directions.
    fn new(points: &'p [Point3<f64>]) -> Shell<'p> {
        let mut working: Vec<usize> = KdopKind::K26
            .directions()
            .iter()
            .flat_map(|d| {
                let key = |i: &usize| points[*i].coords.dot(d);
                let ids = 0..points.len();
                [
                    ids.clone().min_by(|i, j| key(i).total_cmp(&key(j))),
                    ids.max_by(|i, j| key(i).total_cmp(&key(j))),
                ]
            })
            .flatten()
            .collect();
        working.sort_unstable();
        working.dedup();
        Shell {
            points,
            working,
            flat: Vec::new(),
        }
    }

    /// The minimum enclosing circle of the points projected across `axis`
    /// (unit), and their axial extent.
    fn across(&mut self, axis: &Vector3<f64>) -> Across {
        let project = |p: &Point3<f64>| p - axis * p.coords.dot(axis);
        loop {
            self.flat.clear();
            self.flat
                .extend(self.working.iter().map(|&i| project(&self.points[i])));
            let center = Sphere::exact(&self.flat)
                .expect("the working set is not empty")
                .center;
            let inner = self
                .flat
                .iter()
                .map(|q| nalgebra::distance_squared(q, &center))
                .fold(0.0, f64::max);
            let (mut r2, mut lo, mut hi) = (inner, f64::INFINITY, f64::NEG_INFINITY);
            let before = self.working.len();
            for (i, p) in self.points.iter().enumerate() {
                let t = p.coords.dot(axis);
                (lo, hi) = (lo.min(t), hi.max(t));
                let d2 = nalgebra::distance_squared(&(p - axis * t), &center);
                if d2 > inner * (1.0 + 1e-9) {
                    self.working.push(i);
                }
                r2 = r2.max(d2);
            }
            if self.working.len() == before {
                return Across {
                    center,
                    radius: r2.sqrt(),
                    extent: (lo, hi),
                };
            }
        }
    }
}

impl AxisView {
    fn new(shell: &mut Shell, axis: Vector3<f64>) -> AxisView {
        let axis = axis.normalize();
        let circle = shell.across(&axis);
        AxisView::through(shell.points, axis, circle.center)
    }

    /// The points seen along `axis` (unit) about the axis line through
    /// `line` (any point of it).
    fn through(points: &[Point3<f64>], axis: Vector3<f64>, line: Point3<f64>) -> AxisView {
        // The line's point in the plane through the origin.
        let line = line - axis * line.coords.dot(&axis);
        let radial: Vec<f64> = points
            .iter()
            .map(|p| (p - axis * p.coords.dot(&axis) - line).norm())
            .collect();
        let axial: Vec<f64> = points.iter().map(|p| p.coords.dot(&axis)).collect();
        let scale = points
            .iter()
            .map(|p| p.coords.amax())
            .fold(line.coords.amax(), f64::max);
        AxisView {
            axis,
            line,
            radius: radial.iter().copied().fold(0.0, f64::max),
            radial,
            axial,
            margin: 16.0 * f64::EPSILON * scale,
        }
    }

    fn cylinder(&self) -> Cylinder {
        let (lo, hi) = self
            .axial
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &t| {
                (a.min(t), b.max(t))
            });
        Cylinder {
            center: self.line + self.axis * (0.5 * (lo + hi)),
            axis: self.axis,
            radius: self.radius * (1.0 + 4.0 * f64::EPSILON) + self.margin,
            half_height: 0.5 * (hi - lo) * (1.0 + 4.0 * f64::EPSILON) + self.margin,
        }
    }

    /// The capsule of radius `r` (≥ the circle's) around this axis line.
    fn capsule_of_radius(&self, r: f64) -> Capsule {
        let (mut top, mut bottom) = (f64::NEG_INFINITY, f64::INFINITY);
        for (&rho, &t) in self.radial.iter().zip(&self.axial) {
            let s = (r * r - rho * rho).max(0.0).sqrt();
            top = top.max(t - s);
            bottom = bottom.min(t + s);
        }
        // The segment [bottom, top]; when they cross, any point between
        // serves (a sphere).
        let (a, b) = if bottom <= top {
            (bottom, top)
        } else {
            (top, bottom)
        };
        let mid = 0.5 * (a + b);
        let half = if bottom <= top {
            0.5 * (top - bottom)
        } else {
            0.0
        };
        Capsule {
            center: self.line + self.axis * mid,
            axis: self.axis,
            radius: r,
            half_length: half,
        }
    }

    /// The least-volume capsule around this axis line: a bracketing search
    /// over the radius, then grown by the rounding margin.
    fn capsule(&self) -> Capsule {
        let (lo, hi) = self
            .axial
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &t| {
                (a.min(t), b.max(t))
            });
        let r0 = self.radius;
        let span = (hi - lo).max(r0 * 1e-9) + 1e-300;
        let volume = |r: f64| self.capsule_of_radius(r).volume();
        // A coarse scan of [r0, r0 + span], then golden-section refinement
        // around the best sample.
        let samples = 12;
        let at = |k: usize| r0 + span * (k as f64 / samples as f64).powi(2);
        let best = (0..=samples)
            .min_by(|&i, &j| volume(at(i)).total_cmp(&volume(at(j))))
            .expect("samples");
        let (mut a, mut b) = (at(best.saturating_sub(1)), at((best + 1).min(samples)));
        let g = 0.5 * (5f64.sqrt() - 1.0);
        // 30 steps shrink the bracket to 0.618^30 ≈ 5e-7 of its width.
        for _ in 0..30 {
            let (c, d) = (b - g * (b - a), a + g * (b - a));
            if volume(c) <= volume(d) {
                b = d;
            } else {
                a = c;
            }
        }
        let r = [a, b, at(best)]
            .into_iter()
            .min_by(|x, y| volume(*x).total_cmp(&volume(*y)))
            .expect("three candidates");
        let mut c = self.capsule_of_radius(r);
        c.radius = c.radius * (1.0 + 4.0 * f64::EPSILON) + self.margin;
        c
    }
}

/// The seed directions: the caller's, then the 13 k-DOP directions.
fn seeds(extra: &[Vector3<f64>]) -> Vec<Vector3<f64>> {
    let mut s: Vec<Vector3<f64>> = extra.to_vec();
    s.extend(KdopKind::K26.directions());
    s
}

/// The axis minimising `score` (of a unit axis): every seed scored, then
/// the best two refined by pattern search — tilt by ±δ about two
/// directions across the axis, keep any improvement, halve δ when none —
/// from δ = 0.2 rad down to 1e-6 rad. Gives up with [`Stopped`] when
/// `stop` is set, checked before each score (one pass over the points).
fn search_axis(
    extra: &[Vector3<f64>],
    stop: Stop<'_>,
    mut score: impl FnMut(&Vector3<f64>) -> f64,
) -> Result<Vector3<f64>, Stopped> {
    let mut score = |a: &Vector3<f64>| stop.check().map(|()| score(a));
    let mut scored: Vec<(f64, Vector3<f64>)> = seeds(extra)
        .into_iter()
        .filter(|a| a.norm() > 0.0 && a.iter().all(|x| x.is_finite()))
        .map(|a| {
            let a = a.normalize();
            Ok((score(&a)?, a))
        })
        .collect::<Result<_, Stopped>>()?;
    scored.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut best = scored[0];
    for &(mut s, mut a) in scored.iter().take(2) {
        let mut delta = 0.2;
        while delta > 1e-6 {
            let (u, v) = across(&a);
            let mut improved = false;
            for tilt in [u, -u, v, -v] {
                let rotation = UnitQuaternion::from_axis_angle(&Unit::new_normalize(tilt), delta);
                let b = (rotation * a).normalize();
                let sb = score(&b)?;
                if sb < s {
                    (s, a, improved) = (sb, b, true);
                    break;
                }
            }
            if !improved {
                delta *= 0.5;
            }
        }
        if s < best.0 {
            best = (s, a);
        }
    }
    Ok(best.1)
}

/// Two unit directions across `a`, orthogonal to it and to each other
/// (`(u, v, a)` is right-handed).
pub(crate) fn across(a: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    let helper = if a.x.abs() < 0.9 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let u = a.cross(&helper).normalize();
    (u, a.cross(&u))
}

/// A near-minimal-volume cylinder containing every point (see the module
/// docs), its axis searched from `seeds` (for instance the PCA and box
/// axes) and the 13 k-DOP directions. For a mesh, its convex hull's
/// vertices suffice (a cylinder is convex). `None` for no points.
pub fn cylinder(points: &[Point3<f64>], seeds: &[Vector3<f64>]) -> Option<Cylinder> {
    unstopped(|stop| cylinder_until(points, seeds, stop))
}

/// [`cylinder`], giving up with [`Stopped`] when `stop` is set (checked
/// once per axis tried).
pub(crate) fn cylinder_until(
    points: &[Point3<f64>],
    seeds: &[Vector3<f64>],
    stop: Stop<'_>,
) -> Result<Option<Cylinder>, Stopped> {
    if points.is_empty() {
        return Ok(None);
    }
    let shell = &mut Shell::new(points);
    let axis = search_axis(seeds, stop, |a| {
        let c = shell.across(a);
        std::f64::consts::PI * c.radius * c.radius * (c.extent.1 - c.extent.0)
    })?;
    Ok(Some(AxisView::new(shell, axis).cylinder()))
}

/// A near-minimal-volume capsule containing every point (see the module
/// docs), as [`cylinder`]. `None` for no points.
///
/// # Guarantees
/// The capsule contains every point; its axis is the best of those searched
/// (the seeds, 13 fixed directions and local refinement), so it is minimal
/// among them, not globally.
///
/// ```
/// use bvtool::fit::capsule;
/// use nalgebra::{Point3, Vector3};
///
/// // Points on a segment of length 4 along x, fattened by 0.5 across it.
/// let points: Vec<Point3<f64>> = (0..=40)
///     .flat_map(|i| {
///         let x = i as f64 * 0.1 - 2.0;
///         [Point3::new(x, 0.5, 0.0), Point3::new(x, -0.5, 0.0), Point3::new(x, 0.0, 0.5)]
///     })
///     .collect();
/// let c = capsule(&points, &[Vector3::x()]).unwrap();
/// assert!(points.iter().all(|p| c.contains(p, 1e-12)));
/// assert!(c.radius >= 0.5 - 1e-12 && c.radius < 0.51, "{}", c.radius);
/// ```
pub fn capsule(points: &[Point3<f64>], seeds: &[Vector3<f64>]) -> Option<Capsule> {
    unstopped(|stop| capsule_until(points, seeds, stop))
}

/// [`capsule`], giving up with [`Stopped`] when `stop` is set (checked
/// once per axis or line tried).
pub(crate) fn capsule_until(
    points: &[Point3<f64>],
    seeds: &[Vector3<f64>],
    stop: Stop<'_>,
) -> Result<Option<Capsule>, Stopped> {
    if points.is_empty() {
        return Ok(None);
    }
    let shell = &mut Shell::new(points);
    let axis = search_axis(seeds, stop, |a| AxisView::new(shell, *a).capsule().volume())?;
    refine_line(points, AxisView::new(shell, axis), stop).map(Some)
}

/// The capsule around a fixed axis line — through `through`, along
/// `axis` (any length but zero) — that contains every point: its radius the
/// points' largest distance from the line, its segment as short as that
/// radius allows, grown by the rounding margin. The reference rules of
/// [`crate::fit::reference`] place their capsules so. `None` for no points or a
/// zero axis.
pub fn capsule_on_line(
    points: &[Point3<f64>],
    through: &Point3<f64>,
    axis: &Vector3<f64>,
) -> Option<Capsule> {
    let axis = axis.try_normalize(0.0)?;
    if points.is_empty() {
        return None;
    }
    let view = AxisView::through(points, axis, *through);
    let mut c = view.capsule_of_radius(view.radius);
    c.radius = c.radius * (1.0 + 4.0 * f64::EPSILON) + view.margin;
    Some(c)
}

/// The capsule around `view`'s axis with its line moved to where the
/// capsule is least: the minimum enclosing circle's centre minimises the
/// radius, not always the volume (a line through the points' mean, as the
/// least-squares capsule takes, is sometimes smaller). Pattern search
/// across the axis — move by ±δ along two directions, keep any improvement,
/// halve δ when none — from a quarter of the radius down to 1e-7 of it.
/// Gives up with [`Stopped`] when `stop` is set (checked once per line).
fn refine_line(points: &[Point3<f64>], view: AxisView, stop: Stop<'_>) -> Result<Capsule, Stopped> {
    let (u, v) = across(&view.axis);
    let (axis, mut line) = (view.axis, view.line);
    let mut best = view.capsule();
    let mut delta = 0.25 * view.radius;
    let floor = 1e-7 * view.radius;
    while delta > floor {
        stop.check()?;
        let step = [u, -u, v, -v].into_iter().find_map(|d| {
            let moved = line + d * delta;
            let c = AxisView::through(points, axis, moved).capsule();
            (c.volume() < best.volume()).then_some((moved, c))
        });
        match step {
            Some((moved, c)) => (line, best) = (moved, c),
            None => delta *= 0.5,
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points on a cylinder of radius 2 and height 6 along a tilted axis:
    /// the fitted cylinder finds it (volume within 1e-6 of 24π), and the
    /// capsule of a capsule's points is that capsule.
    #[test]
    fn recovers_a_cylinder_and_a_capsule() {
        let axis = Vector3::new(1.0, 2.0, 2.0).normalize();
        let (u, v) = across(&axis);
        let c = Point3::new(3.0, -1.0, 2.0);
        let mut cyl = Vec::new();
        let mut cap = Vec::new();
        for i in 0..64 {
            let ang = i as f64 * std::f64::consts::TAU / 64.0;
            let ring = u * (2.0 * ang.cos()) + v * (2.0 * ang.sin());
            for t in [-3.0, 0.0, 3.0] {
                cyl.push(c + ring + axis * t);
            }
            // The capsule's hemispheres: rings at latitudes, and the poles.
            for k in 0..8 {
                let lat = k as f64 * std::f64::consts::FRAC_PI_2 / 8.0;
                let r = ring * lat.cos();
                cap.push(c + r + axis * (3.0 + 2.0 * lat.sin()));
                cap.push(c + r - axis * (3.0 + 2.0 * lat.sin()));
            }
        }
        cap.push(c + axis * 5.0);
        cap.push(c - axis * 5.0);
        let f = cylinder(&cyl, &[]).unwrap();
        assert!(cyl.iter().all(|p| f.contains(p, 0.0)));
        let want = std::f64::consts::PI * 4.0 * 6.0;
        assert!(
            f.volume() <= want * (1.0 + 1e-5),
            "{} vs {want}",
            f.volume()
        );
        let k = capsule(&cap, &[]).unwrap();
        assert!(cap.iter().all(|p| k.contains(p, 0.0)));
        let want = std::f64::consts::PI * 4.0 * (6.0 + 8.0 / 3.0);
        assert!(
            k.volume() <= want * (1.0 + 1e-5),
            "{} vs {want}",
            k.volume()
        );
        assert!(
            (k.radius - 2.0).abs() < 1e-4 && (k.half_length - 3.0).abs() < 1e-4,
            "{k:?}"
        );
    }

    /// One point, two points, flat points: contained, finite, no panic.
    #[test]
    fn degenerate_points() {
        let sets = [
            vec![Point3::new(1.0, 2.0, 3.0)],
            vec![Point3::new(0.0, 0.0, 0.0), Point3::new(0.0, 0.0, 4.0)],
            vec![
                Point3::new(0.0, 0.0, 0.0),
                Point3::new(1.0, 0.0, 0.0),
                Point3::new(0.0, 1.0, 0.0),
            ],
        ];
        for pts in sets {
            let (f, k) = (cylinder(&pts, &[]).unwrap(), capsule(&pts, &[]).unwrap());
            assert!(pts.iter().all(|p| f.contains(p, 0.0) && k.contains(p, 0.0)));
            assert!(f.volume().is_finite() && k.volume().is_finite());
        }
    }
}
