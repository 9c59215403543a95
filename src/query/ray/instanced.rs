//! Rays on a scene of instances without flattening it: each distinct
//! geometry's AABB tree is built once and shared by every instance that
//! places it (as `clash` shares OBB trees), a tree over the instances'
//! world boxes finds the instances a ray may meet, and the ray enters each
//! one through the inverse of its placement.
//!
//! Answers are those of the flattened scene ([`crate::mesh::Scene::flatten`]):
//! `t` along the world ray (an affine map keeps `t`), the triangle as its
//! index in the flattened mesh, barycentric coordinates and the geometric
//! normal of the flattened (mirror-corrected) triangle, and the same
//! tie-break. Within an instance the test is watertight as
//! [`super::first_hit`]'s is; across instances it is decided in each
//! instance's own frame, so a ray exactly through a seam where two
//! instances' world triangles share an edge may meet both or neither,
//! where the flattened mesh (whose corners coincide after the transform)
//! meets one: use the flattened scene where seams between instances must
//! be watertight. Memory: one tree per distinct geometry plus 200 bytes an
//! instance.

use super::{Ray, RayHit, all_hits, any_hit, first_hit};
use crate::mesh::{Geometry, Scene, TriMesh, TriangleSource};
use crate::tree::AabbTree;
use nalgebra::{Matrix4, Point3, Vector3};
use std::collections::HashMap;
use std::sync::Arc;

/// One instance: which tree, where, and its triangles' place in the
/// flattened mesh.
#[derive(Clone, Debug)]
struct Placed {
    tree: u32,
    to_world: Matrix4<f64>,
    to_local: Matrix4<f64>,
    mirrored: bool,
    first: u32,
    lo: Point3<f64>,
    hi: Point3<f64>,
}

/// A node of the tree over the instances: a box and either two children
/// (`left` is the next node) or a run of `order`.
#[derive(Clone, Debug)]
struct Node {
    lo: Point3<f64>,
    hi: Point3<f64>,
    right: u32,
    start: u32,
    count: u32,
}

/// At most this many instances in a leaf of the tree over instances.
const LEAF: usize = 4;

/// A scene's instances ready for rays (see the module).
#[derive(Clone, Debug)]
pub struct InstancedRays {
    trees: Vec<(Arc<Geometry>, AabbTree)>,
    placed: Vec<Placed>,
    order: Vec<u32>,
    nodes: Vec<Node>,
}

impl InstancedRays {
    /// The trees of `scene`'s distinct geometries and the tree over its
    /// instances (instances without triangles, or whose transform cannot be
    /// inverted, take no part: the flattened mesh has no triangle of theirs
    /// that a ray could meet, or only degenerate ones).
    pub fn build(scene: &Scene) -> InstancedRays {
        let mut index: HashMap<*const Geometry, u32> = HashMap::new();
        let mut trees: Vec<(Arc<Geometry>, AabbTree)> = Vec::new();
        let mut placed = Vec::new();
        let mut first = 0u32;
        for inst in &scene.instances {
            let g = &inst.geometry;
            let count = g.triangles.len() as u32;
            let start = first;
            first += count;
            let Some(to_local) = inst.transform.try_inverse() else {
                continue;
            };
            if count == 0 {
                continue;
            }
            let tree = *index.entry(Arc::as_ptr(g)).or_insert_with(|| {
                let mesh = TriMesh {
                    vertices: g.positions.clone(),
                    triangles: g.triangles.clone(),
                    sources: (0..count).map(|k| TriangleSource::unplaced(0, k)).collect(),
                };
                trees.push((g.clone(), AabbTree::build(&mesh)));
                trees.len() as u32 - 1
            });
            let root = &trees[tree as usize].1.nodes[0].bx;
            let (l, h) = (root.min.to_array(), root.max.to_array());
            let (mut lo, mut hi) = (
                Point3::from([f64::INFINITY; 3]),
                Point3::from([f64::NEG_INFINITY; 3]),
            );
            for c in 0..8 {
                let corner = Point3::new(
                    if c & 1 == 0 { l[0] } else { h[0] } as f64,
                    if c & 2 == 0 { l[1] } else { h[1] } as f64,
                    if c & 4 == 0 { l[2] } else { h[2] } as f64,
                );
                let w = inst.transform.transform_point(&corner);
                lo = lo.inf(&w);
                hi = hi.sup(&w);
            }
            placed.push(Placed {
                tree,
                to_world: inst.transform,
                to_local,
                mirrored: inst.is_mirrored(),
                first: start,
                lo,
                hi,
            });
        }
        let mut order: Vec<u32> = (0..placed.len() as u32).collect();
        let mut nodes = Vec::new();
        if !placed.is_empty() {
            build_nodes(&placed, &mut order, 0, &mut nodes);
        }
        InstancedRays {
            trees,
            placed,
            order,
            nodes,
        }
    }

