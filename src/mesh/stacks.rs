//! Stacked copies: triangles of one mesh with the same three corner
//! positions (in any order), such as the instances of one mesh placed at
//! one spot or a face listed many times. Every pair query between two
//! stacks of copies has one answer, so the tree-vs-tree queries ask it once:
//! a tree is built over one triangle of each stack, and an answer about
//! that triangle stands for each of its copies.

use super::TriMesh;
use rayon::prelude::*;

/// A mesh's triangles grouped by their corner positions.
#[derive(Clone, Debug, Default)]
pub struct Stacks {
    /// One triangle per group (its first, in the mesh's order), with that
    /// triangle's source; `None` when no two triangles share their corners
    /// (the mesh itself is then the unique mesh).
    unique: Option<TriMesh>,
    /// Where group `k`'s triangles start in `members` (`k + 1` ends them);
    /// empty when `unique` is `None`.
    starts: Vec<u32>,
    /// The mesh's triangle indices, group after group, ascending within a
    /// group; with no copies, every triangle in order.
    members: Vec<u32>,
}

impl Stacks {
    /// Groups `mesh`'s triangles by their three corner positions: the
    /// triangles sorted by their corners (each triangle's corners sorted
    /// first, `-0.0` read as `0.0`), then runs of equal corners grouped.
    /// O(n log n) time and 76 bytes a triangle while it runs; the groups
    /// kept are 8 bytes a triangle plus the unique mesh.
    pub fn of(mesh: &TriMesh) -> Stacks {
        let key = |i: usize| -> [u64; 9] {
            let mut c = mesh
                .triangle(i)
                .map(|p| p.coords.map(|x| (x + 0.0).to_bits()));
            c.sort_unstable_by(|a, b| a.as_slice().cmp(b.as_slice()));
            let mut k = [0; 9];
            for (j, p) in c.iter().enumerate() {
                k[3 * j..3 * j + 3].copy_from_slice(p.as_slice());
            }
            k
        };
        let n = mesh.triangles.len();
        let keys: Vec<[u64; 9]> = (0..n).into_par_iter().map(key).collect();
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.par_sort_unstable_by_key(|&i| (keys[i as usize], i));
        let mut starts = Vec::new();
        for (k, w) in order.iter().enumerate() {
            if k == 0 || keys[order[k - 1] as usize] != keys[*w as usize] {
                starts.push(k as u32);
            }
        }
        if starts.len() == n {
            return Stacks {
                unique: None,
                starts: Vec::new(),
                members: (0..n as u32).collect(),
            };
        }
        starts.push(n as u32);
        // Groups in the order of their first triangle, so that the unique
        // mesh keeps the mesh's order.
        let mut groups: Vec<(u32, u32)> = starts.windows(2).map(|w| (w[0], w[1])).collect();
        groups.sort_unstable_by_key(|&(s, _)| order[s as usize]);
        let mut members = Vec::with_capacity(n);
        let mut new_starts = Vec::with_capacity(groups.len() + 1);
        for &(s, e) in &groups {
            new_starts.push(members.len() as u32);
            members.extend_from_slice(&order[s as usize..e as usize]);
        }
        new_starts.push(n as u32);
        let firsts = new_starts[..groups.len()]
            .iter()
            .map(|&s| members[s as usize] as usize);
        let unique = TriMesh {
            vertices: mesh.vertices.clone(),
            triangles: firsts.clone().map(|i| mesh.triangles[i]).collect(),
            sources: firsts.map(|i| mesh.sources[i]).collect(),
        };
        Stacks {
            unique: Some(unique),
            starts: new_starts,
            members,
        }
    }

    /// The mesh of one triangle per group: `mesh` itself (the mesh these
    /// stacks were made of) when it has no copies.
    pub fn unique<'m>(&'m self, mesh: &'m TriMesh) -> &'m TriMesh {
        self.unique.as_ref().unwrap_or(mesh)
    }

    /// The mesh's triangles (ascending) that are copies of triangle `k` of
    /// the unique mesh, `k` among them.
    #[inline]
    pub fn copies(&self, k: u32) -> &[u32] {
        let k = k as usize;
        if self.unique.is_none() {
            return &self.members[k..k + 1];
        }
        &self.members[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    /// Whether some triangles share their corners.
    pub fn has_copies(&self) -> bool {
        self.unique.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Point3;

    /// Against a quadratic search: triangles are copies exactly when their
    /// corner sets are equal as sets of positions (welded or not, in any
    /// order, `-0.0` equal to `0.0`).
    #[test]
    fn groups_match_a_quadratic_search() {
        let p = |x: f64, y: f64| Point3::new(x, y, 0.0);
        let vertices = vec![
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(0.0, 1.0),
            p(-0.0, 0.0),
            p(1.0, 1.0),
        ];
        let triangles = vec![
            [0, 1, 2],
            [1, 2, 3],
            [0, 1, 4],
            [2, 0, 1],
            [4, 1, 0],
            [1, 2, 4],
        ];
        let mesh = TriMesh {
            sources: (0..triangles.len() as u32)
                .map(|k| crate::mesh::TriangleSource::unplaced(0, k))
                .collect(),
            vertices,
            triangles,
        };
        let stacks = Stacks::of(&mesh);
        assert!(stacks.has_copies());
        let unique = stacks.unique(&mesh);
        let set = |m: &TriMesh, i: usize| {
            let mut c = m.triangle(i).map(|q| [q.x + 0.0, q.y + 0.0, q.z + 0.0]);
            c.sort_by(|a, b| a.partial_cmp(b).unwrap());
            c
        };
        let mut seen = Vec::new();
        for k in 0..unique.triangles.len() as u32 {
            let copies = stacks.copies(k);
            let expected: Vec<u32> = (0..mesh.triangles.len() as u32)
                .filter(|&i| set(&mesh, i as usize) == set(unique, k as usize))
                .collect();
            assert_eq!(copies, expected.as_slice(), "group {k}");
            assert_eq!(unique.sources[k as usize].triangle, copies[0]);
            seen.extend_from_slice(copies);
        }
        seen.sort_unstable();
        assert_eq!(seen, (0..6).collect::<Vec<u32>>());
        assert_eq!(unique.triangles.len(), 3);
        let distinct = TriMesh {
            triangles: vec![[0, 1, 2], [0, 1, 4]],
            sources: mesh.sources[..2].to_vec(),
            vertices: mesh.vertices.clone(),
        };
        let s = Stacks::of(&distinct);
        assert!(!s.has_copies());
        assert_eq!((s.copies(0), s.copies(1)), (&[0u32][..], &[1u32][..]));
    }
}
