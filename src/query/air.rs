//! Air: the largest distance from a bounding shape's surface to the mesh it
//! bounds — how far from the model a runtime colliding with the shape may
//! report contact.
//!
//! The exact supremum over a continuous surface is found to a stated
//! bound by a branch-and-bound search over surface samples. The distance
//! to the mesh, `d(x)`, is 1-Lipschitz: if every point of a piece of the
//! surface lies within `ρ` of a sample `s`, then `d ≤ d(s) + ρ` on that
//! piece. The surface is covered by triangles ([`Surface`]: the faces of a
//! polytope containing the shape, projected onto it, which keeps covering
//! radii); each triangle is sampled at its centroid `g`, projected onto the
//! shape, with `ρ` = the centroid's largest distance to the triangle's
//! corners (the farthest point of a triangle from any point is a corner).
//! On a polytope's own faces a second bound holds: the distance to one
//! mesh triangle `M` is a convex function, so its largest value over a
//! surface triangle is at a corner, and `d ≤ max over corners of
//! dist(corner, M)` for `M` the mesh triangle nearest the sample — 0 where
//! the surface lies on the mesh (a box's faces on a box-shaped model),
//! which the Lipschitz bound alone never proves. A triangle's bound is the
//! lesser of the two. The largest `d(s)` seen is a **lower bound** of the
//! supremum (it is the distance of a surface point); the largest bound over
//! the triangles not yet split is an **upper bound**. The triangle of the highest upper
//! bound is split at the midpoint of its longest edge, until the two bounds
//! are within the tolerance asked or the sample budget is spent; triangles
//! whose upper bound falls below the lower bound are dropped, so the work
//! goes where the surface is far from the mesh.
//!
//! Each sample's distance is the exact point–triangle distance over the
//! mesh through its AABB tree ([`point_mesh`]), stopped early once it
//! proves the triangle can be dropped. Reported: the lower bound and the
//! gap to the upper bound (plus twice the point–triangle rounding bound,
//! `64·ε·S` with `S` the largest coordinate, for the rounding of the
//! samples and of their distances): the true air lies in
//! `[air, air + bound]`, in the model's units.
//!
//! A decomposition's air is that of every part's surface together (the
//! largest over the parts): the union's boundary lies in the parts'
//! boundaries, so this bounds the union's air from above; where a part's
//! surface lies inside another part it may count air that the union does
//! not have.

use crate::fit::surface::Surface;
use crate::query::cells::{Ranked, halves};
use crate::query::distance_point_mesh::{point_mesh, point_triangle, rounding_bound};
use crate::tree::AabbTree;
use nalgebra::Point3;
use serde::Serialize;
use std::collections::BinaryHeap;

/// The air of a shape: the supremum lies in `[air, air + bound]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Air {
    /// The largest distance found from a surface point to the mesh (a
    /// lower bound of the supremum).
    pub air: f64,
    /// How much more the supremum can be (the search's gap plus rounding).
    pub bound: f64,
    /// Surface samples measured.
    pub samples: usize,
}

/// How far the search goes.
#[derive(Clone, Copy, Debug)]
pub struct AirOptions {
    /// Stop once the upper bound is within this of the lower bound (model
    /// units).
    pub tolerance: f64,
    /// Stop after this many samples (the bound says how far it got).
    pub max_samples: usize,
}

impl AirOptions {
    /// A tolerance of 1/1000 of `size` (say, the model's diagonal) and a
    /// budget of 100,000 samples (a few seconds on a 69k-triangle model at
    /// worst; most shapes need a few thousand).
    pub fn relative_to(size: f64) -> AirOptions {
        AirOptions {
            tolerance: 1e-3 * size,
            max_samples: 100_000,
        }
    }
}

/// A triangle of the surface in the search (ranked by its upper bound).
struct Cell {
    surface: u32,
    corners: [Point3<f64>; 3],
    /// The mesh triangle nearest its sample: the children's hint.
    nearest: u32,
}

