//! Fans: node pairs of the self-intersection descent whose triangles all
//! share one vertex, settled by the directions around that vertex.
//!
//! Every triangle of a fan — an n-gon triangulated from one corner, a cone's
//! apex, a UV sphere's pole, a cylinder's cap around its centre — holds the shared vertex `v` in its box, so
//! every node box of the fan holds `v`, no box test separates two of them
//! and the box descent alone meets all n²/2 pairs (a 10⁶-gon: 5·10¹¹).
//!
//! **The rule.** Two triangles with the corner `v` meet somewhere other
//! than `v` exactly when some direction from `v` points into both: their
//! intersection is convex and holds `v`, so a second common point `p` puts
//! the segment `vp` in both; conversely a direction `d` into both puts
//! `v + εd` in both for a small `ε`. The directions into a triangle
//! `(v, a, b)` are the great-circle arc between the unit vectors towards
//! `a` and `b`. So when the directions into each of two nodes' triangles
//! lie in a cap (axis `c`, half-angle `θ` below π/2, where a cap holds the
//! arc between any two of its points) and the caps are apart — the angle
//! between the axes exceeds `θ₁ + θ₂` — no triangle of one meets a triangle
//! of the other but at `v`, which the adjacency rules
//! ([`super::adjacency`]) do not count. Pairs that share an edge through
//! `v` share its direction, so their caps are never apart: they are always
//! tested.
//!
//! Two fans round different vertices whose boxes hold each other's
//! vertex (a closed cone's side, fanned from the apex, and its base, fanned
//! from the centre) are compared the same way from one fan's vertex `A`:
//! the other node's triangles lie in the right circular cone from its own
//! vertex `C` along its axis, of its half-angle and its reach (the farthest
//! corner from `C`), so inside the hull of `C` and a ball; seen from `A`
//! outside that hull, they lie within the arc from the direction of `C` to
//! the ball's centre widened by the ball's angular radius (when that makes
//! less than 1 rad), and the pair is dropped when the first node's cap is
//! apart from that widened arc.
//!
//! In a pair of leaves of one fan whose caps are not apart (neighbours
//! along the fan), each triangle's own cap (about the bisector of its two
//! directions) is compared with the other's before the exact test: in a
//! flat fan those tests are the slow coplanar ones, and all but the pair
//! on the leaves' common ray are dropped.
//!
//! **The caps.** Per node, `v` is the smallest welded vertex id common to
//! all its triangles and corner of more than 32 triangles of the mesh (none
//! when there is none: around a vertex of fewer triangles the plain descent
//! meets at most 496 pairs). A leaf's cap has the
//! normalised sum of its directions as axis and the largest angle to them
//! as half-angle; a node whose children share its vertex takes the smallest
//! cap about the great circle through their axes that holds both, with the
//! half-angle measured again from the new axis (so it holds both children's
//! caps whatever the axis' own rounding); any other node is measured from
//! its triangles. Nodes whose half-angle would reach 1.5 rad, or with a
//! direction that is zero or overflows, get no cap.
//!
//! **Rounding.** A direction is `(p − v)` (each component to half an ulp)
//! scaled by its largest component and normalised, a few units of rounding
//! in angle; each angle is `atan2(|a × b|, a · b)`, accurate to a few
//! units at any angle; a node's half-angle adds one such angle to its
//! child's, so through the deepest tree (under 100 levels: 63 bits of
//! Morton code, then halving runs of equal codes) a cap is short of the
//! true one by less than 10⁻¹³ rad. Caps count as apart only by more than
//! [`MARGIN`], 10⁻⁹ rad: a dropped pair is one the exact tests would reject.
//! Directions that far apart are at least 10⁻⁹ × the distance from `v`
//! apart, so a fan of up to about 10⁸ triangles is separated.

use crate::tree::{AABB_LEAF_SIZE, AabbNode, AabbTree};
use nalgebra::{Point3, Vector3};

/// Caps count as apart only when the angle between their axes exceeds the
/// sum of their half-angles by this much (radians).
pub(crate) const MARGIN: f64 = 1e-9;

