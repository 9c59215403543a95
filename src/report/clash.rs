//! `bvtool clash`: clashing part pairs, and `bvtool clash --self`: a mesh's
//! self-intersections, as JSON documents and text tables.

use super::collide::triangle_name;
use super::table::{Table, count, num};
use crate::clash::{
    Clash, ClashKind, ClashScene, Clashes, Grouping, Part, Searched, SelfIntersections, deepest,
};
use crate::mesh::TriangleSource;
use serde::Serialize;

/// Wall-clock times of the three stages, milliseconds.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct TimeMs {
    /// Reading and decoding the files.
    pub load: f64,
    /// Grouping parts, building the trees (and for `--self`, welding).
    pub build: f64,
    /// Broad and narrow phase (or the self-descent).
    pub query: f64,
}

impl TimeMs {
    /// `time: load … ms, build … ms, query … ms` and a newline.
    pub fn to_text(&self) -> String {
        format!(
            "time: load {} ms, build {} ms, query {} ms\n",
            num(self.load, 3),
            num(self.build, 3),
            num(self.query, 3)
        )
    }
}

/// The counts of a clash run.
#[derive(Debug, Serialize)]
pub struct ClashSummary {
    /// Parts.
    pub parts: usize,
    /// OBB trees built (one per geometry and linear map up to rotation).
    pub trees: usize,
    /// Part pairs whose world boxes overlap.
    pub candidate_pairs: usize,
    /// Part pairs reported.
    pub clashing_pairs: usize,
    /// Of those: intersecting.
    pub intersecting: usize,
    /// Of those: touching.
    pub touching: usize,
    /// Of those: contained.
    pub contained: usize,
    /// Of those: within the clearance (with `--clearance`).
    pub clearance: usize,
    /// Touching pairs left out by `--ignore-touching`.
    pub touching_dropped: usize,
    /// Nested part pairs not decided because the outer part is open.
    pub open_containers: usize,
    /// Intersecting or contained pairs reported as touching (or left out
    /// with `--ignore-touching`) for being shallower than `--min-depth`.
    pub shallow: usize,
}

/// The `bvtool clash --json` document.
#[derive(Debug, Serialize)]
pub struct ClashDoc {
    /// The input files, as given.
    pub files: Vec<String>,
    /// The grouping: `primitive`, `instance`, `node` or `file`.
    pub by: &'static str,
    /// The clearance asked for (`--clearance`), model units.
    pub clearance: Option<f64>,
    /// Every part.
    pub parts: Vec<Part>,
    /// Every clashing part pair.
    pub clashes: Vec<Clash>,
    /// The counts.
    pub summary: ClashSummary,
    /// The times.
    pub time_ms: TimeMs,
}

/// The name of a grouping, as `--by` takes it.
pub fn grouping_name(by: Grouping) -> &'static str {
    match by {
        Grouping::Primitive => "primitive",
        Grouping::Instance => "instance",
        Grouping::Node => "node",
        Grouping::File => "file",
    }
}

impl ClashDoc {
    /// The document of one run.
    pub fn new(
        files: &[String],
        by: Grouping,
        clearance: Option<f64>,
        scene: &ClashScene,
        found: Clashes,
        time_ms: TimeMs,
    ) -> ClashDoc {
        let count = |k: ClashKind| found.clashes.iter().filter(|c| c.kind == k).count();
        ClashDoc {
            files: files.to_vec(),
            by: grouping_name(by),
            clearance,
            parts: scene.parts.parts.clone(),
            summary: ClashSummary {
                parts: scene.parts.parts.len(),
                trees: scene.shapes.shapes.len(),
                candidate_pairs: found.candidate_pairs,
                clashing_pairs: found.clashes.len(),
                intersecting: count(ClashKind::Intersecting),
                touching: count(ClashKind::Touching),
                contained: count(ClashKind::Contained),
                clearance: count(ClashKind::Clearance),
                touching_dropped: found.touching_dropped,
                open_containers: found.open_containers,
                shallow: found.shallow,
            },
            clashes: found.clashes,
            time_ms,
        }
    }

