//! The minimum-volume box (`tight`) against a brute-force search, the other
//! boxes, and degenerate input.

use bvtool_dev as common;

use bvtool::fit::hull::planar::{convex_hull_2d, min_area_rect, min_area_rect_of};
use bvtool::fit::{Aabb, ConvexHull, Obb, ObbMethod, obb};
use nalgebra::{Point3, Vector2, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn fit(pts: &[Point3<f64>], m: ObbMethod) -> Obb {
    let hull = ConvexHull::new(pts).unwrap();
    let b = obb(pts, &hull, m).unwrap();
    for p in pts {
        assert!(b.contains(p, 0.0), "{m}: {p} outside");
    }
    assert!(
        (b.axes.determinant() - 1.0).abs() < 1e-9,
        "{m}: not a rotation"
    );
    assert!(b.half_extents.iter().all(|h| h.is_finite() && *h >= 0.0));
    b
}

/// Volume of the least box with one axis along unit `n`: the extent along
/// `n` times the minimum-area rectangle (rotating calipers) of the points
/// projected across it — exact over every rotation about `n`.
fn flush_volume(n: &Vector3<f64>, pts: &[Point3<f64>]) -> f64 {
    let u = n
        .cross(&if n.x.abs() < 0.6 {
            Vector3::x()
        } else {
            Vector3::y()
        })
        .normalize();
    let v = n.cross(&u);
    let (lo, hi) = pts
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            let x = n.dot(&p.coords);
            (l.min(x), h.max(x))
        });
    let mut flat: Vec<_> = pts
        .iter()
        .map(|p| Vector2::new(u.dot(&p.coords), v.dot(&p.coords)))
        .collect();
    min_area_rect(&convex_hull_2d(&mut flat)).0 * (hi - lo)
}

