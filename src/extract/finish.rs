//! Turns scanner pieces into the public result: repairs arguments, types raw-text values from the
//! tool schemas, rejects unknown names with a did-you-mean, and drops exact repeats.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::scan::{Args, Piece, RawCall};
use super::stream::Event;
use super::wrapper::Wrappers;
use super::{ArgumentsError, Call, Extraction, Options, RejectReason, Rejected};
use crate::repair::{Fix, RepairError};

/// Accumulates pieces into an [`Extraction`].
pub(crate) struct Finisher {
    opts: Options,
    out: Extraction,
    seen: HashSet<(String, String)>,
    /// Exact repeats of an earlier call, dropped (see [`Finisher::repeats`]).
    repeats: usize,
    /// Events that come before the one `piece` returns (the shown text of a refused call).
    held: Vec<Event>,
    /// A call (or a refused call) has been read.
    called: bool,
    /// The last piece was a call ending in `}` or `]` and only whitespace came since: closing
    /// brackets written once too often are dropped, not shown.
    after_json: bool,
    /// Keeps the tags a call is wrapped in out of the content (E24).
    wrap: Wrappers,
    /// The wrapper opener taken for the call being read, shown after all when the call's text
    /// is shown (data, E8).
    opener: String,
}

impl Finisher {
    pub fn new(opts: &Options) -> Self {
        Self {
            opts: opts.clone(),
            out: Extraction::default(),
            seen: HashSet::new(),
            repeats: 0,
            held: Vec::new(),
            called: false,
            after_json: false,
            wrap: Wrappers::new(
                opts.tools
                    .iter()
                    .flatten()
                    .map(|t| t.name.clone())
                    .collect(),
            ),
            opener: String::new(),
        }
    }

    /// How many complete calls so far were exact repeats of an earlier one (dropped: a call
    /// appears once in the result).
    pub fn repeats(&self) -> usize {
        self.repeats
    }

    /// Takes one piece; appends the events a stream reports for it, in text order.
    pub fn piece(&mut self, text: &str, p: Piece, events: &mut Vec<Event>) {
        let e = self.take(text, p, true);
        events.append(&mut self.held);
        events.extend(e);
    }

    /// Takes one piece without building its event (one-shot extraction: no copy of the text
    /// for an event nobody reads).
    pub fn absorb(&mut self, text: &str, p: Piece) {
        self.take(text, p, false);
    }

    fn take(&mut self, text: &str, p: Piece, event: bool) -> Option<Event> {
        if self.called
            && self.opts.drop_text_after_calls
            && matches!(p, Piece::Content(_) | Piece::Text(_))
        {
            return None;
        }
        let p = match p {
            // An envelope leftover is dropped after a call, content before any (E20).
            Piece::AfterCall(_) if self.called => return None,
            Piece::AfterCall(r) => Piece::Content(r),
            p => p,
        };
        match p {
            Piece::AfterCall(_) => None,
            Piece::Content(r) => {
                let s = self.strip_stray_closers(&text[r]);
                self.show(&s, event)
            }
            Piece::Text(s) => {
                let s = self.strip_stray_closers(&s);
                self.show(&s, event)
            }
            Piece::Reasoning(r) => {
                self.after_json = false;
                let held = self.wrap.release();
                self.show_now(held, event);
                let s = &text[r];
                if s.is_empty() {
                    return None;
                }
                self.out.reasoning.push_str(s);
                event.then(|| Event::Reasoning(s.to_owned()))
            }
            Piece::Call(rc) => {
                let named = (rc.format == super::Format::Prose)
                    .then_some(rc.name.as_str())
                    .filter(|n| text.get(rc.span.clone()).is_some_and(|t| t.starts_with(n)));
                let (before, opener) = self.wrap.call(named);
                self.show_now(before, event);
                self.opener = opener;
                self.called = true;
                self.after_json = text
                    .get(rc.span.clone())
                    .is_some_and(|t| t.trim_end().ends_with(['}', ']']));
                let shown = self.out.rejected.len();
                let e = self.call(text, rc, event);
                let shown = self.out.rejected.get(shown).is_some_and(|r| r.shown);
                self.wrap.called(shown);
                self.opener.clear();
                e
            }
        }
    }

    /// Content to show, through the wrapper filter: returns the event for what can be shown
    /// now.
    fn show(&mut self, s: &str, event: bool) -> Option<Event> {
        if s.is_empty() {
            return None;
        }
        let s = self.wrap.content(s);
        if s.is_empty() {
            return None;
        }
        self.out.content.push_str(&s);
        event.then_some(Event::Content(s))
    }

