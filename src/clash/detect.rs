//! Clash detection: which parts of one or more scenes meet, and how.
//!
//! 1. Broad phase: each placed primitive's world box (its triangle corners
//!    placed, widened by twice [`RIGID_TOLERANCE`] of its largest
//!    coordinate so that the placement's rounding can never hide a contact)
//!    goes through sweep and prune ([`super::broad`]); pairs inside one part
//!    are skipped.
//! 2. Narrow phase: each candidate pair of primitives is one
//!    [`fn@crate::query::collide`] of their shapes' trees at the relative pose of
//!    their placements ([`super::shapes`]), every intersecting triangle pair
//!    found (exact for the placed `f64` corners). Each pair is then
//!    classified: it *crosses* when each triangle has corners strictly on
//!    both sides of the other's plane (exact `orient3d` signs), otherwise it
//!    only *touches* (coplanar contact, a corner or an edge resting on a
//!    face).
//! 3. A part pair with a crossing triangle pair is `intersecting`; with
//!    intersecting pairs that all only touch, `touching`. With none, when one
//!    part's world box lies within the other's and the outer part is closed
//!    ([`super::contain`]), one vertex of each primitive of the inner part is
//!    tested for being inside the outer part (ray parity, exact, in world
//!    coordinates); since their surfaces do not meet, a connected piece is
//!    wholly inside or wholly outside. If one is inside, the pair is
//!    `contained`. An open outer part has no inside and is never reported
//!    as containing anything (counted in [`Clashes::open_containers`]).
//! 4. With [`ClashOptions::depth`], each intersecting and contained pair's
//!    protrusion depth is measured ([`Severity`]), pairs certainly
//!    shallower than the least depth asked are reported as touching, and
//!    the clashes are sorted deepest first.

use super::broad::overlapping_pairs_at_most;
use super::contain::Solid;
use super::parts::{Grouping, PartList};
use super::severity::{ClashDepth, Severity};
use super::shapes::{RIGID_TOLERANCE, Shapes, relative_pose};
use crate::fit::Aabb;
use crate::mesh::{Scene, TriMesh, TriangleSource};
use crate::query::pair::intersect_triangle_triangle::Plane;
use crate::query::pair::intersect_triangle_triangle::triangles_intersect;
use crate::query::point::PointTree;
use crate::query::{ContactMode, Placement, collide_each, within_each};
use crate::threads::{Stop, Stopped, unstopped};
use nalgebra::{Matrix3, Point3, Vector3};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How two parts clash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ClashKind {
    /// Some triangle pair crosses.
    Intersecting,
    /// Triangles meet, but no pair crosses: the parts rest on each other.
    Touching,
    /// The surfaces do not meet and one part lies inside the other.
    Contained,
    /// The parts do not meet but come within the clearance.
    Clearance,
}

impl ClashKind {
    /// The name used in text and JSON.
    pub fn name(self) -> &'static str {
        match self {
            ClashKind::Intersecting => "intersecting",
            ClashKind::Touching => "touching",
            ClashKind::Contained => "contained",
            ClashKind::Clearance => "clearance",
        }
    }
}

