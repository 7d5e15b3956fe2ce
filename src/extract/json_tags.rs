//! Families whose calls are JSON between (or after) marker tokens: Apertus, Nemotron, Granite,
//! Granite-20B-FC, Command R actions, Phi-4 `functools`, GigaChat, LongCat, InternLM 2,
//! Functionary v3.2, and bare JSON call objects and arrays in prose.

use std::ops::Range;

use serde_json::Value;

use super::Format;
use super::scan::{Args, Input, Piece, RawCall, Step, Wait, body_until, find, skip_ws};
use super::value::{JsonArgs, JsonCall, Stop, calls_from_value, json_at};

/// Turns a JSON payload (`text[body]`) into call pieces. The payload is parsed strictly, then
/// through repair; a payload that still cannot be read yields a call with its name salvaged and
/// its arguments marked bad, or, with no name either, stays content.
pub(crate) fn payload(
    inp: &Input<'_>,
    body: Range<usize>,
    span: Range<usize>,
    fmt: Format,
    need_args: bool,
) -> Vec<Piece> {
    payload_with(inp, body, span, fmt, need_args, |v, n| {
        calls_from_value(v, n)
    })
}

/// [`payload`] with a custom reader for the JSON value's calls.
pub(crate) fn payload_with(
    inp: &Input<'_>,
    body: Range<usize>,
    span: Range<usize>,
    fmt: Format,
    need_args: bool,
    read: impl Fn(&Value, bool) -> Option<Vec<JsonCall>>,
) -> Vec<Piece> {
    let t = inp.text;
    let raw = trim_range(t, body.clone());
    let text = &t[raw.clone()];
    if text.is_empty() {
        return vec![Piece::Content(span)];
    }
    // The payload runs to the end of a final output (whitespace after the cut is no closer: a
    // tokenizer often ends on a space): a value cut off there is rejected as such, never
    // half-executed.
    let cut_at_end = inp.fin && !inp.opts.partial && skip_ws(t, raw.end) == t.len();
    let cut_off_call =
        |calls: &Vec<(JsonCall, Range<usize>)>, rest: Range<usize>, name: Option<String>| {
            let cut = crate::repair::RepairError::Truncated {
                at: t.len(),
                message: "the output ends inside this call".into(),
            };
            let n = name.or_else(|| salvage_names(&t[rest.clone()]).into_iter().next())?;
            let mut out = to_pieces(calls.clone(), &[], &span, fmt);
            out.push(Piece::Call(RawCall {
                name: n,
                args: Args::Bad(cut),
                raw: rest,
                span: span.clone(),
                format: fmt,
                id: None,
            }));
            Some(out)
        };
    // Several values in a row (one object per line) are several calls.
    let mut calls = Vec::new();
    // The text that stopped the strict reading is a prefix of valid JSON (cut off, no name to
    // salvage: read through repair below, as before).
    let mut strict_prefix = false;
    let mut fixes = Vec::new();
    let mut ok = true;
    let mut at = raw.start;
    let mut in_list = false;
    while at < raw.end {
        if in_list && t[at..raw.end].starts_with(']') {
            at = skip_ws(t, at + 1).min(raw.end);
            in_list = false;
            continue;
        }
        match json_at(&t[..raw.end], at) {
            Ok((v, e)) => {
                match read(&v, need_args) {
                    Some(cs) => calls.extend(cs.into_iter().map(|c| (c, at..e))),
                    // In a run of call objects, one without a name is not a call: skipped.
                    None if !calls.is_empty() && v.is_object() => {}
                    None => {
                        ok = false;
                        break;
                    }
                }
                at = skip_ws(t, e).min(raw.end);
                if t[at..raw.end].starts_with(',') || t[at..raw.end].starts_with(';') {
                    at = skip_ws(t, at + 1).min(raw.end);
                }
            }
            Err(Stop::Eof) if !in_list && calls.is_empty() && text.starts_with('[') => {
                // A list that does not close: read its items one by one.
                in_list = true;
                at = skip_ws(t, at + 1).min(raw.end);
            }
            Err(stop) => {
                strict_prefix = stop == Stop::Eof;
                if stop == Stop::Eof
                    && cut_at_end
                    && let Some(out) = cut_off_call(&calls, at..raw.end, None)
                {
                    return out;
                }
                ok = false;
                break;
            }
        }
    }
    if !ok {
        // Read the rest (everything when nothing was read) through repair.
        let rest = at..raw.end;
        let text = &t[rest.clone()];
        match crate::repair::repair(text) {
            Ok(r) => {
                if cut_at_end && !strict_prefix && super::finish::cut_off_at_end(text, &r.fixes) {
                    // Cut off in text that is not strict JSON (`{'name': 'write', 'arguments':
                    // {'text': 'hel`): the name from the repaired value, when it is whole.
                    let name = serde_json::from_str::<Value>(&r.text)
                        .ok()
                        .and_then(|v| read(&v, need_args))
                        .and_then(|cs| cs.into_iter().next())
                        .map(|c| c.0)
                        .filter(|n| {
                            text.contains(&format!("{n}'")) || text.contains(&format!("{n}\""))
                        });
                    if let Some(out) = cut_off_call(&calls, rest.clone(), name) {
                        return out;
                    }
                }
                fixes = r
                    .fixes
                    .iter()
                    .map(|f| crate::repair::Fix {
                        kind: f.kind,
                        at: f.at + rest.start,
                    })
                    .collect();
                if let Ok(v) = serde_json::from_str::<Value>(&r.text)
                    && let Some(cs) = read(&v, need_args)
                {
                    // A name that repair had to close was cut off: not a call yet.
                    let whole = |c: &JsonCall| {
                        text.contains(&format!("\"{}\"", c.0))
                            || !text.contains(&format!("\"{}", c.0))
                    };
                    calls.extend(cs.into_iter().filter(whole).map(|c| (c, rest.clone())));
                }
            }
            Err(e) => {
                // Salvage the name from a payload repair could not read.
                if let Some(n) = salvage_names(text).into_iter().next() {
                    let mut out = to_pieces(calls, &[], &span, fmt);
                    out.push(Piece::Call(RawCall {
                        name: n,
                        args: Args::Bad(e),
                        raw: rest,
                        span: span.clone(),
                        format: fmt,
                        id: None,
                    }));
                    return out;
                }
            }
        }
    }
    if calls.is_empty() {
        // Nothing readable: a cut-off envelope is dropped (the output ended inside it); a
        // complete one stays visible as content.
        if inp.fin && span.end == t.len() && !t.ends_with(['>', ']', '}', '`']) {
            return Vec::new();
        }
        return vec![Piece::Content(span)];
    }
    to_pieces(calls, &fixes, &span, fmt)
}

