//! k-DOPs (discrete oriented polytopes): the intersection of slabs, one per
//! fixed direction, each as thin as the points allow — the collision shapes
//! Unreal's static-mesh editor names 6, 10X/10Y/10Z, 14, 18 and 26-DOP.
//!
//! A k-DOP is given by its `k/2` unit directions `dᵢ` (in a frame: the
//! mesh's own axes, or a box's axes for an oriented k-DOP) and for each the
//! extremes `[loᵢ, hiᵢ]` of `dᵢ·p` over the points, **rounded outward** by a
//! bound on the rounding of the dot products, so that every point satisfies
//! `loᵢ ≤ dᵢ·p ≤ hiᵢ` exactly in real arithmetic on its `f64` coordinates
//! (the slabs contain every point, as our boxes do). The polytope's vertices
//! and faces are then found by clipping: the first three slabs are a box,
//! and every further half-space cuts it (each face polygon clipped, the cut
//! closed by a cap polygon). Vertices are computed in `f64`: they lie on
//! their planes up to a few ulps of the model's size, which the clipping's
//! tolerance absorbs; a slab of zero width (flat points) gives a flat
//! polytope (zero volume) rather than an error.

use crate::fit::polytope::{self, Polytope, dot_interval};
use nalgebra::{Matrix3, Point3, Vector3};
use std::fmt;
use std::str::FromStr;

/// The k-DOP families, named as Unreal names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum KdopKind {
    /// The three axes: an AABB in its frame.
    #[serde(rename = "6")]
    K6,
    /// The axes and the two diagonals in the YZ plane (45° about X).
    #[serde(rename = "10x")]
    K10X,
    /// The axes and the two diagonals in the ZX plane (45° about Y).
    #[serde(rename = "10y")]
    K10Y,
    /// The axes and the two diagonals in the XY plane (45° about Z).
    #[serde(rename = "10z")]
    K10Z,
    /// The axes and the four corner diagonals (±1, ±1, ±1).
    #[serde(rename = "14")]
    K14,
    /// The axes and the six edge diagonals (±1, ±1, 0) and permutations.
    #[serde(rename = "18")]
    K18,
    /// The axes, the six edge diagonals and the four corner diagonals.
    #[serde(rename = "26")]
    K26,
}

const AXES: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
const EDGES: [[f64; 3]; 6] = [
    [1.0, 1.0, 0.0],
    [1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0],
    [1.0, 0.0, -1.0],
    [0.0, 1.0, 1.0],
    [0.0, 1.0, -1.0],
];
const CORNERS: [[f64; 3]; 4] = [
    [1.0, 1.0, 1.0],
    [1.0, 1.0, -1.0],
    [1.0, -1.0, 1.0],
    [-1.0, 1.0, 1.0],
];

impl KdopKind {
    /// Every kind, in documentation order.
    pub const ALL: &'static [KdopKind] = &[
        KdopKind::K6,
        KdopKind::K10X,
        KdopKind::K10Y,
        KdopKind::K10Z,
        KdopKind::K14,
        KdopKind::K18,
        KdopKind::K26,
    ];

    /// The name on the command line and in JSON (`6`, `10x`, …, `26`).
    pub fn as_str(self) -> &'static str {
        match self {
            KdopKind::K6 => "6",
            KdopKind::K10X => "10x",
            KdopKind::K10Y => "10y",
            KdopKind::K10Z => "10z",
            KdopKind::K14 => "14",
            KdopKind::K18 => "18",
            KdopKind::K26 => "26",
        }
    }

    /// The `k/2` directions, unit length, axes first.
    pub fn directions(self) -> Vec<Vector3<f64>> {
        let mut d: Vec<[f64; 3]> = AXES.to_vec();
        match self {
            KdopKind::K6 => {}
            KdopKind::K10X => d.extend([EDGES[4], EDGES[5]]),
            KdopKind::K10Y => d.extend([EDGES[2], EDGES[3]]),
            KdopKind::K10Z => d.extend([EDGES[0], EDGES[1]]),
            KdopKind::K14 => d.extend(CORNERS),
            KdopKind::K18 => d.extend(EDGES),
            KdopKind::K26 => {
                d.extend(EDGES);
                d.extend(CORNERS);
            }
        }
        d.into_iter()
            .map(|v| Vector3::from(v).normalize())
            .collect()
    }
}

