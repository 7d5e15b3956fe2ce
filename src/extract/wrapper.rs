//! Tags a model wraps a call in that no family defines (E24): `<tool_call >` with a space,
//! `<TOOL_CALL>`, `<toolcall>`, `<tool-call>`, `<tool_call/>`, `<tool_call id="1">`,
//! `[TOOL_CALL]`, `<function>`, and the close tags after a call (`</tool_call >`, `<|/tool_call|>`,
//! `[/TOOL_CALL]`). The call inside is found anyway (bare JSON, or the family's own envelope);
//! this module keeps its wrapper out of `content`, where a user would see the tags printed
//! around nothing.
//!
//! It works on the content the finisher is about to release, so a stream and a one-shot reading
//! agree: a tail that may still become a wrapper's opener (a tag whose name is about calls,
//! followed by nothing but whitespace) is held back until the next piece says what it is. Only
//! tags right next to a call count (whitespace between them at most), only names about calls
//! (`tool`, `call`, `func`, `invoke`, `action`, `json`, `code` in them, case and separators
//! ignored), and a held tag is never longer than [`MAX_TAG`] bytes, so the hold is short and the
//! work stays linear.
//!
//! With a tool list it also holds a line that is only a list bullet and the start of a known
//! tool's name (`- rea`): when a Python-style call follows (`- read(path="a.txt")`, found by
//! prose recovery), the line's name and bullet go with the call instead of staying behind as
//! the answer text (E26); and a call wrapper's opener followed by the start of a known tool's
//! name anywhere on a line (`<function>rea`, `[TOOL_CALL] read`), whose tag and name go with the
//! Python-style call that follows.

use super::finish::squash;

/// The longest tag held back (a longer one is prose).
pub(crate) const MAX_TAG: usize = 64;

/// Words that make a tag's name a call wrapper's (in its squashed name).
const CALL_WORDS: &[&str] = &["tool", "call", "func", "invoke", "action", "json", "code"];

/// What a text starts with, read as a wrapper tag.
#[derive(Debug, PartialEq, Eq)]
enum Tag {
    /// A whole tag of `len` bytes; `close` for `</…>`, `<|/…|>`, `[/…]`; `call` when its name is
    /// a call wrapper's.
    Whole { len: usize, close: bool, call: bool },
    /// The text ends inside what may still become a tag.
    Partial,
    /// Not a tag.
    Not,
}

/// Reads the tag `s` starts with: `<` or `<|`, an optional `/`, a name (`[A-Za-z][A-Za-z0-9_.:-]*`,
/// spaces around it allowed), for `<` attributes on the same line and an optional `/`, then `|>`
/// or `>`; or `[`, an optional `/`, a name, `]`.
fn tag(s: &str) -> Tag {
    let b = s.as_bytes();
    let bracket = match b.first() {
        Some(b'<') => false,
        Some(b'[') => true,
        _ => return Tag::Not,
    };
    let cap = b.len().min(MAX_TAG);
    let mut i = 1;
    // Runs `i` on while `ok` holds; the text ending first (within the cap) is a partial tag.
    macro_rules! need {
        () => {
            if i >= cap {
                return if b.len() < MAX_TAG {
                    Tag::Partial
                } else {
                    Tag::Not
                };
            }
        };
    }
    let skip_spaces = |i: &mut usize| {
        while *i < cap && b[*i] == b' ' {
            *i += 1;
        }
    };
    need!();
    let pipe = !bracket && b[i] == b'|';
    if pipe {
        i += 1;
    }
    skip_spaces(&mut i);
    need!();
    let close = b[i] == b'/';
    if close {
        i += 1;
        skip_spaces(&mut i);
        need!();
    }
    if !b[i].is_ascii_alphabetic() {
        return Tag::Not;
    }
    let name_start = i;
    while i < cap && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b':' | b'-')) {
        i += 1;
    }
    let name = &s[name_start..i];
    need!();
    let end = |i: usize| -> Tag {
        let sq = squash(name);
        Tag::Whole {
            len: i,
            close,
            call: CALL_WORDS.iter().any(|w| sq.contains(w)),
        }
    };
    if bracket {
        skip_spaces(&mut i);
        need!();
        return if b[i] == b']' { end(i + 1) } else { Tag::Not };
    }
    // Attributes: anything on the line but brackets, up to the end of the tag.
    while i < cap && !matches!(b[i], b'>' | b'<' | b'\n' | b'|' | b'/') {
        i += 1;
    }
    need!();
    if b[i] == b'/' && !close {
        i += 1;
        need!();
    }
    if pipe {
        if b[i] != b'|' {
            return Tag::Not;
        }
        i += 1;
        need!();
    }
    if b[i] == b'>' { end(i + 1) } else { Tag::Not }
}

