//! A grid over directions (the cube map): buckets of normals for the
//! minimum-volume box's pair scans and ascent starts, and for the rims of
//! the face step.

use nalgebra::Vector3;

/// Margin (radians, and on cosines) of the cones that bound a cell's
/// normals: far above the rounding of the angles, so a cell is never
/// skipped when one of its members passes the test it stands for.
pub(crate) const CELL_SLACK: f64 = 1e-6;

/// A grid over directions: each face of the cube `[-1, 1]³` cut into
/// `res × res` cells, a direction's cell the one its ray crosses.
pub(crate) struct CubeMap {
    res: usize,
}

impl CubeMap {
    /// About `n` cells (at least 6, at most 6 × 128²).
    pub(crate) fn new(n: usize) -> CubeMap {
        let res = ((n as f64 / 6.0).sqrt().ceil() as usize).clamp(1, 128);
        CubeMap { res }
    }

    pub(crate) fn cells(&self) -> usize {
        6 * self.res * self.res
    }

    /// The cell of `n` (finite, non-zero).
    #[inline]
    pub(crate) fn cell(&self, n: &Vector3<f64>) -> usize {
        let (x, y, z) = (n.x.abs(), n.y.abs(), n.z.abs());
        // The major axis, and the two others in cyclic order after it.
        let (face, major, u, v) = if x >= y && x >= z {
            (usize::from(n.x < 0.0), x, n.y, n.z)
        } else if y >= z {
            (2 + usize::from(n.y < 0.0), y, n.z, n.x)
        } else {
            (4 + usize::from(n.z < 0.0), z, n.x, n.y)
        };
        let half = 0.5 * self.res as f64;
        let scale = half / major;
        // In [0, res] (the ray leaves the cube through this face); `as`
        // saturates, and the far edge folds into the last cell.
        let at = |c: f64| ((c * scale + half) as usize).min(self.res - 1);
        (face * self.res + at(u)) * self.res + at(v)
    }

    /// The (unnormalised) direction at the centre of cell `c`.
    pub(crate) fn direction(&self, c: usize) -> Vector3<f64> {
        let (face, uv) = (c / (self.res * self.res), c % (self.res * self.res));
        let at = |i: usize| 2.0 * (i as f64 + 0.5) / self.res as f64 - 1.0;
        let (a, sign) = (face / 2, if face.is_multiple_of(2) { 1.0 } else { -1.0 });
        let mut d = Vector3::zeros();
        d[a] = sign;
        d[(a + 1) % 3] = at(uv / self.res);
        d[(a + 2) % 3] = at(uv % self.res);
        d
    }
}

/// Cones of directions (a unit axis and a half angle) bucketed by the cell
/// of their axis, about eight to a cell: per non-empty cell, its members'
/// indices (in the order given), the unit direction of its centre, and the
/// angle from that centre within which every member's cone lies. Callers
/// skip a whole cell when that angle (with [`CELL_SLACK`]) cannot reach
/// what they look for.
pub(crate) struct ConeCell {
    pub(crate) members: Vec<u32>,
    pub(crate) centre: Vector3<f64>,
    pub(crate) spread: f64,
}

/// Buckets `cones` (`(index, unit axis, half angle)`) into [`ConeCell`]s.
pub(crate) fn cone_cells(cones: &[(u32, Vector3<f64>, f64)]) -> Vec<ConeCell> {
    let map = CubeMap::new(cones.len().div_ceil(8));
    let mut buckets = vec![Vec::new(); map.cells()];
    for (k, (_, axis, _)) in cones.iter().enumerate() {
        buckets[map.cell(axis)].push(k);
    }
    buckets
        .into_iter()
        .enumerate()
        .filter(|(_, b)| !b.is_empty())
        .map(|(c, bucket)| {
            let centre = map.direction(c).normalize();
            let spread = bucket
                .iter()
                .map(|&k| {
                    let (_, axis, half) = cones[k];
                    centre.dot(&axis).clamp(-1.0, 1.0).acos() + half
                })
                .fold(0.0, f64::max);
            ConeCell {
                members: bucket.iter().map(|&k| cones[k].0).collect(),
                centre,
                spread,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::CubeMap;
    use nalgebra::Vector3;

    /// Every cell's centre direction falls in that cell, at every
    /// resolution the search uses, and a direction's cell is on the cube
    /// face its largest coordinate names (ties included: along ±x first,
    /// then ±y), whatever its length.
    #[test]
    fn cells_round_trip_and_follow_the_major_axis() {
        for n in [1, 6, 50, 600, 6 * 128 * 128, usize::MAX / 8] {
            let map = CubeMap::new(n);
            for c in 0..map.cells() {
                assert_eq!(map.cell(&map.direction(c)), c, "res {}", map.res);
                assert_eq!(map.cell(&(map.direction(c) * 1e-300)), c);
            }
        }
        let map = CubeMap::new(600);
        let face = |n: Vector3<f64>| map.cell(&n) / (map.res * map.res);
        let cases = [
            ([1.0, 1.0, 1.0], 0),
            ([-1.0, 1.0, -1.0], 1),
            ([0.5, 1.0, 1.0], 2),
            ([0.5, -1.0, 0.9], 3),
            ([0.5, 0.9, 1.0], 4),
            ([0.0, 0.0, -1e-200], 5),
        ];
        for (n, f) in cases {
            assert_eq!(face(Vector3::from(n)), f, "{n:?}");
        }
        // The far edges of a face fold into its last row and column.
        let res = map.res;
        assert_eq!(
            map.cell(&Vector3::new(1.0, 1.0 - 1e-16, -1.0)),
            res * res - res
        );
    }
}
