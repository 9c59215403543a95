//! Reading a URDF document into its links and joints, every count and
//! number checked before anything is built from it.
//!
//! Read: the `<link>` and `<joint>` children of `<robot>`; of a link its
//! `<collision>` and `<visual>` elements (`<origin xyz rpy>` and one
//! `<geometry>`: `<mesh filename scale>`, `<box size>`, `<sphere radius>`,
//! `<cylinder radius length>`, `<capsule radius length>`); of a joint its
//! `type`, `<origin>`, `<parent link>`, `<child link>`, `<axis xyz>`
//! (default `1 0 0`), `<limit lower upper>` and `<mimic joint multiplier
//! offset>` (defaults 1 and 0). Everything else (inertia, materials,
//! transmissions, `<gazebo>`) is ignored.

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};

/// The largest URDF or SRDF file read: 16 MiB.
pub const MAX_DOCUMENT_BYTES: u64 = 1 << 24;
/// The most links (and the most joints) a robot may have.
pub const MAX_LINKS: usize = 10_000;
/// The most `<collision>` (or `<visual>`) elements a robot may have.
pub const MAX_GEOMETRIES: usize = 100_000;

/// A joint's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointKind {
    /// No motion.
    Fixed,
    /// A rotation about the axis, in radians, within limits.
    Revolute,
    /// A rotation about the axis, in radians, without limits.
    Continuous,
    /// A translation along the axis, in metres (the file's unit).
    Prismatic,
}

impl JointKind {
    /// The URDF's name of the kind.
    pub fn name(self) -> &'static str {
        match self {
            JointKind::Fixed => "fixed",
            JointKind::Revolute => "revolute",
            JointKind::Continuous => "continuous",
            JointKind::Prismatic => "prismatic",
        }
    }
}

/// `<mimic>`: this joint's value is `multiplier · value(joint) + offset`.
#[derive(Clone, Debug, PartialEq)]
pub struct MimicDoc {
    /// The joint mimicked, by name.
    pub joint: String,
    /// Its multiplier.
    pub multiplier: f64,
    /// Its offset.
    pub offset: f64,
}

/// One `<joint>` as written.
#[derive(Clone, Debug)]
pub struct JointDoc {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: JointKind,
    /// The parent link's name.
    pub parent: String,
    /// The child link's name.
    pub child: String,
    /// The child's frame in the parent's at value 0 (`<origin>`).
    pub origin: Isometry3<f64>,
    /// The axis (unit), in the joint's frame.
    pub axis: Vector3<f64>,
    /// `(lower, upper)` from `<limit>`, when given.
    pub limits: Option<(f64, f64)>,
    /// `<mimic>`, when given.
    pub mimic: Option<MimicDoc>,
}

/// The geometry of a `<collision>` or `<visual>` element.
#[derive(Clone, Debug, PartialEq)]
pub enum GeometryDoc {
    /// A mesh file (`filename` as written) with its per-axis scale.
    Mesh {
        /// The `filename` attribute.
        filename: String,
        /// The `scale` attribute (default `1 1 1`).
        scale: [f64; 3],
    },
    /// A box centred on its frame: full side lengths.
    Box([f64; 3]),
    /// A sphere about its frame's origin.
    Sphere {
        /// Its radius.
        radius: f64,
    },
    /// A cylinder about its frame's z axis, centred.
    Cylinder {
        /// Its radius.
        radius: f64,
        /// Its length along z.
        length: f64,
    },
    /// A capsule about its frame's z axis, centred: `length` between the
    /// centres of its end caps.
    Capsule {
        /// Its radius.
        radius: f64,
        /// The length of its cylindrical part.
        length: f64,
    },
}

/// One `<collision>` or `<visual>` element.
#[derive(Clone, Debug)]
pub struct ShapeDoc {
    /// Its frame in the link's (`<origin>`).
    pub origin: Isometry3<f64>,
    /// Its geometry.
    pub geometry: GeometryDoc,
}

/// One `<link>` as written.
#[derive(Clone, Debug, Default)]
pub struct LinkDoc {
    /// Its name.
    pub name: String,
    /// Its `<collision>` elements.
    pub collision: Vec<ShapeDoc>,
    /// Its `<visual>` elements.
    pub visual: Vec<ShapeDoc>,
}

/// A URDF document's robot.
#[derive(Clone, Debug, Default)]
pub struct UrdfDoc {
    /// The robot's name.
    pub name: String,
    /// Its links, in document order.
    pub links: Vec<LinkDoc>,
    /// Its joints, in document order.
    pub joints: Vec<JointDoc>,
}

/// The rotation of URDF's `rpy = "r p y"`: fixed axes, roll about x first,
/// then pitch about y, then yaw about z, so `R = Rz(y) · Ry(p) · Rx(r)`.
pub fn rpy_rotation(r: f64, p: f64, y: f64) -> UnitQuaternion<f64> {
    UnitQuaternion::from_euler_angles(r, p, y)
}

