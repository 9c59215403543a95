//! An [`ObbTree`] as bytes: its built structure (nodes, triangle
//! permutation, welded geometry, twin table), so that a tree can be cached
//! on disk, sent to another process (the Python package pickles trees this
//! way) and read back without being built again — and a reader that
//! validates every byte it is given.
//!
//! Layout (version 1, every number little-endian): a 96-byte header, then
//! six sections back to back with no padding.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `"BVTR"` |
//! | 4 | 4 | version (`u32`, 1) |
//! | 8 | 4 | header size (`u32`, 96) |
//! | 12 | 4 | leaf size (`u32`, 1 to 8) |
//! | 16 | 8 | nodes `N` (`u64`) |
//! | 24 | 8 | vertices `V` (`u64`) |
//! | 32 | 8 | triangles `T` (`u64`) |
//! | 40 | 8 | twin entries `W` (`u64`) |
//! | 48 | 24 | origin (3 × `f64`) |
//! | 72 | 8 | reach (`f64`) |
//! | 80 | 8 | total length in bytes (`u64`) |
//! | 88 | 8 | checksum of every other byte (`u64`, [`seal`]) |
//!
//! Sections: nodes (`N` × 64 bytes: sixteen `u32` words, the in-memory
//! [`Node`] word for word), vertices (`V` × 3 `f64`), triangles (`T` × 3
//! `u32`), the permutation (`T` × `u32`, [`ObbTree::original`]), the twin
//! bits (`⌈T/64⌉` × `u64`) and the twin pairs (`W` × 2 `u32`). A tree of
//! `T` triangles at leaf size 6 takes about 58 bytes a triangle plus 24 a
//! welded vertex.

use super::node::{MAX_LEAF_SIZE, Node};
use super::obb_tree::{ObbTree, origin_and_reach};
use super::twins::Twins;
use crate::fit::Aabb;
use crate::fit::obb::f32_outward::orthonormality_error;
use nalgebra::Point3;
use rayon::prelude::*;

/// The first four bytes.
pub const MAGIC: [u8; 4] = *b"BVTR";
/// The layout's version: a reader reads only its own.
pub const VERSION: u32 = 1;
/// Header size in bytes.
pub const HEADER_SIZE: usize = 96;
/// How far a node's axes may be from orthonormal (largest entry of
/// `AᵀA − I`) and still be read: the build rounds orthonormal `f64` axes to
/// the nearest `f32`, about 1e-7 off.
pub const AXIS_TOLERANCE: f32 = 1e-5;

/// What is wrong with the bytes of a tree.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TreeBytesError {
    /// Fewer bytes than the header, or than its counts require.
    #[error("truncated: {needed} bytes needed, {len} present")]
    Truncated {
        /// Bytes required.
        needed: u64,
        /// Bytes present.
        len: usize,
    },
    /// More bytes than the header's counts require.
    #[error("{len} bytes where the header's counts make {expected}")]
    Length {
        /// Bytes the counts make.
        expected: u64,
        /// Bytes present.
        len: usize,
    },
    /// Not a bvtool tree.
    #[error("bad magic {0:?} (expected \"BVTR\": not the bytes of a bvtool tree)")]
    BadMagic([u8; 4]),
    /// A version this reader does not read.
    #[error("unsupported version {0} (this reader reads version 1; build the tree again)")]
    Version(u32),
    /// The checksum does not match the bytes: they were changed or cut.
    #[error(
        "checksum mismatch (stored {stored:#018x}, computed {computed:#018x}): the bytes are corrupted"
    )]
    Checksum {
        /// The header's checksum.
        stored: u64,
        /// The bytes' checksum.
        computed: u64,
    },
    /// A header field out of its range, or a structure that breaks a rule
    /// of [`ObbTree::from_bytes`].
    #[error("invalid tree: {0}")]
    Invalid(String),
}

