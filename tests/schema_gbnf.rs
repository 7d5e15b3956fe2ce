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

/// The keywords in the dropped report, as `path:keyword`.
fn dropped(g: &toolmend::schema::Grammar) -> Vec<String> {
    g.dropped
        .iter()
        .map(|d| format!("{}:{}", d.path, d.keyword))
        .collect()
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
    // A `$ref` chain that only comes back to itself describes no value (and would be left
    // recursion llama.cpp refuses).
    let s = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
                   "type": "object", "properties": {"x": {"$ref": "#/$defs/A"}}});
    assert!(gbnf(&[("t", &s)], &Envelope::json()).is_err());
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

#[test]
fn a_false_subschema_leaves_out_its_property_or_branch() {
    // Regression: `false` anywhere made the whole grammar an error.
    let s = json!({"type": "object", "properties": {"a": {"type": "string"}, "legacy": false}});
    check(&s, &[json!({"a": "x"}), json!({})], &[json!({"legacy": 1})]);
    let s = json!({"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, false]}}, "required": ["v"]});
    check(&s, &[json!({"v": "x"})], &[json!({"v": 1})]);
    // A required property nothing can satisfy: the tool accepts no call at all.
    let s = json!({"type": "object", "properties": {"legacy": false}, "required": ["legacy"]});
    assert!(gbnf(&[("t", &s)], &Envelope::json()).is_err());
}

#[test]
fn openapi_nullable_admits_null() {
    let s = json!({"type": "object", "properties": {"n": {"type": "string", "nullable": true},
                                                     "m": {"type": "integer", "nullable": true, "minimum": 0}},
                   "required": ["n"]});
    let (r, _) = grammar(&s);
    assert!(r.accepts(&json_call("t", &json!({"n": null, "m": null}))));
    assert!(r.accepts(&json_call("t", &json!({"n": "s", "m": 3}))));
    assert!(!r.accepts(&json_call("t", &json!({"n": 1}))));
}

#[test]
fn a_required_name_without_a_property_schema_is_still_required() {
    // Regression: `required: ["a"]` without `properties.a` rejected `{"a": 1}` and accepted `{}`.
    let s = json!({"type": "object", "properties": {"b": {"type": "string"}}, "required": ["a"]});
    check(
        &s,
        &[json!({"a": 1}), json!({"a": [1], "b": "x"})],
        &[json!({})],
    );
    let s = json!({"type": "object", "properties": {"b": {"type": "string"}}, "required": ["a"],
                   "additionalProperties": {"type": "integer"}});
    check(
        &s,
        &[json!({"a": 1})],
        &[json!({"a": "x"}), json!({"b": "x"})],
    );
}

#[test]
fn all_of_parts_and_sibling_keywords_all_apply() {
    // Regression: only the first `allOf` part was used and the node's own keywords were ignored.
    let s = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
                   "allOf": [{"properties": {"b": {"type": "integer"}}}]});
    check(
        &s,
        &[json!({"a": "x"}), json!({"a": "x", "b": 2})],
        &[
            json!({"b": 1}),
            json!({"a": "x", "b": "y"}),
            json!({"a": 1}),
        ],
    );
    // Parts from `$ref`s; a property in two parts takes both schemas; bounds are the tightest.
    let s = json!({"$defs": {"Named": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 5}},
                                       "required": ["name"]}},
                   "type": "object",
                   "properties": {"p": {"allOf": [{"$ref": "#/$defs/Named"},
                                                  {"properties": {"name": {"minLength": 2}, "n": {"type": "number", "minimum": 0}}},
                                                  {"properties": {"n": {"type": "integer"}}}]}},
                   "required": ["p"]});
    check(
        &s,
        &[
            json!({"p": {"name": "ab"}}),
            json!({"p": {"name": "abcde", "n": 3}}),
        ],
        &[
            json!({"p": {"name": "a"}}),
            json!({"p": {"name": "abcdef"}}),
            json!({"p": {"n": 1}}),
            json!({"p": {"name": "ab", "n": 1.5}}),
        ],
    );
    // Parts that contradict each other accept nothing: an optional property is left out.
    let s = json!({"type": "object", "properties": {"x": {"allOf": [{"type": "string"}, {"type": "integer"}]},
                                                     "y": {"allOf": [{"const": 1}, {"const": 2}]},
                                                     "z": {"allOf": [{"type": "number"}, {"enum": ["a", 1, 2.5]}]}}});
    check(
        &s,
        &[json!({}), json!({"z": 1}), json!({"z": 2.5})],
        &[json!({"x": "s"}), json!({"y": 1}), json!({"z": "a"})],
    );
    // Keywords the parts give different values the merge cannot combine are reported.
    let s = json!({"type": "object", "properties": {"s": {"allOf": [{"type": "string", "pattern": "^a"}, {"pattern": "b$"}]}}});
    let (_, g) = grammar(&s);
    let d = dropped(&g);
    assert_eq!(
        d.iter().filter(|d| d.ends_with(":pattern")).count(),
        2,
        "{d:?}"
    );
    // A cycle of `allOf`s through `$ref`s is an error, not a loop.
    let s = json!({"$defs": {"A": {"allOf": [{"$ref": "#/$defs/B"}]}, "B": {"allOf": [{"$ref": "#/$defs/A"}]}},
                   "type": "object", "properties": {"x": {"$ref": "#/$defs/A"}}});
    assert!(gbnf(&[("t", &s)], &Envelope::json()).is_err());
}

