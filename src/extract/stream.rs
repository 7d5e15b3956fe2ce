//! Streaming extraction: feed model output token by token, get content as soon as it cannot be
//! the start of a marker and each call as soon as its envelope is complete.

use super::finish::Finisher;
use super::scan::Scanner;
use super::{Call, Extraction, Options, Rejected};

/// Something the stream can report before the output is complete.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// Text to show (never part of a marker).
    Content(String),
    /// Thinking text.
    Reasoning(String),
    /// A complete call (the agent may stop generation here).
    Call(Call),
    /// A complete call refused for its name.
    Rejected(Rejected),
}

/// Incremental [`super::extract`]: `push` text as it arrives, `finish` for the result, which is
/// the one [`super::extract`] gives for the whole text.
///
/// Total work is linear in the text: markers are searched only in new text, and a partial
/// envelope is parsed again only when its end marker (or its closing bracket) arrives, with a
/// geometric back-off otherwise.
///
/// ```
/// use toolmend::extract::{Event, Options, StreamExtractor};
/// let mut s = StreamExtractor::new(&Options::default());
/// let mut calls = 0;
/// for piece in ["Hi <tool_", "call>{\"name\": \"ls\", \"argu", "ments\": {}}</tool_call>"] {
///     calls += s.push(piece).iter().filter(|e| matches!(e, Event::Call(_))).count();
/// }
/// assert_eq!(calls, 1);
/// assert_eq!(s.finish().calls[0].name, "ls");
/// ```
pub struct StreamExtractor {
    buf: String,
    scanner: Scanner,
    fin: Finisher,
}

impl StreamExtractor {
    /// A stream with these options.
    #[must_use]
    pub fn new(opts: &Options) -> Self {
        Self {
            buf: String::new(),
            scanner: Scanner::new(opts),
            fin: Finisher::new(opts),
        }
    }

    /// How many complete calls so far repeated an earlier call exactly (such a call is reported
    /// once; a model writing the same call again and again is looping — the agent stops it).
    #[must_use]
    pub fn repeats(&self) -> usize {
        self.fin.repeats()
    }

    /// Adds text; returns what became certain.
    pub fn push(&mut self, chunk: &str) -> Vec<Event> {
        self.buf.push_str(chunk);
        let mut events = Vec::new();
        let (buf, fin) = (&self.buf, &mut self.fin);
        self.scanner.advance(buf, false, &mut |p| {
            fin.piece(buf, p, &mut events);
        });
        events
    }

    /// Ends the stream; returns the same result as [`super::extract`] on all the text pushed.
    #[must_use]
    pub fn finish(mut self) -> Extraction {
        let (buf, fin) = (&self.buf, &mut self.fin);
        self.scanner.advance(buf, true, &mut |p| {
            fin.absorb(buf, p);
        });
        self.fin.into_extraction()
    }

    /// Ends the stream like [`Self::finish`], and also returns the events it still held, in text
    /// order: with the events `push` returned they are the whole output in order (the content
    /// events concatenated and trimmed are `content`, the calls are `calls`).
    #[must_use]
    pub fn finish_with_events(mut self) -> (Vec<Event>, Extraction) {
        let mut events = Vec::new();
        let (buf, fin) = (&self.buf, &mut self.fin);
        self.scanner.advance(buf, true, &mut |p| {
            fin.piece(buf, p, &mut events);
        });
        self.fin.end(&mut events);
        (events, self.fin.into_extraction())
    }

    /// The text pushed so far.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.buf
    }
}