/// The calls read from a payload as pieces, each with the fixes repair made to its text.
pub(crate) fn to_pieces(
    calls: Vec<(JsonCall, Range<usize>)>,
    fixes: &[crate::repair::Fix],
    span: &Range<usize>,
    fmt: Format,
) -> Vec<Piece> {
    calls
        .into_iter()
        .map(|((name, args, id), r)| {
            Piece::Call(RawCall {
                name,
                args: match args {
                    JsonArgs::Given(v) => Args::Value(v, fixes.to_vec()),
                    JsonArgs::Beside(m) => Args::Beside(m, fixes.to_vec()),
                },
                raw: r,
                span: span.clone(),
                format: fmt,
                id,
            })
        })
        .collect()
}

/// Names written as `"name": "…"` (or `tool_name`, `function`) in a payload that is not JSON.
fn salvage_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["\"name\"", "\"tool_name\"", "\"function\""] {
        let mut from = 0;
        while let Some(i) = find(text, from, key) {
            from = i + key.len();
            let j = skip_ws(text, from);
            if !text[j..].starts_with(':') {
                continue;
            }
            let k = skip_ws(text, j + 1);
            if let Some(rest) = text[k..].strip_prefix('"')
                && let Some(end) = rest.find('"')
            {
                let n = &rest[..end];
                if super::scan::is_name(n) {
                    out.push(n.to_owned());
                }
            }
        }
        if !out.is_empty() {
            break;
        }
    }
    out
}

/// `r` without surrounding whitespace.
pub(crate) fn trim_range(t: &str, r: Range<usize>) -> Range<usize> {
    let s = &t[r.clone()];
    let lead = s.len() - s.trim_start().len();
    let trail = s.len() - s.trim_end().len();
    if lead == s.len() {
        return r.start..r.start;
    }
    r.start + lead..r.end - trail
}

/// After a call's JSON value inside an envelope: closing brackets the model wrote one too many
/// times (`{…}}`) belong to the call, not to the content. While streaming, a value at the end of
/// the text waits for what follows (as the envelope's close marker does). After a bare call the
/// finisher drops them instead, so the call is reported at once.
pub(crate) fn stray_closers(inp: &Input<'_>, e: usize) -> Result<usize, Step> {
    let t = inp.text;
    let mut j = e;
    loop {
        let k = skip_ws(t, j);
        if matches!(t.as_bytes().get(k), Some(b'}' | b']')) {
            j = k + 1;
        } else {
            break;
        }
    }
    if !inp.fin && skip_ws(t, j) == t.len() {
        return Err(Step::NeedMore(Wait::Any));
    }
    Ok(j)
}

