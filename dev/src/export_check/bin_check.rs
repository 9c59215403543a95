//! Reading back the colliders of the binary (and C) form: each record
//! compared with the JSON's collider, and placed in the world — by its
//! node's transform for a local-frame collider — as [`super::gltf_check`]'s
//! colliders are, to check that it holds every vertex it bounds.

use super::gltf_check::{Collider, Kind, holds};
use super::instance_world_points;
use bvtool::export::ExportDoc;
use bvtool::export::bin::NONE;
use bvtool::export::bin_collider::{self, Colliders, FLAG_SCENE, FLAG_WORLD};
use bvtool::export::collider::{ColliderDoc, Geometry, instance_index};
use bvtool::fit::ShapeSpec;
use bvtool::fit::polytope::fan;
use bvtool::mesh::Scene;
use nalgebra::{Matrix4, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};

fn v64(v: [f32; 3]) -> Vector3<f64> {
    Vector3::new(v[0] as f64, v[1] as f64, v[2] as f64)
}

/// Record `i` as a collider in the world: its node's world transform (a
/// local-frame collider's) times its own placement (translation, rotation).
pub fn placed(s: &Scene, c: &Colliders, i: usize) -> Collider {
    let r = &c.records[i];
    let node = if r.flags & FLAG_WORLD != 0 {
        Matrix4::identity()
    } else {
        let node = (r.node != NONE).then_some(r.node);
        s.instances[instance_index(s)[&(node, r.instance, r.mesh, r.primitive)]].transform
    };
    let [x, y, z, w] = r.rotation_xyzw.map(|q| q as f64);
    let rotation = UnitQuaternion::from_quaternion(Quaternion::new(w, x, y, z));
    let own = Translation3::from(v64(r.center)).to_homogeneous() * rotation.to_homogeneous();
    let [a, b, _] = r.size.map(|x| x as f64);
    let kind = match r.kind {
        bin_collider::Kind::Box => Kind::Box(v64(r.size)),
        bin_collider::Kind::Sphere => Kind::Sphere(a),
        bin_collider::Kind::Capsule => Kind::Capsule { half: b, radius: a },
        bin_collider::Kind::Cylinder => Kind::Cylinder { half: b, radius: a },
        bin_collider::Kind::Convex => {
            let (v, _) = c.polytope(i);
            let pts: Vec<Point3<f64>> = v.iter().map(|p| Point3::from(v64(*p))).collect();
            Kind::Convex(bvtool::fit::ConvexHull::new(&pts).unwrap())
        }
    };
    Collider {
        name: c.string(r.name).unwrap().to_string(),
        parent: None,
        world: node * own,
        kind,
    }
}

/// The points collider `c` of `doc` bounds, world frame.
fn bounded(s: &Scene, c: &ColliderDoc) -> Vec<Point3<f64>> {
    match c.instance_key() {
        Some(key) => instance_world_points(s, instance_index(s)[&key]),
        None => s.world_points(false),
    }
}

/// Every vertex of each mesh instance (and of the scene, for a scene
/// collider) is inside its collider as the records place it; for
/// `decompose`, inside one of the instance's parts. Returns how many
/// colliders were checked.
pub fn assert_holds_every_vertex(what: &str, s: &Scene, doc: &ExportDoc, c: &Colliders) -> usize {
    assert_eq!(
        c.records.len(),
        doc.colliders.len(),
        "{what}: collider count"
    );
    let placed: Vec<Collider> = (0..c.records.len()).map(|i| placed(s, c, i)).collect();
    for (i, d) in doc.colliders.iter().enumerate() {
        let group: Vec<&Collider> = if d.asked == ShapeSpec::Decompose {
            doc.colliders
                .iter()
                .zip(&placed)
                .filter(|(e, _)| {
                    e.asked == ShapeSpec::Decompose && e.instance_key() == d.instance_key()
                })
                .map(|(_, p)| p)
                .collect()
        } else {
            vec![&placed[i]]
        };
        for p in bounded(s, d) {
            assert!(
                group.iter().any(|g| holds(g, &p)),
                "{what}: {} misses {p} ({:?})",
                d.name,
                placed[i].kind
            );
        }
    }
    c.records.len()
}

/// `x32` is `x` rounded outwards: `x ≤ x32 ≤ x + tol`.
fn grown(what: &str, x: f64, x32: f32, tol: f64) {
    let g = x32 as f64 - x;
    assert!(
        (0.0..=tol).contains(&g),
        "{what}: {x} became {x32} (grew {g}, allowed {tol})"
    );
}

