//! The `decode` fuzz target's properties, run as a deterministic proptest so `cargo test` checks
//! them too: arbitrary text (and mutations of valid arguments) against fixed schemas never panics,
//! and every `Ok` value validates against the schema with an independent validator.

use proptest::prelude::*;
use serde_json::{Value, json};
use toolmend::decode::{Decoder, Policy, UnknownKeys};

#[path = "support/decode_schemas.rs"]
mod decode_schemas;

use decode_schemas::schemas;

const SEEDS: &[&str] = &[
    r#"{"location": "Paris", "unit": "Celsius", "days": "3", "tags": "a"}"#,
    r#"{"filter": {"name": "x", "size": "2.5"}, "verbose": "yes", "limit": null}"#,
    r#"{"node": {"v": "1", "next": {"v": 2.0, "next": null}}}"#,
    r#"{"a": "1", "b": [2], "a": 3}"#,
];

fn check(text: &str, which: usize, reject: bool) {
    let schemas = schemas();
    let s = &schemas[which % schemas.len()];
    let dec = Decoder::new(s).unwrap();
    let validator = jsonschema::validator_for(s).unwrap();
    let mut policy = Policy::default();
    if reject {
        policy = policy.with_unknown_keys(UnknownKeys::Reject);
    }
    let by_value = dec.decode_value(text, &policy);
    match &by_value {
        Ok(d) => assert!(validator.is_valid(&d.value), "{text:?} → {}", d.value),
        Err(e) => assert!(!e.corrective_message().is_empty()),
    }
    // The typed fast path agrees with the full path.
    match (&by_value, &dec.decode::<Value>(text, &policy)) {
        (Ok(a), Ok(b)) => assert!(a.value == b.value && a.coercions == b.coercions, "{text:?}"),
        (Err(_), Err(_)) => {}
        _ => panic!("typed and value paths disagree on {text:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}", which in 0usize..4, reject in any::<bool>()) {
        check(&text, which, reject);
    }

    #[test]
    fn mutated_arguments_never_panic(
        seed in 0usize..4,
        cut in 0usize..120,
        insert in "[\\[\\]{}\",:0-9a-z .-]{0,6}",
        which in 0usize..4,
    ) {
        let base = SEEDS[seed];
        let mut at = cut.min(base.len());
        while !base.is_char_boundary(at) {
            at -= 1;
        }
        let text = format!("{}{}{}", &base[..at], insert, &base[at..]);
        check(&text, which, false);
        check(&base[..at], which, true);
    }
}

#[test]
fn deep_nesting_is_a_problem_not_a_crash() {
    let s = json!({"type": "object", "properties": {"node": {"$ref": "#/$defs/N"}},
        "$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}}});
    let dec = Decoder::new(&s).unwrap();
    // A native value nested far deeper than any parse would allow.
    // Built by hand: `json!` would serialise (recursively) every level again.
    let wrap = |key: &str, inner: Value| {
        let mut m = serde_json::Map::new();
        m.insert(key.to_owned(), inner);
        Value::Object(m)
    };
    let mut v = json!({});
    for _ in 0..5000 {
        v = wrap("next", v);
    }
    let v = wrap("node", v);
    let r = dec.decode_value(&v, &Policy::default());
    let e = r.unwrap_err();
    assert!(e.to_string().contains("nested"), "{e}");
    // Text nested past serde_json's limit is malformed or repaired, never a stack overflow.
    let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(dec.decode_value(text.as_str(), &Policy::default()).is_err());
    // Owned: refused and dropped without recursion (serde_json's drop would recurse 5000 levels).
    assert!(dec.decode_value(v, &Policy::default()).is_err());
}

#[test]
fn self_referential_unions_are_refused_at_compile_time() {
    let s = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"allOf": [{"$ref": "#/$defs/A"}]}]}}});
    let e = Decoder::new(&s).unwrap_err();
    assert!(e.to_string().contains("refers to itself"), "{e}");
    let loop_ref = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
        "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}});
    assert!(Decoder::new(&loop_ref).is_err());
    // Recursion through a property is fine (a linked list).
    let list = json!({"$defs": {"N": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/N"}, {"type": "null"}]}}}},
        "type": "object", "properties": {"head": {"$ref": "#/$defs/N"}}});
    let dec = Decoder::new(&list).unwrap();
    let d = dec
        .decode_value(r#"{"head": {"next": {"next": null}}}"#, &Policy::default())
        .unwrap();
    assert!(d.coercions.is_empty());
}
