//! The comparison `bvtool compare` prints: how tight each bounding volume is, what it costs to fit,
//! what an AABB costs once the model turns, and how much work the tighter
//! boxes of an OBB tree save over an AABB tree of the same split.

use super::scene::{Halt, halted, hull_until};
use crate::check::poses::{near_boundary_with_trees, random_rotation};
use crate::error::{Error, Result};
use crate::fit::surface::Surface;
use crate::fit::{
    Aabb, ConvexHull, FittedShape, KdopKind, ObbMethod, ShapeFitter, ShapeSpec, SphereMethod,
    covariance, reference,
};
use crate::mesh::{Scene, TriMesh};
use crate::query::{Air, AirOptions, Shortfall, air, shortfall};
use crate::query::{ContactMode, collide};
use crate::threads::{Stop, Stopped, unstopped};
use crate::tree::AabbTree;
use crate::tree::{ObbTree, TreeStats};
use nalgebra::Point3;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// One fitted volume's measures.
#[derive(Debug, Serialize)]
pub struct VolumeCost {
    /// `aabb`, `obb`, `sphere`, `capsule`, `cylinder`, `kdop26`, `hull`
    /// (under a vertex budget) or `decomposition`.
    pub kind: &'static str,
    /// The fitting method (`min/max` for the AABB; see docs/compare.md).
    pub method: &'static str,
    /// Whose rule: `bvtool`, or the engine rule reimplemented as a
    /// reference fit (`godot`, `unreal`, `gte`).
    pub source: &'static str,
    /// Volume (model units³); for a decomposition the sum of its parts'
    /// volumes (overlaps counted twice: at least the union's volume).
    pub volume: f64,
    /// Surface area (model units²; for a decomposition the parts' sum).
    pub surface_area: f64,
    /// Volume divided by the convex hull's volume (`null` for a flat model).
    pub hull_ratio: Option<f64>,
    /// Model vertices outside the volume (0 for every bvtool fit); `null`
    /// when it cannot be decided (a flat polytope).
    pub outside: Option<usize>,
    /// The largest distance from the volume's surface to the mesh: the
    /// supremum lies in `[air, air + bound]` (model units).
    pub air: Air,
    /// The largest distance from a point of the mesh to the volume, how far
    /// the mesh pokes out of it (0 when it holds the mesh): the supremum
    /// lies in `[shortfall, shortfall + bound]` (model units). Exact for a
    /// convex volume; searched to the air's tolerance for a decomposition.
    pub shortfall: Shortfall,
    /// Fit time in milliseconds. Methods that use the convex hull (OBB `hull`,
    /// `fast` and `tight`, the `exact` sphere, capsule, cylinder, k-DOPs,
    /// budget hulls) are timed with the hull given, as `bvtool fit` runs
    /// them; the hull is timed once, as `hull_ms`.
    pub fit_ms: f64,
    /// Time of the air and shortfall searches, milliseconds.
    pub air_ms: f64,
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
    /// The tolerance the air searches ran to (1/1000 of the model's
    /// diagonal), model units.
    pub air_tolerance: f64,
    /// Every volume kind and method, bvtool's and the reference fits.
    pub volumes: Vec<VolumeCost>,
    /// Volumes that could not be fitted, each with the reason (a flat
    /// model has no decomposition).
    pub skipped: Vec<String>,
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
    /// The mesh's AABB tree and every air search (the sum of their
    /// `air_ms`; the searches run in parallel).
    pub air_ms: f64,
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

/// The most random rotations a comparison takes (`compare --rotations`).
pub const MAX_ROTATIONS: usize = 100_000;
/// The most near-contact poses a comparison takes (`compare --poses`).
pub const MAX_POSES: usize = 10_000;

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

impl CompareOptions {
    /// Checks the counts before any work: 1 to [`MAX_ROTATIONS`] rotations
    /// and 1 to [`MAX_POSES`] poses.
    pub fn check(&self) -> Result<()> {
        if !(1..=MAX_ROTATIONS).contains(&self.rotations) {
            return Err(Error::Input(format!(
                "rotations {}: expected 1 to {MAX_ROTATIONS}",
                self.rotations
            )));
        }
        if !(1..=MAX_POSES).contains(&self.poses) {
            return Err(Error::Input(format!(
                "poses {}: expected 1 to {MAX_POSES}",
                self.poses
            )));
        }
        Ok(())
    }
}

impl Comparison {
    /// Measures everything for one scene.
    pub fn new(file: &str, scene: &Scene, opts: &CompareOptions) -> Result<Comparison> {
        unstopped(|stop| Comparison::new_until(file, scene, opts, stop))
    }

