//! The fitted shapes, one type ([`FittedShape`]), and the one fitter ([`ShapeFitter`]).

use crate::fit::polytope::budget_hull::DEFAULT_BUDGET;
use crate::fit::polytope::decompose::{DecomposeError, DecomposeOptions, Decomposition, decompose};
use crate::fit::round::{capsule_until, cylinder_until};
use crate::fit::surface::Surface;
use crate::fit::{
    self, Aabb, BudgetHull, Capsule, ConvexHull, Cylinder, Kdop, Obb, ObbMethod, ShapeSpec, Sphere,
    SphereMethod, covariance, polytope,
};
use crate::threads::{Stop, Stopped, unstopped};
use nalgebra::{Matrix3, Point3, Vector3};
use std::cell::OnceCell;

/// A fitted bounding shape: one type for all the shapes bvtool fits, made by
/// the one place that fits a [`ShapeSpec`] to a point set ([`ShapeFitter`]),
/// which `compare` and `render` fit through.
///
/// Every shape contains every point it was fitted to (each fitter's own
/// guarantee, in `f64`); [`FittedShape::outside`] counts the points that
/// are not, decided exactly where the shape allows it.
///
/// ```
/// use bvtool::fit::{ConvexHull, ShapeFitter, ShapeSpec};
/// use nalgebra::Point3;
///
/// // The eight corners of a 2 x 1 x 1 box.
/// let points: Vec<Point3<f64>> = (0..8)
///     .map(|i| Point3::new((i & 1) as f64 * 2.0, ((i >> 1) & 1) as f64, (i >> 2) as f64))
///     .collect();
/// let hull = ConvexHull::new(&points).unwrap();
/// let fitter = ShapeFitter::new(&points, &hull);
/// for spec in ShapeSpec::parse_list("box, sphere, capsule, kdop26").unwrap() {
///     let shape = fitter.fit(spec).unwrap();
///     assert_eq!(shape.outside(&points), Some(0), "{spec}");
///     assert!(shape.volume() >= 2.0 - 1e-12, "{spec}");
/// }
/// ```
#[derive(Clone, Debug)]
pub enum FittedShape {
    /// An axis-aligned box.
    Aabb(Aabb),
    /// An oriented box.
    Obb(Obb),
    /// A sphere.
    Sphere(Sphere),
    /// A capsule.
    Capsule(Capsule),
    /// A cylinder.
    Cylinder(Cylinder),
    /// A k-DOP: slabs, with the polytope they bound.
    Kdop(Kdop),
    /// A convex hull within a vertex and face budget.
    Hull(BudgetHull),
    /// Convex parts whose union holds every point.
    Parts(Decomposition),
}

impl FittedShape {
    /// The shape's family, as [`ShapeSpec::family`] names it.
    pub fn family(&self) -> String {
        match self {
            FittedShape::Aabb(_) => "aabb".into(),
            FittedShape::Obb(_) => "box".into(),
            FittedShape::Sphere(_) => "sphere".into(),
            FittedShape::Capsule(_) => "capsule".into(),
            FittedShape::Cylinder(_) => "cylinder".into(),
            FittedShape::Kdop(k) => format!("kdop{}", k.kind.as_str()),
            FittedShape::Hull(_) => "hull".into(),
            FittedShape::Parts(_) => "decompose".into(),
        }
    }

    /// The volume (for convex parts, the sum of the parts' volumes).
    pub fn volume(&self) -> f64 {
        match self {
            FittedShape::Aabb(b) => b.volume(),
            FittedShape::Obb(b) => b.volume(),
            FittedShape::Sphere(s) => s.volume(),
            FittedShape::Capsule(c) => c.volume(),
            FittedShape::Cylinder(c) => c.volume(),
            FittedShape::Kdop(k) => k.volume(),
            FittedShape::Hull(h) => h.volume(),
            FittedShape::Parts(d) => d.parts_volume,
        }
    }

