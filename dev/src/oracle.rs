//! Oracles for the point and ray queries, independent of the library's own
//! walks: exact segment–triangle crossings (`robust::orient3d`), inside by
//! the parity of a random segment's crossings over every triangle, the
//! generalized winding number as a plain sum of solid angles (Van Oosterom
//! and Strackee), and the distance to a mesh as the least triangle–triangle
//! distance with the point as a degenerate triangle. Used by
//! `tests/query` (small meshes made in code) and `tests/models` (the
//! corpus).

use bvtool::TriMesh;
use nalgebra::{Point3, Vector3};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use robust::{Coord3D, orient3d};

fn c3(p: &Point3<f64>) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// Whether the segment `pq` crosses the triangle, exactly; `None` when it
/// touches an edge, a corner or the plane at an end (a degenerate case the
/// caller avoids by drawing another segment).
pub fn segment_crosses(p: &Point3<f64>, q: &Point3<f64>, t: &[Point3<f64>; 3]) -> Option<bool> {
    let s = |a: &Point3<f64>, b: &Point3<f64>| orient3d(c3(p), c3(q), c3(a), c3(b));
    let sides = [s(&t[0], &t[1]), s(&t[1], &t[2]), s(&t[2], &t[0])];
    let (pp, pq) = (
        orient3d(c3(&t[0]), c3(&t[1]), c3(&t[2]), c3(p)),
        orient3d(c3(&t[0]), c3(&t[1]), c3(&t[2]), c3(q)),
    );
    if sides == [0.0; 3] {
        // The line in the triangle's plane (every degenerate triangle's
        // case): a watertight test counts no crossing there.
        return Some(false);
    }
    let same = sides.iter().all(|&x| x > 0.0) || sides.iter().all(|&x| x < 0.0);
    let apart = (pp > 0.0 && pq < 0.0) || (pp < 0.0 && pq > 0.0);
    if same && apart {
        return Some(true);
    }
    // Degenerate: the segment's line through an edge or corner inside the
    // plane's crossing, or an end on the plane within the triangle.
    let line_on_edge =
        sides.contains(&0.0) && !(sides.iter().any(|&x| x > 0.0) && sides.iter().any(|&x| x < 0.0));
    if (line_on_edge && (apart || pp == 0.0 || pq == 0.0)) || ((pp == 0.0 || pq == 0.0) && same) {
        return None;
    }
    Some(false)
}

/// The triangles (indices into `tris`) that the segment `pq` crosses, by
/// [`segment_crosses`] over every triangle; `None` when it touches an edge,
/// a corner or a plane at an end of one (the caller draws another).
pub fn crossed(tris: &[[Point3<f64>; 3]], p: &Point3<f64>, q: &Point3<f64>) -> Option<Vec<u32>> {
    let mut out = Vec::new();
    for (k, t) in tris.iter().enumerate() {
        if segment_crosses(p, q, t)? {
            out.push(k as u32);
        }
    }
    Some(out)
}

/// The crossings of a random segment from `p` to beyond every triangle,
/// by exact predicates over every triangle: `(signed, count)`, each
/// crossing counted +1 where the segment leaves through the triangle's
/// back (from the side its normal, by the right-hand rule, points away
/// from) and −1 where it enters. `signed` is `p`'s exact winding number
/// (the number of times the surface wraps it, outward), `count` mod 2 its
/// inside for a mesh closed only mod 2. A point on the surface has no
/// answer (every segment is degenerate there): the caller leaves those
/// out.
pub fn crossings(tris: &[[Point3<f64>; 3]], p: &Point3<f64>, rng: &mut ChaCha8Rng) -> (i64, usize) {
    // Beyond the farthest corner, whatever the units.
    let reach = tris
        .iter()
        .flatten()
        .map(|c| (c - p).norm())
        .fold(1.0, f64::max);
    'segment: for _ in 0..100 {
        let d = Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        if d.norm() < 0.1 {
            continue;
        }
        let q = p + d * (4.0 * reach / d.norm());
        let (mut signed, mut count) = (0, 0);
        for t in tris {
            match segment_crosses(p, &q, t) {
                Some(true) => {
                    count += 1;
                    // robust's orient3d is positive where `p` is below
                    // the plane: behind the triangle's normal.
                    signed += if orient3d(c3(&t[0]), c3(&t[1]), c3(&t[2]), c3(p)) > 0.0 {
                        1
                    } else {
                        -1
                    };
                }
                Some(false) => {}
                None => continue 'segment,
            }
        }
        return (signed, count);
    }
    panic!("{p}: every segment degenerate (a point on the surface?)");
}

/// Inside a mesh closed mod 2: the parity of [`crossings`].
pub fn parity_inside(tris: &[[Point3<f64>; 3]], p: &Point3<f64>, rng: &mut ChaCha8Rng) -> bool {
    crossings(tris, p, rng).1 % 2 == 1
}

/// Every triangle of `m` as its three corners.
pub fn triangles(m: &TriMesh) -> Vec<[Point3<f64>; 3]> {
    (0..m.triangles.len()).map(|i| m.triangle(i)).collect()
}

/// The solid angle over 4π of every triangle, summed plainly.
pub fn brute_winding(tris: &[[Point3<f64>; 3]], p: &Point3<f64>) -> f64 {
    tris.iter()
        .map(|t| {
            let [a, b, c] = t.map(|q| q - p);
            let det = a.dot(&b.cross(&c));
            let (la, lb, lc) = (a.norm(), b.norm(), c.norm());
            2.0 * det.atan2(la * lb * lc + a.dot(&b) * lc + b.dot(&c) * la + c.dot(&a) * lb)
        })
        .sum::<f64>()
        / (4.0 * std::f64::consts::PI)
}

/// The distance from `p` to the nearest of `tris`, by the library's
/// triangle–triangle distance with `p` as a degenerate triangle (tested
/// against parry3d and brute force in `tests/query/triangle.rs`), over every
/// triangle.
pub fn brute_distance(tris: &[[Point3<f64>; 3]], p: &Point3<f64>) -> f64 {
    use bvtool::query::pair::distance_triangle_triangle::triangle_distance;
    tris.iter()
        .map(|t| triangle_distance(&[*p, *p, *p], t).distance)
        .fold(f64::INFINITY, f64::min)
}

/// Whether two surfaces of one piece each that do not meet, their
/// triangles in one frame, are nested as solids: a corner of one inside
/// the other by [`parity_inside`] (over every triangle), the other closed
/// (`closed_a`, `closed_b`). A piece that does not meet a surface lies
/// wholly on one side of it, so one corner decides.
pub fn nested(
    a: &[[Point3<f64>; 3]],
    closed_a: bool,
    b: &[[Point3<f64>; 3]],
    closed_b: bool,
    rng: &mut ChaCha8Rng,
) -> bool {
    let mut inside = |outer: &[[Point3<f64>; 3]], p: &Point3<f64>| {
        // Outside the outer's box: not inside.
        let boxed = (0..3).all(|k| {
            let mut it = outer.iter().flatten();
            it.clone().any(|c| c[k] <= p[k]) && it.any(|c| c[k] >= p[k])
        });
        boxed && parity_inside(outer, p, rng)
    };
    (closed_a && inside(a, &b[0][0])) || (closed_b && inside(b, &a[0][0]))
}
