//! The 15-axis box test (`f32`, SIMD) against parry3d's cuboid–cuboid test, against an
//! independent corner-projection separation measure, and a regression for the
//! "full extents on the cross axes" bug.

use bvtool::check::parry::boxes_intersect;
use bvtool::check::poses::random_rotation;
use bvtool::fit::Obb;
use bvtool::query::pair::distance_triangle_triangle::triangle_distance;
use bvtool::query::pair::overlap_obb_obb::{
    Placement32, Slabs, corners32, obb_overlap, obb_separation, slack_for,
};
use bvtool::tree::NodeBox;
use nalgebra::{Matrix3, Point3, UnitQuaternion, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The largest gap between the two boxes' corner projections over the 15
/// candidate axes (normalized; degenerate cross axes skipped): > 0 iff the
/// boxes are disjoint (up to rounding), its size is the separation along the
/// best axis. Independent of the SAT formula under test.
fn separation(a: &Obb, b: &Obb) -> f64 {
    let mut axes = Vec::new();
    for i in 0..3 {
        axes.push(a.axis(i));
        axes.push(b.axis(i));
        for j in 0..3 {
            let c = a.axis(i).cross(&b.axis(j));
            if c.norm() > 1e-9 {
                axes.push(c.normalize());
            }
        }
    }
    let (ca, cb) = (a.corners(), b.corners());
    axes.iter()
        .map(|l| {
            let range = |c: &[Point3<f64>; 8]| {
                c.iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                        let x = l.dot(&p.coords);
                        (lo.min(x), hi.max(x))
                    })
            };
            let ((alo, ahi), (blo, bhi)) = (range(&ca), range(&cb));
            (blo - ahi).max(alo - bhi)
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

fn random_box(rng: &mut impl Rng, rot: Matrix3<f64>, flat: bool) -> Obb {
    let mut h = Vector3::new(
        rng.random_range(0.05..1.5),
        rng.random_range(0.05..1.5),
        rng.random_range(0.05..1.5),
    );
    if flat {
        h[rng.random_range(0..3)] = 0.0;
    }
    Obb {
        center: Point3::new(
            rng.random_range(-2.0..2.0),
            rng.random_range(-2.0..2.0),
            rng.random_range(-2.0..2.0),
        ),
        axes: rot,
        half_extents: h,
    }
}

#[test]
fn random_boxes_agree_with_parry_and_corner_projection() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (mut overlaps, mut disagree) = (0, 0);
    let n = 20_000;
    for k in 0..n {
        let ra = random_rotation(&mut rng).to_rotation_matrix().into_inner();
        let rb = match k % 4 {
            // exactly parallel, nearly parallel, general
            0 => ra,
            1 => {
                let tiny = 10f64.powf(rng.random_range(-9.0..-3.0));
                let axis = nalgebra::Unit::new_normalize(Vector3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                ));
                (UnitQuaternion::from_axis_angle(&axis, tiny)
                    .to_rotation_matrix()
                    .into_inner())
                    * ra
            }
            _ => random_rotation(&mut rng).to_rotation_matrix().into_inner(),
        };
        let a = random_box(&mut rng, ra, k % 5 == 0);
        let b = random_box(&mut rng, rb, k % 3 == 0);
        let mine = obb_overlap(&a, &b);
        let sep = separation(&a, &b);
        overlaps += mine as usize;
        // Conservative: never "separated" when the boxes overlap.
        if !mine {
            assert!(sep > 0.0, "false separation: {a:?} {b:?} sep {sep}");
        }
        // And not loose: a gap wider than the f32 slack (256 f32 ulps of
        // the coordinates, about 1e-4 here) is always found.
        if sep > 1e-3 {
            assert!(!mine, "missed a gap of {sep}: {a:?} {b:?}");
        }
        if mine != boxes_intersect(&a, &b) {
            disagree += 1;
            // Both work in f32: allowed only within our f32 slack (about
            // 1e-4 here, one-sided: we may only say "overlap") or parry's
            // f32 tolerance of touching.
            assert!(
                (mine && sep > 0.0 && sep < 1e-3) || sep.abs() < 1e-5,
                "clear disagreement with parry: sep {sep}"
            );
        }
    }
    eprintln!(
        "{overlaps}/{n} overlapping, {disagree} disagreements with parry (within the f32 slack)"
    );
    assert!(overlaps > n / 10 && overlaps < n * 9 / 10);
}

