//! Primitive solids as triangle meshes in their own frame: a box exactly,
//! and spheres, capsules and cylinders tessellated *outward* (every point
//! of the true shape lies inside the tessellation), each with the largest
//! distance its triangles reach outside the true shape. URDF links and
//! the bodies of a `World` are made of them.

use super::TriMesh;
use nalgebra::{Point3, Vector3};

/// Segments around the axis of a tessellated sphere, cylinder or capsule.
pub const ROUND_SEGMENTS: usize = 32;
/// Rings from pole to pole of a tessellated sphere or capsule (even).
const ROUND_RINGS: usize = 16;

/// A sphere of radius `r` about the origin, tessellated outward, and how
/// far at most it reaches outside the sphere (about 0.5 % of `r`).
pub fn sphere_mesh(r: f64) -> (TriMesh, f64) {
    round_mesh(r, 0.0)
}

/// A capsule of radius `r` about the z axis, its segment `length` long
/// (centred on the origin), tessellated outward, and how far at most it
/// reaches outside the capsule.
pub fn capsule_mesh(r: f64, length: f64) -> (TriMesh, f64) {
    round_mesh(r, length / 2.0)
}

/// A cylinder of radius `r` about the z axis, `length` long (centred on
/// the origin), tessellated outward, and how far at most it reaches
/// outside the cylinder (about 0.5 % of `r`).
pub fn cylinder_mesh(r: f64, length: f64) -> (TriMesh, f64) {
    prism_mesh(r, length / 2.0)
}

/// A box of edge lengths `size` centred on the origin, its faces on the
/// axis planes (12 triangles, exact).
pub fn box_mesh(size: [f64; 3]) -> TriMesh {
    let h = Vector3::from(size) / 2.0;
    let vertices = (0..8)
        .map(|i| {
            Point3::new(
                if i & 1 == 0 { -h.x } else { h.x },
                if i & 2 == 0 { -h.y } else { h.y },
                if i & 4 == 0 { -h.z } else { h.z },
            )
        })
        .collect();
    let quads = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    let triangles = quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .collect();
    TriMesh::unplaced(vertices, triangles)
}

/// Side quads between two rings of `n` vertices starting at `a` and `b`,
/// wound outward when ring `a` lies above ring `b` along z (both rings
/// counter-clockwise seen from +z).
fn band(a: u32, b: u32, n: u32, out: &mut Vec<[u32; 3]>) {
    for j in 0..n {
        let k = (j + 1) % n;
        out.push([a + j, b + j, b + k]);
        out.push([a + j, b + k, a + k]);
    }
}

/// A cylinder of radius `r` about z between `z = ±h`: a prism over the
/// regular [`ROUND_SEGMENTS`]-gon whose edges touch the circle, so it
/// contains the cylinder and reaches `r · (1/cos(π/n) − 1)` outside it.
fn prism_mesh(r: f64, h: f64) -> (TriMesh, f64) {
    let n = ROUND_SEGMENTS;
    let big = r / (std::f64::consts::PI / n as f64).cos();
    let ring = |z: f64| {
        (0..n).map(move |j| {
            let a = std::f64::consts::TAU * j as f64 / n as f64;
            Point3::new(big * a.cos(), big * a.sin(), z)
        })
    };
    let mut vertices: Vec<Point3<f64>> = ring(-h).chain(ring(h)).collect();
    vertices.push(Point3::new(0.0, 0.0, -h));
    vertices.push(Point3::new(0.0, 0.0, h));
    let n = n as u32;
    let mut triangles = Vec::new();
    band(n, 0, n, &mut triangles);
    for j in 0..n {
        let k = (j + 1) % n;
        triangles.push([2 * n, k, j]);
        triangles.push([2 * n + 1, n + j, n + k]);
    }
    (TriMesh::unplaced(vertices, triangles), big - r)
}

