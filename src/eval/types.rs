//! BFCL's Python-ish parameter types mapped to JSON Schema, and the Python types BFCL's checker uses.
//!
//! BFCL function docs say `"dict"` for an object, `"float"` for a number, `"tuple"` for an array and
//! `"any"` for a value BFCL treats as a string. Templates and grammars need JSON Schema, so every
//! schema goes through [`to_json_schema`] before it reaches a model; the mapping is BFCL's own
//! (`GORILLA_TO_OPENAPI`), with unknown names falling back to `string` as BFCL does.

use serde_json::{Map, Value};

/// The JSON Schema type for a BFCL type name (`None` for a name BFCL does not map either).
pub fn json_type(bfcl: &str) -> Option<&'static str> {
    Some(match bfcl {
        "integer" | "byte" | "short" | "long" | "Bigint" => "integer",
        "number" | "float" | "double" => "number",
        "string" | "char" | "String" | "any" | "Any" => "string",
        "boolean" | "bool" => "boolean",
        "array" | "list" | "tuple" | "ArrayList" | "Array" | "Queue" | "Stack" => "array",
        "dict" | "object" | "HashMap" | "Hashtable" => "object",
        _ => return None,
    })
}

/// Converts a BFCL parameter schema into JSON Schema: type names mapped (unknown ones become
/// `string`, a missing type is `string`), `float` also marked `"format": "float"`, nested
/// `properties` and `items` converted the same way. Everything else (descriptions, `enum`,
/// `default`, `required`) is kept as is. Iterative: nesting depth costs heap, not stack.
pub fn to_json_schema(schema: &Value) -> Value {
    let mut out = schema.clone();
    // Explicit stack of schema nodes still to convert; `is_schema` distinguishes a schema node from
    // a `properties` map whose values are schemas.
    let mut stack: Vec<(&mut Value, bool)> = vec![(&mut out, true)];
    while let Some((node, is_schema)) = stack.pop() {
        let Value::Object(map) = node else { continue };
        if !is_schema {
            for v in map.values_mut() {
                stack.push((v, true));
            }
            continue;
        }
        convert_type(map);
        for (key, v) in map.iter_mut() {
            match key.as_str() {
                "properties" => stack.push((v, false)),
                "items" | "additionalProperties" => stack.push((v, true)),
                _ => {}
            }
        }
    }
    out
}

fn convert_type(map: &mut Map<String, Value>) {
    let ty = match map.get("type") {
        None => {
            // A node with properties is an object; anything else untyped is a string in BFCL.
            if map.contains_key("properties") {
                "object"
            } else {
                "string"
            }
        }
        Some(Value::String(s)) => {
            let ty = json_type(s).unwrap_or("string");
            if s == "float" {
                map.insert("format".into(), Value::String("float".into()));
            }
            ty
        }
        Some(_) => return,
    };
    map.insert("type".into(), Value::String(ty.into()));
}

/// The Python type of a value, as BFCL's checker sees a decoded call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PyType {
    /// `None`.
    NoneType,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `float`.
    Float,
    /// `str`.
    Str,
    /// `list` (JSON arrays; BFCL turns tuples into lists).
    List,
    /// `dict`.
    Dict,
}

impl PyType {
    /// The Python type of a JSON value (`5` is `int`, `5.0` is `float`).
    pub fn of(v: &Value) -> Self {
        match v {
            Value::Null => Self::NoneType,
            Value::Bool(_) => Self::Bool,
            Value::Number(n) if n.is_f64() => Self::Float,
            Value::Number(_) => Self::Int,
            Value::String(_) => Self::Str,
            Value::Array(_) => Self::List,
            Value::Object(_) => Self::Dict,
        }
    }

    /// BFCL's `PYTHON_TYPE_MAPPING` for a documented type name (`any` is `str`, `tuple` is `list`).
    /// Names outside the Python categories map through their JSON Schema type.
    pub fn from_bfcl(name: &str) -> Self {
        match json_type(name).unwrap_or("string") {
            "integer" => Self::Int,
            "number" => Self::Float,
            "boolean" => Self::Bool,
            "array" => Self::List,
            "object" => Self::Dict,
            _ => Self::Str,
        }
    }

    /// The Python name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::NoneType => "NoneType",
            Self::Bool => "bool",
            Self::Int => "int",
            Self::Float => "float",
            Self::Str => "str",
            Self::List => "list",
            Self::Dict => "dict",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn maps_python_types_to_json_schema_recursively() {
        let bfcl = json!({
            "type": "dict",
            "properties": {
                "a": {"type": "float", "description": "x"},
                "b": {"type": "tuple", "items": {"type": "integer"}},
                "c": {"type": "any"},
                "d": {"type": "dict", "properties": {"e": {"type": "float"}}},
                "f": {"type": "array", "items": {"type": "dict", "properties": {"g": {"type": "boolean"}}}},
                "h": {"description": "untyped"},
                "i": {"type": "weird"}
            },
            "required": ["a"]
        });
        let s = to_json_schema(&bfcl);
        assert_eq!(s["type"], "object");
        assert_eq!(
            s["properties"]["a"],
            json!({"type": "number", "description": "x", "format": "float"})
        );
        assert_eq!(
            s["properties"]["b"],
            json!({"type": "array", "items": {"type": "integer"}})
        );
        assert_eq!(s["properties"]["c"]["type"], "string");
        assert_eq!(s["properties"]["d"]["type"], "object");
        assert_eq!(s["properties"]["d"]["properties"]["e"]["type"], "number");
        assert_eq!(s["properties"]["f"]["items"]["type"], "object");
        assert_eq!(
            s["properties"]["f"]["items"]["properties"]["g"]["type"],
            "boolean"
        );
        assert_eq!(s["properties"]["h"]["type"], "string");
        assert_eq!(s["properties"]["i"]["type"], "string");
        assert_eq!(s["required"], json!(["a"]));
    }

    #[test]
    fn deep_schemas_convert_at_every_level() {
        // As deep as serde_json parses (128); the conversion itself keeps an explicit stack.
        let mut s = json!({"type": "integer"});
        for _ in 0..120 {
            s = json!({"type": "tuple", "items": s});
        }
        let out = to_json_schema(&s);
        let mut node = &out;
        for _ in 0..120 {
            assert_eq!(node["type"], "array");
            node = &node["items"];
        }
        assert_eq!(node["type"], "integer");
    }

    #[test]
    fn python_types_of_values() {
        assert_eq!(PyType::of(&json!(5)), PyType::Int);
        assert_eq!(PyType::of(&json!(5.0)), PyType::Float);
        assert_eq!(PyType::of(&json!("x")), PyType::Str);
        assert_eq!(PyType::from_bfcl("any"), PyType::Str);
        assert_eq!(PyType::from_bfcl("tuple"), PyType::List);
        assert_eq!(PyType::from_bfcl("dict"), PyType::Dict);
        assert_eq!(PyType::from_bfcl("float"), PyType::Float);
    }
}
