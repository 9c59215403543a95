//! `bvtool compare`: how tight each bounding volume is, what it costs to fit,
//! what an AABB costs once the model turns, and how much work the tighter
//! boxes of an OBB tree save over an AABB tree of the same split.

use super::table::{Table, num};
use crate::error::{Error, Result};
use crate::fit::{self, Aabb, ConvexHull, ObbMethod, SphereMethod};
use crate::mesh::Scene;
use crate::query::poses::{near_boundary_with_trees, random_rotation};
use crate::query::{ContactMode, collide};
use crate::tree::{ObbTree, TreeStats};
use nalgebra::Point3;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::time::Instant;

/// One fitted volume's measures.
#[derive(Debug, Serialize)]
pub struct VolumeCost {
    /// `aabb`, `obb` or `sphere`.
    pub kind: &'static str,
    /// The fitting method (`min/max` for the AABB).
    pub method: &'static str,
    /// Volume (model units³).
    pub volume: f64,
    /// Surface area (model units²).
    pub surface_area: f64,
    /// Volume divided by the convex hull's volume (≥ 1; `null` for a flat model).
    pub hull_ratio: Option<f64>,
    /// Fit time in milliseconds. Methods that use the convex hull (OBB `hull`
    /// and `tight`, the `exact` sphere) are timed with the hull given, as
    /// `bvtool fit` runs them; the hull is timed once, as `hull_ms`.
    pub fit_ms: f64,
}

/// The AABB of the model under random rotations.
#[derive(Debug, Serialize)]
pub struct RotationCost {
    /// Rotations drawn (uniform on SO(3)).
    pub rotations: usize,
    /// Their seed.
    pub seed: u64,
    /// Mean of AABB volume / tight OBB volume over the rotations.
    pub mean_ratio: f64,
    /// The largest such ratio.
    pub worst_ratio: f64,
    /// The smallest such ratio.
    pub best_ratio: f64,
}

/// Work done by one tree over the pose set.
#[derive(Debug, Serialize)]
pub struct TreeWork {
    /// Box–box tests, summed over the poses.
    pub box_tests: u64,
    /// Exact triangle tests, summed over the poses.
    pub triangle_tests: u64,
}

/// The OBB tree against an AABB tree of the same split.
#[derive(Debug, Serialize)]
pub struct TreeCost {
    /// Sum of node OBB volumes per level (index = depth).
    pub obb_volume_per_level: Vec<f64>,
    /// Sum of node AABB volumes per level.
    pub aabb_volume_per_level: Vec<f64>,
    /// Poses of the model against itself near the contact boundary (all
    /// contacts found at each).
    pub poses: usize,
    /// Work of the OBB tree.
    pub obb: TreeWork,
    /// Work of the AABB tree (same nodes, axis-aligned boxes).
    pub aabb: TreeWork,
}

/// The whole comparison for one file.
#[derive(Debug, Serialize)]
pub struct Comparison {
    /// The file as given.
    pub file: String,
    /// Triangles (world frame, flattened).
    pub triangles: usize,
    /// Convex hull volume.
    pub hull_volume: f64,
    /// Convex hull time, milliseconds.
    pub hull_ms: f64,
    /// Every volume kind and method.
    pub volumes: Vec<VolumeCost>,
    /// The AABB under rotation.
    pub aabb_under_rotation: RotationCost,
    /// The trees (`null` when skipped with `--no-tree`).
    pub trees: Option<TreeCost>,
    /// Where the time went.
    pub timings: Timings,
}

/// Wall time of each part of a comparison, in milliseconds: on a big
/// model the tree part (building the tree, searching near-contact poses by
/// bisection, then colliding both trees at each) costs the most time and
/// memory, and can be skipped.
#[derive(Debug, Default, Serialize)]
pub struct Timings {
    /// The convex hull.
    pub hull_ms: f64,
    /// Every volume fit (the sum of their `fit_ms`).
    pub fits_ms: f64,
    /// The AABB under the random rotations.
    pub rotations_ms: f64,
    /// Building the OBB tree and its AABB twin.
    pub tree_build_ms: f64,
    /// Finding the near-contact poses.
    pub pose_search_ms: f64,
    /// Colliding both trees at every pose.
    pub tree_queries_ms: f64,
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed().as_secs_f64() * 1e3)
}

