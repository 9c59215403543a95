//! The OBB tree (Gottschalk, Lin, Manocha 1996, as in RAPID and PQP), stored
//! flat.

use super::flat::{PARALLEL_MIN, append_children, node_bound};
use super::node::{MAX_LEAF_SIZE, Node, NodeBox};
use super::twins::Twins;
use crate::fit::covariance::{of_triangles, principal_frame_fast};
use crate::fit::hull::planar::min_area_rect_of;
use crate::fit::{Aabb, Obb};
use crate::mesh::TriMesh;
use crate::mesh::weld::weld_until;
use crate::threads::{Stop, Stopped, unstopped};
use nalgebra::{Matrix3, Point3, Vector2, Vector3};
use rayon::prelude::*;
use std::sync::OnceLock;

/// Triangles per leaf when none is asked for, for a tree of at least
/// [`SMALL_TREE`] triangles ([`default_leaf_size`]): the size that keeps a
/// tree within 64 bytes a triangle (nodes are 64 bytes, [`Node`]) at no cost in
/// query time, chosen by measurement on the four pairs of `benches/data`
/// at their 100 near-contact poses (median per query of the median of 7
/// runs; first contact / all contacts / distance over the separated poses;
/// quick boxes; three alternating rounds against the 96-byte nodes of leaf
/// 2 before, one sitting), 64-byte nodes at leaf 2 / 4 / 6 / 8:
///
/// | pair | first contact µs | all contacts µs | distance µs | bytes/triangle |
/// |---|---|---|---|---|
/// | 69k bunny | 3.16 / 3.18 / 3.14 / 3.14 | 19.2 / 17.1 / 16.9 / 18.0 | 82.8 / 83.3 / 83.9 / 87.0 | 102 / 70 / 57 / 50 |
/// | `2CylinderEngine` | 5.37 / 5.21 / 5.01 / 5.13 | 15.2 / 16.0 / 16.5 / 17.8 | 65.2 / 70.6 / 72.5 / 76.3 | 102 / 70 / 58 / 51 |
/// | KUKA link_1/link_2 | 2.12 / 2.17 / 2.12 / 2.13 | 8.5 / 8.8 / 8.3 / 8.6 | 50.6 / 49.3 / 50.5 / 51.3 | 104 / 70 / 57 / 51 |
/// | duck/teddy | 3.57 / 3.58 / 3.59 / 3.75 | 11.1 / 10.8 / 10.6 / 10.9 | 45.4 / 46.6 / 48.3 / 46.5 | 104 / 70 / 58 / 50 |
///
/// (The old 96-byte nodes at leaf 2, same rounds: 3.15, 5.39, 2.08, 3.44
/// µs; 21.3, 16.4, 9.4, 11.5 µs; 78.3, 69.3, 50.3, 43.6 µs; 140–141
/// bytes.) Bigger leaves test more triangle pairs, which the leaf's
/// shared work pays for (`PlacedLeaf` in the query: B's leaf placed once
/// for all of A's leaves it meets in a row, its triangles' planes built
/// once). 6 is within 5 % of the best on every contact figure but the
/// engine's all contacts (8 %), its distances 1–11 % slower than leaf 2's
/// (the engine the most); 8 gives up 17 % there.
pub const DEFAULT_LEAF_SIZE: usize = 6;

/// Below this many triangles a tree's leaves hold at most 2 when no size
/// is asked for ([`default_leaf_size`]). A small mesh's triangles are
/// coarse, so six of them make a leaf box too large to prune a distance
/// query well far from contact, and its tree is small anyway (at most 0.8
/// MB at 102 bytes a triangle). Measured against the 1.2M-triangle grid
/// scene of `bvtool_dev::grid_scene` at the torus's 50 poses 0.7 or more
/// from everything (median per query, the scene at leaf 6), the small
/// mesh's tree at leaf 2 → 6: `models/torus.obj` (1,152 triangles) 234 →
/// 1,303 µs, pybullet duck (4,212) 613 → 1,287, teddy's convex parts
/// (2,432) 848 → 1,347 — but KUKA link_1 (9,924) 1,141 → 1,057.
pub const SMALL_TREE: usize = 8192;

/// The leaf size of a tree over `triangles` triangles when none is asked
/// for: 2 below [`SMALL_TREE`], [`DEFAULT_LEAF_SIZE`] from there.
pub fn default_leaf_size(triangles: usize) -> usize {
    if triangles < SMALL_TREE {
        2
    } else {
        DEFAULT_LEAF_SIZE
    }
}

