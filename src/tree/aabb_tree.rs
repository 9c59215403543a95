//! The AABB tree: axis-aligned boxes over a mesh's triangles, for queries
//! that stay in the mesh's own frame (self-intersection), where an
//! axis-aligned box never turns and so needs no fitting.

use super::flat::{Linked, PARALLEL_MIN, append_children, node_bound};
use super::obb_tree::shared_vertices;
use super::radix;
use crate::fit::Aabb;
use crate::fit::f32_outward::{round_down, round_up};
use crate::mesh::TriMesh;
use crate::threads::{Stop, Stopped, unstopped};
use nalgebra::Point3;
use rayon::prelude::*;
use wide::f32x4;

/// Triangles per leaf of [`AabbTree::build`], chosen by measurement (see
/// [`crate::clash::self_intersections`]).
pub const AABB_LEAF_SIZE: usize = 8;

/// A conservative axis-aligned box in `f32` for the descent, 4 lanes
/// (x, y, z, padding) so that an overlap test is two vector comparisons: the
/// `f64` box rounded outwards, so it contains what that box contains (an
/// `f64` beyond the `f32` range rounds to ±`f32::MAX` or ±∞ on the outer
/// side).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(16))]
pub struct Box32 {
    /// The lowest corner, `(x, y, z, 0)`.
    pub min: f32x4,
    /// The highest corner, `(x, y, z, 0)`.
    pub max: f32x4,
}

impl Box32 {
    /// The empty box: the identity of [`Box32::union`], overlapping nothing.
    pub const EMPTY: Box32 = Box32 {
        min: f32x4::new([f32::INFINITY, f32::INFINITY, f32::INFINITY, 0.0]),
        max: f32x4::new([f32::NEG_INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY, 0.0]),
    };

    /// `b` rounded outwards.
    pub fn outward(b: &Aabb) -> Box32 {
        let (lo, hi) = (b.min.map(round_down), b.max.map(round_up));
        Box32 {
            min: f32x4::new([lo.x, lo.y, lo.z, 0.0]),
            max: f32x4::new([hi.x, hi.y, hi.z, 0.0]),
        }
    }

    /// The smallest box holding both.
    #[inline]
    pub fn union(&self, o: &Box32) -> Box32 {
        Box32 {
            min: self.min.fast_min(o.min),
            max: self.max.fast_max(o.max),
        }
    }

    /// Whether the two closed boxes share a point (touching counts).
    #[inline]
    pub fn overlaps(&self, o: &Box32) -> bool {
        // Lanes where one box ends before the other begins; the padding
        // lanes are 0 ≤ 0 in both, so never set.
        (self.max.simd_lt(o.min) | o.max.simd_lt(self.min)).to_bitmask() == 0
    }
}

/// One node: the box of its triangles and the contiguous range of
/// (permuted) triangles it covers. Its first child is the next node; the
/// second is at `right`; a leaf has `right == 0`.
#[derive(Clone, Copy, Debug)]
pub struct AabbNode {
    /// The box of the node's triangle corners (rounded outwards).
    pub bx: Box32,
    /// First triangle (index into [`AabbTree::triangles`]).
    pub start: u32,
    /// Number of triangles.
    pub count: u32,
    /// Index of the second child; 0 for a leaf.
    pub right: u32,
}

impl Linked for AabbNode {
    fn set_right(&mut self, right: u32) {
        self.right = right;
    }

    fn shift_right(&mut self, base: u32) {
        if self.right != 0 {
            self.right += base;
        }
    }
}

impl AabbNode {
    /// Whether the node is a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.right == 0
    }
}

