//! Tool-call extraction: finds the calls a model wrote in its text, in any envelope family, and
//! returns them with the surrounding content and reasoning kept apart.
//!
//! [`extract`] scans the text once for the start markers of every envelope family (an
//! Aho-Corasick automaton; prose without markers is skipped at memory speed), hands each marker to
//! the family's parser (one file per family group, see [`Format`] for the literal syntax), and
//! passes every call's arguments through [`crate::repair::repair`]. Text outside calls is
//! returned as `content`, think blocks as `reasoning`. The text is never rewritten: each call
//! keeps its byte span in the input and its raw argument text.
//!
//! # Auto-detection order
//! With [`FormatHint::Auto`] every family's markers are searched at once and the **leftmost**
//! marker wins; where two markers start at the same byte the **longest** wins, so
//! `<tool_calls>` beats `<tool_call>`, `<|tool_call_start|>` beats `<|tool_call|>`, and
//! `[TOOL_CALLS]` beats a bare `[`. Markers shared by several families are told apart by what
//! follows them:
//! - `<tool_call>` then `{` / `[` → hermes; then `<function=` → qwen3-coder-xml; then a name and
//!   `<arg_key>` → glm45-xml; then a name and `<tool_sep>` → hunyuan-v3.
//! - `<tool_calls>` then `[` → tool-calls-array; then `<tool_call>` → hunyuan-v3; then `{` →
//!   minimax-v1.
//! - `<|tool_call_start|>` then `[{` → lfm2-json; otherwise → lfm2-pythonic.
//! - `<function=` then `{` → functionary-v3.1; otherwise → qwen3-coder-xml without its wrapper.
//! - `<｜tool▁call▁begin｜>` then `function<｜tool▁sep｜>` → deepseek-v3; otherwise → deepseek-v3.1.
//! - `[TOOL_CALLS]` then `[` → mistral-json-array; then a name → mistral-v11.
//! - A bare `{` or `[` is tried last of all at its position: a JSON value that has the shape of
//!   a call (a name key and an arguments key, or OpenAI's nested `{"type": "function", …}`) is a
//!   call; any other JSON (and anything that is not JSON) stays content. A tool *definition*
//!   (a `description` beside a schema-shaped `parameters`, no `arguments`) is never a call, nor
//!   is anything inside `<tools>…</tools>` but a call with an `arguments` key.
//!
//! Families with no marker of their own (functionary-v3.2's first-line form, Python fenced
//! blocks, prose recovery) are only tried when the hint names them or a tool list makes the
//! name known.
//!
//! # Calls whose arguments cannot be repaired
//! They are **not** dropped: they stay in [`Extraction::calls`] with `arguments: Err(…)`, so the
//! dispatcher can answer the model with a corrective "malformed arguments" message for exactly
//! that call, in order. [`Extraction::rejected`] holds calls refused for their *name* (unknown
//! tool, with a did-you-mean).
//!
//! # Example
//! ```
//! use toolmend::extract::{extract, Options};
//! let out = extract(
//!     "Sure.<tool_call>{\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}</tool_call>",
//!     &Options::default(),
//! );
//! assert_eq!(out.calls.len(), 1);
//! assert_eq!(out.calls[0].name, "ls");
//! assert_eq!(out.calls[0].arguments.as_ref().unwrap()["path"], ".");
//! assert_eq!(out.content, "Sure.");
//! ```

mod finish;
mod format;
mod scan;
mod stream;
mod value;
mod wrapper;

mod deepseek;
mod fenced;
mod gemma;
mod harmony;
mod json_tags;
mod kimi;
mod mistral;
mod pythonic;
mod reasoning;
mod tool_call_tag;
mod xml;

use std::ops::Range;

use serde::Serialize;
use serde_json::Value;

use crate::repair::{Fix, RepairError};

pub(crate) use finish::{ends_mid_value, resolve_alias, squash};
pub use format::{Format, UnknownFormat};
pub use stream::{Event, StreamExtractor};

/// Which envelope family to look for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum FormatHint {
    /// Detect from the text (see the module docs for the order).
    #[default]
    Auto,
    /// Only this family (plus think blocks). For users who know their model.
    Family(Format),
}

impl std::str::FromStr for FormatHint {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case("auto") {
            Ok(Self::Auto)
        } else {
            s.parse().map(Self::Family)
        }
    }
}

/// A tool the model may call: its name and its JSON-Schema `parameters` object.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ToolInfo {
    /// The tool's name as the model must write it.
    pub name: String,
    /// JSON Schema of the arguments object (`{"type": "object", "properties": …}`); `null` if unknown.
    #[serde(default)]
    pub parameters: Value,
}