#[test]
fn touching_boxes_overlap() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for k in 0..5_000 {
        let r = random_rotation(&mut rng).to_rotation_matrix().into_inner();
        let a = random_box(&mut rng, r, k % 4 == 0);
        let mut b = random_box(&mut rng, r, k % 3 == 0);
        // Face to face along axis i, offsets inside the face on the others.
        let i = k % 3;
        let mut off = Vector3::zeros();
        for j in 0..3 {
            off[j] = if j == i {
                a.half_extents[j] + b.half_extents[j]
            } else {
                rng.random_range(-1.0..1.0) * (a.half_extents[j] + b.half_extents[j])
            };
        }
        b.center = a.center + r * off;
        assert!(obb_overlap(&a, &b), "face-touching boxes reported apart");
        // The same pair far from the origin, and shrunk: the f32 slack
        // scales with the coordinates, so touching still counts.
        for (shift, scale) in [(1e4, 1.0), (1e-3, 1e-4), (1e3, 1e-3)] {
            let far = Vector3::new(1.0, -0.7, 0.3) * shift;
            let moved = |o: &Obb| Obb {
                center: Point3::from(o.center.coords * scale + far),
                axes: o.axes,
                half_extents: o.half_extents * scale,
            };
            assert!(
                obb_overlap(&moved(&a), &moved(&b)),
                "face-touching boxes reported apart at shift {shift}, scale {scale}"
            );
        }
        // Corner of B touching A's face exactly (axis-aligned, dyadic numbers).
        let a = Obb::from_min_max(&Point3::new(-1.0, -1.0, -1.0), &Point3::new(1.0, 1.0, 1.0));
        let q = UnitQuaternion::from_euler_angles(0.3, 0.7, 1.1).to_rotation_matrix();
        let mut c = Obb {
            center: Point3::origin(),
            axes: q.into_inner(),
            half_extents: Vector3::new(0.25, 0.5, 0.125),
        };
        let lowest = c
            .corners()
            .iter()
            .map(|p| p.x)
            .fold(f64::INFINITY, f64::min);
        c.center.x = 1.0 - lowest;
        assert!(obb_overlap(&a, &c), "corner-touching boxes reported apart");
    }
}

/// The cross-axis test with the bug: full extents instead of half extents
/// on the 9 cross-product axes (face axes correct).
fn buggy_overlap(r: &Matrix3<f64>, t: &Vector3<f64>, ea: &Vector3<f64>, eb: &Vector3<f64>) -> bool {
    let ar = r.abs();
    for i in 0..3 {
        if t[i].abs() > ea[i] + eb.dot(&ar.row(i).transpose()) {
            return false;
        }
        let tl = t.dot(&r.column(i));
        if tl.abs() > ea.dot(&ar.column(i)) + eb[i] {
            return false;
        }
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = 2.0 * (ea[i1] * ar[(i2, j)] + ea[i2] * ar[(i1, j)]);
            let rb = 2.0 * (eb[j1] * ar[(i, j2)] + eb[j2] * ar[(i, j1)]);
            if (t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)]).abs() > ra + rb {
                return false;
            }
        }
    }
    true
}

