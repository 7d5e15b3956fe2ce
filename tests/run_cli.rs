//! `toolmend run` and `toolmend chat` end to end, with the scripted backend (`--script`, recorded
//! model outputs) and the built-in tools on `examples/workspace`: the rendered transcript, the
//! `--json` event stream as a contract (read back independently of the code that writes it), and
//! the exit codes.

use std::path::Path;

use serde_json::Value;

#[path = "support/cli.rs"]
mod cli;

fn workspace() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/examples/workspace")
}

/// Writes a script (one JSON value per line) and returns its path inside `dir`.
fn script(dir: &Path, turns: &[Value]) -> std::path::PathBuf {
    let path = dir.join("script.jsonl");
    let text: String = turns.iter().map(|t| format!("{t}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

/// What a run of the binary gave.
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

fn toolmend(args: &[&str], stdin: &str) -> Ran {
    let (code, stdout, stderr) = cli::toolmend(args, stdin);
    Ran {
        code,
        stdout,
        stderr,
    }
}

/// The model's turns in the issue's recorded Qwen loop, in small: a refused absolute path, the
/// fixed call, two bare JSON calls on two lines (one for a file that does not exist), an answer.
fn qwen_like() -> Vec<Value> {
    vec![
        Value::String(
            "```json\n{\"name\": \"ls\", \"arguments\": {\"path\": \"/path/to/folder\"}}\n```".into(),
        ),
        Value::String("{\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}".into()),
        Value::String(
            "{\"name\": \"read\", \"arguments\": {\"path\": \"todo.txt\"}}\n{\"name\": \"read\", \"arguments\": {\"path\": \"notes.md\"}}".into(),
        ),
        Value::String("todo.txt lists two open TODOs.".into()),
    ]
}

#[test]
fn json_events_are_well_formed_with_matching_tool_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let s = script(dir.path(), &qwen_like());
    let out = toolmend(
        &[
            "run",
            "List the files, then read the first one.",
            "--script",
            s.to_str().unwrap(),
            "--root",
            workspace(),
            "--json",
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let stdout = out.stdout;
    let events: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l:?}: {e}")))
        .collect();
    // Calls that run concurrently start together; their ends follow in call order.
    let mut open: std::collections::VecDeque<String> = std::collections::VecDeque::new();
    let mut pairs = 0;
    for (i, e) in events.iter().enumerate() {
        match e["type"].as_str().unwrap() {
            "Chunk" => assert!(e["text"].is_string()),
            "Text" => {
                let text = e["text"].as_str().unwrap();
                assert!(
                    !text.contains("\"name\""),
                    "call text shown as text: {text:?}"
                );
            }
            "ToolStart" => {
                assert!(e["name"].is_string() && !e["args"].is_null());
                open.push_back(e["id"].as_str().unwrap().to_owned());
            }
            "ToolEnd" => {
                assert_eq!(
                    open.pop_front().as_deref(),
                    e["id"].as_str(),
                    "unmatched ToolEnd at {i}"
                );
                assert!(e["duration_ms"].as_f64().unwrap() >= 0.0);
                assert!(e["result"]["output"].is_string());
                pairs += 1;
            }
            "Retry" => assert!(e["reason"].is_string()),
            "Done" => assert_eq!(i, events.len() - 1, "Done is last"),
            other => panic!("unexpected event type {other}"),
        }
    }
    assert!(open.is_empty());
    assert_eq!(pairs, 4);
    let done = events.last().unwrap();
    assert_eq!(done["reason"], "answered");
    // The answer whole, so a consumer need not join chunks (which hold the calls' text too).
    assert_eq!(done["answer"], "todo.txt lists two open TODOs.");
    assert_eq!(done["stats"]["calls"], 4);
    assert_eq!(done["stats"]["failed_calls"], 2);
    // The refused absolute path and the missing file came back as failures with messages.
    let failures: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "ToolEnd" && e["result"]["failure"].is_object())
        .collect();
    assert_eq!(failures.len(), 2);
    assert!(failures.iter().all(|f| {
        !f["result"]["failure"]["message"]
            .as_str()
            .unwrap()
            .is_empty()
    }));
}

#[test]
fn the_rendered_transcript_shows_calls_results_and_errors_without_colour_off_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let s = script(dir.path(), &qwen_like());
    let out = toolmend(
        &[
            "run",
            "List the files.",
            "--script",
            s.to_str().unwrap(),
            "--root",
            workspace(),
        ],
        "",
    );
    assert_eq!(out.code, 0);
    let stdout = out.stdout;
    assert!(stdout.contains("🔧 ls {\"path\":\".\"}"), "{stdout}");
    // Each call shows once, as its 🔧 line: not also as the raw text the model wrote.
    assert!(
        !stdout.contains(r#"{"name": "read", "arguments": {"path": "todo.txt"}}"#),
        "{stdout}"
    );
    assert!(!stdout.contains("```"), "{stdout}");
    assert!(stdout.contains("✓ ls ("), "{stdout}");
    assert!(stdout.contains("✗ read"), "{stdout}");
    assert!(stdout.contains("todo.txt lists two open TODOs."));
    assert!(
        !stdout.contains('\x1b'),
        "no colour codes when stdout is not a terminal"
    );
    let stderr = out.stderr;
    assert!(stderr.contains("the model answered"), "{stderr}");
    assert!(stderr.contains("4 calls (2 failed)"), "{stderr}");
    // The tools' run time is reported apart from toolmend's own.
    assert!(stderr.contains(" · tools "), "{stderr}");
}

#[test]
fn a_run_without_an_answer_exits_1_and_set_up_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let s = script(dir.path(), &qwen_like());
    let s = s.to_str().unwrap();
    let out = toolmend(
        &[
            "run",
            "x",
            "--script",
            s,
            "--root",
            workspace(),
            "--turns",
            "2",
        ],
        "",
    );
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("turn budget"));

    let missing = dir.path().join("no-such-dir");
    let out = toolmend(
        &[
            "run",
            "x",
            "--script",
            s,
            "--root",
            missing.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("root"));

    let out = toolmend(&["run", "x", "--script", s, "--tools", "nope"], "");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("--tools"));

    let out = toolmend(&["run", "x", "--grammar", "sometimes"], "");
    assert_eq!(out.code, 2);

    // Regression: these were accepted and quietly changed (0 turns ran 1, a context of 0 became
    // 256, 0 tokens evaluated the whole prompt to produce nothing).
    for (flag, value) in [
        ("--turns", "0"),
        ("--max-tokens", "0"),
        ("--ctx", "10"),
        ("--threads", "0"),
        ("--temperature", "-1"),
        ("--temperature", "NaN"),
    ] {
        let arg = format!("{flag}={value}");
        let out = toolmend(&["run", "x", "--script", s, &arg], "");
        assert_eq!(out.code, 2, "{flag} {value}: {}", out.stderr);
        assert!(out.stderr.contains(flag), "{flag} {value}: {}", out.stderr);
    }
}

