//! A tree's mesh from the tree itself: the tree keeps the welded vertices
//! and every triangle (in node order, with the permutation back to the
//! mesh's order), so a mesh whose vertices are exactly the tree's — none
//! welded with another, none unused — is the tree's geometry renumbered,
//! and a vertex map (4 bytes a vertex) carries it instead of its arrays
//! (24 bytes a vertex and 12 a triangle). The Python package pickles a tree
//! and its mesh this way.

use super::bytes::{PARALLEL_BYTES, first_out_of_range_or_repeated};
use super::obb_tree::ObbTree;
use crate::memory;
use crate::mesh::{TriMesh, TriangleSource};
use nalgebra::Point3;
use rayon::prelude::*;

impl ObbTree {
    /// The vertex map that rebuilds `mesh` from this tree
    /// ([`ObbTree::mesh_with`]`(Some(&map), sources)` has `mesh`'s vertices
    /// and triangles bit for bit): mesh vertex `map[i]` is the tree's
    /// vertex `i`, and mesh triangle `original[k]` is tree triangle `k`
    /// with its corners mapped. `None` when `mesh` is not such a
    /// renumbering — different counts, a vertex unused or welded with
    /// another, a corner that maps two ways, a coordinate that differs in
    /// a bit (`-0.0` against `0.0`).
    pub fn vertex_map(&self, mesh: &TriMesh) -> Option<Vec<u32>> {
        let v = self.vertices.len();
        if mesh.vertices.len() != v || mesh.triangles.len() != self.triangles.len() {
            return None;
        }
        let mut map = vec![u32::MAX; v];
        for (t, &o) in self.triangles.iter().zip(&self.original) {
            let m = mesh.triangles[o as usize];
            for (&i, &j) in t.iter().zip(&m) {
                let slot = &mut map[i as usize];
                if *slot == u32::MAX {
                    *slot = j;
                } else if *slot != j {
                    return None;
                }
            }
        }
        if first_out_of_range_or_repeated(&map, v).is_some() {
            return None;
        }
        let bits = |p: &Point3<f64>| p.coords.map(f64::to_bits);
        let same = self
            .vertices
            .iter()
            .zip(&map)
            .all(|(p, &j)| bits(p) == bits(&mesh.vertices[j as usize]));
        same.then_some(map)
    }

