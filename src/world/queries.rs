//! The world's queries: colliding pairs, one body against all, the least
//! distance between two groups, the pairs within a clearance, and an
//! outside tree against every body (a robot's link). Each body pair the
//! broad phase and the allowed set leave is decided by bvtool's exact tree
//! queries at the relative pose of the two shapes.

use super::nearest::{Candidate, Solid, box_gap, nearest_until};
use super::{World, placed_box};
use crate::error::{Error, Result};
use crate::pose::Pose;
use crate::query::point::solid::contained;
use crate::query::{ContactMode, DistanceScratch, MAX_PAIRS, collide, within};
use crate::threads::{Stop, Stopped, unstopped};
use nalgebra::{Isometry3, Point3};

/// The least distance between two groups of bodies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldDistance {
    /// The least distance between a shape of a body of the first group and
    /// one of the second (0 when two touch, cross or one lies inside the
    /// other, decided exactly), in length units.
    pub distance: f64,
    /// The bodies where it is reached: `(of the first group, of the
    /// second)`.
    pub bodies: (usize, usize),
    /// The closest point on the first body, in the world's frame.
    pub point_a: Point3<f64>,
    /// The closest point on the second body, in the world's frame.
    pub point_b: Point3<f64>,
    /// The exact minimum over the `f64` triangles (placed as the query
    /// placed them) is within this of `distance`, in length units.
    pub rounding_bound: f64,
}

/// A query's answer, or [`Stopped`] when its [`Stop`] was set: the
/// stoppable queries' (`…_until`) result.
pub type Stoppable<T> = std::result::Result<Result<T>, Stopped>;

/// The most shape pairs [`World::distance`] considers (the product of the
/// groups' shape counts): 2^22 (40 bytes each while they are sorted).
pub const MAX_DISTANCE_PAIRS: usize = 1 << 22;

/// Whether two shapes, `b` at `pose` in `a`'s frame, meet as solids: their
/// surfaces touch or cross ([`collide`], exact), or one lies inside the
/// other ([`contained`]).
pub fn solids_meet(a: Solid, b: Solid, pose: &Pose) -> bool {
    collide(a.0, b.0, pose, ContactMode::First).intersecting || contained(a, b, pose).is_some()
}

/// "more than MAX_PAIRS …": an answer too large to keep.
fn too_many(what: &str) -> Error {
    Error::Input(format!(
        "more than {MAX_PAIRS} {what}: the answer is not kept (move the bodies apart, or allow pairs)"
    ))
}

impl World {
    /// Whether some pair of shapes of bodies `a` and `b` whose world boxes
    /// come within `d` passes `test(shape of a, shape of b, relative pose)`.
    fn any_shape_pair(
        &self,
        a: usize,
        b: usize,
        d: f64,
        test: impl Fn(Solid, Solid, &Pose) -> bool,
    ) -> bool {
        let (ba, bb) = (&self.bodies[a], &self.bodies[b]);
        ba.placed.iter().enumerate().any(|(i, (wa, xa))| {
            bb.placed.iter().enumerate().any(|(j, (wb, xb))| {
                super::broad::near(xa, xb, d)
                    && test(ba.solid(i), bb.solid(j), &Pose::relative(wa, wb))
            })
        })
    }

    /// Whether bodies `a` and `b` touch, cross or one lies in the other
    /// (an exact collide of each pair of their shapes whose world boxes
    /// meet, then [`contained`]).
    fn bodies_collide(&self, a: usize, b: usize) -> bool {
        self.any_shape_pair(a, b, 0.0, solids_meet)
    }

    /// Whether bodies `a` and `b` come within `d` of each other (or one
    /// lies in the other).
    fn bodies_within(&self, a: usize, b: usize, d: f64) -> bool {
        self.any_shape_pair(a, b, d, |ta, tb, pose| {
            within(ta.0, tb.0, pose, d, ContactMode::First).within
                || contained(ta, tb, pose).is_some()
        })
    }

