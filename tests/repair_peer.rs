//! Peer-suite ratchet: runs the test cases of the two best-known JSON repair libraries
//! (`../shared/peer-suites/repair/{jsonrepair,json_repair_py}.jsonl`) through `repair`, prints the
//! pass rate per suite and per category, and fails when a suite's pass count drops below the
//! committed baseline in `tests/repair_peer_baseline.json` (raise it as repairs improve).
//!
//! Cases where the two suites contradict each other, or where toolmend deliberately chooses what a
//! tool-calling user needs, are listed with the reason in `corpus/repair/conflicts.txt`; they are
//! reported separately and do not count against the rate. Skips cleanly when the folder is absent.
//! `TOOLMEND_PEER_VERBOSE=1` prints every failing case.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

const DIR: &str = "../shared/peer-suites/repair";
const SUITES: [(&str, &str); 2] = [
    ("jsonrepair", "jsonrepair.jsonl"),
    ("json_repair_py", "json_repair_py.jsonl"),
];

fn conflicts() -> BTreeSet<String> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/repair/conflicts.txt"
    ))
    .expect("corpus/repair/conflicts.txt is committed");
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Whether a case counts as "core": no json_repair-only options (or only `skip_json_loads` on
/// input that is not already valid JSON).
fn is_core(case: &Value) -> bool {
    match case.get("options").and_then(Value::as_object) {
        None => true,
        Some(o) if o.is_empty() => true,
        Some(o) => {
            o.keys().all(|k| k == "skip_json_loads")
                && serde_json::from_str::<Value>(case["input"].as_str().unwrap_or("")).is_err()
        }
    }
}

fn passes(case: &Value) -> (bool, String) {
    let input = case["input"].as_str().unwrap_or("");
    let result = toolmend::repair::repair(input);
    let throws = case.get("throws").and_then(Value::as_bool).unwrap_or(false)
        || case.get("expected_kind").and_then(Value::as_str) == Some("error");
    let shown = match &result {
        Ok(r) => r.text.to_string(),
        Err(e) => format!("ERROR {e}"),
    };
    if throws {
        return (result.is_err(), shown);
    }
    let expected = case["expected"].as_str().unwrap_or("");
    match serde_json::from_str::<Value>(expected) {
        Ok(want) => {
            let ok = result
                .as_ref()
                .ok()
                .and_then(|r| serde_json::from_str::<Value>(&r.text).ok())
                .is_some_and(|got| got == want);
            (ok, shown)
        }
        Err(_) => {
            // json_repair's "" means "no JSON found": an error is the equivalent.
            let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            let ok = match &result {
                Err(_) => norm(expected).is_empty(),
                Ok(r) => norm(&r.text) == norm(expected),
            };
            (ok, shown)
        }
    }
}

#[test]
fn peer_suites_ratchet() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
    if !dir.is_dir() {
        eprintln!("SKIP: {} not found; peer suites not run", dir.display());
        return;
    }
    let verbose = std::env::var_os("TOOLMEND_PEER_VERBOSE").is_some();
    let conflicts = conflicts();
    let baseline: BTreeMap<String, u64> = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/repair_peer_baseline.json"
        ))
        .expect("tests/repair_peer_baseline.json is committed"),
    )
    .expect("baseline is a JSON object of suite -> minimum passing core cases");
    let mut regressions = Vec::new();
    for (suite, file) in SUITES {
        let text = std::fs::read_to_string(dir.join(file)).expect("readable suite");
        let mut per_cat: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        let (mut pass, mut total, mut conf_pass, mut conf_total) = (0u64, 0u64, 0u64, 0u64);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: Value = serde_json::from_str(line).expect("suite line is JSON");
            if !is_core(&case) {
                continue;
            }
            let id = case["id"].as_str().unwrap_or("?").to_owned();
            let (ok, shown) = passes(&case);
            if conflicts.contains(&id) {
                conf_total += 1;
                conf_pass += u64::from(ok);
                continue;
            }
            let cat = case["category"].as_str().unwrap_or("?").to_owned();
            let e = per_cat.entry(cat).or_default();
            e.1 += 1;
            total += 1;
            if ok {
                e.0 += 1;
                pass += 1;
            } else if verbose {
                eprintln!(
                    "FAIL {id} [{}]\n  input:    {:?}\n  expected: {:?}\n  got:      {:?}",
                    case["category"].as_str().unwrap_or("?"),
                    case["input"].as_str().unwrap_or(""),
                    case["expected"].as_str().unwrap_or(""),
                    shown
                );
            }
        }
        #[allow(clippy::cast_precision_loss)]
        let pct = |a: u64, b: u64| {
            if b == 0 {
                100.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        println!(
            "{suite}: {pass}/{total} core cases pass ({:.1}%); {conf_pass}/{conf_total} documented conflicts pass; all core: {}/{} ({:.1}%)",
            pct(pass, total),
            pass + conf_pass,
            total + conf_total,
            pct(pass + conf_pass, total + conf_total)
        );
        for (cat, (p, t)) in &per_cat {
            println!("  {cat:<20} {p:>3}/{t:<3} ({:.0}%)", pct(*p, *t));
        }
        let min = baseline.get(suite).copied().unwrap_or(0);
        if pass < min {
            regressions.push(format!(
                "{suite}: {pass} core cases pass, baseline is {min}"
            ));
        } else if pass > min {
            println!(
                "  {suite} improved: {pass} > baseline {min}; raise tests/repair_peer_baseline.json"
            );
        }
    }
    assert!(
        regressions.is_empty(),
        "peer-suite regression: {regressions:?}"
    );
}

/// The acceptance runs the suites through `toolmend repair --jsonl`: every case's input, one
/// request line each, gives exactly the library's answer (the same text, or an error of the same
/// kind), so the rates above are the CLI's too.
#[test]
fn peer_suites_through_the_cli_give_the_library_answers() {
    use std::io::Write;
    use std::process::{Command, Stdio};

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
    if !dir.is_dir() {
        eprintln!("SKIP: {} not found; peer suites not run", dir.display());
        return;
    }
    let mut inputs = Vec::new();
    for (_, file) in SUITES {
        let text = std::fs::read_to_string(dir.join(file)).expect("readable suite");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: Value = serde_json::from_str(line).expect("suite line is JSON");
            inputs.push(case["input"].as_str().unwrap_or("").to_owned());
        }
    }
    let request: String = inputs
        .iter()
        .map(|t| format!("{}\n", serde_json::json!({"text": t})))
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolmend"))
        .args(["repair", "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("toolmend runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(request.as_bytes()));
    let out = child.wait_with_output().expect("toolmend exits");
    writer.join().expect("writer").expect("input written");
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON answer line"))
        .collect();
    assert_eq!(lines.len(), inputs.len(), "one answer line per case");
    for (input, line) in inputs.iter().zip(&lines) {
        match toolmend::repair::repair(input) {
            Ok(r) => assert_eq!(line["output"], *r.text, "{input:?}"),
            Err(e) => assert_eq!(line["error"], e.kind(), "{input:?}"),
        }
    }
}
