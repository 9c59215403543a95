//! Skins: each skinned primitive's `JOINTS_n` / `WEIGHTS_n` influences and
//! each skin's joints and inverse bind matrices, validated like every other
//! accessor (type and count checked before anything is read).
//!
//! - `JOINTS_n`: VEC4 of unsigned byte or short, not normalized;
//!   `WEIGHTS_n`: VEC4 of float, or of unsigned byte or short normalized;
//!   both with the POSITION count, in pairs (every `JOINTS_n` has its
//!   `WEIGHTS_n`); weights finite, each vertex's summing to more than 0
//!   (they are divided by their sum when displayed; a negative weight,
//!   which Draco's quantisation leaves behind, e.g. −0.0039 in CesiumMan,
//!   is used as a viewer's shader uses it).
//! - `KHR_draco_mesh_compression` primitives: the pairs the extension maps
//!   are decoded from the Draco stream (joint indices integers from 0 to
//!   65535), the others read from their accessors; the accessors' declared
//!   types and counts are checked either way.
//! - `skins[s]`: every joint a node of the scene; `inverseBindMatrices`
//!   MAT4 of float with at least one matrix per joint, finite and affine
//!   (last row 0, 0, 0, 1).
//! - Every joint index of a primitive below the number of joints of the
//!   skin of each node placing it (checked by [`super::scene`]).
//!
//! Not read: the influences of POINTS primitives (their vertices are
//! renumbered); such instances load unskinned, in their bind pose.

use super::buffers::Buffers;
use super::json::{Primitive, Root};
use super::{Msg, accessor, draco};
use crate::mesh::skin::{Joint, Skin, Weights};
use nalgebra::Matrix4;
use std::sync::Arc;

/// POINTS primitive mode, whose vertices [`super::primitive`] renumbers.
const POINTS: u32 = 0;

/// The influences of primitive `p` with `vertex_count` positions; `None`
/// when it has no `JOINTS_0` (or is a POINTS primitive).
pub fn weights(
    root: &Root,
    bufs: &Buffers,
    p: &Primitive,
    vertex_count: usize,
) -> Result<Option<Weights>, Msg> {
    if p.mode == POINTS {
        return Ok(None);
    }
    let sets = |prefix: &str| -> Vec<String> {
        p.attributes
            .keys()
            .filter(|k| k.starts_with(prefix))
            .map(|k| k[prefix.len()..].to_string())
            .collect()
    };
    let joints = sets("JOINTS_");
    if joints != sets("WEIGHTS_") {
        return Err("JOINTS_n and WEIGHTS_n attributes do not come in pairs".into());
    }
    if joints.is_empty() {
        return Ok(None);
    }
    let names: Vec<String> = joints
        .iter()
        .flat_map(|n| [format!("JOINTS_{n}"), format!("WEIGHTS_{n}")])
        .collect();
    // Every set is read (and charged to the decoding budget, or decoded
    // from the Draco stream) before the interleaved influences are
    // allocated.
    let values = attributes(root, bufs, p, &names, vertex_count)?;
    let mut read_sets = Vec::with_capacity(joints.len());
    for (pair, n) in values.chunks_exact(2).zip(&joints) {
        let (j, w) = (&pair[0], &pair[1]);
        if let Some(k) = j
            .iter()
            .position(|x| !(x.fract() == 0.0 && (0.0..=65535.0).contains(x)))
        {
            return Err(format!(
                "JOINTS_{n}: vertex {} has joint index {}, not an integer from 0 to 65535",
                k / 4,
                j[k]
            ));
        }
        if let Some(k) = w.iter().position(|x| !x.is_finite()) {
            return Err(format!(
                "WEIGHTS_{n}: vertex {} has weight {}, not a finite number",
                k / 4,
                w[k]
            ));
        }
        read_sets.push((j, w));
    }
    let per_vertex = 4 * read_sets.len();
    let mut out = Weights {
        per_vertex,
        joints: Vec::with_capacity(per_vertex * vertex_count),
        weights: Vec::with_capacity(per_vertex * vertex_count),
    };
    for v in 0..vertex_count {
        for (j, w) in &read_sets {
            out.joints
                .extend(j[4 * v..4 * v + 4].iter().map(|&x| x as u16));
            out.weights.extend_from_slice(&w[4 * v..4 * v + 4]);
        }
    }
    if let Some((v, w)) = out
        .weights
        .chunks_exact(per_vertex)
        .enumerate()
        .find(|(_, w)| w.iter().sum::<f64>() <= 0.0)
    {
        return Err(format!(
            "WEIGHTS: the weights of vertex {v} sum to {}, not more than 0",
            w.iter().sum::<f64>()
        ));
    }
    Ok(Some(out))
}

