//! The least support value of a Minkowski difference over all directions,
//! by branch and bound on the cube map of the unit sphere.

use nalgebra::{Vector2, Vector3};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A cell of the sphere: the directions whose central projection on cube
/// face `face` (axis `face / 2`, sign `+` for even faces) falls in the
/// square `[a0, a1] × [b0, b1]` of that face's other two coordinates. Its
/// edges are great-circle arcs, so it is the spherical convex hull of its
/// four corners.
#[derive(Clone, Copy, Debug)]
struct Cell {
    face: u8,
    a0: f64,
    a1: f64,
    b0: f64,
    b1: f64,
    /// Points of the difference farthest along the corners, in the order
    /// `(a0, b0), (a1, b0), (a1, b1), (a0, b1)`, and along the centre.
    corner_x: [Vector3<f64>; 4],
    center_x: Vector3<f64>,
    /// A lower bound of `f` over the cell.
    lower: f64,
}

impl PartialEq for Cell {
    fn eq(&self, other: &Cell) -> bool {
        self.lower.total_cmp(&other.lower) == Ordering::Equal
    }
}
impl Eq for Cell {}
impl PartialOrd for Cell {
    fn partial_cmp(&self, other: &Cell) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Cell {
    /// The least lower bound first (a max-heap of the reversed order).
    fn cmp(&self, other: &Cell) -> Ordering {
        other.lower.total_cmp(&self.lower)
    }
}

/// The unit direction through the point `(a, b)` of cube face `face`.
fn direction(face: u8, a: f64, b: f64) -> Vector3<f64> {
    let k = usize::from(face / 2);
    let mut v = Vector3::zeros();
    v[k] = if face.is_multiple_of(2) { 1.0 } else { -1.0 };
    v[(k + 1) % 3] = a;
    v[(k + 2) % 3] = b;
    v.normalize()
}

impl Cell {
    fn corners(&self) -> [Vector3<f64>; 4] {
        [
            direction(self.face, self.a0, self.b0),
            direction(self.face, self.a1, self.b0),
            direction(self.face, self.a1, self.b1),
            direction(self.face, self.a0, self.b1),
        ]
    }

    fn center(&self) -> Vector3<f64> {
        direction(
            self.face,
            0.5 * (self.a0 + self.a1),
            0.5 * (self.b0 + self.b1),
        )
    }