#[test]
fn a_ref_with_sibling_keywords_applies_both() {
    let s = json!({"$defs": {"Name": {"type": "string"}},
                   "type": "object",
                   "properties": {"n": {"$ref": "#/$defs/Name", "maxLength": 3, "description": "short"}},
                   "required": ["n"]});
    check(
        &s,
        &[json!({"n": "abc"})],
        &[json!({"n": "abcd"}), json!({"n": 1})],
    );
}

#[test]
fn any_of_branches_take_the_keywords_beside_them() {
    // Regression: the node's own type, properties and required were ignored beside `anyOf`, so
    // `( value | value )` accepted strings, numbers and `{}`.
    let s = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
                   "anyOf": [{"required": ["a"]}, {"required": ["b"]}]});
    let p = json!({"type": "object", "properties": {"p": s}, "required": ["p"]});
    check(
        &p,
        &[
            json!({"p": {"a": "x"}}),
            json!({"p": {"b": "y"}}),
            json!({"p": {"a": "x", "b": "y"}}),
        ],
        &[
            json!({"p": "hello"}),
            json!({"p": 42}),
            json!({"p": [1]}),
            json!({"p": {}}),
            json!({"p": {"a": 1}}),
        ],
    );
    // Branches that contradict the siblings are left out.
    let s = json!({"type": "object", "properties": {"v": {"type": "string", "anyOf": [{"type": "integer"}, {"maxLength": 2}]}},
                   "required": ["v"]});
    check(
        &s,
        &[json!({"v": "ab"})],
        &[json!({"v": 1}), json!({"v": "abc"})],
    );
}

#[test]
fn one_of_exclusivity_is_reported_unless_the_branches_are_disjoint() {
    let overlap = json!({"type": "object", "properties": {"n": {"oneOf": [{"type": "integer"}, {"type": "number"}]}}});
    let (_, g) = grammar(&overlap);
    assert!(
        dropped(&g).contains(&"/t/properties/n:oneOf".to_owned()),
        "{:?}",
        g.dropped
    );
    // Different types, disjoint enums, and schemars' internally tagged enums are exclusive.
    #[allow(dead_code)]
    #[derive(schemars::JsonSchema)]
    #[serde(tag = "kind")]
    enum Shape {
        Circle { r: f64 },
        Square { side: f64 },
    }
    #[allow(dead_code)]
    #[derive(schemars::JsonSchema)]
    struct Args {
        shape: Shape,
    }
    for s in [
        json!({"type": "object", "properties": {"n": {"oneOf": [{"type": "integer"}, {"type": "string"}]}}}),
        json!({"type": "object", "properties": {"n": {"oneOf": [{"enum": ["a", "b"]}, {"const": "c"}]}}}),
        schema_for::<Args>(),
    ] {
        let (_, g) = grammar(&s);
        assert!(
            !dropped(&g).iter().any(|d| d.ends_with(":oneOf")),
            "{s}: {:?}",
            g.dropped
        );
    }
    let s = schema_for::<Args>();
    check(
        &s,
        &[
            json!({"shape": {"kind": "Circle", "r": 1.5}}),
            json!({"shape": {"kind": "Square", "side": 2}}),
        ],
        &[
            json!({"shape": {"kind": "Circle", "side": 2}}),
            json!({"shape": {"kind": "Oval", "r": 1}}),
        ],
    );
}

