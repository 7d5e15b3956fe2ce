//! `schema_for` normalises schemars output for tool use.

use schemars::JsonSchema;
use serde_json::json;
use toolmend::schema::{normalise, schema_for};

#[allow(dead_code)]
#[derive(JsonSchema)]
struct Args {
    #[schemars(range(min = 1))]
    small: u8,
    signed: i32,
    ratio: f64,
    nested: Vec<Inner>,
}

#[allow(dead_code)]
#[derive(JsonSchema)]
struct Inner {
    id: u64,
}

#[test]
fn integer_formats_become_bounds_and_meta_keys_go() {
    let s = schema_for::<Args>();
    assert!(s.get("$schema").is_none());
    let p = &s["properties"];
    assert_eq!(
        p["small"]["minimum"], 1,
        "an explicit tighter bound is kept"
    );
    assert_eq!(p["small"]["maximum"], 255);
    assert!(p["small"].get("format").is_none());
    assert_eq!(p["signed"]["minimum"], i64::from(i32::MIN));
    assert!(p["ratio"].get("format").is_none());
    assert_eq!(s["$defs"]["Inner"]["properties"]["id"]["maximum"], u64::MAX);
}

#[test]
fn normalise_leaves_other_formats_alone() {
    let mut s = json!({"type": "string", "format": "date-time", "$schema": "x"});
    normalise(&mut s);
    assert_eq!(s, json!({"type": "string", "format": "date-time"}));
}
