//! `bvtool robot`.

use super::output::{Failure, Outcome, out, out_json, out_lines};
use super::stream::SummaryLine;
use bvtool::Error;
use bvtool::batch::collide::CHUNK;
use bvtool::load::LoadOptions;
use bvtool::mesh::xyz;
use bvtool::robots::{GeometryKind, Robot, RobotOptions, SelfCollision, SelfDistance};
use bvtool::world::World;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Read a robot from a URDF: its links, joints and geometry, and with
/// --check its self-collision (and --distance its least self-distance) at
/// each configuration of a file.
///
/// A configuration is one value per actuated joint (revolute, continuous
/// and prismatic joints without <mimic>), in the URDF's document order
/// (the summary lists it); radians and the file's length unit; limits are
/// not applied. Link poses are in the root link's frame; rpy is roll about
/// x, then pitch about y, then yaw about z (fixed axes).
///
/// Tested link pairs: every pair of links with geometry, except adjacent
/// links (in one rigid body, links joined by fixed joints; or in the two
/// bodies one moving joint joins) and the SRDF's disable_collisions pairs. Each answer is exact: link meshes placed by
/// forward kinematics, tested with the exact triangle predicates (touching
/// counts).
///
/// With --world SCENE, each configuration also lists the links that touch a
/// body of the scene (each node a body, in the robot's root frame; exact,
/// touching counts).
///
/// Meshes are read as `package://NAME/PATH` (NAME's folder given by
/// --package, else the nearest folder up from the URDF whose package.xml
/// names it) or relative to the URDF; either way they must lie inside that
/// folder (symbolic links resolved). Spheres, cylinders and capsules are
/// tessellated outward (the summary gives the tolerance).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The URDF file.
    urdf: PathBuf,
    /// The folder of a ROS package named by `package://NAME/...` (repeatable).
    #[arg(long, value_name = "NAME=DIR", value_parser = package_arg)]
    package: Vec<(String, PathBuf)>,
    /// An SRDF whose <disable_collisions> link pairs are not tested.
    #[arg(long, value_name = "FILE")]
    srdf: Option<PathBuf>,
    /// Use the links' <visual> geometry instead of <collision>.
    #[arg(long)]
    visual: bool,
    /// Check self-collision at each configuration of FILE: `.json` (an
    /// array of arrays of numbers), `.npy` (float64 or float32, shape
    /// (n, dof)), `.csv` or `.jsonl` (one configuration a line).
    #[arg(long, value_name = "FILE")]
    check: Option<PathBuf>,
    /// With --check, also the least distance between tested link pairs at
    /// each configuration, with its closest points; with --world, also the
    /// least distance between a link and a body of the scene.
    #[arg(long, requires = "check")]
    distance: bool,
    /// With --check, also which links touch which bodies of a scene FILE
    /// (glTF, OBJ or STL; each node a body, in the robot's root frame).
    #[arg(long, value_name = "FILE", requires = "check")]
    world: Option<PathBuf>,
    /// With --check, stop at the first colliding pair of a configuration
    /// (faster; lists at most one pair).
    #[arg(long, requires = "check")]
    first: bool,
    /// Print one JSON document (docs/json.md) instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    acm: super::robot_acm::AcmArgs,
    #[command(flatten)]
    picture: super::robot_render::RenderArgs,
    #[command(flatten)]
    distances: super::robot_distance::DistanceArgs,
    /// With --check, print JSON Lines as the answers come: one compact
    /// line per configuration (`{"index", ...}` and the fields of an entry
    /// of --json's `configurations`), 4,096 configurations at a time, then
    /// `{"summary": {...}}` (--json's document without `configurations`,
    /// with `checked` and `colliding` counts).
    #[arg(long, requires = "check", conflicts_with = "json")]
    jsonl: bool,
}

fn package_arg(s: &str) -> Result<(String, PathBuf), String> {
    match s.split_once('=') {
        Some((n, d)) if !n.is_empty() && !d.is_empty() => Ok((n.to_string(), PathBuf::from(d))),
        _ => Err(format!("expected NAME=DIR, got '{s}'")),
    }
}

