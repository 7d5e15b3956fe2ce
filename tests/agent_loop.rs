//! The tool loop, driven deterministically by the scripted backend: answers, several calls per
//! turn, repeated calls answered from the earlier result, corrective messages, escalation of an
//! identical failing call, world-fault retries, policy refusals, the turn budget and its nudge,
//! and every end reason. Assertions are on the event stream and the transcript's structure.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolmend::agent::{
    Agent, AgentEvent, AgentOptions, Args, CallResult, EndReason, Fault, PendingCall, Toolbox,
    Transcript,
};
use toolmend::backend::scripted::{ScriptedBackend, ScriptedTurn};
use toolmend::backend::{BoxFuture, GrammarMode, Role, StopReason, ToolDef};

/// A small file-tool box over an in-memory folder, with a flaky tool and a refusing tool.
#[derive(Default)]
struct Files {
    runs: Mutex<BTreeMap<String, u32>>,
    flaky_failures: AtomicU32,
    /// `flaky` changes things (not safe to run twice).
    flaky_changes: AtomicBool,
}

impl Files {
    fn runs(&self, name: &str) -> u32 {
        self.runs.lock().unwrap().get(name).copied().unwrap_or(0)
    }
}

fn path_schema() -> Value {
    json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]})
}

impl Files {
    fn defs(&self) -> Vec<ToolDef> {
        let def = |name: &str, description: &str| ToolDef {
            name: name.into(),
            description: description.into(),
            parameters: path_schema(),
        };
        vec![
            def("ls", "List a folder."),
            def("read", "Read a file."),
            def("flaky", "Fails for the world's fault the first N times."),
            def("rm", "Delete a file (always refused)."),
            def("touch", "Change a file."),
        ]
    }

    fn call<'a>(&'a self, call: &'a PendingCall) -> BoxFuture<'a, CallResult> {
        Box::pin(async move {
            *self
                .runs
                .lock()
                .unwrap()
                .entry(call.name.clone())
                .or_default() += 1;
            let args = match &call.arguments {
                Args::Value(v) => v.clone(),
                Args::Text(t) => match serde_json::from_str::<Value>(t) {
                    Ok(v) => v,
                    Err(e) => {
                        return CallResult::failed(
                            "malformed",
                            Fault::Model,
                            format!("the arguments of `{}` are not JSON: {e}", call.name),
                        );
                    }
                },
            };
            let Some(path) = args.get("path").and_then(Value::as_str) else {
                return CallResult::failed(
                    "invalid_args",
                    Fault::Model,
                    format!("invalid arguments for `{}` at `/path`: missing", call.name),
                );
            };
            match call.name.as_str() {
                "ls" if path == "." => CallResult::ok("notes.txt\ntodo.md"),
                "ls" => CallResult::failed(
                    "invalid_args",
                    Fault::Model,
                    format!(
                        "invalid arguments for `ls` at `/path`: {path:?} is outside the root; use \".\""
                    ),
                ),
                "read" if path == "notes.txt" => CallResult::ok("buy milk"),
                "read" => CallResult::failed(
                    "invalid_args",
                    Fault::Model,
                    format!("invalid arguments for `read` at `/path`: no file {path:?}"),
                ),
                "flaky" => {
                    if self.flaky_failures.load(Ordering::SeqCst) > 0 {
                        self.flaky_failures.fetch_sub(1, Ordering::SeqCst);
                        CallResult::failed(
                            "transient",
                            Fault::World,
                            "`flaky` failed for a reason outside your control: disk busy",
                        )
                    } else {
                        CallResult::ok("flaky ok")
                    }
                }
                "rm" => {
                    CallResult::failed("denied", Fault::Policy, "`rm` was refused: read-only task")
                }
                "touch" => CallResult::ok("changed").with_change(),
                other => CallResult::failed(
                    "unknown_tool",
                    Fault::Model,
                    format!("unknown tool `{other}`: the known tools are: ls, read, flaky, rm."),
                ),
            }
        })
    }
}

struct Run {
    transcript: Transcript,
    events: Vec<AgentEvent>,
    requests: Vec<toolmend::backend::Request>,
}

fn run_with(turns: Vec<ScriptedTurn>, files: Arc<Files>, options: AgentOptions) -> Run {
    let backend = ScriptedBackend::new(turns);
    let log = backend.log();
    let mut agent = Agent::new(backend, ArcBox(files), options);
    let mut events = Vec::new();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let transcript = rt.block_on(
        agent.run("List the files, then read the first one.", &mut |e| {
            events.push(e.clone());
        }),
    );
    check_event_stream(&events, &transcript);
    Run {
        transcript,
        events,
        requests: log.requests(),
    }
}

fn run(turns: Vec<ScriptedTurn>) -> (Run, Arc<Files>) {
    let files = Arc::new(Files::default());
    (
        run_with(turns, files.clone(), AgentOptions::default()),
        files,
    )
}

/// Shares one `Files` between the agent and the test.
struct ArcBox(Arc<Files>);

impl Toolbox for ArcBox {
    fn defs(&self) -> Vec<ToolDef> {
        self.0.defs()
    }
    fn call<'a>(&'a mut self, call: &'a PendingCall) -> BoxFuture<'a, CallResult> {
        self.0.call(call)
    }
    fn is_read_only(&self, name: &str) -> bool {
        matches!(name, "ls" | "read")
    }
    fn is_retry_safe(&self, name: &str) -> bool {
        name == "flaky" && !self.0.flaky_changes.load(Ordering::SeqCst)
    }
}

