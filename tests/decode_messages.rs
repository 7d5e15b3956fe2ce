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
    let m = message(
        r#"{"location": "Paris", "unit": "celsius", "days": "next week"}"#,
        &Policy::default(),
    );
    assert!(
        m.contains(
            "- /days: expected an integer from 1 to 14, received \"next week\". Fix: \"days\": 1"
        ),
        "{m}"
    );
    assert!(m.contains(r#"Corrected arguments: {"location":"Paris","unit":"celsius","days":1}"#));
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
    assert!(m.contains("expected one of \"celsius\", \"fahrenheit\", received \"kelvin\". Fix: \"unit\": \"celsius\""), "{m}");
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
fn a_field_made_of_all_of_parts_is_described_and_fixed_with_every_part() {
    // Regression: the example for a field whose schema is only `allOf` parts came from the first
    // part alone (`"x": {"p":"text"}`, missing the second part's required `q`), so the fix the
    // model copied failed again; its description named only the first part's fields.
    let schema = serde_json::json!({"type": "object", "required": ["x"], "properties": {"x": {"allOf": [
        {"type": "object", "properties": {"p": {"type": "string"}}, "required": ["p"]},
        {"properties": {"q": {"type": "integer", "minimum": 3}}, "required": ["q"]}
    ]}}});
    let d = toolmend::decode::Decoder::new(&schema).unwrap();
    let e = d.decode_value("{}", &Policy::default()).unwrap_err();
    let m = e.corrective_message();
    println!("{m}");
    assert!(m.contains("(an object with fields p, q)"), "{m}");
    assert!(m.contains(r#"Fix: add "x": {"p":"text","q":3}"#), "{m}");
    assert!(
        m.contains(r#"Corrected arguments: {"x":{"p":"text","q":3}}"#),
        "{m}"
    );
}
