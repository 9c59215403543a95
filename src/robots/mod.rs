//! Robots from URDF: links and joints, forward kinematics, and exact
//! self-collision and distance per configuration; world collision against
//! a [`crate::world::World`] (`world.rs`).
//!
//! Conventions (`docs/robots.md` has them all): a configuration is one
//! value per *actuated* joint — the revolute, continuous and prismatic
//! joints without `<mimic>`, in the URDF's document order
//! ([`Robot::joint_names`]); radians and the file's length unit (metres for
//! ROS); limits are reported, never applied. Link poses are in the root
//! link's frame. `rpy` is roll about x, then pitch about y, then yaw about
//! z, all about fixed axes: `R = Rz(y)·Ry(p)·Rx(r)`.

mod acm;
mod adjacency;
mod build;
mod check;
mod distance;
mod geometry;
pub mod urdf;
mod world;

pub use crate::mesh::primitives::ROUND_SEGMENTS;
pub use acm::{Acm, AcmOptions, AcmPair, AcmReason, MAX_ACM_SAMPLES};
pub use build::{GeometryKind, RobotOptions};
pub use check::{SelfCollision, SelfDistance};
pub use distance::RobotWorldDistance;
pub use geometry::{MAX_MESH_BYTES, Packages};
pub use urdf::JointKind;

use crate::error::{Error, Result};
use crate::threads::{Stop, Stopped, unstopped};
use crate::tree::ObbTree;
use nalgebra::{Isometry3, Point3, Translation3, Unit, UnitQuaternion, Vector3};
use std::path::{Path, PathBuf};

/// One collision (or visual) element of a link, ready for queries.
#[derive(Clone, Debug)]
pub struct Shape {
    /// Index of its tree in [`Robot::trees`].
    pub tree: usize,
    /// Its frame in the link's.
    pub origin: Isometry3<f64>,
    /// The centre of a ball holding it, in the link's frame.
    pub center: Point3<f64>,
    /// That ball's radius.
    pub radius: f64,
}

/// A link.
#[derive(Clone, Debug)]
pub struct Link {
    /// Its name.
    pub name: String,
    /// Its shapes (none for a link without the geometry asked).
    pub shapes: Vec<Shape>,
}

/// `<mimic>`, resolved: this joint's value is `multiplier · q[dof] + offset`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mimic {
    /// The configuration entry of the joint mimicked.
    pub dof: usize,
    /// Its multiplier.
    pub multiplier: f64,
    /// Its offset.
    pub offset: f64,
}

/// A joint.
#[derive(Clone, Debug)]
pub struct Joint {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: JointKind,
    /// The parent link (index into [`Robot::links`]).
    pub parent: usize,
    /// The child link.
    pub child: usize,
    /// The child's frame in the parent's at value 0.
    pub origin: Isometry3<f64>,
    /// The unit axis, in the joint's frame.
    pub axis: Unit<Vector3<f64>>,
    /// `(lower, upper)` as written (radians or length units).
    pub limits: Option<(f64, f64)>,
    /// Its configuration entry, for an actuated joint.
    pub dof: Option<usize>,
    /// Its mimic rule, for a mimic joint.
    pub mimic: Option<Mimic>,
}

impl Joint {
    /// Its value in configuration `q` (0 for a fixed joint).
    fn value(&self, q: &[f64]) -> f64 {
        match (self.dof, self.mimic) {
            (Some(i), _) => q[i],
            (None, Some(m)) => m.multiplier * q[m.dof] + m.offset,
            (None, None) => 0.0,
        }
    }

    /// The child's frame in the parent's at value `v`.
    fn transform(&self, v: f64) -> Isometry3<f64> {
        match self.kind {
            JointKind::Fixed => self.origin,
            JointKind::Revolute | JointKind::Continuous => {
                self.origin * UnitQuaternion::from_axis_angle(&self.axis, v)
            }
            JointKind::Prismatic => self.origin * Translation3::from(self.axis.into_inner() * v),
        }
    }
}

/// A robot read from a URDF: its links, joints (in an order where every
/// parent link comes before its child), collision trees, and the link
/// pairs its self-collision queries test.
#[derive(Debug)]
pub struct Robot {
    /// The file read.
    pub path: PathBuf,
    /// The robot's name.
    pub name: String,
    /// Its links, in document order.
    pub links: Vec<Link>,
    /// Its joints, in document order.
    pub joints: Vec<Joint>,
    /// Joint indices, parents before children.
    order: Vec<usize>,
    /// The root link.
    pub root: usize,
    /// One tree per distinct geometry (file and scale, or primitive).
    pub trees: Vec<ObbTree>,
    /// Each tree's solid (whether it is closed, a vertex of each piece),
    /// for containment against a world's bodies.
    pub solids: Vec<crate::query::point::solid::TreeSolid>,
    /// The configuration's size (actuated joints).
    pub dof: usize,
    /// The link pairs tested, `(a, b)` with `a < b`: both links have
    /// shapes, they are not adjacent, and the SRDF does not disable them.
    pub pairs: Vec<(usize, usize)>,
    /// Link pairs left out as adjacent: in one rigid body (links joined by
    /// fixed joints), or in the two bodies one moving joint joins.
    pub adjacent_pairs: usize,
    /// Link pairs left out by the SRDF.
    pub disabled_pairs: usize,
    /// Mesh files read (distinct trees from files) and primitives made.
    pub mesh_files: usize,
    /// Primitive shapes made.
    pub primitives: usize,
    /// How far at most a tessellated primitive reaches outside the true
    /// shape (0 without any), in length units.
    pub tessellation_tolerance: f64,
    /// What was skipped or noticed while reading, one line each.
    pub notes: Vec<String>,
}

