//! The marker scanner shared by one-shot and streaming extraction: one Aho-Corasick pass over the
//! text, a handler per marker, and the rules that let a partial buffer be scanned without ever
//! deciding something that more text could change.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};
use serde_json::Value;

use super::{Format, FormatHint, Options};
use crate::repair::{Fix, RepairError};

/// What a handler sees: the text so far, whether it is all of it, and the options.
pub(crate) struct Input<'a> {
    /// The text (a prefix of the final text while streaming).
    pub text: &'a str,
    /// True when no more text will come.
    pub fin: bool,
    /// The caller's options.
    pub opts: &'a Options,
}

impl Input<'_> {
    /// The explicit family hint, if any.
    pub fn hint(&self) -> Option<Format> {
        match self.opts.format {
            FormatHint::Auto => None,
            FormatHint::Family(f) => Some(f),
        }
    }

    /// `NeedMore(w)` while streaming; `NotMine` once the text is final.
    pub fn more(&self, w: Wait) -> Step {
        if self.fin {
            Step::NotMine
        } else {
            Step::NeedMore(w)
        }
    }
}

/// What a handler decided about the marker it was given.
pub(crate) enum Step {
    /// The buffer ends before a decision can be made.
    NeedMore(Wait),
    /// Not an envelope: the marker's first character is content and scanning goes on after it.
    NotMine,
    /// Not a call, but everything up to this offset is content (e.g. a JSON object that is data).
    Skip(usize),
    /// An envelope ending at `end`.
    Done {
        /// Offset just past the envelope.
        end: usize,
        /// What it holds, in order.
        pieces: Vec<Piece>,
    },
}

impl Step {
    /// A marker with nothing after it yet, ending at `end`: once the text is final it is a
    /// control token, dropped (never content); until then more text may follow it.
    pub(crate) fn dropped_when_final(fin: bool, end: usize) -> Step {
        if fin {
            Step::Done {
                end,
                pieces: Vec::new(),
            }
        } else {
            Step::NeedMore(Wait::Any)
        }
    }
}

/// When a handler that asked for more text is worth running again.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Wait {
    /// When one of these strings appears in the new text.
    Markers(&'static [&'static str]),
    /// When brackets opened since the marker are balanced again.
    Balanced,
    /// When brackets are balanced again or one of these strings appears (a value whose close
    /// marker is optional: either may come first, or only one).
    BalancedOr(&'static [&'static str]),
    /// After enough new text (geometric back-off keeps the total work linear).
    Any,
}

/// One piece of the output, in text order.
#[derive(Debug)]
pub(crate) enum Piece {
    /// Text to show.
    Content(Range<usize>),
    /// Text to show that is not a slice of the input (e.g. a decoded JSON string).
    Text(String),
    /// Thinking.
    Reasoning(Range<usize>),
    /// An envelope leftover: a `<tool_response>` block the model wrote itself, Glaive's
    /// `FUNCTION RESPONSE:` turn, or a close tag that closes nothing. After a call it is the
    /// model inventing its call's result or closing twice, and is not shown; before any call it
    /// is content as written (E20, E25).
    AfterCall(Range<usize>),
    /// A call.
    Call(RawCall),
}

/// A call as a family parser found it, before repair and name checks.
#[derive(Debug)]
pub(crate) struct RawCall {
    pub name: String,
    pub args: Args,
    /// The model's raw argument text.
    pub raw: Range<usize>,
    /// The whole call in the input.
    pub span: Range<usize>,
    pub format: Format,
    pub id: Option<String>,
}

/// Arguments as a family parser found them.
#[derive(Debug)]
pub(crate) enum Args {
    /// JSON text in the input, to be repaired.
    Json(Range<usize>),
    /// Already a value (from a repaired payload or a Python / Gemma literal).
    Value(Value, Vec<Fix>),
    /// Raw-text key/value pairs (XML families); `Some(true)` when the envelope says "string".
    Pairs {
        pairs: Vec<(String, String, Option<bool>)>,
        /// The output ended inside a key or a value (its close tag never came): the last pair
        /// is partial or missing, so the call is cut off (E4), not complete.
        cut: bool,
    },
    /// A call object with no arguments key: the members beside its name, and the fixes repair
    /// made to the payload (E27: the arguments when the tool's schema has every one of them).
    Beside(serde_json::Map<String, Value>, Vec<Fix>),
    /// Python-style positional values, this many, beyond the listed tool's parameters, in a
    /// closed envelope (refused `TooManyValues`).
    TooMany(usize),
    /// Could not be read at all.
    Bad(RepairError),
}

