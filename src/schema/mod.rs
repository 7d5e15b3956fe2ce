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