#[test]
fn chat_keeps_the_conversation_between_prompts() {
    let dir = tempfile::tempdir().unwrap();
    let s = script(
        dir.path(),
        &[
            Value::String("{\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}".into()),
            Value::String("There are four entries.".into()),
            Value::String("The first is README.md.".into()),
        ],
    );
    let out = toolmend(
        &[
            "chat",
            "--script",
            s.to_str().unwrap(),
            "--root",
            workspace(),
            "--json",
        ],
        "What is here?\n/history\nWhich is first?\n/exit\nnever read\n",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let stdout = out.stdout;
    let dones: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"] == "Done")
        .collect();
    assert_eq!(dones.len(), 2, "two prompts, two runs");
    assert!(dones.iter().all(|d| d["reason"] == "answered"));
    let stderr = out.stderr;
    assert!(stderr.contains("  1  What is here?"), "{stderr}");
}

#[test]
fn command_tools_from_a_file_run_with_decoded_arguments_on_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let tools = dir.path().join("tools.json");
    std::fs::write(
        &tools,
        serde_json::json!([
            {"name": "echo", "description": "Echo the arguments.",
             "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
             "command": ["sh", "-c", "cat"]},
            {"name": "picky", "description": "Always refuses its arguments.",
             "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
             "command": ["sh", "-c", "echo 'city must be a real city' >&2; exit 2"]}
        ])
        .to_string(),
    )
    .unwrap();
    // The program sees the validated arguments as one JSON object.
    let s = script(
        dir.path(),
        &[
            Value::String(
                "{\"name\": \"echo\", \"arguments\": {\"n\": 5}}\n{\"name\": \"picky\", \"arguments\": {\"city\": \"x\"}}".into(),
            ),
            Value::String("done".into()),
        ],
    );
    let out = toolmend(
        &[
            "run",
            "x",
            "--script",
            s.to_str().unwrap(),
            "--tools",
            tools.to_str().unwrap(),
            "--root",
            dir.path().to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let ends: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"] == "ToolEnd")
        .collect();
    assert_eq!(ends.len(), 2);
    assert_eq!(ends[0]["result"]["output"], "{\"n\":5}");
    assert_eq!(ends[1]["result"]["failure"]["fault"], "model");
    assert!(
        ends[1]["result"]["output"]
            .as_str()
            .unwrap()
            .contains("real city")
    );
}

/// Runs `toolmend args…` (stdin closed) and fails the test when it has not finished within
/// `limit`: the process is killed instead of hanging the suite.
fn toolmend_within(args: &[&str], limit: std::time::Duration) -> Ran {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolmend"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("toolmend runs");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).map(|_| s)
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).map(|_| s)
    });
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("toolmend {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Ran {
        code: status.code().unwrap_or(-1),
        stdout: out.join().unwrap().unwrap(),
        stderr: err.join().unwrap().unwrap(),
    }
}

