//! GBNF grammars for llama.cpp: envelope, tool names, argument shapes, and the dropped report.
//! Grammars are parsed and run by the test recognizer in `support/gbnf.rs`, so each test says
//! which concrete call texts the grammar accepts and which it rejects.

use serde_json::{Value, json};
use toolmend::schema::{Envelope, gbnf, schema_for};

#[path = "support/gbnf.rs"]
mod recognizer;

use recognizer::json_call;

/// The grammar for one tool `t` with `schema` in the bare JSON envelope, parsed by the recognizer.
fn grammar(schema: &Value) -> (recognizer::Grammar, toolmend::schema::Grammar) {
    let g = gbnf(&[("t", schema)], &Envelope::json()).unwrap();
    let r = recognizer::Grammar::parse(&g.text).unwrap_or_else(|e| panic!("{e}\n{}", g.text));
    (r, g)
}

/// Asserts the grammar for `schema` accepts each of `valid` (which the schema accepts too) and
/// rejects each of `invalid` (which the schema rejects too); returns the grammar.
fn check(schema: &Value, valid: &[Value], invalid: &[Value]) -> toolmend::schema::Grammar {
    let (r, g) = grammar(schema);
    let v = jsonschema::validator_for(schema).unwrap();
    for a in valid {
        assert!(v.is_valid(a), "test case {a} is not valid for {schema}");
        assert!(
            r.accepts(&json_call("t", a)),
            "grammar rejects valid {a}\n{}",
            g.text
        );
    }
    for a in invalid {
        assert!(!v.is_valid(a), "test case {a} is valid for {schema}");
        assert!(
            !r.accepts(&json_call("t", a)),
            "grammar accepts invalid {a}\n{}",
            g.text
        );
    }
    g
}

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
    // The recognizer reads the grammar as llama.cpp would, and real calls go through it.
    let r = recognizer::Grammar::parse(t).unwrap();
    for ok in [
        "<tool_call>\n{\"name\": \"read\", \"arguments\": {\"path\": \"a.txt\", \"limit\": 5}}\n</tool_call>",
        "<tool_call>\n{\"name\":\"read\",\"arguments\":{\"path\":\"a.txt\"}}\n</tool_call>",
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Paris\", \"unit\": \"celsius\", \"tags\": [\"a\", \"b\"]}}\n</tool_call>",
    ] {
        assert!(r.accepts(ok), "{ok}");
    }
    for bad in [
        "<tool_call>\n{\"name\": \"read\", \"arguments\": {}}\n</tool_call>",
        "<tool_call>\n{\"name\": \"write\", \"arguments\": {\"path\": \"a\"}}\n</tool_call>",
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"location\": \"\"}}\n</tool_call>",
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"location\": \"P\", \"unit\": \"kelvin\"}}\n</tool_call>",
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"location\": \"P\", \"tags\": [\"a\", \"b\", \"c\", \"d\"]}}\n</tool_call>",
    ] {
        assert!(!r.accepts(bad), "{bad}");
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
    let r = recognizer::Grammar::parse(&g.text).unwrap();
    let args = json!({"head": {"next": {"next": {}}}});
    assert!(r.accepts(&json_call("walk", &args)));
    assert!(!r.accepts(&json_call("walk", &json!({"head": {"next": 1}}))));
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
    let (r, _) = grammar(&s);
    assert!(r.accepts(&json_call(
        "t",
        &json!({"count": 0, "ratio": -0.5, "step": 1})
    )));
    assert!(!r.accepts(&json_call("t", &json!({"count": -1}))));
}

#[test]
fn the_recognizer_reads_gbnf_like_llama_cpp() {
    let g = recognizer::Grammar::parse(
        "root ::= \"a\" x{2,3} [^\\x00-\\x1F\"] ( \"(\" | [0-9]+ )? y*\nx ::= [b-c] # comment\ny ::= \"\\\"\" | \"\\\\\"\n",
    )
    .unwrap();
    for ok in ["abbz", "abcbz(", "abbz12\"\\"] {
        assert!(g.accepts(ok), "{ok}");
    }
    for bad in ["abz", "abbbbz", "abb\u{1}", "abbz(1"] {
        assert!(!g.accepts(bad), "{bad}");
    }
    assert!(recognizer::Grammar::parse("root ::= x\nx ::= \"a\"\nx ::= \"b\"\n").is_err());
    assert!(recognizer::Grammar::parse("root ::= x\n").is_err());
    assert!(recognizer::Grammar::parse("root ::= x\nx ::= \n").is_err());
}

#[test]
fn rule_names_are_unique_even_when_refs_collide() {
    // Regression: `#/$defs/Foo`, `#/definitions/Foo` and `#/$defs/foo_2` all became `t-foo-2`
    // (the second with an empty body); llama.cpp refused the grammar.
    let s = json!({"$defs": {"Foo": {"type": "string"}, "foo_2": {"type": "integer"}},
                   "definitions": {"Foo": {"type": "boolean"}},
                   "type": "object",
                   "properties": {"a": {"$ref": "#/$defs/Foo"}, "b": {"$ref": "#/definitions/Foo"},
                                  "c": {"$ref": "#/$defs/foo_2"}},
                   "required": ["a", "b", "c"]});
    check(
        &s,
        &[json!({"a": "s", "b": true, "c": 1})],
        &[
            json!({"a": "s", "b": 1, "c": 1}),
            json!({"a": "s", "b": true, "c": true}),
        ],
    );
    let p = json!({"type": "object", "properties": {"a b": {"type": "string"}, "a-b": {"type": "integer"}},
                   "required": ["a b", "a-b"]});
    check(
        &p,
        &[json!({"a b": "s", "a-b": 1})],
        &[json!({"a b": 1, "a-b": "s"})],
    );
}