fn invalid(why: impl Into<String>) -> TreeBytesError {
    TreeBytesError::Invalid(why.into())
}

/// A 64-bit checksum of `bytes`: four independent lanes over 8-byte words
/// (`h ← rotl((h ⊕ w)·K, 29)`, each step invertible, so any change of a
/// single word changes the result), folded with the length. Several GB/s,
/// so the reader's check costs a few milliseconds on a million-triangle
/// tree. Not a cryptographic hash: it detects corruption, not tampering
/// (which the structural checks of [`ObbTree::from_bytes`] keep from doing harm).
pub fn checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let step = |h: u64, w: u64| (h ^ w).wrapping_mul(K).rotate_left(29);
    let mut lanes = [K, K ^ 1, K ^ 2, K ^ 3];
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (k, lane) in lanes.iter_mut().enumerate() {
            let w = u64::from_le_bytes(block[8 * k..8 * k + 8].try_into().expect("8 bytes"));
            *lane = step(*lane, w);
        }
    }
    let mut tail = [0u8; 32];
    let rest = blocks.remainder();
    tail[..rest.len()].copy_from_slice(rest);
    for (k, lane) in lanes.iter_mut().enumerate() {
        let w = u64::from_le_bytes(tail[8 * k..8 * k + 8].try_into().expect("8 bytes"));
        *lane = step(*lane, w);
    }
    lanes.iter().fold(bytes.len() as u64, |h, &l| step(h, l))
}

/// The checksum a tree's bytes `b` (header and sections) store at offset
/// 88: [`checksum`] of the sections plus that of the header's first 88
/// bytes turned by 32 bits, so a change to any byte but the checksum's own
/// changes it.
pub fn seal(b: &[u8]) -> u64 {
    checksum(&b[HEADER_SIZE..]).wrapping_add(checksum(&b[..88]).rotate_left(32))
}

/// The section sizes in bytes for the header's counts (nodes, vertices,
/// triangles, twin pairs), in file order; `None` on overflow.
fn section_sizes(n: u64, v: u64, t: u64, w: u64) -> Option<[u64; 6]> {
    Some([
        n.checked_mul(64)?,
        v.checked_mul(24)?,
        t.checked_mul(12)?,
        t.checked_mul(4)?,
        t.div_ceil(64).checked_mul(8)?,
        w.checked_mul(8)?,
    ])
}

