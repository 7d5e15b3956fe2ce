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
//! tool [`tools::Registry`] and [`dispatch`].

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
