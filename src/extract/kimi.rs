//! Kimi K2: `<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{…}<|tool_call_end|><|tool_calls_section_end|>`.

use super::Format;
use super::scan::{Args, Input, Piece, RawCall, Step, Wait, find, skip_ws};

const SECTION_BEGIN: &str = "<|tool_calls_section_begin|>";
const SECTION_END: &str = "<|tool_calls_section_end|>";
const CALL_BEGIN: &str = "<|tool_call_begin|>";
const ARG_BEGIN: &str = "<|tool_call_argument_begin|>";
const CALL_END: &str = "<|tool_call_end|>";
const WAIT: &[&str] = &[CALL_END, SECTION_END];

/// Either begin marker.
pub(crate) fn handle(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let t = inp.text;
    let mut at = if &t[s..mend] == SECTION_BEGIN {
        mend
    } else {
        s
    };
    let mut pieces = Vec::new();
    loop {
        at = skip_ws(t, at);
        let rest = &t[at..];
        if rest.starts_with(SECTION_END) {
            at += SECTION_END.len();
            break;
        }
        if !rest.starts_with(CALL_BEGIN) {
            if !inp.fin && (CALL_BEGIN.starts_with(rest) || SECTION_END.starts_with(rest)) {
                return Step::NeedMore(Wait::Markers(WAIT));
            }
            break;
        }
        let cs = at;
        let hs = at + CALL_BEGIN.len();
        let (head_end, args_start) = match find(t, hs, ARG_BEGIN) {
            Some(a) => (a, a + ARG_BEGIN.len()),
            None if inp.fin => (t.len(), t.len()),
            None => return Step::NeedMore(Wait::Markers(&[ARG_BEGIN])),
        };
        let (ae, next) = match find(t, args_start, CALL_END) {
            Some(e) => (e, e + CALL_END.len()),
            None if inp.fin => {
                let e = [SECTION_END, CALL_BEGIN]
                    .iter()
                    .filter_map(|m| find(t, args_start, m))
                    .min()
                    .unwrap_or(t.len());
                (e, e)
            }
            None => return Step::NeedMore(Wait::Markers(WAIT)),
        };
        let id = t[hs..head_end].trim().to_owned();
        let name = id.strip_prefix("functions.").unwrap_or(&id);
        let name = name.rsplit_once(':').map_or(name, |(n, idx)| {
            if idx.bytes().all(|b| b.is_ascii_digit()) {
                n
            } else {
                name
            }
        });
        // `functions.NAME:N` is the whole id syntax: one without its `:N` index is garbled
        // (`functions.f.0`) and names no tool.
        let garbled = id.starts_with("functions.") && name.len() + "functions.".len() == id.len();
        if !name.is_empty() && !garbled {
            pieces.push(Piece::Call(RawCall {
                name: name.to_owned(),
                args: Args::Json(args_start..ae),
                raw: args_start..ae,
                span: cs..next,
                format: Format::KimiK2,
                id: Some(id.clone()),
            }));
        }
        at = next;
    }
    Step::Done {
        end: at.max(mend),
        pieces,
    }
}