/// Caps wider than this get none (below π/2, where a cap stops holding the
/// arcs between its points).
const WIDEST: f64 = 1.5;

/// Vertices of at most this many triangles are no fan's: the plain descent
/// meets at most 496 pairs of their triangles, and the caps would cost an
/// ordinary mesh's search more than they save (12 % of Nefertiti's).
const FAN_MIN: u32 = 32;

/// The vertex id of a node with no vertex common to its triangles, or
/// with a direction that is zero or overflows.
const NONE: u32 = u32::MAX;

/// A cap on the unit sphere: the directions within `half_angle` of `axis`;
/// an infinite half-angle for directions too wide for one cap.
#[derive(Clone, Copy, Debug)]
struct Cap {
    axis: Vector3<f64>,
    half_angle: f64,
}

impl Cap {
    /// Directions too wide for one cap: apart from nothing.
    const WIDE: Cap = Cap {
        axis: Vector3::new(0.0, 0.0, 0.0),
        half_angle: f64::INFINITY,
    };

    /// Whether the caps are apart by more than [`MARGIN`] (never, for a
    /// wide one).
    #[inline]
    fn apart(&self, o: &Cap) -> bool {
        angle(&self.axis, &o.axis) > self.half_angle + o.half_angle + MARGIN
    }
}

/// Per node of an [`AabbTree`], its fan vertex and the cap of the
/// directions from it into the node's triangles.
pub(crate) struct FanCones<'a> {
    tree: &'a AabbTree,
    /// The vertex (welded id) every triangle of the node has as a corner,
    /// [`NONE`] when there is none.
    vertex: Vec<u32>,
    /// The cap, meaningful where `vertex` is not [`NONE`].
    caps: Vec<Cap>,
    /// The largest distance from the vertex to a corner of the node's
    /// triangles, rounded up.
    reach: Vec<f64>,
}

