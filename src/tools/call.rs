//! `ToolCall`: one call the model made, whether a backend reported it natively or the extractor
//! found it in text. Both kinds go through exactly the same dispatch code.

use serde_json::Value;

use crate::backend::NativeToolCall;
use crate::repair::Fix;

/// The arguments of a call as the model gave them.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum Arguments {
    /// Already a JSON value (a native call's object, or arguments the extractor repaired).
    Value(Value),
    /// JSON text, possibly broken (a native call whose `arguments` is a string).
    Text(String),
}

/// Where a call came from. Kept for transcripts and reports; dispatch never branches on it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CallSource {
    /// Reported natively by a backend (`tool_calls`).
    Native,
    /// Found in the model's text by the extractor.
    Extracted {
        /// The raw text of the call as the model wrote it.
        raw: String,
        /// What repair changed to get the arguments.
        fixes: Vec<Fix>,
    },
    /// Built by a program (the CLI's `call`, tests).
    Direct,
}

/// One tool call to dispatch.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ToolCall {
    /// The call's id; when `None` the dispatcher assigns `call_<n>` (n counts calls in the task).
    pub id: Option<String>,
    /// The tool name as the model wrote it.
    pub name: String,
    /// The arguments as the model gave them.
    pub arguments: Arguments,
    /// Where the call came from.
    pub source: CallSource,
}

impl ToolCall {
    /// A call built by a program, with arguments that are already a value.
    pub fn new(name: impl Into<String>, arguments: Value) -> Self {
        Self {
            id: None,
            name: name.into(),
            arguments: Arguments::Value(arguments),
            source: CallSource::Direct,
        }
    }

    /// A call the extractor found in text: the name, the repaired arguments, the raw call text
    /// and the fixes repair made.
    pub fn extracted(
        name: impl Into<String>,
        arguments: Value,
        raw: impl Into<String>,
        fixes: Vec<Fix>,
    ) -> Self {
        Self {
            id: None,
            name: name.into(),
            arguments: Arguments::Value(arguments),
            source: CallSource::Extracted {
                raw: raw.into(),
                fixes,
            },
        }
    }

    /// Sets the call id.
    #[must_use]
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }
}

impl From<NativeToolCall> for ToolCall {
    /// A backend's native call. String arguments stay text, so dispatch repairs them exactly as it
    /// would repair extracted text.
    fn from(c: NativeToolCall) -> Self {
        let arguments = match c.arguments {
            Value::String(s) => Arguments::Text(s),
            v => Arguments::Value(v),
        };
        Self {
            id: c.id,
            name: c.name,
            arguments,
            source: CallSource::Native,
        }
    }
}

impl From<&NativeToolCall> for ToolCall {
    fn from(c: &NativeToolCall) -> Self {
        c.clone().into()
    }
}

impl From<&crate::extract::Call> for ToolCall {
    /// A call the extractor found. Arguments repair could not fix stay text, so dispatch reports
    /// them as `Malformed` with repair's message.
    fn from(c: &crate::extract::Call) -> Self {
        let arguments = match &c.arguments {
            Ok(v) => Arguments::Value(v.clone()),
            Err(_) => Arguments::Text(c.raw_arguments.clone()),
        };
        Self {
            id: c.id.clone(),
            name: c.name.clone(),
            arguments,
            source: CallSource::Extracted {
                raw: c.raw_arguments.clone(),
                fixes: c.fixes.clone(),
            },
        }
    }
}
