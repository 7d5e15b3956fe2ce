//! Gemma 4 (`<|tool_call>call:f{a:<|"|>text<|"|>}<tool_call|>`) and FunctionGemma
//! (`<start_function_call>call:f{a:<escape>text<escape>}<end_function_call>`).

use super::Format;
use super::json_tags::expect_close;
use super::scan::{Args, Input, Piece, RawCall, Step, Wait, skip_ws};
use super::value::{Stop, gemma_value};

fn call(
    inp: &Input<'_>,
    s: usize,
    mend: usize,
    quote: &str,
    close: &'static [&'static str],
    fmt: Format,
) -> Step {
    let t = inp.text;
    let mut at = skip_ws(t, mend);
    let rest = &t[at..];
    if let Some(r) = rest.strip_prefix("call:") {
        at += rest.len() - r.len();
    } else if !inp.fin && "call:".starts_with(rest) {
        return Step::NeedMore(Wait::Any);
    }
    let ne = super::scan::name_end(t, at);
    let name = t[at..ne].to_owned();
    if ne >= t.len() {
        return if inp.fin {
            truncated(t, s, name, fmt)
        } else {
            Step::NeedMore(Wait::Markers(close))
        };
    }
    if name.is_empty() {
        return Step::NotMine;
    }
    let vs = skip_ws(t, ne);
    if t.as_bytes().get(vs) != Some(&b'{') {
        if vs >= t.len() && !inp.fin {
            return Step::NeedMore(Wait::Any);
        }
        // `call:f` with no arguments.
        let end = match expect_close(inp, ne, close) {
            Ok(e) => e,
            Err(st) => return st,
        };
        return Step::Done {
            end,
            pieces: vec![piece(name, Ok(serde_json::json!({})), ne..ne, s..end, fmt)],
        };
    }
    match gemma_value(t, vs, quote, 0) {
        Ok((v, e)) => {
            let end = match expect_close(inp, e, close) {
                Ok(x) => x,
                Err(st) => return st,
            };
            Step::Done {
                end,
                pieces: vec![piece(name, Ok(v), vs..e, s..end, fmt)],
            }
        }
        Err(Stop::Eof) if !inp.fin => Step::NeedMore(Wait::Markers(close)),
        Err(Stop::Eof) => {
            let v = if inp.opts.partial {
                salvage(t, vs, quote)
            } else {
                Err(crate::repair::RepairError::Truncated {
                    at: t.len(),
                    message: "the output ends inside this call".into(),
                })
            };
            Step::Done {
                end: t.len(),
                pieces: vec![piece(name, v, vs..t.len(), s..t.len(), fmt)],
            }
        }
        Err(Stop::Invalid) => {
            // Unreadable arguments: the call is kept with its raw text so it can be corrected.
            let end = match super::scan::find(t, vs, close[0]) {
                Some(e) => e + close[0].len(),
                // The call runs to its close marker, which may still arrive.
                None if !inp.fin => return Step::NeedMore(Wait::Markers(close)),
                None => t.len(),
            };
            let err = crate::repair::RepairError::Invalid {
                at: vs,
                message: "not a Gemma argument object".into(),
            };
            Step::Done {
                end,
                pieces: vec![piece(name, Err(err), vs..end.min(t.len()), s..end, fmt)],
            }
        }
    }
}

/// Completes a cut-off argument object by closing what is open (strings first).
fn salvage(
    t: &str,
    vs: usize,
    quote: &str,
) -> Result<serde_json::Value, crate::repair::RepairError> {
    let mut text = t[vs..].to_owned();
    let quotes = text.matches(quote).count();
    if quotes % 2 == 1 {
        text.push_str(quote);
    }
    let mut stack = Vec::new();
    let mut in_q = false;
    let mut i = 0;
    while i < text.len() {
        if text.as_bytes()[i..].starts_with(quote.as_bytes()) {
            in_q = !in_q;
            i += quote.len();
            continue;
        }
        let c = text.as_bytes()[i];
        if !in_q {
            match c {
                b'{' => stack.push(b'}'),
                b'[' => stack.push(b']'),
                b'}' | b']' => {
                    stack.pop();
                }
                _ => {}
            }
        }
        i += 1;
    }
    let trimmed = text.trim_end().trim_end_matches(',').to_owned();
    let mut text = trimmed;
    while let Some(c) = stack.pop() {
        text.push(c as char);
    }
    gemma_value(&text, 0, quote, 0)
        .map(|(v, _)| v)
        .map_err(|_| crate::repair::RepairError::Truncated {
            at: t.len(),
            message: "the call's arguments are cut off".into(),
        })
}

fn truncated(t: &str, s: usize, name: String, fmt: Format) -> Step {
    if name.is_empty() {
        return Step::Done {
            end: t.len(),
            pieces: vec![Piece::Content(s..t.len())],
        };
    }
    let err = crate::repair::RepairError::Truncated {
        at: t.len(),
        message: "the call ends after its name".into(),
    };
    Step::Done {
        end: t.len(),
        pieces: vec![piece(name, Err(err), t.len()..t.len(), s..t.len(), fmt)],
    }
}

fn piece(
    name: String,
    v: Result<serde_json::Value, crate::repair::RepairError>,
    raw: std::ops::Range<usize>,
    span: std::ops::Range<usize>,
    fmt: Format,
) -> Piece {
    Piece::Call(RawCall {
        name,
        args: match v {
            Ok(v) => Args::Value(v, Vec::new()),
            Err(e) => Args::Bad(e),
        },
        raw,
        span,
        format: fmt,
        id: None,
    })
}

/// `<|tool_call>`.
pub(crate) fn gemma4(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    call(inp, s, mend, "<|\"|>", &["<tool_call|>"], Format::Gemma4)
}

/// `<start_function_call>`.
pub(crate) fn functiongemma(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    call(
        inp,
        s,
        mend,
        "<escape>",
        &["<end_function_call>"],
        Format::Functiongemma,
    )
}
