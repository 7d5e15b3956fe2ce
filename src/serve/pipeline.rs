//! The recoverer `toolmend serve` uses: toolmend's one path (extract → repair → decode) applied to
//! one choice of an answer.
//!
//! Content goes through a [`StreamExtractor`] built with the request's tools, so text is released
//! as soon as it cannot be the start of a call marker and each call as soon as its envelope is
//! complete. Arguments are decoded against the tool's schema (coerced where the schema asks); when
//! they do not validate, the call still goes out with the repaired arguments (or the model's raw
//! text when even repair fails) and the problem in the report, so the client's agent can answer
//! the model with a corrective message — OpenAI's `arguments` are not guaranteed valid either.
//! Calls to tools the request did not offer are never made: their text stays in `content`. With
//! `parallel_tool_calls: false` ([`Tools::one_call`]) only the first call found in the text is
//! made; the text of the later ones stays in `content` too, and they are reported as rejected
//! (the model can make them in its next turn). Native calls are never dropped.
//!
//! A choice that ended at the token limit (`finish_reason: "length"`) is never presented as a
//! finished call: an envelope cut off in the text stays in `content` (the extractor refuses it),
//! and a last native call whose arguments end mid-value goes out with the arguments exactly as the
//! model sent them (not completed) and the cut in its report. Complete calls before the cut are
//! recovered as usual, and the choice keeps its `"length"`.
//!
//! When a choice has calls or reasoning, whitespace left at the end of its content is dropped (as
//! [`crate::extract::Extraction`] trims it), so it is held until text follows; when nothing was
//! found, the content comes back exactly as the upstream sent it. Both the JSON and the SSE path
//! run this same code, the JSON path with the whole text in one push.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

use super::recover::{
    CallReport, ChoiceRecoverer, NativeCall, OutCall, Piece, Recover, Rejected, Tools, call_id,
};
use crate::decode::{Decoder, Policy, Raw};
use crate::extract::{Call, Event, Options, StreamExtractor, ToolInfo};

/// The recovery pipeline of `toolmend serve`.
#[derive(Debug, Clone, Default)]
pub struct Pipeline {
    policy: Policy,
}

impl Pipeline {
    /// A pipeline decoding with `policy`.
    pub fn with_policy(policy: Policy) -> Self {
        Self { policy }
    }
}

impl Recover for Pipeline {
    fn start(&self, tools: Arc<Tools>) -> Box<dyn ChoiceRecoverer> {
        let infos = tools
            .list
            .iter()
            .map(|t| ToolInfo::new(t.name.clone(), t.parameters.clone()))
            .collect();
        let opts = Options::new().with_tools(infos);
        Box::new(PipelineChoice {
            ex: Some(StreamExtractor::new(&opts)),
            tools,
            policy: self.policy.clone(),
            content_seen: String::new(),
            content: Gate::default(),
            reasoning: Gate::default(),
            made: 0,
        })
    }
}

/// Holds whitespace at the end of what has arrived until text follows, so that trailing
/// whitespace (before a call, or at the end) never reaches the client as a content delta of its
/// own; [`Gate::flush`] gives it back when the answer turns out unchanged.
#[derive(Debug, Default)]
struct Gate {
    held: String,
}

impl Gate {
    fn push(&mut self, s: &str) -> Option<String> {
        let body = s.trim_end();
        if body.is_empty() {
            self.held.push_str(s);
            return None;
        }
        let mut out = std::mem::take(&mut self.held);
        out.push_str(body);
        self.held.push_str(&s[body.len()..]);
        Some(out)
    }

    fn flush(&mut self) -> String {
        std::mem::take(&mut self.held)
    }
}

struct PipelineChoice {
    ex: Option<StreamExtractor>,
    tools: Arc<Tools>,
    policy: Policy,
    /// Every content text the extractor reported, untrimmed (to tell an answer left untouched).
    content_seen: String,
    content: Gate,
    reasoning: Gate,
    /// Calls sent out so far (with [`Tools::one_call`], only the first is).
    made: usize,
}

/// A candidate whose text goes back to `content`: a call to a tool the request did not offer, or
/// a call after the first when the request allows one.
struct Back {
    name: String,
    reason: String,
    span: std::ops::Range<usize>,
    /// The extractor kept the text in `content` already.
    shown: bool,
}

