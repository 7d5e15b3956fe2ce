//! Byte classification for the repair parser: quotes (plain and typographic), whitespace (plain and
//! Unicode), delimiters and identifier characters. Everything here is a pure function of a few bytes
//! so the parser can stay a single tight loop over `&[u8]`.

/// The family a quote character belongs to; a string opened by one family is closed by the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quote {
    /// `"`: closed only by `"`.
    Double,
    /// `“` or `”`: closed by any double-quote-like character.
    DoubleLike,
    /// `'`: closed only by `'`.
    Single,
    /// `‘ ’ ` ´`: closed by any single-quote-like character (including `'`).
    SingleLike,
}

impl Quote {
    /// True when `q` (a quote found inside the string) ends a string opened with `self`.
    pub(crate) fn is_end(self, q: Quote) -> bool {
        match self {
            Quote::Double => q == Quote::Double,
            Quote::Single => q == Quote::Single,
            Quote::DoubleLike => matches!(q, Quote::Double | Quote::DoubleLike),
            Quote::SingleLike => matches!(q, Quote::Single | Quote::SingleLike),
        }
    }
}

/// The quote starting at `i`, with its length in bytes.
#[inline]
pub(crate) fn quote_at(b: &[u8], i: usize) -> Option<(Quote, usize)> {
    match *b.get(i)? {
        b'"' => Some((Quote::Double, 1)),
        b'\'' => Some((Quote::Single, 1)),
        b'`' => Some((Quote::SingleLike, 1)),
        0xC2 if b.get(i + 1) == Some(&0xB4) => Some((Quote::SingleLike, 2)),
        0xE2 if b.get(i + 1) == Some(&0x80) => match b.get(i + 2) {
            Some(0x9C | 0x9D) => Some((Quote::DoubleLike, 3)),
            Some(0x98 | 0x99) => Some((Quote::SingleLike, 3)),
            _ => None,
        },
        _ => None,
    }
}

/// True for the four JSON whitespace bytes.
#[inline]
pub(crate) fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// Length of a non-JSON Unicode space (no-break space, en/em spaces, zero-width space, BOM, …)
/// starting at `i`, or 0.
#[inline]
pub(crate) fn special_ws_len(b: &[u8], i: usize) -> usize {
    match b.get(i) {
        Some(0xC2) if b.get(i + 1) == Some(&0xA0) => 2,
        Some(0xE1) if b.get(i + 1) == Some(&0xA0) && b.get(i + 2) == Some(&0x8E) => 3,
        Some(0xE2) => match (b.get(i + 1), b.get(i + 2)) {
            (Some(0x80), Some(0x80..=0x8B | 0xAF)) => 3,
            (Some(0x81), Some(0x9F)) => 3,
            _ => 0,
        },
        Some(0xE3) if b.get(i + 1) == Some(&0x80) && b.get(i + 2) == Some(&0x80) => 3,
        Some(0xEF) if b.get(i + 1) == Some(&0xBB) && b.get(i + 2) == Some(&0xBF) => 3,
        _ => 0,
    }
}

/// Characters that end a value that was not quoted (and mark a quote as a real end quote).
#[inline]
pub(crate) fn is_delimiter(c: u8) -> bool {
    matches!(
        c,
        b',' | b':' | b'[' | b']' | b'/' | b'{' | b'}' | b'(' | b')' | b'\n' | b'+'
    )
}

/// Characters that end an unquoted string.
#[inline]
pub(crate) fn is_unquoted_delimiter(c: u8) -> bool {
    matches!(c, b',' | b'[' | b']' | b'{' | b'}' | b'\n' | b'+')
}

/// First character of a function name (JSONP callback, MongoDB constructor) or identifier.
#[inline]
pub(crate) fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$'
}

/// Character inside a function name or identifier.
#[inline]
pub(crate) fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// True when a value can start at `i`: a quote, a bracket, a digit, a minus or a word character.
#[inline]
pub(crate) fn is_value_start(b: &[u8], i: usize) -> bool {
    match b.get(i) {
        None => false,
        Some(&c) => {
            matches!(c, b'[' | b'{' | b'-' | b'_')
                || c.is_ascii_alphanumeric()
                || quote_at(b, i).is_some()
        }
    }
}

/// The JSON escape of a control character, when it has a short one.
#[inline]
pub(crate) fn short_escape(c: u8) -> Option<&'static str> {
    match c {
        b'\n' => Some("\\n"),
        b'\r' => Some("\\r"),
        b'\t' => Some("\\t"),
        0x08 => Some("\\b"),
        0x0C => Some("\\f"),
        _ => None,
    }
}

/// Length of the UTF-8 sequence starting with byte `c` (1 for ASCII and stray continuation bytes).
#[inline]
pub(crate) fn utf8_len(c: u8) -> usize {
    match c {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// `^(http|https|ftp|mailto|file|data|irc)://` at the start of `s`.
pub(crate) fn is_url_start(s: &[u8]) -> bool {
    const SCHEMES: [&[u8]; 7] = [
        b"http://",
        b"https://",
        b"ftp://",
        b"mailto://",
        b"file://",
        b"data://",
        b"irc://",
    ];
    SCHEMES.iter().any(|p| s.starts_with(p))
}

/// Characters allowed in a URL (RFC 3986 unreserved + reserved).
#[inline]
pub(crate) fn is_url_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-._~:/?#@!$&'()*+;=".contains(&c)
}
