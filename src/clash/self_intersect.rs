//! Self-intersection: the triangle pairs of one mesh that cut through or
//! fold over each other, with CGAL's adjacency rules
//! ([`super::adjacency`]) on vertices welded by position ([`crate::mesh::weld`]).
//!
//! The mesh's AABB tree ([`AabbTree`]: no pose turns a box inside one mesh,
//! so exact axis-aligned boxes do, and they build in a fraction of an OBB
//! tree's time) is descended against itself: a node with itself yields its
//! two children with themselves and with each other, two distinct nodes are
//! pruned when their boxes are apart and otherwise the one with more
//! triangles is split, so every unordered pair of triangles whose boxes may
//! meet is reached exactly once. Box tests come early: a child pair is
//! tested when formed (and pushed only if its boxes overlap), and in a leaf
//! pair each triangle's box is tested against the other leaf's before its
//! pairs' own boxes are compared. A pair sharing a vertex whose star is
//! certified embedded (`embedded_star`) is settled without a test, and
//! two nodes of one fan whose directions around the shared vertex are apart
//! (`fan_cone`) are dropped as boxes apart are;
//! the exact rules then read each triangle's plane (`Plane`), built once
//! before the descent. The descent is split into
//! independent node pairs near the root and run on every thread (rayon).
//! Degenerate (zero-area) triangles are reported as a pair with themselves
//! and take part in no other pair, as in CGAL.

use super::adjacency::{adjacent_planes_intersect, adjacent_triangles_intersect, is_degenerate};
use super::embedded_star::embedded_corners;
use super::fan_cone::FanCones;
use crate::mesh::weld::welded_triangles;
use crate::mesh::{Scene, TriMesh, TriangleSource};
use crate::query::pair::intersect_triangle_triangle::Plane;
use crate::threads::{Stop, Stopped, unstopped};
use crate::tree::{AabbTree, radix};
use nalgebra::Point3;
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Node pairs gathered near the root before the descent is split between
/// threads.
const TASKS: usize = 256;

/// The self-intersections of one mesh.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SelfIntersections {
    /// Intersecting pairs `(i, j)`, `i < j`, of triangle indices into the
    /// mesh, then `(d, d)` for each degenerate triangle `d`; sorted.
    pub pairs: Vec<(u32, u32)>,
    /// Degenerate triangles (also in `pairs` as `(d, d)`), ascending.
    pub degenerate: Vec<u32>,
    /// Distinct positions among the triangles' corners (vertices welded).
    pub welded_vertices: usize,
}

impl SelfIntersections {
    /// The triangles that take part in some pair, ascending.
    pub fn faces(&self) -> Vec<u32> {
        let mut f: Vec<u32> = self.pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        f.sort_unstable();
        f.dedup();
        f
    }
}

/// What every leaf test of one descent reads.
struct Ctx<'a> {
    tree: &'a AabbTree,
    /// The triangles' planes in the tree's order, built once: a triangle
    /// meets a dozen others, most of them neighbours whose tests are plane
    /// sides.
    planes: Vec<Plane>,
    /// Per triangle (tree order), bit `i` set when its corner `i`'s star is
    /// embedded (the triangles around it meet no other way than the rules
    /// allow), and [`DEGENERATE`] when it has zero area (it takes part in
    /// no pair). Flags rather than an empty box: a copy of the tree's boxes
    /// would cost more fresh memory than the flag's test costs time.
    flags: Vec<u8>,
    /// Per node, the cap of directions around a vertex all its triangles
    /// share: nodes of one fan hold that vertex in every box.
    fans: FanCones<'a>,
}

/// The flag of a degenerate triangle in [`Ctx::flags`].
const DEGENERATE: u8 = 1 << 3;

