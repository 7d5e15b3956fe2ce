//! The tool loop: generate, extract, repair, decode, dispatch, feed results back, repeat.
//!
//! [`Agent::run`] takes one user prompt through as many model turns as it needs (at most
//! [`AgentOptions::max_turns`], default 8):
//!
//! 1. **Generate.** The backend streams the model's output; each chunk goes to a [`calls::Watcher`]
//!    (a [`crate::extract::StreamExtractor`]) that stops generation as soon as a call is complete and nothing after it can be another call
//!    (or the per-turn call limit is reached), instead of waiting for an end-of-generation token.
//!    Output stuck writing the same text back to back is stopped too ([`looping`]): the turn
//!    keeps what came before the second copy, a call still open there is refused with a message
//!    saying why, and an answer ends with the first copy ([`AgentEvent::Looped`]).
//! 2. **Extract.** The turn's raw text goes through [`crate::extract`] (every envelope family,
//!    bare JSON lines, fenced blocks; arguments repaired); native calls reported by the backend
//!    (Ollama's `tool_calls`, whose arguments may be a broken string) join them.
//! 3. **Dispatch.** Each call goes to the [`Toolbox`], which repairs, decodes and runs it.
//!    - A read-only call identical to one already answered in this run is answered from the
//!      earlier result with a short note, not run again (unless a call since changed something:
//!      any call of a tool that is not read-only may have, unless it was refused before it
//!      ran); sent a third
//!      time it gets a firmer message, a fourth time ends the run
//!      ([`EndReason::RepeatedFailure`]) — unless the same turn holds a call not made before,
//!      which runs (no loop, whatever else the turn repeats).
//!    - A model-fault failure (bad arguments, unknown tool) or a policy refusal (a path outside
//!      the sandbox) is answered with a corrective message that shows one concrete valid call.
//!      If the model sends the identical failing call again, it gets a firmer message with the
//!      exact call shape (unless a call changed something in between: it then runs again, as
//!      the refusal may no longer hold); a third time ends the run with [`EndReason::RepeatedFailure`] instead
//!      of spending the whole budget (again unless the turn holds a new call) — for a
//!      question with results and no turn for the answer yet, after one such turn, without
//!      tools; for a question with no result at all, after toolmend makes the look at what the
//!      request names itself (read-only) and one such turn answers from its output (as it does
//!      for a question answered a second time without a look, no call of the run having
//!      succeeded).
//!    - A world-fault failure (I/O, timeout, a crashing tool) of a tool that is safe to repeat
//!      ([`Toolbox::is_retry_safe`]: read-only or idempotent) is retried
//!      ([`AgentOptions::world_retries`]) before its message goes back, unless the toolbox
//!      retried it already (the dispatch path does); a state-changing tool never runs twice.
//!    - After a policy refusal, or once the change a one-change request spells out is made, the
//!      turn's remaining calls are skipped.
//!    - A call the output cut off inside its arguments (the token limit) is never run, not even
//!      with the arguments that arrived: its result is a `cut_off` failure asking for the whole
//!      call again.
//!    - Consecutive calls of read-only tools ([`Toolbox::is_read_only`]) that repeat nothing
//!      start together and run concurrently ([`Toolbox::call_read_only`]; through the dispatch
//!      path that is one [`crate::dispatch::Dispatcher::dispatch_turn`]); every other call runs
//!      alone and in order. Results and messages go back in call order either way.
//! 4. **Feed back and repeat.** The turn becomes the assistant message the way chat templates
//!    document a turn with calls: the text outside the calls as content, every call as a
//!    `tool_calls` entry (the transcript keeps the raw text); each call's result or corrective
//!    message becomes a tool message answering that call's id. A turn without calls (the answer)
//!    is kept as the raw text. The last turn's request says it is the last
//!    ([`AgentOptions::nudge_turns`] sets how many turns before the end an "N turns left" nudge
//!    starts). A turn without calls ends the run with the model's answer; an empty
//!    one is asked again once a run, with the user's request restated
//!    ([`correct::empty_reply`]), since a small model often stops where it should answer from the
//!    results it just got. The last turn offers no tools (a call there could never be followed
//!    by the answer), nor does the turn after a model asked a third time for a result it has
//!    (stuck repeating a call; without tools the chat template drops its tool-calling frame),
//!    and such a turn's output may not open with a call either ([`GrammarMode::Answer`]: an
//!    embedded model's tokens that would are masked).
//! 5. **Fit the context.** Before each generation, when the backend can count a request's tokens
//!    and knows its window, tool results that would leave too little room for the reply are
//!    removed (earlier turns, oldest first) or cut at a line boundary (the latest turn), each
//!    with a note to the model ([`fit`]); a [`AgentEvent::ContextFit`] says what changed.
//!
//! An [`Interrupt`] (Ctrl-C in the CLI) stops a run early: generation stops at the next piece of
//! output, no further call starts, and the run ends with [`EndReason::Interrupted`]; like a
//! backend failure, it takes the conversation back to before the prompt.
//!
//! Every step is reported as an [`AgentEvent`] (the model's text as raw `Chunk`s and as `Text`
//! once it is certain not to be part of a call; `Done` carries the answer); the [`Transcript`] keeps every turn's raw output,
//! every call and what was fed back, and per-turn timings of generation versus toolmend's own work.

pub mod calls;
pub mod correct;
mod dispatcher;
mod event;
pub mod fit;
pub mod looping;
mod toolbox;

use std::collections::HashMap;
use std::time::{Duration, Instant};

pub use dispatcher::{DispatchToolbox, to_call_result};
pub use event::{AgentEvent, CallRecord, EndReason, RunStats, Transcript, TurnRecord, TurnTiming};
pub use toolbox::{Args, CallFailure, CallResult, Fault, PendingCall, Toolbox, ms};

use crate::backend::{
    Backend, Control, Event, GenerateOptions, GrammarMode, Message, NativeToolCall, Request, Role,
    StopReason,
};
use crate::extract::Extraction;
use crate::repair::repaired_value;

/// Settings of the loop.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentOptions {
    /// Most model turns per prompt.
    pub max_turns: u32,
    /// The nudge is added once this many turns (or fewer) are left: at 1 (the default) only the
    /// last turn's "This is your last turn" message; at 2 and more also "N turns left" before
    /// it. Small models echo that one instead of answering: in the transcripts of `toolmend
    /// eval tasks`, Qwen2.5-Coder-0.5B replied to 40 of 82 "2 turns left" nudges with the nudge
    /// itself.
    pub nudge_turns: u32,
    /// Most calls taken from one turn; generation stops once this many are complete.
    pub max_calls_per_turn: usize,
    /// How many times a call that failed for the world's fault is run again, when its tool is
    /// safe to repeat ([`Toolbox::is_retry_safe`]) and the toolbox did not retry it itself.
    pub world_retries: u32,
    /// Sampling and length settings for each generation. A strict grammar applies to the first
    /// turn of a prompt only; later turns use it lazily, so the model can answer after a result.
    pub generate: GenerateOptions,
    /// A system message placed first in the conversation.
    pub system_prompt: Option<String>,
    /// For a request phrased as a question ([`correct::is_question`]), offer only the tools
    /// that change no local state ([`Toolbox::changes_local_state`]), and refuse a call of one
    /// of the others without running it. Small models call `edit` to "answer" a question
    /// (Qwen2.5-Coder-0.5B, asked which TODO items are open, rewrote one); a question never
    /// needs a file changed. On by default.
    pub questions_read_only: bool,
}

impl Default for AgentOptions {
    fn default() -> Self {
        Self {
            max_turns: 8,
            nudge_turns: 1,
            max_calls_per_turn: 4,
            world_retries: 1,
            generate: GenerateOptions::default(),
            system_prompt: None,
            questions_read_only: true,
        }
    }
}

