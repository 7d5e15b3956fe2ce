//! JSON repair: turns the broken JSON small models write into valid JSON, reporting every change.
//!
//! The cascade is a strict fast path (valid JSON comes back borrowed and byte-identical), then one
//! tolerant linear pass with an explicit stack (no recursion, at most [`MAX_DEPTH`] levels) that
//! fixes lexical problems and completes truncated structure in the same scan. In front of it, for
//! inputs up to 16 KiB, a quick pass settles valid JSON and the usual breakage of tool-call
//! arguments in one scan, giving exactly the cascade's answer or leaving the input to it. Every change is a
//! [`Fix`] with the input byte offset where it applies; when nothing usable can be recovered the
//! [`RepairError`] says what is wrong, where, and carries a corrective message a small model can
//! act on.
//!
//! # Example: repair a truncated tool call
//!
//! ```
//! use toolmend::repair::{repair, FixKind};
//!
//! let r = repair(r#"{'city': 'Paris', units: "metric", "days": [1, 2,"#).unwrap();
//! assert_eq!(r.text, r#"{"city": "Paris", "units": "metric", "days": [1, 2]}"#);
//! assert!(r.fixes.iter().any(|f| f.kind == FixKind::InsertedCloser));
//! ```
//!
//! # Example: valid JSON is borrowed unchanged
//!
//! ```
//! use std::borrow::Cow;
//! let r = toolmend::repair::repair(r#"{"a": [1, 2]}"#).unwrap();
//! assert!(matches!(r.text, Cow::Borrowed(_)) && r.fixes.is_empty());
//! ```
//!
//! Choices made where the peer suites disagree are documented in `corpus/repair/CHOICES.md`.

mod expr;
mod fix;
mod lexer;
mod parser;
mod quick;
mod stream;

use std::borrow::Cow;

pub use fix::{Fix, FixKind};
pub use parser::MAX_DEPTH;
pub use stream::StreamRepairer;

/// The result of a successful repair: valid JSON text and the list of changes made to get there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired<'a> {
    /// Valid JSON. Borrowed (and byte-identical to the input) when the input was already valid.
    pub text: Cow<'a, str>,
    /// Every change repair made, in input order. Empty when the input was valid.
    pub fixes: Vec<Fix>,
}

/// Why repair could not produce JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RepairError {
    /// The input ends before a value could be completed (for example it is empty).
    #[error("input is cut off at byte {at}: {message}")]
    Truncated {
        /// Byte offset where the input ends.
        at: usize,
        /// What was expected.
        message: String,
    },
    /// The input is not JSON and cannot be repaired into JSON.
    #[error("invalid JSON at byte {at}: {message}")]
    Invalid {
        /// Byte offset of the problem.
        at: usize,
        /// What is wrong and the one fix.
        message: String,
    },
    /// The input exceeds a limit of the repairer (nesting deeper than [`MAX_DEPTH`]).
    #[error("limit exceeded at byte {at}: {message}")]
    LimitExceeded {
        /// Byte offset where the limit was hit.
        at: usize,
        /// Which limit, and how to stay within it.
        message: String,
    },
}

impl RepairError {
    /// Byte offset in the input where the problem is.
    #[must_use]
    pub fn at(&self) -> usize {
        match self {
            RepairError::Truncated { at, .. }
            | RepairError::Invalid { at, .. }
            | RepairError::LimitExceeded { at, .. } => *at,
        }
    }