impl ObbTree {
    /// The tree's bytes, in the layout of `crate::tree::bytes` (version
    /// `VERSION`): what [`ObbTree::from_bytes`] reads back to the same
    /// tree, field for field and bit for bit.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (marked, first) = self.twins.parts();
        let counts = [
            self.nodes.len(),
            self.vertices.len(),
            self.triangles.len(),
            first.len(),
        ]
        .map(|c| c as u64);
        let sizes = section_sizes(counts[0], counts[1], counts[2], counts[3])
            .expect("an in-memory tree's sections fit in memory");
        let len = HEADER_SIZE as u64 + sizes.iter().sum::<u64>();
        let mut out = Vec::with_capacity(len as usize);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(HEADER_SIZE as u32).to_le_bytes());
        out.extend_from_slice(&(self.leaf_size as u32).to_le_bytes());
        counts
            .iter()
            .for_each(|c| out.extend_from_slice(&c.to_le_bytes()));
        let o = &self.origin;
        [o.x, o.y, o.z, self.reach]
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&[0; 8]);
        for n in &self.nodes {
            n.words()
                .iter()
                .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        }
        for p in &self.vertices {
            p.coords
                .iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        for i in self.triangles.iter().flatten().chain(&self.original) {
            out.extend_from_slice(&i.to_le_bytes());
        }
        marked
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        for (slot, f) in first {
            out.extend_from_slice(&slot.to_le_bytes());
            out.extend_from_slice(&f.to_le_bytes());
        }
        debug_assert_eq!(out.len() as u64, len);
        let sum = seal(&out);
        out[88..96].copy_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads the bytes [`ObbTree::to_bytes`] wrote, validating them all:
    /// never a panic, whatever the bytes.
    ///
    /// Checked, before anything large is allocated: the magic, version,
    /// header size, leaf size (1 to [`MAX_LEAF_SIZE`]), the counts (in
    /// 64-bit arithmetic, fewer than 2³¹ triangles) against the length, and
    /// the checksum. Then the structure: node 0 is the root and the nodes
    /// are in depth-first order — an internal node's first child is the
    /// next node and its second lies past it, and a walk from the root
    /// meets every node exactly once, so every node but the root has
    /// exactly one parent; the leaves, in that order, cover the triangles
    /// as consecutive ranges from 0 to `T` (a partition); every box's
    /// numbers are finite and its axes orthonormal within
    /// `AXIS_TOLERANCE`; vertex indices below `V`; the vertices finite;
    /// the permutation a permutation of `0..T`; the origin and reach those
    /// of the vertices' bounding box; each twin pair a marked slot, in
    /// increasing order, pointing at a slot no later with the same three
    /// vertices, and the marks exactly the pairs' slots. A tree with no
    /// triangles has no nodes.
    pub fn from_bytes(b: &[u8]) -> Result<ObbTree, TreeBytesError> {
        let len = b.len();
        if len < HEADER_SIZE {
            return Err(TreeBytesError::Truncated {
                needed: HEADER_SIZE as u64,
                len,
            });
        }
        let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
        let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
        let f64_at = |at: usize| f64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
        let magic: [u8; 4] = b[0..4].try_into().expect("4 bytes");
        if magic != MAGIC {
            return Err(TreeBytesError::BadMagic(magic));
        }
        match u32_at(4) {
            VERSION => {}
            v => return Err(TreeBytesError::Version(v)),
        }
        if u32_at(8) as usize != HEADER_SIZE {
            return Err(invalid(format!("header size {} (expected 96)", u32_at(8))));
        }
        let leaf_size = u32_at(12) as usize;
        if !(1..=MAX_LEAF_SIZE).contains(&leaf_size) {
            return Err(invalid(format!(
                "leaf size {leaf_size} (expected 1 to {MAX_LEAF_SIZE})"
            )));
        }
        let [n, v, t, w] = [16, 24, 32, 40].map(u64_at);
        if t >= 1 << 31 || w > t {
            return Err(invalid(format!("{t} triangles and {w} twins")));
        }
        let sizes = section_sizes(n, v, t, w)
            .ok_or_else(|| invalid(format!("counts {n}, {v}, {t}, {w} overflow")))?;
        let expected = sizes
            .iter()
            .try_fold(HEADER_SIZE as u64, |a, &s| a.checked_add(s))
            .ok_or_else(|| invalid("section sizes overflow"))?;
        if expected > len as u64 {
            return Err(TreeBytesError::Truncated {
                needed: expected,
                len,
            });
        }
        if expected != len as u64 || u64_at(80) != expected {
            return Err(TreeBytesError::Length {
                expected: u64_at(80),
                len,
            });
        }
        let computed = seal(b);
        let stored = u64_at(88);
        if stored != computed {
            return Err(TreeBytesError::Checksum { stored, computed });
        }
        // Every count now fits the bytes present, so fits in memory. The
        // sections are read and checked in parallel on the current rayon
        // pool (a million-triangle tree is about 60 MB).
        let [n, v, t, w] = [n, v, t, w].map(|c| c as usize);
        let (sections, _) = [n * 64, v * 24, t * 12, t * 4, t.div_ceil(64) * 8, w * 8]
            .iter()
            .fold((Vec::new(), HEADER_SIZE), |(mut s, at), &size| {
                s.push(&b[at..at + size]);
                (s, at + size)
            });
        let ((nodes, vertices), (triangles, original)) = rayon::join(
            || {
                rayon::join(
                    || {
                        parse(sections[0], 64, |c| {
                            Node::from_words(std::array::from_fn(|k| u32_at_slice(c, 4 * k)))
                        })
                    },
                    || {
                        parse(sections[1], 24, |c| {
                            Point3::from(std::array::from_fn(|k| f64_at_slice(c, 8 * k)))
                        })
                    },
                )
            },
            || {
                rayon::join(
                    || {
                        parse::<[u32; 3]>(sections[2], 12, |c| {
                            std::array::from_fn(|k| u32_at_slice(c, 4 * k))
                        })
                    },
                    || parse(sections[3], 4, |c| u32_at_slice(c, 0)),
                )
            },
        );
        let marked: Vec<u64> = sections[4]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        let first: Vec<(u32, u32)> = sections[5]
            .chunks_exact(8)
            .map(|c| (u32_at_slice(c, 0), u32_at_slice(c, 4)))
            .collect();
        let origin = Point3::new(f64_at(48), f64_at(56), f64_at(64));
        let reach = f64_at(72);

        check_nodes(&nodes, t)?;
        if let Some(k) = vertices
            .par_iter()
            .position_first(|p| !p.iter().all(|x| x.is_finite()))
        {
            return Err(invalid(format!("vertex {k} is not finite")));
        }
        if let Some(k) = triangles
            .par_iter()
            .position_first(|tri| tri.iter().any(|&i| i as usize >= v))
        {
            let i = triangles[k]
                .iter()
                .find(|&&i| i as usize >= v)
                .expect("found");
            return Err(invalid(format!(
                "triangle {k}: vertex {i} out of range ({v} vertices)"
            )));
        }
        let mut seen = vec![false; t];
        for (k, &o) in original.iter().enumerate() {
            match seen.get_mut(o as usize) {
                Some(s) if !*s => *s = true,
                _ => {
                    return Err(invalid(format!(
                        "permutation entry {k} = {o}: out of range or repeated"
                    )));
                }
            }
        }
        let (want_origin, want_reach) = origin_and_reach(Aabb::from_points(&vertices));
        if origin != want_origin || reach != want_reach {
            return Err(invalid(format!(
                "origin {origin:?} and reach {reach} are not those of the vertices \
                 ({want_origin:?}, {want_reach})"
            )));
        }
        check_twins(&triangles, &marked, &first)?;
        Ok(ObbTree {
            nodes,
            vertices,
            triangles,
            original,
            twins: Twins::from_parts(marked, first),
            leaf_size,
            origin,
            reach,
        })
    }
}

