//! The agent keeps its requests inside the model's context window: a tool result too long for
//! what is left of the window is cut (whole lines, with a note saying how much is shown), earlier
//! results are removed oldest first, and the next turn runs instead of failing with
//! `prompt_too_long`. Driven by the scripted backend with a context window (its tokens are
//! word-like pieces) and the real built-in `read` over a temporary folder.

use std::path::Path;

use serde_json::json;
use toolmend::agent::fit::{REMOVED, reply_room};
use toolmend::agent::{Agent, AgentEvent, AgentOptions, DispatchToolbox, EndReason, Transcript};
use toolmend::backend::scripted::{ScriptedBackend, ScriptedTurn};
use toolmend::backend::{Backend, Request, Role};

const CONTEXT: u32 = 1024;
const LONG_LINES: usize = 400;

fn folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let long: String = (1..=LONG_LINES)
        .map(|i| format!("entry {i} of the long file\n"))
        .collect();
    std::fs::write(dir.path().join("long.txt"), long).unwrap();
    let medium: String = (1..=60)
        .map(|i| format!("row {i} of the medium file\n"))
        .collect();
    std::fs::write(dir.path().join("medium.txt"), medium).unwrap();
    std::fs::write(dir.path().join("short.txt"), "just one line\n").unwrap();
    dir
}

/// Writes each (file, what) of `files` into `dir`: `n` lines, `line {i} of the {what} file`.
fn write_lines(dir: &tempfile::TempDir, files: &[(&str, &str)], n: usize) {
    for (name, what) in files {
        let text: String = (1..=n)
            .map(|i| format!("line {i} of the {what} file\n"))
            .collect();
        std::fs::write(dir.path().join(name), text).unwrap();
    }
}

fn read(path: &str) -> ScriptedTurn {
    json!({"name": "read", "arguments": {"path": path}})
        .to_string()
        .into()
}

struct Session {
    agent: Agent<ScriptedBackend, DispatchToolbox>,
    log: toolmend::backend::scripted::RequestLog,
    rt: tokio::runtime::Runtime,
}

impl Session {
    fn new(root: &Path, turns: Vec<ScriptedTurn>, context: Option<u32>) -> Self {
        let mut backend = ScriptedBackend::new(turns);
        if let Some(c) = context {
            backend = backend.with_context(c);
        }
        let log = backend.log();
        let tools = DispatchToolbox::builtin(root).unwrap();
        Self {
            agent: Agent::new(backend, tools, AgentOptions::default()),
            log,
            rt: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap(),
        }
    }

    fn run(&mut self, prompt: &str) -> (Transcript, Vec<AgentEvent>) {
        let mut events = Vec::new();
        let t = self
            .rt
            .block_on(self.agent.run(prompt, &mut |e| events.push(e.clone())));
        (t, events)
    }

    /// Tokens of every request the backend received, as it counts them.
    fn request_tokens(&self) -> Vec<u32> {
        self.log
            .requests()
            .iter()
            .map(|r| self.agent.backend().prompt_tokens(r).unwrap())
            .collect()
    }
}

fn fits(events: &[AgentEvent]) -> Vec<(Vec<String>, Vec<String>, u32, u32)> {
    events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ContextFit {
                cut,
                removed,
                tokens,
                context,
            } => Some((cut.clone(), removed.clone(), *tokens, *context)),
            _ => None,
        })
        .collect()
}

fn tool_messages(request: &Request) -> Vec<&str> {
    request
        .messages
        .iter()
        .filter(|m| m.role == Role::Tool)
        .map(|m| m.content.as_str())
        .collect()
}

/// The most a request may take: the window less the room kept for the reply.
fn limit() -> u32 {
    CONTEXT - reply_room(CONTEXT, AgentOptions::default().generate.max_tokens)
}