/// The document's root element, which URDF and SRDF both name `<robot>`.
fn robot_element<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
) -> Result<roxmltree::Node<'a, 'i>, String> {
    let robot = doc.root_element();
    match robot.tag_name().name() {
        "robot" => Ok(robot),
        other => Err(format!("the root element is <{other}>, not <robot>")),
    }
}

/// Parses the text of a URDF document; errors are one line (the caller
/// names the file).
pub fn parse(text: &str) -> Result<UrdfDoc, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("not valid XML: {e}"))?;
    let robot = robot_element(&doc)?;
    let count = |tag: &str| robot.children().filter(|c| c.has_tag_name(tag)).count();
    let (links, joints) = (count("link"), count("joint"));
    if links > MAX_LINKS || joints > MAX_LINKS {
        return Err(format!(
            "{links} links and {joints} joints: at most {MAX_LINKS} of each are read"
        ));
    }
    let shapes = robot
        .children()
        .filter(|c| c.has_tag_name("link"))
        .flat_map(|l| l.children())
        .filter(|c| c.has_tag_name("collision") || c.has_tag_name("visual"))
        .count();
    if shapes > MAX_GEOMETRIES {
        return Err(format!(
            "{shapes} <collision> and <visual> elements: at most {MAX_GEOMETRIES} are read"
        ));
    }
    let mut out = UrdfDoc {
        name: robot.attribute("name").unwrap_or("").to_string(),
        ..Default::default()
    };
    for node in robot.children().filter(|c| c.is_element()) {
        match node.tag_name().name() {
            "link" => out.links.push(link(node)?),
            "joint" => out.joints.push(joint(node)?),
            _ => {}
        }
    }
    Ok(out)
}

fn name_of(node: roxmltree::Node, what: &str) -> Result<String, String> {
    match node.attribute("name") {
        Some(n) if !n.is_empty() => Ok(n.to_string()),
        _ => Err(format!("a <{what}> (line {}) has no name", line_of(node))),
    }
}

fn line_of(node: roxmltree::Node) -> u32 {
    node.document().text_pos_at(node.range().start).row
}

fn child<'a, 'i>(node: roxmltree::Node<'a, 'i>, tag: &str) -> Option<roxmltree::Node<'a, 'i>> {
    node.children().find(|c| c.has_tag_name(tag))
}

/// `n` finite numbers separated by white space.
fn numbers<const N: usize>(text: &str, what: &str) -> Result<[f64; N], String> {
    let mut out = [0.0; N];
    let mut it = text.split_whitespace();
    for v in out.iter_mut() {
        *v = it
            .next()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("{what} = {text:?} is not {N} finite numbers"))?;
    }
    if it.next().is_some() {
        return Err(format!("{what} = {text:?} is not {N} finite numbers"));
    }
    Ok(out)
}

fn number(
    node: roxmltree::Node,
    attr: &str,
    default: Option<f64>,
    what: &str,
) -> Result<f64, String> {
    match node.attribute(attr) {
        Some(t) => numbers::<1>(t, &format!("{what} {attr}")).map(|[v]| v),
        None => default.ok_or_else(|| format!("{what} has no {attr}")),
    }
}

fn origin(node: roxmltree::Node, what: &str) -> Result<Isometry3<f64>, String> {
    let Some(o) = child(node, "origin") else {
        return Ok(Isometry3::identity());
    };
    let xyz = o.attribute("xyz").map_or(Ok([0.0; 3]), |t| {
        numbers::<3>(t, &format!("{what} origin xyz"))
    })?;
    let rpy = o.attribute("rpy").map_or(Ok([0.0; 3]), |t| {
        numbers::<3>(t, &format!("{what} origin rpy"))
    })?;
    Ok(Isometry3::from_parts(
        Translation3::new(xyz[0], xyz[1], xyz[2]),
        rpy_rotation(rpy[0], rpy[1], rpy[2]),
    ))
}

fn positive(v: f64, what: &str) -> Result<f64, String> {
    if v >= 0.0 {
        Ok(v)
    } else {
        Err(format!("{what} is {v}, not ≥ 0"))
    }
}

fn shape(node: roxmltree::Node, what: &str) -> Result<ShapeDoc, String> {
    let g = child(node, "geometry").ok_or_else(|| format!("{what} has no <geometry>"))?;
    let e = g
        .children()
        .find(|c| c.is_element())
        .ok_or_else(|| format!("{what} has an empty <geometry>"))?;
    let geometry = match e.tag_name().name() {
        "mesh" => GeometryDoc::Mesh {
            filename: e
                .attribute("filename")
                .ok_or_else(|| format!("{what} <mesh> has no filename"))?
                .to_string(),
            scale: e.attribute("scale").map_or(Ok([1.0; 3]), |t| {
                numbers::<3>(t, &format!("{what} mesh scale"))
            })?,
        },
        "box" => {
            let size = numbers::<3>(
                e.attribute("size")
                    .ok_or_else(|| format!("{what} <box> has no size"))?,
                &format!("{what} box size"),
            )?;
            for s in size {
                positive(s, &format!("{what} box size"))?;
            }
            GeometryDoc::Box(size)
        }
        "sphere" => GeometryDoc::Sphere {
            radius: positive(number(e, "radius", None, what)?, &format!("{what} radius"))?,
        },
        "cylinder" | "capsule" => {
            let radius = positive(number(e, "radius", None, what)?, &format!("{what} radius"))?;
            let length = positive(number(e, "length", None, what)?, &format!("{what} length"))?;
            if e.has_tag_name("cylinder") {
                GeometryDoc::Cylinder { radius, length }
            } else {
                GeometryDoc::Capsule { radius, length }
            }
        }
        other => return Err(format!("{what} has an unknown geometry <{other}>")),
    };
    Ok(ShapeDoc {
        origin: origin(node, what)?,
        geometry,
    })
}