/// How much work the build spends on each node's box.
///
/// Measured on `benches/data`'s 100 near-contact poses per pair (mean box
/// tests per first-contact query, `bvtool collide --first-contact --json
/// --node-fit …`) and the build's time (`cargo bench --bench collide --
/// node_fit`), same sitting, quick → flush: `2CylinderEngine` 325 → 267
/// box tests (build 102–108 → 263–277 ms), the 69k bunny 205 → 190
/// (54–56 → 143–148 ms), KUKA iiwa14 link_1/link_2 148 → 133, duck/teddy
/// 269 → 253; the 100 poses' first contacts 5–15 % faster, all contacts
/// 4–19 %. The extra build time pays back only after tens of thousands of
/// queries, so one-off commands build quick trees and trees that are kept
/// (exports, the Python package) flush ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NodeFit {
    /// The covariance frame or the axis-aligned box, whichever is smaller:
    /// the quickest build.
    #[default]
    Quick,
    /// Also turns the box about each of its axes in turn to the
    /// minimum-area rectangle of the corners across it, for nodes of
    /// `FLUSH_MIN` to `FLUSH_MAX` triangles (`flush_box`): a build
    /// 2.5–3× as long and queries with 5–20 % fewer box tests, most
    /// on CAD parts, whose flat faces the covariance frame misses.
    Flush,
}

/// `quick` or `flush`, as the command line and Python name them.
impl std::str::FromStr for NodeFit {
    type Err = crate::fit::UnknownMethod;
    fn from_str(s: &str) -> Result<NodeFit, Self::Err> {
        match s {
            "quick" => Ok(NodeFit::Quick),
            "flush" => Ok(NodeFit::Flush),
            _ => Err(crate::fit::UnknownMethod(s.to_owned())),
        }
    }
}

/// A top-down OBB tree over a triangle mesh.
///
/// Each node's box takes its axes from the area-weighted covariance of the
/// node's triangles (RAPID's continuous formula, summed from per-triangle
/// moments computed once; a single-triangle leaf uses the triangle's own
/// frame) — or is the axis-aligned box when that is smaller (measured on the
/// 69k bunny, `benches/collide.rs`, same sitting: first contact 20.8 → 13.8
/// µs and all contacts 110 → 73 µs median per query) — and its extents from
/// the node's triangle corners (with a rounding margin, so every corner is
/// inside), then kept in `f32` for the query ([`NodeBox`], rounded outwards,
/// so the corners stay inside). A node splits at the plane of least
/// surface-area cost among planes evenly spaced across its box along each
/// of its axes (`split_plane`), until it holds at most `leaf_size`
/// triangles. Degenerate triangles are kept.
/// Nodes are in one `Vec` in depth-first order; triangles are permuted so that
/// each node covers a contiguous range. The geometry is the mesh's welded
/// vertices (equal coordinates are one vertex), in `f64` as the exact tests
/// need them, numbered in order of first use by the permuted triangles — so
/// a leaf's corners sit near its neighbours' in memory — and each triangle
/// is three indices into them: 12 bytes a triangle plus 24 a vertex (about
/// half a vertex a triangle on closed meshes), where a copy of the corners
/// took 72.
#[derive(Clone, Debug)]
pub struct ObbTree {
    /// The nodes, root first, depth-first.
    pub nodes: Vec<Node>,
    /// The welded vertices, in order of first use by [`ObbTree::triangles`].
    pub vertices: Vec<Point3<f64>>,
    /// The triangles in node order, as indices into
    /// [`ObbTree::vertices`] (corner order as in the mesh).
    pub triangles: Vec<[u32; 3]>,
    /// `original[k]` is the index in the input mesh of `triangles[k]`.
    pub original: Vec<u32>,
    /// Triangles with the same three corners as others ([`Twins`]). The
    /// query decides a pair of twins once ([`fn@crate::query::collide`]), so
    /// stacks of coincident triangles cost tests in proportion to their
    /// distinct shapes.
    pub twins: Twins,
    /// The leaf size the tree was built with.
    pub leaf_size: usize,
    /// The point node boxes are relative to: the centre of the corners'
    /// bounding box.
    pub origin: Point3<f64>,
    /// The largest absolute coordinate of any corner relative to
    /// [`ObbTree::origin`] (for the query's rounding slack).
    pub reach: f64,
    /// [`ObbTree::radius`], computed on first use.
    pub(super) radius: OnceLock<f64>,
}

/// The bytes an [`ObbTree`] holds ([`ObbTree::memory`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeMemory {
    /// Nodes, the triangle permutation and the twin table.
    pub structure: usize,
    /// The triangle corners the leaves read.
    pub geometry: usize,
}

/// A triangle during the build: its index, corners and area (the cross
/// product and square root computed once; its [`Moments`] are a few products
/// away). The corners travel with the item so that fitting a node's box reads
/// them in order rather than through an index into the mesh; 88 bytes, so the
/// partitions move little memory.
#[derive(Clone, Copy)]
struct Item {
    index: u32,
    corners: [Point3<f64>; 3],
    area: f64,
}

impl Item {
    /// Three times the centroid: splits compare these sums (the same order
    /// as centroids) and so save a division per item.
    #[inline]
    fn corner_sum(&self) -> Vector3<f64> {
        let [a, b, c] = &self.corners;
        a.coords + b.coords + c.coords
    }
}

/// What a node's box and split need summed over its items: the covariance
/// moments and the corners (three times the centroids). A split sums only
/// its smaller side and takes the larger as the rest of the node's sums, so
/// each level forms the moments of at most half its triangles.
#[derive(Clone, Copy, Default)]
struct Sums {
    moments: Moments,
    corners: Vector3<f64>,
}

