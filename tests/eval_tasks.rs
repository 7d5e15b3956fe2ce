//! Agent tasks (`toolmend eval tasks`): each prompt runs through the whole tool loop on a fresh
//! copy of a folder and is judged by its answer and by the folder afterwards. Driven by the
//! scripted backend (its turns are consumed across tasks, in order) and the real built-in tools.

#[path = "support/cli.rs"]
mod cli;

use std::path::Path;

use serde_json::{Value, json};
use toolmend::agent::{Agent, AgentOptions, DispatchToolbox, EndReason};
use toolmend::backend::scripted::ScriptedBackend;
use toolmend::eval::tasks::{self, Task};

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("notes")).unwrap();
    std::fs::write(
        dir.path().join("todo.txt"),
        "TODO: call Ann\nDONE: pay rent\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("notes/a.md"), "release on Friday\n").unwrap();
    dir
}

fn call(name: &str, args: Value) -> String {
    json!({"name": name, "arguments": args}).to_string()
}

fn task(line: &str) -> Task {
    tasks::load(line).unwrap().remove(0)
}

/// Runs `task` with `turns` on a copy of `ws`; the outcome and the copy.
fn run(ws: &Path, task: &Task, turns: Vec<String>) -> (tasks::Outcome, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let before = tasks::copy_folder(ws, dir.path()).unwrap();
    assert_eq!(before, tasks::snapshot(dir.path()).unwrap());
    let tools = DispatchToolbox::builtin(dir.path()).unwrap();
    let mut agent = Agent::new(ScriptedBackend::new(turns), tools, AgentOptions::default());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let t = rt.block_on(agent.run(&task.prompt, &mut |_| {}));
    (tasks::judge(task, &before, dir.path(), &t).unwrap(), dir)
}

#[test]
fn a_task_passes_on_the_answer_and_an_untouched_folder() {
    let ws = workspace();
    let t = task(
        r#"{"id": "open", "prompt": "Open items?", "answer_contains": ["ann"], "unchanged": true}"#,
    );
    let (o, _) = run(
        ws.path(),
        &t,
        vec![
            call("read", json!({"path": "todo.txt"})),
            "Call Ann is still open.".into(),
        ],
    );
    assert!(o.passed, "{o:?}");
    assert_eq!((o.turns, o.calls, o.failed_calls), (2, 1, 0));
    assert_eq!(o.end, EndReason::Answered);

    // The same answer after writing a file fails the task, naming the file.
    let (o, _) = run(
        ws.path(),
        &t,
        vec![
            call("write", json!({"path": "notes/b.md", "content": "x"})),
            "Call Ann is still open.".into(),
        ],
    );
    assert!(!o.passed);
    assert_eq!(
        o.failures,
        vec!["files changed in a task that must change nothing: notes/b.md".to_owned()]
    );
}

#[test]
fn a_task_fails_for_each_check_that_does_not_hold() {
    let ws = workspace();
    let t = task(
        r#"{"id": "add", "prompt": "Add a line.", "answer_contains": ["added", "coffee"], "files": {"todo.txt": ["TODO: call Ann", "- coffee"], "gone.txt": ["x"]}}"#,
    );
    let (o, _) = run(ws.path(), &t, vec!["I added it.".into()]);
    assert!(!o.passed);
    assert_eq!(
        o.failures,
        vec![
            "the answer does not mention \"coffee\"".to_owned(),
            "gone.txt cannot be read".to_owned(),
            "todo.txt does not contain \"- coffee\"".to_owned(),
        ]
    );
    let (o, dir) = run(
        ws.path(),
        &t,
        vec![
            call(
                "edit",
                json!({"path": "todo.txt", "old_text": "DONE: pay rent", "new_text": "DONE: pay rent\n- coffee"}),
            ),
            "Added coffee.".into(),
        ],
    );
    assert_eq!(o.failures, vec!["gone.txt cannot be read".to_owned()]);
    assert!(
        std::fs::read_to_string(dir.path().join("todo.txt"))
            .unwrap()
            .ends_with("- coffee\n")
    );
    // No answer at all: the run's end is the reason.
    let (o, _) = run(ws.path(), &t, vec![String::new(), String::new()]);
    assert_eq!(o.failures[0], "no answer: the run ended with empty_output");

    // `files_lack`: a string that must be gone, and a file that must exist to be judged.
    let t = task(
        r#"{"id": "fix", "prompt": "Fix it.", "files_lack": {"todo.txt": ["Ann"], "gone.txt": ["x"]}}"#,
    );
    let (o, _) = run(ws.path(), &t, vec!["Fixed.".into()]);
    assert_eq!(
        o.failures,
        vec![
            "gone.txt cannot be read".to_owned(),
            "todo.txt still contains \"Ann\"".to_owned(),
        ]
    );
    let (o, _) = run(
        ws.path(),
        &t,
        vec![
            call(
                "edit",
                json!({"path": "todo.txt", "old_text": "Ann", "new_text": "Bo"}),
            ),
            "Fixed.".into(),
        ],
    );
    assert_eq!(o.failures, vec!["gone.txt cannot be read".to_owned()]);
}