/// Where the tail of `s` that may open a wrapper starts (a partial tag, or a whole call
/// wrapper's opener followed by whitespace only); `s.len()` when there is none.
fn opener_tail(s: &str) -> usize {
    let from = floor_boundary(s, s.len().saturating_sub(MAX_TAG + 64));
    let mut best = s.len();
    for lt in s[from..].match_indices(['<', '[']).map(|(i, _)| from + i) {
        let holds = match tag(&s[lt..]) {
            Tag::Partial => true,
            Tag::Whole {
                len,
                close: false,
                call: true,
            } => s[lt + len..].trim().is_empty(),
            _ => false,
        };
        if holds {
            best = lt;
            break;
        }
    }
    best
}

/// The content filter that keeps call wrappers out of `content` (see the module docs).
#[derive(Debug)]
pub(crate) struct Wrappers {
    /// Content not released yet: a possible opener at the tail, or (right after a call) the
    /// whitespace and partial tag that may close it. Never longer than about two tags.
    held: String,
    /// Right after a call: close tags of call wrappers are dropped.
    closing: bool,
    /// Right after a call, the whitespace since it was longer than [`MAX_TAG`]: it is shown,
    /// not dropped with a close tag (one rule for a stream and a whole text).
    long_gap: bool,
    /// The last call read was taken as a call (not shown as data).
    taken: bool,
    /// The names of the known tools (prose recovery is on): a line that starts with one of them
    /// (after spaces or a list bullet) may start a Python-style call, whose name goes with it.
    names: Vec<String>,
    /// The text shown so far ends at the start of a line (or nothing was shown yet).
    line_start: bool,
}

impl Wrappers {
    /// A filter; `names`: the known tools' names when prose recovery is on (a tool list).
    pub fn new(names: Vec<String>) -> Self {
        Self {
            held: String::new(),
            closing: false,
            long_gap: false,
            taken: false,
            names,
            line_start: true,
        }
    }

    /// Records what is shown and returns it.
    fn shown(&mut self, s: String) -> String {
        if !s.is_empty() {
            self.line_start = s.ends_with('\n');
        }
        s
    }

    /// Where the tail of `s` to hold starts: a wrapper's opener ([`opener_tail`]) or the start
    /// of a line holding only a list bullet and a (part of a) known tool's name
    /// ([`Self::name_tail`]); `s.len()` when there is none. `line_start`: `s` starts a line.
    fn tail(&self, s: &str, line_start: bool) -> usize {
        match opener_tail(s) {
            cut if cut < s.len() => cut,
            _ => self.name_tail(s, line_start),
        }
    }

    /// The start of `s`'s last line when that line is only a lead (spaces, a list bullet) and
    /// the beginning of a known tool's name (`- rea`, `read`): a Python-style call may follow,
    /// and a call alone on its line takes its name (and bullet) out of the content (E26).
    fn name_tail(&self, s: &str, line_start: bool) -> usize {
        if self.names.is_empty() {
            return s.len();
        }
        let known = |w: &str| !w.is_empty() && self.names.iter().any(|n| n.starts_with(w));
        // A call wrapper's opener and the start of a known tool's name (`<function>rea`,
        // `[TOOL_CALL] read`), anywhere on a line: the tag says a call comes.
        let from = floor_boundary(s, s.len().saturating_sub(MAX_TAG + 64));
        if let Some(lt) = s[from..]
            .match_indices(['<', '['])
            .map(|(i, _)| from + i)
            .find(|&lt| wrapped_word(&s[lt..]).is_some_and(known))
        {
            return lt;
        }
        let k = match s.rfind('\n') {
            Some(i) => i + 1,
            None if line_start => 0,
            None => return s.len(),
        };
        let line = &s[k..];
        if line.len() > MAX_TAG {
            return s.len();
        }
        let fits = line_word(line).is_some_and(|w| w.is_empty() || known(w));
        if fits && !line.is_empty() { k } else { s.len() }
    }