impl Ctx<'_> {
    /// Tests triangles `k` and `l` (tree order) and records the pair.
    #[inline(always)]
    fn test(&self, k: usize, l: usize, out: &mut Vec<(u32, u32)>) {
        let t = self.tree;
        if !t.boxes[k].overlaps(&t.boxes[l]) {
            return;
        }
        let flags = self.flags[k];
        if (flags | self.flags[l]) & DEGENERATE != 0 {
            return;
        }
        // The tree's vertex indices are welded ids: equal positions, one id.
        let (ids, planes) = (&t.triangles, &self.planes);
        if self.share_embedded(&ids[k], flags, &ids[l]) {
            return;
        }
        if adjacent_planes_intersect(&planes[k], &ids[k], &planes[l], &ids[l]) {
            let (a, b) = (t.original[k], t.original[l]);
            out.push((a.min(b), a.max(b)));
        }
    }

    /// Whether triangles with welded ids `a` and `b` share a corner of `a`
    /// marked in `embedded` (bit `i`: corner `i`'s star is embedded; higher
    /// bits ignored).
    /// Without branches: nearly every pair the descent tests is a pair of
    /// neighbours on a mesh whose stars are nearly all embedded.
    #[inline]
    fn share_embedded(&self, a: &[u32; 3], embedded: u8, b: &[u32; 3]) -> bool {
        let mut shared = 0u8;
        for (i, v) in a.iter().enumerate() {
            shared |= (((*v == b[0]) | (*v == b[1]) | (*v == b[2])) as u8) << i;
        }
        shared & embedded != 0
    }

    /// Pushes the node pair `(i, j)`, `i ≠ j`, when their boxes overlap and
    /// they are not two parts of a fan apart around its vertex (tested
    /// here, not when popped: most pairs offered are apart).
    #[inline]
    fn offer(&self, i: u32, j: u32, stack: &mut Vec<(u32, u32)>) {
        let nodes = &self.tree.nodes;
        if nodes[i as usize].bx.overlaps(&nodes[j as usize].bx) && !self.fans.apart(i, j) {
            stack.push((i, j));
        }
    }

    /// One step of the descent on node pair `(i, j)` (a node with itself,
    /// or two nodes whose boxes overlap): leaf work goes to `out`, child
    /// pairs to `stack`.
    fn step(&self, i: u32, j: u32, stack: &mut Vec<(u32, u32)>, out: &mut Vec<(u32, u32)>) {
        let (a, b) = (&self.tree.nodes[i as usize], &self.tree.nodes[j as usize]);
        if i == j {
            if a.is_leaf() {
                let (s, n) = (a.start as usize, a.count as usize);
                let caps = self.fans.leaf_caps(i, i);
                for k in s..s + n {
                    for l in k + 1..s + n {
                        if !caps.as_ref().is_some_and(|c| c.apart(k, c, l)) {
                            self.test(k, l, out);
                        }
                    }
                }
            } else {
                stack.extend([(i + 1, i + 1), (a.right, a.right)]);
                self.offer(i + 1, a.right, stack);
            }
            return;
        }
        if !a.is_leaf() && (b.is_leaf() || a.count >= b.count) {
            self.offer(i + 1, j, stack);
            self.offer(a.right, j, stack);
        } else if !b.is_leaf() {
            self.offer(i, j + 1, stack);
            self.offer(i, b.right, stack);
        } else {
            let (sa, sb) = (a.start as usize, b.start as usize);
            // Two leaves of one fan: each triangle's directions, to drop
            // the pairs that meet only at the fan's vertex.
            let caps = self.fans.leaf_caps(i, j).zip(self.fans.leaf_caps(j, i));
            for k in sa..sa + a.count as usize {
                // Most of a leaf's triangles miss the other leaf's box.
                if !self.tree.boxes[k].overlaps(&b.bx) {
                    continue;
                }
                for l in sb..sb + b.count as usize {
                    if !caps.as_ref().is_some_and(|(ca, cb)| ca.apart(k, cb, l)) {
                        self.test(k, l, out);
                    }
                }
            }
        }
    }
}