#[test]
fn the_cli_runs_each_task_on_a_fresh_copy_and_reports_them() {
    let ws = workspace();
    let dir = tempfile::tempdir().unwrap();
    let tasks_file = dir.path().join("tasks.jsonl");
    std::fs::write(
        &tasks_file,
        concat!(
            r#"{"id": "open", "prompt": "Open items?", "answer_contains": ["ann"], "unchanged": true}"#,
            "\n",
            r#"{"id": "add", "prompt": "Add coffee.", "files": {"todo.txt": ["- coffee"]}}"#,
            "\n",
            r#"{"id": "day", "prompt": "Which day?", "answer_contains": ["friday"], "unchanged": true}"#,
            "\n"
        ),
    )
    .unwrap();
    // The turns of all tasks, in order: `open` passes, `add` writes the wrong text, `day` reads
    // the file the `add` task's copy changed — which it must not see — and answers.
    let script = dir.path().join("script.jsonl");
    let turns = [
        Value::String(call("read", json!({"path": "todo.txt"}))),
        Value::String("Call Ann.".into()),
        Value::String(call("read", json!({"path": "todo.txt"}))),
        Value::String(call(
            "write",
            json!({"path": "todo.txt", "content": "tea\n"}),
        )),
        Value::String("Done.".into()),
        Value::String(call("read", json!({"path": "todo.txt"}))),
        Value::String("Friday.".into()),
    ];
    let text: String = turns.iter().map(|t| format!("{t}\n")).collect();
    std::fs::write(&script, text).unwrap();
    let args = [
        "eval",
        "tasks",
        "--tasks",
        tasks_file.to_str().unwrap(),
        "--workspace",
        ws.path().to_str().unwrap(),
        "--script",
        script.to_str().unwrap(),
        "--json",
    ];
    let (code, stdout, stderr) = cli::toolmend(&args, "");
    assert_eq!(code, 1, "{stderr}");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert_eq!(lines[0]["id"], "open");
    assert_eq!(lines[0]["passed"], true);
    assert_eq!(lines[1]["id"], "add");
    assert_eq!(lines[1]["passed"], false);
    assert_eq!(
        lines[1]["failures"][0],
        "todo.txt does not contain \"- coffee\""
    );
    // A failed task's folder is kept to look at, and named.
    let kept = Path::new(lines[1]["folder"].as_str().unwrap());
    assert_eq!(
        std::fs::read_to_string(kept.join("todo.txt")).unwrap(),
        "tea\n"
    );
    let transcript: Value = serde_json::from_str(
        &std::fs::read_to_string(lines[1]["transcript"].as_str().unwrap()).unwrap(),
    )
    .unwrap();
    assert_eq!(transcript["prompt"], "Add coffee.");
    assert_eq!(transcript["turns"][1]["calls"][0]["name"], "write");
    std::fs::remove_dir_all(kept.parent().unwrap()).unwrap();
    assert!(lines[0].get("folder").is_none());
    // The third task saw the workspace as it was, not the second task's change.
    assert_eq!(lines[2]["passed"], true, "{}", lines[2]);
    assert_eq!(lines[3], json!({"summary": {"tasks": 3, "passed": 2}}));
    assert_eq!(
        std::fs::read_to_string(ws.path().join("todo.txt")).unwrap(),
        "TODO: call Ann\nDONE: pay rent\n",
        "the workspace itself is never touched"
    );

    // The human view, one task: a line per task and the summary; exit 0 when all passed.
    let only_open = |extra: &[&str]| {
        let mut args = vec![
            "eval",
            "tasks",
            "--tasks",
            tasks_file.to_str().unwrap(),
            "--workspace",
            ws.path().to_str().unwrap(),
            "--script",
            script.to_str().unwrap(),
            "--only",
            "open",
        ];
        args.extend_from_slice(extra);
        cli::toolmend(&args, "")
    };
    let (code, stdout, stderr) = only_open(&[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        "✓ open · 2 turns, 1 call (0 failed)\n1 of 1 tasks passed\n"
    );
    // --keep keeps a passed task's folder and transcript too.
    let (code, stdout, stderr) = only_open(&["--keep", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let line: Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(line["passed"], true, "{line}");
    let kept = Path::new(line["folder"].as_str().unwrap());
    assert!(kept.join("todo.txt").is_file(), "{line}");
    let transcript: Value = serde_json::from_str(
        &std::fs::read_to_string(line["transcript"].as_str().unwrap()).unwrap(),
    )
    .unwrap();
    assert_eq!(transcript["prompt"], "Open items?");
    std::fs::remove_dir_all(kept.parent().unwrap()).unwrap();
    let (code, _, stderr) = cli::toolmend(
        &[
            "eval",
            "tasks",
            "--tasks",
            tasks_file.to_str().unwrap(),
            "--only",
            "nope",
        ],
        "",
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("\"nope\""), "{stderr}");
}

#[test]
fn the_shipped_tasks_read() {
    // Each task file with its folder: the tasks tuned on since session 12, the held-out code
    // project written in session 16, the second one written in session 17, and the small
    // shop project of session 27, the small Rust crate of session 28, the Docker Compose
    // folder of session 29, the Go module of session 30, the folder of dotfiles of session 31
    // the data folder (SQL, CSV, a loader) of session 32, the TypeScript package of
    // session 33, the C library of session 36, the Maven project and the Hugo site of session
    // 37, the Ruby gem and the Terraform/Kubernetes folder of session 38, the PHP library of
    // session 39, the Kotlin/Gradle application and the .NET API of session 40, the Django
    // project, the C++/CMake daemon and the Phoenix/Elixir API of session 41, the Helm chart,
    // the Swift package and the Neovim plugin in Lua of session 42, the Ansible role, the Dart
    // package and the Scala/sbt service of session 43 (each written before the
    // fixes its prompts found: tuned on since), the Haskell/Cabal project, the Clojure service
    // and the Vue/Vite front-end of session 47, the OCaml/dune planner, the R package and the
    // Zig StatsD bridge of session 49, the Julia package and the Erlang/OTP service of session
    // 51, the Perl distribution and the Nim daemon of session 52, the Rust workspace and the
    // Crystal web service and the Go job worker of session 53, the Gleam feed relay, the F#
    // inventory API and the Deno uptime checker of session 54, the D/dub log shipper, the
    // Python/uv webhook relay and the Kotlin/Ktor link shortener of session 55, the Rails API, the
    // NestJS service and the Swift/Vapor API of session 56 (written before
    // any run on them).
    for (file, folder) in [
        ("examples/tasks.jsonl", "examples/workspace"),
        ("examples/tasks-project.jsonl", "examples/project"),
        ("examples/tasks-linkcheck.jsonl", "examples/linkcheck"),
        ("examples/tasks-shop.jsonl", "examples/shop"),
        ("examples/tasks-units.jsonl", "examples/units"),
        ("examples/tasks-deploy.jsonl", "examples/deploy"),
        ("examples/tasks-tally.jsonl", "examples/tally"),
        ("examples/tasks-dotfiles.jsonl", "examples/dotfiles"),
        ("examples/tasks-shopdata.jsonl", "examples/shopdata"),
        ("examples/tasks-textkit.jsonl", "examples/textkit"),
        ("examples/tasks-ringbuf.jsonl", "examples/ringbuf"),
        ("examples/tasks-bookings.jsonl", "examples/bookings"),
        ("examples/tasks-blog.jsonl", "examples/blog"),
        ("examples/tasks-tides.jsonl", "examples/tides"),
        ("examples/tasks-infra.jsonl", "examples/infra"),
        ("examples/tasks-invoicer.jsonl", "examples/invoicer"),
        ("examples/tasks-packtrack.jsonl", "examples/packtrack"),
        ("examples/tasks-bookshelf.jsonl", "examples/bookshelf"),
        ("examples/tasks-pantry.jsonl", "examples/pantry"),
        ("examples/tasks-sensord.jsonl", "examples/sensord"),
        ("examples/tasks-chirp.jsonl", "examples/chirp"),
        ("examples/tasks-beacon.jsonl", "examples/beacon"),
        ("examples/tasks-skylog.jsonl", "examples/skylog"),
        ("examples/tasks-focus.jsonl", "examples/focus"),
        ("examples/tasks-harbor.jsonl", "examples/harbor"),
        ("examples/tasks-pebble.jsonl", "examples/pebble"),
        ("examples/tasks-quill.jsonl", "examples/quill"),
        ("examples/tasks-ledger.jsonl", "examples/ledger"),
        ("examples/tasks-courier.jsonl", "examples/courier"),
        ("examples/tasks-atlas.jsonl", "examples/atlas"),
        ("examples/tasks-tern.jsonl", "examples/tern"),
        ("examples/tasks-meadow.jsonl", "examples/meadow"),
        ("examples/tasks-zest.jsonl", "examples/zest"),
        ("examples/tasks-sedge.jsonl", "examples/sedge"),
        ("examples/tasks-kiln.jsonl", "examples/kiln"),
        ("examples/tasks-quarry.jsonl", "examples/quarry"),
        ("examples/tasks-fjord.jsonl", "examples/fjord"),
        ("examples/tasks-cinder.jsonl", "examples/cinder"),
        ("examples/tasks-spire.jsonl", "examples/spire"),
        ("examples/tasks-drover.jsonl", "examples/drover"),
        ("examples/tasks-brook.jsonl", "examples/brook"),
        ("examples/tasks-thimble.jsonl", "examples/thimble"),
        ("examples/tasks-lantern.jsonl", "examples/lantern"),
        ("examples/tasks-harrow.jsonl", "examples/harrow"),
        ("examples/tasks-marten.jsonl", "examples/marten"),
        ("examples/tasks-quiver.jsonl", "examples/quiver"),
        ("examples/tasks-rookery.jsonl", "examples/rookery"),
        ("examples/tasks-osprey.jsonl", "examples/osprey"),
        ("examples/tasks-tanager.jsonl", "examples/tanager"),
    ] {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let list = tasks::load(&std::fs::read_to_string(root.join(file)).unwrap()).unwrap();
        assert!(list.len() >= 8, "{file}");
        // Every string a read-only task's answer must hold is in the folder (a file's name or
        // text); every file a task changes exists there, or the prompt names it (to be
        // created); and no task that changes files already passes on the untouched folder.
        let ws = root.join(folder);
        let before = tasks::snapshot(&ws).unwrap();
        let all: String = before
            .iter()
            .map(|(path, b)| {
                format!("{}\n{}", path.display(), String::from_utf8_lossy(b)).to_lowercase()
            })
            .collect();
        let answered = toolmend::agent::Transcript {
            model: "none".into(),
            prompt: String::new(),
            turns: Vec::new(),
            answer: Some(String::new()),
            end: EndReason::Answered,
            error: None,
            stats: Default::default(),
            messages: Vec::new(),
            withheld: Vec::new(),
        };
        for t in &list {
            if t.unchanged {
                for want in &t.answer_contains {
                    assert!(all.contains(&want.to_lowercase()), "{}: {want}", t.id);
                }
                continue;
            }
            for path in t.files.keys().chain(t.files_lack.keys()) {
                assert!(
                    ws.join(path).is_file() || t.prompt.contains(path.as_str()),
                    "{}: {path}",
                    t.id
                );
            }
            let o = tasks::judge(t, &before, &ws, &answered).unwrap();
            assert!(!o.passed, "{file}: {} holds before any change", t.id);
        }
    }
}