/// A flag that stops a run early, shared between the agent and whoever may stop it (a Ctrl-C
/// handler, an output that went away). Once set, the run stops generating at the next piece of
/// output (the embedded backend at the next token), starts no further call, and ends with
/// [`EndReason::Interrupted`] after its `Done` event. [`Agent::run`] clears it when it starts.
#[derive(Debug, Clone, Default)]
pub struct Interrupt(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Interrupt {
    /// Asks the run to stop.
    pub fn interrupt(&self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// True once [`Self::interrupt`] was called (and the flag not cleared since).
    #[must_use]
    pub fn is_set(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }

    fn clear(&self) {
        self.0.store(false, std::sync::atomic::Ordering::SeqCst);
    }
}

/// How a call of the model's came to run as another: the change due, or the look.
enum RunAs {
    /// The change due, under a name of the model's own, no tool's ([`Agent::due_as`]).
    Named(String),
    /// The change due, as a no-op of its tool at its place ([`Agent::due_from_no_op`]).
    NoOp,
    /// The look at what the request names, under a made-up name made of the request's words
    /// ([`Agent::look_as`]).
    Look(String),
    /// The look at what the request names, offered and not made, in place of a call of this
    /// tool that a turn of repeats only sent again ([`Agent::look_for_repeats`]).
    Repeat(String),
}

/// What the run remembers about a call it already handled.
struct Seen {
    /// The id of the call that ran (its result message answers this id).
    id: String,
    result: CallResult,
    /// Identical repeats after a model-fault failure, or of a read-only call that succeeded:
    /// one a turn at most — the same call written twice in one turn is one repeat, not a
    /// second step towards ending the run.
    repeats: u32,
    /// The turn whose repeat was counted last.
    counted_turn: u32,
}

impl Seen {
    /// Counts a repeat in `turn` (see [`Seen::repeats`]).
    fn count_repeat(&mut self, turn: u32) {
        if self.repeats == 0 || self.counted_turn != turn {
            self.repeats += 1;
            self.counted_turn = turn;
        }
    }
}

/// A model, its tools, and the conversation so far.
pub struct Agent<B: Backend, T: Toolbox> {
    backend: B,
    tools: T,
    options: AgentOptions,
    history: Vec<Message>,
    calls_made: u64,
    /// Time spent waiting for the toolbox in the current turn (the tools' run time when the
    /// toolbox cannot tell it apart).
    toolbox_wait: Duration,
    interrupt: Interrupt,
    /// The current run's prompt, which grounds the example calls of corrective messages, with
    /// its contractions written out (`correct::expanded`): what the analyses read.
    request: String,
    /// The current run's prompt as the user typed it: what messages restating the request
    /// quote (the model read these words, not the expanded ones).
    typed: String,
    /// For a question asking how many (how long, …), the lines of the results so far that bear
    /// on it ([`correct::bearing`]), set before each turn's calls run: the note on a look
    /// repeated the first time ends with them.
    repeat_bearing: Option<String>,
    /// Set when the model asked a third time for a result it has: the next turn offers no tools.
    answer_next: bool,
    /// The tools the current run does not offer (its request is a question; see
    /// [`AgentOptions::questions_read_only`]).
    withheld: Vec<String>,
    /// The call that makes the change the current run's request spells out in words
    /// ([`Toolbox::change_asked`]), until a call of the run changes something (or a policy
    /// refuses one): shown to a model that goes round in circles instead of making it.
    change_due: Option<String>,
    /// How many changes of the current run were made due after the first, each in another
    /// file the request names ([`Self::next_named_change`]).
    named_changes: usize,
    /// What says the change the current run's request spells out is already so
    /// ([`Toolbox::already_so`]), when no change is due: told to a model that got a call wrong,
    /// repeats one, or answers with nothing changed.
    already: Option<String>,
    /// The calls (`{"name", "arguments"}`) of the conversation that ran under a name the model
    /// made up, or that toolmend made itself ([`Self::make_look`]): made, though no message's calls
    /// hold them (see [`Self::already_made`]).
    ran_under: Vec<serde_json::Value>,
}

impl<B: Backend, T: Toolbox> Agent<B, T> {
    /// An agent with an empty conversation (plus the system prompt, if any).
    pub fn new(backend: B, tools: T, options: AgentOptions) -> Self {
        let history = options
            .system_prompt
            .iter()
            .map(|s| Message::new(Role::System, s.clone()))
            .collect();
        Self {
            backend,
            tools,
            options,
            history,
            calls_made: 0,
            toolbox_wait: Duration::ZERO,
            interrupt: Interrupt::default(),
            request: String::new(),
            typed: String::new(),
            answer_next: false,
            withheld: Vec::new(),
            change_due: None,
            named_changes: 0,
            repeat_bearing: None,
            already: None,
            ran_under: Vec::new(),
        }
    }

    /// The flag that stops this agent's runs early (see [`Interrupt`]).
    #[must_use]
    pub fn interrupt_handle(&self) -> Interrupt {
        self.interrupt.clone()
    }

    /// The conversation so far (kept across runs: `toolmend chat` continues it).
    #[must_use]
    pub fn history(&self) -> &[Message] {
        &self.history
    }

    /// Replaces the toolbox (the conversation is kept: [`Self::reset`] it too for a new task),
    /// so one loaded model can work on several folders in turn.
    pub fn set_tools(&mut self, tools: T) {
        self.tools = tools;
    }

    /// Forgets the conversation (keeps the system prompt), as if the agent were new.
    pub fn reset(&mut self) {
        self.history
            .truncate(usize::from(self.options.system_prompt.is_some()));
        self.ran_under.clear();
    }

    /// The backend.
    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// The toolbox.
    pub fn tools(&self) -> &T {
        &self.tools
    }

    /// The loop's settings.
    #[must_use]
    pub fn options(&self) -> &AgentOptions {
        &self.options
    }

    /// Runs `prompt` to an answer or another end, reporting each step to `on_event`.
    pub async fn run(
        &mut self,
        prompt: &str,
        on_event: &mut (dyn FnMut(&AgentEvent) + Send),
    ) -> Transcript {
        // A prompt whose run fails in the backend is rolled back (see the error branch below).
        let base = self.history.len();
        self.history.push(Message::new(Role::User, prompt));
        // The model reads the user's words as written; the request's analysis reads its
        // contractions written out ("What's" is "What is": see `correct::expanded`).
        let typed = prompt;
        self.typed = prompt.to_owned();
        self.request = correct::expanded(prompt);
        let request = self.request.clone();
        let prompt = request.as_str();
        let ran_base = self.ran_under.len();
        self.answer_next = false;
        self.tools.begin_prompt();
        self.change_due = correct::asks_change(prompt)
            .then(|| self.tools.change_asked(prompt))
            .flatten();
        self.named_changes = 0;
        self.already = (correct::asks_change(prompt) && self.change_due.is_none())
            .then(|| self.tools.already_so(prompt))
            .flatten();
        let mut defs = self.tools.defs();
        // Calls of every tool are found in the output (a withheld one is refused by name).
        let extract_options = calls::options(&defs);
        self.withheld = if self.options.questions_read_only && correct::is_question(prompt) {
            defs.iter()
                .filter(|d| self.tools.changes_local_state(&d.name))
                .map(|d| d.name.clone())
                .collect()
        } else {
            Vec::new()
        };
        defs.retain(|d| !self.withheld.contains(&d.name));
        let mut seen: HashMap<String, Seen> = HashMap::new();
        let mut stats = RunStats::default();
        let mut turns = Vec::new();
        let mut end = EndReason::TurnBudget;
        let mut answer = None;
        let mut error = None;
        let max_turns = self.options.max_turns.max(1);
        self.interrupt.clear();
        // Where the latest turn's tool results start in the history (none yet).
        let mut latest_results = self.history.len();
        // Replies that are no answer, each kind asked again once a run (see `non_answer`).
        let mut asked = NonAnswers::default();
        let mut non_answer_note: Option<String> = None;
        // Set when the message asking again holds what the answer needs: that turn offers no
        // tools (see `NonAnswers::answer_only`).
        let mut answer_only_next = false;
        // Set once a run's repeated failure gave the next turn to the answer.
        let mut last_answer_asked = false;

        for t in 1..=max_turns {
            if self.interrupt.is_set() {
                end = EndReason::Interrupted;
                break;
            }
            let left = max_turns - t + 1;
            // A turn for the answer offers no tools: the last one (a call there could never be
            // followed by the answer), and the one after the model asked a third time for a
            // result it already has. Without tools the chat template drops its tool-calling
            // frame, and a small model stuck repeating a call answers instead.
            let stuck = std::mem::take(&mut self.answer_next);
            let asked_for_answer = std::mem::take(&mut answer_only_next);
            let answer_only = t > 1 && (left == 1 || stuck || asked_for_answer);
            let turns_left =
                (t > 1 && left <= self.options.nudge_turns).then(|| correct::nudge(left));
            let answer_now = (stuck && left > 1).then(|| correct::answer_now(&self.typed));
            // The turn that must answer from the results gets the lines that bear on a
            // question (not on a change: its answer says what changed).
            // Once: a corrective message may show them already (a version or a URL cut short).
            let evidence = (answer_only && !correct::asks_change(prompt))
                .then(|| correct::bearing(&self.evidence(&turns)))
                .flatten()
                .filter(|e| {
                    !non_answer_note
                        .as_deref()
                        .is_some_and(|n| n.contains(e.as_str()))
                });
            let nudge = [non_answer_note.take(), answer_now, turns_left, evidence]
                .into_iter()
                .flatten()
                .reduce(|a, b| format!("{a} {b}"));
            let offered = if answer_only {
                Vec::new()
            } else {
                defs.clone()
            };
            let mut options = self.options.generate.clone();
            if t > 1 && options.grammar == GrammarMode::Strict {
                // A strict grammar makes the whole output a call: right for the turn that must
                // start the work, but after a tool result the model must be free to answer (and
                // to follow a corrective message or the last turn's nudge). Later turns keep the
                // grammar for the calls they make (lazy: from a call marker on).
                options.grammar = GrammarMode::Lazy;
            }
            if answer_only {
                // No tools offered: the output may not open with a call either (Qwen2.5-Coder
                // 0.5B, asked to answer from a read it had made four times, wrote the read again).
                options.grammar = GrammarMode::Answer;
            }
            if let Some(fitted) = self.fit_context(
                base,
                latest_results,
                nudge.as_deref(),
                &offered,
                &options,
                &mut seen,
            ) {
                if let Some(last) = turns.last_mut() {
                    let last: &mut TurnRecord = last;
                    for c in &mut last.calls {
                        if let Some(m) = self.history[latest_results..]
                            .iter()
                            .find(|m| m.tool_call_id.as_deref() == Some(c.id.as_str()))
                        {
                            c.feedback.clone_from(&m.content);
                        }
                    }
                }
                on_event(&AgentEvent::ContextFit {
                    cut: fitted.cut,
                    removed: fitted.removed,
                    tokens: fitted.tokens,
                    context: fitted.context,
                });
            }
            let mut messages = self.history.clone();
            if let Some(n) = &nudge {
                messages.push(Message::new(Role::User, n.clone()));
            }
            let request = Request {
                messages,
                tools: offered,
                options,
            };

            let generated = self.generate(&request, &extract_options, on_event).await;
            stats.turns += 1;
            let mut record = TurnRecord {
                turn: t,
                nudge,
                answer_only,
                raw: generated.raw,
                native_calls: generated.native.len(),
                calls: Vec::new(),
                stop: None,
                looped: generated.looped.clone(),
                stats: None,
                timing: TurnTiming {
                    extract_ms: ms(generated.watch),
                    ..TurnTiming::default()
                },
            };
            let backend_stats = match generated.result {
                Ok(s) => s,
                Err(e) => {
                    let message = e.to_string();
                    on_event(&AgentEvent::Error {
                        message: message.clone(),
                    });
                    record.timing.generation_ms =
                        ms(generated.wall.saturating_sub(generated.watch));
                    add_timing(&mut stats, &record.timing);
                    turns.push(record);
                    error = Some(message);
                    end = if matches!(e, crate::backend::BackendError::ContextOverflow { .. }) {
                        EndReason::PromptTooLong
                    } else {
                        EndReason::BackendError
                    };
                    // The conversation goes back to before this prompt (the transcript keeps what
                    // happened): a prompt that overflowed the context, or whatever else failed,
                    // must not make every later prompt fail too.
                    self.history.truncate(base);
                    self.ran_under.truncate(ran_base);
                    break;
                }
            };
            record.stop = Some(backend_stats.stop);
            record.stats = Some(backend_stats);
            record.timing.prompt_ms = backend_stats.prompt_ms;
            record.timing.generation_ms = if backend_stats.generation_ms > 0.0 {
                backend_stats.generation_ms
            } else {
                ms(generated.wall.saturating_sub(generated.watch))
            };
            stats.prompt_tokens += u64::from(backend_stats.prompt_tokens);
            stats.generated_tokens += u64::from(backend_stats.generated_tokens);

            if self.interrupt.is_set() {
                // Stopped mid-turn: nothing of this turn runs, and the conversation goes back to
                // before this prompt (as after a backend failure), so a chat can go on from there.
                add_timing(&mut stats, &record.timing);
                turns.push(record);
                end = EndReason::Interrupted;
                self.history.truncate(base);
                self.ran_under.truncate(ran_base);
                break;
            }

            let started = Instant::now();
            let (pending, refusals) = self.pending(
                &record.raw,
                &generated.extraction,
                &generated.native,
                record.looped.as_ref(),
            );
            let pending = self.as_shown(pending, &refusals, on_event);
            record.timing.extract_ms += ms(started.elapsed());

            if pending.is_empty()
                && t < max_turns
                && let Some((note, reason)) = self.non_answer(
                    &mut asked,
                    &record,
                    &generated.extraction.content,
                    &turns,
                    prompt,
                    // The next turn offers tools (it is not the last, nor an answer-only one).
                    t + 1 < max_turns && !self.answer_next,
                )
            {
                // No answer where one belongs: asked again, the reply kept in the transcript but
                // not in the conversation.
                non_answer_note = Some(note);
                answer_only_next = std::mem::take(&mut asked.answer_only);
                if let Some(due) = asked.due.take() {
                    self.change_due = Some(due);
                }
                on_event(&AgentEvent::Retry {
                    reason: reason.into(),
                });
                add_timing(&mut stats, &record.timing);
                turns.push(record);
                continue;
            }
            // A question answered again without a look, after it was asked to look first, when
            // the run's calls all failed (a reply with no call at all stands the second time):
            // toolmend makes the look itself (read-only), and the
            // next turn, without tools, answers from its output (a Zig service, session 50:
            // asked how long the metrics server waits for a request, Qwen2.5-Coder-0.5B
            // answered "To call the `metrics_server_send_request_before_disconnect` function
            // …" before and after it was asked to look first).
            if pending.is_empty()
                && t < max_turns
                && asked.unread
                && !last_answer_asked
                && turns.iter().any(|r| !r.calls.is_empty())
                && nothing_read_for_question(prompt, &turns)
                // (A look that fails leaves the reply as the answer.)
                && let Some((note, made)) = self.make_look(on_event).await
            {
                record.calls.push(made);
                add_timing(&mut stats, &record.timing);
                turns.push(record);
                last_answer_asked = true;
                answer_only_next = true;
                non_answer_note = Some(note);
                on_event(&AgentEvent::Retry {
                    reason: "answered again without a look: toolmend made the look at what the request names, and the next turn, with no tools, is for the answer".into(),
                });
                continue;
            }
            if pending.is_empty() {
                // An answer stopped in a loop goes back as what it said before repeating itself.
                let said = record
                    .looped
                    .as_ref()
                    .map_or(record.raw.as_str(), |l| &record.raw[..l.first_end()]);
                self.history
                    .push(Message::new(Role::Assistant, said.to_owned()));
                end = if says_nothing(&record.raw) {
                    EndReason::EmptyOutput
                } else if (echoed(&generated.extraction.content, &turns, &record, prompt)
                    || self
                        .only_tool_name(&generated.extraction.content, prompt)
                        .is_some())
                    // The request restated after the change it asks for was made says what was
                    // done ("Set "debug" to true in config.json."): an answer.
                    && !(correct::repeats_request(&generated.extraction.content, prompt)
                        && self.changed(&turns, false))
                {
                    // Asked once already (or no turn was left to ask in): no answer.
                    EndReason::Echoed
                } else if correct::is_refusal(&generated.extraction.content) {
                    // Asked once already, or no turn was left to ask in.
                    EndReason::Refused
                } else if backend_stats.stop == StopReason::MaxTokens {
                    EndReason::AnswerCutOff
                } else if backend_stats.stop == StopReason::ContextFull {
                    EndReason::ContextFull
                } else {
                    EndReason::Answered
                };
                if !matches!(end, EndReason::EmptyOutput | EndReason::Echoed) {
                    answer = Some(generated.extraction.content.clone());
                }
                add_timing(&mut stats, &record.timing);
                turns.push(record);
                break;
            }

            // The model's turn goes back as its chat template documents a turn with calls: the
            // text outside the calls as content, every call (written in the text or reported
            // natively) as a `tool_calls` entry whose id the tool messages answer. Kept as raw
            // text, a call the model wrote in another shape (a fenced block) would be shown back
            // to it in that shape, unanswered by any call id. The transcript keeps the raw text.
            let mut assistant = Message::new(
                Role::Assistant,
                generated.extraction.content.trim().to_owned(),
            );
            assistant.tool_calls = pending
                .iter()
                .map(|c| NativeToolCall {
                    id: Some(c.id.clone()),
                    name: c.name.clone(),
                    arguments: c.arguments.to_value(),
                })
                .collect();
            self.history.push(assistant);
            latest_results = self.history.len();

            // For a question asking how many (how long, …), the lines that bear on it, for the
            // note on a look repeated (see `dispatch_all`).
            self.repeat_bearing = (correct::is_question(&self.request)
                && crate::tools::asks_quantity(&self.request))
            .then(|| correct::bearing(&self.evidence(&turns)))
            .flatten();
            let started = Instant::now();
            let ran_before = self.tools.run_time();
            self.toolbox_wait = Duration::ZERO;
            let repeated_failure = self
                .dispatch_all(
                    pending,
                    &refusals,
                    &mut seen,
                    &mut record,
                    &mut stats,
                    on_event,
                )
                .await;
            let spent = started.elapsed();
            // The tools' share: what the toolbox says they ran, else all the time spent in it.
            let tools = match (ran_before, self.tools.run_time()) {
                (Some(before), Some(after)) => after.saturating_sub(before),
                _ => self.toolbox_wait,
            }
            .min(spent);
            record.timing.tools_ms = ms(tools);
            record.timing.dispatch_ms = ms(spent - tools);
            add_timing(&mut stats, &record.timing);
            turns.push(record);
            if self.interrupt.is_set() {
                end = EndReason::Interrupted;
                self.history.truncate(base);
                self.ran_under.truncate(ran_base);
                break;
            }
            // A question with results to answer from, and no turn for the answer yet, gets one
            // first, with the lines that bear on it (a Terraform folder, session 38: asked "In
            // which bucket is the Terraform state kept?", Qwen2.5-Coder-0.5B read `bucket =
            // "kestrel-terraform-state"`, sent a failing glob again and again, and the run
            // ended with no answer).
            // A question with no result at all, where the model sent a call that fails (a tool
            // it made up) a third time: toolmend makes the look at what the request names
            // itself — read-only — and the next turn, with no tools, answers from its result
            // (a Zig service, session 50: asked how long the metrics server waits for a
            // request, Qwen2.5-Coder-0.5B called `metrics_server_send_request_before_disconnect`
            // three times, shown the search for `milliseconds` each time, and the run ended
            // with no answer).
            if repeated_failure
                && !last_answer_asked
                && t < max_turns
                && !turns.iter().any(|r| r.answer_only)
                && nothing_read_for_question(prompt, &turns)
                && let Some((note, made)) = self.make_look(on_event).await
            {
                if let Some(last) = turns.last_mut() {
                    last.calls.push(made);
                }
                last_answer_asked = true;
                answer_only_next = true;
                non_answer_note = Some(note);
                on_event(&AgentEvent::Retry {
                    reason: "a failing call repeated with no result yet: toolmend made the look at what the request names, and the next turn, with no tools, is for the answer".into(),
                });
                continue;
            }
            if repeated_failure
                && !last_answer_asked
                && t < max_turns
                && !turns.iter().any(|r| r.answer_only)
                && !correct::asks_change(prompt)
                && turns
                    .iter()
                    .flat_map(|r| &r.calls)
                    .any(|c| c.result.is_ok() && !c.result.output.trim().is_empty())
            {
                last_answer_asked = true;
                self.answer_next = true;
                on_event(&AgentEvent::Retry {
                    reason: "a failing call repeated again after results: the next turn, with no tools, is for the answer".into(),
                });
                continue;
            }
            if repeated_failure {
                end = EndReason::RepeatedFailure;
                break;
            }
        }

        on_event(&AgentEvent::Done {
            reason: end,
            answer: answer.clone(),
            stats,
        });
        Transcript {
            model: self.backend.name().to_owned(),
            prompt: typed.to_owned(),
            turns,
            answer,
            end,
            error,
            stats,
            messages: self.history.clone(),
            withheld: std::mem::take(&mut self.withheld),
        }
    }

    /// Makes the next request fit the context window with room for the reply (see [`fit`]):
    /// earlier tool results (before `latest`) are removed — those a later message repeats
    /// whole first, then oldest first, the results of the look offered for the request
    /// ([`Self::look_first`]) last — then the latest turn's
    /// results (from `latest` on) are cut to the largest common length that fits. `None` when
    /// nothing had to change or the backend cannot count tokens. The run's results start at
    /// `run_start` (earlier ones belong to earlier prompts, whose call ids may recur).
    fn fit_context(
        &mut self,
        run_start: usize,
        latest: usize,
        nudge: Option<&str>,
        tools: &[crate::backend::ToolDef],
        options: &GenerateOptions,
        seen: &mut HashMap<String, Seen>,
    ) -> Option<Fitted> {
        let context = self.backend.context_size()?;
        let limit = context.saturating_sub(fit::reply_room(context, options.max_tokens));
        let backend = &self.backend;
        let count = |history: &[Message]| {
            let mut messages = history.to_vec();
            messages.extend(nudge.map(|n| Message::new(Role::User, n)));
            backend.prompt_tokens(&Request {
                messages,
                tools: tools.to_vec(),
                options: options.clone(),
            })
        };
        let mut tokens = count(&self.history)?;
        if tokens <= limit {
            return None;
        }
        let latest = latest.min(self.history.len());
        let mut fitted = Fitted {
            cut: Vec::new(),
            removed: Vec::new(),
            tokens,
            context,
        };
        // Earlier results first, oldest first: the latest turn's are what the model asked for
        // now. Before them, a result a later message repeats whole (a repeated call's result
        // shown again with the note that it is one): it costs room twice and tells nothing
        // the later one does not. Found with a Kotlin/Gradle application (session 40): asked
        // "Which prefix do PostNL tracking ids start with?", Qwen2.5-Coder-0.5B searched
        // `postnl` (the line with `"3S"`), then `track` four times; the long `track` result,
        // shown again each time, pushed the `postnl` result out, and the answer was a line of
        // code.
        // Last of all, the results of the look toolmend offers for the request (see
        // `look_first`): what the request names, which the model was told to answer from (in
        // that run, the `postnl` search was the look offered).
        let removable = |m: &Message| m.role == Role::Tool && m.content.len() > fit::REMOVED.len();
        let look: Option<serde_json::Value> = self
            .look_first()
            .and_then(|l| serde_json::from_str(&l).ok());
        let looked: Vec<&str> = look
            .as_ref()
            .map(|look| {
                self.history[run_start.min(latest)..latest]
                    .iter()
                    .flat_map(|m| &m.tool_calls)
                    .filter(|c| {
                        Some(c.name.as_str()) == look["name"].as_str()
                            && args_value_of(&c.arguments).as_ref() == Some(&look["arguments"])
                    })
                    .filter_map(|c| c.id.as_deref())
                    .collect()
            })
            .unwrap_or_default();
        let is_look = |m: &Message| {
            m.tool_call_id
                .as_deref()
                .is_some_and(|id| looked.contains(&id))
        };
        let repeated: Vec<usize> = (0..latest)
            .filter(|&i| {
                removable(&self.history[i])
                    && !is_look(&self.history[i])
                    && self.history[i + 1..]
                        .iter()
                        .any(|later| later.content.contains(self.history[i].content.as_str()))
            })
            .collect();
        let (looks, others): (Vec<usize>, Vec<usize>) = (0..latest)
            .filter(|i| !repeated.contains(i))
            .partition(|&i| is_look(&self.history[i]));
        let order: Vec<usize> = repeated.into_iter().chain(others).chain(looks).collect();
        for i in order {
            if tokens <= limit {
                break;
            }
            let m = &mut self.history[i];
            if !removable(m) {
                continue;
            }
            m.content = fit::REMOVED.to_owned();
            if let Some(id) = &m.tool_call_id {
                if i >= run_start {
                    // A repeat of that call must run again, not be told to use a result now gone.
                    seen.retain(|_, s| s.id != *id);
                }
                fitted.removed.push(id.clone());
            }
            tokens = count(&self.history)?;
        }
        if tokens > limit {
            let at: Vec<usize> = (latest..self.history.len())
                .filter(|&i| self.history[i].role == Role::Tool)
                .collect();
            let originals: Vec<String> = at
                .iter()
                .map(|&i| self.history[i].content.clone())
                .collect();
            let apply = |history: &mut [Message], cap: usize| {
                for (&i, original) in at.iter().zip(&originals) {
                    history[i].content = match fit::cut(original, cap) {
                        Some(c) if c.len() < original.len() => c,
                        _ => original.clone(),
                    };
                }
            };
            let longest = originals.iter().map(String::len).max().unwrap_or(0);
            let mut trial = self.history.clone();
            let cap = fit::largest_fitting(longest, |cap| {
                apply(&mut trial, cap);
                count(&trial).is_some_and(|n| n <= limit)
            })
            .unwrap_or(0);
            apply(&mut self.history, cap);
            for (&i, original) in at.iter().zip(&originals) {
                if self.history[i].content != *original
                    && let Some(id) = &self.history[i].tool_call_id
                {
                    fitted.cut.push(id.clone());
                }
            }
            tokens = count(&self.history)?;
        }
        fitted.tokens = tokens;
        (!fitted.cut.is_empty() || !fitted.removed.is_empty()).then_some(fitted)
    }

    /// One generation: streams chunks to `on_event` and the watcher, collects native calls.
    async fn generate(
        &mut self,
        request: &Request,
        extract_options: &crate::extract::Options,
        on_event: &mut (dyn FnMut(&AgentEvent) + Send),
    ) -> Generated {
        let mut raw = String::new();
        let mut native = Vec::new();
        let mut watcher = calls::Watcher::new(extract_options, self.options.max_calls_per_turn);
        let mut watch = Duration::ZERO;
        let max_calls = self.options.max_calls_per_turn.max(1);
        let started = Instant::now();
        let interrupt = self.interrupt.clone();
        let mut looped = None;
        let result = {
            let mut sink = |ev: Event| -> Control {
                match ev {
                    Event::Chunk(text) => {
                        let t0 = Instant::now();
                        let mut shown = Vec::new();
                        let stop = watcher.push_shown(&text, &mut |s| shown.push(s));
                        raw.push_str(&text);
                        if looped.is_none() {
                            looped = looping::tail_loop(&raw);
                        }
                        watch += t0.elapsed();
                        on_event(&AgentEvent::Chunk { text });
                        for s in shown {
                            on_event(&text_event(s));
                        }
                        if stop || looped.is_some() || interrupt.is_set() {
                            Control::Stop
                        } else {
                            Control::Continue
                        }
                    }
                    Event::ToolCall(call) => {
                        native.push(call);
                        if native.len() >= max_calls || interrupt.is_set() {
                            Control::Stop
                        } else {
                            Control::Continue
                        }
                    }
                }
            };
            self.backend.generate(request, &mut sink).await
        };
        let wall = started.elapsed();
        let t0 = Instant::now();
        let mut shown = Vec::new();
        let mut extraction = watcher.finish_shown(&mut |s| shown.push(s));
        if let Some(l) = &looped {
            // Everything after the first copy only repeats it: the turn is what came before,
            // and a call still open there is cut off (and refused with the loop's message).
            extraction = crate::extract::extract(&raw[..l.first_end()], extract_options);
        }
        watch += t0.elapsed();
        for s in shown {
            on_event(&text_event(s));
        }
        if let Some(l) = &looped {
            on_event(&AgentEvent::Looped {
                unit: l.shown(),
                repeats: l.repeats,
            });
        }
        Generated {
            raw,
            native,
            extraction,
            result,
            watch,
            wall,
            looped,
        }
    }

    /// The calls of one turn, in order: those found in the text (refused names included, so the
    /// dispatcher answers them with the real tools), then the native ones. A call cut off where
    /// the output was stopped in `looped` is refused with a message saying so.
    fn pending(
        &mut self,
        text: &str,
        extraction: &Extraction,
        native: &[NativeToolCall],
        looped: Option<&looping::Loop>,
    ) -> (Vec<PendingCall>, Vec<Option<Refusal>>) {
        let limit = self.options.max_calls_per_turn.max(1);
        // Each call with, for one that must not run, the message that answers it instead.
        let mut found: Vec<(usize, PendingCall, Option<Refusal>)> = Vec::new();
        for c in &extraction.calls {
            let arguments = match &c.arguments {
                Ok(v) => Args::Value(v.clone()),
                Err(_) => Args::Text(c.raw_arguments.clone()),
            };
            found.push((
                c.span.start,
                PendingCall {
                    id: c.id.clone().unwrap_or_default(),
                    name: c.name.clone(),
                    arguments,
                    native: false,
                    raw: text.get(c.span.clone()).unwrap_or_default().to_owned(),
                    fixes: c.fixes.clone(),
                },
                None,
            ));
        }
        for r in &extraction.rejected {
            // A call cut off inside its arguments is never run, not even with what arrived (E4):
            // the rejection asks for the whole call again. Only the text's last call can be cut
            // off: after a loop, that is where it was cut. Positional values that cannot be told
            // apart (`ls("notes", "all")` in a closed envelope) are answered with the
            // extraction's own message, which says what the tool takes: repaired as text, the
            // call's arguments would be debris. Other refusals (an unknown name, no arguments
            // object) go to the toolbox, which answers them with its own message.
            let refusal = match r.reason {
                crate::extract::RejectReason::CutOff { .. } => Some((
                    "cut_off",
                    looped.map_or_else(
                        || r.reason.to_string(),
                        |l| correct::looped_call(&r.name, l.repeats),
                    ),
                )),
                crate::extract::RejectReason::TooManyValues { .. } => {
                    Some(("too_many_values", r.reason.to_string()))
                }
                _ => None,
            };
            found.push((
                r.span.start,
                PendingCall {
                    id: String::new(),
                    name: r.name.clone(),
                    arguments: refused_arguments(&r.name, &r.raw_arguments),
                    native: false,
                    raw: text.get(r.span.clone()).unwrap_or_default().to_owned(),
                    fixes: Vec::new(),
                },
                refusal,
            ));
        }
        found.sort_by_key(|(at, _, _)| *at);
        let (mut out, mut refusals): (Vec<PendingCall>, Vec<Option<Refusal>>) =
            found.into_iter().map(|(_, c, r)| (c, r)).unzip();
        let written: Vec<String> = out
            .iter()
            .map(|c| correct::call_key(&c.name, &c.arguments))
            .collect();
        for c in native {
            let call = PendingCall {
                id: c.id.clone().unwrap_or_default(),
                name: c.name.clone(),
                arguments: match &c.arguments {
                    serde_json::Value::String(s) => Args::Text(s.clone()),
                    v => Args::Value(v.clone()),
                },
                native: true,
                raw: String::new(),
                fixes: Vec::new(),
            };
            // A backend that parsed a call out of the text it also returns reports it twice.
            if !written.contains(&correct::call_key(&call.name, &call.arguments)) {
                out.push(call);
                refusals.push(None);
            }
        }
        out.truncate(limit);
        refusals.truncate(limit);
        for c in &mut out {
            self.calls_made += 1;
            if c.id.is_empty() {
                c.id = format!("call_{}", self.calls_made);
            }
        }
        (out, refusals)
    }

    /// Handles every call of one turn; returns true when the run must end (a failing call was
    /// repeated unchanged after the firmer message).
    async fn dispatch_all(
        &mut self,
        pending: Vec<PendingCall>,
        refusals: &[Option<Refusal>],
        seen: &mut HashMap<String, Seen>,
        record: &mut TurnRecord,
        stats: &mut RunStats,
        on_event: &mut (dyn FnMut(&AgentEvent) + Send),
    ) -> bool {
        let mut skip: Option<String> = None;
        let mut end_run = false;
        // The change due, sent back with the very arguments shown but under a name of the
        // model's own: the call shown is what it means (see `Self::due_as`).
        // Or as a no-op of the due change's own tool at its place (`Self::due_from_no_op`).
        // Or, for a question, the look at what it names, called by a name made of its words
        // (`Self::look_as`).
        // Or, in a turn that only repeats calls, the look offered and never made, in place of
        // the first (`Self::look_for_repeats`).
        let mut called_as: Vec<Option<RunAs>> = Vec::with_capacity(pending.len());
        let in_place = self.look_for_repeats(&pending, seen);
        let pending: Vec<PendingCall> = pending
            .into_iter()
            .enumerate()
            .map(|(k, mut c)| {
                let due = self
                    .due_as(&c)
                    .map(|d| (d, RunAs::Named(c.name.clone())))
                    .or_else(|| self.due_from_no_op(&c).map(|d| (d, RunAs::NoOp)))
                    .or_else(|| self.look_as(&c).map(|d| (d, RunAs::Look(c.name.clone()))))
                    .or_else(|| {
                        (k == 0)
                            .then(|| in_place.clone())
                            .flatten()
                            .map(|d| (d, RunAs::Repeat(c.name.clone())))
                    });
                called_as.push(due.map(|((name, args), how)| {
                    c.arguments = Args::Value(args);
                    c.name = name;
                    how
                }));
                c
            })
            .collect();
        // A turn with a call not made before is no loop, whatever else it repeats: its new
        // call runs and the run goes on (the tally set, session 31: the fourth search for
        // `require`, sent beside the read of go.mod that answers, ended the run unread).
        let progress = pending
            .iter()
            .any(|c| !seen.contains_key(&correct::call_key(&c.name, &c.arguments)));
        let runs = self.read_only_runs(&pending, refusals, seen);
        // Results of calls already run concurrently with their run, with when the run started.
        let mut ahead: HashMap<usize, (CallResult, Instant)> = HashMap::new();
        for (idx, call) in pending.iter().cloned().enumerate() {
            if self.interrupt.is_set() && !ahead.contains_key(&idx) {
                // Interrupted: no further call starts (those already running finish).
                break;
            }
            stats.calls += 1;
            let args = call.arguments.to_value();
            if skip.is_none()
                && let Some(&end) = runs.get(&idx)
            {
                // Consecutive calls of read-only tools: all start now and run concurrently.
                let batch = &pending[idx..end];
                for c in batch {
                    on_event(&AgentEvent::ToolStart {
                        id: c.id.clone(),
                        name: c.name.clone(),
                        args: c.arguments.to_value(),
                        cut_off: false,
                    });
                }
                let started = Instant::now();
                let results = self.tools.call_read_only(batch).await;
                self.toolbox_wait += started.elapsed();
                for (k, r) in results.into_iter().enumerate() {
                    ahead.insert(idx + k, (r, started));
                }
            }
            let first = ahead.remove(&idx);
            let started = match &first {
                Some((_, at)) => *at,
                None => {
                    on_event(&AgentEvent::ToolStart {
                        id: call.id.clone(),
                        name: call.name.clone(),
                        args: args.clone(),
                        cut_off: refusals.get(idx).is_some_and(Option::is_some),
                    });
                    Instant::now()
                }
            };
            let first = first.map(|(r, _)| r);
            let key = correct::call_key(&call.name, &call.arguments);
            let mut ran = false;
            let mut retry: Option<String> = None;
            let refusal = refusals.get(idx).cloned().flatten();
            let (result, feedback) = if let Some((kind, message)) = refusal {
                // Not run: the extraction refused it (a call cut off inside its arguments, or
                // positional values that cannot be told apart: shown a valid call of the tool).
                let mut r = CallResult::failed(kind, Fault::Model, message);
                r.attempts = 0;
                if kind == "too_many_values"
                    && let Some(failure) = &r.failure
                {
                    r.output =
                        correct::corrective(failure, self.example_for(&call.name).as_deref());
                }
                let f = r.output.clone();
                (r, f)
            } else if let Some(first) = first {
                // Already run with its read-only run (before any refusal of this turn).
                ran = true;
                let (r, f, why) = self.run_call(&call, on_event, &mut skip, Some(first)).await;
                retry = why;
                (r, f)
            } else if let Some(reason) = &skip {
                let mut r = CallResult::failed(
                    "skipped",
                    Fault::Policy,
                    format!("`{}` was not run: {reason}", call.name),
                );
                r.attempts = 0;
                let f = r.output.clone();
                (r, f)
            } else if !seen.contains_key(&key)
                && correct::is_question(&self.request)
                && !self.is_tool(&call.name)
                && self.named_in_results(&call.name)
            {
                // Not run: a name from the results, called to answer a question about it.
                retry = Some(format!(
                    "`{}` is no tool but a name in the tool results: not run, told the model to answer",
                    call.name
                ));
                not_run(
                    seen,
                    &key,
                    &call.id,
                    correct::NAME_IN_RESULTS,
                    Fault::Model,
                    correct::name_in_results(&call.name, &self.typed),
                )
            } else if !seen.contains_key(&key)
                && !self.is_tool(&call.name)
                && let Some(path) = self.code_asked(&call.name)
            {
                // Not run: the name of the code the request asks for, called as if it were a
                // tool; the code is wanted in a block, which `change_shown` turns into the call.
                retry = Some(format!(
                    "`{}` is no tool but the code the request asks for: not run, told the model to write it in a code block",
                    call.name
                ));
                not_run(
                    seen,
                    &key,
                    &call.id,
                    correct::CODE_AS_CALL,
                    Fault::Model,
                    correct::code_as_call(&call.name, &path, &self.typed),
                )
            } else if !seen.contains_key(&key)
                && correct::is_question(&self.request)
                && !self.is_tool(&call.name)
                && let Some(tool) = self.result_repeated(&call.arguments)
            {
                // Not run: a result presented as a call of no tool, in a question.
                retry = Some(format!(
                    "`{}` is no tool and its arguments repeat the result of `{tool}`: not run, told the model to answer",
                    call.name
                ));
                not_run(
                    seen,
                    &key,
                    &call.id,
                    correct::RESULT_AS_CALL,
                    Fault::Model,
                    correct::result_as_call(&call.name, &tool, &self.typed),
                )
            } else if !seen.contains_key(&key) && self.withheld.contains(&call.name) {
                // Not run: the request is a question, and this tool changes files. Kept like a
                // policy refusal, so sending it again gets the firmer message.
                let look = self.look_first();
                let message = correct::question_only(&call.name, &self.typed, look.as_deref());
                retry = Some(format!(
                    "`{}` changes files and the request is a question: not run",
                    call.name
                ));
                not_run(
                    seen,
                    &key,
                    &call.id,
                    correct::QUESTION_ONLY,
                    Fault::Policy,
                    message,
                )
            } else if !seen.contains_key(&key)
                && let Some(message) = self.copied_example(&call)
            {
                // Not run: the values are the example's, shown to the model, not its task's. Kept
                // like a model-fault failure, so sending it again gets the firmer message.
                retry = Some(format!(
                    "`{}` copied the example call's values: not run, told the model to use its task's own",
                    call.name
                ));
                not_run(
                    seen,
                    &key,
                    &call.id,
                    correct::EXAMPLE_COPIED,
                    Fault::Model,
                    message,
                )
            } else if !seen.contains_key(&key)
                && let Some(message) = self.placeholder_value(&call)
            {
                // Not run: a field's name sent as its value is no value of the task's (the write
                // would have replaced a file with `new_text`).
                retry = Some(format!(
                    "`{}` sent a field's name as a value: not run, told the model to send the task's own",
                    call.name
                ));
                not_run(
                    seen,
                    &key,
                    &call.id,
                    correct::PLACEHOLDER_VALUE,
                    Fault::Model,
                    message,
                )
            } else {
                // Some call of this run gave a result (for a made-up tool sent again).
                let has_result = seen.values().any(|p| p.result.is_ok());
                // A read-only call not made before runs now; when it gives exactly a result the
                // model already has from another call of the tool, it is a repeat of that call
                // (a Go job worker, session 53: `read` of the production config with
                // `start_line` 1 and `end_line` 2000, then without them, each sent twice — four
                // turns of the same 28 lines, and the answer, `19`, came on the last turn).
                let mut probe = None;
                let mut alias = None;
                if !seen.contains_key(&key) && self.tools.is_read_only(&call.name) {
                    let t = Instant::now();
                    let r = self.tools.call(&call).await;
                    self.toolbox_wait += t.elapsed();
                    if r.is_ok() {
                        alias = seen
                            .iter()
                            .find(|(k, p)| {
                                k.split('\u{0}').next() == Some(call.name.as_str())
                                    && p.result.is_ok()
                                    && p.result.ran_as.is_none()
                                    && p.result.output == r.output
                            })
                            .map(|(k, _)| k.clone());
                    }
                    probe = Some(r);
                }
                let exact = alias.is_none();
                match seen.get_mut(alias.as_ref().unwrap_or(&key)) {
                    // Only a read-only call's result stands for its repeat; a call that changes
                    // things runs again when asked again.
                    Some(prev)
                        if prev.result.is_ok() && self.read_only_ran(&call.name, &prev.result) =>
                    {
                        prev.count_repeat(record.turn);
                        let mut r = prev.result.clone();
                        r.cached = true;
                        r.attempts = 0;
                        let f = match prev.repeats {
                            1 => {
                                let mut note = correct::repeat_note(
                                    &call.name,
                                    &prev.result.output,
                                    &self.typed,
                                    exact,
                                );
                                // A model going round in circles gets the change the request
                                // spells out, when none is made yet, else the call the
                                // request names, when it has not made it (the glob of
                                // notes/groceries.md, three times, never its read).
                                if let Some(due) = &self.change_due {
                                    note.push_str(&correct::change_next(due));
                                } else if let Some(so) = &self.already {
                                    note.push_str(&correct::already_so(so));
                                } else if let Some(look) = self.look_first()
                                    && !self.already_made(&look)
                                {
                                    note.push_str(&correct::look_first(&look));
                                } else if let Some((name, look)) = self.body_look() {
                                    note.push_str(&correct::body_next(&name, &look));
                                } else if let Some((name, look)) = self.reference_look() {
                                    note.push_str(&correct::reference_next(&name, &look));
                                } else if let Some(lines) = &self.repeat_bearing {
                                    // Else, for a question asking how many (how long, …),
                                    // the lines of the results that bear on it, after the
                                    // output sent again (a Deno service, session 54: asked
                                    // "With no config at all, how many milliseconds does a
                                    // probe wait …?", the model called the read of
                                    // src/config.ts again, was sent its 177 lines, and on
                                    // the last turn answered 1000, not `DEFAULT_TIMEOUT_MS =
                                    // 7500`).
                                    note.push('\n');
                                    note.push_str(lines);
                                }
                                note
                            }
                            2 => {
                                let mut firm = correct::repeat_firm(
                                    &call.name,
                                    &prev.result.output,
                                    &self.typed,
                                    exact,
                                );
                                if let Some(due) = &self.change_due {
                                    // The next step is the change: the next turn keeps the
                                    // tools that make it.
                                    retry = Some(format!(
                                        "`{}` repeated again with the same arguments: told the model to make the change the request spells out",
                                        call.name
                                    ));
                                    firm.push_str(&correct::change_next(due));
                                } else {
                                    retry = Some(format!(
                                        "`{}` repeated again with the same arguments: told the model to use the result it has; the next turn offers no tools",
                                        call.name
                                    ));
                                    self.answer_next = true;
                                }
                                firm
                            }
                            _ => {
                                end_run = !progress;
                                correct::repeat_firm(
                                    &call.name,
                                    &prev.result.output,
                                    &self.typed,
                                    exact,
                                )
                            }
                        };
                        (r, f)
                    }
                    Some(prev)
                        if prev.result.failure.as_ref().is_some_and(|f| {
                            matches!(
                                f.kind.as_str(),
                                correct::NAME_IN_RESULTS | correct::RESULT_AS_CALL
                            )
                        }) =>
                    {
                        // Naming a result (or repeating one) again: the next turn is for the
                        // answer, with no tools (a call cannot be written there), not a step
                        // towards the end.
                        prev.count_repeat(record.turn);
                        self.answer_next = true;
                        retry = Some(format!(
                            "`{}`, a name or text from the tool results, called again: the next turn offers no tools",
                            call.name
                        ));
                        // The message the first call got: it says which of the two it was.
                        let r = prev.result.clone();
                        let f = r.output.clone();
                        (r, f)
                    }
                    Some(prev)
                        if matches!(prev.result.fault(), Some(Fault::Model | Fault::Policy)) =>
                    {
                        prev.count_repeat(record.turn);
                        let failure = prev.result.failure.clone().unwrap_or(CallFailure {
                            kind: "invalid_args".into(),
                            fault: Fault::Model,
                            message: prev.result.output.clone(),
                            field: None,
                        });
                        // Never the example again to a model that copied it, nor where the
                        // corrective message left it out.
                        let example = (failure.kind != correct::EXAMPLE_COPIED
                            && self.example_helps(&call.name, &failure))
                        .then(|| self.example_for_call(&call).0)
                        .flatten();
                        let failure = self.grounded(failure, example.as_deref());
                        let message = correct::escalation(&call.name, &failure, example.as_deref());
                        // A question, a made-up tool sent again although the run has results:
                        // the next turn is for the answer from them, with no tools, not a step
                        // towards the end (the notes run: `notes` with `{"count": 10}` after
                        // the `ls` of `notes`, until `repeated_failure`).
                        let answer_instead = failure.kind == "unknown_tool"
                            && correct::is_question(&self.request)
                            && self.change_due.is_none()
                            && has_result;
                        let message = if answer_instead {
                            correct::no_tool_again(&call.name, &self.typed)
                        } else {
                            message
                        };
                        let mut r = CallResult::failed("repeated_failure", Fault::Model, message);
                        r.attempts = 0;
                        if answer_instead {
                            self.answer_next = true;
                            retry = Some(format!(
                                "`{}`, no tool, sent again after tool results: the next turn offers no tools",
                                call.name
                            ));
                        } else if prev.repeats == 1 {
                            retry = Some(format!(
                                "`{}` repeated unchanged after a corrective message: sent a firmer message with the exact call shape",
                                call.name
                            ));
                        } else {
                            end_run = !progress;
                        }
                        let f = r.output.clone();
                        (r, f)
                    }
                    _ => {
                        ran = true;
                        let (r, f, why) = self.run_call(&call, on_event, &mut skip, probe).await;
                        retry = why;
                        (r, f)
                    }
                }
            };
            let (mut result, mut feedback) = (result, feedback);
            if let Some(Some(how)) = called_as.get(idx)
                && result.is_ok()
            {
                // The model learns the name, or the arguments, of what ran.
                let shown =
                    serde_json::json!({"name": call.name, "arguments": call.arguments.to_value()});
                let note = match how {
                    RunAs::Named(called) => format!(
                        "(No tool is named `{called}`; this is the result of the call shown to you: {shown}.)\n"
                    ),
                    RunAs::NoOp => format!(
                        "(Your `{}` call would have changed nothing: its new_text was its old_text. \
                         This is the result of the change shown to you: {shown}.)\n",
                        call.name
                    ),
                    RunAs::Look(called) => format!(
                        "(No tool is named `{called}`; this is the result of the look at what the \
                         user's request names: {shown}.)\n"
                    ),
                    RunAs::Repeat(called) => format!(
                        "(You already have the result of that `{called}` call. In its place, this \
                         is the result of the look at what the user's request names, offered to \
                         you and not made: {shown}.)\n"
                    ),
                };
                // To the model with this result, not into the result kept: shown again for a
                // repeat, the result is what ran, without a note about another call.
                feedback.insert_str(0, &note);
                result.ran_as = Some(call.name.clone());
                result.ran_with = Some(call.arguments.to_value());
            }
            if let (Some(name), Some(arguments)) = (&result.ran_as, &result.ran_with)
                && result.is_ok()
            {
                self.ran_under
                    .push(serde_json::json!({"name": name, "arguments": arguments}));
            }
            // The tools this run withholds are not among those the model is told it has.
            let feedback = correct::without_tools(&feedback, &self.withheld);
            // A call refused before it ran (an unknown tool, arguments the tool rejected: the
            // model's fault; a policy refusal) changed nothing; a world fault may have struck
            // midway.
            let refused = matches!(result.fault(), Some(Fault::Model | Fault::Policy));
            let changes = result.changed || !(self.read_only_ran(&call.name, &result) || refused);
            let mut feedback = feedback;
            // The change due after this one, when it makes the change due and the request asks
            // the same of another file it names (see `Self::next_named_change`).
            let mut next_due: Option<String> = None;
            // A call the model got wrong, in a run whose request spells out a change not made
            // yet: the call that makes it, unless the message shows it already. So is a call
            // refused for a path outside the workspace that it sent (a Hugo site, session 37:
            // the edit of `/path/to/your/file.txt`, sent until the run ended).
            let outside = result.failure.as_ref().is_some_and(|f| f.kind == "denied")
                && args_value(&call.arguments)
                    .as_ref()
                    .and_then(serde_json::Value::as_object)
                    .is_some_and(|o| {
                        o.iter().any(|(k, v)| {
                            crate::tools::is_path_key(k)
                                && v.as_str().is_some_and(|p| p.starts_with(['/', '~', '\\']))
                        })
                    });
            if (result.fault() == Some(Fault::Model) || outside)
                && let Some(due) = &self.change_due
                && !feedback.contains(due.as_str())
            {
                feedback.push_str(&correct::change_next(due));
            }
            // Or the change is already so: nothing to make.
            if result.fault() == Some(Fault::Model)
                && self.change_due.is_none()
                && let Some(so) = &self.already
            {
                feedback.push_str(&correct::already_so(so));
            }
            if ran
                && result.is_ok()
                && self
                    .change_due
                    .as_deref()
                    .is_some_and(|due| is_call(due, &call))
            {
                // The change the request spells out, made: the task is done. A small model
                // goes on sending edits, new text made of the result it was given (held-out
                // changelog_entry: the line added again with "1. replace 1 occurrence …").
                let mut more = correct::change_steps(&self.request) > 1;
                // The same change in another file the request names, or at another line of
                // this one, still due ("update both the Gemfile and Gemfile.lock"): the next.
                if !more && let Some(next) = self.next_named_change(&call) {
                    more = true;
                    feedback.push_str(correct::change_made(true));
                    feedback.push_str(&correct::change_next(&next));
                    next_due = Some(next);
                } else {
                    feedback.push_str(correct::change_made(more));
                }
                // The line that showed this change leaves the conversation: made, it is a call
                // to copy again (tally set, session 35: answered with it until the run ended).
                self.drop_change_lines();
                if !more {
                    retry = Some(
                        "the change the request spells out is made: the next turn offers no tools"
                            .to_owned(),
                    );
                    self.answer_next = true;
                    // The rest of the turn is not run: asked to add a dict entry, Qwen2.5-Coder-0.5B
                    // followed the edit that made it with three more of the same line, one adding
                    // an entry no one asked for (session 27; they failed only because the line
                    // had changed).
                    skip = Some(format!(
                        "the change the user asked for is already made, by the `{}` call before \
                         it in this turn; answer the user now in plain text",
                        call.name
                    ));
                }
            }
            if (ran && changes) || (result.fault() == Some(Fault::Policy) && !outside) {
                // Made, or refused by the user's policy: no longer due. A path outside the
                // workspace is the model's placeholder, not the user's policy: the change stays
                // due (a Phoenix/Elixir API, session 41: refused the edit of
                // `/path/to/your/file.txt`, the model sent the change shown with that path).
                if !self.read_only_ran(&call.name, &result) {
                    self.change_due = next_due.take();
                }
            }
            if ran && changes {
                // Something changed (or may have: a tool that is not read-only and names no
                // effect): earlier results may be stale, so repeats run again — failures too,
                // since a tool's refusal may depend on what changed (`edit`'s old_text not
                // found, now there). Only refusals no change can lift stand.
                seen.retain(|_, prev| {
                    prev.result.failure.as_ref().is_some_and(|f| {
                        matches!(
                            f.kind.as_str(),
                            "unknown_tool"
                                | correct::EXAMPLE_COPIED
                                | correct::QUESTION_ONLY
                                | correct::NAME_IN_RESULTS
                                | correct::RESULT_AS_CALL
                                | correct::CODE_AS_CALL
                        )
                    })
                });
            }
            if ran {
                // A new call, or one whose earlier run failed for the world's fault or a policy.
                seen.insert(
                    key,
                    Seen {
                        id: call.id.clone(),
                        result: result.clone(),
                        repeats: 0,
                        counted_turn: record.turn,
                    },
                );
            }
            if !result.is_ok() {
                stats.failed_calls += 1;
            }
            on_event(&AgentEvent::ToolEnd {
                id: call.id.clone(),
                name: call.name.clone(),
                result: result.clone(),
                sent: (feedback != result.output).then(|| feedback.clone()),
                duration_ms: ms(started.elapsed()),
            });
            if let Some(reason) = retry {
                on_event(&AgentEvent::Retry { reason });
            }
            let mut message = Message::new(Role::Tool, feedback.clone());
            message.name = Some(call.name.clone());
            message.tool_call_id = Some(call.id.clone());
            self.history.push(message);
            record.calls.push(CallRecord {
                id: call.id,
                name: call.name,
                args,
                native: call.native,
                result,
                feedback,
            });
            if end_run {
                break;
            }
        }
        end_run
    }

    /// The runs of consecutive calls that may run concurrently: at least two calls of read-only
    /// tools, none a repeat of an earlier call of the task or of another call in the run. Maps
    /// the index of a run's first call to the index just past its last.
    fn read_only_runs(
        &self,
        pending: &[PendingCall],
        refusals: &[Option<Refusal>],
        seen: &HashMap<String, Seen>,
    ) -> HashMap<usize, usize> {
        let mut runs = HashMap::new();
        let mut i = 0;
        while i < pending.len() {
            let mut keys = std::collections::HashSet::new();
            let mut end = i;
            while let Some(c) = pending.get(end) {
                let key = correct::call_key(&c.name, &c.arguments);
                if !self.tools.is_read_only(&c.name)
                    || refusals.get(end).is_some_and(Option::is_some)
                    || seen.contains_key(&key)
                    || !keys.insert(key)
                {
                    break;
                }
                end += 1;
            }
            if end - i >= 2 {
                runs.insert(i, end);
                i = end;
            } else {
                i += 1;
            }
        }
        runs
    }

    /// Makes the look at what the request names ([`Self::look_first`], a read-only call) on the
    /// model's behalf, when it has not been made, reported as any call is; returns the message
    /// for the turn that answers from it, quoting its output (the first 60 lines, 6,000
    /// characters at most), and the call's record, for the caller to add to a turn's (so its
    /// lines can bear on the answer). `None` when there is no such look, or it failed.
    async fn make_look(
        &mut self,
        on_event: &mut (dyn FnMut(&AgentEvent) + Send),
    ) -> Option<(String, CallRecord)> {
        let look = self.look_first()?;
        if self.already_made(&look) {
            return None;
        }
        let value: serde_json::Value = serde_json::from_str(&look).ok()?;
        let name = value.get("name")?.as_str()?.to_owned();
        if !self.tools.is_read_only(&name) {
            return None;
        }
        let args = value.get("arguments")?.clone();
        self.calls_made += 1;
        let call = PendingCall {
            id: format!("call_{}", self.calls_made),
            name: name.clone(),
            arguments: Args::Value(args.clone()),
            native: false,
            raw: String::new(),
            fixes: Vec::new(),
        };
        on_event(&AgentEvent::ToolStart {
            id: call.id.clone(),
            name: name.clone(),
            args: args.clone(),
            cut_off: false,
        });
        let started = Instant::now();
        let result = self.tools.call(&call).await;
        self.toolbox_wait += started.elapsed();
        on_event(&AgentEvent::ToolEnd {
            id: call.id.clone(),
            name: name.clone(),
            result: result.clone(),
            sent: None,
            duration_ms: ms(started.elapsed()),
        });
        if !result.is_ok() {
            return None;
        }
        self.ran_under.push(value.clone());
        let mut shown: String = result
            .output
            .lines()
            .take(60)
            .collect::<Vec<_>>()
            .join("\n")
            .chars()
            .take(6_000)
            .collect();
        if shown.len() < result.output.trim_end().len() {
            shown.push_str("\n…");
        }
        let note = correct::look_made(&look, &shown, &self.typed);
        let made = CallRecord {
            id: call.id,
            name,
            args,
            native: false,
            feedback: result.output.clone(),
            result,
        };
        Some((note, made))
    }

    /// Runs one call through the toolbox, retrying world faults; returns the result, the message
    /// to feed back, and the reason for a corrective retry (reported after the call's `ToolEnd`).
    /// `first` is the result of a run that already happened (the call ran with its read-only
    /// run). A policy failure sets `skip` for the rest of the turn.
    async fn run_call(
        &mut self,
        call: &PendingCall,
        on_event: &mut (dyn FnMut(&AgentEvent) + Send),
        skip: &mut Option<String>,
        mut first: Option<CallResult>,
    ) -> (CallResult, String, Option<String>) {
        let mut attempts = 0;
        let mut result = loop {
            attempts += 1;
            let r = match first.take() {
                Some(r) => r,
                None => {
                    let t = Instant::now();
                    let r = self.tools.call(call).await;
                    self.toolbox_wait += t.elapsed();
                    r
                }
            };
            // Only a call that is safe to repeat, and that the toolbox did not retry already.
            if r.fault() == Some(Fault::World)
                && attempts <= self.options.world_retries
                && r.attempts <= 1
                && self.tools.is_retry_safe(&call.name)
            {
                let kind = r.failure.as_ref().map_or("failure", |f| f.kind.as_str());
                on_event(&AgentEvent::Retry {
                    reason: format!(
                        "`{}` failed for the world's fault ({kind}): running it again (attempt {} of {})",
                        call.name,
                        attempts + 1,
                        self.options.world_retries + 1
                    ),
                });
                continue;
            }
            break r;
        };
        result.attempts = result.attempts.max(attempts);
        match result.failure.clone() {
            None => {
                let feedback = result.output.clone();
                (result, feedback, None)
            }
            Some(f) if f.fault == Fault::World => {
                let feedback = result.output.clone();
                (result, feedback, None)
            }
            Some(f) => {
                if f.fault == Fault::Policy {
                    *skip = Some(format!(
                        "an earlier call in this turn was refused ({})",
                        f.message.trim_end()
                    ));
                }
                let (example, meant) = if self.example_helps(&call.name, &f) {
                    self.example_for_call(call)
                } else {
                    (None, false)
                };
                // The change a made-up call meant, shown as the call to send, is the change due
                // from now on: made, the model is told so and asked for the answer (held-out
                // city_default: the edit made, then sent again and again until the budget ran
                // out).
                if meant {
                    self.change_due.clone_from(&example);
                }
                let reason = format!(
                    "`{}` failed ({}): sent a corrective message{}",
                    call.name,
                    f.kind,
                    if example.is_some() {
                        " with a valid call"
                    } else {
                        ""
                    }
                );
                let done = f.kind == correct::ALREADY_DONE;
                let mut feedback =
                    correct::corrective(&self.grounded(f, example.as_deref()), example.as_deref());
                // Not when the message already shows that call (`edit`'s "Read the file first:
                // {…}"), nor when the conversation holds it: the model has looked; nor for a
                // change already made, sent again (textkit node_bump, session 34).
                if example.is_none()
                    && !done
                    && let Some(look) = self.look_first()
                    && !correct::shows_call(&feedback, &look)
                    && !self.already_made(&look)
                {
                    feedback.push_str(&correct::look_first(&look));
                } else if example.is_none()
                    && !done
                    && let Some((name, look)) = self.body_look()
                    && !correct::shows_call(&feedback, &look)
                {
                    feedback.push_str(&correct::body_next(&name, &look));
                }
                (result, feedback, Some(reason))
            }
        }
    }

    /// The message refusing `call` when it is a call of a tool that changes things whose
    /// arguments hold every value of that tool's example call (the one corrective messages and
    /// tool prompts show): a small model copies the example it is given, and running it would
    /// write or edit the example's file in the user's folder. `None` for any other call.
    fn copied_example(&self, call: &PendingCall) -> Option<String> {
        if self.tools.is_read_only(&call.name) {
            return None;
        }
        let example: serde_json::Value =
            serde_json::from_str(&self.tools.example_call(&call.name)?).ok()?;
        let wanted = example.get("arguments")?.as_object()?;
        if wanted.is_empty() {
            return None;
        }
        let sent = args_value(&call.arguments)?;
        let sent = sent.as_object()?;
        wanted
            .iter()
            .all(|(k, v)| sent.get(k) == Some(v))
            .then(|| correct::example_copied(&call.name, wanted))
    }

    /// The corrective message for a call of a tool that changes things whose text value is the
    /// name of a field of a tool's arguments, as its schema writes it: `{"content": "new_text"}`,
    /// `{"old_text": "old_text"}` — a placeholder, not the task's value (an OCaml/dune project,
    /// session 49: after a read, Qwen2.5-Coder-0.5B's `write` with `{"content": "new_text"}`
    /// replaced the opam file with those eight bytes). A name counts when it holds a `_` or is
    /// the field's own; the message adds the call making the change the request spells out,
    /// when there is one, else the look at what the request names.
    fn placeholder_value(&self, call: &PendingCall) -> Option<String> {
        if self.tools.is_read_only(&call.name) {
            return None;
        }
        let sent = args_value(&call.arguments)?;
        let sent = sent.as_object()?;
        let defs = self.tools.defs();
        let fields: Vec<&str> = defs
            .iter()
            .filter_map(|d| d.parameters.get("properties")?.as_object())
            .flat_map(|p| p.keys().map(String::as_str))
            .collect();
        let (field, value) = sent.iter().find_map(|(k, v)| {
            let v = v.as_str()?.trim();
            (fields.contains(&v) && (v.contains('_') || v == k)).then_some((k, v))
        })?;
        let mut m = correct::placeholder_value(&call.name, field, value);
        if let Some(due) = &self.change_due {
            m.push_str(&correct::change_next(due));
        } else if let Some(look) = self.look_first().filter(|c| !self.already_made(c)) {
            m.push_str(&correct::look_first(&look));
        }
        Some(m)
    }

    /// Whether a corrective message for `failure` of a call of `name` shows an example call. Not
    /// for a tool that changes things when the failure is about one value it refused or is a
    /// refusal (the user did not allow it, a policy): the example's values would only be copied,
    /// and run on the example's file. Never for a change already made (`already_done`): the call
    /// was right, and its repeat is what must stop.
    fn example_helps(&self, name: &str, failure: &CallFailure) -> bool {
        failure.kind != correct::ALREADY_DONE
            && (self.tools.is_read_only(name)
                || !(correct::names_a_value(failure) || failure.fault == Fault::Policy))
    }

    /// Whether a turn without calls is no answer, and if so the message asking again and the
    /// reason for the `Retry` event; each kind is asked again once a run (`asked` keeps
    /// count), with the user's request restated:
    /// - an empty reply, or one of no letter or digit (`.`: [`says_nothing`]; greedy decoding
    ///   would give the same nothing for the same request);
    /// - a reply that only echoes a message toolmend sent this run (a corrective message, a
    ///   note, a nudge) or the request itself (told what says so when the change it asks for
    ///   is already so, [`Toolbox::already_so`]) — but for the request's words once a call of
    ///   the run changed something: they say what was done;
    /// - a reply that is only the name of a tool ([`Self::only_tool_name`]);
    /// - an answer whose number the results hold only as a file's size in a listing
    ///   ([`correct::size_as_answer`]), with the look at what the request names when not made;
    /// - a reply that repeats word for word an earlier one asked again for what it said (an
    ///   echo, steps for the user, a tool's name, a refusal: `asked.hollow`), when calls gave
    ///   results since;
    /// - a refusal that says nothing about the request ([`correct::is_refusal`]) after tool
    ///   results or where the next turn offers tools: the tools can serve it (refused again,
    ///   the run ends [`EndReason::Refused`]);
    /// - a reply to a request that asks for a change, with no change due yet, that shows the
    ///   change in a code block the file the request names lines up with
    ///   ([`Toolbox::change_shown`]): the call that makes it is sent, and is the change due from
    ///   then on (`asked.due`, taken by the caller);
    /// - an answer written before any call when the request names something a read-only tool
    ///   can read ([`Self::look_first`]): the model cannot know what it holds;
    /// - an answer to a request that asks for a change ([`correct::asks_change`]) of something
    ///   it names in the folder ([`Self::look_first`]), or that is grounded in a file
    ///   ([`Toolbox::change_asked`]) or already so there, when no call of the run changed
    ///   anything (nor was refused by a policy) and the next turn (`tools_next`) offers a tool
    ///   that can: Qwen2.5-Coder-0.5B, asked to set a value in config.json, read the file and
    ///   answered with its content. A change already so is not asked for: the user is to be
    ///   told (an answer that says "already" stands).
    fn non_answer(
        &self,
        asked: &mut NonAnswers,
        record: &TurnRecord,
        content: &str,
        turns: &[TurnRecord],
        prompt: &str,
        tools_next: bool,
    ) -> Option<(String, &'static str)> {
        let after_results = turns.last().is_some_and(|r| !r.calls.is_empty());
        // The lines of the results that bear on the request, for the checks below that show or
        // read them: worked out once, when needed.
        let evidence = std::cell::OnceCell::new();
        let evidence = || evidence.get_or_init(|| self.evidence(turns));
        if says_nothing(&record.raw) {
            if asked.empty || record.stop != Some(StopReason::EndOfGeneration) {
                return None;
            }
            asked.empty = true;
            return Some((
                correct::empty_reply(&self.typed, after_results),
                "the reply was empty: asked again, with the request restated",
            ));
        }
        // The request's own words once the change it asks for is made say what was done
        // (textkit set, session 33: "Set MAX_LENGTH to 200." after the edit that sets it).
        let says_done = correct::asks_change(prompt)
            && correct::repeats_request(content, prompt)
            && !correct::echoes(content, sent_messages(turns, record.nudge.as_deref()))
            && self.changed(turns, false);
        if !asked.echo && !says_done && echoed(content, turns, record, prompt) {
            asked.echo = true;
            asked.hollow.push(record.raw.trim().to_owned());
            let mut note = correct::echo_reply(&self.typed, after_results);
            // A question with tool results: the lines bearing on it, as for a reply repeated
            // word for word (a Zig service, session 50: asked which port to send StatsD
            // packets to, Qwen2.5-Coder-0.5B read `docker-compose.yml`, echoed a message,
            // then the question, and the run ended with no answer).
            if correct::is_question(prompt)
                && turns.iter().any(|t| !t.calls.is_empty())
                && let Some(lines) = correct::bearing(evidence())
            {
                note.push('\n');
                note.push_str(&lines);
            }
            // A change that is already so: the echo of the request is where to say it.
            if let Some(so) = &self.already
                && !self.changed(turns, true)
            {
                note.push_str(&correct::already_so(so));
            }
            return Some((
                note,
                "the reply only repeated a message toolmend sent: asked again, with the request restated",
            ));
        }
        // Steps for the user that use one of the tools: the tools are the model's to call.
        // Found running `toolmend run` on a data folder (session 32): asked "How many orders
        // are in orders.csv?", Qwen2.5-Coder-0.5B answered "… you can use the `grep` function
        // with the pattern `^Orders$`. Here's how you can do it: …", twice.
        if !asked.how_to
            && tools_next
            && let Some(name) = correct::how_to_tool(
                content,
                prompt,
                &self
                    .tools
                    .defs()
                    .into_iter()
                    .map(|d| d.name)
                    .collect::<Vec<_>>(),
            )
        {
            asked.how_to = true;
            asked.hollow.push(record.raw.trim().to_owned());
            return Some((
                correct::how_to_reply(&self.typed, &name),
                "the reply told the user to use a tool: asked to call it and answer",
            ));
        }
        // A reply given word for word before, when it was no answer (the run went on), with
        // results since: no answer now either. Found with the shopdata set (session 33): the
        // steps for the user, then the read of orders.csv, then the same steps as the answer.
        if !asked.same
            && asked.hollow.iter().any(|h| h == record.raw.trim())
            && let Some(before) = turns
                .iter()
                .rposition(|r| r.calls.is_empty() && r.raw.trim() == record.raw.trim())
            && turns[before + 1..]
                .iter()
                .flat_map(|r| &r.calls)
                .any(|c| c.result.is_ok())
        {
            asked.same = true;
            let lines = correct::bearing(evidence());
            return Some((
                correct::same_reply(&self.typed, lines.as_deref()),
                "the reply repeated an earlier one that was no answer, after new results: asked again",
            ));
        }
        if !asked.tool_name
            && let Some(name) = self.only_tool_name(content, prompt)
        {
            asked.tool_name = true;
            asked.hollow.push(record.raw.trim().to_owned());
            return Some((
                correct::tool_name_reply(&self.typed, &name, after_results),
                "the reply was only the name of a tool: asked again, with the request restated",
            ));
        }
        // After results anywhere in the run (not only the last turn's: a retried turn may sit
        // between), the answer is in them.
        let results = turns.iter().any(|r| !r.calls.is_empty());
        if !asked.refusal && (results || tools_next) && correct::is_refusal(content) {
            asked.refusal = true;
            asked.hollow.push(record.raw.trim().to_owned());
            let look = (tools_next && !results)
                .then(|| self.look_first())
                .flatten()
                .filter(|l| !self.already_made(l));
            let lines = (results && !correct::asks_change(prompt))
                .then(|| correct::bearing(evidence()))
                .flatten();
            return Some((
                correct::refusal_reply(&self.typed, results, look.as_deref(), lines.as_deref()),
                "the reply refused a request the tools can serve: asked again, with the request restated",
            ));
        }
        // The change shown in a code block, not made: the call that puts the block in the file.
        if !asked.shown
            && tools_next
            && self.change_due.is_none()
            && correct::asks_change(prompt)
            && !self.changed(turns, true)
            && let Some(call) = self.tools.change_shown(prompt, content)
        {
            asked.shown = true;
            asked.due = Some(call.clone());
            return Some((
                correct::shown_reply(&self.typed, &call),
                "the reply showed the change in a code block and made no call: sent the call that makes it",
            ));
        }
        // A change the request spells out is grounded in the file already: the call that makes
        // it is the next step, not a look (below). Asked to add serde to Cargo.toml's
        // dependencies, Qwen2.5-Coder-0.5B showed the TOML, was asked to read the file, and
        // read it four times before the call was shown (session 28).
        let due = correct::asks_change(prompt) && self.change_due.is_some();
        // In a chat, an earlier prompt's run may have made that very call: its result is in the
        // conversation, and the answer may come from it.
        // Nor did calls of tools the model made up, for a question (a Zig service, session 50:
        // asked how long the metrics server waits for a request, Qwen2.5-Coder-0.5B called a
        // tool it made up twice, then answered with a sentence about calling it).
        let made_up = |c: &CallRecord| {
            c.result
                .failure
                .as_ref()
                .is_some_and(|f| ["unknown_tool", "repeated_failure"].contains(&f.kind.as_str()))
        };
        if !asked.unread
            && !due
            && turns
                .iter()
                .flat_map(|r| &r.calls)
                .all(|c| correct::is_question(prompt) && !c.result.is_ok() && made_up(c))
            && let Some(look) = self.look_first()
            && !self.already_made(&look)
        {
            asked.unread = true;
            return Some((
                correct::unread_answer(&look),
                "answered without looking at what the request names: asked to read it first",
            ));
        }
        if !asked.unchanged
            && tools_next
            && correct::asks_change(prompt)
            && !self.changed(turns, true)
            // Nothing to change, and the answer says it is already so.
            && !(self.already.is_some() && content.to_lowercase().contains("already"))
            && self
                .tools
                .defs()
                .iter()
                .any(|d| !self.tools.is_read_only(&d.name) && !self.withheld.contains(&d.name))
            // About something in the folder: "Change this sentence to the passive voice: …"
            // wants its answer in text. A change grounded in a file is about the folder though
            // the request names nothing there: "Change the CI to use Go 1.22." (a Go module,
            // session 30), answered with steps to follow.
            && (self.change_due.is_some() || self.already.is_some() || self.look_first().is_some())
        {
            asked.unchanged = true;
            return Some((
                correct::unchanged_reply(
                    &self.typed,
                    self.change_due.as_deref(),
                    self.already.as_deref(),
                ),
                if self.already.is_some() {
                    "the request asks for a change that is already so: asked to say so"
                } else {
                    "the request asks for a change and nothing was changed: asked to make it"
                },
            ));
        }
        // A tool's output copied whole, for a question that asks for one thing. Found with the
        // tally set (session 30): asked "What does the MaxLineLength function do?",
        // Qwen2.5-Coder-0.5B read README.md after its search and answered with the read's
        // output, line numbers and all.
        if !asked.copied
            && results
            && correct::asks_one_thing(prompt)
            && let Some(tool) = copied_output(
                content,
                turns,
                matches!(
                    record.stop,
                    Some(StopReason::MaxTokens | StopReason::ContextFull)
                ),
            )
        {
            asked.copied = true;
            let lines = correct::bearing(evidence());
            return Some((
                correct::copied_reply(&self.typed, &tool, lines.as_deref()),
                "the reply copied a tool's output whole: asked to answer the question itself",
            ));
        }
        // The results' texts, for the number and value checks below: gathered once, when
        // needed.
        let texts = std::cell::OnceCell::new();
        let texts = || {
            texts
                .get_or_init(|| self.result_texts(turns))
                .iter()
                .map(String::as_str)
        };
        // A number the results hold only as a file's size in a listing: taken from it (deploy
        // set, session 33: `269` for "How many days of backups are kept?", README.md's size).
        if !asked.size
            && results
            && let Some(number) = correct::size_as_answer(content, prompt, texts())
        {
            asked.size = true;
            let look = self.look_first().filter(|c| !self.already_made(c));
            return Some((
                correct::size_answered(&number, &self.typed, look.as_deref()),
                "the answer's number is only a file's size in a listing: asked to answer from the files",
            ));
        }
        // The message for a number no result holds, and whether the next turn offers no
        // tools: with the whole file read, the lines bearing on the request are what to answer
        // from (a Rust workspace, session 54: asked "What is the newest Rust toolchain that CI
        // runs the tests on?", shown ci.yml whole, Qwen2.5-Coder-0.5B answered `1.1.1`; told
        // to answer or call a tool, it read ci.yml twice more and the run ended unanswered).
        let unfounded = |number: &str| {
            let look = self.whole_file_look(turns);
            let bearing = if look.is_none() {
                correct::bearing(evidence())
            } else {
                None
            };
            let message =
                correct::number_unfounded(number, &self.typed, look.as_deref(), bearing.as_deref());
            (message, bearing.is_some())
        };
        // A version or a price no result holds: made up. Found with the tally set (session
        // 30): shown go.mod's `require` line, Qwen2.5-Coder-0.5B answered `Go 1.17.1`.
        if !asked.number
            && results
            && let Some(number) = correct::unfounded_number(content, prompt, texts())
        {
            asked.number = true;
            let (message, answer_only) = unfounded(&number);
            asked.answer_only = answer_only;
            return Some((
                message,
                "the answer holds a number no tool result holds: asked to answer from the results",
            ));
        }
        // The first part of a dotted name the bearing lines write, for the name (`django` for
        // `"ENGINE": "django.db.backends.postgresql"`: see `correct::cut_name`); and the like,
        // before a whole number no line holds is taken for made up: the start of the one number
        // the bearing lines write (`30` for `Duration(seconds: 300)`, see `correct::cut_number`).
        if !asked.number && results {
            let lines = evidence();
            let shown: Vec<&str> = lines.iter().map(String::as_str).collect();
            // A URL cut before its path, for the whole URL (see `correct::cut_url`).
            let all: Vec<&str> = texts().flat_map(str::lines).collect();
            let cut = correct::cut_url(content, prompt, &all)
                .map(|url| (url, "the answer gave the start of a URL the results write: asked for what it tells"))
                .or_else(|| {
                    correct::cut_name(content, prompt, &shown).map(|name| {
                        (name, "the answer gave the first part of a dotted or joined name the results write: asked for what it tells")
                    })
                })
                .or_else(|| {
                    correct::cut_path(content, prompt, &all).map(|path| {
                        (path, "the answer dropped the leading `/` of a path the results write: asked for it as written")
                    })
                })
                .or_else(|| {
                    correct::cut_unit(content, prompt, &all).map(|value| {
                        (value, "the answer left out the unit of a value the results write: asked for it as written")
                    })
                })
                .or_else(|| {
                    correct::cut_number(content, prompt, &shown).map(|number| {
                        (number, "the answer gave the start of the number the bearing lines write: asked for it as written")
                    })
                });
            if let Some((whole, why)) = cut {
                asked.number = true;
                asked.answer_only = true;
                return Some((
                    correct::name_cut(
                        &self.typed,
                        content.trim(),
                        &whole,
                        correct::bearing(lines).as_deref(),
                    ),
                    why,
                ));
            }
        }
        // A whole number no result's line holds, for a question about a default: made up, or
        // a read's line number (see `correct::unfounded_default`).
        if !asked.number && results {
            let shown: Vec<&str> = texts().flat_map(str::lines).map(shown_text).collect();
            if let Some(number) = correct::unfounded_default(content, prompt, &shown) {
                asked.number = true;
                let (message, answer_only) = unfounded(&number);
                asked.answer_only = answer_only;
                return Some((
                    message,
                    "the answer to a question about a default holds a whole number no result's line holds: asked to answer from the results",
                ));
            }
        }
        // A version cut short: `8` for `">=8.1"` (see `correct::cut_version`).
        if !asked.number && results {
            let lines = evidence();
            let shown: Vec<&str> = lines.iter().map(String::as_str).collect();
            if let Some((short, version)) = correct::cut_version(content, prompt, &shown) {
                asked.number = true;
                // The version is in the note: the next turn is for the answer, with no tools
                // (examples/invoicer, session 39: offered them, the model read composer.json
                // four times more until the run ended).
                asked.answer_only = true;
                return Some((
                    correct::version_cut(
                        &self.typed,
                        &short,
                        &version,
                        correct::bearing(lines).as_deref(),
                    ),
                    "the answer gave the start of the version the results write: asked for the whole",
                ));
            }
        }
        // One of the versions a line lists, for the newest (oldest, …) of them (see
        // `correct::not_extreme`). Once a run; the turn is for the answer.
        if !asked.number && results {
            let lines: Vec<&str> = texts()
                .flat_map(str::lines)
                .filter(|l| !l.starts_with('(') && !l.starts_with('['))
                .collect();
            if let Some((given, wanted, line, word)) = correct::not_extreme(content, prompt, &lines)
            {
                asked.number = true;
                asked.answer_only = true;
                return Some((
                    correct::not_the_extreme(&self.typed, &given, &wanted, &line, word),
                    "the answer gave one of the versions a line lists, not the one the question asks for: asked for it",
                ));
            }
        }
        // A version question answered with a version the results write only on lines about
        // something else, when lines about what it asks the version of hold a number (see
        // `correct::version_elsewhere`). Once a run; the turn is for the answer.
        if !asked.number
            && results
            && correct::is_question(prompt)
            && let Some(subject) = correct::version_subject(prompt)
        {
            let given: Vec<&str> = content
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .map(|v| v.trim_matches('.'))
                .filter(|v| writes_version(v))
                .collect();
            let raw: Vec<&str> = texts()
                .flat_map(str::lines)
                .filter(|l| !l.starts_with('(') && !l.starts_with('['))
                .collect();
            let lines: Vec<&str> = raw.iter().map(|l| shown_text(l)).collect();
            let about_text = |l: &str| l.to_lowercase().contains(subject.as_str());
            // A line is about the subject when it names it, or when a search shows it in the
            // entry a line naming it names (`version: ~> 0.28.0` "in the entry line 27 names",
            // `github: will/crystal-pg`: a Crystal web service, session 53, asked "Which version
            // of the crystal-pg driver does spire depend on?", answered ameba's `1.6.1` from a
            // line of the same key in `development_dependencies`).
            let about_at = |i: usize| {
                about_text(lines[i]) || entry_naming_line(&raw, i).is_some_and(about_text)
            };
            // Lines about the subject that write a number: not a listing's `tern-planner.opam
            // (1053 bytes)`, a file's name and size (an OCaml/dune project, session 49: asked
            // "What version of tern is this?", the answer `tern 0.6.1` was told to answer from
            // that line instead). Each once.
            let mut on_subject: Vec<&str> = Vec::new();
            for (i, l) in lines.iter().copied().enumerate() {
                if about_at(i)
                    && !listed_file(l)
                    && l.chars().any(|c| c.is_ascii_digit())
                    && !on_subject.contains(&l)
                {
                    on_subject.push(l);
                }
            }
            on_subject.truncate(3);
            let holds = |l: &str, v: &str| {
                l.match_indices(v).any(|(at, _)| {
                    let before = l[..at].chars().next_back();
                    let after = l[at + v.len()..].chars().next();
                    !before.is_some_and(|c| c.is_ascii_digit() || c == '.')
                        && !after.is_some_and(|c| c.is_ascii_digit())
                })
            };
            let elsewhere = given.iter().find_map(|v| {
                let on = (0..lines.len()).any(|i| about_at(i) && holds(lines[i], v));
                let other = (0..lines.len()).find(|&i| !about_at(i) && holds(lines[i], v));
                (!on).then_some(other).flatten().map(|i| (*v, lines[i]))
            });
            // Or a whole number no line writes as one (`11`, a read's line number, or of
            // `1.11.1`), when lines about the subject write a number (a Clojure service,
            // session 47: asked "Which Java version does CI run the tests on?", shown
            // `JAVA_VERSION: "17"`, Qwen2.5-Coder-0.5B answered `11`).
            let bare = content.trim().trim_matches('`').trim_end_matches('.');
            if elsewhere.is_none()
                && !on_subject.is_empty()
                && !bare.is_empty()
                && bare.len() <= 4
                && bare.chars().all(|c| c.is_ascii_digit())
                && !lines.iter().any(|l| holds(l, bare))
                && !correct::holds_number(prompt, bare)
            {
                asked.number = true;
                asked.answer_only = true;
                return Some((
                    correct::version_unfounded(&self.typed, bare, &subject, &on_subject),
                    "the answer to a version question gave a number no line writes: pointed at the lines about what was asked",
                ));
            }
            // Or a version the line naming the subject gives for another name, after the
            // subject's own: the first version after the subject's name is its own (a D log
            // shipper, session 55: asked "What's the oldest D compiler frontend version …?",
            // shown "… with frontend 2.105.2 or newer (DMD, or LDC 1.35", the answer was `DMD,
            // or LDC 1.35`).
            if elsewhere.is_none() {
                let first_after = |l: &str| {
                    let lower = l.to_lowercase();
                    // The subject's name as a whole word (not `rust` of `rustls`).
                    let at = lower
                        .match_indices(subject.as_str())
                        .find(|&(at, _)| {
                            !lower[..at].ends_with(|c: char| c.is_alphanumeric())
                                && !lower[at + subject.len()..]
                                    .starts_with(|c: char| c.is_alphabetic())
                        })?
                        .0
                        + subject.len();
                    l.get(at..)?
                        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                        .map(|v| v.trim_matches('.'))
                        .find(|v| writes_version(v))
                        .map(str::to_owned)
                };
                // Each line's first version after the subject's name, found once.
                let firsts: Vec<Option<String>> = lines.iter().map(|l| first_after(l)).collect();
                let other_name = given.iter().find_map(|v| {
                    let own = firsts.iter().any(|f| f.as_deref() == Some(*v));
                    // Another name right before it: not one of a list of the subject's
                    // versions (`ghc: ["9.4.8", "9.6.4", "9.8.2"]`), nor a range's end.
                    let named_before = |l: &str| {
                        let Some(at) = l.find(*v) else {
                            return false;
                        };
                        l[..at]
                            .split(|c: char| !c.is_alphanumeric())
                            .rfind(|w| !w.is_empty())
                            .is_some_and(|w| {
                                w.chars().count() >= 2
                                    && w.chars().all(char::is_alphabetic)
                                    && !w.eq_ignore_ascii_case(&subject)
                                    && ![
                                        "and", "or", "to", "through", "from", "newer", "older",
                                        "up", "than", "version", "versions", "release",
                                    ]
                                    .contains(&w.to_lowercase().as_str())
                            })
                    };
                    let (line, wanted) = lines.iter().zip(&firsts).find_map(|(l, f)| {
                        let f = f.as_deref().filter(|f| f != v)?;
                        (about_text(l) && holds(l, v) && named_before(l)).then_some((*l, f))
                    })?;
                    (!own).then(|| (*v, line, wanted.to_owned()))
                });
                if let Some((version, line, wanted)) = other_name {
                    asked.number = true;
                    asked.answer_only = true;
                    return Some((
                        correct::version_of_other_name(
                            &self.typed,
                            version,
                            line,
                            &subject,
                            &wanted,
                        ),
                        "the answer to a version question gave another name's version on the line about what was asked: pointed at the one the line gives for it",
                    ));
                }
            }
            if let Some((version, other)) = elsewhere
                && !on_subject.is_empty()
            {
                asked.number = true;
                asked.answer_only = true;
                return Some((
                    correct::version_elsewhere(&self.typed, version, other, &subject, &on_subject),
                    "the answer to a version question gave a version of something else: pointed at the lines about what was asked",
                ));
            }
        }
        // The value of a setting whose key names less of what the question asks than another
        // setting's the results write (`cpu: 500m` beside `memory: 256Mi` for "the default
        // memory limit": see `correct::value_elsewhere`). Once a run; the turn is for the
        // answer.
        if !asked.number && results && correct::is_question(prompt) {
            let all: Vec<&str> = texts().collect();
            // Not for the value of the first line shown as bearing on the question: the run's
            // own pick is not contradicted (a Python webhook relay, session 56: answered `23`
            // from `MARTEN_MAX_ATTEMPTS=23`, first of the lines shown for "how many times does
            // marten try to deliver a webhook before it gives up and dead-letters it?", the
            // model was pointed at `MARTEN_DEAD_LETTER_KEEP=5000`, whose key holds "dead" and
            // "letter", and answered `5000`).
            let first_bearing = evidence().first().map(|b| shown_text(b).trim().to_owned());
            if let Some((value, line, better)) = correct::value_elsewhere(content, prompt, &all)
                && first_bearing.as_deref() != Some(line.trim())
            {
                asked.number = true;
                asked.answer_only = true;
                return Some((
                    correct::value_of_other_key(&self.typed, &value, &line, &better),
                    "the answer gave the value of a setting whose key names less of the question than another's: pointed at that one",
                ));
            }
        }
        // The number guessed before any look, answered again after the looks, when the lines
        // bearing on the request hold another number and not it (see `correct::guess_kept`).
        // Once a run; the turn is for the answer.
        if !asked.number && results && correct::is_question(prompt) {
            // A guess is also what a made-up tool was sent before any call of the model's own
            // (`{"name": "listen_port", "arguments": {"port": "8080"}}`: a Swift/Vapor API,
            // session 56, where the look ran in its place, showed `static let defaultPort =
            // 7341` as bearing, and the answer was `8080`).
            let guesses: Vec<&str> = turns
                .iter()
                .take_while(|t| {
                    t.calls.iter().all(|c| {
                        !self.is_tool(&c.name) || c.feedback.starts_with("(No tool is named `")
                    })
                })
                .map(|t| t.raw.as_str())
                .collect();
            if !guesses.is_empty() {
                let lines = evidence();
                let shown: Vec<&str> = lines.iter().map(String::as_str).collect();
                if let Some(guess) = correct::guess_kept(content, prompt, &guesses, &shown) {
                    asked.number = true;
                    asked.answer_only = true;
                    return Some((
                        correct::guess_repeated(&self.typed, &guess),
                        "the answer kept the number guessed before looking, which no line bearing on the request holds: pointed at them",
                    ));
                }
            }
        }
        // A version question answered without any number, when the bearing lines write a
        // version (a C++/CMake daemon, session 41: asked "Which version of fmt is fetched?",
        // shown `GIT_TAG 10.2.1)` in the block `FetchContent_Declare(fmt` opens, the model
        // answered `fmt`). Once a run; the turn is for the answer.
        if !asked.number
            && results
            && correct::is_question(prompt)
            && crate::tools::asks_version(prompt)
            && !content.chars().any(|c| c.is_ascii_digit())
        {
            let lines = evidence();
            if lines.iter().any(|l| writes_version(line_text(l))) {
                asked.number = true;
                asked.answer_only = true;
                return Some((
                    correct::version_unanswered(
                        &self.typed,
                        content,
                        correct::bearing(lines).as_deref(),
                    ),
                    "the answer to a version question gave no version: asked for the one the results write",
                ));
            }
        }
        // A read's line number for the value (see `correct::line_number_as_answer`).
        if !asked.number
            && results
            && let Some(number) = correct::line_number_as_answer(content, prompt, texts())
        {
            asked.number = true;
            let shown = evidence();
            let bearing = correct::bearing(shown);
            // The numbers the bearing lines write, less those a change log line says were
            // replaced (`16` of "from 16 to 24") and the line number given.
            let replaced: Vec<String> = shown
                .iter()
                .filter_map(|l| replaced_values(shown_text(l)))
                .flat_map(|(old, _)| old)
                .collect();
            let mut values: Vec<String> = Vec::new();
            for v in shown.iter().flat_map(|l| value_tokens(shown_text(l))) {
                let numeric = v.chars().all(|c| c.is_ascii_digit() || c == '.');
                if numeric && v != number && !replaced.contains(&v) && !values.contains(&v) {
                    values.push(v);
                }
            }
            // The lines shown hold what the answer needs: the next turn offers no tools (a
            // Clojure service, session 49: asked again, Qwen2.5-Coder-0.5B sent its search and
            // read a fourth time, and the run ended with no answer).
            asked.answer_only = bearing.is_some();
            return Some((
                correct::line_number_answered(&number, &self.typed, bearing.as_deref(), &values),
                "the answer's number is only a read's line number: asked to answer from the lines' text",
            ));
        }
        // The place of a bearing line for the value (see `correct::path_as_answer`).
        if !asked.file
            && results
            && let Some(path) = {
                let lines = evidence();
                let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
                correct::path_as_answer(content, prompt, &lines)
            }
        {
            asked.file = true;
            asked.answer_only = true;
            return Some((
                correct::path_answered(&path, &self.typed, correct::bearing(evidence()).as_deref()),
                "the answer is only the file of a line bearing on the question: asked for the value the line writes",
            ));
        }
        // A question that asks which file, answered without naming one, when the results do.
        // Found running `toolmend run` on a Docker Compose folder (session 29): asked "Which
        // file sets the database password?", Qwen2.5-Coder-0.5B grepped `password`, was shown
        // `docker-compose.yml (line 14): POSTGRES_PASSWORD: notes-secret`, and answered
        // `POSTGRES_PASSWORD`.
        if !asked.file && results && correct::asks_which_file(prompt) {
            // A path the bearing lines write in quotes first (`~/.weatherlog.csv` in
            // `DEFAULT_PATH = os.path.expanduser("~/.weatherlog.csv")`: held-out
            // readings_file, session 33): the file the code keeps something in.
            let mut files: Vec<String> = Vec::new();
            for path in evidence()
                .iter()
                .flat_map(|l| quoted_paths(line_text(l)))
                .chain(files_in_results(turns))
            {
                if !files.contains(&path) {
                    files.push(path);
                }
            }
            // The reply's paths, when none of them is a file of the results or of the folder:
            // the dotfiles set (session 36), asked "Which file sets the PATH?" and shown
            // `.bashrc (line 4): export PATH="$HOME/bin:$PATH"`, Qwen2.5-Coder-0.5B answered
            // `/home/user/bin`.
            // The one file of the search lines bearing on the question, when they are all of
            // one: the answer (a Deno uptime checker, session 54: asked "Which source file
            // deletes old check results from the database?", answered `check_results` and told
            // the six files the results name, Qwen2.5-Coder-0.5B called a made-up tool until the
            // run ended; the one bearing line was `src/retention.ts (line 38): delete from
            // check_results`).
            let mut bearing_files: Vec<&str> = Vec::new();
            for l in evidence() {
                match match_line(l) {
                    Some((path, _)) if !bearing_files.contains(&path) => bearing_files.push(path),
                    Some(_) => {}
                    None => {
                        bearing_files.clear();
                        break;
                    }
                }
            }
            if let [one] = bearing_files[..]
                && files.iter().any(|f| f == one)
            {
                files = vec![one.to_owned()];
            }
            let paths: Vec<&str> = path_tokens(content).collect();
            let known = |path: &str| {
                let name = path.rsplit('/').next().unwrap_or(path);
                files
                    .iter()
                    .any(|f| f == path || f.rsplit('/').next() == Some(name))
                    || self.tools.call_named(path).is_some()
            };
            let unknown = (!paths.iter().any(|p| known(p)))
                .then(|| paths.first().copied())
                .flatten();
            if !files.is_empty() && (paths.is_empty() || unknown.is_some()) {
                asked.file = true;
                // One file named: the answer needs no tool, and the next turn offers none (a
                // Crystal web service, session 53: asked "Which source file implements the
                // per-client request throttling?", shown `src/spire/rate_limiter.cr`'s lines,
                // Qwen2.5-Coder-0.5B answered `Spire`; told the file, it sent its search and
                // read again until the run ended).
                asked.answer_only = files.len() == 1;
                return Some((
                    correct::file_unnamed(&self.typed, &files, unknown),
                    if unknown.is_some() {
                        "the question asks which file and the answer named none of the folder's: asked to name it"
                    } else {
                        "the question asks which file and the answer named none: asked to name it"
                    },
                ));
            }
        }
        // A question that asks which function (class, method, …), answered without naming
        // one of the names the bearing lines write as code. Found with the tally set (session
        // 34): asked "Which function finds the longest line?", shown `internal/count/count.go
        // (line 22): // MaxLineLength returns the length of the longest line in s.`,
        // Qwen2.5-Coder-0.5B answered "The longest line in `internal/count/count.go` is `22`."
        // A tool's name asked again already (above) is no answer either way.
        if !(asked.code && asked.made_up)
            && results
            && let Some(kind) = correct::asks_which_code(prompt)
            && self.only_tool_name(content, prompt).is_none()
            // A module or a package may be answered with its file's path.
            && !(["module", "package", "library", "crate"].contains(&kind)
                && names_path(content))
        {
            let lines = evidence();
            // A name the question writes is what it asks about, not the answer ("Which package
            // does slugify use?": textkit set, session 35, answered with `slugify`).
            let asked_about: Vec<String> = crate::tools::request_words(prompt)
                .map(str::to_lowercase)
                .collect();
            // A name a bearing line defines comes first, even one the question writes as a
            // word, when the question asks for something code defines (a Maven project,
            // session 37: "Which method lists the bookings staying on a given night?" is
            // `staying`, defined on the line the matched comment documents; the names shown
            // were those of the block below it).
            let definer = crate::tools::DEFINED_KINDS.contains(&kind);
            let written: Vec<String> = correct::code_names(prompt)
                .iter()
                .map(|n| n.to_lowercase())
                .collect();
            let (mut defined, mut names): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
            for line in lines {
                let text = shown_text(line);
                for name in correct::code_names(text) {
                    // Not a name the question writes as code: what it asks about
                    // (`cart_total` of "Which function does cart_total call …?").
                    if definer && defines(text, &name) && !written.contains(&name.to_lowercase()) {
                        if !defined.contains(&name) {
                            defined.push(name);
                        }
                    } else if !names.contains(&name) && !asked_about.contains(&name.to_lowercase())
                    {
                        names.push(name);
                    }
                }
            }
            names.retain(|n| !defined.contains(n));
            defined.append(&mut names);
            let mut names = defined;
            // Of the names, those that say the kind asked for, when any does — and of those,
            // the ones a bearing line defines: the class an exception extends and the methods
            // in its block are not it (a PHP library, session 39: told the results name
            // `EmptyInvoiceException`, `RuntimeException`, `__construct`, the model answered
            // `RuntimeException`).
            // A test need not say it is one (`Borrow_RejectsAFourthLoan`, JUnit's and xUnit's
            // methods); the class holding the tests does, and is no test: for a which-test
            // question, the names a bearing line defines, but a class's (a .NET API, session
            // 40: asked "Which test checks that a fourth loan is rejected?", shown
            // `public void Borrow_RejectsAFourthLoan()`, Qwen2.5-Coder-0.5B answered its own
            // made-up `test_check_fourth_loan_rejection`).
            if kind == "test" {
                let tests: Vec<String> = names
                    .iter()
                    .filter(|n| {
                        lines.iter().any(|l| {
                            let text = shown_text(l);
                            defines(text, n) && !defines_type(text, n)
                        })
                    })
                    .cloned()
                    .collect();
                if !tests.is_empty() {
                    names = tests;
                }
            } else if kind.len() >= 4 {
                let of_kind: Vec<String> = names
                    .iter()
                    .filter(|n| n.to_lowercase().contains(kind))
                    .cloned()
                    .collect();
                let defined_here: Vec<String> = of_kind
                    .iter()
                    .filter(|n| lines.iter().any(|l| defines(shown_text(l), n)))
                    .cloned()
                    .collect();
                if !defined_here.is_empty() {
                    names = defined_here;
                } else if !of_kind.is_empty() {
                    names = of_kind;
                }
            }
            // None there: the names of the run's results that say the kind (a Maven project,
            // session 37: the bearing line was `super("room " + room + " is already booked
            // …")`, inside `public class RoomTakenException extends RuntimeException {`).
            if names.is_empty() {
                let outputs = turns
                    .iter()
                    .flat_map(|t| &t.calls)
                    .filter(|c| c.result.is_ok())
                    .flat_map(|c| c.result.output.lines());
                for name in outputs
                    .filter(|l| !l.trim_start().starts_with('('))
                    .flat_map(|l| correct::code_names(shown_text(l)))
                {
                    let lower = name.to_lowercase();
                    if lower.contains(kind)
                        && lower != kind
                        && !names.contains(&name)
                        && !asked_about.contains(&lower)
                    {
                        names.push(name);
                    }
                }
            }
            let reply = content.to_lowercase();
            // A name in code the reply gives that no result and no file holds, when the look
            // at what the question names is not made: made up (a C library, session 36,
            // oldest_fn: `removeOldestItem`, the name of the model's own call, run as `ls`).
            // Held by a file only as written in another style (`addLine` for `add_line`): the
            // search for it in any style, what grep's `call_named` gives for such a name.
            // The made-up name, and that search when a file holds it only so (each name's
            // call looked up once: it reads the folder's files).
            let restyled = |n: &str, call: &str| {
                serde_json::from_str::<serde_json::Value>(call).is_ok_and(|c| {
                    c["name"] == "grep" && c["arguments"]["pattern"].as_str() != Some(n)
                })
            };
            let made_up: Option<(String, Option<String>)> =
                correct::code_names(content).into_iter().find_map(|n| {
                    if self.held_by_results(turns, &n) {
                        return None;
                    }
                    match self.tools.call_named(&n) {
                        None => Some((n, None)),
                        Some(call) if restyled(&n, &call) => Some((n, Some(call))),
                        Some(_) => None,
                    }
                });
            // The look made already and no name in the bearing lines, the search for the name
            // however it is written, when a file holds it so: `addLine` for `add_line` (a PHP
            // library, session 39: asked "Which method adds a line to an invoice?", the model
            // read `src/Line.php`, the file `line` names, and answered `add_line`; the method
            // is Invoice's `addLine`).
            if !asked.code
                && let Some((name, any_style)) = &made_up
                && let Some(look) =
                    self.look_first()
                        .filter(|c| !self.already_made(c))
                        .or_else(|| {
                            any_style
                                .clone()
                                .filter(|c| names.is_empty() && !self.already_made(c))
                        })
            {
                asked.code = true;
                return Some((
                    correct::code_unfounded(&self.typed, kind, name, &look),
                    "the question asks which function (class, …) and the answer's name is in no result or file: asked to look",
                ));
            }
            // Asked once already, a name made up next is asked about once more, with the
            // names the results give (a Maven project, session 37: told the results name
            // `RoomTakenException`, the model answered `RoomAlreadyBookedException`).
            if asked.code
                && let Some((name, _)) = &made_up
                && !names.is_empty()
            {
                asked.made_up = true;
                asked.answer_only = true;
                return Some((
                    correct::code_made_up(&self.typed, kind, name, &names),
                    "the question asks which function (class, …) and the answer's name, asked again, is in no result or file: asked to name one the results give",
                ));
            }
            if !asked.code
                && !names.is_empty()
                && !names.iter().any(|n| reply.contains(&n.to_lowercase()))
            {
                asked.code = true;
                // The names are in the note: the next turn is for the answer, with no tools
                // (tally set, session 35: asked so with tools offered, the model went back to
                // the calls it had made until the run ended).
                asked.answer_only = true;
                return Some((
                    correct::code_unnamed(&self.typed, kind, &names),
                    "the question asks which function (class, …) and the answer named none: asked to name it",
                ));
            }
        }
        None
    }

    /// The tool whose name is the whole of `content` (quotes, backticks and a closing `.`
    /// aside), unless the user's `prompt` names that tool too: the name of a tool answers
    /// nothing the user asked. Found running `toolmend run` on a small Go module (session 30):
    /// asked "Which function finds the longest line?", Qwen2.5-Coder-0.5B searched, was shown
    /// the function's doc line, and answered `grep`.
    ///
    /// Also the one word a one-line answer gives after its last " is " ("The function that
    /// finds the longest line is `grep`.": the tally set, session 31, shown the same line).
    fn only_tool_name(&self, content: &str, prompt: &str) -> Option<String> {
        let whole = content.trim().trim_end_matches('.');
        let last = whole
            .rsplit_once(" is ")
            .filter(|(_, w)| !whole.contains('\n') && !w.trim().contains(char::is_whitespace))
            .map_or(whole, |(_, w)| w);
        let word = last.trim().trim_matches(['`', '"', '\'', '*']);
        if word.is_empty()
            || crate::tools::request_words(prompt).any(|w| w.eq_ignore_ascii_case(word))
        {
            return None;
        }
        self.tools
            .defs()
            .into_iter()
            .map(|d| d.name)
            .find(|n| n.eq_ignore_ascii_case(word))
    }

    /// Whether a call in `turns` changed something (said so, or succeeded and its tool is not
    /// read-only), or, when `refused` counts, a policy refused one that would have (the user did
    /// not allow it: asking the model to make the change again would go against the user's
    /// word).
    fn changed(&self, turns: &[TurnRecord], refused: bool) -> bool {
        turns.iter().flat_map(|t| &t.calls).any(|c| {
            let changes = !self.read_only_ran(&c.name, &c.result);
            c.result.changed
                || (changes && c.result.is_ok() && !c.result.cached)
                || (refused && changes && c.result.fault() == Some(Fault::Policy))
        })
    }

    /// `failure` with an example call of a tool in its message replaced by `example`, the same
    /// tool's call grounded in the request: the tool's fixed example (an unknown tool's message
    /// shows one), or any call of that tool when `example` is made of words of the request (a
    /// not-found message's first file, where the user named another). An unknown tool's message
    /// shows the closest tool's fixed example, replaced by any tool's grounded call (the look at
    /// what the request names, see [`Self::example_for`]). One message, one example to copy,
    /// the one that fits the task.
    fn grounded(&self, mut failure: CallFailure, example: Option<&str>) -> CallFailure {
        let Some(example) = example else {
            return failure;
        };
        let Some(name) = serde_json::from_str::<serde_json::Value>(example)
            .ok()
            .and_then(|v| v.get("name")?.as_str().map(str::to_owned))
        else {
            return failure;
        };
        // The fixed example shown: the example's own tool's, or for a name that is no tool
        // (its message shows the closest tool's), any tool's.
        let fixed = if failure.kind == "unknown_tool" {
            self.tools
                .defs()
                .iter()
                .filter_map(|d| self.tools.example_call(&d.name))
                .find(|f| failure.message.contains(f.as_str()))
        } else {
            self.tools
                .example_call(&name)
                .filter(|f| failure.message.contains(f.as_str()))
        };
        if let Some(fixed) = fixed
            && fixed != example
        {
            failure.message = failure.message.replace(&fixed, example);
        } else if self.request_named(example)
            && let Some((at, len)) = correct::call_in(&failure.message, &name)
        {
            failure.message.replace_range(at..at + len, example);
        }
        failure
    }

    /// The lines of this run's tool results that bear on the request, for the turn that must
    /// answer from them: those holding the request's telling words (a word written as code, a
    /// number, a name of two or three letters with a capital inside the sentence ("Go"), a
    /// word of four letters or more that is no common one; a plural counts as its singular)
    /// with the greatest weight — each word weighs one over the number of lines holding it —
    /// at most six, in the order the results gave them; a line that opens a section (a
    /// Markdown heading, `"dependencies": {`) brings its first lines (up to four), a row of a
    /// CSV file read is shown with its columns' names, a line a read and a search both showed
    /// is shown once; the output of the look offered for the request ([`Self::look_first`]),
    /// three lines or fewer none of which holds a telling word, is quoted whole and alone.
    /// Found on the held-out sets: after the right look, Qwen2.5-Coder-0.5B answered from the
    /// last result it was shown (`1` after an `ls`, when grep had shown `default=7`; release
    /// 1.4.0's entry for 1.3.0's).
    fn evidence(&self, turns: &[TurnRecord]) -> Vec<String> {
        const COMMON: &[&str] = &[
            "which",
            "what",
            "does",
            "that",
            "this",
            "with",
            "from",
            "when",
            "where",
            "according",
            "file",
            "files",
            "function",
            "functions",
            "name",
            "names",
            "given",
            "many",
            "much",
            "there",
            "their",
            "about",
            "into",
            "have",
            "after",
            "before",
            "they",
            "them",
            "should",
            "would",
            "could",
            "list",
            "show",
            "tell",
            "print",
            "prints",
            "give",
            "gives",
            "line",
            "lines",
            "folder",
            "change",
            "changed",
            "changes",
        ];
        // A one-letter name written as one beside "version" ("the oldest version of R", "Which
        // R version …"): an R package, session 50, where asked "What's the oldest version of R
        // that meadow can be installed on?", DESCRIPTION's `Version: 0.6.1` came first of the
        // lines shown and Qwen2.5-Coder-0.5B answered it, not `R (>= 4.1.0)`.
        let letters: Vec<usize> = crate::tools::version_letters(&self.request)
            .into_iter()
            .filter(|&i| i > 0)
            .collect();
        let words: Vec<String> = crate::tools::request_words(&self.request)
            // Two names joined by a slash are the two ("Erlang/OTP", "CI/CD": an Erlang/OTP
            // service, session 51), not a path.
            .flat_map(|w| {
                let parts: Vec<&str> = w.split('/').collect();
                let pair = parts.len() >= 2
                    && parts
                        .iter()
                        .all(|p| !p.is_empty() && p.chars().all(char::is_alphabetic));
                if pair { parts } else { vec![w] }
            })
            // A product named with its `.js` (`Node.js`, `Vue.js`) is the product: `"node":
            // ">=20.11.1"` for "What's the oldest Node.js version osprey says it supports?" (a
            // NestJS service, session 56, where `"source-map-support": "0.5.21",` was shown).
            .map(product_name)
            .enumerate()
            // A path or a file's name says where to look, not what to find.
            .filter(|(_, w)| {
                !(w.contains('/') || (w.contains('.') && w.chars().any(char::is_alphabetic)))
            })
            .filter(|&(at, w)| {
                let code = w
                    .chars()
                    .any(|c| c.is_ascii_digit() || c == '_' || c == '-');
                // A name of two or three letters written with a capital inside the sentence
                // ("Which Go version", "the CI", "my AWS region").
                let short_name = at > 0
                    && (2..4).contains(&w.chars().count())
                    && w.chars().all(char::is_alphabetic)
                    && w.starts_with(|c: char| c.is_uppercase());
                (code && w.chars().count() >= 2)
                    || short_name
                    || letters.contains(&at)
                    || (w.chars().count() >= 4
                        && w.chars().all(char::is_alphabetic)
                        && !COMMON.contains(&w.to_lowercase().as_str()))
            })
            .map(|(_, w)| w.to_lowercase())
            .map(|w| {
                let one = w.strip_suffix('s').filter(|s| s.len() >= 4);
                one.map_or(w.clone(), str::to_owned)
            })
            .fold(Vec::new(), |mut v, w| {
                if !v.contains(&w) {
                    v.push(w);
                }
                v
            });
        // Words a question implies, each pushed when every group of words before it has one
        // among the question's and the question lacks it:
        // - the time "between" two things is an interval (`"IntervalSeconds": 105` under
        //   `"Sweeper"` for "how many seconds pass between two sweeps …?": an F# API, session
        //   54, where `"HoldTtlSeconds"`, holding "holds", weighed as much);
        // - a JDK's (JRE's, JVM's) version is Java's (`java: ["17.0.13", "21.0.5", "23.0.1"]`
        //   for "What's the newest exact JDK version the CI test matrix runs on?": a Ktor link
        //   shortener, session 55, where `runs-on: ubuntu-24.04` was the line shown);
        // - a wait for a response is a timeout (`MARTEN_DELIVERY_TIMEOUT_SECONDS=47` for "how
        //   many seconds does marten wait for a destination to respond before that attempt
        //   counts as failed?": a Python webhook relay, session 55, where
        //   `MARTEN_SIGNATURE_TOLERANCE_SECONDS=150`, also in seconds, came first and was the
        //   answer).
        // - a process's (worker's) threads are its concurrency (`:concurrency: 26` under
        //   `production:` for "In production, how many threads does each Sidekiq process
        //   run?": a Rails API, session 56, where the comment "Threads per process come from
        //   SIDEKIQ_CONCURRENCY, falling back to 7." was the line shown).
        const IMPLIED: &[(&[&[&str]], &str)] = &[
            (&[&["between"]], "interval"),
            (&[&["thread"], &["process", "worker"]], "concurrency"),
            (&[&["jdk", "jre", "jvm"]], "java"),
            (
                &[&["wait"], &["respond", "response", "reply", "answer"]],
                "timeout",
            ),
        ];
        let mut words = words;
        for (groups, implied) in IMPLIED {
            let said = groups
                .iter()
                .all(|group| words.iter().any(|w| group.contains(&w.as_str())));
            if said && !words.iter().any(|w| w == implied) {
                words.push((*implied).to_owned());
            }
        }
        // How many times something is tried is a count of attempts (`MARTEN_MAX_ATTEMPTS=23`
        // for "how many times does marten try to deliver a webhook …?": a Python webhook
        // relay, session 55; "try" is too short a word to be one of the words above).
        // "Times" counts them and names nothing (`MARTEN_DELIVERY_TIMEOUT_SECONDS=47` held
        // "time" and was the line shown).
        if crate::builtin::counts_tries(&self.request) {
            words.retain(|w| w != "time");
            if !words.iter().any(|w| w == "attempt") {
                words.push("attempt".to_owned());
            }
        }
        if words.is_empty() {
            return Vec::new();
        }
        // The names of two or three letters the request writes in capitals ("OTP", "JVM"):
        // a part of a name in code as well as a word (`minimum_otp_vsn`).
        let short_names: Vec<String> = crate::tools::request_words(&self.request)
            .flat_map(|w| w.split('/'))
            .filter(|w| {
                (2..4).contains(&w.chars().count()) && w.chars().all(|c| c.is_ascii_uppercase())
            })
            .map(str::to_lowercase)
            .collect();
        // A release is a version ("the oldest Zig release": a Zig service, session 50).
        let version_asked = crate::tools::asks_version_or_release(&self.request);
        let code_asked = correct::asks_which_code(&self.request)
            .is_some_and(|kind| crate::tools::DEFINED_KINDS.contains(&kind));
        // For a question where a name of code is defined ("Which file is domin_to_percent()
        // defined in?"), that name: the line defining it bears on the question before the
        // lines calling or documenting it (an R package, session 49).
        let defined_names: Vec<String> = if crate::tools::request_words(&self.request)
            .take(200)
            .any(|w| {
                ["defined", "defines", "declared", "declares", "implemented"]
                    .contains(&w.to_lowercase().as_str())
            }) {
            correct::code_names(&self.request)
                .into_iter()
                .filter(|n| n.contains('_') || n.chars().skip(1).any(char::is_uppercase))
                .collect()
        } else {
            Vec::new()
        };
        // The lines of `held` (below) defining a name made of the request's words (all of
        // them, lower case).
        let mut defining: Vec<(usize, usize)> = Vec::new();
        // And those setting a key made only of the request's words, one of them a word naming
        // what a question asks for (`image` of "Which container image …", not the project's
        // name), with a value.
        let mut keyed: Vec<(usize, usize)> = Vec::new();
        let asked_for: Vec<String> = crate::builtin::asked_words(&self.request)
            .0
            .into_iter()
            .filter(|w| !w.contains(' '))
            .collect();
        // And those writing a version, for a question about one.
        let mut writing_versions: Vec<(usize, usize)> = Vec::new();
        // And those writing a number, for a question asking how many (how long, …).
        let quantity = crate::tools::asks_quantity(&self.request);
        let mut numbered: Vec<(usize, usize)> = Vec::new();
        // And, of those, the ones setting a name that ends with the unit a question asks a
        // number in ("how many minutes …": `"cooldownMinutes": 135` over a database URL's
        // port; a Deno uptime checker, session 54, where the URL holding the project's name
        // was the one line shown).
        let asked_unit = {
            let lower: Vec<String> = crate::tools::request_words(&self.request)
                .map(str::to_lowercase)
                .collect();
            lower
                .windows(3)
                .find(|w| w[0] == "how" && ["many", "much"].contains(&w[1].as_str()))
                .and_then(|w| crate::tools::unit_named(&w[2]))
        };
        let mut united: Vec<(usize, usize)> = Vec::new();
        let asked_words: Vec<String> = crate::tools::request_words(&self.request)
            .map(str::to_lowercase)
            .collect();
        // And those of files other than tests', for a question not about the tests: a test
        // passes values of its own (`userAgent: 'my-app/2.0'`); nor variants of other files
        // the question does not name (below).
        let of_tests = asked_words
            .iter()
            .any(|w| ["test", "tests", "tested", "testing", "spec", "specs"].contains(&w.as_str()));
        let mut primary: Vec<(usize, usize)> = Vec::new();
        let in_tests = |read_path: Option<&str>, line: &str| {
            line_place(read_path, line).is_some_and(|(path, _)| crate::builtin::is_test_file(&path))
        };
        // And, for a question about a default, those of a file of defaults (Ansible's
        // `defaults/main.yml`, a `defaults.json`) over the places that override them.
        // ("With no config file at all, …" asks for one too: see `crate::tools::asks_default`.)
        let about_default = crate::tools::asks_default(&self.request);
        let unconfigured = crate::tools::says_unconfigured(&self.request);
        let mut of_defaults: Vec<(usize, usize)> = Vec::new();
        // And those giving a default to what a question leaves unset ("when no limit is
        // given": `PageRequest(limit: Int = 25, …)`).
        let unset = crate::builtin::left_unset(&self.request);
        let mut defaulting: Vec<(usize, usize)> = Vec::new();
        // And those under a section named for the environment the question names
        // (`production:` then `:concurrency: 26`, for "In production, …"), over the lines
        // describing the default (a Rails API, session 56).
        let mut in_environment: Vec<(usize, usize)> = Vec::new();
        // The outputs of the run's calls that succeeded (not toolmend's notes around repeats).
        // With the path each result's read showed, to know its lines' places.
        let results: Vec<(Option<&str>, Vec<&str>)> = turns
            .iter()
            .flat_map(|t| &t.calls)
            .filter(|c| c.result.is_ok())
            .map(|c| {
                let read = (c.result.ran_as.as_deref().unwrap_or(&c.name) == "read")
                    .then(|| c.args.get("path").and_then(|p| p.as_str()))
                    .flatten();
                (read, c.result.output.lines().collect())
            })
            .collect();
        // A word naming a file read by its stem says which file to read, not what to find in
        // it: `tidewatch` for `tidewatch.gemspec` (a Ruby gem, session 38: asked "Which gem
        // does tidewatch use for time zones?", the lines shown were the gemspec's six holding
        // `tidewatch`, and Qwen2.5-Coder-0.5B answered `tidewatch`).
        let read_stems: Vec<&str> = results
            .iter()
            .filter_map(|(read, _)| read.map(crate::tools::file_stem))
            .collect();
        let words: Vec<String> = words
            .into_iter()
            .filter(|w| {
                !read_stems
                    .iter()
                    .any(|stem| crate::tools::word_names_stem(w, stem))
            })
            .collect();
        if words.is_empty() {
            return Vec::new();
        }
        // The short form code writes for a word, or for it and its neighbour joined (`tz` for
        // "time zones": a Ruby gem, session 38, where `spec.add_dependency "tzinfo"` held
        // none of the question's words, no line was shown as bearing, and asked to answer from
        // the results, Qwen2.5-Coder-0.5B answered `tidewatch`; see
        // `crate::tools::short_form`).
        let shortened: Vec<Option<String>> = (0..words.len())
            .map(|k| {
                let joined = |a: usize, b: usize| {
                    (b < words.len()).then(|| format!("{}{}", words[a], words[b]))
                };
                crate::tools::short_form(&words[k])
                    .or_else(|| joined(k, k + 1).and_then(|w| crate::tools::short_form(&w)))
                    .or_else(|| {
                        k.checked_sub(1)
                            .and_then(|j| joined(j, k))
                            .and_then(|w| crate::tools::short_form(&w))
                    })
                    .map(str::to_owned)
            })
            .collect();
        let body = |l: &str| line_text(l).to_owned();
        // Each distinct line of the results, with the words it holds.
        let mut held: Vec<(usize, usize, Vec<usize>)> = Vec::new();
        // A Dockerfile's `FROM` lines, each with its file and line number: a stage's base image.
        let mut stages: Vec<(usize, usize, String, usize)> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        let mut places: Vec<(String, usize)> = Vec::new();
        for (mi, (read_path, lines)) in results.iter().enumerate() {
            for (li, line) in lines.iter().enumerate() {
                let text = line.trim();
                // A note of toolmend's in an output (`(No tool is named …)`), or a search's or
                // a glob's report of nothing found (it writes the pattern), bears on nothing.
                if body(text).is_empty()
                    || text.starts_with('(')
                    || text.starts_with("no matches for `")
                    || text.starts_with("no files match `")
                    || seen.contains(&text)
                {
                    continue;
                }
                seen.push(text);
                // A search's line shown only as the head of the block a match is in (`src/
                // cli.zig (line 113, which line 120 is inside): test "flags override the
                // config file" {`) bears on nothing by its words, but for a question asking
                // which code (a Zig service, session 50: asked "On which port does zestd serve
                // /metrics when nothing overrides it?", that test's head, holding "override",
                // was the one line shown, over `pub const default_http_port: u16 = 9477;`).
                if !code_asked
                    && text
                        .split_once("): ")
                        .is_some_and(|(place, _)| place.contains(" is inside"))
                {
                    continue;
                }
                // A file's line shown twice — by a read and by a search — is shown once
                // (shopdata set, session 33: Grace Hopper's row, twice among three lines).
                if let Some(place) = line_place(*read_path, text) {
                    if places.contains(&place) {
                        continue;
                    }
                    places.push(place);
                }
                // A word inside a path names a file, not what it holds (`test/check.test.js`
                // in a listing, for "the tests"): paths are left out of the match — but for a
                // string the code writes (`expanduser("~/.weatherlog.csv")`, the file a
                // question about where readings are kept asks for), which is what it holds.
                let lower: String = text
                    .to_lowercase()
                    .split_whitespace()
                    .filter_map(|t| {
                        if is_path_token(t) {
                            t.find(['"', '\'']).map(|q| &t[q..])
                        } else {
                            Some(t)
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                // For a question about a version, a line writing one holds the word: the word
                // written elsewhere finds other versions (`<?xml version="1.0"?>` over `"php":
                // ">=8.1"` for "Which PHP version does the package require?").

                // For a question asking which function (method, class, …), the words of a name
                // the line defines: `addLine` holds "adds" and "line" (a PHP library, session
                // 39: asked "Which method adds a line to an invoice?", the search for
                // `add[_-]?line` showed `public function addLine(…)`, and the lines shown as
                // bearing were the test's calls, `$invoice->addLine(…)`, which hold `invoice`).
                let shown = body(text);
                // What the line shows of its file: a search's line without its place.
                let own = shown_text(text);
                let versioned = version_asked && writes_version(&shown);
                // A Dockerfile's `FROM` line names the base image of a stage: it holds "image"
                // and "base" (a Clojure service, session 47: asked "Which base image does the
                // final Docker image run on?", the read of the Dockerfile showed no line as
                // bearing, and Qwen2.5-Coder-0.5B answered `clojure`, the build stage's).
                let stage = shown
                    .trim_start()
                    .get(..5)
                    .is_some_and(|f| f.eq_ignore_ascii_case("from "))
                    .then(|| line_place(*read_path, text))
                    .flatten()
                    .filter(|(path, _)| {
                        let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
                        name.contains("dockerfile") || name.contains("containerfile")
                    });
                // Only a name made of them, two at least: `BookingService` is no answer to
                // "Which method lists the bookings …?", nor `Invoice` to the question above.
                let defined: Vec<Vec<String>> = if code_asked {
                    correct::code_names(&shown)
                        .into_iter()
                        .filter(|n| defines(&shown, n))
                        .map(|n| crate::tools::name_words(&n))
                        .filter(|parts| {
                            parts.len() >= 2
                                && parts.iter().all(|p| {
                                    asked_words.iter().any(|w| crate::tools::same_word(p, w))
                                })
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                let in_defined = |w: &str| {
                    defined
                        .iter()
                        .any(|parts| parts.iter().any(|p| crate::tools::same_word(p, w)))
                };
                // The words of the names in code the line writes (`Borrow_RejectsAFourthLoan`
                // holds "fourth" and "loan": a .NET API, session 40, where the test's line held
                // none of "Which test checks that a fourth loan is rejected?"'s words as words).
                let name_parts: Vec<String> = correct::code_names(&shown)
                    .iter()
                    .flat_map(|n| crate::tools::name_words(n))
                    .collect();
                // Two parts of a name side by side are the one word the question writes
                // (`KeepAlive` of `DefaultKeepAliveSecs* = 35` for "keepalive": a Nim daemon,
                // session 52, where the line shown was `set_ping_interval(opts.keepaliveSecs)`).
                let joined_parts: Vec<String> = correct::code_names(&shown)
                    .iter()
                    .flat_map(|n| {
                        crate::tools::name_words(n)
                            .windows(2)
                            .map(|p| format!("{}{}", p[0], p[1]).to_lowercase())
                            .collect::<Vec<_>>()
                    })
                    .collect();
                // A unit the question names, by the short form a name ends with (`_ms` of
                // `forecast_timeout_ms` for "how many milliseconds": an OCaml/dune project,
                // session 50, where `let max_wind_kn = 22.0` was shown, holding "wind").
                let in_names = |w: &str| {
                    ((w.chars().count() >= 4 || short_names.iter().any(|s| s == w))
                        && name_parts.iter().any(|p| crate::tools::same_word(p, w)))
                        || (w.chars().count() >= 6 && joined_parts.iter().any(|p| p == w))
                        || crate::tools::unit_named(w)
                            .map(|u| crate::tools::UNITS[u])
                            .is_some_and(|(_, shorts)| {
                                name_parts.len() >= 2
                                    && name_parts
                                        .last()
                                        .is_some_and(|p| shorts.contains(&p.as_str()))
                            })
                };
                // A YAML list's item (`- "4.14.2"`) holds the words of the key it is listed
                // under (`ocaml-compiler:`): an OCaml/dune project, session 50, where asked
                // "What's the oldest OCaml compiler the CI matrix still tests against?" the
                // lines shown were the `exclude:` entries' `ocaml-compiler: "4.14.2"` and
                // `"5.1.1"`, not the matrix's list, and Qwen2.5-Coder-0.5B answered `5.1.1`.
                let item = own.trim_start();
                let listed: Vec<String> = if item.starts_with("- ") && !item.contains(": ") {
                    correct::parent_key_words(lines, li)
                } else {
                    Vec::new()
                };
                // A version written inside an entry holds the entry's name: `"Version":
                // "1.1.4",` under `"dplyr": {` in renv.lock (an R package, session 50: asked
                // "Which exact dplyr version is locked in the renv lockfile?", the lines shown
                // were the first six `"Version"` lines, and Qwen2.5-Coder-0.5B answered R's
                // `4.3.2`).
                let mut entry: Vec<String> = if versioned && listed.is_empty() {
                    correct::parent_key_words(lines, li)
                } else {
                    Vec::new()
                };
                // And a search's line of an entry holds the words of the line naming the entry
                // (`version: ~> 0.28.0` "in the entry line 27 names", `github:
                // will/crystal-pg`): a Crystal web service, session 53.
                let naming = entry_naming_line(lines, li);
                if versioned && let Some(naming) = naming {
                    entry.extend(
                        naming
                            .to_lowercase()
                            .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                            .filter(|w| !w.is_empty())
                            .map(str::to_owned),
                    );
                }
                // A line under an environment's section (`production:` then `:concurrency:
                // 26` in sidekiq.yml) holds the environment's name (a Rails API, session 56).
                let section: Vec<String> = correct::parent_key_words(lines, li)
                    .into_iter()
                    .map(|w| w.to_lowercase())
                    .filter(|w| ENVIRONMENTS.contains(&w.as_str()))
                    .collect();
                let mut found: Vec<usize> = (0..words.len())
                    .filter(|&k| {
                        holds_word(&lower, &words[k])
                            || section.iter().any(|s| s == &words[k])
                            // A participle by its stem: `max_retries: 11` for "how many times is
                            // a failing job retried" (a Go job worker, session 53, where no
                            // line was shown as bearing and Qwen2.5-Coder-0.5B answered `14`,
                            // a line number).
                            || (words[k].ends_with("ed")
                                && crate::tools::ed_stems(&words[k])
                                    .iter()
                                    .any(|s| holds_word(&lower, s)))
                            || listed.iter().any(|p| crate::tools::same_word(p, &words[k]))
                            || entry.iter().any(|p| p.eq_ignore_ascii_case(&words[k]))
                            // A long flag by its name, as code declaring it writes it
                            // (`info [ "w"; "width" ]` for `--width`).
                            || words[k]
                                .strip_prefix("--")
                                .is_some_and(|n| n.len() >= 3 && holds_word(&lower, n))
                            || in_names(&words[k])
                            // "oldest" (earliest, lowest) names a minimum, "newest" (latest,
                            // highest) a maximum: `minimum_otp_vsn` for "the oldest Erlang/OTP
                            // release" (an Erlang/OTP service, session 51, where the
                            // release's `{release, {kiln, "1.4.2"},` was shown beside it).
                            || bound_named(&words[k], &name_parts)
                            || bound_written(&words[k], own)
                            // "release" asks for a version as "version" does.
                            || (versioned
                                && ["version", "release"].contains(&words[k].as_str()))
                            || (stage.is_some() && ["image", "base"].contains(&words[k].as_str()))
                            || in_defined(&words[k])
                            || shortened[k]
                                .as_deref()
                                .is_some_and(|s| holds_short(&lower, s))
                    })
                    .collect();
                if !found.is_empty() {
                    if section.iter().any(|s| asked_words.contains(s)) {
                        in_environment.push((mi, li));
                    }
                    if let Some((path, n)) = stage {
                        stages.push((mi, li, path, n));
                    }
                    if found.iter().any(|&k| in_defined(&words[k]))
                        || defined_names.iter().any(|n| defines(own, n))
                    {
                        defining.push((mi, li));
                    }
                    if versioned {
                        writing_versions.push((mi, li));
                    }
                    if quantity && writes_number(own) {
                        numbered.push((mi, li));
                        if asked_unit.is_some_and(|u| {
                            let (words, shorts) = crate::tools::UNITS[u];
                            name_parts.len() >= 2
                                && name_parts.last().is_some_and(|p| {
                                    words.contains(&p.as_str()) || shorts.contains(&p.as_str())
                                })
                        }) {
                            united.push((mi, li));
                            // It holds the words of the question that share a stem with the
                            // key it is under: "re-alerting" for `"cooldownMinutes": 135`
                            // under `"alerts": {` (not `"pruneEveryMinutes"` under
                            // `"history": {`), "sweeps" for `"IntervalSeconds": 105` under
                            // `"Sweeper": {` (an F# API, session 54, where `"HoldTtlSeconds"`
                            // holding "holds" was the line shown).
                            let parent = correct::parent_key_words(lines, li);
                            for (k, w) in words.iter().enumerate() {
                                if !found.contains(&k)
                                    && w.split('-').any(|w| {
                                        parent.iter().any(|p| shares_stem(&p.to_lowercase(), w))
                                    })
                                {
                                    found.push(k);
                                }
                            }
                        }
                    }
                    if unset.as_deref().is_some_and(|name| {
                        crate::builtin::keyword_arg(own, name)
                            // Or a Cmdliner option's default (`opt int 88 & info [ "w";
                            // "width" ]`).
                            .or_else(|| crate::builtin::cmdliner_default(own, name).map(|(_, v)| v))
                            .is_some_and(|v| {
                                v.starts_with(['"', '\''])
                                    || v.chars().any(|c| c.is_ascii_digit())
                                    || ["true", "false"].contains(&v)
                            })
                    }) {
                        defaulting.push((mi, li));
                    }
                    // Or a line setting a name that says it is the default, to a literal
                    // (`DefaultKeepAliveSecs* = 35` over `set_ping_interval(opts.keepaliveSecs)`
                    // for "What MQTT keepalive interval does fjord use by default …?": a Nim
                    // daemon, session 52).
                    let default_named = || {
                        // A declaration's keywords aside (`let DefaultPageSize = 36` in an F#
                        // module, `export const DEFAULT_PORT = 8164`).
                        let decl = crate::builtin::declared(own).0;
                        correct::keyed_of(decl).is_some_and(|(key, _)| {
                            crate::tools::name_words(key)
                                .iter()
                                .any(|p| p.eq_ignore_ascii_case("default"))
                        })
                    };
                    let place = line_place(*read_path, text);
                    let defaults_file = place
                        .as_ref()
                        .is_some_and(|(path, _)| crate::tools::is_defaults_file(path));
                    // Asked what holds with no configuration, a settings file's value is
                    // configuration (an F# inventory API, session 54: "If thimble runs with
                    // no appsettings files …, how many items does a catalogue page hold?"
                    // showed appsettings.json's `"DefaultPageSize": 30` over the code's `let
                    // DefaultPageSize = 36`).
                    let configured = unconfigured
                        && !defaults_file
                        && place
                            .as_ref()
                            .is_some_and(|(path, _)| crate::tools::is_settings_file(path));
                    if about_default && (defaults_file || default_named()) && !configured {
                        of_defaults.push((mi, li));
                    }
                    if !of_tests && !in_tests(*read_path, text) {
                        primary.push((mi, li));
                    }
                    // A list's item is set under its key (`ocaml-compiler:` then `- "4.14.2"`).
                    let item_key = (!listed.is_empty() && writes_number(own)).then(|| {
                        let same = |p: &String, w: &String| {
                            crate::tools::same_word(p, w) || crate::tools::abbreviates(p, w)
                        };
                        listed
                            .iter()
                            .all(|p| asked_words.iter().any(|w| same(p, w)))
                            && listed.iter().any(|p| asked_for.iter().any(|w| same(p, w)))
                    });
                    if item_key == Some(true) {
                        keyed.push((mi, li));
                    } else if let Some((key, value)) = correct::setting_key(own)
                        // Asked how many, a key set to a name tells no number: a summary's
                        // `samples = n,` over `const DEFAULT_WINDOW = 48` below the docstring
                        // "Number of samples in the … rolling window" (a Julia package,
                        // session 51).
                        && (!quantity || writes_number(value))
                    {
                        let mut parts = crate::tools::name_words(&key.replace('.', "_"));
                        // A part may be a word's short form (`min_ansible_version` for "the
                        // minimum Ansible version": a role's meta, session 47, where the lines
                        // shown were the changelog's).
                        let same = |p: &String, w: &String| {
                            crate::tools::same_word(p, w) || crate::tools::abbreviates(p, w)
                        };
                        let of_question = |p: &String| asked_words.iter().any(|w| same(p, w));
                        let of_asked = |p: &String| asked_for.iter().any(|w| same(p, w));
                        let fits = |parts: &[String]| {
                            parts.iter().all(of_question) && parts.iter().any(of_asked)
                        };
                        // With the key it is under: `memory: 256Mi` under `limits:`, for
                        // "What is the default memory limit of the container?", not the one
                        // under `requests:`.
                        parts.extend(correct::parent_key_words(lines, li));
                        if fits(&parts) {
                            keyed.push((mi, li));
                        }
                    }
                    held.push((mi, li, found));
                }
            }
        }
        // And the lines setting, to a literal, a name that a line holding a word naming what a
        // question asks for writes as code: `this.maxEntries = 256,` for "How many responses
        // does the cache hold by default?", after `/// When more than [maxEntries] responses
        // are stored …` (a Dart client, session 46: the line holds none of the question's
        // words, the lines shown as bearing were doc comments, and Qwen2.5-Coder-0.5B answered
        // `25`). Each takes the words of the line naming it.
        let mut referenced: Vec<(usize, usize)> = Vec::new();
        let naming: Vec<(String, Vec<usize>, Option<&str>)> = held
            .iter()
            .filter(|(_, _, found)| {
                found.iter().any(|&k| {
                    asked_for
                        .iter()
                        .any(|a| crate::tools::same_word(&words[k], a))
                })
            })
            .flat_map(|(mi, li, found)| {
                // A name holding the word itself is no name the line's words describe: made of
                // the question's words, it names only the line setting it, when that is this
                // line (`appVersion: "1.9.0"` for "Which version of the application …?"), else
                // none. `; max_endpoints = 2048` names
                // no setting of "endpoints" for "How many endpoints does quarry's report list
                // …?" (a Perl distribution, session 52: the one line shown was production's
                // `max_endpoints = 8192`, not the option's help, "Show the N slowest
                // endpoints … in each report. Default: 25.").
                let asked_here: Vec<&String> = found
                    .iter()
                    .map(|&k| &words[k])
                    .filter(|w| asked_for.iter().any(|a| crate::tools::same_word(w, a)))
                    .collect();
                let line = results[*mi].1[*li].trim();
                let asked_words = &asked_words;
                correct::code_names(shown_text(line))
                    .into_iter()
                    .filter_map(move |name| {
                        let parts = crate::tools::name_words(&name);
                        let itself = parts
                            .iter()
                            .any(|p| asked_here.iter().any(|w| crate::tools::same_word(p, w)));
                        let of_question = parts.iter().all(|p| {
                            asked_words.iter().any(|w| {
                                crate::tools::same_word(p, w) || crate::tools::abbreviates(p, w)
                            })
                        });
                        (!itself || of_question)
                            .then(|| (name, found.clone(), itself.then_some(line)))
                    })
            })
            .take(20)
            .collect();
        if !naming.is_empty() {
            for (mi, (read_path, lines)) in results.iter().enumerate() {
                for (li, line) in lines.iter().enumerate() {
                    let shown = shown_text(line);
                    let Some((key, _)) = correct::keyed_of(shown) else {
                        continue;
                    };
                    let text = line.trim();
                    let Some((_, found, _)) = naming.iter().find(|(name, _, only)| {
                        name == key && only.is_none_or(|only| only == text)
                    }) else {
                        continue;
                    };
                    let same =
                        |&(m, l, _): &(usize, usize, Vec<usize>)| results[m].1[l].trim() == text;
                    if let Some(&(m, l, _)) = held.iter().find(|h| same(h)) {
                        if !referenced.contains(&(m, l)) {
                            referenced.push((m, l));
                        }
                        continue;
                    }
                    held.push((mi, li, found.clone()));
                    referenced.push((mi, li));
                    if quantity && writes_number(shown) {
                        numbered.push((mi, li));
                    }
                    if !of_tests && !in_tests(*read_path, line) {
                        primary.push((mi, li));
                    }
                }
            }
        }
        // A value a change log says was replaced is stale where a line still writes it without
        // the value replacing it: the README's "Reports are 80 columns wide unless you pass
        // `--width`." after the changelog's "`--width` now defaults to 96 columns (was 80)." (a
        // Haskell/Cabal project, session 47: the README's line holds more of "How many columns
        // wide are reports when --width isn't given?"'s words, it alone was shown as bearing,
        // and Qwen2.5-Coder-0.5B answered `80`). A value replaced in turn (`from 10 to 16`,
        // then `from 16 to 24`) is no longer current either.
        let (old, new): (Vec<String>, Vec<String>) = results
            .iter()
            .flat_map(|(read_path, lines)| lines.iter().map(move |l| (*read_path, *l)))
            .filter(|(read_path, line)| {
                line_place(*read_path, line)
                    .is_some_and(|(path, _)| crate::builtin::is_changelog(&path))
            })
            .filter_map(|(_, line)| replaced_values(shown_text(line)))
            .fold((Vec::new(), Vec::new()), |(mut old, mut new), (o, n)| {
                old.extend(o);
                new.extend(n);
                (old, new)
            });
        let current: Vec<&String> = new.iter().filter(|v| !old.contains(v)).collect();
        let stale = |&(mi, li, _): &(usize, usize, Vec<usize>)| {
            let values = value_tokens(shown_text(results[mi].1[li]));
            values.iter().any(|v| old.contains(v)) && !values.iter().any(|v| current.contains(&v))
        };
        if !old.is_empty() && held.iter().any(|h| !stale(h)) {
            held.retain(|h| !stale(h));
        }
        // A variant of a file (`values-prod.yaml` of `values.yaml`) a question does not name
        // says what its base file's values are not by default: its lines come after the base
        // file's, as a test's do.
        let held_places: Vec<((usize, usize), String)> = held
            .iter()
            .filter_map(|&(mi, li, _)| {
                line_place(results[mi].0, results[mi].1[li]).map(|(path, _)| ((mi, li), path))
            })
            .collect();
        // Each held line of a variant of another held line's file, and whether the question
        // says its variant word.
        let said_words = &asked_words;
        let variants: Vec<((usize, usize), bool)> = held_places
            .iter()
            .flat_map(|(at, path)| {
                held_places.iter().filter_map(move |(_, base)| {
                    crate::tools::variant_word(base, path)
                        .map(|v| (*at, crate::tools::variant_said(said_words, &v)))
                })
            })
            .collect();
        primary.retain(|at| !variants.iter().any(|(v, said)| v == at && !said));
        // A variant the question names comes before its base file and the code reading it:
        // `.env.production`'s `VITE_API_BASE_URL=https://api.atlas-trips.io/v2` for "What API
        // base URL does the production build use?" (a Vue/Vite application, session 47: the
        // line shown as bearing was `src/config.ts`'s `apiBaseUrl: … ?? '/api'`, and
        // Qwen2.5-Coder-0.5B answered `/api`).
        let mut named_variant: Vec<(usize, usize)> = variants
            .iter()
            .filter(|(_, said)| *said)
            .map(|(at, _)| *at)
            .collect();
        named_variant.dedup();
        // Of the lines holding the request's words, each kind below in turn keeps its own when
        // it has any:
        // - for a question not about the tests, lines of files other than tests': `/// User-Agent
        //   sent when none is configured.` over `test('sends the User-Agent header', …)` and the
        //   `userAgent: 'my-app/2.0'` below it for "Which User-Agent does the client send by
        //   default?" (a Dart client, session 45: the model answered `my-app/2.0`); and of base
        //   files over their variants (`values.yaml`'s `memory: 256Mi` over `values-prod.yaml`'s
        //   `memory: 512Mi`, a Helm chart, session 45);
        // - asked for a default, lines of a file of defaults: `roles/harbor/defaults/main.yml`'s
        //   `harbor_db_max_open_conns: 900` over the inventory's `… 1500` for "How many open
        //   database connections does Harbor allow by default?" (an Ansible project, session
        //   46: shown both, Qwen2.5-Coder-0.5B answered `1500`);
        // - for a question about a version, lines writing one: `"phpunit/phpunit": "^10.5"` over
        //   `"test": "phpunit"` for "Which version of PHPUnit do the tests use?" (a PHP library,
        //   session 39: shown the second, the model answered `PHPUnit`);
        // - for a question asking which function, lines defining a name made of its words;
        // - lines setting a key made of its words alone: `image: geerlingguy/…` over
        //   `test_sequence:` for "Which container image do the Molecule tests run in?" (an
        //   Ansible role, session 44: `image` was on two lines, `pre_build_image: true` the
        //   other, and the lines shown as bearing were the test sequence's; Qwen2.5-Coder-0.5B
        //   answered `docker`);
        // - lines giving what the question leaves unset a default: `PageRequest(limit: Int = 25,
        //   …)` over the README's "Listings return at most 200 notes per page, whatever `limit`
        //   asks for." for "How many notes does a listing return by default when no limit is
        //   given?" (a Scala/sbt service, session 45: four of its words are the README's, and
        //   Qwen2.5-Coder-0.5B answered `200`);
        // - lines setting a name the question's lines name (`referenced` above);
        // - for a question asking how many, lines writing a number: `this.ttl = const
        //   Duration(seconds: 300),` over `/// A response body kept in the cache …` for "How
        //   many seconds are cached responses kept by default?" (the Dart client: the doc
        //   comment holds three of its words, and the model answered `25`).
        // Asked about the final (last, runtime) image, of a Dockerfile's stages the last: the
        // image the built container runs on.
        let final_asked = crate::tools::request_words(&self.request)
            .take(200)
            .any(|w| ["final", "last", "runtime"].contains(&w.to_lowercase().as_str()));
        if final_asked {
            held.retain(|(mi, li, _)| {
                stages
                    .iter()
                    .find(|(m, l, _, _)| m == mi && l == li)
                    .is_none_or(|(_, _, path, n)| {
                        !stages.iter().any(|(_, _, p, later)| p == path && later > n)
                    })
            });
        }
        // Of the lines writing a number, those of the code and configuration over documents':
        // `Arg.(value & opt int 88 & info [ "w"; "width" ] …)` over the README's table row
        // "| `-w`, `--width` | `80` | Width of the text table |" and the changelog's
        // "`--width` now defaults to 88 columns." (an OCaml/dune project, session 49: the
        // README's row holds the most of "How wide is the text table when I don't give
        // --width?"'s words, it alone was shown, and Qwen2.5-Coder-0.5B answered `80`).
        let coded: Vec<(usize, usize)> = numbered
            .iter()
            .copied()
            .filter(|&(mi, li)| {
                line_place(results[mi].0, results[mi].1[li]).is_some_and(|(path, _)| {
                    !crate::builtin::is_document(&path) && !crate::builtin::is_changelog(&path)
                })
            })
            .collect();
        // For a version question, the lines holding what the version is of, the word before
        // "version" or "release" ("the newest OTP version", "the oldest Zig release"),
        // adjectives aside: `otp: ['25.3', '26.2', '27.1']` over `runs-on: ubuntu-22.04` for
        // "What's the newest OTP version the CI runs the tests on?" (an Erlang/OTP service,
        // session 51: "runs" is a rarer word of the question than "OTP").
        let of_subject: Vec<(usize, usize)> = if version_asked {
            const NOT_SUBJECTS: &[&str] = &[
                "stable",
                "newest",
                "oldest",
                "latest",
                "earliest",
                "minimum",
                "maximum",
                "lowest",
                "highest",
                "current",
                "exact",
                "supported",
                "the",
                "which",
                "what",
                "a",
                "an",
            ];
            let products: Vec<String> = asked_words
                .iter()
                .map(|w| product_name(w).to_owned())
                .collect();
            let mut subjects: Vec<usize> = products
                .windows(2)
                .filter(|p| {
                    crate::tools::names_version(&p[1]) && !NOT_SUBJECTS.contains(&p[0].as_str())
                })
                // Each of two names joined by a slash ("the newest Erlang/OTP release": a
                // Gleam feed relay, session 54, where `runs-on: ubuntu-24.04` was the line
                // shown and `otp: ["26.2.5.6", "27.3.1"]` was not).
                .flat_map(|p| p[0].split('/').map(str::to_owned).collect::<Vec<_>>())
                .filter_map(|subject| words.iter().position(|w| *w == subject))
                .collect();
            // Or after "version of (the)": "Which version of the crystal-pg driver …?" (a
            // Crystal web service, session 53).
            for (i, w) in asked_words.iter().enumerate() {
                if ["version", "versions"].contains(&w.as_str())
                    && asked_words.get(i + 1).is_some_and(|o| o == "of")
                {
                    let at =
                        i + 2 + usize::from(asked_words.get(i + 2).is_some_and(|t| t == "the"));
                    if let Some(k) = asked_words
                        .get(at)
                        .and_then(|x| words.iter().position(|w| w == x))
                        && !subjects.contains(&k)
                    {
                        subjects.push(k);
                    }
                }
            }
            // The subject whole, a name not being a word's start: `rust` of "the oldest Rust
            // version" is in `rust-version = "1.76"`, not in `rustls-tls` (a Rust workspace,
            // session 53: the reqwest line holding `rustls-tls` was shown beside it, and of
            // the two the line of the lowest version, reqwest's `0.12.5`, was kept).
            held.iter()
                .filter(|&&(mi, li, ref found)| {
                    let mut lower = shown_text(results[mi].1[li]).to_lowercase();
                    if let Some(naming) = entry_naming_line(&results[mi].1, li) {
                        lower = format!("{lower}\n{}", naming.to_lowercase());
                    }
                    found.iter().any(|k| {
                        subjects.contains(k)
                            && (holds_whole(&lower, &words[*k])
                                || holds_whole(&lower, &format!("{}s", words[*k])))
                    })
                })
                .map(|&(mi, li, _)| (mi, li))
                .collect()
        } else {
            Vec::new()
        };
        // Asked "how many times is K V-ed", the lines holding V's stem count what is asked
        // (`max_retries: 11` over `job_timeout_seconds: 110` for "how many times is a failing
        // job retried …": a Go job worker, session 53).
        let done_stems: Vec<String> = asked_words
            .windows(3)
            .position(|w| w == ["how", "many", "times"])
            .and_then(|at| {
                asked_words[at + 3..]
                    .iter()
                    .take(8)
                    .find(|w| w.len() >= 5 && w.ends_with("ed"))
            })
            .map(|w| crate::tools::ed_stems(w))
            .unwrap_or_default();
        let counting: Vec<(usize, usize)> = held
            .iter()
            .filter(|&&(mi, li, _)| {
                let lower = shown_text(results[mi].1[li]).to_lowercase();
                done_stems.iter().any(|s| holds_word(&lower, s))
            })
            .map(|&(mi, li, _)| (mi, li))
            .collect();
        for kept in [
            &primary,
            &named_variant,
            &in_environment,
            &of_defaults,
            &counting,
            &writing_versions,
            &of_subject,
            &defining,
            &keyed,
            &defaulting,
            &referenced,
            &numbered,
            &united,
            &coded,
        ] {
            if held.iter().any(|(mi, li, _)| kept.contains(&(*mi, *li))) {
                held.retain(|(mi, li, _)| kept.contains(&(*mi, *li)));
            }
        }
        // A word on many lines tells little (the project's name): each word weighs one over
        // the number of lines holding it, and only the lines of the greatest weight are kept.
        let mut lines_with = vec![0usize; words.len()];
        for (_, _, found) in &held {
            for &k in found {
                lines_with[k] += 1;
            }
        }
        // Two words of the question side by side that a name in the line joins weigh two more:
        // `line_length` for "line length" (an Erlang/OTP service, session 51: elvis.config's
        // `{elvis_text_style, line_length, #{limit => 100 …}}` weighed as much as
        // `{elvis_style, max_function_length, #{max_length => 40}}`, "max" standing for
        // "maximum", and Qwen2.5-Coder-0.5B answered 40).
        let pairs: Vec<[String; 3]> = asked_words
            .windows(2)
            .filter(|p| {
                p.iter().all(|w| {
                    w.len() >= 3
                        && w.chars().all(char::is_alphabetic)
                        && ![
                            "the", "and", "our", "your", "for", "with", "from", "what", "which",
                        ]
                        .contains(&w.as_str())
                })
            })
            .map(|p| ["_", "-", ""].map(|j| format!("{}{j}{}", p[0], p[1])))
            .collect();
        let joined = |mi: usize, li: usize| -> f64 {
            let names: Vec<String> = correct::code_names(shown_text(results[mi].1[li]))
                .iter()
                .map(|n| n.to_lowercase())
                .collect();
            let held = pairs.iter().any(|forms| {
                names.iter().any(|n| {
                    forms.iter().any(|f| {
                        n == f
                            || n.starts_with(&format!("{f}_"))
                            || n.ends_with(&format!("_{f}"))
                            || n.contains(&format!("_{f}_"))
                    })
                })
            });
            // As its two words would, were they each on this line alone.
            if held { 2.0 } else { 0.0 }
        };
        let weight = |mi: usize, li: usize, found: &[usize]| -> f64 {
            found
                .iter()
                .map(|&k| 1.0 / lines_with[k] as f64)
                .sum::<f64>()
                + joined(mi, li)
        };
        let best = held
            .iter()
            .map(|&(mi, li, ref f)| weight(mi, li, f))
            .fold(0.0_f64, f64::max);
        let mut scored: Vec<(usize, usize)> = held
            .iter()
            .filter(|&&(mi, li, ref f)| weight(mi, li, f) >= best - 1e-9)
            .take(6)
            .map(|&(mi, li, _)| (mi, li))
            .collect();
        // Asked for the newest (latest, highest) or oldest (earliest, lowest) version, and
        // shown lines that each write one version: the line of the highest, or the lowest (a
        // Julia package, session 51: asked "Which is the newest stable Julia release that CI
        // runs the test suite on?", shown the matrix's `- '1.9'`, `- '1.10'`, `- '1.11'` and
        // the `include:` entries' `- version: '1.10'`, Qwen2.5-Coder-0.5B answered 1.10).
        if version_asked && let Some(newest) = asked_words.iter().find_map(|w| extreme(w)) {
            let version = |(mi, li): (usize, usize)| -> Option<Vec<u64>> {
                let mut versions = shown_text(results[mi].1[li])
                    .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                    .filter(|v| v.contains('.') && !v.starts_with('.') && !v.ends_with('.'));
                let (Some(v), None) = (versions.next(), versions.next()) else {
                    return None;
                };
                v.split('.').map(|p| p.parse().ok()).collect()
            };
            let versions: Vec<Option<Vec<u64>>> = scored.iter().map(|&at| version(at)).collect();
            if scored.len() > 1 && versions.iter().all(Option::is_some) {
                let pick = if newest {
                    versions.iter().flatten().max()
                } else {
                    versions.iter().flatten().min()
                }
                .cloned();
                scored = scored
                    .iter()
                    .zip(&versions)
                    .filter(|(_, v)| v.as_ref() == pick.as_ref())
                    .map(|(at, _)| *at)
                    .take(1)
                    .collect();
            }
        }
        let cut = |l: &str| -> String {
            let l = l.trim_end();
            if l.chars().count() > 200 {
                l.chars().take(200).chain("…".chars()).collect()
            } else {
                l.to_owned()
            }
        };
        // A line that opens a section — a Markdown heading, a line ending with `{`, `[` or `:`
        // (`"dependencies": {`, `def load():`) — brings the section's first lines.
        let opens = |l: &str| {
            let b = body(l);
            b.starts_with('#') || b.ends_with(['{', '[', ':'])
        };
        let closes = |l: &str| {
            let b = body(l);
            b.starts_with(['#', '}', ']'])
        };
        let mut out: Vec<String> = Vec::new();
        // The output of the look toolmend offers for the request (see `look_first`), when it is
        // three lines or fewer and none holds a word of the request, is what bears on it:
        // `.nvmrc`'s `18`, asked which Node version a project uses (textkit set, session 33).
        if let Some(look) = self.look_first()
            && let Ok(look) = serde_json::from_str::<serde_json::Value>(&look)
        {
            let output = turns
                .iter()
                .flat_map(|t| &t.calls)
                .find(|c| {
                    c.result.is_ok()
                        && look["name"].as_str() == Some(c.name.as_str())
                        && look.get("arguments") == Some(&c.args)
                })
                .map(|c| c.result.output.as_str());
            if let Some(output) = output {
                let filled: Vec<&str> = output
                    .lines()
                    .filter(|l| !body(l).is_empty() && !l.trim().starts_with('('))
                    .collect();
                let silent = filled.iter().all(|l| {
                    let lower = l.to_lowercase();
                    !words.iter().any(|w| holds_word(&lower, w))
                });
                if silent && (1..=3).contains(&filled.len()) {
                    // Alone: lines of other results that hold the request's words are what the
                    // model answered from instead (package.json's own version).
                    return filled.iter().map(|l| cut(l)).collect();
                }
            }
        }
        for (mi, li) in scored {
            let (read_path, lines) = &results[mi];
            // A row of a table file read whole is shown with its header's column names, each
            // value after its own (`3\tid: 2, name: Grace Hopper, country: US`): a row alone
            // says not which value is the country (shopdata set, session 33: shown the
            // header and the row, the model still answered with the first row's country).
            let table = read_path.is_some_and(|p| crate::builtin::table_separator(p).is_some());
            let header = (table
                && li > 0
                && line_place(*read_path, lines[li]).is_some()
                && line_place(*read_path, lines[0]).is_some_and(|(_, n)| n == 1))
            .then(|| lines[0]);
            if let Some(header) = header
                && let Some(named) = named_row(header, lines[li])
            {
                let named = cut(&named);
                if !out.contains(&named) {
                    out.push(named);
                }
                continue;
            }
            if let Some(header) = header {
                let header = cut(header);
                if !out.contains(&header) {
                    out.push(header);
                }
            }
            let line = cut(lines[li]);
            if !out.contains(&line) {
                out.push(line);
            }
            // A comment brings the line it documents, which grep shows after it (a C library,
            // session 36: the bearing line was `/* Removes the oldest item … */` alone, and
            // the model answered with a name of its own), and so the lines of the block grep
            // shows after a line: a documented line's, a description's (a Terraform folder,
            // session 38: the bearing line was `description = "AWS region to deploy into."`,
            // not `default = "eu-west-2"` shown below it, and the model answered with the
            // description), a line of data's.
            for next in lines.iter().skip(li + 1).take(7).take_while(|next| {
                crate::builtin::SHOWN_WITH.iter().any(|m| next.contains(m))
                    && match_line(next).map(|(p, _)| p) == match_line(lines[li]).map(|(p, _)| p)
            }) {
                // The same key in another section comes only for a section the request names
                // ("the production profile"): shard.yml's `development_dependencies` brought
                // ameba's `version: ~> 1.6.1` after crystal-pg's, and Qwen2.5-Coder-0.5B
                // answered it (a Crystal web service, session 53).
                if let Some((_, section)) =
                    next.split_once(", the same key in the section on line ")
                    && let Some(name) = section.split('`').nth(1)
                    && !crate::tools::request_words(&self.request).any(|w| {
                        crate::tools::name_words(&name.replace(['.', '-'], "_"))
                            .iter()
                            .any(|p| crate::tools::same_word(p, w))
                    })
                {
                    continue;
                }
                let next = cut(next);
                if !out.contains(&next) {
                    out.push(next);
                }
            }
            if opens(lines[li]) {
                // A search's line brings the lines it shows of its block — the same file's next
                // four — not the next matches' (a Scala/sbt service, session 46: after
                // `final case class PageRequest(limit: Int = 25, …) {` came `object PageRequest
                // {` and `val MaxLimit = 200`, and Qwen2.5-Coder-0.5B answered `200`).
                let place = match_line(lines[li]);
                for next in lines.iter().skip(li + 1).take(4) {
                    let in_block = match (place, match_line(next)) {
                        (None, _) => true,
                        (Some((path, n)), Some((p, m))) => p == path && m > n && m <= n + 4,
                        (Some(_), None) => false,
                    };
                    if !in_block || closes(shown_text(next)) {
                        break;
                    }
                    let shown = cut(next);
                    if !body(next).is_empty() && !out.contains(&shown) {
                        out.push(shown);
                    }
                }
            }
        }
        out
    }

    /// Whether the call `call` (JSON text) is made of the request's own words: every string
    /// argument (one at least; flags and numbers aside) a word of it or a file it names by its
    /// stem (see [`crate::tools::request_names`]; not a fallback such as a folder's first
    /// file, nor the `.` of a sentence).
    fn request_named(&self, call: &str) -> bool {
        serde_json::from_str::<serde_json::Value>(call)
            .ok()
            .and_then(|c| {
                let args = c.get("arguments")?.as_object()?;
                // A search of the one source file that holds the most of the question's words,
                // for a question asking which source file (grep's `search_in_described`): its
                // path is the workspace's, not the request's.
                let described = c.get("name").and_then(serde_json::Value::as_str) == Some("grep")
                    && crate::builtin::asks_which_source(&self.request);
                let mut strings = args
                    .iter()
                    .filter(|(k, _)| !(described && k.as_str() == "path"))
                    .filter_map(|(_, v)| v.as_str())
                    .peekable();
                // Flags and numbers (`"ignore_case": true`) are no fallback; every string is.
                Some(
                    strings.peek().is_some()
                        && args.values().all(|v| !(v.is_object() || v.is_array()))
                        && strings.all(|s| {
                            crate::tools::request_names(&self.request, s)
                                || holds_phrase(&self.request, s)
                                || stem_of_request_word(&self.request, s)
                                // A long flag's name without its dashes (see grep's
                                // `example_for`).
                                || crate::tools::request_words(&self.request)
                                    .any(|w| w.strip_prefix("--") == Some(s))
                                // A default's name joined to a word of the request, for a
                                // question about a default that does not say "default" ("When
                                // the metrics address isn't configured anywhere, …": a Rust
                                // workspace, session 53).
                                || (crate::tools::asks_default(&self.request)
                                    && s.strip_prefix(r"default[\w.-]*").is_some_and(|rest| {
                                        crate::tools::request_names(&self.request, rest)
                                            // A phrase joined as code joins it.
                                            || holds_phrase(
                                                &self.request,
                                                &rest.replace("[ ._-]?", " "),
                                            )
                                    }))
                                // A name the request asks for, set to a number (grep's
                                // `assigned_name`).
                                || s
                                    .strip_prefix(r"\b")
                                    .and_then(|r| r.strip_suffix(crate::builtin::ASSIGNED))
                                    .is_some_and(|n| {
                                        crate::tools::request_names(&self.request, n)
                                    })
                                // A default the request describes, where it is set (see
                                // grep's `documented_default`).
                                || (crate::tools::asks_default(&self.request)
                                    && s.ends_with(crate::builtin::SET_HERE))
                                // A port as the files write it, for a question about a port.
                                || (s == crate::builtin::PORT_PATTERN
                                    && crate::tools::request_words(&self.request)
                                        .any(|w| w.eq_ignore_ascii_case("port")))
                        }),
                )
            })
            .unwrap_or(false)
    }

    /// The change due (`change_due`: its tool's name and arguments) when `call` names no tool
    /// but sends that call's arguments: the model means the call it was shown. Every value
    /// the same, and no other, but for a `path` left out or written as a folder the due file
    /// is in (`.`: small models keep a placeholder path). A tool that changes things never
    /// runs under another name otherwise; this call is the one toolmend showed for the change
    /// the user asked for, and runs as it would have under its own name (a `--ask` policy asks
    /// first). Found running `toolmend run` on a folder of dotfiles (session 31): asked "Make
    /// nano the default editor in .bashrc.", and shown the `edit` of `export EDITOR=vim`,
    /// Qwen2.5-Coder-0.5B sent its `old_text` and `new_text` with the path `.` under the name
    /// `nano` three times, and the run ended with nothing changed. A made-up name sent only the
    /// new value the request gives is the change due too (see the code).
    fn due_as(&self, call: &PendingCall) -> Option<(String, serde_json::Value)> {
        if self.is_tool(&call.name) {
            return None;
        }
        let due_text = self.change_due.as_deref()?;
        let due: serde_json::Value = serde_json::from_str(due_text).ok()?;
        let name = due["name"].as_str()?;
        let want = due["arguments"].as_object()?;
        let sent = args_value(&call.arguments)?;
        let sent = sent.as_object()?;
        let fits = sent.keys().all(|k| want.contains_key(k))
            && want.iter().all(|(k, v)| match (sent.get(k), v) {
                (Some(s), v) if s == v => true,
                (None, serde_json::Value::String(_)) if k == "path" => true,
                (Some(serde_json::Value::String(s)), serde_json::Value::String(p))
                    if k == "path" =>
                {
                    in_folder(s, p)
                }
                _ => false,
            })
            && want.len() > 1;
        // Or, once the change due was shown, one value alone: the new value the request gives
        // (a word of it) that the change due writes and its old text lacks (`{"locale":
        // "en-GB"}` for "Change DEFAULT_LOCALE to en-GB.", a TypeScript package, session 33).
        let new_value = || {
            // Values that say nothing aside: a search's placeholders the model copied beside
            // it (`{"pattern": ".*", "path": ".", "glob": null, "ignore_case": false,
            // "rolling_window": 96}` for "Make the spike filter's default rolling window 96
            // samples …": a Julia package, session 51, sent three times after the edit due was
            // shown).
            let says_nothing = |v: &serde_json::Value| match v {
                serde_json::Value::Null | serde_json::Value::Bool(false) => true,
                serde_json::Value::String(s) => {
                    ["", ".", "./", ".*", "*", "**", "**/*"].contains(&s.trim())
                }
                _ => false,
            };
            let values: Vec<&serde_json::Value> = sent.values().collect();
            let telling: Vec<&serde_json::Value> = values
                .iter()
                .copied()
                .filter(|v| !says_nothing(v))
                .collect();
            // Beside what the change due's line names and keeps (`{"package": "chronicles",
            // "version": "0.10.4"}` for "Upgrade the chronicles logging dependency to version
            // 0.10.4.": a Nim daemon, session 52, where the made-up call was sent until the run
            // ended), the one value left.
            let kept = |v: &serde_json::Value| {
                let text = |k: &str| want.get(k).and_then(serde_json::Value::as_str);
                v.as_str().is_some_and(|s| {
                    !s.trim().is_empty()
                        && text("old_text").is_some_and(|o| o.contains(s))
                        && text("new_text").is_some_and(|n| n.contains(s))
                })
            };
            let changed: Vec<&serde_json::Value> =
                telling.iter().copied().filter(|v| !kept(v)).collect();
            let value = match (&values[..], &telling[..], &changed[..]) {
                ([value], _, _) | (_, [value], _) | (_, _, [value]) => *value,
                _ => return false,
            };
            // A switch's state too (`{"enabled": false}` for "Turn off notifications by
            // default.", a Neovim plugin, session 43), which the request says in other words.
            let (mut value, said) = match value {
                serde_json::Value::String(s) => (s.trim().to_owned(), false),
                serde_json::Value::Number(n) => (n.to_string(), false),
                serde_json::Value::Bool(b) => (b.to_string(), true),
                _ => return false,
            };
            // A version with a zero part more than the request writes (`2.15.0` for "Raise
            // the role's minimum Ansible version to 2.15.": an Ansible role, session 44, where
            // the made-up call was sent until the run ended).
            let asked = |v: &str| crate::tools::request_words(&self.request).any(|w| w == v);
            while !asked(&value)
                && value.matches('.').count() >= 2
                && let Some(shorter) = value.strip_suffix(".0")
            {
                value = shorter.to_owned();
            }
            let text = |k: &str| want.get(k).and_then(serde_json::Value::as_str);
            let (Some(old), Some(new)) = (text("old_text"), text("new_text")) else {
                return false;
            };
            let holds = |t: &str| {
                t.split(|c: char| !c.is_alphanumeric())
                    .any(|w| w.eq_ignore_ascii_case(&value))
            };
            let said = said && holds(new) && !holds(old);
            let shown = self
                .history
                .iter()
                .any(|m| m.role != Role::Assistant && m.content.contains(due_text));
            // Or an image and its tag, each a word of the request (`{"runtime": "alpine:3.20"}`
            // for "Switch the Docker runtime base image to Alpine 3.20.": a Nim daemon,
            // session 52, where the made-up call was sent until the run ended).
            let image_said = || {
                value.split_once(':').is_some_and(|(image, tag)| {
                    [image, tag].iter().all(|p| {
                        !p.is_empty()
                            && crate::tools::request_words(&self.request)
                                .any(|w| w.eq_ignore_ascii_case(p))
                    })
                })
            };
            shown
                && !value.is_empty()
                && new.contains(&value)
                && !old.contains(&value)
                && (said || asked(&value) || image_said())
        };
        (self.is_tool(name) && (fits || new_value()))
            .then(|| (name.to_owned(), due["arguments"].clone()))
    }

    /// The change due (`change_due`) when `call` is a no-op of its own tool at its place: the
    /// due change's tool, with `new_text` the same as `old_text`, and that text the due
    /// change's old or new text, its path the due file (or a folder it is in, or left out),
    /// no argument the due change lacks — once the change due was shown. Nothing else can be
    /// meant: the call changes nothing as written, and its place is the change the user asked
    /// for. Found with the linkcheck set (session 36, misspelling): asked "Correct the
    /// misspelling "recieves" in README.md." and shown the `edit` that makes it,
    /// Qwen2.5-Coder-0.5B sent that `edit` three times with `new_text` copied from `old_text`,
    /// misspelling and all, until the run ended with nothing changed.
    fn due_from_no_op(&self, call: &PendingCall) -> Option<(String, serde_json::Value)> {
        let due_text = self.change_due.as_deref()?;
        let due: serde_json::Value = serde_json::from_str(due_text).ok()?;
        let want = due["arguments"].as_object()?;
        let sent = args_value(&call.arguments)?;
        let sent = sent.as_object()?;
        fn text<'a>(
            args: &'a serde_json::Map<String, serde_json::Value>,
            k: &str,
        ) -> Option<&'a str> {
            args.get(k)
                .and_then(serde_json::Value::as_str)
                .map(str::trim)
        }
        let (Some(old), Some(new)) = (text(sent, "old_text"), text(sent, "new_text")) else {
            return None;
        };
        let place = |path: &str| {
            let due_path = text(want, "path")
                .unwrap_or_default()
                .trim_start_matches("./");
            in_folder(path, due_path)
                || path.trim_start_matches("./").trim_end_matches('/') == due_path
        };
        let fits = due["name"].as_str() == Some(call.name.as_str())
            && !old.is_empty()
            && old == new
            && [text(want, "old_text"), text(want, "new_text")].contains(&Some(old))
            && sent.keys().all(|k| want.contains_key(k))
            && sent
                .get("path")
                .is_none_or(|p| p.as_str().is_some_and(place))
            && self
                .history
                .iter()
                .any(|m| m.role != Role::Assistant && m.content.contains(due_text));
        fits.then(|| (call.name.clone(), due["arguments"].clone()))
    }

    /// The look at what a question names ([`Self::look_first`]) when `call` names no tool by a
    /// name made of the question's words — two or more, split at `_`, `-` and inner capitals,
    /// each a word of the question or its singular or plural (`removeOldestItem` for "Which
    /// function removes the oldest item?") — and sends no argument, none naming anything but
    /// the root ([`crate::tools::names_only_root`]), or only parameters' schemas; any
    /// arguments but text of its own when the question asks which function (class, …). It
    /// names the task, not a tool: the model means to find what the question asks.
    /// Found with a C library (session 36, oldest_fn): Qwen2.5-Coder-0.5B called
    /// `removeOldestItem` with `{"path": "."}` four times (the root's `ls` each time), shown
    /// the look once, and answered `removeOldestItem`.
    fn look_as(&self, call: &PendingCall) -> Option<(String, serde_json::Value)> {
        if self.is_tool(&call.name) || !correct::is_question(&self.request) {
            return None;
        }
        let args = args_value(&call.arguments)?;
        let args = args.as_object()?;
        // Or a parameter's schema echoed as its value (`{"inches": {"type": "number",
        // "description": …}}`: units set, session 36, `convert_inches_to_centimetres` sent
        // so three times until the run ended).
        let schema = |v: &serde_json::Value| {
            v.as_object()
                .is_some_and(|o| o.contains_key("type") || o.contains_key("description"))
        };
        let root_only =
            args.is_empty() || crate::tools::names_only_root(args) || args.values().all(schema);
        // Its words that tell something: `does`, `not` and `have` of
        // `InvoiceDoesNotHaveLines` for "Which exception is thrown when an invoice has no
        // lines?" (a PHP library, session 39: sent three times until the run ended) say
        // nothing of what it is about.
        let words: Vec<String> = crate::tools::name_words(&call.name)
            .into_iter()
            .filter(|w| w.chars().count() > 2 && !crate::builtin::is_common(w))
            .collect();
        let asked: Vec<String> = crate::tools::request_words(&self.request)
            .map(str::to_lowercase)
            .collect();
        let of_request = words.len() >= 2
            && words.iter().all(|w| {
                asked
                    .iter()
                    .any(|a| a == w || crate::tools::word_names_stem(w, a))
            });
        // A question is answered by the look whatever values the call sends: the name is the
        // model's guess at the answer or at a tool to find it (units set, session 36:
        // `convert_inches_to_centimetres` with `{"inches": 10}`, three times; a Maven project,
        // session 37: `BookException` with `{"message": "Room is already booked"}` and
        // `check_room_booked_twice` with `{"room_id": "12345", "night": "2023-04-15"}`, each
        // sent again until the run ended). Not a path of its own (`{"path": "include"}`):
        // where to look — but for a path naming nothing in the folder, a placeholder
        // (`{"invoice_path": "path/to/invoice"}`: a PHP library, session 39).
        let guess = !args.iter().any(|(k, v)| {
            crate::tools::is_path_key(k)
                && v.as_str().is_some_and(|s| {
                    !crate::tools::is_root_placeholder(s) && self.tools.call_named(s).is_some()
                })
        });
        if !(root_only || guess) || !of_request {
            return None;
        }
        let look: serde_json::Value = serde_json::from_str(&self.look_first()?).ok()?;
        Some((look["name"].as_str()?.to_owned(), look["arguments"].clone()))
    }

    /// The look at what the request names ([`Self::look_first`]), for a turn whose calls all
    /// repeat calls already handled (`seen`) that look at nothing in particular (the root's
    /// `ls`, a search for `.*`), when a message of this run offered it and no call made it, nor
    /// one of its tool with its values ([`Self::made_in_kind`]), and no change is due: the
    /// model going round in circles has been told what to call and sends what it has
    /// instead. Found with a Ruby gem (session 38, unknown_error): asked "What error is raised for a station that is not in the list?",
    /// Qwen2.5-Coder-0.5B sent the root's glob, a search for `.*`, its `ls` and its `read`
    /// twice over, offered the search for `raised` (the comment over `class UnknownStation`)
    /// each time, and answered `ArgumentError`.
    fn look_for_repeats(
        &self,
        pending: &[PendingCall],
        seen: &HashMap<String, Seen>,
    ) -> Option<(String, serde_json::Value)> {
        // Each call looks at nothing in particular: its text values are the root or patterns
        // matching anything (`.`, `.*`, `**/*`) — or its earlier run found nothing (a search
        // for `8080`, the model's own guess at a port: a PHP library, session 39, where the
        // search offered, for `port`, was never made).
        let anything = |c: &PendingCall| {
            seen.get(&correct::call_key(&c.name, &c.arguments))
                .is_some_and(|s| found_nothing(&s.result.output))
                || args_value(&c.arguments).is_some_and(|v| {
                    v.as_object().is_some_and(|o| {
                        o.values().all(|v| {
                            v.as_str().is_none_or(|s| {
                                crate::tools::is_root_placeholder(s)
                                    || matches!(
                                        s.trim(),
                                        ".*" | "*" | "**" | "**/*" | "*.*" | "**/*.*"
                                    )
                            })
                        })
                    })
                })
        };
        if pending.is_empty()
            || self.change_due.is_some()
            || !pending.iter().all(|c| {
                anything(c) && seen.contains_key(&correct::call_key(&c.name, &c.arguments))
            })
        {
            return None;
        }
        let look = self.look_first()?;
        let offered = correct::look_first(&look);
        if self.already_made(&look)
            || self.made_in_kind(&look)
            || !self
                .history
                .iter()
                .any(|m| m.role == Role::Tool && m.content.contains(offered.trim_start()))
        {
            return None;
        }
        let look: serde_json::Value = serde_json::from_str(&look).ok()?;
        Some((look["name"].as_str()?.to_owned(), look["arguments"].clone()))
    }

    /// Whether a call of this run sent `call`'s tool every text value `call` sends (other
    /// values aside): the search for `--last` made within `weatherlog/` is the search for it,
    /// for a look that would only show again what it showed.
    fn made_in_kind(&self, call: &str) -> bool {
        let Ok(call) = serde_json::from_str::<serde_json::Value>(call) else {
            return false;
        };
        let texts = |args: &serde_json::Value| -> Vec<String> {
            args.as_object()
                .map(|o| {
                    o.values()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        };
        let wanted = texts(&call["arguments"]);
        !wanted.is_empty()
            && self.sent_calls().any(|(name, args)| {
                let sent = args.as_ref().map(texts).unwrap_or_default();
                Some(name) == call["name"].as_str() && wanted.iter().all(|w| sent.contains(w))
            })
    }

    /// Whether the toolbox has a tool called `name`.
    fn is_tool(&self, name: &str) -> bool {
        self.tools.defs().iter().any(|d| d.name == name)
    }

    /// Whether `name` is an identifier (letters, digits and `_`, a letter among them, three
    /// characters or more; not a file's name) that a tool result of this run holds as a word —
    /// not in backticks, as toolmend's own notes and messages name tools and calls, nor as a
    /// part of a path (`convert` of `weatherlog/convert.py`: Qwen2.5-Coder-0.5B called a tool
    /// `convert` with grep's arguments to search, see [`crate::dispatch`]).
    fn named_in_results(&self, name: &str) -> bool {
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        // Part of a longer word, a backticked name (toolmend's own notes), or of a path
        // (`weatherlog/convert.py` holds no name `convert`).
        let joins = |c: char| ident(c) || matches!(c, '`' | '/' | '.' | '\\');
        if name.chars().count() < 3
            || !name.chars().all(ident)
            || !name.chars().any(char::is_alphabetic)
        {
            return false;
        }
        self.history
            .iter()
            .filter(|m| m.role == Role::Tool)
            .any(|m| {
                m.content.match_indices(name).any(|(at, _)| {
                    !m.content[..at].chars().next_back().is_some_and(joins)
                        && !m.content[at + name.len()..]
                            .chars()
                            .next()
                            .is_some_and(joins)
                })
            })
    }

    /// The tool whose result of this run a call's `args` repeat, if they do: a string among
    /// them (at any depth) holding a line of text — eight characters or more with a space or tab
    /// inside, trimmed — that the result of a call of a known tool holds verbatim
    /// (`groceries.md (77 bytes)` of an `ls`, `1\t# Groceries` of a `read`). A path or a name
    /// has no space: a look, or a name from the results ([`Self::named_in_results`]).
    fn result_repeated(&self, args: &Args) -> Option<String> {
        let value = args_value(args)?;
        let lines: Vec<&str> = crate::tools::string_values(&value)
            .into_iter()
            .flat_map(str::lines)
            .map(str::trim)
            .filter(|l| l.chars().count() >= 8 && l.contains([' ', '\t']))
            .collect();
        if lines.is_empty() {
            return None;
        }
        self.history
            .iter()
            .filter(|m| m.role == Role::Tool)
            .find_map(|m| {
                let tool = m.name.as_deref().filter(|n| self.is_tool(n))?;
                lines
                    .iter()
                    .any(|l| m.content.contains(l))
                    .then(|| tool.to_owned())
            })
    }

    /// Whether the tool that gave `result` for a call of `name` only reads: the tool the call
    /// ran as, when its name was no tool's and the toolbox ran the one it meant.
    fn read_only_ran(&self, name: &str, result: &CallResult) -> bool {
        self.tools
            .is_read_only(result.ran_as.as_deref().unwrap_or(name))
    }

    /// The text of every tool result in the conversation — this run's (`turns`) and earlier
    /// prompts' of a chat — and the user's messages: what an answer may rest on.
    fn result_texts(&self, turns: &[TurnRecord]) -> Vec<String> {
        let run = turns
            .iter()
            .flat_map(|t| &t.calls)
            .filter(|c| c.result.is_ok())
            .map(|c| c.result.output.clone());
        let said = self
            .history
            .iter()
            .filter(|m| matches!(m.role, Role::Tool | Role::User))
            .map(|m| m.content.clone());
        run.chain(said).collect()
    }

    /// Whether a tool result of the conversation holds `name` (case aside) outside toolmend's
    /// notes about calls (`(No tool is named `x`; …)`, `(You already called `x` …`, `Stop
    /// calling `x` …`), which name the model's own calls.
    fn held_by_results(&self, turns: &[TurnRecord], name: &str) -> bool {
        let name = name.to_lowercase();
        let note = |l: &str| {
            let l = l.trim_start();
            l.starts_with("(No tool is named `")
                || l.starts_with("(You already called `")
                || l.starts_with("Stop calling `")
        };
        self.result_texts(turns).iter().any(|t| {
            t.lines()
                .any(|l| !note(l) && l.to_lowercase().contains(&name))
        })
    }

    /// Takes the lines showing the change to make ([`correct::change_next`]) out of the tool
    /// results of the conversation the model sees; the transcript keeps them.
    fn drop_change_lines(&mut self) {
        let shown = correct::change_next("");
        let prefix = shown.trim_start();
        for m in &mut self.history {
            if m.role == Role::Tool && m.content.contains(prefix) {
                m.content = m
                    .content
                    .lines()
                    .filter(|l| !l.starts_with(prefix))
                    .collect::<Vec<_>>()
                    .join("\n");
            }
        }
    }

    /// Whether the conversation holds the call `call` (JSON text `{"name", "arguments"}`),
    /// its arguments as a value or as text that repairs to it.
    fn already_made(&self, call: &str) -> bool {
        let Ok(call) = serde_json::from_str::<serde_json::Value>(call) else {
            return false;
        };
        self.sent_calls().any(|(name, args)| {
            Some(name) == call["name"].as_str() && args.as_ref() == Some(&call["arguments"])
        }) || self.ran_under.contains(&call)
    }

    /// The calls the model sent in this run (the conversation's), each by its name and its
    /// arguments as a value (text repaired; `None` when beyond repair).
    fn sent_calls(&self) -> impl Iterator<Item = (&str, Option<serde_json::Value>)> {
        self.history
            .iter()
            .flat_map(|m| &m.tool_calls)
            .map(|c| (c.name.as_str(), args_value_of(&c.arguments)))
    }

    /// The read of the body of a function (class, …) the request writes as code, when a tool
    /// result shows the line defining it only — a search's match line, `src/shop.py (line 10):
    /// def cart_total(items):` — and no read of that file was made: from that line, 40 lines.
    /// With the name. What the question asks about is in the body. Found with the shop set
    /// (session 36, per_item): asked "Which function does cart_total call for each item?",
    /// Qwen2.5-Coder-0.5B searched for `cart_total`, was shown its `def` line, searched again
    /// and again, and answered `cart_total`.
    ///
    /// Not for a question that asks which file: the match lines name the files (a C library,
    /// session 36: asked "Which file declares ringbuf_push?", the model read the definition's
    /// body it was offered, again and again, and answered `tests`).
    fn body_look(&self) -> Option<(String, String)> {
        if !self.is_tool("read") || correct::asks_which_file(&self.request) {
            return None;
        }
        let names = correct::code_names(&self.request);
        let (name, path, line) = self
            .history
            .iter()
            .filter(|m| m.role == Role::Tool)
            .flat_map(|m| m.content.lines())
            .find_map(|l| {
                let (path, line) = match_line(l)?;
                let text = shown_text(l);
                let name = names.iter().find(|n| defines(text, n))?;
                Some((name.clone(), path.trim_start_matches("./").to_owned(), line))
            })?;
        let read_of = |name: &str, args: &serde_json::Value| {
            name == "read"
                && args_value_of(args)
                    .and_then(|a| a.get("path")?.as_str().map(str::to_owned))
                    .is_some_and(|p| p.trim_start_matches("./") == path)
        };
        let read = self
            .history
            .iter()
            .any(|m| m.tool_calls.iter().any(|c| read_of(&c.name, &c.arguments)))
            || self
                .ran_under
                .iter()
                .any(|c| read_of(c["name"].as_str().unwrap_or_default(), &c["arguments"]));
        (!read).then(|| {
            let call = serde_json::json!({"name": "read", "arguments": {"path": path, "start_line": line, "end_line": line + 39}});
            (name, call.to_string())
        })
    }

    /// The read of a whole file the run's results came from, not made yet: where a number no
    /// result holds would be, if anywhere — the files of the lines bearing on the request
    /// first (a Dart client, session 46: the search for `first` showed
    /// `analysis_options.yaml` before `retry_policy.dart`, whose lines bore on "How long does
    /// the client wait before the first retry by default?", and the read offered was the
    /// first's).
    fn whole_file_look(&self, turns: &[TurnRecord]) -> Option<String> {
        let bearing: Vec<String> = self
            .evidence(turns)
            .iter()
            .filter_map(|l| match_line(l))
            .map(|(path, _)| path.trim_start_matches("./").to_owned())
            .collect();
        let mut files = files_in_results(turns);
        files.sort_by_key(|f| !bearing.iter().any(|b| b == f.trim_start_matches("./")));
        files
            .iter()
            .filter_map(|f| self.tools.call_named(f))
            .find(|c| !self.already_made(c))
    }

    /// The change due after `made`, the change due, was made, when the request names two files
    /// or more (`Gemfile` and `Gemfile.lock`) and still asks a change of one of them
    /// ([`Toolbox::change_asked`] asked again, the files as they are now): that change, a call
    /// other than `made`. At most four a run. Found with a Rails API (session 56): "Upgrade Puma
    /// to 6.5.0. It's pinned exactly, so update both the Gemfile and Gemfile.lock." was offered
    /// `Gemfile.lock`'s `puma (6.4.3)` alone; made, the run ended with the lock's `puma (=
    /// 6.4.3)` and the Gemfile's `gem "puma", "6.4.3"` unchanged.
    fn next_named_change(&mut self, made: &PendingCall) -> Option<String> {
        if self.named_changes >= 4 {
            return None;
        }
        let mut named: Vec<String> = Vec::new();
        for word in self.request.split_whitespace() {
            let w = word.trim_matches(|c: char| {
                matches!(
                    c,
                    '.' | ',' | ';' | ':' | '!' | '?' | '"' | '\'' | '`' | '(' | ')'
                )
            });
            let reads_it = self.tools.call_named(w).is_some_and(|c| {
                serde_json::from_str::<serde_json::Value>(&c).is_ok_and(|v| {
                    v["name"] == "read" && v["arguments"]["path"].as_str() == Some(w)
                })
            });
            if !w.is_empty() && reads_it && !named.iter().any(|n| n == w) {
                named.push(w.to_owned());
            }
        }
        let path_of = |args: &serde_json::Value| {
            args.get("path")
                .and_then(serde_json::Value::as_str)
                .map(|p| p.trim_start_matches("./").to_owned())
        };
        let made_path = args_value(&made.arguments).and_then(|a| path_of(&a))?;
        if named.len() < 2 || !named.contains(&made_path) {
            return None;
        }
        let next = self.tools.change_asked(&self.request)?;
        let value: serde_json::Value = serde_json::from_str(&next).ok()?;
        let path = path_of(&value["arguments"])?;
        if !named.contains(&path) || is_call(&next, made) {
            return None;
        }
        self.named_changes += 1;
        Some(next)
    }

    /// The search for the name a line of the tool results sets what the request names from,
    /// not from a value (`'User-Agent': config.userAgent,`: see [`correct::referenced_name`]),
    /// with the name — when no such search was made and no line of the results sets the name
    /// to a value (`enum ushort defaultStatusPort = 9614;` above `ushort port =
    /// defaultStatusPort;`: a D service, session 56, where the search for it was offered
    /// although the look had shown both). The value is where that name is set.
    fn reference_look(&self) -> Option<(String, String)> {
        if !self.is_tool("grep") {
            return None;
        }
        let lines = || {
            self.history
                .iter()
                .filter(|m| m.role == Role::Tool)
                .flat_map(|m| m.content.lines())
        };
        let valued: Vec<&str> = lines()
            .filter_map(|l| correct::keyed_of(shown_text(l)).map(|(key, _)| key))
            .map(|key| key.rsplit('.').next().unwrap_or(key))
            .collect();
        lines()
            .filter_map(|l| correct::referenced_name(shown_text(l), &self.request))
            .filter(|name| !valued.contains(&name.as_str()))
            .map(|name| {
                let call = serde_json::json!({"name": "grep", "arguments": {"pattern": name, "ignore_case": true}});
                (name, call.to_string())
            })
            .find(|(_, call)| !self.already_made(call))
    }

    /// The file the request asks code to be written into when `name`, no tool's, is a name in
    /// code (`_` or camelCase) the request writes, and the request asks to add or write
    /// something with no change due: the name of the function or test to write, called as if
    /// it were a tool. The file is the one the look at what the request names reads
    /// ([`Self::look_first`]). Found running `toolmend run` on a small Rust crate
    /// (session 28): asked "Add a function km_to_miles to src/lib.rs that divides by
    /// MILES_TO_KM.", Qwen2.5-Coder-0.5B called `km_to_miles` with a schema for its parameter,
    /// read the file, and called it again until the run ended; asked to add a test for
    /// `inches_to_cm`, it called `inches_to_cm`.
    fn code_asked(&self, name: &str) -> Option<String> {
        // A name written as code (`km_to_miles`, `toKelvin`): a plain word of the request
        // called as a tool (`version`) means a value to set, which `change_meant` reads.
        let code = correct::written_as_code(name);
        if self.change_due.is_some()
            || !code
            || !correct::asks_to_add(&self.request)
            || !correct::asks_change(&self.request)
            || !crate::tools::request_words(&self.request).any(|w| w.eq_ignore_ascii_case(name))
        {
            return None;
        }
        let look: serde_json::Value = serde_json::from_str(&self.look_first()?).ok()?;
        let path = look.get("arguments")?.get("path")?.as_str()?;
        let file = path.rsplit('/').next()?;
        (file.contains('.') && !file.ends_with('.')).then(|| path.to_owned())
    }

    /// `pending` with each whole call that copied the call shown as the change due and ran on
    /// past the end of one of its values ([`ran_on`]), cut one short of the punctuation it ends
    /// with ([`cut_short`]) or gave a path no workspace file has ([`placeholder_path`]) replaced
    /// by the call shown, with a note: the model meant that call, and the text it ran on with
    /// (or the comma it left off) would go into the user's file. A call cut off (`refusals`) is
    /// never run (E4).
    fn as_shown(
        &self,
        mut pending: Vec<PendingCall>,
        refusals: &[Option<Refusal>],
        on_event: &mut (dyn FnMut(&AgentEvent) + Send),
    ) -> Vec<PendingCall> {
        let Some(due) = self
            .change_due
            .as_deref()
            .and_then(|d| serde_json::from_str::<serde_json::Value>(d).ok())
        else {
            return pending;
        };
        for (i, call) in pending.iter_mut().enumerate() {
            if refusals.get(i).is_some_and(Option::is_some)
                || due["name"].as_str() != Some(call.name.as_str())
            {
                continue;
            }
            let Some(sent) = args_value(&call.arguments) else {
                continue;
            };
            let how = if ran_on(&due["arguments"], &sent) {
                "ran on past its end (its text again)"
            } else if cut_short(&due["arguments"], &sent) {
                "left off the punctuation its text ends with"
            } else if placeholder_path(&due["arguments"], &sent) {
                "gave a path outside the workspace"
            } else if kept_altered(&due["arguments"], &sent, &self.request) {
                "changed a number it keeps, which the request does not name"
            } else {
                continue;
            };
            call.arguments = Args::Value(due["arguments"].clone());
            on_event(&AgentEvent::Retry {
                reason: format!(
                    "`{}` copied the call shown and {how}: sent as shown",
                    call.name
                ),
            });
        }
        pending
    }

    /// Where a corrective message shows no example (a refused call of a tool that changes
    /// things), a call that only reads what the user's request names (`read` of the file it
    /// names), when a read-only tool has one: a model that wrote a placeholder path into an
    /// `edit` has the real file to look at. `None` when the request names nothing a tool knows.
    ///
    /// Of several such calls the one naming the deepest path wins: the `read` of
    /// `notes/meeting.md` ("the meeting notes") over the `ls` of `notes`; then one naming a file
    /// over one naming a folder: asked "Which package does weatherlog depend on, according to
    /// pyproject.toml?", the `read` of `pyproject.toml`, not the `ls` of the project's folder
    /// `weatherlog/` (held-out project tasks).
    ///
    /// In a chat, a question after an earlier prompt may be about the conversation ("Which is
    /// first?" after an `ls`): its look is grounded in the request as a statement, without its
    /// question mark, so a question's plain words alone are not searched for (see `grep`'s
    /// grounded example).
    fn look_first(&self) -> Option<String> {
        let follow_up = self.history.iter().filter(|m| m.role == Role::User).count() > 1;
        let request = if follow_up {
            self.request.trim_end().trim_end_matches('?').to_owned()
        } else {
            // The question, without a sentence saying how to give the answer — but for the
            // unit it asks the answer in, said as the question's own ("… be? Answer in MB."
            // is "… be, in MB?": a Rails API, session 56; see grep's `unit_patterns`).
            let question = correct::question_part(&self.request);
            match crate::tools::answer_unit(&self.request) {
                Some(unit) if crate::tools::answer_unit(question).is_none() => {
                    format!("{}, in {unit}?", question.trim_end_matches('?'))
                }
                _ => question.to_owned(),
            }
        };
        let request = request.as_str();
        let named: Vec<(String, Vec<String>)> = self
            .tools
            .defs()
            .iter()
            .filter(|d| self.tools.is_read_only(&d.name))
            .filter_map(|d| {
                let grounded = self.tools.example_call_for(&d.name, request)?;
                if !self.request_named(&grounded) {
                    return None;
                }
                let values = serde_json::from_str::<serde_json::Value>(&grounded)
                    .ok()?
                    .get("arguments")?
                    .as_object()?
                    .values()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect();
                Some((grounded, values))
            })
            .collect();
        let within = |inner: &[String], outer: &[String]| {
            outer.iter().any(|o| {
                inner.iter().any(|i| {
                    i.strip_prefix(o.as_str())
                        .is_some_and(|r| r.starts_with('/'))
                })
            })
        };
        // A value naming a file: its last component has an extension or is a dot-file, or is
        // a tool's file without one (`Makefile`, `Dockerfile`: see
        // `crate::tools::word_names_stem`).
        let file_like = |values: &[String]| {
            values.iter().any(|v| {
                let last = v.rsplit('/').next().unwrap_or(v);
                (last.starts_with('.') && last.len() > 1)
                    || last.contains('.')
                    || (last.len() > "file".len() && last.to_lowercase().ends_with("file"))
            })
        };
        // A look grounded in a phrase of the request (two words of it side by side, searched
        // for) names what it asks about more closely than one grounded in a word: a file
        // named by its stem that does not hold the phrase (see grep's `example_for`). So does a
        // search of the whole workspace (no `path`) for a word of the request: grep offers one
        // beside a file named by its stem only for a word that file lacks.
        let whole_search = |call: &str, values: &[String]| {
            serde_json::from_str::<serde_json::Value>(call)
                .ok()
                .and_then(|c| c.get("arguments")?.as_object().cloned())
                .is_some_and(|args| !args.contains_key("path"))
                && values.iter().any(|s| {
                    // A long flag's name counts without its dashes (see grep's `example_for`).
                    crate::tools::request_words(request)
                        .take(200)
                        .any(|w| w.eq_ignore_ascii_case(s) || w.strip_prefix("--") == Some(s))
                })
        };
        // So does the search for a default the request describes, where it is set (grep's
        // `documented_default`), over a file the request names by its stem ("without any
        // config file" names `config.d`: a D service, session 56).
        if let Some((call, _)) = named.iter().find(|(call, v)| {
            v.iter()
                .any(|s| holds_phrase(request, s) || s.ends_with(crate::builtin::SET_HERE))
                || whole_search(call, v)
        }) {
            return Some(call.clone());
        }
        let deepest: Vec<&(String, Vec<String>)> = named
            .iter()
            .filter(|(_, v)| !named.iter().any(|(_, other)| within(other, v)))
            .collect();
        // A read is of a file, whatever its name (`DESCRIPTION`, an R package's manifest, over
        // the listing of the `R/` folder "version of R" names: session 49).
        let reads = |call: &str| {
            serde_json::from_str::<serde_json::Value>(call)
                .is_ok_and(|c| c.get("name").and_then(serde_json::Value::as_str) == Some("read"))
        };
        let chosen = deepest
            .iter()
            .find(|(call, v)| file_like(v) || reads(call))
            .or(deepest.first())
            .copied()
            .or(named.first())?;
        // A question that asks which file wants a file as its answer: for a file the request
        // names by its stem only, the look is the listing of its folder, not its read (asked
        // "Which file has the tests for the count package?", Qwen2.5-Coder-0.5B was offered the
        // read of `internal/count/count.go`, the file `count` names by its stem, and never saw
        // `count_test.go`: the tally set, session 30).
        if correct::asks_which_file(request)
            && file_like(&chosen.1)
            && let [path] = chosen.1.as_slice()
            && !crate::tools::request_words(request).any(|w| w == path)
            && let Some((folder, _)) = path.rsplit_once('/')
            && let Some(listing) = self.tools.call_named(folder)
        {
            return Some(listing);
        }
        Some(chosen.0.clone())
    }

    /// The example for a failed `call`: for a name that is no tool's in a request that asks for
    /// a change, the change the request spells out ([`Toolbox::change_asked`]), else the change
    /// its arguments mean when the toolbox grounds it in the request and the workspace ([`Toolbox::change_meant`]: `{"__version__": "0.3.2"}` sent to a made-up
    /// tool, asked to set the version in the file the request names, is the `edit` of that
    /// file's `__version__` line); else [`Self::example_for`].
    /// With the example, whether it is the change the call's arguments meant (not the
    /// request's own, nor a look).
    fn example_for_call(&self, call: &PendingCall) -> (Option<String>, bool) {
        if !correct::asks_change(&self.request) || self.is_tool(&call.name) {
            return (self.example_for(&call.name), false);
        }
        // The request's own words first: the model's arguments may hold its own value
        // (`linkcheck/1.5.0`, asked for `linkcheck/1.5`: second held-out set, user_agent_15).
        if let Some(due) = &self.change_due {
            return (Some(due.clone()), false);
        }
        match args_value(&call.arguments).and_then(|a| self.tools.change_meant(&a, &self.request)) {
            Some(meant) => (Some(meant), true),
            None => (self.example_for(&call.name), false),
        }
    }

    /// One valid call of `name`, or, for a name that is no tool, of the read-only tool closest
    /// to it. Never a call that changes anything for a name the model got wrong: small models
    /// copy the example they are given, and the closest name is often `write` or `edit`. The
    /// example is grounded in the run's prompt where the tool can (`read` of the file the user
    /// named), since it will be copied. For a name that is no tool, the look at what the
    /// request names comes first ([`Self::look_first`], when not made yet): asked to fix a typo
    /// in README.md, Qwen2.5-Coder-0.5B called a tool `temperture`, was shown grep's fixed
    /// example (the closest name) and searched for `fn main` until the run ended. Once that
    /// look is made, the closest read-only tool's call when it is grounded in the request, else
    /// the look at the root (see [`names_only_the_root`]), never a fixed example of a task
    /// that is not this one. A name that is a file or folder of the workspace gets the look at
    /// it once the request's look is made ([`Toolbox::call_named`]: Qwen2.5-Coder-0.5B called
    /// `groceries.md` with the `ls` line that listed it).
    fn example_for(&self, name: &str) -> Option<String> {
        if let Some(ex) = self.tools.example_call_for(name, &self.request) {
            return Some(ex);
        }
        if let Some(look) = self.look_first()
            && !self.already_made(&look)
        {
            return Some(look);
        }
        // A file or folder written where the tool's name belongs: the look at it.
        if let Some(call) = self.tools.call_named(name)
            && !self.already_made(&call)
        {
            return Some(call);
        }
        let lower = name.to_lowercase();
        let defs = self.tools.defs();
        let closest = defs
            .iter()
            .filter(|d| self.tools.is_read_only(&d.name))
            .max_by(|a, b| {
                let score = |d: &crate::backend::ToolDef| {
                    strsim::jaro_winkler(&lower, &d.name.to_lowercase())
                };
                score(a).total_cmp(&score(b))
            })?;
        let example = self.tools.example_call_for(&closest.name, &self.request)?;
        if self.request_named(&example) || names_only_the_root(&example) {
            return Some(example);
        }
        // A fixed example is copied as it is, whatever the task (grep's `fn main`, searched
        // for in a Python project after the model had read the file to change): the look at
        // the whole folder instead, a read-only tool's example that names nothing but the root.
        defs.iter()
            .filter(|d| self.tools.is_read_only(&d.name))
            .filter_map(|d| self.tools.example_call(&d.name))
            .find(|ex| names_only_the_root(ex))
            .or(Some(example))
    }
}

/// Whether `prompt` is a question, not a change, and no call of the run (`turns`) succeeded:
/// nothing was read for it, and the look toolmend makes itself may be what answers it
/// ([`Agent::make_look`]).
fn nothing_read_for_question(prompt: &str, turns: &[TurnRecord]) -> bool {
    correct::is_question(prompt)
        && !correct::asks_change(prompt)
        && !turns
            .iter()
            .flat_map(|r| &r.calls)
            .any(|c| c.result.is_ok())
}

/// Whether `line` is a listing's line for a file: its name, then its size, `README.md (3294
/// bytes)` (the `ls` tool's output).
fn listed_file(line: &str) -> bool {
    line.trim_end()
        .strip_suffix(" bytes)")
        .and_then(|rest| rest.rsplit_once(" ("))
        .is_some_and(|(name, size)| {
            !name.trim().is_empty()
                && !name.trim().contains(char::is_whitespace)
                && !size.is_empty()
                && size.chars().all(|c| c.is_ascii_digit())
        })
}

/// The values `text` writes as words, lower case, without the quotes, backticks, brackets and
/// punctuation around them: a word starting with a digit (`96`, `0.7.1`, `5s`), or with `v`
/// and a digit (`v2.1`).
fn value_tokens(text: &str) -> Vec<String> {
    text.split_whitespace().filter_map(value_token).collect()
}

/// [`value_tokens`]' test of one word.
fn value_token(word: &str) -> Option<String> {
    let around = |c: char| "`\"'()[]{},;:!?*".contains(c);
    let t = word
        .trim_start_matches(around)
        .trim_end_matches(|c: char| around(c) || c == '.')
        .to_lowercase();
    let digits = t.strip_prefix('v').unwrap_or(&t);
    (digits.starts_with(|c: char| c.is_ascii_digit())
        && t.chars().all(|c| c.is_alphanumeric() || "._-+".contains(c)))
    .then_some(t)
}

/// The values a change log's line says were replaced, and the values it writes besides:
/// "Raise the pool from 16 to 24 connections." gives `16`, and `24`; "`--width` now defaults
/// to 96 columns (was 80)." gives `80`, and `96`; "bump reitit 0.6.0 -> 0.7.0" gives `0.6.0`,
/// and `0.7.0`. `None` when the line says no value was replaced, or writes no other.
fn replaced_values(text: &str) -> Option<(Vec<String>, Vec<String>)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    // A word without the punctuation around it, lower case; an arrow as written.
    let bare = |w: &str| {
        if ["->", "→", "=>"].contains(&w) {
            w.to_owned()
        } else {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        }
    };
    let mut old: Vec<String> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).and_then(|n| value_token(n));
        match bare(w).as_str() {
            "was" | "previously" => old.extend(next),
            // "from A to B": B a value too (not "from 0 to the limit").
            "from" => {
                if let Some(a) = next
                    && words.get(i + 2).is_some_and(|t| bare(t) == "to")
                    && words.get(i + 3).and_then(|b| value_token(b)).is_some()
                {
                    old.push(a);
                }
            }
            "->" | "→" | "=>" => {
                if next.is_some()
                    && let Some(a) = i.checked_sub(1).and_then(|j| value_token(words[j]))
                {
                    old.push(a);
                }
            }
            _ => {}
        }
    }
    let new: Vec<String> = value_tokens(text)
        .into_iter()
        .filter(|v| !old.contains(v))
        .collect();
    (!old.is_empty() && !new.is_empty()).then_some((old, new))
}

/// Whether `text` writes a number: a run of digits after no letter, digit or `_` (`256`,
/// `Duration(seconds: 300)`, `5s`; not `sha256`, `v2` or `x86_64`).
fn writes_number(text: &str) -> bool {
    let b = text.as_bytes();
    b.iter().enumerate().any(|(i, c)| {
        c.is_ascii_digit() && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
    })
}

/// Whether `text` writes a version or a decimal number: a digit, a `.`, a digit (`^10.5`,
/// `>=8.1`, `php:8.3-cli`).
/// A key naming the version of something set to a whole number counts too: `JAVA_VERSION:
/// "17"`, `java-version: 21`, `javaVersion = 17` — not a bare `"version": 6`, a file format's
/// (a Clojure service, session 47: asked "Which Java version does CI run the tests on?", the
/// lines shown as bearing were the CI's other versions, `CLOJURE_CLI_VERSION: "1.11.1.1435"`
/// first, and Qwen2.5-Coder-0.5B answered `11`).
/// Whether `word` (lower case), a superlative of a question, asks for the greatest of several
/// ("newest", "latest", "highest": `true`) or the least ("oldest", "earliest", "lowest":
/// `false`); `None` for any other word. (`correct::superlative` reads a question's, with
/// "maximum", "minimum" and "most recent" too.)
fn extreme(word: &str) -> Option<bool> {
    match word {
        "newest" | "latest" | "highest" => Some(true),
        "oldest" | "earliest" | "lowest" => Some(false),
        _ => None,
    }
}

/// Whether `word`, a superlative of a question ([`extreme`]), is a bound one of `name_parts`
/// names (`min`, `minimum` for "oldest"; `max`, `maximum` for "newest").
fn bound_named(word: &str, name_parts: &[String]) -> bool {
    let bound: &[&str] = match extreme(word) {
        Some(false) => &["min", "minimum"],
        Some(true) => &["max", "maximum"],
        None => return false,
    };
    name_parts
        .iter()
        .any(|p| bound.contains(&p.to_lowercase().as_str()))
}

/// Whether `text` writes the bound `word` names ("oldest", "minimum": a lower one; "newest",
/// "maximum": an upper one) as a constraint before a number: `requires "nim >= 2.0.4"` for
/// "What's the oldest Nim version fjord can be built with?" (a Nim daemon, session 52, where
/// the README's "Nim 2.0 or newer (see `fjord.nimble` for the exact minimum)" was shown).
fn bound_written(word: &str, text: &str) -> bool {
    let ops: &[&str] = match extreme(word) {
        Some(false) => &[">=", "~>", "^"],
        Some(true) => &["<="],
        None => return false,
    };
    ops.iter().any(|op| {
        text.match_indices(op).any(|(at, _)| {
            text[at + op.len()..]
                .trim_start_matches([' ', '"', '\''])
                .starts_with(|c: char| c.is_ascii_digit())
        })
    })
}

fn writes_version(text: &str) -> bool {
    if crate::tools::dotted_number(text) {
        return true;
    }
    let lower = text.to_ascii_lowercase();
    // rebar3's and Erlang's `vsn` is a version, and an Erlang pair's comma sets it
    // (`{minimum_otp_vsn, "25"}.`: an Erlang/OTP service, session 51).
    let needles = ["version", "vsn"];
    let found = needles
        .iter()
        .flat_map(|n| lower.match_indices(n).map(move |(at, _)| (at, n.len())));
    found.into_iter().any(|(at, len)| {
        let of_something = lower[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !of_something {
            return false;
        }
        let rest = &lower[at + len..];
        let rest = rest.trim_start_matches(|c: char| {
            c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '"' | '\'')
        });
        let Some(value) = rest.trim_start().strip_prefix([':', '=', ',']) else {
            return false;
        };
        value
            .trim_start()
            .trim_start_matches(['"', '\''])
            .starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Whether `token`, a word of a tool's output, is a path or a file's name (`test/check.test.js`,
/// `README.md`, `src/`): it holds a `/`, or is a name with an extension of letters and digits.
fn is_path_token(token: &str) -> bool {
    let t = token.trim_matches(|c: char| matches!(c, ',' | ':' | ';' | '(' | ')'));
    if t.contains('/') {
        return true;
    }
    t.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=5).contains(&ext.len())
            && ext.starts_with(|c: char| c.is_ascii_alphabetic())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
            && stem
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
    })
}

/// `row`, a read's numbered line of a CSV or TSV file, with each value after its column's name
/// from `header`, the read's first line (`3\tid: 2, name: Grace Hopper, country: US`); `None`
/// when either holds a quote (a quoted field may hold the separator) or their fields differ in
/// number.
fn named_row(header: &str, row: &str) -> Option<String> {
    let (number, values) = numbered_line(row)?;
    let (names, values) = (line_text(header), values.trim());
    if names.contains(['"', '\'']) || values.contains(['"', '\'']) {
        return None;
    }
    let sep = if names.contains('\t') { '\t' } else { ',' };
    let names: Vec<&str> = names.split(sep).map(str::trim).collect();
    let values: Vec<&str> = values.split(sep).map(str::trim).collect();
    (names.len() >= 2 && names.len() == values.len()).then(|| {
        let pairs: Vec<String> = names
            .iter()
            .zip(&values)
            .map(|(n, v)| format!("{n}: {v}"))
            .collect();
        format!("{number}\t{}", pairs.join(", "))
    })
}

/// Where `line`, a line of a tool's output, is in its file: a search's match line names it
/// (`data/customers.csv (line 3): …`), a read's numbered line (`  3\t…`) is in `read_path`,
/// the file the read showed. `None` for other lines.
fn line_place(read_path: Option<&str>, line: &str) -> Option<(String, usize)> {
    let (path, n) = match match_line(line) {
        Some(place) => place,
        None => (read_path?, numbered_line(line)?.0),
    };
    Some((path.trim_start_matches("./").to_owned(), n))
}

/// Whether `content` names a path ([`is_path_token`]): a word of it, quotes, backticks and
/// stars around it and a sentence's end after it aside.
fn names_path(content: &str) -> bool {
    path_tokens(content).next().is_some()
}

/// The words of `content` that are paths ([`is_path_token`]), without the quotes, emphasis and
/// sentence ends around them.
fn path_tokens(content: &str) -> impl Iterator<Item = &str> {
    content.split_whitespace().filter_map(|t| {
        // Quotes and the sentence's end in any order (`` `source/app.d`. ``: a D log
        // shipper, session 56, where the reply's path was taken for `source/app.d`` and the
        // model told it was no file of the folder's).
        let t = t
            .trim_start_matches(['`', '"', '\'', '*'])
            .trim_end_matches(['`', '"', '\'', '*', '.', '!', '?', ',', ';', ':', ')']);
        is_path_token(t).then(|| t.trim_matches(|c: char| matches!(c, ',' | ':' | ';' | '(' | ')')))
    })
}

/// The path and line number of a search's match line, `data/customers.csv (line 3): …` (a
/// path with no space in it).
fn match_line(line: &str) -> Option<(&str, usize)> {
    let (path, rest) = line.split_once(" (line ")?;
    if path.contains(char::is_whitespace) {
        return None;
    }
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    Some((path, rest[..digits].parse().ok()?))
}

/// The text a line of a tool's output shows of its file: a search's match line's after its
/// place (`path (line 3): text`), a read's numbered line's after its number ([`line_text`]).
fn shown_text(line: &str) -> &str {
    match match_line(line).and_then(|_| line.split_once("): ")) {
        Some((_, text)) => text.trim(),
        None => line_text(line),
    }
}

/// The number and text of a read's numbered line, `  7\tDEFAULT_PATH = …`: digits, then a tab.
fn numbered_line(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let text = t[digits..].strip_prefix('\t')?;
    Some((t[..digits].parse().ok()?, text))
}

/// The paths `line` writes as strings, in quotes (`"~/.weatherlog.csv"`, `'config/app.yml'`):
/// a quoted piece with no space that is a path ([`is_path_token`]) — not a search path or a
/// variable's value (`"$HOME/bin:$PATH"`: a `$` or a `:` in it).
fn quoted_paths(line: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for quote in ['"', '\''] {
        // The pieces between a quote and the next: every other one is inside quotes.
        for piece in line.split(quote).skip(1).step_by(2) {
            if !piece.is_empty()
                && !piece.contains(char::is_whitespace)
                && !piece.contains(['$', ':'])
                && is_path_token(piece)
                && !paths.iter().any(|p| p == piece)
            {
                paths.push(piece.to_owned());
            }
        }
    }
    paths
}

/// The files this run's results name, in order, each once: the path of a `read` that showed
/// a file's lines, and the path of each `grep` match line (`path (line N): …`).
fn files_in_results(turns: &[TurnRecord]) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for c in turns.iter().flat_map(|t| &t.calls) {
        if !c.result.is_ok() {
            continue;
        }
        let tool = c.result.ran_as.as_deref().unwrap_or(&c.name);
        let read = (tool == "read"
            && c.result
                .output
                .lines()
                .next()
                .is_some_and(|l| numbered_line(l).is_some()))
        .then(|| c.args.get("path").and_then(|p| p.as_str()))
        .flatten();
        let matched = c
            .result
            .output
            .lines()
            .filter_map(|l| Some(match_line(l)?.0));
        for path in read.into_iter().chain(matched) {
            if !files.iter().any(|f| f == path) {
                files.push(path.to_owned());
            }
        }
    }
    files
}

/// The text of `line`, a line of a tool's output, trimmed: a read's line is `  7\tDEFAULT_PATH
/// = …`, its text after the number.
fn line_text(line: &str) -> &str {
    numbered_line(line).map_or(line, |(_, text)| text).trim()
}

/// Whether a tool's `output` reports that it found nothing: a search's or a glob's report
/// (`no matches for …`, `no files match …`), toolmend's notes in parentheses aside.
fn found_nothing(output: &str) -> bool {
    let mut lines = output.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut nothing = false;
    lines.all(|l| {
        let report = l.starts_with("no matches for `") || l.starts_with("no files match `");
        nothing |= report;
        report || l.starts_with('(')
    }) && nothing
}

/// The tool whose output, of a call in `turns` that succeeded, `content` copies whole: three
/// lines or more of the reply, nearly all of them (four in five) lines of that one output, and
/// together at least half of its lines — a `read`'s line numbers and the spaces around a line
/// aside; or, its spaces and line breaks all aside, 60 characters or more of it, half of it at
/// least, as they stand (a JSON file copied with its lines joined: a PHP library, session 39,
/// where Qwen2.5-Coder-0.5B, asked which image the Dockerfile starts from, answered with
/// composer.json). A reply that quotes the lines that answer is not a copy of the whole. A
/// reply the token limit cut off (`cut_off`) copies however much of the output it got to (an
/// OCaml/dune project, session 50: asked which base image the final stage of the Docker build
/// runs on, Qwen2.5-Coder-0.5B copied its search for `tern`, 53 matches, until the limit, and
/// the run ended with that as the answer).
fn copied_output(content: &str, turns: &[TurnRecord], cut_off: bool) -> Option<String> {
    // A listing's line is `README.md (211 bytes)` or `cmd/`: the name is what a copy keeps.
    let body = |l: &str| -> String {
        let t = line_text(l);
        let t = match t.strip_suffix(')').and_then(|r| r.rsplit_once(" (")) {
            Some((name, size)) if size.starts_with(|c: char| c.is_ascii_digit()) => name,
            _ => t,
        };
        t.trim_end_matches('/').to_owned()
    };
    let mut reply: Vec<String> = content
        .lines()
        .map(body)
        .filter(|l| !l.is_empty())
        .take(2000)
        .collect();
    // The line the limit cut is no line of the output.
    if cut_off {
        reply.pop();
    }
    turns
        .iter()
        .flat_map(|t| &t.calls)
        .filter(|c| c.result.is_ok())
        .find_map(|c| {
            let output: Vec<String> = c
                .result
                .output
                .lines()
                .map(body)
                .filter(|l| !l.is_empty())
                .take(2000)
                .collect();
            let in_output: std::collections::HashSet<&String> = output.iter().collect();
            let in_reply: std::collections::HashSet<&String> = reply.iter().collect();
            let copied = reply.iter().filter(|l| in_output.contains(l)).count();
            let covered = output.iter().filter(|l| in_reply.contains(l)).count();
            let by_lines = reply.len() >= 3
                && copied >= 3
                && copied * 5 >= reply.len() * 4
                && (cut_off || covered * 2 >= output.len());
            let packed = |lines: &[String]| -> String {
                lines
                    .iter()
                    .flat_map(|l| l.chars())
                    .filter(|c| !c.is_whitespace())
                    .collect()
            };
            let by_text = || {
                let (reply, output) = (packed(&reply), packed(&output));
                let n = reply.chars().count();
                n >= 60 && n * 2 >= output.chars().count() && output.contains(&reply)
            };
            (by_lines || by_text())
                .then(|| c.result.ran_as.clone().unwrap_or_else(|| c.name.clone()))
        })
}

/// Whether `value` is the stem of a word of `request` ending in `-ing` or `-ed` (`mock` of
/// "Which mocking library …?", `debounce` of "How long is the search input debounced?": see
/// grep's `example_for`), or the short form code writes for a word of it that begins it
/// (`conn` of "connections", searched so where the files write it short), case aside.
fn stem_of_request_word(request: &str, value: &str) -> bool {
    crate::tools::request_words(request).take(200).any(|w| {
        let w = w.to_lowercase();
        crate::tools::ing_stems(&w)
            .iter()
            .chain(&crate::tools::ed_stems(&w))
            .any(|s| s.eq_ignore_ascii_case(value))
            || crate::tools::short_form(&w)
                .is_some_and(|s| w.starts_with(s) && s.eq_ignore_ascii_case(value))
    })
}

/// Whether `phrase`, two words or more, is words of `request` next to each other (case and the
/// punctuation around words aside): grep's search for "word count", asked which flag prints the
/// word count.
fn holds_phrase(request: &str, phrase: &str) -> bool {
    // A phrase searched for as code joins it (`main[._-]?class`: see grep's `example_for`), or
    // both as written and joined (`expiry[ ._-]?alerts`); a name in code by its words
    // (`add[_-]?line`).
    // A word searched with its short form (`(?:directory|dir)`: see grep's `env_name`) is the
    // word.
    static ALTERNATIVES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\(\?:([a-z0-9]+)\|[a-z0-9|]+\)").expect("a valid pattern")
    });
    let phrase = if phrase.contains(r"\w*(?:") {
        std::borrow::Cow::Borrowed(phrase)
    } else {
        ALTERNATIVES.replace_all(phrase, "$1")
    };
    let phrase = phrase
        .replace(r"[\w.-]*", " ")
        .replace("[ ._-]?", " ")
        .replace("[._-]?", " ")
        .replace("[_-]?", " ")
        .to_lowercase();
    // A negated verb searched for as `not found` ("… cannot be found?": see grep's
    // `negations`).
    if crate::builtin::negations(request).contains(&phrase) {
        return true;
    }
    // `W\w*(?:[_-](?:ms|…)|Ms…)\b` is a name of W in the unit a question "How many U …?"
    // asks for (see grep's `unit_name`).
    if let Some((head, _)) = phrase.split_once(r"\w*(?:[_-](?:") {
        let words: Vec<String> = crate::tools::request_words(request)
            .take(200)
            .map(str::to_lowercase)
            .collect();
        return words.contains(&head.to_owned()) && words.windows(2).any(|w| w == ["how", "many"]);
    }
    let want: Vec<String> = phrase.split_whitespace().map(str::to_owned).collect();
    if want.len() < 2 {
        return false;
    }
    let words: Vec<String> = crate::tools::request_words(request)
        .take(200)
        .map(str::to_lowercase)
        .collect();
    // `default N` is what a question about N's default asks for (see grep's `default_name`).
    if let [default, noun] = want.as_slice()
        && default.starts_with("default")
        && words.contains(noun)
        && words.iter().any(|w| {
            ["default", "defaults", "overrides", "overridden", "override"].contains(&w.as_str())
        })
    {
        return true;
    }
    // `max N` is what "How many N … at most?" asks for (see grep's `at_most_name`).
    if let [max, noun] = want.as_slice()
        && max == "max"
        && words.contains(noun)
        && (words.windows(2).any(|w| w == ["at", "most"]) || words.iter().any(|w| w == "maximum"))
    {
        return true;
    }
    // Its last word may be the stem of the request's (`key[._-]?map` of "key mapping": see
    // grep's `joined_forms`).
    let n = want.len();
    words.windows(n).any(|w| {
        w[..n - 1] == want[..n - 1]
            && (w[n - 1] == want[n - 1]
                || (want[n - 1].chars().count() >= 3
                    && w[n - 1].ends_with("ing")
                    && w[n - 1].starts_with(want[n - 1].as_str())))
    })
}

/// Whether the call `call` (JSON text) has arguments whose strings are all `.` (one at least)
/// and nothing else: the `ls` of the root, a look that names nothing of any task.
fn names_only_the_root(call: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(call)
        .ok()
        .and_then(|c| {
            let args = c.get("arguments")?.as_object()?;
            Some(!args.is_empty() && args.values().all(|v| v.as_str() == Some(".")))
        })
        .unwrap_or(false)
}

/// Whether `sent`, the arguments of a call, are `shown`'s (the call shown as the change due)
/// but for one string value, `near(shown's, sent's)` true of it: the same keys, every other
/// value the same. What [`ran_on`] and [`cut_short`] share.
fn one_string_near(
    shown: &serde_json::Value,
    sent: &serde_json::Value,
    near: impl Fn(&str, &str) -> bool,
) -> bool {
    let (Some(shown), Some(sent)) = (shown.as_object(), sent.as_object()) else {
        return false;
    };
    if shown.len() != sent.len() {
        return false;
    }
    let mut differing = 0;
    for (key, want) in shown {
        let Some(got) = sent.get(key) else {
            return false;
        };
        if got == want {
            continue;
        }
        let (Some(want), Some(got)) = (want.as_str(), got.as_str()) else {
            return false;
        };
        if !near(want, got) {
            return false;
        }
        differing += 1;
    }
    differing == 1
}

/// Whether `sent`, the arguments of a call, are `shown`'s (the call shown as the change due)
/// copied on past the end of one string value: every other value the same, that one starting
/// with the shown value and going on only with lines of it again (the last perhaps cut short).
/// Copying a long `new_text`, Qwen2.5-Coder-0.5B wrote the new test it was shown twice more
/// and a stray `#[` (session 28, a Rust crate).
fn ran_on(shown: &serde_json::Value, sent: &serde_json::Value) -> bool {
    one_string_near(shown, sent, |want, got| {
        let Some(rest) = got.strip_prefix(want) else {
            return false;
        };
        let lines: Vec<&str> = want.lines().map(str::trim).collect();
        let extra: Vec<&str> = rest
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        !extra.is_empty()
            && extra.iter().enumerate().all(|(i, l)| {
                lines.contains(l)
                    || (i + 1 == extra.len() && lines.iter().any(|w| w.starts_with(l)))
            })
    })
}

/// Whether `sent`, the arguments of a call, are `shown`'s (the call shown as the change due)
/// with one string value cut short of the punctuation it ends with: every other value the
/// same, that one the shown value less a tail of `,`, `;`, `)`, `]`, `}` and white space.
/// Copying `version: "0.7.0",` → `version: "0.8.0",`, Qwen2.5-Coder-0.5B sent the new text
/// without its comma (a Phoenix/Elixir API, session 41): `mix.exs` would no longer compile.
fn cut_short(shown: &serde_json::Value, sent: &serde_json::Value) -> bool {
    one_string_near(shown, sent, |want, got| {
        want.strip_prefix(got.trim_end()).is_some_and(|t| {
            !t.trim().is_empty() && t.chars().all(|c| c.is_whitespace() || ",;)]}".contains(c))
        })
    })
}

/// Whether `sent`, the arguments of a call, are `shown`'s (the call shown as the change due)
/// but for its `new_text` changing numbers the shown call keeps from its `old_text` into
/// numbers `request` does not name: token by token (runs of letters, digits and `.`) the same
/// but where both tokens hold a digit, the shown one is a token of `old_text` and the sent one
/// no word of the request's. Copying the CI matrix edit `"2.2.12"` → `"2.2.14"` of a Deno
/// service (session 54, ci_deno_2214), Qwen2.5-Coder-0.5B also wrote `2.3.6` for the
/// `"2.3.5"` the edit keeps, a version nobody asked for.
fn kept_altered(shown: &serde_json::Value, sent: &serde_json::Value, request: &str) -> bool {
    fn tokens(s: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut start = 0;
        let mut word = None;
        for (k, c) in s.char_indices() {
            let w = c.is_alphanumeric() || c == '.';
            if word != Some(w) {
                if k > start {
                    out.push(&s[start..k]);
                }
                start = k;
                word = Some(w);
            }
        }
        if s.len() > start {
            out.push(&s[start..]);
        }
        out
    }
    let Some(old) = shown.get("old_text").and_then(|v| v.as_str()) else {
        return false;
    };
    let old = tokens(old);
    let named: Vec<&str> = crate::tools::request_words(request).collect();
    one_string_near(shown, sent, |want, got| {
        let (want, got) = (tokens(want), tokens(got));
        want.len() == got.len()
            && want.iter().zip(&got).all(|(w, g)| {
                w == g
                    || (w.contains(|c: char| c.is_ascii_digit())
                        && g.contains(|c: char| c.is_ascii_digit())
                        && old.contains(w)
                        && !named
                            .iter()
                            .any(|n| n.trim_end_matches('.') == g.trim_end_matches('.')))
            })
    }) && shown.get("new_text") != sent.get("new_text")
}

/// Whether `sent`, the arguments of a call, are `shown`'s (the call shown as the change due)
/// but for a `path` no workspace file can have — absolute (`/path/to/your/file.txt`), not
/// ending with the shown path — the texts copied exactly (a Phoenix/Elixir API, session 41:
/// shown the edit of `config/config.exs`, Qwen2.5-Coder-0.5B sent its texts with the
/// placeholder path three times, and the run ended with nothing changed).
fn placeholder_path(shown: &serde_json::Value, sent: &serde_json::Value) -> bool {
    let (Some(shown), Some(sent)) = (shown.as_object(), sent.as_object()) else {
        return false;
    };
    let (Some(want), Some(got)) = (
        shown.get("path").and_then(|p| p.as_str()),
        sent.get("path").and_then(|p| p.as_str()),
    ) else {
        return false;
    };
    let absolute = got.starts_with(['/', '~', '\\'])
        || got.as_bytes().get(1..3) == Some(b":\\".as_slice())
        || got.as_bytes().get(1..3) == Some(b":/".as_slice());
    absolute
        && !got.ends_with(&format!("/{want}"))
        && shown.len() == sent.len()
        && shown
            .iter()
            .all(|(k, v)| k == "path" || sent.get(k) == Some(v))
}

/// Whether `call` is the call `shown` (JSON text `{"name", "arguments"}`): the same name and
/// the same arguments (text repaired).
fn is_call(shown: &str, call: &PendingCall) -> bool {
    serde_json::from_str::<serde_json::Value>(shown).is_ok_and(|v| {
        v["name"].as_str() == Some(call.name.as_str())
            && args_value(&call.arguments).as_ref() == Some(&v["arguments"])
    })
}

/// A product's name without the `.js` it is written with (`Node.js` → `Node`, `vue.js` →
/// `vue`): a word of letters, capitalised or not, then `.js`; any other word as it is.
fn product_name(word: &str) -> &str {
    word.strip_suffix(".js")
        .or_else(|| word.strip_suffix(".JS"))
        .filter(|w| w.chars().count() >= 2 && w.chars().all(char::is_alphabetic))
        .unwrap_or(word)
}

/// The names of environments a settings file's section is named for (`production:`).
const ENVIRONMENTS: &[&str] = &["production", "prod", "development", "dev", "staging"];

/// Whether two words (lower case) share a stem: the same for their first five letters or
/// more, all but one letter of the shorter (`alerts` and `alerting`, `sweeper` and `sweeps`).
fn shares_stem(a: &str, b: &str) -> bool {
    let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let shorter = a.chars().count().min(b.chars().count());
    common >= 5 && common + 1 >= shorter
}

/// Whether a reply says nothing: no letter or digit in it (empty, blank, `.`). Found with a
/// Ruby gem (session 38, unknown_error): after the search that showed `class UnknownStation`,
/// Qwen2.5-Coder-0.5B replied `.`, which stood as the answer.
fn says_nothing(raw: &str) -> bool {
    !raw.chars().any(char::is_alphanumeric)
}

/// Whether `path` is inside `folder` (a model's path: `./` before it, `/` after it aside), or
/// `folder` is the root (`.`, or nothing: small models keep a placeholder path).
fn in_folder(folder: &str, path: &str) -> bool {
    let folder = folder.trim_start_matches("./").trim_end_matches('/');
    folder.is_empty() || folder == "." || path.starts_with(&format!("{folder}/"))
}

/// Arguments a message holds (a value, or text: repaired) as a value.
fn args_value_of(args: &serde_json::Value) -> Option<serde_json::Value> {
    match args {
        serde_json::Value::String(t) => repaired_value(t),
        v => Some(v.clone()),
    }
}

/// Whether `text` defines `name` as a type: right after `class`, `struct`, `interface`,
/// `trait`, `enum`, `object` or `module`.
fn defines_type(text: &str, name: &str) -> bool {
    const TYPES: &[&str] = &[
        "class",
        "struct",
        "interface",
        "trait",
        "enum",
        "object",
        "module",
    ];
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .any(|w| w[1] == name && TYPES.contains(&w[0]))
}

/// Whether `text`, a line of code, defines `name`: a keyword that defines a function, a
/// method, a class or a type right before it (`def cart_total(items):`, `pub fn total(`,
/// `func MaxLineLength(s string) int {`, `class Cart:`), a function assigned to it first on the
/// line (`domin_to_percent <- function(x) {`), or a C function's or a Java method's
/// head — a return type before it, `(` after it, no `;` at the end (`int ringbuf_push(struct
/// ringbuf *rb)`, `public List<Booking> staying(LocalDate night) {`).
fn defines(text: &str, name: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "def",
        "fn",
        "func",
        "function",
        "class",
        "struct",
        "enum",
        "trait",
        "interface",
        "type",
        "sub",
        "proc",
        "fun",
    ];
    const NOT_TYPES: &[&str] = &[
        "return", "if", "while", "for", "switch", "else", "assert", "case", "new", "throw",
    ];
    let text = text.trim();
    let is_name = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let (head, after) = (&text[..at], &text[at + name.len()..]);
        // The whole name, not a part of a longer one.
        if head.ends_with(is_name) || after.starts_with(is_name) {
            return false;
        }
        let before = head.trim_end();
        let last = before.rsplit(char::is_whitespace).next().unwrap_or("");
        if KEYWORDS.contains(&last) && head.ends_with(char::is_whitespace) {
            return true;
        }
        // A function assigned to the name, first on its line: R's `name <- function(x)`,
        // JavaScript's `name = function (…)` (an R package, session 49: asked "Which file is
        // domin_to_percent() defined in?", the lines shown as bearing were six, the calls' and
        // the docs' among them, and Qwen2.5-Coder-0.5B answered `R/read.R`, a call's file).
        let assigned = after
            .trim_start()
            .strip_prefix("<-")
            .or_else(|| after.trim_start().strip_prefix('='))
            .is_some_and(|rest| {
                let rest = rest.trim_start();
                rest.starts_with("function") && !rest["function".len()..].starts_with(is_name)
            });
        if assigned && head.trim().is_empty() {
            return true;
        }
        // A C function's head: a type (words, `*`) before the name, `(` after, no `;`; or a
        // Java method's, the type generic (`public List<Booking> staying(LocalDate night)
        // {`: a Maven project, session 37). Not a call on an object (`in.add(b)`).
        after.starts_with('(')
            && !text.ends_with(';')
            && !before.is_empty()
            && !before.ends_with('.')
            && before
                .chars()
                .all(|c| is_name(c) || matches!(c, '*' | ' ' | '<' | '>' | ',' | '[' | ']' | '.'))
            && !NOT_TYPES.contains(&before.split_whitespace().next().unwrap_or(""))
    })
}

