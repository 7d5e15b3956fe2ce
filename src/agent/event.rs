//! What the loop reports: the live [`AgentEvent`] stream (serialised as JSON Lines by
//! `toolmend run --json`), the distinct [`EndReason`]s, per-turn timings, and the [`Transcript`]
//! that keeps the raw output of every turn.
//!
//! # Wire format
//! Each event is one JSON object with a `type` tag: `Chunk {text}` (raw output, calls included),
//! `Text {text, reasoning?}` (the part of the output that is not a call, once that is certain),
//! `ToolStart {id, name, args, cut_off?}`, `ToolEnd {id, name, result, sent?, duration_ms}`,
//! `Retry {reason}`, `Looped {unit, repeats}`, `ContextFit {cut, removed, tokens, context}`, `Done {reason, answer, stats}`,
//! `Error {message}`. Every `ToolStart` is
//! followed by exactly one `ToolEnd` with the same `id`;
//! calls that run concurrently (consecutive read-only calls) start together, and their `ToolEnd`s
//! follow in call order; any other call's `ToolEnd` comes before the next `ToolStart`. `Done` is
//! always the last event of a run.

use serde::Serialize;
use serde_json::Value;

use super::toolbox::CallResult;
use crate::backend::{Message, Stats, StopReason};

/// One thing that happened during a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type")]
pub enum AgentEvent {
    /// Generated text, as it streams: the raw output, calls included.
    Chunk {
        /// The text piece.
        text: String,
    },
    /// Generated text that is certain not to be part of a call, as soon as that is certain
    /// (text that may start a call is held back until it is known). What a person should see;
    /// the `Text` events of an answering turn, joined and trimmed, are `Done`'s `answer`.
    Text {
        /// The text piece.
        text: String,
        /// True for thinking text (a think block), false for content.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        reasoning: bool,
    },
    /// A call is about to run (or be answered without running).
    ToolStart {
        /// The call id; the matching `ToolEnd` carries the same one.
        id: String,
        /// The tool name as the model wrote it.
        name: String,
        /// The arguments as given (a string when they were text to repair).
        args: Value,
        /// True when the output was cut off inside this call's arguments: `args` is what
        /// arrived, repaired, and the call is not run (its `ToolEnd` says so).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        cut_off: bool,
    },
    /// A call finished.
    ToolEnd {
        /// The call id of the matching `ToolStart`.
        id: String,
        /// The tool name.
        name: String,
        /// The outcome.
        result: CallResult,
        /// What the model was sent for this call, when that is not `result.output`: a
        /// corrective message grounded in the request (the `read` of the file the user named
        /// as its example, not the tool's fixed one), without the tools this run withholds, or
        /// with a note added (the change the request spells out, made). `None`: the output as
        /// it is. The model may later see less of it (see `ContextFit`), never other words.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sent: Option<String>,
        /// Wall time of the call, in milliseconds.
        duration_ms: f64,
    },
    /// The loop is retrying: a world fault re-run, a corrective message sent, an escalation, or
    /// a reply that was no answer (empty, or an echo of toolmend's message) asked again; the
    /// `Text` shown before it is not the answer.
    Retry {
        /// Why.
        reason: String,
    },
    /// The output was stopped because it kept writing the same text back to back (see
    /// [`super::looping`]). The turn is what came before the second copy: a call still open there
    /// is cut off and not run, and an answer ends with the first copy (`Text` shown after that
    /// is not part of it).
    Looped {
        /// The repeated text (the line that repeats, when it spans a line break), trimmed.
        unit: String,
        /// How many times it was written back to back when the output was stopped.
        repeats: usize,
    },
    /// Tool results were cut or removed so the next request fits the model's context window
    /// with room for the reply (see [`super::fit`]). The `ToolEnd` events carried them whole.
    ContextFit {
        /// Ids of the latest turn's calls whose results the model now sees cut.
        cut: Vec<String>,
        /// Ids of earlier calls whose results were replaced by a note saying they were removed.
        removed: Vec<String>,
        /// Tokens of the next request after the change.
        tokens: u32,
        /// The context window in tokens.
        context: u32,
    },
    /// The run ended.
    Done {
        /// How it ended.
        reason: EndReason,
        /// The final answer's text (the last turn's content outside calls) when the model
        /// answered (`answered`, `answer_cut_off`, `context_full`) or refused (`refused`: the
        /// refusal, shown but no answer), else `null`.
        answer: Option<String>,
        /// Totals over the run.
        stats: RunStats,
    },
    /// Something failed outside the model's control (the backend broke).
    Error {
        /// What happened.
        message: String,
    },
}

/// How a run ended. Each way out has its own reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The model answered in text without calling a tool.
    Answered,
    /// The model answered in text but hit the token limit mid-answer.
    AnswerCutOff,
    /// The model answered in text but the context window filled up mid-answer.
    ContextFull,
    /// The model produced no text and no call.
    EmptyOutput,
    /// The model's last reply only repeated the user's request or a message toolmend sent it,
    /// after it had been asked once already to answer instead: no answer. (The request
    /// restated once the run has changed something counts as the answer: it says what was
    /// done.)
    Echoed,
    /// The model's last reply refused the request without saying anything about it ("I'm
    /// sorry, but I can't assist with that.", see [`super::correct::is_refusal`]), after it was
    /// asked once already to answer from its results or to use the tools — or where no turn
    /// was left to ask in. `Done`'s `answer` holds the refusal, so it can be shown, but it is
    /// no answer.
    Refused,
    /// The turn budget ran out while the model was still calling tools.
    TurnBudget,
    /// The model repeated an identical call after a corrective (or "use the earlier result")
    /// message and a firmer one.
    RepeatedFailure,
    /// The backend failed (unreachable, template error, broken stream).
    BackendError,
    /// The conversation does not fit the context window (nothing was generated for this turn).
    PromptTooLong,
    /// The run was interrupted ([`super::Interrupt`]: Ctrl-C in the CLI, or its output went
    /// away) before it ended otherwise; no call started after that.
    Interrupted,
}

