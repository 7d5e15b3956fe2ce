//! DeepSeek V3 (`function<｜tool▁sep｜>name\n```json\n{…}\n```) and V3.1 (`name<｜tool▁sep｜>{…}`),
//! inside `<｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>`.

use super::Format;
use super::scan::{Args, Input, Piece, RawCall, Step, Wait, find, skip_ws};

/// The markers of one spelling (full-width bars, or the ASCII bars some templates print).
struct Spelling {
    calls_end: &'static str,
    call_begin: &'static str,
    call_end: &'static str,
    sep: &'static str,
    wait: &'static [&'static str],
}

const FULL: Spelling = Spelling {
    calls_end: "<\u{ff5c}tool\u{2581}calls\u{2581}end\u{ff5c}>",
    call_begin: "<\u{ff5c}tool\u{2581}call\u{2581}begin\u{ff5c}>",
    call_end: "<\u{ff5c}tool\u{2581}call\u{2581}end\u{ff5c}>",
    sep: "<\u{ff5c}tool\u{2581}sep\u{ff5c}>",
    wait: &[
        "<\u{ff5c}tool\u{2581}call\u{2581}end\u{ff5c}>",
        "<\u{ff5c}tool\u{2581}calls\u{2581}end\u{ff5c}>",
    ],
};

const ASCII: Spelling = Spelling {
    calls_end: "<|tool\u{2581}calls\u{2581}end|>",
    call_begin: "<|tool\u{2581}call\u{2581}begin|>",
    call_end: "<|tool\u{2581}call\u{2581}end|>",
    sep: "<|tool\u{2581}sep|>",
    wait: &[
        "<|tool\u{2581}call\u{2581}end|>",
        "<|tool\u{2581}calls\u{2581}end|>",
    ],
};

/// Any begin marker.
pub(crate) fn handle(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let t = inp.text;
    let marker = &t[s..mend];
    let sp = if marker.contains('\u{ff5c}') {
        &FULL
    } else {
        &ASCII
    };
    let (call_begin, calls_end, call_end, sep) = (sp.call_begin, sp.calls_end, sp.call_end, sp.sep);
    let wait = sp.wait;
    // `<｜tool▁calls｜>` (a short spelling of the section start) is followed by the call directly.
    let short = marker == "<\u{ff5c}tool\u{2581}calls\u{ff5c}>";
    let mut at = if marker == call_begin || short {
        s
    } else {
        mend
    };
    let mut pieces = Vec::new();
    loop {
        at = skip_ws(t, at);
        let rest = &t[at..];
        if rest.starts_with(calls_end) {
            at += calls_end.len();
            break;
        }
        let in_short = short && at == s;
        if !rest.starts_with(call_begin) && !in_short {
            if !inp.fin && (call_begin.starts_with(rest) || calls_end.starts_with(rest)) {
                return Step::NeedMore(Wait::Markers(wait));
            }
            break;
        }
        let cs = at;
        let hs = if in_short {
            mend
        } else {
            at + call_begin.len()
        };
        let Some(sep_at) = find(t, hs, sep) else {
            if inp.fin {
                if let Some(p) = truncated(t, hs, cs) {
                    pieces.push(p);
                }
                at = t.len();
                break;
            }
            return Step::NeedMore(Wait::Markers(wait));
        };
        let (ce, next) = match find(t, sep_at, call_end) {
            Some(e) => (e, e + call_end.len()),
            None if inp.fin => (t.len(), t.len()),
            None => return Step::NeedMore(Wait::Markers(wait)),
        };
        let head = t[hs..sep_at].trim();
        let after = sep_at + sep.len();
        let (name, args, fmt) = if head == "function" {
            // V3: name on the first line, then a ```json fence.
            // Searched only up to the call's end, so many calls on one line stay linear.
            let call = &t[..ce];
            let nl = find(call, after, "\n").unwrap_or(ce);
            let name = t[after..nl].trim().to_owned();
            let mut a = nl;
            let mut b = ce;
            if let Some(f) = find(call, a, "```") {
                a = find(call, f, "\n").map_or(f + 3, |n| n + 1);
                if let Some(fe) = t[a..ce].rfind("```") {
                    b = a + fe;
                }
            }
            (name, a..b, Format::DeepseekV3)
        } else {
            (head.to_owned(), after..ce, Format::DeepseekV31)
        };
        pieces.push(Piece::Call(RawCall {
            name,
            args: Args::Json(args.clone()),
            raw: args,
            span: cs..next,
            format: fmt,
            id: None,
        }));
        at = next;
    }
    if pieces.is_empty() {
        return Step::Done {
            end: at.max(mend),
            pieces: Vec::new(),
        };
    }
    Step::Done { end: at, pieces }
}

fn truncated(t: &str, hs: usize, cs: usize) -> Option<Piece> {
    let head = t[hs..].trim();
    let name = head.strip_prefix("function").map_or(head, str::trim);
    if !super::scan::is_name(name) {
        return None;
    }
    Some(Piece::Call(RawCall {
        name: name.to_owned(),
        args: Args::Bad(crate::repair::RepairError::Truncated {
            at: t.len(),
            message: "the output ends inside this call".into(),
        }),
        raw: t.len()..t.len(),
        span: cs..t.len(),
        format: Format::DeepseekV31,
        id: None,
    }))
}
