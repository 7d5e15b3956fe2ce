//! The tolerant pass: one left-to-right scan over the input bytes that writes valid JSON into a
//! pre-sized buffer, recording a [`Fix`] for every change.
//!
//! Containers are tracked on an explicit stack of [`Frame`]s (no recursion, depth limited to
//! [`MAX_DEPTH`]); strings, numbers, literals and unquoted words are leaves parsed by tight loops.
//! Heuristics that need to look back (a quote that turns out not to end its string) re-scan only the
//! current string, at most three times, so the whole pass stays linear in the input length.

use super::RepairError;
use super::fix::{Fix, FixKind};
use super::lexer::{
    Quote, is_delimiter, is_ident, is_ident_start, is_unquoted_delimiter, is_url_char,
    is_url_start, is_value_start, is_ws, quote_at, short_escape, special_ws_len, utf8_len,
};

/// Deepest nesting of `{`, `[` and `(` the parser accepts. Matches `serde_json`'s recursion limit,
/// so every repaired output can be read back by `serde_json::from_str`.
pub const MAX_DEPTH: usize = 127;

/// What kind of container a frame is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Object,
    Array,
    /// A Python tuple `( … )`, written as an array (or as its single element).
    Tuple,
    /// The argument of a JSONP callback or MongoDB constructor: `name( value )`.
    Call,
}

/// Where a container is in its grammar, i.e. what to do when its child value is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Just opened: nothing parsed yet.
    Open,
    /// An object value was requested after a key.
    ObjValue { colon: bool, truncated: bool },
    /// An array or tuple element was requested.
    Element,
    /// The single argument of a call was requested.
    CallArg,
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    kind: Kind,
    /// The current value was written as a fenced block inside a string: `"```json {…}```"`.
    fenced: bool,
    /// Output offset where the current element started (arrays).
    elem_out: usize,
    state: State,
    /// Output offset of the opening bracket (tuples may drop it).
    open_out: usize,
    /// Number of elements written (tuples with one element become that element).
    count: u32,
}

/// What the top frame wants next.
enum Next {
    /// Parse a child value, then resume the frame.
    Child,
    /// The frame closed: it was a complete value.
    Closed,
    /// A new frame was pushed: resume it from its start.
    Pushed,
}

/// Where a string being parsed sits: the end-quote heuristics differ for keys, object values,
/// array elements and root values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ctx {
    Key,
    ObjValue,
    Element,
    Root,
}

/// Outcome of one attempt at a string.
pub(super) enum Attempt {
    NotString,
    Done { concat: bool },
    RetryDelimiter,
    RetryAt(usize),
}

/// The state of one reading of a string ([`Parser::string_attempt`]).
struct Str {
    /// The opening quote's family: which quotes can end the string.
    q: Quote,
    /// Input offset of the first byte of text.
    content_start: usize,
    /// Output offset of the first byte of text.
    o_content: usize,
    /// This reading ends the string at the first delimiter.
    stop_delim: bool,
    /// This reading ends the string at this offset.
    stop_at: Option<usize>,
    /// Bracket balance of the text (for quotes followed by a closer), counted lazily.
    bal: Balance,
    /// Quotes of the text escaped so far.
    escaped_quotes: u32,
    /// Output offset where a run of raw trailing whitespace with a newline started, and the
    /// index of the first fix recorded in it.
    ws_tail: Option<(usize, usize)>,
}

/// What a quote inside a string turned out to be ([`Parser::string_quote`]).
enum QuoteEnd {
    /// The end of the string, or a retry with stricter rules.
    End(Attempt),
    /// A quote of the text (written escaped).
    Inner,
    /// The second quote of a doubled opening quote (`"" value"`): the text starts after it.
    DoubledOpening,
}

/// The tolerant parser over one input.
pub(crate) struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    out: Vec<u8>,
    fixes: Vec<Fix>,
    stack: Vec<Frame>,
    /// Open frames by closer, to tell a mismatched closer from a redundant one.
    open_braces: u32,
    open_brackets: u32,
    /// Context of the string or value being parsed.
    ctx: Ctx,
    /// Plain completion mode (the fallback): every matching quote ends its string and no string
    /// is re-scanned; enough to complete any prefix of valid JSON.
    plain: bool,
    /// Input offset of the last comma copied to the output: where a trailing comma that is
    /// removed later was written.
    comma_at: usize,
    /// Work counter: one step per loop iteration or byte examined (for the linearity tests).
    pub(crate) steps: u64,
    /// Output offsets of the opening and closing bracket of the array closed last.
    last_array: (usize, usize),
    /// Output bytes the row check of merged arrays may still read ([`Parser::merge_rows`]): the
    /// input's length, so the total work stays linear however often an array is reopened.
    row_budget: usize,
}

type R<T> = Result<T, RepairError>;

impl<'a> Parser<'a> {
    pub(crate) fn new(input: &'a str) -> Self {
        Parser {
            b: input.as_bytes(),
            i: 0,
            out: Vec::with_capacity(input.len() + input.len() / 8 + 16),
            // Broken input nearly always needs a few fixes and frames: one allocation each.
            fixes: Vec::with_capacity(8),
            stack: Vec::with_capacity(16),
            open_braces: 0,
            open_brackets: 0,
            ctx: Ctx::Root,
            plain: false,
            comma_at: 0,
            steps: 0,
            last_array: (usize::MAX, usize::MAX),
            row_budget: input.len(),
        }
    }

    /// Runs the tolerant pass; returns the output and fixes (or the error) and the step count.
    pub(crate) fn run(mut self) -> (R<(String, Vec<Fix>)>, u64) {
        let res = self.root();
        let steps = self.steps;
        if let Err(e) = res {
            if !matches!(e, RepairError::Invalid { .. }) {
                return (Err(e), steps);
            }
            // The heuristics can misjudge text that is merely cut off; plain completion of
            // the same input gets every prefix of valid JSON right. Keep the first error if
            // that fails too.
            let input = std::str::from_utf8(self.b).unwrap_or_default();
            let mut plain = Parser::new(input);
            plain.plain = true;
            let (res, more) = plain.finish();
            return (res.map_err(|_| e), steps + more);
        }
        self.finish_ok(steps)
    }

    fn finish(mut self) -> (R<(String, Vec<Fix>)>, u64) {
        let res = self.root();
        let steps = self.steps;
        match res {
            Err(e) => (Err(e), steps),
            Ok(()) => self.finish_ok(steps),
        }
    }

    fn finish_ok(mut self, steps: u64) -> (R<(String, Vec<Fix>)>, u64) {
        if !self.fixes.is_sorted_by_key(|f| f.at) {
            self.fixes.sort_by_key(|f| f.at);
        }
        // The parser only ever writes ASCII or whole UTF-8 sequences copied from a `&str`, so
        // this cannot fail; map the impossible case to an error rather than panic.
        let text = String::from_utf8(self.out).map_err(|e| RepairError::Invalid {
            at: e.utf8_error().valid_up_to(),
            message: "internal error: repair produced invalid UTF-8".into(),
        });
        (text.map(|t| (t, self.fixes)), steps)
    }

