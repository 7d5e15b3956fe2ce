//! Finding the calls in one turn's text, and deciding while it streams when to stop generating.
//!
//! [`find`] returns every call written as a JSON object with a `name` and an `arguments` (or
//! `parameters`) key — bare, in a ```` ```json ```` fence, or inside `<tool_call>` tags — with its
//! byte span, and the text outside calls as content. [`Watcher`] is fed the text chunk by chunk and
//! says when generation should stop: once at least one call is complete and what follows it can
//! no longer be another call (prose, junk), or once the per-turn call limit is reached. Several
//! calls on consecutive lines are therefore all collected, and a model that keeps generating after
//! its call (Gemma 270M does, until the token limit) is cut off right after it.

use std::ops::Range;

use serde_json::Value;

/// One call found in text.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The tool name as written.
    pub name: String,
    /// The arguments object.
    pub arguments: Value,
    /// Byte span of the call object in the text.
    pub span: Range<usize>,
    /// The call as written.
    pub raw: String,
}

/// Everything found in one turn's text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Findings {
    /// The calls, in the order written.
    pub calls: Vec<Found>,
    /// The text outside the calls and their wrappers, trimmed.
    pub content: String,
}

/// The outcome of trying to read a call object at one `{`.
enum Probe {
    /// A complete call object ending at this byte offset.
    Call(Found),
    /// A complete JSON value that is not a call; scanning resumes after it.
    NotACall(usize),
    /// The text ends inside the value: it may still become a call.
    Incomplete,
    /// Not JSON from here.
    Invalid,
}

fn probe(text: &str, start: usize) -> Probe {
    let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
    match stream.next() {
        Some(Ok(v)) => {
            let end = start + stream.byte_offset();
            match as_call(v) {
                Some((name, arguments)) => Probe::Call(Found {
                    name,
                    arguments,
                    span: start..end,
                    raw: text[start..end].to_owned(),
                }),
                None => Probe::NotACall(end),
            }
        }
        Some(Err(e)) if e.is_eof() => Probe::Incomplete,
        _ => Probe::Invalid,
    }
}

fn as_call(v: Value) -> Option<(String, Value)> {
    let Value::Object(mut o) = v else { return None };
    let name = o.get("name")?.as_str()?.to_owned();
    let arguments = o.remove("arguments").or_else(|| o.remove("parameters"))?;
    // Arguments written as a JSON string holding an object are unwrapped.
    let arguments = match arguments {
        Value::String(s) => serde_json::from_str::<Value>(&s).unwrap_or(Value::String(s)),
        v => v,
    };
    Some((name, arguments))
}

/// Scans `text` from `from`; returns the calls found and where an incomplete value starts, if any.
fn scan(text: &str, from: usize) -> (Vec<Found>, Option<usize>) {
    let mut calls = Vec::new();
    let mut at = from;
    while let Some(off) = memchr::memchr(b'{', &text.as_bytes()[at..]) {
        let start = at + off;
        match probe(text, start) {
            Probe::Call(f) => {
                at = f.span.end;
                calls.push(f);
            }
            Probe::NotACall(end) => at = end,
            Probe::Incomplete => return (calls, Some(start)),
            Probe::Invalid => at = start + 1,
        }
    }
    (calls, None)
}

/// Wrapper text that may sit between or around calls without ending them.
const WRAPPERS: &[&str] = &["<tool_call>", "</tool_call>", "```json", "```"];

/// Finds the calls in a whole turn's text.
#[must_use]
pub fn find(text: &str) -> Findings {
    let (calls, _) = scan(text, 0);
    let mut content = String::new();
    let mut last = 0;
    for c in &calls {
        content.push_str(&text[last..c.span.start]);
        last = c.span.end;
    }
    content.push_str(&text[last..]);
    let content = if calls.is_empty() {
        content
    } else {
        WRAPPERS.iter().fold(content, |acc, w| acc.replace(w, ""))
    };
    Findings {
        calls,
        content: content.trim().to_owned(),
    }
}