    /// The text form: one line per clash, then the summary.
    pub fn to_text(&self) -> String {
        let s = &self.summary;
        let mut out = format!(
            "{} (by {}), {}; {} after the broad phase; {} clashing\n",
            count(s.parts, "part"),
            self.by,
            count(s.trees, "tree"),
            count(s.candidate_pairs, "candidate pair"),
            s.clashing_pairs
        );
        let mut header = vec![
            "part A",
            "part B",
            "kind",
            "tri pairs",
            "crossing",
            "depth",
            "deeper",
        ];
        if self.clearance.is_some() {
            header.extend(["within", "min dist"]);
        }
        let mut t = Table::new(&header);
        for c in &self.clashes {
            let kind = match c.inside {
                Some(i) if i == c.a => "contained (A inside B)".to_string(),
                Some(_) => "contained (B inside A)".to_string(),
                None => c.kind.name().to_string(),
            };
            t.row(vec![
                self.parts[c.a].name.clone(),
                self.parts[c.b].name.clone(),
                kind,
                c.triangle_pairs.to_string(),
                c.crossing_pairs.to_string(),
                c.severity
                    .map_or(String::new(), |s| match (s.searched, s.capped) {
                        (Searched::Neither, _) => "-".to_string(),
                        (_, true) => format!("{} (+{} capped)", num(s.depth, 4), num(s.bound, 2)),
                        (_, false) => num(s.depth, 4),
                    }),
                c.severity.map_or(String::new(), |s| {
                    let deeper = match s.protruding {
                        Some(p) if p == c.a => "A into B",
                        Some(_) => "B into A",
                        None => "",
                    };
                    let open = match s.searched {
                        Searched::Both => "",
                        Searched::IntoA => " (B open)",
                        Searched::IntoB => " (A open)",
                        Searched::Neither => "both open",
                    };
                    format!("{deeper}{open}")
                }),
                c.clearance_pairs.map_or(String::new(), |n| n.to_string()),
                c.min_distance.map_or(String::new(), |d| num(d, 4)),
            ]);
        }
        if !self.clashes.is_empty() {
            out += &t.render(2);
        }
        for c in &self.clashes {
            for p in c.pairs.iter().flatten() {
                out += &format!(
                    "  {} x {}: {}  x  {}\n",
                    c.a,
                    c.b,
                    triangle_name(&p.a),
                    triangle_name(&p.b)
                        + &match (p.crossing, p.intersecting, p.distance) {
                            (true, _, _) => " (crossing)".to_string(),
                            (false, true, _) => " (touching)".to_string(),
                            (false, false, d) => {
                                format!(" (distance {})", num(d.unwrap_or(0.0), 4))
                            }
                        }
                );
            }
        }
        if let Some((c, d)) = deepest(&self.clashes) {
            let at = |p: nalgebra::Point3<f64>| {
                format!("({}, {}, {})", num(p.x, 6), num(p.y, 6), num(p.z, 6))
            };
            out += &format!(
                "deepest: {} (+{} at most{}) ({} x {}){}{}\n",
                num(d.depth, 6),
                num(d.bound, 2),
                if d.capped { ", capped" } else { "" },
                self.parts[c.a].name,
                self.parts[c.b].name,
                d.deep_and_nearest(c.a)
                    .map_or(String::new(), |(deep, near)| {
                        format!(", the deep point {} from {}", at(deep), at(near))
                    }),
                match s.shallow {
                    0 => String::new(),
                    n => format!("; {n} shallower than --min-depth reported as touching"),
                }
            );
        }
        out += &format!(
            "intersecting {}, touching {}{}, contained {}{}{}\n",
            s.intersecting,
            s.touching,
            if s.touching_dropped > 0 {
                format!(" ({} more ignored)", s.touching_dropped)
            } else {
                String::new()
            },
            s.contained,
            if s.open_containers > 0 {
                format!(
                    " ({} nested pairs undecided: the outer part is open)",
                    s.open_containers
                )
            } else {
                String::new()
            },
            match self.clearance {
                Some(d) => format!(", within the clearance {}: {}", num(d, 4), s.clearance),
                None => String::new(),
            },
        );
        out + &self.time_ms.to_text()
    }
}