/// After a JSON object that is data: objects that follow it with only whitespace between are
/// the same data (records one after another), even one shaped like a call, just as an array
/// holding a non-call is data. Returns the end of the run.
fn data_run(inp: &Input<'_>, e: usize) -> Result<usize, Step> {
    let t = inp.text;
    let mut end = e;
    loop {
        let j = skip_ws(t, end);
        if j >= t.len() {
            if !inp.fin {
                return Err(Step::NeedMore(Wait::Any));
            }
            break;
        }
        if t.as_bytes()[j] != b'{' {
            break;
        }
        match json_at(t, j) {
            Ok((_, e2)) => end = e2,
            Err(Stop::Eof) if !inp.fin => return Err(Step::NeedMore(Wait::Balanced)),
            Err(_) => break,
        }
    }
    Ok(end)
}

/// After a value: skips whitespace and consumes `close` if present. While streaming, waits when
/// what follows could still become `close` — for any next text, not for the marker itself: an
/// optional close marker (Granite 20B, `<|eom_id|>`) may never come.
pub(crate) fn expect_close(
    inp: &Input<'_>,
    at: usize,
    close: &'static [&'static str],
) -> Result<usize, Step> {
    let j = skip_ws(inp.text, at);
    let rest = &inp.text[j..];
    for c in close {
        if rest.starts_with(c) {
            return Ok(j + c.len());
        }
    }
    if !inp.fin && close.iter().any(|c| c.starts_with(rest)) {
        return Err(Step::NeedMore(Wait::Any));
    }
    Ok(at)
}

/// Marker, optional whitespace, a JSON value (object or array of calls), optional close marker.
fn tagged(
    inp: &Input<'_>,
    s: usize,
    mend: usize,
    close: &'static [&'static str],
    fmt: Format,
) -> Step {
    tagged_with(inp, s, mend, close, fmt, calls_from_value)
}

fn tagged_with(
    inp: &Input<'_>,
    s: usize,
    mend: usize,
    close: &'static [&'static str],
    fmt: Format,
    read: impl Fn(&Value, bool) -> Option<Vec<JsonCall>> + Copy,
) -> Step {
    let t = inp.text;
    let at = skip_ws(t, mend);
    if at >= t.len() {
        return if inp.fin {
            Step::Done {
                end: t.len(),
                pieces: vec![Piece::Content(s..t.len())],
            }
        } else {
            Step::NeedMore(Wait::Any)
        };
    }
    match json_at(t, at) {
        Ok((v, e)) if read(&v, false).is_some() => {
            let end = match expect_close(inp, e, close) {
                Ok(end) => end,
                Err(step) => return step,
            };
            Step::Done {
                end,
                pieces: payload_with(inp, at..e, s..end, fmt, false, read),
            }
        }
        Err(Stop::Eof) if !inp.fin => Step::NeedMore(if close.is_empty() {
            Wait::Balanced
        } else {
            Wait::BalancedOr(close)
        }),
        _ => {
            if close.is_empty() {
                // No close marker, and not strict JSON (Glaive's single-quoted arguments
                // string): a value whose brackets close ends there, and what follows is text
                // (E25); the call is out as soon as its last bracket arrives.
                if let Some(n) = crate::repair::value_extent(&t[at..]) {
                    let end = at + n;
                    return Step::Done {
                        end,
                        pieces: payload_with(inp, at..end, s..end, fmt, false, read),
                    };
                }
                // A truncated value runs to the end of a final text.
                if inp.fin {
                    let end = t.len();
                    return Step::Done {
                        end,
                        pieces: payload_with(inp, at..end, s..end, fmt, false, read),
                    };
                }
                // Without a close marker the envelope runs to the end of the output, unless
                // its brackets close first.
                return Step::NeedMore(Wait::Balanced);
            }
            match body_until(inp, mend, close) {
                Ok((body, end)) => Step::Done {
                    end,
                    pieces: payload_with(inp, body, s..end, fmt, false, read),
                },
                Err(step) => step,
            }
        }
    }
}

/// `<|tools_prefix|>[{"f": {…}}]<|tools_suffix|>`.
pub(crate) fn apertus(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    tagged_with(
        inp,
        s,
        mend,
        &["<|tools_suffix|>"],
        Format::Apertus,
        |v, n| {
            calls_from_value(v, n).or_else(|| {
                let items: Vec<&Value> = match v {
                    Value::Array(a) => a.iter().collect(),
                    o @ Value::Object(_) => vec![o],
                    _ => return None,
                };
                items
                    .into_iter()
                    .map(|it| {
                        let o = it.as_object()?;
                        if o.len() != 1 {
                            return None;
                        }
                        let (k, a) = o.iter().next()?;
                        Some((k.clone(), JsonArgs::Given(a.clone()), None))
                    })
                    .collect()
            })
        },
    )
}

/// `<TOOLCALL>[…]</TOOLCALL>`.
pub(crate) fn nemotron(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    tagged(inp, s, mend, &["</TOOLCALL>"], Format::NemotronToolcallJson)
}