/// A call's arguments as a value, text repaired; `None` for text that repairs to nothing.
fn args_value(args: &Args) -> Option<serde_json::Value> {
    match args {
        Args::Value(v) => Some(v.clone()),
        Args::Text(t) => repaired_value(t),
    }
}

/// Whether `content`, a reply without calls, only repeats a message toolmend sent this run
/// ([`correct::echoes`], `record`'s nudge included) or the user's request
/// ([`correct::repeats_request`]).
fn echoed(content: &str, turns: &[TurnRecord], record: &TurnRecord, prompt: &str) -> bool {
    // A name toolmend offered as the answer ("The tool results above name `staying`, …") is
    // no repeat of the request when the question writes it too (a Maven project, session
    // 37: "Which method lists the bookings staying on a given night?").
    let word = content
        .trim()
        .trim_end_matches(['.', '!'])
        .trim_matches(['"', '\'', '`']);
    // Nor is it an echo of the message that offered it, or of the one that told the model,
    // calling it as a tool, that it is a name in the results to answer with (a PHP library,
    // session 39: asked "Which exception is thrown when an invoice has no lines?", told the
    // results name `EmptyInvoiceException`, the model answered `"EmptyInvoiceException"`,
    // and was asked again as if it had only repeated the message).
    let offered = !word.is_empty()
        && !word.contains(char::is_whitespace)
        && sent_messages(turns, record.nudge.as_deref()).any(|m| {
            let named = format!("`{word}`");
            (m.contains("The tool results above name ") && m.contains(&named))
                || m.starts_with(&format!(
                    "{named} is not a tool: it is a name in the tool results"
                ))
        });
    // Or words of the message before this turn, neither the request's nor any result's: a
    // phrase of its instructions ("The whole value", a Swift package, session 43: told "answer
    // with what that tells — the whole value, or its part that answers the question").
    let phrase = word.to_lowercase();
    let instruction = phrase.split_whitespace().count() >= 2
        && phrase.chars().count() <= 60
        && phrase
            .chars()
            .all(|c| c.is_alphabetic() || c == ' ' || c == '\'')
        && record
            .nudge
            .as_deref()
            .is_some_and(|n| n.to_lowercase().contains(&phrase))
        && !prompt.to_lowercase().contains(&phrase)
        && !turns
            .iter()
            .flat_map(|t| &t.calls)
            .any(|c| c.result.output.to_lowercase().contains(&phrase));
    !offered
        && (instruction
            || correct::echoes(content, sent_messages(turns, record.nudge.as_deref()))
            || correct::repeats_request(content, prompt))
}

