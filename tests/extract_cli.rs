//! `toolmend extract` as a machine interface: `--jsonl` answers each line with exactly the fields
//! DESIGN.md names, a bad line gets `{"error": "malformed_line"}` and exit 2; a document with a call exits 0 and
//! one without exits 1.

use serde_json::Value;

#[path = "support/cli.rs"]
mod cli;

fn run(args: &[&str], stdin: &str) -> (i32, String) {
    let argv: Vec<&str> = std::iter::once("extract")
        .chain(args.iter().copied())
        .collect();
    let (code, out, _) = cli::toolmend(&argv, stdin);
    (code, out)
}

#[test]
fn jsonl_answers_each_line() {
    let input = [
        r#"{"text": "Hi <tool_call>{\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}</tool_call>"}"#,
        r#"{"text": "<tool_call>\n<function=read>\n<parameter=n>\n3\n</parameter>\n</function>\n</tool_call>", "format": "qwen3-coder-xml", "tools": [{"name": "read", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}]}"#,
        r#"{"text": "<tool_call>{\"name\": \"lss\", \"arguments\": {}}</tool_call>", "tools": [{"name": "ls", "parameters": {}}]}"#,
        r#"{"text": "{\"name\": \"Alice\", \"arguments\": [\"x\"]}", "tools": [{"name": "ls", "parameters": {}}]}"#,
    ]
    .join("\n");
    let (code, out) = run(&["--jsonl"], &input);
    assert_eq!(code, 0);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 4);
    for l in &lines {
        for k in ["calls", "content", "reasoning", "rejected"] {
            assert!(l.get(k).is_some(), "missing {k} in {l}");
        }
    }
    let c = &lines[0]["calls"][0];
    assert_eq!(
        (c["name"].as_str(), &c["arguments"]["path"]),
        (Some("ls"), &Value::from("."))
    );
    assert_eq!(c["format"], "hermes");
    assert!(c["fixes"].is_array());
    assert_eq!(lines[0]["content"], "Hi");
    assert_eq!(
        lines[1]["calls"][0]["arguments"]["n"], 3,
        "typed from the schema"
    );
    assert_eq!(lines[1]["calls"][0]["format"], "qwen3-coder-xml");
    assert_eq!(lines[2]["calls"].as_array().map(Vec::len), Some(0));
    assert_eq!(lines[2]["rejected"][0]["name"], "lss");
    assert!(
        lines[2]["rejected"][0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("`ls`")),
        "did-you-mean"
    );
    // Whether a refused call's text is also in `content` (a bare object naming no tool may be
    // data): a client must know not to show it twice.
    assert_eq!(lines[2]["rejected"][0]["shown"], false);
    assert_eq!(lines[3]["rejected"][0]["shown"], true, "{}", lines[3]);
}

#[test]
fn jsonl_bad_line_is_reported_and_exits_2() {
    let (code, out) = run(
        &["--jsonl"],
        "not json\n{\"text\": \"plain\", \"format\": \"no-such-family\"}\n{\"text\": \"plain\"}\n",
    );
    assert_eq!(code, 2);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0]["error"].is_string() && lines[1]["error"].is_string());
    assert_eq!(lines[2]["content"], "plain");
}

#[test]
fn document_exit_codes() {
    let (code, out) = run(&["--json"], "[TOOL_CALLS]f[ARGS]{\"a\": 1}");
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["calls"][0]["name"], "f");
    let (code, out) = run(&[], "just prose");
    assert_eq!((code, out.as_str()), (1, ""));
}
