//! The JSON form: the [`ExportDoc`] as is, pretty-printed.

use super::ExportDoc;

/// The document as pretty JSON (schema: `docs/bvtool-export.schema.json`).
/// Numbers are `f64` printed with the shortest text that reads back to the
/// same value.
pub fn to_string(doc: &ExportDoc) -> String {
    serde_json::to_string_pretty(doc).expect("the export document always serializes")
}