/// The messages toolmend wrote to the model in this run so far: corrective messages of failed
/// calls, the lines it added around a result (the note before a repeated call's earlier result
/// or before the result of the tool a made-up name ran as, the next step after it; not the
/// result itself: echoing a tool's output can be an answer), and nudges, `current` (this
/// turn's) included.
fn sent_messages<'a>(
    turns: &'a [TurnRecord],
    current: Option<&'a str>,
) -> impl Iterator<Item = &'a str> {
    let feedback = turns.iter().flat_map(|t| &t.calls).flat_map(|c| {
        if c.result.failure.is_some() {
            return vec![c.feedback.as_str()];
        }
        // Around a result's output, the lines toolmend added: the note before a repeated call's
        // earlier output, and the lines after it (`To make the change the user asked for, call: {…}`: textkit set, session
        // 34, answered with that line's first words).
        // The note of a made-up name is at the head of the output itself: its first line.
        let mut added: Vec<&str> = if c.result.cached || c.result.ran_as.is_some() {
            c.feedback.lines().take(1).collect()
        } else {
            Vec::new()
        };
        let output = c.result.output.trim();
        if let Some(at) = c.feedback.find(output)
            && !output.is_empty()
        {
            added.extend(
                c.feedback[..at]
                    .lines()
                    .chain(c.feedback[at + output.len()..].lines())
                    .filter(|l| !l.trim().is_empty()),
            );
        }
        added
    });
    let nudges = turns.iter().filter_map(|t| t.nudge.as_deref());
    feedback.chain(nudges).chain(current)
}

