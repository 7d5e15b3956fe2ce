//! Decode benches: the fast path (already valid arguments) against `serde_json::from_str` of the
//! same bytes into the same type, and typical broken arguments. Each bench asserts its result
//! before timing it.
//!
//! Run: `cargo bench --no-default-features --bench decode`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use toolmend::decode::{Decoder, Policy, decode, decoder_for};

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Typical tool arguments: a string, an enum, an optional integer, a list.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
struct Weather {
    location: String,
    unit: Unit,
    days: Option<u32>,
    fields: Vec<String>,
}

const VALID: &str = r#"{"location": "Paris, France", "unit": "celsius", "days": 3, "fields": ["temperature", "wind"]}"#;
const BROKEN: &str =
    r#"{"Location": "Paris, France", "unit": "Celsius", "days": "3", "fields": "temperature",}"#;

fn fast_path(c: &mut Criterion) {
    let policy = Policy::default();
    let dec: Decoder = decoder_for::<Weather>().expect("schema compiles");
    let typed = dec.decode::<Weather>(VALID, &policy).expect("valid");
    assert!(typed.coercions.is_empty() && typed.fixes.is_empty());
    assert_eq!(typed.value, serde_json::from_str::<Weather>(VALID).unwrap());

    let mut g = c.benchmark_group("valid");
    g.bench_function("serde_json::from_str", |b| {
        b.iter(|| serde_json::from_str::<Weather>(black_box(VALID)).unwrap());
    });
    g.bench_function("decode::<T>", |b| {
        b.iter(|| decode::<Weather>(black_box(VALID), &policy).unwrap());
    });
    g.bench_function("Decoder::decode::<T>", |b| {
        b.iter(|| dec.decode::<Weather>(black_box(VALID), &policy).unwrap());
    });
    g.bench_function("serde_json::from_str::<Value>", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(VALID)).unwrap());
    });
    g.bench_function("Decoder::decode_value", |b| {
        b.iter(|| dec.decode_value(black_box(VALID), &policy).unwrap());
    });
    g.finish();
}

fn broken(c: &mut Criterion) {
    let policy = Policy::default();
    let dec = decoder_for::<Weather>().expect("schema compiles");
    let d = dec.decode::<Weather>(BROKEN, &policy).expect("repairable");
    assert_eq!(d.coercions.len(), 4, "{:?}", d.coercions);
    assert_eq!(d.value.fields, vec!["temperature".to_owned()]);
    let bad = r#"{"loc": "Paris", "unit": "kelvin", "days": "three", "fields": []}"#;
    assert!(dec.decode::<Weather>(bad, &policy).is_err());

    let mut g = c.benchmark_group("typical_broken");
    g.bench_function("coerced", |b| {
        b.iter(|| dec.decode::<Weather>(black_box(BROKEN), &policy).unwrap());
    });
    g.bench_function("rejected_with_message", |b| {
        b.iter(|| {
            dec.decode::<Weather>(black_box(bad), &policy)
                .unwrap_err()
                .to_string()
        });
    });
    g.finish();
}

criterion_group!(benches, fast_path, broken);
criterion_main!(benches);