#[test]
fn command_tools_with_large_input_and_output_do_not_block_on_full_pipes() {
    let dir = tempfile::tempdir().unwrap();
    let tools = dir.path().join("tools.json");
    // `loud` writes 300 kB to stdout and to stderr, far more than a pipe holds, before it exits;
    // `early` writes 200 kB before it reads its (200 kB) arguments.
    std::fs::write(
        &tools,
        serde_json::json!([
            {"name": "loud", "description": "Talks a lot.",
             "parameters": {"type": "object", "properties": {}},
             "command": ["sh", "-c", "head -c 300000 /dev/zero | tr '\\0' a; head -c 300000 /dev/zero | tr '\\0' b >&2"]},
            {"name": "early", "description": "Answers before it reads.",
             "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
             "command": ["sh", "-c", "head -c 200000 /dev/zero | tr '\\0' c; wc -c"]}
        ])
        .to_string(),
    )
    .unwrap();
    let big = "x".repeat(200_000);
    let s = script(
        dir.path(),
        &[
            Value::String(format!(
                "{{\"name\": \"loud\", \"arguments\": {{}}}}\n{{\"name\": \"early\", \"arguments\": {{\"text\": \"{big}\"}}}}"
            )),
            Value::String("done".into()),
        ],
    );
    let out = toolmend_within(
        &[
            "run",
            "x",
            "--script",
            s.to_str().unwrap(),
            "--tools",
            tools.to_str().unwrap(),
            "--root",
            dir.path().to_str().unwrap(),
            "--json",
        ],
        std::time::Duration::from_secs(20),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let ends: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"] == "ToolEnd")
        .collect();
    assert_eq!(ends.len(), 2, "{}", out.stdout);
    for e in &ends {
        assert!(e["result"]["failure"].is_null(), "{e}");
        // The output reaches the model capped, with a note.
        let output = e["result"]["output"].as_str().unwrap();
        assert!(output.len() < 20_000, "{}", output.len());
        assert!(output.contains("[output truncated:"), "{output:.200}");
    }
    assert!(
        ends[0]["result"]["output"]
            .as_str()
            .unwrap()
            .starts_with("aaaa")
    );
}

/// A first prompt that does not fit the context is a set-up error (exit 2), like a bad --ctx;
/// the same overflow after some turns ended a run without an answer (exit 1).
#[test]
fn a_prompt_that_does_not_fit_the_context_from_the_start_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let s = script(dir.path(), &[serde_json::json!({"overflow": 256})]);
    let out = toolmend(
        &[
            "run",
            "x",
            "--script",
            s.to_str().unwrap(),
            "--root",
            workspace(),
        ],
        "",
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("context holds 256"), "{}", out.stderr);
    let s = script(
        dir.path(),
        &[
            Value::String("{\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}".into()),
            serde_json::json!({"overflow": 256}),
        ],
    );
    let out = toolmend(
        &[
            "run",
            "x",
            "--script",
            s.to_str().unwrap(),
            "--root",
            workspace(),
            "--json",
        ],
        "",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let done: Value = serde_json::from_str(out.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(done["reason"], "prompt_too_long");
}

/// A call the token limit cut off inside its arguments says so on its 🔧 line.
#[test]
fn a_cut_off_call_is_shown_as_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let s = script(
        dir.path(),
        &[
            serde_json::json!({"text": "{\"name\": \"write\", \"arguments\": {\"path\": \"a.txt\", \"content\": \"hello wor", "max_chunks": 100}),
            Value::String("Done.".into()),
        ],
    );
    let root = tempfile::tempdir().unwrap();
    let out = toolmend(
        &[
            "run",
            "x",
            "--script",
            s.to_str().unwrap(),
            "--root",
            root.path().to_str().unwrap(),
        ],
        "",
    );
    assert!(
        out.stdout.contains("🔧 write") && out.stdout.contains("(cut off: not run)"),
        "{}",
        out.stdout
    );
    assert!(!root.path().join("a.txt").exists());
}

/// Output stuck in a loop is stopped: the human view says what repeated, the `--json` stream has
/// the `Looped` event, and the call it cut is not run.
#[test]
fn a_call_stuck_in_a_loop_is_stopped_and_shown() {
    let dir = tempfile::tempdir().unwrap();
    let looping = format!(
        "{{\"name\": \"write\", \"arguments\": {{\"path\": \"a.txt\", \"content\": \"{}\"}}}}",
        "all work and no play\\n".repeat(40)
    );
    let s = script(
        dir.path(),
        &[Value::String(looping), Value::String("Done.".into())],
    );
    let root = tempfile::tempdir().unwrap();
    let args = [
        "run",
        "x",
        "--script",
        s.to_str().unwrap(),
        "--root",
        root.path().to_str().unwrap(),
    ];
    let out = toolmend(&args, "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("✂ stopped: the output wrote \"all work and no play\" 5 times in a row"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("(cut off: not run)"), "{}", out.stdout);
    assert!(!root.path().join("a.txt").exists());
    let out = toolmend(&[&args[..], &["--json"]].concat(), "");
    let looped: Vec<Value> = out
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["type"] == "Looped")
        .collect();
    assert_eq!(
        looped,
        [serde_json::json!({"type": "Looped", "unit": "all work and no play", "repeats": 5})]
    );
}

