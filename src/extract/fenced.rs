//! Fenced blocks (```` ```json ````, ```` ```tool_code ````, ```` ```python ````, Command R+'s
//! `Action:` + ```` ```json ````) and ReAct's `Action: f` / `Action Input: {…}`.

use super::Format;
use super::json_tags::{payload, trim_range};
use super::scan::{Args, Input, Piece, RawCall, Step, Wait, find, skip_ws};
use super::value::{Stop, json_at};

const FENCE: &[&str] = &["```"];

/// A fence: its info string picks the reader. A fence with no call in it stays content whole.
pub(crate) fn fence(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let t = inp.text;
    let (lang, body, end) = match value_on_fence_line(inp, mend) {
        Err(st) => return st,
        Ok(Some(x)) => x,
        Ok(None) => {
            let nl = match super::scan::head_line_end(inp, mend) {
                Ok(nl) => nl,
                Err(true) => return Step::NeedMore(Wait::Markers(&["\n"])),
                Err(false) => return Step::NotMine,
            };
            let lang = t[mend..nl].trim().to_ascii_lowercase();
            match super::scan::find(t, nl + 1, "```") {
                Some(e) => (lang, nl + 1..e, e + 3),
                None if inp.fin => (lang, nl + 1..t.len(), t.len()),
                None => return Step::NeedMore(Wait::Markers(FENCE)),
            }
        }
    };
    let r = trim_range(t, body.clone());
    match lang.as_str() {
        "json" | "" | "tool_call" | "tool_calls" | "javascript" | "json5" => {
            let inner = &t[r.clone()];
            if (inner.starts_with('{') || inner.starts_with('['))
                && fenced_json_is_call(inp, r.clone())
            {
                let fmt = inp.hint().unwrap_or(Format::FencedJson);
                return Step::Done {
                    end,
                    pieces: payload(inp, r, s..end, fmt, false),
                };
            }
            nested_or_skip(inp, body, end)
        }
        "xml" | "html" => nested_or_skip(inp, body, end),
        "tool_code" | "tool_call_code" => {
            match super::pythonic::lines(t, body, super::value::Positional::Mapped(inp.opts)) {
                Some(calls) => Step::Done {
                    end,
                    pieces: super::pythonic::pieces(calls, s..end, Format::ToolCode),
                },
                None => Step::Skip(end),
            }
        }
        "python" | "py" => {
            match super::pythonic::lines(t, body, super::value::Positional::Mapped(inp.opts)) {
                Some(calls) if calls.iter().all(|c| inp.opts.knows(&c.0)) => Step::Done {
                    end,
                    pieces: super::pythonic::pieces(calls, s..end, Format::FencedPython),
                },
                _ => Step::Skip(end),
            }
        }
        _ => Step::Skip(end),
    }
}

/// A fence whose value starts on its own opening line (```` ```json {"name": …} ``` ````, or
/// ```` ```{…}``` ```` inside a sentence): the info word (possibly none), spaces, a `{` or `[`,
/// the value to its matching bracket, then whitespace and the closing fence. `Ok(Some((lang,
/// body, end)))` for such a fence, `Ok(None)` for any other (the usual fence, its value on the
/// next line), `Err` while the text so far cannot tell (E21).
fn value_on_fence_line(
    inp: &Input<'_>,
    mend: usize,
) -> Result<Option<(String, std::ops::Range<usize>, usize)>, Step> {
    let t = inp.text;
    let b = t.as_bytes();
    let more = |w: Wait| {
        if inp.fin {
            Ok(None)
        } else {
            Err(Step::NeedMore(w))
        }
    };
    let mut j = mend;
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
        j += 1;
    }
    let mut v = j;
    while v < b.len() && matches!(b[v], b' ' | b'\t') {
        v += 1;
    }
    match b.get(v) {
        None => return more(Wait::Any),
        Some(b'{' | b'[') => {}
        Some(_) => return Ok(None),
    }
    let Some(n) = crate::repair::value_extent(&t[v..]) else {
        return more(Wait::Balanced);
    };
    let e = v + n;
    let k = skip_ws(t, e);
    if t[k..].starts_with("```") {
        return Ok(Some((t[mend..j].to_ascii_lowercase(), v..e, k + 3)));
    }
    if "```".starts_with(&t[k..]) {
        return more(Wait::Any);
    }
    Ok(None)
}

/// A call written as an inline code span, `` `{"name": …}` ``: the backticks are its envelope.
/// Anything else at a backtick (data in a code span, a lone backtick) is left to the scanner,
/// which takes the `{` on its own (E21).
pub(crate) fn inline_code(inp: &Input<'_>, s: usize, _mend: usize) -> Step {
    let t = inp.text;
    match super::json_tags::bare_object(inp, s + 1, s + 2) {
        Step::NeedMore(w) => Step::NeedMore(w),
        // The closing backtick run must be whole: one backtick at the buffer's end may grow.
        Step::Done { end, .. } if end + 1 >= t.len() && !inp.fin => Step::NeedMore(Wait::Any),
        Step::Done { end, mut pieces }
            if t[end..].starts_with('`')
                && !t[end..].starts_with("``")
                && pieces.len() == 1
                && matches!(pieces[0], Piece::Call(_)) =>
        {
            if let Piece::Call(c) = &mut pieces[0] {
                c.span = s..end + 1;
            }
            Step::Done {
                end: end + 1,
                pieces,
            }
        }
        _ => Step::NotMine,
    }
}

