//! Poses of B against A near their contact boundary, for testing and
//! `bvtool verify` (the rule of `shared/peers/make_poses.py`, with bvtool's own
//! collision query as the oracle of the bisection).

use crate::fit::Aabb;
use crate::mesh::TriMesh;
use crate::pose::Pose;
use crate::query::{ContactMode, collide};
use crate::tree::ObbTree;
use nalgebra::{Point3, Quaternion, UnitQuaternion, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A rotation drawn uniformly (Shoemake's method).
pub fn random_rotation(rng: &mut impl Rng) -> UnitQuaternion<f64> {
    let (u1, u2, u3): (f64, f64, f64) = (rng.random(), rng.random(), rng.random());
    let tau = std::f64::consts::TAU;
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    UnitQuaternion::from_quaternion(Quaternion::new(
        b * (tau * u3).cos(),
        a * (tau * u2).sin(),
        a * (tau * u2).cos(),
        b * (tau * u3).sin(),
    ))
}

/// A direction drawn uniformly on the unit sphere (rejection from the cube).
pub fn random_direction(rng: &mut impl Rng) -> Vector3<f64> {
    loop {
        let v = Vector3::new(
            rng.random_range(-1.0..=1.0),
            rng.random_range(-1.0..=1.0),
            rng.random_range(-1.0..=1.0),
        );
        let n = v.norm();
        if n > 1e-3 && n <= 1.0 {
            return v / n;
        }
    }
}

/// `n` poses of `b` against `a` close to the contact boundary, half just
/// colliding (even indices), half just apart (odd indices), deterministic for
/// a `seed`.
///
/// For each: a uniform rotation R and direction u; B's AABB centre is put at
/// `c_A + d·u`; the boundary distance d* is bracketed by a 17-step scan from
/// 0 (colliding) to the sum of both bounding radii (surely apart), walked
/// outwards on a 33-step grid, then bisected (40 steps or 1e-7·size) with
/// [`collide`](fn@crate::query::collide) in first-contact mode; the pose is then pushed in or out by
/// `frac·size·U(0.25, 1)` with `frac = 0.01` and size the larger AABB
/// diagonal. Directions with no colliding distance are redrawn (at most
/// `50·n + 100` draws, so fewer poses may come back for meshes that never
/// touch). Empty meshes, or two meshes that are each a single point, give
/// no poses.
pub fn near_boundary(a_mesh: &TriMesh, b_mesh: &TriMesh, n: usize, seed: u64) -> Vec<Pose> {
    if a_mesh.vertices.is_empty() || b_mesh.vertices.is_empty() {
        return Vec::new();
    }
    let ta = ObbTree::build(a_mesh);
    let tb = ObbTree::build(b_mesh);
    near_boundary_with_trees((a_mesh, &ta), (b_mesh, &tb), n, seed)
}

/// [`near_boundary`] with the meshes' trees already built (the same poses),
/// so that a caller holding them builds none again.
pub fn near_boundary_with_trees(
    (a_mesh, ta): (&TriMesh, &ObbTree),
    (b_mesh, tb): (&TriMesh, &ObbTree),
    n: usize,
    seed: u64,
) -> Vec<Pose> {
    let (Some(ba), Some(bb)) = (
        Aabb::from_points(&a_mesh.vertices),
        Aabb::from_points(&b_mesh.vertices),
    ) else {
        return Vec::new();
    };
    let (ca, cb) = (ba.center(), bb.center());
    let radius = |m: &TriMesh, c: &Point3<f64>| {
        m.vertices
            .iter()
            .map(|v| (v - c).norm())
            .fold(0.0, f64::max)
    };
    let (ra, rb) = (radius(a_mesh, &ca), radius(b_mesh, &cb));
    let size = (ba.max - ba.min).norm().max((bb.max - bb.min).norm());
    if size <= 0.0 {
        // Two single points: no distance brackets a boundary.
        return Vec::new();
    }
    let d_far = (ra + rb) * 1.001 + 1e-9 * size;
    let tol = 1e-7 * size;
    let frac = 0.01;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut poses = Vec::with_capacity(n);
    let mut attempts = 0;
    while poses.len() < n && attempts < 50 * n + 100 {
        attempts += 1;
        let q = random_rotation(&mut rng);
        let u = random_direction(&mut rng);
        let at = |d: f64| Pose::new(ca.coords + u * d - q * cb.coords, q);
        let hit = |d: f64| collide(ta, tb, &at(d), ContactMode::First).intersecting;
        let grid = |from: f64, k: usize| {
            (0..k).map(move |i| from + (d_far - from) * i as f64 / (k - 1) as f64)
        };
        let Some(mut lo) = grid(0.0, 17).take(16).find(|&d| hit(d)) else {
            continue;
        };
        if hit(d_far) {
            continue;
        }
        for d in grid(lo, 33).skip(1).take(31) {
            if hit(d) {
                lo = d;
            }
        }
        let mut hi = d_far;
        for _ in 0..40 {
            if hi - lo <= tol {
                break;
            }
            let mid = 0.5 * (lo + hi);
            if hit(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let delta = frac * size * rng.random_range(0.25..1.0);
        let d = if poses.len() % 2 == 0 {
            hi - delta
        } else {
            hi + delta
        };
        poses.push(at(d));
    }
    poses
}