#[test]
fn tuples_follow_prefix_items_and_array_form_items() {
    for s in [
        json!({"type": "object", "properties": {"p": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "string"}],
                                                      "items": false}}, "required": ["p"]}),
        json!({"type": "object", "properties": {"p": {"type": "array", "items": [{"type": "number"}, {"type": "string"}],
                                                      "additionalItems": false}}, "required": ["p"]}),
    ] {
        let draft7 = s["properties"]["p"]["items"].is_array();
        let (r, g) = grammar(&s);
        for ok in [json!({"p": [1, "a"]}), json!({"p": [1]}), json!({"p": []})] {
            assert!(r.accepts(&json_call("t", &ok)), "{ok}\n{}", g.text);
        }
        for bad in [
            json!({"p": [1, "a", 3]}),
            json!({"p": ["a"]}),
            json!({"p": [1, 2]}),
        ] {
            assert!(!r.accepts(&json_call("t", &bad)), "{bad}\n{}", g.text);
        }
        if !draft7 {
            // jsonschema's default draft reads `prefixItems`; draft-7 forms are checked above only.
            check(&s, &[json!({"p": [1, "a"]})], &[json!({"p": [1, "a", 3]})]);
        }
    }
    // Within `minItems` the prefix is required; after it, `items` governs the rest.
    let s = json!({"type": "object", "properties": {"p": {"type": "array", "prefixItems": [{"type": "string"}],
                                                          "items": {"type": "integer"}, "minItems": 2, "maxItems": 3}},
                   "required": ["p"]});
    check(
        &s,
        &[json!({"p": ["a", 1]}), json!({"p": ["a", 1, 2]})],
        &[
            json!({"p": ["a"]}),
            json!({"p": ["a", 1, 2, 3]}),
            json!({"p": ["a", "b"]}),
            json!({"p": [1, 2]}),
        ],
    );
    // `items` without `type` is an array's.
    let s = json!({"type": "object", "properties": {"l": {"items": {"type": "integer"}}}, "required": ["l"]});
    let (r, _) = grammar(&s);
    assert!(r.accepts(&json_call("t", &json!({"l": [1, 2]}))));
    assert!(!r.accepts(&json_call("t", &json!({"l": ["a"]}))));
}

#[test]
fn objects_without_properties_keep_their_other_keywords() {
    let s = json!({"type": "object", "properties": {"o": {"type": "object", "additionalProperties": false}}, "required": ["o"]});
    check(&s, &[json!({"o": {}})], &[json!({"o": {"x": 1}})]);
    let s = json!({"type": "object", "properties": {"o": {"type": "object", "additionalProperties": {"type": "integer"}}},
                   "required": ["o"]});
    check(
        &s,
        &[json!({"o": {}}), json!({"o": {"x": 1, "y": 2}})],
        &[json!({"o": {"x": "s"}})],
    );
    let s = json!({"type": "object", "properties": {"o": {"type": "object", "required": ["k"]}}, "required": ["o"]});
    check(
        &s,
        &[json!({"o": {"k": 1}}), json!({"o": {"k": 1, "j": [2]}})],
        &[json!({"o": {}}), json!({"o": {"j": 1}})],
    );
    let s = json!({"type": "object", "properties": {"o": {"additionalProperties": {"type": "string"}, "required": ["k"]}}, "required": ["o"]});
    check(
        &s,
        &[json!({"o": {"k": "v", "j": "w"}})],
        &[json!({"o": {"k": 1}}), json!({"o": {"j": "w"}})],
    );
}

#[test]
fn keywords_the_grammar_does_not_enforce_are_reported() {
    let s = json!({"type": "object", "properties": {
        "o": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
              "maxProperties": 1, "minProperties": 1, "dependentRequired": {"a": ["b"]},
              "dependentSchemas": {"a": {"required": ["b"]}}, "dependencies": {"b": ["a"]},
              "unevaluatedProperties": {"type": "string"}},
        "l": {"type": "array", "contains": {"type": "integer"}, "minContains": 1, "maxContains": 2,
              "unevaluatedItems": false},
        "c": {"if": {"type": "string"}, "then": {"minLength": 1}, "else": {"type": "integer"}}
    }});
    let (_, g) = grammar(&s);
    let d = dropped(&g);
    for k in [
        "/t/properties/o:maxProperties",
        "/t/properties/o:minProperties",
        "/t/properties/o:dependentRequired",
        "/t/properties/o:dependentSchemas",
        "/t/properties/o:dependencies",
        "/t/properties/o:unevaluatedProperties",
        "/t/properties/l:contains",
        "/t/properties/l:minContains",
        "/t/properties/l:maxContains",
        "/t/properties/l:unevaluatedItems",
        "/t/properties/c:if",
        "/t/properties/c:then",
        "/t/properties/c:else",
    ] {
        assert!(d.contains(&k.to_owned()), "{k} missing from {d:?}");
    }
}
