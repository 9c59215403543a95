//! Signed-distance samples of a mesh for implicit-shape datasets
//! (DeepSDF-style): points drawn uniformly in a padded box, near the
//! surface (a surface point plus Gaussian noise), and on the surface (with
//! the triangle's normal), each with its signed distance — the engine of
//! `bvtool sdf`.
//!
//! The mesh is first normalised: `x' = (x − centre)·scale`, with the
//! centre of the bounding box and the scale that puts the farthest vertex
//! at distance 1 (`Normalise::Sphere`) or the box's longest half side at 1
//! (`Normalise::Cube`), or none; every sample, distance and `sigma` is in
//! the normalised frame, and the centre and scale are returned to undo it.
//! Samples come from one ChaCha8 stream seeded by `seed`, in a fixed order,
//! so the same options give the same file; the distances are computed on
//! every core. The sign is [`PointTree::signed_distance`]'s (exact for a
//! closed mesh, the generalized winding number for an open one).

use crate::mesh::TriMesh;
use crate::query::point::{PointTree, each};
use nalgebra::{Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How the mesh is scaled before sampling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Normalise {
    /// As it is.
    None,
    /// Into the unit sphere: the box centre at the origin, the farthest
    /// vertex at distance 1.
    Sphere,
    /// Into the cube `[−1, 1]³`: the box centre at the origin, the longest
    /// half side 1.
    Cube,
}

/// What to sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SdfOptions {
    /// Points uniform in the normalised bounding box grown by `pad` on
    /// every side.
    pub uniform: usize,
    /// Points near the surface: a uniform surface point plus a Gaussian
    /// of standard deviation `sigma` on each axis.
    pub near: usize,
    /// Points on the surface (signed distance 0), with normals.
    pub surface: usize,
    /// The near samples' standard deviation (normalised units).
    pub sigma: f64,
    /// The uniform box's padding (normalised units).
    pub pad: f64,
    /// The random stream's seed.
    pub seed: u64,
    /// The normalisation.
    pub normalise: Normalise,
}

/// The samples: rows in the order uniform, near, surface.
#[derive(Clone, Debug, PartialEq)]
pub struct SdfSamples {
    /// The points (normalised frame).
    pub points: Vec<Point3<f64>>,
    /// Their signed distances (negative inside).
    pub sdf: Vec<f64>,
    /// 0 uniform, 1 near, 2 on the surface.
    pub kind: Vec<u8>,
    /// The unit normal of the triangle a surface sample lies on (NaN for
    /// the other samples).
    pub normals: Vec<Vector3<f64>>,
    /// The normalisation's centre (model units).
    pub centre: Point3<f64>,
    /// The normalisation's scale: `x' = (x − centre)·scale`.
    pub scale: f64,
    /// How the sign was decided.
    pub sign_method: &'static str,
}

/// A point on the surface, uniform by area, with its triangle's normal.
struct SurfaceSampler {
    /// Cumulative triangle areas.
    cumulative: Vec<f64>,
}

impl SurfaceSampler {
    fn new(mesh: &TriMesh) -> Option<SurfaceSampler> {
        let mut total = 0.0;
        let cumulative: Vec<f64> = (0..mesh.triangles.len())
            .map(|i| {
                let [a, b, c] = mesh.triangle(i);
                total += (b - a).cross(&(c - a)).norm();
                total
            })
            .collect();
        (total > 0.0).then_some(SurfaceSampler { cumulative })
    }

    fn sample(&self, mesh: &TriMesh, rng: &mut ChaCha8Rng) -> (Point3<f64>, Vector3<f64>) {
        let total = *self.cumulative.last().expect("some area");
        let x = rng.random::<f64>() * total;
        let i = self
            .cumulative
            .partition_point(|&c| c <= x)
            .min(self.cumulative.len() - 1);
        let [a, b, c] = mesh.triangle(i);
        let (r1, r2): (f64, f64) = (rng.random(), rng.random());
        let s = r1.sqrt();
        let p = a + (b - a) * (s * (1.0 - r2)) + (c - a) * (s * r2);
        (p, (b - a).cross(&(c - a)).normalize())
    }
}

/// A standard normal deviate (Box–Muller).
fn gaussian(rng: &mut ChaCha8Rng) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>();
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// The centre and scale of a normalisation (`None` for an empty mesh).
fn normalisation(mesh: &TriMesh, how: Normalise) -> Option<(Point3<f64>, f64)> {
    let used = mesh
        .triangles
        .iter()
        .flatten()
        .map(|&i| mesh.vertices[i as usize]);
    let (lo, hi) = used
        .clone()
        .fold(None, |acc: Option<(Point3<f64>, Point3<f64>)>, p| {
            Some(acc.map_or((p, p), |(lo, hi)| (lo.inf(&p), hi.sup(&p))))
        })?;
    let centre = nalgebra::center(&lo, &hi);
    let extent = match how {
        Normalise::None => return Some((Point3::origin(), 1.0)),
        Normalise::Sphere => used.map(|p| (p - centre).norm()).fold(0.0, f64::max),
        Normalise::Cube => ((hi - lo) * 0.5).max(),
    };
    Some((centre, if extent > 0.0 { 1.0 / extent } else { 1.0 }))
}

/// Samples `mesh` as `opts` asks; `None` for a mesh without area.
pub fn sample(mesh: &TriMesh, opts: &SdfOptions) -> Option<SdfSamples> {
    let (centre, scale) = normalisation(mesh, opts.normalise)?;
    let mut m = mesh.clone();
    for v in &mut m.vertices {
        *v = Point3::from((*v - centre) * scale);
    }
    let sampler = SurfaceSampler::new(&m)?;
    let tree = PointTree::build(&m);
    let (lo, hi) = m
        .triangles
        .iter()
        .flatten()
        .map(|&i| m.vertices[i as usize])
        .fold(
            (
                Point3::from([f64::INFINITY; 3]),
                Point3::from([f64::NEG_INFINITY; 3]),
            ),
            |(lo, hi), p| (lo.inf(&p), hi.sup(&p)),
        );
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let n = opts.uniform + opts.near + opts.surface;
    let (mut points, mut kind, mut normals) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    let none = Vector3::from([f64::NAN; 3]);
    for _ in 0..opts.uniform {
        let p = Point3::from(Vector3::from_fn(|k, _| {
            let (a, b) = (lo[k] - opts.pad, hi[k] + opts.pad);
            a + (b - a) * rng.random::<f64>()
        }));
        points.push(p);
        kind.push(0);
        normals.push(none);
    }
    for _ in 0..opts.near {
        let (p, _) = sampler.sample(&m, &mut rng);
        let noise = Vector3::new(gaussian(&mut rng), gaussian(&mut rng), gaussian(&mut rng));
        points.push(p + noise * opts.sigma);
        kind.push(1);
        normals.push(none);
    }
    let surface_from = points.len();
    for _ in 0..opts.surface {
        let (p, normal) = sampler.sample(&m, &mut rng);
        points.push(p);
        kind.push(2);
        normals.push(normal);
    }
    let mut sdf = each(&points[..surface_from], |p| tree.signed_distance(p));
    sdf.resize(points.len(), 0.0);
    Some(SdfSamples {
        points,
        sdf,
        kind,
        normals,
        centre,
        scale,
        sign_method: tree.sign_method().name(),
    })
}
