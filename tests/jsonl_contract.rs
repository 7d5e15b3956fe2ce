//! The `--jsonl` contract shared by `repair`, `extract` and `decode` (README "CLI quickstart",
//! DESIGN.md): every non-blank input line gets exactly one output line, in order; a malformed line
//! — not UTF-8, not a JSON object, a key the mode does not know — gets the same
//! `{"ok": false, "error": "malformed_line", "message"}` answer in every mode, is named on stderr,
//! and the lines after it are still answered (exit 2). Input comes from FILE or stdin alike.

use std::io::Write;

use serde_json::{Value, json};

#[path = "support/cli.rs"]
mod cli;

/// One good request line per mode.
fn good_line(mode: &str) -> String {
    match mode {
        "decode" => json!({"text": "{\"a\": \"1\"}",
            "schema": {"type": "object", "properties": {"a": {"type": "integer"}}}})
        .to_string(),
        _ => json!({"text": "{\"a\": 1,"}).to_string(),
    }
}

fn lines_of(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn assert_malformed(mode: &str, line: &Value, needle: &str) {
    assert_eq!(line["ok"], false, "{mode}: {line}");
    assert_eq!(line["error"], "malformed_line", "{mode}: {line}");
    let message = line["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(needle),
        "{mode}: {message:?} lacks {needle:?}"
    );
}

#[test]
fn a_line_that_is_not_utf8_is_answered_and_the_next_lines_too() {
    for mode in ["repair", "extract", "decode"] {
        let good = good_line(mode);
        let mut input = Vec::new();
        input.extend_from_slice(good.as_bytes());
        input.extend_from_slice(b"\n{\"text\": \"\xff\"}\n");
        input.extend_from_slice(good.as_bytes());
        input.push(b'\n');
        let (code, out, err) = cli::toolmend_bytes(&[mode, "--jsonl"], &input);
        let lines = lines_of(&out);
        assert_eq!(lines.len(), 3, "{mode}: {out}\n{err}");
        assert_malformed(mode, &lines[1], "UTF-8");
        assert_eq!(lines[2], lines[0], "{mode}: the line after it is answered");
        assert_eq!(code, 2, "{mode}");
        assert!(err.contains("line 2"), "{mode}: {err}");
    }
}

#[test]
fn a_json_array_or_an_unknown_key_is_a_malformed_line() {
    for mode in ["repair", "extract", "decode"] {
        let input = format!(
            "[\"{{a:1\"]\n{}\n{{\"text\": \"{{}}\", \"think_prefiled\": true}}\n",
            good_line(mode)
        );
        let (code, out, _) = cli::toolmend(&[mode, "--jsonl"], &input);
        let lines = lines_of(&out);
        assert_eq!(lines.len(), 3, "{mode}: {out}");
        assert_malformed(mode, &lines[0], "not a JSON object");
        assert_malformed(mode, &lines[2], "think_prefiled");
        assert_ne!(lines[1]["error"], "malformed_line", "{mode}");
        assert_eq!(code, 2, "{mode}");
    }
}

#[test]
fn a_byte_order_mark_and_crlf_line_endings_are_read() {
    for mode in ["repair", "extract", "decode"] {
        let good = good_line(mode);
        let input = format!("\u{feff}{good}\r\n{good}\r\n");
        let (code, out, err) = cli::toolmend(&[mode, "--jsonl"], &input);
        let lines = lines_of(&out);
        assert_eq!(lines.len(), 2, "{mode}: {out}\n{err}");
        assert_eq!(lines[0], lines[1], "{mode}");
        assert_ne!(code, 2, "{mode}: {err}");
    }
}

#[test]
fn jsonl_reads_the_file_argument_and_a_missing_file_is_an_io_error() {
    for mode in ["repair", "extract", "decode"] {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(f, "{}", good_line(mode)).unwrap();
        let path = f.path().to_str().unwrap();
        let (code, out, err) = cli::toolmend(&[mode, "--jsonl", path], "");
        assert_eq!(lines_of(&out).len(), 1, "{mode}: {out}\n{err}");
        assert_ne!(code, 2, "{mode}: {err}");
        let (code, out, _) = cli::toolmend(&[mode, "--jsonl", "/nonexistent/requests.jsonl"], "");
        assert_eq!((code, out.as_str()), (2, ""), "{mode}");
    }
}

#[test]
fn repaired_text_ends_in_one_line_ending() {
    let (code, out, _) = cli::toolmend(&["repair"], "{'city': 'Paris', days: 3,\n");
    assert_eq!(code, 0);
    assert_eq!(out, "{\"city\": \"Paris\", \"days\": 3}\n");
}
