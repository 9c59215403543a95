//! The OBB tree (Gottschalk, Lin, Manocha 1996, as in RAPID and PQP), stored
//! flat.

use crate::fit::covariance::{of_triangles, principal_frame};
use crate::fit::{Aabb, Obb};
use crate::mesh::TriMesh;
use nalgebra::{Point3, Vector3};

/// Triangles per leaf when none is asked for, chosen in `benches/collide.rs`
/// (69k-triangle bunny against itself, 100 near-boundary poses, mean per
/// query, first contact / all contacts): leaf 1: 67 / 391 µs, 2: 57 / 373 µs,
/// 4: 67 / 492 µs, 8: 55 / 659 µs. 2 is best for all contacts and within
/// noise of the best for first contact.
pub const DEFAULT_LEAF_SIZE: usize = 2;

/// Below this many triangles a subtree is built on one thread: splitting the
/// work further costs more than it saves.
const PARALLEL_MIN: usize = 4096;

/// One node: its box in the mesh's frame and the contiguous range of
/// (permuted) triangles it covers. Its first child is the next node (depth-
/// first order); the second is at `right`; a leaf has `right == 0`.
#[derive(Clone, Debug)]
pub struct Node {
    /// The box, in the mesh's frame (`f64`, with a rounding margin).
    pub obb: Obb,
    /// First triangle (index into [`ObbTree::triangles`]).
    pub start: u32,
    /// Number of triangles.
    pub count: u32,
    /// Index of the second child; 0 for a leaf.
    pub right: u32,
}

impl Node {
    /// Whether the node is a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.right == 0
    }
}

/// A top-down OBB tree over a triangle mesh.
///
/// Each node's box takes its axes from the area-weighted covariance of the
/// node's triangles (RAPID's continuous formula) and its extents from the
/// node's triangle corners (with a rounding margin, so every corner is inside).
/// A node splits along its box's longest axis at the mean of its triangles'
/// centroids, falling back to the median when one side would be empty, until
/// it holds at most `leaf_size` triangles. Degenerate triangles are kept.
/// Nodes are in one `Vec` in depth-first order; triangles are permuted so that
/// each node covers a contiguous range, and their corners are stored in that
/// order so that a leaf reads them without indirection.
#[derive(Clone, Debug)]
pub struct ObbTree {
    /// The nodes, root first, depth-first.
    pub nodes: Vec<Node>,
    /// The triangles' corners in node order.
    pub triangles: Vec<[Point3<f64>; 3]>,
    /// `original[k]` is the index in the input mesh of `triangles[k]`.
    pub original: Vec<u32>,
    /// The leaf size the tree was built with.
    pub leaf_size: usize,
    /// The largest absolute coordinate of any corner (for rounding slack).
    pub max_abs_coord: f64,
}

/// A triangle during the build: its index and centroid.
#[derive(Clone, Copy)]
struct Item {
    index: u32,
    centroid: Point3<f64>,
}

impl ObbTree {
    /// Builds the tree with [`DEFAULT_LEAF_SIZE`].
    pub fn build(mesh: &TriMesh) -> ObbTree {
        ObbTree::build_with_leaf_size(mesh, DEFAULT_LEAF_SIZE)
    }

