//! The binary form (`.bvt`): a little-endian image a C/C++ runtime can map
//! and use in place, and a reader that validates one.
//!
//! Layout (byte by byte in `docs/export.md`): a 96-byte header — magic
//! `"BVT1"`, version, header size, flags, file size, then `(offset, count)`
//! of nine sections — followed by the sections, each starting on a 16-byte
//! boundary: volume records (128 bytes: OBB, AABB, sphere, source ids), tree
//! nodes (80 bytes: OBB, left, right, first triangle, triangle count),
//! vertices (3 × f32), triangles (3 × u32, tree order), triangle sources
//! (5 × u32), and the colliders ([`super::bin_collider`]):
//! records (104 bytes), convex vertices (3 × f32), convex triangles
//! (3 × u32) and the string table (bytes). Every shape is rounded outwards
//! to `f32` ([`crate::fit::f32_outward`], [`super::collider_f32`]).

use super::ExportDoc;
use super::bin_collider::{self, Colliders};
use crate::fit::f32_outward::orthonormality_error;
use crate::fit::f32_outward::{AabbF32, ObbF32, SphereF32};

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"BVT1";
/// The binary format's version (2 added the collider sections, 3 the
/// colliders' volume and world reason).
pub const VERSION: u32 = 3;
/// Header size in bytes.
pub const HEADER_SIZE: usize = 96;
/// Every section starts on a multiple of this.
pub const ALIGN: usize = 16;
/// Header flag: the tree sections (nodes, vertices, triangles, sources) are filled.
pub const FLAG_TREE: u32 = 1;
/// Header flag: the per-mesh volume records are in each mesh's local frame.
pub const FLAG_LOCAL_MESHES: u32 = 2;
pub use super::bin_collider::NONE;
/// How far a stored box's axes may be from orthonormal (largest entry of
/// `AᵀA − I`): the writer rounds orthonormal `f64` axes to the nearest
/// `f32`, about 1e-7 off; the tree bytes' reader allows the same.
pub use crate::tree::bytes::AXIS_TOLERANCE;

/// The nine sections, in file order: name and record stride in bytes.
const SECTIONS: [(&str, usize); 9] = [
    ("volumes", 128),
    ("nodes", 80),
    ("vertices", 12),
    ("triangles", 12),
    ("sources", 20),
    ("colliders", bin_collider::RECORD),
    ("collider vertices", 12),
    ("collider triangles", 12),
    ("strings", 1),
];

/// One volume record: the file's (first record, ids all [`NONE`]) or one
/// mesh instance's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BinVolume {
    /// The oriented box.
    pub obb: ObbF32,
    /// The axis-aligned box.
    pub aabb: AabbF32,
    /// The sphere.
    pub sphere: SphereF32,
    /// glTF node ([`NONE`] for the file record and for OBJ/STL).
    pub node: u32,
    /// GPU instance ([`NONE`] for the file record).
    pub instance: u32,
    /// Mesh ([`NONE`] for the file record).
    pub mesh: u32,
    /// Primitive ([`NONE`] for the file record).
    pub primitive: u32,
}

/// One tree node. Leaves have `left == right == 0` (node 0, the root, is
/// nobody's child); otherwise `left == index + 1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BinNode {
    /// The node's box.
    pub obb: ObbF32,
    /// First child (0 for a leaf).
    pub left: u32,
    /// Second child (0 for a leaf).
    pub right: u32,
    /// First triangle covered.
    pub first: u32,
    /// Triangles covered.
    pub count: u32,
}

/// A validated binary export, decoded.
#[derive(Clone, Debug, PartialEq)]
pub struct BinFile {
    /// Header flags ([`FLAG_TREE`], [`FLAG_LOCAL_MESHES`]).
    pub flags: u32,
    /// Volume records: the file's first, then each mesh instance's.
    pub volumes: Vec<BinVolume>,
    /// Tree nodes, root first, depth-first.
    pub nodes: Vec<BinNode>,
    /// Vertex positions.
    pub vertices: Vec<[f32; 3]>,
    /// Triangles (vertex indices), tree order.
    pub triangles: Vec<[u32; 3]>,
    /// Per triangle: node, instance, mesh, primitive, triangle.
    pub sources: Vec<[u32; 5]>,
    /// The colliders (`--shape`).
    pub colliders: Colliders,
}

