//! The `<tool_call>` and `<tool_calls>` markers, shared by Hermes (JSON inside), Qwen3-Coder
//! (`<function=…>` inside), GLM 4.5 (`name<arg_key>…`), Hunyuan v3 (`name<tool_sep>…`),
//! MiniMax v1 (JSON objects one per line) and the `<tool_calls>[…]` array family.

use super::Format;
use super::json_tags::{expect_close, payload, to_pieces, trim_range};
use super::scan::{Args, Input, Piece, RawCall, Step, Wait, body_until, find, skip_ws};
use super::value::{Stop, calls_from_value, json_at};

const CLOSE: &[&str] = &["</tool_call>"];
const CLOSE_ALL: &[&str] = &["</tool_calls>"];

/// `<tool_call>`.
pub(crate) fn tool_call(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    tag_call(inp, s, mend, CLOSE, false)
}

/// `<tool>`, `<tools>`, `<response>`, `<json>`, `<xml>`, `<user>`: a call only when the body is
/// one; a `<response>` without a call is content with its tags dropped; others stay as written.
/// `<tools>` wraps tool *definitions* in the prompts of Qwen and Hermes: a block holding any
/// JSON that is not a call with an `arguments` key is content, all of it.
pub(crate) fn generic(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    if &inp.text[s..mend] == "<tools>" {
        let (body, end) = match body_until(inp, mend, &["</tools>"]) {
            Ok(x) => x,
            Err(st) => return st,
        };
        if !argument_calls_only(inp.text, body) {
            return Step::Skip(end);
        }
    }
    let close: &'static [&'static str] = match &inp.text[s..mend] {
        "<tool>" => &["</tool>"],
        "<tools>" => &["</tools>"],
        "<response>" => &["</response>"],
        "<json>" => &["</json>"],
        "<JSON>" => &["</JSON>"],
        "<xml>" => &["</xml>"],
        _ => &["</user>"],
    };
    let step = tag_call(inp, s, mend, close, true);
    let has_call = matches!(&step, Step::Done { pieces, .. } if pieces.iter().any(|p| matches!(p, Piece::Call(_))));
    match step {
        Step::Done { end, .. } if !has_call => {
            if close[0] == "</response>" {
                let body_end = if inp.text[..end].ends_with(close[0]) {
                    end - close[0].len()
                } else {
                    end
                };
                Step::Done {
                    end,
                    pieces: vec![Piece::Content(mend..body_end)],
                }
            } else {
                Step::NotMine
            }
        }
        other => other,
    }
}

/// `<tool_response>`: the tag a chat template puts around a tool's result. A model that writes
/// it either wraps its call in the wrong tag (SmolLM2: the call-shaped body is the call) or
/// invents the result of a call it just made: the whole block, up to its close tag or the end of
/// the output, is an envelope leftover (dropped after a call, content before any; E20).
pub(crate) fn tool_response(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    const CLOSE_RESPONSE: &[&str] = &["</tool_response>"];
    match tag_call(inp, s, mend, CLOSE_RESPONSE, true) {
        Step::NeedMore(w) => Step::NeedMore(w),
        Step::Done { end, pieces } if pieces.iter().any(|p| matches!(p, Piece::Call(_))) => {
            Step::Done { end, pieces }
        }
        _ => match body_until(inp, mend, CLOSE_RESPONSE) {
            Ok((_, end)) => Step::Done {
                end,
                pieces: vec![Piece::AfterCall(s..end)],
            },
            Err(st) => st,
        },
    }
}

/// `</tool_call>` or `</tool_response>` met by the scanner: every envelope consumes its own
/// close tag, so this one closes nothing (a model closing twice) — an envelope leftover (E20).
pub(crate) fn leftover_close(_inp: &Input<'_>, s: usize, mend: usize) -> Step {
    Step::Done {
        end: mend,
        pieces: vec![Piece::AfterCall(s..mend)],
    }
}

/// True unless `t[body]` opens with JSON that is not all calls carrying an `arguments` key
/// (see [`super::value::has_arguments_key`]); a body that is not JSON is left to the caller.
fn argument_calls_only(t: &str, body: std::ops::Range<usize>) -> bool {
    let r = trim_range(t, body);
    let sub = &t[..r.end];
    if !sub[r.start..].starts_with(['{', '[']) {
        return true;
    }
    let mut at = r.start;
    while at < r.end {
        match json_at(sub, at) {
            Ok((v, e)) => {
                if !super::value::has_arguments_key(&v) {
                    return false;
                }
                at = skip_ws(sub, e);
                if sub[at..].starts_with([',', ';']) {
                    at = skip_ws(sub, at + 1);
                }
            }
            // Not JSON from here (broken or cut off): a call only if it names its arguments.
            Err(_) => return sub[at..].contains("\"arguments\""),
        }
    }
    true
}