    /// The error kind as a stable snake_case word: `truncated`, `invalid` or `limit_exceeded`
    /// (the `error` field of `toolmend repair --jsonl`).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            RepairError::Truncated { .. } => "truncated",
            RepairError::Invalid { .. } => "invalid",
            RepairError::LimitExceeded { .. } => "limit_exceeded",
        }
    }

    /// A message a small model can act on: what is wrong, where (line, column and the text
    /// around it in `input`, the text that was repaired), and the one fix.
    ///
    /// ```
    /// let input = "{\"a\": \"\\uZZZZ\"}";
    /// let err = toolmend::repair::repair(input).unwrap_err();
    /// let msg = err.corrective_message(input);
    /// assert!(msg.contains("line 1, column 8"), "{msg}");
    /// ```
    #[must_use]
    pub fn corrective_message(&self, input: &str) -> String {
        let at = self.at().min(input.len());
        let at = (0..=at)
            .rev()
            .find(|&k| input.is_char_boundary(k))
            .unwrap_or(0);
        let before = &input[..at];
        let line = before.bytes().filter(|&c| c == b'\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        let from = (0..=at.saturating_sub(20))
            .rev()
            .find(|&k| input.is_char_boundary(k))
            .unwrap_or(0);
        let to = (at + 20).min(input.len());
        let to = (to..=input.len())
            .find(|&k| input.is_char_boundary(k))
            .unwrap_or(input.len());
        let (what, fix) = match self {
            RepairError::Truncated { message, .. } => (
                format!("your JSON is cut off: {message}"),
                "send the complete JSON again, closing every string, `}` and `]`",
            ),
            RepairError::Invalid { message, .. } => (
                format!("your JSON is invalid: {message}"),
                "send the corrected JSON again",
            ),
            RepairError::LimitExceeded { message, .. } => (
                format!("your JSON is too large: {message}"),
                "send a smaller, flatter JSON value",
            ),
        };
        format!(
            "{what} (line {line}, column {column}, near {:?}); {fix}",
            &input[from..to]
        )
    }
}

/// Repairs `input` into valid JSON.
///
/// Valid JSON comes back borrowed with no fixes, at any nesting depth (the strict check is
/// `serde_json`'s iterative validator); broken input nested deeper than [`MAX_DEPTH`] is refused.
/// Otherwise one tolerant pass writes valid JSON and records every [`Fix`]; its output parses with
/// `serde_json` and repairing it again changes nothing. Small inputs first go through a quick pass
/// that gives the same answer in a single scan when their breakage is a common one.
///
/// # Errors
/// [`RepairError::Truncated`] when the input is empty, [`RepairError::Invalid`] when it holds no
/// JSON value that can be recovered (prose, an invalid `\u` escape, a raw NUL in a string, a key
/// without a value in the middle of an object), [`RepairError::LimitExceeded`] when it nests deeper
/// than [`MAX_DEPTH`].
pub fn repair(input: &str) -> Result<Repaired<'_>, RepairError> {
    repair_counting_steps(input).0
}

/// Like [`repair`], also returning the number of steps the tolerant pass took (0 on the fast
/// path). The step count is what the linearity tests bound: `steps ≤ k · input.len()`.
pub fn repair_counting_steps(input: &str) -> (Result<Repaired<'_>, RepairError>, u64) {
    if let Some((r, steps)) = quick::run(input) {
        return (Ok(r), steps);
    }
    full_cascade(input)
}

/// `text` repaired and parsed into a value; `None` when repair fails. For callers that want the
/// arguments a model meant and not the report of what was fixed.
pub(crate) fn repaired_value(text: &str) -> Option<serde_json::Value> {
    repair(text)
        .ok()
        .and_then(|r| serde_json::from_str(&r.text).ok())
}

/// The quick pass alone: `Some` with exactly what [`repair`] returns when the quick pass settles
/// `input`, `None` when it leaves it to the full cascade. For the equality checks (tests, fuzz
/// target and benches); use [`repair`].
#[doc(hidden)]
#[must_use]
pub fn repair_quick_only(input: &str) -> Option<Repaired<'_>> {
    quick::run(input).map(|(r, _)| r)
}

/// The full cascade alone (strict check, then the tolerant pass), without the quick pass: the
/// reference the quick pass is checked against. For the equality checks; use [`repair`].
///
/// # Errors
/// As [`repair`].
#[doc(hidden)]
pub fn repair_full_cascade(input: &str) -> Result<Repaired<'_>, RepairError> {
    full_cascade(input).0
}