/// A capsule of radius `r` about the segment `z = ±h` (a sphere when
/// `h = 0`): a latitude–longitude tessellation whose every face plane lies
/// at least `r` from the segment, so it contains the capsule. The unit
/// tessellation's least face distance `d` is measured, and the radius
/// scaled to `r / d`; it reaches `r · (1/d − 1)` outside the capsule.
fn round_mesh(r: f64, h: f64) -> (TriMesh, f64) {
    let (n, m) = (ROUND_SEGMENTS, ROUND_RINGS);
    // Unit directions, ring by ring from the north pole; the equator
    // (ring m/2) appears twice, once per cap, when h > 0.
    let mut rings: Vec<(f64, usize)> = (0..=m).map(|i| (i as f64, i)).collect();
    if h > 0.0 {
        rings.insert(m / 2 + 1, ((m / 2) as f64, m / 2));
    }
    let unit = |i: f64, j: usize| {
        let t = std::f64::consts::PI * i / m as f64;
        let a = std::f64::consts::TAU * j as f64 / n as f64;
        // The poles exactly on the axis (sin π rounds to 1.2e-16, which
        // left a ring-shaped hole at the south pole: not closed).
        let s = if i == 0.0 || i == m as f64 {
            0.0
        } else {
            t.sin()
        };
        Vector3::new(s * a.cos(), s * a.sin(), t.cos())
    };
    let mut dirs = Vec::new();
    let mut centre_z = Vec::new();
    for (k, &(i, _)) in rings.iter().enumerate() {
        let z = if k <= m / 2 { h } else { -h };
        for j in 0..n {
            dirs.push(unit(i, j));
            centre_z.push(z);
        }
    }
    let n32 = n as u32;
    let mut triangles = Vec::new();
    for k in 0..rings.len() as u32 - 1 {
        band(k * n32, (k + 1) * n32, n32, &mut triangles);
    }
    // Drop the faces that collapse (at the poles; in the equator band of a
    // sphere).
    let at = |d: &Vector3<f64>, z: f64, s: f64| Point3::new(s * d.x, s * d.y, s * d.z + z);
    triangles.retain(|t| {
        let [a, b, c] = t.map(|i| at(&dirs[i as usize], centre_z[i as usize], 1.0));
        (b - a).cross(&(c - a)).norm() > 1e-12
    });
    // The least distance from the segment to a face plane, at unit radius.
    let seg = [Point3::new(0.0, 0.0, h), Point3::new(0.0, 0.0, -h)];
    let d = triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| at(&dirs[i as usize], centre_z[i as usize], 1.0));
            let nrm = (b - a).cross(&(c - a)).normalize();
            seg.iter()
                .map(|p| nrm.dot(&(a - p)))
                .fold(f64::INFINITY, f64::min)
        })
        .fold(f64::INFINITY, f64::min);
    // Rounded down a little so that the rounding of the vertices below
    // cannot bring a face inside the shape.
    let d = d * (1.0 - 1e-12);
    let big = r / d;
    let vertices = dirs
        .iter()
        .zip(&centre_z)
        .map(|(u, &z)| at(u, z, big))
        .collect();
    (TriMesh::unplaced(vertices, triangles), big - r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    enum Kind {
        Sphere,
        Capsule,
        Cylinder,
    }

    /// Every point of the true shape (sampled) lies inside the outward
    /// tessellation: on the inner side of every face plane.
    fn contains(mesh: &TriMesh, p: &Point3<f64>) -> bool {
        mesh.triangles.iter().all(|t| {
            let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
            (b - a).cross(&(c - a)).dot(&(p - a)) <= 1e-12
        })
    }

    #[test]
    fn round_tessellations_contain_their_shape_within_the_stated_tolerance() {
        let (r, h) = (0.3, 0.5);
        for (g, half) in [(Kind::Sphere, 0.0), (Kind::Capsule, h), (Kind::Cylinder, h)] {
            let (mesh, tol) = match g {
                Kind::Sphere => sphere_mesh(r),
                Kind::Capsule => capsule_mesh(r, 2.0 * h),
                Kind::Cylinder => cylinder_mesh(r, 2.0 * h),
            };
            assert!(tol > 0.0 && tol < 0.02 * r, "{g:?}: {tol}");
            // Points on the true surface.
            for i in 0..=40 {
                for j in 0..64 {
                    let t = std::f64::consts::PI * i as f64 / 40.0;
                    let a = std::f64::consts::TAU * j as f64 / 64.0;
                    let u = Vector3::new(t.sin() * a.cos(), t.sin() * a.sin(), t.cos());
                    let p = match g {
                        Kind::Cylinder => Point3::new(r * a.cos(), r * a.sin(), h * t.cos()),
                        _ => Point3::from(r * u) + Vector3::z() * half * t.cos().signum(),
                    };
                    assert!(contains(&mesh, &p), "{g:?} misses {p}");
                }
            }
            // No vertex farther out than the tolerance.
            for v in &mesh.vertices {
                let out = match g {
                    Kind::Cylinder => (v.x.hypot(v.y) - r).max(v.z.abs() - h),
                    _ => (v - Point3::new(0.0, 0.0, v.z.clamp(-half, half))).norm() - r,
                };
                assert!(out <= tol * (1.0 + 1e-9), "{g:?}: {out} > {tol}");
            }
        }
    }
}