impl Back {
    fn rejected(r: &crate::extract::Rejected) -> Self {
        Self {
            name: r.name.clone(),
            reason: r.reason.to_string(),
            span: r.span.clone(),
            shown: r.shown,
        }
    }

    fn over_limit(c: &Call) -> Self {
        Self {
            name: c.name.clone(),
            reason: format!(
                "the request set parallel_tool_calls to false, so only the first call was made; call `{}` again in the next turn if it is still needed",
                c.name
            ),
            span: c.span.clone(),
            shown: false,
        }
    }
}

impl PipelineChoice {
    fn content(&mut self, s: &str, out: &mut Vec<Piece>) {
        if let Some(t) = self.content.push(s) {
            out.push(Piece::Content(t));
        }
    }

    fn reasoning(&mut self, s: &str, out: &mut Vec<Piece>) {
        if let Some(t) = self.reasoning.push(s) {
            out.push(Piece::Reasoning(t));
        }
    }

    fn event(&mut self, text: &str, e: Event, out: &mut Vec<Piece>) {
        match e {
            Event::Content(s) => {
                self.content_seen.push_str(&s);
                self.content(&s, out);
            }
            Event::Reasoning(s) => {
                self.reasoning(&s, out);
            }
            Event::Call(c) => {
                if self.allows_call() {
                    out.push(Piece::Call(self.extracted(c)));
                } else {
                    self.put_back(text, &Back::over_limit(&c), out);
                }
            }
            Event::Rejected(r) => {
                self.put_back(text, &Back::rejected(&r), out);
            }
        }
    }

    /// Whether the next call found in the text may go out (counting it when it may).
    fn allows_call(&mut self) -> bool {
        let ok = !self.tools.one_call || self.made == 0;
        self.made += usize::from(ok);
        ok
    }

    /// A candidate that is not made: its text goes back to `content` (unless the extractor
    /// already kept it there: a bare value that may be data), and it is reported as rejected.
    fn put_back(&mut self, text: &str, r: &Back, out: &mut Vec<Piece>) {
        if !r.shown
            && let Some(s) = text.get(r.span.clone())
        {
            self.content(s, out);
        }
        out.push(Piece::Rejected(Rejected {
            name: r.name.clone(),
            reason: r.reason.clone(),
        }));
    }

    fn extracted(&self, c: Call) -> OutCall {
        let mut report = CallReport {
            name: c.name.clone(),
            envelope: c.format.to_string(),
            fixes: c
                .fixes
                .iter()
                .filter_map(|f| serde_json::to_value(f).ok())
                .collect(),
            changed: true,
            ..CallReport::default()
        };
        let arguments = match c.arguments {
            Ok(v) => match self.decode(&c.name, Raw::Value(Cow::Owned(v.clone()))) {
                Ok(d) => {
                    report.coercions = coercions(&d);
                    d.value.to_string()
                }
                Err(message) => {
                    report.error = Some(message);
                    v.to_string()
                }
            },
            Err(e) => {
                report.error = Some(e.to_string());
                c.raw_arguments.clone()
            }
        };
        OutCall {
            id: c.id.unwrap_or_else(call_id),
            name: c.name,
            arguments,
            report,
        }
    }

    /// One native call: arguments repaired and decoded when the tool is known, else untouched
    /// (but always sent as a string).
    fn native(&self, n: NativeCall) -> OutCall {
        let mut report = CallReport {
            name: n.name.clone(),
            envelope: "native".into(),
            changed: n.not_a_string,
            ..CallReport::default()
        };
        let mut arguments = n.arguments;
        if self.tools.get(&n.name).is_some() {
            let text = if arguments.trim().is_empty() {
                "{}"
            } else {
                arguments.as_str()
            };
            match self.decode(&n.name, Raw::Text(text)) {
                Ok(d) if d.fixes.is_empty() && d.coercions.is_empty() && text == arguments => {}
                Ok(d) => {
                    report.fixes = d
                        .fixes
                        .iter()
                        .filter_map(|f| serde_json::to_value(f).ok())
                        .collect();
                    report.coercions = coercions(&d);
                    report.changed = true;
                    arguments = d.value.to_string();
                }
                Err(message) => report.error = Some(message),
            }
        }
        OutCall {
            id: n.id.unwrap_or_else(call_id),
            name: n.name,
            arguments,
            report,
        }
    }