/// Watches a streaming turn and decides when to stop generating.
#[derive(Debug, Clone)]
pub struct Watcher {
    text: String,
    /// Where scanning resumes.
    resume: usize,
    /// Complete calls seen so far.
    calls: usize,
    /// End of the last complete call.
    last_end: Option<usize>,
    max_calls: usize,
}

impl Watcher {
    /// A watcher that stops after `max_calls` complete calls at the latest.
    #[must_use]
    pub fn new(max_calls: usize) -> Self {
        Self {
            text: String::new(),
            resume: 0,
            calls: 0,
            last_end: None,
            max_calls: max_calls.max(1),
        }
    }

    /// Complete calls seen so far.
    #[must_use]
    pub fn calls(&self) -> usize {
        self.calls
    }

    /// Feeds one chunk; returns true when generation should stop now.
    pub fn push(&mut self, chunk: &str) -> bool {
        self.text.push_str(chunk);
        let (found, incomplete) = scan(&self.text, self.resume);
        if let Some(last) = found.last() {
            self.last_end = Some(last.span.end);
        }
        self.calls += found.len();
        // Resume at an incomplete value (it is re-read when more text arrives), else at the end.
        self.resume = incomplete.unwrap_or_else(|| self.last_end.unwrap_or(0).max(self.resume));
        if self.calls >= self.max_calls {
            return true;
        }
        match self.last_end {
            Some(end) if incomplete.is_none() => !may_continue(&self.text[end..]),
            _ => false,
        }
    }
}

/// True when `tail` (the text after the last complete call) may still lead to another call:
/// only whitespace, call wrappers, the start of a JSON value, or a prefix of a wrapper.
fn may_continue(tail: &str) -> bool {
    let mut rest = tail.trim_start();
    loop {
        if rest.is_empty() || rest.starts_with('{') {
            return true;
        }
        match WRAPPERS.iter().find(|w| rest.starts_with(**w)) {
            Some(w) => rest = rest[w.len()..].trim_start(),
            None => return WRAPPERS.iter().any(|w| w.starts_with(rest)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(text: &str) -> (bool, usize, usize) {
        let mut w = Watcher::new(4);
        for (i, piece) in crate::backend::scripted::token_chunks(text).enumerate() {
            if w.push(piece) {
                return (true, i, w.calls());
            }
        }
        (false, usize::MAX, w.calls())
    }

    #[test]
    fn finds_bare_fenced_and_tagged_calls_and_keeps_content() {
        let f = find(
            "Sure.\n```json\n{\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}\n```\n{\"name\": \"read\", \"parameters\": \"{\\\"path\\\": \\\"a\\\"}\"}",
        );
        assert_eq!(f.calls.len(), 2);
        assert_eq!(f.calls[0].name, "ls");
        assert_eq!(f.calls[1].arguments["path"], "a");
        assert_eq!(f.content, "Sure.");
        let prose = find("The capital is Paris. {not json} and {\"a\": 1}.");
        assert!(prose.calls.is_empty());
        assert_eq!(
            prose.content,
            "The capital is Paris. {not json} and {\"a\": 1}."
        );
    }

    #[test]
    fn stops_after_a_call_followed_by_junk_but_not_before_a_second_call() {
        let two = "{\"name\": \"ls\", \"arguments\": {}}\n{\"name\": \"read\", \"arguments\": {\"path\": \"a\"}}";
        assert_eq!(feed(two), (false, usize::MAX, 2));
        let (stopped, _, calls) =
            feed("<tool_call>{\"name\": \"ls\", \"arguments\": {}}</tool_call> junk junk junk");
        assert!(stopped);
        assert_eq!(calls, 1);
        assert!(!feed("No call here, just prose { with a brace.").0);
    }

    #[test]
    fn stops_at_the_call_limit() {
        let many = "{\"name\": \"ls\", \"arguments\": {}}\n".repeat(10);
        let (stopped, _, calls) = feed(&many);
        assert!(stopped);
        assert_eq!(calls, 4);
    }
}
