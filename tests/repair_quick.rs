//! The quick pass answers exactly what the full cascade answers: for every input it settles, the
//! text and the fixes (kinds, offsets, order) equal those of `repair_full_cascade`.
//!
//! Inputs: every repair corpus case, every case of the peer suites (when `../shared` exists), the
//! bench's `typical` generator under five seeds (and laid out on lines), the arguments real models
//! wrote (`corpus/wild/bfcl`), and every prefix of all of those (truncation at
//! each char boundary, for inputs up to 2 kB: where the quick pass does the most work). The typical inputs must also
//! mostly stay on the quick pass, or the bench's speed would quietly fall back to the cascade's.

use std::path::Path;

use toolmend::repair::{repair, repair_full_cascade, repair_quick_only};

#[path = "../benches/support/typical.rs"]
mod typical;

#[path = "support/repair_cases.rs"]
mod repair_cases;

#[path = "../benches/support/wild.rs"]
mod wild;

/// Checks one input; returns whether the quick pass settled it.
fn check(input: &str) -> bool {
    let Some(quick) = repair_quick_only(input) else {
        return false;
    };
    let full = repair_full_cascade(input);
    assert_eq!(
        Ok(&quick),
        full.as_ref(),
        "quick pass and full cascade differ on {input:?}"
    );
    assert_eq!(repair(input).as_ref(), Ok(&quick), "repair() on {input:?}");
    true
}

/// Checks `input` and every prefix of it; returns (settled, checked).
fn check_with_prefixes(input: &str) -> (usize, usize) {
    let mut settled = 0;
    let mut checked = 0;
    for (k, _) in input.char_indices().chain([(input.len(), ' ')]) {
        checked += 1;
        settled += usize::from(check(&input[..k]));
    }
    (settled, checked)
}

/// Checks every input and every prefix of each; returns (settled, checked) over all of them.
fn check_all_with_prefixes<S: AsRef<str>>(inputs: impl IntoIterator<Item = S>) -> (usize, usize) {
    inputs
        .into_iter()
        .map(|input| check_with_prefixes(input.as_ref()))
        .fold((0, 0), |(s, c), (s2, c2)| (s + s2, c + c2))
}

fn corpus_inputs() -> Vec<String> {
    repair_cases::cases().into_iter().map(|c| c.input).collect()
}

fn peer_inputs() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peer-suites/repair");
    let mut out = Vec::new();
    for name in ["jsonrepair.jsonl", "json_repair_py.jsonl"] {
        let Ok(text) = std::fs::read_to_string(dir.join(name)) else {
            continue;
        };
        for line in text.lines() {
            let case: serde_json::Value = serde_json::from_str(line).expect("peer case is JSON");
            if let Some(input) = case["input"].as_str() {
                out.push(input.to_owned());
            }
        }
    }
    out
}

#[test]
fn corpus_cases_and_their_prefixes() {
    let (settled, checked) = check_all_with_prefixes(corpus_inputs());
    assert!(checked > 1000, "only {checked} corpus inputs and prefixes");
    println!("corpus and prefixes: quick pass settled {settled} of {checked}");
}

#[test]
fn peer_cases_and_their_prefixes() {
    let inputs = peer_inputs();
    if inputs.is_empty() {
        println!("../shared/peer-suites/repair not found: skipped");
        return;
    }
    let (mut settled, mut checked) = (0, 0);
    for input in inputs {
        // Every prefix of the few long documents would be quadratic work for nothing new.
        let (s, c) = if input.len() <= 2048 {
            check_with_prefixes(&input)
        } else {
            (usize::from(check(&input)), 1)
        };
        settled += s;
        checked += c;
    }
    println!("peer cases and prefixes: quick pass settled {settled} of {checked}");
}

#[test]
fn typical_inputs_stay_on_the_quick_pass() {
    for seed in [0x5eed_0002, 1, 2, 3, 4] {
        let inputs = typical::typical_inputs(seed);
        let settled = inputs.iter().filter(|s| check(s)).count();
        println!("typical seed {seed:#x}: quick pass settled {settled} of 10000");
        assert!(
            settled >= 9_500,
            "seed {seed:#x}: the quick pass settled only {settled} of 10000 typical inputs"
        );
    }
}

#[test]
fn typical_inputs_prefixes() {
    let inputs = typical::typical_inputs(7);
    let (settled, checked) = check_all_with_prefixes(inputs.iter().take(2_000));
    println!("typical prefixes: quick pass settled {settled} of {checked}");
}

#[test]
fn recorded_model_arguments_and_their_prefixes() {
    let inputs = wild::recorded_arguments();
    assert!(inputs.len() > 600, "only {} recorded calls", inputs.len());
    let (settled, checked) = check_all_with_prefixes(&inputs);
    println!("recorded arguments and prefixes: quick pass settled {settled} of {checked}");
}

#[test]
fn typical_inputs_laid_out_on_lines() {
    // The typical inputs as a model that pretty-prints writes them: line breaks and indentation
    // around every separator and closer (also inside strings, and in broken input).
    let layouts: [&dyn Fn(&str) -> String; 3] = [
        &|s| {
            s.replace(", ", ",\n    ")
                .replace('{', "{\n  ")
                .replace('}', "\n}")
        },
        &|s| {
            s.replace(',', " ,\r\n\t")
                .replace(']', "\n  ]")
                .replace('}', " }")
        },
        &|s| {
            s.replace(": ", ":\n ")
                .replace('[', "[\n")
                .replace(']', "\n]\n")
        },
    ];
    let inputs = typical::typical_inputs(11);
    let (settled, checked) = check_all_with_prefixes(
        inputs
            .iter()
            .take(1_000)
            .flat_map(|input| layouts.map(|layout| layout(input))),
    );
    println!("typical inputs on lines, and prefixes: quick pass settled {settled} of {checked}");
}

#[test]
fn valid_json_is_borrowed_without_fixes() {
    for input in [
        r#"{"a": [1, 2.5e-3, -0, true, false, null], "b": {"c": "d\u00e9\n"}}"#,
        "[]",
        " {\n} ",
        r#"[{"k": "v"}, [[]], "x"]"#,
    ] {
        let r = repair_quick_only(input).expect("the quick pass settles small valid JSON");
        assert!(matches!(r.text, std::borrow::Cow::Borrowed(_)) && r.fixes.is_empty());
        assert_eq!(r.text, input);
    }
}