#[test]
fn full_extent_cross_axis_bug_regression() {
    // Two unit cubes, B turned 45° about z then about x, so that an edge of
    // B faces an edge of A across the diagonal direction; only a cross axis
    // separates them.
    let ea = Vector3::new(1.0, 1.0, 1.0);
    let eb = Vector3::new(1.0, 1.0, 1.0);
    let rot = (UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_4)
        * UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4))
    .to_rotation_matrix()
    .into_inner();
    let a = Obb {
        center: Point3::origin(),
        axes: Matrix3::identity(),
        half_extents: ea,
    };
    // Slide B along (1,1,0) until it is just past edge contact.
    let dir = Vector3::new(1.0, 1.0, 0.0).normalize();
    let mut b = Obb {
        center: Point3::origin(),
        axes: rot,
        half_extents: eb,
    };
    let mut lo = 0.0;
    let mut hi = 10.0;
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        b.center = Point3::from(dir * mid);
        if separation(&a, &b) > 0.0 {
            hi = mid
        } else {
            lo = mid
        }
    }
    b.center = Point3::from(dir * (hi + 0.05));
    let r = rot;
    let t = b.center.coords;
    // The face axes do not separate: this needs a cross axis.
    let face_sep = (0..3).any(|i| {
        t[i].abs() > ea[i] + eb.dot(&r.abs().row(i).transpose())
            || t.dot(&r.column(i)).abs() > ea.dot(&r.abs().column(i)) + eb[i]
    });
    assert!(!face_sep, "construction should need a cross axis");
    assert!(
        buggy_overlap(&r, &t, &ea, &eb),
        "the buggy formula should claim overlap"
    );
    assert!(!obb_overlap(&a, &b), "the correct test must separate");
    // Independent proof: a plane with every corner of A strictly on one side
    // and every corner of B strictly on the other.
    let mut found = false;
    for i in 0..3 {
        for j in 0..3 {
            let l = a.axis(i).cross(&b.axis(j));
            if l.norm() < 1e-9 {
                continue;
            }
            let ma = a
                .corners()
                .iter()
                .map(|p| l.dot(&p.coords))
                .fold(f64::NEG_INFINITY, f64::max);
            let nb = b
                .corners()
                .iter()
                .map(|p| l.dot(&p.coords))
                .fold(f64::INFINITY, f64::min);
            let mb = b
                .corners()
                .iter()
                .map(|p| l.dot(&p.coords))
                .fold(f64::NEG_INFINITY, f64::max);
            let na = a
                .corners()
                .iter()
                .map(|p| l.dot(&p.coords))
                .fold(f64::INFINITY, f64::min);
            found |= ma < nb - 1e-3 || mb < na - 1e-3;
        }
    }
    assert!(found, "no separating plane found");
}

/// The box's surface as 12 triangles.
fn box_triangles(b: &Obb) -> Vec<[Point3<f64>; 3]> {
    let c = b.corners();
    // Corner k has bit i set for +axis i; each face is the 4 corners with
    // one bit fixed, split along a diagonal.
    let mut out = Vec::new();
    for i in 0..3 {
        for side in [0, 1] {
            let f: Vec<usize> = (0..8).filter(|k| (k >> i) & 1 == side).collect();
            // f[0], f[1], f[3], f[2] go round the face.
            out.push([c[f[0]], c[f[1]], c[f[3]]]);
            out.push([c[f[0]], c[f[3]], c[f[2]]]);
        }
    }
    out
}

/// The distance lower bound never exceeds the boxes' distance (the least
/// distance between their surfaces' triangles, for boxes apart), and finds
/// most of it: the SAT's best axis alone loses up to √3 on diagonal
/// configurations; the face-gap norms win some of that back.
#[test]
fn separation_bounds_the_box_distance_from_below() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut apart, mut ratio_sum) = (0, 0.0);
    for k in 0..5_000 {
        let ra = random_rotation(&mut rng).to_rotation_matrix().into_inner();
        let rb = if k % 3 == 0 {
            ra
        } else {
            random_rotation(&mut rng).to_rotation_matrix().into_inner()
        };
        let a = random_box(&mut rng, ra, k % 5 == 0);
        let mut b = random_box(&mut rng, rb, k % 7 == 0);
        b.center += Vector3::new(
            rng.random_range(-3.0..3.0),
            rng.random_range(-3.0..3.0),
            rng.random_range(-3.0..3.0),
        );
        let bound = obb_separation(&a, &b) as f64;
        if obb_overlap(&a, &b) {
            assert_eq!(bound, 0.0, "overlapping boxes have a positive bound");
            continue;
        }
        let (ta, tb) = (box_triangles(&a), box_triangles(&b));
        let d = ta
            .iter()
            .flat_map(|x| tb.iter().map(move |y| triangle_distance(x, y).distance))
            .fold(f64::INFINITY, f64::min);
        assert!(
            bound <= d + 1e-9,
            "bound {bound} above the distance {d}: {a:?} {b:?}"
        );
        apart += 1;
        ratio_sum += bound / d;
    }
    let mean = ratio_sum / apart as f64;
    eprintln!("{apart} apart, bound / distance {mean:.3} on average");
    assert!(
        apart > 1000 && mean > 0.7,
        "{apart} apart, mean ratio {mean}"
    );
}

