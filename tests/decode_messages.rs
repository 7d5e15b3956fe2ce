//! Corrective messages for typical bad calls: at most 6 lines, every problem with its pointer,
//! and a concrete fix (small models copy a concrete valid example best).

use schemars::JsonSchema;
use serde::Deserialize;
use toolmend::decode::{DecodeError, Policy, UnknownKeys, decode};

#[allow(dead_code)]
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Get the weather forecast.
#[allow(dead_code)]
#[derive(Debug, Deserialize, JsonSchema)]
struct Forecast {
    /// City name.
    location: String,
    unit: Unit,
    #[schemars(range(min = 1, max = 14))]
    days: u32,
}

fn message(args: &str, policy: &Policy) -> String {
    let e = decode::<Forecast>(args, policy).unwrap_err();
    assert!(matches!(e, DecodeError::Invalid { .. }));
    let m = e.corrective_message();
    println!("{args}\n{m}\n");
    assert!(m.lines().count() <= 6, "too long:\n{m}");
    assert!(m.contains("Fix: "), "{m}");
    m
}

#[test]
fn wrong_type() {
    // "next week" holds no number: the fix says what is needed; a made-up `1` would be copied
    // by the model and run as a real call, so there is no corrected call either.
    let m = message(
        r#"{"location": "Paris", "unit": "celsius", "days": "next week"}"#,
        &Policy::default(),
    );
    assert!(
        m.contains(
            "- field `days`: expected an integer from 1 to 14, received \"next week\". Fix: send \"days\" as an integer from 1 to 14"
        ),
        "{m}"
    );
    assert!(!m.contains("Corrected arguments"), "{m}");
    assert!(m.ends_with("Keep every other field as you sent it."), "{m}");
    // A number the model did send is kept as near as the bounds allow.
    let m = message(
        r#"{"location": "Paris", "unit": "celsius", "days": "30 days"}"#,
        &Policy::default(),
    );
    assert!(m.contains("Fix: \"days\": 14"), "{m}");
    assert!(
        m.contains(r#"Corrected arguments: {"location":"Paris","unit":"celsius","days":14}"#),
        "{m}"
    );
}

#[test]
fn misspelled_key() {
    let m = message(
        r#"{"city": "Paris", "unit": "celsius", "days": 3}"#,
        &Policy::default(),
    );
    assert!(m.contains("Fix: rename \"city\" to \"location\""), "{m}");
    assert!(m.contains(r#"Corrected arguments: {"location":"Paris","unit":"celsius","days":3}"#));
    // Rejected instead of dropped: still one problem, not two.
    let strict = Policy::default().with_unknown_keys(UnknownKeys::Reject);
    let e = decode::<Forecast>(
        r#"{"city": "Paris", "unit": "celsius", "days": 3}"#,
        &strict,
    )
    .unwrap_err();
    assert_eq!(e.problems().len(), 1, "{e}");
}

#[test]
fn bad_enum() {
    let m = message(
        r#"{"location": "Paris", "unit": "kelvin", "days": 3}"#,
        &Policy::default(),
    );
    // Nothing listed is close to "kelvin": the model chooses, toolmend does not.
    assert!(m.contains("expected one of \"celsius\", \"fahrenheit\", received \"kelvin\". Fix: choose \"unit\" from the values listed"), "{m}");
    assert!(!m.contains("Corrected arguments"), "{m}");
    // A misspelt value is close to one: that one is the fix.
    let m = message(
        r#"{"location": "Paris", "unit": "celcius", "days": 3}"#,
        &Policy::default(),
    );
    assert!(m.contains("Fix: \"unit\": \"celsius\""), "{m}");
    assert!(m.contains(r#"Corrected arguments: {"location":"Paris","unit":"celsius","days":3}"#));
}

#[test]
fn all_three_at_once_fit_in_six_lines() {
    let m = message(
        r#"{"city": "Paris", "unit": "kelvin", "days": "next week"}"#,
        &Policy::default(),
    );
    assert_eq!(m.lines().count(), 5, "{m}");
    assert!(m.starts_with("the arguments do not fit the tool's parameters (3 problems)"));
}

#[test]
fn malformed_text_says_what_to_send() {
    let e = decode::<Forecast>("get the weather in Paris", &Policy::default()).unwrap_err();
    assert!(matches!(e, DecodeError::Malformed(_)));
    assert!(
        e.to_string()
            .contains("Send the arguments as one JSON object"),
        "{e}"
    );
}

#[test]
fn a_field_made_of_all_of_parts_is_described_with_every_part() {
    // Regression: the description of a field whose schema is only `allOf` parts named the
    // first part's fields alone. Its missing value is described, not invented (the old fix was
    // `"x": {"p":"text","q":3}`, which validates and would have been copied as a real call).
    let schema = serde_json::json!({"type": "object", "required": ["x"], "properties": {"x": {"allOf": [
        {"type": "object", "properties": {"p": {"type": "string"}}, "required": ["p"]},
        {"properties": {"q": {"type": "integer", "minimum": 3}}, "required": ["q"]}
    ]}}});
    let d = toolmend::decode::Decoder::new(&schema).unwrap();
    let e = d.decode_value("{}", &Policy::default()).unwrap_err();
    let m = e.corrective_message();
    println!("{m}");
    assert!(m.contains("(an object with fields p, q)"), "{m}");
    assert!(m.contains(r#"Fix: add "x" with the value you mean"#), "{m}");
    assert!(!m.contains("Corrected arguments"), "{m}");
    assert!(!m.contains("text"), "{m}");
}

fn message_for(schema: serde_json::Value, args: &str) -> String {
    let d = toolmend::decode::Decoder::new(&schema).unwrap();
    let m = d
        .decode_value(args, &Policy::default())
        .unwrap_err()
        .corrective_message();
    println!("{args}\n{m}\n");
    m
}

#[test]
fn the_corrected_call_is_whole_or_left_out_never_cut() {
    // Regression: the line was cut at 400 bytes with "…"; copied back, it wrote a truncated file.
    let content: String = (0..20)
        .map(|i| format!("- item {i}: buy milk and eggs\n"))
        .collect();
    let schema = serde_json::json!({"type": "object", "properties": {
        "path": {"type": "string"}, "content": {"type": "string"}, "n": {"type": "integer"}},
        "required": ["path", "content"]});
    let args = serde_json::json!({"file": "notes.md", "content": content, "n": "2"}).to_string();
    let m = message_for(schema.clone(), &args.replace("\"2\"", "\"two\""));
    assert!(!m.contains('…'), "{m}");
    assert!(!m.contains("Corrected arguments"), "{m}");
    assert!(m.ends_with("Keep every other field as you sent it."), "{m}");
    // Short enough: the whole call, as valid JSON.
    let m = message_for(schema, r#"{"file": "notes.md", "content": "hi", "n": 2.4}"#);
    let line = m.lines().last().unwrap();
    let json = line.strip_prefix("Corrected arguments: ").expect(line);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(json).unwrap(),
        serde_json::json!({"path": "notes.md", "content": "hi", "n": 2})
    );
}

#[test]
fn fixes_come_from_the_values_sent() {
    let int = serde_json::json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    assert!(message_for(int.clone(), r#"{"n": "5.5"}"#).contains(r#"Fix: "n": 6"#));
    assert!(message_for(int.clone(), r#"{"n": "100 m"}"#).contains(r#"Fix: "n": 100"#));
    let m = message_for(int, r#"{"n": "1,5"}"#);
    assert!(m.contains(r#"Fix: send "n" as an integer"#), "{m}");
    let flag = serde_json::json!({"type": "object", "properties": {"b": {"type": "boolean"}}, "required": ["b"]});
    assert!(message_for(flag, r#"{"b": 7}"#).contains(r#"Fix: send "b" as true or false"#));
    let range = serde_json::json!({"type": "object", "properties": {"r": {"type": "array",
        "items": {"type": "number", "minimum": 1.0, "maximum": 3.5}}}, "required": ["r"]});
    assert!(
        message_for(range, r#"{"r": [0.5, 5]}"#).contains(r#"Corrected arguments: {"r":[1,3.5]}"#)
    );
    // A missing required field: described, never a placeholder that validates.
    let loc = serde_json::json!({"type": "object", "properties": {"location": {"type": "string"},
        "unit": {"enum": ["celsius", "fahrenheit"]}}, "required": ["location"]});
    let m = message_for(loc, r#"{"unit": "celsius"}"#);
    assert!(
        m.contains(r#"Fix: add "location" with the value you mean"#),
        "{m}"
    );
    assert!(
        !m.contains("\"text\"") && !m.contains("Corrected arguments"),
        "{m}"
    );
}

#[test]
fn a_fix_honours_every_keyword_or_describes_the_value() {
    let m = message_for(
        serde_json::json!({"type": "object", "properties": {"v": {"type": "integer", "minimum": 1, "maximum": 10, "multipleOf": 3}}, "required": ["v"]}),
        r#"{"v": 5}"#,
    );
    assert!(
        m.contains("expected an integer from 1 to 10 that is a multiple of 3"),
        "{m}"
    );
    assert!(m.contains(r#"Fix: "v": 6"#), "{m}");
    let m = message_for(
        serde_json::json!({"type": "object", "properties": {"v": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 4}}, "required": ["v"]}),
        r#"{"v": 5}"#,
    );
    assert!(m.contains(r#"Fix: "v": 3"#), "{m}");
    // A number just below an exclusive bound does not exist: described.
    let m = message_for(
        serde_json::json!({"type": "object", "properties": {"v": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}}, "required": ["v"]}),
        r#"{"v": 5}"#,
    );
    assert!(
        m.contains(r#"Fix: send "v" as a number above 0 and below 1"#),
        "{m}"
    );
    let pat = serde_json::json!({"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}$"}}, "required": ["code"]});
    assert!(message_for(pat.clone(), r#"{"code": "usd"}"#).contains(r#"Fix: "code": "USD""#));
    let m = message_for(pat, r#"{"code": "dollars"}"#);
    assert!(
        m.contains(r#"Fix: send "code" as a string matching ^[A-Z]{3}$"#),
        "{m}"
    );
    let m = message_for(
        serde_json::json!({"type": "object", "properties": {
            "t": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "u": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2}}}),
        r#"{"t": ["a", "a"], "u": ["a", "b", "c"]}"#,
    );
    assert!(
        m.contains(r#"no item repeated, received ["a","a"]. Fix: "t": ["a"]"#),
        "{m}"
    );
    assert!(m.contains("an array of strings with 1 to 2 items"), "{m}");
    let m = message_for(
        serde_json::json!({"type": "object", "properties": {"d": {"type": "string", "format": "date"}}, "required": ["d"]}),
        r#"{"d": "next Monday"}"#,
    );
    assert!(
        m.contains(r#"Fix: send "d" as a string in date format (YYYY-MM-DD)"#),
        "{m}"
    );
}

#[test]
fn a_stray_key_is_paired_with_a_missing_field_only_when_it_makes_sense() {
    let weather = serde_json::json!({"type": "object", "properties": {"location": {"type": "string"},
        "unit": {"enum": ["celsius", "fahrenheit"]}}, "required": ["location"]});
    // `verbose: true` is neither named like `location` nor a string: not a rename.
    let m = message_for(weather, r#"{"unit": "celsius", "verbose": true}"#);
    assert!(!m.contains("rename"), "{m}");
    assert!(
        m.contains(r#"Not parameters of this tool, so not used: "verbose""#),
        "{m}"
    );
    // Values that fit exactly one missing field each are paired; the rest are named as dropped.
    let cost = serde_json::json!({"type": "object", "properties": {"length_in_days": {"type": "integer"},
        "complexity": {"enum": ["low", "medium", "high"]}, "note": {"type": "string"}},
        "required": ["length_in_days", "complexity"]});
    let m = message_for(cost, r#"{"days": 10, "level": "high", "mood": "calm"}"#);
    assert!(
        m.contains(r#"Fix: rename "days" to "length_in_days""#),
        "{m}"
    );
    assert!(m.contains(r#"Fix: rename "level" to "complexity""#), "{m}");
    assert!(
        m.contains(r#"Not parameters of this tool, so not used: "mood""#),
        "{m}"
    );
    assert!(
        m.contains(r#"Corrected arguments: {"length_in_days":10,"complexity":"high"}"#),
        "{m}"
    );
}

#[test]
fn a_long_list_of_problems_is_capped() {
    let schema = serde_json::json!({"type": "object", "properties": {"ids": {"type": "array", "items": {"type": "integer"}}}, "required": ["ids"]});
    let args = serde_json::json!({"ids": vec!["x"; 500]}).to_string();
    let d = toolmend::decode::Decoder::new(&schema).unwrap();
    let e = d
        .decode_value(args.as_str(), &Policy::default())
        .unwrap_err();
    assert_eq!(e.problems().len(), 500);
    let m = e.corrective_message();
    assert_eq!(m.lines().count(), 1 + 8 + 1 + 1, "{m}");
    assert!(m.contains("- and 492 more problems like these"), "{m}");
    assert!(m.len() < 1500, "{} bytes", m.len());
}

#[test]
fn descriptions_are_not_garbled() {
    // Regression: a `not` schema read "a boolean or number or string or array or object (or
    // null)", an empty enum "one of ", and an allOf part's required field had no type.
    let m = message_for(
        serde_json::json!({"type": "object", "properties": {"v": {"not": {"type": "string"}}}, "required": ["v"]}),
        r#"{"v": "x"}"#,
    );
    assert!(
        m.contains(r#"expected a value that does not match {"type":"string"}"#),
        "{m}"
    );
    let m = message_for(
        serde_json::json!({"type": "object", "properties": {"v": {"enum": []}}}),
        r#"{"v": "x"}"#,
    );
    assert!(m.contains("expected no value at all"), "{m}");
    assert!(m.contains(r#"Fix: leave "v" out"#), "{m}");
    let m = message_for(
        serde_json::json!({"allOf": [{"type": "object", "properties": {"a": {"type": "integer"}}},
            {"properties": {"b": {"type": "string"}}, "required": ["b"]}]}),
        r#"{"a": 1}"#,
    );
    assert!(
        m.contains(r#"expected the required field "b" (a string)"#),
        "{m}"
    );
}
