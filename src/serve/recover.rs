//! What toolmend does to one choice of an answer: the calls it recovers, as pieces in order.
//!
//! A [`ChoiceRecoverer`] is fed the text of one choice (all at once for a JSON answer, delta by
//! delta for a stream) and the upstream's native calls when the choice ends, and reports
//! [`Piece`]s: content that is certainly not part of a call, reasoning, complete calls, rejected
//! candidates. The JSON and the SSE paths both assemble the answer from these pieces, so the two
//! cannot disagree as long as the recoverer gives the same pieces for any chunking of the text.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;

/// A tool the client offered in its request (`tools[].function`).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSchema {
    /// The function name.
    pub name: String,
    /// The JSON Schema of its arguments (`{}` when absent).
    pub parameters: serde_json::Value,
}

/// The tools of one request whose calls toolmend recovers, and how many calls it allows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tools {
    /// The functions offered.
    pub list: Vec<ToolSchema>,
    /// At most one call per choice (`parallel_tool_calls: false`): only the first call found in
    /// the text is recovered; the text of later ones stays in `content`, and they are reported as
    /// rejected. Native calls the upstream sent are never dropped.
    pub one_call: bool,
}

impl Tools {
    /// Reads the `tools` array of a chat request; entries that are not `{"type": "function",
    /// "function": {"name": …}}` are ignored (they cannot be called through `tool_calls`).
    pub fn from_request(tools: &[serde_json::Value]) -> Self {
        let list = tools
            .iter()
            .filter_map(|t| {
                let f = t.get("function")?;
                let name = f.get("name")?.as_str()?.to_owned();
                let parameters = f
                    .get("parameters")
                    .cloned()
                    .unwrap_or_else(|| serde_json::json!({}));
                Some(ToolSchema { name, parameters })
            })
            .collect();
        Self {
            list,
            one_call: false,
        }
    }

    /// The tools whose calls toolmend recovers for a request offering `tools` with `tool_choice`
    /// (OpenAI's rules): `"none"` forbids calls, so nothing is recovered (`None`: the answer passes
    /// through untouched, envelopes stay in `content`); a named function
    /// (`{"type": "function", "function": {"name": …}}`) allows only that one, so only its calls
    /// are recovered and calls to the other tools stay in `content` as text; `"auto"`,
    /// `"required"`, or no `tool_choice` allow every function offered. Native calls the upstream
    /// sent are not filtered: they are the upstream's answer. `parallel_tool_calls: false` sets
    /// [`Tools::one_call`].
    pub fn for_request(
        tools: &[serde_json::Value],
        tool_choice: Option<&serde_json::Value>,
        parallel_tool_calls: Option<bool>,
    ) -> Option<Self> {
        let mut all = Self::from_request(tools);
        all.one_call = parallel_tool_calls == Some(false);
        match tool_choice {
            Some(serde_json::Value::String(s)) if s == "none" => None,
            Some(c @ serde_json::Value::Object(_)) => {
                let name = c
                    .get("function")
                    .and_then(|f| f.get("name"))
                    .and_then(serde_json::Value::as_str)?;
                all.list.retain(|t| t.name == name);
                (!all.list.is_empty()).then_some(all)
            }
            _ => Some(all),
        }
    }

    /// The schema of the tool called `name`.
    pub fn get(&self, name: &str) -> Option<&ToolSchema> {
        self.list.iter().find(|t| t.name == name)
    }
}

/// A call as the upstream reported it in `tool_calls` (arguments possibly broken).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NativeCall {
    /// The upstream's id.
    pub id: Option<String>,
    /// The function name.
    pub name: String,
    /// The arguments text as sent (arguments sent as a JSON value are serialised).
    pub arguments: String,
    /// True when the upstream sent `arguments` as a JSON value instead of a string: OpenAI's
    /// `arguments` is a string, so the call goes out rewritten even when nothing else changes.
    pub not_a_string: bool,
}

/// A call ready to go out as a `tool_calls` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct OutCall {
    /// `call_…` id (the upstream's, for a native call that had one).
    pub id: String,
    /// The function name.
    pub name: String,
    /// The arguments as a JSON text.
    pub arguments: String,
    /// What was done to produce it.
    pub report: CallReport,
}

/// What toolmend did to one call, for `--report`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CallReport {
    /// The function name.
    pub name: String,
    /// Where the call came from: the envelope family, or `native`.
    pub envelope: String,
    /// Repairs applied to the arguments text (`{"kind", "at"}`).
    pub fixes: Vec<serde_json::Value>,
    /// Coercions applied to the arguments value (`{"path", "kind", "cost"}`).
    pub coercions: Vec<serde_json::Value>,
    /// True when the call differs from what the upstream sent (always true for a recovered call).
    pub changed: bool,
    /// Why the arguments do not validate against the tool's schema (the corrective message), when
    /// they do not; the call is still sent, with the repaired arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A candidate call toolmend did not turn into a `tool_calls` entry, and why.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Rejected {
    /// The name the model wrote, when one was found.
    pub name: String,
    /// Why it was not accepted (the corrective message).
    pub reason: String,
}