/// The records of `bytes`, each `size` bytes, read by `read` in parallel.
fn parse<T: Send>(bytes: &[u8], size: usize, read: impl Fn(&[u8]) -> T + Sync + Send) -> Vec<T> {
    bytes.par_chunks_exact(size).map(read).collect()
}

fn u32_at_slice(c: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(c[at..at + 4].try_into().expect("4 bytes"))
}

fn f64_at_slice(c: &[u8], at: usize) -> f64 {
    f64::from_le_bytes(c[at..at + 8].try_into().expect("8 bytes"))
}

/// The node rules of [`ObbTree::from_bytes`] for a tree of `t` triangles.
fn check_nodes(nodes: &[Node], t: usize) -> Result<(), TreeBytesError> {
    if nodes.is_empty() != (t == 0) {
        return Err(invalid(format!("{} nodes for {t} triangles", nodes.len())));
    }
    if nodes.is_empty() {
        return Ok(());
    }
    // Each box on its own (in parallel), the first bad one reported.
    let box_error = |(i, node): (usize, &Node)| {
        let b = node.bx();
        let numbers = b.center().into_iter().chain(b.half_extents());
        if !numbers
            .chain((0..3).flat_map(|k| b.axis(k)))
            .all(f32::is_finite)
        {
            return Some(format!("node {i}: a number of its box is not finite"));
        }
        let (off, (p, q, dot)) = orthonormality_error(&[0, 1, 2].map(|k| b.axis(k)));
        (off > AXIS_TOLERANCE as f64)
            .then(|| format!("node {i}: axes not orthonormal (axis {p}·axis {q} = {dot})"))
    };
    if let Some(e) = nodes.par_iter().enumerate().find_map_first(box_error) {
        return Err(invalid(e));
    }
    // The walk from the root, second children stacked: it must meet the
    // nodes in index order, each once, and the leaves' ranges one after
    // another.
    let mut stack = vec![0usize];
    let mut next = 0usize;
    let mut covered = 0u32;
    while let Some(i) = stack.pop() {
        if i != next {
            return Err(invalid(format!(
                "node {i} met where node {next} belongs (not a depth-first tree)"
            )));
        }
        next += 1;
        let node = &nodes[i];
        if node.is_leaf() {
            let r = node.leaf_range();
            if r.start != covered || r.end as usize > t {
                return Err(invalid(format!(
                    "leaf {i}: triangles {r:?} where {covered}.. comes next ({t} triangles)"
                )));
            }
            covered = r.end;
        } else {
            let right = node.right() as usize;
            if right <= i + 1 || right >= nodes.len() {
                return Err(invalid(format!(
                    "node {i}: second child {right} out of range ({} nodes)",
                    nodes.len()
                )));
            }
            stack.push(right);
            stack.push(i + 1);
        }
    }
    if next != nodes.len() || covered as usize != t {
        return Err(invalid(format!(
            "the walk from the root meets {next} of {} nodes and {covered} of {t} triangles",
            nodes.len()
        )));
    }
    Ok(())
}