/// The self-intersections of the mesh `tree` was built from.
///
/// # Guarantees
/// Exact, with CGAL's rules: two triangles of the mesh are reported when
/// they share a point other than a shared vertex or edge; degenerate
/// triangles are listed apart.
///
/// ```
/// use bvtool::clash::self_intersections;
/// use bvtool::load::load;
/// use bvtool::tree::AabbTree;
///
/// let mesh = load("models/torus.obj".as_ref(), &Default::default())?.flatten();
/// assert!(self_intersections(&AabbTree::build(&mesh)).pairs.is_empty());
/// # Ok::<(), bvtool::Error>(())
/// ```
pub fn self_intersections(tree: &AabbTree) -> SelfIntersections {
    self_intersections_at_most(tree, usize::MAX).expect("no limit")
}

/// [`self_intersections`], giving up with [`Stopped`] (and no answer)
/// when `stop` is set: checked between the passes over all triangles and
/// at every node pair of the descent (beside the pair limit's own count,
/// read there already), so a thread goes at most one node pair — a leaf
/// pair's few dozen triangle tests — between checks. Never stopped, the
/// answer is [`self_intersections`]'.
pub fn self_intersections_until(
    tree: &AabbTree,
    stop: Stop<'_>,
) -> Result<SelfIntersections, Stopped> {
    search(tree, usize::MAX, stop).map(|found| found.expect("no limit"))
}

/// [`self_intersections`], but `None` as soon as more than `max`
/// intersecting pairs are found: every pair of n stacked copies of a
/// triangle intersects, n²/2 pairs, so the descent stops rather than hold
/// them. Memory: the planes, flags and fan caps (about 60 bytes a
/// triangle) and 8 bytes a pair, at most `max` pairs (and a leaf pair's
/// worth more per thread).
pub fn self_intersections_at_most(tree: &AabbTree, max: usize) -> Option<SelfIntersections> {
    unstopped(|stop| search(tree, max, stop))
}

/// [`self_intersections_at_most`], stopped by `stop`
/// ([`self_intersections_until`]).
fn search(
    tree: &AabbTree,
    max: usize,
    stop: Stop<'_>,
) -> Result<Option<SelfIntersections>, Stopped> {
    // The stars' certificate begins with a sequential pass: beside the
    // planes, not before them.
    let ((planes, fans), mut flags) = rayon::join(
        || -> (Vec<Plane>, FanCones) {
            rayon::join(
                || {
                    (0..tree.triangles.len())
                        .into_par_iter()
                        .map(|k| Plane::new(&tree.corners(k)))
                        .collect()
                },
                || FanCones::new(tree),
            )
        },
        || embedded_corners(tree),
    );
    flags
        .par_iter_mut()
        .zip(&planes)
        .for_each(|(f, p)| *f |= DEGENERATE * p.degenerate() as u8);
    stop.check()?;
    let ctx = Ctx {
        tree,
        planes,
        flags,
        fans,
    };
    let mut pairs = Vec::new();
    if !tree.nodes.is_empty() {
        // Breadth-first near the root until there is work for every thread.
        let mut tasks = vec![(0u32, 0u32)];
        while !tasks.is_empty() && tasks.len() < TASKS {
            let mut next = Vec::with_capacity(tasks.len() * 3);
            for &(i, j) in &tasks {
                ctx.step(i, j, &mut next, &mut pairs);
            }
            tasks = next;
        }
        // Pairs found by every thread, counted as each leaf pair adds to
        // them; past `max` every thread stops, and when asked to.
        let total = AtomicUsize::new(pairs.len());
        let found: Vec<Vec<(u32, u32)>> = tasks
            .par_iter()
            .map(|&task| {
                let (mut stack, mut out) = (vec![task], Vec::new());
                while let Some((i, j)) = stack.pop() {
                    let before = out.len();
                    ctx.step(i, j, &mut stack, &mut out);
                    let added = out.len() - before;
                    if added > 0 && total.fetch_add(added, Ordering::Relaxed) + added > max {
                        break;
                    }
                    if total.load(Ordering::Relaxed) > max || stop.is_set() {
                        break;
                    }
                }
                out
            })
            .collect();
        // A stopped descent left node pairs out: nothing of it is kept.
        stop.check()?;
        if total.into_inner() > max {
            return Ok(None);
        }
        pairs.extend(found.into_iter().flatten());
    }
    if pairs.len() > max {
        return Ok(None);
    }
    let mut degenerate: Vec<u32> = (0..tree.triangles.len())
        .filter(|&k| ctx.flags[k] & DEGENERATE != 0)
        .map(|k| tree.original[k])
        .collect();
    degenerate.sort_unstable();
    pairs.extend(degenerate.iter().map(|&d| (d, d)));
    radix::sort_by_key(&mut pairs, |&(a, b)| (a as u64) << 32 | b as u64);
    Ok(Some(SelfIntersections {
        pairs,
        degenerate,
        welded_vertices: tree.vertices.len(),
    }))
}