    // ----- small helpers -------------------------------------------------------------------

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline]
    fn at(&self, i: usize) -> Option<u8> {
        self.b.get(i).copied()
    }

    #[inline]
    fn fix(&mut self, kind: FixKind, at: usize) {
        self.fixes.push(Fix { kind, at });
    }

    fn invalid(&self, at: usize, message: impl Into<String>) -> RepairError {
        RepairError::Invalid {
            at,
            message: message.into(),
        }
    }

    /// Inserts `s` before the whitespace at the end of the output.
    fn insert_before_ws(&mut self, s: &[u8]) {
        let k = ws_start(&self.out, self.out.len());
        if k == self.out.len() {
            self.out.extend_from_slice(s);
        } else {
            self.out.splice(k..k, s.iter().copied());
        }
    }

    /// Takes back the closer written at output offset `closer` so the container continues:
    /// the output is cut there and `sep` is written unless the container is still empty (its
    /// last non-whitespace byte is its `opener`).
    fn reopen(&mut self, closer: usize, opener: u8, sep: &[u8]) {
        self.out.truncate(closer);
        let e = ws_start(&self.out, self.out.len());
        if e > 0 && self.out[e - 1] != opener {
            self.out.extend_from_slice(sep);
        }
    }

    /// An array value closed at output offset `close` is continued by another array written
    /// where a key belongs (`{"rows": [["a", "b"]], ["c", "d"]}`). When the closed array holds
    /// arrays all of one length `n` and the next one does not start with an array, the next one
    /// is a row of it (`true`: its bracket is not consumed); values written after the rows
    /// without brackets are grouped into rows of `n` first when they divide evenly
    /// (`GroupedRows`). Returns the array's opening offset (or `close` when unknown), whether
    /// the next array is a row, and how many bytes the grouping added before `close`.
    fn merge_rows(&mut self, close: usize) -> (usize, bool, usize) {
        let (open, end) = self.last_array;
        if end != close || open >= close || self.out[open] != b'[' {
            return (close, false, 0);
        }
        let next = ws_end(self.b, self.i + 1);
        if matches!(self.at(next), None | Some(b'[' | b']')) || close - open > self.row_budget {
            return (open, false, 0);
        }
        self.row_budget -= close - open;
        self.steps += (close - open) as u64;
        let Some(elems) = array_elements(&self.out, open, close) else {
            return (open, false, 0);
        };
        let Some(n) = elems.iter().find_map(|e| e.2).filter(|&n| n > 0) else {
            return (open, false, 0);
        };
        if elems.iter().any(|e| e.2.is_some_and(|m| m != n)) {
            return (open, false, 0);
        }
        let mut grown = 0;
        let tail = elems.iter().rev().take_while(|e| e.2.is_none()).count();
        if tail > 0 && tail % n == 0 {
            let tail = &elems[elems.len() - tail..];
            let mut grouped = Vec::with_capacity(close - tail[0].0 + 2 * tail.len() / n);
            for (g, row) in tail.chunks(n).enumerate() {
                if g > 0 {
                    let prev = tail[g * n - 1].1;
                    grouped.extend_from_slice(&self.out[prev..row[0].0]);
                }
                grouped.push(b'[');
                grouped.extend_from_slice(&self.out[row[0].0..row[n - 1].1]);
                grouped.push(b']');
            }
            let (from, to) = (tail[0].0, tail[tail.len() - 1].1);
            grown = grouped.len() - (to - from);
            self.out.splice(from..to, grouped);
            self.fix(FixKind::GroupedRows, self.i);
        }
        (open, true, grown)
    }

    /// Removes a comma that is the last non-whitespace output byte (a trailing comma).
    fn strip_trailing_comma(&mut self) -> bool {
        let k = ws_start(&self.out, self.out.len());
        if k > 0 && self.out[k - 1] == b',' {
            self.out.remove(k - 1);
            true
        } else {
            false
        }
    }

    fn ends_with_comma_or_newline(&self) -> bool {
        let mut k = self.out.len();
        while k > 0 && matches!(self.out[k - 1], b' ' | b'\t' | b'\r') {
            k -= 1;
        }
        k > 0 && matches!(self.out[k - 1], b',' | b'\n')
    }

    /// Copies whitespace to the output (Unicode spaces become a plain space).
    fn ws(&mut self, newline: bool) -> bool {
        let start = self.i;
        while let Some(c) = self.peek() {
            self.steps += 1;
            if c == b' ' || c == b'\t' || c == b'\r' || (newline && c == b'\n') {
                self.out.push(c);
                self.i += 1;
            } else if c < 0xC2 {
                // No Unicode space starts below 0xC2: the common case ends here.
                break;
            } else {
                let n = special_ws_len(self.b, self.i);
                if n == 0 {
                    break;
                }
                self.fix(FixKind::NormalizedWhitespace, self.i);
                self.out.push(b' ');
                self.i += n;
            }
        }
        self.i > start
    }

    /// Skips one `/* */`, `//` or `#` comment.
    fn comment(&mut self) -> bool {
        let start = self.i;
        let Some(end) = comment_end(self.b, start) else {
            return false;
        };
        self.i = end;
        self.steps += (self.i - start) as u64 / 16 + 1;
        self.fix(FixKind::StrippedComment, start);
        true
    }

    fn is_comment_start(&self, i: usize) -> bool {
        matches!(
            (self.at(i), self.at(i + 1)),
            (Some(b'/'), Some(b'*' | b'/'))
        )
    }

    /// Whitespace and comments where a value starts: a `#word` there is the value
    /// ([`hash_value_at`]), not a comment.
    fn ws_comments_before_value(&mut self) {
        self.ws(true);
        while !hash_value_at(self.b, self.i) && self.comment() {
            self.ws(true);
        }
    }

    /// Whitespace and comments; returns whether anything was consumed.
    fn ws_comments(&mut self, newline: bool) -> bool {
        let start = self.i;
        self.ws(newline);
        while self.comment() {
            self.ws(newline);
        }
        self.i > start
    }

    fn parse_char(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            if c == b',' {
                self.comma_at = self.i;
            }
            self.out.push(c);
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn skip_char(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// Commas where no value is — leading in a container (`[,1]`) or repeated after a separator
    /// (`[1,,2]`, `{"a": 1,,}`) —, and the whitespace and comments around them: each comma is
    /// dropped with its fix, so no value after it is lost.
    fn skip_extra_commas(&mut self, values: bool) {
        loop {
            if values {
                // In an array a `#word` is an element (`[#python]`), not a comment.
                self.ws_comments_before_value();
            } else {
                self.ws_comments(true);
            }
            if self.peek() != Some(b',') {
                return;
            }
            self.fix(FixKind::RemovedComma, self.i);
            self.i += 1;
        }
    }

    fn skip_ellipsis(&mut self) {
        self.ws_comments_before_value();
        if self.b[self.i..].starts_with(b"...") {
            self.fix(FixKind::RemovedEllipsis, self.i);
            self.i += 3;
            self.ws_comments_before_value();
            self.skip_char(b',');
        }
    }

    /// Skips an opening Markdown fence (```` ``` ````, `[````, `{```` plus a language tag).
    fn open_fence(&mut self) -> bool {
        let Some(end) = open_fence_end(self.b, self.i) else {
            return false;
        };
        self.fix(FixKind::StrippedCodeFence, self.i);
        self.i = end;
        self.ws_comments(true);
        true
    }

    /// Skips a closing Markdown fence (```` ``` ````, ```` ```] ````, ```` ```} ````).
    fn close_fence(&mut self) -> bool {
        self.ws(true);
        if self.b[self.i..].starts_with(b"```") {
            self.fix(FixKind::StrippedCodeFence, self.i);
            self.i += 3;
            if matches!(self.peek(), Some(b']' | b'}')) {
                self.i += 1;
            }
            true
        } else {
            false
        }
    }

    // ----- the root ------------------------------------------------------------------------

    /// Finds where the JSON starts when the input opens with prose: the first code fence, `{` or `[`.
    fn prelude(&mut self) -> R<bool> {
        self.ws_comments(true);
        if self.open_fence() {
            return Ok(true);
        }
        let Some(c) = self.peek() else {
            return Ok(false);
        };
        let direct = match c {
            b'{' | b'[' | b'0'..=b'9' | b'/' => true,
            b'-' | b'.' | b'+' => matches!(self.at(self.i + 1), Some(b'0'..=b'9' | b'.' | b'I')),
            b'\\' => true,
            b'(' => false,
            c if is_ident_start(c) => {
                let mut j = self.i;
                while self.at(j).is_some_and(is_ident) {
                    j += 1;
                }
                let word = &self.b[self.i..j];
                let mut k = j;
                while matches!(self.at(k), Some(b' ' | b'\t')) {
                    k += 1;
                }
                self.at(k) == Some(b'(') || literal(word).is_some()
            }
            _ => quote_at(self.b, self.i).is_some(),
        };
        if direct {
            return Ok(false);
        }
        let rest = &self.b[self.i..];
        self.steps += rest.len() as u64 / 16;
        // The first `{` or `[`, past bracket groups of the prose itself (`Calling [read] now:
        // {…}`, `I found [2] results: {…}`) when a value still follows them.
        let mut from = 0;
        let brace = loop {
            let Some(k) = memchr::memchr2(b'{', b'[', &rest[from..]).map(|k| k + from) else {
                break None;
            };
            if rest[k] == b'['
                && let Some(close) = prose_bracket_end(rest, k)
                && memchr::memchr2(b'{', b'[', &rest[close..]).is_some()
            {
                from = close;
                continue;
            }
            break Some(k);
        };
        let fence = memchr::memmem::find(rest, b"```");
        let start = self.i;
        match (brace, fence) {
            (_, Some(f)) if brace.is_none_or(|b| f < b) => {
                self.fix(FixKind::StrippedWrapper, start);
                self.i = start + f;
                self.open_fence();
                Ok(true)
            }
            (Some(b), _) => {
                self.fix(FixKind::StrippedWrapper, start);
                self.i = start + b;
                Ok(true)
            }
            _ => {
                if c == b'(' {
                    Ok(false)
                } else if !c.is_ascii() && !is_ident_start(c) && quote_at(self.b, self.i).is_none()
                {
                    Err(self.no_json())
                } else {
                    Ok(false)
                }
            }
        }
    }

    fn no_json(&self) -> RepairError {
        self.invalid(
            self.i,
            "no JSON value found: the text is prose; answer with only a JSON object such as {\"key\": \"value\"}",
        )
    }

    fn root(&mut self) -> R<()> {
        let wrapped = self.prelude()?;
        let root_start = self.i;
        let root_out = self.out.len();
        let processed = self.value()?;
        if !processed {
            return Err(if self.i >= self.b.len() {
                RepairError::Truncated {
                    at: self.i,
                    message:
                        "the input is empty: expected a JSON value such as {\"key\": \"value\"}"
                            .into(),
                }
            } else {
                self.unexpected()
            });
        }
        let root_container = matches!(self.at(root_start), Some(b'{' | b'['));
        let fenced = self.close_fence();
        let comma_at = self.i;
        let comma = self.parse_char(b',');
        if comma {
            self.ws_comments(true);
        }
        if comma
            && self.at(root_start) == Some(b'{')
            && (self.key_at(self.i) || self.key_then_value_at(self.i))
        {
            // `{"a": 1}, "b": 2}`: the object was closed too early; take the pairs in.
            let mut k = self.out.len();
            while k > 0 && self.out[k - 1] != b'}' {
                k -= 1;
            }
            if k > 0 {
                self.fix(FixKind::MergedObject, comma_at);
                self.reopen(k - 1, b'{', b", ");
                self.open_braces += 1;
                self.stack.push(Frame {
                    kind: Kind::Object,
                    fenced: false,
                    elem_out: 0,
                    state: State::Open,
                    open_out: 0,
                    count: 0,
                });
                self.drive(0, None)?;
                return self.root_tail(root_container, fenced, wrapped);
            }
        }
        let next_ok = if fenced && self.next_fenced_value().is_some() {
            true
        } else if root_container {
            matches!(self.peek(), Some(b'{' | b'['))
        } else {
            is_value_start(self.b, self.i) && (comma || self.ends_with_comma_or_newline())
        };
        if next_ok {
            self.fix(FixKind::WrappedInArray, self.i);
            if !comma {
                self.insert_before_ws(b",");
            }
            let fenced_values = fenced && self.next_fenced_value().is_some();
            self.ndjson((root_out, root_start), fenced_values, root_container)?;
        } else if comma {
            self.strip_trailing_comma();
            self.fix(FixKind::RemovedComma, comma_at);
        }
        self.root_tail(root_container, fenced, wrapped)
    }

    /// What may follow the root value: redundant closers, a closing fence, trailing prose.
    fn root_tail(&mut self, root_container: bool, fenced: bool, wrapped: bool) -> R<()> {
        // Redundant closers after the root value.
        while matches!(self.peek(), Some(b'}' | b']')) {
            self.fix(FixKind::RemovedCloser, self.i);
            self.i += 1;
            self.ws_comments(true);
        }
        self.close_fence();
        self.ws_comments(true);
        if self.i < self.b.len() {
            if root_container || fenced || wrapped {
                self.fix(FixKind::StrippedWrapper, self.i);
                self.i = self.b.len();
            } else {
                return Err(self.unexpected());
            }
        }
        Ok(())
    }

    fn unexpected(&self) -> RepairError {
        let c = self.b[self.i..]
            .iter()
            .take(1)
            .map(|&c| c as char)
            .collect::<String>();
        self.invalid(
            self.i,
            format!("unexpected character {c:?}: remove it or put the whole value inside one JSON object"),
        )
    }

    /// `"```json {` or `"```[`: a fenced JSON block written inside a string.
    fn fenced_json_in_string(&self) -> bool {
        let b = self.b;
        if self.peek() != Some(b'"') || !b[self.i + 1..].starts_with(b"```") {
            return false;
        }
        let mut k = self.i + 4;
        while b.get(k).is_some_and(|&c| is_ident(c)) {
            k += 1;
        }
        k = ws_end(b, k);
        // Only a closed block: `"```json{}"` is just a string (bounded look-ahead).
        matches!(b.get(k), Some(b'{' | b'['))
            && memchr::memmem::find(&b[k..(k + 4096).min(b.len())], b"```").is_some()
    }

    /// Where the next code fence whose content starts with `{` or `[` begins, if any.
    fn next_fenced_value(&self) -> Option<usize> {
        next_fenced_value(self.b, self.i)
    }

    /// Newline-delimited or concatenated root values become one array. Empty containers among
    /// non-empty ones are dropped (a model's placeholder before the real value).
    fn ndjson(&mut self, first: (usize, usize), fenced: bool, containers: bool) -> R<()> {
        // Each value's output span and where it starts in the input.
        let mut spans = vec![(first.0, self.trimmed_end(), first.1)];
        let mut initial = true;
        loop {
            let comma_at = self.i;
            let comma = initial || self.parse_char(b',');
            let before = self.out.len();
            initial = false;
            // A fence here closes the previous block, unless it opens the next one (the closing
            // fence of the first block was taken by `root`).
            let w = ws_end(self.b, self.i);
            if next_fenced_value(self.b, w) != Some(w) {
                self.close_fence();
            }
            self.ws_comments(true);
            if fenced && self.peek() != Some(b'`') {
                // Prose between two fenced values: skip to the next fence, or stop.
                let Some(f) = self.next_fenced_value() else {
                    if self.strip_trailing_comma() {
                        self.fix(FixKind::RemovedComma, self.comma_at);
                    }
                    break;
                };
                self.fix(FixKind::StrippedWrapper, self.i);
                self.i = f;
            }
            if self.peek() == Some(b'`') {
                self.open_fence();
            }
            let mut start = self.out.len();
            let in_start = self.i;
            // After container values, only another container continues the list: a line of
            // prose after them is stripped by `root_tail` (C3), not read as a value.
            if (containers && !matches!(self.peek(), Some(b'{' | b'['))) || !self.value()? {
                if self.strip_trailing_comma() {
                    self.fix(FixKind::RemovedComma, self.comma_at);
                }
                break;
            }
            if !comma {
                // No comma between the two values: insert one before the whitespace.
                let k = ws_start(&self.out, before);
                self.out.insert(k, b',');
                self.fix(FixKind::InsertedComma, comma_at);
                start += 1;
            }
            spans.push((start, self.trimmed_end(), in_start));
        }
        let is_empty = |s: &[u8]| {
            let t: Vec<u8> = s.iter().copied().filter(|c| !is_ws(*c)).collect();
            t == b"[]" || t == b"{}"
        };
        let (keep, dropped): (Vec<_>, Vec<_>) = spans
            .iter()
            .partition(|&&(a, b, _)| !is_empty(&self.out[a..b]));
        if !keep.is_empty() && !dropped.is_empty() {
            for &(_, _, at) in dropped {
                self.fix(FixKind::DroppedEmpty, at);
            }
            let mut out = Vec::with_capacity(self.out.len());
            if keep.len() == 1 {
                out.extend_from_slice(&self.out[keep[0].0..keep[0].1]);
            } else {
                out.extend_from_slice(b"[\n");
                for (n, &&(a, b, _)) in keep.iter().enumerate() {
                    if n > 0 {
                        out.extend_from_slice(b",\n");
                    }
                    out.extend_from_slice(&self.out[a..b]);
                }
                out.extend_from_slice(b"\n]");
            }
            self.out = out;
            return Ok(());
        }
        self.out.splice(0..0, b"[\n".iter().copied());
        self.out.extend_from_slice(b"\n]");
        Ok(())
    }

    /// Output length without trailing whitespace and commas.
    fn trimmed_end(&self) -> usize {
        let mut k = self.out.len();
        while k > 0 && (is_ws(self.out[k - 1]) || self.out[k - 1] == b',') {
            k -= 1;
        }
        k
    }

    // ----- values: the explicit-stack driver ------------------------------------------------

    /// Parses one value at the current position (containers included) without recursion.
    fn value(&mut self) -> R<bool> {
        let base = self.stack.len();
        let res = self.begin_value()?;
        self.drive(base, res)
    }

    /// Runs frames until the stack is back to `base`; `res` is the state of the value just begun.
    fn drive(&mut self, base: usize, mut res: Option<bool>) -> R<bool> {
        loop {
            self.steps += 1;
            let next = match res {
                Some(done) if self.stack.len() == base => return Ok(done),
                Some(done) => self.resume(Some(done))?,
                None => self.resume(None)?,
            };
            res = match next {
                Next::Child => self.begin_value()?,
                Next::Pushed => None,
                Next::Closed => {
                    self.ws_comments(true);
                    Some(true)
                }
            };
        }
    }

    /// Starts a value: opens a container (returns `None`) or parses a leaf (returns whether one
    /// was found).
    fn begin_value(&mut self) -> R<Option<bool>> {
        self.ws_comments_before_value();
        self.ctx = match self.stack.last().map(|f| f.kind) {
            Some(Kind::Object) => Ctx::ObjValue,
            Some(Kind::Array | Kind::Tuple) => Ctx::Element,
            _ => Ctx::Root,
        };
        if self.ctx == Ctx::ObjValue && self.fenced_json_in_string() {
            if let Some(f) = self.stack.last_mut() {
                f.fenced = true;
            }
            self.fix(FixKind::StrippedCodeFence, self.i);
            self.i += 1;
            self.open_fence();
        }
        let Some(c) = self.peek() else {
            return Ok(Some(false));
        };
        if matches!(
            c,
            b'0'..=b'9' | b'-' | b'+' | b'.' | b'(' | b'M' | b'm' | b'n'
        ) && self.expression()
        {
            self.ws_comments(true);
            return Ok(Some(true));
        }
        match c {
            b'{' | b'[' | b'(' => {
                if self.stack.len() >= MAX_DEPTH {
                    return Err(RepairError::LimitExceeded {
                        at: self.i,
                        message: format!(
                            "nesting deeper than {MAX_DEPTH} levels: flatten the arguments"
                        ),
                    });
                }
                let kind = match c {
                    b'{' => {
                        self.open_braces += 1;
                        Kind::Object
                    }
                    b'[' => {
                        self.open_brackets += 1;
                        Kind::Array
                    }
                    _ => {
                        self.fix(FixKind::ConvertedTuple, self.i);
                        Kind::Tuple
                    }
                };
                let open_out = self.out.len();
                self.out
                    .push(if kind == Kind::Object { b'{' } else { b'[' });
                self.i += 1;
                self.stack.push(Frame {
                    kind,
                    fenced: false,
                    elem_out: 0,
                    state: State::Open,
                    open_out,
                    count: 0,
                });
                return Ok(None);
            }
            _ => {}
        }
        let done = if self.string()? || self.number() || self.keyword() {
            true
        } else {
            match self.unquoted(false)? {
                Unquoted::No => self.regex(),
                Unquoted::Yes => true,
                Unquoted::Call => return Ok(None),
            }
        };
        if done {
            self.ws_comments(true);
        }
        Ok(Some(done))
    }

    /// Resumes the top frame, after it was opened (`None`) or after its child value (`Some`).
    fn resume(&mut self, child: Option<bool>) -> R<Next> {
        let Some(top) = self.stack.last().copied() else {
            return Ok(Next::Closed);
        };
        match (top.kind, top.state, child) {
            (Kind::Object, State::Open, _) => {
                self.skip_extra_commas(false);
                self.object_next(true)
            }
            (Kind::Object, State::ObjValue { colon, truncated }, Some(processed)) => {
                if top.fenced {
                    // Close `"```json {…}```"`: the fence, then the string's quote.
                    if let Some(f) = self.stack.last_mut() {
                        f.fenced = false;
                    }
                    self.ws(true);
                    if self.b[self.i..].starts_with(b"```") {
                        self.i += 3;
                    }
                    self.ws(true);
                    if self.peek() == Some(b'"') {
                        self.i += 1;
                    }
                    self.ws_comments(true);
                }
                if !processed {
                    if colon || truncated {
                        self.insert_before_ws(b"null");
                        self.fix(FixKind::InsertedNull, self.i);
                    } else {
                        return Err(self.invalid(
                            self.i,
                            "a colon and a value are expected after the key: write \"key\": value",
                        ));
                    }
                }
                self.object_next(false)
            }
            (Kind::Array | Kind::Tuple, State::Open, _) => {
                self.skip_extra_commas(true);
                self.array_next(true)
            }
            (Kind::Array | Kind::Tuple, State::Element, Some(processed)) => {
                if !processed {
                    if self.strip_trailing_comma() {
                        self.fix(FixKind::RemovedComma, self.comma_at);
                    }
                    return self.close();
                }
                if let Some(f) = self.stack.last_mut() {
                    f.count += 1;
                }
                if top.kind == Kind::Array
                    && self.peek() == Some(b':')
                    && self.out.get(top.elem_out) == Some(&b'"')
                    && self.stack.len() < MAX_DEPTH
                {
                    // `["key": "value"]`: the element is the key of an object.
                    self.fix(FixKind::WrappedInObject, self.i);
                    self.out.insert(top.elem_out, b'{');
                    self.out.push(b':');
                    self.i += 1;
                    self.open_braces += 1;
                    let truncated = self.i >= self.b.len();
                    self.stack.push(Frame {
                        kind: Kind::Object,
                        fenced: false,
                        elem_out: 0,
                        state: State::ObjValue {
                            colon: true,
                            truncated,
                        },
                        open_out: top.elem_out,
                        count: 0,
                    });
                    return Ok(Next::Child);
                }
                self.array_next(false)
            }
            (Kind::Call, State::Open, _) => {
                self.set_state(State::CallArg);
                Ok(Next::Child)
            }
            (Kind::Call, State::CallArg, Some(processed)) => {
                if !processed {
                    // `callback()`: no argument.
                    self.out.extend_from_slice(b"null");
                    self.fix(FixKind::InsertedNull, self.i);
                }
                self.ws_comments(true);
                if self.skip_char(b')') {
                    self.skip_char(b';');
                }
                self.stack.pop();
                Ok(Next::Closed)
            }
            // Unreachable combinations: treat as a closed frame rather than panic.
            _ => {
                self.stack.pop();
                Ok(Next::Closed)
            }
        }
    }

    fn set_state(&mut self, state: State) {
        if let Some(f) = self.stack.last_mut() {
            f.state = state;
        }
    }

    fn my_closer(kind: Kind) -> u8 {
        match kind {
            Kind::Object => b'}',
            Kind::Array => b']',
            Kind::Tuple | Kind::Call => b')',
        }
    }

    /// Looks after a mismatched closer at `i` for `, "key":` (an object continues) or `, value`.
    fn continues_with_key(&self, i: usize) -> Option<bool> {
        let mut j = i + 1;
        j = ws_end(self.b, j);
        if self.at(j) != Some(b',') {
            return None;
        }
        j += 1;
        j = ws_end(self.b, j);
        let limit = (j + 256).min(self.b.len());
        if let Some((q, n)) = quote_at(self.b, j) {
            j += n;
            while j < limit {
                if let Some((q2, n2)) = quote_at(self.b, j)
                    && q.is_end(q2)
                {
                    j += n2;
                    break;
                }
                j += 1;
            }
        } else {
            while j < limit && self.at(j).is_some_and(is_ident) {
                j += 1;
            }
        }
        j = ws_end(self.b, j);
        Some(self.at(j) == Some(b':'))
    }

    /// Handles closers at the top of a container loop: drops redundant ones, then closes the
    /// frame when the next byte is a closer (its own, a typo for its own, or an outer one).
    /// Returns `None` when the next byte is not a closer.
    fn handle_closer(&mut self, kind: Kind) -> Option<R<Next>> {
        loop {
            self.steps += 1;
            if self.b[self.i..].starts_with(b"```") {
                // A closing code fence inside an unclosed container: the JSON ended here.
                self.fix(FixKind::StrippedCodeFence, self.i);
                self.i += 3;
                self.ws_comments(true);
                continue;
            }
            let Some(c) = self.peek() else {
                return Some(self.close());
            };
            if !matches!(c, b'}' | b']' | b')') {
                return None;
            }
            if c == Self::my_closer(kind) {
                return Some(self.close());
            }
            let open_elsewhere = match c {
                b'}' => self.open_braces > u32::from(kind == Kind::Object),
                b']' => self.open_brackets > u32::from(kind == Kind::Array),
                _ => self
                    .stack
                    .iter()
                    .any(|f| matches!(f.kind, Kind::Tuple | Kind::Call)),
            };
            if !open_elsewhere {
                if c == b')' && kind == Kind::Array {
                    // `[1, 2)`: a tuple-style closer for an array.
                    self.fix(FixKind::ReplacedCloser, self.i);
                    self.i += 1;
                    return Some(self.close_with(true));
                }
                self.fix(FixKind::RemovedCloser, self.i);
                self.i += 1;
                self.ws_comments(true);
                continue;
            }
            // The closer belongs to an outer container. Either it is a typo for ours (the
            // parent continues after it) or ours is missing (the parent closes here).
            let parent = self.stack.len().checked_sub(2).map(|k| self.stack[k].kind);
            let typo = match (self.continues_with_key(self.i), parent) {
                (Some(true), Some(Kind::Object)) => c == b'}' && kind != Kind::Object,
                (Some(false), Some(Kind::Array)) => c == b']' && kind != Kind::Array,
                _ => false,
            };
            return Some(if typo {
                self.fix(FixKind::ReplacedCloser, self.i);
                self.i += 1;
                self.close_with(true)
            } else {
                self.close_with(false)
            });
        }
    }

    /// The object loop: comma, key, colon, then request the value.
    fn object_next(&mut self, initial: bool) -> R<Next> {
        if self.i >= self.b.len() {
            return self.close();
        }
        if let Some(next) = self.handle_closer(Kind::Object) {
            return next;
        }
        let mut inserted_comma = false;
        if !initial {
            let comma_at = self.i;
            if let Some((_, n)) = quote_at(self.b, self.i) {
                // A stray quote before the comma (`"hello\n"\n",`): drop it.
                let mut k = self.i + n;
                k = ws_end(self.b, k);
                if matches!(self.at(k), None | Some(b',' | b'}')) {
                    self.fix(FixKind::DroppedGarbage, self.i);
                    self.i = k;
                    if self.i >= self.b.len() || self.peek() == Some(b'}') {
                        return self.close();
                    }
                }
            }
            if self.parse_char(b',') {
                self.skip_extra_commas(false);
            } else {
                self.insert_before_ws(b",");
                self.fix(FixKind::InsertedComma, comma_at);
                inserted_comma = true;
            }
            self.ws_comments(true);
        }
        self.skip_ellipsis();
        let key_in = self.i;
        let key_out = self.out.len();
        self.ctx = Ctx::Key;
        let mut quoted = self.string()?;
        let mut key = quoted || matches!(self.unquoted(true)?, Unquoted::Yes);
        if key && !quoted {
            let word_end = self.i;
            self.ws(true);
            if self.i > word_end && self.key_at(self.i) {
                // `COMMENT "key": …`: a stray word before a quoted key.
                self.out.truncate(key_out);
                self.fix(FixKind::DroppedGarbage, key_in);
                quoted = self.string()?;
                key = quoted;
            }
        }
        if !key && self.peek() == Some(b':') {
            let mut k = self.i + 1;
            k = ws_end(self.b, k);
            if self.at(k) == Some(b'}') {
                // `{:}`: a colon with neither key nor value.
                self.fix(FixKind::DroppedGarbage, self.i);
                self.strip_trailing_comma();
                self.i = k;
                return self.close();
            }
        }
        if !key && self.peek() == Some(b'[') && self.stack.len() < MAX_DEPTH {
            self.strip_trailing_comma();
            let k = ws_start(&self.out, self.out.len());
            if k > 0 && self.out[k - 1] == b']' {
                // `{"a": [1], [2]}`: the array value continues with the next array's items —
                // or, when it holds rows of one length, with the next array as a row.
                self.fix(FixKind::MergedArray, self.i);
                let (open_out, rows, grown) = self.merge_rows(k - 1);
                self.reopen(k - 1 + grown, b'[', b",");
                if !rows {
                    self.i += 1;
                }
                self.open_brackets += 1;
                self.set_state(State::ObjValue {
                    colon: true,
                    truncated: false,
                });
                self.stack.push(Frame {
                    kind: Kind::Array,
                    fenced: false,
                    elem_out: 0,
                    state: State::Open,
                    open_out,
                    count: 1,
                });
                return Ok(Next::Pushed);
            }
            self.out.push(b',');
        }
        if !key {
            match self.peek() {
                None | Some(b'}' | b'{' | b']' | b'[' | b')') => {
                    if self.strip_trailing_comma() {
                        self.fix(FixKind::RemovedComma, self.comma_at);
                    }
                    return self.close();
                }
                Some(_) => {
                    return Err(self.invalid(
                        self.i,
                        "an object key is expected here: write \"key\": value pairs separated by commas",
                    ));
                }
            }
        }
        self.ws_comments(true);
        if self.i >= self.b.len() && &self.out[key_out..] == b"\"\"" && key_in < self.b.len() {
            // `{"` cut off right after the opening quote of a key: nothing of the key survived.
            self.out.truncate(key_out);
            self.strip_trailing_comma();
            self.fix(FixKind::DroppedKey, key_in);
            return self.close();
        }
        if self.peek() == Some(b'}') {
            if initial {
                // `{"city"}`, `{5}`: a set, or a key missing its value (C11, as `{"a", "b"}`).
                return Err(self.invalid(
                    self.i,
                    "a colon and a value are expected after the object key: write \"key\": value",
                ));
            }
            // A dangling key or word right before the end of the object: `{"b": "x" true}`.
            self.out.truncate(key_out);
            self.strip_trailing_comma();
            self.fix(FixKind::DroppedGarbage, key_in);
            return self.close();
        }
        if !quoted && inserted_comma && self.i >= self.b.len() {
            // `{"a": "x" tail`: a trailing word with neither comma nor colon.
            self.out.truncate(key_out);
            self.strip_trailing_comma();
            self.fix(FixKind::DroppedGarbage, key_in);
            return self.close();
        }
        let colon = self.parse_char(b':');
        let truncated = self.i >= self.b.len();
        if !colon {
            if is_value_start(self.b, self.i) || truncated {
                self.insert_before_ws(b":");
                self.fix(FixKind::InsertedColon, self.i);
            } else {
                return Err(self.invalid(
                    self.i,
                    "a colon is expected after the object key: write \"key\": value",
                ));
            }
        }
        self.set_state(State::ObjValue { colon, truncated });
        Ok(Next::Child)
    }

    /// The array (and tuple) loop: comma, ellipsis, then request the element.
    fn array_next(&mut self, initial: bool) -> R<Next> {
        if self.i >= self.b.len() {
            return self.close();
        }
        let kind = self.stack.last().map_or(Kind::Array, |f| f.kind);
        if let Some(next) = self.handle_closer(kind) {
            return next;
        }
        if !initial {
            let comma_at = self.i;
            if self.parse_char(b',') {
                self.skip_extra_commas(true);
            } else {
                self.insert_before_ws(b",");
                self.fix(FixKind::InsertedComma, comma_at);
            }
        }
        self.skip_ellipsis();
        if matches!(self.peek(), Some(b']' | b'}' | b')')) || self.i >= self.b.len() {
            if self.strip_trailing_comma() {
                self.fix(FixKind::RemovedComma, self.comma_at);
            }
            if let Some(next) = self.handle_closer(kind) {
                return next;
            }
            return self.close();
        }
        self.ws_comments_before_value();
        let elem_out = self.out.len();
        if let Some(f) = self.stack.last_mut() {
            f.state = State::Element;
            f.elem_out = elem_out;
        }
        Ok(Next::Child)
    }

    /// Closes the top frame with its own closer (consuming it when present) or inserts it.
    fn close(&mut self) -> R<Next> {
        let Some(top) = self.stack.last().copied() else {
            return Ok(Next::Closed);
        };
        let present = self.peek() == Some(Self::my_closer(top.kind));
        if present {
            self.i += 1;
        }
        self.close_with(present)
    }

    /// Pops the top frame and writes its closer; `consumed` says whether the input had one.
    fn close_with(&mut self, consumed: bool) -> R<Next> {
        let Some(top) = self.stack.pop() else {
            return Ok(Next::Closed);
        };
        match top.kind {
            Kind::Object => self.open_braces -= 1,
            Kind::Array => self.open_brackets -= 1,
            _ => {}
        }
        if top.kind == Kind::Tuple && top.count == 1 {
            // `(x)` is just `x`: drop the bracket written for it.
            self.out.remove(top.open_out);
            self.last_array = (usize::MAX, usize::MAX);
            return Ok(Next::Closed);
        }
        let closer = if top.kind == Kind::Object { b"}" } else { b"]" };
        if self.strip_trailing_comma() {
            self.fix(FixKind::RemovedComma, self.comma_at);
        }
        let at = if consumed {
            self.out.extend_from_slice(closer);
            self.out.len() - 1
        } else {
            let k = ws_start(&self.out, self.out.len());
            self.insert_before_ws(closer);
            self.fix(FixKind::InsertedCloser, self.i);
            k
        };
        if top.kind != Kind::Object {
            self.last_array = (top.open_out, at);
        }
        Ok(Next::Closed)
    }

    // ----- leaves ---------------------------------------------------------------------------

    /// A string with all its repairs, followed by any `+ "…"` concatenations.
    fn string(&mut self) -> R<bool> {
        if !self.string_one()? {
            return Ok(false);
        }
        Ok(true)
    }

    /// One quoted string (retrying with stricter stop rules when its end quote is doubtful).
    fn string_one(&mut self) -> R<bool> {
        let (i0, o0, f0) = (self.i, self.out.len(), self.fixes.len());
        let mut stop_delim = false;
        let mut stop_at = None;
        for _ in 0..4 {
            self.i = i0;
            self.out.truncate(o0);
            self.fixes.truncate(f0);
            match self.string_attempt(stop_delim, stop_at)? {
                Attempt::NotString => {
                    self.i = i0;
                    return Ok(false);
                }
                Attempt::Done { concat } => {
                    if concat {
                        self.concat()?;
                    }
                    return Ok(true);
                }
                Attempt::RetryDelimiter => {
                    stop_delim = true;
                    stop_at = None;
                }
                Attempt::RetryAt(k) => {
                    stop_at = Some(k);
                    stop_delim = false;
                }
            }
        }
        // Every retry strictly narrows the string; a fourth attempt never happens.
        self.string_attempt(true, None).map(|_| true)
    }

    fn close_string(&mut self, at: usize) {
        self.insert_before_ws(b"\"");
        self.fix(FixKind::ClosedString, at);
    }

    /// The string stops at a delimiter right after `\"` (or `\'` in a single-quoted string),
    /// as in `{"dir": "C:\temp\", "n": 1}`: that quote was its end and the backslash the last
    /// character of a path. Rewrites the output's escaped quote as `\\` and the end quote
    /// (whitespace after it stays outside) and returns `true`; `false` when the text before the
    /// delimiter is not such an escape.
    fn escaped_quote_ends(&mut self, st: &Str) -> bool {
        let b = self.b;
        let Some(k) = prev_non_ws(b, self.i).filter(|&k| k > st.content_start) else {
            return false;
        };
        // An ASCII quote of the string's own family, escaped by an odd run of backslashes.
        let own =
            matches!(b[k], b'"' | b'\'') && quote_at(b, k).is_some_and(|(q, _)| st.q.is_end(q));
        if !own || backslashes_before(&b[st.content_start..k]).is_multiple_of(2) {
            return false;
        }
        // What `string_escape` wrote for it: `\"` for a double quote, `'` for `\'`.
        let written: &[u8] = if b[k] == b'"' { b"\\\"" } else { b"'" };
        let t = ws_start(&self.out, self.out.len());
        if t < st.o_content + written.len() || &self.out[t - written.len()..t] != written {
            return false;
        }
        let tail = self.out.split_off(t);
        self.out.truncate(t - written.len());
        self.out.extend_from_slice(b"\\\\\"");
        self.out.extend_from_slice(&tail);
        if b[k] == b'"' {
            self.fix(FixKind::FixedEscape, k - 1);
        } else {
            self.fix(FixKind::NormalizedQuote, k);
        }
        true
    }

    /// One reading of a string from its opening quote at `self.i`: `stop_delim` ends it at the
    /// first delimiter, `stop_at` at that offset (the stricter rules of a retry, see
    /// [`Parser::string_one`]).
    fn string_attempt(&mut self, stop_delim: bool, stop_at: Option<usize>) -> R<Attempt> {
        let b = self.b;
        let mut skip_escapes = false;
        if self.peek() == Some(b'\\') && quote_at(b, self.i + 1).is_some() {
            self.fix(FixKind::FixedEscape, self.i);
            self.i += 1;
            skip_escapes = true;
        }
        let Some((q, qlen)) = quote_at(b, self.i) else {
            return Ok(Attempt::NotString);
        };
        // `""answer""`: a string delimited by doubled quotes (JSON that went through CSV quoting).
        let doubled = doubled_open(b, self.i);
        let open_len = if doubled { 2 } else { qlen };
        if q != Quote::Double || doubled {
            self.fix(FixKind::NormalizedQuote, self.i);
        }
        self.out.push(b'"');
        let content_start = self.i + open_len;
        let mut st = Str {
            q,
            content_start,
            o_content: self.out.len(),
            stop_delim,
            stop_at,
            bal: Balance {
                upto: content_start,
                counts: [0; 3],
                json_close: None,
            },
            escaped_quotes: 0,
            ws_tail: None,
        };
        self.i = content_start;
        loop {
            self.steps += 1;
            if self.i >= b.len() {
                return Ok(self.string_cut_off(&st));
            }
            if stop_at == Some(self.i) {
                if !self.escaped_quote_ends(&st) {
                    self.close_string(self.i);
                }
                return Ok(Attempt::Done { concat: false });
            }
            let c = b[self.i];
            if doubled && c == b[content_start - 1] {
                if let Some(end) = self.doubled_string_quote(&mut st) {
                    return Ok(end);
                }
            } else if let Some((q2, n2)) = quote_at(b, self.i)
                && q.is_end(q2)
            {
                match self.string_quote(&mut st, q2, n2) {
                    QuoteEnd::End(end) => return Ok(end),
                    QuoteEnd::Inner => {}
                    QuoteEnd::DoubledOpening => continue,
                }
            } else if stop_delim && self.stops_string(self.i) {
                self.keep_url_scheme(content_start);
                if !self.escaped_quote_ends(&st) {
                    self.close_string(self.i);
                }
                return Ok(Attempt::Done { concat: true });
            } else if c == b'\\' {
                st.ws_tail = None;
                self.string_escape()?;
            } else if c == b'"' {
                st.ws_tail = None;
                self.out.extend_from_slice(b"\\\"");
                self.i += 1;
                self.fix(FixKind::EscapedQuote, self.i - 1);
            } else if c < 0x20 {
                self.string_control(c, &mut st)?;
            } else {
                self.string_run(c, &mut st);
            }
            if skip_escapes && self.peek() == Some(b'\\') {
                self.i += 1;
            }
        }
    }

    /// The input ended inside a string.
    fn string_cut_off(&mut self, st: &Str) -> Attempt {
        let i = self.i;
        if self.plain {
            self.out.push(b'"');
            self.fix(FixKind::ClosedString, i);
            return Attempt::Done { concat: false };
        }
        if let Some(retry) = cut_string_retry(
            self.b,
            self.ctx,
            st.content_start,
            st.stop_delim,
            st.stop_at.is_some(),
        ) {
            return retry;
        }
        // Cut off by the end of input: everything that arrived is kept, spaces included (but a
        // key loses trailing spaces: `{"s ` is the key `s`).
        if self.ctx == Ctx::Key {
            self.close_string(i);
        } else {
            if ends_with_newline_escape(&self.out, st.o_content) {
                // A `\n` escape right at the cut: the line it starts never arrived.
                self.out.truncate(self.out.len() - 2);
                self.fix(FixKind::TrimmedString, i);
            }
            self.out.push(b'"');
            self.fix(FixKind::ClosedString, i);
        }
        Attempt::Done { concat: false }
    }

    /// A quote of the string's own kind in a string opened with a doubled quote: with its pair
    /// (`""`) or alone, it ends the string when the end of a value follows (`Some`); otherwise it
    /// is one quote of the text, as in CSV (`None`).
    fn doubled_string_quote(&mut self, st: &mut Str) -> Option<Attempt> {
        let b = self.b;
        let i_quote = self.i;
        let n = if b.get(i_quote + 1) == Some(&b[i_quote]) {
            2
        } else {
            1
        };
        let (o_quote, f_quote) = (self.out.len(), self.fixes.len());
        self.out.push(b'"');
        self.i = i_quote + n;
        self.ws_comments(false);
        if st.stop_delim || quote_ends_string(b, self.i, self.ctx) {
            if n == 2 || st.q != Quote::Double {
                self.fixes.insert(
                    f_quote,
                    Fix {
                        kind: FixKind::NormalizedQuote,
                        at: i_quote,
                    },
                );
            }
            self.trim_ws_tail(st, o_quote, i_quote);
            return Some(Attempt::Done { concat: true });
        }
        self.out.truncate(o_quote);
        self.fixes.truncate(f_quote);
        self.i = i_quote + n;
        self.escape_inner_quote(st, i_quote, n);
        None
    }

    /// A quote that may end the string (`n2` bytes of kind `q2` at `self.i`): its end, a retry
    /// with stricter rules, or a quote inside the text, judged by what follows it.
    fn string_quote(&mut self, st: &mut Str, q2: Quote, n2: usize) -> QuoteEnd {
        let b = self.b;
        let content_start = st.content_start;
        let i_quote = self.i;
        let o_quote = self.out.len();
        let f_quote = self.fixes.len();
        self.out.push(b'"');
        if q2 != Quote::Double {
            self.fix(FixKind::NormalizedQuote, i_quote);
        }
        self.i += n2;
        self.ws_comments(false);
        let next = self.peek();
        let ctx = self.ctx;
        if self.plain {
            return QuoteEnd::End(Attempt::Done { concat: false });
        }
        let inner =
            !st.stop_delim && self.quote_is_inner(ctx, content_start, i_quote + n2, &mut st.bal);
        if !inner {
            if st.stop_delim || quote_ends_string(b, self.i, ctx) {
                self.trim_ws_tail(st, o_quote, i_quote);
                return QuoteEnd::End(Attempt::Done { concat: true });
            }
            if let Some(retry) = self.retry_before_quote(st, i_quote) {
                return QuoteEnd::End(retry);
            }
            if ctx == Ctx::ObjValue
                && st.escaped_quotes.is_multiple_of(2)
                && self.word_then_close(i_quote + n2)
            {
                // `{"b": "xxxxx" true}`: a stray word after the value.
                return QuoteEnd::End(Attempt::Done { concat: false });
            }
            if ctx == Ctx::Element && st.escaped_quotes == 0 && self.word_then_end(i_quote + n2) {
                return QuoteEnd::End(Attempt::Done { concat: false });
            }
            if i_quote == content_start
                && ((ctx == Ctx::ObjValue && next.is_some_and(is_ident) && self.i == i_quote + n2)
                    || (ctx == Ctx::Key && self.key_at(i_quote)))
            {
                // `"" value"`: a doubled opening quote (see `doubled_open` for `""value`).
                self.out.truncate(o_quote);
                self.fixes.truncate(f_quote);
                self.fix(FixKind::NormalizedQuote, i_quote);
                self.i = i_quote + n2;
                return QuoteEnd::DoubledOpening;
            }
        }
        // Not the end: an unescaped quote inside the string.
        self.out.truncate(o_quote);
        self.fixes.truncate(f_quote);
        self.i = i_quote + n2;
        self.escape_inner_quote(st, i_quote, n2);
        QuoteEnd::Inner
    }

    /// A quote at `i_quote` that does not end the string by what follows it may still tell that
    /// the string ended earlier, before a delimiter inside it: the retry that reads it so.
    fn retry_before_quote(&self, st: &mut Str, i_quote: usize) -> Option<Attempt> {
        let b = self.b;
        let ctx = self.ctx;
        if ctx == Ctx::ObjValue && st.bal.inside_json(b, st.content_start, i_quote + 1) {
            // Inside an unescaped JSON object written into the string (see `quote_is_inner`),
            // its own commas do not end the string.
            return None;
        }
        let p = prev_non_ws(b, i_quote).filter(|&p| p >= st.content_start)?;
        if b[p] == b',' && (ctx != Ctx::ObjValue || self.key_at(i_quote)) {
            if ctx == Ctx::Element && self.quoted_then_lone_quote(i_quote) {
                // `["a "b" c, "d" ", "e"]`: the word after the comma is followed by a lone
                // quote before the next comma, which is this element's real end.
                return None;
            }
            return Some(Attempt::RetryAt(p));
        }
        if ctx == Ctx::ObjValue
            && b[p] == b':'
            && let Some(c) = self.unquoted_key_before(p, st.content_start)
        {
            // `{"a": "first, b: "second"}`: the string ended before `, b:`.
            return Some(Attempt::RetryAt(c));
        }
        (is_delimiter(b[p])
            && !(ctx == Ctx::ObjValue
                && matches!(b[p], b'{' | b'[' | b'(' | b':' | b',' | b'}' | b']' | b')')))
        .then_some(Attempt::RetryDelimiter)
    }

    /// The end quote was just written at output offset `o_quote`: raw trailing whitespace with a
    /// newline before it is dropped.
    /// The control characters it held were dropped, not escaped: their fixes go.
    fn trim_ws_tail(&mut self, st: &Str, o_quote: usize, i_quote: usize) {
        if let Some((t, f)) = st.ws_tail {
            self.out.drain(t..o_quote);
            drop_escaped_controls(&mut self.fixes, f);
            self.fix(FixKind::TrimmedString, i_quote);
        }
    }

    /// Writes the quote at `i_quote` (`n` bytes of input: one quote, or a doubled pair standing
    /// for one) as a quote of the text: `"` as `\"`; any other quote (the apostrophe in
    /// `'it's'`, the `’` in `‘it’s’`) as it is, since only `"` needs escaping in JSON.
    fn escape_inner_quote(&mut self, st: &mut Str, i_quote: usize, n: usize) {
        let b = self.b;
        let qlen = quote_at(b, i_quote).map_or(1, |(_, l)| l);
        if b[i_quote] == b'"' {
            self.out.extend_from_slice(b"\\\"");
            self.fix(FixKind::EscapedQuote, i_quote);
        } else {
            self.out.extend_from_slice(&b[i_quote..i_quote + qlen]);
            if n > qlen {
                // `''` standing for one `'` (CSV quoting).
                self.fix(FixKind::NormalizedQuote, i_quote);
            }
        }
        st.escaped_quotes += 1;
        st.ws_tail = None;
    }

    /// A string missing its end quote stops at a delimiter; a URL's `scheme://` before it is
    /// kept whole (`"https://` is not the string `https:`).
    fn keep_url_scheme(&mut self, content_start: usize) {
        let b = self.b;
        if self.i > content_start && b[self.i - 1] == b':' {
            let end = (self.i + 2).min(b.len());
            if is_url_start(&b[content_start..end]) && b[content_start..end].ends_with(b"//") {
                while self.i < b.len() && is_url_char(b[self.i]) {
                    self.out.push(b[self.i]);
                    self.i += 1;
                }
            }
        }
    }

    /// A backslash inside a string: a valid escape is kept; an invalid one is made valid (or the
    /// input is refused when no valid reading exists: a `\u` without four hex digits).
    fn string_escape(&mut self) -> R<()> {
        let b = self.b;
        let len = b.len();
        let at = self.i;
        match self.at(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.out.extend_from_slice(&b[at..at + 2]);
                self.i += 2;
            }
            Some(b'u') => {
                let mut j = 2;
                while j < 6 && self.at(at + j).is_some_and(|h| h.is_ascii_hexdigit()) {
                    j += 1;
                }
                if j == 6 {
                    self.unicode_escape();
                } else if at + j >= len {
                    self.fix(FixKind::DroppedEscape, at);
                    self.i = len;
                } else if (b'g'..=b'z').contains(&b[at + 2]) {
                    // `src\utils`, `C:\users`: a path or word after a backslash, not a broken
                    // escape: the backslash is kept (C5).
                    self.out.extend_from_slice(b"\\\\");
                    self.i += 1;
                    self.fix(FixKind::FixedEscape, at);
                } else {
                    return Err(self.invalid(
                        at,
                        "invalid \\u escape: write exactly four hex digits, like \\u00e9",
                    ));
                }
            }
            Some(b'\'') => {
                self.out.push(b'\'');
                self.i += 2;
                self.fix(FixKind::FixedEscape, at);
            }
            Some(c2) if c2 < 0x20 => {
                // `\` then a raw newline: a `\n` escape whose letter became the character
                // itself (as jsonrepair reads it).
                self.push_control(c2);
                self.i += 2;
                self.fix(FixKind::FixedEscape, at);
            }
            Some(c2) if c2 >= 0x80 && typographic_quote_at(b, at + 1) => {
                // `\„`: an escaped typographic quote needs no escape (as json_repair reads it).
                self.i += 1;
                self.fix(FixKind::FixedEscape, at);
            }
            _ => {
                // `\d`, `C:\Users`, `C:\Émile`, or a backslash cut off by the end: keep it
                // literally (C5; at the end as json_repair keeps it, so previews stay stable).
                self.out.extend_from_slice(b"\\\\");
                self.i += 1;
                self.fix(FixKind::FixedEscape, at);
            }
        }
        Ok(())
    }

    /// A `\uXXXX` escape with its four hex digits at `self.i`: kept, with its low half when it
    /// is a surrogate pair's high half; a surrogate without its other half becomes U+FFFD.
    fn unicode_escape(&mut self) {
        let b = self.b;
        let i = self.i;
        let unit = hex4(&b[i + 2..i + 6]);
        let next_low = (self.at(i + 6) == Some(b'\\') && self.at(i + 7) == Some(b'u'))
            .then(|| {
                b.get(i + 8..i + 12)
                    .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                    .map(hex4)
            })
            .flatten()
            .is_some_and(|u| (0xDC00..0xE000).contains(&u));
        if (0xD800..0xDC00).contains(&unit) && next_low {
            // A whole surrogate pair.
            self.out.extend_from_slice(&b[i..i + 12]);
            self.i += 12;
        } else if (0xD800..0xE000).contains(&unit) {
            // An unpaired surrogate is no character: U+FFFD.
            self.out.extend_from_slice(b"\\ufffd");
            self.fix(FixKind::FixedEscape, i);
            self.i += 6;
        } else {
            self.out.extend_from_slice(&b[i..i + 6]);
            self.i += 6;
        }
    }

    /// A raw control character inside a string: escaped (a newline or carriage return may start
    /// the raw whitespace tail dropped before the end quote); other than the short escapes, an
    /// error.
    fn string_control(&mut self, c: u8, st: &mut Str) -> R<()> {
        if short_escape(c).is_none() {
            return Err(self.invalid(
                self.i,
                "invalid control character inside a string: remove it or escape it as \\u00XX",
            ));
        }
        self.fix(FixKind::EscapedControlChar, self.i);
        if c == b'\n' || c == b'\r' {
            st.ws_tail
                .get_or_insert((self.out.len(), self.fixes.len() - 1));
        } else if c != b'\t' {
            st.ws_tail = None;
        }
        self.push_control(c);
        self.i += 1;
        Ok(())
    }

    /// A run of plain text inside a string (up to a quote, a backslash, a control character, a
    /// stop), copied in one piece; a lone byte `c` that starts none (a quote of another family)
    /// is copied as its whole character.
    fn string_run(&mut self, c: u8, st: &mut Str) {
        let b = self.b;
        let len = b.len();
        let mut end = self.i;
        let limit = st.stop_at.unwrap_or(len).max(self.i);
        while end < limit {
            let d = b[end];
            if d == b'"' || d == b'\\' || d < 0x20 || (st.stop_delim && self.stops_string(end)) {
                break;
            }
            if st.q != Quote::Double && matches!(d, b'\'' | b'`' | 0xC2 | 0xE2) {
                break;
            }
            end += 1;
        }
        self.steps += (end - self.i) as u64 / 8;
        if end == self.i || b[self.i..end].iter().any(|&c| c != b' ' && c != b'\t') {
            st.ws_tail = None;
        }
        if end == self.i {
            let n = utf8_len(c).min(len - self.i);
            self.out.extend_from_slice(&b[self.i..self.i + n]);
            self.i += n;
        } else {
            self.out.extend_from_slice(&b[self.i..end]);
            self.i = end;
        }
    }

    /// In stop-at-delimiter mode: the bytes that end a string missing its end quote.
    fn stops_string(&self, k: usize) -> bool {
        let c = self.b[k];
        is_unquoted_delimiter(c)
            || (self.ctx == Ctx::Key && c == b':')
            || (c == b'/' && matches!(self.at(k + 1), Some(b'*' | b'/')))
    }

    /// Whether the quote just consumed (ending at `after_quote`) is inside the string rather than
    /// its end, judging by what follows it (see [`quote_is_inner`]).
    fn quote_is_inner(
        &self,
        ctx: Ctx,
        content_start: usize,
        after_quote: usize,
        bal: &mut Balance,
    ) -> bool {
        quote_is_inner(self.b, self.i, ctx, content_start, after_quote, bal)
    }

    /// After a quote in an object value: ` word }` (a stray word, then the end of the object).
    fn word_then_close(&self, j: usize) -> bool {
        let b = self.b;
        let mut k = j;
        k = ws_end(b, k);
        let w = k;
        k = word_end(b, k);
        if k == w {
            return false;
        }
        let glued = w == j;
        k = ws_end(b, k);
        // ` word }` or ` word` at the end; glued (`"tail}`) only right before the closer.
        match b.get(k) {
            None => !glued,
            Some(b'}') => true,
            _ => false,
        }
    }

    /// `, ident:` ending at the colon `p`: the offset of that comma.
    fn unquoted_key_before(&self, p: usize, content_start: usize) -> Option<usize> {
        let b = self.b;
        let mut k = p;
        while k > content_start && is_ws(b[k - 1]) {
            k -= 1;
        }
        let end = k;
        while k > content_start && is_ident(b[k - 1]) {
            k -= 1;
        }
        if k == end {
            return None;
        }
        while k > content_start && is_ws(b[k - 1]) {
            k -= 1;
        }
        (k > content_start && b[k - 1] == b',').then(|| k - 1)
    }

    /// For a quoted string starting at `j` whose closing quote lies within 256 bytes: the offset
    /// just after that quote and the offset after the whitespace that follows it.
    fn quoted_then_ws(&self, j: usize) -> Option<(usize, usize)> {
        let b = self.b;
        let (q, n) = quote_at(b, j)?;
        let limit = (j + 256).min(b.len());
        let mut k = j + n;
        while k < limit {
            if let Some((q2, n2)) = quote_at(b, k)
                && q.is_end(q2)
            {
                let after = k + n2;
                let mut w = after;
                w = ws_end(b, w);
                return Some((after, w));
            }
            k += 1;
        }
        None
    }

    /// `"word" "` followed by `,` or `]` starts at `j`: a quoted word, whitespace, then a lone
    /// quote that ends an array element.
    fn quoted_then_lone_quote(&self, j: usize) -> bool {
        let b = self.b;
        let Some((after, k)) = self.quoted_then_ws(j) else {
            return false;
        };
        let Some((_, n)) = quote_at(b, k).filter(|_| k > after) else {
            return false;
        };
        matches!(b.get(ws_end(b, k + n)), Some(b',' | b']'))
    }

    /// `"key" "value"` (a quoted key, whitespace, then a quoted value) starts at `j`.
    fn key_then_value_at(&self, j: usize) -> bool {
        self.quoted_then_ws(j)
            .is_some_and(|(after, k)| k > after && quote_at(self.b, k).is_some())
    }

    /// `"key":` (a quoted key followed by a colon) starts at `j`.
    fn key_at(&self, j: usize) -> bool {
        self.quoted_then_ws(j)
            .is_some_and(|(_, k)| self.b.get(k) == Some(&b':'))
    }

    /// After a quote in an array: ` word"` or ` word` then `,` / `]` (an element missing its
    /// opening quote follows, so the quote ended the previous element).
    fn word_then_end(&self, j: usize) -> bool {
        let b = self.b;
        let mut k = j;
        if !b.get(k).is_some_and(|&c| is_ws(c)) {
            return false;
        }
        k = ws_end(b, k);
        let w = k;
        k = word_end(b, k);
        if k == w {
            return false;
        }
        if let Some((_, n)) = quote_at(b, k) {
            k += n;
        }
        k = ws_end(b, k);
        matches!(b.get(k), None | Some(b',' | b']'))
    }

    fn push_control(&mut self, c: u8) {
        match short_escape(c) {
            Some(e) => self.out.extend_from_slice(e.as_bytes()),
            None => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                self.out.extend_from_slice(b"\\u00");
                self.out.push(HEX[(c >> 4) as usize]);
                self.out.push(HEX[(c & 15) as usize]);
            }
        }
    }

    /// `"a" + "b"` → `"ab"`.
    fn concat(&mut self) -> R<()> {
        let save = (self.i, self.out.len());
        self.ws_comments(true);
        if self.peek() != Some(b'+') {
            // Only whitespace and comments: keep them (already written).
            let _ = save;
            return Ok(());
        }
        while self.peek() == Some(b'+') {
            let at = self.i;
            self.i += 1;
            self.ws_comments(true);
            // Remove the end quote of the string so far (and whitespace after it).
            let k = ws_start(&self.out, self.out.len());
            if k > 0 && self.out[k - 1] == b'"' {
                self.out.truncate(k - 1);
            }
            let start = self.out.len();
            let (i0, f0) = (self.i, self.fixes.len());
            let mut parsed = false;
            let mut stop_delim = false;
            let mut stop_at = None;
            for _ in 0..4 {
                self.i = i0;
                self.out.truncate(start);
                self.fixes.truncate(f0);
                match self.string_attempt(stop_delim, stop_at)? {
                    Attempt::NotString => break,
                    Attempt::Done { .. } => {
                        parsed = true;
                        break;
                    }
                    Attempt::RetryDelimiter => stop_delim = true,
                    Attempt::RetryAt(p) => stop_at = Some(p),
                }
            }
            self.fix(FixKind::ConcatenatedStrings, at);
            if parsed {
                self.out.remove(start);
                self.ws_comments(true);
            } else {
                self.i = i0;
                self.insert_before_ws(b"\"");
            }
        }
        Ok(())
    }

    /// A number, with `.5`, `+1`, `1_000`, `2.`, `1e` and leading zeros repaired.
    fn number(&mut self) -> bool {
        let start = self.i;
        match scan_number(self.b, start) {
            Some(n) => {
                if !n.truncated
                    && matches!(self.ctx, Ctx::ObjValue | Ctx::Element)
                    && let Some(end) = unit_end(self.b, n.end)
                {
                    // `100 meters`, `-9.81 m/s^2`: the number and its unit are one value.
                    self.fix(FixKind::QuotedString, start);
                    let b = self.b;
                    self.push_json_string(&b[start..end]);
                    self.steps += (end - start) as u64 / 8;
                    self.i = end;
                    return true;
                }
                self.emit_number(start, n.end, n.truncated, n.lead_dot);
                true
            }
            None => false,
        }
    }

    /// Constant arithmetic as an object value or array element (`2 * Math.PI`), replaced by its
    /// result; see [`super::expr`].
    fn expression(&mut self) -> bool {
        if !matches!(self.ctx, Ctx::ObjValue | Ctx::Element) {
            return false;
        }
        self.steps += 1;
        let Some((value, n)) = super::expr::at(&self.b[self.i..]) else {
            return false;
        };
        self.fix(FixKind::EvaluatedExpression, self.i);
        let text = match value {
            super::expr::Value::Int(i) => i.to_string(),
            super::expr::Value::Float(f) => {
                serde_json::Number::from_f64(f).map_or_else(|| "null".to_owned(), |n| n.to_string())
            }
        };
        self.out.extend_from_slice(text.as_bytes());
        self.steps += n as u64 / 8;
        self.i += n;
        true
    }

    fn emit_number(&mut self, start: usize, end: usize, truncated: bool, lead_dot: bool) {
        let raw = &self.b[start..end];
        self.i = end;
        self.steps += (end - start) as u64 / 8;
        if let Some(kind) = number_fix(raw, truncated, lead_dot) {
            self.fix(kind, start);
        }
        write_number(&mut self.out, raw, truncated, lead_dot);
    }

    /// `true false null`, their Python/upper-case forms, `undefined`, `NaN`, `Infinity`, and
    /// literals cut off by the end of input.
    fn keyword(&mut self) -> bool {
        let start = self.i;
        let Some((end, text, fix)) = scan_keyword(self.b, start) else {
            return false;
        };
        if let Some(kind) = fix {
            self.fix(kind, start);
        }
        self.out.extend_from_slice(text);
        self.i = end;
        true
    }

    /// An unquoted word or phrase, a JSONP / MongoDB call, or nothing.
    fn unquoted(&mut self, is_key: bool) -> R<Unquoted> {
        let b = self.b;
        let len = b.len();
        let start = self.i;
        let mut i = start;
        if self.peek() == Some(b'/') {
            return Ok(Unquoted::No);
        }
        if !is_key && self.peek().is_some_and(is_ident_start) {
            while i < len && is_ident(b[i]) {
                i += 1;
            }
            let mut j = i;
            while j < len && is_ws(b[j]) {
                j += 1;
            }
            let name = &b[start..i];
            let call = b.get(j) == Some(&b'(')
                || (name == b"new" && b.get(j).is_some_and(|&c| is_ident_start(c)));
            if call && self.ctx != Ctx::Root && !is_wrapper(name) {
                // `abs(-5)`, `len("abc")`, `new Date(2024, 1, 1)`: an expression the model wrote
                // instead of its value; the text is kept whole, as a string.
                if let Some(end) = call_end(b, j) {
                    self.fix(FixKind::QuotedString, start);
                    self.push_json_string(&b[start..end]);
                    self.i = end;
                    return Ok(Unquoted::Yes);
                }
            }
            if b.get(j) == Some(&b'(') {
                if self.stack.len() >= MAX_DEPTH {
                    return Err(RepairError::LimitExceeded {
                        at: j,
                        message: format!(
                            "nesting deeper than {MAX_DEPTH} levels: flatten the arguments"
                        ),
                    });
                }
                self.fix(FixKind::UnwrappedCall, start);
                self.i = j + 1;
                self.stack.push(Frame {
                    kind: Kind::Call,
                    fenced: false,
                    elem_out: 0,
                    state: State::Open,
                    open_out: self.out.len(),
                    count: 0,
                });
                return Ok(Unquoted::Call);
            }
        }
        let groups = !is_key && self.ctx == Ctx::ObjValue;
        loop {
            while i < len
                && !is_unquoted_delimiter(b[i])
                && quote_at(b, i).is_none()
                && !(is_key && b[i] == b':')
                // A comment starts only where a word does (`**/*.rs` is one word).
                && !(b[i] == b'/'
                    && matches!(b.get(i + 1), Some(b'/' | b'*'))
                    && (i == start || is_ws(b[i - 1])))
                && !(self
                    .stack
                    .last()
                    .is_some_and(|f| matches!(f.kind, Kind::Tuple | Kind::Call))
                    && b[i] == b')')
            {
                i += 1;
            }
            // `{text: words{in brackets}}`: a bracket group glued to a word belongs to the value.
            if groups && i > start && i < len && matches!(b[i], b'{' | b'[') && !is_ws(b[i - 1]) {
                let (open, close) = if b[i] == b'{' {
                    (b'{', b'}')
                } else {
                    (b'[', b']')
                };
                let mut depth = 0usize;
                let mut m = i;
                let limit = (i + 256).min(len);
                while m < limit {
                    if b[m] == open {
                        depth += 1;
                    } else if b[m] == close {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    } else if b[m] == b'\n' || b[m] == b'"' {
                        break;
                    }
                    m += 1;
                }
                if m < limit && b[m] == close && depth == 0 {
                    i = m + 1;
                    continue;
                }
            }
            break;
        }
        self.steps += (i - start) as u64 / 8;
        if i > start && b[i - 1] == b':' && is_url_start(&b[start..(i + 2).min(len)]) {
            while i < len && is_url_char(b[i]) {
                i += 1;
            }
        }
        if groups && i < len && b[i] == b',' && i > start {
            // `{"a": ipsum, sic, datum.",}`: a value missing its opening quote runs to the stray
            // closing quote, when nothing key-like comes first.
            let limit = (i + 256).min(len);
            if let Some(off) = memchr::memchr(b'"', &b[i..limit]) {
                let q = i + off;
                let between = &b[i..q];
                let mut k = q + 1;
                while k < len && is_ws(b[k]) {
                    k += 1;
                }
                if !between
                    .iter()
                    .any(|c| matches!(c, b':' | b'{' | b'[' | b'}' | b']' | b'\n'))
                    && matches!(b.get(k), None | Some(b',' | b'}'))
                {
                    i = q;
                }
            }
        }
        let mut end = i;
        while end > start && (is_ws(b[end - 1])) {
            end -= 1;
        }
        if end == start {
            return Ok(Unquoted::No);
        }
        let sym = &b[start..end];
        if !is_key && self.stack.is_empty() && sym.iter().any(|&c| is_ws(c)) {
            self.i = start;
            return Err(self.no_json());
        }
        self.i = end;
        if !is_key
            && self.peek() == Some(b'"')
            && serde_json::from_slice::<serde_json::Number>(sym).is_ok()
        {
            // `12345"`: a number with a stray closing quote.
            self.fix(FixKind::OpenedString, end);
            self.out.extend_from_slice(sym);
            self.i += 1;
            return Ok(Unquoted::Yes);
        }
        self.fix(
            if is_key {
                FixKind::QuotedKey
            } else {
                FixKind::QuotedString
            },
            start,
        );
        self.push_json_string(sym);
        if self.peek() == Some(b'"') {
            // A missing start quote: the end quote is already here.
            self.fix(FixKind::OpenedString, start);
            self.i += 1;
        }
        Ok(Unquoted::Yes)
    }

    fn push_json_string(&mut self, s: &[u8]) {
        self.out.push(b'"');
        for &c in s {
            match c {
                b'"' => self.out.extend_from_slice(b"\\\""),
                b'\\' => self.out.extend_from_slice(b"\\\\"),
                c if c < 0x20 => self.push_control(c),
                c => self.out.push(c),
            }
        }
        self.out.push(b'"');
    }

    /// A JavaScript regular expression literal `/…/` becomes a string.
    fn regex(&mut self) -> bool {
        if self.peek() != Some(b'/') || self.is_comment_start(self.i) {
            return false;
        }
        let b = self.b;
        let start = self.i;
        let mut i = start + 1;
        while i < b.len() && (b[i] != b'/' || b[i - 1] == b'\\') {
            i += 1;
        }
        i = (i + 1).min(b.len());
        // Its flags (`/^a.*b$/gi`) belong to it.
        while b
            .get(i)
            .is_some_and(|c| matches!(c, b'd' | b'g' | b'i' | b'm' | b's' | b'u' | b'v' | b'y'))
        {
            i += 1;
        }
        self.steps += (i - start) as u64 / 8;
        self.fix(FixKind::ConvertedRegex, start);
        self.push_json_string(&b[start..i]);
        self.i = i;
        true
    }
}