    /// Text released by the wrapper filter, shown before the piece being taken (its event goes
    /// first).
    fn show_now(&mut self, s: String, event: bool) {
        if s.is_empty() {
            return;
        }
        self.out.content.push_str(&s);
        if event {
            self.held.push(Event::Content(s));
        }
    }

    /// The output ended: what the wrapper filter still holds is shown (or dropped, E24), its
    /// event appended to `events`.
    pub fn end(&mut self, events: &mut Vec<Event>) {
        let s = self.wrap.end();
        let dropped = self.called && self.opts.drop_text_after_calls;
        if !s.is_empty() && !dropped {
            self.out.content.push_str(&s);
            events.push(Event::Content(s));
        }
    }

    /// Content right after a JSON call: `}` / `]` before any other non-space character are the
    /// model's extra closing brackets (`{…}}`, `[…]]`), dropped; whitespace is kept.
    fn strip_stray_closers<'s>(&mut self, s: &'s str) -> std::borrow::Cow<'s, str> {
        if !self.after_json {
            return std::borrow::Cow::Borrowed(s);
        }
        let mut out = String::with_capacity(s.len());
        for (i, ch) in s.char_indices() {
            match ch {
                '}' | ']' => {}
                c if c.is_whitespace() => out.push(c),
                _ => {
                    self.after_json = false;
                    out.push_str(&s[i..]);
                    break;
                }
            }
        }
        std::borrow::Cow::Owned(out)
    }

    /// Records a refused call (`shown`: its text is also in `content`); returns its event when
    /// one is wanted.
    fn reject(
        &mut self,
        rc: RawCall,
        raw: String,
        reason: RejectReason,
        shown: bool,
        event: bool,
    ) -> Option<Event> {
        let r = Rejected {
            reason,
            name: rc.name,
            format: rc.format,
            span: rc.span,
            raw_arguments: raw,
            shown,
        };
        let e = event.then(|| Event::Rejected(r.clone()));
        self.out.rejected.push(r);
        e
    }

    /// Refuses a call to a name the tool list does not have. A complete bare JSON value or
    /// pythonic list (no envelope around it, brackets closed) may be data: its text also stays
    /// content.
    fn unknown(
        &mut self,
        text: &str,
        rc: RawCall,
        raw: String,
        known: Vec<String>,
        event: bool,
    ) -> Option<Event> {
        let reason = RejectReason::UnknownTool {
            name: rc.name.clone(),
            suggestion: suggest(&known, &rc.name),
            known,
        };
        let shown = text.get(rc.span.clone()).filter(|t| {
            t.starts_with(['{', '[']) && crate::repair::value_extent(t) == Some(t.len())
        });
        if let Some(t) = shown {
            let t = std::mem::take(&mut self.opener) + t;
            self.out.content.push_str(&t);
            if event {
                self.held.push(Event::Content(t));
            }
        }
        self.reject(rc, raw, reason, shown.is_some(), event)
    }

    fn call(&mut self, text: &str, mut rc: RawCall, event: bool) -> Option<Event> {
        let raw = text.get(rc.raw.clone()).unwrap_or_default().to_owned();
        let mut renamed_from = None;
        if let Some(tools) = &self.opts.tools
            && self.opts.tool(&rc.name).is_none()
        {
            match self.opts.resolved_tool(&rc.name).map(|t| t.name.clone()) {
                Some(known) => {
                    renamed_from = Some(std::mem::replace(&mut rc.name, known));
                }
                None => {
                    let known: Vec<String> = tools.iter().map(|t| t.name.clone()).collect();
                    return self.unknown(text, rc, raw, known, event);
                }
            }
        }
        if !self.opts.partial && cut_off(text, &rc) {
            let reason = RejectReason::CutOff {
                name: rc.name.clone(),
            };
            return self.reject(rc, raw, reason, false, event);
        }
        if let Args::TooMany(given) = rc.args {
            // Without a tool list, what the tool takes is unknown: no arguments object, as for
            // one value that binds nothing.
            let reason = match self.opts.parameter_names(&rc.name) {
                Some(parameters) => RejectReason::TooManyValues {
                    name: rc.name.clone(),
                    given,
                    parameters: parameters.into_iter().map(str::to_owned).collect(),
                },
                None => RejectReason::NoArguments {
                    name: rc.name.clone(),
                    strays: Vec::new(),
                    parameters: Vec::new(),
                },
            };
            return self.reject(rc, raw, reason, false, event);
        }
        let args = std::mem::replace(&mut rc.args, Args::Json(0..0));
        let props = self
            .opts
            .tool(&rc.name)
            .and_then(|t| t.parameters.get("properties")?.as_object());
        // Members beside the name that are no parameter of the listed tool, for the refusal's
        // message (taken before `arguments` consumes them).
        let strays: Vec<String> = match &args {
            Args::Beside(m, _) if self.opts.knows(&rc.name) => m
                .keys()
                .filter(|k| props.is_none_or(|p| !p.contains_key(*k)))
                .cloned()
                .collect(),
            _ => Vec::new(),
        };
        let (mut arguments, fixes) = self.arguments(text, &rc, args);
        if matches!(arguments, Ok(Value::Null))
            && (self.opts.partial || self.opts.takes_no_args(&rc.name))
        {
            arguments = Ok(Value::Object(Map::new()));
        }
        if let Ok(v) = &mut arguments
            && !v.is_object()
            && !v.is_null()
            && let Some(p) = self.opts.lone_parameter(&rc.name, v)
        {
            // E28: a lone value (`"arguments": "rust json"`, `search("rust json")`) for a tool
            // with one parameter, or one required parameter of its type, is that parameter's.
            let mut m = Map::new();
            m.insert(p.to_owned(), v.take());
            *v = Value::Object(m);
        }
        if matches!(arguments, Ok(ref v) if !v.is_object()) {
            // No arguments object: refused, so the model is asked for the whole call again.
            let reason = RejectReason::NoArguments {
                name: rc.name.clone(),
                strays,
                parameters: props
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default(),
            };
            return self.reject(rc, raw, reason, false, event);
        }
        let key = (
            rc.name.clone(),
            arguments
                .as_ref()
                .map_or_else(|_| format!("\u{0}{raw}"), Value::to_string),
        );
        if !self.seen.insert(key) {
            self.repeats += 1;
            return None;
        }
        let call = Call {
            name: rc.name,
            arguments,
            raw_arguments: raw,
            format: rc.format,
            span: rc.span,
            fixes,
            id: rc.id,
            renamed_from,
        };
        let e = event.then(|| Event::Call(call.clone()));
        self.out.calls.push(call);
        e
    }

    fn arguments(
        &self,
        text: &str,
        rc: &RawCall,
        args: Args,
    ) -> (Result<Value, ArgumentsError>, Vec<Fix>) {
        let err = |source: RepairError, at: usize| ArgumentsError {
            name: rc.name.clone(),
            at,
            source,
        };
        match args {
            Args::Json(r) => repair_json(&text[r.clone()], r.start)
                .map_err(|e| err(e, r.start))
                .map_or_else(|e| (Err(e), Vec::new()), |(v, f)| (Ok(v), f)),
            Args::Value(v, f) => (Ok(v), f),
            // E27: members beside the name are the arguments when each is a parameter of the
            // tool; otherwise there is no arguments object, which `null` marks for the caller
            // (`NoArguments`, or `{}` for a tool that takes none).
            Args::Beside(m, f) if super::value::beside_fits(&self.opts, &rc.name, &m) => {
                (Ok(Value::Object(m)), f)
            }
            Args::Beside(_, f) => (Ok(Value::Null), f),
            Args::Bad(e) => (Err(err(e, rc.raw.start)), Vec::new()),
            // Refused before the arguments are read (see `finish`).
            Args::TooMany(_) => (Ok(Value::Null), Vec::new()),
            Args::Pairs { pairs, .. } => {
                let tool = self.opts.tool(&rc.name);
                let mut m = Map::new();
                for (k, v, hint) in pairs {
                    let ty = tool.and_then(|t| t.param_type(&k));
                    let value = super::value::type_raw(&v, ty, hint);
                    m.insert(k, value);
                }
                (Ok(Value::Object(m)), Vec::new())
            }
        }
    }

    pub fn into_extraction(mut self) -> Extraction {
        self.end(&mut Vec::new());
        trim_in_place(&mut self.out.content);
        trim_in_place(&mut self.out.reasoning);
        self.out
    }
}