/// A tree of axis-aligned boxes over a triangle mesh, built as a linear BVH
/// (Lauterbach et al. 2009; Karras 2012).
///
/// The triangles are sorted by the Morton code of their box centres (21
/// bits per axis in the mesh's bounding box), and a node over a run of
/// codes splits where their highest differing bit changes — so each child
/// is a cell of an octree-like subdivision, spatially compact — or in the
/// middle of a run of equal codes, until it holds at most `leaf_size`
/// triangles. Nothing is fitted and nothing is partitioned per level: one
/// radix sort and one pass that splits the sorted codes (subtrees on all
/// threads, the vertex weld beside them), a fraction of an
/// [`super::ObbTree`]'s build. Measured against splitting each node at the
/// median of its longest axis (same sitting, `clash --self`'s query): as
/// fast on the 69k bunny and Nefertiti and 25 % faster on the samurai
/// monastery, whose large overlapping triangles the median mixes. Boxes are
/// `f32`, rounded outwards ([`Box32`]): conservative, so a box test that
/// fails proves two triangles apart, and the exact tests decide the rest.
/// The geometry is held as in the OBB tree: the mesh's welded vertices
/// (equal coordinates are one vertex), numbered in order of first use, and
/// three indices a triangle.
#[derive(Clone, Debug)]
pub struct AabbTree {
    /// The nodes, root first, depth-first.
    pub nodes: Vec<AabbNode>,
    /// Each triangle's box, in node order (rounded outwards).
    pub boxes: Vec<Box32>,
    /// The welded vertices, in order of first use by [`AabbTree::triangles`].
    pub vertices: Vec<Point3<f64>>,
    /// The triangles in node order, as indices into [`AabbTree::vertices`]
    /// (equal positions, one index; corner order as in the mesh).
    pub triangles: Vec<[u32; 3]>,
    /// `original[k]` is the index in the input mesh of `triangles[k]`.
    pub original: Vec<u32>,
}

impl AabbTree {
    /// Builds the tree with [`AABB_LEAF_SIZE`].
    pub fn build(mesh: &TriMesh) -> AabbTree {
        AabbTree::build_with_leaf_size(mesh, AABB_LEAF_SIZE)
    }

    /// Builds the tree with at most `leaf_size` (≥ 1) triangles per leaf;
    /// large subtrees are built in parallel (rayon). An empty mesh gives an
    /// empty tree (no nodes).
    pub fn build_with_leaf_size(mesh: &TriMesh, leaf_size: usize) -> AabbTree {
        unstopped(|stop| AabbTree::build_with_leaf_size_until(mesh, leaf_size, stop))
    }

    /// [`AabbTree::build`], giving up with [`Stopped`] (and no tree) when
    /// `stop` is set ([`AabbTree::build_with_leaf_size_until`]).
    pub fn build_until(mesh: &TriMesh, stop: Stop<'_>) -> Result<AabbTree, Stopped> {
        AabbTree::build_with_leaf_size_until(mesh, AABB_LEAF_SIZE, stop)
    }

    /// [`AabbTree::build_with_leaf_size`], giving up with [`Stopped`] (and
    /// no tree) when `stop` is set: checked between the passes over all
    /// triangles and at every node of 4,096 triangles or more. Never
    /// stopped, the tree is [`AabbTree::build_with_leaf_size`]'s.
    pub fn build_with_leaf_size_until(
        mesh: &TriMesh,
        leaf_size: usize,
        stop: Stop<'_>,
    ) -> Result<AabbTree, Stopped> {
        let leaf_size = leaf_size.max(1);
        // Each triangle's box is found again where it is needed (the total,
        // its code, its `Box32` in node order) rather than kept: a pass over
        // the corners costs less than fresh memory for a box per triangle.
        let bounds = |i: usize| Aabb::from_points(mesh.triangle(i)).expect("three corners");
        let triangles = 0..mesh.triangles.len();
        let Some(total) = triangles
            .clone()
            .into_par_iter()
            .map(bounds)
            .reduce_with(|a, b| a.union(&b))
        else {
            return Ok(AabbTree {
                nodes: Vec::new(),
                boxes: Vec::new(),
                vertices: Vec::new(),
                triangles: Vec::new(),
                original: Vec::new(),
            });
        };
        stop.check()?;
        let mut codes: Vec<(u64, u32)> = triangles
            .into_par_iter()
            .map(|i| (morton(&bounds(i), &total), i as u32))
            .collect();
        stop.check()?;
        radix::sort_by_key(&mut codes, |c| c.0);
        stop.check()?;
        let original: Vec<u32> = codes.par_iter().map(|c| c.1).collect();
        let keys: Vec<u64> = codes.par_iter().map(|c| c.0).collect();
        drop(codes);
        // Welding and numbering the vertices is one sequential pass: it runs
        // beside the boxes (again, now in node order) and the nodes, which
        // do not need it and share out between threads.
        let (shared, (boxes, nodes)) = rayon::join(
            || shared_vertices(mesh, &original, stop),
            || {
                let boxes: Vec<Box32> = original
                    .par_iter()
                    .map(|&o| Box32::outward(&bounds(o as usize)))
                    .collect();
                let mut nodes = Vec::with_capacity(node_bound(boxes.len()));
                let build = Build { leaf_size, stop };
                build_subtree(&build, &boxes, &keys, 0, &mut nodes);
                nodes.shrink_to_fit();
                (boxes, nodes)
            },
        );
        let (vertices, triangles) = shared?;
        // A stopped recursion left subtrees out: nothing of it is kept.
        stop.check()?;
        Ok(AabbTree {
            nodes,
            boxes,
            vertices,
            triangles,
            original,
        })
    }