type Handler = fn(&Input<'_>, usize, usize) -> Step;

struct Marker {
    pat: &'static str,
    handler: Handler,
    /// Families this marker can produce; empty = always active (think blocks, control tokens).
    families: &'static [Format],
}

use super::{
    deepseek, fenced, gemma, harmony, json_tags, kimi, mistral, pythonic, reasoning, tool_call_tag,
    xml,
};
use Format as F;

#[rustfmt::skip]
const MARKERS: &[Marker] = &[
    // Think blocks (always active).
    m("<think>", reasoning::think, &[]),
    m("[THINK]", reasoning::think, &[]),
    m("<|START_THINKING|>", reasoning::think, &[]),
    m("<|inner_prefix|>", reasoning::think, &[]),
    m("<seed:think>", reasoning::think, &[]),
    m("<|channel>", reasoning::think, &[]),
    m("<thinking>", reasoning::think, &[]),
    m("\u{25c1}think\u{25b7}", reasoning::think, &[]),
    // Stray closers and control tokens that carry no text.
    m("</think>", reasoning::drop_token, &[]),
    m("[/THINK]", reasoning::drop_token, &[]),
    m("<|END_THINKING|>", reasoning::drop_token, &[]),
    m("<channel|>", reasoning::drop_token, &[]),
    m("</seed:think>", reasoning::drop_token, &[]),
    m("<|inner_suffix|>", reasoning::drop_token, &[]),
    m("[BEGIN FINAL RESPONSE]", reasoning::drop_token, &[]),
    m("[END FINAL RESPONSE]", reasoning::drop_token, &[]),
    m("<|START_RESPONSE|>", reasoning::drop_token, &[]),
    m("<|END_RESPONSE|>", reasoning::drop_token, &[]),
    m("<|START_TEXT|>", reasoning::drop_token, &[]),
    m("<|END_TEXT|>", reasoning::drop_token, &[]),
    m("<|CHATBOT_TOKEN|>", reasoning::drop_token, &[]),
    m("<|END_OF_TURN_TOKEN|>", reasoning::drop_token, &[]),
    m("<|python_start|>", reasoning::drop_token, &[]),
    m("<|python_end|>", reasoning::drop_token, &[]),
    m("</s>", reasoning::drop_token, &[]),
    m("[/TOOL_CALLS]", reasoning::drop_token, &[]),
    m("<|eot_id|>", reasoning::drop_token, &[]),
    m("<|eom_id|>", reasoning::drop_token, &[]),
    m("<\u{ff5c}end\u{2581}of\u{2581}sentence\u{ff5c}>", reasoning::drop_token, &[]),
    m("<|end\u{2581}of\u{2581}sentence|>", reasoning::drop_token, &[]),
    m("<\u{ff5c}tool\u{2581}output\u{2581}begin\u{ff5c}>", reasoning::drop_token, &[]),
    m("<\u{ff5c}tool\u{2581}output\u{2581}end\u{ff5c}>", reasoning::drop_token, &[]),
    m("<\u{ff5c}tool\u{2581}outputs\u{2581}begin\u{ff5c}>", reasoning::tool_outputs, &[]),
    m("<\u{ff5c}tool\u{2581}outputs\u{2581}end\u{ff5c}>", reasoning::drop_token, &[]),
    // <tool_call> family group.
    m("<tool_call>", tool_call_tag::tool_call, &[F::Hermes, F::Qwen3CoderXml, F::Glm45Xml, F::HunyuanV3, F::GraniteToolCallToken, F::JsonArray]),
    m("<tool_calls>", tool_call_tag::tool_calls, &[F::ToolCallsArray, F::MinimaxV1, F::HunyuanV3]),
    // What the template puts around a tool's result: written by the model, a call wrapped in
    // the wrong tag or an invented result; and close tags left over after a call (E20).
    m("<tool_response>", tool_call_tag::tool_response, &[F::Hermes]),
    m("</tool_response>", tool_call_tag::leftover_close, &[F::Hermes]),
    m("</tool_call>", tool_call_tag::leftover_close, &[F::Hermes, F::Qwen3CoderXml, F::Glm45Xml, F::HunyuanV3, F::GraniteToolCallToken, F::JsonArray]),
    // Generic wrappers some models put around a call (only a call-shaped body counts).
    m("<tool>", tool_call_tag::generic, &[F::Hermes]),
    m("<tools>", tool_call_tag::generic, &[F::Hermes]),
    m("<response>", tool_call_tag::generic, &[F::Hermes, F::GraniteToolCallToken]),
    m("<json>", tool_call_tag::generic, &[F::Hermes]),
    m("<JSON>", tool_call_tag::generic, &[F::Hermes]),
    m("<xml>", tool_call_tag::generic, &[F::Hermes]),
    m("<user>", tool_call_tag::generic, &[F::Glm45Xml]),
    // XML families.
    m("<seed:tool_call>", xml::seed, &[F::SeedOssXml]),
    m("<function=", xml::function_eq, &[F::Qwen3CoderXml, F::FunctionaryV31, F::SeedOssXml, F::Hermes]),
    m("<minimax:tool_call>", xml::minimax, &[F::MinimaxM2Xml]),
    m("<function name=", xml::minicpm, &[F::Minicpm5Xml, F::Hermes]),
    m("<\u{ff5c}DSML\u{ff5c}function_calls>", xml::dsml, &[F::DeepseekDsml]),
    m("<\u{ff5c}DSML\u{ff5c}tool_calls>", xml::dsml, &[F::DeepseekDsml]),
    m("<\u{ff5c}tool_calls_begin\u{ff5c}>", xml::step3, &[F::Step3]),
    m("<\u{ff5c}tool_call_begin\u{ff5c}>", xml::step3, &[F::Step3]),
    // DeepSeek V3 / V3.1 (full-width bars, and the ASCII-bar spelling some templates print).
    m("<\u{ff5c}tool\u{2581}calls\u{2581}begin\u{ff5c}>", deepseek::handle, &[F::DeepseekV3, F::DeepseekV31]),
    m("<\u{ff5c}tool\u{2581}call\u{2581}begin\u{ff5c}>", deepseek::handle, &[F::DeepseekV3, F::DeepseekV31]),
    m("<\u{ff5c}tool\u{2581}calls\u{ff5c}>", deepseek::handle, &[F::DeepseekV3, F::DeepseekV31]),
    m("<|tool\u{2581}calls\u{2581}begin|>", deepseek::handle, &[F::DeepseekV3, F::DeepseekV31]),
    m("<|tool\u{2581}call\u{2581}begin|>", deepseek::handle, &[F::DeepseekV3, F::DeepseekV31]),
    // Kimi K2.
    m("<|tool_calls_section_begin|>", kimi::handle, &[F::KimiK2]),
    m("<|tool_call_begin|>", kimi::handle, &[F::KimiK2]),
    // Gemma.
    m("<|tool_call>", gemma::gemma4, &[F::Gemma4]),
    m("<start_function_call>", gemma::functiongemma, &[F::Functiongemma]),
    // Pythonic.
    m("<|tool_call_start|>", pythonic::lfm2, &[F::Lfm2Pythonic, F::Lfm2Json]),
    m("<function_calls>", pythonic::olmo3, &[F::Olmo3Pythonic]),
    m("<|python_tag|>", pythonic::python_tag, &[F::Llama3PythonTag, F::Llama3Json, F::FunctionaryV31]),
    // Mistral.
    m("[TOOL_CALLS]", mistral::handle, &[F::MistralJsonArray, F::MistralV11, F::JsonArray]),
    // JSON between tags.
    m("<|tools_prefix|>", json_tags::apertus, &[F::Apertus]),
    m("<TOOLCALL>", json_tags::nemotron, &[F::NemotronToolcallJson]),
    m("<|tool_call|>", json_tags::granite, &[F::GraniteToolCallToken]),
    m("<function_call>", json_tags::granite20b, &[F::Granite20bFc, F::Hermes]),
    m("<functioncall>", json_tags::glaive, &[F::Glaive]),
    m("FUNCTION RESPONSE:", json_tags::glaive_response, &[F::Glaive]),
    m("<|START_ACTION|>", json_tags::command_r, &[F::CommandRAction]),
    m("functools", json_tags::functools, &[F::Functools]),
    m("<|message_sep|>", json_tags::gigachat, &[F::Gigachat]),
    m("function call<|role_sep|>", json_tags::gigachat, &[F::Gigachat]),
    m("<|function_call|>", json_tags::gigachat_token, &[F::Gigachat]),
    m("<longcat_tool_call>", json_tags::longcat, &[F::Longcat]),
    m("<|action_start|>", json_tags::internlm2, &[F::Internlm2]),
    m(">>>", json_tags::functionary_v32, &[F::FunctionaryV32]),
    // Harmony / Glimmer.
    m("<|channel|>", harmony::handle, &[F::Harmony, F::Glimmer]),
    m("<|start|>", harmony::handle, &[F::Harmony, F::Glimmer]),
    m("to=", harmony::handle, &[F::Harmony, F::Glimmer]),
    // Fences and ReAct.
    m("```", fenced::fence, &[F::FencedJson, F::ToolCode, F::FencedPython, F::CommandRPlusFenced, F::BareJson, F::Llama3Json, F::LlamacppGenericJson, F::Hermes, F::JsonArray]),
    m("`{", fenced::inline_code, &[F::BareJson, F::Llama3Json, F::LlamacppGenericJson, F::FencedJson, F::Hermes, F::Glm45Xml, F::JsonArray]),
    m("Action:", fenced::action, &[F::React, F::CommandRPlusFenced]),
    // Bare JSON and pythonic lists (tried last at their position: shortest markers).
    m("{", json_tags::bare_object, &[F::BareJson, F::Llama3Json, F::LlamacppGenericJson, F::FencedJson, F::Hermes, F::Glm45Xml, F::JsonArray]),
    m("[", json_tags::bare_array, &[F::JsonArray, F::Pythonic, F::BareJson, F::Lfm2Pythonic]),
    // A known tool called Python-style in prose (needs a tool list; the call starts at the name).
    m("(", json_tags::prose_python, &[F::Prose]),
];

const fn m(pat: &'static str, handler: Handler, families: &'static [Format]) -> Marker {
    Marker {
        pat,
        handler,
        families,
    }
}

/// The markers active for one hint, compiled for a two-stage search.
///
/// Most markers start with a byte that is rare in prose (`<`, `[`, `{`, `` ` ``, `>`); the few
/// that start with a letter (`to=`, `Action:`, `function call<|role_sep|>`) hold such a byte
/// further in. Stage one skips every byte that is no marker's *anchor* (its first byte that is
/// neither a letter, a digit, `_` nor a space; ASCII, or the lead byte of `◁think▷`'s `◁`) with
/// a branch-free table scan; stage two checks
/// the markers anchored there: those that start at the anchor (one anchored Aho-Corasick
/// search) and those that start a fixed number of bytes before it. A marker made only of letters
/// (`functools`) has no anchor: it is searched for with `memmem` in the stretch before the next
/// anchor, so every byte is still looked at a bounded number of times. The result is the same
/// leftmost-longest match the Aho-Corasick automaton alone would find.
struct Matcher {
    ac: AhoCorasick,
    handlers: Vec<Handler>,
    prefixes: HashSet<Box<[u8]>>,
    max_len: usize,
    /// Bytes at which stage two runs.
    anchors: [bool; 256],
    /// Markers whose anchor is not their first byte: (pattern index, offset of the anchor).
    behind: Vec<(usize, usize)>,
    /// Markers without an anchor, with their pattern indices.
    words: Option<(AhoCorasick, Vec<usize>)>,
    patterns: Vec<&'static str>,
}

/// A marker's anchor: the offset of its first byte that is not a letter, digit, `_` or space.
fn anchor_offset(pat: &str) -> Option<usize> {
    pat.bytes()
        .position(|c| !(c.is_ascii_alphanumeric() || c == b'_' || c == b' '))
}

/// The first offset at or after `p` holding an anchor byte.
fn next_anchor(anchors: &[bool; 256], b: &[u8], mut p: usize) -> Option<usize> {
    const W: usize = 32;
    while p + W <= b.len() {
        // No short-circuit: the whole chunk is tested without branches, then skipped.
        if b[p..p + W]
            .iter()
            .fold(false, |hit, &c| hit | anchors[usize::from(c)])
        {
            break;
        }
        p += W;
    }
    b.get(p..)?
        .iter()
        .position(|&c| anchors[usize::from(c)])
        .map(|i| p + i)
}

impl Matcher {
    /// The leftmost-longest marker at or after `from`: (start, end, pattern index).
    fn find(&self, text: &str, from: usize) -> Option<(usize, usize, usize)> {
        let b = text.as_bytes();
        let mut p = from;
        loop {
            let c = next_anchor(&self.anchors, b, p);
            let stretch_end = c.unwrap_or(b.len());
            let word = self.words.as_ref().and_then(|(ac, idx)| {
                let m = ac.find(&text[p..stretch_end])?;
                Some((p + m.start(), p + m.end(), idx[m.pattern().as_usize()]))
            });
            let Some(c) = c else {
                return word;
            };
            // Markers that start before their anchor: the earliest start, then the longest.
            let mut best: Option<(usize, usize, usize)> = word;
            for &(idx, k) in &self.behind {
                let pat = self.patterns[idx].as_bytes();
                if c >= p + k
                    && pat[k] == b[c]
                    && b[c - k..].starts_with(pat)
                    && best
                        .is_none_or(|(s, e, _)| c - k < s || (c - k == s && c - k + pat.len() > e))
                {
                    best = Some((c - k, c - k + pat.len(), idx));
                }
            }
            if best.is_some() {
                return best;
            }
            let input = aho_corasick::Input::new(text)
                .range(c..)
                .anchored(aho_corasick::Anchored::Yes);
            if let Some(m) = self.ac.find(input) {
                return Some((m.start(), m.end(), m.pattern().as_usize()));
            }
            // An anchor is ASCII or a UTF-8 lead byte (`◁` of `◁think▷`): step over its char.
            p = c + text[c..].chars().next().map_or(1, char::len_utf8);
        }
    }

    /// The marker starting exactly at `at`, if any: (end, pattern index).
    fn at(&self, text: &str, at: usize) -> Option<(usize, usize)> {
        let input = aho_corasick::Input::new(text)
            .range(at..)
            .anchored(aho_corasick::Anchored::Yes);
        self.ac
            .find(input)
            .map(|m| (m.end(), m.pattern().as_usize()))
    }
}

fn build(hint: FormatHint) -> Matcher {
    let active: Vec<&Marker> = MARKERS
        .iter()
        .filter(|mk| match hint {
            _ if mk.families.is_empty() => true,
            FormatHint::Auto => true,
            FormatHint::Family(f) => mk.families.contains(&f),
        })
        .collect();
    let ac = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .start_kind(aho_corasick::StartKind::Both)
        .build(active.iter().map(|mk| mk.pat))
        .expect("static marker set compiles");
    let mut prefixes = HashSet::new();
    for mk in &active {
        let b = mk.pat.as_bytes();
        for i in 1..b.len() {
            prefixes.insert(b[..i].to_vec().into_boxed_slice());
        }
    }
    let mut anchors = [false; 256];
    let mut behind = Vec::new();
    let mut words = Vec::new();
    for (idx, mk) in active.iter().enumerate() {
        match anchor_offset(mk.pat) {
            Some(k) => {
                anchors[usize::from(mk.pat.as_bytes()[k])] = true;
                if k > 0 {
                    behind.push((idx, k));
                }
            }
            None => words.push(idx),
        }
    }
    let words = (!words.is_empty()).then(|| {
        let ac = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(words.iter().map(|&i| active[i].pat))
            .expect("static marker set compiles");
        (ac, words)
    });
    Matcher {
        ac,
        handlers: active.iter().map(|mk| mk.handler).collect(),
        max_len: active.iter().map(|mk| mk.pat.len()).max().unwrap_or(1),
        prefixes,
        anchors,
        behind,
        words,
        patterns: active.iter().map(|mk| mk.pat).collect(),
    }
}

fn matcher(hint: FormatHint) -> &'static Matcher {
    static CACHE: OnceLock<Vec<OnceLock<Matcher>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| {
        (0..=super::format::ALL.len())
            .map(|_| OnceLock::new())
            .collect()
    });
    let idx = match hint {
        FormatHint::Auto => 0,
        FormatHint::Family(f) => 1 + super::format::ALL.iter().position(|x| *x == f).unwrap_or(0),
    };
    cache[idx].get_or_init(|| build(hint))
}