/// The most configurations one --check file may hold.
const MAX_CONFIGURATIONS: usize = 10_000_000;

/// The configurations in `path`, `n × dof` values.
pub(super) fn read_configurations(path: &Path, dof: usize) -> Result<Vec<f64>, Error> {
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let values = if is_json {
        let bytes = bvtool::load::read_input(path)?;
        let rows: Vec<Vec<f64>> = serde_json::from_slice(&bytes).map_err(|e| {
            Error::load(
                path,
                format!("expected an array of arrays of numbers ({e})"),
            )
        })?;
        if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != dof) {
            return Err(Error::load(
                path,
                format!("configuration {i} has {} values, expected {dof}", r.len()),
            ));
        }
        rows.concat()
    } else {
        bvtool::load::points::read_rows(path, dof)?
    };
    if values.len() / dof.max(1) > MAX_CONFIGURATIONS {
        return Err(Error::load(
            path,
            format!("more than {MAX_CONFIGURATIONS} configurations"),
        ));
    }
    Ok(values)
}

#[derive(Serialize)]
struct JointDoc<'a> {
    name: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    parent: &'a str,
    child: &'a str,
    dof: Option<usize>,
    limits: Option<[f64; 2]>,
    mimic: Option<MimicDoc<'a>>,
}

#[derive(Serialize)]
struct MimicDoc<'a> {
    joint: &'a str,
    multiplier: f64,
    offset: f64,
}

#[derive(Serialize)]
struct DistanceDoc<'a> {
    distance: f64,
    links: [&'a str; 2],
    point_a: [f64; 3],
    point_b: [f64; 3],
    rounding_bound: f64,
}

/// One configuration's line of `--jsonl`.
#[derive(Serialize)]
struct ConfigurationLine<'a> {
    index: usize,
    #[serde(flatten)]
    answer: ConfigurationDoc<'a>,
}

/// The last line of `--jsonl`.
#[derive(Serialize)]
struct RobotSummary<'a> {
    #[serde(flatten)]
    robot: RobotDoc<'a>,
    checked: usize,
    colliding: usize,
}

#[derive(Serialize)]
struct ConfigurationDoc<'a> {
    colliding: bool,
    pairs: Vec<[&'a str; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<Option<DistanceDoc<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    world: Option<Vec<[&'a str; 2]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pair_distances: Option<Vec<super::robot_distance::PairDistanceDoc<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    world_distance: Option<Option<super::robot_distance::WorldDistanceDoc<'a>>>,
}

#[derive(Serialize)]
struct RobotDoc<'a> {
    urdf: String,
    name: &'a str,
    root: &'a str,
    links: Vec<&'a str>,
    joints: Vec<JointDoc<'a>>,
    dof: usize,
    joint_order: Vec<&'a str>,
    geometry: &'static str,
    mesh_files: usize,
    primitives: usize,
    trees: usize,
    triangles: usize,
    tessellation_tolerance: f64,
    pairs: &'a [(usize, usize)],
    adjacent_pairs: usize,
    disabled_pairs: usize,
    notes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    configurations: Option<Vec<ConfigurationDoc<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    check_ms: Option<f64>,
}