/// A name with case and separators (`.` `_` `-` `/` space) removed.
pub(crate) fn squash(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '.' | '_' | '-' | '/' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Generic nouns models append to a tool's name (`read_file` for `read`).
const NOUNS: &[&str] = &[
    "file",
    "files",
    "dir",
    "directory",
    "folder",
    "path",
    "tool",
    "function",
    "func",
];

/// The one name of `names` that `name` clearly means (see [`super::Options::exact_names`]): the
/// same up to case and separators, the last dotted segment on either side, or the name plus a
/// generic noun; `None` when no rule gives exactly one. The BFCL eval's `full` parser uses the
/// same rules (and adds typos).
pub(crate) fn resolve_alias<'t>(name: &str, names: &[&'t str]) -> Option<&'t str> {
    let unique = |hits: Vec<&'t str>| match hits.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    let pick =
        |keep: &dyn Fn(&str) -> bool| unique(names.iter().copied().filter(|n| keep(n)).collect());
    let sq = squash(name);
    if sq.is_empty() {
        return None;
    }
    let last = |s: &str| s.rsplit_once('.').map(|(_, l)| squash(l));
    pick(&|n| squash(n) == sq)
        .or_else(|| {
            pick(&|n| {
                last(n).is_some_and(|l| l == sq) || last(name).is_some_and(|l| l == squash(n))
            })
        })
        .or_else(|| {
            pick(&|n| {
                let base = squash(n);
                !base.is_empty()
                    && sq
                        .strip_prefix(base.as_str())
                        .is_some_and(|rest| NOUNS.contains(&rest))
            })
        })
}