    /// The surface area (for convex parts, the sum of the parts' areas).
    pub fn surface_area(&self) -> f64 {
        match self {
            FittedShape::Aabb(b) => b.surface_area(),
            FittedShape::Obb(b) => b.surface_area(),
            FittedShape::Sphere(s) => s.surface_area(),
            FittedShape::Capsule(c) => c.surface_area(),
            FittedShape::Cylinder(c) => c.surface_area(),
            FittedShape::Kdop(k) => k.surface_area(),
            FittedShape::Hull(h) => h.surface_area(),
            FittedShape::Parts(d) => d
                .parts
                .iter()
                .map(|p| polytope::surface_area(&p.vertices, &p.faces))
                .sum(),
        }
    }

    /// How many of `points` lie outside the shape: the boxes, spheres,
    /// round shapes and k-DOPs (on their slabs) by their own tests with no
    /// tolerance, the budget hull and the convex parts exactly (`orient3d`
    /// on the faces of their vertices' hull). `None` where that hull is
    /// flat (a flat polytope has no inside to decide).
    pub fn outside(&self, points: &[Point3<f64>]) -> Option<usize> {
        let count = |inside: &dyn Fn(&Point3<f64>) -> bool| {
            Some(points.iter().filter(|p| !inside(p)).count())
        };
        match self {
            FittedShape::Aabb(b) => count(&|p| b.contains(p, 0.0)),
            FittedShape::Obb(b) => count(&|p| b.contains(p, 0.0)),
            FittedShape::Sphere(s) => count(&|p| s.contains(p, 0.0)),
            FittedShape::Capsule(c) => count(&|p| c.contains(p, 0.0)),
            FittedShape::Cylinder(c) => count(&|p| c.contains(p, 0.0)),
            FittedShape::Kdop(k) => count(&|p| k.contains(p, 0.0)),
            FittedShape::Hull(h) => {
                let hull = ConvexHull::new(&h.vertices)
                    .ok()
                    .filter(|h| h.dimension == 3)?;
                count(&|p| hull.contains(p))
            }
            FittedShape::Parts(d) => {
                let parts: Option<Vec<ConvexHull>> = d
                    .parts
                    .iter()
                    .map(|p| {
                        ConvexHull::new(&p.vertices)
                            .ok()
                            .filter(|h| h.dimension == 3)
                    })
                    .collect();
                let parts = parts?;
                count(&|p| parts.iter().any(|h| h.contains(p)))
            }
        }
    }

    /// The surfaces a search over the shape needs (one per convex piece),
    /// for its air ([`crate::query::air()`]).
    pub fn surfaces(&self) -> Vec<Surface> {
        match self {
            FittedShape::Aabb(b) => vec![Surface::aabb(b)],
            FittedShape::Obb(b) => vec![Surface::obb(b)],
            FittedShape::Sphere(s) => vec![Surface::sphere(s)],
            FittedShape::Capsule(c) => vec![Surface::capsule(c)],
            FittedShape::Cylinder(c) => vec![Surface::cylinder(c)],
            FittedShape::Kdop(k) => vec![Surface::polytope(&k.vertices, &k.faces)],
            FittedShape::Hull(h) => vec![Surface::polytope(&h.vertices, &h.faces)],
            FittedShape::Parts(d) => d
                .parts
                .iter()
                .map(|p| Surface::polytope(&p.vertices, &p.faces))
                .collect(),
        }
    }
}

/// The axes a capsule's or cylinder's search starts from: the principal
/// axes of the points' covariance (`pca`'s columns) and `obb`'s axes, taken
/// in turn. Every command seeds its round shapes so.
pub fn round_seeds(pca: &Matrix3<f64>, obb: &Obb) -> Vec<Vector3<f64>> {
    (0..3)
        .flat_map(|i| [pca.column(i).into_owned(), obb.axis(i)])
        .collect()
}

/// What a spec without its parameter means (`box`, `sphere`, `hull`), and
/// how to decompose.
#[derive(Clone, Debug)]
pub struct ShapeDefaults {
    /// The box of `box`.
    pub obb: ObbMethod,
    /// The sphere of `sphere`.
    pub sphere: SphereMethod,
    /// The budget of `hull`.
    pub hull_max: usize,
    /// The options of `decompose`.
    pub decompose: DecomposeOptions,
}

