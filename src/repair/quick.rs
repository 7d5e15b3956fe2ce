//! The quick pass: one forward scan for small inputs that settles the common cases — valid JSON,
//! and objects or arrays broken the way tool-call arguments usually are (single quotes, unquoted
//! keys, Python literals, trailing commas, comments, a code fence, raw control characters in
//! strings, a missing closer, truncation anywhere) — without the strict attempt and without
//! re-scanning.
//!
//! Wherever it answers, it answers exactly what the full cascade (strict check, then
//! [`super::parser`]) answers for the same input: the same text, the same fixes in the same order.
//! It gives up (`None`) the moment the input needs anything it does not carry — an end quote the
//! tolerant parser would judge to be inside its string, a missing comma, a mismatched closer,
//! prose around the value, a typographic quote, an error — and the full cascade then runs from the
//! start. It calls the tolerant parser's own scanners and end-quote judgement
//! ([`super::parser::quote_is_inner`], `scan_number`, `scan_keyword`, `comment_end`, …), so the
//! two cannot drift apart on those; `tests/repair_quick.rs` and the `repair_quick` fuzz target
//! check the equality on whole inputs.
//!
//! The pass only changes text that is not JSON, so on valid JSON it makes no change. Output is
//! written lazily: while the input read so far needs no change nothing is copied, and valid input
//! comes back borrowed without an allocation.

use std::borrow::Cow;

use super::Repaired;
use super::expr;
use super::fix::{Fix, FixKind};
use super::lexer::{is_ident, is_ident_start, short_escape};
use super::parser::{
    Balance, Ctx, comment_end, cut_string_retry, ends_with_newline_escape, hex4, next_fenced_value,
    number_fix, open_fence_end, quote_ends_string, quote_is_inner, scan_keyword, scan_number,
    write_number, ws_start,
};

/// Inputs longer than this go straight to the full cascade (its strict check is the faster
/// validator for large documents, and the quick pass is for tool-call-sized arguments).
pub(super) const MAX_LEN: usize = 16 * 1024;

/// Deepest nesting the quick pass follows; deeper input goes to the full cascade.
const MAX_DEPTH: usize = 32;

/// The quick pass gave up: the full cascade decides.
struct Bail;

type Q<T> = Result<T, Bail>;

/// What the top container does next.
enum Next {
    /// Parse a child value.
    Child,
    /// The container closed.
    Closed,
}

/// What [`Quick::begin_value`] found.
enum Ev {
    /// A container was opened.
    Opened,
    /// A leaf value was written (`true`) or none was there (`false`).
    Leaf(bool),
}

struct Quick<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    /// The output, once it differs from the input read so far (see `clean`).
    out: String,
    /// A copy was asked for at a position inside a UTF-8 sequence (never expected): give up at
    /// the end rather than panic.
    split_char: bool,
    /// No change made yet: the output is `b[..i]` and `out` is unused.
    clean: bool,
    fixes: Vec<Fix>,
    /// Open containers, innermost last: `true` for an object.
    stack: [bool; MAX_DEPTH],
    depth: usize,
    steps: u64,
}

/// Runs the quick pass over `input`: `Some` with the result and the steps taken, or `None` when
/// the full cascade must decide.
pub(super) fn run(input: &str) -> Option<(Repaired<'_>, u64)> {
    if input.len() > MAX_LEN {
        return None;
    }
    let mut q = Quick {
        s: input,
        b: input.as_bytes(),
        i: 0,
        out: String::new(),
        split_char: false,
        clean: true,
        fixes: Vec::new(),
        stack: [false; MAX_DEPTH],
        depth: 0,
        steps: 0,
    };
    q.root().ok()?;
    if q.split_char {
        return None;
    }
    let steps = q.steps;
    if q.clean || q.out == input {
        return Some((
            Repaired {
                text: Cow::Borrowed(input),
                fixes: Vec::new(),
            },
            steps,
        ));
    }
    let mut fixes = q.fixes;
    if !fixes.is_sorted_by_key(|f| f.at) {
        fixes.sort_by_key(|f| f.at);
    }
    Some((
        Repaired {
            text: Cow::Owned(q.out),
            fixes,
        },
        steps,
    ))
}