/// A self-intersecting pair of triangles, named as the file names them.
#[derive(Debug, Serialize)]
pub struct SelfPairJson {
    /// The first triangle.
    pub a: TriangleSource,
    /// The second (the same triangle for a degenerate one).
    pub b: TriangleSource,
}

/// The self-intersections of one mesh (or of the whole scene).
#[derive(Debug, Serialize)]
pub struct SelfMeshJson {
    /// The mesh's name (file and mesh, or the file for `--whole`).
    pub name: String,
    /// glTF mesh, OBJ object/group or STL solid index (`null` for `--whole`).
    pub mesh: Option<u32>,
    /// Triangles tested.
    pub triangles: usize,
    /// Distinct positions among the triangles' corners (vertices welded).
    pub welded_vertices: usize,
    /// Intersecting triangle pairs, degenerate triangles counted once each.
    pub pair_count: usize,
    /// Triangles that take part in some pair.
    pub face_count: usize,
    /// Degenerate (zero-area) triangles.
    pub degenerate: usize,
    /// The pairs (with `--all-pairs`), sorted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Vec<SelfPairJson>>,
    /// The triangles involved (with `--all-pairs`), sorted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faces: Option<Vec<TriangleSource>>,
}

impl SelfMeshJson {
    /// The report of `found` on a mesh whose triangles have `sources`.
    pub fn new(
        name: String,
        mesh: Option<u32>,
        sources: &[TriangleSource],
        found: &SelfIntersections,
        list: bool,
    ) -> SelfMeshJson {
        let faces = found.faces();
        SelfMeshJson {
            name,
            mesh,
            triangles: sources.len(),
            welded_vertices: found.welded_vertices,
            pair_count: found.pairs.len(),
            face_count: faces.len(),
            degenerate: found.degenerate.len(),
            pairs: list.then(|| {
                found
                    .pairs
                    .iter()
                    .map(|&(a, b)| SelfPairJson {
                        a: sources[a as usize],
                        b: sources[b as usize],
                    })
                    .collect()
            }),
            faces: list.then(|| faces.iter().map(|&f| sources[f as usize]).collect()),
        }
    }
}

/// One file's self-intersection report.
#[derive(Debug, Serialize)]
pub struct SelfFileJson {
    /// The file, as given.
    pub file: String,
    /// `mesh` (each mesh in its own frame) or `whole` (the flattened scene).
    pub scope: &'static str,
    /// How triangles count as neighbours.
    pub adjacency: &'static str,
    /// One entry per mesh (one for `--whole`).
    pub meshes: Vec<SelfMeshJson>,
    /// The times.
    pub time_ms: TimeMs,
}

/// What `adjacency` says.
pub const ADJACENCY: &str = "vertices welded by equal position; neighbours sharing an edge intersect only when coplanar and folded over, sharing a vertex only when they meet elsewhere; degenerate triangles reported as (t, t)";

impl SelfFileJson {
    /// Whether any mesh has a pair.
    pub fn found_any(&self) -> bool {
        self.meshes.iter().any(|m| m.pair_count > 0)
    }

    /// The text form.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{} ({}; adjacency by welded positions)\n",
            self.file, self.scope
        );
        let mut t = Table::new(&[
            "mesh",
            "triangles",
            "welded verts",
            "pairs",
            "faces",
            "degenerate",
        ]);
        for m in &self.meshes {
            t.row(vec![
                m.name.clone(),
                m.triangles.to_string(),
                m.welded_vertices.to_string(),
                m.pair_count.to_string(),
                m.face_count.to_string(),
                m.degenerate.to_string(),
            ]);
        }
        out += &t.render(2);
        for m in &self.meshes {
            for p in m.pairs.iter().flatten() {
                out += &format!("  {}  x  {}\n", triangle_name(&p.a), triangle_name(&p.b));
            }
        }
        out + &self.time_ms.to_text()
    }
}