/// Scans a fence's body like top-level text (a fence may hold `<tool_call>` or
/// `<function_call>` envelopes); with no call found the whole fence is content.
fn nested_or_skip(inp: &Input<'_>, body: std::ops::Range<usize>, end: usize) -> Step {
    let pieces = super::scan::nested(inp, body);
    if pieces.iter().any(|p| matches!(p, Piece::Call(_))) {
        Step::Done { end, pieces }
    } else {
        Step::Skip(end)
    }
}

/// True when the fenced JSON holds calls (strictly valid values, or a repairable call shape).
fn fenced_json_is_call(inp: &Input<'_>, r: std::ops::Range<usize>) -> bool {
    let t = inp.text;
    let mut at = r.start;
    let mut any = false;
    while at < r.end {
        match json_at(&t[..r.end], at) {
            Ok((v, e)) => {
                if !super::json_tags::bare_calls(inp, &v) {
                    return false;
                }
                any = true;
                at = skip_ws(t, e);
            }
            Err(_) => {
                // Broken JSON: call-shaped if it names a tool and its arguments.
                let head = &t[at..r.end];
                return head.contains("\"name\"")
                    && (head.contains("\"arguments\"") || head.contains("\"parameters\""));
            }
        }
    }
    any
}

/// `Action:` — Command R+'s fenced JSON list, or ReAct's `Action: f` + `Action Input: {…}`.
pub(crate) fn action(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let t = inp.text;
    let at = skip_ws(t, mend);
    let rest = &t[at..];
    if rest.starts_with("```") {
        return match fence(inp, at, at + 3) {
            Step::Done { end, pieces } => {
                let pieces = pieces
                    .into_iter()
                    .map(|p| match p {
                        Piece::Call(mut c) => {
                            if c.format == Format::FencedJson {
                                c.format = Format::CommandRPlusFenced;
                            }
                            c.span = s..c.span.end;
                            Piece::Call(c)
                        }
                        other => other,
                    })
                    .collect();
                Step::Done { end, pieces }
            }
            Step::Skip(_) => Step::NotMine,
            other => other,
        };
    }
    if !inp.fin && (rest.is_empty() || "```".starts_with(rest)) {
        return Step::NeedMore(Wait::Any);
    }
    // ReAct.
    let nl = match super::scan::head_line_end(inp, at) {
        Ok(nl) => nl,
        Err(true) => return Step::NeedMore(Wait::Markers(&["\n"])),
        Err(false) => return Step::NotMine,
    };
    let name = t[at..nl].trim();
    if !super::scan::is_name(name) {
        return Step::NotMine;
    }
    let j = skip_ws(t, nl);
    const INPUT: &str = "Action Input:";
    let rest = &t[j..];
    if !rest.starts_with(INPUT) {
        if !inp.fin && INPUT.starts_with(rest) {
            return Step::NeedMore(Wait::Any);
        }
        return Step::NotMine;
    }
    let a = skip_ws(t, j + INPUT.len());
    let (ae, end) = match json_at(t, a) {
        Ok((v, e)) if e == t.len() && !inp.fin && super::value::may_go_on(&v) => {
            return Step::NeedMore(Wait::Any);
        }
        Ok((_, e)) => (e, e),
        Err(Stop::Eof) if !inp.fin => return Step::NeedMore(Wait::Balanced),
        _ => {
            // Not JSON: the input runs to the end of its line (or to `Observation:`).
            let stop = ["\nObservation:", "\nThought:", "\n\n"]
                .iter()
                .filter_map(|m| find(t, a, m))
                .min();
            match stop {
                // Only whitespace after the stop so far: whether the output ends here (and the
                // call is cut off) is not known yet.
                Some(x) if !inp.fin && t[x..].trim().is_empty() => {
                    return Step::NeedMore(Wait::Any);
                }
                Some(x) => (x, x),
                None if inp.fin => (t.len(), t.len()),
                None => {
                    return Step::NeedMore(Wait::Markers(&[
                        "\nObservation:",
                        "\nThought:",
                        "\n\n",
                    ]));
                }
            }
        }
    };
    let raw = &t[a..ae];
    let args = if raw.trim_start().starts_with('{') || raw.trim_start().starts_with('[') {
        Args::Json(a..ae)
    } else {
        Args::Value(serde_json::json!({ "input": raw.trim() }), Vec::new())
    };
    Step::Done {
        end,
        pieces: vec![Piece::Call(RawCall {
            name: name.to_owned(),
            args,
            raw: a..ae,
            span: s..end,
            format: Format::React,
            id: None,
        })],
    }
}