impl Quick<'_> {
    // ----- output ---------------------------------------------------------------------------

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Switches from "the output is the input so far" to an explicit buffer.
    #[cold]
    fn materialize_now(&mut self) {
        let len = self.b.len();
        let mut out = String::with_capacity(len + len / 8 + 16);
        match self.s.get(..self.i) {
            Some(t) => out.push_str(t),
            None => self.split_char = true,
        }
        self.out = out;
        self.clean = false;
        // Broken input nearly always needs a few fixes: one allocation.
        self.fixes.reserve(8);
    }

    #[inline(always)]
    fn materialize(&mut self) {
        if self.clean {
            self.materialize_now();
        }
    }

    /// Copies the input up to `j` unchanged.
    #[inline(always)]
    fn keep_to(&mut self, j: usize) {
        if !self.clean {
            match self.s.get(self.i..j) {
                Some(t) => self.out.push_str(t),
                None => self.split_char = true,
            }
        }
        self.i = j;
    }

    /// Writes `s` (a change: the output stops being a copy of the input).
    #[inline]
    fn push(&mut self, s: &str) {
        self.materialize();
        self.out.push_str(s);
    }

    #[inline]
    fn fix(&mut self, kind: FixKind, at: usize) {
        self.materialize();
        self.fixes.push(Fix { kind, at });
    }

    fn out_len(&self) -> usize {
        if self.clean { self.i } else { self.out.len() }
    }

    fn out_bytes(&self) -> &[u8] {
        if self.clean {
            &self.b[..self.i]
        } else {
            self.out.as_bytes()
        }
    }

    /// Inserts `s` before the whitespace at the end of the output.
    fn insert_before_ws(&mut self, s: &str) {
        self.materialize();
        let k = ws_start(self.out.as_bytes(), self.out.len());
        // After a whole character (or at 0): a char boundary.
        self.out.insert_str(k, s);
    }

    /// Removes a comma that is the last non-whitespace output byte.
    fn strip_trailing_comma(&mut self) -> bool {
        let o = self.out_bytes();
        let k = ws_start(o, o.len());
        if k > 0 && o[k - 1] == b',' {
            self.materialize();
            self.out.remove(k - 1);
            true
        } else {
            false
        }
    }

    // ----- whitespace, comments, fences ----------------------------------------------------------

    /// Whitespace (copied); a Unicode space gives up (the cascade normalises it).
    #[inline(always)]
    fn ws(&mut self, newline: bool) -> Q<()> {
        match self.peek() {
            // The common case: one space before a token.
            Some(b' ') if !self.b.get(self.i + 1).is_some_and(|&c| may_continue_ws(c)) => {
                self.keep_to(self.i + 1);
                Ok(())
            }
            Some(b' ' | b'\t' | b'\r' | b'\n' | 0xC2..) => self.ws_slow(newline),
            _ => Ok(()),
        }
    }

    fn ws_slow(&mut self, newline: bool) -> Q<()> {
        let mut j = self.i;
        while let Some(&c) = self.b.get(j) {
            if c == b' ' || c == b'\t' || c == b'\r' || (newline && c == b'\n') {
                j += 1;
            } else if c >= 0xC2 && super::lexer::special_ws_len(self.b, j) > 0 {
                return Err(Bail);
            } else {
                break;
            }
        }
        self.steps += 1;
        self.keep_to(j);
        Ok(())
    }

    /// Whitespace and comments (removed, each with a fix).
    #[inline(always)]
    fn ws_comments(&mut self, newline: bool) -> Q<()> {
        self.ws(newline)?;
        if matches!(self.peek(), Some(b'/' | b'#')) {
            self.comments(newline)?;
        }
        Ok(())
    }

    /// Comments, each followed by whitespace.
    fn comments(&mut self, newline: bool) -> Q<()> {
        while let Some(end) = comment_end(self.b, self.i) {
            self.fix(FixKind::StrippedComment, self.i);
            self.steps += (end - self.i) as u64 / 16 + 1;
            self.i = end;
            self.ws(newline)?;
        }
        Ok(())
    }

    /// A closing code fence after the root value.
    fn close_fence(&mut self) -> Q<bool> {
        self.ws(true)?;
        if self.b[self.i..].starts_with(b"```") {
            self.fix(FixKind::StrippedCodeFence, self.i);
            let mut j = self.i + 3;
            if matches!(self.b.get(j), Some(b']' | b'}')) {
                j += 1;
            }
            self.i = j;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    // ----- structure ---------------------------------------------------------------------------

    fn root(&mut self) -> Q<()> {
        self.ws_comments(true)?;
        if let Some(end) = open_fence_end(self.b, self.i) {
            self.fix(FixKind::StrippedCodeFence, self.i);
            self.i = end;
            self.ws_comments(true)?;
        }
        if !matches!(self.peek(), Some(b'{' | b'[')) {
            return Err(Bail);
        }
        self.containers()?;
        let fenced = self.close_fence()?;
        if matches!(self.peek(), Some(b',' | b'{' | b'[' | b'}' | b']'))
            || (fenced && next_fenced_value(self.b, self.i).is_some())
        {
            return Err(Bail);
        }
        self.close_fence()?;
        self.ws_comments(true)?;
        if self.i < self.b.len() {
            self.fix(FixKind::StrippedWrapper, self.i);
            self.i = self.b.len();
        }
        Ok(())
    }

    /// Opens the container at `i` (`{` or `[`).
    fn open(&mut self) -> Q<()> {
        if self.depth >= MAX_DEPTH {
            return Err(Bail);
        }
        self.stack[self.depth] = self.b[self.i] == b'{';
        self.depth += 1;
        self.keep_to(self.i + 1);
        Ok(())
    }

    /// The root container and everything in it, without recursion.
    fn containers(&mut self) -> Q<()> {
        self.open()?;
        let mut ev = Ev::Opened;
        loop {
            self.steps += 1;
            let object = self.stack[self.depth - 1];
            let next = match (object, ev) {
                (true, Ev::Opened) => {
                    self.ws_comments(true)?;
                    if self.peek() == Some(b',') {
                        return Err(Bail);
                    }
                    self.object_next(true)?
                }
                (true, Ev::Leaf(processed)) => {
                    if !processed {
                        // Only reached after a colon or at the end of input: the value is null.
                        self.insert_before_ws("null");
                        self.fix(FixKind::InsertedNull, self.i);
                    }
                    self.object_next(false)?
                }
                (false, Ev::Opened) => {
                    self.ws_comments(true)?;
                    if self.peek() == Some(b',') {
                        return Err(Bail);
                    }
                    self.array_next(true)?
                }
                (false, Ev::Leaf(processed)) => {
                    if !processed || self.peek() == Some(b':') {
                        return Err(Bail);
                    }
                    self.array_next(false)?
                }
            };
            ev = match next {
                Next::Child => {
                    let ctx = if object { Ctx::ObjValue } else { Ctx::Element };
                    self.begin_value(ctx)?
                }
                Next::Closed => {
                    self.ws_comments(true)?;
                    if self.depth == 0 {
                        return Ok(());
                    }
                    Ev::Leaf(true)
                }
            };
        }
    }

    /// Closes the top container with its closer (consumed when present, else inserted).
    fn close(&mut self) -> Q<Next> {
        let (closer, text) = if self.stack[self.depth - 1] {
            (b'}', "}")
        } else {
            (b']', "]")
        };
        let present = self.peek() == Some(closer);
        self.depth -= 1;
        let at = if present { self.i + 1 } else { self.i };
        if self.strip_trailing_comma() {
            self.fix(FixKind::RemovedComma, at);
        }
        if present {
            self.keep_to(self.i + 1);
        } else {
            self.insert_before_ws(text);
            self.fix(FixKind::InsertedCloser, self.i);
        }
        Ok(Next::Closed)
    }

    /// A closing fence or closer at the top of a container loop.
    #[inline(always)]
    fn handle_closer(&mut self, object: bool) -> Q<Option<Next>> {
        match self.peek() {
            Some(b'`' | b'}' | b']' | b')') | None => self.handle_closer_slow(object),
            Some(_) => Ok(None),
        }
    }

    fn handle_closer_slow(&mut self, object: bool) -> Q<Option<Next>> {
        loop {
            if self.b[self.i..].starts_with(b"```") {
                self.fix(FixKind::StrippedCodeFence, self.i);
                self.i += 3;
                self.ws_comments(true)?;
                continue;
            }
            return match self.peek() {
                None => self.close().map(Some),
                Some(b'}') if object => self.close().map(Some),
                Some(b']') if !object => self.close().map(Some),
                Some(b'}' | b']' | b')') => Err(Bail),
                Some(_) => Ok(None),
            };
        }
    }

    /// The head of a container loop: the end of input or a closer closes the container (`Some`);
    /// otherwise, after an element, a comma must follow, then whitespace and comments, and no
    /// ellipsis (`None`: the next key or element starts here).
    fn loop_head(&mut self, object: bool, initial: bool) -> Q<Option<Next>> {
        if self.i >= self.b.len() {
            return self.close().map(Some);
        }
        if let Some(next) = self.handle_closer(object)? {
            return Ok(Some(next));
        }
        if !initial {
            if self.peek() != Some(b',') {
                return Err(Bail);
            }
            self.keep_to(self.i + 1);
        }
        self.ws_comments(true)?;
        if self.b[self.i..].starts_with(b"...") {
            return Err(Bail);
        }
        Ok(None)
    }

    /// The object loop: comma, key, colon.
    fn object_next(&mut self, initial: bool) -> Q<Next> {
        if let Some(next) = self.loop_head(true, initial)? {
            return Ok(next);
        }
        let key_in = self.i;
        let key_out = self.out_len();
        match self.peek() {
            Some(b'"' | b'\'') => self.string(Ctx::Key)?,
            Some(c) if is_ident_start(c) => self.unquoted_key()?,
            None | Some(b'}') => {
                if self.strip_trailing_comma() {
                    self.fix(FixKind::RemovedComma, self.i);
                }
                return self.close();
            }
            Some(_) => return Err(Bail),
        }
        self.ws_comments(true)?;
        let len = self.b.len();
        if self.i >= len && &self.out_bytes()[key_out..] == b"\"\"" && key_in < len {
            // `{"` cut off right after the opening quote of a key.
            self.materialize();
            self.out.truncate(key_out);
            self.strip_trailing_comma();
            self.fix(FixKind::DroppedKey, key_in);
            return self.close();
        }
        match self.peek() {
            Some(b':') => self.keep_to(self.i + 1),
            None => {
                self.insert_before_ws(":");
                self.fix(FixKind::InsertedColon, self.i);
            }
            Some(_) => return Err(Bail),
        }
        Ok(Next::Child)
    }

    /// An unquoted key made of identifier characters, followed by a colon or the end of input.
    fn unquoted_key(&mut self) -> Q<()> {
        let b = self.b;
        let start = self.i;
        let mut k = start;
        while k < b.len() && is_ident(b[k]) {
            k += 1;
        }
        let mut t = k;
        while matches!(b.get(t), Some(b' ' | b'\t' | b'\r')) {
            t += 1;
        }
        if !matches!(b.get(t), None | Some(b':')) {
            return Err(Bail);
        }
        self.fix(FixKind::QuotedKey, start);
        self.push("\"");
        // Identifier bytes: ASCII.
        self.out.extend(b[start..k].iter().map(|&c| char::from(c)));
        self.out.push('"');
        self.i = k;
        self.ws(true)
    }

    /// The array loop: comma, then the element.
    fn array_next(&mut self, initial: bool) -> Q<Next> {
        if let Some(next) = self.loop_head(false, initial)? {
            return Ok(next);
        }
        if matches!(self.peek(), None | Some(b']' | b'}' | b')')) {
            if self.strip_trailing_comma() {
                self.fix(FixKind::RemovedComma, self.i);
            }
            return match self.handle_closer(false)? {
                Some(next) => Ok(next),
                None => Err(Bail),
            };
        }
        self.ws_comments(true)?;
        Ok(Next::Child)
    }

    // ----- values ------------------------------------------------------------------------------

    fn begin_value(&mut self, ctx: Ctx) -> Q<Ev> {
        self.ws_comments(true)?;
        let b = self.b;
        let Some(c) = self.peek() else {
            return Ok(Ev::Leaf(false));
        };
        if ctx == Ctx::ObjValue && c == b'"' && b[self.i + 1..].starts_with(b"```") {
            return Err(Bail);
        }
        if matches!(
            c,
            b'0'..=b'9' | b'-' | b'+' | b'.' | b'(' | b'M' | b'm' | b'n'
        ) && expr::at(&b[self.i..]).is_some()
        {
            return Err(Bail);
        }
        match c {
            b'{' | b'[' => {
                self.open()?;
                return Ok(Ev::Opened);
            }
            b'"' | b'\'' => self.string(ctx)?,
            b',' | b'}' | b']' => return Ok(Ev::Leaf(false)),
            _ if c >= 0x80 || matches!(c, b'(' | b'\\' | b'`') => return Err(Bail),
            _ => {
                let start = self.i;
                if let Some(n) = scan_number(b, start) {
                    let raw = &b[start..n.end];
                    match number_fix(raw, n.truncated, n.lead_dot) {
                        None => self.keep_to(n.end),
                        Some(kind) => {
                            self.fix(kind, start);
                            let mut text = Vec::with_capacity(raw.len() + 3);
                            write_number(&mut text, raw, n.truncated, n.lead_dot);
                            // Digits, signs, dots, exponent markers and quotes: ASCII.
                            self.out.extend(text.iter().map(|&c| char::from(c)));
                            self.i = n.end;
                        }
                    }
                } else if let Some((end, text, fix)) = scan_keyword(b, start) {
                    match fix {
                        None => self.keep_to(end),
                        Some(kind) => {
                            self.fix(kind, start);
                            // `true`, `false` or `null`.
                            self.out.extend(text.iter().map(|&c| char::from(c)));
                            self.i = end;
                        }
                    }
                } else {
                    return Err(Bail);
                }
            }
        }
        self.ws_comments(true)?;
        Ok(Ev::Leaf(true))
    }

    /// A `"…"` or `'…'` string (a key or a value) and the whitespace after it.
    fn string(&mut self, ctx: Ctx) -> Q<()> {
        let b = self.b;
        let len = b.len();
        let single = b[self.i] == b'\'';
        let quote = b[self.i];
        if single {
            self.fix(FixKind::NormalizedQuote, self.i);
            self.push("\"");
            self.i += 1;
        } else {
            self.keep_to(self.i + 1);
        }
        let content_start = self.i;
        let o_content = self.out_len();
        // Output offset where a run of raw trailing whitespace with a newline started.
        let mut ws_tail: Option<usize> = None;
        loop {
            self.steps += 1;
            let Some(&c) = b.get(self.i) else {
                return self.string_cut(ctx, content_start, o_content);
            };
            if c == quote {
                return self.string_end(ctx, content_start, ws_tail, single);
            }
            if c == b'\\' {
                ws_tail = None;
                let at = self.i;
                match b.get(at + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                        self.keep_to(at + 2);
                    }
                    Some(b'u') => {
                        let hex = b
                            .get(at + 2..at + 6)
                            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                            .ok_or(Bail)?;
                        if (0xD800..0xE000).contains(&hex4(hex)) {
                            return Err(Bail);
                        }
                        self.keep_to(at + 6);
                    }
                    Some(b'\'') => {
                        self.fix(FixKind::FixedEscape, at);
                        self.out.push('\'');
                        self.i = at + 2;
                    }
                    Some(&c2) if !(0x20..0x80).contains(&c2) => return Err(Bail),
                    _ => {
                        // `\d`, `C:\Users`, or a backslash cut off by the end: kept literally.
                        self.fix(FixKind::FixedEscape, at);
                        self.out.push_str("\\\\");
                        self.i = at + 1;
                    }
                }
            } else if c == b'"' {
                // Inside a single-quoted string.
                ws_tail = None;
                self.fix(FixKind::EscapedQuote, self.i);
                self.out.push_str("\\\"");
                self.i += 1;
            } else if c < 0x20 {
                let e = short_escape(c).ok_or(Bail)?;
                self.fix(FixKind::EscapedControlChar, self.i);
                if c == b'\n' || c == b'\r' {
                    ws_tail.get_or_insert(self.out.len());
                } else if c != b'\t' {
                    ws_tail = None;
                }
                self.out.push_str(e);
                self.i += 1;
            } else {
                let end = if single {
                    let mut end = self.i;
                    while end < len
                        && !matches!(b[end], b'"' | b'\\' | 0..0x20 | b'\'' | b'`' | 0xC2 | 0xE2)
                    {
                        end += 1;
                    }
                    end
                } else {
                    plain_run_end(b, self.i)
                };
                if end == self.i {
                    // A backtick or a possible typographic quote inside a single-quoted string.
                    return Err(Bail);
                }
                self.steps += (end - self.i) as u64 / 8;
                if ws_tail.is_some() && b[self.i..end].iter().any(|&c| c != b' ' && c != b'\t') {
                    ws_tail = None;
                }
                self.keep_to(end);
            }
        }
    }

    /// The quote at `i` may end the string: it does when the tolerant parser would say so without
    /// a second look; anything else gives up.
    fn string_end(
        &mut self,
        ctx: Ctx,
        content_start: usize,
        ws_tail: Option<usize>,
        single: bool,
    ) -> Q<()> {
        let b = self.b;
        let i_quote = self.i;
        let o_quote = self.out_len();
        if single {
            self.push("\"");
            self.fix(FixKind::NormalizedQuote, i_quote);
            self.i += 1;
        } else {
            self.keep_to(self.i + 1);
        }
        self.ws_comments(false)?;
        let mut bal = Balance {
            upto: content_start,
            counts: [0; 3],
        };
        // A key's quote right before its colon: `quote_is_inner` looks for a closer first and
        // answers "not inner" for every key, so the call is skipped for the most common case.
        let key_then_colon = ctx == Ctx::Key && self.peek() == Some(b':');
        if !key_then_colon && quote_is_inner(b, self.i, ctx, content_start, i_quote + 1, &mut bal) {
            return Err(Bail);
        }
        if !quote_ends_string(b, self.i, ctx) {
            return Err(Bail);
        }
        if let Some(t) = ws_tail {
            self.out.drain(t..o_quote);
            self.fix(FixKind::TrimmedString, i_quote);
        }
        // What may follow a string: spaces, comments, and no `+` concatenation.
        self.ws_comments(true)?;
        if self.peek() == Some(b'+') {
            return Err(Bail);
        }
        Ok(())
    }

    /// The input ends inside a string: close it as the tolerant parser does, or give up where it
    /// would re-read it for an earlier end ([`cut_string_retry`]).
    fn string_cut(&mut self, ctx: Ctx, content_start: usize, o_content: usize) -> Q<()> {
        let len = self.b.len();
        if cut_string_retry(self.b, ctx, content_start, false, false).is_some() {
            return Err(Bail);
        }
        if ctx == Ctx::Key {
            self.insert_before_ws("\"");
            self.fix(FixKind::ClosedString, len);
        } else {
            self.materialize();
            if ends_with_newline_escape(self.out.as_bytes(), o_content) {
                // A `\n` escape right at the cut: the line it starts never arrived.
                self.out.truncate(self.out.len() - 2);
                self.fix(FixKind::TrimmedString, len);
            }
            self.out.push('"');
            self.fix(FixKind::ClosedString, len);
        }
        Ok(())
    }
}

