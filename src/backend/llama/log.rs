//! What llama.cpp says while it loads a model. llama.cpp explains a failed load only in its log
//! ("tensor data is not within the file bounds", "unknown model architecture"), which
//! `llama-cpp-2` routes to `tracing`; with no subscriber installed that text is lost and the
//! error says only "null result". [`capture`] runs the load with a small subscriber of its own
//! (for that thread and that call only, and only when the application has not installed a
//! global one) that keeps the last warnings and errors, to be put into the error message.

use std::fmt::Write as _;
use std::sync::Mutex;

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// Most log lines kept.
const KEEP: usize = 4;
/// Longest line kept, in characters.
const LINE: usize = 300;

/// Keeps the last warnings and errors logged.
#[derive(Default)]
struct Tail {
    lines: Mutex<Vec<String>>,
}

/// Collects an event's `message` field.
struct Message(String);

impl Visit for Message {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.0.push_str(value);
        }
    }
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.0, "{value:?}");
        }
    }
}

impl Subscriber for Tail {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        // `ERROR < WARN < INFO` in `tracing`'s order (more verbose is greater).
        *metadata.level() <= Level::WARN
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut m = Message(String::new());
        event.record(&mut m);
        let line: String = m.0.trim().chars().take(LINE).collect();
        if line.is_empty() {
            return;
        }
        let mut lines = self
            .lines
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if lines.len() == KEEP {
            lines.remove(0);
        }
        lines.push(line);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// Runs `f`, returning its result and the last warnings and errors logged meanwhile (joined
/// with "; ", empty when none were or when the application has its own global subscriber).
pub(super) fn capture<T>(f: impl FnOnce() -> T) -> (T, String) {
    if tracing::dispatcher::has_been_set() {
        return (f(), String::new());
    }
    let tail = std::sync::Arc::new(Tail::default());
    let out = tracing::subscriber::with_default(ArcTail(tail.clone()), f);
    let lines = tail
        .lines
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .join("; ");
    (out, lines)
}

/// A shared [`Tail`] as a subscriber (the caller reads the lines after the call).
struct ArcTail(std::sync::Arc<Tail>);

impl Subscriber for ArcTail {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        self.0.enabled(metadata)
    }
    fn new_span(&self, a: &Attributes<'_>) -> Id {
        self.0.new_span(a)
    }
    fn record(&self, s: &Id, r: &Record<'_>) {
        self.0.record(s, r);
    }
    fn record_follows_from(&self, s: &Id, f: &Id) {
        self.0.record_follows_from(s, f);
    }
    fn event(&self, e: &Event<'_>) {
        self.0.event(e);
    }
    fn enter(&self, s: &Id) {
        self.0.enter(s);
    }
    fn exit(&self, s: &Id) {
        self.0.exit(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_warnings_and_errors_of_the_call_only() {
        let ((), said) = capture(|| {
            tracing::info!("loading");
            for i in 0..6 {
                tracing::warn!("warning {i}");
            }
            tracing::error!("tensor data is not within the file bounds");
        });
        assert_eq!(
            said,
            "warning 3; warning 4; warning 5; tensor data is not within the file bounds"
        );
        let ((), said) = capture(|| ());
        assert_eq!(said, "");
    }
}