/// Brute force, independent of the library's search: every hull face
/// normal and, on hulls of at most `pair_limit` vertices, every cross
/// product of two hull edges as one box axis (each with the exact best
/// rotation about it), then `sampled` Fibonacci directions, and a pattern
/// search on the sphere from the best 4 directions found.
fn brute_force_volume(hull: &ConvexHull, pair_limit: usize, sampled: usize) -> f64 {
    let p = &hull.vertices;
    let mut edges = Vec::new();
    let mut dirs = Vec::new();
    for f in &hull.faces {
        let [a, b, c] = f.map(|i| p[i as usize]);
        dirs.push((b - a).cross(&(c - a)));
        edges.extend([b - a, c - b, a - c]);
    }
    let pairs = if p.len() <= pair_limit {
        edges.len()
    } else {
        0
    };
    for (i, e) in edges.iter().take(pairs).enumerate() {
        for g in &edges[i + 1..] {
            dirs.push(e.cross(g));
        }
    }
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    dirs.extend((0..sampled).map(|k| {
        let z = (k as f64 + 0.5) / sampled as f64;
        let r = (1.0 - z * z).sqrt();
        Vector3::new(
            r * (golden * k as f64).cos(),
            r * (golden * k as f64).sin(),
            z,
        )
    }));
    let mut scored: Vec<(f64, Vector3<f64>)> = dirs
        .into_iter()
        .filter_map(|d| d.try_normalize(1e-300))
        .map(|n| (flush_volume(&n, p), n))
        .filter(|s| s.0.is_finite())
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    scored.truncate(4);
    let mut best = f64::INFINITY;
    for (mut v, mut n) in scored {
        let mut step = 0.05;
        while step > 1e-10 {
            let u = n
                .cross(&if n.x.abs() < 0.6 {
                    Vector3::x()
                } else {
                    Vector3::y()
                })
                .normalize();
            let w = n.cross(&u);
            let mut moved = false;
            for d in [u, -u, w, -w] {
                let m = (n + d * step).normalize();
                let x = flush_volume(&m, p);
                if x < v {
                    (v, n, moved) = (x, m, true);
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        best = best.min(v);
    }
    best
}

fn cloud(rng: &mut ChaCha8Rng, n: usize) -> Vec<Point3<f64>> {
    let s = Vector3::from_fn(|_, _| rng.random_range(0.2..3.0));
    (0..n)
        .map(|_| Point3::from(Vector3::from_fn(|i, _| s[i] * rng.random_range(-1.0..1.0))))
        .collect()
}

#[test]
fn minimal_against_brute_force_and_never_worse_than_other_boxes() {
    let mut rng = ChaCha8Rng::seed_from_u64(2015);
    let mut strictly_better_than_fast = 0;
    for seed in 0..200 {
        let n = rng.random_range(8..=40);
        let pts = cloud(&mut rng, n);
        let hull = ConvexHull::new(&pts).unwrap();
        let tight = fit(&pts, ObbMethod::Tight).volume();
        let brute = brute_force_volume(&hull, usize::MAX, 400);
        assert!(
            tight <= brute * (1.0 + 1e-9),
            "seed {seed}: tight {tight} > brute force {brute}"
        );
        let fast = fit(&pts, ObbMethod::Fast).volume();
        for (name, v) in [
            ("fast", fast),
            ("pca", fit(&pts, ObbMethod::Pca).volume()),
            ("hull", fit(&pts, ObbMethod::Hull).volume()),
            ("aabb", Aabb::from_points(&pts).unwrap().volume()),
        ] {
            assert!(
                tight <= v * (1.0 + 1e-12),
                "seed {seed}: tight {tight} > {name} {v}"
            );
        }
        assert!(tight >= hull.volume() * (1.0 - 1e-12));
        if tight < fast * (1.0 - 1e-6) {
            strictly_better_than_fast += 1;
        }
    }
    eprintln!("tight strictly below the face rule on {strictly_better_than_fast} of 200 clouds");
}

#[test]
fn chain_gets_the_45_degree_box() {
    let pts = common::repo_scene("chain.gltf").flatten().vertices;
    let hull = ConvexHull::new(&pts).unwrap();
    let tight = fit(&pts, ObbMethod::Tight).volume();
    let fast = fit(&pts, ObbMethod::Fast).volume();
    // Issue 11: the face rule gives 17.145; half sizes (1.85, 1.0571, 1.0571) give 16.539.
    assert!(tight <= 16.54, "chain: tight {tight}");
    assert!(tight < fast, "chain: tight {tight} vs fast {fast}");
    // 514 hull vertices: too many edge pairs; dense sampling instead.
    let brute = brute_force_volume(&hull, 0, 20_000);
    assert!(
        tight <= brute * (1.0 + 1e-9),
        "chain: tight {tight} > brute force {brute}"
    );
}

#[test]
fn degenerate_input_gives_a_containing_box() {
    let p = Point3::new;
    let line: Vec<_> = (0..7)
        .map(|i| p(i as f64, 2.0 * i as f64, -(i as f64)))
        .collect();
    assert!(fit(&line, ObbMethod::Tight).volume() <= 1e-9);
    let plane: Vec<_> = (0..30)
        .map(|i| {
            let t = i as f64 * 0.7;
            p(t.cos(), t.sin() * 2.0, t.cos() + t.sin())
        })
        .collect();
    assert!(fit(&plane, ObbMethod::Tight).volume() <= 1e-9);
    // A single point: a box of a few ulps (the containment margin).
    assert!(fit(&[p(1.0, 2.0, 3.0)], ObbMethod::Tight).volume() <= 1e-30);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let base = cloud(&mut rng, 20);
    let dup: Vec<_> = base.iter().chain(base.iter()).copied().collect();
    let v = fit(&base, ObbMethod::Tight).volume();
    assert_eq!(fit(&dup, ObbMethod::Tight).volume(), v);
    for scale in [1e-300, 1e300, 1e-150, 1e150] {
        let moved: Vec<_> = base.iter().map(|q| q * scale).collect();
        let b = fit(&moved, ObbMethod::Tight);
        let fast = fit(&moved, ObbMethod::Fast);
        for (h, f) in b.half_extents.iter().zip(fast.half_extents.iter()) {
            assert!(h.is_finite() && f.is_finite());
        }
        // Volumes over- or underflow at these scales; compare the extents' product in units of `scale`.
        let unit = |o: &Obb| o.half_extents.iter().map(|h| h / scale).product::<f64>();
        assert!(unit(&b) <= unit(&fast) * (1.0 + 1e-9), "scale {scale}");
    }
}

/// A rounded slab like robotiq's `pad.stl`: a rectangle of `w × h` with
/// corners of radius `r` (`seg` segments each) in the xz plane, extruded
/// by `t` along y. Its hull's edge arcs lie on three great circles, so most
/// edge pairs are perpendicular only where an arc ends at a cap normal.
fn rounded_slab(w: f64, h: f64, r: f64, t: f64, seg: usize) -> Vec<Point3<f64>> {
    let mut outline = Vec::new();
    for (cx, cz, a0) in [
        (w / 2.0 - r, h / 2.0 - r, 0.0),
        (r - w / 2.0, h / 2.0 - r, 0.5),
        (r - w / 2.0, r - h / 2.0, 1.0),
        (w / 2.0 - r, r - h / 2.0, 1.5),
    ] {
        for k in 0..=seg {
            let a = std::f64::consts::PI * (a0 + 0.5 * k as f64 / seg as f64);
            outline.push((cx + r * a.cos(), cz + r * a.sin()));
        }
    }
    [0.0, -t]
        .iter()
        .flat_map(|&y| outline.iter().map(move |&(x, z)| Point3::new(x, y, z)))
        .collect()
}

#[test]
fn rounded_slabs_with_ties_against_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(85);
    // A pad-like slab and a stadium (round ends: the corners meet).
    for (w, h, r) in [(22.0, 37.5, 5.0), (10.0, 30.0, 5.0)] {
        let slab = rounded_slab(w, h, r, 5.0, 7);
        // The volume does not turn with the slab: one brute force (on the
        // slab as given; turned, its projections along the caps' edges
        // fall within rounding of degenerate, which the brute force's
        // calipers do not survive) and the axis-aligned box bound them all.
        let brute = brute_force_volume(&ConvexHull::new(&slab).unwrap(), usize::MAX, 400);
        let best = brute.min(w * h * 5.0);
        // Turned, the pad's exact zeros become rounding noise.
        tight_when_turned(&slab, 4, best, &mut rng, &format!("slab {w}x{h} r {r}"));
    }
}

/// `tight` on `solid` as given, then turned at random `turns − 1` times:
/// never above `best` (the volume does not turn with the solid), never
/// below the hull.
fn tight_when_turned(
    solid: &[Point3<f64>],
    turns: usize,
    best: f64,
    rng: &mut ChaCha8Rng,
    what: &str,
) {
    for turn in 0..turns {
        let rot = if turn == 0 {
            nalgebra::Rotation3::identity()
        } else {
            nalgebra::Rotation3::from_scaled_axis(Vector3::from_fn(|_, _| {
                rng.random_range(-3.0..3.0)
            }))
        };
        let pts: Vec<_> = solid.iter().map(|p| rot * p).collect();
        let hull = ConvexHull::new(&pts).unwrap();
        let tight = fit(&pts, ObbMethod::Tight).volume();
        assert!(
            tight <= best * (1.0 + 1e-9),
            "{what}, turn {turn}: tight {tight}, best {best}"
        );
        assert!(tight >= hull.volume() * (1.0 - 1e-12));
    }
}

/// Prisms and frustums of regular polygons (a Blender cylinder's hull:
/// most edge configurations put a box axis along a cap's normal, which the
/// search leaves to the face rule), as given and turned at random, against
/// the brute force.
#[test]
fn prisms_and_frustums_against_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    for (sides, top, height) in [
        (5, 1.0, 0.3),
        (8, 1.0, 2.0),
        (13, 0.6, 1.0),
        (32, 1.0, 1.5),
        (32, 0.8, 0.2),
    ] {
        let ring = |r: f64, y: f64| {
            (0..sides).map(move |k| {
                let a = std::f64::consts::TAU * k as f64 / sides as f64;
                Point3::new(r * a.cos(), y, r * a.sin())
            })
        };
        let solid: Vec<_> = ring(1.0, 0.0).chain(ring(top, height)).collect();
        let brute = brute_force_volume(&ConvexHull::new(&solid).unwrap(), usize::MAX, 400);
        let what = format!("{sides} sides, top {top}");
        tight_when_turned(&solid, 3, brute, &mut rng, &what);
    }
}

/// A rectangle whose corners each come twice, a rounding's width apart
/// (as a box's top and bottom corners project along its face normal),
/// turned by many angles: the calipers must not follow the noise-length
/// edges' meaningless directions (they once returned areas far below the
/// rectangle's, or a worse side, which made `tight` miss a cube's box).
#[test]
fn min_area_rect_ignores_noise_length_edges() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for case in 0..500 {
        let (w, h) = (rng.random_range(0.5..4.0), rng.random_range(0.5..4.0));
        let turn = rng.random_range(0.0..std::f64::consts::TAU);
        let (s, c) = turn.sin_cos();
        let mut pts: Vec<Vector2<f64>> = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
            .iter()
            .flat_map(|&(x, y)| {
                let p = Vector2::new(c * x - s * y, s * x + c * y);
                let noise = Vector2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
                [p, p + noise * 4e-16]
            })
            .collect();
        let poly = convex_hull_2d(&mut pts);
        let (area, side) = min_area_rect(&poly);
        assert!(
            (area - w * h).abs() <= 1e-9 * w * h,
            "case {case}: area {area}, rectangle {}",
            w * h
        );
        // The side runs along one of the rectangle's.
        let along = (side.x * c + side.y * s)
            .abs()
            .max((side.y * c - side.x * s).abs());
        assert!(along > 1.0 - 1e-9, "case {case}: side {side}");
    }
}