/// Trims leading and trailing whitespace without copying what stays.
fn trim_in_place(s: &mut String) {
    let end = s.trim_end().len();
    s.truncate(end);
    let lead = s.len() - s.trim_start().len();
    if lead > 0 {
        s.drain(..lead);
    }
}

/// The known name closest to `name`, when one is close enough to be a misspelling.
fn suggest(known: &[String], name: &str) -> Option<String> {
    known
        .iter()
        .map(|k| {
            (
                strsim::jaro_winkler(&k.to_lowercase(), &name.to_lowercase()),
                k,
            )
        })
        .filter(|(s, _)| *s >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k.clone())
}

/// True when the output ended inside the call's arguments.
fn cut_off(text: &str, rc: &RawCall) -> bool {
    match &rc.args {
        Args::Bad(RepairError::Truncated { .. }) | Args::Pairs { cut: true, .. } => true,
        // The arguments run to the end of the envelope, which runs to the end of the output (an
        // envelope closed right where a stream's buffer ends is not cut off); whitespace after
        // them is no closer (a tokenizer often ends a chunk with a space or a line break).
        Args::Json(r)
            if only_ws(text, r.end, rc.span.end) && only_ws(text, rc.span.end, text.len()) =>
        {
            ends_mid_value(&text[r.clone()])
        }
        _ => false,
    }
}

/// True when `text[from..to]` is empty or whitespace only.
fn only_ws(text: &str, from: usize, to: usize) -> bool {
    text.get(from..to).is_some_and(|t| t.trim().is_empty())
}

/// True when JSON argument text ends inside a value (cut off, not merely broken): the rule for a
/// call cut off at the end of the output, shared with `serve` for native calls.
pub(crate) fn ends_mid_value(arguments: &str) -> bool {
    let s = arguments.trim();
    if s.is_empty() {
        return false;
    }
    match serde_json::from_str::<serde::de::IgnoredAny>(s) {
        Ok(_) => false,
        Err(e) if e.is_eof() => true,
        // Not strict JSON (single quotes, Python literals): cut off when repair had to complete
        // something at the very end.
        Err(_) => match crate::repair::repair(s) {
            Ok(r) => cut_off_at_end(s, &r.fixes),
            Err(e) => matches!(e, RepairError::Truncated { .. }),
        },
    }
}

/// True when `text`, a value that is not strict JSON, was cut off at its end: its brackets never
/// close (as a stream sees it) and repair's `fixes` complete a string, literal, number, value
/// or container at its very end. Balanced text that repair closes once more (it read a quote
/// differently) is not cut off.
pub(crate) fn cut_off_at_end(text: &str, fixes: &[Fix]) -> bool {
    use crate::repair::FixKind as K;
    crate::repair::value_extent(text).is_none()
        && fixes.iter().any(|f| {
            f.at >= text.len()
                && matches!(
                    f.kind,
                    K::ClosedString
                        | K::InsertedCloser
                        | K::CompletedLiteral
                        | K::CompletedNumber
                        | K::InsertedNull
                        | K::DroppedKey
                )
        })
}

/// Repairs JSON argument text; empty text is an empty object.
fn repair_json(s: &str, at: usize) -> Result<(Value, Vec<Fix>), RepairError> {
    if s.trim().is_empty() {
        return Ok((Value::Object(Map::new()), Vec::new()));
    }
    let r = crate::repair::repair(s)?;
    let v: Value = serde_json::from_str(&r.text).map_err(|e| RepairError::Invalid {
        at,
        message: e.to_string(),
    })?;
    let v = match v {
        Value::String(inner) => super::value::decode_string_args(&inner),
        v => v,
    };
    let fixes = r
        .fixes
        .iter()
        .map(|f| Fix {
            kind: f.kind,
            at: f.at + at,
        })
        .collect();
    Ok((v, fixes))
}
