//! The least distance over a list of placed shape pairs: the one loop
//! behind [`super::World::distance`], a robot's self-distance (overall and
//! per link pair) and a robot's distance to a world.
//!
//! Each candidate carries a lower bound on its distance (the gap between
//! two conservative boxes or balls). The candidates are taken nearest
//! first; the loop stops when the next bound cannot beat the least
//! distance found, skips a pair that [`within`] shows does not come that
//! close, and measures the rest with the exact tree [`distance_with`].

use crate::fit::Aabb;
use crate::pose::Pose;
use crate::query::point::solid::{TreeSolid, contained};
use crate::query::{ContactMode, DistanceOptions, DistanceScratch, distance_with, within};
use crate::threads::{Stop, Stopped, unstopped};
use crate::tree::ObbTree;
use nalgebra::{Isometry3, Point3};

/// A shape: its tree and its solid.
pub type Solid<'a> = (&'a ObbTree, &'a TreeSolid);

/// The least distance two boxes allow between what they hold (0 when they
/// meet).
pub(super) fn box_gap(a: &Aabb, b: &Aabb) -> f64 {
    let d = (a.min - b.max)
        .sup(&(b.min - a.max))
        .sup(&nalgebra::Vector3::zeros());
    d.norm()
}

/// One shape pair to measure.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'a, T> {
    /// A lower bound on the pair's distance (≤ 0 when it may be 0); with
    /// `solids`, a bound > 0 must also mean that neither shape can lie
    /// inside the other (conservative boxes or balls apart).
    pub gap: f64,
    /// The first shape and its frame in the common (world or root) frame.
    pub a: (Solid<'a>, &'a Isometry3<f64>),
    /// The second shape and its frame.
    pub b: (Solid<'a>, &'a Isometry3<f64>),
    /// What the caller names the pair by.
    pub tag: T,
}

/// The closest candidate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nearest<T> {
    /// The candidate's tag.
    pub tag: T,
    /// Its distance (0 when the shapes touch, cross or, with `solids`, one
    /// lies inside the other), in length units.
    pub distance: f64,
    /// The closest point on the first shape, in the common frame.
    pub point_a: Point3<f64>,
    /// The closest point on the second shape, in the common frame.
    pub point_b: Point3<f64>,
    /// The exact minimum over the `f64` triangles (each pair placed at its
    /// relative pose) is within this of `distance`; 0 for containment.
    pub rounding_bound: f64,
}

/// The least distance over `todo` (sorted here, nearest bound first);
/// `None` when it is empty (or every tree is). With `solids`, a pair one of
/// whose shapes lies inside the other closed one ([`contained`]) is at 0,
/// both points the vertex found inside.
///
/// # Guarantees
/// The true minimum over the candidates' `f64` triangles lies within
/// `rounding_bound` of `distance`: a candidate is skipped only when its
/// bound cannot beat the least distance found, or when [`within`] finds
/// none of its triangles within that distance (decided up to the triangle
/// distance's rounding bound).
pub fn nearest<T: Copy>(
    scratch: &mut DistanceScratch,
    todo: &mut [Candidate<'_, T>],
    solids: bool,
) -> Option<Nearest<T>> {
    unstopped(|stop| nearest_until(scratch, todo, solids, stop))
}

/// [`nearest`], giving up with [`Stopped`] when `stop` is set (checked
/// before each candidate measured).
pub fn nearest_until<T: Copy>(
    scratch: &mut DistanceScratch,
    todo: &mut [Candidate<'_, T>],
    solids: bool,
    stop: Stop<'_>,
) -> Result<Option<Nearest<T>>, Stopped> {
    todo.sort_unstable_by(|x, y| x.gap.total_cmp(&y.gap));
    let mut best: Option<Nearest<T>> = None;
    for c in todo.iter() {
        if best.is_some_and(|b| c.gap >= b.distance) {
            break;
        }
        stop.check()?;
        let ((sa, wa), (sb, wb)) = (c.a, c.b);
        let pose = Pose::relative(wa, wb);
        if solids
            && c.gap <= 0.0
            && let Some(p) = contained(sa, sb, &pose)
        {
            let p = wa * p;
            return Ok(Some(Nearest {
                tag: c.tag,
                distance: 0.0,
                point_a: p,
                point_b: p,
                rounding_bound: 0.0,
            }));
        }
        if let Some(b) = best
            && !within(sa.0, sb.0, &pose, b.distance, ContactMode::First).within
        {
            continue;
        }
        let Some(d) = distance_with(scratch, sa.0, sb.0, &pose, &DistanceOptions::default()) else {
            continue;
        };
        if best.is_none_or(|b| d.distance < b.distance) {
            best = Some(Nearest {
                tag: c.tag,
                distance: d.distance,
                point_a: wa * d.point_a,
                point_b: wa * d.point_b,
                rounding_bound: d.rounding_bound,
            });
            if d.distance == 0.0 {
                break;
            }
        }
    }
    Ok(best)
}

impl super::World {
    /// The least distance between any of `shapes` (trees with their solids,
    /// placed in the world's frame, each with a tag) and any shape of any
    /// body: the tag of the shape and the body where it is reached.
    /// Solids: a shape inside a closed body shape, or a body shape inside
    /// a closed one of `shapes`, is at 0 (as
    /// [`super::World::colliding_with_tree`] decides). `None` without a
    /// body or a shape. What a robot's distance to the world is.
    ///
    /// # Guarantees
    /// [`nearest`]'s: within `rounding_bound` of the true minimum over the
    /// `f64` triangles; every pair is bounded below by the gap between the
    /// two shapes' conservative world boxes (the broad phase's boxes).
    ///
    /// # Errors
    /// More than [`super::MAX_DISTANCE_PAIRS`] shape pairs (checked before
    /// any is listed).
    pub fn distance_to_shapes<'a, T: Copy>(
        &'a self,
        scratch: &mut DistanceScratch,
        shapes: &'a [(Solid<'a>, Isometry3<f64>, T)],
    ) -> crate::Result<Option<Nearest<(T, usize)>>> {
        let body_shapes: usize = self.bodies.iter().map(|b| b.shapes.len()).sum();
        if shapes.len().saturating_mul(body_shapes) > super::MAX_DISTANCE_PAIRS {
            return Err(crate::Error::Input(format!(
                "distance between {} shapes and a world of {body_shapes} shapes: more than {} shape pairs",
                shapes.len(),
                super::MAX_DISTANCE_PAIRS
            )));
        }
        let mut todo = Vec::with_capacity(shapes.len() * body_shapes);
        for (solid, place, tag) in shapes {
            let Some(boxed) = super::placed_box(solid.0, place) else {
                continue;
            };
            for (j, body) in self.bodies.iter().enumerate() {
                for (k, (w, x)) in body.placed.iter().enumerate() {
                    todo.push(Candidate {
                        gap: box_gap(&boxed, x),
                        a: (*solid, place),
                        b: (body.solid(k), w),
                        tag: (*tag, j),
                    });
                }
            }
        }
        Ok(nearest(scratch, &mut todo, true))
    }
}