/// Piped into chat, each prompt is echoed before its answer.
#[test]
fn chat_echoes_piped_prompts() {
    let dir = tempfile::tempdir().unwrap();
    let s = script(
        dir.path(),
        &[
            Value::String("Four entries.".into()),
            Value::String("README.md.".into()),
        ],
    );
    let out = toolmend(
        &[
            "chat",
            "--script",
            s.to_str().unwrap(),
            "--root",
            workspace(),
        ],
        "What is here?\nWhich is first?\n",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "› What is here?\nFour entries.\n› Which is first?\nREADME.md.\n"
    );
}

#[cfg(unix)]
fn sigint(pid: u32) {
    let ok = std::process::Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
}

/// Runs toolmend with piped stdin/stdout, waits for `ready` on stdout, sends Ctrl-C (SIGINT) and
/// returns (code, stdout, stderr). `input` is written after the signal, then stdin is closed.
#[cfg(unix)]
fn interrupted(args: &[&str], ready: &str, input: &str) -> Ran {
    use std::io::{BufRead, Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolmend"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    let _ = stdin.write_all(input.split('|').next().unwrap_or("").as_bytes());
    while !seen.contains(ready) {
        let mut line = String::new();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "ended early: {seen}"
        );
        seen.push_str(&line);
    }
    sigint(child.id());
    let rest = input.split('|').nth(1).unwrap_or("");
    let _ = stdin.write_all(rest.as_bytes());
    drop(stdin);
    let mut tail = String::new();
    stdout.read_to_string(&mut tail).unwrap();
    seen.push_str(&tail);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let code = child.wait().unwrap().code().unwrap_or(-1);
    Ran {
        code,
        stdout: seen,
        stderr,
    }
}

