//! Every way out of the built-in tools' root is refused with a clear message, and nothing outside
//! the root is read or written: `..`, absolute paths, symbolic links to files outside, symbolic
//! links to directories outside (as a parent), dangling links, and glob patterns pointing out.
#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use toolmend::dispatch::{Dispatcher, Policy};
use toolmend::tools::{FailureKind, ToolCall, ToolResult};

const SECRET: &str = "TOP-SECRET-CONTENT";

struct World {
    _dir: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), format!("{SECRET}\n")).unwrap();
    std::fs::write(root.join("notes.txt"), "hello\n").unwrap();
    std::fs::write(root.join("src/main.rs"), "fn main() {}\n").unwrap();
    symlink(&outside, root.join("link_out")).unwrap();
    symlink(outside.join("secret.txt"), root.join("secret_link.txt")).unwrap();
    symlink(outside.join("missing.txt"), root.join("dangling.txt")).unwrap();
    symlink(root.join("src"), root.join("inner")).unwrap();
    World {
        _dir: dir,
        root,
        outside,
    }
}

/// Everything under `dir`: relative path → content (files) or "<dir>".
fn snapshot(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            let content = if e.file_type().is_file() {
                std::fs::read_to_string(e.path()).unwrap()
            } else {
                "<dir>".into()
            };
            (rel, content)
        })
        .collect();
    out.sort();
    out
}

async fn call(w: &World, name: &str, args: Value) -> ToolResult {
    let registry = toolmend::builtin::registry(&w.root).unwrap();
    let mut d = Dispatcher::new(registry, Policy::default());
    d.dispatch(ToolCall::new(name, args)).await
}

fn assert_refused(r: &ToolResult, why: &str) {
    assert_eq!(
        r.failure.as_ref().map(|f| f.kind()),
        Some(FailureKind::Denied),
        "{why}: expected a refusal, got {r:?}"
    );
    assert!(!r.output.contains(SECRET), "{why}: leaked {}", r.output);
    assert!(r.effects.is_empty(), "{why}");
}

/// The escape routes, each with a word the refusal must contain.
fn escapes(w: &World) -> Vec<(String, &'static str)> {
    vec![
        ("../outside/secret.txt".into(), "`..`"),
        ("src/../../outside/secret.txt".into(), "`..`"),
        (
            w.outside.join("secret.txt").display().to_string(),
            "absolute path",
        ),
        ("/etc/passwd".into(), "absolute path"),
        ("secret_link.txt".into(), "symbolic link"),
        ("link_out/secret.txt".into(), "symbolic link"),
        ("link_out/new/deeper.txt".into(), "symbolic link"),
        ("dangling.txt".into(), "symbolic link"),
    ]
}

#[tokio::test]
async fn every_escape_is_refused_by_every_path_tool_and_nothing_outside_changes() {
    let w = world();
    let before = snapshot(&w.outside);
    for (path, word) in escapes(&w) {
        let tries = [
            ("read", json!({"path": path})),
            ("ls", json!({"path": path})),
            ("grep", json!({"pattern": "SECRET", "path": path})),
            ("glob", json!({"pattern": "*", "path": path})),
            ("write", json!({"path": path, "content": "pwned"})),
            (
                "edit",
                json!({"path": path, "old_text": SECRET, "new_text": "pwned"}),
            ),
        ];
        for (tool, args) in tries {
            let r = call(&w, tool, args).await;
            let why = format!("{tool} {path}");
            assert_refused(&r, &why);
            assert!(
                r.output.contains(word),
                "{why}: unclear message: {}",
                r.output
            );
        }
    }
    assert_eq!(
        snapshot(&w.outside),
        before,
        "something outside the root changed"
    );
    assert!(!w.outside.join("new").exists());
}

#[tokio::test]
async fn walking_tools_do_not_follow_links_out_of_the_root() {
    let w = world();
    let r = call(&w, "grep", json!({"pattern": "SECRET|fn main"})).await;
    assert!(r.is_ok(), "{r:?}");
    assert!(
        r.output.contains("src/main.rs (line 1): fn main() {}"),
        "{}",
        r.output
    );
    assert!(!r.output.contains(SECRET), "{}", r.output);
    let r = call(&w, "glob", json!({"pattern": "**/*.txt"})).await;
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(r.output, "notes.txt");
    let r = call(&w, "ls", json!({"path": "."})).await;
    assert!(
        r.output.contains("link_out@ (symbolic link)"),
        "{}",
        r.output
    );
}

#[tokio::test]
async fn glob_patterns_pointing_out_are_refused() {
    let w = world();
    for pattern in ["../outside/*", "/etc/*", "src/../../outside/*"] {
        let r = call(&w, "glob", json!({"pattern": pattern})).await;
        assert_refused(&r, pattern);
        assert!(r.output.contains("outside the workspace"), "{}", r.output);
        let r = call(&w, "grep", json!({"pattern": "x", "glob": pattern})).await;
        assert_refused(&r, pattern);
    }
}

#[tokio::test]
async fn links_that_stay_inside_the_root_are_followed() {
    let w = world();
    let r = call(&w, "read", json!({"path": "inner/main.rs"})).await;
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(r.output, "1\tfn main() {}");
    let r = call(
        &w,
        "write",
        json!({"path": "inner/new.rs", "content": "// new\n"}),
    )
    .await;
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(
        std::fs::read_to_string(w.root.join("src/new.rs")).unwrap(),
        "// new\n"
    );
}

#[tokio::test]
async fn the_placeholder_path_a_small_model_wrote_gets_dot_suggested() {
    let w = world();
    let r = call(&w, "ls", json!({"path": "/path/to/folder"})).await;
    assert_eq!(
        r.failure.as_ref().map(|f| f.kind()),
        Some(FailureKind::Denied)
    );
    assert!(r.output.contains(r#"{"path": "."}"#), "{}", r.output);
    assert!(r.ends_turn());
}

#[tokio::test]
async fn a_named_pipe_is_refused_instead_of_blocking_forever() {
    let w = world();
    let fifo = w.root.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("note: mkfifo unavailable; skipping");
        return;
    }
    for (tool, args) in [
        ("read", json!({"path": "pipe"})),
        (
            "edit",
            json!({"path": "pipe", "old_text": "a", "new_text": "b"}),
        ),
    ] {
        let r = call(&w, tool, args).await;
        assert_eq!(
            r.failure.as_ref().map(|f| f.kind()),
            Some(FailureKind::InvalidArgs),
            "{tool}: {r:?}"
        );
        assert!(r.output.contains("regular"), "{}", r.output);
    }
    // grep walks past it.
    let r = call(&w, "grep", json!({"pattern": "x"})).await;
    assert!(r.is_ok(), "{r:?}");
}