    /// The number of distinct trees (one per geometry with triangles).
    pub fn tree_count(&self) -> usize {
        self.trees.len()
    }

    /// The first hit of the world ray (least `t`; of equal `t`, the lowest
    /// flattened triangle index), or `None`.
    pub fn first_hit(&self, ray: &Ray) -> Option<RayHit> {
        let mut best: Option<RayHit> = None;
        self.walk(ray, |p, local| {
            let t_max = best.map_or(ray.t_max, |b| b.t);
            let r = Ray { t_max, ..*local };
            if let Some(h) = first_hit(&self.trees[p.tree as usize].1, &r) {
                let h = self.to_world(p, h);
                if best.is_none_or(|b| h.t < b.t || (h.t == b.t && h.triangle < b.triangle)) {
                    best = Some(h);
                }
            }
            false
        });
        best
    }

    /// Whether the world ray hits anything in range.
    pub fn any_hit(&self, ray: &Ray) -> bool {
        let mut found = false;
        self.walk(ray, |p, local| {
            found = any_hit(&self.trees[p.tree as usize].1, local);
            found
        });
        found
    }

    /// Every hit in range, by `t` (then flattened triangle index).
    pub fn all_hits(&self, ray: &Ray) -> Vec<RayHit> {
        let mut out = Vec::new();
        self.walk(ray, |p, local| {
            out.extend(
                all_hits(&self.trees[p.tree as usize].1, local)
                    .into_iter()
                    .map(|h| self.to_world(p, h)),
            );
            false
        });
        out.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.triangle.cmp(&b.triangle)));
        out
    }

    /// The number of hits in range.
    pub fn count_hits(&self, ray: &Ray) -> usize {
        let mut n = 0;
        self.walk(ray, |p, local| {
            n += all_hits(&self.trees[p.tree as usize].1, local).len();
            false
        });
        n
    }

    /// Hands each instance whose world box the ray meets (nearer first) to
    /// `visit` with the ray in its frame; stops when `visit` says so.
    fn walk(&self, ray: &Ray, mut visit: impl FnMut(&Placed, &Ray) -> bool) {
        if self.nodes.is_empty()
            || ray.t_min.is_nan()
            || ray.t_max.is_nan()
            || ray.t_min > ray.t_max
        {
            return;
        }
        let inv = ray.direction.map(|d| 1.0 / d);
        let mut stack = vec![0u32];
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if slab(&ray.origin, &inv, &n.lo, &n.hi, ray.t_min, ray.t_max).is_none() {
                continue;
            }
            if n.count == 0 {
                let (a, b) = (i + 1, n.right);
                let ta = self.entry(ray, &inv, a);
                let tb = self.entry(ray, &inv, b);
                match (ta, tb) {
                    (Some(x), Some(y)) if x <= y => stack.extend([b, a]),
                    (Some(_), Some(_)) => stack.extend([a, b]),
                    (Some(_), None) => stack.push(a),
                    (None, Some(_)) => stack.push(b),
                    (None, None) => {}
                }
                continue;
            }
            for &k in &self.order[n.start as usize..(n.start + n.count) as usize] {
                let p = &self.placed[k as usize];
                if slab(&ray.origin, &inv, &p.lo, &p.hi, ray.t_min, ray.t_max).is_none() {
                    continue;
                }
                let local = Ray {
                    origin: p.to_local.transform_point(&ray.origin),
                    direction: p.to_local.transform_vector(&ray.direction),
                    ..*ray
                };
                if visit(p, &local) {
                    return;
                }
            }
        }
    }

    fn entry(&self, ray: &Ray, inv: &Vector3<f64>, node: u32) -> Option<f64> {
        let n = &self.nodes[node as usize];
        slab(&ray.origin, inv, &n.lo, &n.hi, ray.t_min, ray.t_max)
    }

    /// A hit in an instance's frame as the flattened scene's: its
    /// triangle's index there, corners in the flattened (mirror-corrected)
    /// order, and the world normal.
    fn to_world(&self, p: &Placed, h: RayHit) -> RayHit {
        let g = &self.trees[p.tree as usize].0;
        let t = g.triangles[h.triangle as usize];
        let [a, b, c] = t.map(|i| p.to_world.transform_point(&g.positions[i as usize]));
        let (b, c, barycentric) = match p.mirrored {
            true => (c, b, [h.barycentric[0], h.barycentric[2], h.barycentric[1]]),
            false => (b, c, h.barycentric),
        };
        RayHit {
            t: h.t,
            triangle: p.first + h.triangle,
            barycentric,
            normal: (b - a).cross(&(c - a)).normalize(),
            sign: h.sign,
        }
    }
}