/// Markers that never start a call on their own: think blocks, dropped tokens, and the weak
/// short ones.
fn strong(mk: &Marker) -> bool {
    !mk.families.is_empty()
        && !matches!(
            mk.pat,
            "{" | "[" | "```" | "Action:" | "to=" | "functools" | ">>>"
        )
}

/// How many strong markers a never-closed think block tries before it gives up looking for the
/// call that ends it (each try parses a call; prose can hold many `(`).
const CALL_MARKER_TRIES: usize = 64;

/// The first strong call marker at or after `from` where `holds` (a call is there): the end of a
/// think block that was never closed. A marker that holds no call (a `(` in the reasoning, a
/// `<tool>` named in prose) does not end the block; at most [`CALL_MARKER_TRIES`] are tried.
pub(crate) fn first_call_marker(
    opts: &Options,
    text: &str,
    from: usize,
    holds: impl FnMut(&usize) -> bool,
) -> Option<usize> {
    call_markers(opts, text, from)
        .take(CALL_MARKER_TRIES)
        .find(holds)
}

/// The strong call markers at or after `from`, in order.
fn call_markers<'t>(
    opts: &'t Options,
    text: &'t str,
    from: usize,
) -> impl Iterator<Item = usize> + 't {
    type Strong = (AhoCorasick, Vec<&'static [Format]>);
    static STRONG: OnceLock<Strong> = OnceLock::new();
    let (ac, fams) = STRONG.get_or_init(|| {
        let ms: Vec<&Marker> = MARKERS.iter().filter(|mk| strong(mk)).collect();
        let ac = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(ms.iter().map(|mk| mk.pat))
            .expect("static marker set compiles");
        (ac, ms.iter().map(|mk| mk.families).collect())
    });
    ac.find_iter(&text[from..])
        .filter(move |m| match opts.format {
            FormatHint::Auto => true,
            FormatHint::Family(f) => fams[m.pattern().as_usize()].contains(&f),
        })
        .map(move |m| from + m.start())
}