/// The point-set rectangle (octagon pre-filter, then hull and calipers)
/// equals the calipers over the whole set's hull: on clouds, discs, thin
/// slivers, points on a line or all equal, integer grids with many
/// collinear boundary points, and copies placed far from the origin.
#[test]
fn min_area_rect_of_points_equals_the_hull_route() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mut scratch = Vec::new();
    for case in 0..600 {
        let n = rng.random_range(1..400);
        let offset = Vector2::new(rng.random_range(-1e6..1e6), 0.0) * f64::from(case % 3 == 0);
        let pts: Vec<Vector2<f64>> = (0..n)
            .map(|_| {
                let (x, y): (f64, f64) = (rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
                offset
                    + match case % 6 {
                        0 => Vector2::new(x, y),
                        1 => Vector2::new(x, y) / (x * x + y * y).sqrt().max(1e-3),
                        2 => Vector2::new(x, 1e-7 * y),
                        3 => Vector2::new(x, 2.0 * x),
                        4 => Vector2::new(0.25, -0.5),
                        _ => Vector2::new((8.0 * x).round(), (8.0 * y).round()),
                    }
            })
            .collect();
        scratch.clone_from(&pts);
        let (area, side) = min_area_rect_of(&mut scratch);
        let (want, _) = min_area_rect(&convex_hull_2d(&mut pts.clone()));
        assert!(
            (area - want).abs() <= 1e-12 * want.max(1.0) * (1.0 + offset.norm_squared()),
            "case {case}: {area} against {want}"
        );
        assert!(
            (side.norm() - 1.0).abs() < 1e-12,
            "case {case}: side {side}"
        );
    }
}

/// A hull's points projected along a face's or an edge's direction can put
/// a collinear run on a zero coordinate, some copies signed `−0` and some
/// `+0` (a frustum's base ring seen from the side): the 2-D hull must keep
/// both ends of the run, as for any collinear run.
#[test]
fn convex_hull_2d_keeps_a_run_split_by_signed_zeros() {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for case in 0..50 {
        let mut pts: Vec<Vector2<f64>> = (0..40)
            .map(|k| {
                let zero = if rng.random_bool(0.5) { -0.0 } else { 0.0 };
                Vector2::new(zero, -1.0 + 2.0 * k as f64 / 39.0)
            })
            .collect();
        pts.extend([Vector2::new(-0.2, 0.8), Vector2::new(-0.2, -0.8)]);
        let poly = convex_hull_2d(&mut pts);
        for end in [Vector2::new(0.0, 1.0), Vector2::new(0.0, -1.0)] {
            assert!(poly.contains(&end), "case {case}: {end} lost from {poly:?}");
        }
        assert_eq!(poly.len(), 4, "case {case}: {poly:?}");
        let (area, _) = min_area_rect(&poly);
        assert!((area - 0.4).abs() < 1e-12, "case {case}: area {area}");
    }
}
