//! Rewriting a streamed (SSE) chat completion event by event.
//!
//! Each choice's `delta.content` goes through its [`ChoiceRecoverer`] as it arrives: content the
//! recoverer releases (text that can no longer be the start of a call) is forwarded at once, each
//! call goes out as one `tool_calls` delta when it is complete, and the choice's last chunk carries
//! `finish_reason: "tool_calls"` when it made calls (but `"length"` stays: see
//! [`finish_reason`]). Native `tool_calls` fragments are gathered and
//! sent, repaired, when the choice ends. An event that nothing changes is forwarded byte for byte.

use std::collections::BTreeMap;
use std::sync::Arc;

use bytes::Bytes;
use serde_json::{Map, Value};

use super::error::UpstreamError;
use super::recover::{CallReport, ChoiceRecoverer, NativeCall, Piece, Recover, Rejected, Tools};
use super::rewrite::{finish_reason, is_cut_off, is_plain_content};
use super::sse::SseEvent;

/// The rewriting state of one streamed answer.
pub struct StreamRewriter {
    tools: Arc<Tools>,
    recover: Arc<dyn Recover>,
    report: bool,
    choices: BTreeMap<u64, ChoiceState>,
    /// The last chunk's top-level fields, for chunks toolmend has to make up at the end.
    template: Map<String, Value>,
    done: bool,
    /// Calls recovered or repaired so far.
    pub calls_recovered: usize,
    /// Whether any event was changed.
    pub rewritten: bool,
}

struct ChoiceState {
    rec: Box<dyn ChoiceRecoverer>,
    natives: BTreeMap<u64, NativeCall>,
    calls_out: usize,
    finished: bool,
    reports: Vec<CallReport>,
    rejected: Vec<Rejected>,
}

impl StreamRewriter {
    /// A rewriter for an answer to a request offering `tools`.
    pub fn new(tools: Arc<Tools>, recover: Arc<dyn Recover>, report: bool) -> Self {
        Self {
            tools,
            recover,
            report,
            choices: BTreeMap::new(),
            template: Map::new(),
            done: false,
            calls_recovered: 0,
            rewritten: false,
        }
    }

    /// True once `[DONE]` was seen.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// True when every choice seen so far has ended (a stream that stops here is complete).
    pub fn all_finished(&self) -> bool {
        !self.choices.is_empty() && self.choices.values().all(|c| c.finished)
    }

    /// Handles one upstream event, appending what to send to `out`.
    ///
    /// # Errors
    /// [`UpstreamError::Malformed`] when the event's data is neither JSON nor `[DONE]`.
    pub fn event(&mut self, ev: &SseEvent, out: &mut Vec<Bytes>) -> Result<(), UpstreamError> {
        let Some(data) = ev.data.as_deref() else {
            out.push(ev.raw.clone());
            return Ok(());
        };
        if data.trim() == "[DONE]" {
            self.flush(out);
            self.done = true;
            out.push(ev.raw.clone());
            return Ok(());
        }
        let mut chunk: Value =
            serde_json::from_str(data).map_err(|e| UpstreamError::Malformed {
                at: ev.at,
                message: format!("an event's data is not JSON: {e}"),
            })?;
        let Some(Value::Array(choices)) = chunk.get_mut("choices").map(Value::take) else {
            out.push(ev.raw.clone());
            return Ok(());
        };
        if choices.is_empty() || chunk.get("error").is_some() {
            out.push(ev.raw.clone());
            return Ok(());
        }
        let Value::Object(top) = chunk else {
            out.push(ev.raw.clone());
            return Ok(());
        };
        self.template = top.clone();
        self.template.remove("usage");
        let mut made = Vec::new();
        let mut plain = true;
        let n_choices = choices.len();
        for (pos, choice) in choices.into_iter().enumerate() {
            let Value::Object(choice) = choice else {
                plain = false;
                continue;
            };
            let last = pos + 1 == n_choices;
            plain &= self.choice(choice, &top, last, &mut made);
        }
        if plain {
            out.push(ev.raw.clone());
        } else {
            self.rewritten = true;
            out.extend(made);
        }
        Ok(())
    }