/// The values of the VEC4 attributes `names` of `p`, in order: from the
/// Draco stream for those its `KHR_draco_mesh_compression` maps (decoded
/// once), else from their accessors. Every accessor's declared type and
/// count is checked either way.
fn attributes(
    root: &Root,
    bufs: &Buffers,
    p: &Primitive,
    names: &[String],
    vertex_count: usize,
) -> Result<Vec<Vec<f64>>, Msg> {
    let draco = p.extensions.as_ref().and_then(|e| e.draco.as_ref());
    let in_draco = |name: &String| draco.and_then(|d| d.attributes.get(name).copied());
    let ids: Vec<u32> = names.iter().filter_map(in_draco).collect();
    let mut decoded = match draco {
        Some(d) if !ids.is_empty() => {
            // The primitive's geometry decoded (and bounded) this stream
            // already: this is the cached decode.
            let mesh = bufs.draco(d.buffer_view, u64::MAX, vertex_count as u64)?;
            draco::attributes(&mesh, &ids, vertex_count)?.into_iter()
        }
        _ => Vec::new().into_iter(),
    };
    names
        .iter()
        .map(|name| {
            let weights = name.starts_with("WEIGHTS_");
            let allowed = |c: u32, norm: bool| match c {
                accessor::FLOAT => weights && !norm,
                accessor::UNSIGNED_BYTE | accessor::UNSIGNED_SHORT => weights == norm,
                _ => false,
            };
            let i = p.attributes[name];
            check(root, i, vertex_count, allowed).map_err(|e| format!("{name}: {e}"))?;
            match in_draco(name) {
                Some(_) => Ok(decoded.next().expect("one decoded attribute per Draco id")),
                None => Ok(accessor::read(root, bufs, i)
                    .map_err(|e| format!("{name}: {e}"))?
                    .0),
            }
        })
        .collect()
}

/// Checks that accessor `i` is a VEC4 of `count` elements whose component
/// type (and `normalized`) `allowed` accepts.
fn check(
    root: &Root,
    i: u32,
    count: usize,
    allowed: impl Fn(u32, bool) -> bool,
) -> Result<(), Msg> {
    let a = accessor::get(root, i)?;
    if a.kind != "VEC4" || !allowed(a.component_type, a.normalized) {
        return Err(format!(
            "accessor {i}: type {} / componentType {}{} is not allowed",
            a.kind,
            a.component_type,
            if a.normalized { " normalized" } else { "" }
        ));
    }
    if a.count != count as u64 {
        return Err(format!(
            "accessor {i} has {} elements for {count} vertices",
            a.count
        ));
    }
    Ok(())
}

/// Skin `s` placed by the scene: `world[n]` is node `n`'s world matrix, or
/// `None` when the scene does not reach it.
pub fn skin(
    root: &Root,
    bufs: &Buffers,
    s: u32,
    world: &[Option<Matrix4<f64>>],
) -> Result<Skin, Msg> {
    let def = root
        .skins
        .get(s as usize)
        .ok_or_else(|| format!("skin {s} does not exist"))?;
    let n = def.joints.len();
    let inverse_bind = match def.inverse_bind_matrices {
        None => vec![Matrix4::identity(); n],
        Some(i) => {
            let a = accessor::get(root, i)?;
            if a.kind != "MAT4" || a.component_type != accessor::FLOAT || a.normalized {
                return Err(format!(
                    "inverseBindMatrices accessor {i} must be MAT4 of FLOAT"
                ));
            }
            if a.count < n as u64 {
                return Err(format!(
                    "inverseBindMatrices accessor {i} has {} matrices for {n} joints",
                    a.count
                ));
            }
            let (v, _) = accessor::read(root, bufs, i)?;
            v.chunks_exact(16)
                .take(n)
                .enumerate()
                .map(|(k, m)| {
                    if !m.iter().all(|x| x.is_finite()) {
                        Err(format!("inverse bind matrix {k} is not finite"))
                    } else if [m[3], m[7], m[11], m[15]] != [0.0, 0.0, 0.0, 1.0] {
                        Err(format!(
                            "inverse bind matrix {k} is not affine: its last row is [{}, {}, {}, {}]",
                            m[3], m[7], m[11], m[15]
                        ))
                    } else {
                        Ok(Matrix4::from_column_slice(m))
                    }
                })
                .collect::<Result<_, _>>()?
        }
    };
    let joints = def
        .joints
        .iter()
        .zip(inverse_bind)
        .map(|(&j, inverse_bind)| {
            let node = root
                .nodes
                .get(j as usize)
                .ok_or_else(|| format!("joint node {j} does not exist"))?;
            let world =
                world[j as usize].ok_or_else(|| format!("joint node {j} is not in the scene"))?;
            Ok(Joint {
                node: j,
                name: node.name.as_deref().map(Arc::from),
                inverse_bind,
                world,
            })
        })
        .collect::<Result<_, Msg>>()?;
    Ok(Skin { index: s, joints })
}
