//! Contacts of two meshes at a pose: per meeting triangle pair a contact
//! normal, a depth and the contact points, and the pairs merged into one
//! patch per contact plane.
//!
//! **Per pair** (both triangles in A's frame): each triangle's plane is
//! tried as the contact plane. Across A's plane, B's triangle has a smaller
//! side (the corners on the side where it reaches less) reaching `r_A`;
//! moving B by `r_A` along A's normal, oriented towards B's larger side,
//! clears the crossing. Likewise `r_B` across B's plane, moving B against
//! B's normal oriented towards A's larger side. The pair's **depth** is
//! the smaller of the two and its **normal** (unit, from A to B: the way to
//! move B) the matching plane's — the separating-axis test of the two
//! face normals, as ODE and GImpact take mesh contacts. It is the depth
//! `clash` reports per triangle pair (`crossing_depth`). It is not the
//! pair's shortest separating move: a sideways move past an edge can be
//! shorter, and the triangles alone say nothing of the meshes around them —
//! a box sunk 0.1 into a box gets 0.1 along the face normal from every pair,
//! where the triangles' own translational depth gives diagonal normals near
//! the faces' diagonals. A tie takes A's plane; a plane with B flat on it
//! takes A's winding normal; a degenerate triangle offers no plane.
//!
//! The **points** are where the triangles meet: the segment along which
//! they cross, or, for coplanar triangles, the corners of their overlap.
//!
//! **Patches**: pairs with the same contact plane and normal (the normal
//! and the plane's offset, relative to the scale, quantised to `10⁻⁸`) are
//! one patch: its normal, its deepest pair's depth, the convex hull of its
//! pairs' points in that plane, and the pairs. A box sunk into a box is
//! one quadrilateral, not a dozen pairs. Where the contact region is not
//! convex, the hull covers its gaps. Everything is in `f64`, a few ulps of
//! the coordinates.

use crate::fit::hull::planar::monotone_chain_within;
use crate::mesh::TriMesh;
use crate::pose::Pose;
use nalgebra::{Point3, Vector3};
use std::collections::HashMap;

/// The contact of one triangle pair, in A's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct PairContact {
    /// Unit normal from A to B: moving B by `depth·normal` clears the
    /// pair's crossing.
    pub normal: Vector3<f64>,
    /// How far the smaller side reaches across the contact plane (≥ 0; 0
    /// when the triangles touch without crossing).
    pub depth: f64,
    /// The contact plane's offset: `normal·x` for `x` on it.
    pub offset: f64,
    /// Where the triangles meet: a segment's ends, an overlap polygon's
    /// corners, or one point (empty when rounding loses it).
    pub points: Vec<Point3<f64>>,
}

/// A triangle's unit normal by its winding, `None` when degenerate.
fn unit_normal(t: &[Point3<f64>; 3]) -> Option<Vector3<f64>> {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let len = n.norm();
    (len > 0.0 && len.is_finite()).then(|| n / len)
}

/// Across the plane of `p` (unit normal `n`), how far `t`'s smaller side
/// reaches, and the normal oriented towards `t`'s larger side (`n` on a
/// tie).
fn reach(t: &[Point3<f64>; 3], p: &[Point3<f64>; 3], n: &Vector3<f64>) -> (f64, Vector3<f64>) {
    let d = t.map(|c| (c - p[0]).dot(n));
    let (hi, lo) = (d[0].max(d[1]).max(d[2]), d[0].min(d[1]).min(d[2]));
    let (above, below) = (hi.max(0.0), (-lo).max(0.0));
    if below < above {
        (below, *n)
    } else if above < below {
        (above, -n)
    } else {
        (above, *n)
    }
}