    /// Builds the tree with at most `leaf_size` (≥ 1) triangles per leaf;
    /// large subtrees are built in parallel (rayon). An empty mesh gives an
    /// empty tree (no nodes).
    pub fn build_with_leaf_size(mesh: &TriMesh, leaf_size: usize) -> ObbTree {
        let leaf_size = leaf_size.max(1);
        let mut items: Vec<Item> = (0..mesh.triangles.len())
            .map(|i| {
                let [a, b, c] = mesh.triangle(i);
                Item {
                    index: i as u32,
                    centroid: Point3::from((a.coords + b.coords + c.coords) / 3.0),
                }
            })
            .collect();
        let nodes = if items.is_empty() {
            Vec::new()
        } else {
            build_subtree(mesh, &mut items, 0, leaf_size)
        };
        let original: Vec<u32> = items.iter().map(|it| it.index).collect();
        let triangles: Vec<[Point3<f64>; 3]> = original
            .iter()
            .map(|&i| mesh.triangle(i as usize))
            .collect();
        let max_abs_coord = triangles
            .iter()
            .flat_map(|t| t.iter())
            .fold(0.0f64, |m, p| m.max(p.coords.amax()));
        ObbTree {
            nodes,
            triangles,
            original,
            leaf_size,
            max_abs_coord,
        }
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// The triangles (in node order) that node `n` covers.
    pub fn node_triangles(&self, n: &Node) -> &[[Point3<f64>; 3]] {
        &self.triangles[n.start as usize..(n.start + n.count) as usize]
    }

    /// Bytes of the tree structure (nodes and the permutation) per triangle;
    /// the triangle corners copied into node order are not counted (they are
    /// the mesh).
    pub fn bytes_per_triangle(&self) -> f64 {
        let bytes = self.nodes.len() * std::mem::size_of::<Node>()
            + self.original.len() * std::mem::size_of::<u32>();
        bytes as f64 / self.triangles.len().max(1) as f64
    }

    /// The same tree with every node's box replaced by the axis-aligned box
    /// of its triangles: an AABB tree of the same split, for measuring what
    /// the oriented boxes save (`bvtool compare`).
    pub fn with_aabb_boxes(&self) -> ObbTree {
        let mut tree = self.clone();
        for n in &mut tree.nodes {
            let b = self.node_aabb(n);
            n.obb = Obb::from_frame_and_points(&nalgebra::Matrix3::identity(), [&b.min, &b.max])
                .expect("two corners");
        }
        tree
    }

    /// The axis-aligned box of node `n`'s triangle corners (the AABB tree of
    /// the same split, for comparison).
    pub fn node_aabb(&self, n: &Node) -> Aabb {
        Aabb::from_points(self.node_triangles(n).iter().flat_map(|t| t.iter()))
            .expect("a node covers at least one triangle")
    }
}

/// The box of a set of triangles: covariance frame, corner extents.
fn fit_box(mesh: &TriMesh, items: &[Item]) -> Obb {
    let tris = items.iter().map(|it| mesh.triangle(it.index as usize));
    let frame = of_triangles(tris.clone())
        .map(|(_, cov)| principal_frame(&cov))
        .unwrap_or_else(nalgebra::Matrix3::identity);
    let corners: Vec<Point3<f64>> = tris.flat_map(|t| t.into_iter()).collect();
    Obb::from_frame_and_points(&frame, &corners).expect("a node covers at least one triangle")
}

/// Builds the subtree over `items` (reordered in place), with its nodes in
/// depth-first order and triangle ranges starting at `start`.
fn build_subtree(mesh: &TriMesh, items: &mut [Item], start: u32, leaf_size: usize) -> Vec<Node> {
    let obb = fit_box(mesh, items);
    let count = items.len() as u32;
    if items.len() <= leaf_size {
        return vec![Node {
            obb,
            start,
            count,
            right: 0,
        }];
    }
    let n = items.len();
    let mid = split(items, &obb);
    let (left_items, right_items) = items.split_at_mut(mid);
    let right_start = start + mid as u32;
    let (left, right) = if n >= PARALLEL_MIN {
        rayon::join(
            || build_subtree(mesh, left_items, start, leaf_size),
            || build_subtree(mesh, right_items, right_start, leaf_size),
        )
    } else {
        (
            build_subtree(mesh, left_items, start, leaf_size),
            build_subtree(mesh, right_items, right_start, leaf_size),
        )
    };
    let mut nodes = Vec::with_capacity(1 + left.len() + right.len());
    let right_index = 1 + left.len() as u32;
    nodes.push(Node {
        obb,
        start,
        count,
        right: right_index,
    });
    let shift = |mut n: Node, by: u32| {
        if n.right != 0 {
            n.right += by;
        }
        n
    };
    nodes.extend(left.into_iter().map(|n| shift(n, 1)));
    nodes.extend(right.into_iter().map(|n| shift(n, right_index)));
    nodes
}

/// Partitions `items` along the box's longest axis at the mean centroid
/// projection; when one side would be empty, at the median instead. Returns
/// the size of the first part (always in `1..len`).
fn split(items: &mut [Item], obb: &Obb) -> usize {
    let h = &obb.half_extents;
    let k = if h.x >= h.y && h.x >= h.z {
        0
    } else if h.y >= h.z {
        1
    } else {
        2
    };
    let axis: Vector3<f64> = obb.axis(k);
    let key = |it: &Item| axis.dot(&it.centroid.coords);
    let mean = items.iter().map(key).sum::<f64>() / items.len() as f64;
    let mut i = 0;
    for j in 0..items.len() {
        if key(&items[j]) < mean {
            items.swap(i, j);
            i += 1;
        }
    }
    if i == 0 || i == items.len() {
        let mid = items.len() / 2;
        items.select_nth_unstable_by(mid, |a, b| key(a).total_cmp(&key(b)));
        return mid;
    }
    i
}
