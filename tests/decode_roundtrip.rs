//! Property: arguments serialised from arbitrary typed values decode back to the same value with
//! zero coercions and zero fixes (coercion never fires where the schema does not ask for it).

use std::collections::BTreeMap;

use proptest::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolmend::decode::{Policy, decode};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Mode {
    Fast,
    SlowAndSteady,
    Off,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Target {
    File { path: String },
    Url { url: String, retries: u8 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Inner {
    name: String,
    weight: f64,
    flag: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Args {
    text: String,
    count: u32,
    delta: i64,
    big: u64,
    ratio: f64,
    mode: Mode,
    maybe_mode: Option<Mode>,
    maybe_count: Option<i32>,
    words: Vec<String>,
    numbers: Vec<i16>,
    inner: Inner,
    maybe_inner: Option<Inner>,
    tags: BTreeMap<String, u16>,
    target: Target,
    nested: Vec<Vec<bool>>,
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![Just(Mode::Fast), Just(Mode::SlowAndSteady), Just(Mode::Off)]
}

fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("finite", |x| x.is_finite()),
        Just(5.0),
        Just(-0.0)
    ]
}

fn inner() -> impl Strategy<Value = Inner> {
    (any::<String>(), finite(), any::<bool>()).prop_map(|(name, weight, flag)| Inner {
        name,
        weight,
        flag,
    })
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        any::<String>().prop_map(|path| Target::File { path }),
        (any::<String>(), any::<u8>()).prop_map(|(url, retries)| Target::Url { url, retries }),
    ]
}

fn args() -> impl Strategy<Value = Args> {
    (
        (
            any::<String>(),
            any::<u32>(),
            any::<i64>(),
            any::<u64>(),
            finite(),
            mode(),
        ),
        (
            proptest::option::of(mode()),
            proptest::option::of(any::<i32>()),
            proptest::collection::vec(any::<String>(), 0..4),
            proptest::collection::vec(any::<i16>(), 0..4),
        ),
        (
            inner(),
            proptest::option::of(inner()),
            proptest::collection::btree_map(any::<String>(), any::<u16>(), 0..3),
            target(),
            proptest::collection::vec(proptest::collection::vec(any::<bool>(), 0..3), 0..3),
        ),
    )
        .prop_map(
            |(
                (text, count, delta, big, ratio, mode),
                (maybe_mode, maybe_count, words, numbers),
                (inner, maybe_inner, tags, target, nested),
            )| Args {
                text,
                count,
                delta,
                big,
                ratio,
                mode,
                maybe_mode,
                maybe_count,
                words,
                numbers,
                inner,
                maybe_inner,
                tags,
                target,
                nested,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn serialised_args_decode_unchanged(x in args()) {
        let text = serde_json::to_string(&x).unwrap();
        let d = decode::<Args>(text.as_str(), &Policy::default()).unwrap();
        prop_assert!(d.coercions.is_empty(), "coercions: {:?}", d.coercions);
        prop_assert!(d.fixes.is_empty());
        prop_assert_eq!(d.value, x.clone());

        // The same through a Value (a native tool call's arguments), pretty-printed text too.
        let v = serde_json::to_value(&x).unwrap();
        let d = decode::<Args>(v, &Policy::default()).unwrap();
        prop_assert!(d.coercions.is_empty());
        prop_assert_eq!(d.value, x.clone());
        let pretty = serde_json::to_string_pretty(&x).unwrap();
        let d = decode::<Args>(pretty.as_str(), &Policy::default()).unwrap();
        prop_assert!(d.coercions.is_empty());
        prop_assert_eq!(d.value, x);
    }
}