    /// Every tested pair of bodies `(a, b)`, `a < b`, that touch or cross,
    /// sorted.
    ///
    /// # Guarantees
    /// Exact: a pair is reported if and only if a triangle of one body's
    /// shapes touches or crosses a triangle of the other's, or a piece of
    /// one shape lies inside the other closed shape ([`contained`]), each
    /// shape's
    /// `f64` corners placed in the other's frame at their relative pose
    /// (as [`crate::query::collide()`] places them). The broad phase only
    /// prunes pairs whose conservative world boxes are apart.
    ///
    /// # Errors
    /// More than [`MAX_PAIRS`] colliding pairs.
    pub fn colliding_pairs(&self) -> Result<Vec<(usize, usize)>> {
        unstopped(|stop| self.colliding_pairs_until(stop))
    }

    /// [`World::colliding_pairs`], giving up with [`Stopped`] when `stop`
    /// is set (checked before each body pair decided).
    pub fn colliding_pairs_until(&self, stop: Stop<'_>) -> Stoppable<Vec<(usize, usize)>> {
        let test = |a, b| self.bodies_collide(a, b);
        self.pairs_where(0.0, test, "colliding pairs", stop)
    }

    /// Every tested pair of bodies `(a, b)`, `a < b`, that come within
    /// `clearance` (≥ 0, length units) of each other, sorted (touching and
    /// crossing pairs included).
    ///
    /// # Guarantees
    /// Decided by [`crate::query::within`] on each pair of shapes: exact
    /// at 0, else up to the triangle distance's rounding bound (a pair
    /// within that bound of `clearance` may fall either side).
    ///
    /// # Errors
    /// A clearance that is negative or not finite; more than
    /// [`MAX_PAIRS`] pairs.
    pub fn pairs_within(&self, clearance: f64) -> Result<Vec<(usize, usize)>> {
        unstopped(|stop| self.pairs_within_until(clearance, stop))
    }

    /// [`World::pairs_within`], giving up with [`Stopped`] when `stop` is
    /// set (checked before each body pair decided).
    pub fn pairs_within_until(
        &self,
        clearance: f64,
        stop: Stop<'_>,
    ) -> Stoppable<Vec<(usize, usize)>> {
        if !(0.0..=crate::mesh::MAX_COORDINATE).contains(&clearance) {
            return Ok(Err(Error::Input(format!(
                "clearance {clearance} is not a number in [0, 2^50]"
            ))));
        }
        let test = |a, b| self.bodies_within(a, b, clearance);
        self.pairs_where(clearance, test, "pairs within the clearance", stop)
    }

    /// The broad phase's pairs within `gap` that are tested and pass
    /// `test`, sorted.
    fn pairs_where(
        &self,
        gap: f64,
        test: impl Fn(usize, usize) -> bool,
        what: &str,
        stop: Stop<'_>,
    ) -> Stoppable<Vec<(usize, usize)>> {
        let (mut out, mut stopped) = (Vec::new(), false);
        let over = self.sweep.pairs(gap, |a, b| {
            if !self.tested(a, b) {
                return false;
            }
            if stop.is_set() {
                stopped = true;
                return true;
            }
            if test(a, b) {
                if out.len() == MAX_PAIRS {
                    return true;
                }
                out.push((a, b));
            }
            false
        });
        if stopped {
            return Err(Stopped);
        }
        if over {
            return Ok(Err(too_many(what)));
        }
        out.sort_unstable();
        Ok(Ok(out))
    }

    /// The bodies that body `i` touches or crosses (tested pairs only),
    /// ascending; exact as [`World::colliding_pairs`].
    pub fn colliding_with_body(&self, i: usize) -> Result<Vec<usize>> {
        unstopped(|stop| self.colliding_with_body_until(i, stop))
    }

    /// [`World::colliding_with_body`], giving up with [`Stopped`] when
    /// `stop` is set (checked before each body pair decided).
    pub fn colliding_with_body_until(&self, i: usize, stop: Stop<'_>) -> Stoppable<Vec<usize>> {
        let n = self.bodies.len();
        if i >= n {
            return Ok(Err(Error::Input(format!(
                "body {i}: the world has {n} bodies"
            ))));
        }
        let (mut out, mut stopped) = (Vec::new(), false);
        self.sweep.near_box(&self.sweep.boxes[i], 0.0, |j| {
            if !self.tested(i, j) {
                return false;
            }
            if stop.is_set() {
                stopped = true;
                return true;
            }
            if self.bodies_collide(i, j) {
                out.push(j);
            }
            false
        });
        if stopped {
            return Err(Stopped);
        }
        out.sort_unstable();
        Ok(Ok(out))
    }

