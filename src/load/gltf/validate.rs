//! Document-level checks made before any geometry is read: the glTF
//! version, `extensionsRequired`, and JSON types (the full glTF schema types
//! via `gltf-json`, plus the rule that every `extensions` entry is an
//! object, which `gltf-json` does not enforce for extensions it does not
//! know).

use super::Msg;
use super::json::Root;
use serde_json::Value;
use serde_path_to_error::Segment;

/// Extensions that change geometry and that this loader implements.
const SUPPORTED: &[&str] = &[
    "KHR_mesh_quantization",
    "EXT_meshopt_compression",
    "KHR_draco_mesh_compression",
    "EXT_mesh_gpu_instancing",
    "KHR_lights_punctual",
];

/// Prefixes of extensions that only touch materials and textures, so the
/// geometry is right without understanding them.
const APPEARANCE_ONLY: &[&str] = &["KHR_materials_", "KHR_texture_", "EXT_texture_"];

/// Parses `major.minor` of a version string.
fn version(v: &str) -> Option<(u32, u32)> {
    let (major, minor) = v.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// `asset.version` must be 2.x; `asset.minVersion` must not exceed 2.0.
pub fn asset(root: &Root) -> Result<(), Msg> {
    match version(&root.asset.version) {
        Some((2, _)) => {}
        _ => {
            return Err(format!(
                "asset.version '{}' is not glTF 2.x",
                root.asset.version
            ));
        }
    }
    if let Some(min) = &root.asset.min_version {
        match version(min) {
            Some(v) if v <= (2, 0) => {}
            _ => {
                return Err(format!(
                    "asset.minVersion '{min}' is above 2.0, which this loader reads"
                ));
            }
        }
    }
    for r in &root.extensions_required {
        let known =
            SUPPORTED.contains(&r.as_str()) || APPEARANCE_ONLY.iter().any(|p| r.starts_with(p));
        if !known {
            return Err(format!("required extension '{r}' is not supported"));
        }
    }
    Ok(())
}

/// The schema's JSON types, checked by deserializing into `gltf-json`, and
/// every `extensions` member being an object of objects.
pub fn json_types(value: &Value) -> Result<(), Msg> {
    // gltf-json wants `scene.nodes`, which the glTF 2.0 schema makes
    // optional: give it an empty list where it is absent.
    let mut lenient = value.clone();
    if let Some(scenes) = lenient.get_mut("scenes").and_then(Value::as_array_mut) {
        for s in scenes.iter_mut().filter_map(Value::as_object_mut) {
            s.entry("nodes").or_insert_with(|| Value::Array(Vec::new()));
        }
    }
    gltf::json::Root::deserialize_value(&lenient)?;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if let Some(ext) = map.get("extensions") {
                    let ok = ext
                        .as_object()
                        .is_some_and(|m| m.values().all(Value::is_object));
                    if !ok {
                        return Err(
                            "wrong JSON type: 'extensions' must be an object of objects".into()
                        );
                    }
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    Ok(())
}

/// Deserialization of a JSON value into a typed root, with the error as a
/// one-line message.
pub trait DeserializeValue: Sized {
    /// `value` as `Self`, or what type is wrong where.
    fn deserialize_value(value: &Value) -> Result<Self, Msg>;
}

impl<T: serde::de::DeserializeOwned> DeserializeValue for T {
    /// The error names where the wrong value is, as a JSON pointer
    /// (`/nodes/3/children/0`, RFC 6901).
    fn deserialize_value(value: &Value) -> Result<Self, Msg> {
        serde_path_to_error::deserialize(value).map_err(|e| {
            let mut at = String::new();
            for seg in e.path().iter() {
                at.push('/');
                match seg {
                    Segment::Seq { index } => at += &index.to_string(),
                    Segment::Map { key } => at += &key.replace('~', "~0").replace('/', "~1"),
                    Segment::Enum { variant } => at += variant,
                    Segment::Unknown => at.push('?'),
                }
            }
            format!(
                "wrong JSON type at {}: {}",
                if at.is_empty() { "/" } else { &at },
                e.inner().to_string().replace(
                    "index into child of root",
                    "an index (a non-negative integer)"
                )
            )
        })
    }
}