/// The structural contract of every run: chunks add up to the raw output of each turn, each
/// `ToolStart` is followed by its `ToolEnd` (in call order), every call in the transcript was dispatched or refused
/// with a reason, and `Done` comes last, once, with the transcript's end reason.
fn check_event_stream(events: &[AgentEvent], t: &Transcript) {
    // Calls that run concurrently start together; their ends follow in call order.
    let mut open: std::collections::VecDeque<&str> = std::collections::VecDeque::new();
    let mut starts = 0;
    for (i, e) in events.iter().enumerate() {
        match e {
            AgentEvent::ToolStart { id, .. } => {
                assert!(!open.contains(&id.as_str()), "ToolStart twice at event {i}");
                open.push_back(id);
                starts += 1;
            }
            AgentEvent::ToolEnd {
                id, result, sent, ..
            } => {
                assert_eq!(
                    open.pop_front(),
                    Some(id.as_str()),
                    "unmatched ToolEnd at event {i}"
                );
                // What the event says the model was sent is what the model got.
                let call = t
                    .turns
                    .iter()
                    .flat_map(|t| &t.calls)
                    .find(|c| c.id == *id)
                    .expect("every ToolEnd is a call of the transcript");
                assert_eq!(
                    sent.as_deref().unwrap_or(&result.output),
                    call.feedback,
                    "ToolEnd {id}: `sent` is the feedback"
                );
                assert_ne!(
                    sent.as_ref(),
                    Some(&result.output),
                    "`sent` only when it differs"
                );
            }
            AgentEvent::Done { reason, answer, .. } => {
                assert_eq!(i, events.len() - 1, "Done is not last");
                assert_eq!(*reason, t.end);
                assert_eq!(*answer, t.answer, "Done carries the answer");
            }
            AgentEvent::Chunk { .. }
            | AgentEvent::Text { .. }
            | AgentEvent::Retry { .. }
            | AgentEvent::Looped { .. }
            | AgentEvent::ContextFit { .. }
            | AgentEvent::Error { .. } => {}
        }
    }
    assert!(open.is_empty());
    // The `Text` events after the last call or retry are the answer: no call text among them.
    let last_start = events
        .iter()
        .rposition(|e| matches!(e, AgentEvent::ToolEnd { .. } | AgentEvent::Retry { .. }))
        .map_or(0, |i| i + 1);
    let shown: String = events[last_start..]
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Text {
                text,
                reasoning: false,
            } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    if let Some(answer) = &t.answer {
        if t.turns.last().is_some_and(|r| r.looped.is_some()) {
            // An answer stopped in a loop is the shown text up to its first copy.
            assert!(
                shown.trim().starts_with(answer.trim()),
                "{shown:?} {answer:?}"
            );
        } else {
            assert_eq!(shown.trim(), answer.trim(), "the shown text is the answer");
        }
    }
    let chunks: String = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Chunk { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let raws: String = t.turns.iter().map(|t| t.raw.as_str()).collect();
    assert_eq!(chunks, raws, "the transcript keeps every turn's raw output");
    let calls: usize = t.turns.iter().map(|t| t.calls.len()).sum();
    assert_eq!(starts, calls);
    assert_eq!(t.stats.calls as usize, calls);
    for c in t.turns.iter().flat_map(|t| &t.calls) {
        assert!(!c.feedback.is_empty(), "call {} got no feedback", c.id);
        if let Some(f) = &c.result.failure {
            assert!(
                !f.message.is_empty(),
                "call {} failed without a reason",
                c.id
            );
        }
    }
}

fn retries(events: &[AgentEvent]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Retry { reason } => Some(reason.as_str()),
            _ => None,
        })
        .collect()
}

const LS: &str = r#"{"name": "ls", "arguments": {"path": "."}}"#;
const READ: &str = r#"{"name": "read", "arguments": {"path": "notes.txt"}}"#;

#[test]
fn a_plain_answer_ends_the_run_in_one_turn() {
    let (r, files) = run(vec!["Paris is the capital of France.".into()]);
    let t = &r.transcript;
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(t.answer.as_deref(), Some("Paris is the capital of France."));
    assert_eq!(t.turns.len(), 1);
    assert_eq!(files.runs("ls"), 0);
    assert_eq!(t.messages.last().unwrap().role, Role::Assistant);
}

#[test]
fn prose_and_code_blocks_are_not_calls() {
    let (r, _) = run(vec![
        "Here is some Python:\n```python\nprint({'name': 'ls'})\n```\nand a dict {\"a\": 1}."
            .into(),
    ]);
    assert_eq!(r.transcript.end, EndReason::Answered);
    assert_eq!(r.transcript.stats.calls, 0);
}

#[test]
fn results_are_fed_back_and_the_loop_continues_until_an_answer() {
    let (r, files) = run(vec![
        format!("```json\n{LS}\n```").into(),
        READ.into(),
        "The first file says: buy milk.".into(),
    ]);
    let t = &r.transcript;
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(t.turns.len(), 3);
    assert_eq!((files.runs("ls"), files.runs("read")), (1, 1));
    // The second request carries the listing as a tool message answering call_1.
    let second = &r.requests[1].messages;
    let tool = second.last().unwrap();
    assert_eq!(tool.role, Role::Tool);
    assert_eq!(tool.name.as_deref(), Some("ls"));
    assert_eq!(tool.content, "notes.txt\ntodo.md");
    // The call goes back as the template documents a call (a `tool_calls` entry with the id the
    // tool message answers), not as the fenced text the model wrote; the transcript keeps that.
    let assistant = &second[second.len() - 2];
    assert_eq!(assistant.role, Role::Assistant);
    assert_eq!(assistant.content, "");
    assert_eq!(assistant.tool_calls.len(), 1);
    assert_eq!(assistant.tool_calls[0].name, "ls");
    assert_eq!(assistant.tool_calls[0].arguments, json!({"path": "."}));
    assert_eq!(assistant.tool_calls[0].id, tool.tool_call_id);
    assert_eq!(t.turns[0].raw, format!("```json\n{LS}\n```"));
    assert!(r.requests[0].tools.iter().any(|d| d.name == "read"));
}

