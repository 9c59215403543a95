//! Point queries on one mesh: the closest point (with its triangle,
//! barycentric coordinates and feature), the unsigned and signed distance,
//! inside or outside, and the winding number — one point at a time or a
//! batch on every core.
//!
//! Everything is in the mesh's frame and units. The closest point is the
//! exact nearest point of the nearest triangle
//! ([`crate::query::distance_point_mesh::point_mesh`] on the AABB tree,
//! then [`closest_point_triangle`]): its distance is within
//! [`rounding_bound`]`(S)` = `64·ε·S` of the true one, `S` the largest
//! absolute coordinate of the point and the mesh.
//!
//! # Inside, and the sign
//!
//! A point is **inside** where the mesh's winding number there is more than
//! ½; the signed distance is the distance, negative inside. How the
//! winding number is found depends on the mesh ([`SignMethod`], fixed when
//! the tree is built, after welding equal positions):
//! - **closed and consistently oriented** (every directed edge `a → b`
//!   matched by a `b → a`): the exact integer, by the signed crossings of
//!   an axis ray under exact predicates ([`crossing`]) — no grazing
//!   failures, no tolerance; 1 inside an outward surface, 0 outside, −1
//!   inside an inward one (which is then "outside"), 2 where two shells
//!   overlap;
//! - **closed mod 2 but not consistently oriented** (every edge used an
//!   even number of times): the parity of the crossings, exact, 1 inside;
//! - **open** (a boundary edge): the generalized winding number, by the
//!   hierarchical sum of [`winding`] with a rigorous bound on its
//!   approximation; where `value ± bound` straddles ½ the sum is refined
//!   where its bound is largest ([`winding::winding_side`]), at last over
//!   every triangle with no approximation, and that decides.
//!   What "inside" means is then the winding number's: the side the
//!   oriented surface wraps more than half around.

pub mod crossing;
pub mod solid;
pub mod winding;

use crate::mesh::TriMesh;
use crate::query::distance_point_mesh::point_mesh;
pub use crate::query::distance_point_mesh::rounding_bound;
use crate::query::pair::closest_point_triangle::{Feature, closest_point_triangle};
use crate::tree::AabbTree;
use nalgebra::Point3;
use rayon::prelude::*;
pub use winding::Winding;

/// How a mesh's inside is decided (see the module).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignMethod {
    /// Closed and consistently oriented: the exact integer winding number.
    Winding,
    /// Closed mod 2 only: the exact parity of a ray's crossings.
    Parity,
    /// Open: the generalized winding number with a bound, summed exactly
    /// where the bound cannot decide the side of ½.
    Generalized,
}

impl SignMethod {
    /// The name in JSON and Python: `"exact winding number"`, `"exact
    /// parity"` or `"generalized winding number"`.
    pub fn name(&self) -> &'static str {
        match self {
            SignMethod::Winding => "exact winding number",
            SignMethod::Parity => "exact parity",
            SignMethod::Generalized => "generalized winding number",
        }
    }
}

/// A point's nearest point of the mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Closest {
    /// The nearest point.
    pub point: Point3<f64>,
    /// Its distance from the query point.
    pub distance: f64,
    /// The triangle it lies on, as an index into the input mesh's
    /// triangles (one of the nearest, when several are equally near).
    pub triangle: u32,
    /// Its barycentric coordinates in that triangle (corner order as in
    /// the mesh).
    pub barycentric: [f64; 3],
    /// The triangle's feature it lies on.
    pub feature: Feature,
}

/// A mesh's AABB tree with what the point queries need besides: each
/// node's expansion (for the generalized winding number) and how the sign is
/// decided.
#[derive(Clone, Debug)]
pub struct PointTree {
    /// The tree.
    pub tree: AabbTree,
    moments: Vec<winding::Moments>,
    method: SignMethod,
}

impl PointTree {
    /// Builds the tree of `mesh` and decides its [`SignMethod`].
    pub fn build(mesh: &TriMesh) -> PointTree {
        PointTree::new(AabbTree::build(mesh))
    }

    /// The point queries on an AABB tree.
    pub fn new(tree: AabbTree) -> PointTree {
        let method = if crossing::edges_cancel(&tree) {
            SignMethod::Winding
        } else if crossing::edges_even(&tree) {
            SignMethod::Parity
        } else {
            SignMethod::Generalized
        };
        let moments = match method {
            SignMethod::Generalized => winding::moments(&tree),
            _ => Vec::new(),
        };
        PointTree {
            tree,
            moments,
            method,
        }
    }

    /// How the sign is decided.
    pub fn sign_method(&self) -> SignMethod {
        self.method
    }

    /// The nearest point of the mesh to `p`; `None` for an empty mesh.
    pub fn closest(&self, p: &Point3<f64>) -> Option<Closest> {
        if self.tree.nodes.is_empty() {
            return None;
        }
        let (_, slot) = point_mesh(&self.tree, p, 0.0, None);
        let c = closest_point_triangle(p, &self.tree.corners(slot as usize));
        Some(Closest {
            point: c.point,
            distance: c.distance_squared.sqrt(),
            triangle: self.tree.original[slot as usize],
            barycentric: c.barycentric,
            feature: c.feature,
        })
    }

    /// The distance from `p` to the mesh (∞ for an empty mesh).
    pub fn distance(&self, p: &Point3<f64>) -> f64 {
        point_mesh(&self.tree, p, 0.0, None).0
    }

    /// The winding number at `p` ([`SignMethod`]): exact for a closed
    /// mesh (the parity, 0 or 1, for one closed only mod 2), the
    /// hierarchical generalized winding number with its bound for an open
    /// one.
    pub fn winding_number(&self, p: &Point3<f64>) -> Winding {
        match self.method {
            SignMethod::Winding => Winding {
                value: crossing::crossings_x(&self.tree, p).0 as f64,
                bound: 0.0,
            },
            SignMethod::Parity => Winding {
                value: (crossing::crossings_x(&self.tree, p).1 % 2) as f64,
                bound: 0.0,
            },
            SignMethod::Generalized => {
                winding::winding_number(&self.tree, &self.moments, p, winding::NODE_TOLERANCE)
            }
        }
    }

    /// Whether `p` is inside: the winding number is more than ½ (see the
    /// module), decided exactly for a closed mesh and, for an open one, by
    /// a sum refined until its bound leaves ½ outside (or exact).
    pub fn contains(&self, p: &Point3<f64>) -> bool {
        if self.method != SignMethod::Generalized {
            return self.winding_number(p).value > 0.5;
        }
        winding::winding_side(&self.tree, &self.moments, p).value > 0.5
    }

    /// The distance from `p` to the mesh, negative inside ([`Self::contains`]);
    /// 0 on the surface.
    pub fn signed_distance(&self, p: &Point3<f64>) -> f64 {
        let d = self.distance(p);
        if d > 0.0 && self.contains(p) { -d } else { d }
    }
}

/// `f` at every item, in parallel on rayon's pool (runs of at least 64
/// items a task), the answers in order.
pub fn each<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    items.par_iter().with_min_len(64).map(f).collect()
}