/// `x32` is within `tol` of `x`.
fn near(what: &str, x: &[f64], x32: &[f32], tol: f64) {
    for (a, b) in x.iter().zip(x32) {
        assert!(
            (a - *b as f64).abs() <= tol,
            "{what}: {x:?} became {x32:?} (allowed {tol})"
        );
    }
}

/// The records equal the JSON's colliders to `f32` rounding: names, ids,
/// frame, scope and shape exactly; centres and rotations within an `f32`
/// rounding; sizes never smaller and at most 64 `f32` ulps of the shape's
/// reach larger; convex vertices within 10⁻⁴ of their largest coordinate
/// (the outward push of [`bvtool::fit::f32_outward::polytope`]: 12 `f32`
/// ulps of that, grown tenfold until the hull holds), triangles the faces
/// fanned.
pub fn assert_matches_json(what: &str, doc: &ExportDoc, c: &Colliders) {
    assert_eq!(
        c.records.len(),
        doc.colliders.len(),
        "{what}: collider count"
    );
    let eps = f32::EPSILON as f64;
    for (i, (d, r)) in doc.colliders.iter().zip(&c.records).enumerate() {
        let what = format!("{what}: {}", d.name);
        let id = |x: Option<u32>| x.unwrap_or(NONE);
        assert_eq!(c.string(r.name), Some(d.name.as_str()), "{what}");
        assert_eq!(c.string(r.node_name), d.node_name.as_deref(), "{what}");
        assert_eq!(c.string(r.mesh_name), d.mesh_name.as_deref(), "{what}");
        assert_eq!(
            [r.node, r.instance, r.mesh, r.primitive],
            [id(d.node), id(d.instance), id(d.mesh), id(d.primitive)],
            "{what}"
        );
        assert_eq!(r.flags & FLAG_WORLD != 0, d.frame == "world", "{what}");
        assert_eq!(r.flags & FLAG_SCENE != 0, d.scope == "scene", "{what}");
        assert_eq!(r.asked, d.asked, "{what}");
        assert_eq!(
            c.string(r.world_reason),
            d.world_reason.as_deref(),
            "{what}"
        );
        let volume = r.volume as f64;
        assert!(
            volume >= d.volume && volume <= d.volume * (1.0 + eps),
            "{what}: volume {} became {}",
            d.volume,
            r.volume
        );
        let amax = |v: &[f64; 3]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let placement = |center: &[f64; 3], q: &[f64; 4], reach: f64| {
            near(&what, center, &r.center, eps * amax(center));
            near(&what, q, &r.rotation_xyzw, 2.0 * eps);
            64.0 * eps * (amax(center) + reach)
        };
        let (vertices, triangles) = c.polytope(i);
        match &d.geometry {
            Geometry::Box(b) => {
                assert_eq!(r.kind, bin_collider::Kind::Box, "{what}");
                let reach = Vector3::from(b.half_extents).norm();
                let tol = placement(&b.center, &b.rotation_xyzw, reach);
                for k in 0..3 {
                    grown(&what, b.half_extents[k], r.size[k], tol);
                }
            }
            Geometry::Sphere { center, radius } => {
                assert_eq!(r.kind, bin_collider::Kind::Sphere, "{what}");
                let tol = placement(center, &[0.0, 0.0, 0.0, 1.0], *radius);
                grown(&what, *radius, r.size[0], tol);
            }
            Geometry::Capsule {
                center,
                radius,
                half_length: half,
                rotation_xyzw,
                ..
            }
            | Geometry::Cylinder {
                center,
                radius,
                half_height: half,
                rotation_xyzw,
                ..
            } => {
                let kind = match d.geometry {
                    Geometry::Capsule { .. } => bin_collider::Kind::Capsule,
                    _ => bin_collider::Kind::Cylinder,
                };
                assert_eq!(r.kind, kind, "{what}");
                let tol = placement(center, rotation_xyzw, radius + half);
                grown(&what, *radius, r.size[0], tol);
                grown(&what, *half, r.size[1], tol);
            }
            Geometry::Convex { vertices: v, faces } => {
                assert_eq!(r.kind, bin_collider::Kind::Convex, "{what}");
                assert_eq!(r.center, [0.0; 3]);
                assert_eq!(r.rotation_xyzw, [0.0, 0.0, 0.0, 1.0]);
                assert_eq!(vertices.len(), v.len(), "{what}");
                let reach = v.iter().map(amax).fold(0.0, f64::max);
                for (a, b) in v.iter().zip(vertices) {
                    near(&what, a, b, 1e-4 * reach);
                }
                assert_eq!(triangles, fan(faces).as_slice(), "{what}");
            }
        }
        if r.kind != bin_collider::Kind::Convex {
            assert!(vertices.is_empty() && triangles.is_empty(), "{what}");
        }
    }
}
