//! Size and tightness figures of an OBB tree, for `bvtool tree`.

use super::ObbTree;
use serde::Serialize;

/// Figures describing a built tree.
#[derive(Clone, Debug, Serialize)]
pub struct TreeStats {
    /// Triangles in the tree.
    pub triangles: usize,
    /// Nodes.
    pub nodes: usize,
    /// Leaves.
    pub leaves: usize,
    /// Levels below the root of the deepest leaf (a lone root has depth 0).
    pub depth: usize,
    /// The maximum triangles per leaf the tree was built with.
    pub leaf_size: usize,
    /// Bytes of tree structure (nodes, triangle permutation, twin table).
    pub structure_bytes: usize,
    /// Bytes of geometry (the triangle corners the leaves read).
    pub geometry_bytes: usize,
    /// `structure_bytes` per triangle.
    pub bytes_per_triangle: f64,
    /// `geometry_bytes` per triangle.
    pub geometry_bytes_per_triangle: f64,
    /// Structure and geometry per triangle: everything the tree holds.
    pub total_bytes_per_triangle: f64,
    /// Sum of the OBB volumes of the nodes at each depth (index = depth).
    pub obb_volume_per_level: Vec<f64>,
    /// Sum of the AABB volumes of the same nodes (same split), per depth.
    pub aabb_volume_per_level: Vec<f64>,
}

impl TreeStats {
    /// Walks every node once (depth-first, with an explicit stack) and sums
    /// the OBB volumes and the volumes of the axis-aligned boxes of the same
    /// nodes' triangles per level.
    pub fn of(tree: &ObbTree) -> TreeStats {
        let mut obb = Vec::new();
        let mut aabb = Vec::new();
        let mut leaves = 0;
        let ranges = tree.ranges();
        let mut stack = Vec::new();
        if !tree.nodes.is_empty() {
            stack.push((0usize, 0usize));
        }
        while let Some((i, depth)) = stack.pop() {
            if obb.len() <= depth {
                obb.push(0.0);
                aabb.push(0.0);
            }
            let n = &tree.nodes[i];
            obb[depth] += n.bx().volume();
            aabb[depth] += tree.range_aabb(ranges[i].clone()).volume();
            if n.is_leaf() {
                leaves += 1;
            } else {
                stack.push((i + 1, depth + 1));
                stack.push((n.right() as usize, depth + 1));
            }
        }
        let memory = tree.memory();
        let n = tree.triangle_count().max(1) as f64;
        TreeStats {
            triangles: tree.triangle_count(),
            nodes: tree.nodes.len(),
            leaves,
            depth: obb.len().saturating_sub(1),
            leaf_size: tree.leaf_size,
            structure_bytes: memory.structure,
            geometry_bytes: memory.geometry,
            bytes_per_triangle: tree.bytes_per_triangle(),
            geometry_bytes_per_triangle: memory.geometry as f64 / n,
            total_bytes_per_triangle: tree.total_bytes_per_triangle(),
            obb_volume_per_level: obb,
            aabb_volume_per_level: aabb,
        }
    }
}