#[test]
fn a_result_too_long_for_the_window_is_cut_and_the_next_turn_runs() {
    let dir = folder();
    let mut s = Session::new(
        dir.path(),
        vec![read("long.txt"), "The file lists entries.".into()],
        Some(CONTEXT),
    );
    let (t, events) = s.run("What is in long.txt?");
    assert_eq!(t.end, EndReason::Answered, "{:?}", t.error);

    // The person sees the whole result; the model sees what fits, and why.
    let whole = events
        .iter()
        .find_map(|e| match e {
            AgentEvent::ToolEnd { result, .. } => Some(result.output.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(whole.lines().count(), LONG_LINES);
    let call = &t.turns[0].calls[0];
    let fit = fits(&events);
    assert_eq!(fit.len(), 1);
    assert_eq!(fit[0].0, vec![call.id.clone()]);
    assert!(fit[0].1.is_empty());
    assert_eq!(fit[0].3, CONTEXT);

    let requests = s.log.requests();
    assert_eq!(requests.len(), 2);
    let fed = tool_messages(&requests[1]);
    assert_eq!(fed.len(), 1);
    assert_eq!(
        fed[0], call.feedback,
        "the transcript keeps what was fed back"
    );
    let (shown, note) = fed[0].rsplit_once('\n').unwrap();
    assert!(
        note.starts_with("[cut to fit the model's context window: ")
            && note.contains(" of 400 lines of this result are shown"),
        "{note}"
    );
    // Whole numbered lines from the first on, cut between lines.
    assert!(
        shown.starts_with("  1\tentry 1 of the long file\n"),
        "{shown}"
    );
    let last = shown.lines().last().unwrap();
    let n: usize = last.split('\t').next().unwrap().trim().parse().unwrap();
    assert!(last.ends_with(&format!("entry {n} of the long file")));
    assert_eq!(shown.lines().count(), n);
    assert!(note.contains(&format!("{n} of 400 lines")), "{note}");

    // The request fits with room for the reply, and not by much less (the cut is the largest
    // that fits: a few lines more would not).
    let tokens = s.request_tokens();
    assert_eq!(tokens[1], fit[0].2);
    assert!(tokens[1] <= limit(), "{tokens:?}");
    assert!(
        tokens[1] + 30 > limit(),
        "cut far more than needed: {tokens:?}"
    );
}

#[test]
fn earlier_results_are_removed_oldest_first_before_the_latest_is_cut() {
    let dir = folder();
    let mut s = Session::new(
        dir.path(),
        vec![
            read("short.txt"),
            read("medium.txt"),
            "Both read.".into(),
            read("long.txt"),
            "Read it.".into(),
        ],
        Some(CONTEXT),
    );
    let (first, events) = s.run("Read short.txt, then medium.txt.");
    assert_eq!(first.end, EndReason::Answered);
    assert!(fits(&events).is_empty(), "two small results fit whole");

    let (second, events) = s.run("Now read long.txt.");
    assert_eq!(second.end, EndReason::Answered, "{:?}", second.error);
    let fit = fits(&events);
    assert_eq!(fit.len(), 1);
    let (cut, removed, tokens, _) = &fit[0];
    // The earlier result longer than the note went (one shorter than it would free nothing);
    // the new one was still too long and is cut.
    assert_eq!(*removed, vec![first.turns[1].calls[0].id.clone()]);
    assert_eq!(*cut, vec![second.turns[0].calls[0].id.clone()]);
    assert!(*tokens <= limit());

    let last = s.log.requests().pop().unwrap();
    let fed = tool_messages(&last);
    assert_eq!(fed.len(), 3);
    assert_eq!(fed[0], "1\tjust one line");
    assert_eq!(fed[1], REMOVED);
    assert!(
        fed[2].contains("lines of this result are shown"),
        "{}",
        fed[2]
    );
    // The calls themselves stay in the conversation, answered by the note.
    let calls: usize = last.messages.iter().map(|m| m.tool_calls.len()).sum();
    assert_eq!(calls, 3);
}

#[test]
fn only_as_many_earlier_results_go_as_needed() {
    let dir = folder();
    let mut s = Session::new(
        dir.path(),
        vec![
            read("medium.txt"),
            read("short.txt"),
            "Read.".into(),
            read("medium.txt"),
            "Read again.".into(),
        ],
        Some(CONTEXT),
    );
    s.run("Read medium.txt and short.txt.");
    let (t, events) = s.run("Read medium.txt once more.");
    assert_eq!(t.end, EndReason::Answered, "{:?}", t.error);
    let fit = fits(&events);
    assert_eq!(fit.len(), 1, "{events:?}");
    // The oldest (medium) went; the short one and the new whole result stay.
    assert_eq!(fit[0].1.len(), 1);
    assert!(fit[0].0.is_empty());
    let last = s.log.requests().pop().unwrap();
    let fed = tool_messages(&last);
    assert_eq!(fed[0], REMOVED);
    assert!(fed[1].contains("just one line"));
    assert!(fed[2].ends_with("row 60 of the medium file"), "{}", fed[2]);
}

/// Found with a Kotlin/Gradle application (session 40): a search repeated four times, its long
/// result shown again each time, pushed the one result that answered the question out of the
/// window, oldest first. A result a later message repeats whole goes before any other.
#[test]
fn a_result_shown_again_later_is_removed_before_an_older_one() {
    let dir = folder();
    write_lines(
        &dir,
        &[("other.txt", "other"), ("short2.txt", "second")],
        13,
    );
    let mut s = Session::new(
        dir.path(),
        vec![
            read("other.txt"),
            read("short2.txt"),
            read("short2.txt"),
            read("medium.txt"),
            "Done.".into(),
        ],
        Some(CONTEXT),
    );
    let (t, events) = s.run("Read other.txt, short2.txt and medium.txt.");
    assert_eq!(t.end, EndReason::Answered, "{:?}", t.error);
    let fit = fits(&events);
    assert!(!fit.is_empty(), "{events:?}");
    // The first read of short2.txt went first: its repeat still shows it.
    assert_eq!(fit[0].1[0], t.turns[1].calls[0].id, "{fit:?}");
    let last = s.log.requests().pop().unwrap();
    let fed = tool_messages(&last);
    assert!(
        fed[0].ends_with("line 13 of the other file"),
        "the older result that nothing repeats stays: {fed:?}"
    );
    assert_eq!(fed[1], REMOVED);
}

/// The result of the look offered for the request — the read of the file a question names —
/// is removed last of the earlier ones: it is what the model was told to answer from.
#[test]
fn the_result_of_the_look_offered_is_removed_last() {
    const N_LINES: usize = 30;
    let dir = folder();
    write_lines(
        &dir,
        &[("notes.txt", "notes"), ("other.txt", "other")],
        N_LINES,
    );
    let mut s = Session::new(
        dir.path(),
        vec![
            read("notes.txt"),
            read("other.txt"),
            read("medium.txt"),
            "Done.".into(),
        ],
        Some(CONTEXT),
    );
    let (t, events) = s.run("What does notes.txt say?");
    assert_eq!(t.end, EndReason::Answered, "{:?}", t.error);
    let fit = fits(&events);
    assert_eq!(fit.len(), 1, "{fit:?}");
    assert_eq!(fit[0].1, vec![t.turns[1].calls[0].id.clone()], "{fit:?}");
    let last = s.log.requests().pop().unwrap();
    let fed = tool_messages(&last);
    assert!(
        fed[0].ends_with(&format!("line {N_LINES} of the notes file")),
        "{fed:?}"
    );
    assert_eq!(fed[1], REMOVED);
}

#[test]
fn a_repeat_of_a_removed_call_runs_again() {
    let dir = folder();
    let mut s = Session::new(
        dir.path(),
        vec![
            read("medium.txt"),
            read("long.txt"),
            read("medium.txt"),
            "Done.".into(),
        ],
        Some(CONTEXT),
    );
    let (t, events) = s.run("Read medium.txt and long.txt, then medium.txt again.");
    assert_eq!(t.end, EndReason::Answered, "{:?}", t.error);
    assert_eq!(fits(&events)[0].1, vec![t.turns[0].calls[0].id.clone()]);
    // Not answered from the earlier result the model no longer has: run again, fed whole.
    let again = &t.turns[2].calls[0];
    assert!(
        !again.feedback.starts_with("(You already called"),
        "{again:?}"
    );
    assert!(again.feedback.starts_with(" 1\trow 1 of the medium file"));
    assert!(again.feedback.ends_with("row 60 of the medium file"));
}

#[test]
fn without_a_known_window_nothing_is_cut() {
    let dir = folder();
    let mut s = Session::new(dir.path(), vec![read("long.txt"), "Read.".into()], None);
    let (t, events) = s.run("Read long.txt.");
    assert_eq!(t.end, EndReason::Answered);
    assert!(fits(&events).is_empty());
    assert_eq!(t.turns[0].calls[0].feedback.lines().count(), LONG_LINES);
}

#[test]
fn a_prompt_that_cannot_fit_still_ends_as_too_long() {
    let dir = folder();
    let prompt = "word ".repeat(2000);
    let mut s = Session::new(dir.path(), vec!["never".into()], Some(CONTEXT));
    let (t, events) = s.run(&prompt);
    assert_eq!(t.end, EndReason::PromptTooLong);
    assert!(fits(&events).is_empty());
    // Rolled back: a chat can go on with a shorter prompt.
    let (t, _) = s.run("Hello?");
    assert_eq!(t.end, EndReason::Answered);
}

#[test]
fn the_fit_event_serialises_with_its_fields() {
    let e = AgentEvent::ContextFit {
        cut: vec!["call_1".into()],
        removed: vec![],
        tokens: 700,
        context: 1024,
    };
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({"type": "ContextFit", "cut": ["call_1"], "removed": [], "tokens": 700, "context": 1024})
    );
}
