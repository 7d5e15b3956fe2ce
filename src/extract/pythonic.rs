//! Python-call families: LFM2 (`<|tool_call_start|>[f(a=1)]<|tool_call_end|>`, and its JSON
//! mode), OLMo 3 (`<function_calls>f(a=1)</function_calls>`), Llama 3.1's `<|python_tag|>`, and
//! bare lists `[f(a=1), g(b='x')]`.

use super::Format;

/// Python calls read from a text: name, arguments, and the call's span.
type PyCalls = Vec<(String, PyArgs, std::ops::Range<usize>)>;
use super::json_tags::{expect_close, payload, trim_range};
use super::scan::{Args, Input, Piece, RawCall, Step, Wait, body_until, skip_ws};
use super::value::{Positional, PyArgs, Stop, py_call};

/// Why [`calls_in`] stopped before the end of a run of calls: the reason, the calls read
/// before, and where the call it could not read starts.
struct Broken {
    stop: Stop,
    calls: PyCalls,
    at: usize,
}

/// Reads calls separated by `,`, `;` or newlines from `at` (up to a `]` when `bracket`).
/// Returns the calls and where reading ended.
fn calls_in(
    t: &str,
    mut at: usize,
    bracket: bool,
    positional: Positional<'_>,
) -> Result<(PyCalls, usize), Broken> {
    let mut out = Vec::new();
    loop {
        at = skip_ws(t, at);
        if bracket {
            match t.as_bytes().get(at) {
                Some(b']') => return Ok((out, at + 1)),
                None => {
                    return Err(Broken {
                        stop: Stop::Eof,
                        calls: out,
                        at,
                    });
                }
                _ => {}
            }
        } else if at >= t.len() {
            return Ok((out, at));
        }
        let (name, args, e) = match py_call(t, at, positional) {
            Ok(c) => c,
            Err(stop) => {
                return Err(Broken {
                    stop,
                    calls: out,
                    at,
                });
            }
        };
        out.push((name, args, at..e));
        at = skip_ws(t, e);
        match t.as_bytes().get(at) {
            Some(b',' | b';') => at += 1,
            Some(b']') if bracket => {}
            None if bracket => {
                return Err(Broken {
                    stop: Stop::Eof,
                    calls: out,
                    at,
                });
            }
            None => return Ok((out, at)),
            Some(_) if !bracket => {}
            Some(_) => {
                return Err(Broken {
                    stop: Stop::Invalid,
                    calls: out,
                    at,
                });
            }
        }
    }
}

/// The call the output was cut off in, starting at `at`: its name (`.call` dropped) when a
/// name and `(` are there, with its arguments marked cut off (E4).
fn cut_call(t: &str, at: usize, span: std::ops::Range<usize>, fmt: Format) -> Option<Piece> {
    let ne = super::value::py_ident(t, at)?;
    if t.as_bytes().get(skip_ws(t, ne)) != Some(&b'(') {
        return None;
    }
    let name = &t[at..ne];
    Some(Piece::Call(RawCall {
        name: name.strip_suffix(".call").unwrap_or(name).to_owned(),
        args: Args::Bad(crate::repair::RepairError::Truncated {
            at: t.len(),
            message: "the call is cut off".into(),
        }),
        raw: ne..t.len(),
        span,
        format: fmt,
        id: None,
    }))
}

/// Calls read before the output ended, then the one it ended in (when it has a name and `(`):
/// the complete ones are calls, the cut-off one is rejected, as in a cut-off JSON array.
fn cut_pieces(t: &str, b: Broken, span: std::ops::Range<usize>, fmt: Format) -> Vec<Piece> {
    let cut = cut_call(t, b.at, span.clone(), fmt);
    let mut out = to_pieces(b.calls, span, fmt);
    out.extend(cut);
    out
}