impl Sums {
    fn of(items: &[Item], origin: &Point3<f64>) -> Sums {
        let mut s = Sums::default();
        items.iter().for_each(|it| s.add(it, origin));
        s
    }

    /// [`Sums::of`] `items`, in chunks of [`PARALLEL_MIN`] summed on the
    /// pool and then added in order when there are that many: the chunks
    /// and the order of the additions depend on the items alone, so the
    /// sums — their rounding included — are the same whatever the number
    /// of threads (a `reduce` would add the chunks in an order that
    /// depends on which thread finished what, and the tree's boxes would
    /// differ in their last bits from one run to the next).
    fn in_chunks(items: &[Item], origin: &Point3<f64>) -> Sums {
        if items.len() < PARALLEL_MIN {
            return Sums::of(items, origin);
        }
        let parts: Vec<Sums> = items
            .par_chunks(PARALLEL_MIN)
            .map(|chunk| Sums::of(chunk, origin))
            .collect();
        parts.iter().fold(Sums::default(), |mut all, part| {
            all.merge(part);
            all
        })
    }

    fn merge(&mut self, o: &Sums) {
        self.moments.add(&o.moments);
        self.corners += o.corners;
    }

    /// These sums without the part `o`.
    fn minus(&self, o: &Sums) -> Sums {
        let m = &o.moments;
        let mut s = *self;
        s.moments.area -= m.area;
        (0..3).for_each(|k| s.moments.first[k] -= m.first[k]);
        (0..6).for_each(|k| s.moments.second[k] -= m.second[k]);
        s.corners -= o.corners;
        s
    }

    #[inline]
    fn add(&mut self, it: &Item, origin: &Point3<f64>) {
        self.moments.add(&Moments::of(&it.corners, it.area, origin));
        self.corners += it.corner_sum();
    }
}

/// A triangle surface's area, first and second area moments about the
/// build's origin (RAPID's continuous formula, as in
/// [`crate::fit::covariance::of_triangles`]): `A`, `A·m` and
/// `A/12·(9·m·mᵀ + p·pᵀ + q·qᵀ + r·rᵀ)`, the last as its 6 distinct entries
/// (xx, yy, zz, xy, xz, yz). Sums of these over a node give its covariance.
#[derive(Clone, Copy, Default)]
struct Moments {
    area: f64,
    first: [f64; 3],
    second: [f64; 6],
}

impl Moments {
    /// The moments of triangle `t` of area `area` about `origin`.
    #[inline]
    fn of(t: &[Point3<f64>; 3], area: f64, origin: &Point3<f64>) -> Moments {
        let [p, q, r] = t.map(|c| c - origin);
        // 9·m·mᵀ = S·Sᵀ with S = p + q + r = 3m.
        let sum = p + q + r;
        let w = area / 12.0;
        let s =
            |i: usize, j: usize| (sum[i] * sum[j] + p[i] * p[j] + q[i] * q[j] + r[i] * r[j]) * w;
        let a3 = area / 3.0;
        Moments {
            area,
            first: [sum.x * a3, sum.y * a3, sum.z * a3],
            second: [s(0, 0), s(1, 1), s(2, 2), s(0, 1), s(0, 2), s(1, 2)],
        }
    }

    fn add(&mut self, o: &Moments) {
        self.area += o.area;
        for k in 0..3 {
            self.first[k] += o.first[k];
        }
        for k in 0..6 {
            self.second[k] += o.second[k];
        }
    }

    /// The covariance of the summed surface, `None` when its area is zero
    /// (or the sums overflowed).
    fn covariance(&self) -> Option<Matrix3<f64>> {
        if !(self.area > 0.0 && self.area.is_finite()) {
            return None;
        }
        let mean = Vector3::from(self.first) / self.area;
        let [xx, yy, zz, xy, xz, yz] = self.second.map(|v| v / self.area);
        let second = Matrix3::new(xx, xy, xz, xy, yy, yz, xz, yz, zz);
        Some(second - mean * mean.transpose())
    }
}

impl ObbTree {
    /// Builds the tree with [`default_leaf_size`] and [`NodeFit::Quick`].
    pub fn build(mesh: &TriMesh) -> ObbTree {
        ObbTree::build_default(mesh, NodeFit::Quick)
    }

    /// [`ObbTree::build`], giving up with [`Stopped`] (and no tree) when
    /// `stop` is set ([`ObbTree::build_with_until`]).
    pub fn build_until(mesh: &TriMesh, stop: Stop<'_>) -> Result<ObbTree, Stopped> {
        let leaf_size = default_leaf_size(mesh.triangles.len());
        ObbTree::build_with_until(mesh, leaf_size, NodeFit::Quick, stop)
    }

