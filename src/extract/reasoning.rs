//! Think blocks: `<think>…</think>`, `[THINK]…[/THINK]`, `<|START_THINKING|>…<|END_THINKING|>`,
//! `<|inner_prefix|>…<|inner_suffix|>`, `<seed:think>…</seed:think>`, Gemma 4's
//! `<|channel>thought…<channel|>`, and a block the prompt already opened. Everything inside is
//! reasoning, calls included.

use super::Options;
use super::scan::{Input, Piece, Step, Wait, body_until, find};

/// Every marker that closes a think block.
pub(crate) const CLOSERS: &[&str] = &[
    "</think>",
    "[/THINK]",
    "<|END_THINKING|>",
    "<|inner_suffix|>",
    "</seed:think>",
    "<channel|>",
];

const OPENERS: &[&str] = &[
    "<think>",
    "[THINK]",
    "<|START_THINKING|>",
    "<|inner_prefix|>",
    "<seed:think>",
    "<|channel>",
    "<|channel|>",
    " to=",
    "<|start|>",
];

fn closer_of(open: &str) -> &'static [&'static str] {
    match open {
        "<think>" => &["</think>"],
        "[THINK]" => &["[/THINK]"],
        "<|START_THINKING|>" => &["<|END_THINKING|>"],
        "<|inner_prefix|>" => &["<|inner_suffix|>"],
        "<seed:think>" => &["</seed:think>"],
        _ => &["<channel|>"],
    }
}

/// An opener: the block runs to its closer (or, in a final text, to the end).
pub(crate) fn think(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let open = &inp.text[s..mend];
    match body_until(inp, mend, closer_of(open)) {
        Ok((mut body, end)) => {
            if open == "<|channel>" {
                // Gemma 4 names the channel first: `<|channel>thought\n…`.
                let b = &inp.text[body.clone()];
                if let Some(rest) = b.strip_prefix("thought") {
                    body.start += b.len() - rest.len();
                }
            }
            Step::Done {
                end,
                pieces: vec![Piece::Reasoning(body)],
            }
        }
        Err(step) => step,
    }
}

/// A closer with no opener: the marker is dropped.
pub(crate) fn orphan_close(_inp: &Input<'_>, _s: usize, mend: usize) -> Step {
    Step::Done {
        end: mend,
        pieces: Vec::new(),
    }
}

/// Command R's `<|START_RESPONSE|>` / `<|END_RESPONSE|>` wrap content: the markers are dropped.
pub(crate) fn response_wrapper(_inp: &Input<'_>, _s: usize, mend: usize) -> Step {
    Step::Done {
        end: mend,
        pieces: Vec::new(),
    }
}

/// The hook run once at offset 0, if any.
pub(crate) fn start_handler(opts: &Options) -> Option<fn(&Input<'_>, usize, usize) -> Step> {
    if opts.think_prefilled {
        return Some(prefilled);
    }
    match opts.format {
        super::FormatHint::Family(super::Format::FunctionaryV32) => {
            Some(super::json_tags::functionary_start)
        }
        _ => None,
    }
}

/// The prompt opened a think block: text up to the first closer is reasoning. A text that opens
/// its own block (or a Harmony channel) is left to the scanner; a text with no closer at all is
/// all reasoning.
fn prefilled(inp: &Input<'_>, _s: usize, _mend: usize) -> Step {
    let t = inp.text;
    let lead = t.trim_start();
    if OPENERS
        .iter()
        .any(|o| lead.starts_with(o) || o.starts_with(lead))
    {
        if !inp.fin
            && OPENERS
                .iter()
                .any(|o| o.starts_with(lead) && o.len() > lead.len())
        {
            return Step::NeedMore(Wait::Any);
        }
        if OPENERS.iter().any(|o| lead.starts_with(o)) {
            return after_start(inp);
        }
    }
    let mut best: Option<(usize, usize)> = None;
    for c in CLOSERS {
        if let Some(i) = find(t, 0, c) {
            if best.is_none_or(|(b, _)| i < b) {
                best = Some((i, i + c.len()));
            }
        }
    }
    match best {
        Some((i, e)) => Step::Done {
            end: e,
            pieces: vec![Piece::Reasoning(0..i)],
        },
        None if inp.fin => Step::Done {
            end: t.len(),
            pieces: vec![Piece::Reasoning(0..t.len())],
        },
        None => Step::NeedMore(Wait::Markers(CLOSERS)),
    }
}

fn after_start(inp: &Input<'_>) -> Step {
    if inp.opts.format == super::FormatHint::Family(super::Format::FunctionaryV32) {
        return super::json_tags::functionary_start(inp, 0, 0);
    }
    // Nothing consumed: the scanner takes it from here (the start hook may consume nothing).
    Step::NotMine
}
