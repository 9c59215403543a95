//! `KHR_draco_mesh_compression` primitives, decoded with the pure-Rust
//! `draco-core` decoder (which applies Draco's own dequantization, so
//! positions come back as floats). Positions are the Draco attribute whose
//! unique id the extension maps to POSITION; triangles are the Draco faces,
//! whose point ids index those positions. A skinned primitive's
//! `JOINTS_n`/`WEIGHTS_n` come from the same stream ([`attributes`]).

use super::Msg;
use nalgebra::Point3;

/// Decoded positions and triangles.
pub type Decoded = (Vec<Point3<f64>>, Vec<[u32; 3]>);

/// Decoded Draco geometry: positions and triangles.
pub fn decode(bytes: &[u8], position_id: u32) -> Result<Decoded, Msg> {
    let mut buffer = draco_core::DecoderBuffer::new(bytes);
    let mut mesh = draco_core::Mesh::new();
    draco_core::MeshDecoder::new()
        .decode(&mut buffer, &mut mesh)
        .map_err(|e| format!("KHR_draco_mesh_compression data could not be decoded: {e}"))?;
    let attr = mesh.attribute_by_unique_id(position_id).ok_or_else(|| {
        format!("KHR_draco_mesh_compression: no Draco attribute {position_id} for POSITION")
    })?;
    if attr.num_components() != 3 {
        return Err(format!(
            "KHR_draco_mesh_compression: POSITION has {} components, not 3",
            attr.num_components()
        ));
    }
    let n = mesh.num_points();
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

/// The values of the Draco attributes `ids` (unique ids), each with four
/// components per point, as f64 (integers as their values), decoded from
/// one pass over the stream of `point_count` points.
pub fn attributes(bytes: &[u8], ids: &[u32], point_count: usize) -> Result<Vec<Vec<f64>>, Msg> {
    let mut buffer = draco_core::DecoderBuffer::new(bytes);
    let mut mesh = draco_core::Mesh::new();
    draco_core::MeshDecoder::new()
        .decode(&mut buffer, &mut mesh)
        .map_err(|e| format!("KHR_draco_mesh_compression data could not be decoded: {e}"))?;
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