    /// Builds the tree with [`default_leaf_size`] and node boxes fitted by
    /// `fit`.
    ///
    /// # Guarantees
    /// Every node's box contains the triangles below it (the boxes are rounded
    /// outward to `f32`); every triangle is in exactly one leaf; the build is
    /// deterministic whatever the number of threads.
    ///
    /// ```
    /// use bvtool::load::load;
    /// use bvtool::tree::ObbTree;
    ///
    /// let mesh = load("models/torus.obj".as_ref(), &Default::default())?.flatten();
    /// let tree = ObbTree::build_default(&mesh, Default::default());
    /// assert_eq!(tree.triangle_count(), mesh.triangles.len());
    /// # Ok::<(), bvtool::Error>(())
    /// ```
    pub fn build_default(mesh: &TriMesh, fit: NodeFit) -> ObbTree {
        ObbTree::build_with(mesh, default_leaf_size(mesh.triangles.len()), fit)
    }

    /// Builds the tree with at most `leaf_size` (≥ 1) triangles per leaf and
    /// [`NodeFit::Quick`].
    pub fn build_with_leaf_size(mesh: &TriMesh, leaf_size: usize) -> ObbTree {
        ObbTree::build_with(mesh, leaf_size, NodeFit::Quick)
    }

    /// Builds the tree with at most `leaf_size` triangles per leaf (taken
    /// into 1 to [`MAX_LEAF_SIZE`]) and node boxes fitted by `fit`; large
    /// subtrees are built in parallel (rayon). An empty mesh gives an empty
    /// tree (no nodes).
    pub fn build_with(mesh: &TriMesh, leaf_size: usize, fit: NodeFit) -> ObbTree {
        unstopped(|stop| ObbTree::build_with_until(mesh, leaf_size, fit, stop))
    }

    /// [`ObbTree::build_with`], giving up with [`Stopped`] (and no tree)
    /// when `stop` is set: checked between the passes over all triangles
    /// and at every node of 4,096 triangles or more, so a thread goes at
    /// most one subtree of fewer than that (a few milliseconds) or one pass
    /// over the mesh between checks. Never stopped, the tree is
    /// [`ObbTree::build_with`]'s, byte for byte.
    pub fn build_with_until(
        mesh: &TriMesh,
        leaf_size: usize,
        fit: NodeFit,
        stop: Stop<'_>,
    ) -> Result<ObbTree, Stopped> {
        let leaf_size = leaf_size.clamp(1, MAX_LEAF_SIZE);
        // The passes over all triangles before and after the recursion run
        // on every thread too (rayon); the recursion itself splits at the top.
        let mut items: Vec<Item> = (0..mesh.triangles.len())
            .into_par_iter()
            .map(|i| {
                let t = mesh.triangle(i);
                Item {
                    index: i as u32,
                    corners: t,
                    area: 0.5 * (t[1] - t[0]).cross(&(t[2] - t[0])).norm(),
                }
            })
            .collect();
        stop.check()?;
        let bounds = items
            .par_iter()
            .map(|it| Aabb::from_points(it.corners).expect("three corners"))
            .reduce_with(|a, b| a.union(&b));
        // Moments about the corners' bounding-box centre, to limit
        // cancellation in `second/area - mean·meanᵀ`.
        let (origin, reach) = origin_and_reach(bounds);
        let mut nodes = Vec::with_capacity(node_bound(items.len()));
        if !items.is_empty() {
            let sums = Sums::in_chunks(&items, &origin);
            let build = Build {
                origin,
                leaf_size,
                fit,
                stop,
            };
            build_subtree(&build, &mut items, &sums, 0, &mut nodes);
        }
        // A stopped recursion left subtrees out: nothing of it is kept.
        stop.check()?;
        // Reserved for the worst case (2n − 1); give back what a real split
        // left unused.
        nodes.shrink_to_fit();
        let original: Vec<u32> = items.par_iter().map(|it| it.index).collect();
        drop(items);
        let (vertices, triangles) = shared_vertices(mesh, &original, stop)?;
        let twins = Twins::of(&triangles);
        Ok(ObbTree {
            nodes,
            vertices,
            triangles,
            original,
            twins,
            leaf_size,
            origin,
            reach,
            radius: OnceLock::new(),
        })
    }

    /// The largest distance of a vertex from the origin of the tree's frame
    /// (the point a pose rotates the mesh about), rounded up by 4 ulps:
    /// what a motion's speed bound needs of a moving tree
    /// ([`crate::query::motion::Sweep`]). One pass over the vertices on
    /// first use, kept (and shared by clones made after it).
    pub fn radius(&self) -> f64 {
        *self.radius.get_or_init(|| {
            let r = self
                .vertices
                .iter()
                .map(|v| v.coords.norm())
                .fold(0.0, f64::max);
            r * (1.0 + 4.0 * f64::EPSILON)
        })
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// The corners of the triangle in slot `k` (node order).
    #[inline]
    pub fn corners(&self, k: usize) -> [Point3<f64>; 3] {
        self.triangles[k].map(|i| self.vertices[i as usize])
    }

    /// The corners of the triangles (in node order) that leaf `n` holds.
    #[inline]
    pub fn leaf_triangles(&self, n: &Node) -> impl ExactSizeIterator<Item = [Point3<f64>; 3]> + '_ {
        self.range_triangles(n.leaf_range())
    }