fn tag_call(
    inp: &Input<'_>,
    s: usize,
    mend: usize,
    close: &'static [&'static str],
    generic: bool,
) -> Step {
    let t = inp.text;
    let at = skip_ws(t, mend);
    if at >= t.len() {
        return match inp.fin {
            true => Step::Done {
                end: t.len(),
                pieces: vec![Piece::Content(s..t.len())],
            },
            false => Step::NeedMore(Wait::Any),
        };
    }
    let c = t.as_bytes()[at];
    if c == b'{' || c == b'[' {
        let mut read = json_at(t, at);
        if matches!(read, Err(Stop::Invalid)) && !generic {
            if let Some(step) = unclosed_call(inp, s, at) {
                return step;
            }
            if let Some(e) = broken_call_end(inp, at, close) {
                read = Ok((serde_json::Value::Null, e));
            }
        }
        return match read {
            Ok((_, e)) => {
                // A run of call objects (`{…}, {"name": …}`): the body runs to the close tag and
                // every object in it is read (not swallowed as debris after the first, E20).
                let j = skip_ws(t, e);
                if t[j..].starts_with([',', ';']) {
                    let k = skip_ws(t, j + 1);
                    let next = if k < t.len() && t.as_bytes()[k] == b'{' {
                        super::json_tags::opens_like_call(&t[k..])
                    } else {
                        Some(false)
                    };
                    match next {
                        None if !inp.fin => return Step::NeedMore(Wait::Any),
                        Some(true) => {
                            let (mut body, mut end) = match body_until(inp, mend, close) {
                                Ok(x) => x,
                                Err(st) => return st,
                            };
                            // An envelope left open ends where the next one opens.
                            if let Some(i) = find(t, e, "<tool_call>").filter(|&i| i < body.end) {
                                body = mend..i;
                                end = i;
                            }
                            return Step::Done {
                                end,
                                pieces: payload(inp, body, s..end, Format::Hermes, false),
                            };
                        }
                        _ => {}
                    }
                }
                let after = match super::json_tags::stray_closers(inp, e) {
                    Ok(x) => x,
                    Err(st) => return st,
                };
                let mut end = match expect_close(inp, after, close) {
                    Ok(x) => x,
                    Err(st) => return st,
                };
                if end == after {
                    end = match debris_to_close(inp, after, close) {
                        Ok(x) => x,
                        Err(st) => return st,
                    };
                }
                Step::Done {
                    end,
                    pieces: payload(inp, at..e, s..end, Format::Hermes, false),
                }
            }
            Err(Stop::Eof) if !inp.fin => Step::NeedMore(Wait::Markers(close)),
            _ => match body_until(inp, mend, close) {
                Ok((body, end)) => python_body(t, inp.opts, body.clone(), s..end, close)
                    .unwrap_or_else(|| Step::Done {
                        end,
                        pieces: payload(inp, body, s..end, Format::Hermes, false),
                    }),
                Err(st) => st,
            },
        };
    }
    let (body, end) = match body_until(inp, mend, close) {
        Ok(x) => x,
        Err(st) => return st,
    };
    if let Some(step) = python_body(t, inp.opts, body.clone(), s..end, close) {
        return step;
    }
    if t[at..].starts_with("```") {
        // A fence inside the tag (Qwen2.5-Coder writes ```json fences while its template asks
        // for <tool_call>): the JSON between the fence's info word and its close is the payload.
        let mut j = at + 3;
        while j < body.end && (t.as_bytes()[j].is_ascii_alphanumeric() || t.as_bytes()[j] == b'_') {
            j += 1;
        }
        let close_fence = t[j..body.end].rfind("```").map_or(body.end, |i| j + i);
        let r = trim_range(t, j..close_fence);
        if t[r.clone()].starts_with(['{', '[']) {
            return Step::Done {
                end,
                pieces: payload(inp, r, s..end, Format::Hermes, false),
            };
        }
    }
    if t[at..].starts_with("<function=") {
        return Step::Done {
            end,
            pieces: super::xml::qwen_functions(inp, body, s..end, Format::Qwen3CoderXml),
        };
    }
    // `name\n{json}`: a GLM-style name with JSON arguments.
    let ne = super::scan::name_end(t, at).min(body.end);
    let j = skip_ws(t, ne);
    if ne > at && j < body.end && t.as_bytes()[j] == b'{' {
        let name = t[at..ne].to_owned();
        let r = trim_range(t, j..body.end);
        return Step::Done {
            end,
            pieces: vec![Piece::Call(RawCall {
                name,
                args: Args::Json(r.clone()),
                raw: r,
                span: s..end,
                format: Format::Glm45Xml,
                id: None,
            })],
        };
    }
    // Laguna writes GLM's `name<arg_key>…` body inside `<user>…</user>`.
    let glm_body = close[0] == "</user>" && t[body.clone()].contains("<arg_key>");
    if generic && !glm_body {
        return Step::Done {
            end,
            pieces: Vec::new(),
        };
    }
    // A bare word after a `<tool_call>` that is never closed (`wrap each call in <tool_call>
    // tags.`) is prose, not a GLM call without arguments.
    let closed = closed_at(t, end, close);
    let b = &t[body.clone()];
    if !closed && !b.contains("<arg_key>") && !b.contains("<tool_sep>") {
        return Step::Done {
            end,
            pieces: vec![Piece::Content(s..end)],
        };
    }
    Step::Done {
        end,
        pieces: key_value_call(t, body, s..end),
    }
}

