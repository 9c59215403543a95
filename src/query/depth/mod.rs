//! How deep two meshes overlap: the signed distance between two meshes at a
//! pose, the protrusion depth, its witness points and contact normal.
//!
//! # The definition
//!
//! For meshes A and B at a pose, with `∂X` a mesh's surface and `inside(X)`
//! its solid ([`PointTree::contains`](crate::query::PointTree::contains): the winding number is more than ½ —
//! exact for closed meshes, the generalized winding number for open ones),
//! the **protrusion of A into B** is
//!
//! `D(A→B) = max { dist(x, ∂B) : x ∈ ∂A ∩ inside(B) }` (0 for an empty set),
//!
//! and the **depth** is `max(D(A→B), D(B→A))`, reported with the side that
//! protrudes. The **signed distance** is the exact minimum distance
//! ([`crate::query::distance`]) when the depth is 0, and `−depth` otherwise
//! — so a mesh wholly inside another (surfaces apart) gets a negative
//! answer too. The witnesses are the deep point and its nearest point on
//! the other surface; the normal is the unit direction B moves along to
//! separate them, `point_b − point_a = signed_distance·normal` (see
//! [`SignedDistance`]). This is the protrusion IfcClash defines ("the
//! innermost vertex of A enveloped by B, to the nearest face of B") taken
//! over the whole surface, not its vertices; it is not the translational
//! penetration depth (the shortest move that separates the solids), which
//! can be larger.
//!
//! # Vertices do not suffice
//!
//! A box A of 4 × 4 × 0.2 lying flat through the middle of a cube B of
//! side 2 (A's large faces at heights ±0.1 about B's centre): every vertex
//! of A is outside B, yet A's top face passes through B, and its point
//! above B's centre is 0.9 from B's surface. The deepest point of a face
//! can be interior to it: the search runs over the faces, not the corners.
//!
//! # The search and its guarantee
//!
//! `dist(·, ∂B)` is 1-Lipschitz. Each triangle of A whose box meets B's box
//! (in B's frame) is searched best-first: a sub-triangle carries an upper
//! bound on the depth over it — the least of the Lipschitz bound
//! `min_i (d_i + max_k |p_k − p_i|)` over its corners `p_i` at distances
//! `d_i`, and a convex bound (the distances to the corners'
//! nearest triangles of B, interpolated: exact over a flat bottom) — and is
//! split into four at its edges' midpoints while that bound beats the
//! deepest corner found inside B by more than the tolerance. A sub-triangle
//! of a closed B is dropped when one of its corners is outside B and
//! farther from ∂B than the sub-triangle reaches from it (the ball around
//! it misses ∂B, so the sub-triangle is all outside). Every corner
//! measured is a point of ∂A: its distance ([`distance_point_mesh`]) and
//! inside test are exact, so the depth reported is attained, and the true
//! depth lies in `[depth, depth + bound]` with `bound` ≤ the tolerance —
//! unless the split cap ([`DepthOptions::max_splits`]) stops the search,
//! when the bound achieved is reported with `capped` (rounding of the point
//! distances aside: `64·ε·S`, `S` the largest coordinate). For an open B the
//! inside may change off its surface, so nothing is dropped but by the
//! bound: the search costs more.
//!
//! [`distance_point_mesh`]: crate::query::distance_point_mesh

mod bound;
mod protrusion;
mod signed;

pub use protrusion::{DepthOptions, MAX_SPLITS, Protrusion, protrusion};
pub use signed::{
    DEFAULT_RELATIVE_TOLERANCE, DepthSettings, Overlap, Protruding, SignedDistance, SignedOptions,
    Solid, diagonal, overlap, overlap_into, signed_distance,
};