/// [`super::slab`] on a box of transformed corners, padded by `1e-9` of
/// its size and coordinates for their one rounding.
fn slab(
    o: &Point3<f64>,
    inv: &Vector3<f64>,
    lo: &Point3<f64>,
    hi: &Point3<f64>,
    t0: f64,
    t1: f64,
) -> Option<f64> {
    let pad = |k: usize| 1e-9 * (hi[k] - lo[k]).abs().max(lo[k].abs()).max(hi[k].abs());
    let lo = std::array::from_fn(|k| lo[k] - pad(k));
    let hi = std::array::from_fn(|k| hi[k] + pad(k));
    super::slab(o, inv, lo, hi, t0, t1)
}

/// Builds the subtree over `order[..]` (indices into `placed`) at
/// `offset` of the full order, splitting at the median of the box centres
/// along the longest axis of their spread.
fn build_nodes(placed: &[Placed], order: &mut [u32], offset: u32, nodes: &mut Vec<Node>) {
    let (mut lo, mut hi) = (
        Point3::from([f64::INFINITY; 3]),
        Point3::from([f64::NEG_INFINITY; 3]),
    );
    let (mut clo, mut chi) = (lo, hi);
    for &k in order.iter() {
        let p = &placed[k as usize];
        lo = lo.inf(&p.lo);
        hi = hi.sup(&p.hi);
        let c = nalgebra::center(&p.lo, &p.hi);
        clo = clo.inf(&c);
        chi = chi.sup(&c);
    }
    let me = nodes.len();
    nodes.push(Node {
        lo,
        hi,
        right: 0,
        start: offset,
        count: order.len() as u32,
    });
    if order.len() <= LEAF {
        return;
    }
    let axis = (chi - clo).imax();
    let mid = order.len() / 2;
    let key = |k: &u32| {
        let p = &placed[*k as usize];
        p.lo[axis] + p.hi[axis]
    };
    order.select_nth_unstable_by(mid, |a, b| key(a).total_cmp(&key(b)));
    let (left, right) = order.split_at_mut(mid);
    nodes[me].count = 0;
    build_nodes(placed, left, offset, nodes);
    nodes[me].right = nodes.len() as u32;
    build_nodes(placed, right, offset + mid as u32, nodes);
}
