//! DeepSeek V3 (`function<｜tool▁sep｜>name\n```json\n{…}\n```) and V3.1 (`name<｜tool▁sep｜>{…}`),
//! inside `<｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>`.

use super::Format;
use super::scan::{Args, Input, Piece, RawCall, Step, Wait, find, skip_ws};

const CALLS_BEGIN: &str = "<\u{ff5c}tool\u{2581}calls\u{2581}begin\u{ff5c}>";
const CALLS_END: &str = "<\u{ff5c}tool\u{2581}calls\u{2581}end\u{ff5c}>";
const CALL_BEGIN: &str = "<\u{ff5c}tool\u{2581}call\u{2581}begin\u{ff5c}>";
const CALL_END: &str = "<\u{ff5c}tool\u{2581}call\u{2581}end\u{ff5c}>";
const SEP: &str = "<\u{ff5c}tool\u{2581}sep\u{ff5c}>";
const WAIT: &[&str] = &[CALL_END, CALLS_END];

/// Either begin marker.
pub(crate) fn handle(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let t = inp.text;
    let mut at = if t[s..mend] == *CALLS_BEGIN { mend } else { s };
    let mut pieces = Vec::new();
    loop {
        at = skip_ws(t, at);
        let rest = &t[at..];
        if rest.starts_with(CALLS_END) {
            at += CALLS_END.len();
            break;
        }
        if !rest.starts_with(CALL_BEGIN) {
            if !inp.fin && (CALL_BEGIN.starts_with(rest) || CALLS_END.starts_with(rest)) {
                return Step::NeedMore(Wait::Markers(WAIT));
            }
            break;
        }
        let cs = at;
        let hs = at + CALL_BEGIN.len();
        let Some(sep) = find(t, hs, SEP) else {
            if inp.fin {
                if let Some(p) = truncated(t, hs, cs) {
                    pieces.push(p);
                }
                at = t.len();
                break;
            }
            return Step::NeedMore(Wait::Markers(&[SEP]));
        };
        let (ce, next) = match find(t, sep, CALL_END) {
            Some(e) => (e, e + CALL_END.len()),
            None if inp.fin => (t.len(), t.len()),
            None => return Step::NeedMore(Wait::Markers(WAIT)),
        };
        let head = t[hs..sep].trim();
        let after = sep + SEP.len();
        let (name, args, fmt) = if head == "function" {
            // V3: name on the first line, then a ```json fence.
            let nl = find(t, after, "\n").filter(|n| *n < ce).unwrap_or(ce);
            let name = t[after..nl].trim().to_owned();
            let mut a = nl;
            let mut b = ce;
            if let Some(f) = find(t, a, "```").filter(|f| *f < ce) {
                a = find(t, f, "\n")
                    .filter(|n| *n < ce)
                    .map_or(f + 3, |n| n + 1);
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
    if name.is_empty() || !name.chars().all(super::scan::is_name_char) {
        return None;
    }
    Some(Piece::Call(RawCall {
        name: name.to_owned(),
        args: Args::Json(t.len()..t.len()),
        raw: t.len()..t.len(),
        span: cs..t.len(),
        format: Format::DeepseekV31,
        id: None,
    }))
}