/// `<|tool_call|>[…]` (no close marker).
pub(crate) fn granite(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    tagged(inp, s, mend, &[], Format::GraniteToolCallToken)
}

/// `<function_call> {…}` (no close marker).
pub(crate) fn granite20b(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    tagged(inp, s, mend, &["</function_call>"], Format::Granite20bFc)
}

/// `<functioncall> {…}` (Glaive; no close marker). Not followed by an object, the marker is
/// text (a model describing the format), unlike the special tokens of other families.
pub(crate) fn glaive(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let t = inp.text;
    match t.as_bytes().get(skip_ws(t, mend)) {
        Some(b'{') => tagged(inp, s, mend, &[], Format::Glaive),
        None if !inp.fin => Step::NeedMore(Wait::Any),
        _ => Step::NotMine,
    }
}

/// `FUNCTION RESPONSE:`, the turn that follows a call in Glaive's training data. A model that
/// writes it invents its call's result, and what follows is an answer built on it: up to the
/// end of the output it is an envelope leftover (dropped after a call, content before any; E25).
pub(crate) fn glaive_response(inp: &Input<'_>, s: usize, _mend: usize) -> Step {
    if !inp.fin {
        return Step::NeedMore(Wait::Any);
    }
    Step::Done {
        end: inp.text.len(),
        pieces: vec![Piece::AfterCall(s..inp.text.len())],
    }
}

/// `<|START_ACTION|>[…]<|END_ACTION|>`.
pub(crate) fn command_r(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    tagged(inp, s, mend, &["<|END_ACTION|>"], Format::CommandRAction)
}

/// `functools[…]`.
pub(crate) fn functools(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let at = skip_ws(inp.text, mend);
    match inp.text.as_bytes().get(at) {
        Some(b'[') => tagged(inp, s, mend, &[], Format::Functools),
        None => inp.more(Wait::Any),
        Some(_) => Step::NotMine,
    }
}

/// `<|message_sep|>\n\nfunction call<|role_sep|>\n{…}`.
pub(crate) fn gigachat(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let t = inp.text;
    const HEAD: &str = "function call<|role_sep|>";
    let mut at = mend;
    if !t[s..mend].contains("role_sep") {
        at = skip_ws(t, mend);
        let rest = &t[at..];
        if rest.starts_with(HEAD) {
            at += HEAD.len();
        } else if !inp.fin && HEAD.starts_with(rest) {
            return Step::NeedMore(Wait::Any);
        } else {
            // A plain message separator: dropped.
            return Step::Done {
                end: mend,
                pieces: Vec::new(),
            };
        }
    }
    tagged(inp, s, at, &[], Format::Gigachat)
}

/// `<|function_call|>{…}` (GigaChat 3).
pub(crate) fn gigachat_token(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    tagged(inp, s, mend, &[], Format::Gigachat)
}

/// `<longcat_tool_call>{…}</longcat_tool_call>`.
pub(crate) fn longcat(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    tagged(inp, s, mend, &["</longcat_tool_call>"], Format::Longcat)
}

/// `<|action_start|><|plugin|>{…}<|action_end|>`.
pub(crate) fn internlm2(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let t = inp.text;
    let at = skip_ws(t, mend);
    let rest = &t[at..];
    if let Some(r) = rest.strip_prefix("<|plugin|>") {
        let _ = r;
        return tagged(
            inp,
            s,
            at + "<|plugin|>".len(),
            &["<|action_end|>"],
            Format::Internlm2,
        );
    }
    if !inp.fin && "<|plugin|>".starts_with(rest) {
        return Step::NeedMore(Wait::Any);
    }
    Step::NotMine
}

/// `>>>name\n{…}` (Functionary v3.2); `>>>all\n` introduces plain text.
pub(crate) fn functionary_v32(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    // `>>> x` with a space is a Python prompt in a REPL transcript; Functionary writes the name
    // right after the marker. Only a caller that names the format accepts the space.
    if inp.text.as_bytes().get(mend) == Some(&b' ') && inp.hint() != Some(Format::FunctionaryV32) {
        return Step::NotMine;
    }
    functionary_at(inp, s, mend)
}

/// Functionary v3.2 at the very start of the output: `name\n{…}` or `all\ntext`.
pub(crate) fn functionary_start(inp: &Input<'_>, _s: usize, _mend: usize) -> Step {
    match functionary_at(inp, 0, 0) {
        Step::NotMine => Step::Done {
            end: 0,
            pieces: Vec::new(),
        },
        other => other,
    }
}