    /// Calls `visit(body)` for each body that `tree` (with its `solid`),
    /// placed in the world by `place`, touches, crosses, lies in or holds
    /// ([`solids_meet`], exact), until it returns `true`. What a robot link
    /// is tested with.
    pub fn colliding_with_tree(
        &self,
        (tree, solid): Solid,
        place: &Isometry3<f64>,
        mut visit: impl FnMut(usize) -> bool,
    ) {
        let Some(b) = placed_box(tree, place) else {
            return;
        };
        self.sweep.near_box(&b, 0.0, |j| {
            let body = &self.bodies[j];
            let hit = body.placed.iter().enumerate().any(|(k, (w, x))| {
                super::broad::near(&b, x, 0.0)
                    && solids_meet((tree, solid), body.solid(k), &Pose::relative(place, w))
            });
            hit && visit(j)
        });
    }

    /// The least distance between a body of `group_a` and a body of
    /// `group_b` (tested pairs of distinct bodies only), with the bodies
    /// and points where it is reached; `None` when there is no such pair.
    ///
    /// # Guarantees
    /// The true minimum over the pairs' `f64` triangles (each shape pair
    /// placed at its relative pose) lies within `rounding_bound` of
    /// `distance`: a body pair, then a shape pair, is skipped only when its
    /// world boxes' gap (a lower bound) cannot beat the least distance
    /// found, or when [`crate::query::within`] finds none of its triangles
    /// within that distance. A pair one of whose shapes lies inside the
    /// other ([`contained`]) is at 0, both points the vertex found inside,
    /// `rounding_bound` 0.
    ///
    /// # Errors
    /// A body index out of range; more than [`MAX_DISTANCE_PAIRS`] shape
    /// pairs.
    pub fn distance(&self, group_a: &[usize], group_b: &[usize]) -> Result<Option<WorldDistance>> {
        unstopped(|stop| self.distance_until(group_a, group_b, stop))
    }

    /// [`World::distance`], giving up with [`Stopped`] when `stop` is set
    /// (checked before each shape pair measured).
    pub fn distance_until(
        &self,
        group_a: &[usize],
        group_b: &[usize],
        stop: Stop<'_>,
    ) -> Stoppable<Option<WorldDistance>> {
        let n = self.bodies.len();
        if let Some(i) = group_a.iter().chain(group_b).find(|&&i| i >= n) {
            return Ok(Err(Error::Input(format!(
                "body {i}: the world has {n} bodies"
            ))));
        }
        let shapes = |g: &[usize]| {
            g.iter()
                .map(|&i| self.bodies[i].shapes.len())
                .sum::<usize>()
        };
        let (sa, sb) = (shapes(group_a), shapes(group_b));
        if sa.saturating_mul(sb) > MAX_DISTANCE_PAIRS {
            return Ok(Err(Error::Input(format!(
                "distance between groups of {sa} and {sb} shapes: more than {MAX_DISTANCE_PAIRS} shape pairs"
            ))));
        }
        // Every shape pair of every tested body pair with its boxes' gap.
        let mut todo = Vec::new();
        for &a in group_a {
            for &b in group_b {
                if !self.tested(a, b) {
                    continue;
                }
                let (ba, bb) = (&self.bodies[a], &self.bodies[b]);
                for (ka, (wa, xa)) in ba.placed.iter().enumerate() {
                    for (kb, (wb, xb)) in bb.placed.iter().enumerate() {
                        todo.push(Candidate {
                            gap: box_gap(xa, xb),
                            a: (ba.solid(ka), wa),
                            b: (bb.solid(kb), wb),
                            tag: (a, b),
                        });
                    }
                }
            }
        }
        let best = nearest_until(&mut DistanceScratch::default(), &mut todo, true, stop)?;
        Ok(Ok(best.map(|n| WorldDistance {
            distance: n.distance,
            bodies: n.tag,
            point_a: n.point_a,
            point_b: n.point_b,
            rounding_bound: n.rounding_bound,
        })))
    }
}