/// Options of a comparison.
#[derive(Clone, Copy, Debug)]
pub struct CompareOptions {
    /// Random rotations for the AABB figure.
    pub rotations: usize,
    /// Poses for the tree figure.
    pub poses: usize,
    /// Seed of both.
    pub seed: u64,
    /// Measure the trees too (the expensive part on big models).
    pub trees: bool,
}

impl Comparison {
    /// Measures everything for one scene.
    pub fn new(file: &str, scene: &Scene, opts: &CompareOptions) -> Result<Comparison> {
        let path = &scene.path;
        if scene.triangle_count() == 0 {
            return Err(Error::geometry(
                path,
                "no triangles to compare (a point cloud can be bounded with fit)",
            ));
        }
        let points = scene.world_points(false);
        let (hull, hull_ms) = timed(|| ConvexHull::new(&points));
        let hull = hull.map_err(|e| Error::geometry(path, e.to_string()))?;
        let hv = hull.volume();
        let ratio = |v: f64| (hv > 0.0).then(|| v / hv);
        let (aabb, aabb_ms) = timed(|| Aabb::from_points(&points));
        let aabb = aabb.ok_or_else(|| Error::geometry(path, "no triangles to bound"))?;
        let mut volumes = vec![VolumeCost {
            kind: "aabb",
            method: "min/max",
            volume: aabb.volume(),
            surface_area: aabb.surface_area(),
            hull_ratio: ratio(aabb.volume()),
            fit_ms: aabb_ms,
        }];
        let mut tight_volume = aabb.volume();
        for &m in ObbMethod::ALL {
            let (b, ms) = timed(|| fit::obb(&points, &hull, m).expect("points are not empty"));
            if m == ObbMethod::Tight {
                tight_volume = b.volume();
            }
            volumes.push(VolumeCost {
                kind: "obb",
                method: m.as_str(),
                volume: b.volume(),
                surface_area: b.surface_area(),
                hull_ratio: ratio(b.volume()),
                fit_ms: ms,
            });
        }
        for &m in SphereMethod::ALL {
            let (s, ms) =
                timed(|| fit::sphere_with_hull(&points, &hull, m).expect("points are not empty"));
            volumes.push(VolumeCost {
                kind: "sphere",
                method: m.as_str(),
                volume: s.volume(),
                surface_area: s.surface_area(),
                hull_ratio: ratio(s.volume()),
                fit_ms: ms,
            });
        }
        let mut timings = Timings {
            hull_ms,
            fits_ms: volumes.iter().map(|v| v.fit_ms).sum(),
            ..Timings::default()
        };
        let (aabb_under_rotation, rotations_ms) =
            timed(|| rotation_cost(&hull.vertices, tight_volume, opts));
        timings.rotations_ms = rotations_ms;
        let trees = opts.trees.then(|| tree_cost(scene, opts, &mut timings));
        Ok(Comparison {
            file: file.to_string(),
            triangles: scene.triangle_count(),
            hull_volume: hv,
            hull_ms,
            volumes,
            aabb_under_rotation,
            trees,
            timings,
        })
    }

    /// The bars of `--plot`: every volume's ratio to the hull.
    pub fn bars(&self) -> (String, Vec<(String, f64)>) {
        let name = std::path::Path::new(&self.file)
            .file_name()
            .map_or(self.file.clone(), |n| n.to_string_lossy().into_owned());
        let bars = self
            .volumes
            .iter()
            .map(|v| {
                let label = if v.kind == "aabb" {
                    "AABB".to_string()
                } else {
                    format!("{} {}", v.kind, v.method)
                };
                (label, v.hull_ratio.unwrap_or(f64::NAN))
            })
            .collect();
        (name, bars)
    }