impl Robot {
    /// Reads the robot in the URDF at `path`; see [`RobotOptions`].
    ///
    /// # Guarantees
    /// Bad input (unreadable or oversized file, malformed XML, unknown
    /// joint type, a link missing or reached twice, a joint cycle, a
    /// missing mesh or one outside its package's folder) is an
    /// [`Error::Load`] naming the URDF, in one line, never a panic; the
    /// counts are checked against [`urdf::MAX_LINKS`] and
    /// [`urdf::MAX_GEOMETRIES`] before anything is built.
    pub fn from_urdf(path: &Path, opts: &RobotOptions) -> Result<Robot> {
        unstopped(|stop| Robot::from_urdf_until(path, opts, stop))
    }

    /// [`Robot::from_urdf`], giving up with [`Stopped`] when `stop` is set:
    /// checked before each link's shapes and inside each tree's build (one
    /// mesh file's load runs to its end).
    pub fn from_urdf_until(
        path: &Path,
        opts: &RobotOptions,
        stop: Stop<'_>,
    ) -> std::result::Result<Result<Robot>, Stopped> {
        let built = build::build(path, opts, stop);
        stop.check()?;
        Ok(built)
    }

    /// The actuated joints' names, in configuration order.
    pub fn joint_names(&self) -> Vec<&str> {
        let mut names = vec![""; self.dof];
        for j in &self.joints {
            if let Some(i) = j.dof {
                names[i] = &j.name;
            }
        }
        names
    }

    /// The actuated joints' limits, in configuration order (`None` for a
    /// continuous joint).
    pub fn joint_limits(&self) -> Vec<Option<(f64, f64)>> {
        let mut out = vec![None; self.dof];
        for j in &self.joints {
            if let Some(i) = j.dof {
                out[i] = if j.kind == JointKind::Continuous {
                    None
                } else {
                    j.limits
                };
            }
        }
        out
    }

    /// Triangles over the distinct trees.
    pub fn triangle_count(&self) -> usize {
        self.trees.iter().map(|t| t.triangle_count()).sum()
    }

    /// Checks that `q` is one configuration: [`Robot::dof`] finite values
    /// within ±2^50 ([`crate::mesh::MAX_COORDINATE`], the range of every
    /// coordinate and pose translation: a prismatic joint moves a link by
    /// its value, and the exact tests are exact only within that range).
    pub fn check_configuration(&self, q: &[f64]) -> Result<()> {
        if q.len() != self.dof {
            return Err(Error::Input(format!(
                "a configuration of {} has {} values, expected {} (one per actuated joint)",
                self.name,
                q.len(),
                self.dof
            )));
        }
        let limit = crate::mesh::MAX_COORDINATE;
        if let Some(v) = q.iter().find(|v| !v.is_finite() || v.abs() > limit) {
            return Err(Error::Input(format!(
                "a configuration of {} holds {v:e}, not a finite number within ±2^50",
                self.name
            )));
        }
        Ok(())
    }

    /// Every link's pose in the root link's frame at configuration `q`
    /// (checked: [`Robot::check_configuration`]).
    pub fn forward_kinematics(&self, q: &[f64]) -> Result<Vec<Isometry3<f64>>> {
        self.check_configuration(q)?;
        Ok(self.link_poses(q))
    }

    /// [`Robot::forward_kinematics`] without the check (`q` has `dof`
    /// values).
    fn link_poses(&self, q: &[f64]) -> Vec<Isometry3<f64>> {
        let mut poses = vec![Isometry3::identity(); self.links.len()];
        for &j in &self.order {
            let joint = &self.joints[j];
            poses[joint.child] = poses[joint.parent] * joint.transform(joint.value(q));
        }
        poses
    }

    /// [`Robot::forward_kinematics`] for `qs`, `n × dof` values row by row,
    /// on the worker pool: `n × links` poses, configuration by
    /// configuration.
    pub fn forward_kinematics_batch(&self, qs: &[f64]) -> Result<Vec<Isometry3<f64>>> {
        use rayon::prelude::*;
        self.check_batch(qs)?;
        Ok(crate::threads::on_pool(|| {
            qs.par_chunks(self.dof.max(1))
                .flat_map_iter(|q| self.link_poses(q))
                .collect()
        }))
    }

    /// Checks a batch of configurations.
    fn check_batch(&self, qs: &[f64]) -> Result<()> {
        if self.dof == 0 {
            return Err(Error::Input(format!(
                "{} has no actuated joint: no configuration to check",
                self.name
            )));
        }
        if !qs.len().is_multiple_of(self.dof) {
            return Err(Error::Input(format!(
                "{} values are not whole configurations of {} values",
                qs.len(),
                self.dof
            )));
        }
        qs.chunks(self.dof)
            .try_for_each(|q| self.check_configuration(q))
    }

    /// The index of the link named `name`.
    pub fn link_index(&self, name: &str) -> Option<usize> {
        self.links.iter().position(|l| l.name == name)
    }
}
