//! Structural checks of the OBB tree on synthetic meshes: every node's box
//! contains every corner of its triangles, children partition their parent's
//! range, the permutation is one, degenerate triangles are kept, and the
//! statistics match a direct walk.

use bvtool_dev as common;

use bvtool::TriMesh;
use bvtool::fit::Aabb;
use bvtool::tree::{DEFAULT_LEAF_SIZE, MAX_LEAF_SIZE, Node, NodeFit, ObbTree, TreeStats};
use nalgebra::{Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn soup(n: usize, seed: u64) -> TriMesh {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut m = TriMesh::default();
    for k in 0..n {
        // A stretched, rotated cloud so that OBBs differ from AABBs.
        let s: f64 = rng.random_range(-1.0..1.0);
        let c = Point3::new(
            10.0 * s,
            10.0 * s + rng.random::<f64>(),
            rng.random::<f64>(),
        );
        let mut p =
            || c + Vector3::new(rng.random(), rng.random(), rng.random()).map(|x: f64| x * 0.3);
        let (a, b) = (p(), p());
        let third = if k % 9 == 0 { a } else { p() }; // some degenerate
        let base = m.vertices.len() as u32;
        m.vertices.extend([a, b, third]);
        m.triangles.push([base, base + 1, base + 2]);
        m.sources
            .push(bvtool::TriangleSource::unplaced(0, k as u32));
    }
    m
}

#[test]
fn structure_and_containment() {
    // Leaf sizes past `MAX_LEAF_SIZE` are taken down to it.
    let cases = [
        (1, 2),
        (5, 1),
        (1000, 1),
        (1000, 4),
        (9000, 6),
        (3000, 8),
        (300, 20),
    ];
    for ((n, leaf), fit) in cases
        .into_iter()
        .flat_map(|c| [(c, NodeFit::Quick), (c, NodeFit::Flush)])
    {
        let mesh = soup(n, n as u64);
        let tree = ObbTree::build_with(&mesh, leaf, fit);
        let mut seen = vec![false; n];
        for (k, &o) in tree.original.iter().enumerate() {
            assert!(!seen[o as usize]);
            seen[o as usize] = true;
            assert_eq!(tree.corners(k), mesh.triangle(o as usize));
        }
        assert!(
            seen.iter().all(|&s| s),
            "every triangle, degenerate ones too"
        );
        let mut leaves = 0;
        let ranges = tree.ranges();
        for (i, node) in tree.nodes.iter().enumerate() {
            for t in tree.range_triangles(ranges[i].clone()) {
                for p in &t {
                    assert!(contains(&tree, node, p), "corner outside node {i}");
                }
            }
            assert!(is_rotation(node));
            if node.is_leaf() {
                leaves += 1;
                assert_eq!(node.leaf_range(), ranges[i]);
                assert!((1..=leaf.min(MAX_LEAF_SIZE)).contains(&ranges[i].len()));
            } else {
                let (l, r) = (&ranges[i + 1], &ranges[node.right() as usize]);
                assert!(i + 1 < node.right() as usize);
                assert_eq!(l.start, ranges[i].start);
                assert_eq!(r.start, l.end);
                assert_eq!(r.end, ranges[i].end);
                assert!(!l.is_empty() && !r.is_empty());
            }
        }
        let stats = TreeStats::of(&tree);
        assert_eq!(stats.nodes, tree.nodes.len());
        assert_eq!(stats.leaves, leaves);
        assert_eq!(stats.nodes, 2 * leaves - 1);
        assert_eq!(stats.obb_volume_per_level[0], tree.nodes[0].bx().volume());
        let all = Aabb::from_points(&mesh.vertices).unwrap();
        assert_eq!(stats.aabb_volume_per_level[0], all.volume());
        assert!(stats.depth + 1 == stats.obb_volume_per_level.len());
        assert!(stats.depth >= (leaves as f64).log2().ceil() as usize);
        // Nodes, then 4 bytes a triangle of permutation and a bit of twin
        // table (the soup has no twins); geometry: 12 bytes a triangle of
        // indices, 24 a vertex. Memory is counted as allocated, and a `Vec`
        // collected in parallel holds room for at least 4: exact from 4
        // triangles on.
        assert!(tree.twins.is_empty());
        let geometry = 12 * n + 24 * tree.vertices.len();
        let structure = tree.nodes.len() * std::mem::size_of::<bvtool::tree::Node>()
            + 4 * n
            + 8 * n.div_ceil(64);
        if n >= 4 {
            assert_eq!(stats.structure_bytes, structure);
            assert_eq!(stats.geometry_bytes, geometry);
            assert_eq!(
                stats.geometry_bytes_per_triangle,
                geometry as f64 / n as f64
            );
            assert_eq!(stats.bytes_per_triangle, structure as f64 / n as f64);
            assert_eq!(
                tree.total_bytes_per_triangle(),
                (structure + geometry) as f64 / n as f64
            );
        }
        if n >= 1000 {
            // The diagonal cloud: an oriented root box is much tighter.
            assert!(stats.obb_volume_per_level[0] < 0.5 * stats.aabb_volume_per_level[0]);
        }
    }
}

/// Whether the node's box contains `p`: its world-frame `f64` form, and its
/// stored `f32` form (relative to the tree's origin) tested both in `f64`
/// and in `f32` (the box is rounded outwards for both).
fn contains(tree: &ObbTree, node: &Node, p: &Point3<f64>) -> bool {
    let b = node.bx().to_obb_f32();
    let q = p - tree.origin;
    tree.node_box(node).contains(p, 0.0)
        && b.contains_f64(q.into())
        && b.contains_f32(q.map(|x| x as f32).into())
}

/// Whether the node's `f32` axes are a rotation to `f32` rounding.
fn is_rotation(node: &Node) -> bool {
    let b = node.bx().to_obb_f32();
    let m = nalgebra::Matrix3::from_columns(&b.axes.map(bvtool::fit::f32_outward::v64));
    (m.determinant() - 1.0).abs() < 1e-6
        && (m.tr_mul(&m) - nalgebra::Matrix3::identity()).amax() < 1e-6
}

#[test]
fn empty_mesh_gives_empty_tree() {
    let tree = ObbTree::build(&TriMesh::default());
    assert!(tree.nodes.is_empty());
    let s = TreeStats::of(&tree);
    assert_eq!((s.nodes, s.depth, s.leaves), (0, 0, 0));
}

/// Near-degenerate slivers (third corner within a few ulps of the first
/// edge's line) and proper triangles, one per leaf: every leaf's box is a
/// rotation and contains its triangle's corners.
#[test]
fn sliver_leaves_contain_their_corners() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut m = TriMesh::default();
    for k in 0..2000u32 {
        let a = Point3::new(rng.random(), rng.random(), rng.random()) * 10.0;
        let d = Vector3::new(rng.random(), rng.random(), rng.random());
        let off = [1e-15, 1e-12, 1e-9, 0.3][k as usize % 4];
        let third = a + d * rng.random::<f64>() + Vector3::new(off, -off, off * 0.5);
        let base = m.vertices.len() as u32;
        m.vertices.extend([a, a + d, third]);
        m.triangles.push([base, base + 1, base + 2]);
        m.sources.push(bvtool::TriangleSource::unplaced(0, k));
    }
    let tree = ObbTree::build_with_leaf_size(&m, 1);
    for (node, range) in tree.nodes.iter().zip(tree.ranges()) {
        assert!(is_rotation(node));
        for t in tree.range_triangles(range) {
            for p in &t {
                assert!(contains(&tree, node, p), "{t:?} outside {:?}", node.bx());
            }
        }
    }
}