struct Pending {
    start: usize,
    mend: usize,
    handler: Handler,
    wait: Wait,
    tried_len: usize,
    tries: u32,
    check_from: usize,
    depth: i64,
    seen_open: bool,
    /// The quote (`"` or `'`) of the string the balance count is inside, or 0.
    in_str: u8,
    esc: bool,
    bal_at: usize,
}

/// Scans a text that may still be growing; see the module docs.
pub(crate) struct Scanner {
    pos: usize,
    started: bool,
    pending: Option<Pending>,
    hint: FormatHint,
    opts: Options,
}

impl Scanner {
    pub fn new(opts: &Options) -> Self {
        Self {
            pos: 0,
            started: false,
            pending: None,
            hint: opts.format,
            opts: opts.clone(),
        }
    }

    /// Scans `text` (which extends the text of earlier calls) as far as it can be decided,
    /// passing each piece to `sink`. With `fin` everything is decided.
    pub fn advance(&mut self, text: &str, fin: bool, sink: &mut dyn FnMut(Piece)) {
        let mt = matcher(self.hint);
        let inp = Input {
            text,
            fin,
            opts: &self.opts,
        };
        if !self.started {
            self.started = true;
            if let Some(h) = reasoning::start_handler(&self.opts) {
                self.pending = Some(new_pending(0, 0, h));
            }
        }
        loop {
            if let Some(p) = self.pending.as_mut() {
                if !fin && !p.ready(text) {
                    return;
                }
                let step = (p.handler)(&inp, p.start, p.mend);
                let start = p.start;
                let is_start_hook = p.mend == 0;
                match step {
                    Step::NeedMore(w) if !fin => {
                        p.wait = w;
                        p.tries += 1;
                        p.tried_len = text.len();
                        p.check_from = text.len();
                        return;
                    }
                    Step::NeedMore(_) | Step::NotMine => {
                        let next = if is_start_hook {
                            start
                        } else {
                            start + text[start..].chars().next().map_or(1, char::len_utf8)
                        };
                        if next > start {
                            sink(Piece::Content(start..next));
                        }
                        self.pos = next;
                    }
                    Step::Skip(e) => {
                        let e = e.max(start + 1).min(text.len());
                        sink(Piece::Content(start..e));
                        self.pos = e;
                    }
                    Step::Done { end, pieces } => {
                        for pc in pieces {
                            sink(pc);
                        }
                        self.pos = end.max(start).min(text.len());
                        if end == start && !is_start_hook {
                            // A handler that consumed nothing: never loop.
                            let next =
                                start + text[start..].chars().next().map_or(1, char::len_utf8);
                            sink(Piece::Content(start..next));
                            self.pos = next;
                        }
                    }
                }
                self.pending = None;
                continue;
            }
            if self.pos >= text.len() {
                return;
            }
            match mt.find(text, self.pos) {
                Some((s, e, pattern)) => {
                    if !fin
                        && text.len() - s < mt.max_len
                        && mt.prefixes.contains(&text.as_bytes()[s..])
                    {
                        // A longer marker may still be arriving at `s`.
                        if s > self.pos {
                            sink(Piece::Content(self.pos..s));
                            self.pos = s;
                        }
                        return;
                    }
                    if s > self.pos {
                        sink(Piece::Content(self.pos..s));
                    }
                    self.pos = s;
                    self.pending = Some(new_pending(s, e, mt.handlers[pattern]));
                }
                None => {
                    // A final text that ends in part of a marker was cut off inside a control
                    // token: that fragment is not content.
                    let mut safe = safe_point(mt, text, self.pos);
                    if fin && !matches!(text.as_bytes().get(safe), Some(b'<' | b'[')) {
                        safe = text.len();
                    }
                    if safe > self.pos {
                        sink(Piece::Content(self.pos..safe));
                    }
                    self.pos = if fin { text.len() } else { safe.max(self.pos) };

                    return;
                }
            }
        }
    }
}