impl<'a> FanCones<'a> {
    /// The caps of every node of `tree`, children before parents (the
    /// nodes are depth-first, each child after its parent). Time: linear in
    /// the triangles, but for a node whose children's vertices differ from
    /// its own, measured from its triangles. Memory: 36 bytes a node.
    pub(crate) fn new(tree: &'a AabbTree) -> FanCones<'a> {
        let n = tree.nodes.len();
        let mut valence = vec![0u32; tree.vertices.len()];
        for &v in tree.triangles.iter().flatten() {
            valence[v as usize] += 1;
        }
        let mut common = vec![[NONE; 3]; n];
        let mut vertex = vec![NONE; n];
        let mut caps = vec![Cap::WIDE; n];
        let mut reach = vec![0.0f64; n];
        for i in (0..n).rev() {
            let node = &tree.nodes[i];
            let range = node.start as usize..(node.start + node.count) as usize;
            let (left, right) = (i + 1, node.right as usize);
            common[i] = if node.is_leaf() {
                shared_corners(&tree.triangles[range.clone()], |v| {
                    valence[v as usize] > FAN_MIN
                })
            } else {
                intersection(&common[left], &common[right])
            };
            let v = common[i][0];
            if v == NONE {
                continue;
            }
            let (cap, far) = if !node.is_leaf() && vertex[left] == v && vertex[right] == v {
                (
                    Some(merged(&caps[left], &caps[right])),
                    reach[left].max(reach[right]),
                )
            } else {
                (measured(tree, v, range.clone()), farthest(tree, v, range))
            };
            if let Some(cap) = cap {
                (vertex[i], caps[i], reach[i]) = (v, cap, far);
            }
        }
        FanCones {
            tree,
            vertex,
            caps,
            reach,
        }
    }

    /// Whether no triangle of node `i` meets one of node `j` but at a fan
    /// vertex, by the directions around it: the two nodes share a fan
    /// vertex and their caps are apart by more than [`MARGIN`], or one is
    /// seen from the other's fan vertex apart from its cap
    /// ([`FanCones::seen_apart`]), or one is a leaf whose every triangle is
    /// apart from the other, an inner node of a fan
    /// ([`FanCones::leaf_apart`]).
    #[inline]
    pub(crate) fn apart(&self, i: u32, j: u32) -> bool {
        let (i, j) = (i as usize, j as usize);
        let (v, w) = (self.vertex[i], self.vertex[j]);
        (v != NONE && v == w && self.caps[i].apart(&self.caps[j]))
            || (w != NONE && (self.seen_apart(i, j) || self.leaf_apart(i, j)))
            || (v != NONE && (self.seen_apart(j, i) || self.leaf_apart(j, i)))
    }

    /// Whether node `i`'s triangles, seen from node `j`'s fan vertex `A`,
    /// lie in directions apart from `j`'s cap, so that no point of them is
    /// on a ray from `A` into `j`'s triangles: a fan against another fan
    /// whose boxes hold each other's vertex (a closed cone's side, fanned
    /// from the apex, against its base, fanned from the centre).
    ///
    /// `i`'s triangles lie in the right circular cone from its own fan
    /// vertex `C` along its cap's axis `u`, half-angle `θ`, height `r` (its
    /// reach): the hull of `C` and the ball about `X = C + r·u` of radius
    /// `ρ = r·tan θ`. When `A` lies outside that cone's hull (its direction
    /// from `C` is farther from `u` than `asin(ρ / r)`), the directions
    /// from `A` into it are the spherical hull of the direction to `C` and
    /// the cap of the ball, which lies within the arc from the first to the
    /// ball's centre widened by the ball's angular radius (when the two
    /// make less than 1 rad). The caps are apart when `j`'s axis is farther
    /// from that arc than both half-angles and [`MARGIN`].
    fn seen_apart(&self, i: usize, j: usize) -> bool {
        let (v, w) = (self.vertex[i], self.vertex[j]);
        let (own, cap) = (&self.caps[i], &self.caps[j]);
        if v == NONE || v == w || own.half_angle.is_infinite() || cap.half_angle.is_infinite() {
            return false;
        }
        let (c, a) = (
            &self.tree.vertices[v as usize],
            &self.tree.vertices[w as usize],
        );
        let r = self.reach[i];
        // Rounded up by far more than the rounding of `r`, the axis and
        // the tangent.
        let rho = r * own.half_angle.tan() * (1.0 + 1e-9) + r * 1e-12;
        let x = c + own.axis * r;
        let (Some(from_c), Some(to_c), Some(to_x)) =
            (direction(c, a), direction(a, c), direction(a, &x))
        else {
            return false;
        };
        let ax = (x - a).norm();
        if !(rho < r && rho < ax && ax.is_finite()) {
            return false;
        }
        let widened = (rho / ax).asin();
        // Within 1 rad, the widened arc holds the hull (a geodesic from
        // the arc's start to a point of the ball's cap strays from the
        // arc's great circle by no more than its end does when it is
        // shorter than π/2; longer ones stray farther).
        angle(&to_c, &to_x) + widened < 1.0
            && angle(&from_c, &own.axis) > (rho / r).asin() + MARGIN
            && from_arc(&cap.axis, &to_c, &to_x) > cap.half_angle + widened + MARGIN
    }

    /// Whether node `i` is a leaf and node `j` an inner node with a fan
    /// vertex and a cap, and each triangle of the leaf has its box apart
    /// from `j`'s or has the fan vertex as a corner and its cap around it
    /// apart from `j`'s. This settles the leaves that hold triangles of two
    /// fans or of both ends of one (no common vertex, or no one cap): their
    /// boxes meet every node of the fan, whose boxes all hold its vertex.
    fn leaf_apart(&self, i: usize, j: usize) -> bool {
        let (leaf, node) = (&self.tree.nodes[i], &self.tree.nodes[j]);
        let (v, cap) = (self.vertex[j], &self.caps[j]);
        let start = leaf.start as usize;
        leaf.is_leaf()
            && !node.is_leaf()
            && cap.half_angle.is_finite()
            && (start..start + leaf.count as usize).all(|k| {
                !self.tree.boxes[k].overlaps(&node.bx)
                    || (self.tree.triangles[k].contains(&v)
                        && triangle_cap(self.tree, v, k).is_some_and(|c| c.apart(cap)))
            })
    }

    /// The caps of each triangle of leaf `i` around its fan vertex, when
    /// it has one, the node `j` it is paired with shares it, and it has at
    /// most [`AABB_LEAF_SIZE`] triangles.
    pub(crate) fn leaf_caps(&self, i: u32, j: u32) -> Option<LeafCaps> {
        let v = self.vertex[i as usize];
        let AabbNode { start, count, .. } = self.tree.nodes[i as usize];
        if v == NONE || v != self.vertex[j as usize] || count as usize > AABB_LEAF_SIZE {
            return None;
        }
        let mut caps = [None; AABB_LEAF_SIZE];
        for (cap, k) in caps.iter_mut().zip(start as usize..).take(count as usize) {
            *cap = triangle_cap(self.tree, v, k);
        }
        Some(LeafCaps { start, caps })
    }
}

/// The caps of a leaf's triangles around the fan vertex
/// ([`FanCones::leaf_caps`]).
pub(crate) struct LeafCaps {
    /// The leaf's first triangle slot.
    start: u32,
    /// Per triangle, its cap (none when a direction overflows).
    caps: [Option<Cap>; AABB_LEAF_SIZE],
}

impl LeafCaps {
    /// Whether triangle slots `k` of this leaf and `l` of `other` have
    /// caps apart: then they meet only at the fan vertex.
    #[inline]
    pub(crate) fn apart(&self, k: usize, other: &LeafCaps, l: usize) -> bool {
        let a = &self.caps[k - self.start as usize];
        let b = &other.caps[l - other.start as usize];
        matches!((a, b), (Some(a), Some(b)) if a.apart(b))
    }
}

/// The welded ids `fan` accepts that every triangle of `triangles` has as
/// a corner, ascending, padded with [`NONE`].
fn shared_corners(triangles: &[[u32; 3]], fan: impl Fn(u32) -> bool) -> [u32; 3] {
    let mut first = triangles[0];
    first.sort_unstable();
    let mut out = [NONE; 3];
    let mut k = 0;
    for v in first {
        if (k == 0 || out[k - 1] != v) && fan(v) && triangles[1..].iter().all(|t| t.contains(&v)) {
            out[k] = v;
            k += 1;
        }
    }
    out
}

/// The ids in both ascending, [`NONE`]-padded lists, likewise.
fn intersection(a: &[u32; 3], b: &[u32; 3]) -> [u32; 3] {
    let mut out = [NONE; 3];
    for (slot, &v) in out
        .iter_mut()
        .zip(a.iter().filter(|&&v| v != NONE && b.contains(&v)))
    {
        *slot = v;
    }
    out
}

/// The angle between two unit vectors, accurate at any angle.
#[inline]
fn angle(a: &Vector3<f64>, b: &Vector3<f64>) -> f64 {
    a.cross(b).norm().atan2(a.dot(b))
}

/// The unit vector from `from` towards `to`; `None` when they are equal or
/// the difference overflows. Scaled by its largest component first, so
/// differences of 10⁻³⁰⁰ normalise as well as those of 1.
fn direction(from: &Point3<f64>, to: &Point3<f64>) -> Option<Vector3<f64>> {
    let d = to - from;
    let m = d.amax();
    if !(m > 0.0 && m.is_finite()) {
        return None;
    }
    let d = d / m;
    Some(d / d.norm())
}

/// The cap of the directions from vertex `v` into the triangles of slots
/// `range` (each has `v` as a corner): the normalised sum as axis, the
/// widest angle to it as half-angle; [`Cap::WIDE`] past [`WIDEST`] or when
/// the directions sum to zero, and none when a direction is zero or
/// overflows.
fn measured(tree: &AabbTree, v: u32, range: std::ops::Range<usize>) -> Option<Cap> {
    let apex = &tree.vertices[v as usize];
    let mut directions = Vec::with_capacity(2 * range.len());
    for t in &tree.triangles[range] {
        for &c in t.iter().filter(|&&c| c != v) {
            directions.push(direction(apex, &tree.vertices[c as usize])?);
        }
    }
    Some(cap_of(&directions))
}

/// [`measured`] of the one triangle in slot `k`, with no heap buffer: the
/// leaf tests ask it per triangle.
fn triangle_cap(tree: &AabbTree, v: u32, k: usize) -> Option<Cap> {
    let apex = &tree.vertices[v as usize];
    let mut directions = [Vector3::zeros(); 3];
    let mut n = 0;
    for &c in tree.triangles[k].iter().filter(|&&c| c != v) {
        directions[n] = direction(apex, &tree.vertices[c as usize])?;
        n += 1;
    }
    Some(cap_of(&directions[..n]))
}

/// The cap of unit `directions`: their normalised sum as axis, the widest
/// angle to it as half-angle; [`Cap::WIDE`] past [`WIDEST`] or when they
/// sum to zero.
fn cap_of(directions: &[Vector3<f64>]) -> Cap {
    let sum: Vector3<f64> = directions.iter().sum();
    let Some(axis) = direction(&Point3::origin(), &Point3::from(sum)) else {
        return Cap::WIDE;
    };
    let half_angle = directions
        .iter()
        .map(|d| angle(&axis, d))
        .fold(0.0, f64::max);
    if half_angle < WIDEST {
        Cap { axis, half_angle }
    } else {
        Cap::WIDE
    }
}

/// The largest distance from vertex `v` to a corner of the triangles of
/// slots `range`, rounded up (by far more than the norm's rounding).
fn farthest(tree: &AabbTree, v: u32, range: std::ops::Range<usize>) -> f64 {
    let apex = &tree.vertices[v as usize];
    let far = tree.triangles[range]
        .iter()
        .flatten()
        .map(|&c| (tree.vertices[c as usize] - apex).norm())
        .fold(0.0, f64::max);
    far * (1.0 + 1e-12)
}

/// The angle from unit `p` to the shorter great-circle arc between unit
/// `s` and `e`: to the foot on the arc's circle when it falls between
/// them, else to the nearer end.
fn from_arc(p: &Vector3<f64>, s: &Vector3<f64>, e: &Vector3<f64>) -> f64 {
    let ends = angle(p, s).min(angle(p, e));
    let Some(n) = direction(&Point3::origin(), &Point3::from(s.cross(e))) else {
        return ends;
    };
    let foot = p - n * p.dot(&n);
    if s.cross(&foot).dot(&n) >= 0.0 && foot.cross(e).dot(&n) >= 0.0 {
        p.dot(&n).abs().min(1.0).asin()
    } else {
        ends
    }
}

/// A cap holding caps `a` and `b`: one of them when it holds the other,
/// else the smallest about the great circle through both axes, its
/// half-angle measured again from the rounded axis; [`Cap::WIDE`] past
/// [`WIDEST`].
fn merged(a: &Cap, b: &Cap) -> Cap {
    if a.half_angle.is_infinite() || b.half_angle.is_infinite() {
        return Cap::WIDE;
    }
    let phi = angle(&a.axis, &b.axis);
    if phi + b.half_angle <= a.half_angle {
        return *a;
    }
    if phi + a.half_angle <= b.half_angle {
        return *b;
    }
    let wide = (phi + a.half_angle + b.half_angle) / 2.0;
    // Turn a's axis towards b's by `wide - a.half_angle`.
    let turned = || {
        let across = b.axis - a.axis * a.axis.dot(&b.axis);
        let across = direction(&Point3::origin(), &Point3::from(across))?;
        let turn = wide - a.half_angle;
        direction(
            &Point3::origin(),
            &Point3::from(a.axis * turn.cos() + across * turn.sin()),
        )
    };
    match turned() {
        Some(axis) if wide < WIDEST => {
            let half_angle =
                (angle(&axis, &a.axis) + a.half_angle).max(angle(&axis, &b.axis) + b.half_angle);
            if half_angle < WIDEST {
                Cap { axis, half_angle }
            } else {
                Cap::WIDE
            }
        }
        _ => Cap::WIDE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cap(x: f64, y: f64, half_angle: f64) -> Cap {
        Cap {
            axis: Vector3::new(x, y, 0.0).normalize(),
            half_angle,
        }
    }

    #[test]
    fn a_merged_cap_holds_both() {
        // Caps on the equator at longitudes 0 and 1 rad, half-angles 0.1 and
        // 0.3: the merged cap spans −0.1 … 1.3, so half-angle 0.7 about 0.6.
        let (a, b) = (cap(1.0, 0.0, 0.1), cap(1f64.cos(), 1f64.sin(), 0.3));
        let m = merged(&a, &b);
        assert!((m.half_angle - 0.7).abs() < 1e-12, "{m:?}");
        assert!((m.axis.y.atan2(m.axis.x) - 0.6).abs() < 1e-12, "{m:?}");
        // One inside the other gives the outer one.
        let inner = cap(1.0, 0.05, 0.01);
        assert_eq!(merged(&a, &inner).half_angle, 0.1);
        assert_eq!(merged(&inner, &a).half_angle, 0.1);
        // Too wide for one cap, and a wide one merged.
        let wide = merged(&cap(1.0, 0.0, 0.5), &cap(-1.0, 0.1, 0.5));
        assert!(wide.half_angle.is_infinite());
        assert!(merged(&a, &wide).half_angle.is_infinite());
        assert!(!wide.apart(&a) && !a.apart(&wide));
    }

    #[test]
    fn angles_to_an_arc() {
        // The arc from longitude 0 to 1 rad on the equator.
        let (s, e) = (Vector3::x(), Vector3::new(1f64.cos(), 1f64.sin(), 0.0));
        let at = |lon: f64, lat: f64| {
            Vector3::new(lat.cos() * lon.cos(), lat.cos() * lon.sin(), lat.sin())
        };
        assert!((from_arc(&at(0.5, 0.0), &s, &e)).abs() < 1e-15);
        assert!((from_arc(&at(0.5, 0.3), &s, &e) - 0.3).abs() < 1e-15);
        assert!((from_arc(&Vector3::z(), &s, &e) - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
        // Beyond an end: the angle to that end.
        assert!((from_arc(&at(1.4, 0.0), &s, &e) - 0.4).abs() < 1e-15);
        assert!((from_arc(&at(-0.2, 0.1), &s, &e) - angle(&at(-0.2, 0.1), &s)).abs() < 1e-15);
    }

    #[test]
    fn directions_of_tiny_and_huge_differences() {
        let o = Point3::new(1e-300, 0.0, 0.0);
        let d = direction(&o, &Point3::new(1e-300, 3e-310, 4e-310)).unwrap();
        assert!((d - Vector3::new(0.0, 0.6, 0.8)).norm() < 1e-15, "{d}");
        assert!(direction(&o, &o).is_none());
        let far = direction(
            &Point3::new(-1e308, 0.0, 0.0),
            &Point3::new(1e308, 0.0, 0.0),
        );
        assert!(far.is_none(), "overflow");
    }

    #[test]
    fn shared_corners_and_their_intersection() {
        let all = |_| true;
        assert_eq!(shared_corners(&[[5, 1, 9]], all), [1, 5, 9]);
        assert_eq!(shared_corners(&[[5, 1, 9], [9, 2, 5]], all), [5, 9, NONE]);
        assert_eq!(
            shared_corners(&[[5, 1, 9], [9, 2, 5]], |v| v != 5),
            [9, NONE, NONE]
        );
        assert_eq!(
            shared_corners(&[[5, 1, 9], [9, 2, 3]], all),
            [9, NONE, NONE]
        );
        assert_eq!(
            shared_corners(&[[5, 5, 9], [5, 2, 3]], all),
            [5, NONE, NONE]
        );
        assert_eq!(shared_corners(&[[1, 2, 3], [4, 5, 6]], all), [NONE; 3]);
        assert_eq!(intersection(&[1, 5, 9], &[5, 9, NONE]), [5, 9, NONE]);
        assert_eq!(intersection(&[1, NONE, NONE], &[5, 9, NONE]), [NONE; 3]);
    }
}