/// The result of a call the loop refuses without running it (`kind`, `fault`, `message`), and
/// the feedback; recorded in `seen` like a failure, so that sending it again gets the firmer
/// message.
fn not_run(
    seen: &mut HashMap<String, Seen>,
    key: &str,
    id: &str,
    kind: &str,
    fault: Fault,
    message: String,
) -> (CallResult, String) {
    let mut r = CallResult::failed(kind, fault, message);
    r.attempts = 0;
    seen.insert(
        key.to_owned(),
        Seen {
            id: id.to_owned(),
            result: r.clone(),
            repeats: 0,
            counted_turn: 0,
        },
    );
    let f = r.output.clone();
    (r, f)
}

/// Which kinds of non-answer a run has already asked again (see `Agent::non_answer`).
#[derive(Default)]
struct NonAnswers {
    empty: bool,
    echo: bool,
    refusal: bool,
    unread: bool,
    unchanged: bool,
    tool_name: bool,
    shown: bool,
    file: bool,
    copied: bool,
    number: bool,
    how_to: bool,
    same: bool,
    size: bool,
    code: bool,
    /// A which-code answer's made-up name asked about after `code`.
    made_up: bool,
    /// Set by a check whose message holds what the answer needs: the next turn offers no
    /// tools. Taken by the loop.
    answer_only: bool,
    /// The replies asked again for what they said (an echo, steps for the user, a tool's
    /// name, a refusal), not for what was missing (a look, a change): a copy of one is no
    /// answer later either.
    hollow: Vec<String>,
    /// The call shown for a change a reply showed in a code block: the change due from then on.
    due: Option<String>,
}