/// The twin rules of [`ObbTree::from_bytes`].
fn check_twins(
    triangles: &[[u32; 3]],
    marked: &[u64],
    first: &[(u32, u32)],
) -> Result<(), TreeBytesError> {
    let set = |k: u32| {
        let mut s = triangles[k as usize];
        s.sort_unstable();
        s
    };
    let mut marks = vec![0u64; marked.len()];
    let mut last = None;
    for &(slot, f) in first {
        if slot as usize >= triangles.len() || f > slot || last.is_some_and(|l| slot <= l) {
            return Err(invalid(format!(
                "twin pair ({slot}, {f}): out of range or out of order"
            )));
        }
        if set(slot) != set(f) {
            return Err(invalid(format!(
                "twin pair ({slot}, {f}): the triangles differ"
            )));
        }
        marks[slot as usize / 64] |= 1 << (slot % 64);
        last = Some(slot);
    }
    if marks != marked {
        return Err(invalid("twin marks do not match the twin pairs"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TriMesh;

    /// A strip of 40 triangles, two of them the same triangle (twins).
    fn tree() -> ObbTree {
        let mut m = TriMesh::default();
        for k in 0..21u32 {
            let x = k as f64;
            m.vertices
                .extend([Point3::new(x, 0.0, 0.1 * x), Point3::new(x, 1.0, 0.0)]);
        }
        for k in 0..20u32 {
            let v = 2 * k;
            m.triangles.push([v, v + 1, v + 2]);
            m.triangles.push([v + 1, v + 3, v + 2]);
        }
        m.triangles[5] = m.triangles[4];
        m.sources = (0..40)
            .map(|k| crate::TriangleSource::unplaced(0, k))
            .collect();
        ObbTree::build_with(&m, 2, crate::tree::NodeFit::Quick)
    }

    /// The bytes changed by `edit` with a checksum made to match, so that
    /// only the structural checks stand between them and a tree.
    fn edited(edit: impl FnOnce(&mut Vec<u8>, &ObbTree)) -> Result<ObbTree, TreeBytesError> {
        let t = tree();
        let mut b = t.to_bytes();
        edit(&mut b, &t);
        let sum = seal(&b);
        b[88..96].copy_from_slice(&sum.to_le_bytes());
        ObbTree::from_bytes(&b)
    }

    fn put_u32(b: &mut [u8], at: usize, v: u32) {
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }

    /// Byte offset of word `k` of node `i`.
    fn word(i: usize, k: usize) -> usize {
        HEADER_SIZE + 64 * i + 4 * k
    }

    fn refused(r: Result<ObbTree, TreeBytesError>, what: &str) {
        match r {
            Err(TreeBytesError::Invalid(why)) => assert!(why.contains(what), "{why}"),
            other => panic!("expected an invalid tree ({what}), got {other:?}"),
        }
    }

    #[test]
    fn sealed_bytes_read_back() {
        let t = tree();
        assert!(!t.twins.is_empty());
        let back = edited(|_, _| {}).unwrap();
        assert_eq!(back.nodes, t.nodes);
        assert_eq!(back.to_bytes(), t.to_bytes());
    }

    /// Each structural rule of `from_bytes`, broken alone under a matching
    /// checksum.
    #[test]
    fn structural_rules_hold_under_a_valid_checksum() {
        let t = tree();
        let internal = t.nodes.iter().position(|n| !n.is_leaf()).unwrap();
        let leaf = t.nodes.iter().position(|n| n.is_leaf()).unwrap();
        let right = t.nodes[internal].right();
        refused(
            edited(|b, _| put_u32(b, word(internal, 15), right + 1)),
            "node",
        );
        refused(
            edited(|b, _| put_u32(b, word(internal, 15), 0)),
            "second child",
        );
        refused(
            edited(|b, t| put_u32(b, word(internal, 15), t.nodes.len() as u32)),
            "second child",
        );
        // A leaf's range moved on by one: the leaves no longer partition.
        refused(
            edited(|b, _| {
                let w =
                    u32::from_le_bytes(b[word(leaf, 15)..word(leaf, 15) + 4].try_into().unwrap());
                put_u32(b, word(leaf, 15), w + 1)
            }),
            "leaf",
        );
        // Axis 0 stretched to length 1.5 (its coordinates: words 0, 4, 8).
        refused(
            edited(|b, t| {
                let a = t.nodes[0].bx().axis(0);
                for (k, x) in a.iter().enumerate() {
                    put_u32(b, word(0, 4 * k), (1.5 * x).to_bits());
                }
            }),
            "orthonormal",
        );
        refused(
            edited(|b, _| put_u32(b, word(0, 12), f32::NAN.to_bits())),
            "finite",
        );
        let n = t.nodes.len();
        let v = t.vertices.len();
        let tri = HEADER_SIZE + 64 * n + 24 * v;
        refused(edited(|b, _| put_u32(b, tri, v as u32)), "vertex");
        refused(
            edited(|b, _| {
                b[HEADER_SIZE + 64 * n..HEADER_SIZE + 64 * n + 8]
                    .copy_from_slice(&f64::INFINITY.to_le_bytes())
            }),
            "vertex 0",
        );
        let perm = tri + 12 * t.triangles.len();
        refused(
            edited(|b, t| put_u32(b, perm, t.original[1])),
            "permutation",
        );
        refused(
            edited(|b, _| b[48..56].copy_from_slice(&0.5f64.to_le_bytes())),
            "origin",
        );
        let marks = perm + 4 * t.triangles.len();
        refused(edited(|b, _| b[marks] ^= 0x40), "twin");
        refused(edited(|b, _| put_u32(b, 12, 9)), "leaf size");
    }

    #[test]
    fn the_checksum_sees_every_word_and_the_length() {
        let base = vec![7u8; 77];
        let sum = checksum(&base);
        for at in 0..base.len() {
            let mut b = base.clone();
            b[at] ^= 1;
            assert_ne!(checksum(&b), sum, "byte {at}");
        }
        assert_ne!(checksum(&base[..76]), sum);
        assert_ne!(checksum(&[0; 8]), checksum(&[0; 16]));
    }
}
