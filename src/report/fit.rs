//! `bvtool fit`'s text: a table per file and per mesh instance of the
//! volumes [`crate::volumes`] fitted.

use super::table::{Scaled, Table, count, num};
use crate::query::Air;
use crate::volumes::{DecompositionFit, FileVolumes, ObbFit, SphereFit, Volumes};

impl DecompositionFit {
    /// The text line.
    fn to_text(&self) -> String {
        let mesh = self.mesh_ratio.map_or_else(
            || "the mesh is open".into(),
            |r| format!("{} the mesh", num(r, 4) + "x"),
        );
        let air = self.air.map_or(String::new(), |a| {
            format!(", air {} +{}", num(a.air, 4), num(a.bound, 2))
        });
        format!(
            "  decomposition: {} parts of at most {} vertices (V-HACD at resolution {}; {} vertices it left out added), volume {} ({}x the hull, {mesh}){air}\n",
            self.parts.len(),
            self.max_vertices,
            self.resolution,
            self.vertices_added,
            num(self.parts_volume, 5),
            num(self.hull_ratio, 4),
        )
    }
}

/// An air figure as the tables print it: `air +bound`.
fn air_text(len: &Scaled, a: &Air) -> String {
    format!("{} +{}", len.num(a.air), len.num(a.bound))
}

impl FileVolumes {
    /// The human-readable form: a table per file (and per mesh).
    pub fn to_text(&self) -> String {
        let mut out = match self.volumes.triangles {
            0 => format!(
                "{}  (point cloud: {}, world frame)\n",
                self.file,
                count(self.volumes.vertices, "point")
            ),
            n => format!(
                "{}  ({}, {}, world frame)\n",
                self.file,
                count(n, "triangle"),
                count(self.volumes.vertices, "vertex")
            ),
        };
        out += &self.volumes.to_table();
        if let Some(d) = &self.decomposition {
            out += &d.to_text();
        }
        for m in self.meshes.iter().flatten() {
            let name = |id: Option<u32>, n: &Option<String>| match (id, n) {
                (Some(i), Some(n)) => format!("{i} '{n}'"),
                (Some(i), None) => i.to_string(),
                (None, Some(n)) => format!("'{n}'"),
                (None, None) => "-".into(),
            };
            out += &format!(
                "\n  node {}  mesh {}  primitive {}{}  ({}, {} frame)\n",
                name(m.node, &m.node_name),
                name(Some(m.mesh), &m.mesh_name),
                m.primitive,
                if m.instance > 0 {
                    format!("  instance {}", m.instance)
                } else {
                    String::new()
                },
                count(m.volumes.triangles, "triangle"),
                m.volumes.frame.name()
            );
            out += &m.volumes.to_table();
        }
        out
    }
}