    /// Every node's range of triangle slots (in [`ObbTree::triangles`]),
    /// by node: a leaf's own, an internal node's from its first child's
    /// start to its second child's end. One pass from the last node back.
    pub fn ranges(&self) -> Vec<std::ops::Range<u32>> {
        let mut out = vec![0..0; self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate().rev() {
            out[i] = if n.is_leaf() {
                n.leaf_range()
            } else {
                out[i + 1].start..out[n.right() as usize].end
            };
        }
        out
    }

    /// What the tree holds in memory, in bytes (allocated capacity, so
    /// spare room counts): its structure — nodes, the triangle permutation
    /// and the twin table ([`ObbTree::twins`]) — and its geometry, the
    /// welded `f64` vertices and the triangles' indices into them.
    pub fn memory(&self) -> TreeMemory {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        TreeMemory {
            structure: bytes(&self.nodes) + bytes(&self.original) + self.twins.bytes(),
            geometry: bytes(&self.vertices) + bytes(&self.triangles),
        }
    }

    /// Bytes of structure per triangle ([`ObbTree::memory`]).
    pub fn bytes_per_triangle(&self) -> f64 {
        self.memory().structure as f64 / self.triangles.len().max(1) as f64
    }

    /// The same tree with every node's box replaced by the axis-aligned box
    /// of its triangles: an AABB tree of the same split, for measuring what
    /// the oriented boxes save (`bvtool compare`).
    pub fn with_aabb_boxes(&self) -> ObbTree {
        let mut tree = self.clone();
        for (n, range) in tree.nodes.iter_mut().zip(self.ranges()) {
            let b = self.range_aabb(range);
            let obb = Obb::from_frame_and_points(&Matrix3::identity(), [&b.min, &b.max])
                .expect("two corners");
            *n = n.with_box(NodeBox::about(&obb, &self.origin));
        }
        tree
    }

    /// Bytes per triangle of everything the tree holds, structure and
    /// geometry ([`ObbTree::memory`]).
    pub fn total_bytes_per_triangle(&self) -> f64 {
        let m = self.memory();
        (m.structure + m.geometry) as f64 / self.triangles.len().max(1) as f64
    }

    /// Node `n`'s box in the mesh's frame ([`NodeBox::to_obb_about`] the
    /// tree's origin).
    pub fn node_box(&self, n: &Node) -> Obb {
        n.bx().to_obb_about(&self.origin)
    }

    /// The axis-aligned box of the corners of the triangles in slots
    /// `range` (a node's, from [`ObbTree::ranges`]: the AABB tree of the
    /// same split, for comparison).
    pub fn range_aabb(&self, range: std::ops::Range<u32>) -> Aabb {
        Aabb::from_points(self.range_triangles(range).flatten())
            .expect("a node covers at least one triangle")
    }

    /// The corners of the triangles in slots `range` (a node's, from
    /// [`ObbTree::ranges`]).
    pub fn range_triangles(
        &self,
        range: std::ops::Range<u32>,
    ) -> impl ExactSizeIterator<Item = [Point3<f64>; 3]> + '_ {
        (range.start as usize..range.end as usize).map(|k| self.corners(k))
    }
}

/// A tree's [`ObbTree::origin`] and [`ObbTree::reach`] from the bounding
/// box of its corners (`None` for no corners: the origin and 0).
pub(super) fn origin_and_reach(bounds: Option<Aabb>) -> (Point3<f64>, f64) {
    let origin = bounds.map_or_else(Point3::origin, |b| b.center());
    let reach = bounds.map_or(0.0, |b| {
        (b.max - origin).abs().sup(&(b.min - origin).abs()).max()
    });
    (origin, reach)
}

/// A tree's geometry: its welded vertices and its triangles as indices
/// into them.
pub(super) type Welded = (Vec<Point3<f64>>, Vec<[u32; 3]>);

/// The geometry of the triangles `original` (mesh indices, in node order):
/// the mesh's vertices welded ([`weld_until`]: equal coordinates are one
/// vertex), kept only where used and numbered in order of first use, and
/// each triangle's corners as indices into them. One sequential pass after
/// the weld, `stop` checked every 65,536 triangles (and in the weld).
pub(super) fn shared_vertices(
    mesh: &TriMesh,
    original: &[u32],
    stop: Stop<'_>,
) -> Result<Welded, Stopped> {
    let (ids, count) = weld_until(&mesh.vertices, stop)?;
    let mut number = vec![u32::MAX; count];
    let mut vertices = Vec::new();
    let mut triangles = Vec::with_capacity(original.len());
    for chunk in original.chunks(1 << 16) {
        stop.check()?;
        triangles.extend(chunk.iter().map(|&o| {
            mesh.triangles[o as usize].map(|v| {
                let id = ids[v as usize] as usize;
                if number[id] == u32::MAX {
                    number[id] = vertices.len() as u32;
                    vertices.push(mesh.vertices[v as usize]);
                }
                number[id]
            })
        }));
    }
    vertices.shrink_to_fit();
    Ok((vertices, triangles))
}