    /// Ends every choice that has not ended (the upstream sent `[DONE]` or stopped without a
    /// `finish_reason`), sending what the recoverers still hold.
    pub fn flush(&mut self, out: &mut Vec<Bytes>) {
        let open: Vec<u64> = self
            .choices
            .iter()
            .filter(|(_, c)| !c.finished)
            .map(|(i, _)| *i)
            .collect();
        for index in open {
            let mut choice = Map::new();
            choice.insert("index".into(), index.into());
            choice.insert("delta".into(), Value::Object(Map::new()));
            choice.insert("finish_reason".into(), Value::Null);
            let top = self.template.clone();
            let mut made = Vec::new();
            let plain = self.end_choice(index, choice, &top, &mut made);
            if !plain {
                self.rewritten = true;
            }
            out.extend(made);
        }
    }

    /// Handles one choice of a chunk; returns true when it is unchanged (`made` then holds the chunks
    /// it would have produced, which the caller discards in favour of the raw event).
    fn choice(
        &mut self,
        mut choice: Map<String, Value>,
        top: &Map<String, Value>,
        last: bool,
        made: &mut Vec<Bytes>,
    ) -> bool {
        let index = choice.get("index").and_then(Value::as_u64).unwrap_or(0);
        let tools = &self.tools;
        let recover = &self.recover;
        let state = self.choices.entry(index).or_insert_with(|| ChoiceState {
            rec: recover.start(Arc::clone(tools)),
            natives: BTreeMap::new(),
            calls_out: 0,
            finished: false,
            reports: Vec::new(),
            rejected: Vec::new(),
        });
        let mut delta = match choice.remove("delta") {
            Some(Value::Object(d)) => d,
            _ => Map::new(),
        };
        let content = match delta.remove("content") {
            Some(Value::String(s)) => s,
            _ => String::new(),
        };
        let mut plain = true;
        if let Some(Value::Array(frags)) = delta.remove("tool_calls") {
            plain = false;
            for f in frags {
                let k = f.get("index").and_then(Value::as_u64).unwrap_or(0);
                let n = state.natives.entry(k).or_default();
                if let Some(id) = f.get("id").and_then(Value::as_str) {
                    n.id = Some(id.to_owned());
                }
                if let Some(func) = f.get("function") {
                    if let Some(name) = func.get("name").and_then(Value::as_str) {
                        n.name.push_str(name);
                    }
                    match func.get("arguments") {
                        Some(Value::String(s)) => n.arguments.push_str(s),
                        Some(Value::Null) | None => {}
                        Some(other) => {
                            n.arguments.push_str(&other.to_string());
                            n.not_a_string = true;
                        }
                    }
                }
            }
        }
        let mut pieces = Vec::new();
        if state.finished {
            // Content after the choice ended cannot start a call any more: it goes out as it is.
            if !content.is_empty() {
                pieces.push(Piece::Content(content.clone()));
            }
        } else {
            state.rec.push(&content, &mut pieces);
        }
        plain &= is_plain_content(&pieces, &content);
        let finish = choice.remove("finish_reason").unwrap_or(Value::Null);
        if finish.is_null() {
            let chunks = self.chunks(index, choice, delta, pieces, Value::Null, top, last);
            made.extend(chunks);
            return plain;
        }
        let state = self.choices.get_mut(&index).expect("inserted above");
        let natives = std::mem::take(&mut state.natives).into_values().collect();
        if !state.finished {
            state.rec.finish(natives, is_cut_off(&finish), &mut pieces);
        }
        state.finished = true;
        let mut calls_seen = state.calls_out;
        for p in &pieces {
            calls_seen += usize::from(matches!(p, Piece::Call(_)));
        }
        let new_finish = finish_reason(&finish, calls_seen > 0);
        plain &= is_plain_content(&pieces, &content) && new_finish == finish;
        let chunks = self.chunks(index, choice, delta, pieces, new_finish, top, last);
        made.extend(chunks);
        plain
    }