/// What [`Agent::fit_context`] changed.
struct Fitted {
    /// Ids of the latest calls whose results were cut.
    cut: Vec<String>,
    /// Ids of earlier calls whose results were removed.
    removed: Vec<String>,
    /// The request's tokens after the change.
    tokens: u32,
    /// The context window.
    context: u32,
}

/// One generation's raw output and timings.
struct Generated {
    raw: String,
    native: Vec<NativeToolCall>,
    /// The calls and content found in `raw`.
    extraction: Extraction,
    result: Result<crate::backend::Stats, crate::backend::BackendError>,
    /// Time spent in the watcher (toolmend's share during generation).
    watch: Duration,
    /// Wall time of the whole generation.
    wall: Duration,
    /// The loop the output was stopped in, if it was (see [`looping`]).
    looped: Option<looping::Loop>,
}

/// Why the extraction refused a call the loop answers without running it: the failure's kind
/// (`cut_off`, `too_many_values`) and its message.
type Refusal = (&'static str, String);

/// The arguments of a call refused for its name. For JSON envelopes the extractor's raw text is
/// the whole call object; its `arguments` (or `parameters`) member is what the model meant.
fn refused_arguments(name: &str, raw: &str) -> Args {
    let inner = repaired_value(raw).and_then(|v| match v {
        serde_json::Value::Object(mut o)
            if o.get("name").and_then(serde_json::Value::as_str) == Some(name) =>
        {
            o.remove("arguments").or_else(|| o.remove("parameters"))
        }
        _ => None,
    });
    inner.map_or_else(|| Args::Text(raw.to_owned()), Args::Value)
}

fn text_event(s: calls::Shown) -> AgentEvent {
    match s {
        calls::Shown::Content(text) => AgentEvent::Text {
            text,
            reasoning: false,
        },
        calls::Shown::Reasoning(text) => AgentEvent::Text {
            text,
            reasoning: true,
        },
    }
}

fn add_timing(stats: &mut RunStats, t: &TurnTiming) {
    stats.timing.prompt_ms += t.prompt_ms;
    stats.timing.generation_ms += t.generation_ms;
    stats.timing.extract_ms += t.extract_ms;
    stats.timing.dispatch_ms += t.dispatch_ms;
    stats.timing.tools_ms += t.tools_ms;
}

/// Whether `text` (lower case) holds a name that is the short form `short` (`tz`, `db`) or
/// its plural (`conns`), or begins with a short form of two letters as a name of its own does
/// (`tzinfo`, `db_port`, `dbname`): a word of letters and digits, not inside another (`matzah`
/// holds no `tz`).
fn holds_short(text: &str, short: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric()).any(|t| {
        t.strip_suffix('s').unwrap_or(t) == short || (short.len() == 2 && t.starts_with(short))
    })
}