impl FromStr for KdopKind {
    type Err = crate::fit::UnknownMethod;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        KdopKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| crate::fit::UnknownMethod(s.to_owned()))
    }
}

impl fmt::Display for KdopKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A k-DOP: slabs `lo[i] ≤ axes_i·p ≤ hi[i]` along unit directions given in
/// the frame `rotation` (direction `i` in the model's frame is
/// `rotation · directions[i]`), with the polytope they bound.
#[derive(Clone, Debug)]
pub struct Kdop {
    /// Which family.
    pub kind: KdopKind,
    /// The frame's rotation (columns: its axes in the model's frame);
    /// identity for a k-DOP in the mesh frame.
    pub rotation: Matrix3<f64>,
    /// The unit directions in the model's frame.
    pub directions: Vec<Vector3<f64>>,
    /// Per direction, the least `d·p` over the points, rounded down.
    pub lo: Vec<f64>,
    /// Per direction, the greatest `d·p`, rounded up.
    pub hi: Vec<f64>,
    /// The polytope's vertices.
    pub vertices: Vec<Point3<f64>>,
    /// Its faces, each a convex polygon of vertex indices, counter-clockwise
    /// seen from outside.
    pub faces: Vec<Vec<u32>>,
}

impl Kdop {
    /// The k-DOP of `points` (for a mesh, the vertices of its convex hull
    /// suffice: a linear function's extremes over a set are reached at its
    /// hull's vertices) with directions in the frame `rotation` (identity
    /// for the mesh frame; a box's rotation for an oriented k-DOP). `None`
    /// for no points.
    ///
    /// # Guarantees
    /// Every point lies within every slab (the slabs are the points' own
    /// extremes along each direction, rounded outward).
    ///
    /// ```
    /// use bvtool::fit::{Kdop, KdopKind};
    /// use nalgebra::{Matrix3, Point3};
    ///
    /// let points = [Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0)];
    /// let k = Kdop::new(&points, KdopKind::K26, Matrix3::identity()).unwrap();
    /// assert!(points.iter().all(|p| k.contains(p, 0.0)));
    /// // The corner diagonals cut the unit cube down to the tetrahedron's hull.
    /// assert!((k.volume() - 1.0 / 6.0).abs() < 1e-9);
    /// ```
    pub fn new(points: &[Point3<f64>], kind: KdopKind, rotation: Matrix3<f64>) -> Option<Kdop> {
        if points.is_empty() {
            return None;
        }
        let directions: Vec<Vector3<f64>> =
            kind.directions().iter().map(|d| rotation * d).collect();
        let (mut lo, mut hi) = (
            vec![f64::INFINITY; directions.len()],
            vec![f64::NEG_INFINITY; directions.len()],
        );
        for p in points {
            for (i, d) in directions.iter().enumerate() {
                let (a, b) = dot_interval(d, p);
                lo[i] = lo[i].min(a);
                hi[i] = hi[i].max(b);
            }
        }
        let (vertices, faces) = polytope(&directions, &lo, &hi);
        Some(Kdop {
            kind,
            rotation,
            directions,
            lo,
            hi,
            vertices,
            faces,
        })
    }

    /// Whether `p` lies in every slab, widened by `tol`.
    pub fn contains(&self, p: &Point3<f64>, tol: f64) -> bool {
        self.directions.iter().enumerate().all(|(i, d)| {
            let v = d.dot(&p.coords);
            v >= self.lo[i] - tol && v <= self.hi[i] + tol
        })
    }

    /// The polytope's volume (0 when it is flat).
    pub fn volume(&self) -> f64 {
        polytope::volume(&self.vertices, &self.faces)
    }