/// Bracket balance of a string's content up to `upto`: `(`, `[`, `{` minus their closers.
pub(super) struct Balance {
    pub(super) upto: usize,
    pub(super) counts: [i64; 3],
    /// Where JSON written into the string closes ([`json_close`]), once looked for.
    pub(super) json_close: Option<Option<usize>>,
}

/// The string content from `content_start` opens a JSON container with a quoted member
/// (`{"city": …`, `['a', …`): JSON written into a string without escapes.
pub(super) fn json_in_string(b: &[u8], content_start: usize) -> bool {
    matches!(b.get(content_start), Some(b'{' | b'['))
        && matches!(b.get(ws_end(b, content_start + 1)), Some(b'"' | b'\''))
}

/// How far [`json_close`] looks for the end of JSON written into a string.
const JSON_IN_STRING_MAX: usize = 1024;

/// Where JSON written into a string from `content_start` ([`json_in_string`]) closes: the
/// offset of the bracket that balances its first one, within [`JSON_IN_STRING_MAX`] bytes, when
/// the string's own quote follows it (`…, "days": 3}"`); `None` otherwise (then its quotes are
/// judged like any other: a bracket balanced only by the closers around the string proves
/// nothing).
fn json_close(b: &[u8], content_start: usize) -> Option<usize> {
    let end = (content_start + JSON_IN_STRING_MAX).min(b.len());
    let mut depth = 0i64;
    for (k, &c) in b[content_start..end].iter().enumerate() {
        match c {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    let k = content_start + k;
                    let quote = content_start.checked_sub(1).map(|q| b[q]);
                    return (b.get(ws_end(b, k + 1)).copied() == quote).then_some(k);
                }
            }
            _ => {}
        }
    }
    None
}

