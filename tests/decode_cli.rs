//! `toolmend decode` as a contract: exit codes, stdout vs stderr, and the `--json`/`--jsonl` wire
//! format read back with test-local types (not the code that writes it).

use std::io::Write;

use serde::Deserialize;
use serde_json::{Value, json};

#[path = "support/cli.rs"]
mod cli;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CoercionOut {
    path: String,
    kind: String,
    cost: u32,
    #[allow(dead_code)]
    original: Value,
}

#[derive(Debug, Deserialize)]
struct ErrorOut {
    path: String,
    expected: String,
    received: String,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Line {
    Ok {
        ok: bool,
        value: Value,
        fixes: Vec<Value>,
        coercions: Vec<CoercionOut>,
    },
    Err {
        ok: bool,
        message: String,
        errors: Vec<ErrorOut>,
    },
}

fn schema() -> Value {
    json!({"type": "object", "properties": {
        "location": {"type": "string"},
        "unit": {"enum": ["celsius", "fahrenheit"]},
        "days": {"type": "integer", "minimum": 1, "maximum": 14}},
        "required": ["location", "unit"]})
}

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let argv: Vec<&str> = std::iter::once("decode")
        .chain(args.iter().copied())
        .collect();
    cli::toolmend(&argv, stdin)
}

fn schema_file() -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    write!(f, "{}", schema()).unwrap();
    f
}

#[test]
fn plain_mode_prints_the_value_and_receipts_on_stderr() {
    let f = schema_file();
    let p = f.path().to_str().unwrap();
    let (code, out, err) = run(
        &["--schema", p],
        r#"{"Location": "Paris", "unit": "Celsius"}"#,
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v, json!({"location": "Paris", "unit": "celsius"}));
    assert!(
        err.contains("key_case") && err.contains("enum_case"),
        "{err}"
    );
}

#[test]
fn plain_mode_rejects_with_the_corrective_message_and_exit_1() {
    let f = schema_file();
    let p = f.path().to_str().unwrap();
    let (code, out, _) = run(&["--schema", p], r#"{"loc": "Paris", "unit": "kelvin"}"#);
    assert_eq!(code, 1);
    assert!(out.contains("Fix: rename \"loc\" to \"location\""), "{out}");
    assert!(out.lines().count() <= 6, "{out}");
}

#[test]
fn json_mode_is_one_object() {
    let f = schema_file();
    let p = f.path().to_str().unwrap();
    let (code, out, _) = run(
        &["--schema", p, "--json"],
        r#"{"location": "Oslo", "unit": "f", "days": "2"}"#,
    );
    assert_eq!(code, 0);
    match serde_json::from_str::<Line>(out.trim()).unwrap() {
        Line::Ok {
            ok,
            value,
            coercions,
            fixes,
        } => {
            assert!(ok && fixes.is_empty());
            assert_eq!(value["unit"], "fahrenheit");
            let kinds: Vec<(&str, &str, u32)> = coercions
                .iter()
                .map(|c| (c.path.as_str(), c.kind.as_str(), c.cost))
                .collect();
            assert_eq!(
                kinds,
                vec![
                    ("/unit", "enum_prefix", 3),
                    ("/days", "string_to_integer", 1)
                ]
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn jsonl_mode_answers_every_line() {
    let s = schema();
    let input = [
        json!({"text": "{\"location\": \"Rome\", \"unit\": \"celsius\"}", "schema": s}).to_string(),
        json!({"text": {"location": 7, "unit": "Celsius"}, "schema": s}).to_string(),
        json!({"text": "{\"unit\": \"kelvin\"}", "schema": s}).to_string(),
        "not json".to_owned(),
        String::new(),
    ]
    .join("\n");
    let (code, out, err) = run(&["--jsonl"], &input);
    assert_eq!(code, 2, "a malformed line is a usage error");
    assert!(err.contains("line 4"), "{err}");
    let lines: Vec<Line> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(matches!(&lines[0], Line::Ok { ok: true, coercions, .. } if coercions.is_empty()));
    assert!(matches!(&lines[1], Line::Ok { ok: true, value, .. } if value["location"] == "7"));
    match &lines[2] {
        Line::Err {
            ok,
            message,
            errors,
        } => {
            assert!(!ok);
            let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
            assert_eq!(paths, vec!["/location", "/unit"]);
            assert!(
                errors
                    .iter()
                    .all(|e| !e.expected.is_empty() && !e.received.is_empty())
            );
            // The missing location cannot be derived, so no corrected call is offered.
            assert!(message.contains("Keep every other field as you sent it."));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&lines[3], Line::Err { ok: false, errors, .. } if errors.is_empty()));
}

#[test]
fn jsonl_exit_status_is_that_of_repair_jsonl() {
    let s = schema();
    let good =
        json!({"text": "{\"location\": \"Rome\", \"unit\": \"celsius\"}", "schema": s}).to_string();
    let rejected = json!({"text": "{\"unit\": \"kelvin\"}", "schema": s}).to_string();
    let (code, out, _) = run(&["--jsonl"], &format!("{good}\n{good}\n"));
    assert_eq!((code, out.lines().count()), (0, 2), "every line decoded");
    let (code, out, _) = run(&["--jsonl"], &format!("{good}\n{rejected}\n"));
    assert_eq!((code, out.lines().count()), (1, 2), "some line rejected");
    let (code, out, _) = run(&["--jsonl"], &format!("{{\"text\": \"{{}}\"}}\n{good}\n"));
    assert_eq!(
        (code, out.lines().count()),
        (2, 2),
        "a line with no schema (and no --schema) is malformed; the next is still answered"
    );
}

#[test]
fn missing_schema_is_a_usage_error() {
    let (code, _, err) = run(&[], "{}");
    assert_eq!(code, 2);
    assert!(err.contains("--schema"), "{err}");
}

/// The README's decode commands, on the example files shipped in `examples/decode/`.
#[test]
fn readme_examples_run_on_the_shipped_files() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/decode");
    let schema = format!("{dir}/weather.json");
    let (code, out, err) = run(
        &["--schema", &schema],
        r#"{"Location": "Paris", "days": "3"}"#,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        json!({"location": "Paris", "days": 3})
    );
    let (code, out, err) = run(
        &["--schema", &schema, "--json", &format!("{dir}/args.txt")],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap()["value"],
        json!({"location": "Paris", "days": 3})
    );
    let requests = std::fs::read_to_string(format!("{dir}/requests.jsonl")).unwrap();
    let (code, out, _) = run(&["--jsonl"], &requests);
    let oks: Vec<bool> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["ok"] == true)
        .collect();
    assert_eq!((code, oks), (1, vec![true, false, true]));
}

#[test]
fn jsonl_malformed_arguments_have_a_short_entry_with_a_fix() {
    // Regression: the entry had no "fix" and its "received" repeated the whole message.
    let line = json!({"text": "get the weather in Paris", "schema": schema()}).to_string();
    let (code, out, _) = run(&["--jsonl"], &line);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let e = &v["errors"][0];
    assert!(
        e["fix"]
            .as_str()
            .is_some_and(|f| f.contains("one JSON object")),
        "{v}"
    );
    let received = e["received"].as_str().unwrap();
    assert!(!received.contains("Send the arguments"), "{received}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("Send the arguments"),
        "{v}"
    );
}