fn link(node: roxmltree::Node) -> Result<LinkDoc, String> {
    let name = name_of(node, "link")?;
    let mut out = LinkDoc {
        name,
        ..Default::default()
    };
    for c in node.children().filter(|c| c.is_element()) {
        let tag = c.tag_name().name();
        if tag == "collision" || tag == "visual" {
            let s = shape(c, &format!("link '{}' <{tag}>", out.name))?;
            if tag == "collision" {
                out.collision.push(s);
            } else {
                out.visual.push(s);
            }
        }
    }
    Ok(out)
}

fn joint(node: roxmltree::Node) -> Result<JointDoc, String> {
    let name = name_of(node, "joint")?;
    let what = format!("joint '{name}'");
    let kind = match node.attribute("type") {
        Some("fixed") => JointKind::Fixed,
        Some("revolute") => JointKind::Revolute,
        Some("continuous") => JointKind::Continuous,
        Some("prismatic") => JointKind::Prismatic,
        Some(t @ ("floating" | "planar")) => {
            return Err(format!(
                "{what}: type '{t}' is not supported (fixed, revolute, continuous and prismatic are)"
            ));
        }
        Some(t) => return Err(format!("{what}: unknown joint type '{t}'")),
        None => return Err(format!("{what} has no type")),
    };
    let link_of = |tag: &str| -> Result<String, String> {
        child(node, tag)
            .and_then(|c| c.attribute("link"))
            .map(str::to_string)
            .ok_or_else(|| format!("{what} has no <{tag} link=...>"))
    };
    let axis = match child(node, "axis").and_then(|a| a.attribute("xyz")) {
        Some(t) => numbers::<3>(t, &format!("{what} axis"))?,
        None => [1.0, 0.0, 0.0],
    };
    let axis = Vector3::from(axis);
    let norm = axis.norm();
    if kind != JointKind::Fixed && norm <= 1e-12 {
        return Err(format!("{what}: the axis is zero"));
    }
    let axis = if norm > 0.0 {
        axis / norm
    } else {
        Vector3::x()
    };
    let limits = match child(node, "limit") {
        Some(l) => Some((
            number(l, "lower", Some(0.0), &format!("{what} limit"))?,
            number(l, "upper", Some(0.0), &format!("{what} limit"))?,
        )),
        None => None,
    };
    if kind == JointKind::Revolute || kind == JointKind::Prismatic {
        // The URDF requires <limit> on these; without one, report it.
        limits.ok_or_else(|| format!("{what} ({}) has no <limit>", kind.name()))?;
    }
    let mimic = match child(node, "mimic") {
        Some(m) => Some(MimicDoc {
            joint: m
                .attribute("joint")
                .ok_or_else(|| format!("{what} <mimic> has no joint"))?
                .to_string(),
            multiplier: number(m, "multiplier", Some(1.0), &format!("{what} mimic"))?,
            offset: number(m, "offset", Some(0.0), &format!("{what} mimic"))?,
        }),
        None => None,
    };
    Ok(JointDoc {
        kind,
        parent: link_of("parent")?,
        child: link_of("child")?,
        origin: origin(node, &what)?,
        axis,
        limits,
        mimic,
        name,
    })
}

/// The `disable_collisions` pairs of an SRDF document: `(link1, link2,
/// reason)` as written (reason "" when absent).
pub fn srdf_disabled(text: &str) -> Result<Vec<(String, String, String)>, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("not valid XML: {e}"))?;
    let robot = robot_element(&doc)?;
    robot
        .children()
        .filter(|c| c.has_tag_name("disable_collisions"))
        .map(|c| {
            let get = |a: &str| {
                c.attribute(a)
                    .map(str::to_string)
                    .ok_or_else(|| format!("<disable_collisions> (line {}) has no {a}", line_of(c)))
            };
            Ok((
                get("link1")?,
                get("link2")?,
                c.attribute("reason").unwrap_or("").to_string(),
            ))
        })
        .collect()
}

/// The `<name>` of a ROS `package.xml`, if it has one.
pub fn package_name(text: &str) -> Option<String> {
    let doc = roxmltree::Document::parse(text).ok()?;
    child(doc.root_element(), "name")
        .and_then(|n| n.text())
        .map(|t| t.trim().to_string())
}