/// Auto mode with a tool list: an output whose first line is exactly a known tool's name,
/// followed by JSON arguments, is Functionary v3.2's first call.
pub(crate) fn functionary_known(inp: &Input<'_>, _s: usize, _mend: usize) -> Step {
    let t = inp.text;
    let line = t.split('\n').next().unwrap_or_default().trim_end();
    let known = |n: &str| inp.opts.tools.iter().flatten().any(|tool| tool.name == n);
    let maybe = |n: &str| {
        inp.opts
            .tools
            .iter()
            .flatten()
            .any(|tool| tool.name.starts_with(n))
    };
    let none = Step::Done {
        end: 0,
        pieces: Vec::new(),
    };
    if !t.contains('\n') {
        // Look again as text arrives, not only at a newline: the first line stops being a possible
        // tool name as soon as it is no prefix of one (and `""`, before any text, is a prefix of
        // every name). The line is at most the longest name long here, so this stays linear.
        return if !inp.fin && maybe(line) {
            Step::NeedMore(Wait::Any)
        } else {
            none
        };
    }
    if !known(line) {
        return none;
    }
    match functionary_at(inp, 0, 0) {
        Step::NotMine => none,
        other => other,
    }
}

/// A call to the code interpreter: the `python` tool with the source text `t[code]` (trailing
/// whitespace dropped) as its `code` argument. Functionary v3.2's `>>>python` and Llama 3.1's
/// `<|python_tag|>` followed by raw code write it (llama.cpp reads both the same way).
pub(crate) fn code_call(t: &str, code: Range<usize>, span: Range<usize>, format: Format) -> Piece {
    Piece::Call(RawCall {
        name: "python".to_owned(),
        args: Args::Value(
            serde_json::json!({ "code": t[code.clone()].trim_end() }),
            Vec::new(),
        ),
        raw: code,
        span,
        format,
        id: None,
    })
}

fn functionary_at(inp: &Input<'_>, s: usize, at: usize) -> Step {
    let t = inp.text;
    let nl = match super::scan::head_line_end(inp, at) {
        Ok(nl) => nl,
        Err(true) => return Step::NeedMore(Wait::Markers(&["\n"])),
        Err(false) => return Step::NotMine,
    };
    let name = t[at..nl].trim();
    if name == "all" {
        return Step::Done {
            end: nl + 1,
            pieces: Vec::new(),
        };
    }
    if !super::scan::is_name(name) {
        return Step::NotMine;
    }
    let j = skip_ws(t, nl + 1);
    if name == "python" && !matches!(t.as_bytes().get(j), Some(b'{') | None) {
        // Functionary's code interpreter: the rest is Python source.
        let end = find(t, j, ">>>").unwrap_or(t.len());
        if !inp.fin && end == t.len() {
            return Step::NeedMore(Wait::Markers(&[">>>"]));
        }
        return Step::Done {
            end,
            pieces: vec![code_call(t, nl + 1..end, s..end, Format::FunctionaryV32)],
        };
    }
    match json_at(t, j) {
        Ok((v, e)) if e == t.len() && !inp.fin && super::value::may_go_on(&v) => {
            Step::NeedMore(Wait::Any)
        }
        Ok((_, e)) => Step::Done {
            end: e,
            pieces: vec![Piece::Call(RawCall {
                name: name.to_owned(),
                args: Args::Json(j..e),
                raw: j..e,
                span: s..e,
                format: Format::FunctionaryV32,
                id: None,
            })],
        },
        Err(Stop::Eof) if !inp.fin => Step::NeedMore(Wait::Balanced),
        Err(Stop::Eof) => {
            let end = t.len();
            let next = find(t, j, ">>>").unwrap_or(end);
            Step::Done {
                end: next,
                pieces: vec![Piece::Call(RawCall {
                    name: name.to_owned(),
                    args: Args::Json(j..next),
                    raw: j..next,
                    span: s..next,
                    format: Format::FunctionaryV32,
                    id: None,
                })],
            }
        }
        Err(Stop::Invalid) => Step::NotMine,
    }
}

/// True when a bare JSON value (no envelope around it) is calls: call objects with their
/// arguments key, or calls to listed tools whose arguments stand beside the name or under it
/// (E27).
pub(crate) fn bare_calls(inp: &Input<'_>, v: &Value) -> bool {
    calls_from_value(v, true).is_some() || super::value::listed_calls(v, inp.opts)
}

fn bare_format(inp: &Input<'_>, v: &Value, default: Format) -> Format {
    if let Some(h) = inp.hint() {
        return h;
    }
    match v {
        Value::Object(o) if o.contains_key("tool_call") || o.contains_key("tool_calls") => {
            Format::LlamacppGenericJson
        }
        Value::Object(o) if o.contains_key("parameters") => Format::Llama3Json,
        _ => default,
    }
}

