//! Self-collision and self-distance per configuration: every link pair of
//! [`Robot::pairs`], each pair's shapes first compared by their balls (the
//! broad phase), then by bvtool's exact tree queries at their relative
//! pose.

use super::{Robot, Shape};
use crate::error::Result;
use crate::pose::Pose;
use crate::query::{ContactMode, DistanceScratch, collide_each};
use crate::world::{Candidate, Nearest, Solid, nearest};
use nalgebra::{Isometry3, Point3};
use rayon::prelude::*;

/// The answer of [`Robot::self_collision`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SelfCollision {
    /// The colliding link pairs `(a, b)`, `a < b` (link indices), in the
    /// order of [`Robot::pairs`]; with `stop_at_first`, at most one.
    pub pairs: Vec<(usize, usize)>,
    /// Shape pairs whose balls met, so that their trees were queried.
    pub narrow_tests: u32,
}

/// The answer of [`Robot::self_distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelfDistance {
    /// The least distance between the shapes of any tested link pair (0
    /// when two touch or intersect, decided exactly), in length units.
    pub distance: f64,
    /// The link pair `(a, b)` where it is reached.
    pub pair: (usize, usize),
    /// The closest point on link `a`, in the root link's frame.
    pub point_a: Point3<f64>,
    /// The closest point on link `b`, in the root link's frame.
    pub point_b: Point3<f64>,
    /// The exact minimum over the `f64` triangles (placed as the query
    /// placed them) is within this of `distance` (length units).
    pub rounding_bound: f64,
}

/// A shape's frame in the root's, and its ball's centre there.
pub(super) fn placed(link: &Isometry3<f64>, s: &Shape) -> (Isometry3<f64>, Point3<f64>) {
    (link * s.origin, link * s.center)
}

/// A shape's ball placed in the root link's frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ball {
    centre: Point3<f64>,
    radius: f64,
    /// The margin of [`ball_gap`] for this ball: `1e-9 × (|centre|∞ + r)`.
    margin: f64,
}

impl Ball {
    /// Whether [`ball_gap`] exceeds `gap` (≥ 0), without its square root:
    /// the broad phase's test, made for every tested shape pair.
    #[inline]
    pub(super) fn apart(&self, o: &Ball, gap: f64) -> bool {
        let reach = gap + self.radius + o.radius + 1e-9 + self.margin + o.margin;
        nalgebra::distance_squared(&self.centre, &o.centre) > reach * reach
    }
}

/// Every shape's ball placed in the root link's frame at one configuration,
/// once per configuration rather than once per pair.
pub(super) struct Balls {
    balls: Vec<Ball>,
    start: Vec<usize>,
}

impl Balls {
    /// The balls of `robot`'s shapes with its links at `poses`.
    pub(super) fn new(robot: &Robot, poses: &[Isometry3<f64>]) -> Balls {
        let mut out = Balls {
            balls: Vec::new(),
            start: Vec::with_capacity(robot.links.len() + 1),
        };
        for (link, pose) in robot.links.iter().zip(poses) {
            out.start.push(out.balls.len());
            out.balls.extend(link.shapes.iter().map(|s| {
                let centre = pose * s.center;
                Ball {
                    centre,
                    radius: s.radius,
                    margin: 1e-9 * (centre.coords.amax() + s.radius),
                }
            }));
        }
        out.start.push(out.balls.len());
        out
    }

    /// Link `l`'s shapes' balls, in its shapes' order.
    pub(super) fn of(&self, l: usize) -> &[Ball] {
        &self.balls[self.start[l]..self.start[l + 1]]
    }
}

/// The least distance the two balls allow between their shapes, less a
/// margin for the rounding of the placed centres (so that it never exceeds
/// the true distance); ≤ 0 when the balls may meet.
pub(super) fn ball_gap(ca: &Point3<f64>, ra: f64, cb: &Point3<f64>, rb: f64) -> f64 {
    let margin = 1e-9 * (1.0 + ca.coords.amax() + cb.coords.amax() + ra + rb);
    nalgebra::distance(ca, cb) - ra - rb - margin
}

