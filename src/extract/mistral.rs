//! Mistral: `[TOOL_CALLS][{"name": …, "arguments": …}]` (before v11) and
//! `[TOOL_CALLS]name[ARGS]{…}` (v11 and later, optionally `[CALL_ID]id` before `[ARGS]`).

use super::Format;
use super::json_tags::payload;
use super::scan::{Args, Input, Piece, RawCall, Step, Wait, find, skip_ws};
use super::value::{Stop, json_at};

const TAG: &str = "[TOOL_CALLS]";

/// `[TOOL_CALLS] junk [{…}]`: words before the JSON list are skipped.
fn junk_then_json(inp: &Input<'_>, s: usize, from: usize) -> Step {
    let t = inp.text;
    let Some(j) = t[from..].find(['[', '{']).map(|i| from + i) else {
        // The marker is a control token, never text to show: dropped, the words after it stay.
        return Step::dropped_when_final(inp.fin, s + TAG.len());
    };
    match json_at(t, j) {
        Ok((v, e)) if super::value::calls_from_value(&v, false).is_some() => Step::Done {
            end: e,
            pieces: payload(inp, j..e, s..e, Format::MistralJsonArray, false),
        },
        Err(Stop::Eof) if !inp.fin => Step::NeedMore(Wait::Balanced),
        _ => Step::NotMine,
    }
}

/// A v11 call named `name` (ending at `ne`, its `[TOOL_CALLS]` at `cs`) whose arguments never
/// came: the output ended first, at `end`.
fn cut_before_args(name: String, ne: usize, cs: usize, end: usize) -> Piece {
    Piece::Call(RawCall {
        name,
        args: Args::Bad(crate::repair::RepairError::Truncated {
            at: end,
            message: "the output ends before the arguments".into(),
        }),
        raw: ne..end,
        span: cs..end,
        format: Format::MistralV11,
        id: None,
    })
}

/// `[TOOL_CALLS]`.
pub(crate) fn handle(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let t = inp.text;
    let at = skip_ws(t, mend);
    if at >= t.len() {
        return Step::dropped_when_final(inp.fin, t.len());
    }
    if matches!(t.as_bytes()[at], b'[' | b'{') {
        return match json_at(t, at) {
            Ok((_, e)) => Step::Done {
                end: e,
                pieces: payload(inp, at..e, s..e, Format::MistralJsonArray, false),
            },
            Err(Stop::Eof) if !inp.fin => Step::NeedMore(Wait::Balanced),
            _ => {
                let end = find(t, at, TAG).unwrap_or(t.len());
                if !inp.fin && end == t.len() {
                    return Step::NeedMore(Wait::Balanced);
                }
                Step::Done {
                    end,
                    pieces: payload(inp, at..end, s..end, Format::MistralJsonArray, false),
                }
            }
        };
    }
    // v11: name[ARGS]{…}, possibly several, each after its own [TOOL_CALLS].
    let mut pieces = Vec::new();
    let mut pos = at;
    let mut cs = s;
    loop {
        let ne = super::scan::name_end(t, pos);
        let name = t[pos..ne].to_owned();
        if ne >= t.len() && !inp.fin {
            return Step::NeedMore(Wait::Any);
        }
        if name.is_empty() {
            break;
        }
        // Whitespace before `[ARGS]` / `[CALL_ID]` is accepted, as it is after them.
        let k = skip_ws(t, ne);
        let after = &t[k..];
        let shaped =
            after.starts_with("[ARGS]") || after.starts_with("[CALL_ID]") || after.starts_with('{');
        if !shaped {
            if !inp.fin && ("[ARGS]".starts_with(after) || "[CALL_ID]".starts_with(after)) {
                return Step::NeedMore(Wait::Any);
            }
            if pieces.is_empty() {
                if inp.fin && after.is_empty() {
                    // `[TOOL_CALLS]name` and the output ends: cut off before its arguments.
                    return Step::Done {
                        end: t.len(),
                        pieces: vec![cut_before_args(name, ne, s, t.len())],
                    };
                }
                return junk_then_json(inp, s, pos);
            }
            break;
        }
        let mut a = k;
        let mut id = None;
        if t[a..].starts_with("[CALL_ID]") {
            let is = a + "[CALL_ID]".len();
            match find(t, is, "[ARGS]") {
                Some(x) => {
                    id = Some(t[is..x].trim().to_owned());
                    a = x;
                }
                None if !inp.fin => return Step::NeedMore(Wait::Markers(&["[ARGS]"])),
                None => {}
            }
        }
        if t[a..].starts_with("[ARGS]") {
            a += "[ARGS]".len();
        } else if !inp.fin && "[ARGS]".starts_with(&t[a..]) {
            return Step::NeedMore(Wait::Any);
        }
        let a = skip_ws(t, a);
        if a == t.len() && !inp.fin {
            return Step::NeedMore(Wait::Any);
        }
        if a == t.len() && !inp.opts.partial {
            // `[TOOL_CALLS]name[ARGS]` and the output ends: cut off before its arguments (a
            // partial text reads them as far as they go: `{}`).
            pieces.push(cut_before_args(name, ne, cs, a));
            pos = a;
            break;
        }
        let e = match json_at(t, a) {
            Ok((_, e)) => e,
            Err(Stop::Eof) if !inp.fin => return Step::NeedMore(Wait::Balanced),
            // Not JSON (`{'city': 'Paris'}`): up to where its brackets balance, so the prose
            // after it stays content; else up to the next call.
            Err(_) => {
                let limit = find(t, a, TAG).unwrap_or(t.len());
                crate::repair::value_extent(&t[a..limit]).map_or(limit, |n| a + n)
            }
        };
        if !inp.fin && e == t.len() && a == t.len() {
            return Step::NeedMore(Wait::Any);
        }
        pieces.push(Piece::Call(RawCall {
            name,
            args: Args::Json(a..e),
            raw: a..e,
            span: cs..e,
            format: Format::MistralV11,
            id,
        }));
        pos = e;
        let j = skip_ws(t, pos);
        if t[j..].starts_with(TAG) {
            cs = j;
            pos = skip_ws(t, j + TAG.len());
            continue;
        }
        if !inp.fin && TAG.starts_with(&t[j..]) {
            return Step::NeedMore(Wait::Any);
        }
        break;
    }
    if pieces.is_empty() {
        return Step::NotMine;
    }
    Step::Done { end: pos, pieces }
}
