//! World collision per configuration: which links touch which bodies of a
//! [`World`], the robot's root link at the world's origin.

use super::Robot;
use crate::error::Result;
use crate::world::World;
use nalgebra::Isometry3;
use rayon::prelude::*;

impl Robot {
    /// The `(link, body)` pairs that touch or cross at configuration `q`
    /// (checked), sorted; the root link's frame is the world's (move the
    /// world's bodies to place the robot elsewhere). With `stop_at_first`,
    /// at most one pair.
    ///
    /// # Guarantees
    /// Exact: a pair is reported if and only if a triangle of one of the
    /// link's shapes touches or crosses a triangle of one of the body's, or
    /// one shape lies inside the other closed one (links and bodies are
    /// solids: [`crate::world::solids_meet`]),
    /// the link placed by [`Robot::forward_kinematics`] and the two shapes
    /// at their relative pose (as [`crate::query::collide()`] places them);
    /// the world's broad phase only prunes boxes that are apart.
    pub fn world_collision(
        &self,
        q: &[f64],
        world: &World,
        stop_at_first: bool,
    ) -> Result<Vec<(usize, usize)>> {
        self.check_configuration(q)?;
        Ok(self.world_collision_at(&self.link_poses(q), world, stop_at_first))
    }

    /// [`Robot::world_collision`] for `qs`, `n × dof` values row by row, on
    /// the worker pool.
    pub fn world_collision_batch(
        &self,
        qs: &[f64],
        world: &World,
        stop_at_first: bool,
    ) -> Result<Vec<Vec<(usize, usize)>>> {
        self.check_batch(qs)?;
        Ok(crate::threads::on_pool(|| {
            qs.par_chunks(self.dof)
                .map(|q| self.world_collision_at(&self.link_poses(q), world, stop_at_first))
                .collect()
        }))
    }

    /// [`Robot::world_collision`] with the link poses given.
    pub fn world_collision_at(
        &self,
        poses: &[Isometry3<f64>],
        world: &World,
        stop_at_first: bool,
    ) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (l, link) in self.links.iter().enumerate() {
            let mut bodies = Vec::new();
            for s in &link.shapes {
                let place = poses[l] * s.origin;
                world.colliding_with_tree(
                    (&self.trees[s.tree], &self.solids[s.tree]),
                    &place,
                    |b| {
                        bodies.push(b);
                        stop_at_first
                    },
                );
                if stop_at_first && !bodies.is_empty() {
                    return vec![(l, bodies[0])];
                }
            }
            bodies.sort_unstable();
            bodies.dedup();
            out.extend(bodies.into_iter().map(|b| (l, b)));
        }
        out
    }
}