impl Robot {
    /// The link pairs of [`Robot::pairs`] that collide at configuration
    /// `q` (checked), stopping at the first with `stop_at_first`.
    ///
    /// # Guarantees
    /// Exact: a pair is reported if and only if a triangle of one link
    /// touches or crosses a triangle of the other, with the links placed by
    /// [`Robot::forward_kinematics`] (the `f64` corners placed as
    /// [`crate::query::collide()`] places them). The balls only prune pairs
    /// that are apart.
    pub fn self_collision(&self, q: &[f64], stop_at_first: bool) -> Result<SelfCollision> {
        self.check_configuration(q)?;
        Ok(self.collide_at(&self.link_poses(q), stop_at_first))
    }

    /// [`Robot::self_collision`] for `qs`, `n × dof` values row by row, on
    /// the worker pool.
    pub fn self_collision_batch(
        &self,
        qs: &[f64],
        stop_at_first: bool,
    ) -> Result<Vec<SelfCollision>> {
        self.check_batch(qs)?;
        Ok(crate::threads::on_pool(|| {
            qs.par_chunks(self.dof)
                .map(|q| self.collide_at(&self.link_poses(q), stop_at_first))
                .collect()
        }))
    }

    /// [`Robot::self_collision`] with the link poses given.
    pub fn collide_at(&self, poses: &[Isometry3<f64>], stop_at_first: bool) -> SelfCollision {
        let mut out = SelfCollision::default();
        let balls = Balls::new(self, poses);
        for &(a, b) in &self.pairs {
            let hit = self.links_collide(poses, &balls, a, b, &mut out.narrow_tests);
            if hit {
                out.pairs.push((a, b));
                if stop_at_first {
                    break;
                }
            }
        }
        out
    }

    /// Whether links `a` and `b`, placed at `poses` (their shapes' balls
    /// `balls`), collide: each shape pair's balls first, then the exact
    /// `collide` of their trees (stopping at the first triangle pair);
    /// `narrow` counts the tree queries.
    pub(super) fn links_collide(
        &self,
        poses: &[Isometry3<f64>],
        balls: &Balls,
        a: usize,
        b: usize,
        narrow: &mut u32,
    ) -> bool {
        self.colliding_shapes(poses, balls, (a, b), narrow)
            .is_some()
    }

    /// The first shape pair `(i, j)` (shape `i` of link `a`, `j` of `b`)
    /// that collides, as [`Robot::links_collide`] decides.
    fn colliding_shapes(
        &self,
        poses: &[Isometry3<f64>],
        balls: &Balls,
        (a, b): (usize, usize),
        narrow: &mut u32,
    ) -> Option<(usize, usize)> {
        let (balls_a, balls_b) = (balls.of(a), balls.of(b));
        for (i, ba) in balls_a.iter().enumerate() {
            for (j, bb) in balls_b.iter().enumerate() {
                if ba.apart(bb, 0.0) {
                    continue;
                }
                *narrow += 1;
                let (sa, sb) = (&self.links[a].shapes[i], &self.links[b].shapes[j]);
                let (wa, wb) = (poses[a] * sa.origin, poses[b] * sb.origin);
                let pose = Pose::relative(&wa, &wb);
                let (ta, tb) = (&self.trees[sa.tree], &self.trees[sb.tree]);
                let mut hit = false;
                collide_each(ta, tb, &pose, ContactMode::First, |_, _| {
                    hit = true;
                    true
                });
                if hit {
                    return Some((i, j));
                }
            }
        }
        None
    }

    /// The least distance between any two links of [`Robot::pairs`] at
    /// configuration `q` (checked); `None` when there is no pair.
    ///
    /// # Guarantees
    /// The true minimum over the tested pairs' `f64` triangles lies within
    /// `rounding_bound` of `distance`: a shape pair is skipped only when
    /// its balls' gap (a lower bound) cannot beat the least distance found,
    /// or when the clearance query ([`crate::query::within`]) finds none of
    /// its triangles within that distance (decided up to the triangle
    /// distance's rounding bound).
    pub fn self_distance(&self, q: &[f64]) -> Result<Option<SelfDistance>> {
        self.check_configuration(q)?;
        Ok(self.distance_at(&mut DistanceScratch::default(), &self.link_poses(q)))
    }

