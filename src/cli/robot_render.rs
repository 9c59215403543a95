//! `bvtool robot URDF --render out.png`: the robot at one configuration,
//! colliding links highlighted.

use super::output::{Failure, wrote};
use bvtool::Error;
use bvtool::render::robot::robot_picture;
use bvtool::render::{RenderOptions, UpAxis, save_png};
use bvtool::robots::Robot;
use std::path::{Path, PathBuf};

/// The `--render` flags of `bvtool robot`.
#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// Draw the robot at one configuration (iso view, +Z up, 1024×768) to a
    /// PNG: the links of colliding pairs in magenta, the others grey; the
    /// title names the robot, the configuration and the colliding pairs.
    #[arg(long, value_name = "PNG", value_parser = super::render::png_path, conflicts_with = "acm")]
    render: Option<PathBuf>,
    /// With --render: the configuration drawn, one value per actuated joint
    /// separated by commas (default: the default configuration, 0 or the
    /// middle of limits that exclude 0).
    #[arg(
        long,
        value_name = "Q0,Q1,...",
        requires = "render",
        conflicts_with = "config_index",
        allow_hyphen_values = true
    )]
    config: Option<String>,
    /// With --render and --check: draw configuration K (from 0) of the
    /// --check file.
    #[arg(long, value_name = "K", requires_all = ["render", "check"])]
    config_index: Option<usize>,
}

impl RenderArgs {
    /// Draws the picture when `--render` was given; `check` is the
    /// `--check` file.
    pub fn run(&self, robot: &Robot, check: Option<&Path>) -> Result<(), Failure> {
        let Some(png) = &self.render else {
            return Ok(());
        };
        let q = match (&self.config, self.config_index, check) {
            (Some(text), _, _) => text
                .split(',')
                .map(|v| {
                    v.trim().parse::<f64>().map_err(|_| {
                        Error::Input(format!("--config: '{}' is not a number", v.trim()))
                    })
                })
                .collect::<Result<Vec<f64>, Error>>()?,
            (None, Some(k), Some(path)) => {
                let qs = super::robot::read_configurations(path, robot.dof)?;
                let n = qs.len() / robot.dof.max(1);
                if k >= n {
                    return Err(Error::load(
                        path,
                        format!("--config-index {k}: the file holds {n} configurations"),
                    )
                    .into());
                }
                qs[k * robot.dof..(k + 1) * robot.dof].to_vec()
            }
            _ => robot.default_configuration(),
        };
        let poses = robot.forward_kinematics(&q)?;
        let hits = robot.self_collision(&q, false)?;
        let name = |l: usize| robot.links[l].name.as_str();
        let values: Vec<String> = q.iter().map(|v| format!("{v:.4}")).collect();
        let title = vec![
            format!("{} at [{}]", robot.name, values.join(", ")),
            if hits.pairs.is_empty() {
                format!("no colliding link pair ({} tested)", robot.pairs.len())
            } else {
                let pairs: Vec<String> = hits
                    .pairs
                    .iter()
                    .map(|&(a, b)| format!("{}–{}", name(a), name(b)))
                    .collect();
                format!("colliding: {}", pairs.join(", "))
            },
        ];
        let opts = RenderOptions {
            up: UpAxis::Z,
            ..RenderOptions::default()
        };
        let image = robot_picture(robot, &poses, &hits.pairs, &title, &opts)?;
        save_png(&image, png)?;
        wrote(
            png,
            &format!("{}x{} picture", image.width(), image.height()),
        );
        Ok(())
    }
}