/// Whether the envelope ending at `end` was closed: the text before `end` ends with one of its
/// close tags (an envelope never closed runs to the end of the output).
fn closed_at(t: &str, end: usize, close: &[&str]) -> bool {
    close.iter().any(|c| t[..end].ends_with(c))
}

/// E26: Python calls as the whole body of a closed envelope (`<tool_call>f(a=1)</tool_call>`,
/// `[f(a=1), g()]`, `f({"a": 1})`): a model trained on pythonic calls given a Hermes template.
/// `None` when the body is not only Python calls or the envelope was never closed.
fn python_body(
    t: &str,
    opts: &super::Options,
    body: std::ops::Range<usize>,
    span: std::ops::Range<usize>,
    close: &[&str],
) -> Option<Step> {
    if !closed_at(t, span.end, close) {
        return None;
    }
    let calls = super::pythonic::lines(t, body, super::value::Positional::Kept(opts))?;
    Some(Step::Done {
        end: span.end,
        pieces: super::pythonic::pieces(calls, span, Format::Pythonic),
    })
}

/// E22: a call object whose own `}` never comes — `{"name": …, "arguments": {…}` and then, on a
/// new line, prose or the next `<tool_call>` (Gemma 3 270M). Reads the object's members strictly,
/// one by one; when a complete member is followed, after a line break, by text that neither
/// continues the object (`,` `}`) nor looks like more JSON (`"` `'` `:` `]`) nor is the envelope's
/// close tag (repair already closes the object there), the object ends after that member with its
/// closer inserted (reported as a fix) — if it is a call with arguments. The envelope ends where
/// the JSON stops; what follows is scanned as text. `None` leaves the body to repair, as before.
fn unclosed_call(inp: &Input<'_>, s: usize, at: usize) -> Option<Step> {
    let t = inp.text;
    let b = t.as_bytes();
    let mut members = serde_json::Map::new();
    let mut i = skip_ws(t, at + 1);
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let (serde_json::Value::String(key), e) = json_at(t, i).ok()? else {
            return None;
        };
        i = skip_ws(t, e);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let (value, end) = json_at(t, skip_ws(t, i + 1)).ok()?;
        members.insert(key, value);
        let j = skip_ws(t, end);
        match b.get(j)? {
            b',' => i = skip_ws(t, j + 1),
            b'}' | b']' | b':' | b'"' | b'\'' => return None,
            _ if !t[end..j].contains('\n') || t[j..].starts_with("</tool_call>") => return None,
            _ => {
                let calls = calls_from_value(&serde_json::Value::Object(members), true)?;
                let closer = crate::repair::Fix {
                    kind: crate::repair::FixKind::InsertedCloser,
                    at: end,
                };
                let calls = calls.into_iter().map(|c| (c, at..end)).collect();
                let pieces = to_pieces(calls, &[closer], &(s..end), Format::Hermes);
                return Some(Step::Done { end, pieces });
            }
        }
    }
}

/// E29: a call object that is no valid JSON but whose brackets balance before the envelope's
/// close tag or the next `<tool_call>` (`{"name": "f", "arguments": {"a": 5000m}}`): where it
/// ends, when repair reads a call from it — so what follows it in an envelope left open (Gemma 3
/// 270M writes the schema it was shown, then prose) is read as after a valid call (E20), not
/// repaired into one value with it. `None` leaves the body to repair whole, as before.
fn broken_call_end(inp: &Input<'_>, at: usize, close: &[&str]) -> Option<usize> {
    let t = inp.text;
    let limit = close
        .iter()
        .chain(std::iter::once(&"<tool_call>"))
        .filter_map(|m| find(t, at, m))
        .min()
        .unwrap_or(t.len());
    let n = crate::repair::value_extent(&t[at..limit])?;
    let r = crate::repair::repair(&t[at..at + n]).ok()?;
    let v = serde_json::from_str::<serde_json::Value>(&r.text).ok()?;
    super::json_tags::bare_calls(inp, &v).then_some(at + n)
}