    /// [`Robot::self_distance`] for `qs`, `n × dof` values row by row, on
    /// the worker pool.
    pub fn self_distance_batch(&self, qs: &[f64]) -> Result<Vec<Option<SelfDistance>>> {
        self.each_configuration(qs, |scratch, poses| self.distance_at(scratch, poses))
    }

    /// `at` (a worker's scratch, the link poses) at each configuration of
    /// `qs` (checked; `n × dof` values row by row), on the worker pool.
    pub(super) fn each_configuration<T: Send>(
        &self,
        qs: &[f64],
        at: impl Fn(&mut DistanceScratch, &[Isometry3<f64>]) -> T + Sync + Send,
    ) -> Result<Vec<T>> {
        self.check_batch(qs)?;
        Ok(crate::threads::on_pool(|| {
            qs.par_chunks(self.dof)
                .map_init(DistanceScratch::default, |scratch, q| {
                    at(scratch, &self.link_poses(q))
                })
                .collect()
        }))
    }

    /// [`Robot::self_distance`] with the link poses given.
    pub fn distance_at(
        &self,
        scratch: &mut DistanceScratch,
        poses: &[Isometry3<f64>],
    ) -> Option<SelfDistance> {
        let placed = self.place_shapes(poses);
        let balls = Balls::new(self, poses);
        let mut todo = Vec::new();
        // A colliding pair (found by the cheaper collision test) is at
        // distance 0: its witnesses are all that is left to find.
        let hit = (0..self.pairs.len()).find_map(|k| {
            Some((
                k,
                self.colliding_shapes(poses, &balls, self.pairs[k], &mut 0)?,
            ))
        });
        if let Some((k, (i, j))) = hit {
            let (a, b) = self.pairs[k];
            let ((sa, wa, _), (sb, wb, _)) = (&placed[a][i], &placed[b][j]);
            todo.push(Candidate {
                gap: 0.0,
                a: (self.solid(sa), wa),
                b: (self.solid(sb), wb),
                tag: k,
            });
        } else {
            for k in 0..self.pairs.len() {
                self.pair_candidates(&placed, k, &mut todo);
            }
        }
        nearest(scratch, &mut todo, false).map(|n| self.self_distance_of(n))
    }

    /// Every link's shapes placed at `poses`: per link, `(shape, its frame
    /// in the root's, its ball's centre there)`.
    pub(super) fn place_shapes(&self, poses: &[Isometry3<f64>]) -> Vec<Vec<PlacedShape<'_>>> {
        self.links
            .iter()
            .zip(poses)
            .map(|(link, pose)| {
                link.shapes
                    .iter()
                    .map(|s| {
                        let (frame, centre) = placed(pose, s);
                        (s, frame, centre)
                    })
                    .collect()
            })
            .collect()
    }

    /// Adds the shape pairs of link pair `k` of [`Robot::pairs`] to `todo`,
    /// each bounded below by its balls' gap and tagged `k`.
    pub(super) fn pair_candidates<'a>(
        &'a self,
        placed: &'a [Vec<PlacedShape<'a>>],
        k: usize,
        todo: &mut Vec<Candidate<'a, usize>>,
    ) {
        let (a, b) = self.pairs[k];
        for (sa, wa, ca) in &placed[a] {
            for (sb, wb, cb) in &placed[b] {
                todo.push(Candidate {
                    gap: ball_gap(ca, sa.radius, cb, sb.radius),
                    a: (self.solid(sa), wa),
                    b: (self.solid(sb), wb),
                    tag: k,
                });
            }
        }
    }

    /// A shape's tree and solid.
    pub(super) fn solid(&self, s: &Shape) -> Solid<'_> {
        (&self.trees[s.tree], &self.solids[s.tree])
    }

    /// The [`SelfDistance`] of the closest shape pair of link pair `n.tag`.
    pub(super) fn self_distance_of(&self, n: Nearest<usize>) -> SelfDistance {
        SelfDistance {
            distance: n.distance,
            pair: self.pairs[n.tag],
            point_a: n.point_a,
            point_b: n.point_b,
            rounding_bound: n.rounding_bound,
        }
    }
}

/// A shape of a link, its frame in the root's and its ball's centre there.
pub(super) type PlacedShape<'a> = (&'a Shape, Isometry3<f64>, Point3<f64>);