    /// The human-readable form.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{}  ({} triangles; convex hull volume {} in {} ms)\n",
            self.file,
            self.triangles,
            num(self.hull_volume, 5),
            num(self.hull_ms, 3)
        );
        let mut t = Table::new(&["volume", "method", "volume", "/ hull", "area", "fit ms"]);
        for v in &self.volumes {
            t.row(vec![
                match v.kind {
                    "aabb" => "AABB",
                    "obb" => "OBB",
                    other => other,
                }
                .into(),
                v.method.into(),
                num(v.volume, 5),
                v.hull_ratio.map_or("-".into(), |r| format!("{r:.3}x")),
                num(v.surface_area, 5),
                num(v.fit_ms, 3),
            ]);
        }
        out += &t.render(2);
        let r = &self.aabb_under_rotation;
        out += &format!(
            "  AABB under {} random rotations: mean {:.3}x, worst {:.3}x, best {:.3}x the tight OBB\n",
            r.rotations, r.mean_ratio, r.worst_ratio, r.best_ratio
        );
        if let Some(tr) = &self.trees {
            out += &super::tree::level_table(&tr.obb_volume_per_level, &tr.aabb_volume_per_level);
            out += &format!(
                "  over {} near-contact poses of the model against itself: OBB tree {} box / {} triangle tests, AABB tree {} / {}\n",
                tr.poses,
                tr.obb.box_tests,
                tr.obb.triangle_tests,
                tr.aabb.box_tests,
                tr.aabb.triangle_tests
            );
        }
        let t = &self.timings;
        out += &format!(
            "  time: hull {} ms, volume fits {} ms, AABB under rotation {} ms",
            num(t.hull_ms, 3),
            num(t.fits_ms, 3),
            num(t.rotations_ms, 3)
        );
        out += &match &self.trees {
            Some(_) => format!(
                ", tree build {} ms, pose search {} ms, tree queries {} ms (--no-tree skips the trees)\n",
                num(t.tree_build_ms, 3),
                num(t.pose_search_ms, 3),
                num(t.tree_queries_ms, 3)
            ),
            None => "; trees skipped (--no-tree)\n".into(),
        };
        out
    }
}

/// AABB volume of R·points over random rotations R, against `tight`. The
/// hull vertices give the same AABB as all the points, for less work.
fn rotation_cost(hull_vertices: &[Point3<f64>], tight: f64, opts: &CompareOptions) -> RotationCost {
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let ratios: Vec<f64> = (0..opts.rotations)
        .map(|_| {
            let r = random_rotation(&mut rng);
            let rotated: Vec<Point3<f64>> = hull_vertices.iter().map(|p| r * p).collect();
            Aabb::from_points(&rotated).map_or(f64::NAN, |b| b.volume() / tight)
        })
        .collect();
    let n = ratios.len().max(1) as f64;
    RotationCost {
        rotations: ratios.len(),
        seed: opts.seed,
        mean_ratio: ratios.iter().sum::<f64>() / n,
        worst_ratio: ratios.iter().copied().fold(f64::NAN, f64::max),
        best_ratio: ratios.iter().copied().fold(f64::NAN, f64::min),
    }
}

/// The OBB tree against the AABB tree of the same split, on near-boundary
/// poses of the model against itself (found with the OBB tree, built once),
/// with each part timed into `timings`.
fn tree_cost(scene: &Scene, opts: &CompareOptions, timings: &mut Timings) -> TreeCost {
    let mesh = scene.flatten();
    let ((obb_tree, aabb_tree), build_ms) = timed(|| {
        let t = ObbTree::build(&mesh);
        let a = t.with_aabb_boxes();
        (t, a)
    });
    let stats = TreeStats::of(&obb_tree);
    let (poses, search_ms) = timed(|| {
        near_boundary_with_trees(
            (&mesh, &obb_tree),
            (&mesh, &obb_tree),
            opts.poses,
            opts.seed,
        )
    });
    let work = |tree: &ObbTree| {
        poses.iter().fold(
            TreeWork {
                box_tests: 0,
                triangle_tests: 0,
            },
            |w, p| {
                let c = collide(tree, tree, p, ContactMode::All);
                TreeWork {
                    box_tests: w.box_tests + c.box_tests,
                    triangle_tests: w.triangle_tests + c.triangle_tests,
                }
            },
        )
    };
    let ((obb, aabb), queries_ms) = timed(|| (work(&obb_tree), work(&aabb_tree)));
    timings.tree_build_ms = build_ms;
    timings.pose_search_ms = search_ms;
    timings.tree_queries_ms = queries_ms;
    TreeCost {
        obb_volume_per_level: stats.obb_volume_per_level,
        aabb_volume_per_level: stats.aabb_volume_per_level,
        poses: poses.len(),
        obb,
        aabb,
    }
}