impl ToolInfo {
    /// A tool with the given name and parameter schema.
    #[must_use]
    pub fn new(name: impl Into<String>, parameters: Value) -> Self {
        Self {
            name: name.into(),
            parameters,
        }
    }

    /// The JSON-Schema `type` of parameter `key`, when the schema declares one.
    pub(crate) fn param_type(&self, key: &str) -> Option<&str> {
        let t = self.parameters.get("properties")?.get(key)?.get("type")?;
        match t {
            Value::String(s) => Some(s),
            // `["string", "null"]`: the first non-null type decides.
            Value::Array(a) => a.iter().filter_map(Value::as_str).find(|s| *s != "null"),
            _ => None,
        }
    }
}

/// What to look for and what is known about the conversation.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Options {
    /// The family to look for; [`FormatHint::Auto`] by default.
    pub format: FormatHint,
    /// The tools offered to the model. `None`: any name is accepted.
    pub tools: Option<Vec<ToolInfo>>,
    /// The prompt already opened a think block: text up to the first close marker is reasoning.
    pub think_prefilled: bool,
    /// Keep think blocks (markers included) in `content` instead of `reasoning`, as llama.cpp's
    /// `reasoning_format: none` does. Calls inside them are still never returned.
    pub reasoning_in_content: bool,
    /// Drop the text written after the first call from `content` (as vLLM's tool parsers do):
    /// once a model has called, what follows is usually an invented tool result. Off by default.
    pub drop_text_after_calls: bool,
    /// The text is a prefix of a longer output (a mid-stream snapshot): a call cut off by the end
    /// of the text is returned as a call (its arguments repaired as far as they go) instead of
    /// being rejected as cut off.
    pub partial: bool,
    /// Refuse every name that is not exactly in the tool list. Off by default: with a tool list,
    /// a name that clearly means one tool is resolved to it and the call reports the name the
    /// model wrote in [`Call::renamed_from`] — the same name up to case and separators
    /// (`get-weather`), the tool's name plus a generic noun (`read_file` for `read`), or the last
    /// dotted segment on either side (`functions.get_weather`, `find_group` for
    /// `restaurant.find_group`); only when exactly one tool fits. Typos are not resolved: they
    /// are refused with a did-you-mean.
    pub exact_names: bool,
}

impl Options {
    /// Auto-detection, no tool list, no prefilled think block (same as `default()`).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the format hint.
    #[must_use]
    pub fn with_format(mut self, format: FormatHint) -> Self {
        self.format = format;
        self
    }

    /// Sets the tool list: unknown names are rejected, raw-text values are typed from the schemas.
    #[must_use]
    pub fn with_tools(mut self, tools: Vec<ToolInfo>) -> Self {
        self.tools = Some(tools);
        self
    }

    /// Says whether the prompt already opened a think block.
    #[must_use]
    pub fn with_think_prefilled(mut self, yes: bool) -> Self {
        self.think_prefilled = yes;
        self
    }

    /// Keeps think blocks in `content` (llama.cpp's `reasoning_format: none`).
    #[must_use]
    pub fn with_reasoning_in_content(mut self, yes: bool) -> Self {
        self.reasoning_in_content = yes;
        self
    }

    /// Drops the text written after the first call from `content`.
    #[must_use]
    pub fn with_drop_text_after_calls(mut self, yes: bool) -> Self {
        self.drop_text_after_calls = yes;
        self
    }

    /// Says whether the text is a prefix of a longer output.
    #[must_use]
    pub fn with_partial(mut self, yes: bool) -> Self {
        self.partial = yes;
        self
    }

    /// Sets whether only exact tool names are accepted (see [`Options::exact_names`]).
    #[must_use]
    pub fn with_exact_names(mut self, yes: bool) -> Self {
        self.exact_names = yes;
        self
    }

    pub(crate) fn tool(&self, name: &str) -> Option<&ToolInfo> {
        self.tools.as_ref()?.iter().find(|t| t.name == name)
    }

    /// The listed tool `name` means: the tool of that name, or (unless names must be exact) the
    /// one tool its alias resolves to (see [`Options::exact_names`]).
    pub(crate) fn resolved_tool(&self, name: &str) -> Option<&ToolInfo> {
        let tools = self.tools.as_ref()?;
        self.tool(name).or_else(|| {
            if self.exact_names {
                return None;
            }
            let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
            self.tool(finish::resolve_alias(name, &names)?)
        })
    }