/// A slow answer: one word every 20 ms for a long while.
fn slow_answer() -> Value {
    let words: String = (0..500).map(|i| format!("word{i} ")).collect();
    serde_json::json!({"text": words, "chunk_ms": 20})
}

/// Ctrl-C stops `run` cleanly: generation stops, `Done` comes last (`interrupted`), the summary
/// is printed, exit 130.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_run_with_done_and_exit_130() {
    let dir = tempfile::tempdir().unwrap();
    let s = script(dir.path(), &[slow_answer()]);
    let out = interrupted(
        &[
            "run",
            "x",
            "--script",
            s.to_str().unwrap(),
            "--root",
            workspace(),
            "--json",
        ],
        "word3\"",
        "",
    );
    assert_eq!(out.code, 130, "{}", out.stderr);
    let done: Value = serde_json::from_str(out.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(done["type"], "Done", "{}", out.stdout);
    assert_eq!(done["reason"], "interrupted");
    assert!(!out.stdout.contains("word400"), "generation went on");
}

/// In chat, Ctrl-C stops the current answer and the next prompt is answered.
#[cfg(unix)]
#[test]
fn ctrl_c_in_chat_stops_the_answer_and_returns_to_the_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let s = script(
        dir.path(),
        &[slow_answer(), Value::String("Second answer.".into())],
    );
    let out = interrupted(
        &[
            "chat",
            "--script",
            s.to_str().unwrap(),
            "--root",
            workspace(),
            "--json",
        ],
        "word3\"",
        "Write a lot.\n|Say more.\n",
    );
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let dones: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"] == "Done")
        .collect();
    assert_eq!(dones.len(), 2, "{}", out.stdout);
    assert_eq!(dones[0]["reason"], "interrupted");
    assert_eq!(dones[1]["answer"], "Second answer.");
}

