//! Small models copy the example calls they are shown. Found with Qwen2.5-Coder-0.5B on
//! `examples/workspace`: after a corrective message that ended with `edit`'s example call, the
//! model sent `edit {"path": "toolmend-example.txt", "old_text": "hello", …}` again and again, and
//! after a decode error showing `write`'s example it created `toolmend-example.txt` in the user's
//! folder. A call of a tool that changes things whose arguments hold every value of its example is
//! not run, and a tool refusing one value gets no unrelated example call appended. Driven by the
//! scripted backend and the real built-in tools over a temporary folder.

use serde_json::json;
use toolmend::agent::{Agent, AgentOptions, DispatchToolbox, EndReason, Toolbox, Transcript};
use toolmend::backend::scripted::{ScriptedBackend, ScriptedTurn};

fn folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("todo.txt"), "TODO: renew the passport\n").unwrap();
    std::fs::write(dir.path().join("README.md"), "# Notes\n").unwrap();
    dir
}

/// Writes `files` (relative path, content) below `dir`, creating their folders.
fn write_files(dir: &tempfile::TempDir, files: &[(&str, &str)]) {
    for (path, content) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
}

/// The nudge of the answer turn after `path` was read three times for `prompt` (the third
/// repeat gives the next turn, offering no tools, to the answer).
fn nudge_after_reading(dir: &tempfile::TempDir, path: &str, prompt: &str) -> String {
    let read = || call("read", json!({ "path": path }));
    // The answer names a file: a question asking which file would be asked again otherwise.
    let (t, _) = run_prompt(
        dir,
        prompt,
        vec![read(), read(), read(), format!("answer: {path}").into()],
    );
    let last = t.turns.last().unwrap();
    assert!(last.answer_only, "{last:?}");
    last.nudge.clone().unwrap_or_default()
}

/// A folder with two notes, `notes/groceries.md` (23 bytes) and `notes/meeting.md`: the
/// `notes` runs ("How many notes are there?").
fn notes_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            ("notes/groceries.md", "# Groceries\n- oat milk\n"),
            ("notes/meeting.md", "# Meeting\n- Friday\n"),
        ],
    );
    dir
}

/// The lines a message to the model shows as bearing on the request (after "bear on the
/// request:"); empty when it shows none.
fn bearing_lines(message: &str) -> &str {
    message
        .split_once("bear on the request:\n")
        .map(|(_, lines)| lines)
        .unwrap_or_default()
}

fn call(name: &str, args: serde_json::Value) -> ScriptedTurn {
    json!({"name": name, "arguments": args}).to_string().into()
}

fn run(dir: &tempfile::TempDir, turns: Vec<ScriptedTurn>) -> Transcript {
    run_prompt(dir, "Add a line to todo.txt.", turns).0
}

/// Runs `prompt` over the built-in tools in `dir` with the scripted `turns`; the transcript and
/// the requests the backend saw.
fn run_prompt(
    dir: &tempfile::TempDir,
    prompt: &str,
    turns: Vec<ScriptedTurn>,
) -> (Transcript, Vec<toolmend::backend::Request>) {
    run_prompt_with(dir, prompt, turns, AgentOptions::default())
}

/// Runs `prompt` in `dir` with a made-up call first, then the call its message showed (`shown`),
/// then an answer; checks that the message did show it.
fn made_up_then_shown(
    dir: &tempfile::TempDir,
    prompt: &str,
    made_up: ScriptedTurn,
    shown: &str,
) -> Transcript {
    let (t, _) = run_prompt(dir, prompt, vec![made_up, shown.into(), "Done.".into()]);
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(feedback.contains(shown), "{feedback}");
    t
}

/// [`run_prompt`] with the loop's `options`.
fn run_prompt_with(
    dir: &tempfile::TempDir,
    prompt: &str,
    turns: Vec<ScriptedTurn>,
    options: AgentOptions,
) -> (Transcript, Vec<toolmend::backend::Request>) {
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    let backend = ScriptedBackend::new(turns);
    let log = backend.log();
    let mut agent = Agent::new(backend, tools, options);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let t = rt.block_on(agent.run(prompt, &mut |_| {}));
    (t, log.requests())
}

/// What the loop asked after the model answered `prompt` in `dir` without a call (`answer`),
/// the next turn answering `then`: the last message of the second request (the look it offers).
fn asked_after_answer(dir: &tempfile::TempDir, prompt: &str, answer: &str, then: &str) -> String {
    let (_, requests) = run_prompt(dir, prompt, vec![answer.into(), then.into()]);
    requests[1].messages.last().unwrap().content.clone()
}

/// The message asking for the answer after `look` was sent three times for `prompt` in `dir`
/// (the run's own note on a repeat, then its refusal), and the model said it did not know:
/// where the lines bearing on the request are shown.
fn asked_after_repeats(dir: &tempfile::TempDir, prompt: &str, look: ScriptedTurn) -> String {
    let (_, requests) = run_prompt(
        dir,
        prompt,
        vec![
            look.clone(),
            look.clone(),
            look,
            "I do not know.".into(),
            "Done.".into(),
        ],
    );
    requests[3].messages.last().unwrap().content.clone()
}

/// Asserts that an answer to `prompt` in `dir` given without a look is asked to look first,
/// with the search for `pattern` (case aside) across the folder.
fn assert_search_offered(dir: &tempfile::TempDir, prompt: &str, pattern: &str) {
    let asked = asked_after_answer(dir, prompt, "I do not know.", "Done.");
    let want =
        format!(r#"{{"name":"grep","arguments":{{"pattern":"{pattern}","ignore_case":true}}}}"#);
    assert!(asked.ends_with(&want), "{prompt}: {asked}");
}

/// An agent over `tools` with the scripted `turns` and default options, and a runtime to run
/// it on: for tests that run several prompts in one conversation or bring their own toolbox.
fn agent_over<T: Toolbox>(
    tools: T,
    turns: Vec<ScriptedTurn>,
) -> (Agent<ScriptedBackend, T>, tokio::runtime::Runtime) {
    let agent = Agent::new(ScriptedBackend::new(turns), tools, AgentOptions::default());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    (agent, rt)
}

/// The example call the built-in tools show for `name`, as arguments.
fn example(dir: &tempfile::TempDir, name: &str) -> serde_json::Value {
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    let ex: serde_json::Value = serde_json::from_str(&tools.example_call(name).unwrap()).unwrap();
    ex["arguments"].clone()
}

#[test]
fn a_copied_edit_example_is_not_run_and_never_shown_again() {
    let dir = folder();
    let mut copied = example(&dir, "edit");
    // As the model sent it: the example plus a field of its own.
    copied["replace_all"] = json!(false);
    let t = run(
        &dir,
        vec![
            call("edit", copied.clone()),
            call("edit", copied.clone()),
            call("edit", copied),
        ],
    );
    assert_eq!(t.end, EndReason::RepeatedFailure);
    let calls: Vec<_> = t.turns.iter().flat_map(|t| &t.calls).collect();
    assert_eq!(calls.len(), 3);
    let first = &calls[0];
    assert_eq!(
        first.result.failure.as_ref().unwrap().kind,
        "example_copied",
        "{first:?}"
    );
    assert!(
        first.feedback.contains("not run") && first.feedback.contains("the example call's"),
        "{}",
        first.feedback
    );
    // The firmer message does not show the example again.
    assert_eq!(
        calls[1].result.failure.as_ref().unwrap().kind,
        "repeated_failure"
    );
    assert!(
        !calls[1].feedback.contains("exactly this shape"),
        "{}",
        calls[1].feedback
    );
    assert!(!dir.path().join("toolmend-example.txt").exists());
}

#[test]
fn a_copied_write_example_creates_no_file_and_a_real_write_runs() {
    let dir = folder();
    let t = run(
        &dir,
        vec![
            call("write", example(&dir, "write")),
            call("read", json!({"path": "todo.txt"})),
            call(
                "write",
                json!({"path": "todo.txt", "content": "TODO: renew the passport\n- buy coffee\n"}),
            ),
            "Added.".into(),
        ],
    );
    assert_eq!(t.end, EndReason::Answered);
    assert!(!dir.path().join("toolmend-example.txt").exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
        "TODO: renew the passport\n- buy coffee\n"
    );
    assert_eq!(
        t.turns[0].calls[0].result.failure.as_ref().unwrap().kind,
        "example_copied"
    );
    assert!(t.turns[2].calls[0].result.is_ok());
}

#[test]
fn a_copied_example_of_a_read_only_tool_runs() {
    let dir = folder();
    let t = run(
        &dir,
        // The answer to "Add a line to todo.txt." that changed nothing is asked about once.
        vec![
            call("read", example(&dir, "read")),
            "Done.".into(),
            "Done.".into(),
        ],
    );
    assert_eq!(t.end, EndReason::Answered);
    assert!(
        t.turns[0].calls[0].result.is_ok(),
        "{:?}",
        t.turns[0].calls[0]
    );
}

#[test]
fn a_value_the_tool_refuses_gets_no_other_call_to_copy() {
    let dir = folder();
    let t = run(
        &dir,
        vec![
            call(
                "edit",
                json!({"path": "todo.txt", "old_text": "TODO", "new_text": "TODO"}),
            ),
            "Nothing to change.".into(),
        ],
    );
    let c = &t.turns[0].calls[0];
    assert_eq!(c.result.failure.as_ref().unwrap().kind, "invalid_args");
    assert!(c.feedback.contains("new_text"), "{}", c.feedback);
    assert!(
        !c.feedback.contains("A valid call looks like this") && !c.feedback.contains("hello"),
        "{}",
        c.feedback
    );
}

#[test]
fn the_firmer_message_for_a_refused_value_shows_no_example_either() {
    let dir = folder();
    let same = json!({"path": "todo.txt", "old_text": "absent", "new_text": "x"});
    let t = run(
        &dir,
        vec![
            call("edit", same.clone()),
            call("edit", same),
            "I could not.".into(),
        ],
    );
    let c = &t.turns[1].calls[0];
    assert_eq!(c.result.failure.as_ref().unwrap().kind, "repeated_failure");
    assert!(
        !c.feedback.contains("toolmend-example.txt") && !c.feedback.contains("exactly this shape"),
        "{}",
        c.feedback
    );
    assert!(c.feedback.contains("plain text"), "{}", c.feedback);
}

#[test]
fn a_call_the_user_refused_gets_no_example_call() {
    use toolmend::dispatch::{Approver, Dispatcher, Policy};
    let dir = folder();
    let tools = DispatchToolbox::new(Dispatcher::new(
        toolmend::builtin::registry(dir.path()).unwrap(),
        Policy {
            approve: Some(Approver::new(|_, _| false)),
            ..Policy::default()
        },
    ));
    let turns: Vec<ScriptedTurn> = vec![
        call("read", json!({"path": "todo.txt"})),
        call("write", json!({"path": "todo.txt", "content": "x"})),
        "I was not allowed to.".into(),
    ];
    let (mut agent, rt) = agent_over(tools, turns);
    let t = rt.block_on(agent.run("Clear todo.txt.", &mut |_| {}));
    let c = &t.turns[1].calls[0];
    assert_eq!(c.result.failure.as_ref().unwrap().kind, "denied");
    assert!(
        c.feedback.contains("the user did not allow this call"),
        "{}",
        c.feedback
    );
    assert!(!c.feedback.contains("toolmend-example"), "{}", c.feedback);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
        "TODO: renew the passport\n"
    );
}

/// Found with `toolmend eval tasks` (config_version, Qwen2.5-Coder-0.5B, strict grammar): asked
/// "Which version does config.json give?", the model read `/path/to/file.txt`, was shown read's
/// fixed example `README.md`, copied it and read the README. The example of a read-only tool is
/// now the file or folder the user's request names, when it exists (else the fixed one; `read`
/// in a folder without a README shows its first file).
#[test]
fn a_read_only_example_is_the_file_the_request_names() {
    let dir = folder();
    std::fs::create_dir(dir.path().join("notes")).unwrap();
    std::fs::write(dir.path().join("notes/week.md"), "Friday\n").unwrap();
    let run_prompt = |prompt: &str, turns: Vec<ScriptedTurn>| run_prompt(&dir, prompt, turns).0;
    let bad_read = || call("read", json!({"path": "/path/to/file.txt"}));
    let t = run_prompt(
        "Which TODO items in `todo.txt` are still open?",
        vec![bad_read(), "done".into()],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        feedback.ends_with(r#"{"name":"read","arguments":{"path":"todo.txt"}}"#),
        "{feedback}"
    );
    // An unknown tool's message shows one example, the grounded one (it showed read's fixed
    // example, and the grounded one after it): the look at the file the request names, or,
    // where the request spells out the change, that change (session 17).
    let t = run_prompt(
        "Add a line about coffee to the end of todo.txt.",
        vec![
            call("add_todo", json!({"todo": "buy coffee"})),
            "done".into(),
        ],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        feedback.contains(
            r#"Call one of them, for example: {"name":"read","arguments":{"path":"todo.txt"}}"#
        ) && !feedback.contains("README.md")
            && feedback.matches(r#"{"name":"read""#).count() == 1,
        "{feedback}"
    );
    let t = run_prompt(
        "Add the line \"- buy coffee\" at the end of todo.txt.",
        vec![
            call("add_todo", json!({"todo": "buy coffee"})),
            "done".into(),
        ],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        feedback.contains(
            r#"Call one of them, for example: {"name":"edit","arguments":{"path":"todo.txt","old_text":"TODO: renew the passport","new_text":"TODO: renew the passport\n- buy coffee"}}"#
        ) && feedback.matches(r#"{"name":"#).count() == 1,
        "{feedback}"
    );
    // A not-found message shows its own example (the folder's first file): the file the request
    // names takes its place, and no second example follows (mark_done: `read` of
    // `examples/workspace` got README.md in the message and todo.txt after it).
    let t = run_prompt(
        "In todo.txt, mark the plumber item as done.",
        vec![
            call("read", json!({"path": "examples/workspace"})),
            "done".into(),
        ],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        feedback.contains(r#"`.` contains: README.md, notes/, todo.txt. For example: {"name":"read","arguments":{"path":"todo.txt"}}"#)
            && feedback.matches(r#"{"name""#).count() == 1,
        "{feedback}"
    );
    // With a close name the message's own suggestion stays, alone.
    let t = run_prompt(
        "Read the notes.",
        vec![call("read", json!({"path": "todo.md"})), "done".into()],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        feedback.contains(r#"{"name": "read", "arguments": {"path": "todo.txt"}}"#)
            && feedback.matches(r#"{"name""#).count() == 1,
        "{feedback}"
    );
    // A path inside a folder, after punctuation; a folder for ls.
    let t = run_prompt(
        "What does notes/week.md say about the notes?",
        vec![bad_read(), call("ls", json!({"path": "/x"})), "done".into()],
    );
    assert!(
        t.turns[0].calls[0]
            .feedback
            .ends_with(r#"{"name":"read","arguments":{"path":"notes/week.md"}}"#),
        "{}",
        t.turns[0].calls[0].feedback
    );
    assert!(
        t.turns[1].calls[0]
            .feedback
            .ends_with(r#"{"name":"ls","arguments":{"path":"notes"}}"#),
        "{}",
        t.turns[1].calls[0].feedback
    );
    // Nothing named (a missing file, a path leading out): the fixed example.
    let t = run_prompt(
        "Summarise gone.txt and ../secret.txt for me.",
        vec![bad_read(), "done".into()],
    );
    assert!(
        t.turns[0].calls[0]
            .feedback
            .ends_with(r#"{"name":"read","arguments":{"path":"README.md"}}"#),
        "{}",
        t.turns[0].calls[0].feedback
    );
    // Without a README.md, read's example is a file that exists.
    std::fs::remove_file(dir.path().join("README.md")).unwrap();
    let t = run_prompt("Summarise this folder.", vec![bad_read(), "done".into()]);
    assert!(
        t.turns[0].calls[0]
            .feedback
            .ends_with(r#"{"name":"read","arguments":{"path":"todo.txt"}}"#),
        "{}",
        t.turns[0].calls[0].feedback
    );
}

/// Found with `toolmend eval tasks` (todo_open, --grammar strict): asked which TODO items in
/// todo.txt are open, Qwen2.5-Coder-0.5B sent `edit` of `/path/to/file` three times. The refusal
/// shows no `edit` example (it would be copied into the user's folder), and the model had no
/// call to copy. It now gets one that only reads what the request names. (A question no longer
/// offers `edit` at all, see below: the requests here ask for a change.)
#[test]
fn a_refused_change_offers_a_read_of_what_the_request_names() {
    let dir = folder();
    let run_prompt = |prompt: &str| {
        let turns = vec![
            call(
                "edit",
                json!({"path": "/path/to/file", "old_text": "old_text", "new_text": "new_text"}),
            ),
            "done".into(),
        ];
        run_prompt(&dir, prompt, turns).0
    };
    let t = run_prompt("Mark the first item in todo.txt as done.");
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        feedback.ends_with(
            r#"To look first at what the user's request names, call: {"name":"read","arguments":{"path":"todo.txt"}}"#
        ) && !feedback.contains("A valid call"),
        "{feedback}"
    );
    // "TODO item" names todo.txt by its stem.
    let t = run_prompt("Mark the first TODO item as done.");
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        feedback.ends_with(r#"{"name":"read","arguments":{"path":"todo.txt"}}"#),
        "{feedback}"
    );
    // A request naming nothing that exists: no such line (not even a folder's first file).
    std::fs::remove_file(dir.path().join("README.md")).unwrap();
    let t = run_prompt("Mark the first item as done.");
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(!feedback.contains("To look first"), "{feedback}");
}

/// Found with `toolmend eval tasks` (todo_open, config_version, eggs: Qwen2.5-Coder-0.5B without a
/// grammar): asked about a file by name, the model answered at once with steps for finding out
/// ("1. Read the `todo.txt` file…") and never called a tool. An answer written before any call,
/// when the request names something a read-only tool can read, is asked again once with that
/// call to make first.
#[test]
fn an_answer_without_looking_at_the_named_file_is_asked_again_once() {
    let dir = folder();
    let run_prompt = |prompt: &str, turns: Vec<ScriptedTurn>| run_prompt(&dir, prompt, turns);
    let (t, requests) = run_prompt(
        "Which TODO items in todo.txt are still open?",
        vec![
            "1. Open the `todo.txt` file in an editor.".into(),
            call("read", json!({"path": "todo.txt"})),
            "Renew the passport.".into(),
        ],
    );
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(t.answer.as_deref(), Some("Renew the passport."));
    let ask = requests[1].messages.last().unwrap();
    assert_eq!(
        ask.content,
        r#"You answered without looking at what the user's request names, so you cannot know what it holds. Call this first, then answer from its result: {"name":"read","arguments":{"path":"todo.txt"}}"#
    );
    assert!(
        !t.messages
            .iter()
            .any(|m| m.content.contains("in an editor")),
        "the unread answer does not join the conversation"
    );
    // Once a run: a second answer without looking stands.
    let (t, _) = run_prompt(
        "Which TODO items in todo.txt are still open?",
        vec!["Look in the file.".into(), "Look in the file.".into()],
    );
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(t.turns.len(), 2);
    // A request naming nothing a tool can read: the answer stands at once.
    let (t, _) = run_prompt("What is 2 + 2?", vec!["4".into()]);
    assert_eq!((t.end, t.turns.len()), (EndReason::Answered, 1));
    // After a call the model may answer without another.
    let (t, _) = run_prompt(
        "Which TODO items in todo.txt are still open?",
        vec![call("ls", json!({"path": "."})), "I could not tell.".into()],
    );
    assert_eq!((t.end, t.turns.len()), (EndReason::Answered, 2));
}

/// Found with `toolmend eval tasks` (release_day): asked "According to the meeting notes, to
/// which day does release 0.2 move?", Qwen2.5-Coder-0.5B answered without a call and was asked to
/// `ls` the folder `notes` first; it listed it, then looked for `notes.md` until the run ended. The
/// request names `notes/meeting.md` by its stem ("meeting"), and a read of that file, the deepest
/// path the request names, is the call to make first.
#[test]
fn an_answer_without_looking_is_offered_the_file_the_request_names_by_its_stem() {
    let dir = folder();
    std::fs::create_dir(dir.path().join("notes")).unwrap();
    std::fs::write(
        dir.path().join("notes/meeting.md"),
        "Release 0.2 moves to Friday.\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("notes/groceries.md"), "- 6 eggs\n").unwrap();
    let (t, requests) = run_prompt(
        &dir,
        "According to the meeting notes, to which day does release 0.2 move?",
        vec![
            "To find out, open the meeting notes.".into(),
            call("read", json!({"path": "notes/meeting.md"})),
            "Friday.".into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some("Friday."));
    assert!(
        requests[1].messages.last().unwrap().content.ends_with(
            r#"Call this first, then answer from its result: {"name":"read","arguments":{"path":"notes/meeting.md"}}"#
        ),
        "{}",
        requests[1].messages.last().unwrap().content
    );
    // "the grocery list" names notes/groceries.md; a word naming two files names neither, and
    // the look is the search a question's plain words get (session 29).
    std::fs::write(dir.path().join("groceries.txt"), "milk\n").unwrap();
    let (_, requests) = run_prompt(
        &dir,
        "How many eggs are on the grocery list?",
        vec!["Six.".into(), "Six.".into()],
    );
    assert!(
        requests[1]
            .messages
            .last()
            .unwrap()
            .content
            .ends_with(r#"{"name":"grep","arguments":{"pattern":"eggs","ignore_case":true}}"#),
        "nothing is named: {}",
        requests[1].messages.last().unwrap().content
    );
    std::fs::remove_file(dir.path().join("groceries.txt")).unwrap();
    let (_, requests) = run_prompt(
        &dir,
        "How many eggs are on the grocery list?",
        vec!["Six.".into(), "Six.".into()],
    );
    assert!(
        requests[1]
            .messages
            .last()
            .unwrap()
            .content
            .ends_with(r#"{"name":"read","arguments":{"path":"notes/groceries.md"}}"#),
        "{}",
        requests[1].messages.last().unwrap().content
    );
}

/// Found reviewing the session's change: the read example named `.env` for "the env file" (its
/// stem, leading dot aside, as `Sandbox::first_named` takes it), but the check that the example
/// is the request's own computed the stem of `.env` as empty and dropped it — two copies of
/// "a file's stem" that disagreed. One `tools::file_stem` now serves both.
#[test]
fn a_dot_file_named_by_its_stem_is_the_call_to_make_first() {
    let dir = folder();
    std::fs::write(dir.path().join(".env"), "PORT=8080\n").unwrap();
    let (_, requests) = run_prompt(
        &dir,
        "Which port does the env file set?",
        vec!["Port 80.".into(), "8080.".into()],
    );
    assert_eq!(
        requests.len(),
        2,
        "the answer written without looking is asked again"
    );
    let asked = &requests[1].messages.last().unwrap().content;
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":".env"}}"#),
        "{asked}"
    );
}

/// Found on the held-out project tasks (`examples/tasks-project.jsonl`): asked "In which file is
/// the function to_kelvin defined?", Qwen2.5-Coder-0.5B answered "in the <tools> XML tags"
/// without a look. The request names no file and no folder, but a word written as code — an
/// identifier, a flag, a quoted word — found in the folder is a search of the whole root; in a
/// named folder such a word goes before the plain ones (`--last` over `print`). Plain words
/// alone get a search of the root when the request says it is about the workspace ("in this
/// project": asked "What is the price of bread in this project?", the model answered "$1.50"
/// without a look, session 27) or asks a question without a word written as code (session 29).
#[test]
fn a_word_written_as_code_is_searched_for_before_answering() {
    let dir = folder();
    write_files(
        &dir,
        &[
            (
                "weatherlog/convert.py",
                "def to_kelvin(celsius):\n    return celsius + 273.15\n",
            ),
            ("weatherlog/js.js", "function toKelvin(c) {}\n"),
            (
                "src/shop.py",
                "PRICES = {\"apple\": 0.5, \"bread\": 2.25}\n\ndef price_of(item):\n    return PRICES[item]\n",
            ),
            (
                "weatherlog/cli.py",
                "show.add_argument(\"--last\", type=int, default=7)\nprint(rows)\n",
            ),
        ],
    );
    let cases = [
        (
            "In which file is the function to_kelvin defined?",
            r#"{"name":"grep","arguments":{"pattern":"to_kelvin","ignore_case":true}}"#,
        ),
        (
            "How many readings does `weatherlog show` print when --last is not given?",
            r#"{"name":"grep","arguments":{"pattern":"--last","path":"weatherlog","ignore_case":true}}"#,
        ),
        (
            "Where is \"celsius\" converted?",
            r#"{"name":"grep","arguments":{"pattern":"celsius","ignore_case":true}}"#,
        ),
        // camelCase is a name in code too (second held-out set, session 17: "Which file
        // defines the function isBroken?" answered without a look).
        (
            "Which file defines the function toKelvin?",
            r#"{"name":"grep","arguments":{"pattern":"tokelvin","ignore_case":true}}"#,
        ),
        // About the workspace: its plain words too, the one on the fewest lines.
        (
            "What is the price of bread in this project?",
            r#"{"name":"grep","arguments":{"pattern":"bread","ignore_case":true}}"#,
        ),
        // A crate, a package, a library is the workspace too (a small Rust crate, session 28:
        // "What version is this crate?" answered `0.1.0` without a look; the file says 0.3.1).
        (
            "What is the bread price in this crate?",
            r#"{"name":"grep","arguments":{"pattern":"bread","ignore_case":true}}"#,
        ),
        (
            "What does the library charge for bread?",
            r#"{"name":"grep","arguments":{"pattern":"bread","ignore_case":true}}"#,
        ),
        // Any question's plain words (a Docker Compose folder, session 29: "What postgres
        // version does the db use?" answered "14" without a look; the file says 15).
        (
            "What is the price of bread?",
            r#"{"name":"grep","arguments":{"pattern":"bread","ignore_case":true}}"#,
        ),
    ];
    for (prompt, want) in cases {
        let (_, requests) = run_prompt(
            &dir,
            prompt,
            vec!["In the tools.".into(), "convert.py".into()],
        );
        let asked = &requests[1].messages.last().unwrap().content;
        assert!(asked.ends_with(want), "{prompt}: {asked}");
    }
    // Words found nowhere (a code word, whose plain words then do not count; the plain words
    // of a question), or plain words that ask no question: no search, the answer stands.
    for prompt in [
        "Where is the temperature converted?",
        "In which file is the function to_rankine defined?",
        "Who is the author of this project?",
        "Tell me the price of bread.",
    ] {
        let (t, requests) = run_prompt(&dir, prompt, vec!["Nowhere.".into()]);
        assert_eq!((requests.len(), t.answer.as_deref()), (1, Some("Nowhere.")));
    }
}

/// Found with a Maven project (session 37): asked "Which currency does the guest house use?",
/// Qwen2.5-Coder-0.5B was offered a search for "guest house" (on six lines), not `currency`
/// (on the one line setting it), and answered "USD"; "What is the default capacity of a ring
/// buffer?" searched for "ring buffer" (the README's description). What a question asks for —
/// "Which A does …", "What A is B", "What is the A of B" — is searched for first, on the
/// fewest lines (A before B on a tie); a kind of named thing ("Which flag prints …") or a
/// name before it ("Which Java version …") leaves the question's other words to choose.
#[test]
fn what_a_question_asks_for_is_searched_before_its_other_words() {
    let dir = folder();
    write_files(
        &dir,
        &[
            (
                "README.md",
                "# Guest house\n\nBookings for a guest house, a ring buffer of stays.\n\nThe guest house has six rooms.\nRun the JUnit 5 tests with `mvn test`.\nEach post is a page.\n",
            ),
            (
                "src/main/resources/bookings.properties",
                "# Guest house settings\nbookings.checkin.hour=15\nbookings.checkout.hour=11\nbookings.currency=EUR\n",
            ),
            (
                "include/buf.h",
                "/* Capacity used when 0 is passed. */\n#define BUF_DEFAULT_CAP 64\n/* The longest stay a booking may span. */\n#define MAX_NIGHTS 14\n",
            ),
            ("pom.xml", "<junit.version>5.10.2</junit.version>\n"),
            (
                "content/posts/seed-list.md",
                "---\ntitle: \"Seed list\"\ndraft: true\n---\n",
            ),
            ("Makefile", "site:\n\thugo --minify  # build into public/\n"),
        ],
    );
    let grep = |pattern: &str| {
        format!(r#"{{"name":"grep","arguments":{{"pattern":"{pattern}","ignore_case":true}}}}"#)
    };
    for (prompt, want) in [
        ("Which currency does the guest house use?", "currency"),
        ("What is the default capacity of a ring buffer?", "capacity"),
        ("At what hour is checkout?", "checkout"),
        (
            "What is the longest stay a booking may span?",
            "longest stay",
        ),
        // A name written with an inner capital is a name in code, searched for first.
        ("Which JUnit version do the tests use?", "junit"),
        // A kind of named thing: what the question says of it is searched for.
        ("Which flag prints the guest house rooms?", "guest house"),
        // Which A is B: B (a Hugo site, session 37: "Which post is still a draft?" searched
        // `post`).
        ("Which post is still a draft?", "draft"),
        // A word found nowhere, its `s` off (session 37: "builds" searched `site`).
        ("Which command builds the site?", "build"),
    ] {
        let (_, requests) = run_prompt(&dir, prompt, vec!["USD".into(), "EUR".into()]);
        let asked = &requests[1].messages.last().unwrap().content;
        assert!(asked.ends_with(&grep(want)), "{prompt}: {asked}");
    }
}

/// Found running `toolmend run` on a Docker Compose folder (session 29): asked "Which file sets
/// the database password?", Qwen2.5-Coder-0.5B grepped `password`, was shown the match in
/// `docker-compose.yml`, and answered `POSTGRES_PASSWORD`. A question asking which file,
/// answered without naming one when the results name files, is asked once more, with those
/// files; an answer that names a file stands.
#[test]
fn a_which_file_question_answered_without_a_file_is_asked_for_the_file() {
    let dir = folder();
    write_files(
        &dir,
        &[(
            "docker-compose.yml",
            "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: notes-secret\n",
        )],
    );
    let prompt = "Which file sets the database password?";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("grep", json!({"pattern": "password", "ignore_case": true})),
            "POSTGRES_PASSWORD".into(),
            "docker-compose.yml sets it.".into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some("docker-compose.yml sets it."));
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.contains("your reply names none") && asked.contains("`docker-compose.yml`"),
        "{asked}"
    );
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("grep", json!({"pattern": "password", "ignore_case": true})),
            "In docker-compose.yml.".into(),
        ],
    );
    assert_eq!(
        (requests.len(), t.answer.as_deref()),
        (2, Some("In docker-compose.yml."))
    );
    // A path the bearing lines write in quotes is named first: it is what the code keeps its
    // data in (held-out readings_file, session 33: told the results name
    // `weatherlog/store.py`, the model answered with it; the readings are in
    // `~/.weatherlog.csv`).
    write_files(
        &dir,
        &[(
            "weatherlog/store.py",
            "import os\n\nDEFAULT_PATH = os.path.expanduser(\"~/.weatherlog.csv\")\n\n\ndef add_reading(city, path=DEFAULT_PATH):\n    pass\n",
        )],
    );
    let (_, requests) = run_prompt(
        &dir,
        "In which file does weatherlog store its readings by default?",
        vec![
            call("read", json!({"path": "weatherlog/store.py"})),
            "In the home folder.".into(),
            "In ~/.weatherlog.csv.".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.contains("The tool results above name `~/.weatherlog.csv`, `weatherlog/store.py`."),
        "{asked}"
    );
    // Another question: the answer stands.
    let (t, _) = run_prompt(
        &dir,
        "What is the database password?",
        vec![
            call("grep", json!({"pattern": "password", "ignore_case": true})),
            "notes-secret".into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some("notes-secret"));
}

/// Found with the dotfiles set (session 36, path_file): asked "Which file sets the PATH?" and
/// shown `.bashrc (line 4): export PATH="$HOME/bin:$PATH"`, Qwen2.5-Coder-0.5B answered
/// `/home/user/bin` — a path, but no file the results name or the folder holds. It is asked
/// for the file once, told which files the results name; a reply naming a file of the folder
/// the results do not name stands, as does a home-relative path to a file they name.
#[test]
fn a_which_file_answer_naming_only_a_path_of_no_file_is_asked_for_the_file() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                ".bashrc",
                "alias ll='ls -l'

export PATH=\"$HOME/bin:$PATH\"
",
            ),
            (
                "install.sh",
                "#!/bin/sh
ln -s \"$PWD/.bashrc\" ~/.bashrc
",
            ),
        ],
    );
    let prompt = "Which file sets the PATH?";
    let grep = || call("grep", json!({"pattern": "export PATH"}));
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![grep(), "/home/user/bin".into(), "`.bashrc` sets it.".into()],
    );
    assert_eq!(t.answer.as_deref(), Some("`.bashrc` sets it."), "{t:?}");
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.contains("`/home/user/bin`, the path your reply names, is no file")
            && asked.contains("name `.bashrc`"),
        "{asked}"
    );
    for answer in ["~/.bashrc", "install.sh links it."] {
        let (t, requests) = run_prompt(&dir, prompt, vec![grep(), answer.into()]);
        assert_eq!((requests.len(), t.answer.as_deref()), (2, Some(answer)));
    }
}

/// Found on the held-out project tasks (version): the model had the answer from a search, then
/// wrote the same call of a name that is no tool's (`convert`, run as grep) twice in each of
/// two turns — the extractor keeps repeats of a refused name, for the toolbox to answer. Each
/// copy counted as a repeat, so the fourth ended the run (`repeated_failure`) before the answer
/// turn the third had earned. The same call twice in one turn is one repeat.
#[test]
fn the_same_call_twice_in_a_turn_is_one_repeat() {
    let dir = folder();
    let one = json!({"name": "convert", "arguments": {"pattern": "passport", "path": ".", "ignore_case": true}})
        .to_string();
    let twice = || -> ScriptedTurn { format!("{one}\n{one}\n").into() };
    let (t, _) = run_prompt(
        &dir,
        "Which TODO items in todo.txt are still open?",
        vec![
            call("read", json!({"path": "todo.txt"})),
            twice(),
            twice(),
            "Renew the passport.".into(),
        ],
    );
    assert_eq!(t.turns[1].calls.len(), 2);
    assert_eq!(t.turns[1].calls[0].result.ran_as.as_deref(), Some("grep"));
    assert_eq!(t.end, EndReason::Answered, "{:?}", t.turns.last());
    assert_eq!(t.answer.as_deref(), Some("Renew the passport."));
    assert!(t.turns[3].answer_only, "{:?}", t.turns[3]);
}

/// Found on the held-out project tasks (bump_version): asked to set the version in
/// `weatherlog/__init__.py` to 0.3.2, Qwen2.5-Coder-0.5B read the file and then sent
/// `{"__version__": "0.3.2"}` to a tool named after the file's docstring until the run ended.
/// A made-up tool's one-value arguments, in a request to change the file it names whose one
/// line assigns that name, are shown as the `edit` of that line, written as the line writes
/// it — to send, not run unasked.
#[test]
fn a_value_sent_to_a_made_up_tool_is_shown_as_the_edit_it_means() {
    let dir = folder();
    write_files(
        &dir,
        &[
            (
                "weatherlog/__init__.py",
                "\"\"\"Log readings.\"\"\"\n\n__version__ = \"0.3.1\"\n",
            ),
            (
                "config.json",
                "{\n  \"debug\": false,\n  \"retries\": 3\n}\n",
            ),
        ],
    );
    let prompt = "Set the version in weatherlog/__init__.py to 0.3.2.";
    let edit = r#"{"name":"edit","arguments":{"path":"weatherlog/__init__.py","old_text":"__version__ = \"0.3.1\"","new_text":"__version__ = \"0.3.2\""}}"#;
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "weatherlog/__init__.py"})),
            call("log_readings", json!({"__version__": "0.3.2"})),
            edit.into(),
            "Done: the version is 0.3.2.".into(),
        ],
    );
    let feedback = &t.turns[1].calls[0].feedback;
    assert!(
        feedback.contains("unknown tool `log_readings`"),
        "{feedback}"
    );
    assert!(feedback.contains(edit), "{feedback}");
    assert_eq!(feedback.matches("{\"name\":").count(), 1, "{feedback}");
    assert!(t.turns[2].calls[0].result.is_ok(), "{:?}", t.turns[2]);
    assert!(
        std::fs::read_to_string(dir.path().join("weatherlog/__init__.py"))
            .unwrap()
            .ends_with("__version__ = \"0.3.2\"\n")
    );
    // The value the line already holds, sent as it was read (held-out bump_version at
    // ba8c2e6: `{"__version__": "0.3.1"}`): the request's other value of the same kind.
    let (t, _) = run_prompt(
        &dir,
        "Set the version in weatherlog/__init__.py to 0.3.4.",
        vec![
            call("log_readings", json!({"__version__": "0.3.2"})),
            "Done.".into(),
            "Done.".into(),
        ],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        feedback.contains(
            r#""old_text":"__version__ = \"0.3.2\"","new_text":"__version__ = \"0.3.4\""}}"#
        ),
        "{feedback}"
    );
    // JSON's own way of writing it; and nothing when the request asks no change, when the
    // name is assigned on no line, or when the value is already so.
    let (t, _) = run_prompt(
        &dir,
        "Set \"debug\" to true in config.json.",
        vec![call("set_debug", json!({"debug": true})), "Done.".into()],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        feedback.contains(r#"{"name":"edit","arguments":{"path":"config.json","old_text":"\"debug\": false,","new_text":"\"debug\": true,"}}"#),
        "{feedback}"
    );
    for (prompt, args) in [
        (
            "Which debug setting does config.json give?",
            json!({"debug": true}),
        ),
        (
            "Set \"verbose\" to true in config.json.",
            json!({"verbose": true}),
        ),
        (
            "Set \"debug\" to false in config.json.",
            json!({"debug": false}),
        ),
    ] {
        let (t, _) = run_prompt(
            &dir,
            prompt,
            vec![call("set", args), "Done.".into(), "Done.".into()],
        );
        let feedback = &t.turns[0].calls[0].feedback;
        assert!(
            !feedback.contains("\"name\":\"edit\""),
            "{prompt}: {feedback}"
        );
    }
}

/// Session 24, the `notes` run (Qwen2.5-Coder-0.5B, "How many notes are there?"): after the `ls`
/// of `notes` the model called `groceries.md` with the listing's line as `content`, and after
/// the read of the note, `groceries` with the note's text — presenting results by "calling"
/// them, until the turns ran out. In a question, a call of no tool whose arguments repeat a
/// line of text of the results is not run: the model is told so, to answer from them in plain
/// text (no example call to copy); called again, the next turn is for the answer. A path or a
/// name from the results as an argument (no space in it) is no such repeat.
#[test]
fn a_made_up_call_repeating_a_result_in_a_question_is_told_to_answer() {
    let dir = notes_folder();
    let prompt = "How many notes are there?";
    let ls = || call("ls", json!({"path": "notes"}));
    let listed = || {
        call(
            "groceries.md",
            json!({"content": "groceries.md (23 bytes)"}),
        )
    };
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![ls(), listed(), "There are 2 notes.".into()],
    );
    assert!(
        t.turns[0].calls[0]
            .result
            .output
            .contains("groceries.md (23 bytes)"),
        "{}",
        t.turns[0].calls[0].result.output
    );
    let c = &t.turns[1].calls[0];
    assert_eq!(c.result.failure.as_ref().unwrap().kind, "result_as_call");
    assert_eq!((c.result.attempts, c.result.ran_as.as_deref()), (0, None));
    assert!(
        c.feedback.starts_with(
            "`groceries.md` is not a tool, and its arguments repeat the result of `ls` you \
             already have. Answer the user's question, \"How many notes are there?\", in plain \
             text from the tool results"
        ),
        "{}",
        c.feedback
    );
    assert!(!c.feedback.contains("\"name\""), "{}", c.feedback);
    assert_eq!(
        (t.end, t.answer.as_deref()),
        (EndReason::Answered, Some("There are 2 notes."))
    );
    // A note's text, its line numbers dropped after the first line, as the model wrote it.
    let read = || call("read", json!({"path": "notes/groceries.md"}));
    let text = call(
        "groceries",
        json!({"content": "1\t# Groceries\n- oat milk"}),
    );
    let (t, _) = run_prompt(&dir, prompt, vec![read(), text, "2".into()]);
    let c = &t.turns[1].calls[0];
    assert_eq!(c.result.failure.as_ref().unwrap().kind, "result_as_call");
    assert!(
        c.feedback.contains("repeat the result of `read`"),
        "{}",
        c.feedback
    );
    // Called again: the next turn offers no tools, for the answer.
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![ls(), listed(), listed(), "There are 2 notes.".into()],
    );
    assert_eq!(
        (t.end, t.answer.as_deref(), t.turns.len()),
        (EndReason::Answered, Some("There are 2 notes."), 4)
    );
    assert!(requests.last().unwrap().tools.is_empty());
    // A file's name from the listing as the argument is a look, not a repeat.
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            ls(),
            call("open", json!({"path": "notes/groceries.md"})),
            "2".into(),
        ],
    );
    let c = &t.turns[1].calls[0];
    assert_ne!(
        c.result.failure.as_ref().map(|f| f.kind.as_str()),
        Some("result_as_call"),
        "{}",
        c.feedback
    );
    // In a change request the rule does not apply.
    let (t, _) = run_prompt(
        &dir,
        "Add the line \"- rye bread\" to notes/groceries.md.",
        vec![
            read(),
            call(
                "groceries",
                json!({"content": "1\t# Groceries\n- oat milk"}),
            ),
            "Done.".into(),
        ],
    );
    assert_ne!(
        t.turns[1].calls[0]
            .result
            .failure
            .as_ref()
            .map(|f| f.kind.as_str()),
        Some("result_as_call")
    );
}

/// Session 24, the `notes` run again: told to answer from the `ls` of `notes`, the model went
/// back to `notes` with `{"count": 10}`, the made-up call it opened with, until the run ended
/// `repeated_failure` with no answer. In a question, a made-up tool sent again once the run has
/// results gives the next turn, with no tools, to the answer. Before any result, or in a change
/// request, the repeat gets the firmer message as before.
#[test]
fn a_made_up_tool_sent_again_after_results_in_a_question_gives_the_next_turn_to_the_answer() {
    let dir = notes_folder();
    let notes = || call("notes", json!({"count": 10}));
    let ls = || call("ls", json!({"path": "notes"}));
    let (t, requests) = run_prompt(
        &dir,
        "How many notes are there?",
        vec![notes(), ls(), notes(), "There are 2 notes.".into()],
    );
    assert_eq!(
        (t.end, t.answer.as_deref(), t.turns.len()),
        (EndReason::Answered, Some("There are 2 notes."), 4)
    );
    let c = &t.turns[2].calls[0];
    assert!(
        c.feedback.starts_with(
            "`notes` is still not a tool, and you already have tool results. Answer the user's \
             question, \"How many notes are there?\""
        ),
        "{}",
        c.feedback
    );
    assert!(requests[3].tools.is_empty());
    // Before any result: the firmer message, and the tools stay offered.
    let (t, requests) = run_prompt(
        &dir,
        "How many notes are there?",
        vec![notes(), notes(), ls(), "2".into()],
    );
    assert!(
        t.turns[1].calls[0]
            .feedback
            .starts_with("You sent exactly the same `notes` call again"),
        "{}",
        t.turns[1].calls[0].feedback
    );
    assert!(!requests[2].tools.is_empty());
}

/// Found on the held-out project tasks (missing_file, test_names): asked which function creates
/// a missing file, Qwen2.5-Coder-0.5B read the file, then called `add_reading` and
/// `load_readings`, its functions; asked for the names of the tests, it called
/// `test_freezing_point`. In a question, a call of a name that is no tool's but a word of the
/// results is not run (not even as the read its arguments fit): the model is told it is a
/// name from the results, to answer with. Toolmend's own notes (backticked names) do not count.
#[test]
fn a_name_from_the_results_called_in_a_question_is_not_run() {
    let dir = folder();
    std::fs::write(
        dir.path().join("store.py"),
        "def add_reading(city):\n    pass\n\ndef load_readings(path):\n    open(path, 'w')\n",
    )
    .unwrap();
    let prompt = "Which function in store.py creates the file when it is missing?";
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "store.py"})),
            call("load_readings", json!({"path": "store.py"})),
            "load_readings creates it.".into(),
        ],
    );
    let c = &t.turns[1].calls[0];
    assert_eq!(c.result.failure.as_ref().unwrap().kind, "name_in_results");
    assert_eq!((c.result.attempts, c.result.ran_as.as_deref()), (0, None));
    assert!(
        c.feedback
            .starts_with("`load_readings` is not a tool: it is a name in the tool results"),
        "{}",
        c.feedback
    );
    assert_eq!(t.answer.as_deref(), Some("load_readings creates it."));
    // Called again (held-out test_names: the names, turn after turn, until repeated_failure):
    // the next turn is for the answer, offering no tools.
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "store.py"})),
            call("load_readings", json!({"path": "store.py"})),
            call("load_readings", json!({"path": "store.py"})),
            "load_readings creates it.".into(),
        ],
    );
    assert!(t.turns[3].answer_only, "{:?}", t.turns[3]);
    assert_eq!(
        (t.end, t.answer.as_deref()),
        (EndReason::Answered, Some("load_readings creates it."))
    );
    // A name only in toolmend's own notes, or only as a part of a path (the held-out version
    // task: `convert` after a search listed `weatherlog/convert.py`), runs as it would.
    std::fs::write(dir.path().join("convert.py"), "x = 1\n").unwrap();
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("ls", json!({"path": "."})),
            call(
                "convert",
                json!({"pattern": "open", "path": ".", "ignore_case": true}),
            ),
            call(
                "convert",
                json!({"pattern": "path", "path": ".", "ignore_case": true}),
            ),
            "load_readings.".into(),
        ],
    );
    assert!(t.turns[0].calls[0].feedback.contains("convert.py"));
    assert_eq!(t.turns[1].calls[0].result.ran_as.as_deref(), Some("grep"));
    assert_eq!(t.turns[2].calls[0].result.ran_as.as_deref(), Some("grep"));
}

/// Found on the held-out project tasks: asked "Which package does weatherlog depend on,
/// according to pyproject.toml?", the model answered `requests` without a look, and was asked
/// to look at the `ls` of the project's folder `weatherlog/` (a word of the request) rather
/// than at the file the request names. A named file is the look before a named folder.
#[test]
fn a_named_file_is_the_look_before_a_named_folder() {
    let dir = folder();
    write_files(
        &dir,
        &[
            ("weatherlog/cli.py", "import tabulate\n"),
            (
                "pyproject.toml",
                "[project]\ndependencies = [\"tabulate\"]\n",
            ),
        ],
    );
    let (_, requests) = run_prompt(
        &dir,
        "Which package does weatherlog depend on, according to pyproject.toml?",
        vec!["requests".into(), "tabulate".into()],
    );
    let asked = &requests[1].messages.last().unwrap().content;
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"pyproject.toml"}}"#),
        "{asked}"
    );
}

/// Found on the held-out project tasks: asked to fix the typo "temperture" in README.md,
/// Qwen2.5-Coder-0.5B called a tool `temperture`; the message showed the closest tool's fixed
/// example, grep's `fn main`, which it searched for until the run ended. A name that is no
/// tool's is shown the look at what the request names instead.
#[test]
fn an_unknown_tool_is_shown_the_look_at_what_the_request_names() {
    let dir = folder();
    let prompt = "Fix the spelling mistake \"pasport\" in todo.txt.";
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("pasport", json!({"description": "a spelling tool"})),
            "Done.".into(),
            "Done.".into(),
        ],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(feedback.contains("unknown tool `pasport`"), "{feedback}");
    assert!(
        feedback.contains(r#"{"name":"read","arguments":{"path":"todo.txt"}}"#),
        "{feedback}"
    );
    assert!(!feedback.contains("fn main"), "{feedback}");
    assert_eq!(feedback.matches("{\"name\":").count(), 1, "{feedback}");

    // Once the file is read (held-out bump_version: a tool named after the file's docstring,
    // then `fn main` searched for four times): the look at the root, not grep's fixed example.
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "todo.txt"})),
            call("renew_the_passport", json!({"__version__": "0.3.1"})),
            "Done.".into(),
            "Done.".into(),
        ],
    );
    let feedback = &t.turns[1].calls[0].feedback;
    assert!(
        feedback.contains(r#"{"name":"ls","arguments":{"path":"."}}"#),
        "{feedback}"
    );
    assert!(!feedback.contains("fn main"), "{feedback}");
}

/// Found with `toolmend eval tasks` (quickstart): asked "Who writes the quickstart, according to
/// the notes?", Qwen2.5-Coder-0.5B answered without a call, listed `notes` when asked to, then
/// read the folder and searched for `groceries.md`. No file is named; the request's most telling
/// word, `quickstart`, is on one line of the folder it names (the answer's): that search is the
/// call to make first, and the example a failed `grep` gets instead of the fixed `fn main`. A
/// request naming no folder gets a search of the root when it asks a question (session 29).
#[test]
fn without_a_named_file_the_look_first_is_a_search_for_the_requests_telling_word() {
    let dir = folder();
    std::fs::create_dir(dir.path().join("notes")).unwrap();
    std::fs::write(
        dir.path().join("notes/meeting.md"),
        "# Meeting notes\n- Ana writes the quickstart.\n- Notes are due Friday.\n",
    )
    .unwrap();
    let prompt = "Who writes the quickstart, according to the notes?";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            "The docs team.".into(),
            call("grep", json!({"pattern": "quickstart("})),
            "Ana.".into(),
        ],
    );
    let want =
        r#"{"name":"grep","arguments":{"pattern":"quickstart","path":"notes","ignore_case":true}}"#;
    let asked = &requests[1].messages.last().unwrap().content;
    assert!(asked.ends_with(want), "{asked}");
    let feedback = &t.turns[1].calls[0].feedback;
    assert!(
        feedback.contains(want) && !feedback.contains("fn main"),
        "{feedback}"
    );
    // No folder named: a question's plain words are searched for in the whole root (session
    // 29); a request that asks nothing gets no search, and its answer stands.
    let (_, requests) = run_prompt(
        &dir,
        "Who writes the quickstart?",
        vec!["The docs team.".into(), "Ana.".into()],
    );
    let asked = &requests[1].messages.last().unwrap().content;
    assert!(
        asked.ends_with(
            r#"{"name":"grep","arguments":{"pattern":"quickstart","ignore_case":true}}"#
        ),
        "{asked}"
    );
    let (t, requests) = run_prompt(
        &dir,
        "Tell me who writes the quickstart.",
        vec!["The docs team.".into()],
    );
    assert_eq!(
        (requests.len(), t.answer.as_deref()),
        (1, Some("The docs team."))
    );
    // The search looks at 4 MiB of the folder at most (the check runs on every answer given
    // without a call): a word found only beyond that is no telling word, and the `ls` of the
    // folder is the call offered.
    let filler = "filler line\n".repeat(256 * 1024 / 12);
    for i in 0..17 {
        std::fs::write(dir.path().join(format!("notes/a{i:02}.md")), &filler).unwrap();
    }
    std::fs::rename(
        dir.path().join("notes/meeting.md"),
        dir.path().join("notes/zz.md"),
    )
    .unwrap();
    let asked = asked_after_answer(&dir, prompt, "The docs team.", "Ana.");
    assert!(
        asked.ends_with(r#"{"name":"ls","arguments":{"path":"notes"}}"#),
        "{asked}"
    );
    std::fs::rename(
        dir.path().join("notes/zz.md"),
        dir.path().join("notes/meeting.md"),
    )
    .unwrap();
    // A request naming a file: its read, not a search.
    let asked = asked_after_answer(
        &dir,
        "Who writes the quickstart, according to notes/meeting.md?",
        "The docs team.",
        "Ana.",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"notes/meeting.md"}}"#),
        "{asked}"
    );
}

/// Session 26, `toolmend run` in this repository: asked "How many benches does this project
/// have?", Qwen2.5-Coder-0.5B was offered a search of `benches/` for `benches` — the folder's
/// own name, on the doc line of every bench — and answered `1` from the matches. A word that
/// names the folder tells nothing about what is in it; with no other word found there, the
/// look is the folder's `ls`.
#[test]
fn the_folders_own_name_is_no_telling_word_for_a_search_inside_it() {
    let dir = folder();
    std::fs::create_dir(dir.path().join("benches")).unwrap();
    for name in ["repair", "extract", "decode"] {
        std::fs::write(
            dir.path().join(format!("benches/{name}.rs")),
            format!("//! {name} benches: criterion groups.\nfn main() {{}}\n"),
        )
        .unwrap();
    }
    let asked = asked_after_answer(&dir, "How many benches does this project have?", "1", "3");
    assert!(
        asked.ends_with(r#"{"name":"ls","arguments":{"path":"benches"}}"#),
        "{asked}"
    );
    // Other words of the request found inside are still searched for (side by side there, as
    // the phrase).
    let asked = asked_after_answer(
        &dir,
        "Which of the benches has criterion groups?",
        "repair",
        "all",
    );
    assert!(
        asked.ends_with(
            r#"{"name":"grep","arguments":{"pattern":"criterion groups","path":"benches","ignore_case":true}}"#
        ),
        "{asked}"
    );
}

/// Found with `toolmend eval tasks` (todo_open): asked "Which TODO items in todo.txt are still
/// open?", Qwen2.5-Coder-0.5B read the file and then called `edit` to rewrite an item, three
/// sessions running. A request phrased as a question is offered only the tools that change no
/// files; a call of `edit` or `write` is refused unrun with the read to make instead, and sent
/// again it gets the firmer message without any `edit` shape to copy.
#[test]
fn a_question_is_not_offered_the_tools_that_change_files() {
    let dir = folder();
    let edit = call(
        "edit",
        json!({"path": "todo.txt", "old_text": "renew", "new_text": "renewed"}),
    );
    let question = "Which TODO items in todo.txt are still open?";
    let (t, requests) = run_prompt(
        &dir,
        question,
        vec![edit.clone(), edit.clone(), "Renew the passport.".into()],
    );
    let offered: Vec<&str> = requests[0].tools.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(offered, ["glob", "grep", "ls", "read"]);
    assert_eq!(t.withheld, ["edit", "write"]);
    assert_eq!(t.answer.as_deref(), Some("Renew the passport."));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
        "TODO: renew the passport\n"
    );
    let first = &t.turns[0].calls[0];
    assert_eq!(first.result.failure.as_ref().unwrap().kind, "question_only");
    assert!(
        first
            .feedback
            .starts_with("`edit` was not run: it changes files, and the user asked a question")
            && first.feedback.ends_with(
                r#"To look first, call: {"name":"read","arguments":{"path":"todo.txt"}}"#
            ),
        "{}",
        first.feedback
    );
    let again = &t.turns[1].calls[0].feedback;
    assert!(
        again.contains("Do not send this call again") && !again.contains("exactly this shape"),
        "{again}"
    );
    // An unknown tool's message names the tools the model has: not the withheld ones.
    let (t, _) = run_prompt(
        &dir,
        question,
        vec![call("call", json!({"plumber": "plumber"})), "Two.".into()],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        feedback.contains("The known tools are: glob, grep, ls, read."),
        "{feedback}"
    );
    // A request for a change is offered every tool, phrased as a question or not.
    for prompt in [
        "Add a line to todo.txt.",
        "Can you add a line to todo.txt?",
        "How about a line in todo.txt saying hello?",
        "Is it possible to add a line to todo.txt?",
    ] {
        let (t, requests) = run_prompt(&dir, prompt, vec!["Done.".into()]);
        assert_eq!(requests[0].tools.len(), 6, "{prompt}");
        assert!(t.withheld.is_empty(), "{prompt}");
    }
    // Turned off: every tool, and the edit runs.
    let options = AgentOptions {
        questions_read_only: false,
        ..AgentOptions::default()
    };
    let (t, requests) = run_prompt_with(&dir, question, vec![edit, "Done.".into()], options);
    assert_eq!(requests[0].tools.len(), 6);
    assert!(
        t.turns[0].calls[0].result.is_ok(),
        "{:?}",
        t.turns[0].calls[0]
    );
}

/// Found with `toolmend eval tasks` (todo_open): between two identical reads of todo.txt
/// Qwen2.5-Coder-0.5B called `call`, a tool that does not exist; the loop took that call for one
/// that may have changed something and ran the second read afresh, without the note that it
/// repeats one, so the model's repeats were counted from zero again. A call that never ran (an
/// unknown tool, arguments a tool refused) changes nothing: corpus case
/// `corpus/dispatch/qwen_unknown_tool_changes_nothing.json` for the dispatcher's memo, this for
/// the loop's.
#[test]
fn a_call_that_failed_before_running_leaves_earlier_results_standing() {
    let dir = folder();
    let read = call("read", json!({"path": "todo.txt"}));
    let (t, _) = run_prompt(
        &dir,
        "Add a line to todo.txt.",
        vec![
            read.clone(),
            call("call", json!({"plumber": "plumber"})),
            call(
                "edit",
                json!({"path": "todo.txt", "old_text": "not there", "new_text": "x"}),
            ),
            read.clone(),
            call(
                "edit",
                json!({"path": "todo.txt", "old_text": "renew", "new_text": "renewed"}),
            ),
            read,
            "Done.".into(),
        ],
    );
    let feedback: Vec<&str> = t
        .turns
        .iter()
        .flat_map(|t| &t.calls)
        .map(|c| c.feedback.as_str())
        .collect();
    assert!(
        feedback[3].starts_with("(You already called `read`"),
        "{}",
        feedback[3]
    );
    // An edit that ran changed the file: the read after it runs again.
    assert_eq!(feedback[5], "1\tTODO: renewed the passport");
}

/// Found with `toolmend eval tasks` (add_line): every refused `edit` ended with "To look first at
/// what the user's request names, call: {read todo.txt}" — after `edit`'s own message had said
/// "Read the file first: {read todo.txt}" (spaced, so the offer did not see it), and after the
/// model had read the file. The offer stands only where it adds a call the model has not made.
#[test]
fn the_look_first_offer_is_left_out_once_the_model_has_looked() {
    let dir = folder();
    let noop = call(
        "edit",
        json!({"path": "todo.txt", "old_text": "renew", "new_text": "renew"}),
    );
    let missing = call(
        "edit",
        json!({"path": "todo.txt", "old_text": "buy coffee", "new_text": "buy milk"}),
    );
    let (t, _) = run_prompt(
        &dir,
        "Add a line to todo.txt.",
        vec![
            noop,
            missing,
            call("read", json!({"path": "todo.txt"})),
            call(
                "edit",
                json!({"path": "todo.txt", "old_text": "passport", "new_text": "passport"}),
            ),
            "Done.".into(),
        ],
    );
    let feedback: Vec<&str> = t
        .turns
        .iter()
        .flat_map(|t| &t.calls)
        .map(|c| c.feedback.as_str())
        .collect();
    let offer = "To look first at what the user's request names";
    assert!(feedback[0].contains(offer), "{}", feedback[0]);
    assert!(
        feedback[1].contains(r#"Read the file first: {"name": "read""#)
            && !feedback[1].contains(offer),
        "{}",
        feedback[1]
    );
    assert!(
        feedback[3].contains("nothing would change") && !feedback[3].contains(offer),
        "{}",
        feedback[3]
    );
}

/// Found with `toolmend eval tasks` (eggs, --grammar strict): asked about notes/groceries.md,
/// Qwen2.5-Coder-0.5B globbed for that file three times and never read it; the note on the
/// repeat said only to use the result it had. The note now offers the call the request names,
/// when the model has not made it.
#[test]
fn a_repeated_call_is_offered_the_read_the_request_names() {
    let dir = folder();
    let ls = call("ls", json!({"path": "."}));
    let question = "Which TODO items in todo.txt are still open?";
    let (t, _) = run_prompt(&dir, question, vec![ls.clone(), ls, "Two.".into()]);
    let note = &t.turns[1].calls[0].feedback;
    assert!(
        note.starts_with("(You already called `ls`")
            && note.ends_with(
                r#"To look first at what the user's request names, call: {"name":"read","arguments":{"path":"todo.txt"}}"#
            ),
        "{note}"
    );
    // Once the model has read it, the note stands alone.
    let read = call("read", json!({"path": "todo.txt"}));
    let (t, _) = run_prompt(&dir, question, vec![read.clone(), read, "Two.".into()]);
    let note = &t.turns[1].calls[0].feedback;
    assert!(
        note.starts_with("(You already called `read`") && !note.contains("To look first"),
        "{note}"
    );
}

/// Found with `toolmend eval tasks` (add_line): `edit` of old_text `buy coffee` failed (not in
/// todo.txt); another edit then wrote `buy coffee` into the file, and the same first edit, sent
/// again, was answered "You sent exactly the same `edit` call again and it fails again" without
/// running — it would have succeeded. After a change, failing calls run again too.
#[test]
fn a_failed_call_runs_again_after_a_change() {
    let dir = folder();
    let coffee = call(
        "edit",
        json!({"path": "todo.txt", "old_text": "buy coffee", "new_text": "buy milk"}),
    );
    let (t, _) = run_prompt(
        &dir,
        "Add a line to todo.txt.",
        vec![
            coffee.clone(),
            call(
                "edit",
                json!({"path": "todo.txt", "old_text": "renew the passport", "new_text": "buy coffee"}),
            ),
            coffee,
            "Done.".into(),
        ],
    );
    let results: Vec<_> = t.turns.iter().flat_map(|t| &t.calls).collect();
    assert!(!results[0].result.is_ok());
    assert!(results[2].result.is_ok(), "{}", results[2].feedback);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
        "TODO: buy milk\n"
    );
}

/// In a chat the read may already be in the conversation: an answer to a second prompt about the
/// same file, written from the first prompt's result, stands.
#[test]
fn an_answer_from_a_read_earlier_in_the_chat_is_not_asked_again() {
    let dir = folder();
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    let turns = vec![
        call("read", json!({"path": "todo.txt"})),
        "Renew the passport.".into(),
        "One item.".into(),
        "It is in README.md.".into(),
        call("read", json!({"path": "README.md"})),
        "A title.".into(),
    ];
    let (mut agent, rt) = agent_over(tools, turns);
    let t = rt.block_on(agent.run("What is open in todo.txt?", &mut |_| {}));
    assert_eq!(t.answer.as_deref(), Some("Renew the passport."));
    let t = rt.block_on(agent.run("How many items are in todo.txt?", &mut |_| {}));
    assert_eq!((t.turns.len(), t.answer.as_deref()), (1, Some("One item.")));
    // A file not read before in the chat is still asked for.
    let t = rt.block_on(agent.run("What does README.md say?", &mut |_| {}));
    assert_eq!((t.turns.len(), t.answer.as_deref()), (3, Some("A title.")));
}

/// Found with `toolmend eval tasks` (add_line, Qwen2.5-Coder-0.5B): the model sent the same edit
/// in consecutive turns; its new text holds its old text, so every run made the change again
/// (`pay the electricity bill again again again`). The repeat is not run: the change is made,
/// and the model is told so, without an example call to copy.
#[test]
fn an_identical_change_is_made_once() {
    let dir = folder();
    let grow = call(
        "edit",
        json!({"path": "todo.txt", "old_text": "the passport", "new_text": "the passport again"}),
    );
    let (t, _) = run_prompt(
        &dir,
        "Add a line to todo.txt.",
        vec![grow.clone(), grow.clone(), grow, "Done.".into()],
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
        "TODO: renew the passport again\n"
    );
    let results: Vec<_> = t.turns.iter().flat_map(|t| &t.calls).collect();
    assert!(results[0].result.is_ok());
    let kinds: Vec<_> = results[1..]
        .iter()
        .map(|c| c.result.failure.as_ref().unwrap().kind.as_str())
        .collect();
    assert_eq!(kinds, ["already_done", "repeated_failure"]);
    assert!(
        results[2]
            .feedback
            .starts_with("You sent exactly the same `edit` call again: `edit` with exactly"),
        "{}",
        results[2].feedback
    );
    for c in &results[1..] {
        assert!(c.feedback.contains("already ran"), "{}", c.feedback);
        assert!(
            !c.feedback.contains("exactly this shape") && !c.feedback.contains("toolmend-example"),
            "{}",
            c.feedback
        );
    }
    assert_eq!(t.answer.as_deref(), Some("Done."));
}

/// Found with `toolmend eval tasks` (debug_on, Qwen2.5-Coder-0.5B): asked to set a value in
/// config.json, the model read the file and answered with its content; in other runs it said
/// `debug: true` without changing anything, or explained how one would make the change. An
/// answer to a request that asks for a change, when nothing was changed, is asked again once.
#[test]
fn an_answer_that_changes_nothing_asked_for_a_change_is_asked_again_once() {
    let dir = folder();
    let prompt = "In todo.txt, mark the passport item as done.";
    let read = call("read", json!({"path": "todo.txt"}));
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            read.clone(),
            "TODO: renew the passport".into(),
            call(
                "edit",
                json!({"path": "todo.txt", "old_text": "TODO:", "new_text": "DONE:"}),
            ),
            "Done.".into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some("Done."));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
        "DONE: renew the passport\n"
    );
    let note = &requests[2].messages.last().unwrap().content;
    assert!(
        note.starts_with("Nothing has been changed yet, but the user asked for a change")
            && note.contains(prompt),
        "{note}"
    );
    assert!(!requests[2].tools.is_empty(), "the change needs the tools");

    // Once a run: the second answer that changes nothing stands.
    let dir = folder();
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![read.clone(), "It is done.".into(), "It is done.".into()],
    );
    assert_eq!(
        (t.turns.len(), t.answer.as_deref()),
        (3, Some("It is done."))
    );

    // Not after a change, not for a question, not for a request that changes nothing.
    for (prompt, turns) in [
        (
            prompt,
            vec![
                call(
                    "edit",
                    json!({"path": "todo.txt", "old_text": "TODO:", "new_text": "DONE:"}),
                ),
                "Done.".into(),
            ],
        ),
        (
            "Which item in todo.txt is open?",
            vec![read.clone(), "The passport.".into()],
        ),
        (
            "Show me todo.txt.",
            vec![read.clone(), "TODO: renew the passport".into()],
        ),
        // A change asked of nothing in the folder: an answer in text.
        (
            "Change this sentence to the passive voice: the cat ate the fish.",
            vec!["The fish was eaten by the cat.".into()],
        ),
    ] {
        let dir = folder();
        let (t, _) = run_prompt(&dir, prompt, turns);
        assert_eq!(t.end, EndReason::Answered, "{prompt}");
        assert!(
            t.turns.iter().all(|r| r.nudge.is_none()),
            "{prompt}: {:?}",
            t.turns.last()
        );
    }
}

/// In a chat a new prompt is a new task: asked to make a change again, the model may send the
/// call it already made, and it runs (within one prompt it would be `already_done`).
#[test]
fn a_change_asked_for_again_in_a_new_prompt_runs_again() {
    let dir = folder();
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    let grow = call(
        "edit",
        json!({"path": "todo.txt", "old_text": "the passport", "new_text": "the passport again"}),
    );
    let turns = vec![grow.clone(), "Done.".into(), grow, "Done again.".into()];
    let (mut agent, rt) = agent_over(tools, turns);
    let t = rt.block_on(agent.run(
        "In todo.txt, add \"again\" after \"the passport\".",
        &mut |_| {},
    ));
    assert_eq!(t.answer.as_deref(), Some("Done."));
    let t = rt.block_on(agent.run("Do that once more in todo.txt.", &mut |_| {}));
    assert!(
        t.turns[0].calls[0].result.is_ok(),
        "{}",
        t.turns[0].calls[0].feedback
    );
    assert_eq!(t.answer.as_deref(), Some("Done again."));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
        "TODO: renew the passport again again\n"
    );
}

/// Found with `toolmend eval tasks` (add_line): the model called a tool `todo.txt` with grep's
/// arguments; shown the grep call it meant (session 15), it sent its own name again on the
/// held-out tasks (session 16). The call runs as grep, says so, and its repeat is answered as a
/// read-only call's: from the result the model has, changing nothing.
#[test]
fn an_unknown_tool_with_a_tools_arguments_runs_as_that_tool() {
    let dir = folder();
    let args = json!({"pattern": "passport", "path": ".", "glob": null, "ignore_case": false});
    let (t, _) = run_prompt(
        &dir,
        "Which TODO items in todo.txt are still open?",
        vec![
            call("todo.txt", args.clone()),
            call("todo.txt", args),
            "The passport.".into(),
        ],
    );
    let c = &t.turns[0].calls[0];
    assert!(c.result.is_ok(), "{:?}", c.result);
    assert_eq!(c.result.ran_as.as_deref(), Some("grep"));
    assert!(
        c.feedback
            .starts_with("(No tool is named `todo.txt`; this is the result of `grep`"),
        "{}",
        c.feedback
    );
    assert!(
        c.feedback
            .contains("todo.txt (line 1): TODO: renew the passport"),
        "{}",
        c.feedback
    );
    let again = &t.turns[1].calls[0];
    assert!(
        again.result.cached && again.result.attempts == 0,
        "{again:?}"
    );
    assert_eq!(t.answer.as_deref(), Some("The passport."));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
        "TODO: renew the passport\n"
    );
}

/// Found running `toolmend run` on a small Python project (session 27): asked to add an entry
/// to a dict, Qwen2.5-Coder-0.5B sent the edit shown, then in the same turn three more edits of
/// the same line, one adding an entry no one asked for; they failed only because the line had
/// changed. Once the change the request spells out is made, the rest of the turn is not run.
#[test]
fn calls_after_the_change_asked_for_in_the_same_turn_are_not_run() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[("src/shop.py", "PRICES = {\"apple\": 0.5}\n\nMORE = {}\n")],
    );
    let made = json!({"name": "edit", "arguments": {"path": "src/shop.py", "old_text": "PRICES = {\"apple\": 0.5}", "new_text": "PRICES = {\"apple\": 0.5, \"cheese\": 3.5}"}});
    let extra = json!({"name": "edit", "arguments": {"path": "src/shop.py", "old_text": "MORE = {}", "new_text": "MORE = {\"tomato\": 2.5}"}});
    let turn = format!("{made}\n{extra}\n");
    let (t, _) = run_prompt(
        &dir,
        "Add cheese with price 3.5 to the PRICES in src/shop.py.",
        vec![turn.as_str().into(), "Added cheese.".into()],
    );
    let calls = &t.turns[0].calls;
    assert!(calls[0].result.is_ok());
    assert_eq!(
        calls[1].result.failure.as_ref().map(|f| f.kind.as_str()),
        Some("skipped")
    );
    assert_eq!(
        calls[1].feedback,
        "`edit` was not run: the change the user asked for is already made, by the `edit` call \
         before it in this turn; answer the user now in plain text"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/shop.py")).unwrap(),
        "PRICES = {\"apple\": 0.5, \"cheese\": 3.5}\n\nMORE = {}\n"
    );
    assert_eq!(
        (t.end, t.answer.as_deref()),
        (EndReason::Answered, Some("Added cheese."))
    );
}

/// Found on the held-out project tasks: asked to change a flag's default "from 7 to 14", to add
/// a line under a changelog heading or to create `.gitignore` with a line, Qwen2.5-Coder-0.5B read
/// the file, then called tools it made up (`0.3.1` with `{"show": "sort readings by date"}`,
/// `gitignore` with `{"pattern": "__pycache__"}`) until the run ended; asked to rename a
/// function everywhere in a file, it called `rename_price_of`, and asked to add an entry to a
/// file's dict, the file's own function `price_of` (session 27). The change the request
/// spells out in words, grounded in the one line of the file it names, is the example an
/// unknown tool's message shows; sent, it makes the change, and the next turn is the answer.
#[test]
fn a_change_the_request_spells_out_is_the_call_shown() {
    let files: &[(&str, &str)] = &[
        (
            "CHANGELOG.md",
            "# Changelog\n\n## 0.3.1\n- store: create the file\n\n## 0.3.0\n- first\n",
        ),
        (
            "weatherlog/cli.py",
            "show.add_argument(\"--last\", type=int, default=7)\nrows = rows[-7:]\n",
        ),
        (
            "src/index.js",
            "const DEFAULTS = {\n  timeout: 5000,\n  retries: 2,\n};\nconst o = argv.slice(2);\n",
        ),
        (
            "package.json",
            "{\n  \"name\": \"x\",\n  \"version\": \"1.4.0\"\n}\n",
        ),
        (
            "todo.txt",
            "TODO: renew the passport\nTODO: call the plumber\nDONE: pay the bill\n",
        ),
        (
            "README.md",
            "# weatherlog\n\nA tool that logs temperture readings.\n",
        ),
        (
            "pyproject.toml",
            "description = \"Log temperature readings\"\n",
        ),
        (
            "src/shop.py",
            "PRICES = {\"apple\": 0.5, \"bread\": 2.25}\n\ndef price_of(item):\n    return PRICES[item]\n\ndef cart_total(items):\n    return sum(price_of(i) for i in items)\n",
        ),
        (
            "Cargo.toml",
            "[package]\nname = \"units\"\n\n[dependencies]\n\n[dev-dependencies]\n",
        ),
        ("src/lib.rs", "pub const MILES_TO_KM: f64 = 1.609;\n"),
        (
            "docker-compose.yml",
            "services:\n  web:\n    image: notes:1.4.2\n    depends_on:\n      - db\n\n  db:\n    image: postgres:15\n",
        ),
        (".env.example", "PORT=8080\nLOG_LEVEL=info\n"),
        ("Makefile", "up:\n\tdocker compose up -d\n\n.PHONY: up\n"),
        (".gitignore", "bin/\n*.out\n"),
        ("go.mod", "module example.com/tally\n\ngo 1.21\n"),
        (
            ".github/workflows/ci.yml",
            "jobs:\n  test:\n    steps:\n      - uses: actions/setup-go@v5\n        with:\n          go-version: \"1.21\"\n      - run: go test ./...\n",
        ),
    ];
    // The request, the call shown, the file and a piece of it once the call is sent.
    let cases: &[(&str, serde_json::Value, &str, &str)] = &[
        (
            "Add the line \"- show: sort readings by date\" under \"## 0.3.1\" in CHANGELOG.md.",
            json!({"path": "CHANGELOG.md", "old_text": "## 0.3.1\n- store: create the file", "new_text": "## 0.3.1\n- show: sort readings by date\n- store: create the file"}),
            "CHANGELOG.md",
            "## 0.3.1\n- show: sort readings by date\n- store: create the file\n",
        ),
        (
            "In weatherlog/cli.py, change the default of --last from 7 to 14.",
            json!({"path": "weatherlog/cli.py", "old_text": "show.add_argument(\"--last\", type=int, default=7)", "new_text": "show.add_argument(\"--last\", type=int, default=14)"}),
            "weatherlog/cli.py",
            "default=14)\nrows = rows[-7:]\n",
        ),
        (
            // Two lines hold `2`: the one with the request's other words.
            "In src/index.js, change the default number of retries from 2 to 3.",
            json!({"path": "src/index.js", "old_text": "retries: 2,", "new_text": "retries: 3,"}),
            "src/index.js",
            "  retries: 3,\n};\nconst o = argv.slice(2);\n",
        ),
        (
            "Set the version in package.json to 1.5.0.",
            json!({"path": "package.json", "old_text": "\"version\": \"1.4.0\"", "new_text": "\"version\": \"1.5.0\""}),
            "package.json",
            "  \"version\": \"1.5.0\"\n}\n",
        ),
        (
            "In todo.txt, mark the plumber item as done: change its \"TODO:\" to \"DONE:\".",
            json!({"path": "todo.txt", "old_text": "TODO: call the plumber", "new_text": "DONE: call the plumber"}),
            "todo.txt",
            "TODO: renew the passport\nDONE: call the plumber\n",
        ),
        (
            "Add the line \"- buy coffee\" at the end of todo.txt.",
            json!({"path": "todo.txt", "old_text": "DONE: pay the bill", "new_text": "DONE: pay the bill\n- buy coffee"}),
            "todo.txt",
            "DONE: pay the bill\n- buy coffee\n",
        ),
        (
            // The right spelling, as the project writes it elsewhere.
            "Fix the spelling mistake \"temperture\" in README.md.",
            json!({"path": "README.md", "old_text": "A tool that logs temperture readings.", "new_text": "A tool that logs temperature readings."}),
            "README.md",
            "A tool that logs temperature readings.\n",
        ),
        (
            // A value set in the one entry a quoted key names (session 27, shop tasks).
            "Set the price of bread in src/shop.py to 2.5.",
            json!({"path": "src/shop.py", "old_text": "PRICES = {\"apple\": 0.5, \"bread\": 2.25}", "new_text": "PRICES = {\"apple\": 0.5, \"bread\": 2.5}"}),
            "src/shop.py",
            "PRICES = {\"apple\": 0.5, \"bread\": 2.5}\n",
        ),
        (
            // Every occurrence: the definition and the call (session 27, `toolmend run`).
            "Rename the function price_of to unit_price everywhere in src/shop.py.",
            json!({"path": "src/shop.py", "old_text": "price_of", "new_text": "unit_price", "replace_all": true}),
            "src/shop.py",
            "def unit_price(item):\n    return PRICES[item]\n\ndef cart_total(items):\n    return sum(unit_price(i) for i in items)\n",
        ),
        (
            // An entry of a collection the file assigns to a name (session 27, `toolmend run`).
            "Add cheese with price 3.5 to the PRICES in src/shop.py.",
            json!({"path": "src/shop.py", "old_text": "PRICES = {\"apple\": 0.5, \"bread\": 2.25}", "new_text": "PRICES = {\"apple\": 0.5, \"bread\": 2.25, \"cheese\": 3.5}"}),
            "src/shop.py",
            "PRICES = {\"apple\": 0.5, \"bread\": 2.25, \"cheese\": 3.5}\n\ndef price_of",
        ),
        (
            // A section's entry, a typed declaration's value (a Rust crate, session 28).
            "Add serde = \"1\" to the dependencies in Cargo.toml.",
            json!({"path": "Cargo.toml", "old_text": "[dependencies]", "new_text": "[dependencies]\nserde = \"1\""}),
            "Cargo.toml",
            "[dependencies]\nserde = \"1\"\n\n[dev-dependencies]\n",
        ),
        (
            "Change MILES_TO_KM to 1.609344 in src/lib.rs.",
            json!({"path": "src/lib.rs", "old_text": "pub const MILES_TO_KM: f64 = 1.609;", "new_text": "pub const MILES_TO_KM: f64 = 1.609344;"}),
            "src/lib.rs",
            "pub const MILES_TO_KM: f64 = 1.609344;\n",
        ),
        (
            // A YAML mapping's entry; a value set in the one file the words pick out, which
            // the request does not name (a Docker Compose folder, session 29).
            "Add restart: unless-stopped to the web service in docker-compose.yml.",
            json!({"path": "docker-compose.yml", "old_text": "  web:\n    image: notes:1.4.2\n    depends_on:\n      - db", "new_text": "  web:\n    image: notes:1.4.2\n    depends_on:\n      - db\n    restart: unless-stopped"}),
            "docker-compose.yml",
            "      - db\n    restart: unless-stopped\n\n  db:\n",
        ),
        (
            "Add REDIS_URL=redis://cache:6379 to .env.example.",
            json!({"path": ".env.example", "old_text": "LOG_LEVEL=info", "new_text": "LOG_LEVEL=info\nREDIS_URL=redis://cache:6379"}),
            ".env.example",
            "PORT=8080\nLOG_LEVEL=info\nREDIS_URL=redis://cache:6379\n",
        ),
        (
            // The one Makefile's rule, the file not named.
            "Add a make target ps that runs docker compose ps.",
            json!({"path": "Makefile", "old_text": ".PHONY: up", "new_text": "ps:\n\tdocker compose ps\n\n.PHONY: up ps"}),
            "Makefile",
            "up:\n\tdocker compose up -d\n\nps:\n\tdocker compose ps\n\n.PHONY: up ps\n",
        ),
        (
            "Bump the web image to notes:1.5.0.",
            json!({"path": "docker-compose.yml", "old_text": "image: notes:1.4.2", "new_text": "image: notes:1.5.0"}),
            "docker-compose.yml",
            "    image: notes:1.5.0\n",
        ),
        (
            // A pattern of an ignore file, one a line (a Go module, session 30).
            "Add *.log to the gitignore.",
            json!({"path": ".gitignore", "old_text": "*.out", "new_text": "*.out\n*.log"}),
            ".gitignore",
            "bin/\n*.out\n*.log\n",
        ),
        (
            // The CI's workflows, not go.mod's `go` line (a Go module, session 30).
            "Change the CI to use Go 1.22.",
            json!({"path": ".github/workflows/ci.yml", "old_text": "go-version: \"1.21\"", "new_text": "go-version: \"1.22\""}),
            ".github/workflows/ci.yml",
            "          go-version: \"1.22\"\n",
        ),
        (
            "Create a file named .dockerignore that contains the line __pycache__/",
            json!({"path": ".dockerignore", "content": "__pycache__/\n"}),
            ".dockerignore",
            "__pycache__/\n",
        ),
    ];
    for (prompt, args, file, ends) in cases {
        let dir = tempfile::tempdir().unwrap();
        write_files(&dir, files);
        let name = if args.get("content").is_some() {
            "write"
        } else {
            "edit"
        };
        let shown = json!({"name": name, "arguments": args}).to_string();
        let (t, _) = run_prompt(
            &dir,
            prompt,
            vec![
                call("changelog", json!({"show": "sort readings by date"})),
                shown.as_str().into(),
                "Done.".into(),
            ],
        );
        let feedback = &t.turns[0].calls[0].feedback;
        assert!(feedback.contains(&shown), "{prompt}\n{feedback}");
        assert!(
            t.turns[1].calls[0].result.is_ok(),
            "{prompt}: {:?}",
            t.turns[1]
        );
        assert!(
            t.turns[1].calls[0]
                .feedback
                .contains("That is the change the user asked for"),
            "{prompt}"
        );
        // The next turn is the answer's: each request asks for one change ("mark … as done:
        // change …" names it twice over).
        assert!(t.turns[2].answer_only, "{prompt}: {:?}", t.turns[2]);
        assert_eq!(t.end, EndReason::Answered, "{prompt}");
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        assert!(text.contains(ends), "{prompt}\n{text}");
    }
}

/// A read repeated in a run whose request spells out a change not made yet gets that change as
/// the next step, and the turn after the second repeat keeps the tools that make it; words that
/// pick out no single line, a file that exists already, or a question give no change to show.
#[test]
fn a_repeated_look_gets_the_change_the_request_spells_out() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            ("todo.txt", "TODO: a\nTODO: b\n"),
            ("notes.md", "# Notes\n"),
        ],
    );
    let read = || call("read", json!({"path": "todo.txt"}));
    let (t, _) = run_prompt(
        &dir,
        "Add the line \"- c\" at the end of todo.txt.",
        vec![read(), read(), read(), "Done.".into()],
    );
    let due = r#"{"name":"edit","arguments":{"path":"todo.txt","old_text":"TODO: b","new_text":"TODO: b\n- c"}}"#;
    for turn in [1, 2] {
        let feedback = &t.turns[turn].calls[0].feedback;
        assert!(
            feedback.contains(&format!(
                "To make the change the user asked for, call: {due}"
            )),
            "{feedback}"
        );
    }
    assert!(!t.turns[3].answer_only, "{:?}", t.turns[3]);
    // A request with a second change after the one spelled out keeps the tools once it is made.
    let (t, _) = run_prompt(
        &dir,
        "Add the line \"- c\" at the end of todo.txt, then add a title to notes.md.",
        vec![due.into(), "Done.".into()],
    );
    assert!(
        t.turns[0].calls[0]
            .feedback
            .contains("That is the first change the user asked for"),
        "{:?}",
        t.turns[0]
    );
    assert!(!t.turns[1].answer_only, "{:?}", t.turns[1]);
    // Nothing picked out, nothing shown: two lines hold `TODO:` and no other word tells them
    // apart; notes.md exists; a question changes nothing.
    for prompt in [
        "In todo.txt, change \"TODO:\" to \"DONE:\".",
        "Create a file named notes.md containing the line hello",
        "Which line of todo.txt should I add?",
    ] {
        let (t, _) = run_prompt(&dir, prompt, vec![read(), read(), "Done.".into()]);
        let feedback = &t.turns[1].calls[0].feedback;
        assert!(
            !feedback.contains("the change the user asked for"),
            "{prompt}\n{feedback}"
        );
    }
}

/// Found on the held-out project tasks (city_default): asked to make Bergen the default city
/// of `weatherlog add`, Qwen2.5-Coder-0.5B sent `{"city": "Bergen"}` to a made-up tool `add`.
/// No line assigns `city`; the one line naming it passes `default=`, a word of the request.
#[test]
fn a_value_sent_to_a_made_up_tool_sets_the_keyword_the_request_names() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "weatherlog/cli.py",
            "add.add_argument(\"celsius\", type=float)\nadd.add_argument(\"--city\", default=\"Oslo\")\n",
        )],
    );
    let edit = r#"{"name":"edit","arguments":{"path":"weatherlog/cli.py","old_text":"add.add_argument(\"--city\", default=\"Oslo\")","new_text":"add.add_argument(\"--city\", default=\"Bergen\")"}}"#;
    let t = made_up_then_shown(
        &dir,
        "Make Bergen the default city of `weatherlog add` in weatherlog/cli.py.",
        call("add", json!({"city": "Bergen"})),
        edit,
    );
    assert!(t.turns[1].calls[0].result.is_ok(), "{:?}", t.turns[1]);
    assert!(
        std::fs::read_to_string(dir.path().join("weatherlog/cli.py"))
            .unwrap()
            .contains("default=\"Bergen\")")
    );
}

/// Found on the held-out project tasks (fix_typo): asked to fix the spelling mistake
/// "temperture", Qwen2.5-Coder-0.5B called a tool `temperture` whose description spelt the word
/// right. A word the model wrote, one edit or two from the misspelt one, is the fix shown; a
/// word that is no nearer than another is none.
#[test]
fn a_word_spelt_right_in_a_made_up_call_is_the_fix_shown() {
    let dir = tempfile::tempdir().unwrap();
    // "servs" is no common misspelling: the right word can only come from the model's call.
    write_files(
        &dir,
        &[("README.md", "# x\n\nEach page servs one request.\n")],
    );
    let prompt = "Correct the misspelling \"servs\" in README.md.";
    let edit = r#"{"name":"edit","arguments":{"path":"README.md","old_text":"Each page servs one request.","new_text":"Each page serves one request."}}"#;
    made_up_then_shown(
        &dir,
        prompt,
        call("servs", json!({"description": "A page serves requests."})),
        edit,
    );
    assert!(
        std::fs::read_to_string(dir.path().join("README.md"))
            .unwrap()
            .contains("Each page serves one request.")
    );
    write_files(
        &dir,
        &[("README.md", "# x\n\nEach page servs one request.\n")],
    );
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("servs", json!({"description": "serves or servo"})),
            "Done.".into(),
        ],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(!feedback.contains(r#""name":"edit""#), "{feedback}");
}

/// Found on the second held-out set (misspelling): asked to fix "recieves", Qwen2.5-Coder-0.5B
/// never wrote "receives", nor does the project. A common English misspelling is known without
/// either: the edit is shown whatever the model sent.
#[test]
fn a_common_misspelling_is_fixed_without_the_right_word_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[("README.md", "# x\n\nEach page recieves one request.\n")],
    );
    let edit = r#"{"name":"edit","arguments":{"path":"README.md","old_text":"Each page recieves one request.","new_text":"Each page receives one request."}}"#;
    made_up_then_shown(
        &dir,
        "Correct the misspelling \"recieves\" in README.md.",
        call("recieves", json!({"description": "a page gets requests"})),
        edit,
    );
    assert!(
        std::fs::read_to_string(dir.path().join("README.md"))
            .unwrap()
            .contains("Each page receives one request.")
    );
}

/// Found on the second held-out set (user_agent_15): asked to change the userAgent to
/// linkcheck/1.5, Qwen2.5-Coder-0.5B sent `{"userAgent": "linkcheck/1.5.0"}` to a made-up tool
/// and then sent the edit it was shown, with its own `1.5.0`. The request's own words come
/// before the model's arguments.
#[test]
fn the_request_s_value_comes_before_the_one_a_made_up_call_sent() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "config.json",
            "{\n  \"userAgent\": \"linkcheck/1.4\",\n  \"maxPages\": 500\n}\n",
        )],
    );
    let (t, _) = run_prompt(
        &dir,
        "Change the userAgent in config.json to linkcheck/1.5.",
        vec![
            call("changeUserAgent", json!({"userAgent": "linkcheck/1.5.0"})),
            "Done.".into(),
            "Done.".into(),
        ],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        feedback.contains(r#"{"name":"edit","arguments":{"path":"config.json","old_text":"\"userAgent\": \"linkcheck/1.4\",","new_text":"\"userAgent\": \"linkcheck/1.5\","}}"#),
        "{feedback}"
    );
}

/// Session 22, the `notes` run (Qwen2.5-Coder-0.5B): after reading a note the model answered
/// "I'm sorry, but I can't assist with that." A refusal that says nothing about the request is
/// asked again once, with the request restated — after results, to answer from them (with the
/// lines that bear on a question); before any call, to look, with the call that reads what the
/// request names. An apology that says what is wrong is an answer.
#[test]
fn a_refusal_is_asked_again_once() {
    let dir = notes_folder();
    let refusal = "I'm sorry, but I can't assist with that.";
    let ls = || call("ls", json!({"path": "notes"}));
    let (t, _) = run_prompt(
        &dir,
        "How many notes are there?",
        vec![ls(), refusal.into(), "There are 2 notes.".into()],
    );
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(t.answer.as_deref(), Some("There are 2 notes."));
    let nudge = t.turns[2].nudge.as_deref().unwrap_or_default();
    assert!(
        nudge.starts_with("You can answer this: the tool results above")
            && nudge.contains("\"How many notes are there?\""),
        "{nudge}"
    );
    // Before any call: the look at what the request names is offered.
    let (t, _) = run_prompt(
        &dir,
        "How many notes are in notes?",
        vec![refusal.into(), ls(), "2".into()],
    );
    assert_eq!(
        (t.end, t.answer.as_deref()),
        (EndReason::Answered, Some("2"))
    );
    let nudge = t.turns[1].nudge.as_deref().unwrap_or_default();
    assert!(
        nudge.starts_with("You can do this: the tools you were given")
            && nudge.contains(r#"call: {"name":"ls","arguments":{"path":"notes"}}"#),
        "{nudge}"
    );
    // Once a run: a second refusal ends the run `refused` (no answer), the refusal kept to show.
    let (t, _) = run_prompt(
        &dir,
        "How many notes are there?",
        vec![ls(), refusal.into(), refusal.into(), "unused".into()],
    );
    assert_eq!((t.end, t.turns.len()), (EndReason::Refused, 3));
    assert_eq!(t.answer.as_deref(), Some(refusal));
    // A refusal where no turn is left to ask in ends the same way.
    let (t, _) = run_prompt_with(
        &dir,
        "How many notes are there?",
        vec![ls(), refusal.into()],
        AgentOptions {
            max_turns: 2,
            ..AgentOptions::default()
        },
    );
    assert_eq!((t.end, t.turns.len()), (EndReason::Refused, 2));
    // An apology that says what is wrong answers.
    let (t, _) = run_prompt(
        &dir,
        "How many notes are there?",
        vec![
            ls(),
            "I'm sorry, the notes folder holds no notes.".into(),
            "unused".into(),
        ],
    );
    assert_eq!((t.end, t.turns.len()), (EndReason::Answered, 2));
}

/// Found on the held-out sets: after the right look, Qwen2.5-Coder-0.5B answered from the last
/// result it was shown — `1` after an `ls`, when grep had shown `default=7`. The turn that must
/// answer a question from the results gets the lines of them that bear on it; a Markdown
/// heading brings its section.
#[test]
fn the_answer_turn_of_a_question_gets_the_lines_that_bear_on_it() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "weatherlog/cli.py",
                "import argparse\nshow.add_argument(\"--last\", type=int, default=7)\nprint(rows)\n",
            ),
            (
                "CHANGELOG.md",
                "# Changelog\n\n## 1.4.0\n- check: retry\n\n## 1.3.0\n- report: print a summary line\n- check: treat 410 as broken\n\n## 1.2.0\n- first\n",
            ),
        ],
    );
    let ls = || call("ls", json!({"path": "."}));
    let (t, _) = run_prompt(
        &dir,
        "How many readings does `weatherlog show` print when --last is not given?",
        vec![
            call("grep", json!({"pattern": "--last", "path": "weatherlog"})),
            ls(),
            ls(),
            ls(),
            "7".into(),
        ],
    );
    let last = t.turns.last().unwrap();
    assert!(last.answer_only, "{last:?}");
    let nudge = last.nudge.as_deref().unwrap_or_default();
    assert!(
        nudge.contains("These lines of the tool results bear on the request:\nweatherlog/cli.py (line 2): show.add_argument(\"--last\", type=int, default=7)"),
        "{nudge}"
    );
    assert!(!nudge.contains("CHANGELOG.md ("), "{nudge}");
    // A search's or a glob's "nothing found" bears on nothing, though it writes the pattern
    // (tally set, session 33: `no files match `longest line` in `.`` was shown beside the
    // line of `MaxLineLength`).
    let (t, _) = run_prompt(
        &dir,
        "How many readings does `weatherlog show` print when --last is not given?",
        vec![
            call("grep", json!({"pattern": "--last", "path": "weatherlog"})),
            call("glob", json!({"pattern": "--last"})),
            call("grep", json!({"pattern": "--last", "path": "CHANGELOG.md"})),
            ls(),
            ls(),
            ls(),
            "7".into(),
        ],
    );
    let nudge = t.turns.last().unwrap().nudge.clone().unwrap_or_default();
    assert!(
        nudge.contains("(line 2): show.add_argument"),
        "{nudge}: {:?}",
        t.turns
            .iter()
            .map(|t| (&t.nudge, &t.raw))
            .collect::<Vec<_>>()
    );
    assert!(
        !nudge.contains("no files match") && !nudge.contains("no matches for"),
        "{nudge}"
    );
    // A file's line shown by a read and by a search is shown once (shopdata set, session 33:
    // Grace Hopper's row was two of the three lines; the model answered with Ada's country).
    write_files(
        &dir,
        &[(
            "data/customers.csv",
            "id,name,country\n1,Ada Lovelace,UK\n2,Grace Hopper,US\n",
        )],
    );
    let read = || call("read", json!({"path": "data/customers.csv"}));
    let (t, _) = run_prompt(
        &dir,
        "Which country code does customers.csv give Grace Hopper?",
        vec![
            read(),
            call("grep", json!({"pattern": "Grace", "path": "."})),
            read(),
            read(),
            "US".into(),
        ],
    );
    let nudge = t.turns.last().unwrap().nudge.clone().unwrap_or_default();
    assert!(
        nudge.ends_with("bear on the request:\nid: 2, name: Grace Hopper, country: US"),
        "{nudge}"
    );
    let nudge = nudge_after_reading(
        &dir,
        "CHANGELOG.md",
        "What did release 1.3.0 change, according to the changelog?",
    );
    assert!(
        nudge.ends_with("\n## 1.3.0\n- report: print a summary line\n- check: treat 410 as broken"),
        "{nudge}"
    );
    // A word on many lines tells little: the project's name is on two lines of package.json,
    // `depend` on one, which opens the section holding the answer (second held-out set,
    // npm_dependency: shown the name's lines too, the model answered `linkcheck`).
    write_files(
        &dir,
        &[(
            "package.json",
            "{\n  \"name\": \"linkcheck\",\n  \"bin\": {\n    \"linkcheck\": \"src/index.js\"\n  },\n  \"dependencies\": {\n    \"node-fetch\": \"^3.3.2\"\n  }\n}\n",
        )],
    );
    let nudge = nudge_after_reading(
        &dir,
        "package.json",
        "Which npm package does linkcheck depend on?",
    );
    assert!(
        nudge.ends_with("bear on the request:\n\"dependencies\": {\n  \"node-fetch\": \"^3.3.2\""),
        "{nudge}"
    );
    assert!(!nudge.contains("\"name\": \"linkcheck\""), "{nudge}");
    // A word inside a path names a file, not what it holds (second held-out set, test_list:
    // shown the glob's `test/check.test.js`, the model answered with it).
    write_files(
        &dir,
        &[(
            "test/check.test.js",
            "const test = require(\"node:test\");\n\ntest(\"treats 404 as broken\", () => {\n  ok();\n});\n",
        )],
    );
    // Run as `glob`: the output opens with toolmend's note, which bears on nothing.
    let glob = || call("test_glob", json!({"pattern": "**/*"}));
    let (t, _) = run_prompt(
        &dir,
        "List the names of the tests in test/check.test.js.",
        vec![
            glob(),
            call("read", json!({"path": "test/check.test.js"})),
            glob(),
            glob(),
            "treats 404 as broken".into(),
        ],
    );
    let nudge = t.turns.last().unwrap().nudge.as_deref().unwrap_or_default();
    assert!(
        nudge.contains("bear on the request:\nconst test = require(\"node:test\");\ntest(\"treats 404 as broken\", () => {"),
        "{nudge}"
    );
    assert!(!nudge.contains("\ntest/check.test.js"), "{nudge}");
    assert!(!nudge.contains("(No tool is named"), "{nudge}");
    // A path written as a string in the code is what the code holds, not a listing's name
    // (held-out project set, readings_file: shown the lines that call `add_reading`, the model
    // answered with the file it had read instead of the readings file the code names).
    write_files(
        &dir,
        &[(
            "weatherlog/store.py",
            "\"\"\"Reading and writing the readings file (CSV: date, city, celsius).\"\"\"\n\nimport os\n\nDEFAULT_PATH = os.path.expanduser(\"~/.weatherlog.csv\")\n\n\ndef add_reading(city, celsius, path=DEFAULT_PATH):\n    pass\n\n\ndef load_readings(path=DEFAULT_PATH):\n    return []\n",
        )],
    );
    let nudge = nudge_after_reading(
        &dir,
        "weatherlog/store.py",
        "In which file does weatherlog store its readings by default?",
    );
    assert!(
        nudge.contains(
            "bear on the request:\nDEFAULT_PATH = os.path.expanduser(\"~/.weatherlog.csv\")"
        ),
        "{nudge}"
    );
    assert!(!nudge.contains("def add_reading"), "{nudge}");
    // A change request's answer says what changed: no lines.
    let (t, _) = run_prompt(
        &dir,
        "Set the default of --last to 14 in weatherlog/cli.py.",
        vec![
            call("read", json!({"path": "weatherlog/cli.py"})),
            call("read", json!({"path": "weatherlog/cli.py"})),
            call("read", json!({"path": "weatherlog/cli.py"})),
            "Done.".into(),
            "Done.".into(),
            "Done.".into(),
        ],
    );
    assert!(
        t.turns
            .iter()
            .filter_map(|r| r.nudge.as_deref())
            .all(|n| !n.contains("bear on the request")),
        "{:?}",
        t.turns
    );
}

/// A call of a real tool that fails for the model's fault, in a run whose request spells out a
/// change not made yet, gets that change beside its own message: an `edit` whose old text is
/// not in the file, or a `read` of a file that does not exist.
#[test]
fn a_failed_call_gets_the_change_the_request_spells_out() {
    let dir = tempfile::tempdir().unwrap();
    write_files(&dir, &[("todo.txt", "TODO: a\nTODO: b\n")]);
    let due = r#"{"name":"edit","arguments":{"path":"todo.txt","old_text":"TODO: b","new_text":"TODO: b\n- c"}}"#;
    let (t, _) = run_prompt(
        &dir,
        "Add the line \"- c\" at the end of todo.txt.",
        vec![
            call(
                "edit",
                json!({"path": "todo.txt", "old_text": "TODO: z", "new_text": "- c"}),
            ),
            call("read", json!({"path": "todo.md"})),
            "Done.".into(),
            "Done.".into(),
        ],
    );
    for turn in [0, 1] {
        let feedback = &t.turns[turn].calls[0].feedback;
        assert!(
            feedback.contains(&format!(
                "To make the change the user asked for, call: {due}"
            )),
            "{feedback}"
        );
    }
}

/// A file with CRLF line breaks gets the same spelled-out edit as one with LF (`edit` writes
/// the edit's `\n` as the file's CRLF): the two-line old text of an added line is found.
#[test]
fn a_spelled_out_line_is_added_to_a_crlf_file() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[("CHANGELOG.md", "# Changelog\r\n\r\n## 1.0\r\n- first\r\n")],
    );
    let due = r###"{"name":"edit","arguments":{"path":"CHANGELOG.md","old_text":"## 1.0\n- first","new_text":"## 1.0\n- second\n- first"}}"###;
    let (t, _) = run_prompt(
        &dir,
        "Add the line \"- second\" under \"## 1.0\" in CHANGELOG.md.",
        vec![call("changelog", json!({})), due.into(), "Done.".into()],
    );
    assert!(
        t.turns[0].calls[0].feedback.contains(due),
        "{:?}",
        t.turns[0]
    );
    assert!(t.turns[1].calls[0].result.is_ok(), "{:?}", t.turns[1]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("CHANGELOG.md")).unwrap(),
        "# Changelog\r\n\r\n## 1.0\r\n- second\r\n- first\r\n"
    );
}

/// Session 22, "How many notes are there?" in `examples/workspace`: after the `ls` of `notes`,
/// Qwen2.5-Coder-0.5B called a tool `groceries.md` with `{"content": "groceries.md (77
/// bytes)"}` — arguments no tool takes, so nothing runs — and was shown the `ls` of the root.
/// The message now shows the read of the file the name is. (Arguments that repeat the listing's
/// line, as those did, are a result presented as a call since session 24: see
/// `a_made_up_call_repeating_a_result_in_a_question_is_told_to_answer`.)
#[test]
fn a_file_written_as_the_tool_name_is_shown_as_its_read() {
    let dir = folder();
    write_files(
        &dir,
        &[
            ("notes/groceries.md", "- 6 eggs\n"),
            ("notes/meeting.md", "# Meeting\n"),
        ],
    );
    let t = run_prompt(
        &dir,
        "How many notes are there?",
        vec![
            call("ls", json!({"path": "notes"})),
            call("groceries.md", json!({"content": "count"})),
            r#"{"name":"read","arguments":{"path":"notes/groceries.md"}}"#.into(),
            "There are 2 notes.".into(),
        ],
    )
    .0;
    let feedback = &t.turns[1].calls[0].feedback;
    assert!(
        feedback.contains(r#"{"name":"read","arguments":{"path":"notes/groceries.md"}}"#),
        "{feedback}"
    );
    assert_eq!(t.end, EndReason::Answered, "{t:?}");
}

/// A file or folder written as the tool's name, with arguments some tool takes, runs as the
/// look at it (the same session: `config.json` with `{"path": "."}` ran the `ls` of `.`).
#[test]
fn a_folder_written_as_the_tool_name_runs_as_its_listing() {
    let dir = folder();
    write_files(&dir, &[("notes/groceries.md", "- 6 eggs\n")]);
    let (t, _) = run_prompt(
        &dir,
        "How many notes are there?",
        vec![
            call("notes", json!({"path": "."})),
            "There is 1 note.".into(),
        ],
    );
    let c = &t.turns[0].calls[0];
    assert!(c.feedback.contains("groceries.md"), "{}", c.feedback);
    assert!(
        c.feedback
            .contains("this is the result of `ls` for that name"),
        "{}",
        c.feedback
    );
}

/// Asked to add a line, a small model writes the file with only that line: the write of a file
/// the run has not read is refused with the read to make, and nothing is lost; after the read,
/// the whole new content is written.
#[test]
fn a_write_over_a_file_not_read_is_refused_with_the_read_to_make() {
    let dir = folder();
    let (t, _) = run_prompt(
        &dir,
        "Add the line \"- buy coffee\" to todo.txt.",
        vec![
            call(
                "write",
                json!({"path": "todo.txt", "content": "- buy coffee\n"}),
            ),
            call("read", json!({"path": "todo.txt"})),
            call(
                "write",
                json!({"path": "todo.txt", "content": "TODO: renew the passport\n- buy coffee\n"}),
            ),
            "Added the line.".into(),
        ],
    );
    let first = &t.turns[0].calls[0];
    assert_eq!(first.result.failure.as_ref().unwrap().kind, "invalid_args");
    assert!(
        first
            .feedback
            .contains(r#"{"name":"read","arguments":{"path":"todo.txt"}}"#),
        "{}",
        first.feedback
    );
    assert!(
        !first.feedback.contains("toolmend-example"),
        "{}",
        first.feedback
    );
    assert!(t.turns[2].calls[0].result.is_ok());
    assert_eq!(t.end, EndReason::Answered, "{t:?}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
        "TODO: renew the passport\n- buy coffee\n"
    );
}

/// Held-out city_default (session 22): asked "Make Bergen the default city of `weatherlog add`
/// in weatherlog/cli.py.", Qwen2.5-Coder-0.5B called a made-up `add` with `{"city":
/// "Bergen"}`, was shown the edit it meant, sent it — and then, told nothing more than the
/// edit's result, sent it three times again and made up more calls until the turn budget ran
/// out, the change made and no answer given. The change a made-up call meant, once shown, is
/// the change due: made, the model is told so and the next turn is for the answer.
#[test]
fn the_change_a_made_up_call_meant_once_made_is_followed_by_the_answer() {
    let dir = folder();
    write_files(
        &dir,
        &[(
            "weatherlog/cli.py",
            "import argparse\n\n\ndef main():\n    add = argparse.ArgumentParser()\n    add.add_argument(\"--city\", default=\"Oslo\")\n",
        )],
    );
    let edit = r#"{"name":"edit","arguments":{"path":"weatherlog/cli.py","old_text":"add.add_argument(\"--city\", default=\"Oslo\")","new_text":"add.add_argument(\"--city\", default=\"Bergen\")"}}"#;
    let (t, requests) = run_prompt(
        &dir,
        "Make Bergen the default city of `weatherlog add` in weatherlog/cli.py.",
        vec![
            call("add", json!({"city": "Bergen"})),
            edit.into(),
            "Bergen is now the default city.".into(),
        ],
    );
    let shown = &t.turns[0].calls[0].feedback;
    assert!(shown.contains(edit), "{shown}");
    let made = &t.turns[1].calls[0].feedback;
    assert!(made.contains("it is made"), "{made}");
    assert!(
        requests[2].tools.is_empty(),
        "the answer turn offers no tools"
    );
    assert_eq!(t.end, EndReason::Answered, "{t:?}");
}

/// Held-out version (session 22): asked "Which version of weatherlog is this?", grep showed
/// `__version__ = "0.3.1"` and a docstring about unit *conversions*; both lines were quoted as
/// bearing on the request (`version` is inside `conversions`) and the model answered with the
/// second. A request's word counts only at the start of a word of the line.
#[test]
fn a_word_inside_another_word_does_not_bear_on_the_request() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "weatherlog/__init__.py",
                "\"\"\"Log readings.\"\"\"\n\n__version__ = \"0.3.1\"\n",
            ),
            (
                "weatherlog/convert.py",
                "\"\"\"Unit conversions for temperatures given in degrees Celsius.\"\"\"\n",
            ),
        ],
    );
    let grep = || {
        call(
            "grep",
            json!({"pattern": "version", "path": "weatherlog", "ignore_case": true}),
        )
    };
    let (t, _) = run_prompt(
        &dir,
        "Which version of weatherlog is this?",
        vec![grep(), grep(), grep(), "0.3.1".into()],
    );
    let nudge = t.turns.last().unwrap().nudge.as_deref().unwrap_or_default();
    assert!(nudge.contains("__version__ = \"0.3.1\""), "{nudge}");
    assert!(!nudge.contains("conversions"), "{nudge}");
}

/// A Python-style call in a closed `<tool_call>` with more positional values than the tool has
/// parameters used to stay text — and, as the turn's only text, became the run's answer. It is
/// refused now (`TooManyValues`): the model is told what the tool takes and asked again.
#[test]
fn too_many_positional_values_in_a_closed_envelope_are_asked_again() {
    let dir = notes_folder();
    let (t, _) = run_prompt(
        &dir,
        "How many notes are there?",
        vec![
            "<tool_call>\nls(\"notes\", \"all\")\n</tool_call>".into(),
            call("ls", json!({"path": "notes"})),
            "There are 2 notes.".into(),
        ],
    );
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(t.answer.as_deref(), Some("There are 2 notes."));
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        feedback.contains("gives 2 values, but `ls` takes 1 parameter (`path`)")
            && feedback.contains("A valid call looks like this:\n{\"name\":\"ls\",\"arguments\":{"),
        "{feedback}"
    );
    assert_eq!(
        t.turns[0].calls[0].result.failure.as_ref().unwrap().kind,
        "too_many_values"
    );
}

/// Found running `toolmend run` on a small Rust crate (session 28): asked "Add a function
/// km_to_miles to src/lib.rs that divides by MILES_TO_KM.", Qwen2.5-Coder-0.5B called
/// `km_to_miles` as if it were a tool, read the file and called it again until the run ended;
/// asked to add serde to Cargo.toml's dependencies, it showed the TOML in its reply and made no
/// call. A name in code the request writes, called as a tool, is asked for as code in a block;
/// a block that lines up with the file the request names is shown back as the `edit` that puts
/// it there, and sent, makes the change.
#[test]
fn code_shown_in_a_block_is_the_edit_shown() {
    let dir = tempfile::tempdir().unwrap();
    let lib = "pub fn inches_to_cm(inches: f64) -> f64 {\n    inches * 2.54\n}\n\npub const MILES_TO_KM: f64 = 1.609;\n";
    write_files(&dir, &[("src/lib.rs", lib)]);
    let prompt = "Add a function km_to_miles to src/lib.rs that divides by MILES_TO_KM.";
    let code = "pub fn km_to_miles(km: f64) -> f64 {\n    km / MILES_TO_KM\n}";
    let edit = json!({"name": "edit", "arguments": {
        "path": "src/lib.rs",
        "old_text": "pub const MILES_TO_KM: f64 = 1.609;",
        "new_text": format!("pub const MILES_TO_KM: f64 = 1.609;\n\n{code}"),
    }})
    .to_string();
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("km_to_miles", json!({"km": {"type": "float"}})),
            format!("Here is the function:\n```rust\n{code}\n```\n").into(),
            edit.as_str().into(),
            "I added km_to_miles.".into(),
        ],
    );
    let first = &t.turns[0].calls[0];
    assert!(
        first.result.output.contains("```rust code"),
        "{}",
        first.result.output
    );
    let shown = &requests[2].messages.last().unwrap().content;
    assert!(shown.contains(&edit), "{shown}");
    assert!(t.turns[2].calls[0].result.is_ok(), "{:?}", t.turns[2]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap(),
        format!("{lib}\n{code}\n")
    );
    assert_eq!(t.answer.as_deref(), Some("I added km_to_miles."));

    // A usage example is no code to add, and a block that writes a line of the file another
    // way (the constant without `pub`) is a change, not an addition: no call shown.
    for reply in [
        "Use it like this:\n```rust\nlet miles = km_to_miles(10.0);\n```",
        "```rust\nconst MILES_TO_KM: f64 = 1.609344;\n```",
    ] {
        let (_, requests) = run_prompt(&dir, prompt, vec![reply.into(), "Done.".into()]);
        let asked = &requests[1].messages.last().unwrap().content;
        assert!(!asked.contains("\"old_text\""), "{reply}\n{asked}");
    }
    // Nor for a request that asks to change code rather than add it: its block's lines would
    // join the old ones.
    let (_, requests) = run_prompt(
        &dir,
        "Change inches_to_cm in src/lib.rs so that it rounds its result.",
        vec![
            "```rust\npub fn inches_to_cm(inches: f64) -> f64 {\n    (inches * 2.54).round()\n    inches * 2.54\n}\n```".into(),
            "Done.".into(),
        ],
    );
    let asked = &requests[1].messages.last().unwrap().content;
    assert!(!asked.contains("\"old_text\""), "{asked}");

    // A change the request spells out, answered without a call: the call that makes it comes
    // next, not a look at the file (it was read four times before the call was shown).
    write_files(
        &dir,
        &[(
            "Cargo.toml",
            "[package]\nname = \"units\"\n\n[dependencies]\n",
        )],
    );
    let edit = json!({"name": "edit", "arguments": {
        "path": "Cargo.toml", "old_text": "[dependencies]", "new_text": "[dependencies]\nserde = \"1\"",
    }})
    .to_string();
    let (t, requests) = run_prompt(
        &dir,
        "Add serde = \"1\" to the dependencies in Cargo.toml.",
        vec![
            "```toml\n[dependencies]\nserde = \"1\"\n```".into(),
            edit.as_str().into(),
            "Added.".into(),
        ],
    );
    let asked = &requests[1].messages.last().unwrap().content;
    assert!(asked.contains(&edit), "{asked}");
    assert!(t.turns[1].calls[0].result.is_ok(), "{:?}", t.turns[1]);

    // The call shown, copied on past its end (its text again, cut short): sent as shown. A copy
    // that adds a line of its own runs as written.
    let cargo = "[package]\nname = \"units\"\n\n[dependencies]\n";
    for (new_text, file) in [
        (
            "[dependencies]\nserde = \"1\"\n[dependencies]\nserde = \"1\"\n[depend",
            "[package]\nname = \"units\"\n\n[dependencies]\nserde = \"1\"\n",
        ),
        (
            "[dependencies]\nserde = \"1\"\nlog = \"0.4\"",
            "[package]\nname = \"units\"\n\n[dependencies]\nserde = \"1\"\nlog = \"0.4\"\n",
        ),
    ] {
        write_files(&dir, &[("Cargo.toml", cargo)]);
        let sent = json!({"name": "edit", "arguments": {
            "path": "Cargo.toml", "old_text": "[dependencies]", "new_text": new_text,
        }})
        .to_string();
        let (t, _) = run_prompt(
            &dir,
            "Add serde = \"1\" to the dependencies in Cargo.toml.",
            vec![sent.as_str().into(), "Added.".into()],
        );
        assert!(t.turns[0].calls[0].result.is_ok(), "{:?}", t.turns[0]);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("Cargo.toml")).unwrap(),
            file
        );
    }
}

/// Found running `toolmend run` on a small Go module (session 30): asked to add a flag,
/// Qwen2.5-Coder-0.5B called made-up tools run as `read` and `ls`, then answered with the note
/// at the head of such a result, `No tool is named `count`; this is the result of `read` with
/// the arguments you sent.` — toolmend's words, not an answer: asked again once, like any echo.
#[test]
fn a_reply_echoing_the_note_of_a_call_run_as_another_tool_is_asked_again() {
    let dir = folder();
    let args = json!({"pattern": "passport", "path": ".", "glob": null, "ignore_case": false});
    let (t, requests) = run_prompt(
        &dir,
        "Which TODO items in todo.txt are still open?",
        vec![
            call("todo.txt", args),
            "No tool is named `todo.txt`; this is the result of `grep` with the arguments you sent."
                .into(),
            "The passport.".into(),
        ],
    );
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(t.answer.as_deref(), Some("The passport."));
    assert_eq!(t.turns.len(), 3);
    let retry = requests[2].messages.last().unwrap();
    assert!(
        retry
            .content
            .starts_with("Your last reply only repeated a message sent to you"),
        "{}",
        retry.content
    );
}

/// Found running `toolmend run` on a small Go module (session 30): asked "Which function finds
/// the longest line?", Qwen2.5-Coder-0.5B searched, was shown `// MaxLineLength returns the
/// length of the longest line in s.`, and answered `grep` — the name of the tool it had called.
/// A reply that is only a tool's name answers nothing the user asked (unless the request names
/// that tool): asked again once, with the request restated.
#[test]
fn a_reply_that_is_only_a_tools_name_is_asked_again_once() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "count.go",
            "package count\n\n// MaxLineLength returns the length of the longest line in s.\nfunc MaxLineLength(s string) int {\n\treturn 0\n}\n",
        )],
    );
    let grep = || call("grep", json!({"pattern": "longest", "ignore_case": true}));
    let prompt = "Which function finds the longest line?";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![grep(), "grep".into(), "MaxLineLength.".into()],
    );
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(t.answer.as_deref(), Some("MaxLineLength."));
    let retry = requests[2].messages.last().unwrap();
    assert!(
        retry
            .content
            .starts_with("`grep` is the name of a tool you can call, not an answer.")
            && retry.content.contains(&format!("\"{prompt}\"")),
        "{}",
        retry.content
    );
    // Twice: the run ends without an answer. The message's sentence in a reply is an echo.
    let (t, _) = run_prompt(&dir, prompt, vec![grep(), "grep".into(), "`grep`.".into()]);
    assert_eq!(t.end, EndReason::Echoed);
    assert_eq!(t.answer, None);
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            grep(),
            "grep".into(),
            "The function `grep` is the name of a tool you can call, not an answer.".into(),
            "MaxLineLength.".into(),
        ],
    );
    let asked = &requests[3].messages.last().unwrap().content;
    assert!(
        asked.starts_with("Your last reply only repeated"),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("MaxLineLength."));
    // A request that names the tool may get its name as the answer.
    let (t, _) = run_prompt(
        &dir,
        "Which tool searches the files, grep or glob?",
        vec![grep(), "grep".into()],
    );
    assert_eq!(t.answer.as_deref(), Some("grep"));
    // The tool's name as the one word after "is" of a one-line answer (the tally set,
    // session 32): asked again too.
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            grep(),
            "The function that finds the longest line is `grep`.".into(),
            "MaxLineLength.".into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some("MaxLineLength."));
    assert!(
        requests[2]
            .messages
            .last()
            .unwrap()
            .content
            .starts_with("`grep` is the name of a tool"),
        "{}",
        requests[2].messages.last().unwrap().content
    );
    // Words after "is": an answer.
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![grep(), "The function is MaxLineLength in count.go.".into()],
    );
    assert_eq!(
        t.answer.as_deref(),
        Some("The function is MaxLineLength in count.go.")
    );
}

/// Found running `toolmend run` on a small Go module (session 30): asked "What does the Text
/// function return?", Qwen2.5-Coder-0.5B answered without a look and was offered a search for
/// `return` (a plain word on few lines) — every `return` of the module, none of them `Text`'s.
/// A capitalised word next to a word naming a kind of code (`function`, `struct`, `method`, …)
/// is a name in code, searched for before the plain words.
#[test]
fn a_capitalised_name_next_to_a_kind_of_code_is_the_word_searched_for() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "count/count.go",
                "package count\n\n// Text counts the lines of s.\nfunc Text(s string) Counts {\n\treturn Counts{}\n}\n\nfunc Max(s string) int {\n\treturn 0\n}\n",
            ),
            (
                "README.md",
                "# tally\n\nCounts the text of files, which is read whole.\n",
            ),
        ],
    );
    let want = r#"{"name":"grep","arguments":{"pattern":"text","ignore_case":true}}"#;
    for prompt in [
        "What does the Text function return?",
        "What does the function Text return?",
    ] {
        let asked = asked_after_answer(&dir, prompt, "A string.", "Counts.");
        assert!(asked.ends_with(want), "{prompt}: {asked}");
    }
    // A capital word that opens the request is no name ("Which function …").
    let asked = asked_after_answer(&dir, "Which function reads whole?", "Max.", "None.");
    assert!(
        asked.ends_with(r#"{"name":"grep","arguments":{"pattern":"whole","ignore_case":true}}"#),
        "{asked}"
    );
}

/// Found running `toolmend run` on a Go module (session 30): asked "Add bin/ to the
/// gitignore." where `.gitignore` had the line already, Qwen2.5-Coder-0.5B called a tool named
/// `bin/`, read the file, echoed the request, was asked to make the change, sent an edit of
/// `bin/` to `bin/`, and answered `bin/`. A change that is already so is said to be: in the
/// message of a call the model got wrong, and in place of the request to make it.
#[test]
fn a_change_that_is_already_so_is_said_to_be() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(".gitignore", "bin/\n*.out\n"), ("go.mod", "module x\n")],
    );
    let prompt = "Add bin/ to the gitignore.";
    let so = "The change the user asked for is already so: `.gitignore` already has the line \
              `bin/`. Nothing needs to change; tell the user that in plain text.";
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("bin/", json!({})),
            "`.gitignore` already lists bin/.".into(),
        ],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(feedback.ends_with(so), "{feedback}");
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(t.turns.len(), 2);
    // An answer that does not say so is asked again once, told that it is.
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": ".gitignore"})),
            "Done.".into(),
            "It is there already.".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.contains("nothing needs to be")
            && asked.contains("`.gitignore` already has the line `bin/`."),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("It is there already."));
    // The request echoed: asked again, told it is so.
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": ".gitignore"})),
            prompt.into(),
            "Done.".into(),
            "Nothing to add.".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with("Your last reply only repeated") && asked.ends_with(so),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("Nothing to add."));
    // A value already set; a line to add that is new gets the edit, not this.
    write_files(&dir, &[("config.json", "{\n  \"debug\": true\n}\n")]);
    let (_, requests) = run_prompt(
        &dir,
        "Set debug to true in config.json.",
        vec![
            call("read", json!({"path": "config.json"})),
            "Done.".into(),
            "Ok.".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.contains("`config.json` already has `\"debug\": true`."),
        "{asked}"
    );
    let (t, _) = run_prompt(
        &dir,
        "Add dist/ to the gitignore.",
        vec![call("dist/", json!({})), "Done.".into(), "Done.".into()],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    assert!(
        !feedback.contains("already so") && feedback.contains(r#""new_text":"*.out\ndist/""#),
        "{feedback}"
    );
}

/// Found running `toolmend run` on a Go module (session 30): asked "Change the CI to use Go
/// 1.22.", Qwen2.5-Coder-0.5B answered with steps for editing go.mod and made no call. The
/// request names nothing in the folder, but its change is grounded in one file there (the
/// workflow's `go-version`): an answer that changes nothing is asked again once, with that
/// call.
#[test]
fn a_change_grounded_in_a_file_the_request_does_not_name_is_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            ("go.mod", "module example.com/tally\n\ngo 1.21\n"),
            (
                ".github/workflows/ci.yml",
                "jobs:\n  test:\n    steps:\n      - uses: actions/setup-go@v5\n        with:\n          go-version: \"1.21\"\n",
            ),
        ],
    );
    let (t, requests) = run_prompt(
        &dir,
        "Change the CI to use Go 1.22.",
        vec![
            "Open go.mod and change the go line to 1.22.".into(),
            "Done.".into(),
        ],
    );
    assert_eq!(requests.len(), 2, "{t:?}");
    let asked = &requests[1].messages.last().unwrap().content;
    assert!(
        asked.starts_with("Nothing has been changed yet")
            && asked.contains(r#""new_text":"go-version: \"1.22\"""#),
        "{asked}"
    );
}

/// Found with the tally set (`examples/tasks-tally.jsonl`, session 30): asked "What does the
/// MaxLineLength function do?", Qwen2.5-Coder-0.5B searched, then read README.md and answered
/// with its whole output, line numbers and all; asked "Which file has the tests for the count
/// package?", it answered with the listing of the root. A reply that copies a tool's output
/// whole answers no question that asks for one thing: asked again once, with the lines that
/// bear on the request. A question that asks for the contents may get them.
#[test]
fn a_reply_that_copies_a_tools_output_is_asked_again_once() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "count.go",
                "package count\n\n// MaxLineLength returns the length of the longest line in s.\nfunc MaxLineLength(s string) int {\n\treturn 0\n}\n",
            ),
            (
                "README.md",
                "# tally\n\nA small `wc` clone written in Go.\n\nFlags: `-l` lines, `-w` words.\n",
            ),
        ],
    );
    let prompt = "What does the MaxLineLength function do?";
    let copy = "1\t# tally\n2\t\n3\tA small `wc` clone written in Go.\n4\t\n5\tFlags: `-l` lines, `-w` words.";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call(
                "grep",
                json!({"pattern": "maxlinelength", "ignore_case": true}),
            ),
            call("read", json!({"path": "README.md"})),
            copy.into(),
            "It returns the length of the longest line.".into(),
        ],
    );
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(
        t.answer.as_deref(),
        Some("It returns the length of the longest line.")
    );
    let retry = &requests[3].messages.last().unwrap().content;
    assert!(
        retry.starts_with("Your last reply copied the output of `read`")
            && retry.contains(&format!("\"{prompt}\""))
            && retry.contains("MaxLineLength returns the length of the longest line in s."),
        "{retry}"
    );
    // Twice: the second copy stands (asked once).
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "README.md"})),
            copy.into(),
            copy.into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some(copy));
    // A JSON file copied with its lines joined (a PHP library, session 39: asked which image
    // the Dockerfile starts from, the model answered with composer.json).
    write_files(
        &dir,
        &[(
            "composer.json",
            "{\n    \"name\": \"acme/tally\",\n    \"require\": {\n        \"php\": \">=8.1\",\n        \"brick/money\": \"^0.8\"\n    }\n}\n",
        )],
    );
    let joined =
        "{\"name\": \"acme/tally\", \"require\": {\"php\": \">=8.1\", \"brick/money\": \"^0.8\"}}";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "composer.json"})),
            joined.into(),
            "It returns the length of the longest line.".into(),
        ],
    );
    assert_eq!(
        t.answer.as_deref(),
        Some("It returns the length of the longest line.")
    );
    let retry = &requests[2].messages.last().unwrap().content;
    assert!(
        retry.starts_with("Your last reply copied the output of `read`"),
        "{retry}"
    );
    // A listing copied whole for "which file", sizes left out.
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    let listing = "README.md\ncount.go\ndocs";
    let (t, requests) = run_prompt(
        &dir,
        "Which file has the tests for the count package?",
        vec![
            call("ls", json!({"path": "."})),
            listing.into(),
            "count.go".into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some("count.go"));
    let retry = &requests[2].messages.last().unwrap().content;
    assert!(
        retry.starts_with("Your last reply copied the output of `ls`"),
        "{retry}"
    );
    // Asked for the contents, or for several things, the copy is the answer.
    for prompt in [
        "What is in README.md?",
        "Show me README.md?",
        "Which lines of README.md are not empty?",
    ] {
        let (t, requests) = run_prompt(
            &dir,
            prompt,
            vec![call("read", json!({"path": "README.md"})), copy.into()],
        );
        assert_eq!(t.answer.as_deref(), Some(copy), "{prompt}");
        assert_eq!(requests.len(), 2, "{prompt}");
    }
}

/// Found with the tally set (session 30): asked "Which Go version does the module require?",
/// Qwen2.5-Coder-0.5B searched for `require`, was shown `go.mod (line 5): require
/// github.com/spf13/pflag v1.0.5`, and answered `Go 1.17.1` — a version no result holds (go.mod
/// says `go 1.21`). A version or decimal in an answer to a question that no tool result, nor
/// the request, holds was made up: asked again once, with the look at the file the results
/// came from.
#[test]
fn a_number_no_result_holds_is_asked_about_once() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "go.mod",
            "module example.com/tally\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.5\n",
        )],
    );
    let prompt = "Which Go version does the module require?";
    let grep = || call("grep", json!({"pattern": "require", "ignore_case": true}));
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            grep(),
            "Go 1.17.1".into(),
            call("read", json!({"path": "go.mod"})),
            "Go 1.21.".into(),
        ],
    );
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(t.answer.as_deref(), Some("Go 1.21."));
    let retry = &requests[2].messages.last().unwrap().content;
    assert!(
        retry.starts_with("`1.17.1` is in none of the tool results")
            && retry.contains(&format!("\"{prompt}\""))
            && retry.contains(r#"{"name":"read","arguments":{"path":"go.mod"}}"#),
        "{retry}"
    );
    // A number the results hold stands, and so does one the request holds.
    for (prompt, answer) in [
        (prompt, "The module requires pflag v1.0.5."),
        (
            "Does the module require Go 1.17.1 or later?",
            "No, 1.17.1 is not named.",
        ),
    ] {
        let (t, requests) = run_prompt(&dir, prompt, vec![grep(), answer.into()]);
        assert_eq!(t.answer.as_deref(), Some(answer), "{prompt}");
        assert_eq!(requests.len(), 2, "{prompt}");
    }
    // A sum is worked out, not read.
    let (t, _) = run_prompt(
        &dir,
        "What is the total of 1.5 and the pflag minor version?",
        vec![grep(), "1.5".into()],
    );
    assert_eq!(t.answer.as_deref(), Some("1.5"));
    // Asked once: the second made-up number stands.
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![grep(), "Go 1.17.1".into(), "Go 1.19".into()],
    );
    assert_eq!(t.answer.as_deref(), Some("Go 1.19"));
}

/// Found with the tally set (session 30): asked "Which file has the tests for the count
/// package?", Qwen2.5-Coder-0.5B was offered the read of `internal/count/count.go` (the file
/// the word `count` names by its stem) and never saw `count_test.go`. A question that asks
/// which file wants a file as its answer: the look at what the request names is the folder's
/// search or listing, not the read of one file in it.
#[test]
fn a_question_asking_which_file_looks_at_the_named_folder_not_one_file() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "internal/count/count.go",
                "package count\n\n// Text counts the lines of s.\nfunc Text(s string) int {\n\treturn 0\n}\n",
            ),
            (
                "internal/count/count_test.go",
                "package count\n\nimport \"testing\"\n\nfunc TestText(t *testing.T) {}\n",
            ),
            ("go.mod", "module example.com/tally\n\ngo 1.21\n"),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "Which file has the tests for the count package?",
        "count.go",
        "internal/count/count_test.go",
    );
    assert!(!asked.contains("\"read\""), "{asked}");
    assert!(asked.contains("internal/count"), "{asked}");
}

/// Found with the tally set (session 30): asked "Which function finds the longest line?",
/// Qwen2.5-Coder-0.5B searched for `longest` (the offered look) and was shown every line of
/// the function that uses the word; asked "Which flag prints the word count?", it was offered
/// the read of `count.go` (`count` names it by its stem) while the flag's help, `print the
/// word count`, is in main.go. Two words of the request next to each other found in a file
/// name what it asks about more closely than either word, and more closely than a file named
/// by its stem that does not hold them: the look is the search for the phrase.
#[test]
fn a_phrase_of_the_request_found_in_a_file_is_the_search_offered() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "internal/count/count.go",
                "package count\n\n// MaxLineLength returns the length of the longest line in s.\nfunc MaxLineLength(s string) int {\n\tlongest := 0\n\treturn longest\n}\n",
            ),
            (
                "cmd/tally/main.go",
                "package main\n\nfunc main() {\n\twords := flag.BoolP(\"words\", \"w\", false, \"print the word count\")\n\tlines := flag.BoolP(\"lines\", \"l\", false, \"print the line count\")\n}\n",
            ),
        ],
    );
    for (prompt, pattern) in [
        ("Which function finds the longest line?", "longest line"),
        ("Which flag prints the word count?", "word count"),
    ] {
        assert_search_offered(&dir, prompt, pattern);
    }
    // A phrase found nowhere leaves the word search as it was.
    let asked = asked_after_answer(
        &dir,
        "Which function finds the longest row?",
        "I do not know.",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"grep","arguments":{"pattern":"longest","ignore_case":true}}"#),
        "{asked}"
    );
}

/// Found with a Kotlin/Gradle application (session 40): asked "What is the application's main
/// class?", Qwen2.5-Coder-0.5B was offered the read of `Main.kt` (`main` names it by its stem);
/// the answer is the build file's `mainClass.set("packtrack.MainKt")`. A phrase of the request
/// found nowhere as written but joined as code writes it (`mainClass`, `main_class`,
/// `main-class`) is the search offered, in any of those forms. Asked "Which mocking library do
/// the tests use?", it searched `test`: a gerund the files lack is searched by its stem; asked
/// "Which exception is thrown when a shipment cannot be found?", `cannot`, which is in another
/// exception's message: a negated verb is the phrase `not found`; asked "Which JVM version is
/// the project compiled for?", `version`, and answered the Kotlin plugin's `2.0.21`.
#[test]
fn a_phrase_joined_as_code_writes_it_is_the_search_offered() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/main/kotlin/app/Main.kt",
                "package app\n\nfun main(args: Array<String>) {\n    println(\"hi\")\n}\n",
            ),
            (
                "build.gradle.kts",
                "plugins {\n    kotlin(\"jvm\") version \"2.0.21\"\n    application\n}\n\nkotlin {\n    jvmToolchain(17)\n}\n\ndependencies {\n    testImplementation(kotlin(\"test\"))\n    testImplementation(\"io.mockk:mockk:1.13.12\")\n}\n\napplication {\n    mainClass.set(\"app.MainKt\")\n}\n",
            ),
            (".editorconfig", "[*.kt]\nmax_line_length = 120\n"),
            (
                "src/main/kotlin/app/Shipment.kt",
                "package app\n\ndata class Shipment(val id: String)\n",
            ),
            (
                "src/main/kotlin/app/Errors.kt",
                "package app\n\nclass TrackingNotFoundException(id: String) : RuntimeException(\"no shipment $id\")\n\nclass UnknownCarrierException(id: String) : IllegalArgumentException(\"cannot tell the carrier of $id\")\n",
            ),
        ],
    );
    for (prompt, pattern) in [
        ("What is the application's main class?", "main[._-]?class"),
        (
            "What is the maximum line length for Kotlin files?",
            "line[._-]?length",
        ),
        // A gerund found nowhere: its stem (`mockk`, not every line of `test`).
        ("Which mocking library do the tests use?", "mock"),
        // A version question: what it is the version of, where the files write no "JVM
        // version" (the search for `version` showed only the plugins' versions).
        ("Which JVM version is the project compiled for?", "jvm"),
        // A negated verb: `not found` (not `cannot`, the other exception's message).
        (
            "Which exception is thrown when a shipment cannot be found?",
            "not[._-]?found",
        ),
    ] {
        assert_search_offered(&dir, prompt, pattern);
    }
}

/// Found with a Django project and a C++/CMake daemon (session 41): asked "Which message broker
/// does Celery use?", Qwen2.5-Coder-0.5B was offered the read of `pantry/celery.py` (named by
/// its stem), which holds no broker, and answered RabbitMQ; the broker is settings.py's
/// `CELERY_BROKER_URL`. Asked "At what time of day are the expiry alerts sent?", it searched
/// `day`; "Which version of fmt is fetched?", `version`, and answered CMakePresets.json's `6`;
/// "What is the sampling interval in milliseconds?", `milliseconds`, which showed the code's
/// default (1000), not the config's `interval_ms = 2000`.
#[test]
fn a_version_of_a_thing_a_time_of_day_and_a_stems_lacked_word_are_searched_for() {
    let pantry = tempfile::tempdir().unwrap();
    write_files(
        &pantry,
        &[
            (
                "README.md",
                "# pantry\n\nItems, donations and expiry alerts.\n",
            ),
            (
                "pantry/celery.py",
                "from celery import Celery\n\napp = Celery(\"pantry\")\napp.conf.beat_schedule = {\n    \"expiry-alerts\": {\n        \"task\": \"stock.tasks.send_expiry_alerts\",\n        \"schedule\": crontab(hour=7, minute=30),\n    },\n}\n",
            ),
            (
                "pantry/settings.py",
                "TIME_ZONE = \"Europe/Amsterdam\"\nCELERY_BROKER_URL = \"redis://localhost:6379/1\"\nEXPIRY_WARNING_DAYS = 3\n",
            ),
            (
                "stock/models.py",
                "def expires_soon(self, today=None):\n    return self.expires_on - today <= timedelta(days=settings.EXPIRY_WARNING_DAYS)\n",
            ),
        ],
    );
    let sensord = tempfile::tempdir().unwrap();
    write_files(
        &sensord,
        &[
            (
                "CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.20)\nproject(sensord VERSION 2.1.0)\nFetchContent_Declare(fmt\n  GIT_TAG 10.2.1)\ntarget_link_libraries(sensord PRIVATE fmt::fmt)\n",
            ),
            ("CMakePresets.json", "{\n  \"version\": 6\n}\n"),
            ("config/sensord.toml", "[sampling]\ninterval_ms = 2000\n"),
            (
                "src/config.hpp",
                "struct Config {\n    std::chrono::milliseconds interval{1000};\n};\n",
            ),
            (
                "src/main.cpp",
                "#include <fmt/core.h>\nint main() { fmt::print(\"hi\"); }\n",
            ),
        ],
    );
    for (dir, prompt, pattern) in [
        (&pantry, "Which message broker does Celery use?", "broker"),
        (
            &pantry,
            "At what time of day are the expiry alerts sent?",
            "expiry[ ._-]?alerts",
        ),
        (&sensord, "Which version of fmt is fetched?", "fmt"),
        (
            &sensord,
            "What is the sampling interval in milliseconds?",
            "interval",
        ),
    ] {
        assert_search_offered(dir, prompt, pattern);
    }
}

/// Found again with a .NET API (session 40, its dev_port task; fixed in session 41): asked
/// "Which port does the API listen on during development?", the search offered was for
/// `development`, which showed `"ASPNETCORE_ENVIRONMENT": "Development"`; no line says "port",
/// and the port is launchSettings.json's `"applicationUrl": "http://localhost:5080"`. A port
/// question where `port` is on no line searches for a port as an address writes it.
#[test]
fn a_port_no_line_names_is_searched_as_an_address_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/Api/Properties/launchSettings.json",
                "{\n  \"profiles\": {\n    \"Api\": {\n      \"applicationUrl\": \"http://localhost:5080\",\n      \"environmentVariables\": {\n        \"ASPNETCORE_ENVIRONMENT\": \"Development\"\n      }\n    }\n  }\n}\n",
            ),
            (
                "src/Api/Program.cs",
                "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "Which port does the API listen on during development?",
        "I do not know.",
        "Done.",
    );
    assert!(
        asked.ends_with(
            r#"{"name":"grep","arguments":{"pattern":":[0-9]{4,5}\\b","ignore_case":true}}"#
        ),
        "{asked}"
    );
}

/// Found with a C++/CMake daemon (session 41): asked "Which version of fmt is fetched?",
/// shown `FetchContent_Declare(fmt` and, in the block it opens, `GIT_TAG 10.2.1)`,
/// Qwen2.5-Coder-0.5B answered `fmt` — no version at all — and the loop took it. An answer to
/// a version question that writes no number, when the results' bearing lines write a version,
/// is asked once for the version, the lines with it, and the turn is for the answer.
#[test]
fn a_version_questions_answer_without_a_version_is_asked_for_one() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "CMakeLists.txt",
            "project(sensord VERSION 2.1.0)\nFetchContent_Declare(fmt\n  GIT_REPOSITORY https://github.com/fmtlib/fmt.git\n  GIT_TAG 10.2.1)\nFetchContent_MakeAvailable(fmt)\n",
        )],
    );
    let (t, requests) = run_prompt(
        &dir,
        "Which version of fmt is fetched?",
        vec![
            call("grep", json!({"pattern": "fmt", "ignore_case": true})),
            "fmt".into(),
            "10.2.1".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`fmt` gives no version") && asked.contains("GIT_TAG 10.2.1"),
        "{asked}"
    );
    assert!(requests[2].tools.is_empty());
    assert_eq!(t.answer.as_deref(), Some("10.2.1"));
    // An answer with a number stands.
    let (t, requests) = run_prompt(
        &dir,
        "Which version of fmt is fetched?",
        vec![
            call("grep", json!({"pattern": "fmt", "ignore_case": true})),
            "10.2.1".into(),
        ],
    );
    assert_eq!((t.answer.as_deref(), requests.len()), (Some("10.2.1"), 2));
}

/// Found with a Swift package (session 42): asked "What is the minimum macOS version the
/// package supports?", shown Package.swift, Qwen2.5-Coder-0.5B answered `1.5.4` — the version
/// on swift-log's line, not `.macOS(.v13)`. A version question's answer written only on lines
/// about something else, when lines about what it asks hold a number, is asked once again,
/// pointed at those lines.
#[test]
fn a_version_answer_from_a_line_about_something_else_is_pointed_at_the_asked_ones() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "Package.swift",
            "// swift-tools-version:5.9\nlet package = Package(\n    platforms: [\n        .macOS(.v13),\n    ],\n    dependencies: [\n        .package(url: \"https://github.com/apple/swift-log\", from: \"1.5.4\"),\n    ]\n)\n",
        )],
    );
    let prompt = "What is the minimum macOS version the package supports?";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "Package.swift"})),
            "1.5.4".into(),
            "macOS 13".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`1.5.4` is the version on a line about something else, not macos")
            && asked.contains("`.macOS(.v13),`"),
        "{asked}"
    );
    assert!(requests[2].tools.is_empty());
    assert_eq!(t.answer.as_deref(), Some("macOS 13"));
    // An answer from the line about it stands; so does one to a question about the package's
    // own version.
    for (prompt, answer) in [
        (prompt, "13"),
        (
            "Which swift-tools version does the manifest declare?",
            "5.9",
        ),
    ] {
        let (t, requests) = run_prompt(
            &dir,
            prompt,
            vec![
                call("read", json!({"path": "Package.swift"})),
                answer.into(),
            ],
        );
        assert_eq!(
            (t.answer.as_deref(), requests.len()),
            (Some(answer), 2),
            "{prompt}"
        );
    }
}

/// Found with a Swift package (session 42): asked "Which base URL does the API client use?",
/// shown `Config(baseURL: URL(string: "https://api.skylog.dev/v2")!)`, Qwen2.5-Coder-0.5B
/// answered `https://api.skylog.dev`, and the loop took it. An answer that is a URL the results
/// write cut before its path is asked once for the whole.
#[test]
fn a_url_cut_before_its_path_is_asked_for_whole() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "Config.swift",
            "public static let standard = Config(baseURL: URL(string: \"https://api.skylog.dev/v2\")!)\n",
        )],
    );
    let prompt = "Which base URL does the API client use?";
    let search = call(
        "grep",
        json!({"pattern": "base[._-]?url", "ignore_case": true}),
    );
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            search.clone(),
            "https://api.skylog.dev".into(),
            "https://api.skylog.dev/v2".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with(
            "`https://api.skylog.dev` is only the start of `https://api.skylog.dev/v2`, the URL"
        ),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("https://api.skylog.dev/v2"));
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![search, "https://api.skylog.dev/v2".into()],
    );
    assert_eq!(
        (t.answer.as_deref(), requests.len()),
        (Some("https://api.skylog.dev/v2"), 2)
    );
}

/// Found with a Helm chart (session 43, memory_limit and container_port): asked "What is the
/// default memory limit of the container?", shown `limits:` with `cpu: 500m` and `memory:
/// 256Mi` under it, Qwen2.5-Coder-0.5B answered `500m`; asked "On which port does the container
/// listen?", it answered the Service's `port: 8080` beside `containerPort: 3000`. An answer
/// giving the value of a setting whose key names less of the question than another's is
/// pointed, once, at that one.
#[test]
fn the_value_of_a_setting_the_question_does_not_name_is_pointed_at_the_one_it_does() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "values.yaml",
                "service:\n  port: 8080\nresources:\n  limits:\n    cpu: 500m\n    memory: 256Mi\n  requests:\n    cpu: 100m\n    memory: 128Mi\n",
            ),
            (
                "templates/deployment.yaml",
                "          ports:\n            - name: http\n              containerPort: 3000\n",
            ),
        ],
    );
    let prompt = "What is the default memory limit of the container?";
    let search = call("grep", json!({"pattern": "limit", "ignore_case": true}));
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![search.clone(), "500m".into(), "256Mi".into()],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with(
            "`500m` is the value of `cpu: 500m`, a setting the user's question does not ask about."
        ) && asked.contains("`memory: 256Mi`")
            && !asked.contains("128Mi"),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("256Mi"));
    let (t, requests) = run_prompt(&dir, prompt, vec![search, "256Mi".into()]);
    assert_eq!((t.answer.as_deref(), requests.len()), (Some("256Mi"), 2));
    let prompt = "On which port does the container listen?";
    let search = call("grep", json!({"pattern": "port", "ignore_case": true}));
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![search.clone(), "Port 8080.".into(), "3000".into()],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(asked.contains("`containerPort: 3000`"), "{asked}");
    assert_eq!(t.answer.as_deref(), Some("3000"));
}

/// Found with an Ansible role (session 45, molecule_image): asked "Which container image do the
/// Molecule tests run in?", shown `molecule.yml`, the lines shown as bearing were its
/// `test_sequence:` block (`image` is on two lines, `test` on one), and Qwen2.5-Coder-0.5B
/// answered `docker`. Lines setting a key made of the question's words alone come first.
#[test]
fn a_line_keyed_by_the_questions_words_bears_on_it_first() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "molecule/default/molecule.yml",
            "driver:\n  name: docker\nplatforms:\n  - name: harbor-ubuntu2204\n    image: geerlingguy/docker-ubuntu2204-ansible:latest\n    pre_build_image: true\nscenario:\n  test_sequence:\n    - destroy\n    - converge\n",
        )],
    );
    let prompt = "Which container image do the Molecule tests run in?";
    let read = call("read", json!({"path": "molecule/default/molecule.yml"}));
    let (_, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            read.clone(),
            read.clone(),
            read.clone(),
            read,
            "docker".into(),
        ],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    assert!(
        asked.contains("image: geerlingguy/docker-ubuntu2204-ansible:latest")
            && !asked.contains("test_sequence"),
        "{asked}"
    );
}

/// Found with a Nim daemon (session 52, mqtt_keepalive_default): asked "What MQTT keepalive
/// interval does fjord use by default when nothing is configured, in seconds?", the search for
/// `keepalive` showed `DefaultKeepAliveSecs* = 35`, but the line shown as bearing was
/// `result.set_ping_interval(opts.keepaliveSecs)`, and Qwen2.5-Coder-0.5B answered `15` (the
/// development config's). `KeepAlive` is the question's "keepalive", and asked for a default, a
/// line setting a name that says it is the default comes first.
#[test]
fn a_default_named_setting_bears_on_a_question_about_the_default() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/fjord/mqtt_client.nim",
                "const\n  DefaultKeepAliveSecs* = 35\n\nproc newContext(opts: MqttOptions): MqttCtx =\n  result.set_ping_interval(opts.keepaliveSecs)\n",
            ),
            ("config/fjord.toml", "[mqtt]\nkeepalive_secs = 15\n"),
        ],
    );
    let grep = call("grep", json!({"pattern": "keepalive", "ignore_case": true}));
    let (_, requests) = run_prompt(
        &dir,
        "What MQTT keepalive interval does fjord use by default when nothing is configured, in seconds?",
        vec![grep.clone(), grep.clone(), grep, "I do not know.".into()],
    );
    let asked = &requests[3].messages.last().unwrap().content;
    assert_eq!(
        bearing_lines(asked).trim(),
        "src/fjord/mqtt_client.nim (line 2):   DefaultKeepAliveSecs* = 35",
        "{asked}"
    );
}

/// Found with a Nim daemon (session 52, default_flush_interval): asked "Out of the box, how long
/// does fjord wait before writing a batch that isn't full yet? Give the value in
/// milliseconds.", the run took the request for no question (it ends with a sentence saying how
/// to answer) and accepted `2000` without a look; and a Nim doc comment (`##`, which follows what
/// it documents) was shown with the constant below it. The question is read without that last
/// sentence, and a `##` comment brings the line it is indented under.
#[test]
fn a_question_with_how_to_answer_is_a_question_and_nim_doc_comments_document_the_line_above() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "src/fjord/config.nim",
            "const\n  DefaultBatchSize* = 750\n  DefaultFlushIntervalMs* = 2500\n    ## A partial batch is written after this long even if it is not full.\n  DefaultMaxBuffered* = 60_000\n",
        )],
    );
    let prompt = "Out of the box, how long does fjord wait before writing a batch that isn't full yet? Give the value in milliseconds.";
    assert!(toolmend::agent::correct::is_question(prompt));
    assert_search_offered(&dir, prompt, "not full");
    let grep = call("grep", json!({"pattern": "not full", "ignore_case": true}));
    let (_, requests) = run_prompt(
        &dir,
        prompt,
        vec![grep.clone(), grep.clone(), grep, "I do not know.".into()],
    );
    let asked = &requests[3].messages.last().unwrap().content;
    assert_eq!(
        bearing_lines(asked).trim(),
        "src/fjord/config.nim (line 3, above the comment on line 4): DefaultFlushIntervalMs* = 2500",
        "{asked}"
    );
}

/// Found with a Nim daemon (session 52, min_nim_version): asked "What's the oldest Nim version
/// fjord can be built with?", the look searched `nim[._-]?version`, which only the workflow's
/// `nim-version: ${{ matrix.nim }}` holds, and Qwen2.5-Coder-0.5B answered `1.1.0` from nothing.
/// A line naming the phrase but writing no number tells no version: the look searches the
/// subject (`nim`: the fjord set's first look, replayed), and of its lines the one writing a
/// lower bound (`requires "nim >= 2.0.4"`) bears on "oldest" (not the README's "Nim 2.0 or
/// newer (see `fjord.nimble` for the exact minimum)").
#[test]
fn the_oldest_version_is_the_lower_bound_a_line_writes() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "README.md",
                "# fjord\n\n## Building\n\n- Nim 2.0 or newer (see `fjord.nimble` for the exact minimum) and nimble\n",
            ),
            (
                "fjord.nimble",
                "version = \"0.7.3\"\nrequires \"nim >= 2.0.4\"\nrequires \"jsony == 1.1.5\"\n",
            ),
            (
                ".github/workflows/ci.yml",
                "jobs:\n  test:\n    strategy:\n      matrix:\n        nim: [\"2.0.4\", \"2.2.2\"]\n    steps:\n      - uses: jiro4989/setup-nim-action@v2\n        with:\n          nim-version: ${{ matrix.nim }}\n",
            ),
        ],
    );
    let prompt = "What's the oldest Nim version fjord can be built with?";
    let grep = call("grep", json!({"pattern": "nim", "ignore_case": true}));
    let (_, requests) = run_prompt(
        &dir,
        prompt,
        vec![grep.clone(), grep.clone(), grep, "I do not know.".into()],
    );
    let asked = &requests[3].messages.last().unwrap().content;
    assert_eq!(
        bearing_lines(asked).trim(),
        "fjord.nimble (line 2): requires \"nim >= 2.0.4\"",
        "{asked}"
    );
}

/// Found with a Rust workspace (session 53, msrv): asked "What's the oldest Rust version cinder
/// officially supports?", the read of Cargo.toml showed as bearing only reqwest's line — its
/// `rustls-tls` begins with "rust" — and of it and `rust-version = "1.76"` the line of the lowest
/// version was kept; Qwen2.5-Coder-0.5B answered `1.0.14`. The subject before "version" is a
/// name, held whole.
#[test]
fn the_version_subject_is_held_whole() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "Cargo.toml",
            "[workspace.package]\nversion = \"0.8.2\"\nedition = \"2021\"\nrust-version = \"1.76\"\n\n[workspace.dependencies]\nclap = { version = \"4.5.9\", features = [\"derive\"] }\nreqwest = { version = \"0.12.5\", default-features = false, features = [\"json\", \"rustls-tls\"] }\n",
        )],
    );
    let prompt = "What's the oldest Rust version cinder officially supports?";
    let read = call("read", json!({"path": "Cargo.toml"}));
    let (_, requests) = run_prompt(
        &dir,
        prompt,
        vec![read.clone(), read.clone(), read, "I do not know.".into()],
    );
    let asked = &requests[3].messages.last().unwrap().content;
    assert_eq!(
        bearing_lines(asked).trim(),
        "rust-version = \"1.76\"",
        "{asked}"
    );
}

/// Found with a Perl distribution (session 52, report_top_default): asked "How many endpoints
/// does quarry's report list when I don't tell it how many to show?", the search for
/// `endpoints` showed the option's help ("Show the N slowest endpoints … Default: 25."), and
/// the one line shown as bearing was production's `max_endpoints = 8192`: the example's
/// commented `; max_endpoints = 2048` holds "endpoints" only inside that name, which it does
/// not describe. A name holding the asked-for word is not a name its line's words describe.
#[test]
fn a_name_holding_the_asked_word_is_not_described_by_its_line() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "bin/quarry",
                "#!/usr/bin/env perl\n# --top N  Show the N slowest endpoints in each report. Default: 25.\n",
            ),
            (
                "etc/quarry.conf.example",
                "[window]\n; max_endpoints = 2048\n",
            ),
            ("etc/quarry.prod.conf", "[window]\nmax_endpoints = 8192\n"),
        ],
    );
    let grep = call("grep", json!({"pattern": "endpoints", "ignore_case": true}));
    let (_, requests) = run_prompt(
        &dir,
        "How many endpoints does quarry's report list when I don't tell it how many to show?",
        vec![grep.clone(), grep.clone(), grep, "2048".into()],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert!(
        shown.contains("Default: 25.") && !shown.contains("8192"),
        "{asked}"
    );
}

/// Found with a Dart client (session 45, cache_entries and cache_ttl): asked "How many
/// responses does the cache hold by default?" and "How many seconds are cached responses kept
/// by default?", shown `cache.dart`, the lines shown as bearing began with a doc comment's ("A
/// response body kept in the cache …"), and Qwen2.5-Coder-0.5B answered `25` to both. For a
/// question asking how many, the lines writing a number come first; a line setting a name that
/// a line holding what is asked for writes as code (`[maxEntries] responses are stored`) bears
/// on it (`this.maxEntries = 256,`).
#[test]
fn a_question_of_how_many_is_shown_the_lines_writing_numbers() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "lib/src/store.dart",
            "/// A response body kept in the store with the time it was stored.\n\
             class StoredResponse {\n\
             \x20 StoredResponse(this.body);\n\
             \x20 final String body;\n\
             }\n\
             \n\
             /// In-memory store of responses.\n\
             ///\n\
             /// When more than [maxEntries] responses are stored the oldest is dropped.\n\
             class ResponseStore {\n\
             \x20 ResponseStore({\n\
             \x20   this.maxEntries = 128,\n\
             \x20   this.ttl = const Duration(seconds: 90),\n\
             \x20 });\n\
             \x20 final int maxEntries;\n\
             \x20 final Duration ttl;\n\
             }\n",
        )],
    );
    let read = call("read", json!({"path": "lib/src/store.dart"}));
    for (prompt, bearing) in [
        (
            "How many responses does the store hold by default?",
            "this.maxEntries = 128,",
        ),
        (
            "How many seconds are stored responses kept by default?",
            "this.ttl = const Duration(seconds: 90),",
        ),
    ] {
        let (_, requests) = run_prompt(
            &dir,
            prompt,
            vec![
                read.clone(),
                read.clone(),
                read.clone(),
                read.clone(),
                "25".into(),
            ],
        );
        let asked = &requests.last().unwrap().messages.last().unwrap().content;
        let shown = bearing_lines(asked);
        assert!(
            shown.contains(bearing) && !shown.contains("A response body"),
            "{prompt}: {asked}"
        );
    }
}

/// Found with a Dart client (session 46, first_retry_delay): asked "How long does the client
/// wait before the first retry by default?", the search for `first` showed
/// `analysis_options.yaml`'s `- sort_constructors_first` before `retry_policy.dart`'s lines,
/// which were the ones shown as bearing; answered `10`, which no result holds, the model was
/// offered the read of `analysis_options.yaml`. The whole file offered is the one the bearing
/// lines are in.
#[test]
fn the_whole_file_offered_for_an_unfounded_number_is_the_bearing_lines_file() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "analysis_options.yaml",
                "linter:\n  rules:\n    - sort_constructors_first\n",
            ),
            (
                "lib/src/backoff.dart",
                "class Backoff {\n\
                 \x20 const Backoff({this.firstDelay = const Duration(milliseconds: 750)});\n\
                 \x20 /// How long to wait before the first retry.\n\
                 \x20 final Duration firstDelay;\n\
                 }\n",
            ),
        ],
    );
    let grep = call(
        "grep",
        json!({"pattern": "first", "ignore_case": true, "glob": "*.yaml"}),
    );
    let grep_all = call(
        "grep",
        json!({"pattern": "wait before", "ignore_case": true}),
    );
    let (_, requests) = run_prompt(
        &dir,
        "How long does the client wait before the first retry by default?",
        vec![grep, grep_all, "10".into(), "750".into()],
    );
    let asked = &requests[3].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`10` is in none of the tool results")
            && asked.contains(r#"{"name":"read","arguments":{"path":"lib/src/backoff.dart"}}"#),
        "{asked}"
    );
}

/// Found with a Dart client (session 46, cache_ttl): shown as bearing `this.ttl = const
/// Duration(seconds: 300),`, Qwen2.5-Coder-0.5B answered `30` (two tokens, then the end of its
/// turn; `25` for `256` in session 45), was told `30` is in no result, read the file again
/// and again, and the run ended without an answer. An answer that is the start of the one
/// number the bearing lines write is asked for that number, as written.
#[test]
fn a_number_cut_short_is_asked_for_as_written() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "lib/src/store.dart",
            "/// In-memory store of responses.\n\
             class ResponseStore {\n\
             \x20 ResponseStore({\n\
             \x20   this.ttl = const Duration(seconds: 900),\n\
             \x20 });\n\
             }\n",
        )],
    );
    let read = call("read", json!({"path": "lib/src/store.dart"}));
    let prompt = "How many seconds are stored responses kept by default?";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![read.clone(), read.clone(), read, "90".into(), "900".into()],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    assert!(
        asked.starts_with("`90` is only the start of `900`, the number the tool results write."),
        "{asked}\n{:?}",
        t.turns
            .iter()
            .map(|t| (&t.nudge, &t.raw))
            .collect::<Vec<_>>()
    );
    assert_eq!(t.answer.as_deref(), Some("900"));
}

/// Found with a Dart client (session 45, user_agent): asked "Which User-Agent does the client
/// send by default?", the lines shown as bearing were a test's (`test('sends the User-Agent
/// header', …)` and the client it builds with `userAgent: 'my-app/2.0'`), and
/// Qwen2.5-Coder-0.5B answered `my-app/2.0`. A test passes values of its own: for a question
/// not about the tests, the lines of the code bear on it first.
#[test]
fn a_tests_lines_bear_on_a_question_after_the_codes() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "lib/src/settings.dart",
                "/// User-Agent sent when none is configured.\n\
                 const String defaultUserAgent = 'gravel-dart/1.2.0';\n",
            ),
            (
                "test/agent_test.dart",
                "test('sends the User-Agent header by default', () async {\n\
                 \x20 final s = Settings(userAgent: 'tester/9.9');\n\
                 });\n",
            ),
        ],
    );
    let grep = call(
        "grep",
        json!({"pattern": "User-Agent", "ignore_case": true}),
    );
    let prompt = "Which User-Agent does the client send by default?";
    let (_, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            grep.clone(),
            grep.clone(),
            grep.clone(),
            grep,
            "tester/9.9".into(),
        ],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    // (The default's line itself since session 56: a declaration with a type sets its name.)
    assert!(
        shown.contains("defaultUserAgent = 'gravel-dart/1.2.0'")
            && !shown.contains("agent_test.dart"),
        "{asked}"
    );
    // A question about the tests is answered from them.
    let (_, requests) = run_prompt(
        &dir,
        "Which test checks the User-Agent header?",
        vec![
            call(
                "grep",
                json!({"pattern": "User-Agent", "ignore_case": true}),
            ),
            call(
                "grep",
                json!({"pattern": "User-Agent", "ignore_case": true}),
            ),
            call(
                "grep",
                json!({"pattern": "User-Agent", "ignore_case": true}),
            ),
            call(
                "grep",
                json!({"pattern": "User-Agent", "ignore_case": true}),
            ),
            "none".into(),
        ],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    assert!(asked.contains("agent_test.dart (line 1)"), "{asked}");
}

/// Found with a Scala/sbt service (session 45, page_size): asked "How many notes does a
/// listing return by default when no limit is given?", the search for `limit` showed the
/// README's "Listings return at most 200 notes per page" — four of the question's words — and
/// `PageRequest(limit: Int = 25, …)`, and the line shown as bearing was the README's: the model
/// answered `200`. What a question leaves unset is answered by the line giving it a default.
#[test]
fn the_default_of_what_a_question_leaves_unset_bears_on_it_first() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "README.md",
                "# Scroll\n\nListings return at most 500 notes per page, whatever `limit` asks for.\n\
                 Query with `?limit=&offset=`.\n",
            ),
            (
                "src/Store.scala",
                "final case class Page(limit: Int = 40, offset: Int = 0) {\n\
                 \x20 def clamped: Page = copy(limit = limit.min(Page.MaxLimit))\n\
                 }\n\
                 \n\
                 object Page {\n\
                 \x20 val MaxLimit = 500\n\
                 }\n",
            ),
        ],
    );
    let grep = call("grep", json!({"pattern": "limit", "ignore_case": true}));
    let (_, requests) = run_prompt(
        &dir,
        "How many notes does a listing return by default when no limit is given?",
        vec![grep.clone(), grep.clone(), grep.clone(), grep, "500".into()],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert!(
        shown.contains("Page(limit: Int = 40") && !shown.contains("at most 500"),
        "{asked}"
    );
    // A search's line opening a block brings the lines of the block it shows, not those of
    // the next matches after it (session 46: the last turn's lines ended with `val MaxLimit
    // = 200`, and the model answered `200`).
    assert!(!shown.contains("MaxLimit = 500"), "{asked}");
}

/// Found with an Ansible project (session 45, db_max_open_conns): asked "How many open database
/// connections does Harbor allow by default?", the look searched `connection`, which found
/// only `[ssh_connection]`; the setting is `harbor_db_max_open_conns: 900`, and
/// Qwen2.5-Coder-0.5B answered `2`. A word code writes short where it begins the word
/// (`conn`) is searched so where the files write it short; the line holding it bears on the
/// question.
#[test]
fn a_word_written_short_in_the_files_is_searched_short() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "ansible.cfg",
                "[defaults]\nforks = 10\n\n[ssh_connection]\npipelining = True\n",
            ),
            (
                "roles/dock/defaults/main.yml",
                "dock_db_host: localhost\ndock_db_max_idle_conns: 50\ndock_db_max_open_conns: 700\n",
            ),
            (
                "inventory/prod/group_vars/registry.yml",
                "dock_db_max_open_conns: 1200\n",
            ),
        ],
    );
    let grep = call("grep", json!({"pattern": "conn", "ignore_case": true}));
    let (_, requests) = run_prompt(
        &dir,
        "How many open database connections does Dock allow by default?",
        vec![
            "100".into(),
            grep.clone(),
            grep.clone(),
            grep.clone(),
            grep,
            "2".into(),
        ],
    );
    let offered = &requests[1].messages.last().unwrap().content;
    assert!(
        offered.contains(r#"{"pattern":"conn","ignore_case":true}"#),
        "{offered}"
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert!(
        shown.contains("dock_db_max_open_conns: 700") && !shown.contains("ssh_connection"),
        "{asked}"
    );
    // Asked for a default, the role's `defaults/` bear on it over an inventory's override
    // (session 46: shown both, the model answered the inventory's `1500`).
    assert!(!shown.contains("1200"), "{asked}");
}

/// Found with a Scala/sbt service (session 45, max_column_120): asked "Let scalafmt format
/// lines up to 120 columns wide.", the run took the request for a question — "let" is no
/// change verb — and Qwen2.5-Coder-0.5B, never shown the edit of `maxColumn = 110`, answered
/// with that line. An upper bound asked for is a change: the edit is offered.
#[test]
fn an_upper_bound_asked_for_is_a_change_offered() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(".scalafmt.conf", "version = \"3.7.17\"\nmaxColumn = 110\n")],
    );
    let (_, requests) = run_prompt(
        &dir,
        "Let scalafmt format lines up to 120 columns wide.",
        vec![
            call("ls", json!({"path": "."})),
            "4\tmaxColumn = 110".into(),
            "Done.".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    let edit = json!({"name": "edit", "arguments": {"path": ".scalafmt.conf", "old_text": "maxColumn = 110", "new_text": "maxColumn = 120"}});
    assert!(asked.contains(&edit.to_string()), "{asked}");
}

/// Found with a Dart package (session 45, cache_entries): asked "How many responses does the
/// cache hold by default?", shown `cache.dart` with `this.maxEntries = 256,` on its line 22,
/// Qwen2.5-Coder-0.5B answered `25` — in no line's text — and the loop took it. A whole number
/// no result's line holds, for a question about a default, is asked about once (`31`, a line
/// number of the read, here; `25`, the start of `256`, is asked for the whole since session 46:
/// see `a_number_cut_short_is_asked_for_as_written`).
#[test]
fn a_whole_number_no_line_holds_for_a_default_is_asked_about() {
    let dir = tempfile::tempdir().unwrap();
    let mut cache = String::from(
        "class ResponseCache {\n  ResponseCache({\n    this.maxEntries = 256,\n  });\n",
    );
    for k in 0..30 {
        cache.push_str(&format!("  // note {}\n", "x".repeat(k % 3 + 1)));
    }
    write_files(&dir, &[("lib/src/cache.dart", &cache)]);
    let prompt = "How many responses does the cache hold by default?";
    let read = call("read", json!({"path": "lib/src/cache.dart"}));
    let (t, requests) = run_prompt(&dir, prompt, vec![read.clone(), "31".into(), "256".into()]);
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`31` is in none of the tool results"),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("256"));
    let (t, requests) = run_prompt(&dir, prompt, vec![read.clone(), "256".into()]);
    assert_eq!((t.answer.as_deref(), requests.len()), (Some("256"), 2));
    // A count worked out of the files: no default asked, no question about it.
    let (t, requests) = run_prompt(
        &dir,
        "How many comment lines does the cache file have?",
        vec![read, "30".into()],
    );
    assert_eq!((t.answer.as_deref(), requests.len()), (Some("30"), 2));
}

/// Found with an Ansible role (session 44, reg01_data_volume): asked "Where does reg-01 keep
/// Harbor's data?", shown `harbor_data_volume: /srv/harbor-data`, Qwen2.5-Coder-0.5B answered
/// `srv/harbor-data`, and the loop took it. An answer that is a path the results write with
/// its leading `/` dropped is asked once for it as written.
#[test]
fn a_path_without_its_leading_slash_is_asked_for_as_written() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "inventory/host_vars/reg-01.yml",
            "---\nharbor_data_volume: /srv/harbor-data\n",
        )],
    );
    let prompt = "Where does reg-01 keep Harbor's data?";
    let read = call("read", json!({"path": "inventory/host_vars/reg-01.yml"}));
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            read.clone(),
            "srv/harbor-data".into(),
            "/srv/harbor-data".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with(
            "`srv/harbor-data` drops the leading `/` of `/srv/harbor-data`, the path the tool results write."
        ),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("/srv/harbor-data"));
    let (t, requests) = run_prompt(&dir, prompt, vec![read, "/srv/harbor-data".into()]);
    assert_eq!(
        (t.answer.as_deref(), requests.len()),
        (Some("/srv/harbor-data"), 2)
    );
}

/// Found with a Helm chart (session 45, memory_limit): asked "What is the default memory limit
/// of the container?", pointed at `memory: 256Mi`, Qwen2.5-Coder-0.5B answered `256`. An
/// answer that is a value the results write without its unit is asked once for it as written.
#[test]
fn a_number_without_its_unit_is_asked_for_as_written() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[("values.yaml", "resources:\n  limits:\n    memory: 256Mi\n")],
    );
    let prompt = "What is the default memory limit of the container?";
    let read = call("read", json!({"path": "values.yaml"}));
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![read.clone(), "256".into(), "256Mi".into()],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked
            .starts_with("`256` leaves out the unit of `256Mi`, the value the tool results write."),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("256Mi"));
    let (t, requests) = run_prompt(&dir, prompt, vec![read.clone(), "256Mi".into()]);
    assert_eq!((t.answer.as_deref(), requests.len()), (Some("256Mi"), 2));
    // Nor with a space inside (session 46: shown `memory: 256Mi` alone, the model answered
    // `256 Mi`).
    let (t, requests) = run_prompt(&dir, prompt, vec![read, "256 Mi".into(), "256Mi".into()]);
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`256 Mi` splits `256Mi`, the value the tool results write."),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("256Mi"));
}

/// Found with a Helm chart (session 45, memory_limit): asked "What is the default memory limit
/// of the container?", the lines shown as bearing were `limits:` with `cpu: 500m` and `memory:
/// 256Mi` under it — and `values-prod.yaml`'s too — and Qwen2.5-Coder-0.5B answered `500m`,
/// then, on its last turn, `256`. A setting whose key, with the key it is under, is made of
/// the question's words bears on it first (`memory` under `limits`), and a variant of a file
/// (`values-prod.yaml` of `values.yaml`) bears on a question that does not name the variant
/// only when its base file says nothing.
#[test]
fn a_setting_under_a_key_of_the_question_bears_on_it_and_a_variant_after_its_base() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "values.yaml",
                "resources:\n  limits:\n    cpu: 400m\n    memory: 384Mi\n  requests:\n    cpu: 100m\n    memory: 128Mi\n",
            ),
            (
                "values-prod.yaml",
                "resources:\n  limits:\n    cpu: \"2\"\n    memory: 768Mi\n",
            ),
        ],
    );
    let prompt = "What is the default memory limit of the container?";
    let limit = call("grep", json!({"pattern": "limit", "ignore_case": true}));
    let memory = call("grep", json!({"pattern": "memory", "ignore_case": true}));
    let (_, requests) = run_prompt(
        &dir,
        prompt,
        vec![limit.clone(), memory.clone(), limit, memory, "384".into()],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert!(
        shown.contains("memory: 384Mi")
            && !shown.contains("cpu: 400m")
            && !shown.contains("128Mi")
            && !shown.contains("values-prod.yaml"),
        "{asked}"
    );
    // Asked about the variant, its lines bear on the question.
    let (_, requests) = run_prompt(
        &dir,
        "What is the memory limit of the container in prod?",
        vec![
            call("grep", json!({"pattern": "memory", "ignore_case": true})),
            call("grep", json!({"pattern": "memory", "ignore_case": true})),
            call("grep", json!({"pattern": "memory", "ignore_case": true})),
            call("grep", json!({"pattern": "memory", "ignore_case": true})),
            "384".into(),
        ],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    assert!(asked.contains("values-prod.yaml (line 4"), "{asked}");
}

/// Found with a Django project (session 41): asked "Which database engine does the project
/// use?", shown `"ENGINE": "django.db.backends.postgresql"` (and searching `postgresql` itself),
/// Qwen2.5-Coder-0.5B answered `django`, and the loop took it. An answer that is only the first
/// part of the one dotted name the bearing lines write is asked once for what the name tells.
#[test]
fn an_answer_that_is_a_dotted_names_first_part_is_asked_for_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "pantry/settings.py",
            "DATABASES = {\n    \"default\": {\n        \"ENGINE\": \"django.db.backends.postgresql\",\n        \"NAME\": \"pantry\",\n    }\n}\nTIME_ZONE = \"Europe/Amsterdam\"\n",
        )],
    );
    let (t, requests) = run_prompt(
        &dir,
        "Which database engine does the project use?",
        vec![
            call("grep", json!({"pattern": "engine", "ignore_case": true})),
            "django".into(),
            "PostgreSQL".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`django` is only the first part of `django.db.backends.postgresql`")
            && asked.contains(r#""ENGINE": "django.db.backends.postgresql""#),
        "{asked}"
    );
    assert!(requests[2].tools.is_empty());
    assert_eq!(t.answer.as_deref(), Some("PostgreSQL"));
    assert_eq!(
        asked
            .matches("These lines of the tool results bear on the request")
            .count(),
        1,
        "the bearing lines once: {asked}"
    );
    // Words of the message's instructions are no answer (a Swift package, session 43: "The
    // whole value").
    let (t, requests) = run_prompt(
        &dir,
        "Which database engine does the project use?",
        vec![
            call("grep", json!({"pattern": "engine", "ignore_case": true})),
            "django".into(),
            "The whole name.".into(),
            "PostgreSQL".into(),
        ],
    );
    assert_eq!(
        t.answer.as_deref(),
        Some("PostgreSQL"),
        "{:?}",
        requests.last().unwrap().messages.last()
    );
}

/// Found with the shopdata set (session 32): asked "What is the default country of a
/// customer?", Qwen2.5-Coder-0.5B was offered the read of `data/customers.csv` (`customer`
/// names it by its stem), which has a country column and no default; the default is
/// `country TEXT DEFAULT 'NL'` in the schema. A plain word of the question the file named by
/// its stem does not hold, found elsewhere on a line with another of its words, is the search
/// offered.
#[test]
fn a_word_the_stem_named_file_lacks_is_searched_where_the_questions_words_meet() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "data/customers.csv",
                "id,name,email,country\n1,Ada Lovelace,ada@example.com,UK\n",
            ),
            (
                "sql/schema.sql",
                "CREATE TABLE customers (\n    id INTEGER PRIMARY KEY,\n    country TEXT DEFAULT 'NL'\n);\n",
            ),
            ("README.md", "# Shop\n\nThe default database is shop.db.\n"),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "What is the default country of a customer?",
        "I do not know.",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"grep","arguments":{"pattern":"default","ignore_case":true}}"#),
        "{asked}"
    );
    // Every word is in the file, or the word it lacks is found nowhere: the read.
    for prompt in [
        "What is the email of the first customer?",
        "What is the phone number of a customer?",
    ] {
        let asked = asked_after_answer(&dir, prompt, "I do not know.", "Done.");
        assert!(
            asked.ends_with(r#"{"name":"read","arguments":{"path":"data/customers.csv"}}"#),
            "{prompt}: {asked}"
        );
    }
}

/// Found running `toolmend run` on a folder of dotfiles (session 31): asked "Set tabstop to 2
/// in .vimrc.", Qwen2.5-Coder-0.5B called tools it made up (`settabstop`, `setnumber`) and was
/// shown reads — vim's `set tabstop=4` was no assignment toolmend knew; asked "Make nano the
/// default editor in .bashrc.", it called `nano`. A vim `set` line assigns its option, a
/// shell's `export EDITOR=vim` its variable whatever the case the request writes it in, and
/// "make V the default K" sets K to V: the edit is the call offered.
#[test]
fn dotfile_settings_are_changes_the_request_spells_out() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                ".vimrc",
                "\" ~/.vimrc\nset number\nset tabstop=4\nset shiftwidth=4\nsyntax on\n",
            ),
            (
                ".bashrc",
                "# ~/.bashrc\n\nexport EDITOR=vim\nexport PATH=\"$HOME/bin:$PATH\"\n\nHISTSIZE=1000\n",
            ),
        ],
    );
    for (prompt, edit) in [
        (
            "Set tabstop to 2 in .vimrc.",
            r#"{"name":"edit","arguments":{"path":".vimrc","old_text":"set tabstop=4","new_text":"set tabstop=2"}}"#,
        ),
        (
            "Make nano the default editor in .bashrc.",
            r#"{"name":"edit","arguments":{"path":".bashrc","old_text":"export EDITOR=vim","new_text":"export EDITOR=nano"}}"#,
        ),
    ] {
        let asked = asked_after_answer(&dir, prompt, "Done.", "Done.");
        assert!(asked.contains(edit), "{prompt}: {asked}");
    }
}

/// Found with the tally set (session 31): asked "Which flag prints the word count?",
/// Qwen2.5-Coder-0.5B was offered and ran the search for "word count", was shown
/// `words := flag.BoolP("words", "w", false, "print the word count")`, and answered `word
/// count` — two words of the question. A piece of the request of two words or more is an echo
/// of it: asked again once.
#[test]
fn two_words_of_the_question_as_the_answer_are_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "main.go",
            "package main\n\nfunc main() {\n\twords := flag.BoolP(\"words\", \"w\", false, \"print the word count\")\n}\n",
        )],
    );
    let prompt = "Which flag prints the word count?";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call(
                "grep",
                json!({"pattern": "word count", "ignore_case": true}),
            ),
            "word count".into(),
            "-w".into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some("-w"));
    let retry = &requests[2].messages.last().unwrap().content;
    assert!(
        retry.starts_with("Your last reply only repeated") && retry.contains(prompt),
        "{retry}"
    );
}

/// Found running `toolmend run` on a folder of dotfiles (session 31): asked "Add an alias gl
/// for 'git log --oneline' to .bashrc.", Qwen2.5-Coder-0.5B answered with the bare line
/// `alias gl='git log --oneline'` and called nothing. A line of a kind the file lists, written
/// bare or in backticks, is the edit that adds it after the file's last line of that kind.
#[test]
fn a_bare_line_of_a_kind_the_file_lists_is_the_edit_shown() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            ".bashrc",
            "export EDITOR=vim\n\nalias ll='ls -la'\nalias gs='git status'\n\nif [ -f ~/.x ]; then\n    . ~/.x\nfi\n",
        )],
    );
    let edit = r#"{"name":"edit","arguments":{"path":".bashrc","old_text":"alias gs='git status'","new_text":"alias gs='git status'\nalias gl='git log --oneline'"}}"#;
    // Words that spell out no alias toolmend could compose: the line the reply shows.
    let prompt = "Add a gl alias to .bashrc.";
    for answer in [
        "alias gl='git log --oneline'",
        "Add this line: `alias gl='git log --oneline'`",
    ] {
        let asked = asked_after_answer(&dir, prompt, answer, "Done.");
        assert!(asked.contains(edit), "{answer}: {asked}");
    }
    // A new value for a name the file declares is a change, not a line to add.
    let asked = asked_after_answer(
        &dir,
        "Add a gs alias to .bashrc.",
        "alias gs='git status -s'",
        "Done.",
    );
    assert!(!asked.contains("alias gs='git status -s'\""), "{asked}");
    // Spelled out in the request, the alias is the change due from the start: the answer
    // without a call gets the edit that adds it.
    let asked = asked_after_answer(
        &dir,
        "Add an alias gl for 'git log --oneline' to .bashrc.",
        "alias gl='git log --oneline'",
        "Done.",
    );
    assert!(
        asked.contains(r#""new_text":"alias gs='git status'\nalias gl='git log --oneline'"#),
        "{asked}"
    );
}

/// Found running `toolmend run` on a folder of dotfiles (session 31): asked "Make nano the
/// default editor in .bashrc." and shown the `edit` that makes it, Qwen2.5-Coder-0.5B sent
/// those very arguments under the name `nano`, three times. The change due, sent with the
/// arguments shown under a made-up name, runs as the call shown, with a note naming it; other
/// arguments under a made-up name change nothing.
#[test]
fn the_change_shown_sent_under_a_made_up_name_runs_as_shown() {
    let dir = tempfile::tempdir().unwrap();
    let bashrc = "export EDITOR=vim\nHISTSIZE=1000\n";
    write_files(&dir, &[(".bashrc", bashrc)]);
    let prompt = "Make nano the default editor in .bashrc.";
    let shown = json!({"path": ".bashrc", "old_text": "export EDITOR=vim", "new_text": "export EDITOR=nano"});
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![call("nano", shown.clone()), "Done.".into()],
    );
    let c = &t.turns[0].calls[0];
    assert!(c.result.is_ok(), "{}", c.feedback);
    assert_eq!(c.result.ran_as.as_deref(), Some("edit"));
    assert!(
        c.feedback.starts_with("(No tool is named `nano`"),
        "{}",
        c.feedback
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".bashrc")).unwrap(),
        "export EDITOR=nano\nHISTSIZE=1000\n"
    );
    // As the model sent it: the path a placeholder folder (session 31's run).
    write_files(&dir, &[(".bashrc", bashrc)]);
    let mut placeholder = shown.clone();
    placeholder["path"] = json!(".");
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![call("nano", placeholder), "Done.".into()],
    );
    assert!(t.turns[0].calls[0].result.is_ok());
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".bashrc")).unwrap(),
        "export EDITOR=nano\nHISTSIZE=1000\n"
    );
    // Other arguments under that name: not run, the file unchanged.
    write_files(&dir, &[(".bashrc", bashrc)]);
    let mut other = shown;
    other["new_text"] = json!("export EDITOR=emacs");
    let (t, _) = run_prompt(&dir, prompt, vec![call("nano", other), "Done.".into()]);
    assert!(!t.turns[0].calls[0].result.is_ok());
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".bashrc")).unwrap(),
        bashrc
    );
}

/// Found with a Phoenix/Elixir API (session 41): shown the edit of `version: "0.7.0",` to
/// `version: "0.8.0",`, Qwen2.5-Coder-0.5B sent the new text without its comma (mix.exs would
/// no longer compile) and, the change not being the one shown, repeated it until the run
/// ended; shown the edit of `config/config.exs`, it sent the texts with the path
/// `/path/to/your/file.txt` three times. Each near copy of the change due runs as shown.
#[test]
fn the_change_shown_cut_short_or_with_a_placeholder_path_runs_as_shown() {
    let dir = tempfile::tempdir().unwrap();
    let mix = "  def project do\n    [\n      app: :chirp,\n      version: \"0.7.0\",\n      elixir: \"~> 1.16\"\n    ]\n  end\n";
    write_files(&dir, &[("mix.exs", mix)]);
    let prompt = "Bump the project version to 0.8.0.";
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call(
                "edit",
                json!({"path": "mix.exs", "old_text": "version: \"0.7.0\",", "new_text": "version: \"0.8.0\""}),
            ),
            "Done.".into(),
        ],
    );
    let c = &t.turns[0].calls[0];
    assert!(c.result.is_ok(), "{}", c.feedback);
    assert!(c.feedback.contains("it is made"), "{}", c.feedback);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mix.exs")).unwrap(),
        mix.replace("0.7.0", "0.8.0")
    );
    // The path a placeholder outside the workspace.
    write_files(&dir, &[("mix.exs", mix)]);
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call(
                "edit",
                json!({"path": "/path/to/your/file.txt", "old_text": "version: \"0.7.0\",", "new_text": "version: \"0.8.0\","}),
            ),
            "Done.".into(),
        ],
    );
    assert!(t.turns[0].calls[0].result.is_ok());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mix.exs")).unwrap(),
        mix.replace("0.7.0", "0.8.0")
    );
    // So after a refused placeholder edit (the refusal is no policy of the user's: the change
    // stays due), as the model sent them.
    write_files(&dir, &[("mix.exs", mix)]);
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call(
                "edit",
                json!({"path": "/path/to/your/file.txt", "old_text": "old_text", "new_text": "new_text", "replace_all": true}),
            ),
            call(
                "edit",
                json!({"path": "/path/to/your/file.txt", "old_text": "version: \"0.7.0\",", "new_text": "version: \"0.8.0\","}),
            ),
            "Done.".into(),
        ],
    );
    assert!(
        t.turns[1].calls[0].result.is_ok(),
        "{}",
        t.turns[1].calls[0].feedback
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mix.exs")).unwrap(),
        mix.replace("0.7.0", "0.8.0")
    );
    // Another value cut short, or other text: as sent.
    write_files(&dir, &[("mix.exs", mix)]);
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call(
                "edit",
                json!({"path": "mix.exs", "old_text": "version: \"0.7.0\",", "new_text": "version: \"0.9.0\","}),
            ),
            "Done.".into(),
        ],
    );
    assert!(t.turns[0].calls[0].result.is_ok());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mix.exs")).unwrap(),
        mix.replace("0.7.0", "0.9.0")
    );
}

/// Found with a Deno service (session 54, ci_deno_2214): asked "In CI, test on Deno 2.2.14
/// instead of 2.2.12.", Qwen2.5-Coder-0.5B copied the edit shown of the CI matrix but wrote
/// `2.3.6` for the `2.3.5` the edit keeps, a version the request never names. A copy that
/// changes a number the change shown keeps runs as shown; one that changes what the request
/// asks for, or writes a number the request names, runs as sent.
#[test]
fn the_change_shown_with_a_kept_number_altered_runs_as_shown() {
    let dir = tempfile::tempdir().unwrap();
    let ci = "jobs:\n  test:\n    strategy:\n      matrix:\n        deno: [\"2.1.10\", \"2.2.12\", \"2.3.5\"]\n";
    write_files(&dir, &[(".github/workflows/ci.yml", ci)]);
    let prompt = "In CI, test on Deno 2.2.14 instead of 2.2.12.";
    let old = "deno: [\"2.1.10\", \"2.2.12\", \"2.3.5\"]";
    let edit = |new_text: &str| {
        call(
            "edit",
            json!({"path": ".github/workflows/ci.yml", "old_text": old, "new_text": new_text}),
        )
    };
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            edit("deno: [\"2.1.10\", \"2.2.14\", \"2.3.6\"]"),
            "Done.".into(),
        ],
    );
    let c = &t.turns[0].calls[0];
    assert!(c.result.is_ok(), "{}", c.feedback);
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".github/workflows/ci.yml")).unwrap(),
        ci.replace("2.2.12", "2.2.14")
    );
    // A number the request names, or a change of what the request changes: as sent.
    for sent in [
        "deno: [\"2.1.10\", \"2.2.14\", \"2.2.12\"]",
        "deno: [\"2.1.10\", \"2.2.15\", \"2.3.5\"]",
    ] {
        write_files(&dir, &[(".github/workflows/ci.yml", ci)]);
        let (t, _) = run_prompt(&dir, prompt, vec![edit(sent), "Done.".into()]);
        assert!(t.turns[0].calls[0].result.is_ok());
        assert_eq!(
            std::fs::read_to_string(dir.path().join(".github/workflows/ci.yml")).unwrap(),
            ci.replace(old, sent),
            "{sent}"
        );
    }
}

/// Found with a Deno service (session 54, docker_deno_235): asked "Build the Docker image on
/// Deno 2.3.5.", Qwen2.5-Coder-0.5B wrote a Dockerfile of its own in a code block; the run
/// took the request for no change, asked for the Dockerfile's read, and never offered the
/// edit of its `FROM` line. "Build … on N V" asks for a change as "with N V" does.
#[test]
fn building_on_a_version_is_a_change_request() {
    let dir = tempfile::tempdir().unwrap();
    let dockerfile =
        "FROM denoland/deno:2.2.11\nWORKDIR /app\nEXPOSE 7391\nCMD [\"run\", \"main.ts\"]\n";
    write_files(
        &dir,
        &[("Dockerfile", dockerfile), ("main.ts", "console.log(1);\n")],
    );
    let own = "To build a Docker image on Deno 2.3.5, use:\n\n```Dockerfile\nFROM deno/deno:2.3.5\nWORKDIR /app\nCOPY . /app\nCMD [\"deno\", \"run\", \"main.ts\"]\n```\n";
    let (t, requests) = run_prompt(
        &dir,
        "Build the Docker image on Deno 2.3.5.",
        vec![
            own.into(),
            call(
                "edit",
                json!({"path": "Dockerfile", "old_text": "FROM denoland/deno:2.2.11", "new_text": "FROM denoland/deno:2.3.5"}),
            ),
            "Done.".into(),
        ],
    );
    let asked = &requests[1].messages.last().unwrap().content;
    assert!(
        asked.contains(r#""new_text":"FROM denoland/deno:2.3.5""#),
        "{asked}"
    );
    assert!(t.turns[1].calls[0].result.is_ok());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Dockerfile")).unwrap(),
        dockerfile.replace("2.2.11", "2.3.5")
    );
}

/// Found with a Deno service and an F# API (session 54, prod_alert_cooldown,
/// prod_sweep_interval): asked "how many minutes …", the line shown as bearing was a database
/// URL holding the project's name (and a port), not `"cooldownMinutes": 135`; asked "how many
/// seconds pass between two sweeps for expired holds?", it was `"HoldTtlSeconds"`, not
/// `"IntervalSeconds"` under `"Sweeper"`. Of the numbers, those whose name ends with the unit
/// asked for, each holding the words that share a stem with the key it is under.
#[test]
fn a_number_in_the_unit_asked_under_the_key_the_question_names_bears() {
    let dir = tempfile::tempdir().unwrap();
    let prod = "{\n  \"probes\": {\n    \"intervalSeconds\": 20\n  },\n  \"history\": {\n    \"pruneEveryMinutes\": 360\n  },\n  \"alerts\": {\n    \"cooldownMinutes\": 135\n  },\n  \"database\": {\n    \"url\": \"postgres://lantern@db.internal:5432/lantern\"\n  }\n}\n";
    write_files(&dir, &[("config/prod.json", prod)]);
    let nudge = nudge_after_reading(
        &dir,
        "config/prod.json",
        "In production, how many minutes does lantern wait before re-alerting about a monitor that is still down?",
    );
    assert_eq!(bearing_lines(&nudge), "\"cooldownMinutes\": 135");
    let settings = "{\n  \"Thimble\": {\n    \"Holds\": {\n      \"HoldTtlSeconds\": 1380,\n      \"MaxHoldsPerCustomer\": 3\n    },\n    \"Sweeper\": {\n      \"Enabled\": true,\n      \"IntervalSeconds\": 105\n    }\n  }\n}\n";
    write_files(&dir, &[("appsettings.Production.json", settings)]);
    let nudge = nudge_after_reading(
        &dir,
        "appsettings.Production.json",
        "In production, how many seconds pass between two sweeps for expired holds?",
    );
    // "between" two sweeps names the interval: that line alone.
    assert_eq!(bearing_lines(&nudge), "\"IntervalSeconds\": 105", "{nudge}");
    // A wait for a response is a timeout (a Python webhook relay, session 55,
    // prod_delivery_timeout: the signature tolerance, also in seconds, was shown first and
    // answered).
    write_files(
        &dir,
        &[(
            "production.env",
            "MARTEN_SIGNATURE_TOLERANCE_SECONDS=150\nMARTEN_MAX_ATTEMPTS=23\nMARTEN_DELIVERY_TIMEOUT_SECONDS=47\n",
        )],
    );
    let nudge = nudge_after_reading(
        &dir,
        "production.env",
        "In production, how many seconds does marten wait for a destination to respond before that attempt counts as failed?",
    );
    assert_eq!(
        bearing_lines(&nudge),
        "MARTEN_DELIVERY_TIMEOUT_SECONDS=47",
        "{nudge}"
    );
}

/// Found with a Deno service (session 54, default_timeout_ms): asked "With no config at all,
/// how many milliseconds does a probe wait for a response before it counts as a timeout?",
/// Qwen2.5-Coder-0.5B called the read of src/config.ts again, was sent its lines again, and on
/// the last turn answered 1000. The first repeated look of a question asking how many (how
/// long, …) gets, after the output sent again, the lines that bear on it; a change request's
/// does not.
#[test]
fn a_repeated_look_for_a_question_shows_the_lines_bearing_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let config = "/** Listener port. */\nexport const DEFAULT_PORT = 8164;\n/** A probe without a response after this long counts as a timeout. */\nexport const DEFAULT_TIMEOUT_MS = 7500;\nexport const DEFAULT_INTERVAL_SECONDS = 60;\n";
    write_files(&dir, &[("src/config.ts", config)]);
    let read = || call("read", json!({"path": "src/config.ts"}));
    let (t, _) = run_prompt(
        &dir,
        "With no config at all, how many milliseconds does a probe wait for a response before it counts as a timeout?",
        vec![read(), read(), "7500 ms.".into()],
    );
    let feedback = &t.turns[1].calls[0].feedback;
    assert!(
        feedback.ends_with(
            "These lines of the tool results bear on the request:\nexport const DEFAULT_TIMEOUT_MS = 7500;"
        ),
        "{feedback}"
    );
    let (t, _) = run_prompt(
        &dir,
        "Set the default timeout to 9000 ms.",
        vec![read(), read(), "Done.".into()],
    );
    assert!(
        !t.turns[1].calls[0].feedback.contains("bear on the request"),
        "{}",
        t.turns[1].calls[0].feedback
    );
}

/// Found with a D log shipper (session 55, min_d_frontend, its first run): asked "What's the
/// oldest D compiler frontend version harrow declares it can be built with?", shown the
/// README's "harrow needs a D compiler with frontend 2.105.2 or newer (DMD, or LDC 1.35",
/// Qwen2.5-Coder-0.5B answered `DMD, or LDC 1.35`: a version on the line about the frontend,
/// but LDC's. The version a line gives for the subject is the first after its name; another
/// is told so, with the one it gives.
#[test]
fn a_version_of_another_name_on_the_subjects_line_is_pointed_at_the_subjects() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "README.md",
            "# harrow\n\nharrow needs a D compiler with frontend 2.105.2 or newer (DMD, or LDC 1.35\nand later).\n",
        )],
    );
    let grep = || call("grep", json!({"pattern": "frontend", "ignore_case": true}));
    let (t, requests) = run_prompt(
        &dir,
        "What's the oldest D compiler frontend version harrow declares it can be built with?",
        vec![grep(), "DMD, or LDC 1.35".into(), "2.105.2".into()],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`1.35` is not the version the line gives for frontend"),
        "{asked}"
    );
    assert!(asked.contains("`2.105.2`"), "{asked}");
    assert_eq!(t.answer.as_deref(), Some("2.105.2"));
    // The subject's own version: taken.
    let (t, _) = run_prompt(
        &dir,
        "What's the oldest D compiler frontend version harrow declares it can be built with?",
        vec![grep(), "2.105.2".into()],
    );
    assert_eq!(t.answer.as_deref(), Some("2.105.2"));
}

/// Found with a Python webhook relay (session 55, default_port, its first run): asked "If I
/// start marten with no env file and no MARTEN_* variables set, which port does it listen
/// on?", the look offered searched `marten_`, the prefix of the variables the question says
/// are not set: the env files' overrides and the CI's, never the code's default. A name the
/// request says is not set is not searched for.
#[test]
fn a_name_the_question_says_is_unset_is_not_the_search() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/marten/settings.py",
                "class Settings(BaseSettings):\n    host: str = \"127.0.0.1\"\n    port: int = 8417\n",
            ),
            (
                "config/dev.env",
                "MARTEN_PORT=8428\nMARTEN_LOG_LEVEL=debug\n",
            ),
            ("config/production.env", "MARTEN_PORT=9312\n"),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "If I start marten with no env file and no MARTEN_* variables set, which port does it listen on?",
        "8000",
        "Done.",
    );
    assert!(!asked.contains(r#""pattern":"marten_""#), "{asked}");
    // The port set to a number as a name of its own (since session 56; `port` before).
    assert!(asked.contains(r#""pattern":"\\bport\\b"#), "{asked}");
}

/// Found with a Ktor link shortener (session 55, ci_newest_jdk, its first run): asked "What's
/// the newest exact JDK version the CI test matrix runs on?", the line shown as bearing was
/// `runs-on: ubuntu-24.04`, not the matrix's `java: [...]`, and the model answered with it. A
/// JDK's version is Java's.
#[test]
fn a_jdk_version_is_javas() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "ci.yml",
            "jobs:\n  test:\n    name: test (jdk ${{ matrix.java }})\n    runs-on: ubuntu-24.04\n    strategy:\n      matrix:\n        java: [\"17.0.13\", \"21.0.5\", \"23.0.1\"]\n",
        )],
    );
    let nudge = nudge_after_reading(
        &dir,
        "ci.yml",
        "What's the newest exact JDK version the CI test matrix runs on?",
    );
    assert!(
        bearing_lines(&nudge).contains("java: [\"17.0.13\", \"21.0.5\", \"23.0.1\"]"),
        "{nudge}"
    );
}

/// Found with a C library (session 36, test_target): asked "Which make target runs the
/// tests?", Qwen2.5-Coder-0.5B answered `make test` without a look and was offered the `ls` of
/// `tests/`, which holds no target. "make" names the `Makefile`: its read is the look.
#[test]
fn the_make_target_question_looks_at_the_makefile() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "Makefile",
                "check: build/libringbuf.a\n\t./build/test_ringbuf\n",
            ),
            ("tests/test_ringbuf.c", "int main(void) { return 0; }\n"),
        ],
    );
    let (t, requests) = run_prompt(
        &dir,
        "Which make target runs the tests?",
        vec![
            "The make target `make test` runs the tests.".into(),
            call("read", json!({"path": "Makefile"})),
            "`make check`.".into(),
        ],
    );
    let asked = &requests[1].messages.last().unwrap().content;
    assert!(
        asked.contains(r#"{"name":"read","arguments":{"path":"Makefile"}}"#),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("`make check`."));
}

/// Found with a C library (session 36, header_file): asked "Which file declares
/// ringbuf_push?", Qwen2.5-Coder-0.5B called `ringbuf_push` with read's arguments for `.`,
/// was shown the listing of the root, and never searched. A made-up name that is a name in
/// code the files hold, sent with arguments naming nothing but the root, runs as the search
/// for it; a name no file holds runs as before.
#[test]
fn a_name_in_code_called_with_root_arguments_runs_as_its_search() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "include/ringbuf.h",
                "int ringbuf_push(struct ringbuf *rb, int item);\n",
            ),
            (
                "src/ringbuf.c",
                "int ringbuf_push(struct ringbuf *rb, int item)\n{\n    return 0;\n}\n",
            ),
            ("README.md", "# ringbuf\n"),
        ],
    );
    let prompt = "Which file declares ringbuf_push?";
    let root = json!({"path": ".", "start_line": 1, "end_line": 2000});
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("ringbuf_push", root.clone()),
            "include/ringbuf.h".into(),
        ],
    );
    let first = &t.turns[0].calls[0];
    assert_eq!(
        (
            first.result.ran_as.as_deref(),
            first.result.ran_with.as_ref()
        ),
        (
            Some("grep"),
            Some(&json!({"pattern": "ringbuf_push", "ignore_case": true}))
        ),
        "{}",
        first.feedback
    );
    assert!(
        first
            .feedback
            .contains("include/ringbuf.h (line 1): int ringbuf_push("),
        "{}",
        first.feedback
    );
    assert_eq!(t.answer.as_deref(), Some("include/ringbuf.h"));
    // No file holds the name: read's own arguments, as before.
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![call("ringbuf_peek", root), "include/ringbuf.h".into()],
    );
    assert_eq!(t.turns[0].calls[0].result.ran_as.as_deref(), Some("read"));
}

/// Found with a C library (session 36, oldest_fn): asked "Which function removes the oldest
/// item?", Qwen2.5-Coder-0.5B called `removeOldestItem` (run as the root's `ls`), three times,
/// and answered `removeOldestItem`, a name no file holds. Asked once more, with the look at
/// what the question names; a name the files hold stands. (That call now runs as the look,
/// below: here a made-up name of other words.)
#[test]
fn a_made_up_name_answering_which_function_is_asked_with_the_look() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "include/ringbuf.h",
            "/* Removes the oldest item into `out`. */\nint ringbuf_pop(int *out);\n",
        )],
    );
    let prompt = "Which function removes the oldest item?";
    // A made-up name not made of the question's words: run as the root's `ls`.
    let made_up = || call("find_function", json!({"path": "."}));
    let look =
        json!({"name": "grep", "arguments": {"pattern": "oldest item", "ignore_case": true}});
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            made_up(),
            "removeOldestItem".into(),
            look.to_string().into(),
            "`ringbuf_pop`.".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.contains("`removeOldestItem` is in no tool result and no file of the folder")
            && asked.ends_with(&look.to_string()),
        "{asked}"
    );
    assert!(
        t.turns[2].calls[0]
            .result
            .output
            .contains("(line 2, below the comment on line 1): int ringbuf_pop(int *out);"),
        "{:?}",
        t.turns[2]
    );
    assert_eq!(t.answer.as_deref(), Some("`ringbuf_pop`."));
    // A name the files hold: no such ask.
    let (t, requests) = run_prompt(&dir, prompt, vec![made_up(), "`ringbuf_pop`.".into()]);
    assert_eq!(
        (requests.len(), t.answer.as_deref()),
        (2, Some("`ringbuf_pop`."))
    );
}

/// Found with a PHP library (session 39, add_line_fn): asked "Which method adds a line to an
/// invoice?", Qwen2.5-Coder-0.5B read `src/Line.php` (the file `line` names, and the look
/// offered) and answered `add_line`, a name no file holds; the method is `addLine`, in
/// `src/Invoice.php`. With the look made, a made-up name is asked about with the search for it
/// however it is written.
#[test]
fn a_made_up_name_after_the_look_is_searched_for_in_any_style() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/Line.php",
                "<?php\n\n/**\n * One line of an invoice.\n */\nfinal class Line\n{\n}\n",
            ),
            (
                "src/Invoice.php",
                "<?php\n\nfinal class Invoice\n{\n    public function addLine(string $text): void\n    {\n    }\n}\n",
            ),
        ],
    );
    let prompt = "Which method adds a line to an invoice?";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "src/Line.php"})),
            "add_line".into(),
            call(
                "grep",
                json!({"pattern": "add[_-]?line", "ignore_case": true}),
            ),
            "`addLine`.".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.contains("`add_line` is in no tool result and no file of the folder")
            && asked.ends_with(
                r#"{"name":"grep","arguments":{"pattern":"add[_-]?line","ignore_case":true}}"#
            ),
        "{asked}"
    );
    assert!(
        t.turns[2].calls[0]
            .feedback
            .contains("public function addLine(string $text): void"),
        "{:?}",
        t.turns[2]
    );
    assert_eq!(t.answer.as_deref(), Some("`addLine`."));
    // A name no file holds in any style gets no search that would find nothing (the tides
    // set, session 39: `find_next_high_water` was offered `find[_-]?next[_-]?high[_-]?water`).
    let (_, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "src/Line.php"})),
            "append_row".into(),
            "`addLine`.".into(),
        ],
    );
    assert!(
        requests.iter().all(|r| !r
            .messages
            .last()
            .unwrap()
            .content
            .contains("append[_-]?row")),
        "{:?}",
        requests.last().unwrap().messages.last()
    );
    // The lines bearing on it are those defining a name made of its words: not a test's
    // calls, which hold `invoice` too (session 39: shown those, the model answered
    // `Invoicer\Line`).
    write_files(
        &dir,
        &[(
            "tests/InvoiceTest.php",
            "<?php\n\nfinal class InvoiceTest\n{\n    public function testTotal(): void\n    {\n        $invoice->addLine('Coffee beans', 2);\n    }\n}\n",
        )],
    );
    let search = || {
        call(
            "grep",
            json!({"pattern": "add[_-]?line", "ignore_case": true}),
        )
    };
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![search(), search(), search(), "`addLine`.".into()],
    );
    let nudge = t.turns.last().unwrap().nudge.as_deref().unwrap_or_default();
    assert!(
        nudge.contains("public function addLine(string $text): void")
            && !nudge.contains("$invoice->addLine"),
        "{nudge}"
    );
}

/// Found with a C library (session 36, oldest_fn): Qwen2.5-Coder-0.5B called
/// `removeOldestItem` with `{"path": "."}` four times, each run as the root's `ls`. A made-up
/// name made of the question's words (two or more), sent with arguments naming nothing but
/// the root, runs as the look at what the question names, with a note; a name with a word
/// the question lacks, or a path of its own, does not.
#[test]
fn a_made_up_name_made_of_the_questions_words_runs_as_the_look() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "include/ringbuf.h",
            "/* Removes the oldest item into `out`. */\nint ringbuf_pop(int *out);\n",
        )],
    );
    let prompt = "Which function removes the oldest item?";
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("removeOldestItem", json!({"path": "."})),
            "`ringbuf_pop`.".into(),
        ],
    );
    let c = &t.turns[0].calls[0];
    assert_eq!(
        (c.result.ran_as.as_deref(), c.result.ran_with.as_ref()),
        (
            Some("grep"),
            Some(&json!({"pattern": "oldest item", "ignore_case": true}))
        ),
        "{}",
        c.feedback
    );
    assert!(
        c.feedback.starts_with("(No tool is named `removeOldestItem`; this is the result of the look at what the user's request names:")
            && c.feedback.contains("int ringbuf_pop(int *out);"),
        "{}",
        c.feedback
    );
    assert_eq!(t.answer.as_deref(), Some("`ringbuf_pop`."));
    // Answered with the made-up name after the look: asked again, shown the name the comment's
    // line documents (the bearing line alone was the comment, in the session's run).
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("removeOldestItem", json!({"path": "."})),
            "removeOldestItem".into(),
            "`ringbuf_pop`.".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.contains("The tool results above name `ringbuf_pop`"),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("`ringbuf_pop`."));
    // Its parameters' schemas as the arguments (units set, session 36,
    // `convert_inches_to_centimetres`): the look too.
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call(
                "remove_oldest_item",
                json!({"item": {"type": "string", "description": "The item."}}),
            ),
            "`ringbuf_pop`.".into(),
        ],
    );
    assert_eq!(t.turns[0].calls[0].result.ran_as.as_deref(), Some("grep"));
    // A value sent to it, for a question asking which function: the model's guess at the
    // function, the look too (`convert_inches_to_centimetres` with `{"inches": 10}`).
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("remove_oldest_item", json!({"rb": 1})),
            "`ringbuf_pop`.".into(),
        ],
    );
    assert_eq!(t.turns[0].calls[0].result.ran_as.as_deref(), Some("grep"));
    // Any question: the values are the model's guess at what the name would need — text of
    // the question's own, or made up (a Maven project, session 37: `BookException` with
    // `{"message": "Room is already booked"}`, `check_room_booked_twice` with `{"room_id":
    // "12345", "night": "2023-04-15"}`, each sent again until the run ended).
    for (prompt, name, args) in [
        (
            "What does the oldest item removal return?",
            "oldest_item_removal",
            json!({"rb": 1}),
        ),
        (
            "What exception does pop throw when the oldest item is gone?",
            "PopException",
            json!({"message": "the oldest item is gone"}),
        ),
        (
            "Which test checks that the oldest item is removed?",
            "check_oldest_item_removed",
            json!({"item_id": "12345", "day": "2023-04-15"}),
        ),
        // Its common words aside, with a path naming nothing in the folder (a PHP library,
        // session 39: `InvoiceDoesNotHaveLines` with `{"invoice_path": "path/to/invoice"}`
        // for "Which exception is thrown when an invoice has no lines?", three times).
        (
            "Which error is raised when the buffer has no oldest item?",
            "BufferDoesNotHaveOldestItem",
            json!({"buffer_path": "path/to/buffer"}),
        ),
    ] {
        let (t, _) = run_prompt(&dir, prompt, vec![call(name, args), "-1".into()]);
        assert_eq!(
            t.turns[0].calls[0].result.ran_as.as_deref(),
            Some("grep"),
            "{name}"
        );
    }
    // Not for a request to change something, nor a path of its own, nor a word the question
    // lacks.
    let (t, _) = run_prompt(
        &dir,
        "Remove the oldest item.",
        vec![call("remove_oldest_item", json!({"rb": 1})), "Done.".into()],
    );
    assert_ne!(t.turns[0].calls[0].result.ran_as.as_deref(), Some("grep"));
    for (name, args) in [
        ("removeNewestItem", json!({"path": "."})),
        ("remove_oldest_item", json!({"path": "include"})),
        (
            "remove_oldest_item",
            json!({"file_path": "include/ringbuf.h"}),
        ),
    ] {
        let (t, _) = run_prompt(
            &dir,
            prompt,
            vec![call(name, args), "`ringbuf_pop`.".into()],
        );
        assert_ne!(
            t.turns[0].calls[0].result.ran_as.as_deref(),
            Some("grep"),
            "{name}"
        );
    }
}

/// Found with the shop set (session 36, per_item): asked "Which function does cart_total call
/// for each item?", Qwen2.5-Coder-0.5B searched for `cart_total`, was shown its `def` line
/// only, searched again twice and answered `cart_total`. A repeated look whose results show
/// only the line defining the name the question asks about offers the read of its body; once
/// that file is read, nothing more is offered.
#[test]
fn a_search_showing_only_a_definition_offers_the_read_of_its_body() {
    let dir = tempfile::tempdir().unwrap();
    let shop = "PRICES = {\"apple\": 0.5}\n\n\ndef price_of(item):\n    return PRICES[item]\n\n\ndef cart_total(items):\n    total = 0\n    for item in items:\n        total += price_of(item)\n    return total\n";
    write_files(&dir, &[("src/shop.py", shop)]);
    let prompt = "Which function does cart_total call for each item?";
    let grep = || {
        call(
            "grep",
            json!({"pattern": "cart_total", "ignore_case": true}),
        )
    };
    let body = json!({"path": "src/shop.py", "start_line": 8, "end_line": 47});
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            grep(),
            grep(),
            call("read", body.clone()),
            "`price_of`.".into(),
        ],
    );
    let again = &t.turns[1].calls[0].feedback;
    let offer = format!(
        "The results show only the line that defines `cart_total`. To see its body, call: {}",
        json!({"name": "read", "arguments": body})
    );
    assert!(again.contains(&offer), "{again}");
    assert!(
        t.turns[2].calls[0]
            .result
            .output
            .contains("total += price_of(item)"),
        "{:?}",
        t.turns[2]
    );
    assert_eq!(t.answer.as_deref(), Some("`price_of`."));
    // A question that asks which file: no offer (the match lines name the files).
    let (t, _) = run_prompt(
        &dir,
        "Which file defines cart_total?",
        vec![grep(), grep(), "src/shop.py".into()],
    );
    assert!(
        !t.turns[1].calls[0].feedback.contains("To see its body"),
        "{:?}",
        t.turns[1]
    );
    // The file read already: no offer.
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "src/shop.py"})),
            grep(),
            grep(),
            "`price_of`.".into(),
        ],
    );
    assert!(
        !t.turns[2].calls[0].feedback.contains("To see its body"),
        "{:?}",
        t.turns[2]
    );
}

/// Found with a Dart package (session 45, user_agent): asked "Which User-Agent does the client
/// send by default?", Qwen2.5-Coder-0.5B read `client.dart`, whose `'User-Agent':
/// config.userAgent,` holds no value, read it again and again and answered `Pebble/1.0`. A
/// repeated look whose results set what the question names from a name offers the search for
/// that name; once searched, the value is shown and nothing more is offered.
#[test]
fn a_result_setting_the_asked_thing_from_a_name_offers_the_search_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let client = "class Client {\n  Client(this.config);\n  final Config config;\n  Map<String, String> headers() => {\n    'User-Agent': config.userAgent,\n  };\n}\n";
    let config = "const String defaultUserAgent = 'pebble-dart/1.4.0';\n\nclass Config {\n  const Config({this.userAgent = defaultUserAgent});\n  final String userAgent;\n}\n";
    write_files(
        &dir,
        &[("lib/client.dart", client), ("lib/config.dart", config)],
    );
    let prompt = "Which User-Agent does the client send by default?";
    let read = || call("read", json!({"path": "lib/client.dart"}));
    let search = json!({"pattern": "userAgent", "ignore_case": true});
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            read(),
            read(),
            call("grep", search.clone()),
            "`pebble-dart/1.4.0`.".into(),
        ],
    );
    let again = &t.turns[1].calls[0].feedback;
    let offer = format!(
        "The results set it from `userAgent`, not from a value. To see the value of `userAgent`, call: {}",
        json!({"name": "grep", "arguments": search})
    );
    assert!(again.contains(&offer), "{again}");
    assert!(
        t.turns[2].calls[0]
            .result
            .output
            .contains("defaultUserAgent = 'pebble-dart/1.4.0'"),
        "{:?}",
        t.turns[2]
    );
    assert_eq!(t.answer.as_deref(), Some("`pebble-dart/1.4.0`."));
    // A value, not a name: no offer.
    let literal = client.replace("config.userAgent", "'pebble-dart/1.4.0'");
    write_files(&dir, &[("lib/client.dart", &literal)]);
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![read(), read(), "`pebble-dart/1.4.0`.".into()],
    );
    assert!(
        !t.turns[1].calls[0].feedback.contains("not from a value"),
        "{:?}",
        t.turns[1]
    );
}

/// Found with a C library (session 36, cap_128): asked "Set the default capacity to 128.",
/// Qwen2.5-Coder-0.5B called `set_default_capacity` with `{"capacity": 128}` three times and
/// was shown `ls` each time: no change was due, as no line assigned "default capacity". The
/// macro `RINGBUF_DEFAULT_CAP` holds those words (`CAP` for capacity): its `#define` is the
/// change due, shown, then run for the new value sent to the made-up tool.
#[test]
fn a_c_macro_named_by_the_requests_words_is_the_value_to_set() {
    let dir = tempfile::tempdir().unwrap();
    let header = "#ifndef RINGBUF_H\n#define RINGBUF_H\n\n#define RINGBUF_DEFAULT_CAP 64\n\nint ringbuf_push(int item);\n\n#endif\n";
    write_files(
        &dir,
        &[
            ("include/ringbuf.h", header),
            (
                "src/ringbuf.c",
                "#include \"ringbuf.h\"\n\nint cap = RINGBUF_DEFAULT_CAP;\n",
            ),
        ],
    );
    let set = || call("set_default_capacity", json!({"capacity": 128}));
    let (t, _) = run_prompt(
        &dir,
        "Set the default capacity to 128.",
        vec![set(), set(), "Done.".into()],
    );
    let due = r##"{"name":"edit","arguments":{"path":"include/ringbuf.h","old_text":"#define RINGBUF_DEFAULT_CAP 64","new_text":"#define RINGBUF_DEFAULT_CAP 128"}}"##;
    assert!(
        t.turns[0].calls[0].feedback.contains(due),
        "{:?}",
        t.turns[0]
    );
    assert_eq!(t.turns[1].calls[0].result.ran_as.as_deref(), Some("edit"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("include/ringbuf.h")).unwrap(),
        header.replace("CAP 64", "CAP 128")
    );
    assert_eq!(t.answer.as_deref(), Some("Done."));
}

/// Found with the linkcheck set (session 36, misspelling): asked "Correct the misspelling
/// "recieves" in README.md." and shown the `edit` that makes it, Qwen2.5-Coder-0.5B sent that
/// `edit` with `new_text` copied from `old_text`, misspelling and all, three times. Once the
/// change due was shown, a no-op of its tool at its place runs the change due, with a note
/// saying so; a no-op elsewhere, or before the change was shown, changes nothing.
#[test]
fn a_no_op_edit_at_the_place_of_the_change_shown_runs_the_change_due() {
    let dir = tempfile::tempdir().unwrap();
    let readme = "# linkcheck\n\nEach page recieves one request per link.\n\n## Usage\n";
    write_files(&dir, &[("README.md", readme)]);
    let prompt = "Correct the misspelling \"recieves\" in README.md.";
    let line = "Each page recieves one request per link.";
    let no_op = || {
        call(
            "edit",
            json!({"path": "README.md", "old_text": line, "new_text": line}),
        )
    };
    let (t, _) = run_prompt(&dir, prompt, vec![no_op(), no_op(), "Done.".into()]);
    // Not shown yet: refused, and the refusal shows the change due.
    let first = &t.turns[0].calls[0];
    assert!(!first.result.is_ok(), "{}", first.feedback);
    let due = r#"{"name":"edit","arguments":{"path":"README.md","old_text":"Each page recieves one request per link.","new_text":"Each page receives one request per link."}}"#;
    assert!(first.feedback.contains(due), "{}", first.feedback);
    let second = &t.turns[1].calls[0];
    assert!(second.result.is_ok(), "{}", second.feedback);
    assert!(
        second
            .feedback
            .starts_with("(Your `edit` call would have changed nothing"),
        "{}",
        second.feedback
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("README.md")).unwrap(),
        readme.replace("recieves", "receives")
    );
    assert_eq!(t.answer.as_deref(), Some("Done."));
    // A no-op elsewhere: refused, the file unchanged.
    write_files(&dir, &[("README.md", readme)]);
    let elsewhere = || {
        call(
            "edit",
            json!({"path": "README.md", "old_text": "## Usage", "new_text": "## Usage"}),
        )
    };
    let (t, _) = run_prompt(&dir, prompt, vec![no_op(), elsewhere(), "Done.".into()]);
    assert!(!t.turns[1].calls[0].result.is_ok());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("README.md")).unwrap(),
        readme
    );
}

/// Found with the textkit set (session 33): asked "Change DEFAULT_LOCALE to en-GB." and shown
/// the `edit` that makes it, Qwen2.5-Coder-0.5B sent `{"locale": "en-GB"}` to a tool it named
/// `set_default_locale`, again and again. Once shown the change due, a made-up name sent one
/// value, the new value the request gives and the change due writes, runs the change due; the
/// old value does not.
#[test]
fn the_new_value_sent_to_a_made_up_tool_runs_the_change_due() {
    let dir = tempfile::tempdir().unwrap();
    let config = "export const DEFAULT_LOCALE = \"en-US\";\nexport const MAX_LENGTH = 120;\n";
    write_files(&dir, &[("src/config.ts", config)]);
    let prompt = "Change DEFAULT_LOCALE to en-GB.";
    // The old value: not run.
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("set_default_locale", json!({"locale": "en-US"})),
            "Done.".into(),
        ],
    );
    assert!(!t.turns[0].calls[0].result.is_ok());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/config.ts")).unwrap(),
        config
    );
    // Not shown the change yet: shown it, nothing run; sent again once shown: the change due.
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("set_default_locale", json!({"locale": "en-GB"})),
            call("set_default_locale", json!({"locale": "en-GB"})),
            "Done.".into(),
        ],
    );
    let c = &t.turns[0].calls[0];
    assert!(!c.result.is_ok());
    assert!(
        c.feedback
            .contains("\"new_text\":\"export const DEFAULT_LOCALE = \\\"en-GB\\\";\""),
        "{}",
        c.feedback
    );
    let c = &t.turns[1].calls[0];
    assert!(c.result.is_ok(), "{}", c.feedback);
    assert_eq!(c.result.ran_as.as_deref(), Some("edit"));
    assert!(
        c.feedback
            .starts_with("(No tool is named `set_default_locale`"),
        "{}",
        c.feedback
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/config.ts")).unwrap(),
        config.replace("en-US", "en-GB")
    );
}

/// Found with a Nim daemon (session 52, docker_alpine_320): asked "Switch the Docker runtime
/// base image to Alpine 3.20." and shown the `edit` of `FROM alpine:3.19`, Qwen2.5-Coder-0.5B
/// sent `{"runtime": "alpine:3.20"}` to a tool it named `switch-docker-runtime` until the run
/// ended. An image and its tag, each a word of the request, are its new value too.
#[test]
fn an_image_and_tag_sent_to_a_made_up_tool_runs_the_change_due() {
    let dir = tempfile::tempdir().unwrap();
    let dockerfile = "FROM nimlang/nim:2.0.8-alpine AS build\nRUN nimble build\n\nFROM alpine:3.19\nEXPOSE 8477\n";
    write_files(&dir, &[("Dockerfile", dockerfile)]);
    let made_up = || call("switch-docker-runtime", json!({"runtime": "alpine:3.20"}));
    let (t, _) = run_prompt(
        &dir,
        "Switch the Docker runtime base image to Alpine 3.20.",
        vec![made_up(), made_up(), "Done.".into()],
    );
    let c = &t.turns[1].calls[0];
    assert!(c.result.is_ok(), "{}", c.feedback);
    assert_eq!(c.result.ran_as.as_deref(), Some("edit"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Dockerfile")).unwrap(),
        dockerfile.replace("alpine:3.19", "alpine:3.20")
    );
}

/// Found with a Nim daemon (session 52, chronicles_0104): asked "Upgrade the chronicles logging
/// dependency to version 0.10.4." and shown the `edit` of `requires "chronicles == 0.10.3"`,
/// Qwen2.5-Coder-0.5B sent `{"package": "chronicles", "version": "0.10.4"}` to a tool it named
/// `upgrade-chronicles` until the run ended. Beside a value the change due's line keeps (the
/// package's name), the one value left is the new value.
#[test]
fn a_package_and_its_new_version_sent_to_a_made_up_tool_run_the_change_due() {
    let dir = tempfile::tempdir().unwrap();
    let nimble =
        "version = \"0.7.3\"\nrequires \"nim >= 2.0.4\"\nrequires \"chronicles == 0.10.3\"\n";
    write_files(&dir, &[("fjord.nimble", nimble)]);
    let made_up = || {
        call(
            "upgrade-chronicles",
            json!({"package": "chronicles", "version": "0.10.4"}),
        )
    };
    let (t, _) = run_prompt(
        &dir,
        "Upgrade the chronicles logging dependency to version 0.10.4.",
        vec![made_up(), made_up(), "Done.".into()],
    );
    let c = &t.turns[1].calls[0];
    assert!(c.result.is_ok(), "{}", c.feedback);
    assert_eq!(c.result.ran_as.as_deref(), Some("edit"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("fjord.nimble")).unwrap(),
        nimble.replace("0.10.3", "0.10.4")
    );
}

/// Found with the textkit set (session 33): asked "Set MAX_LENGTH to 200.", Qwen2.5-Coder-0.5B
/// made the edit and then answered "Set MAX_LENGTH to 200." — the request's own words, asked
/// again as an echo; it then sent the edit again, searched, sent edits that changed nothing,
/// and the run ended at its turn budget without an answer. Once the change the request asks
/// for is made, the request's words say what was done: the answer. Before any change they
/// are still asked again.
#[test]
fn the_requests_words_after_its_change_is_made_are_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let config = "export const MAX_LENGTH = 120;\n";
    write_files(&dir, &[("src/config.ts", config)]);
    let prompt = "Set MAX_LENGTH to 200.";
    let edit = json!({"path": "src/config.ts", "old_text": "export const MAX_LENGTH = 120;", "new_text": "export const MAX_LENGTH = 200;"});
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![call("edit", edit.clone()), prompt.into(), "Done.".into()],
    );
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(t.answer.as_deref(), Some(prompt));
    assert_eq!(t.turns.len(), 2, "{:?}", t.turns);
    write_files(&dir, &[("src/config.ts", config)]);
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![prompt.into(), call("edit", edit), "Done.".into()],
    );
    assert!(t.turns[1].nudge.is_some(), "{:?}", t.turns);
    assert_eq!(t.answer.as_deref(), Some("Done."));
}

/// Found with the textkit set (session 33): asked "Which Node version does this project
/// use?", Qwen2.5-Coder-0.5B was offered a search for `version`, shown package.json's own
/// version, and answered `1.2.4`; the Node version is in `.nvmrc`. The tally set's "Which Go
/// version does the module require?" (`go 1.21` in go.mod) failed alike. A language's or
/// runtime's name with the word "version" names the file in the root that holds that version:
/// its read is the look.
#[test]
fn a_runtimes_version_file_is_the_look_for_its_version() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (".nvmrc", "18\n"),
            (
                "package.json",
                "{\n  \"name\": \"textkit\",\n  \"version\": \"1.2.4\"\n}\n",
            ),
            ("go.mod", "module example.com/tally\n\ngo 1.21\n"),
            ("main.go", "package main\n\nconst version = \"0.3.1\"\n"),
        ],
    );
    for (prompt, path) in [
        ("Which Node version does this project use?", ".nvmrc"),
        ("Which Go version does the module require?", "go.mod"),
    ] {
        let asked = asked_after_answer(&dir, prompt, "I do not know.", "Done.");
        let want = format!(r#"{{"name":"read","arguments":{{"path":"{path}"}}}}"#);
        assert!(asked.ends_with(&want), "{prompt}: {asked}");
    }
    // Its short content bears on the request, though it holds none of its words (textkit
    // set: after reading `18`, the model was pointed at package.json's `"version": "1.2.4"`).
    let (t, _) = run_prompt(
        &dir,
        "Which Node version does this project use?",
        vec![
            call("read", json!({"path": ".nvmrc"})),
            call("grep", json!({"pattern": "version"})),
            call("read", json!({"path": ".nvmrc"})),
            call("read", json!({"path": ".nvmrc"})),
            "18".into(),
        ],
    );
    let nudge = t.turns.last().unwrap().nudge.clone().unwrap_or_default();
    assert!(!nudge.contains("1.2.4"), "{nudge}");
    assert!(nudge.ends_with("bear on the request:\n18"), "{nudge}");
    // A short name written with a capital inside the request ("Go") is a telling word, held
    // as a whole word (tally set, session 33: the lines shown were go.mod's `module` and
    // `require` lines, not `go 1.21`; the model answered with them).
    let (t, _) = run_prompt(
        &dir,
        "Which Go version does the module require?",
        vec![
            call("read", json!({"path": "go.mod"})),
            call("read", json!({"path": "go.mod"})),
            call("read", json!({"path": "go.mod"})),
            call("read", json!({"path": "go.mod"})),
            "1.21".into(),
        ],
    );
    let nudge = t.turns.last().unwrap().nudge.clone().unwrap_or_default();
    assert!(nudge.ends_with("bear on the request:\ngo 1.21"), "{nudge}");
    // No such file in the root, or no version asked about: as before.
    let asked = asked_after_answer(
        &dir,
        "Which Python version does this project use?",
        "I do not know.",
        "Done.",
    );
    assert!(!asked.contains(".python-version"), "{asked}");
    assert!(!toolmend::tools::request_names(
        "Where does Node run?",
        ".nvmrc"
    ));
    assert!(toolmend::tools::request_names(
        "What Node version?",
        ".nvmrc"
    ));
}

/// Found with the textkit and shopdata sets (session 33): "Turn off strict mode in
/// tsconfig.json." and "Sort the report by revenue instead of month." were no change requests
/// (their verbs were not among the change verbs), so the edit `edit` composes for them was
/// never shown: the model was offered reads. Each is now the call shown from the start.
#[test]
fn turning_off_and_sorting_are_changes_shown_from_the_start() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "tsconfig.json",
                "{\n  \"compilerOptions\": {\n    \"strict\": true,\n    \"outDir\": \"dist\"\n  }\n}\n",
            ),
            (
                "scripts/report.sql",
                "SELECT substr(placed_at, 1, 7) AS month\nFROM orders\nGROUP BY month\nORDER BY month;\n",
            ),
        ],
    );
    for (prompt, edit) in [
        (
            "Turn off strict mode in tsconfig.json.",
            r#"{"name":"edit","arguments":{"path":"tsconfig.json","old_text":"\"strict\": true,","new_text":"\"strict\": false,"}}"#,
        ),
        (
            "Sort the report by revenue instead of month.",
            r#"{"name":"edit","arguments":{"path":"scripts/report.sql","old_text":"ORDER BY month;","new_text":"ORDER BY revenue;"}}"#,
        ),
    ] {
        let asked = asked_after_answer(&dir, prompt, "Done.", "Done.");
        assert!(asked.contains(edit), "{prompt}: {asked}");
    }
}

/// Found with the textkit set (session 33): asked "What does the test script run?",
/// Qwen2.5-Coder-0.5B was offered the `ls` of the folder `test/` and answered with its one
/// file; the test script is package.json's `"test": "vitest run"`. "The NAME script" of a
/// package whose package.json lists a script NAME names package.json: its read is the look.
#[test]
fn a_script_the_package_json_lists_names_it() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "package.json",
                "{\n  \"name\": \"textkit\",\n  \"scripts\": {\n    \"build\": \"tsc\",\n    \"test\": \"vitest run\"\n  }\n}\n",
            ),
            ("test/slug.test.ts", "import { it } from \"vitest\";\n"),
        ],
    );
    for prompt in [
        "What does the test script run?",
        "Which command does the build script run?",
    ] {
        let asked = asked_after_answer(&dir, prompt, "I do not know.", "Done.");
        assert!(
            asked.ends_with(r#"{"name":"read","arguments":{"path":"package.json"}}"#),
            "{prompt}: {asked}"
        );
    }
    // A script package.json does not list: not named by it.
    let asked = asked_after_answer(
        &dir,
        "What does the deploy script do?",
        "I do not know.",
        "Done.",
    );
    assert!(!asked.contains("package.json"), "{asked}");
}

/// Found running `toolmend run` on a data folder (session 32): asked "What database file does
/// load.py write to?", the file being `scripts/load.py`, Qwen2.5-Coder-0.5B answered `data.db`
/// without a look, was offered a search for `database`, and answered with the schema's path. A
/// file name names the one file of that name below the root: its read is the look.
#[test]
fn a_file_named_by_its_name_in_a_folder_is_the_look_offered() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            ("scripts/load.py", "DB_PATH = \"shop.db\"\n"),
            ("sql/schema.sql", "-- Tables of the shop database.\n"),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "What database file does load.py write to?",
        "data.db",
        "shop.db",
    );
    assert!(
        asked.contains(r#"{"name":"read","arguments":{"path":"scripts/load.py"}}"#),
        "{asked}"
    );
}

/// Found running `toolmend run` on a data folder (session 32): asked "How many orders are in
/// orders.csv?", Qwen2.5-Coder-0.5B answered "To find the number of orders in the `orders.csv`
/// file, you can use the `grep` function with the pattern `^Orders$`. Here's how you can do
/// it: …" — steps for the user with a tool the model has. Asked once to call it and answer.
#[test]
fn steps_for_the_user_with_a_tool_are_asked_again_once() {
    let dir = tempfile::tempdir().unwrap();
    write_files(&dir, &[("data/orders.csv", "id,total\n1,5\n2,7\n")]);
    let prompt = "How many orders are in orders.csv?";
    let read = || call("read", json!({"path": "data/orders.csv"}));
    let how_to = "To find the number of orders in the `orders.csv` file, you can use the `grep` function with the pattern `^Orders$`. Here's how you can do it:";
    let (t, requests) = run_prompt(&dir, prompt, vec![read(), how_to.into(), "2".into()]);
    assert_eq!(t.answer.as_deref(), Some("2"));
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`grep` is a tool for you to call, not a step for the user."),
        "{asked}"
    );
    // Once: the same reply again stands.
    let (t, _) = run_prompt(&dir, prompt, vec![read(), how_to.into(), how_to.into()]);
    assert_eq!(t.answer.as_deref(), Some(how_to));
    // But a reply given word for word again after new results, once a run, is asked again:
    // it was no answer before them (shopdata set, session 33: the steps, then the read of
    // orders.csv, then the same steps as the answer).
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![how_to.into(), read(), how_to.into(), "2".into()],
    );
    assert_eq!(t.answer.as_deref(), Some("2"));
    let asked = &requests[3].messages.last().unwrap().content;
    assert!(
        asked.starts_with(
            "Your reply repeats word for word one you gave before the tool results above"
        ),
        "{asked}"
    );
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![how_to.into(), read(), how_to.into(), how_to.into()],
    );
    assert_eq!(t.answer.as_deref(), Some(how_to));
    // An answer asked again only because it came before any look stands when given again.
    let (t, requests) = run_prompt(&dir, prompt, vec!["2".into(), read(), "2".into()]);
    assert_eq!((t.answer.as_deref(), requests.len()), (Some("2"), 3));
    // A request that names the tool may get steps with it.
    let (t, _) = run_prompt(
        &dir,
        "How do I use grep to count the orders?",
        vec![read(), "You can use the `grep` tool: grep -c .".into()],
    );
    assert_eq!(
        t.answer.as_deref(),
        Some("You can use the `grep` tool: grep -c .")
    );
}

/// Found with the deploy set (session 33): asked "How many days of backups are kept?",
/// Qwen2.5-Coder-0.5B listed the root, never read the backup script it was offered, and
/// answered `269` — README.md's size in the listing. A number the results hold only as a
/// file's size is asked again once, with the look at what the request names.
#[test]
fn a_number_taken_from_a_listings_sizes_is_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    let readme = "# deploy\n\nBackups run nightly.\n";
    write_files(
        &dir,
        &[
            ("README.md", readme),
            ("scripts/backup.sh", "find /backups -mtime +7 -delete\n"),
        ],
    );
    let size = readme.len().to_string();
    let prompt = "How many days of backups are kept?";
    let ls = || call("ls", json!({"path": "."}));
    let (t, requests) = run_prompt(&dir, prompt, vec![ls(), size.clone().into(), "7".into()]);
    assert_eq!(t.answer.as_deref(), Some("7"));
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with(&format!(
            "`{size}` is the size in bytes of a file in a listing"
        )) && asked.contains(r#"{"name":"read","arguments":{"path":"scripts/backup.sh"}}"#),
        "{asked}"
    );
    // Once a run; and a number a file holds stands.
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![ls(), size.clone().into(), size.clone().into()],
    );
    assert_eq!(t.answer.as_deref(), Some(size.as_str()));
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "scripts/backup.sh"})),
            "7".into(),
        ],
    );
    assert_eq!((t.answer.as_deref(), requests.len()), (Some("7"), 2));
}

/// Found with the textkit set (session 34, node_bump): shown `To make the change the user asked
/// for, call: {…}` after a repeated look, Qwen2.5-Coder-0.5B made the edit, sent it again, and
/// answered `To make the change the user asked for, call:` — a line toolmend added to a tool's
/// result, not an answer: asked again once, like any echo. A change already made and sent again
/// is not followed by a look to make first.
#[test]
fn a_reply_echoing_a_line_added_to_a_result_is_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    write_files(&dir, &[(".nvmrc", "18\n"), ("README.md", "# kit\n")]);
    let ls = || call("ls", json!({"path": "."}));
    let edit = || {
        call(
            "edit",
            json!({"path": ".nvmrc", "old_text": "18", "new_text": "20"}),
        )
    };
    let (t, requests) = run_prompt(
        &dir,
        "Bump the Node version to 20.",
        vec![
            ls(),
            ls(),
            edit(),
            edit(),
            "To make the change the user asked for, call:".into(),
            "The Node version in .nvmrc is now 20.".into(),
        ],
    );
    assert!(
        t.turns[1].calls[0]
            .feedback
            .contains("To make the change the user asked for, call: {\"name\":\"edit\""),
        "{:?}",
        t.turns[1]
    );
    let again = &t.turns[3].calls[0];
    assert_eq!(
        again.result.failure.as_ref().map(|f| f.kind.as_str()),
        Some("already_done")
    );
    assert!(
        !again.feedback.contains("To look first"),
        "{}",
        again.feedback
    );
    assert_eq!(t.end, EndReason::Answered);
    assert_eq!(
        t.answer.as_deref(),
        Some("The Node version in .nvmrc is now 20.")
    );
    let retry = &requests[5].messages.last().unwrap().content;
    assert!(
        retry.starts_with("Your last reply only repeated a message sent to you"),
        "{retry}"
    );
}

/// Found with the tally set (session 34, longest_fn): asked "Which function finds the longest
/// line?", shown `count.go (line 3): // MaxLineLength returns the length of the longest line in
/// s.`, Qwen2.5-Coder-0.5B answered "The longest line in `count.go` is `3`." — no function's
/// name, while the bearing line writes one as code: asked again once, the names shown, in a turn
/// for the answer. An answer that names it stands.
#[test]
fn a_which_function_answer_naming_none_is_asked_again_once() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "count.go",
            "package count\n\n// MaxLineLength returns the length of the longest line in s.\nfunc MaxLineLength(s string) int {\n\treturn 0\n}\n",
        )],
    );
    let grep = || call("grep", json!({"pattern": "longest", "ignore_case": true}));
    let prompt = "Which function finds the longest line?";
    let wrong = "The longest line in `count.go` is `3`.";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![grep(), wrong.into(), "MaxLineLength.".into()],
    );
    assert_eq!(t.answer.as_deref(), Some("MaxLineLength."));
    let retry = &requests[2].messages.last().unwrap().content;
    assert!(
        retry.starts_with(&format!(
            "The user asked \"{prompt}\": the answer is the name of a function, and your reply names none."
        )) && retry.contains("`MaxLineLength`"),
        "{retry}"
    );
    // The names are in the message: the turn for the answer offers no tools (tally set,
    // session 35: offered them, the model went back to its calls until the run ended).
    assert!(requests[2].tools.is_empty());
    assert!(!requests[1].tools.is_empty());
    // Once: the same answer again stands.
    let (t, _) = run_prompt(&dir, prompt, vec![grep(), wrong.into(), wrong.into()]);
    assert_eq!(t.answer.as_deref(), Some(wrong));
    // Named: it stands at once.
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![grep(), "The `MaxLineLength` function.".into()],
    );
    assert_eq!(t.turns.len(), 2);
    assert_eq!(t.answer.as_deref(), Some("The `MaxLineLength` function."));
    // An exception is named in code too (a Maven project, session 37: asked "What exception
    // does book throw when the room is already booked?", shown `RoomTakenException`'s
    // message line, Qwen2.5-Coder-0.5B answered with the message).
    write_files(
        &dir,
        &[(
            "RoomTakenException.java",
            "package org.example.bookings;\n\n/** Thrown when a room is taken. */\npublic class RoomTakenException extends RuntimeException {\n\n    public RoomTakenException(int room) {\n        super(\"room \" + room + \" is already booked\");\n    }\n}\n",
        )],
    );
    let prompt = "What exception does book throw when the room is already booked?";
    let grep = || {
        call(
            "grep",
            json!({"pattern": "already booked", "ignore_case": true}),
        )
    };
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            grep(),
            "\"Room is already booked\"".into(),
            "RoomTakenException".into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some("RoomTakenException"));
    let retry = &requests[2].messages.last().unwrap().content;
    assert!(
        retry.contains("the answer is the name of an exception, and your reply names none.")
            && retry
                .contains("The tool results above name `RoomTakenException`, `RuntimeException`.")
            && !retry.contains("`super`"),
        "{retry}"
    );
    // Told the names, it made one up: asked once more, the names again; then it stands.
    let made_up = "\"RoomAlreadyBookedException\"";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            grep(),
            "\"Room is already booked\"".into(),
            made_up.into(),
            "RoomTakenException".into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some("RoomTakenException"));
    let again = &requests[3].messages.last().unwrap().content;
    assert!(
        again.contains(
            "`RoomAlreadyBookedException` is in no tool result and no file of the folder"
        ) && again.contains("The tool results above name `RoomTakenException`"),
        "{again}"
    );
    assert!(requests[3].tools.is_empty());
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            grep(),
            "\"Room is already booked\"".into(),
            made_up.into(),
            made_up.into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some(made_up));
    // A name the bearing lines define comes first, though the question writes it as a word
    // (a Maven project, session 37: `staying`, shown after the names of its body).
    write_files(
        &dir,
        &[(
            "BookingService.java",
            "public class BookingService {\n\n    /** The bookings that hold a room on the given night. */\n    public List<Booking> staying(LocalDate night) {\n        List<Booking> in = new ArrayList<>();\n        return in;\n    }\n}\n",
        )],
    );
    let prompt = "Which method lists the bookings staying on a given night?";
    let grep = || {
        call(
            "grep",
            json!({"pattern": "given night", "ignore_case": true}),
        )
    };
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![grep(), "It lists them by night.".into(), "`staying`".into()],
    );
    assert_eq!(t.answer.as_deref(), Some("`staying`"));
    let retry = &requests[2].messages.last().unwrap().content;
    assert!(
        retry.contains("The tool results above name `staying`, `LocalDate`"),
        "{retry}"
    );
    // A name in the results called as a tool, then given alone, answers: no echo of the
    // message saying it is such a name (a PHP library, session 39: `"EmptyInvoiceException"`,
    // asked again as an echo, then the question echoed).
    write_files(
        &dir,
        &[(
            "src/Exception/EmptyInvoiceException.php",
            "<?php\n\n/**\n * Thrown when a total is asked of an invoice without lines.\n */\nfinal class EmptyInvoiceException extends \\RuntimeException\n{\n    public function __construct(string $number)\n    {\n    }\n}\n",
        )],
    );
    let (t, requests) = run_prompt(
        &dir,
        "Which exception is thrown when an invoice has no lines?",
        vec![
            call("grep", json!({"pattern": "thrown", "ignore_case": true})),
            call(
                "EmptyInvoiceException",
                json!({"invoice_path": "path/to/invoice"}),
            ),
            "\"EmptyInvoiceException\"".into(),
            "Which exception is thrown when an invoice has no lines?".into(),
        ],
    );
    assert!(
        requests[2]
            .messages
            .last()
            .unwrap()
            .content
            .starts_with("`EmptyInvoiceException` is not a tool"),
        "{:?}",
        requests[2].messages.last()
    );
    assert_eq!(t.answer.as_deref(), Some("\"EmptyInvoiceException\""));
    // The names offered are those saying the kind, and of them the one the lines define: not
    // the class it extends, nor the methods of its block (session 39: the model answered
    // `RuntimeException` from `EmptyInvoiceException`, `RuntimeException`, `__construct`).
    let (_, requests) = run_prompt(
        &dir,
        "Which exception is thrown when an invoice has no lines?",
        vec![
            call("grep", json!({"pattern": "thrown", "ignore_case": true})),
            "It is thrown when a total is asked of an invoice without lines.".into(),
            "EmptyInvoiceException".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.contains("The tool results above name `EmptyInvoiceException`. "),
        "{asked}"
    );
}

/// Found with the tally set (session 35, test_file): `count` with `{"path": "."}` ran as the
/// `ls` of `internal/count` (its note shows that call); sent again, its earlier result came
/// with "To look first …, call: {ls internal/count}" — a look already made, under another name.
/// The model then answered `count_test.go (358 bytes)`, a line of the listing that names the
/// file, and was asked about the size `358` instead of being taken at its word.
#[test]
fn a_look_made_under_a_made_up_name_is_not_offered_and_a_listing_line_answers_which_file() {
    const TEST_GO: &str = "package count\n\nfunc TestCount() {}\n";
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            ("internal/count/count.go", "package count\n"),
            ("internal/count/count_test.go", TEST_GO),
            ("README.md", "# tally\n"),
        ],
    );
    let count = || call("count", json!({"path": "."}));
    let answer = format!("count_test.go ({} bytes)", TEST_GO.len());
    let (t, _) = run_prompt(
        &dir,
        "Which file has the tests for the count package?",
        vec![count(), count(), answer.clone().into()],
    );
    let first = &t.turns[0].calls[0].feedback;
    assert!(
        first.contains(r#"this is the result of `ls` for that name: {"name":"ls","arguments":{"path":"internal/count"}}"#),
        "{first}"
    );
    let result = &t.turns[0].calls[0].result;
    assert_eq!(
        (result.ran_as.as_deref(), result.ran_with.as_ref()),
        (Some("ls"), Some(&json!({"path": "internal/count"})))
    );
    let again = &t.turns[1].calls[0].feedback;
    assert!(!again.contains("To look first"), "{again}");
    assert_eq!(t.end, EndReason::Answered, "{t:?}");
    assert_eq!(t.answer, Some(answer));
    assert_eq!(t.turns.len(), 3);
}

/// Found with the tally set (session 35, ignore_log): shown `To make the change the user asked
/// for, call: {…}` after a repeated look, Qwen2.5-Coder-0.5B made that edit, then answered with
/// that line again and again until the run ended without an answer. Once the change it shows
/// is made, the line leaves the conversation the model sees (the transcript keeps it).
#[test]
fn the_line_showing_the_change_to_make_leaves_the_conversation_once_it_is_made() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(".gitignore", "bin/\n*.out\n"), ("README.md", "# tally\n")],
    );
    let ls = || call("ls", json!({"path": "."}));
    let due = r#"{"name":"edit","arguments":{"path":".gitignore","old_text":"*.out","new_text":"*.out\n*.log"}}"#;
    let (t, requests) = run_prompt(
        &dir,
        "Add *.log to the gitignore.",
        vec![ls(), ls(), due.into(), "Added *.log to .gitignore.".into()],
    );
    let line = format!("To make the change the user asked for, call: {due}");
    assert!(
        t.turns[1].calls[0].feedback.contains(&line),
        "{:?}",
        t.turns[1]
    );
    assert!(t.turns[2].calls[0].result.is_ok(), "{:?}", t.turns[2]);
    // The request before the edit holds the line; the one after it does not.
    let holds =
        |r: &toolmend::backend::Request| r.messages.iter().any(|m| m.content.contains(&line));
    assert!(holds(&requests[2]));
    assert!(!holds(&requests[3]), "{:?}", requests[3].messages);
    assert_eq!(t.answer.as_deref(), Some("Added *.log to .gitignore."));
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".gitignore")).unwrap(),
        "bin/\n*.out\n*.log\n"
    );
}

/// Found with the textkit set (session 35, slug_dependency): asked "Which package does slugify
/// use to make text ASCII?", shown `const ascii = unidecode(text).toLowerCase();`,
/// Qwen2.5-Coder-0.5B answered "The package slugify uses ASCII to make text ASCII." — the
/// question's own name, no other: a name the question holds names nothing it asks for.
#[test]
fn a_which_package_answer_naming_only_the_questions_own_name_is_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "src/slug.ts",
            "import unidecode from \"unidecode\";\n\nexport function slugify(text: string): string {\n  const ascii = unidecode(text).toLowerCase();\n  return ascii;\n}\n",
        )],
    );
    let grep = || call("grep", json!({"pattern": "ascii", "ignore_case": true}));
    let prompt = "Which package does slugify use to make text ASCII?";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            grep(),
            "The package slugify uses ASCII to make text ASCII.".into(),
            "unidecode".into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some("unidecode"));
    let retry = &requests[2].messages.last().unwrap().content;
    assert!(
        retry.contains("the answer is the name of a package") && retry.contains("`unidecode`"),
        "{retry}"
    );
    assert!(!retry.contains("`slugify`"), "{retry}");
}

/// Found with a Hugo site (session 37, accent_edit): asked "Change the accent colour to
/// #1565c0.", Qwen2.5-Coder-0.5B sent the edit of `/path/to/your/file.txt`, refused (outside
/// the workspace) with no word of the change due, again until the run ended. A call refused
/// for a path outside the workspace that it sent is shown the change due, as a call the
/// model got wrong is.
#[test]
fn a_call_refused_for_a_path_outside_the_workspace_is_shown_the_change_due() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "static/css/custom.css",
            ":root {\n  --accent: #2e7d32;\n  --text: #222222;\n}\n",
        )],
    );
    let placeholder = || {
        call(
            "edit",
            json!({"path": "/path/to/your/file.txt", "old_text": "old text", "new_text": "new text"}),
        )
    };
    let (t, _) = run_prompt(
        &dir,
        "Change the accent colour to #1565c0.",
        vec![placeholder(), "Done.".into(), "Done.".into()],
    );
    let feedback = &t.turns[0].calls[0].feedback;
    let due = r##"{"name":"edit","arguments":{"path":"static/css/custom.css","old_text":"--accent: #2e7d32;","new_text":"--accent: #1565c0;"}}"##;
    assert!(
        feedback.contains("is an absolute path outside the workspace")
            && feedback.contains(&format!(
                "To make the change the user asked for, call: {due}"
            )),
        "{feedback}"
    );
}

/// Found with a Hugo site (session 37, frost_date): once "the first frost" named
/// `content/posts/first-frost.md` (two words side by side, its stem joined by `-`), the read
/// of it was no look made of the request's words, and the model's answer without a look
/// ("October 15, 2021") stood. The pair of words names the file for the look too.
#[test]
fn two_words_naming_a_file_by_its_stem_make_its_read_the_look() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "content/posts/first-frost.md",
            "---\ntitle: \"First frost\"\n---\n\nThe first frost came on 2 November.\n",
        )],
    );
    let asked = asked_after_answer(
        &dir,
        "When did the first frost come?",
        "On October 15, 2021.",
        "On 2 November.",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"content/posts/first-frost.md"}}"#),
        "{asked}"
    );
}

/// Found with a Ruby gem (session 38, unknown_error): asked "What error is raised for a station
/// that is not in the list?", Qwen2.5-Coder-0.5B sent the root's glob again and again, each
/// repeat offered the search for `raised` (the comment over `class UnknownStation`), and it
/// answered `ArgumentError`. A turn that only repeats calls runs the look offered in place of
/// the first; a turn with a new call runs what it sends.
#[test]
fn a_turn_of_repeats_runs_the_look_offered_in_place_of_the_first() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "lib/tidewatch.rb",
                "module Tidewatch\n  class Error < StandardError; end\n\n  # Raised when a station name is not in data/stations.yml.\n  class UnknownStation < Error; end\nend\n",
            ),
            ("data/stations.yml", "stations:\n  - name: Brixham\n"),
            (
                "lib/tidewatch/stations.rb",
                "module Tidewatch\n  module Stations\n    def self.find(name)\n      all.find { |s| s == name } or raise UnknownStation\n    end\n  end\nend\n",
            ),
        ],
    );
    let prompt = "What error is raised for a station that is not in the list?";
    let glob = || call("glob", json!({"pattern": "**/*", "path": "."}));
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![glob(), glob(), glob(), "UnknownStation.".into()],
    );
    let look = r#"{"name":"grep","arguments":{"pattern":"raised","ignore_case":true}}"#;
    assert!(
        t.turns[1].calls[0].feedback.contains(look),
        "{:?}",
        t.turns[1]
    );
    let in_place = &t.turns[2].calls[0];
    assert_eq!(
        in_place.result.ran_as.as_deref(),
        Some("grep"),
        "{in_place:?}"
    );
    assert!(
        in_place
            .feedback
            .starts_with("(You already have the result of that `glob` call.")
            && in_place
                .feedback
                .contains("class UnknownStation < Error; end"),
        "{}",
        in_place.feedback
    );
    // A repeated search that found nothing looks at nothing too (a PHP library, session 39:
    // asked "Which port does the database listen on?", the model searched for `8080`, its
    // own guess, again and again, and answered `8080`).
    let guess = || call("grep", json!({"pattern": "8080", "ignore_case": true}));
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![guess(), guess(), guess(), "UnknownStation.".into()],
    );
    assert!(
        t.turns[1].calls[0].feedback.contains(look),
        "{:?}",
        t.turns[1]
    );
    let in_place = &t.turns[2].calls[0];
    assert_eq!(
        (
            in_place.result.ran_with.as_ref(),
            t.turns[1].calls[0].result.ran_as.as_deref()
        ),
        (
            Some(&json!({"pattern": "raised", "ignore_case": true})),
            None
        ),
        "{in_place:?}"
    );
    // A new call beside the repeat: what the model sends runs.
    let both = ScriptedTurn::text(
        "{\"name\": \"glob\", \"arguments\": {\"pattern\": \"**/*\", \"path\": \".\"}}\n\
         {\"name\": \"read\", \"arguments\": {\"path\": \"data/stations.yml\"}}",
    );
    let (t, _) = run_prompt(&dir, prompt, vec![glob(), glob(), both, "Done.".into()]);
    assert_eq!(t.turns[2].calls.len(), 2, "{:?}", t.turns[2]);
    assert!(
        t.turns[2].calls.iter().all(|c| c.result.ran_as.is_none()),
        "{:?}",
        t.turns[2]
    );
}

/// Found with a PHP library (session 39, phpunit_version): asked "Which version of PHPUnit do
/// the tests use?", the answer turn after the read of composer.json was shown `"test":
/// "phpunit"` (two of the question's words) and Qwen2.5-Coder-0.5B answered `PHPUnit`. A
/// version question's bearing lines are those writing a version; the word "version" alone
/// finds none of them.
#[test]
fn a_version_questions_bearing_lines_write_a_version() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "composer.json",
            "{\n    \"require\": {\n        \"php\": \">=8.1\"\n    },\n    \"require-dev\": {\n        \"phpunit/phpunit\": \"^10.5\"\n    },\n    \"scripts\": {\n        \"test\": \"phpunit\"\n    }\n}\n",
        )],
    );
    let nudge = nudge_after_reading(
        &dir,
        "composer.json",
        "Which version of PHPUnit do the tests use?",
    );
    assert!(
        nudge.contains(r#""phpunit/phpunit": "^10.5""#) && !nudge.contains(r#""test": "phpunit""#),
        "{nudge}"
    );
    let nudge = nudge_after_reading(
        &dir,
        "composer.json",
        "Which PHP version does the package require?",
    );
    assert!(nudge.contains(r#""php": ">=8.1""#), "{nudge}");
    // Answered `8` from it (session 39, php_version): asked once for the whole version.
    let (t, requests) = run_prompt(
        &dir,
        "Which PHP version does the package require?",
        vec![
            call("read", json!({"path": "composer.json"})),
            "8".into(),
            "8.1".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`8` is only the start of `8.1`") && asked.contains(r#""php": ">=8.1""#),
        "{asked}"
    );
    // The turn is for the answer: no tools (the model read the file again until the run ended).
    assert!(requests[2].tools.is_empty());
    assert_eq!(t.answer.as_deref(), Some("8.1"));
}

/// Found with a Ruby gem (session 38, tz_gem): asked "Which gem does tidewatch use for time
/// zones?", the answer turn after the read of `tidewatch.gemspec` was shown its six lines
/// holding `tidewatch`, and Qwen2.5-Coder-0.5B answered `tidewatch`. A word naming the file
/// read by its stem bears on nothing in it.
#[test]
fn a_word_naming_the_file_read_bears_on_none_of_its_lines() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "tidewatch.gemspec",
            "Gem::Specification.new do |spec|\n  spec.name = \"tidewatch\"\n  spec.homepage = \"https://example.org/tidewatch\"\n  spec.add_dependency \"tzinfo\", \"~> 2.0\"\nend\n",
        )],
    );
    let nudge = nudge_after_reading(
        &dir,
        "tidewatch.gemspec",
        "Which gem does tidewatch use for time zones?",
    );
    assert!(!nudge.contains("spec.name"), "{nudge}");
    // Another word of the request still bears on the lines holding it.
    let nudge = nudge_after_reading(
        &dir,
        "tidewatch.gemspec",
        "What homepage does tidewatch give?",
    );
    assert!(
        nudge.ends_with("bear on the request:\nspec.homepage = \"https://example.org/tidewatch\""),
        "{nudge}"
    );
}

/// Found with a Terraform folder (session 38, state_bucket): asked "In which bucket is the
/// Terraform state kept?", Qwen2.5-Coder-0.5B read `bucket = "kestrel-terraform-state"`, then
/// sent a failing call again and again, and the run ended with no answer. A question with
/// results gets one turn for the answer, without tools, before a repeated failure ends it.
#[test]
fn a_repeated_failure_after_results_gives_a_question_a_turn_for_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "main.tf",
            "terraform {\n  backend \"s3\" {\n    bucket = \"kestrel-terraform-state\"\n  }\n}\n",
        )],
    );
    let missing = || call("read", json!({"path": "photos/terraform.tfstate"}));
    let (t, _) = run_prompt(
        &dir,
        "In which bucket is the Terraform state kept?",
        vec![
            call("read", json!({"path": "main.tf"})),
            missing(),
            missing(),
            missing(),
            "kestrel-terraform-state".into(),
        ],
    );
    assert_eq!(t.end, EndReason::Answered, "{:?}", t.turns);
    assert_eq!(t.answer.as_deref(), Some("kestrel-terraform-state"));
    assert!(t.turns.last().unwrap().answer_only);
    // A change request ends as before: its answer says what changed, and nothing did.
    let (t, _) = run_prompt(
        &dir,
        "Set the state bucket to kestrel-state.",
        vec![
            call("read", json!({"path": "main.tf"})),
            missing(),
            missing(),
            missing(),
            "Done.".into(),
        ],
    );
    assert_eq!(t.end, EndReason::RepeatedFailure, "{:?}", t.turns);
}

/// Found with a Ruby gem (session 38, ruby_32): "Require Ruby 3.2 or newer." was read as no
/// change (no verb of one), so the change the gemspec grounds was never offered, and the
/// model's echo of the request ended the run. `require` and `deploy` ask for changes.
#[test]
fn require_and_deploy_ask_for_the_change_they_spell_out() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "tidewatch.gemspec",
                "Gem::Specification.new do |spec|\n  spec.required_ruby_version = \">= 3.1\"\nend\n",
            ),
            (
                "k8s/deployment.yaml",
                "spec:\n  containers:\n    - name: web\n      image: ghcr.io/kestrel/photos-web:2.3.0\n",
            ),
        ],
    );
    let asked = asked_after_answer(&dir, "Require Ruby 3.2 or newer.", "Done.", "ok");
    assert!(
        asked.contains(r#"{"name":"edit","arguments":{"path":"tidewatch.gemspec","old_text":"spec.required_ruby_version = \">= 3.1\"","new_text":"spec.required_ruby_version = \">= 3.2\""}}"#),
        "{asked}"
    );
    let asked = asked_after_answer(
        &dir,
        "Deploy version 2.4.0 of the web image.",
        "Done.",
        "ok",
    );
    assert!(asked.contains("photos-web:2.4.0"), "{asked}");
}

/// Found with a Terraform folder (session 38, region): the search showed `default =
/// "eu-west-2"` in the block of the matched description, but the lines bearing on the request
/// were the description alone, and Qwen2.5-Coder-0.5B answered "AWS region to deploy into." A
/// bearing line brings the block lines grep shows with it.
#[test]
fn a_bearing_line_brings_the_block_lines_shown_with_it() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "variables.tf",
            "variable \"project\" {\n  default = \"kestrel\"\n}\n\nvariable \"region\" {\n  description = \"AWS region to deploy into.\"\n  type        = string\n  default     = \"eu-west-2\"\n}\n",
        )],
    );
    let grep = || {
        call(
            "grep",
            json!({"pattern": "aws region", "ignore_case": true}),
        )
    };
    let (t, _) = run_prompt(
        &dir,
        "Which AWS region is the infrastructure deployed to?",
        vec![grep(), grep(), grep(), "eu-west-2".into()],
    );
    let last = t.turns.last().unwrap();
    assert!(last.answer_only, "{last:?}");
    let nudge = last.nudge.as_deref().unwrap_or_default();
    assert!(
        nudge.ends_with("variables.tf (line 8, in the block the description on line 6 is in):   default     = \"eu-west-2\""),
        "{nudge}"
    );
}

/// Found with a Ruby gem (session 38, tz_gem; read again in session 40): asked "Which gem does
/// tidewatch use for time zones?", the model read the gemspec three times, was asked to answer
/// from the results with no line shown as bearing (`spec.add_dependency "tzinfo"` holds none
/// of the question's words), and answered `tidewatch`. The short form code writes for words of
/// the request (`tz` for "time zone") is held by a name beginning with it.
#[test]
fn a_short_form_of_the_requests_words_bears() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "tidewatch.gemspec",
            "Gem::Specification.new do |spec|\n  spec.name = \"tidewatch\"\n  spec.summary = \"Tide tables for small harbours, offline.\"\n  spec.add_dependency \"tzinfo\", \"~> 2.0\"\n  spec.add_development_dependency \"rspec\", \"~> 3.13\"\nend\n",
        )],
    );
    let read = || call("read", json!({"path": "tidewatch.gemspec"}));
    let (t, _) = run_prompt(
        &dir,
        "Which gem does tidewatch use for time zones?",
        vec![read(), read(), read(), "tzinfo".into()],
    );
    let last = t.turns.last().unwrap();
    assert!(last.answer_only, "{last:?}");
    let nudge = last.nudge.as_deref().unwrap_or_default();
    assert!(
        nudge.ends_with("spec.add_dependency \"tzinfo\", \"~> 2.0\""),
        "{nudge}"
    );
}

/// Found with a .NET API (session 40): asked "Which test checks that a fourth loan is
/// rejected?", shown `public void Borrow_RejectsAFourthLoan()` by the search the loop
/// offered, Qwen2.5-Coder-0.5B answered its own made-up `test_check_fourth_loan_rejection`.
/// A which-test question is a which-code question: a test's line holds the question's words
/// inside its name, and the names offered are the tests the lines define, not the class
/// holding them.
#[test]
fn a_which_test_answer_naming_no_test_is_asked_with_the_tests_shown() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "tests/LoanServiceTests.cs",
            "namespace Bookshelf.Tests;\n\npublic class LoanServiceTests\n{\n    [Fact]\n    public void LateFee_GrowsPerDay()\n    {\n        LoanService.LateFee(4).Should().Be(1.00m);\n    }\n\n    [Fact]\n    public void Borrow_RejectsAFourthLoan()\n    {\n        var act = () => service.Borrow(7, 42);\n    }\n}\n",
        )],
    );
    let grep = call(
        "grep",
        json!({"pattern": "fourth[._-]?loan", "ignore_case": true}),
    );
    let (t, _) = run_prompt(
        &dir,
        "Which test checks that a fourth loan is rejected?",
        vec![
            grep,
            "test_check_fourth_loan_rejection".into(),
            "Borrow_RejectsAFourthLoan".into(),
        ],
    );
    assert_eq!(
        t.answer.as_deref(),
        Some("Borrow_RejectsAFourthLoan"),
        "{t:?}"
    );
    let nudge = t.turns[2].nudge.as_deref().unwrap_or_default();
    assert!(nudge.contains("Borrow_RejectsAFourthLoan"), "{nudge}");
    assert!(!nudge.contains("`LoanServiceTests`"), "{nudge}");
}

/// Found with a Helm chart (session 42): asked "How many replicas does the production values
/// file set?", Qwen2.5-Coder-0.5B asked for the configuration without a look, and the loop took
/// it; "What is the chart's version?" too would stand unlooked. A variant of a file named by
/// its base and its word, and a file named by a possessive, are named by the request: the
/// answer given without a look is asked to read them.
#[test]
fn a_variant_file_and_a_possessive_name_the_file_to_read_first() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            ("values.yaml", "replicaCount: 2\n"),
            ("values-prod.yaml", "replicaCount: 4\n"),
            (
                "Chart.yaml",
                "name: beacon\nversion: 0.4.2\nappVersion: \"1.9.0\"\n",
            ),
        ],
    );
    for (prompt, file) in [
        (
            "How many replicas does the production values file set?",
            "values-prod.yaml",
        ),
        ("What is the chart's version?", "Chart.yaml"),
    ] {
        let asked = asked_after_answer(
            &dir,
            prompt,
            "I cannot know without the configuration.",
            "Done.",
        );
        let want = format!(r#"{{"name":"read","arguments":{{"path":"{file}"}}}}"#);
        assert!(asked.ends_with(&want), "{prompt}: {asked}");
    }
}

/// Found with a Helm chart (session 43): asked "On which port does the container listen?",
/// Qwen2.5-Coder-0.5B answered `8080` before looking, searched, was shown `The container
/// listens on port 3000` as the line bearing on the request, and answered `8080` again. An
/// answer still holding the guess, which no bearing line holds, is asked once to answer from
/// those lines.
#[test]
fn a_number_guessed_before_looking_and_kept_after_is_pointed_at_the_bearing_lines() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "README.md",
                "# beacon\n\nThe container listens on port 3000 (named `http`).\n",
            ),
            (
                "templates/NOTES.txt",
                "kubectl port-forward svc/beacon 8080:80\n",
            ),
        ],
    );
    let prompt = "On which port does the container listen?";
    let turns = |last: &str| {
        vec![
            "The container listens on port 8080.".into(),
            call("grep", json!({"pattern": "listen", "ignore_case": true})),
            call("grep", json!({"pattern": "8080"})),
            last.into(),
            "3000".into(),
        ]
    };
    let (t, requests) = run_prompt(&dir, prompt, turns("8080"));
    let asked = &requests[4].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`8080` is what you answered before looking at anything")
            && asked.contains("README.md (line 3): The container listens on port 3000"),
        "{asked}"
    );
    assert!(requests[4].tools.is_empty());
    assert_eq!(t.answer.as_deref(), Some("3000"));
    // An answer the bearing lines hold stands.
    let (t, requests) = run_prompt(&dir, prompt, turns("Port 3000."));
    assert_eq!(
        (t.answer.as_deref(), requests.len()),
        (Some("Port 3000."), 4)
    );
}

/// Found with a Swift package (session 43): asked "What is the default request timeout in
/// seconds?", the look searched `request` — on fewer lines than `timeout`, but only in a doc
/// comment and `timeoutIntervalForRequest = config.timeoutSeconds` — and the default, `15`,
/// was never shown. The kind's word before the noun is searched only when one of its lines
/// holds a value or none of the noun's does.
#[test]
fn a_kinds_word_found_only_where_no_value_is_set_gives_way_to_the_noun() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "Sources/Config.swift",
                "public struct Config {\n    public var timeoutSeconds: TimeInterval\n    public init(\n        timeoutSeconds: TimeInterval = 15\n    ) {\n        self.timeoutSeconds = timeoutSeconds\n    }\n    /// The default timeout.\n}\n",
            ),
            (
                "Sources/Client.swift",
                "/// Fetches forecasts, retrying failed requests.\nfinal class Client {\n    func make() {\n        conf.timeoutIntervalForRequest = config.timeoutSeconds\n    }\n}\n",
            ),
        ],
    );
    assert_search_offered(
        &dir,
        "What is the default request timeout in seconds?",
        "timeout",
    );
    // The kind's word inside another name with a value (`requestsPerSecond: 20`) does not
    // set its value (a Dart package, session 45).
    write_files(
        &dir,
        &[(
            "README.md",
            "Limit with `RateLimiter(requestsPerSecond: 20)`.\n",
        )],
    );
    assert_search_offered(
        &dir,
        "What is the default request timeout in seconds?",
        "timeout",
    );
    // A kind's word on a line with a value stays the search: `bread` of "the bread price".
    write_files(
        &dir,
        &[(
            "shop.py",
            "PRICES = {\"bread\": 2.25}\ndef price_of(item):\n    return PRICES[item]\n",
        )],
    );
    assert_search_offered(&dir, "What is the bread price?", "bread");
}

/// Found with a Neovim plugin (session 43): asked "Which key mapping starts or stops the
/// timer?", the look was the read of `lua/focus/timer.lua` (`timer` names it by its stem),
/// which holds no mapping; the phrase was searched only as written and joined (`keymapping`),
/// and the plugin's `keymaps = {` never shown. A phrase's second word in `-ing` is searched by
/// its stem too.
#[test]
fn a_phrase_ending_in_ing_is_searched_joined_by_its_stem() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "lua/focus/timer.lua",
                "local M = {}\nfunction M.start(phase)\n  M.stop()\nend\nfunction M.toggle()\nend\nreturn M\n",
            ),
            (
                "lua/focus/config.lua",
                "M.defaults = {\n  work_minutes = 25,\n  keymaps = {\n    toggle = \"<leader>ft\",\n  },\n}\n",
            ),
            (
                "lua/focus/init.lua",
                "vim.keymap.set(\"n\", keys.toggle, timer.toggle, { desc = \"Focus: start or stop\" })\n",
            ),
        ],
    );
    assert_search_offered(
        &dir,
        "Which key mapping starts or stops the timer?",
        "key[._-]?map",
    );
}

/// Found with a Neovim plugin (session 43): asked "Turn off notifications by default.",
/// Qwen2.5-Coder-0.5B sent `set_notifications` with `{"enabled": false}` until the run ended,
/// shown the `edit` of `notify = true,` to `notify = false,`. A made-up name sending only the
/// switch's new state is the change due, once shown.
#[test]
fn a_made_up_call_sending_a_switchs_new_state_is_the_change_due() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "lua/focus/config.lua",
            "M.defaults = {\n  work_minutes = 25,\n  notify = true,\n}\n",
        )],
    );
    assert_made_up_thrice_makes(
        &dir,
        "Turn off notifications by default.",
        ("set_notifications", json!({"enabled": false})),
        "lua/focus/config.lua",
        "M.defaults = {\n  work_minutes = 25,\n  notify = false,\n}\n",
    );
}

/// Asserts that `prompt` in `dir`, answered three times with the made-up call `made_up` (a
/// name and its arguments) and then "Done.", leaves `path` holding `want` (the change due,
/// once shown, run for the made-up call); the feedback of every call on failure.
fn assert_made_up_thrice_makes(
    dir: &tempfile::TempDir,
    prompt: &str,
    made_up: (&str, serde_json::Value),
    path: &str,
    want: &str,
) {
    let made_up = || call(made_up.0, made_up.1.clone());
    let (t, _) = run_prompt(
        dir,
        prompt,
        vec![made_up(), made_up(), made_up(), "Done.".into()],
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join(path)).unwrap(),
        want,
        "{:#?}",
        t.turns
            .iter()
            .flat_map(|t| &t.calls)
            .map(|c| &c.feedback)
            .collect::<Vec<_>>()
    );
}

/// Found with a Neovim plugin (session 43): "Give a long break after every 3 sessions instead
/// of 4." opens with no change verb, was taken for no change, and the `edit` of
/// `sessions_before_long_break = 4,` was never offered; the model answered `4`. A clause giving
/// one number instead of another asks for a change.
#[test]
fn a_number_instead_of_another_asks_for_the_change() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "lua/focus/config.lua",
            "M.defaults = {\n  long_break_minutes = 15,\n  sessions_before_long_break = 4,\n}\n",
        )],
    );
    let (t, _) = run_prompt(
        &dir,
        "Give a long break after every 3 sessions instead of 4.",
        vec![
            call("long_break", json!({"type": "string"})),
            "4".into(),
            "Done.".into(),
        ],
    );
    let want = r#"{"name":"edit","arguments":{"path":"lua/focus/config.lua","old_text":"sessions_before_long_break = 4,","new_text":"sessions_before_long_break = 3,"}}"#;
    assert!(
        t.turns[0].calls[0].feedback.ends_with(want),
        "{}",
        t.turns[0].calls[0].feedback
    );
    // An answer with nothing changed is asked to make it.
    assert!(
        t.turns[2]
            .nudge
            .as_deref()
            .is_some_and(|n| n.starts_with("Nothing has been changed yet") && n.contains(want)),
        "{:?}",
        t.turns[2].nudge
    );
}

/// Found with a Neovim plugin (session 43): asked "Which command stops the timer?", the look
/// was the read of `lua/focus/timer.lua` (`timer` names it by its stem), which defines no
/// command: `command`, the word it lacks, is on `nvim_create_user_command("FocusStop",
/// function()`, and the question's other words on the line after it. A lacked word next to a
/// line with another of the question's words is searched.
#[test]
fn a_word_the_stem_named_file_lacks_counts_next_to_the_questions_other_words() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "lua/focus/timer.lua",
                "local M = {}\nfunction M.stop()\n  state.timer:stop()\nend\nreturn M\n",
            ),
            (
                "plugin/focus.lua",
                "vim.api.nvim_create_user_command(\"FocusStop\", function()\n  require(\"focus.timer\").stop()\nend, {})\n",
            ),
        ],
    );
    assert_search_offered(&dir, "Which command stops the timer?", "command");
}

/// Found with a Scala/sbt service (session 44): asked "Which Scala version does the project
/// build with?", the look searched sbt's `project/` folder (named by "the project"), found only
/// `sbt.version=1.9.8`, and Qwen2.5-Coder-0.5B answered `1.9.8`. "the project" is the
/// workspace: the search is the root's, and finds `build.sbt`'s `scalaVersion`.
#[test]
fn the_project_names_the_workspace_not_a_folder_called_project() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "build.sbt",
                "ThisBuild / organization := \"io.quill\"\nThisBuild / scalaVersion := \"2.13.12\"\n",
            ),
            ("project/build.properties", "sbt.version=1.9.8\n"),
            (
                "project/plugins.sbt",
                "addSbtPlugin(\"com.github.sbt\" % \"sbt-git\" % \"2.0.1\")\naddSbtPlugin(\"com.github.sbt\" % \"sbt-native-packager\" % \"1.9.16\")\n",
            ),
            ("build-notes.md", "Notes: run sbt test.\n"),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "Which Scala version does the project build with?",
        "2.13",
        "Done.",
    );
    let want = r#"{"name":"grep","arguments":{"pattern":"scala[._-]?version","ignore_case":true}}"#;
    assert!(asked.ends_with(want), "{asked}");
    // A folder named as one still is (here the file in it holding sbt's version).
    let asked = asked_after_answer(
        &dir,
        "Which sbt version does the project folder pin?",
        "1.9",
        "Done.",
    );
    assert!(asked.contains(r#""path":"project"#), "{asked}");
    // sbt's version is in `project/build.properties` (`sbt.version=1.9.8`): asked "Which sbt
    // version does the build use?", the look searched `sbt` (22 lines: CI steps, the
    // changelog's older `sbt 1.9.6`) and the model answered `1.9.6`.
    let asked = asked_after_answer(
        &dir,
        "Which sbt version does the build use?",
        "1.9",
        "Done.",
    );
    let want = r#"{"name":"read","arguments":{"path":"project/build.properties"}}"#;
    assert!(asked.ends_with(want), "{asked}");
    // A properties key joins a phrase's words with a dot (`http.timeout=30`).
    write_files(&dir, &[("conf/app.properties", "http.timeout=30\n")]);
    assert_search_offered(&dir, "What is the http timeout?", "http[._-]?timeout");
    // A name joined by hyphens is searched as written: asked "Which version of
    // sbt-native-packager does the build use?", the look searched `build`.
    assert_search_offered(
        &dir,
        "Which version of sbt-native-packager does the build use?",
        "sbt-native-packager",
    );
}

/// Found with a Scala/sbt service (session 44): asked "What maximum line length is scalafmt
/// configured with?", the look searched `configured`, the one word `.scalafmt.conf` (named by
/// its stem) lacked found beside another of the question's (`test("slugs use the configured
/// length and alphabet")`), and `maxColumn = 110` was never shown. A dotfile is the tool's own
/// settings: its read is the look.
#[test]
fn a_tools_dotfile_named_by_its_stem_is_read() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                ".scalafmt.conf",
                "version = \"3.7.17\"\nmaxColumn = 110\nnewlines.beforeCurlyLambdaParams = multilineWithCaseOnly\n",
            ),
            (
                "src/test/scala/NoteStoreSpec.scala",
                "  test(\"slugs use the configured length and alphabet\") {\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "What maximum line length is scalafmt configured with?",
        "80",
        "Done.",
    );
    let want = r#"{"name":"read","arguments":{"path":".scalafmt.conf"}}"#;
    assert!(asked.ends_with(want), "{asked}");
}

/// Found with an Ansible role (session 44, molecule_image): asked "Which container image do
/// the Molecule tests run in?", the look searched `container`, a word `molecule.yml` lacks,
/// and Qwen2.5-Coder-0.5B answered `Harbor` from the README's lines. The file named by its
/// stem sets what the question asks for under its own key (`image:`): its read is the look.
#[test]
fn a_file_named_by_its_stem_keying_the_asked_thing_is_read() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "roles/harbor/molecule/default/molecule.yml",
                "driver:\n  name: docker\nplatforms:\n  - name: harbor-ubuntu2204\n    image: geerlingguy/docker-ubuntu2204-ansible:latest\n",
            ),
            (
                "README.md",
                "Harbor is an open source container registry.\nThe role is tested with Molecule in a Docker container:\n",
            ),
        ],
    );
    let prompt = "Which container image do the Molecule tests run in?";
    let asked = asked_after_answer(&dir, prompt, "ubuntu", "Done.");
    let want =
        r#"{"name":"read","arguments":{"path":"roles/harbor/molecule/default/molecule.yml"}}"#;
    assert!(asked.ends_with(want), "{asked}");
    // Without the key, the word it lacks is searched where it is.
    write_files(
        &dir,
        &[(
            "roles/harbor/molecule/default/molecule.yml",
            "driver:\n  name: docker\n",
        )],
    );
    let asked = asked_after_answer(&dir, prompt, "ubuntu", "Done.");
    assert!(!asked.ends_with(want), "{asked}");
}

/// Found with a Dart package (session 45, cache_entries): asked "How many responses does the
/// cache hold by default?", the look searched `default`, the one word `cache.dart` lacked, and
/// Qwen2.5-Coder-0.5B answered `3` from the changelog's lines; the file sets the default as a
/// parameter's value (`this.maxEntries = 256`). "By default" names no word to search: the
/// file named by its stem is read; so is the file "cached responses" names (cache_ttl).
#[test]
fn by_default_is_no_word_a_file_named_by_its_stem_lacks() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "lib/src/cache.dart",
                "/// In-memory LRU cache for successful GET responses.\nclass ResponseCache {\n  ResponseCache({this.maxEntries = 256});\n  final int maxEntries;\n}\n",
            ),
            (
                "CHANGELOG.md",
                "- The default of 3 attempts matches the old default of 2 retries.\n- The cache's default size is now 256 responses.\n",
            ),
        ],
    );
    let want = r#"{"name":"read","arguments":{"path":"lib/src/cache.dart"}}"#;
    let prompt = "How many responses does the cache hold by default?";
    let asked = asked_after_answer(&dir, prompt, "100", "Done.");
    assert!(asked.ends_with(want), "{asked}");
    // A participle before a noun names its verb's file too (cache_ttl: "cached responses";
    // the look searched `kept`, a doc comment's word).
    let prompt = "How many seconds are cached responses kept by default?";
    let asked = asked_after_answer(&dir, prompt, "60", "Done.");
    assert!(asked.ends_with(want), "{asked}");
}

/// Found with a Dart package (session 44): asked "What is the minimum Dart SDK version the
/// package supports?" and "Which Dart SDK version does CI run with?", the look was the read of
/// `lib/src/version.dart` (`version` names it by its stem) and Qwen2.5-Coder-0.5B answered the
/// package's `1.4.0` both times. Dart's SDK constraint is the pubspec's; the CI's version is
/// in its one workflow.
#[test]
fn a_dart_sdk_version_is_the_pubspecs_and_the_cis_its_workflows() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "lib/src/version.dart",
                "const String packageVersion = '1.4.0';\n",
            ),
            (
                "pubspec.yaml",
                "name: pebble\nversion: 1.4.0\nenvironment:\n  sdk: ^3.2.0\n",
            ),
            (
                ".github/workflows/ci.yml",
                "env:\n  DART_VERSION: \"3.3.4\"\n",
            ),
        ],
    );
    let read = |path: &str| format!(r#"{{"name":"read","arguments":{{"path":"{path}"}}}}"#);
    let asked = asked_after_answer(
        &dir,
        "What is the minimum Dart SDK version the package supports?",
        "1.4.0",
        "Done.",
    );
    assert!(asked.ends_with(&read("pubspec.yaml")), "{asked}");
    let asked = asked_after_answer(
        &dir,
        "Which Dart SDK version does CI run with?",
        "1.4.0",
        "Done.",
    );
    assert!(
        asked.ends_with(&read(".github/workflows/ci.yml")),
        "{asked}"
    );
    // Found with a Julia package (session 51): beside `CI.yml`, `TagBot.yml` tags releases;
    // asked "Which is the newest stable Julia release that CI runs the test suite on?", the
    // look was `ls test`. Of several workflows, the one named as the CI is.
    std::fs::write(
        dir.path().join(".github/workflows/TagBot.yml"),
        "name: TagBot\non:\n  issue_comment:\n",
    )
    .unwrap();
    let asked = asked_after_answer(
        &dir,
        "Which is the newest stable Dart release that CI runs the test suite on?",
        "1.4.0",
        "Done.",
    );
    assert!(
        asked.ends_with(&read(".github/workflows/ci.yml")),
        "{asked}"
    );
}

/// Found with an Ansible role (session 44): asked "Raise the role's minimum Ansible version to
/// 2.15.", Qwen2.5-Coder-0.5B sent `raise_role_minimum_ansible_version` with `{"version":
/// "2.15.0"}` until the run ended, shown the `edit` of `min_ansible_version: "2.14"`. A version
/// with a zero part more than the request writes is the new value it gives.
#[test]
fn a_made_up_call_sending_the_version_with_a_zero_more_is_the_change_due() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "roles/harbor/meta/main.yml",
            "galaxy_info:\n  role_name: harbor\n  min_ansible_version: \"2.14\"\n",
        )],
    );
    assert_made_up_thrice_makes(
        &dir,
        "Raise the role's minimum Ansible version to 2.15.",
        (
            "raise_role_minimum_ansible_version",
            json!({"version": "2.15.0"}),
        ),
        "roles/harbor/meta/main.yml",
        "galaxy_info:\n  role_name: harbor\n  min_ansible_version: \"2.15\"\n",
    );
}

/// Found with a Haskell project (session 47): asked "What is the newest GHC version CI builds
/// with?", shown the workflow's `ghc: ["9.4.8", "9.6.4", "9.8.2"]`, Qwen2.5-Coder-0.5B answered
/// `9.4.8`, the first of the list. An answer giving one of the versions a line lists, when the
/// question asks for the newest (oldest, …), is asked once for the one it asks for.
#[test]
fn the_first_of_a_listed_set_of_versions_is_not_the_newest() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "ci.yml",
            "jobs:\n  build:\n    strategy:\n      matrix:\n        ghc: [\"9.4.8\", \"9.6.4\", \"9.8.2\"]\n    steps:\n      - uses: haskell-actions/setup@v2\n",
        )],
    );
    let prompt = "What is the newest GHC version CI builds with?";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "ci.yml"})),
            "The newest GHC version CI builds with GHC 9.4.8.".into(),
            "9.8.2".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`9.4.8` is not the newest of the versions this line lists: `ghc: [")
            && asked.contains("the newest there is `9.8.2`"),
        "{asked}"
    );
    assert!(requests[2].tools.is_empty());
    assert_eq!(t.answer.as_deref(), Some("9.8.2"));
    // The newest stands at once; so does any of them when the question asks for all.
    for (prompt, answer) in [
        (prompt, "9.8.2"),
        ("Which GHC versions does CI build with?", "9.4.8"),
    ] {
        let (t, requests) = run_prompt(
            &dir,
            prompt,
            vec![call("read", json!({"path": "ci.yml"})), answer.into()],
        );
        assert_eq!((t.answer.as_deref(), requests.len()), (Some(answer), 2));
    }
}

/// Found with a Haskell project (session 47): asked "What is the upper bound on the aeson
/// dependency?", Qwen2.5-Coder-0.5B was offered (and sent) a search for `bound`, on the lines of
/// `fiscalYearBounds`, and answered "12 months". What the asked thing is on or for counts as
/// what it is of does — the dependency's name, not its kind's word (`dependency`, on the
/// README's one line about dependencies).
#[test]
fn what_a_bound_is_on_is_searched_for_too() {
    let dir = folder();
    write_files(
        &dir,
        &[
            (
                "ledger-lite.cabal",
                "library\n  build-depends:\n      base >=4.17 && <5\n    , aeson >=2.1 && <2.3\n",
            ),
            (
                "src/Report.hs",
                "fiscalYearBounds :: Config -> Integer -> (Day, Day)\nfiscalYearBounds cfg y = (start, end)\n",
            ),
            ("README.md", "# ledger\n\nEvery dependency is pinned.\n"),
        ],
    );
    let grep = |pattern: &str| {
        format!(r#"{{"name":"grep","arguments":{{"pattern":"{pattern}","ignore_case":true}}}}"#)
    };
    for (prompt, want) in [
        ("What is the upper bound on the aeson dependency?", "aeson"),
        ("What is the upper bound for the aeson package?", "aeson"),
    ] {
        let (_, requests) = run_prompt(&dir, prompt, vec!["12 months".into(), "2.3".into()]);
        let asked = &requests[1].messages.last().unwrap().content;
        assert!(asked.ends_with(&grep(want)), "{prompt}: {asked}");
    }
}

/// Found with a Haskell project (session 47). Asked "How many columns wide are reports when
/// --width isn't given?", the look searched "columns wide", the README's stale `80`; the option
/// is defined as `long "width"` with `value 96`: a long flag no file but the docs writes with
/// its dashes is searched by its name. Asked "What line length limit does fourmolu enforce?",
/// the look searched `length` in the code; `fourmolu.yaml`, named by its stem, keys the limit
/// (`column-limit: 100`): a settings file keying a word of the question is read. Asked "How
/// many transactions can a journal hold before ledger-lite refuses to load it?", the look
/// searched `ledger-lite`, the project's own name (its README's title), on lines all over it.
#[test]
fn a_flag_by_its_name_a_settings_file_by_its_key_and_not_the_projects_name() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "README.md",
                "# ledger-lite\n\nledger-lite reads a journal.\nReports are 80 columns wide unless you pass `--width`.\n",
            ),
            (
                "app/Main.hs",
                "opts = option auto\n      ( long \"width\"\n          <> value 96\n          <> showDefault )\ndie' msg = putStrLn (\"ledger-lite: \" <> msg)\n",
            ),
            ("fourmolu.yaml", "indentation: 2\ncolumn-limit: 100\n"),
            (
                "src/Report.hs",
                "renderBalance opts = replicate (roWidth opts) '-'\n-- the length of each line\nlineLength = length\n",
            ),
        ],
    );
    assert_search_offered(
        &dir,
        "How many columns wide are reports when --width isn't given?",
        "width",
    );
    let asked = asked_after_answer(
        &dir,
        "What line length limit does fourmolu enforce?",
        "I do not know.",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"fourmolu.yaml"}}"#),
        "{asked}"
    );
    let asked = asked_after_answer(
        &dir,
        "How many lines can a journal hold before ledger-lite refuses it?",
        "I do not know.",
        "Done.",
    );
    assert!(!asked.contains(r#""pattern":"ledger-lite""#), "{asked}");
}

/// Found with a Clojure service (session 47). Asked "Which Java version does CI run the tests
/// on?", shown the workflow's `JAVA_VERSION: "17"`, Qwen2.5-Coder-0.5B answered `11` — a read's
/// line number, or of `1.11.1`: a version question answered with a whole number no line writes
/// as one is pointed once at the lines about what it asks. Asked "Which version of next.jdbc
/// does courier depend on?", the look searched `depend`: a dotted name is searched as written.
#[test]
fn a_version_no_line_writes_is_pointed_at_the_lines_about_it_and_a_dotted_name_is_searched() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "ci.yml",
                "env:\n  JAVA_VERSION: \"17\"\n  CLOJURE_CLI_VERSION: \"1.11.1.1435\"\njobs:\n  test:\n    steps:\n      - uses: actions/setup-java@v4\n",
            ),
            (
                "deps.edn",
                "{:deps {org.clojure/clojure {:mvn/version \"1.11.3\"}\n        com.github.seancorfield/next.jdbc {:mvn/version \"1.3.925\"}}}\n",
            ),
            (
                "README.md",
                "# courier\n\nParcel tracking. Dependencies are in deps.edn.\n",
            ),
        ],
    );
    let prompt = "Which Java version does CI run the tests on?";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "ci.yml"})),
            "11".into(),
            "17".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.starts_with("No line of the tool results writes `11` as a java version")
            && asked.contains("`JAVA_VERSION: \"17\"`"),
        "{asked}"
    );
    assert!(requests[2].tools.is_empty());
    assert_eq!(t.answer.as_deref(), Some("17"));
    // The version a line about it writes stands.
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![call("read", json!({"path": "ci.yml"})), "17".into()],
    );
    assert_eq!((t.answer.as_deref(), requests.len()), (Some("17"), 2));
    assert_search_offered(
        &dir,
        "Which version of next.jdbc does courier depend on?",
        "next.jdbc",
    );
}

/// Found with a Clojure service (session 47): asked "How many connections does the database
/// pool hold in production?", shown lines 14 to 17 of `db.clj` (`(defn start-pool` …),
/// Qwen2.5-Coder-0.5B answered `14`, the number of the read's first line. An answer that the
/// results hold only as a read's line number is asked once to answer from the lines' text —
/// in a turn without tools when the message shows the lines bearing on the question.
#[test]
fn a_reads_line_number_is_no_answer() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/db.clj",
                "(ns courier.db)\n\n(defn start-pool\n  [{:keys [pool-size]}]\n  (log/infof \"Opening database pool with %d connections\" pool-size))\n",
            ),
            (
                "resources/config.edn",
                "{:db {:pool-size #profile {:dev 4 :test 2 :prod 24}}}\n",
            ),
        ],
    );
    let prompt = "How many connections does the database pool hold in production?";
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call(
                "read",
                json!({"path": "src/db.clj", "start_line": 3, "end_line": 5}),
            ),
            call("read", json!({"path": "resources/config.edn"})),
            "3".into(),
            "24".into(),
        ],
    );
    let asked = &requests[3].messages.last().unwrap().content;
    assert!(
        asked.starts_with(
            "`3` is only the number of a line of a read, not a value the file writes."
        ),
        "{asked}"
    );
    // The message shows the lines bearing on the question: the turn is for the answer, with no
    // tools (session 49: asked again, Qwen2.5-Coder-0.5B sent its search and read a fourth
    // time, and the run ended with `repeated_failure`, no answer).
    assert!(bearing_lines(asked).contains(":prod 24"), "{asked}");
    assert!(requests[3].tools.is_empty());
    assert_eq!(t.answer.as_deref(), Some("24"));
    // A number a line's text writes stands.
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            call("read", json!({"path": "resources/config.edn"})),
            "24".into(),
        ],
    );
    assert_eq!((t.answer.as_deref(), requests.len()), (Some("24"), 2));
}

/// Found with a Clojure service (session 47): asked "Which base image does the final Docker
/// image run on?", the look searched "docker image", on a comment of the CI workflow and a line
/// of the changelog, and the `Dockerfile` was never read. A phrase holding the word that names
/// a file by its stem is about that file.
#[test]
fn a_phrase_naming_the_file_is_about_the_file() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "Dockerfile",
                "FROM clojure:temurin-21-tools-deps AS build\nRUN clojure -T:build uber\n\nFROM eclipse-temurin:21.0.3_9-jre-jammy\nCOPY --from=build /app/target/courier.jar /app/\n",
            ),
            (
                "ci.yml",
                "env:\n  # The Docker image itself runs on Java 21.\n  JAVA_VERSION: \"17\"\n",
            ),
            ("CHANGELOG.md", "- The Docker image now runs on Java 21.\n"),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "Which base image does the final Docker image run on?",
        "java",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"Dockerfile"}}"#),
        "{asked}"
    );
}

/// Found with a Clojure service (session 47): asked "Which port does the server listen on in
/// development when PORT is not set?", the look was the read of `src/courier/server.clj`,
/// which the question names by its stem and which is handed its port (`:port port`), and
/// Qwen2.5-Coder-0.5B answered `44`, the number of a line of it; the port is set in
/// `resources/config.edn`. What the question asks for, a word the named file writes beside no
/// number while another file sets it as a key, is searched for.
#[test]
fn a_value_the_named_file_is_handed_is_searched_where_it_is_set() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/courier/server.clj",
                "(ns courier.server)\n\n(defn start! [cfg]\n  (let [{:keys [host port]} (:http cfg)]\n    (jetty/run-jetty app {:host host\n                          :port port})\n    (log/infof \"Listening on http://%s:%d\" host port)))\n",
            ),
            (
                "resources/config.edn",
                "{:http {:host #or [#env HOST \"0.0.0.0\"]\n        :port #profile {:dev #long #or [#env PORT 3000]\n                        :prod #long #or [#env PORT 8080]}}}\n",
            ),
        ],
    );
    assert_search_offered(
        &dir,
        "Which port does the server listen on in development when PORT is not set?",
        "port",
    );
}

/// Found with a Haskell project (session 47): asked "How many transactions can a journal hold
/// before ledger-lite refuses to load it?", the look searched `load`, a word `Journal.hs`
/// (named by "journal") lacks, and that file shows only `cfgMaxTransactions cfg`, handed from
/// the configuration. What the question asks for, the last part of a name the file is handed,
/// is searched where another file sets that name (`cfgMaxTransactions = 250000`).
#[test]
fn a_handed_names_last_part_is_searched_where_it_is_set() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "README.md",
                "# ledger-lite\n\nledger-lite reads a journal and prints balances.\n",
            ),
            (
                "src/Config.hs",
                "defaultConfig =\n  Config\n    { cfgCurrency = \"EUR\"\n    , cfgMaxTransactions = 250000\n    }\n",
            ),
            (
                "src/Journal.hs",
                "-- | Reads a journal file.\nreadJournal cfg path = do\n  txns <- parse path\n  when (length txns > cfgMaxTransactions cfg) $\n    Left (JournalFull (cfgMaxTransactions cfg))\n",
            ),
            ("app/Main.hs", "main = loadOrDie \"journal.ledger\"\n"),
        ],
    );
    assert_search_offered(
        &dir,
        "How many transactions can a journal hold before ledger-lite refuses to load it?",
        "transactions",
    );
}

/// Found with a Vue/Vite application (session 47): asked "How long is the search input
/// debounced, in milliseconds?", the look searched `milliseconds`, the unit the answer is asked
/// in, which only another setting's comment writes, and Qwen2.5-Coder-0.5B answered its
/// `15000`. What a "how long" question times is its participle's doing, searched by its stem
/// (`searchDebounceMs: 350`); the answer's unit is no word to search.
#[test]
fn how_long_a_thing_is_done_is_searched_by_the_doings_stem() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/config.ts",
                "export const appConfig = {\n  /** Wait this long after the last keystroke before querying /places/search. */\n  searchDebounceMs: 350,\n  /** Per-request timeout for the axios client, in milliseconds. */\n  requestTimeoutMs: 15000,\n}\n",
            ),
            (
                "src/components/TripList.vue",
                "<input v-model=\"query\" />\nconst onInput = debounce(() => store.search(query.value), appConfig.searchDebounceMs)\n",
            ),
            (
                "CHANGELOG.md",
                "- Search debounce lowered to 350 ms (was 500 ms).\n",
            ),
        ],
    );
    assert_search_offered(
        &dir,
        "How long is the search input debounced, in milliseconds?",
        "debounce",
    );
}

/// Found with a Vue/Vite application (session 47): asked "What API base URL does the production
/// build use?", the look searched "production build", on the comment of the end-to-end tests'
/// `baseURL: 'http://localhost:4173'`, and Qwen2.5-Coder-0.5B answered that. An acronym before
/// what a question asks for qualifies it ("API base URL" is asked for), and a phrase of three
/// words is searched joined as code writes it (`VITE_API_BASE_URL`, `apiBaseUrl`).
#[test]
fn an_acronym_qualifies_what_is_asked_and_three_words_are_searched_joined() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                ".env.production",
                "# Used by `npm run build`.\nVITE_API_BASE_URL=https://api.atlas-trips.io/v2\n",
            ),
            (
                "playwright.config.ts",
                "export default {\n  use: {\n    // E2E runs against the production build served by `vite preview`.\n    baseURL: 'http://localhost:4173',\n  },\n}\n",
            ),
            (
                "src/config.ts",
                "export const appConfig = {\n  apiBaseUrl: import.meta.env.VITE_API_BASE_URL ?? '/api',\n}\n",
            ),
        ],
    );
    assert_search_offered(
        &dir,
        "What API base URL does the production build use?",
        "api[._-]?base[._-]?url",
    );
}

/// Found with a Vue/Vite application (session 47): asked "Which nginx image version does the
/// Docker image serve the app with?", the look was the read of `nginx.conf` (named by "nginx"),
/// which holds no version, and the model read it until the run ended. Asked which version, a
/// file holding none is named by no word; the Dockerfile, whose `FROM nginx:1.25.4-alpine`
/// writes the subject beside a version, is read — not searched for the words it lacks
/// ("image", "serve").
#[test]
fn a_version_question_reads_the_file_writing_its_subject_beside_a_version() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "nginx.conf",
                "server {\n    listen 8080;\n    root /usr/share/nginx/html;\n    gzip_types text/css image/svg+xml;\n}\n",
            ),
            (
                "Dockerfile",
                "FROM node:20.11.1-alpine AS build\nRUN npm run build\n\nFROM nginx:1.25.4-alpine AS runtime\nCOPY nginx.conf /etc/nginx/conf.d/default.conf\n",
            ),
            (
                "src/App.vue",
                "<template><main /></template>\n<style>main { padding: 0.5rem 1rem; }</style>\n",
            ),
            (
                "README.md",
                "# atlas\n\nThe production image serves the built app with nginx.\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "Which nginx image version does the Docker image serve the app with?",
        "1.19.1",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"Dockerfile"}}"#),
        "{asked}"
    );
}

/// Found with a Clojure service (session 47): asked "Which Java version does CI run the tests
/// on?", after reading the workflow the lines shown as bearing were its other versions
/// (`CLOJURE_CLI_VERSION: "1.11.1.1435"`, `setup-clojure@12.5`) — lines writing a dotted
/// version — and Qwen2.5-Coder-0.5B answered `11`; `JAVA_VERSION: "17"` sets it. A key naming
/// a version set to a whole number writes a version too.
#[test]
fn a_version_key_set_to_a_whole_number_bears_on_a_version_question() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            ".github/workflows/ci.yml",
            "name: CI\nenv:\n  # The oldest JDK we support; the Docker image itself runs on Java 21.\n  JAVA_VERSION: \"17\"\n  CLOJURE_CLI_VERSION: \"1.11.1.1435\"\n  CLJ_KONDO_VERSION: \"2024.03.13\"\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: DeLaGuardo/setup-clojure@12.5\n      - uses: actions/setup-java@v4\n        with:\n          java-version: ${{ env.JAVA_VERSION }}\n      - run: clojure -X:test\n",
        )],
    );
    let nudge = nudge_after_reading(
        &dir,
        ".github/workflows/ci.yml",
        "Which Java version does CI run the tests on?",
    );
    let lines = bearing_lines(&nudge);
    assert!(lines.contains("JAVA_VERSION: \"17\""), "{nudge}");
    assert!(!lines.contains("CLOJURE_CLI_VERSION"), "{nudge}");
}

/// Found with a Clojure service (session 47): asked "Which base image does the final Docker
/// image run on?", the read of the Dockerfile showed no line as bearing on it, and
/// Qwen2.5-Coder-0.5B answered `clojure`, the build stage's image. A Dockerfile's `FROM` line
/// names a stage's base image; asked for the final one, the last stage's is shown.
#[test]
fn the_final_stages_from_line_bears_on_the_final_image() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "Dockerfile",
            "# syntax=docker/dockerfile:1\n\nFROM clojure:temurin-21-tools-deps-1.11.1.1435-jammy AS build\nWORKDIR /src\nRUN clojure -T:build uber\n\nFROM eclipse-temurin:21.0.3_9-jre-jammy\nWORKDIR /app\nCOPY --from=build /src/target/courier-standalone.jar /app/courier.jar\n",
        )],
    );
    let nudge = nudge_after_reading(
        &dir,
        "Dockerfile",
        "Which base image does the final Docker image run on?",
    );
    let lines = bearing_lines(&nudge);
    assert!(
        lines.contains("FROM eclipse-temurin:21.0.3_9-jre-jammy"),
        "{nudge}"
    );
    assert!(!lines.contains("FROM clojure"), "{nudge}");
    // Not asked for the final one: every stage's.
    let nudge = nudge_after_reading(
        &dir,
        "Dockerfile",
        "Which base image does the Docker image run on?",
    );
    let lines = bearing_lines(&nudge);
    assert!(
        lines.contains("FROM clojure") && lines.contains("FROM eclipse-temurin"),
        "{nudge}"
    );
}

/// Found with a Vue/Vite application (session 47): asked "What API base URL does the production
/// build use?", the search for `api[._-]?base[._-]?url` showed `.env`, `.env.production` and
/// `src/config.ts`; the line shown as bearing was config.ts's `apiBaseUrl: … ?? '/api'`, and
/// Qwen2.5-Coder-0.5B answered `/api`. A variant of a file the question names ("production":
/// `.env.production`) comes before its base file and the code reading it.
#[test]
fn a_variant_the_question_names_bears_before_its_base() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (".env", "VITE_API_BASE_URL=/api\n"),
            (
                ".env.production",
                "VITE_API_BASE_URL=https://api.atlas-trips.io/v2\n",
            ),
            (
                "src/config.ts",
                "export const appConfig = {\n  apiBaseUrl: import.meta.env.VITE_API_BASE_URL ?? '/api',\n}\n",
            ),
        ],
    );
    let search = || {
        call(
            "grep",
            json!({"pattern": "api[._-]?base[._-]?url", "ignore_case": true}),
        )
    };
    let (t, requests) = run_prompt(
        &dir,
        "What API base URL does the production build use?",
        vec![
            search(),
            search(),
            search(),
            "https://api.atlas-trips.io/v2".into(),
        ],
    );
    let last = t.turns.last().unwrap();
    let nudge = last.nudge.clone().unwrap_or_default();
    let lines = bearing_lines(&nudge);
    assert!(lines.contains("https://api.atlas-trips.io/v2"), "{nudge}");
    assert!(!lines.contains("'/api'"), "{nudge}");
    assert!(requests.len() >= 4);
}

/// Found with an Ansible role (harbor set, rerun in session 48): asked "What is the minimum
/// Ansible version the role needs?", the search for `ansible[ ._-]?version` showed the
/// changelog's "Minimum Ansible version is now 2.14; ansible-core 2.13 is end of life." and
/// the role's `min_ansible_version: "2.14"`; the lines shown as bearing were the changelog's,
/// and the model's right `2.14` was then corrected to `2.13`, read as the least of the versions
/// the sentence lists. A key whose parts are short forms of the question's words (`min`) sets
/// what it asks; two versions in a sentence are no list to pick the least of.
#[test]
fn a_short_keyed_setting_bears_and_a_sentence_is_no_list_of_versions() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "CHANGELOG.md",
                "## 1.4.0\n- Minimum Ansible version is now 2.14; ansible-core 2.13 is end of life.\n",
            ),
            (
                "roles/harbor/meta/main.yml",
                "galaxy_info:\n  role_name: harbor\n  min_ansible_version: \"2.14\"\n",
            ),
        ],
    );
    let search = || {
        call(
            "grep",
            json!({"pattern": "ansible[ ._-]?version", "ignore_case": true}),
        )
    };
    let (t, _) = run_prompt(
        &dir,
        "What is the minimum Ansible version the role needs?",
        vec![search(), search(), search(), "2.14".into(), "Done.".into()],
    );
    let answer_turn = &t.turns[3];
    let nudge = answer_turn.nudge.clone().unwrap_or_default();
    let lines = bearing_lines(&nudge);
    assert!(lines.contains("min_ansible_version: \"2.14\""), "{nudge}");
    assert_eq!(t.answer.as_deref(), Some("2.14"), "{:?}", t.turns.last());
}

/// Found re-running a Phoenix project's dev_database (session 48): asked "What is the name of
/// the development database?", the search for `dev` showed `config/dev.exs (line 7):
/// database: "chirp_dev",` as bearing, and Qwen2.5-Coder-0.5B answered `config/dev.exs`. The
/// file of a bearing line given as the value, for a question asking no file, is asked once to
/// answer with the value the line writes.
#[test]
fn a_bearing_lines_file_is_no_answer() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "config/dev.exs",
                "import Config\n\nconfig :chirp, Chirp.Repo,\n  username: \"postgres\",\n  database: \"chirp_dev\",\n  pool_size: 10\n",
            ),
            (
                "mix.exs",
                "defp deps do\n  [{:credo, \"~> 1.7\", only: [:dev, :test]}]\nend\n",
            ),
        ],
    );
    let search = || call("grep", json!({"pattern": "dev", "ignore_case": true}));
    let (t, requests) = run_prompt(
        &dir,
        "What is the name of the development database?",
        vec![
            search(),
            search(),
            search(),
            "config/dev.exs".into(),
            // Then the start of the value (the s48g rerun): asked for the whole.
            "chirp".into(),
            "chirp_dev".into(),
        ],
    );
    let asked = &requests[4].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`config/dev.exs` is only the file"),
        "{asked}"
    );
    assert!(asked.contains("database: \"chirp_dev\""), "{asked}");
    let asked = &requests[5].messages.last().unwrap().content;
    assert!(
        asked.contains("answer with `chirp_dev`, as written"),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("chirp_dev"));
}

/// Found with a Haskell/Cabal project (session 47, report_width) and a Clojure service
/// (prod_pool_size): asked "How many columns wide are reports when --width isn't given?", the
/// search for `width` showed the changelog's "`--width` now defaults to 96 columns (was 80)."
/// and the README's "Reports are 80 columns wide …", the line shown as bearing was the README's
/// (it holds more of the question's words), and Qwen2.5-Coder-0.5B answered `80`. A value a
/// change log says was replaced is stale where another line still writes it alone.
#[test]
fn a_value_the_change_log_says_was_replaced_is_stale_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "CHANGELOG.md",
                "## 0.4.0\n- `--width` now defaults to 96 columns (was 80).\n",
            ),
            (
                "README.md",
                "Reports are 80 columns wide unless you pass `--width`.\n",
            ),
            (
                "app/Main.hs",
                "    <*> option\n      auto\n      ( long \"width\"\n          <> value 96\n      )\n",
            ),
        ],
    );
    let grep = call("grep", json!({"pattern": "width", "ignore_case": true}));
    let (_, requests) = run_prompt(
        &dir,
        "How many columns wide are reports when --width isn't given?",
        vec![grep.clone(), grep.clone(), grep.clone(), grep, "80".into()],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert!(
        shown.contains("96 columns") && !shown.contains("README.md"),
        "{asked}"
    );

    // "from A to B" says the same, and so does a change replaced again later: only the
    // newest value stands.
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "CHANGELOG.md",
                "## 1.2.0\n- Raise the production database pool from 16 to 24 connections.\n\n## 1.0.0\n- Raise the production database pool from 10 to 16 connections.\n",
            ),
            (
                "README.md",
                "Each instance in production keeps a pool of 16 database connections.\n",
            ),
        ],
    );
    let grep = call(
        "grep",
        json!({"pattern": "connections", "ignore_case": true}),
    );
    let (_, requests) = run_prompt(
        &dir,
        "How many connections does the database pool hold in production?",
        vec![grep.clone(), grep.clone(), grep.clone(), grep, "16".into()],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert!(
        shown.contains("from 16 to 24")
            && !shown.contains("README.md")
            && !shown.contains("from 10"),
        "{asked}"
    );
}

/// Found with an OCaml/dune project (session 49, opam_package_name): asked "What's the package
/// called on opam?", the run took the request for no question — "what's" is no question word —
/// offered every tool, and Qwen2.5-Coder-0.5B's copied `write` replaced `tern-planner.opam`
/// with `new_text`; the look searched `opam`, where "What is the package called on opam?"
/// searches `package`. A contraction is read as the words it stands for.
#[test]
fn a_question_with_a_contraction_is_a_question() {
    let dir = folder();
    let write = call("write", json!({"path": "todo.txt", "content": "new_text"}));
    for question in [
        "What's still open in todo.txt?",
        "What’s still open in todo.txt?",
        "Isn't the passport renewed yet?",
        "Doesn't todo.txt list the passport?",
    ] {
        let (t, requests) = run_prompt(&dir, question, vec![write.clone(), "Done.".into()]);
        let offered: Vec<&str> = requests[0].tools.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(offered, ["glob", "grep", "ls", "read"], "{question}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
            "TODO: renew the passport\n",
            "{question}"
        );
        // The user's words go to the model as written.
        assert_eq!(requests[0].messages.last().unwrap().content, question);
        assert_eq!(t.prompt, question);
    }
    // The look is the one for the words it stands for.
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "tern-planner.opam",
                "opam-version: \"2.0\"\nversion: \"0.6.1\"\n",
            ),
            (
                "dune-project",
                "(lang dune 3.0)\n(name tern-planner)\n(package\n (name tern-planner))\n",
            ),
            (
                ".github/workflows/ci.yml",
                "      - run: opam install . --deps-only\n",
            ),
        ],
    );
    let short = asked_after_answer(&dir, "What's the package called on opam?", "tern", "Done.");
    let long = asked_after_answer(&dir, "What is the package called on opam?", "tern", "Done.");
    assert_eq!(short.replace("What's", "What is"), long, "{short}\n{long}");
}

/// Found with an OCaml/dune project (session 49): Qwen2.5-Coder-0.5B sent, after a read,
/// `edit` with `{"old_text": "old_text", "new_text": "new_text"}` and `write` with `{"content":
/// "new_text"}` — the names of the tools' fields as their values — and the write replaced the
/// opam file with those eight bytes. A value that is a field's name, as the schema writes it,
/// is a placeholder: the call is not run, and the message says what to send instead.
#[test]
fn a_field_name_sent_as_a_value_is_a_placeholder_and_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let opam = "opam-version: \"2.0\"\nversion: \"0.6.1\"\n";
    write_files(&dir, &[("tern-planner.opam", opam)]);
    let (t, _) = run_prompt(
        &dir,
        "Bump the version to 0.7.0.",
        vec![
            call("read", json!({"path": "tern-planner.opam"})),
            call(
                "write",
                json!({"path": "tern-planner.opam", "content": "new_text"}),
            ),
            call(
                "edit",
                json!({"path": "tern-planner.opam", "old_text": "old_text", "new_text": "new_text"}),
            ),
            "Done.".into(),
        ],
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("tern-planner.opam")).unwrap(),
        opam
    );
    for turn in &t.turns[1..3] {
        let sent = &turn.calls[0];
        assert!(sent.result.failure.is_some(), "{sent:?}");
        assert!(
            sent.feedback.contains("is the name of a field")
                && sent.feedback.contains(r#""new_text":"version: \"0.7.0\"""#),
            "{}",
            sent.feedback
        );
    }
}

/// Found with an OCaml/dune project (session 49, tern_version): asked "What version of tern is
/// this?", shown `lib/version.ml`'s `let current = "0.6.1"` and a listing, Qwen2.5-Coder-0.5B
/// answered `tern 0.6.1` — and was told that was the version on a line about something else,
/// to answer from the line about tern: the listing's `tern-planner.opam (1053 bytes)`, which
/// writes no version. It then answered with that line. Lines about what a version question
/// asks the version of count only when they write a version.
#[test]
fn a_line_about_the_subject_writing_no_version_does_not_overrule_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            ("lib/version.ml", "let current = \"0.6.1\"\n"),
            (
                "tern-planner.opam",
                "opam-version: \"2.0\"\nversion: \"0.6.1\"\nsynopsis: \"Passage planner\"\n",
            ),
        ],
    );
    let (t, requests) = run_prompt(
        &dir,
        "What version of tern is this?",
        vec![
            call("ls", json!({"path": "."})),
            call("read", json!({"path": "lib/version.ml"})),
            "tern 0.6.1".into(),
            "tern-planner.opam".into(),
        ],
    );
    assert_eq!(
        (t.answer.as_deref(), requests.len()),
        (Some("tern 0.6.1"), 3),
        "{:?}",
        requests.last().unwrap().messages.last()
    );
}

/// Found with an OCaml/dune project (session 49, docker_runtime_image): asked "Which base image
/// does the final stage of the Docker build run on?", the look searched `image`, on two lines
/// of the README, and Qwen2.5-Coder-0.5B answered the build stage's `ocaml/opam`; the
/// Dockerfile, whose `FROM` lines are the stages' base images, was never read. A Dockerfile
/// with `FROM` lines holds "base", "image", "stage" and "final".
#[test]
fn a_dockerfiles_from_lines_hold_the_base_image_of_each_stage() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "Dockerfile",
                "FROM ocaml/opam:debian-12-ocaml-5.1 AS build\nRUN opam exec -- dune build\n\nFROM debian:bookworm-20240612-slim\nCOPY --from=build /home/opam/main.exe /usr/local/bin/tern\n",
            ),
            (
                "README.md",
                "`etc/tern.json` is the config baked into the Docker image.\n\n```sh\ndocker build -t tern .\n```\n\nThe image is built with the official `ocaml/opam` image and runs on a slim\nDebian bookworm base.\n",
            ),
            (
                "CHANGES.md",
                "- Docker: runtime stage now uses `debian:bookworm-20240612-slim`.\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "Which base image does the final stage of the Docker build run on?",
        "ubuntu:latest",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"Dockerfile"}}"#),
        "{asked}"
    );
}

/// Found with an OCaml/dune project (session 49): "Change the default forecast timeout to 3000
/// ms." was offered the edit of CHANGES.md's "(default 15)." — the verb "Change" named
/// `CHANGES.md` by its stem, and a file the request names is where a change is looked for
/// first. A changelog named by its stem only is no file the request names.
#[test]
fn the_verb_change_names_no_changelog() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "CHANGES.md",
                "## 0.3.0\n\n- `--reserve` adds a safety margin\n  (default 15).\n",
            ),
            (
                "lib/defaults.ml",
                "let forecast_timeout_ms = 6000\nlet max_waypoints = 250\n",
            ),
        ],
    );
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    let offered = tools.change_asked("Change the default forecast timeout to 3000 ms.");
    assert_eq!(
        offered.as_deref(),
        Some(
            r#"{"name":"edit","arguments":{"path":"lib/defaults.ml","old_text":"let forecast_timeout_ms = 6000","new_text":"let forecast_timeout_ms = 3000"}}"#
        )
    );
}

/// Found with an OCaml/dune project (session 49, default_width): asked "How wide is the text
/// table when I don't give --width?", the search for `width` showed the changelog's "`--width`
/// now defaults to 88 columns.", the README's table row "| `-w`, `--width` | `80` | Width of
/// the text table |" and `bin/main.ml`'s `Arg.(value & opt int 88 & info [ "w"; "width" ] …)`;
/// the README's row alone was shown as bearing (it holds the most of the question's words),
/// and Qwen2.5-Coder-0.5B answered `80`. Of the lines writing a number, the code's come before
/// documents'.
#[test]
fn a_number_the_code_writes_comes_before_the_documents() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "CHANGES.md",
                "## 0.6.0\n- `--width` now defaults to 88 columns.\n",
            ),
            (
                "README.md",
                "| Flag | Default | Meaning |\n| `-w`, `--width`   | `80`               | Width of the text table |\n",
            ),
            (
                "bin/main.ml",
                "let width =\n  let doc = \"Maximum width of the text table.\" in\n  Arg.(value & opt int 88 & info [ \"w\"; \"width\" ] ~docv:\"COLUMNS\" ~doc)\n",
            ),
        ],
    );
    let grep = call("grep", json!({"pattern": "width", "ignore_case": true}));
    let (_, requests) = run_prompt(
        &dir,
        "How wide is the text table when I don't give --width?",
        vec![grep.clone(), grep.clone(), grep.clone(), grep, "80".into()],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert!(
        shown.contains("opt int 88") && !shown.contains("README.md"),
        "{asked}"
    );
}

/// Found with an OCaml/dune project (session 49, ocamlformat_margin_100): "Let ocamlformat use
/// lines up to 100 columns wide." was offered the edit of `etc/tern.json`'s `"max_wind_kn":
/// 25,` to 100 — `.ocamlformat`'s `margin = 90` gave no change, and every file was searched
/// for a maximum. A dotfile the request names by its stem is the tool's own settings: the
/// change is there, or none is offered. Since session 50, the file's one whole-number setting
/// takes a whole number no key is named for (`margin = 90`).
#[test]
fn a_tools_dotfile_named_by_its_stem_is_where_its_change_goes() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                ".ocamlformat",
                "version = 0.26.2\nprofile = default\nmargin = 90\n",
            ),
            (
                "etc/tern.json",
                "{\n  \"max_wind_kn\": 25,\n  \"boat_speed_kn\": 6.2\n}\n",
            ),
        ],
    );
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    assert_eq!(
        tools
            .change_asked("Let ocamlformat use lines up to 100 columns wide.")
            .as_deref(),
        Some(
            r#"{"name":"edit","arguments":{"path":".ocamlformat","old_text":"margin = 90","new_text":"margin = 100"}}"#
        )
    );
}

/// Found with an OCaml/dune project (session 49, yojson_220): "Require at least yojson 2.2.0."
/// was offered no change — "at least" was no "or newer", and an opam file's `"yojson" {>=
/// "2.1.0"}` no pinned requirement; "Require yojson 2.2.0 or newer." found the opam file's own
/// `version: "0.6.1"` first.
#[test]
fn an_opam_dependency_bound_is_a_pinned_requirement() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "tern-planner.opam",
            "opam-version: \"2.0\"\nversion: \"0.6.1\"\ndepends: [\n  \"ocaml\" {>= \"4.14.0\"}\n  \"cmdliner\" {>= \"1.2.0\"}\n  \"yojson\" {>= \"2.1.0\"}\n]\n",
        )],
    );
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    let want = r#"{"name":"edit","arguments":{"path":"tern-planner.opam","old_text":"\"yojson\" {>= \"2.1.0\"}","new_text":"\"yojson\" {>= \"2.2.0\"}"}}"#;
    for prompt in [
        "Require at least yojson 2.2.0.",
        "Require yojson 2.2.0 or newer.",
        "Upgrade yojson to 2.2.0.",
    ] {
        assert_eq!(
            tools.change_asked(prompt).as_deref(),
            Some(want),
            "{prompt}"
        );
    }
}

/// Found with an OCaml/dune project (session 49, reserve_25): "Bump the default safety reserve
/// to 25 percent." was offered no change; the default is Cmdliner's `Arg.(value & opt int 20 &
/// info [ "r"; "reserve" ] …)`, the option's name in the `info` list, its default after `opt`
/// and the converter.
#[test]
fn a_cmdliner_options_default_is_set() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "bin/main.ml",
            "let speed =\n  Arg.(value & opt (some float) None & info [ \"s\"; \"speed\" ] ~docv:\"KNOTS\" ~doc)\n\nlet reserve =\n  Arg.(value & opt int 20 & info [ \"r\"; \"reserve\" ] ~docv:\"PERCENT\" ~doc)\n",
        )],
    );
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    assert_eq!(
        tools
            .change_asked("Bump the default safety reserve to 25 percent.")
            .as_deref(),
        Some(
            r#"{"name":"edit","arguments":{"path":"bin/main.ml","old_text":"Arg.(value & opt int 20 & info [ \"r\"; \"reserve\" ] ~docv:\"PERCENT\" ~doc)","new_text":"Arg.(value & opt int 25 & info [ \"r\"; \"reserve\" ] ~docv:\"PERCENT\" ~doc)"}}"#
        )
    );
    // An option with no literal default gets none.
    assert_eq!(tools.change_asked("Set the default speed to 6."), None);
}

/// Found with an R package (session 49): "What's the oldest version of R that meadow can be
/// installed on?" searched `meadow` in the `R/` folder (the word "R" taken for the folder);
/// "Which exact dplyr version is locked in the renv lockfile?" searched `locked`, a comment of
/// the Dockerfile, though `renv.lock` — named by its stem — writes dplyr's version on the line
/// after its name; "Which R version does the Docker image run?" searched "image run", though
/// the Dockerfile writes `ARG R_VERSION=4.3.2`. The oldest R is DESCRIPTION's `Depends: R (>=
/// …)`; a subject's version on one of the two lines after it, or as its `_VERSION` key, is
/// beside it; a one-letter name in capitals next to "version" is a subject.
#[test]
fn an_r_packages_versions_are_looked_for_where_r_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "DESCRIPTION",
                "Package: meadow\nVersion: 0.6.1\nDepends: R (>= 4.1.0)\nImports:\n    dplyr (>= 1.1.0)\n",
            ),
            (
                "renv.lock",
                "{\n  \"Packages\": {\n    \"dplyr\": {\n      \"Package\": \"dplyr\",\n      \"Version\": \"1.1.4\",\n      \"Source\": \"Repository\"\n    }\n  }\n}\n",
            ),
            (
                "Dockerfile",
                "ARG R_VERSION=4.3.2\n# --- build: restore the locked dependencies -----\nFROM rocker/r-ver:${R_VERSION} AS build\n",
            ),
            (
                "R/read.R",
                "read_survey <- function(path) {\n  meadow_inform(\"Reading\")\n}\n",
            ),
            (
                "README.md",
                "# meadow\n\nThe image runs meadow's pipeline.\n",
            ),
        ],
    );
    for (prompt, path) in [
        (
            "What's the oldest version of R that meadow can be installed on?",
            "DESCRIPTION",
        ),
        (
            "Which exact dplyr version is locked in the renv lockfile?",
            "renv.lock",
        ),
        ("Which R version does the Docker image run?", "Dockerfile"),
    ] {
        let asked = asked_after_answer(&dir, prompt, "4.0.0", "Done.");
        let want = format!(r#"{{"name":"read","arguments":{{"path":"{path}"}}}}"#);
        assert!(asked.ends_with(&want), "{prompt}: {asked}");
    }
}

/// Found with an R package (session 49, ci_newest_r): "What's the newest R release the GitHub
/// Actions check runs against?" searched `against` in the `R/` folder — the word "R" taken for
/// the folder, "GitHub Actions" for no CI. A one-letter word names a folder only written as a
/// path or called a folder; "GitHub Actions" names the CI's configuration.
#[test]
fn the_language_r_is_no_folder_and_github_actions_is_the_ci() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                ".github/workflows/R-CMD-check.yaml",
                "jobs:\n  check:\n    strategy:\n      matrix:\n        r: ['4.2.3', '4.3.3', '4.4.1']\n",
            ),
            (
                "R/constants.R",
                "# Matched against each name.\nUNKNOWN <- c(\"sp\")\n",
            ),
            ("README.md", "# meadow\n"),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "What's the newest R release the GitHub Actions check runs against?",
        "The latest.",
        "Done.",
    );
    assert!(
        asked.ends_with(
            r#"{"name":"read","arguments":{"path":".github/workflows/R-CMD-check.yaml"}}"#
        ),
        "{asked}"
    );
    let asked = asked_after_answer(&dir, "What is in the R folder?", "Code.", "Done.");
    assert!(
        asked.ends_with(r#"{"name":"ls","arguments":{"path":"R"}}"#),
        "{asked}"
    );
}

/// Found with an R package (session 49, domin_file): asked "Which file is domin_to_percent()
/// defined in?", the search showed the NAMESPACE's export, the NEWS, a call in `R/read.R`, the
/// docs and the definition in `R/scales.R`, all six shown as bearing, and Qwen2.5-Coder-0.5B
/// answered `R/read.R`. R defines a function by assigning it (`domin_to_percent <- function(x,
/// strict = FALSE) {`); for a question where a name is defined, the line defining it bears on
/// it before the others.
#[test]
fn the_line_defining_the_asked_name_bears_on_where_it_is_defined() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            ("NAMESPACE", "export(domin_to_percent)\n"),
            (
                "R/read.R",
                "read_survey <- function(path) {\n  domin = domin_to_percent(data$cover)\n}\n",
            ),
            (
                "R/scales.R",
                "#' `domin_to_percent()` maps each class to a percentage.\n#' domin_to_percent(c(\"+\", \"4\"))\ndomin_to_percent <- function(x, strict = FALSE) {\n  x\n}\n",
            ),
        ],
    );
    let grep = call(
        "grep",
        json!({"pattern": "domin_to_percent", "ignore_case": true}),
    );
    let (_, requests) = run_prompt(
        &dir,
        "Which file is domin_to_percent() defined in?",
        vec![
            grep.clone(),
            grep.clone(),
            grep.clone(),
            grep,
            "R/read.R".into(),
        ],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert_eq!(
        shown.trim(),
        "R/scales.R (line 3): domin_to_percent <- function(x, strict = FALSE) {",
        "{asked}"
    );
}

/// Found with an R package (session 49, codecov_target_85): "Raise the overall coverage target
/// on Codecov to 85%." gave nothing in `codecov.yml` (two `target:` lines), and the search of
/// every file offered an R example's `#' clean_survey(survey, min_cover = 5)` → `85%`. A
/// settings file the request names by its stem is where its change goes, or none is offered
/// — but for a version: `nginx.conf` holds none of the nginx image's. Since session 50 a
/// percentage replaces no word (`target: auto`), and the change is `target: 80%`.
#[test]
fn a_settings_file_named_by_its_stem_is_where_its_change_goes() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "codecov.yml",
                "coverage:\n  status:\n    project:\n      default:\n        target: 80%\n    patch:\n      default:\n        target: auto\n",
            ),
            (
                "R/clean.R",
                "#' clean_survey(survey, min_cover = 5)\nclean_survey <- function(data, min_cover = 0.25) {}\n",
            ),
            ("nginx.conf", "server {\n  listen 80;\n}\n"),
            (
                "Dockerfile",
                "FROM node:20.11.1-alpine AS build\nFROM nginx:1.25.4-alpine AS runtime\n",
            ),
        ],
    );
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    let want = r#"{"name":"edit","arguments":{"path":"codecov.yml","old_text":"target: 80%","new_text":"target: 85%"}}"#;
    assert_eq!(
        tools
            .change_asked("Raise the overall coverage target on Codecov to 85%.")
            .as_deref(),
        Some(want)
    );
    // And in the R package itself, whose README.Rmd is a document.
    let meadow = DispatchToolbox::builtin(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/meadow"),
    )
    .unwrap();
    assert_eq!(
        meadow
            .change_asked("Raise the overall coverage target on Codecov to 85%.")
            .as_deref(),
        Some(want)
    );
    assert_eq!(
        tools
            .change_asked("Update the nginx base image to 1.27.0-alpine.")
            .as_deref(),
        Some(
            r#"{"name":"edit","arguments":{"path":"Dockerfile","old_text":"FROM nginx:1.25.4-alpine AS runtime","new_text":"FROM nginx:1.27.0-alpine AS runtime"}}"#
        )
    );
}

/// Found with an R package (session 49, version_070): "Bump meadow's version to 0.7.0." was
/// offered no change, where "Bump the version to 0.7.0." was DESCRIPTION's `Version: 0.6.1`;
/// the README, whose heading names the project, starts with an HTML comment. The project's own
/// name as a possessive says whose setting it is, not which.
#[test]
fn the_projects_own_name_as_a_possessive_names_no_setting() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "README.md",
                "\n<!-- README.md is generated from README.Rmd. Please edit that file -->\n\n# meadow\n\nGrassland surveys.\n",
            ),
            (
                "DESCRIPTION",
                "Package: meadow\nVersion: 0.6.1\nDepends: R (>= 4.1.0)\n",
            ),
        ],
    );
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    assert_eq!(
        tools
            .change_asked("Bump meadow's version to 0.7.0.")
            .as_deref(),
        Some(
            r#"{"name":"edit","arguments":{"path":"DESCRIPTION","old_text":"Version: 0.6.1","new_text":"Version: 0.7.0"}}"#
        )
    );
}

/// Found with an OCaml/dune project (session 49, forecast_timeout_3s): "Cut the default
/// forecast timeout down to 3 seconds." was no change ("cut" no verb that sets), and "Set
/// forecast_timeout_ms to 3 seconds." offered `let forecast_timeout_ms = 3` — OCaml's `let`
/// hid the key's unit, so 3 seconds was not written as 3000 ms.
#[test]
fn a_let_bound_keys_unit_converts_the_value_and_cut_sets_it() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "lib/defaults.ml",
            "let boat_speed_kn = 5.5\n\n(* How long to wait for the forecast. *)\nlet forecast_timeout_ms = 6000\n",
        )],
    );
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    let want = r#"{"name":"edit","arguments":{"path":"lib/defaults.ml","old_text":"let forecast_timeout_ms = 6000","new_text":"let forecast_timeout_ms = 3000"}}"#;
    for prompt in [
        "Cut the default forecast timeout down to 3 seconds.",
        "Set forecast_timeout_ms to 3 seconds.",
    ] {
        assert_eq!(
            tools.change_asked(prompt).as_deref(),
            Some(want),
            "{prompt}"
        );
    }
}

/// Found with an OCaml/dune project (session 49, mock_forecast_port): "Which local port does
/// the dev config expect the mock forecast server on?" searched `mock[._-]?forecast`, a
/// Makefile target and README lines, and `etc/tern.dev.json`'s `"forecast_url":
/// "http://localhost:8089/v1/wind"` was never shown. "The dev config" names the one settings
/// file whose name holds `dev`.
#[test]
fn the_dev_config_names_the_dev_settings_file() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "etc/tern.json",
                "{\n  \"forecast_url\": \"https://api.windbird.example/v1/wind\"\n}\n",
            ),
            (
                "etc/tern.dev.json",
                "{\n  \"forecast_url\": \"http://localhost:8089/v1/wind\"\n}\n",
            ),
            (
                "Makefile",
                "mock-forecast:\n\tpython3 -m http.server 8089\n",
            ),
            ("lib/forecast.ml", "let fetch ~url = url\n"),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "Which local port does the dev config expect the mock forecast server on?",
        "8080",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"etc/tern.dev.json"}}"#),
        "{asked}"
    );
}

/// Found re-running a Clojure service's prod_pool_size and a Haskell project's report_width
/// (session 49): told that `14` (`21`) was only a read's line number, shown the changelog's
/// "Raise the production database pool from 16 to 24 connections." as bearing, in a turn
/// without tools, Qwen2.5-Coder-0.5B answered `14` again. The message names the numbers the
/// bearing lines write, less the values a change log says were replaced.
#[test]
fn a_line_number_answer_is_shown_the_numbers_the_lines_write() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "CHANGELOG.md",
                "## 1.2.0\n- Raise the production database pool from 16 to 24 connections.\n",
            ),
            (
                "src/db.clj",
                "(ns courier.db)\n\n(defn start-pool\n  [{:keys [pool-size]}]\n  (log/infof \"Opening database pool with %d connections\" pool-size))\n",
            ),
        ],
    );
    let grep = call(
        "grep",
        json!({"pattern": "connections", "ignore_case": true}),
    );
    let read = call(
        "read",
        json!({"path": "src/db.clj", "start_line": 3, "end_line": 5}),
    );
    let (t, requests) = run_prompt(
        &dir,
        "How many connections does the database pool hold in production?",
        vec![grep, read, "3".into(), "24".into()],
    );
    let asked = &requests[3].messages.last().unwrap().content;
    assert!(
        asked.starts_with("`3` is only the number of a line of a read")
            && asked.ends_with("The lines write `24`."),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("24"));
}

/// Found re-running a Helm chart's app_version (session 49, whose look became the read of
/// `Chart.yaml`): asked "Which version of the application does the chart deploy by default?",
/// the lines shown as bearing were `version: 0.4.2` (the chart's) and a dependency's `version:
/// 18.6.1`, and Qwen2.5-Coder-0.5B answered `0.4.2`; `appVersion: "1.9.0"` names the
/// application by its short form. `app` is the short form of "application".
#[test]
fn app_is_the_short_form_of_application() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "Chart.yaml",
            "apiVersion: v2\nname: beacon\ntype: application\nversion: 0.4.2\nappVersion: \"1.9.0\"\ndependencies:\n  - name: redis\n    version: 18.6.1\n",
        )],
    );
    let read = call("read", json!({"path": "Chart.yaml"}));
    let (_, requests) = run_prompt(
        &dir,
        "Which version of the application does the chart deploy by default?",
        vec![
            read.clone(),
            read.clone(),
            read.clone(),
            read,
            "0.4.2".into(),
        ],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    assert_eq!(
        bearing_lines(asked).trim(),
        "appVersion: \"1.9.0\"",
        "{asked}"
    );
}

/// Found with a Zig service (session 49): "What's the oldest Zig release I can still build
/// zest with?" searched `still` ("release" was no version, and Zig's manifest no requirement
/// file); "On which port does zestd serve /metrics when nothing overrides it?" searched
/// `overrides`, the rarest word the file named by its stem (`deploy/zestd.service`) lacked,
/// not `port`, what is asked. The oldest Zig is `build.zig.zon`'s `.minimum_zig_version`, read
/// whole; of the lacked words, what the question asks for is searched first.
#[test]
fn zig_release_and_the_asked_word_lead_the_look() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "build.zig.zon",
                ".{\n    .name = \"zest\",\n    .version = \"0.6.1\",\n    .minimum_zig_version = \"0.12.0\",\n}\n",
            ),
            (
                ".github/workflows/ci.yml",
                "env:\n  # Still builds on 0.12.\n  ZIG_VERSION: \"0.13.0\"\n",
            ),
            (
                "deploy/zestd.service",
                "[Service]\nExecStart=/usr/local/bin/zestd --config /etc/zest/zest.json\n",
            ),
            (
                "src/config.zig",
                "/// The port the HTTP server serves /metrics on.\npub const default_http_port: u16 = 9477;\n",
            ),
            (
                "README.md",
                "# zest\n\nFlags override what the config sets.\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "What's the oldest Zig release I can still build zest with?",
        "0.11",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"build.zig.zon"}}"#),
        "{asked}"
    );
    // Since session 50, the name joining `default` and `port` where code writes one (see
    // a_default_asked_for_searches_the_default_name).
    assert_search_offered(
        &dir,
        "On which port does zestd serve /metrics when nothing overrides it?",
        r"default[\\w.-]*port",
    );
}

/// Found with a Zig package (session 49, version_070): "Bump the package version to 0.7.0." was
/// offered no change; `build.zig.zon` writes the version as a struct literal's field,
/// `.version = "0.6.1",`.
#[test]
fn a_zig_struct_literals_field_is_set() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "build.zig.zon",
            ".{\n    .name = \"zest\",\n    .version = \"0.6.1\",\n    .minimum_zig_version = \"0.12.0\",\n}\n",
        )],
    );
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    assert_eq!(
        tools
            .change_asked("Bump the package version to 0.7.0.")
            .as_deref(),
        Some(
            r#"{"name":"edit","arguments":{"path":"build.zig.zon","old_text":".version = \"0.6.1\",","new_text":".version = \"0.7.0\","}}"#
        )
    );
}

/// Found with a Haskell/Cabal project (session 49, report_width, passing before contractions
/// were written out for the request's analysis): the messages restating the request quoted
/// "… when --width is not given?" to a model whose user message said "isn't given". What the
/// model is told the user asked is what the user typed; only the analysis reads the
/// contractions written out.
#[test]
fn a_restated_request_is_quoted_as_typed() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "README.md",
            "Reports are 96 columns wide unless you pass `--width`.\n",
        )],
    );
    let grep = call("grep", json!({"pattern": "width", "ignore_case": true}));
    let (t, requests) = run_prompt(
        &dir,
        "How many columns wide are reports when --width isn't given?",
        vec![grep.clone(), grep, String::new().into(), "96".into()],
    );
    let sent: Vec<&str> = requests
        .iter()
        .flat_map(|r| r.messages.iter().skip(1).map(|m| m.content.as_str()))
        .collect();
    let restating: Vec<&&str> = sent
        .iter()
        .filter(|m| m.contains("the user's request") && m.contains("--width"))
        .collect();
    assert!(restating.len() >= 2, "{sent:#?}");
    for m in restating {
        assert!(
            m.contains("\"How many columns wide are reports when --width isn't given?\""),
            "{m}"
        );
    }
    assert_eq!(t.answer.as_deref(), Some("96"));
}

/// Found with a Zig service (session 49, compose_statsd_port): asked "When I run the stack with
/// docker compose, which port on my machine should I send StatsD packets to?", the look
/// searched "docker compose" (two lines of prose), and the answer is in `docker-compose.yml`'s
/// `"9125:8125/udp"`. In a question, two words naming a file together name it before a word
/// naming another (`src/statsd.zig`), and "docker" of "docker compose" names no Dockerfile; a
/// settings file keying the asked word's plural (`ports:`) is read whole. After "in", a word
/// names where a change goes ("the Prometheus container in the compose setup").
#[test]
fn docker_compose_names_the_compose_file() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "docker-compose.yml",
                "# docker compose up --build\nservices:\n  zest:\n    build: .\n    ports:\n      - \"9125:8125/udp\"\n  prometheus:\n    image: prom/prometheus:v2.53.0\n",
            ),
            ("Dockerfile", "FROM alpine:3.20\nEXPOSE 8125/udp\n"),
            (
                "src/statsd.zig",
                "//! Parses StatsD packets.\npub const default_port: u16 = 8125;\n",
            ),
            (
                "README.md",
                "Send StatsD packets to zestd.\n\nRun `docker compose up` for a local stack.\n",
            ),
            ("deploy/prometheus.yml", "global:\n  scrape_interval: 15s\n"),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "When I run the stack with docker compose, which port on my machine should I send StatsD packets to?",
        "8125",
        "9125",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"docker-compose.yml"}}"#),
        "{asked}"
    );
    let asked = asked_after_answer(
        &dir,
        "Upgrade the Prometheus container in the compose setup to v2.54.1.",
        "Done.",
        "Done.",
    );
    assert!(
        asked.contains(r#""path":"docker-compose.yml","old_text":"image: prom/prometheus:v2.53.0","new_text":"image: prom/prometheus:v2.54.1""#),
        "{asked}"
    );
}

/// Found with a Zig service (session 49, prod_series_ttl): asked "In production, how many
/// seconds can a series go without updates before it gets dropped?", the look searched
/// `seconds`, a word `config/production.json` lacks; the file's `"series_ttl_s": 900` answers.
/// In a settings file (JSON's too), a plain word of the question that is a part of a key's
/// name makes the read the look.
#[test]
fn an_environments_settings_file_keying_a_word_is_read() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "config/production.json",
                "{\n  \"flush_interval_ms\": 15000,\n  \"series_ttl_s\": 900\n}\n",
            ),
            (
                "config/zest.json",
                "{\n  \"flush_interval_ms\": 2000,\n  \"series_ttl_s\": 60\n}\n",
            ),
            (
                "src/registry.zig",
                "/// Drops every series not updated within `ttl_s` seconds of `now_ms`.\npub fn expire(now_ms: i64, ttl_s: u32) usize {}\n",
            ),
            (
                "README.md",
                "| `series_ttl_s` | `300` | idle seconds before a series is dropped |\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "In production, how many seconds can a series go without updates before it gets dropped?",
        "300",
        "900",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"config/production.json"}}"#),
        "{asked}"
    );
}

/// Found with an OCaml/dune project (session 49, max_waypoints): asked "How many waypoints can
/// a route have at most?", the look searched `most`, and the README's stale "Routes can have at
/// most 200 waypoints." was the line shown; `let max_waypoints = 250` is in `lib/defaults.ml`.
/// "At most" names nothing; a maximum is searched as code names it, `max[._-]?waypoints`.
#[test]
fn at_most_searches_the_maximum_as_code_names_it() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "README.md",
                "# tern\n\nRoutes can have at most 200 waypoints.\n",
            ),
            (
                "lib/defaults.ml",
                "let speed_kn = 5.0\nlet max_waypoints = 250\n",
            ),
            (
                "lib/waypoint.ml",
                "(* A named position on a route. *)\ntype t = { name : string }\n",
            ),
            (
                "lib/route.ml",
                "let of_waypoints wps =\n  if List.length wps > Defaults.max_waypoints then Error \"too many\" else Ok wps\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "How many waypoints can a route have at most?",
        "200",
        "250",
    );
    assert!(
        asked.ends_with(
            r#"{"name":"grep","arguments":{"pattern":"max[._-]?waypoints","ignore_case":true}}"#
        ),
        "{asked}"
    );
}

/// Found with a Zig service (session 50, min_zig_version): asked "What's the oldest Zig release
/// I can still build zest with?", Qwen2.5-Coder-0.5B read `build.zig.zon` and `LICENSE`, and
/// the lines shown as bearing were `.name = "zest",` and the licence's "Copyright (c) 2024 The
/// zest authors" — for a question about a "release", a line writing a version did not count
/// as holding the version asked for, as it does for "version". It answered `cli`.
#[test]
fn a_release_asked_for_is_the_version_a_line_writes() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "build.zig.zon",
                ".{\n    .name = \"zest\",\n    .version = \"0.6.1\",\n    .minimum_zig_version = \"0.12.0\",\n    .paths = .{ \"build.zig\", \"src\" },\n}\n",
            ),
            (
                "LICENSE",
                "MIT License\n\nCopyright (c) 2024 The zest authors\n",
            ),
        ],
    );
    let read = |p: &str| call("read", json!({ "path": p }));
    let (_, requests) = run_prompt(
        &dir,
        "What's the oldest Zig release I can still build zest with?",
        vec![
            read("build.zig.zon"),
            read("LICENSE"),
            read("LICENSE"),
            read("LICENSE"),
            "0.12.0".into(),
        ],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert!(shown.contains("minimum_zig_version"), "{asked}");
    assert!(!shown.contains("Copyright"), "{asked}");
}

/// Found with a Zig service (session 50, default_http_port): asked "On which port does zestd
/// serve /metrics when nothing overrides it?", the look searched `port`, which `import`,
/// "Supported" and "portions" hold on the first lines of every file, and
/// `pub const default_http_port: u16 = 9477;` was never shown; Qwen2.5-Coder-0.5B answered
/// `8125`. A question about a default searches the name joining `default` and what it asks
/// for, where code writes one.
#[test]
fn a_default_asked_for_searches_the_default_name() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/config.zig",
                "const std = @import(\"std\");\npub const default_statsd_port: u16 = 8125;\npub const default_http_port: u16 = 9477;\n",
            ),
            (
                "README.md",
                "## Supported input\n\napp --(udp :8125)--> zestd --(http :9102/metrics)--> Prometheus\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "On which port does zestd serve /metrics when nothing overrides it?",
        "8125",
        "9477",
    );
    assert!(
        asked.ends_with(
            r#"{"name":"grep","arguments":{"pattern":"default[\\w.-]*port","ignore_case":true}}"#
        ),
        "{asked}"
    );
}

/// Found with a Zig service (session 50, compose_statsd_port): asked "When I run the stack
/// with docker compose, which port on my machine should I send StatsD packets to?",
/// Qwen2.5-Coder-0.5B read `docker-compose.yml`, echoed a message of toolmend's, then the
/// question itself, and the run ended with no answer. An echo of a question with tool results
/// is asked again with the lines bearing on it.
#[test]
fn an_echo_after_results_is_asked_again_with_the_bearing_lines() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "docker-compose.yml",
            "services:\n  zest:\n    ports:\n      # StatsD packets go to host port 9125.\n      - \"9125:8125/udp\"\n",
        )],
    );
    let question = "When I run the stack with docker compose, which port on my machine should I send StatsD packets to?";
    let (t, requests) = run_prompt(
        &dir,
        question,
        vec![
            call("read", json!({"path": "docker-compose.yml"})),
            question.into(),
            "9125".into(),
        ],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    assert!(asked.contains("only repeated a message"), "{asked}");
    assert!(bearing_lines(asked).contains("9125"), "{asked}");
    assert_eq!(t.answer.as_deref(), Some("9125"));
}

/// Found with a Zig service (session 50, http_request_timeout): asked "How many milliseconds
/// does the metrics server give a client to send its request before disconnecting it?",
/// Qwen2.5-Coder-0.5B called a tool it made up,
/// `metrics_server_send_request_before_disconnect`, three times, each time shown the search
/// for `milliseconds` as the call to make, and the run ended `repeated_failure` with no
/// answer. A question with no result at all: toolmend makes that look itself, read-only, and
/// the next turn, with no tools, answers from its output.
#[test]
fn a_question_whose_calls_all_fail_gets_the_look_made_for_it() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "src/http.zig",
            "/// A client that has not sent its request within this many\n/// milliseconds is disconnected.\npub const request_timeout_ms: u32 = 2500;\n",
        )],
    );
    let made_up = call(
        "metrics_server_send_request_before_disconnect",
        json!({"client_id": "12345"}),
    );
    let (t, requests) = run_prompt(
        &dir,
        "How many milliseconds does the metrics server give a client to send its request before disconnecting it?",
        vec![made_up.clone(), made_up.clone(), made_up, "2500".into()],
    );
    assert_eq!(t.answer.as_deref(), Some("2500"), "{t:#?}");
    let last = requests.last().unwrap();
    assert!(last.tools.is_empty());
    let asked = &last.messages.last().unwrap().content;
    assert!(asked.contains("None of your calls ran"), "{asked}");
    assert!(asked.contains("request_timeout_ms: u32 = 2500"), "{asked}");
    let looked: Vec<&str> = t
        .turns
        .iter()
        .flat_map(|r| &r.calls)
        .filter(|c| c.result.is_ok())
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(looked, ["grep"]);
}

/// Found with an OCaml/dune project (session 50, ci_oldest_ocaml): asked "What's the oldest
/// OCaml compiler the CI matrix still tests against?", the lines shown as bearing were the
/// `exclude:` entries' `ocaml-compiler: "4.14.2"` and `ocaml-compiler: "5.1.1"`, and
/// Qwen2.5-Coder-0.5B answered `5.1.1`; the matrix lists the compilers as items under
/// `ocaml-compiler:`. A YAML list's item holds the words of the key it is listed under.
#[test]
fn a_yaml_lists_items_hold_their_keys_words() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            ".github/workflows/ci.yml",
            "jobs:\n  build:\n    strategy:\n      matrix:\n        os:\n          - ubuntu-latest\n          - macos-latest\n        ocaml-compiler:\n          - \"4.14.2\"\n          - \"5.1.1\"\n          - \"5.2.0\"\n        exclude:\n          - os: macos-latest\n            ocaml-compiler: \"4.14.2\"\n          - os: macos-latest\n            ocaml-compiler: \"5.1.1\"\n",
        )],
    );
    let read = call("read", json!({"path": ".github/workflows/ci.yml"}));
    let (_, requests) = run_prompt(
        &dir,
        "What's the oldest OCaml compiler the CI matrix still tests against?",
        vec![
            read.clone(),
            read.clone(),
            read.clone(),
            read,
            "4.14.2".into(),
        ],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert!(
        shown.contains("- \"4.14.2\"") && shown.contains("- \"5.2.0\""),
        "{asked}"
    );
}

/// Found with an OCaml/dune project (session 50, docker_runtime_image): asked "Which base image
/// does the final stage of the Docker build run on?", Qwen2.5-Coder-0.5B searched for `tern`
/// (53 matches shown), then copied that output until the token limit cut it off, and the run
/// ended with the copy as its answer. A copy cut off by the limit is a copy however much of
/// the output it got to.
#[test]
fn a_copy_cut_off_by_the_token_limit_is_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<(String, String)> = (0..30)
        .map(|i| {
            (
                format!("lib/part{i}.ml"),
                format!("(* tern part {i} *)\nlet part_{i} = {i}\n"),
            )
        })
        .collect();
    files.push((
        "Dockerfile".into(),
        "FROM ocaml/opam:debian-12-ocaml-5.1 AS build\nRUN make\n\nFROM debian:bookworm-20240612-slim\n".into(),
    ));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    write_files(&dir, &refs);
    let grep = call("grep", json!({"pattern": "tern"}));
    // The search's output, as the model copies it.
    let (t0, _) = run_prompt(&dir, "Where is tern?", vec![grep.clone(), "Done.".into()]);
    let output = t0.turns[0].calls[0].result.output.clone();
    let mut copy = ScriptedTurn::text(output);
    copy.max_chunks = Some(60);
    let (t, requests) = run_prompt(
        &dir,
        "Which base image does the final stage of the Docker build run on?",
        vec![grep, copy, "debian:bookworm-20240612-slim".into()],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    assert!(asked.contains("copied the output of `grep`"), "{asked}");
    assert_eq!(t.answer.as_deref(), Some("debian:bookworm-20240612-slim"));
}

/// Found with an OCaml/dune project (session 50, fallback_speed): the search for `--speed`
/// matched the first line of OCaml's comment `(* Speed through the water, in knots, when
/// neither [--speed] nor` / `[boat_speed_kn] in the config gives one. *)` and showed nothing
/// below it; the README's stale `5.0` was the answer. An OCaml comment is a comment, and the
/// line below a block comment is the one after its close: `let boat_speed_kn = 5.5`.
#[test]
fn the_line_below_an_ocaml_comment_is_shown() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "lib/defaults.ml",
            "let config_file = \"tern.json\"\n\n(* Speed through the water, in knots, when neither [--speed] nor\n   [boat_speed_kn] in the config gives one. *)\nlet boat_speed_kn = 5.5\n",
        )],
    );
    let (t, _) = run_prompt(
        &dir,
        "Where is --speed handled?",
        vec![
            call("grep", json!({"pattern": "--speed", "ignore_case": true})),
            "Done.".into(),
        ],
    );
    let output = &t.turns[0].calls[0].result.output;
    assert!(
        output.contains(
            "lib/defaults.ml (line 5, below the comment on line 3): let boat_speed_kn = 5.5"
        ),
        "{output}"
    );
}

/// Found with an OCaml/dune project and a Zig service (session 50): asked "By default, how
/// many milliseconds does tern wait for the wind forecast before it gives up?", the look
/// searched "wind forecast" and never showed `let forecast_timeout_ms = 6000`; asked "How many
/// milliseconds does the metrics server give a client to send its request before
/// disconnecting it?", it searched `milliseconds`. A question "How many U …?" looks for a
/// name joining one of its words and U as code abbreviates it: read whole in a file the
/// question names that writes one, else searched.
#[test]
fn a_quantity_in_a_unit_looks_for_the_name_in_that_unit() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            ("README.md", "# tern\n\nPlans passages.\n"),
            (
                "lib/defaults.ml",
                "(* windbird forecast API. *)\nlet forecast_url = \"https://api.windbird.example/v1/wind\"\nlet forecast_timeout_ms = 6000\n",
            ),
            (
                "bin/main.ml",
                "let offline =\n  let doc = \"Plan without fetching a wind forecast.\" in\n  doc\n",
            ),
            (
                "src/http.zig",
                "/// A client that has not sent its request within this many\n/// milliseconds is disconnected.\npub const request_timeout_ms: u32 = 2500;\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "By default, how many milliseconds does tern wait for the wind forecast before it gives up?",
        "1000",
        "6000",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"lib/defaults.ml"}}"#),
        "{asked}"
    );
    assert_search_offered(
        &dir,
        "How many milliseconds does the metrics server give a client to send its request before disconnecting it?",
        r"request\\w*(?:[_-](?:milliseconds|ms)|Milliseconds|Ms)\\b",
    );
}

/// Found with a Perl distribution (session 52): its README is titled `App-Quarry`, CPAN's name
/// for the `quarry` command, so the project's own name in "how many milliseconds does quarry
/// wait …" was searched as a setting's (`quarry\w*_ms`, the metrics' names) instead of the
/// word after it. The title's ecosystem affixes (CPAN's `App-`, an owner's `acme/`, `.jl`,
/// `.nvim`) are no part of the name the requests use.
#[test]
fn the_own_name_is_the_title_without_its_ecosystem_affixes() {
    for title in ["App-Quarry", "acme/quarry", "Quarry.jl", "quarry.nvim"] {
        let dir = tempfile::tempdir().unwrap();
        write_files(
            &dir,
            &[
                ("README.md", &format!("# {title}\n\nTails access logs.\n")),
                (
                    "lib/Quarry.pm",
                    "print \"# TYPE quarry_latency_ms gauge\\n\";\n",
                ),
                ("etc/quarry.conf", "[webhook]\nwebhook_timeout_ms = 8000\n"),
            ],
        );
        assert_search_offered(
            &dir,
            "If nothing is configured, how many milliseconds does quarry wait for the webhook to respond?",
            r"webhook\\w*(?:[_-](?:milliseconds|ms)|Milliseconds|Ms)\\b",
        );
    }
}

/// Found with an OCaml/dune project (session 50, default_width): asked "How wide is the text
/// table when I don't give --width?", the lines shown as bearing were the option's
/// `Arg.(value & opt int 88 & info [ "w"; "width" ] …)` and three lines of `lib/report.ml`
/// holding `width` in a name (`let min_name_width = 8`); Qwen2.5-Coder-0.5B answered `8`.
/// "When I do not give --width" leaves `width` unset, and a Cmdliner option's default gives it
/// one.
#[test]
fn a_flag_left_unset_is_answered_by_its_cmdliner_default() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "bin/main.ml",
                "let width =\n  let doc = \"Maximum width of the text table.\" in\n  Arg.(value & opt int 88 & info [ \"w\"; \"width\" ] ~docv:\"COLUMNS\" ~doc)\n",
            ),
            (
                "lib/report.ml",
                "let fixed_width = 3 + 7 + 5 + 17 + 8 + 6\nlet min_name_width = 8\nlet table ~width rows =\n  let name_w = max min_name_width ((width - fixed_width) / 2) in\n  name_w\n",
            ),
        ],
    );
    let grep = call("grep", json!({"pattern": "width", "ignore_case": true}));
    let (_, requests) = run_prompt(
        &dir,
        "How wide is the text table when I don't give --width?",
        vec![grep.clone(), grep.clone(), grep.clone(), grep, "88".into()],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert!(shown.contains("opt int 88"), "{asked}");
    assert!(!shown.contains("min_name_width"), "{asked}");
}

/// Found with an R package (session 50): asked "Which exact dplyr version is locked in the renv
/// lockfile?", the lines shown as bearing were the first six `"Version"` lines of renv.lock,
/// and Qwen2.5-Coder-0.5B answered R's `4.3.2`; asked "What's the oldest version of R that
/// meadow can be installed on?", DESCRIPTION's `Version: 0.6.1` came first and was the answer.
/// A version written inside an entry holds the entry's name (`"dplyr": {`), and a one-letter
/// name beside "version" is a telling word.
#[test]
fn a_version_inside_an_entry_holds_its_name() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "renv.lock",
                "{\n  \"R\": {\n    \"Version\": \"4.3.2\"\n  },\n  \"Packages\": {\n    \"bit\": {\n      \"Package\": \"bit\",\n      \"Version\": \"4.0.5\"\n    },\n    \"cli\": {\n      \"Package\": \"cli\",\n      \"Version\": \"3.6.2\"\n    },\n    \"dplyr\": {\n      \"Package\": \"dplyr\",\n      \"Version\": \"1.1.4\"\n    }\n  }\n}\n",
            ),
            (
                "DESCRIPTION",
                "Package: meadow\nVersion: 0.6.1\nAuthors@R: person(\"I\", \"H\")\nDepends:\n    R (>= 4.1.0)\nImports:\n    cli (>= 3.6.0),\n    dplyr (>= 1.1.0)\n",
            ),
            ("README.md", "# meadow\n"),
        ],
    );
    let shown_for = |prompt: &str, path: &str| {
        let read = call("read", json!({ "path": path }));
        let (_, requests) = run_prompt(
            &dir,
            prompt,
            vec![read.clone(), read.clone(), read.clone(), read, "x".into()],
        );
        let asked = requests
            .last()
            .unwrap()
            .messages
            .last()
            .unwrap()
            .content
            .clone();
        bearing_lines(&asked).to_owned()
    };
    let shown = shown_for(
        "Which exact dplyr version is locked in the renv lockfile?",
        "renv.lock",
    );
    assert!(
        shown.contains("1.1.4") && !shown.contains("4.3.2"),
        "{shown}"
    );
    let shown = shown_for(
        "What's the oldest version of R that meadow can be installed on?",
        "DESCRIPTION",
    );
    assert!(
        shown.contains("R (>= 4.1.0)") && !shown.contains("0.6.1"),
        "{shown}"
    );
}

/// Found with a Zig service (session 50): asked "When I run the stack with docker compose,
/// which port on my machine should I send StatsD packets to?", after the read of
/// `docker-compose.yml` the one line shown as bearing was the comment `# docker compose up
/// --build` ("which port on …" asked for nothing); asked "On which port does zestd serve
/// /metrics when nothing overrides it?", after the search for `default[\w.-]*port`, it was the
/// head of a test's block the search showed a match inside, `test "flags override the config
/// file" {`. "Which A on …" asks for A; a block's head shown for a match inside it bears on
/// nothing by its words.
#[test]
fn the_port_asked_for_is_shown_not_a_comment_or_a_blocks_head() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "docker-compose.yml",
                "#   docker compose up --build\nservices:\n  zest:\n    ports:\n      # Host port 8125 is usually taken by a local statsd agent.\n      - \"9125:8125/udp\"\n      - \"9477:9477\"\n",
            ),
            (
                "src/cli.zig",
                "fn defaults() void {\n    config.default_http_port,\n}\n\ntest \"flags override the config file\" {\n    try expect(config.default_http_port == cfg.http_port);\n}\n",
            ),
            (
                "src/config.zig",
                "pub const default_http_port: u16 = 9477;\n",
            ),
        ],
    );
    let shown_after = |prompt: &str, c: ScriptedTurn| {
        let (_, requests) = run_prompt(
            &dir,
            prompt,
            vec![c.clone(), c.clone(), c.clone(), c, "x".into()],
        );
        let asked = requests
            .last()
            .unwrap()
            .messages
            .last()
            .unwrap()
            .content
            .clone();
        bearing_lines(&asked).to_owned()
    };
    let shown = shown_after(
        "When I run the stack with docker compose, which port on my machine should I send StatsD packets to?",
        call("read", json!({"path": "docker-compose.yml"})),
    );
    assert!(
        shown.contains("9125:8125/udp") && !shown.contains("--build"),
        "{shown}"
    );
    let shown = shown_after(
        "On which port does zestd serve /metrics when nothing overrides it?",
        call(
            "grep",
            json!({"pattern": r"default[\w.-]*port", "ignore_case": true}),
        ),
    );
    assert!(
        shown.contains("= 9477") && !shown.contains("flags override"),
        "{shown}"
    );
}

/// Found with a Zig service (session 50, http_request_timeout): Qwen2.5-Coder-0.5B called a
/// tool it made up twice, then answered "To call the `metrics_server_send_request_before_
/// disconnect` function again, …", and the run ended with that as the answer. Calls that all
/// failed read nothing: the answer is asked to look first, as one given before any call is.
#[test]
fn an_answer_after_only_failed_calls_is_asked_to_look_first() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "src/http.zig",
            "/// A client that has not sent its request within this many\n/// milliseconds is disconnected.\npub const request_timeout_ms: u32 = 2500;\n",
        )],
    );
    let made_up = call(
        "metrics_server_send_request_before_disconnect",
        json!({"client_id": "12345"}),
    );
    let (t, requests) = run_prompt(
        &dir,
        "How many milliseconds does the metrics server give a client to send its request before disconnecting it?",
        vec![
            made_up,
            "To call the function again, you can use the following JSON object:".into(),
            call(
                "grep",
                json!({"pattern": r"request\w*(?:[_-](?:milliseconds|ms)|Milliseconds|Ms)\b", "ignore_case": true}),
            ),
            "2500".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(asked.contains("You answered without looking"), "{asked}");
    assert_eq!(t.answer.as_deref(), Some("2500"));
}

/// Found with an OCaml/dune project (session 50, fallback_speed): asked "If I don't pass
/// --speed and my config file doesn't set a boat speed either, what speed does tern assume?",
/// after the search for `--speed` showed `let boat_speed_kn = 5.5` below its comment, the one
/// line shown as bearing was the README's option row "Boat speed through the water, in knots",
/// with no number, and Qwen2.5-Coder-0.5B answered the README's stale `5.0`. "What speed" asks
/// for an amount as "how fast" does: the lines writing a number, code's over documents'.
#[test]
fn what_speed_asks_for_a_number() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "README.md",
                "| `-s`, `--speed`   | from config        | Boat speed through the water, in knots      |\n\n| `boat_speed_kn` | `5.0` | Cruising speed when `--speed` is unset |\n",
            ),
            (
                "lib/defaults.ml",
                "(* Speed through the water, in knots, when neither [--speed] nor\n   [boat_speed_kn] in the config gives one. *)\nlet boat_speed_kn = 5.5\n",
            ),
        ],
    );
    let grep = call("grep", json!({"pattern": "--speed", "ignore_case": true}));
    let (_, requests) = run_prompt(
        &dir,
        "If I don't pass --speed and my config file doesn't set a boat speed either, what speed does tern assume?",
        vec![grep.clone(), grep.clone(), grep.clone(), grep, "5.5".into()],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert!(
        shown.contains("let boat_speed_kn = 5.5") && !shown.contains("5.0"),
        "{asked}"
    );
}

/// Found with an OCaml/dune project (session 50, forecast_timeout): asked "By default, how
/// many milliseconds does tern wait for the wind forecast before it gives up?", after the read
/// of `lib/defaults.ml` the line shown as bearing was `let max_wind_kn = 22.0` ("wind" is on
/// fewer lines than "forecast"), and Qwen2.5-Coder-0.5B answered `22`. A name ending with the
/// short form of the unit asked in (`_ms`) holds the unit's word.
#[test]
fn a_name_in_the_unit_asked_in_holds_the_unit() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "lib/defaults.ml",
            "(* Legs whose forecast wind is above this many knots are flagged. *)\nlet max_wind_kn = 22.0\n\n(* windbird forecast API. *)\nlet forecast_url = \"https://api.windbird.example/v1/wind\"\nlet forecast_timeout_ms = 6000\nlet forecast_step_h = 3\n",
        )],
    );
    let read = call("read", json!({"path": "lib/defaults.ml"}));
    let (_, requests) = run_prompt(
        &dir,
        "By default, how many milliseconds does tern wait for the wind forecast before it gives up?",
        vec![
            read.clone(),
            read.clone(),
            read.clone(),
            read,
            "6000".into(),
        ],
    );
    let asked = &requests.last().unwrap().messages.last().unwrap().content;
    let shown = bearing_lines(asked);
    assert!(
        shown.contains("forecast_timeout_ms = 6000") && !shown.contains("22.0"),
        "{asked}"
    );
}

/// Found with a Zig service (session 50, http_request_timeout at s50c): after calls of a tool
/// it made up, Qwen2.5-Coder-0.5B answered "To call the … function, you can use the following
/// JSON object: …", was asked to look first, and answered the same way again, which stood as
/// the answer. A question answered again without a look, with no call of the run succeeded,
/// gets the look made for it and a turn without tools to answer from its output.
#[test]
fn a_second_answer_without_a_look_gets_the_look_made_for_it() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "src/http.zig",
            "/// A client that has not sent its request within this many\n/// milliseconds is disconnected.\npub const request_timeout_ms: u32 = 2500;\n",
        )],
    );
    let made_up = call(
        "metrics_server_send_request_before_disconnect",
        json!({"client_id": "12345"}),
    );
    let (t, requests) = run_prompt(
        &dir,
        "How many milliseconds does the metrics server give a client to send its request before disconnecting it?",
        vec![
            made_up,
            "To call the function again, you can use the following JSON object:".into(),
            "To call the function, you can use the following JSON object:".into(),
            "2500".into(),
        ],
    );
    assert_eq!(t.answer.as_deref(), Some("2500"), "{t:#?}");
    let last = requests.last().unwrap();
    assert!(last.tools.is_empty());
    let asked = &last.messages.last().unwrap().content;
    assert!(
        asked.contains("None of your calls ran")
            && asked.contains("request_timeout_ms: u32 = 2500"),
        "{asked}"
    );
}

/// Found with a Julia package (session 51): asked "By default, how many samples wide is the
/// rolling window used for spike detection?", the search for `samples` showed the docstring
/// "Number of samples in the centred rolling window …" with `const DEFAULT_WINDOW = 48` below
/// it, and the one line shown as bearing was a summary's `samples = n,`: a key made of the
/// question's words, but set to a name, not a number. For a question asking how many, a key
/// counts as the one asked for where its value writes a number.
#[test]
fn a_key_set_to_a_name_is_no_answer_to_how_many() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/anomaly.jl",
                "\"Number of samples in the centred rolling window used by `flag_spikes`.\"\nconst DEFAULT_WINDOW = 48\n",
            ),
            (
                "src/qc.jl",
                "function summarize(s)\n    n = length(s)\n    return (\n            samples = n,\n    )\nend\n",
            ),
        ],
    );
    let grep = || call("grep", json!({"pattern": "samples", "ignore_case": true}));
    let (t, _) = run_prompt(
        &dir,
        "By default, how many samples wide is the rolling window used for spike detection?",
        vec![grep(), grep(), grep(), "answer: n".into()],
    );
    let last = t.turns.last().unwrap();
    let nudge = last.nudge.clone().unwrap_or_default();
    let bearing = bearing_lines(&nudge);
    assert!(
        bearing.contains("const DEFAULT_WINDOW = 48") && !bearing.contains("samples = n"),
        "{nudge}"
    );
}

/// Found with a Julia package (session 51): asked "If I don't set the data directory
/// environment variable, where does Sedge look for the logger files?", the look searched
/// "data directory", a README line and an error message's; the variable is `SEDGE_DATA_DIR`,
/// read by `data_dir() = get(ENV, "SEDGE_DATA_DIR", "/var/lib/sedge")`. An environment
/// variable named by words is searched as code names it, each word also by its short form.
#[test]
fn an_environment_variable_named_by_words_is_searched_as_code_names_it() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/config.jl",
                "data_dir() = get(ENV, \"SEDGE_DATA_DIR\", \"/var/lib/sedge\")\n",
            ),
            (
                "src/io.jl",
                "function read_logs(dir = data_dir())\n    isdir(dir) || error(\"data directory does not exist\")\nend\n",
            ),
            ("README.md", "Reads the data directory and serves JSON.\n"),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "If I don't set the data directory environment variable, where does Sedge look for the logger files?",
        "In /tmp.",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"grep","arguments":{"pattern":"data[ ._-]?(?:directory|dir)","ignore_case":true}}"#),
        "{asked}"
    );
}

/// Found with an R package (session 51): asked "Cover plots should show the 20 most abundant
/// taxa unless the caller asks for a different number.", toolmend had found the edit of
/// `top_n = 15,` (roxygen documents `top_n` as the number of taxa to show), but the request,
/// saying what should be, was not read as asking for a change: Qwen2.5-Coder-0.5B's made-up
/// `cover_plots` was shown the read of `R/plot.R`, and the run ended with nothing changed.
#[test]
fn a_request_saying_what_should_be_shown_is_offered_its_change() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "R/plot.R",
            "#' @param top_n Number of taxa to show individually.\nplot_cover <- function(data,\n                       top_n = 15,\n                       facet = TRUE) {\n  data\n}\n",
        )],
    );
    let t = made_up_then_shown(
        &dir,
        "Cover plots should show the 20 most abundant taxa unless the caller asks for a different number.",
        call("cover_plots", json!({"taxa_count": 20})),
        r#"{"name":"edit","arguments":{"path":"R/plot.R","old_text":"top_n = 15,","new_text":"top_n = 20,"}}"#,
    );
    assert!(t.turns[1].calls[0].result.is_ok(), "{:?}", t.turns[1]);
    let text = std::fs::read_to_string(dir.path().join("R/plot.R")).unwrap();
    assert!(text.contains("top_n = 20,"), "{text}");
}

/// Found with an Erlang/OTP service (session 51): asked "What's the oldest Erlang/OTP release
/// kiln can still be built with?", the look read nothing (rebar.config's `{minimum_otp_vsn,
/// "25"}.` states it), and once it reads rebar.config, the one line shown as bearing was the
/// release's `{release, {kiln, "1.4.2"},`: "Erlang/OTP" was left out as a path, and `vsn` is
/// how rebar3 and Erlang's `.app` files write "version".
#[test]
fn the_oldest_otp_is_rebars_minimum_otp_vsn() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "rebar.config",
                "{minimum_otp_vsn, \"25\"}.\n\n{relx, [\n    {release, {kiln, \"1.4.2\"},\n     [kiln, sasl]}\n]}.\n",
            ),
            (
                "src/kiln.app.src",
                "{application, kiln, [\n    {vsn, \"1.4.2\"}\n]}.\n",
            ),
        ],
    );
    let prompt = "What's the oldest Erlang/OTP release kiln can still be built with?";
    let asked = asked_after_answer(&dir, prompt, "Erlang 18.0.", "Done.");
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"rebar.config"}}"#),
        "{asked}"
    );
    let nudge = nudge_after_reading(&dir, "rebar.config", prompt);
    let bearing = bearing_lines(&nudge);
    assert_eq!(bearing, "{minimum_otp_vsn, \"25\"}.", "{nudge}");
}

/// Found with an Erlang/OTP service (session 51): asked "What's the maximum line length our
/// linter allows for code in src?", the look searched `length` in `src/`, and
/// Qwen2.5-Coder-0.5B answered a line number; `elvis.config` sets `line_length` … `limit =>
/// 100`. "The linter" names its one configuration file in the root.
#[test]
fn the_linter_is_its_configuration_file() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "elvis.config",
                "[{elvis, [{config, [#{dirs => [\"src\"], rules => [{elvis_text_style, line_length, #{limit => 100}}]}]}]}].\n",
            ),
            (
                "src/kiln_http_handler.erl",
                "enqueue(Req0) ->\n    cowboy_req:read_body(Req0, #{length => 10}).\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "What's the maximum line length our linter allows for code in src?",
        "2000 lines.",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"elvis.config"}}"#),
        "{asked}"
    );
}

/// Found with an Erlang/OTP service (session 51): asked "Which module implements the per-host
/// token bucket rate limiting?", the look searched `rate[ ._-]?limiting` — the phrase as
/// written and as code joins it, but with the `-ing` kept — and found a config comment alone;
/// the module is `kiln_ratelimit`. Searched both ways, a phrase's last word is its stem.
#[test]
fn a_phrase_searched_both_ways_searches_its_last_words_stem() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "config/sys.config",
                "%% Small numbers on purpose so rate limiting is easy to see.\n[{kiln, [{rate_per_sec, 5}]}].\n",
            ),
            (
                "src/kiln_ratelimit.erl",
                "%% @doc Per-host token buckets.\n-module(kiln_ratelimit).\n",
            ),
        ],
    );
    // In the one source file holding the most of the question's words (since session 56).
    let asked = asked_after_answer(
        &dir,
        "Which module implements the per-host token bucket rate limiting?",
        "I do not know.",
        "Done.",
    );
    assert!(
        asked.ends_with(
            r#"{"name":"grep","arguments":{"pattern":"rate[ ._-]?limit","path":"src/kiln_ratelimit.erl","ignore_case":true}}"#
        ),
        "{asked}"
    );
}

/// Found with a Julia package (session 51): asked "Make the spike filter's default rolling
/// window 96 samples instead of the current value." and shown the `edit` of `const
/// DEFAULT_WINDOW = 48`, Qwen2.5-Coder-0.5B sent `spike_filter` with a search's placeholders
/// beside the new value (`{"pattern": ".*", "path": ".", "glob": null, "ignore_case": false,
/// "rolling_window": 96}`) until the run ended. Values that say nothing aside, the new value
/// sent alone runs the change due.
#[test]
fn the_new_value_beside_placeholders_runs_the_change_due() {
    let dir = tempfile::tempdir().unwrap();
    let code = "\"Number of samples in the rolling window.\"\nconst DEFAULT_WINDOW = 48\n";
    write_files(&dir, &[("src/anomaly.jl", code)]);
    let made_up = || {
        call(
            "spike_filter",
            json!({"pattern": ".*", "path": ".", "glob": null, "ignore_case": false, "rolling_window": 96}),
        )
    };
    let (t, _) = run_prompt(
        &dir,
        "Make the spike filter's default rolling window 96 samples instead of the current value.",
        vec![made_up(), made_up(), "Done.".into()],
    );
    let c = &t.turns[1].calls[0];
    assert!(c.result.is_ok(), "{}", c.feedback);
    assert_eq!(c.result.ran_as.as_deref(), Some("edit"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/anomaly.jl")).unwrap(),
        code.replace("= 48", "= 96")
    );
    // A placeholder beside the old value: not run.
    write_files(&dir, &[("src/anomaly.jl", code)]);
    let stale = || {
        call(
            "spike_filter",
            json!({"pattern": ".*", "path": ".", "rolling_window": 48}),
        )
    };
    let (t, _) = run_prompt(
        &dir,
        "Make the spike filter's default rolling window 96 samples instead of the current value.",
        vec![stale(), stale(), "Done.".into()],
    );
    assert!(
        t.turns
            .iter()
            .all(|t| t.calls.iter().all(|c| !c.result.is_ok()))
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/anomaly.jl")).unwrap(),
        code
    );
}

/// Found with an Erlang/OTP service (session 51): asked "What's the maximum line length our
/// linter allows for code in src?" and shown elvis.config, the lines shown as bearing were
/// `max_function_length`'s (`max` standing for "maximum", and "length"), and
/// Qwen2.5-Coder-0.5B answered 40; `line_length` joins two words of the question side by
/// side, and weighs more.
#[test]
fn a_name_joining_two_words_of_the_question_weighs_more() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "elvis.config",
            "[{elvis, [{config, [\n  #{dirs => [\"src\"],\n    rules => [\n      {elvis_text_style, line_length, #{limit => 100}},\n      {elvis_style, max_function_length, #{max_length => 40}}\n    ]}\n]}]}].\n",
        )],
    );
    let nudge = nudge_after_reading(
        &dir,
        "elvis.config",
        "What's the maximum line length our linter allows for code in src?",
    );
    let bearing = bearing_lines(&nudge);
    assert!(
        bearing.contains("line_length, #{limit => 100}")
            && !bearing.contains("max_function_length"),
        "{nudge}"
    );
}

/// Found with a Julia package (session 51): asked "Which is the newest stable Julia release
/// that CI runs the test suite on?" and shown CI.yml, the lines shown as bearing were the
/// matrix's `- '1.9'`, `- '1.10'`, `- '1.11'` and the `include:` entries' `- version:
/// '1.10'`, and Qwen2.5-Coder-0.5B answered 1.10 twice. Asked for the newest version, of lines
/// that each write one, the highest's is shown.
#[test]
fn asked_for_the_newest_version_the_highest_is_shown() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            ".github/workflows/CI.yml",
            "jobs:\n  test:\n    strategy:\n      matrix:\n        version:\n          - '1.9'\n          - '1.10'\n          - '1.11'\n          - 'nightly'\n        include:\n          - version: '1.10'\n            os: macos-14\n",
        )],
    );
    let nudge = nudge_after_reading(
        &dir,
        ".github/workflows/CI.yml",
        "Which is the newest stable Julia release that CI runs the test suite on?",
    );
    assert_eq!(bearing_lines(&nudge), "- '1.11'", "{nudge}");
}

/// Found with an Erlang/OTP service (session 51), checking the rule above: asked "What's the
/// newest OTP version the CI runs the tests on?" and shown ci.yml, the line shown as bearing
/// was `runs-on: ubuntu-22.04` ("runs" is a rarer word of the question than "OTP"). For a
/// version question, the lines holding what the version is of — the word before "version" or
/// "release" — come first.
#[test]
fn a_version_questions_subject_comes_before_its_other_words() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            ".github/workflows/ci.yml",
            "jobs:\n  test:\n    name: test (OTP ${{ matrix.otp }})\n    runs-on: ubuntu-22.04\n    strategy:\n      matrix:\n        otp: ['25.3', '26.2', '27.1']\n",
        )],
    );
    let nudge = nudge_after_reading(
        &dir,
        ".github/workflows/ci.yml",
        "What's the newest OTP version the CI runs the tests on?",
    );
    assert_eq!(
        bearing_lines(&nudge),
        "otp: ['25.3', '26.2', '27.1']",
        "{nudge}"
    );
}

/// Found with a Rust workspace (session 53, default_batch_size): asked "By default, how many log
/// lines does cinder put in a batch before shipping it?", the look searched `shipping` (the
/// README's and the systemd unit's lines), and Qwen2.5-Coder-0.5B answered `1000`. "lines" is a
/// unit as well as the thing counted, so no word was read as asked for; what "how many" counts
/// is searched joined to `default` as code names it, else by its last word:
/// `pub const DEFAULT_BATCH_MAX_LINES: usize = 500;`.
#[test]
fn a_default_count_of_a_unit_searches_the_default_name() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "crates/cinder-core/src/config.rs",
                "/// Number of lines collected into one batch before it is shipped.\npub const DEFAULT_BATCH_MAX_LINES: usize = 500;\n/// Soft limit for one batch (1 MiB).\npub const DEFAULT_BATCH_MAX_BYTES: usize = 1_048_576;\n",
            ),
            (
                "README.md",
                "# cinder\n\ncinder is a small log-shipping agent.\n",
            ),
        ],
    );
    assert_search_offered(
        &dir,
        "By default, how many log lines does cinder put in a batch before shipping it?",
        r"default[\\w.-]*lines",
    );
}

/// Found by replaying a Crystal web service's tasks (session 53, rate_limit_file) before a model
/// ran them: asked "Which source file implements the per-client request throttling?", the look
/// searched `per-client`, which only the README writes. Asked which file, the words searched are
/// those a file other than a document holds: `throttling`, in `src/spire/rate_limiter.cr`.
#[test]
fn a_which_file_question_searches_a_word_code_holds() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "README.md",
                "# spire\n\n- Per-client rate limiting with `X-RateLimit-*` headers.\n",
            ),
            (
                "src/spire/rate_limiter.cr",
                "# Fixed-window limiter keyed on the client address. A limit of 0 turns throttling off.\nclass RateLimiter\nend\n",
            ),
        ],
    );
    assert_search_offered(
        &dir,
        "Which source file implements the per-client request throttling?",
        "throttling",
    );
}

/// Found with a Crystal web service (session 53, default_rate_limit): asked "With no config file
/// at all, how many requests per minute does spire allow from a single client?", after three
/// reads of `src/spire/config.cr` the one line shown as bearing was a check's
/// `raise Error.new("rate_limit.requests_per_minute cannot be negative") …`, and
/// Qwen2.5-Coder-0.5B answered with it. "With no config file at all" asks for the default as
/// "by default" does: the line setting a `DEFAULT_…` name bears on it.
#[test]
fn no_config_file_at_all_asks_for_the_default() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "src/spire/config.cr",
            "module Spire\n  DEFAULT_CACHE_TTL = 5400 # seconds\n  DEFAULT_RATE_LIMIT_PER_MINUTE = 135\n\n  class Config\n    property rate_limit_per_minute : Int32 = DEFAULT_RATE_LIMIT_PER_MINUTE\n\n    def validate!\n      raise Error.new(\"rate_limit.requests_per_minute cannot be negative\") if rate_limit_per_minute < 0\n    end\n  end\nend\n",
        )],
    );
    let prompt = "With no config file at all, how many requests per minute does spire allow from a single client?";
    let read = call("read", json!({"path": "src/spire/config.cr"}));
    let (_, requests) = run_prompt(
        &dir,
        prompt,
        vec![read.clone(), read.clone(), read, "I do not know.".into()],
    );
    let asked = &requests[3].messages.last().unwrap().content;
    assert_eq!(
        bearing_lines(asked).trim(),
        "DEFAULT_RATE_LIMIT_PER_MINUTE = 135",
        "{asked}"
    );
}

/// Found with a Crystal web service (session 53, default_cache_ttl): asked "If nothing overrides
/// it, how many seconds does spire keep a link lookup in the Redis cache?", the look searched
/// `redis cache` (comments and the README), and Qwen2.5-Coder-0.5B answered `11`, a line
/// number. A unit asked for names no setting; where no key in it or name of it holds a number,
/// the question's last noun joined to `default` as code names it is searched:
/// `DEFAULT_CACHE_TTL = 5400 # seconds`.
#[test]
fn a_default_asked_in_a_unit_searches_the_default_of_its_noun() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/spire/config.cr",
                "module Spire\n  DEFAULT_REDIS_URL = \"redis://localhost:6379/3\"\n  DEFAULT_CACHE_TTL = 5400 # seconds\nend\n",
            ),
            (
                "src/spire/cache.cr",
                "module Spire\n  # Redis cache in front of `Store#find`.\n  class Cache\n    def put(entry)\n      seconds = ttl_for(entry)\n    end\n  end\nend\n",
            ),
        ],
    );
    assert_search_offered(
        &dir,
        "If nothing overrides it, how many seconds does spire keep a link lookup in the Redis cache?",
        r"default[\\w.-]*cache",
    );
}

/// Found with a Crystal web service (session 53, pg_driver_version): asked "Which version of the
/// crystal-pg driver does spire depend on?", the search for `crystal-pg` showed shard.yml's
/// `github: will/crystal-pg` without the `version: ~> 0.28.0` under it, and Qwen2.5-Coder-0.5B
/// answered `crystal-ameba/ameba`. A dependency's source names its entry (the entry's lines are
/// shown), a line of the entry holds the words of the line naming it, and "version of the X"
/// makes X the version's subject: the entry's version bears on the question first.
#[test]
fn a_dependency_entry_named_by_its_source_shows_its_version() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "shard.yml",
            "name: spire\nversion: 1.3.2\n\ndependencies:\n  kemal:\n    github: kemalcr/kemal\n    version: ~> 1.5.0\n  pg:\n    github: will/crystal-pg\n    version: ~> 0.28.0\n\ndevelopment_dependencies:\n  ameba:\n    github: crystal-ameba/ameba\n    version: ~> 1.6.1\n",
        )],
    );
    let prompt = "Which version of the crystal-pg driver does spire depend on?";
    let grep = call(
        "grep",
        json!({"pattern": "crystal-pg", "ignore_case": true}),
    );
    let (t, requests) = run_prompt(
        &dir,
        prompt,
        vec![grep.clone(), grep.clone(), grep, "I do not know.".into()],
    );
    let output = &t.turns[0].calls[0].result.output;
    assert!(
        output.contains("shard.yml (line 10, in the entry line 9 names):     version: ~> 0.28.0"),
        "{output}"
    );
    let asked = &requests[3].messages.last().unwrap().content;
    // Not ameba's `version: ~> 1.6.1`, the same key in `development_dependencies`, which the
    // question does not name (Qwen2.5-Coder-0.5B answered it when it followed).
    assert_eq!(
        bearing_lines(asked).trim(),
        "shard.yml (line 10, in the entry line 9 names):     version: ~> 0.28.0",
        "{asked}"
    );
}

/// Found with a Go job worker (session 53, prod_max_retries): asked "In production, how many
/// times is a failing job retried before it ends up on the dead-letter list?", after reads of
/// `configs/drover.prod.yaml` no line was shown as bearing ("retried" is no start of
/// `retries`), and Qwen2.5-Coder-0.5B answered `14`, a line number. A participle holds by its
/// stem, and asked how many times something is done, the lines holding its stem come first.
#[test]
fn how_many_times_a_thing_is_done_shows_its_count() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "configs/drover.prod.yaml",
            "worker:\n  concurrency: 56\n  job_timeout_seconds: 110\n\nretry:\n  max_retries: 11\n  backoff_base_ms: 1000\n",
        )],
    );
    let prompt = "In production, how many times is a failing job retried before it ends up on the dead-letter list?";
    let read = call("read", json!({"path": "configs/drover.prod.yaml"}));
    let (_, requests) = run_prompt(
        &dir,
        prompt,
        vec![read.clone(), read.clone(), read, "I do not know.".into()],
    );
    let asked = &requests[3].messages.last().unwrap().content;
    assert_eq!(bearing_lines(asked).trim(), "max_retries: 11", "{asked}");
}

/// Found with a Go job worker (session 53, docker_exposed_port): asked "Which port does the
/// Docker image expose?", the look searched `port` across the workspace — the Dockerfile, named
/// by its stem, lacks the word — and Qwen2.5-Coder-0.5B answered the code's default, 7460. A
/// Dockerfile's `EXPOSE` line writes the ports its image exposes: its read is the look.
#[test]
fn a_dockerfile_exposing_a_port_is_read_for_the_port() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "Dockerfile",
                "FROM golang:1.23.1-bookworm AS build\nRUN go build -o /out/drover ./cmd/drover\n\nFROM gcr.io/distroless/static-debian12:nonroot\nCOPY --from=build /out/drover /drover\nEXPOSE 9183\nENTRYPOINT [\"/drover\", \"run\"]\n",
            ),
            (
                "internal/config/config.go",
                "package config\n\n// DefaultHTTPPort is the port of the health and metrics server.\nconst DefaultHTTPPort = 7460\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "Which port does the Docker image expose?",
        "8080",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"Dockerfile"}}"#),
        "{asked}"
    );
}

/// Found with a Crystal web service (session 53, rate_limit_file): asked "Which source file
/// implements the per-client request throttling?", after the search had shown
/// `src/spire/rate_limiter.cr`, Qwen2.5-Coder-0.5B answered `Spire`, the module's name, and
/// the answer was taken: "Which source file" was not read as asking which file. A word of the
/// file's kind may stand between "which" and "file": the answer naming no file is asked again,
/// with the files the results name.
#[test]
fn which_source_file_wants_a_file_as_its_answer() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "src/spire/rate_limiter.cr",
            "module Spire\n  # Fixed-window request limiter. A limit of 0 turns throttling off.\n  class RateLimiter\n  end\nend\n",
        )],
    );
    let grep = call(
        "grep",
        json!({"pattern": "throttling", "ignore_case": true}),
    );
    let (t, requests) = run_prompt(
        &dir,
        "Which source file implements the per-client request throttling?",
        vec![grep, "Spire".into(), "src/spire/rate_limiter.cr".into()],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(asked.contains("`src/spire/rate_limiter.cr`"), "{asked}");
    assert_eq!(t.answer.as_deref(), Some("src/spire/rate_limiter.cr"));
}

/// Found with `toolmend eval tasks` (examples/drover, prod_max_retries, session 53):
/// Qwen2.5-Coder-0.5B read the production config with `start_line` 1 and `end_line` 2000, sent
/// that again, then read it without the range and sent that again — the same 28 lines four
/// times, the last two as if new — and answered `19`, the line number of `max_retries: 11`, on
/// the run's last turn. A read-only call whose result is exactly one the model already has is
/// a repeat of that call: the third read is the second repeat, and the turn after it is for
/// the answer, with no tools.
#[test]
fn a_call_giving_a_result_the_model_has_is_a_repeat() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "configs/worker.prod.yaml",
            "worker:\n  concurrency: 56\nretry:\n  max_retries: 11\n",
        )],
    );
    let ranged = call(
        "read",
        json!({"path": "configs/worker.prod.yaml", "start_line": 1, "end_line": 2000}),
    );
    let whole = call("read", json!({"path": "configs/worker.prod.yaml"}));
    let (t, requests) = run_prompt(
        &dir,
        "In production, how many times is a failing job retried?",
        vec![ranged.clone(), ranged, whole, "11 times.".into()],
    );
    let calls: Vec<_> = t.turns.iter().flat_map(|t| &t.calls).collect();
    assert!(
        calls[1]
            .feedback
            .starts_with("(You already called `read` with exactly these arguments;"),
        "{}",
        calls[1].feedback
    );
    assert!(calls[2].result.cached);
    assert!(
        calls[2]
            .feedback
            .starts_with("Stop calling `read` for this result: you already have its result"),
        "{}",
        calls[2].feedback
    );
    assert!(calls[2].feedback.contains("max_retries: 11"));
    assert!(requests[3].tools.is_empty());
    assert_eq!(t.answer.as_deref(), Some("11 times."));
    // Another range of the file is a new result, and runs as one.
    let part = call(
        "read",
        json!({"path": "configs/worker.prod.yaml", "start_line": 3, "end_line": 4}),
    );
    let (t, _) = run_prompt(
        &dir,
        "In production, how many times is a failing job retried?",
        vec![
            call("read", json!({"path": "configs/worker.prod.yaml"})),
            part,
            "11 times.".into(),
        ],
    );
    assert!(!t.turns[1].calls[0].result.cached);
    assert!(t.turns[1].calls[0].feedback.contains("max_retries: 11"));
}

/// Found with `toolmend eval tasks` (examples/spire, pg_driver_version, session 53): asked
/// "Which version of the crystal-pg driver does spire depend on?", the search for `crystal-pg`
/// showed `version: ~> 0.28.0` "in the entry line 27 names" (`github: will/crystal-pg`) and,
/// as the same key in `development_dependencies`, ameba's `version: ~> 1.6.1`;
/// Qwen2.5-Coder-0.5B answered `1.6.1`. A line in the entry a line naming the subject names is
/// about the subject: the answer is pointed at it.
#[test]
fn a_version_from_another_entry_is_pointed_at_the_named_entrys_line() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "shard.yml",
            "name: spire\nversion: 0.4.2\n\ndependencies:\n  kemal:\n    github: kemalcr/kemal\n    \
             version: ~> 1.5.0\n  pg:\n    github: will/crystal-pg\n    version: ~> 0.28.0\n\n\
             development_dependencies:\n  ameba:\n    github: crystal-ameba/ameba\n    \
             version: ~> 1.6.1\n",
        )],
    );
    // The search for `github:` shows each entry's version line (the tool no longer shows
    // ameba's lines for `crystal-pg` as the same key in another section).
    let grep = call("grep", json!({"pattern": "github:"}));
    let (t, _) = run_prompt(
        &dir,
        "Which version of the crystal-pg driver does spire depend on?",
        vec![grep, "1.6.1".into(), "0.28.0".into()],
    );
    let shown = &t.turns[0].calls[0].feedback;
    assert!(shown.contains("version: ~> 0.28.0"), "{shown}");
    let nudge = t.turns[2].nudge.as_deref().unwrap_or_default();
    assert!(
        nudge.starts_with("`1.6.1` is the version on a line about something else")
            && nudge.contains("`version: ~> 0.28.0`"),
        "{nudge}"
    );
    assert_eq!(t.answer.as_deref(), Some("0.28.0"));
}

/// Found with `toolmend eval tasks` (examples/cinder, ci_newest_toolchain, session 54): asked
/// "What is the newest Rust toolchain that CI runs the tests on?", shown ci.yml whole,
/// Qwen2.5-Coder-0.5B answered `1.1.1`; told that no result holds it and to answer or call a
/// tool, it read ci.yml twice more and the run ended with no answer. With the whole file read,
/// the message shows the lines bearing on the request, and the next turn offers no tools.
#[test]
fn a_made_up_version_after_a_whole_read_is_shown_the_bearing_lines() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            ".github/workflows/ci.yml",
            "name: CI\njobs:\n  test:\n    runs-on: ubuntu-22.04\n    strategy:\n      matrix:\n        \
             rust: [\"1.76.0\", \"1.82.0\", \"1.84.1\"]\n    steps:\n      - uses: actions/checkout@v4\n",
        )],
    );
    let read = call("read", json!({"path": ".github/workflows/ci.yml"}));
    let (t, requests) = run_prompt(
        &dir,
        "What is the newest Rust toolchain that CI runs the tests on?",
        vec![read, "1.1.1".into(), "1.84.1".into()],
    );
    let nudge = t.turns[2].nudge.as_deref().unwrap_or_default();
    assert!(
        nudge.starts_with("`1.1.1` is in none of the tool results")
            && nudge.contains(r#"rust: ["1.76.0", "1.82.0", "1.84.1"]"#)
            && !nudge.contains("call a tool"),
        "{nudge}"
    );
    assert!(requests[2].tools.is_empty());
    assert_eq!(t.answer.as_deref(), Some("1.84.1"));
}

/// Found with `toolmend eval tasks` (examples/spire, rate_limit_file, session 53): asked
/// "Which source file implements the per-client request throttling?", shown
/// `src/spire/rate_limiter.cr`'s lines, Qwen2.5-Coder-0.5B answered `Spire`; told the answer is
/// a file and shown the one the results name, it sent its search and read again until the run
/// ended. With one file named, the next turn offers no tools.
#[test]
fn a_which_file_answer_naming_none_gets_a_turn_without_tools() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/spire/rate_limiter.cr",
                "module Spire\n  # Fixed-window request limiter, keyed by client address.\n  \
                 # A limit of 0 turns throttling off.\n  class RateLimiter\n  end\nend\n",
            ),
            ("src/spire.cr", "require \"./spire/*\"\n"),
        ],
    );
    let grep = call(
        "grep",
        json!({"pattern": "throttling", "ignore_case": true}),
    );
    let (t, requests) = run_prompt(
        &dir,
        "Which source file implements the per-client request throttling?",
        vec![grep, "Spire".into(), "src/spire/rate_limiter.cr".into()],
    );
    let nudge = t.turns[2].nudge.as_deref().unwrap_or_default();
    assert!(
        nudge.contains("your reply names none") && nudge.contains("src/spire/rate_limiter.cr"),
        "{nudge}"
    );
    assert!(requests[2].tools.is_empty());
    assert_eq!(t.answer.as_deref(), Some("src/spire/rate_limiter.cr"));
}

/// Found with `toolmend eval tasks` (examples/thimble, min_dotnet_sdk, session 54): asked
/// "What's the minimum .NET SDK version I need installed to build thimble?", the model was
/// offered a search for `build thimble` (CI's `dotnet build` lines) and answered `th`. The
/// SDK a repository builds with is global.json's `"sdk"`, read whole; a question about the
/// framework a project targets is not sent there.
#[test]
fn the_least_dotnet_sdk_is_read_from_global_json() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "global.json",
                "{\n  \"sdk\": {\n    \"version\": \"8.0.403\",\n    \"rollForward\": \"latestFeature\"\n  }\n}\n",
            ),
            (
                ".github/workflows/ci.yml",
                "jobs:\n  build:\n    steps:\n      - run: dotnet build thimble.sln -c Release\n",
            ),
            (
                "src/Thimble.Api/Thimble.Api.fsproj",
                "<Project Sdk=\"Microsoft.NET.Sdk.Web\">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "What's the minimum .NET SDK version I need installed to build thimble?",
        "3.1",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"global.json"}}"#),
        "{asked}"
    );
    let asked = asked_after_answer(
        &dir,
        "Which .NET version does the API target?",
        "6",
        "Done.",
    );
    assert!(!asked.contains("global.json"), "{asked}");
}

/// Found with `toolmend eval tasks` (examples/thimble, default_page_size, session 54): asked
/// "If thimble runs with no appsettings files and no Thimble environment variables at all, how
/// many items does a catalogue page hold?", the look searched `thimble`, and the model answered
/// with a docker-compose line. The request says nothing configures the value: the look searches
/// the default's name, and of its lines the code's `let DefaultPageSize = 36` bears on the
/// request, not appsettings.json's `"DefaultPageSize": 30` (a settings file is configuration).
/// So for "when nothing sets a port at all" (examples/brook, default_http_port: the look read
/// the entry point the project's name named, and the answer was `2`).
#[test]
fn a_value_with_nothing_configured_is_the_codes_default() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/Thimble.Core/Settings.fs",
                "module Thimble.Settings\n\nmodule Defaults =\n    let DefaultPageSize = 36\n    let MaxPageSize = 150\n",
            ),
            (
                "src/Thimble.Api/appsettings.json",
                "{\n  \"Thimble\": {\n    \"Paging\": {\n      \"DefaultPageSize\": 30\n    }\n  }\n}\n",
            ),
            (
                "src/Thimble.Api/appsettings.Production.json",
                "{\n  \"Thimble\": {\n    \"Paging\": {\n      \"DefaultPageSize\": 48\n    }\n  }\n}\n",
            ),
            (
                "src/brook.gleam",
                "import brook/config\n\npub fn main() {\n  config.load()\n}\n",
            ),
            ("src/brook/config.gleam", "pub const default_port = 7341\n"),
        ],
    );
    let question = "If thimble runs with no appsettings files and no Thimble environment variables at all, how many items does a catalogue page hold?";
    assert_search_offered(&dir, question, r"default[\\w.-]*page");
    let grep = call(
        "grep",
        json!({"pattern": r"default[\w.-]*page", "ignore_case": true}),
    );
    let (_, requests) = run_prompt(
        &dir,
        question,
        vec![grep.clone(), grep.clone(), grep, "I do not know.".into()],
    );
    let shown = &requests[3].messages.last().unwrap().content;
    assert!(
        shown.ends_with("src/Thimble.Core/Settings.fs (line 4):     let DefaultPageSize = 36"),
        "{shown}"
    );
    assert_search_offered(
        &dir,
        "Which port does brook's HTTP API listen on when nothing sets a port at all?",
        r"default[\\w.-]*port",
    );
}

/// Found with `toolmend eval tasks` (examples/brook, ci_newest_otp, session 54): asked "What's
/// the newest Erlang/OTP release CI runs the tests on?", shown ci.yml whole, the line shown as
/// bearing was `runs-on: ubuntu-24.04`, and Qwen2.5-Coder-0.5B answered `Ubuntu-24.04`. The
/// subject before "release" is two names joined by a slash; each is one, and the line holding
/// `otp` bears on the question.
#[test]
fn a_slashed_subject_of_a_release_question_picks_its_line() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            ".github/workflows/ci.yml",
            "jobs:\n  test:\n    name: test (otp ${{ matrix.otp }})\n    runs-on: ubuntu-24.04\n    strategy:\n      matrix:\n        otp: [\"26.2.5.6\", \"27.3.1\"]\n    steps:\n      - uses: erlef/setup-beam@v1.17.6\n        with:\n          otp-version: ${{ matrix.otp }}\n  format:\n    runs-on: ubuntu-24.04\n    steps:\n      - uses: erlef/setup-beam@v1.17.6\n        with:\n          otp-version: \"27.3.1\"\n",
        )],
    );
    let read = call("read", json!({"path": ".github/workflows/ci.yml"}));
    let (_, requests) = run_prompt(
        &dir,
        "What's the newest Erlang/OTP release CI runs the tests on?",
        vec![read.clone(), read.clone(), read, "I do not know.".into()],
    );
    let shown = &requests[3].messages.last().unwrap().content;
    let bearing = shown.split_once("bear on the request:\n").unwrap().1;
    assert!(
        bearing.contains(r#"otp: ["26.2.5.6", "27.3.1"]"#),
        "{shown}"
    );
    assert!(!bearing.contains("runs-on"), "{shown}");
}

/// Found with `toolmend eval tasks` (examples/brook, wisp_locked_version, session 54): asked
/// "Which exact version of wisp is the project locked to?", the look searched `lock`, which
/// only the code's comments hold, and Qwen2.5-Coder-0.5B never saw Gleam's `manifest.toml`,
/// which pins `{ name = "wisp", version = "1.5.1", … }`. A request about what is locked reads
/// the root's lock file that pins a word of it.
#[test]
fn a_locked_version_is_read_from_the_lock_file() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "gleam.toml",
                "name = \"brook\"\n\n[dependencies]\nwisp = \">= 1.2.0 and < 2.0.0\"\nmist = \">= 3.0.0 and < 5.0.0\"\n",
            ),
            (
                "manifest.toml",
                "packages = [\n  { name = \"mist\", version = \"4.0.6\", requirements = [\"gleam_http\"] },\n  { name = \"wisp\", version = \"1.5.1\", requirements = [\"mist\"] },\n]\n",
            ),
            (
                "src/brook/retry.gleam",
                "//// Subscribers do not retry in lock-step.\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "Which exact version of wisp is the project locked to?",
        "0.1.0",
        "Done.",
    );
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"manifest.toml"}}"#),
        "{asked}"
    );
}

/// Found with `toolmend eval tasks` (examples/lantern, prune_file, session 54): asked "Which
/// source file deletes old check results from the database?", the search showed six files and
/// one line bearing on the question, `src/retention.ts (line 38): delete from check_results`;
/// Qwen2.5-Coder-0.5B answered `check_results`, was told the six files, and called a made-up
/// tool until the run ended. When the search lines bearing on the question are all of one file,
/// that file is the one named, and the next turn offers no tools.
#[test]
fn a_which_file_answer_is_told_the_one_file_of_the_bearing_lines() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "README.md",
                "# lantern\n\nProbe results land in check_results.\n",
            ),
            (
                "migrations/001_init.sql",
                "create table check_results (\n  id bigserial primary key\n);\n",
            ),
            (
                "src/retention.ts",
                "/**\n * History retention: deletes check results older than the configured days.\n */\nexport async function prune(db: Db, cutoff: Date) {\n  await db.query(`\n        delete from check_results\n        where checked_at < $1`, [cutoff]);\n}\n",
            ),
            (
                "src/store.ts",
                "export async function insert(db: Db, r: Result) {\n  await db.query(\"insert into check_results values ($1)\", [r]);\n}\n",
            ),
        ],
    );
    let grep = call(
        "grep",
        json!({"pattern": "check[ ._-]?results", "ignore_case": true}),
    );
    let (t, requests) = run_prompt(
        &dir,
        "Which source file deletes old check results from the database?",
        vec![grep, "check_results".into(), "src/retention.ts".into()],
    );
    let nudge = t.turns[2].nudge.as_deref().unwrap_or_default();
    assert!(
        nudge.contains("The tool results above name `src/retention.ts`. Answer"),
        "{nudge}"
    );
    assert!(requests[2].tools.is_empty());
    assert_eq!(t.answer.as_deref(), Some("src/retention.ts"));
}

/// Found with `toolmend eval tasks` (examples/drover, prod_max_retries, session 54): asked "In
/// production, how many times is a failing job retried before it ends up on the dead-letter
/// list?", shown the production config, Qwen2.5-Coder-0.5B answered `19`, the line number of
/// `max_retries: 11`, and the answer stood: "times" was read as arithmetic ("3 times 4"), a
/// number worked out, which no line need write. After "many" it counts how often, and the
/// answer is asked again.
#[test]
fn how_many_times_is_no_arithmetic() {
    let dir = tempfile::tempdir().unwrap();
    let config: String = (1..=17)
        .map(|i| format!("# line {}\n", "x".repeat(i)))
        .collect::<String>()
        + "retry:\n  max_retries: 11\n  backoff_base_ms: 1000\n";
    write_files(&dir, &[("configs/worker.prod.yaml", config.as_str())]);
    let read = call("read", json!({"path": "configs/worker.prod.yaml"}));
    let (t, _) = run_prompt(
        &dir,
        "In production, how many times is a failing job retried before it ends up on the dead-letter list?",
        vec![read, "19".into(), "11".into()],
    );
    let nudge = t.turns[2].nudge.as_deref().unwrap_or_default();
    assert!(
        nudge.starts_with("`19` is only the number of a line of a read"),
        "{nudge}"
    );
    assert_eq!(t.answer.as_deref(), Some("11"));
}

/// Found with `toolmend eval tasks` (examples/cinder, ci_newest_toolchain, session 54): asked
/// "What is the newest Rust toolchain that CI runs the tests on?", the line shown as bearing
/// was `RUSTUP_TOOLCHAIN: ${{ matrix.rust }}`, which writes no version, and Qwen2.5-Coder-0.5B
/// answered `1.1.1` twice. A toolchain asked for is a version: the line of the subject that
/// writes versions, the matrix's `rust: [...]`, is the one shown.
#[test]
fn a_toolchain_question_is_shown_the_line_writing_versions() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            ".github/workflows/ci.yml",
            "name: CI\n\non:\n  push:\n    branches: [main]\n  pull_request:\n\nenv:\n  CARGO_TERM_COLOR: always\n  CARGO_INCREMENTAL: 0\n\njobs:\n  test:\n    name: test (${{ matrix.rust }})\n    runs-on: ubuntu-22.04\n    strategy:\n      fail-fast: false\n      matrix:\n        # First entry is the MSRV from Cargo.toml (rust-version); keep them in sync.\n        rust: [\"1.76.0\", \"1.82.0\", \"1.84.1\"]\n    env:\n      # rust-toolchain.toml pins the toolchain for local development; override it here.\n      RUSTUP_TOOLCHAIN: ${{ matrix.rust }}\n    steps:\n      - uses: actions/checkout@v4\n      - uses: dtolnay/rust-toolchain@master\n        with:\n          toolchain: ${{ matrix.rust }}\n      - uses: Swatinem/rust-cache@v2\n        with:\n          key: ${{ matrix.rust }}\n      - run: cargo build --workspace --all-targets --locked\n      - run: cargo test --workspace --locked\n\n",
        )],
    );
    let read = call("read", json!({"path": ".github/workflows/ci.yml"}));
    let (_, requests) = run_prompt(
        &dir,
        "What is the newest Rust toolchain that CI runs the tests on?",
        vec![read.clone(), read.clone(), read, "I do not know.".into()],
    );
    let shown = &requests[3].messages.last().unwrap().content;
    let bearing = shown.split_once("bear on the request:\n").unwrap().1;
    assert!(
        bearing.contains(r#"rust: ["1.76.0", "1.82.0", "1.84.1"]"#),
        "{shown}"
    );
    assert!(!bearing.contains("RUSTUP_TOOLCHAIN"), "{shown}");
}

/// Found with a D log shipper (session 55, default_status_port, and its re-runs): asked "Which
/// port does the status server (healthz/metrics) listen on when neither a config file nor an
/// environment variable sets one?", the look read `status.d`, the file "status" names, and the
/// default `enum ushort defaultStatusPort = 9614;` in `config.d` was never shown. "Neither a
/// config file nor …" asks for a default: the look searches for the default's name. Once it is
/// shown set to a value, no search for it is offered again, and it is the line shown as bearing
/// (a declaration with a type sets its name), not a unit test's assertion.
#[test]
fn neither_a_config_file_nor_a_variable_asks_for_the_default() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "source/harrow/config.d",
                "module harrow.config;\n\n/// Port of the status server when `status.port` is not configured.\nenum ushort defaultStatusPort = 9614;\n\nstruct StatusConfig\n{\n\tushort port = defaultStatusPort;\n}\n\nunittest\n{\n\tStatusConfig cfg;\n\tassert(cfg.status.port == defaultStatusPort);\n}\n",
            ),
            (
                "source/harrow/status.d",
                "module harrow.status;\n\nimport vibe.http.server;\n\nvoid startStatusServer(StatusConfig cfg)\n{\n\tlisten(cfg.port);\n}\n",
            ),
            (
                "config/harrow.prod.json",
                "{\n\t\"status\": {\n\t\t\"port\": 9677\n\t}\n}\n",
            ),
        ],
    );
    let prompt = "Which port does the status server (healthz/metrics) listen on when neither a config file nor an environment variable sets one?";
    let asked = asked_after_answer(&dir, prompt, "8080", "Done.");
    assert!(
        asked.contains(r#""pattern":"default[\\w.-]*port""#),
        "{asked}"
    );
    let grep = || {
        call(
            "grep",
            json!({"pattern": r"default[\w.-]*port", "ignore_case": true}),
        )
    };
    let (_, requests) = run_prompt(
        &dir,
        prompt,
        vec![
            grep(),
            grep(),
            grep(),
            "I do not know.".into(),
            "Done.".into(),
        ],
    );
    let repeated = &requests[2].messages.last().unwrap().content;
    assert!(!repeated.contains("To see the value of"), "{repeated}");
    let asked = &requests[3].messages.last().unwrap().content;
    let bearing = asked
        .split_once("bear on the request:\n")
        .map(|(_, b)| b)
        .unwrap_or_default();
    assert!(bearing.contains("defaultStatusPort = 9614"), "{asked}");
    assert!(!bearing.contains("assert("), "{asked}");
}

/// Found with a D log shipper (session 55, default_flush_interval, and its re-runs): asked "If
/// I start harrow without any config file, how long does a partly filled batch wait before it
/// is sent anyway?", the look searched `sent`, and Qwen2.5-Coder-0.5B answered `12`. No
/// default's name holds the question's words, but one default's doc comment does ("… or when
/// its oldest line has waited this long"): the look searches for that default where it is set.
/// A question whose words a default's name holds is left to the searches for its words.
#[test]
fn a_default_the_question_describes_is_searched_where_it_is_set() {
    let dir = tempfile::tempdir().unwrap();
    let config = "module harrow.config;\n\n/// How long a single POST may take before the attempt counts as failed.\nenum uint defaultRequestTimeoutSeconds = 17;\n/// A batch is flushed once it holds this many lines ...\nenum uint defaultMaxLines = 1750;\n/// ... or when its oldest line has waited this long, whichever comes first.\nenum uint defaultFlushIntervalMs = 2300;\n/// After this long the batch stops being retried and goes to the spool.\nenum uint defaultMaxElapsedSeconds = 510;\n\nstruct BatchConfig\n{\n\tuint flushIntervalMs = defaultFlushIntervalMs;\n}\n";
    write_files(
        &dir,
        &[
            ("source/harrow/config.d", config),
            (
                "source/harrow/shipper.d",
                "module harrow.shipper;\n\n/// Batches waiting to be sent; when full, `enqueue` blocks.\nenum size_t queueCapacity = 64;\n",
            ),
            (
                "config/harrow.prod.json",
                "{\n\t\"batch\": {\n\t\t\"flushIntervalMs\": 4100\n\t}\n}\n",
            ),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "If I start harrow without any config file, how long does a partly filled batch wait before it is sent anyway?",
        "12",
        "Done.",
    );
    assert!(
        asked.contains(r#""pattern":"defaultFlushIntervalMs\\s*[:=][^=]""#),
        "{asked}"
    );
    // Asked in the words of a default's name, the look is the search for them.
    let asked = asked_after_answer(
        &dir,
        "Without any config file, how many lines does a batch hold at most before it is flushed?",
        "12",
        "Done.",
    );
    assert!(!asked.contains(r"\\s*[:=][^=]"), "{asked}");
}

/// Found with a D log shipper (session 55, rotation_file, and its re-runs): asked "Which source
/// file notices that a log file was rotated or truncated and starts reading it from the
/// beginning again?", the look searched `reading` in `source/`, whose first lines were
/// `app.d`'s and `config.d`'s, and Qwen2.5-Coder-0.5B answered `source/app.d`. The one source
/// file holding two of the question's words more than any other is searched alone.
#[test]
fn which_source_file_searches_the_file_holding_most_of_the_question() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "source/app.d",
                "module app;\n\nint main()\n{\n\t// SIGINT/SIGTERM: stop reading, flush what is pending.\n\treturn 0;\n}\n",
            ),
            (
                "source/harrow/config.d",
                "module harrow.config;\n\n/// Where to start reading a file harrow has never seen: \"beginning\" or \"end\".\nenum string defaultStartAt = \"end\";\n",
            ),
            (
                "source/harrow/tailer.d",
                "module harrow.tailer;\n\n/// Follows one file; notices rotation and truncation.\nvoid poll(Source src)\n{\n\tif (size < offset)\n\t{\n\t\tlogInfo(\"tail: %s was rotated or truncated, reading it from the beginning\", src.path);\n\t\toffset = 0; // starts over\n\t}\n}\n",
            ),
            ("README.md", "# harrow\n\nTails log files.\n"),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "Which source file notices that a log file was rotated or truncated and starts reading it from the beginning again?",
        "app.d",
        "Done.",
    );
    assert!(
        asked.contains(r#""path":"source/harrow/tailer.d""#),
        "{asked}"
    );
}

/// Found with a Python webhook relay (session 55, prod_max_attempts, and its re-runs): asked
/// "In production, how many times does marten try to deliver a webhook before it gives up and
/// dead-letters it?", the look searched `times`, a word `config/production.env` lacks. How
/// many times something is tried is a count of attempts: the production file writing one is
/// read whole, and its `MARTEN_MAX_ATTEMPTS=23` bears on the question first — not
/// `MARTEN_DELIVERY_TIMEOUT_SECONDS=47`, which holds "time" and "deliver".
#[test]
fn how_many_times_something_is_tried_is_a_count_of_attempts() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "config/production.env",
                "# marten — production settings.\nMARTEN_PORT=9312\nMARTEN_WORKERS=42\nMARTEN_MAX_ATTEMPTS=23\nMARTEN_DELIVERY_TIMEOUT_SECONDS=47\nMARTEN_DEAD_LETTER_KEEP=5000\n",
            ),
            (
                "src/marten/settings.py",
                "class Settings(BaseSettings):\n    # Delivery attempts before a webhook is dead-lettered (tried 6 times).\n    max_attempts: int = 6\n",
            ),
        ],
    );
    let prompt = "In production, how many times does marten try to deliver a webhook before it gives up and dead-letters it?";
    let asked = asked_after_answer(&dir, prompt, "3", "Done.");
    assert!(
        asked.ends_with(r#"{"name":"read","arguments":{"path":"config/production.env"}}"#),
        "{asked}"
    );
    let read = || call("read", json!({"path": "config/production.env"}));
    let asked = &asked_after_repeats(&dir, prompt, read());
    let bearing = bearing_lines(asked);
    assert!(
        bearing.trim_start().starts_with("MARTEN_MAX_ATTEMPTS=23"),
        "{asked}"
    );
    // Answered from that first line, the answer stands: not pointed at
    // `MARTEN_DEAD_LETTER_KEEP=5000`, whose key holds "dead" and "letter" (session 56's
    // re-run: the model then answered `5000`).
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![read(), read(), read(), "23".into(), "5000".into()],
    );
    assert_eq!(t.answer.as_deref(), Some("23"));
}

/// Found with a Python webhook relay (session 55, default_port, and its re-runs): asked "If I
/// start marten with no env file and no MARTEN_* variables set, which port does it listen
/// on?", the look searched `port`, whose lines were `import`s, the env files' `MARTEN_PORT`
/// and the CI's, and the model answered the development env file's `8428`. With no
/// configuration asked about and no default named so, the look searches for the asked word set
/// to a number as a name of its own: the settings class's `port: int = 8417`.
#[test]
fn unconfigured_the_asked_name_set_to_a_number_is_searched() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "src/marten/settings.py",
                "from __future__ import annotations\n\nimport os\nfrom pydantic_settings import BaseSettings\n\n\nclass Settings(BaseSettings):\n    host: str = \"127.0.0.1\"\n    port: int = 8417\n    workers: int = 4\n",
            ),
            ("config/dev.env", "MARTEN_PORT=8428\nMARTEN_WORKERS=2\n"),
            ("config/production.env", "MARTEN_PORT=9312\n"),
            (
                "docker-compose.yml",
                "services:\n  marten:\n    ports:\n      - \"9312:9312\"\n    environment:\n      MARTEN_PORT: \"9312\"\n",
            ),
        ],
    );
    let prompt = "If I start marten with no env file and no MARTEN_* variables set, which port does it listen on?";
    let asked = asked_after_answer(&dir, prompt, "8000", "Done.");
    let pattern = r#"\\bport\\b[\"']?\\s*(:\\s*\\w+\\s*)?[:=]\\s*[\"']?\\d"#;
    assert!(asked.contains(pattern), "{asked}");
    let grep = || {
        call(
            "grep",
            json!({"pattern": r#"\bport\b["']?\s*(:\s*\w+\s*)?[:=]\s*["']?\d"#, "ignore_case": true}),
        )
    };
    let (t, _) = run_prompt(&dir, prompt, vec![grep(), "8417".into()]);
    let output = &t.turns[0].calls[0].feedback;
    assert!(output.contains("port: int = 8417"), "{output}");
    assert!(
        !output.contains("MARTEN_PORT") && !output.contains("import"),
        "{output}"
    );
    assert_eq!(t.answer.as_deref(), Some("8417"));
}

/// Found with a NestJS service (session 56, min_node_version, its first run): asked "What's
/// the oldest Node.js version osprey says it supports?", the lines shown as bearing after the
/// read of package.json were `"source-map-support": "0.5.21",` and `"ts-node": "10.9.2",`,
/// and Qwen2.5-Coder-0.5B answered `0.5.21`: `Node.js` was left out of the question's words as
/// a file's name. A product named with its `.js` is the product: `"node": ">=20.11.1"`.
#[test]
fn a_product_named_with_its_js_is_the_product() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "package.json",
            "{\n  \"name\": \"osprey\",\n  \"version\": \"0.7.2\",\n  \"engines\": {\n    \"node\": \">=20.11.1\",\n    \"pnpm\": \">=9\"\n  },\n  \"dependencies\": {\n    \"source-map-support\": \"0.5.21\"\n  },\n  \"devDependencies\": {\n    \"ts-node\": \"10.9.2\"\n  }\n}\n",
        )],
    );
    let read = || call("read", json!({"path": "package.json"}));
    let asked = &asked_after_repeats(
        &dir,
        "What's the oldest Node.js version osprey says it supports?",
        read(),
    );
    let bearing = bearing_lines(asked);
    assert!(bearing.contains(r#""node": ">=20.11.1""#), "{asked}");
    assert!(!bearing.contains("source-map-support"), "{asked}");
    // Answered with the package's own version, the model is pointed at the engine's line, which
    // sets `node` (its `>=` aside; session 56's re-run was pointed at `"ts-node": "10.9.2"`).
    let (t, requests) = run_prompt(
        &dir,
        "What's the oldest Node.js version osprey says it supports?",
        vec![read(), read(), read(), "0.7.2".into(), "20.11.1".into()],
    );
    let asked = &requests[4].messages.last().unwrap().content;
    let pointed = asked
        .split("bear on the request")
        .next()
        .unwrap_or_default();
    assert!(pointed.contains(r#""node": ">=20.11.1""#), "{asked}");
    assert!(!pointed.contains("ts-node"), "{asked}");
    assert_eq!(t.answer.as_deref(), Some("20.11.1"));
}

/// Found with a Rails API (session 56, prod_max_photo_mb, its first run): asked "In production,
/// how big can a survey photo be? Answer in MB.", the look searched "survey photo" (a changelog
/// line and a Gemfile comment), and `config.x.rookery.max_photo_mb = 27` in the production file
/// was never shown. The unit the answer is asked in counts as the question's: the production
/// file, writing a name of "photo" in MB, is read whole, and that line bears on the question.
#[test]
fn the_unit_an_answer_is_asked_in_finds_the_setting_in_it() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "config/environments/production.rb",
                "Rails.application.configure do\n  config.log_level = :info\n  config.x.rookery.max_photo_mb = 27\n  config.x.rookery.webhook_timeout_seconds = 7\nend\n",
            ),
            (
                "config/environments/development.rb",
                "Rails.application.configure do\n  config.x.rookery.max_photo_mb = 64\nend\n",
            ),
            (
                "CHANGELOG.md",
                "# Changelog\n\n- Presigned S3 uploads for survey photos.\n",
            ),
            (
                "Gemfile",
                "# Outbound webhooks and survey photos on S3.\ngem \"faraday\", \"~> 2.12\"\n",
            ),
        ],
    );
    let prompt = "In production, how big can a survey photo be? Answer in MB.";
    let asked = asked_after_answer(&dir, prompt, "10 MB", "Done.");
    assert!(
        asked.ends_with(
            r#"{"name":"read","arguments":{"path":"config/environments/production.rb"}}"#
        ),
        "{asked}"
    );
    let read = || call("read", json!({"path": "config/environments/production.rb"}));
    let asked = &asked_after_repeats(&dir, prompt, read());
    assert!(
        bearing_lines(asked).trim() == "config.x.rookery.max_photo_mb = 27",
        "{asked}"
    );
}

/// Found with a Rails API (session 56, bump_puma_650, its first run): "Upgrade Puma to 6.5.0.
/// It's pinned exactly, so update both the Gemfile and Gemfile.lock." was offered the lock's
/// `puma (6.4.3)` alone; made, the run ended, the lock's `puma (= 6.4.3)` and the Gemfile's
/// `gem "puma", "6.4.3"` unchanged. With the change made in one file the request names, the
/// change still asked of a file it names is the next one due, until none is.
#[test]
fn a_change_asked_of_two_named_files_is_made_in_both() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "Gemfile",
                "source \"https://rubygems.org\"\n\ngem \"rails\", \"~> 7.1.4\"\ngem \"puma\", \"6.4.3\"\ngem \"sidekiq\", \"~> 7.3\"\n",
            ),
            (
                "Gemfile.lock",
                "GEM\n  remote: https://rubygems.org/\n  specs:\n    nio4r (2.7.3)\n    puma (6.4.3)\n      nio4r (~> 2.0)\n    sidekiq (7.3.9)\n\nDEPENDENCIES\n  puma (= 6.4.3)\n  sidekiq (~> 7.3)\n",
            ),
        ],
    );
    let prompt =
        "Upgrade Puma to 6.5.0. It's pinned exactly, so update both the Gemfile and Gemfile.lock.";
    // The lock's two lines pinning 6.4.3 first, in one edit (`every_pin`).
    let lock_edit = json!({"path": "Gemfile.lock", "old_text": "6.4.3", "new_text": "6.5.0", "replace_all": true});
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    let due: serde_json::Value =
        serde_json::from_str(&tools.change_asked(prompt).unwrap()).unwrap();
    assert_eq!(due["arguments"], lock_edit);
    let (t, _) = run_prompt(
        &dir,
        prompt,
        vec![
            call("edit", lock_edit),
            call(
                "edit",
                json!({"path": "Gemfile", "old_text": "gem \"puma\", \"6.4.3\"", "new_text": "gem \"puma\", \"6.5.0\""}),
            ),
            "Puma is now 6.5.0 in both files.".into(),
        ],
    );
    let first = &t.turns[0].calls[0].feedback;
    assert!(
        first.contains(r#"{"name":"edit","arguments":{"path":"Gemfile","#),
        "{first}"
    );
    let second = &t.turns[1].calls[0].feedback;
    assert!(second.contains("Answer the user now"), "{second}");
    let lock = std::fs::read_to_string(dir.path().join("Gemfile.lock")).unwrap();
    let gemfile = std::fs::read_to_string(dir.path().join("Gemfile")).unwrap();
    assert!(
        !lock.contains("6.4.3") && !gemfile.contains("6.4.3"),
        "{lock}{gemfile}"
    );
    assert_eq!(
        t.answer.as_deref(),
        Some("Puma is now 6.5.0 in both files.")
    );
}

/// Found with a Swift/Vapor API (session 56, default_page_size, its first run): asked "If
/// nothing configures a page size, how many sightings does the sightings list return per
/// page?", the look searched "page size" (the docs' and env files' words), and
/// Qwen2.5-Coder-0.5B answered `10`. What the request says nothing sets names the default,
/// joined as code joins it: `static let defaultPageSize = 37`. ("Nothing overrides it" names
/// nothing.)
#[test]
fn what_nothing_configures_is_searched_as_a_default() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[
            (
                "Sources/App/AppSettings.swift",
                "struct AppSettings {\n    static let defaultPageSize = 37\n    static let defaultMaxPageSize = 140\n}\n",
            ),
            (
                "README.md",
                "# tanager\n\n| `TANAGER_PAGE_SIZE` | page size of the sightings list |\n",
            ),
            (".env.production", "TANAGER_PAGE_SIZE=45\n"),
        ],
    );
    let asked = asked_after_answer(
        &dir,
        "If nothing configures a page size, how many sightings does the sightings list return per page?",
        "10",
        "Done.",
    );
    assert!(
        asked.ends_with(
            r#"{"name":"grep","arguments":{"pattern":"default[\\w.-]*page[ ._-]?size","ignore_case":true}}"#
        ),
        "{asked}"
    );
}

/// Found with a Rails API (session 56, prod_sidekiq_concurrency, its first run): asked "In
/// production, how many threads does each Sidekiq process run?", the read of
/// `config/sidekiq.yml` showed as bearing its comment "Threads per process come from
/// SIDEKIQ_CONCURRENCY, falling back to 7.", not `:concurrency: 26` under `production:`. A
/// process's threads are its concurrency, and for a question naming an environment the lines
/// under a section named for it come first.
#[test]
fn a_section_named_for_the_environment_bears_first() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "config/sidekiq.yml",
            "# Sidekiq process settings.\n#\n# Threads per process come from SIDEKIQ_CONCURRENCY, falling back to 7.\n---\n:concurrency: <%= ENV.fetch(\"SIDEKIQ_CONCURRENCY\", 7).to_i %>\n:timeout: 25\n\nproduction:\n  :concurrency: 26\n  :timeout: 50\n",
        )],
    );
    let read = || call("read", json!({"path": "config/sidekiq.yml"}));
    let asked = &asked_after_repeats(
        &dir,
        "In production, how many threads does each Sidekiq process run?",
        read(),
    );
    let bearing = bearing_lines(asked);
    assert!(
        bearing.trim_start().starts_with(":concurrency: 26"),
        "{asked}"
    );
    assert!(!bearing.contains("falling back to 7"), "{asked}");
}

/// Found with a Swift/Vapor API (session 56, default_port, its re-run): asked "If no env file,
/// environment variable or --port flag sets a port, which port does the server listen on?",
/// Qwen2.5-Coder-0.5B called a made-up `listen_port` with `{"port": "8080"}`, the look ran in
/// its place and showed `static let defaultPort = 7341` as bearing, and the model answered
/// `8080`. What a made-up tool was sent before any look is a guess: kept after the look, the
/// model is pointed at the lines bearing on the question.
#[test]
fn a_made_up_calls_number_kept_after_the_look_is_a_guess() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        &dir,
        &[(
            "Sources/App/AppSettings.swift",
            "struct AppSettings {\n    static let defaultPort = 7341\n    static let defaultDatabasePort = 5432\n}\n",
        )],
    );
    let (t, requests) = run_prompt(
        &dir,
        "If no env file, environment variable or --port flag sets a port, which port does the server listen on?",
        vec![
            call("listen_port", json!({"port": "8080"})),
            "8080".into(),
            "7341".into(),
        ],
    );
    let asked = &requests[2].messages.last().unwrap().content;
    assert!(
        asked.contains("8080") && asked.contains("defaultPort = 7341"),
        "{asked}"
    );
    assert_eq!(t.answer.as_deref(), Some("7341"));
}