/// The contact of A's triangle `a` and B's triangle `b`, both in A's frame
/// (see the module docs); `None` when both are degenerate.
pub fn triangle_contact(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> Option<PairContact> {
    let (na, nb) = (unit_normal(a), unit_normal(b));
    let across_a = na.map(|n| {
        let (r, m) = reach(b, a, &n);
        (r, m, m.dot(&a[0].coords))
    });
    let across_b = nb.map(|n| {
        let (r, m) = reach(a, b, &n);
        (r, -m, -m.dot(&b[0].coords))
    });
    let (depth, normal, offset) = match (across_a, across_b) {
        (Some(x), Some(y)) => {
            if y.0 < x.0 {
                y
            } else {
                x
            }
        }
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => return None,
    };
    Some(PairContact {
        normal,
        depth,
        offset,
        points: meeting(a, b, na, nb),
    })
}

/// Where triangles `a` and `b` meet: the crossing segment, or the overlap
/// of coplanar triangles.
fn meeting(
    a: &[Point3<f64>; 3],
    b: &[Point3<f64>; 3],
    na: Option<Vector3<f64>>,
    nb: Option<Vector3<f64>>,
) -> Vec<Point3<f64>> {
    let (Some(na), Some(nb)) = (na, nb) else {
        // A degenerate triangle: its corners that touch the other's plane.
        let (flat, other, n) = match (na, nb) {
            (Some(n), None) => (b, a, n),
            (None, Some(n)) => (a, b, n),
            _ => return Vec::new(),
        };
        let scale = flat
            .iter()
            .chain(other)
            .map(|p| p.coords.amax())
            .fold(0.0, f64::max);
        return flat
            .iter()
            .filter(|c| (*c - other[0]).dot(&n).abs() <= 1e-12 * scale)
            .copied()
            .collect();
    };
    let line = na.cross(&nb);
    if line.norm() <= 1e-12 {
        return overlap(a, b, &na);
    }
    // Each triangle's piece on the other's plane, along `line`.
    let piece = |t: &[Point3<f64>; 3], p: &[Point3<f64>; 3], n: &Vector3<f64>| {
        let d = t.map(|c| (c - p[0]).dot(n));
        let mut pts = Vec::new();
        for k in 0..3 {
            let (i, j) = (k, (k + 1) % 3);
            if d[i] == 0.0 {
                pts.push(t[i]);
            }
            if (d[i] < 0.0 && d[j] > 0.0) || (d[i] > 0.0 && d[j] < 0.0) {
                let s = d[i] / (d[i] - d[j]);
                pts.push(t[i] + (t[j] - t[i]) * s);
            }
        }
        pts
    };
    let (pa, pb) = (piece(a, b, &nb), piece(b, a, &na));
    let span = |pts: &[Point3<f64>]| {
        pts.iter().fold(
            None,
            |acc: Option<(f64, Point3<f64>, f64, Point3<f64>)>, p| {
                let s = line.dot(&p.coords);
                Some(match acc {
                    None => (s, *p, s, *p),
                    Some((lo, plo, hi, phi)) => {
                        let (lo, plo) = if s < lo { (s, *p) } else { (lo, plo) };
                        let (hi, phi) = if s > hi { (s, *p) } else { (hi, phi) };
                        (lo, plo, hi, phi)
                    }
                })
            },
        )
    };
    let (Some(sa), Some(sb)) = (span(&pa), span(&pb)) else {
        return Vec::new();
    };
    // The overlap of the two pieces: from the later start to the earlier
    // end (their points, which lie on both planes up to rounding).
    let start = if sa.0 >= sb.0 { sa.1 } else { sb.1 };
    let end = if sa.2 <= sb.2 { sa.3 } else { sb.3 };
    if start == end {
        vec![start]
    } else {
        vec![start, end]
    }
}

/// The overlap of coplanar triangles `a` and `b` (`n` their plane's unit
/// normal): `b` clipped by each of `a`'s edges (Sutherland–Hodgman).
fn overlap(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3], n: &Vector3<f64>) -> Vec<Point3<f64>> {
    let mut out = b.to_vec();
    for k in 0..3 {
        let (p, q) = (a[k], a[(k + 1) % 3]);
        // Inward across the edge p → q (counter-clockwise about `n`).
        let inward = n.cross(&(q - p));
        let side = |x: &Point3<f64>| (x - p).dot(&inward);
        let mut next = Vec::with_capacity(out.len() + 1);
        for i in 0..out.len() {
            let (u, v) = (out[i], out[(i + 1) % out.len()]);
            let (su, sv) = (side(&u), side(&v));
            if su >= 0.0 {
                next.push(u);
            }
            if (su > 0.0 && sv < 0.0) || (su < 0.0 && sv > 0.0) {
                next.push(u + (v - u) * (su / (su - sv)));
            }
        }
        out = next;
        if out.is_empty() {
            break;
        }
    }
    out
}

