//! `toolmend repair` as a contract: the `--jsonl` wire format of DESIGN.md is read back with
//! test-local serde types, and the exit codes (0 usable, 1 nothing usable, 2 usage / I/O) checked.

use serde::Deserialize;

#[path = "support/cli.rs"]
mod cli;

use cli::toolmend;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FixLine {
    kind: String,
    at: usize,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ResultLine {
    Ok {
        ok: bool,
        output: String,
        fixes: Vec<FixLine>,
    },
    Err {
        ok: bool,
        error: String,
        message: String,
    },
}

#[test]
fn jsonl_one_line_per_input() {
    let input = concat!(
        r#"{"text": "{a: 1,"}"#,
        "\n",
        r#"{"text": "I cannot help with that."}"#,
        "\n",
        r#"{"text": "[1, 2]"}"#,
        "\n"
    );
    let (code, stdout, _) = toolmend(&["repair", "--jsonl"], input);
    assert_eq!(code, 1, "one line had nothing usable");
    let lines: Vec<ResultLine> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(lines.len(), 3);
    match &lines[0] {
        ResultLine::Ok { ok, output, fixes } => {
            assert!(*ok);
            assert_eq!(output, r#"{"a": 1}"#);
            assert!(fixes.iter().any(|f| f.kind == "quoted_key" && f.at == 1));
        }
        other => panic!("{other:?}"),
    }
    match &lines[1] {
        ResultLine::Err { ok, error, message } => {
            assert!(!*ok);
            assert_eq!(error, "invalid");
            assert!(message.contains("line 1, column 1"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&lines[2], ResultLine::Ok { fixes, .. } if fixes.is_empty()));
}

#[test]
fn plain_mode_data_on_stdout_fixes_on_stderr() {
    let (code, stdout, stderr) = toolmend(&["repair"], "{'a': True,");
    assert_eq!(code, 0);
    assert_eq!(stdout.trim_end(), r#"{"a": true}"#);
    assert!(stderr.contains("converted_literal"), "{stderr}");
    let (code, stdout, stderr) = toolmend(&["repair"], "");
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(stderr.contains("error:"), "{stderr}");
}

#[test]
fn json_mode_and_usage_errors() {
    let (code, stdout, _) = toolmend(&["repair", "--json"], "[1, 2,");
    assert_eq!(code, 0);
    let line: ResultLine = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert!(matches!(line, ResultLine::Ok { output, .. } if output == "[1, 2]"));
    let (code, _, _) = toolmend(&["repair", "--jsonl"], "not json\n");
    assert_eq!(code, 2, "a malformed --jsonl line is a usage error");
    let (code, _, _) = toolmend(&["repair", "/nonexistent/file.json"], "");
    assert_eq!(code, 2, "an unreadable file is an I/O error");
}

#[test]
fn jsonl_a_malformed_line_is_answered_and_the_lines_after_it_still_run() {
    let input = concat!(
        r#"{"text": "[1,"}"#,
        "\n",
        "not json\n",
        r#"{"text": "{a: 1}"}"#,
        "\n",
        r#"{"txt": "x"}"#,
        "\n"
    );
    let (code, stdout, stderr) = toolmend(&["repair", "--jsonl"], input);
    assert_eq!(code, 2, "a malformed line is a usage error");
    let lines: Vec<ResultLine> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(matches!(&lines[0], ResultLine::Ok { ok: true, .. }));
    for bad in [&lines[1], &lines[3]] {
        assert!(
            matches!(bad, ResultLine::Err { ok: false, error, .. } if error == "malformed_line"),
            "{bad:?}"
        );
    }
    assert!(matches!(&lines[2], ResultLine::Ok { output, .. } if output == r#"{"a": 1}"#));
    assert!(
        stderr.contains("line 2") && stderr.contains("line 4"),
        "{stderr}"
    );
}