fn to_pieces(calls: PyCalls, span: std::ops::Range<usize>, fmt: Format) -> Vec<Piece> {
    calls
        .into_iter()
        .map(|(name, args, r)| {
            Piece::Call(RawCall {
                name,
                args: match args {
                    PyArgs::Value(v) => Args::Value(v, Vec::new()),
                    PyArgs::TooMany(n) => Args::TooMany(n),
                },
                raw: r,
                span: span.clone(),
                format: fmt,
                id: None,
            })
        })
        .collect()
}

/// The calls in an envelope body: a JSON payload if it is one, else Python calls (with or
/// without list brackets).
fn body_calls(
    inp: &Input<'_>,
    body: std::ops::Range<usize>,
    span: std::ops::Range<usize>,
    json_fmt: Format,
    py_fmt: Format,
) -> Vec<Piece> {
    let t = inp.text;
    // The envelope's close marker came after the body: nothing in it was cut off by the end of
    // the output (an unterminated string in it is malformed, not truncated).
    let closed = span.end > body.end;
    let r = trim_range(t, body);
    let sub = &t[..r.end];
    let first = t.as_bytes().get(r.start).copied();
    if first == Some(b'{')
        || (first == Some(b'[') && t[r.start + 1..r.end].trim_start().starts_with('{'))
    {
        return payload(inp, r, span, json_fmt, false);
    }
    let bracket = first == Some(b'[');
    let from = if bracket { r.start + 1 } else { r.start };
    match calls_in(sub, from, bracket, Positional::Mapped(inp.opts)) {
        Ok((calls, _)) if !calls.is_empty() => to_pieces(calls, span, py_fmt),
        Ok(_) => Vec::new(),
        Err(b) if b.stop == Stop::Eof && inp.fin && !closed => {
            // Cut off inside a call: the complete calls, then the cut-off one by its name so
            // the model can be asked to finish it.
            cut_pieces(t, b, span, py_fmt)
        }
        Err(_) => {
            // Not readable: the text stays visible as content.
            vec![Piece::Content(span)]
        }
    }
}

/// `<|tool_call_start|>…<|tool_call_end|>`.
pub(crate) fn lfm2(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    match body_until(inp, mend, &["<|tool_call_end|>"]) {
        Ok((body, end)) => Step::Done {
            end,
            pieces: body_calls(inp, body, s..end, Format::Lfm2Json, Format::Lfm2Pythonic),
        },
        Err(st) => st,
    }
}

/// `<function_calls>…</function_calls>`.
pub(crate) fn olmo3(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    match body_until(inp, mend, &["</function_calls>"]) {
        Ok((body, end)) => Step::Done {
            end,
            pieces: body_calls(
                inp,
                body,
                s..end,
                Format::Olmo3Pythonic,
                Format::Olmo3Pythonic,
            ),
        },
        Err(st) => st,
    }
}

const PY_TAG_END: &[&str] = &["<|eom_id|>", "<|eot_id|>"];

