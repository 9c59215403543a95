//! What to fit: [`ShapeSpec`] and its grammar.

use crate::fit::polytope::budget_hull::{MAX_BUDGET, MIN_BUDGET};
use crate::fit::{KdopKind, ObbMethod, SphereMethod};
use std::fmt;
use std::str::FromStr;

/// One shape to fit, written in the one text grammar every command reads
/// shapes in (`fit --shapes`, `export --shape`, `render
/// --volumes`, and the list `compare` fits).
///
/// The grammar, a comma-separated list of
///
/// | spec | the shape | aliases |
/// |---|---|---|
/// | `aabb` | the axis-aligned box | |
/// | `box[:METHOD]` | the oriented box of METHOD (`pca`, `hull`, `fast`, `tight`) | `obb[:METHOD]` |
/// | `sphere[:METHOD]` | the sphere of METHOD (`centroid`, `ritter`, `exact`) | |
/// | `capsule`, `cylinder` | the near-minimal capsule or cylinder | |
/// | `kdopK` | the k-DOP of family K (`6`, `10x`, `10y`, `10z`, `14`, `18`, `26`) along the mesh's axes | `kdop[:K]` (26 by default) |
/// | `kdopK-obb` | the same along the oriented box's axes | `kdop-obb[:K]` |
/// | `hull[:N]` | the convex hull within N vertices and N faces | |
/// | `decompose` | convex parts (V-HACD) holding every vertex | |
/// | `best` | the smallest of AABB, box, sphere, capsule and cylinder by volume | |
///
/// A spec without its parameter (`box`, `sphere`, `hull`) leaves it to the
/// command: `fit` and `export` take it from `--obb`, `--sphere` and
/// `--hull-max`; `render` and `compare` use `tight`, `exact` and 255.
/// Names are case-insensitive. [`ShapeSpec`]'s `Display` writes the
/// canonical spelling, which parses back to the same spec.
///
/// ```
/// use bvtool::fit::{KdopKind, ObbMethod, ShapeSpec};
///
/// let specs = ShapeSpec::parse_list("obb:pca, capsule, kdop:14, hull:64")?;
/// assert_eq!(specs[0], ShapeSpec::Box(Some(ObbMethod::Pca)));
/// assert_eq!(specs[2], ShapeSpec::Kdop { kind: KdopKind::K14, oriented: false });
/// let text: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
/// assert_eq!(text, ["box:pca", "capsule", "kdop14", "hull:64"]);
/// # Ok::<(), bvtool::fit::UnknownShape>(())
/// ```
///
/// One shape to fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeSpec {
    /// The axis-aligned box.
    Aabb,
    /// The oriented box of a method (`None`: the command's `--obb`).
    Box(Option<ObbMethod>),
    /// The sphere of a method (`None`: the command's `--sphere`).
    Sphere(Option<SphereMethod>),
    /// The near-minimal capsule.
    Capsule,
    /// The near-minimal cylinder.
    Cylinder,
    /// A k-DOP along the mesh's axes, or (`oriented`) along the oriented
    /// box's.
    Kdop {
        /// The family.
        kind: KdopKind,
        /// Along the oriented box's axes instead of the mesh's.
        oriented: bool,
    },
    /// The convex hull within a vertex and face budget (`None`: the
    /// command's `--hull-max`).
    Hull(Option<usize>),
    /// Convex parts (V-HACD) holding every vertex.
    Decompose,
    /// The smallest of AABB, box, sphere, capsule and cylinder by volume.
    Best,
}

/// A spec the grammar does not know, with what it expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UnknownShape(pub String);

/// What the grammar accepts, for error messages and help texts.
pub const SHAPE_GRAMMAR: &str = "aabb, box[:METHOD], sphere[:METHOD], capsule, cylinder, kdop[:K], kdop-obb[:K], hull[:N], decompose, best";