    /// The corners of the triangle in slot `k` (node order).
    #[inline]
    pub fn corners(&self, k: usize) -> [Point3<f64>; 3] {
        self.triangles[k].map(|i| self.vertices[i as usize])
    }
}

/// The Morton code of a box's centre within `total`: 21 bits per axis,
/// interleaved.
fn morton(b: &Aabb, total: &Aabb) -> u64 {
    let spread = |mut v: u64| {
        v &= 0x1f_ffff;
        v = (v | v << 32) & 0x1f_0000_0000_ffff;
        v = (v | v << 16) & 0x1f_0000_ff00_00ff;
        v = (v | v << 8) & 0x100f_00f0_0f00_f00f;
        v = (v | v << 4) & 0x10c3_0c30_c30c_30c3;
        (v | v << 2) & 0x1249_2492_4924_9249
    };
    let q = |k: usize| {
        let (lo, hi) = (total.min[k], total.max[k]);
        let c = 0.5 * (b.min[k] + b.max[k]);
        let t = if hi > lo { (c - lo) / (hi - lo) } else { 0.0 };
        (t * 2_097_151.0).clamp(0.0, 2_097_151.0) as u64
    };
    spread(q(0)) << 2 | spread(q(1)) << 1 | spread(q(2))
}

/// Appends to `out` the subtree over `boxes` (in Morton order, `keys`
/// their codes) in depth-first order, with triangle ranges starting at
/// `start`. Large subtrees build their second half on another thread
/// ([`append_children`]). Once the build's stop flag is set, a subtree
/// of [`PARALLEL_MIN`] triangles or more is left as its root alone, a leaf
/// in name only (the caller then drops the whole tree).
fn build_subtree(b: &Build, boxes: &[Box32], keys: &[u64], start: u32, out: &mut Vec<AabbNode>) {
    let n = boxes.len();
    let me = out.len();
    out.push(AabbNode {
        bx: Box32::EMPTY,
        start,
        count: n as u32,
        right: 0,
    });
    if n >= PARALLEL_MIN && b.stop.is_set() {
        return;
    }
    if n <= b.leaf_size {
        out[me].bx = boxes.iter().fold(Box32::EMPTY, |b, t| b.union(t));
        return;
    }
    let mid = split(keys);
    let (left, right) = boxes.split_at(mid);
    let (lk, rk) = keys.split_at(mid);
    let right_start = start + mid as u32;
    append_children(
        out,
        me,
        [mid, n - mid],
        |out| build_subtree(b, left, lk, start, out),
        |out| build_subtree(b, right, rk, right_start, out),
    );
    let r = out[me].right as usize;
    out[me].bx = out[me + 1].bx.union(&out[r].bx);
}

/// What every node of one build shares: the leaf size and the caller's
/// stop flag.
struct Build<'a> {
    leaf_size: usize,
    stop: Stop<'a>,
}