/// What is wrong with a binary export.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BinError {
    /// Fewer bytes than the header or the header's file size says.
    #[error("truncated: {needed} bytes needed, {len} present")]
    Truncated {
        /// Bytes the header requires.
        needed: u64,
        /// Bytes present.
        len: usize,
    },
    /// Not a bvtool binary export.
    #[error("bad magic {0:?} (expected \"BVT1\")")]
    BadMagic([u8; 4]),
    /// A version this reader does not know.
    #[error("unsupported version {0} (this reader reads version 3; export the model again)")]
    Version(u32),
    /// A header size other than 96.
    #[error("header size {0} (expected 96)")]
    HeaderSize(u32),
    /// Unknown flag bits.
    #[error("unknown flags {0:#x}")]
    Flags(u32),
    /// The file is longer than its header says.
    #[error("file size {header} in the header but {len} bytes present")]
    SizeMismatch {
        /// Size in the header.
        header: u32,
        /// Bytes present.
        len: usize,
    },
    /// A section offset not on a 16-byte boundary.
    #[error("section {section}: offset {offset} is not 16-byte aligned")]
    Misaligned {
        /// Section name.
        section: &'static str,
        /// Its offset.
        offset: u32,
    },
    /// A section that overlaps the header or runs past the end of the file.
    #[error("section {section}: {count} records at offset {offset} do not fit in {len} bytes")]
    OutOfRange {
        /// Section name.
        section: &'static str,
        /// Its offset.
        offset: u32,
        /// Its record count.
        count: u32,
        /// File length.
        len: usize,
    },
    /// A count that contradicts another (no file volume, sources ≠ triangles, …).
    #[error("{0}")]
    Counts(String),
    /// An index that points outside its array (a child node, a triangle
    /// range, a vertex).
    #[error("{what} {index}: {field} = {value} is out of range (limit {limit})")]
    BadIndex {
        /// Kind of record.
        what: &'static str,
        /// Its index.
        index: usize,
        /// The offending field.
        field: &'static str,
        /// Its value.
        value: u64,
        /// The exclusive limit it breaks.
        limit: u64,
    },
    /// Two sections whose bytes overlap: one record would be read as two.
    #[error("sections {first} and {second} overlap (bytes {at} to {end})")]
    Overlap {
        /// The section that starts first.
        first: &'static str,
        /// The section that starts inside it.
        second: &'static str,
        /// Where the second starts.
        at: u64,
        /// Where the first ends.
        end: u64,
    },
    /// The nodes do not form a tree whose leaves partition the triangles
    /// (a node met twice or never, a leaf out of order, a range that is not
    /// its children's).
    #[error("not a tree: {0}")]
    NotATree(String),
    /// A box whose axes are not orthonormal within [`AXIS_TOLERANCE`] or
    /// whose half extents are negative.
    #[error("{what} {index}: {why}")]
    BadBox {
        /// Kind of record.
        what: &'static str,
        /// Its index.
        index: usize,
        /// What is wrong.
        why: String,
    },
    /// A NaN or infinite number in a box or vertex.
    #[error("{what} {index}: non-finite number")]
    NotFinite {
        /// Kind of record.
        what: &'static str,
        /// Its index.
        index: usize,
    },
    /// A collider record (or the collider tables, `index` `None`) that
    /// breaks a rule of [`bin_collider::validate`].
    #[error("{}: {why}", index.map_or("colliders".to_string(), |i| format!("collider {i}")))]
    Collider {
        /// The record's index.
        index: Option<usize>,
        /// What is wrong.
        why: String,
    },
}

/// Why the writer gave up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("binary export larger than 4 GiB ({0} bytes): u32 offsets cannot address it")]
pub struct TooLarge(pub u64);

struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f32(&mut self, v: f32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f32s(&mut self, v: &[f32]) {
        v.iter().for_each(|&x| self.f32(x));
    }
    fn align(&mut self) {
        while !self.0.len().is_multiple_of(ALIGN) {
            self.0.push(0);
        }
    }
    fn obb(&mut self, b: &ObbF32) {
        self.f32s(&b.center);
        b.axes.iter().for_each(|a| self.f32s(a));
        self.f32s(&b.half_extents);
        self.f32(0.0);
    }
    fn put_u32(&mut self, at: usize, v: u32) {
        self.0[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
}

/// Encodes `doc`. Boxes, spheres and colliders are rounded outwards to
/// `f32` ([`crate::fit::f32_outward`]); vertices are rounded to nearest. Without a tree the
/// four tree sections are empty, without colliders the four collider ones.
pub fn write(doc: &ExportDoc) -> Result<Vec<u8>, TooLarge> {
    let mut w = Writer(vec![0; HEADER_SIZE]);
    let local = doc.meshes.iter().any(|m| m.volumes.frame == "local");
    let flags =
        if doc.tree.is_some() { FLAG_TREE } else { 0 } | if local { FLAG_LOCAL_MESHES } else { 0 };
    let mut sections = [(0usize, 0usize); 9];

    sections[0] = (w.0.len(), 1 + doc.meshes.len());
    let ids = std::iter::once([NONE; 4]).chain(
        doc.meshes
            .iter()
            .map(|m| [m.node.unwrap_or(NONE), m.instance, m.mesh, m.primitive]),
    );
    for (v, ids) in doc.volume_sets().zip(ids) {
        w.obb(&v.obb.to_f32());
        let a = v.aabb.to_f32();
        w.f32s(&a.min);
        w.f32(0.0);
        w.f32s(&a.max);
        w.f32(0.0);
        let s = v.sphere.to_f32();
        w.f32s(&s.center);
        w.f32(s.radius);
        ids.iter().for_each(|&i| w.u32(i));
    }
    if let Some(t) = &doc.tree {
        w.align();
        sections[1] = (w.0.len(), t.nodes.len());
        for n in &t.nodes {
            w.obb(&n.obb.to_f32());
            let [l, r] = n.children.unwrap_or([0, 0]);
            [l, r, n.first_triangle, n.triangle_count]
                .iter()
                .for_each(|&x| w.u32(x));
        }
        w.align();
        sections[2] = (w.0.len(), t.vertices.len());
        t.vertices.iter().for_each(|v| w.f32s(&v.map(|x| x as f32)));
        w.align();
        sections[3] = (w.0.len(), t.triangles.len());
        t.triangles.iter().flatten().for_each(|&i| w.u32(i));
        w.align();
        sections[4] = (w.0.len(), t.sources.len());
        for s in &t.sources {
            [
                s.node.unwrap_or(NONE),
                s.instance,
                s.mesh,
                s.primitive,
                s.triangle,
            ]
            .iter()
            .for_each(|&x| w.u32(x));
        }
    }
    let c = Colliders::new(doc);
    w.align();
    sections[5] = (w.0.len(), c.records.len());
    c.records
        .iter()
        .for_each(|r| bin_collider::encode(r, &mut w.0));
    w.align();
    sections[6] = (w.0.len(), c.vertices.len());
    c.vertices.iter().for_each(|v| w.f32s(v));
    w.align();
    sections[7] = (w.0.len(), c.triangles.len());
    c.triangles.iter().flatten().for_each(|&i| w.u32(i));
    w.align();
    sections[8] = (w.0.len(), c.strings.len());
    w.0.extend_from_slice(&c.strings);
    w.align();
    let len = w.0.len();
    if len > u32::MAX as usize {
        return Err(TooLarge(len as u64));
    }
    // Empty sections point at the end of the file (in range, aligned).
    for s in sections.iter_mut().filter(|s| s.1 == 0) {
        s.0 = len;
    }
    w.0[0..4].copy_from_slice(&MAGIC);
    w.put_u32(4, VERSION);
    w.put_u32(8, HEADER_SIZE as u32);
    w.put_u32(12, flags);
    w.put_u32(16, len as u32);
    w.put_u32(20, 0);
    for (k, (off, count)) in sections.iter().enumerate() {
        w.put_u32(24 + 8 * k, *off as u32);
        w.put_u32(28 + 8 * k, *count as u32);
    }
    Ok(w.0)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn f32s<const N: usize>(b: &[u8], at: usize) -> [f32; N] {
    std::array::from_fn(|i| f32_at(b, at + 4 * i))
}

fn obb_at(b: &[u8], at: usize) -> ObbF32 {
    ObbF32 {
        center: f32s(b, at),
        axes: std::array::from_fn(|i| f32s(b, at + 12 + 12 * i)),
        half_extents: f32s(b, at + 48),
    }
}

fn finite(obb: &ObbF32) -> bool {
    obb.center
        .iter()
        .chain(obb.axes.iter().flatten())
        .chain(&obb.half_extents)
        .all(|x| x.is_finite())
}

/// A finite box's shape rules: axes orthonormal within [`AXIS_TOLERANCE`]
/// and half extents not negative.
fn check_box(what: &'static str, index: usize, obb: &ObbF32) -> Result<(), BinError> {
    let bad = |why: String| Err(BinError::BadBox { what, index, why });
    let (off, (p, q, dot)) = orthonormality_error(&obb.axes);
    if off > AXIS_TOLERANCE as f64 {
        return bad(format!(
            "OBB axes not orthonormal (axis {p}·axis {q} = {dot:e}, tolerance {AXIS_TOLERANCE:e})"
        ));
    }
    if let Some(h) = obb.half_extents.iter().find(|h| **h < 0.0) {
        return bad(format!("OBB half extent {h} is negative"));
    }
    Ok(())
}

/// The sections' byte ranges `(offset, count)` (strides of [`SECTIONS`])
/// are pairwise disjoint: sorted by offset, each non-empty one ends at or
/// before the next non-empty one starts.
fn check_disjoint(spans: &[(usize, usize); 9]) -> Result<(), BinError> {
    let mut ranges: Vec<(u64, u64, &'static str)> = spans
        .iter()
        .zip(SECTIONS)
        .filter(|(s, (_, stride))| s.1 * stride > 0)
        .map(|(s, (name, stride))| (s.0 as u64, (s.0 + s.1 * stride) as u64, name))
        .collect();
    ranges.sort_unstable();
    for w in ranges.windows(2) {
        let ((_, end, first), (at, _, second)) = (w[0], w[1]);
        if at < end {
            return Err(BinError::Overlap {
                first,
                second,
                at,
                end,
            });
        }
    }
    Ok(())
}

/// The nodes (their child links already checked locally: `left = i + 1 <
/// right < count`) form one tree in depth-first order whose leaves
/// partition `0..triangles`: a walk from the root, second children
/// stacked, meets node `k` as its `k`-th step, each node once (so every
/// node but the root has exactly one parent, and a shared child or a cycle
/// is met out of turn at once, keeping the walk linear) and the leaves'
/// ranges one after another from 0 to `triangles`; then each internal
/// node's range is the union of its children's. An empty tree has no
/// triangles.
fn check_tree(nodes: &[BinNode], triangles: usize) -> Result<(), BinError> {
    let not_a_tree = |why: String| Err(BinError::NotATree(why));
    if nodes.is_empty() {
        if triangles > 0 {
            return not_a_tree(format!("{triangles} triangles but no nodes"));
        }
        return Ok(());
    }
    let end = |n: &BinNode| n.first as u64 + n.count as u64;
    let mut stack = vec![0usize];
    let mut next = 0usize;
    let mut covered = 0u64;
    while let Some(i) = stack.pop() {
        if i != next {
            return not_a_tree(format!(
                "node {i} met where node {next} belongs (a node with two parents, or not depth-first)"
            ));
        }
        next += 1;
        let n = &nodes[i];
        if n.left == 0 {
            if n.first as u64 != covered {
                return not_a_tree(format!(
                    "leaf {i} covers triangles {}..{} where {covered}.. comes next",
                    n.first,
                    end(n)
                ));
            }
            covered = end(n);
            continue;
        }
        stack.push(n.right as usize);
        stack.push(n.left as usize);
    }
    if next != nodes.len() || covered != triangles as u64 {
        return not_a_tree(format!(
            "the walk from the root meets {next} of {} nodes and covers {covered} of {triangles} triangles",
            nodes.len()
        ));
    }
    for (i, n) in nodes.iter().enumerate().filter(|(_, n)| n.left != 0) {
        let (l, r) = (&nodes[n.left as usize], &nodes[n.right as usize]);
        if l.first != n.first || end(l) != r.first as u64 || end(r) != end(n) {
            return not_a_tree(format!(
                "node {i} covers {}..{} but its children {}..{} and {}..{}",
                n.first,
                end(n),
                l.first,
                end(l),
                r.first,
                end(r)
            ));
        }
    }
    Ok(())
}

/// Decodes and validates a binary export.
///
/// Checked, in order, before anything is allocated: length ≥ header, magic,
/// version, header size, flags, file size = length, and each section's
/// alignment and extent (offset ≥ 96, offset + count × stride ≤ length, in
/// 64-bit arithmetic so no count can overflow), and that no two sections
/// overlap. Then the contents: at least the file's volume record, one
/// source per triangle, finite numbers, boxes with orthonormal axes (within
/// [`AXIS_TOLERANCE`]) and half extents ≥ 0, child indices (`left = i + 1`,
/// `i + 1 < right < nodes`, or both 0 for a leaf), triangle ranges within
/// the triangles, the nodes forming one depth-first tree whose leaves
/// partition the triangles (every node but the root has exactly one parent;
/// checked in one linear walk, so a DAG of shared children costs no more
/// than a tree), vertex indices within the vertices, and the colliders'
/// kinds, flags, sizes, ranges, indices and names
/// ([`bin_collider::validate`]).
pub fn read(b: &[u8]) -> Result<BinFile, BinError> {
    let len = b.len();
    if len < HEADER_SIZE {
        return Err(BinError::Truncated {
            needed: HEADER_SIZE as u64,
            len,
        });
    }
    let magic: [u8; 4] = b[0..4].try_into().expect("4 bytes");
    if magic != MAGIC {
        return Err(BinError::BadMagic(magic));
    }
    match u32_at(b, 4) {
        VERSION => {}
        v => return Err(BinError::Version(v)),
    }
    let header = u32_at(b, 8);
    if header as usize != HEADER_SIZE {
        return Err(BinError::HeaderSize(header));
    }
    let flags = u32_at(b, 12);
    if flags & !(FLAG_TREE | FLAG_LOCAL_MESHES) != 0 {
        return Err(BinError::Flags(flags));
    }
    let size = u32_at(b, 16);
    if size as usize > len {
        return Err(BinError::Truncated {
            needed: size as u64,
            len,
        });
    }
    if size as usize != len {
        return Err(BinError::SizeMismatch { header: size, len });
    }
    let mut spans = [(0usize, 0usize); 9];
    for (k, (section, stride)) in SECTIONS.iter().enumerate() {
        let offset = u32_at(b, 24 + 8 * k);
        let count = u32_at(b, 28 + 8 * k);
        if !(offset as usize).is_multiple_of(ALIGN) {
            return Err(BinError::Misaligned { section, offset });
        }
        let end = offset as u64 + count as u64 * *stride as u64;
        if (offset as usize) < HEADER_SIZE || end > len as u64 {
            return Err(BinError::OutOfRange {
                section,
                offset,
                count,
                len,
            });
        }
        spans[k] = (offset as usize, count as usize);
    }
    check_disjoint(&spans)?;
    let [vols, nodes, verts, tris, srcs, cols, cverts, ctris, strs] = spans;
    if vols.1 == 0 {
        return Err(BinError::Counts(
            "no volume record (the file's is required)".into(),
        ));
    }
    if srcs.1 != tris.1 {
        return Err(BinError::Counts(format!(
            "{} sources for {} triangles",
            srcs.1, tris.1
        )));
    }
    if (flags & FLAG_TREE != 0) != (nodes.1 > 0) {
        return Err(BinError::Counts(format!(
            "tree flag {} but {} nodes",
            flags & FLAG_TREE != 0,
            nodes.1
        )));
    }

    let volumes: Vec<BinVolume> = (0..vols.1)
        .map(|i| {
            let at = vols.0 + 128 * i;
            BinVolume {
                obb: obb_at(b, at),
                aabb: AabbF32 {
                    min: f32s(b, at + 64),
                    max: f32s(b, at + 80),
                },
                sphere: SphereF32 {
                    center: f32s(b, at + 96),
                    radius: f32_at(b, at + 108),
                },
                node: u32_at(b, at + 112),
                instance: u32_at(b, at + 116),
                mesh: u32_at(b, at + 120),
                primitive: u32_at(b, at + 124),
            }
        })
        .collect();
    for (i, v) in volumes.iter().enumerate() {
        let ok = finite(&v.obb)
            && v.aabb.min.iter().chain(&v.aabb.max).all(|x| x.is_finite())
            && v.sphere.center.iter().all(|x| x.is_finite())
            && v.sphere.radius.is_finite();
        if !ok {
            return Err(BinError::NotFinite {
                what: "volume",
                index: i,
            });
        }
        check_box("volume", i, &v.obb)?;
    }

    let node_list: Vec<BinNode> = (0..nodes.1)
        .map(|i| {
            let at = nodes.0 + 80 * i;
            BinNode {
                obb: obb_at(b, at),
                left: u32_at(b, at + 64),
                right: u32_at(b, at + 68),
                first: u32_at(b, at + 72),
                count: u32_at(b, at + 76),
            }
        })
        .collect();
    let bad = |index: usize, field, value: u64, limit: u64| BinError::BadIndex {
        what: "node",
        index,
        field,
        value,
        limit,
    };
    for (i, n) in node_list.iter().enumerate() {
        if !finite(&n.obb) {
            return Err(BinError::NotFinite {
                what: "node",
                index: i,
            });
        }
        check_box("node", i, &n.obb)?;
        let count = node_list.len() as u64;
        if n.left != 0 || n.right != 0 {
            if n.left as u64 != i as u64 + 1 || n.left as u64 >= count {
                return Err(bad(i, "left", n.left as u64, count.min(i as u64 + 2)));
            }
            if n.right <= n.left || n.right as u64 >= count {
                return Err(bad(i, "right", n.right as u64, count));
            }
        }
        let end = n.first as u64 + n.count as u64;
        if n.count == 0 || end > tris.1 as u64 {
            return Err(bad(i, "first + count", end, tris.1 as u64 + 1));
        }
    }
    check_tree(&node_list, tris.1)?;

    let vertices: Vec<[f32; 3]> = (0..verts.1).map(|i| f32s(b, verts.0 + 12 * i)).collect();
    if let Some(i) = vertices
        .iter()
        .position(|v| !v.iter().all(|x| x.is_finite()))
    {
        return Err(BinError::NotFinite {
            what: "vertex",
            index: i,
        });
    }
    let triangles: Vec<[u32; 3]> = (0..tris.1)
        .map(|i| std::array::from_fn(|k| u32_at(b, tris.0 + 12 * i + 4 * k)))
        .collect();
    for (i, t) in triangles.iter().enumerate() {
        if let Some(&v) = t.iter().find(|&&v| v as usize >= vertices.len()) {
            return Err(BinError::BadIndex {
                what: "triangle",
                index: i,
                field: "vertex",
                value: v as u64,
                limit: vertices.len() as u64,
            });
        }
    }
    let sources = (0..srcs.1)
        .map(|i| std::array::from_fn(|k| u32_at(b, srcs.0 + 20 * i + 4 * k)))
        .collect();
    let records = (0..cols.1)
        .map(|i| {
            let at = cols.0 + bin_collider::RECORD * i;
            bin_collider::decode(&b[at..at + bin_collider::RECORD]).map_err(|why| {
                BinError::Collider {
                    index: Some(i),
                    why,
                }
            })
        })
        .collect::<Result<_, _>>()?;
    let colliders = Colliders {
        records,
        vertices: (0..cverts.1).map(|i| f32s(b, cverts.0 + 12 * i)).collect(),
        triangles: (0..ctris.1)
            .map(|i| std::array::from_fn(|k| u32_at(b, ctris.0 + 12 * i + 4 * k)))
            .collect(),
        strings: b[strs.0..strs.0 + strs.1].to_vec(),
    };
    bin_collider::validate(&colliders).map_err(|(index, why)| BinError::Collider { index, why })?;
    Ok(BinFile {
        flags,
        volumes,
        nodes: node_list,
        vertices,
        triangles,
        sources,
        colliders,
    })
}