fn full_cascade(input: &str) -> (Result<Repaired<'_>, RepairError>, u64) {
    if serde_json::from_str::<serde::de::IgnoredAny>(input).is_ok() && !has_lone_surrogate(input) {
        return (
            Ok(Repaired {
                text: Cow::Borrowed(input),
                fixes: Vec::new(),
            }),
            0,
        );
    }
    let (res, steps) = parser::Parser::new(input).run();
    let res = res.map(|(text, fixes)| {
        if text == input {
            Repaired {
                text: Cow::Borrowed(input),
                fixes: Vec::new(),
            }
        } else {
            Repaired {
                text: Cow::Owned(text),
                fixes,
            }
        }
    });
    (res, steps)
}

/// The end of a run of plain bytes from `k` inside a double-quoted JSON string: the first `"`,
/// `\` or control character, or the end of `b` (eight bytes at a time). The quick pass's string
/// scan, exposed for the benches' validator floor (`benches/support/floor.rs`); not part of the
/// API.
#[doc(hidden)]
#[must_use]
#[inline]
pub fn string_run_end(b: &[u8], k: usize) -> usize {
    quick::plain_run_end(b, k)
}

/// Whether `input` (already valid JSON syntax) holds a `\uD800`–`\uDFFF` escape that is not part
/// of a surrogate pair: serde_json's validator accepts it, but no JSON reader can turn it into a
/// string. Ordinary input pays one `memmem` scan for `\u`; each hit is checked exactly (a `\u`
/// after an escaped backslash, as in `"C:\\ud8"`, is no escape).
fn has_lone_surrogate(input: &str) -> bool {
    let b = input.as_bytes();
    // The code unit of a real `\uXXXX` escape starting at `k` (the backslash).
    let unit = |k: usize| -> Option<u32> {
        if b.get(k..k + 2)? != b"\\u" {
            return None;
        }
        let run = b[..k].iter().rev().take_while(|&&c| c == b'\\').count();
        if run % 2 == 1 {
            return None;
        }
        let hex = std::str::from_utf8(b.get(k + 2..k + 6)?).ok()?;
        u32::from_str_radix(hex, 16).ok()
    };
    let high = |u: u32| (0xD800..0xDC00).contains(&u);
    let low = |u: u32| (0xDC00..0xE000).contains(&u);
    // One searcher for every call: building it costs more than searching a tool call's arguments.
    static BACKSLASH_U: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\\u"));
    BACKSLASH_U.find_iter(b).any(|k| match unit(k) {
        Some(u) if high(u) => !unit(k + 6).is_some_and(low),
        Some(u) if low(u) => !(k >= 6 && unit(k - 6).is_some_and(high)),
        _ => false,
    })
}

/// Where a JSON value that starts at byte 0 of `text` (with `{` or `[`) ends: the byte offset just
/// after its matching closer, or `None` when `text` ends first (the value is truncated) or does not
/// start with `{`/`[`.
///
/// Cheap and linear: it matches brackets outside `"…"` strings (honouring `\` escapes) and does not
/// validate anything else, so it also finds the end of broken JSON inside prose. The extractor uses
/// it to cut a candidate out of a model's text before repairing it.
///
/// ```
/// let text = r#"{"a": "}", b: [1, 2]} and then some prose"#;
/// assert_eq!(toolmend::repair::value_extent(text), Some(21));
/// assert_eq!(toolmend::repair::value_extent("{\"a\": [1,"), None);
/// // A backslash at the very end of a string that never closes (fuzz: it read past the end).
/// assert_eq!(toolmend::repair::value_extent("{\"a\\"), None);
/// ```
#[must_use]
pub fn value_extent(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    if !matches!(b.first(), Some(b'{' | b'[')) {
        return None;
    }
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                loop {
                    let k = memchr::memchr2(b'"', b'\\', &b[i..])?;
                    i += k;
                    if b[i] == b'\\' {
                        i += 2;
                        if i >= b.len() {
                            return None;
                        }
                    } else {
                        break;
                    }
                }
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}