/// Whether `text` holds `word` at the start of a word of its own — after a character that is no
/// letter or digit (`_` counts as none: `__version__` holds `version`), with any ending after it
/// (`dependencies` holds `depend`) — not inside another word (`conversions` does not hold
/// `version`: held-out version, the model answered with the line that did). A word of fewer
/// than four characters is held only whole (`go`, `-w`).
fn holds_word(text: &str, word: &str) -> bool {
    // A word of fewer than four letters is held whole (`go 1.21`, not `golang` or `good`).
    if word.chars().count() < 4 {
        return holds_whole(text, word);
    }
    text.match_indices(word).any(|(at, _)| {
        text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
    })
}

/// For a search's output line `lines[li]` shown "in the entry line N names", the text of line
/// N as the same output shows it; `None` for any other line.
fn entry_naming_line<'a>(lines: &[&'a str], li: usize) -> Option<&'a str> {
    let line = lines.get(li)?;
    let (place, _) = line.split_once("): ")?;
    let (file, rest) = place.split_once(" (line ")?;
    let n = rest
        .split_once(", in the entry line ")?
        .1
        .split(|c: char| !c.is_ascii_digit())
        .next()?;
    let want = format!("{file} (line {n}): ");
    lines[..li]
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix(want.as_str()))
}