impl Balance {
    /// Whether the quote that ends before `after_quote` lies inside JSON written into the string
    /// that starts at `content_start`: the JSON opens there ([`json_in_string`]) and closes
    /// after the quote ([`json_close`], looked for once per string).
    fn inside_json(&mut self, b: &[u8], content_start: usize, after_quote: usize) -> bool {
        if !json_in_string(b, content_start) {
            return false;
        }
        let close = *self
            .json_close
            .get_or_insert_with(|| json_close(b, content_start));
        close.is_some_and(|e| after_quote <= e)
    }

    /// Counts the brackets from where the count stopped up to `to`.
    fn count_to(&mut self, b: &[u8], to: usize) {
        if self.upto < to {
            for &c in &b[self.upto..to] {
                match c {
                    b'(' => self.counts[0] += 1,
                    b')' => self.counts[0] -= 1,
                    b'[' => self.counts[1] += 1,
                    b']' => self.counts[1] -= 1,
                    b'{' => self.counts[2] += 1,
                    b'}' => self.counts[2] -= 1,
                    _ => {}
                }
            }
            self.upto = to;
        }
    }
}

/// The elements of the array written to `out[open..=close]` (valid JSON this parser wrote):
/// each element's output span and, for an array, its length. `None` when those bytes are not one
/// well-formed array (offsets that an edit of the output has made stale).
fn array_elements(
    out: &[u8],
    open: usize,
    close: usize,
) -> Option<Vec<(usize, usize, Option<usize>)>> {
    if out.get(open) != Some(&b'[') || out.get(close) != Some(&b']') {
        return None;
    }
    let mut elems = Vec::new();
    let mut i = ws_end(out, open + 1);
    if i == close {
        return Some(elems);
    }
    loop {
        let (end, len) = written_value_end(out, i, close)?;
        elems.push((i, end, len));
        let k = ws_end(out, end);
        if k == close {
            return Some(elems);
        }
        if k > close || out[k] != b',' {
            return None;
        }
        i = ws_end(out, k + 1);
        if i >= close {
            return None;
        }
    }
}

