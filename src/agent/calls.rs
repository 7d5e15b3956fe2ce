//! Watching a turn as it streams: the text goes through [`StreamExtractor`], and the [`Watcher`]
//! says when generation should stop — once at least one call is complete and content that cannot
//! be part of another call follows it (prose, junk), or once the per-turn call limit is reached
//! (exact repeats of a call count towards it: Qwen2.5-Coder-0.5B wrote one `edit` fourteen times
//! in a turn, until the token limit).
//! Several calls on consecutive lines are therefore all collected, and a model that keeps
//! generating after its call (Gemma 270M does, until the token limit) is cut off right after it.
//! At the end of the turn [`Watcher::finish`] gives the same [`Extraction`] as
//! [`crate::extract::extract`] on the whole text.

use crate::backend::ToolDef;
use crate::extract::{Event, Extraction, Options, StreamExtractor, ToolInfo};

/// Wrapper text that may sit between or around calls without ending a run of calls.
const WRAPPERS: &[&str] = &["<tool_call>", "</tool_call>", "```json", "```"];

/// The extraction options for a turn that offers `defs`: unknown names are rejected (and then
/// answered with the real tools' names), raw-text values are typed from the schemas.
#[must_use]
pub fn options(defs: &[ToolDef]) -> Options {
    Options::new().with_tools(
        defs.iter()
            .map(|d| ToolInfo::new(d.name.clone(), d.parameters.clone()))
            .collect(),
    )
}

/// Feeds a streaming turn to the extractor and decides when to stop generating.
pub struct Watcher {
    stream: StreamExtractor,
    calls: usize,
    max_calls: usize,
    stop: bool,
}

impl Watcher {
    /// A watcher that stops after `max_calls` complete calls written at the latest (exact repeats
    /// included, though each call is reported once).
    #[must_use]
    pub fn new(options: &Options, max_calls: usize) -> Self {
        Self {
            stream: StreamExtractor::new(options),
            calls: 0,
            max_calls: max_calls.max(1),
            stop: false,
        }
    }

    /// Complete calls seen so far (refused names included).
    #[must_use]
    pub fn calls(&self) -> usize {
        self.calls
    }

    /// Feeds one chunk; returns true when generation should stop now.
    pub fn push(&mut self, chunk: &str) -> bool {
        self.push_shown(chunk, &mut |_| {})
    }

    /// Feeds one chunk like [`Self::push`], handing `show` each piece of text that became
    /// certain not to be part of a call (content, or reasoning), in order: what a person should
    /// see of the turn. Text that may still start a call is held back until it is known.
    pub fn push_shown(&mut self, chunk: &str, show: &mut dyn FnMut(Shown)) -> bool {
        for event in self.stream.push(chunk) {
            self.see(event, show);
        }
        self.stop || self.calls + self.stream.repeats() >= self.max_calls
    }

    fn see(&mut self, event: Event, show: &mut dyn FnMut(Shown)) {
        match event {
            Event::Call(_) | Event::Rejected(_) => self.calls += 1,
            Event::Content(text) => {
                if self.calls > 0 && !only_wrappers(&text) {
                    self.stop = true;
                }
                show(Shown::Content(text));
            }
            Event::Reasoning(text) => show(Shown::Reasoning(text)),
        }
    }

    /// Ends the turn: everything found in the whole text.
    #[must_use]
    pub fn finish(self) -> Extraction {
        self.stream.finish()
    }

    /// Ends the turn like [`Self::finish`], handing `show` the text still held back.
    pub fn finish_shown(mut self, show: &mut dyn FnMut(Shown)) -> Extraction {
        let stream = std::mem::replace(&mut self.stream, StreamExtractor::new(&Options::new()));
        let (events, extraction) = stream.finish_with_events();
        for event in events {
            self.see(event, show);
        }
        extraction
    }
}

