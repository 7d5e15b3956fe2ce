//! gpt-oss Harmony and Glimmer messages: a header (`<|start|>assistant`, ` to=RECIPIENT`,
//! `<|channel|>CHANNEL`, `<|constrain|>json`) up to `<|message|>`, then a body up to `<|end|>`,
//! `<|call|>`, `<|return|>` or the next header. `to=functions.f` makes a call; the `analysis`
//! channel (and Glimmer's `to=self`) is reasoning; other channels are content.

use super::Format;
use super::scan::{Args, Input, Piece, RawCall, Step, Wait, find_within};

const MESSAGE: &str = "<|message|>";
const ENDS: &[&str] = &["<|end|>", "<|call|>", "<|return|>", "<|eom|>", "<|eot|>"];
const NEXT: &[&str] = &["<|start|>", "<|channel|>"];
const WAIT: &[&str] = &[
    "<|end|>",
    "<|call|>",
    "<|return|>",
    "<|eom|>",
    "<|eot|>",
    "<|start|>",
    "<|channel|>",
];
const MAX_HEADER: usize = 256;

/// `<|channel|>`, `<|start|>` or ` to=`.
pub(crate) fn handle(inp: &Input<'_>, s: usize, _mend: usize) -> Step {
    let t = inp.text;
    // Only a header's length ahead: `to=` in prose must not search the rest of the text.
    let Some(m) = find_within(t, s, MAX_HEADER + MESSAGE.len(), MESSAGE) else {
        if !inp.fin && t.len() - s <= MAX_HEADER {
            return Step::NeedMore(Wait::Markers(&[MESSAGE]));
        }
        if t[s..].starts_with("<|start|>") {
            return Step::Done {
                end: s + 9,
                pieces: Vec::new(),
            };
        }
        return Step::NotMine;
    };
    let header = &t[s..m];
    if header.contains('\n') && !header.starts_with("<|") {
        return Step::NotMine;
    }
    let mut recipient: Option<&str> = None;
    let mut channel: Option<&str> = None;
    for (i, _) in header.match_indices("to=") {
        let r = &header[i + 3..];
        let e = r
            .find(|c: char| c.is_whitespace() || c == '<')
            .unwrap_or(r.len());
        recipient = Some(&r[..e]);
    }
    for (i, _) in header.match_indices("<|channel|>") {
        let r = &header[i + 11..];
        let e = r
            .find(|c: char| c.is_whitespace() || c == '<')
            .unwrap_or(r.len());
        channel = Some(&r[..e]);
    }
    let bs = m + MESSAGE.len();
    // The body ends at an end marker (consumed) or at the next header (not consumed): one
    // search for the nearest of them, so a run of messages is read in linear time.
    let best = body_end(t, bs);
    let (be, end) = match best {
        Some(x) => x,
        None if inp.fin => (t.len(), t.len()),
        None => return Step::NeedMore(Wait::Markers(WAIT)),
    };
    let body = bs..be;
    let piece = match recipient {
        Some(r) if r.starts_with("functions.") => Piece::Call(RawCall {
            name: r["functions.".len()..].to_owned(),
            args: Args::Json(body.clone()),
            raw: body,
            span: s..end,
            format: Format::Harmony,
            id: None,
        }),
        Some("user") => Piece::Content(body),
        Some("self") => Piece::Reasoning(body),
        Some(r) if r != "assistant" => Piece::Reasoning(body),
        _ => match channel {
            // Reasoning kept in content: the analysis message as written, header and end included.
            Some("analysis") if inp.opts.reasoning_in_content => Piece::Content(s..end),
            Some("analysis") => Piece::Reasoning(body),
            None if inp.opts.think_prefilled => Piece::Reasoning(body),
            _ => Piece::Content(body),
        },
    };
    Step::Done {
        end,
        pieces: vec![piece],
    }
}

/// The nearest end marker (consumed: its start and end) or next header (not consumed: its start
/// twice) at or after `from`.
fn body_end(t: &str, from: usize) -> Option<(usize, usize)> {
    static AC: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let ac = AC.get_or_init(|| {
        aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(ENDS.iter().chain(NEXT))
            .expect("static markers compile")
    });
    let m = ac.find(&t[from..])?;
    let (i, e) = (from + m.start(), from + m.end());
    Some(if m.pattern().as_usize() < ENDS.len() {
        (i, e)
    } else {
        (i, i)
    })
}