    /// [`Comparison::new`], giving up with [`Stopped`] when `stop` is set:
    /// checked inside the hull and the fits as `fit` checks it
    /// ([`FileVolumes::new_until`](super::FileVolumes::new_until)), before
    /// each volume's air and shortfall, every rotation, inside the tree
    /// comparison's build and before each of its collisions. V-HACD's
    /// decomposition, one volume's air and shortfall, and the search for
    /// near-boundary poses run to their ends.
    pub fn new_until(
        file: &str,
        scene: &Scene,
        opts: &CompareOptions,
        stop: Stop<'_>,
    ) -> std::result::Result<Result<Comparison>, Stopped> {
        halted(Comparison::measure(file, scene, opts, stop))
    }

    /// [`Comparison::new_until`], its two ways to end as one.
    fn measure(
        file: &str,
        scene: &Scene,
        opts: &CompareOptions,
        stop: Stop<'_>,
    ) -> std::result::Result<Comparison, Halt> {
        let path = &scene.path;
        if scene.triangle_count() == 0 {
            return Err(Error::geometry(
                path,
                "no triangles to compare (a point cloud can be bounded with fit)",
            )
            .into());
        }
        let points = scene.world_points(false);
        let (hull, hull_ms) = timed(|| hull_until(path, &points, stop));
        let hull = hull?;
        let mesh = scene.flatten();
        let Fits {
            fitted,
            tight_volume,
            diagonal,
            skipped,
        } = fit_all(path, &points, &hull, &mesh, stop)?;
        let (tree, tree_ms) = timed(|| AabbTree::build(&mesh));
        let air_opts = AirOptions::relative_to(diagonal);
        let hv = hull.volume();
        // A convex volume's shortfall is attained at a vertex of the
        // mesh's hull: its faces stand for the mesh; a decomposition's is
        // searched over the mesh itself.
        let mesh_triangles = mesh.triangle_corners();
        let hull_triangles: Vec<[Point3<f64>; 3]> = hull
            .faces
            .iter()
            .map(|f| f.map(|i| hull.vertices[i as usize]))
            .collect();
        let stands_for_mesh = if hull_triangles.is_empty() {
            &mesh_triangles
        } else {
            &hull_triangles
        };
        let volumes: Vec<Option<VolumeCost>> = fitted
            .into_par_iter()
            .map(|f| {
                if stop.is_set() {
                    return None;
                }
                let (a, air_ms) = timed(|| {
                    let pieces = if f.union {
                        &mesh_triangles
                    } else {
                        stands_for_mesh
                    };
                    (
                        air(&tree, &f.surfaces, &air_opts),
                        shortfall(pieces, &f.surfaces, &air_opts),
                    )
                });
                Some(VolumeCost {
                    kind: f.kind,
                    method: f.method,
                    source: f.source,
                    volume: f.volume,
                    surface_area: f.surface_area,
                    hull_ratio: (hv > 0.0).then(|| f.volume / hv),
                    outside: f.outside,
                    air: a.0,
                    shortfall: a.1,
                    fit_ms: f.fit_ms,
                    air_ms,
                })
            })
            .collect();
        let volumes: Vec<VolumeCost> = volumes.into_iter().collect::<Option<_>>().ok_or(Stopped)?;
        let mut timings = Timings {
            hull_ms,
            fits_ms: volumes.iter().map(|v| v.fit_ms).sum(),
            air_ms: tree_ms + volumes.iter().map(|v| v.air_ms).sum::<f64>(),
            ..Timings::default()
        };
        let (aabb_under_rotation, rotations_ms) =
            timed(|| rotation_cost(&hull.vertices, tight_volume, opts, stop));
        let aabb_under_rotation = aabb_under_rotation?;
        timings.rotations_ms = rotations_ms;
        let trees = match opts.trees {
            true => Some(tree_cost(scene, opts, &mut timings, stop)?),
            false => None,
        };
        Ok(Comparison {
            file: file.to_string(),
            triangles: scene.triangle_count(),
            hull_volume: hv,
            hull_ms,
            air_tolerance: air_opts.tolerance,
            volumes,
            skipped,
            aabb_under_rotation,
            trees,
            timings,
        })
    }
}

/// A fitted volume before its air is measured.
struct Fitted {
    kind: &'static str,
    method: &'static str,
    source: &'static str,
    volume: f64,
    surface_area: f64,
    outside: Option<usize>,
    fit_ms: f64,
    surfaces: Vec<Surface>,
    /// Whether the volume is a union of convex parts.
    union: bool,
}

/// Every volume of a comparison, with what the rest needs.
struct Fits {
    fitted: Vec<Fitted>,
    /// The tight OBB's volume (the AABB-under-rotation figure's unit).
    tight_volume: f64,
    /// The AABB's diagonal (the air tolerance's unit).
    diagonal: f64,
    skipped: Vec<String>,
}

/// Fits every volume `compare` shows: bvtool's (AABB, every OBB and sphere
/// method, capsule, cylinder, 26-DOP in the mesh and the tight OBB's
/// frame, hulls under 255 and 64 vertices, convex decomposition) and the
/// engines' reference fits ([`crate::fit::reference`]), each timed and
/// with the model vertices it leaves outside.
fn fit_all(
    path: &std::path::Path,
    points: &[Point3<f64>],
    hull: &ConvexHull,
    mesh: &TriMesh,
    stop: Stop<'_>,
) -> std::result::Result<Fits, Halt> {
    let hv = &hull.vertices;
    // A row of one fitted shape: (kind, method, source), its fit time.
    let row =
        |name: (&'static str, &'static str, &'static str), shape: &FittedShape, fit_ms| Fitted {
            kind: name.0,
            method: name.1,
            source: name.2,
            volume: shape.volume(),
            surface_area: shape.surface_area(),
            outside: shape.outside(points),
            fit_ms,
            surfaces: shape.surfaces(),
            union: matches!(shape, FittedShape::Parts(_)),
        };
    let mut out = Vec::new();
    let (aabb, aabb_ms) = timed(|| Aabb::from_points(points));
    let aabb = aabb.ok_or_else(|| Error::geometry(path, "no triangles to bound"))?;
    stop.check()?;
    out.push(row(
        ("aabb", "min/max", "bvtool"),
        &FittedShape::Aabb(aabb),
        aabb_ms,
    ));
    // Boxes and spheres from every point (the centroid sphere's centre is
    // their mean); the other shapes from the hull's vertices, seeded and
    // framed by the tight box, with the points' covariance.
    let (mean, cov) = covariance::of_points(points).expect("points are not empty");
    let of_points = ShapeFitter::new(points, hull).with_covariance(cov);
    let mut tight = None;
    // The boxes, the spheres and the reference fits take milliseconds:
    // checked between them; the round shapes and hulls inside.
    let fit = |fitter: &ShapeFitter, spec| fitter.fit_until(spec, stop);
    for &m in ObbMethod::ALL {
        stop.check()?;
        let (b, ms) = timed(|| fit(&of_points, ShapeSpec::Box(Some(m))));
        let b = b?.expect("a box");
        if let FittedShape::Obb(o) = b
            && m == ObbMethod::Tight
        {
            tight = Some(o);
        }
        out.push(row(("obb", m.as_str(), "bvtool"), &b, ms));
    }
    let tight = tight.expect("ObbMethod::ALL has tight");
    for &m in SphereMethod::ALL {
        stop.check()?;
        let (s, ms) = timed(|| fit(&of_points, ShapeSpec::Sphere(Some(m))));
        let s = s?.expect("a sphere");
        out.push(row(("sphere", m.as_str(), "bvtool"), &s, ms));
    }
    let whole_mesh = || (mesh.vertices.clone(), mesh.triangles.clone());
    let of_hull = ShapeFitter::new(hv, hull)
        .with_covariance(cov)
        .with_reference(tight)
        .with_mesh(&whole_mesh);
    let shapes = [
        (ShapeSpec::Capsule, ("capsule", "search")),
        (ShapeSpec::Cylinder, ("cylinder", "search")),
        (
            ShapeSpec::Kdop {
                kind: KdopKind::K26,
                oriented: false,
            },
            ("kdop26", "mesh frame"),
        ),
        (
            ShapeSpec::Kdop {
                kind: KdopKind::K26,
                oriented: true,
            },
            ("kdop26", "obb frame"),
        ),
        (ShapeSpec::Hull(Some(255)), ("hull", "max 255")),
        (ShapeSpec::Hull(Some(64)), ("hull", "max 64")),
        (ShapeSpec::Decompose, ("decomposition", "v-hacd")),
    ];
    let mut skipped = Vec::new();
    for (spec, (kind, method)) in shapes {
        stop.check()?;
        match timed(|| fit(&of_hull, spec)) {
            (Ok(Ok(shape)), ms) => out.push(row((kind, method, "bvtool"), &shape, ms)),
            (Ok(Err(e)), _) => skipped.push(format!("decomposition: {e}")),
            (Err(stopped), _) => return Err(stopped.into()),
        }
    }
    stop.check()?;
    // The engines' rules.
    let pca = covariance::principal_frame(&cov);
    let mut engine = |(method, source): (&'static str, &'static str),
                      fit: &dyn Fn() -> FittedShape,
                      extra_ms: f64| {
        let (shape, ms) = timed(fit);
        let kind = match shape {
            FittedShape::Sphere(_) => "sphere",
            FittedShape::Capsule(_) => "capsule",
            _ => "cylinder",
        };
        out.push(row((kind, method, source), &shape, ms + extra_ms));
    };
    let godot = ("aabb rule", "godot");
    engine(
        godot,
        &|| FittedShape::Sphere(reference::godot_sphere(&aabb)),
        aabb_ms,
    );
    engine(
        godot,
        &|| FittedShape::Capsule(reference::godot_capsule(&aabb)),
        aabb_ms,
    );
    engine(
        godot,
        &|| FittedShape::Cylinder(reference::godot_cylinder(&aabb)),
        aabb_ms,
    );
    let unreal = || reference::unreal_capsule(hv).expect("points are not empty");
    engine(
        ("longest axis", "unreal"),
        &|| FittedShape::Capsule(unreal()),
        0.0,
    );
    let least_squares = || {
        reference::least_squares_capsule(hv, &mean, &pca.column(0).into_owned())
            .expect("points are not empty")
    };
    engine(
        ("least squares", "gte"),
        &|| FittedShape::Capsule(least_squares()),
        0.0,
    );
    Ok(Fits {
        fitted: out,
        tight_volume: tight.volume(),
        diagonal: (aabb.max - aabb.min).norm(),
        skipped,
    })
}

/// AABB volume of R·points over random rotations R, against `tight`. The
/// hull vertices give the same AABB as all the points, for less work.
fn rotation_cost(
    hull_vertices: &[Point3<f64>],
    tight: f64,
    opts: &CompareOptions,
    stop: Stop<'_>,
) -> std::result::Result<RotationCost, Stopped> {
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let ratios: Vec<f64> = (0..opts.rotations)
        .map(|_| {
            stop.check()?;
            let r = random_rotation(&mut rng);
            let rotated: Vec<Point3<f64>> = hull_vertices.iter().map(|p| r * p).collect();
            Ok(Aabb::from_points(&rotated).map_or(f64::NAN, |b| b.volume() / tight))
        })
        .collect::<std::result::Result<_, Stopped>>()?;
    let n = ratios.len().max(1) as f64;
    Ok(RotationCost {
        rotations: ratios.len(),
        seed: opts.seed,
        mean_ratio: ratios.iter().sum::<f64>() / n,
        worst_ratio: ratios.iter().copied().fold(f64::NAN, f64::max),
        best_ratio: ratios.iter().copied().fold(f64::NAN, f64::min),
    })
}

/// The OBB tree against the AABB tree of the same split, on near-boundary
/// poses of the model against itself (found with the OBB tree, built once),
/// with each part timed into `timings`.
fn tree_cost(
    scene: &Scene,
    opts: &CompareOptions,
    timings: &mut Timings,
    stop: Stop<'_>,
) -> std::result::Result<TreeCost, Stopped> {
    let mesh = scene.flatten();
    let (built, build_ms) = timed(|| {
        let t = ObbTree::build_until(&mesh, stop)?;
        let a = t.with_aabb_boxes();
        Ok((t, a))
    });
    let (obb_tree, aabb_tree) = built?;
    stop.check()?;
    let stats = TreeStats::of(&obb_tree);
    let (poses, search_ms) = timed(|| {
        near_boundary_with_trees(
            (&mesh, &obb_tree),
            (&mesh, &obb_tree),
            opts.poses,
            opts.seed,
        )
    });
    stop.check()?;
    let work = |tree: &ObbTree| {
        poses.iter().try_fold(
            TreeWork {
                box_tests: 0,
                triangle_tests: 0,
            },
            |w, p| {
                stop.check()?;
                let c = collide(tree, tree, p, ContactMode::All);
                Ok(TreeWork {
                    box_tests: w.box_tests + c.box_tests,
                    triangle_tests: w.triangle_tests + c.triangle_tests,
                })
            },
        )
    };
    let (both, queries_ms) = timed(|| Ok::<_, Stopped>((work(&obb_tree)?, work(&aabb_tree)?)));
    let (obb, aabb) = both?;
    timings.tree_build_ms = build_ms;
    timings.pose_search_ms = search_ms;
    timings.tree_queries_ms = queries_ms;
    Ok(TreeCost {
        obb_volume_per_level: stats.obb_volume_per_level,
        aabb_volume_per_level: stats.aabb_volume_per_level,
        poses: poses.len(),
        obb,
        aabb,
    })
}
