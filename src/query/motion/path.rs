//! A path: a sequence of poses, each consecutive pair a [`Motion`].

use super::advance::{Impact, ImpactOptions, Status, Sweep};
use super::interpolate::Motion;
use crate::error::{Error, Result};
use crate::pose::Pose;

/// The answer of [`Sweep::path`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathImpact {
    /// The segment the answer ends on (from 0: poses `segment` and
    /// `segment + 1`); the last segment when the whole path is free.
    pub segment: usize,
    /// The answer on that segment; every segment before it is free, and
    /// `distance_calls` counts the calls of the whole path.
    pub impact: Impact,
}

impl Sweep<'_> {
    /// The first contact along the piecewise motion through `poses` (each
    /// consecutive pair a [`Motion`]): segment by segment, with
    /// `opts.max_distance_calls` for the whole path. The certificate is
    /// [`super::Impact`]'s on the segment named, every earlier segment
    /// certified free.
    ///
    /// # Errors
    /// Fewer than two poses, an option out of range, or a segment whose
    /// speed bound is not finite.
    pub fn path(&mut self, poses: &[Pose], opts: &ImpactOptions) -> Result<PathImpact> {
        opts.check()?;
        at_least_two(poses)?;
        let mut calls = 0;
        let last = poses.len() - 2;
        for (segment, pair) in poses.windows(2).enumerate() {
            let motion = Motion::new(pair[0], pair[1]);
            let mut impact = self.advance(&motion, opts, opts.max_distance_calls - calls)?;
            calls += impact.distance_calls;
            impact.distance_calls = calls;
            if impact.status != Status::Free || segment == last {
                return Ok(PathImpact { segment, impact });
            }
        }
        unreachable!("the last segment returns")
    }
}

/// An error unless `poses` make a path (at least 2).
pub(super) fn at_least_two(poses: &[Pose]) -> Result<()> {
    if poses.len() < 2 {
        return Err(Error::Input(format!(
            "a path needs at least 2 poses, got {}",
            poses.len()
        )));
    }
    Ok(())
}