/// Where the JSON value written at `out[i]` ends (before `limit`) and, for an array, how many
/// elements it has; `None` when it does not end before `limit`.
fn written_value_end(out: &[u8], mut i: usize, limit: usize) -> Option<(usize, Option<usize>)> {
    let string_end = |mut i: usize| {
        i += 1;
        while i < limit {
            match out[i] {
                b'\\' => i += 2,
                b'"' => return Some(i + 1),
                _ => i += 1,
            }
        }
        None
    };
    match *out.get(i)? {
        b'"' => string_end(i).map(|e| (e, None)),
        c @ (b'[' | b'{') => {
            let (mut depth, mut items) = (0usize, 0usize);
            while i < limit {
                let c2 = out[i];
                if depth == 1 && items == 0 && !is_ws(c2) && !matches!(c2, b']' | b'}') {
                    items = 1;
                }
                match c2 {
                    b'"' => {
                        i = string_end(i)?;
                        continue;
                    }
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some((i + 1, (c == b'[').then_some(items)));
                        }
                    }
                    b',' if depth == 1 => items += 1,
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let start = i;
            while i < limit && !is_ws(out[i]) && !matches!(out[i], b',' | b']' | b'}') {
                i += 1;
            }
            (i > start).then_some((i, None))
        }
    }
}

