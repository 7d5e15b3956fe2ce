//! Rewriting a whole (non-streaming) chat completion: each choice's content and native calls go
//! through a [`ChoiceRecoverer`](crate::serve::recover::ChoiceRecoverer), and the message is rebuilt from the pieces.
//!
//! An answer toolmend does not change is returned as `None`, so the caller forwards the upstream's
//! bytes untouched. A changed answer keeps every field it does not own, in order.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::error::UpstreamError;
use super::recover::{Assembled, NativeCall, OutCall, Piece, Recover, Tools};

/// What rewriting an answer produced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// The new body, or `None` when the upstream's answer stands as is.
    pub body: Option<Vec<u8>>,
    /// Calls toolmend recovered or repaired.
    pub calls_recovered: usize,
}

/// Rewrites the chat completion `body` for a request that offered `tools`.
///
/// # Errors
/// [`UpstreamError::Malformed`] when `body` is not JSON.
pub fn rewrite_json(
    body: &[u8],
    tools: &Arc<Tools>,
    recover: &dyn Recover,
    report: bool,
) -> Result<Outcome, UpstreamError> {
    let mut doc: Value = serde_json::from_slice(body).map_err(|e| malformed_json(body, &e))?;
    let Some(choices) = doc.get_mut("choices").and_then(Value::as_array_mut) else {
        return Ok(Outcome::default());
    };
    let mut recovered = 0;
    let mut reports = Vec::new();
    let mut changed = false;
    for (pos, choice) in choices.iter_mut().enumerate() {
        let index = choice.get("index").cloned().unwrap_or_else(|| pos.into());
        let finish = choice.get("finish_reason").cloned().unwrap_or(Value::Null);
        let Some(Value::Object(message)) = choice.get_mut("message") else {
            continue;
        };
        let original = message
            .get("content")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let natives = natives_of(message.get("tool_calls"));
        let n_natives = natives.len();
        let mut pieces = Vec::new();
        let mut r = recover.start(Arc::clone(tools));
        if let Some(text) = &original {
            r.push(text, &mut pieces);
        }
        r.finish(natives, is_cut_off(&finish), &mut pieces);
        let a = Assembled::from_pieces(pieces);
        let calls_changed = a.calls.iter().filter(|c| c.report.changed).count();
        let new_finish = finish_reason(&finish, !a.calls.is_empty());
        let same = new_finish == finish
            && calls_changed == 0
            && a.reasoning.is_none()
            && a.calls.len() == n_natives
            && a.content == original.as_deref().unwrap_or("");
        if report {
            reports.push(serde_json::json!({
                "index": index,
                "calls": a.calls.iter().map(|c| &c.report).collect::<Vec<_>>(),
                "rejected": a.rejected,
            }));
        }
        if same {
            continue;
        }
        changed = true;
        recovered += calls_changed;
        apply(message, original.is_some(), &a);
        if let Some(obj) = choice.as_object_mut().filter(|_| new_finish != finish) {
            obj.insert("finish_reason".into(), new_finish);
        }
    }
    if !changed {
        return Ok(Outcome::default());
    }
    if let Some(obj) = doc.as_object_mut().filter(|_| report) {
        obj.insert("toolmend".into(), serde_json::json!({ "choices": reports }));
    }
    let body = serde_json::to_vec(&doc).map_err(|e| UpstreamError::Malformed {
        at: 0,
        message: format!("cannot serialise the rewritten answer: {e}"),
    })?;
    Ok(Outcome {
        body: Some(body),
        calls_recovered: recovered,
    })
}

/// Writes the assembled parts into `message`.
fn apply(message: &mut Map<String, Value>, had_content: bool, a: &Assembled) {
    let content = if a.content.is_empty() && (!a.calls.is_empty() || !had_content) {
        Value::Null
    } else {
        Value::String(a.content.clone())
    };
    message.insert("content".into(), content);
    if let Some(r) = &a.reasoning {
        let mut text = message
            .get("reasoning_content")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        text.push_str(r);
        message.insert("reasoning_content".into(), text.into());
    }
    if !a.calls.is_empty() {
        let calls: Vec<Value> = a.calls.iter().map(call_json).collect();
        message.insert("tool_calls".into(), Value::Array(calls));
    }
}

/// True when `finish` (a choice's `finish_reason`) says the output stopped at the token limit.
pub fn is_cut_off(finish: &Value) -> bool {
    finish.as_str() == Some("length")
}

/// The `finish_reason` a choice goes out with, given the upstream's (`original`) and whether it
/// carries calls: `"tool_calls"` when it does — runtimes that report calls with `"stop"` (Ollama
/// does) are corrected too, since clients look at the finish reason to decide whether to run
/// tools — except that `"length"` and `"content_filter"` are never replaced: they are the only
/// signal a client has that the output was cut short, and its last call may be incomplete.
pub fn finish_reason(original: &Value, has_calls: bool) -> Value {
    match original.as_str() {
        _ if !has_calls => original.clone(),
        Some("length" | "content_filter") => original.clone(),
        _ => Value::from("tool_calls"),
    }
}

/// The `tool_calls` entry of a message for `c`.
pub fn call_json(c: &OutCall) -> Value {
    serde_json::json!({
        "id": c.id,
        "type": "function",
        "function": {"name": c.name, "arguments": c.arguments},
    })
}

