//! Synthetic meshes for the query tests: tori, icospheres and random soups
//! with degenerate triangles.

use bvtool::TriMesh;
use nalgebra::{Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A mesh of `vertices` and `triangles`, every triangle its own source.
pub fn mesh(vertices: Vec<Point3<f64>>, triangles: Vec<[u32; 3]>) -> TriMesh {
    TriMesh::unplaced(vertices, triangles)
}

/// A torus with `n × m` quads split into triangles.
pub fn torus(big: f64, small: f64, n: u32, m: u32) -> TriMesh {
    let mut v = Vec::new();
    for i in 0..n {
        for j in 0..m {
            let (u, w) = (
                std::f64::consts::TAU * i as f64 / n as f64,
                std::f64::consts::TAU * j as f64 / m as f64,
            );
            let r = big + small * w.cos();
            v.push(Point3::new(r * u.cos(), r * u.sin(), small * w.sin()));
        }
    }
    let id = |i: u32, j: u32| (i % n) * m + (j % m);
    let mut t = Vec::new();
    for i in 0..n {
        for j in 0..m {
            t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    mesh(v, t)
}

/// An icosphere: the icosahedron subdivided `k` times, projected to radius 1.
pub fn icosphere(k: u32) -> TriMesh {
    let g = (1.0 + 5f64.sqrt()) / 2.0;
    let mut v: Vec<Point3<f64>> = [
        [-1.0, g, 0.0],
        [1.0, g, 0.0],
        [-1.0, -g, 0.0],
        [1.0, -g, 0.0],
        [0.0, -1.0, g],
        [0.0, 1.0, g],
        [0.0, -1.0, -g],
        [0.0, 1.0, -g],
        [g, 0.0, -1.0],
        [g, 0.0, 1.0],
        [-g, 0.0, -1.0],
        [-g, 0.0, 1.0],
    ]
    .iter()
    .map(|p| Point3::from(Vector3::from(*p).normalize()))
    .collect();
    let mut t: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..k {
        let mut next = Vec::new();
        let mut mids = std::collections::HashMap::new();
        let mut mid = |a: u32, b: u32, v: &mut Vec<Point3<f64>>| {
            *mids.entry((a.min(b), a.max(b))).or_insert_with(|| {
                let p = (v[a as usize].coords + v[b as usize].coords).normalize();
                v.push(Point3::from(p));
                v.len() as u32 - 1
            })
        };
        for [a, b, c] in t {
            let (ab, bc, ca) = (mid(a, b, &mut v), mid(b, c, &mut v), mid(c, a, &mut v));
            next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        t = next;
    }
    mesh(v, t)
}

/// A random soup in the unit cube with some degenerate triangles (segments,
/// points, repeated corners).
pub fn soup(n: usize, seed: u64) -> TriMesh {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut v = Vec::new();
    let mut t = Vec::new();
    for k in 0..n {
        let c = Point3::new(rng.random::<f64>(), rng.random(), rng.random());
        let mut p = || {
            c + Vector3::new(rng.random(), rng.random(), rng.random()).map(|x: f64| (x - 0.5) * 0.2)
        };
        let (a, b) = (p(), p());
        let third = match k % 10 {
            0 => a,                                         // segment
            1 => Point3::from((a.coords + b.coords) / 2.0), // collinear
            _ => p(),
        };
        let b = if k % 17 == 0 { a } else { b }; // point (with k%10==0) / segment
        let base = v.len() as u32;
        v.extend([a, b, third]);
        t.push([base, base + 1, base + 2]);
    }
    mesh(v, t)
}

/// The 6 faces (outward, counter-clockwise quads) of a cube whose corner `k`
/// sits at `(k & 1, (k >> 1) & 1, (k >> 2) & 1)`.
pub const CUBE_QUADS: [[u32; 4]; 6] = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
];

/// The 12 triangles (outward, counter-clockwise) of a cube whose corner `k`
/// sits at `(k & 1, (k >> 1) & 1, (k >> 2) & 1)` (or any image of those
/// corners under a rotation or shift).
pub fn cube_triangles() -> Vec<[u32; 3]> {
    CUBE_QUADS
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .collect()
}

/// A closed prism over the regular `n`-gon of circumradius `r` (vertex `k`
/// at angle `2πk/n`), from `z = 0` to `z = h`, its caps fanned from their
/// centres: the tessellated cylinder of CAD shafts and pipes.
pub fn closed_cylinder(n: u32, r: f64, h: f64) -> TriMesh {
    let mut v: Vec<Point3<f64>> = (0..n)
        .flat_map(|k| {
            let (s, c) = (std::f64::consts::TAU * f64::from(k) / f64::from(n)).sin_cos();
            [Point3::new(r * c, r * s, 0.0), Point3::new(r * c, r * s, h)]
        })
        .collect();
    let (bottom, top) = (2 * n, 2 * n + 1);
    v.extend([Point3::new(0.0, 0.0, 0.0), Point3::new(0.0, 0.0, h)]);
    let t = (0..n)
        .flat_map(|k| {
            let (a, b) = (2 * k, 2 * ((k + 1) % n));
            [
                [a, b, b + 1],
                [a, b + 1, a + 1],
                [bottom, b, a],
                [top, a + 1, b + 1],
            ]
        })
        .collect();
    mesh(v, t)
}

/// A UV sphere of radius `r`: `rings − 1` latitude circles of `segments`
/// vertices each, and the two poles (`segments·(rings − 1) + 2` vertices),
/// as modelling tools and scanners make them.
pub fn uv_sphere(segments: u32, rings: u32, r: f64) -> TriMesh {
    let mut v = vec![Point3::new(0.0, 0.0, r)];
    for i in 1..rings {
        let (st, ct) = (std::f64::consts::PI * f64::from(i) / f64::from(rings)).sin_cos();
        v.extend((0..segments).map(|j| {
            let (sp, cp) = (std::f64::consts::TAU * f64::from(j) / f64::from(segments)).sin_cos();
            Point3::new(r * st * cp, r * st * sp, r * ct)
        }));
    }
    v.push(Point3::new(0.0, 0.0, -r));
    let at = |i: u32, j: u32| 1 + (i - 1) * segments + j % segments;
    let south = v.len() as u32 - 1;
    let mut t = Vec::new();
    for j in 0..segments {
        t.push([0, at(1, j), at(1, j + 1)]);
        t.push([south, at(rings - 1, j + 1), at(rings - 1, j)]);
    }
    for i in 1..rings - 1 {
        for j in 0..segments {
            t.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            t.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    mesh(v, t)
}