/// Start of the quote character that ends just before `end` (quotes are 1 to 3 bytes).
fn prev_quote_start(b: &[u8], end: usize) -> usize {
    (1..=3)
        .map(|n| end.saturating_sub(n))
        .find(|&k| quote_at(b, k).is_some_and(|(_, n)| k + n == end))
        .unwrap_or(end.saturating_sub(1))
}

enum Unquoted {
    No,
    Yes,
    Call,
}

#[derive(Clone, Copy)]
pub(super) enum Lit {
    Json,
    True,
    False,
    Null,
    NonFinite,
}

pub(super) fn literal(word: &[u8]) -> Option<Lit> {
    Some(match word {
        b"true" | b"false" | b"null" => Lit::Json,
        b"True" | b"TRUE" => Lit::True,
        b"False" | b"FALSE" => Lit::False,
        b"None" | b"Null" | b"NULL" | b"undefined" => Lit::Null,
        b"NaN" | b"Infinity" => Lit::NonFinite,
        _ => return None,
    })
}

/// The value of four ASCII hex digits (0 for anything else; callers check the digits first).
pub(super) fn hex4(h: &[u8]) -> u32 {
    h.iter().take(4).fold(0, |acc, &c| {
        acc * 16 + char::from(c).to_digit(16).unwrap_or(0)
    })
}

