//! Argument decoding for dispatch: the raw arguments of a call (JSON text or a value) go through
//! [`crate::decode`] — repair, schema-guided coercion, validation — and become a validated argument
//! object, or a model's-fault [`Failure`] carrying decode's corrective message.
//!
//! One [`ArgDecoder`] is compiled per tool when it is registered.

use std::borrow::Cow;

use serde_json::Value;

use super::{Arguments, Failure, ToolSpec};
use crate::decode::{self, DecodeError, Decoded, Decoder, Raw};

/// A tool's parameter schema could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the parameter schema of tool `{tool}` is not usable: {message}")]
pub struct SchemaError {
    /// The tool whose schema is broken.
    pub tool: String,
    /// What the schema compiler said.
    pub message: String,
}

/// Decodes and validates the arguments of one tool (a compiled [`decode::Decoder`]).
#[derive(Debug, Clone)]
pub struct ArgDecoder {
    decoder: Decoder,
}

impl ArgDecoder {
    /// Compiles the decoder for `tool`'s parameter schema.
    ///
    /// # Errors
    /// [`SchemaError`] when the schema is not a valid JSON Schema.
    pub fn new(tool: &str, schema: &Value) -> Result<Self, SchemaError> {
        let decoder = Decoder::new(schema).map_err(|e| SchemaError {
            tool: tool.to_string(),
            message: e.to_string(),
        })?;
        Ok(Self { decoder })
    }

    /// Turns raw arguments into a validated argument object, with decode's receipts (repair
    /// fixes, coercions).
    ///
    /// `null` (as a value or as text) and blank text mean "no arguments" (`{}`); a string value
    /// is argument text (models and providers double-encode arguments).
    ///
    /// # Errors
    /// [`Failure::Malformed`] when the text cannot become JSON, [`Failure::InvalidArgs`] when the
    /// value does not fit the schema. Both carry decode's corrective message; a malformed call
    /// also gets the spec's example call (the shape to write). Invalid arguments get an example
    /// call only when decode had no corrected arguments and the tool's author wrote one: decode
    /// says field by field what is needed, and a call generated from the schema would carry
    /// placeholder values (`"path": "."`) that a small model copies as a real call.
    pub fn decode(
        &self,
        spec: &ToolSpec,
        raw: &Arguments,
        policy: &decode::Policy,
    ) -> Result<Decoded<Value>, Failure> {
        let tool = spec.name.as_str();
        let raw = match raw {
            Arguments::Text(t) | Arguments::Value(Value::String(t)) if t.trim().is_empty() => {
                Raw::Value(Cow::Owned(Value::Object(Default::default())))
            }
            Arguments::Value(Value::Null) => {
                Raw::Value(Cow::Owned(Value::Object(Default::default())))
            }
            Arguments::Text(t) => Raw::Text(t),
            Arguments::Value(v) => Raw::Value(Cow::Borrowed(v)),
        };
        let decoded = self
            .decoder
            .decode_value(raw, policy)
            .map_err(|e| failure(spec, e))?;
        if !decoded.value.is_object() {
            return Err(Failure::invalid_args(
                tool,
                "",
                format!(
                    "the arguments must be a JSON object of named parameters, not {}. A valid call looks like: {}",
                    type_name(&decoded.value),
                    spec.example_call()
                ),
            ));
        }
        Ok(decoded)
    }
}

fn failure(spec: &ToolSpec, e: DecodeError) -> Failure {
    let tool = spec.name.clone();
    match e {
        DecodeError::Malformed(r) => Failure::Malformed {
            tool,
            at: r.at(),
            message: format!(
                "{r}. Send the arguments as one JSON object, with double-quoted keys and strings. A valid call looks like: {}",
                spec.example_call()
            ),
        },
        DecodeError::Invalid {
            ref problems,
            ref example,
            ..
        } => {
            let pointer = problems.first().map(|p| p.path.clone()).unwrap_or_default();
            let mut message = e.corrective_message();
            // The tool author's example where no corrected call could be derived — only for a
            // tool that only reads: a small model copies the example whole, and for `write` that
            // created `toolmend-example.txt` in the user's folder (the message already says which
            // field to add or fix, and to keep the others).
            if example.is_none() && spec.example.is_some() && spec.annotations.read_only {
                message.push_str(&format!(
                    "\nA valid call looks like: {}",
                    spec.example_call()
                ));
            }
            Failure::InvalidArgs {
                tool,
                pointer,
                message,
            }
        }
        other => Failure::Panicked {
            tool,
            message: other.to_string(),
        },
    }
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
