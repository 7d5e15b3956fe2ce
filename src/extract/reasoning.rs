//! Think blocks: `<think>…</think>`, `[THINK]…[/THINK]`, `<|START_THINKING|>…<|END_THINKING|>`,
//! `<|inner_prefix|>…<|inner_suffix|>`, `<seed:think>…</seed:think>`, Gemma 4's
//! `<|channel>thought…<channel|>`, `<thinking>…</thinking>`, Kimi's `◁think▷…◁/think▷`, and a
//! block the prompt already opened. Everything inside a
//! closed block is reasoning, calls included. A block that is never closed ends where the first
//! call envelope starts (the model forgot to close it); with no envelope it runs to the end. In a
//! partial text (a prefix of a longer output) an unclosed block is still open: all reasoning.
//! Also the stray control tokens that carry no text (`</s>`, `<|END_OF_TURN_TOKEN|>`, …), which
//! are dropped.

use super::Options;
use super::scan::{Input, Piece, Step, Wait, body_until, find, first_call_marker};

/// Every marker that closes a think block (or, for a prefilled block, ends the reasoning).
pub(crate) const CLOSERS: &[&str] = &[
    "</think>",
    "[/THINK]",
    "<|END_THINKING|>",
    "<|inner_suffix|>",
    "</seed:think>",
    "<channel|>",
    "[BEGIN FINAL RESPONSE]",
    "</thinking>",
    "\u{25c1}/think\u{25b7}",
];

const OPENERS: &[&str] = &[
    "<think>",
    "[THINK]",
    "<|START_THINKING|>",
    "<|inner_prefix|>",
    "<seed:think>",
    "<|channel>",
    "<|channel|>",
    "to=",
    "<|start|>",
    "<thinking>",
    "\u{25c1}think\u{25b7}",
];

fn closer_of(open: &str) -> &'static [&'static str] {
    match open {
        "<think>" => &["</think>"],
        "[THINK]" => &["[/THINK]"],
        "<|START_THINKING|>" => &["<|END_THINKING|>"],
        "<|inner_prefix|>" => &["<|inner_suffix|>"],
        "<seed:think>" => &["</seed:think>"],
        "<thinking>" => &["</thinking>"],
        "\u{25c1}think\u{25b7}" => &["\u{25c1}/think\u{25b7}"],
        _ => &["<channel|>"],
    }
}

/// An opener: the block runs to its closer (or, in a final text, to the first call envelope or
/// the end).
pub(crate) fn think(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let open = &inp.text[s..mend];
    let closers = closer_of(open);
    let (mut body, end) = match body_until(inp, mend, closers) {
        Ok((body, end))
            if end == inp.text.len()
                && !inp.opts.partial
                && !closers.iter().any(|c| inp.text[..end].ends_with(c)) =>
        {
            // Never closed: stop at the first call envelope inside.
            match first_call_marker(inp.opts, inp.text, mend, |&m| has_call(inp, m)) {
                Some(m) => (mend..m, m),
                None => (body, end),
            }
        }
        Ok(x) => x,
        Err(step) => return step,
    };
    if inp.opts.reasoning_in_content {
        return Step::Done {
            end,
            pieces: vec![Piece::Content(s..end)],
        };
    }
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

/// True when a call can be read from `at` on.
fn has_call(inp: &Input<'_>, at: usize) -> bool {
    super::scan::call_at(inp, at)
}

/// A control token with no text: dropped (a think closer is kept when reasoning stays in content).
/// A `</think>` with no opener is dropped only at the very start (it closes an empty block the
/// template opened); later in the text (the prompt did not open a block, or its block already
/// ended) it is text the model wrote and stays content.
pub(crate) fn drop_token(inp: &Input<'_>, s: usize, mend: usize) -> Step {
    let tok = &inp.text[s..mend];
    let keep = (inp.opts.reasoning_in_content && CLOSERS.contains(&tok))
        || (tok == "</think>" && !inp.text[..s].trim().is_empty());
    Step::Done {
        end: mend,
        pieces: if keep {
            vec![Piece::Content(s..mend)]
        } else {
            Vec::new()
        },
    }
}

/// DeepSeek's tool-result block (`<｜tool▁outputs▁begin｜>…<｜tool▁outputs▁end｜>`) belongs to the
/// prompt: a model that writes one invents tool results, which are neither content nor a call.
pub(crate) fn tool_outputs(inp: &Input<'_>, _s: usize, mend: usize) -> Step {
    const END: &[&str] = &["<\u{ff5c}tool\u{2581}outputs\u{2581}end\u{ff5c}>"];
    match body_until(inp, mend, END) {
        Ok((_, end)) => Step::Done {
            end,
            pieces: Vec::new(),
        },
        Err(step) => step,
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
        super::FormatHint::Auto if opts.tools.is_some() => {
            Some(super::json_tags::functionary_known)
        }
        _ => None,
    }
}

/// The prompt opened a think block: text up to the first closer is reasoning. A text that opens
/// its own block (or a Harmony channel) is left to the scanner.
fn prefilled(inp: &Input<'_>, _s: usize, _mend: usize) -> Step {
    let t = inp.text;
    let lead = t.trim_start_matches(['\n', '\r', '\t']);
    let lead2 = t.trim_start();
    if !inp.fin
        && OPENERS
            .iter()
            .any(|o| o.len() > lead.len() && (o.starts_with(lead) || o.starts_with(lead2)))
    {
        return Step::NeedMore(Wait::Any);
    }
    if OPENERS
        .iter()
        .any(|o| lead.starts_with(o) || lead2.starts_with(o))
    {
        if inp.opts.format == super::FormatHint::Family(super::Format::FunctionaryV32) {
            return super::json_tags::functionary_start(inp, 0, 0);
        }
        return Step::NotMine;
    }
    let mut best: Option<(usize, usize)> = None;
    for c in CLOSERS {
        if let Some(i) = find(t, 0, c)
            && best.is_none_or(|(b, _)| i < b)
        {
            best = Some((i, i + c.len()));
        }
    }
    let (body, end) = match best {
        Some((i, e)) => (0..i, e),
        // A prefix of a longer output: the block is still open, all of it is reasoning.
        None if inp.fin && inp.opts.partial => (0..t.len(), t.len()),
        None if inp.fin => match first_call_marker(inp.opts, t, 0, |&m| has_call(inp, m)) {
            Some(m) => (0..m, m),
            None => (0..t.len(), t.len()),
        },
        None => return Step::NeedMore(Wait::Markers(CLOSERS)),
    };
    let piece = if inp.opts.reasoning_in_content {
        Piece::Content(0..end)
    } else {
        Piece::Reasoning(body)
    };
    Step::Done {
        end,
        pieces: vec![piece],
    }
}
