//! Runs every repair corpus case (`corpus/repair/<category>/<case>.txt`) and checks the exact
//! output text, the set of fix kinds (or the error kind), and the invariants: every `Ok` parses with
//! serde_json and repairing it again changes nothing.
//!
//! A case file is a one-line JSON header, then the input and the expected output:
//!
//! ```text
//! {"note": "why this case exists", "fixes": ["quoted_key"]}      (or "error": "invalid")
//! {"note": "…", "fixes": ["removed_comma"], "at": {"removed_comma": [5]}}   (offsets checked too)
//! --- input
//! {a: 1}
//! --- expected
//! {"a": 1}
//! ```
//!
//! The input is everything between `--- input\n` and `\n--- expected\n`; the expected text runs to
//! the final newline. Choices where the peer suites disagree are explained in `CHOICES.md`.

use std::collections::BTreeSet;

use serde_json::Value;

#[path = "support/repair_cases.rs"]
mod repair_cases;

use repair_cases::{Case, cases};

fn check(case: &Case) -> Result<(), String> {
    let res = toolmend::repair::repair(&case.input);
    match (case.header.get("error").and_then(Value::as_str), res) {
        (Some(kind), Err(e)) => {
            if e.kind() != kind {
                return Err(format!("expected error {kind}, got {e}"));
            }
            if e.at() > case.input.len() {
                return Err(format!("error offset {} beyond input", e.at()));
            }
            Ok(())
        }
        (Some(kind), Ok(r)) => Err(format!("expected error {kind}, got Ok {:?}", r.text)),
        (None, Err(e)) => Err(format!("expected {:?}, got error {e}", case.expected)),
        (None, Ok(r)) => {
            if r.text != case.expected {
                return Err(format!(
                    "expected {:?}\n     got {:?}",
                    case.expected, r.text
                ));
            }
            let want: BTreeSet<String> = case.header["fixes"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            let got: BTreeSet<String> = r
                .fixes
                .iter()
                .map(|f| {
                    serde_json::to_value(f.kind)
                        .expect("FixKind serialises")
                        .as_str()
                        .unwrap_or("")
                        .to_owned()
                })
                .collect();
            if want != got {
                return Err(format!("fix kinds: expected {want:?}, got {got:?}"));
            }
            // Optional `"at": {"kind": [offsets]}`: where those fixes must be reported, exactly.
            if let Some(at) = case.header.get("at").and_then(Value::as_object) {
                for (kind, offsets) in at {
                    let want: Vec<u64> = offsets
                        .as_array()
                        .map(|a| a.iter().filter_map(Value::as_u64).collect())
                        .unwrap_or_default();
                    let got: Vec<u64> = r
                        .fixes
                        .iter()
                        .filter(|f| {
                            serde_json::to_value(f.kind)
                                .ok()
                                .as_ref()
                                .and_then(Value::as_str)
                                == Some(kind)
                        })
                        .map(|f| f.at as u64)
                        .collect();
                    if want != got {
                        return Err(format!("{kind} offsets: expected {want:?}, got {got:?}"));
                    }
                }
            }
            if let Some(f) = r.fixes.iter().find(|f| f.at > case.input.len()) {
                return Err(format!("fix offset beyond input: {f:?}"));
            }
            serde_json::from_str::<serde::de::IgnoredAny>(&r.text)
                .map_err(|e| format!("output is not JSON: {e}"))?;
            if let Err(e) = serde_json::from_str::<Value>(&r.text) {
                // Valid JSON a `Value` cannot hold (a number beyond f64) is returned unchanged.
                if !(e.to_string().contains("number out of range") && r.text == case.input) {
                    return Err(format!("output does not read into a Value: {e}"));
                }
            }
            let again = toolmend::repair::repair(&r.text)
                .map_err(|e| format!("repair of output failed: {e}"))?;
            if again.text != r.text || !again.fixes.is_empty() {
                return Err("repairing the output changed it".into());
            }
            Ok(())
        }
    }
}

#[test]
fn repair_corpus() {
    let cases = cases();
    assert!(cases.len() >= 50, "corpus has only {} cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| check(c).err().map(|e| format!("{}: {e}", c.path.display())))
        .collect();
    println!("{} corpus cases, {} failing", cases.len(), failures.len());
    assert!(
        failures.is_empty(),
        "corpus failures:\n{}",
        failures.join("\n")
    );
}