/// The box of a set of triangles: for one proper triangle its own frame
/// ([`triangle_frame`]), otherwise the frame of their summed covariance
/// moments (the corners' covariance when their total area is zero), or the
/// axis-aligned box when that is smaller; extents over their corners. One
/// pass over the corners gathers both boxes' extents.
fn fit_box(items: &[Item], sum: &Moments, fit: NodeFit) -> Obb {
    let single = match items {
        [it] => triangle_frame(&it.corners),
        _ => None,
    };
    let frame = single.unwrap_or_else(|| match sum.covariance() {
        Some(cov) => principal_frame_fast(&cov),
        None => of_triangles(items.iter().map(|it| it.corners))
            .map(|(_, cov)| principal_frame_fast(&cov))
            .unwrap_or_else(Matrix3::identity),
    });
    let t = frame.transpose();
    // Per coordinate: the range in the frame and the axis-aligned range.
    type Ranges = [Vector3<f64>; 4];
    let empty = || -> Ranges {
        let (inf, neg) = (
            Vector3::repeat(f64::INFINITY),
            Vector3::repeat(f64::NEG_INFINITY),
        );
        [inf, neg, inf, neg]
    };
    let gather = |mut r: Ranges, chunk: &[Item]| {
        for p in chunk.iter().flat_map(|it| &it.corners) {
            let q = t * p.coords;
            r = [
                r[0].inf(&q),
                r[1].sup(&q),
                r[2].inf(&p.coords),
                r[3].sup(&p.coords),
            ];
        }
        r
    };
    let [lo, hi, min, max] = if items.len() >= PARALLEL_MIN {
        // Only the few largest nodes: the top of the tree, where the
        // recursion has not yet split the work between threads.
        items
            .par_chunks(PARALLEL_MIN / 4)
            .map(|chunk| gather(empty(), chunk))
            .reduce(empty, |a, b| {
                [
                    a[0].inf(&b[0]),
                    a[1].sup(&b[1]),
                    a[2].inf(&b[2]),
                    a[3].sup(&b[3]),
                ]
            })
    } else {
        gather(empty(), items)
    };
    // The largest absolute coordinate, as `from_frame_and_points` finds it.
    let scale = min.abs().sup(&max.abs()).max();
    let obb = Obb::from_frame_and_bounds(&frame, &lo, &hi, scale);
    if single.is_some() {
        return obb;
    }
    // The covariance frame is not always the better box (two perpendicular
    // parts give a diagonal frame): keep the axis-aligned box when smaller.
    let aabb = Obb::from_frame_and_bounds(&Matrix3::identity(), &min, &max, scale);
    let best = if aabb.volume() < obb.volume() {
        aabb
    } else {
        obb
    };
    if fit == NodeFit::Flush && (FLUSH_MIN..=FLUSH_MAX).contains(&items.len()) {
        flush_box(items, best)
    } else {
        best
    }
}

/// The smallest node [`NodeFit::Flush`] refits: below it the nodes are
/// most of the tree and gain little (measured: refitting from 3 triangles
/// on the engine took the build from 282 to 330 ms for 2 % fewer box tests).
pub const FLUSH_MIN: usize = 9;

/// The largest node [`NodeFit::Flush`] refits: the few nodes above it are
/// tested about once a query, and the top of the build runs on one thread.
pub const FLUSH_MAX: usize = PARALLEL_MIN;

/// `best`, or a smaller box: in turn about each of its axes `k`, the frame
/// that keeps axis `k` and turns the other two to the minimum-area
/// rectangle of the corners projected across it ([`min_area_rect_of`]:
/// rotating calipers, exact for that projection), taken when its box over
/// every corner is smaller. A CAD part is often long along its covariance
/// axis but turned about it against its flat faces, and the axis-aligned
/// box fits only parts that are axis-aligned; a flush rectangle fits both.
/// Three turns at most (a later one starts from the box an earlier one
/// gave); the box's extents come from its corners as the other boxes'
/// do, so containment holds as before.
fn flush_box(items: &[Item], mut best: Obb) -> Obb {
    let corners = || items.iter().flat_map(|it| &it.corners);
    let mut across = Vec::with_capacity(3 * items.len());
    for k in 0..3 {
        let axes = best.axes;
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let (ai, aj) = (axes.column(i).into_owned(), axes.column(j).into_owned());
        across.clear();
        across.extend(corners().map(|p| Vector2::new(ai.dot(&p.coords), aj.dot(&p.coords))));
        let (area, e) = min_area_rect_of(&mut across);
        // The rectangle times the unchanged extent along k: the new box's
        // volume up to the margins, so only a likely winner is measured.
        if area * 2.0 * best.half_extents[k] >= best.volume() {
            continue;
        }
        let mut columns = [axes.column(k).into_owned(); 3];
        columns[i] = ai * e.x + aj * e.y;
        columns[j] = columns[k].cross(&columns[i]);
        // A gain within rounding would only turn the box by noise.
        if let Some(b) = Obb::from_frame_and_points(&Matrix3::from_columns(&columns), corners())
            && b.volume() < best.volume() * (1.0 - 1e-9)
        {
            best = b;
        }
    }
    best
}