fn new_pending(start: usize, mend: usize, handler: Handler) -> Pending {
    Pending {
        start,
        mend,
        handler,
        wait: Wait::Any,
        tried_len: 0,
        tries: 0,
        check_from: mend,
        depth: 0,
        seen_open: false,
        in_str: 0,
        esc: false,
        bal_at: start,
    }
}

impl Pending {
    fn ready(&mut self, text: &str) -> bool {
        if self.tries == 0 {
            return true;
        }
        if text.len() == self.tried_len {
            return false;
        }
        // What the handler waits for has arrived: run it now (the marker or the balancing
        // bracket is behind the check position from now on, so a later check would never see
        // it again and the call would wait for the end of the stream). Only a wait for any text
        // backs off: the candidate runs again once the new text is an eighth of it.
        match self.wait {
            Wait::Markers(ms) => self.marker_arrived(text, ms),
            Wait::Balanced => self.balanced(text),
            Wait::BalancedOr(ms) => {
                let balanced = self.balanced(text);
                self.marker_arrived(text, ms) || balanced
            }
            Wait::Any => (text.len() - self.tried_len) * 8 >= text.len() - self.start,
        }
    }

    /// One of `ms` appeared in the text not checked yet.
    fn marker_arrived(&mut self, text: &str, ms: &[&str]) -> bool {
        let b = text.as_bytes();
        let longest = ms.iter().map(|s| s.len()).max().unwrap_or(1);
        let from = self.check_from.saturating_sub(longest - 1).max(self.start);
        let hay = &b[from..];
        let found = ms
            .iter()
            .any(|s| memchr::memmem::find(hay, s.as_bytes()).is_some());
        self.check_from = text.len();
        found
    }

