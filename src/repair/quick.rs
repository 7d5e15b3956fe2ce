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
//! written lazily: unchanged input is copied in one piece at the next change (or at the end), and
//! valid input comes back borrowed without an allocation. The shapes tool-call arguments are
//! mostly made of — a plain `"key":`, a plain string, number, boolean or `null` followed by a
//! comma or closer, on the same line or after a line break and indentation — are taken in one
//! step each ([`plain_key_end`], [`plain_value_end`]), each shortcut documented with why the
//! general path would end the same way.

use std::borrow::Cow;

use super::Repaired;
use super::expr;
use super::fix::{Fix, FixKind};
use super::lexer::{is_ident, is_ident_start, short_escape};
use super::parser::{
    Balance, Ctx, comment_end, cut_string_retry, drop_escaped_controls, ends_with_newline_escape,
    hash_value_at, hex4, json_in_string, next_fenced_value, number_fix, open_fence_end,
    quote_ends_string, quote_is_inner, scan_keyword, scan_number, write_number, ws_end, ws_start,
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
    /// The output, once it differs from the input (see `clean`): it holds the output for the
    /// input before `mark`; the input from `mark` to `i` is kept unchanged and copied in at the
    /// next change (or at the end).
    out: String,
    /// Where the input not yet copied into `out` starts (see `out`).
    mark: usize,
    /// A copy was asked for at a position inside a UTF-8 sequence (never expected): give up at
    /// the end rather than panic.
    split_char: bool,
    /// No change made yet: the output is `b[..i]` and `out` is unused (`mark` is 0).
    clean: bool,
    fixes: Vec<Fix>,
    /// Open containers, innermost last: `true` for an object.
    stack: [bool; MAX_DEPTH],
    depth: usize,
    /// Input offset of the last comma kept: where a trailing comma removed later was.
    comma_at: usize,
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
        mark: 0,
        split_char: false,
        clean: true,
        fixes: Vec::new(),
        stack: [false; MAX_DEPTH],
        depth: 0,
        comma_at: 0,
        steps: 0,
    };
    q.root().ok()?;
    let steps = q.steps;
    if !q.clean {
        q.flush();
    }
    if q.split_char {
        return None;
    }
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
    fn materialize(&mut self) {
        let len = self.b.len();
        self.out = String::with_capacity(len + len / 8 + 16);
        self.clean = false;
        // Broken input nearly always needs a few fixes, single quotes two a string: one allocation.
        self.fixes.reserve(16);
    }

    /// Brings the output up to `i`: the input from `mark` is copied in unchanged.
    #[inline]
    fn flush(&mut self) {
        if self.clean {
            self.materialize();
        }
        match self.s.get(self.mark..self.i) {
            Some(t) => self.out.push_str(t),
            None => self.split_char = true,
        }
        self.mark = self.i;
    }

    /// Keeps the input up to `j` unchanged.
    #[inline(always)]
    fn keep_to(&mut self, j: usize) {
        self.i = j;
    }

    /// Writes `s` in place of the input from `i` to `j` (a change).
    #[inline]
    fn replace_to(&mut self, j: usize, s: &str) {
        self.flush();
        self.out.push_str(s);
        self.i = j;
        self.mark = j;
    }

    /// Drops the input from `i` to `j` (a change).
    #[inline]
    fn drop_to(&mut self, j: usize) {
        self.replace_to(j, "");
    }

    /// Writes `s` at `i` (a change: the output stops being a copy of the input).
    #[inline]
    fn push(&mut self, s: &str) {
        self.flush();
        self.out.push_str(s);
    }

    #[inline]
    fn fix(&mut self, kind: FixKind, at: usize) {
        self.flush();
        self.fixes.push(Fix { kind, at });
    }

    fn out_len(&self) -> usize {
        if self.clean {
            self.i
        } else {
            self.out.len() + (self.i - self.mark)
        }
    }

    /// Inserts `s` before the whitespace at the end of the output.
    fn insert_before_ws(&mut self, s: &str) {
        self.flush();
        let k = ws_start(self.out.as_bytes(), self.out.len());
        // After a whole character (or at 0): a char boundary.
        self.out.insert_str(k, s);
    }

    /// Removes a comma that is the last non-whitespace output byte.
    fn strip_trailing_comma(&mut self) -> bool {
        if self.clean {
            let k = ws_start(self.b, self.i);
            if !(k > 0 && self.b[k - 1] == b',') {
                return false;
            }
        }
        self.flush();
        let k = ws_start(self.out.as_bytes(), self.out.len());
        if k > 0 && self.out.as_bytes()[k - 1] == b',' {
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
            if hash_value_at(self.b, self.i) {
                // `#ff0000` where a value starts is a value: the cascade tells the two apart.
                return Err(Bail);
            }
            self.fix(FixKind::StrippedComment, self.i);
            self.steps += (end - self.i) as u64 / 16 + 1;
            self.drop_to(end);
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
            self.drop_to(j);
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
            self.drop_to(end);
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
            self.drop_to(self.b.len());
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
                    self.extra_commas()?;
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
                    self.extra_commas()?;
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
        if self.strip_trailing_comma() {
            self.fix(FixKind::RemovedComma, self.comma_at);
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
                self.drop_to(self.i + 3);
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

    /// Commas where no value is (leading in a container, or repeated after a separator), with
    /// the whitespace and comments around them: each comma is dropped with its fix, as the
    /// tolerant parser's `skip_extra_commas` does.
    #[inline(always)]
    fn extra_commas(&mut self) -> Q<()> {
        self.ws_comments(true)?;
        if self.peek() == Some(b',') {
            self.drop_extra_commas()?;
        }
        Ok(())
    }

    #[cold]
    fn drop_extra_commas(&mut self) -> Q<()> {
        while self.peek() == Some(b',') {
            self.fix(FixKind::RemovedComma, self.i);
            self.drop_to(self.i + 1);
            self.ws_comments(true)?;
        }
        Ok(())
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
        if initial {
            // Leading commas were dropped when the container opened; a comma after a closing
            // fence here is left to the cascade (no value starts with it).
            self.ws_comments(true)?;
        } else {
            if self.peek() != Some(b',') {
                return Err(Bail);
            }
            self.comma_at = self.i;
            self.keep_to(self.i + 1);
            self.extra_commas()?;
        }
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
        if let Some(e) = plain_key_end(self.b, self.i) {
            // `"key":` or `'key':` — what `string(Ctx::Key)` and the colon below come to.
            self.steps += 1;
            self.plain_string(e);
            self.keep_to(e + 2);
            return Ok(Next::Child);
        }
        let key_in = self.i;
        let key_out = self.out_len();
        match self.peek() {
            Some(b'"' | b'\'') => self.string(Ctx::Key)?,
            Some(c) if is_ident_start(c) => self.unquoted_key()?,
            None | Some(b'}') => {
                if self.strip_trailing_comma() {
                    self.fix(FixKind::RemovedComma, self.comma_at);
                }
                return self.close();
            }
            Some(_) => return Err(Bail),
        }
        self.ws_comments(true)?;
        let len = self.b.len();
        if self.i >= len && key_in < len && self.out_len() == key_out + 2 && {
            self.flush();
            &self.out.as_bytes()[key_out..] == b"\"\""
        } {
            // `{"` cut off right after the opening quote of a key.
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
        self.keep_to(k);
        self.push("\"");
        self.ws(true)
    }

    /// The array loop: comma, then the element.
    fn array_next(&mut self, initial: bool) -> Q<Next> {
        if let Some(next) = self.loop_head(false, initial)? {
            return Ok(next);
        }
        if matches!(self.peek(), None | Some(b']' | b'}' | b')')) {
            if self.strip_trailing_comma() {
                self.fix(FixKind::RemovedComma, self.comma_at);
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
        if let Some((quote, end)) = plain_value_end(b, self.i, ctx) {
            self.steps += 1 + (end - self.i) as u64 / 8;
            if matches!(c, b'"' | b'\'') {
                self.plain_string(quote);
            }
            self.keep_to(end);
            return Ok(Ev::Leaf(true));
        }
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
                            self.drop_to(n.end);
                        }
                    }
                } else if let Some((end, text, fix)) = scan_keyword(b, start) {
                    match fix {
                        None => self.keep_to(end),
                        Some(kind) => {
                            self.fix(kind, start);
                            // `true`, `false` or `null`.
                            self.out.extend(text.iter().map(|&c| char::from(c)));
                            self.drop_to(end);
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

    /// Writes the plain string from `i` to its end quote at `e` (see [`plain_string_end`]): a
    /// double-quoted one as it is, a single-quoted one with both quotes normalised — the fixes
    /// and text `string` gives it.
    #[inline(always)]
    fn plain_string(&mut self, e: usize) {
        if self.b[self.i] == b'\'' {
            self.plain_single_string(e);
        }
    }

    #[cold]
    fn plain_single_string(&mut self, e: usize) {
        self.fix(FixKind::NormalizedQuote, self.i);
        self.replace_to(self.i + 1, "\"");
        self.keep_to(e);
        self.replace_to(e + 1, "\"");
        self.fix(FixKind::NormalizedQuote, e);
    }

    /// A `"…"` or `'…'` string (a key or a value) and the whitespace after it.
    fn string(&mut self, ctx: Ctx) -> Q<()> {
        let b = self.b;
        let single = b[self.i] == b'\'';
        let quote = b[self.i];
        if single {
            self.fix(FixKind::NormalizedQuote, self.i);
            self.replace_to(self.i + 1, "\"");
        } else {
            self.keep_to(self.i + 1);
        }
        let content_start = self.i;
        let o_content = self.out_len();
        // Output offset where a run of raw trailing whitespace with a newline started.
        let mut ws_tail: Option<(usize, usize)> = None;
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
                        self.replace_to(at + 2, "'");
                    }
                    Some(&c2) if !(0x20..0x80).contains(&c2) => return Err(Bail),
                    _ => {
                        // `\d`, `C:\Users`, or a backslash cut off by the end: kept literally.
                        self.fix(FixKind::FixedEscape, at);
                        self.replace_to(at + 1, "\\\\");
                    }
                }
            } else if c == b'"' {
                // Inside a single-quoted string.
                ws_tail = None;
                self.fix(FixKind::EscapedQuote, self.i);
                self.replace_to(self.i + 1, "\\\"");
            } else if c < 0x20 {
                let e = short_escape(c).ok_or(Bail)?;
                self.fix(FixKind::EscapedControlChar, self.i);
                if c == b'\n' || c == b'\r' {
                    ws_tail.get_or_insert((self.out.len(), self.fixes.len() - 1));
                } else if c != b'\t' {
                    ws_tail = None;
                }
                self.replace_to(self.i + 1, e);
            } else {
                let end = if single {
                    single_run_end(b, self.i)
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
        ws_tail: Option<(usize, usize)>,
        single: bool,
    ) -> Q<()> {
        let b = self.b;
        let i_quote = self.i;
        let o_quote = self.out_len();
        if single {
            self.replace_to(self.i + 1, "\"");
            self.fix(FixKind::NormalizedQuote, i_quote);
        } else {
            self.keep_to(self.i + 1);
        }
        self.ws_comments(false)?;
        let mut bal = Balance {
            upto: content_start,
            counts: [0; 3],
            json_close: None,
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
        if let Some((t, f)) = ws_tail {
            self.flush();
            self.out.drain(t..o_quote);
            drop_escaped_controls(&mut self.fixes, f);
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
            self.flush();
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

/// The end quote of a plain string at `k`: `"…"` with no escape or control character inside, or
/// `'…'` with none of those, no `"`, no backtick and no byte that may start a typographic quote —
/// strings `string` reads in one run, changing nothing but the quotes of a single-quoted one.
#[inline(always)]
fn plain_string_end(b: &[u8], k: usize) -> Option<usize> {
    let (quote, e) = match b.get(k) {
        Some(b'"') => (b'"', plain_run_end(b, k + 1)),
        Some(b'\'') => (b'\'', single_run_end(b, k + 1)),
        _ => return None,
    };
    (b.get(e) == Some(&quote)).then_some(e)
}

/// The end quote of a plain key at `k` (see [`plain_string_end`]) right before its colon. For
/// such a key the general path (the string, its end-quote judgement — skipped for a key before
/// its colon —, then the colon) changes only the quotes of a single-quoted key and ends after
/// the colon, so the shortcut gives the same answer.
#[inline(always)]
fn plain_key_end(b: &[u8], k: usize) -> Option<usize> {
    let e = plain_string_end(b, k)?;
    (b.get(e + 1) == Some(&b':')).then_some(e)
}

/// Where a plain value at `k` that needs no look-around ends — the comma or closer after it and
/// any ASCII whitespace between them (`(quote, end)`: for a string, `quote` is its end quote) — or
/// `None` to take the general path. Each shape is checked against what the general path does
/// for it (that path also ends at the delimiter: after a value it takes the whitespace, and a
/// comment is not whitespace here):
/// - a number `-?(0|[1-9][0-9]*)(.[0-9]+)?`: `expr::at` rejects it cheaply (no operator after
///   its first byte before the delimiter), `scan_number` ends it at the whitespace or delimiter
///   and `number_fix` keeps it (no leading zero, no `+`, no lone dot, no `_`, not cut);
/// - `true`, `false` or `null`: `expr::at` finds no constant named so, `scan_number` finds
///   nothing, `scan_keyword` keeps it;
/// - a plain string ([`plain_string_end`]) whose end quote `quote_is_inner` would not hold
///   inside (whitespace after the quote, a line break included, is skipped first there too):
///   followed by a closer when no opener is in the string (no bracket balance to keep), or by a
///   comma — in an array that always ends it (no rule for a comma outside an object value), in
///   an object value when a plain key and its colon follow the comma (after whitespace, which
///   it skips too), which is what `quoted_then_colon_or_cut` looks for (the key's end quote lies
///   inside its 256-byte window: the key is checked to be shorter), unless the string opens
///   like JSON written into it ([`json_in_string`]), whose quotes stay inside while its brackets
///   are open. `quote_ends_string` agrees:
///   the delimiter, or the `\n` the spaces before it stop at, is a delimiter.
#[inline(always)]
fn plain_value_end(b: &[u8], k: usize, ctx: Ctx) -> Option<(usize, usize)> {
    match b[k] {
        b'-' | b'0'..=b'9' => {
            let e = plain_number_end(b, k)?;
            Some((e, delimiter_after_ws(b, e)?))
        }
        b't' if b[k..].starts_with(b"true") => Some((k + 4, delimiter_after_ws(b, k + 4)?)),
        b'f' if b[k..].starts_with(b"false") => Some((k + 5, delimiter_after_ws(b, k + 5)?)),
        b'n' if b[k..].starts_with(b"null") => Some((k + 4, delimiter_after_ws(b, k + 4)?)),
        b'"' | b'\'' => {
            let e = plain_string_end(b, k)?;
            if ctx == Ctx::ObjValue && b[k + 1..].starts_with(b"```") {
                return None;
            }
            let d = delimiter_after_ws(b, e + 1)?;
            match b[d] {
                b'}' | b']' => {
                    (!b[k + 1..e].iter().any(|c| matches!(c, b'(' | b'[' | b'{'))).then_some((e, d))
                }
                _ => match ctx {
                    Ctx::Element => Some((e, d)),
                    // JSON written into the string keeps its quotes inside while its brackets
                    // are open (`quote_is_inner`): the general path judges it.
                    Ctx::ObjValue if json_in_string(b, k + 1) => None,
                    Ctx::ObjValue => {
                        let n = ws_end(b, d + 1);
                        let key_end = plain_key_end(b, n)?;
                        (key_end - n < 200).then_some((e, d))
                    }
                    _ => None,
                },
            }
        }
        _ => None,
    }
}

/// The end of a number `-?(0|[1-9][0-9]*)(.[0-9]+)?` at `k` (see [`plain_value_end`]).
#[inline(always)]
fn plain_number_end(b: &[u8], k: usize) -> Option<usize> {
    let digits_end = |mut e: usize| {
        while b.get(e).is_some_and(u8::is_ascii_digit) {
            e += 1;
        }
        e
    };
    let mut e = k + usize::from(b[k] == b'-');
    match b.get(e)? {
        b'0' => e += 1,
        b'1'..=b'9' => e = digits_end(e + 1),
        _ => return None,
    }
    if b.get(e) == Some(&b'.') {
        let f = digits_end(e + 1);
        if f == e + 1 {
            return None;
        }
        e = f;
    }
    Some(e)
}

/// The `,` `}` or `]` after the ASCII whitespace from `k`, if that is what follows.
#[inline(always)]
fn delimiter_after_ws(b: &[u8], k: usize) -> Option<usize> {
    let d = ws_end(b, k);
    matches!(b.get(d), Some(b',' | b'}' | b']')).then_some(d)
}

/// The end of a run of plain string bytes from `k` in a single-quoted string: the first byte
/// `string` handles one at a time (`"`, `\\`, a control character, `'`, a backtick, or a byte
/// that may start a typographic quote), or the end of input.
#[inline]
fn single_run_end(b: &[u8], mut k: usize) -> usize {
    while k < b.len() && !matches!(b[k], b'"' | b'\\' | 0..0x20 | b'\'' | b'`' | 0xC2 | 0xE2) {
        k += 1;
    }
    k
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
pub(super) fn plain_run_end(b: &[u8], mut k: usize) -> usize {
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