/// Pairs merged by contact plane.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactPatch {
    /// The plane's unit normal, from A to B.
    pub normal: Vector3<f64>,
    /// The deepest pair's depth.
    pub depth: f64,
    /// The convex hull of the pairs' points, counter-clockwise seen along
    /// the normal: a polygon, a segment's ends or a point.
    pub polygon: Vec<Point3<f64>>,
    /// The pairs in it, as indices into the contacts given.
    pub pairs: Vec<usize>,
}

/// The contacts merged into patches (see the module docs), in order of
/// their first pair; `scale` is the models' size (the unit of the planes'
/// offsets).
pub fn patches(contacts: &[PairContact], scale: f64) -> Vec<ContactPatch> {
    let unit = scale.max(f64::MIN_POSITIVE);
    let quantised = |x: f64| (x * 1e8).round() as i64;
    let mut found: Vec<ContactPatch> = Vec::new();
    let mut index: HashMap<[i64; 4], usize> = HashMap::new();
    for (k, c) in contacts.iter().enumerate() {
        let key = [
            quantised(c.normal.x),
            quantised(c.normal.y),
            quantised(c.normal.z),
            quantised(c.offset / unit),
        ];
        let at = *index.entry(key).or_insert_with(|| {
            found.push(ContactPatch {
                normal: c.normal,
                depth: 0.0,
                polygon: Vec::new(),
                pairs: Vec::new(),
            });
            found.len() - 1
        });
        let p = &mut found[at];
        p.depth = p.depth.max(c.depth);
        p.pairs.push(k);
        p.polygon.extend_from_slice(&c.points);
    }
    for p in &mut found {
        p.polygon = hull_in_plane(&p.polygon, &p.normal, unit);
    }
    found
}

/// The contacts of two meshes' meeting triangle pairs and their patches,
/// in A's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Contacts {
    /// Each pair's contact, in the order given (`None` when both triangles
    /// are degenerate).
    pub pairs: Vec<Option<PairContact>>,
    /// The pairs merged by contact plane; a patch's `pairs` are positions
    /// in [`Contacts::pairs`].
    pub patches: Vec<ContactPatch>,
}

/// The contacts of `pairs` (A's triangle, B's triangle: indices into the
/// meshes, as [`crate::query::collide`] lists them), B placed by `pose`,
/// and their [`patches`]. `reach` is each mesh's largest vertex distance
/// from its origin (e.g. [`crate::tree::ObbTree::radius`]): with the pose's
/// translation, the scale of the planes' offsets.
pub fn mesh_contacts(
    a: &TriMesh,
    b: &TriMesh,
    pose: &Pose,
    pairs: &[(u32, u32)],
    reach: (f64, f64),
) -> Contacts {
    let each: Vec<Option<PairContact>> = pairs
        .iter()
        .map(|&(i, j)| {
            let tb = b.triangle(j as usize).map(|v| pose.transform_point(&v));
            triangle_contact(&a.triangle(i as usize), &tb)
        })
        .collect();
    let (at, some): (Vec<usize>, Vec<PairContact>) = each
        .iter()
        .enumerate()
        .filter_map(|(k, c)| c.clone().map(|c| (k, c)))
        .unzip();
    let scale = reach.0 + reach.1 + pose.translation.norm();
    let mut merged = patches(&some, scale);
    for p in &mut merged {
        p.pairs.iter_mut().for_each(|k| *k = at[*k]);
    }
    Contacts {
        pairs: each,
        patches: merged,
    }
}

/// The convex hull of `points` (near one plane of normal `n`), seen along
/// `n`: counter-clockwise, points within `10⁻⁹` of the scale of one
/// another or of an edge's line dropped.
fn hull_in_plane(points: &[Point3<f64>], n: &Vector3<f64>, scale: f64) -> Vec<Point3<f64>> {
    let u = if n.x.abs() < 0.6 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let u = (u - n * n.dot(&u)).normalize();
    let v = n.cross(&u);
    let mut order: Vec<usize> = (0..points.len()).collect();
    let at = |&i: &usize| (u.dot(&points[i].coords), v.dot(&points[i].coords));
    monotone_chain_within(&mut order, at, 1e-9 * scale)
        .into_iter()
        .map(|i| points[i])
        .collect()
}