    /// The mesh of this tree: its triangles back in the order of the mesh
    /// it was built from (mesh triangle `original[k]` is tree triangle
    /// `k`), its welded vertices numbered by `map` (tree vertex `i` is mesh
    /// vertex `map[i]`; `None`: the tree's own numbering, vertices in order
    /// of first use), `sources` one a triangle. Errors when `map` is not a
    /// permutation of the tree's vertex numbers or `sources` has another
    /// length. Trees of 131,072 triangles or more (`PARALLEL_BYTES` / 64)
    /// are read on every thread of the current rayon pool.
    pub fn mesh_with(
        &self,
        map: Option<&[u32]>,
        sources: Vec<TriangleSource>,
    ) -> Result<TriMesh, String> {
        let (v, t) = (self.vertices.len(), self.triangles.len());
        if sources.len() != t {
            return Err(format!(
                "{} triangle sources for {t} triangles",
                sources.len()
            ));
        }
        // Large meshes on the current rayon pool, as `from_bytes` reads
        // large trees (about 60 bytes a triangle).
        let par = t * 64 >= PARALLEL_BYTES;
        let vertices = match map {
            None => {
                let mut out = memory::with_capacity(v);
                match par {
                    true => out.par_extend(self.vertices.par_iter().copied()),
                    false => out.extend_from_slice(&self.vertices),
                }
                out
            }
            Some(map) => {
                if map.len() != v {
                    return Err(format!(
                        "a vertex map of {} entries for {v} vertices",
                        map.len()
                    ));
                }
                if let Some(k) = first_out_of_range_or_repeated(map, v) {
                    return Err(format!(
                        "vertex map entry {k} = {}: out of range or repeated",
                        map[k]
                    ));
                }
                let mut out = memory::filled(v, Point3::origin());
                for (p, &j) in self.vertices.iter().zip(map) {
                    out[j as usize] = *p;
                }
                out
            }
        };
        // Mesh triangle `o` is tree triangle `slot[o]` (`original` inverted,
        // a scatter of 4-byte numbers), its corners mapped (a gather).
        let mut slot = memory::filled(t, 0u32);
        for (k, &o) in self.original.iter().enumerate() {
            slot[o as usize] = k as u32;
        }
        let corners = |&k: &u32| {
            let tri = self.triangles[k as usize];
            map.map_or(tri, |m| tri.map(|i| m[i as usize]))
        };
        let mut triangles = memory::with_capacity(t);
        match par {
            true => triangles.par_extend(slot.par_iter().map(corners)),
            false => triangles.extend(slot.iter().map(corners)),
        }
        Ok(TriMesh {
            vertices,
            triangles,
            sources,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::NodeFit;

    /// A grid of `n × n` squares, two triangles each, its vertices in a
    /// scrambled order (so the tree's numbering differs from the mesh's).
    fn grid(n: u32) -> TriMesh {
        let side = n + 1;
        let count = side * side;
        let slot = |k: u32| (k * 7919) % count; // 7919 is prime: a bijection
        let mut vertices = vec![Point3::origin(); count as usize];
        for k in 0..count {
            let (x, y) = ((k % side) as f64, (k / side) as f64);
            vertices[slot(k) as usize] = Point3::new(x, y, 0.1 * (x * y).sin());
        }
        let mut triangles = Vec::new();
        for j in 0..n {
            for i in 0..n {
                let v = |di, dj| slot((j + dj) * side + i + di);
                triangles.push([v(0, 0), v(1, 0), v(1, 1)]);
                triangles.push([v(0, 0), v(1, 1), v(0, 1)]);
            }
        }
        let sources = (0..triangles.len() as u32)
            .map(|k| TriangleSource::unplaced(3, k))
            .collect();
        TriMesh {
            vertices,
            triangles,
            sources,
        }
    }

    fn same(a: &TriMesh, b: &TriMesh) -> bool {
        let bits = |m: &TriMesh| {
            let v: Vec<_> = m
                .vertices
                .iter()
                .map(|p| p.coords.map(f64::to_bits))
                .collect();
            (v, m.triangles.clone(), m.sources.clone())
        };
        bits(a) == bits(b)
    }

    #[test]
    fn a_renumbered_mesh_comes_back_bit_for_bit() {
        let mesh = grid(12);
        let tree = ObbTree::build_with(&mesh, 3, NodeFit::Quick);
        let map = tree
            .vertex_map(&mesh)
            .expect("the grid is the tree's geometry");
        assert_ne!(map, (0..map.len() as u32).collect::<Vec<_>>());
        let back = tree.mesh_with(Some(&map), mesh.sources.clone()).unwrap();
        assert!(same(&back, &mesh));
        // The tree's own numbering has the same triangle corners.
        let own = tree.mesh_with(None, mesh.sources.clone()).unwrap();
        for k in 0..mesh.triangles.len() {
            assert_eq!(own.triangle(k), mesh.triangle(k));
        }
    }

    #[test]
    fn meshes_that_are_not_the_trees_geometry_have_no_map() {
        let mesh = grid(6);
        let tree = ObbTree::build_with(&mesh, 2, NodeFit::Quick);
        // An unused vertex; a duplicate vertex (welded into one by the
        // tree); a vertex moved by one bit; a zero turned to -0.0.
        let mut unused = mesh.clone();
        unused.vertices.push(Point3::new(9.0, 9.0, 9.0));
        let mut duplicate = mesh.clone();
        duplicate
            .vertices
            .push(mesh.vertices[mesh.triangles[0][0] as usize]);
        duplicate.triangles[0][0] = mesh.vertices.len() as u32;
        let mut nudged = mesh.clone();
        let x = &mut nudged.vertices[5].x;
        *x = f64::from_bits(x.to_bits() + 1);
        let mut signed = mesh.clone();
        let zero = signed.vertices.iter().position(|p| p.z == 0.0).unwrap();
        signed.vertices[zero].z = -signed.vertices[zero].z;
        for (m, what) in [
            (&unused, "unused"),
            (&duplicate, "duplicate"),
            (&nudged, "nudged"),
            (&signed, "signed zero"),
        ] {
            assert!(tree.vertex_map(m).is_none(), "{what}");
            // A tree of its own maps it unless a vertex is unused or welded.
            let own = ObbTree::build_with(m, 2, NodeFit::Quick).vertex_map(m);
            assert_eq!(
                own.is_some(),
                what == "nudged" || what == "signed zero",
                "{what}"
            );
        }
        // A triangle turned (same corners, another order) maps two ways.
        let mut turned = mesh.clone();
        turned.triangles[4] = [
            mesh.triangles[4][1],
            mesh.triangles[4][2],
            mesh.triangles[4][0],
        ];
        assert!(tree.vertex_map(&turned).is_none());
    }

    #[test]
    fn bad_maps_and_sources_are_refused() {
        let mesh = grid(4);
        let tree = ObbTree::build_with(&mesh, 2, NodeFit::Quick);
        let map = tree.vertex_map(&mesh).unwrap();
        let sources = || mesh.sources.clone();
        let mut repeated = map.clone();
        repeated[3] = repeated[4];
        let mut out = map.clone();
        out[2] = map.len() as u32;
        for (m, what) in [
            (repeated, "entry 4"),
            (out, "entry 2"),
            (map[1..].to_vec(), "entries"),
        ] {
            let e = tree.mesh_with(Some(&m), sources()).unwrap_err();
            assert!(e.contains(what), "{e}");
        }
        let e = tree.mesh_with(None, sources()[1..].to_vec()).unwrap_err();
        assert!(e.contains("sources"), "{e}");
    }
}