    /// A lower bound of `f` over the cell from its five points `x_j`
    /// (`f(u) ≥ max_j x_j·u`). Central projection onto the tangent plane
    /// at the centre `c` maps the cell onto the quadrilateral of its
    /// projected corners (great arcs become lines) and `u` to `c + δ`; `f`
    /// being positively homogeneous, `f(u) = f(c + δ)/|c + δ|` with
    /// `1 ≤ |c + δ| ≤ 1/cos ρ` (ρ the widest corner). The least of the
    /// convex, piecewise-linear `max_j x_j·(c + δ)` over the quadrilateral
    /// is at one of its corners, where an edge crosses a line on which two
    /// of the pieces are equal, or where three are.
    fn lower_bound(&self) -> (f64, Vector3<f64>) {
        let c = self.center();
        let (t1, t2) = super::shape::perpendicular_pair(&c);
        let corners = self.corners();
        let mut cos_min: f64 = 1.0;
        let quad: [Vector2<f64>; 4] = std::array::from_fn(|i| {
            let along = corners[i].dot(&c);
            cos_min = cos_min.min(along);
            let q = corners[i] / along;
            Vector2::new(q.dot(&t1), q.dot(&t2))
        });
        // The distinct points only: near a minimum most corners share one.
        let mut pieces = [(0.0, Vector2::zeros()); 5];
        let mut xs = [Vector3::zeros(); 5];
        let mut m = 0;
        for x in self.corner_x.iter().chain(std::iter::once(&self.center_x)) {
            if !xs[..m].contains(x) {
                xs[m] = *x;
                pieces[m] = (x.dot(&c), Vector2::new(x.dot(&t1), x.dot(&t2)));
                m += 1;
            }
        }
        let pieces = &pieces[..m];
        let g = |d: &Vector2<f64>| {
            pieces
                .iter()
                .map(|(a, s)| a + s.dot(d))
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let mut least = f64::INFINITY;
        let mut at = Vector2::zeros();
        let mut consider = |d: Vector2<f64>| {
            let v = g(&d);
            if v < least {
                (least, at) = (v, d);
            }
        };
        quad.iter().for_each(|q| consider(*q));
        for j in 0..m {
            for k in j + 1..m {
                let (a, s) = (pieces[j].0 - pieces[k].0, pieces[j].1 - pieces[k].1);
                for e in 0..4 {
                    let (p, q) = (quad[e], quad[(e + 1) % 4]);
                    let (fp, fq) = (a + s.dot(&p), a + s.dot(&q));
                    if (fp <= 0.0) != (fq <= 0.0) {
                        consider(p + (q - p) * (fp / (fp - fq)));
                    }
                }
                for l in k + 1..m {
                    // Where pieces j, k and l are equal.
                    let (b, t) = (pieces[j].0 - pieces[l].0, pieces[j].1 - pieces[l].1);
                    let det = s.perp(&t);
                    if det != 0.0 {
                        let d = Vector2::new(-a * t.y + b * s.y, -s.x * b + t.x * a) / det;
                        if inside(&quad, &d) {
                            consider(d);
                        }
                    }
                }
            }
        }
        let lower = if least >= 0.0 { least * cos_min } else { least };
        let u = (c + t1 * at.x + t2 * at.y).normalize();
        (lower.max(self.grown_bound(&xs[..m], &corners, &u)), u)
    }

    /// A second lower bound, from the chart at `u` (the first bound's
    /// minimiser), free of the `cos ρ` factor where the points `x_j` tied
    /// along `u` surround it. With `v` the least of those tied values and
    /// `s` how fast their maximum grows away from `u` in the chart (the
    /// inradius about the origin of their tangential parts' hull, or minus
    /// its distance when the origin is outside), `max_j x_j·(u + δ) ≥ v +
    /// s·|δ|`; over the cell (inside `|δ| ≤ r_max`), `f ≥ min over r of
    /// (v + s·r)/√(1 + r²)`, at `r = 0`, `r_max` or `s/v`. Exact (`v`) on a
    /// small cell about a face normal of the difference once its corners'
    /// points span the face; skipped (−∞) for fewer than three tied points.
    fn grown_bound(
        &self,
        xs: &[Vector3<f64>],
        corners: &[Vector3<f64>; 4],
        u: &Vector3<f64>,
    ) -> f64 {
        let top = xs
            .iter()
            .map(|x| x.dot(u))
            .fold(f64::NEG_INFINITY, f64::max);
        let size = xs.iter().map(|x| x.norm()).fold(0.0, f64::max);
        let (s1, s2) = super::shape::perpendicular_pair(u);
        let mut flat = [Vector2::zeros(); 5];
        let (mut k, mut v) = (0, f64::INFINITY);
        for x in xs.iter().filter(|x| x.dot(u) >= top - 1e-9 * size) {
            v = v.min(x.dot(u));
            flat[k] = Vector2::new(x.dot(&s1), x.dot(&s2));
            k += 1;
        }
        // Fewer than three tied points cannot surround u: no growth to gain
        // (a round minimum), and the first bound stands.
        if k < 3 {
            return f64::NEG_INFINITY;
        }
        let mut r_max: f64 = 0.0;
        for p in corners {
            let along = p.dot(u);
            if along <= 0.0 {
                return f64::NEG_INFINITY;
            }
            r_max = r_max.max((p / along - u).norm());
        }
        let s = growth(&flat[..k]);
        let psi = |r: f64| (v + s * r) / (1.0 + r * r).sqrt();
        let mut least = psi(0.0).min(psi(r_max));
        if v != 0.0 && (0.0..r_max).contains(&(s / v)) {
            least = least.min(psi(s / v));
        }
        least
    }
}

/// `min over unit w of max_j g_j·w` for the points `g`: the inradius about
/// the origin of their hull when the origin is strictly inside it, else
/// minus the origin's distance to the hull.
fn growth(g: &[Vector2<f64>]) -> f64 {
    let order = super::patch::hull_order(g, 0.0);
    let hull: Vec<Vector2<f64>> = order.iter().map(|&i| g[i]).collect();
    let to_segment = |a: &Vector2<f64>, b: &Vector2<f64>| {
        let d = b - a;
        let len2 = d.norm_squared();
        let t = if len2 > 0.0 {
            (-a.dot(&d) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (a + d * t).norm()
    };
    match hull.len() {
        0 => 0.0,
        1 => -hull[0].norm(),
        2 => -to_segment(&hull[0], &hull[1]),
        n => {
            let edges = (0..n).map(|i| (hull[i], hull[(i + 1) % n]));
            // Counter-clockwise: the origin is inside when left of every edge.
            let sides: Vec<f64> = edges
                .clone()
                .map(|(a, b)| (b - a).perp(&(-a)) / (b - a).norm())
                .collect();
            if sides.iter().all(|&d| d > 0.0) {
                sides.iter().copied().fold(f64::INFINITY, f64::min)
            } else {
                -edges
                    .map(|(a, b)| to_segment(&a, &b))
                    .fold(f64::INFINITY, f64::min)
            }
        }
    }
}

/// Whether `d` is inside the convex quadrilateral `quad` (either
/// orientation), a sliver of rounding outside included.
fn inside(quad: &[Vector2<f64>; 4], d: &Vector2<f64>) -> bool {
    let size = quad.iter().map(|q| q.amax()).fold(0.0, f64::max);
    let slack = 1e-9 * size * size;
    let sides: [f64; 4] =
        std::array::from_fn(|i| (quad[(i + 1) % 4] - quad[i]).perp(&(d - quad[i])));
    sides.iter().all(|&x| x >= -slack) || sides.iter().all(|&x| x <= slack)
}

/// What [`least_support`] found.
pub(super) struct Least {
    /// The least `f` seen, at `direction`: an upper bound of the minimum.
    pub value: f64,
    /// The direction where `value` was seen.
    pub direction: Vector3<f64>,
    /// A lower bound of the minimum.
    pub lower: f64,
    /// Cells evaluated.
    pub cells: usize,
    /// Whether the cell cap stopped the search.
    pub capped: bool,
}

/// The minimum over unit `u` of `f(u) = x(u)·u`, where `x(u)` is a point of
/// a convex set farthest along `u` (`f` is the set's support function), to
/// within `tolerance`: best-first over cube-map cells, each bounded below
/// by [`Cell::lower_bound`] from the points along its corners and centre,
/// less `margin` for rounding; a cell is set aside once its bound is
/// within `tolerance` of the least value seen (and taken up again if the
/// least value falls), and split into four otherwise.
pub(super) fn least_support(
    x_at: impl Fn(&Vector3<f64>) -> Vector3<f64>,
    tolerance: f64,
    margin: f64,
    max_cells: usize,
) -> Least {
    let mut found = Least {
        value: f64::INFINITY,
        direction: Vector3::z(),
        lower: f64::INFINITY,
        cells: 0,
        capped: false,
    };
    let eval = |face: u8, a: f64, b: f64, found: &mut Least| {
        let u = direction(face, a, b);
        let x = x_at(&u);
        let f = x.dot(&u);
        if f < found.value {
            found.value = f;
            found.direction = u;
        }
        x
    };
    // A cell's bound comes with the direction where its five points' least
    // is; the support value there is one more upper bound, exact once the
    // points are those of the face at a minimum.
    let finish = |cell: Cell, found: &mut Least| {
        found.cells += 1;
        let (lower, at) = cell.lower_bound();
        let f = x_at(&at).dot(&at);
        if f < found.value {
            found.value = f;
            found.direction = at;
        }
        Cell {
            lower: lower - margin,
            ..cell
        }
    };
    let mut heap = BinaryHeap::new();
    let mut aside: Vec<Cell> = vec![];
    for face in 0..6 {
        let corner_x = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(a, b)| eval(face, a, b, &mut found));
        let center_x = eval(face, 0.0, 0.0, &mut found);
        let cell = Cell {
            face,
            a0: -1.0,
            a1: 1.0,
            b0: -1.0,
            b1: 1.0,
            corner_x,
            center_x,
            lower: 0.0,
        };
        heap.push(finish(cell, &mut found));
    }
    loop {
        let open = heap
            .peek()
            .is_some_and(|c| c.lower < found.value - tolerance);
        if !open {
            // Cells set aside under an older, larger value may be open again.
            let before = heap.len();
            let (reopen, keep): (Vec<Cell>, Vec<Cell>) = aside
                .drain(..)
                .partition(|c| c.lower < found.value - tolerance);
            aside = keep;
            heap.extend(reopen);
            if heap.len() == before {
                break;
            }
            continue;
        }
        let Some(cell) = heap.pop() else { break };
        let (am, bm) = (0.5 * (cell.a0 + cell.a1), 0.5 * (cell.b0 + cell.b1));
        if found.cells >= max_cells || !(cell.a0 < am && am < cell.a1) {
            found.capped = true;
            heap.push(cell);
            break;
        }
        let [c0, c1, c2, c3] = cell.corner_x;
        let ctr = cell.center_x;
        let mb = eval(cell.face, am, cell.b0, &mut found);
        let mr = eval(cell.face, cell.a1, bm, &mut found);
        let mt = eval(cell.face, am, cell.b1, &mut found);
        let ml = eval(cell.face, cell.a0, bm, &mut found);
        for (a0, a1, b0, b1, corner_x) in [
            (cell.a0, am, cell.b0, bm, [c0, mb, ctr, ml]),
            (am, cell.a1, cell.b0, bm, [mb, c1, mr, ctr]),
            (am, cell.a1, bm, cell.b1, [ctr, mr, c2, mt]),
            (cell.a0, am, bm, cell.b1, [ml, ctr, mt, c3]),
        ] {
            let center_x = eval(cell.face, 0.5 * (a0 + a1), 0.5 * (b0 + b1), &mut found);
            let child = finish(
                Cell {
                    a0,
                    a1,
                    b0,
                    b1,
                    corner_x,
                    center_x,
                    ..cell
                },
                &mut found,
            );
            if child.lower < found.value - tolerance {
                heap.push(child);
            } else {
                aside.push(child);
            }
        }
    }
    found.lower = heap
        .iter()
        .chain(&aside)
        .map(|c| c.lower)
        .fold(found.value, f64::min);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cells_bound_is_below_its_points_everywhere_in_it() {
        // Five fixed points; on cells of every face and size, the bound is
        // at most max_j x_j·u at directions sampled across the cell.
        let xs = [
            Vector3::new(0.3, -1.2, 0.7),
            Vector3::new(-0.5, 0.4, 0.9),
            Vector3::new(1.1, 0.2, -0.3),
            Vector3::new(0.0, 0.8, -1.0),
            Vector3::new(-0.9, -0.6, 0.1),
        ];
        for face in 0..6u8 {
            for (a0, a1, b0, b1) in [
                (-1.0, 1.0, -1.0, 1.0),
                (-0.5, 0.25, 0.0, 0.75),
                (0.3, 0.30001, -0.2, -0.19999),
            ] {
                let cell = Cell {
                    face,
                    a0,
                    a1,
                    b0,
                    b1,
                    corner_x: [xs[0], xs[1], xs[2], xs[3]],
                    center_x: xs[4],
                    lower: 0.0,
                };
                let (bound, _) = cell.lower_bound();
                let mut least = f64::INFINITY;
                for i in 0..=20 {
                    for j in 0..=20 {
                        let u = direction(
                            face,
                            a0 + (a1 - a0) * i as f64 / 20.0,
                            b0 + (b1 - b0) * j as f64 / 20.0,
                        );
                        least = least.min(
                            xs.iter()
                                .map(|x| x.dot(&u))
                                .fold(f64::NEG_INFINITY, f64::max),
                        );
                    }
                }
                assert!(bound <= least + 1e-12, "face {face}: {bound} > {least}");
                // Tight on small cells: within the cell's width of the sampled least.
                if a1 - a0 < 1e-3 {
                    assert!(least - bound <= 1e-4, "{bound} far below {least}");
                }
            }
        }
    }

    #[test]
    fn least_of_a_point_set_is_minus_its_distance() {
        // A single point p: f(u) = p·u, least −|p| at u = −p/|p|.
        let p = Vector3::new(0.4, -2.0, 1.1);
        let found = least_support(|_| p, 1e-12, 1e-15, 100_000);
        assert!(!found.capped);
        assert!((found.value + p.norm()).abs() <= 1e-11, "{}", found.value);
        assert!(found.lower <= -p.norm() + 1e-15);
        assert!((found.direction + p.normalize()).norm() < 1e-5);
    }
}
