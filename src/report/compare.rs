//! `bvtool compare`'s text and `--plot` bars, from a [`Comparison`].

use super::table::{Scaled, Table, count, num};
use crate::volumes::{Comparison, VolumeCost};

impl Comparison {
    /// The bars of `--plot`: the file's name, and per volume its shape
    /// (the bar's colour), its ratio to the hull (the bar's length) and a
    /// note: its method, its air, and the vertices it leaves outside and
    /// how far they reach, if any.
    pub fn bars(&self) -> (String, Vec<(String, f64, String)>) {
        let name = std::path::Path::new(&self.file)
            .file_name()
            .map_or(self.file.clone(), |n| n.to_string_lossy().into_owned());
        let len = self.lengths();
        let bars = self
            .volumes
            .iter()
            .map(|v| {
                (
                    shape_name(v.kind).into(),
                    v.hull_ratio.unwrap_or(f64::NAN),
                    format!(
                        "{}  air {}{}",
                        method_name(v),
                        len.num(v.air.air),
                        match v.outside {
                            Some(n) if n > 0 => format!(
                                "  {n} vertices outside, {} short",
                                len.num(v.shortfall.shortfall)
                            ),
                            _ => String::new(),
                        }
                    ),
                )
            })
            .collect();
        (name, bars)
    }

    /// The shortfall of `v`, with its bound when the search left one above
    /// rounding (a decomposition's).
    fn short(&self, v: &VolumeCost) -> String {
        let (len, s) = (self.lengths(), &v.shortfall);
        if s.bound > 1e-6 * self.air_tolerance {
            format!("{} +{}", len.num(s.shortfall), len.num(s.bound))
        } else {
            len.num(s.shortfall)
        }
    }

    /// Lengths to 4 significant digits of the model's diagonal.
    fn lengths(&self) -> Scaled {
        Scaled::new(self.air_tolerance * 1e3, 4)
    }

    /// The human-readable form.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{}  ({}; convex hull volume {} in {} ms)\n",
            self.file,
            count(self.triangles, "triangle"),
            num(self.hull_volume, 5),
            num(self.hull_ms, 3)
        );
        let len = self.lengths();
        let mut t = Table::new(&[
            "volume", "method", "volume", "/ hull", "air", "+ bound", "outside", "short", "fit ms",
        ]);
        for v in &self.volumes {
            t.row(vec![
                shape_name(v.kind).into(),
                method_name(v),
                num(v.volume, 5),
                v.hull_ratio.map_or("-".into(), |r| format!("{r:.3}x")),
                len.num(v.air.air),
                format!("+{}", len.num(v.air.bound)),
                v.outside.map_or("?".into(), |n| n.to_string()),
                self.short(v),
                num(v.fit_ms, 3),
            ]);
        }
        out += &t.render(2);
        out += &format!(
            "  air: the largest distance from the volume's surface to the mesh (at most air + bound; searched to {}); outside: model vertices outside it; short: the largest distance from a point of the mesh to the volume (exact for a convex volume, the rounding bound aside; a decomposition's at most short + the bound shown)\n",
            len.num(self.air_tolerance)
        );
        out += "  engine rules (reimplemented): godot = Godot's editor shapes from the AABB, unreal = Unreal's capsule axis made to contain, gte = least-squares capsule; both engines' box is the AABB, Unreal's 26-DOP the mesh-frame one\n";
        for s in &self.skipped {
            out += &format!("  skipped: {s}\n");
        }
        let r = &self.aabb_under_rotation;
        out += &format!(
            "  AABB under {} random rotations: mean {:.3}x, worst {:.3}x, best {:.3}x the tight OBB\n",
            r.rotations, r.mean_ratio, r.worst_ratio, r.best_ratio
        );
        if let Some(tr) = &self.trees {
            out += &super::tree::level_table(&tr.obb_volume_per_level, &tr.aabb_volume_per_level);
            out += &format!(
                "  over {} near-contact poses of the model against itself: OBB tree {} box / {} triangle tests, AABB tree {} / {}\n",
                tr.poses,
                tr.obb.box_tests,
                tr.obb.triangle_tests,
                tr.aabb.box_tests,
                tr.aabb.triangle_tests
            );
        }
        let t = &self.timings;
        out += &format!(
            "  time: hull {} ms, volume fits {} ms, air {} ms, AABB under rotation {} ms",
            num(t.hull_ms, 3),
            num(t.fits_ms, 3),
            num(t.air_ms, 3),
            num(t.rotations_ms, 3)
        );
        out += &match &self.trees {
            Some(_) => format!(
                ", tree build {} ms, pose search {} ms, tree queries {} ms (--no-tree skips the trees)\n",
                num(t.tree_build_ms, 3),
                num(t.pose_search_ms, 3),
                num(t.tree_queries_ms, 3)
            ),
            None => "; trees skipped (--no-tree)\n".into(),
        };
        out
    }
}

/// A volume kind as the tables name it.
fn shape_name(kind: &str) -> &str {
    match kind {
        "aabb" => "AABB",
        "obb" => "OBB",
        "kdop26" => "26-DOP",
        other => other,
    }
}

/// A volume's method, prefixed by the engine whose rule it is.
fn method_name(v: &VolumeCost) -> String {
    match v.source {
        "bvtool" => v.method.to_string(),
        engine => format!("{engine}: {}", v.method),
    }
}