impl Volumes {
    fn to_table(&self) -> String {
        let ratio = |v: f64| {
            if self.hull_volume > 0.0 {
                format!("{:.3}x", v / self.hull_volume)
            } else {
                "-".into()
            }
        };
        let (min, max) = (&self.aabb.corners.min, &self.aabb.corners.max);
        let diagonal = (0..3)
            .map(|i| (max[i] - min[i]).powi(2))
            .sum::<f64>()
            .sqrt();
        // Lengths to 6 significant digits of the model's size; unit
        // quaternions to 4 decimals.
        let len = Scaled::new(diagonal, 6);
        let unit = Scaled::new(1.0, 5);
        let mut t = Table::new(&[
            "volume",
            "method",
            "volume",
            "/ hull",
            "centre",
            "half extents / radius",
            "rotation (x, y, z, w)",
            if self.aabb.air.is_some() { "air" } else { "" },
        ]);
        let air = |a: &Option<Air>| a.map_or(String::new(), |a| air_text(&len, &a));
        t.row(vec![
            "AABB".into(),
            "min/max".into(),
            num(self.aabb.volume, 5),
            ratio(self.aabb.volume),
            len.tuple(&std::array::from_fn::<f64, 3, _>(|i| {
                0.5 * (min[i] + max[i])
            })),
            len.tuple(&std::array::from_fn::<f64, 3, _>(|i| {
                0.5 * (max[i] - min[i])
            })),
            "axis-aligned".into(),
            air(&self.aabb.air),
        ]);
        let obbs: Vec<&ObbFit> = match &self.obbs {
            Some(all) => all.values().collect(),
            None => vec![&self.obb],
        };
        for b in obbs {
            // A tight box from the kernel says how far from the minimum
            // it may be.
            let method = match (b.exact, b.bound) {
                (false, Some(r)) => format!("{} <={}x min", b.method, num(r, 5)),
                _ => b.method.to_string(),
            } + if b.axis_aligned {
                " (axis-aligned)"
            } else {
                ""
            };
            t.row(vec![
                "OBB".into(),
                method,
                num(b.volume, 5),
                ratio(b.volume),
                len.tuple(&b.center),
                len.tuple(&b.half_extents),
                unit.tuple(&b.rotation_xyzw),
                air(&b.air),
            ]);
        }
        let spheres: Vec<&SphereFit> = match &self.spheres {
            Some(all) => all.values().collect(),
            None => vec![&self.sphere],
        };
        for s in spheres {
            t.row(vec![
                "sphere".into(),
                s.method.to_string(),
                num(s.volume, 5),
                ratio(s.volume),
                len.tuple(&s.center),
                format!("radius {}", len.num(s.radius)),
                String::new(),
                air(&s.air),
            ]);
        }
        if let Some(c) = &self.capsule {
            t.row(vec![
                "capsule".into(),
                String::new(),
                num(c.volume, 5),
                ratio(c.volume),
                len.tuple(&c.center),
                format!(
                    "radius {}, half length {}",
                    len.num(c.radius),
                    len.num(c.half_length)
                ),
                unit.tuple(&c.rotation_xyzw),
                air(&c.air),
            ]);
        }
        if let Some(c) = &self.cylinder {
            t.row(vec![
                "cylinder".into(),
                String::new(),
                num(c.volume, 5),
                ratio(c.volume),
                len.tuple(&c.center),
                format!(
                    "radius {}, half height {}",
                    len.num(c.radius),
                    len.num(c.half_height)
                ),
                unit.tuple(&c.rotation_xyzw),
                air(&c.air),
            ]);
        }
        for k in self.kdops.iter().flatten() {
            t.row(vec![
                format!("{}-DOP", k.kind.as_str().to_uppercase()),
                format!("{} frame", k.frame),
                num(k.volume, 5),
                ratio(k.volume),
                String::new(),
                format!("{} vertices, {} faces", k.vertices.len(), k.faces.len()),
                unit.tuple(&k.rotation_xyzw),
                air(&k.air),
            ]);
        }
        if let Some(h) = &self.hull_budget {
            t.row(vec![
                format!("hull ≤ {}", h.max),
                if h.exact {
                    "exact".into()
                } else {
                    format!("{} planes", h.planes)
                },
                num(h.volume, 5),
                ratio(h.volume),
                String::new(),
                format!("{} vertices, {} faces", h.vertices.len(), h.faces.len()),
                String::new(),
                air(&h.air),
            ]);
        }
        t.row(vec![
            "hull".into(),
            format!("{} vertices", self.hull_vertices),
            num(self.hull_volume, 5),
            ratio(self.hull_volume),
            String::new(),
            String::new(),
            String::new(),
        ]);
        let mut s = t.render(2);
        if let Some(b) = &self.best {
            s += &format!(
                "  best primitive: {} (volume {}, {} the hull)\n",
                b.shape,
                num(b.volume, 5),
                ratio(b.volume)
            );
        }
        for a in self.check.iter().flatten() {
            s += &format!(
                "  check: {} — {} (difference {:.3e}, tolerance {:.3e})\n",
                a.what,
                if a.agrees { "agrees" } else { "DISAGREES" },
                a.max_difference,
                a.tolerance
            );
        }
        s
    }
}