/// When stdout goes away, the run stops before any further call and exits non-zero.
#[cfg(unix)]
#[test]
fn a_closed_stdout_stops_the_run_before_more_calls() {
    use std::io::{BufRead, Read};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    let write = |p: &str| {
        Value::String(format!(
            "{{\"name\": \"write\", \"arguments\": {{\"path\": \"{p}\", \"content\": \"x\"}}}}"
        ))
    };
    let mut turns = vec![slow_answer_with_call(write("one.txt"))];
    turns.extend((0..5).map(|i| write(&format!("later{i}.txt"))));
    let s = script(dir.path(), &turns);
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolmend"))
        .args([
            "run",
            "x",
            "--script",
            s.to_str().unwrap(),
            "--root",
            root.path().to_str().unwrap(),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    drop(stdout); // like `| head -1`
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let code = child.wait().unwrap().code().unwrap_or(-1);
    assert_ne!(code, 0, "{stderr}");
    assert!(
        (0..5).all(|i| !root.path().join(format!("later{i}.txt")).exists()),
        "tools ran after stdout closed: {stderr}"
    );
}

/// Some slow text, then a call.
fn slow_answer_with_call(call: Value) -> Value {
    let words: String = (0..20).map(|i| format!("word{i}\n")).collect();
    serde_json::json!({"text": format!("{words}{}", call.as_str().unwrap()), "chunk_ms": 20})
}

/// An Ollama server that cannot be reached is a set-up error: exit 2 before the first turn.
#[cfg(feature = "ollama")]
#[test]
fn an_unreachable_ollama_server_exits_2() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let host = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let out = toolmend(
        &[
            "run",
            "hi",
            "--root",
            workspace(),
            "--ollama",
            "m",
            "--host",
            &host,
        ],
        "",
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("cannot reach Ollama"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}

/// A folder holding `todo.txt`, and a script whose first turn is `first` and second an answer.
fn todo_folder(first: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("todo.txt"), "TODO: call Ann\n").unwrap();
    let s = script(
        dir.path(),
        &[Value::String(first.into()), Value::String("done".into())],
    );
    (dir, s)
}

/// The `ToolEnd` events of a `--json` run.
fn tool_ends(out: &Ran) -> Vec<Value> {
    out.stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"] == "ToolEnd")
        .collect()
}

/// `--tools read-only` (or single built-in names) offers only the tools named: a model that
/// writes a file anyway is told the tool does not exist, and nothing is written. Found with
/// Qwen2.5-Coder-0.5B, which replaced `todo.txt` by one line when asked to list its TODO items.
#[test]
fn run_offers_only_the_built_in_tools_named() {
    let (dir, s) = todo_folder(
        "{\"name\": \"write\", \"arguments\": {\"path\": \"todo.txt\", \"content\": \"x\"}}",
    );
    for spec in ["read-only", "ls,read, grep,glob"] {
        let out = toolmend(
            &[
                "run",
                "List the TODO items.",
                "--script",
                s.to_str().unwrap(),
                "--tools",
                spec,
                "--root",
                dir.path().to_str().unwrap(),
                "--json",
            ],
            "",
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        let end = &tool_ends(&out)[0];
        assert_eq!(end["result"]["failure"]["kind"], "unknown_tool", "{end}");
        let message = end["result"]["output"].as_str().unwrap();
        assert!(
            message.contains("glob, grep, ls, read") && !message.contains("edit"),
            "{message}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
            "TODO: call Ann\n"
        );
    }
    let out = toolmend(
        &[
            "run",
            "x",
            "--script",
            s.to_str().unwrap(),
            "--tools",
            "read,shell",
        ],
        "",
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("\"shell\"") && out.stderr.contains("read-only"),
        "{}",
        out.stderr
    );
}

/// `--ask always` asks on stderr before a tool that changes things runs and reads the answer from
/// stdin: `n` (or the end of input) refuses the call — the model is told the user did not allow
/// it, with no example call to copy — and `y` lets it run. Read-only tools are never asked about.
#[test]
fn run_asks_before_a_tool_that_changes_things() {
    let (dir, s) = todo_folder(
        "{\"name\": \"read\", \"arguments\": {\"path\": \"todo.txt\"}}\n{\"name\": \"write\", \"arguments\": {\"path\": \"todo.txt\", \"content\": \"x\"}}",
    );
    let args = |ask: &'static str| {
        vec![
            "run".to_owned(),
            "List the TODO items.".into(),
            "--script".into(),
            s.to_str().unwrap().into(),
            "--root".into(),
            dir.path().to_str().unwrap().into(),
            "--ask".into(),
            ask.into(),
            "--json".into(),
        ]
    };
    for answer in ["n\n", "", "maybe\n"] {
        let a = args("always");
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let out = toolmend(&a, answer);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(out.stderr.matches("allow `").count(), 1, "{}", out.stderr);
        assert!(
            out.stderr.contains(
                r#"allow `write` {"path":"todo.txt","content":"x"}? [y/N/a = always `write`]"#
            ),
            "{}",
            out.stderr
        );
        let ends = tool_ends(&out);
        assert!(
            ends[0]["result"]["failure"].is_null(),
            "read is not asked about"
        );
        assert_eq!(ends[1]["result"]["failure"]["kind"], "denied");
        let message = ends[1]["result"]["output"].as_str().unwrap();
        assert!(
            message.contains("the user did not allow this call"),
            "{message}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
            "TODO: call Ann\n"
        );
    }
    let a = args("always");
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let out = toolmend(&a, "y\n");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        tool_ends(&out)[1]["result"]["failure"].is_null(),
        "{}",
        out.stdout
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
        "x"
    );
    // `a` allows this call and every later call of the same tool without asking again.
    let (dir2, s2) = todo_folder(
        "{\"name\": \"write\", \"arguments\": {\"path\": \"a.txt\", \"content\": \"1\"}}\n{\"name\": \"write\", \"arguments\": {\"path\": \"b.txt\", \"content\": \"2\"}}",
    );
    let out = toolmend(
        &[
            "run",
            "x",
            "--script",
            s2.to_str().unwrap(),
            "--root",
            dir2.path().to_str().unwrap(),
            "--ask",
            "always",
        ],
        "a\n",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr.matches("allow `").count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("[y/N/a = always `write`]"),
        "{}",
        out.stderr
    );
    assert!(dir2.path().join("a.txt").exists() && dir2.path().join("b.txt").exists());
    // `never`, and `auto` without a terminal: no question.
    for ask in ["never", "auto"] {
        std::fs::write(dir.path().join("todo.txt"), "TODO: call Ann\n").unwrap();
        let a = args(ask);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let out = toolmend(&a, "n\n");
        assert!(!out.stderr.contains("allow `"), "{}", out.stderr);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("todo.txt")).unwrap(),
            "x"
        );
    }
}