/// The frame of a single non-degenerate triangle: its longest edge, the
/// in-plane perpendicular and its normal, so its box is flat (as tight as a
/// box can be) without an eigen-decomposition. `None` when degenerate.
fn triangle_frame(t: &[Point3<f64>; 3]) -> Option<Matrix3<f64>> {
    let edges = [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
    let e = edges
        .iter()
        .max_by(|a, b| a.norm_squared().total_cmp(&b.norm_squared()))?;
    let a0 = e.try_normalize(0.0)?;
    let n = edges[0].cross(&edges[1]).try_normalize(0.0)?;
    // For a sliver the computed normal is rounding noise and need not be
    // perpendicular to the edge: re-orthogonalize, and give up (the caller
    // uses the covariance) unless the frame is orthonormal to ~1e-12, which
    // the boxes' rounding margin relies on.
    let a2 = (n - a0 * a0.dot(&n)).try_normalize(0.0)?;
    let a1 = a2.cross(&a0);
    let frame = Matrix3::from_columns(&[a0, a1, a2]);
    let orthonormal = (frame.tr_mul(&frame) - Matrix3::identity()).amax() < 1e-12;
    (orthonormal && frame.iter().all(|x| x.is_finite())).then_some(frame)
}

/// What every node of one build shares: the origin of the moments, the
/// leaf size, the node fit and the caller's stop flag.
struct Build<'a> {
    origin: Point3<f64>,
    leaf_size: usize,
    fit: NodeFit,
    stop: Stop<'a>,
}

/// Appends to `out` the subtree over `items` (reordered in place; `sums`
/// are their [`Sums`]) in depth-first order, with triangle ranges starting at
/// `start` and `right` links as indices into `out`. Large subtrees build
/// their second half on another thread ([`append_children`]). A subtree
/// of [`PARALLEL_MIN`] triangles or more is left out, unbuilt, once the
/// build's stop flag is set (the caller then drops the whole tree).
fn build_subtree(b: &Build, items: &mut [Item], sums: &Sums, start: u32, out: &mut Vec<Node>) {
    if items.len() >= PARALLEL_MIN && b.stop.is_set() {
        return;
    }
    let obb = fit_box(items, &sums.moments, b.fit);
    let bx = NodeBox::about(&obb, &b.origin);
    let n = items.len();
    let me = out.len();
    if n <= b.leaf_size {
        out.push(Node::leaf(bx, start, n));
        return;
    }
    out.push(Node::internal(bx));
    let (mid, left_sums, right_sums) = split(items, &obb, sums, &b.origin);
    let (left_items, right_items) = items.split_at_mut(mid);
    let right_start = start + mid as u32;
    append_children(
        out,
        me,
        [mid, n - mid],
        |out| build_subtree(b, left_items, &left_sums, start, out),
        |out| build_subtree(b, right_items, &right_sums, right_start, out),
    );
}

/// Bins of the split search along each box axis ([`split_plane`]).
/// Measured against 8 and 32 (mean box tests a query on the four bench
/// pairs, quick boxes, first / all contacts / distance): 8 bins left the
/// engine at 412 / 1,364 / 1,087, 16 at 325 / 1,174 / 896, 32 at 316 /
/// 1,149 / 880; the bunny, KUKA and duck/teddy within 1–10 % of each other
/// from 16 on.
const BINS: usize = 16;

/// The triangles whose centroids fall in one slab of a node's box: how
/// many, and the range of their corners along the box's three axes.
#[derive(Clone, Copy)]
struct Bin {
    count: usize,
    lo: Vector3<f64>,
    hi: Vector3<f64>,
}

impl Bin {
    fn empty() -> Bin {
        Bin {
            count: 0,
            lo: Vector3::repeat(f64::INFINITY),
            hi: Vector3::repeat(f64::NEG_INFINITY),
        }
    }

    fn merge(self, o: &Bin) -> Bin {
        Bin {
            count: self.count + o.count,
            lo: self.lo.inf(&o.lo),
            hi: self.hi.sup(&o.hi),
        }
    }

    /// The surface area heuristic's cost: half the area of the box of the
    /// corners (in the node box's frame) times the number of triangles.
    fn cost(&self) -> f64 {
        let e = self.hi - self.lo;
        (e.x * e.y + e.y * e.z + e.z * e.x) * self.count as f64
    }
}