    /// The brackets opened since the marker closed again in the text not counted yet (strings
    /// in `"…"` or Python's `'…'` skipped).
    fn balanced(&mut self, text: &str) -> bool {
        let b = text.as_bytes();
        let mut hit = false;
        for &c in &b[self.bal_at..] {
            if self.in_str != 0 {
                if self.esc {
                    self.esc = false;
                } else if c == b'\\' {
                    self.esc = true;
                } else if c == self.in_str {
                    self.in_str = 0;
                }
                continue;
            }
            match c {
                // Python arguments quote with `'` (`send(msg='sorry :(')`).
                b'"' | b'\'' => self.in_str = c,
                b'{' | b'[' | b'(' => {
                    self.depth += 1;
                    self.seen_open = true;
                }
                b'}' | b']' | b')' => {
                    self.depth -= 1;
                    if self.seen_open && self.depth <= 0 {
                        hit = true;
                        self.depth = 0;
                    }
                }
                _ => {}
            }
        }
        self.bal_at = b.len();
        hit
    }
}

/// The offset up to which `text[pos..]` can be released as content: everything before the
/// earliest suffix that is a proper prefix of a marker.
fn safe_point(mt: &Matcher, text: &str, pos: usize) -> usize {
    let b = text.as_bytes();
    let lo = b.len().saturating_sub(mt.max_len - 1).max(pos);
    for i in lo..b.len() {
        if text.is_char_boundary(i) && mt.prefixes.contains(&b[i..]) {
            return i;
        }
    }
    b.len()
}