    /// The parameter of the listed tool `name` means that the lone value `v`, written where the
    /// arguments object belongs, is for (E28): the tool's one parameter; else its one required
    /// parameter, when `v`'s JSON type is the one that parameter declares (`"a.txt"` for
    /// `read`'s `path`, beside an optional `limit`).
    pub(crate) fn lone_parameter(&self, name: &str, v: &Value) -> Option<&str> {
        let params = &self.resolved_tool(name)?.parameters;
        let props = params.get("properties")?.as_object()?;
        if props.len() == 1 {
            return props.keys().next().map(String::as_str);
        }
        let mut required = params
            .get("required")?
            .as_array()?
            .iter()
            .filter_map(Value::as_str)
            .filter(|r| props.contains_key(*r));
        let (p, None) = (required.next()?, required.next()) else {
            return None;
        };
        let fits = |ty: &str| match (ty, v) {
            ("string", Value::String(_))
            | ("boolean", Value::Bool(_))
            | ("array", Value::Array(_))
            | ("number", Value::Number(_)) => true,
            ("integer", Value::Number(n)) => n.is_i64() || n.is_u64(),
            _ => false,
        };
        let declared = props.get(p)?.get("type")?;
        let ok = match declared {
            Value::String(t) => fits(t),
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(fits),
            _ => false,
        };
        ok.then(|| props.get_key_value(p).map(|(k, _)| k.as_str()))?
    }

    /// The parameters of the listed tool `name` means, in its schema's order (the order
    /// Python-style positional arguments bind in, E30).
    pub(crate) fn parameter_names(&self, name: &str) -> Option<Vec<&str>> {
        let props = self
            .resolved_tool(name)?
            .parameters
            .get("properties")?
            .as_object()?;
        Some(props.keys().map(String::as_str).collect())
    }

    /// True when the tool list has `name` and its schema requires no argument.
    pub(crate) fn takes_no_args(&self, name: &str) -> bool {
        self.tool(name).is_some_and(|t| {
            t.parameters.is_object()
                && t.parameters
                    .get("required")
                    .and_then(Value::as_array)
                    .is_none_or(Vec::is_empty)
        })
    }

    pub(crate) fn knows(&self, name: &str) -> bool {
        self.tool(name).is_some()
    }
}

/// Why a call's arguments could not be turned into JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the arguments of `{name}` at byte {at} are not valid JSON and could not be repaired ({source}); \
     write them again as one JSON object"
)]
pub struct ArgumentsError {
    /// The tool the model tried to call.
    pub name: String,
    /// Byte offset of the raw arguments in the input.
    pub at: usize,
    /// What repair said.
    pub source: RepairError,
}

/// One tool call found in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The tool's name.
    pub name: String,
    /// The arguments after [`crate::repair::repair`], or why they could not be repaired.
    pub arguments: Result<Value, ArgumentsError>,
    /// The model's own text for the arguments (for JSON envelopes that write name and arguments
    /// in one object, the whole object).
    pub raw_arguments: String,
    /// The envelope family the call was written in.
    pub format: Format,
    /// Byte span of the whole call (envelope included) in the input.
    pub span: Range<usize>,
    /// Every change repair made to the arguments, with offsets into the input.
    pub fixes: Vec<Fix>,
    /// The call id, when the model wrote one (`"id"`, `tool_call_id`, kimi's `functions.f:0`).
    pub id: Option<String>,
    /// The name the model wrote, when it was resolved to a tool of the list (see
    /// [`Options::exact_names`]).
    pub renamed_from: Option<String>,
}

impl Serialize for Call {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("name", &self.name)?;
        match &self.arguments {
            Ok(v) => m.serialize_entry("arguments", v)?,
            Err(e) => {
                m.serialize_entry("arguments", &Value::Null)?;
                m.serialize_entry("error", &e.to_string())?;
            }
        }
        m.serialize_entry("raw_arguments", &self.raw_arguments)?;
        m.serialize_entry("format", &self.format)?;
        m.serialize_entry("span", &[self.span.start, self.span.end])?;
        m.serialize_entry("fixes", &self.fixes)?;
        if let Some(id) = &self.id {
            m.serialize_entry("id", id)?;
        }
        if let Some(n) = &self.renamed_from {
            m.serialize_entry("renamed_from", n)?;
        }
        m.end()
    }
}

