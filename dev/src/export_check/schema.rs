//! A small JSON Schema validator for docs/bvtool-export.schema.json,
//! covering the keywords the schema uses (type, const, enum, required,
//! properties, additionalProperties, items, minItems, maxItems, minimum,
//! $ref), so the tests need no `jsonschema` crate.

use serde_json::Value;

fn schema() -> Value {
    let path = crate::repo_dir().join("docs/bvtool-export.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_u64() || v.is_i64(),
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        _ => panic!("schema type {t} not handled"),
    }
}

/// Validates `v` against `s`; errors carry the JSON pointer.
fn validate(root: &Value, s: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
    if let Some(r) = s["$ref"].as_str() {
        let target = root
            .pointer(r.trim_start_matches('#'))
            .expect("resolvable $ref");
        validate(root, target, v, at, errors);
    }
    if let Some(t) = s.get("type") {
        let ok = match t {
            Value::String(t) => type_ok(t, v),
            Value::Array(ts) => ts.iter().any(|t| type_ok(t.as_str().unwrap(), v)),
            _ => panic!("bad type"),
        };
        if !ok {
            errors.push(format!("{at}: not of type {t}"));
            return;
        }
    }
    if let Some(c) = s.get("const").filter(|c| *c != v) {
        errors.push(format!("{at}: {v} is not {c}"));
    }
    if let Some(e) = s["enum"].as_array().filter(|e| !e.contains(v)) {
        errors.push(format!("{at}: {v} not in {e:?}"));
    }
    if let (Some(m), Some(x)) = (s["minimum"].as_f64(), v.as_f64())
        && x < m
    {
        errors.push(format!("{at}: {x} < {m}"));
    }
    if let Some(o) = v.as_object() {
        for r in s["required"].as_array().into_iter().flatten() {
            if !o.contains_key(r.as_str().unwrap()) {
                errors.push(format!("{at}: missing {r}"));
            }
        }
        for (k, x) in o {
            match s["properties"].get(k) {
                Some(ps) => validate(root, ps, x, &format!("{at}/{k}"), errors),
                None if s["additionalProperties"] == Value::Bool(false) => {
                    errors.push(format!("{at}: unexpected {k}"))
                }
                None => {}
            }
        }
    }
    if let Some(a) = v.as_array() {
        if let Some(n) = s["minItems"].as_u64().filter(|&n| (a.len() as u64) < n) {
            errors.push(format!("{at}: fewer than {n} items"));
        }
        if let Some(n) = s["maxItems"].as_u64().filter(|&n| (a.len() as u64) > n) {
            errors.push(format!("{at}: more than {n} items"));
        }
        if let Some(items) = s.get("items") {
            for (i, x) in a.iter().enumerate() {
                validate(root, items, x, &format!("{at}/{i}"), errors);
            }
        }
    }
}

/// Validation errors of `v` against the export schema.
pub fn schema_errors(v: &Value) -> Vec<String> {
    let s = schema();
    let mut errors = Vec::new();
    validate(&s, &s, v, "", &mut errors);
    errors
}
