//! Fuzz target `decode`: arbitrary argument text against a few fixed schemas. Decoding never
//! panics; every `Ok` value validates against its schema (decoding it again as a native value
//! succeeds with no coercions and returns it unchanged — the decoder validates with `jsonschema`);
//! the typed path agrees with the `Value` path. The first byte picks the schema and the policy;
//! the rest is the argument text.

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolmend::decode::{Decoder, DuplicateKeys, Policy, UnknownKeys};

#[path = "../../tests/support/decode_schemas.rs"]
mod decode_schemas;

fn schemas() -> &'static [Decoder] {
    static S: OnceLock<Vec<Decoder>> = OnceLock::new();
    S.get_or_init(|| {
        let list: Vec<Value> = decode_schemas::schemas();
        list.iter().map(|s| Decoder::new(s).unwrap()).collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let all = schemas();
    let dec = &all[usize::from(first) % all.len()];
    let mut policy = Policy::default();
    if first & 0x10 != 0 {
        policy = policy.with_unknown_keys(UnknownKeys::Reject);
    }
    if first & 0x20 != 0 {
        policy = policy.with_duplicate_keys(DuplicateKeys::FirstWins);
    }
    if first & 0x40 != 0 {
        policy = policy.with_round_floats(true).with_enum_substring(true);
    }
    let by_value = dec.decode_value(text, &policy);
    match &by_value {
        Ok(d) => {
            let again = dec.decode_value(&d.value, &policy).expect("an Ok value validates");
            assert!(again.coercions.is_empty(), "not a fixed point: {:?}", again.coercions);
            assert_eq!(again.value, d.value);
        }
        Err(e) => {
            let _ = e.corrective_message();
        }
    }
    let typed = dec.decode::<Value>(text, &policy);
    match (&by_value, &typed) {
        (Ok(a), Ok(b)) => assert!(a.value == b.value && a.coercions == b.coercions),
        (Err(_), Err(_)) => {}
        _ => panic!("typed and value paths disagree"),
    }
});
