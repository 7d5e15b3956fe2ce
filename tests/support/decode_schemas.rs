//! The fixed schemas the decode properties run against: a flat object with bounds and an enum,
//! `$ref`/`anyOf`/`additionalProperties: false` with a default, a recursive `$ref`, a map, a
//! tagged union beside the object's own properties (`oneOf` + `allOf`), and an object with a
//! pattern, OpenAPI `nullable`, `prefixItems`, `uniqueItems` and a mixed enum.
//! Shared by `tests/decode_robust.rs` and the `decode` fuzz target (`#[path]` include).

use serde_json::{Value, json};

/// The schemas, in a fixed order (the fuzz target picks one by its first input byte).
pub fn schemas() -> Vec<Value> {
    vec![
        json!({"type": "object", "properties": {
            "location": {"type": "string", "minLength": 1},
            "unit": {"enum": ["celsius", "fahrenheit"]},
            "days": {"type": "integer", "minimum": 1, "maximum": 14},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 4}},
            "required": ["location"]}),
        json!({"type": "object", "properties": {
            "filter": {"anyOf": [{"$ref": "#/$defs/F"}, {"type": "null"}]},
            "limit": {"type": "integer", "default": 10},
            "verbose": {"type": "boolean"}},
            "$defs": {"F": {"type": "object", "properties": {"name": {"type": "string"},
                "size": {"type": "number", "exclusiveMinimum": 0}}, "additionalProperties": false}}}),
        json!({"type": "object", "properties": {"node": {"$ref": "#/$defs/N"}},
            "$defs": {"N": {"type": "object", "properties": {"v": {"type": "integer"},
                "next": {"anyOf": [{"$ref": "#/$defs/N"}, {"type": "null"}]}}}}}),
        json!({"type": "object", "additionalProperties": {"type": "integer"}}),
        json!({"type": "object", "properties": {"color": {"type": "string"}},
            "required": ["color"],
            "allOf": [{"properties": {"id": {"type": "integer", "minimum": 0}}}],
            "oneOf": [
                {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}},
                 "required": ["kind", "r"]},
                {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
                 "required": ["kind", "side"]}]}),
        json!({"type": "object", "properties": {
            "code": {"type": "string", "pattern": "^\\d{2,4}\\w?$", "nullable": true},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}],
                "items": {"type": "integer"}, "uniqueItems": true},
            "mode": {"enum": ["auto", 1.0, null]}},
            "required": ["code", "extra"]}),
    ]
}
