//! `toolmend call` and `toolmend tools` as a script sees them: stdout, stderr and exit codes.

use std::process::{Command, Output};

use serde_json::Value;

fn toolmend(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolmend"))
        .args(args)
        .output()
        .expect("the toolmend binary runs")
}

fn root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").unwrap();
    dir
}

#[test]
fn call_prints_the_output_and_exits_0() {
    let dir = root();
    let r = dir.path().to_str().unwrap();
    let out = toolmend(&[
        "call",
        "read",
        "--args",
        r#"{"path": "a.txt"}"#,
        "--root",
        r,
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\tone\n2\ttwo\n");
}

#[test]
fn call_json_reports_the_effects_of_a_write() {
    let dir = root();
    let r = dir.path().to_str().unwrap();
    let out = toolmend(&[
        "call",
        "write",
        "--args",
        r#"{"path": "b.txt", "content": "x"}"#,
        "--root",
        r,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["failure"], Value::Null);
    assert_eq!(v["effects"][0]["type"], "file_written");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("b.txt")).unwrap(),
        "x"
    );
}

#[test]
fn call_failure_exits_1_with_kind_and_message_in_json() {
    let dir = root();
    let r = dir.path().to_str().unwrap();
    let out = toolmend(&[
        "call",
        "ls",
        "--args",
        r#"{"path": "/path/to/folder"}"#,
        "--root",
        r,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["failure"]["kind"], "denied");
    assert_eq!(v["failure"]["fault"], "policy");
    assert!(
        v["failure"]["message"]
            .as_str()
            .unwrap()
            .contains(r#"{"path": "."}"#)
    );
    let out = toolmend(&["call", "receive", "--root", r]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown_tool"), "{err}");
    assert!(err.contains("edit, glob, grep, ls, read, write"), "{err}");
}

#[test]
fn call_with_a_missing_root_is_a_usage_error() {
    let dir = root();
    let missing = dir.path().join("nope");
    let out = toolmend(&["call", "ls", "--root", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pass an existing directory"));
}

#[test]
fn tools_lists_every_builtin_with_its_schema() {
    let out = toolmend(&["tools"]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["edit", "glob", "grep", "ls", "read", "write"]);
    for t in v.as_array().unwrap() {
        assert_eq!(t["parameters"]["type"], "object");
    }
}

#[test]
fn tools_in_each_dialect_have_the_providers_shape_and_report_drops_on_stderr() {
    let out = toolmend(&["tools", "--dialect", "anthropic"]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["name"], "edit");
    assert_eq!(v[0]["input_schema"]["type"], "object");

    let out = toolmend(&["tools", "--dialect", "openai-strict"]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    for t in v.as_array().unwrap() {
        assert_eq!(t["type"], "function");
        assert_eq!(t["function"]["strict"], true);
        assert_eq!(t["function"]["parameters"]["additionalProperties"], false);
    }
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ls: required at `/properties/path`"), "{err}");

    let out = toolmend(&["tools", "--dialect", "gemini", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let first = String::from_utf8_lossy(&out.stderr)
        .lines()
        .next()
        .map(str::to_owned)
        .unwrap();
    let line: Value = serde_json::from_str(&first).unwrap();
    assert!(
        line["tool"].is_string() && line["dropped"]["keyword"].is_string(),
        "{line}"
    );

    for d in ["openai", "ollama"] {
        let out = toolmend(&["tools", "--dialect", d]);
        assert_eq!(out.status.code(), Some(0), "{d}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 6, "{d}");
    }
    let out = toolmend(&["tools", "--dialect", "klingon"]);
    assert_eq!(out.status.code(), Some(2));
}