/// Index of the last non-whitespace byte before `i`.
pub(super) fn prev_non_ws(b: &[u8], i: usize) -> Option<usize> {
    let mut k = i;
    while k > 0 {
        k -= 1;
        if !is_ws(b[k]) {
            return Some(k);
        }
    }
    None
}

/// Whether the quote just consumed (ending at `after_quote`; `i` is past the spaces after it) is
/// inside the string rather than its end, judging by what follows it.
pub(super) fn quote_is_inner(
    b: &[u8],
    i: usize,
    ctx: Ctx,
    content_start: usize,
    after_quote: usize,
    bal: &mut Balance,
) -> bool {
    let mut j = i;
    j = ws_end(b, j);
    let Some(&next) = b.get(j) else { return false };
    // A closer that matches an opener inside the string belongs to the string: `"(5'3")"`.
    if let Some(k) = match next {
        b')' => Some(0),
        b']' => Some(1),
        b'}' => Some(2),
        _ => None,
    } {
        bal.count_to(
            b,
            prev_quote_start(b, after_quote.min(b.len())).max(content_start),
        );
        if bal.counts[k] > 0 {
            return true;
        }
    }
    if ctx == Ctx::Key {
        return false;
    }
    // A second quote right after, itself followed by the end of a value: `"72""`. Across a
    // line break only inside text holding a code fence (json_repair's rule).
    if let Some((_, n)) = quote_at(b, j) {
        let mut k = j + n;
        k = ws_end(b, k);
        let same_line = !b[i..j].contains(&b'\n');
        if matches!(b.get(k), None | Some(b',' | b'}' | b']'))
            && (same_line || memchr::memmem::find(&b[content_start..after_quote], b"```").is_some())
        {
            return true;
        }
    }
    if ctx == Ctx::ObjValue && next == b',' {
        if bal.inside_json(b, content_start, after_quote) {
            // `"{"city": "Paris", "days": 3}"`: a JSON object written into a string without
            // escapes; its own quotes are inside it until its brackets balance.
            return true;
        }
        // In an object value, a quote then a comma ends the string only when a key (or the
        // end) follows: `"a, "b", c"` keeps going.
        let mut k = j + 1;
        k = ws_end(b, k);
        return match b.get(k) {
            None | Some(b'}') => false,
            Some(_) if quote_at(b, k).is_some() => !quoted_then_colon_or_cut(b, k),
            Some(&c) if is_ident_start(c) => {
                let mut m = k;
                while m < b.len() && is_ident(b[m]) {
                    m += 1;
                }
                if let Some((_, n)) = quote_at(b, m) {
                    // `,b":` is a key missing its opening quote.
                    m += n;
                }
                m = ws_end(b, m);
                if quote_at(b, m).is_some() && quoted_then_colon_or_cut(b, m) {
                    // `, COMMENT "key":` — a stray word, then a key.
                    return false;
                }
                !matches!(b.get(m), None | Some(b':'))
            }
            _ => false,
        };
    }
    ctx == Ctx::ObjValue && next == b':' && j == i
}

/// A quoted string at `k` that is followed by a colon, or cut off before its end quote.
pub(super) fn quoted_then_colon_or_cut(b: &[u8], k: usize) -> bool {
    let Some((q, n)) = quote_at(b, k) else {
        return false;
    };
    let limit = (k + 256).min(b.len());
    let mut m = k + n;
    while m < limit {
        if b[m] == b'\\' {
            m += 2;
            continue;
        }
        if let Some((q2, n2)) = quote_at(b, m)
            && q.is_end(q2)
        {
            m += n2;
            m = ws_end(b, m);
            return matches!(b.get(m), None | Some(b':'));
        }
        m += 1;
    }
    true
}

/// The first `, <quote>ident` followed by `:` (a key with an opening quote) in `b[from..to]`.
pub(super) fn find_quoted_unquoted_key(b: &[u8], from: usize, to: usize) -> Option<usize> {
    let mut c = from;
    while let Some(off) = memchr::memchr(b',', &b[c..to]) {
        let comma = c + off;
        let mut k = comma + 1;
        while k < to && is_ws(b[k]) {
            k += 1;
        }
        if let Some((_, n)) = quote_at(b, k).filter(|&(q, _)| q != Quote::Double) {
            k += n;
            let w = k;
            while k < to && is_ident(b[k]) {
                k += 1;
            }
            if k > w && b[k..to].first() == Some(&b':') {
                return Some(comma);
            }
        }
        c = comma + 1;
    }
    None
}

/// A number starting at `start` as the tolerant pass reads it (`.5`, `+1`, `1_000`, and `2.`, `1e`,
/// `-` cut off by the end of input included), or `None` when no number ends cleanly there.
pub(super) fn scan_number(b: &[u8], start: usize) -> Option<Scanned> {
    let len = b.len();
    let mut i = start;
    let digit = |i: usize| i < len && b[i].is_ascii_digit();
    let at_end = |i: usize| {
        i >= len
            || is_ws(b[i])
            || (is_delimiter(b[i]) && !(b[i] == b'/' && digit(i + 1)))
            || special_ws_len(b, i) > 0
    };
    // Only whitespace or separators follow: the input ends here (`[-,` as jsonrepair reads it).
    let cut_at_end = |i: usize| b[i.min(len)..].iter().all(|&c| is_ws(c) || c == b',');
    let digits = |mut i: usize| {
        while i < len
            && (b[i].is_ascii_digit()
                || (b[i] == b'_' && i > 0 && b[i - 1].is_ascii_digit() && digit(i + 1)))
        {
            i += 1;
        }
        i
    };
    let plus = b.get(i) == Some(&b'+');
    if plus {
        if !(digit(i + 1) || (b.get(i + 1) == Some(&b'.') && digit(i + 2))) {
            return None;
        }
        i += 1;
    } else if b.get(i) == Some(&b'-') {
        i += 1;
        if at_end(i) {
            // A lone `-` is a number cut off only at the end of the input (`[-` → `[-0]`); before
            // more values or a closer it is a word (`{"sep": -}`).
            return cut_at_end(i).then(|| Scanned::cut(i, false));
        }
        if !(digit(i) || (b[i] == b'.' && digit(i + 1))) {
            return None;
        }
    }
    let int_start = i;
    i = digits(i);
    let mut lead_dot = false;
    if b.get(i) == Some(&b'.') {
        lead_dot = i == int_start;
        i += 1;
        if at_end(i) {
            // `1.` is a number whose decimals were left out; a lone `.` only at the end of the
            // input (before more text it is a word, as in `{"path": .}`).
            return (!lead_dot || cut_at_end(i)).then(|| Scanned::cut(i, lead_dot));
        }
        if !digit(i) {
            return None;
        }
        i = digits(i);
    } else if i == int_start {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if at_end(i) {
            return Some(Scanned::cut(i, lead_dot));
        }
        if !digit(i) {
            return None;
        }
        while digit(i) {
            i += 1;
        }
    }
    if !at_end(i) {
        return None;
    }
    Some(Scanned {
        end: i,
        truncated: false,
        lead_dot,
    })
}

/// Where [`scan_number`] found a number to end, and how it must be completed.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scanned {
    /// Byte offset just after the number.
    pub(super) end: usize,
    /// Cut off by the end of input after `-`, `.` or the exponent marker.
    pub(super) truncated: bool,
    /// Written without its integer part: `.5`.
    pub(super) lead_dot: bool,
}

impl Scanned {
    /// A number cut off by the end of input at `end`.
    fn cut(end: usize, lead_dot: bool) -> Self {
        Scanned {
            end,
            truncated: true,
            lead_dot,
        }
    }
}

/// A literal starting at `start` (see `Parser::keyword`): where it ends, its JSON text and the fix
/// that writing it needs, or `None` when no literal is there.
pub(super) fn scan_keyword(b: &[u8], start: usize) -> Option<(usize, &[u8], Option<FixKind>)> {
    let mut i = start;
    let neg = b.get(i) == Some(&b'-');
    if neg {
        i += 1;
    }
    let w0 = i;
    while i < b.len() && is_ident(b[i]) {
        i += 1;
    }
    if i == w0 {
        return None;
    }
    let word = &b[w0..i];
    let lit = if neg {
        (word == b"Infinity").then_some(Lit::NonFinite)
    } else {
        literal(word)
    };
    let lit = match lit {
        Some(l) => l,
        None if i >= b.len() && !neg => {
            let w = [&b"true"[..], b"false", b"null"]
                .into_iter()
                .find(|w| w.starts_with(word))?;
            return Some((i, w, Some(FixKind::CompletedLiteral)));
        }
        None => return None,
    };
    Some(match lit {
        Lit::Json => (i, word, None),
        Lit::True => (i, b"true", Some(FixKind::ConvertedLiteral)),
        Lit::False => (i, b"false", Some(FixKind::ConvertedLiteral)),
        Lit::Null => (i, b"null", Some(FixKind::ConvertedLiteral)),
        Lit::NonFinite => (i, b"null", Some(FixKind::ConvertedNonFinite)),
    })
}

/// Where the `/* */`, `//` or `#` comment starting at `i` ends (`//` and `#` stop before the
/// newline; `#` also before a closer on its line), or `None` when no comment starts there.
pub(super) fn comment_end(b: &[u8], i: usize) -> Option<usize> {
    Some(match (b.get(i), b.get(i + 1)) {
        (Some(b'/'), Some(b'*')) => match memchr::memmem::find(&b[i + 2..], b"*/") {
            Some(k) => i + 2 + k + 2,
            None => b.len(),
        },
        (Some(b'/'), Some(b'/')) => match memchr::memchr(b'\n', &b[i..]) {
            Some(k) => i + k,
            None => b.len(),
        },
        (Some(b'#'), _) => hash_comment_end(b, i),
        _ => return None,
    })
}

/// Where a bracket group of prose opened at `k` ends (after its `]`): a short bracketed word or
/// number on one line (`[read]`, `[2]`, `[WIP]`) with no quote, colon or other bracket inside,
/// which holds no JSON worth taking over a value that follows it.
fn prose_bracket_end(b: &[u8], k: usize) -> Option<usize> {
    let limit = (k + 64).min(b.len());
    let close = k + 1 + memchr::memchr(b']', &b[k + 1..limit])?;
    let inside = &b[k + 1..close];
    (!inside.is_empty()
        && !inside
            .iter()
            .any(|c| matches!(c, b'{' | b'[' | b'"' | b'\'' | b':' | b'\n')))
    .then_some(close + 1)
}

/// A function whose call only wraps its argument's value: MongoDB shell constructors and the
/// like (`ObjectId("…")`, `NumberLong(2)`, `ISODate("…")`, `Decimal("1.5")`). A call of one of
/// these is replaced by its argument; a call of anything else is kept as text (at the root it
/// is a JSONP callback, unwrapped too).
fn is_wrapper(name: &[u8]) -> bool {
    matches!(
        name,
        b"ObjectId"
            | b"ObjectID"
            | b"ISODate"
            | b"NumberLong"
            | b"NumberInt"
            | b"NumberDecimal"
            | b"NumberDouble"
            | b"UUID"
            | b"Decimal"
            | b"Decimal128"
    )
}

