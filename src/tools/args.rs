//! Argument decoding for dispatch: the raw arguments of a call (JSON text or a value) become a
//! validated argument object, or a model's-fault [`Failure`] with a corrective message.
//!
//! One [`ArgDecoder`] is compiled per tool when it is registered.

use serde_json::Value;

use super::{Arguments, Failure};

/// A tool's parameter schema could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the parameter schema of tool `{tool}` is not a valid JSON Schema: {message}")]
pub struct SchemaError {
    /// The tool whose schema is broken.
    pub tool: String,
    /// What the schema compiler said.
    pub message: String,
}

/// Decodes and validates the arguments of one tool.
pub struct ArgDecoder {
    validator: jsonschema::Validator,
}

impl std::fmt::Debug for ArgDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArgDecoder").finish_non_exhaustive()
    }
}

impl ArgDecoder {
    /// Compiles the decoder for `tool`'s parameter schema.
    ///
    /// # Errors
    /// [`SchemaError`] when the schema is not a valid JSON Schema.
    pub fn new(tool: &str, schema: &Value) -> Result<Self, SchemaError> {
        let validator = jsonschema::validator_for(schema).map_err(|e| SchemaError {
            tool: tool.to_string(),
            message: e.to_string(),
        })?;
        Ok(Self { validator })
    }

    /// Turns raw arguments into a validated argument object.
    ///
    /// Text is repaired first; `null` and an empty string mean "no arguments" (`{}`); a string
    /// value holding JSON is parsed (models double-encode arguments).
    ///
    /// # Errors
    /// [`Failure::Malformed`] when the text cannot become JSON, [`Failure::InvalidArgs`] when the
    /// value does not fit the schema. Both name `tool` and say what to send instead.
    pub fn decode(&self, tool: &str, raw: &Arguments) -> Result<Value, Failure> {
        let value = match raw {
            Arguments::Text(t) => parse_text(tool, t)?,
            Arguments::Value(Value::String(t)) => parse_text(tool, t)?,
            Arguments::Value(Value::Null) => Value::Object(Default::default()),
            Arguments::Value(v) => v.clone(),
        };
        if !value.is_object() {
            return Err(Failure::invalid_args(
                tool,
                "",
                format!(
                    "the arguments must be a JSON object of named parameters, not {}",
                    type_name(&value)
                ),
            ));
        }
        if self.validator.is_valid(&value) {
            return Ok(value);
        }
        if let Some(err) = self.validator.iter_errors(&value).next() {
            let pointer = err.instance_path().to_string();
            return Err(Failure::invalid_args(tool, pointer, err.to_string()));
        }
        Ok(value)
    }
}

fn parse_text(tool: &str, text: &str) -> Result<Value, Failure> {
    if text.trim().is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    let repaired = crate::repair::repair(text).map_err(|e| {
        let at = e.at();
        Failure::Malformed {
            tool: tool.to_string(),
            at,
            message: format!("{e}. Send the arguments as one JSON object"),
        }
    })?;
    serde_json::from_str(&repaired.text).map_err(|e| Failure::Malformed {
        tool: tool.to_string(),
        at: e.column(),
        message: format!("{e}. Send the arguments as one JSON object"),
    })
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
