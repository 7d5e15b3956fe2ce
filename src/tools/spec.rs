//! `ToolSpec`: what a tool tells the model and the runtime about itself.

use std::time::Duration;

use serde_json::Value;

/// Behaviour hints, after MCP's tool annotations. The runtime relies on them: read-only calls of
/// one turn run in parallel, pure (read-only and idempotent) calls are memoised, and world
/// failures are retried only for read-only or idempotent tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Annotations {
    /// The tool changes nothing outside itself.
    pub read_only: bool,
    /// The tool may destroy or overwrite data (meaningful only when not read-only).
    pub destructive: bool,
    /// Calling it twice with the same arguments has the same effect as calling it once.
    pub idempotent: bool,
    /// The tool talks to an open world (network, other processes) rather than a closed one.
    pub open_world: bool,
}

impl Default for Annotations {
    /// MCP's defaults: assume the worst (writes, destructive, not idempotent, open world).
    fn default() -> Self {
        Self {
            read_only: false,
            destructive: true,
            idempotent: false,
            open_world: true,
        }
    }
}

impl Annotations {
    /// A tool that only reads local state: read-only, idempotent, closed world.
    pub const READ_ONLY: Self = Self {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
    };

    /// True when results can be memoised: read-only and idempotent.
    pub fn is_pure(&self) -> bool {
        self.read_only && self.idempotent
    }
}

/// Everything the model and the runtime need to know about a tool.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ToolSpec {
    /// The name the model calls it by.
    pub name: String,
    /// What it does, written for the model.
    pub description: String,
    /// JSON Schema of the arguments (an object schema).
    pub parameters: Value,
    /// Behaviour hints.
    pub annotations: Annotations,
    /// Time limit for one call; `None` uses the dispatcher's default.
    #[serde(skip)]
    pub timeout: Option<Duration>,
    /// One concrete valid argument object, shown to the model in corrective messages (small
    /// models copy a concrete example far better than they read a schema).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<Value>,
}

impl ToolSpec {
    /// A spec with default annotations, no timeout of its own and no example.
    pub fn new(name: impl Into<String>, description: impl Into<String>, parameters: Value) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            parameters,
            annotations: Annotations::default(),
            timeout: None,
            example: None,
        }
    }

    /// Sets the annotations.
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = annotations;
        self
    }

    /// Sets the per-call time limit.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Sets the example arguments shown in corrective messages.
    #[must_use]
    pub fn with_example(mut self, example: Value) -> Self {
        self.example = Some(example);
        self
    }

    /// The arguments of [`Self::example_call`]: the example when there is one, else
    /// [`example_arguments`] of the schema.
    pub fn example_args(&self) -> Value {
        self.example
            .clone()
            .unwrap_or_else(|| example_arguments(&self.parameters))
    }

    /// One concrete valid call as JSON text, `{"name": …, "arguments": …}`, for corrective
    /// messages. Uses the example when there is one, else [`example_arguments`] of the schema.
    pub fn example_call(&self) -> String {
        serde_json::json!({"name": self.name, "arguments": self.example_args()}).to_string()
    }

    /// The spec as a backend tool definition (name, description, parameters) — what the model
    /// is shown: the parameters as [`crate::schema::for_prompt`] gives them.
    pub fn to_def(&self) -> crate::backend::ToolDef {
        crate::backend::ToolDef {
            name: self.name.clone(),
            description: self.description.clone(),
            parameters: crate::schema::for_prompt(&self.parameters),
        }
    }
}

/// Example arguments built from an object schema: every required property (or, when none is
/// required, the first one) gets its `default`, first `examples` entry, first `enum` value, or a
/// plain value of its type. Paths get `"."`, the one path every sandbox accepts.
#[must_use]
pub fn example_arguments(schema: &Value) -> Value {
    let mut out = serde_json::Map::new();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Value::Object(out);
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let chosen: Vec<&String> = if required.is_empty() {
        props.keys().take(1).collect()
    } else {
        props
            .keys()
            .filter(|k| required.contains(&k.as_str()))
            .collect()
    };
    for key in chosen {
        out.insert(key.clone(), example_value(key, &props[key]));
    }
    Value::Object(out)
}

fn example_value(key: &str, schema: &Value) -> Value {
    if let Some(v) = schema.get("default") {
        return v.clone();
    }
    if let Some(v) = schema
        .get("examples")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
    {
        return v.clone();
    }
    if let Some(v) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
    {
        return v.clone();
    }
    let ty = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("string"),
        _ => "string",
    };
    match ty {
        "integer" => Value::from(1),
        "number" => Value::from(1.0),
        "boolean" => Value::Bool(true),
        "array" => Value::Array(Vec::new()),
        "object" => Value::Object(serde_json::Map::new()),
        _ => {
            let k = key.to_ascii_lowercase();
            if k.contains("path") || k.contains("dir") || k == "root" || k == "folder" {
                Value::from(".")
            } else if k.contains("pattern") || k.contains("query") {
                Value::from("TODO")
            } else {
                Value::from("text")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn example_arguments_fill_required_properties() {
        let schema = json!({"type": "object", "properties": {
            "path": {"type": "string"}, "pattern": {"type": "string"},
            "limit": {"type": "integer"}, "unit": {"enum": ["celsius", "fahrenheit"]},
            "opt": {"type": "boolean"}},
            "required": ["pattern", "path", "limit", "unit"]});
        assert_eq!(
            example_arguments(&schema),
            json!({"path": ".", "pattern": "TODO", "limit": 1, "unit": "celsius"})
        );
        assert_eq!(example_arguments(&json!({"type": "object"})), json!({}));
    }

    #[test]
    fn example_call_fills_required_properties_when_there_is_no_example() {
        let spec = ToolSpec::new(
            "weather",
            "d",
            json!({"type": "object", "properties": {
                "city": {"type": "string"},
                "unit": {"enum": ["celsius", "fahrenheit"]},
                "days": {"type": ["integer", "null"]},
                "verbose": {"type": "boolean"}
            }, "required": ["city", "unit", "days"]}),
        );
        assert_eq!(
            spec.example_call(),
            r#"{"name":"weather","arguments":{"city":"text","unit":"celsius","days":1}}"#
        );
        let with = spec.with_example(json!({"city": "Paris", "unit": "celsius", "days": 2}));
        assert!(with.example_call().contains("Paris"));
    }
}