/// Whether two intersecting triangles cross: each has corners strictly on
/// both sides of the other's plane.
pub fn crosses(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> bool {
    let straddles = |t: &[Point3<f64>; 3], p: &[Point3<f64>; 3]| {
        let plane = Plane::new(t);
        let s = plane.sides_of([&p[0], &p[1], &p[2]]);
        s.contains(&1) && s.contains(&-1)
    };
    straddles(a, b) && straddles(b, a)
}

/// How deep two crossing triangles cut into each other: the smaller of how
/// far each reaches across the other's plane on its smaller side (in `f64`,
/// not exact; a few ulps of the coordinates). A crossing of coincident
/// surfaces that only differ by rounding is about 1e-14 of the model's
/// size deep.
pub fn crossing_depth(a: &[Point3<f64>; 3], b: &[Point3<f64>; 3]) -> f64 {
    let reach = |t: &[Point3<f64>; 3], p: &[Point3<f64>; 3]| {
        let n = (p[1] - p[0]).cross(&(p[2] - p[0]));
        let n = n / n.norm();
        let d = t.map(|c| (c - p[0]).dot(&n));
        let (hi, lo) = (d[0].max(d[1]).max(d[2]), d[0].min(d[1]).min(d[2]));
        hi.min(-lo).max(0.0)
    };
    reach(a, b).min(reach(b, a))
}

/// A triangle pair of a clash (intersecting, or with a clearance within
/// it), each triangle named as its file names it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TrianglePair {
    /// The triangle of part `a`.
    pub a: TriangleSource,
    /// The triangle of part `b`.
    pub b: TriangleSource,
    /// Whether they meet (exact; always with no clearance).
    pub intersecting: bool,
    /// Whether they cross (else, meeting, they only touch).
    pub crossing: bool,
    /// Their distance with a clearance ([`crate::query::pair::distance_triangle_triangle`]:
    /// exactly 0 when they meet), `None` without.
    pub distance: Option<f64>,
}

/// Two parts that clash.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Clash {
    /// The first part (index into the part list; `a < b`).
    pub a: usize,
    /// The second part.
    pub b: usize,
    /// How they clash.
    pub kind: ClashKind,
    /// Intersecting triangle pairs (touching ones included).
    pub triangle_pairs: usize,
    /// With a clearance: triangle pairs within it (intersecting ones
    /// included).
    pub clearance_pairs: Option<usize>,
    /// With a clearance: the least distance between the parts' triangles
    /// within it (0 when they meet).
    pub min_distance: Option<f64>,
    /// Those of them that cross.
    pub crossing_pairs: usize,
    /// The deepest crossing of a triangle pair ([`crossing_depth`]), model
    /// units; 0 when none crosses.
    pub crossing_depth: f64,
    /// The pair's protrusion depth, with its witnesses and normal: for
    /// intersecting and contained pairs when [`ClashOptions::depth`] asks
    /// for it (and for pairs it reported as touching), else `None`.
    pub severity: Option<Severity>,
    /// For `contained`: the part that is inside the other.
    pub inside: Option<usize>,
    /// Every intersecting triangle pair, and with a clearance every pair
    /// within it (when asked for), sorted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Vec<TrianglePair>>,
}

/// What to find.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClashOptions {
    /// List every intersecting triangle pair of each clash.
    pub all_pairs: bool,
    /// Drop part pairs that only touch.
    pub ignore_touching: bool,
    /// Also report part pairs that do not meet but come within this
    /// distance (model units, ≥ 0).
    pub clearance: Option<f64>,
    /// The most pairs of primitives whose boxes overlap, and with
    /// `all_pairs` the most triangle pairs listed in all, before
    /// [`ClashScene::clashes`] stops with [`PairLimit`]; `None`: no limit.
    pub max_pairs: Option<usize>,
    /// Measure the depth of each intersecting and contained pair
    /// ([`Severity`]), and sort the clashes by it; `None`: not
    /// measured, sorted by part.
    pub depth: Option<ClashDepth>,
}

/// [`ClashScene::clashes`] stopped: the answer holds more pairs than
/// [`ClashOptions::max_pairs`] allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairLimit {
    /// More pairs of primitives have overlapping boxes (the candidates).
    Candidates(usize),
    /// More triangle pairs to list.
    TrianglePairs(usize),
}

impl std::fmt::Display for PairLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairLimit::Candidates(n) => write!(
                f,
                "more than {n} pairs of placed primitives have overlapping boxes \
                 (--max-pairs {n}); raise --max-pairs"
            ),
            PairLimit::TrianglePairs(n) => write!(
                f,
                "more than {n} triangle pairs to list (--max-pairs {n}); raise --max-pairs, \
                 or leave out --all-pairs (and --render) for the counts"
            ),
        }
    }
}