#[test]
fn several_bare_json_lines_are_several_calls() {
    let (r, files) = run(vec![format!("{LS}\n{READ}").into(), "Done.".into()]);
    let t = &r.transcript;
    assert_eq!(t.turns[0].calls.len(), 2);
    assert_eq!(t.turns[0].calls[1].name, "read");
    assert_eq!((files.runs("ls"), files.runs("read")), (1, 1));
    assert_eq!(t.end, EndReason::Answered);
}

#[test]
fn an_identical_call_is_answered_from_the_earlier_result_without_running_again() {
    let (r, files) = run(vec![LS.into(), LS.into(), "Two files.".into()]);
    assert_eq!(files.runs("ls"), 1);
    let second = &r.transcript.turns[1].calls[0];
    assert!(second.result.cached);
    assert_eq!(second.result.attempts, 0);
    assert!(
        second.feedback.contains("earlier result"),
        "{}",
        second.feedback
    );
    assert!(second.feedback.contains("notes.txt"));
    // The user's request is restated: a model repeating a call has lost track of what for
    // (Qwen2.5-Coder-0.5B read config.json four times instead of answering from it).
    assert!(
        second
            .feedback
            .contains(r#"answer the user's request "List the files, then read the first one.""#),
        "{}",
        second.feedback
    );
    // Keys ignore the order of argument keys.
    let (r2, files2) = run(vec![
        r#"{"name": "read", "arguments": {"path": "notes.txt"}}"#.into(),
        r#"{"arguments": {"path": "notes.txt"}, "name": "read"}"#.into(),
        "ok".into(),
    ]);
    assert_eq!(files2.runs("read"), 1);
    assert!(r2.transcript.turns[1].calls[0].result.cached);
}

#[test]
fn a_model_fault_gets_a_corrective_message_with_one_valid_call() {
    let (r, _) = run(vec![
        r#"{"name": "ls", "arguments": {"path": "/path/to/folder"}}"#.into(),
        LS.into(),
        "Two files.".into(),
    ]);
    let t = &r.transcript;
    assert_eq!(t.end, EndReason::Answered);
    let first = &t.turns[0].calls[0];
    assert_eq!(first.result.fault(), Some(Fault::Model));
    assert!(
        first.feedback.contains("outside the root"),
        "{}",
        first.feedback
    );
    assert!(
        first
            .feedback
            .contains(r#"{"name":"ls","arguments":{"path":"."}}"#),
        "{}",
        first.feedback
    );
    assert_eq!(retries(&r.events).len(), 1);
    assert!(t.turns[1].calls[0].result.is_ok());
}

#[test]
fn an_unknown_tool_is_answered_with_the_real_tools_and_an_example() {
    let (r, files) = run(vec![
        r#"{"name": "reed", "arguments": {"path": "notes.txt"}}"#.into(),
        READ.into(),
        "buy milk".into(),
    ]);
    let fb = &r.transcript.turns[0].calls[0].feedback;
    assert!(
        fb.contains("unknown tool `reed`") && fb.contains("ls, read"),
        "{fb}"
    );
    assert!(
        fb.contains(r#"{"name":"read","arguments":{"path":"."}}"#),
        "closest tool's example: {fb}"
    );
    // The person watching is shown that message, not the tool's own.
    let sent = r.events.iter().find_map(|e| match e {
        AgentEvent::ToolEnd { name, sent, .. } if name == "reed" => Some(sent.clone()),
        _ => None,
    });
    assert_eq!(sent, Some(Some(fb.clone())));
    assert_eq!((files.runs("reed"), files.runs("read")), (1, 1));
}

/// The example for a name that is no tool is a read-only call even when a tool that changes
/// things (`touch`, `rm`) has the closest name, in the first message and in the firmer one.
#[test]
fn an_unknown_tool_is_never_shown_an_example_that_changes_things() {
    let bad = r#"{"name": "touhc", "arguments": {"path": "notes.txt"}}"#;
    let (r, files) = run(vec![bad.into(), bad.into(), "done".into()]);
    for turn in &r.transcript.turns[..2] {
        let fb = &turn.calls[0].feedback;
        assert!(!fb.contains(r#""name":"touch""#), "{fb}");
        assert!(!fb.contains(r#""name":"rm""#), "{fb}");
    }
    let firm = &r.transcript.turns[1].calls[0].feedback;
    assert!(
        firm.contains(r#"{"name":"ls","arguments":"#)
            || firm.contains(r#"{"name":"read","arguments":"#),
        "{firm}"
    );
    assert_eq!(files.runs("touch"), 0);
}

#[test]
fn an_identical_failing_call_is_escalated_then_ends_the_run() {
    let bad = r#"{"name": "ls", "arguments": {"path": "/path/to/folder"}}"#;
    let (r, files) = run(vec![
        format!("```json\n{bad}\n```").into(),
        bad.into(),
        bad.into(),
        "never reached".into(),
    ]);
    let t = &r.transcript;
    assert_eq!(t.end, EndReason::RepeatedFailure);
    assert_eq!(t.turns.len(), 3);
    assert_eq!(
        files.runs("ls"),
        1,
        "the identical failing call is not run again"
    );
    let firm = &t.turns[1].calls[0];
    assert_eq!(
        firm.result.failure.as_ref().unwrap().kind,
        "repeated_failure"
    );
    assert!(
        firm.feedback.contains("exactly this shape"),
        "{}",
        firm.feedback
    );
    assert!(
        firm.feedback
            .contains(r#"{"name":"ls","arguments":{"path":"."}}"#)
    );
    assert_eq!(
        retries(&r.events).len(),
        2,
        "one corrective, one escalation"
    );
    assert_eq!(r.requests.len(), 3, "the budget of 8 was not spent");
}

/// One call of `flaky`, failing for the world's fault its first `failures` runs (`changes`: it
/// is not safe to run twice), then an answer.
fn flaky_run(failures: u32, changes: bool) -> (Run, Arc<Files>) {
    let files = Arc::new(Files::default());
    files.flaky_failures.store(failures, Ordering::SeqCst);
    files.flaky_changes.store(changes, Ordering::SeqCst);
    let flaky = r#"{"name": "flaky", "arguments": {"path": "x"}}"#;
    let r = run_with(
        vec![flaky.into(), "ok".into()],
        files.clone(),
        AgentOptions::default(),
    );
    (r, files)
}

#[test]
fn world_faults_are_retried_before_the_model_hears_of_them() {
    let (r, files) = flaky_run(1, false);
    let call = &r.transcript.turns[0].calls[0];
    assert!(call.result.is_ok());
    assert_eq!(call.result.attempts, 2);
    assert_eq!(files.runs("flaky"), 2);
    assert!(retries(&r.events)[0].contains("world's fault"));

    // A tool that changes things is not run twice: the failure goes back after one run.
    let (r, files) = flaky_run(1, true);
    let call = &r.transcript.turns[0].calls[0];
    assert_eq!(call.result.fault(), Some(Fault::World));
    assert_eq!(files.runs("flaky"), 1);
    assert!(retries(&r.events).is_empty());

    // Still failing after the retries: the world-fault message goes back, not a correction.
    let (r, files) = flaky_run(5, false);
    let call = &r.transcript.turns[0].calls[0];
    assert_eq!(call.result.fault(), Some(Fault::World));
    assert!(call.feedback.contains("outside your control"));
    assert!(!call.feedback.contains("valid call"));
    assert_eq!(files.runs("flaky"), 2);
}

#[test]
fn a_refused_call_skips_the_rest_of_the_turn() {
    let rm = r#"{"name": "rm", "arguments": {"path": "notes.txt"}}"#;
    let (r, files) = run(vec![
        format!("{rm}\n{LS}").into(),
        "I may not delete.".into(),
    ]);
    let calls = &r.transcript.turns[0].calls;
    assert_eq!(calls[0].result.fault(), Some(Fault::Policy));
    assert_eq!(calls[1].result.failure.as_ref().unwrap().kind, "skipped");
    assert!(calls[1].feedback.contains("refused"));
    assert_eq!(files.runs("ls"), 0);
    assert_eq!(r.transcript.end, EndReason::Answered);
}

#[test]
fn the_turn_budget_ends_the_run_with_a_nudge_before_the_end() {
    let turns: Vec<ScriptedTurn> = (0..5)
        .map(|i| format!(r#"{{"name": "read", "arguments": {{"path": "f{i}"}}}}"#).into())
        .collect();
    let files = Arc::new(Files::default());
    let options = AgentOptions {
        max_turns: 4,
        nudge_turns: 2,
        ..AgentOptions::default()
    };
    let r = run_with(turns.clone(), files, options);
    let t = &r.transcript;
    assert_eq!(t.end, EndReason::TurnBudget);
    assert_eq!(t.turns.len(), 4);
    let nudges: Vec<Option<&str>> = t.turns.iter().map(|t| t.nudge.as_deref()).collect();
    assert_eq!(nudges[0], None);
    assert_eq!(nudges[1], None);
    assert!(nudges[2].unwrap().starts_with("2 turns left"));
    assert!(nudges[3].unwrap().contains("last turn"));
    // The nudge is the last message of the request, not part of the kept history.
    let last = r.requests[3].messages.last().unwrap();
    assert_eq!(
        (last.role, last.content.as_str()),
        (Role::User, nudges[3].unwrap())
    );
    assert!(!t.messages.iter().any(|m| m.content.contains("turns left")));
    // The last turn offers no tools (a call there could never be followed by the answer).
    let offered: Vec<usize> = r.requests.iter().map(|q| q.tools.len()).collect();
    assert_eq!(offered, [5, 5, 5, 0]);
    let answer_only: Vec<bool> = t.turns.iter().map(|t| t.answer_only).collect();
    assert_eq!(answer_only, [false, false, false, true]);
    // Nor may its output open with a call (embedded backends mask such tokens).
    let grammar: Vec<GrammarMode> = r.requests.iter().map(|q| q.options.grammar).collect();
    assert_eq!(
        grammar,
        [
            GrammarMode::Off,
            GrammarMode::Off,
            GrammarMode::Off,
            GrammarMode::Answer
        ]
    );
    // By default only the last turn is told: small models echo "2 turns left" as their reply.
    let options = AgentOptions {
        max_turns: 4,
        ..AgentOptions::default()
    };
    let r = run_with(turns, Arc::new(Files::default()), options);
    let nudges: Vec<bool> = r
        .transcript
        .turns
        .iter()
        .map(|t| t.nudge.is_some())
        .collect();
    assert_eq!(nudges, [false, false, false, true]);
}

#[test]
fn generation_stops_as_soon_as_a_call_is_complete() {
    let junk = " and then I keep talking about nothing in particular".repeat(20);
    let (r, _) = run(vec![
        format!("<tool_call>{LS}</tool_call>{junk}").into(),
        "Two files.".into(),
    ]);
    let turn = &r.transcript.turns[0];
    assert_eq!(turn.stop, Some(StopReason::Stopped));
    assert!(turn.raw.len() < LS.len() + 40, "kept {:?}", turn.raw);
    assert_eq!(turn.calls.len(), 1);
}

#[test]
fn a_backend_failure_ends_the_run_and_keeps_the_partial_output() {
    let (r, _) = run(vec![ScriptedTurn::failing(
        "I will list",
        "the stream broke",
    )]);
    let t = &r.transcript;
    assert_eq!(t.end, EndReason::BackendError);
    assert_eq!(t.turns[0].raw, "I will list");
    assert!(t.error.as_deref().unwrap().contains("the stream broke"));
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, AgentEvent::Error { .. }))
    );
}

#[test]
fn an_exhausted_script_is_a_backend_error() {
    let (r, _) = run(vec![LS.into()]);
    assert_eq!(r.transcript.end, EndReason::BackendError);
    assert_eq!(r.transcript.turns.len(), 2);
}

#[test]
fn empty_output_and_cut_off_answers_have_their_own_reasons() {
    // An empty reply is asked again once; a second one ends the run.
    let (r, _) = run(vec!["   ".into(), "".into()]);
    assert_eq!(r.transcript.end, EndReason::EmptyOutput);
    assert_eq!(r.transcript.answer, None);
    assert_eq!(r.transcript.turns.len(), 2);
    let (r, _) = run(vec![ScriptedTurn {
        text: "The files are notes.txt and".into(),
        max_chunks: Some(3),
        ..ScriptedTurn::default()
    }]);
    assert_eq!(r.transcript.end, EndReason::AnswerCutOff);
}

/// Found with `toolmend eval tasks` (list_files, Qwen2.5-Coder-0.5B): after `ls` listed the
/// folder the model's next turn was empty, and the run ended without an answer. Greedy decoding
/// gives the same nothing for the same request, so the request is repeated once with the user's
/// request restated; the empty turn stays in the transcript but not in the conversation.
#[test]
fn an_empty_reply_is_asked_again_once_with_the_request_restated() {
    let (r, files) = run(vec![LS.into(), "".into(), "notes.txt and todo.txt".into()]);
    assert_eq!(r.transcript.end, EndReason::Answered);
    assert_eq!(
        r.transcript.answer.as_deref(),
        Some("notes.txt and todo.txt")
    );
    assert_eq!(files.runs("ls"), 1);
    assert_eq!(r.transcript.turns.len(), 3);
    assert_eq!(r.transcript.turns[1].raw, "");
    assert_eq!(
        retries(&r.events),
        ["the reply was empty: asked again, with the request restated"]
    );
    let retry = r.requests[2].messages.last().unwrap();
    assert_eq!(retry.role, Role::User);
    assert!(
        retry.content.starts_with(
            "Your last reply was empty. Answer the user's request from the tool results above"
        ) && retry
            .content
            .contains("\"List the files, then read the first one.\""),
        "{}",
        retry.content
    );
    assert_eq!(
        r.transcript.turns[2].nudge.as_deref(),
        Some(retry.content.as_str())
    );
    // The empty reply did not join the conversation, and the retry message is not kept either.
    assert_eq!(
        r.requests[2].messages.len(),
        r.requests[1].messages.len() + 1
    );
    assert!(
        r.transcript
            .messages
            .iter()
            .all(|m| m.role != Role::Assistant
                || !m.content.is_empty()
                || !m.tool_calls.is_empty())
    );
    // A reply of no letter or digit says nothing either (a Ruby gem, session 38: `.` stood as
    // the answer).
    let (r, _) = run(vec![LS.into(), ".\n".into(), "notes.txt".into()]);
    assert_eq!(
        (r.transcript.end, r.transcript.answer.as_deref()),
        (EndReason::Answered, Some("notes.txt"))
    );
    // Only once a run: the second empty reply ends it.
    let (r, _) = run(vec![LS.into(), "".into(), " ".into(), "unused".into()]);
    assert_eq!(r.transcript.end, EndReason::EmptyOutput);
    assert_eq!(r.transcript.turns.len(), 3);
    // An empty first turn is asked again without mention of tool results.
    let (r, _) = run(vec!["".into(), "done".into()]);
    assert_eq!(r.transcript.end, EndReason::Answered);
    assert!(
        r.requests[1]
            .messages
            .last()
            .unwrap()
            .content
            .contains("If you need something first, call a tool.")
    );
}

/// Found with `toolmend eval tasks` (Qwen2.5-Coder-0.5B): the model's "answer" was toolmend's
/// own message echoed back ("You sent exactly the same `edit` call again …", "2 turns left.").
/// Such a reply is asked again once, like an empty one; an echo of a tool's output is an answer.
#[test]
fn a_reply_echoing_a_message_of_toolmends_is_asked_again_once() {
    let rm = r#"{"name": "rm", "arguments": {"path": "notes.txt"}}"#;
    let (r, _) = run(vec![
        rm.into(),
        "`rm` was refused: read-only task".into(),
        "I may not delete notes.txt.".into(),
    ]);
    assert_eq!(r.transcript.end, EndReason::Answered);
    assert_eq!(
        r.transcript.answer.as_deref(),
        Some("I may not delete notes.txt.")
    );
    assert!(
        retries(&r.events)
            .last()
            .unwrap()
            .starts_with("the reply only repeated a message toolmend sent")
    );
    let retry = r.requests[2].messages.last().unwrap();
    assert!(
        retry
            .content
            .starts_with("Your last reply only repeated a message sent to you")
            && retry
                .content
                .contains("\"List the files, then read the first one.\""),
        "{}",
        retry.content
    );
    // Once a run: a second echo ends the run without an answer (it is none).
    let (r, _) = run(vec![
        rm.into(),
        "`rm` was refused".into(),
        "`rm` was refused: read-only task".into(),
    ]);
    assert_eq!(r.transcript.end, EndReason::Echoed);
    assert_eq!(r.transcript.answer, None);
    assert_eq!(r.transcript.turns.len(), 3);
    // Once the run has changed something, the request restated says what was done: an answer
    // (Qwen2.5-Coder-0.5B, having set "debug" in config.json: `Set "debug" to true in
    // config.json.`).
    let touch = r#"{"name": "touch", "arguments": {"path": "notes.txt"}}"#;
    let request = "List the files, then read the first one.";
    let (r, _) = run(vec![touch.into(), request.into(), request.into()]);
    assert_eq!(r.transcript.end, EndReason::Answered);
    assert_eq!(r.transcript.answer.as_deref(), Some(request));
    // A change the policy refused is no change made: the request restated says nothing done.
    let (r, _) = run(vec![rm.into(), request.into(), request.into()]);
    assert_eq!(r.transcript.end, EndReason::Echoed);
    // Not a message of toolmend's echoed.
    let (r, _) = run(vec![
        rm.into(),
        touch.into(),
        "`rm` was refused".into(),
        "`rm` was refused: read-only task".into(),
    ]);
    assert_eq!(r.transcript.end, EndReason::Echoed);
    // So does an echo on the last turn, where there is no turn left to ask again in.
    let options = AgentOptions {
        max_turns: 2,
        ..AgentOptions::default()
    };
    let r = run_with(
        vec![LS.into(), "List the files, then read the first one.".into()],
        Arc::new(Files::default()),
        options,
    );
    assert_eq!(r.transcript.end, EndReason::Echoed);
    assert_eq!(r.transcript.answer, None);
    // A piece from the middle of a message (a not-found message's file list) can be an answer.
    let (r, _) = run(vec![rm.into(), "refused: read-only task".into()]);
    assert_eq!(r.transcript.turns.len(), 2);
    assert_eq!(
        r.transcript.answer.as_deref(),
        Some("refused: read-only task")
    );
    // The note before a repeated call's result is toolmend's; the result itself is the tool's.
    let (r, _) = run(vec![
        LS.into(),
        LS.into(),
        "(You already called `ls` with exactly these arguments".into(),
        "notes.txt".into(),
    ]);
    assert_eq!(r.transcript.answer.as_deref(), Some("notes.txt"));
    let (r, _) = run(vec![LS.into(), LS.into(), "notes.txt (9 bytes)".into()]);
    assert_eq!(r.transcript.turns.len(), 3);
    assert_eq!(r.transcript.end, EndReason::Answered);
    // The nudge echoed back (when one is given two turns before the end).
    let options = AgentOptions {
        max_turns: 3,
        nudge_turns: 2,
        ..AgentOptions::default()
    };
    let r = run_with(
        vec![LS.into(), "2 turns left.".into(), "notes.txt".into()],
        Arc::new(Files::default()),
        options,
    );
    assert_eq!(r.transcript.answer.as_deref(), Some("notes.txt"));
    // The user's request repeated (release_day: "According to the meeting notes, to which day
    // does release 0.2 move?" as the answer), or a piece of it; the request and more is an answer.
    let (r, _) = run(vec![
        "List the files, then read the first one.".into(),
        "notes.txt".into(),
    ]);
    assert_eq!(r.transcript.answer.as_deref(), Some("notes.txt"));
    assert!(
        r.requests[1]
            .messages
            .last()
            .unwrap()
            .content
            .contains("call a tool if you need something first"),
        "no tool results yet"
    );
    let (r, _) = run(vec![
        "List the files, then read the first one. notes.txt first.".into(),
    ]);
    assert_eq!(r.transcript.turns.len(), 1);
}

#[test]
fn native_calls_reach_the_toolbox_with_text_arguments_untouched() {
    let (r, files) = run(vec![
        ScriptedTurn::native("", "read", Value::String(r#"{"path": "notes.txt"}"#.into())),
        "buy milk".into(),
    ]);
    let call = &r.transcript.turns[0].calls[0];
    assert!(call.native);
    assert_eq!(call.args, Value::String(r#"{"path": "notes.txt"}"#.into()));
    assert!(call.result.is_ok());
    assert_eq!(files.runs("read"), 1);
    // The assistant message keeps the native call for the next request.
    let assistant = &r.requests[1].messages[1];
    assert_eq!(assistant.role, Role::Assistant);
    assert_eq!(assistant.tool_calls.len(), 1);
}

#[test]
fn the_event_stream_serialises_as_tagged_json_lines() {
    let (r, _) = run(vec![LS.into(), "Two files.".into()]);
    let lines: Vec<Value> = r
        .events
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    let types: Vec<&str> = lines.iter().map(|v| v["type"].as_str().unwrap()).collect();
    assert!(types.contains(&"ToolStart") && types.contains(&"ToolEnd"));
    assert_eq!(*types.last().unwrap(), "Done");
    let end = lines.iter().find(|v| v["type"] == "ToolEnd").unwrap();
    assert_eq!(end["result"]["output"], "notes.txt\ntodo.md");
    assert!(end["duration_ms"].as_f64().is_some());
    assert_eq!(lines.last().unwrap()["reason"], "answered");
    assert_eq!(lines.last().unwrap()["stats"]["calls"], 1);
}

#[test]
fn a_native_call_also_written_in_the_text_runs_once() {
    let (r, files) = run(vec![
        ScriptedTurn::native(LS, "ls", json!({"path": "."})),
        "Two files.".into(),
    ]);
    assert_eq!(r.transcript.turns[0].calls.len(), 1);
    assert_eq!(files.runs("ls"), 1);
}

#[test]
fn a_repeat_after_a_change_runs_again() {
    let touch = r#"{"name": "touch", "arguments": {"path": "notes.txt"}}"#;
    let (r, files) = run(vec![READ.into(), touch.into(), READ.into(), "ok".into()]);
    assert_eq!(
        files.runs("read"),
        2,
        "the file may have changed: read again"
    );
    assert!(!r.transcript.turns[2].calls[0].result.cached);
}

#[test]
fn a_successful_call_repeated_again_and_again_is_stopped() {
    let (r, files) = run(vec![
        LS.into(),
        LS.into(),
        LS.into(),
        LS.into(),
        "never".into(),
    ]);
    let t = &r.transcript;
    assert_eq!(files.runs("ls"), 1);
    assert_eq!(t.end, EndReason::RepeatedFailure);
    assert_eq!(t.turns.len(), 4, "stopped before the budget of 8");
    let firm = &t.turns[2].calls[0].feedback;
    assert!(firm.starts_with("Stop calling `ls`"), "{firm}");
    assert!(
        firm.contains(
            r#"Answer the user's request "List the files, then read the first one." from it now"#
        ),
        "{firm}"
    );
    assert_eq!(retries(&r.events).len(), 1);
    // After the firm message the turn offers no tools; a call written anyway still counts.
    assert!(t.turns[3].answer_only);
    assert!(r.requests[3].tools.is_empty());
    assert_eq!(r.requests[3].options.grammar, GrammarMode::Answer);
}

/// Found with the tally set (session 31): asked "Which Go version does the module require?",
/// Qwen2.5-Coder-0.5B sent its search a fourth time and, beside it in the same turn, the read
/// of go.mod — the look that answers. The repeat ended the run and the read never ran. A turn
/// with a call not made before is no loop: the new call runs and the run goes on.
#[test]
fn a_new_call_beside_a_fourth_repeat_runs_and_the_run_goes_on() {
    let (r, files) = run(vec![
        LS.into(),
        LS.into(),
        LS.into(),
        format!("{LS}\n{READ}").into(),
        "notes.txt holds the notes.".into(),
    ]);
    let t = &r.transcript;
    assert_eq!(t.end, EndReason::Answered, "{:?}", t.end);
    assert_eq!(files.runs("read"), 1);
    assert_eq!(files.runs("ls"), 1);
    assert_eq!(t.answer.as_deref(), Some("notes.txt holds the notes."));
    // Without the new call, the fourth repeat still ends the run (see above).
    let (r, _) = run(vec![
        LS.into(),
        LS.into(),
        LS.into(),
        format!("{LS}\n{LS}").into(),
        "never".into(),
    ]);
    assert_eq!(r.transcript.end, EndReason::RepeatedFailure);
}

/// Found with `toolmend eval tasks` (config_version, Qwen2.5-Coder-0.5B): the model read
/// config.json and then asked for it three more times, the user's request restated each time,
/// until the run ended without an answer. After the third request for a result it has, the
/// next turn offers no tools and asks for the answer: without tools the chat template drops
/// its tool-calling frame.
#[test]
fn a_model_stuck_repeating_a_call_gets_a_turn_without_tools() {
    let (r, files) = run(vec![
        LS.into(),
        LS.into(),
        LS.into(),
        "notes.txt and todo.md".into(),
    ]);
    let t = &r.transcript;
    assert_eq!(files.runs("ls"), 1);
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(t.answer.as_deref(), Some("notes.txt and todo.md"));
    let offered: Vec<usize> = r.requests.iter().map(|q| q.tools.len()).collect();
    assert_eq!(offered, [5, 5, 5, 0]);
    let ask = r.requests[3].messages.last().unwrap();
    assert_eq!(ask.role, Role::User);
    assert!(
        ask.content.starts_with(
            r#"You have the tool results you asked for, above. Answer the user's request "List the files, then read the first one." now"#
        ),
        "{}",
        ask.content
    );
    assert_eq!(t.turns[3].nudge.as_deref(), Some(ask.content.as_str()));
    // The turn after that offers the tools again.
    let (r, _) = run(vec![
        LS.into(),
        LS.into(),
        LS.into(),
        READ.into(),
        "buy milk".into(),
    ]);
    let offered: Vec<usize> = r.requests.iter().map(|q| q.tools.len()).collect();
    assert_eq!(offered, [5, 5, 5, 0, 5]);
    assert_eq!(r.transcript.answer.as_deref(), Some("buy milk"));
}

#[test]
fn a_repeated_call_that_changes_things_runs_again() {
    // Regression: the second identical `touch` was answered from the first one's result.
    let touch = r#"{"name": "touch", "arguments": {"path": "notes.txt"}}"#;
    let (r, files) = run(vec![touch.into(), touch.into(), "done".into()]);
    assert_eq!(files.runs("touch"), 2);
    let second = &r.transcript.turns[1].calls[0];
    assert!(!second.result.cached, "{:?}", second.result);
    assert_eq!(second.result.attempts, 1);
}

#[test]
fn a_prompt_whose_run_fails_is_rolled_back_so_the_next_prompt_works() {
    // Regression (`toolmend chat`): a prompt that overflowed the context stayed in the history,
    // so every later prompt overflowed too until `/reset`.
    let backend = ScriptedBackend::new(vec![
        ScriptedTurn::from(LS),
        ScriptedTurn::failing("", "the prompt has 1622 tokens but the context holds 1536"),
        ScriptedTurn::from("Hi!"),
    ]);
    let log = backend.log();
    let mut agent = Agent::new(
        backend,
        ArcBox(Arc::new(Files::default())),
        AgentOptions::default(),
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let t = rt.block_on(agent.run("a very long prompt", &mut |_| {}));
    assert_eq!(t.end, EndReason::BackendError);
    assert!(agent.history().is_empty(), "{:?}", agent.history());
    let t = rt.block_on(agent.run("Say hi", &mut |_| {}));
    assert_eq!(t.end, EndReason::Answered);
    let last = log.requests().pop().unwrap();
    assert_eq!(last.messages.len(), 1, "{:?}", last.messages);
    assert_eq!(last.messages[0].content, "Say hi");
}

#[test]
fn a_strict_grammar_binds_the_first_turn_only() {
    // Regression (`run --grammar strict`): every turn was forced to be a call, so after a result
    // the model could never answer and the run ended in repeated calls.
    let mut options = AgentOptions::default();
    options.generate.grammar = toolmend::backend::GrammarMode::Strict;
    let r = run_with(
        vec![LS.into(), "The files are notes.txt and todo.txt.".into()],
        Arc::new(Files::default()),
        options,
    );
    assert_eq!(r.transcript.end, EndReason::Answered);
    let modes: Vec<_> = r.requests.iter().map(|q| q.options.grammar).collect();
    use toolmend::backend::GrammarMode::{Lazy, Strict};
    assert_eq!(modes, [Strict, Lazy]);
}

#[test]
fn a_call_cut_off_by_the_token_limit_is_never_run() {
    let text = "<tool_call>\n{\"name\": \"ls\", \"arguments\": {\"path\": \"sr";
    let (r, files) = run(vec![
        ScriptedTurn {
            text: text.into(),
            max_chunks: Some(1000),
            ..ScriptedTurn::default()
        },
        "Done.".into(),
    ]);
    // Regression: the rejected call went to the toolbox with the arguments that had arrived
    // (`{"path": "sr"}`), so a tool whose arguments happened to validate ran half-written.
    assert_eq!(files.runs("ls"), 0, "a half-written call ran");
    let call = &r.transcript.turns[0].calls[0];
    assert_eq!(call.result.failure.as_ref().unwrap().kind, "cut_off");
    assert!(call.feedback.contains("cut off"), "{}", call.feedback);
    assert_eq!(r.transcript.end, EndReason::Answered);
}

#[test]
fn a_call_stuck_repeating_a_line_is_stopped_and_not_run() {
    let head = "<tool_call>\n{\"name\": \"touch\", \"arguments\": {\"path\": \"CHANGELOG.md\", \"text\": \"## 1.5.0\\n";
    let text = format!(
        "{head}{}\"}}}}\n</tool_call>",
        "- update: add README.md\\n".repeat(40)
    );
    let (r, files) = run(vec![text.clone().into(), "Done.".into()]);
    assert_eq!(files.runs("touch"), 0, "a call stuck in a loop ran");
    let turn = &r.transcript.turns[0];
    // Stopped soon after the fifth copy, not at the end of the script.
    assert!(turn.raw.len() < head.len() + 7 * 25, "{}", turn.raw.len());
    let looped = turn.looped.as_ref().expect("the loop is recorded");
    assert_eq!(looped.shown(), "- update: add README.md");
    let call = &turn.calls[0];
    assert_eq!(call.result.failure.as_ref().unwrap().kind, "cut_off");
    assert!(
        call.feedback.contains("the same text 5 times in a row"),
        "{}",
        call.feedback
    );
    assert!(r.events.iter().any(|e| matches!(
        e,
        AgentEvent::Looped { unit, repeats: 5 } if unit == "- update: add README.md"
    )));
    // The model is shown its call as far as the first copy, not the repetition.
    let shown = serde_json::to_string(&r.requests[1].messages).unwrap();
    assert_eq!(shown.matches("update: add README.md").count(), 1, "{shown}");
    assert_eq!(r.transcript.end, EndReason::Answered);
}

#[test]
fn an_answer_stuck_repeating_a_sentence_ends_after_its_first_copy() {
    let answer = format!(
        "The first file is notes.txt.{}",
        " I will read it.".repeat(30)
    );
    let (r, _) = run(vec![LS.into(), answer.into()]);
    assert_eq!(r.transcript.end, EndReason::Answered);
    assert_eq!(
        r.transcript.answer.as_deref(),
        Some("The first file is notes.txt. I will read it.")
    );
    let last = r.transcript.messages.last().unwrap();
    assert_eq!(last.content, "The first file is notes.txt. I will read it.");
    assert_eq!(r.transcript.turns[1].stop, Some(StopReason::Stopped));
}
