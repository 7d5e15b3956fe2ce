//! The decode API end to end: typed decode, `Value` decode, policies and corrective messages.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use toolmend::decode::{Coercion, CoercionKind, DecodeError, Decoder, Policy, decode};

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Weather lookup arguments.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
struct Weather {
    /// City name.
    location: String,
    unit: Unit,
    #[schemars(range(min = 1, max = 14))]
    days: u32,
}

/// The coercions as `(path, kind)` pairs, in order.
fn kinds(coercions: &[Coercion]) -> Vec<(&str, CoercionKind)> {
    coercions
        .iter()
        .map(|c| (c.path.as_str(), c.kind))
        .collect()
}

#[test]
fn valid_args_decode_with_no_receipts() {
    let d = decode::<Weather>(
        r#"{"location": "Paris", "unit": "celsius", "days": 3}"#,
        &Policy::default(),
    )
    .unwrap();
    assert_eq!(d.value.days, 3);
    assert!(d.coercions.is_empty());
    assert!(d.fixes.is_empty());
}

#[test]
fn typical_slightly_wrong_args_are_coerced_and_reported() {
    let d = decode::<Weather>(
        r#"{"Location": "Paris", "unit": "Celsius", "days": "3"}"#,
        &Policy::default(),
    )
    .unwrap();
    let kinds = kinds(&d.coercions);
    assert_eq!(
        kinds,
        vec![
            ("/location", CoercionKind::KeyCase),
            ("/unit", CoercionKind::EnumCase),
            ("/days", CoercionKind::StringToInteger)
        ]
    );
}

#[test]
fn bad_call_message_is_short_and_names_the_fix() {
    let err = decode::<Weather>(
        r#"{"loc": "Paris", "unit": "kelvin", "days": "three"}"#,
        &Policy::default(),
    )
    .unwrap_err();
    let msg = err.corrective_message();
    println!("{msg}");
    assert!(msg.lines().count() <= 6, "{msg}");
    // "kelvin" is close to no unit and "three" is no number: what is needed is said, and no
    // corrected call is made up.
    assert!(
        msg.contains("choose \"unit\" from the values listed"),
        "{msg}"
    );
    assert!(msg.contains("send \"days\" as an integer"), "{msg}");
    assert!(!msg.contains("Corrected arguments"), "{msg}");
    assert!(matches!(err, DecodeError::Invalid { .. }));
}

#[test]
fn value_input_and_json_string_input() {
    let dec = Decoder::new(&toolmend::schema::schema_for::<Weather>()).unwrap();
    let v = json!({"location": "Oslo", "unit": "fahrenheit", "days": 2});
    let d = dec.decode::<Weather>(&v, &Policy::default()).unwrap();
    assert_eq!(d.value.location, "Oslo");
    let s = json!(r#"{"location": "Oslo", "unit": "fahrenheit", "days": 2}"#);
    let d = dec.decode::<Weather>(&s, &Policy::default()).unwrap();
    assert_eq!(d.value.unit, Unit::Fahrenheit);
}

#[test]
fn raw_schemars_integer_formats_are_bounds() {
    // A schema straight from schemars (not normalised): `format: uint8` still bounds the value.
    let s = serde_json::to_value(schemars::schema_for!(Small)).unwrap();
    assert_eq!(s["properties"]["n"]["format"], "uint8");
    let dec = Decoder::new(&s).unwrap();
    let ok = dec
        .decode::<Small>(r#"{"n": 7}"#, &Policy::default())
        .unwrap();
    assert_eq!(ok.value.n, 7);
    let e = dec
        .decode::<Small>(r#"{"n": 300}"#, &Policy::default())
        .unwrap_err();
    assert!(e.to_string().contains("from 0 to 255"), "{e}");
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Small {
    n: u8,
}

/// A shape, tagged by `kind` (flattened into [`Draw`]).
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Circle { r: f64 },
    Square { side: f64 },
}

/// A struct with a flattened internally tagged enum: schemars puts the enum's variants in a
/// `oneOf` beside the struct's own `properties`.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
struct Draw {
    color: String,
    #[serde(flatten)]
    shape: Shape,
}

#[test]
fn flattened_tagged_enum_keeps_every_field() {
    // Regression: each part of the schema dropped the keys the other declared.
    let p = Policy::default();
    let d = decode::<Draw>(r#"{"color": "red", "kind": "circle", "r": 2.0}"#, &p).unwrap();
    assert_eq!(
        d.value,
        Draw {
            color: "red".into(),
            shape: Shape::Circle { r: 2.0 }
        }
    );
    assert!(d.coercions.is_empty(), "{:?}", d.coercions);
    let d = decode::<Draw>(
        r#"{"color": "red", "kind": "square", "side": "3", "zz": 1}"#,
        &p,
    )
    .unwrap();
    assert_eq!(d.value.shape, Shape::Square { side: 3.0 });
    let kinds = kinds(&d.coercions);
    assert_eq!(
        kinds,
        [
            // `side` is an f64: "3" for it is a number coercion (was named string_to_integer).
            ("/side", CoercionKind::StringToNumber),
            ("/zz", CoercionKind::UnknownKeyDropped)
        ]
    );
}

#[test]
fn receipts_keep_what_was_sent() {
    // Regression: an unwrapped array was recorded as [] (popped before it was saved), and a
    // duplicate key's discarded value as null.
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}, "distance": {"type": "integer"}}});
    let dec = Decoder::new(&schema).unwrap();
    let d = dec
        .decode_value(
            r#"{"n": ["5"], "distance": 100, "distance": 200}"#,
            &Policy::default(),
        )
        .unwrap();
    assert_eq!(d.value, json!({"n": 5, "distance": 200}));
    let got: Vec<(String, CoercionKind, serde_json::Value)> = d
        .coercions
        .iter()
        .map(|c| (c.path.clone(), c.kind, c.original.clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "/distance".to_owned(),
                CoercionKind::DuplicateKey,
                json!(100)
            ),
            ("/n".to_owned(), CoercionKind::UnwrappedArray, json!(["5"])),
            ("/n".to_owned(), CoercionKind::StringToInteger, json!("5")),
        ]
    );
    // First wins: the discarded value is the later one.
    let d = dec
        .decode_value(
            r#"{"distance": 100, "distance": 200}"#,
            &Policy::default().with_duplicate_keys(toolmend::decode::DuplicateKeys::FirstWins),
        )
        .unwrap();
    assert_eq!(d.value, json!({"distance": 100}));
    assert_eq!(d.coercions[0].original, json!(200));
}
