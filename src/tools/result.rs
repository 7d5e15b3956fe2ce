//! What a tool returns (`Output`) and what dispatch hands back for each call (`ToolResult`).

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use super::{Effect, Failure};

/// How list-like results are rendered for the model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputFormat {
    /// Human-readable lines (the default; small models read these best).
    #[default]
    Labeled,
    /// The structured data as compact JSON text.
    Json,
}

/// A successful tool run: model-facing text, structured data, and what it touched.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Output {
    /// Text for the model.
    pub text: String,
    /// Structured data for persistence (`null` when the text says it all).
    pub data: Value,
    /// Changes the tool made.
    pub effects: Vec<Effect>,
    /// Paths the result depends on; an effect on one of them (or below or above it) invalidates
    /// the memoised result. Empty: any effect invalidates it.
    pub reads: Vec<PathBuf>,
    /// True when the result is a list whose `data` can be shown as JSON under
    /// [`OutputFormat::Json`].
    pub list: bool,
}

impl Output {
    /// A plain text result.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            ..Self::default()
        }
    }

    /// A list result: `labeled` is the human-readable form, `data` the structured one (a JSON
    /// array) shown instead under [`OutputFormat::Json`].
    pub fn list(labeled: impl Into<String>, data: Value) -> Self {
        Self {
            text: labeled.into(),
            data,
            list: true,
            ..Self::default()
        }
    }

    /// Sets the structured data.
    #[must_use]
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = data;
        self
    }

    /// Adds an effect.
    #[must_use]
    pub fn with_effect(mut self, effect: Effect) -> Self {
        self.effects.push(effect);
        self
    }

    /// Records a path the result depends on.
    #[must_use]
    pub fn reading(mut self, path: impl Into<PathBuf>) -> Self {
        self.reads.push(path.into());
        self
    }

    /// The model-facing text in `format`.
    pub fn render(&self, format: OutputFormat) -> String {
        match format {
            OutputFormat::Json if self.list => self.data.to_string(),
            _ => self.text.clone(),
        }
    }
}

/// The outcome of one call, as dispatch reports it to the agent loop.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ToolResult {
    /// The call's id (the backend's, or `call_<n>` assigned by the dispatcher).
    pub call_id: String,
    /// The tool name as called.
    pub name: String,
    /// Model-facing text: the result, or the corrective message on failure. Capped in size.
    pub output: String,
    /// Structured data for persistence (`null` on failure).
    pub data: Value,
    /// Why the call failed, if it did.
    pub failure: Option<Failure>,
    /// Changes the call made.
    pub effects: Vec<Effect>,
    /// Wall time from dispatch to result.
    #[serde(serialize_with = "ser_ms", rename = "duration_ms")]
    pub duration: Duration,
    /// How many times the tool ran (world failures are retried; 0 = not run, e.g. memo hit).
    pub attempts: u32,
    /// True when the result came from the memo instead of a run.
    pub cached: bool,
    /// True when `output` was cut to the size cap.
    pub truncated: bool,
    /// What decoding changed in the arguments (empty: used as sent).
    pub coercions: Vec<crate::decode::Coercion>,
    /// The name the model wrote, when it is no tool's and the dispatcher ran the read-only tool
    /// the call clearly meant (`name`; see [`crate::dispatch::Policy::run_meant_read_only`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub called_as: Option<String>,
    /// The arguments `name` ran with, when `called_as` is set: the model's own, those of the
    /// call it copied under its name, or those its name means. With `name` they are the call
    /// that ran, which the model never wrote.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ran_with: Option<Value>,
}

fn ser_ms<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64() * 1000.0)
}

impl ToolResult {
    /// True when the call succeeded.
    pub fn is_ok(&self) -> bool {
        self.failure.is_none()
    }

    /// True when this result ends the turn (a policy failure).
    pub fn ends_turn(&self) -> bool {
        self.failure.as_ref().is_some_and(Failure::ends_turn)
    }
}