    /// Content arrives; returns what can be shown now (the rest is held).
    pub fn content(&mut self, s: &str) -> String {
        if self.held.is_empty() && !self.closing {
            let cut = self.tail(s, self.line_start);
            self.held = s[cut..].to_owned();
            return self.shown(s[..cut].to_owned());
        }
        let mut t = std::mem::take(&mut self.held);
        t.push_str(s);
        let mut out = String::new();
        let mut from = 0;
        while self.closing {
            let rest = &t[from..];
            let ws = rest.len() - rest.trim_start().len();
            if ws > MAX_TAG || self.long_gap {
                // A long run of whitespace is shown, and so is any that follows it.
                self.long_gap = true;
                out.push_str(&rest[..ws]);
                from += ws;
            }
            let rest = &t[from..];
            let ws = rest.len() - rest.trim_start().len();
            let r = &rest[ws..];
            if r.is_empty() {
                self.held = rest.to_owned();
                return out;
            }
            match tag(r) {
                Tag::Whole {
                    len,
                    close: true,
                    call: true,
                } => from += ws + len,
                Tag::Partial => {
                    self.held = rest.to_owned();
                    return out;
                }
                _ => {
                    self.closing = false;
                    self.long_gap = false;
                }
            }
        }
        let line_start = if out.is_empty() {
            self.line_start
        } else {
            out.ends_with('\n')
        };
        let rest = &t[from..];
        let cut = self.tail(rest, line_start);
        out.push_str(&rest[..cut]);
        self.held = rest[cut..].to_owned();
        self.shown(out)
    }

    /// A call arrives: returns the held text to show before it (nothing when it is the call's
    /// opener) and the opener taken as the call's (empty when none). `named`: the call's own
    /// text starts with this name (a Python-style call in prose), which a held line holding
    /// just that name is.
    pub fn call(&mut self, named: Option<&str>) -> (String, String) {
        self.closing = false;
        self.long_gap = false;
        let held = std::mem::take(&mut self.held);
        if named.is_some() && line_word(&held) == named {
            return (String::new(), held);
        }
        if named.is_some() && wrapped_word(&held) == named {
            let ws = held.len() - held.trim_start().len();
            return (self.shown(held[..ws].to_owned()), held[ws..].to_owned());
        }
        match tag(held.trim_start()) {
            Tag::Whole {
                close: false,
                call: true,
                ..
            } => {
                let ws = held.len() - held.trim_start().len();
                (self.shown(held[..ws].to_owned()), held[ws..].to_owned())
            }
            _ => (self.shown(held), String::new()),
        }
    }

    /// The call was read; `shown`: its text stays content (data, E8), so its close tag does too.
    pub fn called(&mut self, shown: bool) {
        self.closing = !shown;
        self.taken = !shown;
        self.long_gap = false;
    }

    /// Something other than content comes next (reasoning): everything held is shown.
    pub fn release(&mut self) -> String {
        self.closing = false;
        self.long_gap = false;
        let held = std::mem::take(&mut self.held);
        self.shown(held)
    }

    /// The output ended. A partial close tag right after a call (cut off) and a call wrapper's
    /// opener with nothing after it once a call was read (the model closing with its opener, or
    /// an empty envelope) are not shown; anything else held is, and so is all of it when the
    /// last call was shown as data.
    pub fn end(&mut self) -> String {
        let held = std::mem::take(&mut self.held);
        let closing = std::mem::replace(&mut self.closing, false);
        self.long_gap = false;
        let t = held.trim();
        let drop = match tag(t) {
            Tag::Partial => {
                closing && t.starts_with(['<', '[']) && t[1..].trim_start().starts_with(['/', '|'])
            }
            Tag::Whole {
                len,
                close: false,
                call: true,
            } => self.taken && len == t.len(),
            _ => false,
        };
        if drop {
            String::new()
        } else {
            self.shown(held)
        }
    }
}