impl EndReason {
    /// A one-line explanation for people.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Self::Answered => "the model answered",
            Self::AnswerCutOff => "the answer was cut off at the token limit (raise --max-tokens)",
            Self::ContextFull => {
                "the answer was cut off: the context window is full (raise --ctx or start a new conversation)"
            }
            Self::EmptyOutput => "the model produced nothing",
            Self::Echoed => "no answer: the model only repeated the request or toolmend's message",
            Self::Refused => "no answer: the model refused the request (it was asked again once)",
            Self::TurnBudget => "the turn budget ran out (raise --turns)",
            Self::RepeatedFailure => {
                "the model kept repeating the same call after being told to stop"
            }
            Self::BackendError => "the backend failed",
            Self::PromptTooLong => {
                "the prompt does not fit the context window (raise --ctx or start a new conversation)"
            }
            Self::Interrupted => "interrupted",
        }
    }
}

/// Timings of one turn: generation versus toolmend's own work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct TurnTiming {
    /// Prompt evaluation, milliseconds.
    pub prompt_ms: f64,
    /// Token generation, milliseconds.
    pub generation_ms: f64,
    /// Watching the stream and extracting calls, milliseconds.
    pub extract_ms: f64,
    /// Repair, decode, validation, policy and the loop's bookkeeping around the calls,
    /// milliseconds: dispatch without the tools' own run time.
    pub dispatch_ms: f64,
    /// The tools' own run time (wall time spent waiting for them to run, retries and their
    /// back-off included; concurrent calls overlap), milliseconds. Not toolmend's work, so not
    /// in [`TurnTiming::overhead_share`].
    pub tools_ms: f64,
}

impl TurnTiming {
    /// toolmend's own time (extract + repair + decode + dispatch, without the tools' run time)
    /// as a fraction of generation time; `None` when nothing was generated.
    #[must_use]
    pub fn overhead_share(&self) -> Option<f64> {
        (self.generation_ms > 0.0)
            .then(|| (self.extract_ms + self.dispatch_ms) / self.generation_ms)
    }
}

/// Totals over a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct RunStats {
    /// Model turns generated.
    pub turns: u32,
    /// Calls handled (run, answered from an earlier result, or refused).
    pub calls: u32,
    /// Calls that failed.
    pub failed_calls: u32,
    /// Prompt tokens over all turns.
    pub prompt_tokens: u64,
    /// Generated tokens over all turns.
    pub generated_tokens: u64,
    /// Summed timings.
    pub timing: TurnTiming,
}

impl RunStats {
    /// Prompt tokens per second over the run, when measurable.
    #[must_use]
    pub fn prompt_tps(&self) -> Option<f64> {
        #[allow(clippy::cast_precision_loss)]
        (self.timing.prompt_ms > 0.0)
            .then(|| self.prompt_tokens as f64 / (self.timing.prompt_ms / 1e3))
    }

    /// Generated tokens per second over the run, when measurable (some tokens were generated).
    #[must_use]
    pub fn generation_tps(&self) -> Option<f64> {
        #[allow(clippy::cast_precision_loss)]
        (self.timing.generation_ms > 0.0 && self.generated_tokens > 0)
            .then(|| self.generated_tokens as f64 / (self.timing.generation_ms / 1e3))
    }
}

/// How one call of a turn was handled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallRecord {
    /// The call id.
    pub id: String,
    /// The tool name as written.
    pub name: String,
    /// The arguments as given.
    pub args: Value,
    /// True when the backend reported the call natively.
    pub native: bool,
    /// What happened to it.
    pub result: CallResult,
    /// The message fed back to the model for it.
    pub feedback: String,
}

/// One model turn, kept whole.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnRecord {
    /// 1-based turn number.
    pub turn: u32,
    /// The nudge added to this turn's request, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nudge: Option<String>,
    /// True when this turn offered no tools, so that the model answers: the last turn, or the
    /// one after the model asked a third time for a result it already had.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub answer_only: bool,
    /// The model's raw output, verbatim.
    pub raw: String,
    /// Calls the backend reported natively.
    pub native_calls: usize,
    /// Every call found, in order, with its outcome.
    pub calls: Vec<CallRecord>,
    /// Why generation stopped (`None` when the backend failed).
    pub stop: Option<StopReason>,
    /// The loop the output was stopped in, when it was: the text of `raw` from
    /// `looped.first_end()` on only repeats the first copy and is left out of the conversation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub looped: Option<super::looping::Loop>,
    /// The backend's counts and timings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
    /// Generation versus toolmend's own time.
    pub timing: TurnTiming,
}

/// Everything about one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Transcript {
    /// The backend's name for the model.
    pub model: String,
    /// The user's prompt.
    pub prompt: String,
    /// Every turn, in order.
    pub turns: Vec<TurnRecord>,
    /// The final answer's text (content outside calls), when the model answered, or its
    /// refusal when the run ended [`EndReason::Refused`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// How the run ended.
    pub end: EndReason,
    /// The backend error, when there was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Totals.
    pub stats: RunStats,
    /// The conversation as it was fed to the model (history after the run).
    pub messages: Vec<Message>,
    /// The tools this run did not offer, its request being a question (see
    /// [`super::AgentOptions::questions_read_only`]); empty when every tool was offered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withheld: Vec<String>,
}