/// The answer of [`ClashScene::clashes`].
#[derive(Clone, Debug, Default)]
pub struct Clashes {
    /// Clashing part pairs, sorted by `(a, b)`.
    pub clashes: Vec<Clash>,
    /// Part pairs whose boxes overlap (the broad phase's output).
    pub candidate_pairs: usize,
    /// Touching part pairs left out by `ignore_touching`.
    pub touching_dropped: usize,
    /// Part pairs whose surfaces do not meet, one inside the other's box,
    /// where the outer part is open and so has no inside to decide.
    pub open_containers: usize,
    /// Intersecting or contained pairs reported as touching (or, with
    /// `ignore_touching`, left out) because their depth is certainly below
    /// [`ClashDepth::min_depth`].
    pub shallow: usize,
}

/// The parts of some scenes with their trees and world boxes: built once,
/// queried by [`ClashScene::clashes`].
pub struct ClashScene<'a> {
    scenes: &'a [Scene],
    /// The parts and their placed primitives.
    pub parts: PartList,
    /// The trees and every primitive's placement.
    pub shapes: Shapes,
    /// Every primitive's world box (its triangle corners placed).
    pub boxes: Vec<Aabb>,
}

/// The contact of two placed primitives, counted; its triangle pairs
/// kept only when they are to be listed.
#[derive(Debug, Default)]
struct Contact {
    /// Triangle pairs found: meeting ones, and with a clearance those
    /// within it.
    found: usize,
    /// Of them, those that meet, and those that cross.
    intersecting: usize,
    crossing: usize,
    /// The deepest crossing.
    depth: f64,
    /// With a clearance: the least distance of a pair found.
    min_distance: Option<f64>,
    /// The pairs (with `all_pairs`).
    pairs: Vec<TrianglePair>,
}

impl Contact {
    /// Adds `other`'s counts and pairs to these.
    fn merge(&mut self, other: Contact) {
        self.found += other.found;
        self.intersecting += other.intersecting;
        self.crossing += other.crossing;
        self.depth = self.depth.max(other.depth);
        self.min_distance = match (self.min_distance, other.min_distance) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        self.pairs.extend(other.pairs);
    }
}

impl<'a> ClashScene<'a> {
    /// Groups the scenes' primitives into parts (`files` name the scenes)
    /// and builds the trees, in parallel.
    pub fn new(scenes: &'a [Scene], files: &[String], by: Grouping) -> ClashScene<'a> {
        unstopped(|stop| Self::new_until(scenes, files, by, stop))
    }

    /// [`ClashScene::new`], giving up with [`Stopped`] when `stop` is set:
    /// checked before each tree and inside its build
    /// ([`crate::tree::ObbTree::build_until`]).
    pub fn new_until(
        scenes: &'a [Scene],
        files: &[String],
        by: Grouping,
        stop: Stop<'_>,
    ) -> Result<ClashScene<'a>, Stopped> {
        Self::building(scenes, files, by, u64::MAX, stop)
            .map(|built| built.expect("no count passes u64::MAX"))
    }

