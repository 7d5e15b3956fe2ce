//! toolmend makes small and local language models usable for tool calling.
//!
//! Small models rarely emit clean function calls: they break JSON, narrate calls as prose, wrap
//! them in model-specific tags, pass `"5"` for `5`, or get cut off mid-string. toolmend turns that
//! output into correct, typed tool calls, or into a precise corrective message the model can act on.
//!
//! # Pipeline
//!
//! ```text
//! raw model text ──► extract ──► repair ──► decode ──► dispatch ──► ToolResult / corrective message
//! ```
//!
//! Every stage is usable alone: [`repair::repair`], [`extract::extract`], [`decode::decode`], the
//! tool [`tools::Registry`] and [`dispatch`]. The agent loop ([`agent`]), `toolmend serve`
//! ([`serve`]) and the BFCL evaluation ([`eval`]) all go through the same stages.
//!
//! # Key types
//!
//! - [`extract::Extraction`]: the calls found in a model's text, plus its content and reasoning.
//! - [`repair::Repaired`]: valid JSON and every [`repair::Fix`] made to get there.
//! - [`decode::Decoded`]: arguments that fit the tool's schema, with every [`decode::Coercion`].
//! - [`tools::ToolResult`]: what a dispatched call produced, or the [`tools::Failure`] and the
//!   corrective message for the model.
//!
//! # Example: a small model's fenced call, end to end
//!
//! Qwen2.5-Coder-0.5B writes its calls as a fenced JSON block instead of the `<tool_call>` tags its
//! chat template asks for, with broken JSON and a number written as a string:
//!
//! ```
//! use serde_json::json;
//! use toolmend::decode::{Decoder, Policy};
//! use toolmend::extract::{Options, ToolInfo, extract};
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
//!     "required": ["city", "days"]
//! });
//! let output = "Sure!\n```json\n{\"name\": \"forecast\", \"arguments\": {'city': 'Paris', 'days': '3',}}\n```";
//!
//! let opts = Options::new().with_tools(vec![ToolInfo::new("forecast", schema.clone())]);
//! let found = extract(output, &opts);
//! assert_eq!(found.calls.len(), 1);
//! let call = &found.calls[0];
//! assert_eq!(call.name, "forecast");
//! assert!(!call.fixes.is_empty()); // single quotes and the trailing comma were repaired
//!
//! let args = call.arguments.as_ref().expect("repaired arguments");
//! let decoded = Decoder::new(&schema)?.decode_value(args, &Policy::default())?;
//! assert_eq!(decoded.value, json!({"city": "Paris", "days": 3}));
//! assert_eq!(decoded.coercions[0].path, "/days"); // "3" → 3, reported
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod agent;
pub mod backend;
pub mod builtin;
pub mod decode;
pub mod dispatch;
pub mod eval;
pub mod extract;
pub mod repair;
pub mod schema;
pub mod serve;
pub mod tools;