/// In `chat` the answers come from the same lines as the prompts, in order.
#[test]
fn chat_reads_answers_between_prompts() {
    let dir = tempfile::tempdir().unwrap();
    let s = script(
        dir.path(),
        &[
            Value::String(
                "{\"name\": \"write\", \"arguments\": {\"path\": \"a.txt\", \"content\": \"1\"}}"
                    .into(),
            ),
            Value::String("wrote a".into()),
            Value::String(
                "{\"name\": \"write\", \"arguments\": {\"path\": \"b.txt\", \"content\": \"2\"}}"
                    .into(),
            ),
            Value::String("did not write b".into()),
        ],
    );
    let out = toolmend(
        &[
            "chat",
            "--script",
            s.to_str().unwrap(),
            "--root",
            dir.path().to_str().unwrap(),
            "--ask",
            "always",
        ],
        "write a\ny\nwrite b\nno\n",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(dir.path().join("a.txt").exists());
    assert!(!dir.path().join("b.txt").exists());
    assert!(
        out.stdout.contains("› write a") && out.stdout.contains("› write b"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("did not write b"), "{}", out.stdout);
}

/// The transcript shows the message the model was sent, not the tool's own: SmolLM2-135M,
/// asked what todo.txt says, called a tool `todo.txt`; the model was shown the `read` of
/// `todo.txt` as the call to make, while the transcript showed read's fixed example
/// (`README.md`) and listed `edit` and `write`, which a question is not offered. (Its call had no
/// arguments, and now runs as the read of `todo.txt`; arguments no tool takes still fail.)
#[test]
fn a_failed_call_shows_the_message_the_model_was_sent() {
    // After calls that all failed, an answer to the question is asked to look first (session
    // 50): the script then reads the file and answers.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("todo.txt"), "TODO: call Ann\n").unwrap();
    let s = script(
        dir.path(),
        &[
            Value::String("{\"name\": \"todo.txt\", \"arguments\": {\"text\": \"x\"}}".into()),
            Value::String("done".into()),
            Value::String("{\"name\": \"read\", \"arguments\": {\"path\": \"todo.txt\"}}".into()),
            Value::String("It says: call Ann.".into()),
        ],
    );
    let args = |json: bool| {
        let mut a = vec![
            "run",
            "What does todo.txt say?",
            "--script",
            s.to_str().unwrap(),
            "--root",
            dir.path().to_str().unwrap(),
        ];
        if json {
            a.push("--json");
        }
        a
    };
    let out = toolmend(&args(false), "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with("✗ todo.txt"))
        .unwrap_or_else(|| panic!("{}", out.stdout));
    assert!(
        line.contains(r#"{"name":"read","arguments":{"path":"todo.txt"}}"#),
        "{line}"
    );
    assert!(
        !line.contains("README.md") && !line.contains("write"),
        "{line}"
    );
    // `--json` keeps both: the tool's result, and what was sent when it differs.
    let out = toolmend(&args(true), "");
    let end = &tool_ends(&out)[0];
    let sent = end["sent"].as_str().unwrap();
    assert!(sent.contains(r#""path":"todo.txt""#), "{end}");
    assert_ne!(end["result"]["output"].as_str(), Some(sent));
}
