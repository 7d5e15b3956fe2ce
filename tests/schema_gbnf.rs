//! GBNF grammars for llama.cpp: envelope, tool names, argument shapes, and the dropped report.

use serde_json::json;
use toolmend::schema::{Envelope, gbnf, schema_for};

#[allow(dead_code)]
#[derive(schemars::JsonSchema)]
struct ReadArgs {
    path: String,
    #[schemars(range(min = 1, max = 1000))]
    limit: Option<u32>,
}

#[test]
fn grammar_has_envelope_names_and_properties() {
    let read = schema_for::<ReadArgs>();
    let weather = json!({
        "type": "object",
        "properties": {
            "location": {"type": "string", "minLength": 1},
            "unit": {"enum": ["celsius", "fahrenheit"]},
            "days": {"type": "integer", "minimum": 1, "maximum": 14},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3}
        },
        "required": ["location"]
    });
    let g = gbnf(
        &[("read", &read), ("get_weather", &weather)],
        &Envelope::hermes(),
    )
    .unwrap();
    println!("{}", g.text);
    let t = &g.text;
    assert!(t.starts_with("root ::= \"<tool_call>\\n\" call \"\\n</tool_call>\"\n"));
    assert!(t.contains(r#""\"read\"" space "," space "\"arguments\"""#));
    assert!(t.contains(r#""\"get_weather\"""#));
    assert!(t.contains(r#"( "\"celsius\"" | "\"fahrenheit\"" ) space"#));
    assert!(t.contains(r#""\"" char{1,} "\"" space"#));
    // Optional `limit` after required `path`.
    assert!(
        t.contains(r#"(",\" space tool-0-args-limit-kv)?"#) || t.contains("tool-0-args-limit-kv)?")
    );
    // Every referenced rule is defined.
    let defined: Vec<&str> = t.lines().filter_map(|l| l.split(" ::= ").next()).collect();
    for l in t.lines() {
        let body = l.split_once(" ::= ").map_or("", |x| x.1);
        for name in rule_refs(body) {
            assert!(
                defined.contains(&name.as_str()),
                "undefined rule {name} in {l}"
            );
        }
    }
    // Bounds the grammar does not enforce are reported.
    assert!(
        g.dropped
            .iter()
            .any(|d| d.keyword == "maximum" && d.path.starts_with("/get_weather"))
    );
}

#[test]
fn recursive_refs_become_recursive_rules() {
    let s = json!({"$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
                   "type": "object", "properties": {"head": {"$ref": "#/$defs/Node"}}});
    let g = gbnf(&[("walk", &s)], &Envelope::json()).unwrap();
    assert!(g.text.contains("walk-node ::="));
    assert!(g.text.matches("walk-node").count() >= 3, "{}", g.text);
}

#[test]
fn bad_refs_and_empty_tool_lists_are_errors() {
    let s = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}});
    assert!(gbnf(&[("t", &s)], &Envelope::json()).is_err());
    assert!(gbnf(&[], &Envelope::json()).is_err());
}

/// The rule names a GBNF rule body refers to (skipping literals and character classes).
fn rule_refs(body: &str) -> Vec<String> {
    let b = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            q @ (b'"' | b'[') => {
                let close = if q == b'"' { b'"' } else { b']' };
                i += 1;
                while i < b.len() && b[i] != close {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'{' => {
                while i < b.len() && b[i] != b'}' {
                    i += 1;
                }
                i += 1;
            }
            c if c.is_ascii_lowercase() => {
                let start = i;
                while i < b.len()
                    && (b[i].is_ascii_lowercase() || b[i].is_ascii_digit() || b[i] == b'-')
                {
                    i += 1;
                }
                out.push(body[start..i].to_owned());
            }
            _ => i += 1,
        }
    }
    out
}

#[test]
fn a_minimum_the_grammar_does_not_enforce_is_reported() {
    // Regression: `minimum: 0` was taken as enforced for every type, but only an integer's
    // grammar (`natural`) enforces it; a number's was dropped without a word.
    let s = json!({"type": "object", "properties": {
        "count": {"type": "integer", "minimum": 0},
        "ratio": {"type": "number", "minimum": 0},
        "step": {"type": "integer", "minimum": 2}
    }});
    let g = gbnf(&[("t", &s)], &Envelope::json()).unwrap();
    let dropped: Vec<&str> = g
        .dropped
        .iter()
        .filter(|d| d.keyword == "minimum")
        .map(|d| d.path.as_str())
        .collect();
    assert_eq!(
        dropped,
        ["/t/properties/ratio", "/t/properties/step"],
        "{:?}",
        g.dropped
    );
    assert!(g.text.contains("natural"), "{}", g.text);
}