/// A bare `{` in the text: a JSON object with the shape of a call is a call; other JSON is
/// content (skipped whole); anything else is content.
pub(crate) fn bare_object(inp: &Input<'_>, s: usize, _mend: usize) -> Step {
    let t = inp.text;
    match json_at(t, s) {
        Ok((v, e)) => {
            if let (Some(Format::LlamacppGenericJson), Some(Value::String(r))) = (
                inp.hint(),
                v.as_object()
                    .filter(|o| o.len() == 1)
                    .and_then(|o| o.get("response")),
            ) {
                return Step::Done {
                    end: e,
                    pieces: vec![Piece::Text(r.clone())],
                };
            }
            if bare_calls(inp, &v) {
                let fmt = bare_format(inp, &v, Format::BareJson);
                Step::Done {
                    end: e,
                    pieces: payload(inp, s..e, s..e, fmt, false),
                }
            } else if let Some(name) = prose_tool(inp, s, &v)
                && match prose_call_stands(inp, s, e) {
                    Ok(yes) => yes,
                    Err(st) => return st,
                }
            {
                Step::Done {
                    end: e,
                    pieces: vec![Piece::Call(RawCall {
                        name,
                        args: Args::Json(s..e),
                        raw: s..e,
                        span: s..e,
                        format: Format::Prose,
                        id: None,
                    })],
                }
            } else {
                match data_run(inp, e) {
                    Ok(end) => Step::Skip(end),
                    Err(st) => st,
                }
            }
        }
        Err(Stop::Eof) if !inp.fin => Step::NeedMore(Wait::Balanced),
        Err(Stop::Eof) => truncated_object(inp, s),
        Err(Stop::Invalid) => broken_bare_call(inp, s),
    }
}

/// A bare object that is not strict JSON but opens like a call (`{'name': …`, `{name: …`): the
/// breakage small models make (single quotes, a trailing comma, an unquoted key, unescaped
/// quotes in a value) is repaired as it would be inside a fence or a tag, and the object is a
/// call when the repaired value has a call's shape. Anything else is not this reader's.
fn broken_bare_call(inp: &Input<'_>, s: usize) -> Step {
    let t = inp.text;
    match opens_like_call(&t[s..]) {
        Some(true) => {}
        None if !inp.fin => return Step::NeedMore(Wait::Balanced),
        _ => return Step::NotMine,
    }
    let Some(len) = crate::repair::value_extent(&t[s..]) else {
        // Not closed yet: wait for the rest. Never closed: not recognisably a call (broken and
        // unbalanced both, as vLLM's `{"name": …, "parameters": {invalid json}` is content).
        return if inp.fin {
            Step::NotMine
        } else {
            Step::NeedMore(Wait::Balanced)
        };
    };
    let e = s + len;
    let shaped = match crate::repair::repair(&t[s..e]) {
        Ok(r) => serde_json::from_str::<Value>(&r.text).is_ok_and(|v| bare_calls(inp, &v)),
        // Unrepairable, but `{"name": …, "arguments": …`: a call whose arguments the model must
        // write again (as the same text inside a tag is), not an answer.
        Err(_) => text_names_arguments(&t[s..e]),
    };
    if !shaped {
        return Step::NotMine;
    }
    Step::Done {
        end: e,
        pieces: payload(inp, s..e, s..e, Format::BareJson, false),
    }
}

/// Whether the object text `t`, which repair could not read, has an `arguments` or `parameters`
/// key (quoted any way or not, then a colon); [`super::value::has_arguments_key`] asks the same
/// of a value.
fn text_names_arguments(t: &str) -> bool {
    ["arguments", "parameters"].iter().any(|k| {
        t.match_indices(k).any(|(i, _)| {
            let r = t[i + k.len()..].trim_start_matches(['"', '\'', '\u{2019}', '\u{201D}']);
            let before = t[..i].trim_end_matches(['"', '\'', '\u{2018}', '\u{201C}']);
            r.trim_start().starts_with(':') && before.trim_end().ends_with([',', '{'])
        })
    })
}

/// Whether `t` (starting at `{`) opens with a `name` key, quoted any way or not: `Some(true)`,
/// `Some(false)`, or `None` when `t` ends before that is decided (a stream waits for more).
pub(crate) fn opens_like_call(t: &str) -> Option<bool> {
    let rest = t[1..].trim_start();
    let rest = rest
        .strip_prefix(['"', '\'', '\u{2018}', '\u{201C}'])
        .unwrap_or(rest);
    if rest.len() < 4 {
        return if "name".starts_with(rest) {
            None
        } else {
            Some(false)
        };
    }
    let Some(r) = rest.strip_prefix("name") else {
        return Some(false);
    };
    let r = r
        .trim_start_matches(['"', '\'', '\u{2019}', '\u{201D}'])
        .trim_start();
    if r.is_empty() {
        None
    } else {
        Some(r.starts_with(':'))
    }
}