    /// Decodes arguments against the schema of tool `name`; the error is the corrective message.
    fn decode(&self, name: &str, raw: Raw<'_>) -> Result<crate::decode::Decoded<Value>, String> {
        let schema = self.tools.get(name).map(|t| &t.parameters);
        let decoder = decoder_for(schema.unwrap_or(&Value::Null))?;
        decoder
            .decode_value(raw, &self.policy)
            .map_err(|e| e.to_string())
    }
}

fn coercions(d: &crate::decode::Decoded<Value>) -> Vec<Value> {
    d.coercions
        .iter()
        .map(|c| serde_json::json!({"path": c.path, "kind": c.kind, "cost": c.cost}))
        .collect()
}

/// The last native call of a choice cut off at the token limit, whose arguments end mid-value:
/// they are sent as the model wrote them, not completed into a call the model never finished,
/// with the cut in the report (the choice keeps `finish_reason: "length"`).
fn cut_native(n: NativeCall) -> OutCall {
    let reason = crate::extract::RejectReason::CutOff {
        name: n.name.clone(),
    };
    OutCall {
        id: n.id.unwrap_or_else(call_id),
        report: CallReport {
            name: n.name.clone(),
            envelope: "native".into(),
            error: Some(reason.to_string()),
            ..CallReport::default()
        },
        name: n.name,
        arguments: n.arguments,
    }
}

/// A decoder for `schema`, compiled once per distinct schema (clients send the same tools with
/// every request). A missing schema accepts any object.
fn decoder_for(schema: &Value) -> Result<Decoder, String> {
    static CACHE: OnceLock<Mutex<HashMap<String, Decoder>>> = OnceLock::new();
    const MAX: usize = 512;
    let schema = if schema.is_object() {
        Cow::Borrowed(schema)
    } else {
        Cow::Owned(serde_json::json!({"type": "object"}))
    };
    let key = schema.to_string();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(d) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(d);
    }
    let d = Decoder::new(&schema).map_err(|e| e.to_string())?;
    if let Ok(mut c) = cache.lock() {
        if c.len() >= MAX {
            c.clear();
        }
        c.insert(key, d.clone());
    }
    Ok(d)
}

impl ChoiceRecoverer for PipelineChoice {
    fn push(&mut self, text: &str, out: &mut Vec<Piece>) {
        let Some(ex) = self.ex.as_mut() else { return };
        let events = ex.push(text);
        if events.is_empty() {
            return;
        }
        // Rejected spans index the text pushed so far; the extractor keeps it.
        let all = self
            .ex
            .as_ref()
            .map(|e| e.text().to_owned())
            .unwrap_or_default();
        for e in events {
            self.event(&all, e, out);
        }
    }

    fn finish(&mut self, natives: Vec<NativeCall>, cut_off: bool, out: &mut Vec<Piece>) {
        if let Some(ex) = self.ex.take() {
            let text = ex.text().to_owned();
            // What the extractor still held, in text order: content, calls and refused calls
            // where they stand (a refused envelope's text after the content before it).
            let (events, x) = ex.finish_with_events();
            let untouched = x.calls.is_empty()
                && x.rejected.is_empty()
                && x.reasoning.is_empty()
                && x.content == text.trim()
                && text.starts_with(&self.content_seen);
            if untouched {
                // Nothing found: the content is the text, to the byte.
                let mut rest = self.content.flush();
                rest.push_str(text.get(self.content_seen.len()..).unwrap_or_default());
                if !rest.is_empty() {
                    out.push(Piece::Content(rest));
                }
            } else {
                for e in events {
                    self.event(&text, e, out);
                }
            }
        }
        let last = natives.len().saturating_sub(1);
        for (i, n) in natives.into_iter().enumerate() {
            let call = if cut_off && i == last && crate::extract::ends_mid_value(&n.arguments) {
                cut_native(n)
            } else {
                self.native(n)
            };
            out.push(Piece::Call(call));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_holds_only_trailing_whitespace_in_any_chunking() {
        let text = "  \n Sure.\n\n Let me   check. \n ";
        for n in 1..text.len() {
            let mut g = Gate::default();
            let mut out = String::new();
            for c in text.as_bytes().chunks(n) {
                if let Some(s) = g.push(std::str::from_utf8(c).unwrap()) {
                    out.push_str(&s);
                }
            }
            assert_eq!(out, text.trim_end(), "chunks of {n}");
            assert_eq!(out + &g.flush(), text);
        }
    }
}