impl ShapeSpec {
    /// Unreal's 26-DOP along the mesh's axes: the k-DOP the exports carry.
    pub const KDOP26: ShapeSpec = ShapeSpec::Kdop {
        kind: KdopKind::K26,
        oriented: false,
    };

    /// The spec with its parameter left out (`box:pca` → `box`): its
    /// family, as a spec.
    pub fn without_parameter(self) -> ShapeSpec {
        match self {
            ShapeSpec::Box(_) => ShapeSpec::Box(None),
            ShapeSpec::Sphere(_) => ShapeSpec::Sphere(None),
            ShapeSpec::Hull(_) => ShapeSpec::Hull(None),
            other => other,
        }
    }

    /// Parses a comma-separated list (empty items are skipped).
    pub fn parse_list(s: &str) -> Result<Vec<ShapeSpec>, UnknownShape> {
        s.split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::parse)
            .collect()
    }

    /// The shape's family as JSON and the export documents name it: `aabb`,
    /// `box`, `sphere`, `capsule`, `cylinder`, `kdopK`, `kdopK-obb`, `hull`,
    /// `decompose` or `best` (the parameter left out).
    pub fn family(&self) -> String {
        match self {
            ShapeSpec::Aabb => "aabb".into(),
            ShapeSpec::Box(_) => "box".into(),
            ShapeSpec::Sphere(_) => "sphere".into(),
            ShapeSpec::Capsule => "capsule".into(),
            ShapeSpec::Cylinder => "cylinder".into(),
            ShapeSpec::Kdop { kind, oriented } => {
                format!(
                    "kdop{}{}",
                    kind.as_str(),
                    if *oriented { "-obb" } else { "" }
                )
            }
            ShapeSpec::Hull(_) => "hull".into(),
            ShapeSpec::Decompose => "decompose".into(),
            ShapeSpec::Best => "best".into(),
        }
    }
}

impl FromStr for ShapeSpec {
    type Err = UnknownShape;

    fn from_str(token: &str) -> Result<ShapeSpec, UnknownShape> {
        let t = token.trim().to_ascii_lowercase();
        let (name, param) = match t.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (t.as_str(), None),
        };
        // Every error names the token and what would have been accepted.
        let bad = |what: String, expected: &str| {
            UnknownShape(format!("{what} in shape '{token}' (expected {expected})"))
        };
        let no_param = |spec: ShapeSpec| match param {
            None => Ok(spec),
            Some(p) => Err(bad(format!("'{name}' takes no parameter, got '{p}'"), name)),
        };
        let kdop = |k: Option<&str>, oriented: bool| {
            let kind = match k {
                None | Some("") => KdopKind::K26,
                Some(k) => k.parse().map_err(|_| {
                    bad(
                        format!("unknown k-DOP '{k}'"),
                        "6, 10x, 10y, 10z, 14, 18 or 26",
                    )
                })?,
            };
            Ok(ShapeSpec::Kdop { kind, oriented })
        };
        match name {
            "aabb" => no_param(ShapeSpec::Aabb),
            "box" | "obb" => match param {
                None => Ok(ShapeSpec::Box(None)),
                Some(m) => m.parse().map(|m| ShapeSpec::Box(Some(m))).map_err(|_| {
                    bad(
                        format!("unknown box method '{m}'"),
                        "pca, hull, fast or tight",
                    )
                }),
            },
            "sphere" => match param {
                None => Ok(ShapeSpec::Sphere(None)),
                Some(m) => m.parse().map(|m| ShapeSpec::Sphere(Some(m))).map_err(|_| {
                    bad(
                        format!("unknown sphere method '{m}'"),
                        "centroid, ritter or exact",
                    )
                }),
            },
            "capsule" => no_param(ShapeSpec::Capsule),
            "cylinder" => no_param(ShapeSpec::Cylinder),
            "decompose" => no_param(ShapeSpec::Decompose),
            "best" => no_param(ShapeSpec::Best),
            "kdop" => kdop(param, false),
            "kdop-obb" => kdop(param, true),
            "hull" => match param {
                None => Ok(ShapeSpec::Hull(None)),
                Some(n) => n
                    .parse()
                    .ok()
                    .filter(|n| (MIN_BUDGET..=MAX_BUDGET).contains(n))
                    .map(|n| ShapeSpec::Hull(Some(n)))
                    .ok_or_else(|| {
                        let range = format!("{MIN_BUDGET} to {MAX_BUDGET} vertices");
                        bad(format!("hull budget '{n}'"), &range)
                    }),
            },
            other => match other.strip_prefix("kdop") {
                // `kdop26`, `kdop14-obb`: the family written into the name.
                Some(rest) if param.is_none() => match rest.strip_suffix("-obb") {
                    Some(k) => kdop(Some(k), true),
                    None => kdop(Some(rest), false),
                },
                _ => Err(UnknownShape(format!(
                    "unknown shape '{token}' (expected {SHAPE_GRAMMAR})"
                ))),
            },
        }
    }
}