/// Reads native calls from a `tool_calls` value; arguments given as an object are serialised (and
/// the call marked [`NativeCall::not_a_string`]).
pub fn natives_of(v: Option<&Value>) -> Vec<NativeCall> {
    let Some(Value::Array(list)) = v else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|c| {
            let f = c.get("function")?;
            let args = f.get("arguments");
            Some(NativeCall {
                id: c.get("id").and_then(Value::as_str).map(str::to_owned),
                name: f.get("name").and_then(Value::as_str)?.to_owned(),
                arguments: match args {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Null) | None => String::new(),
                    Some(other) => other.to_string(),
                },
                not_a_string: !matches!(args, Some(Value::String(_) | Value::Null) | None),
            })
        })
        .collect()
}

/// The error for an upstream body that is not JSON.
pub fn malformed_json(body: &[u8], e: &serde_json::Error) -> UpstreamError {
    UpstreamError::Malformed {
        at: byte_offset(body, e.line(), e.column()),
        message: format!("not JSON: {e}"),
    }
}

/// Byte offset of 1-based `line` and `column` in `text` (serde_json reports positions that way).
fn byte_offset(text: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match memchr::memchr(b'\n', &text[start..]) {
            Some(i) => start += i + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(text.len())
}

/// Whether any piece in `pieces` changes the answer (used by the streaming path to decide whether
/// an upstream event can be forwarded as is).
pub fn is_plain_content(pieces: &[Piece], original: &str) -> bool {
    match pieces {
        [] => original.is_empty(),
        [Piece::Content(s)] => s == original,
        _ => false,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::serve::recover::{CallReport, ChoiceRecoverer, call_id};

    /// A recoverer for unit tests of the JSON surgery: a line `CALL name {args}` is a call to a known
    /// tool; everything else is content. Native calls pass through unchanged.
    pub(crate) struct LineCalls(pub Arc<Tools>, pub String);

    impl ChoiceRecoverer for LineCalls {
        fn push(&mut self, text: &str, _out: &mut Vec<Piece>) {
            self.1.push_str(text);
        }
        fn finish(&mut self, natives: Vec<NativeCall>, _cut_off: bool, out: &mut Vec<Piece>) {
            for line in std::mem::take(&mut self.1).split_inclusive('\n') {
                let call = line
                    .strip_prefix("CALL ")
                    .and_then(|r| r.trim_end().split_once(' '))
                    .filter(|(n, _)| self.0.get(n).is_some());
                match call {
                    Some((name, args)) => out.push(Piece::Call(OutCall {
                        id: call_id(),
                        name: name.into(),
                        arguments: args.into(),
                        report: CallReport {
                            name: name.into(),
                            envelope: "line".into(),
                            changed: true,
                            ..CallReport::default()
                        },
                    })),
                    None => out.push(Piece::Content(line.into())),
                }
            }
            for n in natives {
                out.push(Piece::Call(OutCall {
                    id: n.id.unwrap_or_else(call_id),
                    report: CallReport {
                        name: n.name.clone(),
                        envelope: "native".into(),
                        ..CallReport::default()
                    },
                    name: n.name,
                    arguments: n.arguments,
                }));
            }
        }
    }

    pub(crate) struct LineRecover;
    impl Recover for LineRecover {
        fn start(&self, tools: Arc<Tools>) -> Box<dyn ChoiceRecoverer> {
            Box::new(LineCalls(tools, String::new()))
        }
    }

    fn tools() -> Arc<Tools> {
        Arc::new(Tools::from_request(&[
            serde_json::json!({"type": "function", "function": {"name": "get_weather"}}),
        ]))
    }

    fn answer(content: &str) -> Vec<u8> {
        serde_json::to_vec(&serde_json::json!({
            "id": "x", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"total_tokens": 3}
        }))
        .unwrap()
    }

    #[test]
    fn a_recovered_call_becomes_tool_calls_with_the_rest_kept_as_content() {
        let body = answer("Sure.\nCALL get_weather {\"city\":\"Paris\"}\n");
        let out = rewrite_json(&body, &tools(), &LineRecover, true).unwrap();
        assert_eq!(out.calls_recovered, 1);
        let v: Value = serde_json::from_slice(&out.body.unwrap()).unwrap();
        let c = &v["choices"][0];
        assert_eq!(c["finish_reason"], "tool_calls");
        assert_eq!(c["message"]["content"], "Sure.\n");
        let call = &c["message"]["tool_calls"][0];
        assert_eq!(call["type"], "function");
        assert_eq!(call["function"]["name"], "get_weather");
        assert_eq!(call["function"]["arguments"], "{\"city\":\"Paris\"}");
        assert_eq!(v["usage"]["total_tokens"], 3);
        assert_eq!(v["toolmend"]["choices"][0]["calls"][0]["envelope"], "line");
    }

    #[test]
    fn unknown_tools_and_plain_text_leave_the_answer_untouched() {
        for text in ["CALL delete_everything {}\n", "just prose", ""] {
            let out = rewrite_json(&answer(text), &tools(), &LineRecover, true).unwrap();
            assert_eq!(out, Outcome::default(), "{text:?}");
        }
    }

    #[test]
    fn malformed_bodies_are_located() {
        let e = rewrite_json(b"{\"a\":\n  tru", &tools(), &LineRecover, false).unwrap_err();
        assert!(
            matches!(e, UpstreamError::Malformed { at, .. } if at >= 7),
            "{e:?}"
        );
    }
}
