//! The scripted backend: replays recorded model outputs turn by turn, chunked like tokens, so the
//! agent loop can be tested deterministically without a model.
//!
//! Each call to [`Backend::generate`] consumes the next [`ScriptedTurn`]: its text is reported in
//! token-like pieces (a word with its leading space, or one punctuation character), then its native
//! tool calls, then generation ends. The sink can stop early ([`Control::Stop`]), exactly as with a
//! real model. Every request the backend receives is recorded in a [`RequestLog`] so tests can check
//! what the loop fed back (tool results, corrective messages, the turn-budget nudge).
//!
//! A script can also be read from JSON Lines ([`ScriptedBackend::from_jsonl`]): each line is either
//! a JSON string (the raw output of one turn) or an object
//! `{"text": "...", "tool_calls": [{"name", "arguments"}], "error": "...", "max_chunks": N,
//! "overflow": CONTEXT, "chunk_ms": MS}` (see [`ScriptedTurn`]).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use serde::Deserialize;

use super::{
    Backend, BackendError, BoxFuture, Control, Event, NativeToolCall, Request, Sink, Stats,
    StopReason,
};

/// One recorded model turn.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedTurn {
    /// The raw text the model produced.
    #[serde(default)]
    pub text: String,
    /// Calls the backend reports natively (as Ollama's `tool_calls` would), after the text.
    #[serde(default)]
    pub tool_calls: Vec<NativeToolCall>,
    /// When set, generation fails with this message after the text was reported (a broken stream).
    #[serde(default)]
    pub error: Option<String>,
    /// When set, generation ends as if the token limit had been reached after this many chunks.
    #[serde(default)]
    pub max_chunks: Option<usize>,
    /// When set, the request does not fit a context of this many tokens: generation fails with
    /// [`BackendError::ContextOverflow`] before any text (the request's size counted as its
    /// token-like pieces).
    #[serde(default)]
    pub overflow: Option<u32>,
    /// When set, each chunk is reported this many milliseconds after the one before (a slow
    /// model, for tests that interrupt a run).
    #[serde(default)]
    pub chunk_ms: Option<u64>,
}

impl ScriptedTurn {
    /// A turn that only writes `text`.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            ..Self::default()
        }
    }

    /// A turn that reports one native call (with optional accompanying text).
    pub fn native(text: impl Into<String>, name: &str, arguments: serde_json::Value) -> Self {
        Self {
            text: text.into(),
            tool_calls: vec![NativeToolCall {
                id: None,
                name: name.to_owned(),
                arguments,
            }],
            ..Self::default()
        }
    }

    /// A turn that writes `text` and then fails with `message`.
    pub fn failing(text: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            error: Some(message.into()),
            ..Self::default()
        }
    }
}

impl From<&str> for ScriptedTurn {
    fn from(text: &str) -> Self {
        Self::text(text)
    }
}

impl From<String> for ScriptedTurn {
    fn from(text: String) -> Self {
        Self::text(text)
    }
}

/// The requests a [`ScriptedBackend`] received, shared so tests can read them after the backend
/// was moved into an agent.
#[derive(Debug, Clone, Default)]
pub struct RequestLog(Arc<Mutex<Vec<Request>>>);

impl RequestLog {
    /// A copy of every request received so far, in order.
    #[must_use]
    pub fn requests(&self) -> Vec<Request> {
        self.0.lock().map(|r| r.clone()).unwrap_or_default()
    }

    fn push(&self, request: Request) {
        if let Ok(mut r) = self.0.lock() {
            r.push(request);
        }
    }
}

/// A script line that could not be read.
#[derive(Debug, thiserror::Error)]
#[error(
    "script line {line}: {message} (expected a JSON string or {{\"text\": \"...\", \"tool_calls\": [...]}})"
)]
pub struct ScriptError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// A backend that replays recorded outputs.
#[derive(Debug, Clone)]
pub struct ScriptedBackend {
    name: String,
    turns: VecDeque<ScriptedTurn>,
    log: RequestLog,
    /// The context window, when set (see [`ScriptedBackend::with_context`]).
    context: Option<u32>,
}

impl ScriptedBackend {
    /// A backend that answers successive requests with `turns`, in order.
    pub fn new<T: Into<ScriptedTurn>>(turns: impl IntoIterator<Item = T>) -> Self {
        Self {
            name: "scripted".to_owned(),
            turns: turns.into_iter().map(Into::into).collect(),
            log: RequestLog::default(),
            context: None,
        }
    }

