//! The fast paths (the streaming check behind `Decoder::decode`, the structural check behind
//! `decode_value`) and the full validator must give the same verdict, or whether a value is
//! accepted would depend on an unrelated field that sends decoding down the other path.

use serde_json::{Value, json};
use toolmend::decode::{Decoder, Policy};

/// Checks every value under `schema` (as the property `v`) with the validator, the typed fast
/// path and `decode_value`, and returns the disagreements.
fn disagreements(schema: &Value, values: &[Value]) -> Vec<String> {
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap();
    let d =
        Decoder::new(&json!({"type": "object", "properties": {"v": schema}, "required": ["v"]}))
            .unwrap();
    let mut out = Vec::new();
    for x in values {
        let want = validator.is_valid(x);
        let text = json!({"v": x}).to_string();
        let fast = d.decode::<Value>(text.as_str(), &Policy::default()).is_ok();
        let full = d.decode_value(text.as_str(), &Policy::default()).is_ok();
        if fast != want || full != want {
            out.push(format!(
                "{schema} with {x}: validator {want}, typed {fast}, decode_value {full}"
            ));
        }
    }
    out
}

#[test]
fn patterns_mean_what_ecma_262_says() {
    let strings: Vec<Value> = [
        "x",
        "a\rb",
        "a\nb",
        "a\u{2028}b",
        "a\u{2029}b",
        "a\u{85}b",
        "\r",
        "\n",
        "\u{2028}",
        "\u{2029}",
        "\u{85}",
        "\u{feff}",
        "\u{a0}",
        "\u{1680}",
        "\u{2000}",
        "\u{200b}",
        "\u{3000}",
        "\u{b}",
        "\u{c}",
        "\t",
        " ",
        "\u{180e}",
        "é",
        "١",
        "a\n",
    ]
    .iter()
    .map(|s| json!(s))
    .collect();
    let mut bad = Vec::new();
    for p in [
        "^.+$", "^.$", "^a.b$", "^[.]$", "^\\s$", "^\\S$", "^[\\s]$", "^[\\sx]$", "^\\w$", "^\\d$",
        "^[^a]$", "^a$",
    ] {
        bad.extend(disagreements(
            &json!({"type": "string", "pattern": p}),
            &strings,
        ));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn bounds_and_multiples_are_compared_exactly() {
    let big = [
        json!(9_007_199_254_740_991_u64),
        json!(9_007_199_254_740_992_u64),
        json!(9_007_199_254_740_993_u64),
        json!(9_007_199_254_740_992.0),
        json!(u64::MAX),
        json!(i64::MIN),
    ];
    let mut bad = Vec::new();
    for schema in [
        json!({"type": "integer", "maximum": 9_007_199_254_740_992_u64}),
        json!({"type": "integer", "minimum": 9_007_199_254_740_993_u64}),
        json!({"type": "integer", "exclusiveMaximum": 9_007_199_254_740_993_u64}),
        json!({"type": "number", "exclusiveMinimum": 9_007_199_254_740_992_u64}),
        json!({"type": "integer", "multipleOf": 2}),
        json!({"type": "integer", "format": "uint64"}),
        json!({"type": "integer", "format": "int64"}),
    ] {
        bad.extend(disagreements(&schema, &big));
    }
    let small = [
        json!(0.3),
        json!(0.7),
        json!(7),
        json!(7.0),
        json!(1e308),
        json!(0),
        json!(-3.5),
    ];
    for schema in [
        json!({"type": "number", "multipleOf": 0.1}),
        json!({"type": "number", "multipleOf": 3.5}),
        json!({"type": "number", "multipleOf": 7}),
        json!({"type": "number", "maximum": 0.1, "minimum": -3.5}),
    ] {
        bad.extend(disagreements(&schema, &small));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