/// Bytes that may extend whitespace (or be a Unicode space) after a space.
#[inline]
fn may_continue_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0xC2..)
}

/// The end of a run of plain string bytes from `k` in a double-quoted string: the first `"`, `\\`
/// or control character, or the end of input. Eight bytes at a time: the lowest byte flagged by
/// the usual zero-byte / less-than tests is always a true match (a false flag can only sit above a
/// true one, where a borrow ran on), so the first match is exact.
#[inline]
fn plain_run_end(b: &[u8], mut k: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(k..k + 8) {
        let Ok(bytes) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let w = u64::from_le_bytes(bytes);
        let quote = w ^ (ONES * u64::from(b'"'));
        let backslash = w ^ (ONES * u64::from(b'\\'));
        let flags = ((quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (w.wrapping_sub(ONES * 0x20) & !w))
            & HIGH;
        if flags != 0 {
            return k + (flags.trailing_zeros() / 8) as usize;
        }
        k += 8;
    }
    while k < b.len() && !matches!(b[k], b'"' | b'\\' | 0..0x20) {
        k += 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::plain_run_end;

    fn naive(b: &[u8], mut k: usize) -> usize {
        while k < b.len() && !matches!(b[k], b'"' | b'\\' | 0..0x20) {
            k += 1;
        }
        k
    }

    #[test]
    fn plain_run_end_finds_the_first_stop_byte() {
        // Every filler byte, every stop byte at every offset, with a second stop byte after it
        // (a borrow from the first must not hide or fake anything).
        for filler in 0u8..=255 {
            for stop in [b'"', b'\\', 0x00, 0x1F, b'\n'] {
                for at in 0..20 {
                    let mut buf = vec![filler; 20];
                    buf[at] = stop;
                    if at + 3 < 20 {
                        buf[at + 3] = 0x01;
                    }
                    for start in 0..=at {
                        assert_eq!(
                            plain_run_end(&buf, start),
                            naive(&buf, start),
                            "filler {filler:#x} stop {stop:#x} at {at} from {start}"
                        );
                    }
                }
                let buf = vec![filler; 17];
                assert_eq!(plain_run_end(&buf, 0), naive(&buf, 0));
            }
        }
    }
}
