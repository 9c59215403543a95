//! `bvtool colliders`' text, from a [`ColliderCheck`].

use super::table::{Scaled, Table};
use crate::error::printable;
use crate::volumes::{ColliderCheck, Convention};

impl ColliderCheck {
    /// The human-readable form.
    pub fn to_text(&self) -> String {
        let conventions: Vec<&str> = self
            .conventions
            .iter()
            .map(|c| match c {
                Convention::Unreal => "Unreal",
                Convention::Godot => "Godot",
            })
            .collect();
        let n = self.render_meshes;
        let mut out = format!(
            "{}  ({n} render {}; collider names: {})\n",
            printable(&self.file),
            if n == 1 { "mesh" } else { "meshes" },
            conventions.join(", ")
        );
        // Lengths to 4 significant digits of the render meshes' diagonal.
        let len = Scaled::new(self.tolerance * 1e3, 4);
        let mut t = Table::new(&[
            "mesh",
            "triangles",
            "colliders",
            "air",
            "+ bound",
            "short",
            "+ bound",
        ]);
        for g in &self.groups {
            t.row(vec![
                g.mesh
                    .as_deref()
                    .map_or("(whole file)".into(), |m| printable(m).into_owned()),
                g.triangles.to_string(),
                g.colliders.len().to_string(),
                len.num(g.air.air),
                format!("+{}", len.num(g.air.bound)),
                len.num(g.shortfall.shortfall),
                format!("+{}", len.num(g.shortfall.bound)),
            ]);
        }
        out += &t.render(2);
        out += &format!(
            "  air: the largest distance from the colliders' surface to the mesh; short: the largest distance from a point of the mesh to the colliders (0: they hold it); each at most the figure + its bound, searched to {} (model units)\n",
            len.num(self.tolerance)
        );
        if let Some(worst) = self
            .groups
            .iter()
            .filter(|g| g.shortfall.shortfall > 0.0)
            .max_by(|a, b| a.shortfall.shortfall.total_cmp(&b.shortfall.shortfall))
            && let Some(p) = worst.shortfall.point
        {
            out += &format!(
                "  farthest out: {} at ({}, {}, {})\n",
                worst
                    .mesh
                    .as_deref()
                    .map_or("(whole file)".into(), |m| printable(m).into_owned()),
                len.num(p[0]),
                len.num(p[1]),
                len.num(p[2])
            );
        }
        if !self.unbound.is_empty() {
            let names: Vec<String> = self
                .unbound
                .iter()
                .map(|n| printable(n).into_owned())
                .collect();
            out += &format!("  no collider: {}\n", names.join(", "));
        }
        for n in &self.not_measured {
            out += &format!("  not measured: {}\n", printable(n));
        }
        out
    }
}