/// When `text` holds no marker at all (and no start hook applies), the end of its content: the
/// whole text, or the text before a cut-off control token at its very end. `None` otherwise.
/// Lets prose skip the scanner and its per-piece bookkeeping (one copy into `content`).
pub(crate) fn plain_text_end(opts: &Options, text: &str) -> Option<usize> {
    if reasoning::start_handler(opts).is_some() {
        return None;
    }
    let mt = matcher(opts.format);
    if mt.find(text, 0).is_some() {
        return None;
    }
    let safe = safe_point(mt, text, 0);
    Some(if matches!(text.as_bytes().get(safe), Some(b'<' | b'[')) {
        safe
    } else {
        text.len()
    })
}

/// True when the envelope whose marker starts at `at` holds a call (one handler run, in a final
/// text).
pub(crate) fn call_at(inp: &Input<'_>, at: usize) -> bool {
    let mt = matcher(inp.opts.format);
    let Some((end, pattern)) = mt.at(inp.text, at) else {
        return false;
    };
    let fin = Input {
        text: inp.text,
        fin: true,
        opts: inp.opts,
    };
    match (mt.handlers[pattern])(&fin, at, end) {
        Step::Done { pieces, .. } => pieces.iter().any(|p| matches!(p, Piece::Call(_))),
        _ => false,
    }
}

/// Scans `inp.text[body]` as a text of its own (a final one): for envelopes inside fences. The
/// output goes on after the fence, so a call that runs to the fence's end was not cut off by the
/// end of the output (it is read as partial text: repaired, not rejected as truncated).
pub(crate) fn nested(inp: &Input<'_>, body: Range<usize>) -> Vec<Piece> {
    let opts = inp.opts.clone().with_partial(true);
    let mut sc = Scanner::new(&opts);
    sc.started = true;
    sc.pos = body.start;
    let mut out = Vec::new();
    sc.advance(&inp.text[..body.end], true, &mut |p| out.push(p));
    out
}

// ---------------------------------------------------------------------------------------------
// Small helpers shared by the family parsers.