/// After a call's JSON inside its envelope, text that continues the JSON (`, "required":
/// [...]}` — SmolLM2 writes on into the schema it was shown) up to the envelope's close tag is
/// part of the envelope: returns the offset after the close tag. Anything else after the JSON,
/// or debris with no close tag before the next `<tool_call>`, leaves the envelope ending at `at`
/// (E20).
fn debris_to_close(
    inp: &Input<'_>,
    at: usize,
    close: &'static [&'static str],
) -> Result<usize, Step> {
    let t = inp.text;
    let j = skip_ws(t, at);
    if !t[j..].starts_with([',', '"', ':']) {
        return Ok(at);
    }
    let next_open = find(t, j, "<tool_call>").unwrap_or(t.len());
    let first_close = close
        .iter()
        .filter_map(|c| find(t, j, c).map(|i| i + c.len()))
        .min();
    match first_close {
        Some(e) if e <= next_open => Ok(e),
        None if !inp.fin && next_open == t.len() => Err(Step::NeedMore(Wait::Markers(close))),
        _ => Ok(at),
    }
}

/// GLM 4.5 / Hunyuan: `name` then `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs.
fn key_value_call(
    t: &str,
    body: std::ops::Range<usize>,
    span: std::ops::Range<usize>,
) -> Vec<Piece> {
    let b = &t[body.clone()];
    let (name_end, fmt) = match (b.find("<tool_sep>"), b.find("<arg_key>")) {
        (Some(i), _) => (i, Format::HunyuanV3),
        (None, Some(i)) => (i, Format::Glm45Xml),
        (None, None) => (b.len(), Format::Glm45Xml),
    };
    let name = b[..name_end].trim();
    if !super::scan::is_name(name) {
        return vec![Piece::Content(span)];
    }
    let mut pairs = Vec::new();
    // The body runs to the end of the output (no `</tool_call>`): a key or value that never
    // closed there was cut off, and so was the call (E4).
    let at_end = body.end == t.len();
    let mut cut = false;
    let mut at = body.start + name_end;
    while let Some(k) = find(t, at, "<arg_key>").filter(|k| *k < body.end) {
        let ks = k + "<arg_key>".len();
        let Some(ke) = find(t, ks, "</arg_key>").filter(|e| *e <= body.end) else {
            cut = at_end;
            break;
        };
        let key = t[ks..ke].trim().to_owned();
        let vs0 = skip_ws(t, ke + "</arg_key>".len());
        let (val, next) = if t[vs0..].starts_with("<arg_value>") {
            let vs = vs0 + "<arg_value>".len();
            match find(t, vs, "</arg_value>").filter(|e| *e <= body.end) {
                Some(ve) => (t[vs..ve].to_owned(), ve + "</arg_value>".len()),
                None => {
                    cut = at_end;
                    (t[vs..body.end].to_owned(), body.end)
                }
            }
        } else {
            // A key with no value yet: cut off when only (part of) `<arg_value>` follows.
            cut |= at_end && "<arg_value>".starts_with(t[vs0..body.end].trim_end());
            (String::new(), vs0)
        };
        pairs.push((key, val, None));
        at = next;
    }
    vec![Piece::Call(RawCall {
        name: name.to_owned(),
        args: Args::Pairs { pairs, cut },
        raw: body.start + name_end..body.end,
        span,
        format: fmt,
        id: None,
    })]
}

/// `<tool_calls>`: a JSON array, JSON objects one per line, or Hunyuan's `<tool_call>` items.
pub(crate) fn tool_calls(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let t = inp.text;
    let (body, end) = match body_until(inp, mend, CLOSE_ALL) {
        Ok(x) => x,
        Err(st) => return st,
    };
    let r = trim_range(t, body.clone());
    let inner = &t[r.clone()];
    if inner.starts_with('[') {
        return Step::Done {
            end,
            pieces: payload(inp, r, s..end, Format::ToolCallsArray, false),
        };
    }
    if inner.starts_with("<tool_call>") {
        let mut pieces = Vec::new();
        let mut at = r.start;
        while let Some(o) = find(t, at, "<tool_call>").filter(|o| *o < r.end) {
            let bs = o + "<tool_call>".len();
            let (be, next) = match find(t, bs, "</tool_call>").filter(|e| *e <= r.end) {
                Some(e) => (e, e + "</tool_call>".len()),
                None => (r.end, r.end),
            };
            pieces.extend(key_value_call(t, bs..be, o..next));
            at = next;
        }
        return Step::Done { end, pieces };
    }
    if inner.starts_with('{') {
        return Step::Done {
            end,
            pieces: payload(inp, r, s..end, Format::MinimaxV1, false),
        };
    }
    if inner.is_empty() {
        return Step::Done {
            end,
            pieces: Vec::new(),
        };
    }
    Step::NotMine
}
