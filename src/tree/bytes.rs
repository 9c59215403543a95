//! An [`ObbTree`] as bytes: its built structure (nodes, triangle
//! permutation, welded geometry, twin table), so that a tree can be cached
//! on disk, sent to another process (the Python package pickles trees this
//! way) and read back without being built again — and a reader that
//! validates every byte it is given.
//!
//! Layout (version 2, every number little-endian): a 96-byte header, then
//! six sections back to back with no padding. Version 1, which the reader
//! still reads, differs only in its checksum ([`seal`]).
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `"BVTR"` |
//! | 4 | 4 | version (`u32`, 2; 1 read too) |
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

use super::node::{MAX_LEAF_SIZE, Node, NodeBox};
use super::obb_tree::{ObbTree, origin_and_reach};
use super::twins::Twins;
use crate::fit::Aabb;
use crate::fit::f32_outward::orthonormality_error;
use crate::memory;
use nalgebra::Point3;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The first four bytes.
pub const MAGIC: [u8; 4] = *b"BVTR";
/// The layout's version, what [`ObbTree::to_bytes`] writes; the reader
/// reads it and version 1 (the same layout, its checksum serial).
pub const VERSION: u32 = 2;
/// The blocks of the sections that a version-2 checksum sums independently
/// (in parallel), 1 MiB each (the last shorter).
pub const CHECKSUM_BLOCK: usize = 1 << 20;
/// Header size in bytes.
pub const HEADER_SIZE: usize = 96;
/// How far a node's axes may be from orthonormal (largest entry of
/// `AᵀA − I`, computed in `f32`: its rounding adds under 4e-7 for axes of
/// length near 1) and still be read: the build rounds orthonormal `f64`
/// axes to the nearest `f32`, about 1e-7 off.
pub const AXIS_TOLERANCE: f32 = 1e-5;
/// Trees of at least this many bytes are read and checked on every thread
/// of the current rayon pool; smaller ones (the 69k-triangle bunny's 3.9
/// MB) on the calling thread, where waking the pool would cost more than
/// it saves.
pub const PARALLEL_BYTES: usize = 1 << 23;

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
    #[error("unsupported version {0} (this reader reads versions 1 and 2; build the tree again)")]
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

