//! `bvtool robot --check FILE --distance` on request beyond the least
//! self-distance: `--per-pair` (every tested link pair's distance) and,
//! with `--world SCENE`, the least robot-to-world distance.

use bvtool::Error;
use bvtool::mesh::xyz;
use bvtool::robots::{Robot, RobotWorldDistance, SelfDistance};
use bvtool::world::World;
use serde::Serialize;

/// The distance options of `robot --check`.
#[derive(clap::Args, Debug)]
pub struct DistanceArgs {
    /// With --distance, also every tested link pair's least distance at
    /// each configuration (JSON `pair_distances`, in the order of
    /// `pairs`; the text summary stays one line a configuration).
    #[arg(long, requires = "distance")]
    pub per_pair: bool,
}

/// One link pair's distance in `pair_distances`.
#[derive(Serialize)]
pub(super) struct PairDistanceDoc<'a> {
    link1: &'a str,
    link2: &'a str,
    distance: f64,
    point_a: [f64; 3],
    point_b: [f64; 3],
    rounding_bound: f64,
}

/// The robot-to-world distance of one configuration.
#[derive(Serialize)]
pub(super) struct WorldDistanceDoc<'a> {
    pub(super) distance: f64,
    pub(super) link: &'a str,
    pub(super) body: &'a str,
    point_link: [f64; 3],
    point_body: [f64; 3],
    pub(super) rounding_bound: f64,
}

/// The per-pair and world distances of a batch, each `None` when not asked.
pub(super) struct Distances {
    pairs: Option<Vec<Vec<SelfDistance>>>,
    world: Option<Vec<Option<RobotWorldDistance>>>,
}

/// The distances asked (`--per-pair`; `--world` with `--distance`) at
/// configurations `qs`, on all threads.
pub(super) fn compute(
    robot: &Robot,
    qs: &[f64],
    per_pair: bool,
    world: Option<&World>,
) -> Result<Distances, Error> {
    Ok(Distances {
        pairs: match per_pair {
            true => Some(robot.self_distance_pairs_batch(qs)?),
            false => None,
        },
        world: world
            .map(|w| robot.world_distance_batch(qs, w))
            .transpose()?,
    })
}

impl Distances {
    /// Configuration `i`'s `pair_distances`.
    pub(super) fn pairs_doc<'a>(
        &self,
        robot: &'a Robot,
        i: usize,
    ) -> Option<Vec<PairDistanceDoc<'a>>> {
        let name = |l: usize| robot.links[l].name.as_str();
        self.pairs.as_ref().map(|p| {
            p[i].iter()
                .map(|d| PairDistanceDoc {
                    link1: name(d.pair.0),
                    link2: name(d.pair.1),
                    distance: d.distance,
                    point_a: xyz(&d.point_a),
                    point_b: xyz(&d.point_b),
                    rounding_bound: d.rounding_bound,
                })
                .collect()
        })
    }

    /// Configuration `i`'s `world_distance` (`Some(None)`: no body).
    pub(super) fn world_doc<'a>(
        &self,
        robot: &'a Robot,
        world: Option<&'a World>,
        i: usize,
    ) -> Option<Option<WorldDistanceDoc<'a>>> {
        let (d, w) = self.world.as_ref().zip(world)?;
        Some(d[i].map(|d| WorldDistanceDoc {
            distance: d.distance,
            link: robot.links[d.link].name.as_str(),
            body: w.bodies()[d.body].name.as_str(),
            point_link: xyz(&d.point_link),
            point_body: xyz(&d.point_body),
            rounding_bound: d.rounding_bound,
        }))
    }
}

/// The text summary's part for a configuration's world distance.
pub(super) fn world_text(d: &Option<Option<WorldDistanceDoc>>) -> String {
    match d {
        Some(Some(d)) => format!(
            "; world distance {:.6e} (±{:.1e}) {}–{}",
            d.distance, d.rounding_bound, d.link, d.body
        ),
        Some(None) => "; world distance: no body".to_string(),
        None => String::new(),
    }
}