pub fn run(args: &Args, opts: &LoadOptions) -> Outcome {
    let robot = Robot::from_urdf(
        &args.urdf,
        &RobotOptions {
            geometry: if args.visual {
                GeometryKind::Visual
            } else {
                GeometryKind::Collision
            },
            packages: args.package.clone(),
            srdf: args.srdf.clone(),
            load: *opts,
        },
    )?;
    if args.acm.asked() {
        return super::robot_acm::run(&robot, &args.acm, args.json);
    }
    args.picture.run(&robot, args.check.as_deref())?;
    let world = match &args.world {
        Some(path) => Some(World::from_scene(&bvtool::load::load(path, opts)?)?),
        None => None,
    };
    let qs = match &args.check {
        Some(_) if robot.dof == 0 => {
            return Err(Failure::Input(Error::load(
                &args.urdf,
                "no actuated joint: nothing to --check",
            )));
        }
        Some(path) => Some(read_configurations(path, robot.dof)?),
        None => None,
    };
    let name = |l: usize| robot.links[l].name.as_str();
    let distance_doc = |d: &SelfDistance| DistanceDoc {
        distance: d.distance,
        links: [name(d.pair.0), name(d.pair.1)],
        point_a: xyz(&d.point_a),
        point_b: xyz(&d.point_b),
        rounding_bound: d.rounding_bound,
    };
    // The answers at configurations `qs` (n × dof values), on all threads.
    let answer = |qs: &[f64]| -> Result<Vec<ConfigurationDoc>, Error> {
        let hits = robot.self_collision_batch(qs, args.first)?;
        let dists = match args.distance {
            true => Some(robot.self_distance_batch(qs)?),
            false => None,
        };
        let touching = match &world {
            Some(w) => Some(robot.world_collision_batch(qs, w, args.first)?),
            None => None,
        };
        let more = super::robot_distance::compute(
            &robot,
            qs,
            args.distances.per_pair,
            world.as_ref().filter(|_| args.distance),
        )?;
        Ok(hits
            .iter()
            .enumerate()
            .map(|(i, h): (usize, &SelfCollision)| ConfigurationDoc {
                colliding: !h.pairs.is_empty(),
                pairs: h.pairs.iter().map(|&(a, b)| [name(a), name(b)]).collect(),
                distance: dists.as_ref().map(|d| d[i].as_ref().map(distance_doc)),
                world: touching.as_ref().zip(world.as_ref()).map(|(t, w)| {
                    let body = |b: usize| w.bodies()[b].name.as_str();
                    t[i].iter().map(|&(l, b)| [name(l), body(b)]).collect()
                }),
                pair_distances: more.pairs_doc(&robot, i),
                world_distance: more.world_doc(&robot, world.as_ref(), i),
            })
            .collect())
    };
    let start = std::time::Instant::now();
    let ms = || Some(start.elapsed().as_secs_f64() * 1e3);
    if let (Some(qs), true) = (&qs, args.jsonl) {
        let (mut checked, mut colliding) = (0, 0);
        for chunk in qs.chunks(CHUNK * robot.dof) {
            let lines: Vec<ConfigurationLine> = answer(chunk)?
                .into_iter()
                .map(|answer| {
                    colliding += usize::from(answer.colliding);
                    checked += 1;
                    ConfigurationLine {
                        index: checked - 1,
                        answer,
                    }
                })
                .collect();
            out_lines(&lines)?;
        }
        let summary = RobotSummary {
            robot: robot_doc(&robot, args, None, ms()),
            checked,
            colliding,
        };
        return out_lines(&[SummaryLine { summary }]);
    }
    let configurations = qs.as_deref().map(answer).transpose()?;
    let check_ms = configurations.as_ref().and_then(|_| ms());
    let doc = robot_doc(&robot, args, configurations, check_ms);
    if args.json {
        out_json(&doc)
    } else {
        out(&text(&robot, &doc))
    }
}

/// The `--json` document of `robot`, with the configurations checked and
/// the time they took.
fn robot_doc<'a>(
    robot: &'a Robot,
    args: &Args,
    configurations: Option<Vec<ConfigurationDoc<'a>>>,
    check_ms: Option<f64>,
) -> RobotDoc<'a> {
    let name = |l: usize| robot.links[l].name.as_str();
    RobotDoc {
        urdf: args.urdf.display().to_string(),
        name: &robot.name,
        root: name(robot.root),
        links: robot.links.iter().map(|l| l.name.as_str()).collect(),
        joints: robot
            .joints
            .iter()
            .map(|j| JointDoc {
                name: &j.name,
                kind: j.kind.name(),
                parent: name(j.parent),
                child: name(j.child),
                dof: j.dof,
                limits: j.limits.map(|(a, b)| [a, b]),
                mimic: j.mimic.map(|m| MimicDoc {
                    joint: robot.joint_names()[m.dof],
                    multiplier: m.multiplier,
                    offset: m.offset,
                }),
            })
            .collect(),
        dof: robot.dof,
        joint_order: robot.joint_names(),
        geometry: if args.visual { "visual" } else { "collision" },
        mesh_files: robot.mesh_files,
        primitives: robot.primitives,
        trees: robot.trees.len(),
        triangles: robot.triangle_count(),
        tessellation_tolerance: robot.tessellation_tolerance,
        pairs: &robot.pairs,
        adjacent_pairs: robot.adjacent_pairs,
        disabled_pairs: robot.disabled_pairs,
        notes: &robot.notes,
        configurations,
        check_ms,
    }
}