/// The tree's geometry is the mesh's vertices welded: the torus written
/// with three fresh vertices per triangle (as STL does) and with unused
/// ones gives the same 1,152 vertices as the indexed file, every corner
/// equal to the mesh's, and 24 bytes of geometry a triangle.
#[test]
fn vertices_are_welded_and_shared() {
    let torus = common::repo_scene("torus.obj").flatten();
    let mut soup = TriMesh::default();
    soup.vertices.push(Point3::new(1e3, 0.0, 0.0)); // unused
    for (k, t) in torus.triangles.iter().enumerate() {
        let base = soup.vertices.len() as u32;
        soup.vertices.extend(t.map(|i| torus.vertices[i as usize]));
        soup.triangles.push([base, base + 1, base + 2]);
        soup.sources
            .push(bvtool::TriangleSource::unplaced(0, k as u32));
    }
    for mesh in [&torus, &soup] {
        let tree = ObbTree::build(mesh);
        assert_eq!(tree.vertices.len(), 1152);
        let distinct: std::collections::HashSet<_> = tree
            .vertices
            .iter()
            .map(|p| p.coords.map(f64::to_bits).data.0)
            .collect();
        assert_eq!(distinct.len(), 1152);
        for (k, &o) in tree.original.iter().enumerate() {
            assert_eq!(tree.corners(k), mesh.triangle(o as usize));
        }
        assert_eq!(TreeStats::of(&tree).geometry_bytes_per_triangle, 24.0);
        assert!(tree.twins.is_empty());
    }
}