    /// [`ClashScene::new`] when its trees hold at most `max_triangles`
    /// triangles together — each tree counted once, however many instances
    /// share it (an instance scaled or sheared differently from its
    /// geometry's other instances has a tree of its own) — else, before any
    /// tree is built, `Err` with their count. The work on instance pairs is
    /// bounded apart from this ([`ClashOptions::max_pairs`]).
    pub fn at_most(
        scenes: &'a [Scene],
        files: &[String],
        by: Grouping,
        max_triangles: u64,
    ) -> Result<ClashScene<'a>, u64> {
        unstopped(|stop| Self::building(scenes, files, by, max_triangles, stop))
    }

    /// [`ClashScene::at_most`], stopped by `stop` ([`ClashScene::new_until`]).
    fn building(
        scenes: &'a [Scene],
        files: &[String],
        by: Grouping,
        max_triangles: u64,
        stop: Stop<'_>,
    ) -> Result<Result<ClashScene<'a>, u64>, Stopped> {
        let parts = PartList::new(scenes, files, by);
        let plan = Shapes::plan(scenes, &parts);
        let triangles = plan.triangles(scenes, &parts);
        if triangles > max_triangles {
            return Ok(Err(triangles));
        }
        let shapes = plan.build_until(scenes, &parts, stop)?;
        let bounds = |points: &mut dyn Iterator<Item = Point3<f64>>| {
            let (min, max) = points.fold(
                (
                    Point3::from(Vector3::repeat(f64::INFINITY)),
                    Point3::from(Vector3::repeat(f64::NEG_INFINITY)),
                ),
                |(lo, hi), c| (lo.inf(&c), hi.sup(&c)),
            );
            Aabb { min, max }
        };
        // A member placed without rotation (the common case: 20,000
        // instances of one mesh) gets its shape's box moved: rounding
        // `v + t` is monotonic in `v`, so the moved corners are exactly the
        // box of the moved vertices, for 2 additions instead of one per
        // vertex.
        let shape_boxes: Vec<Aabb> = shapes
            .shapes
            .par_iter()
            .map(|s| bounds(&mut s.tree.vertices.iter().copied()))
            .collect();
        let boxes = shapes
            .placed
            .par_iter()
            .map(|p| match p.rotation == Matrix3::identity() {
                true => {
                    let b = &shape_boxes[p.shape];
                    Aabb {
                        min: b.min + p.translation,
                        max: b.max + p.translation,
                    }
                }
                false => {
                    let tree = &shapes.shapes[p.shape].tree;
                    bounds(&mut tree.vertices.iter().map(|c| p.to_world(c)))
                }
            })
            .collect();
        Ok(Ok(ClashScene {
            scenes,
            parts,
            shapes,
            boxes,
        }))
    }

    /// The contact of members `ma` and `mb`: their intersecting triangle
    /// pairs, and with a clearance the pairs within it
    /// ([`crate::query::within_each`]), counted as they are found; kept
    /// when `opts.all_pairs`, each taking one of `listed`'s places
    /// ([`ClashOptions::max_pairs`]): `None` once none is left.
    fn contact(
        &self,
        ma: usize,
        mb: usize,
        opts: &ClashOptions,
        listed: &AtomicUsize,
    ) -> Option<Contact> {
        let (pa, pb) = (&self.shapes.placed[ma], &self.shapes.placed[mb]);
        let (sa, sb) = (&self.shapes.shapes[pa.shape], &self.shapes.shapes[pb.shape]);
        let pose = relative_pose(pa, pb);
        let place = Placement::new(&pose);
        let max = opts.max_pairs.unwrap_or(usize::MAX);
        let mut out = Contact::default();
        let mut full = false;
        let (ua, ub) = (sa.stacks.unique(&sa.mesh), sb.stacks.unique(&sb.mesh));
        let mut visit = |i: u32, j: u32, distance: Option<f64>| {
            let ta = ua.triangle(i as usize);
            let tb = place.triangle(&ub.triangle(j as usize));
            // A pair of unique triangles stands for every pair of their
            // copies.
            let (ca, cb) = (sa.stacks.copies(i), sb.stacks.copies(j));
            let copies = ca.len() * cb.len();
            // `within` reports meeting triangles at exactly 0.
            let intersecting = distance.is_none_or(|d| d == 0.0 && triangles_intersect(&ta, &tb));
            let crossing = intersecting && crosses(&ta, &tb);
            out.found += copies;
            out.intersecting += copies * usize::from(intersecting);
            out.crossing += copies * usize::from(crossing);
            if crossing {
                out.depth = out.depth.max(crossing_depth(&ta, &tb));
            }
            if let Some(d) = distance {
                out.min_distance = Some(out.min_distance.map_or(d, |m: f64| m.min(d)));
            }
            if opts.all_pairs {
                if listed.fetch_add(copies, Ordering::Relaxed) + copies > max {
                    full = true;
                    return true;
                }
                for &i in ca {
                    out.pairs.extend(cb.iter().map(|&j| TrianglePair {
                        a: self.source(ma, i),
                        b: self.source(mb, j),
                        intersecting,
                        crossing,
                        distance,
                    }));
                }
            }
            false
        };
        match opts.clearance {
            None => collide_each(&sa.tree, &sb.tree, &pose, ContactMode::All, |i, j| {
                visit(i, j, None)
            }),
            Some(d) => within_each(&sa.tree, &sb.tree, &pose, d, ContactMode::All, |p| {
                visit(p.a, p.b, Some(p.distance))
            }),
        };
        (!full).then_some(out)
    }

    /// The source of triangle `k` of member `m`.
    fn source(&self, m: usize, k: u32) -> TriangleSource {
        let inst = self.parts.instance(self.scenes, m);
        TriangleSource {
            node: inst.node,
            instance: inst.instance,
            mesh: inst.mesh,
            primitive: inst.primitive,
            triangle: k,
        }
    }

    /// The union of the world boxes of part `p`'s members.
    fn part_box(&self, p: usize) -> Aabb {
        let boxes = self.parts.parts[p].members.iter().map(|&m| &self.boxes[m]);
        Aabb::from_points(boxes.flat_map(|b| [&b.min, &b.max])).expect("a part has members")
    }

    /// Part `p`'s triangles in world coordinates (each member's shape
    /// placed), named by their sources.
    pub fn part_mesh(&self, p: usize) -> TriMesh {
        let mut mesh = TriMesh::default();
        for &m in &self.parts.parts[p].members {
            let placed = &self.shapes.placed[m];
            let shape = &self.shapes.shapes[placed.shape].mesh;
            let base = mesh.vertices.len() as u32;
            mesh.vertices
                .extend(shape.vertices.iter().map(|v| placed.to_world(v)));
            mesh.triangles
                .extend(shape.triangles.iter().map(|t| t.map(|i| i + base)));
            mesh.sources
                .extend((0..shape.triangles.len() as u32).map(|k| self.source(m, k)));
        }
        mesh
    }

    /// The closed surface of part `p` in world coordinates, if it is closed.
    fn solid(&self, p: usize) -> Option<Solid> {
        let mesh = self.part_mesh(p);
        Solid::new(&mesh.vertices, &mesh.triangles)
    }

    /// One world vertex of each member of part `p`.
    fn probe_points(&self, p: usize) -> Vec<Point3<f64>> {
        self.parts.parts[p]
            .members
            .iter()
            .map(|&m| {
                let placed = &self.shapes.placed[m];
                let tree = &self.shapes.shapes[placed.shape].tree;
                placed.to_world(&tree.vertices[0])
            })
            .collect()
    }

    /// Finds every clashing part pair (see the module docs), or stops at
    /// [`ClashOptions::max_pairs`]. Memory beyond the scene: 16 bytes per
    /// candidate pair of primitives and a counted summary per part pair,
    /// plus the triangle pairs listed with `all_pairs`, and with depths a
    /// point tree over the world triangles of each part of an intersecting
    /// or contained pair (each part once), and per pair searched a heap of
    /// open pieces (at most the searched part's triangles and four per
    /// split).
    pub fn clashes(&self, opts: &ClashOptions) -> Result<Clashes, PairLimit> {
        unstopped(|stop| self.clashes_until(opts, stop))
    }

    /// [`ClashScene::clashes`], giving up with [`Stopped`] (and no answer)
    /// when `stop` is set: checked before each candidate pair of
    /// primitives (one tree-tree query, whose own length the check does
    /// not bound: two large primitives meeting over much of their surface
    /// run theirs to its end) and between the phases. Never stopped, the
    /// answer is [`ClashScene::clashes`]'.
    pub fn clashes_until(
        &self,
        opts: &ClashOptions,
        stop: Stop<'_>,
    ) -> Result<Result<Clashes, PairLimit>, Stopped> {
        let part_of = |m: usize| self.parts.members[m].part;
        let reach = opts.clearance.unwrap_or(0.0);
        let max = opts.max_pairs.unwrap_or(usize::MAX);
        let widened: Vec<Aabb> = self.boxes.iter().map(|b| widen(b, reach)).collect();
        let Some(member_pairs) = overlapping_pairs_at_most(&widened, max, part_of) else {
            return Ok(Err(PairLimit::Candidates(max)));
        };
        stop.check()?;
        let listed = AtomicUsize::new(0);
        // `None` for the pair limit, and for a stop (told apart after).
        let contacts: Option<Vec<_>> = member_pairs
            .par_iter()
            .map(|&(i, j)| {
                if stop.is_set() {
                    return None;
                }
                let (i, j) = if part_of(i) < part_of(j) {
                    (i, j)
                } else {
                    (j, i)
                };
                let contact = self.contact(i, j, opts, &listed);
                contact.map(|c| ((part_of(i), part_of(j)), c))
            })
            .collect();
        stop.check()?;
        let Some(contacts) = contacts else {
            return Ok(Err(PairLimit::TrianglePairs(max)));
        };
        let mut by_part: BTreeMap<(usize, usize), Contact> = BTreeMap::new();
        for (parts, contact) in contacts {
            by_part.entry(parts).or_default().merge(contact);
        }
        let mut out = Clashes {
            candidate_pairs: by_part.len(),
            ..Clashes::default()
        };
        // Part pairs whose surfaces do not meet: maybe one inside the other.
        let nested: Vec<(usize, usize, usize, usize)> = by_part
            .iter()
            .filter(|(_, c)| c.found == 0)
            .flat_map(|(&(a, b), _)| {
                let (ba, bb) = (self.part_box(a), self.part_box(b));
                let within = |i: &Aabb, o: &Aabb| {
                    (0..3).all(|k| o.min[k] <= i.min[k] && i.max[k] <= o.max[k])
                };
                let mut v = Vec::new();
                if within(&bb, &ba) {
                    v.push((a, b, b, a));
                }
                if within(&ba, &bb) {
                    v.push((a, b, a, b));
                }
                v
            })
            .collect();
        let mut containers: Vec<usize> = nested.iter().map(|n| n.3).collect();
        containers.sort_unstable();
        containers.dedup();
        let solids: BTreeMap<usize, Option<Solid>> =
            containers.par_iter().map(|&p| (p, self.solid(p))).collect();
        stop.check()?;
        let found: Vec<(usize, usize, Option<usize>)> = nested
            .par_iter()
            .map(|&(a, b, inner, outer)| match &solids[&outer] {
                None => (a, b, None),
                Some(s) => {
                    let inside = self
                        .probe_points(inner)
                        .iter()
                        .any(|p| s.contains(p) == Some(true));
                    (a, b, inside.then_some(inner))
                }
            })
            .collect();
        for (a, b, inner) in found {
            if let Some(inner) = inner {
                out.clashes.push(Clash {
                    a,
                    b,
                    kind: ClashKind::Contained,
                    triangle_pairs: 0,
                    clearance_pairs: opts.clearance.map(|_| 0),
                    min_distance: None,
                    crossing_pairs: 0,
                    crossing_depth: 0.0,
                    severity: None,
                    inside: Some(inner),
                    pairs: opts.all_pairs.then(Vec::new),
                });
            }
        }
        out.open_containers = nested.iter().filter(|n| solids[&n.3].is_none()).count();
        for ((a, b), mut c) in by_part {
            if c.found == 0 {
                continue;
            }
            let kind = if c.crossing > 0 {
                ClashKind::Intersecting
            } else if c.intersecting > 0 {
                ClashKind::Touching
            } else {
                ClashKind::Clearance
            };
            if kind == ClashKind::Touching && opts.ignore_touching {
                out.touching_dropped += 1;
                continue;
            }
            c.pairs.sort_unstable_by_key(|p| (p.a, p.b));
            out.clashes.push(Clash {
                a,
                b,
                kind,
                triangle_pairs: c.intersecting,
                clearance_pairs: opts.clearance.map(|_| c.found),
                min_distance: c.min_distance,
                crossing_pairs: c.crossing,
                crossing_depth: c.depth,
                severity: None,
                inside: None,
                pairs: opts.all_pairs.then_some(c.pairs),
            });
        }
        out.clashes.sort_by_key(|c| (c.a, c.b));
        out.clashes.dedup_by_key(|c| (c.a, c.b));
        if let Some(depth) = &opts.depth {
            out.shallow = self.measure_depths(&mut out.clashes, depth, stop)?;
            if opts.ignore_touching {
                let before = out.clashes.len();
                out.clashes.retain(|c| c.kind != ClashKind::Touching);
                out.touching_dropped += before - out.clashes.len();
            }
            // Deepest first; pairs without a depth after, by part.
            out.clashes.sort_by(|x, y| {
                let d = |c: &Clash| c.severity.map_or(-1.0, |s| s.depth);
                d(y).total_cmp(&d(x)).then((x.a, x.b).cmp(&(y.a, y.b)))
            });
        }
        Ok(Ok(out))
    }
}