    fn end_choice(
        &mut self,
        index: u64,
        mut choice: Map<String, Value>,
        top: &Map<String, Value>,
        made: &mut Vec<Bytes>,
    ) -> bool {
        let Some(state) = self.choices.get_mut(&index) else {
            return true;
        };
        let natives = std::mem::take(&mut state.natives).into_values().collect();
        let mut pieces = Vec::new();
        state.rec.finish(natives, false, &mut pieces);
        state.finished = true;
        if pieces.is_empty() {
            return true;
        }
        choice.remove("delta");
        choice.remove("finish_reason");
        let chunks = self.chunks(index, choice, Map::new(), pieces, Value::Null, top, true);
        made.extend(chunks);
        false
    }

    /// Turns the pieces of one choice into chunks: runs of content and reasoning in one delta, one
    /// chunk per call, the other delta fields in the first chunk, the finish reason in the last.
    #[allow(clippy::too_many_arguments)]
    fn chunks(
        &mut self,
        index: u64,
        choice: Map<String, Value>,
        rest: Map<String, Value>,
        pieces: Vec<Piece>,
        finish: Value,
        top: &Map<String, Value>,
        ending: bool,
    ) -> Vec<Bytes> {
        let state = self.choices.get_mut(&index).expect("choice state exists");
        let mut deltas: Vec<Map<String, Value>> = Vec::new();
        let mut cur = rest;
        let mut cur_has_text = false;
        for p in pieces {
            match p {
                Piece::Content(s) | Piece::Reasoning(s) if s.is_empty() => {}
                Piece::Content(s) => {
                    append_str(&mut cur, "content", &s);
                    cur_has_text = true;
                }
                Piece::Reasoning(s) => {
                    append_str(&mut cur, "reasoning_content", &s);
                    cur_has_text = true;
                }
                Piece::Call(c) => {
                    if cur_has_text || !cur.is_empty() {
                        deltas.push(std::mem::take(&mut cur));
                        cur_has_text = false;
                    }
                    let k = state.calls_out;
                    state.calls_out += 1;
                    if c.report.changed {
                        self.calls_recovered += 1;
                    }
                    let mut call = super::rewrite::call_json(&c);
                    if let Value::Object(o) = &mut call {
                        o.insert("index".into(), k.into());
                    }
                    let mut d = Map::new();
                    d.insert("tool_calls".into(), Value::Array(vec![call]));
                    deltas.push(d);
                    state.reports.push(c.report);
                }
                Piece::Rejected(r) => state.rejected.push(r),
            }
        }
        if !cur.is_empty() || deltas.is_empty() {
            deltas.push(cur);
        }
        let is_finish = !finish.is_null();
        // A chunk with nothing in it is not sent, unless it carries the finish reason.
        if !is_finish && deltas.len() == 1 && deltas[0].is_empty() {
            return Vec::new();
        }
        let n = deltas.len();
        let mut out = Vec::with_capacity(n);
        for (i, delta) in deltas.into_iter().enumerate() {
            let last = i + 1 == n;
            let mut obj = if last && ending {
                top.clone()
            } else {
                let mut t = top.clone();
                t.remove("usage");
                t
            };
            let mut ch = choice.clone();
            ch.insert("index".into(), index.into());
            ch.insert("delta".into(), Value::Object(delta));
            ch.insert(
                "finish_reason".into(),
                if last { finish.clone() } else { Value::Null },
            );
            obj.insert("choices".into(), Value::Array(vec![Value::Object(ch)]));
            if last && is_finish && self.report {
                obj.insert(
                    "toolmend".into(),
                    serde_json::json!({
                        "index": index,
                        "calls": state.reports,
                        "rejected": state.rejected,
                    }),
                );
            }
            out.push(sse_data(&Value::Object(obj)));
        }
        out
    }
}

fn append_str(m: &mut Map<String, Value>, key: &str, s: &str) {
    match m.get_mut(key) {
        Some(Value::String(cur)) => cur.push_str(s),
        _ => {
            m.insert(key.into(), s.into());
        }
    }
}

/// One SSE event carrying `v` as its data.
pub fn sse_data(v: &Value) -> Bytes {
    let mut s = String::from("data: ");
    s.push_str(&v.to_string());
    s.push_str("\n\n");
    Bytes::from(s)
}