/// The split plane of a node with box `obb`: of [`BINS`] − 1 planes evenly
/// spaced across the box along each of its three axes, the one of least
/// cost — the sum over its two sides of the area of their triangles' box
/// (in `obb`'s frame) times their number (the surface area heuristic,
/// binned by centroid as in Wald's BVH builds). `None` when no plane
/// leaves triangles on both sides. Returns the axis and the plane as a
/// threshold on the projected corner sum (three times the centroid).
///
/// Against the longest axis's cut at the mean centroid it replaced
/// (`bvtool collide/distance --json`, mean box tests a query on the four
/// bench pairs, quick boxes, first contact / all contacts / distance):
/// `2CylinderEngine` 2,973 / 8,884 / 5,790 → 325 / 1,174 / 896, the 69k
/// bunny 245 / 1,420 / 1,251 → 205 / 1,184 / 1,048, KUKA link_1/link_2
/// 249 / 790 / 797 → 148 / 519 / 553, duck/teddy 467 / 1,153 / 1,038 →
/// 269 / 634 / 623. An assembly of parts of every size, like the engine,
/// gains most: the longest axis's mean cut slices through parts that
/// a cut between them keeps whole.
fn split_plane(items: &[Item], obb: &Obb) -> Option<(usize, f64)> {
    let t = obb.axes.transpose();
    let h = obb.half_extents;
    // Corner sums project into 3·(c ± h) along each axis.
    let lo_key = (t * obb.center.coords - h) * 3.0;
    let width = h * 6.0;
    // Bins per unit of key (0 across a flat box: one bin).
    let per = width.map(|w| if w > 0.0 { BINS as f64 / w } else { 0.0 });
    let binning = |chunk: &[Item]| {
        let mut bins = [[Bin::empty(); BINS]; 3];
        for it in chunk {
            let q = it.corners.map(|p| t * p.coords);
            let key = q[0] + q[1] + q[2];
            let corners = Bin {
                count: 1,
                lo: q[0].inf(&q[1]).inf(&q[2]),
                hi: q[0].sup(&q[1]).sup(&q[2]),
            };
            for (k, axis) in bins.iter_mut().enumerate() {
                // Negative or NaN casts to 0.
                let b = (((key[k] - lo_key[k]) * per[k]) as usize).min(BINS - 1);
                axis[b] = axis[b].merge(&corners);
            }
        }
        bins
    };
    let bins = if items.len() >= PARALLEL_MIN {
        // The top of the tree, before the recursion splits the work.
        items.par_chunks(PARALLEL_MIN / 4).map(binning).reduce(
            || [[Bin::empty(); BINS]; 3],
            |a, b| std::array::from_fn(|k| std::array::from_fn(|i| a[k][i].merge(&b[k][i]))),
        )
    } else {
        binning(items)
    };
    let mut best: Option<(f64, usize, f64)> = None;
    for (k, axis) in bins.iter().enumerate() {
        // The costs of everything right of each plane, then a sweep from
        // the left.
        let mut right = [Bin::empty(); BINS];
        let mut acc = Bin::empty();
        for b in (1..BINS).rev() {
            acc = acc.merge(&axis[b]);
            right[b] = acc;
        }
        let mut left = Bin::empty();
        for b in 1..BINS {
            left = left.merge(&axis[b - 1]);
            if left.count == 0 || right[b].count == 0 {
                continue;
            }
            let cost = left.cost() + right[b].cost();
            if best.is_none_or(|x| cost < x.0) {
                best = Some((cost, k, lo_key[k] + width[k] * b as f64 / BINS as f64));
            }
        }
    }
    best.map(|(_, k, cut)| (k, cut))
}

/// Partitions `items` at the plane of [`split_plane`] or, when it finds
/// none, along the box's longest axis at the mean centroid projection (from
/// `sums`, the items' [`Sums`]); when one side would still be empty, at the
/// median instead. Returns the size of the first part (always in `1..len`)
/// and the two parts' sums.
fn split(items: &mut [Item], obb: &Obb, sums: &Sums, origin: &Point3<f64>) -> (usize, Sums, Sums) {
    let (k, cut) = split_plane(items, obb).unwrap_or_else(|| {
        let h = &obb.half_extents;
        let longest = if h.x >= h.y && h.x >= h.z {
            0
        } else if h.y >= h.z {
            1
        } else {
            2
        };
        let mean = obb.axis(longest).dot(&sums.corners) / items.len() as f64;
        (longest, mean)
    });
    let axis: Vector3<f64> = obb.axis(k);
    let key = |it: &Item| axis.dot(&it.corner_sum());
    // Hoare's two-pointer partition: only misplaced pairs are swapped (items
    // are large).
    let (mut i, mut j) = (0, items.len());
    loop {
        while i < j && key(&items[i]) < cut {
            i += 1;
        }
        while i < j && key(&items[j - 1]) >= cut {
            j -= 1;
        }
        if i == j {
            break;
        }
        // items[i] belongs right and items[j - 1] left.
        j -= 1;
        items.swap(i, j);
        i += 1;
    }
    if i == 0 || i == items.len() {
        i = items.len() / 2;
        items.select_nth_unstable_by(i, |a, b| key(a).total_cmp(&key(b)));
    }
    // Sum the smaller side; the larger is the rest of the node's sums, at
    // least half of them, so the subtraction loses at most a bit.
    if i <= items.len() - i {
        let left = Sums::in_chunks(&items[..i], origin);
        (i, left, sums.minus(&left))
    } else {
        let right = Sums::in_chunks(&items[i..], origin);
        (i, sums.minus(&right), right)
    }
}