    /// Reads a script from JSON Lines (blank lines are skipped).
    ///
    /// # Errors
    /// Returns [`ScriptError`] naming the first line that is neither a JSON string nor a turn
    /// object.
    pub fn from_jsonl(text: &str) -> Result<Self, ScriptError> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Line {
            Text(String),
            Turn(ScriptedTurn),
        }
        let mut turns = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<Line>(line) {
                Ok(Line::Text(t)) => turns.push(ScriptedTurn::text(t)),
                Ok(Line::Turn(t)) => turns.push(t),
                Err(e) => {
                    return Err(ScriptError {
                        line: i + 1,
                        message: e.to_string(),
                    });
                }
            }
        }
        Ok(Self::new(turns))
    }

    /// Renames the backend (the name appears in transcripts).
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Gives the backend a context window of `tokens`, as a model has: a request whose prompt
    /// (counted by [`Backend::prompt_tokens`]: every message's content and call arguments as
    /// token-like pieces) does not fit fails with [`BackendError::ContextOverflow`] before any
    /// text, and [`Backend::context_size`] reports the window.
    #[must_use]
    pub fn with_context(mut self, tokens: u32) -> Self {
        self.context = Some(tokens);
        self
    }

    /// The shared log of requests this backend receives.
    #[must_use]
    pub fn log(&self) -> RequestLog {
        self.log.clone()
    }

    /// How many scripted turns are left.
    #[must_use]
    pub fn remaining(&self) -> usize {
        self.turns.len()
    }

    fn replay(&mut self, request: &Request, sink: &mut Sink<'_>) -> Result<Stats, BackendError> {
        self.log.push(request.clone());
        let turn = self.turns.pop_front().ok_or_else(|| {
            BackendError::Generation(
                "the script has no turn left: add a recorded output for this request".to_owned(),
            )
        })?;
        let mut stats = Stats {
            prompt_tokens: count(request),
            generated_tokens: 0,
            prompt_ms: 0.0,
            generation_ms: 0.0,
            stop: StopReason::EndOfGeneration,
        };
        if let Some(context) = self.context
            && stats.prompt_tokens >= context
        {
            // Not a turn of the script: the same request, cut to fit, gets it next time.
            self.turns.push_front(turn);
            return Err(BackendError::ContextOverflow {
                tokens: stats.prompt_tokens,
                context,
            });
        }
        if let Some(context) = turn.overflow {
            return Err(BackendError::ContextOverflow {
                tokens: stats.prompt_tokens.max(context.saturating_add(1)),
                context,
            });
        }
        let limit = turn.max_chunks.unwrap_or(usize::MAX);
        for piece in token_chunks(&turn.text) {
            if let Some(ms) = turn.chunk_ms {
                std::thread::sleep(std::time::Duration::from_millis(ms));
            }
            if stats.generated_tokens as usize >= limit {
                stats.stop = StopReason::MaxTokens;
                return Ok(stats);
            }
            stats.generated_tokens += 1;
            if sink(Event::Chunk(piece.to_owned())) == Control::Stop {
                stats.stop = StopReason::Stopped;
                return Ok(stats);
            }
        }
        if let Some(message) = turn.error {
            return Err(BackendError::Generation(message));
        }
        for call in turn.tool_calls {
            if sink(Event::ToolCall(call)) == Control::Stop {
                stats.stop = StopReason::Stopped;
                return Ok(stats);
            }
        }
        Ok(stats)
    }
}

impl Backend for ScriptedBackend {
    fn name(&self) -> &str {
        &self.name
    }

    fn generate<'a>(
        &'a mut self,
        request: &'a Request,
        sink: &'a mut Sink<'_>,
    ) -> BoxFuture<'a, Result<Stats, BackendError>> {
        Box::pin(async move { self.replay(request, sink) })
    }

    fn context_size(&self) -> Option<u32> {
        self.context
    }

    fn prompt_tokens(&self, request: &Request) -> Option<u32> {
        Some(count(request))
    }
}

/// A request's size as the scripted backend counts it: the token-like pieces of every message's
/// content and of its calls' arguments.
fn count(request: &Request) -> u32 {
    let n: usize = request
        .messages
        .iter()
        .map(|m| {
            token_chunks(&m.content).count()
                + m.tool_calls
                    .iter()
                    .map(|c| token_chunks(&c.arguments.to_string()).count() + 1)
                    .sum::<usize>()
        })
        .sum();
    saturate(n)
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Splits text into token-like pieces: a run of letters/digits with the whitespace before it, a
/// single other character with the whitespace before it, or trailing whitespace. Concatenating the
/// pieces gives back the text exactly.
pub fn token_chunks(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let ws = rest.len() - rest.trim_start().len();
        let body = &rest[ws..];
        let len = match body.chars().next() {
            None => 0,
            Some(c) if c.is_alphanumeric() => body
                .char_indices()
                .find(|&(_, c)| !c.is_alphanumeric())
                .map_or(body.len(), |(i, _)| i),
            Some(c) => c.len_utf8(),
        };
        let (piece, tail) = rest.split_at(ws + len);
        rest = tail;
        Some(piece)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_concatenate_back_to_the_text() {
        for text in [
            "",
            "  ",
            "Hello, wörld! {\"a\": 1}\n\n",
            "```json\n{\"name\": \"ls\"}\n```",
            "日本語 テキスト",
        ] {
            let pieces: Vec<&str> = token_chunks(text).collect();
            assert_eq!(pieces.concat(), text);
            assert!(pieces.iter().all(|p| !p.is_empty()));
        }
        assert_eq!(
            token_chunks("ab, cd").collect::<Vec<_>>(),
            ["ab", ",", " cd"]
        );
    }

    #[test]
    fn reads_jsonl_scripts_and_names_the_bad_line() {
        let b = ScriptedBackend::from_jsonl(
            "\"plain\"\n\n{\"text\": \"x\", \"tool_calls\": [{\"name\": \"ls\", \"arguments\": \"{}\"}]}\n",
        )
        .unwrap();
        assert_eq!(b.remaining(), 2);
        let err = ScriptedBackend::from_jsonl("\"ok\"\n{\"txt\": 1}\n").unwrap_err();
        assert_eq!(err.line, 2);
    }
}