/// Where a call whose name ends before `j` ends: after the `)` that balances the first `(` from
/// `j` (a `new X` in between is skipped), within 256 bytes on the same line, quoted text inside
/// skipped; `None` when it does not close there.
fn call_end(b: &[u8], j: usize) -> Option<usize> {
    let limit = (j + 256).min(b.len());
    let mut k = j;
    while k < limit && b[k] != b'(' {
        if !(is_ident(b[k]) || is_ws(b[k])) || b[k] == b'\n' {
            return None;
        }
        k += 1;
    }
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    while k < limit {
        let c = b[k];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) if c == b'\\' => k += 1,
            Some(_) => {}
            None => match c {
                b'"' | b'\'' => quote = Some(c),
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(k + 1);
                    }
                }
                b'\n' => return None,
                _ => {}
            },
        }
        k += 1;
    }
    None
}

/// Removes the `EscapedControlChar` fixes from index `from` on: the whitespace they escaped was
/// trimmed from the end of its string instead (shared with the quick pass).
pub(super) fn drop_escaped_controls(fixes: &mut Vec<Fix>, from: usize) {
    let mut k = from;
    while k < fixes.len() {
        if fixes[k].kind == FixKind::EscapedControlChar {
            fixes.remove(k);
        } else {
            k += 1;
        }
    }
}

/// A typographic quote (`„ “ ” ‘ ’ ‚ « » ‹ ›`) starts at `i`.
fn typographic_quote_at(b: &[u8], i: usize) -> bool {
    match b.get(i..) {
        Some([0xE2, 0x80, c, ..]) => matches!(c, 0x98..=0x9F | 0xB9 | 0xBA),
        Some([0xC2, c, ..]) => matches!(c, 0xAB | 0xBB),
        _ => false,
    }
}

/// Where a `#` comment at `i` ends: at the end of its line, or at a `}` or `]` that closes the
/// container around it (`{"a": 1 # note}`); a bracket the comment opened itself is its text
/// (`# see {x}` runs to the end of the line).
fn hash_comment_end(b: &[u8], i: usize) -> usize {
    let mut depth = 0usize;
    let mut k = i;
    while let Some(off) = memchr::memchr3(b'\n', b'}', b']', &b[k..]) {
        let e = k + off;
        depth += b[k..e].iter().filter(|&&c| c == b'{' || c == b'[').count();
        if b[e] == b'\n' || depth == 0 {
            return e;
        }
        depth -= 1;
        k = e + 1;
    }
    b.len()
}

/// A `#` where a value starts, directly followed by a letter or digit (`#ff0000`, `#general`,
/// `#python`): a value written without quotes, not a comment.
pub(super) fn hash_value_at(b: &[u8], i: usize) -> bool {
    b.get(i) == Some(&b'#') && b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric)
}

/// Where an opening Markdown fence at `i` (```` ``` ````, `[````, `{```` with more backticks and a
/// language tag) ends, or `None` when none starts there.
pub(super) fn open_fence_end(b: &[u8], i: usize) -> Option<usize> {
    let rest = &b[i..];
    let mut k = if rest.starts_with(b"```") {
        i + 3
    } else if rest.starts_with(b"[```") || rest.starts_with(b"{```") {
        i + 4
    } else {
        return None;
    };
    while b.get(k) == Some(&b'`') {
        k += 1;
    }
    if b.get(k).is_some_and(|&c| is_ident_start(c)) {
        while b.get(k).is_some_and(|&c| is_ident(c)) {
            k += 1;
        }
    }
    Some(k)
}

/// Where the next code fence after `i` whose content starts with `{` or `[` begins, if any.
pub(super) fn next_fenced_value(b: &[u8], i: usize) -> Option<usize> {
    let f = i + memchr::memmem::find(&b[i..], b"```")?;
    let mut k = f + 3;
    while b.get(k).is_some_and(|&c| is_ident(c)) {
        k += 1;
    }
    k = ws_end(b, k);
    matches!(b.get(k), Some(b'{' | b'[')).then_some(f)
}

/// Longest unit after a number that [`unit_end`] takes (`m/s^2`, `kilometers per hour`).
const UNIT_MAX: usize = 40;

/// Where a unit written after a number ends (`100 meters`, `-9.81 m/s^2`), given `end`, where
/// the number ends: one or more spaces or tabs, then a word starting with a letter or a unit sign
/// (`%`, `°`, `µ`, …) and running to a `,` `}` `]` or the end of the line (spaces before it
/// excluded) within [`UNIT_MAX`] bytes. Not a unit: a run holding `:` (the next key, a missing
/// comma), a quote, a bracket, a parenthesis, `#`, `//` or `/*` (a comment), or whose first word
/// is a literal (`1 true` is two values); a run the input ends in (a cut-off value).
pub(super) fn unit_end(b: &[u8], end: usize) -> Option<usize> {
    let mut j = end;
    while j < b.len() && matches!(b[j], b' ' | b'\t') {
        j += 1;
    }
    if j == end || j >= b.len() {
        return None;
    }
    let first = b[j];
    if !(first.is_ascii_alphabetic() || first == b'%' || first >= 0x80) {
        return None;
    }
    let mut k = j;
    while k < b.len() && !matches!(b[k], b',' | b'}' | b']' | b'\n' | b'\r') {
        if matches!(b[k], b':' | b'"' | b'\'' | b'{' | b'[' | b'(' | b'#')
            || (b[k] == b'/' && matches!(b.get(k + 1), Some(b'/' | b'*')))
            || k - j >= UNIT_MAX
        {
            return None;
        }
        k += 1;
    }
    if k >= b.len() {
        return None;
    }
    let word_end = (j..k)
        .find(|&w| !b[w].is_ascii_alphanumeric() && b[w] != b'_')
        .unwrap_or(k);
    if matches!(
        &b[j..word_end],
        b"true"
            | b"false"
            | b"null"
            | b"True"
            | b"False"
            | b"None"
            | b"undefined"
            | b"NaN"
            | b"Infinity"
    ) {
        return None;
    }
    let mut e = k;
    while e > j && matches!(b[e - 1], b' ' | b'\t') {
        e -= 1;
    }
    Some(e)
}

/// The fix writing the number `raw` (as [`scan_number`] found it) needs, or `None` when it is
/// already JSON and is copied as it is.
pub(super) fn number_fix(raw: &[u8], truncated: bool, lead_dot: bool) -> Option<FixKind> {
    let unsigned = raw
        .strip_prefix(b"-")
        .or_else(|| raw.strip_prefix(b"+"))
        .unwrap_or(raw);
    // Checked after dropping digit separators: `0_234` has a leading zero too.
    let second = unsigned.iter().skip(1).find(|&&c| c != b'_');
    if unsigned.len() >= 2 && unsigned[0] == b'0' && second.is_some_and(u8::is_ascii_digit) {
        // Leading zeros (`0789`, a zip code, an id): every digit is kept, as a string.
        return Some(FixKind::QuotedNumber);
    }
    let plain = !truncated && !lead_dot && raw.first() != Some(&b'+') && !raw.contains(&b'_');
    if plain {
        None
    } else if truncated {
        Some(FixKind::CompletedNumber)
    } else {
        Some(FixKind::NormalizedNumber)
    }
}

/// Writes the JSON form of the number `raw` (see [`number_fix`]) to `out`.
pub(super) fn write_number(out: &mut Vec<u8>, raw: &[u8], truncated: bool, lead_dot: bool) {
    match number_fix(raw, truncated, lead_dot) {
        None => out.extend_from_slice(raw),
        Some(FixKind::QuotedNumber) => {
            out.push(b'"');
            out.extend_from_slice(raw);
            out.push(b'"');
        }
        Some(_) => {
            let mut k = 0;
            if raw[0] == b'+' {
                k = 1;
            } else if raw[0] == b'-' {
                out.push(b'-');
                k = 1;
            }
            if lead_dot {
                out.push(b'0');
            }
            out.extend(raw[k..].iter().copied().filter(|&c| c != b'_'));
            if truncated {
                out.push(b'0');
            }
        }
    }
}

/// Where the run of whitespace that ends at `end` in `out` starts (`end` when there is none).
pub(super) fn ws_start(out: &[u8], end: usize) -> usize {
    let mut k = end;
    while k > 0 && is_ws(out[k - 1]) {
        k -= 1;
    }
    k
}

/// Where the run of whitespace that starts at `k` in `b` ends.
#[inline]
pub(super) fn ws_end(b: &[u8], mut k: usize) -> usize {
    while k < b.len() && is_ws(b[k]) {
        k += 1;
    }
    k
}

/// Where the word (no whitespace, delimiter or quote) that starts at `k` in `b` ends.
fn word_end(b: &[u8], mut k: usize) -> usize {
    while k < b.len() && !is_ws(b[k]) && !is_delimiter(b[k]) && quote_at(b, k).is_none() {
        k += 1;
    }
    k
}

/// The first `, ident:` in `b[from..to]`: the offset of its comma.
fn find_unquoted_key(b: &[u8], from: usize, to: usize) -> Option<usize> {
    let mut c = from;
    while let Some(off) = memchr::memchr2(b',', b'}', &b[c..to]) {
        let comma = c + off;
        let mut k = comma + 1;
        while k < to && is_ws(b[k]) {
            k += 1;
        }
        let w = k;
        while k < to && is_ident(b[k]) {
            k += 1;
        }
        if k > w && b[w].is_ascii_alphabetic() {
            while k < to && is_ws(b[k]) {
                k += 1;
            }
            if k < to && b[k] == b':' {
                return Some(comma);
            }
        }
        c = comma + 1;
    }
    None
}

/// A string cut off by the end of input: the stricter re-read the tolerant pass tries before
/// closing it at the end (`None`: close it there). The first attempt (`stop_delim` false, no
/// `stop_at`) looks for the closers and keys a value swallowed; any attempt but the
/// delimiter-stop one re-reads a key holding a colon or a value ending in a delimiter.
pub(super) fn cut_string_retry(
    b: &[u8],
    ctx: Ctx,
    content_start: usize,
    stop_delim: bool,
    stop_at: bool,
) -> Option<Attempt> {
    let len = b.len();
    if !stop_delim && !stop_at && ctx == Ctx::ObjValue {
        // `{"a": "text}` or `{"a": "text}```: the string ends before the closers.
        let mut k = len;
        while k > content_start && (is_ws(b[k - 1]) || matches!(b[k - 1], b'}' | b']' | b'`')) {
            k -= 1;
        }
        if k < len && k > content_start && b[k..].iter().any(|&c| !is_ws(c)) {
            if b[k..].contains(&b'}')
                && let Some(c) = find_unquoted_key(b, content_start, k)
            {
                // `{"a": "first, b: 1}`: the string ended before `, b:`.
                return Some(Attempt::RetryAt(c));
            }
            return Some(Attempt::RetryAt(k));
        }
        if let Some(c) = find_quoted_unquoted_key(b, content_start, len) {
            // `{"a": "x, `b:…` cut off: a quoted key started after the comma.
            return Some(Attempt::RetryAt(c));
        }
    }
    if stop_delim {
        return None;
    }
    // A key cut off by the end retries only to split `"key:value` at its colon or `"a" true}` at
    // its quote; a value only when it holds no bracket (`"{:`).
    let rest = &b[content_start..];
    let retry = if ctx == Ctx::Key {
        memchr::memchr2(b':', b'"', rest).is_some()
    } else {
        memchr::memchr2(b'{', b'[', rest).is_none()
    };
    let key_colon = ctx == Ctx::Key && memchr::memchr(b':', rest).is_some();
    // A bracket or slash the text ends with is part of it (`"f(a, b)`, `"src, lib/`): only a
    // separator or closer there tells that the string ended before it.
    let prev_delim = prev_non_ws(b, len).is_some_and(|p| {
        p >= content_start && is_delimiter(b[p]) && !matches!(b[p], b'(' | b')' | b'/')
    });
    (key_colon || (retry && prev_delim)).then_some(Attempt::RetryDelimiter)
}

/// The output of a string cut off by the end of input ends with a `\n` escape (not an escaped
/// backslash then `n`) inside the content that starts at `o_content`: the line it starts never
/// arrived, and the escape is trimmed.
pub(super) fn ends_with_newline_escape(out: &[u8], o_content: usize) -> bool {
    if !(out.ends_with(b"\\n") && out.len() >= o_content + 2) {
        return false;
    }
    // The backslash before the `n` starts an escape when the run of backslashes it ends is odd
    // (`\\\n` is an escaped backslash, then `\n`).
    backslashes_before(&out[o_content..out.len() - 1]) % 2 == 1
}

/// How many backslashes `s` ends with: an odd run escapes what follows it.
fn backslashes_before(s: &[u8]) -> usize {
    s.iter().rev().take_while(|&&c| c == b'\\').count()
}

/// A string opened at `i` with a doubled ASCII quote right before its text (`""answer""`,
/// `''Female''`): JSON that went through CSV quoting, where every quote is doubled. The pair is
/// one quote when text starts right after it (a word character or a non-ASCII byte), so empty
/// strings (`"", ""`, `""}`, `"" + "a"`) are never taken for one.
fn doubled_open(b: &[u8], i: usize) -> bool {
    let (Some(&q), Some(&q2), Some(&c)) = (b.get(i), b.get(i + 1), b.get(i + 2)) else {
        return false;
    };
    matches!(q, b'"' | b'\'') && q2 == q && (is_ident(c) || c >= 0x80)
}

/// After a string's end quote (and the spaces after it), what is at `i` confirms the end: the
/// end of input, a delimiter, a digit outside an object value, or another quote.
pub(super) fn quote_ends_string(b: &[u8], i: usize, ctx: Ctx) -> bool {
    match b.get(i) {
        None => true,
        Some(&c) => {
            is_delimiter(c)
                || (c.is_ascii_digit() && ctx != Ctx::ObjValue)
                || quote_at(b, i).is_some()
        }
    }
}