/// Where a run of sorted Morton codes splits: the first code with the
/// highest bit in which the run's first and last codes differ (the two
/// children are then two cells of the subdivision), or the middle of a run
/// of equal codes. Always in `1..len`.
fn split(keys: &[u64]) -> usize {
    let n = keys.len();
    let (first, last) = (keys[0], keys[n - 1]);
    if first == last {
        return n / 2;
    }
    let bit = 1u64 << (63 - (first ^ last).leading_zeros());
    keys.partition_point(|&k| k & bit == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::TriangleSource;

    /// A grid of `n × n` unit squares (two triangles each) in the plane z = 0,
    /// with every vertex split per triangle (a soup).
    fn soup_grid(n: u32) -> TriMesh {
        let mut m = TriMesh::default();
        for i in 0..n {
            for j in 0..n {
                let p = |a: u32, b: u32| Point3::new((i + a) as f64, (j + b) as f64, 0.0);
                for t in [[p(0, 0), p(1, 0), p(1, 1)], [p(0, 0), p(1, 1), p(0, 1)]] {
                    let base = m.vertices.len() as u32;
                    m.vertices.extend(t);
                    m.triangles.push([base, base + 1, base + 2]);
                    let k = m.sources.len() as u32;
                    m.sources.push(TriangleSource::unplaced(0, k));
                }
            }
        }
        m
    }

    #[test]
    fn every_box_holds_its_triangles_and_children() {
        // 2·80² = 12,800 triangles: above PARALLEL_MIN, so the parallel
        // build is exercised.
        let mesh = soup_grid(80);
        for leaf in [1, 4, 7] {
            let tree = AabbTree::build_with_leaf_size(&mesh, leaf);
            let mut seen = vec![false; mesh.triangles.len()];
            for (k, &o) in tree.original.iter().enumerate() {
                assert!(!std::mem::replace(&mut seen[o as usize], true));
                let t = mesh.triangle(o as usize);
                assert_eq!(tree.corners(k), t);
                assert_eq!(
                    tree.boxes[k],
                    Box32::outward(&Aabb::from_points(t).unwrap())
                );
            }
            assert!(seen.iter().all(|&s| s));
            // Welded: the grid's 81² positions, once each.
            assert_eq!(tree.vertices.len(), 81 * 81);
            for (i, n) in tree.nodes.iter().enumerate() {
                let range = n.start as usize..(n.start + n.count) as usize;
                let union = tree.boxes[range.clone()]
                    .iter()
                    .fold(Box32::EMPTY, |b, t| b.union(t));
                assert_eq!(n.bx, union, "node {i}");
                if n.is_leaf() {
                    assert!((1..=leaf).contains(&(n.count as usize)));
                } else {
                    let (l, r) = (&tree.nodes[i + 1], &tree.nodes[n.right as usize]);
                    assert_eq!(l.start, n.start);
                    assert_eq!(l.count + r.count, n.count);
                    assert_eq!(r.start, n.start + l.count);
                    assert!(l.count >= 1 && r.count >= 1);
                }
            }
            let leaves = tree.nodes.iter().filter(|n| n.is_leaf()).count();
            assert_eq!(tree.nodes.len(), 2 * leaves - 1);
        }
    }

    #[test]
    fn empty_mesh_gives_empty_tree() {
        let tree = AabbTree::build(&TriMesh::default());
        assert!(tree.nodes.is_empty() && tree.triangles.is_empty());
    }

    #[test]
    fn outward_rounding_contains_the_box() {
        let values = [
            0.0,
            -0.0,
            1.0,
            0.1,
            -0.1,
            1.0 / 3.0,
            -2.0 / 3.0,
            1e-310,
            -1e-310,
            1e-45,
            3.4e38,
            -3.5e38,
            1e308,
            -1e308,
            f64::MAX,
            f64::MIN,
            123456.789,
            -987654.321e-12,
        ];
        for &x in &values {
            for &y in &values {
                let b = Aabb {
                    min: Point3::from([x.min(y); 3]),
                    max: Point3::from([x.max(y); 3]),
                };
                let f = Box32::outward(&b);
                let (lo, hi) = (f.min.to_array(), f.max.to_array());
                for k in 0..3 {
                    assert!(
                        lo[k] as f64 <= b.min[k] && b.max[k] <= hi[k] as f64,
                        "{x} {y}"
                    );
                }
            }
        }
    }

    #[test]
    fn overlap_is_closed() {
        let b = |min: [f64; 3], max: [f64; 3]| {
            Box32::outward(&Aabb {
                min: Point3::from(min),
                max: Point3::from(max),
            })
        };
        let a = b([0.0; 3], [1.0; 3]);
        let touching = b([1.0, 0.5, 0.5], [2.0; 3]);
        let apart = b([1.001, 0.0, 0.0], [2.0; 3]);
        assert!(a.overlaps(&touching) && touching.overlaps(&a));
        assert!(!a.overlaps(&apart) && !apart.overlaps(&a));
        assert!(!a.overlaps(&Box32::EMPTY) && !Box32::EMPTY.overlaps(&a));
        assert_eq!(a.union(&Box32::EMPTY), a);
    }
}