/// A long prism whose cross-section is an equilateral triangle (side 1,
/// length 6), turned and moved: its surface covariance is isotropic across
/// the axis, so the covariance frame's two short axes fall anywhere. The
/// flush refit turns them to the least rectangle of the triangle (a side
/// by its height), so the root box is the least box about the axis; the
/// quick box is larger.
#[test]
fn flush_boxes_find_the_least_rectangle_about_an_axis() {
    let (side, length, segments) = (1.0, 6.0, 12);
    let rotation = nalgebra::UnitQuaternion::from_euler_angles(0.7, -1.1, 2.3);
    let shift = Vector3::new(3.0, -40.0, 7.5);
    let mut mesh = TriMesh::default();
    let corner = |i: usize, z: f64| {
        let a = std::f64::consts::TAU * i as f64 / 3.0 + 0.4;
        let r = side / 3f64.sqrt();
        rotation * Point3::new(r * a.cos(), r * a.sin(), z) + shift
    };
    let mut quad = |p: [Point3<f64>; 4]| {
        let base = mesh.vertices.len() as u32;
        mesh.vertices.extend(p);
        for t in [[0, 1, 2], [0, 2, 3]] {
            mesh.triangles.push(t.map(|k| base + k));
            let k = mesh.sources.len() as u32;
            mesh.sources.push(bvtool::TriangleSource::unplaced(0, k));
        }
    };
    for i in 0..3 {
        for s in 0..segments {
            let (z0, z1) = (
                length * s as f64 / segments as f64,
                length * (s + 1) as f64 / segments as f64,
            );
            quad([
                corner(i, z0),
                corner(i + 1, z0),
                corner(i + 1, z1),
                corner(i, z1),
            ]);
        }
    }
    assert!((9..=4096).contains(&mesh.triangles.len()));
    let least = length * side * side * 3f64.sqrt() / 2.0;
    let root = |fit| {
        let tree = ObbTree::build_with(&mesh, DEFAULT_LEAF_SIZE, fit);
        tree.node_box(&tree.nodes[0]).volume()
    };
    let (flush, quick) = (root(NodeFit::Flush), root(NodeFit::Quick));
    // The f32 node box is grown by its rounding margins, about 1e-5 here.
    assert!(
        flush >= least && flush < least * (1.0 + 1e-4),
        "flush root {flush}, least {least}"
    );
    assert!(quick > least * 1.01, "quick root {quick}, least {least}");
}

/// Small meshes get leaves of 2 by default, others of `DEFAULT_LEAF_SIZE`,
/// from `SMALL_TREE` triangles on.
#[test]
fn default_leaves_follow_the_triangle_count() {
    use bvtool::tree::{SMALL_TREE, default_leaf_size};
    assert_eq!(default_leaf_size(1), 2);
    assert_eq!(default_leaf_size(SMALL_TREE - 1), 2);
    assert_eq!(default_leaf_size(SMALL_TREE), DEFAULT_LEAF_SIZE);
    for (n, leaf) in [(100, 2), (SMALL_TREE, DEFAULT_LEAF_SIZE)] {
        let tree = ObbTree::build(&soup(n, 3));
        assert_eq!(tree.leaf_size, leaf);
        let leaves = tree.nodes.iter().filter(|n| n.is_leaf());
        assert!(leaves.map(|n| n.leaf_range().len()).all(|k| k <= leaf));
    }
}