/// The word after a call wrapper's opener (`<function>read`, `[TOOL_CALL] rea`: whitespace
/// between them allowed) when `s`, leading whitespace aside, is exactly those two; `Some("")` for the
/// opener alone.
fn wrapped_word(s: &str) -> Option<&str> {
    let s = s.trim_start();
    let Tag::Whole {
        len,
        close: false,
        call: true,
    } = tag(s)
    else {
        return None;
    };
    let w = s[len..].trim_start();
    w.chars().all(super::scan::is_name_char).then_some(w)
}

/// The first char boundary of `s` at or after `i`.
fn floor_boundary(s: &str, i: usize) -> usize {
    (i..s.len())
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(s.len())
}

/// The word a line holds after its lead (spaces, then at most one list bullet — `-` `*` `+` `•`
/// or a number with `.` or `)` — and spaces): `Some("")` for a lead alone, `None` when the line
/// holds anything else (name characters only make the word).
fn line_word(line: &str) -> Option<&str> {
    let l = line.trim_start_matches([' ', '\t']);
    let l = match l.strip_prefix(['-', '*', '+', '•']) {
        Some(r) => r,
        None => {
            let d = l.len() - l.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            match l[d..].strip_prefix(['.', ')']) {
                Some(r) if d > 0 => r,
                _ => l,
            }
        }
    };
    let l = l.trim_start_matches([' ', '\t']);
    l.chars().all(super::scan::is_name_char).then_some(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_read() {
        let whole = |len, close, call| Tag::Whole { len, close, call };
        assert_eq!(tag("<tool_call >x"), whole(12, false, true));
        assert_eq!(tag("</TOOL-CALL>"), whole(12, true, true));
        assert_eq!(tag("<tool_call/>"), whole(12, false, true));
        assert_eq!(tag("<tool_call id=\"1\">"), whole(18, false, true));
        assert_eq!(tag("<|/tool_call|>"), whole(14, true, true));
        assert_eq!(tag("[/TOOL_CALL]"), whole(12, true, true));
        assert_eq!(tag("<div>"), whole(5, false, false));
        assert_eq!(tag("<tool_ca"), Tag::Partial);
        assert_eq!(tag("<"), Tag::Partial);
        assert_eq!(tag("< 3 apples"), Tag::Not);
        assert_eq!(tag("<tool\ncall>"), Tag::Not);
        assert_eq!(tag("[1, 2]"), Tag::Not);
        let long = format!("<tool_call {}>", "x".repeat(80));
        assert_eq!(tag(&long), Tag::Not);
    }

    #[test]
    fn only_a_tail_that_may_open_a_wrapper_is_held() {
        assert_eq!(opener_tail("Sure! <tool_call >\n"), 6);
        assert_eq!(opener_tail("a <b>"), 5);
        assert_eq!(opener_tail("a <tool"), 2);
        assert_eq!(opener_tail("<tool_call> is the tag"), 22);
        // Still short enough to become a tag (`< y>`): held until the next text says.
        assert_eq!(opener_tail("x < y"), 2);
        assert_eq!(opener_tail("x < y\n"), 6);
    }

    #[test]
    fn a_stream_of_single_chars_holds_and_drops_the_wrapper() {
        let mut w = Wrappers::new(Vec::new());
        let mut shown = String::new();
        for c in "Hi <tool_call >\n".chars() {
            shown.push_str(&w.content(&c.to_string()));
        }
        assert_eq!(shown, "Hi ");
        assert_eq!(w.call(None), (String::new(), "<tool_call >\n".to_owned()));
        w.called(false);
        for c in "\n</tool_call > ok".chars() {
            shown.push_str(&w.content(&c.to_string()));
        }
        shown.push_str(&w.end());
        assert_eq!(shown, "Hi  ok");
    }

    #[test]
    fn a_wrapper_and_a_known_name_are_held_together() {
        let mut w = Wrappers::new(vec!["read".to_owned()]);
        let mut shown = String::new();
        for c in "Ok [TOOL_CALL]\n rea".chars() {
            shown.push_str(&w.content(&c.to_string()));
        }
        assert_eq!(shown, "Ok ");
        shown.push_str(&w.content("d"));
        assert_eq!(shown, "Ok ");
        assert_eq!(
            w.call(Some("read")),
            (String::new(), "[TOOL_CALL]\n read".to_owned())
        );
        // Not a known name: shown as it comes.
        let mut w = Wrappers::new(vec!["read".to_owned()]);
        assert_eq!(w.content("<function>wr"), "<function>wr");
    }
}