impl fmt::Display for ShapeSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let family = self.family();
        match self {
            ShapeSpec::Box(Some(m)) => write!(f, "{family}:{m}"),
            ShapeSpec::Sphere(Some(m)) => write!(f, "{family}:{m}"),
            ShapeSpec::Hull(Some(n)) => write!(f, "{family}:{n}"),
            _ => f.write_str(&family),
        }
    }
}

impl serde::Serialize for ShapeSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.family())
    }
}

impl<'de> serde::Deserialize<'de> for ShapeSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ShapeSpec, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every spec's canonical text parses back to it, and every alias means
    /// what its canonical form does.
    #[test]
    fn canonical_text_round_trips_and_aliases_agree() {
        let mut all = vec![
            ShapeSpec::Aabb,
            ShapeSpec::Capsule,
            ShapeSpec::Cylinder,
            ShapeSpec::Decompose,
            ShapeSpec::Best,
            ShapeSpec::Box(None),
            ShapeSpec::Sphere(None),
            ShapeSpec::Hull(None),
            ShapeSpec::Hull(Some(MIN_BUDGET)),
            ShapeSpec::Hull(Some(MAX_BUDGET)),
        ];
        all.extend(ObbMethod::ALL.iter().map(|&m| ShapeSpec::Box(Some(m))));
        all.extend(
            SphereMethod::ALL
                .iter()
                .map(|&m| ShapeSpec::Sphere(Some(m))),
        );
        for &kind in KdopKind::ALL {
            for oriented in [false, true] {
                all.push(ShapeSpec::Kdop { kind, oriented });
            }
        }
        for s in &all {
            assert_eq!(s.to_string().parse::<ShapeSpec>().as_ref(), Ok(s), "{s}");
        }
        let pairs = [
            ("obb", "box"),
            ("OBB:PCA", "box:pca"),
            ("kdop", "kdop26"),
            ("kdop:10x", "kdop10x"),
            ("kdop-obb", "kdop26-obb"),
            ("kdop-obb:14", "kdop14-obb"),
        ];
        for (alias, canonical) in pairs {
            assert_eq!(
                alias.parse::<ShapeSpec>(),
                canonical.parse::<ShapeSpec>(),
                "{alias}"
            );
        }
    }

    #[test]
    fn bad_specs_say_what_was_expected() {
        for bad in [
            "cone",
            "box:smallest",
            "hull:4",
            "hull:2000",
            "kdop:12",
            "capsule:2",
            "kdop7",
        ] {
            let e = bad.parse::<ShapeSpec>().unwrap_err().to_string();
            assert!(e.contains(bad) && e.contains("expected"), "{bad}: {e}");
        }
        assert_eq!(
            ShapeSpec::parse_list(" capsule , ,cylinder").unwrap().len(),
            2
        );
    }
}