/// Finds `needle` in `text[from..]`, returning its absolute offset.
pub(crate) fn find(text: &str, from: usize, needle: &str) -> Option<usize> {
    memchr::memmem::find(&text.as_bytes()[from.min(text.len())..], needle.as_bytes())
        .map(|i| i + from)
}

/// Longest first line a marker reads before its body (a fence's info string, Functionary's
/// function name): a longer one is not one, which keeps a text full of markers and no line
/// breaks linear.
pub(crate) const MAX_HEAD_LINE: usize = 256;

/// The line break ending the short line that starts at `from` ([`MAX_HEAD_LINE`]): `Ok(nl)`;
/// `Err(true)` when the text may still bring it (streaming, and the line is not too long yet),
/// `Err(false)` when there is none.
pub(crate) fn head_line_end(inp: &Input<'_>, from: usize) -> Result<usize, bool> {
    find_within(inp.text, from, MAX_HEAD_LINE, "\n")
        .ok_or(!inp.fin && from + MAX_HEAD_LINE >= inp.text.len())
}

/// [`find`] looking only at the `max` bytes from `from` (searched as bytes, so the limit may fall
/// inside a character): a marker that must come soon is not searched for to the end of the text.
pub(crate) fn find_within(text: &str, from: usize, max: usize, needle: &str) -> Option<usize> {
    let b = text.as_bytes();
    let limit = from.saturating_add(max).min(b.len());
    memchr::memmem::find(&b[from.min(limit)..limit], needle.as_bytes()).map(|i| i + from)
}

/// Skips ASCII whitespace from `at`.
pub(crate) fn skip_ws(text: &str, mut at: usize) -> usize {
    let b = text.as_bytes();
    while at < b.len() && b[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

/// The body of an envelope from `from` to the first `close`: `Ok((body, end_after_close))`.
/// Without a close marker: at the end of a final text the body runs to the end (a truncated
/// call); while streaming, the caller must wait.
pub(crate) fn body_until(
    inp: &Input<'_>,
    from: usize,
    close: &'static [&'static str],
) -> Result<(Range<usize>, usize), Step> {
    let mut best: Option<(usize, usize)> = None;
    for c in close {
        if let Some(i) = find(inp.text, from, c)
            && best.is_none_or(|(b, _)| i < b)
        {
            best = Some((i, i + c.len()));
        }
    }
    match best {
        Some((i, e)) => Ok((from..i, e)),
        None if inp.fin => Ok((from..inp.text.len(), inp.text.len())),
        None => Err(Step::NeedMore(Wait::Markers(close))),
    }
}

/// A tool name: letters, digits, `_`, `-`, `.`, `:`, `/` (no spaces).
pub(crate) fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '/')
}

/// A tool name: name characters only, at least one of them a letter or digit (`...` or `.` in
/// prose that quotes an envelope, `<tool_call>...</tool_call>`, is not a name).
pub(crate) fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(is_name_char) && s.chars().any(char::is_alphanumeric)
}

/// Reads a name starting at `at`; returns its end.
pub(crate) fn name_end(text: &str, at: usize) -> usize {
    text[at..]
        .char_indices()
        .find(|&(_, c)| !is_name_char(c))
        .map_or(text.len(), |(i, _)| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two-stage search finds exactly what the Aho-Corasick automaton alone finds
    /// (leftmost-longest), from every offset of texts built from marker pieces and prose.
    #[test]
    fn two_stage_search_equals_the_automaton() {
        let mut pieces: Vec<String> = MARKERS.iter().map(|m| m.pat.to_owned()).collect();
        for m in MARKERS {
            let cut = m.pat.char_indices().nth(m.pat.chars().count() / 2);
            if let Some((i, _)) = cut {
                pieces.push(m.pat[..i].to_owned());
            }
        }
        for p in [
            "to",
            "Action",
            "function",
            "functools",
            " ",
            "\n",
            "a",
            "the ",
            "=",
            ":",
            "<",
            "[",
            "{",
            "`",
            ">",
            "|",
            "é",
            "\u{ff5c}",
            "function call",
            "call",
        ] {
            pieces.push(p.to_owned());
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for hint in [FormatHint::Auto, FormatHint::Family(Format::Functools)] {
            let mt = matcher(hint);
            for _ in 0..1500 {
                let mut text = String::new();
                for _ in 0..1 + next(12) {
                    text.push_str(&pieces[next(pieces.len())]);
                }
                for from in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                    let want = mt
                        .ac
                        .find(&text[from..])
                        .map(|m| (from + m.start(), from + m.end(), m.pattern().as_usize()));
                    assert_eq!(mt.find(&text, from), want, "{text:?} from {from}");
                }
            }
        }
    }
}