/// The same answer by brute force: every pair of triangles with an exact
/// axis-aligned box prefilter and the same rules. Quadratic: for checking.
pub fn self_intersections_brute_force(mesh: &TriMesh) -> SelfIntersections {
    let (welded, _) = welded_triangles(&mesh.vertices, &mesh.triangles);
    let welded_vertices = welded.iter().flatten().collect::<HashSet<_>>().len();
    let tris: Vec<_> = (0..mesh.triangles.len())
        .map(|i| mesh.triangle(i))
        .collect();
    let degenerate: Vec<u32> = (0..tris.len() as u32)
        .filter(|&i| is_degenerate(&tris[i as usize]))
        .collect();
    let bounds = |t: &[Point3<f64>; 3]| (t[0].inf(&t[1]).inf(&t[2]), t[0].sup(&t[1]).sup(&t[2]));
    let mut pairs: Vec<(u32, u32)> = degenerate.iter().map(|&d| (d, d)).collect();
    for i in 0..tris.len() {
        let (lo, hi) = bounds(&tris[i]);
        for j in i + 1..tris.len() {
            let (blo, bhi) = bounds(&tris[j]);
            let apart = (0..3).any(|k| blo[k] > hi[k] || lo[k] > bhi[k]);
            if apart
                || degenerate.binary_search(&(i as u32)).is_ok()
                || degenerate.binary_search(&(j as u32)).is_ok()
            {
                continue;
            }
            if adjacent_triangles_intersect(&tris[i], &welded[i], &tris[j], &welded[j]) {
                pairs.push((i as u32, j as u32));
            }
        }
    }
    pairs.sort_unstable();
    SelfIntersections {
        pairs,
        degenerate,
        welded_vertices,
    }
}

/// Each mesh of `scene` in its own frame, all its primitives together (a
/// glTF mesh placed by several nodes is taken once), with its index and
/// name, in file order.
pub fn local_meshes(scene: &Scene) -> Vec<(u32, Option<String>, TriMesh)> {
    let mut out: Vec<(u32, Option<String>, TriMesh)> = Vec::new();
    let mut first_node = std::collections::HashMap::new();
    for inst in &scene.instances {
        let owner = *first_node
            .entry(inst.mesh)
            .or_insert((inst.node, inst.instance));
        if owner != (inst.node, inst.instance) {
            continue;
        }
        let k = match out.iter().position(|(m, _, _)| *m == inst.mesh) {
            Some(k) => k,
            None => {
                out.push((
                    inst.mesh,
                    inst.mesh_name.as_deref().map(str::to_owned),
                    TriMesh::default(),
                ));
                out.len() - 1
            }
        };
        let mesh = &mut out[k].2;
        let g = &inst.geometry;
        let base = mesh.vertices.len() as u32;
        mesh.vertices.extend_from_slice(&g.positions);
        mesh.triangles
            .extend(g.triangles.iter().map(|t| t.map(|i| i + base)));
        mesh.sources
            .extend((0..g.triangles.len() as u32).map(|t| TriangleSource {
                node: None,
                instance: 0,
                mesh: inst.mesh,
                primitive: inst.primitive,
                triangle: t,
            }));
    }
    out.retain(|(_, _, m)| !m.triangles.is_empty());
    out
}