/// Prose recovery (as Ollama's generic parser does): a known tool's name shortly before a JSON
/// object whose keys are all parameters of that tool (`I'll call ls with {"path": "."}`,
/// `` `ls` {"path": "."} ``) makes the object that tool's arguments. Needs a tool list; the
/// caller also applies [`prose_call_stands`].
fn prose_tool(inp: &Input<'_>, s: usize, v: &Value) -> Option<String> {
    let tools = inp.opts.tools.as_ref()?;
    let obj = v.as_object()?;
    let t = inp.text;
    let mut lo = s.saturating_sub(48);
    while !t.is_char_boundary(lo) {
        lo += 1;
    }
    let before = &t[lo..s];
    // The name must be in the same clause: no sentence end between it and the object.
    let clause_start = before
        .rfind(['.', '\n', '!', '?', ';'])
        .map_or(0, |i| i + 1);
    let clause = &before[clause_start..];
    let mut best: Option<(usize, &str)> = None;
    for tool in tools {
        let n = tool.name.as_str();
        if n.is_empty() {
            continue;
        }
        for (i, _) in clause.match_indices(n) {
            let left_ok = clause[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !super::scan::is_name_char(c));
            let right_ok = clause[i + n.len()..]
                .chars()
                .next()
                .is_none_or(|c| !super::scan::is_name_char(c));
            if left_ok && right_ok && best.is_none_or(|(b, _)| i > b) {
                best = Some((i, n));
            }
        }
    }
    let (_, name) = best?;
    let tool = inp.opts.tool(name)?;
    let props = tool.parameters.get("properties").and_then(Value::as_object);
    let fits = match props {
        Some(p) => !obj.is_empty() && obj.keys().all(|k| p.contains_key(k)),
        None => !obj.is_empty(),
    };
    fits.then(|| name.to_owned())
}

/// Prose recovery of a Python-style call: a known tool's name written right before `(` with
/// keyword arguments that are all parameters of that tool (`I'll run get_weather(city="Paris")
/// now`). The marker is the `(`; the call's span starts at the name. Needs a tool list; any other
/// name, positional arguments or an unreadable argument list leave the text as content, and so
/// does a call [`prose_call_stands`] refuses (in a code span, negated, or reported as done).
pub(crate) fn prose_python(inp: &Input<'_>, s: usize, _mend: usize) -> Step {
    let Some(tools) = inp.opts.tools.as_ref() else {
        return Step::NotMine;
    };
    let t = inp.text;
    let ns = t[..s]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| super::scan::is_name_char(c))
        .last()
        .map_or(s, |(i, _)| i);
    let name = &t[ns..s];
    if name.is_empty() || !tools.iter().any(|tool| tool.name == name) {
        return Step::NotMine;
    }
    match super::value::py_call(t, ns, super::value::Positional::Mapped(inp.opts)) {
        Ok((n, super::value::PyArgs::Value(Value::Object(args)), e)) if n == name => {
            let props = inp
                .opts
                .tool(name)
                .and_then(|tool| tool.parameters.get("properties"))
                .and_then(Value::as_object);
            if props.is_some_and(|p| !args.keys().all(|k| p.contains_key(k))) {
                return Step::NotMine;
            }
            match prose_call_stands(inp, ns, e) {
                Ok(true) => {}
                Ok(false) => return Step::NotMine,
                Err(st) => return st,
            }
            Step::Done {
                end: e,
                pieces: vec![Piece::Call(RawCall {
                    name: n,
                    args: Args::Value(Value::Object(args), Vec::new()),
                    raw: ns..e,
                    span: ns..e,
                    format: Format::Prose,
                    id: None,
                })],
            }
        }
        Err(Stop::Eof) if !inp.fin => Step::NeedMore(Wait::Balanced),
        _ => Step::NotMine,
    }
}

/// How far prose recovery looks around a call for its sentence (keeps the work per candidate
/// bounded, so the scan stays linear).
const SENTENCE_WINDOW: usize = 240;

/// Words that, before a call in the same sentence, say it will not be made (`cannot`, `won't`,
/// `do not`, `never`, `without`, …) or was already made (`called`, `ran`, `earlier`, …).
fn refuses_or_reports(word: &str, prev: &str) -> bool {
    const NOT_AFTER: &[&str] = &[
        "will", "should", "do", "does", "did", "can", "could", "would", "must", "shall",
    ];
    const WORDS: &[&str] = &[
        "cannot",
        "never",
        "without",
        "unable",
        "called",
        "ran",
        "used",
        "invoked",
        "executed",
        "tried",
        "returned",
        "earlier",
        "previously",
        "already",
    ];
    word.ends_with("n't") || WORDS.contains(&word) || (word == "not" && NOT_AFTER.contains(&prev))
}