impl Default for ShapeDefaults {
    /// The tight box, the exact sphere, 255 vertices, V-HACD's defaults.
    fn default() -> Self {
        ShapeDefaults {
            obb: ObbMethod::Tight,
            sphere: SphereMethod::Exact,
            hull_max: DEFAULT_BUDGET,
            decompose: DecomposeOptions::default(),
        }
    }
}

/// A triangle mesh given on demand: its vertices and triangles.
pub type MeshSource<'a> = &'a dyn Fn() -> (Vec<Point3<f64>>, Vec<[u32; 3]>);

/// Fits [`ShapeSpec`]s to one point set, computing what several shapes
/// share once: the covariance, the reference box (the frame of
/// `kdopK-obb`, the start of `hull`, a seed of the round shapes) and the
/// convex parts' mesh.
pub struct ShapeFitter<'a> {
    points: &'a [Point3<f64>],
    hull: &'a ConvexHull,
    defaults: ShapeDefaults,
    covariance: OnceCell<Matrix3<f64>>,
    reference: OnceCell<Obb>,
    seeds: OnceCell<Vec<Vector3<f64>>>,
    mesh: Option<MeshSource<'a>>,
}

impl<'a> ShapeFitter<'a> {
    /// A fitter of `points` (not empty), whose convex hull is `hull`.
    /// Every shape contains every point; shapes fitted from the hull
    /// (boxes, spheres, k-DOPs, budget hulls) see the same answer from
    /// `points` or from `hull.vertices`.
    pub fn new(points: &'a [Point3<f64>], hull: &'a ConvexHull) -> ShapeFitter<'a> {
        ShapeFitter {
            points,
            hull,
            defaults: ShapeDefaults::default(),
            covariance: OnceCell::new(),
            reference: OnceCell::new(),
            seeds: OnceCell::new(),
            mesh: None,
        }
    }

    /// With these defaults for the specs that leave a parameter out.
    pub fn with_defaults(mut self, defaults: ShapeDefaults) -> Self {
        self.defaults = defaults;
        self
    }

    /// With the points' covariance given (a scene fit combines it from its
    /// parts) instead of computed from `points`.
    pub fn with_covariance(self, covariance: Matrix3<f64>) -> Self {
        let _ = self.covariance.set(covariance);
        self
    }

    /// With the reference box given (by default the box of the default
    /// method, [`ShapeDefaults::obb`]).
    pub fn with_reference(self, obb: Obb) -> Self {
        let _ = self.reference.set(obb);
        self
    }

    /// With the mesh `decompose` cuts into convex parts (by default the
    /// hull's triangles: one part).
    pub fn with_mesh(mut self, mesh: MeshSource<'a>) -> Self {
        self.mesh = Some(mesh);
        self
    }

    /// The points' covariance matrix.
    pub fn covariance(&self) -> &Matrix3<f64> {
        self.covariance.get_or_init(|| {
            covariance::of_points(self.points)
                .expect("the points are not empty")
                .1
        })
    }

    /// The reference box.
    pub fn reference(&self) -> &Obb {
        unstopped(|stop| self.reference_until(stop))
    }

    /// [`reference`](Self::reference), its search stopped when `stop` is
    /// set ([`fit::obb_certified_until`]).
    fn reference_until(&self, stop: Stop<'_>) -> Result<&Obb, Stopped> {
        if let Some(b) = self.reference.get() {
            return Ok(b);
        }
        let b = self.obb_until(self.defaults.obb, stop)?;
        Ok(self.reference.get_or_init(|| b))
    }

    /// The box of method `m`, fitted to the hull's vertices (the box of
    /// the points) with the points' covariance, as [`fit::obb`].
    fn obb_until(&self, m: ObbMethod, stop: Stop<'_>) -> Result<Obb, Stopped> {
        let cov = *self.covariance();
        let (b, _) =
            fit::obb_certified_until(&self.hull.vertices, self.hull, || Some(cov), m, stop)?
                .expect("the points are not empty");
        Ok(b)
    }

    /// The axes the round shapes' searches start from ([`round_seeds`]),
    /// computed once for the capsule and the cylinder.
    pub fn round_seeds(&self) -> &[Vector3<f64>] {
        unstopped(|stop| self.round_seeds_until(stop))
    }

    /// [`round_seeds`](Self::round_seeds), the reference box's search
    /// stopped when `stop` is set.
    fn round_seeds_until(&self, stop: Stop<'_>) -> Result<&[Vector3<f64>], Stopped> {
        if let Some(s) = self.seeds.get() {
            return Ok(s);
        }
        let seeds = round_seeds(
            &covariance::principal_frame(self.covariance()),
            self.reference_until(stop)?,
        );
        Ok(self.seeds.get_or_init(|| seeds))
    }

    /// The shape `spec` asks for. Errors only for `decompose` (a flat
    /// mesh, or V-HACD's own failure); `best` is the smallest of the AABB,
    /// the box, the sphere, the capsule and the cylinder by volume (the
    /// first of equals in that order, as `fit --best`).
    pub fn fit(&self, spec: ShapeSpec) -> Result<FittedShape, DecomposeError> {
        unstopped(|stop| self.fit_until(spec, stop))
    }

    /// [`fit`](Self::fit), giving up with [`Stopped`] when `stop` is set:
    /// the capsule's and cylinder's axis searches check it per axis tried,
    /// the budget hull per plane, the box's search per batch of face
    /// directions and per hull edge (the other shapes take milliseconds).
    pub(crate) fn fit_until(
        &self,
        spec: ShapeSpec,
        stop: Stop<'_>,
    ) -> Result<Result<FittedShape, DecomposeError>, Stopped> {
        let (points, hull) = (self.points, self.hull);
        let d = &self.defaults;
        Ok(Ok(match spec {
            ShapeSpec::Aabb => FittedShape::Aabb(Aabb::from_points(points).expect("points")),
            ShapeSpec::Box(m) => {
                let m = m.unwrap_or(d.obb);
                match self.reference.get() {
                    Some(b) if m == d.obb => FittedShape::Obb(*b),
                    _ => FittedShape::Obb(self.obb_until(m, stop)?),
                }
            }
            ShapeSpec::Sphere(m) => FittedShape::Sphere(
                fit::sphere_with_hull(points, hull, m.unwrap_or(d.sphere)).expect("points"),
            ),
            ShapeSpec::Capsule => FittedShape::Capsule(
                capsule_until(points, self.round_seeds_until(stop)?, stop)?.expect("points"),
            ),
            ShapeSpec::Cylinder => FittedShape::Cylinder(
                cylinder_until(points, self.round_seeds_until(stop)?, stop)?.expect("points"),
            ),
            ShapeSpec::Kdop { kind, oriented } => {
                let axes = if oriented {
                    self.reference_until(stop)?.axes
                } else {
                    Matrix3::identity()
                };
                FittedShape::Kdop(Kdop::new(points, kind, axes).expect("points"))
            }
            ShapeSpec::Hull(max) => FittedShape::Hull(
                BudgetHull::new_until(
                    hull,
                    self.reference_until(stop)?,
                    max.unwrap_or(d.hull_max),
                    stop,
                )?
                .expect("points"),
            ),
            ShapeSpec::Decompose => {
                let (vertices, triangles) = match self.mesh {
                    Some(mesh) => mesh(),
                    None => (hull.vertices.clone(), hull.faces.clone()),
                };
                match decompose(&vertices, &triangles, &d.decompose) {
                    Ok(parts) => FittedShape::Parts(parts),
                    Err(e) => return Ok(Err(e)),
                }
            }
            ShapeSpec::Best => [
                ShapeSpec::Aabb,
                ShapeSpec::Box(None),
                ShapeSpec::Sphere(None),
                ShapeSpec::Capsule,
                ShapeSpec::Cylinder,
            ]
            .into_iter()
            .map(|s| Ok(self.fit_until(s, stop)?.expect("primitives always fit")))
            .collect::<Result<Vec<_>, Stopped>>()?
            .into_iter()
            .reduce(|best, s| if s.volume() < best.volume() { s } else { best })
            .expect("five candidates"),
        }))
    }
}
