//! Ray queries on one mesh: the first hit, any hit, every hit in order, and
//! the number of hits — one ray at a time or a batch on every core.
//!
//! A ray is `origin + t·direction` for `t` in `[t_min, t_max]` (the
//! direction need not be unit length: `t` is in its units). Each triangle
//! is tested by [`intersect_ray_triangle`], watertight: a ray through a
//! shared edge or corner of a closed mesh hits exactly one triangle there
//! (grazing, none or two). The tree's boxes are tested with a relative
//! margin far above the rounding of the slab test, so no box that the ray
//! meets is skipped. Everything is in the mesh's frame and units;
//! triangles are indices into the input mesh's triangles.
//!
//! [`InstancedRays`] answers the same on a scene of instances without
//! flattening it: one tree per distinct geometry, shared.

mod instanced;

pub use instanced::InstancedRays;

use crate::query::pair::intersect_ray_triangle::{ShearedRay, intersect_ray_triangle};
use crate::tree::{AabbTree, Box32};
use nalgebra::{Point3, Vector3};

/// A ray with its range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    /// Where it starts.
    pub origin: Point3<f64>,
    /// Its direction (any non-zero length).
    pub direction: Vector3<f64>,
    /// The least `t` a hit may have.
    pub t_min: f64,
    /// The greatest `t` a hit may have (∞ for none).
    pub t_max: f64,
}

/// A ray's hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The distance along the ray in units of the direction's length.
    pub t: f64,
    /// The triangle hit (index in the input mesh).
    pub triangle: u32,
    /// The hit's barycentric coordinates in it (corner order as in the
    /// mesh).
    pub barycentric: [f64; 3],
    /// The triangle's unit geometric normal (right-hand rule on its
    /// corners).
    pub normal: Vector3<f64>,
    /// +1 where the ray leaves through the triangle's front, −1 where it
    /// enters.
    pub sign: i8,
}

/// The ray's `t` range within a conservative box, or `None` where it
/// misses ([`slab`]).
fn box_range(o: &Point3<f64>, inv: &Vector3<f64>, b: &Box32, t0: f64, t1: f64) -> Option<f64> {
    let (lo, hi) = (b.min.to_array(), b.max.to_array());
    let (lo, hi) = (
        std::array::from_fn(|k| lo[k] as f64),
        std::array::from_fn(|k| hi[k] as f64),
    );
    slab(o, inv, lo, hi, t0, t1)
}

/// The ray's entry `t` into the box `[lo, hi]` within `[t0, t1]` (`inv`
/// the direction's reciprocal), or `None` where it misses: the slab test
/// with a relative margin of `1e-9` on each end (far above its rounding,
/// `≈ 4ε`).
fn slab(
    o: &Point3<f64>,
    inv: &Vector3<f64>,
    lo: [f64; 3],
    hi: [f64; 3],
    t0: f64,
    t1: f64,
) -> Option<f64> {
    let (mut near, mut far) = (t0, t1);
    for k in 0..3 {
        let (l, h) = (lo[k], hi[k]);
        if inv[k].is_infinite() {
            // Parallel to the slab: inside it or never.
            if o[k] < l || o[k] > h {
                return None;
            }
            continue;
        }
        let (a, b) = ((l - o[k]) * inv[k], (h - o[k]) * inv[k]);
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        near = near.max(a - 1e-9 * a.abs());
        far = far.min(b + 1e-9 * b.abs());
    }
    (near <= far).then_some(near)
}

/// What a traversal wants of each crossing.
enum Want<'a> {
    /// The nearest in range (prunes by it).
    First(&'a mut Option<RayHit>),
    /// Any in range (stops at it).
    Any(&'a mut bool),
    /// Every one in range.
    All(&'a mut Vec<RayHit>),
}

/// Walks the tree along the ray, handing each crossing in range to `want`.
fn walk(tree: &AabbTree, ray: &Ray, mut want: Want<'_>) {
    let Some(sheared) = ShearedRay::new(ray.origin, ray.direction) else {
        return;
    };
    if tree.nodes.is_empty() || ray.t_min.is_nan() || ray.t_max.is_nan() || ray.t_min > ray.t_max {
        return;
    }
    let inv = ray.direction.map(|d| 1.0 / d);
    let o = ray.origin;
    let mut stack: Vec<u32> = Vec::with_capacity(64);
    stack.push(0);
    while let Some(i) = stack.pop() {
        let t_max = match &want {
            Want::First(Some(h)) => h.t,
            _ => ray.t_max,
        };
        let node = &tree.nodes[i as usize];
        if box_range(&o, &inv, &node.bx, ray.t_min, t_max).is_none() {
            continue;
        }
        if !node.is_leaf() {
            let (a, b) = (i + 1, node.right);
            let ta = box_range(&o, &inv, &tree.nodes[a as usize].bx, ray.t_min, t_max);
            let tb = box_range(&o, &inv, &tree.nodes[b as usize].bx, ray.t_min, t_max);
            // The nearer child is searched first (pushed last).
            match (ta, tb) {
                (Some(x), Some(y)) if x <= y => stack.extend([b, a]),
                (Some(_), Some(_)) => stack.extend([a, b]),
                (Some(_), None) => stack.push(a),
                (None, Some(_)) => stack.push(b),
                (None, None) => {}
            }
            continue;
        }
        for k in node.start..node.start + node.count {
            let t = match &want {
                Want::First(Some(h)) => h.t,
                _ => ray.t_max,
            };
            if box_range(&o, &inv, &tree.boxes[k as usize], ray.t_min, t).is_none() {
                continue;
            }
            let corners = tree.corners(k as usize);
            let Some(c) = intersect_ray_triangle(&sheared, &corners) else {
                continue;
            };
            if !(ray.t_min <= c.t && c.t <= t) {
                continue;
            }
            let hit = || RayHit {
                t: c.t,
                triangle: tree.original[k as usize],
                barycentric: c.barycentric,
                normal: (corners[1] - corners[0])
                    .cross(&(corners[2] - corners[0]))
                    .normalize(),
                sign: c.sign,
            };
            match &mut want {
                Want::First(best) => {
                    // Ties go to the lower triangle index, whatever the
                    // order of the walk.
                    let better = best
                        .as_ref()
                        .is_none_or(|b| c.t < b.t || (c.t == b.t && hit().triangle < b.triangle));
                    if better {
                        **best = Some(hit());
                    }
                }
                Want::Any(found) => {
                    **found = true;
                    return;
                }
                Want::All(out) => out.push(hit()),
            }
        }
    }
}

/// The first hit of the ray (least `t` in range; of equal `t`, the lowest
/// triangle index), or `None`.
pub fn first_hit(tree: &AabbTree, ray: &Ray) -> Option<RayHit> {
    let mut best = None;
    walk(tree, ray, Want::First(&mut best));
    best
}

/// Whether the ray hits anything in range (stops at the first hit found).
pub fn any_hit(tree: &AabbTree, ray: &Ray) -> bool {
    let mut found = false;
    walk(tree, ray, Want::Any(&mut found));
    found
}

/// Every hit in range, by `t` (then triangle index).
pub fn all_hits(tree: &AabbTree, ray: &Ray) -> Vec<RayHit> {
    let mut out = Vec::new();
    walk(tree, ray, Want::All(&mut out));
    out.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.triangle.cmp(&b.triangle)));
    out
}

/// The number of hits in range.
pub fn count_hits(tree: &AabbTree, ray: &Ray) -> usize {
    let mut out = Vec::new();
    walk(tree, ray, Want::All(&mut out));
    out.len()
}