/// One output of a [`ChoiceRecoverer`], in answer order.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    /// Text that stays in `content`.
    Content(String),
    /// Text that goes to `reasoning_content`.
    Reasoning(String),
    /// A complete call.
    Call(OutCall),
    /// A candidate that was not accepted (its text stays in `content`).
    Rejected(Rejected),
}

/// Recovers the calls of one choice, incrementally.
pub trait ChoiceRecoverer: Send {
    /// Feeds the next piece of the choice's `content`.
    fn push(&mut self, text: &str, out: &mut Vec<Piece>);
    /// Ends the choice; `natives` are the calls the upstream reported for it, `cut_off` is true
    /// when the choice ended at the token limit (`finish_reason: "length"`), so its last call may
    /// be incomplete.
    fn finish(&mut self, natives: Vec<NativeCall>, cut_off: bool, out: &mut Vec<Piece>);
}

/// Makes a [`ChoiceRecoverer`] per choice, for the tools of one request.
pub trait Recover: Send + Sync {
    /// A recoverer for one choice of an answer to a request offering `tools`.
    fn start(&self, tools: Arc<Tools>) -> Box<dyn ChoiceRecoverer>;
}

/// A fresh call id, `call_` and 24 hex digits, unique within the process and unpredictable across
/// processes.
pub fn call_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    static SEED: std::sync::OnceLock<std::collections::hash_map::RandomState> =
        std::sync::OnceLock::new();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut h = SEED.get_or_init(Default::default).build_hasher();
    h.write_u64(n);
    format!("call_{:016x}{:08x}", h.finish(), n as u32)
}

/// A choice's pieces assembled into the parts of a message.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Assembled {
    /// The content pieces joined.
    pub content: String,
    /// The reasoning pieces joined (`None` when there were none).
    pub reasoning: Option<String>,
    /// The calls, in order.
    pub calls: Vec<OutCall>,
    /// The rejected candidates.
    pub rejected: Vec<Rejected>,
}

impl Assembled {
    /// Joins `pieces`.
    pub fn from_pieces(pieces: Vec<Piece>) -> Self {
        let mut a = Self::default();
        for p in pieces {
            match p {
                Piece::Content(s) => a.content.push_str(&s),
                Piece::Reasoning(s) => a.reasoning.get_or_insert_with(String::new).push_str(&s),
                Piece::Call(c) => a.calls.push(c),
                Piece::Rejected(r) => a.rejected.push(r),
            }
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_ids_are_unique_and_openai_shaped() {
        let a = call_id();
        let b = call_id();
        assert_ne!(a, b);
        assert!(a.starts_with("call_") && a.len() == 29, "{a}");
    }

    #[test]
    fn tools_are_read_from_the_request_and_odd_entries_ignored() {
        let t = Tools::from_request(&[
            serde_json::json!({"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}),
            serde_json::json!({"type": "function", "function": {"name": "g"}}),
            serde_json::json!({"type": "web_search"}),
        ]);
        assert_eq!(t.list.len(), 2);
        assert!(!t.one_call);
        assert_eq!(t.get("g").unwrap().parameters, serde_json::json!({}));
        assert!(t.get("web_search").is_none());
    }

    #[test]
    fn tool_choice_narrows_the_tools_recovered() {
        let tools = [
            serde_json::json!({"type": "function", "function": {"name": "f"}}),
            serde_json::json!({"type": "function", "function": {"name": "g"}}),
        ];
        let names = |c: Option<serde_json::Value>| {
            Tools::for_request(&tools, c.as_ref(), None)
                .map(|t| t.list.into_iter().map(|t| t.name).collect::<Vec<_>>())
        };
        let both = Some(vec!["f".to_owned(), "g".to_owned()]);
        assert_eq!(names(None), both);
        assert_eq!(names(Some("auto".into())), both);
        assert_eq!(names(Some("required".into())), both);
        assert_eq!(names(Some("none".into())), None);
        let g = serde_json::json!({"type": "function", "function": {"name": "g"}});
        assert_eq!(names(Some(g)), Some(vec!["g".to_owned()]));
        let h = serde_json::json!({"type": "function", "function": {"name": "h"}});
        assert_eq!(names(Some(h)), None);
        for (parallel, one) in [(None, false), (Some(true), false), (Some(false), true)] {
            let t = Tools::for_request(&tools, None, parallel).unwrap();
            assert_eq!(t.one_call, one, "{parallel:?}");
        }
    }
}
