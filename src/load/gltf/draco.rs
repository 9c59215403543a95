//! `KHR_draco_mesh_compression` primitives, decoded with the pure-Rust
//! `draco-core` decoder (which applies Draco's own dequantization, so
//! positions come back as floats). Positions are the Draco attribute whose
//! unique id the extension maps to POSITION; triangles are the Draco faces,
//! whose point ids index those positions. A skinned primitive's
//! `JOINTS_n`/`WEIGHTS_n` come from the same stream ([`attributes`]).
//!
//! A stream is decoded once however many primitives name it
//! ([`super::buffers::Buffers::draco`]), under ceilings set from the
//! primitive's declared accessor counts and the document's budget
//! ([`stream`]); what each primitive takes from it is checked against its
//! own declared counts ([`geometry`]).

use super::Msg;
use draco_core::{DecodeLimits, DecoderBuffer, Mesh, MeshDecoder};
use nalgebra::Point3;

/// Decoded positions and triangles.
pub type Decoded = (Vec<Point3<f64>>, Vec<[u32; 3]>);

/// Decodes a Draco stream, refusing (inside the decoder, before it
/// allocates) more than `max_faces` faces, `max_points` points of a point
/// cloud, or `max_bytes` bytes of attribute values.
pub fn stream(bytes: &[u8], max_faces: u64, max_points: u64, max_bytes: u64) -> Result<Mesh, Msg> {
    let limits = DecodeLimits::default()
        .with_max_faces(max_faces)
        .with_max_points(max_points)
        .with_max_decoded_bytes(max_bytes);
    let mut buffer = DecoderBuffer::new(bytes).with_limits(limits);
    let mut mesh = Mesh::new();
    MeshDecoder::new()
        .decode(&mut buffer, &mut mesh)
        .map_err(|e| format!("KHR_draco_mesh_compression data could not be decoded: {e}"))?;
    Ok(mesh)
}

/// Bytes a decoded stream holds: 4 per attribute component per point
/// (Draco's values are at most 4 bytes) and 12 per face.
pub fn held_bytes(mesh: &Mesh) -> u64 {
    let components: u64 = (0..mesh.num_attributes())
        .map(|a| mesh.attribute(a).num_components() as u64)
        .sum();
    (mesh.num_points() as u64)
        .saturating_mul(components.saturating_mul(4))
        .saturating_add((mesh.num_faces() as u64).saturating_mul(12))
}

/// The positions and triangles of a decoded stream, which must hold no
/// more points than the primitive's POSITION accessor declares
/// (`max_points`) nor more faces than it declares triangles (`max_faces`).
pub fn geometry(
    mesh: &Mesh,
    position_id: u32,
    max_points: u64,
    max_faces: u64,
) -> Result<Decoded, Msg> {
    let n = mesh.num_points();
    if n as u64 > max_points || mesh.num_faces() as u64 > max_faces {
        return Err(format!(
            "KHR_draco_mesh_compression: the stream holds {n} points and {} faces, more than the primitive's accessors declare ({max_points} points, {max_faces} triangles)",
            mesh.num_faces()
        ));
    }
    let attr = mesh.attribute_by_unique_id(position_id).ok_or_else(|| {
        format!("KHR_draco_mesh_compression: no Draco attribute {position_id} for POSITION")
    })?;
    if attr.num_components() != 3 {
        return Err(format!(
            "KHR_draco_mesh_compression: POSITION has {} components, not 3",
            attr.num_components()
        ));
    }
    let flat = attr.read_f32s(n, 3);
    let positions: Vec<Point3<f64>> = flat
        .chunks_exact(3)
        .map(|c| Point3::new(c[0] as f64, c[1] as f64, c[2] as f64))
        .collect();
    if let Some(k) = positions
        .iter()
        .position(|p| !p.coords.iter().all(|x| x.is_finite()))
    {
        return Err(format!(
            "KHR_draco_mesh_compression: vertex {k} is not finite"
        ));
    }
    let mut triangles = Vec::with_capacity(mesh.num_faces());
    for f in mesh.faces() {
        let t = [f[0].0, f[1].0, f[2].0];
        if t.iter().any(|&i| i as usize >= n) {
            return Err(format!(
                "KHR_draco_mesh_compression: face index out of range ({n} points)"
            ));
        }
        triangles.push(t);
    }
    Ok((positions, triangles))
}

/// The values of the Draco attributes `ids` (unique ids) of a decoded
/// stream of `point_count` points, each with four components per point, as
/// f64 (integers as their values).
pub fn attributes(mesh: &Mesh, ids: &[u32], point_count: usize) -> Result<Vec<Vec<f64>>, Msg> {
    if mesh.num_points() != point_count {
        return Err(format!(
            "KHR_draco_mesh_compression: {} points, not {point_count}",
            mesh.num_points()
        ));
    }
    ids.iter()
        .map(|&id| {
            let attr = mesh
                .attribute_by_unique_id(id)
                .ok_or_else(|| format!("KHR_draco_mesh_compression: no Draco attribute {id}"))?;
            if attr.num_components() != 4 {
                return Err(format!(
                    "KHR_draco_mesh_compression: attribute {id} has {} components, not 4",
                    attr.num_components()
                ));
            }
            Ok(attr
                .read_f32s(point_count, 4)
                .into_iter()
                .map(f64::from)
                .collect())
        })
        .collect()
}