fn text(robot: &Robot, doc: &RobotDoc) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "robot {} ({})", doc.name, doc.urdf);
    let kinds = ["revolute", "continuous", "prismatic", "fixed"]
        .iter()
        .filter_map(|k| {
            let n = doc.joints.iter().filter(|j| j.kind == *k).count();
            (n > 0).then(|| format!("{n} {k}"))
        })
        .collect::<Vec<_>>()
        .join(", ");
    let mimics = doc.joints.iter().filter(|j| j.mimic.is_some()).count();
    let with_shapes = robot.links.iter().filter(|l| !l.shapes.is_empty()).count();
    let _ = writeln!(
        s,
        "links {} ({with_shapes} with {} geometry), root {}; joints {}: {kinds}{}",
        doc.links.len(),
        doc.geometry,
        doc.root,
        doc.joints.len(),
        if mimics > 0 {
            format!(" ({mimics} mimic)")
        } else {
            String::new()
        }
    );
    let order = doc
        .joint_order
        .iter()
        .zip(robot.joint_limits())
        .map(|(n, l)| match l {
            Some((a, b)) => format!("{n} [{a}, {b}]"),
            None => n.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let _ = writeln!(s, "dof {}: {order}", doc.dof);
    let _ = writeln!(
        s,
        "geometry: {} mesh files, {} primitives{}, {} trees, {} triangles",
        doc.mesh_files,
        doc.primitives,
        if doc.primitives > 0 {
            format!(
                " (tessellated at most {:.3e} outside)",
                doc.tessellation_tolerance
            )
        } else {
            String::new()
        },
        doc.trees,
        doc.triangles
    );
    let _ = writeln!(
        s,
        "link pairs tested: {} ({} adjacent and {} SRDF pairs left out)",
        doc.pairs.len(),
        doc.adjacent_pairs,
        doc.disabled_pairs
    );
    for n in doc.notes {
        let _ = writeln!(s, "note: {n}");
    }
    if let (Some(configs), Some(ms)) = (&doc.configurations, doc.check_ms) {
        let _ = writeln!(s);
        for (i, c) in configs.iter().enumerate() {
            let pairs = if c.colliding {
                let p = c
                    .pairs
                    .iter()
                    .map(|[a, b]| format!("{a}–{b}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!("collides: {p}")
            } else {
                "clear".to_string()
            };
            let dist = match &c.distance {
                Some(Some(d)) => format!(
                    "; distance {:.6e} (±{:.1e}) {}–{}",
                    d.distance, d.rounding_bound, d.links[0], d.links[1]
                ),
                Some(None) => "; distance: no pair".to_string(),
                None => String::new(),
            };
            let touching = match &c.world {
                Some(t) if t.is_empty() => "; world: clear".to_string(),
                Some(t) => {
                    let p = t
                        .iter()
                        .map(|[l, b]| format!("{l}–{b}"))
                        .collect::<Vec<_>>();
                    format!("; world: {}", p.join(", "))
                }
                None => String::new(),
            };
            let far = super::robot_distance::world_text(&c.world_distance);
            let _ = writeln!(s, "#{i}: {pairs}{dist}{touching}{far}");
        }
        let colliding = configs.iter().filter(|c| c.colliding).count();
        let world = match configs.first().and_then(|c| c.world.as_ref()) {
            Some(_) => {
                let n = configs
                    .iter()
                    .filter(|c| c.world.as_ref().is_some_and(|w| !w.is_empty()));
                format!(", {} touching the world", n.count())
            }
            None => String::new(),
        };
        let _ = writeln!(
            s,
            "{}, {colliding} colliding{world}; {:.3} ms ({:.2} µs a configuration, all cores)",
            bvtool::error::count(configs.len(), "configuration"),
            ms,
            ms * 1e3 / configs.len().max(1) as f64
        );
    }
    s
}