/// Whether `text` holds `word` as a word of its own, no letter or digit on either side
/// (`rust` in `rust-version`, not in `rustls`).
fn holds_whole(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
            && text[at + word.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::{defines, replaced_values};

    /// A path quoted before the sentence's end is the path (session 56).
    #[test]
    fn a_quoted_path_ends_before_the_full_stop() {
        let paths: Vec<&str> =
            super::path_tokens("The file is `source/app.d`. Or \"lib/a.rb\", maybe.").collect();
        assert_eq!(paths, ["source/app.d", "lib/a.rb"]);
    }

    #[test]
    fn a_change_logs_replaced_values_are_read() {
        let v = |s: &[&str]| s.iter().map(|v| v.to_string()).collect::<Vec<_>>();
        for (line, old, new) in [
            (
                "- Raise the production database pool from 16 to 24 connections.",
                v(&["16"]),
                v(&["24"]),
            ),
            (
                "- `--width` now defaults to 96 columns (was 80).",
                v(&["80"]),
                v(&["96"]),
            ),
            (
                "- bump reitit 0.6.0 -> `0.7.1`",
                v(&["0.6.0"]),
                v(&["0.7.1"]),
            ),
            (
                "* Timeout is 30s, previously 10s.",
                v(&["10s"]),
                v(&["30s"]),
            ),
        ] {
            assert_eq!(replaced_values(line), Some((old, new)), "{line}");
        }
        // A range, no value replacing another, or nothing besides.
        for line in [
            "- Levels from 0 to the limit are kept.",
            "- The pool was resized.",
            "- Removed the option (was 80).",
        ] {
            assert_eq!(replaced_values(line), None, "{line}");
        }
    }

    #[test]
    fn a_definition_line_is_told_from_a_use() {
        for (text, name) in [
            ("def cart_total(items):", "cart_total"),
            ("    async def fetch(url):", "fetch"),
            ("pub fn total(&self) -> f64 {", "total"),
            ("func MaxLineLength(s string) int {", "MaxLineLength"),
            ("export function isBroken(status) {", "isBroken"),
            ("class Cart:", "Cart"),
            (
                "int ringbuf_push(struct ringbuf *rb, int item)",
                "ringbuf_push",
            ),
            ("struct ringbuf *ringbuf_new(size_t cap)", "ringbuf_new"),
        ] {
            assert!(defines(text, name), "{text}");
        }
        for (text, name) in [
            ("total += price_of(item)", "price_of"),
            (
                "int ringbuf_push(struct ringbuf *rb, int item);",
                "ringbuf_push",
            ),
            ("return cart_total(items)", "cart_total"),
            ("def cart_totals(items):", "cart_total"),
            ("assert(ringbuf_push(rb, 7) == 0);", "ringbuf_push"),
            ("if (ringbuf_pop(rb, &out))", "ringbuf_pop"),
        ] {
            assert!(!defines(text, name), "{text}");
        }
    }
}
