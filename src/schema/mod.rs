//! JSON Schema for tool parameters: derived from Rust types, normalised for tool use, and converted
//! into each provider dialect with a report of what the conversion dropped.
//!
//! # Example: the schema of an argument type
//! ```
//! use schemars::JsonSchema;
//! #[derive(JsonSchema)]
//! struct Args { path: String, limit: Option<u32> }
//! let s = toolmend::schema::schema_for::<Args>();
//! assert_eq!(s["type"], "object");
//! assert!(s.get("$schema").is_none());
//! assert_eq!(s["properties"]["limit"]["maximum"], 4294967295u64);
//! ```

mod dialect;
mod gbnf;
pub(crate) mod merge;

use schemars::JsonSchema;
use serde_json::Value;

pub use dialect::{Action, Converted, Dialect, Dropped, convert};
pub use gbnf::{Envelope, Grammar, gbnf};

/// The JSON Schema of `T`, normalised for tool use: no `$schema`, integer `format` hints
/// (`uint32`, `int8`, …) turned into `minimum`/`maximum` bounds, `$defs` kept at the root.
#[must_use]
pub fn schema_for<T: JsonSchema + ?Sized>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut v = generator.into_root_schema_for::<T>().to_value();
    normalise(&mut v);
    v
}

/// Applies the tool-use normalisation of [`schema_for`] to any schema.
pub fn normalise(schema: &mut Value) {
    if let Value::Object(o) = schema {
        o.remove("$schema");
    }
    // An explicit stack: a schema is input too, and may nest deeply.
    let mut stack = vec![schema];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                if let Some(Value::String(f)) = o.get("format")
                    && let Some((lo, hi)) = int_format_bounds(f)
                {
                    o.remove("format");
                    merge_bound(o, "minimum", lo, true);
                    merge_bound(o, "maximum", hi, false);
                } else if matches!(
                    o.get("format").and_then(Value::as_str),
                    Some("double" | "float")
                ) {
                    o.remove("format");
                }
                stack.extend(o.values_mut());
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            _ => {}
        }
    }
}

/// Whether an object schema takes exactly the arguments `args` by name: every key is one of its
/// `properties` and every `required` one is present (values are not checked). A schema without
/// `properties` takes none. Used to tell which offered function a call meant from its
/// arguments alone.
///
/// ```
/// use serde_json::json;
/// let grep = json!({"type": "object", "properties": {"pattern": {}, "path": {}}, "required": ["pattern"]});
/// let args = |v: serde_json::Value| v.as_object().unwrap().clone();
/// assert!(toolmend::schema::takes_arguments(&grep, &args(json!({"pattern": "x"}))));
/// assert!(!toolmend::schema::takes_arguments(&grep, &args(json!({"path": "."}))));
/// assert!(!toolmend::schema::takes_arguments(&grep, &args(json!({"pattern": "x", "depth": 1}))));
/// ```
#[must_use]
pub fn takes_arguments(schema: &Value, args: &serde_json::Map<String, Value>) -> bool {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return false;
    };
    args.keys().all(|k| props.contains_key(k))
        && schema
            .get("required")
            .and_then(Value::as_array)
            .is_none_or(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .all(|k| args.contains_key(k))
            })
}

/// `schema` as a model should see it: the same schema without the `minimum` / `maximum` bounds
/// that only restate a machine integer's width (±2^31, 2^32 − 1, ±2^63, 2^64 − 1), which
/// [`normalise`] writes for `u64`, `i32` and the like. Such a bound tells a model nothing about
/// the parameter and costs prompt tokens; Qwen2.5-Coder-0.5B copied `18446744073709551615` into
/// `read`'s `end_line`. Validation keeps using the full schema; narrower bounds (`0`, `255`,
/// anything a type's author wrote) stay.
///
/// ```
/// let s = serde_json::json!({"type": "integer", "minimum": 0, "maximum": 18446744073709551615u64});
/// assert_eq!(toolmend::schema::for_prompt(&s), serde_json::json!({"type": "integer", "minimum": 0}));
/// ```
#[must_use]
pub fn for_prompt(schema: &Value) -> Value {
    let mut out = schema.clone();
    let mut stack = vec![&mut out];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                for key in ["minimum", "maximum"] {
                    if o.get(key).is_some_and(is_width_bound) {
                        o.remove(key);
                    }
                }
                stack.extend(o.values_mut());
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            _ => {}
        }
    }
    out
}

/// Whether `v` is the limit of a 32- or 64-bit integer type.
fn is_width_bound(v: &Value) -> bool {
    v.as_u64().is_some_and(|n| {
        n == u64::MAX || n == i64::MAX as u64 || n == u64::from(u32::MAX) || n == i32::MAX as u64
    }) || v
        .as_i64()
        .is_some_and(|n| n == i64::MIN || n == i64::from(i32::MIN))
}

/// The integer range a schemars `format` hint stands for.
fn int_format_bounds(f: &str) -> Option<(Value, Value)> {
    Some(match f {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" | "int" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0.into(), u8::MAX.into()),
        "uint16" => (0.into(), u16::MAX.into()),
        "uint32" => (0.into(), u32::MAX.into()),
        "uint64" | "uint" => (0.into(), u64::MAX.into()),
        _ => return None,
    })
}

/// Sets `key` to `bound` unless an existing bound is already tighter.
fn merge_bound(o: &mut serde_json::Map<String, Value>, key: &str, bound: Value, is_min: bool) {
    let tighter = match (o.get(key).and_then(Value::as_f64), bound.as_f64()) {
        (Some(old), Some(new)) => {
            if is_min {
                old >= new
            } else {
                old <= new
            }
        }
        _ => false,
    };
    if !tighter {
        o.insert(key.to_owned(), bound);
    }
}