/// A triangle's slab gap to a box (`Slabs::gap`, for a node box and for a
/// placed one) never exceeds their distance — the least distance from the
/// triangle to the box's surface triangles when the gap says they are apart
/// (a positive gap means an axis separates them, so the triangle is
/// outside) — and is 0 for a triangle with a corner inside the box.
#[test]
fn slab_gap_bounds_the_triangle_box_distance_from_below() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let (mut apart, mut ratio_sum) = (0, 0.0);
    for k in 0..4_000 {
        let rot = random_rotation(&mut rng).to_rotation_matrix().into_inner();
        let b = random_box(&mut rng, rot, k % 5 == 0);
        // A small triangle near the box, or one with a corner at its centre.
        let c = random_point(&mut rng, 3.5);
        let mut t = [
            c,
            c + random_point(&mut rng, 0.6).coords,
            c + random_point(&mut rng, 0.6).coords,
        ];
        if k % 9 == 0 {
            t[0] = b.center;
        }
        // The box as a node box about the origin, and as B's box placed by
        // a pose: the same box in A's frame.
        let node = NodeBox::about(&b, &Point3::origin());
        let pose = random_rotation(&mut rng);
        let shift = random_point(&mut rng, 2.0).coords;
        let inverse = pose.inverse();
        let in_b = Obb {
            center: Point3::from(inverse * (b.center.coords - shift)),
            axes: inverse.to_rotation_matrix().into_inner() * b.axes,
            half_extents: b.half_extents,
        };
        let placed = Placement32::new(&pose.to_rotation_matrix().into_inner(), &shift)
            .place(&NodeBox::about(&in_b, &Point3::origin()));
        let slack = slack_for(8.0);
        let corners = corners32(&t, &Point3::origin());
        let gaps = [
            Slabs::of_node(&node, slack).gap(&corners),
            Slabs::of_placed(&placed, slack).gap(&corners),
        ];
        if k % 9 == 0 {
            assert_eq!(gaps, [0.0, 0.0], "a corner inside: {t:?} {b:?}");
            continue;
        }
        let d = box_triangles(&b)
            .iter()
            .map(|f| triangle_distance(f, &t).distance)
            .fold(f64::INFINITY, f64::min);
        for gap in gaps {
            assert!(
                gap as f64 <= d + 1e-9,
                "gap {gap} above the distance {d}: {t:?} {b:?}"
            );
            if gap > 0.0 {
                apart += 1;
                ratio_sum += gap as f64 / d;
            }
        }
    }
    enough_apart(apart, ratio_sum, 2000);
}

/// A triangle's gap to another's own flat box (`Slabs::of_triangle`) never
/// exceeds the triangles' distance, and is often most of it; slivers get
/// no slabs.
#[test]
fn own_slab_gap_bounds_the_triangle_distance_from_below() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let slack = slack_for(8.0);
    let (mut apart, mut ratio_sum) = (0, 0.0);
    for _ in 0..4_000 {
        let tri = |rng: &mut ChaCha8Rng| {
            let c = random_point(rng, 2.0);
            [
                c,
                c + random_point(rng, 0.8).coords,
                c + random_point(rng, 0.8).coords,
            ]
        };
        let (a, b) = (tri(&mut rng), tri(&mut rng));
        let (a32, b32) = (
            corners32(&a, &Point3::origin()),
            corners32(&b, &Point3::origin()),
        );
        let d = triangle_distance(&a, &b).distance;
        for (t, other) in [(&a32, &b32), (&b32, &a32)] {
            let Some(own) = Slabs::of_triangle(t, slack) else {
                continue;
            };
            let gap = own.gap(other) as f64;
            assert!(
                gap <= d + 1e-9,
                "gap {gap} above the distance {d}: {a:?} {b:?}"
            );
            if gap > 0.0 {
                apart += 1;
                ratio_sum += gap / d;
            }
        }
    }
    let sliver = [
        Point3::origin(),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(0.5, 1e-3, 0.0),
    ];
    assert!(Slabs::of_triangle(&corners32(&sliver, &Point3::origin()), slack).is_none());
    enough_apart(apart, ratio_sum, 3000);
}

/// A point with coordinates uniform in `(-r, r)`.
fn random_point(rng: &mut ChaCha8Rng, r: f64) -> Point3<f64> {
    Point3::new(
        rng.random_range(-r..r),
        rng.random_range(-r..r),
        rng.random_range(-r..r),
    )
}

/// That a gap bound was positive in more than `least` cases and found more
/// than half the distance on average (`ratio_sum` over `apart` cases).
fn enough_apart(apart: usize, ratio_sum: f64, least: usize) {
    let mean = ratio_sum / apart as f64;
    eprintln!("{apart} apart, gap / distance {mean:.3} on average");
    assert!(
        apart > least && mean > 0.5,
        "{apart} apart, mean ratio {mean}"
    );
}