/// `<|python_tag|>f.call(a=1)`, `<|python_tag|>{"name": …}`, or `<|python_tag|>` then raw
/// Python code (Llama 3.1's and Functionary v3.1's code interpreter: a call to the `python`
/// tool, as Functionary v3.2's `>>>python`), each up to `<|eom_id|>` / `<|eot_id|>` or the end.
pub(crate) fn python_tag(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let t = inp.text;
    let at = skip_ws(t, mend);
    if at >= t.len() {
        // Nothing after the tag: a control token, never content.
        return Step::dropped_when_final(inp.fin, t.len());
    }
    if t.as_bytes()[at] == b'{' || t.as_bytes()[at] == b'[' {
        // One or more JSON calls (`;`-separated) up to the end-of-message token.
        return match body_until(inp, at, PY_TAG_END) {
            Ok((body, end)) => Step::Done {
                end,
                pieces: payload(inp, body, s..end, Format::Llama3PythonTag, false),
            },
            Err(st) => st,
        };
    }
    let mut calls = Vec::new();
    let mut pos = at;
    loop {
        match py_call(t, pos, Positional::Mapped(inp.opts)) {
            Ok((name, args, e)) => {
                calls.push((name, args, pos..e));
                pos = e;
                let j = skip_ws(t, pos);
                if t[j..].starts_with(';') {
                    pos = skip_ws(t, j + 1);
                    continue;
                }
                break;
            }
            Err(Stop::Eof) if !inp.fin => return Step::NeedMore(Wait::Balanced),
            Err(stop) => {
                if stop == Stop::Eof && cut_call(t, pos, 0..0, Format::Llama3PythonTag).is_some() {
                    // The output ended inside a call.
                    let b = Broken {
                        stop,
                        calls,
                        at: pos,
                    };
                    let span = s..t.len();
                    return Step::Done {
                        end: t.len(),
                        pieces: cut_pieces(t, b, span, Format::Llama3PythonTag),
                    };
                }
                if calls.is_empty() {
                    return raw_code(inp, s, at);
                }
                break;
            }
        }
    }
    let end = match expect_close(inp, pos, PY_TAG_END) {
        Ok(x) => x,
        Err(st) => return st,
    };
    Step::Done {
        end,
        pieces: to_pieces(calls, s..end, Format::Llama3PythonTag),
    }
}

/// `<|python_tag|>` then code that is no call: the code interpreter's input, up to the
/// end-of-message token or the end of the output.
fn raw_code(inp: &Input<'_>, s: usize, at: usize) -> Step {
    match body_until(inp, at, PY_TAG_END) {
        Ok((body, end)) => {
            let fmt = match inp.hint() {
                Some(Format::FunctionaryV31) => Format::FunctionaryV31,
                _ => Format::Llama3PythonTag,
            };
            Step::Done {
                end,
                pieces: vec![super::json_tags::code_call(inp.text, body, s..end, fmt)],
            }
        }
        Err(st) => st,
    }
}

/// A bare Python list of calls: `[f(a=1), g()]`. A complete, well-formed list counts; so does
/// one the output ends in once a call in it has its name and `(` (the complete calls are calls,
/// the cut-off one is rejected).
pub(crate) fn bare_list(inp: &Input<'_>, s: usize) -> Step {
    let t = inp.text;
    match calls_in(t, s + 1, true, Positional::Mapped(inp.opts)) {
        Ok((calls, e)) if !calls.is_empty() => Step::Done {
            end: e,
            pieces: to_pieces(calls, s..e, Format::Pythonic),
        },
        Ok(_) => Step::NotMine,
        Err(b) if b.stop == Stop::Eof && !inp.fin => Step::NeedMore(Wait::Balanced),
        Err(b) if b.stop == Stop::Eof && !inp.opts.partial => {
            let pieces = cut_pieces(t, b, s..t.len(), Format::Pythonic);
            if pieces.is_empty() {
                return Step::NotMine;
            }
            Step::Done {
                end: t.len(),
                pieces,
            }
        }
        Err(_) => Step::NotMine,
    }
}

/// Python calls, one per line or separated by `;`, in a fenced block or envelope body; a lone
/// positional value as `positional` says.
pub(crate) fn lines(
    t: &str,
    body: std::ops::Range<usize>,
    positional: Positional<'_>,
) -> Option<PyCalls> {
    let sub = &t[..body.end];
    let r = trim_range(t, body);
    let mut at = r.start;
    let bracket = sub.as_bytes().get(at) == Some(&b'[');
    if bracket {
        at += 1;
    }
    match calls_in(sub, at, bracket, positional) {
        Ok((calls, e)) if !calls.is_empty() && skip_ws(sub, e) >= r.end => Some(calls),
        _ => None,
    }
}

/// Converts Python calls into pieces.
pub(crate) fn pieces(calls: PyCalls, span: std::ops::Range<usize>, fmt: Format) -> Vec<Piece> {
    to_pieces(calls, span, fmt)
}
