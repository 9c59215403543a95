//! Distances on request beyond [`Robot::self_distance`]: every tested link
//! pair's own least distance (what a planner's cost per pair needs), and
//! the least distance between the robot and a [`World`].

use super::{Robot, SelfDistance};
use crate::error::Result;
use crate::query::DistanceScratch;
use crate::world::{Solid, World, nearest};
use nalgebra::{Isometry3, Point3};

/// The answer of [`Robot::world_distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RobotWorldDistance {
    /// The least distance between a shape of any link and a shape of any
    /// body (0 when they touch, cross or one lies inside the other closed
    /// one, decided exactly), in length units.
    pub distance: f64,
    /// The link where it is reached (index into [`Robot::links`]).
    pub link: usize,
    /// The body where it is reached (index into [`World::bodies`]).
    pub body: usize,
    /// The closest point on the link, in the root link's (= the world's)
    /// frame.
    pub point_link: Point3<f64>,
    /// The closest point on the body, in that frame.
    pub point_body: Point3<f64>,
    /// The exact minimum over the `f64` triangles (placed as the query
    /// placed them) is within this of `distance` (length units); 0 for
    /// containment.
    pub rounding_bound: f64,
}

impl Robot {
    /// Every tested link pair's least distance at configuration `q`
    /// (checked), in the order of [`Robot::pairs`]: one [`SelfDistance`]
    /// per pair (its `pair` that pair), 0 when the pair touches or crosses.
    ///
    /// # Guarantees
    /// Each pair's true minimum over its shapes' `f64` triangles lies
    /// within its `rounding_bound` of its `distance`, as
    /// [`Robot::self_distance`] (whose answer is the least of these): a
    /// pair's shape pairs are taken nearest ball first, and one is skipped
    /// only when its balls' gap, or the clearance query at the pair's best
    /// distance so far, shows it cannot improve the pair's answer.
    pub fn self_distance_pairs(&self, q: &[f64]) -> Result<Vec<SelfDistance>> {
        self.check_configuration(q)?;
        Ok(self.pair_distances_at(&mut DistanceScratch::default(), &self.link_poses(q)))
    }

    /// [`Robot::self_distance_pairs`] for `qs`, `n × dof` values row by
    /// row, on the worker pool.
    pub fn self_distance_pairs_batch(&self, qs: &[f64]) -> Result<Vec<Vec<SelfDistance>>> {
        self.each_configuration(qs, |scratch, poses| self.pair_distances_at(scratch, poses))
    }

    /// [`Robot::self_distance_pairs`] with the link poses given.
    pub fn pair_distances_at(
        &self,
        scratch: &mut DistanceScratch,
        poses: &[Isometry3<f64>],
    ) -> Vec<SelfDistance> {
        let placed = self.place_shapes(poses);
        let mut todo = Vec::new();
        (0..self.pairs.len())
            .map(|k| {
                todo.clear();
                self.pair_candidates(&placed, k, &mut todo);
                let n = nearest(scratch, &mut todo, false)
                    .expect("a tested pair's links have shapes with triangles");
                self.self_distance_of(n)
            })
            .collect()
    }

    /// The least distance between any link and any body of `world` at
    /// configuration `q` (checked), the root link's frame the world's;
    /// `None` when the world has no body or the robot no shape.
    ///
    /// # Guarantees
    /// The true minimum over every (link shape, body shape) pair's `f64`
    /// triangles, each pair at its relative pose, lies within
    /// `rounding_bound` of `distance`; 0 exactly when
    /// [`Robot::world_collision`] finds a pair (touching, crossing, or one
    /// solid inside the other). A shape pair is skipped only when the gap
    /// between the two shapes' conservative world boxes (the world's broad
    /// phase boxes; the link's placed as the world places its own) cannot
    /// beat the least distance found, or when the clearance query finds
    /// none of its triangles within it ([`crate::world::nearest`]).
    ///
    /// # Errors
    /// A bad configuration; more than [`crate::world::MAX_DISTANCE_PAIRS`]
    /// (link shape, body shape) pairs.
    pub fn world_distance(&self, q: &[f64], world: &World) -> Result<Option<RobotWorldDistance>> {
        self.check_configuration(q)?;
        self.world_distance_at(&mut DistanceScratch::default(), &self.link_poses(q), world)
    }

    /// [`Robot::world_distance`] for `qs`, `n × dof` values row by row, on
    /// the worker pool.
    pub fn world_distance_batch(
        &self,
        qs: &[f64],
        world: &World,
    ) -> Result<Vec<Option<RobotWorldDistance>>> {
        self.each_configuration(qs, |scratch, poses| {
            self.world_distance_at(scratch, poses, world)
        })?
        .into_iter()
        .collect()
    }

    /// [`Robot::world_distance`] with the link poses given.
    pub fn world_distance_at(
        &self,
        scratch: &mut DistanceScratch,
        poses: &[Isometry3<f64>],
        world: &World,
    ) -> Result<Option<RobotWorldDistance>> {
        let shapes: Vec<(Solid, Isometry3<f64>, usize)> = self
            .links
            .iter()
            .enumerate()
            .flat_map(|(l, link)| {
                link.shapes
                    .iter()
                    .map(move |s| (self.solid(s), poses[l] * s.origin, l))
            })
            .collect();
        Ok(world
            .distance_to_shapes(scratch, &shapes)?
            .map(|n| RobotWorldDistance {
                distance: n.distance,
                link: n.tag.0,
                body: n.tag.1,
                point_link: n.point_a,
                point_body: n.point_b,
                rounding_bound: n.rounding_bound,
            }))
    }
}