    /// The polytope's surface area.
    pub fn surface_area(&self) -> f64 {
        polytope::surface_area(&self.vertices, &self.faces)
    }
}

/// The polytope of the slabs: the box of the first three (the frame's axes)
/// clipped by every other half-space, as vertices and faces.
fn polytope(
    directions: &[Vector3<f64>],
    lo: &[f64],
    hi: &[f64],
) -> (Vec<Point3<f64>>, Vec<Vec<u32>>) {
    // The scale the tolerances are relative to: the largest slab bound.
    let scale = lo
        .iter()
        .chain(hi)
        .fold(f64::MIN_POSITIVE, |m, v| m.max(v.abs()));
    let axes = [directions[0], directions[1], directions[2]];
    let mut p = Polytope::slab_box(&axes, [lo[0], lo[1], lo[2]], [hi[0], hi[1], hi[2]], scale);
    for (i, d) in directions.iter().enumerate().skip(3) {
        p.clip(*d, hi[i]);
        p.clip(-d, -lo[i]);
    }
    p.welded()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube() -> Vec<Point3<f64>> {
        (0..8)
            .map(|i| {
                Point3::new(
                    if i & 1 == 0 { -1.0 } else { 1.0 },
                    if i & 2 == 0 { -1.0 } else { 1.0 },
                    if i & 4 == 0 { -1.0 } else { 1.0 },
                )
            })
            .collect()
    }

    /// A cube's k-DOPs are the cube itself: volume 8, 8 vertices, 6 faces.
    #[test]
    fn every_kdop_of_a_cube_is_the_cube() {
        for &kind in KdopKind::ALL {
            let k = Kdop::new(&cube(), kind, Matrix3::identity()).unwrap();
            assert!((k.volume() - 8.0).abs() < 1e-12, "{kind}: {}", k.volume());
            assert!((k.surface_area() - 24.0).abs() < 1e-12, "{kind}");
            assert_eq!((k.vertices.len(), k.faces.len()), (8, 6), "{kind}");
        }
    }

    /// The octahedron's 14-DOP is the octahedron (volume 4/3, 6 vertices,
    /// 8 faces); its 6-DOP is its bounding cube.
    #[test]
    fn the_14_dop_of_an_octahedron_is_the_octahedron() {
        let pts: Vec<Point3<f64>> = (0..6)
            .map(|i| {
                let mut c = [0.0; 3];
                c[i / 2] = if i % 2 == 0 { 1.0 } else { -1.0 };
                Point3::from(c)
            })
            .collect();
        let k = Kdop::new(&pts, KdopKind::K14, Matrix3::identity()).unwrap();
        assert!((k.volume() - 4.0 / 3.0).abs() < 1e-12, "{}", k.volume());
        assert_eq!((k.vertices.len(), k.faces.len()), (6, 8));
        let box6 = Kdop::new(&pts, KdopKind::K6, Matrix3::identity()).unwrap();
        assert!((box6.volume() - 8.0).abs() < 1e-12);
    }

    /// Flat points give a flat polytope: zero volume, no panic.
    #[test]
    fn flat_points_give_a_flat_kdop() {
        let pts = [
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
        ];
        for &kind in KdopKind::ALL {
            let k = Kdop::new(&pts, kind, Matrix3::identity()).unwrap();
            assert!(k.volume() < 1e-12, "{kind}");
            assert!(pts.iter().all(|p| k.contains(p, 0.0)));
        }
        let one = Kdop::new(
            &[Point3::new(5.0, 5.0, 5.0)],
            KdopKind::K26,
            Matrix3::identity(),
        );
        assert!(one.unwrap().volume() < 1e-12);
    }

    #[test]
    fn names_round_trip() {
        for &k in KdopKind::ALL {
            assert_eq!(k.as_str().parse::<KdopKind>().unwrap(), k);
        }
        assert!("12".parse::<KdopKind>().is_err());
    }
}