/// Words that, after a call in the same sentence, report it as done (`… returned 18 °C`).
fn reports_after(word: &str) -> bool {
    [
        "returned",
        "earlier",
        "previously",
        "already",
        "gave",
        "failed",
    ]
    .contains(&word)
}

/// The lower-case words of `s` (letters, digits and apostrophes; `’` read as `'`).
fn words(s: &str) -> impl Iterator<Item = String> + '_ {
    s.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().replace('\u{2019}', "'"))
}

/// Prose recovery's guard for a known tool's call written in prose at `start..end`: the call is
/// taken only when it is not shown as code (inside an inline `` `…` `` span on its line) and
/// its sentence neither says it will not be made (a negation before it) nor reports it as
/// already made (past-tense words before it, `returned` / `earlier` after it). While streaming
/// the rest of the sentence may still be arriving: `Err(NeedMore)`.
fn prose_call_stands(inp: &Input<'_>, start: usize, end: usize) -> Result<bool, Step> {
    let t = inp.text;
    let mut lo = start.saturating_sub(SENTENCE_WINDOW);
    while !t.is_char_boundary(lo) {
        lo += 1;
    }
    let line = &t[lo..start];
    let line = &line[line.rfind('\n').map_or(0, |i| i + 1)..];
    if line.matches('`').count() % 2 == 1 {
        return Ok(false);
    }
    let before = &line[line.rfind(['.', '!', '?']).map_or(0, |i| i + 1)..];
    let ws: Vec<String> = words(before).collect();
    let mut prev = "";
    for w in &ws {
        if refuses_or_reports(w, prev) {
            return Ok(false);
        }
        prev = w;
    }
    let rest = &t[end..];
    let stop = rest
        .char_indices()
        .take_while(|(i, _)| *i < SENTENCE_WINDOW)
        .find(|(_, c)| matches!(c, '.' | '!' | '?' | '\n'))
        .map(|(i, _)| i);
    let after = match stop {
        Some(i) => &rest[..i],
        None if !inp.fin && rest.len() < SENTENCE_WINDOW => {
            return Err(Step::NeedMore(Wait::Markers(&[".", "!", "?", "\n"])));
        }
        None => {
            let mut cap = rest.len().min(SENTENCE_WINDOW);
            while !rest.is_char_boundary(cap) {
                cap -= 1;
            }
            &rest[..cap]
        }
    };
    Ok(!words(after).any(|w| reports_after(&w)))
}

/// An object cut off by the end of the output that starts like a call (`{"name": "f", …` or a
/// `{"tool_call": …` wrapper) is a truncated call.
fn truncated_object(inp: &Input<'_>, s: usize) -> Step {
    let t = inp.text;
    let compact: String = t[s..]
        .chars()
        .take(200)
        .filter(|c| !c.is_whitespace())
        .collect();
    let looks = [
        "{\"name\":\"",
        "{\"tool_call\":{",
        "{\"tool_calls\":[",
        "{\"function\":",
        "{\"type\":\"function\"",
    ]
    .iter()
    .any(|p| compact.starts_with(p));
    if !looks {
        return Step::NotMine;
    }
    let fmt = inp
        .hint()
        .unwrap_or(if compact.starts_with("{\"tool_call") {
            Format::LlamacppGenericJson
        } else {
            Format::BareJson
        });
    Step::Done {
        end: t.len(),
        pieces: payload(inp, s..t.len(), s..t.len(), fmt, false),
    }
}

/// A bare `[`: a JSON array of call objects, or a Python list of calls `[f(a=1), g()]`.
pub(crate) fn bare_array(inp: &Input<'_>, s: usize, _mend: usize) -> Step {
    let t = inp.text;
    match json_at(t, s) {
        Ok((v, e)) => {
            if bare_calls(inp, &v) {
                let fmt = inp.hint().unwrap_or(Format::JsonArray);
                Step::Done {
                    end: e,
                    pieces: payload(inp, s..e, s..e, fmt, false),
                }
            } else {
                Step::Skip(e)
            }
        }
        Err(Stop::Eof) if !inp.fin => Step::NeedMore(Wait::Balanced),
        Err(Stop::Eof) => {
            // A cut-off array of call objects: the complete ones are calls.
            let j = skip_ws(t, s + 1);
            let compact: String = t[j..]
                .chars()
                .take(40)
                .filter(|c| !c.is_whitespace())
                .collect();
            if compact.starts_with("{\"name\":\"") {
                let fmt = inp.hint().unwrap_or(Format::JsonArray);
                return Step::Done {
                    end: t.len(),
                    pieces: payload(inp, j..t.len(), s..t.len(), fmt, false),
                };
            }
            super::pythonic::bare_list(inp, s)
        }
        Err(Stop::Invalid) => super::pythonic::bare_list(inp, s),
    }
}