/// The air of the shape whose surface is the union of `surfaces` (one for
/// a shape, one per part for a decomposition) against the mesh of `tree`
/// (see the module docs). An empty tree or no surface gives air 0 and
/// bound 0 with no samples.
///
/// # Guarantees
/// The largest distance from the surfaces to the mesh lies in
/// `[air, air + bound]`.
///
/// ```
/// use bvtool::fit::{Aabb, surface::Surface};
/// use bvtool::query::{AirOptions, air};
/// use bvtool::tree::AabbTree;
/// use bvtool::load::load;
///
/// let mesh = load("models/torus.obj".as_ref(), &Default::default())?.flatten();
/// let aabb = Aabb::from_points(&mesh.vertices).unwrap();
/// let a = air(&AabbTree::build(&mesh), &[Surface::aabb(&aabb)], &AirOptions::relative_to(1.0));
/// // The box's corners are farthest from the ring: (1.35 - 1)·√2 + ... at least 0.4.
/// assert!(a.air > 0.4 && a.bound <= 1e-3);
/// # Ok::<(), bvtool::Error>(())
/// ```
pub fn air(tree: &AabbTree, surfaces: &[Surface], opts: &AirOptions) -> Air {
    let triangles = || surfaces.iter().flat_map(|s| &s.triangles);
    if tree.nodes.is_empty() || triangles().next().is_none() {
        return Air {
            air: 0.0,
            bound: 0.0,
            samples: 0,
        };
    }
    let scale = triangles()
        .flatten()
        .chain(&tree.vertices)
        .map(|p| p.coords.amax())
        .fold(0.0, f64::max);
    let mut lower = 0.0f64;
    let mut samples = 0usize;
    let mut heap: BinaryHeap<Ranked<Cell>> = BinaryHeap::new();
    // One triangle's sample: its distance `d` (exact unless at most
    // `lower − ρ`, when the query may stop at any triangle that near: the
    // triangle is then dropped, and `d` not used as a lower bound) and the
    // triangle with its upper bound `d + ρ`.
    let measure = |surface: u32, corners: [Point3<f64>; 3], lower: f64, hint: Option<u32>| {
        let g = Point3::from((corners[0].coords + corners[1].coords + corners[2].coords) / 3.0);
        let rho = corners
            .iter()
            .map(|c| nalgebra::distance(c, &g))
            .fold(0.0, f64::max);
        let on = &surfaces[surface as usize];
        let s = on.project(&g);
        let (d, nearest) = point_mesh(tree, &s, lower - rho, hint);
        // On a polytope the triangle is the surface itself, and the distance
        // to one mesh triangle is convex: its largest over the triangle is at
        // a corner, and bounds `d` there too (0 where the surface lies on
        // the mesh, which the Lipschitz bound alone never proves).
        let upper = if on.is_polytope() {
            let m = tree.corners(nearest as usize);
            let far = corners
                .iter()
                .map(|c| point_triangle(c, &m))
                .fold(0.0, f64::max);
            far.min(d + rho)
        } else {
            d + rho
        };
        (
            d,
            Ranked {
                key: upper,
                item: Cell {
                    surface,
                    corners,
                    nearest,
                },
            },
        )
    };
    let keep = |(d, cell): (f64, Ranked<Cell>),
                lower: &mut f64,
                samples: &mut usize,
                heap: &mut BinaryHeap<Ranked<Cell>>| {
        *samples += 1;
        if cell.key > *lower {
            *lower = lower.max(d);
            heap.push(cell);
        }
    };
    let mut hint = None;
    for (i, s) in surfaces.iter().enumerate() {
        for t in &s.triangles {
            let (d, cell) = measure(i as u32, *t, lower, hint);
            hint = Some(cell.item.nearest);
            keep((d, cell), &mut lower, &mut samples, &mut heap);
        }
    }
    while let Some(top) = heap.peek() {
        if top.key <= lower + opts.tolerance || samples >= opts.max_samples {
            break;
        }
        let Cell {
            surface,
            corners,
            nearest,
        } = heap.pop().expect("peeked").item;
        for half in halves(&corners) {
            keep(
                measure(surface, half, lower, Some(nearest)),
                &mut lower,
                &mut samples,
                &mut heap,
            );
        }
    }
    let upper = heap.peek().map_or(lower, |c| c.key.max(lower));
    Air {
        air: lower,
        bound: upper - lower + 2.0 * rounding_bound(scale),
        samples,
    }
}