/// The checksum a tree's bytes `b` (header and sections) of layout
/// `version` store at offset 88: the sections' checksum plus [`checksum`]
/// of the header's first 88 bytes turned by 32 bits, so a change to any
/// byte but the checksum's own changes it. The sections' checksum is, in
/// version 1, [`checksum`] of them all (one serial pass); in version 2,
/// [`checksum`] of the little-endian [`checksum`]s of their
/// [`CHECKSUM_BLOCK`]-byte blocks in order (summed in parallel when
/// `par`): a change within one block changes that block's sum, so the
/// whole, and blocks swapped or cut change the sequence of sums.
pub fn seal(b: &[u8], version: u32, par: bool) -> u64 {
    let sections = &b[HEADER_SIZE..];
    let sum = if version == 1 {
        checksum(sections)
    } else {
        let sums: Vec<u64> = if par {
            sections.par_chunks(CHECKSUM_BLOCK).map(checksum).collect()
        } else {
            sections.chunks(CHECKSUM_BLOCK).map(checksum).collect()
        };
        let sums: Vec<u8> = sums.iter().flat_map(|s| s.to_le_bytes()).collect();
        checksum(&sums)
    };
    sum.wrapping_add(checksum(&b[..88]).rotate_left(32))
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
        let sum = seal(&out, VERSION, false);
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
    ///
    /// Trees of `crate::tree::bytes::PARALLEL_BYTES` (8 MiB) or more are
    /// read on every thread of the current rayon pool, smaller ones on the
    /// calling thread.
    pub fn from_bytes(b: &[u8]) -> Result<ObbTree, TreeBytesError> {
        ObbTree::read_bytes(b, b.len() >= PARALLEL_BYTES)
    }

    /// [`ObbTree::from_bytes`], in parallel when `par`.
    fn read_bytes(b: &[u8], par: bool) -> Result<ObbTree, TreeBytesError> {
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
        let version = u32_at(4);
        if !(1..=VERSION).contains(&version) {
            return Err(TreeBytesError::Version(version));
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
        let computed = seal(b, version, par);
        let stored = u64_at(88);
        if stored != computed {
            return Err(TreeBytesError::Checksum { stored, computed });
        }
        // Every count now fits the bytes present, so fits in memory. The
        // sections are read and checked in parallel on the current rayon
        // pool when the tree is large (a million-triangle tree is about 60
        // MB), each section read straight into its final vector (fresh
        // memory advised to huge pages: `crate::memory`).
        let [n, v, t, w] = [n, v, t, w].map(|c| c as usize);
        let (sections, _) = [n * 64, v * 24, t * 12, t * 4, t.div_ceil(64) * 8, w * 8]
            .iter()
            .fold((Vec::new(), HEADER_SIZE), |(mut s, at), &size| {
                s.push(&b[at..at + size]);
                (s, at + size)
            });
        // Each record is checked as it is read (while in cache): the first
        // bad box, vertex and triangle are kept for the checks below.
        let (
            ((nodes, bad_box), (vertices, bad_vertex)),
            ((triangles, bad_triangle), (original, _)),
        ) = join(
            par,
            || {
                join(
                    par,
                    || {
                        parse(
                            sections[0],
                            par,
                            |c: &[u8; 64]| Node::from_words(words(c)),
                            |node| !box_ok(node.bx()),
                        )
                    },
                    || {
                        parse(
                            sections[1],
                            par,
                            |c: &[u8; 24]| {
                                Point3::from(std::array::from_fn(|k| f64_at_slice(c, 8 * k)))
                            },
                            |p| !p.iter().all(|x| x.is_finite()),
                        )
                    },
                )
            },
            || {
                join(
                    par,
                    || {
                        parse(
                            sections[2],
                            par,
                            |c: &[u8; 12]| words::<12, 3>(c),
                            |tri| tri.iter().any(|&i| i as usize >= v),
                        )
                    },
                    || {
                        parse(
                            sections[3],
                            par,
                            |c: &[u8; 4]| u32::from_le_bytes(*c),
                            |_| false,
                        )
                    },
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

        // The serial checks, two at a time when `par`; their errors
        // reported in the order they are listed.
        let (walk, (permutation, (bounds, twins))) = join(
            par,
            || check_nodes(&nodes, t, bad_box),
            || {
                let permutation = first_out_of_range_or_repeated(&original, t);
                let bounds = origin_and_reach(Aabb::from_points(&vertices));
                (
                    permutation,
                    (bounds, check_twins(&triangles, &marked, &first)),
                )
            },
        );
        walk?;
        if let Some(k) = bad_vertex {
            return Err(invalid(format!("vertex {k} is not finite")));
        }
        if let Some(k) = bad_triangle {
            let i = triangles[k]
                .iter()
                .find(|&&i| i as usize >= v)
                .expect("found");
            return Err(invalid(format!(
                "triangle {k}: vertex {i} out of range ({v} vertices)"
            )));
        }
        if let Some(k) = permutation {
            return Err(invalid(format!(
                "permutation entry {k} = {}: out of range or repeated",
                original[k]
            )));
        }
        let (want_origin, want_reach) = bounds;
        if origin != want_origin || reach != want_reach {
            return Err(invalid(format!(
                "origin {origin:?} and reach {reach} are not those of the vertices \
                 ({want_origin:?}, {want_reach})"
            )));
        }
        twins?;
        Ok(ObbTree {
            nodes,
            vertices,
            triangles,
            original,
            twins: Twins::from_parts(marked, first),
            leaf_size,
            origin,
            reach,
            radius: Default::default(),
        })
    }
}

/// `(a(), b())`, side by side on the current rayon pool when `par`.
fn join<A: Send, B: Send>(
    par: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if par { rayon::join(a, b) } else { (a(), b()) }
}

/// The records of `bytes`, each `N` bytes, read by `read` (in parallel
/// when `par`) straight into the vector returned
/// ([`memory::with_capacity`]), and the first index of a record for which
/// `bad` holds (each tested as it is read).
fn parse<const N: usize, T: Send>(
    bytes: &[u8],
    par: bool,
    read: impl Fn(&[u8; N]) -> T + Sync + Send,
    bad: impl Fn(&T) -> bool + Sync + Send,
) -> (Vec<T>, Option<usize>) {
    let first = AtomicUsize::new(usize::MAX);
    let one = |(k, c): (usize, &[u8])| {
        let x = read(c.try_into().expect("N bytes"));
        if bad(&x) {
            first.fetch_min(k, Ordering::Relaxed);
        }
        x
    };
    let mut out = memory::with_capacity(bytes.len() / N);
    if par {
        out.par_extend(bytes.par_chunks_exact(N).enumerate().map(one));
    } else {
        out.extend(bytes.chunks_exact(N).enumerate().map(one));
    }
    let first = first.into_inner();
    (out, (first != usize::MAX).then_some(first))
}

/// The `K` little-endian `u32` words of `c` (`N = 4K` bytes).
fn words<const N: usize, const K: usize>(c: &[u8; N]) -> [u32; K] {
    std::array::from_fn(|k| u32_at_slice(c, 4 * k))
}

fn u32_at_slice(c: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(c[at..at + 4].try_into().expect("4 bytes"))
}

/// The first index `k` where `values[k]` is `n` or more or repeats an
/// earlier entry; `None` when `values` are distinct numbers below `n` (a
/// permutation of `0..n` when there are `n` of them). One bit a number.
pub(super) fn first_out_of_range_or_repeated(values: &[u32], n: usize) -> Option<usize> {
    let mut seen = vec![0u64; n.div_ceil(64)];
    values.iter().position(|&o| {
        let (word, bit) = (o as usize / 64, 1u64 << (o % 64));
        if o as usize >= n || seen[word] & bit != 0 {
            return true;
        }
        seen[word] |= bit;
        false
    })
}

fn f64_at_slice(c: &[u8], at: usize) -> f64 {
    f64::from_le_bytes(c[at..at + 8].try_into().expect("8 bytes"))
}

/// Whether a box's fifteen numbers are finite and its axes orthonormal
/// within [`AXIS_TOLERANCE`], every entry of `AᵀA − I` computed in `f32`
/// (no branch, so the compiler vectorises it; a NaN fails the comparison,
/// so an axis coordinate that is not finite fails its own axis's length
/// and only the centre and half extents are tested for finiteness).
#[inline]
fn box_ok(b: &NodeBox) -> bool {
    let a = [0, 1, 2].map(|k| b.axis(k));
    let (c, h) = (b.center(), b.half_extents());
    let mut ok = true;
    for k in 0..3 {
        ok &= c[k].is_finite() & h[k].is_finite();
    }
    for p in 0..3 {
        for q in p..3 {
            let dot = a[p][0] * a[q][0] + a[p][1] * a[q][1] + a[p][2] * a[q][2];
            let off = dot - if p == q { 1.0 } else { 0.0 };
            ok &= off.abs() <= AXIS_TOLERANCE;
        }
    }
    ok
}

/// The node rules of [`ObbTree::from_bytes`] for a tree of `t` triangles,
/// `bad_box` the first node whose box fails [`box_ok`].
fn check_nodes(nodes: &[Node], t: usize, bad_box: Option<usize>) -> Result<(), TreeBytesError> {
    if nodes.is_empty() != (t == 0) {
        return Err(invalid(format!("{} nodes for {t} triangles", nodes.len())));
    }
    if nodes.is_empty() {
        return Ok(());
    }
    // Each box on its own (as it was read), the first bad one reported: a
    // branch-free check of every box, then the words of the first that
    // fails it.
    if let Some(i) = bad_box {
        let b = nodes[i].bx();
        let numbers = b.center().into_iter().chain(b.half_extents());
        if !numbers
            .chain((0..3).flat_map(|k| b.axis(k)))
            .all(f32::is_finite)
        {
            return Err(invalid(format!(
                "node {i}: a number of its box is not finite"
            )));
        }
        let (_, (p, q, dot)) = orthonormality_error(&[0, 1, 2].map(|k| b.axis(k)));
        return Err(invalid(format!(
            "node {i}: axes not orthonormal (axis {p}·axis {q} = {dot})"
        )));
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
    /// only the structural checks stand between them and a tree; read on
    /// one thread and in parallel, with the same outcome.
    fn edited(edit: impl FnOnce(&mut Vec<u8>, &ObbTree)) -> Result<ObbTree, TreeBytesError> {
        let t = tree();
        let mut b = t.to_bytes();
        edit(&mut b, &t);
        let sum = seal(&b, VERSION, false);
        b[88..96].copy_from_slice(&sum.to_le_bytes());
        let serial = ObbTree::read_bytes(&b, false);
        let parallel = ObbTree::read_bytes(&b, true);
        match (&serial, &parallel) {
            (Ok(s), Ok(p)) => assert_eq!(s.to_bytes(), p.to_bytes()),
            (s, p) => assert_eq!(s.as_ref().err(), p.as_ref().err()),
        }
        serial
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
        // A NaN or infinite axis coordinate (words 0, 4), half extent
        // (word 7) or centre coordinate (word 13).
        for (k, x) in [
            (0, f32::NAN),
            (4, f32::INFINITY),
            (7, f32::NEG_INFINITY),
            (13, f32::INFINITY),
        ] {
            refused(
                edited(|b, _| put_u32(b, word(internal, k), x.to_bits())),
                "finite",
            );
        }
        // Axis 1 of the last node tilted towards axis 0 by 2e-5 (refused)
        // and by 5e-6 (read): the tolerance is 1e-5 on AᵀA − I.
        let last = t.nodes.len() - 1;
        for (tilt, ok) in [(2e-5f32, false), (5e-6, true)] {
            let r = edited(|b, t| {
                let (a0, a1) = (t.nodes[last].bx().axis(0), t.nodes[last].bx().axis(1));
                for k in 0..3 {
                    put_u32(b, word(last, 4 * k + 1), (a1[k] + tilt * a0[k]).to_bits());
                }
            });
            match ok {
                true => assert!(r.is_ok(), "{r:?}"),
                false => refused(r, &format!("node {last}: axes not orthonormal")),
            }
        }
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
        // Past the last triangle, still inside the last 64-bit word of the
        // reader's bit set (40 triangles).
        refused(
            edited(|b, t| put_u32(b, perm + 4, t.triangles.len() as u32)),
            "permutation entry 1 = 40",
        );
        refused(
            edited(|b, _| put_u32(b, perm, u32::MAX)),
            "permutation entry 0",
        );
        refused(
            edited(|b, _| b[48..56].copy_from_slice(&0.5f64.to_le_bytes())),
            "origin",
        );
        let marks = perm + 4 * t.triangles.len();
        refused(edited(|b, _| b[marks] ^= 0x40), "twin");
        refused(edited(|b, _| put_u32(b, 12, 9)), "leaf size");
    }

    /// A tree of `n` × `n` squares (2`n`² triangles) on a wavy sheet, built
    /// quickly: `n` = 160 makes 51,200 triangles, about 3 MB of bytes.
    fn sheet(n: u32) -> ObbTree {
        let mut m = TriMesh::default();
        for i in 0..=n {
            for j in 0..=n {
                let (x, y) = (i as f64, j as f64);
                m.vertices
                    .push(Point3::new(x, y, (0.3 * x).sin() * (0.2 * y).cos()));
            }
        }
        let at = |i: u32, j: u32| i * (n + 1) + j;
        for i in 0..n {
            for j in 0..n {
                m.triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                m.triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
            }
        }
        m.sources = (0..m.triangles.len() as u32)
            .map(|k| crate::TriangleSource::unplaced(0, k))
            .collect();
        ObbTree::build_with(&m, 6, crate::tree::NodeFit::Quick)
    }

    /// Version 2 (what `to_bytes` writes) and version 1 (the same bytes
    /// with version 1 and its serial checksum: what earlier releases
    /// wrote) read back to the same tree, serially and in parallel; a
    /// changed byte in any 1 MiB block of either, or two blocks swapped,
    /// is a checksum mismatch; so is a version field changed from 2 to 1.
    #[test]
    fn versions_1_and_2_read_and_every_block_is_checked() {
        let t = sheet(160);
        let v2 = t.to_bytes();
        assert_eq!(u32::from_le_bytes(v2[4..8].try_into().unwrap()), 2);
        let blocks = (v2.len() - HEADER_SIZE).div_ceil(CHECKSUM_BLOCK);
        assert!(blocks >= 3, "{blocks} blocks");
        let mut v1 = v2.clone();
        put_u32(&mut v1, 4, 1);
        let sum = seal(&v1, 1, false);
        v1[88..96].copy_from_slice(&sum.to_le_bytes());
        for (version, b) in [(1, &v1), (2, &v2)] {
            for par in [false, true] {
                let back = ObbTree::read_bytes(b, par).unwrap();
                assert_eq!(back.to_bytes(), v2, "version {version}");
                assert_eq!(seal(b, version, par), seal(b, version, !par));
            }
            for k in 0..blocks {
                let at = HEADER_SIZE + k * CHECKSUM_BLOCK + (k * 7919) % CHECKSUM_BLOCK;
                let mut bad = b.clone();
                let at = at.min(bad.len() - 1);
                bad[at] ^= 0x20;
                for par in [false, true] {
                    assert!(
                        matches!(
                            ObbTree::read_bytes(&bad, par),
                            Err(TreeBytesError::Checksum { .. })
                        ),
                        "version {version}, block {k}"
                    );
                }
            }
            let mut swapped = b.clone();
            let (first, second) = swapped[HEADER_SIZE..].split_at_mut(CHECKSUM_BLOCK);
            first.swap_with_slice(&mut second[..CHECKSUM_BLOCK]);
            assert!(matches!(
                ObbTree::read_bytes(&swapped, true),
                Err(TreeBytesError::Checksum { .. })
            ));
        }
        let mut mixed = v2.clone();
        put_u32(&mut mixed, 4, 1);
        assert!(matches!(
            ObbTree::from_bytes(&mixed),
            Err(TreeBytesError::Checksum { .. })
        ));
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