/// Why a call was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RejectReason {
    /// The name is not in the tool list.
    #[error("there is no tool named `{name}`{}; the tools are: {}",
        suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default(),
        known.join(", "))]
    UnknownTool {
        /// The name the model wrote.
        name: String,
        /// The closest known name, when one is close.
        suggestion: Option<String>,
        /// Every known name.
        known: Vec<String>,
    },
    /// The call names a tool but carries no arguments object (no arguments key, or arguments
    /// that are a plain string), and the tool is not known to take none. Members written beside
    /// the name are its arguments only when the tool list has each as a parameter (E27); the
    /// message names those it does not.
    #[error(
        "the call to `{name}` has no arguments object{}; write the call again with its arguments as a JSON object ({{}} when the tool takes none)",
        no_arguments_detail(name, strays, parameters)
    )]
    NoArguments {
        /// The name the model wrote.
        name: String,
        /// Members written beside the name that are no parameter of the tool (empty when there
        /// were none, or the tool is not listed).
        strays: Vec<String>,
        /// The tool's parameter names, from the tool list (empty when it has none).
        parameters: Vec<String>,
    },
    /// A Python-style call in a closed envelope gives more positional values than the listed
    /// tool has parameters (`ls("notes", "extra")` for `ls(path)`): which value is which
    /// cannot be known.
    #[error(
        "the call to `{name}` gives {given} values, but `{name}` takes {}; write the call again with its arguments as a JSON object, each value under its parameter's name",
        takes(parameters)
    )]
    TooManyValues {
        /// The name the model wrote.
        name: String,
        /// How many positional values the call gives.
        given: usize,
        /// The tool's parameter names, from the tool list, in its schema's order.
        parameters: Vec<String>,
    },
    /// The output ended inside the call's arguments (e.g. the token limit was reached).
    #[error(
        "the call to `{name}` was cut off before its arguments were complete; write the whole call again"
    )]
    CutOff {
        /// The name the model wrote.
        name: String,
    },
}

/// What a tool takes, for [`RejectReason::TooManyValues`]'s message: `no arguments`,
/// ``1 parameter (`path`)``, ``2 parameters (`path`, `offset`)``.
fn takes(parameters: &[String]) -> String {
    match parameters.len() {
        0 => "no arguments".into(),
        n => format!(
            "{n} parameter{} ({})",
            if n == 1 { "" } else { "s" },
            quoted(parameters)
        ),
    }
}

/// Names in backticks, separated by commas: ``"`path`, `offset`"``.
fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The middle of [`RejectReason::NoArguments`]'s message: which members beside the name are no
/// parameter of the tool, and what its parameters are.
fn no_arguments_detail(name: &str, strays: &[String], parameters: &[String]) -> String {
    match (strays.len(), parameters.is_empty()) {
        (0, _) => String::new(),
        (n, no_params) => {
            let verb = if n == 1 {
                "is no parameter"
            } else {
                "are no parameters"
            };
            let params = if no_params {
                String::new()
            } else {
                format!(" (its parameters: {})", quoted(parameters))
            };
            format!(" — {} {verb} of `{name}`{params}", quoted(strays))
        }
    }
}

/// A call that was found but refused.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejected {
    /// The name the model wrote.
    pub name: String,
    /// Why it was refused (its `Display` is a corrective message for the model).
    pub reason: RejectReason,
    /// The envelope family.
    pub format: Format,
    /// Byte span in the input.
    pub span: Range<usize>,
    /// The model's raw text for the call's arguments.
    pub raw_arguments: String,
    /// True when the call's text is also in `content`: a bare JSON object or list naming no
    /// offered tool may be data the model meant to show, so a UI shows it as written (and a
    /// loop can still answer the refusal).
    pub shown: bool,
}

impl Serialize for Rejected {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("name", &self.name)?;
        m.serialize_entry("reason", &self.reason.to_string())?;
        if let RejectReason::UnknownTool {
            suggestion: Some(s),
            ..
        } = &self.reason
        {
            m.serialize_entry("did_you_mean", s)?;
        }
        m.serialize_entry("format", &self.format)?;
        m.serialize_entry("span", &[self.span.start, self.span.end])?;
        m.serialize_entry("raw_arguments", &self.raw_arguments)?;
        m.serialize_entry("shown", &self.shown)?;
        m.end()
    }
}

/// Everything found in one model output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Extraction {
    /// The calls, in the order written; an exactly repeated call appears once.
    pub calls: Vec<Call>,
    /// Text outside calls and reasoning, trimmed, for a UI to show.
    pub content: String,
    /// The text of think blocks (and of Harmony's analysis channel), trimmed.
    pub reasoning: String,
    /// Calls refused for their name.
    pub rejected: Vec<Rejected>,
}

/// Finds every tool call in `text`.
///
/// Never panics, runs in time linear in `text.len()` and never invents a call: prose without an
/// envelope or a known tool name yields no call, and a call inside a think block is reasoning.
#[must_use]
pub fn extract(text: &str, opts: &Options) -> Extraction {
    if let Some(end) = scan::plain_text_end(opts, text) {
        // No marker anywhere: the text is the content (what the scanner would give, faster).
        return Extraction {
            content: text[..end].trim().to_owned(),
            ..Extraction::default()
        };
    }
    let mut scanner = scan::Scanner::new(opts);
    let mut fin = finish::Finisher::new(opts);
    scanner.advance(text, true, &mut |p| {
        fin.absorb(text, p);
    });
    fin.into_extraction()
}