/// A piece of a turn's text that is certain not to be part of a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// Content (the answer, or prose around calls).
    Content(String),
    /// Thinking text.
    Reasoning(String),
}

/// True when `text` holds nothing but whitespace and call wrappers (or the start of one).
fn only_wrappers(text: &str) -> bool {
    let mut rest = text.trim_start();
    loop {
        if rest.is_empty() {
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

    /// Feeds `text` token by token; returns (stopped, calls seen).
    fn feed(text: &str) -> (bool, usize, Extraction) {
        let mut w = Watcher::new(&Options::new(), 4);
        let mut stopped = false;
        for piece in crate::backend::scripted::token_chunks(text) {
            if w.push(piece) {
                stopped = true;
                break;
            }
        }
        let calls = w.calls();
        (stopped, calls, w.finish())
    }

    #[test]
    fn two_calls_on_two_lines_are_both_collected() {
        let two = "{\"name\": \"ls\", \"arguments\": {}}\n{\"name\": \"read\", \"arguments\": {\"path\": \"a\"}}";
        let (stopped, calls, ex) = feed(two);
        assert!(!stopped);
        assert_eq!(calls, 2);
        assert_eq!(ex.calls.len(), 2);
    }

    #[test]
    fn stops_after_a_call_followed_by_junk() {
        let (stopped, calls, ex) =
            feed("<tool_call>{\"name\": \"ls\", \"arguments\": {}}</tool_call> junk junk junk");
        assert!(stopped);
        assert_eq!(calls, 1);
        assert_eq!(ex.calls[0].name, "ls");
        let (stopped, _, _) =
            feed("```json\n{\"name\": \"ls\", \"arguments\": {}}\n```\nThis lists the folder.");
        assert!(stopped);
    }

    #[test]
    fn prose_never_stops_generation() {
        let (stopped, calls, ex) = feed("No call here, just prose { with a brace.");
        assert!(!stopped);
        assert_eq!(calls, 0);
        assert!(ex.calls.is_empty());
    }

    #[test]
    fn stops_at_the_call_limit() {
        let many: String = (0..10)
            .map(|i| format!("{{\"name\": \"ls\", \"arguments\": {{\"path\": \"{i}\"}}}}\n"))
            .collect();
        let (stopped, calls, _) = feed(&many);
        assert!(stopped);
        assert_eq!(calls, 4);
    }

    /// Found with Qwen2.5-Coder-0.5B (`toolmend eval tasks`, add_line): the same two `edit`
    /// calls written in turn fourteen times, until the 512-token limit. Repeats count towards the
    /// limit; each call is still reported once.
    #[test]
    fn a_call_written_again_and_again_stops_at_the_limit() {
        let a = "{\"name\": \"edit\", \"arguments\": {\"path\": \"t\", \"replace_all\": false}}\n";
        let b = "{\"name\": \"edit\", \"arguments\": {\"path\": \"t\", \"replace_all\": true}}\n";
        let looping = [a, b].repeat(7).concat();
        let mut w = Watcher::new(&Options::new(), 4);
        let mut fed = String::new();
        for piece in crate::backend::scripted::token_chunks(&looping) {
            fed.push_str(piece);
            if w.push(piece) {
                break;
            }
        }
        assert_eq!(
            fed,
            [a, b, a, b].concat().trim_end(),
            "stops at the 4th call written"
        );
        assert_eq!(w.calls(), 2);
        let calls = w.finish().calls;
        assert_eq!(calls.len(), 2);
        // The same text read whole gives the same two calls.
        assert_eq!(
            crate::extract::extract(&looping, &Options::new())
                .calls
                .len(),
            2
        );
    }

    #[test]
    fn wrappers_alone_do_not_end_a_run_of_calls() {
        assert!(only_wrappers("\n```\n"));
        assert!(only_wrappers(" </tool_call>\n<tool_"));
        assert!(!only_wrappers("\nThis lists"));
    }
}