/// The deepest of `clashes` with its severity (the first when they come
/// sorted deepest first, as [`ClashScene::clashes`] gives them with depths).
pub fn deepest(clashes: &[Clash]) -> Option<(&Clash, &Severity)> {
    clashes
        .iter()
        .filter_map(|c| c.severity.as_ref().map(|s| (c, s)))
        .max_by(|x, y| x.1.depth.total_cmp(&y.1.depth))
}

/// Whether a clash of this kind gets a depth.
fn overlaps(kind: ClashKind) -> bool {
    matches!(kind, ClashKind::Intersecting | ClashKind::Contained)
}

impl ClashScene<'_> {
    /// Measures the depth of every intersecting and contained clash (a
    /// point tree built once per part involved, over its world surface, in
    /// parallel; see [`Severity`]), reclassifies those certainly
    /// shallower than `depth.min_depth` as touching, and returns how many
    /// it reclassified. Work: at most `2·max_splits` sub-triangle splits
    /// per pair, each a few exact point queries. Checks `stop` before each
    /// part's tree and each pair.
    fn measure_depths(
        &self,
        clashes: &mut [Clash],
        depth: &ClashDepth,
        stop: Stop<'_>,
    ) -> Result<usize, Stopped> {
        let mut parts: Vec<usize> = clashes
            .iter()
            .filter(|c| overlaps(c.kind))
            .flat_map(|c| [c.a, c.b])
            .collect();
        parts.sort_unstable();
        parts.dedup();
        let search = depth.search();
        let trees: BTreeMap<usize, PointTree> = parts
            .par_iter()
            .map(|&p| {
                stop.check()?;
                Ok((p, PointTree::build(&self.part_mesh(p))))
            })
            .collect::<Result<_, Stopped>>()?;
        clashes
            .par_iter_mut()
            .filter(|c| overlaps(c.kind))
            .try_for_each(|c| {
                stop.check()?;
                let (a, b) = ((c.a, &trees[&c.a]), (c.b, &trees[&c.b]));
                c.severity = Some(Severity::measure(a, b, &search));
                Ok(())
            })?;
        let mut shallow = 0;
        for c in clashes.iter_mut().filter(|c| overlaps(c.kind)) {
            if c.severity
                .is_some_and(|s| s.shallower_than(depth.min_depth))
            {
                c.kind = ClashKind::Touching;
                shallow += 1;
            }
        }
        Ok(shallow)
    }
}

/// A world box widened by `reach` (the clearance) and twice
/// [`RIGID_TOLERANCE`] of its largest coordinate, for the broad phase.
fn widen(b: &Aabb, reach: f64) -> Aabb {
    let margin = reach + 2.0 * RIGID_TOLERANCE * b.min.coords.abs().sup(&b.max.coords.abs()).max();
    let m = Vector3::repeat(margin);
    Aabb {
        min: b.min - m,
        max: b.max + m,
    }
}

impl ClashScene<'_> {
    /// The files whose scenes are placed together, in the order given.
    pub fn files(&self) -> impl Iterator<Item = &std::path::Path> {
        self.scenes.iter().map(|s| s.path.as_path())
    }
}
